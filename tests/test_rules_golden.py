"""Hand-worked golden cases for every rule and option of RULES.md §3-§4.

Each case says, in its `why`, where the expected value comes from. Hands are 13 tiles' worth
(fewer concealed tiles beside melds); `win` is the tile that completes them.
"""

from dataclasses import dataclass, field

import naive
import pytest

from ccmj_cli import hand as H
from ccmj_cli import tiles as T
from ccmj_cli.errors import HandError


@dataclass(frozen=True)
class Case:
    hand: str
    win: str
    why: str
    opts: dict = field(default_factory=dict)
    legal: bool = True
    reasons: tuple = ()
    jiahu: bool | None = None
    piao: bool | None = None
    menqing: bool | None = None
    qidui: bool | None = None


# fmt: off
CHECK_CASES = [
    # ---------------------------------------------------------------- C1 三色全
    Case("123m456m789p111z2z", "2z", "C1: no 条 (s) anywhere -> missing_suit",
         legal=False, reasons=("missing_suit",)),
    Case("123m456m789p111z2z", "2z", "quemen: one missing suit is allowed",
         opts={"quemen": True}, legal=True),
    Case("123m456m789m111z2z", "2z", "quemen waives one missing suit, not two",
         opts={"quemen": True}, legal=False, reasons=("missing_suit",)),
    Case("234m567m345m2z[1m1p1s]", "2z",
         "C1/C2/C3 by 幺蛋 alone: it supplies p, s and 幺九, and counts as 刻; 下蛋 breaks 门清",
         legal=True, menqing=False),
    Case("234m567m345m2z[1m1p1s]", "2z", "下蛋算站立: special_kong_breaks_menqing false keeps 门清",
         opts={"special_kong_breaks_menqing": False}, legal=True, menqing=True),
    Case("234m567m345m3m[9m9p9s]", "3m", "九蛋 supplies p, s, 幺九 and 刻 (pair 33m, all chows)",
         legal=True),
    Case("234m456p678s3s[1234z]", "3s",
         "旋风杠 supplies 幺九 and 刻 to an all-simples, all-chow hand", legal=True),
    Case("234m456p678s3s[12341z]", "3s", "旋风杠 with a 补 tile is still a special kong",
         legal=True),
    Case("234m456p678s3s[567z]", "3s", "喜杠 supplies 幺九 and 刻", legal=True),
    # ---------------------------------------------------------------- C2 幺九
    Case("234m345p456s666s5p", "5p", "C2: all simples -> no_yaojiu",
         legal=False, reasons=("no_yaojiu",)),
    Case("78m234p345s666s55p", "6m", "断幺九 example: waiting 6m/9m, 6m brings no 幺九",
         legal=False, reasons=("no_yaojiu",)),
    Case("78m234p345s666s55p", "9m",
         "断幺九 example: 9m brings 幺九 -> legal; 9m is the only legal live wait (独听) -> 夹",
         legal=True, jiahu=True),
    Case("78m234p345s666s55p", "9m", "jiahu shape: 78+9 is 两面, not 边张 -> no 夹",
         opts={"jiahu": "shape"}, legal=True, jiahu=False),
    Case("234m567m345m666m8m", "8m", "two failures at once, in code order",
         legal=False, reasons=("missing_suit", "no_yaojiu")),
    # ---------------------------------------------------------------- C3 刻
    Case("123m456p789s1123s", "4s", "C3: all chows and a 1s pair -> no_pung",
         legal=False, reasons=("no_pung",)),
    Case("123m456p789s123s5z", "5z", "dragon pair (白) as 将 satisfies 刻", legal=True,
         jiahu=True),
    Case("123m456p789s123s5z", "5z", "dragon_pair_is_pung false: the 白 pair is no 刻",
         opts={"dragon_pair_is_pung": False}, legal=False, reasons=("no_pung",)),
    Case("123m456p789s123s1z", "1z", "a wind pair is no 刻", legal=False, reasons=("no_pung",)),
    Case("222333444m567p8s", "8s",
         "reading with fewest failures: 222/333/444 as pungs avoids no_pung, leaving no_yaojiu",
         legal=False, reasons=("no_yaojiu",)),
    Case("123m456p789s5z(1111z)", "5z", "a concealed kong is a 刻 and keeps 门清",
         legal=True, menqing=True),
    Case("123m456p789s5z[1111z]", "5z", "an open kong breaks 门清", legal=True, menqing=False),
    Case("123m456p789s5z[111z]", "5z", "a claimed pung breaks 门清", legal=True, menqing=False),
    Case("456p789s111z5z[123m]", "5z", "a claimed chow breaks 门清", legal=True, menqing=False),
    Case("123m456p789s111z5z", "5z", "no meld: 门清", legal=True, menqing=True),
    # ---------------------------------------------------------------- C4 手把一
    Case("5m[123m][456p][789s][111z]", "5m", "手把一 with chows: only 飘胡 may win",
         legal=False, reasons=("single_tile_not_piao",)),
    Case("5m[111m][444p][777s][222z]", "5m",
         "手把一 as 飘胡 wins; 飘胡 does not also score 夹 (piao_stacks_with_jia false)",
         legal=True, piao=True, jiahu=False),
    Case("5m[111m][444p][777s][222z]", "5m", "piao_stacks_with_jia: the 单调 also scores 夹",
         opts={"piao_stacks_with_jia": True}, legal=True, piao=True, jiahu=True),
    Case("5m[111m][444p][777s][567z]", "5m", "special kongs count as kongs for 飘胡/手把一",
         legal=True, piao=True),
    Case("5m[111m][444p][777s][567z]", "5m",
         "special_kong_is_pung false: the 喜杠 is not a pung, so 手把一 cannot win",
         opts={"special_kong_is_pung": False}, legal=False, reasons=("single_tile_not_piao",)),
    # ---------------------------------------------------------------- C4 with a concealed kong
    Case("7z[123m][222p](9999p)[345s]", "7z",
         "RULES C4: the concealed kong is one of four declared sets, so this chow hand is down "
         "to one tile and may only win as 飘胡", legal=False,
         reasons=("single_tile_not_piao",)),
    Case("7z[123m][222p](9999p)[345s]", "7z",
         "shoubayi_ankong_concealed (MIL 五-4): the concealed kong's tiles are concealed tiles, "
         "so the hand is not down to one tile: a legal 单吊 (中 pair, 三色, 幺九, 刻 by 222p), "
         "and the 单调 is 夹 under jiahu any; the claimed melds break 门清",
         opts={"shoubayi_ankong_concealed": True}, legal=True, jiahu=True, piao=False,
         menqing=False),
    Case("5m[123m][456p][789s][111z]", "5m",
         "shoubayi_ankong_concealed changes nothing without a concealed kong: four claimed "
         "sets + one tile, with chows -> only 飘胡", opts={"shoubayi_ankong_concealed": True},
         legal=False, reasons=("single_tile_not_piao",)),
    Case("5m[111m][444p][777s](2222z)", "5m",
         "a 飘胡 hand with a concealed kong wins under either reading of C4",
         opts={"shoubayi_ankong_concealed": True}, legal=True, piao=True),
    # ---------------------------------------------------------------- 飘胡
    Case("111m444p777s22z33z", "2z", "飘胡 on a 双碰: piao, not 夹 (two waits, no shape)",
         legal=True, piao=True, jiahu=False),
    Case("111m444p777s3z[567z]", "3z", "飘胡 with a special kong (default: counts as kong)",
         legal=True, piao=True, jiahu=False),
    Case("111m444p777s3z[567z]", "3z",
         "special_kong_is_pung false: not 飘胡; the 单调 wins as 夹",
         opts={"special_kong_is_pung": False}, legal=True, piao=False, jiahu=True),
    Case("111m444m777m222z3z", "3z", "飘胡 missing two suits -> missing_suit",
         legal=False, reasons=("missing_suit",)),
    Case("111m444m777m222z3z", "3z", "piao_exempt (大胡缺): 飘胡 is exempt from 三色",
         opts={"piao_exempt": True}, legal=True, piao=True),
    Case("222m444p666s888s3p", "3p", "piao_exempt: 飘胡 is exempt from 幺九 too",
         opts={"piao_exempt": True}, legal=True, piao=True),
    Case("123m444m777m222z3z", "3z", "piao_exempt does not help a hand that is not 飘胡",
         opts={"piao_exempt": True}, legal=False, reasons=("missing_suit",)),
    Case("111222333m999m5z", "5z",
         "piao_exempt: 111/222/333 read as pungs (not 123x3) gives the exempt 飘胡",
         opts={"piao_exempt": True}, legal=True, piao=True),
    Case("111222333m555p7s", "7s",
         "best reading: pungs (飘 2 fan) beat chows + 单调 (夹 1 fan)",
         legal=True, piao=True, jiahu=False),
    Case("111222333m555p7s", "7s",
         "fan.piao 0: the chow reading with 夹 (1 fan) now scores more than 飘 (0)",
         opts={"fan": {"piao": 0}}, legal=True, piao=False, jiahu=True),
    Case("111222333m555p7s", "7s", "piao_stacks_with_jia: 飘 and 夹 together",
         opts={"piao_stacks_with_jia": True}, legal=True, piao=True, jiahu=True),
    # ---------------------------------------------------------------- 夹胡 shapes (RULES §4)
    Case("4556m123p789s111z", "5m", "4556 winning 5 -> 夹 (坎张 456 / 单调 55)",
         legal=True, jiahu=True),
    Case("4556m123p789s111z", "5m", "4556 winning 5 -> 夹 by shape alone",
         opts={"jiahu": "shape"}, legal=True, jiahu=True),
    Case("1233m456p789s111z", "3m", "1233 winning 3 -> 夹 (single wait)", legal=True,
         jiahu=True),
    Case("1233m456p789s111z", "3m", "1233 winning 3 -> 夹 under single_wait (独听 + 单调)",
         opts={"jiahu": "single_wait"}, legal=True, jiahu=True),
    Case("2345m456p789s111z", "2m", "2345 winning 2 -> 夹 by shape (单调 22)", legal=True,
         jiahu=True),
    Case("2345m456p789s111z", "5m", "2345 winning 5 -> 夹 by shape (单调 55)", legal=True,
         jiahu=True),
    Case("2345m456p789s111z", "5m", "jiahu shape: still 夹", opts={"jiahu": "shape"},
         legal=True, jiahu=True),
    Case("2345m456p789s111z", "2m", "jiahu single_wait: two waits -> not 夹",
         opts={"jiahu": "single_wait"}, legal=True, jiahu=False),
    Case("23m456p789s111z55s", "1m", "23 winning 1 (两面) -> not 夹", legal=True, jiahu=False),
    Case("23m456p789s111z55s", "4m", "23 winning 4 (两面) -> not 夹", legal=True, jiahu=False),
    Case("12m456p789s111z55s", "3m", "边张: 12 winning 3 -> 夹", legal=True, jiahu=True),
    Case("89m456p789s111z55s", "7m", "边张: 89 winning 7 -> 夹", legal=True, jiahu=True),
    Case("89m456p789s111z55s", "7m", "边张 by shape under jiahu shape", opts={"jiahu": "shape"},
         legal=True, jiahu=True),
    Case("46m456p789s111z55s", "5m", "坎张 4-6 winning 5 -> 夹", legal=True, jiahu=True),
    Case("46m456p789s111z55s", "5m", "坎张 with a single wait -> 夹 under single_wait",
         opts={"jiahu": "single_wait"}, legal=True, jiahu=True),
    Case("3345m456p789s111z", "3m",
         "any copy of the winning tile may be the one drawn: 33+345, the 3 completes the pair",
         legal=True, jiahu=True),
    Case("3345m456p789s111z", "6m", "3345 winning 6: 33+456 -> 两面, not 夹", legal=True,
         jiahu=False),
    Case("23m789p55s[4444m][111z]", "1m",
         "23 waiting 1/4 with all four 4m in the player's own kong: 1m is the only live legal "
         "wait (独听) -> 夹 under any", legal=True, jiahu=True, menqing=False),
    Case("23m789p55s[4444m][111z]", "1m", "same under jiahu shape: 123 is no 夹 shape",
         opts={"jiahu": "shape"}, legal=True, jiahu=False),
    Case("23m789p55s[4444m][111z]", "1m", "same under single_wait: single but no shape",
         opts={"jiahu": "single_wait"}, legal=True, jiahu=False),
    # ---------------------------------------------------------------- 七对 (§9, off by default)
    Case("112233m445566p7s", "7s", "default: all chows, 77s no 刻 -> no_pung",
         legal=False, reasons=("no_pung",)),
    Case("112233m445566p7s", "7s", "qidui: 七对 beats the illegal chow reading",
         opts={"qidui": True}, legal=True, qidui=True, jiahu=False),
    Case("1122m3344p5566s7z", "7z", "no seven pairs by default -> incomplete",
         legal=False, reasons=("incomplete",)),
    Case("1122m3344p5566s7z", "7z", "qidui: 七对 wins, never 夹 (Official rules: 不计单钓)",
         opts={"qidui": True}, legal=True, qidui=True, jiahu=False, piao=False),
    Case("1122m3344p5566s7z", "7z", "qidui_jiahu: the 七对 win is a 单调, so 夹 (RULES §4 read "
         "literally)", opts={"qidui": True, "qidui_jiahu": True}, legal=True, qidui=True,
         jiahu=True),
    Case("1122m3344p5566s7z", "7z", "qidui_jiahu + jiahu: single_wait: 7z is the only wait: 夹",
         opts={"qidui": True, "qidui_jiahu": True, "jiahu": "single_wait"}, legal=True,
         qidui=True, jiahu=True),
    Case("2233m4455p6677s8s", "8s", "qidui: 七对 still needs 幺九 (C2)",
         opts={"qidui": True}, legal=False, reasons=("no_yaojiu",)),
    Case("1111m3344p5566s7z", "7z", "qidui: a quad counts as two pairs (豪华七对)",
         opts={"qidui": True}, legal=True, qidui=True),
    Case("1111m3344p5566s7z", "7z",
         "haohua wait_completes_quad: the four held before the win is still two pairs: 七对",
         opts={"qidui": True, "haohua": "wait_completes_quad"}, legal=True, qidui=True),
    # ---------------------------------------------------------------- incomplete
    Case("123m456p789s111z5z", "6z", "not four sets and a pair -> just incomplete",
         legal=False, reasons=("incomplete",)),
    Case("234m345p456s666s8s", "9s", "incomplete hides every other failure",
         legal=False, reasons=("incomplete",)),
]
# fmt: on


