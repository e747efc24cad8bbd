"""Legal distance: how many tiles a hand is from a *legal* Changchun win.

Standard shanten counts the tiles to draw until the hand holds four sets and a pair; a
Changchun win must also be legal (RULES §3: 三色全, 幺九, 刻, 手把一; 七对 and the exemptions when
the variant has them). The legal distance of concealed tiles ``c`` (3k+1 or 3k+2 of them beside
the melds) is the least number of tiles to add to ``c`` so that it contains a legal complete
hand Y: min over legal Y of |Y \\ c| (multisets, at most 4 copies of a tile in Y). A 13-tile
hand is tenpai with a legal wait exactly when its distance is 1; a 14-tile hand is a legal win
when it is 0. "Legal shanten" = distance - 1.

How: the legal conditions depend only on a few features of a reading — which suits it holds, a
pung, a chow, a 幺九 tile, a dragon pair — so for each suit (and the honors) a small dynamic
programme over its nine positions gives the fewest tiles to add for every target (i sets, j
pairs) and every feature set (``_suit_rows``), memoized per suit key. The groups are then
combined min-plus, the features OR-ed, and the legal combinations kept (``distance``).

The rules come from ``rv`` and the meld summary ``ms`` exactly as ``judge.judge_features``
reads them; tests check that distance 0 / 1 agree with ``judge`` on complete and tenpai hands
and that the distance agrees with a brute-force search.
"""

import numpy as np

from . import hashtab as H
from .jit import njit
from .judge import declared_sets, meld_suits
from .layout import (
    MS_CHOWS,
    MS_PUNGS,
    MS_SETS,
    MS_SPECIALS,
    MS_YAOJIU,
    N_KINDS,
    RV_DRAGON_PAIR_IS_PUNG,
    RV_PIAO_EXEMPT,
    RV_QIDUI,
    RV_QUEMEN,
    RV_SPECIAL_KONG_IS_PUNG,
)

INF = 99
N_T = 10  # targets t = 2 * sets + pairs, sets <= 4, pairs <= 1
# feature bits of a group's reading: a pung; a chow (suits) or a dragon pair (honors); a 幺九
F_P = 1
F_C = 2
F_Y = 4
F_D = 2  # (honors)
# a group's memo row: rows 0-3 = the fewest tiles to add for each target with at least the
# required features (bit 1: a pung — for the honors a pung or, if the variant says so, a
# dragon pair; bit 2: a 幺九 tile), chows allowed; rows 4-5 = pung-only readings (no chow),
# without / with a 幺九 tile
ROW_LEN = 6
REQ_P = 1
REQ_Y = 2

_DP = 5 * 5 * 5 * 2 * 8  # (chows started at x-1, at x-2, sets, pairs, features)


@njit(cache=True, inline="always")
def _ix(a, b, i, j, f):
    return (((a * 5 + b) * 5 + i) * 2 + j) * 8 + f


@njit(cache=True)
def _suit_features(c, base, cur, nxt, out):
    """out[f, t]: fewest tiles to add to the suit c[base:base+9] so that it holds a reading of
    target t with exactly the features f (F_P, F_C, F_Y); INF when none."""
    for k in range(_DP):
        cur[k] = INF
    cur[_ix(0, 0, 0, 0, 0)] = 0
    for x in range(9):
        cx = int(c[base + x])
        for k in range(_DP):
            nxt[k] = INF
        edge = x == 0 or x == 8
        for a in range(5):
            for b in range(5 - a):
                for i in range(5):
                    for j in range(2):
                        for f in range(8):
                            v = cur[_ix(a, b, i, j, f)]
                            if v >= INF:
                                continue
                            used = a + b  # chows started at x-1 and x-2 each take one x
                            for pn in range(2):
                                for jp in range(2 - j):
                                    room = 4 - used - 3 * pn - 2 * jp
                                    if room < 0:
                                        continue
                                    ncmax = min(room, 4 - i - pn) if x <= 6 else 0
                                    for nc in range(ncmax + 1):
                                        tx = used + 3 * pn + 2 * jp + nc
                                        add = tx - cx if tx > cx else 0
                                        nf = f
                                        if pn:
                                            nf |= F_P
                                        if nc:
                                            nf |= F_C
                                        if tx > 0 and edge:
                                            nf |= F_Y
                                        k = _ix(nc, a, i + pn + nc, j + jp, nf)
                                        if v + add < nxt[k]:
                                            nxt[k] = v + add
        for k in range(_DP):
            cur[k] = nxt[k]
    for f in range(8):
        for i in range(5):
            for j in range(2):
                out[f, 2 * i + j] = cur[_ix(0, 0, i, j, f)]


@njit(cache=True)
def _honor_features(c, out):
    """As _suit_features for the seven honors (pungs and a pair only): features F_P, F_D (the
    pair is 白/发/中), F_Y (any tile)."""
    cur = np.full((5, 2, 8), INF, np.int64)
    nxt = np.full((5, 2, 8), INF, np.int64)
    cur[0, 0, 0] = 0
    for x in range(7):
        cx = int(c[27 + x])
        nxt[:, :, :] = INF
        for i in range(5):
            for j in range(2):
                for f in range(8):
                    v = cur[i, j, f]
                    if v >= INF:
                        continue
                    for ch in range(3):  # nothing, a pung, the pair
                        if ch == 1 and i == 4:
                            continue
                        if ch == 2 and j == 1:
                            continue
                        tx = 3 if ch == 1 else (2 if ch == 2 else 0)
                        add = tx - cx if tx > cx else 0
                        nf = f
                        if ch == 1:
                            nf |= F_P
                        if ch == 2 and x >= 4:
                            nf |= F_D
                        if tx:
                            nf |= F_Y
                        ni = i + (1 if ch == 1 else 0)
                        nj = j + (1 if ch == 2 else 0)
                        if v + add < nxt[ni, nj, nf]:
                            nxt[ni, nj, nf] = v + add
        cur[:, :, :] = nxt
    for f in range(8):
        for i in range(5):
            for j in range(2):
                out[f, 2 * i + j] = cur[i, j, f]


