"""Tile notation read from UTF-8 bytes, many rows per call: the bulk form of tiles.py for batches.

``plain_counts`` reads the commonest case — concealed tiles in plain MPSZ (``123m456p11z``,
spaces allowed), no melds, no Chinese characters. ``read_hand`` reads the whole notation of
``tiles.parse_hand`` — melds in brackets and parentheses (what a bracket forms is
``melds.classify_bracket``), 补 tiles, Chinese honor and suit names — and ``read_kongs`` a
``--kongs`` cell. Each accepts exactly what the Python parser accepts, with the same result, or
says "not read" (``ok[i] = 0``, a negative count): anything doubtful (a digit 0, an honor above
7z, a digit with no suit, a fifth copy, an invalid meld, whitespace other than ASCII) goes back
to ``tiles.parse_hand`` / ``scoring.parse_kongs``, which accept it or raise the proper one-line
error. tests/test_notation_bulk.py checks both ways agree.
"""

import numpy as np

from .jit import njit
from .layout import (
    FIRST_SPECIAL,
    MELD_ANKONG,
    MELD_KONG,
    N_KINDS,
    N_SEATS,
)
from .melds import INVALID, classify_bracket, first_repeated_special

_SPACE = 32
_DIGIT_0 = 48
_DIGIT_9 = 57
_NEWLINE = 10
_SUITS = (109, 112, 115, 122)  # m p s z (written); M P S Z (32 less) are read as the same
_OPEN_SQUARE, _CLOSE_SQUARE, _OPEN_ROUND, _CLOSE_ROUND = 91, 93, 40, 41  # [ ] ( )
_COMMA, _COLON = 44, 58
# Chinese names (tiles.SUIT_ALIASES, tiles.HONOR_CHARS), as code points
_WAN, _BING, _TONG, _TIAO, _SUO = ord("万"), ord("饼"), ord("筒"), ord("条"), ord("索")
_DONG, _NAN, _XI, _BEI = ord("东"), ord("南"), ord("西"), ord("北")
_BAI, _FA, _ZHONG, _DONG_T, _FA_T = ord("白"), ord("发"), ord("中"), ord("東"), ord("發")
MAX_MELD_TILES = 32  # a longer bracket (补 tiles beyond this) is left to the Python parser
MAX_CONCEALED = 140  # more concealed tiles than a wall holds: left to the Python parser
WORK_LEN = 2 * N_KINDS + 16 + MAX_CONCEALED  # the int64 scratch read_kongs needs
_SEAT_LETTERS = (69, 83, 87, 78)  # E S W N


@njit(cache=True)
def _suit(ch):
    for i in range(4):
        if ch == _SUITS[i] or ch == _SUITS[i] - 32:
            return i
    return -1


@njit(cache=True, inline="always")
def is_space(ch):
    """An ASCII character ``str.isspace`` (and so ``str.strip``) takes: 0x09-0x0d, 0x1c-0x20."""
    return ch == _SPACE or 9 <= ch <= 13 or 28 <= ch <= 31


@njit(cache=True)
def _code_point(buf, j, end):
    """(code point, bytes) of the UTF-8 character at ``buf[j]``: ASCII, or the three-byte
    characters the Chinese names are; (-1, 1) for anything else."""
    b = int(buf[j])
    if b < 0x80:
        return b, 1
    if 0xE0 <= b < 0xF0 and j + 2 < end:
        b1 = int(buf[j + 1])
        b2 = int(buf[j + 2])
        if 0x80 <= b1 < 0xC0 and 0x80 <= b2 < 0xC0:
            return ((b & 0x0F) << 12) | ((b1 & 0x3F) << 6) | (b2 & 0x3F), 3
    return -1, 1


@njit(cache=True)
def _suit_of(cp):
    """0-3 for m p s z (M P S Z too) and 万 饼/筒 条/索, else -1."""
    if cp == 109 or cp == 77 or cp == _WAN:
        return 0
    if cp == 112 or cp == 80 or cp == _BING or cp == _TONG:
        return 1
    if cp == 115 or cp == 83 or cp == _TIAO or cp == _SUO:
        return 2
    if cp == 122 or cp == 90:
        return 3
    return -1


