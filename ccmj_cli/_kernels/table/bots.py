"""The table bots: every decision a policy makes (the engine's phases apply them).

Every rule judgment goes through the shared kernels: discards via ``policy.choose_discard``,
legality and waits via ``judge``. A bot only decides *whether to act*, by its knobs (one row of
``bots`` per seat, K_* layout):

- discard: ``policy.choose_discard`` (minimise shanten, ties by live useful tiles / legal waits);
  a declared (报听) hand discards the tile it drew;
- 吃/碰 (knob K_CALL): 1 = call when the best discard after the call leaves a lower shanten than
  the hand has now, 2 = when it does not raise it; never a call that leaves a tenpai with no
  legal wait or a 手把一 (single tile) hand that can no longer be 飘胡;
- 杠/补 (knob K_KONG): when the hand without the kong tiles is no worse (shanten) than after the
  best discard; a declared (报听) hand only when its legal waits stay the same;
- 报听 (knob K_DECLARE): as soon as a discard leaves the hand tenpai (a live legal wait);
- special kongs (knob K_SPECIAL): every one the starting hand holds;
- 胡: always, whenever the judgment says the win is legal (knob K_PASS_WIN 1: never on a
  discard, which tests 过水 with);

The knobs after the first four are a policy's weights (0 = off: the baseline never reads them):

- defence (K_FOLD, K_PUSH): once an opponent has declared, a hand K_FOLD or more from tenpai
  folds: it discards the tile least dangerous to every declared opponent (one he discarded
  himself first, then the tile with the fewest live wait readings: 两面/边/坎 with both
  neighbours still unseen, 单调/对碰 with a copy unseen); a hand that can be tenpai discards a
  dangerous tile only with at least K_PUSH live legal waits after it;
- value: 飘胡 (K_PIAO) when the concealed tiles hold that many pairs/pungs and no chow is
  declared: discards for the fewest tiles to an all-pung hand, pungs every pair offered, never
  chows, and falls back to the shanten policy when the 飘 tenpai has no live legal wait; 门清
  (K_MENQING): a concealed hand at most that many tiles from tenpai makes no 吃/碰; the tenpai
  discard (K_WAIT) weighs each live legal wait by what it pays (夹胡 x2, 飘胡 x4); 报听
  (K_DECLARE_LIVE) only with that many live legal waits;
- 换宝 when optional (K_BAO_CHANGE, ``wants_bao_change``): a declared seat whose weight allows
  it changes a dead bao when its kind is no live legal wait of his;
- legality (K_LEGAL, the ``expert``): discards and 吃/碰 by the legal distance instead of
  standard shanten (``legalplay.legal_choice``, ``legal_call``, ``legal_chow``).
- defence by value (K_DEFEND, the ``expert``): once an opponent has declared, the discard is
  the offence's choice, the safest tile keeping its distance or the safest of all, whichever is
  worth most (``defence.defend_discard``); K_FOLD and K_PUSH are then not read. 换宝 by value
  too: only when the new bao helps the seat more than the other declared seats
  (``defence.bao_change_pays``); and 报听 by value: when the declared line (the bao's 对宝 and
  摸宝, the hand locked) is worth more than staying open (``defence.declare_pays``).
"""

import numpy as np

from ..jit import njit
from ..judge import W_JIAHU, W_LEGAL, W_PIAO, judge_waits, may_declare
from ..layout import (
    FIRST_SPECIAL,
    HONOR,
    MS_CHOWS,
    MS_CLAIMED,
    MS_PUNGS,
    N_KINDS,
    N_SEATS,
    RV_BAO_KONG,
    RV_DECLARED_KONG_KEEPS_PATTERN,
    RV_ONE_SPECIAL_PER_KIND,
    RV_QIDUI,
    RV_SHOUBAYI_NO_CLAIM,
)
from ..legal import INF as LG_INF
from ..policy import choose_discard_value
from ..shape import shanten
from . import codes as C
from .defence import bao_change_pays, declare_pays, defend_discard, readings
from .layout import (
    ANY,
    EV_ANKONG,
    EV_BAO_CHANGE,
    EV_BAO_KONG,
    EV_BU,
    EV_CHOW,
    EV_DECLARE,
    EV_DISCARD,
    EV_DRAW,
    EV_JIAGANG,
    EV_KONG_ROBBED,
    EV_MINGKONG,
    EV_PUNG,
    EV_SPECIAL,
    EV_TAIL,
    EV_WIN,
    G_BAD_EV,
    G_BAO,
    G_BAO_VER,
    G_NEV,
    G_NREC,
    G_STOP,
    K_BAO_CHANGE,
    K_CALL,
    K_DECLARE,
    K_DECLARE_LIVE,
    K_DECLARE_VALUE,
    K_DEFEND,
    K_FOLD,
    K_KONG,
    K_LEGAL,
    K_MENQING,
    K_PASS_WIN,
    K_PIAO,
    K_PUSH,
    K_SPECIAL,
    K_WAIT,
    P_DECLARED,
    P_DISC,
    P_FIRST,
    P_LOOKED,
    P_SPECIAL,
)
from .legalplay import legal_choice, legal_distance, wait_value
from .script import claim_kind, next_is, rec_field, refuse, scripted
from .settle import can_win
from .state import (
    bu_kind,
    chow_refused_shoubayi,
    claim_leaves_one,
    ms_with_chow,
    ms_with_pung,
    own_tiles,
    pung_refused_shoubayi,
    unseen_by,
)
from .wall import bao_kong_room


@njit(cache=True)
def legal_mask(c, ms, own, rv, tb, buf):
    """Bitmask of the legal waits of 3k+1 concealed tiles (live or not)."""
    judge_waits(c, ms, own, rv, tb, buf)
    m = np.int64(0)
    for t in range(N_KINDS):
        if buf[t, W_LEGAL]:
            m |= np.int64(1) << t
    return m


