"""Bulk kernels for batch scoring: many rows per call, so the per-row cost is not Python's.

A chunk of CSV rows reaches the kernels as one UTF-8 buffer (cells ended by 0x1f, rows by
0x1e; ``split_cells`` finds them). ``prepare_rows`` reads every row's options, hand (melds,
concealed kongs, special kongs with 补 tiles, Chinese names: ``notation.read_hand``) and
``kongs`` cell (``notation.read_kongs``), checks them as ``scoring.prepare_options`` /
``prepare_hand`` / ``parse_kongs`` / ``check_one_per_kind`` do, and settles the kongs with
``score.kong_money``; a row in error (or written in a way only the Python parser reads) is left
to the Python path, which words the error. ``score_many`` scores every prepared row with the one
judgment-and-scoring kernel ``bao.score_any``; ``write_csv`` / ``write_json`` write the output
rows (the text that depends on the outcome alone comes from the caller, once per outcome).
``plain_many`` / ``format_plain`` are the older plain-MPSZ-only reader and writer.
"""

import numpy as np
from numba import prange

from .bao import score_any
from .jit import njit
from .layout import (
    DISCARDER_DECLARED,
    DISCARDER_LOOKED,
    DISCARDER_UNDECLARED,
    HOW_DISCARD,
    HOW_DUIBAO,
    HOW_MOBAO,
    HOW_SELF,
    MELD_ANKONG,
    MS_LEN,
    N_FAN,
    N_KINDS,
    N_SEATS,
    RD_FAILS,
    RD_LEN,
    RV_ONE_SPECIAL_PER_KIND,
    RV_SANFENG,
    RV_XI_BU_ANY_HONOR,
    RV_XIAOJI,
)
from .melds import meld_summary
from .notation import (
    _DIGIT_0,
    _DIGIT_9,
    _SUITS,
    MAX_MELD_TILES,
    WORK_LEN,
    format_counts,
    plain_counts,
    read_hand,
    read_kongs,
    read_seat,
    read_tile,
    strip_span,
)
from .score import kong_money, kong_value

CELL_END = 0x1F  # ends a cell in the buffer prepare_rows reads (0x1e ends a row)
ROW_END = 0x1E
MAX_MELDS = 4 * N_SEATS  # the winner's 4 melds + up to 4 kongs for each other seat
# the option columns prepare_rows reads, in this order (column index, or -1 when absent)
COL_HAND, COL_WIN, COL_HOW, COL_SEAT, COL_FROM, COL_BAO, COL_BASE, COL_KONGS = range(8)
COL_DECLARED, COL_LOOKED = 8, 9
N_COLS = 10
# opt columns: the drawn tile, HOW_*, winner, discarder (-1), bao (-1), base, DISCARDER_* state
OPT_LEN = 7
# status: read here | for the Python path | in error | for the Python path's checks (hand read)
ROW_READ, ROW_PYTHON, ROW_ERROR, ROW_CHECK = 0, 1, 2, 3
_MAX_BASE_DIGITS = 18  # a longer base (or any other spelling of one) is read by Python's int()


def _words(*words: bytes) -> tuple:
    """Words as equal-length tuples of bytes, 0-padded (a kernel indexes them at run time)."""
    return tuple(tuple(w) + (0,) * (8 - len(w)) for w in words)


_HOW_WORDS = _words(b"self", b"discard", b"mobao", b"duibao")  # HOW_* order
_TRUE_WORDS = _words(b"1", b"true", b"yes", b"y")
_FALSE_WORDS = _words(b"0", b"false", b"no", b"n")  # (and an empty cell)


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


@njit(cache=True)
def split_cells(data, width, cs, ce):
    """The spans ``cs[i, k]:ce[i, k]`` of each row's ``width`` cells in ``data``; False when the
    buffer does not hold ``cs.shape[0]`` rows of ``width`` cells (a cell held 0x1e or 0x1f)."""
    j = 0
    size = data.shape[0]
    for i in range(cs.shape[0]):
        for k in range(width):
            cs[i, k] = j
            while j < size and data[j] != CELL_END and data[j] != ROW_END:
                j += 1
            ce[i, k] = j
            if j == size or data[j] != (CELL_END if k < width - 1 else ROW_END):
                return False
            j += 1
    return j == size


