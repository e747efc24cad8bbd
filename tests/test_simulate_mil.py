"""Fixed-wall tests of the table rules the MIL 2024 preset switches on (the table options:
bao_place, bao_change, wall_end, guoshui, special_kong_timing, shoubayi_no_claim; 七对 and 包庄
at the table).

Each test builds a wall (``build_wall``: the engine's deal, then given draws and tail tiles) so
that the situation happens, and says how the expected events and payments follow from the rule
(MIL 2024: ../shared/RULES_MIL2024.md, by the rulebook's section numbers).
"""

import numpy as np
import pytest
from test_simulate_table import BAOZHUANG_S, E_HAND, JUNK, E, N, S, W, build_wall, conserved

from ccmj_cli import tiles as T
from ccmj_cli._kernels import layout as L
from ccmj_cli._kernels.table import layout as TL
from ccmj_cli._kernels.table import wall as WL
from ccmj_cli._kernels.table.bao import find_bao
from ccmj_cli._kernels.table.claims import CLAIM_MELD, CLAIM_NONE, claims_on_discard, win_claim
from ccmj_cli._kernels.table.state import add_meld, new_table, new_work, reset_table
from ccmj_cli._kernels.tables import tables
from ccmj_cli._kernels.useful import useful_tables
from ccmj_cli.replay import play_wall, record, result_dict
from ccmj_cli.rules import load_variant
from ccmj_cli.simulate import POLICIES, session_plan, table_params

VD = load_variant()
RVD = np.asarray(VD.vector, np.int64)  # (read-only, as every rv here and the CLI's: one compile)
TPD = table_params(VD)
VM = load_variant("mil2024")
RVM = np.asarray(VM.vector, np.int64)
TPM = table_params(VM)
BOTS = np.array([POLICIES["baseline"]] * 4, np.int64)
# Hands that go nowhere under mil2024 too: at most two winds, two dragons, no 1s (a wildcard in
# special kongs there), so nobody lays out a special kong (JUNK's 2z3z4z is a 旋风杠 under
# sanfeng_dan, and any drawn tile counts in the first discard turn)
JM = {S: "147m258p36s8s2z3z6z9m", W: "258m369p247s3z4z6z8p", N: "36m247p35s9s2z4z7z8m5p"}


def t_(name):
    return T.tile_index(name)


def play(wall, rv, tp, dice=(3, 4), bots=BOTS, dealer=E):
    d = np.array(list(dice) + [1] * (TL.N_DICE - len(dice)), np.int64)
    out = play_wall(wall, dealer, d, rv, tp, bots)
    out["result"] = result_dict(out["res"], out["conc"], out["mrec"], out["nm"])
    out["ev"] = [tuple(int(x) for x in e) for e in out["events"]]
    return out


def with_(rv, **slots):
    rv = rv.copy()
    for k, v in slots.items():
        rv[getattr(L, k)] = v
    rv.setflags(write=False)  # (the type of the variant's vector: compiled once)
    return rv


def test_mil2024_sets_the_table_options_and_the_default_keeps_todays():
    assert (VD.bao_place, VD.wall_end, VD.guoshui, VD.shoubayi_no_claim) == (
        "any_stack", "reserve", False, False,
    )  # fmt: skip
    assert (VM.bao_place, VM.wall_end, VM.guoshui, VM.shoubayi_no_claim) == (
        "top_six", "win_only_four", True, True,
    )  # fmt: skip
    assert (VM.bao_dice, VM.bao_change, VM.special_kong_timing) == (1, "optional", "first_turn")
    assert TPM[TL.TP_BAO_DICE] == 1


# ---------------------------------------------------------------- 1. the bao's place
def _bao_wall():
    # tops of the six stacks at the tail: 1m..6m at 135, 133, ..., 125; the 7th stack's top
    # (123) 7m; every lower tile (134, 132, ...) 9s
    wall = np.full(136, t_("9s"), np.int64)
    for j, name in enumerate(("1m", "2m", "3m", "4m", "5m", "6m", "7m")):
        wall[135 - 2 * j] = t_(name)
    return wall