@njit(cache=True)
def pattern_masks(buf):
    """(夹胡, 飘胡): bitmasks of the legal waits just judged into ``buf`` whose win scores 夹胡,
    and 飘胡 (the win's pattern, for declared_kong_keeps_pattern)."""
    jia = np.int64(0)
    piao = np.int64(0)
    for t in range(N_KINDS):
        if buf[t, W_LEGAL]:
            if buf[t, W_JIAHU]:
                jia |= np.int64(1) << t
            if buf[t, W_PIAO]:
                piao |= np.int64(1) << t
    return jia, piao


@njit(cache=True)
def ankong_keeps_waits(conc, ms, s, t, own, rv, tb, buf, ms2):
    """A declared (locked) hand holding four of its drawn tile t may 暗杠 it only if its legal
    waits stay the same (RULES §6, docs/rules.md "Declaring"): the waits of the hand without t
    against those after the kong; under declared_kong_keeps_pattern each wait's 夹胡/飘胡 too.
    ``own``: seat s's tiles, melds included."""
    c = conc[s]
    c[t] -= 1
    before = legal_mask(c, ms[s], own, rv, tb, buf)
    jb, pb = pattern_masks(buf)
    c[t] -= 3
    ms_with_pung(ms, s, t, False, ms2)
    after = legal_mask(c, ms2, own, rv, tb, buf)
    ja, pa = pattern_masks(buf)
    c[t] += 4
    same = before == after and before != 0
    if rv[RV_DECLARED_KONG_KEEPS_PATTERN]:
        same = same and jb == ja and pb == pa
    return same


@njit(cache=True)
def mingkong_keeps_waits(conc, ms, s, d, own2, rv, tb, buf, c2, ms2):
    """A declared (locked) hand holding three of the discard d may 明杠 it only if its legal
    waits stay the same (and, under declared_kong_keeps_pattern, each wait's 夹胡/飘胡).
    ``own2``: seat s's tiles, melds included."""
    ms_with_pung(ms, s, d, True, ms2)
    before = legal_mask(conc[s], ms[s], own2, rv, tb, buf)
    jb, pb = pattern_masks(buf)
    for i in range(N_KINDS):
        c2[i] = conc[s, i]
    c2[d] -= 3
    own2[d] += 1
    after = legal_mask(c2, ms2, own2, rv, tb, buf)
    ja, pa = pattern_masks(buf)
    own2[d] -= 1
    same = before == after and before != 0
    if rv[RV_DECLARED_KONG_KEEPS_PATTERN]:
        same = same and jb == ja and pb == pa
    return same


@njit(cache=True)
def best_after_discard(c, ms, own, unseen, rv, tb, ut, dscr):
    """(shanten, live) the 3k+2 tiles ``c`` leave after the policy's discard."""
    _d, sh, live, _n = choose_discard_value(c, ms, own, unseen, rv, tb, ut, dscr)
    return sh, live


@njit(cache=True)
def accept_call(level, sh_before, sh_after, live_after, ms_after, rv):
    """The K_CALL rule for a chow or pung, given what the hand is worth before and after."""
    if level == 0:
        return False
    if sh_after == 0 and live_after == 0:
        return False  # a tenpai with no legal live wait
    if claim_leaves_one(ms_after, rv):
        return False  # 手把一 with a chow: never legal (the engine refuses it too)
    if level == 1:
        return sh_after < sh_before
    return sh_after <= sh_before


@njit(cache=True)
def shanten_without(c, t, n, tb):
    """Shanten of ``c`` with n copies of t removed (restored afterwards)."""
    c[t] -= n
    sh = shanten(c, tb)
    c[t] += n
    return sh


@njit(cache=True)
def call_shanten(c2, tb):
    """The shanten a call leaves after the policy's discard: the shanten of the 3k+2 tiles
    ``c2`` (the best discard keeps it; a complete hand leaves a tenpai, 0)."""
    sh = shanten(c2, tb)
    return sh if sh > 0 else 0


@njit(cache=True)
def passes_shanten(level, sh_before, sh_after):
    """The K_CALL shanten test (``accept_call`` without the tenpai checks)."""
    if level == 0:
        return False
    if level == 1:
        return sh_after < sh_before
    return sh_after <= sh_before


# ------------------------------------------------------------------ the weights' rules
@njit(cache=True)
def piao_need(c, unseen, k):
    """Tiles the 3k+1 concealed tiles ``c`` still need to be k pungs and a pair (飘胡): pungs
    held count, a pair with a copy unseen needs one tile, a dead pair can only be the eye, other
    sets two tiles each; the eye one tile when no pair is left over."""
    p = 0
    ql = 0
    qd = 0
    for t in range(N_KINDS):
        n = c[t]
        if n >= 3:
            p += 1
        elif n == 2:
            if unseen[t] > 0:
                ql += 1
            else:
                qd += 1
    r = k - p if k > p else 0
    u = ql if ql < r else r
    r2 = r - u
    left = ql - u + qd + (p - k if p > k else 0)
    return u + 2 * r2 + (0 if left >= 1 else 1)


@njit(cache=True)
def pairs_held(c):
    """Pairs and pungs among the concealed tiles."""
    n = 0
    for t in range(N_KINDS):
        if c[t] >= 2:
            n += 1
    return n


@njit(cache=True)
def piao_mode(bots, s, c, ms_s):
    """K_PIAO: the seat chases 飘胡 (enough pairs and pungs, held or declared — a pung it made
    chasing still counts, so the chase goes on — and no chow declared)."""
    w = bots[s, K_PIAO]
    return w > 0 and ms_s[MS_CHOWS] == 0 and pairs_held(c) + ms_s[MS_PUNGS] >= w


@njit(cache=True)
def piao_discard(c, unseen, n_tiles):
    """The discard from 3k+2 tiles ``c`` that leaves the fewest tiles to an all-pung hand; ties:
    the tile least likely to pair up (fewest unseen copies, then the lowest index). Returns
    (tile, tiles still needed after it)."""
    k = (n_tiles - 2) // 3
    best = -1
    best_need = 99
    best_u = 99
    for t in range(N_KINDS):
        if c[t] == 0:
            continue
        c[t] -= 1
        need = piao_need(c, unseen, k)
        c[t] += 1
        u = unseen[t] + (4 if c[t] >= 2 else 0)  # keep pairs and pungs
        if need < best_need or (need == best_need and u < best_u):
            best, best_need, best_u = t, need, u
    return best, best_need


