"""The table engine's driver: one complete Changchun hand with four bots (RULES.md §6-§8).

``play_hand`` plays a hand from a given wall (tile kinds in draw order) and dealer; it is
deterministic, so a fixed wall is a replay and a test fixture. A session shuffles walls from an
explicit seed (splitmix64, seeded at the session start) and rotates the dealer; ``pieces``
plays pieces of many sessions in parallel threads, each adding to its own statistics row, or
keeping every hand's result, or every hand for the log; so results do not depend on the
number of threads, nor on how a run is cut into pieces.

The driver only sequences the phases of a hand; each rule lives in the module of its phase:

- ``wall``         the wall, the deal, draws from the head and the tail, where the wall ends;
- ``bao``          the bao: roll, look, 对宝, 摸宝, 换宝;
- ``kongs``        special kongs, 暗杠, 加杠, 补, and robbing them (抢杠胡, 抢叉); 用宝 kongs;
- ``claims``       胡/碰/杠/吃 on a discard, 截胡;
- ``settle``       scoring a win, kong money, the hand's result, statistics;
- ``bots``         every decision a bot makes;
- ``state``        the state arrays and their small helpers; ``layout`` the slots.
"""

import numpy as np

from .. import jit as _jit
from ..jit import njit
from ..layout import N_KINDS, N_SEATS
from .bao import check_bao_dead, look_at_draw, mobao_win, must_win_bao
from .bots import (
    choose_discard_at,
    refuse_unclaimed,
    wants_declare,
    wants_self_win,
    wants_special,
)
from .claims import CLAIM_NONE, CLAIM_WIN, claims_on_discard
from .codes import MOBAO_MUST_WIN, WIN_NOT_LEGAL
from .kongs import BAO_KONG_MADE, BAO_KONG_WON, KONG_AGAIN, bao_kongs, self_kong, special_kongs
from .layout import (
    EV_COLS,
    EV_DECLARE,
    EV_DISCARD,
    EV_DRAW,
    EV_HUANG,
    EV_PASS,
    EV_TAIL,
    G_CUR,
    G_DEALER,
    G_DECL_DISC,
    G_DRAWN,
    G_NDISC,
    G_NREC,
    G_OFF,
    G_PENDING,
    G_PHASE,
    G_SCRIPT,
    G_STOP,
    G_WINNER,
    MAX_MELDS,
    MELD_COLS,
    N_DICE,
    N_WALL,
    P_DECLARED,
    P_DISC,
    P_FIRST,
    P_PASSED,
    PH_CLAIM,
    PH_DRAW,
    PH_OVER,
    PH_SELF,
    R_DECLARED,
    R_DISCARDS,
    R_LEN,
    R_NEXT_DEALER,
    S_LEN,
)
from .legalplay import new_legal
from .script import refuse
from .settle import accumulate, finish, reset_result, self_draw_win
from .state import (  # noqa: F401 (new_work: API)
    event,
    new_table,
    new_work,
    reset_table,
    work_with,
)
from .wall import can_draw, deal, deal_hand, take, win_only_draw

if _jit.INTERPRETED:  # (one position asked: the engine's source runs as Python, no Numba)
    prange = range
else:
    from numba import prange


@njit(cache=True)
def turn_options(ps, g, cur):
    """What the turn of the seat on turn allows (RULES §7, special_kong_timing): (dealer_first:
    the dealer's first turn, before any discard; no_bu: no 补 in this turn — the dealer's
    first, or a first turn entered by a claim; allow_kong: kongs may be made in this turn — after
    a draw, or in one of those two turns (special kongs; other kongs only after a draw or in the
    dealer's first)). One place: the driver and ``actions`` ask it."""
    dealer_first = ps[cur, P_FIRST] == 1 and cur == g[G_DEALER] and g[G_NDISC] == 0
    # special_kong_timing first_turn: a first turn entered by a claim lays out special
    # kongs but adds nothing to them (MIL 五-6-3), and makes no other kong before a draw
    claimed_first = ps[cur, P_FIRST] == 2
    # no 补 in either turn: not onto a kong laid out before, nor inside one laid out now
    # (under 三风蛋 [1234z] is [123z] + a 补 of 4z)
    no_bu = dealer_first or claimed_first
    allow_kong = g[G_DRAWN] >= 0 or no_bu
    return dealer_first, no_bu, allow_kong


