"""Tiles held four times: one answer everywhere (RULES §4).

A structural wait whose four copies are all the player's own (concealed, or in his melds) is
reported with 0 live copies and never makes the hand tenpai; waits, shanten (13 and 14 tiles),
can_look_bao, bao and odds agree. Hand-worked cases first, then properties against the slow
reference (tests/naive.py), which enumerates readings with a fifth copy by plain recursion.
"""

import naive
import pytest
import strategies as S
from hypothesis import given, settings
from hypothesis import strategies as st

from ccmj_cli import bao as B
from ccmj_cli import hand as H
from ccmj_cli import tiles as T
from ccmj_cli.odds import odds


def waits_of(r):
    return [(w.tile, w.legal, w.live) for w in r.waits]


# --------------------------------------------------------------------------- hand-worked


def test_concealed_four_is_a_dead_wait_everywhere():
    # 1111m234p567s789s: + a fifth 1m reads 111m 11m 234p 567s 789s (legal: 三色, 幺九, 刻),
    # but every 1m is the player's own: listed with live 0, not tenpai, shanten 1, may not
    # look at the bao.
    r = H.waits("1111m234p567s789s")
    assert waits_of(r) == [("1m", True, 0)]
    assert not r.tenpai and not r.can_look_bao and r.bao_reason == "not_tenpai"
    assert H.shanten("1111m234p567s789s").shanten == 1


def test_concealed_four_honors_and_two_pair_groups():
    # 1111z234m567p789s: + a fifth 东 reads 111z 11z + three chows: 1z listed, live 0
    r = H.waits("1111z234m567p789s")
    assert waits_of(r) == [("1z", True, 0)] and not r.tenpai
    # 11112233m 55p 111s (万 and 饼 both at 2 mod 3): + a fifth 1m reads 111m 123m 123m with
    # 55p the pair (dead); + 4m reads 111m 123m 234m (live); + 5p makes 555p with 11m 123m
    # 123m (live). Tenpai on 4m and 5p.
    r = H.waits("11112233m55p111s")
    assert waits_of(r) == [("1m", True, 0), ("4m", True, 4), ("5p", True, 2)] and r.tenpai


def test_wait_held_four_times_by_a_pung_is_not_tenpai_for_shanten():
    # 111333456m5z[555z]: the only wait is 5z (单调; 111m 333m 456m 55z [555z], no 饼 or 条:
    # missing_suit); the pung and the concealed 5z are all four copies -> waits lists 5z with
    # live 0, not tenpai; shanten says 1 (it said 0: the shanten kernel saw the concealed
    # tiles only).
    r = H.waits("111333456m5z[555z]")
    assert [(w.tile, w.reasons, w.live) for w in r.waits] == [("5z", ["missing_suit"], 0)]
    assert not r.tenpai
    s = H.shanten("111333456m5z[555z]")
    assert s.shanten == 1
    # useful tiles are those after which some discard leaves a live wait: drawing 2m and
    # discarding 5z leaves 111m 234m 33m 56m, waiting 4m/7m; 5z can never be drawn
    useful = {u.tile for u in s.useful}
    assert "2m" in useful and "5z" not in useful
    assert all(u.live > 0 for u in s.useful)


def test_fourteen_tiles_a_discard_leaving_only_dead_waits_leaves_shanten_1():
    # 111m456p789s5z7z[555z]: discarding 7z leaves 111m456p789s5z[555z], whose only wait 5z is
    # held four times -> 1; discarding 5z leaves 111m456p789s7z, waiting 7z (legal, 3 live)
    # -> 0. The hand's shanten is its best discard's: 0.
    r = H.shanten("111m456p789s5z7z[555z]")
    by = {d.tile: d for d in r.discards}
    assert by["7z"].shanten == 1 and by["7z"].legal_waits is None
    assert [(u.tile, u.live) for u in by["5z"].legal_waits] == [("7z", 3)]
    assert by["5z"].shanten == 0 and r.shanten == 0
    # 1111m234p567s7899s: discarding 9s leaves the dead 1m wait (1); discarding a 1m leaves
    # 111m234p567s7899s, waiting 6s/9s (0)
    r = H.shanten("1111m234p567s7899s")
    by = {d.tile: d for d in r.discards}
    assert by["9s"].shanten == 1 and by["1m"].shanten == 0 and r.shanten == 0


def test_a_14_tile_hand_whose_every_discard_leaves_a_dead_wait_is_1_shanten():
    # 5z9999s beside [555z][111m][999p] (one set + a pair to make): discarding 9s leaves
    # 5z999s, whose only wait 5z (999s + 55z) is held four times (the pung and the 5z);
    # discarding 5z leaves 9999s, whose only wait is a fifth 9s. Standard shanten says 0 (the
    # 9s discard), the live rule 1.
    r = H.shanten("5z9999s[555z][111m][999p]")
    assert {d.tile: d.shanten for d in r.discards} == {"5z": 1, "9s": 1}
    assert r.shanten == 1


