"""Defence by value (the ``defend`` weight, the ``expert``): once an opponent has declared, each
discard is worth what it keeps of the hand's chance to win, less what it risks paying.

    value(x) = (1 - r) * (P * w * G - (1 - P) * sum_o q_o * Z_o) - sum_o r_o * D_o

- r_o: the chance that x is one of declared seat o's waits (``wait_chance``), r their sum;
- D_o: what the seat pays when o wins on its discard — the variant's 点炮 step, 包庄 / 点炮全包
  and the dealer's step included (``score.settle_declared``, o's 门清 counted);
- Z_o, q_o: what it pays when o wins by a draw instead, and the chance he does so in the draws
  left (his live wait copies as the seat reads them);
- P: the chance the hand wins in its draws left after x (``reach_chance``): k its distance to a
  win (the legal distance for the expert, else shanten + 1), u the live copies of the tiles that
  bring it closer — when tenpai, of its legal waits (each weighed by what it pays under
  ``value_waits``), w the worth of that win relative to a plain one;
- G: what the seat's win pays it (平胡, 门清 when concealed, 自摸, the dealer's step).

Three discards are weighed: the offence's choice (push), the safest tile that keeps its
distance (a safe tile kept back) and the safest tile of all (fold). The offence's choice is the
best chance at its distance, so a safer tile's P and worth are capped at its; a fold that moves
the hand farther is P at the greater distance with the offence's live copies.

So a far hand throws a safe tile, a valuable tenpai pushes, and a tile kept back for safety
costs what it costs in P. Under all_pay a deal-in costs little more than the declarer's 自摸
would (点炮 and 自摸 are one fan each), under 点炮全包 three shares: the same rule folds more there.
"""

import numpy as np

from .. import legal as LG
from ..jit import njit
from ..judge import LOOK_OK, W_LEGAL, look_rule
from ..layout import (
    FAN_BAO,
    FAN_MENQING,
    FAN_WIN,
    FAN_ZIMO,
    HONOR,
    HOW_DISCARD,
    HOW_SELF,
    MS_CLAIMED,
    N_FAN,
    N_KINDS,
    N_SEATS,
    RV_FAN_BASE,
)
from ..policy import live_of
from ..score import settle, settle_declared
from ..shape import shanten, useful_mask
from .layout import G_DEALER, P_DECLARED, P_DISC
from .legalplay import legal_distance, wait_value
from .wall import wall_left

WAIT_KINDS = 1.6  # the tile kinds a declared hand waits on, on average (两面 2, 坎/边/单调 1)
DEAD_WALL = 14  # tiles never drawn at the wall's end: the seat's draws left are the rest / 4


@njit(cache=True)
def readings(t, unseen):
    """The live wait readings on tile t: 单调/对碰 with a copy unseen, and each 两面/边/坎 whose
    two other tiles are both unseen."""
    reads = 0
    if unseen[t] > 0:
        reads += 1
    if t < HONOR:
        r = t % 9
        if r >= 2 and unseen[t - 2] > 0 and unseen[t - 1] > 0:
            reads += 1
        if r <= 6 and unseen[t + 1] > 0 and unseen[t + 2] > 0:
            reads += 1
        if 1 <= r <= 7 and unseen[t - 1] > 0 and unseen[t + 1] > 0:
            reads += 1
    return reads


@njit(cache=True)
def open_readings(o, ps, unseen):
    """The live readings over the tiles declared seat o did not discard (``wait_chance``'s
    denominator: computed once per seat by the callers that ask of every tile)."""
    total = 0
    for u in range(N_KINDS):
        if not (ps[o, P_DISC] >> u & 1):
            total += readings(u, unseen)
    return total


@njit(cache=True)
def share_of(t, o, ps, unseen, total):
    """``wait_chance`` given o's ``open_readings``."""
    if ps[o, P_DISC] >> t & 1:
        return 0.0
    r = readings(t, unseen)
    if r == 0:
        return 0.0
    return min(1.0, WAIT_KINDS * r / total)