@njit(cache=True)
def _rows_from_features(feat, honors, dragon_is_pung, row):
    """A memo row (ROW_LEN x N_T) from exact-feature values ``feat[f, t]``."""
    for r in range(ROW_LEN):
        for t in range(N_T):
            row[r, t] = INF
    for f in range(8):
        if honors:
            p = f & F_P or (dragon_is_pung and f & F_D)
            pung_only = True
        else:
            p = f & F_P
            pung_only = not f & F_C
        y = f & F_Y
        for t in range(N_T):
            v = feat[f, t]
            if v >= INF:
                continue
            for r in range(4):
                if (r & REQ_P and not p) or (r & REQ_Y and not y):
                    continue
                if v < row[r, t]:
                    row[r, t] = v
            if pung_only:
                if v < row[4, t]:
                    row[4, t] = v
                if y and v < row[5, t]:
                    row[5, t] = v


@njit(cache=True)
def new_memo(rv):
    """The per-suit memo: (hash keys, hash vals, hash meta, rows, scratch, rv). One per rule
    vector (the honors' 刻 reads `dragon_pair_is_pung`)."""
    keys, vals, meta = H.new(1024)
    rows = np.zeros((512, ROW_LEN, N_T), np.int64)
    scratch = np.zeros(2 * _DP + 8 * N_T, np.int64)
    return keys, vals, meta, rows, scratch


@njit(cache=True, inline="always")
def _suit_key(c, base, n):
    k = 0
    for i in range(base + n - 1, base - 1, -1):
        k = k * 5 + int(c[i])
    return k


@njit(cache=True)
def group_row(c, g, rv, memo):
    """The memo row index of group g (0-2 suits, 3 honors) of ``c``, computed if new; returns
    (index, memo) — the memo's arrays are replaced when they grow."""
    key = _suit_key(c, 27, 7) if g == 3 else _suit_key(c, 9 * g, 9)
    return key_row(key, g, rv, memo)


@njit(cache=True)
def key_row(key, g, rv, memo):
    """group_row for the group's key (its counts as base-5 digits, lowest tile first)."""
    keys, vals, meta, rows, scratch = memo
    v = H.get(keys, vals, meta, key, g, 0, 0)
    if v >= 0:
        return v, memo
    cnt = np.zeros(N_KINDS, np.int64)
    base = 27 if g == 3 else 9 * g
    k = key
    for i in range(7 if g == 3 else 9):
        cnt[base + i] = k % 5
        k //= 5
    feat = scratch[2 * _DP :].reshape((8, N_T))
    if g == 3:
        _honor_features(cnt, feat)
    else:
        _suit_features(cnt, base, scratch[:_DP], scratch[_DP : 2 * _DP], feat)
    n = meta[0]
    if n >= rows.shape[0]:
        bigger = np.zeros((2 * rows.shape[0], ROW_LEN, N_T), np.int64)
        bigger[:n] = rows[:n]
        rows = bigger
    _rows_from_features(feat, g == 3, rv[RV_DRAGON_PAIR_IS_PUNG] != 0, rows[n])
    keys, vals, meta = H.put(keys, vals, meta, key, g, 0, 0, n)
    return n, (keys, vals, meta, rows, scratch)


@njit(cache=True)
def _merge(a, b, out):
    """out[r, t] = min over splits t = t1 + t2 and r1 | r2 = r of a[r1, t1] + b[r2, t2]; then
    made monotone (at least the features r). a, b: 4 x N_T tables."""
    for r in range(4):
        for t in range(N_T):
            out[r, t] = INF
    for r1 in range(4):
        for r2 in range(4):
            r = r1 | r2
            for i1 in range(5):
                for j1 in range(2):
                    va = a[r1, 2 * i1 + j1]
                    if va >= INF:
                        continue
                    for i2 in range(5 - i1):
                        for j2 in range(2 - j1):
                            v = va + b[r2, 2 * i2 + j2]
                            t = 2 * (i1 + i2) + j1 + j2
                            if v < out[r, t]:
                                out[r, t] = v
    for t in range(N_T):
        out[1, t] = min(out[1, t], out[3, t])
        out[2, t] = min(out[2, t], out[3, t])
        out[0, t] = min(out[0, t], out[1, t], out[2, t])


@njit(cache=True)
def _final(a, b, need, t):
    """min over t1 + t2 = t and r1 | r2 containing ``need`` of a[r1, t1] + b[r2, t2]."""
    best = INF
    for r1 in range(4):
        for r2 in range(4):
            if (r1 | r2) & need != need:
                continue
            for i1 in range(5):
                for j1 in range(2):
                    t1 = 2 * i1 + j1
                    t2 = t - t1
                    if t2 < 0 or t2 >= N_T or t2 % 2 + j1 > 1:
                        continue
                    v = a[r1, t1] + b[r2, t2]
                    if v < best:
                        best = v
    return best


# 七对: a kind with k copies offers a first pair at max(0, 2 - k) tiles and a second at
# max(0, 4 - k) less that: PAIRS_FREE[k] of its pairs cost nothing, PAIRS_ONE[k] one tile, and
# every other pair two
PAIRS_FREE = np.array([0, 0, 1, 1, 2], np.int64)
PAIRS_ONE = np.array([0, 1, 0, 1, 0], np.int64)


@njit(cache=True, inline="always")
def _fill(m, z0, z1):
    """The cost of m more pairs from a pool with z0 free pairs, z1 one-tile pairs and the rest
    at two tiles."""
    a = min(z0, m)
    b = min(z1, m - a)
    return b + 2 * (m - a - b)


