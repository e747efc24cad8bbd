"""Whole-table simulation: seeding, chunking, threads, Dask, merging, statistics with 95% CIs.

A run of ``hands`` hands is split into ``sessions`` (runs of consecutive hands with the dealer
rotating, docs/rules.md §8). Session i plays from its own seed, the i-th word of
``numpy.random.SeedSequence(seed).generate_state(sessions, uint64)``; the jitted engine seeds its
random state from it at the session start. Every session writes its own row of integer
statistics and rows are summed, so the result is identical for any number of threads, chunks or
Dask workers. A run streams: seeds are computed chunk by chunk and sessions are played in pieces
(their random state and dealer carried over), so memory does not grow with ``hands``.

>>> r = simulate(hands=8, seed=1)          # doctest: +SKIP
>>> r.hands, round(r.to_dict()["draw_rate"]["rate"], 3)   # doctest: +SKIP
"""

import math
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from . import interrupts
from ._kernels.table import driver as K
from ._kernels.table import layout as TL
from ._kernels.tables import tables
from .errors import PolicyError, UsageError, VariantError
from .rules import FAN_KEYS, Variant, load_variant

SEATS = ("E", "S", "W", "N")
METHODS = ("zimo", "dianpao", "mobao", "duibao")  # HOW_SELF, HOW_DISCARD, HOW_MOBAO, HOW_DUIBAO
HANDS_PER_SESSION = 16  # default session length when --sessions is not given
CHUNK_SESSIONS = 64  # sessions per task (results do not depend on it)
PIECE_HANDS = 256  # at most this many hands of a session per kernel call (progress, Ctrl-C)
MAX_HANDS = 10_000_000_000  # one run; memory does not grow with it, time does

POLICIES, POLICY_HELP = TL.POLICIES, TL.POLICY_HELP


def load_policy(path: str) -> tuple[int, ...]:
    """The weights of a policy file: a YAML mapping of weight names (``KNOB_NAMES``) to integers,
    on top of ``extends: PRESET`` (default baseline). A bad file, key or value: PolicyError
    (exit 3) naming it."""
    from .rules import read_mapping

    try:
        data = read_mapping(path, "policy file")
    except VariantError as e:
        raise PolicyError(str(e)) from None
    base = data.get("extends", "baseline")
    if not isinstance(base, str) or base not in POLICIES:
        raise PolicyError(
            f"policy file '{path}': bad extends {base!r}: expected one of {', '.join(POLICIES)}"
        )
    w = list(POLICIES[base])
    for k, v in data.items():
        if k == "extends":
            continue
        if k not in TL.KNOB_NAMES:
            raise PolicyError(
                f"policy file '{path}': unknown key '{k}': expected extends or one of "
                f"{', '.join(TL.KNOB_NAMES)}"
            )
        i = TL.KNOB_NAMES.index(k)
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= TL.KNOB_MAX[i]:
            raise PolicyError(
                f"policy file '{path}': bad value for '{k}': {v!r}: expected an integer "
                f"0 to {TL.KNOB_MAX[i]}"
            )
        w[i] = v
    return tuple(w)


def _is_policy_file(name: str) -> bool:
    return name.endswith((".yaml", ".yml")) or "/" in name or os.sep in name


def policy_matrix(policy: str | list[str] | None, option: str = "--policy"
                  ) -> tuple[list[str], np.ndarray]:  # fmt: skip
    """Bot weights for the four seats from one policy (a name or a policy file) or four,
    comma-separated (E,S,W,N); ``option`` names where they were given, for the messages."""
    policy = "baseline" if policy is None else policy
    names = policy if isinstance(policy, list) else policy.split(",")
    names = [n.strip() for n in names]
    if len(names) == 1:
        names = names * 4
    if len(names) != 4:
        raise UsageError(
            f"bad {option} '{policy}': give one policy or four (E,S,W,N), comma-separated"
        )
    rows = []
    for n in names:
        if n in POLICIES:
            rows.append(POLICIES[n])
        elif _is_policy_file(n):
            rows.append(load_policy(n))
        else:
            raise UsageError(f"bad {option} '{n}': expected one of {POLICY_HELP}")
    return names, np.array(rows, np.int64)