@njit(cache=True)
def _honor_of(cp):
    """The tile of a Chinese honor name (东南西北白发中 東發), else -1."""
    if cp == _DONG or cp == _DONG_T:
        return 27
    if cp == _NAN:
        return 28
    if cp == _XI:
        return 29
    if cp == _BEI:
        return 30
    if cp == _BAI:
        return 31
    if cp == _FA or cp == _FA_T:
        return 32
    if cp == _ZHONG:
        return 33
    return -1


@njit(cache=True)
def read_tiles(buf, j, end, bracket, out, digits):
    """Read tiles from ``buf[j:end]`` into ``out`` (as ``tiles._read_tiles``): until a ``[`` or
    ``(`` — or, in a ``bracket``, any of ``[]()``. Returns (where it stopped, tiles read), or
    (-1, 0) when the text is not accepted: an error for the Python parser to word, or anything
    it reads that this does not (whitespace other than ASCII, more than ``out`` holds)."""
    pending = 0
    n = 0
    while j < end:
        ch = int(buf[j])
        if ch == _OPEN_SQUARE or ch == _OPEN_ROUND:
            break
        if ch == _CLOSE_SQUARE or ch == _CLOSE_ROUND:
            if bracket:
                break
            return -1, 0
        if is_space(ch):
            j += 1
            continue
        if _DIGIT_0 <= ch <= _DIGIT_9:
            if pending == digits.shape[0] or ch == _DIGIT_0:
                return -1, 0
            digits[pending] = ch - _DIGIT_0
            pending += 1
            j += 1
            continue
        cp, size = _code_point(buf, j, end)
        s = _suit_of(cp)
        if s >= 0:
            if pending == 0 or n + pending > out.shape[0]:
                return -1, 0
            for k in range(pending):
                d = digits[k]
                if s == 3 and d > 7:
                    return -1, 0
                out[n] = s * 9 + d - 1
                n += 1
            pending = 0
        else:
            t = _honor_of(cp)
            if t < 0 or pending or n == out.shape[0]:
                return -1, 0
            out[n] = t
            n += 1
        j += size
    if pending:
        return -1, 0
    return j, n


@njit(cache=True)
def read_hand(buf, s, e, sanfeng, xiaoji, xi_any, one_per_kind, conc, kinds, tiles, lens, bus,
              work):  # fmt: skip
    """Read the hand ``buf[s:e]`` as ``tiles.parse_hand`` does: its concealed tiles into ``conc``
    (int[34]) and its melds into ``kinds``, ``tiles`` (one row per meld: chows, pungs and kongs
    sorted, special kongs in the order typed), ``lens`` and ``bus`` (补 tiles). Returns (melds,
    concealed tiles), or (-1, 0) when the Python parser must read it (for its error message, or
    for text this does not read). ``work``: int64 scratch of at least MAX_CONCEALED + 16."""
    for t in range(N_KINDS):
        conc[t] = 0
    digits = work[:16]
    read = work[16 : 16 + MAX_CONCEALED]
    own = work[16 + MAX_CONCEALED : 16 + MAX_CONCEALED + N_KINDS]
    own[:] = 0
    nm = 0
    ncon = 0
    j = s
    while j < e:
        ch = int(buf[j])
        if ch == _OPEN_SQUARE or ch == _OPEN_ROUND:
            if nm == kinds.shape[0]:
                return -1, 0
            row = tiles[nm]
            stop, n = read_tiles(buf, j + 1, e, True, row, digits)
            close = _CLOSE_SQUARE if ch == _OPEN_SQUARE else _CLOSE_ROUND
            if stop < 0 or stop >= e or int(buf[stop]) != close:
                return -1, 0
            for t in range(N_KINDS):
                own[t] = 0
            for k in range(n):
                own[row[k]] += 1
            if ch == _OPEN_ROUND:
                if n != 4 or own[row[0]] != 4:
                    return -1, 0
                kind, bu = MELD_ANKONG, 0
            else:
                kind, bu = classify_bracket(own, sanfeng, xiaoji, xi_any)
                if kind == INVALID:
                    return -1, 0
            if kind < FIRST_SPECIAL:  # chows, pungs and kongs sorted (special kongs as typed)
                for a in range(1, n):
                    x = row[a]
                    b = a - 1
                    while b >= 0 and row[b] > x:
                        row[b + 1] = row[b]
                        b -= 1
                    row[b + 1] = x
            kinds[nm] = kind
            lens[nm] = n
            bus[nm] = bu
            nm += 1
            j = stop + 1
        else:
            stop, n = read_tiles(buf, j, e, False, read, digits)
            if stop < 0 or ncon + n > MAX_CONCEALED:
                return -1, 0
            for k in range(n):
                conc[read[k]] += 1
            ncon += n
            j = stop
    if nm == 0 and ncon == 0:
        return -1, 0  # an empty hand
    for t in range(N_KINDS):
        own[t] = conc[t]
    for m in range(nm):
        for k in range(lens[m]):
            own[tiles[m, k]] += 1
    for t in range(N_KINDS):
        if own[t] > 4:
            return -1, 0
    if one_per_kind and first_repeated_special(kinds, nm) >= 0:
        return -1, 0
    return nm, ncon


