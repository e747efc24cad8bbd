"""Exact discard analysis (何切る): the state graph and the dynamic programme behind the exact
answer of ``ccmj odds``.

The model (``pool = hand_only``, as the fastest Riichi calculators assume): the player draws one
tile a turn for N turns; a kind's copies in the pool are ``base - hand`` (``base`` = 4 - visible
- the player's meld tiles), so a drawn and discarded tile counts as unseen again and the pool
always holds U tiles. Nobody else acts. After a draw the player wins when the tiles are a legal
win (``judge_win``), else keeps any 13 of the 14 tiles, chosen to maximise the objective. With
``declare`` a tenpai hand that may declare locks: it only wins or throws what it drew.

A state is the concealed hand alone. The graph holds the hands within the search region:
``x + d <= limit``, where d is the hand's legal distance (``legal.py``) and x the number of its
tiles that are not in the starting hand; a hand on the region's edge (x + d = limit) makes only
progress (a draw and a discard that lower d), or, with ``edge`` 0, every move that stays in the
region (the same hands, more moves between them). Each draw brings at most one new tile, so
after t draws x <= t, and a hand that can still win has d <= N - t: every hand with x + d > N
has value 0, and with ``limit >= N`` the graph holds every hand that matters — the optimum over
every play (a hand with x + d = N can win only if every draw left lowers d, so progress is all
it may use). A smaller limit confines play to hands at most ``limit - d0`` tiles off the
straight path.

``build`` makes the graph; ``backward`` computes, from the last turn back, each state's value
and the best discard after every (state, draw, turn); ``forward`` follows those decisions from a
start for P(win by turn t), P(tenpai by turn t), the 夹胡 / 飘胡 shares and the expected payment;
``follow`` samples draws under the same decisions (the Monte Carlo that checks the solver).
"""

import numpy as np

from . import hashtab as HT
from . import legal as LG
from .jit import njit
from .judge import W_COLS, W_LEGAL, judge_waits, judge_win, may_declare
from .layout import (
    HOW_SELF,
    MS_LEN,
    MS_SETS,
    N_FAN,
    N_KINDS,
    N_SEATS,
    RD_HAOHUA,
    RD_JIAHU,
    RD_LEN,
    RD_PIAO,
    RV_QIDUI,
)
from .score import fan_items, settle

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

# per-state columns (a state: the 3k+1 concealed tiles in s_c)
S_DIST = 0  # legal distance
S_X = 1  # tiles not in the starting hand
S_TEN = 2  # tenpai: a legal wait with a copy outside the player's tiles
S_LOCK = 3  # declared and locked (with declare)
S_E0 = 4  # its draw edges: e0 <= e < e1
S_E1 = 5
S_COLS = 6
# per-edge columns (a draw of kind E_KIND, E_W copies in the pool)
E_KIND = 0
E_W = 1
E_TYPE = 2  # E_WIN or E_KEEP
E_PAY = 3  # the win's payment (base units)
E_JIA = 4  # the win scores 夹胡
E_PIAO = 5  # the win scores 飘胡
E_Q0 = 6  # a kept draw's successors q0 <= q < q1; the first is the state itself (thrown)
E_Q1 = 7
E_COLS = 8
# successors
Q_STATE = 0
Q_TILE = 1  # the discard
Q_COLS = 2


@njit(cache=True, inline="always")
def _key2(c):
    a = 0
    for i in range(17, -1, -1):
        a = a * 5 + int(c[i])
    b = 0
    for i in range(N_KINDS - 1, 17, -1):
        b = b * 5 + int(c[i])
    return a, b


@njit(cache=True, inline="always")
def _key_less(ka, kb, x):
    """_key2 of the hand with one tile x fewer (or, negated step, more): keys are base-5 digits."""
    if x < 18:
        return ka - _P5[x], kb
    return ka, kb - _P5[x - 18]


@njit(cache=True, inline="always")
def _key_more(ka, kb, x):
    """_key2 of the hand with one tile x more."""
    if x < 18:
        return ka + _P5[x], kb
    return ka, kb + _P5[x - 18]


