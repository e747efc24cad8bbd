"""Settlement at the table: judging and scoring a win, kong money, the hand's result, statistics.

Every judgment and payment is the shared kernels': ``judge.judge_win`` (legality, 夹胡, 飘胡,
独听), ``score.fan_items`` + ``settle_declared`` (fan and who pays whom, knowing whether the
discarder had declared and looked at the bao: 包庄), ``score.kong_value`` +
``settle_kong`` (kong money). This module only calls them with the table's facts and files the
answers in the result vector (R_* layout) and the statistics row (S_* layout).
"""

from ..jit import njit
from ..judge import W_LEGAL, all_waits, judge_waits, judge_win
from ..layout import (
    HOW_DISCARD,
    HOW_SELF,
    MS_SETS,
    N_FAN,
    N_KINDS,
    N_SEATS,
    RD_HAOHUA,
    RD_JIAHU,
    RD_MENQING,
    RD_PIAO,
    RV_DEALIN_DECLARATION_COUNTS,
)
from ..policy import _hand_key
from ..score import fan_items, kong_value, settle_declared, settle_kong
from .layout import (
    EV_WIN,
    G_BAO,
    G_BAO_VER,
    G_CUR,
    G_DEALER,
    G_DECL_DISC,
    G_DICE_I,
    G_DISCARDER,
    G_DRAWN,
    G_HOW,
    G_NEV,
    G_PHYS,
    G_WIN_TILE,
    G_WINNER,
    N_FAN_BINS,
    P_DECLARED,
    P_LOOKED,
    P_WAITS,
    P_WKEY,
    P_WSETS,
    R_BAO_ROLLED,
    R_DEALER,
    R_DECLARED,
    R_DICE_USED,
    R_ITEMS,
    R_DISCARDER,
    R_DISCARDER_DECLARED,
    R_DISCARDS,
    R_FAN,
    R_HOW,
    R_JIAHU,
    R_JIEHU,
    R_KONG_PAY,
    R_KONGS,
    R_MENQING,
    R_N_EVENTS,
    R_NEXT_DEALER,
    R_PAY,
    R_PHYS,
    R_PIAO,
    R_ROBBED,
    R_STRANDED,
    R_TILE,
    R_WALL_LEFT,
    R_WIN_FAN,
    R_WINNER,
    S_BAO_ROLLED,
    S_DEALER_PAY,
    S_DEALER_PAY2,
    S_DEALER_WINS,
    S_DEALIN,
    S_DEALT,
    S_DECLARED,
    S_DISCARD_WINS,
    S_DISCARDER_PAY,
    S_DISCARDER_PAY2,
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
    S_SEAT_DECLARED,
    S_SEAT_METHOD,
    S_WINS,
)
from .state import event
from .wall import held_back, wall_left


@njit(cache=True)
def waits_of(ps, s, c, ms_s, rv, tb):
    """The structural waits of seat s's 3k+1 concealed tiles ``c`` (``judge.all_waits``),
    remembered for his hand as it stands: other seats' discards ask again and again."""
    a, b = _hand_key(c)
    if ps[s, P_WKEY] == a and ps[s, P_WKEY + 1] == b and ps[s, P_WSETS] == ms_s[MS_SETS]:
        return ps[s, P_WAITS]
    m = all_waits(c, ms_s, rv, tb)
    ps[s, P_WAITS] = m
    ps[s, P_WKEY] = a
    ps[s, P_WKEY + 1] = b
    ps[s, P_WSETS] = ms_s[MS_SETS]
    return m


@njit(cache=True)
def can_win(ps, s, c, t, ms_s, conc, melded, own, rv, tb, rd):
    """Is seat s's 3k+1 concealed hand ``c`` + t a legal win (the shared judgment, after a
    structural check). ``own`` gets his tiles (``c`` + melds) when the judgment needs them."""
    if not (waits_of(ps, s, c, ms_s, rv, tb) >> t & 1):
        return False
    for i in range(c.shape[0]):
        own[i] = c[i] + melded[s, i]
    return judge_win(c, t, ms_s, own, rv, tb, rd)


@njit(cache=True)
def declared_state(ps, g, s, rv):
    """What seat s had done when he gave up a winning tile, as ``score.settle_declared`` takes
    it (包庄 depends on it): 0 not declared, 1 declared (报听) but not looked at the current
    bao (none rolled yet, a 换宝 since, or a 断幺九 hand that may not look), 2 declared and
    looked at it. A 报听 made with this very discard counts (1), unless the variant's
    dealin_declaration_counts is false: then he had not declared (0)."""
    if not ps[s, P_DECLARED]:
        return 0
    if g[G_DECL_DISC] == s and not rv[RV_DEALIN_DECLARATION_COUNTS]:
        return 0
    if g[G_BAO] >= 0 and ps[s, P_LOOKED] == g[G_BAO_VER]:
        return 2
    return 1


@njit(cache=True)
def score_win(
    c, t, ms_s, own, how, winner, dealer, discarder, declared, rv, tb, rd, items, fan, pay
):
    """Judge and settle the win of ``c`` (3k+1 tiles) + t; the hand's own fan (-1: illegal).
    ``declared``: the discarder's ``declared_state`` (0 without a discarder)."""
    if not judge_win(c, t, ms_s, own, rv, tb, rd):
        return -1
    fan_items(rd, how, rd[RD_HAOHUA] == 1, rv, items)  # 豪华七对: the reading's, by the variant
    settle_declared(items, winner, dealer, discarder, how, declared, rv, fan, pay)
    total = 0
    for i in range(N_FAN):
        total += items[i]
    return total