@njit(cache=True)
def danger(t, s, ps, unseen):
    """How dangerous discarding t is to the declared opponents of seat s: 0 when none declared
    or each declared one discarded t himself; else 1 + the live wait readings on t (两面/边/坎
    with both other tiles unseen, 单调/对碰 with a copy unseen) for each declared opponent."""
    reads = readings(t, unseen)
    d = 0
    for o in range(N_SEATS):
        if o != s and ps[o, P_DECLARED] and not (ps[o, P_DISC] >> t & 1):
            d += 1 + reads
    return d


@njit(cache=True)
def opponent_declared(ps, s):
    for o in range(N_SEATS):  # noqa: SIM110 (a plain loop for Numba)
        if o != s and ps[o, P_DECLARED]:
            return True
    return False


@njit(cache=True)
def safest_discard(c, s, ps, unseen, tb):
    """The fold discard: the least dangerous tile (``danger``); ties: the one leaving the lowest
    shanten, then the lowest index."""
    best = -1
    best_d = 1 << 30
    best_sh = 99
    for t in range(N_KINDS):
        if c[t] == 0:
            continue
        d = danger(t, s, ps, unseen)
        if d > best_d:
            continue
        c[t] -= 1
        sh = shanten(c, tb)
        c[t] += 1
        if d < best_d or sh < best_sh:
            best, best_d, best_sh = t, d, sh
    return best


# ------------------------------------------------------------------ decisions
@njit(cache=True)
def choose_discard_at(tab, ws, s, drawn, bots, rv, tb):
    """(the tile seat s discards, the live legal waits it leaves when that is a standard-form
    tenpai, else -1). A declared hand discards the tile it drew. The baseline discards by
    ``policy.choose_discard``; the weights may change the choice (value, then defence)."""
    g, ps, conc, melded, ankong, pungs, taken, ms, mrec, nm, pond, exposed, kpay = tab
    own, own2, unseen, buf, rd, items, fan, pay, grp, mt, c2, ms2, dscr, ut, lx = ws
    if scripted(g):
        return scripted_discard(tab, s, drawn, bots, rv), np.int64(-1)
    if ps[s, P_DECLARED] and drawn >= 0:
        return drawn, np.int64(-1)  # the hand is locked after 报听
    own_tiles(conc, melded, s, own)
    unseen_by(conc, ankong, pond, exposed, s, unseen)
    c = conc[s]
    d = np.int64(-1)
    if bots[s, K_LEGAL]:  # (sh: the legal shanten then)
        d, dist, n_live, _v = legal_choice(c, ms[s], own, unseen, rv, tb, ut, dscr, lx, buf,
                                            bots[s, K_WAIT])
        sh = dist - 1
    if d < 0:
        d, sh, _live, n_live = choose_discard_value(c, ms[s], own, unseen, rv, tb, ut, dscr)
    if bots[s, K_PIAO] and sh > 0 and piao_mode(bots, s, c, ms[s]):
        n_tiles = 0
        for t in range(N_KINDS):
            n_tiles += c[t]
        dp, need = piao_discard(c, unseen, n_tiles)
        if need > 1:
            d, n_live = dp, np.int64(-1)
        else:  # a 飘 tenpai: only with a live legal wait
            c[dp] -= 1
            own[dp] -= 1
            nl, _v = wait_value(c, ms[s], own, unseen, rv, tb, buf, False)
            c[dp] += 1
            own[dp] += 1
            if nl > 0:
                d, sh, n_live = dp, np.int64(0), np.int64(judge_waits_live(buf, unseen))
    if bots[s, K_WAIT] and sh == 0 and not bots[s, K_LEGAL]:  # (legal_choice weighs them)
        best_v = -1
        for t in range(N_KINDS):
            if c[t] == 0:
                continue
            c[t] -= 1
            if shanten(c, tb) == 0:
                own[t] -= 1
                nl, v = wait_value(c, ms[s], own, unseen, rv, tb, buf, True)
                own[t] += 1
                if nl > 0 and v > best_v:
                    best_v = v
                    d = t
                    n_live = np.int64(judge_waits_live(buf, unseen))
            c[t] += 1
    if bots[s, K_DEFEND] and opponent_declared(ps, s):
        f = defend_discard(c, ms, own, unseen, s, ps, g, d, rv, tb, buf, lx, bots[s, K_LEGAL] != 0,
                           bots[s, K_WAIT] != 0, items, fan, pay)
        if f != d:
            d, n_live = f, tenpai_waits(c, ms[s], own, f, rv, tb, buf)
    elif (bots[s, K_FOLD] or bots[s, K_PUSH]) and opponent_declared(ps, s):
        fold = bots[s, K_FOLD] > 0 and sh >= bots[s, K_FOLD]
        if not fold and sh == 0 and bots[s, K_PUSH] > 0 and danger(d, s, ps, unseen) > 0:
            c[d] -= 1
            own[d] -= 1
            nl, _v = wait_value(c, ms[s], own, unseen, rv, tb, buf, False)
            c[d] += 1
            own[d] += 1
            fold = nl < bots[s, K_PUSH]
        if fold:
            f = safest_discard(c, s, ps, unseen, tb)
            if f != d:
                d, n_live = f, tenpai_waits(c, ms[s], own, f, rv, tb, buf)
    return d, n_live


@njit(cache=True)
def tenpai_waits(c, ms_s, own, d, rv, tb, buf):
    """After discarding d: the legal waits when the hand is a standard-form tenpai, else -1
    (``choose_discard_at``'s second value; c and own restored)."""
    n = np.int64(-1)
    c[d] -= 1
    if shanten(c, tb) == 0:
        own[d] -= 1
        n = np.int64(judge_waits(c, ms_s, own, rv, tb, buf))
        own[d] += 1
    c[d] += 1
    return n


