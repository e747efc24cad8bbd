"""Hand-worked scoring, bao and batch cases for the holes a mutation run found (no Hypothesis).

Every expected value is worked by hand from the rules (RULES.md §3, §5, §6), the working in a
comment; each case checks ccmj (API, CLI or batch) AND the slow reference (naive_scoring.py), so
the reference itself is pinned to hand-worked answers. Payment: each paying loser pays
base x 2^(fan-1); fan = 平胡 1 + 门清 1 + 夹胡 1 + 飘胡 2 + 自摸 1 + 宝 1 + 庄 1 (the winner or this
loser deals; the dealer sits E) + 点炮 1 (this loser discarded).
"""

import csv
import io
import json

import pytest
from scoring_support import assert_bao, assert_score, reference_bao, reference_score
from strategies import variant_with
from typer.testing import CliRunner

from ccmj_cli import bao as B
from ccmj_cli import batch as BT
from ccmj_cli import hand as H
from ccmj_cli import scoring as S
from ccmj_cli.cli import app
from ccmj_cli.rules import load_variant

runner = CliRunner()
SEATS = "ESWN"
# 门清, 坎张 5s and 独听: 123m 456p 4556s 111z
JIA_HAND = "123m456p46s55s111z"


def pays(d) -> list[int]:
    return [d[s] for s in SEATS]


def both(hand, rules=None, **kw):
    """ccmj's answer, checked field by field against the reference's; returns ccmj's."""
    v = rules if rules is not None else load_variant()
    r = S.score(hand, rules=v, **kw)
    assert_score(r, reference_score(hand, rules=v, **kw), base=kw.get("base", 1),
                 fan_cap=v.cap_fan)  # fmt: skip
    return r


# --- C2 幺九 brought by honors alone (RULES §1: "in Changchun honors count as 幺九") ------------

# 234m 456p 678s 222z + 3s: no 1 or 9 anywhere; the only 幺九 is the concealed 南 pung.
HONOR_PUNG = "234m456p678s222z3s"
# 234m 456p 678s 345s + 7z: the 中 pair is both the only 幺九 and the 刻 (a dragon 将).
DRAGON_PAIR = "234m456p678s345s7z"
# the 幺九 in an exposed pung of 南 instead (a declared meld's tiles count too)
HONOR_MELD = "234m456p678s3s[222z]"


@pytest.mark.parametrize("hand, win", [(HONOR_PUNG, "3s"), (DRAGON_PAIR, "7z"), (HONOR_MELD, "3s")])
def test_honor_only_yaojiu_is_a_legal_win(hand, win):
    # C1: m, p, s all present; C2: the honor; C3: 222z / the 中 pair; the only wait is the 单调
    r = H.check(hand, win)
    assert r.legal and r.reasons == [] and r.jiahu
    w = H.waits(hand)
    assert [(x.tile, x.legal) for x in w.waits] == [(win, True)] and w.can_look_bao


@pytest.mark.parametrize("hand, win", [(HONOR_PUNG, "3s"), (DRAGON_PAIR, "7z")])
def test_honor_only_yaojiu_scores(hand, win):
    # S self-draws: 平胡 1 + 门清 1 + 夹胡 (单调, 独听) 1 + 自摸 1 = 4 -> W, N pay 8, E (庄) 16
    r = both(hand, win=win, how="self")
    assert pays(r.payments) == [-16, 32, -8, -8]
    # on W's discard: 3 fan; E 3 + 庄 = 4 -> 8; W 3 + 点炮 = 4 -> 8; N 3 -> 4
    r = both(hand, win=win, how="discard", discarder="W")
    assert pays(r.payments) == [-8, 20, -8, -4]


def test_honor_in_a_meld_is_yaojiu():
    # not 门清 (a claimed pung): 平胡 1 + 夹胡 1 + 自摸 1 = 3 -> 4 each, E 8: S +16
    r = both(HONOR_MELD, win="3s", how="self")
    assert r.legal and pays(r.payments) == [-8, 16, -4, -4]