@njit(cache=True, inline="always")
def _melds_key(ms):
    """The meld summary as one number (7 bits a field), the distance memo's third key: a
    hand's distances depend on its melds."""
    k = 0
    for i in range(MS_LEN):
        k = k * 128 + ms[i]
    return k


_P5 = np.array([5**i for i in range(18)], np.int64)


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
    fan_items(rd, HOW_SELF, rd[RD_HAOHUA] == 1, rv, items)
    settle(items, 0, dealer, -1, HOW_SELF, rv, fan, pay)
    return True, pay[0], rd[RD_JIAHU], rd[RD_PIAO]


@njit(cache=True, inline="always")
def _extra(c, c_ref):
    x = 0
    for i in range(N_KINDS):
        if c[i] > c_ref[i]:
            x += int(c[i]) - int(c_ref[i])
    return x


@njit(cache=True, inline="always")  # (inlined: no reference counting of its arrays per call)
def _new_state(c, ka, kb, d, x, ms, meld_own, rv, tb, declare, own, wbuf, sk, sv, sm, states,
               s_c, s_lm, n_s):  # fmt: skip
    """Add the state of hand ``c`` (its key (ka, kb) = _key2(c), not in the graph yet,
    distance d, x new tiles) in row n_s, the arrays having room for it (``_reserve``)."""
    for i in range(N_KINDS):
        s_c[n_s, i] = c[i]
        own[i] = c[i] + meld_own[i]
    lm = np.int64(0)
    n_live = 0
    if d <= 1:
        n_live = judge_waits(c, ms, own, rv, tb, wbuf)
        for t in range(N_KINDS):
            if wbuf[t, W_LEGAL]:
                lm |= np.int64(1) << t
    states[n_s, S_DIST] = d
    states[n_s, S_X] = x
    states[n_s, S_TEN] = 1 if n_live > 0 else 0
    states[n_s, S_LOCK] = 1 if declare == 1 and n_live > 0 and may_declare(own, rv) else 0
    s_lm[n_s] = lm
    HT.insert(sk, sv, sm, ka, kb, 0, 0, n_s)


@njit(cache=True, inline="always")
def _memo_arrays(memo, mk):
    """The legal-distance memo's arrays that ``LG.mcontext_made`` / ``LG.mdraws_made`` read."""
    return memo[0], memo[1], memo[2], memo[3], mk[0], mk[1], mk[2]


# What one state's expansion can add at most: a state per (draw, discard), an edge per draw,
# per draw its successors and the thrown draw. Room for it is made before the expansion, so
# that no array is replaced inside the hot loops: Numba counts references to an array variable
# that a loop may rebind at every pass, and that counting was most of the build's time.
MAX_NEW_STATES = N_KINDS * 14
MAX_NEW_SUCC = N_KINDS * 15


