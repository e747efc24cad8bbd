"""Batch scoring of a CSV of wins, streamed in chunks (memory stays flat).

Input columns (a header row names them; without one, this order is assumed): ``hand`` (first),
``win``, ``how`` (self | discard | mobao | duibao, default self), ``seat`` (winner, default S),
``from`` (discarder), ``bao``, ``base`` (default 1), ``kongs`` (other seats' kongs, as in
``score --kongs``), ``declared`` (the discarder had declared tenpai: 1/true/yes), ``looked``
(he had declared and looked at the current bao; implies ``declared``). Any other column is
passed through. Output: the input columns plus ``RESULT_COLUMNS``; one output row per
input row, in order; a bad row gets its message in ``error`` and the run goes on.

The rows are judged and scored by the same kernel as ``ccmj score`` (``bao.score_any``), a chunk
at a time; plain MPSZ hands are read by a bulk kernel, anything else by ``scoring``'s parser.

>>> import io
>>> out = io.StringIO()
>>> run(io.StringIO("hand,win,how\\n123m456p46s55s111z,5s,self\\n1m,5s,self\\n"), out).failed
1
>>> print(out.getvalue().splitlines()[1])
123m456p46s55s111z,5s,self,true,,,win:1 menqing:1 jiahu:1 zimo:1 dealer:1,5,0,4,4,-16,32,-8,-8,
"""

import csv
import io
import itertools
import json
import operator
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from typing import TextIO

import numpy as np

from . import scoring as S
from . import tiles as T
from ._kernels import batch as K
from ._kernels import layout as L
from ._kernels.bao import LOOK_OK
from ._kernels.batch import buffers, format_plain, plain_many, score_many
from ._kernels.notation import encode_rows
from ._kernels.tables import tables
from .errors import CcmjError, UsageError
from .hand import reasons_of
from .rules import Variant, load_variant

INPUT_COLUMNS = (
    "hand", "win", "how", "seat", "from", "bao", "base", "kongs", "declared", "looked",
)  # fmt: skip
ALIASES = {"by": "how", "discarder": "from", "winner": "seat"}
RESULT_COLUMNS = (
    "legal", "reasons", "stands_for", "fan_items",
    "fan_E", "fan_S", "fan_W", "fan_N", "pay_E", "pay_S", "pay_W", "pay_N", "error",
)  # fmt: skip
CHUNK = 4096
_I64 = 2**63 - 1
_HUGE_BASE = 0  # the base slot of a row whose base does not fit in int64 (re-read exactly)
_TRUE = {"1", "true", "yes", "y"}
_FALSE = {"", "0", "false", "no", "n"}


@dataclass(frozen=True)
class BatchSummary:
    rows: int
    failed: int


# The score options' messages name CLI flags; a batch row has columns instead (the same rule
# checks, worded for the CSV): longest spellings first.
_COLUMN_WORDS = (
    ("(--from SEAT)", "(the 'from' column)"),
    ("(--bao TILE)", "(the 'bao' column)"),
    ("(--win TILE)", "(the 'win' column)"),
    ("--win must equal --bao", "'win' must equal 'bao'"),
    ("give --bao only", "give the 'bao' column only"),
    ("--from is only", "'from' is only"),
    ("--bao is only", "'bao' is only"),
    ("bad --kongs seat", "bad kongs seat"),
    ("bad --kongs", "bad kongs"),
    ("counting --kongs", "counting the 'kongs' column"),
    ("--looked", "'looked'"),
    ("--declared", "'declared'"),
)


def _in_columns(message: str) -> str:
    """A row's error worded with the CSV's column names instead of ``ccmj score``'s flags."""
    for flag, column in _COLUMN_WORDS:
        message = message.replace(flag, column)
    return message


def _truth(cell: str, name: str) -> bool:
    v = cell.strip().lower()
    if v not in _TRUE and v not in _FALSE:
        raise UsageError(f"bad {name} '{cell}': expected 1/0, true/false or yes/no")
    return v in _TRUE


@lru_cache(maxsize=8192)
def _options(win, how, seat, frm, bao, base, declared, looked):
    """Validated options of a row (cached: rows repeat them); the last is the discarder's
    state (``scoring.discarder_state``)."""
    try:
        b = int(base) if base else 1
    except ValueError:
        raise UsageError(f"bad base '{base}': expected a whole number >= 1") from None
    win, how, seat, frm, bao, base = (x.strip() for x in (win, how, seat, frm, bao, base))
    state = S.discarder_state(_truth(declared, "declared"), _truth(looked, "looked"))
    w, h_how, winner, disc, bao_t = S.prepare_options(
        win or None, how.strip().lower() or "self", seat or "S", frm or None, bao or None, b
    )
    return w, h_how, winner, disc, bao_t, b if b <= _I64 else _HUGE_BASE, state