def table_params(v: Variant) -> np.ndarray:
    """The table parameters (TP_* layout) of a variant."""
    tp = np.zeros(TL.TP_LEN, np.int64)
    tp[TL.TP_DEAD_STACKS] = v.dead_wall_stacks
    tp[TL.TP_BAO_DICE] = v.bao_dice
    return tp


# The sessions' seeds: word i of numpy.random.SeedSequence(seed).generate_state(S, uint64). Word i
# does not depend on S, and numpy's hash gives it in closed form (constants of numpy's
# SeedSequence, whose output numpy keeps stable), so any range of words is computed on its own
# and a run streams its seeds; tests check the words against numpy's.
_INIT_B = 0x8B51F9DD
_MULT_B = 0x58F38DED
_M32 = 0xFFFFFFFF


def seed_words(seed: int, start: int, stop: int) -> np.ndarray:
    """Words ``start:stop`` of ``SeedSequence(seed).generate_state(S, uint64)`` (any S >= stop)."""
    pool = np.random.SeedSequence(seed).pool.astype(np.uint64)
    j0, n = 2 * start, 2 * (stop - start)  # two uint32 words per uint64, low first
    if n <= 0:
        return np.zeros(0, np.uint64)
    mult = np.full(n, _MULT_B, np.uint32)
    mult[0] = (_INIT_B * pow(_MULT_B, j0, 1 << 32)) & _M32
    hc = np.cumprod(mult, dtype=np.uint32).astype(np.uint64)  # the hash constant at word j
    data = pool[np.arange(j0, j0 + n) % len(pool)] ^ hc
    data = (data * ((hc * np.uint64(_MULT_B)) & np.uint64(_M32))) & np.uint64(_M32)
    data ^= data >> np.uint64(16)
    return data[0::2] | (data[1::2] << np.uint64(32))


def useful_tables():
    """The discard policy's useful-tile tables (``_kernels.useful``; imported when a table is
    played, so that importing this module loads no compiled kernel)."""
    from ._kernels.useful import useful_tables as ut

    return ut()


@dataclass(frozen=True)
class Plan:
    """How a run of ``hands`` is split into ``sessions`` (lengths differ by at most one), with
    the session seeds computed on demand: memory does not grow with the run."""

    hands: int
    sessions: int
    seed: int

    def seeds(self, a: int, b: int) -> np.ndarray:
        return seed_words(self.seed, a, b)

    def lengths(self, a: int, b: int) -> np.ndarray:
        q, r = divmod(self.hands, self.sessions)
        return q + (np.arange(a, b, dtype=np.int64) < r)

    def chunks(self, size: int):
        """(first session, seeds, lengths) of consecutive groups of ``size`` sessions."""
        for a in range(0, self.sessions, size):
            b = min(a + size, self.sessions)
            yield a, self.seeds(a, b), self.lengths(a, b)


def make_plan(hands: int, sessions: int | None, seed: int) -> Plan:
    """Check the run's size and seed (one-line errors) and plan its sessions."""
    if hands < 1:
        raise UsageError(f"bad --hands {hands}: expected at least 1")
    if hands > MAX_HANDS:
        raise UsageError(
            f"bad --hands {hands}: at most {MAX_HANDS:,} in one run (at a few thousand hands "
            "a second that is weeks); split a larger study into runs with different --seed"
        )
    if seed < 0:
        raise UsageError(f"bad --seed {seed}: expected a non-negative integer")
    if sessions is not None and not 1 <= sessions <= hands:
        raise UsageError(f"bad --sessions {sessions}: expected 1 to --hands ({hands})")
    n = sessions if sessions is not None else max(1, math.ceil(hands / HANDS_PER_SESSION))
    return Plan(hands, n, seed)


