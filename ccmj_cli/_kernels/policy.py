"""The baseline discard policy shared by `ccmj odds` and the table bots.

Discard to minimise standard shanten; break ties by the most live copies of what the hand then
wants: its legal waits when the discard leaves tenpai (a tenpai that cannot win legally wants
nothing), else its useful tiles (进张). Remaining ties go to the lowest tile index, so the
policy is deterministic. Two ways to compute it, pinned to the same answers by the tests:
``choose_discard_memo`` computes shanten first for every discard, and only the discards that
reach the lowest need their wanted tiles, which a per-thread memo remembers (the odds, where
one hand recurs); ``choose_discard`` keeps no memo and finds useful tiles incrementally from the
per-suit rows (the table bots, whose melds change).
"""

import numpy as np

from . import jit as _jit
from .jit import njit
from .judge import W_LEGAL, judge_waits
from .layout import N_KINDS
from .shape import shanten, useful_mask

MEMO_MAX = 300_000  # hands remembered by a memo before it is cleared

if _jit.INTERPRETED:  # (one table position asked: the source runs as Python, no Numba)

    def new_memo():
        return {}

else:
    from numba import types
    from numba.typed import Dict

    PAIR = types.UniTuple(types.int64, 2)

    @njit(cache=True, nogil=True)
    def new_memo():
        """A cache of (shanten, wanted mask) per concealed hand. Valid for one meld summary and
        one rule vector: a caller whose melds change must start a new one."""
        return Dict.empty(key_type=PAIR, value_type=PAIR)


@njit(cache=True, nogil=True, inline="always")
def _hand_key(c):
    a = np.int64(0)  # (int64, not the counts' uint8: so too when run as Python)
    for i in range(17, -1, -1):  # m and p: 18 base-5 digits
        a = a * 5 + c[i]
    b = np.int64(0)
    for i in range(N_KINDS - 1, 17, -1):  # s and z: 16 digits
        b = b * 5 + c[i]
    return (a, b)


@njit(cache=True, nogil=True)
def wanted(c, ms, own, rv, tb, wbuf):
    """(shanten, mask of the tiles wanted) of 3k+1 concealed tiles: the legal waits when
    tenpai, else the useful tiles. Neither depends on live counts."""
    sh = shanten(c, tb)
    m = np.int64(0)
    if sh == 0:
        judge_waits(c, ms, own, rv, tb, wbuf)
        for t in range(N_KINDS):
            if wbuf[t, W_LEGAL]:
                m |= np.int64(1) << t
    else:
        m = useful_mask(c, tb)
    return np.int64(sh), m


@njit(cache=True, nogil=True, inline="always")
def live_of(mask, view):
    """Live copies of the tiles in ``mask``."""
    live = 0
    for t in range(N_KINDS):
        if mask >> t & 1:
            live += view[t]
    return live


@njit(cache=True, nogil=True)
def discard_value(c, ms, own, view, rv, tb, wbuf):
    """(shanten, live wanted tiles) of the 3k+1 tiles ``c``: what a discard leaves."""
    sh, m = wanted(c, ms, own, rv, tb, wbuf)
    return sh, live_of(m, view)


@njit(cache=True, nogil=True)
def _wanted_memo(c, ms, own, rv, tb, wbuf, memo):
    key = _hand_key(c)
    if key in memo:
        return memo[key]
    v = wanted(c, ms, own, rv, tb, wbuf)
    if len(memo) >= MEMO_MAX:
        memo.clear()
    memo[key] = v
    return v


@njit(cache=True, nogil=True)
def choose_discard_memo(c, ms, own, view, rv, tb, wbuf, memo, shs):
    """Best discard from 3k+2 concealed tiles ``c`` (modified in place, restored).

    ``view``: live copies per tile as the player sees them; ``wbuf`` int64[34, W_COLS] and
    ``shs`` int64[34] are scratch; ``memo`` from ``new_memo()``.
    """
    best_sh = 99
    for d in range(N_KINDS):
        shs[d] = 99
        if c[d]:
            c[d] -= 1
            shs[d] = shanten(c, tb)
            c[d] += 1
            if shs[d] < best_sh:
                best_sh = shs[d]
    best = -1
    best_live = -1
    for d in range(N_KINDS):
        if shs[d] != best_sh:
            continue
        c[d] -= 1
        own[d] -= 1
        sh, m = _wanted_memo(c, ms, own, rv, tb, wbuf, memo)
        c[d] += 1
        own[d] += 1
        live = live_of(m, view)
        if live > best_live:
            best, best_live = d, live
    return best