@pytest.mark.parametrize(
    "dead, tail, k, any_stack, top_six",
    [
        ((), 135, 3, 131, 131),  # one die: 3 stacks from the end, its top tile
        (
            ("3m",),
            135,
            3,
            130,
            129,
        ),  # dead top: the tile under it; MIL: the next top
        (("1m", "2m", "3m", "4m", "5m", "6m"), 135, 3, 130, -1),  # tops 1-6 used up: no bao
        (("6m",), 135, 6, 124, 135),  # MIL goes round the six tops (6 -> 1), never to the 7th
        ((), 134, 1, 133, 133),  # a loose single tile at the end (134) is not a stack
    ],
)
def test_bao_place_top_six(dead, tail, k, any_stack, top_six):
    # MIL 三-24/25: count k stacks from the wall's end (a loose tile not counted), the top tile
    # is the indicator; once the top tiles of tail stacks 1-6 cannot serve, there is no bao.
    # The default (seed rule) takes the lower tile of the counted stack, then goes on.
    wall = _bao_wall()
    if tail == 134:
        wall[133] = t_("1m")
    g = np.zeros(TL.G_LEN, np.int64)
    g[TL.G_HEAD] = 53
    g[TL.G_TAIL] = tail
    pond = np.zeros(34, np.int64)
    exposed = np.zeros(34, np.int64)
    for name in dead:
        pond[t_(name)] = 3
    assert find_bao(wall, g, pond, exposed, k, RVD) == any_stack
    assert find_bao(wall, g, pond, exposed, k, RVM) == top_six


def test_one_die_counts_stacks_from_the_end_at_the_table():
    # mil2024 (bao_dice 1): E declares on 1z/5s after his first discard; at his next draw he
    # rolls ONE die, 3: the top tile of the 3rd stack from the end, position 135 - 2*2 = 131,
    # holds 1z, one of his legal waits -> 对宝 at the look. (Two dice, 3+4, would count 7.)
    wall = build_wall({E: E_HAND, **JM}, draws="5z5z5z", at={131: "1z", 100: "1z"})
    out = play(wall, RVM, TPM, dice=(3, 4))
    assert (TL.EV_BAO, E, t_("1z"), 3, 131) in out["ev"]
    r = out["result"]
    assert (r["winner"], r["how"], r["tile"]) == ("E", "duibao", "1z")
    assert out["res"][TL.R_DICE_USED] == 1
    # 平胡1 + 门清1 + 自摸1 + 宝1 + 冲宝1 (chongbao_double) = 5, +庄1 = 6 -> 32 from each
    assert r["payout"] == {"E": 96, "S": -32, "W": -32, "N": -32}


# ---------------------------------------------------------------- 2. 换宝 optional
HUANBAO = {
    E: "123m456p789s11z55s6z",
    S: "123m456p789s22z56p",  # a tenpai shape with no legal wait: never declares
    W: JUNK[W],
    N: "369m147p28s4s7z7z3z4z",
}


@pytest.mark.parametrize("mode", ["always", "optional"])
def test_bao_change_optional_is_the_declared_players_choice(mode):
    # E declares on 1z/5s and rolls 3+4 at his next draw: the bao is 7z at 123. S draws the 4th
    # 7z and discards it, N pungs it: three 7z are public. `always`: the bao is re-rolled at once
    # (no seat: the table does it). `optional` (MIL 三-25): nothing happens until E, the declared
    # player, is on turn; before drawing he chooses (the bot's rule: change when the bao is no
    # live wait of his; 7z is none), returns it and rolls the next dice, 1+1 = 2 stacks: 133 =
    # 1z, which he looks at: 对宝. Either way the same dice, the same new bao.
    rv = with_(RVD, RV_BAO_CHANGE=("always", "optional").index(mode))
    wall = build_wall(
        HUANBAO, draws="5z5z5z5z7z", at={123: "7z", 133: "1z", 100: "1z", 101: "5s", 102: "5s"}
    )
    out = play(wall, rv, TPD, dice=(3, 4, 1, 1, 6, 6))
    ev = out["ev"]
    bao = [e for e in ev if e[0] in (TL.EV_BAO, TL.EV_BAO_CHANGE, TL.EV_LOOK)]
    who = -1 if mode == "always" else E
    assert bao == [
        (TL.EV_BAO, E, 33, 7, 123),
        (TL.EV_LOOK, E, 33, 0, 0),
        (TL.EV_BAO_CHANGE, who, 33, 0, 0),
        (TL.EV_BAO, who, 27, 2, 133),
        (TL.EV_LOOK, E, 27, 0, 0),
    ]
    i_change = ev.index((TL.EV_BAO_CHANGE, who, 33, 0, 0))
    i_pung = ev.index((TL.EV_PUNG, N, 33, 0, S))
    if mode == "always":
        assert i_change == i_pung + 1  # at once
    else:
        assert ev[i_pung + 1] == (TL.EV_DISCARD, N, ev[i_pung + 1][2], 0, 0)  # N plays on
        assert i_change > i_pung + 1
    r = out["result"]
    assert (r["winner"], r["how"], r["tile"]) == ("E", "duibao", "1z")
    assert conserved(out, wall)


