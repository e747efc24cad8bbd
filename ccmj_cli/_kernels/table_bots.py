"""The baseline table bots (decisions only; the engine in ``table.py`` applies them).

Every rule judgment goes through the shared kernels: discards via ``policy.choose_discard``,
legality and waits via ``judge``. The bot's own logic is only *whether to act*:

- discard: ``policy.choose_discard`` (minimise shanten, ties by live useful tiles / legal waits);
- 吃/碰 (knob K_CALL): 1 = call when the best discard after the call leaves a lower shanten than
  the hand has now, 2 = when it does not raise it; never a call that leaves a tenpai with no
  legal wait or a 手把一 (single tile) hand that can no longer be 飘胡;
- 杠/补 (knob K_KONG): when the hand without the kong tiles is no worse (shanten) than after the
  best discard; a declared (报听) hand only when its legal waits stay the same;
- 报听 (knob K_DECLARE): as soon as a discard leaves the hand tenpai (a live legal wait);
- special kongs (knob K_SPECIAL): every one the starting hand holds;
- 胡: always, whenever the judgment says the win is legal.
"""

import numpy as np
from numba import njit

from .judge import W_LEGAL, judge_waits
from .layout import MS_CHOWS, MS_SETS, N_KINDS
from .policy import discard_value
from .shape import shanten


@njit(cache=True)
def legal_mask(c, ms, own, rv, tb, buf):
    """Bitmask of the legal waits of 3k+1 concealed tiles (live or not)."""
    judge_waits(c, ms, own, rv, tb, buf)
    m = np.int64(0)
    for t in range(N_KINDS):
        if buf[t, W_LEGAL]:
            m |= np.int64(1) << t
    return m


@njit(cache=True)
def best_after_discard(c, ms, own, unseen, rv, tb, buf):
    """(shanten, live) the 3k+2 tiles ``c`` leave after the policy's discard."""
    d = fast_discard(c, ms, own, unseen, rv, tb)
    c[d] -= 1
    own[d] -= 1
    sh, live = discard_value(c, ms, own, unseen, rv, tb, buf)
    c[d] += 1
    own[d] += 1
    return sh, live


@njit(cache=True)
def accept_call(level, sh_before, sh_after, live_after, ms_after):
    """The K_CALL rule for a chow or pung, given what the hand is worth before and after."""
    if level == 0:
        return False
    if sh_after == 0 and live_after == 0:
        return False  # a tenpai with no legal live wait
    if ms_after[MS_SETS] == 4 and ms_after[MS_CHOWS] > 0:
        return False  # 手把一 that can no longer be 飘胡
    if level == 1:
        return sh_after < sh_before
    return sh_after <= sh_before


@njit(cache=True)
def shanten_without(c, t, n, tb):
    """Shanten of ``c`` with n copies of t removed (restored afterwards)."""
    c[t] -= n
    sh = shanten(c, tb)
    c[t] += n
    return sh



# ---------------------------------------------------------------- the discard policy, faster
# ``fast_discard`` returns exactly what ``policy.choose_discard`` returns (tests/test_simulate_
# table.py checks it on thousands of hands) but computes the useful tiles incrementally: the
# distance of a hand is a min-plus combination of four per-suit table rows, and adding a tile
# changes one row only, so the other three suits are combined once per candidate discard.
BIG = 255


@njit(cache=True, inline="always")
def _suit_key(c, base, n):
    k = 0
    for i in range(base + n - 1, base - 1, -1):
        k = k * 5 + c[i]
    return k


@njit(cache=True)
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


@njit(cache=True)
def _others(rows, skip, k, out):
    """out[2i + j]: fewest tiles for i sets + j pairs from the three suits other than ``skip``."""
    for x in range(10):
        out[x] = BIG
    a = 0 if skip != 0 else 1
    b = a + 1 if a + 1 != skip else a + 2
    c = b + 1 if b + 1 != skip else b + 2
    for ia in range(k + 1):
        for ja in range(2):
            va = np.int64(rows[a, 2 * ia + ja])
            for ib in range(k - ia + 1):
                for jb in range(2 - ja):
                    vb = va + rows[b, 2 * ib + jb]
                    for ic in range(k - ia - ib + 1):
                        for jc in range(2 - ja - jb):
                            v = vb + rows[c, 2 * ic + jc]
                            x = 2 * (ia + ib + ic) + ja + jb + jc
                            if v < out[x]:
                                out[x] = v


@njit(cache=True, inline="always")
def _join(row, other, k):
    best = BIG * 4
    for i in range(k + 1):
        for j in range(2):
            v = np.int64(row[2 * i + j]) + other[2 * (k - i) + 1 - j]
            if v < best:
                best = v
    return best


@njit(cache=True)
def fast_discard(c, ms, own, unseen, rv, tb):
    """``policy.choose_discard`` (same answer, same tie-breaks), with incremental useful tiles."""
    waits_buf = np.zeros((N_KINDS, 5), np.int64)
    keys = np.zeros(4, np.int64)
    rows = np.zeros((4, 10), np.int64)
    other = np.zeros((4, 10), np.int64)
    pw = np.ones(9, np.int64)
    for i in range(1, 9):
        pw[i] = pw[i - 1] * 5
    n = 0
    for t in range(N_KINDS):
        n += c[t]
    k = (n - 2) // 3  # sets needed after the discard (3k+1 tiles)
    best = -1
    best_sh = 99
    best_live = -1
    for d in range(N_KINDS):
        if c[d] == 0:
            continue
        c[d] -= 1
        own[d] -= 1
        _rows(c, tb, keys, rows)
        for g in range(4):
            _others(rows, g, k, other[g])
        dist = _join(rows[0], other[0], k)
        sh = dist - 1
        live = 0
        if sh == 0:
            judge_waits(c, ms, own, rv, tb, waits_buf)
            for t in range(N_KINDS):
                if waits_buf[t, W_LEGAL]:
                    live += unseen[t]
        else:
            for t in range(N_KINDS):
                if c[t] >= 4:
                    continue
                g = t // 9 if t < 27 else 3
                pos = t - 9 * g
                key = keys[g] + pw[pos]
                row = tb[5][key] if g == 3 else tb[1][key]
                if _join(row, other[g], k) < dist:
                    live += unseen[t]
        c[d] += 1
        own[d] += 1
        if sh < best_sh or (sh == best_sh and live > best_live):
            best, best_sh, best_live = d, sh, live
    return best
