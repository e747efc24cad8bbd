"""The referee: recorded hands checked event by event by the table engine, and re-settled.

A record is (a) a ``ccmj simulate --log`` file, (b) a hand-written text record (one event a
line, ``docs/referee.md``) or (c) the JSON form of (b). Every hand is replayed by the table
engine in its scripted mode (``_kernels.table.referee``): the record decides for every seat, the
engine offers only what the rules allow at each point, and the first recorded event it does not
offer is reported with the rule code of the phase that refuses it (``codes``). The settlement
(payments, kong money, 包庄) is the engine's, compared with the record's own result.

>>> from ccmj_cli.referee import CODE_NAMES
>>> CODE_NAMES[11]
'locked_hand'
"""

import json
from dataclasses import dataclass, field

import numpy as np

from . import tiles as T
from ._kernels import layout as L
from ._kernels.table import layout as TL
from ._kernels.table.codes import CODE_NAMES
from .errors import HandError, UsageError, VariantError
from .rules import rule_vector
from .replay import (
    DECLARED_NAMES, HOW_NAMES, LOG_VERSION, SEATS, HandNumbers, check_header, check_record,
    event_fields_ok, event_text, log_rules,
)  # fmt: skip

ANY = TL.ANY
REC_COLS = TL.STOP_AT + 1
CODE_TEXT = {
    "not_your_turn": "this seat cannot act now",
    "tile_not_held": "the seat does not hold the tiles",
    "not_wall_tile": "a draw that is not the wall's next tile",
    "wall_ended": "an event after the hand ended (荒庄 or a win)",
    "wall_end_win_only": "a win-only draw at the wall's end",
    "claim_priority": "a higher claim takes the tile first",
    "no_such_meld": "the meld cannot be made from these tiles",
    "chow_not_from_left": "吃 only from the seat before",
    "shoubayi_no_claim": "a claim that leaves one tile in hand (手把一)",
    "guoshui": "过水: a win passed on this tile until the seat's next draw",
    "locked_hand": "the hand is locked after 报听",
    "not_tenpai": "报听 with no legal wait",
    "duanyaojiu_no_declare": "a 断幺九 hand may not declare",
    "special_kong_timing": "a special kong or 补 outside the turns the rules allow",
    "special_kong_repeat": "a second special kong of one kind",
    "no_such_kong": "a kong or 补 the hand and the wall do not allow",
    "look_without_declare": "a look at the bao without 报听 (or when the seat may not look)",
    "wrong_bao": "a bao, dice or roll that is not the rules'",
    "bao_change_not_allowed": "换宝 where it is not due or not a choice",
    "win_not_legal": "a win that is not a legal Changchun win here",
    "no_win_chance": "a win on a tile the seat was not offered",
    "wrong_settlement": "the record's result differs from the recomputed settlement",
    "bad_event": "an event the table does not make here",
    "must_discard": "the seat on turn must discard first",
    "not_drawn": "a draw by the wrong seat or from the wrong end",
    "missed_draw": "the record skips the replacement draw the table owes",
    "mobao_must_win": "a drawn bao that wins must be won on",
    "bao_kong_not_allowed": "the bao tile may not be taken for a kong here (bao_kong)",
}


@dataclass
class Hand:
    """One recorded hand: ``wall`` (a log's 136 tiles; a hand-written record's SCRIPT_WALL
    values, -1 where unknown, then its draws and bao tiles), ``events`` ([n, REC_COLS]),
    ``lines`` (the record line of each event, or None), ``result`` (the record's, or None)."""

    number: int
    dealer: int
    wall: np.ndarray
    dice: np.ndarray
    events: np.ndarray
    lines: list | None = None
    result: dict | None = None


@dataclass
class Record:
    """A record's variant (its rule vector and table parameters) and hands. A simulate log is
    read as it goes (``chunks``): ``hands`` is then None until ``all_hands``."""

    rules: str | dict  # a preset or file name, or every option (a log's header)
    rv: np.ndarray
    tp: np.ndarray
    hands: list | None = field(default_factory=list)
    path: str = ""
    variant: object = None  # the Variant a text or JSON record's rules load to

    def chunks(self, size: int = 4096):
        """The hands, ``size`` at a time (a log is read as it goes)."""
        if self.hands is not None:
            for a in range(0, len(self.hands), size):
                yield self.hands[a : a + size]
            return
        chunk = []
        for hand in _log_hands(self.path):
            chunk.append(hand)
            if len(chunk) == size:
                yield chunk
                chunk = []
        if chunk:
            yield chunk

    def verdicts(self, size: int = 8192):
        """The verdict of every hand, in order (a log's hands are read in bulk, ``size`` at a
        time: ``_log_batches``)."""
        if self.hands is None:
            for batch in _log_batches(self.path, size):
                yield from _referee_batch(self, batch)
            return
        for chunk in self.chunks():
            yield from referee_hands(self, chunk)

    def all_hands(self) -> list:
        if self.hands is None:
            self.hands = [h for c in self.chunks() for h in c]
        return self.hands


# ------------------------------------------------------------------ reading records
def _tile(text: str, where: str) -> int:
    try:
        return T.tile_index(text)
    except HandError as e:
        raise HandError(f"{where}: {e.message}") from None


MAX_RECORD_CHARS = 64 << 20  # a written record (text or JSON): a log is read as it streams