@njit(cache=True)
def qidui_distance(c, rv):
    """Fewest tiles to add so that c holds seven pairs (a quad is two pairs) with 三色全 (two
    suits under 缺门) and a 幺九 pair (七对 needs no 刻). A kind with k copies offers a first
    pair at f = max(0, 2 - k) tiles and a second at max(0, 4 - k) - f (never cheaper than its
    first). Some optimum takes, for each suit that must show, the suit's cheapest first pair,
    and for 幺九 the cheapest first pair of the honours or of one suit's 1 and 9 (which also
    shows that suit): if it used a dearer pair of the suit instead, or that kind's second pair,
    swapping in the cheapest first pair costs no more. Those witnesses fixed, the other pairs
    are the cheapest left. The minimum over every choice of witnesses; tests/ holds the
    dynamic programme over the kinds it equals."""
    z0 = 0  # free pairs in the hand (first and second)
    z1 = 0  # one-tile pairs
    suit_min = np.full(3, 2, np.int64)  # each suit's cheapest first pair
    end_min = np.full(3, 2, np.int64)  # each suit's cheapest 1 or 9 first pair
    honor_min = 2
    for x in range(N_KINDS):
        k = int(c[x])
        z0 += PAIRS_FREE[k]
        z1 += PAIRS_ONE[k]
        f = max(0, 2 - k)
        if x >= 27:
            honor_min = min(honor_min, f)
        else:
            g = x // 9
            suit_min[g] = min(suit_min[g], f)
            if x % 9 == 0 or x % 9 == 8:
                end_min[g] = min(end_min[g], f)
    best = INF
    for waive in range(-1, 3):  # a suit that need not show (缺门), or none
        if waive >= 0 and not rv[RV_QUEMEN]:
            continue
        for yj in range(-1, 3):  # the 幺九 witness: the honours (-1), or suit yj's 1 or 9
            cost = 0
            n = 0
            a0 = 0  # free and one-tile first pairs the witnesses take from the pool
            a1 = 0
            for g in range(3):
                w = -1
                if g == yj:
                    w = end_min[g]
                elif g != waive:
                    w = suit_min[g]
                if w >= 0:
                    cost += w
                    n += 1
                    a0 += w == 0
                    a1 += w == 1
            if yj < 0:
                cost += honor_min
                n += 1
                a0 += honor_min == 0
                a1 += honor_min == 1
            cost += _fill(7 - n, z0 - a0, z1 - a1)
            best = min(best, cost)
    return best


@njit(cache=True, inline="always")
def qidui_floor_of(n0, n1):
    """The fewest tiles to add for seven pairs without 三色全 and 幺九, given the hand's pairs
    costing nothing (n0) and one tile (n1): the seven cheapest (a second pair of a kind never
    costs less than its first, so any seven cheapest can be taken)."""
    return _fill(7, n0, n1)


@njit(cache=True, inline="always")
def _qidui_floor(c):
    """``qidui_floor_of`` the hand c: a floor of ``qidui_distance``."""
    n0 = 0
    n1 = 0
    for x in range(N_KINDS):
        n0 += PAIRS_FREE[c[x]]
        n1 += PAIRS_ONE[c[x]]
    return qidui_floor_of(n0, n1)


@njit(cache=True, inline="always")
def qidui_below(c, rv, bound, floor):
    """min(bound, qidui_distance(c, rv)), ``floor`` a floor of the latter: the 七对 distance is
    found only where the floor is below the bound (most hands are far from seven pairs)."""
    if floor >= bound:
        return bound
    q = qidui_distance(c, rv)
    return q if q < bound else bound


@njit(cache=True)
def _qidui_under(c, rv, bound):
    """min(bound, qidui_distance(c, rv)), with the floor of the hand itself."""
    return qidui_below(c, rv, bound, _qidui_floor(c))


@njit(cache=True)
def distance(c, ms, rv, memo):
    """Legal distance of the concealed tiles ``c`` (3k+1 or 3k+2 beside ms[MS_SETS] melds):
    the fewest tiles to add for a legal win (INF: none exists, e.g. 手把一 beside a chow
    meld). Returns (distance, memo)."""
    k = 4 - ms[MS_SETS]
    t_all = 2 * k + 1
    g0, memo = group_row(c, 0, rv, memo)
    g1, memo = group_row(c, 1, rv, memo)
    g2, memo = group_row(c, 2, rv, memo)
    g3, memo = group_row(c, 3, rv, memo)
    rows = memo[3]
    return _distance_rows(rows[g0], rows[g1], rows[g2], rows[g3], c, ms, rv, t_all), memo


