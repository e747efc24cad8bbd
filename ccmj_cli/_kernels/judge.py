"""The Changchun win judgment (RULES.md §2-§4), one kernel used by every feature.

``read_win`` enumerates every reading of a complete concealed part (pair + sets, or 七对 when
the variant allows it), judges each against the legal-win conditions with the declared melds,
and keeps the best: the legal reading that scores most, else the one with the fewest failed
conditions. ``judge_waits`` runs it over the structural waits of a 13-tile hand.
"""

import numpy as np

from .jit import njit
from .layout import (
    CHUN,
    FAIL_INCOMPLETE,
    FAIL_MISSING_SUIT,
    FAIL_NO_PUNG,
    FAIL_NO_YAOJIU,
    FAIL_SINGLE_TILE_NOT_PIAO,
    FAN_HAOHUA,
    FAN_JIAHU,
    FAN_PIAO,
    FAN_QIDUI,
    HAKU,
    HONOR,
    MS_ANKONGS,
    MS_CHOWS,
    MS_CLAIMED,
    MS_OPEN_KONGS,
    MS_PUNGS,
    MS_SETS,
    MS_SPECIALS,
    MS_SUITS,
    MS_YAOJIU,
    N_KINDS,
    RD_FAILS,
    RD_HAOHUA,
    RD_JIAHU,
    RD_LEGAL,
    RD_LEN,
    RD_MENQING,
    RD_NSETS,
    RD_PAIR,
    RD_PIAO,
    RD_PIAODING,
    RD_QIDUI,
    RD_SETS,
    RD_VALUE,
    RV_BAO_FORBIDDEN_WITHOUT_YAOJIU,
    RV_DRAGON_PAIR_IS_PUNG,
    RV_DUANYAOJIU_MAY_DECLARE,
    RV_FAN_BASE,
    RV_HAOHUA,
    RV_JIAHU,
    RV_OPEN_KONG_BREAKS_MENQING,
    RV_PIAO_EXEMPT,
    RV_PIAO_STACKS_WITH_JIA,
    RV_QIDUI,
    RV_QIDUI_JIAHU,
    RV_QUEMEN,
    RV_SHOUBAYI_ANKONG_CONCEALED,
    RV_SPECIAL_KONG_BREAKS_MENQING,
    RV_SPECIAL_KONG_IS_PUNG,
    RV_XIAOJI_IS_SUIT_TILE,
    SET_PUNG,
    SUIT_XIAOJI,
)
from .shape import (
    _key,
    next_reading,
    rest_is_sets,
    shanten,
    structural_waits,
    useful_mask,
    wait_groups,
    waits_from_groups,
)

JIAHU_ANY = 0
JIAHU_SINGLE_WAIT = 1
JIAHU_SHAPE = 2
JIAHU_SHAPE_DUANYAOJIU = 3  # by shape, or a 断幺九 hand's win (on its 幺九 tile: C2)
HAOHUA_ANY_QUAD = 0
HAOHUA_WAIT_COMPLETES_QUAD = 1


@njit(cache=True, inline="always")
def is_yaojiu(t):
    return t >= HONOR or t % 9 == 0 or t % 9 == 8


@njit(cache=True, inline="always")
def meld_suits(ms, rv):
    """The suits (bitmask 1 m, 2 p, 4 s) the declared melds supply for 三色全: a 幺蛋/九蛋 all
    three (``melds.add_to_summary``); a 幺鸡 in a 旋风杠/喜杠 is a 条 unless the variant says
    xiaoji_is_suit_tile: false."""
    suits = ms[MS_SUITS]
    if suits & SUIT_XIAOJI and rv[RV_XIAOJI_IS_SUIT_TILE]:
        suits |= 4
    return suits & 7


@njit(cache=True)
def content_bits(c, ms, rv):
    """(suit bitmask, has 幺九) of the tiles in ``c`` and the melds."""
    suits = meld_suits(ms, rv)
    ends = 0  # 幺九 tiles held (sums, not a branch per tile: this runs once per hand)
    for g in range(3):
        n = 0
        for i in range(9 * g, 9 * g + 9):
            n += c[i]
        if n:
            suits |= 1 << g
        ends += c[9 * g] + c[9 * g + 8]
    for t in range(HONOR, N_KINDS):
        ends += c[t]
    return suits, ms[MS_YAOJIU] > 0 or ends > 0