@njit(cache=True, nogil=True)
def build(roots_c, c_ref, base, meld_own, ms, rv, tb, declare, dealer, limit, edge, n_draws,
          max_states, stop, memo, mk, dmemo):  # fmt: skip
    """Build the state graph from the start hands (rows of ``roots_c``, 3k+1 concealed tiles)
    over the hands with x + d <= ``limit`` (x counted against ``c_ref``, the hand as given);
    ``edge`` 1: a hand on the region's edge (x + d = limit) makes only progress, 0: it makes
    every move that stays in the region (the same hands, more moves between them).
    ``base[t]``: 4 - visible - meld copies. ``memo``, ``mk``: the legal-distance memo
    (LG.new_memo(rv)) and its masks (LG.new_masks()), kept by the caller from one build to the
    next (the suit rows are most of the work). ``dmemo``: the distance memo (``HT.new``), kept
    by the caller too: a hand's distance and masks, found once for every state and every 14-tile
    hand that shares it (a 14-tile hand is reached from about three states of a graph, and the
    graphs of one review overlap). Returns (status, roots, states, s_c, edges, succ, memo, mk,
    dmemo); ``stop``: int64[1], set it to stop early (status STOPPED).

    Each state is expanded in two steps: ``_draw_rows`` finds the draws worth keeping and each
    one's discard distances, from the memo (filled by ``_fill_rows`` where it lacks a row);
    ``_expand`` then adds the edges and successors."""
    sk, sv, sm = HT.new(4096)
    states = np.zeros((1024, S_COLS), np.int64)
    s_c = np.zeros((1024, N_KINDS), np.uint8)
    s_lm = np.zeros(1024, np.int64)
    n_s = 0
    edges = np.zeros((4096, E_COLS), np.int64)
    n_e = 0
    succ = np.zeros((8192, Q_COLS), np.int64)
    n_q = 0
    roots = np.zeros(roots_c.shape[0], np.int64)
    c = np.zeros(N_KINDS, np.uint8)
    own = np.zeros(N_KINDS, np.uint8)
    wbuf = np.zeros((N_KINDS, W_COLS), np.int64)
    pays = (np.zeros(RD_LEN, np.int64), np.zeros(N_FAN, np.int64), np.zeros(N_SEATS, np.int64),
            np.zeros(N_SEATS, np.int64))  # (_payment's scratch: rd, items, fan, pay)
    keep = np.zeros(N_KINDS, np.int64)  # per draw: kept (1), or not (0)
    dtab = np.zeros((N_KINDS, N_KINDS), np.int64)  # per kept draw: each discard's distance
    need = np.zeros(N_KINDS, np.int64)  # per draw: its memo row is missing
    # standard forms: every draw's and every discard's distance from the masks of one pass
    # (LG.mcontext / LG.mdraw); 七对, where it counts, laid over them (_draw_rows)
    qidui = rv[RV_QIDUI] == 1 and ms[MS_SETS] == 0
    mcx = LG.new_mcontext()
    dk, dv, dm = dmemo
    msk = _melds_key(ms)

    for r in range(roots_c.shape[0]):
        for i in range(N_KINDS):
            c[i] = roots_c[r, i]
        d, memo = LG.distance(c, ms, rv, memo)
        ka, kb = _key2(c)
        si = HT.get(sk, sv, sm, ka, kb, 0, 0)
        if si < 0:
            states, s_c, s_lm = _reserve(states, s_c, s_lm, n_s + 1)
            sk, sv, sm = HT.reserve(sk, sv, sm, 1)
            _new_state(c, ka, kb, d, _extra(c, c_ref), ms, meld_own, rv, tb, declare, own, wbuf,
                       sk, sv, sm, states, s_c, s_lm, n_s)  # fmt: skip
            si = n_s
            n_s += 1
        roots[r] = si
    hk, hv, hm, rows, flag, rmk, ndk = _memo_arrays(memo, mk)  # (as the roots' distances left it)

    s = 0
    while True:  # breadth first, in runs of states that need nothing from here
        status, s, n_s, n_e, n_q = _run(
            s, n_s, n_e, n_q, c, c_ref, base, limit, edge, n_draws, max_states, stop, qidui,
            ms, meld_own, rv, tb, declare, dealer, own, wbuf, pays, keep, dtab, need, mcx, hk,
            hv, hm, rows, flag, rmk, ndk, dk, dv, dm, msk, sk, sv, sm, states, s_c, s_lm, edges,
            succ)  # fmt: skip
        if status == _ROOM:  # (room for a state's expansion at most, doubling)
            states, s_c, s_lm = _reserve(states, s_c, s_lm, n_s + MAX_NEW_STATES)
            sk, sv, sm = HT.reserve(sk, sv, sm, MAX_NEW_STATES)
            dk, dv, dm = HT.reserve(dk, dv, dm, N_KINDS + 1)
            edges = _grow(edges, n_e + N_KINDS)
            succ = _grow(succ, n_q + MAX_NEW_SUCC)
        elif status == _ROWS:  # (c: state s's hand; need: the rows it lacks)
            memo, mk = _fill_rows(c, ms, rv, memo, mk, mcx, need)
            hk, hv, hm, rows, flag, rmk, ndk = _memo_arrays(memo, mk)
        else:
            break
    return (status, roots, states[:n_s], s_c[:n_s], edges[:n_e], succ[:n_q], memo, mk,
            (dk, dv, dm))


@njit(cache=True)
def _reserve(states, s_c, s_lm, n):
    """The state arrays with room for n states."""
    return _grow(states, n), _grow(s_c, n), _grow(s_lm, n)


_ROOM = 3  # (_run: an array lacks room for the next state's expansion)
_ROWS = 4  # (_run: the memo lacks rows the next state's draws need)