# ------------------------------------------------------- without a memo: incremental useful tiles
# The distance of a hand is a min-plus combination of four per-suit table rows, and adding or
# removing a tile changes one row only, so the other three suits are combined once per discard.
BIG = 255


@njit(cache=True, nogil=True, inline="always")
def _suit_key(c, base, n):
    k = np.int64(0)  # (interpreted, 0 + a uint8 count would be a uint8 under NumPy 2, and wrap)
    for i in range(base + n - 1, base - 1, -1):
        k = k * 5 + c[i]
    return k


@njit(cache=True, nogil=True)
def _rows(c, tb, keys, rows):
    for g in range(4):
        base = 9 * g
        if g == 3:
            keys[g] = _suit_key(c, 27, 7)
            r = tb[5][keys[g]]
        else:
            keys[g] = _suit_key(c, base, 9)
            r = tb[1][keys[g]]
        for x in range(10):
            rows[g, x] = r[x]


@njit(cache=True, nogil=True, inline="always")
def _join(row, other, k):
    best = BIG * 4
    for i in range(k + 1):
        for j in range(2):
            v = np.int64(row[2 * i + j]) + other[2 * (k - i) + 1 - j]
            if v < best:
                best = v
    return best


@njit(cache=True, nogil=True)
def _minplus(a, b, k, out):
    """out[2i + j] = min over splits (i1 + i2 = i <= k, j1 + j2 = j <= 1) of a[..] + b[..]."""
    for x in range(10):
        out[x] = BIG
    for i1 in range(k + 1):
        for j1 in range(2):
            va = a[2 * i1 + j1]
            for i2 in range(k - i1 + 1):
                for j2 in range(2 - j1):
                    v = va + b[2 * i2 + j2]
                    x = 2 * (i1 + i2) + j1 + j2
                    if v < out[x]:
                        out[x] = v


@njit(cache=True, nogil=True)
def new_discard_scratch():
    """Scratch for ``choose_discard_value`` (a caller that chooses often keeps one)."""
    return (
        np.zeros((N_KINDS, 5), np.int64),  # judge_waits output
        np.zeros(4, np.int64),  # the suits' table keys
        np.zeros((4, 10), np.int64),  # the suits' distance rows
        np.zeros((4, 4, 10), np.int64),  # two suits combined
        np.zeros((4, 10), np.int64),  # three suits combined (all but one)
        np.zeros(10, np.int64),  # the other suits after a discard
        np.zeros((N_KINDS, 10), np.int64),  # each discard's suit row
        np.zeros(N_KINDS, np.int64),  # each discard's shanten
    )


_PW = np.array([5**i for i in range(9)], np.int64)


@njit(cache=True, nogil=True)
def choose_discard(c, ms, own, unseen, rv, tb, ut):
    """Best discard from 3k+2 concealed tiles ``c`` (modified in place, restored): the policy of
    this module with no memo, for callers whose melds change between calls (the table bots).
    ``ut``: ``useful.useful_tables()``."""
    return choose_discard_value(c, ms, own, unseen, rv, tb, ut, new_discard_scratch())[0]


@njit(cache=True, nogil=True, inline="always")
def _live_in(mask, base, unseen):
    """Live copies of the tiles of a suit (first tile ``base``) set in ``mask``."""
    live = 0
    x = 0
    while mask:
        if mask & 1:
            live += unseen[base + x]
        mask >>= 1
        x += 1
    return live


