"""The exact discard analysis (ccmj_cli.exact, pool ``hand_only``): hand-worked cases, a
brute-force search over every discard written here independently of the solver's graph, a
locked tenpai hand against its closed form, and a Monte Carlo that plays the solver's own
decisions in the same pool — 13 and 14 tiles, with and without melds, under several variants.
"""

import json
import math

import numpy as np
import pytest
import strategies as S
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ccmj_cli import exact as X
from ccmj_cli import odds as O
from ccmj_cli import tiles as T
from ccmj_cli.errors import HandError, UsageError
from ccmj_cli.hand import waits as hand_waits
from ccmj_cli.hand import waits_dicts
from ccmj_cli.rules import load_variant

DEFAULT = load_variant()

# --- hand-worked ------------------------------------------------------------------------------

# 111m 456p 789s 57s 1z 2z (13 tiles): a legal win needs the 6s (57s -> 567s) and a pair of
# one of the winds: legal distance 2 (legal shanten 1). Useful draws: 6s (4 copies), 1z and 2z
# (3 each), 10 of the 123 unseen tiles. In the hand_only pool every draw is from 123 tiles (a
# tile thrown is unseen again), so a thrown wind has 4 copies again.
ONE = "111m456p789s57s12z"


def test_one_shanten_two_draws_by_hand():
    # Draw 1 = 6s (4/123): 567s made; throw a wind, keep the other single: waiting on it (the
    # pair), 3 copies of 123 -> 3/123 at draw 2.
    # Draw 1 = 1z or 2z (6/123): the pair made; throw the other wind: waiting on the 6s (坎张),
    # 4 copies -> 4/123.
    # Any other draw 1 leaves the hand two tiles from a win: no single draw 2 can win. So
    #   P(win by draw 2) = 4/123 * 3/123 + 6/123 * 4/123 = 36 / 15129.
    # Tenpai: after draw 1 with 10/123; else the hand is as it was: 10/123 + 113/123 * 10/123.
    # Every win is 门清 + 夹胡 (单调 or 坎张) + 自摸 = 4 fan for a non-dealer: the dealer pays
    # 2^4 = 16, the two others 2^3 = 8 each: 32 base units.
    rep = X.analyze(ONE, draws=2)
    r = rep.results[0]
    assert rep.complete and rep.pool == "hand_only"
    assert r.legal_shanten == 1 and r.useful_total == 10
    assert r.p_win[1] == 0.0
    assert r.p_win[2] == pytest.approx(36 / 15129, abs=1e-15)
    assert r.p_tenpai[1] == pytest.approx(10 / 123, abs=1e-15)
    assert r.p_tenpai[2] == pytest.approx(10 / 123 + 113 / 123 * 10 / 123, abs=1e-15)
    assert r.expected_payment == pytest.approx(32 * 36 / 15129, abs=1e-12)
    assert r.p_jiahu == pytest.approx(36 / 15129, abs=1e-15) and r.p_piao == 0.0


def test_dealer_pays_more():
    # the player deals: each loser pays 2^4 = 16 (门清 + 夹胡 + 自摸 + 平胡 + 庄 = 5 fan): 48
    r = X.analyze(ONE, draws=2, dealer=True).results[0]
    assert r.expected_payment == pytest.approx(48 * 36 / 15129, abs=1e-12)


def test_dead_wait_is_changed():
    # 111m 456p 789s 2345s waits on 2s/5s; with the other six copies visible both are dead, so
    # the restricted play of old (draws that help only) never won. With one draw the hand
    # cannot win (its only waits are dead); with two it can: draw 1 = 3s or 4s (3 copies each,
    # hand_only pool 136 - 13 - 6 = 117) and throw 2s or 5s: 233s45s -> 2345s+3s waits ... the
    # solver finds some win, and a brute force over every discard (below) agrees.
    r1 = X.analyze("111m456p789s2345s", visible="2s2s2s5s5s5s", draws=1).results[0]
    assert r1.p_win[-1] == 0.0
    r = X.analyze("111m456p789s2345s", visible="2s2s2s5s5s5s", draws=17, widen_states=5000)
    r = r.results[0]
    assert r.p_win[-1] > 0.5


