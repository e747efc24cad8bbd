"""The mil2024 preset: the MIL 2024 competition rules, case by case.

Every expected value is worked by hand from the rulebook summary (RULES_MIL2024.md, cited by
the rulebook's own section numbers) and ccmj's payment rule: each paying loser pays
base x 2^(fan - 1) with a plain win at 1 fan, which is MIL's 2^fan with a plain win at 0 fan.
"""

import json

import pytest
from typer.testing import CliRunner

from ccmj_cli import bao as B
from ccmj_cli import hand as H
from ccmj_cli import scoring as S
from ccmj_cli import tiles as T
from ccmj_cli.cli import app
from ccmj_cli.errors import HandError, UsageError
from ccmj_cli.odds import odds
from ccmj_cli.rules import load_variant

runner = CliRunner()
MIL = "mil2024"
JIA_HAND = "123m456p46s55s111z"  # 门清, 坎张 5s (独听)
RED_HAND = "123m456p46s55s777z"  # the same with 中: leaves the winds to other seats' kongs


def items(r):
    return {i.name: i.fan for i in r.fan_items}


def test_preset_sets_every_mil_option():
    v = load_variant(MIL)
    assert v.name == MIL
    want = {
        "sanfeng_dan": True, "xiaoji_feidan": True, "xiaoji_wildcard": "any",
        "one_special_kong_per_kind": True, "special_kong_timing": "first_turn", "qidui": True,
        "haohua": "wait_completes_quad", "shoubayi_ankong_concealed": True,
        "duanyaojiu_may_declare": False, "bao_dice": 1, "bao_change": "optional",
        "chongbao_double": True, "dianpao": "discarder_covers_all",
        "cover_only_undeclared": True, "cover_needs_look": True, "cap_fan": 7,
    }  # fmt: skip
    assert {k: getattr(v, k) for k in want} == want
    # what the rulebook does not change keeps the default (RULES_MIL2024.md: fan values too:
    # MIL's 七对 3 = qidui 2 + 门清 1, 豪华七对 4 = + haohua 1)
    default = load_variant()
    for key in ("piao_stacks_with_jia", "special_kong_breaks_menqing", "fan", "kong", "jiahu"):
        assert getattr(v, key) == getattr(default, key), key


def test_cli_rules_shows_and_lists_the_preset():
    res = runner.invoke(app, ["rules", "--list"])
    assert res.exit_code == 0 and MIL in res.stdout
    res = runner.invoke(app, ["rules", "--rules", MIL, "--json"])
    assert res.exit_code == 0
    d = json.loads(res.stdout)
    assert d["name"] == MIL and d["options"]["haohua"] == "wait_completes_quad"
    res = runner.invoke(app, ["rules", "--rules", MIL])
    assert res.exit_code == 0 and "wait_completes_quad" in res.stdout


# --------------------------------------------------------------------------- the worked examples


def test_worked_example_dealer_discards_into_a_jia_win():
    # MIL 九: "a dealer who discards into a 夹 win pays 8 (夹1 庄1 点炮1), a non-dealer 2".
    # S holds 123m 46p 789s 55s [111z] (not 门清: a claimed pung) and wins 5p (坎张) from E.
    # ccmj: 平胡 1 + 夹 1 = 2 fan for every loser; E + 庄 + 点炮 = 4 -> 8; W, N 2 fan -> 2.
    hand = "123m46p789s55s[111z]"
    r = S.score(hand, win="5p", how="discard", discarder="E", looked=True, rules=MIL)
    assert items(r) == {"win": 1, "jiahu": 1, "dealer": 1, "dianpao": 1}
    assert r.fan_by_seat == {"E": 4, "S": 0, "W": 2, "N": 2}
    # E had declared and looked at the bao: no 包庄, each pays his own share
    assert r.payments == {"E": -8, "S": 12, "W": -2, "N": -2}
    # an undeclared dealer covers all three shares (包庄): 8 + 2 + 2
    r = S.score(hand, win="5p", how="discard", discarder="E", rules=MIL)
    assert r.payments == {"E": -12, "S": 12, "W": 0, "N": 0}


