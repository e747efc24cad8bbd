"""Hand-worked scoring, bao and batch cases for the holes a mutation run found (no Hypothesis).

Every expected value is worked by hand from the rules (RULES.md §3-§7, §9, §10), the working in a
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


# --- the room and MIL 2024 options, for the reference too ------------------------------------
# Each case is worked from the option's rule text (rules.yaml, RULES.md §5-§7, seed 000, MIL
# 2024) and checked against ccmj AND the reference.

# seed 000's 1-3-5 room: the amounts for 1, 2, 3 ... 7 fan, in place of 2^(fan-1)
LADDER = [1, 3, 5, 10, 20, 40, 80]


@pytest.mark.parametrize(
    "mode, want",
    [
        # S wins JIA_HAND on W's discard: E 3 + 庄 1 = 4 fan -> LADDER[3] = 10; W 3 + 点炮 1 = 4
        # -> 10; N 3 -> LADDER[2] = 5: S +25 (2^(fan-1) would give 8, 8, 4)
        ("all_pay", [-10, 25, -10, -5]),
        ("discarder_only", [0, 10, -10, 0]),  # W pays his own share only
        ("discarder_covers_all", [0, 25, -25, 0]),  # W pays all three: 10 + 10 + 5
    ],
)
def test_stake_ladder(mode, want):
    v = variant_with(stakes=LADDER, dianpao=mode)
    r = both(JIA_HAND, win="5s", how="discard", discarder="W", rules=v)
    assert pays(r.payments) == want and pays(r.fan_by_seat)[1] == 0
    # self-drawn: 3 + 自摸 1 = 4 common fan; E 5 -> 20, W and N 4 -> 10 each: S +40
    r = both(JIA_HAND, win="5s", how="self", rules=v)
    assert pays(r.payments) == [-20, 40, -10, -10]


@pytest.mark.parametrize(
    "stacks, frm, want",
    [
        # S wins JIA_HAND (3 common fan) on the dealer E's discard. Stacking (the default): E 3 +
        # 庄 1 + 点炮 1 = 5 -> 16, W and N 3 -> 4: S +24
        (True, "E", [-16, 24, -4, -4]),
        # seed 000 "如果平家点炮再翻一倍，庄家不变": the discarding dealer pays 庄 only: E 4 -> 8
        (False, "E", [-8, 16, -4, -4]),
        # a non-dealer discarder W pays 点炮 either way: E 4 -> 8, W 4 -> 8, N 3 -> 4
        (True, "W", [-8, 20, -8, -4]),
        (False, "W", [-8, 20, -8, -4]),
    ],
)
def test_dealer_dianpao_stacks(stacks, frm, want):
    v = variant_with(dealer_dianpao_stacks=stacks)
    r = both(JIA_HAND, win="5s", how="discard", discarder=frm, rules=v)
    assert pays(r.payments) == want


@pytest.mark.parametrize(
    "needs_look, declared, looked, want",
    [
        # S wins JIA_HAND on W's discard under 点炮全包 + cover_only_undeclared (see above):
        # an undeclared W covers everyone; a declared one pays his own share ...
        (False, False, False, COVERED),
        (False, True, False, OWN_SHARES),
        (False, True, True, OWN_SHARES),
        # ... unless cover_needs_look (MIL 九: 包庄 when he had not declared OR not looked at
        # the bao): declared but not looked still covers; looked (which implies declared) not
        (True, False, False, COVERED),
        (True, True, False, COVERED),
        (True, True, True, OWN_SHARES),
        (True, False, True, OWN_SHARES),
    ],
)
def test_cover_needs_look(needs_look, declared, looked, want):
    v = variant_with(dianpao="discarder_covers_all", cover_only_undeclared=True,
                     cover_needs_look=needs_look)  # fmt: skip
    kw = dict(win="5s", how="discard", discarder="W", declared=declared, looked=looked)
    assert pays(both(JIA_HAND, rules=v, **kw).payments) == want


# 七对 won by S's self-draw: 平胡 1 + 门清 1 + 七对 2 + 自摸 1 = 5 (qidui_jiahu off: no 夹胡);
# 豪华七对 +1 = 6. Non-dealer S: E pays at fan + 1 (庄).
QIDUI_PAYS = {5: [-32, 64, -16, -16], 6: [-64, 128, -32, -32]}


@pytest.mark.parametrize(
    "haohua, hand, win, fan",
    [
        # 1111m held before the win (pairs 11m 11m 33p 44p 55s 66s 77z): 豪华 under any_quad
        # only; wait_completes_quad (MIL 九: the win must make the four) reads plain 七对
        ("any_quad", "1111m3344p5566s7z", "7z", 6),
        ("wait_completes_quad", "1111m3344p5566s7z", "7z", 5),
        # 111m + the winning 1m makes the four: 豪华 under both
        ("any_quad", "111m3344p5566s77z", "1m", 6),
        ("wait_completes_quad", "111m3344p5566s77z", "1m", 6),
    ],
)
def test_haohua_rule(haohua, hand, win, fan):
    v = variant_with(qidui=True, haohua=haohua)
    r = both(hand, win=win, rules=v)
    names = {i.name for i in r.fan_items}
    assert r.legal and "qidui" in names and ("haohua" in names) == (fan == 6)
    assert pays(r.payments) == QIDUI_PAYS[fan]


# 78m 234p 345s 666s 55p: no 幺九 (断幺九), tenpai on 6m/9m; only 9m makes a legal win (C2).
DUANYAOJIU = "78m234p345s666s55p"


@pytest.mark.parametrize("may_declare", [True, False])
def test_duanyaojiu_may_declare(may_declare):
    # with bao_forbidden_without_yaojiu off, a 断幺九 hand looks at the bao iff it may declare
    # (MIL 七-1: it "may not declare at all"). Bao 1z (no wait, none public): a 摸宝 stands
    # for 9m, the only LEGAL wait (6m brings no 幺九), so the hand is 独听 and scores 夹胡
    # (RULES §4 (a)): 平胡 1 + 门清 1 + 夹胡 1 + 自摸 1 + 宝 1 = 5; E 6 -> 32, W and N 16: S +64
    v = variant_with(bao_forbidden_without_yaojiu=False, duanyaojiu_may_declare=may_declare)
    r = B.bao(DUANYAOJIU, "1z", rules=v)
    assert_bao(r, reference_bao(DUANYAOJIU, "1z", rules=v))
    s = both(DUANYAOJIU, how="mobao", bao="1z", rules=v)
    if may_declare:
        assert r.can_look and r.outcome == "mobao_possible" and r.stands_for == "9m"
        assert s.legal and pays(s.payments) == [-32, 64, -16, -16]
    else:
        assert not r.can_look and r.reason == "duanyaojiu"
        assert not s.legal and s.reasons == ["duanyaojiu"]
    # undeclared it still wins on a discarded 9m either way: 平胡 1 + 门清 1 + 夹胡 (独听) 1 =
    # 3 fan; E 4 -> 8, W (点炮) 4 -> 8, N 3 -> 4: S +20
    r = both(DUANYAOJIU, win="9m", how="discard", discarder="W", rules=v)
    assert pays(r.payments) == [-8, 20, -8, -4]


@pytest.mark.parametrize(
    "sanfeng, kongs, each",
    [
        # 三风蛋: a 旋风杠 is three different winds; a fourth wind is a 补 tile: special 1 + 补 1
        (True, "E:[1234z]", 2),
        (True, "E:[1231z]", 2),  # the same count with the 补 a repeated wind
        (True, "E:[123z]", 1),  # three winds alone
        # without 三风蛋 the 旋风杠 is the four winds, no 补: 1
        (False, "E:[1234z]", 1),
        (False, "E:[12341z]", 2),
    ],
)
def test_four_wind_kong_bu_count(sanfeng, kongs, each):
    # S self-draws JIA_HAND with 中 for 东 (the kongs hold up to two 东); E's kong: each other
    # seat pays ``each`` to E
    v = variant_with(sanfeng_dan=sanfeng)
    r = both("123m456p46s55s777z", win="5s", kongs=kongs, rules=v)
    assert pays(r.kong_payments) == [3 * each, -each, -each, -each]


# 23m 456p 789s 111z 55s waits 1m/4m (两面, no 夹); bao 1m with the other three 1m public
CHANGE_HAND = "23m456p789s111z55s"


@pytest.mark.parametrize("change", ["always", "optional"])
def test_bao_change(change):
    # always (the default): three other copies public -> the bao must be changed: no score.
    # optional (MIL 三-25): the player may keep it, and it is a 对宝: 平胡 1 + 门清 1 + 自摸 1 +
    # 宝 1 = 4; E 5 -> 16, W and N 8: S +32
    v = variant_with(bao_change=change)
    r = B.bao(CHANGE_HAND, "1m", visible="111m", rules=v)
    assert_bao(r, reference_bao(CHANGE_HAND, "1m", visible="111m", rules=v))
    assert r.public == 3 and r.may_change
    if change == "always":
        assert r.must_change and r.outcome == "change" and r.score is None
    else:
        assert not r.must_change and r.outcome == "duibao"
        assert pays(r.score.payments) == [-16, 32, -8, -8]
