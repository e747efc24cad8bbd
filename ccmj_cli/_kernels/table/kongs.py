"""Kongs by the seat on turn (RULES.md §7): special kongs, 暗杠, 加杠, 补, and their robbing.

Special kongs (旋风杠, 喜杠, 幺蛋, 九蛋; 三风蛋 and 小鸡飞蛋 with the options) are declared on the
seat's first turn from his dealt tiles (a non-dealer's first draw does not count; option
special_kong_timing: first_turn and first_draw let it; under first_draw a claim before the
seat's first draw ends his chance). A special kong takes one replacement draw per tile
beyond three: a 4-wind 旋风杠 takes one (under 三风蛋 it is a 3-wind kong plus one 补), the
3-tile ones (喜杠, 幺蛋, 九蛋, a 3-wind 旋风杠 under 三风蛋) none. Later a tile of a special
kong's group may be added to it (补; not by the dealer on his first turn, nor in a first turn
entered by a claim: then a special kong is laid out with its base only, RULES §7, MIL 五-6-3). A 加杠 or 补 tile can be robbed: by 胡 first (抢杠胡, paid as a 点炮 by the konger),
then, for a 补, by 碰 (抢叉); a robbed kong pays nothing. Every kong but a 3-tile special kong
is followed by a replacement draw from the tail. Which kong to make is the bot's decision
(``bots``); the money is ``score.kong_value``'s (``settle``).
"""

import numpy as np

from ..jit import njit
from ..layout import (
    HOW_DISCARD,
    MELD_ANKONG,
    MELD_JIUDAN,
    MELD_KONG,
    MELD_PUNG,
    MELD_XUANFENG,
    MELD_YAODAN,
    N_KINDS,
    N_SEATS,
    ONE_S,
    RV_DADAN_LAID,
    RV_ONE_SPECIAL_PER_KIND,
    RV_SANFENG,
    RV_SANYAOJI,
    RV_SPECIAL_KONG_TIMING,
    RV_XI_BU_ANY_HONOR,
    RV_XIAOJI,
    XIAOJI_OFF,
    XIAOJI_ONE,
)
from ..melds import classify_bracket, classify_sanyaoji, special_base
from ..score import is_dadan_tile
from .bao import check_bao_dead, look_at_draw
from .bots import choose_self_kong, wants_bao_kong, wants_pung
from .claims import lay_kong, make_pung, take_turn, win_claim
from .layout import (
    EV_ANKONG,
    EV_BAO_KONG,
    EV_BU,
    EV_JIAGANG,
    EV_KONG_ROBBED,
    EV_ROB_PUNG,
    EV_SPECIAL,
    EV_TAIL,
    G_BAO,
    G_CUR,
    G_DRAWN,
    G_KONGS,
    G_LAID,
    G_NEV,
    G_STOP,
    N_HOLE,
    P_LAID_DADAN,
    P_SPECIAL,
    R_KONGS,
    R_ROBBED,
    SPECIAL_DEALT,
)
from .script import ev_next_is, rec_tile, scripted
from .settle import pay_bu, pay_kong, won
from .state import add_meld, bu_kind, event, find_meld, special_group, summarize
from .wall import can_draw, take, take_out

# what a kong by the seat on turn led to
KONG_NONE = 0  # no kong: the seat discards
KONG_AGAIN = 1  # a kong and its replacement draw: the seat may win, kong again or discard
KONG_WON = 2  # robbed by 胡 (抢杠胡): the hand is over
KONG_ROBBED = 3  # robbed by 碰 (抢叉): the robber is on turn (G_CUR) and discards

# what the 用宝 kongs at a look led to (``bao_kongs``)
BAO_KONG_NONE = 0  # none: the seat draws from the head as usual
BAO_KONG_MADE = 1  # one or more: his draw is a replacement draw from the tail
BAO_KONG_WON = 2  # 对宝 on a new bao: the hand is over


