"""The wall: shuffling, the deal, draws from the head and the tail, and where the wall ends.

The wall model: 136 tiles in draw order. Tiles 0-12 go to the dealer, 13-25 to the next seat
counter-clockwise, 26-38, 39-51 to the others, 52 to the dealer (his 14th); draws take the head
(53, 54, ...), replacement draws (kong, 补, 旋风杠) the tail (135, 134, ...). The wall is shuffled
uniformly, so where the dice break it is statistically irrelevant and not modelled; the bao dice
are (``bao``). A tile the draws must step over (the bao, which stays in the wall) is
"stranded": it stays in the wall and counts as left. A bao tile taken out of the wall for a kong
(bao_kong, 用宝) leaves a hole: the draws step over it, and it is not left (``take_out``).

Random numbers: splitmix64 on an explicit uint64 state array seeded by the caller.
"""

import numpy as np

from ..jit import njit
from ..layout import N_SEATS, RV_WALL_END
from .layout import (
    G_BAO,
    G_BAO_POS,
    G_DRAWN,
    G_HEAD,
    G_HOLE,
    G_HQ,
    G_KONGS,
    G_LAID,
    G_NHOLE,
    G_NSTR,
    G_STR,
    G_TAIL,
    G_TQ,
    N_DICE,
    N_HOLE,
    N_STR,
    N_WALL,
    TP_DEAD_STACKS,
    WALL_WIN_ONLY_FOUR,
    WQ_HEAD,
    WQ_TAIL,
)


