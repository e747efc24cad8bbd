"""Every action the rules allow at a table position, and every one they forbid with its rule code.

``legal_actions`` reads a table state (``state.new_table``, filled from a position) and writes
one row per action considered (A_COLS columns): the kind (A_*), the seat, the tile, two
arguments, the rule code (``codes``: 0 allowed, else the rule that forbids it), the bitmask of
legal waits it leaves (discards, 报听), the hand's fan (wins) and the claim priority (claims on
one tile: the highest is the one the table takes: 胡 nearest the discarder (截胡), then 碰/杠,
then 吃). It asks the same kernels the phases ask when they play a hand (``driver.turn_options``,
``wall.can_draw`` / ``win_only_draw``, ``settle.can_win`` / ``score_win``, ``kongs.special_tiles`` / ``sanyaoji_tiles``,
``bots.ankong_keeps_waits`` / ``mingkong_keeps_waits`` / ``bao_kong_code``, ``bao.may_look`` / ``sees_bao``,
``state.claim_leaves_one``, ``judge.judge_waits`` / ``may_declare``): no rule is written here.
"""

import numpy as np

from ..jit import njit
from ..judge import W_LEGAL, judge_waits, may_declare
from ..layout import (
    HOW_DISCARD,
    HOW_DUIBAO,
    HOW_MOBAO,
    HOW_SELF,
    MELD_ANKONG,
    MELD_JIUDAN,
    MELD_XUANFENG,
    MELD_YAODAN,
    N_KINDS,
    N_SEATS,
    RV_BAO_CHANGE,
    RV_BAO_KONG,
    RV_GUOSHUI,
    RV_ONE_SPECIAL_PER_KIND,
    RV_SHOUBAYI_NO_CLAIM,
)
from . import codes as C
from .bao import may_look, must_win_bao, sees_bao
from .bots import (
    bao_kong_code,
    chow_options,
    legal_mask,
    mingkong_keeps_waits,
    self_kong_code,
)
from .driver import turn_options
from .kongs import may_lay_dadan, sanyaoji_tiles, special_tiles
from .layout import (
    BAO_CHANGE_OPTIONAL,
    G_BAO,
    G_BAO_VER,
    G_CUR,
    G_DEALER,
    G_DRAWN,
    G_HEAD,
    G_LAID,
    G_NO_BAO,
    G_PEND_KIND,
    G_PENDING,
    G_PHASE,
    P_DECLARED,
    P_FIRST,
    P_LOOKED,
    P_PASSED,
    P_SPECIAL,
    PH_CLAIM,
    PH_DRAW,
    PH_ROB,
    PH_SELF,
)
from .settle import can_win, declared_state, score_bao_win, score_win
from .state import (
    bu_kind,
    chow_refused_shoubayi,
    claim_leaves_one,
    ms_with_chow,
    ms_with_pung,
    own_tiles,
    pung_refused_shoubayi,
)
from .wall import can_draw, win_only_draw

# action kinds (ACTION_NAMES order)
A_DRAW = 0  # draw the next tile from the wall
A_WIN = 1  # 胡: tile = the tile won with, a = HOW_*, b = the discarder (-1)
A_PUNG = 2  # 碰 the offered tile
A_CHOW = 3  # 吃: a = the chow's first tile
A_MINGKONG = 4  # 明杠 on the discard
A_ANKONG = 5  # 暗杠
A_JIAGANG = 6  # 加杠: the fourth tile onto an exposed pung
A_SPECIAL = 7  # a special kong laid out: a = meld kind, b = its tiles
A_BU = 8  # 补: a tile onto a special kong (a = meld kind)
A_DECLARE = 9  # 报听 with the discard of tile (waits: the legal waits it declares)
A_LOOK = 10  # look at the bao (the first declarer rolls it): a = 1 when it is 对宝 (a win)
A_BAO_CHANGE = 11  # 换宝: return the dead bao and roll again (bao_change optional)
A_DISCARD = 12  # discard tile (waits: the legal waits it leaves, 0 not tenpai)
A_PASS = 13  # let the offered tile go (no claim), or pass on a win-only draw
A_ROB_PUNG = 14  # 抢叉: 碰 the 补 tile being added
A_BAO_KONG = 15  # 用宝 (bao_kong): the bao tile taken for a kong, a = 0 暗杠, 1 加杠, 2 补
ACTION_NAMES = (
    "draw", "win", "pung", "chow", "mingkong", "ankong", "jiagang", "special_kong", "bu",
    "declare", "look", "bao_change", "discard", "pass", "rob_pung", "bao_kong",
)  # fmt: skip