@njit(cache=True)
def _distance_rows(r0, r1, r2, r3, c, ms, rv, t_all):
    best = INF
    specials_pung = ms[MS_SPECIALS] == 0 or rv[RV_SPECIAL_KONG_IS_PUNG]
    piao_melds = ms[MS_CHOWS] == 0 and specials_pung  # the melds allow 飘胡
    ab = np.empty((4, N_T), np.int64)
    cd = np.empty((4, N_T), np.int64)
    x0 = np.empty((4, N_T), np.int64)
    x1 = np.empty((4, N_T), np.int64)
    x2 = np.empty((4, N_T), np.int64)
    if declared_sets(ms, rv) < 4 or piao_melds:  # (手把一: four declared sets win only as 飘胡)
        need = 0
        if ms[MS_PUNGS] == 0 and ms[MS_SPECIALS] == 0:
            need |= REQ_P
        if ms[MS_YAOJIU] == 0:
            need |= REQ_Y
        missing = 7 & ~meld_suits(ms, rv)  # suits the concealed part must supply
        # 缺门 lets one suit be absent: try each one as the absent one (or none)
        for waive in range(-1, 3):
            if waive >= 0 and not (rv[RV_QUEMEN] and missing >> waive & 1):
                continue
            for r in range(4):
                for t in range(N_T):
                    x0[r, t] = r0[r, t]
                    x1[r, t] = r1[r, t]
                    x2[r, t] = r2[r, t]
            if missing & 1 and waive != 0:
                x0[:, 0] = INF
            if missing & 2 and waive != 1:
                x1[:, 0] = INF
            if missing & 4 and waive != 2:
                x2[:, 0] = INF
            _merge(x0, x1, ab)
            _merge(x2, r3[:4], cd)
            v = _final(ab, cd, need, t_all)
            if v < best:
                best = v
    if rv[RV_PIAO_EXEMPT] and piao_melds:
        # 大胡缺: a 飘胡 needs neither 三色 nor 幺九; its concealed pungs (or the melds) are 刻
        for t in range(N_T):
            for r in range(4):
                x0[r, t] = r0[4, t]
                x1[r, t] = r1[4, t]
                x2[r, t] = r2[4, t]
                cd[r, t] = r3[4, t]
        _merge(x0, x1, ab)
        _merge(x2, cd, x0)
        v = _final(ab, x0, 0, t_all)
        if v < best:
            best = v
    if rv[RV_QIDUI] and ms[MS_SETS] == 0:
        best = _qidui_under(c, rv, best)
    return best


# --- many neighbours of one hand: the other groups combined once --------------------------------
# A scenario is one way to be legal: the general one (with the suits that must be present; 缺门
# adds one scenario per suit that may be absent) or the 大胡缺 飘胡. For each scenario v and
# group g, comp[v, g] combines the three other groups, so a hand that differs from this one in
# group g only is judged with one _final.
MAXV = 5
_PW = np.array([5**i for i in range(9)], np.int64)


@njit(cache=True)
def _table(row, v_kind, required, out):
    """A group's 4 x N_T table in a scenario: the general rows (a required suit may not be
    empty), or the pung-only row for every requirement (大胡缺 飘胡 needs none)."""
    for r in range(4):
        for t in range(N_T):
            out[r, t] = row[r, t] if v_kind == 1 else row[4, t]
        if required:
            out[r, 0] = INF


@njit(cache=True)
def new_context():
    """Scratch for ``context``: (comp, pair, tabs, req, need, kind, keys, meta)."""
    return (
        np.empty((MAXV, 4, 4, N_T), np.int64),  # comp[v, g]: the other three groups
        np.empty((MAXV, 4, 4, 4, N_T), np.int64),  # pair[v, a, b]: groups a and b
        np.empty((MAXV, 4, 4, N_T), np.int64),  # tabs[v, g]: group g alone
        np.empty((MAXV, 4), np.int64),  # req[v, g]: suit g must not be empty
        np.empty(MAXV, np.int64),  # need[v]: REQ_P / REQ_Y from the concealed part
        np.empty(MAXV, np.int64),  # kind[v]: 1 general, 2 大胡缺 飘胡
        np.empty(4, np.int64),  # keys[g]
        np.empty(2, np.int64),  # meta: scenarios, target t (2k + 1)
    )


@njit(cache=True)
def context(c, ms, rv, memo, cx):
    """Fill the context ``cx`` (from new_context) of the hand ``c``; returns the memo."""
    comp, pair, tabs, req, need, kind, keys, meta = cx
    idx = np.zeros(4, np.int64)
    for g in range(4):
        keys[g] = _suit_key(c, 27, 7) if g == 3 else _suit_key(c, 9 * g, 9)
        idx[g], memo = key_row(keys[g], g, rv, memo)
    rows = memo[3]
    specials_pung = ms[MS_SPECIALS] == 0 or rv[RV_SPECIAL_KONG_IS_PUNG]
    piao_melds = ms[MS_CHOWS] == 0 and specials_pung
    nv = 0
    if declared_sets(ms, rv) < 4 or piao_melds:
        nd = 0
        if ms[MS_PUNGS] == 0 and ms[MS_SPECIALS] == 0:
            nd |= REQ_P
        if ms[MS_YAOJIU] == 0:
            nd |= REQ_Y
        missing = 7 & ~meld_suits(ms, rv)
        for waive in range(-1, 3):
            if waive >= 0 and not (rv[RV_QUEMEN] and missing >> waive & 1):
                continue
            kind[nv] = 1
            need[nv] = nd
            for g in range(4):
                req[nv, g] = 1 if (g < 3 and missing >> g & 1 and waive != g) else 0
            nv += 1
    if rv[RV_PIAO_EXEMPT] and piao_melds:
        kind[nv] = 2
        need[nv] = 0
        for g in range(4):
            req[nv, g] = 0
        nv += 1
    meta[0] = nv
    meta[1] = 2 * (4 - ms[MS_SETS]) + 1
    for v in range(nv):
        for g in range(4):
            _table(rows[idx[g]], kind[v], req[v, g], tabs[v, g])
        for a in range(4):
            for b in range(a + 1, 4):
                _merge(tabs[v, a], tabs[v, b], pair[v, a, b])
        _merge(tabs[v, 1], pair[v, 2, 3], comp[v, 0])
        _merge(tabs[v, 0], pair[v, 2, 3], comp[v, 1])
        _merge(pair[v, 0, 1], tabs[v, 3], comp[v, 2])
        _merge(pair[v, 0, 1], tabs[v, 2], comp[v, 3])
    return memo


@njit(cache=True, inline="always")
def _group(t):
    return t // 9 if t < 27 else 3


@njit(cache=True)
def _with_row(row, g, cx, tab):
    """Legal distance (standard forms) of the context's hand with group g's memo row replaced."""
    comp, pair, tabs, req, need, kind, keys, meta = cx
    best = INF
    for v in range(meta[0]):
        _table(row, kind[v], req[v, g], tab)
        d = _final(tab, comp[v, g], need[v], meta[1])
        if d < best:
            best = d
    return best