# ------------------------------------------------------------------ random numbers (splitmix64)
@njit(cache=True)
def rng_next(st):
    st[0] += np.uint64(0x9E3779B97F4A7C15)
    z = st[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def rng_below(st, n):
    return np.int64(rng_next(st) % np.uint64(n))


@njit(cache=True)
def shuffle_wall(st, wall):
    """A uniformly shuffled wall of tile kinds (Fisher-Yates)."""
    for i in range(N_WALL):
        wall[i] = i // 4
    for i in range(N_WALL - 1, 0, -1):
        j = rng_below(st, i + 1)
        tmp = wall[i]
        wall[i] = wall[j]
        wall[j] = tmp


@njit(cache=True)
def deal_hand(rs, wall, dice):
    """Shuffle the wall and pre-roll the hand's dice from the random state ``rs``."""
    shuffle_wall(rs, wall)
    for i in range(N_DICE):
        dice[i] = 1 + rng_below(rs, 6)


# ------------------------------------------------------------------ the deal and the draws
@njit(cache=True)
def deal(wall, dealer, conc, g):
    """13 tiles each counter-clockwise from the dealer, then the dealer's 14th (wall[52])."""
    for k in range(4):
        s = (dealer + k) % N_SEATS
        for i in range(13):
            conc[s, wall[13 * k + i]] += 1
    conc[dealer, wall[52]] += 1
    g[G_HEAD] = 53


@njit(cache=True)
def reserve_stacks(g, tp, rv):
    """RULES §8: 7 stacks never drawn; 8 with two kongs, +1 per further kong. Under
    wall_end win_only_four (MIL 2024) the 7 stacks whatever the number of kongs. No dead wall
    (dead_wall_stacks 0): none, whatever the kongs (the growth is the dead wall's)."""
    if rv[RV_WALL_END] == WALL_WIN_ONLY_FOUR or tp[TP_DEAD_STACKS] == 0:
        return tp[TP_DEAD_STACKS]
    k = g[G_KONGS]
    return tp[TP_DEAD_STACKS] + (k - 1 if k >= 2 else 0)


@njit(cache=True)
def tail_top(g):
    """Wall position of the top tile of the first stack counted from the tail.

    Stacks are the position pairs (2k, 2k+1); a draw from the tail takes a stack's top (2k+1)
    first. When it has, the lower tile left (G_TAIL even) is a loose single tile: not a stack
    (RULES §8), so counting starts below it. The bao, once the tail draws step over it, is out
    of the count too (G_TAIL is already below it).
    """
    t = g[G_TAIL]
    return t if t % 2 == 1 else t - 1


@njit(cache=True)
def reserve_start(g, tp, rv):
    """The first wall position of the dead wall: the reserve stacks counted from the tail (a
    loose tile at the tail, beyond them, stays with the dead wall; with no dead wall,
    dead_wall_stacks 0, it is drawn too: every tile is)."""
    n = reserve_stacks(g, tp, rv)
    if n == 0:
        return g[G_TAIL] + 1
    return tail_top(g) + 1 - 2 * n


@njit(cache=True)
def is_hole(g, pos):
    """The wall position ``pos`` is empty: its tile was taken out as the bao (``take_out``)."""
    for i in range(g[G_NHOLE]):
        if g[G_HOLE + i] == pos:
            return True
    return False


@njit(cache=True)
def next_head(g):
    """The wall position the next draw from the head takes (stepping over the bao, and over
    holes)."""
    h = g[G_HEAD]
    while h == g[G_BAO_POS] or is_hole(g, h):
        h += 1
    return h


@njit(cache=True)
def last_draw(g, tp, rv):
    """The wall position of the one tile a draw can still take, or -1 (none, or more than
    one): a bao rolled onto it would leave no draw, so a roll steps over it (``find_bao``)."""
    h = next_head(g)
    end = reserve_start(g, tp, rv)
    if h >= end:
        return -1
    h2 = h + 1
    while h2 == g[G_BAO_POS] or is_hole(g, h2):
        h2 += 1
    return h if h2 >= end else -1


@njit(cache=True)
def can_draw(g, tp, rv):
    """May another tile be drawn, or is the wall at its end: the next tile from the head
    (stepping over the bao) must lie before the dead wall. A loose tile at the head is drawn as
    usual, so with no kong a hand is drawn with exactly 14 tiles left (the bao aside, when the
    draws stepped over it)."""
    return next_head(g) < reserve_start(g, tp, rv)


@njit(cache=True)
def win_only_draw(g, tp, rv):
    """Under wall_end win_only_four (MIL 2024): the next draw is one of the last four, which
    may only win (no discard, claim or kong): 9 stacks or fewer are left, the dead wall's 7
    included, counted as ``can_draw`` counts (a loose tile at the tail is not a stack); so
    the four tiles before the dead wall."""
    if rv[RV_WALL_END] != WALL_WIN_ONLY_FOUR:
        return False
    return next_head(g) >= reserve_start(g, tp, rv) - 4


@njit(cache=True)
def _strand(g, pos):
    """A draw steps over the bao, which stays in the wall."""
    n = g[G_NSTR]
    if n < N_STR:
        g[G_STR + n] = pos
    g[G_NSTR] = n + 1


@njit(cache=True)
def draw_head(wall, g):
    """The next tile from the head (stepping over the bao, and over holes)."""
    while g[G_HEAD] == g[G_BAO_POS] or is_hole(g, g[G_HEAD]):
        if g[G_HEAD] == g[G_BAO_POS]:
            _strand(g, g[G_HEAD])
        g[G_HEAD] += 1
    t = wall[g[G_HEAD]]
    if t < 0:  # an unknown wall (a hand-written record): the record's next head draw
        t = _from_record(wall, g, WQ_HEAD, G_HQ, g[G_HEAD])
    g[G_HEAD] += 1
    return t


@njit(cache=True)
def draw_tail(wall, g):
    """The next tile from the tail: a replacement draw (stepping over the bao, and over
    holes)."""
    while g[G_TAIL] == g[G_BAO_POS] or is_hole(g, g[G_TAIL]):
        if g[G_TAIL] == g[G_BAO_POS]:
            _strand(g, g[G_TAIL])
        g[G_TAIL] -= 1
    t = wall[g[G_TAIL]]
    if t < 0:
        t = _from_record(wall, g, WQ_TAIL, G_TQ, g[G_TAIL])
    g[G_TAIL] -= 1
    return t


@njit(cache=True)
def _from_record(wall, g, q, slot, pos):
    """The referee on a record without a wall: the draw takes the record's next tile of its
    kind (head or tail), which is then the wall's at ``pos``; past the record's draws, a tile
    the record's events cannot match (so the hand stops there)."""
    i = g[slot]
    t = wall[q + i] if i < N_WALL else -1
    g[slot] = i + 1
    if t < 0:
        t = 0
    wall[pos] = t
    return t


@njit(cache=True)
def take(wall, g, conc, taken, s, from_tail):
    """Seat s draws the next tile (from the tail: a replacement draw); it is his G_DRAWN, and
    ``taken`` remembers it was drawn, not dealt."""
    t = draw_tail(wall, g) if from_tail else draw_head(wall, g)
    conc[s, t] += 1
    taken[s, t] += 1
    g[G_DRAWN] = t
    g[G_LAID] = 0
    return t


@njit(cache=True)
def head_draws_left(g, tp, rv):
    """The draws from the head still to come if no further kong is made: the positions from
    the next one up to the dead wall (``can_draw``'s end), the bao and holes stepped over."""
    n = 0
    for pos in range(g[G_HEAD], reserve_start(g, tp, rv)):
        if pos != g[G_BAO_POS] and not is_hole(g, pos):
            n += 1
    return n


@njit(cache=True)
def held_back(g):
    """Tiles left in the wall because they were the bao: the draws stepped over them, or the
    wall ended at one (the next tile from the head is the bao)."""
    return g[G_NSTR] + (1 if g[G_BAO_POS] >= 0 and g[G_BAO_POS] == g[G_HEAD] else 0)


@njit(cache=True)
def wall_left(g):
    """Tiles still in the wall (stranded ones included, holes not)."""
    n = g[G_TAIL] - g[G_HEAD] + 1 + g[G_NSTR]
    for i in range(g[G_NHOLE]):
        if g[G_HEAD] <= g[G_HOLE + i] <= g[G_TAIL]:
            n -= 1
    return n


@njit(cache=True)
def bao_kong_room(g, tp, rv):
    """May the bao tile be taken out of the wall for a kong (bao_kong, 用宝): besides it, at
    least two tiles are left (the kong's replacement draw, whatever tile the new bao is), and
    without it the wall is not at its end (the same end as any kong's, ``can_draw``)."""
    pos = g[G_BAO_POS]
    if pos < 0 or g[G_NHOLE] >= N_HOLE or wall_left(g) - g[G_NSTR] - 1 < 2:
        return False
    g[G_HOLE + g[G_NHOLE]] = pos
    g[G_NHOLE] += 1
    g[G_BAO_POS] = -1
    ok = can_draw(g, tp, rv)
    g[G_BAO_POS] = pos
    g[G_NHOLE] -= 1
    return ok


@njit(cache=True)
def take_out(wall, g, conc, taken, s):
    """Seat s takes the bao tile out of the wall (bao_kong, 用宝): its place is a hole the draws
    step over; there is no bao until the next roll. Returns the tile."""
    pos = g[G_BAO_POS]
    t = wall[pos]
    g[G_HOLE + g[G_NHOLE]] = pos
    g[G_NHOLE] += 1
    g[G_BAO_POS] = -1
    g[G_BAO] = -1
    conc[s, t] += 1
    taken[s, t] += 1
    return t
