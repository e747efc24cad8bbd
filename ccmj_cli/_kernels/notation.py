"""Plain MPSZ text <-> count arrays, many rows per call: the bulk form of tiles.py for batches.

Only the common case is read here — concealed tiles in plain MPSZ (``123m456p11z``, spaces
allowed), no melds, no Chinese characters; ``ok[i] = 0`` sends anything else (or anything
doubtful: a digit 0, an honor above 7z, a digit with no suit, a fifth copy) back to
``tiles.parse_hand``, which accepts it or raises the proper one-line error.
"""

import numpy as np

from .jit import njit
from .layout import N_KINDS

_SPACE = 32
_DIGIT_0 = 48
_DIGIT_9 = 57
_NEWLINE = 10
_SUITS = (109, 112, 115, 122)  # m p s z (written); M P S Z (32 less) are read as the same


@njit(cache=True)
def _suit(ch):
    for i in range(4):
        if ch == _SUITS[i] or ch == _SUITS[i] - 32:
            return i
    return -1


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
