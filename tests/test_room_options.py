"""Room options of seed 000 and the new variant keys: stake ladders, a discarding dealer, 喜杠 补
with any honor, the 包庄 look test, and validation (a bad value is exit 3 naming the key).

Payments are worked by hand: each loser's fan is 平胡 1 + 门清 1 + 夹胡 1 + 飘胡 2 + 自摸 1 +
宝 1 + 庄 1 (winner or this loser is the dealer) + 点炮 1 (this loser discarded); he pays
base x 2^(fan - 1), or with a stake ladder its amount for that fan.
"""

import io
import json

import pytest
from typer.testing import CliRunner

from ccmj_cli import batch as BA
from ccmj_cli import scoring as S
from ccmj_cli import tiles as T
from ccmj_cli.cli import app
from ccmj_cli.errors import HandError, VariantError
from ccmj_cli.rules import SCHEMA, load_variant, max_charged_fan

runner = CliRunner()
LADDER_135 = [1, 3, 5, 10, 20, 40, 80]


def room(tmp_path, text, name="room.yaml"):
    p = tmp_path / name
    p.write_text("extends: default\n" + text, encoding="utf-8")
    return load_variant(str(p))


# --------------------------------------------------------------------------- stake ladders

# seed 000's "335" line: (what the win is, hand, how, bao) for 平胡, 站立, 站立夹, 站立夹宝,
# 飘宝, 站立飘宝, all self-drawn; each one fan more than the one before, except 飘宝 = 站立夹宝
SEED_335 = [
    # 平胡: a claimed pung (not 门清), 23m waits 1m/4m (两面, not 夹); 平胡 + 自摸 = 2
    ("平胡", "23m456p789s55s[111z]", dict(win="1m", how="self")),
    # 站立: the same hand concealed: + 门清 = 3
    ("站立", "23m456p789s55s111z", dict(win="1m", how="self")),
    # 站立夹: 46s waiting 5s (坎张, 独听): + 夹 = 4
    ("站立夹", "123m456p46s55s111z", dict(win="5s", how="self")),
    # 站立夹宝: the same hand by 摸宝 (the bao stands for 5s): + 宝 = 5
    ("站立夹宝", "123m456p46s55s111z", dict(how="mobao", bao="9p")),
    # 飘宝: a claimed pung, 飘胡 on a 双碰 by 摸宝: 平胡 + 飘 2 + 自摸 + 宝 = 5
    ("飘宝", "111m999p55s77z[222z]", dict(how="mobao", bao="3p")),
    # 站立飘宝: the same concealed: + 门清 = 6
    ("站立飘宝", "111m999p11s55s777z", dict(how="mobao", bao="3p")),
]


def test_the_135_ladder_gives_seed_000s_335_line(tmp_path):
    # seed 000: "335 庄自摸平胡5，站立10，站立夹20，站立夹宝40，飘宝40，站立飘宝80 /
    # 其他人平胡3，站立5，站立夹10，站立夹宝20，飘宝20，站立飘宝40，庄都是翻番给" — the 135
    # ladder (1 3 5 10 20 40 80 for 1..7 fan). Dealer winner: every loser pays at fan + 1
    # (庄). Non-dealer winner: the others pay at the hand's fan, the dealer one step more.
    v = room(tmp_path, f"stakes: {LADDER_135}\n")
    dealer_wins = [S.score(h, seat="E", rules=v, **kw).payments["S"] for _, h, kw in SEED_335]
    assert dealer_wins == [-5, -10, -20, -40, -40, -80]
    others, dealer = [], []
    for _, h, kw in SEED_335:
        p = S.score(h, seat="S", rules=v, **kw).payments
        assert p["W"] == p["N"]
        others.append(-p["W"])
        dealer.append(-p["E"])
    assert others == [3, 5, 10, 20, 20, 40]
    assert dealer == [5, 10, 20, 40, 40, 80]  # 庄都是翻番给: one step up the ladder


