"""Exact discard analysis (何切る): the state graph and the dynamic programme behind
``ccmj odds --exact``.

The model (README, "Exact answers"): the player draws from the unseen pool, one physical tile a
turn, without replacement, for N turns; opponents do nothing. Before each draw the pool holds
``base - hand - discards`` of each kind (``base`` = 4 - visible - meld tiles), U - t tiles in
all at turn t. After a draw the player wins when the tiles are a legal win (``judge_win``),
else keeps one of the allowed discards, chosen to maximise the objective.

States are 13-tile concealed hands ``c`` together with the player's own discards ``D`` (what
makes the physical pool of a kind differ from ``base - c``). Two move sets:

- ``MOVES_USEFUL`` (the default): a drawn tile is kept only when it brings the hand one step
  nearer a legal win (legal distance, ``legal.py``), and then the discard must keep it there;
  any other draw is discarded at once. Along such play a kind that was not useful never becomes
  useful later (the legal distance is a distance to a set of target hands: if t helps a later
  hand, it already helped every earlier one), so the pool of every kind a state can still draw
  usefully is ``base - c - D`` with D restricted to the state's useful kinds: the state carries
  only those, and the answer is exact for physical draws.
- ``MOVES_ALL``: any draw may be kept and any tile discarded; the state carries the whole of D
  (the graph grows fast: short horizons only). With ``declare`` a tenpai hand locks.

The graph is built once (``build``); ``backward`` computes, turn by turn from the last, the
value of every state for the objective and the best discard after every (state, draw, turn);
``forward`` follows those decisions from a start to give P(win by turn t), P(tenpai by turn t),
the 夹胡 / 飘胡 shares and the expected payment; ``follow`` samples physical draws under the same
decisions (the Monte Carlo check), and counts any draw whose pool differs from the state's.
"""

import numpy as np

from . import hashtab as HT
from . import legal as LG
from .jit import njit
from .judge import W_COLS, W_LEGAL, judge_waits, judge_win, may_declare
from .layout import HOW_SELF, N_FAN, N_KINDS, N_SEATS, RD_HAOHUA, RD_JIAHU, RD_LEN, RD_PIAO
from .score import fan_items, settle

MOVES_USEFUL = 0
MOVES_ALL = 1
OBJ_WIN = 0
OBJ_PAYMENT = 1

# build() status
OK = 0
TOO_BIG = 1  # more states than max_states
STOPPED = 2  # stop[0] was set (Ctrl-C)

# edge kinds
E_WIN = 0
E_KEEP = 1

_EPS = 1e-12


@njit(cache=True, inline="always")
def _key2(c):
    a = 0
    for i in range(17, -1, -1):
        a = a * 5 + int(c[i])
    b = 0
    for i in range(N_KINDS - 1, 17, -1):
        b = b * 5 + int(c[i])
    return a, b


@njit(cache=True)
def _grow(a, n):
    """``a`` with room for at least n rows (doubling), the first rows kept."""
    if n <= a.shape[0]:
        return a
    cap = a.shape[0]
    while cap < n:
        cap *= 2
    if a.ndim == 1:  # noqa: SIM108 (two array types: Numba prunes the other branch)
        b = np.zeros(cap, a.dtype)
    else:
        b = np.zeros((cap, a.shape[1]), a.dtype)
    b[: a.shape[0]] = a
    return b


@njit(cache=True)
def _payment(c, w, ms, own, rv, tb, dealer, rd, items, fan, pay):
    """(legal, payment, 夹胡, 飘胡) of the self-drawn win of ``w`` on the 13 tiles ``c``
    (``own``: the player's tiles before the draw, melds included, for 独听)."""
    legal = judge_win(c, w, ms, own, rv, tb, rd)
    if not legal:
        return False, 0, 0, 0
    fan_items(rd, HOW_SELF, rd[RD_HAOHUA], rv, items)
    settle(items, 0, dealer, -1, HOW_SELF, rv, fan, pay)
    return True, pay[0], rd[RD_JIAHU], rd[RD_PIAO]