@njit(cache=True)
def strip_span(buf, s, e):
    """``buf[s:e]`` without the ASCII whitespace ``str.strip`` takes at either end."""
    while s < e and is_space(int(buf[s])):
        s += 1
    while e > s and is_space(int(buf[e - 1])):
        e -= 1
    return s, e


@njit(cache=True)
def read_seat(buf, s, e):
    """0-3 for a cell holding one seat letter (E S W N, either case; ASCII whitespace around),
    -1 for an empty cell, -2 for anything else."""
    s, e = strip_span(buf, s, e)
    if s == e:
        return -1
    if e - s == 1:
        ch = int(buf[s])
        if ch >= 97:
            ch -= 32
        for k in range(N_SEATS):
            if ch == _SEAT_LETTERS[k]:
                return k
    return -2


@njit(cache=True)
def read_tile(buf, s, e, work):
    """The tile of a cell holding one tile (``tiles.tile_index``: ``5s``, ``5条``, ``中``),
    -1 for an empty (or all-whitespace) cell, -2 for anything else."""
    s, e = strip_span(buf, s, e)
    if s == e:
        return -1
    out = work[16:18]
    stop, n = read_tiles(buf, s, e, False, out, work[:16])
    if stop != e or n != 1:
        return -2
    return out[0]


@njit(cache=True)
def read_kongs(buf, s, e, winner, sanfeng, xiaoji, xi_any, one_per_kind, seats, kinds, tiles,
               lens, bus, first, work):  # fmt: skip
    """Read a ``--kongs`` cell (``SEAT:MELDS`` items, comma-separated) as
    ``scoring.parse_kongs(text, v, winner)`` does, into ``seats``/``kinds``/``tiles``/``lens``/
    ``bus`` from index ``first`` on. Returns the index after the last kong, or -1 when the
    Python parser must read it (an error to word: a bad item, not a kong, the winner's seat,
    more than four kongs for a seat, two special kongs of a kind under ``one_per_kind``)."""
    s, e = strip_span(buf, s, e)
    m = first
    if s == e:
        return m
    per_seat = np.zeros(N_SEATS, np.int64)
    a = s
    while a <= e:
        b = a
        while b < e and int(buf[b]) != _COMMA:
            b += 1
        colon = a
        while colon < b and int(buf[colon]) != _COLON:
            colon += 1
        if colon == b:
            return -1
        seat = read_seat(buf, a, colon)
        if seat < 0 or seat == winner:
            return -1
        top = min(m + 4, kinds.shape[0])  # (an item, like a hand, holds at most 4 melds)
        if top <= m:
            return -1
        nm, ncon = read_hand(buf, colon + 1, b, sanfeng, xiaoji, xi_any, one_per_kind,
                             work[:N_KINDS], kinds[m:top], tiles[m:top], lens[m:top],
                             bus[m:top], work[N_KINDS:])  # fmt: skip
        if nm <= 0 or ncon:
            return -1
        for k in range(m, m + nm):
            kind = kinds[k]
            if kind != MELD_KONG and kind != MELD_ANKONG and kind < FIRST_SPECIAL:
                return -1
            seats[k] = seat
        per_seat[seat] += nm
        if per_seat[seat] > 4:
            return -1
        m += nm
        a = b + 1
    if one_per_kind:  # two special kongs of a kind for one seat, across its items
        own_kinds = np.empty(m - first, np.int64)
        for seat in range(N_SEATS):
            k = 0
            for x in range(first, m):
                if seats[x] == seat:
                    own_kinds[k] = kinds[x]
                    k += 1
            if first_repeated_special(own_kinds, k) >= 0:
                return -1
    return m


