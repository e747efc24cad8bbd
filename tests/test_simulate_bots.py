"""Policies as weights (defence, value, 换宝), per-seat statistics, the paired comparison and the
CSV export of ``ccmj simulate``.

Decision tests build a table state by hand (a seat's tiles, who declared, what he discarded,
what is public) and ask the bot's kernel what it does, under the baseline weights and under the
weight that should change the decision; wall tests play a whole hand from a fixed wall.
"""

import csv
import io
import json

import numpy as np
import pytest
from test_simulate_mil import HUANBAO, with_
from test_simulate_table import JUNK, build_wall, play
from typer.testing import CliRunner

from ccmj_cli import tiles as T
from ccmj_cli._kernels.table import driver as K
from ccmj_cli._kernels.table import bots as B
from ccmj_cli._kernels.table import layout as TL
from ccmj_cli._kernels.tables import tables
from ccmj_cli._kernels.useful import useful_tables
from ccmj_cli.cli import app
from ccmj_cli.replay import _record
from ccmj_cli.rules import load_variant
from ccmj_cli.simulate import (
    POLICIES,
    compare,
    load_policy,
    policy_matrix,
    session_plan,
    simulate,
    table_params,
)

V = load_variant()
RV = np.asarray(V.vector, np.int64)
TB = tables()
E, S, W, N = 0, 1, 2, 3
runner = CliRunner()


def weights(base="baseline", **kw):
    w = list(POLICIES[base])
    for k, v in kw.items():
        w[TL.KNOB_NAMES.index(k)] = v
    return np.array([w] * 4, np.int64)


def seat_weights(seat, base="baseline", **kw):
    """Baseline bots in three seats; ``seat`` plays ``base`` with the weights ``kw``."""
    w = np.array([POLICIES["baseline"]] * 4, np.int64)
    w[seat] = weights(base, **kw)[0]
    return w


def discards_of(ev, seat, after=0):
    """The tiles ``seat`` discards from event ``after`` on, by name."""
    return [T.tile_name(e[2]) for e in ev[after:] if e[0] == TL.EV_DISCARD and e[1] == seat]


def declared_at(ev, seat):
    return next(i for i, e in enumerate(ev) if e[0] == TL.EV_DECLARE and e[1] == seat)


def table_with(seat, hand, declared=(), discarded=None, public=""):
    """A table state where ``seat`` holds ``hand``; ``declared`` seats have declared and
    ``discarded`` {seat: tiles} they discarded; ``public`` tiles lie in the pond."""
    tab = K.new_table()
    g, ps, conc, *_rest = tab
    pond = tab[10]
    ps[:, :] = 0
    for t in T.parse_tiles(hand):
        conc[seat, t] += 1
    for s in declared:
        ps[s, TL.P_DECLARED] = 1
    for s, text in (discarded or {}).items():
        for t in T.parse_tiles(text):
            ps[s, TL.P_DISC] |= 1 << t
            pond[t] += 1
    for t in T.parse_tiles(public):
        pond[t] += 1
    return tab


def discard(tab, seat, bots):
    ws = K.new_work(useful_tables())
    d, _n = B.choose_discard_at(tab, ws, seat, -1, bots, RV, TB)
    return T.tile_name(int(d))


# ------------------------------------------------------------------ defence
def test_far_hand_folds_with_the_declarers_own_discard():
    # W: three sets (234m 567p 234s) and five loose tiles 1m 9p 5z 6z 7z: two tiles from
    # tenpai after any discard (shanten 2). S has declared and discarded 3m. The baseline
    # throws a loose tile and keeps its sets; with fold_shanten 2 the hand folds and throws
    # 3m, the one tile S cannot win on (his waits are locked and he discarded it).
    hand = "234m567p234s1m9p5z6z7z"
    tab = table_with(W, hand, declared=(S,), discarded={S: "3m"})
    assert discard(tab, W, weights()) != "3m"
    tab = table_with(W, hand, declared=(S,), discarded={S: "3m"})
    assert discard(tab, W, weights(fold_shanten=2)) == "3m"
    # nobody declared: the same weights play as the baseline
    tab = table_with(W, hand, discarded={S: "3m"})
    assert discard(tab, W, weights(fold_shanten=2)) == discard(
        table_with(W, hand, discarded={S: "3m"}), W, weights()
    )


