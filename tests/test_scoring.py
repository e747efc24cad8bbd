"""Scoring (RULES.md §5, §7): seed examples, per-seat payments, kong money, every scoring option.

Expected values are worked by hand from the payment rule: each paying loser pays
base x 2^(fan - 1), fan = 1 (win) + 门清 1 + 夹胡 1 + 飘胡 2 + 自摸 1 + 宝 1 + 庄 1 + 点炮 1.
"""

import json

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from scoring_support import assert_score, reference_score
from strategies import win_cases
from typer.testing import CliRunner

from ccmj_cli import scoring as S
from ccmj_cli.cli import app
from ccmj_cli.errors import HandError, UsageError
from ccmj_cli.rules import load_variant, preset_names

runner = CliRunner()
HYPO = settings(deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow])

# 门清, 坎张 5s (独听): 123m 456p 4556s 111z
JIA_HAND = "123m456p46s55s111z"
# 门清 飘胡 shanpon 11s/55s: 111m 999p 11s 55s 777z
PIAO_HAND = "111m999p11s55s777z"


def variant_file(tmp_path, text, name="v.yaml"):
    p = tmp_path / name
    p.write_text("extends: default\n" + text, encoding="utf-8")
    return load_variant(str(p))


# --- the seed examples (seed 001 §5.3, seed 000 "长春麻将算钱") ------------------------------


def test_seed_nondealer_menqing_jia_zimo_bao():
    # seed 001: 闲家 门清+夹+自摸+宝 -> the other non-dealers pay 16, the dealer 32
    r = S.score(JIA_HAND, how="mobao", bao="9p", seat="S")
    assert r.legal and r.stands_for == "5s"
    assert {i.name for i in r.fan_items} == {"win", "menqing", "jiahu", "zimo", "bao", "dealer"}
    assert r.payments == {"E": -32, "S": 64, "W": -16, "N": -16}


def test_seed_dealer_menqing_jia_zimo_bao():
    # seed 001: 庄家 门清+夹+自摸+宝 -> each non-dealer pays 32
    r = S.score(JIA_HAND, how="mobao", bao="9p", seat="E")
    assert r.payments == {"E": 96, "S": -32, "W": -32, "N": -32}


def test_seed_nondealer_menqing_piao_zimo_bao():
    # seed 001: 闲家 门清+飘+自摸+宝 -> non-dealers 32, dealer 64
    r = S.score(PIAO_HAND, win="5s", how="duibao", seat="S")
    assert r.payments == {"E": -64, "S": 128, "W": -32, "N": -32}


def test_seed_dealer_menqing_piao_zimo_bao():
    # seed 001: 庄家 门清+飘+自摸+宝 -> 64 each
    r = S.score(PIAO_HAND, how="duibao", bao="5s", seat="E")
    assert r.fan_by_seat == {"E": 0, "S": 7, "W": 7, "N": 7}
    assert r.payments == {"E": 192, "S": -64, "W": -64, "N": -64}


def test_seed000_dealer_zhanli_bao_zimo_piao_192():
    # seed 000: 庄站立宝自摸票胡 64 元, 总计 192 元 (here a 摸宝 on an unrelated bao)
    r = S.score(PIAO_HAND, how="mobao", bao="3p", seat="E")
    assert r.legal and r.stands_for in ("1s", "5s")
    assert r.total["E"] == 192 and r.total == {"E": 192, "S": -64, "W": -64, "N": -64}


# --- the hand itself ------------------------------------------------------------------------


def test_discard_all_pay_with_discarder_extra_fan():
    # S wins on W's discard: 平胡1+门清1+夹1 = 3; E (dealer) 4 -> 8; W (点炮) 4 -> 8; N 3 -> 4
    r = S.score(JIA_HAND, win="5s", how="discard", discarder="W")
    assert r.fan_by_seat == {"E": 4, "S": 0, "W": 4, "N": 3}
    assert r.payments == {"E": -8, "S": 20, "W": -8, "N": -4}


def test_fourteen_tile_hand_with_the_win_inside_is_the_same():
    a = S.score(JIA_HAND, win="5s", how="self")
    b = S.score(JIA_HAND + "5s", win="5s", how="self")
    assert a.payments == b.payments and a.fan_items == b.fan_items


