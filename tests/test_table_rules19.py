"""Fixed-wall tests of the table options of the second implementation's rooms: no dead wall
(``dead_wall_stacks: 0``) under both wall ends, ``special_kong_timing: first_draw``,
``mobao_must_win`` and ``declared_kong_keeps_pattern`` (docs/rules.md §8, §9 "Table").

Each test builds a wall (``build_wall``: the engine's deal, then given draws and tail tiles) so
that the situation happens, and says how the expected events follow from the rule.
"""

import numpy as np
import pytest
from test_simulate_mil import RVD, RVM, TPD, TPM, play, t_, with_
from test_simulate_table import E_HAND, JUNK, E, N, S, W, build_wall

from ccmj_cli import hand as H
from ccmj_cli._kernels import layout as L
from ccmj_cli._kernels.table import layout as TL
from ccmj_cli._kernels.table import wall as WL
from ccmj_cli.referee import referee
from ccmj_cli.replay import record
from ccmj_cli.rules import load_variant
from ccmj_cli.simulate import POLICIES, session_plan, table_params

EXAMPLE = __import__("pathlib").Path(__file__).parent.parent / "examples" / "records"


def _no_dead_wall(tp):
    tp = tp.copy()
    tp[TL.TP_DEAD_STACKS] = 0
    return tp


TP0, TPM0 = _no_dead_wall(TPD), _no_dead_wall(TPM)


# ---------------------------------------------------------------- no dead wall
def test_no_dead_wall_positions_under_both_wall_ends():
    # dead_wall_stacks 0: every tile is drawn. Reserve: nothing is kept whatever the kongs (the
    # growth, +1 stack per kong after two, is the dead wall's), and a loose tile at the tail is
    # drawn too. win_only_four: the last four tiles are the win-only draws.
    g = np.zeros(TL.G_LEN, np.int64)
    g[TL.G_BAO_POS] = -1

    def at(head, tail, kongs, rv, tp):
        g[TL.G_HEAD], g[TL.G_TAIL], g[TL.G_KONGS] = head, tail, kongs
        return bool(WL.can_draw(g, tp, rv)), bool(WL.win_only_draw(g, tp, rv))  # (np.bool_ too)

    # reserve, no kong: 135 (the last tile) is drawn, then the wall is empty
    assert at(135, 135, 0, RVD, TP0) == (True, False)
    assert at(136, 135, 0, RVD, TP0)[0] is False
    # three kongs (133..135 drawn from the tail; 132 is a loose tile): 132 is still drawn
    # (with 7 stacks: 9 stacks + the loose tile kept, head 113 the last, test_simulate_table)
    assert at(132, 132, 3, RVD, TP0) == (True, False)
    assert at(133, 132, 3, RVD, TP0)[0] is False
    # win_only_four: 131 is drawn as usual, 132..135 only win, 136 none
    assert at(131, 135, 0, RVM, TPM0) == (True, False)
    assert [at(h, 135, 0, RVM, TPM0) for h in range(132, 136)] == [(True, True)] * 4
    assert at(136, 135, 0, RVM, TPM0)[0] is False
    # ... with three kongs: the four tiles before the tail's end (129..132)
    assert at(128, 132, 3, RVM, TPM0) == (True, False)
    assert at(129, 132, 3, RVM, TPM0) == (True, True) and at(133, 132, 3, RVM, TPM0)[0] is False
    # the bao at the last tile is stepped over: nothing is left to draw
    g[TL.G_BAO_POS] = 135
    assert at(135, 135, 0, RVD, TP0)[0] is False and at(134, 135, 0, RVD, TP0)[0] is True


