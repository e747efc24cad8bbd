"""Fixed-wall tests of bao_kong (用宝补蛋或开杠, docs/rules.md §6): at his look a declared seat may
take the bao tile out of the wall for a kong (暗杠 with three concealed, 加杠 onto his pung, 补
onto a special kong of his) that keeps every wait; a new bao is rolled at once, he looks at
it, and his draw is the kong's replacement draw from the tail.

Each test builds a wall (``build_wall``: the engine's deal, then given draws and tail tiles) so
that the situation happens, and says how the expected events follow from the rule. The dice
are 3 + 4 (the first bao: 7 stacks from the tail, position 123), then 1 + 1 (the next bao: 2
stacks from the tail, position 133).
"""

import numpy as np
from test_simulate_mil import RVD, TPD, play, t_, with_
from test_simulate_table import JUNK, E, N, S, W, build_wall

from ccmj_cli import tiles as T
from ccmj_cli._kernels import layout as L
from ccmj_cli._kernels.table import layout as TL
from ccmj_cli.referee import referee, text_record
from ccmj_cli.rules import load_variant
from ccmj_cli.simulate import POLICIES

BK = with_(RVD, RV_BAO_KONG=1)
# no 9s among the others (E kongs 9s), and nothing they can win with or claim from E
OTHERS = {S: "147m258p368s2z3z4z6z", W: JUNK[W], N: JUNK[N]}
KONGS = (TL.EV_SPECIAL, TL.EV_ANKONG, TL.EV_MINGKONG, TL.EV_JIAGANG, TL.EV_BU, TL.EV_BAO_KONG)


def _kong_pay(out):
    return [int(x) for x in out["res"][TL.R_KONG_PAY : TL.R_KONG_PAY + 4]]


# E, the dealer, discards 7z and declares on 1z / 5s (对碰: 111z or 555s). At his next draw he
# rolls the bao: 9s, of which he holds three concealed.
ANKONG_WALL = dict(
    hands={E: "123m456p999s11z55s7z", **OTHERS}, draws="5z5z5z", tail="2m",
    at={123: "9s", 133: "8p"},
)  # fmt: skip


def test_bao_kong_ankong():
    # bao_kong: 9s is no wait of his (no 对宝), and 暗杠 [9999s] keeps both waits (123m 456p
    # 11z 55s: 1z, 5s), so he takes the bao out of the wall (position 123) for the 暗杠 (kong.an:
    # 2 from each other seat). The bao is gone: a new one is rolled at once (1 + 1 = 2 stacks:
    # 133, 8p), he looks at it (no wait either), and his draw is the kong's replacement draw
    # from the tail (2m), which he discards (locked).
    wall = build_wall(**ANKONG_WALL)
    out = play(wall, BK, TPD)
    ev = out["ev"]
    i = ev.index((TL.EV_BAO, E, t_("9s"), 7, 123))
    assert ev[i + 1 : i + 7] == [
        (TL.EV_LOOK, E, t_("9s"), 0, 0),
        (TL.EV_BAO_KONG, E, t_("9s"), 0, 0),
        (TL.EV_BAO, E, t_("8p"), 2, 133),
        (TL.EV_LOOK, E, t_("8p"), 0, 0),
        (TL.EV_TAIL, E, t_("2m"), 0, 0),
        (TL.EV_DISCARD, E, t_("2m"), 0, 0),
    ]
    assert out["mrec"][E, 0, 0] == L.MELD_ANKONG
    assert [int(x) for x in out["mrec"][E, 0, 2:6]] == [t_("9s")] * 4
    assert [e for e in ev if e[0] in KONGS] == [(TL.EV_BAO_KONG, E, t_("9s"), 0, 0)]
    assert _kong_pay(out) == [6, -2, -2, -2]
    # the tiles are conserved: the bao's place (123) is empty, never drawn, not left
    held = out["conc"].astype(np.int64) + out["melded"].astype(np.int64)
    assert held.sum(axis=0).max() <= 4
    assert held.sum() + out["pond"].sum() == 136 - out["res"][TL.R_WALL_LEFT]
    assert sum(1 for e in ev if e[0] in (TL.EV_DRAW, TL.EV_TAIL) and e[2] == t_("9s")) == 0


def test_bao_kong_off_is_todays_play():
    # the default (bao_kong false): the same wall, E looks at 9s and draws from the head
    wall = build_wall(**ANKONG_WALL)
    ev = play(wall, RVD, TPD)["ev"]
    i = ev.index((TL.EV_LOOK, E, t_("9s"), 0, 0))
    assert ev[i + 1][:2] == (TL.EV_DRAW, E)
    assert all(e[0] != TL.EV_BAO_KONG for e in ev)
    # and the rule vector's slot is off by default, on in a room that sets it
    assert load_variant().vector[L.RV_BAO_KONG] == 0