@njit(cache=True)
def usable(conc, taken, s, t, rv):
    """Copies of t seat s may lay down in a special kong: RULES §7 "只有起手牌时才予认可，后续抓起
    的不算", only dealt tiles (not his first draw, nor a replacement draw); with
    special_kong_timing first_turn or first_draw, any tile he holds on his first discard turn."""
    n = np.int64(conc[s, t])
    if rv[RV_SPECIAL_KONG_TIMING] == SPECIAL_DEALT:
        n -= taken[s, t]
    return n


@njit(cache=True)
def special_tiles(conc, taken, s, kind, rv, grp, mt, cnt, no_bu):
    """(the tiles seat s would lay down as a special kong of ``kind`` (into ``grp``), the 补
    tiles among them): 0 tiles when his usable tiles (``usable``) do not make one. He offers
    each member of the kind he holds and, where members are missing and the variant lets 幺鸡
    (1s) stand in, his spare 1s tiles (one at most under 小鸡飞蛋 ``one``); what they form is
    the shared meld rule's to say (``melds.classify_bracket``), as for a written hand. With
    ``no_bu`` (a turn in which he may not 补) he lays out the base only: under 三风蛋 three of
    his four winds, the fourth kept for a later 补."""
    n = special_group(kind, grp)
    m = 0
    has_1s = False
    for i in range(n):
        if usable(conc, taken, s, grp[i], rv) > 0:
            mt[m] = grp[i]
            m += 1
            if grp[i] == ONE_S:
                has_1s = True
    xiaoji = rv[RV_XIAOJI]
    missing = special_base(kind, rv[RV_SANFENG]) - m
    if missing > 0 and xiaoji != XIAOJI_OFF:
        spare = usable(conc, taken, s, ONE_S, rv) - (1 if has_1s else 0)
        if xiaoji == XIAOJI_ONE and spare > 1:
            spare = 1
        k = missing if missing < spare else spare
        for _ in range(k):
            mt[m] = ONE_S
            m += 1
    base = special_base(kind, rv[RV_SANFENG])
    if no_bu and m > base:
        m = base  # (the members come first: the last one is kept in hand)
    if m < 3:
        return 0, 0
    for t in range(N_KINDS):
        cnt[t] = 0
    for i in range(m):
        cnt[mt[i]] += 1
    formed, bu = classify_bracket(cnt, rv[RV_SANFENG], xiaoji, rv[RV_XI_BU_ANY_HONOR])
    if formed != kind:
        return 0, 0
    for i in range(m):
        grp[i] = mt[i]
    return m, bu


@njit(cache=True)
def sanyaoji_tiles(conc, taken, s, rv, grp, cnt):
    """(3, 0) with three 1s in ``grp`` when seat s may lay out a 三幺鸡 (option sanyaoji): three
    一条 among his usable tiles (``usable``: the same timing as any special kong), laid as
    ``[*111s]``, a 幺蛋 whose three members the 1s stand in for (what they form is the shared
    meld rule's to say, ``melds.classify_sanyaoji``, as for a written hand); (0, 0) otherwise.
    Later 1m/1p/1s tiles are 补 tiles on it, as on any 幺蛋."""
    if not rv[RV_SANYAOJI] or usable(conc, taken, s, ONE_S, rv) < 3:
        return 0, 0
    for t in range(N_KINDS):
        cnt[t] = 0
    cnt[ONE_S] = 3
    formed, bu = classify_sanyaoji(cnt, rv[RV_SANFENG])
    if formed != MELD_YAODAN:
        return 0, 0
    for i in range(3):
        grp[i] = ONE_S
    return 3, bu


@njit(cache=True)
def may_lay_dadan(conc, taken, s, t, rv):
    """May seat s lay three t out as a 大蛋 (option dadan_laid): t is a 大蛋 tile (幺鸡, 幺饼,
    白, 发, 中) and three of his usable tiles (``usable``: the special kongs' timing)."""
    return rv[RV_DADAN_LAID] != 0 and is_dadan_tile(t) and usable(conc, taken, s, t, rv) >= 3


