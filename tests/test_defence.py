"""Defence by value (the ``defend`` weight of the ``expert``): the payments it weighs, the chance
to reach a win, the chance a tile is a declarer's wait, and the discards it makes.

Payments are worked by hand from the payment table (base × 2^(fan − 1), 庄 and 点炮 one fan
each); ``reach_chance`` is checked against a slow recursion over the draws; decisions are table
states built by hand and asked of the bot's kernel with and without the weight.
"""

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from strategies import examples, random_hands, random_tiles, text_of
from test_simulate_bots import (
    FOLD_DRAWS,
    FOLD_HANDS,
    RV,
    TB,
    E,
    N,
    S,
    W,
    discards_of,
    seat_weights,
    table_with,
    weights,
)
from test_simulate_mil import with_
from test_simulate_table import build_wall, play

from ccmj_cli import tiles as T
from ccmj_cli._kernels import legal as LG
from ccmj_cli._kernels.layout import MS_LEN, N_FAN
from ccmj_cli._kernels.score import DIANPAO_COVERS_ALL
from ccmj_cli._kernels.table import bots as B
from ccmj_cli._kernels.table import driver as K
from ccmj_cli._kernels.table import layout as TL
from ccmj_cli._kernels.table.defence import payments, reach_chance, readings, wait_chance
from ccmj_cli._kernels.useful import useful_tables
from ccmj_cli.rules import load_variant
from ccmj_cli.simulate import POLICIES

QUANBAO = np.asarray(load_variant("quanbao").vector, np.int64)


def pays(rv, dealer=E):
    """``payments`` for W with nobody's meld claimed: (gain, dealin, later)."""
    g = np.zeros(TL.G_LEN, np.int64)
    g[TL.G_DEALER] = dealer
    ms = np.zeros((4, MS_LEN), np.int64)
    dealin, later = np.zeros(4), np.zeros(4)
    items, fan, pay = np.zeros(N_FAN, np.int64), np.zeros(4, np.int64), np.zeros(4, np.int64)
    gain = payments(W, ms, g, rv, items, fan, pay, dealin, later)
    return gain, list(dealin), list(later)


# ------------------------------------------------------------------ payments
def test_payments_of_a_concealed_non_dealer_by_hand():
    # W wins by a draw: 平胡 + 门清 + 自摸 = 3 fan, 4 from S and N, 4 fan = 8 from the dealer E:
    # 16. S wins on W's discard: 平胡 + 门清 + 点炮 = 3 fan, W pays 4; S wins by a draw: 3 fan,
    # W pays 4. E (the dealer) wins on W's discard: + 庄 = 4 fan = 8; by a draw 8 too.
    gain, dealin, later = pays(RV)
    assert gain == 16
    assert dealin == [8, 4, 0, 4]
    assert later == [8, 4, 0, 4]


def test_payments_under_discarder_covers_all():
    # 点炮全包 (quanbao): S winning on W's discard, W pays every share: his own 3 fan (4), E's
    # 平胡 + 门清 + 庄 (4) and N's 平胡 + 门清 (2): 10. A draw still costs W his share alone.
    gain, dealin, later = pays(QUANBAO)
    assert gain == 16
    assert dealin[S] == 10 and dealin[N] == 10
    assert later[S] == 4
    # E winning on W's discard: each loser pays 庄 too: W 4 fan (8) + S 3 (4) + N 3 (4) = 16
    assert dealin[E] == 16


# ------------------------------------------------------------------ reach_chance
def reach_reference(k, live, pool, n):
    """The chance of closing k steps in n draws, one draw at a time: j steps from the win, a
    draw closes one with the chance live * j / k / pool (at most 1)."""
    if k <= 0:
        return 1.0
    if n == 0 or live <= 0 or pool <= 0:
        return 0.0
    p = min(1.0, live * k / k / pool)
    return p * reach_reference(k - 1, live * (k - 1) / k, pool, n - 1) + (1 - p) * reach_reference(
        k, live, pool, n - 1
    )