def test_bao_kong_refused_when_it_changes_a_wait():
    # E is locked on 2223m 456p 789s 555s: waits 1m (123m + 22m), 3m (222m + 33m), 4m (234m +
    # 22m). The bao is the fourth 2m: a 暗杠 [2222m] would leave 3m alone (单调): it changes
    # his waits, so he may not take it; he draws from the head as without the option.
    # (none of 1m, 2m, 3m, 4m among the others)
    others = {S: "679m258p368s2z3z4z6z", W: "568m369p147s2z3z4z6z", N: "79m147p28s4s2z3z4z6z5p"}
    wall = build_wall(
        {E: "2223m456p789s555s7z", **others}, draws="5z5z5z", at={123: "2m", 133: "8p"}
    )
    ev = play(wall, BK, TPD)["ev"]
    assert ev[:2] == [(TL.EV_DISCARD, E, t_("7z"), 0, 0), (TL.EV_DECLARE, E, -1, 0, 0)]
    i = ev.index((TL.EV_LOOK, E, t_("2m"), 0, 0))
    assert ev[i + 1][:2] == (TL.EV_DRAW, E)
    assert all(e[0] != TL.EV_BAO_KONG for e in ev)


# E, the dealer, lays out a 幺蛋 [1m1p1s] on his first turn, discards 7z and declares on 5s
# (单调). At his next draw the bao is 1m, a member of his 幺蛋.
BU_WALL = dict(
    hands={E: "1m1p1s234m567p345s5s7z", **JUNK}, draws="5z5z5z", tail="2m",
    at={123: "1m", 133: "8p"},
)  # fmt: skip


def test_bao_kong_bu_onto_a_special_kong():
    # bao_kong: he takes the bao 1m for a 补 onto his 幺蛋 (kong.bu: 1 from each), a new bao
    # is rolled (8p) and looked at, and his replacement draw is 2m from the tail.
    wall = build_wall(**BU_WALL)
    out = play(wall, BK, TPD)
    ev = out["ev"]
    assert ev[0] == (TL.EV_SPECIAL, E, t_("1m"), L.MELD_YAODAN, 3)
    i = ev.index((TL.EV_BAO, E, t_("1m"), 7, 123))
    assert ev[i + 1 : i + 6] == [
        (TL.EV_LOOK, E, t_("1m"), 0, 0),
        (TL.EV_BAO_KONG, E, t_("1m"), 2, L.MELD_YAODAN),
        (TL.EV_BAO, E, t_("8p"), 2, 133),
        (TL.EV_LOOK, E, t_("8p"), 0, 0),
        (TL.EV_TAIL, E, t_("2m"), 0, 0),
    ]
    assert out["mrec"][E, 0, 0] == L.MELD_YAODAN and out["mrec"][E, 0, 5] == t_("1m")
    # kong money: the 幺蛋 1, the 用宝 补 1, and a later 补 of a 1p he draws 1, from each
    assert [e[:3] for e in ev if e[0] in KONGS][2:] == [(TL.EV_BU, E, t_("1p"))]
    assert _kong_pay(out) == [9, -3, -3, -3]