# ---------------------------------------------------------------- 3. the wall's end
def test_win_only_draws_positions():
    # MIL 五: at 9 stacks left (18 tiles, a loose tile at the tail not counted) the next four
    # draws may only win; the hand is drawn at 7 stacks (14 tiles) whatever the kongs. The
    # default: 7 stacks, 8 with two kongs, +1 per further kong, and no win-only draw.
    g = np.zeros(TL.G_LEN, np.int64)
    g[TL.G_BAO_POS] = -1

    def at(head, tail, kongs, rv):
        g[TL.G_HEAD], g[TL.G_TAIL], g[TL.G_KONGS] = head, tail, kongs
        return WL.can_draw(g, TPM, rv), WL.win_only_draw(g, TPM, rv)

    # no kong: 117 is drawn as usual (19 left), 118..121 are the four win-only draws, 122 none
    assert at(117, 135, 0, RVM) == (True, False)
    assert [at(h, 135, 0, RVM) for h in range(118, 122)] == [(True, True)] * 4
    assert at(122, 135, 0, RVM) == (False, True)
    # three kongs (133..135 drawn; 132 a loose tile): still 7 stacks; default: 9 stacks
    assert at(113, 132, 3, RVM) == (True, False)
    assert at(114, 132, 3, RVM) == (True, True)
    assert at(117, 132, 3, RVM) == (True, True) and at(118, 132, 3, RVM)[0] is False
    assert at(113, 132, 3, RVD) == (True, False) and at(114, 132, 3, RVD) == (False, False)


@pytest.fixture(scope="module")
def mil_sessions():
    """mil2024 sessions recorded with bots that never declare (no bao: no tile held back)."""
    bots = np.array([POLICIES["silent"]] * 4, np.int64)
    seeds, lengths = session_plan(200, 10, 9)
    return [record(sd, int(k), RVM, TPM, bots) for sd, k in zip(seeds, lengths, strict=True)]


def _events(a, h):
    n = int(a["results"][h][TL.R_N_EVENTS])
    return [tuple(int(x) for x in e) for e in a["events"][h][:n]]


def test_wall_end_win_only_four_in_play(mil_sessions):
    # Every drawn hand ends with exactly 7 stacks left whatever the kongs (14 tiles, 15 when a
    # replacement draw left a loose tile at the end, which is no stack); after the first passed
    # draw nothing but draws, passes (and the end) happen: no discard, claim or kong.
    drawn = with_kongs = passed = 0
    for a in mil_sessions:
        for h in range(a["results"].shape[0]):
            res = a["results"][h]
            ev = _events(a, h)
            kinds = [e[0] for e in ev]
            if TL.EV_PASS in kinds:
                tail = kinds[kinds.index(TL.EV_PASS) :]
                assert set(tail) <= {TL.EV_DRAW, TL.EV_PASS, TL.EV_WIN, TL.EV_HUANG}
                assert 1 <= kinds.count(TL.EV_PASS) <= 4
            if res[TL.R_WINNER] < 0:
                drawn += 1
                with_kongs += res[TL.R_KONGS] > 0
                assert res[TL.R_WALL_LEFT] in ((14,) if res[TL.R_KONGS] == 0 else (14, 15))
                assert kinds[-1] == TL.EV_HUANG
                passed += kinds[-2] == TL.EV_PASS
    assert drawn > 5 and with_kongs > 0 and passed > 0


