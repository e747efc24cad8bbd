"""Legal actions at a table position: what each seat may do now, grouped, with the outcome by
priority when several seats claim one tile, and (explain) what the rules forbid now and why.

The judgments are the table engine's (``_kernels.table.actions.legal_actions`` asks the phases'
own kernels); wins carry the full score of ``ccmj score`` (``scoring.score``).
"""

from __future__ import annotations

import numpy as np

from . import tiles as T
from ._kernels import layout as L
from ._kernels.table import actions as A
from ._kernels.table.codes import CODE_NAMES
from .position import SEATS, Position, PositionError

HOW_NAMES = {L.HOW_SELF: "self", L.HOW_DISCARD: "discard", L.HOW_MOBAO: "mobao",
             L.HOW_DUIBAO: "duibao"}  # fmt: skip
GROUPS = ("win", "look", "bao_change", "bao_kong", "special_kong", "bu", "ankong", "jiagang",
          "mingkong", "pung", "rob_pung", "chow", "declare", "discard", "draw", "pass")  # fmt: skip
GROUP_OF = {
    A.A_WIN: "win", A.A_LOOK: "look", A.A_BAO_CHANGE: "bao_change", A.A_SPECIAL: "special_kong",
    A.A_BU: "bu", A.A_ANKONG: "ankong", A.A_JIAGANG: "jiagang", A.A_MINGKONG: "mingkong",
    A.A_PUNG: "pung", A.A_ROB_PUNG: "rob_pung", A.A_CHOW: "chow", A.A_DECLARE: "declare",
    A.A_DISCARD: "discard", A.A_DRAW: "draw", A.A_PASS: "pass", A.A_BAO_KONG: "bao_kong",
}  # fmt: skip
MELD_NAMES = ("chow", "pung", "kong", "ankong", "xuanfeng", "xi", "yaodan", "jiudan")
BAO_KONG_NAMES = ("ankong", "jiagang", "bu")  # a 用宝 kong's kind (the engine's a = 0, 1, 2)

_ENGINE: dict = {}


def _engine():
    """The lookup tables and scratch (loaded once). The discard policy's useful-tile tables
    are part of the scratch but no action asks the policy: interpreted (``ccmj actions``, one
    position), empty ones stand in, sparing their load."""
    if not _ENGINE:
        from ._kernels.jit import INTERPRETED
        from ._kernels.table.state import new_work
        from ._kernels.tables import tables

        if INTERPRETED:
            ut = (np.zeros((0, 10), np.uint16), np.zeros((0, 10), np.uint16))
        else:
            from ._kernels.useful import useful_tables

            ut = useful_tables()
        _ENGINE["tb"] = tables()
        _ENGINE["ws"] = new_work(ut)
        _ENGINE["out"] = A.new_actions()
    return _ENGINE


def _waits(mask: int) -> list[str]:
    return [T.tile_name(t) for t in range(L.N_KINDS) if mask >> t & 1]


def _score(p: Position, s: int, tile: int, how: int, src: int, tab) -> dict:
    """The full score of the win, as ``ccmj score`` gives it (seats as at the table)."""
    from .scoring import score

    sp = p.seats[s]
    c = sp.hand.copy()
    if how in (L.HOW_SELF, L.HOW_MOBAO):
        c[p.tile] -= 1
    hand = T.Hand(c, tuple(m for m, _ in sp.melds))
    rel = lambda x: SEATS[(x - p.dealer) % 4]  # noqa: E731 (score seats the dealer East)
    kongs = []
    for o, op in enumerate(p.seats):
        if o == s:
            continue
        ks = "".join(m.text() for m, _ in op.melds if m.kind not in (L.MELD_CHOW, L.MELD_PUNG))
        if ks:
            kongs.append(f"{rel(o)}:{ks}")
    declared = looked = False
    if src >= 0:
        from ._kernels.table.settle import declared_state

        dstate = int(declared_state(tab[1], tab[0], src, p.variant.vector))
        declared, looked = dstate >= 1, dstate == 2
    win_tile = p.bao_tile if how in (L.HOW_MOBAO, L.HOW_DUIBAO) else tile
    r = score(
        hand, win=T.tile_name(win_tile), how=HOW_NAMES[how], seat=rel(s),
        discarder=rel(src) if src >= 0 else None,
        bao=T.tile_name(p.bao_tile) if how in (L.HOW_MOBAO, L.HOW_DUIBAO) else None,
        kongs=",".join(kongs) or None, declared=declared, looked=looked, rules=p.variant,
    ).to_dict()  # fmt: skip
    back = {SEATS[(p.dealer + i) % 4]: i for i in range(4)}

    def seats(d):
        return {k: d[SEATS[back[k]]] for k in SEATS} if isinstance(d, dict) else d

    for k in ("fan_by_seat", "payments", "kong_payments", "total", "total_amount"):
        r[k] = seats(r[k])
    r["seat"] = SEATS[s]
    r["discarder"] = SEATS[src] if src >= 0 else None
    for k in r["kongs"]:
        k["seat"] = SEATS[(SEATS.index(k["seat"]) + p.dealer) % 4]
    return r