def session_plan(hands: int, sessions: int | None, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(seeds uint64[S], lengths int64[S]) of the sessions of a run (whole arrays: small runs)."""
    p = make_plan(hands, sessions, seed)
    return p.seeds(0, p.sessions), p.lengths(0, p.sessions)


def run_chunk(
    seeds: np.ndarray, lengths: np.ndarray, rv: np.ndarray, tp: np.ndarray, bots: np.ndarray,
    progress: Callable[[int], None] | None = None,
) -> np.ndarray:  # fmt: skip
    """Statistics (S_* row, summed) of the given sessions; the unit of work for threads and Dask.

    Sessions are played in pieces of at most PIECE_HANDS hands (a long session carries its
    random state and dealer from piece to piece), so progress and Ctrl-C are never far away;
    ``progress(hands)`` is told after each piece.
    """
    rs = np.array(seeds, np.uint64)
    dealers = np.zeros(len(rs), np.int64)
    left = np.array(lengths, np.int64)
    out = np.zeros((len(rs), TL.S_LEN), np.int64)
    tb = tables()
    ut = useful_tables()
    while left.any():
        counts = np.minimum(left, PIECE_HANDS)
        K.run_pieces(rs, dealers, counts, rv, tb, ut, tp, bots, out)
        left -= counts
        if progress is not None:
            progress(int(counts.sum()))
    return out.sum(axis=0)


def result_chunk(
    seeds: np.ndarray, lengths: np.ndarray, rv: np.ndarray, tp: np.ndarray, bots: np.ndarray,
    progress: Callable[[int], None] | None = None,
) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """``run_chunk`` also keeping every hand's result vector: (statistics, results[hands,
    R_LEN] in session order, each session's hands in play order). The same hands as
    ``run_chunk`` plays (same seeds, same pieces), so the statistics are identical."""
    rs = np.array(seeds, np.uint64)
    dealers = np.zeros(len(rs), np.int64)
    left = np.array(lengths, np.int64)
    out = np.zeros((len(rs), TL.S_LEN), np.int64)
    tb = tables()
    ut = useful_tables()
    parts: list[list[np.ndarray]] = [[] for _ in range(len(rs))]
    while left.any():
        counts = np.minimum(left, PIECE_HANDS)
        offsets = np.concatenate(([0], np.cumsum(counts)[:-1])).astype(np.int64)
        res = np.zeros((int(counts.sum()), TL.R_LEN), np.int64)
        K.result_pieces(rs, dealers, counts, offsets, rv, tb, ut, tp, bots, out, res)
        for i in range(len(rs)):
            if counts[i]:
                parts[i].append(res[offsets[i] : offsets[i] + counts[i]])
        left -= counts
        if progress is not None:
            progress(int(counts.sum()))
    rows = [p for ps in parts for p in ps]
    return out.sum(axis=0), (np.concatenate(rows) if rows else np.zeros((0, TL.R_LEN), np.int64))


CSV_COLUMNS = (
    ["hand", "session", "session_hand", "dealer", "winner", "how", "discarder", "tile", "fan",
     "items"]
    + [f"pay_{s}" for s in SEATS]
    + [f"kong_{s}" for s in SEATS]
)  # fmt: skip


ITEM_NAMES = ("pinghu", *FAN_KEYS[1:])  # the CSV's names of the fan items (FAN_* order)


def _fan_items(r) -> str:
    """The hand's own fan items (what every loser pays before 庄/点炮), space-separated: the
    ones the score kernel scored (``R_ITEMS``, filled by the table's settlement)."""
    mask = int(r[TL.R_ITEMS])
    return " ".join(name for i, name in enumerate(ITEM_NAMES) if mask >> i & 1)


def csv_rows(results: np.ndarray, first_hand: int, sessions: list[tuple[int, int]]):
    """CSV rows (CSV_COLUMNS) of consecutive hands; ``sessions``: (session, hands) in order."""
    from .tiles import tile_name

    k = 0
    for sess, n in sessions:
        for h in range(n):
            r = results[k]
            w = int(r[TL.R_WINNER])
            d = int(r[TL.R_DISCARDER])
            yield [
                first_hand + k, sess, h + 1, SEATS[int(r[TL.R_DEALER])],
                SEATS[w] if w >= 0 else "", METHODS[int(r[TL.R_HOW])] if w >= 0 else "huang",
                SEATS[d] if d >= 0 else "", tile_name(int(r[TL.R_TILE])) if w >= 0 else "",
                int(r[TL.R_FAN]) if w >= 0 else 0, _fan_items(r) if w >= 0 else "",
                *(int(r[TL.R_PAY + i]) for i in range(4)),
                *(int(r[TL.R_KONG_PAY + i]) for i in range(4)),
            ]  # fmt: skip
            k += 1


def _run_results(plan, rv, tp, bots, progress, on_results):
    """(statistics, interrupted) like ``_run_local``, handing each chunk's results to
    ``on_results(first session, lengths, results)``."""
    st = np.zeros(TL.S_LEN, np.int64)
    try:
        for a, seeds, lengths in plan.chunks(CHUNK_SESSIONS):
            row, res = result_chunk(seeds, lengths, rv, tp, bots, progress)
            with interrupts.deferred():  # (the statistics count the rows written: whole)
                on_results(a, lengths, res)
                st += row
    except KeyboardInterrupt:
        return st, True
    return st, False


def _run_local(plan, rv, tp, bots, progress):
    """(statistics, interrupted): chunks of sessions in turn, Numba threads within a chunk."""
    st = np.zeros(TL.S_LEN, np.int64)
    try:
        for _a, seeds, lengths in plan.chunks(CHUNK_SESSIONS):
            st += run_chunk(seeds, lengths, rv, tp, bots, progress)
    except KeyboardInterrupt:
        return st, True  # the chunks finished so far
    return st, False


def check_scheduler(scheduler: str, workers: int) -> None:
    """``local`` with 1 to a few per core workers, or a Dask scheduler address."""
    if scheduler == "local":
        top = 4 * (os.cpu_count() or 1)
        if not 1 <= workers <= top:
            raise UsageError(
                f"bad --workers {workers}: expected 1 to {top} worker processes on this machine"
            )
    elif not re.fullmatch(r"[a-z][a-z0-9+.-]*://[^\s/]+(:\d+)?/?|[^\s:/]+:\d+", scheduler):
        raise UsageError(
            f"bad --scheduler '{scheduler}': expected 'local' or a Dask scheduler address "
            "such as tcp://HOST:PORT"
        )


DASK_ANSWER_S = 20  # a scheduler address must answer as a Dask scheduler within this


def _connect(Client, scheduler: str):
    """A Dask client of the scheduler at ``scheduler``, or a UsageError: refused, unreachable,
    or something else listening there (a server that answers otherwise, or not at all: Dask's
    handshake would wait for ever, or read a banner as a message of exabytes)."""
    from .threaded import Background

    job = Background(Client, scheduler, timeout=10)
    job.thread.join(DASK_ANSWER_S)
    why = None
    if job.thread.is_alive():
        why = f"no answer as a Dask scheduler in {DASK_ANSWER_S} s"
    elif (e := job.error()) is not None:
        why = str(e) if isinstance(e, OSError | ValueError | TypeError) else "not a Dask scheduler"
    if why is not None:
        raise UsageError(f"cannot reach the Dask scheduler at {scheduler}: {why}")
    return job.outcome()


def _run_dask(plan, rv, tp, bots, scheduler, progress, workers, ready=None):
    """(statistics, interrupted) from Dask tasks of CHUNK_SESSIONS sessions, a bounded number
    in flight (memory does not grow with the run)."""
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise UsageError("--scheduler needs Dask: pip install 'ccmj_cli[dask]'") from None
    cluster = None
    if scheduler == "local":
        cluster = LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
        )
        client = Client(cluster)
    else:
        client = _connect(Client, scheduler)
    if ready is not None:
        ready()
    st = np.zeros(TL.S_LEN, np.int64)
    try:
        n_workers = len(client.scheduler_info().get("workers", {})) or workers
        chunks = plan.chunks(CHUNK_SESSIONS)
        sizes = {}
        pending = as_completed()

        def submit() -> bool:
            for _a, seeds, lengths in chunks:
                f = client.submit(run_chunk, seeds, lengths, rv, tp, bots, pure=False)
                sizes[f.key] = int(lengths.sum())
                pending.add(f)
                return True
            return False

        for _ in range(4 * max(1, n_workers)):
            if not submit():
                break
        for f in pending:
            st += f.result()  # integer sums: the merge does not depend on the order
            if progress is not None:
                progress(sizes.pop(f.key))
            submit()
        return st, False
    except KeyboardInterrupt:
        return st, True
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _rate(k: int, n: int) -> dict:
    """A proportion with its 95% Wilson score interval."""
    if n == 0:
        return {"count": k, "n": 0, "rate": None, "ci95": None}
    z = 1.959964
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return {
        "count": int(k),
        "n": int(n),
        "rate": p,
        "ci95": [max(0.0, mid - half), min(1.0, mid + half)],
    }