def test_fold_without_a_safe_discard_throws_the_tile_with_fewest_readings():
    # W as above, S declared but discarded nothing W holds. Readings seen from W: 1m 单调 (a
    # copy unseen) + 1m-2m-3m 边 (2m, 3m unseen) = 2; an honor only 单调/对碰 = 1, but 5z/6z are
    # dead (the other three copies in the pond): 0 readings -> danger 1, the least; 5z is the
    # lowest index of the two.
    hand = "234m567p234s1m9p5z6z7z"
    tab = table_with(W, hand, declared=(S,), public="5z5z5z6z6z6z")
    assert discard(tab, W, weights(fold_shanten=2)) == "5z"


def test_tenpai_weighs_its_live_waits_against_the_deal_in_risk():
    # W: 123m456p789s11z55s + 5m: discarding 5m leaves tenpai on 1z/5s (双碰), but only one
    # copy is live (1z x1 and 5s x2 in the pond: 1z has one copy unseen, 5s none). S declared
    # and discarded 1m; 5m is a live reading for him. push_min_live 2: one live copy is not
    # enough, W folds with 1m (S's own discard); push_min_live 1: W pushes 5m for tenpai.
    hand = "123m456p789s11z55s5m"
    pub = "1z5s5s"
    tab = table_with(W, hand, declared=(S,), discarded={S: "1m"}, public=pub)
    assert discard(tab, W, weights()) == "5m"
    tab = table_with(W, hand, declared=(S,), discarded={S: "1m"}, public=pub)
    assert discard(tab, W, weights(push_min_live=2)) == "1m"
    tab = table_with(W, hand, declared=(S,), discarded={S: "1m"}, public=pub)
    assert discard(tab, W, weights(push_min_live=1)) == "5m"


# The fold wall. E (dealer) is tenpai at the deal: 111m 456p 789s 99m 56s + 7z; he discards 7z
# and declares at once on 4s/7s (两面; 111m is his 刻, 1m/9m/9s his 幺九). From then on he
# discards every tile he draws: 2m, 9p, 8s, then draws 7s and wins (自摸). The bao (3+4 = 7
# stacks, position 123) is 2s: no wait of his, never drawn. W is four or more tiles from tenpai
# the whole hand (12m 45m 78p 99s 4s and four honors: no set). S and N hold scattered tiles
# and only discard; nobody calls.
FOLD_HANDS = {
    E: "111m456p789s99m56s7z",
    S: "47m258p369s2z3z4z5z6z",
    W: "12m45m78p99s4s2z3z6z7z",
    N: "369m147p258s2z3z4z6z",
}
# draws from the head, one round (S W N E) a string: W draws 4z, 1s, 2z, 1s; E 2m, 9p, 8s, 7s
FOLD_DRAWS = "".join(("3p4z5z2m", "3p1s5z9p", "1s2z7m8s", "1s1s7m7s"))


def readings_danger(t, own, seen, declarer_discards):
    """A test-side reading of the fold rule as README "Policies" states it (not the engine's
    code): 0 for a tile the declarer discarded himself; else 1 + its live readings: 单调/对碰
    when a copy is unseen, and each 两面/边/坎 whose two other tiles are both unseen."""
    if t in declarer_discards:
        return 0

    def unseen(k):
        return 4 - own[k] - seen[k]

    reads = 1 if unseen(t) > 0 else 0
    if t < 27:
        r = t % 9
        for a, b in ((-2, -1), (-1, 1), (1, 2)):
            if 0 <= r + a <= 8 and 0 <= r + b <= 8 and unseen(t + a) > 0 and unseen(t + b) > 0:
                reads += 1
    return 1 + reads


