"""The exact discard analysis (ccmj_cli.exact): hand-worked cases, tenpai hands against the
hypergeometric closed form, and a Monte Carlo that follows the solver's own decisions with
physical draws (the same model) — for 1-, 2- and 3-shanten hands, 13 and 14 tiles, with and
without melds, under several variants.
"""

import math

import numpy as np
import pytest
import strategies as S
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ccmj_cli import exact as X
from ccmj_cli import odds as O
from ccmj_cli import tiles as T
from ccmj_cli.errors import HandError, UsageError
from ccmj_cli.hand import waits as hand_waits
from ccmj_cli.rules import load_variant

DEFAULT = load_variant()


def hyper(u, k, n):
    """1 - C(u-k, n)/C(u, n): some winning copy among n draws without replacement."""
    return 1 - (math.comb(u - k, n) / math.comb(u, n) if n <= u - k else 0.0)


# --- hand-worked ------------------------------------------------------------------------------

# 111m 456p 789s 57s 1z 2z (13 tiles): a legal win needs the 6s (57s -> 567s) and a pair of
# one of the winds: legal distance 2 (legal shanten 1). Useful draws: 6s (4 copies), 1z and 2z
# (3 each), 10 of the 123 unseen tiles; nothing else brings a legal win nearer.
ONE = "111m456p789s57s12z"


def test_one_shanten_two_draws_by_hand():
    # Draw 1 = 6s (4/123): 567s made; throw a wind, keep the other single: waiting on it (the
    # pair), 3 copies among the 122 left -> 3/122 at draw 2.
    # Draw 1 = 1z or 2z (6/123): the pair made; throw the other wind: waiting on the 6s (坎张),
    # 4 copies among 122 -> 4/122.
    # Any other draw 1 is thrown and no single draw 2 can win. So
    #   P(win by draw 2) = 4/123 * 3/122 + 6/123 * 4/122 = 36 / 15006.
    # Tenpai: after draw 1 with 10/123; else (113/123) the 10 useful copies are all still among
    # the 122, so P(tenpai by draw 2) = 10/123 + 113/123 * 10/122.
    # Every win is 门清 + 夹胡 (单调 or 坎张) + 自摸 = 4 fan for a non-dealer: the dealer pays
    # 2^4 = 16, the two others 2^3 = 8 each: 32 base units (README, Scoring).
    r = X.analyze(ONE, draws=2).results[0]
    assert r.legal_shanten == 1 and r.useful_total == 10
    assert r.p_win[1] == 0.0
    assert r.p_win[2] == pytest.approx(36 / 15006, abs=1e-15)
    assert r.p_tenpai[1] == pytest.approx(10 / 123, abs=1e-15)
    assert r.p_tenpai[2] == pytest.approx(10 / 123 + 113 / 123 * 10 / 122, abs=1e-15)
    assert r.expected_payment == pytest.approx(32 * 36 / 15006, abs=1e-12)
    assert r.p_jiahu == pytest.approx(36 / 15006, abs=1e-15) and r.p_piao == 0.0


def test_one_shanten_two_draws_every_move_is_no_better():
    # with one draw left only a legal wait wins, and a draw that does not help cannot make
    # the hand tenpai: keeping it (every move allowed) changes nothing for N = 2
    a = X.analyze(ONE, draws=2, moves="all").results[0]
    assert a.p_win[2] == pytest.approx(36 / 15006, abs=1e-15)


def test_dealer_pays_more():
    # the player deals: each loser pays 2^4 = 16 (门清 + 夹胡 + 自摸 + 平胡 + 庄 = 5 fan): 48
    r = X.analyze(ONE, draws=2, dealer=True).results[0]
    assert r.expected_payment == pytest.approx(48 * 36 / 15006, abs=1e-12)