@pytest.mark.parametrize("case", CHECK_CASES, ids=lambda c: f"{c.hand}+{c.win}:{c.why[:40]}")
def test_check_golden(case, make_variant):
    v = make_variant(**case.opts)
    r = H.check(case.hand, case.win, v)
    assert r.legal == case.legal, case.why
    assert tuple(r.reasons) == case.reasons, case.why
    for key in ("jiahu", "piao", "menqing", "qidui"):
        want = getattr(case, key)
        if want is not None:
            assert getattr(r, key) == want, f"{key}: {case.why}"
    if not case.legal:
        assert not r.jiahu and not r.piao
    # the reference agrees with the hand-worked value too
    hand = T.parse_hand(case.hand)
    ref = naive.check(hand, T.tile_index(case.win), v.options)
    assert ref.legal == case.legal and case.reasons in ref.reasons


def rows(r) -> dict:
    return {w.tile: w for w in r.waits}


def test_duanyaojiu_waits_and_bao(make_variant):
    # RULES §3 断幺九: waiting 6m/9m with no 幺九: tenpai (9m is legal), 6m illegal (no_yaojiu),
    # and §6: it may not look at the bao.
    r = H.waits("78m234p345s666s55p")
    w = rows(r)
    assert list(w) == ["6m", "9m"]
    assert w["6m"].legal is False and w["6m"].reasons == ["no_yaojiu"]
    assert w["9m"].legal is True and w["9m"].reasons == []
    assert r.tenpai is True
    assert r.can_look_bao is False and r.bao_reason == "duanyaojiu"
    assert r.live_total == 4  # only the legal 9m counts
    # bao_forbidden_without_yaojiu false: the same hand may look at the bao
    r2 = H.waits("78m234p345s666s55p", rules=make_variant(bao_forbidden_without_yaojiu=False))
    assert r2.can_look_bao is True and r2.bao_reason is None