def test_far_hand_folds_for_the_whole_hand_on_a_fixed_wall():
    # E declares at his first discard (FOLD_HANDS above). W, 4 from tenpai, with
    # fold_shanten 2 folds for the rest of the hand, discard by discard:
    # - 7z (draws 4z): E's own discard (现物), danger 0;
    # - 2m (draws 1s): E has just discarded 2m: 现物 again, although it breaks W's 12m (the
    #   baseline throws the loose 2z here);
    # - 2z (draws 2z): no 现物 left. S and N have discarded their 2z, W holds the other two:
    #   no copy unseen, no reading: danger 1, the least (3z/4z/6z have a copy unseen: 2; a
    #   suit tile 3 or more);
    # - 2z again (draws 1s): still no copy unseen, danger 1.
    # Then E draws 7s and wins: W never threw a tile E could win on.
    # The baseline W throws 7z, 2z, 2z and then 4s, E's wait: E wins on it (点炮).
    wall = build_wall(FOLD_HANDS, draws=FOLD_DRAWS, at={123: "2s"})
    out = play(wall)
    ev = out["ev"]
    assert ev[:2] == [(TL.EV_DISCARD, E, T.tile_index("7z"), 0, 0), (TL.EV_DECLARE, E, -1, 0, 0)]
    assert discards_of(ev, W) == ["7z", "2z", "2z", "4s"]
    r = out["result"]
    assert (r["winner"], r["how"], r["tile"], r["discarder"]) == ("E", "dianpao", "4s", "W")

    out = play(wall, bots=seat_weights(W, fold_shanten=2))
    ev = out["ev"]
    assert ev[:2] == [(TL.EV_DISCARD, E, T.tile_index("7z"), 0, 0), (TL.EV_DECLARE, E, -1, 0, 0)]
    assert discards_of(ev, W) == ["7z", "2m", "2z", "2z"]
    r = out["result"]
    assert (r["winner"], r["how"], r["tile"]) == ("E", "zimo", "7s")
    # every W discard checked against the rule, from the events alone: W's tiles (the deal,
    # his draws, minus his discards), the tiles W has seen (every discard: nobody called), E's
    # own discards. A 现物 whenever W held one, else a tile of the fewest readings.
    assert {e[0] for e in ev} <= {
        TL.EV_DRAW, TL.EV_DISCARD, TL.EV_DECLARE, TL.EV_BAO, TL.EV_LOOK, TL.EV_WIN,
    }  # fmt: skip
    own = np.zeros(34, np.int64)
    for pos in range(26, 39):  # W's 13 tiles of the deal (E deals: E, S, W, N, 13 each)
        own[wall[pos]] += 1
    seen = np.zeros(34, np.int64)
    by_e = set()
    checked = 0
    for e in ev:
        kind, seat, t = e[0], e[1], e[2]
        if kind == TL.EV_DRAW and seat == W:
            own[t] += 1
        elif kind == TL.EV_DISCARD:
            if seat == W:
                held = [k for k in range(34) if own[k]]
                dangers = {k: readings_danger(k, own, seen, by_e) for k in held}
                assert dangers[t] == min(dangers.values()), (T.tile_name(t), dangers)
                if by_e & set(held):
                    assert t in by_e  # a 现物 first
                checked += 1
                own[t] -= 1
            seen[t] += 1
            if seat == E:
                by_e.add(t)
    assert checked == 4


def test_tenpai_pushes_with_enough_live_waits_else_folds_on_a_fixed_wall():
    # E declares at his first discard, 8p (E: 111m 456p 789s 99m 56s + 8p: waits 4s/7s). W is
    # dealt 123s 678m 789p 11z 55m: tenpai on 1z/5m (双碰, both legal: 111z or 555m is the 刻,
    # 1s/9p the 幺九). W draws 5s, a tile E has not discarded (dangerous): discarding it keeps
    # W tenpai with 2 + 2 = 4 live copies of legal waits (W holds two 1z and two 5m; none
    # seen). push_min_live 4 (and the baseline, 0 = always push; the `defence` preset, 2): W
    # throws 5s and declares (fold_shanten does not act: W is tenpai).
    # push_min_live 5: not enough, W folds: 8p, E's own discard (现物), breaking his 789p.
    hands = {
        E: "111m456p789s99m56s8p",
        S: "47m258p369s2z3z4z5z6z",
        W: "123s678m789p11z55m",
        N: "369m147p258s2z3z4z6z",
    }
    wall = build_wall(hands, draws="3p5s5z2m3p8m5z9p", at={123: "2s"})
    five_s, eight_p = T.tile_index("5s"), T.tile_index("8p")
    for bots in (weights(), seat_weights(W, push_min_live=4), seat_weights(W, "defence")):
        ev = play(wall, bots=bots)["ev"]
        assert ev[:2] == [(TL.EV_DISCARD, E, eight_p, 0, 0), (TL.EV_DECLARE, E, -1, 0, 0)]
        assert ev[4:7] == [
            (TL.EV_DRAW, W, five_s, 0, 0),
            (TL.EV_DISCARD, W, five_s, 0, 0),
            (TL.EV_DECLARE, W, -1, 0, 0),
        ]
    ev = play(wall, bots=seat_weights(W, push_min_live=5))["ev"]
    assert ev[4:6] == [(TL.EV_DRAW, W, five_s, 0, 0), (TL.EV_DISCARD, W, eight_p, 0, 0)]
    assert ev[6][:2] == (TL.EV_DRAW, N)  # no 报听: the hand is no longer tenpai