@njit(cache=True)
def wait_chance(t, o, ps, unseen):
    """The chance that t is one of declared seat o's waits: 0 for a tile he discarded himself
    (his hand is locked), else t's share of the live readings over the tiles he did not
    discard, times the kinds a declared hand waits on (at most 1)."""
    return share_of(t, o, ps, unseen, open_readings(o, ps, unseen))


@njit(cache=True)
def wait_copies(o, ps, unseen):
    """The unseen copies of declared seat o's waits the seat expects (``wait_chance`` each)."""
    total = open_readings(o, ps, unseen)
    copies = 0.0
    for t in range(N_KINDS):
        copies += share_of(t, o, ps, unseen, total) * unseen[t]
    return copies


@njit(cache=True)
def reach_chance(k, live, pool, n):
    """The chance that a hand k tiles from a win gets there in n draws from ``pool`` unseen
    tiles, when ``live`` copies bring it one tile closer now: j tiles from the win, a draw does
    with the chance live * j / k / pool (fewer tiles help as the hand closes in: tenpai, the
    live copies of its waits alone)."""
    if k <= 0:
        return 1.0
    if live <= 0 or pool <= 0 or n < k:
        return 0.0
    at = np.zeros(k + 1)  # at[j]: the chance of being j tiles from the win
    at[k] = 1.0
    for _ in range(n):
        for j in range(1, k + 1):  # (upwards: a draw moves the hand one step at most)
            moved = at[j] * min(1.0, live * j / k / pool)
            at[j] -= moved
            at[j - 1] += moved
    return at[0]


@njit(cache=True)
def _plain_win(items, ms_s, rv, self_drawn):
    """A plain win's fan items: 平胡, 门清 when no meld was claimed, 自摸 when self-drawn."""
    for i in range(N_FAN):
        items[i] = 0
    items[FAN_WIN] = rv[RV_FAN_BASE + FAN_WIN]
    if ms_s[MS_CLAIMED] == 0:
        items[FAN_MENQING] = rv[RV_FAN_BASE + FAN_MENQING]
    if self_drawn:
        items[FAN_ZIMO] = rv[RV_FAN_BASE + FAN_ZIMO]


@njit(cache=True)
def payments(s, ms, g, rv, items, fan, pay, dealin, later):
    """(what seat s gains by a self-drawn plain win) and, for each other seat o, what s pays
    when o wins a plain win on s's discard (``dealin[o]``, s undeclared) and by a draw
    (``later[o]``); o's 门清 as his melds say."""
    dealer = g[G_DEALER]
    _plain_win(items, ms[s], rv, True)
    settle(items, s, dealer, -1, HOW_SELF, rv, fan, pay)
    gain = pay[s]
    for o in range(N_SEATS):
        dealin[o] = 0
        later[o] = 0
        if o == s:
            continue
        _plain_win(items, ms[o], rv, False)
        settle_declared(items, o, dealer, s, HOW_DISCARD, 0, rv, fan, pay)
        dealin[o] = -pay[s]
        _plain_win(items, ms[o], rv, True)
        settle(items, o, dealer, -1, HOW_SELF, rv, fan, pay)
        later[o] = -pay[s]
    return gain


@njit(cache=True)
def _distance(c, ms_s, rv, tb, lx, legal):
    """The distance to a win of 3k+1 tiles: legal (the expert), else standard shanten + 1."""
    return legal_distance(c, ms_s, rv, lx) if legal else np.int64(shanten(c, tb) + 1)


@njit(cache=True)
def _win_chance(c, ms_s, own, unseen, k, pool, n, rv, tb, buf, lx, legal, weigh):
    """(P, the worth of a win relative to a plain one, the live copies that bring it closer) of
    3k+1 tiles ``k`` from a win (module doc)."""
    if k >= LG.INF:
        return 0.0, 1.0, 0
    worth = 1.0
    if k == 1:
        live, v = wait_value(c, ms_s, own, unseen, rv, tb, buf, weigh)
        if live > 0:
            worth = v / live
    elif legal:
        box = lx[0]
        nd, memo = LG.useful_mask(c, ms_s, rv, box[0], k)
        box[0] = memo
        live = live_of(nd, unseen)
    else:
        live = live_of(useful_mask(c, tb), unseen)
    return reach_chance(k, live, pool, n), worth, live