@njit(cache=True, nogil=True)
def choose_discard_value(c, ms, own, unseen, rv, tb, ut, scratch):
    """(discard, shanten, live, n_live) of the policy's choice from 3k+2 tiles ``c``: the
    shanten and live wanted tiles the discard leaves (``discard_value`` of the hand after it),
    and when that is a tenpai, its live legal waits as ``judge_waits`` counts them (else -1).

    Per hand: the four suit rows, the six two-suit combinations, the four three-suit ones, and
    each discard's shanten (its suit's new row joined to the other three). Only the discards
    that reach the lowest shanten need their wanted tiles: the legal waits when tenpai, else
    every drawn tile that lowers the distance. A tile lowers a suit's distance by one at most,
    so it lowers the hand's iff it lowers its suit's at a target that is tight (the suit's
    distance there + the other suits' best for the rest = the hand's distance): per suit, the
    useful-tile masks (``ut``, one row) of the tight targets.
    """
    waits_buf, keys, rows, pair, three, other, rowx, shs = scratch
    n = 0
    for t in range(N_KINDS):
        n += c[t]
    k = (n - 2) // 3  # sets needed after the discard (3k+1 tiles)
    _rows(c, tb, keys, rows)
    for a in range(4):
        for b in range(a + 1, 4):
            _minplus(rows[a], rows[b], k, pair[a, b])
            pair[b, a, :] = pair[a, b, :]
    for x in range(4):  # the three suits other than x
        p = 0 if x != 0 else 1
        q = p + 1 if p + 1 != x else p + 2
        r = q + 1 if q + 1 != x else q + 2
        _minplus(pair[p, q], rows[r], k, three[x])
    # each discard's shanten
    best_sh = 99
    for d in range(N_KINDS):
        shs[d] = 99
        if c[d] == 0:
            continue
        gx = d // 9 if d < 27 else 3
        key_x = keys[gx] - _PW[d - 9 * gx]
        r0 = tb[5][key_x] if gx == 3 else tb[1][key_x]
        for i in range(10):
            rowx[d, i] = r0[i]
        shs[d] = _join(rowx[d], three[gx], k) - 1
        if shs[d] < best_sh:
            best_sh = shs[d]
    m = 2 * k + 2  # a suit's targets y = 2 * sets + pair, sets <= k
    best = -1
    best_live = -1
    best_n = -1
    for d in range(N_KINDS):
        if shs[d] != best_sh:
            continue
        gx = d // 9 if d < 27 else 3
        c[d] -= 1
        own[d] -= 1
        live = 0
        n_live = -1
        if best_sh == 0:
            n_live = judge_waits(c, ms, own, rv, tb, waits_buf)
            for t in range(N_KINDS):
                if waits_buf[t, W_LEGAL]:
                    live += unseen[t]
        else:
            dist = best_sh + 1
            for g in range(4):
                mask = 0
                if g == gx:  # the discard's suit: its new row, the other three as they are
                    key_x = keys[gx] - _PW[d - 9 * gx]
                    um = ut[1][key_x] if g == 3 else ut[0][key_x]
                    for y in range(m):
                        if rowx[d, y] + three[gx, m - 1 - y] == dist:
                            mask |= um[y]
                else:  # another suit: as held, the others with the discard's new row
                    um = ut[1][keys[g]] if g == 3 else ut[0][keys[g]]
                    p = -1
                    q = -1
                    for h in range(4):
                        if h != g and h != gx:
                            if p < 0:
                                p = h
                            else:
                                q = h
                    _minplus(pair[p, q], rowx[d], k, other)
                    for y in range(m):
                        if rows[g, y] + other[m - 1 - y] == dist:
                            mask |= um[y]
                live += _live_in(mask, 9 * g, unseen)
        c[d] += 1
        own[d] += 1
        if live > best_live:
            best, best_live, best_n = d, live, n_live
    return best, np.int64(best_sh), np.int64(best_live), np.int64(best_n)


# ------------------------------------------------- the memoized choice, remembered per 14 tiles
# For `ccmj odds`: the same choice as choose_discard_memo, but what does not depend on the live
# counts — the discards that reach the lowest shanten, and what each leaves wanted — is
# remembered per 14-tile hand, so a hand seen before costs one lookup and a few masks.
MEMO14_BITS = 18  # slots of the 14-tile memo (40 MB); each memo is cleared when half full
MEMO13_BITS = 18  # slots of the 13-tile memo (8 MB)