@lru_cache(maxsize=4096)
def _fan_text(items: tuple, winner: int, disc: int, how: int, rv_key: int, charged: tuple) -> str:
    rv = _RV[rv_key]
    return " ".join(
        f"{i.name}:{i.fan}" for i in S.fan_item_list(items, winner, disc, how, rv, charged)
    )


_RV: dict[int, np.ndarray] = {}


@lru_cache(maxsize=4096)
def _fan_json(items: tuple, winner: int, disc: int, how: int, rv_key: int, charged: tuple) -> str:
    fan_list = S.fan_item_list(items, winner, disc, how, _RV[rv_key], charged)
    return json.dumps(
        [{"name": x.name, "name_zh": x.name_zh, "fan": x.fan, "seats": x.seats} for x in fan_list],
        ensure_ascii=False,
    )


@lru_cache(maxsize=256)
def _reasons(legal: int, look: int, fails: int) -> tuple[str, ...]:
    if look != LOOK_OK:
        return (S.LOOK_REASONS[look],)
    return () if legal else tuple(reasons_of(fails))


def _header(first: list[str]) -> tuple[list[str], bool]:
    """(column names, whether ``first`` was a header row). A header may not name a column twice
    (``by`` and ``how``, say): which one counts would be a guess."""
    names = [ALIASES.get(x.strip().lower(), x.strip().lower()) for x in first]
    if set(names) & set(INPUT_COLUMNS):  # a header (the hand column may be anywhere)
        for k in INPUT_COLUMNS:
            named = [x.strip() for x, n in zip(first, names, strict=True) if n == k]
            if len(named) > 1:
                raise UsageError(
                    f"the CSV header names the '{k}' column more than once ({', '.join(named)})"
                )
        seen: dict[str, list[str]] = {}
        for x in first:  # any other column twice: JSON's "input" would keep only the last
            seen.setdefault(x.strip().lower(), []).append(x.strip())
        twice = [v for v in seen.values() if len(v) > 1]
        if twice:
            raise UsageError(
                f"the CSV header names the '{twice[0][0]}' column more than once "
                f"({', '.join(twice[0])})"
            )
        return [x.strip() for x in first], True
    return list(INPUT_COLUMNS[: max(len(first), 1)]) + [
        f"col{i + 1}" for i in range(len(INPUT_COLUMNS), len(first))
    ], False


def _clean(cell: str) -> str:
    """``cell`` with undecodable bytes (read as surrogates) shown as U+FFFD, fit to write."""
    if cell.isascii():
        return cell
    try:
        cell.encode()
    except UnicodeEncodeError:
        return cell.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    return cell


def _bad_bytes(row: list[str]) -> str | None:
    """The error of a row holding bytes that are not UTF-8 (read as surrogates), else None."""
    for cell in row:
        try:
            cell.encode()
        except UnicodeEncodeError as e:
            raw = cell[e.start : e.end].encode("utf-8", "surrogateescape")
            return f"the row is not valid UTF-8 text (byte 0x{raw[0]:02x})"
    return None


class Unreadable(list):
    """Stands for the rest of a CSV the csv module cannot read (a field over its size limit:
    typically an unbalanced quote that swallows the rest of the file). Reading stops there: the
    text after it would be read out of step, as wrong rows."""

    def __init__(self, line: int, e: csv.Error):
        super().__init__([""])
        self.error = (
            f"line {line}: the CSV cannot be read from here on ({e}; an unbalanced quote?): "
            "the rest of the input is not scored"
        )


def _records(src) -> Iterator[list[str]]:
    """The rows of the CSV ``src``, then an ``Unreadable`` if the csv module gives up."""
    reader = csv.reader(src)
    line = 1  # where the next record starts
    try:
        for row in reader:
            if reader.line_num > line and any("\n" in c or "\r" in c for c in row):
                # (no column holds a line break: a quote left open has run on to the end)
                yield Unreadable(line, csv.Error("a quoted cell runs over several lines"))
                return
            yield row
            line = reader.line_num + 1
    except csv.Error as e:
        yield Unreadable(line, e)


def _chunks(rows: Iterator[list[str]], n: int):
    while True:
        chunk = list(itertools.islice(rows, n))
        if not chunk:
            return
        yield chunk