@njit(cache=True)
def adds(c, ms, rv, memo, cx, out):
    """out[t] = legal distance of c + t (INF when c[t] == 4), ``cx`` the context of ``c``.
    Returns the memo."""
    keys = cx[6]
    tab = np.empty((4, N_T), np.int64)
    qidui = rv[RV_QIDUI] and ms[MS_SETS] == 0
    for t in range(N_KINDS):
        out[t] = INF
        if c[t] >= 4:
            continue
        g = _group(t)
        r, memo = key_row(keys[g] + _PW[t - 9 * g], g, rv, memo)
        out[t] = _with_row(memo[3][r], g, cx, tab)
        if qidui:
            c[t] = int(c[t]) + 1
            out[t] = _qidui_under(c, rv, out[t])
            c[t] = int(c[t]) - 1
    return memo


@njit(cache=True)
def swaps(c, ms, rv, memo, cx, t, out):
    """out[x] = legal distance of c + t - x for every x held in c + t (else INF), ``cx`` the
    context of ``c``: what each discard leaves after drawing t. Returns the memo."""
    comp, pair, tabs, req, need, kind, keys, meta = cx
    tab = np.empty((4, N_T), np.int64)
    tab2 = np.empty((4, N_T), np.int64)
    other = np.empty((MAXV, 4, 4, N_T), np.int64)  # [v, h]: t's group (with t) + the fourth
    done = np.zeros(4, np.int64)
    g = _group(t)
    kt = keys[g] + _PW[t - 9 * g]
    rt, memo = key_row(kt, g, rv, memo)
    qidui = rv[RV_QIDUI] and ms[MS_SETS] == 0
    c[t] = int(c[t]) + 1
    for x in range(N_KINDS):
        out[x] = INF
        if c[x] == 0:
            continue
        h = _group(x)
        if h == g:
            r, memo = key_row(kt - _PW[x - 9 * g], g, rv, memo)
            out[x] = _with_row(memo[3][r], g, cx, tab)
        else:
            rx, memo = key_row(keys[h] - _PW[x - 9 * h], h, rv, memo)
            rows = memo[3]
            if not done[h]:  # t's group with t, merged with the group neither g nor h
                done[h] = 1
                a = -1
                b = -1
                for u in range(4):
                    if u != g and u != h:
                        if a < 0:
                            a = u
                        else:
                            b = u
                for v in range(meta[0]):
                    _table(rows[rt], kind[v], req[v, g], tab)
                    _merge(tab, pair[v, a, b], other[v, h])
            best = INF
            for v in range(meta[0]):
                _table(rows[rx], kind[v], req[v, h], tab2)
                d = _final(tab2, other[v, h], need[v], meta[1])
                if d < best:
                    best = d
            out[x] = best
        if qidui:
            c[x] = int(c[x]) - 1
            out[x] = _qidui_under(c, rv, out[x])
            c[x] = int(c[x]) + 1
    c[t] = int(c[t]) - 1
    return memo


@njit(cache=True)
def neighbours(c, ms, rv, memo, sign, out):
    """out[t] = legal distance of c + t (sign 1, c[t] < 4) or c - t (sign -1, c[t] > 0), INF
    where that tile cannot move. Returns memo."""
    cx = new_context()
    memo = context(c, ms, rv, memo, cx)
    if sign > 0:
        return adds(c, ms, rv, memo, cx, out)
    keys = cx[6]
    tab = np.empty((4, N_T), np.int64)
    qidui = rv[RV_QIDUI] and ms[MS_SETS] == 0
    for t in range(N_KINDS):
        out[t] = INF
        if c[t] == 0:
            continue
        g = _group(t)
        r, memo = key_row(keys[g] - _PW[t - 9 * g], g, rv, memo)
        out[t] = _with_row(memo[3][r], g, cx, tab)
        if qidui:
            c[t] = int(c[t]) - 1
            out[t] = _qidui_under(c, rv, out[t])
            c[t] = int(c[t]) + 1
    return memo


@njit(cache=True)
def useful_mask(c, ms, rv, memo, d):
    """Tiles t (c[t] < 4) whose draw brings the 3k+1 tiles ``c`` of legal distance ``d`` closer
    to a legal win: distance(c + t) == d - 1. Returns (mask, memo)."""
    out = np.empty(N_KINDS, np.int64)
    memo = neighbours(c, ms, rv, memo, 1, out)
    m = np.int64(0)
    for t in range(N_KINDS):
        if out[t] < d:
            m |= np.int64(1) << t
    return m, memo


@njit(cache=True)
def start_facts(hands, ms, rv, memo):
    """For each row of ``hands`` (3k+1 tiles): its legal distance and ``useful_mask``, in one
    kernel (what an analysis asks of its start hands; one library loaded, not two). Returns
    (distances, masks, memo)."""
    dists = np.empty(hands.shape[0], np.int64)
    masks = np.empty(hands.shape[0], np.int64)
    c = np.empty(N_KINDS, np.uint8)
    for r in range(hands.shape[0]):
        c[:] = hands[r]
        dists[r], memo = distance(c, ms, rv, memo)
        masks[r], memo = useful_mask(c, ms, rv, memo, dists[r])
    return dists, masks, memo


