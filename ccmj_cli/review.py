"""Game review (``ccmj review``): every decision of a seat in a recorded hand, graded by the
exact analysis.

A record is read into ``HandRecord``s (source-neutral: the dealt hands, the dealer, the events
in the table engine's EV_* rows, the rule vector); ``READERS`` maps a record kind to its reader:
a ``ccmj simulate --log`` file, or a record the referee reads (its text or JSON form: replayed
by the referee's engine first, so its events are the table's, up to the first illegal one).

The hand is walked event by event; at each decision of the reviewed seat the position is what
the seat can see (its tiles and melds; every pond and the other seats' exposed melds; the bao if
it looked) and its draws left, counted from the wall as the engine draws it (the head draws
before the dead wall, the engine's count with the record replayed; one in four for the seat,
from its place in the order). Each legal choice
is valued by ``ccmj_cli.odds.odds(..., exact=True)`` — the very call ``ccmj odds --exact``
makes, so the numbers are the same engine's:

- discard: the 14-tile hand, every discard;
- claim (碰, each 吃, 明杠) or pass: the hand after the meld (its best discard; a 明杠
  with its replacement draw) vs the 13-tile hand with the tile gone (a declared seat: a 明杠
  that keeps his waits, both hands locked);
- kong (暗杠, 加杠, a special kong laid, 补): the hand after the kong with the replacement
  draw (a 3-tile special kong takes none: its best discard) vs the 14-tile hand's best discard;
- bao_change (换宝 under bao_change optional, the declared seat's choice): the locked hand
  with the bao unknown again vs with the dead bao kept;
- 用宝 (under bao_kong, the declared seat's choice at his look): the locked hand after the
  kong of the bao tile, a new bao unknown, the replacement draw and the kong money, vs drawing
  with the bao known (a kind decision);
- declare (报听) now or not, and with which discard: the declared line after each discard that
  leaves a tenpai that may declare (locked; the bao unknown until the first look; the closed
  form where it applies, else the dynamic programme) vs staying undeclared with the discard
  made.

Hands are independent: ``threads`` of them are reviewed side by side (``threaded.in_order``),
the decisions kept in the record's order, so the review does not depend on the thread count.

A choice's value is P(win) and the expected payment; the loss of the choice made is the best
value minus its own (never negative), for the objective chosen (``win`` or ``payment``). A
kong's expected payment includes the kong money it earns at once (``score.kong_value`` from
each other seat, a 补 what its tile adds), as the table pays it, won or not.
"""

import json
import os
import threading
from dataclasses import asdict, dataclass, field

import numpy as np

from . import tiles as T
from ._kernels import layout as L
from ._kernels.table import layout as TL
from .errors import CcmjError, UsageError
from .rules import Variant, rule_vector
from .threaded import in_order

SEATS = ("E", "S", "W", "N")
KINDS = ("discard", "claim", "kong", "declare", "bao_change")
OBJECTIVES = ("win", "payment")
N_WALL = 136
DEALT = 53  # 13 a seat, the dealer's 14th
DEAD_WALL = 14  # a hand is drawn with 14 tiles left (the engine's wall end, no kong)
LARGE = 0.02  # a loss in P(win) marked large in the table
PASS = "pass"
KONG, NO_KONG = "kong", "no kong"  # choices "kong 5z", "no kong"
DECLARE, STAY = "declare", "stay undeclared"  # choices "declare 5s", "stay undeclared"
BAO_CHANGE, BAO_KEEP = "换宝", "keep the bao"
BAO_KONG, NO_BAO_KONG = "用宝", "no 用宝"  # choices "用宝 kong 9s", "用宝 补 1m", "no 用宝"
SPECIAL_KINDS = (L.MELD_XUANFENG, L.MELD_XI, L.MELD_YAODAN, L.MELD_JIUDAN)


# ---------------------------------------------------------------- records (pluggable readers)
@dataclass(frozen=True)
class HandRecord:
    """One recorded hand, whatever wrote it."""

    number: int  # 1-based, in the record
    dealer: int
    start: tuple  # uint8[34] count arrays: each seat's dealt tiles (the dealer's 14)
    events: list  # [kind, seat, tile, a, b] rows (the table engine's EV_* layout)
    rv: np.ndarray  # the rule vector the hand was played under
    rules: object  # the variant: its name, every option (``replay.log_rules``) or a Variant
    drawable: int = N_WALL - DEALT - DEAD_WALL  # head draws the wall allows after the deal
    problem: dict | None = None  # the first illegal event (the events stop before it)
    replay: object = None  # the referee's Hand (wall, dice, record rows): the engine is asked
    #                        which special kongs and 补 the seat could make (None: not asked)


def _simulate_log(path, hand: int | None) -> list[HandRecord]:
    """The hands of a ``ccmj simulate --log`` file (only hand ``hand`` when given)."""
    from . import replay as R

    if hand is not None:
        header, rec = R.hand_record(path, hand)
        recs = [rec]
    else:
        header, lines = R.read_log(path)
        recs = []
        numbers = R.HandNumbers(f"log '{path}'")
        for i, line in enumerate(lines):
            if not line.strip():
                continue
            rec = R._json_line(path, i + 2, line)
            R.check_record(path, i + 2, rec)
            numbers.add(rec["hand"], i + 2)
            recs.append(rec)
    R.check_header(path, header)
    rules = R.log_rules(header)  # (once: it may load a variant)
    drawable = _drawable(header["tp"])
    out = []
    for rec in recs:
        dealer = SEATS.index(rec["dealer"])
        starts = R.start_hands(rec["wall"], dealer)
        start = tuple(
            T.counts_of(T.parse_tiles(starts[s])).astype(np.uint8) for s in SEATS
        )
        events = [list(e) for e in rec["events"]]
        replay = _replayable(rec, dealer, events)
        out.append(HandRecord(rec["hand"], dealer, start, events, rule_vector(header["rv"]),
                              rules, drawable, replay=replay))  # fmt: skip
    return out


def _replayable(rec: dict, dealer: int, events: list):
    """A logged hand as the referee's engine replays it (its wall known)."""
    from .referee import REC_COLS, Hand

    rows = np.zeros((len(events), REC_COLS), np.int64)
    if events:
        rows[:, : TL.EV_COLS] = events
    wall = np.array([T.tile_index(t) for t in rec["wall"]], np.int64)
    return Hand(rec["hand"], dealer, wall, np.array(rec["dice"], np.int64), rows)


def _drawable(tp) -> int:
    """Head draws the wall allows after the deal: all but the dead wall (the variant's
    dead_wall_stacks, 2 tiles a stack; kongs grow it, counted as their tail draws)."""
    return N_WALL - DEALT - 2 * int(tp[TL.TP_DEAD_STACKS])


