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


@njit(cache=True)
def fast_discard(c, ms, own, unseen, rv, tb):
    """``policy.choose_discard`` (same answer, same tie-breaks), with incremental useful tiles.

    Per hand: the four suit rows, the six two-suit combinations, the four three-suit ones. Per
    candidate discard (in suit X): X's new row, three two-suit + row combinations; then each
    drawn tile t costs one table row and one join.
    """
    waits_buf = np.zeros((N_KINDS, 5), np.int64)
    keys = np.zeros(4, np.int64)
    rows = np.zeros((4, 10), np.int64)
    pair = np.zeros((4, 4, 10), np.int64)
    three = np.zeros((4, 10), np.int64)
    other = np.zeros((4, 10), np.int64)
    row_x = np.zeros(10, np.int64)
    pw = np.ones(9, np.int64)
    for i in range(1, 9):
        pw[i] = pw[i - 1] * 5
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
    best = -1
    best_sh = 99
    best_live = -1
    for d in range(N_KINDS):
        if c[d] == 0:
            continue
        gx = d // 9 if d < 27 else 3
        key_x = keys[gx] - pw[d - 9 * gx]
        r0 = tb[5][key_x] if gx == 3 else tb[1][key_x]
        for i in range(10):
            row_x[i] = r0[i]
        for g in range(4):
            if g == gx:
                for i in range(10):
                    other[g, i] = three[gx, i]
            else:
                p = -1
                q = -1
                for h in range(4):
                    if h != g and h != gx:
                        if p < 0:
                            p = h
                        else:
                            q = h
                _minplus(pair[p, q], row_x, k, other[g])
        dist = _join(row_x, three[gx], k)
        sh = dist - 1
        c[d] -= 1
        own[d] -= 1
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
                key = (key_x if g == gx else keys[g]) + pw[pos]
                row = tb[5][key] if g == 3 else tb[1][key]
                if _join(row, other[g], k) < dist:
                    live += unseen[t]
        c[d] += 1
        own[d] += 1
        if sh < best_sh or (sh == best_sh and live > best_live):
            best, best_sh, best_live = d, sh, live
    return best
