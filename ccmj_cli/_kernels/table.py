"""The table engine: one complete Changchun hand with four bots (RULES.md §6-§8).

``play_hand`` plays a hand from a given wall (tile kinds in draw order) and dealer; it is
deterministic, so a fixed wall is a replay and a test fixture. ``play_session`` shuffles walls
from an explicit seed (splitmix64, seeded at the session start) and rotates the dealer;
``run_sessions`` runs many sessions in parallel threads, each writing its own statistics row,
so results do not depend on the number of threads.

The wall model: 136 tiles in draw order. Tiles 0-12 go to the dealer, 13-25 to the next seat
counter-clockwise, 26-38, 39-51 to the others, 52 to the dealer (his 14th); draws take the head
(53, 54, ...), replacement draws (kong, 补, 旋风杠) the tail (135, 134, ...). The wall is shuffled
uniformly, so where the dice break it is statistically irrelevant and not modelled; the bao dice
are. The bao is the tile ``2 * (dice - 1)`` places before the current tail (dice counted in stacks
of two), clamped to the head; it stays in the wall (draws step over it) until 换宝.

Every rule judgment goes through the shared kernels: ``judge.judge_win`` / ``judge_waits``
(legality, 夹胡, 飘胡, 独听, tenpai), ``score.fan_items`` + ``settle`` (fan and payments),
``score.kong_value`` + ``settle_kong`` (kong money), ``policy.choose_discard`` (discards).
"""

import numpy as np
from numba import config, get_num_threads, prange, set_num_threads

from .jit import compiled_njit as njit
from .judge import (
    LOOK_OK,
    W_COLS,
    W_LEGAL,
    all_waits,
    is_yaojiu,
    judge_waits,
    judge_win,
    look_rule,
)
from .layout import (
    FIRST_SPECIAL,
    HONOR,
    HOW_DISCARD,
    HOW_DUIBAO,
    HOW_MOBAO,
    HOW_SELF,
    MELD_ANKONG,
    MELD_CHOW,
    MELD_JIUDAN,
    MELD_KONG,
    MELD_PUNG,
    MELD_XI,
    MELD_XUANFENG,
    MELD_YAODAN,
    MS_CHOWS,
    MS_CLAIMED,
    MS_LEN,
    MS_PUNGS,
    MS_SETS,
    MS_SPECIALS,
    MS_SUITS,
    MS_YAOJIU,
    N_FAN,
    N_KINDS,
    N_SEATS,
    ONE_S,
    RD_JIAHU,
    RD_LEN,
    RD_MENQING,
    RD_PIAO,
    RD_QIDUI,
)
from .policy import choose_discard
from .score import fan_items, kong_value, settle, settle_kong
from .shape import shanten
from .table_bots import accept_call, best_after_discard, legal_mask, shanten_without
from .table_layout import (
    EV_ANKONG,
    EV_BAO,
    EV_BAO_CHANGE,
    EV_BU,
    EV_CHOW,
    EV_COLS,
    EV_DECLARE,
    EV_DISCARD,
    EV_DRAW,
    EV_HUANG,
    EV_JIAGANG,
    EV_KONG_ROBBED,
    EV_LOOK,
    EV_MINGKONG,
    EV_PUNG,
    EV_ROB_PUNG,
    EV_SPECIAL,
    EV_TAIL,
    EV_WIN,
    K_CALL,
    K_DECLARE,
    K_KONG,
    K_SPECIAL,
    N_FAN_BINS,
    R_BAO_ROLLED,
    R_DEALER,
    R_DECLARED,
    R_DISCARDER,
    R_DISCARDS,
    R_FAN,
    R_HOW,
    R_JIAHU,
    R_JIEHU,
    R_KONG_PAY,
    R_KONGS,
    R_LEN,
    R_MENQING,
    R_N_EVENTS,
    R_NEXT_DEALER,
    R_PAY,
    R_PHYS,
    R_PIAO,
    R_ROBBED,
    R_TILE,
    R_WALL_LEFT,
    R_WIN_FAN,
    R_WINNER,
    S_BAO_ROLLED,
    S_DEALER_PAY,
    S_DEALER_PAY2,
    S_DEALER_WINS,
    S_DECLARED,
    S_DISCARD_WINS,
    S_DISCARDER_PAY,
    S_DISCARDS,
    S_DRAWS,
    S_FAN_HIST,
    S_HANDS,
    S_JIAHU,
    S_JIEHU,
    S_KONG,
    S_KONG_MONEY,
    S_KONGS,
    S_MENQING,
    S_METHOD,
    S_PAY,
    S_PAY2,
    S_PIAO,
    S_ROBBED,
    S_WINS,
    TP_BAO_DICE,
    TP_DEAD_STACKS,
    TP_SANFENG,
    TP_XIAOJI,
)

N_WALL = 136
N_DICE = 16  # dice pre-rolled per hand (bao rolls and re-rolls use them in turn)
MAX_MELDS = 6
MELD_COLS = 18  # kind, tile count, up to 16 tiles
MAX_EVENTS = 400

# scalar state slots: g[G_*]
G_HEAD = 0
G_TAIL = 1
G_BAO_POS = 2
G_BAO = 3
G_BAO_VER = 4
G_KONGS = 5
G_DICE_I = 6
G_NEV = 7
G_REC = 8
G_NSTR = 9  # wall tiles the draws stepped over (the bao in place): still in the wall
G_STR = 10  # their positions (up to 6)
G_LEN = 16

