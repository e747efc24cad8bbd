"""Exact discard analysis (何切る): P(tenpai) and P(win) by turn and the expected payment, for a
13-tile hand or every discard of a 14-tile hand, by dynamic programming over the hands the
player can reach (``_kernels/exact.py``).

The model (README, "Exact analysis"), pool ``hand_only``: the player draws one tile a turn for
``draws`` turns; the pool holds every copy that is not in his hand, his melds or ``visible``, so a
tile he draws and throws counts as unseen again (the pool always holds U tiles). Nobody else
claims or wins. After each draw he wins if the tiles are a legal win (always taken), else keeps
whichever 13 tiles maximise the objective — P(win within the horizon) or the expected payment.

The search covers every hand that can still win (``complete``) when the horizon allows it;
otherwise the hands at most ``limit - d0`` tiles off the straight path (x + d <= limit, x the
tiles not in the starting hand, d the legal distance), widened step by step while the graph
stays within a size limit; ``gain`` says what the last widening added.

>>> r = analyze("123m456p789s1112s", draws=1)
>>> round(float(r.results[0].p_win[1]) * 123, 9)  # 3 live 2s among 123 unseen tiles
3.0
"""

import atexit
import threading
import time
from dataclasses import dataclass, field

import numpy as np

from . import tiles as T
from ._kernels import cache
from ._kernels import exact as K
from ._kernels import hashtab as HT
from ._kernels import layout as L
from ._kernels import legal as LG
from ._kernels.tables import tables
from .errors import UsageError
from .hand import hand_to_play, unseen_counts
from .rules import Variant, load_variant
from .threaded import Background

DEFAULT_DRAWS = 17  # a whole hand, as `ccmj odds`
OBJECTIVES = ("win", "payment")
POOL = "hand_only"
EDGES = ("progress", "all")  # what a hand on the search region's edge may do
MAX_STATES = 400_000  # the graph's size limit (about 1 KB a state with its edges)
WIDEN_STATES = 400_000  # widen while the next step should have fewer states than this
GROWTH = 15  # a step of the search has about this many times the states of the one before
FIRST_GROWTH = 40  # the first step off the straight path: up to this many times (far hands)
# A 13-tile hand whose last step raised its answer by 15% or more has not settled: its
# region answer can be below what a simple bot achieves (a far hand rebuilds itself further
# than a step allows). It searches on, first with every move on the region's edge (the same
# hands: 3-8 times the time), then the next step, while that should fit in ``settle_states``
# at SETTLE_GROWTH times the states (far steps grow 15-32 times: a low estimate would build a
# graph only to find it too large).
SETTLE_GAIN = 0.15
SETTLE_GROWTH = 25


@dataclass(frozen=True)
class ExactResult:
    """One starting hand (13 tiles), or one discard of a 14-tile hand."""

    hand: str  # the 13 tiles played from
    discard: str | None
    legal_shanten: int | None  # legal distance - 1 (None: no legal win can be reached)
    tenpai: bool  # a legal wait with a copy outside the player's tiles
    useful: list[dict]  # [{tile, live}]: the kinds that bring it nearer a legal win
    useful_total: int
    p_win: np.ndarray  # float64[N + 1]: P(won by turn t), t = 0..N
    p_tenpai: np.ndarray  # float64[N + 1]: P(tenpai at some turn <= t)
    expected_payment: float  # base units, the player's own win only
    p_jiahu: float  # P(a win scored with 夹胡)
    p_piao: float  # P(a 飘胡 win)

    def to_dict(self) -> dict:
        return {
            "hand": self.hand,
            "discard": self.discard,
            "legal_shanten": self.legal_shanten,
            "tenpai": self.tenpai,
            "useful": self.useful,
            "useful_total": self.useful_total,
            "p_win": float(self.p_win[-1]),
            "p_tenpai": float(self.p_tenpai[-1]),
            "expected_payment": self.expected_payment,
            "p_jiahu": self.p_jiahu,
            "p_piao": self.p_piao,
            "win_by_turn": [float(x) for x in self.p_win[1:]],
            "tenpai_by_turn": [float(x) for x in self.p_tenpai[1:]],
        }