@njit(cache=True)
def _run(s, n_s, n_e, n_q, c, c_ref, base, limit, edge, n_draws, max_states, stop, qidui, ms,
         meld_own, rv, tb, declare, dealer, own, wbuf, pays, keep, dtab, need, mcx, hk, hv, hm,
         rows, flag, rmk, ndk, dk, dv, dm, msk, sk, sv, sm, states, s_c, s_lm, edges,
         succ):  # fmt: skip
    """Expand states from s on, in order, while the arrays have room and the memo the rows
    (no array is replaced here: see MAX_NEW_STATES). Returns (status, s, n_s, n_e, n_q):
    OK (every state expanded), TOO_BIG, STOPPED, _ROOM or _ROWS (state s not expanded yet)."""
    while s < n_s:
        if stop[0]:
            return STOPPED, s, n_s, n_e, n_q
        if n_s > max_states:
            return TOO_BIG, s, n_s, n_e, n_q
        if (n_s + MAX_NEW_STATES > states.shape[0] or 2 * (sm[0] + MAX_NEW_STATES) > sm[1] + 1
                or n_e + N_KINDS > edges.shape[0] or n_q + MAX_NEW_SUCC > succ.shape[0]
                or 2 * (dm[0] + N_KINDS + 1) > dm[1] + 1):
            return _ROOM, s, n_s, n_e, n_q  # fmt: skip
        for i in range(N_KINDS):
            c[i] = s_c[s, i]
        if states[s, S_LOCK] == 1:
            keep[:] = 0  # (a locked hand keeps no draw: it wins or throws it)
        elif not _draw_rows(c, states[s], c_ref, base, limit, edge, n_draws, qidui, ms, rv, mcx,
                            hk, hv, hm, rows, flag, rmk, ndk, dk, dv, dm, msk, keep, dtab,
                            need):  # fmt: skip
            return _ROWS, s, n_s, n_e, n_q
        n_s, n_e, n_q = _expand(s, c, c_ref, base, limit, edge, n_draws, ms, meld_own, rv, tb,
                                declare, dealer, own, wbuf, pays, keep, dtab, sk, sv, sm, states,
                                s_c, s_lm, n_s, edges, n_e, succ, n_q)  # fmt: skip
        s += 1
    return OK, s, n_s, n_e, n_q


@njit(cache=True, inline="always")
def _prune(d, x, new, d14t, limit, edge, n_draws):
    """Is a draw of the state with distance d and x new tiles (``new``: 1 if the drawn tile
    is one more) one no discard can keep in the region? A discard leaves at least the 14
    tiles' distance d14t and removes at most one new tile; with ``edge``, a state on the
    region's edge (x + d = limit) makes only progress. (Scalars only: an array argument of an
    inlined call is counted as a reference at every pass of the loop.)"""
    if edge and x + d >= limit and d14t >= d:
        return True
    return x + new - 1 + d14t > limit or d14t > n_draws