@njit(cache=True)
def fails_of_content(suits, yaojiu, rv):
    """Failures that depend only on which tiles the hand holds: 三色全 (C1) and 幺九 (C2)."""
    fails = 0
    n_suits = (suits & 1) + (suits >> 1 & 1) + (suits >> 2 & 1)
    if n_suits < 3 and not (rv[RV_QUEMEN] and n_suits == 2):
        fails |= FAIL_MISSING_SUIT
    if not yaojiu:
        fails |= FAIL_NO_YAOJIU
    return fails


@njit(cache=True)
def content_fails(c, ms, rv):
    suits, yaojiu = content_bits(c, ms, rv)
    return fails_of_content(suits, yaojiu, rv)


@njit(cache=True, inline="always")
def _popcount(x):
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True)
def menqing(ms, rv):
    """门清: no claimed meld; a special kong (下蛋) breaks it unless the variant says otherwise.
    Under open_kong_breaks_menqing: false an open kong (明杠, 补杠) keeps it: only 吃 and 碰
    break it."""
    claimed = ms[MS_CLAIMED]
    if not rv[RV_OPEN_KONG_BREAKS_MENQING]:
        claimed -= ms[MS_OPEN_KONGS]
    if claimed > 0:
        return False
    return not (ms[MS_SPECIALS] > 0 and rv[RV_SPECIAL_KONG_BREAKS_MENQING])


@njit(cache=True)
def _consider(out, fails, jia, piao, qidui, haohua, value, pair, kinds, tiles, nsets):
    """Keep this reading in ``out`` if it beats the one there (legal and higher value first)."""
    legal = fails == 0
    if out[RD_LEGAL] == 1:
        if not legal or value <= out[RD_VALUE]:
            return
    elif (
        not legal
        and not out[RD_FAILS] & FAIL_INCOMPLETE
        and _popcount(fails) >= _popcount(out[RD_FAILS])
    ):
        return  # an illegal reading replaces another only with fewer failures
    out[RD_LEGAL] = 1 if legal else 0
    out[RD_FAILS] = fails
    out[RD_JIAHU] = 1 if (jia and legal) else 0
    out[RD_PIAO] = 1 if (piao and legal) else 0
    out[RD_QIDUI] = 1 if (qidui and legal) else 0
    out[RD_HAOHUA] = 1 if (haohua and legal) else 0
    out[RD_PAIR] = pair
    out[RD_NSETS] = nsets
    for i in range(nsets):
        out[RD_SETS + 2 * i] = kinds[i]
        out[RD_SETS + 2 * i + 1] = tiles[i]
    out[RD_VALUE] = value


@njit(cache=True, inline="always")
def declared_sets(ms, rv):
    """The declared sets that count for 手把一 (C4): every meld, or, under
    shoubayi_ankong_concealed (MIL 五-4), every meld but the concealed kongs, whose tiles count
    as concealed tiles."""
    if rv[RV_SHOUBAYI_ANKONG_CONCEALED]:
        return ms[MS_SETS] - ms[MS_ANKONGS]
    return ms[MS_SETS]


@njit(cache=True, inline="always")
def jia_of(shape_jia, single, rv):
    """夹胡 under the variant's `jiahu` mode: by shape, by 独听 (``single``), or either; under
    shape_duanyaojiu ``single`` says the hand before the win held no 幺九 (``jia_flag``)."""
    mode = rv[RV_JIAHU]
    if mode == JIAHU_ANY or mode == JIAHU_SHAPE_DUANYAOJIU:
        return shape_jia or single
    if mode == JIAHU_SHAPE:
        return shape_jia
    return shape_jia and single


@njit(cache=True, inline="always")
def uses_single_wait(rv):
    """The `jiahu` mode reads 独听 (any, single_wait): the waits are judged twice for it."""
    return rv[RV_JIAHU] == JIAHU_ANY or rv[RV_JIAHU] == JIAHU_SINGLE_WAIT


