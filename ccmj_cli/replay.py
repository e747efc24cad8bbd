"""Hand logs of the table simulation: write them (JSON lines), read them back, replay a hand.

A log starts with a header line (the rule vector, table parameters and bot knobs the run used),
then one line per hand: the wall in draw order, the dealer, the dice the hand rolled, every event,
the result, the final hands, and the winner's hand for ``ccmj check``. A hand is fully determined
by its wall, dealer and dice, so ``replay_hand(..., verify=True)`` re-plays it through the engine
and checks the log against it.
"""

import json

import numpy as np

from . import interrupts
from . import tiles as T
from ._kernels import layout as L
from ._kernels.table import driver as K
from ._kernels.table import layout as TL
from ._kernels.tables import tables
from ._kernels.useful import useful_tables
from .errors import HandError, UsageError, VariantError
from .rules import rule_vector

SEATS = ("E", "S", "W", "N")
HOW_NAMES = ("zimo", "dianpao", "mobao", "duibao")
DECLARED_NAMES = ("undeclared", "declared", "looked")  # R_DISCARDER_DECLARED 0, 1, 2
LOG_VERSION = 7  # 2: dice as rolled, discarder_declared, the no_bao event; 3: the table rules
#                 options in rv (76 -> 80 values), a fifth bot knob, the pass event; 4: the
#                 bots' policy weights (12 knobs); 5: dealin_declaration_counts,
#                 open_kong_breaks_menqing, xiaoji_is_suit_tile, sanyaoji in rv (84 values),
#                 and hands played by the fixed engine (3-tile special kongs draw nothing, no 补
#                 in a turn that allows none, no look without a draw); 6: 用宝 kongs (rv 85
#                 values, EV_BAO_KONG) and the effective variant in the header ("variant":
#                 every option), so a log made with --rules FILE gives positions anywhere;
#                 7: dadan_laid in rv (86 values), the 大蛋 of three (EV_SPECIAL kind MELD_ANKONG)


def _tile(t: int) -> str | None:
    return T.tile_name(int(t)) if t >= 0 else None


def _seat(s: int) -> str | None:
    return SEATS[int(s)] if s >= 0 else None


def meld_text(row) -> str:
    kind, n = int(row[0]), int(row[1])
    return T.laid_meld_text(kind, [int(x) for x in row[2 : 2 + n]])  # ([*111s]: a 三幺鸡)


def hand_text(conc, mrec, nm) -> str:
    parts = [T.format_tiles(np.asarray(conc, np.uint8))] if int(np.sum(conc)) else []
    parts += [meld_text(mrec[m]) for m in range(int(nm))]
    return "".join(parts)


def result_dict(res, conc, mrec, nm) -> dict:
    """The outcome of one hand, from its R_* vector and final state."""
    w = int(res[TL.R_WINNER])
    d = {
        "winner": _seat(w),
        "how": HOW_NAMES[int(res[TL.R_HOW])] if w >= 0 else "huang",
        "tile": _tile(res[TL.R_TILE]),
        "discarder": _seat(res[TL.R_DISCARDER]),
        "discarder_declared": (
            DECLARED_NAMES[int(res[TL.R_DISCARDER_DECLARED])]
            if res[TL.R_DISCARDER_DECLARED] >= 0
            else None
        ),
        "fan": int(res[TL.R_FAN]) if w >= 0 else 0,
        "jiahu": bool(res[TL.R_JIAHU]),
        "piao": bool(res[TL.R_PIAO]),
        "menqing": bool(res[TL.R_MENQING]),
        "payout": {s: int(res[TL.R_PAY + i]) for i, s in enumerate(SEATS)},
        "kong_money": {s: int(res[TL.R_KONG_PAY + i]) for i, s in enumerate(SEATS)},
        "loser_fan": {s: int(res[TL.R_WIN_FAN + i]) for i, s in enumerate(SEATS)},
        "next_dealer": SEATS[int(res[TL.R_NEXT_DEALER])],
        "wall_left": int(res[TL.R_WALL_LEFT]),
    }
    if w >= 0:
        c = np.array(conc[w], np.int64)
        phys = int(res[TL.R_PHYS])
        if phys >= 0:
            c[phys] -= 1
        d["winning_hand"] = hand_text(c, mrec[w], nm[w])
        d["win_tile"] = T.tile_name(int(res[TL.R_TILE]))
    return d