@dataclass(frozen=True)
class ExactReport:
    hand: str
    draws: int
    objective: str
    pool: str  # "hand_only"
    limit: int  # the search region: hands with x + d <= limit
    edge: str  # on the region's edge (x + d = limit) a hand makes "progress" only, or "all" moves
    complete: bool  # limit >= draws: every hand that can still win was searched
    gain: float | None  # what the last widening added to the best value (None: no widening)
    states: int  # states in the graph
    seconds: float
    results: list[ExactResult]  # best first
    solver: "Solver | None" = field(default=None, repr=False, compare=False)

    def to_dict(self) -> dict:
        return {
            "hand": self.hand,
            "method": "exact" if self.complete else "region",  # region: a lower bound
            "draws": self.draws,
            "objective": self.objective,
            "pool": self.pool,
            "limit": self.limit,
            "edge": self.edge,
            "complete": self.complete,
            "gain": self.gain,
            "states": self.states,
            "seconds": self.seconds,
            "results": [r.to_dict() for r in self.results],
        }


class BeyondReach(Exception):
    """The graph would exceed the state limit."""


class Stopped(Exception):
    """The analysis was stopped (``stop[0]`` set, Ctrl-C)."""


@dataclass
class Solver:
    """The graph and the decisions, kept for the Monte Carlo that follows them (``follow``)."""

    roots: np.ndarray
    graph: tuple
    dec: np.ndarray
    base: np.ndarray
    total: int  # the pool's size
    draws: int
    discards: list  # the discard of each root, in build order (None for a 13-tile hand)

    def follow(self, discard: str | None, trials: int, seed: int, stats: np.ndarray,
               offsets: tuple) -> None:  # fmt: skip
        """Add to ``stats`` (at ``offsets``: trials, how, 夹胡, 飘胡, pay, pay², tenpai,
        declared, by draw) ``trials`` draw sequences from the start after ``discard`` (None for
        a 13-tile hand), played by the solver's decisions in its own pool."""
        i = self.discards.index(discard)
        _, _, states, s_c, edges, succ = self.graph
        K.follow(seed, trials, int(self.roots[i]), s_c, states, edges, succ, self.dec,
                 self.base, self.total, self.draws, stats, *offsets)  # fmt: skip


def _variant(rules) -> Variant:
    return rules if isinstance(rules, Variant) else load_variant(rules)


def draws_of(draws: int | None, wall: int | None, pool_size: int) -> int:
    """The player's own draws: ``--draws N``, or ``--wall N`` tiles left (every fourth is his)."""
    if draws is not None and wall is not None:
        raise UsageError("give either --draws or --wall, not both")
    if wall is not None:
        if wall < 0 or wall > pool_size:
            raise UsageError(f"bad --wall {wall}: expected 0-{pool_size} (the unseen tiles)")
        return wall // 4
    n = DEFAULT_DRAWS if draws is None else draws
    if n < 0 or n > pool_size:
        raise UsageError(f"bad --draws {n}: expected 0-{pool_size} (the unseen tiles)")
    return n


def run_stoppable(fn, stop: np.ndarray, event, *args):
    """Run a nogil kernel in a thread; when ``event`` (a threading.Event) is set, or on Ctrl-C
    (KeyboardInterrupt in this thread), set ``stop[0]``, which the kernel reads. Re-raises
    KeyboardInterrupt once the kernel has returned."""
    job = Background(fn, *args)
    interrupted = False
    while job.thread.is_alive():
        try:
            job.thread.join(0.05)
        except KeyboardInterrupt:
            stop[0] = 1
            interrupted = True
        if event is not None and event.is_set():
            stop[0] = 1
    out = job.outcome()
    if interrupted:
        raise KeyboardInterrupt
    return out


_WARM = []
_MEMOS = {}  # the rule vector's bytes -> [(legal-distance memo, its masks)]: one per thread
# that needed one at once (analyses side by side each keep theirs, none thrown away)
_MEMO_LOCK = threading.Lock()


_MEMO_FIELDS = ("keys", "vals", "meta", "rows", "scratch", "flag", "rm", "nd")
_MEMO_SAVED = {}  # the rule vector's bytes -> rows in the memo as loaded or last saved


def _memo_name(rv) -> str:
    import hashlib

    return "legal-" + hashlib.sha256(rv.tobytes()).hexdigest()[:12]