# phases of the turn loop
PH_DRAW = 0
PH_SELF = 1


# ------------------------------------------------------------------ random numbers (splitmix64)
@njit(cache=True)
def rng_next(st):
    st[0] += np.uint64(0x9E3779B97F4A7C15)
    z = st[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def rng_below(st, n):
    return np.int64(rng_next(st) % np.uint64(n))


@njit(cache=True)
def shuffle_wall(st, wall):
    """A uniformly shuffled wall of tile kinds (Fisher-Yates)."""
    for i in range(N_WALL):
        wall[i] = i // 4
    for i in range(N_WALL - 1, 0, -1):
        j = rng_below(st, i + 1)
        tmp = wall[i]
        wall[i] = wall[j]
        wall[j] = tmp


# ------------------------------------------------------------------ small helpers
@njit(cache=True)
def _event(ev, g, kind, seat, tile, a, b):
    n = g[G_NEV]
    if g[G_REC] and n < ev.shape[0]:
        ev[n, 0] = kind
        ev[n, 1] = seat
        ev[n, 2] = tile
        ev[n, 3] = a
        ev[n, 4] = b
    g[G_NEV] = n + 1


@njit(cache=True)
def _reserve_stacks(g, tp):
    """RULES §8: 7 stacks never drawn; 8 with two kongs, +1 per further kong."""
    k = g[G_KONGS]
    return tp[TP_DEAD_STACKS] + (k - 1 if k >= 2 else 0)


@njit(cache=True)
def can_draw(g, tp):
    remaining = g[G_TAIL] - g[G_HEAD] + 1 + g[G_NSTR]  # the bao stays in the wall and counts
    return remaining // 2 > _reserve_stacks(g, tp)  # an odd leftover tile is not a stack


@njit(cache=True)
def _strand(g, pos):
    """A draw steps over the bao, which stays in the wall."""
    n = g[G_NSTR]
    if n < G_LEN - G_STR:
        g[G_STR + n] = pos
    g[G_NSTR] = n + 1


@njit(cache=True)
def _draw_head(wall, g):
    if g[G_HEAD] == g[G_BAO_POS]:
        _strand(g, g[G_HEAD])
        g[G_HEAD] += 1
    t = wall[g[G_HEAD]]
    g[G_HEAD] += 1
    return t


@njit(cache=True)
def _draw_tail(wall, g):
    if g[G_TAIL] == g[G_BAO_POS]:
        _strand(g, g[G_TAIL])
        g[G_TAIL] -= 1
    t = wall[g[G_TAIL]]
    g[G_TAIL] -= 1
    return t


@njit(cache=True)
def _own(conc, melded, s, out):
    for t in range(N_KINDS):
        out[t] = conc[s, t] + melded[s, t]


@njit(cache=True)
def _unseen(conc, ankong, pond, exposed, s, out):
    """What seat s cannot see: 4 minus his hand, his concealed kongs, discards, exposed melds."""
    for t in range(N_KINDS):
        u = 4 - conc[s, t] - ankong[s, t] - pond[t] - exposed[t]
        out[t] = u if u > 0 else 0


@njit(cache=True)
def _special_group(kind, out):
    """Tiles of a special kong's group; returns how many tiles the basic kong takes."""
    if kind == MELD_XUANFENG:
        for i in range(4):
            out[i] = HONOR + i
        return 4
    if kind == MELD_XI:
        for i in range(3):
            out[i] = HONOR + 4 + i
        return 3
    first = 0 if kind == MELD_YAODAN else 8
    for i in range(3):
        out[i] = first + 9 * i
    return 3


@njit(cache=True)
def _group_of(t):
    """The special kong kind a 补 tile t belongs to (-1 for none)."""
    if t >= HONOR + 4:
        return MELD_XI
    if t >= HONOR:
        return MELD_XUANFENG
    if t % 9 == 0:
        return MELD_YAODAN
    if t % 9 == 8:
        return MELD_JIUDAN
    return -1


@njit(cache=True)
def _add_meld(mrec, nm, ms, s, kind, t0, n, tiles):
    """Record a meld for seat s and update his meld summary (tiles.Hand.meld_summary semantics)."""
    m = nm[s]
    mrec[s, m, 0] = kind
    mrec[s, m, 1] = n
    for i in range(n):
        mrec[s, m, 2 + i] = tiles[i]
    nm[s] = m + 1
    ms[s, MS_SETS] += 1
    for i in range(n):
        t = tiles[i]
        if t < HONOR:
            ms[s, MS_SUITS] |= 1 << (t // 9)
        if is_yaojiu(t):
            ms[s, MS_YAOJIU] = 1
    if kind == MELD_CHOW:
        ms[s, MS_CHOWS] += 1
    elif kind >= FIRST_SPECIAL:
        ms[s, MS_SPECIALS] += 1
    else:
        ms[s, MS_PUNGS] += 1
    if kind == MELD_CHOW or kind == MELD_PUNG or kind == MELD_KONG:
        ms[s, MS_CLAIMED] += 1


@njit(cache=True)
def _ms_with_pung(ms, s, t, claimed, out):
    """``out`` = seat s's meld summary plus a pung/kong of t (as ``_add_meld`` would make it)."""
    for i in range(MS_LEN):
        out[i] = ms[s, i]
    out[MS_SETS] += 1
    out[MS_PUNGS] += 1
    if claimed:
        out[MS_CLAIMED] += 1
    if t < HONOR:
        out[MS_SUITS] |= 1 << (t // 9)
    if is_yaojiu(t):
        out[MS_YAOJIU] = 1


@njit(cache=True)
def _find_meld(mrec, nm, s, kind, t):
    for m in range(nm[s]):
        if mrec[s, m, 0] == kind and (t < 0 or mrec[s, m, 2] == t):
            return m
    return -1


@njit(cache=True)
def _roll_bao(wall, g, dice, tp, pond, exposed, ev, seat):
    """Roll for the bao (re-rolling while its kind is dead); returns the bao tile."""
    for _ in range(8):
        d = 0
        for _k in range(tp[TP_BAO_DICE]):
            d += dice[g[G_DICE_I] % N_DICE]
            g[G_DICE_I] += 1
        pos = g[G_TAIL] - 2 * (d - 1)
        if pos < g[G_HEAD]:
            pos = g[G_HEAD]
        g[G_BAO_POS] = pos
        g[G_BAO] = wall[pos]
        g[G_BAO_VER] += 1
        _event(ev, g, EV_BAO, seat, g[G_BAO], d, pos)
        b = g[G_BAO]
        if pond[b] + exposed[b] < 3:
            break
        _event(ev, g, EV_BAO_CHANGE, -1, b, 0, 0)
    return g[G_BAO]


@njit(cache=True)
def _check_bao_dead(wall, g, dice, tp, pond, exposed, ev):
    """换宝: the three other copies of the bao kind are public -> re-roll."""
    b = g[G_BAO]
    if b >= 0 and pond[b] + exposed[b] >= 3:
        _event(ev, g, EV_BAO_CHANGE, -1, b, 0, 0)
        _roll_bao(wall, g, dice, tp, pond, exposed, ev, -1)


@njit(cache=True)
def _may_look(conc, melded, s, rv):
    """May a tenpai player look at the bao: the shared judge.look_rule on his tiles, melds
    included (断幺九 may not, under bao_forbidden_without_yaojiu)."""
    own = conc[s].astype(np.int64) + melded[s]
    return look_rule(True, own, rv) == LOOK_OK


@njit(cache=True)
def _can_win(c, t, ms_s, own, rv, tb, rd):
    """Is the 3k+1 hand ``c`` + t a legal win (the shared judgment, after a structural check)."""
    if not (all_waits(c, ms_s, rv, tb) >> t & 1):
        return False
    return judge_win(c, t, ms_s, own, rv, tb, rd)


@njit(cache=True)
def _score(c, t, ms_s, own, how, winner, dealer, discarder, rv, tb, rd, items, fan, pay):
    """Judge and settle the win of ``c`` (3k+1 tiles) + t; the hand's own fan (-1: illegal)."""
    if not judge_win(c, t, ms_s, own, rv, tb, rd):
        return -1
    haohua = 0
    if rd[RD_QIDUI]:
        c[t] += 1
        for k in range(N_KINDS):
            if c[k] == 4:
                haohua = 1
        c[t] -= 1
    fan_items(rd, how, haohua, rv, items)
    settle(items, winner, dealer, discarder, how, rv, fan, pay)
    total = 0
    for i in range(N_FAN):
        total += items[i]
    return total


@njit(cache=True)
def _bao_win(c, ms_s, own, how, winner, dealer, rv, tb, rd, items, fan, pay, buf):
    """摸宝: the bao stands for the legal wait that scores best; returns that tile (-1 none)."""
    judge_waits(c, ms_s, own, rv, tb, buf)
    best = -1
    best_total = -1
    for w in range(N_KINDS):
        if buf[w, W_LEGAL]:
            tot = _score(c, w, ms_s, own, how, winner, dealer, -1, rv, tb, rd, items, fan, pay)
            if tot > best_total:
                best_total = tot
                best = w
    if best >= 0:
        _score(c, best, ms_s, own, how, winner, dealer, -1, rv, tb, rd, items, fan, pay)
    return best


@njit(cache=True)
def _capture(res, rd, items, fan, pay):
    """Copy the winner's judgment and payments into the result (before rd is reused)."""
    total = 0
    for i in range(N_FAN):
        total += items[i]
    res[R_FAN] = total
    res[R_JIAHU] = rd[RD_JIAHU]
    res[R_PIAO] = rd[RD_PIAO]
    res[R_MENQING] = rd[RD_MENQING]
    for s in range(N_SEATS):
        res[R_WIN_FAN + s] = fan[s]
        res[R_PAY + s] = pay[s]


@njit(cache=True)
def _call_value(c2, ms2, own2, unseen, rv, tb, buf, sh_before, level):
    """(shanten, live) after a call and the policy's discard, as ``best_after_discard``.

    Shortcut with the same answer: the shanten of 3k+2 tiles is the shanten after their best
    discard, so the discard policy only runs when the call can pass the shanten test.
    """
    sh = shanten(c2, tb)
    if sh < 0:
        sh = 0
    if level == 0 or sh > sh_before or (level == 1 and sh == sh_before):
        return sh, 1
    return best_after_discard(c2, ms2, own2, unseen, rv, tb, buf)


# ------------------------------------------------------------------ one hand
@njit(cache=True)
def play_hand(wall, dealer, dice, rv, tb, tp, bots, ev, rec, res, conc, melded, mrec, nm, pond):
    """Play one hand from ``wall`` (int64[136] tile kinds in draw order).

    Fills ``res`` (R_* layout). When ``rec`` is true, events go to ``ev`` (EV_* rows). ``conc``,
    ``melded`` (every meld tile of a seat), ``mrec``/``nm`` (the melds) and ``pond`` (discards not
    claimed) hold the final state for inspection; conservation: conc + melded + pond + wall left
    = 4 of every kind.
    """
    for i in range(res.shape[0]):
        res[i] = 0
    res[R_WINNER] = -1
    res[R_HOW] = -1
    res[R_TILE] = -1
    res[R_PHYS] = -1
    res[R_DISCARDER] = -1
    res[R_DEALER] = dealer
    conc[:, :] = 0
    melded[:, :] = 0
    mrec[:, :, :] = -1
    nm[:] = 0
    pond[:] = 0
    ankong = np.zeros((N_SEATS, N_KINDS), np.uint8)
    pungs = np.zeros((N_SEATS, N_KINDS), np.uint8)  # exposed pung (may become 加杠)
    exposed = np.zeros(N_KINDS, np.int64)
    ms = np.zeros((N_SEATS, MS_LEN), np.int64)
    declared = np.zeros(N_SEATS, np.int64)
    looked = np.full(N_SEATS, -1, np.int64)
    first = np.ones(N_SEATS, np.int64)
    has_special = np.zeros((N_SEATS, 8), np.int64)
    g = np.zeros(G_LEN, np.int64)
    g[G_TAIL] = N_WALL - 1
    g[G_BAO_POS] = -1
    g[G_BAO] = -1
    g[G_REC] = 1 if rec else 0
    own = np.zeros(N_KINDS, np.int64)
    own2 = np.zeros(N_KINDS, np.int64)
    unseen = np.zeros(N_KINDS, np.int64)
    buf = np.zeros((N_KINDS, W_COLS), np.int64)
    rd = np.zeros(RD_LEN, np.int64)
    items = np.zeros(N_FAN, np.int64)
    fan = np.zeros(N_SEATS, np.int64)
    pay = np.zeros(N_SEATS, np.int64)
    kpay = np.zeros(N_SEATS, np.int64)
    grp = np.zeros(4, np.int64)
    mt = np.zeros(16, np.int64)
    c2 = np.zeros(N_KINDS, np.uint8)
    ms2 = np.zeros(MS_LEN, np.int64)

    # deal: 13 each counter-clockwise from the dealer, then the dealer's 14th
    for k in range(4):
        s = (dealer + k) % N_SEATS
        for i in range(13):
            conc[s, wall[13 * k + i]] += 1
    conc[dealer, wall[52]] += 1
    g[G_HEAD] = 53

    cur = dealer
    drawn = wall[52]  # the dealer's 14th tile counts as his draw (a complete start wins: 天胡)
    phase = PH_SELF
    winner = -1
    how = -1
    win_tile = -1
    phys = -1
    discarder = -1
    while True:
        if phase == PH_DRAW:
            # a declared player looks at the bao at his draw (the first one rolls for it)
            if declared[cur] and _may_look(conc, melded, cur, rv):
                if g[G_BAO] < 0:
                    _roll_bao(wall, g, dice, tp, pond, exposed, ev, cur)
                    res[R_BAO_ROLLED] = 1
                if looked[cur] != g[G_BAO_VER]:
                    looked[cur] = g[G_BAO_VER]
                    _event(ev, g, EV_LOOK, cur, g[G_BAO], 0, 0)
                    _own(conc, melded, cur, own)
                    judge_waits(conc[cur], ms[cur], own, rv, tb, buf)
                    if buf[g[G_BAO], W_LEGAL]:  # 对宝: the hand wins with the bao's kind
                        w = g[G_BAO]
                        if (
                            _score(
                                conc[cur],
                                w,
                                ms[cur],
                                own,
                                HOW_DUIBAO,
                                cur,
                                dealer,
                                -1,
                                rv,
                                tb,
                                rd,
                                items,
                                fan,
                                pay,
                            )
                            >= 0
                        ):
                            _capture(res, rd, items, fan, pay)
                            winner, how, win_tile, phys = cur, HOW_DUIBAO, w, -1
                            break
            if not can_draw(g, tp):
                _event(ev, g, EV_HUANG, -1, -1, 0, 0)
                break
            drawn = _draw_head(wall, g)
            conc[cur, drawn] += 1
            _event(ev, g, EV_DRAW, cur, drawn, 0, 0)
            phase = PH_SELF

        # ---------------- the player on turn holds 3k+2 tiles
        dealer_first = first[cur] == 1 and cur == dealer and res[R_DISCARDS] == 0
        allow_kong = drawn >= 0 or dealer_first
        robbed_to = -1
        while True:
            if drawn >= 0:  # win on the tile just drawn (摸宝 when it is the bao's kind)
                c = conc[cur]
                c[drawn] -= 1
                _own(conc, melded, cur, own)
                done = False
                if (
                    declared[cur]
                    and looked[cur] >= 0
                    and looked[cur] == g[G_BAO_VER]
                    and drawn == g[G_BAO]
                ):
                    w = _bao_win(
                        c, ms[cur], own, HOW_MOBAO, cur, dealer, rv, tb, rd, items, fan, pay, buf
                    )
                    if w >= 0:
                        _capture(res, rd, items, fan, pay)
                        winner, how, win_tile, phys = cur, HOW_MOBAO, w, drawn
                        done = True
                if not done and _can_win(c, drawn, ms[cur], own, rv, tb, rd):
                    _score(
                        c,
                        drawn,
                        ms[cur],
                        own,
                        HOW_SELF,
                        cur,
                        dealer,
                        -1,
                        rv,
                        tb,
                        rd,
                        items,
                        fan,
                        pay,
                    )
                    _capture(res, rd, items, fan, pay)
                    winner, how, win_tile, phys = cur, HOW_SELF, drawn, drawn
                    done = True
                c[drawn] += 1
                if done:
                    break
            if not allow_kong:
                break
            # special kongs from the starting hand (旋风杠 takes a replacement draw)
            again = False
            if first[cur] and bots[cur, K_SPECIAL] and not declared[cur]:
                for kind in range(MELD_XUANFENG, MELD_JIUDAN + 1):
                    n = _special_group(kind, grp)
                    ok = True
                    for i in range(n):
                        if conc[cur, grp[i]] == 0:
                            ok = False
                    if kind == MELD_XUANFENG and tp[TP_SANFENG] and not ok:
                        # 三风蛋: three different winds
                        m3 = 0
                        for i in range(4):
                            if conc[cur, grp[i]]:
                                mt[m3] = grp[i]
                                m3 += 1
                        if m3 == 3:
                            n = 3
                            for i in range(3):
                                grp[i] = mt[i]
                            ok = True
                    if not ok and tp[TP_XIAOJI] and kind != MELD_YAODAN and conc[cur, ONE_S]:
                        # 小鸡飞蛋: one 幺鸡 stands in for the one missing member
                        missing = -1
                        n_missing = 0
                        for i in range(n):
                            if conc[cur, grp[i]] == 0:
                                missing = i
                                n_missing += 1
                        if n_missing == 1:
                            grp[missing] = ONE_S
                            ok = True
                    if not ok:
                        continue
                    if kind == MELD_XUANFENG and not can_draw(g, tp):
                        continue
                    for i in range(n):
                        conc[cur, grp[i]] -= 1
                        melded[cur, grp[i]] += 1
                        exposed[grp[i]] += 1
                        mt[i] = grp[i]
                    _add_meld(mrec, nm, ms, cur, kind, grp[0], n, mt)
                    has_special[cur, kind] += 1
                    settle_kong(cur, kong_value(kind, grp[0], 0, rv), kpay)
                    g[G_KONGS] += 1
                    res[R_KONGS] += 1
                    _event(ev, g, EV_SPECIAL, cur, grp[0], kind, n)
                    _check_bao_dead(wall, g, dice, tp, pond, exposed, ev)
                    if kind == MELD_XUANFENG:
                        drawn = _draw_tail(wall, g)
                        conc[cur, drawn] += 1
                        _event(ev, g, EV_TAIL, cur, drawn, 0, 0)
                        again = True
                        break
                if again:
                    continue
            first[cur] = 0
            # kongs and 补: pick at most one, then draw a replacement and look again
            if not can_draw(g, tp) or not bots[cur, K_KONG]:
                break
            kt = -1
            kk = -1  # 0 暗杠, 1 加杠, 2 补
            _own(conc, melded, cur, own)
            if declared[cur]:
                if drawn >= 0:
                    t = drawn
                    if conc[cur, t] == 4:
                        c = conc[cur]
                        c[t] -= 1
                        before = legal_mask(c, ms[cur], own, rv, tb, buf)
                        c[t] -= 3
                        _ms_with_pung(ms, cur, t, False, ms2)
                        after = legal_mask(c, ms2, own, rv, tb, buf)
                        c[t] += 4
                        if before == after and before != 0:
                            kt, kk = t, 0
                    elif pungs[cur, t]:
                        kt, kk = t, 1
                    elif _group_of(t) >= 0 and has_special[cur, _group_of(t)]:
                        kt, kk = t, 2
            else:
                sh0 = max(shanten(conc[cur], tb), 0)  # = shanten after the policy's discard
                for t in range(N_KINDS):
                    if conc[cur, t] == 4 and shanten_without(conc[cur], t, 4, tb) <= sh0:
                        kt, kk = t, 0
                        break
                    if (
                        conc[cur, t] >= 1
                        and pungs[cur, t]
                        and shanten_without(conc[cur], t, 1, tb) <= sh0
                    ):
                        kt, kk = t, 1
                        break
                    gk = _group_of(t)
                    if (
                        conc[cur, t] >= 1
                        and gk >= 0
                        and has_special[cur, gk]
                        and not dealer_first
                        and shanten_without(conc[cur], t, 1, tb) <= sh0
                    ):
                        kt, kk = t, 2
                        break
            if kt < 0:
                break
            if kk == 0:
                conc[cur, kt] -= 4
                melded[cur, kt] += 4
                ankong[cur, kt] += 4
                for i in range(4):
                    mt[i] = kt
                _add_meld(mrec, nm, ms, cur, MELD_ANKONG, kt, 4, mt)
                settle_kong(cur, kong_value(MELD_ANKONG, kt, 0, rv), kpay)
                g[G_KONGS] += 1
                res[R_KONGS] += 1
                _event(ev, g, EV_ANKONG, cur, kt, 0, 0)
            else:
                # 加杠 / 补 can be robbed: 胡 first (抢杠胡), then 碰 on a 补 tile (抢叉)
                conc[cur, kt] -= 1
                for k in range(1, N_SEATS):
                    s = (cur + k) % N_SEATS
                    _own(conc, melded, s, own2)
                    if _can_win(conc[s], kt, ms[s], own2, rv, tb, rd):
                        _score(
                            conc[s],
                            kt,
                            ms[s],
                            own2,
                            HOW_DISCARD,
                            s,
                            dealer,
                            cur,
                            rv,
                            tb,
                            rd,
                            items,
                            fan,
                            pay,
                        )
                        _capture(res, rd, items, fan, pay)
                        conc[s, kt] += 1
                        winner, how, win_tile, phys, discarder = s, HOW_DISCARD, kt, kt, cur
                        res[R_ROBBED] += 1
                        _event(ev, g, EV_KONG_ROBBED, s, kt, 1, cur)
                        break
                if winner >= 0:
                    break
                if kk == 2:
                    for k in range(1, N_SEATS):
                        s = (cur + k) % N_SEATS
                        if conc[s, kt] < 2 or declared[s] or not bots[s, K_CALL]:
                            continue
                        _own(conc, melded, s, own2)
                        own2[kt] += 1
                        for i in range(N_KINDS):
                            c2[i] = conc[s, i]
                        c2[kt] -= 2
                        _ms_with_pung(ms, s, kt, True, ms2)
                        _unseen(conc, ankong, pond, exposed, s, unseen)
                        sh_b = shanten(conc[s], tb)
                        sh_a, live_a = _call_value(
                            c2, ms2, own2, unseen, rv, tb, buf, sh_b, bots[s, K_CALL]
                        )
                        if accept_call(bots[s, K_CALL], sh_b, sh_a, live_a, ms2):
                            robbed_to = s
                            break
                    if robbed_to >= 0:
                        s = robbed_to
                        conc[s, kt] -= 2
                        melded[s, kt] += 3
                        exposed[kt] += 3
                        pungs[s, kt] = 1
                        for i in range(3):
                            mt[i] = kt
                        _add_meld(mrec, nm, ms, s, MELD_PUNG, kt, 3, mt)
                        res[R_ROBBED] += 1
                        _event(ev, g, EV_KONG_ROBBED, s, kt, 0, cur)
                        _event(ev, g, EV_ROB_PUNG, s, kt, 0, cur)
                        _check_bao_dead(wall, g, dice, tp, pond, exposed, ev)
                        cur = s
                        drawn = -1
                        allow_kong = False
                        first[cur] = 0
                        break
                melded[cur, kt] += 1
                exposed[kt] += 1
                if kk == 1:
                    m = _find_meld(mrec, nm, cur, MELD_PUNG, kt)
                    mrec[cur, m, 0] = MELD_KONG
                    mrec[cur, m, 1] = 4
                    mrec[cur, m, 5] = kt
                    pungs[cur, kt] = 0
                    settle_kong(cur, kong_value(MELD_KONG, kt, 0, rv), kpay)
                    g[G_KONGS] += 1
                    res[R_KONGS] += 1
                    _event(ev, g, EV_JIAGANG, cur, kt, 0, 0)
                else:
                    gk = _group_of(kt)
                    m = _find_meld(mrec, nm, cur, gk, -1)
                    n = mrec[cur, m, 1]
                    if n < 16:
                        mrec[cur, m, 2 + n] = kt
                        mrec[cur, m, 1] = n + 1
                    settle_kong(cur, kong_value(gk, kt, 1, rv) - kong_value(gk, kt, 0, rv), kpay)
                    _event(ev, g, EV_BU, cur, kt, gk, 0)
            _check_bao_dead(wall, g, dice, tp, pond, exposed, ev)
            drawn = _draw_tail(wall, g)
            conc[cur, drawn] += 1
            _event(ev, g, EV_TAIL, cur, drawn, 0, 0)
        if winner >= 0:
            break
        first[cur] = 0

        # ---------------- discard
        if declared[cur] and drawn >= 0:
            d = drawn  # the hand is locked after 报听
        else:
            _own(conc, melded, cur, own)
            _unseen(conc, ankong, pond, exposed, cur, unseen)
            d = choose_discard(conc[cur], ms[cur], own, unseen, rv, tb)
        conc[cur, d] -= 1
        pond[d] += 1
        res[R_DISCARDS] += 1
        _event(ev, g, EV_DISCARD, cur, d, 0, 0)
        if not declared[cur] and bots[cur, K_DECLARE]:
            _own(conc, melded, cur, own)
            if judge_waits(conc[cur], ms[cur], own, rv, tb, buf) > 0:
                declared[cur] = 1
                res[R_DECLARED] |= 1 << cur
                _event(ev, g, EV_DECLARE, cur, -1, 0, 0)
        _check_bao_dead(wall, g, dice, tp, pond, exposed, ev)

        # ---------------- claims: 胡 (nearest counter-clockwise wins: 截胡) > 碰/杠 > 吃
        n_win = 0
        for k in range(1, N_SEATS):
            s = (cur + k) % N_SEATS
            _own(conc, melded, s, own2)
            if _can_win(conc[s], d, ms[s], own2, rv, tb, rd):
                n_win += 1
                if winner < 0:
                    _score(
                        conc[s],
                        d,
                        ms[s],
                        own2,
                        HOW_DISCARD,
                        s,
                        dealer,
                        cur,
                        rv,
                        tb,
                        rd,
                        items,
                        fan,
                        pay,
                    )
                    _capture(res, rd, items, fan, pay)
                    winner, how, win_tile, phys, discarder = s, HOW_DISCARD, d, d, cur
        if winner >= 0:
            pond[d] -= 1
            conc[winner, d] += 1
            if n_win > 1:
                res[R_JIEHU] = 1
            break
        claimed = False
        for k in range(1, N_SEATS):
            s = (cur + k) % N_SEATS
            if conc[s, d] < 2:
                continue
            _own(conc, melded, s, own2)
            if conc[s, d] == 3 and bots[s, K_KONG] and can_draw(g, tp):
                ok = False
                _ms_with_pung(ms, s, d, True, ms2)
                if declared[s]:
                    before = legal_mask(conc[s], ms[s], own2, rv, tb, buf)
                    for i in range(N_KINDS):
                        c2[i] = conc[s, i]
                    c2[d] -= 3
                    own2[d] += 1
                    after = legal_mask(c2, ms2, own2, rv, tb, buf)
                    own2[d] -= 1
                    ok = before == after and before != 0
                else:
                    ok = shanten_without(conc[s], d, 3, tb) <= shanten(conc[s], tb)
                if ok:
                    pond[d] -= 1
                    conc[s, d] -= 3
                    melded[s, d] += 4
                    exposed[d] += 4
                    for i in range(4):
                        mt[i] = d
                    _add_meld(mrec, nm, ms, s, MELD_KONG, d, 4, mt)
                    settle_kong(s, kong_value(MELD_KONG, d, 0, rv), kpay)
                    g[G_KONGS] += 1
                    res[R_KONGS] += 1
                    _event(ev, g, EV_MINGKONG, s, d, 0, cur)
                    _check_bao_dead(wall, g, dice, tp, pond, exposed, ev)
                    cur = s
                    first[cur] = 0
                    drawn = _draw_tail(wall, g)
                    conc[cur, drawn] += 1
                    _event(ev, g, EV_TAIL, cur, drawn, 0, 0)
                    phase = PH_SELF
                    claimed = True
                    break
            if declared[s] or not bots[s, K_CALL]:
                break
            for i in range(N_KINDS):
                c2[i] = conc[s, i]
            c2[d] -= 2
            own2[d] += 1
            _ms_with_pung(ms, s, d, True, ms2)
            _unseen(conc, ankong, pond, exposed, s, unseen)
            sh_b = shanten(conc[s], tb)
            sh_a, live_a = _call_value(c2, ms2, own2, unseen, rv, tb, buf, sh_b, bots[s, K_CALL])
            if accept_call(bots[s, K_CALL], sh_b, sh_a, live_a, ms2):
                pond[d] -= 1
                conc[s, d] -= 2
                melded[s, d] += 3
                exposed[d] += 3
                pungs[s, d] = 1
                for i in range(3):
                    mt[i] = d
                _add_meld(mrec, nm, ms, s, MELD_PUNG, d, 3, mt)
                _event(ev, g, EV_PUNG, s, d, 0, cur)
                _check_bao_dead(wall, g, dice, tp, pond, exposed, ev)
                cur = s
                first[cur] = 0
                drawn = -1
                phase = PH_SELF
                claimed = True
            break  # at most one player holds two or more copies
        if claimed:
            continue
        s = (cur + 1) % N_SEATS
        if d < HONOR and not declared[s] and bots[s, K_CALL]:
            best_lo = -1
            best_sh = 99
            best_live = -1
            _own(conc, melded, s, own2)
            own2[d] += 1
            _unseen(conc, ankong, pond, exposed, s, unseen)
            sh_b = shanten(conc[s], tb)
            r = d % 9
            for lo in range(d - 2, d + 1):
                lr = r - (d - lo)
                if lr < 0 or lr > 6:
                    continue
                ok = True
                for i in range(3):
                    if lo + i != d and conc[s, lo + i] == 0:
                        ok = False
                if not ok:
                    continue
                for i in range(N_KINDS):
                    c2[i] = conc[s, i]
                for i in range(3):
                    if lo + i != d:
                        c2[lo + i] -= 1
                for i in range(MS_LEN):
                    ms2[i] = ms[s, i]
                ms2[MS_SETS] += 1
                ms2[MS_CHOWS] += 1
                ms2[MS_CLAIMED] += 1
                ms2[MS_SUITS] |= 1 << (d // 9)
                if lr == 0 or lr == 6:
                    ms2[MS_YAOJIU] = 1
                sh_a, live_a = _call_value(
                    c2, ms2, own2, unseen, rv, tb, buf, sh_b, bots[s, K_CALL]
                )
                better = sh_a < best_sh or (sh_a == best_sh and live_a > best_live)
                if better and accept_call(bots[s, K_CALL], sh_b, sh_a, live_a, ms2):
                    best_lo, best_sh, best_live = lo, sh_a, live_a
            if best_lo >= 0:
                pond[d] -= 1
                for i in range(3):
                    t = best_lo + i
                    if t != d:
                        conc[s, t] -= 1
                    melded[s, t] += 1
                    exposed[t] += 1
                    mt[i] = t
                _add_meld(mrec, nm, ms, s, MELD_CHOW, best_lo, 3, mt)
                _event(ev, g, EV_CHOW, s, d, best_lo, cur)
                _check_bao_dead(wall, g, dice, tp, pond, exposed, ev)
                cur = s
                first[cur] = 0
                drawn = -1
                phase = PH_SELF
                continue
        cur = (cur + 1) % N_SEATS
        drawn = -1
        phase = PH_DRAW

    # ---------------- settlement
    if winner >= 0:
        res[R_WINNER] = winner
        res[R_HOW] = how
        res[R_TILE] = win_tile
        res[R_PHYS] = phys
        res[R_DISCARDER] = discarder
        _event(ev, g, EV_WIN, winner, win_tile, how, discarder)
    for s in range(N_SEATS):
        res[R_KONG_PAY + s] = kpay[s]
        res[R_PAY + s] += kpay[s]
    res[R_NEXT_DEALER] = dealer if (winner < 0 or winner == dealer) else (dealer + 1) % N_SEATS
    res[R_N_EVENTS] = g[G_NEV]
    res[R_WALL_LEFT] = g[G_TAIL] - g[G_HEAD] + 1 + g[G_NSTR]
    return g


# ------------------------------------------------------------------ sessions and statistics
@njit(cache=True)
def accumulate(st, res):
    """Add one hand's result to the statistics row ``st`` (S_* layout)."""
    st[S_HANDS] += 1
    w = res[R_WINNER]
    dealer = res[R_DEALER]
    if w < 0:
        st[S_DRAWS] += 1
    else:
        st[S_WINS + w] += 1
        if w == dealer:
            st[S_DEALER_WINS] += 1
        st[S_METHOD + res[R_HOW]] += 1
        st[S_JIAHU] += res[R_JIAHU]
        st[S_PIAO] += res[R_PIAO]
        st[S_MENQING] += res[R_MENQING]
        f = res[R_FAN]
        st[S_FAN_HIST + (f if f < N_FAN_BINS else N_FAN_BINS - 1)] += 1
        if res[R_HOW] == HOW_DISCARD:
            st[S_DISCARD_WINS] += 1
            st[S_DISCARDER_PAY] += res[R_PAY + res[R_DISCARDER]]
    for s in range(N_SEATS):
        p = res[R_PAY + s]
        st[S_PAY + s] += p
        st[S_PAY2 + s] += p * p
        k = res[R_KONG_PAY + s]
        st[S_KONG + s] += k
        if k > 0:
            st[S_KONG_MONEY] += k
        if res[R_DECLARED] >> s & 1:
            st[S_DECLARED] += 1
    p = res[R_PAY + dealer]
    st[S_DEALER_PAY] += p
    st[S_DEALER_PAY2] += p * p
    st[S_BAO_ROLLED] += res[R_BAO_ROLLED]
    st[S_DISCARDS] += res[R_DISCARDS]
    st[S_KONGS] += res[R_KONGS]
    st[S_ROBBED] += res[R_ROBBED]
    st[S_JIEHU] += res[R_JIEHU]


@njit(cache=True)
def deal_hand(rs, wall, dice):
    """Shuffle the wall and pre-roll the hand's dice from the random state ``rs``."""
    shuffle_wall(rs, wall)
    for i in range(N_DICE):
        dice[i] = 1 + rng_below(rs, 6)


@njit(cache=True)
def play_session(seed, n_hands, rv, tb, tp, bots, st):
    """``n_hands`` consecutive hands from ``seed``, the dealer rotating (seat 0 deals first)."""
    rs = np.zeros(1, np.uint64)
    rs[0] = seed
    wall = np.zeros(N_WALL, np.int64)
    dice = np.zeros(N_DICE, np.int64)
    ev = np.zeros((1, EV_COLS), np.int64)
    res = np.zeros(R_LEN, np.int64)
    conc = np.zeros((N_SEATS, N_KINDS), np.uint8)
    melded = np.zeros((N_SEATS, N_KINDS), np.uint8)
    mrec = np.zeros((N_SEATS, MAX_MELDS, MELD_COLS), np.int64)
    nm = np.zeros(N_SEATS, np.int64)
    pond = np.zeros(N_KINDS, np.int64)
    dealer = 0
    for _h in range(n_hands):
        deal_hand(rs, wall, dice)
        play_hand(
            wall, dealer, dice, rv, tb, tp, bots, ev, False, res, conc, melded, mrec, nm, pond
        )
        accumulate(st, res)
        dealer = res[R_NEXT_DEALER]


@njit(cache=True, parallel=True)
def run_sessions(seeds, lengths, rv, tb, tp, bots, out):
    """Play every session (threads over sessions); row i of ``out`` gets session i's statistics."""
    for i in prange(seeds.shape[0]):
        play_session(seeds[i], lengths[i], rv, tb, tp, bots, out[i])


@njit(cache=True)
def record_session(
    seed,
    n_hands,
    rv,
    tb,
    tp,
    bots,
    walls,
    dices,
    results,
    events,
    concs,
    melds,
    n_melds,
    ponds,
    melded_out,
):
    """``play_session`` with every hand's wall, dice, events and final state kept (for logs)."""
    rs = np.zeros(1, np.uint64)
    rs[0] = seed
    dealer = 0
    for h in range(n_hands):
        deal_hand(rs, walls[h], dices[h])
        play_hand(
            walls[h],
            dealer,
            dices[h],
            rv,
            tb,
            tp,
            bots,
            events[h],
            True,
            results[h],
            concs[h],
            melded_out[h],
            melds[h],
            n_melds[h],
            ponds[h],
        )
        dealer = results[h, R_NEXT_DEALER]


def set_threads(k):
    """Use k Numba threads (None: all available; more than available is clamped)."""
    top = config.NUMBA_NUM_THREADS
    set_num_threads(top if k is None else max(1, min(int(k), top)))


def get_threads():
    return get_num_threads()