def test_duanyaojiu_with_yaojiu_meld_may_look():
    # the 幺九 may come from a meld: [111z] makes the same shape a normal tenpai
    r = H.waits("78m234p345s55p[111z]")
    assert r.tenpai and r.can_look_bao


def test_not_tenpai_cannot_look_at_bao():
    # 123m456p789s1123s: both waits (1s, 4s) fail 刻 -> not tenpai, bao reason not_tenpai
    r = H.waits("123m456p789s1123s")
    assert [(w.tile, w.legal, w.reasons) for w in r.waits] == [
        ("1s", False, ["no_pung"]),
        ("4s", False, ["no_pung"]),
    ]
    assert not r.tenpai and not r.can_look_bao and r.bao_reason == "not_tenpai"


def test_wait_held_four_times_by_melds_is_dead():
    # 1m234p567s999s + [111m]: the only wait 1m (单调) is legal, but all four 1m are the
    # player's own (3 in the pung, 1 concealed): reported with live 0, and the hand is not tenpai.
    r = H.waits("1m234p567s999s[111m]")
    assert [(w.tile, w.legal, w.live) for w in r.waits] == [("1m", True, 0)]
    assert r.tenpai is False and r.live_total == 0
    # check refuses a fifth 1m
    with pytest.raises(HandError):
        H.check("1m234p567s999s[111m]", "1m")