def test_not_legal_reports_reasons_and_pays_nothing():
    r = S.score("123m456p789s1123s", win="4s")  # no pung
    assert not r.legal and r.reasons == ["no_pung"]
    assert r.payments == {"E": 0, "S": 0, "W": 0, "N": 0} and r.fan_items == []


def test_base_multiplies_the_total():
    r = S.score(JIA_HAND, win="5s", how="self", base=5)
    assert r.total_amount == {k: v * 5 for k, v in r.total.items()}


# --- kong money (§7) ---------------------------------------------------------------------------


def test_concealed_dadan_in_hand_pays_4_each():
    # (1111s) = concealed 大蛋 = 4 from each other seat; the hand: W self-draw 门清 + 夹 (独听:
    # the 1s wait is dead, all four 1s are W's) -> 4 fan: 8 from S and N, 16 from the dealer
    r = S.score("123m456p23s99m(1111s)", win="4s", how="self", seat="W")
    assert r.kong_payments == {"E": -4, "S": -4, "W": 12, "N": -4}
    assert r.payments == {"E": -16, "S": -8, "W": 32, "N": -8}
    assert r.total == {"E": -20, "S": -12, "W": 44, "N": -12}
    assert [(k.seat, k.meld, k.value) for k in r.kongs] == [("W", "(1111s)", 4)]


@pytest.mark.parametrize(
    "kongs, expected",
    [
        ("E:[5555m]", 1),  # 明杠
        ("E:(5555m)", 2),  # 暗杠
        ("E:[7777z]", 2),  # 大蛋 (中), open
        ("E:(1111p)", 4),  # 大蛋 (幺饼), concealed
        ("E:[1234z]", 1),  # 旋风杠
        ("E:[123424z]", 3),  # 旋风杠 + 2 补
        ("E:[567z]", 1),  # 喜杠
        ("E:[1m1p1s]", 1),  # 幺蛋
        ("E:[9m9p9s9m]", 2),  # 九蛋 + 1 补
    ],
)
def test_kong_values(kongs, expected):
    r = S.score(JIA_HAND, win="5s", how="self", kongs=kongs)
    assert r.kong_payments == {"E": 3 * expected, "S": -expected, "W": -expected, "N": -expected}


def test_kongs_of_several_seats_sum_to_zero():
    r = S.score(JIA_HAND, win="5s", how="discard", discarder="W", kongs="E:(5555m),W:[1234z][567z]")
    assert r.kong_payments == {"E": 4, "S": -4, "W": 4, "N": -4}
    assert sum(r.total.values()) == 0


@pytest.mark.parametrize(
    "kongs, error",
    [
        ("X:[5555m]", UsageError),
        ("E5555m", UsageError),
        ("E:[555m]", UsageError),  # a pung is not a kong
        ("E:5555m", UsageError),  # not bracketed
        ("E:[1111z],W:[1111z]", HandError),  # 8 copies
        ("E:[5555s]", HandError),  # the hand holds two 5s + the win
    ],
)
def test_bad_kongs(kongs, error):
    with pytest.raises(error):
        S.score(JIA_HAND, win="5s", how="self", kongs=kongs)


# --- options ---------------------------------------------------------------------------------


def test_dianpao_discarder_only(tmp_path):
    v = variant_file(tmp_path, "dianpao: discarder_only\n")
    r = S.score(JIA_HAND, win="5s", how="discard", discarder="W", rules=v)
    assert r.payments == {"E": 0, "S": 8, "W": -8, "N": 0}
    assert r.fan_by_seat == {"E": 0, "S": 0, "W": 4, "N": 0}


def test_dianpao_discarder_covers_all(tmp_path):
    v = variant_file(tmp_path, "dianpao: discarder_covers_all\n")
    r = S.score(JIA_HAND, win="5s", how="discard", discarder="W", kongs="E:[5555m]", rules=v)
    assert r.payments == {"E": 0, "S": 20, "W": -20, "N": 0}
    assert r.kong_payments == {"E": 3, "S": -1, "W": -1, "N": -1}  # kongs are never covered