def run(
    src: TextIO,
    dst: TextIO,
    as_json: bool = False,
    rules: Variant | str | None = None,
    chunk: int = CHUNK,
) -> BatchSummary:
    """Score every row of the CSV ``src`` into ``dst`` (CSV, or JSON lines with ``as_json``)."""
    v = rules if isinstance(rules, Variant) else load_variant(rules)
    rv = v.vector
    _RV[id(rv)] = rv
    reader = filter(None, _records(src))  # a blank line is not a row
    first = next(reader, None)
    if first is None:  # no rows: the header alone
        if not as_json:
            csv.writer(dst, lineterminator="\n").writerow(INPUT_COLUMNS + RESULT_COLUMNS)
        dst.flush()
        return BatchSummary(0, 0)
    if isinstance(first, Unreadable):
        raise UsageError(first.error)
    first = [_clean(x) for x in first]
    if first[0].startswith("\ufeff"):  # a UTF-8 BOM read as text (stdin, a StringIO)
        first[0] = first[0][1:]
    if len(first) == 1:  # one cell: a CSV saved with semicolons or tabs (a European Excel)?
        for sep, name in ((";", "semicolons"), ("\t", "tabs")):
            if sep in first[0] and len(first[0].split(sep)) >= 3:
                raise UsageError(
                    f"the CSV is separated by {name}, not commas: save it comma-separated "
                    f"(e.g. tr '{sep}' ',' < FILE)".replace("\t", "\\t")
                )
    columns, has_header = _header(first)
    keys = [ALIASES.get(c.lower(), c.lower()) for c in columns]
    if "hand" not in keys:
        raise UsageError("the CSV needs a 'hand' column")
    idx = {k: keys.index(k) for k in INPUT_COLUMNS if k in keys}
    rows: Iterator[list[str]] = reader if has_header else itertools.chain([first], reader)
    writer = None
    if not as_json:
        writer = csv.writer(dst, lineterminator="\n")
        writer.writerow(columns + list(RESULT_COLUMNS))
    total = failed = 0
    bufs = (buffers(chunk), buffers(chunk))  # chunk k is scored while chunk k-1 is written
    for b in bufs:
        b["cs"] = np.zeros((chunk, len(columns)), np.int64)
        b["ce"] = np.zeros((chunk, len(columns)), np.int64)
    cols = np.array([idx.get(k, -1) for k in INPUT_COLUMNS], np.int64)
    # --json with a column named twice: dict(zip(columns, cells)) keeps one cell, the Python way
    python_only = as_json and len(set(columns)) != len(columns)
    tb = tables()
    pending = None

    def emit(job):
        future, finish = job
        future.result()
        out, nfail = finish()
        if isinstance(out, str):
            dst.write(out)
        elif as_json:
            dst.write("".join(out))
        else:
            writer.writerows(out)
        return nfail

    with ThreadPoolExecutor(max_workers=1) as pool:
        for k, part in enumerate(_chunks(rows, chunk)):
            prepare = _prepare_chunk_python if python_only else _prepare_chunk
            args, finish = prepare(
                part, len(columns), idx, v, rv, tb, bufs[k % 2], as_json, columns, cols
            )
            job = (pool.submit(score_many, *args), finish)
            if pending is not None:
                failed += emit(pending)
            pending = job
            total += len(part)
        if pending is not None:
            failed += emit(pending)
    dst.flush()
    return BatchSummary(total, failed)


def _mark_row_errors(part, width) -> list[str | None]:
    """Each row's error found before its cells are read (the rest of the file unreadable, bytes
    that are not UTF-8, too many cells), with the row made fit to read: bad bytes shown as
    U+FFFD, ``width`` cells (a short row padded with empty cells)."""
    n = len(part)
    errors: list[str | None] = [None] * n
    if isinstance(part[-1], Unreadable):  # (only ever the last row read)
        errors[-1] = part[-1].error
    text = "".join(itertools.chain.from_iterable(part))
    if not text.isascii():
        try:
            text.encode()
        except UnicodeEncodeError:  # bytes that are not UTF-8 (read as surrogates) somewhere
            for i, row in enumerate(part):
                err = _bad_bytes(row)
                if err is not None:
                    errors[i] = err
                    part[i] = [_clean(x) for x in row]
    if min(map(len, part)) != width or max(map(len, part)) != width:
        for i, row in enumerate(part):
            if len(row) != width:
                if len(row) > width and errors[i] is None:
                    errors[i] = f"row has {len(row)} cells, the header {width}"
                    part[i] = row[:width]
                else:
                    part[i] = row + [""] * (width - len(row))
    return errors


