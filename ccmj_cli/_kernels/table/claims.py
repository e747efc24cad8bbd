"""Claims on a tile another seat gives up (RULES.md §8): 胡 > 碰/杠 > 吃.

On a discard: every other seat that can win legally on it claims 胡, and only the nearest
counter-clockwise from the discarder wins (截胡); else a seat holding two (or three) copies may
碰 (or 杠); else the next seat may 吃 a suit tile. The same 胡 claim robs a 加杠 or 补 tile
(抢杠胡, ``kongs``). Whether a seat claims is its bot's decision (``bots``); whether
the claim is legal is the shared judgment.
"""

from ..jit import njit
from ..layout import (
    HONOR,
    HOW_DISCARD,
    MELD_ANKONG,
    MELD_CHOW,
    MELD_KONG,
    MELD_PUNG,
    N_SEATS,
    RV_GUOSHUI,
    RV_SHOUBAYI_NO_CLAIM,
    RV_SHOUBAYI_PIAODING_ONLY,
    RV_SPECIAL_KONG_TIMING,
)
from .bao import check_bao_dead
from .bots import best_chow, wants_discard_win, wants_mingkong, wants_pung
from .layout import (
    EV_CHOW,
    EV_MINGKONG,
    EV_PUNG,
    EV_TAIL,
    G_CUR,
    G_DEALER,
    G_DRAWN,
    G_LAID,
    G_KONGS,
    G_STOP,
    P_FIRST,
    P_PASSED,
    R_DISCARDER_DECLARED,
    R_JIEHU,
    R_KONGS,
    SPECIAL_FIRST_TURN,
)
from .settle import can_win, capture, declared_state, pay_kong, score_win, won
from .state import (
    add_meld,
    chow_refused_shoubayi,
    claim_leaves_one,
    event,
    ms_with_chow,
    ms_with_pung,
    pung_refused_shoubayi,
)
from .wall import can_draw, take

# what a discard led to
CLAIM_NONE = 0  # nobody claimed: the next seat draws
CLAIM_WIN = 1  # 胡: the hand is over
CLAIM_MELD = 2  # 碰/杠/吃: the claimer is on turn (G_CUR), holding 3k+2 tiles


@njit(cache=True)
def win_claim(tab, ws, src, t, nearest_only, rv, tb, bots, res):
    """胡 on the tile t given up by seat ``src``: the nearest counter-clockwise seat that can win
    on it and does wins (its judgment and payments are captured). Returns (winner, claimants);
    with ``nearest_only`` the search stops at the winner (claimants is then 0 or 1).

    过水 (guoshui): a seat that passes a win (his bot's ``wants_discard_win``) may not win on a
    discard of equal or lower fan until his next draw or claim (P_PASSED keeps the fan)."""
    g, ps, conc, melded, ankong, pungs, taken, ms, mrec, nm, pond, exposed, kpay = tab
    own, own2, unseen, buf, rd, items, fan, pay, grp, mt, c2, ms2, dscr, ut, lx = ws
    winner = -1
    n_win = 0
    for k in range(1, N_SEATS):
        s = (src + k) % N_SEATS
        if can_win(ps, s, conc[s], t, ms[s], conc, melded, own2, rv, tb, rd):
            n_win += 1
            if winner < 0:
                dstate = declared_state(ps, g, src, rv)  # 包庄 depends on it
                tot = score_win(
                    conc[s], t, ms[s], own2, HOW_DISCARD, s, g[G_DEALER], src, dstate, rv, tb,
                    rd, items, fan, pay,
                )  # fmt: skip
                if rv[RV_GUOSHUI] and tot <= ps[s, P_PASSED]:
                    continue  # 过水: he passed a win worth as much since his last draw
                if not wants_discard_win(bots, g, s, tot):
                    if tot > ps[s, P_PASSED]:
                        ps[s, P_PASSED] = tot
                    continue
                capture(res, rd, items, fan, pay)
                res[R_DISCARDER_DECLARED] = dstate
                winner = s
                if nearest_only:
                    break
    return winner, n_win


@njit(cache=True)
def make_pung(tab, ws, s, t):
    """Seat s's two concealed copies of t and the claimed one become an exposed pung."""
    g, ps, conc, melded, ankong, pungs, taken, ms, mrec, nm, pond, exposed, kpay = tab
    own, own2, unseen, buf, rd, items, fan, pay, grp, mt, c2, ms2, dscr, ut, lx = ws
    conc[s, t] -= 2
    melded[s, t] += 3
    exposed[t] += 3
    pungs[s, t] = 1
    for i in range(3):
        mt[i] = t
    add_meld(mrec, nm, ms, s, MELD_PUNG, 3, mt)


