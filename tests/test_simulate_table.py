"""Fixed-wall replays of the table engine (RULES.md §6-§8) and invariants on random hands.

A fixed wall makes a hand deterministic: ``build_wall`` deals given hands (the engine's deal:
13 tiles to each seat counter-clockwise from the dealer, then the dealer's 14th), puts given
tiles at the head (draws) and the tail (replacement draws), and fills the rest with the unused
tiles. The expected payments are worked by hand from RULES.md §5 (fan table) and §7 (kong money).
"""

import numpy as np
import pytest

from ccmj_cli import hand as H
from ccmj_cli import tiles as T
from ccmj_cli._kernels import layout as L
from ccmj_cli._kernels.table import layout as TL
from ccmj_cli._kernels.table import wall as WL
from ccmj_cli.replay import play_wall, record, result_dict
from ccmj_cli.rules import load_variant
from ccmj_cli.simulate import POLICIES, session_plan, table_params

V = load_variant()
RV = np.asarray(V.vector, np.int64)
TP = table_params(V)
BOTS = np.array([POLICIES["baseline"]] * 4, np.int64)
E, S, W, N = 0, 1, 2, 3


def build_wall(hands, draws="", tail="", at=None, dealer=E):
    """A 136-tile wall (tile kinds in draw order) that deals ``hands`` {seat: text}."""
    wall = [-1] * 136
    used = [0] * 34

    def put(pos, t):
        assert wall[pos] == -1, f"position {pos} used twice"
        wall[pos] = t
        used[t] += 1

    for k in range(4):
        s = (dealer + k) % 4
        ts = T.parse_tiles(hands[s])
        assert len(ts) == (14 if k == 0 else 13), (s, len(ts))
        for i, t in enumerate(ts[:13]):
            put(13 * k + i, t)
        if k == 0:
            put(52, ts[13])
    for i, t in enumerate(T.parse_tiles(draws)):
        put(53 + i, t)
    for i, t in enumerate(T.parse_tiles(tail)):
        put(135 - i, t)
    for pos, text in (at or {}).items():
        put(pos, T.tile_index(text))
    assert max(used) <= 4, [T.tile_name(t) for t in range(34) if used[t] > 4]
    rest = [t for t in range(33, -1, -1) for _ in range(4 - used[t])]
    for pos in range(136):
        if wall[pos] == -1:
            wall[pos] = rest.pop()
    return np.array(wall, np.int64)


def play(wall, dealer=E, dice=(3, 4), rv=RV, bots=BOTS):
    d = np.array(list(dice) + [1] * (TL.N_DICE - len(dice)), np.int64)
    out = play_wall(wall, dealer, d, rv, TP, bots)
    out["result"] = result_dict(out["res"], out["conc"], out["mrec"], out["nm"])
    out["ev"] = [tuple(int(x) for x in e) for e in out["events"]]
    return out


def kinds(out):
    return [e[0] for e in out["ev"]]


def conserved(out, wall):
    """136 tiles: hands + meld tiles + discards + the wall that is left hold 4 of every kind."""
    total = out["conc"].astype(np.int64).sum(axis=0) + out["melded"].astype(np.int64).sum(axis=0)
    total = total + out["pond"] + np.bincount(wall[out["head"] : out["tail"] + 1], minlength=34)
    for pos in out["stranded"]:  # tiles the draws stepped over (the bao) stay in the wall
        total[wall[pos]] += 1
    return (total == 4).all()


# The dealer E: tenpai on 1z/5s (双碰) plus 7z, which is the only discard that keeps tenpai.
E_HAND = "123m456p789s11z55s7z"


def test_jiehu_nearest_counter_clockwise_wins():
    # S and W both wait on 7z (单调 on a dragon pair); E discards 7z: S, the nearer, wins.
    wall = build_wall(
        {E: E_HAND, S: "123m456p789s234s7z", W: "123p456m789m345s7z", N: "147m258p369s2z3z4z6z"}
    )
    out = play(wall)
    assert out["ev"][:2] == [(TL.EV_DISCARD, E, 33, 0, 0), (TL.EV_DECLARE, E, -1, 0, 0)]
    r = out["result"]
    assert (r["winner"], r["how"], r["tile"], r["discarder"]) == ("S", "dianpao", "7z", "E")
    assert out["res"][TL.R_JIEHU] == 1
    # S: 平胡1 + 门清1 + 夹胡1 (单调, and 独听) = 3; E pays +庄1 +点炮1 = 5 -> 16; W, N 3 -> 4.
    assert r["fan"] == 3 and r["jiahu"] and r["menqing"] and not r["piao"]
    assert r["payout"] == {"E": -16, "S": 24, "W": -4, "N": -4}
    assert r["next_dealer"] == "S"  # a non-dealer won: the deal passes on


JUNK = {S: "147m258p369s2z3z4z6z", W: "258m369p147s2z3z4z6z", N: "369m147p28s4s2z3z4z6z"}


def test_duibao_at_the_look():
    # E declares after discarding 7z; at his next draw he rolls 3+4 = 7 stacks from the tail:
    # position 135 - 2*6 = 123 holds 1z, one of his legal waits -> 对宝 at once.
    wall = build_wall(
        {E: E_HAND, **JUNK},
        draws="5z5z5z",
        at={123: "1z", 100: "1z", 101: "5s", 102: "5s", 99: "7z"},
    )
    out = play(wall, dice=(3, 4))
    ev = out["ev"]
    assert (TL.EV_BAO, E, 27, 7, 123) in ev
    assert (TL.EV_LOOK, E, 27, 0, 0) in ev
    r = out["result"]
    assert (r["winner"], r["how"], r["tile"]) == ("E", "duibao", "1z")
    # 平胡1 + 门清1 + 自摸1 + 宝1 = 4, +庄1 = 5 -> 16 from each of three (RULES §5 check values)
    assert r["fan"] == 4 and r["payout"] == {"E": 48, "S": -16, "W": -16, "N": -16}
    assert r["next_dealer"] == "E"  # the dealer won and stays
    assert out["conc"][E].sum() == 13  # 对宝 takes no tile
    assert conserved(out, wall)


