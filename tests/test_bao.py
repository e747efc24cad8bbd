"""Bao (RULES.md §6): may the hand look, 对宝, the wait a 摸宝 stands for, live copies, 换宝.

Expected values are worked by hand; payments as in test_scoring (base x 2^(fan-1)).
"""

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from ccmj_cli import bao as B
from ccmj_cli import scoring as S
from ccmj_cli import tiles as T
from ccmj_cli._kernels import bao as K
from ccmj_cli._kernels import layout as L
from ccmj_cli._kernels.tables import tables
from ccmj_cli.cli import app
from ccmj_cli.errors import HandError
from ccmj_cli.rules import load_variant

runner = CliRunner()
JIA_HAND = "123m456p46s55s111z"  # 门清, 独听 5s (坎张)


def test_duibao_when_the_bao_is_a_legal_wait():
    r = B.bao(JIA_HAND, "5s")
    assert r.can_look and r.outcome == "duibao" and r.stands_for == "5s"
    # 对宝 = 自摸 + 宝: 1 + 门清 + 夹 + 自摸 + 宝 = 5 -> 16 each, dealer 32
    assert r.score.total == {"E": -32, "S": 64, "W": -16, "N": -16}
    assert r.live == 1  # 4 - two 5s in hand - the bao itself


def test_mobao_possible_scores_the_best_wait():
    r = B.bao(JIA_HAND, "9p")
    assert r.outcome == "mobao_possible" and r.stands_for == "5s"
    assert r.score.how == "mobao" and r.score.total["S"] == 64
    assert r.live == 3 and not r.must_change


def test_mobao_prefers_piao_over_jia():
    # 111m 999p 777z 2223s: 1s and 4s are 两面 (123s/234s + 22s, no 夹, not 飘);
    # 3s makes 222s + 33s, a 飘胡 (2 fan) -> the bao stands for 3s, not the lowest wait
    r = B.bao("111m999p777z2223s", "5p")
    assert r.stands_for == "3s"
    assert "piao" in {i.name for i in r.score.fan_items}


def test_mobao_tie_goes_to_the_lowest_tile():
    # 23s + 55p: 1s and 4s are 两面 (not 夹), equal value -> the lowest tile
    r = B.bao("123m456p111z23s55p", "9m")
    assert r.stands_for == "1s"
    assert "jiahu" not in {i.name for i in r.score.fan_items}


def test_cannot_look_not_tenpai():
    r = B.bao("123m456p789s1123s", "5s")  # waits 1s/4s, neither legal (no pung)
    assert not r.can_look and r.reason == "not_tenpai" and r.outcome == "cannot_look"
    assert r.score is None and r.stands_for is None


def test_cannot_look_duanyaojiu_and_option(tmp_path):
    hand = "22m78m456p345s555s"  # 断幺九, legal wait 9m only
    r = B.bao(hand, "9m")
    assert r.outcome == "cannot_look" and r.reason == "duanyaojiu"
    p = tmp_path / "v.yaml"
    p.write_text("bao_forbidden_without_yaojiu: false\n", encoding="utf-8")
    r = B.bao(hand, "9m", rules=str(p))
    assert r.outcome == "duibao" and r.score.legal
    r = B.bao(hand, "6m", rules=str(p))  # 6m is a wait but not legal: no 对宝; 摸宝 stands for 9m
    assert r.outcome == "mobao_possible" and r.stands_for == "9m"


def test_must_change_when_three_other_copies_are_public():
    assert not B.bao(JIA_HAND, "9p", visible="99p").must_change
    r = B.bao(JIA_HAND, "9p", visible="999p")
    assert r.must_change and r.public == 3 and r.live == 0
    # RULES §6: the bao is re-rolled when the player looks, so it gives neither 对宝 nor 摸宝 —
    # even when it is the hand's legal wait (5s here: 3 public, the 4th is the bao)
    hand = "123m456p46s88s111z"  # 门清, 独听 5s (坎张)
    r = B.bao(hand, "5s", visible="555s")
    assert r.must_change and r.outcome == "change" and r.score is None and r.stands_for is None
    assert B.bao(hand, "5s", visible="55s").outcome == "duibao"


def test_own_exposed_melds_are_public_but_concealed_kongs_are_not():
    # an exposed pung of 9p in the hand: 3 public copies -> change
    r = B.bao("123m46s55s111z[999p]", "9p")
    assert r.public == 3 and r.must_change
    r = B.bao("123m46s55s111z(9999p)", "1p")
    assert r.public == 0


def test_bad_bao_inputs():
    assert B.bao(JIA_HAND, "1z").live == 0  # three 1z held + the bao tile itself: allowed
    with pytest.raises(HandError):  # ... but not one more visible
        B.bao(JIA_HAND, "1z", visible="1z")
    with pytest.raises(HandError):
        B.bao(JIA_HAND + "5s", "9p")  # 14 tiles


def test_kernels_directly():
    v = load_variant()
    h = T.parse_hand(JIA_HAND)
    c, ms, own, tb = h.concealed.copy(), h.meld_summary(), h.own_counts(), tables()
    assert K.look_block(c, ms, own, v.vector, tb) == K.LOOK_OK
    assert K.is_duibao(c, T.tile_index("5s"), ms, own, v.vector, tb)
    assert not K.is_duibao(c, T.tile_index("6s"), ms, own, v.vector, tb)
    rd = np.zeros(L.RD_LEN, np.int64)
    assert K.bao_stands_for(c, ms, own, v.vector, tb, rd) == T.tile_index("5s")
    public = np.zeros(34, np.int64)
    public[5] = 3
    assert K.must_change(5, public) and not K.must_change(4, public)
    out = np.zeros(2, np.int64)
    nine_p = T.tile_index("9p")
    assert K.bao_outcome(c, nine_p, 3, ms, own, v.vector, tb, out) == K.BAO_MOBAO_POSSIBLE
    assert out[1] == T.tile_index("5s")
    # no copy of the bao kind left to draw (``live`` 0): 摸宝 cannot happen
    assert K.bao_outcome(c, nine_p, 0, ms, own, v.vector, tb, out) == K.BAO_NO_MOBAO
    assert out[1] == -1


def test_bao_score_matches_score_command():
    r = B.bao(JIA_HAND, "9p", seat="E")
    s = S.score(JIA_HAND, how="mobao", bao="9p", seat="E")
    assert r.score == s


def test_cli_bao_json_fields():
    res = runner.invoke(app, ["bao", JIA_HAND, "--bao", "9p", "--visible", "9p", "--json"])
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    for key in ("can_look", "outcome", "stands_for", "score", "live", "must_change"):
        assert key in d
    assert d["outcome"] == "mobao_possible" and d["stands_for"] == "5s" and d["live"] == 2
    assert d["score"]["payments"] == {"E": -32, "S": 64, "W": -16, "N": -16}


def test_cli_bao_table_and_errors():
    res = runner.invoke(app, ["bao", JIA_HAND, "--bao", "5s"])
    assert res.exit_code == 0 and "duibao" in res.stdout and "对宝 win" in res.stdout
    res = runner.invoke(app, ["bao", JIA_HAND, "--bao", "5x"])
    assert res.exit_code == 2 and res.stderr.startswith("error: ")