@njit(cache=True)
def judge_waits_live(buf, unseen):
    """The legal waits with a live copy in a ``judge_waits`` output (its return value, when
    ``unseen`` is what the seat cannot see)."""
    n = 0
    for t in range(N_KINDS):
        if buf[t, W_LEGAL] and unseen[t] > 0:
            n += 1
    return n


@njit(cache=True)
def wants_declare(tab, ws, s, bots, rv, tb, n_live):
    """报听 after a discard, as soon as the hand is tenpai (a live legal wait) and the rules
    let it declare (``judge.may_declare``); with K_DECLARE_LIVE, only with that many live
    legal waits; with K_DECLARE_VALUE (the expert) when the declared line is worth more than
    staying open (``defence.declare_pays``). ``n_live``: the live legal waits the discard policy
    found, -1 when it did not judge them (not a standard-form tenpai: only a 七对 tenpai may
    then be one)."""
    g, ps, conc, melded, ankong, pungs, taken, ms, mrec, nm, pond, exposed, kpay = tab
    own, own2, unseen, buf, rd, items, fan, pay, grp, mt, c2, ms2, dscr, ut, lx = ws
    if scripted(g):
        if not next_is(bots, g, EV_DECLARE, s):
            return False
        own_tiles(conc, melded, s, own)
        if ps[s, P_DECLARED]:
            refuse(g, C.BAD_EVENT)
        elif not may_declare(own, rv):
            refuse(g, C.DUANYAOJIU_NO_DECLARE)
        elif judge_waits(conc[s], ms[s], own, rv, tb, buf) <= 0:
            refuse(g, C.NOT_TENPAI)
        else:
            return True
        return False
    if ps[s, P_DECLARED] or not bots[s, K_DECLARE]:
        return False
    if n_live == 0 or (n_live < 0 and not rv[RV_QIDUI]):
        return False  # no legal wait, or no standard-form tenpai (no structural wait at all)
    own_tiles(conc, melded, s, own)
    if not may_declare(own, rv):
        return False  # a hand without 幺九 under duanyaojiu_may_declare: false
    if n_live < 0:
        n_live = judge_waits(conc[s], ms[s], own, rv, tb, buf)
    if n_live <= 0:
        return False
    if bots[s, K_DECLARE_VALUE]:  # the declared line against staying open
        unseen_by(conc, ankong, pond, exposed, s, unseen)
        judge_waits(conc[s], ms[s], own, rv, tb, buf)
        return declare_pays(conc[s], ms, own, unseen, s, ps, g, rv, buf, items, fan, pay)
    if bots[s, K_DECLARE_LIVE] > 1:  # live copies of the legal waits, as the seat sees them
        unseen_by(conc, ankong, pond, exposed, s, unseen)
        n, _v = wait_value(conc[s], ms[s], own, unseen, rv, tb, buf, False)
        return n >= bots[s, K_DECLARE_LIVE]
    return True


@njit(cache=True)
def keeps_menqing(bots, s, c, ms_s, tb):
    """K_MENQING: a concealed hand this close to tenpai (3k+1 tiles: shanten <= the weight)
    makes no call."""
    w = bots[s, K_MENQING]
    return w > 0 and ms_s[MS_CLAIMED] == 0 and shanten(c, tb) <= w


@njit(cache=True)
def wants_discard_win(bots, g, s, fan):
    """胡 on a discard (or a robbed kong) worth ``fan``: always, but under knob K_PASS_WIN
    (then 过水 applies, when the variant has it). Scripted: when the record says so."""
    if scripted(g):
        return next_is(bots, g, EV_WIN, s) or (
            next_is(bots, g, EV_KONG_ROBBED, s) and rec_field(bots, g, 3) != 0
        )
    return bots[s, K_PASS_WIN] == 0


@njit(cache=True)
def wants_self_win(bots, g, s):
    """自摸 / 摸宝 on the tile drawn: always (a bot never passes one); scripted, when the record
    says so."""
    return not scripted(g) or next_is(bots, g, EV_WIN, s)


@njit(cache=True)
def wants_bao_change(tab, ws, s, bots, rv, tb):
    """换宝 under bao_change optional (the bao's kind is dead): the declared seat s returns the
    bao and rolls again when its K_BAO_CHANGE weight allows it, unless the bao's kind is a live
    legal wait of his; with K_DEFEND only when the new bao is worth more to him than it is
    expected to cost him through the other declared seats (``defence.bao_change_pays``)."""
    g, ps, conc, melded, ankong, pungs, taken, ms, mrec, nm, pond, exposed, kpay = tab
    own, own2, unseen, buf, rd, items, fan, pay, grp, mt, c2, ms2, dscr, ut, lx = ws
    if scripted(g):
        return next_is(bots, g, EV_BAO_CHANGE, s)
    if ps[s, P_DECLARED] == 0 or bots[s, K_BAO_CHANGE] == 0:
        return False
    b = g[G_BAO]
    own_tiles(conc, melded, s, own)
    judge_waits(conc[s], ms[s], own, rv, tb, buf)
    unseen_by(conc, ankong, pond, exposed, s, unseen)
    if buf[b, W_LEGAL] and unseen[b] > 1:
        return False  # (the one unseen copy may be the bao itself, which is not drawn)
    if not bots[s, K_DEFEND]:
        return True
    live = 0
    for t in range(N_KINDS):
        if buf[t, W_LEGAL]:
            live += unseen[t]
    return bao_change_pays(s, ms, g, ps, rv, live, unseen, items, fan, pay)


@njit(cache=True)
def wants_special(bots, g, s):
    """Declare a special kong the starting hand holds (scripted: the record's, kind by kind:
    ``kongs.special_kongs``)."""
    if scripted(g):
        return next_is(bots, g, EV_SPECIAL, s)
    return bots[s, K_SPECIAL] != 0


