"""The 大蛋 laid from the deal (option ``dadan_laid``, docs/rules.md §7): three of one 大蛋 tile
(幺鸡 1s, 幺饼 1p, 白 5z, 发 6z, 中 7z) laid out at the special kongs' time as the concealed 大蛋,
written ``(555z)``, with no replacement draw; its fourth copy is a 补 later. Each case is worked
out by hand in its comment; the scoring reference (tests/naive*.py) knows the meld through the
Hypothesis strategies (``strategies.melds`` lays one when the variant has the option).
"""

import pytest
from test_simulate_mil import RVD, t_, with_
from test_simulate_table import S
from test_table_rules19 import first_turn, refereed

from ccmj_cli import tiles as T
from ccmj_cli._kernels import layout as L
from ccmj_cli._kernels.table import layout as TL
from ccmj_cli.errors import HandError
from ccmj_cli.hand import check
from ccmj_cli.rules import load_variant
from ccmj_cli.scoring import score

ROOM = "extends: default\ndadan_laid: true\n"
LAID = with_(RVD, RV_DADAN_LAID=1)


@pytest.fixture
def room(tmp_path):
    p = tmp_path / "room.yaml"
    p.write_text(ROOM, encoding="utf-8")
    return str(p)


def test_notation(room):
    # (777z): three 中 in round brackets, a concealed kong of three, face up; only the 大蛋
    # tiles, only with the option (the message names it); (5555z) stays a concealed kong.
    rules = load_variant(room).meld_rules
    (m,) = T.parse_hand("123m456p78s55s(777z)", rules).melds
    assert (m.kind, m.tiles, m.text()) == (L.MELD_ANKONG, (33, 33, 33), "(777z)")
    assert m.is_laid_dadan and m.is_public
    (m4,) = T.parse_hand("123m456p78s55s(7777z)", rules).melds
    assert not m4.is_laid_dadan and not m4.is_public
    assert T.parse_hand("123m456p78s55s(111p)", rules).melds[0].tiles == (9, 9, 9)
    for bad in ("(555s)", "(999m)", "(444z)"):
        with pytest.raises(HandError, match="four identical"):
            T.parse_hand("123m456p78s55s" + bad, rules)
    with pytest.raises(HandError, match="dadan_laid: true"):
        T.parse_hand("123m456p78s55s(777z)")


def test_score_pays_the_concealed_dadan(room):
    # S (not the dealer) wins 123m456p78s55s(777z) + 9s by 自摸: 平胡 1 + 门清 1 (the laid 大蛋 is
    # a concealed kong: 门清 kept) + 自摸 1 = 3 fan (4 for E, the dealer) -> E -8, W -4, N -4,
    # S +16. The laid 大蛋 pays kong.dadan_concealed, 4 from each: S +12, the others -4.
    r = score("123m456p78s55s(777z)", win="9s", how="self", seat="S", rules=room)
    assert r.legal
    assert [i.name for i in r.fan_items] == ["win", "menqing", "zimo", "dealer"]
    assert r.payments == {"E": -8, "S": 16, "W": -4, "N": -4}
    assert r.kong_payments == {"E": -4, "S": 12, "W": -4, "N": -4}


def test_a_laid_dadan_lies_face_up_for_shoubayi(tmp_path):
    # Under shoubayi_ankong_concealed a concealed kong of four counts as concealed tiles, so
    # 6z[111m][999p][345s](7777z) + 6z is no 手把一 and wins (刻: the pungs). The laid 大蛋
    # (777z) lies face up: four declared sets and one tile, a 手把一 that must win 飘 — the
    # chow [345s] forbids it: single_tile_not_piao.
    p = tmp_path / "room.yaml"
    p.write_text(ROOM + "shoubayi_ankong_concealed: true\n", encoding="utf-8")
    assert check("6z[111m][999p][345s](7777z)", "6z", rules=str(p)).legal
    r = check("6z[111m][999p][345s](777z)", "6z", rules=str(p))
    assert not r.legal and "single_tile_not_piao" in r.reasons


def test_waits_and_batch(room, tmp_path):
    # The tenpai 123m456p78s55s(777z) waits 6s and 9s. In a batch the row with (777z) is
    # scored under the room and is an error row (the run goes on) under the default rules.
    from ccmj_cli.hand import waits

    assert [w.tile for w in waits("123m456p78s55s(777z)", rules=room).waits] == ["6s", "9s"]
    from typer.testing import CliRunner

    from ccmj_cli.cli import app

    csv = tmp_path / "w.csv"
    csv.write_text(
        "hand,win,how,seat,from,bao,base\n123m456p78s55s(777z),9s,self,S,,,1\n"
        "123m456p78s55s777z,9s,self,S,,,1\n",
        encoding="utf-8",
    )
    ok = CliRunner().invoke(app, ["batch", str(csv), "--rules", room])
    assert ok.exit_code == 0, ok.output
    assert ",-12,28,-8,-8," in ok.output  # (hand + kongs: E -8-4, S 16+12, W -4-4, N -4-4)
    bad = CliRunner().invoke(app, ["batch", str(csv)])
    assert bad.exit_code == 4 and "dadan_laid" in bad.output and ",-8,16,-4,-4," in bad.output


