"""A table position: JSON a person can type, validated, and the table engine's state it is.

``Position.from_json(text_or_dict)`` reads and checks a position (docs/position.md; the JSON
Schema is ``ccmj_cli/data/position.schema.json``); bad input raises ``PositionError`` with one
line naming the field. ``Position.state()`` builds the table engine's state arrays
(``_kernels.table.state.new_table``) — a position *is* a table state — and
``position_from_state`` goes back, from a table state and the events that led to it.
``legal_actions(position, seat)`` lists what each seat may do now (``_kernels.table.actions``).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
import yaml

from . import tiles as T
from ._kernels import layout as L
from ._kernels.table import layout as TL
from .errors import CcmjError, HandError, VariantError
from .rules import Variant, load_variant

SEATS = "ESWN"
N_WALL = 136
CLAIMED_MELDS = (L.MELD_CHOW, L.MELD_PUNG, L.MELD_KONG)
KIND_NAMES = ("chow", "pung", "kong", "ankong", "xuanfeng", "xi", "yaodan", "jiudan")
EVENTS = ("deal", "draw", "tail_draw", "claim", "discard", "kong_add", "to_draw")
TOP_KEYS = {"rules", "dealer", "seats", "wall", "bao", "last"}
SEAT_KEYS = {"hand", "count", "melds", "pond", "declared", "looked", "first_turn", "guoshui"}
MELD_KEYS = {"meld", "kind", "from", "robbed"}
WALL_KEYS = {"left", "tail_draws", "kongs"}
BAO_KEYS = {"state", "tile", "dice", "stack", "lower"}
LAST_KEYS = {"event", "seat", "tile", "kind", "declared", "special_laid"}


class PositionError(CcmjError):
    """A position that cannot be read or cannot happen: one line naming the field."""

    code = "bad_position"


def _fail(where: str, what: str):
    raise PositionError(f"bad position: {where}: {what}")


def _seat(value, where: str) -> int:
    if not isinstance(value, str) or value.upper() not in SEATS or len(value) != 1:
        _fail(where, f"expected a seat E, S, W or N, got {json.dumps(value)}")
    return SEATS.index(value.upper())


def _tile(value, where: str) -> int:
    if not isinstance(value, str):
        _fail(where, f"expected a tile like 5m, got {json.dumps(value)}")
    try:
        return T.tile_index(value.strip())
    except HandError as e:
        _fail(where, e.message)


def _bool(d: dict, key: str, where: str, default=False) -> bool:
    v = d.get(key, default)
    if not isinstance(v, bool):
        _fail(f"{where}.{key}", f"expected true or false, got {json.dumps(v)}")
    return v


def _int(d: dict, key: str, where: str, lo: int, hi: int, default=None) -> int:
    v = d.get(key, default)
    if isinstance(v, bool) or not isinstance(v, int):
        _fail(f"{where}.{key}", f"expected a whole number, got {json.dumps(v)}")
    if not lo <= v <= hi:
        _fail(f"{where}.{key}", f"{v} is out of range ({lo}..{hi})")
    return v


def _keys(d, allowed: set, where: str):
    if not isinstance(d, dict):
        _fail(where, f"expected an object, got {json.dumps(d)[:40]}")
    for k in d:
        if k not in allowed:
            _fail(where, f"unknown key '{k}' (known: {', '.join(sorted(allowed))})")


@lru_cache(maxsize=32)
def _inline_variant(text: str) -> Variant:
    """A variant from inline overrides (a mapping; ``extends`` a preset, default: default)."""
    d = tempfile.mkdtemp(prefix="ccmj-position-")
    path = os.path.join(d, "position-rules.yaml")
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return load_variant(path)
    except VariantError as e:  # (named as the user wrote it, not by the scratch file)
        msg = str(e)
        raise VariantError("the position's 'rules'" + msg[msg.find(": ") :]) from None
    finally:
        shutil.rmtree(d, ignore_errors=True)


def variant_of(rules) -> Variant:
    """The ``rules`` of a position: a preset name or file, or inline overrides (a mapping)."""
    if rules is None or isinstance(rules, str):
        return load_variant(rules)  # (VariantError: exit 3)
    if isinstance(rules, dict):
        return _inline_variant(yaml.safe_dump(rules, allow_unicode=True, sort_keys=True))
    _fail("rules", "expected a preset name, a variant file, or an object of overrides")


@dataclass
class SeatPos:
    hand: np.ndarray | None  # uint8[34] concealed tiles; None: unknown
    count: int  # concealed tile count
    melds: list  # [(T.Meld, from seat or -1)]
    pond: list  # [(tile, claimed)]
    declared: bool = False
    looked: bool = False
    first_turn: int = 0  # 0 over, 1 open, 2 open and entered by a claim
    guoshui: int = -1  # the tile of the discard win passed since his last draw (-1 none)
    robbed: tuple = ()  # indices in melds of the pungs robbed from a 补 (抢叉): no discard


@dataclass
class Position:
    """A validated table position (see docs/position.md)."""

    variant: Variant
    dealer: int
    seats: list
    left: int
    tail_draws: int
    kongs: int
    bao_state: str  # none | rolled | no_bao
    bao_tile: int
    bao_dice: int
    bao_stack: int
    bao_lower: bool
    event: str
    cur: int
    tile: int  # the event's tile (-1 none)
    add_kind: int = 0  # kong_add: 1 加杠, 2 补
    declared_with: bool = False  # discard: the seat declared (报听) with it
    raw: dict = field(default_factory=dict)
    special_laid: bool = False  # the seat on turn laid a 3-tile special kong since his tile

    # ------------------------------------------------------------------ reading
    @classmethod
    def from_json(cls, data, variant: Variant | None = None) -> Position:
        """A position from JSON text, a file's text, or a parsed mapping (``variant``: use
        this variant instead of reading ``rules``)."""
        if isinstance(data, (str, bytes)):
            try:
                data = json.loads(data)
            except json.JSONDecodeError as e:
                raise PositionError(f"bad position: not JSON (line {e.lineno}: {e.msg})") from None
            except (RecursionError, ValueError):
                raise PositionError("bad position: not JSON (nested too deeply)") from None
        _keys(data, TOP_KEYS, "position")
        for k in ("dealer", "seats", "wall", "last"):
            if k not in data:
                _fail("position", f"missing key '{k}'")
        v = variant if variant is not None else variant_of(data.get("rules"))
        dealer = _seat(data["dealer"], "dealer")
        seats_in = data["seats"]
        _keys(seats_in, set(SEATS), "seats")
        seats = []
        for s, name in enumerate(SEATS):
            if name not in seats_in:
                _fail("seats", f"missing seat {name}")
            seats.append(_read_seat(seats_in[name], f"seats.{name}", s, v))
        wall = data["wall"]
        _keys(wall, WALL_KEYS, "wall")
        left = _int(wall, "left", "wall", 0, N_WALL - 53)
        tail_draws = _int(wall, "tail_draws", "wall", 0, 40, 0)
        n_kongs = sum(
            1 for sp in seats for m, _f in sp.melds if m.kind not in (L.MELD_CHOW, L.MELD_PUNG)
        )
        kongs = _int(wall, "kongs", "wall", 0, 40, n_kongs)
        bao = data.get("bao", {"state": "none"})
        _keys(bao, BAO_KEYS, "bao")
        state = bao.get("state", "none")
        if state not in ("none", "rolled", "no_bao"):
            _fail("bao.state", f"expected none, rolled or no_bao, got {json.dumps(state)}")
        b_tile, dice, stack, lower = -1, 0, 0, False
        if state == "rolled":
            if "tile" not in bao:
                _fail("bao", "a rolled bao needs its 'tile'")
            b_tile = _tile(bao["tile"], "bao.tile")
            dice = _int(bao, "dice", "bao", 0, 12, 0)
            # (0, -1, ...: the tail's draws have passed the bao, which stays where it lay)
            stack = _int(bao, "stack", "bao", -68, 68, dice if dice else 1)
            lower = _bool(bao, "lower", "bao")
            if lower and v.bao_place == "top_six":
                _fail("bao.lower", "under bao_place top_six the bao is always a stack's top tile")
            if dice and not v.bao_dice <= dice <= 6 * v.bao_dice:
                _fail("bao.dice", f"{dice} cannot be rolled with {v.bao_dice} dice (bao_dice)")
        else:
            for k in ("tile", "stack", "lower"):
                if k in bao:
                    _fail(f"bao.{k}", f"given, but the bao is '{state}'")
        last = data["last"]
        _keys(last, LAST_KEYS, "last")
        ev = last.get("event")
        if ev not in EVENTS:
            _fail("last.event", f"expected one of {', '.join(EVENTS)}, got {json.dumps(ev)}")
        cur = _seat(last.get("seat", SEATS[dealer] if ev == "deal" else None), "last.seat")
        tile = _tile(last["tile"], "last.tile") if "tile" in last else -1
        add_kind = 0
        if ev == "kong_add":
            k = last.get("kind")
            if k not in ("jiagang", "bu"):
                _fail("last.kind", f"expected jiagang or bu, got {json.dumps(k)}")
            add_kind = 1 if k == "jiagang" else 2
        elif "kind" in last:
            _fail("last.kind", "only a kong_add event has a kind")
        p = cls(
            v, dealer, seats, left, tail_draws, kongs, state, b_tile, dice, stack, lower, ev, cur,
            tile, add_kind, _bool(last, "declared", "last"), data,
            special_laid=_bool(last, "special_laid", "last"),
        )  # fmt: skip
        p._check()
        return p

    # ------------------------------------------------------------------ consistency
    def holding(self) -> int:
        """The seat holding 3k+2 tiles now (-1: none)."""
        return self.cur if self.event in ("deal", "draw", "tail_draw", "claim") else -1

    def phase(self) -> int:
        if self.event in ("deal", "draw", "tail_draw", "claim"):
            return TL.PH_SELF
        if self.event == "discard":
            return TL.PH_CLAIM
        if self.event == "kong_add":
            return TL.PH_ROB
        return TL.PH_DRAW

    def _check(self):
        name = SEATS[self.cur]
        where = f"seats.{name}"
        need = {
            "draw": True, "tail_draw": True, "deal": True, "discard": True, "kong_add": True,
            "claim": False, "to_draw": False,
        }  # fmt: skip
        if need[self.event] and self.tile < 0:
            _fail("last.tile", f"a '{self.event}' event needs its tile")
        if not need[self.event] and self.tile >= 0:
            _fail("last.tile", f"a '{self.event}' event has no tile")
        if self.event == "deal" and self.cur != self.dealer:
            _fail("last.seat", f"the deal leaves the dealer {SEATS[self.dealer]} on turn, not {name}")
        # concealed counts: 13 - 3 per meld, +1 for the seat holding 3k+2
        for s, sp in enumerate(self.seats):
            exp = 13 - 3 * len(sp.melds) + (1 if s == self.holding() else 0)
            if sp.count != exp:
                state = "is on turn and holds" if s == self.holding() else "holds"
                _fail(
                    f"seats.{SEATS[s]}.hand",
                    f"{sp.count} concealed tiles, but a seat with {len(sp.melds)} melds that "
                    f"{state} {exp} ({'after the last event' if s == self.cur else 'now'})",
                )
        sp = self.seats[self.cur]
        if self.event in ("draw", "tail_draw", "deal") and sp.hand is not None:
            # (or he laid it out at once in a special kong: the first-turn timings allow that)
            laid = any(m.kind >= L.MELD_XUANFENG and self.tile in m.tiles for m, _ in sp.melds)
            if sp.hand[self.tile] == 0 and not laid:
                _fail("last.tile", f"{name} drew {T.tile_name(self.tile)} but does not hold it")
        if self.event == "discard":
            if not sp.pond or sp.pond[-1] != (self.tile, False):
                _fail("last.tile", f"the last discard of {name} is not an unclaimed "
                      f"{T.tile_name(self.tile)} (give it last in {where}.pond)")  # fmt: skip
        if self.event == "kong_add" and sp.hand is not None:
            if self.add_kind == 1 and not any(
                m.kind == L.MELD_PUNG and m.tiles[0] == self.tile for m, _ in sp.melds
            ):
                _fail("last.tile", f"{name} has no exposed pung of {T.tile_name(self.tile)} to add to")
        if self.event == "claim" and not any(f >= 0 for _, f in sp.melds):
            _fail("last.event", f"{name} is on turn by a claim but has no claimed meld")
        if self.declared_with and not (self.event == "discard" and sp.declared):
            _fail("last.declared", "only a discard by a declared seat can declare with it")
        if self.special_laid and not (
            self.holding() == self.cur
            and any((m.is_special or m.is_laid_dadan) and len(m.tiles) == 3 for m, _ in sp.melds)
        ):
            _fail("last.special_laid", f"{name} is not on turn with a 3-tile special kong laid")
        # claimed discards: each claimed meld takes one discard of the seat it names, but a
        # pung robbed from a 补 (抢叉), whose tile never reached the pond
        for s, o in enumerate(self.seats):
            for i in o.robbed:
                f = o.melds[i][1]
                if not any(m.is_special for m, _ in self.seats[f].melds):
                    _fail(f"seats.{SEATS[s]}.melds[{i}].robbed", f"{SEATS[f]} has no special "
                          "kong: there was no 补 tile to rob")  # fmt: skip
        for s in range(4):
            marks = sum(1 for _t, c in self.seats[s].pond if c)
            takes = sum(1 for o in self.seats for i, (_m, f) in enumerate(o.melds)
                        if f == s and i not in o.robbed)  # fmt: skip
            if marks != takes:
                _fail(
                    f"seats.{SEATS[s]}.pond",
                    f"{marks} discards marked claimed, but {takes} melds name {SEATS[s]} as "
                    "the seat they were claimed from",
                )
        # flags
        rolled = self.bao_state == "rolled"
        for s, o in enumerate(self.seats):
            w = f"seats.{SEATS[s]}"
            if o.looked and not o.declared:
                _fail(f"{w}.looked", "a seat that has not declared (报听) cannot look at the bao")
            if o.looked and not rolled:
                _fail(f"{w}.looked", "no bao is rolled to look at")
            if o.declared and o.first_turn:
                _fail(f"{w}.first_turn", "a declared seat has discarded: its first turn is over")
            if o.declared and not o.pond:
                _fail(f"{w}.declared", "a seat declares (报听) with a discard, and has none")
            if o.guoshui >= 0 and not self.variant.guoshui:
                _fail(f"{w}.guoshui", f"the variant '{self.variant.name}' has no 过水 (guoshui)")
        if self.bao_state != "none" and not any(o.declared for o in self.seats):
            _fail("bao.state", "a bao is rolled only once someone has declared (报听)")
        # tile counts: every copy somewhere, no fifth copy, 136 in all
        cnt = np.zeros(L.N_KINDS, np.int64)
        total = self.left
        for s, o in enumerate(self.seats):
            total += o.count
            if o.hand is not None:
                cnt += o.hand
            for m, _f in o.melds:
                for t in m.tiles:
                    cnt[t] += 1
                    total += 1
            for t, c in o.pond:
                if not c:
                    cnt[t] += 1
                    total += 1
        if self.event == "kong_add":
            cnt[self.tile] += 1
            total += 1
        if rolled:
            cnt[self.bao_tile] += 1
            public = sum(1 for o in self.seats for t, c in o.pond if not c and t == self.bao_tile)
            public += sum(1 for o in self.seats for m, _ in o.melds if m.is_public
                          for t in m.tiles if t == self.bao_tile)  # fmt: skip
            if public >= 3 and self.variant.bao_change != "optional":
                _fail("bao.tile", f"{public} other copies of the bao {T.tile_name(self.bao_tile)}"
                      " are public: under bao_change always it was changed (换宝) at once")
        for t in range(L.N_KINDS):
            if cnt[t] > 4:
                _fail("seats", f"{cnt[t]} copies of {T.tile_name(t)} in hands, melds, ponds"
                      f"{' and the bao' if rolled and t == self.bao_tile else ''} (there are 4)")
        if total != N_WALL:
            _fail("wall.left", f"{self.left} tiles left in the wall, but hands, melds and ponds "
                  f"hold {total - self.left}: {total} tiles in all, not 136")  # fmt: skip
        if self.tail_draws > self.kongs + sum(1 for o in self.seats for m, _ in o.melds
                                              if m.bu) + 8:  # fmt: skip
            _fail("wall.tail_draws", "more replacement draws than kongs and 补 tiles call for")

    # ------------------------------------------------------------------ the table state
    def state(self):
        """The table engine's state arrays (``state.new_table``) and ``known`` (int64[4])."""
        from ._kernels.table.state import new_table, reset_table, summarize

        tab = new_table()
        g, ps, conc, melded, ankong, pungs, taken, ms, mrec, nm, pond, exposed, kpay = tab
        reset_table(tab, self.dealer, False)
        known = np.zeros(4, np.int64)
        for s, sp in enumerate(self.seats):
            if sp.hand is not None:
                conc[s] = sp.hand
                known[s] = 1
            for m, _f in sp.melds:
                k = nm[s]
                mrec[s, k, 0] = m.kind
                mrec[s, k, 1] = len(m.tiles)
                mrec[s, k, 2 : 2 + len(m.tiles)] = m.tiles
                nm[s] = k + 1
                for t in m.tiles:
                    melded[s, t] += 1
                    if not m.is_public:  # (a concealed kong of four lies face down)
                        ankong[s, t] += 1
                    else:
                        exposed[t] += 1
                if m.kind == L.MELD_PUNG:
                    pungs[s, m.tiles[0]] = 1
                if m.is_special:
                    ps[s, TL.P_SPECIAL + m.kind - L.FIRST_SPECIAL] += 1
                if m.is_laid_dadan:  # (its fourth copy is a 补)
                    ps[s, TL.P_LAID_DADAN] |= np.int64(1) << m.tiles[0]
            summarize(mrec, nm, ms, s)
            for t, c in sp.pond:
                if not c:
                    pond[t] += 1
                ps[s, TL.P_DISC] |= np.int64(1) << t
            ps[s, TL.P_DECLARED] = 1 if sp.declared else 0
            ps[s, TL.P_FIRST] = sp.first_turn
        g[TL.G_TAIL] = N_WALL - 1 - self.tail_draws
        g[TL.G_HEAD] = g[TL.G_TAIL] + 1 - self.left
        g[TL.G_KONGS] = self.kongs
        g[TL.G_CUR] = self.cur
        g[TL.G_NDISC] = sum(len(sp.pond) for sp in self.seats)
        ph = self.phase()
        g[TL.G_PHASE] = ph
        g[TL.G_DRAWN] = self.tile if ph == TL.PH_SELF else -1
        if ph in (TL.PH_CLAIM, TL.PH_ROB):
            g[TL.G_PENDING] = self.tile
            g[TL.G_PEND_KIND] = self.add_kind
        if self.declared_with:
            g[TL.G_DECL_DISC] = self.cur
        g[TL.G_LAID] = 1 if self.special_laid else 0
        if self.bao_state == "rolled":
            g[TL.G_BAO] = self.bao_tile
            g[TL.G_BAO_VER] = 1
            top = g[TL.G_TAIL] if g[TL.G_TAIL] % 2 == 1 else g[TL.G_TAIL] - 1
            g[TL.G_BAO_POS] = top - 2 * (self.bao_stack - 1) - (1 if self.bao_lower else 0)
            g[TL.G_DICE_I] = 2
            for s, sp in enumerate(self.seats):
                if sp.looked:
                    ps[s, TL.P_LOOKED] = 1
        elif self.bao_state == "no_bao":
            g[TL.G_NO_BAO] = 1
            g[TL.G_BAO_VER] = 1
        # taken: a non-dealer on his first turn drew the tile he just drew (it was not dealt)
        if ph == TL.PH_SELF and self.event in ("draw", "tail_draw"):
            taken[self.cur, self.tile] += 1
        return tab, known

    def finish_state(self, tab, ws, rv, tb):
        """Fill what the state keeps as a judgment (过水: the fan of the win passed)."""
        from ._kernels.table.actions import passed_fan

        ps = tab[1]
        for s, sp in enumerate(self.seats):
            if sp.guoshui >= 0 and sp.hand is not None:
                f = passed_fan(tab, ws, s, sp.guoshui, rv, tb)
                if f < 0:
                    _fail(f"seats.{SEATS[s]}.guoshui",
                          f"{SEATS[s]}'s hand does not win on {T.tile_name(sp.guoshui)}")  # fmt: skip
                ps[s, TL.P_PASSED] = f

    def to_json(self) -> dict:
        """The position as JSON (the form ``from_json`` reads; tiles in MPSZ)."""
        seats = {}
        for s, sp in enumerate(self.seats):
            d: dict = {}
            if sp.hand is not None:
                d["hand"] = T.format_counts(sp.hand)
            else:
                d["count"] = sp.count
            if sp.melds:
                d["melds"] = [
                    {"meld": m.text(), "kind": KIND_NAMES[m.kind]}
                    | ({"from": SEATS[f]} if f >= 0 else {})
                    | ({"robbed": True} if i in sp.robbed else {})
                    for i, (m, f) in enumerate(sp.melds)
                ]
            d["pond"] = [T.tile_name(t) + ("*" if c else "") for t, c in sp.pond]
            d["declared"] = sp.declared
            d["looked"] = sp.looked
            d["first_turn"] = {0: False, 1: True, 2: "claimed"}[sp.first_turn]
            if sp.guoshui >= 0:
                d["guoshui"] = T.tile_name(sp.guoshui)
            seats[SEATS[s]] = d
        bao: dict = {"state": self.bao_state}
        if self.bao_state == "rolled":
            bao |= {"tile": T.tile_name(self.bao_tile), "dice": self.bao_dice,
                    "stack": self.bao_stack, "lower": self.bao_lower}  # fmt: skip
        last: dict = {"event": self.event, "seat": SEATS[self.cur]}
        if self.tile >= 0:
            last["tile"] = T.tile_name(self.tile)
        if self.add_kind:
            last["kind"] = "jiagang" if self.add_kind == 1 else "bu"
        if self.declared_with:
            last["declared"] = True
        if self.special_laid:
            last["special_laid"] = True
        rules = self.raw.get("rules", self.variant.name) if self.raw else self.variant.name
        return {
            "rules": rules,
            "dealer": SEATS[self.dealer],
            "seats": seats,
            "wall": {"left": self.left, "tail_draws": self.tail_draws, "kongs": self.kongs},
            "bao": bao,
            "last": last,
        }