@pytest.mark.parametrize("rv, tp", [(RVD, TP0), (RVM, TPM0)], ids=["reserve", "win_only_four"])
def test_no_dead_wall_hands_draw_every_tile(rv, tp):
    # Bots that never declare roll no bao: a drawn hand (荒庄) leaves no tile in the wall,
    # kongs or not. Bots that declare: the tiles are conserved, the payouts sum to zero, and a
    # drawn hand leaves only tiles the bao held back (the bao itself, at the end).
    silent = np.array([POLICIES["silent"]] * 4, np.int64)
    base = np.array([POLICIES["baseline"]] * 4, np.int64)
    seeds, lengths = session_plan(48, 4, 19)
    n_huang = n_kong_huang = 0
    for bots in (silent, base):
        for sd, k in zip(seeds, lengths, strict=True):
            a = record(sd, int(k), rv, tp, bots)
            for h in range(int(k)):
                res = a["results"][h]
                held = a["concs"][h].astype(np.int64) + a["melded"][h].astype(np.int64)
                total = held.sum(axis=0) + a["ponds"][h]
                assert total.max() <= 4 and total.sum() == 136 - res[TL.R_WALL_LEFT]
                assert res[TL.R_PAY : TL.R_PAY + 4].sum() == 0
                if res[TL.R_WINNER] < 0:
                    n_huang += 1
                    n_kong_huang += res[TL.R_KONGS] > 0
                    left = res[TL.R_WALL_LEFT] - res[TL.R_STRANDED]
                    assert left in (0, 1) if bots is base else left == 0
                    if bots is silent:
                        assert res[TL.R_WALL_LEFT] == 0
    assert n_huang > 0 and n_kong_huang > 0


# ---------------------------------------------------------------- special kongs: first draw
FIRST_DRAW = with_(RVD, RV_SPECIAL_KONG_TIMING=TL.SPECIAL_FIRST_DRAW)


def test_first_draw_timing_counts_the_first_draw():
    # special_kong_timing first_draw: between the seat's first draw and his first discard any
    # tile he holds counts. S is dealt 1z2z3z and draws 4z first: a 旋风杠 (by default, deal:
    # none, the 4z was drawn), with its replacement draw 8p from the tail.
    s_hand = "1z2z3z123m456p789s9m"
    wall = build_wall({E: E_HAND, S: s_hand, W: JUNK[W], N: JUNK[N]}, draws="4z", tail="8p")
    ev = play(wall, FIRST_DRAW, TPD)["ev"]
    i = ev.index((TL.EV_DRAW, S, t_("4z"), 0, 0))
    assert ev[i + 1] == (TL.EV_SPECIAL, S, t_("1z"), L.MELD_XUANFENG, 4)
    assert ev[i + 2] == (TL.EV_TAIL, S, t_("8p"), 0, 0)
    assert all(e[0] != TL.EV_SPECIAL for e in play(wall, RVD, TPD)["ev"])


def test_first_draw_timing_a_claim_before_the_first_draw_ends_the_chance():
    # S, dealt 1z2z3z4z and 7z7z, pungs E's first discard 7z before his first draw: he
    # discards before he has drawn, so he never lays out the 旋风杠 under first_draw (under
    # first_turn the claimed turn lays it out, test_simulate_mil).
    s_hand = "1z2z3z4z7z7z123m456p9s"
    wall = build_wall({E: E_HAND, S: s_hand, W: JUNK[W], N: JUNK[N]}, tail="1z")
    ev = play(wall, FIRST_DRAW, TPD)["ev"]
    i = ev.index((TL.EV_PUNG, S, t_("7z"), 0, E))
    assert ev[i + 1][:2] == (TL.EV_DISCARD, S)
    assert not any(e[0] == TL.EV_SPECIAL and e[1] == S for e in ev)
    first_turn = with_(RVD, RV_SPECIAL_KONG_TIMING=TL.SPECIAL_FIRST_TURN)
    ev_f = play(wall, first_turn, TPD)["ev"]
    assert ev_f[ev_f.index((TL.EV_PUNG, S, t_("7z"), 0, E)) + 1][0] == TL.EV_SPECIAL


def test_table_options_reach_the_rule_vector(tmp_path):
    p = tmp_path / "room.yaml"
    p.write_text(
        "extends: default\nspecial_kong_timing: first_draw\nmobao_must_win: true\n"
        "declared_kong_keeps_pattern: true\ndead_wall_stacks: 0\n",
        encoding="utf-8",
    )
    v = load_variant(str(p))
    rv = v.vector
    assert rv[L.RV_SPECIAL_KONG_TIMING] == TL.SPECIAL_FIRST_DRAW
    assert rv[L.RV_MOBAO_MUST_WIN] == 1 and rv[L.RV_DECLARED_KONG_KEEPS_PATTERN] == 1
    assert table_params(v)[TL.TP_DEAD_STACKS] == 0
    d = load_variant().vector  # the defaults: today's behaviour
    assert d[L.RV_MOBAO_MUST_WIN] == 0 and d[L.RV_DECLARED_KONG_KEEPS_PATTERN] == 0


