"""The baseline discard policy shared by `ccmj odds` and the table bots.

Discard to minimise standard shanten; break ties by the most live copies of what the hand then
wants: its legal waits when the discard leaves tenpai (a tenpai that cannot win legally wants
nothing), else its useful tiles (进张). Remaining ties go to the lowest tile index, so the
policy is deterministic. Shanten is computed first for every discard, and only the discards
that reach the lowest need their wanted tiles, which a per-thread memo can remember.
"""

import numpy as np
from numba import njit, types
from numba.typed import Dict

from .judge import W_COLS, W_LEGAL, judge_waits
from .layout import N_KINDS
from .shape import shanten, useful_mask

PAIR = types.UniTuple(types.int64, 2)
MEMO_MAX = 300_000  # hands remembered by a memo before it is cleared


@njit(cache=True, nogil=True)
def new_memo():
    """A cache of (shanten, wanted mask) per concealed hand. Valid for one meld summary and one
    rule vector: a caller whose melds change must start a new one."""
    return Dict.empty(key_type=PAIR, value_type=PAIR)


@njit(cache=True, nogil=True, inline="always")
def _hand_key(c):
    a = 0
    for i in range(17, -1, -1):  # m and p: 18 base-5 digits
        a = a * 5 + c[i]
    b = 0
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


@njit(cache=True, nogil=True)
def choose_discard(c, ms, own, unseen, rv, tb):
    """Best discard from 3k+2 concealed tiles ``c`` (modified in place, restored), with a
    fresh memo: for callers whose melds change between calls."""
    wbuf = np.zeros((N_KINDS, W_COLS), np.int64)
    shs = np.zeros(N_KINDS, np.int64)
    return choose_discard_memo(c, ms, own, unseen, rv, tb, wbuf, new_memo(), shs)