def _read_seat(d, where: str, s: int, v: Variant) -> SeatPos:
    _keys(d, SEAT_KEYS, where)
    if ("hand" in d) == ("count" in d):
        _fail(where, "give either 'hand' (the concealed tiles) or 'count' (unknown tiles)")
    for key in ("melds", "pond"):
        if not isinstance(d.get(key, []), list):
            _fail(f"{where}.{key}", f"expected a list, got {json.dumps(d[key])[:40]}")
    melds = []
    robbed = []
    for i, md in enumerate(d.get("melds", [])):
        w = f"{where}.melds[{i}]"
        if isinstance(md, str):
            md = {"meld": md}
        _keys(md, MELD_KEYS, w)
        text = md.get("meld")
        if not isinstance(text, str):
            _fail(w, "needs 'meld', e.g. \"[555s]\" (open) or \"(5555s)\" (concealed kong)")
        try:
            h = T.parse_hand(text, v.meld_rules)
        except HandError as e:
            _fail(f"{w}.meld", e.message.split("': ", 1)[-1])
        if h.n_concealed or len(h.melds) != 1:
            _fail(f"{w}.meld", f"expected one bracketed meld, got {json.dumps(text)}")
        m = h.melds[0]
        if "kind" in md and md["kind"] != KIND_NAMES[m.kind]:
            _fail(f"{w}.kind", f"{m.text()} is a {KIND_NAMES[m.kind]} under '{v.name}', "
                  f"not a {md['kind']}")  # fmt: skip
        f = -1
        if m.kind in CLAIMED_MELDS:
            if "from" not in md:
                _fail(f"{w}.from", f"{m.text()} is claimed: say from whom")
            f = _seat(md["from"], f"{w}.from")
            if f == s:
                _fail(f"{w}.from", "a seat does not claim its own discard")
            if m.kind == L.MELD_CHOW and f != (s + 3) % 4:
                _fail(f"{w}.from", f"a chow is claimed only from the seat before ({SEATS[(s + 3) % 4]})")
        elif "from" in md:
            _fail(f"{w}.from", f"{m.text()} ({KIND_NAMES[m.kind]}) is not claimed from anyone")
        rb = md.get("robbed", False)
        if rb not in (True, False):
            _fail(f"{w}.robbed", f"expected true or false, got {json.dumps(rb)[:40]}")
        if rb and m.kind != L.MELD_PUNG:
            _fail(f"{w}.robbed", f"only a pung robs a 补 tile (抢叉), not a {KIND_NAMES[m.kind]}")
        if rb:
            robbed.append(len(melds))
        melds.append((m, f))
    if len(melds) > 4 + sum(1 for m, _ in melds if m.is_special):
        pass
    if v.one_special_kong_per_kind:
        kinds = [m.kind for m, _ in melds if m.is_special]
        if len(kinds) != len(set(kinds)):
            _fail(f"{where}.melds", f"two special kongs of one kind (one_special_kong_per_kind)")
    hand = None
    if "hand" in d:
        text = d["hand"]
        if not isinstance(text, str):
            _fail(f"{where}.hand", "expected MPSZ tiles, e.g. 123m456p")
        if not text.strip():
            counts = np.zeros(L.N_KINDS, np.uint8)
        else:
            try:
                h = T.parse_hand(text, v.meld_rules)
            except HandError as e:
                _fail(f"{where}.hand", e.message.split("': ", 1)[-1])
            if h.melds:
                _fail(f"{where}.hand", "concealed tiles only: melds go in 'melds'")
            counts = h.concealed.copy()
        hand = counts
        count = int(counts.sum())
    else:
        count = _int(d, "count", where, 0, 14)
    pond = []
    for i, p in enumerate(d.get("pond", [])):
        if not isinstance(p, str):
            _fail(f"{where}.pond[{i}]", f"expected a tile like 5m or 5m* (claimed), got {p!r}")
        claimed = p.strip().endswith("*")
        pond.append((_tile(p.strip().rstrip("*"), f"{where}.pond[{i}]"), claimed))
    ft = d.get("first_turn", not d.get("pond") and not melds)  # (open until his first discard)
    if ft not in (True, False, "claimed"):
        _fail(f"{where}.first_turn", f"expected true, false or \"claimed\", got {json.dumps(ft)}")
    first = {False: 0, True: 1, "claimed": 2}[ft]
    gs = -1
    if d.get("guoshui") is not None:
        gs = _tile(d["guoshui"], f"{where}.guoshui")
    return SeatPos(hand, count, melds, pond, _bool(d, "declared", where),
                   _bool(d, "looked", where), first, gs, tuple(robbed))  # fmt: skip