def test_mobao_bao_stands_for_the_best_wait():
    # The bao is 9p (not a wait); E then draws 9p: 摸宝, the bao stands for 5s or 1z (equal fan;
    # the lower tile is kept). The physical 9p stays in E's hand.
    wall = build_wall(
        {E: E_HAND, **JUNK},
        draws="5z5z5z9p",
        at={123: "9p", 100: "1z", 101: "1z", 102: "5s", 103: "5s", 99: "7z"},
    )
    out = play(wall, dice=(3, 4))
    assert (TL.EV_LOOK, E, T.tile_index("9p"), 0, 0) in out["ev"]
    r = out["result"]
    assert (r["winner"], r["how"], r["tile"]) == ("E", "mobao", "5s")
    assert out["res"][TL.R_PHYS] == T.tile_index("9p")
    assert r["payout"] == {"E": 48, "S": -16, "W": -16, "N": -16}
    # the log's winning hand is a legal win by `ccmj check` (the bao read as 5s)
    assert H.check(r["winning_hand"], r["win_tile"], V).legal
    assert conserved(out, wall)


def test_bao_on_a_dead_tile_takes_the_tile_under_it():
    # S pungs E's 7z (S holds 7z7z): three 7z are public. E's roll (3+4 = 7 stacks) finds the 4th
    # 7z on top of the 7th stack from the tail (position 135 - 2*6 = 123): it cannot serve (its
    # kind is dead), so the bao is the tile under it (122, seed 000: "则可利用下层的牌作宝，上下
    # 互换"), 1z: one of E's legal waits -> 对宝 at the look. (This test used to pin the old
    # engine, which re-rolled up to 8 times and could leave the bao on a dead tile.)
    s_hand = "123m456p78s7z7z2z3z4z"
    wall = build_wall(
        {E: E_HAND, S: s_hand, W: "258m369p147s2z3z4z6z", N: "369m147p28s4s2z3z4z6z"},
        draws="5z5z5z",
        at={123: "7z", 122: "1z", 100: "1z", 101: "5s", 102: "5s"},
    )
    out = play(wall, dice=(3, 4, 1, 1))
    ev = out["ev"]
    assert (TL.EV_PUNG, S, 33, 0, E) in ev
    bao = [e for e in ev if e[0] in (TL.EV_BAO, TL.EV_BAO_CHANGE, TL.EV_NO_BAO)]
    assert bao == [(TL.EV_BAO, E, 27, 7, 122)]  # one roll, no 换宝
    r = out["result"]
    assert (r["winner"], r["how"], r["tile"]) == ("E", "duibao", "1z")
    assert r["payout"] == {"E": 48, "S": -16, "W": -16, "N": -16}
    assert out["res"][TL.R_DICE_USED] == 2


def test_huanbao_rerolls_with_fresh_dice():
    # E declares on 1z/5s (discarding 6z) and rolls 3+4 at his next draw: the bao is 7z at 123
    # (no 7z public yet). Then S draws the 4th 7z and discards it (his only tenpai-shaped
    # discard) and N pungs it (N holds 7z7z): three 7z public -> 换宝, the old tile returns and
    # the bao is rolled again with the NEXT two dice (1+1 = 2 stacks: the top of the 2nd stack
    # from the tail, 133 = 1z). At his next draw E looks again: 对宝 on 1z.
    wall = build_wall(
        {
            E: "123m456p789s11z55s6z",
            S: "123m456p789s22z56p",  # a tenpai shape with no legal wait: never declares
            W: JUNK[W],
            N: "369m147p28s4s7z7z3z4z",
        },
        draws="5z5z5z5z7z",
        at={123: "7z", 133: "1z", 100: "1z", 101: "5s", 102: "5s"},
    )
    out = play(wall, dice=(3, 4, 1, 1, 6, 6))
    ev = out["ev"]
    assert (TL.EV_PUNG, N, 33, 0, S) in ev
    bao = [e for e in ev if e[0] in (TL.EV_BAO, TL.EV_BAO_CHANGE, TL.EV_NO_BAO, TL.EV_LOOK)]
    assert bao == [
        (TL.EV_BAO, E, 33, 7, 123),
        (TL.EV_LOOK, E, 33, 0, 0),
        (TL.EV_BAO_CHANGE, -1, 33, 0, 0),
        (TL.EV_BAO, -1, 27, 2, 133),
        (TL.EV_LOOK, E, 27, 0, 0),
    ]
    r = out["result"]
    assert (r["winner"], r["how"], r["tile"]) == ("E", "duibao", "1z")
    assert out["res"][TL.R_DICE_USED] == 4
    assert conserved(out, wall)