# --- distances with masks: every draw and every discard of one hand in one pass ----------------
# Adding a tile lowers the legal distance by at most one and removing one raises it by at most
# one (a hand with more tiles is never farther). So d(c + y) is d(c) - 1 or d(c), and for a
# 14-tile hand d(c - x) is d(c) or d(c) + 1: one bit a tile. A group's memo row carries, per
# entry (features r, target t), the mask of its tiles whose removal keeps the entry (``rm``)
# and of those whose addition lowers it (``nd``); min-plus merges OR the masks of the choices
# that tie at the minimum. Then d(c - x) = d(c) exactly when x is in the ``rm`` mask of some
# optimal combination, and d(c + y) = d(c) - 1 exactly when y is in the ``nd`` mask of one (the
# entry of x's group can only rise, by at most one, so only an optimal combination whose entry
# stays can keep the minimum). Standard forms only: 七对 goes through ``adds``/``swaps``.
# A masked table: int64[3, 4, N_T] — values, rm masks, nd masks (bits: the 34 kinds).


@njit(cache=True)
def new_masks():
    """The per-row masks beside a memo: (computed flag, rm, nd), indexed by memo row."""
    return (np.zeros(512, np.int8), np.zeros((512, ROW_LEN, N_T), np.int64),
            np.zeros((512, ROW_LEN, N_T), np.int64))  # fmt: skip


@njit(cache=True)
def row_masks(n, key, g, rv, memo, mk, want):
    """Fill the masks of memo row ``n`` (group g, its key) if not yet done: ``want`` 1 the rm
    masks, 2 the nd masks, 3 both (each costs the rows of the neighbouring keys, and a suit
    row is the expensive part). Returns (memo, mk)."""
    flag, rm, nd = mk
    if n >= flag.shape[0]:
        cap = flag.shape[0]
        while cap <= n:
            cap *= 2
        f2 = np.zeros(cap, np.int8)
        r2 = np.zeros((cap, ROW_LEN, N_T), np.int64)
        n2 = np.zeros((cap, ROW_LEN, N_T), np.int64)
        f2[: flag.shape[0]] = flag
        r2[: flag.shape[0]] = rm
        n2[: flag.shape[0]] = nd
        flag, rm, nd = f2, r2, n2
    todo = want & ~flag[n]
    if todo == 0:
        return memo, (flag, rm, nd)
    base = 27 if g == 3 else 9 * g
    for r in range(ROW_LEN):
        for t in range(N_T):
            if todo & 1:
                rm[n, r, t] = 0
            if todo & 2:
                nd[n, r, t] = 0
    k = key
    for i in range(7 if g == 3 else 9):
        cnt = k % 5
        k //= 5
        bit = np.int64(1) << (base + i)
        if cnt > 0 and todo & 1:
            j, memo = key_row(key - _PW[i], g, rv, memo)
            rows = memo[3]
            for r in range(ROW_LEN):
                for t in range(N_T):
                    if rows[n, r, t] < INF and rows[j, r, t] == rows[n, r, t]:
                        rm[n, r, t] |= bit
        if cnt < 4 and todo & 2:
            j, memo = key_row(key + _PW[i], g, rv, memo)
            rows = memo[3]
            for r in range(ROW_LEN):
                for t in range(N_T):
                    if rows[n, r, t] < INF and rows[j, r, t] == rows[n, r, t] - 1:
                        nd[n, r, t] |= bit
    flag[n] |= todo
    return memo, (flag, rm, nd)


@njit(cache=True, inline="always")
def _tie(out, dst, src, t):
    """out[., dst, t] = the better of itself and out[., src, t] (masks OR-ed on a tie)."""
    if out[0, src, t] < out[0, dst, t]:
        out[0, dst, t] = out[0, src, t]
        out[1, dst, t] = out[1, src, t]
        out[2, dst, t] = out[2, src, t]
    elif out[0, src, t] == out[0, dst, t] and out[0, src, t] < INF:
        out[1, dst, t] |= out[1, src, t]
        out[2, dst, t] |= out[2, src, t]


@njit(cache=True)
def _mmerge(a, b, out):
    """_merge on masked tables."""
    for r in range(4):
        for t in range(N_T):
            out[0, r, t] = INF
            out[1, r, t] = 0
            out[2, r, t] = 0
    for r1 in range(4):
        for r2 in range(4):
            r = r1 | r2
            for ta in range(N_T):
                va = a[0, r1, ta]
                if va >= INF:
                    continue
                for tb in range(N_T - ta):
                    if ta % 2 + tb % 2 > 1:
                        continue
                    vb = b[0, r2, tb]
                    if vb >= INF:
                        continue
                    v = va + vb
                    t = ta + tb
                    if v < out[0, r, t]:
                        out[0, r, t] = v
                        out[1, r, t] = a[1, r1, ta] | b[1, r2, tb]
                        out[2, r, t] = a[2, r1, ta] | b[2, r2, tb]
                    elif v == out[0, r, t]:
                        out[1, r, t] |= a[1, r1, ta] | b[1, r2, tb]
                        out[2, r, t] |= a[2, r1, ta] | b[2, r2, tb]
    for t in range(N_T):
        _tie(out, 1, 3, t)
        _tie(out, 2, 3, t)
        _tie(out, 0, 1, t)
        _tie(out, 0, 2, t)


@njit(cache=True)
def _mtable(rows, rm, nd, n, v_kind, required, out):
    """_table on masked rows: memo row n in a scenario."""
    for r in range(4):
        rr = r if v_kind == 1 else 4
        for t in range(N_T):
            out[0, r, t] = rows[n, rr, t]
            out[1, r, t] = rm[n, rr, t]
            out[2, r, t] = nd[n, rr, t]
        if required:
            out[0, r, 0] = INF
            out[1, r, 0] = 0
            out[2, r, 0] = 0