def test_honor_only_yaojiu_cli_and_batch():
    res = runner.invoke(app, ["check", HONOR_PUNG, "3s", "--json"])
    assert res.exit_code == 0 and json.loads(res.stdout)["legal"] is True
    res = runner.invoke(app, ["score", HONOR_PUNG, "--win", "3s", "--check", "--json"])
    assert res.exit_code == 0 and pays(json.loads(res.stdout)["payments"]) == [-16, 32, -8, -8]
    text = f"hand,win\n{HONOR_PUNG},3s\n{DRAGON_PAIR},7z\n"
    out = io.StringIO()
    assert BT.run(io.StringIO(text), out).failed == 0
    for row in csv.DictReader(io.StringIO(out.getvalue())):
        assert row["legal"] == "true" and [row[f"pay_{s}"] for s in SEATS] == [
            "-16", "32", "-8", "-8"
        ]  # fmt: skip


def test_no_honor_and_no_terminal_is_no_yaojiu():
    # the same shape with the honors replaced by 2s: 断幺九, not legal (C2)
    r = both("234m456p678s222s3s", win="3s", how="self")
    assert not r.legal and r.reasons == ["no_yaojiu"]


# --- 点炮 modes with the dealer winning, discarding, or neither ------------------------------
# JIA_HAND won on a discard: 平胡 1 + 门清 1 + 夹胡 1 = 3 common fan.

CASES = {
    # S wins on W's discard (the dealer neither wins nor discards):
    #   E 3 + 庄 1 = 4 -> 8; W 3 + 点炮 1 = 4 -> 8; N 3 -> 4
    ("S", "W"): {
        "fan": [4, 0, 4, 3],
        "all_pay": [-8, 20, -8, -4],
        "discarder_only": [0, 8, -8, 0],  # W pays his own share only
        "discarder_covers_all": [0, 20, -20, 0],  # W pays 8 + 8 + 4
    },
    # the dealer E wins on W's discard: every loser +1 庄; W +1 点炮:
    #   S 4 -> 8; W 5 -> 16; N 4 -> 8
    ("E", "W"): {
        "fan": [0, 4, 5, 4],
        "all_pay": [32, -8, -16, -8],
        "discarder_only": [16, 0, -16, 0],
        "discarder_covers_all": [32, 0, -32, 0],
    },
    # S wins on the dealer E's discard: E 3 + 庄 1 + 点炮 1 = 5 -> 16; W 3 -> 4; N 3 -> 4
    ("S", "E"): {
        "fan": [5, 0, 3, 3],
        "all_pay": [-16, 24, -4, -4],
        "discarder_only": [-16, 16, 0, 0],
        "discarder_covers_all": [-24, 24, 0, 0],
    },
}


@pytest.mark.parametrize("mode", ["all_pay", "discarder_only", "discarder_covers_all"])
@pytest.mark.parametrize("seat, frm", list(CASES))
def test_dianpao_modes_with_the_dealer(mode, seat, frm):
    v = variant_with(dianpao=mode)
    r = both(JIA_HAND, win="5s", how="discard", seat=seat, discarder=frm, rules=v)
    assert pays(r.payments) == CASES[seat, frm][mode]
    fan = CASES[seat, frm]["fan"]
    if mode == "discarder_only":  # the other two pay nothing: their fan is reported as 0
        fan = [f if s == SEATS.index(frm) else 0 for s, f in enumerate(fan)]
    assert pays(r.fan_by_seat) == fan
    # the 点炮 item is charged to the discarder alone; 庄 to the dealer, or to all if he won
    items = {i.name: i.seats for i in r.fan_items}
    assert items["dianpao"] == [frm]
    if seat == "E":
        assert items["dealer"] == ([frm] if mode == "discarder_only" else ["S", "W", "N"])
    elif mode != "discarder_only" or frm == "E":
        assert items["dealer"] == ["E"]
    else:
        assert "dealer" not in items  # the dealer pays nothing here


def test_covers_all_never_covers_kong_money():
    # as ("S", "W") above, plus E's open kong (1 from each other seat): the hand is covered,
    # the kong is not: E +3 -0, S +20 -1, W -20 -1, N -1
    v = variant_with(dianpao="discarder_covers_all")
    r = both(JIA_HAND, win="5s", how="discard", discarder="W", kongs="E:[5555m]", rules=v)
    assert pays(r.total) == [3, 19, -21, -1]


