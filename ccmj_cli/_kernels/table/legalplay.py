"""Play by the legal distance: the judgments of the ``legal`` weight (the ``expert`` policy).

The baseline discards to the lowest *standard* shanten (four sets and a pair, whatever 三色全,
幺九 and 刻 say), so it can sit in a tenpai that can never win legally, or throw the last tile of
the suit the hand lacks. Under the weight ``legal`` a seat plays the legal distance instead
(``legal.py``: the fewest tiles to a legal Changchun win, the measure the exact analysis of
``ccmj odds`` searches with): it discards to the lowest legal distance, ties broken by the
lowest standard shanten, then by the live copies of the draws that bring the hand closer (when
tenpai, its live legal waits, weighed by what they pay under ``value_waits``), and calls 吃/碰
only when the call brings it closer (``bots.legal_call``).

The per-suit rows of the legal distance are remembered per thread for a whole run
(``new_legal``, made once per block of sessions by ``driver.pieces``), cleared when the memo
holds ``MEMO_ROWS`` rows.
"""

import numpy as np

from .. import jit as _jit
from .. import legal as LG
from ..jit import njit
from ..judge import W_JIAHU, W_LEGAL, W_PIAO, judge_waits
from ..layout import MS_SETS, N_KINDS, RV_QIDUI
from ..policy import choose_discard_value, live_of
from ..shape import shanten, useful_mask

FAR = 2  # a hand farther than this from a legal win breaks ties by its standard useful tiles
MEMO_ROWS = 100_000  # suit rows remembered (about 0.5 kB each) before the memo starts again

if _jit.INTERPRETED:  # (a table position asked: plain Python, no Numba)

    def _box(item):
        return [item]

else:
    from numba.typed import List

    @njit(cache=True)
    def _box(item):
        b = List()
        b.append(item)
        return b


@njit(cache=True)
def new_legal():
    """The legal-distance workspace of a table: (a box holding the memo, each discard's standard
    distance, legal distance and bound on it). The memo is valid for one rule vector: a
    workspace serves one."""
    memo = LG.new_memo(np.zeros(1, np.int64))
    n = N_KINDS
    return _box(memo), np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64)


@njit(cache=True)
def wait_value(c, ms_s, own, unseen, rv, tb, buf, weigh):
    """(live legal waits, their value) of 3k+1 tiles: each live copy of a legal wait counts 1,
    or (``weigh``) what it pays: x2 for 夹胡, x4 for 飘胡."""
    judge_waits(c, ms_s, own, rv, tb, buf)
    n = 0
    v = 0
    for t in range(N_KINDS):
        if buf[t, W_LEGAL] and unseen[t] > 0:
            n += unseen[t]
            m = 1
            if weigh:
                if buf[t, W_JIAHU]:
                    m *= 2
                if buf[t, W_PIAO]:
                    m *= 4
            v += unseen[t] * m
    return n, v


@njit(cache=True)
def legal_choice(c, ms_s, own, unseen, rv, tb, ut, dscr, lx, buf, weigh):
    """The discard from the 3k+2 concealed tiles ``c`` (melds ``ms_s``; ``own``: the seat's
    tiles, melds included; both restored) that leaves the lowest legal distance; ties: the
    lowest standard shanten, then the most live copies of the draws that lower the legal
    distance (farther than ``FAR`` from a win: the standard distance) — when tenpai (distance
    1), of its legal waits, each weighed by what it pays with ``weigh`` (夹胡 x2, 飘胡 x4) —
    then the lowest tile (``ut``, ``dscr``: the baseline policy's tables and scratch, whose
    choice this is when the hand is far). Returns (discard, distance it leaves, live legal
    wait copies when that is a tenpai else -1, the tie value); the discard is -1 when no legal
    win can be reached at all.

    A legal win is a standard one too (or 七对), so a discard's legal distance is at least its
    standard distance (the tables' shanten + 1, cheap) or, with 七对, the pairs it lacks:
    discards are judged by that bound level by level, and a level above the best legal
    distance found is never looked at."""
    box, std, dists, lb = lx
    memo = box[0]
    if memo[2][0] > MEMO_ROWS:
        memo = LG.new_memo(np.zeros(1, np.int64))
    every = rv[RV_QIDUI] and ms_s[MS_SETS] == 0  # (七对 can be nearer than the standard form)
    pairs = 0
    for x in range(N_KINDS):
        pairs += c[x] // 2
    lo = LG.INF
    for x in range(N_KINDS):
        std[x] = LG.INF
        dists[x] = LG.INF
        lb[x] = LG.INF
        if c[x] > 0:
            c[x] -= 1
            std[x] = shanten(c, tb) + 1
            c[x] += 1
            lb[x] = std[x]
            if every:  # 七对: a pair missing costs a tile at least
                lb[x] = min(lb[x], max(1, 7 - pairs + (1 if c[x] % 2 == 0 else 0)))
            lo = min(lo, lb[x])
    best_d = LG.INF
    level = lo
    while level <= best_d and level < LG.INF:
        for x in range(N_KINDS):
            if lb[x] == level:
                c[x] -= 1
                dists[x], memo = LG.distance(c, ms_s, rv, memo)
                c[x] += 1
                best_d = min(best_d, dists[x])
        level += 1
    if FAR < best_d < LG.INF and lo > 1 and not every:
        # far, and not a standard tenpai: the ties go by the live standard useful tiles, the
        # baseline's own rule — its choice is the answer when it keeps the legal distance
        xb, _sh, live, _n = choose_discard_value(c, ms_s, own, unseen, rv, tb, ut, dscr)
        if dists[xb] == best_d and std[xb] == lo:
            box[0] = memo
            return np.int64(xb), np.int64(best_d), np.int64(-1), np.int64(live)
    best = -1
    best_v = -1
    best_n = -1
    best_sh = LG.INF
    for x in range(N_KINDS):
        if dists[x] != best_d or best_d >= LG.INF or std[x] > best_sh:
            continue
        c[x] -= 1
        own[x] -= 1
        n = -1
        if best_d == 1:
            n, v = wait_value(c, ms_s, own, unseen, rv, tb, buf, weigh != 0)
        elif best_d > FAR:  # (far from a win: the standard useful tiles, ten times cheaper)
            v = live_of(useful_mask(c, tb), unseen)
        else:
            nd, memo = LG.useful_mask(c, ms_s, rv, memo, best_d)
            v = live_of(nd, unseen)
        c[x] += 1
        own[x] += 1
        if std[x] < best_sh or v > best_v:
            best, best_v, best_n, best_sh = x, v, n, std[x]
    box[0] = memo
    return np.int64(best), np.int64(best_d), np.int64(best_n), np.int64(best_v)


@njit(cache=True)
def legal_distance(c, ms_s, rv, lx):
    """The legal distance of the concealed tiles ``c`` with melds ``ms_s``."""
    box = lx[0]
    d, memo = LG.distance(c, ms_s, rv, box[0])
    box[0] = memo
    return np.int64(d)