@njit(cache=True)
def refuse_self_win(bots, g, s):
    """Scripted: the record's 自摸 / 摸宝 that the judgment does not allow stops the hand."""
    if g[G_SCRIPT] and wants_self_win(bots, g, s):
        refuse(g, WIN_NOT_LEGAL)


@njit(cache=True)
def refuse_passed_bao(rv, tb, tab, ws):
    """Scripted, under mobao_must_win: a record that does not win on a drawn bao that wins
    stops the hand (the record's next event passes it)."""
    g = tab[0]
    if g[G_SCRIPT] and must_win_bao(rv, tb, tab, ws):
        refuse(g, MOBAO_MUST_WIN)



@njit(cache=True)
def play_hand(wall, dealer, dice, rv, tb, tp, bots, ev, rec, res, tab, ws):
    """Play one hand from ``wall`` (int64[136] tile kinds in draw order) on the table ``tab``
    (``state.new_table``; reset here) with scratch ``ws`` (``new_work``; it carries the
    discard policy's tables).

    Fills ``res`` (R_* layout). When ``rec`` is true, events go to ``ev`` (EV_* rows). The
    table state keeps the final hands, melds and discards for inspection.
    """
    g, ps, conc, melded, ankong, pungs, taken, ms, mrec, nm, pond, exposed, kpay = tab
    reset_result(res, dealer)
    reset_table(tab, dealer, rec)
    if bots.shape[0] > N_SEATS:  # the referee: the record (rows 4..) decides (``script``)
        g[G_SCRIPT] = 1
        g[G_NREC] = bots.shape[0] - N_SEATS
        g[G_OFF] = -1  # (the event the table offered where the record differs: none yet)
    deal(wall, dealer, conc, g)
    g[G_CUR] = dealer
    g[G_DRAWN] = wall[52]  # the dealer's 14th tile counts as his draw (a complete start: 天胡)
    phase = PH_SELF
    while True:
        if g[G_STOP]:
            break  # (scripted: the record broke a rule, or the event asked for is reached)
        cur = g[G_CUR]
        if phase == PH_DRAW:
            g[G_PHASE] = PH_DRAW
            # the wall's end first: with no draw left there is no look either (RULES §6: the
            # look is at his next draw, and there is none: the hand is drawn)
            if not can_draw(g, tp, rv):
                event(ev, g, EV_HUANG, -1, -1, 0, 0)
                break
            # a declared player looks at the bao at his draw (the first one rolls for it)
            if look_at_draw(wall, dice, rv, tb, tp, ev, res, tab, ws, bots):
                break
            if g[G_STOP]:
                break  # (scripted: the roll or the look was the event asked for)
            # bao_kong (用宝): he may take the bao tile for a kong; then his draw is the kong's
            bk = bao_kongs(wall, dice, rv, tb, tp, bots, ev, res, tab, ws)
            if bk == BAO_KONG_WON or g[G_STOP]:
                break
            last = False
            if bk == BAO_KONG_MADE:
                t = take(wall, g, conc, taken, cur, True)  # (bao_kongs left a tile for it)
                ps[cur, P_PASSED] = -1
                event(ev, g, EV_TAIL, cur, t, 0, 0)
            elif not can_draw(g, tp, rv):
                # (the roll put the bao on the last tile he could draw: it stays in the wall)
                event(ev, g, EV_HUANG, -1, -1, 0, 0)
                break
            else:
                last = win_only_draw(g, tp, rv)
                t = take(wall, g, conc, taken, cur, False)
                ps[cur, P_PASSED] = -1  # 过水 lasts until his next draw
                event(ev, g, EV_DRAW, cur, t, 0, 0)
            if last:
                # wall_end win_only_four: one of the last four draws wins or is passed on (it
                # goes to the pond, face up: no discard, so no claim; no kong either)
                if wants_self_win(bots, g, cur) and (
                    mobao_win(rv, tb, res, tab, ws) or self_draw_win(rv, tb, res, tab, ws)
                ):
                    break
                refuse_self_win(bots, g, cur)
                if not wants_self_win(bots, g, cur):
                    refuse_passed_bao(rv, tb, tab, ws)
                if g[G_STOP]:
                    break
                conc[cur, t] -= 1
                pond[t] += 1
                event(ev, g, EV_PASS, cur, t, 0, 0)
                check_bao_dead(wall, g, dice, rv, tp, pond, exposed, ev)
                g[G_CUR] = (cur + 1) % N_SEATS
                g[G_DRAWN] = -1
                continue

        # ---------------- the player on turn holds 3k+2 tiles: win, special kongs, kongs
        g[G_PHASE] = PH_SELF
        dealer_first, no_bu, allow_kong = turn_options(ps, g, cur)
        while True:
            if g[G_DRAWN] >= 0 and wants_self_win(bots, g, cur):
                if mobao_win(rv, tb, res, tab, ws) or self_draw_win(rv, tb, res, tab, ws):
                    break
                refuse_self_win(bots, g, cur)
            elif g[G_DRAWN] >= 0:
                refuse_passed_bao(rv, tb, tab, ws)
            if g[G_STOP]:
                break
            if not allow_kong:
                break
            first = ps[cur, P_FIRST] != 0
            if (
                first
                and wants_special(bots, g, cur)
                and not ps[cur, P_DECLARED]
                and special_kongs(wall, dice, rv, tp, ev, res, tab, ws, no_bu)
            ):
                continue  # a 4-tile 旋风杠's replacement draw: win on it, or more kongs
            ps[cur, P_FIRST] = 0
            if g[G_DRAWN] < 0 and not dealer_first:
                break  # (a turn entered by a claim: kongs only after a draw)
            r = self_kong(wall, dice, rv, tb, tp, bots, ev, res, tab, ws, no_bu)
            if r != KONG_AGAIN:
                break
        if g[G_WINNER] >= 0 or g[G_STOP]:
            break  # (a scripted stop: the state as the event left it, his first turn too)
        cur = g[G_CUR]  # (a robbed 补: the robber discards)
        ps[cur, P_FIRST] = 0

        # ---------------- discard (and 报听)
        d, n_live = choose_discard_at(tab, ws, cur, g[G_DRAWN], bots, rv, tb)
        if g[G_STOP]:
            break
        conc[cur, d] -= 1
        pond[d] += 1
        ps[cur, P_DISC] |= np.int64(1) << d
        res[R_DISCARDS] += 1
        g[G_NDISC] += 1
        event(ev, g, EV_DISCARD, cur, d, 0, 0)
        if g[G_STOP]:
            break
        if wants_declare(tab, ws, cur, bots, rv, tb, n_live):
            ps[cur, P_DECLARED] = 1
            res[R_DECLARED] |= 1 << cur
            g[G_DECL_DISC] = cur  # (declared with this discard: for 包庄 if it is won on)
            event(ev, g, EV_DECLARE, cur, -1, 0, 0)
        check_bao_dead(wall, g, dice, rv, tp, pond, exposed, ev)
        if g[G_STOP]:
            break

        # ---------------- claims: 胡 (截胡) > 碰/杠 > 吃
        g[G_PHASE] = PH_CLAIM
        g[G_PENDING] = d
        c = claims_on_discard(wall, dice, rv, tb, tp, bots, ev, res, tab, ws, d)
        if c == CLAIM_WIN:
            break
        g[G_DECL_DISC] = -1
        if c != CLAIM_NONE:
            phase = PH_SELF
            continue
        refuse_unclaimed(tab, ws, bots, cur, d, rv, tb)  # (scripted: a claim not offered)
        g[G_CUR] = (cur + 1) % N_SEATS
        g[G_DRAWN] = -1
        phase = PH_DRAW

    g[G_PHASE] = PH_OVER
    finish(g, kpay, ev, res)
    return g


