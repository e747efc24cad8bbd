"""Standard-form shape kernels over ``uint8[34]`` counts: shanten, useful tiles, structural waits.

``tb`` is the tuple from ``tables.tables()``: (suit exact, dist, waits0, waits1, honor exact,
dist, waits0, waits1). Standard form = k sets + one pair in the concealed part, where
k = 4 - declared sets; the kernels infer k from the tile count (3k+1 or 3k+2 tiles).
"""

import numpy as np

from .jit import njit
from .layout import N_KINDS


@njit(cache=True, inline="always")
def _key(c, base, n):
    k = 0
    for i in range(base + n - 1, base - 1, -1):
        k = k * 5 + int(c[i])  # int: pure Python (NUMBA_DISABLE_JIT) would overflow uint8
    return k


@njit(cache=True)
def distance(c, k, tb):
    """Fewest tiles to add so the counts contain k sets + a pair (no fifth copies)."""
    dm = tb[1][_key(c, 0, 9)]
    dp = tb[1][_key(c, 9, 9)]
    ds = tb[1][_key(c, 18, 9)]
    dz = tb[5][_key(c, 27, 7)]
    best = 255
    for i0 in range(k + 1):
        for j0 in range(2):
            a = dm[2 * i0 + j0]
            for i1 in range(k - i0 + 1):
                for j1 in range(2 - j0):
                    b = a + dp[2 * i1 + j1]
                    if b >= best:
                        continue
                    for i2 in range(k - i0 - i1 + 1):
                        for j2 in range(2 - j0 - j1):
                            v = b + ds[2 * i2 + j2] + dz[2 * (k - i0 - i1 - i2) + 1 - j0 - j1 - j2]
                            if v < best:
                                best = v
    return np.int64(best)  # (a uint8 sum; interpreted, `distance - 1` would wrap at 0)


@njit(cache=True, inline="always")
def sets_needed(c):
    n = 0
    for i in range(N_KINDS):
        n += c[i]
    return (n - 1) // 3


@njit(cache=True)
def shanten(c, tb):
    """Standard-form shanten of 3k+1 or 3k+2 concealed tiles: -1 complete, 0 tenpai, ..."""
    return distance(c, sets_needed(c), tb) - 1


@njit(cache=True)
def useful_mask(c, tb):
    """Bit t set when drawing tile t lowers the distance (tiles held four times excluded)."""
    k = sets_needed(c)
    d = distance(c, k, tb)
    m = 0
    for t in range(N_KINDS):
        if c[t] < 4:
            c[t] += 1
            if distance(c, k, tb) < d:
                m |= np.int64(1) << t
            c[t] -= 1
    return m


@njit(cache=True, inline="always")
def _exact(c, g, tb):
    return tb[4][_key(c, 27, 7)] if g == 3 else tb[0][_key(c, 9 * g, 9)]


@njit(cache=True, inline="always")
def _waits_of(c, g, with_pair, tb):
    if g == 3:
        w = tb[7][_key(c, 27, 7)] if with_pair else tb[6][_key(c, 27, 7)]
    else:
        w = tb[3][_key(c, 9 * g, 9)] if with_pair else tb[2][_key(c, 9 * g, 9)]
    return np.int64(w) << (9 * g)


@njit(cache=True)
def wait_groups(c):
    """Where the waits of 3k+1 tiles can lie, from the groups' (m, p, s, z) counts mod 3.

    (g, -1): group g is at 1 mod 3 and the others at 0 (the wait makes g sets + the pair);
    (g, h): groups g < h are at 2 mod 3 and the others at 0 (the wait makes one of them sets,
    the other holds the pair); (-1, -1): any other pattern has no structural wait.
    """
    one = -1
    two_a = -1
    two_b = -1
    for g in range(4):
        s = 0
        for i in range(9 * g, 9 * g + (7 if g == 3 else 9)):
            s += c[i]
        r = s % 3
        if r == 1:
            if one >= 0:
                return -1, -1
            one = g
        elif r == 2:
            if two_b >= 0:
                return -1, -1
            if two_a < 0:
                two_a = g
            else:
                two_b = g
    if one >= 0 and two_a < 0:
        return one, -1
    if one < 0 and two_b >= 0:
        return two_a, two_b
    return -1, -1