def _prepare_chunk(part, width, idx, v, rv, tb, buf, as_json, columns, cols):
    """Read one chunk into ``buf`` with the bulk kernels: (the arguments of ``score_many``, a
    function that writes the chunk's output text once it has run). Rows the kernels leave to
    Python (errors to word, spellings only the Python parser reads) take ``_prepare_slow``."""
    n = len(part)
    errors = _mark_row_errors(part, width)
    blob = "\x1e".join(map("\x1f".join, part)) + "\x1e"
    if blob.count("\x1f") != n * (width - 1) or blob.count("\x1e") != n:
        # a cell holds one of the separators: this chunk goes the Python way
        return _prepare_chunk_python(part, width, idx, v, rv, tb, buf, as_json, columns, cols)
    data = np.frombuffer(blob.encode(), np.uint8)
    cs, ce = buf["cs"][:n, :width], buf["ce"][:n, :width]
    K.split_cells(data, width, cs, ce)
    status = buf["status"][:n]
    status[:] = K.ROW_READ
    has_error = [i for i, e in enumerate(errors) if e is not None]
    status[has_error] = K.ROW_ERROR
    opt, c, own, ms, kong, extra, nhand = (
        buf[k][:n] for k in ("opt", "c", "own", "ms", "kong", "extra", "nhand")
    )
    melds = tuple(buf[k][:n] for k in ("nmelds", "mseat", "mkind", "mbu", "mlen", "mtiles"))
    kong[:] = 0
    ms[:] = 0
    melds[0][:] = 0
    K.prepare_rows(data, cs, ce, cols, rv, status, opt, c, own, ms, kong, extra, nhand, *melds)
    kong_rows: dict[int, tuple | None] = {}
    by_python = np.flatnonzero((status == K.ROW_PYTHON) | (status == K.ROW_CHECK)).tolist()
    if by_python:
        ih, ikongs = idx["hand"], idx.get("kongs")
        opt_cols = [idx.get(k) for k in INPUT_COLUMNS[1:7] + ("declared", "looked")]
        for i in by_python:
            row = part[i]
            try:
                if status[i] == K.ROW_CHECK:  # options and hand read: the later checks' turn
                    o = tuple(opt[i].tolist())
                    h = _kernel_hand(c[i], melds, int(nhand[i]), i)
                else:
                    key = tuple(row[j] if j is not None else "" for j in opt_cols)
                    o = _ROW_OPTS.get(key)
                    if o is None:
                        if len(_ROW_OPTS) > 65536:
                            _ROW_OPTS.clear()  # (the cache stays small whatever the input)
                        o = _ROW_OPTS[key] = _options(*key)
                    h = None
                kong_rows[i] = _prepare_slow(i, row, row[ih], o, ikongs, v, rv, c, own, ms, h)
                opt[i] = o
                if kong_rows[i] is not None:
                    kong[i] = kong_rows[i][0]
            except CcmjError as e:
                errors[i] = _in_columns(e.message)
                status[i] = K.ROW_ERROR
    active = buf["active"][:n]
    active[:] = status != K.ROW_ERROR
    win, how, winner, disc, decl = (
        buf[k][:n] for k in ("win", "how", "winner", "discarder", "declared")
    )
    win[:], how[:], winner[:], disc[:], decl[:] = (opt[:, j] for j in (0, 1, 2, 3, 6))
    res, fails, items, fan, pay = (buf[k][:n] for k in ("res", "fails", "items", "fan", "pay"))
    args = (c, ms, own, win, how, winner, disc, decl, active, S.DEALER, rv, tb)
    args += (res, fails, items, fan, pay)

    def finish():
        python_rows = set(kong_rows)  # rows the Python path prepared: it writes them too
        mode = np.zeros(n, np.int64)
        mode[has_error + [i for i in by_python if errors[i] is not None]] = 1
        base = opt[:, 5]
        amount = pay + kong
        if not as_json:
            amount_base = amount * base[:, None]
            big = np.abs(amount).max(axis=1) > _I64 // np.maximum(base, 1)
        else:
            total_max = np.abs(amount).max(axis=1)
            big = total_max > _I64 // np.maximum(base, 1)
        big &= mode == 0
        python_rows.update(np.flatnonzero(big).tolist())
        mode[list(python_rows)] = 2
        nfail = int((mode == 1).sum())
        texts: dict[int, str] = {i: errors[i] for i in np.flatnonzero(mode == 1).tolist()}
        if python_rows:
            texts.update(_python_rows(sorted(python_rows), part, width, opt, kong_rows, res,
                                      fails, items, fan, pay, kong, as_json, rv, columns, v,
                                      idx, c, own, ms))  # fmt: skip
        text, text_start = _text_table(texts, n)
        sig, sig_text, sig_start = _signatures(mode == 0, res, fails, items, fan, how, winner,
                                               disc, rv, as_json)  # fmt: skip
        keys, key_start = _keys_json(tuple(columns))
        size = data.shape[0] * (6 if as_json else 2) + text.shape[0] * 6
        size += n * (4096 + 2 * width + keys.shape[0] + int(np.diff(sig_start).max(initial=0)))
        out = _out_buffer(buf, size)
        if as_json:
            esc, esc_start = _json_escapes()
            fan_cap = int(rv[L.RV_CAP_FAN]) or -1
            k = K.write_json(data, cs, ce, mode, sig, sig_text, sig_start, text, text_start,
                             keys, key_start, esc, esc_start, opt, res, c, extra,
                             *melds, fan, pay, kong, fan_cap, rv, out)  # fmt: skip
        else:
            k = K.write_csv(data, cs, ce, mode, sig, sig_text, sig_start, text, text_start,
                            fan, amount_base, _quote_table(), out)  # fmt: skip
        return out[:k].tobytes().decode(), nfail

    return args, finish


