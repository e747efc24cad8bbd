"""Legal distance (tiles to add for a legal Changchun win) against tests/naive.py and by hand."""

import naive
import numpy as np
import pytest
import strategies as S
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ccmj_cli import tiles as T
from ccmj_cli._kernels import legal as G
from ccmj_cli._kernels.layout import MS_LEN, RV_QUEMEN
from ccmj_cli._kernels.shape import shanten
from ccmj_cli._kernels.tables import tables
from ccmj_cli.rules import load_variant

DEFAULT = load_variant()
_MEMOS: dict = {}


def dist(text: str, v=DEFAULT) -> int:
    """The kernel's legal distance of a hand (concealed tiles beside its melds)."""
    h = T.parse_hand(text, v.meld_rules)
    memo = _MEMOS.get(id(v)) or G.new_memo(v.vector)
    d, memo = G.distance(h.concealed.copy(), h.meld_summary(), v.vector, memo)
    _MEMOS[id(v)] = memo
    return int(d)


def naive_legal(concealed, ms, v) -> bool:
    hand = T.parse_hand(S.hand_text(concealed, ms))
    return naive.judge(S.counts(concealed), hand.melds, concealed[0], v.options).legal


# --- hand-worked -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "hand,want",
    [
        # 123m 456p 789s 111s 22s: complete, the pung 111s is its 刻: a legal win
        ("123m456p789s11122s", 0),
        # 123m 456p 789s 11s 234s: complete but no pung (刻), so not 0; one tile in and one
        # out cannot help (the five sets 123m 456p 789s 111s 234s already take 15 tiles), while
        # two do: one more 1s (111s) and one more 2s (pair 22s) -> 2
        ("123m456p789s11234s", 2),
        # waits 2s (111s 22s) and 3s (11s 123s: no pung): one legal wait -> 1
        ("123m456p789s1112s", 1),
        # 234m 456p 678s 55m 666s: complete with a pung, but every tile is 2-8 (no 幺九), so
        # not 0; one 1m in, the 4m out makes 123m 456p 678s 55m 666s, legal -> 1
        ("234m456p678s55m666s", 1),
    ],
)
def test_hand_worked(hand, want):
    assert dist(hand) == want


def test_pure_hand_needs_the_other_suits():
    # 123456789m 111z 2z (13 tiles, standard tenpai on 2z): no 饼, no 条 in the hand, so a
    # legal win needs two new sets (or a set and the pair) in p and s. Keep 111z as the pung
    # (刻 and 幺九), keep two m sets, make one p set and the pair in s: 3 + 2 = 5 tiles to add.
    assert dist("123456789m1112z") == 5


def test_four_melds_must_be_piao():
    # 手把一: one concealed tile beside four melds wins only as 飘胡 — beside a chow meld never
    assert dist("5z[123m][456p][789s][111z]") == G.INF
    # beside four pungs: the single tile's pair (distance 1)
    assert dist("5z[111m][444p][777s][222z]") == 1


def test_concealed_kong_under_shoubayi_ankong_concealed():
    # 7z [123m][222p](9999p)[345s]: four declared sets, one of them a concealed kong, and
    # chows among them. By default 手把一 (four declared sets) wins only as 飘胡, impossible
    # beside chow melds: no legal win at any distance. Under mil2024 (shoubayi_ankong_concealed)
    # the concealed kong's tiles count as concealed, so this is an ordinary 单吊 on 7z (中 pair;
    # 三色 by 123m/222p/345s, 幺九 by 1m/9p, 刻 by 222p): distance 1, and with the 7z drawn, 0.
    mil = load_variant("mil2024")
    assert dist("7z[123m][222p](9999p)[345s]") == G.INF
    assert dist("77z[123m][222p](9999p)[345s]") == G.INF
    assert dist("7z[123m][222p](9999p)[345s]", mil) == 1
    assert dist("77z[123m][222p](9999p)[345s]", mil) == 0
    # the option alone does it (nothing else of mil2024 is needed)
    only = S.variant_with(shoubayi_ankong_concealed=True)
    assert dist("7z[123m][222p](9999p)[345s]", only) == 1
    # an open kong is a declared set either way: still 手把一, no legal win
    assert dist("7z[123m][222p][9999p][345s]", mil) == G.INF


