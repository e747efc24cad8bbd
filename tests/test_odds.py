"""ccmj odds: the Monte Carlo against exact answers, reproducibility, the model's rules.

Exact references are worked here from first principles (hypergeometric over the unseen pool),
not read back from ccmj_cli.odds, except where a test says it compares the two code paths.
"""

import math

import numpy as np
import pytest

from ccmj_cli import odds as O
from ccmj_cli._kernels.layout import MS_LEN
from ccmj_cli._kernels.policy import (
    choose_discard,
    choose_discard_cached,
    choose_discard_memo,
    new_memo,
    new_memo14,
    new_scratch14,
)
from ccmj_cli._kernels.tables import tables
from ccmj_cli.errors import HandError, UsageError
from ccmj_cli.rules import load_variant

Z999 = 3.2905267314919255  # two-sided 99.9% normal quantile

# 123m456p789s1112s: only 2s is a legal wait (3s reads 11s + 123s: no pung), 3 live copies
# (`ccmj waits`); 136 - 13 own = 123 unseen. Non-dealer win 门清+夹胡(单调)+自摸 = 4 fan:
# two non-dealers pay 8, the dealer 16 -> 32 base units (RULES §5).
TANKI = "123m456p789s1112s"
# 111m999p111s55z77z: 双碰 on 5z/7z, 2 + 2 live, every win 飘胡 (飘 does not stack with 夹).
PIAO = "111m999p111s55z77z"
# 222m456p345s66s78m: 断幺九 waiting 6m/9m; only 9m is legal (RULES §3), and no bao look.
DUANYAO = "222m456p345s66s78m"


def run(hand, **kw):
    kw.setdefault("seed", 7)
    return O.odds(hand, **kw).results[0]


def within(p_hat, p, n, z=Z999):
    half = z * math.sqrt(max(p * (1 - p), 1e-12) / n)
    return abs(p_hat - p) <= half + 1e-12


def hyper(u, k, n):
    """1 - C(u-k, n)/C(u, n): some winning copy among n draws."""
    return 1 - (math.comb(u - k, n) / math.comb(u, n) if n <= u - k else 0.0)


# --- exact answers, hand-worked -------------------------------------------------------------


def test_exact_one_draw_is_live_over_unseen():
    r = run(TANKI, declare=True, draws=1, trials=0, exact=True)
    assert r.exact.p_win == pytest.approx(3 / 123)  # 3 live 2s among 123 unseen
    assert r.exact.expected_payment == pytest.approx(3 / 123 * 32)
    assert r.exact.p_jiahu == pytest.approx(3 / 123)  # 单调 is 夹胡


def test_exact_two_draws():
    r = run(TANKI, declare=True, draws=2, trials=0, exact=True)
    assert r.exact.p_win == pytest.approx(1 - (120 * 119) / (123 * 122))
    assert sum(r.exact.by_round) == pytest.approx(r.exact.p_win)


def test_exact_visible_tiles_shrink_the_pool():
    r = run(TANKI, declare=True, draws=5, visible="2s5z5z", trials=0, exact=True)
    assert r.exact.p_win == pytest.approx(hyper(120, 2, 5))


def test_exact_known_bao_adds_mobao_copies():
    # bao 5z: its copy leaves the pool (122 drawable); 3 other 5z win by 摸宝, 3 2s by 自摸
    r = run(TANKI, declare=True, draws=6, bao="5z", trials=0, exact=True)
    p = hyper(122, 6, 6)
    assert r.exact.p_win == pytest.approx(p)
    assert r.exact.by_method["zimo"] == pytest.approx(p / 2)
    assert r.exact.by_method["mobao"] == pytest.approx(p / 2)


def test_exact_bao_on_a_wait_is_duibao_at_the_look():
    r = run(TANKI, declare=True, draws=3, bao="2s", trials=0, exact=True)
    assert r.exact.p_win == 1.0 and r.exact.by_method["duibao"] == 1.0
    assert r.exact.by_round[0] == 1.0