# ---------------------------------------------------------------- a drawn bao must be won on
def _bao_record(tmp_path, rules):
    """The example game with S's draw after his look changed to the bao's kind (9m), which he
    discards, and the game cut there. S is locked on the 13 tiles he wins with at the end (on
    4z): 9m, the bao he has seen, is a 摸宝 win for him (it stands for 4z)."""
    lines = (EXAMPLE / "example.txt").read_text(encoding="utf-8").splitlines()
    i = lines.index("S draw 4m")
    lines = [x for x in lines[:i] if not x.startswith("rules")] + ["S draw 9m", "S discard 9m"]
    p = tmp_path / "bao.txt"
    p.write_text(f"rules {rules}\n" + "\n".join(lines) + "\n", encoding="utf-8")
    events = [x for x in lines if x and not x.startswith(("#", "dealer", "deal "))]
    return p, events.index("S discard 9m")


def test_mobao_must_win_refuses_a_passed_drawn_bao(tmp_path):
    room = tmp_path / "room.yaml"
    room.write_text("extends: default\nmobao_must_win: true\n", encoding="utf-8")
    p, at = _bao_record(tmp_path, str(room))
    (v,) = referee(p)
    assert not v["ok"]
    got = v["problems"][0]
    assert (got["rule"], got["event"]) == ("mobao_must_win", at), got
    # by default he may pass it: the record is legal up to its end (it ends before the hand)
    p, at = _bao_record(tmp_path, "default")
    (v,) = referee(p)
    assert all(x["rule"] != "mobao_must_win" for x in v["problems"])
    assert not v["problems"] or v["problems"][0]["event"] > at


# ---------------------------------------------------------------- 碰 into 手把一: 飘顶 only
@pytest.mark.parametrize(
    "third, piaoding_only, claim",
    [
        # [222m]: after 碰 7z S discards 1p and holds 9s: 222m 555p 999p 777z + 9s9s is a legal
        # 飘 (三色全: m, p, s; 幺九 9p 7z) -> a 飘顶 tenpai: allowed either way
        ((L.MELD_PUNG, "222m"), 1, "meld"),
        ((L.MELD_PUNG, "222m"), 0, "meld"),
        # [111z]: no 万 anywhere, so neither single tile (9s, 1p) is a legal wait: refused under
        # shoubayi_piaoding_only; by default the 飘-chasing bot pungs it anyway
        ((L.MELD_PUNG, "111z"), 1, "none"),
        ((L.MELD_PUNG, "111z"), 0, "meld"),
    ],
)
def test_pung_into_shoubayi_only_into_a_piaoding_tenpai(third, piaoding_only, claim):
    from test_simulate_mil import _state

    from ccmj_cli._kernels.table.claims import CLAIM_MELD, CLAIM_NONE, claims_on_discard
    from ccmj_cli._kernels.tables import tables

    tab, ws = _state(
        {S: "7z7z9s1p", E: "1m1m", W: "2m", N: "3m"},
        {S: [(L.MELD_PUNG, "555p"), (L.MELD_PUNG, "999p"), third]},
    )
    tab[0][TL.G_CUR] = E
    tab[10][t_("7z")] += 1  # the discard is in the pond
    wall = build_wall({E: E_HAND, **JUNK})
    dice = np.ones(TL.N_DICE, np.int64)
    res = np.zeros(TL.R_LEN, np.int64)
    ev = np.zeros((TL.MAX_EVENTS, TL.EV_COLS), np.int64)
    rv = with_(RVD, RV_SHOUBAYI_PIAODING_ONLY=piaoding_only)
    # a 飘-chasing bot (K_PIAO 4: the pair 7z7z and three declared pungs) pungs every pair
    bots = np.array([POLICIES["value"]] * 4, np.int64)
    bots[:, TL.K_PIAO] = 4
    c = claims_on_discard(wall, dice, rv, tables(), TPD, bots, ev, res, tab, ws, t_("7z"))
    assert c == {"meld": CLAIM_MELD, "none": CLAIM_NONE}[claim]


# ------------------------------------------------------- after 报听: kongs keep the pattern
# E: 123m 111p 3444p 888s, declared on 2p/3p/5p: 2p is 夹 (11p + 123p + 444p, the 坎), 3p a 单调
# (33p + 444p), 5p 两面 (345p + 44p). He draws the fourth 1p. After the 暗杠 (1111p) the waits are
# still 2p/3p/5p, but 2p is only 两面 now (234p + 44p): the waits stay, the pattern does not.
PATTERN_OTHERS = {  # (no special kong among them, no 1p, and no wait of E's to discard)
    S: "379m46p369s3z4z6z6m8p",
    W: "28m69p147s3z4z6z7m8p5m",
    N: "457m678p248s3z4z6z9p",
}