@njit(cache=True)
def defend_discard(c, ms, own, unseen, s, ps, g, d, rv, tb, buf, lx, legal, weigh, items, fan, pay):
    """Seat s's discard, when an opponent has declared, among three: the offence's choice ``d``
    (push), the safest tile that keeps d's distance to a win (a safe tile kept back) and the
    safest tile of all (fold) — whichever is worth most (module doc). Ties go to the first of
    those. ``legal``: distances are legal distances (else standard shanten + 1); ``weigh``:
    tenpai waits weighed by what they pay. ``c`` and ``own`` are restored."""
    dealin = np.zeros(N_SEATS, np.float64)
    later = np.zeros(N_SEATS, np.float64)
    gain = payments(s, ms, g, rv, items, fan, pay, dealin, later)
    pool = 0
    for t in range(N_KINDS):
        pool += unseen[t]
    n = max(0, (wall_left(g) - DEAD_WALL) // N_SEATS)
    owe = 0.0  # what the declarers' own wins are expected to cost the seat
    for o in range(N_SEATS):
        if o != s and ps[o, P_DECLARED]:
            owe += reach_chance(1, wait_copies(o, ps, unseen), pool, n) * later[o]
    ms_s = ms[s]
    r = np.zeros(N_KINDS)  # each tile's chance to deal in, and what that is expected to cost
    risk = np.zeros(N_KINDS)
    for o in range(N_SEATS):
        if o != s and ps[o, P_DECLARED]:
            total = open_readings(o, ps, unseen)
            for x in range(N_KINDS):
                if c[x] > 0:
                    ro = share_of(x, o, ps, unseen, total)
                    r[x] += ro
                    risk[x] += ro * dealin[o]
    if risk[d] == 0.0:
        return d
    c[d] -= 1
    kd = _distance(c, ms_s, rv, tb, lx, legal)
    c[d] += 1
    keep = d  # the safest tile keeping d's distance
    fold = d  # the safest tile
    kf = kd
    for x in range(N_KINDS):
        if c[x] == 0 or x == d or risk[x] >= risk[d]:
            continue
        c[x] -= 1
        k = _distance(c, ms_s, rv, tb, lx, legal)
        c[x] += 1
        if k == kd and risk[x] < risk[keep]:
            keep = x
        if risk[x] < risk[fold] or (risk[x] == risk[fold] and k < kf):
            fold, kf = x, k
    best = d
    best_v = -1e300
    p_d = 0.0
    worth_d = 1.0
    live_d = 0
    for i, x in enumerate((d, keep, fold)):
        if (i > 0 and x == d) or (i == 2 and x == keep):
            continue  # (the same tile again: same value, and ties go to the first)
        c[x] -= 1
        own[x] -= 1
        if x == fold and kf != kd:  # farther: the offence's live copies, over more steps
            p, worth = reach_chance(kf, live_d, pool, n), 1.0
        else:  # (the offence's choice is the best chance at its distance: a safer tile's is capped)
            p, worth, live = _win_chance(
                c, ms_s, own, unseen, kd, pool, n, rv, tb, buf, lx, legal, weigh
            )
            if x == d:
                p_d, worth_d, live_d = p, worth, live
        c[x] += 1
        own[x] += 1
        p = min(p, p_d)
        worth = min(worth, worth_d)
        v = (1.0 - min(r[x], 1.0)) * (p * worth * gain - (1.0 - p) * owe) - risk[x]
        if v > best_v:
            best, best_v = x, v
    return np.int64(best)


@njit(cache=True)
def bao_change_pays(s, ms, g, ps, rv, live, unseen, items, fan, pay):
    """换宝 by value: the new bao is a wall tile the seat cannot see, as likely any unseen copy.
    Its kind wins for seat s when it is one of his legal waits (``live``: their unseen copies)
    and for each other declared seat o when it is one of his (``wait_copies``). s asks for it
    when his chance times what his win pays him is at least the declarers' chances times what
    their wins would cost him (plain self-drawn wins: the bao's fan raises both sides alike)."""
    dealin = np.zeros(N_SEATS, np.float64)
    later = np.zeros(N_SEATS, np.float64)
    gain = payments(s, ms, g, rv, items, fan, pay, dealin, later)
    theirs = 0.0
    for o in range(N_SEATS):
        if o != s and ps[o, P_DECLARED]:
            theirs += wait_copies(o, ps, unseen) * later[o]
    return live * gain >= theirs


@njit(cache=True)
def declare_pays(c, ms, own, unseen, s, ps, g, rv, buf, items, fan, pay):
    """报听 by value (the expert): the declared line against staying open, for seat s's tenpai
    3k+1 tiles ``c`` (``buf``: their judged waits, ``own`` his tiles with melds). Both win on
    the live copies of its legal waits, L of the U unseen tiles, over its n draws left.

    Declared, the hand locks. When it may look at the bao (a hand without 幺九 may not under
    bao_forbidden_without_yaojiu), the bao — an unseen tile as far as s knows — is one of his
    waits with the chance L / U (对宝: a win at the look), else its kind's other unseen copies
    win too (摸宝), sum over kinds of u(u - 1) / U of them expected; those wins add the 宝 fan.
    Either way a tenpai hand throws the draws that do not win (the expert pushes a tenpai):
    once an opponent has declared, each throw risks what a random unseen tile's deal-in costs
    him — less, declared, in a room whose 点炮全包 spares a declared discarder (one who has
    looked at the bao, when he may look: the hand soon will). Declares when the declared line
    is worth more: a tie (no bao to look at, no 包庄 spared) stays open, the lock giving nothing
    for what it takes (the open hand may still change its wait)."""
    dealer = g[G_DEALER]
    dealin = np.zeros(N_SEATS, np.float64)
    later = np.zeros(N_SEATS, np.float64)
    gain = payments(s, ms, g, rv, items, fan, pay, dealin, later)
    _plain_win(items, ms[s], rv, True)
    items[FAN_BAO] = rv[RV_FAN_BASE + FAN_BAO]
    settle(items, s, dealer, -1, HOW_SELF, rv, fan, pay)
    gain_bao = float(pay[s])
    pool = 0
    live = 0
    for t in range(N_KINDS):
        pool += unseen[t]
        if buf[t, W_LEGAL]:
            live += unseen[t]
    if pool == 0 or live == 0:
        return False
    n = max(0, (wall_left(g) - DEAD_WALL) // N_SEATS)
    p_open = reach_chance(1, live, pool, n)
    p_dui = 0.0  # 对宝 at the look
    extra = 0.0  # the bao kind's copies a draw may still bring (摸宝)
    looks = look_rule(True, own, rv) == LOOK_OK
    if looks:
        p_dui = live / pool
        for t in range(N_KINDS):
            if not buf[t, W_LEGAL]:
                extra += unseen[t] * max(unseen[t] - 1, 0) / pool
        if p_dui < 1.0:  # (given that the bao is no wait of his)
            extra /= 1.0 - p_dui
    p_draw = reach_chance(1, live + extra, pool, n)
    v_decl = p_dui * gain_bao + (1.0 - p_dui) * p_draw * (live * gain + extra * gain_bao) / (
        live + extra
    )
    v_open = p_open * gain
    risk_open = 0.0  # a random unseen tile's expected deal-in cost, undeclared and declared
    risk_decl = 0.0
    for o in range(N_SEATS):
        if o == s or not ps[o, P_DECLARED]:
            continue
        _plain_win(items, ms[o], rv, False)
        settle_declared(items, o, dealer, s, HOW_DISCARD, 2 if looks else 1, rv, fan, pay)
        d_decl = -pay[s]
        total = open_readings(o, ps, unseen)
        for x in range(N_KINDS):
            if unseen[x] > 0:
                r = share_of(x, o, ps, unseen, total) * unseen[x] / pool
                risk_open += r * dealin[o]
                risk_decl += r * d_decl
    v_decl -= n * (1.0 - p_draw / 2) * risk_decl  # (the throws: the draws before a win)
    v_open -= n * (1.0 - p_open / 2) * risk_open
    return v_decl > v_open