def test_wait_held_four_times_beside_a_live_wait():
    # 23m + [4444m]: 4m is a structural and legal wait with live 0; 1m is live -> tenpai,
    # and 1m is 独听 (夹 under the default `any`), 4m is not 夹.
    r = H.waits("23m789p55s[4444m][111z]")
    w = rows(r)
    assert (w["1m"].legal, w["1m"].live, w["1m"].jiahu) == (True, 4, True)
    assert (w["4m"].legal, w["4m"].live, w["4m"].jiahu) == (True, 0, False)
    assert r.tenpai and r.live_total == 4


def test_four_concealed_copies_are_a_dead_wait():
    # 1111m234p567s789s: 111m + 11m with a fifth 1m is four sets and a pair, so 1m is a
    # structural wait (RULES §4), and legal (三色, 幺九 1m/9s, 刻 111m; 单调 -> 夹), but all four
    # 1m are the player's own: reported with live 0, and the hand is not tenpai (shanten 1).
    r = H.waits("1111m234p567s789s")
    assert [(w.tile, w.legal, w.live, w.jiahu) for w in r.waits] == [("1m", True, 0, True)]
    assert not r.tenpai and not r.can_look_bao and r.live_total == 0
    assert H.shanten("1111m234p567s789s").shanten == 1