# columns of a row
AC_KIND = 0
AC_SEAT = 1
AC_TILE = 2
AC_A = 3
AC_B = 4
AC_CODE = 5
AC_WAITS = 6
AC_FAN = 7
AC_PRI = 8
A_COLS = 9
MAX_ACTIONS = 256

# claim priorities (AC_PRI; higher first): 胡 nearest the discarder (截胡), 碰/杠, 吃
PRI_WIN = 300
PRI_PUNG = 200
PRI_CHOW = 100


@njit(cache=True)
def _row(out, n, kind, seat, tile, a, b, code, waits, fan, pri):
    if n < out.shape[0]:
        out[n, AC_KIND] = kind
        out[n, AC_SEAT] = seat
        out[n, AC_TILE] = tile
        out[n, AC_A] = a
        out[n, AC_B] = b
        out[n, AC_CODE] = code
        out[n, AC_WAITS] = waits
        out[n, AC_FAN] = fan
        out[n, AC_PRI] = pri
    return n + 1


@njit(cache=True)
def _discard_win(tab, ws, s, src, t, rv, tb):
    """(code, fan) of seat s winning on the tile t given up by ``src`` (a discard, or a robbed
    kong tile): the shared judgment (``settle.can_win``) and 过水."""
    g, ps, conc, melded, ankong, pungs, taken, ms, mrec, nm, pond, exposed, kpay = tab
    own, own2, unseen, buf, rd, items, fan, pay, grp, mt, c2, ms2, dscr, ut, lx = ws
    if not can_win(ps, s, conc[s], t, ms[s], conc, melded, own2, rv, tb, rd):
        return C.WIN_NOT_LEGAL, -1
    dstate = declared_state(ps, g, src, rv)
    tot = score_win(
        conc[s], t, ms[s], own2, HOW_DISCARD, s, g[G_DEALER], src, dstate, rv, tb, rd, items,
        fan, pay,
    )  # fmt: skip
    if rv[RV_GUOSHUI] and tot <= ps[s, P_PASSED]:
        return C.GUOSHUI, tot
    return C.OK, tot


@njit(cache=True)
def passed_fan(tab, ws, s, t, rv, tb):
    """The fan of the discard win on t that seat s passed (过水 keeps it, P_PASSED); -1 when his
    hand does not win on t."""
    g, ps, conc, melded, ankong, pungs, taken, ms, mrec, nm, pond, exposed, kpay = tab
    own, own2, unseen, buf, rd, items, fan, pay, grp, mt, c2, ms2, dscr, ut, lx = ws
    if not can_win(ps, s, conc[s], t, ms[s], conc, melded, own2, rv, tb, rd):
        return -1
    return score_win(
        conc[s], t, ms[s], own2, HOW_DISCARD, s, g[G_DEALER], -1, 0, rv, tb, rd, items, fan, pay
    )