# ------------------------------------------------------------------ value
def test_piao_chase_keeps_pairs_and_throws_the_loose_tile_least_likely_to_pair():
    # W: five pairs (11m 22p 33s 55z 66z) and 9m 4p 7s 1z loose. 飘 needs four pungs and a
    # pair: every loose tile is worth the same to it, so it throws the one with the fewest
    # unseen copies: 4p (three in the pond). piao_pairs 5 chases (five pairs held).
    hand = "11m22p33s55z66z9m4p7s1z"
    tab = table_with(W, hand, public="4p4p4p")
    assert discard(tab, W, weights(piao_pairs=5)) == "4p"
    # with six required pairs it does not chase: the baseline's choice
    tab = table_with(W, hand, public="4p4p4p")
    base = discard(table_with(W, hand, public="4p4p4p"), W, weights())
    assert discard(tab, W, weights(piao_pairs=6)) == base


def test_piao_chase_pungs_every_pair_and_never_chows():
    # W holds 11m22p33s55z66z9m4p7s (13 tiles, five pairs). Chasing 飘, offered 3s he pungs
    # it (one more pung toward an all-pung hand); offered 3p by the previous player he could
    # chow 234p (2p and 4p held), but a chow ends 飘: no chow.
    hand = "11m22p33s55z66z9m4p7s"
    ws = K.new_work(useful_tables())
    bots = weights(piao_pairs=5)
    tab = table_with(W, hand)
    assert B.wants_pung(tab, ws, W, T.tile_index("3s"), bots, RV, TB)
    assert B.best_chow(tab, ws, W, T.tile_index("3p"), bots, RV, TB) == -1


# The 飘 wall. E (dealer): 123m 456m 789m 11s 99s + 3p: he discards 3p, tenpai on 1s/9s but
# with no legal wait (no 筒: a suit missing), so he never declares and discards what he
# draws. S: 11m 22p 33s 55z 66z + 4p 9m 7s, five pairs. E's 3p is a chow for S (2p, 4p held);
# E later discards 5z (S pungs it: the pair offered), S draws 6z (a pung in hand), 1m (111m)
# and 3s. W and N hold scattered tiles; the bao (7 stacks: position 123) is 6s, no wait of S's.
PIAO_HANDS = {
    E: "123m456m789m1s1s9s9s3p",
    S: "11m22p33s55z66z4p9m7s",
    W: "258m369p147s2z3z4z8s",
    N: "36m147p258s9s2z3z4z7z",
}
# draws from the head, in turn: S 8p, W 5p, N 6p, E 5z; (S pungs, W chows S's 4p) N 7p, E 8p,
# S 6z, W 7p, N 5p, E 9p, S 1m, W 2s, N 2s, E 2s, S 3s
PIAO_DRAWS = "8p5p6p5z7p8p6z7p5p9p1m2s2s2s3s"