def test_bao_kong_jiagang_under_optional_bao_change():
    # A 加杠 needs the bao on the fourth tile of a pung: the bao can be that tile only when the
    # pung was made after the roll and the dead bao was kept (bao_change optional, the seat not
    # asking for 换宝). The table at S's look: S, declared (2z 单调) with a pung [999s], has
    # looked at the bao 9s (wall position 123). He takes it for a 加杠 (kong.ming: 1 from
    # each), a new bao is rolled (1 + 1: 2 stacks from the tail, 133) and looked at.
    from test_simulate_mil import _state

    from ccmj_cli._kernels.table.bao import look_at_draw
    from ccmj_cli._kernels.table.kongs import BAO_KONG_MADE, BAO_KONG_NONE, bao_kongs
    from ccmj_cli._kernels.tables import tables

    def at_the_look(rv, change=0):
        tab, ws = _state({S: "234m567p345s2z"}, {S: [(L.MELD_PUNG, "999s")]})
        g, ps, pungs = tab[0], tab[1], tab[5]
        pungs[S, t_("9s")] = 1
        g[TL.G_CUR], g[TL.G_HEAD], g[TL.G_REC] = S, 60, 1
        g[TL.G_BAO_POS], g[TL.G_BAO], g[TL.G_BAO_VER] = 123, t_("9s"), 1
        ps[S, TL.P_DECLARED] = ps[S, TL.P_LOOKED] = 1
        wall = np.full(136, t_("8p"), np.int64)
        wall[123] = t_("9s")
        ev = np.zeros((TL.MAX_EVENTS, TL.EV_COLS), np.int64)
        bots = np.array([POLICIES["baseline"]] * 4, np.int64)
        bots[:, TL.K_BAO_CHANGE] = change
        dice, res = np.ones(TL.N_DICE, np.int64), np.zeros(TL.R_LEN, np.int64)
        # (his look is done; a seat that would ask for 换宝 of the dead bao takes it for the
        # kong instead: a new bao follows either way, and the kong is money)
        assert not look_at_draw(wall, dice, rv, tables(), TPD, ev, res, tab, ws, bots)
        r = bao_kongs(wall, dice, rv, tables(), TPD, bots, ev, res, tab, ws)
        return r, [tuple(int(x) for x in e) for e in ev[: g[TL.G_NEV]]], tab

    for change in (0, 1):
        r, ev, tab = at_the_look(with_(BK, RV_BAO_CHANGE=TL.BAO_CHANGE_OPTIONAL), change)
        assert r == BAO_KONG_MADE and ev[0] == (TL.EV_BAO_KONG, S, t_("9s"), 1, 0), change
    assert ev == [
        (TL.EV_BAO_KONG, S, t_("9s"), 1, 0),
        (TL.EV_BAO, S, t_("8p"), 2, 133),
        (TL.EV_LOOK, S, t_("8p"), 0, 0),
    ]
    mrec, kpay, g = tab[8], tab[12], tab[0]
    assert (mrec[S, 0, 0], mrec[S, 0, 1]) == (L.MELD_KONG, 4)
    assert [int(x) for x in kpay] == [-1, 3, -1, -1]
    assert g[TL.G_NHOLE] == 1 and g[TL.G_HOLE] == 123  # the bao's place is empty
    # without the option: nothing happens
    r, ev, tab = at_the_look(with_(RVD, RV_BAO_CHANGE=TL.BAO_CHANGE_OPTIONAL))
    assert (r, ev) == (BAO_KONG_NONE, [])


def test_holes_are_stepped_over_and_not_left():
    # the wall after a 用宝 kong: the draws from both ends step over the empty place, which is
    # not counted as left; the bao cannot be placed on it
    from ccmj_cli._kernels.table import wall as WL
    from ccmj_cli._kernels.table.bao import find_bao

    g = np.zeros(TL.G_LEN, np.int64)
    g[TL.G_HEAD], g[TL.G_TAIL], g[TL.G_BAO_POS] = 60, 135, -1
    left = WL.wall_left(g)
    g[TL.G_NHOLE], g[TL.G_HOLE] = 1, 60
    assert WL.wall_left(g) == left - 1 and WL.next_head(g) == 61
    wall = np.arange(136, dtype=np.int64) % 34
    conc = np.zeros((4, 34), np.uint8)
    taken = np.zeros((4, 34), np.uint8)
    assert WL.take(wall, g, conc, taken, E, False) == wall[61] and g[TL.G_HEAD] == 62
    g[TL.G_HOLE + 1], g[TL.G_NHOLE] = 135, 2
    assert WL.take(wall, g, conc, taken, E, True) == wall[134]
    pond = np.zeros(34, np.int64)
    # the first stack's top (133, after the tail draw: 134 is a loose tile) is a hole: its
    # lower tile serves
    g[TL.G_HOLE + 2], g[TL.G_NHOLE] = 133, 3
    assert find_bao(wall, g, pond, pond, 1, RVD) == 132


# ---------------------------------------------------------------- the referee and actions
def _record(tmp_path, wall, rv, rules, edit=None):
    out = play(wall, rv, TPD)
    hand = {"hand": 1, "dealer": "E", "wall": [T.tile_name(t) for t in wall],
            "dice": [3, 4] + [1] * 20, "events": [list(e) for e in out["events"]]}  # fmt: skip
    text = text_record(hand, 2)
    if edit:
        text = edit(text)
    p = tmp_path / "game.txt"
    p.write_text(f"rules {rules}\n" + text, encoding="utf-8")
    (v,) = referee(p)
    return v, text, out