@njit(cache=True)
def lay_dadans(rv, ev, res, tab, ws):
    """Seat on turn lays out each 大蛋 of three he may (``may_lay_dadan``; scripted: the
    record's, written (777z)): the concealed 大蛋 laid early, face up, paid as one
    (``kong.dadan_concealed``), with no replacement draw; its fourth copy is a 补 later
    (``state.bu_kind``). Before any other special kong of the turn."""
    g, ps, conc, melded, ankong, pungs, taken, ms, mrec, nm, pond, exposed, kpay = tab
    own, own2, unseen, buf, rd, items, fan, pay, grp, mt, c2, ms2, dscr, ut, lx = ws
    cur = g[G_CUR]
    for t in range(N_KINDS):
        if g[G_STOP] or not may_lay_dadan(conc, taken, cur, t, rv):
            continue
        if scripted(g) and not (
            ev_next_is(ev, g, EV_SPECIAL, cur)
            and ev[g[G_NEV], 3] == MELD_ANKONG
            and rec_tile(ev, g) == t
        ):
            continue
        conc[cur, t] -= 3
        melded[cur, t] += 3
        exposed[t] += 3
        for i in range(3):
            mt[i] = t
        add_meld(mrec, nm, ms, cur, MELD_ANKONG, 3, mt)
        ps[cur, P_LAID_DADAN] |= np.int64(1) << t
        g[G_LAID] = 1  # (no tile came: no 胡 before the next one)
        pay_kong(kpay, cur, MELD_ANKONG, t, 0, rv)
        g[G_KONGS] += 1
        res[R_KONGS] += 1
        event(ev, g, EV_SPECIAL, cur, t, MELD_ANKONG, 3)


@njit(cache=True)
def special_kongs(wall, dice, rv, tp, ev, res, tab, ws, no_bu):
    """Lay down every 大蛋 of three (``lay_dadans``) and every special kong the seat on turn
    holds (``no_bu``: base tiles only, see ``special_tiles``); returns True after one with a
    replacement draw (a kong of more than three tiles: the draw is G_DRAWN, the seat may win
    on it, and looks again)."""
    g, ps, conc, melded, ankong, pungs, taken, ms, mrec, nm, pond, exposed, kpay = tab
    own, own2, unseen, buf, rd, items, fan, pay, grp, mt, c2, ms2, dscr, ut, lx = ws
    cur = g[G_CUR]
    lay_dadans(rv, ev, res, tab, ws)
    if g[G_STOP]:
        return True  # (scripted: the event asked for)
    kind = MELD_XUANFENG
    while kind <= MELD_JIUDAN:  # (a kind again after one is laid out: he may hold a second)
        if scripted(g) and not (ev_next_is(ev, g, EV_SPECIAL, cur) and ev[g[G_NEV], 3] == kind):
            kind += 1
            continue  # the record's special kongs only (in this order of kinds)
        if rv[RV_ONE_SPECIAL_PER_KIND] and ps[cur, P_SPECIAL + kind - MELD_XUANFENG] > 0:
            kind += 1
            continue  # one of each kind: further members are 补 tiles of the first
        san = False  # 三幺鸡 (three 1s as a 幺蛋): the record's (its first tile 1s), else the bot's
        if kind == MELD_YAODAN and scripted(g):
            san = rv[RV_SANYAOJI] != 0 and rec_tile(ev, g) == ONE_S
        if san:
            n, bu = sanyaoji_tiles(conc, taken, cur, rv, grp, c2)
        else:
            n, bu = special_tiles(conc, taken, cur, kind, rv, grp, mt, c2, no_bu)
            if n == 0 and kind == MELD_YAODAN and not scripted(g):
                n, bu = sanyaoji_tiles(conc, taken, cur, rv, grp, c2)  # no natural 幺蛋
        draws = n - 3  # one replacement draw per tile beyond three (RULES §2)
        if n == 0 or (draws > 0 and not can_draw(g, tp, rv)):
            kind += 1
            continue
        for i in range(n):
            conc[cur, grp[i]] -= 1
            melded[cur, grp[i]] += 1
            exposed[grp[i]] += 1
            mt[i] = grp[i]
        add_meld(mrec, nm, ms, cur, kind, n, mt)
        ps[cur, P_SPECIAL + kind - MELD_XUANFENG] += 1
        g[G_LAID] = 1 if draws == 0 else 0  # (no tile came: no 胡 before the next one)
        pay_kong(kpay, cur, kind, grp[0], bu, rv)
        g[G_KONGS] += 1
        res[R_KONGS] += 1
        event(ev, g, EV_SPECIAL, cur, grp[0], kind, n)
        if g[G_STOP]:
            return True  # (scripted: the event asked for; its replacement draw comes after)
        check_bao_dead(wall, g, dice, rv, tp, pond, exposed, ev)
        if draws > 0:
            t = take(wall, g, conc, taken, cur, True)
            event(ev, g, EV_TAIL, cur, t, 0, 0)
            return True
    return False