def test_worked_example_dealer_piao_by_self_draw():
    # MIL 九: "a dealer's 飘 by self-draw: 16 from each (自摸1 庄1 飘2)". E holds 111m 999p 55s
    # 77z [222z] (not 门清) and draws 5s: ccmj 平胡 1 + 飘 2 + 自摸 1 + 庄 1 = 5 fan -> 16.
    r = S.score("111m999p55s77z[222z]", win="5s", how="self", seat="E", rules=MIL)
    assert items(r) == {"win": 1, "piao": 2, "zimo": 1, "dealer": 1}
    assert r.payments == {"E": 48, "S": -16, "W": -16, "N": -16}


def test_worked_example_qidui_on_an_undeclared_discard():
    # MIL 九: "a non-dealer's 七对 on a discard by an undeclared non-dealer: the discarder pays
    # 16 (七对3 点炮1) + the dealer's 16 + the other's 8 = 40". S holds 11m 22m 33p 44p 55s 66s
    # 7z and wins 7z from W. ccmj: 平胡 1 + 门清 1 + 七对 2 = 4 (MIL's 七对 3 + 1);
    # W + 点炮 = 5 -> 16, E + 庄 = 5 -> 16, N 4 -> 8; W covers all (包庄): 40.
    r = S.score("1122m3344p5566s7z", win="7z", how="discard", discarder="W", rules=MIL)
    assert items(r) == {"win": 1, "menqing": 1, "qidui": 2, "dealer": 1, "dianpao": 1}
    assert r.fan_by_seat == {"E": 5, "S": 0, "W": 5, "N": 4}
    assert r.payments == {"E": 0, "S": 40, "W": -40, "N": 0}


# --------------------------------------------------------------------------- 包庄 (九)


def test_bao_zhuang_covers_a_declared_discarder_who_had_not_looked():
    # MIL 九: 包庄 if the discarder had not declared, or had not looked at the bao. JIA_HAND
    # wins 5s from W: 平胡 + 门清 + 夹 = 3; E + 庄 = 4 -> 8, W + 点炮 = 4 -> 8, N 3 -> 4.
    undeclared = S.score(JIA_HAND, win="5s", how="discard", discarder="W", rules=MIL)
    declared = S.score(JIA_HAND, win="5s", how="discard", discarder="W", declared=True, rules=MIL)
    looked = S.score(JIA_HAND, win="5s", how="discard", discarder="W", looked=True, rules=MIL)
    covered = {"E": 0, "S": 20, "W": -20, "N": 0}
    assert undeclared.payments == covered and declared.payments == covered
    assert looked.payments == {"E": -8, "S": 20, "W": -8, "N": -4}


def test_cli_score_looked():
    args = ["score", JIA_HAND, "--win", "5s", "--by", "discard", "--from", "W", "--json"]
    res = runner.invoke(app, [*args, "--rules", MIL, "--declared"])
    assert json.loads(res.stdout)["payments"]["W"] == -20
    res = runner.invoke(app, [*args, "--rules", MIL, "--looked"])
    assert res.exit_code == 0 and json.loads(res.stdout)["payments"]["W"] == -8


# --------------------------------------------------------------------------- hands (五-4, 八-1, 九)


def test_concealed_kong_counts_as_concealed_tiles_for_shoubayi():
    # MIL 五-4: 7z[123m][222p](9999p)[345s] + 7z is a legal 单吊 win; it is 夹 (单调), not 门清
    hand, win = "7z[123m][222p](9999p)[345s]", "7z"
    assert H.check(hand, win).reasons == ["single_tile_not_piao"]
    r = H.check(hand, win, MIL)
    assert r.legal and r.jiahu and not r.menqing and r.reading == ["77z"]
    s = S.score(hand, win=win, how="self", rules=MIL)
    # 平胡 1 + 夹 1 + 自摸 1 = 3; E + 庄 = 4. The concealed 9999p pays 2 (暗杠) from each.
    assert items(s) == {"win": 1, "jiahu": 1, "zimo": 1, "dealer": 1}
    assert s.payments == {"E": -8, "S": 16, "W": -4, "N": -4}
    assert s.kong_payments == {"E": -2, "S": 6, "W": -2, "N": -2}
    w = H.waits(hand, rules=MIL)
    assert [(x.tile, x.legal) for x in w.waits] == [("7z", True)] and w.tenpai