def _special_name(kind: int) -> str:
    """A laid meld's name: a special kong's, or ``dadan`` for a 大蛋 laid as three."""
    return "dadan" if kind == L.MELD_ANKONG else MELD_NAMES[kind]


def _describe(p: Position, row, tab) -> dict:
    kind, s, t, a, b, code, waits, fan, pri = (int(x) for x in row)
    d: dict = {"action": A.ACTION_NAMES[kind], "seat": SEATS[s]}
    if t >= 0:
        d["tile"] = T.tile_name(t)
    if kind == A.A_CHOW:
        d["chow"] = T.format_tiles([a, a + 1, a + 2])
    if kind == A.A_SPECIAL:
        tl = []
        while b:
            tl.append(b % 64 - 1)
            b //= 64
        d["meld"] = T.laid_meld_text(a, tl[::-1])
        d["kind"] = _special_name(a)
    if kind == A.A_BU:
        d["onto"] = _special_name(a)
    if kind == A.A_BAO_KONG:
        d["kong"] = BAO_KONG_NAMES[a]
        if a == 2:  # (the special kong the bao goes onto: the engine's rule for a 补 tile)
            from ._kernels.table.state import bu_kind

            d["onto"] = _special_name(int(bu_kind(tab[1], s, t, p.variant.vector)))
    if kind in (A.A_PUNG, A.A_CHOW, A.A_MINGKONG, A.A_ROB_PUNG) and b >= 0:
        d["from"] = SEATS[b]
    if kind == A.A_PASS and b >= 0 and p.phase() in (2, 3):  # (a win-only draw has no "from")
        d["from"] = SEATS[b]
    if kind in (A.A_DISCARD, A.A_DECLARE):
        d["tenpai"] = waits != 0
        d["waits"] = _waits(waits)
    if kind == A.A_LOOK:
        d["duibao"] = bool(a)
        if t < 0:
            d["rolls"] = True  # (the first look rolls the bao)
        if a and not code:
            d["fan"] = fan  # (对宝 is a win: its fan, as a win's)
    if kind == A.A_WIN:
        d["how"] = HOW_NAMES[a]
        if b >= 0:
            d["from"] = SEATS[b]
        d["fan"] = fan
    if code:
        d["forbidden"] = CODE_NAMES[code]
    elif kind == A.A_WIN or (kind == A.A_LOOK and a):
        how = a if kind == A.A_WIN else L.HOW_DUIBAO
        d["score"] = _score(p, s, t, how, b if kind == A.A_WIN else -1, tab)
    return d


def read_position(path: str) -> str:
    """The text of a position file (``-``: standard input), or a PositionError naming it."""
    try:
        if path == "-":
            import sys

            return sys.stdin.read()
        with open(path, encoding="utf-8-sig") as f:
            return f.read(1 << 20)
    except (OSError, UnicodeDecodeError) as e:
        raise PositionError(f"cannot read position '{path}': {getattr(e, 'strerror', None) or e}")