@njit(cache=True)
def lay_added(rv, res, tab, cur, kt, kk):
    """Seat cur's tile kt (out of his hand already) goes onto a meld of his: 加杠 (kk 1, his
    pung becomes a kong) or 补 (kk 2, one more tile on the special kong of its group), with its
    money. Returns the special kong's meld kind for a 补 (0 for a 加杠)."""
    g, ps, conc, melded, ankong, pungs, taken, ms, mrec, nm, pond, exposed, kpay = tab
    melded[cur, kt] += 1
    exposed[kt] += 1
    if kk == 1:  # 加杠: the pung becomes a kong
        m = find_meld(mrec, nm, cur, MELD_PUNG, kt)
        mrec[cur, m, 0] = MELD_KONG
        mrec[cur, m, 1] = 4
        mrec[cur, m, 5] = kt
        pungs[cur, kt] = 0
        summarize(mrec, nm, ms, cur)
        pay_kong(kpay, cur, MELD_KONG, kt, 0, rv)
        g[G_KONGS] += 1
        res[R_KONGS] += 1
        return 0
    # 补: one more tile on the special kong of its group (or the 4th of a 大蛋 laid as three)
    gk = bu_kind(ps, cur, kt, rv)
    m = find_meld(mrec, nm, cur, gk, kt if gk == MELD_ANKONG else -1)
    if gk == MELD_ANKONG:
        ps[cur, P_LAID_DADAN] &= ~(np.int64(1) << kt)  # (now a 大蛋 of four: no more 补)
    n = mrec[cur, m, 1]
    if n < 16:
        mrec[cur, m, 2 + n] = kt
        mrec[cur, m, 1] = n + 1
    summarize(mrec, nm, ms, cur)  # the 补 tile's suit counts for 三色全, as in check
    pay_bu(kpay, cur, gk, kt, rv)
    return gk