@njit(cache=True)
def judge_features(has_pung, has_chow, shape_jia, dragon_pair, ms, single, rv, base_fails):
    """The legal-win conditions on one reading, from its features: (fails, 夹胡, 飘胡, value).

    has_pung / has_chow: among the concealed sets; shape_jia: the winning tile is 坎/边/单调 in
    this reading; dragon_pair: the pair is 中/发/白; single: the hand had one live legal wait.
    """
    # (bools throughout: an int here would make 飘 an int, and _consider compile twice)
    specials_pung = ms[MS_SPECIALS] == 0 or rv[RV_SPECIAL_KONG_IS_PUNG] != 0
    piao = not has_chow and ms[MS_CHOWS] == 0 and specials_pung
    fails = base_fails
    if piao and rv[RV_PIAO_EXEMPT]:
        fails &= ~(FAIL_MISSING_SUIT | FAIL_NO_YAOJIU)
    dragon = dragon_pair and rv[RV_DRAGON_PAIR_IS_PUNG]
    if not has_pung and ms[MS_PUNGS] == 0 and ms[MS_SPECIALS] == 0 and not dragon:
        fails |= FAIL_NO_PUNG
    if declared_sets(ms, rv) == 4 and not piao:
        fails |= FAIL_SINGLE_TILE_NOT_PIAO
    jia = jia_of(shape_jia, single, rv)
    if piao and not rv[RV_PIAO_STACKS_WITH_JIA]:
        jia = False
    value = 0
    if piao:
        value += rv[RV_FAN_BASE + FAN_PIAO]
    if jia:
        value += rv[RV_FAN_BASE + FAN_JIAHU]
    return fails, jia, piao, value


@njit(cache=True)
def _judge_reading(out, c, win, ms, single, rv, base_fails, pair, kinds, tiles, k):
    has_pung = False
    has_chow = False
    shape_jia = pair == win  # 单调
    for i in range(k):
        t = tiles[i]
        if kinds[i] == SET_PUNG:
            has_pung = True
        else:
            has_chow = True
            # 坎张 (the middle tile), or 边张: the 3 of 1-2, the 7 of 8-9
            if win == t + 1 or (win == t + 2 and t % 9 == 0) or (win == t and t % 9 == 6):
                shape_jia = True
    dragon_pair = pair >= HAKU and pair <= CHUN
    fails, jia, piao, value = judge_features(
        has_pung, has_chow, shape_jia, dragon_pair, ms, single, rv, base_fails
    )
    _consider(out, fails, jia, piao, False, False, value, pair, kinds, tiles, k)


# read_win's scratch, one int64 array (one allocation): the counts it splits into sets, the
# sets of a reading (kinds, lowest tiles) and next_reading's search state
_SC_W = 0
_SC_KINDS = N_KINDS
_SC_TILES = N_KINDS + 4
_SC_ST = N_KINDS + 8
READ_SCRATCH = N_KINDS + 10


@njit(cache=True)
def read_win(c, win, ms, single, rv, out):
    """Judge the complete concealed part ``c`` (winning tile ``win`` included).

    ``single`` says the hand before the win had exactly one live legal wait (独听).
    Fills ``out`` (RD_* layout) and returns whether the best reading is legal.
    """
    return _read_win(c, win, ms, single, rv, out, np.empty(READ_SCRATCH, np.int64), -1)


@njit(cache=True)
def _read_win(c, win, ms, single, rv, out, scratch, base_fails):
    """read_win with a caller-owned ``scratch`` (int64[READ_SCRATCH]) and, when >= 0, the
    content failures already known."""
    w = scratch[_SC_W : _SC_W + N_KINDS]
    kinds = scratch[_SC_KINDS : _SC_KINDS + 4]
    tiles = scratch[_SC_TILES : _SC_TILES + 4]
    st = scratch[_SC_ST : _SC_ST + 2]
    for i in range(RD_LEN):
        out[i] = 0
    out[RD_FAILS] = FAIL_INCOMPLETE
    out[RD_PAIR] = -1
    out[RD_MENQING] = 1 if menqing(ms, rv) else 0
    n = 0
    for t in range(N_KINDS):
        n += c[t]
    k = (n - 2) // 3
    if n % 3 != 2 or k + ms[MS_SETS] != 4:
        return False
    if base_fails < 0:
        base_fails = content_fails(c, ms, rv)
    # the pair lies in the one group (suit or honors) whose count is 2 mod 3
    lo_pair = 0
    hi_pair = 0
    for g in range(4):
        size = 7 if g == 3 else 9
        s = 0
        for i in range(9 * g, 9 * g + size):
            s += c[i]
        if s % 3 == 2:
            lo_pair = 9 * g
            hi_pair = 9 * g + size
        elif s % 3 == 1:
            hi_pair = lo_pair  # no standard reading at all
            break
    for i in range(N_KINDS):
        w[i] = c[i]
    for pair in range(lo_pair, hi_pair):
        if w[pair] < 2:
            continue
        w[pair] -= 2
        st[0] = 0
        st[1] = 0
        while next_reading(w, k, kinds, tiles, st):
            _judge_reading(out, c, win, ms, single, rv, base_fails, pair, kinds, tiles, k)
        w[pair] += 2
    if rv[RV_QIDUI] and ms[MS_SETS] == 0 and n == 14:
        _read_qidui(out, c, win, single, base_fails, rv)
    # 飘顶: a 手把一 hand (four declared sets, as C4 counts them) that wins 飘胡
    out[RD_PIAODING] = 1 if out[RD_PIAO] and declared_sets(ms, rv) == 4 else 0
    return out[RD_LEGAL] == 1


