"""What a bracket of declared tiles forms (RULES.md §1, §7), as kernels: one place for the meld
rules, called by ``tiles.parse_hand`` (and by any engine that forms melds).

``classify_bracket`` takes the tile counts of one open bracket (``[...]``) and the variant's
meld options and returns the meld kind and its 补 count:

- A bracket of identical tiles is always a pung (3) or an open kong (4) — ``[1s1s1s]`` too.
- Three consecutive suited tiles are a chow.
- Otherwise a special kong. The tiles that are not 幺鸡 (1s) decide its kind (when 1s is a
  wildcard; else every tile does): all winds -> 旋风杠; honors with a dragon (only dragons,
  unless ``xi_any``) -> 喜杠; 1m/1p/1s -> 幺蛋; 9m/9p/9s -> 九蛋. Its base is its distinct
  members: four winds (three with ``sanfeng``: 三风蛋), three dragons, 1m 1p 1s, 9m 9p 9s.
  Under ``xiaoji`` one (小鸡飞蛋) a single 1s may stand in for one missing member of a
  旋风杠/喜杠/九蛋 (or, with every member there, be a 补 tile); under ``xiaoji`` any the 1s
  tiles stand in for any missing members, of 幺蛋 too, and the rest are 补 tiles.
- 补 tiles = tiles - base, base = 4 for a 旋风杠 without ``sanfeng``, else 3: under 三风蛋 a
  4-wind ``[1234z]`` is a 3-wind kong plus one 补, and pays as ``[1231z]``.
"""

from .jit import njit
from .layout import (
    CHUN,
    EAST,
    FIRST_SPECIAL,
    HAKU,
    HONOR,
    MELD_ANKONG,
    MELD_CHOW,
    MELD_JIUDAN,
    MELD_KONG,
    MELD_PUNG,
    MELD_XI,
    MELD_XUANFENG,
    MELD_YAODAN,
    MS_ANKONGS,
    MS_CHOWS,
    MS_CLAIMED,
    MS_LEN,
    MS_OPEN_KONGS,
    MS_PUNGS,
    MS_SETS,
    MS_SPECIALS,
    MS_SUITS,
    MS_YAOJIU,
    N_KINDS,
    NORTH,
    ONE_M,
    ONE_P,
    ONE_S,
    SUIT_XIAOJI,
    XIAOJI_ANY,
    XIAOJI_OFF,
    XIAOJI_ONE,
)

INVALID = -1


@njit(cache=True)
def special_base(kind, sanfeng):
    """Tiles of a special kong's base (the rest are 补 tiles): 4 for a 旋风杠 without 三风蛋."""
    if kind == MELD_XUANFENG and not sanfeng:
        return 4
    return 3


@njit(cache=True, inline="always")
def _has(cnt, t):
    return 1 if cnt[t] > 0 else 0


@njit(cache=True)
def _special_kind(cnt, wild):
    """The special kong kind the non-wildcard tiles point to (INVALID if none); ``wild``: the
    1s tiles are wildcards and left out."""
    winds = 0
    dragons = 0
    yao = 0
    jiu = 0
    other = 0
    for t in range(N_KINDS):
        n = int(cnt[t])
        if n == 0 or (wild and t == ONE_S):
            continue
        if EAST <= t <= NORTH:
            winds += n
        elif HAKU <= t <= CHUN:
            dragons += n
        elif t == ONE_M or t == ONE_P or t == ONE_S:
            yao += n
        elif t < HONOR and t % 9 == 8:
            jiu += n
        else:
            other += n
    if other:
        return INVALID
    if winds and not dragons and not yao and not jiu:
        return MELD_XUANFENG
    if dragons and not yao and not jiu:
        return MELD_XI  # (winds beside dragons: only as 补 tiles under xi_any, checked later)
    if yao and not winds and not dragons and not jiu:
        return MELD_YAODAN
    if jiu and not winds and not dragons and not yao:
        return MELD_JIUDAN
    return INVALID