def _mean(total: float, total2: float, n: int) -> dict:
    """Mean, standard deviation and 95% normal interval of a per-hand quantity."""
    if n == 0:
        return {"mean": None, "sd": None, "ci95": None}
    m = total / n
    var = max(0.0, total2 / n - m * m) * (n / (n - 1) if n > 1 else 1.0)
    sd = math.sqrt(var)
    half = 1.959964 * sd / math.sqrt(n)
    return {"mean": m, "sd": sd, "ci95": [m - half, m + half]}


@dataclass
class SimResult:
    """Merged statistics of a run (``counts`` is the raw S_* row) and how it was run."""

    counts: np.ndarray
    seed: int
    sessions: int
    rules: str
    policy: list[str]
    threads: int | None = None
    scheduler: str | None = None
    seconds: float = 0.0
    interrupted: bool = False
    extra: dict = field(default_factory=dict)

    @property
    def hands(self) -> int:
        return int(self.counts[TL.S_HANDS])

    def to_dict(self) -> dict:
        c = [int(x) for x in self.counts]
        n = c[TL.S_HANDS]
        wins = n - c[TL.S_DRAWS]
        d = {
            "hands": n,
            "sessions": self.sessions,
            "seed": self.seed,
            "rules": self.rules,
            "policy": dict(zip(SEATS, self.policy, strict=True)),
            "win_rate": {s: _rate(c[TL.S_WINS + i], n) for i, s in enumerate(SEATS)},
            "dealer_win_rate": _rate(c[TL.S_DEALER_WINS], n),
            "draw_rate": _rate(c[TL.S_DRAWS], n),
            "by_method": {m: _rate(c[TL.S_METHOD + i], n) for i, m in enumerate(METHODS)},
            "jiahu_rate": _rate(c[TL.S_JIAHU], wins),
            "piao_rate": _rate(c[TL.S_PIAO], wins),
            "menqing_rate": _rate(c[TL.S_MENQING], wins),
            "fan_distribution": {
                (str(f) if f < TL.N_FAN_BINS - 1 else f"{f}+"): c[TL.S_FAN_HIST + f]
                for f in range(TL.N_FAN_BINS)
                if c[TL.S_FAN_HIST + f]
            },
            "mean_payout": {
                s: _mean(c[TL.S_PAY + i], c[TL.S_PAY2 + i], n) for i, s in enumerate(SEATS)
            },
            "dealer_mean_payout": _mean(c[TL.S_DEALER_PAY], c[TL.S_DEALER_PAY2], n),
            "kong_money": {
                "per_hand": c[TL.S_KONG_MONEY] / n if n else None,
                "mean_per_seat": {
                    s: (c[TL.S_KONG + i] / n if n else None) for i, s in enumerate(SEATS)
                },
                "kongs_per_hand": c[TL.S_KONGS] / n if n else None,
            },
            "discarder_mean_payout": _mean(
                c[TL.S_DISCARDER_PAY], c[TL.S_DISCARDER_PAY2], c[TL.S_DISCARD_WINS]
            ),
            "bao_rolled_rate": _rate(c[TL.S_BAO_ROLLED], n),
            "declare_rate": _rate(c[TL.S_DECLARED], 4 * n),
            "jiehu_rate": _rate(c[TL.S_JIEHU], n),
            "robbed_kongs": c[TL.S_ROBBED],
            "discards_per_hand": c[TL.S_DISCARDS] / n if n else None,
            "seats": {
                s: {
                    "policy": self.policy[i],
                    "win_rate": _rate(c[TL.S_WINS + i], n),
                    "dealin_rate": _rate(c[TL.S_DEALIN + i], n),
                    "wins_by_method": {
                        m: c[TL.S_SEAT_METHOD + 4 * i + j] for j, m in enumerate(METHODS)
                    },
                    "dealt_rate": _rate(c[TL.S_DEALT + i], n),
                    "declare_rate": _rate(c[TL.S_SEAT_DECLARED + i], n),
                    "mean_payout": _mean(c[TL.S_PAY + i], c[TL.S_PAY2 + i], n),
                }
                for i, s in enumerate(SEATS)
            },
            "threads": self.threads,
            "scheduler": self.scheduler,
            "seconds": round(self.seconds, 3),
            "hands_per_second": round(n / self.seconds, 1) if self.seconds > 0 else None,
            "interrupted": self.interrupted,
        }
        d.update(self.extra)
        return d


