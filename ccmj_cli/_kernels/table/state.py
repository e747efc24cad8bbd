"""The state of a table during one hand, and the small helpers that keep it consistent.

A hand's state is a tuple of arrays, allocated once per session (``new_table``) and reset per
hand (``reset_table``), so a hand allocates nothing:

- ``g``       int64[G_LEN]: scalar state (wall ends, bao, kongs, events, who is on turn, the win);
- ``ps``      int64[4, P_LEN]: per-seat state (declared, bao looked at, first turn, special kongs);
- ``conc``    uint8[4, 34]: concealed tiles;
- ``melded``  uint8[4, 34]: every tile of a seat's melds (special kongs and 补 tiles included);
- ``ankong``  uint8[4, 34]: tiles of concealed kongs (the others cannot see them);
- ``pungs``   uint8[4, 34]: 1 where a seat has an exposed pung (it may become a 加杠);
- ``taken``   uint8[4, 34]: tiles a seat drew from the wall (the rest of his tiles were dealt);
- ``ms``      int64[4, MS_LEN]: each seat's meld summary, as ``judge`` reads it;
- ``mrec``    int64[4, MAX_MELDS, MELD_COLS] and ``nm`` int64[4]: the melds (kind, n, tiles);
- ``pond``    int64[34]: discards not claimed;
- ``exposed`` int64[34]: tiles of exposed melds (everything in ``melded`` but concealed kongs);
- ``kpay``    int64[4]: kong money so far.

Scratch buffers for the judgments live in a second tuple (``new_work``). Conservation: conc +
melded + pond + the wall left = 4 of every kind.
"""

import numpy as np

from ..jit import njit
from ..judge import W_COLS, W_LEGAL, declared_sets, is_yaojiu, judge_waits
from ..layout import (
    FIRST_SPECIAL,
    HONOR,
    MELD_ANKONG,
    MELD_JIUDAN,
    MELD_XI,
    MELD_XUANFENG,
    MELD_YAODAN,
    MS_ANKONGS,
    MS_CHOWS,
    MS_CLAIMED,
    MS_LEN,
    MS_PUNGS,
    MS_SETS,
    MS_SUITS,
    MS_YAOJIU,
    N_FAN,
    N_KINDS,
    N_SEATS,
    ONE_S,
    RD_LEN,
    RV_SHOUBAYI_NO_CLAIM,
    RV_SHOUBAYI_PIAODING_ONLY,
    RV_XI_BU_ANY_HONOR,
    RV_XIAOJI,
    XIAOJI_ANY,
)
from ..melds import meld_summary
from ..policy import new_discard_scratch
from .layout import (
    G_BAO,
    G_BAO_POS,
    G_DEALER,
    G_DECL_DISC,
    G_DISCARDER,
    G_DRAWN,
    G_HOW,
    G_LEN,
    G_NEV,
    G_PEND_KIND,
    G_PENDING,
    G_PHASE,
    G_PHYS,
    G_REC,
    G_SCRIPT,
    G_TAIL,
    G_WIN_TILE,
    G_WINNER,
    MAX_MELDS,
    MELD_COLS,
    N_WALL,
    P_FIRST,
    P_LAID_DADAN,
    P_LEN,
    P_LOOKED,
    P_PASSED,
    P_SPECIAL,
    P_WKEY,
    PH_SELF,
)
from .legalplay import new_legal
from .script import check_event


@njit(cache=True)
def new_table():
    """The state arrays of one table (see the module docstring), to be reset per hand."""
    g = np.zeros(G_LEN, np.int64)
    ps = np.zeros((N_SEATS, P_LEN), np.int64)
    conc = np.zeros((N_SEATS, N_KINDS), np.uint8)
    melded = np.zeros((N_SEATS, N_KINDS), np.uint8)
    ankong = np.zeros((N_SEATS, N_KINDS), np.uint8)
    pungs = np.zeros((N_SEATS, N_KINDS), np.uint8)
    taken = np.zeros((N_SEATS, N_KINDS), np.uint8)
    ms = np.zeros((N_SEATS, MS_LEN), np.int64)
    mrec = np.zeros((N_SEATS, MAX_MELDS, MELD_COLS), np.int64)
    nm = np.zeros(N_SEATS, np.int64)
    pond = np.zeros(N_KINDS, np.int64)
    exposed = np.zeros(N_KINDS, np.int64)
    kpay = np.zeros(N_SEATS, np.int64)
    return (g, ps, conc, melded, ankong, pungs, taken, ms, mrec, nm, pond, exposed, kpay)


@njit(cache=True)
def new_work(ut):
    """Scratch buffers of the judgments a hand makes (contents never carried between calls),
    and the discard policy's useful-tile tables ``ut`` (``useful.useful_tables()``)."""
    return work_with(ut, new_legal())


