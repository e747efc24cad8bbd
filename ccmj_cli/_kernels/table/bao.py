"""The bao (宝牌) at the table (RULES.md §6): the roll, the look, 对宝, 摸宝 and 换宝.

The first declarer rolls the dice at his next draw; the bao is the top tile of the stack that
many stacks from the wall's tail (``find_bao``: when it cannot serve, the tile under it, then the
next stack) and stays in the wall (draws step over it). Every declarer who may look (a
断幺九 hand may not, under bao_forbidden_without_yaojiu) looks at his draw, again after each
换宝: 对宝 when the bao's kind is one of his legal waits. Having seen the current bao, drawing a
tile of its kind is 摸宝. 换宝: when the three other copies of the bao's kind are public
(discards, exposed melds), the bao is re-rolled and the old tile returns to its place: at once
(bao_change always), or when the declared player on turn chooses to, before his draw
(bao_change optional; the bot's ``wants_bao_change``).
"""

from ..jit import njit
from ..judge import LOOK_OK, W_LEGAL, judge_waits, look_rule
from ..layout import HOW_DUIBAO, HOW_MOBAO, RV_BAO_CHANGE, RV_BAO_PLACE, RV_MOBAO_MUST_WIN
from .bots import wants_bao_change, wants_bao_kong
from .layout import (
    BAO_CHANGE_OPTIONAL,
    BAO_TILE,
    BAO_TOP_SIX,
    EV_BAO,
    EV_BAO_CHANGE,
    EV_LOOK,
    EV_NO_BAO,
    EV_WIN,
    G_BAO,
    G_BAO_POS,
    G_BAO_VER,
    G_BQ,
    G_CUR,
    G_DEALER,
    G_DICE_I,
    G_DRAWN,
    G_HEAD,
    G_NO_BAO,
    G_STOP,
    G_TAIL,
    N_DICE,
    P_DECLARED,
    P_LOOKED,
    R_BAO_ROLLED,
    TP_BAO_DICE,
    WQ_BAO,
)
from .settle import capture, score_bao_win, score_win, won
from .codes import WIN_NOT_LEGAL, WRONG_BAO
from .script import ev_next_is, refuse, scripted
from .state import event, own_tiles
from .wall import can_draw, is_hole, last_draw, tail_top, take_out


@njit(cache=True)
def serves(wall, pos, pond, exposed):
    """The tile at ``pos`` can be the bao: fewer than three copies of its kind are public (with
    three, 换宝 would take it back at once)."""
    b = wall[pos]
    if b < 0:
        return True  # (a tile a hand-written record does not know: the record's bao is there)
    return pond[b] + exposed[b] < 3


@njit(cache=True)
def _serves(wall, g, pos, pond, exposed):
    """``serves``, and the position still holds its tile (not a hole a 用宝 kong left)."""
    return serves(wall, pos, pond, exposed) and not is_hole(g, pos)


@njit(cache=True)
def find_bao(wall, g, pond, exposed, k, rv, keep=-1):
    """Where the bao sits after a roll of k stacks: -1 when no tile in the wall can serve.
    ``keep``: a position it may not take, the wall's last draw (``wall.last_draw``: a roll is
    for a draw, so it never takes the tile the next draw needs).

    The top tile of the k-th stack counted from the tail (a loose tile at the tail is not a
    stack); when it cannot serve, the lower tile of that stack (seed rule: "则可利用下层的牌作宝，
    上下互换"); then the next stack's top and lower tiles toward the head, going round to the
    tail's first stack, so the bao is never a dead tile and the search always ends. A stack
    the head has half drawn offers the tile it has left.

    Under bao_place top_six (MIL 2024 三-24/25) only the top tiles of the six stacks at the
    tail serve, from the k-th on (going round the six): once none of them can, there is no bao
    for the rest of the hand (the same loop, one branch).

    Under bao_place tile the count is of single tiles, not stacks: the k-th tile from the
    tail (a loose tile at the tail counts), then the next tiles toward the head, going round.
    """
    head = g[G_HEAD]
    if rv[RV_BAO_PLACE] == BAO_TILE:
        n = g[G_TAIL] - head + 1  # tiles between the tail and the head
        for j in range(n):
            pos = g[G_TAIL] - (k - 1 + j) % n
            if pos != keep and _serves(wall, g, pos, pond, exposed):
                return pos
        return -1
    top1 = tail_top(g)
    if top1 < head:
        return -1
    n = (top1 - head) // 2 + 1  # stacks between the tail and the head
    top_six = rv[RV_BAO_PLACE] == BAO_TOP_SIX
    if top_six and n > 6:
        n = 6
    for j in range(n):
        top = top1 - 2 * ((k - 1 + j) % n)
        if top != keep and _serves(wall, g, top, pond, exposed):
            return top
        low = top - 1
        if not top_six and low >= head and low != keep and _serves(wall, g, low, pond, exposed):
            return low
    return -1