def test_cover_only_undeclared(tmp_path):
    v = variant_file(tmp_path, "dianpao: discarder_covers_all\ncover_only_undeclared: true\n")
    covered = S.score(JIA_HAND, win="5s", how="discard", discarder="W", rules=v)
    declared = S.score(JIA_HAND, win="5s", how="discard", discarder="W", declared=True, rules=v)
    assert covered.payments == {"E": 0, "S": 20, "W": -20, "N": 0}
    assert declared.payments == {"E": -8, "S": 20, "W": -8, "N": -4}


def test_cap_fan(tmp_path):
    v = variant_file(tmp_path, "cap_fan: 6\n")
    # dealer 门清+飘+自摸+宝 = 7 fan, capped to 6: 32 each instead of 64
    r = S.score(PIAO_HAND, how="duibao", bao="5s", seat="E", rules=v)
    assert r.fan_by_seat == {"E": 0, "S": 6, "W": 6, "N": 6}
    assert r.payments["E"] == 96


def test_fan_values(tmp_path):
    v = variant_file(tmp_path, "fan:\n  piao: 3\n  dealer: 0\n")
    r = S.score(PIAO_HAND, how="duibao", bao="5s", seat="S", rules=v)
    # 1 + 门清 1 + 飘 3 + 自摸 1 + 宝 1 = 7 for everyone (no 庄 fan)
    assert r.fan_by_seat == {"E": 7, "S": 0, "W": 7, "N": 7}
    assert r.payments == {"E": -64, "S": 192, "W": -64, "N": -64}


def test_kong_values_option(tmp_path):
    v = variant_file(tmp_path, "kong:\n  an: 3\n")
    r = S.score(JIA_HAND, win="5s", how="self", kongs="N:(5555m)", rules=v)
    assert r.kong_payments == {"E": -3, "S": -3, "W": -3, "N": 9}


def test_piao_stacks_with_jia(tmp_path):
    # 111m 999p 111s 777z + 单调 5z: a 飘胡 won on a 单调 (and 独听)
    hand = "111m999p111s777z5z"
    plain = S.score(hand, win="5z", how="self")
    stacked = S.score(
        hand, win="5z", how="self", rules=variant_file(tmp_path, "piao_stacks_with_jia: true\n")
    )
    assert "jiahu" not in {i.name for i in plain.fan_items}
    assert "jiahu" in {i.name for i in stacked.fan_items}
    assert stacked.payments["S"] == 2 * plain.payments["S"]


def test_special_kong_breaks_menqing(tmp_path):
    hand = "123m456p46s55s[567z]"  # 喜杠 (下蛋), no claimed meld
    broken = S.score(hand, win="5s", how="self")
    kept = S.score(
        hand,
        win="5s",
        how="self",
        rules=variant_file(tmp_path, "special_kong_breaks_menqing: false\n"),
    )
    assert "menqing" not in {i.name for i in broken.fan_items}
    assert "menqing" in {i.name for i in kept.fan_items}


def test_chongbao_double(tmp_path):
    v = variant_file(tmp_path, "chongbao_double: true\n")
    plain = S.score(PIAO_HAND, how="duibao", bao="5s", seat="E")
    double = S.score(PIAO_HAND, how="duibao", bao="5s", seat="E", rules=v)
    mobao = S.score(PIAO_HAND, how="mobao", bao="3p", seat="E", rules=v)
    assert "chongbao" in {i.name for i in double.fan_items}
    assert double.payments["E"] == 2 * plain.payments["E"]
    assert "chongbao" not in {i.name for i in mobao.fan_items}  # 冲宝 is for 对宝 only


def test_jiahu_mode(tmp_path):
    # 两面 1s-4s with every 1s in W's own kong: 独听 -> 夹 under `any`, not under `shape`
    hand = "123m456p23s99m(1111s)"
    anymode = S.score(hand, win="4s", how="self", seat="W")
    shape = S.score(
        hand, win="4s", how="self", seat="W", rules=variant_file(tmp_path, "jiahu: shape\n")
    )
    assert "jiahu" in {i.name for i in anymode.fan_items}
    assert "jiahu" not in {i.name for i in shape.fan_items}