def test_piao_chase_pungs_pairs_never_chows_and_wins_piao_on_a_fixed_wall():
    # Baseline S chows E's 3p at once (234p: 3 -> 2 from tenpai, the K_CALL rule); with that
    # chow his win (自摸 on 1m) cannot be 飘胡.
    # piao_pairs 4 (S holds five pairs/pungs, no chow): S chases 飘 all hand long:
    # - no chow on 3p; he draws 8p and throws 9m: every loose tile (9m 4p 7s 8p) leaves the
    #   same tiles to four pungs and a pair, each has three copies unseen: the lowest, 9m;
    # - E's 5z: pung (a pair offered); then 4p (4p 7s 8p: three unseen each, the lowest);
    # - draws 6z (666z in hand) and throws 8p: two copies unseen (E discarded one) against 7s's
    #   three: the least likely to pair up;
    # - draws 1m (111m): throws 7s, leaving 111m 22p 33s 666z [555z]: all-pung tenpai on
    #   2p/3s, both live and legal: he declares;
    # - draws 3s: 自摸 飘胡 (111m 22p 333s 666z [555z]: four pungs and a pair).
    wall = build_wall(PIAO_HANDS, draws=PIAO_DRAWS, at={123: "6s"})
    three_p = T.tile_index("3p")
    out = play(wall)
    ev = out["ev"]
    assert ev[1] == (TL.EV_CHOW, S, three_p, T.tile_index("2p"), E)
    r = out["result"]
    assert r["winner"] == "S" and not r["piao"]

    out = play(wall, bots=seat_weights(S, piao_pairs=4))
    ev = out["ev"]
    assert ev[0] == (TL.EV_DISCARD, E, three_p, 0, 0)
    assert ev[1] == (TL.EV_DRAW, S, T.tile_index("8p"), 0, 0)  # no chow
    assert not [e for e in ev if e[0] == TL.EV_CHOW and e[1] == S]
    claims = [e for e in ev if e[1] == S and e[0] in (TL.EV_PUNG, TL.EV_MINGKONG, TL.EV_CHOW)]
    assert claims == [(TL.EV_PUNG, S, T.tile_index("5z"), 0, E)]
    i = declared_at(ev, S)
    assert discards_of(ev[:i], S) == ["9m", "4p", "8p", "7s"]
    r = out["result"]
    assert (r["winner"], r["how"], r["tile"], r["piao"]) == ("S", "zimo", "3s", True)
    assert r["winning_hand"] == "111m22p33s666z[555z]"


def test_piao_chase_goes_on_after_its_own_pung():
    # The 飘 wall with E's second draw 3p instead of 8p: after S's pung of 5z, E discards 3p
    # again. piao_pairs 5 (the `value` preset's weight; S holds five pairs): S refuses the
    # first 3p (a chow ends 飘) and pungs 5z, the pair offered; the same chow offered again, a
    # hand still chasing 飘 (four concealed pairs and a declared pung, no chow) refuses it too:
    # a pung the chase made counts toward piao_pairs (it once did not, and the hand chowed).
    wall = build_wall(PIAO_HANDS, draws="8p5p6p5z7p8p3p7p5p9p1m2s2s2s3s", at={123: "6s"})
    ev = play(wall, bots=seat_weights(S, piao_pairs=5))["ev"]
    assert ev[1] == (TL.EV_DRAW, S, T.tile_index("8p"), 0, 0)  # the first 3p: no chow
    assert (TL.EV_PUNG, S, T.tile_index("5z"), 0, E) in ev
    assert not [e for e in ev if e[0] == TL.EV_CHOW and e[1] == S]


def test_value_waits_prefer_the_jia_wait_when_declaring():
    # W: 555m 7p7p9p 111s 2s3s 444z. Two discards leave tenpai:
    # - 9p: 555m 77p 111s 23s 444z waits 1s/4s (两面): 1s has 1 copy unseen (W holds three),
    #   4s has 4: 5 live copies, no 夹;
    # - 7p: 555m 79p 11s+123s 444z waits 8p (夹): 4 live copies, each paying double.
    # The baseline counts copies (5 > 4): 9p. value_waits weighs what they pay (4 x 2 = 8 > 5):
    # 7p, the 夹 wait.
    hand = "555m779p111s23s444z"
    assert discard(table_with(W, hand), W, weights()) == "9p"
    assert discard(table_with(W, hand), W, weights(value_waits=1)) == "7p"


def test_declare_or_not_as_the_weights_say():
    # E (dealer): 78m234p456s555p33s + 7z: discarding 7z leaves tenpai on 6m/9m, legal only on
    # 9m (the 6m win has no 幺九): four live copies. The baseline declares at once. With
    # declare_min_live 5 he does not; he draws 1p and discards 4p: now 6m is legal too (1p is
    # a 幺九) with 6m three live (N discarded one) + 9m four = 7 copies: he declares then.
    # declare_min_live 8 never declares this hand.
    wall = build_wall({E: "78m234p456s555p33s7z", **JUNK}, draws="5z5z5z1p5z")
    ev = play(wall)["ev"]
    assert ev[1] == (TL.EV_DECLARE, E, -1, 0, 0)
    ev = play(wall, bots=weights(declare_min_live=5))["ev"]
    assert ev[1][0] == TL.EV_DRAW
    first = next(i for i, e in enumerate(ev) if e[0] == TL.EV_DECLARE and e[1] == E)
    assert ev[first - 2] == (TL.EV_DRAW, E, T.tile_index("1p"), 0, 0)
    assert ev[first - 1] == (TL.EV_DISCARD, E, T.tile_index("4p"), 0, 0)
    ev = play(wall, bots=weights(declare_min_live=8))["ev"]
    assert all(not (e[0] == TL.EV_DECLARE and e[1] == E) for e in ev)