@njit(cache=True)
def self_kong_code(tab, ws, s, t, kind, drawn, no_bu, rv, tb):
    """May seat s, on turn, make the kong ``kind`` (0 暗杠, 1 加杠, 2 补) with the tile t now?
    C.OK, or the rule that forbids it: a locked hand (after 报听) kongs only the tile just drawn,
    and a 暗杠 only if its legal waits stay the same; no 补 in a turn that allows none
    (``no_bu``); NO_SUCH_KONG when the hand does not hold it. The wall's end and the turn's
    timing are the caller's. ``own`` gets seat s's tiles. The bots, the scripted mode and
    ``actions`` ask it."""
    g, ps, conc, melded, ankong, pungs, taken, ms, mrec, nm, pond, exposed, kpay = tab
    own, own2, unseen, buf, rd, items, fan, pay, grp, mt, c2, ms2, dscr, ut, lx = ws
    if t < 0 or t >= N_KINDS or conc[s, t] == 0:
        return C.NO_SUCH_KONG
    if kind == 0:
        held = conc[s, t] == 4
    elif kind == 1:
        held = pungs[s, t] != 0
    else:
        held = bu_kind(ps, s, t, rv) >= 0
    locked = ps[s, P_DECLARED] != 0
    if locked and t != drawn:
        return C.LOCKED_HAND
    if not held:
        return C.NO_SUCH_KONG
    if kind == 2 and no_bu:
        return C.SPECIAL_KONG_TIMING
    if kind == 0 and locked:
        own_tiles(conc, melded, s, own)
        if not ankong_keeps_waits(conc, ms, s, t, own, rv, tb, buf, ms2):
            return C.LOCKED_HAND
    return C.OK


@njit(cache=True)
def bao_kong_code(tab, ws, s, kind, rv, tb, tp):
    """May seat s, at his look, take the bao tile out of the wall for the kong ``kind`` (0 暗杠
    with three of its kind concealed, 1 加杠 onto his pung of it, 2 补 onto a special kong of
    his it is a member of): bao_kong (用宝补蛋或开杠). C.OK, or the rule that forbids it: the
    option is off, or he has not declared and looked at the current bao
    (BAO_KONG_NOT_ALLOWED); the wall is too short (WALL_ENDED, ``wall.bao_kong_room``); else
    the kong is judged as the kong of a tile he just drew (``self_kong_code``: NO_SUCH_KONG
    when he does not hold it, LOCKED_HAND when it changes a legal wait, or the win's pattern
    under declared_kong_keeps_pattern). The bots, the scripted mode and ``actions`` ask it."""
    g, ps, conc, melded, ankong, pungs, taken, ms, mrec, nm, pond, exposed, kpay = tab
    b = g[G_BAO]
    if not rv[RV_BAO_KONG] or b < 0 or not ps[s, P_DECLARED]:
        return C.BAO_KONG_NOT_ALLOWED
    if ps[s, P_LOOKED] != g[G_BAO_VER]:
        return C.BAO_KONG_NOT_ALLOWED
    if not bao_kong_room(g, tp, rv):
        return C.WALL_ENDED
    conc[s, b] += 1  # (as if drawn: the locked hand's kong of the tile just drawn)
    code = self_kong_code(tab, ws, s, b, kind, b, False, rv, tb)
    conc[s, b] -= 1
    return code


@njit(cache=True)
def wants_bao_kong(tab, ws, s, bots, rv, tb, tp):
    """The 用宝 kong seat s makes at his look (bao_kong): its kind (0 暗杠, 1 加杠, 2 补), -1 for
    none. A bot that kongs (K_KONG) takes the first one allowed (a kong is money, and it keeps
    his waits); scripted, the record's, and the hand stops when the rules do not allow it."""
    g = tab[0]
    if scripted(g):
        if not next_is(bots, g, EV_BAO_KONG, s):
            return -1
        k = rec_field(bots, g, 3)
        code = C.BAO_KONG_NOT_ALLOWED  # (a kind the record names that is none of the three)
        for kind in range(3):
            if k == kind or k == ANY:
                c = bao_kong_code(tab, ws, s, kind, rv, tb, tp)
                if c == C.OK:
                    return kind
                if kind == 0 or k != ANY or code == C.NO_SUCH_KONG:
                    code = c  # (the first reason that is not "no such kong" is the one told)
        refuse(g, code)
        return -1
    if not rv[RV_BAO_KONG] or not bots[s, K_KONG]:
        return -1
    for kind in range(3):
        if bao_kong_code(tab, ws, s, kind, rv, tb, tp) == C.OK:
            return kind
    return -1


@njit(cache=True)
def choose_self_kong(tab, ws, s, drawn, dealer_first, bots, rv, tb):
    """The kong the seat on turn declares, if any: (tile, 0 暗杠 | 1 加杠 | 2 补), (-1, -1)."""
    g, ps, conc, melded, ankong, pungs, taken, ms, mrec, nm, pond, exposed, kpay = tab
    own, own2, unseen, buf, rd, items, fan, pay, grp, mt, c2, ms2, dscr, ut, lx = ws
    if scripted(g):
        return scripted_self_kong(tab, ws, s, drawn, dealer_first, bots, rv, tb)
    if not bots[s, K_KONG]:
        return -1, -1
    if ps[s, P_DECLARED]:
        if drawn < 0:
            return -1, -1
        kind = 0 if conc[s, drawn] == 4 else (1 if pungs[s, drawn] else 2)
        if self_kong_code(tab, ws, s, drawn, kind, drawn, dealer_first, rv, tb) == C.OK:
            return drawn, kind
        return -1, -1
    own_tiles(conc, melded, s, own)
    sh0 = -9  # the shanten after the policy's discard, found when a kong is possible
    for t in range(N_KINDS):
        if conc[s, t] == 0:
            continue
        n = 0
        kind = -1
        gk = bu_kind(ps, s, t, rv)  # the special kong t could be a 补 tile of (-1: none)
        if conc[s, t] == 4:
            n, kind = 4, 0
        elif pungs[s, t]:
            n, kind = 1, 1
        elif gk >= 0 and not dealer_first:
            n, kind = 1, 2
        else:
            continue
        if sh0 == -9:
            sh0 = max(shanten(conc[s], tb), 0)
        if shanten_without(conc[s], t, n, tb) <= sh0:
            return t, kind
        if (  # four held of a special kong's group (三风蛋, 小鸡飞蛋): a 补 is the next try
            kind == 0 and gk >= 0 and not dealer_first and shanten_without(conc[s], t, 1, tb) <= sh0
        ):
            return t, 2
    return -1, -1