def test_exact_unknown_bao_mixes_over_the_pool():
    # 对宝 when the rolled bao is a 2s (3 of 123); else 摸宝 copies of the rolled kind join
    u, n = 123, 4
    pool = np.full(34, 4)
    pool[[0, 1, 2, 12, 13, 14, 24, 25, 26]] -= 1
    pool[18] -= 3
    pool[19] -= 1
    assert pool.sum() == u
    p = 3 / u
    for b in range(34):
        if b != 19 and pool[b]:
            p += pool[b] / u * hyper(u - 1, 3 + pool[b] - 1, n)
    r = run(TANKI, declare=True, draws=n, bao="unknown", trials=0, exact=True)
    assert r.exact.p_win == pytest.approx(p)


def test_exact_not_available_explains_why():
    # an undeclared tenpai hand: the exact analysis (its best play changes the wait when that
    # pays, so it wins more than keeping it: 1 - (120/123)^3 in the hand_only pool)
    r = run(TANKI, draws=3, trials=0, exact=True)
    assert r.exact.solver == "dp" and r.exact.p_win > 1 - (120 / 123) ** 3
    r = run(TANKI, declare=True, draws=3, opponents="random", trials=100, exact=True)
    assert r.exact is None and "self-draws" in r.exact_note
    r = run(TANKI, declare=True, draws=3, bao="5z", visible="555z", trials=100, exact=True)
    assert r.exact is None and "换宝" in r.exact_note


@pytest.mark.parametrize(
    "kw,why",
    [
        (dict(declare=True, opponents="random"), "self-draws"),
        (dict(declare=True, bao="5z", visible="555z"), "换宝"),
    ],
)
def test_exact_only_without_an_exact_answer_is_an_error(kw, why):
    # --trials 0 --exact asks for the exact answer alone: never zeros presented as one
    with pytest.raises(UsageError, match=f"no exact answer.*{why}"):
        O.odds(TANKI, draws=3, trials=0, exact=True, **kw)


# --- Monte Carlo against the exact answers ---------------------------------------------------

CASES = [
    (TANKI, dict(draws=10)),
    (TANKI, dict(draws=17, visible="2s")),
    (PIAO, dict(draws=8)),
    (DUANYAO, dict(draws=12)),
    (TANKI, dict(draws=8, bao="5z")),
    (TANKI, dict(draws=8, bao="unknown")),
    (PIAO, dict(draws=5, bao="unknown")),
    ("234m456p789s11z[777z]", dict(wall=30)),
]


@pytest.mark.parametrize("hand,kw", CASES)
def test_monte_carlo_within_999_interval_of_exact(hand, kw):
    n = 20_000
    r = run(hand, declare=True, trials=n, exact=True, seed=2026, **kw)
    ex = r.exact
    assert ex is not None, r.exact_note
    assert within(r.p_win, ex.p_win, n)
    for name in O.METHODS:
        assert within(r.by_method[name], ex.by_method[name], n)
    assert within(r.p_jiahu, ex.p_jiahu, n) and within(r.p_piao, ex.p_piao, n)
    sd = (r.payment_ci95[1] - r.payment_ci95[0]) / (2 * O.Z95) * math.sqrt(n)
    assert abs(r.expected_payment - ex.expected_payment) <= Z999 * sd / math.sqrt(n) + 1e-9
    assert sum(r.by_round) == pytest.approx(r.p_win)


def test_piao_wins_score_piao_not_jiahu():
    r = run(PIAO, declare=True, draws=10, trials=5000, exact=True)
    assert r.p_piao == r.p_win > 0 and r.p_jiahu == 0
    assert r.exact.p_piao == pytest.approx(r.exact.p_win)


def test_duanyaojiu_may_not_look_at_the_bao():
    r = run(DUANYAO, declare=True, draws=10, bao="unknown", trials=5000)
    assert r.p_bao_blocked == 1.0
    assert r.by_method["mobao"] == r.by_method["duibao"] == 0
    # a variant that lets 断幺九 look brings 摸宝 back
    v = load_variant(None)
    opts = dict(v.to_dict(), bao_forbidden_without_yaojiu=False)
    import types

    from ccmj_cli.rules import Variant

    v2 = Variant("test", types.MappingProxyType(opts))
    r2 = run(DUANYAO, declare=True, draws=10, bao="unknown", trials=5000, rules=v2)
    assert r2.p_bao_blocked == 0 and r2.by_method["mobao"] > 0