# ---------------------------------------------------------------- 4. 过水
def _state(hands, melds=None):
    """A table with the given concealed hands (and melds: {seat: [(kind, tiles)]})."""
    tab = new_table()
    reset_table(tab, E, False)
    g, ps, conc, melded, ankong, pungs, taken, ms, mrec, nm, pond, exposed, kpay = tab
    for s, text in hands.items():
        for t in T.parse_tiles(text):
            conc[s, t] += 1
    for s, ms_ in (melds or {}).items():
        for kind, text in ms_:
            ts = np.array(T.parse_tiles(text), np.int64)
            for t in ts:
                melded[s, t] += 1
                if kind == L.MELD_ANKONG:
                    ankong[s, t] += 1
                else:
                    exposed[t] += 1
            add_meld(mrec, nm, ms, s, kind, len(ts), ts)
    return tab, new_work(useful_tables())


def test_guoshui_bars_a_discard_win_of_equal_or_lower_fan():
    # S waits on 1z/5s (双碰: 123m456p789s + 11z 55s); either win is 平胡1 + 门清1 = 2 fan. He
    # passed a win worth 2 since his last draw (P_PASSED = 2): under 过水 (MIL 十一-11-2) he may
    # not win on a discard worth 2 or less, so W, the next seat that can, wins instead. A passed
    # win worth 1 bars nothing worth 2; without the option nothing is barred.
    res = np.zeros(TL.R_LEN, np.int64)
    for rv, passed, winner in (
        (RVM, 2, W),
        (RVM, 1, S),
        (RVM, -1, S),
        (with_(RVM, RV_GUOSHUI=0), 2, S),
    ):
        tab, ws = _state({S: "123m456p789s11z55s", W: "123m456p789s5s5s7z7z", E: "1m", N: "1m"})
        tab[1][S, TL.P_PASSED] = passed
        winner_, n = win_claim(tab, ws, E, t_("5s"), False, rv, tables(), BOTS, res)
        assert (winner_, n) == (winner, 2)


def test_guoshui_a_passed_win_is_remembered_until_the_next_draw():
    # A forced pass (knob K_PASS_WIN) on a fixed wall: E (dealer) discards 7z, S waits on it
    # (单调: 123m456p789s234s + 7z: 平胡1 + 门清1 + 夹胡1 = 3 fan) and passes; W, next, wins.
    # With S passing every discard win and W never winning, S's pass is remembered (3) and
    # forgotten at his draw.
    wall = build_wall({E: E_HAND, S: "123m456p789s234s7z", W: "123p456m789m345s7z", N: JUNK[N]})
    bots = BOTS.copy()
    bots[S, TL.K_PASS_WIN] = 1
    out = play(wall, RVM, TPM, bots=bots)
    r = out["result"]
    # W wins the 7z S passed: W 单调 7z too, 3 fan; E (dealer, declared, not looked: 包庄 under
    # cover_needs_look) pays every share: his 3+1+1 = 5 -> 16, S 3 -> 4, N 4: 24
    assert (r["winner"], r["how"], r["tile"], r["discarder"]) == ("W", "dianpao", "7z", "E")
    assert r["payout"] == {"E": -24, "S": 0, "W": 24, "N": 0}
    tab, ws = _state({S: "123m456p789s234s7z", E: "1m", W: "1m", N: "1m"})
    res = np.zeros(TL.R_LEN, np.int64)
    assert win_claim(tab, ws, E, t_("7z"), False, RVM, tables(), bots, res) == (-1, 1)
    assert tab[1][S, TL.P_PASSED] == 3