def test_self_draw_is_never_covered():
    # 点炮全包 is about discards: a self-draw still has all three pay (8, 8, E 16)
    v = variant_with(dianpao="discarder_covers_all")
    r = both(JIA_HAND, win="5s", how="self", rules=v)
    assert pays(r.payments) == [-16, 32, -8, -8]


def test_cap_with_the_dealer_winning_on_a_discard():
    # 111m 999p 11s 55s 777z, dealer E wins on W's 5s: 平胡 1 + 门清 1 + 飘胡 2 = 4 (飘胡 does not
    # also score 夹胡); S 5, W 6, N 5 -> 16 + 32 + 16 = 64. cap_fan 5: W pays at 5 -> 48.
    r = both("111m999p11s55s777z", win="5s", how="discard", seat="E", discarder="W")
    assert pays(r.payments) == [64, -16, -32, -16]
    v = variant_with(cap_fan=5)
    r = both("111m999p11s55s777z", win="5s", how="discard", seat="E", discarder="W", rules=v)
    assert pays(r.payments) == [48, -16, -16, -16] and pays(r.fan_by_seat) == [0, 5, 5, 5]


# --- the discarder's declaration under cover_only_undeclared --------------------------------
# S wins JIA_HAND on W's discard (the ("S", "W") case): covered, W pays 20; declared, each pays
# his own share: E 8, W 8, N 4.
COVERED = [0, 20, -20, 0]
OWN_SHARES = [-8, 20, -8, -4]


def cover_variant(only_undeclared: bool):
    return variant_with(dianpao="discarder_covers_all", cover_only_undeclared=only_undeclared)


@pytest.mark.parametrize("declared", [False, True])
@pytest.mark.parametrize("only_undeclared", [False, True])
def test_api_declared(declared, only_undeclared):
    v = cover_variant(only_undeclared)
    r = both(JIA_HAND, win="5s", how="discard", discarder="W", declared=declared, rules=v)
    assert pays(r.payments) == (OWN_SHARES if declared and only_undeclared else COVERED)


def _yaml(tmp_path, only_undeclared: bool) -> str:
    p = tmp_path / f"cover{int(only_undeclared)}.yaml"
    p.write_text(
        "dianpao: discarder_covers_all\n"
        f"cover_only_undeclared: {'true' if only_undeclared else 'false'}\n",
        encoding="utf-8",
    )
    return str(p)


def test_cli_score_declared(tmp_path):
    args = ["score", JIA_HAND, "--win", "5s", "--by", "discard", "--from", "W", "--json"]
    strict = _yaml(tmp_path, True)
    got = {}
    for extra in ([], ["--declared"]):
        res = runner.invoke(app, [*args, *extra, "--rules", strict])
        assert res.exit_code == 0, res.output
        got[bool(extra)] = pays(json.loads(res.stdout)["payments"])
    assert got == {False: COVERED, True: OWN_SHARES}
    # the table says who covers whom only when he does
    res = runner.invoke(app, [*args[:-1], "--declared", "--rules", _yaml(tmp_path, False)])
    assert res.exit_code == 0 and "-20" in res.stdout


# every spelling of the declared column, and its default (empty)
DECLARED_CELLS = [("1", True), ("true", True), ("yes", True), ("Y", True), ("TRUE", True),
                  ("0", False), ("false", False), ("no", False), ("", False)]  # fmt: skip


def _declared_csv():
    rows = [f"{i},{JIA_HAND},5s,discard,S,W,{cell}" for i, (cell, _) in enumerate(DECLARED_CELLS)]
    return "id,hand,win,how,seat,from,declared\n" + "\n".join(rows) + "\n"


