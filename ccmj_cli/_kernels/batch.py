"""Bulk kernels for batch scoring: many rows per call, so the per-row cost is not Python's.

``plain_many`` reads the common case of a hand column — plain MPSZ with no melds, no Chinese
characters — straight from the CSV bytes; anything else (or anything doubtful: more than 4
copies, a wrong tile count, a complete hand without its winning tile) is left to the Python
path (``scoring.prepare_hand``), which accepts it or raises the proper error (``format_plain``
gives those rows' canonical text for ``--json``). ``score_many``
scores every prepared row with the one judgment-and-scoring kernel ``bao.score_any``.
"""

import numpy as np
from numba import njit, prange

from .bao import score_any
from .layout import MS_LEN, N_FAN, N_KINDS, N_SEATS, RD_FAILS, RD_LEN

_SPACE = 32
_DIGIT_0 = 48
_DIGIT_9 = 57
_SUITS = (109, 112, 115, 122)  # m p s z


@njit(cache=True)
def _suit(ch):
    for i in range(4):
        if ch == _SUITS[i]:
            return i
    return -1


@njit(cache=True)
def plain_many(buf, starts, ends, drawn, c_out, own_out, ok):
    """Parse rows ``buf[starts[i]:ends[i]]`` of plain MPSZ (13 or 14 tiles) into ``c_out[i]``.

    A 14-tile hand must hold ``drawn[i]``, which is taken out (the hand before the win). Sets
    ``ok[i]`` = 1 on success, 0 when the row must go the Python way.
    """
    for i in range(starts.shape[0]):
        ok[i] = 0
        for t in range(N_KINDS):
            c_out[i, t] = 0
        pending = 0  # digits read, waiting for their suit
        digits = np.zeros(16, np.int64)
        bad = False
        n = 0
        for j in range(starts[i], ends[i]):
            ch = buf[j]
            if ch == _SPACE:
                continue
            if _DIGIT_0 < ch <= _DIGIT_9:
                if pending == 16:
                    bad = True
                    break
                digits[pending] = ch - _DIGIT_0
                pending += 1
                continue
            s = _suit(ch)
            if s < 0 or pending == 0:
                bad = True
                break
            for k in range(pending):
                d = digits[k]
                if s == 3 and d > 7:
                    bad = True
                    break
                t = s * 9 + d - 1
                c_out[i, t] += 1
                n += 1
            pending = 0
            if bad:
                break
        if bad or pending:
            continue
        for t in range(N_KINDS):
            if c_out[i, t] > 4:
                bad = True
        w = drawn[i]
        if bad or w < 0:
            continue
        if n == 14:
            if c_out[i, w] == 0:
                continue
            c_out[i, w] -= 1
        elif n != 13 or c_out[i, w] >= 4:
            continue
        for t in range(N_KINDS):
            own_out[i, t] = c_out[i, t]
        ok[i] = 1


@njit(cache=True)
def format_plain(buf, starts, ends, c, drawn, ok, out):
    """The canonical MPSZ text (as ``tiles.format_hand``) of each row ``plain_many`` read
    (``ok[i]``): the tiles as typed — ``c[i]``, plus ``drawn[i]`` when 14 were typed — suit by
    suit. Rows are written to ``out`` one after the other, each ended by a newline (an empty
    line where ``ok[i]`` is 0); returns the length written (``out`` needs 19 bytes a row)."""
    k = 0
    for i in range(starts.shape[0]):
        if ok[i]:
            n = 0
            for j in range(starts[i], ends[i]):
                if _DIGIT_0 < buf[j] <= _DIGIT_9:
                    n += 1
            for s in range(4):
                any_tile = False
                for d in range(9 if s < 3 else 7):
                    t = s * 9 + d
                    m = c[i, t] + (1 if n == 14 and t == drawn[i] else 0)
                    for _ in range(m):
                        out[k] = _DIGIT_0 + 1 + d
                        k += 1
                        any_tile = True
                if any_tile:
                    out[k] = _SUITS[s]
                    k += 1
        out[k] = 10
        k += 1
    return k


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
        "declared": np.zeros(n, np.bool_),
        "active": np.zeros(n, np.bool_),
        "ok": np.zeros(n, np.uint8),
        "res": np.zeros((n, 3), np.int64),
        "fails": np.zeros(n, np.int64),
        "items": np.zeros((n, N_FAN), np.int64),
        "fan": np.zeros((n, N_SEATS), np.int64),
        "pay": np.zeros((n, N_SEATS), np.int64),
    }