@njit(cache=True, inline="always")
def _any_four(c):
    """Some tile is held four times (a loop without early exit: it is rarely true)."""
    n = 0
    for t in range(N_KINDS):
        n += c[t] == 4
    return n > 0


@njit(cache=True)
def is_haohua(c, win, rv):
    """豪华七对 of the complete 七对 ``c`` (winning tile ``win`` included): it holds four of a
    kind (haohua any_quad), or the winning tile makes the four (wait_completes_quad: MIL's
    豪华七对 waits on a pair already held; a four held before the win is plain 七对)."""
    if rv[RV_HAOHUA] == HAOHUA_WAIT_COMPLETES_QUAD:
        return c[win] == 4
    return _any_four(c)


@njit(cache=True)
def _read_qidui(out, c, win, single, base_fails, rv):
    for t in range(N_KINDS):
        if c[t] % 2:
            return
    haohua = is_haohua(c, win, rv)
    value = rv[RV_FAN_BASE + FAN_QIDUI]
    if haohua:
        value += rv[RV_FAN_BASE + FAN_HAOHUA]
    # the winning tile always completes a pair (单调); by default not 夹 (seed 004: 不计单钓)
    jia = rv[RV_QIDUI_JIAHU] != 0 and jia_of(True, single, rv)
    if jia:
        value += rv[RV_FAN_BASE + FAN_JIAHU]
    kinds = np.zeros(4, np.int64)
    _consider(out, base_fails, jia, False, True, haohua, value, -1, kinds, kinds, 0)


@njit(cache=True, inline="always")
def _combine(states, m):
    """Hand states reachable by adding a group whose readings have the states in ``m``:
    {a | b : a in states, b in m}, as bitmasks over the 16 states (b < 8: groups never have
    the dragon pair). Setting feature bit i in every state of a mask moves the states
    without it up by 2**i; masks select the states with bit i (1: 0xAAAA, 2: 0xCCCC, 4: 0xF0F0).
    """
    new = 0
    for b in range(8):
        if m >> b & 1:
            s = states
            if b & 1:
                s = (s & 0xAAAA) | (s & 0x5555) << 1
            if b & 2:
                s = (s & 0xCCCC) | (s & 0x3333) << 2
            if b & 4:
                s = (s & 0xF0F0) | (s & 0x0F0F) << 4
            new |= s
    return new


@njit(cache=True)
def _honor_state(c, win):
    """The honors' one reading as a hand state (pungs and at most one pair), -1 if none."""
    h = 0
    for t in range(HONOR, N_KINDS):
        n = c[t]
        if n == 3:
            h |= 1
        elif n == 2:
            if t >= HAKU:
                h |= 8
            if t == win:
                h |= 4
        elif n != 0:
            return -1
    return h


@njit(cache=True)
def fast_read_wait(c, t, ms, single, rv, base_fails, feat, keys, feats, h_hand):
    """The standard-form judgment of ``read_win`` for a structural wait ``t`` (``c`` holds it),
    from the per-suit feature table ``feat`` (tb[8]; passed alone: a call passing the whole
    table tuple costs more than the judgment): (legal, fails, 夹胡, 飘胡), no readings
    enumerated.

    ``keys``/``feats``: the three suit keys of the hand before the win and their no-win
    feature masks, and ``h_hand`` its honors' state, computed once per hand: the winning
    tile's suit is read from the same table row (column = the tile's position). Hand states:
    bit 1 pung, 2 chow, 4 夹 shape, 8 dragon pair. Rules as ``judge_features``; tests check
    it against the enumeration.
    """
    gw = t // 9 if t < HONOR else 3
    states = 1
    for g in range(3):
        m = feat[keys[g], t - 9 * g] if g == gw else feats[g]
        if m == 0:
            return False, FAIL_INCOMPLETE, False, False
        states = _combine(states, m)
    h = _honor_state(c, t) if gw == 3 else h_hand
    if h < 0:
        return False, FAIL_INCOMPLETE, False, False
    best_legal = False
    best_fails = FAIL_INCOMPLETE
    best_jia = False
    best_piao = False
    best_value = -1
    for a in range(16):
        if not states >> a & 1:
            continue
        st = a | h
        fails, jia, piao, value = judge_features(
            st & 1 != 0, st & 2 != 0, st & 4 != 0, st & 8 != 0, ms, single, rv, base_fails
        )
        if fails == 0:
            if not best_legal or value > best_value:
                best_legal, best_fails, best_jia, best_piao, best_value = True, 0, jia, piao, value
        elif not best_legal and (
            best_fails & FAIL_INCOMPLETE or _popcount(fails) < _popcount(best_fails)
        ):
            best_fails = fails
    return best_legal, best_fails, best_jia and best_legal, best_piao and best_legal