# ------------------------------------------------------------------ sessions
# A session is a run of hands with the dealer rotating, seeded once (its splitmix64 state shuffles
# every wall and rolls every die). It is played in pieces: each call plays ``counts[i]`` more
# hands of session i from its random state ``rs[i]`` and dealer ``dealers[i]``, and leaves both
# where the next piece goes on, so how a run is cut into pieces changes nothing.
#
# One compiled entry point, ``pieces``, serves the three ways of playing (statistics only, every
# hand's result, every hand recorded for the log), chosen by ``mode`` at run time: Numba
# re-optimises the whole engine for every kernel that calls it, so one entry kernel (not three)
# and one specialisation of ``play_hand`` (``rec`` a run-time boolean, never a literal: a literal
# True and False would be two more) compile the engine a third as often. The unused outputs of a
# mode are empty arrays; ``run_pieces``, ``result_pieces`` and ``record_pieces`` are the three
# modes with their own arguments.
MODE_STATS = 0  # statistics only (``out``)
MODE_RESULTS = 1  # and every hand's result vector (``results``)
MODE_RECORD = 2  # every hand's wall, dice, result, events and final state (the log)


@njit(cache=True)
def piece(
    mode, rs, dealers, i, n, rv, tb, ut, tp, bots, st, walls, dices, results, events, concs,
    melds, n_melds, ponds, melded_out, lx,
):  # fmt: skip
    """``n`` more hands of session i; their statistics are added to ``st`` (S_* layout). Mode
    MODE_RESULTS also keeps every hand's result vector (rows 0..n-1 of ``results``), MODE_RECORD
    every hand's wall, dice, result, events and final state (rows 0..n-1 of the outputs)."""
    rec = mode == MODE_RECORD
    keep = mode != MODE_STATS
    wall = np.zeros(N_WALL, np.int64)
    dice = np.zeros(N_DICE, np.int64)
    ev = np.zeros((1, EV_COLS), np.int64)
    res = np.zeros(R_LEN, np.int64)
    tab = new_table()
    ws = work_with(ut, lx)
    g, ps, conc, melded, ankong, pungs, taken, ms, mrec, nm, pond, exposed, kpay = tab
    r = rs[i : i + 1]
    dealer = dealers[i]
    for h in range(n):
        w = walls[h] if rec else wall
        d = dices[h] if rec else dice
        e = events[h] if rec else ev
        rh = results[h] if keep else res
        deal_hand(r, w, d)
        play_hand(w, dealer, d, rv, tb, tp, bots, e, rec, rh, tab, ws)
        if rec:
            concs[h, :, :] = conc
            melded_out[h, :, :] = melded
            melds[h, :, :, :] = mrec
            n_melds[h, :] = nm
            ponds[h, :] = pond
        else:
            accumulate(st, rh)
        dealer = rh[R_NEXT_DEALER]
    dealers[i] = dealer


