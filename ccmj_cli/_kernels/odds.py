"""Monte Carlo odds for one player's hand: the jitted trial loop behind ``ccmj odds``.

One trial plays the player's remaining turns against an unseen pool: the wall is the list of
physical tiles the player has not seen, drawn uniformly without replacement (a partial
Fisher-Yates shuffle). A turn is three opponent turns, then the player's draw; with
``opp == 1`` each opponent turn discards a uniformly random unseen tile (it becomes public and
may be won on, 点炮). Every judgment comes from the rules engine: ``judge_waits``/``judge_win``
say which tiles win and how, ``fan_items``/``settle`` what the win pays, ``choose_discard`` what
an undeclared hand throws (policy.choose_discard_memo). Rules arrive as ``rv``; the kernel
knows no rule by itself.

Random state: ``run_chunk`` seeds Numba's (per-thread) generator with its chunk seed first, so
a chunk's outcome depends only on that seed, never on which thread ran it.
"""

import numpy as np

from .jit import njit
from .judge import LOOK_OK, W_COLS, W_LEGAL, judge_waits, judge_win, look_rule, may_declare
from .layout import (
    HOW_DISCARD,
    HOW_DUIBAO,
    HOW_MOBAO,
    HOW_SELF,
    N_FAN,
    N_KINDS,
    N_SEATS,
    RD_HAOHUA,
    RD_JIAHU,
    RD_LEN,
    RD_PIAO,
    RV_BAO_CHANGE,
)
from .policy import _hand_key, choose_discard_cached, new_scratch14, new_table, table_slot
from .score import fan_items, settle

# bao modes
BAO_NONE = 0
BAO_KNOWN = 1  # the bao tile is given; its copy is out of the drawable pool from the start
BAO_UNKNOWN = 2  # rolled at the first look: a random tile of the pool, which it then leaves

# stats vector (int64): counts summed over trials, so chunks reduce exactly in any order
S_TRIALS = 0
S_HOW = 1  # + HOW_SELF / HOW_DISCARD / HOW_MOBAO / HOW_DUIBAO
S_JIAHU = 5  # wins scored with 夹胡
S_PIAO = 6  # wins scored as 飘胡
S_PAY = 7  # sum of the payment received (base units)
S_PAY2 = 8  # sum of its squares
S_TENPAI = 9  # trials in which the hand reached tenpai (a live legal wait)
S_DECLARED = 10  # trials in which the hand declared (报听) and locked
S_BAO_BLOCKED = 11  # declared, but 断幺九 may not look at the bao
S_HIST = 12  # + r - 1: wins in round r (opponents' turns, then the player's r-th draw)


def stats_len(n_rounds):
    return S_HIST + max(n_rounds, 1)


@njit(cache=True, nogil=True)
def win_table(c, ms, own, rv, tb, wbuf, legal, rds, haohua):
    """Judge every tile as the winning tile for the 3k+1 concealed tiles ``c``.

    ``legal[t]`` = 1 when c + t is a legal win (独听 and 夹胡 as judge_win reads them), with
    its reading in ``rds[t]`` and ``haohua[t]`` = the win is a 豪华七对 (its RD_HAOHUA).
    Returns the number of live legal waits (> 0: tenpai).
    """
    n_live = judge_waits(c, ms, own, rv, tb, wbuf)
    for t in range(N_KINDS):
        legal[t] = 0
        haohua[t] = 0
        if wbuf[t, W_LEGAL] and own[t] < 4 and judge_win(c, t, ms, own, rv, tb, rds[t]):
            legal[t] = 1
            haohua[t] = rds[t, RD_HAOHUA]
    return n_live


@njit(cache=True, nogil=True)
def win_payment(rd, how, haohua, discarder, dealer, rv, items, fan, pay):
    """What the player (seat 0) receives for a win read as ``rd``, via fan_items + settle."""
    fan_items(rd, how, haohua, rv, items)
    settle(items, 0, dealer, discarder, how, rv, fan, pay)
    return pay[0]


WINS_BITS = 16  # slots of a wins memo


@njit(cache=True, nogil=True)
def new_wins_memo():
    """A per-thread cache of (legal waits mask, live legal waits) per concealed hand, valid for
    one meld summary and rule vector."""
    return new_table(WINS_BITS, 2)