@njit(cache=True)
def qidui_waits(c):
    """七对 wait of 13 concealed tiles: the one tile held an odd number of times."""
    odd = -1
    for t in range(N_KINDS):
        if c[t] % 2:
            if odd >= 0:
                return np.int64(0)
            odd = t
    if odd < 0:
        return np.int64(0)
    return np.int64(1) << odd


@njit(cache=True)
def with_qidui(m, c, ms, rv):
    """Structural waits ``m`` plus the 七对 wait when the variant allows it."""
    if rv[RV_QIDUI] and ms[MS_SETS] == 0:
        n = 0
        for t in range(N_KINDS):
            n += c[t]
        if n == 13:
            m |= qidui_waits(c)
    return m


@njit(cache=True)
def all_waits(c, ms, rv, tb):
    """Structural waits: standard form, plus 七对 when the variant allows it."""
    return with_qidui(structural_waits(c, tb), c, ms, rv)


@njit(cache=True, inline="always")
def _row_waits(feat, key, g):
    """Tiles of suit g that make the suit of ``key`` sets (+ pair): its nonzero win features."""
    m = 0
    for x in range(9):
        if feat[key, x]:
            m |= 1 << x
    return np.int64(m) << (9 * g)


@njit(cache=True, inline="always")
def _table_waits(a, b, keys, kz, tb):
    """``structural_waits`` from the feature table rows that judging the waits reads anyway,
    and the honors' tables: groups ``a``, ``b`` from ``wait_groups``."""
    # the honors first (small tables): most hands without a wait fail there
    exact = 8 if tb[4][kz] & (2 if a == 3 or b == 3 else 1) else 0
    wz = np.int64(0)
    if a == 3 and b < 0:
        wz = np.int64(tb[7][kz]) << 27  # the honors at 1 mod 3: the wait makes their pair
    elif a == 3 or b == 3:
        wz = np.int64(tb[6][kz]) << 27
    if not exact and not wz:
        return np.int64(0)
    feat = tb[8]
    for g in range(3):
        if feat[keys[g], 9]:  # the suit has a reading (sets, or sets + pair at 2 mod 3)
            exact |= 1 << g
    if not rest_is_sets(a, b, exact):
        return np.int64(0)
    wa = wz if a == 3 else _row_waits(feat, keys[a], a)
    wb = np.int64(0)
    if b == 3:
        wb = wz
    elif b >= 0:
        wb = _row_waits(feat, keys[b], b)
    return waits_from_groups(a, b, exact, wa, wb)


# judge_waits output columns
W_STRUCTURAL = 0
W_LEGAL = 1
W_FAILS = 2
W_JIAHU = 3
W_PIAO = 4
W_COLS = 5

# judge_waits' scratch (七对 variants only): a reading (RD_* layout), then read_win's scratch
WAITS_SCRATCH = RD_LEN + READ_SCRATCH


@njit(cache=True)
def held_four_waits(c, a, b, keys, kz, tb):
    """Structural waits on a tile the concealed part ``c`` already holds four times: c + t (a
    fifth copy) is sets + a pair. Such a wait has no live copy (RULES §4: reported, never
    tenpai).

    ``a``, ``b``: the groups a wait can lie in (``wait_groups``); ``keys``/``kz``: the groups'
    table keys (``c`` is only read). The per-suit tables stop at four copies, so the five
    copies of t are split by hand: a pung of t and the rest of its group sets (+ the pair), or
    (when t's group holds the pair) a pair of t and the rest of its group sets. The other
    groups must be as ``_table_waits`` requires; t's group is looked up again under the key of
    the same counts with 2 (or 3) copies of t."""
    exact = 8 if tb[4][kz] & (2 if a == 3 or b == 3 else 1) else 0
    feat = tb[8]
    for g in range(3):
        if feat[keys[g], 9]:
            exact |= 1 << g
    m = np.int64(0)
    if not rest_is_sets(a, b, exact):
        return m
    for g in (a, b):
        if g < 0 or (b >= 0 and not exact >> (b if g == a else a) & 1):
            continue  # (with two groups at 2 mod 3 the other one must hold the pair)
        key = kz if g == 3 else keys[g]
        table = tb[4] if g == 3 else tb[0]
        place = 1
        for t in range(9 * g, 9 * g + (7 if g == 3 else 9)):
            if c[t] == 4:
                # c + t less a pung of t (2 left): sets + the pair (one group) or sets
                ok = table[key - 2 * place] & (2 if b < 0 else 1) != 0
                if not ok and b < 0:
                    ok = table[key - place] & 1 != 0  # less a pair of t (3 left): sets
                if ok:
                    m |= np.int64(1) << t
            place *= 5
    return m