def test_the_ladder_caps_and_works_in_every_payment_mode(tmp_path):
    # a 5-amount ladder needs cap_fan 5 (the default rules can charge 7 fan)
    with pytest.raises(VariantError, match="key 'stakes'"):
        room(tmp_path, "stakes: [1, 3, 5, 10, 20]\n", "short.yaml")
    hand = "123m456p46s55s111z"  # 门清 夹: 3 fan; from W: E 庄 4, W 点炮 4, N 3
    pays = {}
    for mode in ("all_pay", "discarder_only", "discarder_covers_all"):
        v = room(tmp_path, f"stakes: [1, 3, 5, 10]\ncap_fan: 4\ndianpao: {mode}\n", f"{mode}.yaml")
        r = S.score(hand, win="5s", how="discard", discarder="W", rules=v)
        pays[mode] = r.payments
        assert r.fan_by_seat["E"] == 4 or mode == "discarder_only"
    # ladder: 3 fan -> 5, 4 fan -> 10
    assert pays["all_pay"] == {"E": -10, "S": 25, "W": -10, "N": -5}
    assert pays["discarder_only"] == {"E": 0, "S": 10, "W": -10, "N": 0}
    assert pays["discarder_covers_all"] == {"E": 0, "S": 25, "W": -25, "N": 0}
    # the cap: a dealer 门清 飘 对宝 is 7 fan for each loser, capped at 4 -> 10 each
    v = room(tmp_path, "stakes: [1, 3, 5, 10]\ncap_fan: 4\n", "cap.yaml")
    r = S.score("111m999p11s55s777z", how="duibao", bao="5s", seat="E", rules=v)
    assert r.fan_by_seat == {"E": 0, "S": 4, "W": 4, "N": 4} and r.payments["E"] == 30


def test_max_charged_fan():
    # default: 平胡 1 + 门清 1 + 飘 2 (夹 and 飘 do not stack) + 自摸 1 + 宝 1 + 庄 1 = 7
    o = dict(load_variant().options)
    assert max_charged_fan(o) == 7
    assert max_charged_fan({**o, "piao_stacks_with_jia": True}) == 8
    assert max_charged_fan({**o, "chongbao_double": True}) == 8
    assert max_charged_fan({**o, "qidui": True, "qidui_jiahu": True}) == 1 + 1 + 4 + 2 + 1
    assert max_charged_fan({**o, "cap_fan": 5}) == 5


@pytest.mark.parametrize(
    "value, why",
    [
        ("[1, 3, 5]", "key 'stakes'"),  # too short for 7 fan
        ("[]", "key 'stakes'"),
        ("[1, 0, 5, 10, 20, 40, 80]", "positive whole numbers"),
        ("[1, 2.5, 5, 10, 20, 40, 80]", "positive whole numbers"),
        ("[1, true, 5, 10, 20, 40, 80]", "positive whole numbers"),
        ("135", "key 'stakes'"),
        ("[" + ", ".join(["1"] * 33) + "]", "key 'stakes'"),
    ],
)
def test_bad_stakes_exit_3(tmp_path, value, why):
    p = tmp_path / "bad.yaml"
    p.write_text(f"stakes: {value}\n", encoding="utf-8")
    res = runner.invoke(app, ["rules", "--rules", str(p)])
    assert res.exit_code == 3 and why in res.stderr and "stakes" in res.stderr


def test_a_deep_variant_path_is_cut_in_the_middle_and_the_key_still_named(tmp_path):
    # a path longer than the quote limit keeps its quotes and its file name: the message went
    # "...bad.y....'stakes'" (the closing quote cut, the key's quotes read as part of the path)
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    deep.mkdir(parents=True)
    p = deep / "bad.yaml"
    p.write_text("stakes: 135\n", encoding="utf-8")
    res = runner.invoke(app, ["rules", "--rules", str(p)])
    assert res.exit_code == 3, res.stderr
    assert "e/bad.yaml': key 'stakes': expected null or a list" in res.stderr, res.stderr
    assert len(res.stderr.splitlines()[0]) < 220


# --------------------------------------------------------------------------- a discarding dealer