def test_dragon_pair_is_pung(tmp_path):
    hand = "123m456p789s123s5z"  # no pung: only the 白 pair as 将 makes it legal
    assert S.score(hand, win="5z").legal
    r = S.score(hand, win="5z", rules=variant_file(tmp_path, "dragon_pair_is_pung: false\n"))
    assert not r.legal and r.reasons == ["no_pung"]


def test_special_kong_is_pung(tmp_path):
    hand = "[1234z][567z][111m][999p]1s"  # 手把一: legal only as 飘胡
    assert S.score(hand, win="1s").legal
    r = S.score(hand, win="1s", rules=variant_file(tmp_path, "special_kong_is_pung: false\n"))
    assert not r.legal and "single_tile_not_piao" in r.reasons


def test_qidui_and_haohua(tmp_path):
    v = variant_file(tmp_path, "qidui: true\n")
    hand = "11m99m11p99p11s99s7z"
    assert not S.score(hand, win="7z").legal
    r = S.score(hand, win="7z", how="self", rules=v)
    assert r.legal and {"qidui"} <= {i.name for i in r.fan_items}
    h = S.score("1111m99m11p99p11s9s", win="9s", how="self", rules=v)  # four 1m: 豪华七对
    assert {"qidui", "haohua"} <= {i.name for i in h.fan_items}


def test_quemen_and_piao_exempt(tmp_path):
    two_suits = "123m456m789p11p111z"  # no 条 (s)
    assert S.score(two_suits, win="1p").reasons == ["missing_suit"]
    assert S.score(two_suits, win="1p", rules=variant_file(tmp_path, "quemen: true\n")).legal
    piao_no_s = "111m999p55p777z22z"  # a 飘胡 without 条
    assert not S.score(piao_no_s, win="2z").legal
    assert S.score(
        piao_no_s, win="2z", rules=variant_file(tmp_path, "piao_exempt: true\n", "p.yaml")
    ).legal


def test_sanfeng_and_xiaoji_kongs(tmp_path):
    with pytest.raises(HandError):
        S.score("123m456p46s55s[123z]", win="5s")
    v = variant_file(tmp_path, "sanfeng_dan: true\nxiaoji_feidan: true\n")
    r = S.score("123m456p46s55s[123z]", win="5s", rules=v)  # 三风蛋: a 旋风杠
    assert r.legal and r.kong_payments["S"] == 3
    r = S.score(
        "123m456p46s55s[1s56z]", win="5s", kongs="E:[1231z]", rules=v
    )  # 小鸡飞蛋; 三风蛋 + 补
    assert r.kong_payments == {"E": 6 - 1, "S": 3 - 2, "W": -3, "N": -3}


def test_bao_forbidden_without_yaojiu(tmp_path):
    hand = "22m78m456p345s555s"  # 断幺九, waits 6m (no 幺九: illegal) and 9m
    r = S.score(hand, how="mobao", bao="3p")
    assert not r.legal and r.reasons == ["duanyaojiu"]
    r = S.score(
        hand,
        how="mobao",
        bao="3p",
        rules=variant_file(tmp_path, "bao_forbidden_without_yaojiu: false\n"),
    )
    assert r.legal and r.stands_for == "9m"


# --- input errors ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(win="5s", how="discard"),  # no discarder
        dict(win="5s", how="discard", discarder="S"),  # the winner discarded
        dict(win="5s", how="self", discarder="W"),
        dict(win="5s", how="self", bao="5s"),
        dict(how="mobao"),
        dict(win="5s", how="mobao", bao="9p"),
        dict(win="5s", how="duibao", bao="9p"),
        dict(win="5s", how="ron"),
        dict(win="5s", seat="X"),
        dict(win="5s", base=0),
        dict(how="self"),
    ],
)
def test_bad_options(kwargs):
    with pytest.raises(UsageError):
        S.score(JIA_HAND, **kwargs)


@pytest.mark.parametrize(
    "hand, win",
    [
        ("123m456p46s55s111z6s", "7s"),  # a complete hand without the winning tile
        ("123m456p46s5555s1z", "5s"),  # a fifth 5s
        ("123m", "5s"),
        ("12x", "1m"),
    ],
)
def test_bad_hands(hand, win):
    with pytest.raises(HandError):
        S.score(hand, win=win)