def simulate(
    hands: int = 10_000,
    sessions: int | None = None,
    seed: int = 0,
    rules: Variant | str | None = None,
    policy: str | list[str] | None = "baseline",
    threads: int | None = None,
    scheduler: str | None = None,
    log: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    workers: int = 2,
    note: Callable[[str], None] | None = None,
    csv=None,
    ready: Callable[[], None] | None = None,
) -> SimResult:
    """Simulate ``hands`` complete hands with four bots; identical results for the same seed.

    ``threads``: Numba threads on this machine (default: all). ``scheduler``: ``"local"`` for a
    Dask LocalCluster of ``workers`` processes, or ``"tcp://HOST:PORT"``. ``log``: write every
    hand as a JSON line (sessions recorded in parallel threads, written in order; no Dask).
    ``progress(done, total)`` is called as hands finish; ``note(text)`` with a status line (the
    first run compiles the engine, outside the timing). Memory does not grow with ``hands``.
    Ctrl-C ends the run early: the result holds the hands finished (``interrupted``); with
    ``log``, a Ctrl-C before any hand finished raises KeyboardInterrupt and leaves the file as it
    was.
    ``csv``: a text stream that gets one CSV row per hand (``CSV_COLUMNS``; local threads only).
    ``ready()`` is called once the engine is loaded, as the hands start (the ``ccmj`` command
    lets Ctrl-C through from then on).
    """
    v = rules if isinstance(rules, Variant) else load_variant(rules)
    names, bots = policy_matrix(policy)
    plan = make_plan(hands, sessions, seed)
    if threads is not None and threads < 1:
        raise UsageError(f"bad --threads {threads}: expected at least 1")
    if log is not None and csv is not None:
        raise UsageError("--csv and --log cannot be combined: write one, then the other")
    if log is not None or csv is not None:
        scheduler = None  # the log / CSV is written from this machine's threads
    if scheduler is not None:
        check_scheduler(scheduler, workers)
    rv = np.asarray(v.vector, np.int64)
    tp = table_params(v)
    done = 0

    def advance(n: int):
        nonlocal done
        done += n
        if progress is not None:
            progress(done, plan.hands)

    if scheduler is None:
        K.set_threads(threads)
        warm_up(note, log=log is not None, results=csv is not None)  # time the play only
        if ready is not None:
            ready()
    t0 = time.perf_counter()
    if log is not None:
        from .replay import write_log

        st, stopped = write_log(log, plan, rv, tp, bots, v, names, advance)
    elif csv is not None:
        import csv as csvmod

        w = csvmod.writer(csv, lineterminator="\n")
        w.writerow(CSV_COLUMNS)

        def write(a, lengths, res):
            first = int(plan.lengths(0, a).sum()) + 1 if a else 1
            w.writerows(csv_rows(res, first, [(a + i, int(n)) for i, n in enumerate(lengths)]))

        st, stopped = _run_results(plan, rv, tp, bots, advance, write)
    elif scheduler:
        st, stopped = _run_dask(plan, rv, tp, bots, scheduler, advance, workers, ready)
    else:
        st, stopped = _run_local(plan, rv, tp, bots, advance)
    dt = time.perf_counter() - t0
    return SimResult(
        st, seed, plan.sessions, v.name, names, None if scheduler else K.get_threads(),
        scheduler, dt, interrupted=stopped,
    )  # fmt: skip