@njit(cache=True, inline="always")
def _draw_rows(c, st, c_ref, base, limit, edge, n_draws, qidui, ms, rv, mcx, hk, hv, hm, rows,
               flag, rmk, ndk, dk, dv, dm, msk, keep, dtab, need):  # fmt: skip
    """keep[t] = 1 for each draw t of the state ``st`` (hand c) that a discard can keep in the
    region, with dtab[t, x] = the distance discarding x leaves (INF for a tile not held). The
    standard forms' distances come from the distance memo (dk, dv, dm: a hand's key and ``msk``
    -> its mask << 7 | its distance), else from the legal memo's rows, which fill it; with
    ``qidui`` each is lowered to the hand's 七对 distance where that is nearer (the pair DP run
    only where a floor, kept by counts, says it may be). False when a row is missing: then
    need[t] = 1 for each draw whose row is missing (all zero: the hand's own rows), for
    ``_fill_rows``. The room for 1 + N_KINDS new entries is made by the caller."""
    need[:] = 0
    ka, kb = _key2(c)
    got = HT.find(dk, dv, dm, ka, kb, msk, 0)
    context = got < 0  # (mcx holds this hand's context: made when a hand misses the memo)
    if context:
        found, d13, nd_mask = LG.mcontext_made(c, ms, rv, mcx, hk, hv, hm, rows, flag, rmk, ndk)
        if not found:
            return False
        HT.insert(dk, dv, dm, ka, kb, msk, 0, nd_mask << 7 | d13)
    else:
        d13, nd_mask = got & 127, got >> 7
    d14s, rms = mcx[14], mcx[15]  # (each kept draw's distance and rm mask)
    n0 = n1 = 0  # (七对: the hand's free and one-tile pairs, for the floor)
    if qidui:
        for i in range(N_KINDS):
            n0 += LG.PAIRS_FREE[c[i]]
            n1 += LG.PAIRS_ONE[c[i]]
    missed = False
    for t in range(N_KINDS):
        keep[t] = 0
        if base[t] - int(c[t]) <= 0:
            continue
        d14t = LG.INF if d13 >= LG.INF else d13 - (nd_mask >> t & 1)
        if qidui:
            c[t] += 1
            d14t = _with_qidui(c, rv, d14t, n0, n1, t, -1)
            c[t] -= 1
        if _prune(st[S_DIST], st[S_X], 1 if c[t] >= c_ref[t] else 0, d14t, limit, edge,
                  n_draws):  # (t new if beyond c_ref)
            continue
        ka14, kb14 = _key_more(ka, kb, t)
        got = HT.find(dk, dv, dm, ka14, kb14, msk, 0)
        if got >= 0:
            keep[t] = 1
            d14s[t] = got & 127
            rms[t] = got >> 7
        else:
            need[t] = 1
            missed = True
    ok = True
    if missed:  # the draws the memo lacks, made in one call
        if not context:
            found, _, _ = LG.mcontext_made(c, ms, rv, mcx, hk, hv, hm, rows, flag, rmk, ndk)
            if not found:
                need[:] = 0
                return False
        LG.mdraws_made(need, mcx, hk, hv, hm, rows, flag, rmk, ndk)
        for t in range(N_KINDS):
            if need[t] == 2:
                need[t] = 0
                keep[t] = 1
                ka14, kb14 = _key_more(ka, kb, t)
                HT.insert(dk, dv, dm, ka14, kb14, msk, 0, rms[t] << 7 | d14s[t])
            elif need[t] == 1:  # (its row is missing)
                ok = False
    for t in range(N_KINDS):
        if keep[t]:
            dd = d14s[t]
            rm = rms[t]
            c[t] += 1
            for i in range(N_KINDS):
                if c[i] == 0 or dd >= LG.INF:
                    dtab[t, i] = LG.INF
                else:
                    dtab[t, i] = dd + 1 - (rm >> i & 1)
                if qidui and c[i] > 0 and i != t:  # (throwing t: the state, never a successor)
                    c[i] -= 1
                    dtab[t, i] = _with_qidui(c, rv, dtab[t, i], n0, n1, t, i)
                    c[i] += 1
            c[t] -= 1
    return ok


@njit(cache=True, inline="always")
def _with_qidui(c, rv, bound, n0, n1, t, x):
    """min(bound, the 七对 distance of c), c being the state's hand (free and one-tile pairs
    n0, n1) with t drawn and x (-1: none) thrown: its floor kept from the counts, not remade."""
    if x != t:  # (throwing the drawn tile leaves the state's hand)
        k = int(c[t])  # (t's count before the draw is k - 1)
        n0 += LG.PAIRS_FREE[k] - LG.PAIRS_FREE[k - 1]
        n1 += LG.PAIRS_ONE[k] - LG.PAIRS_ONE[k - 1]
    if x >= 0 and x != t:
        k = int(c[x])  # (x's count before the throw is k + 1)
        n0 += LG.PAIRS_FREE[k] - LG.PAIRS_FREE[k + 1]
        n1 += LG.PAIRS_ONE[k] - LG.PAIRS_ONE[k + 1]
    return LG.qidui_below(c, rv, bound, LG.qidui_floor_of(n0, n1))