def test_locked_tenpai_hand_in_the_hand_only_pool():
    # declared, the hand throws every drawn tile, which is unseen again: each draw wins with
    # k/U, so P(win by t) = 1 - (1 - k/U)^t. 123m456p789s1112s waits on 2s only (3 live; 3s
    # reads 11s + 123s with no pung), U = 123.
    r = X.analyze("123m456p789s1112s", draws=10, declare=True).results[0]
    for t in range(1, 11):
        assert abs(r.p_win[t] - (1 - (1 - 3 / 123) ** t)) < 1e-12
    assert (r.p_tenpai == 1.0).all()


def test_concealed_kong_hand_under_mil2024():
    # 7z [123m][222p](9999p)[345s]: by default no legal win exists (手把一 with chow melds: the
    # concealed kong is a declared set), so P(win) stays 0. Under mil2024
    # (shoubayi_ankong_concealed) the hand waits on 7z as a legal 单吊: 3 copies among the
    # 136 - 14 = 122 unseen. Whatever single tile it keeps it waits on it with 3 copies (a tile
    # it throws is unseen again), so P(win by t) = 1 - (119/122)^t.
    hand = "7z[123m][222p](9999p)[345s]"
    r = X.analyze(hand, draws=6).results[0]
    assert r.legal_shanten is None and (r.p_win == 0).all() and r.expected_payment == 0
    r = X.analyze(hand, draws=6, rules="mil2024").results[0]
    assert r.legal_shanten == 0 and r.tenpai and r.useful_total == 3
    for t in range(1, 7):
        assert abs(r.p_win[t] - (1 - (119 / 122) ** t)) < 1e-12


# --- a brute force over every discard -----------------------------------------------------------


class BruteForce:
    """V(hand, r): the best P(win within r draws) over every choice of discard, in the hand_only
    pool (a kind's copies: 4 - visible - meld tiles - the hand's). Plain recursion with a memo;
    the legal waits of a 13-tile hand come from the rules engine (``hand.waits``), the search
    from nothing of the solver."""

    def __init__(self, text, visible=None, rules=None):
        h = T.parse_hand(text)
        self.melds = h.melds
        self.rules = rules
        vis = np.zeros(34, np.int64)
        for t in T.parse_tiles(visible or "", "visible") if visible else []:
            vis[t] += 1
        self.base = 4 - vis - (h.own_counts().astype(np.int64) - h.concealed)
        self.c0 = tuple(int(x) for x in h.concealed)
        k = 4 - h.n_sets
        self.total = int(self.base.sum()) - (3 * k + 1)
        self.memo = {}
        self.wins = {}

    def legal_waits(self, c):
        if c not in self.wins:
            (d,) = waits_dicts([T.Hand(np.array(c, np.uint8), self.melds)], None, self.rules)
            self.wins[c] = {T.tile_index(w["tile"]) for w in d["waits"] if w["legal"]}
        return self.wins[c]

    def value(self, c, r):
        if r == 0:
            return 0.0
        key = (c, r)
        if key in self.memo:
            return self.memo[key]
        wins = self.legal_waits(c)
        v = 0.0
        for t in range(34):
            w = int(self.base[t]) - c[t]
            if w <= 0:
                continue
            if t in wins:
                v += w / self.total
                continue
            held = list(c)
            held[t] += 1
            best = 0.0
            for x in range(34):
                if held[x]:
                    held[x] -= 1
                    best = max(best, self.value(tuple(held), r - 1))
                    held[x] += 1
            v += w / self.total * best
        self.memo[key] = v
        return v

    def starts(self):
        """{discard: value} for a 14-tile hand, {None: value} for 13 tiles."""
        c = list(self.c0)
        if sum(c) % 3 == 1:
            return {None: lambda r: self.value(tuple(c), r)}
        out = {}
        for x in range(34):
            if c[x]:
                c[x] -= 1
                out[T.tile_name(x)] = (lambda cc: lambda r: self.value(cc, r))(tuple(c))
                c[x] += 1
        return out