@njit(cache=True)
def _claims(tab, ws, rv, tb, tp, known, out, n):
    """The claims on the discard G_PENDING of the seat on turn."""
    g, ps, conc, melded, ankong, pungs, taken, ms, mrec, nm, pond, exposed, kpay = tab
    own, own2, unseen, buf, rd, items, fan, pay, grp, mt, c2, ms2, dscr, ut, lx = ws
    cur = g[G_CUR]
    d = g[G_PENDING]
    for k in range(1, N_SEATS):
        s = (cur + k) % N_SEATS
        if not known[s]:
            continue
        code, tot = _discard_win(tab, ws, s, cur, d, rv, tb)
        if code != C.WIN_NOT_LEGAL:
            n = _row(out, n, A_WIN, s, d, HOW_DISCARD, cur, code, 0, tot, PRI_WIN - k)
        locked = ps[s, P_DECLARED] != 0
        if conc[s, d] >= 2:
            code = C.LOCKED_HAND if locked else C.OK
            ms_with_pung(ms, s, d, True, ms2)
            shoubayi = rv[RV_SHOUBAYI_NO_CLAIM] and claim_leaves_one(ms2, rv)
            if code == C.OK and (
                shoubayi or pung_refused_shoubayi(conc, melded, s, d, ms2, rv, tb, buf)
            ):
                code = C.SHOUBAYI_NO_CLAIM
            n = _row(out, n, A_PUNG, s, d, 0, cur, code, 0, 0, PRI_PUNG)
            if conc[s, d] == 3:
                kc = C.OK
                if shoubayi:
                    kc = C.SHOUBAYI_NO_CLAIM
                elif not can_draw(g, tp, rv):
                    kc = C.WALL_ENDED  # no replacement draw left
                elif locked:
                    own_tiles(conc, melded, s, own2)
                    if not mingkong_keeps_waits(conc, ms, s, d, own2, rv, tb, buf, c2, ms2):
                        kc = C.LOCKED_HAND
                n = _row(out, n, A_MINGKONG, s, d, 0, cur, kc, 0, 0, PRI_PUNG)
        n_chow = chow_options(conc, s, d, grp)
        for o in range(n_chow):
            lo = grp[o]
            code = C.OK
            if k != 1:
                code = C.CHOW_NOT_FROM_LEFT
            elif locked:
                code = C.LOCKED_HAND
            else:
                ms_with_chow(ms, s, lo, ms2)
                if chow_refused_shoubayi(ms2, rv):
                    code = C.SHOUBAYI_NO_CLAIM
            n = _row(out, n, A_CHOW, s, d, lo, cur, code, 0, 0, PRI_CHOW)
        n = _row(out, n, A_PASS, s, d, 0, cur, C.OK, 0, 0, 0)
    return n


@njit(cache=True)
def _robs(tab, ws, rv, tb, known, out, n):
    """抢杠胡 on the 加杠/补 tile G_PENDING the seat on turn is adding; 抢叉 (碰) on a 补 tile."""
    g, ps, conc, melded, ankong, pungs, taken, ms, mrec, nm, pond, exposed, kpay = tab
    cur = g[G_CUR]
    t = g[G_PENDING]
    for k in range(1, N_SEATS):
        s = (cur + k) % N_SEATS
        if not known[s]:
            continue
        code, tot = _discard_win(tab, ws, s, cur, t, rv, tb)
        if code != C.WIN_NOT_LEGAL:
            n = _row(out, n, A_WIN, s, t, HOW_DISCARD, cur, code, 0, tot, PRI_WIN - k)
        if g[G_PEND_KIND] == 2 and conc[s, t] >= 2:
            code = C.LOCKED_HAND if ps[s, P_DECLARED] else C.OK
            n = _row(out, n, A_ROB_PUNG, s, t, 0, cur, code, 0, 0, PRI_PUNG)
        n = _row(out, n, A_PASS, s, t, 0, cur, C.OK, 0, 0, 0)
    return n