def _memo_load(rv):
    """The memo saved by an earlier process (same kernel sources, same rules), checked for
    shape; else a new one."""
    a = cache.load_memo(_memo_name(rv))
    fresh = (LG.new_memo(rv), LG.new_masks())
    if a is None or set(a) != set(_MEMO_FIELDS):
        return fresh
    n, cap = int(a["meta"][0]), a["vals"].shape[0]
    ok = (
        a["keys"].shape == (cap, 4) and a["meta"].shape == (2,) and a["meta"][1] == cap - 1
        and cap & (cap - 1) == 0 and 2 * n <= cap and a["rows"].shape[1:] == (LG.ROW_LEN, LG.N_T)
        and n <= a["rows"].shape[0] and a["flag"].shape[0] == a["rm"].shape[0] == a["nd"].shape[0]
        and a["scratch"].shape == fresh[0][4].shape and int((a["vals"] >= 0).sum()) == n
        and all(a[k].dtype == (np.int8 if k == "flag" else np.int64) for k in _MEMO_FIELDS)
    )  # fmt: skip
    if not ok:
        return fresh
    return tuple(a[k] for k in _MEMO_FIELDS[:5]), tuple(a[k] for k in _MEMO_FIELDS[5:])


def _memo_take(rv):
    """The process's legal-distance memo for ``rv`` (the one saved by an earlier process, or a
    new one, if none is free): each suit row is computed once, not once an analysis. Hand it
    back with _memo_give."""
    key = rv.tobytes()
    with _MEMO_LOCK:
        free = _MEMOS.get(key)
        got = free.pop() if free else None
        if got is None:  # (a second thread at once: a copy of the saved one too)
            got = _memo_load(rv)
            _MEMO_SAVED.setdefault(key, int(got[0][2][0]))
    return got


def _memo_give(rv, memo, mk) -> None:
    with _MEMO_LOCK:
        _MEMOS.setdefault(rv.tobytes(), []).append((memo, mk))


def save_memos() -> None:
    """Save the memos that grew, for the next process (called at exit)."""
    with _MEMO_LOCK:
        for key, free in _MEMOS.items():
            if not free:
                continue
            memo, mk = max(free, key=lambda m: int(m[0][2][0]))  # the one that grew most
            if int(memo[2][0]) > _MEMO_SAVED.get(key, 0):
                rv = np.frombuffer(key, np.int64)
                m = max(int(memo[2][0]), 16)  # (the rows in use; the arrays grow again)
                arrays = (*memo[:3], memo[3][:m], memo[4], mk[0][:m], mk[1][:m], mk[2][:m])
                cache.save_memo(_memo_name(rv), dict(zip(_MEMO_FIELDS, arrays, strict=True)))
                _MEMO_SAVED[key] = int(memo[2][0])


atexit.register(save_memos)


DMEMO_CAP = 1 << 18  # distance memo entries kept for the next analysis (a 40 MB table at most)
_DMEMOS = {}  # the rule vector's bytes -> [distance memo (K.build's dmemo)]: one a thread, as
# _MEMOS; kept in this process only (each analysis adds to it a few entries a state)


def _dmemo_take(rv):
    with _MEMO_LOCK:
        free = _DMEMOS.get(rv.tobytes())
        if free:
            return free.pop()
    return HT.new(4096)


def _dmemo_give(rv, dmemo) -> None:
    if int(dmemo[2][0]) > DMEMO_CAP:
        return  # (too big to keep: the next analysis starts a new one)
    with _MEMO_LOCK:
        _DMEMOS.setdefault(rv.tobytes(), []).append(dmemo)


def _warm(rv, tb) -> None:
    """Load (or compile) the kernels once with a trivial problem, so that a caller can tell
    loading from working (and Ctrl-C during a first-run compile is not lost in a kernel)."""
    if _WARM:
        return
    c = np.zeros((1, L.N_KINDS), np.uint8)
    c[0, :13] = 1
    base = np.full(L.N_KINDS, 4, np.int64)
    kill = np.zeros(1, np.int64)
    ms = np.zeros(L.MS_LEN, np.int64)
    memo, mk = _memo_take(rv)
    g = K.build(c, c[0], base, np.zeros(L.N_KINDS, np.uint8), ms, rv, tb, 0, 1, 1, 1, 1, 10, kill,
                memo, mk, _dmemo_take(rv))  # fmt: skip
    _memo_give(rv, g[6], g[7])
    _dmemo_give(rv, g[8])
    _, roots, states, s_c, edges, succ = g[:6]
    _, _, _, dec = K.backward(states, edges, succ, 100, 1, 0, kill)
    K.forward(roots[:1], states, edges, succ, dec, 100, 1, np.zeros((1, 3, 4)))
    K.follow(1, 1, int(roots[0]), s_c, states, edges, succ, dec, base, 100, 1,
             np.zeros(20, np.int64), 0, 1, 5, 6, 7, 8, 9, 10, 12)  # fmt: skip
    LG.start_facts(c, ms, rv, LG.new_memo(rv))
    _WARM.append(True)