def test_concealed_kong_hand_under_mil2024():
    # 7z [123m][222p](9999p)[345s]: by default no legal win exists (手把一 with chow melds: the
    # concealed kong is a declared set), so P(win) stays 0. Under mil2024
    # (shoubayi_ankong_concealed) the hand waits on 7z as a legal 单吊: 3 copies among the
    # 136 - 14 = 122 unseen (the kong holds 4 tiles), P(win by t) = 1 - C(119, t)/C(122, t).
    # Each win: 平胡 1 + 夹胡 (单调) 1 + 自摸 1 = 3 fan (no 门清: claimed melds), a
    # non-dealer: the dealer pays 2^3 = 8, the two others 4 each -> 16 (as `score` says).
    hand = "7z[123m][222p](9999p)[345s]"
    r = X.analyze(hand, draws=6).results[0]
    assert r.legal_shanten is None and (r.p_win == 0).all() and r.expected_payment == 0
    r = X.analyze(hand, draws=6, rules="mil2024").results[0]
    assert r.legal_shanten == 0 and r.tenpai and r.useful_total == 3
    for t in range(1, 7):
        assert abs(r.p_win[t] - hyper(122, 3, t)) < 1e-12
    assert abs(r.expected_payment - 16 * hyper(122, 3, 6)) < 1e-9
    assert abs(r.p_jiahu - hyper(122, 3, 6)) < 1e-12 and r.p_piao == 0
    # the 14-tile hand 77z + the melds (15 tiles: 121 unseen) has one discard, a 7z: the same
    # wait, with 4 - 2 = 2 copies left among the 121
    rows = X.analyze("77z[123m][222p](9999p)[345s]", draws=4, rules="mil2024").results
    assert [x.discard for x in rows] == ["7z"]
    for t in range(1, 5):
        assert abs(rows[0].p_win[t] - hyper(121, 2, t)) < 1e-12


# --- tenpai hands: the closed form ----------------------------------------------------------


@st.composite
def tenpai_hand(draw):
    text, _, _, _ = draw(S.tenpai_hands(max_melds=2))
    return text


@settings(max_examples=S.examples(60), deadline=None,
          suppress_health_check=[HealthCheck.filter_too_much])  # fmt: skip
@given(tenpai_hand(), st.integers(1, 18), st.booleans(), st.booleans())
def test_tenpai_hands_equal_the_hypergeometric_answer(text, n, declare, dealer):
    w = hand_waits(text)
    assume(w.tenpai)
    h = T.parse_hand(text)
    u = 136 - int(h.own_counts().sum())
    r = X.analyze(text, draws=n, declare=declare, dealer=dealer).results[0]
    for t in range(1, n + 1):
        assert abs(r.p_win[t] - hyper(u, w.live_total, t)) < 1e-12
    assert (r.p_tenpai == 1.0).all()
    # the payment and the 夹胡/飘胡 shares: the closed form of `odds` for the declared hand
    ex = O.odds(text, draws=n, declare=True, dealer=dealer, trials=0, exact=True).results[0]
    s = O._setup(h, h.concealed.copy(), np.zeros(34, np.int64), 0, -1)
    cf, _ = O.closed_form(s, n, DEFAULT, 0 if dealer else 1)
    assert abs(r.expected_payment - cf.expected_payment) < 1e-9
    assert abs(r.p_jiahu - cf.p_jiahu) < 1e-12 and abs(r.p_piao - cf.p_piao) < 1e-12
    assert abs(ex.exact.p_win - cf.p_win) < 1e-12


# --- the Monte Carlo that follows the solver's decisions ---------------------------------------

Z_JOINT = 2.3939797998185104  # two-sided 95% jointly for the three quantities (Bonferroni)

CASES = [
    # (hand, rules, draws): legal shanten 1, 2, 3; 13 and 14 tiles; melds; several variants
    ("111m456p789s57s12z", None, 14),
    ("111m456p789s57s123z", None, 14),
    ("123m469p789s1557z", None, 17),
    ("123m469p78s1557z2z", None, 18),
    ("46m456p78s557z[777z]", "quanbao", 12),
    ("4m4p78s557z[777z][123s]", None, 15),
    ("123m469p789s15577z", "kuansong", 16),
    ("123m469p78s15577z2z", "yijiafu", 18),
    ("46m456p78s557z3z[777z]", None, 12),
    ("111m456p789s57s12z", "single_wait", 14),
]