@pytest.mark.parametrize("only_undeclared", [False, True])
@pytest.mark.parametrize("as_json", [False, True])
def test_batch_declared_column_api(as_json, only_undeclared):
    v = cover_variant(only_undeclared)
    out = io.StringIO()
    assert BT.run(io.StringIO(_declared_csv()), out, as_json=as_json, rules=v).failed == 0
    if as_json:
        got = [pays(json.loads(x)["payments"]) for x in out.getvalue().splitlines()]
    else:
        got = [[int(r[f"pay_{s}"]) for s in SEATS] for r in csv.DictReader(io.StringIO(
            out.getvalue()))]  # fmt: skip
    want = [OWN_SHARES if d and only_undeclared else COVERED for _, d in DECLARED_CELLS]
    assert got == want


@pytest.mark.parametrize("as_json", [False, True])
def test_batch_declared_column_cli(tmp_path, as_json):
    args = ["batch", "-", "--rules", _yaml(tmp_path, True)] + (["--json"] if as_json else [])
    res = runner.invoke(app, args, input=_declared_csv())
    assert res.exit_code == 0, res.output
    if as_json:
        lines = [json.loads(x) for x in res.stdout.splitlines()]
        got = [pays(d["payments"]) for d in lines]
        assert [d["input"]["declared"] for d in lines] == [c for c, _ in DECLARED_CELLS]
    else:
        got = [[int(r[f"pay_{s}"]) for s in SEATS] for r in csv.DictReader(io.StringIO(
            res.stdout))]  # fmt: skip
    assert got == [OWN_SHARES if d else COVERED for _, d in DECLARED_CELLS]


def test_batch_declared_matters_only_on_discards():
    # a declared self-draw row: nothing is covered anyway (8, 8, E 16)
    text = f"hand,win,how,seat,declared\n{JIA_HAND},5s,self,S,1\n"
    out = io.StringIO()
    BT.run(io.StringIO(text), out, rules=cover_variant(True))
    row = next(csv.DictReader(io.StringIO(out.getvalue())))
    assert [row[f"pay_{s}"] for s in SEATS] == ["-16", "32", "-8", "-8"]


def test_batch_bad_declared_cell_is_a_row_error():
    text = f"hand,win,how,seat,from,declared\n{JIA_HAND},5s,discard,S,W,maybe\n"
    out = io.StringIO()
    assert BT.run(io.StringIO(text), out).failed == 1
    assert "declared" in next(csv.DictReader(io.StringIO(out.getvalue())))["error"]


# --- bao_dice: how the bao stack is counted, nothing else --------------------------------------


def test_bao_dice_one_changes_no_score_or_bao_answer():
    # RULES §6: the dice only find the bao's stack; a look, a 对宝 or a 摸宝 scores the same
    one, two = variant_with(bao_dice=1), load_variant()
    assert one.bao_dice == 1 and two.bao_dice == 2
    for kw in (
        dict(how="mobao", bao="9p", seat="S"),  # seed 001: -32 / +64 / -16 / -16
        dict(how="mobao", bao="9p", seat="E"),
        dict(win="5s", how="discard", discarder="E"),
        dict(how="duibao", bao="5s", seat="W"),
    ):
        assert both(JIA_HAND, rules=one, **kw) == S.score(JIA_HAND, rules=two, **kw)
    r = B.bao("111m999p777z2223s", "5p", visible="55p", rules=one)
    assert_bao(r, reference_bao("111m999p777z2223s", "5p", visible="55p", rules=one))
    assert r == B.bao("111m999p777z2223s", "5p", visible="55p", rules=two)
    assert pays(r.score.payments) == [-64, 128, -32, -32]  # README's 摸宝 example (3s, 飘胡)


def test_bao_dice_one_in_a_variant_file(tmp_path):
    p = tmp_path / "one_die.yaml"
    p.write_text("extends: default\nbao_dice: 1\n", encoding="utf-8")
    res = runner.invoke(app, ["rules", "--rules", str(p), "--json"])
    assert res.exit_code == 0 and json.loads(res.stdout)["options"]["bao_dice"] == 1
    res = runner.invoke(app, ["score", JIA_HAND, "--by", "mobao", "--bao", "9p", "--json",
                              "--rules", str(p)])  # fmt: skip
    assert res.exit_code == 0 and pays(json.loads(res.stdout)["payments"]) == [-32, 64, -16, -16]