def test_haohua_only_when_the_win_makes_the_four():
    # MIL 九: 豪华七对 waits on a pair already held; four of a kind held before is plain 七对
    r = S.score("1111m3344p5566s7z", win="7z", rules=MIL)
    assert r.legal and "qidui" in items(r) and "haohua" not in items(r)
    r = S.score("111m3344p5566s77z", win="1m", rules=MIL)
    assert items(r)["qidui"] == 2 and items(r)["haohua"] == 1
    # the default variant with qidui counts any four (any_quad)
    room = load_variant("kuansong")
    assert "haohua" in items(S.score("1111m3344p5566s7z", win="7z", rules=room))


def test_duanyaojiu_may_not_declare():
    # MIL 七-1: a hand without 幺九 may not declare, so never looks at the bao; it may still
    # win undeclared on a 幺九 tile (9m here: 78m + 9m)
    hand = "78m234p345s666s55p"
    w = H.waits(hand, rules=MIL)
    assert w.tenpai and not w.can_look_bao and w.bao_reason == "duanyaojiu"
    assert S.score(hand, win="9m", rules=MIL).legal
    r = S.score(hand, how="mobao", bao="1z", rules=MIL)
    assert not r.legal and r.reasons == ["duanyaojiu"]
    assert B.bao(hand, "1z", rules=MIL).reason == "duanyaojiu"
    # odds --declare never declares it as it stands: by default the tenpai hand declares at
    # once (every trial); under mil2024 only a hand that later draws and keeps a 幺九 tile
    # declares. The exact answer is then not the declared closed form but the discard
    # analysis of the undeclared hand (hand_only pool, 4 draws: a complete search). Keeping
    # the tenpai is one play: the 4 live 9m among the 136 - 13 = 123 unseen, each draw 4/123,
    # 1 - (119/123)^4 (6m, the other wait, leaves no 幺九: not legal); the best play is no worse
    kw = dict(declare=True, draws=4, trials=300, seed=1, exact=True)
    assert odds(hand, **kw).results[0].p_declared == 1.0
    res = odds(hand, rules=MIL, **kw).results[0]
    assert res.p_declared < 0.5
    assert res.exact is not None and res.exact.solver == "dp"
    assert res.exact.complete and res.exact.pool == "hand_only"
    assert res.exact.p_win >= 1 - (119 / 123) ** 4 - 1e-12


# --------------------------------------------------------------------------- the bao (三-24, 25)


def test_chongbao_is_two_fan_and_the_cap_is_64():
    # MIL 九: 冲宝 2 (= 宝 1 + 冲宝 1). JIA_HAND 对宝 on 5s, non-dealer: 平胡 门清 夹 自摸 宝 冲宝
    # = 6 -> 32 each, the dealer 7 -> 64 (MIL: 门清 夹 自摸 冲宝2 = 5 -> 32, 庄 6 -> 64)
    r = S.score(JIA_HAND, how="duibao", bao="5s", rules=MIL)
    assert items(r)["chongbao"] == 1 and r.payments == {"E": -64, "S": 128, "W": -32, "N": -32}
    # dealer 门清 飘 对宝: 1 + 1 + 2 + 1 + 1 + 1 + 庄 1 = 8 fan, capped at 7 (MIL: 6 fan = 64)
    r = S.score("111m999p11s55s777z", how="duibao", bao="5s", seat="E", rules=MIL)
    assert r.fan_by_seat == {"E": 0, "S": 7, "W": 7, "N": 7} and r.payments["E"] == 192