# per-hand columns (a hand: 13 concealed tiles; many states may share one)
H_DIST = 0  # legal distance
H_MASK = 1  # useful kinds (MOVES_USEFUL); -2 = not computed yet
H_TEN = 2  # tenpai: a legal wait with a copy outside the player's tiles
H_LEGAL = 3  # legal waits
H_DECL = 4  # tenpai and may declare (judge.may_declare): a declared hand locks here
H_COLS = 5
# per-state columns
S_HAND = 0
S_DEPTH = 1  # own discards since the start (MOVES_ALL: the turn the state is reached at)
S_E0 = 2  # its draw edges: e0 <= e < e1
S_E1 = 3
S_LOCK = 4  # declared and locked (MOVES_ALL with declare)
S_COLS = 5
# per-edge columns (a draw of kind E_KIND, E_W copies in the pool)
E_KIND = 0
E_W = 1
E_TYPE = 2  # E_WIN or E_KEEP
E_PAY = 3  # the win's payment (base units)
E_JIA = 4  # the win scores 夹胡
E_PIAO = 5  # the win scores 飘胡
E_Q0 = 6  # a kept draw's successors q0 <= q < q1 (one per allowed discard)
E_Q1 = 7
E_COLS = 8
# successors
Q_STATE = 0
Q_TILE = 1  # the discard
Q_COLS = 2


@njit(cache=True)
def _hand_row(c, ms, rv, memo, hk, hv, hm, hands, n_h, known):
    """The hand row of ``c`` (its legal distance computed if new, unless ``known`` >= 0 gives
    it). Returns (row, memo, hk, hv, hm, hands, n_h)."""
    ka, kb = _key2(c)
    hi = HT.get(hk, hv, hm, ka, kb, 0, 0)
    if hi >= 0:
        return hi, memo, hk, hv, hm, hands, n_h
    if known >= 0:
        d = known
    else:
        d, memo = LG.distance(c, ms, rv, memo)
    hands = _grow(hands, n_h + 1)
    hands[n_h, H_DIST] = d
    hands[n_h, H_MASK] = -2
    hk, hv, hm = HT.put(hk, hv, hm, ka, kb, 0, 0, n_h)
    return n_h, memo, hk, hv, hm, hands, n_h + 1


@njit(cache=True)
def _judge_hand(hi, c, ms, meld_own, rv, tb, moves, memo, hands, own, wbuf):
    """Fill a hand row's useful kinds, tenpai and legal waits (once). Returns the memo."""
    if hands[hi, H_MASK] != -2:
        return memo
    if moves == MOVES_USEFUL:
        mask, memo = LG.useful_mask(c, ms, rv, memo, hands[hi, H_DIST])
    else:
        mask = np.int64(-1)
    for i in range(N_KINDS):
        own[i] = c[i] + meld_own[i]
    n_live = judge_waits(c, ms, own, rv, tb, wbuf)
    lm = np.int64(0)
    for t in range(N_KINDS):
        if wbuf[t, W_LEGAL]:
            lm |= np.int64(1) << t
    hands[hi, H_MASK] = mask
    hands[hi, H_TEN] = 1 if n_live > 0 else 0
    hands[hi, H_LEGAL] = lm
    hands[hi, H_DECL] = 1 if n_live > 0 and may_declare(own, rv) else 0
    return memo


@njit(cache=True)
def _state_row(c, dd, hi, depth, lock, keep, sk, sv, sm, states, s_c, s_dd, n_s):
    """The state (c, dd restricted to the kinds in ``keep``; -1 = all). Returns (row, sk, sv,
    sm, states, s_c, s_dd, n_s)."""
    for i in range(N_KINDS):
        if keep != -1 and not (keep >> i & 1):
            dd[i] = 0
    ka, kb = _key2(c)
    da, db = _key2(dd)
    si = HT.get(sk, sv, sm, ka, kb, da, db)
    if si >= 0:
        return si, sk, sv, sm, states, s_c, s_dd, n_s
    states = _grow(states, n_s + 1)
    s_c = _grow(s_c, n_s + 1)
    s_dd = _grow(s_dd, n_s + 1)
    for i in range(N_KINDS):
        s_c[n_s, i] = c[i]
        s_dd[n_s, i] = dd[i]
    states[n_s, S_HAND] = hi
    states[n_s, S_DEPTH] = depth
    states[n_s, S_LOCK] = 1 if lock else 0
    sk, sv, sm = HT.put(sk, sv, sm, ka, kb, da, db, n_s)
    return n_s, sk, sv, sm, states, s_c, s_dd, n_s + 1