@njit(cache=True, nogil=True)
def new_table(bits, ncols):
    """An open-addressing table on one array keyed by a hand key (two words): (rows, count),
    a row = (key, key, ncols values), key -1 where empty — key and values side by side, one
    memory fetch for most lookups. Faster than a typed Dict, and its size is fixed."""
    rows = np.zeros((1 << bits, 2 + ncols), np.int64)
    rows[:, 0] = -1
    return rows, np.zeros(1, np.int64)


@njit(cache=True, nogil=True, inline="always")
def _row_slot(rows, a, b):
    mask = rows.shape[0] - 1
    i = ((a * 0x5BD1E995) ^ (b * 0x27D4EB2F) ^ (a >> 23) ^ (b >> 31)) & mask
    while rows[i, 0] != -1 and (rows[i, 0] != a or rows[i, 1] != b):
        i = (i + 1) & mask
    return i


@njit(cache=True, nogil=True, inline="always")
def table_slot(table, a, b):
    """(row, found) for the key (a, b); a row that is not found is reserved for it (the caller
    fills its values, columns 2 on). A half-full table is emptied first."""
    rows, count = table
    i = _row_slot(rows, a, b)
    if rows[i, 0] != -1:
        return i, True
    if 2 * count[0] >= rows.shape[0]:
        rows[:, 0] = -1
        count[0] = 0
        i = _row_slot(rows, a, b)
    rows[i, 0] = a
    rows[i, 1] = b
    count[0] += 1
    return i, False


@njit(cache=True, nogil=True)
def new_memo14():
    """The per-thread caches of ``choose_discard_cached`` (valid for one meld summary and rule
    vector, like ``new_memo``): per 14-tile hand (n, discards packed 6 bits each in 2 words,
    the n wanted masks); per 13-tile hand (shanten, wanted mask)."""
    return new_table(MEMO14_BITS, 17), new_table(MEMO13_BITS, 2)


@njit(cache=True, nogil=True)
def new_scratch14():
    """Scratch arrays of ``choose_discard_cached``: (keys, rows, pair, three, shs)."""
    return (
        np.zeros(4, np.int64),
        np.zeros((4, 10), np.int64),
        np.zeros((4, 4, 10), np.int64),
        np.zeros((4, 10), np.int64),
        np.zeros(N_KINDS, np.int64),
    )


@njit(cache=True, nogil=True)
def _discard_shantens(c, tb, sc):
    """shs[d] = standard shanten of c - d for every d held (99 elsewhere), c 3k+2 tiles; the
    same numbers as ``shanten``, from the per-suit rows combined once (as choose_discard)."""
    keys, rows, pair, three, shs = sc
    n = 0
    for t in range(N_KINDS):
        n += c[t]
    k = (n - 2) // 3
    _rows(c, tb, keys, rows)
    for a in range(4):
        for b in range(a + 1, 4):
            _minplus(rows[a], rows[b], k, pair[a, b])
    for x in range(4):  # the three groups other than x
        p = 0 if x != 0 else 1
        q = p + 1 if p + 1 != x else p + 2
        r = q + 1 if q + 1 != x else q + 2
        _minplus(pair[p, q], rows[r], k, three[x])
    best = 99
    for d in range(N_KINDS):
        shs[d] = 99
        if c[d] == 0:
            continue
        gx = d // 9 if d < 27 else 3
        key_x = keys[gx] - _PW[d - 9 * gx]
        row = tb[5][key_x] if gx == 3 else tb[1][key_x]
        shs[d] = _join(row, three[gx], k) - 1
        if shs[d] < best:
            best = shs[d]
    return best