def _out_buffer(buf, size):
    out = buf.get("out")
    if out is None or out.shape[0] < size:
        out = buf["out"] = np.empty(size, np.uint8)
    return out


def _table(pieces: list) -> tuple[np.ndarray, np.ndarray]:
    """(bytes, offsets) of a list of texts: piece k is ``bytes[offsets[k]:offsets[k + 1]]``."""
    encoded = [p.encode() if isinstance(p, str) else p for p in pieces]
    start = np.zeros(len(encoded) + 1, np.int64)
    start[1:] = np.cumsum(np.fromiter(map(len, encoded), np.int64, len(encoded)))
    return np.frombuffer(b"".join(encoded) + b" ", np.uint8), start


def _text_table(texts: dict[int, str], n: int) -> tuple[np.ndarray, np.ndarray]:
    """Row i's text (an error message, or a whole output line) in a table of ``n`` rows."""
    lengths = np.zeros(n + 1, np.int64)
    pieces = []
    for i in sorted(texts):
        b = texts[i].encode("utf-8", "surrogateescape")
        lengths[i + 1] = len(b)
        pieces.append(b)
    return np.frombuffer(b"".join(pieces) + b" ", np.uint8), np.cumsum(lengths)


@lru_cache(maxsize=16)
def _keys_json(columns: tuple) -> tuple[np.ndarray, np.ndarray]:
    """Each column's ``"name": `` in a JSON object, as a ``_table``."""
    return _table([_encode(c) + ": " for c in columns])


@lru_cache(maxsize=1)
def _quote_table() -> np.ndarray:
    """The ASCII characters that make ``csv.writer`` (as batch writes) quote a cell."""
    quote = np.zeros(128, np.bool_)
    for ch in range(128):
        out = io.StringIO()
        csv.writer(out, lineterminator="\n").writerow(["a" + chr(ch) + "b", "x"])
        quote[ch] = out.getvalue().startswith('"')
    return quote


@lru_cache(maxsize=1)
def _json_escapes() -> tuple[np.ndarray, np.ndarray]:
    """How ``json.dumps(..., ensure_ascii=False)`` writes each ASCII character inside a string:
    (replacement bytes, offsets); an empty replacement: the character itself."""
    pieces = []
    for ch in range(128):
        inner = _encode(chr(ch))[1:-1]
        pieces.append(inner if inner != chr(ch) else "")
    return _table(pieces)


_ROW_OPTS: dict = {}  # the options of rows the Python path reads (cells -> _options)
_SIGS: dict = {}  # (id of the rule vector, as_json) -> {outcome key: text}


def _signatures(scored_here, res, fails, items, fan, how, winner, disc, rv, as_json):
    """The text each scored row's outcome gives — CSV: legal, reasons, stands_for, fan_items;
    JSON: ``"legal": ..., "reasons": ..., "fan_items": ...`` — made once per outcome: (each
    row's outcome index, the texts' bytes, their offsets)."""
    n = res.shape[0]
    sig = np.zeros(n, np.int64)
    rows = np.flatnonzero(scored_here)
    if rows.size == 0:
        return (sig, *_table([]))
    it, f, r = items[rows], fan[rows], res[rows]
    look = r[:, 2]
    scored = np.where((how[rows] == L.HOW_MOBAO) & (look == LOOK_OK), r[:, 1], -1)
    charged = (f > 0) @ (1 << np.arange(L.N_SEATS, dtype=np.int64))
    key = (
        ((it != 0) @ (1 << np.arange(L.N_FAN, dtype=np.int64)))
        | r[:, 0] << 11
        | look << 18
        | fails[rows] << 20
        | winner[rows] << 26
        | (disc[rows] + 1) << 28
        | how[rows] << 31
        | charged << 34
    )
    if not as_json:
        key |= (scored + 1) << 38
    uniq, first, inv = np.unique(key, return_index=True, return_inverse=True)
    inv = inv.reshape(-1)
    if not (it == it[first][inv]).all():  # (fan values that differ under one item mask)
        full = np.concatenate([key[:, None], it], axis=1)
        uniq, first, inv = np.unique(full, axis=0, return_index=True, return_inverse=True)
        inv = inv.reshape(-1)
        uniq = [tuple(x) for x in uniq.tolist()]
    else:
        uniq = uniq.tolist()
    rv_key = id(rv)
    cache = _SIGS.setdefault((rv_key, as_json), {})
    if len(cache) > 65536:
        cache.clear()
    texts = []
    for k, j in zip(uniq, first.tolist(), strict=True):
        t = cache.get(k)
        if t is None:
            i = int(rows[j])
            ch = tuple(s for s in range(L.N_SEATS) if fan[i, s] > 0)
            args = (tuple(items[i].tolist()), int(winner[i]), int(disc[i]), int(how[i]))
            legal, look_i, fails_i = int(res[i, 0]), int(res[i, 2]), int(fails[i])
            if as_json:
                fan_json = _fan_json(*args, rv_key, ch) if legal else "[]"
                reasons = _encode(list(_reasons(legal, look_i, fails_i)))
                t = f'"legal": {"true" if legal else "false"}, "reasons": {reasons}, '
                t += f'"fan_items": {fan_json}'
            else:
                sig_tuple = (*args[0], legal, int(scored[j]), look_i, fails_i, *args[1:])
                t = _csv_cells(_prefix(sig_tuple, rv_key, ch))
            t = cache[k] = t.encode()
        texts.append(t)
    sig[rows] = inv
    return (sig, *_table(texts))