def _rules(name):
    if name == "single_wait":
        return S.variant_with(jiahu="single_wait", dragon_pair_is_pung=False)
    return name


@pytest.mark.parametrize("hand,rules,n", CASES)
def test_monte_carlo_following_the_decisions_agrees(hand, rules, n):
    rep = X.analyze(hand, draws=n, rules=_rules(rules))
    trials = 6000
    for k, r in enumerate(rep.results[:2]):
        mc = rep.solver.follow(r.discard, trials, seed=1000 + k)
        assert mc["trials"] == trials
        assert mc["mismatches"] == 0  # every pool the state counts is the physical pool
        p = mc["wins_at"].sum() / trials
        half = Z_JOINT * math.sqrt(max(r.p_win[-1] * (1 - r.p_win[-1]), 1e-12) / trials)
        assert abs(p - r.p_win[-1]) <= half, (hand, r.discard, p, r.p_win[-1])
        ten = (1.0 if r.p_tenpai[0] else 0.0) + mc["tenpai_at"].sum() / trials
        q = r.p_tenpai[-1]
        assert abs(ten - q) <= Z_JOINT * math.sqrt(max(q * (1 - q), 1e-12) / trials) + 1e-12
        mean = mc["pay"] / trials
        sd = math.sqrt(max(mc["pay2"] / trials - mean**2, 0.0))
        assert abs(mean - r.expected_payment) <= Z_JOINT * sd / math.sqrt(trials) + 1e-12


def test_the_decisions_are_what_the_values_say():
    # the value the backward pass computes for a start is what following its decisions gives
    rep = X.analyze("123m469p78s15577z2z", draws=12)
    sv = rep.solver
    for r in rep.results:
        root = sv.roots[sv.discards.index(r.discard)]
        assert abs(sv.w0[root] - r.p_win[-1]) < 1e-12
        assert abs(sv.e0[root] - r.expected_payment) < 1e-9
        assert r.p_win[-1] >= 0 and np.all(np.diff(r.p_win) >= -1e-15)
        assert np.all(np.diff(r.p_tenpai) >= -1e-15)
        assert np.all(r.p_win <= r.p_tenpai + 1e-12)  # a win needs a tenpai hand first


def test_payment_objective_pays_at_least_as_much():
    win = X.analyze("123m469p78s15577z2z", draws=12, objective="win").results[0]
    pay = X.analyze("123m469p78s15577z2z", draws=12, objective="payment").results[0]
    assert pay.expected_payment >= win.expected_payment - 1e-12
    assert win.p_win[-1] >= pay.p_win[-1] - 1e-12


def test_every_move_is_at_least_as_good_as_useful_moves():
    for hand in ("111m456p789s57s12z", "46m456p78s557z[777z]"):
        a = X.analyze(hand, draws=2, moves="all").results[0]
        u = X.analyze(hand, draws=2).results[0]
        assert a.p_win[-1] >= u.p_win[-1] - 1e-12


def test_beyond_reach_and_bad_input():
    with pytest.raises(X.BeyondReach):
        X.analyze("123m469p78s1557z2z", draws=18, max_states=50)
    with pytest.raises(UsageError):
        X.analyze(ONE, objective="money")
    with pytest.raises(UsageError):
        X.analyze(ONE, moves="some")
    with pytest.raises(UsageError):
        X.analyze(ONE, draws=500)
    with pytest.raises(HandError):
        X.analyze("123m")


def test_numpy_arrays_and_json():
    rep = X.analyze("123m469p789s15577z", draws=6)
    r = rep.results[0]
    assert isinstance(r.p_win, np.ndarray) and r.p_win.shape == (7,)
    d = rep.to_dict()
    assert d["method"] == "exact" and len(d["results"]) == 12
    assert len(d["results"][0]["win_by_turn"]) == 6 == len(d["results"][0]["tenpai_by_turn"])