def test_referee_accepts_a_recorded_bao_kong_and_refuses_an_illegal_one(tmp_path):
    room = tmp_path / "room.yaml"
    room.write_text("extends: default\nbao_kong: true\n", encoding="utf-8")
    wall = build_wall(**ANKONG_WALL)
    v, text, out = _record(tmp_path, wall, BK, str(room))
    assert "E baokong 9s" in text
    assert v["ok"], v["problems"]
    # the same record under the default rules: the 用宝 kong is refused, at its event
    at = out["ev"].index((TL.EV_BAO_KONG, E, t_("9s"), 0, 0))
    v, _, _ = _record(tmp_path, wall, BK, "default")
    assert not v["ok"]
    assert (v["problems"][0]["rule"], v["problems"][0]["event"]) == ("bao_kong_not_allowed", at)
    # a 用宝 kong that changes a wait (test_bao_kong_refused_when_it_changes_a_wait) written
    # into that hand's record: refused as a locked hand's kong
    others = {S: "679m258p368s2z3z4z6z", W: "568m369p147s2z3z4z6z", N: "79m147p28s4s2z3z4z6z5p"}
    wall = build_wall(
        {E: "2223m456p789s555s7z", **others}, draws="5z5z5z", at={123: "2m", 133: "8p"}
    )

    def insert(text):
        return text.replace("E look 2m\n", "E look 2m\nE baokong 2m\n", 1)

    v, text, out = _record(tmp_path, wall, BK, str(room), insert)
    assert "E baokong 2m" in text
    at = out["ev"].index((TL.EV_LOOK, E, t_("2m"), 0, 0)) + 1
    assert (v["problems"][0]["rule"], v["problems"][0]["event"]) == ("locked_hand", at)


def test_actions_offers_the_bao_kong(tmp_path):
    # ccmj actions at S's draw after his look: S, declared on 46m456p789s99s111z (夹 5m), has
    # seen the bao 1z, and holds three 1z: under bao_kong he may take it for a 暗杠 (the 5m
    # stays his one wait), or draw; by default only the draw. --explain: with three 1z
    # discarded instead (no 1z in his hand), the 用宝 kong is forbidden (no_such_kong).
    from test_actions import forbidden, groups, make

    from ccmj_cli.actions import legal_actions

    room = tmp_path / "room.yaml"
    room.write_text("extends: default\nbao_kong: true\n", encoding="utf-8")

    def at_draw(hand, rules, pond_extra=()):
        seats = {
            "E": {"count": 13, "pond": ["1p"]},
            "S": {"hand": hand, "pond": ["2p", *pond_extra], "declared": True, "looked": True},
            "W": {"count": 13, "pond": ["3p"]}, "N": {"count": 13, "pond": ["4p"]},
        }  # fmt: skip
        bao = {"state": "rolled", "tile": "1z", "dice": 4}
        return make(seats, {"event": "to_draw", "seat": "S"}, rules, bao=bao)

    r = legal_actions(at_draw("46m456p789s99s111z", str(room)))
    assert groups(r, "S") == {"bao_kong": [{"tile": "1z", "kong": "ankong"}], "draw": [{}]}
    r = legal_actions(at_draw("46m456p789s99s111z", "default"))
    assert groups(r, "S") == {"draw": [{}]}
    r = legal_actions(at_draw("46m456p789s99s555z", str(room)), explain=True)
    assert groups(r, "S") == {"draw": [{}]}
    assert forbidden(r, "S", "bao_kong") == [("1z", "no_such_kong")]


def test_actions_names_the_special_kong_a_bao_kong_bu_goes_onto(tmp_path):
    # S, declared on 46m456p789s11z (夹 5m) beside his 幺蛋 [1m1p1s], has seen the bao 1m: the
    # 用宝 kong is a 补 onto that 幺蛋, and the action says so (`onto`), as a 补 does
    from test_actions import groups, make

    from ccmj_cli.actions import legal_actions

    room = tmp_path / "room.yaml"
    room.write_text("extends: default\nbao_kong: true\n", encoding="utf-8")
    seats = {
        "E": {"count": 13, "pond": ["1p"]},
        "S": {"hand": "46m456p789s11z", "melds": ["[1m1p1s]"], "pond": ["2p"],
              "declared": True, "looked": True},
        "W": {"count": 13, "pond": ["3p"]}, "N": {"count": 13, "pond": ["4p"]},
    }  # fmt: skip
    bao = {"state": "rolled", "tile": "1m", "dice": 4}
    r = legal_actions(make(seats, {"event": "to_draw", "seat": "S"}, str(room), bao=bao))
    assert groups(r, "S")["bao_kong"] == [{"tile": "1m", "kong": "bu", "onto": "yaodan"}]