def test_reach_chance_by_hand():
    assert reach_chance(0, 0, 100, 0) == 1.0
    assert reach_chance(1, 10, 100, 3) == pytest.approx(1 - 0.9**3)
    # two steps, half the pool helps: the first draw closes one with 1/2, the next with 1/4
    assert reach_chance(2, 50, 100, 2) == pytest.approx(0.5 * 0.25)
    assert reach_chance(2, 50, 100, 1) == 0.0  # too few draws
    assert reach_chance(1, 0, 100, 20) == 0.0  # no live copy


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 4), st.integers(1, 40), st.integers(40, 120), st.integers(0, 9))
def test_reach_chance_is_the_draw_by_draw_chance(k, live, pool, n):
    assert reach_chance(k, live, pool, n) == pytest.approx(reach_reference(k, live, pool, n))
    # more draws and more live copies never hurt, a farther hand never gains
    assert reach_chance(k, live, pool, n + 1) >= reach_chance(k, live, pool, n) - 1e-12
    assert reach_chance(k, live + 1, pool, n) >= reach_chance(k, live, pool, n) - 1e-12
    assert reach_chance(k + 1, live, pool, n) <= reach_chance(k, live, pool, n) + 1e-12


# ------------------------------------------------------------------ wait_chance
def test_wait_chance_by_hand():
    # Every copy unseen: an honor has one reading (单调), a 1 or 9 two (单调, 边), a 2 or 8
    # three, a 3..7 four: 7 + 3 * (2 + 3 + 4 * 5 + 3 + 2) = 97 readings in all.
    unseen = np.full(34, 4, np.int64)
    ps = np.zeros((4, TL.P_LEN), np.int64)
    m5 = T.parse_tiles("5m")[0]
    z1 = T.parse_tiles("1z")[0]
    assert readings(m5, unseen) == 4 and readings(z1, unseen) == 1
    assert wait_chance(m5, S, ps, unseen) == pytest.approx(1.6 * 4 / 97)
    assert wait_chance(z1, S, ps, unseen) == pytest.approx(1.6 / 97)
    # S discarded 5m: it is safe, and the other tiles share the 93 readings left
    ps[S, TL.P_DISC] |= 1 << m5
    assert wait_chance(m5, S, ps, unseen) == 0.0
    assert wait_chance(z1, S, ps, unseen) == pytest.approx(1.6 / 93)
    # 4m and 6m all seen: every sequence through 5m needs one of them: 单调 alone is left
    unseen[T.parse_tiles("4m")[0]] = 0
    unseen[T.parse_tiles("6m")[0]] = 0
    assert readings(m5, unseen) == 1


# ------------------------------------------------------------------ decisions
def discard_at(hand, head, rv=RV, declared=(S,), discarded=None, **kw):
    """W's discard from ``hand`` with the wall's head at ``head`` (tail 135): the expert, with
    the weights ``kw``."""
    tab = table_with(W, hand, declared=declared, discarded=discarded)
    tab[0][TL.G_HEAD] = head
    tab[0][TL.G_TAIL] = 135
    ws = K.new_work(useful_tables())
    d, _n = B.choose_discard_at(tab, ws, W, -1, weights("expert", **kw), rv, TB)
    return T.tile_name(int(d))


def distance_without(hand, tile):
    """The legal distance of ``hand`` less one ``tile``, no melds."""
    c = np.zeros(34, np.uint8)
    for t in T.parse_tiles(hand):
        c[t] += 1
    c[T.parse_tiles(tile)[0]] -= 1
    return LG.distance(c, np.zeros(MS_LEN, np.int64), RV, LG.new_memo(RV))[0]


def test_the_expert_defends_and_strong_does_not():
    assert POLICIES["expert"][TL.KNOB_NAMES.index("defend")] == 1
    assert POLICIES["strong"][TL.KNOB_NAMES.index("defend")] == 0


def test_a_safe_tile_that_keeps_the_distance_is_thrown_instead():
    # W: 234m 567p 234s and 4p 8p 5s 7s 9m. The offence throws 9m; S declared and discarded
    # 5p. Throwing 5p instead breaks 567p but keeps the legal distance (9m stays: the hand's
    # only 幺九) — so it costs no chance to win, and 5p cannot deal in: defend throws 5p, at
    # any point of the wall.
    hand = "234m567p234s4p8p5s7s9m"
    assert distance_without(hand, "9m") == distance_without(hand, "5p")
    for head in (40, 80, 110):
        assert discard_at(hand, head, discarded={S: "5p"}, defend=0) == "9m"
        assert discard_at(hand, head, discarded={S: "5p"}) == "5p"
    # nobody declared: the weight changes nothing
    assert discard_at(hand, 80, declared=(), discarded={S: "5p"}) == "9m"