@njit(cache=True)
def work_with(ut, lx):
    """``new_work`` with a given legal-distance workspace (``legalplay.new_legal``: a memo that
    a thread keeps from one session to the next)."""
    # a seat's tiles, melds included: uint8 as in the hand kernels, so the judgments they share
    # (judge_waits, judge_win, the discard policy) compile once for both
    own = np.zeros(N_KINDS, np.uint8)
    own2 = np.zeros(N_KINDS, np.uint8)  # the same for a second seat (claims)
    unseen = np.zeros(N_KINDS, np.int64)  # what a seat cannot see
    buf = np.zeros((N_KINDS, W_COLS), np.int64)  # judge_waits output
    rd = np.zeros(RD_LEN, np.int64)  # a reading
    items = np.zeros(N_FAN, np.int64)  # fan items
    fan = np.zeros(N_SEATS, np.int64)  # fan per loser
    pay = np.zeros(N_SEATS, np.int64)  # payments
    grp = np.zeros(4, np.int64)  # a special kong's group
    mt = np.zeros(16, np.int64)  # a meld's tiles
    c2 = np.zeros(N_KINDS, np.uint8)  # a hand after a call
    ms2 = np.zeros(MS_LEN, np.int64)  # a meld summary after a call
    dscr = new_discard_scratch()  # the discard policy's
    return (own, own2, unseen, buf, rd, items, fan, pay, grp, mt, c2, ms2, dscr, ut, lx)


@njit(cache=True)
def reset_table(tab, dealer, rec):
    """A fresh table for a hand dealt by ``dealer`` (nothing dealt yet)."""
    g, ps, conc, melded, ankong, pungs, taken, ms, mrec, nm, pond, exposed, kpay = tab
    g[:] = 0
    g[G_TAIL] = N_WALL - 1
    g[G_BAO_POS] = -1
    g[G_BAO] = -1
    g[G_REC] = 1 if rec else 0
    g[G_DRAWN] = -1
    g[G_WINNER] = -1
    g[G_HOW] = -1
    g[G_WIN_TILE] = -1
    g[G_PHYS] = -1
    g[G_DISCARDER] = -1
    g[G_DEALER] = dealer
    g[G_DECL_DISC] = -1
    g[G_PHASE] = PH_SELF
    g[G_PENDING] = -1
    g[G_PEND_KIND] = 0
    ps[:, :] = 0
    for s in range(N_SEATS):
        ps[s, P_LOOKED] = -1
        ps[s, P_FIRST] = 1
        ps[s, P_WKEY] = -1  # no waits remembered
        ps[s, P_PASSED] = -1  # no discard win passed (过水)
    conc[:, :] = 0
    melded[:, :] = 0
    ankong[:, :] = 0
    pungs[:, :] = 0
    taken[:, :] = 0
    ms[:, :] = 0
    mrec[:, :, :] = -1
    nm[:] = 0
    pond[:] = 0
    exposed[:] = 0
    kpay[:] = 0


# one signature: its callers pass literals, uint8 cells and int64 values in 29 combinations,
# each a compile of its own (with check_event's) when it was left to specialise
@njit("void(int64[:, :], int64[:], int64, int64, int64, int64, int64)", cache=True)
def event(ev, g, kind, seat, tile, a, b):
    """Record one event (EV_* row) when recording; count it either way. Scripted (the
    referee), ``ev`` is the record: the event is checked against it (``script.check_event``)."""
    n = g[G_NEV]
    if g[G_SCRIPT]:
        check_event(ev, g, kind, seat, tile, a, b)
    if g[G_REC] and n < ev.shape[0]:
        ev[n, 0] = kind
        ev[n, 1] = seat
        ev[n, 2] = tile
        ev[n, 3] = a
        ev[n, 4] = b
    g[G_NEV] = n + 1


@njit(cache=True)
def own_tiles(conc, melded, s, out):
    """``out`` = seat s's tiles, melds included."""
    for t in range(N_KINDS):
        out[t] = conc[s, t] + melded[s, t]


@njit(cache=True)
def unseen_by(conc, ankong, pond, exposed, s, out):
    """What seat s cannot see: 4 minus his hand, his concealed kongs, discards, exposed melds."""
    for t in range(N_KINDS):
        u = 4 - conc[s, t] - ankong[s, t] - pond[t] - exposed[t]
        out[t] = u if u > 0 else 0


@njit(cache=True)
def special_group(kind, out):
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
def group_of(t):
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
def bu_kind(ps, s, t, rv):
    """The special kong of seat s a 补 tile t goes onto (-1: none): MELD_ANKONG for the fourth
    copy of a 大蛋 he laid as three (dadan_laid); else the one of t's own group; else, under
    xi_bu_any_honor, a wind onto his 喜杠; else, under xiaoji_wildcard any, a 1s (幺鸡) onto
    any special kong of his (the first in MELD_* order)."""
    if (ps[s, P_LAID_DADAN] >> t) & 1:
        return MELD_ANKONG
    gk = group_of(t)
    if gk >= 0 and ps[s, P_SPECIAL + gk - FIRST_SPECIAL] > 0:
        return gk
    if rv[RV_XI_BU_ANY_HONOR] and t >= HONOR and ps[s, P_SPECIAL + MELD_XI - FIRST_SPECIAL] > 0:
        return MELD_XI
    if t == ONE_S and rv[RV_XIAOJI] == XIAOJI_ANY:
        for k in range(4):
            if ps[s, P_SPECIAL + k] > 0:
                return FIRST_SPECIAL + k
    return -1