@njit(cache=True, parallel=True)
def pieces(
    mode, rs, dealers, counts, offsets, rv, tb, ut, tp, bots, out, walls, dices, results, events,
    concs, melds, n_melds, ponds, melded_out, threads,
):  # fmt: skip
    """``piece`` for every session given, in parallel threads (``threads`` blocks of sessions):
    session i's statistics are added to row i of ``out``, its hands go to rows ``offsets[i]`` on
    of the other outputs (in order), so results do not depend on the number of threads."""
    n = rs.shape[0]
    nb = max(1, min(n, threads))
    for b in prange(nb):  # a block of sessions a thread, one legal-distance memo for them all
        lx = new_legal()
        for i in range(np.int64(b), n, nb):  # (int64: prange's index is unsigned)
            a = offsets[i]
            piece(
                mode, rs, dealers, i, counts[i], rv, tb, ut, tp, bots, out[i], walls[a:],
                dices[a:], results[a:], events[a:], concs[a:], melds[a:], n_melds[a:], ponds[a:],
                melded_out[a:], lx,
            )  # fmt: skip


def _none(k: int, *shape, dtype=np.int64):
    return np.zeros((k, *shape), dtype)


def _no_record():
    """The record outputs of a mode that records nothing (empty: never indexed)."""
    return (
        _none(0, N_WALL), _none(0, N_DICE), _none(0, 1, EV_COLS), _none(0, N_SEATS, N_KINDS, dtype=np.uint8),
        _none(0, N_SEATS, MAX_MELDS, MELD_COLS), _none(0, N_SEATS), _none(0, N_KINDS),
        _none(0, N_SEATS, N_KINDS, dtype=np.uint8),
    )  # fmt: skip