@njit(cache=True)
def lay_kong(rv, res, tab, ws, s, kt, kind):
    """Seat s lays a kong of kt and is paid its kong money: MELD_ANKONG his four concealed
    (暗杠), MELD_KONG his three and the discard in the pond (明杠)."""
    g, ps, conc, melded, ankong, pungs, taken, ms, mrec, nm, pond, exposed, kpay = tab
    own, own2, unseen, buf, rd, items, fan, pay, grp, mt, c2, ms2, dscr, ut, lx = ws
    melded[s, kt] += 4
    if kind == MELD_ANKONG:
        conc[s, kt] -= 4
        ankong[s, kt] += 4
    else:
        conc[s, kt] -= 3
        pond[kt] -= 1
        exposed[kt] += 4
    for i in range(4):
        mt[i] = kt
    add_meld(mrec, nm, ms, s, kind, 4, mt)
    pay_kong(kpay, s, kind, kt, 0, rv)
    g[G_KONGS] += 1
    res[R_KONGS] += 1


@njit(cache=True)
def take_turn(g, ps, s, drawn, rv):
    """Seat s is on turn after a claim: his first turn is over, but under special_kong_timing
    first_turn a claim may enter it (he may then lay out special kongs, not add to them; under
    first_draw and deal it ends it: special kongs only between a draw and the first discard). The
    claim changed his hand: a passed win bars nothing more (过水)."""
    g[G_CUR] = s
    g[G_DRAWN] = drawn
    g[G_LAID] = 0
    if rv[RV_SPECIAL_KONG_TIMING] == SPECIAL_FIRST_TURN and ps[s, P_FIRST] != 0:
        ps[s, P_FIRST] = 2  # his first discard turn, entered by a claim
    else:
        ps[s, P_FIRST] = 0
    ps[s, P_PASSED] = -1


@njit(cache=True)
def claims_on_discard(wall, dice, rv, tb, tp, bots, ev, res, tab, ws, d):
    """The claims on the discard d of the seat on turn; returns CLAIM_*."""
    g, ps, conc, melded, ankong, pungs, taken, ms, mrec, nm, pond, exposed, kpay = tab
    own, own2, unseen, buf, rd, items, fan, pay, grp, mt, c2, ms2, dscr, ut, lx = ws
    cur = g[G_CUR]
    # 胡: nearest counter-clockwise wins (截胡)
    winner, n_win = win_claim(tab, ws, cur, d, False, rv, tb, bots, res)
    if winner >= 0:
        won(g, winner, HOW_DISCARD, d, d, cur)
        pond[d] -= 1
        conc[winner, d] += 1
        if n_win > 1:
            res[R_JIEHU] = 1
        return CLAIM_WIN
    # 碰 / 杠: at most one other player holds two or more copies
    for k in range(1, N_SEATS):
        s = (cur + k) % N_SEATS
        if conc[s, d] < 2:
            continue
        if rv[RV_SHOUBAYI_NO_CLAIM]:
            ms_with_pung(ms, s, d, True, ms2)
            if claim_leaves_one(ms2, rv):
                break  # 手把一: neither 碰 nor 杠 may leave a chow hand on one concealed tile
        bare = False  # shoubayi_piaoding_only: a 碰 into 手把一 only into a 飘顶 tenpai
        if rv[RV_SHOUBAYI_PIAODING_ONLY]:
            ms_with_pung(ms, s, d, True, ms2)
            bare = pung_refused_shoubayi(conc, melded, s, d, ms2, rv, tb, buf)
        if conc[s, d] == 3 and can_draw(g, tp, rv) and wants_mingkong(tab, ws, s, d, bots, rv, tb):
            lay_kong(rv, res, tab, ws, s, d, MELD_KONG)
            event(ev, g, EV_MINGKONG, s, d, 0, cur)
            if g[G_STOP]:
                return CLAIM_MELD  # (scripted: the kong asked for; its replacement comes after)
            check_bao_dead(wall, g, dice, rv, tp, pond, exposed, ev)
            t = take(wall, g, conc, taken, s, True)
            take_turn(g, ps, s, t, rv)
            event(ev, g, EV_TAIL, s, t, 0, 0)
            return CLAIM_MELD
        if not bare and wants_pung(tab, ws, s, d, bots, rv, tb):
            pond[d] -= 1
            make_pung(tab, ws, s, d)
            event(ev, g, EV_PUNG, s, d, 0, cur)
            check_bao_dead(wall, g, dice, rv, tp, pond, exposed, ev)
            take_turn(g, ps, s, -1, rv)
            return CLAIM_MELD
        break
    # 吃: the next seat, suit tiles only
    s = (cur + 1) % N_SEATS
    if d < HONOR:
        if rv[RV_SHOUBAYI_NO_CLAIM] or rv[RV_SHOUBAYI_PIAODING_ONLY]:
            ms_with_chow(ms, s, d - d % 9, ms2)  # (any chow: the same sets and chows)
            if chow_refused_shoubayi(ms2, rv):
                return CLAIM_NONE  # 手把一
        lo = best_chow(tab, ws, s, d, bots, rv, tb)
        if lo >= 0:
            pond[d] -= 1
            for i in range(3):
                t = lo + i
                if t != d:
                    conc[s, t] -= 1
                melded[s, t] += 1
                exposed[t] += 1
                mt[i] = t
            add_meld(mrec, nm, ms, s, MELD_CHOW, 3, mt)
            event(ev, g, EV_CHOW, s, d, lo, cur)
            check_bao_dead(wall, g, dice, rv, tp, pond, exposed, ev)
            take_turn(g, ps, s, -1, rv)
            return CLAIM_MELD
    return CLAIM_NONE