@njit(cache=True)
def summarize(mrec, nm, ms, s):
    """Seat s's meld summary from his melds as they stand, by the shared ``melds.meld_summary``
    (the kernel form of ``tiles.Hand.meld_summary``, what ``ccmj check`` feeds the judge): so
    a 补 tile's suit, or a 幺鸡 standing in for a member, counts at the table as in ``check``.
    Called whenever a meld is made or grows (加杠, 补)."""
    meld_summary(mrec[s, :, 0], mrec[s, :, 2:], mrec[s, :, 1], nm[s], ms[s])


@njit(cache=True)
def add_meld(mrec, nm, ms, s, kind, n, tiles):
    """Record a meld for seat s and update his meld summary (``summarize``)."""
    m = nm[s]
    mrec[s, m, 0] = kind
    mrec[s, m, 1] = n
    for i in range(n):
        mrec[s, m, 2 + i] = tiles[i]
    nm[s] = m + 1
    summarize(mrec, nm, ms, s)


@njit(cache=True)
def ms_with_pung(ms, s, t, claimed, out):
    """``out`` = seat s's meld summary plus a pung/kong of t (as ``add_meld`` would make it):
    ``claimed`` a pung or open kong, else a concealed kong (暗杠)."""
    for i in range(MS_LEN):
        out[i] = ms[s, i]
    out[MS_SETS] += 1
    out[MS_PUNGS] += 1
    if claimed:
        out[MS_CLAIMED] += 1
    else:
        out[MS_ANKONGS] += 1
    if t < HONOR:
        out[MS_SUITS] |= 1 << (t // 9)
    if is_yaojiu(t):
        out[MS_YAOJIU] = 1


@njit(cache=True)
def ms_with_chow(ms, s, lo, out):
    """``out`` = seat s's meld summary plus the chow lo, lo+1, lo+2."""
    for i in range(MS_LEN):
        out[i] = ms[s, i]
    out[MS_SETS] += 1
    out[MS_CHOWS] += 1
    out[MS_CLAIMED] += 1
    out[MS_SUITS] |= 1 << (lo // 9)
    r = lo % 9
    if r == 0 or r == 6:
        out[MS_YAOJIU] = 1


@njit(cache=True)
def claim_leaves_one(ms_after, rv):
    """手把一 at the table (MIL 五-4, under shoubayi_no_claim; the bots never make such a claim
    anyway, RULES C4 leaves it no win but 飘胡, which a chow excludes): does a claim (吃, 碰,
    明杠) leave a hand that has a chow with one concealed tile. ``ms_after``: the meld summary
    after the claim; the sets that count are the judge's (``judge.declared_sets``: under
    shoubayi_ankong_concealed a concealed kong counts as concealed tiles)."""
    return declared_sets(ms_after, rv) == 4 and ms_after[MS_CHOWS] > 0


@njit(cache=True)
def chow_refused_shoubayi(ms_after, rv):
    """A 吃 that a 手把一 rule refuses (``ms_after``: the summary after it): one that leaves a
    chow hand on one concealed tile, under shoubayi_no_claim or shoubayi_piaoding_only (such
    a hand can never be 飘, so never a 飘顶 tenpai)."""
    strict = rv[RV_SHOUBAYI_NO_CLAIM] or rv[RV_SHOUBAYI_PIAODING_ONLY]
    return strict != 0 and claim_leaves_one(ms_after, rv)


@njit(cache=True)
def pung_refused_shoubayi(conc, melded, s, d, ms_after, rv, tb, buf):
    """A 碰 of the discard d by seat s that a 手把一 rule refuses (``ms_after``: his summary
    after it): under shoubayi_no_claim, one that leaves a chow hand on one concealed tile;
    under shoubayi_piaoding_only, one that leaves one concealed tile (four declared sets)
    unless a discard then leaves a 飘顶 tenpai: the single tile a legal wait (the judge's:
    a 手把一 wins only as 飘胡, so a legal wait is a 飘顶 one)."""
    if rv[RV_SHOUBAYI_NO_CLAIM] and claim_leaves_one(ms_after, rv):
        return True
    if not rv[RV_SHOUBAYI_PIAODING_ONLY] or declared_sets(ms_after, rv) != 4:
        return False
    c = conc[s].copy()
    c[d] -= 2
    own = c + melded[s]
    own[d] += 3  # (the pung's tiles, the claimed one included)
    for x in range(N_KINDS):
        if c[x] == 0:
            continue
        c[x] -= 1
        own[x] -= 1
        judge_waits(c, ms_after, own, rv, tb, buf)
        c[x] += 1
        own[x] += 1
        for t in range(N_KINDS):
            if buf[t, W_LEGAL]:
                return False
    return True


@njit(cache=True)
def find_meld(mrec, nm, s, kind, t):
    """The index of seat s's meld of ``kind`` (whose first tile is t, when t >= 0); -1: none."""
    for m in range(nm[s]):
        if mrec[s, m, 0] == kind and (t < 0 or mrec[s, m, 2] == t):
            return m
    return -1