def test_interval_narrows_as_one_over_root_t():
    def half(n):
        lo, hi = run(TANKI, declare=True, draws=17, trials=n).ci95
        return (hi - lo) / 2

    ratio = half(2_000) / half(32_000)  # 16x the trials: a quarter of the width
    assert 3.4 < ratio < 4.7


# --- reproducibility ---------------------------------------------------------------------------

TIMING = {"seconds", "trials_per_second"}


def same(a, b):
    da = {k: v for k, v in a.to_dict().items() if k not in TIMING}
    db = {k: v for k, v in b.to_dict().items() if k not in TIMING}
    return da == db


def test_same_seed_same_answer_whatever_the_threads():
    kw = dict(declare=True, draws=12, bao="unknown", opponents="random", trials=6_500, seed=11)
    assert same(run(TANKI, threads=1, **kw), run(TANKI, threads=2, **kw))
    kw = dict(draws=8, opponents="random", trials=1_500, seed=3)  # the discard policy at work
    assert same(
        run("13m468p1379s157z7z", threads=1, **kw), run("13m468p1379s157z7z", threads=2, **kw)
    )


def test_seed_changes_the_sample():
    a = run(TANKI, declare=True, draws=12, trials=3000, seed=1)
    b = run(TANKI, declare=True, draws=12, trials=3000, seed=2)
    assert a.p_win != b.p_win


def test_chunk_seeds_are_fixed_by_seed_and_trials():
    cs = O.chunk_seeds(5, 2500)
    assert [n for _, n in cs] == [1000, 1000, 500]
    assert cs == O.chunk_seeds(5, 2500) and cs != O.chunk_seeds(6, 2500)


def test_wall_is_every_fourth_tile():
    # 40 tiles left, the player draws every fourth: the same 10 draws as --draws 10
    a = run(TANKI, declare=True, wall=40, trials=3000)
    b = run(TANKI, declare=True, draws=10, trials=3000)
    assert same(a, b)


# --- the model ---------------------------------------------------------------------------------


def test_dianpao_only_with_random_opponents():
    assert run(TANKI, declare=True, draws=10, trials=3000).by_method["dianpao"] == 0
    r = run(TANKI, declare=True, draws=10, trials=3000, opponents="random")
    # three random discards per round: P(win) rises well above the self-draw exact value
    assert r.by_method["dianpao"] > 0.1 and r.p_win > hyper(123, 3, 10)


def test_fourteen_tiles_one_result_per_discard_best_first():
    rep = O.odds("123m456p789s11123s", declare=True, draws=6, trials=2000, seed=1, exact=True)
    assert len(rep.results) == 12  # distinct tiles in the hand
    ps = [round(r.exact.p_win, 12) for r in rep.results]  # best first by the exact answer
    assert ps == sorted(ps, reverse=True)
    mc = O.odds("123m456p789s11123s", declare=True, draws=6, trials=2000, seed=1, exact=False)
    ps = [r.p_win for r in mc.results]  # else by the estimate
    assert ps == sorted(ps, reverse=True)
    by = {r.discard: r for r in rep.results}
    # every discard has an exact answer (the exact analysis, hand_only pool); 2s and 3s leave
    # the same tenpai (one wait, 3 live of 123), declared and locked: 1 - (120/123)^6
    assert all(r.exact is not None for r in rep.results)
    assert by["3s"].exact.p_win == pytest.approx(1 - (120 / 123) ** 6, abs=1e-12)
    assert {r.discard for r in rep.results[:2]} == {"2s", "3s"}
    assert "discards" in rep.to_dict()


def test_policy_reaches_tenpai_and_wins_sometimes():
    r = run("134m2467p25799s77z", draws=17, trials=1000, declare=True)
    assert 0 < r.p_win < r.p_tenpai <= 1
    assert r.p_declared == r.p_tenpai