@njit(cache=True)
def _mbest(comp, need, t_all, out):
    """out[., r1, t1] = the best of comp[., r2, t_all - t1] over r2 with (r1 | r2) ⊇ need (a
    group's complement, so that the whole hand is min over r1, t1 of the group's entry + out)."""
    for r1 in range(4):
        for t1 in range(N_T):
            out[0, r1, t1] = INF
            out[1, r1, t1] = 0
            out[2, r1, t1] = 0
            t2 = t_all - t1
            if t2 < 0 or t2 >= N_T or t2 % 2 + t1 % 2 > 1:
                continue
            for r2 in range(4):
                if (r1 | r2) & need != need:
                    continue
                v = comp[0, r2, t2]
                if v >= INF:
                    continue
                if v < out[0, r1, t1]:
                    out[0, r1, t1] = v
                    out[1, r1, t1] = comp[1, r2, t2]
                    out[2, r1, t1] = comp[2, r2, t2]
                elif v == out[0, r1, t1]:
                    out[1, r1, t1] |= comp[1, r2, t2]
                    out[2, r1, t1] |= comp[2, r2, t2]


@njit(cache=True, inline="always")
def _fold(res, v, rm, nd):
    """Fold one reading (value v, masks rm and nd) into res = [value, rm, nd]: the least value,
    the masks of the readings that reach it OR-ed."""
    if v < res[0]:
        res[0] = v
        res[1] = rm
        res[2] = nd
    elif v == res[0]:
        res[1] |= rm
        res[2] |= nd


@njit(cache=True, inline="always")
def _pfinal(a, b, need, t_all, res):
    """Fold into res = [value, rm, nd] the min over r1 | r2 ⊇ need and t1 + t2 = t_all of
    a[r1, t1] + b[r2, t2] (ties OR-ed): the whole hand from two halves."""
    for r1 in range(4):
        for r2 in range(4):
            if (r1 | r2) & need != need:
                continue
            for t1 in range(N_T):
                t2 = t_all - t1
                if t2 < 0 or t2 >= N_T or t1 % 2 + t2 % 2 > 1:
                    continue
                va = a[0, r1, t1]
                vb = b[0, r2, t2]
                if va < INF and vb < INF:
                    _fold(res, va + vb, a[1, r1, t1] | b[1, r2, t2], a[2, r1, t1] | b[2, r2, t2])


# Slots of mcontext's cache of merged pairs of groups (direct-mapped: a new entry replaces the
# one in its slot). The hands of a search share most groups: in a graph a pair of groups recurs
# about ten times (three groups, a complement, only two to four times: not worth caching).
PAIR_SLOTS = 4096


@njit(cache=True)
def new_mcontext():
    """Scratch for ``mcontext``: (tabs, best, tmp, req, need, kind, keys, meta, res, idx, made,
    pairs, pkey, ptab, d14, rm); pkey and ptab cache pairs of groups merged, by the memo rows
    and the scenario that make them; d14 and rm are ``mdraws_made``'s answers, per draw."""
    return (
        np.empty((MAXV, 4, 3, 4, N_T), np.int64),  # tabs[v, g]: group g alone
        np.empty((MAXV, 4, 3, 4, N_T), np.int64),  # best[v, g]: _mbest of the other groups
        np.empty((4, 3, 4, N_T), np.int64),  # merges
        np.empty((MAXV, 4), np.int64),  # req[v, g]
        np.empty(MAXV, np.int64),  # need[v]
        np.empty(MAXV, np.int64),  # kind[v]
        np.empty(4, np.int64),  # keys[g]
        np.empty(2, np.int64),  # meta: scenarios, target t
        np.empty(3, np.int64),  # a result: value, rm, nd
        np.empty(4, np.int64),  # idx[g]: the group's memo row
        np.zeros(4, np.int64),  # made[g]: best[., g] is made for this hand
        np.empty((MAXV, 2, 3, 4, N_T), np.int64),  # pairs[v]: groups 0+1 and 2+3 merged
        np.full((PAIR_SLOTS, 3), -1, np.int64),  # pkey[i]: what ptab[i] was made from
        np.empty((PAIR_SLOTS, 3, 4, N_T), np.int64),
        np.zeros(N_KINDS, np.int64),  # d14[t]
        np.zeros(N_KINDS, np.int64),  # rm[t]
    )


@njit(cache=True, inline="always")
def _copy_table(src, dst):
    for k in range(3):
        for r in range(4):
            for t in range(N_T):
                dst[k, r, t] = src[k, r, t]


@njit(cache=True)
def _pair(a, b, ia, ib, code, pkey, ptab, out):
    """out = _mmerge(a, b), where a and b are the tables of memo rows ia and ib in the scenario
    ``code``: these three name the merge in the cache (pkey, ptab)."""
    i = H._hash(ia, ib, code, 0) & (PAIR_SLOTS - 1)
    if pkey[i, 0] == ia and pkey[i, 1] == ib and pkey[i, 2] == code:
        _copy_table(ptab[i], out)
        return
    _mmerge(a, b, out)
    _copy_table(out, ptab[i])
    pkey[i, 0] = ia
    pkey[i, 1] = ib
    pkey[i, 2] = code


@njit(cache=True)
def mcontext(c, ms, rv, memo, mk, mcx):
    """Fill ``mcx`` (from new_mcontext) for the 3k+1 tiles ``c`` (standard forms; the caller
    handles 七对). Returns (distance, nd mask: the kinds whose draw lowers it, memo, mk)."""
    for g in range(4):
        key = _suit_key(c, 27, 7) if g == 3 else _suit_key(c, 9 * g, 9)
        n, memo = key_row(key, g, rv, memo)
        memo, mk = row_masks(n, key, g, rv, memo, mk, 3)
    _, d, nd = mcontext_made(c, ms, rv, mcx, memo[0], memo[1], memo[2], memo[3], mk[0], mk[1],
                             mk[2])  # fmt: skip
    return d, nd, memo, mk