@pytest.mark.parametrize("keeps_pattern", [0, 1])
def test_declared_kong_keeps_the_pattern(keeps_pattern):
    wall = build_wall(
        {E: "123m111p3444p888s7z", **PATTERN_OTHERS}, draws="5z5z5z1p", tail="9m",
        at={123: "7p"},  # (the bao E rolls, 3 + 4 = 7 stacks from the tail: no wait of his)
    )
    rv = with_(RVD, RV_DECLARED_KONG_KEEPS_PATTERN=keeps_pattern)
    ev = play(wall, rv, TPD)["ev"]
    assert ev[:2] == [(TL.EV_DISCARD, E, t_("7z"), 0, 0), (TL.EV_DECLARE, E, -1, 0, 0)]
    i = ev.index((TL.EV_DRAW, E, t_("1p"), 0, 0))
    if keeps_pattern:
        assert ev[i + 1] == (TL.EV_DISCARD, E, t_("1p"), 0, 0)  # no kong: 2p would lose 夹
    else:
        assert ev[i + 1] == (TL.EV_ANKONG, E, t_("1p"), 0, 0)  # the waits alone stay the same
        assert ev[i + 2] == (TL.EV_TAIL, E, t_("9m"), 0, 0)


def test_declared_kong_pattern_example_by_the_waits_command():
    # the same hands through `ccmj waits` (the one judgment): waits and their 夹 before and after
    def waits(h):
        return {w.tile: w.jiahu for w in H.waits(h).waits if w.legal}

    assert waits("123m111p3444p888s") == {"2p": True, "3p": True, "5p": False}
    assert waits("123m3444p888s(1111p)") == {"2p": False, "3p": True, "5p": False}


# ------------------------------------------------------- simulate --csv items: the kernel's
def test_csv_items_are_the_score_kernels_and_list_piaoding():
    # The CSV's items are the ones the score kernel scored (R_ITEMS, set by the settlement):
    # 飘顶 is listed when fan.piaoding scores it, 七对 and 豪华 too.
    from ccmj_cli.simulate import ITEM_NAMES, _fan_items

    res = np.zeros(TL.R_LEN, np.int64)
    bits = (L.FAN_WIN, L.FAN_PIAO, L.FAN_ZIMO, L.FAN_PIAODING)
    res[TL.R_ITEMS] = sum(1 << b for b in bits)
    assert _fan_items(res) == "pinghu piao zimo piaoding"
    assert ITEM_NAMES[L.FAN_QIDUI] == "qidui" and len(ITEM_NAMES) == L.N_FAN
    # in play: the 对宝 of test_simulate_table (E: 平胡 + 门清 + 自摸 + 宝 = 4)
    wall = build_wall(
        {E: E_HAND, **JUNK}, draws="5z5z5z",
        at={123: "1z", 100: "1z", 101: "5s", 102: "5s", 99: "7z"},
    )
    out = play(wall, RVD, TPD)
    assert _fan_items(out["res"]) == "pinghu menqing zimo bao"
    assert out["res"][TL.R_FAN] == 4
    # S's 豪华七对 on E's 7z under mil2024 (test_simulate_mil): 平胡1 + 门清1 + 七对2 + 豪华1 = 5,
    # items the old Python rebuild of the CSV never listed
    bots = np.array([POLICIES["baseline"]] * 4, np.int64)
    bots[E] = POLICIES["silent"]
    wall = build_wall({E: E_HAND, S: "3333s11m99m11p99p7z", W: JUNK[W], N: JUNK[N]})
    out = play(wall, with_(RVM, RV_HAOHUA=0), TPM, bots=bots)
    assert _fan_items(out["res"]) == "pinghu menqing qidui haohua"
    assert out["res"][TL.R_FAN] == 5


