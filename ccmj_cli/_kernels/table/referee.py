"""The referee's kernels: recorded hands replayed through the table engine in scripted mode.

Each hand is ``driver.play_hand`` with the record deciding for every seat (``script``): the
record's events go in the rows ``N_SEATS..`` of its ``bots`` array and, with the STOP_AT column,
as its ``ev``; the engine checks each event it makes against the record's and stops at the first
that differs, with the rule code the phase gives (``codes``). No rule is written here.
"""

import numpy as np
from numba import prange

from ..jit import njit
from ..layout import N_SEATS
from .driver import play_hand
from .layout import EV_COLS, G_BAD_EV, G_OFF, G_STOP, N_KNOBS, STOP_AT
from .state import new_table, new_work

STOP_COLS = 7  # per hand: G_STOP, G_BAD_EV, the event the engine offered (EV_* row)


@njit(cache=True)
def script_arrays(rec):
    """(bots, ev) of a scripted hand from its record ``rec`` (events x (EV_COLS + 1))."""
    n = rec.shape[0]
    bots = np.zeros((N_SEATS + n, N_KNOBS), np.int64)
    ev = np.zeros((n, STOP_AT + 1), np.int64)
    for i in range(n):
        for j in range(EV_COLS):
            bots[N_SEATS + i, j] = rec[i, j]
        for j in range(STOP_AT + 1):
            ev[i, j] = rec[i, j]
    return bots, ev


@njit(cache=True)
def referee_piece(walls, dices, dealers, recs, offs, lens, rv, tb, ut, tp, res, stop, a, b):
    """Hands a..b-1: hand h's record is rows offs[h]..offs[h]+lens[h]-1 of ``recs``; its
    result goes to res[h] (R_* layout), where it stopped to stop[h] (STOP_COLS)."""
    tab = new_table()
    ws = new_work(ut)
    for h in range(a, b):
        bots, ev = script_arrays(recs[offs[h] : offs[h] + lens[h]])
        g = play_hand(walls[h], dealers[h], dices[h], rv, tb, tp, bots, ev, False, res[h], tab, ws)
        stop[h, 0] = g[G_STOP]
        stop[h, 1] = g[G_BAD_EV]
        for j in range(EV_COLS):
            stop[h, 2 + j] = g[G_OFF + j]


@njit(cache=True, parallel=True)
def referee_pieces(walls, dices, dealers, recs, offs, lens, rv, tb, ut, tp, res, stop, n_pieces):
    """``referee_piece`` over all hands cut in ``n_pieces`` pieces, in parallel threads."""
    n = walls.shape[0]
    for p in prange(n_pieces):
        a = n * p // n_pieces
        b = n * (p + 1) // n_pieces
        referee_piece(walls, dices, dealers, recs, offs, lens, rv, tb, ut, tp, res, stop, a, b)


@njit(cache=True)
def replay_to(wall, dealer, dice, rec, rv, tb, ut, tp, res):
    """One recorded hand replayed to its STOP_AT event (or its end): the table state there,
    where it stopped, and the events as the table made them (recorded over the record's rows,
    each checked first: the fields a record leaves open, ANY, filled in)."""
    tab = new_table()
    ws = new_work(ut)
    bots, ev = script_arrays(rec)
    g = play_hand(wall, dealer, dice, rv, tb, tp, bots, ev, True, res, tab, ws)
    return tab, g[G_STOP], g[G_BAD_EV], ev