def _written(v: Variant):
    """A variant as a position writes it: a preset by name, else every option inline (a rules
    file's name alone would not load where the position is read)."""
    from .rules import preset_names

    return v.name if v.name in preset_names() else v.to_dict()


def position_from_state(tab, events, n_events, rules, wall_tiles=None) -> Position:
    """The position of a table state ``tab`` (``state.new_table``, as the phases left it)
    after the first ``n_events`` rows of ``events`` (EV_* rows: they give the order of the
    ponds and whom each meld was claimed from). ``rules``: the variant (or its name)."""
    v = rules if isinstance(rules, Variant) else variant_of(rules)
    g, ps, conc, melded, ankong, pungs, taken, ms, mrec, nm, pond, exposed, kpay = tab
    ponds: list[list] = [[] for _ in range(4)]
    froms: list[list] = [[] for _ in range(4)]
    for e in events[:n_events]:
        k, s, t, a, b = (int(x) for x in e[:5])
        if k == TL.EV_DISCARD:
            ponds[s].append([t, False])
        elif k in (TL.EV_CHOW, TL.EV_PUNG, TL.EV_MINGKONG):
            if ponds[b]:
                ponds[b][-1][1] = True
            froms[s].append((b, False))
        elif k == TL.EV_ROB_PUNG:
            froms[s].append((b, True))  # (robbed from b's 补, 抢叉: no discard)
        elif k == TL.EV_PASS:
            ponds[s].append([t, False])
    seats = {}
    for s in range(4):
        melds = []
        fi = 0
        for m in range(int(nm[s])):
            kind, n = int(mrec[s, m, 0]), int(mrec[s, m, 1])
            tl = [int(x) for x in mrec[s, m, 2 : 2 + n]]
            d = {"meld": T.laid_meld_text(kind, tl)}
            if kind in CLAIMED_MELDS:
                f, rb = froms[s][fi] if fi < len(froms[s]) else (-1, False)
                fi += 1
                if f >= 0:
                    d["from"] = SEATS[f]
                if rb:
                    d["robbed"] = True
            melds.append(d)
        first = int(ps[s, TL.P_FIRST])
        seats[SEATS[s]] = {
            "hand": T.format_counts(conc[s]) if conc[s].sum() else "",
            "melds": melds,
            "pond": [T.tile_name(t) + ("*" if c else "") for t, c in ponds[s]],
            "declared": bool(ps[s, TL.P_DECLARED]),
            "looked": bool(g[TL.G_BAO] >= 0 and ps[s, TL.P_LOOKED] == g[TL.G_BAO_VER]),
            "first_turn": {0: False, 1: True, 2: "claimed"}[first],
        }
    ph = int(g[TL.G_PHASE])
    cur = SEATS[int(g[TL.G_CUR])]
    if ph == TL.PH_SELF:
        drawn = int(g[TL.G_DRAWN])
        if drawn >= 0:
            last = {"event": "draw", "seat": cur, "tile": T.tile_name(drawn)}
        else:
            last = {"event": "claim", "seat": cur}
        if g[TL.G_LAID]:
            last["special_laid"] = True
    elif ph == TL.PH_CLAIM:
        last = {"event": "discard", "seat": cur, "tile": T.tile_name(int(g[TL.G_PENDING]))}
        if g[TL.G_DECL_DISC] == g[TL.G_CUR]:
            last["declared"] = True
    elif ph == TL.PH_ROB:
        last = {"event": "kong_add", "seat": cur, "tile": T.tile_name(int(g[TL.G_PENDING])),
                "kind": "jiagang" if g[TL.G_PEND_KIND] == 1 else "bu"}  # fmt: skip
    else:
        last = {"event": "to_draw", "seat": cur}
    from ._kernels.table.wall import wall_left

    left = int(wall_left(g))  # (a place a 用宝 kong emptied is not left)
    bao: dict = {"state": "none"}
    if g[TL.G_BAO] >= 0:
        top = g[TL.G_TAIL] if g[TL.G_TAIL] % 2 == 1 else g[TL.G_TAIL] - 1
        pos = int(g[TL.G_BAO_POS])
        bao = {"state": "rolled", "tile": T.tile_name(int(g[TL.G_BAO])),
               "stack": int((top - pos) // 2 + 1), "lower": bool(pos % 2 == 0)}  # fmt: skip
    elif g[TL.G_NO_BAO]:
        bao = {"state": "no_bao"}
    data = {
        "rules": rules if isinstance(rules, (str, dict)) else _written(v),
        "dealer": SEATS[int(g[TL.G_DEALER])],
        "seats": seats,
        "wall": {"left": left, "tail_draws": int(N_WALL - 1 - g[TL.G_TAIL]),
                 "kongs": int(g[TL.G_KONGS])},  # fmt: skip
        "bao": bao,
        "last": last,
    }
    return Position.from_json(data, v)