@njit(cache=True)
def _word(buf, s, e, words):
    """Index of the word (ASCII, any case) that ``buf[s:e]`` is, or -1."""
    for w in range(len(words)):
        word = words[w]
        n = 0
        while n < len(word) and word[n]:
            n += 1
        if e - s != n:
            continue
        same = True
        for k in range(n):
            ch = int(buf[s + k])
            if 65 <= ch <= 90:
                ch += 32
            if ch != word[k]:
                same = False
                break
        if same:
            return w
    return -1


@njit(cache=True)
def _truth(buf, s, e):
    """1 / 0 for a 1/0 true/false yes/no y/n (or empty) cell, -1 for anything else."""
    s, e = strip_span(buf, s, e)
    if s == e or _word(buf, s, e, _FALSE_WORDS) >= 0:
        return 0
    return 1 if _word(buf, s, e, _TRUE_WORDS) >= 0 else -1


@njit(cache=True)
def _base(buf, s, e):
    """The base of a cell: 1 when empty, else its whole number >= 1; -1 for anything Python's
    ``int()`` must read (or refuse)."""
    if s == e:
        return 1
    s, e = strip_span(buf, s, e)
    if s == e or e - s > _MAX_BASE_DIGITS:
        return -1
    x = 0
    for j in range(s, e):
        ch = int(buf[j])
        if not _DIGIT_0 <= ch <= _DIGIT_9:
            return -1
        x = x * 10 + ch - _DIGIT_0
    return x if x >= 1 else -1


@njit(cache=True)
def _options(data, cs, ce, cols, i, out):
    """The options of row ``i`` into ``out`` (OPT_* order), as ``scoring.prepare_options``
    validates them; False when the Python path must (an error to word, or a spelling only it
    reads)."""
    how, winner, frm, win, bao, base, declared, looked = HOW_SELF, 1, -1, -1, -1, 1, 0, 0
    c = cols[COL_HOW]
    if c >= 0:
        s, e = strip_span(data, cs[i, c], ce[i, c])
        if s < e:
            how = _word(data, s, e, _HOW_WORDS)
            if how < 0:
                return False
    c = cols[COL_SEAT]
    if c >= 0:
        winner = read_seat(data, cs[i, c], ce[i, c])
        if winner == -1:
            winner = 1  # S
        elif winner < 0:
            return False
    c = cols[COL_FROM]
    if c >= 0:
        frm = read_seat(data, cs[i, c], ce[i, c])
        if frm == -2:
            return False
    work = np.empty(18, np.int64)
    c = cols[COL_WIN]
    if c >= 0:
        win = read_tile(data, cs[i, c], ce[i, c], work)
        if win == -2:
            return False
    c = cols[COL_BAO]
    if c >= 0:
        bao = read_tile(data, cs[i, c], ce[i, c], work)
        if bao == -2:
            return False
    c = cols[COL_BASE]
    if c >= 0:
        base = _base(data, cs[i, c], ce[i, c])
        if base < 0:
            return False
    c = cols[COL_DECLARED]
    if c >= 0:
        declared = _truth(data, cs[i, c], ce[i, c])
        if declared < 0:
            return False
    c = cols[COL_LOOKED]
    if c >= 0:
        looked = _truth(data, cs[i, c], ce[i, c])
        if looked < 0:
            return False
    if how == HOW_DISCARD:
        if frm < 0 or frm == winner:
            return False
    elif frm >= 0:
        return False
    if how == HOW_MOBAO or how == HOW_DUIBAO:
        if bao < 0 and win < 0:
            return False
        b = bao if bao >= 0 else win
        if win >= 0 and win != b:
            return False
        w = b
    else:
        if bao >= 0 or win < 0:
            return False
        w = win
        b = -1
    out[0] = w
    out[1] = how
    out[2] = winner
    out[3] = frm
    out[4] = b
    out[5] = base
    if looked:
        out[6] = DISCARDER_LOOKED
    elif declared:
        out[6] = DISCARDER_DECLARED
    else:
        out[6] = DISCARDER_UNDECLARED
    return True