def test_visible_tiles_reduce_live_counts():
    # 23m waits 1m/4m; 1m seen twice, 4m four times -> live 2 and 0; still tenpai (1m).
    # 独听 counts copies outside the player's OWN hand and melds (RULES §4), so visible tiles
    # do not make 1m a single wait: neither wait is 夹 (两面).
    r = H.waits("23m456p789s111z55s", visible="11m4444m")
    w = rows(r)
    assert (w["1m"].live, w["4m"].live) == (2, 0)
    assert r.tenpai and r.live_total == 2
    assert not w["1m"].jiahu and not w["4m"].jiahu


def test_shoubayi_waits_only_piao():
    # 手把一: [123m][456p][789s][111z] + 5m: 5m is a structural wait but not legal
    r = H.waits("5m[123m][456p][789s][111z]")
    assert [(w.tile, w.legal, w.reasons) for w in r.waits] == [
        ("5m", False, ["single_tile_not_piao"])
    ]
    assert not r.tenpai
    r = H.waits("5m[111m][444p][777s][222z]")
    assert [(w.tile, w.legal, w.piao, w.jiahu) for w in r.waits] == [("5m", True, True, False)]


def test_2345_waits_both_jia_by_shape(make_variant):
    # RULES §4: 2345 winning 2 or 5 -> 夹 by shape though the hand has two waits
    for mode, want in (("any", True), ("shape", True), ("single_wait", False)):
        w = rows(H.waits("2345m456p789s111z", rules=make_variant(jiahu=mode)))
        assert list(w) == ["2m", "5m"]
        assert w["2m"].jiahu is want and w["5m"].jiahu is want, mode