# --- against the reference ----------------------------------------------------------------------


@settings(max_examples=S.examples(300))
@given(S.complete_hands(), S.variants())
def test_complete_hands_are_distance_zero_exactly_when_legal(h, v):
    concealed, ms = h
    text = S.hand_text(concealed, ms)
    assert (dist(text, v) == 0) == naive_legal(concealed, ms, v), text


SHOUBAYI = {"shoubayi_ankong_concealed": True}


@settings(max_examples=S.examples(100))
@given(S.legal_complete_hands(opts=SHOUBAYI))
def test_complete_hands_under_shoubayi_ankong_concealed(h):
    # four melds with a concealed kong and chows: legal only under the option (the reference
    # judges it from the rule text)
    concealed, ms = h
    text = S.hand_text(concealed, ms)
    v = S.variant_with(**SHOUBAYI)
    assert (dist(text, v) == 0) == naive_legal(concealed, ms, v), text


@settings(max_examples=S.examples(300))
@given(S.tenpai_hands(), S.variants())
def test_tenpai_is_distance_one_exactly_with_a_legal_wait(h, v):
    text, _, rest, ms = h
    hand = T.parse_hand(text)
    own = hand.concealed.astype(int)
    for m in hand.melds:
        for x in m.tiles:
            own[x] += 1
    # (a wait whose four copies the hand holds cannot be drawn: '1112223333444s' waits on a
    # fifth 3s only, so a legal draw is two tiles away)
    legal = [t for t, ver in naive.waits(hand, v.options).verdicts.items()
             if ver.legal and own[t] < 4]  # fmt: skip
    d = dist(text, v)
    assert (d == 1) == bool(legal), (text, d, legal)
    assert d >= 1


def test_a_wait_on_a_fifth_copy_is_no_tenpai():
    # 111 222 3333 444s: with 飘 exempt from 三色全 it would win 飘 on a 3s, but all four 3s are
    # in the hand; drawing a 1s/2s/4s gives 1-shanten shapes at best: a legal win is 2 away
    v = S.variant_with(piao_exempt=True)
    assert dist("1112223333444s", v) == 2
    assert dist("1112223334445s", v) == 1  # (5s: 111 222 333 444 + 55s, 飘)


@st.composite
def few_set_hands(draw):
    """Two or three melds and random concealed tiles: 3k+1 or 3k+2 tiles, k = 1 or 2."""
    used = [0] * 34
    n = draw(st.integers(2, 3))
    ms = draw(S.melds(n, used))
    k = 4 - n
    size = 3 * k + draw(st.sampled_from([1, 2]))
    free = [t for t in range(34) for _ in range(4 - used[t])]
    picks = draw(st.lists(st.sampled_from(range(len(free))), min_size=size, max_size=size,
                          unique=True))  # fmt: skip
    return sorted(free[i] for i in picks), ms


@settings(max_examples=S.examples(60))
@given(few_set_hands(), S.variants())
def test_distance_equals_brute_force(h, v):
    concealed, ms = h
    text = S.hand_text(concealed, ms)
    hand = T.parse_hand(text)
    want = naive.legal_distance(S.counts(concealed), hand.melds, v.options)
    assume(want is not None or len(ms) == 2)  # (the brute force is slow to find nothing)
    got = dist(text, v)
    assert got == (G.INF if want is None else want), text


@settings(max_examples=S.examples(100))
@given(S.random_hands(), st.sampled_from(S.SUIT_PERMS))
def test_suit_symmetry(tiles, perm):
    text = S.text_of(tiles)
    assert dist(text) == dist(S.permute_text(text, perm))


@settings(max_examples=S.examples(100))
@given(S.random_hands(sizes=(13, 14)))
def test_legal_distance_is_at_least_the_standard_one(tiles):
    # a legal win is a complete hand, so it is never nearer than the standard form
    c = S.counts(tiles)
    assert dist(S.text_of(tiles)) >= shanten(c, tables()) + 1