@njit(cache=True)
def _fill_rows(c, ms, rv, memo, mk, mcx, need):
    """Make the memo rows ``_draw_rows`` lacked for hand c: its own, and each draw t with
    need[t]. Returns (memo, mk)."""
    _, _, memo, mk = LG.mcontext(c, ms, rv, memo, mk, mcx)
    for t in range(N_KINDS):
        if need[t]:
            _, _, memo, mk = LG.mdraw(t, rv, memo, mk, mcx)
    return memo, mk


@njit(cache=True, inline="always")
def _edge(edges, n_e, t, w, kind, q0, q1, pay, jia, piao):
    """Write edge n_e (a draw of t, w copies in the pool; its successors q0 <= q < q1; a win's
    payment and 夹胡 / 飘胡); returns n_e + 1."""
    edges[n_e, E_KIND] = t
    edges[n_e, E_W] = w
    edges[n_e, E_TYPE] = kind
    edges[n_e, E_PAY] = pay
    edges[n_e, E_JIA] = jia
    edges[n_e, E_PIAO] = piao
    edges[n_e, E_Q0] = q0
    edges[n_e, E_Q1] = q1
    return n_e + 1


@njit(cache=True, inline="always")
def _expand(s, c, c_ref, base, limit, edge, n_draws, ms, meld_own, rv, tb, declare, dealer, own,
            wbuf, pays, keep, dtab, sk, sv, sm, states, s_c, s_lm, n_s, edges, n_e, succ,
            n_q):  # fmt: skip
    """The edges of state s (hand c): a win edge per winning draw, a kept edge per draw of
    ``keep`` with its successors (the drawn tile thrown first, then each discard that stays in
    the region), new states added. The arrays have room for it all (``build``). Returns
    (n_s, n_e, n_q)."""
    rd, items, fan, pay = pays
    lock = states[s, S_LOCK] == 1
    lm = s_lm[s]
    d = states[s, S_DIST]
    edge_state = edge and states[s, S_X] + d >= limit  # on the region's edge: progress only
    states[s, S_E0] = n_e
    for t in range(N_KINDS):
        w = base[t] - int(c[t])
        if w <= 0:
            continue
        if lm >> t & 1:
            for i in range(N_KINDS):
                own[i] = c[i] + meld_own[i]
            win, amount, jia, piao = _payment(c, t, ms, own, rv, tb, dealer, rd, items, fan,
                                              pay)  # fmt: skip
            if win:
                n_e = _edge(edges, n_e, t, w, E_WIN, n_q, n_q, amount, jia, piao)
                continue
        if lock or not keep[t]:
            continue  # (drawn and thrown: the state stays)
        x14 = states[s, S_X] + (1 if c[t] >= c_ref[t] else 0)  # (t new if beyond c_ref)
        c[t] += 1
        ka14, kb14 = _key2(c)
        q0 = n_q
        for x in range(N_KINDS):
            dx = dtab[t, x]
            if x == t or c[x] == 0 or dx > n_draws:
                continue
            if edge_state and dx >= d:
                continue
            x2 = x14 - (1 if c[x] > c_ref[x] else 0)
            if x2 + dx > limit:
                continue
            c[x] -= 1
            if n_q == q0:  # the first successor: throwing the drawn tile (the state)
                succ[n_q, Q_STATE] = s
                succ[n_q, Q_TILE] = t
                n_q += 1
            ka, kb = _key_less(ka14, kb14, x)
            q = HT.find(sk, sv, sm, ka, kb, 0, 0)
            if q < 0:
                _new_state(c, ka, kb, dx, x2, ms, meld_own, rv, tb, declare, own, wbuf, sk, sv,
                           sm, states, s_c, s_lm, n_s)  # fmt: skip
                q = n_s
                n_s += 1
            succ[n_q, Q_STATE] = q
            succ[n_q, Q_TILE] = x
            n_q += 1
            c[x] += 1
        c[t] -= 1
        if n_q > q0:
            n_e = _edge(edges, n_e, t, w, E_KEEP, q0, n_q, 0, 0, 0)
    states[s, S_E1] = n_e
    return n_s, n_e, n_q


