"""The scripted mode of the table engine: a hand replayed from a record (the referee).

In this mode (``g[G_SCRIPT]``) every seat's decision is the record's: the record's events sit in
the rows ``N_SEATS..`` of the ``bots`` array (EV_* columns, then the STOP_AT marker), and the
engine's event cursor ``g[G_NEV]`` is the index of the record's next event. A decision function
of ``bots`` asks ``next_is`` whether the record's next event is that action; the engine offers
only legal actions, so a record event the engine never offers is illegal. Every event the
engine makes is compared with the record's (``check_event``, from ``state.event``); the first
that differs stops the hand (``g[G_STOP]``: a rule code of ``codes.py``, at ``g[G_BAD_EV]``),
and the driver ends the hand there.

Outside this mode (simulate) every helper here answers at once and changes nothing.
"""

from ..jit import njit
from ..layout import N_SEATS
from . import codes as C
from .layout import (
    ANY,
    EV_BAO,
    EV_BAO_CHANGE,
    EV_BAO_KONG,
    EV_CHOW,
    EV_DECLARE,
    EV_DISCARD,
    EV_DRAW,
    EV_HUANG,
    EV_KONG_ROBBED,
    EV_LOOK,
    EV_MINGKONG,
    EV_NO_BAO,
    EV_PUNG,
    EV_TAIL,
    EV_WIN,
    G_BAD_EV,
    G_NEV,
    G_NREC,
    G_OFF,
    G_SCRIPT,
    G_STOP,
    STOP_AT,
)


@njit(cache=True)
def scripted(g):
    return g[G_SCRIPT] != 0


@njit(cache=True)
def next_is(bots, g, kind, seat):
    """Scripted and running: is the record's next event ``kind`` by ``seat`` (seat -1: any)?"""
    if g[G_STOP] != 0:
        return False
    n = g[G_NEV]
    if n >= g[G_NREC]:
        return False
    r = N_SEATS + n
    return bots[r, 0] == kind and (seat < 0 or bots[r, 1] == seat or bots[r, 1] == ANY)


@njit(cache=True)
def rec_field(bots, g, col):
    """A field of the record's next event (EV_* column)."""
    return bots[N_SEATS + g[G_NEV], col]


@njit(cache=True)
def refuse(g, code):
    """Scripted: the record's next event is illegal here, for the rule ``code``: stop."""
    if g[G_SCRIPT] and g[G_STOP] == 0:
        g[G_STOP] = code
        g[G_BAD_EV] = g[G_NEV]


@njit(cache=True)
def _agrees(x, y):
    return x == ANY or x == y


@njit(cache=True)
def mismatch_code(rk, rs, kind, seat):
    """The rule a record breaks whose event (kind rk, seat rs) is not the event ``kind`` the
    engine makes at that point (a draw it owes, a roll, a look, the wall's end, the win)."""
    if kind == EV_HUANG:
        return C.WALL_ENDED
    if rk == EV_HUANG:
        return C.BAD_EVENT  # (the wall is not at its end)
    draws = kind == EV_DRAW or kind == EV_TAIL
    if draws and rk == kind and _agrees(rs, seat):
        return C.NOT_WALL_TILE
    if kind == EV_DRAW and rk == EV_LOOK:
        return C.LOOK_WITHOUT_DECLARE
    if kind == EV_BAO or kind == EV_NO_BAO or rk == EV_BAO or rk == EV_NO_BAO:
        return C.WRONG_BAO
    if rk == EV_BAO_CHANGE:
        return C.BAO_CHANGE_NOT_ALLOWED
    if rk == EV_BAO_KONG:
        return C.BAO_KONG_NOT_ALLOWED
    if kind == EV_TAIL:
        return C.MISSED_DRAW
    if draws and (rk == EV_DRAW or rk == EV_TAIL):
        return C.NOT_DRAWN
    if rk == EV_WIN or rk == EV_KONG_ROBBED or kind == EV_WIN:
        return C.WIN_NOT_LEGAL
    if kind == EV_LOOK:
        return C.BAD_EVENT  # (the declared seat looks at this draw)
    if rs != ANY and rs >= 0 and rs != seat:
        return C.NOT_YOUR_TURN
    return C.BAD_EVENT


@njit(cache=True)
def check_event(ev, g, kind, seat, tile, a, b):
    """Scripted: the engine makes event number g[G_NEV]; stop unless the record's agrees (a
    record field ANY agrees with anything). ``ev`` is the record (EV_* columns + STOP_AT)."""
    if g[G_STOP] != 0:
        return
    n = g[G_NEV]
    if n >= g[G_NREC]:
        g[G_STOP] = -2  # the record ends before the hand does
        g[G_BAD_EV] = n
    elif not (
        ev[n, 0] == kind
        and _agrees(ev[n, 1], seat)
        and _agrees(ev[n, 2], tile)
        and _agrees(ev[n, 3], a)
        and _agrees(ev[n, 4], b)
    ):
        g[G_STOP] = mismatch_code(ev[n, 0], ev[n, 1], kind, seat)
        g[G_BAD_EV] = n
    elif ev[n, STOP_AT]:
        g[G_STOP] = -1
        g[G_BAD_EV] = n
        return
    else:
        return
    g[G_OFF] = kind
    g[G_OFF + 1] = seat
    g[G_OFF + 2] = tile
    g[G_OFF + 3] = a
    g[G_OFF + 4] = b


@njit(cache=True)
def rec_tile(ev, g):
    """The tile field of the record's next event (``ev`` as in ``ev_next_is``; ANY past its
    end)."""
    n = g[G_NEV]
    if n >= g[G_NREC]:
        return ANY
    return ev[n, 2]


@njit(cache=True)
def claim_kind(k):
    return k == EV_PUNG or k == EV_CHOW or k == EV_MINGKONG or k == EV_WIN


# re-exported for the decision functions
DISCARD = EV_DISCARD
DECLARE = EV_DECLARE


@njit(cache=True)
def ev_next_is(ev, g, kind, seat):
    """``next_is`` for a phase that holds the record as ``ev`` (scripted mode) but no bots."""
    if g[G_STOP] != 0:
        return False
    n = g[G_NEV]
    if n >= g[G_NREC]:
        return False
    return ev[n, 0] == kind and (seat < 0 or ev[n, 1] == seat or ev[n, 1] == ANY)