@njit(cache=True, inline="always")
def mcontext_made(c, ms, rv, mcx, hk, hv, hm, rows, flag, rmk, ndk):
    """``mcontext`` when the memo already holds the four groups' rows and masks (the memo's
    arrays passed one by one: the search's hot path builds no tuples). Returns (found,
    distance, nd mask); found is False when a row is missing (then call ``mcontext``).
    Each group's complement is left to ``mdraws_made``, which makes the ones it needs."""
    tabs, best, tmp, req, need, kind, keys, meta, res, idx, made, pairs, pkey, ptab, _, _ = mcx
    for g in range(4):
        keys[g] = _suit_key(c, 27, 7) if g == 3 else _suit_key(c, 9 * g, 9)
        n = H.find(hk, hv, hm, keys[g], g, 0, 0)
        if n < 0 or n >= flag.shape[0] or flag[n] & 3 != 3:
            return False, INF, np.int64(0)
        idx[g] = n
        made[g] = 0
    specials_pung = ms[MS_SPECIALS] == 0 or rv[RV_SPECIAL_KONG_IS_PUNG]
    piao_melds = ms[MS_CHOWS] == 0 and specials_pung
    nv = 0
    if declared_sets(ms, rv) < 4 or piao_melds:
        nd = 0
        if ms[MS_PUNGS] == 0 and ms[MS_SPECIALS] == 0:
            nd |= REQ_P
        if ms[MS_YAOJIU] == 0:
            nd |= REQ_Y
        missing = 7 & ~meld_suits(ms, rv)
        for waive in range(-1, 3):
            if waive >= 0 and not (rv[RV_QUEMEN] and missing >> waive & 1):
                continue
            kind[nv] = 1
            need[nv] = nd
            for g in range(4):
                req[nv, g] = 1 if (g < 3 and missing >> g & 1 and waive != g) else 0
            nv += 1
    if rv[RV_PIAO_EXEMPT] and piao_melds:
        kind[nv] = 2
        need[nv] = 0
        for g in range(4):
            req[nv, g] = 0
        nv += 1
    meta[0] = nv
    meta[1] = 2 * (4 - ms[MS_SETS]) + 1
    res[0] = INF
    res[1] = 0
    res[2] = 0
    for v in range(nv):
        for g in range(4):
            _mtable(rows, rmk, ndk, idx[g], kind[v], req[v, g], tabs[v, g])
        code = kind[v] << 2 | req[v, 0] << 1 | req[v, 1]  # (what the two tables depend on)
        _pair(tabs[v, 0], tabs[v, 1], idx[0], idx[1], code, pkey, ptab, pairs[v, 0])
        code = kind[v] << 2 | req[v, 2] << 1 | req[v, 3]
        _pair(tabs[v, 2], tabs[v, 3], idx[2], idx[3], code, pkey, ptab, pairs[v, 1])
        _pfinal(pairs[v, 0], pairs[v, 1], need[v], meta[1], res)
    if res[0] >= INF:
        return True, INF, np.int64(0)
    return True, res[0], res[2]


@njit(cache=True)
def mdraw(t, rv, memo, mk, mcx):
    """For the hand of the context with t drawn: (its legal distance d14, rm mask: the kinds x
    it holds whose discard leaves d14; any other discard leaves d14 + 1), memo, mk."""
    keys = mcx[6]
    g = _group(t)
    key = keys[g] + _PW[t - 9 * g]
    n, memo = key_row(key, g, rv, memo)
    memo, mk = row_masks(n, key, g, rv, memo, mk, 1)  # (its nd masks are not read)
    todo = np.zeros(N_KINDS, np.int64)
    todo[t] = 1
    mdraws_made(todo, mcx, memo[0], memo[1], memo[2], memo[3], mk[0], mk[1], mk[2])
    return mcx[14][t], mcx[15][t], memo, mk


@njit(cache=True)
def mdraws_made(todo, mcx, hk, hv, hm, rows, flag, rmk, ndk):
    """``mdraw`` for each draw t with todo[t] = 1, when the memo already holds the drawn
    group's row and its rm masks: then its d14 and rm go to mcx's d14[t] and rm[t] and todo[t]
    becomes 2; where the memo does not, todo[t] stays 1 (then call ``mdraw``). One call for
    all the draws of a hand: a call a draw paid two reference counts for each array it took."""
    tabs, best, tmp, req, need, kind, keys, meta, res, idx, made, pairs, _, _, d14s, rms = mcx
    for t in range(N_KINDS):
        if todo[t] != 1:
            continue
        g = _group(t)
        if not made[g]:  # group g's complement: its partner merged with the other pair
            for v in range(meta[0]):
                if g < 2:
                    _mmerge(tabs[v, g ^ 1], pairs[v, 1], tmp[2])
                else:
                    _mmerge(pairs[v, 0], tabs[v, g ^ 1], tmp[2])
                _mbest(tmp[2], need[v], meta[1], best[v, g])
            made[g] = 1
        key = keys[g] + _PW[t - 9 * g]
        n = H.find(hk, hv, hm, key, g, 0, 0)
        if n < 0 or n >= flag.shape[0] or not flag[n] & 1:
            continue
        # the drawn group's row, read as _mtable reads it (in place: no table copied first),
        # beside its complement: the least sum, the rm masks of the sums that reach it OR-ed
        d14 = INF
        rm = np.int64(0)
        for v in range(meta[0]):
            t0 = 1 if req[v, g] else 0  # (a required suit: the group cannot be empty)
            for r1 in range(4):
                rr = r1 if kind[v] == 1 else 4
                for t1 in range(t0, N_T):
                    va = rows[n, rr, t1]
                    vb = best[v, g, 0, r1, t1]
                    if va < INF and vb < INF:
                        x = va + vb
                        if x < d14:
                            d14 = x
                            rm = rmk[n, rr, t1] | best[v, g, 1, r1, t1]
                        elif x == d14:
                            rm |= rmk[n, rr, t1] | best[v, g, 1, r1, t1]
        d14s[t] = d14 if d14 < INF else INF
        rms[t] = rm if d14 < INF else 0
        todo[t] = 2