@njit(cache=True, inline="always")
def _better(w, e, p, bw, be, bp, objective):
    """Is (P(win), payment, P(tenpai)) = (w, e, p) better than (bw, be, bp) for the objective
    (the other one breaks ties, then reaching tenpai; a tie kept goes to the earlier
    successor: keeping the hand as it is)?"""
    tol = _EPS * max(1.0, abs(be))
    if objective == OBJ_WIN:
        if w > bw + _EPS:
            return True
        if w < bw - _EPS:
            return False
        if e > be + tol:
            return True
        return e >= be - tol and p > bp + _EPS
    if e > be + tol:
        return True
    if e < be - tol:
        return False
    if w > bw + _EPS:
        return True
    return w >= bw - _EPS and p > bp + _EPS


@njit(cache=True, nogil=True)
def backward(states, edges, succ, total, n_draws, objective, stop):
    """Values of every state with the whole horizon ahead — (P(win within it), expected
    payment) under the best play for the objective — and that play: ``dec[e, t]`` = which
    successor of kept draw e (an offset from its E_Q0) to take when it is the (t+1)-th draw.
    Among equal choices the play reaches tenpai soonest. ``total``: the pool's size (the same
    in every state). Returns (finished, w0, e0, dec); finished is False when ``stop[0]`` was
    set."""
    n = states.shape[0]
    wn = np.zeros(n)
    en = np.zeros(n)
    pn = np.zeros(n)
    wc = np.zeros(n)
    ec = np.zeros(n)
    pc = np.zeros(n)
    for s in range(n):
        pn[s] = 1.0 if states[s, S_TEN] else 0.0
    dec = np.zeros((edges.shape[0], max(n_draws, 1)), np.int8)
    for t in range(n_draws - 1, -1, -1):
        if stop[0]:
            return False, wn, en, dec
        left = n_draws - t  # draws left, this one included
        for s in range(n):
            ten = states[s, S_TEN] == 1
            if states[s, S_DIST] > left + 1:  # (nor can it reach tenpai)
                wc[s] = 0.0
                ec[s] = 0.0
                pc[s] = 1.0 if ten else 0.0
                continue
            aw = 0.0
            ae = 0.0
            ap = 0.0
            mass = 0.0
            for e in range(states[s, S_E0], states[s, S_E1]):
                p = edges[e, E_W] / total
                mass += p
                if edges[e, E_TYPE] == E_WIN:
                    aw += p
                    ae += p * edges[e, E_PAY]
                    ap += p
                    continue
                q0 = edges[e, E_Q0]
                bi = q0
                bw = wn[succ[q0, Q_STATE]]
                be = en[succ[q0, Q_STATE]]
                bp = pn[succ[q0, Q_STATE]]
                for q in range(q0 + 1, edges[e, E_Q1]):
                    j = succ[q, Q_STATE]
                    if _better(wn[j], en[j], pn[j], bw, be, bp, objective):
                        bi, bw, be, bp = q, wn[j], en[j], pn[j]
                dec[e, t] = bi - q0
                aw += p * bw
                ae += p * be
                ap += p * bp
            wc[s] = aw + (1.0 - mass) * wn[s]
            ec[s] = ae + (1.0 - mass) * en[s]
            pc[s] = 1.0 if ten else ap + (1.0 - mass) * pn[s]
        wn, wc = wc, wn
        en, ec = ec, en
        pn, pc = pc, pn
    return True, wn, en, dec


@njit(cache=True, nogil=True)
def forward(roots, states, edges, succ, dec, total, n_draws, outs):
    """Follow the decisions ``dec`` from each of ``roots``: for root r, outs[r, 0, t] = P(won
    by turn t), outs[r, 1, t] = P(tenpai at some turn <= t) (t = 0..n_draws), outs[r, 2, 0] =
    expected payment, outs[r, 2, 1] = P(a win scored with 夹胡), outs[r, 2, 2] = P(a 飘胡
    win); ``outs`` has n_draws + 3 columns. The roots share the work arrays: a state's entries
    are written when it is first reached in a turn (``mark``), so nothing is cleared between
    them (clearing a graph's worth of arrays per root was most of the time)."""
    n = states.shape[0]
    mu = np.empty(n)
    nu = np.empty(n)  # the part of mu that has never been tenpai
    mu2 = np.empty(n)
    nu2 = np.empty(n)
    mark = np.full(n, -1, np.int64)  # the stamp (root, turn) at which a state was last reached
    act = np.empty(n, np.int64)
    act2 = np.empty(n, np.int64)
    for r in range(roots.shape[0]):
        _forward_one(roots[r], r * (n_draws + 1), states, edges, succ, dec, total, n_draws,
                     outs[r], mu, nu, mu2, nu2, mark, act, act2)  # fmt: skip