def test_bao_change_decision():
    # S waits on 3m/6m (45m beside 111p, 99p, 123s, 789s); the bao is 1z, no wait of his: he
    # changes it when declared and his weight allows it; a bao that is a live legal wait (6m)
    # he keeps
    tab = table_with(S, "45m111p99p123s789s")
    ws = K.new_work(useful_tables())
    tab[0][TL.G_BAO] = T.tile_index("1z")
    bots = weights()
    assert not B.wants_bao_change(tab, ws, S, bots, RV, TB)  # not declared: no bao of his own
    tab[1][S, TL.P_DECLARED] = 1
    assert B.wants_bao_change(tab, ws, S, bots, RV, TB)
    assert not B.wants_bao_change(tab, ws, S, weights(bao_change=0), RV, TB)
    tab[0][TL.G_BAO] = T.tile_index("6m")
    assert not B.wants_bao_change(tab, ws, S, bots, RV, TB)


def test_bao_change_is_each_declared_players_own_choice_on_a_fixed_wall():
    # The 换宝 wall of test_simulate_mil (bao_change optional): E declares on 1z/5s, rolls 3+4:
    # the bao is 7z (position 123); N pungs S's 7z: three public, the bao is dead. There a
    # declared E with the baseline's weight asks for 换宝 on his turn (7z is no wait of his)
    # and the next dice (1+1) give 1z: 对宝. With bao_change 0, E never asks: he draws on
    # with the dead 7z as his bao, turn after turn. S (baseline weight), his hand changed by
    # the draws, declares later; on his turn he asks (the choice is the declared player's, by
    # his own weight), the same dice give 1z, and E, looking at it at his next draw, wins 对宝.
    rv = with_(RV, RV_BAO_CHANGE=1)  # bao_change: optional
    wall = build_wall(
        HUANBAO, draws="5z5z5z5z7z", at={123: "7z", 133: "1z", 100: "1z", 101: "5s", 102: "5s"}
    )
    seven_z, one_z = T.tile_index("7z"), T.tile_index("1z")
    bao_kinds = (TL.EV_BAO, TL.EV_BAO_CHANGE, TL.EV_LOOK)
    ev = play(wall, dice=(3, 4, 1, 1, 6, 6), rv=rv)["ev"]
    assert [e for e in ev if e[0] in bao_kinds] == [
        (TL.EV_BAO, E, seven_z, 7, 123),
        (TL.EV_LOOK, E, seven_z, 0, 0),
        (TL.EV_BAO_CHANGE, E, seven_z, 0, 0),
        (TL.EV_BAO, E, one_z, 2, 133),
        (TL.EV_LOOK, E, one_z, 0, 0),
    ]
    out = play(wall, dice=(3, 4, 1, 1, 6, 6), rv=rv, bots=seat_weights(E, bao_change=0))
    ev = out["ev"]
    assert [e for e in ev if e[0] in bao_kinds] == [
        (TL.EV_BAO, E, seven_z, 7, 123),
        (TL.EV_LOOK, E, seven_z, 0, 0),
        (TL.EV_LOOK, S, seven_z, 0, 0),  # S has declared: his first look, at the dead 7z
        (TL.EV_BAO_CHANGE, S, seven_z, 0, 0),
        (TL.EV_BAO, S, one_z, 2, 133),
        (TL.EV_LOOK, S, one_z, 0, 0),
        (TL.EV_LOOK, E, one_z, 0, 0),
    ]
    i_pung = ev.index((TL.EV_PUNG, N, seven_z, 0, S))
    i_change = ev.index((TL.EV_BAO_CHANGE, S, seven_z, 0, 0))
    e_draws = [e for e in ev[i_pung:i_change] if e[0] == TL.EV_DRAW and e[1] == E]
    assert len(e_draws) >= 5  # E played turn after turn on a dead bao
    assert declared_at(ev, S) < i_change
    r = out["result"]
    assert (r["winner"], r["how"], r["tile"]) == ("E", "duibao", "1z")