def _csv_cells(cells: list) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="").writerow(cells)
    return out.getvalue()


def _python_rows(rows, part, width, opt, kong_rows, res, fails, items, fan, pay, kong, as_json,
                 rv, columns, v, idx, c, own, ms):  # fmt: skip
    """The output lines of ``rows`` made the Python way (rows the Python parser read, and
    amounts beyond 64 bits): {row: line}."""
    sub = [part[i] for i in rows]
    no_error = [None] * len(rows)
    if as_json:
        for i in rows:
            if i not in kong_rows:  # (read by the kernels: its kong lines, the Python way)
                o = tuple(opt[i].tolist())
                kong_rows[i] = _prepare_slow(
                    i, part[i], part[i][idx["hand"]], o, idx.get("kongs"), v, rv, c, own, ms
                )
        opts = [tuple(opt[i].tolist()) for i in rows]
        kr = {j: kong_rows[i] for j, i in enumerate(rows)}
        lists = (x[rows].tolist() for x in (res, fails, items, fan, pay))
        lines, _ = _format_json(sub, width, no_error, opts, kr, *lists, rv, columns, v, idx,
                                [""] * len(rows))  # fmt: skip
        return dict(zip(rows, lines, strict=True))
    base = opt[rows, 5]
    out, _ = _format_csv(sub, width, no_error, res[rows], fails[rows], items[rows], fan[rows],
                         pay[rows], kong[rows], base, opt[rows, 1], opt[rows, 2], opt[rows, 3],
                         rv, idx.get("base"))  # fmt: skip
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    lines = {}
    for i, r in zip(rows, out, strict=True):
        start = buf.tell()
        w.writerow(r)
        lines[i] = buf.getvalue()[start:]
    return lines


def _prepare_chunk_python(part, width, idx, v, rv, tb, buf, as_json, columns, cols):
    """Read one chunk into ``buf`` the Python way (a chunk the bulk reader cannot split): (the
    arguments of ``score_many``, a function that formats the chunk's output)."""
    n = len(part)
    ih = idx["hand"]
    ikongs = idx.get("kongs")
    opt_cols = [
        idx.get(k) for k in ("win", "how", "seat", "from", "bao", "base", "declared", "looked")
    ]
    present = [i for i in opt_cols if i is not None]
    pick = operator.itemgetter(*present) if present else (lambda row: ())
    slots = [present.index(i) if i is not None else None for i in opt_cols]
    errors = _mark_row_errors(part, width)
    keys = list(map(pick, part)) if len(present) != 1 else [(pick(row),) for row in part]
    get = _OPTS.get
    opts: list = list(map(get, keys))
    for i, o in enumerate(opts):
        if o is None and errors[i] is None:
            key = keys[i]
            try:
                opts[i] = _OPTS[key] = _options(*(key[j] if j is not None else "" for j in slots))
            except CcmjError as e:
                errors[i] = _in_columns(e.message)
    for i, e in enumerate(errors):
        if e is not None:
            opts[i] = None
    hands = [row[ih] for row in part]
    table = np.array([_NO_ROW if o is None else o for o in opts], np.int64)  # one row per input
    drawn = table[:, 0].copy()
    drawn[[o is None for o in opts]] = -1
    slow = [i for i, row in enumerate(part) if row[ikongs]] if ikongs is not None else []
    data, starts, ends = encode_rows(hands)
    c, own, ms, ok = buf["c"][:n], buf["own"][:n], buf["ms"][:n], buf["ok"][:n]
    plain_many(data, starts, ends, drawn, c, own, ok)
    plain_text = None
    if as_json:  # the canonical hand text of the plain rows, in bulk
        text_buf = np.empty(19 * n, np.uint8)
        size = format_plain(data, starts, ends, c, drawn, ok, text_buf)
        plain_text = text_buf[:size].tobytes().decode("ascii").split("\n")
    ms[:] = 0
    kong_rows: dict[int, tuple] = {}
    redo = set(slow)
    redo.update(np.flatnonzero(ok == 0).tolist())
    for i in sorted(redo):
        if opts[i] is not None and errors[i] is None:
            try:
                kong_rows[i] = _prepare_slow(
                    i, part[i], hands[i], opts[i], ikongs, v, rv, c, own, ms
                )
            except CcmjError as e:
                errors[i] = _in_columns(e.message)
    active = buf["active"][:n]
    win, how, winner, disc, decl = (
        buf[k][:n] for k in ("win", "how", "winner", "discarder", "declared")
    )
    active[:] = [e is None for e in errors]
    win[:], how[:], winner[:], disc[:], decl[:] = (table[:, j] for j in (0, 1, 2, 3, 6))
    res, fails, items, fan, pay = (buf[k][:n] for k in ("res", "fails", "items", "fan", "pay"))
    args = (c, ms, own, win, how, winner, disc, decl, active, S.DEALER, rv, tb)
    args += (res, fails, items, fan, pay)
    base = table[:, 5]
    kong = np.zeros((n, L.N_SEATS), np.int64)
    for i, k in kong_rows.items():
        if k is not None and errors[i] is None:
            kong[i] = k[0]

    def finish():
        if as_json:
            lists = (x.tolist() for x in (res, fails, items, fan, pay))
            return _format_json(
                part, width, errors, opts, kong_rows, *lists, rv, columns, v, idx, plain_text
            )
        return _format_csv(
            part, width, errors, res, fails, items, fan, pay, kong, base, how, winner, disc, rv,
            idx.get("base"),
        )  # fmt: skip

    return args, finish