# ---------------------------------------------------------------- at the table
S_HAND = "555z234m567p89s1z2z"  # three 白 dealt (no other special kong: two winds, one dragon)
KONGS = (TL.EV_SPECIAL, TL.EV_ANKONG, TL.EV_MINGKONG, TL.EV_JIAGANG, TL.EV_BU)


def _kong_pay(out):
    return [int(x) for x in out["res"][TL.R_KONG_PAY : TL.R_KONG_PAY + 4]]


@pytest.mark.parametrize("on", [True, False], ids=["dadan_laid", "default"])
def test_the_table_lays_a_dadan_of_three(on):
    # S is dealt three 白; his first draw is 9p. With dadan_laid he lays them out (555z) at
    # once: no replacement draw (his next event is his discard), 4 from each other seat. By
    # default three 白 are a pung in hand: nothing is laid.
    out, first = first_turn(S_HAND, LAID if on else RVD)
    ev = out["ev"]
    if not on:
        assert all(e[0] != TL.EV_SPECIAL for e in ev)
        return
    assert ev[first + 1] == (TL.EV_SPECIAL, S, t_("5z"), L.MELD_ANKONG, 3)
    assert ev[first + 2][:2] == (TL.EV_DISCARD, S)
    assert [int(x) for x in out["mrec"][S, 0, :5]] == [L.MELD_ANKONG, 3, 31, 31, 31]
    assert [e[:2] for e in ev if e[0] in KONGS] == [(TL.EV_SPECIAL, S)]
    assert _kong_pay(out) == [-4, 12, -4, -4]
    from ccmj_cli.replay import hand_text

    assert "(555z)" in hand_text(out["conc"][S], out["mrec"][S], out["nm"][S])


def test_the_fourth_copy_is_a_bu():
    # As above, but S's first draw is the fourth 白: he lays (555z) from his dealt tiles, then
    # adds the drawn 白 (补, not the dealer's first turn) and draws a replacement from the
    # tail (8p). The 大蛋 is now four, (5555z), and paid once: still 4 from each.
    out, i = first_turn(S_HAND, LAID, draw="5z", tail="8p")
    ev = out["ev"]
    assert ev[i + 1 : i + 4] == [
        (TL.EV_SPECIAL, S, t_("5z"), L.MELD_ANKONG, 3),
        (TL.EV_BU, S, t_("5z"), L.MELD_ANKONG, 0),
        (TL.EV_TAIL, S, t_("8p"), 0, 0),
    ]
    assert [int(x) for x in out["mrec"][S, 0, :6]] == [L.MELD_ANKONG, 4, 31, 31, 31, 31]
    assert [e[:2] for e in ev if e[0] in KONGS] == [(TL.EV_SPECIAL, S), (TL.EV_BU, S)]
    assert _kong_pay(out) == [-4, 12, -4, -4]


def test_text_record_referee_and_actions(tmp_path):
    # The hand of test_the_table_lays_a_dadan_of_three in the text form ('S special (555z)')
    # passes the referee under the room and is refused under the default rules (where three
    # 白 are no special kong). ccmj actions offers the (555z) to a seat holding three 白 at the
    # deal under the room, and nothing under the default rules.
    from test_actions import groups, make

    from ccmj_cli.actions import legal_actions

    room = tmp_path / "room.yaml"
    room.write_text(ROOM, encoding="utf-8")
    _out, verdicts = refereed(tmp_path, S_HAND, LAID, room, "S special (555z)")
    assert verdicts[str(room)]["ok"], verdicts[str(room)]["problems"]
    assert not verdicts["default"]["ok"]

    seats = {"E": {"hand": "555z234m567p78s3m5m2s"}, "S": {"count": 13}, "W": {"count": 13},
             "N": {"count": 13}}  # fmt: skip
    last = {"event": "deal", "seat": "E", "tile": "2s"}
    r = legal_actions(make(seats, last, str(room)))
    assert groups(r, "E")["special_kong"] == [{"tile": "5z", "meld": "(555z)", "kind": "dadan"}]
    assert "special_kong" not in groups(legal_actions(make(seats, last, "default")), "E")