@settings(max_examples=S.examples(60))
@given(S.random_hands(sizes=(13, 14)), S.variants())
def test_neighbours_equal_the_distance_of_each_neighbour(tiles, v):
    # the context path (other groups combined once) against a fresh distance per neighbour
    c = S.counts(tiles)
    ms = np.zeros(MS_LEN, np.int64)
    memo = G.new_memo(v.vector)
    for sign in (1, -1):
        out = np.zeros(34, np.int64)
        memo = G.neighbours(c, ms, v.vector, memo, sign, out)
        for t in range(34):
            if (sign > 0 and c[t] == 4) or (sign < 0 and c[t] == 0):
                assert out[t] == G.INF
                continue
            c2 = c.copy()
            c2[t] = int(c2[t]) + sign
            want, memo = G.distance(c2, ms, v.vector, memo)
            assert out[t] == want, (S.text_of(tiles), sign, t)


@settings(max_examples=S.examples(40))
@given(S.random_hands(sizes=(13,)), S.variants())
def test_swaps_equal_the_distance_of_each_draw_and_discard(tiles, v):
    c = S.counts(tiles)
    ms = np.zeros(MS_LEN, np.int64)
    memo = G.new_memo(v.vector)
    cx = G.new_context()
    memo = G.context(c, ms, v.vector, memo, cx)
    out = np.zeros(34, np.int64)
    for t in range(34):
        if c[t] == 4:
            continue
        memo = G.swaps(c, ms, v.vector, memo, cx, t, out)
        for x in range(34):
            c2 = c.copy()
            c2[t] += 1
            if c2[x] == 0:
                assert out[x] == G.INF
                continue
            c2[x] -= 1
            want, memo = G.distance(c2, ms, v.vector, memo)
            assert out[x] == want, (S.text_of(tiles), t, x)


@settings(max_examples=S.examples(40))
@given(st.lists(S.random_hands(sizes=(13,)), min_size=1, max_size=4), S.variants())
def test_start_facts_are_each_hands_distance_and_useful_tiles(hands, v):
    # the analysis's one call for its start hands against a fresh distance per hand and per
    # draw: useful = the tiles whose draw lowers the distance by one
    rows = np.array([S.counts(t) for t in hands], np.uint8)
    ms = np.zeros(MS_LEN, np.int64)
    dists, masks, memo = G.start_facts(rows, ms, v.vector, G.new_memo(v.vector))
    for r, c in enumerate(rows):
        d, memo = G.distance(c.copy(), ms, v.vector, memo)
        assert dists[r] == d
        for t in range(34):
            want = False
            if c[t] < 4:  # (a draw lowers the distance by one at most)
                c2 = c.copy()
                c2[t] += 1
                want = G.distance(c2, ms, v.vector, memo)[0] < d
            assert bool(masks[r] >> t & 1) == want, (S.text_of(hands[r]), t)


MELDED = ["12m3p[123s][555m]19p", "1m23p4s[111z][555m][999p]", "46m456p78s557z[777z]",
          "11m456p789s12z66z1s"]  # fmt: skip


@settings(max_examples=S.examples(40))
@given(st.one_of(S.random_hands(sizes=(13,)).map(S.text_of), st.sampled_from(MELDED)),
       S.variants())  # fmt: skip
def test_masks_give_the_distance_of_each_draw_and_discard(text, v):
    # one masked pass (mcontext, then mdraw per draw) against a fresh distance per neighbour:
    # d(c + t) = d - [t in nd], and after drawing t, d(c + t - x) = d14 + 1 - [x in rm]
    from ccmj_cli._kernels.layout import MS_SETS, RV_QIDUI

    h = T.parse_hand(text, v.meld_rules)
    ms = h.meld_summary()
    assume(not (v.vector[RV_QIDUI] and ms[MS_SETS] == 0))  # (七对 takes the other path)
    c = h.concealed.copy()
    memo, mk, mcx = G.new_memo(v.vector), G.new_masks(), G.new_mcontext()
    d, nd, memo, mk = G.mcontext(c.copy(), ms, v.vector, memo, mk, mcx)
    assert d == G.distance(c.copy(), ms, v.vector, memo)[0]
    for t in range(34):
        if c[t] == 4:
            continue
        c2 = c.copy()
        c2[t] += 1
        want, memo = G.distance(c2.copy(), ms, v.vector, memo)
        assert (G.INF if d >= G.INF else d - (nd >> t & 1)) == want, (text, t)
        d14, rm, memo, mk = G.mdraw(t, v.vector, memo, mk, mcx)
        assert d14 == want
        for x in range(34):
            if c2[x] == 0:
                continue
            c3 = c2.copy()
            c3[x] -= 1
            want3, memo = G.distance(c3, ms, v.vector, memo)
            assert (G.INF if d14 >= G.INF else d14 + 1 - (rm >> x & 1)) == want3, (text, t, x)