def test_a_tenpai_pushes_while_a_draw_is_left():
    # W: 111m 456p 789s 99m 5s7s + 4m: throwing 4m leaves tenpai on 6s (夹胡: the 刻 111m,
    # 幺九 and three suits are there). S declared and discarded 9m and 1z: 9m is safe but
    # breaks the hand. With the wall's head at 115 W has one draw left ((135 - 115 + 1 - 14)
    # // 4): the win is still worth the risk and W pushes 4m; at 120 no draw is left, the hand
    # cannot win any more, and W throws the safe 9m.
    hand = "111m456p789s99m57s4m"
    for head in (40, 80, 110, 115):
        assert discard_at(hand, head, discarded={S: "9m1z"}) == "4m"
    assert discard_at(hand, 120, discarded={S: "9m1z"}) == "9m"
    assert discard_at(hand, 120, discarded={S: "9m1z"}, defend=0) == "4m"


def test_the_same_hand_folds_sooner_where_the_discarder_covers_all():
    # W one tile from tenpai: 1m 34m 6m 234p 7p 4s 678s 1z1z; the offence throws 7p. S
    # declared and discarded 2s 5s 3z 5s 1p 6m: 6m is safe. By default (all three pay a 点炮:
    # a deal-in costs W 4) W pushes 7p while the wall is long and throws 6m from head 95 on;
    # under 点炮全包 (a deal-in costs W 10) it throws 6m from the start.
    hand = "1m3m4m6m2p3p4p7p4s6s7s8s1z1z"
    disc = {S: "2s5s3z5s1p6m"}
    for head in (40, 60, 80):
        assert discard_at(hand, head, discarded=disc) == "7p"
        assert discard_at(hand, head, rv=QUANBAO, discarded=disc) == "6m"
    for head in (95, 110):
        assert discard_at(hand, head, discarded=disc) == "6m"
    for head in (40, 110):
        assert discard_at(hand, head, rv=QUANBAO, discarded=disc, defend=0) == "7p"


def risk(tile, disc, hand):
    """The chance (as ``wait_chance`` reads it) that ``tile`` deals into S, W holding ``hand``
    and S having discarded ``disc``."""
    tab = table_with(W, hand, declared=(S,), discarded={S: disc})
    unseen = np.full(34, 4, np.int64)
    for t in T.parse_tiles(hand) + T.parse_tiles(disc):
        unseen[t] -= 1
    return wait_chance(T.parse_tiles(tile)[0], S, tab[1], unseen)


@settings(max_examples=examples(40), deadline=None)
@given(random_hands(sizes=(14,)), random_tiles(4), st.integers(30, 120))
def test_defence_throws_the_offences_tile_or_a_safer_one(tiles, disc_tiles, head):
    hand = text_of(tiles)
    disc = text_of(disc_tiles)
    assume(all(tiles.count(t) + disc_tiles.count(t) <= 4 for t in set(tiles)))
    offence = discard_at(hand, head, discarded={S: disc}, defend=0)
    chosen = discard_at(hand, head, discarded={S: disc})
    assert chosen == offence or risk(chosen, disc, hand) < risk(offence, disc, hand)
    # a tile S discarded himself cannot deal in: the offence's choice stands
    if T.parse_tiles(offence)[0] in disc_tiles:
        assert chosen == offence
    # nobody declared: the weight changes nothing
    assert discard_at(hand, head, declared=(), discarded={S: disc}) == discard_at(
        hand, head, declared=(), discarded={S: disc}, defend=0
    )