# ---------------------------------------------------------------- the bao as a single tile
@pytest.mark.parametrize(
    "dead, tail, k, tile, any_stack",
    [
        ((), 135, 3, 133, 131),  # the 3rd tile from the tail (135, 134, 133); stacks: 131
        (("2m",), 135, 3, 132, 131),  # 133 (2m) is dead: the next tile toward the head, 132
        ((), 134, 1, 134, 133),  # a loose tile at the tail counts as a tile (not as a stack)
        ((), 135, 6, 130, 125),
    ],
)
def test_bao_place_tile_counts_single_tiles(dead, tail, k, tile, any_stack):
    # bao_place tile: the die (1-6) counts single tiles from the wall's tail, not stacks; a
    # tile that cannot serve (three other copies public) passes the bao to the next tile.
    from test_simulate_mil import _bao_wall

    from ccmj_cli._kernels.table.bao import find_bao

    wall = _bao_wall()  # tops 1m..6m at 135, 133, ..., 125, every lower tile 9s
    g = np.zeros(TL.G_LEN, np.int64)
    g[TL.G_HEAD], g[TL.G_TAIL] = 53, tail
    pond = np.zeros(34, np.int64)
    exposed = np.zeros(34, np.int64)
    for name in dead:
        pond[t_(name)] = 3
    rv = with_(RVD, RV_BAO_PLACE=TL.BAO_TILE)
    assert find_bao(wall, g, pond, exposed, k, rv) == tile
    assert find_bao(wall, g, pond, exposed, k, RVD) == any_stack


def test_a_roll_never_takes_the_last_draw():
    # With no dead wall, two tiles left (head 134, tail 135): nothing is the last draw yet, and
    # a die of 2 counts to 134. With one left (head 135, tail 135) 135 is the last draw: the
    # bao may not take it (a roll is for a draw), so a count that lands on it goes on round to
    # the next tile that serves, and with none left there is no bao. With the default dead
    # wall, the 14 tiles before the tail are never drawn: 121 is the last draw from head 121.
    from ccmj_cli._kernels.table.bao import find_bao
    from ccmj_cli._kernels.table.wall import last_draw

    wall = np.full(136, t_("5m"), np.int64)
    g = np.zeros(TL.G_LEN, np.int64)
    g[TL.G_BAO_POS] = -1
    pond = np.zeros(34, np.int64)
    rv = with_(RVD, RV_BAO_PLACE=TL.BAO_TILE)
    g[TL.G_HEAD], g[TL.G_TAIL] = 134, 135
    assert last_draw(g, TP0, rv) == -1
    assert find_bao(wall, g, pond, pond, 2, rv, last_draw(g, TP0, rv)) == 134
    g[TL.G_HEAD], g[TL.G_TAIL] = 135, 135
    assert last_draw(g, TP0, rv) == 135
    assert find_bao(wall, g, pond, pond, 1, rv) == 135  # (without the rule it would take it)
    assert find_bao(wall, g, pond, pond, 1, rv, last_draw(g, TP0, rv)) == -1
    # ... and so a roll there (a 换宝 re-roll, or the first declarer's) finds no bao
    from ccmj_cli._kernels.table.bao import roll_bao

    dice = np.full(TL.N_DICE, 3, np.int64)
    ev = np.zeros((4, 5), np.int64)
    assert roll_bao(wall, g, dice, rv, TP0, pond, pond, ev, -1) == -1
    assert g[TL.G_BAO_POS] == -1 and g[TL.G_NO_BAO] == 1
    g[TL.G_HEAD], g[TL.G_TAIL] = 121, 135
    assert last_draw(g, TPD, RVD) == 121 and last_draw(g, TP0, RVD) == -1
    # (any_stack, 2 dice: a count of 8 reaches the half-drawn stack 121 past the 7 dead ones;
    # kept back, the count goes round to the tail's first stack, 135)
    assert find_bao(wall, g, pond, pond, 8, RVD) == 121
    assert find_bao(wall, g, pond, pond, 8, RVD, last_draw(g, TPD, RVD)) == 135