@njit(cache=True)
def _forward_one(root, stamp0, states, edges, succ, dec, total, n_draws, out, mu, nu, mu2, nu2,
                 mark, act, act2):  # fmt: skip
    """``forward`` from one root, its turns stamped stamp0 + 1 .. stamp0 + n_draws."""
    for i in range(out.shape[1]):
        out[0, i] = 0.0
        out[1, i] = 0.0
        out[2, i] = 0.0
    ten0 = states[root, S_TEN]
    out[1, 0] = 1.0 if ten0 else 0.0
    mu[root] = 1.0
    nu[root] = 0.0 if ten0 else 1.0
    act[0] = root
    n_act = 1
    for t in range(n_draws):
        stamp = stamp0 + t + 1
        won = 0.0
        hit = 0.0
        n2 = 0
        for a in range(n_act):
            s = act[a]
            m = mu[s]
            v = nu[s]
            mass = 0.0
            for e in range(states[s, S_E0], states[s, S_E1]):
                p = edges[e, E_W] / total
                mass += p
                if edges[e, E_TYPE] == E_WIN:
                    won += m * p
                    out[2, 0] += m * p * edges[e, E_PAY]
                    out[2, 1] += m * p * edges[e, E_JIA]
                    out[2, 2] += m * p * edges[e, E_PIAO]
                    continue
                q = succ[edges[e, E_Q0] + dec[e, t], Q_STATE]
                if q == s:
                    mass -= p  # thrown: the hand stays as it is
                    continue
                if mark[q] != stamp:
                    mark[q] = stamp
                    act2[n2] = q
                    n2 += 1
                    mu2[q] = 0.0
                    nu2[q] = 0.0
                mu2[q] += m * p
                if v > 0.0:
                    if states[q, S_TEN]:
                        hit += v * p
                    else:
                        nu2[q] += v * p
            stay = 1.0 - mass
            if stay > 0.0:
                if mark[s] != stamp:
                    mark[s] = stamp
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
def follow(seed, n_trials, root, s_c, states, edges, succ, dec, base, total, n_draws,
           stats, s_trials, s_how, s_jiahu, s_piao, s_pay, s_pay2, s_tenpai, s_declared,
           s_hist):  # fmt: skip
    """Monte Carlo under the same decisions and the same pool (a kind's copies: base - hand).
    Adds to ``stats`` at the given offsets (the layout of the odds kernel's statistics):
    trials, self-drawn wins, 夹胡 and 飘胡 wins, the payment and its square, trials that
    reached tenpai, trials that declared (a locked hand), wins by draw."""
    np.random.seed(seed)
    for _trial in range(n_trials):
        s = root
        ten = states[s, S_TEN] == 1
        locked = states[s, S_LOCK] == 1
        for t in range(n_draws):
            j = np.random.randint(0, total)
            k = -1
            acc = 0
            for i in range(N_KINDS):
                acc += base[i] - int(s_c[s, i])
                if j < acc:
                    k = i
                    break
            edge = -1
            for e in range(states[s, S_E0], states[s, S_E1]):
                if edges[e, E_KIND] == k:
                    edge = e
                    break
            if edge < 0:
                continue  # thrown at once
            if edges[edge, E_TYPE] == E_WIN:
                a = edges[edge, E_PAY]
                stats[s_how + HOW_SELF] += 1
                stats[s_hist + t] += 1
                stats[s_pay] += a
                stats[s_pay2] += a * a
                stats[s_jiahu] += edges[edge, E_JIA]
                stats[s_piao] += edges[edge, E_PIAO]
                break
            s = succ[edges[edge, E_Q0] + dec[edge, t], Q_STATE]
            if states[s, S_TEN]:
                ten = True
            if states[s, S_LOCK]:
                locked = True
        if ten:
            stats[s_tenpai] += 1
        if locked:
            stats[s_declared] += 1
        stats[s_trials] += 1
