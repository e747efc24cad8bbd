"""Monte Carlo odds for a hand (``ccmj odds``), and the exact answer where one exists.

This module validates, derives the random state, splits the trials into chunks, runs them on
threads and packages the counts; the trials themselves are the jitted ``_kernels.odds`` loop,
which calls the rules engine for every judgment.

The model (see README, "Odds"): the unseen pool is 136 tiles minus the player's own (hand and
melds) minus the visible ones; the player's draws are uniform from it without replacement.
With ``opponents="random"`` the three others each discard a uniformly random unseen tile
before each of the player's draws. The player never claims chow/pung/kong.

Reproducibility: the trials are cut into chunks of ``CHUNK``; chunk i runs on its own seed,
``SeedSequence(seed).spawn(n)[i]``, and the counts are integers summed exactly, so a seed gives
the same answer for any number of threads.

>>> r = odds("123m456p789s1112s", trials=2000, seed=1, declare=True, draws=1, exact=True)
>>> r = r.results[0]
>>> r.seed, r.trials, round(r.exact.p_win * 123, 9)  # 3 live 2s among 123 unseen tiles
(1, 2000, 3.0)
"""

import math
import os
import secrets
import threading
import time
import zlib
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import asdict, dataclass

import numpy as np

from . import tiles as T
from ._kernels import layout as L
from ._kernels import odds as K
from ._kernels.judge import LOOK_OK, W_COLS, look_rule, may_declare
from ._kernels.policy import new_memo14
from ._kernels.tables import tables
from .errors import HandError, UsageError
from .hand import hand_to_play, unseen_counts
from .rules import Variant, load_variant

