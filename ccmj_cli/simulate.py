"""Whole-table simulation: seeding, chunking, threads, Dask, merging, statistics with 95% CIs.

A run of ``hands`` hands is split into ``sessions`` (runs of consecutive hands with the dealer
rotating, docs/rules.md §8). Session i plays from its own seed, the i-th word of
``numpy.random.SeedSequence(seed).generate_state(sessions, uint64)``; the jitted engine seeds its
random state from it at the session start. Every session writes its own row of integer
statistics and rows are summed, so the result is identical for any number of threads, chunks or
Dask workers.

>>> r = simulate(hands=8, seed=1)          # doctest: +SKIP
>>> r.hands, round(r.to_dict()["draw_rate"]["rate"], 3)   # doctest: +SKIP
"""

import math
import sys
import time
from dataclasses import dataclass, field

import numpy as np

from ._kernels import table as K
from ._kernels import table_layout as TL
from ._kernels.tables import tables
from .errors import UsageError
from .rules import Variant, load_variant

SEATS = ("E", "S", "W", "N")
METHODS = ("zimo", "dianpao", "mobao", "duibao")  # HOW_SELF, HOW_DISCARD, HOW_MOBAO, HOW_DUIBAO
HANDS_PER_SESSION = 16  # default session length when --sessions is not given
CHUNK_SESSIONS = 64  # sessions per task (progress granularity; results do not depend on it)

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
    tp[TL.TP_SANFENG] = 1 if v.sanfeng_dan else 0
    tp[TL.TP_XIAOJI] = 1 if v.xiaoji_feidan else 0
    return tp


def session_plan(hands: int, sessions: int | None, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(seeds uint64[S], lengths int64[S]) of the sessions of a run."""
    if hands < 1:
        raise UsageError(f"bad --hands {hands}: expected at least 1")
    if seed < 0:
        raise UsageError(f"bad --seed {seed}: expected a non-negative integer")
    n = sessions if sessions else max(1, math.ceil(hands / HANDS_PER_SESSION))
    if n < 1 or n > hands:
        raise UsageError(f"bad --sessions {sessions}: expected 1 to --hands ({hands})")
    seeds = np.random.SeedSequence(seed).generate_state(n, np.uint64)
    lengths = np.full(n, hands // n, np.int64)
    lengths[: hands % n] += 1
    return seeds, lengths


def run_chunk(
    seeds: np.ndarray, lengths: np.ndarray, rv: np.ndarray, tp: np.ndarray, bots: np.ndarray
) -> np.ndarray:
    """Statistics (S_* row, summed) of the given sessions; the unit of work for threads and Dask."""
    out = np.zeros((len(seeds), TL.S_LEN), np.int64)
    K.run_sessions(
        np.asarray(seeds, np.uint64), np.asarray(lengths, np.int64), rv, tables(), tp, bots, out
    )
    return out.sum(axis=0)


def _chunks(seeds, lengths):
    for i in range(0, len(seeds), CHUNK_SESSIONS):
        yield seeds[i : i + CHUNK_SESSIONS], lengths[i : i + CHUNK_SESSIONS]


def _progress(done: int, total: int, enabled: bool):
    if not enabled:
        return
    width = 30
    fill = width * done // total
    sys.stderr.write(f"\r[{'#' * fill}{'.' * (width - fill)}] {done}/{total} hands")
    if done >= total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def _run_local(seeds, lengths, rv, tp, bots, threads, progress):
    K.set_threads(threads)
    total = int(lengths.sum())
    st = np.zeros(TL.S_LEN, np.int64)
    done = 0
    for s, n in _chunks(seeds, lengths):
        st += run_chunk(s, n, rv, tp, bots)
        done += int(n.sum())
        _progress(done, total, progress)
    return st


def _run_dask(seeds, lengths, rv, tp, bots, scheduler, progress, workers=2):
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
        except OSError as e:
            raise UsageError(f"cannot reach the Dask scheduler at {scheduler}: {e}") from None
    try:
        chunks = list(_chunks(seeds, lengths))
        futures = [client.submit(run_chunk, s, n, rv, tp, bots, pure=False) for s, n in chunks]
        sizes = {f.key: int(n.sum()) for f, (_s, n) in zip(futures, chunks, strict=True)}
        total = int(lengths.sum())
        st = np.zeros(TL.S_LEN, np.int64)
        done = 0
        for f in as_completed(futures):
            st += f.result()  # integer sums: the merge does not depend on the order
            done += sizes[f.key]
            _progress(done, total, progress)
        return st
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
    progress: bool = False,
    workers: int = 2,
) -> SimResult:
    """Simulate ``hands`` complete hands with four bots; identical results for the same seed.

    ``threads``: Numba threads on this machine (default: all). ``scheduler``: ``"local"`` for a
    Dask LocalCluster of ``workers`` processes, or ``"tcp://HOST:PORT"``. ``log``: write every
    hand as a JSON line (sequential; for small runs).
    """
    v = rules if isinstance(rules, Variant) else load_variant(rules)
    names, bots = policy_matrix(policy)
    seeds, lengths = session_plan(hands, sessions, seed)
    rv = np.asarray(v.vector, np.int64)
    tp = table_params(v)
    if threads is not None and threads < 1:
        raise UsageError(f"bad --threads {threads}: expected at least 1")
    t0 = time.perf_counter()
    if log is not None:
        from .replay import write_log

        st = write_log(log, seeds, lengths, rv, tp, bots, v, names, seed, progress)
    elif scheduler:
        st = _run_dask(seeds, lengths, rv, tp, bots, scheduler, progress, workers)
    else:
        st = _run_local(seeds, lengths, rv, tp, bots, threads, progress)
    dt = time.perf_counter() - t0
    used_threads = None if scheduler else K.get_threads()
    return SimResult(st, seed, len(seeds), v.name, names, used_threads, scheduler, dt)


def warm_up(rules: Variant | str | None = None):
    """Compile (or load from cache) the engine once, outside any timing."""
    simulate(hands=1, seed=0, rules=rules, threads=1)


__all__ = [
    "simulate",
    "SimResult",
    "POLICIES",
    "policy_matrix",
    "session_plan",
    "run_chunk",
    "table_params",
    "warm_up",
    "SEATS",
    "METHODS",
]