@njit(cache=True, nogil=True)
def build(roots_c, roots_d, base, meld_own, ms, rv, tb, moves, declare, dealer, n_draws,
          max_states, stop):  # fmt: skip
    """Build the state graph from the start hands (rows of ``roots_c``, 13 concealed tiles,
    with the player's discards so far in ``roots_d``). ``base[t]``: 4 - visible - meld copies.
    Returns (status, roots, states, s_c, s_dd, hands, edges, succ); ``stop``: int64[1], set
    it to stop early (status STOPPED)."""
    memo = LG.new_memo(rv)
    hk, hv, hm = HT.new(4096)
    hands = np.zeros((1024, H_COLS), np.int64)
    n_h = 0
    sk, sv, sm = HT.new(4096)
    states = np.zeros((1024, S_COLS), np.int64)
    s_c = np.zeros((1024, N_KINDS), np.uint8)
    s_dd = np.zeros((1024, N_KINDS), np.uint8)
    n_s = 0
    edges = np.zeros((4096, E_COLS), np.int64)
    n_e = 0
    succ = np.zeros((8192, Q_COLS), np.int64)
    n_q = 0
    roots = np.zeros(roots_c.shape[0], np.int64)
    c = np.zeros(N_KINDS, np.uint8)
    own = np.zeros(N_KINDS, np.uint8)
    dd = np.zeros(N_KINDS, np.int64)
    wbuf = np.zeros((N_KINDS, W_COLS), np.int64)
    rd = np.zeros(RD_LEN, np.int64)
    items = np.zeros(N_FAN, np.int64)
    fan = np.zeros(N_SEATS, np.int64)
    pay = np.zeros(N_SEATS, np.int64)
    dists = np.zeros(N_KINDS, np.int64)
    cx = LG.new_context()

    for r in range(roots_c.shape[0]):
        for i in range(N_KINDS):
            c[i] = roots_c[r, i]
            dd[i] = roots_d[r, i]
        hi, memo, hk, hv, hm, hands, n_h = _hand_row(c, ms, rv, memo, hk, hv, hm, hands, n_h,
                                                     -1)  # fmt: skip
        memo = _judge_hand(hi, c, ms, meld_own, rv, tb, moves, memo, hands, own, wbuf)
        lock = moves == MOVES_ALL and declare == 1 and hands[hi, H_DECL] == 1
        keep = hands[hi, H_LEGAL] if lock else hands[hi, H_MASK]
        roots[r], sk, sv, sm, states, s_c, s_dd, n_s = _state_row(
            c, dd, hi, 0, lock, keep, sk, sv, sm, states, s_c, s_dd, n_s
        )

    status = OK
    s = 0
    while s < n_s:  # breadth first: the edges of state s
        if stop[0]:
            status = STOPPED
            break
        if n_s > max_states:
            status = TOO_BIG
            break
        hi = states[s, S_HAND]
        d = hands[hi, H_DIST]
        lock = states[s, S_LOCK] == 1
        depth = states[s, S_DEPTH]
        states[s, S_E0] = n_e
        draws = hands[hi, H_LEGAL] if lock else hands[hi, H_MASK]
        if moves == MOVES_ALL and depth >= n_draws:
            draws = np.int64(0)  # reached only after the last draw
        have_cx = False
        for t in range(N_KINDS):
            if not (draws >> t & 1):
                continue
            w = base[t] - int(s_c[s, t]) - int(s_dd[s, t])
            if w <= 0:
                continue
            for i in range(N_KINDS):
                c[i] = s_c[s, i]
                own[i] = c[i] + meld_own[i]
            win = False
            amount = 0
            jia = 0
            piao = 0
            if hands[hi, H_LEGAL] >> t & 1:
                win, amount, jia, piao = _payment(c, t, ms, own, rv, tb, dealer, rd, items, fan,
                                                  pay)  # fmt: skip
            if not win and (lock or (moves == MOVES_USEFUL and d <= 1)):
                continue  # (drawn and thrown: no edge)
            edges = _grow(edges, n_e + 1)
            edges[n_e, E_KIND] = t
            edges[n_e, E_W] = w
            edges[n_e, E_Q0] = n_q
            edges[n_e, E_Q1] = n_q
            if win:
                edges[n_e, E_TYPE] = E_WIN
                edges[n_e, E_PAY] = amount
                edges[n_e, E_JIA] = jia
                edges[n_e, E_PIAO] = piao
                n_e += 1
                continue
            edges[n_e, E_TYPE] = E_KEEP
            if not have_cx:
                memo = LG.context(c, ms, rv, memo, cx)
                have_cx = True
            memo = LG.swaps(c, ms, rv, memo, cx, t, dists)  # each discard's legal distance
            c[t] += 1
            for x in range(N_KINDS):
                if c[x] == 0 or (moves == MOVES_USEFUL and dists[x] != d - 1):
                    continue
                c[x] -= 1
                h2, memo, hk, hv, hm, hands, n_h = _hand_row(c, ms, rv, memo, hk, hv, hm,
                                                             hands, n_h, dists[x])  # fmt: skip
                memo = _judge_hand(h2, c, ms, meld_own, rv, tb, moves, memo, hands, own, wbuf)
                for i in range(N_KINDS):
                    dd[i] = s_dd[s, i]
                dd[x] += 1
                lock2 = moves == MOVES_ALL and declare == 1 and hands[h2, H_DECL] == 1
                keep = hands[h2, H_LEGAL] if lock2 else hands[h2, H_MASK]
                q, sk, sv, sm, states, s_c, s_dd, n_s = _state_row(
                    c, dd, h2, depth + 1, lock2, keep, sk, sv, sm, states, s_c, s_dd, n_s
                )
                succ = _grow(succ, n_q + 1)
                succ[n_q, Q_STATE] = q
                succ[n_q, Q_TILE] = x
                n_q += 1
                c[x] += 1
            edges[n_e, E_Q1] = n_q
            n_e += 1
        states[s, S_E1] = n_e
        s += 1
    return status, roots, states[:n_s], s_c[:n_s], s_dd[:n_s], hands[:n_h], edges[:n_e], succ[:n_q]