_NO_ROW = (0, 0, 0, -1, -1, 1, 0)
_PREFIXES: dict[int, dict[int, list]] = {}  # result signature -> text cells, per variant
_OPTS: dict = {}


def _cell(row, i):
    return row[i].strip() if i is not None and i < len(row) else ""


def _kernel_hand(typed, melds, nm: int, i: int) -> T.Hand:
    """The hand ``prepare_rows`` read for row ``i`` (its concealed tiles as typed, its first
    ``nm`` melds), as ``tiles.parse_hand`` gives it."""
    _, _, kinds, bus, lens, tiles = melds
    ms = tuple(
        T.Meld(int(kinds[i, m]), tuple(tiles[i, m, : lens[i, m]].tolist()), int(bus[i, m]))
        for m in range(nm)
    )
    return T.Hand(typed.copy(), ms, int(typed.sum()))


def _prepare_slow(i, row, hand, o, ikongs, v, rv, c, own, ms, h=None):
    """The Python way for one row (an error to word, or a spelling only the Python parser
    reads); ``h``: the hand, when the kernels have read it."""
    if h is None:
        h = S.parse_hand(hand, v)
    ci, owni = S.prepare_hand(h, o[0], hand)
    others = S.parse_kongs(_cell(row, ikongs), v, o[2])
    S._check_copies(owni, o[0], others, hand)
    S.check_one_per_kind([(o[2], m) for m in h.melds] + others, v)
    c[i] = ci
    own[i] = owni
    ms[i] = h.meld_summary()
    melds = [(o[2], m) for m in h.melds] + others
    if not melds:
        return None
    kong_pay, lines = S.kong_settlement(melds, rv)
    return kong_pay.tolist(), lines


def _prefix(sig: tuple, rv_key: int, charged: tuple) -> list:
    """legal, reasons, stands_for, fan_items for one result signature (see ``_format_csv``)."""
    items = sig[: L.N_FAN]
    legal, scored, look, fails, winner, disc, how = sig[L.N_FAN :]
    reasons = ";".join(_reasons(legal, look, fails))
    stands = T.tile_name(scored) if scored >= 0 else ""
    fan_txt = _fan_text(tuple(items), winner, disc, how, rv_key, charged) if legal else ""
    return ["true" if legal else "false", reasons, stands, fan_txt]


def _exact_base(row: list[str], ibase: int | None, base: int) -> int:
    """The row's base as a Python int (a base beyond int64 is re-read from its cell)."""
    return base if base != _HUGE_BASE else int(row[ibase])