def test_bao_change_is_optional():
    # MIL 三-25: once three other copies are public the declared player MAY change the bao;
    # kept, the bao is judged as it stands. 23m456p789s111z55s waits 1m/4m; bao 1m with the
    # other three 1m public: 对宝 if kept.
    hand = "23m456p789s111z55s"
    r = B.bao(hand, "1m", visible="111m", rules=MIL)
    assert r.may_change and not r.must_change and r.outcome == "duibao"
    r = B.bao(hand, "1m", visible="111m")  # bao_change always: re-rolled, does nothing
    assert r.may_change and r.must_change and r.outcome == "change" and r.score is None
    # a bao that is no wait with three public: kept, nothing is left to draw
    r = B.bao(hand, "9p", visible="999p", rules=MIL)
    assert r.may_change and r.outcome == "no_mobao"


# --------------------------------------------------------------------------- special kongs


def test_xiaoji_wildcard_with_sanfeng():
    # 三-14…17: any three different winds are a 旋风杠 and 1s stands in for any member:
    # [1z2z1s] is a 旋风杠 (1s for a third wind); refused by default
    v = load_variant(MIL)
    m = T.parse_hand("[1z2z1s]", v.meld_rules).melds[0]
    assert m.name == "xuanfeng" and m.bu == 0
    with pytest.raises(HandError):
        T.parse_hand("[1z2z1s]", load_variant().meld_rules)
    # 1s for two members of a 幺蛋, any number of times; a 补 1s on a 喜杠
    assert T.parse_hand("[1m1s1s]", v.meld_rules).melds[0].name == "yaodan"
    m = T.parse_hand("[567z1s]", v.meld_rules).melds[0]
    assert m.name == "xi" and m.bu == 1
    # a bracket of identical tiles stays a pung
    assert T.parse_hand("[1s1s1s]", v.meld_rules).melds[0].name == "pung"
    r = S.score("123m456p46s55s[1z2z1s]", win="5s", rules=MIL)
    assert r.legal and r.kong_payments["S"] == 3  # one 旋风杠: 1 from each other seat


@pytest.mark.parametrize("hand", ["123m456p4s[123z][124z]", "123m456p4s[1m1p1s][1m1p1s]"])
def test_one_special_kong_of_each_kind(hand):
    # 三-14…17: later members are 加杠 onto the first kong, not a second meld
    with pytest.raises(HandError, match="one special kong of each kind"):
        H.waits(hand, rules=MIL)
    res = runner.invoke(app, ["waits", hand, "--rules", MIL])
    assert res.exit_code == 2
    (line,) = res.stderr.strip().splitlines()
    assert line.startswith("error: ") and "补" in line
    # --kongs of one seat too (two items of one seat count together)
    with pytest.raises(UsageError, match="seat W"):
        S.score(RED_HAND, win="5s", kongs="W:[123z],W:[124z]", rules=MIL)


def test_a_four_wind_kong_pays_as_three_winds_and_one_bu():
    # 三风蛋 base is three winds: [1234z] is a 3-wind 旋风杠 + one 补 = 2, as [1231z]
    for kong in ("[1234z]", "[1231z]"):
        r = S.score(RED_HAND, win="5s", kongs=f"W:{kong}", rules=MIL)
        assert r.kong_payments == {"E": -2, "S": -2, "W": 6, "N": -2}, kong
    # without 三风蛋 the base is the four winds: [1234z] pays 1
    r = S.score(RED_HAND, win="5s", kongs="W:[1234z]")
    assert r.kong_payments["W"] == 3


@pytest.mark.parametrize(
    "args",
    [
        ["check", "7z[123m][222p](9999p)[345s]", "7z"],
        ["waits", "7z[123m][222p](9999p)[345s]"],
        ["score", "1122m3344p5566s7z", "--win", "7z", "--by", "discard", "--from", "W"],
        ["bao", "23m456p789s111z55s", "--bao", "1m", "--visible", "111m"],
    ],
)
def test_commands_answer_by_the_preset(args):
    res = runner.invoke(app, [*args, "--rules", MIL, "--json"])
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    if args[0] == "check":
        assert d["legal"] is True
    elif args[0] == "waits":
        assert d["tenpai"] is True
    elif args[0] == "score":
        assert d["payments"]["W"] == -40
    else:
        assert d["may_change"] and d["outcome"] == "duibao"