@njit(cache=True)
def roll_bao(wall, g, dice, rv, tp, pond, exposed, ev, seat):
    """Roll the dice (fresh ones: a hand never re-uses one) and place the bao; returns its tile,
    -1 when no tile can serve (then there is no bao for the rest of the hand)."""
    d = 0
    for _k in range(tp[TP_BAO_DICE]):
        d += dice[g[G_DICE_I] % N_DICE]  # (N_DICE covers every roll a hand can make)
        g[G_DICE_I] += 1
    pos = find_bao(wall, g, pond, exposed, d, rv, last_draw(g, tp, rv))
    g[G_BAO_VER] += 1
    if pos < 0:
        g[G_BAO_POS] = -1
        g[G_BAO] = -1
        g[G_NO_BAO] = 1
        event(ev, g, EV_NO_BAO, seat, -1, d, -1)
        return -1
    if wall[pos] < 0:  # an unknown wall (a hand-written record): the record's bao tile
        b = wall[WQ_BAO + g[G_BQ]]
        wall[pos] = b if b >= 0 else 0
        g[G_BQ] += 1
        if not serves(wall, pos, pond, exposed):
            refuse(g, WRONG_BAO)
    g[G_BAO_POS] = pos
    g[G_BAO] = wall[pos]
    event(ev, g, EV_BAO, seat, g[G_BAO], d, pos)
    return g[G_BAO]


@njit(cache=True)
def check_bao_dead(wall, g, dice, rv, tp, pond, exposed, ev):
    """换宝 (bao_change always): the three other copies of the bao kind are public -> the old
    tile returns to its place and the bao is rolled again. (Under bao_change optional the
    declared player on turn decides, at his look: ``look_at_draw``.) With no draw left in the
    wall nobody will look again, so nothing is rolled (RULES §6: a roll is for a draw)."""
    b = g[G_BAO]
    if b >= 0 and pond[b] + exposed[b] >= 3 and rv[RV_BAO_CHANGE] != BAO_CHANGE_OPTIONAL:
        event(ev, g, EV_BAO_CHANGE, -1, b, 0, 0)
        g[G_BAO_POS] = -1
        if can_draw(g, tp, rv):
            roll_bao(wall, g, dice, rv, tp, pond, exposed, ev, -1)
        else:
            g[G_BAO] = -1
            g[G_BAO_VER] += 1


@njit(cache=True)
def may_look(conc, melded, s, rv):
    """May a tenpai player look at the bao: the shared judge.look_rule on his tiles, melds
    included (断幺九 may not, under bao_forbidden_without_yaojiu)."""
    own = conc[s] + melded[s]
    return look_rule(True, own, rv) == LOOK_OK


@njit(cache=True)
def sees_bao(ps, g, s):
    """Seat s has declared and seen the current bao (a draw of its kind is 摸宝)."""
    return ps[s, P_DECLARED] and ps[s, P_LOOKED] >= 0 and ps[s, P_LOOKED] == g[G_BAO_VER]


@njit(cache=True)
def look_at_draw(wall, dice, rv, tb, tp, ev, res, tab, ws, bots):
    """Before the seat on turn draws: a declarer who may look rolls (the first) and looks at the
    bao; 对宝 wins at once. Returns whether the hand is won."""
    g, ps, conc, melded, ankong, pungs, taken, ms, mrec, nm, pond, exposed, kpay = tab
    own, own2, unseen, buf, rd, items, fan, pay, grp, mt, c2, ms2, dscr, ut, lx = ws
    cur = g[G_CUR]
    if not (ps[cur, P_DECLARED] and may_look(conc, melded, cur, rv)):
        return False
    if g[G_BAO] < 0:
        if g[G_NO_BAO]:
            return False
        res[R_BAO_ROLLED] = 1
        if roll_bao(wall, g, dice, rv, tp, pond, exposed, ev, cur) < 0:
            return False
    for _r in range(N_DICE):  # (each 换宝 rolls at least one die: bounded like the dice)
        if g[G_STOP]:
            return False  # (scripted: the roll was the event asked for; the look comes after)
        if ps[cur, P_LOOKED] != g[G_BAO_VER] and _look(rv, tb, ev, res, tab, ws):
            return True
        # 换宝 under bao_change optional: the bao's kind is dead (three other copies public)
        # and the declared player on turn chooses to return it and roll again
        b = g[G_BAO]
        if rv[RV_BAO_CHANGE] != BAO_CHANGE_OPTIONAL or pond[b] + exposed[b] < 3:
            return False
        if wants_bao_kong(tab, ws, cur, bots, rv, tb, tp) >= 0:
            return False  # (bao_kong: he takes the dead bao for a kong, kongs.bao_kongs, and a
            #              new bao is rolled after it as after a 换宝)
        if not wants_bao_change(tab, ws, cur, bots, rv, tb):
            return False
        event(ev, g, EV_BAO_CHANGE, cur, b, 0, 0)
        g[G_BAO_POS] = -1
        if roll_bao(wall, g, dice, rv, tp, pond, exposed, ev, cur) < 0:
            return False
    return False