def _solve(roots_c, c_ref, base, meld_own, ms, rv, tb, declare, dealer, limit, edge, n, total,
           obj, max_states, stop, kill):  # fmt: skip
    """Build and solve the graph for one search region (``K.build``'s limit and edge): (graph,
    w0, e0, dec)."""
    memo, mk = _memo_take(rv)
    graph = run_stoppable(K.build, kill, stop, roots_c, c_ref, base, meld_own, ms, rv, tb,
                          declare, dealer, limit, edge, n, max_states, kill, memo, mk,
                          _dmemo_take(rv))  # fmt: skip
    _memo_give(rv, graph[6], graph[7])
    _dmemo_give(rv, graph[8])
    graph = graph[:6]
    if graph[0] == K.TOO_BIG:
        raise BeyondReach(f"more than {max_states:,} states")
    if graph[0] == K.STOPPED:
        raise Stopped()
    _, _, states, _, edges, succ = graph
    done, w0, e0, dec = run_stoppable(K.backward, kill, stop, states, edges, succ, total, n,
                                      obj, kill)  # fmt: skip
    if not done:
        raise Stopped()
    return graph, w0, e0, dec


def analyze(
    hand: T.Hand | str,
    *,
    visible: str | None = None,
    draws: int | None = None,
    wall: int | None = None,
    objective: str = "win",
    declare: bool = False,
    dealer: bool = False,
    rules: Variant | str | None = None,
    limit: int | None = None,
    edge: str = "progress",
    max_states: int = MAX_STATES,
    widen_states: int = WIDEN_STATES,
    settle_states: int = 0,
    settle_check=None,
    stop=None,
    ready=None,
) -> ExactReport:
    """Exact P(win) and P(tenpai) by turn and expected payment, best play for ``objective``.

    A 13-tile hand (3k+1 concealed beside k melds) gives one result; a 14-tile hand one per
    distinct discard, best first. ``limit``: the search region (hands with x + d <= limit),
    ``edge`` what a hand on its edge (x + d = limit) may do: "progress" only or "all" moves
    within the region; None widens it from the straight path until it is complete, the graph
    would pass ``max_states`` or the next step should have more than ``widen_states`` states
    (the answer never depends on the machine's speed). ``settle_states``: a 13-tile hand whose
    last step to a wider limit added SETTLE_GAIN of its answer or more, and for which
    ``settle_check(answer)`` (when given) says a simple policy may do as well, searches on
    within it: every move on the edge, then the next step (0: never). Raises BeyondReach when
    not even the first region fits, and Stopped when ``stop`` (a threading.Event) is set or on
    Ctrl-C.
    ``ready()`` is called once the kernels are loaded, before the work proper.
    """
    v = _variant(rules)
    if objective not in OBJECTIVES:
        raise UsageError(f"bad --objective '{objective}': expected win or payment")
    h, text = hand_to_play(hand, v, "the analysis")
    k = 4 - h.n_sets
    unseen = unseen_counts(h, visible, text)
    meld_own = (h.own_counts().astype(np.int64) - h.concealed).astype(np.uint8)
    vis = 4 - unseen - h.own_counts().astype(np.int64)
    base = (4 - vis - meld_own).astype(np.int64)
    c0 = h.concealed.astype(np.uint8)
    if h.n_concealed == 3 * k + 1:
        starts = [(None, c0.copy())]
    else:
        starts = []
        for x in np.flatnonzero(c0):
            c13 = c0.copy()
            c13[x] -= 1
            starts.append((T.tile_name(int(x)), c13))
    roots_c = np.array([c for _, c in starts], np.uint8)
    total = int(base.sum()) - 3 * k - 1  # the pool: the same for every hand of 3k+1 tiles
    n = draws_of(draws, wall, total)
    kill = np.zeros(1, np.int64)
    rv, tb, ms = v.vector, tables(), h.meld_summary()
    obj = OBJECTIVES.index(objective)
    _warm(rv, tb)
    if ready is not None:
        ready()
    memo, mk = _memo_take(rv)
    dists, masks, memo = LG.start_facts(roots_c, ms, rv, memo)
    _memo_give(rv, memo, mk)
    d0 = int(dists.min())
    t0 = time.perf_counter()
    args = (roots_c, c0, base, meld_own, ms, rv, tb, int(declare), 0 if dealer else 1)
    if limit is not None:
        if edge not in EDGES:
            raise UsageError(f"bad edge '{edge}': expected progress or all")
        lim, edge = min(limit, n), int(edge == "progress")
        solved = _solve(*args, lim, edge, n, total, obj, max_states, stop, kill)
        gain = None
    else:  # widen from the straight path while the next step should stay within widen_states
        lim, edge = min(d0, n), 1
        solved = _solve(*args, lim, edge, n, total, obj, max_states, stop, kill)
        gain = wgain = None  # what the last step added; the last step to a wider limit
        while lim < n:
            size = solved[0][2].shape[0]
            best = max(solved[1 + obj][solved[0][1]])
            # the straight path alone is the restricted model (a draw that does not help is
            # thrown at once): the first step off it is taken whenever it should fit at all
            if (lim == d0 and size * FIRST_GROWTH <= max_states) or size * GROWTH <= widen_states:
                step = (lim + 1, 1, max_states)
            elif not (len(starts) == 1 and wgain is not None and wgain >= SETTLE_GAIN * best
                      and size * SETTLE_GROWTH <= settle_states
                      and (settle_check is None or settle_check(float(best)))):  # fmt: skip
                break
            else:  # unsettled: first every move on the region's edge (the same hands), then
                # the next step (every move costs about as much time as a step's new hands)
                step = (lim + 1 - edge, 1 - edge, max(max_states, settle_states))
            try:
                wider = _solve(*args, step[0], step[1], n, total, obj, step[2], stop, kill)
            except BeyondReach:
                break
            gain = float(max(wider[1 + obj][wider[0][1]]) - best)
            wgain = gain if step[0] > lim else wgain
            solved, lim, edge = wider, step[0], step[1]
    graph, w0, e0, dec = solved
    status, roots, states, s_c, edges, succ = graph
    results = []
    outs = np.zeros((len(starts), 3, n + 3))  # (row 2 holds three numbers)
    K.forward(roots, states, edges, succ, dec, total, n, outs)
    for i, (d, c13) in enumerate(starts):
        out = outs[i]
        dist, mask = int(dists[i]), int(masks[i])
        pool = base - c13.astype(np.int64)
        useful = [
            {"tile": T.tile_name(t), "live": int(max(pool[t], 0))}
            for t in range(L.N_KINDS)
            if int(mask) >> t & 1
        ]
        results.append(
            (
                (float(w0[roots[i]]), float(e0[roots[i]])),
                ExactResult(
                    hand=T.format_hand(T.Hand(c13, h.melds)),
                    discard=d,
                    legal_shanten=None if dist >= LG.INF else dist - 1,
                    tenpai=bool(states[roots[i], K.S_TEN]),
                    useful=useful,
                    useful_total=sum(u["live"] for u in useful),
                    p_win=out[0, : n + 1].copy(),
                    p_tenpai=out[1, : n + 1].copy(),
                    expected_payment=float(out[2, 0]),
                    p_jiahu=float(out[2, 1]),
                    p_piao=float(out[2, 2]),
                ),
            )
        )
    if obj == K.OBJ_WIN:
        results.sort(key=lambda x: (-round(x[0][0], 12), -round(x[0][1], 9)))
    else:
        results.sort(key=lambda x: (-round(x[0][1], 9), -round(x[0][0], 12)))
    solver = Solver(roots, graph, dec, base, total, n, [d for d, _ in starts])
    return ExactReport(
        hand=T.format_hand(h),
        draws=n,
        objective=objective,
        pool=POOL,
        limit=lim,
        edge=EDGES[1 - edge],
        complete=lim >= n,
        gain=gain,
        states=int(states.shape[0]),
        seconds=time.perf_counter() - t0,
        results=[r for _, r in results],
        solver=solver,
    )