def test_bao_with_no_live_copy_cannot_mobao():
    # 3334m111p567s789s: waits 2m 4m 5m (tenpai); bao 1p: the hand holds the three other 1p,
    # so no copy of the bao kind can be drawn: 摸宝 cannot happen (outcome no_mobao).
    r = B.bao("3334m111p567s789s", "1p")
    assert r.can_look and r.outcome == "no_mobao" and r.live == 0
    assert r.stands_for is None and r.score is None
    # the same waits beside 999p instead of 111p: three 1p are left to draw (the bao tile
    # itself stays in the wall) -> a 摸宝 is possible
    r = B.bao("3334m999p567s789s", "1p")
    assert r.outcome == "mobao_possible" and r.live == 3 and r.stands_for is not None


def test_odds_agree_a_dead_hand_is_not_tenpai():
    # the declared-tenpai closed form needs a live legal wait: the dead hand has none, so the
    # exact answer is the discard analysis, of a hand that is not tenpai at all. (Its legal
    # distance: 三色 needs 饼 and 条, and with the 555z pung and three concealed sets the
    # pair cannot supply both: give up one m set for a p set and an s pair, 5 tiles: legal
    # shanten 4, so 3 draws reach neither tenpai nor a win.)
    rep = odds("111333456m5z[555z]", declare=True, trials=0, exact=True, draws=3)
    ex = rep.results[0].exact
    assert ex is not None and ex.solver == "dp" and ex.legal_shanten == 4
    assert ex.tenpai_by_turn == [0.0] * 3 and ex.p_win == 0.0
    assert not any(u["tile"] == "5z" for u in ex.useful)  # no copy of 5z is left to draw


# --------------------------------------------------------------------------- properties


def own_of(concealed, ms):
    own = [0] * 34
    for t in concealed + [t for _, ts in ms for t in ts]:
        own[t] += 1
    return own


@settings(max_examples=S.examples(150))
@given(S.held_four_hands(), S.variants())
def test_held_four_waits_equal_naive(h, v):
    # every structural wait, a fifth copy included, judged as the reference does; the held
    # tile is listed with live 0 and never counts for tenpai or 独听
    text, t, concealed, ms = h
    got = H.waits(text, rules=v)
    want = naive.waits(T.parse_hand(text), v.options)
    assert [T.tile_index(w.tile) for w in got.waits] == sorted(want.verdicts), text
    rows = {T.tile_index(w.tile): w for w in got.waits}
    assert t in rows and rows[t].live == 0, text
    for u, w in rows.items():
        vd = want.verdicts[u]
        assert w.legal == vd.legal, (text, w.tile)
        if vd.legal:
            assert (w.jiahu, w.piao) in {f[:2] for f in vd.flags}, (text, w.tile)
        else:
            assert tuple(w.reasons) in vd.reasons, (text, w.tile)
    assert got.tenpai == want.tenpai and got.can_look_bao == want.can_look_bao, text


@settings(max_examples=S.examples(120))
@given(S.held_four_hands(min_melds=2), st.data())
def test_live_shanten_equals_naive(h, data):
    # the 13-tile hand and the hand plus one drawable tile (every discard): shanten and useful
    # tiles by the one rule (naive.live_shanten: standard shanten, a wait held four times is
    # no wait); at most 7 concealed tiles keep the reference fast
    text, t, concealed, ms = h
    own = own_of(concealed, ms)
    c = S.counts(concealed)
    r = H.shanten(text)
    assert r.shanten == naive.live_shanten(c, own), text
    assert [T.tile_index(u.tile) for u in r.useful] == naive.live_useful(c, own), text
    extra = data.draw(st.sampled_from([x for x in range(34) if own[x] < 4]))
    r14 = H.shanten(S.hand_text(concealed + [extra], ms))
    c14 = S.counts(concealed + [extra])
    own[extra] += 1
    assert r14.shanten == naive.live_shanten(c14, own), (text, extra)
    for d in r14.discards:
        x = T.tile_index(d.tile)
        rest = c14.copy()
        rest[x] -= 1
        left = list(own)
        left[x] -= 1
        assert d.shanten == naive.live_shanten(rest, left), (text, extra, d.tile)


@settings(max_examples=S.examples(100))
@given(S.tenpai_hands(min_melds=2))
def test_shanten_with_melds_never_says_tenpai_without_a_live_wait(h):
    # on ordinary hands too: shanten 0 exactly when some structural wait has a drawable copy
    text, _, rest, ms = h
    own = own_of(rest, ms)
    r = H.shanten(text)
    assert r.shanten == naive.live_shanten(S.counts(rest), own), text


@pytest.mark.parametrize("text", ["1111m234p567s789s", "111333456m5z[555z]"])
def test_cli_waits_and_shanten_agree(text):
    from typer.testing import CliRunner

    from ccmj_cli.cli import app

    runner = CliRunner()
    res = runner.invoke(app, ["waits", text, "--check"])
    assert res.exit_code == 1 and "no" in res.stdout  # not tenpai
    res = runner.invoke(app, ["shanten", text, "--json"])
    assert res.exit_code == 0 and '"shanten": 1' in res.stdout