def test_actions_mobao_must_win_leaves_only_the_win():
    # ccmj actions on test_actions' 摸宝 position (S has seen the bao 9p and draws a 9p; it
    # stands for his wait 5m): by default he may win or discard the 9p; under the piaoding
    # preset (mobao_must_win) only the win is legal, the discard forbidden by that rule.
    from test_actions import forbidden, groups, make

    from ccmj_cli.actions import legal_actions

    seats = {
        "E": {"count": 13, "pond": ["1p"]},
        "S": {"hand": "46m456p789s99s111z9p", "pond": ["2p"], "declared": True, "looked": True},
        "W": {"count": 13, "pond": ["3p"]}, "N": {"count": 13, "pond": ["4p"]},
    }  # fmt: skip
    last = {"event": "draw", "seat": "S", "tile": "9p"}
    bao = {"state": "rolled", "tile": "9p", "dice": 4}
    r = legal_actions(make(seats, last, bao=bao))
    assert set(groups(r, "S")) == {"win", "discard"}
    r = legal_actions(make(seats, last, "piaoding", bao=bao), explain=True)
    assert set(groups(r, "S")) == {"win"}
    assert [w["how"] for w in groups(r, "S")["win"]] == ["mobao"]
    assert ("9p", "mobao_must_win") in forbidden(r, "S", "discard")  # (the rest: locked_hand)


# ---------------------------------------------------------------- 三幺鸡 at the table
SANYAOJI = with_(RVD, RV_SANYAOJI=1)


def first_turn(s_hand, rv, draw="9p", tail=""):
    """(the played hand, the index of S's first draw) of a wall that deals S ``s_hand`` (the
    others E_HAND and JUNK), gives him ``draw`` first and ``tail`` from the tail."""
    wall = build_wall({E: E_HAND, S: s_hand, W: JUNK[W], N: JUNK[N]}, draws=draw, tail=tail)
    out = play(wall, rv, TPD)
    return out, out["ev"].index((TL.EV_DRAW, S, t_(draw), 0, 0))


@pytest.mark.parametrize("on", [True, False], ids=["sanyaoji", "default"])
def test_the_table_lays_sanyaoji(on):
    # S is dealt three 1s and neither 1m nor 1p; his first draw is 9p. With sanyaoji he lays
    # the three 1s out as a 三幺鸡 [*111s] (a 幺蛋: the 1s stand in for every member), a 3-tile
    # special kong: no replacement draw, his next event is his discard; it pays kong.special
    # (1 from each other seat). By default three 1s are a pung in hand: nothing is laid out.
    out, first = first_turn("111s234m567p89s6z7z", SANYAOJI if on else RVD)
    ev = out["ev"]
    if not on:
        assert all(e[0] != TL.EV_SPECIAL for e in ev)
        return
    assert ev[first + 1] == (TL.EV_SPECIAL, S, t_("1s"), L.MELD_YAODAN, 3)
    assert ev[first + 2][:2] == (TL.EV_DISCARD, S)
    assert [int(x) for x in out["mrec"][S, 0, 2:5]] == [18, 18, 18]
    assert out["mrec"][S, 0, 0] == L.MELD_YAODAN
    # the log and the audit write it [*111s] (so check reads a 幺蛋 back, not a pung of 1s)
    from ccmj_cli.replay import hand_text

    assert "[*111s" in hand_text(out["conc"][S], out["mrec"][S], out["nm"][S])
    # (later 1m/1p tiles he draws are 补 tiles on it, 1 each: the only other kongs here)
    kongs = (TL.EV_SPECIAL, TL.EV_ANKONG, TL.EV_MINGKONG, TL.EV_JIAGANG, TL.EV_BU)
    assert {e[:2] for e in ev if e[0] in kongs} <= {(TL.EV_SPECIAL, S), (TL.EV_BU, S)}
    k = sum(1 for e in ev if e[0] in kongs)
    assert [int(x) for x in out["res"][TL.R_KONG_PAY : TL.R_KONG_PAY + 4]] == [-k, 3 * k, -k, -k]


def test_a_1m_is_bu_onto_the_sanyaoji():
    # As above, but S's first draw is 1m: a member of the 幺蛋 the three 1s stand in for, so
    # after laying out [*111s] he adds it (补, a drawn tile: not the dealer's first turn) and
    # draws a replacement from the tail (7z). Money: 1 for the kong + 1 for the 补, from each.
    out, i = first_turn("111s234m567p89s6z7z", SANYAOJI, draw="1m", tail="7z")
    ev = out["ev"]
    assert ev[i + 1 : i + 4] == [
        (TL.EV_SPECIAL, S, t_("1s"), L.MELD_YAODAN, 3),
        (TL.EV_BU, S, t_("1m"), L.MELD_YAODAN, 0),
        (TL.EV_TAIL, S, t_("7z"), 0, 0),
    ]
    assert [int(x) for x in out["mrec"][S, 0, 2:6]] == [18, 18, 18, 0]