@njit(cache=True)
def _draw_turn(tab, ws, rv, tb, tp, out, n):
    """The seat on turn is to draw: a declared seat that may look looks first (the first one
    rolls the bao); 换宝 where the bao is dead and the variant leaves it to him."""
    g, ps, conc, melded, ankong, pungs, taken, ms, mrec, nm, pond, exposed, kpay = tab
    own, own2, unseen, buf, rd, items, fan, pay, grp, mt, c2, ms2, dscr, ut, lx = ws
    cur = g[G_CUR]
    if not can_draw(g, tp, rv):
        return _row(out, n, A_DRAW, cur, -1, 0, 0, C.WALL_ENDED, 0, 0, 0)
    looks = ps[cur, P_DECLARED] != 0 and may_look(conc, melded, cur, rv)
    b = g[G_BAO]
    if looks and not (b < 0 and g[G_NO_BAO]) and (b < 0 or ps[cur, P_LOOKED] != g[G_BAO_VER]):
        duibao = 0
        tot = -1
        if b >= 0:
            own_tiles(conc, melded, cur, own)
            judge_waits(conc[cur], ms[cur], own, rv, tb, buf)
            if buf[b, W_LEGAL]:
                tot = score_win(
                    conc[cur], b, ms[cur], own, HOW_DUIBAO, cur, g[G_DEALER], -1, 0, rv, tb,
                    rd, items, fan, pay,
                )  # fmt: skip
                duibao = 1 if tot >= 0 else 0
        return _row(out, n, A_LOOK, cur, b, duibao, 0, C.OK, 0, tot, 0)  # (he draws after)
    if ps[cur, P_DECLARED] and not looks:
        n = _row(out, n, A_LOOK, cur, b, 0, 0, C.LOOK_WITHOUT_DECLARE, 0, -1, 0)
    if b >= 0 and pond[b] + exposed[b] >= 3:
        code = C.OK
        if rv[RV_BAO_CHANGE] != BAO_CHANGE_OPTIONAL or not looks:
            code = C.BAO_CHANGE_NOT_ALLOWED
        n = _row(out, n, A_BAO_CHANGE, cur, b, 0, 0, code, 0, 0, 0)
    elif b >= 0 and looks:
        n = _row(out, n, A_BAO_CHANGE, cur, b, 0, 0, C.BAO_CHANGE_NOT_ALLOWED, 0, 0, 0)
    if rv[RV_BAO_KONG] and b >= 0 and looks:
        # 用宝: the kong his tiles point to (three concealed, his pung, a special kong of his)
        kind = 0
        if pungs[cur, b]:
            kind = 1
        elif conc[cur, b] != 3 and bu_kind(ps, cur, b, rv) >= 0:
            kind = 2
        code = bao_kong_code(tab, ws, cur, kind, rv, tb, tp)
        n = _row(out, n, A_BAO_KONG, cur, b, kind, 0, code, 0, 0, 0)
    return _row(out, n, A_DRAW, cur, -1, 0, 0, C.OK, 0, 0, 0)


@njit(cache=True)
def _laying_code(last, first, allow_kong, locked):
    """May the seat on turn lay out a special kong (or a 大蛋 of three) now: C.OK, or the rule
    against it (the wall's last, win-only draw; not his first turn; a locked hand)."""
    if last:
        return C.WALL_END_WIN_ONLY
    if not first or not allow_kong:
        return C.SPECIAL_KONG_TIMING
    if locked:
        return C.LOCKED_HAND
    return C.OK