@njit(cache=True)
def _prepare_row(data, cs, ce, cols, rv, i, opt, c_out, own_out, ms_out, kong_out, nhand,
                 nmelds, mseat, mkind, mbu, mlen, mtiles):  # fmt: skip
    """Row ``i`` of ``prepare_rows``: its status (ROW_READ, ROW_PYTHON, ROW_CHECK) and the
    ``extra`` tile."""
    work = np.empty(WORK_LEN, np.int64)
    conc = np.empty(N_KINDS, np.int64)
    counts = np.empty(N_KINDS, np.int64)
    if not _options(data, cs, ce, cols, i, opt[i]):
        return ROW_PYTHON, -1
    w = opt[i, 0]
    winner = opt[i, 2]
    hand_col = cols[COL_HAND]
    nm, ncon = read_hand(data, cs[i, hand_col], ce[i, hand_col], rv[RV_SANFENG], rv[RV_XIAOJI],
                         rv[RV_XI_BU_ANY_HONOR], rv[RV_ONE_SPECIAL_PER_KIND], conc,
                         mkind[i, :4], mtiles[i, :4], mlen[i, :4], mbu[i, :4], work)  # fmt: skip
    if nm < 0:
        return ROW_PYTHON, -1
    nhand[i] = nm
    for t in range(N_KINDS):
        counts[t] = conc[t]
        c_out[i, t] = conc[t]  # the hand as typed, for the Python path's checks (ROW_CHECK)
    for m in range(nm):
        mseat[i, m] = winner
        for k in range(mlen[i, m]):
            counts[mtiles[i, m, k]] += 1
    k3 = 3 * (4 - nm)
    extra = -1
    if ncon == k3 + 2:  # typed with the winning tile: the hand before the win lacks it
        if conc[w] == 0:
            return ROW_CHECK, -1
        conc[w] -= 1
        counts[w] -= 1
        extra = w
    elif ncon != k3 + 1 or counts[w] >= 4:
        return ROW_CHECK, -1
    total = nm
    kong_col = cols[COL_KONGS]
    if kong_col >= 0:
        total = read_kongs(data, cs[i, kong_col], ce[i, kong_col], winner, rv[RV_SANFENG],
                           rv[RV_XIAOJI], rv[RV_XI_BU_ANY_HONOR], rv[RV_ONE_SPECIAL_PER_KIND],
                           mseat[i], mkind[i], mtiles[i], mlen[i], mbu[i], nm, work)  # fmt: skip
        if total < 0:
            return ROW_CHECK, -1
    for t in range(N_KINDS):
        own_out[i, t] = counts[t]
    counts[w] += 1  # no tile more than 4 times: hand, drawn tile and the other seats' kongs
    for m in range(nm, total):
        for k in range(mlen[i, m]):
            counts[mtiles[i, m, k]] += 1
    for t in range(N_KINDS):
        if counts[t] > 4:
            return ROW_CHECK, -1
    for t in range(N_KINDS):
        c_out[i, t] = conc[t]
    nmelds[i] = total
    meld_summary(mkind[i], mtiles[i], mlen[i], nm, ms_out[i])
    kong_money(mkind[i], mtiles[i, :, 0].copy(), mbu[i], mseat[i], total, rv, kong_out[i])
    return ROW_READ, extra


@njit(cache=True, nogil=True)
def prepare_rows(data, cs, ce, cols, rv, status, opt, c_out, own_out, ms_out, kong_out, extra,
                 nhand, nmelds, mseat, mkind, mbu, mlen, mtiles):  # fmt: skip
    """Read every row whose ``status`` is ROW_READ: its options into ``opt``, the concealed tiles
    before the win into ``c_out``, the player's tiles into ``own_out``, the melds' MS_* vector
    into ``ms_out``, the kong money of its melds and ``kongs`` cell into ``kong_out``; its melds
    (the winner's ``nhand[i]``, then the other seats' kongs: ``nmelds[i]`` in all) into
    ``mseat``/``mkind``/``mbu``/``mlen``/``mtiles``; ``extra`` = the winning tile when the hand
    was typed with it (3k+2), else -1. A row the Python path must take gets ROW_PYTHON, or
    ROW_CHECK when its options and hand were read (``c_out``: the hand as typed) but a later
    check failed (the hand's size or winning tile, the ``kongs`` cell, a fifth copy)."""
    for i in range(cs.shape[0]):
        if status[i] == ROW_READ:
            status[i], extra[i] = _prepare_row(data, cs, ce, cols, rv, i, opt, c_out, own_out,
                                               ms_out, kong_out, nhand, nmelds, mseat, mkind,
                                               mbu, mlen, mtiles)  # fmt: skip


# --- writing ----------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _lit(out, k, text):
    for b in text:
        out[k] = b
        k += 1
    return k