BRUTE = [
    # (hand, visible, rules, draws): legal shanten 1 and 2, 13 and 14 tiles, visible, melds
    ("111m456p789s57s12z", None, None, 3),
    ("111m456p789s2345s", "2s2s2s5s5s", None, 3),
    ("46m456p78s557z[777z]", "6s6s", None, 3),
    ("123m469p789s1557z", None, None, 3),
    ("111m456p789s57s123z", "3z", None, 2),
    ("46m456p78s557z3z[777z]", None, "kuansong", 2),
]


@pytest.mark.parametrize("hand,visible,rules,n", BRUTE)
def test_solver_equals_a_brute_force_over_every_discard(hand, visible, rules, n):
    bf = BruteForce(hand, visible, rules)
    rep = X.analyze(hand, visible=visible, draws=n, rules=rules)
    assert rep.complete  # a short horizon: every hand that can still win was searched
    for r in rep.results:
        want = bf.starts()[r.discard]
        for t in range(1, n + 1):
            assert abs(r.p_win[t] - want(t)) < 1e-12, (hand, r.discard, t)


# --- the Monte Carlo that follows the solver's decisions ---------------------------------------

Z_JOINT = 3.2905  # two-sided 99.9% for each quantity: 30 checks, a fixed seed each

CASES = [
    # (hand, rules, draws): legal shanten 1, 2; 13 and 14 tiles; melds; several variants
    ("111m456p789s57s12z", None, 14),
    ("123m469p789s1557z", None, 17),
    ("46m456p78s557z[777z]", "quanbao", 12),
    ("123m469p789s15577z", "kuansong", 16),
    ("46m456p78s557z3z[777z]", None, 12),
]


def _follow(solver, discard, trials, seed):
    st = np.zeros(64, np.int64)
    solver.follow(discard, trials, seed, st, (0, 1, 5, 6, 7, 8, 9, 10, 12))
    return st


@pytest.mark.parametrize("hand,rules,n", CASES)
def test_monte_carlo_following_the_decisions_agrees(hand, rules, n):
    rep = X.analyze(hand, draws=n, rules=rules, widen_states=20_000)
    trials = 20_000
    for k, r in enumerate(rep.results[:2]):
        st = _follow(rep.solver, r.discard, trials, 1000 + k)
        assert st[0] == trials
        p = st[1:5].sum() / trials
        half = Z_JOINT * math.sqrt(max(r.p_win[-1] * (1 - r.p_win[-1]), 1e-12) / trials)
        assert abs(p - r.p_win[-1]) <= half, (hand, r.discard, p, r.p_win[-1])
        q = r.p_tenpai[-1]
        ten = st[9] / trials
        assert abs(ten - q) <= Z_JOINT * math.sqrt(max(q * (1 - q), 1e-12) / trials) + 1e-12
        mean = st[7] / trials
        sd = math.sqrt(max(st[8] / trials - mean**2, 0.0))
        assert abs(mean - r.expected_payment) <= Z_JOINT * sd / math.sqrt(trials) + 1e-12


def test_odds_trials_play_the_solver_and_agree():
    # `odds --trials` with a hand the solver answers plays the solver's decisions in its pool
    rep = O.odds("111m456p789s2345s", visible="2s2s2s5s5s", trials=8000, seed=3, exact=True)
    r = rep.results[0]
    assert r.method == "both" and r.policy == "solver" and r.pool == "hand_only"
    lo, hi = r.ci95
    assert lo - 0.005 <= r.exact.p_win <= hi + 0.005