def warm_up(note: Callable[[str], None] | None = None, log: bool = False, results: bool = False):
    """Load the engine from Numba's cache, or compile it (minutes: said through ``note``)."""
    if note is not None and K.cached(K.pieces) is False:
        note("compiling kernels (first run)…")
    rv = np.asarray(load_variant(None).vector, np.int64)
    tp = np.zeros(TL.TP_LEN, np.int64)
    bots = np.zeros((4, TL.N_KNOBS), np.int64)
    if log:
        from .replay import record_arrays

        a = record_arrays(0)
        z = np.zeros(0, np.int64)
        K.record_pieces(
            np.zeros(0, np.uint64), z, z, z, rv, tables(), useful_tables(), tp, bots, a["walls"],
            a["dices"],
            a["results"], a["events"], a["concs"], a["melds"], a["n_melds"], a["ponds"],
            a["melded"],
        )  # fmt: skip
        return
    # (the kernel itself, on no sessions: run_chunk/result_chunk would not call it at all)
    z = np.zeros(0, np.int64)
    out = np.zeros((0, TL.S_LEN), np.int64)
    if results:
        res = np.zeros((0, TL.R_LEN), np.int64)
        K.result_pieces(
            np.zeros(0, np.uint64), z, z, z, rv, tables(), useful_tables(), tp, bots, out, res
        )
    else:
        K.run_pieces(np.zeros(0, np.uint64), z, z, rv, tables(), useful_tables(), tp, bots, out)