# ---------------------------------------------------------------- 5. special kongs, first turn
def test_first_turn_entered_by_a_claim_lays_out_but_adds_nothing():
    # special_kong_timing first_turn (MIL 五-6-3): S, dealt 1z2z3z4z and 7z7z, pungs E's first
    # discard 7z before his first draw. His first discard turn was entered by a claim: he may
    # lay out the 旋风杠 (its replacement draw from the end is a 1z) but may add nothing to it,
    # so no 补 of that 1z before his discard. With the default (deal) a claim ends the first
    # turn: no special kong then.
    s_hand = "1z2z3z4z7z7z123m456p9s"
    wall = build_wall({E: E_HAND, S: s_hand, W: JUNK[W], N: JUNK[N]}, tail="1z")
    rv = with_(RVD, RV_SPECIAL_KONG_TIMING=TL.SPECIAL_FIRST_TURN)
    ev = play(wall, rv, TPD)["ev"]
    i = ev.index((TL.EV_PUNG, S, t_("7z"), 0, E))
    assert ev[i + 1] == (TL.EV_SPECIAL, S, t_("1z"), L.MELD_XUANFENG, 4)
    assert ev[i + 2] == (TL.EV_TAIL, S, t_("1z"), 0, 0)
    assert ev[i + 3][:2] == (TL.EV_DISCARD, S)  # no 补 in that turn
    ev_d = play(wall, RVD, TPD)["ev"]
    i = ev_d.index((TL.EV_PUNG, S, t_("7z"), 0, E))
    assert ev_d[i + 1][:2] == (TL.EV_DISCARD, S)


# ---------------------------------------------------------------- 6. 手把一 at the table
@pytest.mark.parametrize(
    "rv_slots, ankong, claim",
    [
        ({}, False, CLAIM_MELD),  # default: the kong is made (the hand then wins only 飘胡)
        ({"RV_SHOUBAYI_NO_CLAIM": 1}, False, CLAIM_NONE),  # MIL 五-4: refused
        # a concealed kong counts as concealed tiles (shoubayi_ankong_concealed): allowed
        ({"RV_SHOUBAYI_NO_CLAIM": 1, "RV_SHOUBAYI_ANKONG_CONCEALED": 1}, True, CLAIM_MELD),
        ({"RV_SHOUBAYI_NO_CLAIM": 1}, True, CLAIM_NONE),  # ... only with that option
    ],
)
def test_no_claim_leaves_a_chow_hand_on_one_tile(rv_slots, ankong, claim):
    # S has [123m] (a chow) and two more sets, 7z7z7z + 9s concealed; E discards 7z. A 明杠
    # would leave four declared sets with a chow and one concealed tile (手把一 that can never
    # be 飘胡): refused under shoubayi_no_claim, unless one set is a concealed kong and the
    # variant counts it as concealed tiles (the judge's declared_sets).
    third = (L.MELD_ANKONG, "9999p") if ankong else (L.MELD_PUNG, "999p")
    tab, ws = _state(
        {S: "7z7z7z9s", E: "1m1m", W: "2m", N: "3m"},
        {S: [(L.MELD_CHOW, "123m"), (L.MELD_PUNG, "555p"), third]},
    )
    g = tab[0]
    g[TL.G_CUR] = E
    tab[10][t_("7z")] += 1  # the discard is in the pond
    wall = build_wall({E: E_HAND, **JUNK})
    dice = np.ones(TL.N_DICE, np.int64)
    res = np.zeros(TL.R_LEN, np.int64)
    ev = np.zeros((TL.MAX_EVENTS, TL.EV_COLS), np.int64)
    rv = with_(RVD, **rv_slots)
    c = claims_on_discard(wall, dice, rv, tables(), TPD, BOTS, ev, res, tab, ws, t_("7z"))
    assert c == claim