@njit(cache=True)
def _self_turn(tab, ws, rv, tb, tp, out, n):
    """The seat on turn holds 3k+2 tiles: 胡 (自摸 / 摸宝), kongs, discards and 报听."""
    g, ps, conc, melded, ankong, pungs, taken, ms, mrec, nm, pond, exposed, kpay = tab
    own, own2, unseen, buf, rd, items, fan, pay, grp, mt, c2, ms2, dscr, ut, lx = ws
    cur = g[G_CUR]
    drawn = g[G_DRAWN]
    dealer = g[G_DEALER]
    c = conc[cur]
    locked = ps[cur, P_DECLARED] != 0
    # the draw just made was one of the last four (wall_end win_only_four): win or pass only
    last = False
    must = False  # mobao_must_win: the drawn bao wins, so nothing but the win is allowed
    if drawn >= 0:
        last = _was_win_only(g, tp, rv)
        must = must_win_bao(rv, tb, tab, ws)
    # 胡 on the drawn tile: 摸宝 first (he has seen the bao and drew its kind), else 自摸; not
    # after a 3-tile special kong laid since the draw (no tile came: the engine judges a win
    # when a tile comes, and the drawn tile may be in the kong)
    if drawn >= 0 and g[G_LAID]:
        if c[drawn] > 0:  # (--explain: the 自摸 the hand would be, forbidden)
            c[drawn] -= 1
            if can_win(ps, cur, c, drawn, ms[cur], conc, melded, own, rv, tb, rd):
                n = _row(out, n, A_WIN, cur, drawn, HOW_SELF, -1, C.NO_WIN_CHANCE, 0, 0, 0)
            c[drawn] += 1
    elif drawn >= 0:
        if sees_bao(ps, g, cur) and drawn == g[G_BAO]:
            c[drawn] -= 1
            own_tiles(conc, melded, cur, own)
            w = score_bao_win(c, ms[cur], own, HOW_MOBAO, cur, dealer, rv, tb, rd, items, fan,
                              pay, buf)  # fmt: skip
            tot = 0
            for i in range(items.shape[0]):
                tot += items[i]
            c[drawn] += 1
            if w >= 0:
                n = _row(out, n, A_WIN, cur, w, HOW_MOBAO, -1, C.OK, 0, tot, 0)
        c[drawn] -= 1
        if can_win(ps, cur, c, drawn, ms[cur], conc, melded, own, rv, tb, rd):
            tot = score_win(c, drawn, ms[cur], own, HOW_SELF, cur, dealer, -1, 0, rv, tb, rd,
                            items, fan, pay)  # fmt: skip
            n = _row(out, n, A_WIN, cur, drawn, HOW_SELF, -1, C.OK, 0, tot, 0)
        c[drawn] += 1
    if last:
        n = _row(out, n, A_PASS, cur, drawn, 0, 0, C.MOBAO_MUST_WIN if must else C.OK, 0, 0, 0)
    dealer_first, no_bu, allow_kong = turn_options(ps, g, cur)
    # kongs: the wall must give a replacement draw (a 3-tile special kong takes none)
    wall_ok = can_draw(g, tp, rv)
    own_tiles(conc, melded, cur, own)
    first = ps[cur, P_FIRST] != 0
    # 大蛋 of three (dadan_laid), then the special kongs
    for t in range(N_KINDS):
        if may_lay_dadan(conc, taken, cur, t, rv):
            code = _laying_code(last, first, allow_kong, locked)
            mask = ((t + 1) * 64 + t + 1) * 64 + t + 1  # (its tiles, six bits each)
            n = _row(out, n, A_SPECIAL, cur, t, MELD_ANKONG, mask, code, 0, 0, 3)
    kind = MELD_XUANFENG
    san = False  # (幺蛋 twice: its members, then a 三幺鸡 of three 1s)
    while kind <= MELD_JIUDAN:
        if san:
            m, _bu = sanyaoji_tiles(conc, taken, cur, rv, grp, c2)
        else:
            m, _bu = special_tiles(conc, taken, cur, kind, rv, grp, mt, c2, no_bu)
        if m > 0:
            code = _laying_code(last, first, allow_kong, locked)
            repeat = rv[RV_ONE_SPECIAL_PER_KIND] and ps[cur, P_SPECIAL + kind - MELD_XUANFENG] > 0
            if code == C.OK and repeat:
                code = C.SPECIAL_KONG_REPEAT
            elif code == C.OK and m > 3 and not wall_ok:
                code = C.WALL_ENDED
            mask = 0
            for i in range(m):
                mask = mask * 64 + grp[i] + 1  # (its tiles, six bits each)
            n = _row(out, n, A_SPECIAL, cur, grp[0], kind, mask, code, 0, 0, m)
        if kind == MELD_YAODAN and not san:
            san = True
            continue
        san = False
        kind += 1
    for t in range(N_KINDS):
        if c[t] == 0:
            continue
        base = C.OK
        if last:
            base = C.WALL_END_WIN_ONLY
        elif must:
            base = C.MOBAO_MUST_WIN
        elif not wall_ok:
            base = C.WALL_ENDED
        elif drawn < 0 and not dealer_first:
            base = C.NO_SUCH_KONG  # (a turn entered by a claim: kongs only after a draw)
        elif locked and t != drawn:
            base = C.LOCKED_HAND
        for kind in range(3):  # 暗杠, 加杠, 补 (self_kong_code: the rules the driver asks)
            if (kind == 0 and c[t] != 4) or (kind == 1 and not pungs[cur, t]):
                continue
            from_state = bu_kind(ps, cur, t, rv)
            if kind == 2 and from_state < 0:
                continue
            code = base
            if code == C.OK:
                code = self_kong_code(tab, ws, cur, t, kind, drawn, no_bu, rv, tb)
            if kind == 0:
                n = _row(out, n, A_ANKONG, cur, t, 0, 0, code, 0, 0, 0)
            elif kind == 1:
                n = _row(out, n, A_JIAGANG, cur, t, 0, 0, code, 0, 0, 0)
            else:
                n = _row(out, n, A_BU, cur, t, from_state, 0, code, 0, 0, 0)
    # discards (and 报听 with each that leaves legal waits)
    for t in range(N_KINDS):
        if c[t] == 0:
            continue
        c[t] -= 1
        own[t] -= 1
        waits = legal_mask(c, ms[cur], own, rv, tb, buf)
        own[t] += 1
        c[t] += 1
        code = C.OK
        if last:
            code = C.WALL_END_WIN_ONLY
        elif locked and drawn >= 0 and t != drawn:
            code = C.LOCKED_HAND
        elif must:
            code = C.MOBAO_MUST_WIN
        n = _row(out, n, A_DISCARD, cur, t, 0, 0, code, waits, 0, 0)
        if not locked:
            dc = code
            if dc == C.OK and waits == 0:
                dc = C.NOT_TENPAI
            elif dc == C.OK and not may_declare(own, rv):
                dc = C.DUANYAOJIU_NO_DECLARE
            n = _row(out, n, A_DECLARE, cur, t, 0, 0, dc, waits, 0, 0)
    return n


@njit(cache=True)
def _was_win_only(g, tp, rv):
    """Was the head draw just made one of the last four (``wall.win_only_draw`` asked as it was
    before the draw: the head one back)."""
    g[G_HEAD] -= 1
    r = win_only_draw(g, tp, rv)
    g[G_HEAD] += 1
    return r


@njit(cache=True)
def legal_actions(tab, ws, rv, tb, tp, known, out):
    """Write every action considered at the position ``tab`` into ``out`` (A_COLS columns);
    returns the number of rows. ``known[s]``: seat s's concealed tiles are known (the others
    are not judged)."""
    g = tab[0]
    ph = g[G_PHASE]
    if ph == PH_DRAW:
        return _draw_turn(tab, ws, rv, tb, tp, out, 0)
    if ph == PH_SELF:
        if not known[g[G_CUR]]:
            return 0
        return _self_turn(tab, ws, rv, tb, tp, out, 0)
    if ph == PH_CLAIM:
        return _claims(tab, ws, rv, tb, tp, known, out, 0)
    if ph == PH_ROB:
        return _robs(tab, ws, rv, tb, known, out, 0)
    return 0


def new_actions():
    return np.zeros((MAX_ACTIONS, A_COLS), np.int64)