@njit(cache=True)
def wants_mingkong(tab, ws, s, d, bots, rv, tb):
    """A kong of seat s on the discard d (he holds three): a declared hand only when its legal
    waits stay the same, else when the shanten does not rise. ``own2`` holds s's tiles."""
    g, ps, conc, melded, ankong, pungs, taken, ms, mrec, nm, pond, exposed, kpay = tab
    own, own2, unseen, buf, rd, items, fan, pay, grp, mt, c2, ms2, dscr, ut, lx = ws
    if scripted(g):
        if not (next_is(bots, g, EV_MINGKONG, s) and _rec_tile_is(bots, g, d)):
            return False
        if not ps[s, P_DECLARED]:
            return True
        own_tiles(conc, melded, s, own2)
        return mingkong_keeps_waits(conc, ms, s, d, own2, rv, tb, buf, c2, ms2)
    if not bots[s, K_KONG]:
        return False
    if ps[s, P_DECLARED]:
        own_tiles(conc, melded, s, own2)  # (own2 may hold another seat's tiles: win_claim's)
        return mingkong_keeps_waits(conc, ms, s, d, own2, rv, tb, buf, c2, ms2)
    ms_with_pung(ms, s, d, True, ms2)
    return shanten_without(conc[s], d, 3, tb) <= shanten(conc[s], tb)


# ------------------------------------------------------------------ scripted decisions (referee)
@njit(cache=True)
def _rec_tile_is(bots, g, t):
    """The record's next event is on the tile t (or names no tile); False when the record has
    no next event (its rows end there: nothing to read)."""
    if g[G_NEV] >= g[G_NREC]:
        return False
    x = rec_field(bots, g, 2)
    return x == t or x == ANY


@njit(cache=True)
def chow_options(conc, s, d, los):
    """The chows seat s can make on the tile d (a suit tile; none on an honour): their first
    tiles, lowest first, into ``los`` (up to three); returns how many. The claim phase's bots
    and ``actions`` ask it."""
    n = 0
    for lo in range(d - 2, d + 1):
        if _chow_held(conc, s, d, lo):
            los[n] = lo
            n += 1
    return n


@njit(cache=True)
def _chow_held(conc, s, d, lo):
    """Seat s holds the two other tiles of the chow lo, lo+1, lo+2 on the suit tile d."""
    if lo < 0 or d >= HONOR or lo // 9 != d // 9 or lo % 9 > 6 or not (lo <= d <= lo + 2):
        return False
    for i in range(3):
        if lo + i != d and conc[s, lo + i] == 0:
            return False
    return True


@njit(cache=True)
def scripted_discard(tab, s, drawn, bots, rv):
    """The record's discard of seat s when it is legal; else the hand stops with the rule the
    record's next event breaks (and a tile he holds is returned, never played)."""
    g, ps, conc, melded, ankong, pungs, taken, ms, mrec, nm, pond, exposed, kpay = tab
    if next_is(bots, g, EV_DISCARD, s):
        t = rec_field(bots, g, 2)
        if t < 0 or t >= N_KINDS or conc[s, t] == 0:
            refuse(g, C.TILE_NOT_HELD)
        elif ps[s, P_DECLARED] and drawn >= 0 and t != drawn:
            refuse(g, C.LOCKED_HAND)
        else:
            return t
    elif g[G_STOP] == 0:
        if g[G_NEV] >= g[G_NREC]:
            g[G_STOP] = -2
            g[G_BAD_EV] = g[G_NEV]
        else:
            refuse(g, _why_not_discard(tab, s, bots, rv))
    for t in range(N_KINDS):
        if conc[s, t] > 0:
            return t
    return 0


@njit(cache=True)
def _why_not_discard(tab, s, bots, rv):
    """The rule broken by the record's next event when seat s, on turn with 3k+2 tiles, must
    discard (every win and kong the engine allowed him was offered first)."""
    g, ps, conc, melded, ankong, pungs, taken, ms, mrec, nm, pond, exposed, kpay = tab
    k = rec_field(bots, g, 0)
    rs = rec_field(bots, g, 1)
    if rs != s and rs != ANY:
        if k == EV_DRAW or k == EV_TAIL:
            return C.MUST_DISCARD
        return C.NOT_YOUR_TURN
    if k == EV_WIN:
        return C.WIN_NOT_LEGAL
    if k == EV_DRAW or k == EV_TAIL or k == EV_DECLARE:
        return C.MUST_DISCARD
    if k == EV_SPECIAL:
        kind = rec_field(bots, g, 3)
        if (
            rv[RV_ONE_SPECIAL_PER_KIND]
            and FIRST_SPECIAL <= kind < FIRST_SPECIAL + 4
            and ps[s, P_SPECIAL + kind - FIRST_SPECIAL] > 0
        ):
            return C.SPECIAL_KONG_REPEAT
        if ps[s, P_FIRST] == 0 or ps[s, P_DECLARED]:
            return C.SPECIAL_KONG_TIMING
        return C.NO_SUCH_KONG
    if k == EV_ANKONG or k == EV_JIAGANG or k == EV_BU:
        if ps[s, P_DECLARED]:
            return C.LOCKED_HAND
        if k == EV_BU and ps[s, P_FIRST] != 0:
            return C.SPECIAL_KONG_TIMING
        return C.NO_SUCH_KONG
    if claim_kind(k):
        return C.NOT_YOUR_TURN
    return C.BAD_EVENT