# ---------------------------------------------------------------- 7. 七对 at the table
@pytest.mark.parametrize(
    "s_hand, haohua, fan, pays",
    [
        # 七对 waiting 7z (单调): 平胡1 + 门清1 + 七对2 = 4 (MIL 七对 3 fan in its count)
        ("11m99m11p99p11s55s7z", "wait_completes_quad", 4, (32, 8, 8)),
        # a pair of 7z held and a third: the win makes the four -> 豪华 +1 = 5
        ("11m99m11p99p11s7z7z7z", "wait_completes_quad", 5, (64, 16, 16)),
        # four held before the win: plain 七对 under MIL, 豪华 under any_quad
        ("3333s11m99m11p99p7z", "wait_completes_quad", 4, (32, 8, 8)),
        ("3333s11m99m11p99p7z", "any_quad", 5, (64, 16, 16)),
    ],
)
def test_qidui_wins_at_the_table(s_hand, haohua, fan, pays):
    # E (dealer, never declaring) discards 7z; S, tenpai on 七对, wins on it. Payments (mil2024
    # counting; MIL 九): E pays the hand's fan +庄1 +点炮1, W and N the hand's fan; E had not
    # declared, so 包庄: he pays every share. E.g. 豪华: 5+1+1 = 7 -> 64, 5 -> 16 each: 96.
    rv = with_(RVM, RV_HAOHUA=("any_quad", "wait_completes_quad").index(haohua))
    bots = BOTS.copy()
    bots[E] = POLICIES["silent"]
    wall = build_wall({E: E_HAND, S: s_hand, W: JUNK[W], N: JUNK[N]})
    out = play(wall, rv, TPM, bots=bots)
    r = out["result"]
    assert (r["winner"], r["how"], r["tile"], r["discarder"]) == ("S", "dianpao", "7z", "E")
    assert r["fan"] == fan
    total = sum(pays)
    assert r["payout"] == {"E": -total, "S": total, "W": 0, "N": 0}
    assert r["loser_fan"] == {"E": fan + 2, "S": 0, "W": fan, "N": fan}
    assert 2 ** (fan + 1) == pays[0]


# ---------------------------------------------------------------- 8. 包庄 under mil2024
@pytest.mark.parametrize(
    "state, draws, s_pays",
    [
        # S declares with his first discard, 5s, and E wins on it: S declared but never looked
        # at a bao (none rolled yet): MIL 九 包庄: he pays every share
        (1, "5s", 16),
        # S declares (discarding 5z), looks at the bao at his next draw, then discards 5s: he
        # pays only his own share
        (2, "5z5z5z5z5s", 8),
    ],
)
def test_baozhuang_under_mil2024_needs_the_look(state, draws, s_pays):
    # E (dealer) declares on 1z/5s (discarding 7z). His win on S's 5s: 123m456p789s11z + 555s,
    # 双碰: 平胡1 + 门清1 = 2, +庄1 = 3 each, +点炮1 for S = 4: shares S 8, W 4, N 4 (16).
    # With one die (3) the bao is the top of the 3rd stack from the end, 131: 9m, nobody's wait.
    wall = build_wall(
        {E: E_HAND, S: BAOZHUANG_S["looked"], W: JM[W], N: JM[N]}, draws=draws, at={131: "9m"}
    )
    out = play(wall, RVM, TPM)
    ev = out["ev"]
    assert (TL.EV_DECLARE, S, -1, 0, 0) in ev
    assert ((TL.EV_LOOK, S, t_("9m"), 0, 0) in ev) == (state == 2)
    r = out["result"]
    assert (r["winner"], r["how"], r["tile"], r["discarder"]) == ("E", "dianpao", "5s", "S")
    assert out["res"][TL.R_DISCARDER_DECLARED] == state
    assert r["loser_fan"] == {"E": 0, "S": 4, "W": 3, "N": 3}
    others = (16 - s_pays) // 2
    assert r["payout"] == {"E": 16, "S": -s_pays, "W": -others, "N": -others}


# ---------------------------------------------------------------- special kongs: 补 tiles
def test_one_special_kong_per_kind_later_members_are_bu():
    # sanfeng_dan: any three winds make a 旋风杠. E (dealer) is dealt seven winds, 1z2z3z4z +
    # 1z2z3z. Without one_special_kong_per_kind he lays out a 4-wind 旋风杠 and then a second,
    # 3-wind one on his first turn; with it (MIL 三-14…17) only the first: the other winds are
    # 补 tiles of it, added on a later turn (the dealer may not 补 on his first).
    e_hand = "1z2z3z4z1z2z3z123m456p9s"
    junk = {S: "147m258p369s5z5z6z7z", W: "258m369p147s5z6z6z7z", N: "369m147p28s4s5z6z7z8m"}
    wall = build_wall({E: e_hand, **junk}, tail="9p9p8p8p")
    rv = with_(RVD, RV_SANFENG=1)
    for one, n_special in ((0, 2), (1, 1)):
        ev = play(wall, with_(rv, RV_ONE_SPECIAL_PER_KIND=one), TPD)["ev"]
        first = next(i for i, e in enumerate(ev) if e[0] == TL.EV_DISCARD)
        specials = [e for e in ev[:first] if e[0] == TL.EV_SPECIAL]
        assert [e[3] for e in specials] == [L.MELD_XUANFENG] * n_special
        assert all(e[0] != TL.EV_BU for e in ev[:first])
        if one:
            assert any(e[0] == TL.EV_BU and e[1] == E and e[3] == L.MELD_XUANFENG for e in ev)