@njit(cache=True, nogil=True)
def legal_waits(c, ms, own, rv, tb, wbuf, wins):
    """(mask of the legal waits, number of live ones) of the 3k+1 tiles ``c`` — judge_waits,
    remembered in ``wins`` (``own`` is c plus the fixed melds, so c alone is the key)."""
    a, b = _hand_key(c)
    i, found = table_slot(wins, a, b)
    vals = wins[0]
    if found:
        return vals[i, 2], vals[i, 3]
    n_live = judge_waits(c, ms, own, rv, tb, wbuf)
    m = np.int64(0)
    for t in range(N_KINDS):
        if wbuf[t, W_LEGAL] and own[t] < 4:  # (a wait held four times cannot be won on)
            m |= np.int64(1) << t
    vals[i, 2] = m
    vals[i, 3] = n_live
    return m, np.int64(n_live)


@njit(cache=True, nogil=True)
def _win_amount(c, t, how, discarder, dealer, ms, own, rv, tb, rd, items, fan, pay):
    """The payment of winning on ``t`` (judged now: the reading, 独听, 豪华)."""
    judge_win(c, t, ms, own, rv, tb, rd)
    return win_payment(rd, how, rd[RD_HAOHUA] == 1, discarder, dealer, rv, items, fan, pay)


@njit(cache=True, nogil=True)
def keep_bao(is_wait, rv):
    """Under bao_change optional the declared player keeps a bao whose three other copies are
    public when it is one of his legal waits (``is_wait``): it is an immediate 对宝."""
    return rv[RV_BAO_CHANGE] != 0 and is_wait


@njit(cache=True, nogil=True)
def _roll_bao(wall, m, avoid):
    """Take a random tile not of kind ``avoid`` out of wall[:m]; returns (tile, new m)."""
    n_ok = 0
    for i in range(m):
        if wall[i] != avoid:
            n_ok += 1
    if n_ok == 0:
        return -1, m
    j = np.random.randint(0, n_ok)
    for i in range(m):
        if wall[i] != avoid:
            if j == 0:
                t = wall[i]
                wall[i] = wall[m - 1]
                return t, m - 1
            j -= 1
    return -1, m