def run_pieces(rs, dealers, counts, rv, tb, ut, tp, bots, out):
    """A piece of every session given (threads over sessions); row i of ``out`` gets session
    i's statistics added."""
    walls, dices, events, concs, melds, n_melds, ponds, melded_out = _no_record()
    offsets = np.zeros(len(rs), np.int64)
    pieces(
        MODE_STATS, rs, dealers, counts, offsets, rv, tb, ut, tp, bots, out, walls, dices,
        _none(0, R_LEN), events, concs, melds, n_melds, ponds, melded_out, get_threads(),
    )  # fmt: skip


def result_pieces(rs, dealers, counts, offsets, rv, tb, ut, tp, bots, out, results):
    """``run_pieces`` keeping every hand's result vector: session i's hands go to rows
    ``offsets[i]`` on of ``results`` (in order) — the paired comparison and the CSV export."""
    walls, dices, events, concs, melds, n_melds, ponds, melded_out = _no_record()
    pieces(
        MODE_RESULTS, rs, dealers, counts, offsets, rv, tb, ut, tp, bots, out, walls, dices,
        results, events, concs, melds, n_melds, ponds, melded_out, get_threads(),
    )  # fmt: skip


def record_pieces(
    rs, dealers, counts, offsets, rv, tb, ut, tp, bots, walls, dices, results, events, concs, melds,
    n_melds, ponds, melded_out,
):  # fmt: skip
    """Every session's piece keeping every hand's wall, dice, events and final state for the
    log; session i's hands go to rows ``offsets[i]`` on of the output arrays, in order."""
    out = np.zeros((len(rs), S_LEN), np.int64)  # (no statistics are kept when recording)
    pieces(
        MODE_RECORD, rs, dealers, counts, offsets, rv, tb, ut, tp, bots, out, walls, dices,
        results, events, concs, melds, n_melds, ponds, melded_out, get_threads(),
    )  # fmt: skip


def cached(kernel) -> bool | None:
    """Whether Numba's cache holds ``kernel`` compiled from its current source, so a run only
    loads it (None: cannot tell). Reads Numba's cache index, which is not public API."""
    try:
        return bool(kernel._cache._cache_file._load_index())
    except Exception:  # noqa: BLE001 - any change in Numba's internals: unknown
        return None


def set_threads(k):
    """Use k Numba threads (None: all available; more than available is clamped)."""
    from numba import config, set_num_threads

    top = config.NUMBA_NUM_THREADS
    set_num_threads(top if k is None else max(1, min(int(k), top)))


def get_threads():
    from numba import get_num_threads

    return get_num_threads()
