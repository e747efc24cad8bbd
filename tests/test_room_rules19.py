"""Issue 19: the 幺蛋/九蛋 三色全 bug and the room rules a second implementation plays.

Each option's default is the behaviour before it existed; the hands below are worked by hand
(RULES.md §3-§5): a loser pays base x 2^(fan - 1), fan = 平胡 1 + 门清 1 + 夹胡 1 + 飘胡 2 +
自摸 1 + 庄 1 (+ 飘顶 when set). The dealer sits East; the winner is South unless said. Every
example is also judged by the naive reference (tests/naive.py, naive_scoring.py).
"""

import csv
import io

import naive
import naive_scoring as NS
import pytest
from typer.testing import CliRunner

from ccmj_cli import batch as B
from ccmj_cli import hand as H
from ccmj_cli import scoring as S
from ccmj_cli import tiles as T
from ccmj_cli.cli import app
from ccmj_cli.errors import HandError
from ccmj_cli.rules import load_variant, max_charged_fan

runner = CliRunner()


def room(tmp_path, text, name="room.yaml"):
    p = tmp_path / name
    p.write_text("extends: default\n" + text, encoding="utf-8")
    return load_variant(str(p))


def naive_check(text, win, v):
    h = T.parse_hand(text, v.meld_rules)
    return naive.check(h, T.tile_index(win), v.options)


def both(text, win, v):
    """The kernel's check and the naive reference's verdict of one win; they must agree."""
    r = H.check(text, win, rules=v)
    n = naive_check(text, win, v)
    assert r.legal == n.legal, (text, win)
    assert tuple(r.reasons) in n.reasons or (r.legal and n.legal), (text, win, r.reasons)
    assert r.menqing == n.menqing, (text, win)
    if r.legal:
        assert (r.jiahu, r.piao, False) in n.flags or (r.jiahu, r.piao, True) in n.flags
    return r


# --------------------------------------------------------------------------- the bug
ANY = "xiaoji_feidan: true\nxiaoji_wildcard: any\n"


@pytest.mark.parametrize(
    "hand,win",
    [
        ("1123456778m[9m1s1s]", "9m"),  # 九蛋: 1s for 9p and 9s; the concealed part is all 万
        ("33m23334789s[1m1s1s]", "3m"),  # 幺蛋: 1s for 1p; no 饼 anywhere else
    ],
)
def test_a_yaodan_or_jiudan_supplies_all_three_suits_whatever_stands_in(tmp_path, hand, win):
    v = room(tmp_path, ANY)
    r = both(hand, win, v)
    assert r.legal and r.reasons == []


def test_a_jiudan_under_one_xiaoji_supplies_the_missing_suit(tmp_path):
    # 小鸡飞蛋 (one 1s): [9m9s1s] is a 九蛋 whose 9p the 1s stands for: it supplies 饼
    v = room(tmp_path, "xiaoji_feidan: true\n")
    r = both("1123456778m[9m9s1s]", "9m", v)
    assert r.legal
    # the same tiles as a chow + pung would miss 饼: the 九蛋 is what supplies it
    assert not H.check("1123456778m[999s]", "9m", rules=v).legal


def test_the_waits_of_a_hand_with_a_stood_in_jiudan(tmp_path):
    v = room(tmp_path, ANY)
    w = H.waits("1123456778m[9m1s1s]", rules=v)
    legal = {x.tile for x in w.waits if x.legal}
    assert {"6m", "9m"} <= legal


# ------------------------------------------------------------------- open_kong_breaks_menqing


def test_open_kong_keeps_menqing_when_the_room_says_so(tmp_path):
    hand, win = "123m456p78s55s[7777z]", "9s"
    default = S.score(hand, win, "self", rules="default")
    kept = room(tmp_path, "open_kong_breaks_menqing: false\n")
    r = S.score(hand, win, "self", rules=kept)
    assert "menqing" not in {i.name for i in default.fan_items}
    # 平胡 1 + 门清 1 + 自摸 1 = 3: W, N pay 4, the dealer 8 (+1 庄); [7777z], an open kong of
    # 中, is a 大蛋: 2 from each
    assert {i.name for i in r.fan_items} == {"win", "menqing", "zimo", "dealer"}
    assert r.payments == {"E": -8, "S": 16, "W": -4, "N": -4}
    assert default.payments == {"E": -4, "S": 8, "W": -2, "N": -2}
    assert r.kong_payments == {"E": -2, "S": 6, "W": -2, "N": -2}
    assert both(hand, win, kept).menqing
    # a 碰 and a 吃 still break it; a concealed kong never did
    assert not both("123m456p78s55s[777z]", win, kept).menqing
    assert not both("123m78s55s777z[456p]", win, kept).menqing