@njit(cache=True, nogil=True)
def _useful_fast(c, tb, sc):
    """(shanten, useful mask) of 3k+1 tiles ``c``: ``shanten`` and ``shape.useful_mask`` from
    the per-suit rows combined once, then one row and one join per drawn tile."""
    keys, rows, pair, three, _ = sc
    n = 0
    for t in range(N_KINDS):
        n += c[t]
    k = (n - 1) // 3
    _rows(c, tb, keys, rows)
    for a in range(4):
        for b in range(a + 1, 4):
            _minplus(rows[a], rows[b], k, pair[a, b])
    for x in range(4):
        p = 0 if x != 0 else 1
        q = p + 1 if p + 1 != x else p + 2
        r = q + 1 if q + 1 != x else q + 2
        _minplus(pair[p, q], rows[r], k, three[x])
    dist = _join(rows[0], three[0], k)
    m = np.int64(0)
    for t in range(N_KINDS):
        if c[t] >= 4:
            continue
        g = t // 9 if t < 27 else 3
        key = keys[g] + _PW[t - 9 * g]
        row = tb[5][key] if g == 3 else tb[1][key]
        if _join(row, three[g], k) < dist:
            m |= np.int64(1) << t
    return np.int64(dist - 1), m


@njit(cache=True, nogil=True)
def _wanted_cached(c, ms, own, rv, tb, wbuf, memo13, sc):
    """``wanted`` (the same value), remembered in the 13-tile table, computed with
    ``_useful_fast``."""
    a, b = _hand_key(c)
    i, found = table_slot(memo13, a, b)
    vals = memo13[0]
    if found:
        return vals[i, 2], vals[i, 3]
    sh, m = _useful_fast(c, tb, sc)
    if sh == 0:
        judge_waits(c, ms, own, rv, tb, wbuf)
        m = np.int64(0)
        for t in range(N_KINDS):
            if wbuf[t, W_LEGAL]:
                m |= np.int64(1) << t
    vals[i, 2] = sh
    vals[i, 3] = m
    return sh, m


@njit(cache=True, nogil=True)
def _candidates(c, ms, own, rv, tb, wbuf, memo13, sc, out):
    """Fill ``out`` (int64[17]) with (n, packed discards, masks): the discards of 3k+2 tiles
    ``c`` that reach the lowest shanten, lowest tile first, and the mask each leaves wanted
    (``wanted``)."""
    best_sh = _discard_shantens(c, tb, sc)
    shs = sc[4]
    n = 0
    pa = np.int64(0)
    pb = np.int64(0)
    for d in range(N_KINDS):
        if shs[d] != best_sh:
            continue
        c[d] -= 1
        own[d] -= 1
        _sh, mask = _wanted_cached(c, ms, own, rv, tb, wbuf, memo13, sc)
        out[3 + n] = mask
        c[d] += 1
        own[d] += 1
        if n < 10:
            pa |= np.int64(d) << (6 * n)
        else:
            pb |= np.int64(d) << (6 * (n - 10))
        n += 1
    out[0] = n
    out[1] = pa
    out[2] = pb


@njit(cache=True, nogil=True)
def choose_discard_cached(c, ms, own, view, rv, tb, wbuf, memo14, sc):
    """``choose_discard_memo``'s choice (the same discard, tests check it), with what does not
    depend on the live counts remembered in ``memo14`` (``new_memo14()``, one per thread);
    ``sc`` from ``new_scratch14()``."""
    a, b = _hand_key(c)
    i, found = table_slot(memo14[0], a, b)
    v = memo14[0][0][i, 2:]
    if not found:
        _candidates(c, ms, own, rv, tb, wbuf, memo14[1], sc, v)
    # live copies by bit planes: live(m) = |m & v1| + 2 |m & v2| + 4 |m & v4|
    v1 = np.int64(0)
    v2 = np.int64(0)
    v4 = np.int64(0)
    for t in range(N_KINDS):
        x = view[t]
        if x & 1:
            v1 |= np.int64(1) << t
        if x & 2:
            v2 |= np.int64(1) << t
        if x & 4:
            v4 |= np.int64(1) << t
    best = -1
    best_live = -1
    for j in range(v[0]):
        d = (v[1] >> (6 * j) if j < 10 else v[2] >> (6 * (j - 10))) & 63
        m = v[3 + j]
        live = _popcount(m & v1) + 2 * _popcount(m & v2) + 4 * _popcount(m & v4)
        if live > best_live:
            best, best_live = d, live
    return best


@njit(cache=True, nogil=True, inline="always")
def _popcount(x):
    """Set bits of a mask of at most 34 bits (SWAR)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56