@njit(cache=True, inline="always")
def _fours_in(c, g):
    """Group g holds some tile four times (a wait on its fifth copy is possible)."""
    n = 0
    for t in range(9 * g, 9 * g + (7 if g == 3 else 9)):
        n += c[t] >> 2
    return n > 0


@njit(cache=True)
def _judge_held_four(c, m4, ms, rv, suits, yaojiu, out):
    """Judge the held-four waits ``m4`` into ``out`` (judge_waits' columns) by enumerating
    readings (the feature table has no fifth copy). Never live, so never 独听."""
    rd = np.empty(RD_LEN, np.int64)
    scratch = np.empty(READ_SCRATCH, np.int64)
    for t in range(N_KINDS):
        if m4 >> t & 1:
            c[t] += 1
            legal = _read_win(c, t, ms, False, rv, rd, scratch, _fails_with(t, suits, yaojiu, rv))
            c[t] -= 1
            out[t, W_STRUCTURAL] = 1
            out[t, W_LEGAL] = 1 if legal else 0
            out[t, W_FAILS] = rd[RD_FAILS]
            out[t, W_JIAHU] = rd[RD_JIAHU]
            out[t, W_PIAO] = rd[RD_PIAO]


@njit(cache=True)
def judge_waits(c, ms, own, rv, tb, out):
    """Judge every structural wait of the concealed tiles ``c`` (3k+1 of them, k <= 4).

    ``own`` counts the player's tiles, melds included: a wait all of whose copies are his own
    (in melds, or a concealed four of a kind) has no live tile and does not count for tenpai
    or 独听; it is still reported. Fills ``out[34, W_COLS]`` and returns the number of legal
    waits with a copy outside the player's hand (>0 = tenpai).
    """
    # 七对 is judged by enumerating readings (read_win), in scratch; else no scratch at all (an
    # empty view): an allocation costs about as much as the judgment. One call site: the callee
    # is inlined, and a second site compiled its whole body twice (11 s of each compile).
    scratch = np.empty(WAITS_SCRATCH, np.int64) if rv[RV_QIDUI] else out[0, :0]
    return _judge_waits(c, ms, own, rv, tb, out, scratch)


