"""The baseline discard policy shared by `ccmj odds` and the table bots.

Discard to minimise standard shanten; break ties by the most live copies of what the hand then
wants: its legal waits when the discard leaves tenpai, else its useful tiles (进张). Remaining
ties go to the lowest tile index, so the policy is deterministic.
"""

import numpy as np
from numba import njit

from .judge import W_COLS, W_LEGAL, judge_waits
from .layout import N_KINDS
from .shape import shanten, useful_mask


@njit(cache=True)
def discard_value(c, ms, own, unseen, rv, tb, waits_buf):
    """(shanten, live count) of the 3k+1 concealed tiles ``c``: what a discard leaves."""
    sh = shanten(c, tb)
    live = 0
    if sh == 0:
        judge_waits(c, ms, own, rv, tb, waits_buf)
        for t in range(N_KINDS):
            if waits_buf[t, W_LEGAL]:
                live += unseen[t]
        return sh, live  # a tenpai that cannot win legally is worth nothing here
    m = useful_mask(c, tb)
    for t in range(N_KINDS):
        if m >> t & 1:
            live += unseen[t]
    return sh, live


@njit(cache=True)
def choose_discard(c, ms, own, unseen, rv, tb):
    """Best discard from 3k+2 concealed tiles ``c`` (modified in place, restored)."""
    waits_buf = np.zeros((N_KINDS, W_COLS), np.int64)
    best = -1
    best_sh = 99
    best_live = -1
    for d in range(N_KINDS):
        if c[d] == 0:
            continue
        c[d] -= 1
        own[d] -= 1
        sh, live = discard_value(c, ms, own, unseen, rv, tb, waits_buf)
        c[d] += 1
        own[d] += 1
        if sh < best_sh or (sh == best_sh and live > best_live):
            best, best_sh, best_live = d, sh, live
    return best