# ------------------------------------------------------------------ paired comparison
def hand_values(res: np.ndarray) -> dict[str, np.ndarray]:
    """The per-hand quantities a comparison reports (one value per hand of ``res``), named as
    in the statistics: rates are 0/1 per hand, payouts in base units."""
    w = res[:, TL.R_WINNER]
    how = res[:, TL.R_HOW]
    won = w >= 0
    q: dict[str, np.ndarray] = {}
    for i, s in enumerate(SEATS):
        q[f"seats.{s}.win_rate"] = w == i
        q[f"seats.{s}.dealin_rate"] = (how == 1) & (res[:, TL.R_DISCARDER] == i) & won
        q[f"seats.{s}.declare_rate"] = (res[:, TL.R_DECLARED] >> i) & 1
        q[f"seats.{s}.mean_payout"] = res[:, TL.R_PAY + i]
    q["draw_rate"] = ~won
    for j, m in enumerate(METHODS):
        q[f"by_method.{m}"] = won & (how == j)
    q["jiahu_per_hand"] = won & (res[:, TL.R_JIAHU] != 0)
    q["piao_per_hand"] = won & (res[:, TL.R_PIAO] != 0)
    q["menqing_per_hand"] = won & (res[:, TL.R_MENQING] != 0)
    q["fan_per_hand"] = np.where(won, res[:, TL.R_FAN], 0)
    q["kong_money_per_hand"] = np.clip(res[:, TL.R_KONG_PAY : TL.R_KONG_PAY + 4], 0, None).sum(1)
    return {k: np.asarray(v, np.float64) for k, v in q.items()}