@njit(cache=True)
def _int(out, k, x):
    """Write the decimal integer ``x`` (as Python's ``str``)."""
    if x < 0:
        out[k] = 45
        k += 1
        x = -x
    n = 1
    y = x
    while y >= 10:
        y //= 10
        n += 1
    for d in range(n - 1, -1, -1):
        out[k + d] = _DIGIT_0 + x % 10
        x //= 10
    return k + n


@njit(cache=True)
def _copy(out, k, src, s, e):
    for j in range(s, e):
        out[k] = src[j]
        k += 1
    return k


@njit(cache=True)
def _csv_cell(out, k, src, s, e, quote):
    """A cell as ``csv.writer`` writes it: quoted (inner quotes doubled) when it holds a
    character ``quote`` marks."""
    needs = False
    for j in range(s, e):
        b = src[j]
        if b < 128 and quote[b]:
            needs = True
            break
    if not needs:
        return _copy(out, k, src, s, e)
    out[k] = 34
    k += 1
    for j in range(s, e):
        out[k] = src[j]
        k += 1
        if src[j] == 34:
            out[k] = 34
            k += 1
    out[k] = 34
    return k + 1


@njit(cache=True)
def _json_text(out, k, src, s, e, esc, esc_start):
    """``src[s:e]`` as the inside of a JSON string (``json.dumps(..., ensure_ascii=False)``:
    the ASCII characters ``esc`` holds a replacement for are escaped)."""
    for j in range(s, e):
        b = src[j]
        if b < 128 and esc_start[b + 1] > esc_start[b]:
            k = _copy(out, k, esc, esc_start[b], esc_start[b + 1])
        else:
            out[k] = b
            k += 1
    return k


_ROW_CSV, _ROW_ERROR, _ROW_TEXT = 0, 1, 2  # write mode: scored here | an error row | given text


@njit(cache=True, nogil=True)
def write_csv(data, cs, ce, mode, sig, sig_text, sig_start, text, text_start, fan, amount, quote,
              out):  # fmt: skip
    """The CSV output rows of a chunk into ``out`` (returns the length): each row's cells, then
    for a scored row (``mode`` 0) the outcome's text cells ``sig_text[sig_start[sig[i]]:...]``,
    the fan and amounts, an empty error; for a row in error (1) empty result cells and the
    message ``text[text_start[i]:text_start[i + 1]]``; for mode 2 that text is the whole line."""
    k = 0
    width = cs.shape[1]
    for i in range(cs.shape[0]):
        if mode[i] == _ROW_TEXT:
            k = _copy(out, k, text, text_start[i], text_start[i + 1])
            continue
        for c in range(width):
            if c:
                out[k] = 44
                k += 1
            k = _csv_cell(out, k, data, cs[i, c], ce[i, c], quote)
        if mode[i] == _ROW_ERROR:
            for _ in range(13):
                out[k] = 44
                k += 1
            k = _csv_cell(out, k, text, text_start[i], text_start[i + 1], quote)
        else:
            out[k] = 44
            k = _copy(out, k + 1, sig_text, sig_start[sig[i]], sig_start[sig[i] + 1])
            for s in range(N_SEATS):
                out[k] = 44
                k = _int(out, k + 1, fan[i, s])
            for s in range(N_SEATS):
                out[k] = 44
                k = _int(out, k + 1, amount[i, s])
            out[k] = 44
            k += 1
        out[k] = 10
        k += 1
    return k