def test_wider_search_is_never_worse_and_values_are_consistent():
    narrow = X.analyze("123m469p789s15577z", draws=12, limit=3).results
    wide = X.analyze("123m469p789s15577z", draws=12, limit=4).results
    best = {r.discard: r.p_win[-1] for r in wide}
    for r in narrow:
        assert best[r.discard] >= r.p_win[-1] - 1e-12
        assert np.all(np.diff(r.p_win) >= -1e-15) and np.all(np.diff(r.p_tenpai) >= -1e-15)
        assert np.all(r.p_win <= r.p_tenpai + 1e-12)  # a win needs a tenpai hand first


EDGE_CASES = [
    # (hand, visible, rules, draws, limit): regions short of the horizon; 13 and 14 tiles,
    # visible tiles, melds, and 七对 (kuansong: the per-neighbour kernels)
    ("111m456p789s57s12z", None, None, 17, 4),
    ("123m469p789s15577z", None, None, 12, 3),
    ("46m456p78s557z[777z]", "6s6s", None, 12, 4),
    ("11m456p789s12z66z1s", None, "kuansong", 10, 3),
]


@pytest.mark.parametrize("hand,visible,rules,n,lim", EDGE_CASES)
def test_every_move_on_the_edge_lies_between_two_steps(hand, visible, rules, n, lim):
    # the same hands with more moves between them: never worse than progress only, never
    # better than the next step, where those hands are inside the region and move freely
    def run(limit, edge):
        rep = X.analyze(hand, visible=visible, draws=n, rules=rules, limit=limit, edge=edge)
        return rep, {r.discard: r.p_win[-1] for r in rep.results}

    prog, a = run(lim, "progress")
    every, b = run(lim, "all")
    _, c = run(lim + 1, "progress")
    assert every.states == prog.states and (prog.edge, every.edge) == ("progress", "all")
    assert not every.complete
    assert any(b[d] > a[d] + 1e-9 for d in a), hand  # (the moves matter on these hands)
    for d in a:
        assert a[d] - 1e-12 <= b[d] <= c[d] + 1e-12, (hand, d, a[d], b[d], c[d])


def test_every_move_on_the_edge_changes_nothing_in_a_complete_search():
    for hand, visible, rules, n in BRUTE[:4]:
        want = X.analyze(hand, visible=visible, draws=n, rules=rules, limit=n).results
        got = X.analyze(hand, visible=visible, draws=n, rules=rules, limit=n, edge="all").results
        for r, w in zip(got, want, strict=True):
            assert r.discard == w.discard and np.array_equal(r.p_win, w.p_win), hand


def test_the_solver_follows_its_decisions_with_every_move_on_the_edge():
    rep = X.analyze("111m456p789s57s12z", draws=14, limit=4, edge="all")
    r, trials = rep.results[0], 20_000
    st = _follow(rep.solver, r.discard, trials, 77)
    p = st[1:5].sum() / trials
    assert abs(p - r.p_win[-1]) <= Z_JOINT * math.sqrt(r.p_win[-1] * (1 - r.p_win[-1]) / trials)


def test_payment_objective_pays_at_least_as_much():
    win = X.analyze("123m469p78s15577z2z", draws=8, objective="win").results[0]
    pay = X.analyze("123m469p78s15577z2z", draws=8, objective="payment").results[0]
    assert pay.expected_payment >= win.expected_payment - 1e-12
    assert win.p_win[-1] >= pay.p_win[-1] - 1e-12


BOT_HANDS = [
    # tenpai with dead and thin waits, 1-shanten hands, and a far hand that settles (below)
    ("111m456p789s2345s", "2s2s2s5s5s5s"),
    ("111m456p789s2345s", "2s2s2s5s5s"),
    ("123m456p111s4679s", None),
    ("111m456p789s57s12z", None),
    ("1678m125p1239s24z", None),
]