def test_interrupt_keeps_the_estimate_so_far():
    calls = []

    def progress(done, total):
        calls.append(done)
        raise KeyboardInterrupt

    r = run(TANKI, declare=True, draws=17, trials=400_000, progress=progress)
    assert r.interrupted and r.trials < 400_000 and r.trials % O.CHUNK == 0


@pytest.mark.parametrize(
    "kw,err",
    [
        (dict(draws=3, wall=12), UsageError),
        (dict(bao="5z"), UsageError),  # the bao needs --declare
        (dict(declare=True, bao="2s2s"), HandError),
        (dict(declare=True, bao="2s", visible="2s2s2s"), HandError),  # no 2s left unseen
        (dict(trials=0), UsageError),
        (dict(threads=0), UsageError),
        (dict(opponents="smart"), UsageError),
        (dict(draws=500), UsageError),
        (dict(visible="2s2s2s2s"), HandError),  # with the hand's 2s, five copies
    ],
)
def test_bad_input(kw, err):
    with pytest.raises(err):
        O.odds(TANKI, **kw)


def test_bad_hand_size():
    with pytest.raises(HandError):
        O.odds("123m456p789s11s", trials=10)


# --- the memoized discard policy is the shared policy ------------------------------------------


def _random_states(n, rng):
    """14-tile hands near a win: four sets + a pair with 0-3 tiles replaced at random."""
    out = []
    while len(out) < n:
        c = np.zeros(34, np.int64)
        for _ in range(4):
            if rng.random() < 0.5:
                s = rng.integers(0, 3) * 9 + rng.integers(0, 7)
                c[s : s + 3] += 1
            else:
                c[rng.integers(0, 34)] += 3
        c[rng.integers(0, 34)] += 2
        for _ in range(rng.integers(0, 4)):
            held = np.flatnonzero(c)
            c[rng.choice(held)] -= 1
            c[rng.integers(0, 34)] += 1
        if c.max() <= 4:
            view = np.array([rng.integers(0, 5 - x) for x in c], np.int64)
            out.append((c.astype(np.uint8), view))
    return out


def _policy_reference(c, view):
    """The documented policy, from the public per-discard analysis (hand.shanten of 14 tiles):
    fewest shanten, then most live wanted tiles (legal waits at tenpai, else useful tiles),
    then the lowest tile."""
    from ccmj_cli import hand as H
    from ccmj_cli import tiles as T

    r = H.shanten(T.format_counts(c))
    best = min(d.shanten for d in r.discards)
    scored = []
    for d in r.discards:
        if d.shanten != best:
            continue
        wanted = d.legal_waits if d.shanten == 0 else d.useful
        live = sum(int(view[T.tile_index(u.tile)]) for u in wanted)
        scored.append((-live, T.tile_index(d.tile)))
    return min(scored)[1]


def test_policy_matches_the_documented_rule_with_and_without_memo():
    from ccmj_cli._kernels.useful import useful_tables

    rv, tb, ut = load_variant(None).vector, tables(), useful_tables()
    ms = np.zeros(MS_LEN, np.int64)
    memo = new_memo()
    wbuf = np.zeros((34, 5), np.int64)
    shs = np.zeros(34, np.int64)
    rng = np.random.default_rng(4)
    memo14, sc = new_memo14(), new_scratch14()
    states = _random_states(300, rng)
    for c, view in states + states:  # twice: the second pass answers from the memos
        own = c.copy()
        want = _policy_reference(c, view)
        assert choose_discard(c.copy(), ms, own.copy(), view, rv, tb, ut) == want, (c, view)
        got = choose_discard_memo(c.copy(), ms, own.copy(), view, rv, tb, wbuf, memo, shs)
        assert got == want, (c, view)
        got = choose_discard_cached(c.copy(), ms, own.copy(), view, rv, tb, wbuf, memo14, sc)
        assert got == want, (c, view)
    assert len(memo) > 0 and memo14[0][1][0] > 0 and memo14[1][1][0] > 0