@st.composite
def pair_rich_counts(draw):
    """13 or 14 tiles, the first k of 14 drawn kinds doubled (some quads): hands near seven
    pairs, where the 七对 floor is low, and far from it."""
    n = draw(st.sampled_from((13, 14)))
    kinds = draw(st.lists(st.integers(0, 33), min_size=14, max_size=14))
    k = draw(st.integers(0, 7))
    c = np.zeros(34, np.uint8)
    for i, t in enumerate(kinds):
        add = 2 if i < k else 1
        if c[t] + add <= 4 and int(c.sum()) + add <= n:
            c[t] += add
    t = 0
    while int(c.sum()) < n:  # (repeated kinds left it short: fill in order)
        if c[t] < 4:
            c[t] += 1
        t = (t + 7) % 34
    return c


def seven_pairs_dp(c, quemen: bool) -> int:
    """The fewest tiles to add for seven pairs (a quad is two) with 三色全 (two suits under 缺门)
    and a 幺九 pair: a dynamic programme over the kinds, state (pairs, suits shown, a 幺九 pair),
    0, 1 or 2 pairs taken of each kind. The reference of the kernel's closed form."""
    cur = {(0, 0, False): 0}
    for x in range(34):
        nxt = {}
        for (p, suits, yj), v in cur.items():
            for k in range(3):
                if p + k > 7:
                    continue
                key = (p + k, suits | (1 << (x // 9) if k and x < 27 else 0),
                       yj or (k > 0 and (x >= 27 or x % 9 in (0, 8))))  # fmt: skip
                cost = v + max(0, 2 * k - int(c[x]))
                if cost < nxt.get(key, 99):
                    nxt[key] = cost
        cur = nxt
    return min(v for (p, suits, yj), v in cur.items()
               if p == 7 and yj and bin(suits).count("1") >= (2 if quemen else 3))  # fmt: skip


@settings(max_examples=S.examples(300))
@given(pair_rich_counts(), S.variants(), st.integers(0, 8))
def test_the_seven_pairs_distance_equals_the_dynamic_programme(c, v, bound):
    # the closed form (witnesses for the suits and 幺九, the cheapest pairs besides) against a
    # search over every choice of pairs; the floor never above it, the filter exact
    rv = v.vector
    q = int(G.qidui_distance(c, rv))
    assert q == seven_pairs_dp(c, bool(rv[RV_QUEMEN])), (S.text_of(np.repeat(np.arange(34), c)))
    assert int(G._qidui_floor(c)) <= q
    assert int(G._qidui_under(c, rv, bound)) == min(bound, q)
    assert int(G._qidui_under(c, rv, G.INF)) == q


def test_the_seven_pairs_floor_by_hand():
    # 1133m557799p1s2z: five pairs and two singles: two tiles pair them (seven pairs), and the
    # hand has every suit and a 幺九 pair (11m), so the floor is the distance
    c = T.parse_hand("1133m557799p1s2z").concealed
    assert int(G._qidui_floor(c)) == 2 and int(G.qidui_distance(c, DEFAULT.vector)) == 2
    # 11223344m5566p7s: six pairs and the 7s; pairing it gives every suit, and 11m is a 幺九 pair
    c = T.parse_hand("11223344m5566p7s").concealed
    assert int(G._qidui_floor(c)) == 1 and int(G.qidui_distance(c, DEFAULT.vector)) == 1
    # 1111m2222p3333s4z: three quads (six pairs) and a single: one tile, a 三色全 hand with 11m
    c = T.parse_hand("1111m2222p3333s4z").concealed
    assert int(G._qidui_floor(c)) == 1 and int(G.qidui_distance(c, DEFAULT.vector)) == 1
    # 2233445566778m: six pairs in one suit: the floor is 1, but a legal 七对 needs a pair of
    # each other suit, one of them 幺九 (11p and 99s in place of two pairs: four tiles)
    c = T.parse_hand("2233445566778m").concealed
    assert int(G._qidui_floor(c)) == 1 and int(G.qidui_distance(c, DEFAULT.vector)) > 1