def n_events(res) -> int:
    """The events of a hand; a hand is never cut: more than the buffer holds is an error."""
    n = int(res[TL.R_N_EVENTS])
    if n > TL.MAX_EVENTS:
        raise RuntimeError(f"a hand had {n} events, more than the log holds ({TL.MAX_EVENTS})")
    return n


def record_arrays(n: int) -> dict:
    """Output arrays for ``n`` recorded hands (named as ``_kernels.table.driver.record_pieces``'s)."""
    return {
        "walls": np.zeros((n, TL.N_WALL), np.int64),
        "dices": np.zeros((n, TL.N_DICE), np.int64),
        "results": np.zeros((n, TL.R_LEN), np.int64),
        "events": np.zeros((n, TL.MAX_EVENTS, TL.EV_COLS), np.int64),
        "concs": np.zeros((n, L.N_SEATS, L.N_KINDS), np.uint8),
        "melds": np.zeros((n, L.N_SEATS, TL.MAX_MELDS, TL.MELD_COLS), np.int64),
        "n_melds": np.zeros((n, L.N_SEATS), np.int64),
        "ponds": np.zeros((n, L.N_KINDS), np.int64),
        "melded": np.zeros((n, L.N_SEATS, L.N_KINDS), np.uint8),
    }


def _record(rs, dealers, counts, rv, tp, bots) -> dict:
    """Record a piece of each session (``counts[i]`` more hands of session i, in parallel
    threads); the hands come out session by session, in order."""
    counts = np.asarray(counts, np.int64)
    offsets = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
    a = record_arrays(int(counts.sum()))
    K.record_pieces(
        rs, dealers, counts, offsets, rule_vector(rv), tables(), useful_tables(), tp, bots,
        a["walls"], a["dices"],
        a["results"], a["events"], a["concs"], a["melds"], a["n_melds"], a["ponds"], a["melded"],
    )  # fmt: skip
    return a


def record(seed, n: int, rv, tp, bots) -> dict:
    """Play one session of ``n`` hands from ``seed`` and keep every hand's wall, dice, events
    and final state."""
    rs = np.array([seed], np.uint64)
    return _record(rs, np.zeros(1, np.int64), [n], rv, tp, bots)


LOG_HANDS = 1024  # hands recorded per kernel call: the memory of the log path (~25 MB)