def _format_csv(
    part, width, errors, res, fails, items, fan, pay, kong, base, how, winner, disc, rv, ibase
):
    """Output rows, vectorised: rows that share a result signature share their text cells."""
    amount = pay + kong  # base units
    # amount x base in int64 where it fits; exactly, in Python ints, where it does not
    big = (np.abs(amount).max(axis=1) > _I64 // np.maximum(base, 1)) | (base == _HUGE_BASE)
    tail = np.concatenate([fan, amount * base[:, None]], axis=1).tolist()
    for i in np.flatnonzero(big).tolist():
        b = _exact_base(part[i], ibase, int(base[i]))
        tail[i][L.N_SEATS :] = [x * b for x in amount[i].tolist()]
    scored = np.where((how == L.HOW_MOBAO) & (res[:, 2] == LOOK_OK), res[:, 1], -1)
    # which items are scored (their values come from the variant) + the rest of the outcome
    mask = (items != 0) @ (1 << np.arange(L.N_FAN, dtype=np.int64))
    key = (
        mask
        | res[:, 0] << 11
        | (scored + 1) << 12
        | res[:, 2] << 18
        | fails << 20
        | winner << 26
        | (disc + 1) << 28
        | how << 31
    )
    key[[e is not None for e in errors]] = -1  # rows in error have no outcome
    uniq, first, inv = np.unique(key, return_index=True, return_inverse=True)
    rv_key = id(rv)
    cache = _PREFIXES.setdefault(rv_key, {})
    texts = []
    for k, i in zip(uniq.tolist(), first.tolist(), strict=True):
        p = cache.get(k)
        if p is None:
            sig = (
                *items[i].tolist(),
                res[i, 0],
                scored[i],
                res[i, 2],
                fails[i],
                winner[i],
                disc[i],
                how[i],
            )
            charged = tuple(s for s in range(L.N_SEATS) if fan[i, s] > 0)
            p = cache[k] = _prefix(tuple(int(x) for x in sig), rv_key, charged)
        texts.append(p)
    prefixes = [texts[j] for j in inv.reshape(-1).tolist()]
    no_error = [""]
    out = [r + p + t + no_error for r, p, t in zip(part, prefixes, tail, strict=True)]
    blank = [""] * (len(RESULT_COLUMNS) - 1)
    nfail = 0
    for i, err in enumerate(errors):
        if err is not None:
            nfail += 1
            out[i] = part[i] + blank + [err]
    return out, nfail


_HOW_NAMES = {h: name for name, h in S.HOWS.items()}


@lru_cache(maxsize=65536)
def _hand_text(text: str, meld_rules: T.MeldRules) -> str:
    """The hand as ``ccmj score`` prints it (canonical MPSZ, melds last)."""
    return T.format_hand(S._parse(text, meld_rules))


_FAN_SLOT = "\x00fan_items"  # replaced by the cached fan items text
_FAN_SLOT_JSON = json.dumps(_FAN_SLOT)
_encode = json.JSONEncoder(ensure_ascii=False, check_circular=False).encode


def _format_json(
    part, width, errors, opts, kong_rows, res, fails, items, fan, pay, rv, columns, v, idx, plain
):
    """One JSON line per row: the ``ccmj score --json`` fields (``ScoreResult.to_dict``), then
    ``input`` (the row's cells by column name) and ``error`` (null). A row in error has only
    ``input`` and ``error``."""
    out = []
    nfail = 0
    names = T.tile_name
    seats = S.SEATS
    ih, ibase = idx["hand"], idx.get("base")
    fan_cap = int(rv[L.RV_CAP_FAN]) or None
    meld_rules = v.meld_rules
    no_kong = [0] * L.N_SEATS
    for i, row in enumerate(part):
        cells = row[:width] + [""] * (width - len(row)) if len(row) != width else row
        inp = dict(zip(columns, cells, strict=False))
        err = errors[i]
        if err is not None:
            nfail += 1
            out.append(_encode({"input": inp, "error": err}) + "\n")
            continue
        w, h_how, winner, disc, bao_t, base, _ = opts[i]
        base = _exact_base(row, ibase, base)
        legal, scored, look = res[i]
        kong = kong_rows.get(i)
        kong_pay = kong[0] if kong is not None else no_kong
        total = [a + b for a, b in zip(pay[i], kong_pay, strict=True)]
        charged = tuple(s for s in range(L.N_SEATS) if fan[i][s] > 0)
        fan_json = (
            _fan_json(tuple(items[i]), winner, disc, h_how, id(rv), charged) if legal else "[]"
        )
        d = {
            "hand": plain[i] or _hand_text(row[ih], meld_rules),
            "win": names(scored) if scored >= 0 else None,
            "how": _HOW_NAMES[h_how],
            "seat": seats[winner],
            "discarder": seats[disc] if disc >= 0 else None,
            "bao": names(bao_t) if bao_t >= 0 else None,
            "stands_for": names(scored) if h_how == L.HOW_MOBAO and look == LOOK_OK else None,
            "legal": bool(legal),
            "reasons": list(_reasons(legal, look, fails[i])),
            "fan_items": _FAN_SLOT,
            "fan_by_seat": dict(zip(seats, fan[i], strict=True)),
            "payments": dict(zip(seats, pay[i], strict=True)),
            "kongs": [
                {"seat": k.seat, "meld": k.meld, "value": k.value}
                for k in (kong[1] if kong is not None else ())
            ],
            "kong_payments": dict(zip(seats, kong_pay, strict=True)),
            "total": dict(zip(seats, total, strict=True)),
            "base": base,
            "total_amount": {s: x * base for s, x in zip(seats, total, strict=True)},
            "fan_cap": fan_cap,
            "input": inp,
            "error": None,
        }
        # the fan items text is cached per outcome: splice it in rather than re-encode it
        out.append(_encode(d).replace(_FAN_SLOT_JSON, fan_json, 1) + "\n")
    return out, nfail