# --- against the independent reference (tests/naive_scoring.py) ------------------------------


PRESETS = tuple(preset_names())  # every packaged preset, mil2024 included


@st.composite
def preset_wins(draw):
    """(a packaged preset, a win valid under it)."""
    preset = draw(st.sampled_from(PRESETS))
    return preset, draw(win_cases(load_variant(preset).options))


@HYPO
@given(example=preset_wins())
def test_payments_sum_to_zero_and_match_reference(example):
    # every field of the answer against the slow reference, which shares no scoring code with
    # ccmj (the wins are legal most of the time: test_scoring_properties checks the share)
    preset, case = example
    v = load_variant(preset)
    r = S.score(rules=v, **case)
    assert_score(r, reference_score(rules=v, **case), base=case["base"], fan_cap=v.cap_fan)
    if r.legal:
        assert r.payments[r.seat] > 0
    else:
        assert r.reasons and not any(r.payments.values())
    event(f"{preset}: {'legal' if r.legal else 'not legal'}")


# --- CLI ------------------------------------------------------------------------------------


def test_cli_score_json_fields():
    res = runner.invoke(app, ["score", JIA_HAND, "--by", "mobao", "--bao", "9p", "--json"])
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    for key in (
        "legal",
        "reasons",
        "fan_items",
        "fan_by_seat",
        "payments",
        "kong_payments",
        "total",
    ):
        assert key in d
    assert d["fan_items"][0] == {
        "name": "win",
        "name_zh": "平胡",
        "fan": 1,
        "seats": ["E", "W", "N"],
    }
    assert d["payments"] == {"E": -32, "S": 64, "W": -16, "N": -16}


def test_cli_score_table_and_kongs():
    res = runner.invoke(
        app,
        [
            "score",
            JIA_HAND,
            "--win",
            "5s",
            "--by",
            "discard",
            "--from",
            "W",
            "--kongs",
            "E:(5555m)",
            "--base",
            "2",
        ],
    )
    assert res.exit_code == 0, res.output
    assert "夹胡" in res.stdout and "total x 2" in res.stdout and "(5555m)" in res.stdout


def test_cli_check_exit_codes():
    bad = runner.invoke(app, ["score", "123m456p789s1123s", "--win", "4s", "--check"])
    assert bad.exit_code == 1 and "no_pung" in bad.stdout
    good = runner.invoke(app, ["score", JIA_HAND, "--win", "5s", "--check"])
    assert good.exit_code == 0
    usage = runner.invoke(app, ["score", JIA_HAND, "--win", "5s", "--by", "discard"])
    assert (
        usage.exit_code == 2
        and usage.stderr.startswith("error: ")
        and "Traceback" not in usage.output
    )
    variant = runner.invoke(app, ["score", JIA_HAND, "--win", "5s", "--rules", "nosuch"])
    assert variant.exit_code == 3


def test_qidui_jiahu_adds_the_jiahu_fan(tmp_path):
    # 1122m3344p5566s7z + 7z, self-draw by S (non-dealer), 七对 on. Worked by hand (RULES §5):
    # win 1 + 门清 1 + 七对 2 + 自摸 1 = 5 fan -> W, N pay 16, the dealer E (+1) 32: S +64.
    # With qidui_jiahu the 单调 is 夹: +1 fan each -> 32, 32, 64: S +128.
    plain = variant_file(tmp_path, "qidui: true\n")
    r = S.score("1122m3344p5566s7z", "7z", rules=plain)
    assert r.payments == {"E": -32, "S": 64, "W": -16, "N": -16}
    assert "jiahu" not in [i.name for i in r.fan_items]
    jia = variant_file(tmp_path, "qidui: true\nqidui_jiahu: true\n", "jia.yaml")
    r = S.score("1122m3344p5566s7z", "7z", rules=jia)
    assert r.payments == {"E": -64, "S": 128, "W": -32, "N": -32}
    assert "jiahu" in [i.name for i in r.fan_items]