def test_xi_bu_any_honor_takes_a_wind_onto_the_xigang():
    # S is dealt 中发白 and a lone 2z: on his first turn he lays out the 喜杠 (3 tiles, no
    # replacement draw). Under xi_bu_any_honor a wind is a 补 tile of a 喜杠: he adds the 2z
    # (it helps his hand nowhere else) and draws a replacement; by default a wind is no 补
    # tile of a 喜杠 and the 2z stays in his hand.
    s_hand = "5z6z7z2z123m456p78s9m"
    wall = build_wall({E: E_HAND, S: s_hand, W: JUNK[W], N: JUNK[N]}, draws="4m", tail="9p")
    bu = (TL.EV_BU, S, t_("2z"), L.MELD_XI, 0)
    ev = play(wall, with_(RVD, RV_XI_BU_ANY_HONOR=1), TPD)["ev"]
    i = ev.index((TL.EV_SPECIAL, S, t_("5z"), L.MELD_XI, 3))
    assert ev[i + 1] == bu and ev[i + 2] == (TL.EV_TAIL, S, t_("9p"), 0, 0)
    ev = play(wall, RVD, TPD)["ev"]
    assert (TL.EV_SPECIAL, S, t_("5z"), L.MELD_XI, 3) in ev and bu not in ev


# ---------------------------------------------------------------- the options are validated
@pytest.mark.parametrize(
    "key, value",
    [
        ("bao_place", "bottom"),
        ("wall_end", 9),
        ("guoshui", "yes"),
        ("shoubayi_no_claim", 1),
    ],
)
def test_bad_table_option_values_exit_3_naming_the_key(tmp_path, key, value):
    import json
    import subprocess
    import sys

    p = tmp_path / "bad.yaml"
    p.write_text(json.dumps({"extends": "default", key: value}), encoding="utf-8")
    r = subprocess.run(
        [sys.executable, "-m", "ccmj_cli", "rules", "--rules", str(p)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert r.returncode == 3, r.stderr
    assert f"key '{key}'" in r.stderr and len(r.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "args, says",
    [
        (["--preset", "bogus"], "unknown preset 'bogus'"),
        (["--preset", "mil2024", "-r", "x"], "not both"),
    ],
)
def test_simulate_preset_errors_are_one_line(args, says):
    import subprocess
    import sys

    r = subprocess.run(
        [sys.executable, "-m", "ccmj_cli", "simulate", "-n", "1", *args],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert r.returncode == 2 and says in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_xiaoji_wildcard_any_takes_a_1s_as_bu():
    # xiaoji_wildcard any (MIL: 一条 stands in for any member, any number of times): a 1s is a
    # 补 tile of any special kong. S lays out his dealt 1z2z3z4z (旋风杠; no 1s needed), draws
    # a replacement, and adds his lone 1s to it; by default a 1s is no member of a 旋风杠.
    s_hand = "1z2z3z4z1s123m456p78s"
    wall = build_wall({E: E_HAND, S: s_hand, W: JUNK[W], N: JUNK[N]}, draws="9m", tail="9p9p")
    bu = (TL.EV_BU, S, t_("1s"), L.MELD_XUANFENG, 0)
    rv = with_(RVD, RV_XIAOJI=L.XIAOJI_ANY)
    ev = play(wall, rv, TPD)["ev"]
    i = ev.index((TL.EV_SPECIAL, S, t_("1z"), L.MELD_XUANFENG, 4))
    assert ev[i + 1] == (TL.EV_TAIL, S, t_("9p"), 0, 0) and ev[i + 2] == bu
    assert bu not in play(wall, RVD, TPD)["ev"]