def _bao_wall(kinds_at):
    wall = np.array([t // 4 for t in range(136)], np.int64)  # any wall; positions set below
    for pos, t in kinds_at.items():
        wall[pos] = T.tile_index(t)
    return wall


@pytest.mark.parametrize(
    "dead, tail, k, expect",
    [
        ((), 135, 1, 135),  # the top of the first stack from the tail
        ((), 135, 7, 123),  # 7 stacks: 135 - 2*6
        (("7z",), 135, 7, 122),  # the top cannot serve: the tile under it
        (("7z", "6z"), 135, 7, 121),  # neither: the next stack's top
        (("7z", "6z", "5z"), 135, 7, 120),  # ... and its lower tile
        ((), 134, 1, 133),  # a loose tile at the tail (134) is not a stack
        ((), 134, 2, 131),
        ((), 127, 5, 127),  # 4 stacks left between head 120 and tail 127: 5 goes round to 1
    ],
)
def test_find_bao_places_the_bao_on_a_live_tile(dead, tail, k, expect):
    from ccmj_cli._kernels.table.bao import find_bao

    wall = _bao_wall({123: "7z", 122: "6z", 121: "5z", 120: "4z", 135: "1m", 133: "2m"})
    g = np.zeros(TL.G_LEN, np.int64)
    g[TL.G_HEAD] = 120 if tail == 127 else 53
    g[TL.G_TAIL] = tail
    pond = np.zeros(34, np.int64)
    exposed = np.zeros(34, np.int64)
    for t in dead:  # three public copies: the kind is dead
        pond[T.tile_index(t)] = 2
        exposed[T.tile_index(t)] = 1
    assert find_bao(wall, g, pond, exposed, k, RV) == expect


def test_find_bao_never_loops_and_gives_up_when_nothing_can_serve():
    from ccmj_cli._kernels.table.bao import find_bao

    wall = np.zeros(136, np.int64)  # every tile 1m, whose kind is dead...
    wall[100] = 5  # ... but a 6m at the head
    wall[134] = 6  # and a 7m under the tail's top tile
    g = np.zeros(TL.G_LEN, np.int64)
    g[TL.G_HEAD] = 100
    g[TL.G_TAIL] = 135
    pond = np.full(34, 3, np.int64)
    exposed = np.zeros(34, np.int64)
    assert find_bao(wall, g, pond, exposed, 12, RV) == -1  # nothing can serve: no bao
    pond[5] = 0
    assert find_bao(wall, g, pond, exposed, 3, RV) == 100  # toward the head: the 6m
    pond[6] = 0
    assert find_bao(wall, g, pond, exposed, 3, RV) == 100
    pond[5] = 3
    assert find_bao(wall, g, pond, exposed, 3, RV) == 134  # round from the head to the tail


def test_robbed_bu_qiangganghu_pays_no_kong_money():
    # S declares 旋风杠 (1234z) on his first turn, draws 2z from the tail and 补s it; W waits on
    # 2z (双碰 2z/5s) and robs it (抢杠胡): a win on S's tile; the 补 pays nothing.
    wall = build_wall(
        {
            E: E_HAND,
            S: "1z2z3z4z123m456p78s9m",
            W: "999m456p789s2z2z5s5s",
            N: "367m178p236s6z5z3z4z",
        },
        draws="5z",
        tail="2z",
    )
    out = play(wall)
    ev = out["ev"]
    assert (TL.EV_SPECIAL, S, 27, L.MELD_XUANFENG, 4) in ev
    assert (TL.EV_TAIL, S, 28, 0, 0) in ev
    assert (TL.EV_KONG_ROBBED, W, 28, 1, S) in ev
    assert TL.EV_BU not in kinds(out)
    r = out["result"]
    assert (r["winner"], r["how"], r["tile"], r["discarder"]) == ("W", "dianpao", "2z", "S")
    assert out["res"][TL.R_ROBBED] == 1
    # W: 平胡1 + 门清1 = 2 (two waits, a pung completed: no 夹胡). E (dealer) 3 -> 4,
    # S (his tile) 3 -> 4, N 2 -> 2: W +10. 旋风杠 money: 1 from each to S (RULES §7).
    assert r["kong_money"] == {"E": -1, "S": 3, "W": -1, "N": -1}
    assert r["payout"] == {"E": -5, "S": -1, "W": 9, "N": -3}
    assert conserved(out, wall)


def test_dealer_may_not_bu_on_his_first_turn():
    # E holds 1234z + an extra 1z: he declares 旋风杠 and draws a replacement, but may not 补.
    wall = build_wall(
        {
            E: "1z2z3z4z1z123m456p789s",
            S: JUNK[S].replace("2z3z4z", "5z5z6z"),
            W: "258m369p147s5z6z6z7z",
            N: "369m147p28s4s7z7z7z3z",
        },
        tail="9p",
    )
    out = play(wall)
    ev = out["ev"]
    first_discard = next(i for i, e in enumerate(ev) if e[0] == TL.EV_DISCARD)
    assert ev[0] == (TL.EV_SPECIAL, E, 27, L.MELD_XUANFENG, 4)
    assert ev[1] == (TL.EV_TAIL, E, T.tile_index("9p"), 0, 0)
    assert all(e[0] != TL.EV_BU for e in ev[:first_discard])


# 包庄: E (dealer) declares on 1z/5s; S is tenpai from the deal and draws 5z first (the only
# tenpai-keeping discard), so he declares too (unless silent); E rolls the bao (3+4: 9m at 123,
# nobody's wait) and discards the 5z he draws; S then draws 5s, which cannot complete his hand,
# and discards it (locked, or as the only tenpai-keeping discard): E wins on it.
# E's win: 123m456p789s11z + 555s, 双碰 (two waits, a pung: no 夹胡): 平胡1 + 门清1 = 2, +庄1 for
# every loser = 3, +点炮1 for S = 4: S's share 8, W's and N's 4 each (RULES §5).
BAOZHUANG_S = {
    "looked": "234m567m111p99p12s",  # waits 3s (边张); declares, looks at the bao
    "declared": "234m567m777p44s23s",  # 断幺九: waits 1s only (4s: no 幺九); never looks
}


@pytest.mark.parametrize(
    "s_kind, s_policy, cover_only, state, s_pays",
    [
        ("looked", "baseline", 1, 2, 8),  # declared and looked: pays only his share
        ("declared", "baseline", 1, 1, 8),  # declared (never looked): pays only his share
        ("looked", "silent", 1, 0, 16),  # undeclared: covers all three shares
        ("looked", "baseline", 0, 2, 16),  # 点炮全包 for everyone: covers all
    ],
)
def test_baozhuang_depends_on_the_discarder_having_declared(
    s_kind, s_policy, cover_only, state, s_pays
):
    rv = RV.copy()
    rv[L.RV_DIANPAO] = 2  # discarder_covers_all (点炮全包)
    rv[L.RV_COVER_ONLY_UNDECLARED] = cover_only  # 包庄 only when he had not declared
    bots = np.array([POLICIES[p] for p in ("baseline", s_policy, "baseline", "baseline")])
    wall = build_wall(
        {E: E_HAND, S: BAOZHUANG_S[s_kind], W: JUNK[W], N: JUNK[N]},
        draws="5z5z5z5z5s",
        at={123: "9m"},
    )
    out = play(wall, rv=rv, bots=bots)
    ev = out["ev"]
    assert ((TL.EV_DECLARE, S, -1, 0, 0) in ev) == (s_policy == "baseline")
    assert ((TL.EV_LOOK, S, T.tile_index("9m"), 0, 0) in ev) == (state == 2)
    assert (TL.EV_DISCARD, S, T.tile_index("5s"), 0, 0) in ev
    r = out["result"]
    assert (r["winner"], r["how"], r["tile"], r["discarder"]) == ("E", "dianpao", "5s", "S")
    assert out["res"][TL.R_DISCARDER_DECLARED] == state
    assert r["discarder_declared"] == ("undeclared", "declared", "looked")[state]
    assert r["loser_fan"] == {"E": 0, "S": 4, "W": 3, "N": 3}
    others = (16 - s_pays) // 2
    assert r["payout"] == {"E": 16, "S": -s_pays, "W": -others, "N": -others}


def test_special_kongs_only_from_dealt_tiles():
    # RULES §7 (seed 000: "只有起手牌时才予认可，后续抓起的不算"). S is dealt 1z2z3z and draws 4z
    # first: by default that is no 旋风杠; with special_kong_timing first_turn (the MIL 2024
    # reading: the first discard turn) it is one, with its replacement draw from the tail.
    s_hand = "1z2z3z123m456p789s9m"
    wall = build_wall({E: E_HAND, S: s_hand, W: JUNK[W], N: JUNK[N]}, draws="4z", tail="8p")
    out = play(wall)
    assert all(e[0] != TL.EV_SPECIAL for e in out["ev"])
    rv = RV.copy()
    rv[L.RV_SPECIAL_KONG_TIMING] = TL.SPECIAL_FIRST_TURN
    d = np.array([3, 4] + [1] * (TL.N_DICE - 2), np.int64)
    out2 = play_wall(wall, E, d, rv, TP, BOTS)
    ev2 = [tuple(int(x) for x in e) for e in out2["events"]]
    i = ev2.index((TL.EV_DRAW, S, 30, 0, 0))
    assert ev2[i + 1] == (TL.EV_SPECIAL, S, 27, L.MELD_XUANFENG, 4)
    assert ev2[i + 2] == (TL.EV_TAIL, S, T.tile_index("8p"), 0, 0)


def test_replacement_draw_does_not_complete_a_special_kong():
    # The dealer E lays down 旋风杠 (dealt 1234z) and draws 7z from the tail: with his dealt 5z6z
    # it would make a 喜杠, but the 7z was drawn, not dealt (only with first_turn timing).
    e_hand = "1z2z3z4z5z6z123m456p78s"
    wall = build_wall({E: e_hand, **JUNK}, tail="7z")
    out = play(wall)
    kinds_ = [e[3] for e in out["ev"] if e[0] == TL.EV_SPECIAL]
    assert kinds_ == [L.MELD_XUANFENG]
    rv = RV.copy()
    rv[L.RV_SPECIAL_KONG_TIMING] = TL.SPECIAL_FIRST_TURN
    d = np.array([3, 4] + [1] * (TL.N_DICE - 2), np.int64)
    out2 = play_wall(wall, E, d, rv, TP, BOTS)
    kinds2 = [int(e[3]) for e in out2["events"] if e[0] == TL.EV_SPECIAL]
    assert kinds2 == [L.MELD_XUANFENG, L.MELD_XI]


def test_duanyaojiu_may_declare_but_not_look():
    # E: 78m234p456s555p33s waits 6m/9m (legal only on 9m); no 幺九 -> he declares but never
    # rolls or looks at the bao (bao_forbidden_without_yaojiu).
    wall = build_wall({E: "78m234p456s555p33s7z", **JUNK}, draws="5z5z5z1p5z")
    out = play(wall)
    assert out["ev"][1] == (TL.EV_DECLARE, E, -1, 0, 0)
    assert TL.EV_BAO not in kinds(out) or any(
        e[0] == TL.EV_DECLARE and e[1] != E for e in out["ev"]
    )
    assert all(not (e[0] == TL.EV_LOOK and e[1] == E) for e in out["ev"])
    # the same hand in a room without the ban looks at the bao at its next draw
    rv = RV.copy()
    rv[L.RV_BAO_FORBIDDEN_WITHOUT_YAOJIU] = 0
    out2 = play(wall, rv=rv)
    assert any(e[0] == TL.EV_LOOK and e[1] == E for e in out2["ev"])


def test_duanyaojiu_may_not_declare_under_the_option():
    # duanyaojiu_may_declare: false (MIL 2024 七-1): a hand with no 幺九 may not declare at all
    # (it may still win undeclared). The same E hand as above, tenpai after his first discard
    # (7z), holds no 1/9/honor once the 7z is gone: no 报听 then (by default he declares right
    # away, the test above). His next draw is 1p, a 幺九: he keeps it (discarding 4p, still
    # tenpai) and may declare from then on. The rule is judge.may_declare's, the one the
    # single-hand commands use.
    wall = build_wall({E: "78m234p456s555p33s7z", **JUNK}, draws="5z5z5z1p5z")
    rv = RV.copy()
    rv[L.RV_DUANYAOJIU_MAY_DECLARE] = 0
    ev = play(wall, rv=rv)["ev"]
    assert ev[0] == (TL.EV_DISCARD, E, T.tile_index("7z"), 0, 0)
    assert ev[1][0] == TL.EV_DRAW  # no 报听 without a 幺九
    first = next(i for i, e in enumerate(ev) if e[0] == TL.EV_DECLARE and e[1] == E)
    assert ev[first - 2] == (TL.EV_DRAW, E, T.tile_index("1p"), 0, 0)
    assert ev[first - 1] == (TL.EV_DISCARD, E, T.tile_index("4p"), 0, 0)


def test_wall_end_reserve():
    # RULES §8: the last 7 stacks (14 tiles) are never drawn; 8 with two kongs, +1 per further
    # kong. Stacks are counted from the tail; a loose single tile left at the tail by
    # replacement draws is not a stack and stays with the dead wall, a loose tile at the head is
    # drawn: with no kong the hand ends with exactly 14 tiles left. (This test used to pin 15:
    # the old count treated the head's loose tile as part of an odd leftover.)
    g = np.zeros(TL.G_LEN, np.int64)
    g[TL.G_BAO_POS] = -1

    def drawable(head, tail, kongs):
        g[TL.G_HEAD], g[TL.G_TAIL], g[TL.G_KONGS] = head, tail, kongs
        return WL.can_draw(g, TP, RV)

    # no kong: head 121 may be drawn (14 left: 122-135), 122 may not
    assert drawable(121, 135, 0) and not drawable(122, 135, 0)
    # one kong (135 drawn from the tail): 7 stacks plus the loose 134 -> 15 left
    assert drawable(119, 134, 1) and not drawable(120, 134, 1)
    # two kongs (135, 134 drawn): 8 stacks -> 16 left
    assert drawable(117, 133, 2) and not drawable(118, 133, 2)
    # three kongs: 9 stacks plus the loose 132 -> 19 left
    assert drawable(113, 132, 3) and not drawable(114, 132, 3)
    # the bao at the head is stepped over: the next tile would be in the dead wall
    g[TL.G_BAO_POS] = 121
    assert not drawable(121, 135, 0)
    g[TL.G_BAO_POS] = 130  # a bao inside the dead wall changes nothing at the head
    assert drawable(121, 135, 0) and not drawable(122, 135, 0)


def test_drawn_hand_leaves_exactly_14_tiles():
    # Bots that never declare roll no bao, so the draws never step over one: every 荒庄 without
    # a kong ends with exactly the 7 stacks, 14 tiles, left in the wall.
    rv = RV.copy()
    bots = np.array([POLICIES["silent"]] * 4, np.int64)
    seeds, lengths = session_plan(160, 10, 5)
    n = 0
    for sd, k in zip(seeds, lengths, strict=True):
        a = record(sd, int(k), rv, TP, bots)
        for h in range(int(k)):
            res = a["results"][h]
            if res[TL.R_WINNER] < 0 and res[TL.R_KONGS] == 0:
                assert res[TL.R_WALL_LEFT] == 14 and res[TL.R_STRANDED] == 0
                n += 1
    assert n > 0


# ---------------------------------------------------------------- invariants on random hands
N_SESSIONS, PER_SESSION = 24, 16  # 384 hands, sequential with recording (a few seconds)


@pytest.fixture(scope="module")
def recorded():
    return _record(RV, TP, N_SESSIONS, 2024)


def _record(rv, tp, n_sessions, seed):
    seeds, lengths = session_plan(n_sessions * PER_SESSION, n_sessions, seed)
    return [record(sd, int(n), rv, tp, BOTS) for sd, n in zip(seeds, lengths, strict=True)]


def _hands(recorded):
    for a in recorded:
        for h in range(a["results"].shape[0]):
            yield a, h


def test_tiles_conserved_and_no_fifth_copy(recorded):
    for a, h in _hands(recorded):
        res = a["results"][h]
        left = res[TL.R_WALL_LEFT]
        head = 136 - left  # tiles taken from the head and the tail are out of the wall
        assert 0 <= left <= 136
        held = a["concs"][h].astype(np.int64) + a["melded"][h].astype(np.int64)
        assert held.max() <= 4  # nobody holds a fifth copy (uint8 underflow would show 255)
        total = held.sum(axis=0) + a["ponds"][h]
        assert total.sum() == head, (total.sum(), head)
        assert total.max() <= 4


def test_wall_region_accounts_for_every_tile(recorded):
    # replay a few hands from their wall: hands + melds + discards + wall left == 4 of each kind
    for a, h in list(_hands(recorded))[:64]:
        out = play(a["walls"][h], dealer=int(a["results"][h, TL.R_DEALER]), dice=a["dices"][h])
        assert conserved(out, a["walls"][h])
        assert out["res"].tolist() == a["results"][h].tolist()  # replay is exact


def test_payouts_sum_to_zero_and_huang_pays_only_kongs(recorded):
    n_huang = 0
    for a, h in _hands(recorded):
        res = a["results"][h]
        pay = res[TL.R_PAY : TL.R_PAY + 4]
        kong = res[TL.R_KONG_PAY : TL.R_KONG_PAY + 4]
        assert pay.sum() == 0 and kong.sum() == 0
        if res[TL.R_WINNER] < 0:
            n_huang += 1
            assert (pay == kong).all()  # 荒庄: kongs still settle, nothing else
            assert res[TL.R_NEXT_DEALER] == res[TL.R_DEALER]  # dealer stays
            # the wall stopped at its end (RULES §8): no more than the reserve stacks left, plus
            # a loose tile at the tail (the bao, when the draws stepped over it, aside); never
            # less than 7 stacks, and exactly 14 tiles with no kong. (A kong made when the head
            # is already within the stacks its reserve adds still takes its replacement draw.)
            reserve = 7 + (res[TL.R_KONGS] - 1 if res[TL.R_KONGS] >= 2 else 0)
            left = res[TL.R_WALL_LEFT] - res[TL.R_STRANDED]
            assert 14 <= left <= 2 * reserve + 1
            if res[TL.R_KONGS] == 0:
                assert left == 14
        else:
            assert pay[res[TL.R_WINNER]] > 0
    assert n_huang > 0  # the sample does contain drawn hands


def test_a_hand_is_never_cut_from_the_log(recorded):
    # The event buffer holds any hand (the bound is worked in table/layout.py: at most 387 events);
    # more would be an error, never a silently cut hand.
    from ccmj_cli.replay import n_events

    worst = max(int(a["results"][h, TL.R_N_EVENTS]) for a, h in _hands(recorded))
    assert 0 < worst <= 387 < TL.MAX_EVENTS
    res = np.zeros(TL.R_LEN, np.int64)
    res[TL.R_N_EVENTS] = TL.MAX_EVENTS + 1
    with pytest.raises(RuntimeError, match="more than the log holds"):
        n_events(res)


def test_dealer_rotation(recorded):
    for a in recorded:
        r = a["results"]
        assert r[0, TL.R_DEALER] == 0
        for h in range(1, r.shape[0]):
            prev = r[h - 1]
            w, d = prev[TL.R_WINNER], prev[TL.R_DEALER]
            expect = d if (w < 0 or w == d) else (d + 1) % 4
            assert r[h, TL.R_DEALER] == expect == prev[TL.R_NEXT_DEALER]


def test_every_engine_win_is_legal_by_check(recorded):
    wins = 0
    for a, h in _hands(recorded):
        res = a["results"][h]
        if res[TL.R_WINNER] < 0:
            continue
        d = result_dict(res, a["concs"][h], a["melds"][h], a["n_melds"][h])
        c = H.check(d["winning_hand"], d["win_tile"], V)
        assert c.legal, (d["winning_hand"], d["win_tile"], c.reasons)
        assert c.jiahu == d["jiahu"] and c.piao == d["piao"] and c.menqing == d["menqing"]
        wins += 1
    assert wins > 200


def test_room_special_kongs_sanfeng_and_xiaoji_feidan():
    # The kuansong preset: 三风蛋 (three different winds make a 旋风杠) and 小鸡飞蛋 (幺鸡 1s stands
    # in for the one missing member of 旋风杠 / 喜杠 / 九蛋). The bots declare every special kong
    # the starting hand holds, so over 1,600 hands both forms appear; every win stays legal by
    # `ccmj check` under the same variant (which parses the melds with the same options).
    v = load_variant("kuansong")
    assert v.sanfeng_dan and v.xiaoji_feidan
    runs = _record(np.asarray(v.vector, np.int64), table_params(v), 100, 7)
    feidan = sanfeng = wins = 0
    for a, h in _hands(runs):
        for s in range(4):
            for m in range(a["n_melds"][h, s]):
                kind, n = a["melds"][h, s, m, 0], a["melds"][h, s, m, 1]
                tiles = list(a["melds"][h, s, m, 2 : 2 + n])
                if kind in (L.MELD_XUANFENG, L.MELD_XI, L.MELD_JIUDAN) and L.ONE_S in tiles:
                    feidan += 1
                if kind == L.MELD_XUANFENG and n >= 3 and len(set(tiles) & set(range(27, 31))) == 3:
                    sanfeng += 1
        res = a["results"][h]
        if res[TL.R_WINNER] >= 0:
            d = result_dict(res, a["concs"][h], a["melds"][h], a["n_melds"][h])
            c = H.check(d["winning_hand"], d["win_tile"], v)
            assert c.legal, (d["winning_hand"], d["win_tile"], c.reasons)
            wins += 1
    assert feidan > 0 and sanfeng > 0 and wins > 500


def test_room_mil2024_melds_and_wins_agree_with_check():
    # The mil2024 preset: 幺鸡 any (1s stands in for any members, 幺蛋 too), 三风蛋, special kongs
    # on the first discard turn, 断幺九 may not declare, 手把一 counting concealed kongs as
    # concealed. The table forms special kongs through melds.classify_bracket and keeps the
    # concealed-kong count (MS_ANKONGS) the judgment reads, so every win it settles must read
    # the same under `ccmj check` with the same variant: legal, with the same 夹胡/飘胡/门清.
    v = load_variant("mil2024")
    runs = _record(np.asarray(v.vector, np.int64), table_params(v), 100, 11)
    wild = wins = 0
    for a, h in _hands(runs):
        for s in range(4):
            for m in range(a["n_melds"][h, s]):
                kind, n = a["melds"][h, s, m, 0], a["melds"][h, s, m, 1]
                tiles = list(a["melds"][h, s, m, 2 : 2 + n])
                if kind >= L.FIRST_SPECIAL and kind != L.MELD_YAODAN and L.ONE_S in tiles:
                    wild += 1
        res = a["results"][h]
        if res[TL.R_WINNER] >= 0:
            d = result_dict(res, a["concs"][h], a["melds"][h], a["n_melds"][h])
            c = H.check(d["winning_hand"], d["win_tile"], v)
            assert c.legal, (d["winning_hand"], d["win_tile"], c.reasons)
            assert (c.jiahu, c.piao, c.menqing) == (d["jiahu"], d["piao"], d["menqing"]), d
            wins += 1
    assert wild > 0 and wins > 300


# ---------------------------------------------------------------- the engine's discard = policy's
def _near_complete(rng, sets):
    """A 3k+2 hand one or two tiles from complete (so tenpai discards are common)."""
    c = np.zeros(34, np.uint8)
    k = 4 - sets
    while True:
        c[:] = 0
        for _ in range(k):
            if rng.random() < 0.5:
                t = int(rng.integers(0, 34))
                c[t] += 3
            else:
                s, r = int(rng.integers(0, 3)), int(rng.integers(0, 7))
                c[9 * s + r : 9 * s + r + 3] += 1
        c[int(rng.integers(0, 34))] += 2
        if c.max() <= 4:
            break
    for _ in range(int(rng.integers(1, 3))):  # swap one or two tiles for random ones
        held = np.flatnonzero(c)
        c[rng.choice(held)] -= 1
        t = int(rng.integers(0, 34))
        while c[t] >= 4:
            t = int(rng.integers(0, 34))
        c[t] += 1
    return c


def test_policy_implementations_agree_with_melds():
    # policy.choose_discard (incremental, the bots) and choose_discard_memo (the odds) are two
    # computations of one policy: same tile on hands with declared sets and random live counts.
    from ccmj_cli._kernels.policy import choose_discard, choose_discard_memo, new_memo
    from ccmj_cli._kernels.tables import tables
    from ccmj_cli._kernels.useful import useful_tables

    rng = np.random.default_rng(7)
    tb = tables()
    ut = useful_tables()
    wbuf = np.zeros((34, 5), np.int64)
    shs = np.zeros(34, np.int64)
    for i in range(6000):
        sets = int(rng.integers(0, 4))
        if i % 2:
            c = _near_complete(rng, sets)
        else:
            c = np.zeros(34, np.uint8)
            for t in rng.permutation(136)[: 14 - 3 * sets] // 4:
                c[t] += 1
        ms = np.zeros(L.MS_LEN, np.int64)
        ms[L.MS_SETS] = sets
        ms[L.MS_PUNGS] = sets  # declared pungs: the 刻 condition can be met
        ms[L.MS_SUITS] = int(rng.integers(0, 8))
        own = c.astype(np.int64)
        unseen = np.clip(4 - own - rng.integers(0, 3, 34), 0, 4).astype(np.int64)
        a = choose_discard(c, ms, own.copy(), unseen, RV, tb, ut)
        b = choose_discard_memo(c, ms, own.copy(), unseen, RV, tb, wbuf, new_memo(), shs)
        assert a == b, (T.format_tiles(c), sets)


def test_discard_value_is_the_policy_value_of_the_hand_it_leaves():
    # choose_discard_value reports (shanten, live) of the hand after its discard without
    # judging that hand again; it must equal discard_value of that hand. 222m44448888s with one
    # set declared: after 4s the lone 8s cannot pair (a fifth copy), so almost every tile is
    # wanted, as the 将's first half: far more than the tiles next to the ones held.
    from ccmj_cli._kernels.judge import judge_waits
    from ccmj_cli._kernels.policy import choose_discard_value, discard_value, new_discard_scratch
    from ccmj_cli._kernels.tables import tables
    from ccmj_cli._kernels.useful import useful_tables

    tb = tables()
    ut = useful_tables()
    scr = new_discard_scratch()
    wbuf = np.zeros((34, 5), np.int64)
    rng = np.random.default_rng(3)
    cases = [("222m44448888s", 1)]
    for i in range(3000):
        sets = int(rng.integers(0, 4))
        c = _near_complete(rng, sets) if i % 2 else None
        if c is None:
            c = np.zeros(34, np.uint8)
            for t in rng.permutation(136)[: 14 - 3 * sets] // 4:
                c[t] += 1
        cases.append((T.format_tiles(c), sets))
    for text, sets in cases:
        c = np.zeros(34, np.uint8)
        for t in T.parse_tiles(text):
            c[t] += 1
        ms = np.zeros(L.MS_LEN, np.int64)
        ms[L.MS_SETS] = sets
        ms[L.MS_PUNGS] = sets
        ms[L.MS_SUITS] = 7
        own = c.astype(np.int64)
        unseen = np.clip(3 - own, 0, 4).astype(np.int64)
        d, sh, live, n_live = choose_discard_value(c, ms, own.copy(), unseen, RV, tb, ut, scr)
        c[d] -= 1
        o = own.copy()
        o[d] -= 1
        assert (sh, live) == discard_value(c, ms, o, unseen, RV, tb, wbuf), text
        # a tenpai's live legal waits as judge_waits counts them (报听 asks), else -1
        assert n_live == (judge_waits(c, ms, o, RV, tb, wbuf) if sh == 0 else -1), text
    # the worked case: 222m 444s 888s 8s wants a 将 (distance 2, shanten 1). A new tile that can
    # pair with one more copy lowers it to 1, as do 1m 3m 4m (a chow with 2m, 22m the 将); 8s
    # (held four times), 4s and 2m (a fourth copy could not pair either) are not wanted: 31
    # kinds of the 34, each with one live copy here.
    c = np.zeros(34, np.uint8)
    for t in T.parse_tiles("222m44448888s"):
        c[t] += 1
    ms = np.zeros(L.MS_LEN, np.int64)
    ms[L.MS_SETS] = ms[L.MS_PUNGS] = 1
    unseen = np.ones(34, np.int64)
    d, sh, live, _n = choose_discard_value(c, ms, c.astype(np.int64), unseen, RV, tb, ut, scr)
    assert (T.tile_name(d), sh, live) == ("4s", 1, 31)


def test_useful_tables_against_the_distance_tables(monkeypatch):
    # useful[key, y] bit x: adding tile x lowers the suit's distance at target y (never a fifth
    # copy). Worked row: a suit holding only 1 (key 1): for one pair (y=1) a second 1 lowers
    # the distance from 1 to 0; for one set (y=2) 1, 2 or 3 lower it from 2 to 1.
    from ccmj_cli._kernels import useful as U
    from ccmj_cli._kernels.tables import tables

    suit, honor = U.useful_tables()
    assert suit[1, 1] == 0b1 and suit[1, 2] == 0b111
    tb = tables()
    rng = np.random.default_rng(5)
    for key in rng.integers(0, 5**9, 300):
        digits = [(key // 5**x) % 5 for x in range(9)]
        for y in range(10):
            expect = sum(
                1 << x for x in range(9) if digits[x] < 4 and tb[1][key + 5**x][y] < tb[1][key][y]
            )
            assert suit[key, y] == expect
    # a damaged cache file (zeroed) fails the check on load (its checksum) and is rebuilt
    import os

    from ccmj_cli._kernels import cache as C

    suit, honor = np.array(suit), np.array(honor)  # (copies: the file is replaced below)
    path = C.writable_root() / f"tables-v{C.TABLE_VERSION}" / "suit-useful.npy"
    assert path.is_file()
    tmp = path.with_name(f"zeros.{os.getpid()}.npy")
    np.save(tmp, np.zeros_like(suit))
    os.replace(tmp, path)  # (a new file: the old one may still be mapped)
    monkeypatch.setattr(U, "_USEFUL", None)
    for name in U.USEFUL_SPECS:
        monkeypatch.delitem(C._LOADED, name, raising=False)
    u2 = U.useful_tables()
    assert (u2[0] == suit).all() and (u2[1] == honor).all()
    assert (np.load(path) == suit).all()  # saved again


def test_robbed_bu_by_pung_qiangcha():
    # As above, but W holds 2z2z without waiting on 2z: the pung lowers W's shanten (2 -> 1), so
    # W pungs S's 补 tile (抢叉): the 补 is not made (no 补 money), W discards next.
    wall = build_wall(
        {
            E: E_HAND,
            S: "1z2z3z4z123m456p78s9m",
            W: "999m456p78s2z2z3p6m1s",
            N: "367m178p236s6z5z3z4z",
        },
        draws="5z",
        tail="2z",
    )
    out = play(wall)
    ev = out["ev"]
    i = ev.index((TL.EV_KONG_ROBBED, W, 28, 0, S))
    assert ev[i + 1] == (TL.EV_ROB_PUNG, W, 28, 0, S)
    assert ev[i + 2][:2] == (TL.EV_DISCARD, W)
    assert all(e[0] != TL.EV_BU for e in ev[: i + 3])
    assert out["res"][TL.R_ROBBED] >= 1
    assert conserved(out, wall)
    # W's melds now hold the pung of 2z (an exposed meld of three)
    w_melds = [out["mrec"][W, m] for m in range(out["nm"][W])]
    assert any(m[0] == L.MELD_PUNG and m[2] == 28 for m in w_melds)


def test_dealer_complete_start_wins_tianhu():
    # E is dealt a complete legal hand; his 14th tile (52nd of the wall) counts as his draw:
    # 123m456p789s111z + 55s, 14th tile 5s: 单调 on 5s -> 平胡1 + 门清1 + 夹胡1 + 自摸1 = 4,
    # +庄 = 5.
    wall = build_wall({E: "123m456p789s111z5s5s", **JUNK})
    out = play(wall)
    r = out["result"]
    assert (r["winner"], r["how"], r["tile"]) == ("E", "zimo", "5s")
    assert r["fan"] == 4 and r["payout"] == {"E": 48, "S": -16, "W": -16, "N": -16}
    assert out["ev"][0] == (TL.EV_WIN, E, T.tile_index("5s"), L.HOW_SELF, -1)


def test_declared_hand_kongs_only_when_the_waits_stay_the_same():
    # RULES §8. E: 111m456p789s22z55s, declared on 2z/5s, draws the fourth 1m: the waits stay
    # 2z/5s without the 1m -> 暗杠 (and a replacement draw from the tail).
    others = {S: "379m258p369s3z4z6z6m", W: "28m369p147s3z4z6z7m8p", N: "457m147p248s3z4z6z9p"}
    wall = build_wall({E: "111m456p789s22z55s7z", **others}, draws="5z5z5z1m", tail="9m")
    ev = play(wall)["ev"]
    i = ev.index((TL.EV_DRAW, E, 0, 0, 0))
    assert ev[i + 1] == (TL.EV_ANKONG, E, 0, 0, 0)
    assert ev[i + 2] == (TL.EV_TAIL, E, T.tile_index("9m"), 0, 0)
    # E: 5556m456p789s111z, declared on 4m/6m/7m, draws the fourth 5m: without 5555m the hand
    # would wait on 6m alone -> no kong; the locked hand discards the 5m it drew.
    others = {S: "19m258p369s2z3z4z6z1p", W: "28m369p147s2z3z4z6z9p", N: "38m147p258s2z3z4z6z1s"}
    wall = build_wall({E: "5556m456p789s111z7z", **others}, draws="5z5z5z5m")
    ev = play(wall)["ev"]
    assert ev[:2] == [(TL.EV_DISCARD, E, 33, 0, 0), (TL.EV_DECLARE, E, -1, 0, 0)]
    i = ev.index((TL.EV_DRAW, E, 4, 0, 0))
    assert ev[i + 1] == (TL.EV_DISCARD, E, 4, 0, 0)
