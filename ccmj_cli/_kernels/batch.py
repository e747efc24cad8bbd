"""Bulk kernels for batch scoring: many rows per call, so the per-row cost is not Python's.

``plain_many`` reads the common case of a hand column — plain MPSZ with no melds, no Chinese
characters (``notation.plain_counts``) — straight from the CSV bytes; anything else (or anything
doubtful: more than 4 copies, a wrong tile count, a complete hand without its winning tile) is
left to the Python path (``scoring.prepare_hand``), which accepts it or raises the proper error
(``format_plain`` gives those rows' canonical text for ``--json``). ``score_many`` scores every
prepared row with the one judgment-and-scoring kernel ``bao.score_any``.
"""

import numpy as np
from numba import prange

from .bao import score_any
from .jit import compiled_njit as njit
from .layout import MS_LEN, N_FAN, N_KINDS, N_SEATS, RD_FAILS, RD_LEN
from .notation import _DIGIT_0, _DIGIT_9, format_counts, plain_counts


@njit(cache=True)
def plain_many(buf, starts, ends, drawn, c_out, own_out, ok):
    """Parse rows ``buf[starts[i]:ends[i]]`` of plain MPSZ (13 or 14 tiles) into ``c_out[i]``.

    A 14-tile hand must hold ``drawn[i]``, which is taken out (the hand before the win). Sets
    ``ok[i]`` = 1 on success, 0 when the row must go the Python way.
    """
    n = np.empty(starts.shape[0], np.int64)
    plain_counts(buf, starts, ends, c_out, n, ok)
    for i in range(starts.shape[0]):
        w = drawn[i]
        if not ok[i] or w < 0:
            ok[i] = 0
        elif n[i] == 14 and c_out[i, w] > 0:
            c_out[i, w] -= 1
        elif n[i] != 13 or c_out[i, w] >= 4:
            ok[i] = 0
        if ok[i]:
            for t in range(N_KINDS):
                own_out[i, t] = c_out[i, t]


@njit(cache=True)
def format_plain(buf, starts, ends, c, drawn, ok, out):
    """The canonical MPSZ text (as ``tiles.format_hand``) of each row ``plain_many`` read
    (``ok[i]``): the tiles as typed — ``c[i]``, plus ``drawn[i]`` when 14 were typed."""
    extra = np.full(starts.shape[0], -1, np.int64)
    for i in range(starts.shape[0]):
        if ok[i]:
            n = 0
            for j in range(starts[i], ends[i]):
                if _DIGIT_0 < buf[j] <= _DIGIT_9:
                    n += 1
            if n == 14:
                extra[i] = drawn[i]
    return format_counts(c, extra, ok, out)


@njit(cache=True, parallel=True, nogil=True)
def score_many(
    c,
    ms,
    own,
    win,
    how,
    winner,
    discarder,
    declared,
    active,
    dealer,
    rv,
    tb,
    res,
    fails,
    items,
    fan_out,
    pay_out,
):
    """Score each active row: ``res[i]`` = (legal, tile scored on, LOOK_* code)."""
    for i in prange(c.shape[0]):
        if not active[i]:  # a row in error: clear what an earlier chunk left in the buffers
            res[i, 0] = 0
            res[i, 1] = -1
            res[i, 2] = 0
            fails[i] = 0
            items[i, :] = 0
            fan_out[i, :] = 0
            pay_out[i, :] = 0
            continue
        rd = np.zeros(RD_LEN, np.int64)
        score_any(
            c[i],
            win[i],
            ms[i],
            own[i],
            how[i],
            winner[i],
            dealer,
            discarder[i],
            declared[i],
            rv,
            tb,
            rd,
            items[i],
            fan_out[i],
            pay_out[i],
            res[i],
        )
        fails[i] = rd[RD_FAILS]


def buffers(n):
    """Arrays for ``n`` rows (reused chunk after chunk)."""
    return {
        "c": np.zeros((n, N_KINDS), np.uint8),
        "own": np.zeros((n, N_KINDS), np.uint8),
        "ms": np.zeros((n, MS_LEN), np.int64),
        "win": np.zeros(n, np.int64),
        "how": np.zeros(n, np.int64),
        "winner": np.zeros(n, np.int64),
        "discarder": np.zeros(n, np.int64),
        "declared": np.zeros(n, np.int64),  # the discarder's state (DISCARDER_*)
        "active": np.zeros(n, np.bool_),
        "ok": np.zeros(n, np.uint8),
        "res": np.zeros((n, 3), np.int64),
        "fails": np.zeros(n, np.int64),
        "items": np.zeros((n, N_FAN), np.int64),
        "fan": np.zeros((n, N_SEATS), np.int64),
        "pay": np.zeros((n, N_SEATS), np.int64),
    }