@njit(cache=True)
def _look(rv, tb, ev, res, tab, ws):
    """The seat on turn looks at the current bao: 对宝 when its kind is one of his legal waits
    (the win is judged, scored and noted). Returns whether he wins."""
    g, ps, conc, melded, ankong, pungs, taken, ms, mrec, nm, pond, exposed, kpay = tab
    own, own2, unseen, buf, rd, items, fan, pay, grp, mt, c2, ms2, dscr, ut, lx = ws
    cur = g[G_CUR]
    ps[cur, P_LOOKED] = g[G_BAO_VER]
    event(ev, g, EV_LOOK, cur, g[G_BAO], 0, 0)
    if scripted(g) and not ev_next_is(ev, g, EV_WIN, cur):
        return False  # (the record's seat does not claim 对宝)
    own_tiles(conc, melded, cur, own)
    judge_waits(conc[cur], ms[cur], own, rv, tb, buf)
    w = g[G_BAO]
    if not buf[w, W_LEGAL]:
        refuse(g, WIN_NOT_LEGAL)
        return False
    # 对宝: the hand wins with the bao's kind
    dealer = g[G_DEALER]
    tot = score_win(
        conc[cur], w, ms[cur], own, HOW_DUIBAO, cur, dealer, -1, 0, rv, tb, rd, items, fan, pay
    )
    if tot < 0:
        refuse(g, WIN_NOT_LEGAL)
        return False
    capture(res, rd, items, fan, pay)
    won(g, cur, HOW_DUIBAO, w, -1, -1)
    return True


@njit(cache=True)
def mobao_wait(rv, tb, tab, ws):
    """摸宝 on the tile the seat on turn drew: the legal wait the bao stands for (the one that
    scores best; its judgment and payments are left in ``ws``), -1 when the draw is no 摸宝 win
    (he has not seen the current bao, the tile is not of its kind, or no wait is legal)."""
    g, ps, conc, melded, ankong, pungs, taken, ms, mrec, nm, pond, exposed, kpay = tab
    own, own2, unseen, buf, rd, items, fan, pay, grp, mt, c2, ms2, dscr, ut, lx = ws
    cur = g[G_CUR]
    drawn = g[G_DRAWN]
    if not (sees_bao(ps, g, cur) and drawn == g[G_BAO]):
        return -1
    c = conc[cur]
    c[drawn] -= 1
    own_tiles(conc, melded, cur, own)
    w = score_bao_win(
        c, ms[cur], own, HOW_MOBAO, cur, g[G_DEALER], rv, tb, rd, items, fan, pay, buf
    )
    c[drawn] += 1
    return w


@njit(cache=True)
def mobao_win(rv, tb, res, tab, ws):
    """摸宝: the seat on turn has seen the current bao and drew a tile of its kind; the bao stands
    for his legal wait that scores best. Returns whether he wins."""
    g, ps, conc, melded, ankong, pungs, taken, ms, mrec, nm, pond, exposed, kpay = tab
    own, own2, unseen, buf, rd, items, fan, pay, grp, mt, c2, ms2, dscr, ut, lx = ws
    w = mobao_wait(rv, tb, tab, ws)
    if w < 0:
        return False
    capture(res, rd, items, fan, pay)
    won(g, g[G_CUR], HOW_MOBAO, w, g[G_DRAWN], -1)
    return True


@njit(cache=True)
def must_win_bao(rv, tb, tab, ws):
    """mobao_must_win: the seat on turn drew the bao and it wins (``mobao_wait``), so he must
    win on it: no discard, no kong (a bot always wins; the referee refuses a record that
    passes it)."""
    return rv[RV_MOBAO_MUST_WIN] != 0 and mobao_wait(rv, tb, tab, ws) >= 0