def test_sanyaoji_at_the_table_follows_the_special_kong_timing():
    # The same timing as any special kong: by default only dealt tiles count, so S, dealt two
    # 1s, who draws the third first, lays nothing out; under first_draw the drawn 1s counts.
    s_hand = "11s234m567p89s6z7z9p"
    wall = build_wall({E: E_HAND, S: s_hand, W: JUNK[W], N: JUNK[N]}, draws="1s")
    assert all(e[0] != TL.EV_SPECIAL for e in play(wall, SANYAOJI, TPD)["ev"])
    ev = play(wall, with_(SANYAOJI, RV_SPECIAL_KONG_TIMING=TL.SPECIAL_FIRST_DRAW), TPD)["ev"]
    i = ev.index((TL.EV_DRAW, S, t_("1s"), 0, 0))
    assert ev[i + 1] == (TL.EV_SPECIAL, S, t_("1s"), L.MELD_YAODAN, 3)


def refereed(tmp_path, s_hand, rv, room, line):
    """(the played hand, the referee's verdicts under ``room`` and the default rules) of the
    wall of ``first_turn`` (with no given draw), written in the text form, which has ``line``."""
    from ccmj_cli import tiles as T
    from ccmj_cli.referee import text_record

    wall = build_wall({E: E_HAND, S: s_hand, W: JUNK[W], N: JUNK[N]})
    out = play(wall, rv, TPD)
    hand = {"hand": 1, "dealer": "E", "wall": [T.tile_name(t) for t in wall], "dice": [3, 4],
            "events": [list(e) for e in out["events"]]}  # fmt: skip
    text = text_record(hand, 2)
    assert line in text
    verdicts = {}
    for rules in (str(room), "default"):
        p = tmp_path / "game.txt"
        p.write_text(f"rules {rules}\n" + text, encoding="utf-8")
        (verdicts[rules],) = referee(p)
    return out, verdicts


def test_sanyaoji_text_record_and_meld_text(tmp_path):
    # The hand of test_the_table_lays_sanyaoji, written in the text form ('S special *111s')
    # under a room with sanyaoji, passes the referee; the same record under the default rules
    # (three 1s are no special kong there) is refused. The laid meld is written [*111s] (the
    # notation check, score and actions read back as a 幺蛋 of three 1s).
    from ccmj_cli import tiles as T

    room = tmp_path / "room.yaml"
    room.write_text("extends: default\nsanyaoji: true\n", encoding="utf-8")
    out, verdicts = refereed(tmp_path, "111s234m567p89s6z7z", SANYAOJI, room, "S special *111s")
    assert verdicts[str(room)]["ok"], verdicts[str(room)]["problems"]
    bad = verdicts["default"]
    assert not bad["ok"]
    at = bad["problems"][0]["event"]  # (the record's events: the lines after deal and dice)
    assert [e for e in out["ev"]].index((TL.EV_SPECIAL, S, 18, L.MELD_YAODAN, 3)) == at
    meld = T.laid_meld_text(L.MELD_YAODAN, [int(x) for x in out["mrec"][S, 0, 2:5]])
    assert meld == "[*111s]"
    (m,) = T.parse_hand(f"234m567p89s6z7z{meld}", load_variant(str(room)).meld_rules).melds
    assert (m.kind, m.tiles, m.bu, m.sanyaoji) == (L.MELD_YAODAN, (18, 18, 18), 0, True)


def test_actions_offers_sanyaoji():
    # ccmj actions: E (the dealer) holds three 1s and no other 幺九 tile at the deal (under
    # mil2024 a 1s stands in for any member, so a 9 or an honor would make another special
    # kong). mil2024 (sanyaoji) offers the 三幺鸡 [*111s] as his one special kong; the default
    # offers none.
    from test_actions import groups, make

    from ccmj_cli.actions import legal_actions

    seats = {"E": {"hand": "111s234m567p78s3m5m2s"}, "S": {"count": 13}, "W": {"count": 13},
             "N": {"count": 13}}  # fmt: skip
    last = {"event": "deal", "seat": "E", "tile": "2s"}
    r = legal_actions(make(seats, last, "mil2024"))
    assert groups(r, "E")["special_kong"] == [{"tile": "1s", "meld": "[*111s]", "kind": "yaodan"}]
    r = legal_actions(make(seats, last, "default"))
    assert "special_kong" not in groups(r, "E")