def test_huanbao_at_the_first_look_rerolls_the_bao():
    # bao 5z with the other three 5z visible: at the first look it is replaced (换宝). The new
    # bao is uniform over the 119 drawable tiles (none is a 5z), then the old 5z returns to the
    # wall: 119 drawable again. Hand-worked law: 对宝 if the new bao is a 2s, else the 3 live 2s
    # plus the new bao kind's other copies win within n draws.
    n, trials = 8, 40_000
    pool = np.full(34, 4)
    pool[[0, 1, 2, 12, 13, 14, 24, 25, 26]] -= 1
    pool[18] -= 3
    pool[19] -= 1
    pool[31] = 0  # 5z: three visible, one is the bao
    assert pool.sum() == 119
    p = 0.0
    for b in range(34):
        if pool[b]:
            p += pool[b] / 119 * (1.0 if b == 19 else hyper(119, 3 + pool[b] - 1, n))
    r = run(TANKI, declare=True, draws=n, bao="5z", visible="555z", trials=trials, seed=5)
    assert r.exact is None
    assert within(r.p_win, p, trials)
    assert within(r.by_method["duibao"], 3 / 119, trials)


# --- property tests: random tenpai hands -------------------------------------------------------

import naive  # noqa: E402
from hypothesis import HealthCheck, assume, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from strategies import examples  # noqa: E402

from ccmj_cli import tiles as T  # noqa: E402

DEFAULT_OPTS = load_variant(None).options


def naive_waits(hand: str):
    """The naive reference's waits (tests/naive.py), not ccmj's: live legal waits, tenpai, look."""
    return naive.waits(T.parse_hand(hand), DEFAULT_OPTS)


def naive_live_total(hand: str) -> int:
    """Live copies of the legal waits: 4 - the player's own copies of each (nothing visible)."""
    own = naive.own_counts(T.parse_hand(hand))
    return sum(4 - own[t] for t in naive_waits(hand).live_legal)


@st.composite
def tenpai_hands(draw):
    """Four sets + a pair with one tile taken out: 13 tiles with at least one structural wait."""
    c = np.zeros(34, np.int64)
    for _ in range(4):
        if draw(st.booleans()):
            s = draw(st.integers(0, 2)) * 9 + draw(st.integers(0, 6))
            c[s : s + 3] += 1
        else:
            c[draw(st.integers(0, 33))] += 3
    c[draw(st.integers(0, 33))] += 2
    assume(c.max() <= 4)
    held = [t for t in range(34) if c[t]]
    c[draw(st.sampled_from(held))] -= 1
    return T.format_tiles(c.astype(np.uint8))


@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.filter_too_much])  # fmt: skip
@given(tenpai_hands(), st.integers(1, 20))
def test_exact_is_hypergeometric_over_the_live_legal_waits(hand, n):
    # the winning tiles come from the naive reference, not from ccmj's own waits
    assume(naive_waits(hand).tenpai)
    r = O.odds(hand, declare=True, draws=n, trials=0, exact=True).results[0]
    assert r.exact.p_win == pytest.approx(hyper(123, naive_live_total(hand), n))
    assert sum(r.exact.by_method.values()) == pytest.approx(r.exact.p_win)
    assert sum(r.exact.by_round) == pytest.approx(r.exact.p_win)
    assert r.exact.p_jiahu <= r.exact.p_win + 1e-12 and r.exact.p_piao <= r.exact.p_win + 1e-12


Z_RANDOM = 4.0  # two-sided 99.994%: a run of this property fails by chance well under 0.1%


# Random hands, new ones every run (no derandomize): a fixed handful would test the same six
# hands forever. The seed is drawn too, so a failure replays exactly (Hypothesis prints it).
@settings(max_examples=examples(6), deadline=None,
          suppress_health_check=[HealthCheck.filter_too_much])  # fmt: skip