@njit(cache=True)
def scripted_self_kong(tab, ws, s, drawn, no_bu, bots, rv, tb):
    """The record's 暗杠 / 加杠 / 补 of seat s on turn, when he may make it: (tile, kind) as
    ``choose_self_kong``; (-1, -1) otherwise (the discard then names the rule broken)."""
    g, ps, conc, melded, ankong, pungs, taken, ms, mrec, nm, pond, exposed, kpay = tab
    own, own2, unseen, buf, rd, items, fan, pay, grp, mt, c2, ms2, dscr, ut, lx = ws
    if g[G_STOP] != 0 or g[G_NEV] >= g[G_NREC]:
        return -1, -1
    k = rec_field(bots, g, 0)
    t = rec_field(bots, g, 2)
    if k == EV_KONG_ROBBED and rec_field(bots, g, 4) == s:
        # his 加杠 / 补 is robbed (抢杠胡, 抢叉): the record shows the robbing, not the kong
        for kind in (1, 2):
            if self_kong_code(tab, ws, s, t, kind, drawn, no_bu, rv, tb) == C.OK:
                return t, kind
        return -1, -1
    if not next_is(bots, g, k, s):
        return -1, -1
    kind = 0 if k == EV_ANKONG else (1 if k == EV_JIAGANG else (2 if k == EV_BU else -1))
    if kind >= 0 and self_kong_code(tab, ws, s, t, kind, drawn, no_bu, rv, tb) == C.OK:
        return t, kind
    return -1, -1


@njit(cache=True)
def refuse_unclaimed(tab, ws, bots, cur, d, rv, tb):
    """Scripted, after nobody claimed the discard d of seat ``cur``: when the record's next
    event is a claim on it, the hand stops with the rule that claim breaks (the engine offered
    every legal claim, so this one is not)."""
    g, ps, conc, melded, ankong, pungs, taken, ms, mrec, nm, pond, exposed, kpay = tab
    own, own2, unseen, buf, rd, items, fan, pay, grp, mt, c2, ms2, dscr, ut, lx = ws
    if not scripted(g) or g[G_STOP] != 0 or g[G_NEV] >= g[G_NREC]:
        return
    k = rec_field(bots, g, 0)
    s = rec_field(bots, g, 1)
    t = rec_field(bots, g, 2)
    if not claim_kind(k) or s < 0 or s >= N_SEATS:
        return
    code = C.BAD_EVENT
    if s == cur:
        code = C.NOT_YOUR_TURN
    elif t != ANY and t != d:
        code = C.NO_SUCH_MELD
    elif k == EV_WIN:
        c = conc[s]
        code = C.GUOSHUI if can_win(ps, s, c, d, ms[s], conc, melded, own2, rv, tb, rd) else (
            C.WIN_NOT_LEGAL
        )
    elif ps[s, P_DECLARED]:
        code = C.LOCKED_HAND
    elif k == EV_CHOW:
        if s != (cur + 1) % N_SEATS:
            code = C.CHOW_NOT_FROM_LEFT
        elif d >= HONOR:
            code = C.NO_SUCH_MELD
        else:
            ms_with_chow(ms, s, d - d % 9, ms2)
            if chow_refused_shoubayi(ms2, rv):
                code = C.SHOUBAYI_NO_CLAIM
            else:
                code = C.TILE_NOT_HELD
    else:  # 碰 / 明杠
        if conc[s, d] < (3 if k == EV_MINGKONG else 2):
            code = C.TILE_NOT_HELD
        else:
            ms_with_pung(ms, s, d, True, ms2)
            if rv[RV_SHOUBAYI_NO_CLAIM] and claim_leaves_one(ms2, rv):
                code = C.SHOUBAYI_NO_CLAIM
            elif k == EV_PUNG and pung_refused_shoubayi(conc, melded, s, d, ms2, rv, tb, buf):
                code = C.SHOUBAYI_NO_CLAIM  # (shoubayi_piaoding_only)
            else:
                code = C.NO_SUCH_KONG
    refuse(g, code)


@njit(cache=True)
def wants_pung(tab, ws, s, t, bots, rv, tb):
    """A pung of seat s (holding two or more) on the tile t offered (a discard, or a 补 tile to
    rob: 抢叉), by the K_CALL rule. A declared hand never pungs."""
    g, ps, conc, melded, ankong, pungs, taken, ms, mrec, nm, pond, exposed, kpay = tab
    own, own2, unseen, buf, rd, items, fan, pay, grp, mt, c2, ms2, dscr, ut, lx = ws
    if scripted(g):  # (a declared hand is locked: no pung)
        return not ps[s, P_DECLARED] and _rec_tile_is(bots, g, t) and (
            next_is(bots, g, EV_PUNG, s)
            or (next_is(bots, g, EV_KONG_ROBBED, s) and rec_field(bots, g, 3) == 0)
        )
    if ps[s, P_DECLARED] or not bots[s, K_CALL]:
        return False
    if bots[s, K_PIAO] and piao_mode(bots, s, conc[s], ms[s]):
        return True  # chasing 飘: every pair offered becomes a pung
    if bots[s, K_MENQING] and keeps_menqing(bots, s, conc[s], ms[s], tb):
        return False
    own_tiles(conc, melded, s, own2)
    own2[t] += 1
    for i in range(N_KINDS):
        c2[i] = conc[s, i]
    c2[t] -= 2
    ms_with_pung(ms, s, t, True, ms2)
    unseen_by(conc, ankong, pond, exposed, s, unseen)
    level = bots[s, K_CALL]
    if bots[s, K_LEGAL]:
        ok, _dist, _v = legal_call(conc[s], ms[s], c2, ms2, own2, unseen, rv, tb, ut, dscr, lx,
                                   buf, level, bots[s, K_WAIT])  # fmt: skip
        return ok
    sh_b = shanten(conc[s], tb)
    sh_a = call_shanten(c2, tb)
    if not passes_shanten(level, sh_b, sh_a):
        return False
    live_a = 1  # (live tiles matter only to a tenpai: is there a live legal wait)
    if sh_a == 0:
        sh_a, live_a = best_after_discard(c2, ms2, own2, unseen, rv, tb, ut, dscr)
    return accept_call(level, sh_b, sh_a, live_a, ms2, rv)