def _open_text(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read(MAX_RECORD_CHARS + 1)
        if len(text) > MAX_RECORD_CHARS:
            raise HandError(
                f"record '{path}' is larger than {MAX_RECORD_CHARS >> 20} MB: too large for a "
                "written record (a simulate log is read as it streams, at any size)"
            )
        return text
    except UnicodeDecodeError:
        raise HandError(f"record '{path}' is not UTF-8 text") from None
    except OSError as e:
        raise UsageError(f"cannot read record '{path}': {e.strerror or e}") from None


def load_record(path: str) -> Record:
    """Read a record of any of the three forms (one line naming the line/field if bad)."""
    try:
        with open(path, encoding="utf-8") as f:
            head = f.readline(1 << 20)
    except UnicodeDecodeError:
        raise HandError(f"record '{path}' is not UTF-8 text") from None
    except OSError as e:
        raise UsageError(f"cannot read record '{path}': {e.strerror or e}") from None
    if head.lstrip().startswith("{"):
        try:
            h = json.loads(head)
        except (ValueError, RecursionError):
            h = None
        if isinstance(h, dict) and "ccmj_log" in h:
            return _read_log(path, h)
    text = _open_text(path)
    first = text.lstrip()[:1]
    if first == "{":
        try:
            data = json.loads(text)
        except ValueError as e:
            raise HandError(f"record '{path}': not valid JSON ({e})") from None
        except RecursionError:
            raise HandError(f"record '{path}': not valid JSON (nested too deeply)") from None
        return _from_json(path, data)
    return _from_text(path, text)


def _variant(spec):
    from .rules import load_variant
    from .simulate import table_params

    v = load_variant(spec)
    return v, v.vector, table_params(v)  # (the array types a log's header gives too)


def _beside(path: str, rules):
    """A record's rules file named by a relative path is looked for beside the record first
    (a game and its room's rules kept together), then from the current folder."""
    from pathlib import Path

    from .rules import preset_names

    if not rules or rules in preset_names() or Path(rules).is_absolute():
        return rules
    near = Path(path).parent / rules
    return str(near) if near.is_file() else rules


_TILE_IDX = {T.tile_name(t): t for t in range(L.N_KINDS)}


def _read_log(path: str, header: dict) -> Record:
    if header.get("ccmj_log") != LOG_VERSION:
        raise HandError(
            f"record '{path}': a log of format {header.get('ccmj_log')}; this ccmj reads "
            f"format {LOG_VERSION} (write it again with ccmj simulate --log)"
        )
    check_header(path, header)  # (whole numbers, of the engine's lengths and ranges)
    rv = rule_vector(header["rv"])
    tp = np.array(header["tp"], np.int64)
    return Record(log_rules(header), rv, tp, None, path)


def _log_hands(path: str):
    """The hands of a simulate log, read as they come (the wall known: 136 tiles)."""
    with open(path, encoding="utf-8") as f:
        f.readline()
        for n, line in enumerate(f, start=2):
            if line.strip():
                yield _log_hand(path, n, line)


def _log_hand(path: str, n: int, line: str) -> Hand:
    """Line ``n`` of a simulate log, one logged hand (else one line naming the line)."""
    damaged = f"record '{path}': line {n} is not a logged hand (a damaged log?)"
    try:
        h = json.loads(line)
    except (ValueError, RecursionError):
        raise HandError(damaged) from None
    check_record(path, n, h)
    try:
        wall = np.array([_TILE_IDX[t] for t in h["wall"]], np.int8)
        if len(wall) != TL.N_WALL:
            raise ValueError("wall")
        evs = h["events"]
        ev = np.zeros((len(evs), REC_COLS), np.int16)
        if evs:
            ev[:, : TL.EV_COLS] = evs
        dice = np.array(h["dice"], np.int8)
        if len(dice) > TL.N_DICE:
            raise ValueError("dice")
        return Hand(int(h["hand"]), SEATS.index(h["dealer"]), wall, dice, ev, None,
                    h.get("result"))  # fmt: skip
    except (ValueError, KeyError, TypeError, IndexError, OverflowError):
        raise HandError(damaged) from None


@dataclass
class _LogBatch:
    """Hands of a simulate log read in bulk: the engine's arrays (``_arrays``' layout) and
    each hand's number and recorded result."""

    walls: np.ndarray
    dices: np.ndarray
    dealers: np.ndarray
    recs: np.ndarray
    offs: np.ndarray
    lens: np.ndarray
    numbers: list
    results: list

    def hand(self, i: int) -> Hand:
        a, n = int(self.offs[i]), int(self.lens[i])
        return Hand(self.numbers[i], int(self.dealers[i]), self.walls[i, : TL.N_WALL],
                    self.dices[i], self.recs[a : a + n], None, self.results[i])  # fmt: skip


_SEAT_IDX = {s: i for i, s in enumerate(SEATS)}


_SUIT_BASE = np.full(256, -100, np.int64)
for _i, _c in enumerate(b"mpsz"):
    _SUIT_BASE[_c] = 9 * _i - 1
_WALL_TEXT = 6 * TL.N_WALL - 2  # '"1m", ' a tile, as simulate writes the wall


def _cut(line: str):
    """A log line cut in three: its wall's text, its events' text (as simulate writes them:
    ``"wall": ["1m", ...], ``, ``"events": [[...], ...], ``) and the rest, still JSON; None
    when the line is not written that way (it is then read by ``json`` whole)."""
    ws = line.find('"wall": [')
    we = line.find("], ", ws)
    es = line.find('"events": [', we)
    if ws < 0 or we < 0 or es < 0:
        return None
    ee = line.find("]]", es) + 2 if line[es + 11 : es + 12] == "[" else es + 12
    if line[ee : ee + 2] != ", " or we - ws - 9 != _WALL_TEXT:
        return None
    return line[ws + 9 : we], line[es + 11 : ee - 1], line[:ws] + line[we + 3 : es] + line[ee + 2 :]


def _log_batches(path: str, size: int):
    """The hands of a simulate log, ``size`` at a time, parsed in bulk: the walls and events of
    the batch turned into arrays at once (numpy reads the numbers), each line's other fields
    by ``json``. A batch not written as simulate writes it is read hand by hand
    (``_log_hand``, which names a line that is not a logged hand)."""
    loads = json.loads
    numbers = HandNumbers(f"log '{path}'")
    with open(path, encoding="utf-8") as f:
        f.readline()
        lineno = 1
        while True:
            lines, nums = [], []
            for line in f:
                lineno += 1
                if line.strip():
                    lines.append(line)
                    nums.append(lineno)
                    if len(lines) == size:
                        break
            if not lines:
                return
            try:
                batch = _parse_batch(lines, loads)
            except (ValueError, KeyError, TypeError, IndexError, OverflowError):
                # not as simulate writes it (a log written again by other means?): hand by
                # hand, which names a line that is not a logged hand
                hands = [_log_hand(path, n, line) for n, line in zip(nums, lines, strict=True)]
                walls, dices, dealers, recs, offs, lens = _arrays(hands)
                batch = _LogBatch(walls, dices, dealers, recs, offs, lens,
                                  [h.number for h in hands], [h.result for h in hands])  # fmt: skip
            for number, line_no in zip(batch.numbers, nums, strict=True):
                numbers.add(number, line_no)
            yield batch


def _parse_batch(lines: list, loads) -> "_LogBatch":
    n = len(lines)
    cuts = [_cut(x) for x in lines]
    if any(c is None for c in cuts):
        raise ValueError("not as simulate writes a log")
    rests = [loads(c[2]) for c in cuts]
    for h in rests:  # (the fields besides the wall and the events: else read hand by hand)
        try:
            check_record("", 0, h, whole=False)
        except HandError:
            raise ValueError("fields") from None
    # the walls: '"8m", "5s", ...': the digit and the suit letter of tile k at 6k+1, 6k+2
    wb = np.frombuffer(", ".join(c[0] for c in cuts).encode("ascii"), np.uint8)
    if wb.size != n * (_WALL_TEXT + 2) - 2 or (wb[0::6] != 34).any() or (wb[3::6] != 34).any():
        raise ValueError("wall")
    digit = wb[1::6].astype(np.int64) - 48
    flat_w = _SUIT_BASE[wb[2::6]] + digit
    if (digit < 1).any() or (digit > 9).any() or (flat_w < 0).any() or (flat_w >= L.N_KINDS).any():
        raise ValueError("wall")
    # the events: '[2, 0, 9, 0, 0], [0, 1, 26, 0, 0]': rows of five numbers
    ev_text = [c[1] for c in cuts]
    lens = np.fromiter((t.count("[") for t in ev_text), np.int64, n)
    commas = np.fromiter((t.count(",") for t in ev_text), np.int64, n)
    if ((commas != np.maximum(5 * lens - 1, 0)) | (lens != np.fromiter(
            (t.count("]") for t in ev_text), np.int64, n))).any():  # fmt: skip
        raise ValueError("event")
    total = int(lens.sum())
    body = ",".join(t for t in ev_text if t).replace("[", " ").replace("]", " ")
    flat_e = np.fromstring(body, dtype=np.int64, sep=",") if total else np.zeros(0, np.int64)
    if flat_e.size != total * TL.EV_COLS:
        raise ValueError("event")
    if total and (flat_e.min() < -(1 << 15) or flat_e.max() >= 1 << 15):
        raise ValueError("event")  # (as the per-hand reader's int16 rows)
    if "." in body or "e" in body or "E" in body:
        raise ValueError("event")  # (not whole numbers: the per-hand reader names the line)
    if total:
        rows = flat_e.reshape(total, TL.EV_COLS)
        if not event_fields_ok(rows[:, 0], rows[:, 1], rows[:, 2]).all():
            raise ValueError("event")
    hand_kind = np.repeat(np.arange(n) * L.N_KINDS, TL.N_WALL) + flat_w
    if (np.bincount(hand_kind, minlength=n * L.N_KINDS) != 4).any():  # every tile four times
        raise ValueError("wall")
    dices = np.ones((n, TL.N_DICE), np.int64)
    for i, h in enumerate(rests):
        d = h["dice"]
        if len(d) > TL.N_DICE:
            raise ValueError("dice")
        dices[i, : len(d)] = d
    dealers = np.fromiter((_SEAT_IDX[h["dealer"]] for h in rests), np.int64, n)
    wall = np.full((n, TL.SCRIPT_WALL), -1, np.int64)
    wall[:, : TL.N_WALL] = flat_w.reshape(n, TL.N_WALL)
    recs = np.zeros((total, REC_COLS), np.int64)
    recs[:, : TL.EV_COLS] = flat_e.reshape(total, TL.EV_COLS)
    offs = np.zeros(n, np.int64)
    np.cumsum(lens[:-1], out=offs[1:])
    return _LogBatch(wall, dices, dealers, recs, offs, lens, [int(h["hand"]) for h in rests],
                     [h.get("result") for h in rests])  # fmt: skip


# --- the hand-written form: one event a line (docs/referee.md)
_SPECIAL_KIND = (L.MELD_XUANFENG, L.MELD_XI, L.MELD_YAODAN, L.MELD_JIUDAN)
HOW_WORDS = {"win": ANY, "zimo": L.HOW_SELF, "mobao": L.HOW_MOBAO, "duibao": L.HOW_DUIBAO}


def _special_kind(tiles):
    """The special kong a laid-out group names (notation only: its members, 1s standing in)."""
    if any(L.HONOR <= t < L.HONOR + 4 for t in tiles):
        return L.MELD_XUANFENG
    if any(t >= L.HONOR + 4 for t in tiles):
        return L.MELD_XI
    if any(t % 9 == 8 for t in tiles):
        return L.MELD_JIUDAN
    return L.MELD_YAODAN


class _HandBuilder:
    def __init__(self, where, number):
        self.where = where
        self.number = number
        self.dealer = None
        self.deal = {}
        self.events = []
        self.lines = []
        self.dice = []
        self.head, self.tail, self.bao = [], [], []
        self.result = None

    def add(self, row, line):
        r = list(row) + [0] * (REC_COLS - len(row))
        self.events.append(r)
        self.lines.append(line)

    def build(self) -> Hand:
        w = self.where
        if self.dealer is None:
            raise HandError(f"{w}: hand {self.number} has no 'dealer' line")
        wall = np.full(TL.SCRIPT_WALL, -1, np.int64)
        counts = np.zeros(L.N_KINDS, np.int64)
        for k in range(4):
            s = (self.dealer + k) % 4
            if SEATS[s] not in self.deal:
                raise HandError(f"{w}: hand {self.number} has no 'deal {SEATS[s]}' line")
            tiles, line = self.deal[SEATS[s]]
            need = 14 if k == 0 else 13
            if len(tiles) != need:
                raise HandError(
                    f"{w}: line {line}: 'deal {SEATS[s]}' holds {len(tiles)} tiles, not {need}"
                )
            wall[13 * k : 13 * k + 13] = tiles[:13]
            if k == 0:
                wall[52] = tiles[13]
            for t in tiles:
                counts[t] += 1
        for q, src in ((TL.WQ_HEAD, self.head), (TL.WQ_TAIL, self.tail), (TL.WQ_BAO, self.bao)):
            for i, (t, line) in enumerate(src):
                wall[q + i] = t
                if q != TL.WQ_BAO:
                    counts[t] += 1
                    if counts[t] > 4:
                        raise HandError(
                            f"{w}: line {line}: a fifth {T.tile_name(t)} (dealt and drawn)"
                        )
        over = np.flatnonzero(counts > 4)
        if len(over):
            raise HandError(f"{w}: hand {self.number}: the deal holds five {T.tile_name(over[0])}")
        dice = np.ones(TL.N_DICE, np.int64)
        dice[: len(self.dice)] = self.dice[: TL.N_DICE]
        ev = np.array(self.events, np.int64).reshape(-1, REC_COLS)
        return Hand(self.number, self.dealer, wall, dice, ev, self.lines, self.result)


def _seat(word, where):
    if word not in SEATS:
        raise HandError(f"{where}: '{word}' is not a seat (E, S, W or N)")
    return SEATS.index(word)


def _parse_event(b: _HandBuilder, words: list[str], where: str, line):
    """One event line: 'SEAT ACTION [TILE] [from SEAT]' or a table line (bao, huang, ...)."""
    w0 = words[0]
    rest = words[1:]

    def opt_from(ws):
        if "from" in ws:
            i = ws.index("from")
            if i + 1 >= len(ws):
                raise HandError(f"{where}: 'from' names no seat")
            return _seat(ws[i + 1], where), ws[:i] + ws[i + 2 :]
        return ANY, ws

    def opt_dice(ws):
        if "dice" in ws:
            i = ws.index("dice")
            ds = []
            for x in ws[i + 1 :]:
                if not (x.isdigit() and 1 <= int(x) <= 6):
                    raise HandError(f"{where}: bad die '{x}' (1 to 6)")
                ds.append(int(x))
            if not ds:
                raise HandError(f"{where}: 'dice' names no die")
            b.dice.extend(ds)
            return sum(ds), ws[:i]
        return ANY, ws

    def opt_by(ws):
        if "by" in ws:
            i = ws.index("by")
            if i + 1 >= len(ws):
                raise HandError(f"{where}: 'by' names no seat")
            return _seat(ws[i + 1], where), ws[:i] + ws[i + 2 :]
        return ANY, ws

    if w0 in ("bao", "nobao", "baochange"):
        seat, ws = opt_by(rest)
        total, ws = opt_dice(ws)
        if w0 == "nobao":
            b.add([TL.EV_NO_BAO, seat, -1, total, -1], line)
            return
        if len(ws) != 1:
            raise HandError(f"{where}: '{w0}' needs one tile, e.g. '{w0} 5m'")
        t = _tile(ws[0], where)
        if w0 == "bao":
            b.bao.append((t, line))
            b.add([TL.EV_BAO, seat, t, total, ANY], line)
        else:
            b.add([TL.EV_BAO_CHANGE, -1 if seat == ANY else seat, t, 0, 0], line)
        return
    if w0 == "huang":
        b.add([TL.EV_HUANG, -1, -1, 0, 0], line)
        return
    s = _seat(w0, where)
    if not rest:
        raise HandError(f"{where}: no action after the seat")
    act, args = rest[0], rest[1:]
    src, args = opt_from(args)

    def one_tile():
        if len(args) != 1:
            raise HandError(f"{where}: '{act}' needs one tile, e.g. '{w0} {act} 5m'")
        return _tile(args[0], where)

    if act == "draw":
        t = one_tile()
        b.head.append((t, line))
        b.add([TL.EV_DRAW, s, t, 0, 0], line)
    elif act == "tail":
        t = one_tile()
        b.tail.append((t, line))
        b.add([TL.EV_TAIL, s, t, 0, 0], line)
    elif act == "discard":
        b.add([TL.EV_DISCARD, s, one_tile(), 0, 0], line)
    elif act == "declare":
        b.add([TL.EV_DECLARE, s, -1, 0, 0], line)
    elif act == "pung":
        b.add([TL.EV_PUNG, s, one_tile(), 0, src], line)
    elif act == "kong":
        b.add([TL.EV_MINGKONG, s, one_tile(), 0, src], line)
    elif act == "chow":
        if len(args) not in (1, 2):
            raise HandError(f"{where}: 'chow' needs the tile and the chow, e.g. 'chow 4m 345m'")
        t = _tile(args[0], where)
        lo = ANY
        if len(args) == 2:
            ts = sorted(T.parse_tiles(args[1], "chow"))
            if len(ts) != 3 or ts[1] != ts[0] + 1 or ts[2] != ts[0] + 2 or t not in ts:
                raise HandError(f"{where}: '{args[1]}' is not a chow with {args[0]}")
            lo = ts[0]
        b.add([TL.EV_CHOW, s, t, lo, src], line)
    elif act == "ankong":
        b.add([TL.EV_ANKONG, s, one_tile(), 0, 0], line)
    elif act == "jiagang":
        b.add([TL.EV_JIAGANG, s, one_tile(), 0, 0], line)
    elif act == "bu":
        b.add([TL.EV_BU, s, one_tile(), ANY, 0], line)
    elif act == "baokong":  # 用宝: the bao tile taken out of the wall for a kong
        b.add([TL.EV_BAO_KONG, s, one_tile(), ANY, ANY], line)
    elif act == "special":
        if len(args) != 1:
            raise HandError(f"{where}: 'special' needs its tiles, e.g. 'special 1234z'")
        text = args[0].strip("[]")
        if text.startswith("(") and text.endswith(")"):  # a 大蛋 laid as three: 'special (777z)'
            ts = T.parse_tiles(text[1:-1], "大蛋")
            if len(ts) != 3 or len(set(ts)) != 1 or ts[0] not in T.DADAN:
                raise HandError(f"{where}: '{args[0]}': a 大蛋 laid as three is three 1s, 1p, "
                                "5z, 6z or 7z, e.g. '(777z)'")  # fmt: skip
            b.add([TL.EV_SPECIAL, s, ts[0], L.MELD_ANKONG, 3], line)
            return
        san = text.startswith(T.SANYAOJI_MARK)  # 三幺鸡: 'special *111s'
        try:
            ts = T.parse_tiles(text.lstrip(T.SANYAOJI_MARK), "special kong")
        except HandError as e:
            raise HandError(f"{where}: {e.message}") from None
        if not 3 <= len(ts) <= 4 or any(t < L.HONOR and t % 9 not in (0, 8) for t in ts):
            raise HandError(f"{where}: '{args[0]}' is not a special kong (three or four winds, "
                            "dragons, 1s or 9s, e.g. 'special 1234z')")  # fmt: skip
        rest = list(ts)
        if san:
            if ts.count(L.ONE_S) < 3:
                raise HandError(f"{where}: '{args[0]}': a 三幺鸡 (*) has three 1s, e.g. '*111s'")
            for _ in range(3):
                rest.remove(L.ONE_S)
        first = L.ONE_S if san else ANY  # (the table lays a 三幺鸡's three 1s first)
        b.add([TL.EV_SPECIAL, s, first, _special_kind(rest), len(ts)], line)
    elif act == "look":
        t = _tile(args[0], where) if args else ANY
        b.add([TL.EV_LOOK, s, t, 0, 0], line)
    elif act == "pass":
        b.add([TL.EV_PASS, s, one_tile(), 0, 0], line)
    elif act == "rob":  # 抢杠胡 (then the win line)
        b.add([TL.EV_KONG_ROBBED, s, one_tile(), 1, src], line)
    elif act == "robpung":  # 抢叉
        t = one_tile()
        b.add([TL.EV_KONG_ROBBED, s, t, 0, src], line)
        b.add([TL.EV_ROB_PUNG, s, t, 0, src], line)
    elif act in HOW_WORDS:
        t = one_tile()
        how = HOW_WORDS[act]
        if src != ANY:
            how = L.HOW_DISCARD
        elif act == "win":
            how, src = ANY, -1
        else:
            src = -1
        b.add([TL.EV_WIN, s, t, how, src], line)
    else:
        raise HandError(
            f"{where}: unknown action '{act}' (draw, tail, discard, declare, chow, pung, kong, "
            "ankong, jiagang, special, bu, look, pass, rob, robpung, win, zimo, mobao, duibao)"
        )


def _payout(words, where):
    out = {}
    if len(words) != 8:
        raise HandError(f"{where}: 'payout' needs four seats, e.g. 'payout E 6 S -2 W -2 N -2'")
    for i in range(0, 8, 2):
        try:
            out[SEATS[_seat(words[i], where)]] = int(words[i + 1])
        except ValueError:
            raise HandError(f"{where}: '{words[i + 1]}' is not a whole number") from None
    return out


def _from_text(path: str, text: str) -> Record:
    rules = None
    hands = []
    b = None
    for n, raw in enumerate(text.split("\n"), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        where = f"record '{path}': line {n}"
        words = line.split()
        key = words[0]
        if key == "rules":
            if b is not None or rules is not None:
                raise HandError(f"{where}: 'rules' comes once, before the first hand")
            rules = " ".join(words[1:])
            continue
        if key == "hand" or b is None:
            if b is not None:
                hands.append(b.build())
            num = len(hands) + 1
            if key == "hand":
                if len(words) != 2 or not words[1].isdigit():
                    raise HandError(f"{where}: 'hand' takes the hand's number")
                num = int(words[1])
            b = _HandBuilder(f"record '{path}'", num)
            if key == "hand":
                continue
        if key == "dealer":
            b.dealer = _seat(words[1] if len(words) > 1 else "", where)
        elif key == "deal":
            if len(words) != 3:
                raise HandError(f"{where}: 'deal' takes a seat and its tiles")
            s = SEATS[_seat(words[1], where)]
            try:
                b.deal[s] = (T.parse_tiles(words[2], "deal"), n)
            except HandError as e:
                raise HandError(f"{where}: {e.message}") from None
        elif key == "payout":
            b.result = {"payout": _payout(words[1:], where)}
        else:
            _parse_event(b, words, where, n)
    if b is not None:
        hands.append(b.build())
    if not hands:
        raise HandError(f"record '{path}' holds no hand")
    _each_once(path, hands)
    v, rv, tp = _variant(_beside(path, rules))
    return Record(v.name, rv, tp, hands, path, v)


def _each_once(path: str, hands) -> None:
    numbers = HandNumbers(f"record '{path}'")
    for h in hands:
        numbers.add(h.number)


def _from_json(path: str, data) -> Record:
    """The JSON form: {"rules": ..., "hands": [{"hand", "dealer", "deal": {seat: tiles},
    "events": ["E draw 5m", ...], "payout": {...}}]}: each event the text form's line."""
    if not isinstance(data, dict) or not isinstance(data.get("hands"), list):
        raise HandError(f"record '{path}': a JSON record is an object with a 'hands' list")
    if not data["hands"]:
        raise HandError(f"record '{path}' holds no hand")
    rules = data.get("rules")
    if rules is not None and not isinstance(rules, str):
        raise HandError(f"record '{path}': 'rules' is a preset name or a rules file")
    hands = []
    for i, h in enumerate(data["hands"]):
        where = f"record '{path}': hands[{i}]"
        if not isinstance(h, dict):
            raise HandError(f"{where} is not an object")
        number = h.get("hand", i + 1)
        if not isinstance(number, int) or isinstance(number, bool) or number < 1:
            raise HandError(f"{where}.hand is not a hand number (a whole number from 1)")
        b = _HandBuilder(f"record '{path}'", number)
        b.dealer = _seat(h.get("dealer"), f"{where}.dealer")
        deal = h.get("deal")
        if not isinstance(deal, dict):
            raise HandError(f"{where}.deal is not an object of seats' tiles")
        for s, tiles in deal.items():
            _seat(s, f"{where}.deal")
            if not isinstance(tiles, str):
                raise HandError(f"{where}.deal.{s} is not tiles")
            b.deal[s] = (T.parse_tiles(tiles, "deal"), f"{where}.deal.{s}")
        evs = h.get("events")
        if not isinstance(evs, list):
            raise HandError(f"{where}.events is not a list")
        for j, e in enumerate(evs):
            if not isinstance(e, str) or not e.split():
                raise HandError(f"{where}.events[{j}] is not an event line")
            _parse_event(b, e.split(), f"{where}.events[{j}]", j)
        if "payout" in h:
            p = h["payout"]
            if not (isinstance(p, dict) and set(p) == set(SEATS)
                    and all(isinstance(x, int) and not isinstance(x, bool)
                            for x in p.values())):  # fmt: skip
                raise HandError(f"{where}.payout is not a whole number per seat")
            b.result = {"payout": p}
        hands.append(b.build())
    _each_once(path, hands)
    v, rv, tp = _variant(_beside(path, rules))
    return Record(v.name, rv, tp, hands, path, v)


# ------------------------------------------------------------------ refereeing
def settlement(res) -> dict:
    """The recomputed outcome of a hand from its R_* vector (the record's result keys)."""
    res = res.tolist() if hasattr(res, "tolist") else res  # (Python ints: one conversion)
    w = res[TL.R_WINNER]
    dd = res[TL.R_DISCARDER_DECLARED]
    pay, kong = TL.R_PAY, TL.R_KONG_PAY
    return {
        "winner": SEATS[w] if w >= 0 else None,
        "how": HOW_NAMES[res[TL.R_HOW]] if w >= 0 else "huang",
        "tile": T.tile_name(res[TL.R_TILE]) if w >= 0 else None,
        "discarder": SEATS[res[TL.R_DISCARDER]] if res[TL.R_DISCARDER] >= 0 else None,
        "discarder_declared": DECLARED_NAMES[dd] if dd >= 0 else None,
        "fan": res[TL.R_FAN] if w >= 0 else 0,
        "payout": dict(zip(SEATS, res[pay : pay + 4], strict=True)),
        "kong_money": dict(zip(SEATS, res[kong : kong + 4], strict=True)),
        "next_dealer": SEATS[res[TL.R_NEXT_DEALER]],
    }


def _row_text(row) -> str:
    r = [(-1 if int(x) == ANY else int(x)) for x in row[: TL.EV_COLS]]
    try:
        return event_text(r)
    except (IndexError, KeyError, ValueError, HandError):
        return "an event the engine does not know"


def _problem(hand: Hand, i: int, code: int, offered=None) -> dict:
    name = CODE_NAMES[code]
    if 0 <= i < len(hand.events):
        what = _row_text(hand.events[i])
        if hand.lines is not None:
            what = f"line {hand.lines[i]}: {what}"
    else:
        what = "the record ends"
    msg = f"{what}: {CODE_TEXT.get(name, name)}"
    if offered is not None and offered[0] >= 0:
        msg += f" (the table's event here: {_row_text(offered)})"
    return {"event": int(i), "rule": name, "message": msg}


def _verdict(hand: Hand, res, stop) -> dict:
    code, at = int(stop[0]), int(stop[1])
    problems = []
    n = len(hand.events)
    if n == 0:  # (nothing to check: the hand was not written down)
        p = _problem(hand, 0, 23)
        p["message"] = "the record holds no event of this hand"
        return {"hand": hand.number, "ok": False, "problems": [p], "settlement": None}
    if code > 0:
        off = stop[2:] if int(stop[2]) >= 0 and code in _OFFERED else None
        problems.append(_problem(hand, at, code, off))
    elif code == -2:
        p = _problem(hand, at, 23, stop[2:])
        p["message"] = f"the record ends before the hand does (the table's event here: {_row_text(stop[2:])})"
        problems.append(p)
    elif int(res[TL.R_N_EVENTS]) < n:
        problems.append(_problem(hand, int(res[TL.R_N_EVENTS]), 4))
    settle = settlement(res) if not problems else None
    if settle is not None and hand.result:
        diff = [k for k in settle if k in hand.result and hand.result[k] != settle[k]]
        if diff:
            p = _problem(hand, n - 1, 22)
            p["message"] = "the record's result differs from the recomputed settlement: " + (
                "; ".join(f"{k} {hand.result[k]} recorded, {settle[k]} by the rules" for k in diff)
            )
            problems.append(p)
    return {"hand": hand.number, "ok": not problems, "problems": problems, "settlement": settle}


_OFFERED = set(range(1, 30))


def _arrays(hands):
    n = len(hands)
    walls = np.full((n, TL.SCRIPT_WALL), -1, np.int64)
    dices = np.ones((n, TL.N_DICE), np.int64)
    for i, h in enumerate(hands):
        walls[i, : len(h.wall)] = h.wall
        dices[i, : len(h.dice)] = h.dice
    dealers = np.array([h.dealer for h in hands], np.int64)
    lens = np.array([len(h.events) for h in hands], np.int64)
    offs = np.concatenate([[0], np.cumsum(lens)[:-1]]).astype(np.int64)
    recs = np.concatenate([h.events for h in hands]) if n else np.zeros((0, REC_COLS), np.int64)
    return walls, dices, dealers, np.ascontiguousarray(recs, np.int64), offs, lens


def referee_hands(record: Record, hands=None) -> list[dict]:
    """The verdict of each hand (all of ``record``'s, or ``hands``: a chunk)."""
    from ._kernels.table.referee import STOP_COLS, referee_pieces
    from ._kernels.tables import tables
    from ._kernels.useful import useful_tables
    from numba import get_num_threads

    hands = record.all_hands() if hands is None else hands
    if not hands:
        return []
    walls, dices, dealers, recs, offs, lens = _arrays(hands)
    n = len(hands)
    res = np.zeros((n, TL.R_LEN), np.int64)
    stop = np.zeros((n, STOP_COLS), np.int64)
    pieces = max(1, min(n, 4 * get_num_threads()))
    referee_pieces(walls, dices, dealers, recs, offs, lens, record.rv, tables(), useful_tables(),
                   record.tp, res, stop, pieces)  # fmt: skip
    return [_verdict(h, res[i], stop[i]) for i, h in enumerate(hands)]


def _referee_batch(record: Record, batch: _LogBatch):
    """The verdicts of a log's batch of hands (``referee_hands`` without the Hand objects: a
    hand that is not legal is built for its message only)."""
    from ._kernels.table.referee import STOP_COLS, referee_pieces
    from ._kernels.tables import tables
    from ._kernels.useful import useful_tables
    from numba import get_num_threads

    n = len(batch.numbers)
    res = np.zeros((n, TL.R_LEN), np.int64)
    stop = np.zeros((n, STOP_COLS), np.int64)
    pieces = max(1, min(n, 4 * get_num_threads()))
    referee_pieces(batch.walls, batch.dices, batch.dealers, batch.recs, batch.offs, batch.lens,
                   record.rv, tables(), useful_tables(), record.tp, res, stop, pieces)  # fmt: skip
    # legal as far as the engine goes: it stopped nowhere and made every recorded event
    clean = (stop[:, 0] == 0) & (res[:, TL.R_N_EVENTS] >= batch.lens)
    for i in range(n):
        if not clean[i]:
            yield _verdict(batch.hand(i), res[i], stop[i])
            continue
        settle = settlement(res[i])
        rec = batch.results[i]
        if rec and any(k in rec and rec[k] != settle[k] for k in settle):
            yield _verdict(batch.hand(i), res[i], stop[i])
            continue
        yield {"hand": batch.numbers[i], "ok": True, "problems": [], "settlement": settle}


def made_events(record: Record, hands: list) -> list[tuple[list, dict | None]]:
    """Each hand's events as the table made them (the record's own, with the fields it leaves
    open filled in: a win's kind, a roll's seat ...) up to its first illegal event, and that
    event's problem (None: legal as far as the record goes; a record that stops before the
    hand ends, or a settlement that differs, is no problem here)."""
    out = []
    for h, verdict in zip(hands, referee_hands(record, hands), strict=True):
        problem = next((p for p in verdict["problems"] if p["rule"] != "wrong_settlement"
                        and p["event"] < len(h.events)), None)  # fmt: skip
        made = _replay(h, h.events, record.rv, record.tp)[3]
        n = problem["event"] if problem else len(h.events)
        out.append((made[:n, : TL.EV_COLS].tolist(), problem))
    return out


def referee(record) -> list[dict]:
    """Check every hand of a record (a path or a ``Record``): a verdict per hand, ``{"hand",
    "ok", "problems": [{"event", "rule", "message"}], "settlement"}``."""
    if not isinstance(record, Record):
        record = load_record(str(record))
    return list(record.verdicts())


def _phase_after(tab, row, before) -> None:
    """What the table waits for right after the event ``row``: the replay stops inside a phase,
    before the driver moves on, so the phase is the event's own consequence (a discard is on
    offer, a claimed meld or a draw leaves its seat to play, a kong owes a replacement draw; at
    a 抢杠 the table is shown as it was when the tile was added, before the robbing seat took
    it)."""
    g, conc = tab[0], tab[2]
    k, s, t = int(row[0]), int(row[1]), int(row[2])
    if k in (TL.EV_DRAW, TL.EV_TAIL):
        g[TL.G_PHASE], g[TL.G_CUR], g[TL.G_DRAWN] = TL.PH_SELF, s, t
    elif k == TL.EV_DISCARD:
        g[TL.G_PHASE], g[TL.G_CUR], g[TL.G_PENDING] = TL.PH_CLAIM, s, t
    elif k in (TL.EV_CHOW, TL.EV_PUNG, TL.EV_ROB_PUNG):
        g[TL.G_PHASE], g[TL.G_CUR], g[TL.G_DRAWN] = TL.PH_SELF, s, -1
    elif k == TL.EV_SPECIAL and int(row[4]) <= 3:  # (three tiles: a set, no replacement draw)
        g[TL.G_PHASE], g[TL.G_CUR] = TL.PH_SELF, s  # (his draw, if any, is still his draw)
    elif k in (TL.EV_MINGKONG, TL.EV_ANKONG, TL.EV_SPECIAL, TL.EV_JIAGANG, TL.EV_BU,
               TL.EV_BAO_KONG):
        # (a 加杠 / 补 is recorded once nobody robbed it: its replacement draw is owed; the
        # moment it could be robbed is the position at a robbing, EV_KONG_ROBBED)
        g[TL.G_PHASE], g[TL.G_CUR] = TL.PH_DRAW, s
    elif k == TL.EV_DECLARE and before is not None and int(before[0]) == TL.EV_DISCARD:
        # declared with that discard: it is still on offer
        g[TL.G_PHASE], g[TL.G_CUR], g[TL.G_PENDING] = TL.PH_CLAIM, s, int(before[2])
        g[TL.G_DECL_DISC] = s
    elif k in (TL.EV_BAO, TL.EV_LOOK, TL.EV_BAO_CHANGE, TL.EV_NO_BAO) and g[TL.G_DRAWN] >= 0:
        g[TL.G_PHASE] = TL.PH_SELF  # (at a declared seat's draw: the tile is in his hand)
    elif k == TL.EV_KONG_ROBBED:
        src = int(row[4])
        if int(row[3]):  # 抢杠胡: the robber's tile back (the win is the next event)
            conc[s, t] -= 1
            g[TL.G_WINNER] = -1
        else:  # 抢叉: his pung undone (the ROB_PUNG event after it is the pung)
            _g, _ps, _c, melded, _ak, pungs, _tk, _ms, mrec, nm, _pond, exposed, _kp = tab
            nm[s] -= 1
            conc[s, t] += 2
            melded[s, t] -= 3
            exposed[t] -= 3
            pungs[s, t] = 0
        g[TL.G_PHASE], g[TL.G_CUR], g[TL.G_PENDING] = TL.PH_ROB, src, t
        g[TL.G_PEND_KIND] = 1 if tab[5][src, t] else 2
    elif k in (TL.EV_WIN, TL.EV_HUANG):
        g[TL.G_PHASE] = TL.PH_OVER


def _replay(h: Hand, rows, rv, tp):
    """Hand h replayed by the engine from the record ``rows`` (to a STOP_AT row, or its end):
    (table state, stop code, its event, the events as made)."""
    from ._kernels.table.referee import replay_to
    from ._kernels.tables import tables
    from ._kernels.useful import useful_tables

    walls, dices = _arrays([h])[:2]
    res = np.zeros(TL.R_LEN, np.int64)
    return replay_to(walls[0], h.dealer, dices[0], np.ascontiguousarray(rows, np.int64), rv,
                     tables(), useful_tables(), tp, res)  # fmt: skip


def _replayed_to(h: Hand, event: int, rv, tp):
    """Hand h replayed to its event ``event`` (the table as that event leaves it,
    ``_phase_after``): (table state, whether the replay got there, its stop code and event,
    the events as made: resolved up to where it stopped)."""
    ev = np.ascontiguousarray(h.events, np.int64).copy()
    ev[event, TL.STOP_AT] = 1
    tab, code, at, made = _replay(h, ev, rv, tp)
    code, at = int(code), int(at)
    reached = code == -1
    _phase_after(tab, made[event] if reached else h.events[event],
                 (made if reached else h.events)[event - 1] if event else None)  # fmt: skip
    return tab, reached, code, at, made


def head_draws_left_after(h: Hand, event: int, rv, tp) -> int:
    """The draws from the wall's head still to come after event ``event`` of hand h, if no
    further kong is made (the dead wall as the kongs so far have grown it, the bao stepped
    over): the table engine's count (``wall.head_draws_left``)."""
    from ._kernels.table.wall import head_draws_left

    tab = _replayed_to(h, event, rv, tp)[0]
    return int(head_draws_left(tab[0], tp, rv))


def position_after(h: Hand, event: int, rv, tp, variant):
    """The position right after event ``event`` of hand h (the JSON form ``ccmj actions``
    reads), legal as far as that; None where the replay stops before it."""
    from .position import position_from_state

    tab, reached, _code, _at, made = _replayed_to(h, event, rv, tp)
    return position_from_state(tab, made, event + 1, variant) if reached else None


def dealt(h: Hand) -> list[list[int]]:
    """Each seat's dealt tiles (E S W N), as the engine deals the wall (``wall.deal``): 13
    each from the dealer on, the dealer's 14th at position 52."""
    out = [[] for _ in range(4)]
    for k in range(4):
        out[(h.dealer + k) % 4] = [int(t) for t in h.wall[13 * k : 13 * k + 13]]
    out[h.dealer].append(int(h.wall[52]))
    return out


def position_before(h: Hand, event: int, rv, tp, variant):
    """The position right before event ``event`` of hand h: after event - 1, or the deal (the
    dealer on turn with his 14 tiles) before event 0."""
    if event > 0:
        return position_after(h, event - 1, rv, tp, variant)
    from .position import Position, _written

    seats = {SEATS[s]: {"hand": T.format_tiles(tiles), "pond": [], "first_turn": True}
             for s, tiles in enumerate(dealt(h))}  # fmt: skip
    return Position.from_json({
        "rules": _written(variant), "dealer": SEATS[h.dealer], "seats": seats,
        "wall": {"left": TL.N_WALL - 53, "tail_draws": 0, "kongs": 0},
        "last": {"event": "deal", "seat": SEATS[h.dealer], "tile": T.tile_name(int(h.wall[52]))},
    }, variant)  # fmt: skip


def state_at(record: Record, hand_index: int, event: int) -> dict:
    """The table after event ``event`` (0-based) of a hand: its position (the JSON that
    ``ccmj actions`` reads), or, when the record's rules cannot be loaded, the engine's state
    arrays (``_kernels.table.state``) by name, as plain lists."""
    h = record.all_hands()[hand_index]
    if not 0 <= event < len(h.events):
        held = f"events 0 to {len(h.events) - 1}" if len(h.events) else "no event"
        raise UsageError(f"bad --at {event}: hand {h.number} has {held}")
    if int(h.events[event, 0]) in (TL.EV_WIN, TL.EV_HUANG):
        raise UsageError(f"bad --at {event}: event {event} of hand {h.number} ends the hand "
                         f"(no seat acts after it); --at {event - 1} is the last position")
    tab, reached, code, at, made = _replayed_to(h, event, record.rv, record.tp)
    names = ("g", "ps", "conc", "melded", "ankong", "pungs", "taken", "ms", "mrec", "nm",
             "pond", "exposed", "kpay")  # fmt: skip
    out = {"hand": h.number, "event": event, "reached": reached}
    if code > 0 or code == -2:
        out["problem"] = _problem(h, at, code if code > 0 else 23)
    from .position import PositionError, position_from_state

    # (the events as the table made them, where the replay got: a record's open fields filled)
    events = made if reached else made[:at]
    try:  # the position format (``ccmj actions`` reads it), when the table state is one
        out["position"] = position_from_state(tab, events, event + 1,
                                              record.variant or record.rules).to_json()
    except (HandError, UsageError, VariantError, PositionError) as e:
        out["position_error"] = str(e)
        out["state"] = {k: np.asarray(a).tolist() for k, a in zip(names, tab, strict=True)}
    return out


# ------------------------------------------------------------------ writing the text form
_GROUP_TEXT = {
    L.MELD_XUANFENG: [27, 28, 29, 30],
    L.MELD_XI: [31, 32, 33],
    L.MELD_YAODAN: [0, 9, 18],
    L.MELD_JIUDAN: [8, 17, 26],
}


def text_record(log_hand: dict, bao_dice: int = 2, rules: str | None = None, hand_line=True) -> str:
    """A logged hand (one JSON line of a simulate log, parsed) written in the text form,
    without its wall (so the referee takes the draws from the record); ``bao_dice``: the dice a
    roll takes (the variant's bao_dice)."""
    dealer = SEATS.index(log_hand["dealer"])
    wall = [T.tile_index(t) for t in log_hand["wall"]]
    dice = list(log_hand["dice"])
    out = []
    if rules:
        out.append(f"rules {rules}")
    if hand_line:
        out.append(f"hand {log_hand['hand']}")
    out.append(f"dealer {log_hand['dealer']}")
    for k in range(4):
        s = (dealer + k) % 4
        tiles = T.format_tiles(wall[13 * k : 13 * k + 13])
        if k == 0:
            tiles += T.tile_name(wall[52])
        out.append(f"deal {SEATS[s]} {tiles}")
    evs = log_hand["events"]
    di = 0
    i = 0
    while i < len(evs):
        kind, s, t, a, b = evs[i]
        who = SEATS[s] if s >= 0 else None
        tn = T.tile_name(t) if 0 <= t < L.N_KINDS else None
        from_kinds = (TL.EV_CHOW, TL.EV_PUNG, TL.EV_MINGKONG, TL.EV_KONG_ROBBED, TL.EV_WIN)
        frm = f" from {SEATS[b]}" if kind in from_kinds and 0 <= b < 4 else ""
        if kind == TL.EV_DRAW:
            out.append(f"{who} draw {tn}")
        elif kind == TL.EV_TAIL:
            out.append(f"{who} tail {tn}")
        elif kind == TL.EV_DISCARD:
            out.append(f"{who} discard {tn}")
        elif kind == TL.EV_CHOW:
            out.append(f"{who} chow {tn} {T.format_tiles([a, a + 1, a + 2])}{frm}")
        elif kind == TL.EV_PUNG:
            out.append(f"{who} pung {tn}{frm}")
        elif kind == TL.EV_MINGKONG:
            out.append(f"{who} kong {tn}{frm}")
        elif kind == TL.EV_ANKONG:
            out.append(f"{who} ankong {tn}")
        elif kind == TL.EV_JIAGANG:
            out.append(f"{who} jiagang {tn}")
        elif kind == TL.EV_SPECIAL:
            if a == L.MELD_ANKONG:  # a 大蛋 laid as three (dadan_laid)
                out.append(f"{who} special ({T.format_tiles([t] * 3)})")
            elif t == L.ONE_S:  # 三幺鸡: three 1s for every member (the table lays them first)
                out.append(f"{who} special {T.SANYAOJI_MARK}{T.format_tiles([t] * b)}")
            else:
                g = list(_GROUP_TEXT[a])
                g = (g + [18] * b)[:b]  # (kind and size are what the table compares)
                out.append(f"{who} special {T.format_tiles(g)}")
        elif kind == TL.EV_BU:
            out.append(f"{who} bu {tn}")
        elif kind == TL.EV_BAO_KONG:
            out.append(f"{who} baokong {tn}")
        elif kind == TL.EV_KONG_ROBBED:
            if a:
                out.append(f"{who} rob {tn}{frm}")
            else:
                out.append(f"{who} robpung {tn}{frm}")
                i += 1  # (the 抢叉 pung event is part of the line)
        elif kind == TL.EV_DECLARE:
            out.append(f"{who} declare")
        elif kind in (TL.EV_BAO, TL.EV_NO_BAO):
            ds = dice[di : di + bao_dice]
            di += bao_dice
            by = f" by {who}" if who else ""
            d = " dice " + " ".join(map(str, ds)) if ds else ""
            out.append(f"bao {tn}{by}{d}" if kind == TL.EV_BAO else f"nobao{by}{d}")
        elif kind == TL.EV_LOOK:
            out.append(f"{who} look {tn}")
        elif kind == TL.EV_BAO_CHANGE:
            out.append(f"baochange {tn}" + (f" by {who}" if who else ""))
        elif kind == TL.EV_PASS:
            out.append(f"{who} pass {tn}")
        elif kind == TL.EV_WIN:
            word = {L.HOW_SELF: "zimo", L.HOW_MOBAO: "mobao", L.HOW_DUIBAO: "duibao"}.get(a, "win")
            out.append(f"{who} {word} {tn}{frm}")
        elif kind == TL.EV_HUANG:
            out.append("huang")
        i += 1
    p = log_hand.get("result", {}).get("payout")
    if p:
        out.append("payout " + " ".join(f"{s} {p[s]}" for s in SEATS))
    return "\n".join(out) + "\n"