@given(
    tenpai_hands(),
    st.integers(3, 17),
    st.sampled_from(["none", "unknown"]),
    st.integers(0, 2**32 - 1),
)
def test_monte_carlo_agrees_with_exact_on_random_tenpai_hands(hand, n, bao, seed):
    w = naive_waits(hand)
    assume(w.tenpai and (w.can_look_bao or bao == "none"))
    trials = 8_000
    r = O.odds(hand, declare=True, draws=n, bao=bao, trials=trials, seed=seed, exact=True)
    r = r.results[0]
    assert r.exact is not None, r.exact_note
    assert within(r.p_win, r.exact.p_win, trials, z=Z_RANDOM)
    assert within(r.p_jiahu, r.exact.p_jiahu, trials, z=Z_RANDOM)


def test_dealer_raises_every_share():
    # the player deals: each loser pays 门清+夹胡+自摸+平胡+庄 = 5 fan = 16, three pay 48
    r = run(TANKI, declare=True, draws=1, trials=0, exact=True, dealer=True)
    assert r.exact.expected_payment == pytest.approx(3 / 123 * 48)
    # with the bao, a 摸宝 win adds 宝: 6 fan = 32 each (RULES §5 check: dealer 门清+夹+自摸+宝)
    r = run(TANKI, declare=True, draws=1, trials=0, exact=True, dealer=True, bao="5z")
    assert r.exact.expected_payment == pytest.approx(3 / 122 * 48 + 3 / 122 * 96)


def test_beyond_exact_reach_with_trials_0_does_not_promise_a_monte_carlo(monkeypatch):
    """`--trials 0 --exact` on a hand beyond the exact search's reach: an error that says why and
    what to do, not "the Monte Carlo answer is given instead" with no answer given; with trials
    the note keeps saying so, and the Monte Carlo answer is there. (The search is made to run
    out of states at once: the hand and the budget do not matter here.)"""
    from ccmj_cli import exact as X

    def beyond(*a, **k):
        raise X.BeyondReach("more than 1 states")

    monkeypatch.setattr(X, "analyze", beyond)
    hand = "123m469p789s1557z"
    with pytest.raises(UsageError) as e:
        O.odds(hand, draws=3, trials=0, exact=True)
    msg = str(e.value)
    assert msg.startswith("no exact answer: beyond exact reach (more than 1 states)"), msg
    assert "given instead" not in msg and "--trials T" in msg
    r = O.odds(hand, draws=3, trials=1000, seed=1, exact=True).results[0]
    assert r.exact is None and r.trials == 1000 and "given instead" in r.exact_note


def test_threads_are_capped_at_the_cores(monkeypatch):
    """`--threads 5000` makes no 5000-thread pool (11 GB measured): at most the machine's cores,
    as simulate clamps them; the answer does not depend on it (same seed, same numbers)."""
    import os

    seen = []
    real = O.ThreadPoolExecutor

    class Recording(real):
        def __init__(self, max_workers=None, **kw):
            seen.append(max_workers)
            super().__init__(max_workers=max_workers, **kw)

    monkeypatch.setattr(O, "ThreadPoolExecutor", Recording)
    many = O.odds(TANKI, declare=True, draws=3, trials=2000, seed=3, threads=5000).results[0]
    one = O.odds(TANKI, declare=True, draws=3, trials=2000, seed=3, threads=1).results[0]
    assert seen[0] == min(5000, os.cpu_count() or 1) and seen[1] == 1, seen
    assert many.p_win == one.p_win


def test_the_policy_caches_are_kept_per_meld_tiles_not_only_their_summary():
    # 45m|666m: a pung of the wait is a wait held three times; 45m|[777m] the same summary (one
    # pung, man, no 幺九) with other tiles: the caches of one are not the other's
    from ccmj_cli.hand import hand_to_play

    v = load_variant()

    def setup(text):
        h, _ = hand_to_play(text, v, "odds")
        return O._setup(h, h.concealed.copy(), np.zeros(34, np.int64), 0, 0)

    a, b = setup("45m456p789s11z[666m]"), setup("45m456p789s11z[777m]")
    assert np.array_equal(a.c, b.c) and np.array_equal(a.ms, b.ms)
    assert O._policy_memo(a, v.vector) is not O._policy_memo(b, v.vector)
    assert O._policy_memo(b, v.vector) is O._policy_memo(setup("45m456p789s11z[777m]"),
                                                         v.vector)  # fmt: skip