def _referee_record(path, hand: int | None) -> list[HandRecord]:
    """The hands of a record the referee reads (its text or JSON form), as the table made
    their events; a hand with an illegal event is kept up to it, with its ``problem``."""
    from . import referee as RF

    record = RF.load_record(str(path))
    hands = record.all_hands()
    if hand is not None:
        hands = [h for h in hands if h.number == hand]
        if not hands:
            raise UsageError(f"bad --hand {hand}: the record holds no such hand")
    out = []
    for h, (events, problem) in zip(hands, RF.made_events(record, hands), strict=True):
        start = [np.bincount(d, minlength=L.N_KINDS).astype(np.uint8) for d in RF.dealt(h)]
        out.append(HandRecord(h.number, h.dealer, tuple(start), events, record.rv,
                              record.variant, _drawable(record.tp), problem, h))  # fmt: skip
    return out


def _kind_of(path) -> str:
    """The kind of record a file holds, from its first line."""
    try:
        with open(path, encoding="utf-8") as f:
            first = f.readline(1 << 20)
    except UnicodeDecodeError:
        raise UsageError(f"cannot read record '{path}': it is not UTF-8 text") from None
    except (OSError, ValueError) as e:
        why = getattr(e, "strerror", None) or e
        raise UsageError(f"cannot read record '{path}': {why}") from None
    try:
        head = json.loads(first)
    except (json.JSONDecodeError, ValueError, RecursionError):
        head = None
    if isinstance(head, dict) and "ccmj_log" in head:
        return "simulate_log"
    return "referee_record"  # (the text or JSON form; its reader names what is wrong)


READERS = {"simulate_log": _simulate_log, "referee_record": _referee_record}
# (record kind -> reader(path, hand) -> [HandRecord])


def read_record(path, hand: int | None = None) -> list[HandRecord]:
    return READERS[_kind_of(path)](path, hand)


# ---------------------------------------------------------------- the results
@dataclass(frozen=True)
class Value:
    p_win: float
    expected_payment: float
    method: str  # "exact" (the dynamic programme, complete), "region" (a restricted search: a
    # lower bound), "closed_form" or "monte_carlo"
    ci95: list | None = None  # the Monte Carlo's interval of p_win


@dataclass(frozen=True)
class Decision:
    hand: int
    seat: str
    event: int  # index of the decision in the hand's events
    turn: int  # the seat's own draws so far (its turn)
    kind: str
    tiles: str  # the seat's hand at the decision (as ccmj odds takes it)
    visible: str  # the tiles it has seen (as --visible takes them)
    draws: int
    chosen: str
    best: str
    values: dict  # choice -> Value
    loss: dict  # {"p_win", "expected_payment"}
    method: str
    dealer: bool = False

    def to_dict(self, turn: bool = False) -> dict:
        """The --json line (with ``turn``: the seat's turn too, as the table shows it)."""
        return {
            "hand": self.hand, "seat": self.seat, "event": self.event,
            **({"turn": self.turn} if turn else {}), "kind": self.kind,
            "tiles": self.tiles, "visible": self.visible, "draws": self.draws,
            "chosen": self.chosen, "best": self.best,
            "values": {c: {"p_win": v.p_win, "expected_payment": v.expected_payment}
                       for c, v in self.values.items()},
            "loss": dict(self.loss), "method": self.method,
        }  # fmt: skip


@dataclass(frozen=True)
class SeatSummary:
    decisions: int
    agreement: float | None  # share of decisions where the choice made was the best
    mean_loss: dict
    total_loss: dict
    worst: list  # [{hand, event, kind, chosen, best, loss}], largest loss first

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class Review:
    record: str
    objective: str
    decisions: list  # [Decision]
    summary: dict  # seat -> SeatSummary
    skipped: list = field(default_factory=list)  # [{hand, seat, event, kind, why}]

    def to_dict(self) -> dict:
        return {
            "record": self.record, "objective": self.objective,
            "decisions": [d.to_dict(turn=True) for d in self.decisions],
            "summary": {s: x.to_dict() for s, x in self.summary.items()},
            "skipped": self.skipped,
        }  # fmt: skip

    def json_lines(self) -> list[str]:
        out = [json.dumps(d.to_dict(), ensure_ascii=False) for d in self.decisions]
        summ = {s: x.to_dict() for s, x in self.summary.items()}
        last = {"summary": summ} | ({"skipped": self.skipped} if self.skipped else {})
        out.append(json.dumps(last, ensure_ascii=False))
        return out


# ---------------------------------------------------------------- valuing a position
class Stopped(Exception):
    """The review was stopped (Ctrl-C) while this thread was valuing a position."""


class Valuer:
    """``odds.odds(..., exact=True)`` per position, remembered (a hand reviewed for several
    seats, or the same position reached twice, is solved once)."""

    def __init__(self, v: Variant, objective: str, trials: int = 4000, seed: int = 1,
                 search: str = "full", stop=None):  # fmt: skip
        self.v, self.objective, self.trials, self.seed = v, objective, trials, seed
        self.search = search  # "full": as ccmj odds --exact; "quick": as ccmj odds unasked
        self.memo = {}  # (shared by the threads: a position two of them meet may be solved twice)
        self.stop = stop  # a threading.Event: set, the searches in flight end (Ctrl-C)

    def values(self, tiles: str, visible: str, draws: int, dealer: bool, declare: bool = False,
               bao: str = "none") -> dict:  # fmt: skip
        """{discard (None for a 13-tile hand): Value}."""
        key = (tiles, visible, draws, dealer, declare, bao)
        if key in self.memo:
            return self.memo[key]
        from . import odds as O

        common = dict(visible=visible or None, draws=draws, seed=self.seed,
                      objective=self.objective, dealer=dealer, declare=declare, bao=bao,
                      rules=self.v, stop=self.stop)  # fmt: skip
        try:
            if self.search == "quick":  # the search ccmj odds makes unasked (no --exact),
                # without its settling step (a far 13-tile hand's wider graph: seconds each)
                rep = O.odds(tiles, trials=None, settle=False, **common)
            else:
                rep = O.odds(tiles, exact=True, trials=0, **common)
        except UsageError:  # no exact answer: the Monte Carlo, with its interval
            rep = O.odds(tiles, exact=True, trials=self.trials, **common)
        if self.stop is not None and self.stop.is_set():
            raise Stopped  # (what the search knew when it stopped is no value)
        return self._keep(key, rep)

    def _keep(self, key, rep) -> dict:
        out = {}
        for r in rep.results:
            if r.exact is not None:
                method = ("closed_form" if r.exact.solver != "dp"
                          else "exact" if r.exact.complete else "region")  # fmt: skip
                out[r.discard] = Value(r.exact.p_win, r.exact.expected_payment, method)
            else:
                out[r.discard] = Value(r.p_win, r.expected_payment, "monte_carlo", r.ci95)
        self.memo[key] = out
        return out

    def best_of(self, vals: dict) -> Value:
        return max(vals.values(), key=self.key)

    def key(self, x: Value):
        a, b = round(x.p_win, 12), round(x.expected_payment, 9)
        return (b, a) if self.objective == "payment" else (a, b)