@njit(cache=True, inline="always")
def _fails_with(t, suits, yaojiu, rv):
    """Content failures (三色, 幺九) of the hand whose ``content_bits`` are suits/yaojiu, plus t."""
    t_suits = suits | (1 << (t // 9)) if t < HONOR else suits
    return fails_of_content(t_suits, yaojiu or is_yaojiu(t), rv)


@njit(cache=True, inline="always")  # (a call passing the table tuple costs ~100 ns)
def _judge_waits(c, ms, own, rv, tb, out, scratch):
    """judge_waits with a caller-owned ``scratch``: int64[WAITS_SCRATCH] under 七对, else
    unused (may be empty)."""
    for t in range(N_KINDS):
        for j in range(W_COLS):
            out[t, j] = 0
    a, b = wait_groups(c)
    if a < 0 and not rv[RV_QIDUI]:
        return 0  # no standard-form wait, and no 七对 to look for
    keys = (_key(c, 0, 9), _key(c, 9, 9), _key(c, 18, 9))
    kz = _key(c, 27, 7)
    m = _table_waits(a, b, keys, kz, tb) if a >= 0 else np.int64(0)
    m = with_qidui(m, c, ms, rv)
    m4 = np.int64(0)
    if a >= 0 and (_fours_in(c, a) or (b >= 0 and _fours_in(c, b))):  # rare
        m4 = held_four_waits(c, a, b, keys, kz, tb)
    if m == 0 and m4 == 0:
        return 0
    suits, yaojiu = content_bits(c, ms, rv)
    use_table = not rv[RV_QIDUI]  # 七对 readings are not in the feature table
    rd = scratch[:RD_LEN]
    read_scratch = scratch[RD_LEN:]
    feat = tb[8]
    feats = (feat[keys[0], 9], feat[keys[1], 9], feat[keys[2], 9])
    h_hand = _honor_state(c, -1)
    if m4:
        _judge_held_four(c, m4, ms, rv, suits, yaojiu, out)
    n_live = 0
    for t in range(N_KINDS):
        if not (m >> t & 1):
            continue
        fails = _fails_with(t, suits, yaojiu, rv)
        c[t] += 1
        if use_table:
            legal, fails, jia, piao = fast_read_wait(
                c, t, ms, False, rv, fails, feat, keys, feats, h_hand
            )
        else:
            legal = _read_win(c, t, ms, False, rv, rd, read_scratch, fails)
            fails, jia, piao = rd[RD_FAILS], rd[RD_JIAHU] == 1, rd[RD_PIAO] == 1
        c[t] -= 1
        out[t, W_STRUCTURAL] = 1
        out[t, W_LEGAL] = 1 if legal else 0
        out[t, W_FAILS] = fails
        out[t, W_JIAHU] = 1 if jia else 0
        out[t, W_PIAO] = 1 if piao else 0
        if legal and own[t] < 4:
            n_live += 1
    if rv[RV_JIAHU] == JIAHU_SHAPE_DUANYAOJIU and not yaojiu:
        _reread_duanyaojiu(c, m, m4, ms, rv, suits, yaojiu, use_table, feat, keys, feats, h_hand,
                           rd, read_scratch, out)  # fmt: skip
    elif n_live == 1 and uses_single_wait(rv):
        for t in range(N_KINDS):  # 独听: re-read the single live wait with the flag
            if out[t, W_LEGAL] and own[t] < 4:
                c[t] += 1
                if use_table:
                    # the content failures, not out's (0 once legal): a reading that is legal
                    # only by an exemption (大胡缺) must not let the others through
                    fails = _fails_with(t, suits, yaojiu, rv)
                    legal, fails, jia, piao = fast_read_wait(
                        c, t, ms, True, rv, fails, feat, keys, feats, h_hand
                    )
                else:
                    _read_win(c, t, ms, True, rv, rd, read_scratch, -1)
                    jia, piao = rd[RD_JIAHU] == 1, rd[RD_PIAO] == 1
                c[t] -= 1
                out[t, W_JIAHU] = 1 if jia else 0
                out[t, W_PIAO] = 1 if piao else 0
    return n_live


@njit(cache=True, inline="always")
def _reread_duanyaojiu(c, m, m4, ms, rv, suits, yaojiu, use_table, feat, keys, feats, h_hand,
                       rd, read_scratch, out):  # fmt: skip
    """jiahu shape_duanyaojiu: re-read every legal wait (``m``, and the held-four ``m4``) of a
    hand with no 幺九 (melds included) with the flag: each such win is on a 幺九 tile (C2),
    and 夹 (unless it is a 飘胡 that does not stack with 夹)."""
    if m4 or not use_table:  # readings enumerated: scratch of their own (``rd`` may be empty)
        rd = np.empty(RD_LEN, np.int64)
        read_scratch = np.empty(READ_SCRATCH, np.int64)
    for t in range(N_KINDS):
        if not ((m | m4) >> t & 1 and out[t, W_LEGAL]):
            continue
        c[t] += 1
        if use_table and not m4 >> t & 1:
            fails = _fails_with(t, suits, yaojiu, rv)
            legal, fails, jia, piao = fast_read_wait(
                c, t, ms, True, rv, fails, feat, keys, feats, h_hand
            )
        else:
            _read_win(c, t, ms, True, rv, rd, read_scratch, -1)
            jia, piao = rd[RD_JIAHU] == 1, rd[RD_PIAO] == 1
        c[t] -= 1
        out[t, W_JIAHU] = 1 if jia else 0
        out[t, W_PIAO] = 1 if piao else 0


@njit(cache=True)
def judge_win(c, win, ms, own, rv, tb, out):
    """Judge concealed tiles ``c`` (3k+1) + ``win``: the full reading, 独听 included (under
    jiahu shape_duanyaojiu, instead: the hand before the win holds no 幺九, melds included)."""
    single = False
    if rv[RV_JIAHU] == JIAHU_SHAPE_DUANYAOJIU:
        single = not content_bits(c, ms, rv)[1]
    elif uses_single_wait(rv):
        waits = np.zeros((N_KINDS, W_COLS), np.int64)
        single = judge_waits(c, ms, own, rv, tb, waits) == 1 and waits[win, W_LEGAL] == 1
    c[win] += 1
    legal = read_win(c, win, ms, single, rv, out)
    c[win] -= 1
    return legal


# look_rule codes: may a hand look at the bao (RULES.md §6)
LOOK_OK = 0
LOOK_NOT_TENPAI = 1
LOOK_DUANYAOJIU = 2


@njit(cache=True, inline="always")
def _holds_yaojiu(own):
    n = 0
    for t in range(N_KINDS):
        if own[t] and is_yaojiu(t):
            n += 1
    return n > 0


@njit(cache=True)
def may_declare(own, rv):
    """May a hand declare tenpai (报听): always, unless it holds no 幺九 (``own`` counts melds
    too) and the variant says duanyaojiu_may_declare: false (MIL 七-1: it may still win,
    undeclared, on a 幺九 tile)."""
    return rv[RV_DUANYAOJIU_MAY_DECLARE] != 0 or _holds_yaojiu(own)


@njit(cache=True)
def look_rule(tenpai, own, rv):
    """LOOK_OK if a hand may look at the bao: it is tenpai, and a hand with no 幺九 tile
    (``own`` counts melds too) neither is forbidden the bao (bao_forbidden_without_yaojiu) nor
    may not declare at all (duanyaojiu_may_declare: false); else LOOK_NOT_TENPAI or
    LOOK_DUANYAOJIU."""
    if not tenpai:
        return LOOK_NOT_TENPAI
    forbidden = rv[RV_BAO_FORBIDDEN_WITHOUT_YAOJIU] or not may_declare(own, rv)
    if forbidden and not _holds_yaojiu(own):
        return LOOK_DUANYAOJIU
    return LOOK_OK


@njit(cache=True)
def _live_structural_wait(c, own, tb):
    """Some standard-form structural wait of the 3k+1 tiles ``c`` has a copy outside the
    player's own tiles (``own``, melds included)."""
    m = structural_waits(c, tb)
    n = 0
    for t in range(N_KINDS):
        if m >> t & 1 and own[t] < 4:
            n += 1
    return n > 0


@njit(cache=True)
def live_shanten(c, own, tb):
    """Standard-form shanten of 3k+1 or 3k+2 concealed tiles ``c`` in which a wait held four
    times (every copy the player's own: ``own`` counts melds) is no wait (RULES §4): a 3k+1
    hand whose only structural waits are such is not tenpai but 1-shanten, and a 3k+2 hand
    none of whose discards leaves a live structural wait is 1-shanten, not 0. Otherwise the
    standard shanten (a complete 3k+2 hand is -1). The one tenpai rule of ``shanten``."""
    sh = shanten(c, tb)
    if sh != 0:
        return sh
    n = 0
    for t in range(N_KINDS):
        n += c[t]
    if n % 3 == 1:
        return 0 if _live_structural_wait(c, own, tb) else 1
    for d in range(N_KINDS):
        if c[d]:
            c[d] -= 1
            own[d] -= 1
            ok = shanten(c, tb) == 0 and _live_structural_wait(c, own, tb)
            c[d] += 1
            own[d] += 1
            if ok:
                return 0
    return 1


@njit(cache=True)
def live_useful_mask(c, own, tb):
    """Useful tiles (进张) under ``live_shanten``: bit t set when the player can draw t (a copy
    outside his own tiles) and it lowers the live shanten."""
    maybe_dead = False
    for t in range(N_KINDS):
        if own[t] > c[t] and own[t] >= 3:
            maybe_dead = True  # a meld tile that one draw can make a wait held four times
    if not maybe_dead:  # then the live shanten is the standard one, after any draw too
        return useful_mask(c, tb)
    sh = live_shanten(c, own, tb)
    m = np.int64(0)
    for t in range(N_KINDS):
        if own[t] < 4:
            c[t] += 1
            own[t] += 1
            if live_shanten(c, own, tb) < sh:
                m |= np.int64(1) << t
            c[t] -= 1
            own[t] -= 1
    return m


@njit(cache=True)
def judge_waits_rows(c, ms, own, rv, tb, out, n_live, look):
    """``judge_waits`` and ``look_rule`` over rows: c/own uint8[N, 34], ms int64[N, MS_LEN]
    -> out[N, 34, W_COLS], n_live[N], look[N]."""
    scratch = np.empty(WAITS_SCRATCH, np.int64)
    for r in range(c.shape[0]):
        n_live[r] = _judge_waits(c[r], ms[r], own[r], rv, tb, out[r], scratch)
        look[r] = look_rule(n_live[r] > 0, own[r], rv)