@njit(cache=True)
def plain_counts(buf, starts, ends, c_out, n_out, ok):
    """Read rows ``buf[starts[i]:ends[i]]`` (UTF-8 bytes) into ``c_out[i]`` (uint8[34]) and
    their tile count into ``n_out[i]``; ``ok[i]`` = 1 when the row is plain MPSZ with at most
    four copies of each tile."""
    digits = np.zeros(16, np.int64)
    for i in range(starts.shape[0]):
        ok[i] = 0
        n_out[i] = 0
        for t in range(N_KINDS):
            c_out[i, t] = 0
        pending = 0  # digits read, waiting for their suit
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
                if c_out[i, t] == 4:
                    bad = True
                    break
                c_out[i, t] += 1
                n += 1
            pending = 0
            if bad:
                break
        if bad or pending or n == 0:
            continue
        n_out[i] = n
        ok[i] = 1


@njit(cache=True)
def format_counts(c, extra, ok, out):
    """Canonical MPSZ text (as ``tiles.format_counts``) of rows ``c[i]`` plus the tile
    ``extra[i]`` when it is >= 0, written to ``out`` one row after the other, each ended by a
    newline (an empty line where ``ok[i]`` is 0). Returns the length written; ``out`` needs
    ``c.shape[0] * (max tiles + 5)`` bytes."""
    k = 0
    for i in range(c.shape[0]):
        if ok[i]:
            for s in range(4):
                any_tile = False
                for d in range(9 if s < 3 else 7):
                    t = s * 9 + d
                    m = int(c[i, t]) + (1 if t == extra[i] else 0)
                    for _ in range(m):
                        out[k] = _DIGIT_0 + 1 + d
                        k += 1
                        any_tile = True
                if any_tile:
                    out[k] = _SUITS[s]
                    k += 1
        out[k] = _NEWLINE
        k += 1
    return k


def encode_rows(lines: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The bytes the kernels read: (buffer, starts, ends) of each line, UTF-8 encoded."""
    text = "\n".join(lines)
    if text.isascii():  # the common case: one encode, offsets from the lengths
        lengths = np.fromiter(map(len, lines), np.int64, len(lines))
        ends = np.cumsum(lengths + 1) - 1
        data = np.frombuffer(text.encode() or b" ", np.uint8)
    else:
        # (lone surrogates, from undecodable argv bytes, pass as bytes no kernel row accepts)
        encoded = [line.encode("utf-8", "surrogatepass") for line in lines]
        lengths = np.fromiter(map(len, encoded), np.int64, len(lines))
        ends = np.cumsum(lengths)
        data = np.frombuffer(b"".join(encoded) or b" ", np.uint8)
    return data, ends - lengths, ends


def format_rows(c, extra, ok) -> list[str]:
    """``format_counts`` as a list of strings ('' where ``ok[i]`` is 0)."""
    out = np.empty(c.shape[0] * 24 + 1, np.uint8)  # at most 18 tiles + 4 suit letters + newline
    size = format_counts(c, extra, ok, out)
    return out[: size - 1].tobytes().decode("ascii").split("\n") if size else []