@dataclass
class Arm:
    """One side of a comparison: its label, rule vector, table parameters and bots."""

    label: str
    rules: str
    names: list[str]
    rv: np.ndarray
    tp: np.ndarray
    bots: np.ndarray

    def describe(self) -> dict:
        return {
            "arm": self.label, "rules": self.rules,
            "policy": dict(zip(SEATS, self.names, strict=True)),
        }  # fmt: skip


def parse_arm(spec: str, rules: Variant, policy: str | None) -> Arm:
    """``rules:FILE`` (a variant file; bots from ``policy``) or a policy line-up (one policy or
    four comma-separated, names or policy files; rules from ``rules``)."""
    spec = spec.strip()
    if not spec:
        raise UsageError("bad --compare arm '': give a policy line-up or rules:FILE")
    if spec.startswith("rules:"):
        v = load_variant(spec[len("rules:") :])
        names, bots = policy_matrix(policy)
    else:
        v = rules
        names, bots = policy_matrix(spec, "--compare")
    return Arm(spec, v.name, names, np.asarray(v.vector, np.int64), table_params(v), bots)


def compare(
    a: str, b: str, hands: int = 10_000, sessions: int | None = None, seed: int = 0,
    rules: Variant | str | None = None, policy: str | None = "baseline", threads: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    note: Callable[[str], None] | None = None, ready: Callable[[], None] | None = None,
) -> dict:  # fmt: skip
    """Play the same hands (the same session seeds: the same walls and dice per hand) under
    arms ``a`` and ``b`` and report each arm's value of every ``hand_values`` quantity and their
    paired difference (a − b: mean, sd, 95% normal interval over hands). Hand k of a session
    has the same wall in both arms; who deals it follows each arm's play (the dealer stays on a
    dealer win), so the pairing is by wall. ``ready()``: as in ``simulate``."""
    v = rules if isinstance(rules, Variant) else load_variant(rules)
    arm_a, arm_b = parse_arm(a, v, policy), parse_arm(b, v, policy)
    plan = make_plan(hands, sessions, seed)
    if threads is not None and threads < 1:
        raise UsageError(f"bad --threads {threads}: expected at least 1")
    K.set_threads(threads)
    warm_up(note, results=True)
    if ready is not None:
        ready()
    sums: dict[str, np.ndarray] = {}
    done = 0
    n = 0
    interrupted = False
    t0 = time.perf_counter()
    try:
        for _a, seeds, lengths in plan.chunks(CHUNK_SESSIONS):
            _st, ra = result_chunk(seeds, lengths, arm_a.rv, arm_a.tp, arm_a.bots)
            _st, rb = result_chunk(seeds, lengths, arm_b.rv, arm_b.tp, arm_b.bots)
            va, vb = hand_values(ra), hand_values(rb)
            for k in va:
                d = va[k] - vb[k]
                row = np.array([va[k].sum(), vb[k].sum(), d.sum(), (d * d).sum()])
                sums[k] = sums.get(k, 0) + row
            n += len(ra)
            done += int(lengths.sum())
            if progress is not None:
                progress(done, plan.hands)
    except KeyboardInterrupt:
        interrupted = True
    dt = time.perf_counter() - t0
    out = {}
    for k, (sa, sb, sd, sd2) in sums.items():
        diff = _mean(sd, sd2, n)
        out[k] = {"a": sa / n, "b": sb / n, "diff": diff}
    return {
        "hands": n,
        "sessions": plan.sessions,
        "seed": seed,
        "a": arm_a.describe(),
        "b": arm_b.describe(),
        "paired": "same walls and dice per hand (session seeds); the dealer follows each arm",
        "compare": out,
        "seconds": round(dt, 3),
        "hands_per_second": round(2 * n / dt, 1) if dt > 0 else None,
        "interrupted": interrupted,
    }


__all__ = [
    "simulate",
    "compare",
    "SimResult",
    "load_policy",
    "result_chunk",
    "hand_values",
    "POLICIES",
    "policy_matrix",
    "session_plan",
    "make_plan",
    "Plan",
    "run_chunk",
    "table_params",
    "warm_up",
    "SEATS",
    "METHODS",
]