@pytest.mark.parametrize("hand,visible", BOT_HANDS)
def test_the_best_play_is_not_below_the_baseline_bot(hand, visible):
    # the same model: the bot's thrown tiles go back to the pool too. 20,000 trials: a standard
    # error of about 0.003, so an answer a step short of settling (111m456p789s57s12z: 0.3425
    # against the bot's 0.352) fails
    ex = O.odds(hand, visible=visible).results[0]
    bot = O.odds(hand, visible=visible, exact=False, pool="hand_only", trials=20_000,
                 seed=5).results[0]  # fmt: skip
    se = math.sqrt(bot.p_win * (1 - bot.p_win) / bot.trials)
    assert ex.p_win >= bot.p_win - 3 * se, (hand, ex.p_win, bot.p_win)


def test_an_unsettled_thirteen_tile_answer_searches_on():
    # limit 4 (5,307 states) wins 0.3425 and its step added 0.063, 18% of it, and the
    # baseline bot wins about 0.352: every move on the edge (0.3558, the same hands), then, as
    # the bot's check still reaches that, the next step (83,754 states), 0.3697
    hand = "111m456p789s57s12z"
    quick = O.odds(hand, settle=False).results[0].exact
    assert (quick.limit, quick.edge, quick.states) == (4, "progress", 5307)
    assert abs(quick.p_win - 0.3425) < 5e-5 and quick.gain >= X.SETTLE_GAIN * quick.p_win
    every = X.analyze(hand, limit=4, edge="all").results[0].p_win[-1]
    assert abs(every - 0.3558) < 5e-5
    r = O.odds(hand).results[0].exact
    assert (r.limit, r.edge, r.states) == (5, "progress", 83754) and not r.complete
    assert abs(r.p_win - 0.3697) < 5e-5 and abs(r.gain - (r.p_win - every)) < 1e-12
    # a check the bot fails settles it: the answer is every move on the edge at limit 4
    rep = X.analyze(hand, max_states=150_000, widen_states=25_000, settle_states=400_000,
                    settle_check=lambda answer: answer < 0.35)  # fmt: skip
    assert (rep.limit, rep.edge) == (4, "all") and abs(rep.results[0].p_win[-1] - every) < 1e-12
    # a settled answer stays where it was: the last step added less than 15%
    t = O.odds("123m456p111s4679s").results[0].exact
    assert t.gain < X.SETTLE_GAIN * t.p_win and t.states == O.odds("123m456p111s4679s",
                                                         settle=False).results[0].exact.states
    # a 14-tile hand never settles (its discards' regions overlap in one graph)
    assert X.analyze("123m469p789s15577z", max_states=150_000, widen_states=25_000,
                     settle_states=400_000).edge == "progress"  # fmt: skip


FAR = "2m5m7m8m9m5p8p7s7s2z4z5z5z"  # legal distance 5 (legal shanten 4)


def test_a_far_hand_leaves_the_straight_path():
    # the straight path alone (limit = distance 5: a draw that does not help is thrown) wins
    # 0.0688 over 17 draws, below the baseline bot in the same pool (about 0.09); its 3,651
    # states leave room for one step off it (121,531 states), which the unasked search takes
    r = O.odds(FAR).results[0]
    assert r.exact.legal_shanten == 4 and r.exact.limit == 6 and not r.exact.complete
    assert r.exact.gain > 0.03
    bot = O.odds(FAR, exact=False, pool="hand_only", trials=4000, seed=3).results[0]
    se = math.sqrt(bot.p_win * (1 - bot.p_win) / bot.trials)
    assert r.p_win >= bot.p_win - 3 * se, (r.p_win, bot.p_win)