# --------------------------------------------------------------------------- fan.piaoding


def test_piaoding_scores_a_shoubayi_piao_one_fan_more(tmp_path):
    hand = "6z[444s][555m][999s][444p]"
    v = room(tmp_path, "fan:\n  piaoding: 1\n")
    plain = S.score(hand, "6z", "self", rules="default")
    r = S.score(hand, "6z", "self", rules=v)
    assert "piaoding" not in {i.name for i in plain.fan_items}
    # 平胡 1 + 飘 2 + 自摸 1 + 飘顶 1 = 5: W, N pay 16, the dealer 32
    assert r.payments == {"E": -32, "S": 64, "W": -16, "N": -16}
    assert plain.payments == {"E": -16, "S": 32, "W": -8, "N": -8}
    # a 飘 with concealed tiles is no 飘顶; nor is a 手把一 under shoubayi_ankong_concealed
    # when one of the four is a concealed kong
    other = S.score("6z444p[444s][555m][999s]6z", "6z", "self", rules=v)
    assert other.legal and "piaoding" not in {i.name for i in other.fan_items}
    mil = room(tmp_path, "fan:\n  piaoding: 1\nshoubayi_ankong_concealed: true\n", "m.yaml")
    ank = S.score("6z[444s][555m][999s](4444p)", "6z", "self", rules=mil)
    assert ank.legal and "piaoding" not in {i.name for i in ank.fan_items}
    assert max_charged_fan(v.options) == max_charged_fan(load_variant().options) + 1


def test_piaoding_agrees_with_the_naive_scoring(tmp_path):
    v = room(tmp_path, "fan:\n  piaoding: 2\n")
    hand = NS.Hand(tuple(T.parse_hand("6z[444s][555m][999s][444p]").concealed),
                   tuple(NS.Meld(m.name, m.tiles) for m in T.parse_hand(
                       "6z[444s][555m][999s][444p]").melds))  # fmt: skip
    verdict = NS.judge(hand, 32, v.options)
    (flags,) = verdict.flags
    assert NS.common_items(hand, 32, "self", flags, v.options)["piaoding"] == 2


# --------------------------------------------------------------------------- xiaoji_is_suit_tile
SANFENG = "xiaoji_feidan: true\nsanfeng_dan: true\n"


def test_a_xiaoji_in_a_wind_kong_is_no_tiao_when_the_room_says_so(tmp_path):
    hand, win = "34m456p55m789p[1z2z1s]", "2m"
    on = room(tmp_path, SANFENG)
    off = room(tmp_path, SANFENG + "xiaoji_is_suit_tile: false\n", "off.yaml")
    assert both(hand, win, on).legal
    r = both(hand, win, off)
    assert not r.legal and r.reasons == ["missing_suit"]
    # as a 补 tile of a 喜杠 too; a 幺蛋/九蛋 supplies all three suits either way
    assert both("34m456p55m789p[567z1s]", win, on).legal
    assert not both("34m456p55m789p[567z1s]", win, off).legal
    assert both("34m456p55m789p[9m9p1s]", win, off).legal
    # a 条 elsewhere in the hand still counts
    assert both("34m456p55m789s[1z2z1s]", win, off).legal


# --------------------------------------------------------------------------- jiahu shape_duanyaojiu


def test_jiahu_shape_duanyaojiu(tmp_path):
    v = room(tmp_path, "jiahu: shape_duanyaojiu\n")
    # a 断幺九 hand (no 幺九, melds included) wins only on its 幺九 tile: that win is 夹
    r = both("66678m23444p[567s]", "1p", v)
    assert r.legal and r.jiahu
    # 独听 alone is not 夹 here: 2m is all the player's own, so 5m is the only live wait
    assert not both("34m456p789s66z(2222m)", "5m", v).jiahu
    assert H.check("34m456p789s66z(2222m)", "5m").jiahu  # (the default counts 独听)
    w = {x.tile: x for x in H.waits("34m456p789s66z(2222m)", rules=v).waits}
    assert w["5m"].legal and not w["5m"].jiahu and w["2m"].live == 0
    # the shape still counts
    assert both("12m456p789s111z55s", "3m", v).jiahu
    assert not both("23m456p789s111z55s", "1m", v).jiahu
    w = {x.tile: x for x in H.waits("66678m23444p[567s]", rules=v).waits}
    assert w["1p"].legal and w["1p"].jiahu