def _log_calls(plan):
    """The kernel calls of a logged run, in log order: (first session, seeds, counts, first
    hand of each session in this call). Whole sessions, several a call, recorded in parallel;
    a session longer than LOG_HANDS alone, piece by piece (its random state and dealer carried
    over)."""
    q = plan.hands // plan.sessions
    per_call = max(1, LOG_HANDS // (q + 1))
    for a in range(0, plan.sessions, per_call):
        b = min(a + per_call, plan.sessions)
        seeds, lengths = plan.seeds(a, b), plan.lengths(a, b)
        if b - a > 1 or lengths[0] <= LOG_HANDS:
            yield a, seeds, lengths, np.zeros(b - a, np.int64)
            continue
        for h in range(0, int(lengths[0]), LOG_HANDS):  # one long session, piece by piece
            yield a, seeds, np.minimum(lengths - h, LOG_HANDS), np.full(1, h, np.int64)


def write_log(path, plan, rv, tp, bots, v, names, progress=None) -> tuple[np.ndarray, bool]:
    """Play the run recording every hand, and write them as JSON lines in order; returns the
    merged statistics row and whether Ctrl-C ended it early (the lines written are whole;
    KeyboardInterrupt if no hand had finished, and then ``path`` is not touched)."""
    from .cli.files import output_file  # (no typer there: the atomic writer of every output)

    st = np.zeros(TL.S_LEN, np.int64)
    k = 0
    # written to a temporary file and moved over ``path`` when the run ends (a Ctrl-C keeps the
    # whole hands played so far): an existing log is never left half overwritten
    with output_file(path, option="--log") as f:
        header = {
            "ccmj_log": LOG_VERSION, "seed": plan.seed, "rules": v.name, "hands": plan.hands,
            "variant": v.to_dict(), "sessions": plan.sessions, "policy": names,
            "rv": [int(x) for x in rv], "tp": [int(x) for x in tp], "bots": bots.tolist(),
        }  # fmt: skip
        f.write(json.dumps(header, ensure_ascii=False) + "\n")
        rs = dealers = None
        try:
            for a, seeds, counts, first in _log_calls(plan):
                if first[0] == 0:  # sessions start: fresh random states, seat E deals
                    rs, dealers = np.array(seeds, np.uint64), np.zeros(len(seeds), np.int64)
                r = _record(rs, dealers, counts, rv, tp, bots)
                with interrupts.deferred():  # (the statistics count the hands written: whole)
                    lines = []
                    j = 0
                    for i, n in enumerate(counts):
                        for h in range(int(n)):
                            K.accumulate(st, r["results"][j])
                            k += 1
                            lines.append(_hand_line(r, j, k, a + i, int(first[i]) + h, seeds[i]))
                            j += 1
                    f.write("".join(lines))
                if progress is not None:
                    progress(int(counts.sum()))
        except KeyboardInterrupt:
            if k == 0:
                raise  # no hand to keep: the old log stays as it was
            return st, True
    return st, False


_TILE_NAMES = [T.tile_name(t) for t in range(L.N_KINDS)]


def _hand_line(r: dict, j: int, k: int, session: int, h: int, seed) -> str:
    """The JSON line of recorded hand j (the k-th of the log; hand h of its session)."""
    res = r["results"][j]
    rec = {
        "hand": k,
        "session": session,
        "session_hand": h + 1,
        "session_seed": int(seed),
        "dealer": SEATS[int(res[TL.R_DEALER])],
        "wall": [_TILE_NAMES[t] for t in r["walls"][j].tolist()],
        "dice": r["dices"][j, : res[TL.R_DICE_USED]].tolist(),
        "events": r["events"][j, : n_events(res)].tolist(),
        "result": result_dict(res, r["concs"][j], r["melds"][j], r["n_melds"][j]),
        "final": {
            s: hand_text(r["concs"][j, i], r["melds"][j, i], r["n_melds"][j, i])
            for i, s in enumerate(SEATS)
        },
        "pond": T.format_tiles(r["ponds"][j].astype(np.uint8)),
    }
    return json.dumps(rec, ensure_ascii=False) + "\n"


MAX_LOG_LINE = 1 << 20  # a logged hand is a few KB: a longer line is not one of ours


def _not_a_log(path, why: str) -> HandError:
    return HandError(
        f"'{path}' is not a ccmj simulate log ({why}; write one with ccmj simulate --log)"
    )


def _log_lines(path):
    """(line number, text) of each line of a log, read as it goes (a log may be large)."""
    try:
        f = open(path, encoding="utf-8")  # noqa: SIM115
    except (OSError, ValueError) as e:
        raise UsageError(f"cannot read log '{path}': {getattr(e, 'strerror', None) or e}") from None
    with f:
        n = 0
        while True:
            try:
                line = f.readline(MAX_LOG_LINE + 1)
            except UnicodeDecodeError:
                raise _not_a_log(path, f"line {n + 1} is not UTF-8 text") from None
            except OSError as e:
                raise UsageError(f"cannot read log '{path}': {e.strerror or e}") from None
            if not line:
                return
            n += 1
            if len(line) > MAX_LOG_LINE:
                raise _not_a_log(path, f"line {n} is longer than {MAX_LOG_LINE >> 20} MB")
            yield n, line


def _json_line(path, n: int, line: str):
    try:
        return json.loads(line)
    except (json.JSONDecodeError, RecursionError, ValueError):
        raise HandError(
            f"log '{path}': line {n} is not valid JSON (a truncated or damaged log?)"
        ) from None


def _read_header(path, lines) -> dict:
    first = next(lines, None)
    if first is None:
        raise _not_a_log(path, "it is empty")
    try:
        header = json.loads(first[1])
    except (json.JSONDecodeError, RecursionError, ValueError):
        header = None
    version = header.get("ccmj_log") if isinstance(header, dict) else None
    if isinstance(version, int) and not isinstance(version, bool) and version != LOG_VERSION:
        raise HandError(
            f"log '{path}' was written by another version of ccmj (log format {version}; "
            f"this one reads format {LOG_VERSION}): write it again with ccmj simulate --log"
        )
    if not isinstance(header, dict) or header.get("ccmj_log") != LOG_VERSION:
        raise _not_a_log(path, "its first line is not a log header")
    return header


def read_log(path) -> tuple[dict, list[str]]:
    """(header, hand lines) of a log file."""
    lines = _log_lines(path)
    header = _read_header(path, lines)
    return header, [line for _, line in lines]


def hand_record(path, k: int) -> tuple[dict, dict]:
    """The header and the record of hand ``k`` (1-based), both checked, reading no further."""
    lines = _log_lines(path)
    header = _read_header(path, lines)
    count = 0
    for n, line in lines:
        if not line.strip():
            continue
        count += 1
        if count == k:
            rec = _json_line(path, n, line)
            check_record(path, n, rec)
            return header, rec
    raise UsageError(f"bad --hand {k}: the log holds hands 1 to {count}")


_TILES = frozenset(T.tile_name(t) for t in range(L.N_KINDS))


class HandNumbers:
    """The hand numbers of a record read so far: a number written twice is refused (a hand's
    number names one hand: ``--hand K``). ``where``: how messages name the record."""

    def __init__(self, where: str):
        self.where, self.seen = where, set()

    def add(self, number: int, line: int | None = None) -> None:
        if number in self.seen:
            at = f" line {line}:" if line is not None else ""
            raise HandError(f"{self.where}:{at} hand {number} is written twice")
        self.seen.add(number)


def check_record(path, n: int, rec, whole: bool = True) -> None:
    """A HandError naming the line unless ``rec`` has every field replay reads, of its type
    (``whole`` False: its wall and events are checked by the caller)."""

    def bad(what: str) -> HandError:
        return HandError(f"log '{path}': line {n} is not a logged hand ({what})")

    def need(d, key, ok, what, where=""):
        if not isinstance(d, dict) or key not in d:
            raise bad(f"no '{where}{key}'")
        if not ok(d[key]):
            raise bad(f"'{where}{key}' is not {what}")
        return d[key]

    def is_int(x):
        return isinstance(x, int) and not isinstance(x, bool)

    def is_seat(x):
        return x in SEATS

    def seat_map(kind):
        return lambda x: isinstance(x, dict) and set(x) == set(SEATS) and all(map(kind, x.values()))

    if not isinstance(rec, dict):
        raise bad("not a JSON object")
    for key in ("hand", "session", "session_hand"):
        need(rec, key, is_int, "a whole number")
    need(rec, "dealer", is_seat, "a seat")
    if whole:
        wall = need(rec, "wall", lambda x: isinstance(x, list) and len(x) == K.N_WALL,
                    "136 tiles")  # fmt: skip
        if not all(isinstance(t, str) and t in _TILES for t in wall):
            raise bad("'wall' holds something that is not a tile")
        if any(wall.count(t) != 4 for t in set(wall)):
            raise bad("'wall' does not hold every tile four times")
        need(rec, "events", lambda x: isinstance(x, list) and all(
            isinstance(e, list) and len(e) == TL.EV_COLS and all(map(is_int, e))
            and event_fields_ok(*e[:3]) for e in x
        ), f"a list of the engine's events ({TL.EV_COLS} whole numbers each)")  # fmt: skip
    need(rec, "dice", lambda x: isinstance(x, list) and all(is_int(d) and 1 <= d <= 6 for d in x)
         and len(x) <= K.N_DICE, f"at most {K.N_DICE} dice of 1 to 6")  # fmt: skip
    need(rec, "final", seat_map(lambda h: isinstance(h, str)), "a hand per seat")
    r = need(rec, "result", lambda x: isinstance(x, dict), "an object")
    winner = need(r, "winner", lambda x: x is None or is_seat(x), "a seat or null", "result.")
    need(r, "discarder", lambda x: x is None or is_seat(x), "a seat or null", "result.")
    need(r, "how", lambda x: isinstance(x, str), "a name", "result.")
    need(r, "fan", is_int, "a whole number", "result.")
    for key in ("jiahu", "piao", "menqing"):
        need(r, key, lambda x: isinstance(x, bool), "true or false", "result.")
    for key in ("payout", "kong_money"):
        need(r, key, seat_map(is_int), "a whole number per seat", "result.")
    need(r, "next_dealer", is_seat, "a seat", "result.")
    if winner is not None:
        need(r, "win_tile", lambda x: x in _TILES, "a tile", "result.")
        need(r, "winning_hand", lambda x: isinstance(x, str), "a hand", "result.")


def event_fields_ok(kind, seat, tile) -> bool:
    """An event row's kind, seat and tile are the engine's (-1: no seat, no tile)."""
    return ((kind >= 0) & (kind < len(TL.EV_NAMES)) & (seat >= -1) & (seat < L.N_SEATS)
            & (tile >= -1) & (tile < L.N_KINDS))  # (numbers, or arrays of them)


def check_header(path, header: dict) -> None:
    """The rule vector, table parameters and bots of a header, checked before the engine gets
    them (``--verify``): whole numbers, of the lengths and in the ranges the engine knows."""

    def vector(key, length, lo, hi, shape=None):
        x = header.get(key)
        try:
            arr = np.array(x, np.int64)
        except (TypeError, ValueError, OverflowError):
            arr = None
        if (
            arr is None
            or arr.shape != (shape or (length,))
            or any(isinstance(v, bool) for v in np.ravel(np.array(x, object)))
            or not ((lo <= arr) & (arr <= hi)).all()
        ):
            raise HandError(f"log '{path}': the header's '{key}' is not the engine's")

    vector("rv", L.RV_LEN, 0, 62)
    vector("tp", TL.TP_LEN, 0, 17)
    bots = header.get("bots")
    width = len(bots[0]) if isinstance(bots, list) and bots and isinstance(bots[0], list) else 0
    # (a log written before the newest weights has shorter rows: those weights were off)
    vector("bots", None, 0, max(TL.KNOB_MAX), (L.N_SEATS, min(max(width, 12), TL.N_KNOBS)))


def rerun(header: dict, rec: dict):
    """Play a logged hand again through the engine: (result, events, conc, mrec, nm)."""
    wall = np.array([T.tile_index(t) for t in rec["wall"]], np.int64)
    dice = np.ones(TL.N_DICE, np.int64)  # the dice the hand did not roll play no part
    dice[: len(rec["dice"])] = rec["dice"]
    tp = np.array(header["tp"], np.int64)
    bots = np.zeros((L.N_SEATS, TL.N_KNOBS), np.int64)
    given = np.array(header["bots"], np.int64)
    bots[:, : given.shape[1]] = given  # (an older log's rows lack the newest weights: off)
    dealer = SEATS.index(rec["dealer"])
    return play_wall(wall, dealer, dice, header["rv"], tp, bots)


def play_wall(wall, dealer, dice, rv, tp, bots) -> dict:
    """Play one hand from a fixed wall; returns its result, events and final state (arrays)."""
    rv = rule_vector(rv)  # (a writable copy would compile the whole engine again for its type)
    ev = np.zeros((TL.MAX_EVENTS, TL.EV_COLS), np.int64)
    res = np.zeros(TL.R_LEN, np.int64)
    tab = K.new_table()
    g = K.play_hand(
        np.asarray(wall, np.int64), dealer, np.asarray(dice, np.int64), rv, tables(), tp, bots,
        ev, True, res, tab, K.new_work(useful_tables()),
    )  # fmt: skip
    _g, _ps, conc, melded, _ankong, _pungs, _taken, _ms, mrec, nm, pond, _exposed, _kpay = tab
    ne = n_events(res)
    return {
        "res": res, "events": ev[:ne], "conc": conc, "melded": melded, "mrec": mrec, "nm": nm,
        "pond": pond, "head": int(g[TL.G_HEAD]), "tail": int(g[TL.G_TAIL]),
        "stranded": [int(x) for x in g[TL.G_STR : TL.G_STR + min(int(g[TL.G_NSTR]), TL.N_STR)]],
    }  # fmt: skip


def event_text(row) -> str:
    kind, s, t, a, b = (int(x) for x in row)
    who, tile = _seat(s), _tile(t)
    name = TL.EV_NAMES[kind]
    if kind == TL.EV_DRAW:
        return f"{who} draws {tile}"
    if kind == TL.EV_TAIL:
        return f"{who} draws {tile} from the tail (replacement)"
    if kind == TL.EV_DISCARD:
        return f"{who} discards {tile}"
    if kind == TL.EV_CHOW:
        return f"{who} chows {tile} from {_seat(b)}: {T.format_tiles([a, a + 1, a + 2])}"
    if kind == TL.EV_PUNG:
        return f"{who} pungs {tile} from {_seat(b)}"
    if kind == TL.EV_MINGKONG:
        return f"{who} kongs {tile} from {_seat(b)} (明杠)"
    if kind == TL.EV_ANKONG:
        return f"{who} declares a concealed kong of {tile} (暗杠)"
    if kind == TL.EV_JIAGANG:
        return f"{who} adds {tile} to his pung (加杠)"
    if kind == TL.EV_SPECIAL and a == L.MELD_ANKONG:
        return f"{who} lays out a 大蛋 of three {tile} (the concealed 大蛋, laid from the deal)"
    if kind == TL.EV_SPECIAL:
        return f"{who} lays out {L_MELD_NAMES.get(a, 'special kong')} (special kong)"
    if kind == TL.EV_BU:
        onto = L_MELD_NAMES.get(a, "special kong")
        return f"{who} adds {tile} to his {onto} (补)"
    if kind == TL.EV_BAO_KONG:
        onto = L_MELD_NAMES.get(b, "special kong")
        what = ("a concealed kong (暗杠)", "his pung (加杠)", f"his {onto} (补)")
        kong = what[a] if 0 <= a < 3 else "a kong"
        return f"{who} takes the bao {tile} out of the wall for {kong} (用宝)"
    if kind == TL.EV_ROB_PUNG:
        return f"{who} pungs {tile} off {_seat(b)}'s 补 (抢叉)"
    if kind == TL.EV_KONG_ROBBED:
        how = "抢杠胡" if a else "抢叉"
        return f"{_seat(b)}'s kong tile {tile} is robbed by {who} ({how}): no kong money"
    if kind == TL.EV_DECLARE:
        return f"{who} declares tenpai (报听)"
    if kind == TL.EV_BAO:
        by = f"{who} rolls {a}" if who else f"re-roll {a}"
        return f"bao: {by} -> the bao is {tile} (wall position {b})"
    if kind == TL.EV_LOOK:
        return f"{who} looks at the bao: {tile}"
    if kind == TL.EV_BAO_CHANGE:
        by = f" ({who}'s choice)" if who else ""
        return f"换宝: the other three {tile} are public; the bao is re-rolled{by}"
    if kind == TL.EV_PASS:
        return f"{who} passes {tile} on (one of the last four draws, which may only win)"
    if kind == TL.EV_WIN:
        how = HOW_NAMES[a]
        src = f" on {_seat(b)}'s tile" if b >= 0 else ""
        return f"{who} wins ({how}) with {tile}{src}"
    if kind == TL.EV_HUANG:
        return "the wall is at its end: 荒庄 (drawn hand)"
    if kind == TL.EV_NO_BAO:
        by = f"{who} rolls {a}" if who else f"re-roll {a}"
        return f"bao: {by} -> no tile in the wall can be the bao: no bao for the rest of the hand"
    return name


L_MELD_NAMES = {
    L.MELD_XUANFENG: "旋风杠",
    L.MELD_XI: "喜杠",
    L.MELD_YAODAN: "幺蛋",
    L.MELD_JIUDAN: "九蛋",
    L.MELD_ANKONG: "大蛋",  # (a 补 onto a 大蛋 laid as three: its fourth copy)
}


def start_hands(wall: list[str], dealer: int) -> dict:
    """The dealt hands (the wall model of the engine: 13 each from the dealer, his 14th last)."""
    idx = [T.tile_index(t) for t in wall]
    out = {}
    for k in range(4):
        s = (dealer + k) % 4
        tiles = idx[13 * k : 13 * k + 13] + ([idx[52]] if k == 0 else [])
        out[SEATS[s]] = T.format_tiles(tiles)
    return out


def log_rules(header: dict):
    """The rules a log's hands name: its variant's name where that name still loads to the
    log's rule vector (a preset, a rules file still there and unchanged), else the header's
    whole variant (every option, inline), so a position or a review of any hand of it can be
    read wherever the log is."""
    from .rules import load_variant
    from .simulate import table_params

    name = str(header.get("rules"))
    try:
        v = load_variant(name)
        same = [int(x) for x in v.vector] == header.get("rv") and \
            [int(x) for x in table_params(v)] == header.get("tp")
        if same:
            return name
    except (VariantError, HandError, UsageError, OSError):
        pass
    variant = header.get("variant")
    return variant if isinstance(variant, dict) else name


def replay_hand(path, k: int, verify: bool = False) -> dict:
    """One logged hand, turn by turn; ``verify`` re-plays it through the engine and compares."""
    header, rec = hand_record(path, k)
    try:
        turns = [event_text(e) for e in rec["events"]]
    except (IndexError, KeyError, ValueError, HandError):
        raise HandError(f"log '{path}': hand {k} holds an event that is not the engine's") from None
    out = {
        "hand": rec["hand"],
        "session": rec["session"],
        "session_hand": rec["session_hand"],
        "dealer": rec["dealer"],
        "rules": header.get("rules"),
        "start": start_hands(rec["wall"], SEATS.index(rec["dealer"])),
        "turns": turns,
        "result": rec["result"],
        "final": rec["final"],
    }
    if verify:
        check_header(path, header)
        r = rerun(header, rec)
        same = (
            r["events"].tolist() == rec["events"]
            and result_dict(r["res"], r["conc"], r["mrec"], r["nm"]) == rec["result"]
        )
        out["verified"] = bool(same)
    return out