def legal_actions(position: Position | dict | str, seat: str | int | None = None,
                  explain: bool = False) -> dict:  # fmt: skip
    """Every legal action of every seat that may act now (or of ``seat``), grouped by kind;
    ``claims``: when several seats may claim one tile, who takes it (胡 nearest the discarder,
    then 碰/杠, then 吃); ``forbidden`` (explain): the actions the rules forbid now, each with
    the rule code that forbids it."""
    p = position if isinstance(position, Position) else Position.from_json(position)
    if isinstance(seat, str):
        if seat.upper() not in SEATS or len(seat) != 1:
            raise PositionError(f"bad seat '{seat}': expected E, S, W or N")
        seat = SEATS.index(seat.upper())
    from .simulate import table_params

    e = _engine()
    rv = p.variant.vector
    tp = table_params(p.variant)
    tab, known = p.state()
    p.finish_state(tab, e["ws"], rv, e["tb"])
    out = e["out"]
    n = int(A.legal_actions(tab, e["ws"], rv, e["tb"], tp, known, out))
    rows = out[: min(n, out.shape[0])].copy()
    per: dict = {}
    forbidden = []
    for row in rows:
        s = int(row[A.AC_SEAT])
        if seat is not None and s != seat:
            continue
        d = _describe(p, row, tab)
        if row[A.AC_CODE]:
            forbidden.append(d)
            continue
        g = per.setdefault(SEATS[s], {})
        g.setdefault(GROUP_OF[int(row[A.AC_KIND])], []).append(
            {k: v for k, v in d.items() if k not in ("action", "seat")}
        )
    result: dict = {
        "phase": ("draw", "turn", "claim", "rob", "over")[p.phase()],
        "on_turn": SEATS[p.cur],
        "seats": {s: {k: per[s][k] for k in GROUPS if k in per[s]} for s in SEATS if s in per},
        "unknown": [SEATS[s] for s in range(4) if not known[s]],
    }
    if p.phase() in (2, 3):
        claims = [r for r in rows if r[A.AC_CODE] == 0 and r[A.AC_PRI] > 0]
        claims.sort(key=lambda r: -int(r[A.AC_PRI]))
        order = []
        for r in claims:
            d = _describe(p, r, tab)
            order.append({k: d[k] for k in ("seat", "action", "tile", "chow") if k in d})
        for x in order[1:]:  # (what a record shows instead breaks the referee's claim_priority)
            x["rule"] = "claim_priority"
            x["loses_to"] = {"seat": order[0]["seat"], "action": order[0]["action"]}
        result["claims"] = {
            "priority": order,
            "takes": order[0] if order else None,
            "jiehu": sum(1 for r in claims if r[A.AC_KIND] == A.A_WIN) > 1,
        }
    if explain:
        result["forbidden"] = forbidden
    return result


def claim_options(variant, dealer: int, seat: int, hand, melds, tile: int, discarder: int,
                  left: int, tail_draws: int, kongs: int,
                  declared: bool = False) -> list[tuple[int, int]]:  # fmt: skip
    """The claims (碰, each 吃, 明杠) ``seat`` may make on the discard ``tile`` of
    ``discarder``, as the table's claim phase allows them: [(meld kind, first tile)]. ``hand``
    (uint8[34]) and ``melds`` ([(kind, tiles)]) are his; the other seats' tiles are unknown;
    the wall has ``left`` tiles after ``tail_draws`` replacement draws and ``kongs`` kongs.
    ``declared``: his hand is locked (only a 明杠 that keeps his waits)."""
    from .position import SeatPos

    seats = []
    for s in range(4):
        if s == seat:
            ms = [(T.Meld(k, tuple(int(x) for x in ts)), -1) for k, ts in melds]
            seats.append(SeatPos(np.asarray(hand, np.uint8), int(np.sum(hand)), ms, [],
                                 declared=declared))  # fmt: skip
        else:
            seats.append(SeatPos(None, 13, [], []))
    p = Position(variant, dealer, seats, left, tail_draws, kongs, "none", -1, 0, 0, False,
                 "discard", discarder, tile)  # fmt: skip
    from .simulate import table_params

    e = _engine()
    tab, known = p.state()
    out = e["out"]
    n = int(A.legal_actions(tab, e["ws"], variant.vector, e["tb"], table_params(variant), known,
                            out))  # fmt: skip
    kinds = {A.A_PUNG: L.MELD_PUNG, A.A_CHOW: L.MELD_CHOW, A.A_MINGKONG: L.MELD_KONG}
    return [(kinds[int(r[A.AC_KIND])], int(r[A.AC_A]) if r[A.AC_KIND] == A.A_CHOW else tile)
            for r in out[: min(n, out.shape[0])]
            if r[A.AC_SEAT] == seat and r[A.AC_CODE] == 0 and int(r[A.AC_KIND]) in kinds]  # fmt: skip


def actions_counts(result: dict) -> np.ndarray:
    """(tests) the number of legal actions per seat."""
    return np.array([sum(len(v) for v in result["seats"].get(s, {}).values()) for s in SEATS])