def test_1233_single_wait(make_variant):
    # 1233 waits only on 3 (123+33): single wait -> 夹 in every mode
    for mode in ("any", "shape", "single_wait"):
        w = rows(H.waits("1233m456p789s111z", rules=make_variant(jiahu=mode)))
        assert list(w) == ["3m"] and w["3m"].jiahu, mode


def test_liangmian_never_jia(make_variant):
    # 23 waiting 1/4: 两面, two live waits -> never 夹
    for mode in ("any", "shape", "single_wait"):
        w = rows(H.waits("23m456p789s111z55s", rules=make_variant(jiahu=mode)))
        assert list(w) == ["1m", "4m"]
        assert not w["1m"].jiahu and not w["4m"].jiahu, mode


def test_single_wait_without_shape_depends_on_mode(make_variant):
    # 23m with [4444m]: 1m is 独听 but 123 has no 夹 shape:
    # any -> 夹 (rule a), shape -> not, single_wait -> not (it needs shape and single wait)
    for mode, want in (("any", True), ("shape", False), ("single_wait", False)):
        w = rows(H.waits("23m789p55s[4444m][111z]", rules=make_variant(jiahu=mode)))
        assert w["1m"].jiahu is want, mode


def test_qidui_wait_only_with_option(make_variant):
    # 1122m3344p5566s7z: the 七对 wait 7z exists only with qidui: true
    assert H.waits("1122m3344p5566s7z").waits == []
    r = H.waits("1122m3344p5566s7z", rules=make_variant(qidui=True))
    assert [(w.tile, w.legal, w.jiahu) for w in r.waits] == [("7z", True, False)]
    assert r.tenpai


def test_sanfeng_dan_parses_three_winds(make_variant):
    # 三风蛋: [123z] is a 旋风杠 only with sanfeng_dan; otherwise an invalid meld (exit 2)
    with pytest.raises(HandError):
        H.waits("234m456p678s3s[123z]")
    v = make_variant(sanfeng_dan=True)
    r = H.check("234m456p678s3s[123z]", "3s", v)
    assert r.legal  # the 旋风杠 is 刻 and 幺九
    assert T.parse_hand("[123z]", sanfeng=True).melds[0].bu == 0
    assert T.parse_hand("[1231z]", sanfeng=True).melds[0].bu == 1  # one 补 wind
    assert T.parse_hand("[12341z]").melds[0].bu == 1


def test_xiaoji_feidan_parses_1s_substitute(make_variant):
    # 小鸡飞蛋: 1s stands in for the missing 中 of a 喜杠 [56z1s]
    with pytest.raises(HandError):
        H.waits("234m456p678s3s[56z1s]")
    r = H.check("234m456p678s3s[56z1s]", "3s", make_variant(xiaoji_feidan=True))
    assert r.legal and not r.menqing


def test_reading_reported():
    # check reports the decomposition used: pair first, then concealed sets
    r = H.check("4556m123p789s111z", "5m")
    assert r.reading == ["55m", "456m", "123p", "789s", "111z"]
    assert H.check("123m456p789s111z5z", "6z").reading == []