@njit(cache=True)
def classify_bracket(cnt, sanfeng, xiaoji, xi_any):
    """(meld kind, 补 tiles) of an open bracket with tile counts ``cnt`` (int[34]); kind
    INVALID (-1) when the tiles form no meld. ``sanfeng``: 三风蛋; ``xiaoji``: XIAOJI_OFF | ONE |
    ANY; ``xi_any``: a 喜杠 takes any honor as 补 tiles."""
    n = 0
    distinct = 0
    lo = -1
    for t in range(N_KINDS):
        if cnt[t]:
            n += int(cnt[t])
            distinct += 1
            if lo < 0:
                lo = t
    if distinct == 1:
        if n == 3:
            return MELD_PUNG, 0
        if n == 4:
            return MELD_KONG, 0
        return INVALID, 0
    if n < 3:
        return INVALID, 0
    if (
        n == 3
        and distinct == 3
        and lo < HONOR
        and lo % 9 <= 6
        and cnt[lo + 1] == 1
        and cnt[lo + 2] == 1
    ):
        return MELD_CHOW, 0
    wild = xiaoji != XIAOJI_OFF and cnt[ONE_S] > 0
    kind = _special_kind(cnt, wild)
    if kind == INVALID and wild:
        kind = _special_kind(cnt, False)  # 1s as itself: only 幺蛋 (1m 1p 1s) is left
    if kind == INVALID:
        return INVALID, 0
    w = int(cnt[ONE_S])
    if kind == MELD_YAODAN:
        present = _has(cnt, ONE_M) + _has(cnt, ONE_P) + _has(cnt, ONE_S)
        missing = 3 - present
        if missing > 0 and not (xiaoji == XIAOJI_ANY and w - 1 >= missing):
            return INVALID, 0  # (extra 1s beyond the member itself stand in under `any`)
        return kind, n - 3
    if kind == MELD_XUANFENG:
        present = 0
        for t in range(EAST, NORTH + 1):
            present += _has(cnt, t)
    elif kind == MELD_XI:
        present = _has(cnt, HAKU) + _has(cnt, HAKU + 1) + _has(cnt, CHUN)
        if not xi_any:
            for t in range(EAST, NORTH + 1):
                if cnt[t]:
                    return INVALID, 0
    else:
        present = _has(cnt, ONE_M + 8) + _has(cnt, ONE_P + 8) + _has(cnt, ONE_S + 8)
    base = special_base(kind, sanfeng)
    missing = base - present
    if missing < 0:
        missing = 0
    if xiaoji == XIAOJI_OFF:
        if w or missing:
            return INVALID, 0
    elif xiaoji == XIAOJI_ONE:
        if w > 1 or missing > w:
            return INVALID, 0
    elif missing > w:
        return INVALID, 0
    return kind, n - base


@njit(cache=True)
def classify_sanyaoji(cnt, sanfeng):
    """(meld kind, 补 tiles) of a bracket marked 三幺鸡 (``[*111s]``, with ``sanyaoji``): three
    一条 (1s) laid as a special kong, standing in for its members. The tiles beyond those three
    1s decide its kind: none (or more 1m/1p/1s) -> 幺蛋; winds -> 旋风杠; dragons -> 喜杠;
    9m/9p/9s -> 九蛋; its 补 tiles are those beyond its base, as for any special kong
    (``special_base``: ``[*111s1z]`` is a whole 旋风杠, one more wind a 补 tile; under 三风蛋 the
    1z is already a 补). INVALID without three 1s, or with a mix."""
    if cnt[ONE_S] < 3:
        return INVALID, 0
    n = 0
    for t in range(N_KINDS):
        n += int(cnt[t])
    cnt[ONE_S] -= 3
    kind = MELD_YAODAN if n == 3 else _special_kind(cnt, False)
    cnt[ONE_S] += 3
    if kind == INVALID:
        return INVALID, 0
    bu = n - special_base(kind, sanfeng)
    return kind, bu if bu > 0 else 0


@njit(cache=True)
def first_repeated_special(kinds, n):
    """Index of the first meld whose special kong kind an earlier meld already has (-1 if
    none): with ``one_special_kong_per_kind`` a player has at most one of each kind, and later
    members are 补 tiles of the first."""
    for i in range(n):
        if kinds[i] < FIRST_SPECIAL:
            continue
        for j in range(i):
            if kinds[j] == kinds[i]:
                return i
    return -1


@njit(cache=True)
def add_to_summary(ms, kind, tiles, n):
    """Add one declared meld (``kind``, its ``n`` tiles) to the MS_* vector ``ms``: the one rule
    for what a meld tells the judgment (``meld_summary``, and the table as it lays melds).

    三色全 (RULES C1): a 幺蛋/九蛋 supplies all three suits, whatever 幺鸡 stands in for its
    members (it is its three members). A 1s in a 旋风杠/喜杠 (standing in, or a 补
    tile) sets SUIT_XIAOJI, a 条 only under xiaoji_is_suit_tile (``judge.meld_suits``)."""
    ms[MS_SETS] += 1
    for k in range(n):
        t = tiles[k]
        if t < HONOR:
            if (kind == MELD_XUANFENG or kind == MELD_XI) and t == ONE_S:
                ms[MS_SUITS] |= SUIT_XIAOJI
            else:
                ms[MS_SUITS] |= 1 << (t // 9)
        if t >= HONOR or t % 9 == 0 or t % 9 == 8:  # 幺九 (judge.is_yaojiu)
            ms[MS_YAOJIU] = 1
    if kind == MELD_YAODAN or kind == MELD_JIUDAN:
        ms[MS_SUITS] |= 7
    if kind == MELD_CHOW:
        ms[MS_CHOWS] += 1
    elif kind >= FIRST_SPECIAL:
        ms[MS_SPECIALS] += 1
    else:
        ms[MS_PUNGS] += 1
    if kind == MELD_CHOW or kind == MELD_PUNG or kind == MELD_KONG:
        ms[MS_CLAIMED] += 1
        if kind == MELD_KONG:
            ms[MS_OPEN_KONGS] += 1
    elif kind == MELD_ANKONG and n == 4:  # (a 大蛋 laid from the deal, three tiles, lies face up)
        ms[MS_ANKONGS] += 1


@njit(cache=True)
def meld_summary(kinds, tiles, lens, n, ms):
    """The MS_* vector of ``n`` declared melds (kinds, tile rows, tile counts) into ``ms``: the
    kernel form of ``tiles.Hand.meld_summary``."""
    for k in range(MS_LEN):
        ms[k] = 0
    for m in range(n):
        add_to_summary(ms, kinds[m], tiles[m], lens[m])