@njit(cache=True, inline="always")
def rest_is_sets(a, b, exact):
    """Every group but ``a`` and ``b`` (from ``wait_groups``) is exactly sets. ``exact`` bit g:
    group g as it stands is sets (0 mod 3) or sets + a pair (2 mod 3)."""
    others = 15 & ~(1 << a)
    if b >= 0:
        others &= ~(1 << b)
    return exact & others == others


@njit(cache=True, inline="always")
def waits_from_groups(a, b, exact, wa, wb):
    """Structural waits of groups ``a``, ``b`` once ``rest_is_sets``: ``wa`` / ``wb`` are the
    tiles making group a / b sets + a pair (1 mod 3) or sets (2 mod 3)."""
    if b < 0:
        return wa
    m = np.int64(0)
    if exact >> b & 1:  # the tile completes a as sets, b holds the pair
        m |= wa
    if exact >> a & 1:
        m |= wb
    return m


@njit(cache=True)
def structural_waits(c, tb):
    """Bit t set when the 3k+1 concealed tiles + t are exactly k sets + a pair."""
    a, b = wait_groups(c)
    if a < 0:
        return np.int64(0)
    exact = 0
    for g in range(4):
        if g != a or b >= 0:  # (a group at 1 mod 3 is never exact)
            need = 2 if g == a or g == b else 1
            if _exact(c, g, tb) & need:
                exact |= 1 << g
    if not rest_is_sets(a, b, exact):
        return np.int64(0)
    wa = _waits_of(c, a, b < 0, tb)
    wb = _waits_of(c, b, False, tb) if b >= 0 else np.int64(0)
    return waits_from_groups(a, b, exact, wa, wb)


@njit(cache=True)
def is_complete(c, tb):
    """Exactly k sets + a pair (3k+2 tiles)."""
    return distance(c, sets_needed(c), tb) == 0


@njit(cache=True)
def shanten_many(counts, tb):
    out = np.empty(counts.shape[0], np.int8)
    for r in range(counts.shape[0]):
        out[r] = shanten(counts[r], tb)
    return out


@njit(cache=True)
def waits_many(counts, tb):
    out = np.zeros((counts.shape[0], N_KINDS), np.bool_)
    for r in range(counts.shape[0]):
        m = structural_waits(counts[r], tb)
        for t in range(N_KINDS):
            if m >> t & 1:
                out[r, t] = True
    return out


@njit(cache=True)
def next_reading(w, k, kinds, tiles, st):
    """Step a depth-first search over the ways to split the counts ``w`` into ``k`` sets.

    Each call returns True with ``kinds[:k]`` (SET_CHOW 0 / SET_PUNG 1) and ``tiles[:k]`` (the
    lowest tile of each set) holding the next reading, or False once every reading has been
    seen (``w`` is then as it was). Start with ``st = [0, 0]``. The lowest remaining tile
    always starts a pung or a chow, so each reading comes exactly once. ``w`` may be 34 counts
    or one suit's 9 (chows never start on an honor or past 7).
    """
    if st[1] == 2:
        return False
    d = st[0]
    opt = 0  # 0: try a pung on the lowest tile first; 1: only the chow is left to try
    resume = st[1] == 1
    while True:
        if not resume:
            if d == k:
                st[0] = d
                st[1] = 1
                return True
            lo = tiles[d - 1] if d > 0 else 0
            while w[lo] == 0:
                lo += 1
            if opt == 0 and w[lo] >= 3:
                w[lo] -= 3
                kinds[d] = 1
                tiles[d] = lo
                d += 1
                continue
            if lo < 27 and lo % 9 <= 6 and w[lo + 1] > 0 and w[lo + 2] > 0:
                w[lo] -= 1
                w[lo + 1] -= 1
                w[lo + 2] -= 1
                kinds[d] = 0
                tiles[d] = lo
                d += 1
                opt = 0
                continue
        resume = False
        # backtrack to the deepest pung, which may still be tried as a chow
        opt = 2
        while d > 0:
            d -= 1
            t = tiles[d]
            if kinds[d] == 1:
                w[t] += 3
                opt = 1
                break
            w[t] += 1
            w[t + 1] += 1
            w[t + 2] += 1
        if opt == 2:
            st[0] = 0
            st[1] = 2
            return False