# ------------------------------------------------------------------ whole hands
def test_the_expert_keeps_a_far_hand_out_of_the_declarers_wait_on_a_fixed_wall():
    # The fold wall (test_simulate_bots): E declares at once on 4s/7s; W, four tiles from a
    # legal win all hand, plays the expert. Its first three discards (7z, 2z, 2z) are the
    # offence's own choices and each is E's discard or a tile with one reading at most. At the
    # fourth (W holds 12m 45m 78p 99s 4s 11s 3z 4z 6z) the offence throws 4s, E's wait: 3z
    # keeps the same legal distance (4) with a single reading (单调), so defend throws 3z; E
    # wins by his own draw and W never deals in. Without defend the expert throws 4s into it.
    hand = "12m45m78p99s4s1s1s3z4z6z"
    assert distance_without(hand, "4s") == distance_without(hand, "3z") == 4
    wall = build_wall(FOLD_HANDS, draws=FOLD_DRAWS, at={123: "2s"})
    out = play(wall, bots=seat_weights(W, "expert"))
    assert discards_of(out["ev"], W) == ["7z", "2z", "2z", "3z"]
    r = out["result"]
    assert (r["winner"], r["how"], r["tile"]) == ("E", "zimo", "7s")
    out = play(wall, bots=seat_weights(W, "expert", defend=0))
    assert discards_of(out["ev"], W) == ["7z", "2z", "2z", "4s"]
    r = out["result"]
    assert (r["winner"], r["how"], r["tile"], r["discarder"]) == ("E", "dianpao", "4s", "W")


def test_the_expert_pushes_a_live_tenpai_and_wins_on_a_fixed_wall():
    # E declares at once on 4s/7s (his 8p discarded). W is dealt 123s 678m 789p 11z 55m, tenpai
    # on 1z/5m (双碰, four live copies, the hand concealed) and draws 5s, a tile E has not
    # discarded. The safe tile, 8p, breaks 789p: two tiles from a win instead of one. Early in
    # the wall the tenpai is worth far more than the small risk of 5s: the expert throws 5s,
    # declares, and wins on the 5m E must discard (点炮).
    hands = {
        E: "111m456p789s99m56s8p",
        S: "47m258p369s2z3z4z5z6z",
        W: "123s678m789p11z55m",
        N: "369m147p258s2z3z4z6z",
    }
    assert distance_without("123s678m789p11z55m5s", "5s") == 1
    assert distance_without("123s678m789p11z55m5s", "8p") == 2
    wall = build_wall(hands, draws="3p5s5z2m3p8m5z9p", at={123: "2s"})
    five_s = T.tile_index("5s")
    out = play(wall, bots=seat_weights(W, "expert"))
    assert out["ev"][4:7] == [
        (TL.EV_DRAW, W, five_s, 0, 0),
        (TL.EV_DISCARD, W, five_s, 0, 0),
        (TL.EV_DECLARE, W, -1, 0, 0),
    ]
    r = out["result"]
    assert (r["winner"], r["how"], r["tile"], r["discarder"]) == ("W", "dianpao", "5m", "E")


# ------------------------------------------------------------------ 换宝
def test_bao_change_by_value():
    # S declared, waiting on 3m/6m (45m beside 111p 99p 123s 789s); the bao, 1z, is dead and
    # no wait of his. A new bao wins for him when its kind is 3m or 6m: his self-drawn win pays
    # him 16 (4 + 4 + the dealer's 8). It wins for each other declared seat too, costing S 8
    # (the dealer E) or 4 (W, N) — with about 1.6 tile kinds of waits each, 5.8 unseen copies
    # as S reads them here (``wait_copies``). The expert changes it when his copies times 16
    # are at least the declarers' copies times their cost.
    rv = with_(RV, RV_BAO_CHANGE=TL.BAO_CHANGE_OPTIONAL)
    ws = K.new_work(useful_tables())

    def wants(declared, public=""):
        tab = table_with(S, "45m111p99p123s789s", declared=(S, *declared), public=public)
        tab[0][TL.G_BAO] = T.tile_index("1z")
        return B.wants_bao_change(tab, ws, S, weights("expert"), rv, TB)

    assert wants(())  # nobody else can win on it: always worth asking
    assert wants((N,))  # 8 copies x 16 against 5.8 x 4
    assert wants((E, W, N))  # 8 x 16 = 128 against 5.8 x (8 + 4 + 4) = 93
    # three copies of 3m and of 6m public: 2 x 16 = 32, below 5.4 x 16 = 87 for the others
    assert not wants((E, W, N), public="3m3m3m6m6m6m")
    assert wants((N,), public="3m3m3m6m6m6m")  # against one declarer: 32 against 22
    # without defence by value the weight alone decides, as the baseline does
    tab = table_with(S, "45m111p99p123s789s", declared=(S, E, W, N), public="3m3m3m6m6m6m")
    tab[0][TL.G_BAO] = T.tile_index("1z")
    assert B.wants_bao_change(tab, ws, S, weights("expert", defend=0), rv, TB)