@njit(cache=True, nogil=True)
def run_chunk(
    seed,
    n_trials,
    c0,
    ms,
    own0,
    pool0,
    view0,
    public0,
    rv,
    tb,
    n_turns,
    opp,
    declare,
    bao_mode,
    bao_tile,
    dealer,
    stats,
    memo14,
    wins,
    hand_only=0,
):
    """Play ``n_trials`` trials from the 3k+1 concealed tiles ``c0``; add counts to ``stats``.

    pool0: drawable unseen tiles per kind (a known bao's copy already taken out);
    view0: what the player counts as unseen (the policy's live counts); public0: copies in
    discards and exposed melds (for 换宝). n_turns: tile positions left in the wall schedule;
    position p is the player's draw when p % 4 == 3, else opponent seat p % 4 + 1.
    memo14, wins: ``new_memo14()``, ``new_wins_memo()`` — caches of hand shapes for this
    ``ms`` and ``rv`` (exact values only, so sharing them between chunks changes no answer;
    one set per thread). hand_only: the player's discards go back to the pool (the exact
    analysis's pool model; only with opp == 0).
    """
    np.random.seed(seed)
    u = 0
    for t in range(N_KINDS):
        u += pool0[t]
    base = np.empty(max(u, 1), np.int64)
    i = 0
    for t in range(N_KINDS):
        for _ in range(pool0[t]):
            base[i] = t
            i += 1
    wall = np.empty(u + 2, np.int64)  # room for an old bao returned after 换宝
    c = c0.copy()
    own = own0.copy()
    view = view0.copy()
    public = public0.copy()
    wbuf = np.zeros((N_KINDS, W_COLS), np.int64)
    rd = np.zeros(RD_LEN, np.int64)
    items = np.zeros(N_FAN, np.int64)
    fan = np.zeros(N_SEATS, np.int64)
    pay = np.zeros(N_SEATS, np.int64)
    wbuf2 = np.zeros((N_KINDS, W_COLS), np.int64)
    sc = new_scratch14()
    lmask0, n_live0 = legal_waits(c0.copy(), ms, own0.copy(), rv, tb, wbuf, wins)
    for _trial in range(n_trials):
        c[:] = c0
        own[:] = own0
        view[:] = view0
        public[:] = public0
        lmask = lmask0
        wall[:u] = base[:u]
        m = u
        tenpai = n_live0 > 0
        reached = tenpai
        # a hand may declare only as the variant allows (judge.may_declare: 断幺九 under
        # duanyaojiu_may_declare false) and look only by judge.look_rule
        locked = declare == 1 and tenpai and may_declare(own0, rv)
        declared = locked
        bao_ok = False
        if locked:
            bao_ok = bao_mode != BAO_NONE and look_rule(True, own0, rv) == LOOK_OK
        bao = -1
        looked = False
        won = False
        how = -1
        win_tile = -1
        discarder = -1
        rnd = 0
        for p in range(n_turns):
            rnd = p // 4 + 1
            if p % 4 != 3:  # an opponent's turn
                if opp == 1 and m > 0:
                    j = np.random.randint(0, m)
                    t = wall[j]
                    wall[j] = wall[m - 1]
                    m -= 1
                    view[t] -= 1
                    public[t] += 1
                    if lmask >> t & 1:
                        won, how, win_tile, discarder = True, HOW_DISCARD, t, p % 4 + 1
                        break
                continue
            # the player's turn: a declared hand looks at the bao first (对宝 / 换宝)
            if bao_ok:
                look = False
                if bao < 0:
                    if bao_mode == BAO_KNOWN:
                        bao = bao_tile
                    else:
                        bao, m = _roll_bao(wall, m, -1)
                    look = bao >= 0
                tries = 0
                # 换宝: the three other copies are public, so the bao is rolled again — under
                # bao_change optional unless the player keeps it, which he does when it is a
                # legal wait (an immediate 对宝; kept otherwise, it could never be drawn)
                while (
                    bao >= 0
                    and public[bao] >= 3
                    and tries < 8
                    and not keep_bao(lmask >> bao & 1 != 0, rv)
                ):
                    tries += 1
                    new, m = _roll_bao(wall, m, bao)
                    if new < 0:
                        break
                    wall[m] = bao  # the old bao goes back to its place in the wall
                    m += 1
                    bao = new
                    look = True
                if look:
                    looked = True
                    if lmask >> bao & 1:
                        won, how, win_tile = True, HOW_DUIBAO, bao
                        break
            if m == 0:
                break
            j = np.random.randint(0, m)
            t = wall[j]
            wall[j] = wall[m - 1]
            m -= 1
            view[t] -= 1
            if lmask >> t & 1:
                won, how, win_tile = True, HOW_SELF, t
                break
            if looked and t == bao:
                won, how = True, HOW_MOBAO
                break
            c[t] += 1
            own[t] += 1
            d = t if locked else choose_discard_cached(c, ms, own, view, rv, tb, wbuf2, memo14,
                                                       sc)  # fmt: skip
            c[d] -= 1
            own[d] -= 1
            if hand_only == 1:  # unseen again: back into the pool
                wall[m] = d
                m += 1
                view[d] += 1
            else:
                public[d] += 1
            if d != t:
                lmask, n_live = legal_waits(c, ms, own, rv, tb, wbuf, wins)
                tenpai = n_live > 0
                if tenpai:
                    reached = True
                    if declare == 1 and may_declare(own, rv):
                        locked = True
                        declared = True
                        bao_ok = bao_mode != BAO_NONE and look_rule(True, own, rv) == LOOK_OK
        stats[S_TRIALS] += 1
        if reached:
            stats[S_TENPAI] += 1
        if declared:
            stats[S_DECLARED] += 1
            if bao_mode != BAO_NONE and not bao_ok:
                stats[S_BAO_BLOCKED] += 1
        if not won:
            continue
        if how == HOW_MOBAO:  # the bao stands for the legal wait that pays best
            best = -1
            for w in range(N_KINDS):
                if lmask >> w & 1:
                    v = _win_amount(c, w, how, -1, dealer, ms, own, rv, tb, rd, items, fan, pay)
                    if v > best:
                        best = v
                        win_tile = w
        amount = _win_amount(c, win_tile, how, discarder, dealer, ms, own, rv, tb, rd, items,
                             fan, pay)  # fmt: skip
        stats[S_HOW + how] += 1
        stats[S_JIAHU] += rd[RD_JIAHU]
        stats[S_PIAO] += rd[RD_PIAO]
        stats[S_PAY] += amount
        stats[S_PAY2] += amount * amount
        stats[S_HIST + rnd - 1] += 1
    return n_rounds_of(n_turns)


@njit(cache=True, nogil=True)
def n_rounds_of(n_turns):
    return (n_turns + 3) // 4