def test_shape_duanyaojiu_payment(tmp_path):
    v = room(tmp_path, "jiahu: shape_duanyaojiu\n")
    # 平胡 1 + 夹 1 + 自摸 1 = 3 (the chow [567s] breaks 门清): W, N pay 4, the dealer 8
    r = S.score("66678m23444p[567s]", "1p", "self", rules=v)
    assert r.payments == {"E": -8, "S": 16, "W": -4, "N": -4}


# --------------------------------------------------------------------------- 三幺鸡
SANYAOJI = "sanyaoji: true\n"


def test_sanyaoji_notation_and_meld(tmp_path):
    v = room(tmp_path, SANYAOJI)
    h = T.parse_hand("23456778m99m[*111s]", v.meld_rules)
    (m,) = h.melds
    assert m.name == "yaodan" and m.sanyaoji and m.bu == 0 and m.text() == "[*111s]"
    assert T.format_hand(h) == "2345677899m[*111s]"
    assert T.parse_hand("[*111s9m]", v.meld_rules).melds[0].name == "jiudan"
    assert T.parse_hand("[*111s9m]", v.meld_rules).melds[0].bu == 1
    assert T.parse_hand("[*111s1z]", v.meld_rules).melds[0].bu == 0  # 1s for 南西北
    sanfeng = room(tmp_path, SANYAOJI + "sanfeng_dan: true\n", "sanfeng.yaml")
    assert T.parse_hand("[*111s1z]", sanfeng.meld_rules).melds[0].bu == 1
    with pytest.raises(HandError, match="sanyaoji: true"):
        T.parse_hand("23456778m99m[*111s]")
    with pytest.raises(HandError, match="三幺鸡"):
        T.parse_hand("[*11s]", v.meld_rules)
    assert T.parse_hand("[111s]", v.meld_rules).melds[0].name == "pung"  # unmarked: a pung


def test_sanyaoji_supplies_all_three_suits_and_pays_as_a_special_kong(tmp_path):
    v = room(tmp_path, SANYAOJI)
    # no 饼 in the hand: as a 幺蛋 the three 1s supply it; as a pung they would not
    r = both("23456778m99m[*111s]", "9m", v)
    assert r.legal
    assert not both("23456778m99m[111s]", "9m", v).legal
    s = S.score("23456778m99m[*111s]", "9m", "self", rules=v)
    assert s.kong_payments == {"E": -1, "S": 3, "W": -1, "N": -1}  # a special kong: 1 each
    # 平胡 1 + 夹 1 (单调: a 9m may be the pair's) + 自摸 1 = 3 (下蛋 breaks 门清): W, N pay 4,
    # the dealer 8
    assert s.payments == {"E": -8, "S": 16, "W": -4, "N": -4}
    w = {x.tile: x for x in H.waits("23456778m99m[*111s]", rules=v).waits}
    assert w["9m"].legal and w["6m"].legal


def test_sanyaoji_through_the_cli_and_batch(tmp_path):
    path = tmp_path / "room.yaml"
    path.write_text("extends: default\n" + SANYAOJI, encoding="utf-8")
    res = runner.invoke(app, ["check", "23456778m99m[*111s]", "9m", "--rules", str(path)])
    assert res.exit_code == 0 and "yes" in res.output
    res = runner.invoke(app, ["check", "23456778m99m[*111s]", "9m"])
    assert res.exit_code == 2 and "sanyaoji" in res.output
    text = "hand,win,how\n23456778m99m[*111s],9m,self\n23456778m99m[111s],9m,self\n"
    out = io.StringIO()
    B.run(io.StringIO(text), out, rules=load_variant(str(path)))
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert [r["legal"] for r in rows] == ["true", "false"]
    s = S.score("23456778m99m[*111s]", "9m", "self", rules=load_variant(str(path)))
    assert [int(rows[0][f"pay_{x}"]) for x in "ESWN"] == [s.total_amount[x] for x in "ESWN"]


