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

from ._kernels import table as K
from ._kernels import table_layout as TL
from ._kernels.tables import tables
from ._kernels.useful import useful_tables
from .errors import UsageError
from .rules import Variant, load_variant

SEATS = ("E", "S", "W", "N")
METHODS = ("zimo", "dianpao", "mobao", "duibao")  # HOW_SELF, HOW_DISCARD, HOW_MOBAO, HOW_DUIBAO
HANDS_PER_SESSION = 16  # default session length when --sessions is not given
CHUNK_SESSIONS = 64  # sessions per task (results do not depend on it)
PIECE_HANDS = 256  # at most this many hands of a session per kernel call (progress, Ctrl-C)
MAX_HANDS = 10_000_000_000  # one run; memory does not grow with it, time does

POLICIES, POLICY_HELP = TL.POLICIES, TL.POLICY_HELP


def policy_matrix(policy: str | list[str] | None) -> tuple[list[str], np.ndarray]:
    """Bot knobs for the four seats from one policy name or four comma-separated names."""
    names = policy if isinstance(policy, list) else (policy or "baseline").split(",")
    names = [n.strip() for n in names]
    if len(names) == 1:
        names = names * 4
    if len(names) != 4:
        raise UsageError(
            f"bad --policy '{policy}': give one policy or four (E,S,W,N), comma-separated"
        )
    for n in names:
        if n not in POLICIES:
            raise UsageError(f"bad --policy '{n}': expected one of {POLICY_HELP}")
    return names, np.array([POLICIES[n] for n in names], np.int64)


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


def _run_dask(plan, rv, tp, bots, scheduler, progress, workers):
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
        try:
            client = Client(scheduler, timeout=10)
        except (OSError, ValueError, TypeError) as e:
            raise UsageError(f"cannot reach the Dask scheduler at {scheduler}: {e}") from None
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


def _mean(total: int, total2: int, n: int) -> dict:
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
            "discarder_mean_payout": (
                c[TL.S_DISCARDER_PAY] / c[TL.S_DISCARD_WINS] if c[TL.S_DISCARD_WINS] else None
            ),
            "bao_rolled_rate": _rate(c[TL.S_BAO_ROLLED], n),
            "declare_rate": _rate(c[TL.S_DECLARED], 4 * n),
            "jiehu_rate": _rate(c[TL.S_JIEHU], n),
            "robbed_kongs": c[TL.S_ROBBED],
            "discards_per_hand": c[TL.S_DISCARDS] / n if n else None,
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
) -> SimResult:
    """Simulate ``hands`` complete hands with four bots; identical results for the same seed.

    ``threads``: Numba threads on this machine (default: all). ``scheduler``: ``"local"`` for a
    Dask LocalCluster of ``workers`` processes, or ``"tcp://HOST:PORT"``. ``log``: write every
    hand as a JSON line (sessions recorded in parallel threads, written in order; no Dask).
    ``progress(done, total)`` is called as hands finish; ``note(text)`` with a status line (the
    first run compiles the engine, outside the timing). Memory does not grow with ``hands``.
    Ctrl-C ends the run early: the result holds the hands finished (``interrupted``).
    """
    v = rules if isinstance(rules, Variant) else load_variant(rules)
    names, bots = policy_matrix(policy)
    plan = make_plan(hands, sessions, seed)
    if threads is not None and threads < 1:
        raise UsageError(f"bad --threads {threads}: expected at least 1")
    if log is not None:
        scheduler = None  # the log is written from this machine's threads
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
        warm_up(note, log=log is not None)  # hands/s measures the play, not the compile
    t0 = time.perf_counter()
    if log is not None:
        from .replay import write_log

        st, stopped = write_log(log, plan, rv, tp, bots, v, names, advance)
    elif scheduler:
        st, stopped = _run_dask(plan, rv, tp, bots, scheduler, advance, workers)
    else:
        st, stopped = _run_local(plan, rv, tp, bots, advance)
    dt = time.perf_counter() - t0
    return SimResult(
        st, seed, plan.sessions, v.name, names, None if scheduler else K.get_threads(),
        scheduler, dt, interrupted=stopped,
    )  # fmt: skip


def warm_up(note: Callable[[str], None] | None = None, log: bool = False):
    """Load the engine from Numba's cache, or compile it (minutes: said through ``note``)."""
    kernel = K.record_pieces if log else K.run_pieces
    if note is not None and K.cached(kernel) is False:
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
    else:
        run_chunk(np.zeros(0, np.uint64), np.zeros(0, np.int64), rv, tp, bots)


__all__ = [
    "simulate",
    "SimResult",
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