@njit(cache=True)
def best_chow(tab, ws, s, d, bots, rv, tb):
    """The chow seat s (next after the discarder) makes on the suit tile d: the first tile of
    the best chow by the K_CALL rule (fewest shanten, then most live tiles), -1 for none."""
    g, ps, conc, melded, ankong, pungs, taken, ms, mrec, nm, pond, exposed, kpay = tab
    own, own2, unseen, buf, rd, items, fan, pay, grp, mt, c2, ms2, dscr, ut, lx = ws
    if scripted(g):
        if ps[s, P_DECLARED] or not (next_is(bots, g, EV_CHOW, s) and _rec_tile_is(bots, g, d)):
            return -1
        lo = rec_field(bots, g, 3)
        if lo == ANY:  # (the record names the claimed tile only: the lowest chow held)
            return grp[0] if chow_options(conc, s, d, grp) > 0 else -1
        return lo if _chow_held(conc, s, d, lo) else -1
    if ps[s, P_DECLARED] or not bots[s, K_CALL]:
        return -1
    if bots[s, K_PIAO] and piao_mode(bots, s, conc[s], ms[s]):
        return -1  # a chow ends 飘
    if bots[s, K_MENQING] and keeps_menqing(bots, s, conc[s], ms[s], tb):
        return -1
    n_opt = chow_options(conc, s, d, grp)  # (their first tiles: up to three)
    if n_opt == 0:
        return -1
    level = bots[s, K_CALL]
    own_tiles(conc, melded, s, own2)
    own2[d] += 1
    unseen_by(conc, ankong, pond, exposed, s, unseen)
    if bots[s, K_LEGAL]:
        return legal_chow(tab, ws, s, d, n_opt, level, bots[s, K_WAIT], rv, tb)
    sh_b = shanten(conc[s], tb)
    # each chow's shanten after its best discard; live tiles only where they decide: a tenpai
    # needs a live legal wait, and chows of equal shanten are told apart by them
    best_sh = 99
    for o in range(n_opt):
        lo = grp[o]
        _chow_hand(conc, s, d, lo, c2)
        mt[o] = call_shanten(c2, tb)
        mt[4 + o] = -1  # live: not known yet
        ms_with_chow(ms, s, lo, ms2)
        if not passes_shanten(level, sh_b, mt[o]):
            mt[o] = 99
            continue
        if mt[o] == 0:
            _sh, mt[4 + o] = best_after_discard(c2, ms2, own2, unseen, rv, tb, ut, dscr)
        if not accept_call(level, sh_b, mt[o], mt[4 + o] if mt[o] == 0 else 1, ms2, rv):
            mt[o] = 99
            continue
        if mt[o] < best_sh:
            best_sh = mt[o]
    if best_sh == 99:
        return -1
    best_lo = -1
    best_live = -1
    n_best = 0
    for o in range(n_opt):
        if mt[o] == best_sh:
            n_best += 1
    for o in range(n_opt):
        if mt[o] != best_sh:
            continue
        if n_best == 1:
            return grp[o]
        if mt[4 + o] < 0:
            _chow_hand(conc, s, d, grp[o], c2)
            ms_with_chow(ms, s, grp[o], ms2)
            _sh, mt[4 + o] = best_after_discard(c2, ms2, own2, unseen, rv, tb, ut, dscr)
        if mt[4 + o] > best_live:
            best_lo, best_live = grp[o], mt[4 + o]
    return best_lo


@njit(cache=True)
def legal_call(c, ms_s, c2, ms2, own2, unseen, rv, tb, ut, dscr, lx, buf, level, weigh):
    """The K_CALL rule under the ``legal`` weight, for the hand ``c`` (melds ``ms_s``) and after
    the call ``c2`` (melds ``ms2``; ``own2``: the seat's tiles then): the legal distance the
    call's best discard leaves against the hand's own now (level 1 lower, 2 not higher); a
    tenpai after it needs a live legal wait, a chow never leaves 手把一. Returns (accepted,
    distance after, the tie value of its best discard when that is a tenpai, else -1)."""
    if level == 0 or claim_leaves_one(ms2, rv):
        return False, np.int64(LG_INF), np.int64(-1)
    # the best discard after the call keeps the distance of its 3k+2 tiles (a complete hand: it
    # leaves a tenpai); its tie value is needed only when that is a tenpai (a live legal wait)
    dist = max(legal_distance(c2, ms2, rv, lx), np.int64(1))
    before = legal_distance(c, ms_s, rv, lx)
    if dist >= LG_INF or (dist >= before if level == 1 else dist > before):
        return False, dist, np.int64(-1)
    if dist > 1:
        return True, dist, np.int64(-1)
    _x, _d, n_live, v = legal_choice(c2, ms2, own2, unseen, rv, tb, ut, dscr, lx, buf, weigh)
    return n_live > 0, dist, v


@njit(cache=True)
def legal_chow(tab, ws, s, d, n_opt, level, weigh, rv, tb):
    """``best_chow`` under the ``legal`` weight: of the chows on d (first tiles in ``grp``) the
    K_CALL rule accepts, the one whose best discard leaves the lowest legal distance, then the
    most live copies of the draws that lower it; -1 for none."""
    g, ps, conc, melded, ankong, pungs, taken, ms, mrec, nm, pond, exposed, kpay = tab
    own, own2, unseen, buf, rd, items, fan, pay, grp, mt, c2, ms2, dscr, ut, lx = ws
    best_lo = -1
    best_d = LG_INF
    best_v = -1
    for o in range(n_opt):
        lo = grp[o]
        _chow_hand(conc, s, d, lo, c2)
        ms_with_chow(ms, s, lo, ms2)
        ok, dist, v = legal_call(conc[s], ms[s], c2, ms2, own2, unseen, rv, tb, ut, dscr, lx,
                                 buf, level, weigh)  # fmt: skip
        if ok and (dist < best_d or (dist == best_d and v > best_v)):
            best_lo, best_d, best_v = lo, dist, v
    return best_lo


@njit(cache=True)
def _chow_hand(conc, s, d, lo, c2):
    """``c2`` = seat s's concealed tiles after chowing d with lo, lo+1, lo+2."""
    for i in range(N_KINDS):
        c2[i] = conc[s, i]
    for i in range(3):
        if lo + i != d:
            c2[lo + i] -= 1