# ------------------------------------------------------------------ policy files
def test_policy_file_sets_weights(tmp_path):
    p = tmp_path / "p.yaml"
    p.write_text("extends: defence\nfold_shanten: 3\ndeclare_min_live: 2\n")
    w = load_policy(str(p))
    assert w[TL.KNOB_NAMES.index("fold_shanten")] == 3
    assert w[TL.KNOB_NAMES.index("declare_min_live")] == 2
    assert w[TL.KNOB_NAMES.index("push_min_live")] == POLICIES["defence"][6]
    names, bots = policy_matrix(f"baseline,{p},baseline,baseline")
    assert names[1] == str(p) and tuple(bots[1]) == w and tuple(bots[0]) == POLICIES["baseline"]


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("fold: 2\n", "unknown key 'fold'"),
        ("fold_shanten: -1\n", "bad value for 'fold_shanten'"),
        ("fold_shanten: 99\n", "bad value for 'fold_shanten'"),
        ("call: two\n", "bad value for 'call'"),
        ("extends: nobody\n", "bad extends 'nobody'"),
        ("- 1\n- 2\n", "expected a mapping"),
        ("a: [\n", "not valid YAML"),
    ],
)
def test_bad_policy_file_exit_3_naming_it(tmp_path, text, needle):
    p = tmp_path / "bad.yaml"
    p.write_text(text)
    r = runner.invoke(app, ["simulate", "-n", "4", "--policy", str(p)])
    assert r.exit_code == 3, r.output
    assert needle in r.output and "Traceback" not in r.output


def test_unknown_policy_name_is_a_usage_error():
    r = runner.invoke(app, ["simulate", "-n", "4", "--policy", "sneaky"])
    assert r.exit_code == 2 and "bad --policy 'sneaky'" in r.output


# ------------------------------------------------------------------ statistics
@pytest.fixture(scope="module")
def stats():
    return simulate(hands=600, seed=5, policy="strong,baseline,defence,value").to_dict()


def test_per_seat_statistics_add_up(stats):
    d = stats
    n = d["hands"]
    seats = d["seats"]
    assert sum(s["win_rate"]["count"] for s in seats.values()) == n - d["draw_rate"]["count"]
    assert sum(s["dealt_rate"]["count"] for s in seats.values()) == n
    assert seats["E"]["dealt_rate"]["count"] >= n // 16  # E deals every session's first hand
    dianpao = d["by_method"]["dianpao"]["count"]
    assert sum(s["dealin_rate"]["count"] for s in seats.values()) == dianpao
    for m in ("zimo", "dianpao", "mobao", "duibao"):
        assert sum(s["wins_by_method"][m] for s in seats.values()) == d["by_method"][m]["count"]
    for k, s in seats.items():
        assert sum(s["wins_by_method"].values()) == s["win_rate"]["count"]
        assert s["mean_payout"] == d["mean_payout"][k]
    assert sum(s["declare_rate"]["count"] for s in seats.values()) == d["declare_rate"]["count"]
    assert [seats[k]["policy"] for k in "ESWN"] == ["strong", "baseline", "defence", "value"]


def test_result_path_gives_the_same_statistics_as_the_plain_run():
    a = simulate(hands=200, seed=9).to_dict()
    b = simulate(hands=200, seed=9, csv=io.StringIO()).to_dict()
    for k in ("seconds", "hands_per_second", "threads"):
        a.pop(k), b.pop(k)
    assert a == b


# ------------------------------------------------------------------ paired comparison
def test_compare_pairs_the_same_walls_exactly():
    # the two arms are fed the same session seeds: every hand's wall and dice are the same
    # under different policies, and each session's first hand (E deals in both) is dealt the
    # same tiles
    seeds, lengths = session_plan(40, 5, 7)
    tp = table_params(V)
    ra = _record(np.array(seeds), np.zeros(5, np.int64), lengths, RV, tp, weights())
    rb = _record(np.array(seeds), np.zeros(5, np.int64), lengths, RV, tp, weights("strong"))
    assert (ra["walls"] == rb["walls"]).all() and (ra["dices"] == rb["dices"]).all()
    assert (ra["results"][:, TL.R_DEALER][::8] == 0).all()
    assert (rb["results"][:, TL.R_DEALER][::8] == 0).all()