@njit(cache=True)
def bao_kongs(wall, dice, rv, tb, tp, bots, ev, res, tab, ws):
    """用宝补蛋或开杠 (bao_kong), after the look of the declared seat on turn (no 对宝): while
    his bot (scripted: the record) takes the bao tile out of the wall for a kong the rules
    allow (``bots.wants_bao_kong``: 暗杠 with three concealed, 加杠 onto his pung, 补 onto a
    special kong of his; a locked hand's kong keeps every wait), the kong is laid and paid as
    its kind is, the tile's place in the wall stays empty (``wall.take_out``), a new bao is
    rolled at once and he looks at it (对宝 again possible, ``look_at_draw``). The tile never
    sat in a hand: a 用宝 加杠 or 补 is not robbed. Returns BAO_KONG_NONE, BAO_KONG_MADE (his
    draw is then a replacement draw from the tail, the driver's) or BAO_KONG_WON (对宝 on a
    new bao)."""
    g, ps, conc, melded, ankong, pungs, taken, ms, mrec, nm, pond, exposed, kpay = tab
    cur = g[G_CUR]
    made = BAO_KONG_NONE
    for _k in range(N_HOLE):
        if g[G_STOP] or g[G_BAO] < 0:
            break
        kk = wants_bao_kong(tab, ws, cur, bots, rv, tb, tp)
        if kk < 0:
            break
        kt = take_out(wall, g, conc, taken, cur)
        if kk == 0:
            lay_kong(rv, res, tab, ws, cur, kt, MELD_ANKONG)
            gk = 0
        else:
            conc[cur, kt] -= 1
            gk = lay_added(rv, res, tab, cur, kt, kk)
        event(ev, g, EV_BAO_KONG, cur, kt, kk, gk)
        made = BAO_KONG_MADE
        # the bao is gone: he rolls a new one at once (as the first declarer rolls) and looks
        if look_at_draw(wall, dice, rv, tb, tp, ev, res, tab, ws, bots):
            return BAO_KONG_WON
    return made


@njit(cache=True)
def self_kong(wall, dice, rv, tb, tp, bots, ev, res, tab, ws, no_bu):
    """The seat on turn makes the kong his bot chooses, if any (and the wall allows one);
    returns KONG_*."""
    g, ps, conc, melded, ankong, pungs, taken, ms, mrec, nm, pond, exposed, kpay = tab
    own, own2, unseen, buf, rd, items, fan, pay, grp, mt, c2, ms2, dscr, ut, lx = ws
    cur = g[G_CUR]
    if not can_draw(g, tp, rv):
        return KONG_NONE
    kt, kk = choose_self_kong(tab, ws, cur, g[G_DRAWN], no_bu, bots, rv, tb)
    if kt < 0:
        return KONG_NONE
    if kk == 0:  # 暗杠
        lay_kong(rv, res, tab, ws, cur, kt, MELD_ANKONG)
        event(ev, g, EV_ANKONG, cur, kt, 0, 0)
    else:
        # 加杠 / 补 can be robbed: 胡 first (抢杠胡), then 碰 on a 补 tile (抢叉)
        conc[cur, kt] -= 1
        s, _n = win_claim(tab, ws, cur, kt, True, rv, tb, bots, res)
        if s >= 0:
            conc[s, kt] += 1
            won(g, s, HOW_DISCARD, kt, kt, cur)
            res[R_ROBBED] += 1
            event(ev, g, EV_KONG_ROBBED, s, kt, 1, cur)
            return KONG_WON
        if kk == 2:
            for k in range(1, N_SEATS):
                s = (cur + k) % N_SEATS
                if conc[s, kt] < 2:
                    continue
                if wants_pung(tab, ws, s, kt, bots, rv, tb):
                    make_pung(tab, ws, s, kt)
                    res[R_ROBBED] += 1
                    event(ev, g, EV_KONG_ROBBED, s, kt, 0, cur)
                    event(ev, g, EV_ROB_PUNG, s, kt, 0, cur)
                    check_bao_dead(wall, g, dice, rv, tp, pond, exposed, ev)
                    take_turn(g, ps, s, -1, rv)  # (as after any claim: 过水 and the laid flag end)
                    return KONG_ROBBED
        gk = lay_added(rv, res, tab, cur, kt, kk)
        if kk == 1:
            event(ev, g, EV_JIAGANG, cur, kt, 0, 0)
        else:
            event(ev, g, EV_BU, cur, kt, gk, 0)
    if g[G_STOP]:
        return KONG_NONE  # (scripted: the kong asked for; its replacement draw comes after)
    check_bao_dead(wall, g, dice, rv, tp, pond, exposed, ev)
    t = take(wall, g, conc, taken, cur, True)
    event(ev, g, EV_TAIL, cur, t, 0, 0)
    return KONG_AGAIN