MC_INSTEAD = "; the Monte Carlo answer is given instead"  # (not with --trials 0: no trial runs)
CHUNK = 1000  # trials per chunk: fixed, so the random streams never depend on --threads
DEFAULT_TRIALS = 20_000
SETTLE_TRIALS = 4_000  # the baseline bot's check of an unsettled 13-tile answer (_bot_check)
MAX_TRIALS = 1_000_000_000  # counts stay exact in int64; beyond it a run takes hours
DEFAULT_DRAWS = 17  # a whole hand: (136 - 53 dealt - 14 dead wall) / 4 players ~ 17 draws each
METHODS = ("zimo", "dianpao", "mobao", "duibao")  # HOW_SELF, HOW_DISCARD, HOW_MOBAO, HOW_DUIBAO
OPPONENTS = ("none", "random")
Z95 = 1.959963984540054
DETOUR_STATES = 150_000  # the unasked search's size limit
AUTO_STATES = 25_000  # the exact search `odds` runs unasked: about a second a 5,000 states
OBJECTIVES = ("win", "payment")  # (as ccmj_cli.exact, which is imported only when needed)
POOLS = ("draws_leave", "hand_only")  # a drawn tile leaves the pool for good, or only while held


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for k successes in n trials.

    >>> [round(x, 4) for x in wilson(50, 100)]
    [0.4038, 0.5962]
    """
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, mid - half), min(1.0, mid + half))


@dataclass(frozen=True)
class Exact:
    """The exact answer for one starting hand (see README, "Exact analysis")."""

    p_win: float
    by_method: dict
    p_jiahu: float
    p_piao: float
    expected_payment: float
    by_round: list[float]  # P(win at the player's r-th draw)
    win_by_turn: list[float]  # P(won by draw t), t = 1..N
    p_tenpai: float  # P(tenpai at some point within the horizon)
    tenpai_by_turn: list[float]  # P(tenpai by draw t)
    legal_shanten: int | None  # tiles from a legal win - 1 (None: no legal win reachable)
    useful: list[dict]  # [{tile, live}]: draws that bring the hand nearer a legal win
    useful_total: int
    solver: str  # "dp" (the state graph) or "closed form" (a declared tenpai hand)
    objective: str
    pool: str  # "hand_only" (the dynamic programme) or "draws_leave" (the closed form)
    limit: int | None  # the search region of the dynamic programme (hands with x + d <= limit)
    edge: str | None  # its edge (x + d = limit): "progress" only or "all" moves (None: closed form)
    complete: bool  # every hand that can still win was searched: the optimum over every play
    gain: float | None  # what the last widening of the search added (None: not widened)
    states: int  # states in the graph (1 for the closed form)


@dataclass(frozen=True)
class OddsResult:
    hand: str  # the 13-tile hand the trials start from
    discard: str | None  # the discard that made it (14-tile input)
    method: str  # "exact", "region" (a restricted search: a lower bound), "monte_carlo", "both"
    p_win: float | None  # the Monte Carlo fields are None when no trial was run
    ci95: list[float] | None
    by_method: dict | None
    p_jiahu: float | None
    p_piao: float | None
    by_round: list[float] | None  # P(win in round r): the others' discards, then the r-th draw
    expected_payment: float | None
    payment_ci95: list[float] | None
    p_tenpai: float | None  # reached tenpai (a live legal wait) at some point
    p_declared: float | None  # declared (报听) and locked, with --declare
    p_bao_blocked: float | None  # declared but 断幺九: may not look at the bao
    trials: int
    seed: int | None
    rounds: int
    opponents: str
    declare: bool
    bao: str
    seconds: float
    trials_per_second: float | None
    interrupted: bool
    exact: Exact | None
    exact_note: str | None  # why there is no exact answer, when one was sought
    pool: str  # the pool model of the top-level figures
    policy: str | None  # who played the Monte Carlo: "solver" (its decisions) or "baseline"

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class OddsReport:
    hand: str
    results: list[OddsResult]  # one for a 13-tile hand; one per discard, best first, for 14

    @property
    def interrupted(self) -> bool:
        return any(r.interrupted for r in self.results)

    def to_dict(self) -> dict:
        if len(self.results) == 1 and self.results[0].discard is None:
            return self.results[0].to_dict()
        return {"hand": self.hand, "discards": [r.to_dict() for r in self.results]}


@dataclass
class _Setup:
    """Everything one 13-tile starting point hands to the kernel."""

    c: np.ndarray
    ms: np.ndarray
    own: np.ndarray
    pool: np.ndarray  # drawable unseen tiles (a known bao's copy taken out)
    view: np.ndarray  # unseen as the player counts them
    public: np.ndarray  # copies in discards and exposed melds
    bao_mode: int
    bao_tile: int


def _variant(rules) -> Variant:
    return rules if isinstance(rules, Variant) else load_variant(rules)


def _bao_spec(bao: str | None) -> tuple[int, int]:
    text = "none" if bao is None else bao.strip()
    if not text:
        raise UsageError("bad --bao '': expected none, unknown or a tile")
    if text.lower() == "none":
        return K.BAO_NONE, -1
    if text.lower() == "unknown":
        return K.BAO_UNKNOWN, -1
    return K.BAO_KNOWN, T.tile_index(text)


def _public_of(h: T.Hand, visible: np.ndarray) -> np.ndarray:
    pub = visible.copy()
    for m in h.melds:
        if m.is_public:  # a concealed kong's tiles are not public
            for t in m.tiles:
                pub[t] += 1
    return pub


def _setup(h: T.Hand, c13: np.ndarray, vis: np.ndarray, bao_mode: int, bao_tile: int) -> _Setup:
    own = c13.astype(np.int64)
    for m in h.melds:
        for t in m.tiles:
            own[t] += 1
    view = 4 - own - vis
    pool = view.copy()
    if bao_mode == K.BAO_KNOWN:
        if pool[bao_tile] <= 0:
            raise HandError(
                f"bad bao '{T.tile_name(bao_tile)}': no unseen copy left (all four are in the "
                "hand or visible)"
            )
        pool[bao_tile] -= 1
    return _Setup(
        c=c13.astype(np.uint8),
        ms=h.meld_summary(),
        own=own.astype(np.uint8),
        pool=pool,
        view=view,
        public=_public_of(h, vis),
        bao_mode=bao_mode,
        bao_tile=bao_tile,
    )


def _schedule(draws: int | None, wall: int | None, pool_size: int) -> tuple[int, int]:
    """(tile positions in the schedule, the player's own draws)."""
    if draws is not None and wall is not None:
        raise UsageError("give either --draws or --wall, not both")
    if wall is not None:
        if wall < 0 or wall > pool_size:
            raise UsageError(f"bad --wall {wall}: expected 0-{pool_size} (the unseen tiles)")
        return wall, wall // 4
    n = DEFAULT_DRAWS if draws is None else draws
    if n < 0 or n > pool_size:
        raise UsageError(f"bad --draws {n}: expected 0-{pool_size} (the unseen tiles)")
    return 4 * n, n


_POLICY_MEMO = threading.local()


def _policy_memo(s: _Setup, rv) -> tuple:
    """This thread's caches of the baseline policy, kept for the next hand or discard with the
    same melds and rule vector (the discards of a 14-tile hand, the hands of ``odds -``):
    making them costs as much as a short run. The key holds the meld tiles, not only their
    summary: a wait the melds and hand hold four times is no wait."""
    key = (s.ms.tobytes(), (s.own - s.c).tobytes(), rv.tobytes())
    if getattr(_POLICY_MEMO, "key", None) != key:
        _POLICY_MEMO.key, _POLICY_MEMO.memo = key, (new_memo14(), K.new_wins_memo())
    return _POLICY_MEMO.memo


def _wins(st) -> int:
    """The wins among the trials of the counters ``st``."""
    return int(st[K.S_HOW : K.S_HOW + 4].sum())


def _pay_moments(st, n: int) -> tuple[float, float]:
    """The payment's mean and variance over the n trials of the counters ``st`` (0, 0: none)."""
    if not n:
        return 0.0, 0.0
    mean = int(st[K.S_PAY]) / n
    return mean, int(st[K.S_PAY2]) / n - mean**2


def _bot_check(s: _Setup, v: Variant, n_turns: int, declare: bool, dealer: int,
               objective: str):  # fmt: skip
    """``exact.analyze``'s settle_check for a 13-tile hand: does the baseline bot, in the
    analysis's pool (its thrown tiles unseen again), reach the answer? A Monte Carlo seeded by
    the hand (the same answer every run), in chunks of CHUNK trials kept from one asking to the
    next: it stops early once the bot is 2.5 standard errors from the answer either way, else
    at SETTLE_TRIALS, and compares its estimate."""
    st = np.zeros(K.stats_len((n_turns + 3) // 4), np.int64)
    seed = zlib.crc32(s.c.tobytes() + s.pool.tobytes() + bytes([n_turns % 256]))
    pay = objective == "payment"

    def estimate() -> tuple[float, float]:
        n = int(st[K.S_TRIALS])
        if pay:
            mean, var = _pay_moments(st, n)
        else:
            mean = _wins(st) / n
            var = mean * (1 - mean)
        return mean, math.sqrt(max(var, 0.0) / n)

    def check(answer: float) -> bool:
        while st[K.S_TRIALS] < SETTLE_TRIALS:
            if st[K.S_TRIALS] > 0:
                mean, se = estimate()
                if abs(mean - answer) > 2.5 * se:
                    break
            K.run_chunk(chunk_seed(seed, int(st[K.S_TRIALS]) // CHUNK), CHUNK, s.c, s.ms,
                        s.own, s.pool, s.view, s.public, v.vector, tables(), n_turns, 0,
                        int(declare), s.bao_mode, s.bao_tile, dealer, st,
                        *_policy_memo(s, v.vector), 1)  # fmt: skip
        return estimate()[0] >= answer

    return check


def chunk_seed(seed: int, i: int) -> int:
    """The seed of chunk i: ``SeedSequence(seed).spawn(n)[i]``, made directly (no list)."""
    return int(np.random.SeedSequence(seed, spawn_key=(i,)).generate_state(1, np.uint32)[0])


def chunk_seeds(seed: int, trials: int) -> list[tuple[int, int]]:
    """(seed, trials) of each chunk: SeedSequence(seed).spawn, one child per CHUNK trials."""
    n = (trials + CHUNK - 1) // CHUNK
    return [(chunk_seed(seed, i), min(CHUNK, trials - i * CHUNK)) for i in range(n)]


def _win_info(s: _Setup, rv, tb):
    """The legal wins of the 13-tile start: (n live, legal[34], rds, haohua)."""
    wbuf = np.zeros((L.N_KINDS, W_COLS), np.int64)
    legal = np.zeros(L.N_KINDS, np.int64)
    rds = np.zeros((L.N_KINDS, L.RD_LEN), np.int64)
    hh = np.zeros(L.N_KINDS, np.int64)
    n_live = K.win_table(s.c.copy(), s.ms, s.own, rv, tb, wbuf, legal, rds, hh)
    return int(n_live), legal, rds, hh


def _hyper_none(u: int, k: int, i: int) -> float:
    """P(no winning tile among the first i draws): C(u-k, i) / C(u, i)."""
    if i > u - k:
        return 0.0
    return math.comb(u - k, i) / math.comb(u, i)


def _cumulative(by_round: list[float]) -> list[float]:
    out, acc = [], 0.0
    for p in by_round:
        acc += p
        out.append(acc)
    return out


NOT_TENPAI = "exact only for a tenpai hand (a live legal wait)"


def closed_form(s: _Setup, n_draws: int, v: Variant, dealer: int):
    """Exact answer for a declared, locked tenpai hand drawing alone (the bao included):
    hypergeometric over the winning copies. (Exact | None, note)."""
    rv, tb = v.vector, tables()
    n_live, legal, rds, hh = _win_info(s, rv, tb)
    if n_live == 0:
        return None, NOT_TENPAI
    if not may_declare(s.own, rv):
        return None, "a hand with no 幺九 may not declare under this variant"
    items = np.zeros(L.N_FAN, np.int64)
    fan = np.zeros(L.N_SEATS, np.int64)
    pay = np.zeros(L.N_SEATS, np.int64)

    def paid(t, how):
        return int(K.win_payment(rds[t], how, bool(hh[t]), -1, dealer, rv, items, fan, pay))

    waits = [t for t in range(L.N_KINDS) if legal[t]]
    mobao_best = max(waits, key=lambda t: (paid(t, L.HOW_MOBAO), -t))
    bao_ok = s.bao_mode != K.BAO_NONE and look_rule(True, s.own, rv) == LOOK_OK

    def known(pool: np.ndarray, b: int) -> list:
        """Weighted outcomes with the bao ``b`` out of ``pool``: (prob, how, tile, round)."""
        out = []
        if n_draws == 0:
            return out
        if b >= 0 and legal[b]:
            return [(1.0, L.HOW_DUIBAO, b, 1)]
        u = int(pool.sum())
        wins = {t: int(pool[t]) for t in waits if pool[t]}
        if b >= 0 and pool[b]:
            wins[-1] = int(pool[b])  # 摸宝
        k = sum(wins.values())
        if k == 0:
            return out
        for r in range(1, n_draws + 1):
            p_r = _hyper_none(u, k, r - 1) * k / (u - r + 1) if u - r + 1 > 0 else 0.0
            if p_r == 0.0:
                break
            for t, n in wins.items():
                how, tile = (L.HOW_MOBAO, mobao_best) if t < 0 else (L.HOW_SELF, t)
                out.append((p_r * n / k, how, tile, r))
        return out

    pool = s.pool.astype(np.int64)
    if not bao_ok:
        # nobody looks (断幺九, or no bao): an unknown bao is never rolled, a known one just
        # sits in the wall, out of the pool
        outcomes = known(pool, -1)
    elif s.bao_mode == K.BAO_KNOWN:
        if s.public[s.bao_tile] >= 3 and not K.keep_bao(legal[s.bao_tile] != 0, rv):
            return None, "no exact answer when the bao is replaced (换宝) at the look"
        outcomes = known(pool, s.bao_tile)
    else:
        u = int(pool.sum())
        outcomes = []
        for b in range(L.N_KINDS):
            if not pool[b]:
                continue
            if s.public[b] >= 3 and not K.keep_bao(legal[b] != 0, rv):
                return None, "no exact answer when a bao may be replaced (换宝) at the look"
            rest = pool.copy()
            rest[b] -= 1
            w = pool[b] / u
            outcomes += [(w * p, how, t, r) for p, how, t, r in known(rest, b)]
    by_method = {name: 0.0 for name in METHODS}
    by_round = [0.0] * n_draws
    p = jia = piao = payment = 0.0
    for q, how, t, r in outcomes:
        p += q
        by_method[METHODS[how]] += q
        jia += q * int(rds[t, L.RD_JIAHU])
        piao += q * int(rds[t, L.RD_PIAO])
        payment += q * paid(t, how)
        by_round[r - 1] += q
    live = [{"tile": T.tile_name(t), "live": int(s.view[t])} for t in waits if s.view[t] > 0]
    return (
        Exact(
            p_win=p,
            by_method=by_method,
            p_jiahu=jia,
            p_piao=piao,
            expected_payment=payment,
            by_round=by_round,
            win_by_turn=_cumulative(by_round),
            p_tenpai=1.0,
            tenpai_by_turn=[1.0] * n_draws,
            legal_shanten=0,
            useful=live,
            useful_total=sum(x["live"] for x in live),
            solver="closed form",
            objective="win",
            pool="draws_leave",
            limit=None,
            edge=None,
            complete=True,
            gain=None,
            states=1,
        ),  # fmt: skip
        None,
    )


def _from_analysis(r, rep) -> Exact:
    """An Exact from one result of ``exact.analyze``."""
    win = [float(x) for x in r.p_win[1:]]
    by_round = [float(r.p_win[t] - r.p_win[t - 1]) for t in range(1, len(r.p_win))]
    return Exact(
        p_win=float(r.p_win[-1]),
        by_method={"zimo": float(r.p_win[-1]), "dianpao": 0.0, "mobao": 0.0, "duibao": 0.0},
        p_jiahu=r.p_jiahu,
        p_piao=r.p_piao,
        expected_payment=r.expected_payment,
        by_round=by_round,
        win_by_turn=win,
        p_tenpai=float(r.p_tenpai[-1]),
        tenpai_by_turn=[float(x) for x in r.p_tenpai[1:]],
        legal_shanten=r.legal_shanten,
        useful=r.useful,
        useful_total=r.useful_total,
        solver="dp",
        objective=rep.objective,
        pool=rep.pool,
        limit=rep.limit,
        edge=rep.edge,
        complete=rep.complete,
        gain=rep.gain,
        states=rep.states,
    )


def _exact_all(h, setups, vis, n_draws, opponents, declare, bao_mode, v, dealer, objective,
               max_states, stop, ready, widen_states, settle_states, n_turns):  # fmt: skip
    """The exact answer of every start: ({discard: Exact}, {discard: note}, solver or None)."""
    from . import exact as X  # (its kernels load only when an exact answer is sought)

    found, notes = {}, {}
    if opponents != "none":
        return found, {d: "exact only with self-draws (--opponents none)" for d, _ in setups}, None
    one = len(setups) == 1 and setups[0][0] is None
    if bao_mode != K.BAO_NONE or (declare and one):
        for d, s in setups:
            ex, note = (None, "the exact analysis follows the bao only for a hand declared "
                        "tenpai from the start")  # fmt: skip
            if declare:
                ex, note2 = closed_form(s, n_draws, v, dealer)
                if ex is None and note2 != NOT_TENPAI:
                    note = note2
            if ex is not None:
                found[d] = ex
            else:
                notes[d] = note
        if bao_mode != K.BAO_NONE or found:
            return found, notes, None
        notes = {}
    settle_check = None
    if settle_states and one:
        settle_check = _bot_check(setups[0][1], v, n_turns, declare, dealer, objective)
    try:
        rep = X.analyze(h, visible=vis, draws=n_draws, objective=objective, declare=declare,
                        dealer=dealer == 0, rules=v, max_states=max_states,
                        widen_states=widen_states, settle_states=settle_states,
                        settle_check=settle_check, stop=stop, ready=ready)  # fmt: skip
    except X.BeyondReach as e:
        note = f"beyond exact reach ({e}){MC_INSTEAD}"
        return found, {d: note for d, _ in setups}, None
    for r in rep.results:
        found[r.discard] = _from_analysis(r, rep)
    return found, notes, rep.solver


def _run(s, v, n_turns, opponents, declare, dealer, trials, seed, pool, threads, progress, done0,
         total_all, stop, ready, hand_only=False, follow=None):  # fmt: skip
    """Run the chunks on the thread ``pool``, a few in flight at a time (memory does not grow
    with the trials); returns (stats, rounds, seconds, interrupted). Stops early when
    ``stop`` (a threading.Event) is set or on KeyboardInterrupt, keeping finished chunks.
    ``follow(seed, n, stats)``: play the chunk by the exact solver's decisions instead of the
    baseline policy; ``hand_only``: the baseline's discards go back to the pool."""
    rv, tb = v.vector, tables()
    n_rounds = (n_turns + 3) // 4
    opp = OPPONENTS.index(opponents)

    def chunk(cs: int, n: int) -> np.ndarray:
        st = np.zeros(K.stats_len(n_rounds), np.int64)
        if follow is not None:
            follow(cs, n, st)
            return st
        K.run_chunk(cs, n, s.c, s.ms, s.own, s.pool, s.view, s.public, rv, tb, n_turns, opp,
                    int(declare), s.bao_mode, s.bao_tile, dealer, st, *_policy_memo(s, rv),
                    int(hand_only))  # fmt: skip
        return st

    chunk(0, 0)  # compile (or load from the cache) outside the timing
    if ready is not None:
        ready()
    total = np.zeros(K.stats_len(n_rounds), np.int64)
    n_chunks = (trials + CHUNK - 1) // CHUNK
    interrupted = False
    start = time.perf_counter()
    pending = set()
    nxt = 0
    try:
        while nxt < n_chunks or pending:
            if stop is not None and stop.is_set():
                interrupted = True
                break
            while nxt < n_chunks and len(pending) < 2 * threads:
                n = min(CHUNK, trials - nxt * CHUNK)
                pending.add(pool.submit(chunk, chunk_seed(seed, nxt), n))
                nxt += 1
            finished, pending = wait(pending, timeout=0.1, return_when=FIRST_COMPLETED)
            for f in finished:
                total += f.result()
            if progress:
                progress(done0 + int(total[K.S_TRIALS]), total_all)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        for f in pending:
            f.cancel()
        for f in pending:  # chunks already running finish in well under a second
            if not f.cancelled():
                total += f.result()
    return total, n_rounds, time.perf_counter() - start, interrupted


def _package(st, n_rounds, seconds, interrupted, *, hand, discard, seed, opponents, declare,
             bao, exact, note, pool, policy) -> OddsResult:  # fmt: skip
    n = int(st[K.S_TRIALS]) if st is not None else 0
    # an incomplete search is the exact value of the best play within its region, a lower
    # bound on the optimum, and is never called exact
    solved = "exact" if exact is None or exact.complete else "region"
    method = solved if st is None else ("both" if exact is not None else "monte_carlo")
    if st is None:  # the exact answer alone: the top-level figures are its own
        e = exact
        return OddsResult(
            hand=hand, discard=discard, method=method,
            p_win=e.p_win if e else None, ci95=None, by_method=dict(e.by_method) if e else None,
            p_jiahu=e.p_jiahu if e else None, p_piao=e.p_piao if e else None,
            by_round=list(e.by_round) if e else None,
            expected_payment=e.expected_payment if e else None, payment_ci95=None,
            p_tenpai=e.p_tenpai if e else None, p_declared=None, p_bao_blocked=None, trials=0,
            seed=None, rounds=n_rounds, opponents=opponents, declare=declare, bao=bao,
            seconds=seconds, trials_per_second=None, interrupted=interrupted, exact=exact,
            exact_note=note, pool=e.pool if e else pool, policy=None,
        )  # fmt: skip
    wins = _wins(st)
    frac = (lambda x: x / n) if n else (lambda x: 0.0)
    pay_mean, pay_var = _pay_moments(st, n)
    pay_half = Z95 * math.sqrt(max(pay_var, 0.0) / n) if n else 0.0
    return OddsResult(
        hand=hand,
        discard=discard,
        method=method,
        p_win=frac(wins) if n else None,
        ci95=list(wilson(wins, n)) if n else None,
        by_method={name: frac(int(st[K.S_HOW + i])) for i, name in enumerate(METHODS)},
        p_jiahu=frac(int(st[K.S_JIAHU])),
        p_piao=frac(int(st[K.S_PIAO])),
        by_round=[frac(int(x)) for x in st[K.S_HIST : K.S_HIST + n_rounds]],
        expected_payment=pay_mean if n else None,
        payment_ci95=[pay_mean - pay_half, pay_mean + pay_half] if n else None,
        p_tenpai=frac(int(st[K.S_TENPAI])),
        p_declared=frac(int(st[K.S_DECLARED])) if declare else None,
        p_bao_blocked=frac(int(st[K.S_BAO_BLOCKED])) if declare and bao != "none" else None,
        trials=n,
        seed=seed,
        rounds=n_rounds,
        opponents=opponents,
        declare=declare,
        bao=bao,
        seconds=seconds,
        trials_per_second=n / seconds if seconds > 0 else 0.0,
        interrupted=interrupted,
        exact=exact,
        exact_note=note,
        pool=pool,
        policy=policy,
    )


_OFFSETS = (K.S_TRIALS, K.S_HOW, K.S_JIAHU, K.S_PIAO, K.S_PAY, K.S_PAY2, K.S_TENPAI,
            K.S_DECLARED, K.S_HIST)


def _each(setups, h, v, n_turns, n_rounds, opponents, declare, dealer, trials, seed, workers,
          threads, progress, stop, ready, found, notes, bao_name, solver,
          pool):  # fmt: skip
    """Each start's result (Monte Carlo on ``workers`` when ``trials``: by the exact solver's
    decisions in its pool when it answered, else by the baseline policy); (results,
    interrupted)."""
    results = []
    done = 0
    interrupted = False
    for d, s in setups:
        ex, note = found.get(d), notes.get(d)
        hand13 = T.format_hand(T.Hand(s.c.astype(np.uint8), h.melds))
        by_solver = solver is not None and ex is not None and ex.solver == "dp"
        follow = None
        if by_solver:
            def follow(cs, n, st, d=d):
                solver.follow(d, n, cs, st, _OFFSETS)
        mc_pool = ex.pool if by_solver else pool
        if trials and not interrupted:
            st, n_rounds, secs, interrupted = _run(s, v, n_turns, opponents, declare, dealer,
                                                   trials, seed, workers, threads,
                                                   progress, done, trials * len(setups), stop,
                                                   ready, mc_pool == "hand_only",
                                                   follow)  # fmt: skip
        elif trials:
            continue  # interrupted before this discard: nothing to report for it
        else:
            st, secs = None, 0.0
        done += trials
        results.append(
            _package(st, n_rounds, secs, interrupted, hand=hand13, discard=d, seed=seed,
                     opponents=opponents, declare=declare, bao=bao_name, exact=ex, note=note,
                     pool=mc_pool, policy=("solver" if by_solver else "baseline") if trials
                     else None)
        )  # fmt: skip
    return results, interrupted


def odds(
    hand: T.Hand | str,
    *,
    visible: str | None = None,
    draws: int | None = None,
    wall: int | None = None,
    trials: int | None = None,
    seed: int | None = None,
    declare: bool = False,
    bao: str | None = "none",
    opponents: str = "none",
    threads: int = 1,
    dealer: bool = False,
    exact: bool | None = None,
    objective: str = "win",
    policy: str | None = None,
    pool: str = "draws_leave",
    rules: Variant | str | None = None,
    progress=None,
    stop: threading.Event | None = None,
    ready=None,
    max_states: int | None = None,
    settle: bool = True,
) -> OddsReport:
    """P(win) and how: exactly (the dynamic programme of ``ccmj_cli.exact``, or the closed form
    for a declared tenpai hand) and/or by Monte Carlo over the unseen tiles.

    ``exact=True``: the exact answer (a larger search), plus Monte Carlo when ``trials`` is
    given (and instead, with a note, when no exact answer exists — unless ``trials == 0``,
    then UsageError). ``exact=False``: Monte Carlo only, by the baseline policy.
    ``exact=None`` (the default): the exact answer whenever the model allows one (a quick
    search), with Monte Carlo as well when ``trials`` is given, else Monte Carlo.
    The Monte Carlo plays the exact solver's own decisions, in its pool, when the solver
    answered (``policy=None`` or "solver"); else (or ``policy="baseline"``, which skips the
    exact answer unless ``exact=True``) the baseline discard policy, with the player's discards leaving the pool (``pool="draws_leave"``) or
    going back to it (``"hand_only"``).
    A 13-tile hand (3k+1 concealed beside k melds) is played as it stands; a 14-tile hand is
    played once per distinct discard, with the same seed, and the results come best first.
    ``progress(done, total)`` is called from this thread with the trials finished so far;
    setting ``stop`` ends the run early with what is known (``interrupted``); ``ready()`` is
    called once the kernels are loaded, before the work proper. ``settle``: a 13-tile hand
    whose search has not settled (its last step added 15% of its answer or more) and
    that the baseline bot may match (``_bot_check``) searches on, within the graph's size
    limit of ``exact=True`` (``exact.analyze``'s ``settle_states``).
    """
    v = _variant(rules)
    h, text = hand_to_play(hand, v, "odds")
    k = 4 - h.n_sets
    if trials is not None and (trials < 0 or (trials == 0 and not exact)):
        raise UsageError(f"bad --trials {trials}: expected a positive number (0 only with --exact)")
    if trials is not None and trials > MAX_TRIALS:
        raise UsageError(
            f"bad --trials {trials}: at most {MAX_TRIALS:,} (a 95% interval of ±0.003%; more "
            "would take hours — run several seeds instead)"
        )
    if threads < 1:
        raise UsageError(f"bad --threads {threads}: expected 1 or more")
    threads = min(threads, os.cpu_count() or 1)  # as simulate: more threads than cores only cost
    if opponents not in OPPONENTS:
        raise UsageError(f"bad --opponents '{opponents}': expected none or random")
    if objective not in OBJECTIVES:
        raise UsageError(f"bad --objective '{objective}': expected win or payment")
    if policy not in (None, "solver", "baseline"):
        raise UsageError(f"bad --policy '{policy}': expected solver or baseline")
    if pool not in POOLS:
        raise UsageError(f"bad --pool '{pool}': expected draws_leave or hand_only")
    if seed is not None and seed < 0:
        raise UsageError(f"bad --seed {seed}: expected a non-negative integer")
    bao_mode, bao_tile = _bao_spec(bao)
    bao_name = ("none", "", "unknown")[bao_mode] or T.tile_name(bao_tile)
    if bao_mode != K.BAO_NONE and not declare:
        raise UsageError("--bao needs --declare: only a declared (报听) hand uses the bao")
    unseen = unseen_counts(h, visible, text)  # validates the visible tiles against the hand
    vis = 4 - unseen - h.own_counts().astype(np.int64)
    dealer_seat = 0 if dealer else 1  # not the dealer: the next seat deals (only 庄 fan moves)
    starts = []
    if h.n_concealed == 3 * k + 1:
        starts.append((None, h.concealed.copy(), vis))
    else:
        for d in np.flatnonzero(h.concealed):
            c13 = h.concealed.copy()
            c13[d] -= 1
            v2 = vis.copy()
            if pool == "draws_leave":
                v2[d] += 1  # the discard goes to the river: public, and no longer unseen
            starts.append((T.tile_name(int(d)), c13, v2))
    setups = [(d, _setup(h, c13, vv, bao_mode, bao_tile)) for d, c13, vv in starts]
    pool_size = int(setups[0][1].pool.sum())
    n_turns, n_draws = _schedule(draws, wall, pool_size)
    n_rounds = (n_turns + 3) // 4
    if policy == "baseline" and exact is None:
        exact = False  # the baseline's Monte Carlo alone (the exact answer too with exact=True)
    want_exact = exact is not False
    found, notes, solver = {}, {}, None
    if want_exact:
        from . import exact as X

        # unasked: the first step off the straight path (always tried when it should fit)
        # stays within DETOUR_STATES, a few seconds; beyond it the straight path answers
        limit = max_states or (X.MAX_STATES if exact else DETOUR_STATES)
        try:
            found, notes, solver = _exact_all(h, setups, vis, n_draws, opponents, declare,
                                              bao_mode, v, dealer_seat, objective, limit, stop,
                                              ready, X.WIDEN_STATES if exact else
                                              AUTO_STATES,
                                              X.MAX_STATES if settle else 0,
                                              n_turns)  # fmt: skip
        except X.Stopped:
            found, notes = {}, {d: "interrupted" for d, _ in setups}
            stop = stop or threading.Event()
            stop.set()
    if policy == "baseline":
        solver = None
    have_all = want_exact and len(found) == len(setups)
    if trials is None:
        trials = 0 if have_all else DEFAULT_TRIALS
    if trials == 0 and not have_all:
        if stop is not None and stop.is_set():
            return OddsReport(hand=T.format_hand(h), results=[
                _package(None, n_rounds, 0.0, True, hand=T.format_hand(T.Hand(s.c, h.melds)),
                         discard=d, seed=None, opponents=opponents, declare=declare,
                         bao=bao_name, exact=None, note=notes.get(d), pool=pool, policy=None)
                for d, s in setups])  # fmt: skip
        why = next(iter(notes.values()), "no exact answer").removesuffix(MC_INSTEAD)
        raise UsageError(
            f"no exact answer: {why} (--trials 0 runs no Monte Carlo: give --trials T)"
        )
    if trials and seed is None:
        seed = secrets.randbelow(2**32)
    if policy == "solver" and solver is None and trials:  # (asked for, and not to be had)
        said = "; --policy solver: the solver has no decisions here, the baseline policy plays"
        notes = {d: (notes.get(d) or "no exact answer") + said for d, _ in setups}
    workers = ThreadPoolExecutor(max_workers=threads) if trials else None
    try:
        results, interrupted = _each(setups, h, v, n_turns, n_rounds, opponents, declare,
                                     dealer_seat, trials, seed, workers, threads,
                                     progress, stop, ready, found, notes, bao_name, solver,
                                     pool)  # fmt: skip
    finally:
        if workers is not None:
            workers.shutdown(wait=True, cancel_futures=True)
    pay_first = objective == "payment"

    def order(r: OddsResult):
        """Best first: by the exact answer when there is one, else by the estimate."""
        if r.exact is not None:
            a, b = r.exact.p_win, r.exact.expected_payment
            return (0, -round(b if pay_first else a, 12), -round(a if pay_first else b, 12))
        a, b = r.p_win or 0.0, r.expected_payment or 0.0
        return (1, -(b if pay_first else a), -(a if pay_first else b))

    results.sort(key=order)
    return OddsReport(hand=T.format_hand(h), results=results)