def test_a_straight_path_only_answer_says_so():
    # legal distance 6: the straight path is 23,469 states, a step off it would pass the
    # unasked search's size limit; the answer is the restricted model and is called that
    from typer.testing import CliRunner

    from ccmj_cli.cli import app

    out = CliRunner().invoke(app, ["odds", "2m2m6p6p6p6p1s5s1z2z3z5z7z", "--json"])
    ex = json.loads(out.stdout)["exact"]
    assert ex["limit"] == 6 and ex["gain"] is None and not ex["complete"]
    text = CliRunner().invoke(app, ["odds", "2m2m6p6p6p6p1s5s1z2z3z5z7z"]).stdout
    assert "region search: a lower bound" in text and "the straight path only" in text


def test_beyond_reach_and_bad_input():
    with pytest.raises(X.BeyondReach):
        X.analyze("123m469p78s1557z2z", draws=18, limit=18, max_states=50)
    with pytest.raises(UsageError):
        X.analyze(ONE, objective="money")
    with pytest.raises(UsageError):
        X.analyze(ONE, draws=500)
    with pytest.raises(HandError):
        X.analyze("123m")


def test_numpy_arrays_and_json():
    rep = X.analyze("123m469p789s15577z", draws=6)
    r = rep.results[0]
    assert isinstance(r.p_win, np.ndarray) and r.p_win.shape == (7,)
    d = rep.to_dict()
    assert len(d["results"]) == 12 and d["pool"] == "hand_only"
    # 6 draws: the search stops short (limit < 6), a region's lower bound, not called exact
    assert not d["complete"] and d["limit"] < 6 and d["method"] == "region"
    assert len(d["results"][0]["win_by_turn"]) == 6 == len(d["results"][0]["tenpai_by_turn"])
    assert hand_waits("123m456p789s1112s").tenpai


# --- random hands one to three tiles off a win --------------------------------------------------


@st.composite
def near_hands(draw):
    """A 13-tile hand a few tiles off a complete one: a random complete hand (up to two melds),
    2-4 of its concealed tiles replaced by random ones (at most 4 copies a kind), one dropped."""
    concealed, ms = draw(S.complete_hands(max_melds=2, specials=False))
    used = [0] * 34
    for t in concealed:
        used[t] += 1
    for _, tiles in ms:
        for t in tiles:
            used[t] += 1
    n = draw(st.integers(2, 4))
    idx = draw(st.lists(st.integers(0, len(concealed) - 1), min_size=n, max_size=n,
                        unique=True))  # fmt: skip
    for i in idx:
        used[concealed[i]] -= 1
    for i in idx:
        t = draw(st.sampled_from([t for t in range(34) if used[t] < 4]))
        used[t] += 1
        concealed[i] = t
    del concealed[draw(st.integers(0, len(concealed) - 1))]
    return S.hand_text(sorted(concealed), ms)


@settings(max_examples=S.examples(4))
@given(near_hands(), st.integers(0, 2**16))
def test_random_hands_equal_a_brute_force_and_beat_the_bot(hand, seed):
    # short horizons keep the brute force and the search small: 2 draws against the brute
    # force (every discard), 4 draws against the baseline bot's Monte Carlo in the same pool
    rep = X.analyze(hand, draws=2)
    r = rep.results[0]
    assume(r.legal_shanten is not None and 1 <= r.legal_shanten <= 3)
    assert rep.complete
    want = BruteForce(hand).starts()[None]
    for t in (1, 2):
        assert abs(r.p_win[t] - want(t)) < 1e-12, (hand, t)
    ex = X.analyze(hand, draws=4, limit=4).results[0]  # limit >= draws: the optimum
    bot = O.odds(hand, draws=4, exact=False, pool="hand_only", trials=2000, seed=seed)
    b = bot.results[0]
    se = math.sqrt(b.p_win * (1 - b.p_win) / b.trials)
    assert ex.p_win[-1] >= b.p_win - 3 * se - 1e-12, (hand, ex.p_win[-1], b.p_win)


# --- the legal-distance memo kept between processes ------------------------------------------