@njit(cache=True)
def _tile(out, k, t):
    """``tiles.tile_name(t)``, Python's % and // included (-1 is '9z')."""
    out[k] = _DIGIT_0 + 1 + t % 9
    out[k + 1] = _SUITS[t // 9]
    return k + 2


@njit(cache=True)
def _tile_or_null(out, k, t):
    if t < 0:
        return _lit(out, k, _NULL)
    out[k] = 34
    k = _tile(out, k + 1, t)
    out[k] = 34
    return k + 1


@njit(cache=True)
def _meld_text(out, k, kind, tiles, n):
    """``tiles.Meld.text()``: ``(5555m)`` for a concealed kong, else ``[...]``, the tiles in
    their order (sorted for chows, pungs and kongs; as typed for special kongs), one suit letter
    after each run of a suit."""
    out[k] = 40 if kind == MELD_ANKONG else 91
    k += 1
    for j in range(n):
        t = tiles[j]
        out[k] = _DIGIT_0 + 1 + t % 9
        k += 1
        if j == n - 1 or tiles[j + 1] // 9 != t // 9:
            out[k] = _SUITS[t // 9]
            k += 1
    out[k] = 41 if kind == MELD_ANKONG else 93
    return k + 1


@njit(cache=True)
def _seats_object(out, k, values, scale):
    """``{"E": a, "S": b, "W": c, "N": d}`` of ``values`` x ``scale``."""
    out[k] = 123
    k += 1
    for s in range(N_SEATS):
        if s:
            k = _lit(out, k, _SEP)
        out[k] = 34
        out[k + 1] = _SEAT_CHARS[s]
        out[k + 2] = 34
        out[k + 3] = 58
        out[k + 4] = 32
        k = _int(out, k + 5, values[s] * scale)
    out[k] = 125
    return k + 1


_NULL = tuple(b"null")
_SEP = tuple(b", ")
_SEAT_CHARS = tuple(b"ESWN")
_J_HAND = tuple(b'{"hand": "')
_J_WIN = tuple(b'", "win": ')
_J_HOW = tuple(b', "how": ')
_J_SEAT = tuple(b', "seat": "')
_J_DISCARDER = tuple(b'", "discarder": ')
_J_BAO = tuple(b', "bao": ')
_J_STANDS = tuple(b', "stands_for": ')
_J_FAN_BY_SEAT = tuple(b', "fan_by_seat": ')
_J_PAYMENTS = tuple(b', "payments": ')
_J_KONGS = tuple(b', "kongs": [')
_J_KONG_SEAT = tuple(b'{"seat": "')
_J_KONG_MELD = tuple(b'", "meld": "')
_J_KONG_VALUE = tuple(b'", "value": ')
_J_KONG_PAYMENTS = tuple(b'], "kong_payments": ')
_J_TOTAL = tuple(b', "total": ')
_J_BASE = tuple(b', "base": ')
_J_TOTAL_AMOUNT = tuple(b', "total_amount": ')
_J_FAN_CAP = tuple(b', "fan_cap": ')
_J_INPUT = tuple(b', "input": {')
_J_ERROR_NULL = tuple(b'}, "error": null}\n')
_J_INPUT_ONLY = tuple(b'{"input": {')
_J_ERROR = tuple(b'}, "error": "')
_J_END_ERROR = tuple(b'"}\n')


@njit(cache=True, nogil=True)
def write_json(data, cs, ce, mode, sig, sig_text, sig_start, text, text_start, keys, key_start,
               esc, esc_start, opt, res, c, extra, nmelds, mseat, mkind, mbu, mlen, mtiles,
               fan, pay, kong, fan_cap, rv, out):  # fmt: skip
    """The JSON lines of a chunk into ``out`` (returns the length): for a scored row (``mode``
    0) the ``ccmj score --json`` fields (``sig_text`` gives ``"legal": ..., "reasons": ...,
    "fan_items": ...`` of its outcome), then ``input`` (``keys``: each column's ``"name": ``) and
    a null error; for a row in error (1) ``input`` and the message ``text[text_start[i]:...]``;
    for mode 2 that text is the whole line. ``fan_cap`` < 0: null."""
    k = 0
    width = cs.shape[1]
    for i in range(cs.shape[0]):
        m = mode[i]
        if m == _ROW_TEXT:
            k = _copy(out, k, text, text_start[i], text_start[i + 1])
            continue
        if m == _ROW_ERROR:
            k = _lit(out, k, _J_INPUT_ONLY)
        else:
            k = _lit(out, k, _J_HAND)
            k = format_counts_row(out, k, c[i], extra[i])
            nm = 0
            for x in range(nmelds[i]):
                if mseat[i, x] == opt[i, 2]:
                    nm += 1
            for x in range(nm):
                k = _meld_text(out, k, mkind[i, x], mtiles[i, x], mlen[i, x])
            k = _lit(out, k, _J_WIN)
            scored = res[i, 1]
            k = _tile_or_null(out, k, scored)
            k = _lit(out, k, _J_HOW)
            how = opt[i, 1]
            out[k] = 34
            k += 1
            for b in _HOW_WORDS[how]:
                if b:
                    out[k] = b
                    k += 1
            out[k] = 34
            k = _lit(out, k + 1, _J_SEAT)
            out[k] = _SEAT_CHARS[opt[i, 2]]
            k = _lit(out, k + 1, _J_DISCARDER)
            if opt[i, 3] >= 0:
                out[k] = 34
                out[k + 1] = _SEAT_CHARS[opt[i, 3]]
                out[k + 2] = 34
                k += 3
            else:
                k = _lit(out, k, _NULL)
            k = _lit(out, k, _J_BAO)
            k = _tile_or_null(out, k, opt[i, 4])
            k = _lit(out, k, _J_STANDS)
            if how == HOW_MOBAO and res[i, 2] == 0:  # LOOK_OK
                out[k] = 34
                k = _tile(out, k + 1, scored)
                out[k] = 34
                k += 1
            else:
                k = _lit(out, k, _NULL)
            k = _lit(out, k, _SEP)
            k = _copy(out, k, sig_text, sig_start[sig[i]], sig_start[sig[i] + 1])
            k = _lit(out, k, _J_FAN_BY_SEAT)
            k = _seats_object(out, k, fan[i], 1)
            k = _lit(out, k, _J_PAYMENTS)
            k = _seats_object(out, k, pay[i], 1)
            k = _lit(out, k, _J_KONGS)
            first = True
            for x in range(nmelds[i]):
                value = kong_value(mkind[i, x], mtiles[i, x, 0], mbu[i, x], rv)
                if not value:
                    continue
                if not first:
                    k = _lit(out, k, _SEP)
                first = False
                k = _lit(out, k, _J_KONG_SEAT)
                out[k] = _SEAT_CHARS[mseat[i, x]]
                k = _lit(out, k + 1, _J_KONG_MELD)
                k = _meld_text(out, k, mkind[i, x], mtiles[i, x], mlen[i, x])
                k = _lit(out, k, _J_KONG_VALUE)
                k = _int(out, k, value)
                out[k] = 125
                k += 1
            k = _lit(out, k, _J_KONG_PAYMENTS)
            k = _seats_object(out, k, kong[i], 1)
            total = np.empty(N_SEATS, np.int64)
            for s in range(N_SEATS):
                total[s] = pay[i, s] + kong[i, s]
            k = _lit(out, k, _J_TOTAL)
            k = _seats_object(out, k, total, 1)
            k = _lit(out, k, _J_BASE)
            k = _int(out, k, opt[i, 5])
            k = _lit(out, k, _J_TOTAL_AMOUNT)
            k = _seats_object(out, k, total, opt[i, 5])
            k = _lit(out, k, _J_FAN_CAP)
            k = _lit(out, k, _NULL) if fan_cap < 0 else _int(out, k, fan_cap)
            k = _lit(out, k, _J_INPUT)
        for col in range(width):
            if col:
                k = _lit(out, k, _SEP)
            k = _copy(out, k, keys, key_start[col], key_start[col + 1])
            out[k] = 34
            k = _json_text(out, k + 1, data, cs[i, col], ce[i, col], esc, esc_start)
            out[k] = 34
            k += 1
        if m == _ROW_ERROR:
            k = _lit(out, k, _J_ERROR)
            k = _json_text(out, k, text, text_start[i], text_start[i + 1], esc, esc_start)
            k = _lit(out, k, _J_END_ERROR)
        else:
            k = _lit(out, k, _J_ERROR_NULL)
    return k


@njit(cache=True)
def format_counts_row(out, k, c, extra):
    """``tiles.format_counts`` of ``c`` plus the tile ``extra`` (when >= 0), at ``out[k]``."""
    for s in range(4):
        any_tile = False
        for d in range(9 if s < 3 else 7):
            t = s * 9 + d
            m = int(c[t]) + (1 if t == extra else 0)
            for _ in range(m):
                out[k] = _DIGIT_0 + 1 + d
                k += 1
                any_tile = True
        if any_tile:
            out[k] = _SUITS[s]
            k += 1
    return k


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
        "status": np.zeros(n, np.int64),
        "opt": np.zeros((n, OPT_LEN), np.int64),
        "kong": np.zeros((n, N_SEATS), np.int64),
        "extra": np.zeros(n, np.int64),
        "nhand": np.zeros(n, np.int64),
        "nmelds": np.zeros(n, np.int64),
        "mseat": np.zeros((n, MAX_MELDS), np.int64),
        "mkind": np.zeros((n, MAX_MELDS), np.int64),
        "mbu": np.zeros((n, MAX_MELDS), np.int64),
        "mlen": np.zeros((n, MAX_MELDS), np.int64),
        "mtiles": np.zeros((n, MAX_MELDS, MAX_MELD_TILES), np.int64),
    }