# --- 换宝: the player's own exposed melds are public, special kongs included ------------------

# 234m 567p 789s 5z + a 幺蛋 [1m1p1s] (下蛋): the 幺蛋 brings 三色, 幺九 and 刻, so the 单调 5z is
# a legal wait (独听). The bao is 1p: one copy is in the 幺蛋 (exposed: public), the bao tile
# itself lies in the wall.
YAODAN_HAND = "234m567p789s5z[1m1p1s]"


def test_a_special_kong_is_public_for_huanbao():
    # two 1p discarded + the 幺蛋's 1p = three other copies public -> 换宝 (no score); none left
    r = B.bao(YAODAN_HAND, "1p", visible="1p1p")
    assert (r.public, r.must_change, r.outcome, r.live) == (3, True, "change", 0)
    assert_bao(r, reference_bao(YAODAN_HAND, "1p", visible="1p1p", rules=load_variant()))
    # one 1p discarded: 2 public, the bao stays; drawing the last 1p is a 摸宝 on 5z:
    # 平胡 1 + 夹胡 (单调) 1 + 自摸 1 + 宝 1 = 4 (no 门清: the 幺蛋 breaks it) -> 8, 8, E 16
    r = B.bao(YAODAN_HAND, "1p", visible="1p")
    assert (r.public, r.must_change, r.outcome, r.live) == (2, False, "mobao_possible", 1)
    assert r.stands_for == "5z" and pays(r.score.payments) == [-16, 32, -8, -8]
    assert_bao(r, reference_bao(YAODAN_HAND, "1p", visible="1p", rules=load_variant()))


# --- the seed examples, for the reference too ------------------------------------------------


@pytest.mark.parametrize(
    "hand, kw, expected",
    [
        # seed 001: 闲家 门清+夹+自摸+宝 -> 16 / 16, the dealer 32
        (JIA_HAND, dict(how="mobao", bao="9p", seat="S"), [-32, 64, -16, -16]),
        # seed 001: 庄家 门清+夹+自摸+宝 -> 32 each
        (JIA_HAND, dict(how="mobao", bao="9p", seat="E"), [96, -32, -32, -32]),
        # seed 001: 闲家 门清+飘+自摸+宝 -> 32 / 32, the dealer 64
        ("111m999p11s55s777z", dict(how="duibao", bao="5s", seat="S"), [-64, 128, -32, -32]),
        # seed 001 / 000: 庄家 门清+飘+自摸+宝 -> 64 each, 192
        ("111m999p11s55s777z", dict(how="duibao", bao="5s", seat="E"), [192, -64, -64, -64]),
    ],
)
def test_seed_examples(hand, kw, expected):
    assert pays(both(hand, **kw).payments) == expected


def test_mobao_stands_for_the_best_wait():
    # 111m 999p 777z 2223s: 1s/4s are 两面 (no 夹, 4 fan + 庄 for E); 3s makes 222s + 33s, a
    # 飘胡: 平胡 1 + 门清 1 + 飘 2 + 自摸 1 + 宝 1 = 6; E 7 -> 64, W and N 32: S +128
    r = both("111m999p777z2223s", how="mobao", bao="5p")
    assert r.stands_for == "3s" and pays(r.payments) == [-64, 128, -32, -32]


@pytest.mark.parametrize(
    "kongs, each",
    [
        ("E:[5555m]", 1),  # 明杠
        ("E:(5555m)", 2),  # 暗杠
        ("E:[1111p]", 2),  # 大蛋 (幺饼) open
        ("E:(6666z)", 4),  # 大蛋 (发) concealed
        ("E:[12342z]", 2),  # 旋风杠 + 1 补 (南)
        ("E:[567z56z]", 3),  # 喜杠 + 2 补
        ("E:[1m1p1s]", 1),  # 幺蛋
    ],
)
def test_kong_money_for_the_reference(kongs, each):
    # E's kong: each other seat pays ``each`` to E, on top of S's self-drawn JIA_HAND
    r = both(JIA_HAND, win="5s", kongs=kongs)
    assert pays(r.kong_payments) == [3 * each, -each, -each, -each]