def test_batch_bulk_path_agrees_on_the_new_options(tmp_path):
    # rows the bulk kernels read (no 三幺鸡 mark) under every new option at once
    text = ANY + "sanfeng_dan: true\nopen_kong_breaks_menqing: false\n"
    text += "xiaoji_is_suit_tile: false\njiahu: shape_duanyaojiu\nfan:\n  piaoding: 1\n"
    v = room(tmp_path, text)
    cases = [("1123456778m[9m1s1s]", "9m"), ("33m23334789s[1m1s1s]", "3m"),
             ("123m456p78s55s[7777z]", "9s"), ("6z[444s][555m][999s][444p]", "6z"),
             ("34m456p55m789p[1z2z1s]", "2m"), ("66678m23444p[567s]", "1p"),
             ("34m456p789s66z(2222m)", "5m")]  # fmt: skip
    text = "hand,win,how\n" + "".join(f"{h},{w},self\n" for h, w in cases)
    out = io.StringIO()
    B.run(io.StringIO(text), out, rules=v)
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    for (h, w), g in zip(cases, rows, strict=True):
        s = S.score(h, w, "self", rules=v)
        assert g["legal"] == ("true" if s.legal else "false"), h
        assert g["fan_items"] == " ".join(f"{i.name}:{i.fan}" for i in s.fan_items), h
        assert [int(g[f"pay_{x}"]) for x in "ESWN"] == [s.total_amount[x] for x in "ESWN"], h


# --------------------------------------------------------------------------- defaults unchanged


def test_the_new_options_default_to_the_old_behaviour():
    o = load_variant().options
    assert o["open_kong_breaks_menqing"] is True
    assert o["xiaoji_is_suit_tile"] is True
    assert o["sanyaoji"] is False
    assert o["jiahu"] == "any"
    assert o["fan"]["piaoding"] == 0


# --------------------------------------------------------------------------- docs/rules.md §9
DOC_ROWS = [
    # (options, hand, win, payments with the option, payments by default (None: not legal))
    ("open_kong_breaks_menqing: false\n", "123m456p78s55s[7777z]", "9s",
     (-8, 16, -4, -4), (-4, 8, -2, -2)),
    ("fan:\n  piaoding: 1\n", "6z[444s][555m][999s][444p]", "6z",
     (-32, 64, -16, -16), (-16, 32, -8, -8)),
    (SANFENG + "xiaoji_is_suit_tile: false\n", "34m456p55m789p[1z2z1s]", "2m",
     None, (-4, 8, -2, -2)),
    ("jiahu: shape_duanyaojiu\n", "66678m23444p[567s]", "1p", (-8, 16, -4, -4), (-4, 8, -2, -2)),
    ("jiahu: shape_duanyaojiu\n", "34m456p789s66z(2222m)", "5m",
     (-8, 16, -4, -4), (-16, 32, -8, -8)),
    ("sanyaoji: true\n", "23456778m99m[*111s]", "9m", (-8, 16, -4, -4), None),
]  # fmt: skip


@pytest.mark.parametrize("opts,hand,win,with_it,default", DOC_ROWS)
def test_the_worked_hands_of_the_rule_book(tmp_path, opts, hand, win, with_it, default):
    v = room(tmp_path, opts)
    base = room(tmp_path, opts.replace("false", "true").replace("piaoding: 1", "piaoding: 0")
                .replace("shape_duanyaojiu", "any").replace("sanyaoji: true", "sanyaoji: false"),
                "base.yaml")  # fmt: skip
    for rules, want in ((v, with_it), (base, default)):
        try:
            r = S.score(hand, win, "self", rules=rules)
        except HandError:
            assert want is None and rules is base  # ([*111s] needs sanyaoji)
            continue
        if want is None:
            assert not r.legal
        else:
            assert r.legal and tuple(r.payments[x] for x in "ESWN") == want


def test_the_piaoding_preset():
    v = load_variant("piaoding")
    assert v.fan["piaoding"] == 1 and not v.open_kong_breaks_menqing
    assert v.jiahu == "shape_duanyaojiu" and v.sanyaoji and not v.xiaoji_is_suit_tile
    assert H.check("1123456778m[9m1s1s]", "9m", rules=v).legal
    assert H.check("23456778m99m[*111s]", "9m", rules=v).legal
    r = S.score("6z[444s][555m][999s][444p]", "6z", "self", rules=v)
    assert r.payments == {"E": -32, "S": 64, "W": -16, "N": -16}