def test_dealer_dianpao_stacks(tmp_path):
    # seed 000: "平家平胡：庄家2；平家1（如果平家点炮再翻一倍，庄家不变）". S wins 平胡 (a
    # claimed pung, 两面) on a discard: the dealer pays 2 (平胡 + 庄), a non-dealer 1; a
    # discarding non-dealer pays double (2); a discarding dealer stays at 2 in that room, 4 by
    # default.
    hand, win = "23m456p789s55s[111z]", "1m"
    v = room(tmp_path, "dealer_dianpao_stacks: false\n")
    r = S.score(hand, win=win, how="discard", discarder="E", rules=v)
    assert r.payments == {"E": -2, "S": 4, "W": -1, "N": -1}
    assert "dianpao" not in {i.name for i in r.fan_items}  # charged to nobody
    r = S.score(hand, win=win, how="discard", discarder="E")
    assert r.payments == {"E": -4, "S": 6, "W": -1, "N": -1}
    for rules in (v, None):  # a non-dealer discarder: 点炮 doubles his share either way
        r = S.score(hand, win=win, how="discard", discarder="W", rules=rules)
        assert r.payments == {"E": -2, "S": 5, "W": -2, "N": -1}
        assert [i.seats for i in r.fan_items if i.name == "dianpao"] == [["W"]]


# --------------------------------------------------------------------------- 喜杠 补


def test_xi_bu_any_honor(tmp_path):
    # seeds 000/003: "再有其他的字牌可以补杠": a wind beside 中发白 is a 补 tile of the 喜杠
    with pytest.raises(HandError):
        T.parse_hand("[567z1z]")
    v = room(tmp_path, "xi_bu_any_honor: true\n")
    m = T.parse_hand("[567z1z]", v.meld_rules).melds[0]
    assert (m.name, m.bu) == ("xi", 1)
    # the kong pays 1 + 1 补 = 2 from each other seat
    r = S.score("123m456p46s55s[567z1z]", win="5s", rules=v)
    assert r.legal and r.kong_payments["S"] == 6
    # winds alone are still a 旋风杠, never a 喜杠
    assert T.parse_hand("[1234z]", v.meld_rules).melds[0].name == "xuanfeng"


# --------------------------------------------------------------------------- 包庄 inputs in batch


def test_batch_looked_column_agrees_with_score(tmp_path):
    v = load_variant("mil2024")
    text = (
        "hand,win,how,from,declared,looked\n"
        "123m456p46s55s111z,5s,discard,W,0,0\n"
        "123m456p46s55s111z,5s,discard,W,1,0\n"
        "123m456p46s55s111z,5s,discard,W,1,1\n"
        "123m456p46s55s111z,5s,discard,W,0,yes\n"
        "123m456p46s55s111z,5s,discard,W,0,maybe\n"
    )
    out = io.StringIO()
    summary = BA.run(io.StringIO(text), out, as_json=True, rules=v)
    assert summary.failed == 1
    lines = [json.loads(x) for x in out.getvalue().splitlines()]
    want = [
        S.score("123m456p46s55s111z", "5s", "discard", "S", "W", rules=v, declared=d, looked=k)
        for d, k in ((False, False), (True, False), (True, True), (False, True))
    ]
    for got, w in zip(lines, want, strict=False):
        got.pop("input"), got.pop("error")
        assert got == w.to_dict()
    assert [x["payments"]["W"] for x in lines[:4]] == [-20, -20, -8, -8]
    assert "bad looked 'maybe'" in lines[4]["error"]
    # CSV and the bulk path: the same payments
    out = io.StringIO()
    BA.run(io.StringIO(text), out, rules=v)
    rows = out.getvalue().splitlines()[1:]
    assert [r.split(",")[-3] for r in rows[:4]] == ["-20", "-20", "-8", "-8"]  # pay_W


# --------------------------------------------------------------------------- validation


@pytest.mark.parametrize(
    "key, value",
    [
        ("haohua", "sometimes"),
        ("shoubayi_ankong_concealed", "yes please"),
        ("xiaoji_wildcard", "two"),
        ("xi_bu_any_honor", 1),
        ("one_special_kong_per_kind", "true"),
        ("special_kong_timing", "later"),
        ("duanyaojiu_may_declare", None),
        ("bao_change", "never"),
        ("cover_needs_look", 0),
        ("dealer_dianpao_stacks", "no"),
    ],
)
def test_bad_values_exit_3_naming_the_key(tmp_path, key, value):
    assert key in SCHEMA
    p = tmp_path / "bad.yaml"
    p.write_text(json.dumps({key: value}), encoding="utf-8")  # JSON is YAML
    res = runner.invoke(app, ["waits", "123m456p46s55s111z", "--rules", str(p)])
    assert res.exit_code == 3, res.output
    assert f"key '{key}'" in res.stderr