def test_compare_of_an_arm_with_itself_is_exactly_zero():
    d = compare("baseline", "baseline", hands=300, seed=4)
    assert d["hands"] == 300
    for k, v in d["compare"].items():
        assert v["a"] == v["b"], k
        assert v["diff"]["mean"] == 0 and v["diff"]["sd"] == 0, k


def test_compare_rules_arm_and_cli(tmp_path):
    f = tmp_path / "bz.yaml"
    f.write_text("extends: default\ndianpao: discarder_covers_all\n")
    r = runner.invoke(
        app, ["simulate", "-n", "200", "--seed", "1", "--compare", f"rules:{f}", "rules:default",
              "--json"],
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    c = d["compare"]
    # the same walls, the same bots: only the money differs
    for k in ("draw_rate", "by_method.dianpao", "seats.E.win_rate", "seats.S.dealin_rate"):
        assert c[k]["diff"]["sd"] == 0, k
    assert d["a"]["rules"] != d["b"]["rules"]
    r = runner.invoke(app, ["simulate", "-n", "64", "--compare", "strong,baseline", "baseline"])
    assert r.exit_code == 2 and "bad --compare 'strong,baseline'" in r.output  # (the option given)
    r = runner.invoke(app, ["simulate", "-n", "64", "--compare", "strong", "baseline"])
    assert r.exit_code == 0 and "A − B" in r.output


# ------------------------------------------------------------------ CSV
def test_csv_rows_sum_to_the_json_totals(tmp_path):
    out = tmp_path / "hands.csv"
    r = runner.invoke(
        app, ["simulate", "-n", "300", "--seed", "2", "--csv", str(out), "--json",
              "--policy", "value,baseline,strong,baseline"],
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert len(rows) == d["hands"] == 300
    assert [int(x["hand"]) for x in rows] == list(range(1, 301))
    for s in "ESWN":
        pay = sum(int(x[f"pay_{s}"]) for x in rows)
        assert pay == pytest.approx(d["mean_payout"][s]["mean"] * 300)
        kong = sum(int(x[f"kong_{s}"]) for x in rows)
        assert kong == pytest.approx(d["kong_money"]["mean_per_seat"][s] * 300)
        assert sum(x["winner"] == s for x in rows) == d["win_rate"][s]["count"]
        assert sum(x["dealer"] == s for x in rows) == d["seats"][s]["dealt_rate"]["count"]
    for x in rows:
        assert sum(int(x[f"pay_{s}"]) for s in "ESWN") == 0
        if x["winner"]:
            items = x["items"].split()
            fan = 1 + ("menqing" in items) + ("jiahu" in items) + 2 * ("piao" in items)
            fan += ("zimo" in items) + ("bao" in items)
            assert int(x["fan"]) == fan, x
        else:
            assert x["how"] == "huang" and x["items"] == ""
    assert not list(tmp_path.glob(".hands.csv.*"))  # written through a temporary file


def test_csv_with_log_is_refused(tmp_path):
    r = runner.invoke(
        app, ["simulate", "-n", "4", "--csv", str(tmp_path / "a.csv"), "--log",
              str(tmp_path / "a.jsonl")],
    )  # fmt: skip
    assert r.exit_code == 2 and "--csv and --log" in r.output
    assert not (tmp_path / "a.csv").exists()


def test_baseline_plays_as_before_the_weights():
    # Pinned from `ccmj simulate -n 200 --seed 5 --json` run at 4e053dc (before the policy
    # weights, per-seat statistics and P_DISC existed): the baseline's new weights are all off,
    # so the same seed must give the same hands.
    d = simulate(hands=200, seed=5).to_dict()
    assert {s: d["win_rate"][s]["count"] for s in "ESWN"} == {"E": 50, "S": 39, "W": 49, "N": 47}
    assert {m: v["count"] for m, v in d["by_method"].items()} == {
        "zimo": 32, "dianpao": 122, "mobao": 19, "duibao": 12,
    }  # fmt: skip
    assert d["draw_rate"]["count"] == 15 and d["declare_rate"]["count"] == 305
    assert {s: round(d["mean_payout"][s]["mean"] * 200) for s in "ESWN"} == {
        "E": 278, "S": -282, "W": 91, "N": -87,
    }  # fmt: skip
    assert round(d["discards_per_hand"] * 200) == 8382