def test_defence_on_top_of_standard_shanten():
    # defend without the legal distance (a policy file: extends baseline, defend 1) counts
    # standard shanten. W of the first decision test: throwing 5p costs a step by shanten
    # (567p is a set), so early it throws 9m as the baseline does; with no draw left (head
    # 120) its chance to win is nil and it throws the safe 5p.
    hand = "234m567p234s4p8p5s7s9m"
    for head, want in ((40, "9m"), (95, "9m"), (120, "5p")):
        tab = table_with(W, hand, declared=(S,), discarded={S: "5p"})
        tab[0][TL.G_HEAD] = head
        tab[0][TL.G_TAIL] = 135
        ws = K.new_work(useful_tables())
        d, _n = B.choose_discard_at(tab, ws, W, -1, weights("baseline", defend=1), RV, TB)
        assert T.tile_name(int(d)) == want


# ------------------------------------------------------------------ 报听 by value
def wants_declare(hand, rv=RV, policy="expert", declared=(), discarded=None, **kw):
    """Does W, holding the tenpai ``hand`` after his discard (the wall's head at 40), declare?
    (``declared`` seats have declared, ``discarded``: {seat: tiles} they discarded.)"""
    tab = table_with(W, hand, declared=declared, discarded=discarded)
    tab[0][TL.G_HEAD] = 40
    tab[0][TL.G_TAIL] = 135
    ws = K.new_work(useful_tables())
    return bool(B.wants_declare(tab, ws, W, weights(policy, **kw), rv, TB, 4))


def test_the_expert_declares_when_the_declared_line_is_worth_more():
    # W: 234m 567p 666s 22s 78s, tenpai on 9s alone (789s brings the hand its 幺九; with 6s it
    # would have none). Holding no 幺九 it may declare but may not look at the bao
    # (bao_forbidden_without_yaojiu): declared, it wins on the same 9s and only locks. The
    # expert stays open; the baseline, and the expert without the weight, declare at once.
    hand = "234m567p666s22s78s"
    assert wants_declare(hand, policy="baseline")
    assert wants_declare(hand, declare_value=0)
    assert not wants_declare(hand)
    # 1m for 4m: a 幺九 in the hand, so the bao can be looked at (对宝 on 9s, 摸宝 on its
    # kind's other copies): the declared line wins more often and pays the 宝 fan
    assert wants_declare("123m567p666s22s78s")
    # a room that lets a hand without 幺九 look at the bao: the same hand declares
    assert wants_declare(hand, rv=with_(RV, RV_BAO_FORBIDDEN_WITHOUT_YAOJIU=0))
    # a room where it may not even declare: no weight makes it
    assert not wants_declare(hand, rv=with_(RV, RV_DUANYAOJIU_MAY_DECLARE=0), policy="baseline")


def test_a_room_that_spares_a_declared_discarder_makes_declaring_worth_it():
    # The hand without 幺九 above (it may not look at the bao), S declared and has discarded
    # 1p 9p. Under 点炮全包 W, undeclared, pays all three shares when S wins on his discard;
    # declared, in a room whose 包庄 spares a declared discarder (cover_only_undeclared), his
    # own share only. Both lines throw the same draws at the same chance of S's wait, so
    # declaring lowers the cost of every throw and nothing else: W declares there, and stays
    # open where 包庄 covers declared discarders too.
    hand = "234m567p666s22s78s"
    quanbao = with_(RV, RV_DIANPAO=DIANPAO_COVERS_ALL)
    spared = with_(quanbao, RV_COVER_ONLY_UNDECLARED=1)
    s_threw = {S: "1p9p"}
    assert wants_declare(hand, rv=spared, declared=(S,), discarded=s_threw)
    assert not wants_declare(hand, rv=quanbao, declared=(S,), discarded=s_threw)
    assert not wants_declare(hand, rv=spared, discarded=s_threw)  # nobody to fear: nothing spared