@njit(cache=True)
def score_bao_win(c, ms_s, own, how, winner, dealer, rv, tb, rd, items, fan, pay, buf):
    """摸宝: the bao stands for the legal wait that scores best; returns that tile (-1 none)."""
    judge_waits(c, ms_s, own, rv, tb, buf)
    best = -1
    best_total = -1
    for w in range(N_KINDS):
        if buf[w, W_LEGAL]:
            tot = score_win(
                c, w, ms_s, own, how, winner, dealer, -1, 0, rv, tb, rd, items, fan, pay
            )
            if tot > best_total:
                best_total = tot
                best = w
    if best >= 0:
        score_win(c, best, ms_s, own, how, winner, dealer, -1, 0, rv, tb, rd, items, fan, pay)
    return best


@njit(cache=True)
def capture(res, rd, items, fan, pay):
    """Copy the winner's judgment and payments into the result (before rd is reused)."""
    total = 0
    mask = 0
    for i in range(N_FAN):
        total += items[i]
        if items[i] != 0:
            mask |= 1 << i
    res[R_FAN] = total
    res[R_ITEMS] = mask
    res[R_JIAHU] = rd[RD_JIAHU]
    res[R_PIAO] = rd[RD_PIAO]
    res[R_MENQING] = rd[RD_MENQING]
    for s in range(N_SEATS):
        res[R_WIN_FAN + s] = fan[s]
        res[R_PAY + s] = pay[s]


@njit(cache=True)
def won(g, winner, how, win_tile, phys, discarder):
    """Note the win in the table state (the result is filed by ``finish``)."""
    g[G_WINNER] = winner
    g[G_HOW] = how
    g[G_WIN_TILE] = win_tile
    g[G_PHYS] = phys
    g[G_DISCARDER] = discarder


@njit(cache=True)
def pay_kong(kpay, owner, kind, tile, bu, rv):
    """Kong money for one kong (``bu``: the 补 tiles on a special kong, as score.kong_value)."""
    settle_kong(owner, kong_value(kind, tile, bu, rv), kpay)


@njit(cache=True)
def pay_bu(kpay, owner, kind, tile, rv):
    """Kong money for one 补 tile on a special kong of ``kind``."""
    settle_kong(owner, kong_value(kind, tile, 1, rv) - kong_value(kind, tile, 0, rv), kpay)


@njit(cache=True)
def finish(g, kpay, ev, res):
    """File the hand's result: the win (its judgment and payments are captured already), kong
    money, the next dealer, the counts."""
    winner = g[G_WINNER]
    dealer = g[G_DEALER]
    if winner >= 0:
        res[R_WINNER] = winner
        res[R_HOW] = g[G_HOW]
        res[R_TILE] = g[G_WIN_TILE]
        res[R_PHYS] = g[G_PHYS]
        res[R_DISCARDER] = g[G_DISCARDER]
        event(ev, g, EV_WIN, winner, g[G_WIN_TILE], g[G_HOW], g[G_DISCARDER])
    for s in range(N_SEATS):
        res[R_KONG_PAY + s] = kpay[s]
        res[R_PAY + s] += kpay[s]
    res[R_NEXT_DEALER] = dealer if (winner < 0 or winner == dealer) else (dealer + 1) % N_SEATS
    res[R_N_EVENTS] = g[G_NEV]
    res[R_WALL_LEFT] = wall_left(g)
    res[R_STRANDED] = held_back(g)
    res[R_DICE_USED] = g[G_DICE_I]


@njit(cache=True)
def reset_result(res, dealer):
    for i in range(res.shape[0]):
        res[i] = 0
    res[R_WINNER] = -1
    res[R_HOW] = -1
    res[R_TILE] = -1
    res[R_PHYS] = -1
    res[R_DISCARDER] = -1
    res[R_DISCARDER_DECLARED] = -1
    res[R_DEALER] = dealer


# ------------------------------------------------------------------ statistics
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
        st[S_SEAT_METHOD + 4 * w + res[R_HOW]] += 1
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
            dp = res[R_PAY + res[R_DISCARDER]]
            st[S_DISCARDER_PAY] += dp
            st[S_DISCARDER_PAY2] += dp * dp
            st[S_DEALIN + res[R_DISCARDER]] += 1
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
            st[S_SEAT_DECLARED + s] += 1
    st[S_DEALT + dealer] += 1
    p = res[R_PAY + dealer]
    st[S_DEALER_PAY] += p
    st[S_DEALER_PAY2] += p * p
    st[S_BAO_ROLLED] += res[R_BAO_ROLLED]
    st[S_DISCARDS] += res[R_DISCARDS]
    st[S_KONGS] += res[R_KONGS]
    st[S_ROBBED] += res[R_ROBBED]
    st[S_JIEHU] += res[R_JIEHU]


@njit(cache=True)
def self_draw_win(rv, tb, res, tab, ws):
    """自摸: the seat on turn wins on the tile he drew, when the win is legal."""
    g, ps, conc, melded, ankong, pungs, taken, ms, mrec, nm, pond, exposed, kpay = tab
    own, own2, unseen, buf, rd, items, fan, pay, grp, mt, c2, ms2, dscr, ut, lx = ws
    cur = g[G_CUR]
    drawn = g[G_DRAWN]
    c = conc[cur]
    c[drawn] -= 1
    ok = can_win(ps, cur, c, drawn, ms[cur], conc, melded, own, rv, tb, rd)
    if ok:
        dealer = g[G_DEALER]
        score_win(c, drawn, ms[cur], own, HOW_SELF, cur, dealer, -1, 0, rv, tb, rd, items, fan, pay)
        capture(res, rd, items, fan, pay)
        won(g, cur, HOW_SELF, drawn, drawn, -1)
    c[drawn] += 1
    return ok