@njit(cache=True, inline="always")
def _better(w, e, bw, be, objective):
    """Is (P(win), payment) = (w, e) better than (bw, be) for the objective (the other one
    breaks ties; a tie kept goes to the lower discard)?"""
    if objective == OBJ_WIN:
        if w > bw + _EPS:
            return True
        return w >= bw - _EPS and e > be + _EPS * max(1.0, abs(be))
    if e > be + _EPS * max(1.0, abs(be)):
        return True
    return e >= be - _EPS * max(1.0, abs(be)) and w > bw + _EPS


@njit(cache=True, nogil=True)
def backward(states, edges, succ, total, n_draws, objective, stop):
    """Values of every state at turn 0 — (P(win within the horizon), expected payment) under
    the best play for the objective — and that play: ``dec[e, t]`` = which successor of kept
    draw e (an offset from its E_Q0) to take when it is the (t+1)-th draw. Returns (finished,
    w0, e0, dec); finished is False when ``stop[0]`` was set."""
    n = states.shape[0]
    wn = np.zeros(n)
    en = np.zeros(n)
    wc = np.zeros(n)
    ec = np.zeros(n)
    dec = np.zeros((edges.shape[0], max(n_draws, 1)), np.int8)
    for t in range(n_draws - 1, -1, -1):
        if stop[0]:
            return False, wn, en, dec
        denom = total - t
        for s in range(n):
            aw = 0.0
            ae = 0.0
            mass = 0.0
            for e in range(states[s, S_E0], states[s, S_E1]):
                p = edges[e, E_W] / denom
                mass += p
                if edges[e, E_TYPE] == E_WIN:
                    aw += p
                    ae += p * edges[e, E_PAY]
                    continue
                q0 = edges[e, E_Q0]
                bi = q0
                bw = wn[succ[q0, Q_STATE]]
                be = en[succ[q0, Q_STATE]]
                for q in range(q0 + 1, edges[e, E_Q1]):
                    w = wn[succ[q, Q_STATE]]
                    v = en[succ[q, Q_STATE]]
                    if _better(w, v, bw, be, objective):
                        bi, bw, be = q, w, v
                dec[e, t] = bi - q0
                aw += p * bw
                ae += p * be
            wc[s] = aw + (1.0 - mass) * wn[s]
            ec[s] = ae + (1.0 - mass) * en[s]
        wn, wc = wc, wn
        en, ec = ec, en
    return True, wn, en, dec