def _kong_money(v: Variant, kind: int, tile: int, bu: int = 0) -> int:
    """The kong money a kong earns at once: ``score.kong_value`` from each of the three other
    seats, as the table pays it (whether or not the hand is won)."""
    from ._kernels.score import kong_value

    return 3 * int(kong_value(kind, tile, bu, v.vector))


def _plus(value: Value, money: int) -> Value:
    return Value(value.p_win, value.expected_payment + money, value.method, value.ci95)


def _grade(valuer: Valuer, values: dict, chosen: str):
    """(best choice, loss) of a decision: the best by the objective; the chosen one's loss."""
    best = max(values, key=lambda c: (valuer.key(values[c]), c == chosen))
    b, c = values[best], values[chosen]
    loss = {"p_win": max(0.0, b.p_win - c.p_win),
            "expected_payment": max(0.0, b.expected_payment - c.expected_payment)}  # fmt: skip
    return best, loss


def _method(values: dict) -> str:
    ms = sorted({v.method for v in values.values()})
    return "+".join(ms)


# ---------------------------------------------------------------- walking a hand
class _Table:
    """The position as the events leave it: concealed counts, melds, ponds, the draws made."""

    def __init__(self, rec: HandRecord, tp=None):
        self.replay, self.rv, self.tp = rec.replay, rec.rv, tp  # (the engine's draws left)
        self.at = 0  # the event followed now
        self.lefts = {}  # event -> the engine's draws left before it
        self.conc = [np.array(c, np.int64) for c in rec.start]
        self.melds = [[] for _ in SEATS]  # [(kind, tiles)]
        self.pond = np.zeros(L.N_KINDS, np.int64)
        self.drawn = 0  # wall tiles drawn since the deal (head and tail)
        self.tail = 0  # of which replacement draws from the tail
        self.next_draw = rec.dealer  # the seat drawing next from the head (no claim)
        self.turns = [0] * 4
        self.discards = [0] * 4
        self.last_draw = [-1] * 4  # each seat's last tile drawn (a locked hand throws it)
        self.declared = [False] * 4
        self.bao_seen = [None] * 4
        self.no_bao = False
        self.dealer = rec.dealer
        self.drawable = rec.drawable
        self.after_draw = [False] * 4  # the seat's last event was a draw (kongs allowed)
        self.after_draw[rec.dealer] = True  # (the dealer's 14th tile counts as his draw)
        self.bao_konged = [False] * 4  # a 用宝 kong this turn: his draw is its replacement

    def hand_text(self, s: int, conc=None, melds=None) -> str:
        conc = self.conc[s] if conc is None else conc
        melds = self.melds[s] if melds is None else melds
        parts = [T.format_tiles(np.asarray(conc, np.uint8))] if int(np.sum(conc)) else []
        parts += [T.laid_meld_text(k, ts) for k, ts in melds]  # ([*111s]: a 三幺鸡)
        return "".join(parts)

    def visible(self, s: int, extra: int = -1, taken: int = -1, bao: bool = True) -> str:
        """What seat s has seen; ``extra`` a tile more (a discard about to reach the pond),
        ``taken`` a pond tile less (the discard he claims); ``bao`` False: without the bao
        he looked at (``ccmj odds`` takes a known bao out of the pool itself: ``bao_arg``)."""
        vis = self.pond.copy()
        if taken >= 0:
            vis[taken] -= 1
        for o in range(4):
            if o == s:
                continue
            for k, ts in self.melds[o]:
                if T.is_public_meld(k, len(ts)):
                    for t in ts:
                        vis[t] += 1
        if bao and self.bao_seen[s] is not None:
            vis[self.bao_seen[s]] += 1
        if extra >= 0:
            vis[extra] += 1
        own = self.conc[s].copy()
        for _k, ts in self.melds[s]:
            for t in ts:
                own[t] += 1
        vis = np.minimum(vis, 4 - own)  # (a tile can never be seen more often than it exists)
        return T.format_tiles(vis.astype(np.uint8)) if vis.sum() else ""

    def bao_arg(self, s: int) -> str:
        """The bao as seat s knows it, as ``ccmj odds --bao`` takes it: the tile he looked at,
        unknown (not looked yet), or none (no tile can be one)."""
        if self.no_bao:
            return "none"
        return "unknown" if self.bao_seen[s] is None else T.tile_name(self.bao_seen[s])

    def public(self, t: int) -> int:
        """Copies of t in the ponds and the exposed melds (not in concealed kongs)."""
        return int(self.pond[t]) + sum(
            ts.count(t) for ms in self.melds for k, ts in ms if T.is_public_meld(k, len(ts))
        )

    def head_left(self) -> int:
        """The table's draws from the head still to come before the event followed now
        (``at``): the engine's count, the record replayed there (the dead wall as the kongs
        have grown it, the bao stepped over); a hand-made record's drawable tiles less the
        draws made."""
        if self.replay is None or self.at == 0:
            return max(0, self.drawable - self.drawn)
        if self.at not in self.lefts:
            from .referee import head_draws_left_after

            self.lefts[self.at] = head_draws_left_after(self.replay, self.at - 1, self.rv,
                                                        self.tp)  # fmt: skip
        return self.lefts[self.at]

    def draws_left(self, s: int, first: int) -> int:
        """Seat s's draws from the head still to come when seat ``first`` draws next."""
        left = self.head_left()
        o = (s - first) % 4
        return max(0, (left - o + 3) // 4)


def _claim_choices(tab: _Table, s: int, t: int, discarder: int, rv, v: Variant):
    """The claims seat s may make on the discard t: {name: (kind, conc after, meld tiles)}.
    Legal as the table's claim phase says (``actions.claim_options``: the engine's kernel)."""
    from .actions import claim_options

    kongs = sum(1 for ms in tab.melds for k, _ts in ms if k not in (L.MELD_CHOW, L.MELD_PUNG))
    left = N_WALL - DEALT - tab.drawn
    opts = claim_options(v, tab.dealer, s, tab.conc[s].astype(np.uint8), tab.melds[s], t,
                         discarder, left, tab.tail, kongs, tab.declared[s])  # fmt: skip
    out = {}
    c = tab.conc[s]
    for kind, lo in opts:
        c2 = c.copy()
        if kind == L.MELD_CHOW:
            mt = (lo, lo + 1, lo + 2)
            for x in mt:
                if x != t:
                    c2[x] -= 1
            out[f"chow {T.format_tiles(list(mt))}"] = (kind, c2, mt)
        elif kind == L.MELD_PUNG:
            c2[t] -= 2
            out[f"pung {T.tile_name(t)}"] = (kind, c2, (t, t, t))
        else:
            c2[t] -= 3
            out[f"kong {T.tile_name(t)}"] = (kind, c2, (t, t, t, t))
    return out


def _decisions_of_hand(rec: HandRecord, seats, valuer: Valuer, skipped: list,
                       followed=None) -> list:  # fmt: skip
    """The graded decisions of ``seats`` in a hand, the table followed event by event
    (``followed(i, table)``, if given, sees the table after each event i)."""
    from .simulate import table_params

    rv = rec.rv
    tab = _Table(rec, table_params(valuer.v))
    out = []
    ev = rec.events

    def add(s, i, kind, tiles, visible, draws, chosen, values):
        if chosen not in values:
            skipped.append({"hand": rec.number, "seat": SEATS[s], "event": i, "kind": kind,
                            "why": f"the choice made ({chosen}) was not valued"})  # fmt: skip
            return
        best, loss = _grade(valuer, values, chosen)
        out.append(Decision(rec.number, SEATS[s], i, tab.turns[s], kind, tiles, visible, draws,
                            chosen, best, values, loss, _method(values),
                            s == rec.dealer))  # fmt: skip

    def safe(s, i, kind, fn):
        try:
            fn()
        except CcmjError as e:  # (a position the analysis or the engine refuses: said)
            skipped.append({"hand": rec.number, "seat": SEATS[s], "event": i, "kind": kind,
                            "why": e.message})  # fmt: skip

    for i, (k, s, t, a, b) in enumerate(ev):
        tab.at = i
        if (k in (TL.EV_DRAW, TL.EV_TAIL) and s in seats and tab.declared[s] and rv[L.RV_BAO_KONG]
                and i and ev[i - 1][0] == TL.EV_LOOK and ev[i - 1][1] == s):  # fmt: skip
            safe(s, i, "kong", lambda s=s, i=i: _bao_kong(  # (a 用宝 kong he could have made)
                tab, s, i, _offered_bao_kong(rec, i, s, valuer.v), NO_BAO_KONG, valuer, add))
        if k == TL.EV_DRAW:
            b0 = tab.bao_seen[s]  # (a dead bao he keeps: he could have returned it first)
            if (s in seats and tab.declared[s] and b0 is not None and rec.rv[L.RV_BAO_CHANGE]
                    and tab.public(b0) >= 3):  # fmt: skip
                safe(s, i, "bao_change", lambda s=s, b0=b0, i=i: _bao_change(
                    tab, s, b0, i, valuer, add, BAO_KEEP))  # fmt: skip
            tab.conc[s][t] += 1
            tab.drawn += 1
            tab.turns[s] += 1
            tab.next_draw = (s + 1) % 4
            tab.last_draw[s] = t
        elif k == TL.EV_TAIL:
            tab.conc[s][t] += 1
            tab.drawn += 1
            tab.tail += 1
            tab.last_draw[s] = t
            tab.bao_konged[s] = False
        elif k in (TL.EV_ANKONG, TL.EV_JIAGANG):
            if s in seats and not tab.declared[s]:
                opts = _kong_options(tab, s)
                if (k, t) not in opts:
                    opts.append((k, t))
                safe(s, i, "kong", lambda s=s, o=opts, c=f"{KONG} {T.tile_name(t)}", i=i: _kong(
                    tab, s, o, c, i, valuer, add))  # fmt: skip
            elif s in seats:
                made = f"{KONG} {T.tile_name(t)}"
                safe(s, i, "kong", lambda s=s, c=made, i=i: _declared_kong(
                    tab, s, i, c, rec, valuer, add))  # fmt: skip
            tab.conc[s], tab.melds[s], _kind = _kong_after(tab, s, k, t)
        elif k == TL.EV_DISCARD:
            declares = i + 1 < len(ev) and ev[i + 1][0] == TL.EV_DECLARE
            if s in seats and not tab.declared[s]:
                opts = _kong_options(tab, s) if tab.after_draw[s] else []
                specials = []  # (special kongs: on his first turn; 补: onto one he laid)
                if not tab.discards[s] or any(k in SPECIAL_KINDS for k, _ts in tab.melds[s]):
                    safe(s, i, "kong", lambda s=s, i=i, sp=specials: sp.extend(
                        _offered_specials(rec, i, s, valuer.v)))  # fmt: skip
                if opts or specials:  # a kong he could have made, and did not
                    safe(s, i, "kong", lambda s=s, o=opts, i=i, sp=specials: _kong(
                        tab, s, o, NO_KONG, i, valuer, add, sp))  # fmt: skip
                safe(s, i, "discard",
                     lambda s=s, t=t, i=i: _discard(tab, s, t, i, valuer, add))  # fmt: skip
                safe(s, i, "declare", lambda s=s, t=t, i=i, d=declares: _declare(
                    tab, s, t, i, d, valuer, add, rec))  # fmt: skip
            elif s in seats and tab.after_draw[s]:  # (declared: a kong he could have made)
                safe(s, i, "kong", lambda s=s, i=i: _declared_kong(
                    tab, s, i, NO_KONG, rec, valuer, add))  # fmt: skip
            tab.conc[s][t] -= 1
            tab.pond[t] += 1
            tab.discards[s] += 1
            nxt = ev[i + 1 + declares][0] if i + 1 + declares < len(ev) else -1
            claimer = ev[i + 1 + declares][1] if nxt in (TL.EV_PUNG, TL.EV_CHOW, TL.EV_MINGKONG,
                                                         TL.EV_WIN) else -1  # fmt: skip
            if nxt != TL.EV_WIN:
                for o in seats:
                    if o == s:
                        continue
                    if claimer >= 0 and claimer != o and ev[i + 1 + declares][0] != TL.EV_CHOW:
                        continue  # a 碰/杠 by another seat came first
                    safe(o, i, "claim", lambda o=o, t=t, s=s, i=i, c=claimer, j=i + 1 + declares: (
                        _claim(tab, o, t, s, i, c, ev[j] if c >= 0 else None, valuer, add, rv)))
        elif k == TL.EV_DECLARE:
            tab.declared[s] = True
        elif k in (TL.EV_PUNG, TL.EV_MINGKONG, TL.EV_CHOW):
            tab.pond[t] -= 1
            if k == TL.EV_PUNG:
                tab.conc[s][t] -= 2
                tab.melds[s].append((L.MELD_PUNG, (t, t, t)))
            elif k == TL.EV_MINGKONG:
                tab.conc[s][t] -= 3
                tab.melds[s].append((L.MELD_KONG, (t, t, t, t)))
            else:
                for x in (a, a + 1, a + 2):
                    if x != t:
                        tab.conc[s][x] -= 1
                tab.melds[s].append((L.MELD_CHOW, (a, a + 1, a + 2)))
            tab.next_draw = (s + 1) % 4
        elif k in (TL.EV_SPECIAL, TL.EV_BU):
            bu = k == TL.EV_BU
            laid = None if bu else _laid_by_engine(rec, i, s, valuer.v)
            if s in seats and not tab.declared[s]:
                safe(s, i, "kong", lambda s=s, t=t, a=a, bu=bu, i=i, laid=laid: _special_kong(
                    tab, s, t, a, bu, i, valuer, add, laid))  # fmt: skip
            elif s in seats and bu:
                made = f"补 {T.tile_name(t)}"
                safe(s, i, "kong", lambda s=s, c=made, i=i: _declared_kong(
                    tab, s, i, c, rec, valuer, add))  # fmt: skip
            for o in seats if bu else ():  # 抢叉 he could have made on the 补 tile, and did not
                if o != s and not tab.declared[o] and tab.conc[o][t] >= 2:
                    safe(o, i, "claim", lambda o=o, t=t, s=s, i=i: _rob_pung(
                        tab, o, t, s, i, False, valuer, add))  # fmt: skip
            tab.conc[s], tab.melds[s] = _special_after(tab, s, t, a, bu, laid)
        elif k == TL.EV_BAO_KONG:  # 用宝: the bao tile, from the wall, into a kong
            if s in seats:
                made = _bao_kong_name(t, a)
                safe(s, i, "kong", lambda s=s, i=i, m=(a, b), c=made: _bao_kong(
                    tab, s, i, [m], c, valuer, add))  # fmt: skip
            tab.conc[s], tab.melds[s], _kind = _bao_kong_after(tab, s, t, a, b)
            tab.drawn += 1
            tab.bao_konged[s] = True
            tab.bao_seen = [None] * 4  # (the bao is gone: every look was at it, a new one comes)
        elif k == TL.EV_ROB_PUNG:
            tab.conc[s][t] -= 2
            tab.melds[s].append((L.MELD_PUNG, (t, t, t)))
        elif k == TL.EV_KONG_ROBBED:  # (seat b's 加杠/补 tile: out of his hand, to the robber)
            if a == 0 and s in seats and not tab.declared[s]:  # 抢叉: his pung, graded
                safe(s, i, "claim", lambda s=s, t=t, b=b, i=i: _rob_pung(
                    tab, s, t, b, i, True, valuer, add))  # fmt: skip
            tab.conc[b][t] -= 1
        elif k == TL.EV_LOOK:
            tab.bao_seen[s] = t
        elif k == TL.EV_PASS:
            tab.conc[s][t] -= 1
            tab.pond[t] += 1
            tab.next_draw = (s + 1) % 4
        elif k == TL.EV_NO_BAO:
            tab.no_bao = True
        elif k == TL.EV_BAO_CHANGE:  # (s >= 0: a seat's choice, bao_change optional)
            if s in seats:
                safe(s, i, "bao_change", lambda s=s, t=t, i=i: _bao_change(
                    tab, s, t, i, valuer, add, BAO_CHANGE))  # fmt: skip
            tab.bao_seen = [None] * 4  # (the old bao is back in the wall, a new one unseen)
        if 0 <= s < 4:  # a kong comes only in a turn that a draw began
            tab.after_draw[s] = k in (TL.EV_DRAW, TL.EV_TAIL) or (
                tab.after_draw[s] and k in (TL.EV_LOOK, TL.EV_BAO, TL.EV_NO_BAO))
        if followed is not None:
            followed(i, tab)
    return out


def _with_bu(melds, kind, t) -> list:
    """``melds`` with the 补 tile t on the first special kong of ``kind`` (MELD_ANKONG: on the
    大蛋 of three t, its fourth copy)."""
    melds = list(melds)
    for j, (k, ts) in enumerate(melds):
        if k == kind and (k != L.MELD_ANKONG or ts == (t, t, t)):
            melds[j] = (k, tuple(sorted((*ts, t))))
            break
    return melds


def _special_after(tab: _Table, s, t, kind, bu: bool, tiles=None):
    """(concealed counts, melds) of seat s after laying out a special kong of ``kind`` whose
    first tile is t (its ``tiles`` when the engine named them), or (``bu``) after a 补 of t
    onto his special kong of that kind."""
    c = tab.conc[s].copy()
    melds = list(tab.melds[s])
    if bu:
        c[t] -= 1
        return c, _with_bu(melds, kind, t)
    tiles = _special_tiles(c, kind, t) if tiles is None else tiles
    for x in tiles:
        c[x] -= 1
    melds.append((kind, tuple(tiles)))
    return c, melds


def _laid_by_engine(rec: HandRecord, i: int, s: int, v: Variant):
    """The tiles of the special kong seat s lays out at event i, as the table laid them (a 1s
    standing in for a missing member included); None when the record cannot be replayed."""
    if rec.replay is None:
        return None
    from .referee import position_after
    from .simulate import table_params

    try:
        pos = position_after(rec.replay, i, rec.rv, table_params(v), v)
    except CcmjError:
        pos = None
    if pos is None:
        return None
    return tuple(pos.seats[s].melds[-1][0].tiles)


def _special_kong(tab: _Table, s, t, kind, bu: bool, i, valuer: Valuer, add, laid=None):
    """A special kong laid out (``laid``: its tiles, as the table laid them), or a 补 onto
    one, against not (``_special_value``), against the 14 tiles' best discard. (The ones he
    could have made and did not: ``_kong``.)"""
    tiles, vis = tab.hand_text(s), tab.visible(s)
    d = tab.draws_left(s, (s + 1) % 4)
    dealer = s == tab.dealer
    chosen, made = _special_value(tab, s, t, kind, bu, laid, valuer, vis, d)
    values = {NO_KONG: valuer.best_of(valuer.values(tiles, vis, d, dealer)), chosen: made}
    add(s, i, "kong", tiles, vis, d, chosen, values)


def _special_value(tab: _Table, s, t, kind, bu: bool, laid, valuer: Valuer, vis, d):
    """(its name, its value) of a special kong of ``kind`` (first tile t; ``laid``: its tiles,
    None: as ``_special_tiles`` lays them) or a 补 of t: the hand after it with its
    replacement draw (a kong of four tiles, a 补), or its best discard (a 3-tile special kong
    takes no replacement draw), plus the kong money it earns at once."""
    dealer = s == tab.dealer
    c2, melds = _special_after(tab, s, t, kind, bu, laid)
    after = tab.hand_text(s, c2, melds)
    if bu or int(tab.conc[s].sum() - c2.sum()) > 3:
        made = valuer.values(after, vis, d + 1, dealer)[None]
    else:
        made = valuer.best_of(valuer.values(after, vis, d, dealer))
    laid = next(ts for k, ts in reversed(melds) if k == kind)
    made = _plus(made, _special_money(valuer.v, after, kind, bu))
    return (f"补 {T.tile_name(t)}" if bu else f"{KONG} {T.laid_meld_text(kind, laid)}"), made


def _special_money(v: Variant, after: str, kind, bu: bool) -> int:
    """The kong money of the special kong of ``kind`` last laid in the hand ``after``, as the
    table pays it: a 补 the difference its one more tile makes (the 补 tiles of the meld as
    the variant reads it, as ccmj score reads a hand)."""
    m = next(m for m in reversed(T.parse_hand(after, v.meld_rules).melds) if m.kind == kind)
    money = _kong_money(v, kind, m.tiles[0], m.bu)
    return money - _kong_money(v, kind, m.tiles[0], m.bu - 1) if bu else money


def _special_tiles(c, kind, first):
    """The tiles a special kong of ``kind`` takes from the hand (one of each kind of its group,
    as the engine lays it out: every group tile held once; a 三幺鸡, first tile 1s: three 1s)."""
    if first == L.ONE_S and kind == L.MELD_YAODAN:
        return [L.ONE_S] * 3
    if kind == L.MELD_ANKONG:  # a 大蛋 laid as three (dadan_laid)
        return [first] * 3
    return [x for x in sorted(T.SPECIAL_GROUPS.get(kind, ())) if c[x] > 0]


def _discard(tab: _Table, s, t, i, valuer: Valuer, add):
    tiles, vis = tab.hand_text(s), tab.visible(s)
    d = tab.draws_left(s, (s + 1) % 4)
    vals = valuer.values(tiles, vis, d, s == tab.dealer)
    values = {k: x for k, x in vals.items()}
    add(s, i, "discard", tiles, vis, d, T.tile_name(t), values)


def _declarable(tab: _Table, s, c, x, v: Variant) -> bool:
    """Whether the hand ``c`` (the seat's concealed tiles after discarding x) is a tenpai with
    a live legal wait that may declare (the engine's ``may_declare``, through ``hand.waits``)."""
    from . import hand as H
    from ._kernels.judge import may_declare

    w = H.waits(tab.hand_text(s, c), tab.visible(s, x), v)
    if not (w.tenpai and w.live_total > 0):
        return False
    own = c.copy()
    for _k, ts in tab.melds[s]:
        for y in ts:
            own[y] += 1
    return bool(may_declare(own.astype(np.uint8), v.vector))


def _declare(tab: _Table, s, t, i, declared: bool, valuer: Valuer, add, rec):
    """报听 now or not, and with which discard: ``declare X`` for every discard X of the 14
    tiles that leaves a tenpai that may declare (the one made with t whenever he declared),
    against staying undeclared with the discard made, t."""
    d = tab.draws_left(s, (s + 1) % 4)
    dealer = s == tab.dealer
    bao = "none" if tab.no_bao else "unknown"
    values = {}
    for x in np.flatnonzero(tab.conc[s]):
        c = tab.conc[s].copy()
        c[x] -= 1
        if (declared and x == t) or _declarable(tab, s, c, x, valuer.v):
            vis = tab.visible(s, x)
            values[f"{DECLARE} {T.tile_name(int(x))}"] = valuer.values(
                tab.hand_text(s, c), vis, d, dealer, declare=True, bao=bao)[None]  # fmt: skip
    if not values:
        return
    c = tab.conc[s].copy()
    c[t] -= 1
    values[STAY] = valuer.values(tab.hand_text(s, c), tab.visible(s, t), d, dealer)[None]
    chosen = f"{DECLARE} {T.tile_name(t)}" if declared else STAY
    add(s, i, "declare", tab.hand_text(s), tab.visible(s), d, chosen, values)


def _bao_change(tab: _Table, s, b, i, valuer: Valuer, add, chosen: str):
    """换宝 (bao_change optional): the declared seat, before his draw, returns the bao b whose
    kind is dead (its three other copies public) and a new one is rolled — against keeping
    it (``chosen``: which he did). Kept, the bao can never be drawn (摸宝) nor be his wait
    (he would have won on it by 对宝 when he looked): his locked hand plays as with no bao,
    the tile b out of the wall. Returned, the bao is unknown again and b back among the
    unseen tiles."""
    tiles, vis = tab.hand_text(s), tab.visible(s)
    back = tab.visible(s, bao=False)
    d = tab.draws_left(s, s)
    dealer = s == tab.dealer
    keep = valuer.values(tiles, vis, d, dealer, declare=True, bao="none")[None]
    change = valuer.values(tiles, back, d, dealer, declare=True, bao="unknown")[None]
    add(s, i, "bao_change", tiles, vis, d, chosen, {BAO_CHANGE: change, BAO_KEEP: keep})


def _claim(tab: _Table, o, t, discarder, i, claimer, claim_ev, valuer: Valuer, add, rv):
    choices = _claim_choices(tab, o, t, discarder, rv, valuer.v)
    if not choices:
        return
    first = (discarder + 1) % 4
    d_pass = tab.draws_left(o, first)
    base = tab.hand_text(o)
    locked = tab.declared[o]  # (a declared seat's locked hand: a 明杠 that keeps his waits)
    lock = {"declare": locked, "bao": tab.bao_arg(o) if locked else "none"}
    vis = tab.visible(o, bao=not locked)  # (the discard is in the pond)
    dealer = o == tab.dealer
    values = {PASS: valuer.values(base, vis, d_pass, dealer, **lock)[None]}
    for name, (kind, c2, mt) in choices.items():
        melds = [*tab.melds[o], (kind, mt)]
        tiles = tab.hand_text(o, c2, melds)
        vis2 = tab.visible(o, taken=t, bao=not locked)  # the claimed tile is his now
        if kind == L.MELD_KONG:  # the replacement draw, then his draws as the wall says
            d = tab.draws_left(o, (o + 1) % 4) + 1
            values[name] = _plus(valuer.values(tiles, vis2, d, dealer, **lock)[None],
                                 _kong_money(valuer.v, kind, t))
        else:
            d = tab.draws_left(o, (o + 1) % 4)
            values[name] = valuer.best_of(valuer.values(tiles, vis2, d, dealer))
    chosen = PASS
    if claim_ev is not None and claimer == o:
        k, _s, _t, a, _b = claim_ev
        if k == TL.EV_PUNG:
            chosen = f"pung {T.tile_name(t)}"
        elif k == TL.EV_MINGKONG:
            chosen = f"kong {T.tile_name(t)}"
        elif k == TL.EV_CHOW:
            chosen = f"chow {T.format_tiles([a, a + 1, a + 2])}"
    if len(values) > 1:
        add(o, i, "claim", f"{base}+{T.tile_name(t)}", tab.visible(o), d_pass, chosen, values)


def _rob_pung(tab: _Table, o, t, konger, i, robbed: bool, valuer: Valuer, add):
    """抢叉: seat o may pung the 补 tile t that ``konger`` adds to his special kong (when the
    table's claim rules let him pung it as a discard of the konger's). Graded as a claim: the
    pung (the tile his, his best discard, then his draws as after any pung) against passing
    (the 补 stands, the tile public in the konger's meld, who draws from the tail and
    discards; o's draws as after that discard). ``robbed``: he made it."""
    name = f"pung {T.tile_name(t)}"
    if name not in _claim_choices(tab, o, t, konger, tab.rv, valuer.v):
        return
    base = tab.hand_text(o)
    vis = tab.visible(o, extra=t)  # (passing: the 补 tile lies in the konger's meld)
    dealer = o == tab.dealer
    d_pass = tab.draws_left(o, (konger + 1) % 4)
    c2 = tab.conc[o].copy()
    c2[t] -= 2
    after = tab.hand_text(o, c2, [*tab.melds[o], (L.MELD_PUNG, (t, t, t))])
    d_pung = tab.draws_left(o, (o + 1) % 4)  # (he discards: the next seat draws first)
    values = {
        PASS: valuer.values(base, vis, d_pass, dealer)[None],
        name: valuer.best_of(valuer.values(after, tab.visible(o), d_pung, dealer)),
    }
    add(o, i, "claim", f"{base}+{T.tile_name(t)}", vis, d_pass, name if robbed else PASS, values)


def _kong_options(tab: _Table, s) -> list:
    """The kongs seat s could make on its turn after a draw: 暗杠 of four concealed copies,
    加杠 of a concealed copy onto its pung (with a replacement draw left in the wall)."""
    if tab.draws_left(s, s) <= 0:
        return []
    c = tab.conc[s]
    out = [(TL.EV_ANKONG, int(x)) for x in np.flatnonzero(c == 4)]
    out += [(TL.EV_JIAGANG, ts[0]) for k, ts in tab.melds[s] if k == L.MELD_PUNG and c[ts[0]]]
    return out


def _declared_kong(tab: _Table, s, i, chosen, rec: HandRecord, valuer: Valuer, add):
    """A declared seat's kong or not, where the table lets it make one (a 暗杠, 加杠 or 补 that
    keeps every wait: the engine's legal actions before event i): the locked hand after it
    with its replacement draw and its kong money, against throwing the tile it drew. The bao
    as the seat knows it (the tile it saw, else unknown; none when no tile can be one)."""
    offers = _offered(rec, i, s, valuer.v, ("ankong", "jiagang", "bu"))
    if not offers or tab.last_draw[s] < 0:
        return
    drawn = tab.last_draw[s]
    vis, vis_thrown = tab.visible(s, bao=False), tab.visible(s, drawn, bao=False)
    bao = tab.bao_arg(s)
    d = tab.draws_left(s, (s + 1) % 4)
    dealer = s == tab.dealer

    def locked(c, melds, draws):
        return valuer.values(tab.hand_text(s, c, melds), vis, draws, dealer, declare=True,
                             bao=bao)[None]  # fmt: skip

    c = tab.conc[s].copy()
    c[drawn] -= 1
    values = {NO_KONG: valuer.values(tab.hand_text(s, c), vis_thrown, d, dealer, declare=True,
                                     bao=bao)[None]}  # fmt: skip
    for group, a in offers:
        t = T.tile_index(a["tile"])
        if group == "bu":
            kind = _meld_kind(a["onto"])
            c2, melds = _special_after(tab, s, t, kind, True)
            money = _special_money(valuer.v, tab.hand_text(s, c2, melds), kind, True)
            values[f"补 {a['tile']}"] = _plus(locked(c2, melds, d + 1), money)
            continue
        k = TL.EV_ANKONG if group == "ankong" else TL.EV_JIAGANG
        c2, melds, kind = _kong_after(tab, s, k, t)
        values[f"{KONG} {a['tile']}"] = _plus(locked(c2, melds, d + 1),
                                              _kong_money(valuer.v, kind, t))  # fmt: skip
    add(s, i, "kong", tab.hand_text(s), tab.visible(s), d, chosen, values)


def _bao_kong_after(tab: _Table, s, t, a, kind):
    """(concealed counts, melds, meld kind) of seat s after a 用宝 kong of the bao tile t (it
    comes from the wall, not his hand): ``a`` 0 a 暗杠 of his three t, 1 a 加杠 onto his pung
    of t, 2 a 补 onto his special kong of ``kind``."""
    if a == 2:
        return tab.conc[s].copy(), _with_bu(tab.melds[s], kind, t), kind
    c = tab.conc[s].copy()
    c[t] += 1  # (as if drawn: then the kong of a drawn tile)
    return _kong_after(tab, s, TL.EV_ANKONG if a == 0 else TL.EV_JIAGANG, t, c)


def _bao_kong_name(t, a) -> str:
    return f"{BAO_KONG} {'补' if a == 2 else KONG} {T.tile_name(t)}"


def _offered_bao_kong(rec: HandRecord, i: int, s: int, v: Variant) -> list:
    """The 用宝 kong the table offers seat s right before event i: [(a, meld kind or None)]."""
    from .actions import BAO_KONG_NAMES

    return [(BAO_KONG_NAMES.index(x["kong"]), _meld_kind(x["onto"]) if "onto" in x else None)
            for _g, x in _offered(rec, i, s, v, ("bao_kong",))]  # fmt: skip


def _bao_kong(tab: _Table, s, i, offers, chosen, valuer: Valuer, add):
    """用宝 or not, at the declared seat's look: the 用宝 kong of ``offers`` [(a, meld kind)]
    (the bao tile b into the kong; a new bao is rolled and looked at at once, so it is unknown
    with 对宝 possible before his draw, which is the kong's replacement; plus its kong money)
    against drawing as usual, his locked hand with the bao b known. His draws are the same
    either way: this turn's (from the head, or the tail after an earlier 用宝) and the rest."""
    if not offers:
        return
    b = tab.bao_seen[s]
    vis = tab.visible(s, bao=False)  # (taken, the bao is his)
    d = tab.draws_left(s, (s + 1) % 4) + 1 if tab.bao_konged[s] else tab.draws_left(s, s)
    dealer = s == tab.dealer
    tiles = tab.hand_text(s)
    values = {NO_BAO_KONG: valuer.values(tiles, vis, d, dealer, declare=True,
                                         bao=tab.bao_arg(s))[None]}  # fmt: skip
    for a, kind in offers:
        c2, melds, kind = _bao_kong_after(tab, s, b, a, kind)
        after = tab.hand_text(s, c2, melds)
        money = (_special_money(valuer.v, after, kind, True) if a == 2
                 else _kong_money(valuer.v, kind, b))  # fmt: skip
        value = valuer.values(after, vis, d, dealer, declare=True, bao="unknown")[None]
        values[_bao_kong_name(b, a)] = _plus(value, money)
    add(s, i, "kong", tiles, tab.visible(s), d, chosen, values)


def _meld_kind(name: str) -> int:
    """The meld kind a legal action names (``actions.MELD_NAMES``)."""
    from .actions import MELD_NAMES

    return MELD_NAMES.index(name)


def _offered(rec: HandRecord, i: int, s: int, v: Variant, groups) -> list:
    """[(group, action)] of the engine's legal actions for seat s right before event i, in the
    ``groups`` asked ("special_kong", "bu", "ankong", ...); none when the record cannot be
    replayed (a hand-made one)."""
    if rec.replay is None:
        return []
    from .actions import legal_actions
    from .referee import position_before
    from .simulate import table_params

    pos = position_before(rec.replay, i, rec.rv, table_params(v), v)
    if pos is None:
        return []
    acts = legal_actions(pos, s)["seats"].get(SEATS[s], {})
    return [(g, a) for g in groups for a in acts.get(g, [])]


def _offered_specials(rec: HandRecord, i: int, s: int, v: Variant) -> list:
    """The special kongs and 补 the table offers seat s right before event i (``_offered``):
    [(first tile, meld kind, bu, the tiles laid or None)]."""
    out = []
    for group, a in _offered(rec, i, s, v, ("special_kong", "bu")):
        if group == "bu":
            out.append((T.tile_index(a["tile"]), _meld_kind(a["onto"]), True, None))
        else:
            laid = T.parse_tiles(a["meld"].strip("[]").lstrip(T.SANYAOJI_MARK))
            kind = _meld_kind(a["kind"])
            out.append((T.tile_index(a["tile"]), kind, False, tuple(laid)))
    return out


def _kong_after(tab: _Table, s, k, t, c=None):
    """(concealed counts, melds, meld kind) of seat s after a 暗杠 (k EV_ANKONG) of t or a 加杠
    (EV_JIAGANG) of t onto his pung (``c``: his concealed counts, if not the table's)."""
    c = tab.conc[s].copy() if c is None else c.copy()
    if k == TL.EV_ANKONG:
        c[t] -= 4
        return c, [*tab.melds[s], (L.MELD_ANKONG, (t, t, t, t))], L.MELD_ANKONG
    c[t] -= 1
    melds = [m if m != (L.MELD_PUNG, (t, t, t)) else (L.MELD_KONG, (t, t, t, t))
             for m in tab.melds[s]]  # fmt: skip
    return c, melds, L.MELD_KONG


def _kong(tab: _Table, s, kongs, chosen, i, valuer: Valuer, add, specials=()):
    """Kong or not: each kong of ``kongs`` [(EV_ANKONG or EV_JIAGANG, tile)] with the
    replacement draw, and each special kong or 补 of ``specials`` (``_offered_specials``, as
    ``_special_value`` values them), against the 14 tiles' best discard."""
    tiles, vis = tab.hand_text(s), tab.visible(s)
    d = tab.draws_left(s, (s + 1) % 4)
    dealer = s == tab.dealer
    values = {NO_KONG: valuer.best_of(valuer.values(tiles, vis, d, dealer))}
    for k, t in kongs:
        c2, melds, kind = _kong_after(tab, s, k, t)
        after = tab.hand_text(s, c2, melds)
        values[f"{KONG} {T.tile_name(t)}"] = _plus(valuer.values(after, vis, d + 1, dealer)[None],
                                                   _kong_money(valuer.v, kind, t))
    for t, kind, bu, laid in specials:
        name, value = _special_value(tab, s, t, kind, bu, laid, valuer, vis, d)
        values[name] = value
    add(s, i, "kong", tiles, vis, d, chosen, values)


# ---------------------------------------------------------------- the public API
def _summary(decisions: list, objective: str, worst_n: int = 3) -> SeatSummary:
    n = len(decisions)
    key = "p_win" if objective == "win" else "expected_payment"
    tot = {"p_win": sum(d.loss["p_win"] for d in decisions),
           "expected_payment": sum(d.loss["expected_payment"] for d in decisions)}  # fmt: skip
    agree = sum(d.chosen == d.best for d in decisions)
    worst = sorted(decisions, key=lambda d: -d.loss[key])[:worst_n]
    return SeatSummary(
        decisions=n,
        agreement=agree / n if n else None,
        mean_loss={x: (y / n if n else 0.0) for x, y in tot.items()},
        total_loss=tot,
        worst=[{"hand": d.hand, "event": d.event, "kind": d.kind, "chosen": d.chosen,
                "best": d.best, "loss": d.loss} for d in worst if d.loss[key] > 0],  # fmt: skip
    )


def _record_variant(recs: list[HandRecord], rules) -> Variant:
    if isinstance(rules, Variant):
        v = rules
    else:
        from .position import variant_of  # (a name, or a log's every option)

        name = rules or (recs[0].rules if recs else None)
        if isinstance(name, Variant):  # (a record that loaded its own rules)
            return _record_variant(recs, name)
        try:
            v = variant_of(name)
        except Exception:  # (a rules file the record names that is not here)
            raise UsageError(
                f"the record was played under rules '{name}', which cannot be loaded: "
                "give them with --rules"
            ) from None
    for r in recs:
        if not np.array_equal(np.asarray(v.vector, np.int64), r.rv):
            raise UsageError(
                f"hand {r.number} was played under other rules than '{v.name}': give its rules "
                "with --rules"
            )
    return v


SEARCHES = ("full", "quick")
MAX_THREADS = 4  # the default's cap: each thread holds a search graph (up to ~0.4 GB in full)


def review(path, seat: str | None = None, hand: int | None = None, objective: str = "win",
           rules: Variant | str | None = None, search: str = "full",
           progress=None, threads: int | None = None) -> Review:  # fmt: skip
    """Grade every decision of ``seat`` (E/S/W/N; None: every seat) in the record at ``path``
    (hand ``hand`` only, 1-based, when given), by the exact analysis for ``objective``.
    ``search``: "full" values every position as ``ccmj odds --exact`` does; "quick" as
    ``ccmj odds`` does unasked (a smaller search region, the Monte Carlo where it finds no
    exact answer). ``threads``: hands reviewed side by side (None: one per core, at most
    ``MAX_THREADS``); the review does not depend on it."""
    if search not in SEARCHES:
        raise UsageError(f"bad --search '{search}': expected full or quick")
    if objective not in OBJECTIVES:
        raise UsageError(f"bad --objective '{objective}': expected win or payment")
    if seat is not None and seat.upper() not in SEATS:
        raise UsageError(f"bad --seat '{seat}': expected E, S, W or N")
    if hand is not None and hand < 1:
        raise UsageError(f"bad --hand {hand}: expected 1 or more")
    seats = [SEATS.index(seat.upper())] if seat else list(range(4))
    recs = read_record(path, hand)
    v = _record_variant(recs, rules)
    if threads is not None and threads < 1:
        raise UsageError(f"bad --threads {threads}: expected 1 or more")
    threads = min(threads or MAX_THREADS, os.cpu_count() or 1, len(recs) or 1)
    valuer = Valuer(v, objective, search=search, stop=threading.Event() if threads > 1 else None)

    def one(rec):
        skipped = []
        if rec.problem is not None:  # (reviewed up to its illegal event: said, not dropped)
            p = rec.problem
            skipped.append({"hand": rec.number, "seat": None, "event": p["event"],
                            "kind": "illegal", "why": f"not reviewed from this event on: "
                            f"{p['rule']}: {p['message']}"})  # fmt: skip
        return _decisions_of_hand(rec, seats, valuer, skipped), skipped

    if threads > 1:  # (the searches run without the GIL)
        graded = in_order(recs, one, threads, valuer.stop)
    else:
        graded = ((rec, one(rec)) for rec in recs)
    decisions, skipped = [], []
    for _rec, (ds, sk) in graded:
        decisions += ds
        skipped += sk
        if progress is not None:
            progress(1)
    summary = {SEATS[s]: _summary([d for d in decisions if d.seat == SEATS[s]], objective)
               for s in seats}  # fmt: skip
    return Review(str(path), objective, decisions, summary, skipped)


def losses_along(r: Review, seat: str) -> list[tuple[int, int, float]]:
    """(hand, event, loss in the objective) of a seat's decisions, in order: what --plot draws."""
    key = "p_win" if r.objective == "win" else "expected_payment"
    return [(d.hand, d.event, d.loss[key]) for d in r.decisions if d.seat == seat]