def test_the_memo_file_round_trips_mapped_and_a_damaged_file_is_a_miss(tmp_path, monkeypatch):
    from ccmj_cli._kernels import cache

    monkeypatch.setattr(cache, "memo_path", lambda name: tmp_path / f"memo-{name}.npy")
    arrays = {"keys": np.arange(12, dtype=np.int64).reshape(3, 4), "flag": np.ones(5, np.int8),
              "empty": np.zeros((0, 6), np.int64)}  # fmt: skip
    cache.save_memo("t", arrays)
    got = cache.load_memo("t")
    assert set(got) == set(arrays)
    for k, a in arrays.items():
        assert got[k].dtype == a.dtype and got[k].shape == a.shape and (got[k] == a).all()
    got["keys"][0, 0] = 99  # mapped copy-on-write: the process's own change, not the file's
    assert cache.load_memo("t")["keys"][0, 0] == 0
    path = tmp_path / "memo-t.npy"
    data = path.read_bytes()
    path.write_bytes(data[: len(data) - 8])  # cut short
    assert cache.load_memo("t") is None
    path.write_bytes(b"garbage" + data[7:])  # not a memo file
    assert cache.load_memo("t") is None
    assert cache.load_memo("absent") is None


def test_saving_a_memo_deletes_the_same_memo_of_other_kernel_sources(tmp_path, monkeypatch):
    from ccmj_cli._kernels import cache

    monkeypatch.setattr(cache, "memo_path", lambda name: tmp_path / f"memo-{name}-new.npy")
    for f in ("memo-t-old.npy", "memo-t-older.npy", "memo-u-old.npy", "other.npy"):
        (tmp_path / f).write_bytes(b"x")
    cache.save_memo("t", {"keys": np.zeros(3, np.int64)})
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == ["memo-t-new.npy", "memo-u-old.npy", "other.npy"]  # (u: another rule set)
    assert cache.load_memo("t")["keys"].shape == (3,)


def test_the_console_script_keeps_the_memo(monkeypatch):
    # `ccmj` ends with os._exit, which skips atexit: it must save the exact analysis's memo itself
    from ccmj_cli import _entry
    from ccmj_cli import exact as X

    saved = []
    monkeypatch.setattr(X, "save_memos", lambda: saved.append(True))

    class Exit(Exception):
        pass

    def fake_exit(code):
        raise Exit(code)

    monkeypatch.setattr(_entry.os, "_exit", fake_exit)
    monkeypatch.setattr(_entry.interrupts, "install", lambda: None)
    monkeypatch.setattr("sys.argv", ["ccmj", "odds", "123m456p789s1112s", "-n", "1", "--json"])
    with pytest.raises(Exit):
        _entry.main()
    assert saved == [True]


# --- the distance memo kept from one analysis to the next --------------------------------------


def _digest(rep):
    return [(r.discard, r.p_win.tobytes(), r.p_tenpai.tobytes(), r.expected_payment, r.p_jiahu,
             r.p_piao) for r in rep.results]  # fmt: skip


def test_a_warm_distance_memo_never_changes_an_answer(monkeypatch):
    # the memo is keyed by the hand and its melds: hands with and without melds, sharing most
    # tiles, analysed in turn with one memo give exactly what each gives with a new one
    hands = [("123m469p789s15577z", {}), ("123m469p789s15z[777z]", {}),
             ("123m469p789s15z(7777z)", {}), ("123m469p789s15577z", {"visible": "5z5z"}),
             ("469p789s15577z[123m]", {"objective": "payment"})]  # fmt: skip
    monkeypatch.setattr(X, "_DMEMOS", {})
    fresh = []
    for hand, kw in hands:
        X._DMEMOS.clear()
        fresh.append(_digest(X.analyze(hand, draws=8, **kw)))
    warm = [_digest(X.analyze(hand, draws=8, **kw)) for hand, kw in hands]  # (one memo, kept)
    assert X._DMEMOS and warm == fresh