@njit(cache=True, nogil=True)
def forward(root, states, hands, edges, succ, dec, total, n_draws, out):
    """Follow the decisions ``dec`` from ``root``: out[0, t] = P(won by turn t), out[1, t] =
    P(tenpai at some turn <= t) (t = 0..n_draws), out[2, 0] = expected payment, out[2, 1] =
    P(a win scored with 夹胡), out[2, 2] = P(a 飘胡 win); ``out`` has n_draws + 3 columns."""
    n = states.shape[0]
    mu = np.zeros(n)
    nu = np.zeros(n)  # the part of mu that has never been tenpai
    mu2 = np.zeros(n)
    nu2 = np.zeros(n)
    mark = np.full(n, -1, np.int64)
    act = np.zeros(n, np.int64)
    act2 = np.zeros(n, np.int64)
    for i in range(out.shape[1]):
        out[0, i] = 0.0
        out[1, i] = 0.0
        out[2, i] = 0.0
    out[2, 0] = 0.0
    out[2, 1] = 0.0
    out[2, 2] = 0.0
    ten0 = hands[states[root, S_HAND], H_TEN]
    out[1, 0] = 1.0 if ten0 else 0.0
    mu[root] = 1.0
    nu[root] = 0.0 if ten0 else 1.0
    act[0] = root
    n_act = 1
    for t in range(n_draws):
        denom = total - t
        won = 0.0
        hit = 0.0
        n2 = 0
        for a in range(n_act):
            s = act[a]
            m = mu[s]
            v = nu[s]
            mass = 0.0
            for e in range(states[s, S_E0], states[s, S_E1]):
                p = edges[e, E_W] / denom
                mass += p
                if edges[e, E_TYPE] == E_WIN:
                    won += m * p
                    out[2, 0] += m * p * edges[e, E_PAY]
                    out[2, 1] += m * p * edges[e, E_JIA]
                    out[2, 2] += m * p * edges[e, E_PIAO]
                    continue
                q = succ[edges[e, E_Q0] + dec[e, t], Q_STATE]
                if mark[q] != t + 1:
                    mark[q] = t + 1
                    act2[n2] = q
                    n2 += 1
                    mu2[q] = 0.0
                    nu2[q] = 0.0
                mu2[q] += m * p
                if v > 0.0:
                    if hands[states[q, S_HAND], H_TEN]:
                        hit += v * p
                    else:
                        nu2[q] += v * p
            stay = 1.0 - mass
            if stay > 0.0:
                if mark[s] != t + 1:
                    mark[s] = t + 1
                    act2[n2] = s
                    n2 += 1
                    mu2[s] = 0.0
                    nu2[s] = 0.0
                mu2[s] += m * stay
                nu2[s] += v * stay
        out[0, t + 1] = out[0, t] + won
        out[1, t + 1] = out[1, t] + hit
        mu, mu2 = mu2, mu
        nu, nu2 = nu2, nu
        act, act2 = act2, act
        n_act = n2


@njit(cache=True, nogil=True)
def follow(seed, n_trials, root, pool0, states, s_c, s_dd, hands, edges, succ, dec, base,
           n_draws, stats):  # fmt: skip
    """Monte Carlo under the same decisions: physical draws without replacement from the pool
    ``pool0`` (every kind, the player's discards taken out). Adds to ``stats``: [0] trials,
    [1 + t] wins at draw t + 1, [1 + N + t] first tenpai after draw t + 1, then the payment
    sum, its square sum, 夹胡 wins, 飘胡 wins, and the draws at which a kind the state may draw
    had a pool other than the state's count (0 when the restricted state is exact)."""
    np.random.seed(seed)
    u = 0
    for t in range(N_KINDS):
        u += pool0[t]
    base_wall = np.empty(max(u, 1), np.int64)
    i = 0
    for t in range(N_KINDS):
        for _ in range(pool0[t]):
            base_wall[i] = t
            i += 1
    wall = np.empty(max(u, 1), np.int64)
    pool = np.zeros(N_KINDS, np.int64)
    o_pay = 1 + 2 * n_draws
    for _trial in range(n_trials):
        wall[:u] = base_wall[:u]
        m = u
        for t in range(N_KINDS):
            pool[t] = pool0[t]
        s = root
        ten = hands[states[s, S_HAND], H_TEN] == 1
        for t in range(n_draws):
            hi = states[s, S_HAND]
            draws = hands[hi, H_LEGAL] if states[s, S_LOCK] else hands[hi, H_MASK]
            for k in range(N_KINDS):
                if draws >> k & 1:
                    want = base[k] - int(s_c[s, k]) - int(s_dd[s, k])
                    if pool[k] != max(want, 0):
                        stats[o_pay + 4] += 1
                        break
            j = np.random.randint(0, m)
            k = wall[j]
            wall[j] = wall[m - 1]
            m -= 1
            pool[k] -= 1
            edge = -1
            for e in range(states[s, S_E0], states[s, S_E1]):
                if edges[e, E_KIND] == k:
                    edge = e
                    break
            if edge < 0:
                continue  # thrown at once
            if edges[edge, E_TYPE] == E_WIN:
                stats[1 + t] += 1
                a = edges[edge, E_PAY]
                stats[o_pay] += a
                stats[o_pay + 1] += a * a
                stats[o_pay + 2] += edges[edge, E_JIA]
                stats[o_pay + 3] += edges[edge, E_PIAO]
                break
            s = succ[edges[edge, E_Q0] + dec[edge, t], Q_STATE]
            if not ten and hands[states[s, S_HAND], H_TEN]:
                ten = True
                stats[1 + n_draws + t] += 1
        stats[0] += 1
