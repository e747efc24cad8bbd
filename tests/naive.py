"""A slow, readable reference for hand analysis, written from RULES.md §2-§4.

Nothing here calls or copies the Numba kernels: decompositions are found by plain recursion,
waits by trying all 34 tiles, shanten by comparing with every complete target hand. The fast
code in ``ccmj_cli`` is tested against these functions.

Vocabulary
- ``c``: a list (or array) of 34 tile counts, index order 1-9m, 1-9p, 1-9s, 1z-7z.
- ``melds``: the declared melds of a ``tiles.Hand`` (``Meld.name`` and ``Meld.tiles`` only).
- ``opts``: the variant options, a mapping such as ``load_variant().options``.
"""

from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement

import numpy as np

N = 34
HONOR = 27
DRAGONS = (31, 32, 33)  # 白 发 中
# the order of the stable reason codes (RULES.md §3: C1, C2, C3, C4)
REASON_ORDER = ("incomplete", "missing_suit", "no_yaojiu", "no_pung", "single_tile_not_piao")
SPECIAL = ("xuanfeng", "xi", "yaodan", "jiudan")


def is_yaojiu(t: int) -> bool:
    """Terminals (1, 9 of a suit) and every honor (RULES.md §1)."""
    return t >= HONOR or t % 9 in (0, 8)


def suit(t: int) -> int | None:
    return None if t >= HONOR else t // 9


# --------------------------------------------------------------------------- decompositions


def _sets(c: list[int], k: int) -> list[tuple]:
    """Every way to split counts ``c`` into exactly ``k`` sets (pungs and chows), as sorted
    tuples of ("pung"|"chow", first tile). The lowest tile left must start a set."""
    if k == 0:
        return [()] if not any(c) else []
    lo = next((t for t in range(N) if c[t]), None)
    if lo is None:
        return []
    out = []
    if c[lo] >= 3:
        c[lo] -= 3
        out += [(("pung", lo), *rest) for rest in _sets(c, k - 1)]
        c[lo] += 3
    if lo < HONOR and lo % 9 <= 6 and c[lo + 1] and c[lo + 2]:
        for t in (lo, lo + 1, lo + 2):
            c[t] -= 1
        out += [(("chow", lo), *rest) for rest in _sets(c, k - 1)]
        for t in (lo, lo + 1, lo + 2):
            c[t] += 1
    return out


def decompositions(c) -> list[tuple[int, tuple]]:
    """All readings (pair, sets) of a 3k+2-tile concealed part as k sets + a pair."""
    c = [int(x) for x in c]
    n = sum(c)
    if n % 3 != 2:
        return []
    k = (n - 2) // 3
    out = []
    for pair in range(N):
        if c[pair] >= 2:
            c[pair] -= 2
            out += [(pair, sets) for sets in _sets(c, k)]
            c[pair] += 2
    return out


def is_complete(c) -> bool:
    return bool(decompositions(c))


def structural_waits(c, fifth: bool = False) -> list[int]:
    """Tiles t such that c + t is k sets + a pair: with fewer than 4 copies already concealed,
    or (``fifth``) also a tile held four times, whose fifth copy no one can draw (RULES §4
    reports such a wait, with no live copy)."""
    out = []
    for t in range(N):
        if c[t] < 4 or fifth:
            d = [int(x) for x in c]
            d[t] += 1
            if is_complete(d):
                out.append(t)
    return out


def qidui_complete(c) -> bool:
    """Seven pairs: 14 tiles, every kind held an even number of times (a quad is two pairs)."""
    return sum(c) == 14 and all(x % 2 == 0 for x in c)


# --------------------------------------------------------------------------- the judgment


@dataclass(frozen=True)
class Verdict:
    """The judgment of one complete hand + winning tile.

    ``flags``: the (jiahu, piao, qidui) triples of the best-scoring legal readings (the kernel
    may report any of them when several score the same); empty when not legal.
    ``reasons``: the failure lists (in REASON_ORDER) of the readings with fewest failures.
    ``best``: (reading, flags, reasons) of each of those best readings, where a reading is
    ("qidui",) or (pair, sorted sets as ("pung"|"chow", first tile)).
    """

    legal: bool
    reasons: frozenset
    flags: frozenset
    menqing: bool
    best: frozenset = frozenset()


def melds_info(melds, opts) -> dict:
    """What the legality rules need to know about the declared melds (RULES.md §2-§3)."""
    names = [m.name for m in melds]
    tiles = [t for m in melds for t in m.tiles]
    # 三色全 (C1): a 幺蛋/九蛋 is its three members, so it supplies all three suits whatever
    # 幺鸡 stands in for (issue 19); a 1s in a 旋风杠/喜杠 is a 条 only under xiaoji_is_suit_tile
    suits = set()
    for m in melds:
        if m.name in ("yaodan", "jiudan"):
            suits |= {0, 1, 2}
        for t in m.tiles:
            if t == 18 and m.name in ("xuanfeng", "xi") and not opts["xiaoji_is_suit_tile"]:
                continue
            if suit(t) is not None:
                suits.add(suit(t))
    return {
        "n": len(melds),
        "tiles": tiles,
        "suits": suits,
        "open_kongs": names.count("kong"),
        "chows": names.count("chow"),
        "pungs": sum(n in ("pung", "kong", "concealed_kong") for n in names),
        "specials": sum(n in SPECIAL for n in names),
        "claimed": sum(n in ("chow", "pung", "kong") for n in names),
        # concealed kongs held face down: a 大蛋 laid from the deal, (777z), is laid face up
        "ankongs": sum(m.name == "concealed_kong" and len(m.tiles) == 4 for m in melds),
    }


def menqing(mi, opts) -> bool:
    """门清: no claimed meld; a special kong breaks it when special_kong_breaks_menqing; an open
    kong (明杠, 补杠) is no claim for it under open_kong_breaks_menqing: false."""
    claimed = mi["claimed"] - (0 if opts["open_kong_breaks_menqing"] else mi["open_kongs"])
    if claimed:
        return False
    return not (mi["specials"] and opts["special_kong_breaks_menqing"])


def _content_fails(concealed, mi, opts) -> set:
    """C1 三色全 and C2 幺九 on every tile of the final hand: the ``concealed`` tiles and the
    melds (``mi`` = melds_info: the suits they supply, their tiles)."""
    fails = set()
    suits = ({suit(t) for t in concealed} - {None}) | mi["suits"]
    all_tiles = list(concealed) + mi["tiles"]
    if len(suits) < 3 and not (opts["quemen"] and len(suits) == 2):
        fails.add("missing_suit")
    if not any(is_yaojiu(t) for t in all_tiles):
        fails.add("no_yaojiu")
    return fails


def _jia_shape(pair, sets, win) -> bool:
    """坎张 / 边张 / 单调: some copy of ``win`` is the middle of a chow, the 3 of 1-2, the 7 of
    8-9, or completes the pair."""
    if pair == win:
        return True
    for kind, t in sets:
        if kind != "chow":
            continue
        if win == t + 1:
            return True
        if win == t + 2 and t % 9 == 0:
            return True
        if win == t and t % 9 == 6:
            return True
    return False


def judge(c14, melds, win: int, opts, single: bool = False) -> Verdict:
    """Judge the complete concealed part ``c14`` (winning tile included) with ``melds``.

    ``single``: the hand before the win had exactly one legal wait with a live copy (独听).
    """
    mi = melds_info(melds, opts)
    mq = menqing(mi, opts)
    c = [int(x) for x in c14]
    concealed = [t for t in range(N) for _ in range(c[t])]
    k = 4 - mi["n"]
    n = sum(c)
    fan = opts["fan"]
    readings = []  # (fails, jia, piao, qidui, value, reading)
    if n == 3 * k + 2:
        for pair, sets in decompositions(c):
            fails = _content_fails(concealed, mi, opts)
            chow_inside = any(kind == "chow" for kind, _ in sets)
            piao = (
                not chow_inside
                and mi["chows"] == 0
                and (mi["specials"] == 0 or opts["special_kong_is_pung"])
            )
            if piao and opts["piao_exempt"]:
                fails -= {"missing_suit", "no_yaojiu"}
            has_pung = (
                any(kind == "pung" for kind, _ in sets)
                or mi["pungs"] > 0
                or mi["specials"] > 0
                or (pair in DRAGONS and opts["dragon_pair_is_pung"])
            )
            if not has_pung:
                fails.add("no_pung")
            # 手把一 (C4): four declared sets and one concealed tile; under
            # shoubayi_ankong_concealed (MIL 五-4) a concealed kong's tiles are concealed tiles,
            # so it is not one of the four
            declared = mi["n"] - (mi["ankongs"] if opts["shoubayi_ankong_concealed"] else 0)
            if declared == 4 and not piao:
                fails.add("single_tile_not_piao")
            shape = _jia_shape(pair, sets, win)
            mode = opts["jiahu"]
            jia = {"any": shape or single, "shape": shape, "single_wait": shape and single,
                   "shape_duanyaojiu": shape or single}[mode]  # fmt: skip
            if piao and not opts["piao_stacks_with_jia"]:
                jia = False
            value = (fan["piao"] if piao else 0) + (fan["jiahu"] if jia else 0)
            readings.append((fails, jia, piao, False, value, (pair, tuple(sorted(sets)))))
    if opts["qidui"] and mi["n"] == 0 and qidui_complete(c):
        # 七对 (RULES.md §9, off by default): C1 and C2 apply; there is no set, so C3 (刻) does
        # not; it scores 七对 (+ 豪华 with a quad) and not 夹胡 (seed 004: 七对 "不计单钓")
        # unless qidui_jiahu: then the win is a 单调, 夹 as RULES §4 reads for any pair.
        value = fan["qidui"] + (fan["haohua"] if haohua(c, win, opts) else 0)
        mode = opts["jiahu"]
        jia = opts["qidui_jiahu"] and (mode != "single_wait" or single)
        value += fan["jiahu"] if jia else 0
        readings.append((_content_fails(concealed, mi, opts), jia, False, True, value, ("qidui",)))
    if not readings:
        return Verdict(False, frozenset({("incomplete",)}), frozenset(), mq)
    legal = [r for r in readings if not r[0]]
    if legal:
        best = max(r[4] for r in legal)
        top = [r for r in legal if r[4] == best]
        flags = frozenset((r[1], r[2], r[3]) for r in top)
        found = frozenset((r[5], (r[1], r[2], r[3]), ()) for r in top)
        return Verdict(True, frozenset({()}), flags, mq, found)
    fewest = min(len(r[0]) for r in readings)
    top = [r for r in readings if len(r[0]) == fewest]

    def codes(fails):
        return tuple(code for code in REASON_ORDER if code in fails)

    reasons = frozenset(codes(r[0]) for r in top)
    found = frozenset((r[5], (False, False, False), codes(r[0])) for r in top)
    return Verdict(False, reasons, frozenset(), mq, found)


def haohua(c14, win: int, opts) -> bool:
    """豪华七对 of a complete 七对 (``c14``, the winning tile included): it holds four of a kind
    (haohua any_quad), or the winning tile is the fourth (wait_completes_quad: the wait was a
    pair already held; a four held before the win is plain 七对)."""
    if opts["haohua"] == "wait_completes_quad":
        return c14[win] == 4
    return 4 in list(c14)


def own_counts(hand) -> list[int]:
    own = [int(x) for x in hand.concealed]
    for m in hand.melds:
        for t in m.tiles:
            own[t] += 1
    return own


def all_structural_waits(hand, opts) -> list[int]:
    """Standard-form waits (a fifth copy of a tile held four times included), plus the 七对
    wait when the variant allows 七对 (no melds)."""
    c = [int(x) for x in hand.concealed]
    ws = set(structural_waits(c, fifth=True))
    if opts["qidui"] and not hand.melds and sum(c) == 13:
        for t in range(N):
            if c[t] < 4:
                d = list(c)
                d[t] += 1
                if qidui_complete(d):
                    ws.add(t)
    return sorted(ws)


@dataclass(frozen=True)
class WaitsAnswer:
    verdicts: dict  # tile -> Verdict
    live_legal: list  # legal waits with a copy outside the player's hand and melds
    tenpai: bool
    can_look_bao: bool


def waits(hand, opts) -> WaitsAnswer:
    """Every structural wait judged (RULES.md §4); 独听 when exactly one live legal wait."""
    own = own_counts(hand)
    c = [int(x) for x in hand.concealed]

    def verdict(t, single):
        d = list(c)
        d[t] += 1
        return judge(d, hand.melds, t, opts, single)

    ws = all_structural_waits(hand, opts)
    dyj = duanyaojiu_flag(hand, opts)
    first = {t: verdict(t, dyj) for t in ws}
    live_legal = [t for t in ws if first[t].legal and own[t] < 4]
    if len(live_legal) == 1 and opts["jiahu"] in ("any", "single_wait"):
        first[live_legal[0]] = verdict(live_legal[0], True)
    tenpai = bool(live_legal)
    yaojiu = any(own[t] and is_yaojiu(t) for t in range(N))
    # RULES §6: a 断幺九 hand may not look when bao_forbidden_without_yaojiu, nor when it may
    # not declare at all (duanyaojiu_may_declare false, MIL 七-1)
    forbidden = opts["bao_forbidden_without_yaojiu"] or not may_declare(hand, opts)
    can_look = tenpai and (yaojiu or not forbidden)
    return WaitsAnswer(first, live_legal, tenpai, can_look)


def may_declare(hand, opts) -> bool:
    """May the hand declare tenpai (报听): not a hand with no 幺九 (melds counted) under
    duanyaojiu_may_declare false."""
    own = own_counts(hand)
    return opts["duanyaojiu_may_declare"] or any(own[t] and is_yaojiu(t) for t in range(N))


def duanyaojiu_flag(hand, opts) -> bool:
    """jiahu shape_duanyaojiu: a hand with no 幺九 (melds included) wins only on a 幺九 tile
    (C2), and that win is 夹 — the flag ``judge`` takes as ``single`` in this mode."""
    own = own_counts(hand)
    return opts["jiahu"] == "shape_duanyaojiu" and not any(
        own[t] and is_yaojiu(t) for t in range(N)
    )


def check(hand, win: int, opts) -> Verdict:
    """hand (13 tiles' worth) + win, 独听 taken from the hand's own waits (under jiahu
    shape_duanyaojiu: whether the hand holds no 幺九)."""
    ans = waits(hand, opts)
    single = ans.live_legal == [win]
    if opts["jiahu"] == "shape_duanyaojiu":
        single = duanyaojiu_flag(hand, opts)
    c = [int(x) for x in hand.concealed]
    c[win] += 1
    return judge(c, hand.melds, win, opts, single)


# --------------------------------------------------------------------------- shanten


@cache
def _targets(k: int) -> np.ndarray:
    """Every complete k-set + pair hand (no tile more than 4 times) as rows of counts."""
    sets = [("pung", t) for t in range(N)] + [("chow", t) for t in range(HONOR) if t % 9 <= 6]
    rows = set()
    for combo in combinations_with_replacement(sets, k):
        base = [0] * N
        for kind, t in combo:
            for u in (t, t, t) if kind == "pung" else (t, t + 1, t + 2):
                base[u] += 1
        if max(base) > 4:
            continue
        for pair in range(N):
            if base[pair] <= 2:
                row = list(base)
                row[pair] += 2
                rows.add(tuple(row))
    return np.array(sorted(rows), np.int16)


def distance(c, k: int) -> int:
    """Fewest tiles to add so that ``c`` contains k sets + a pair (no fifth copies).

    For a target hand T the tiles to add are sum(max(T - c, 0)) = |T| - sum(min(T, c)); only
    the kinds held in ``c`` enter the second sum."""
    c = np.asarray(c, np.int16)
    cols = np.flatnonzero(c)
    kept = np.minimum(_targets(k)[:, cols], c[cols]).sum(axis=1)
    return int(3 * k + 2 - kept.max())


def shanten(c) -> int:
    """Standard-form shanten of 3k+1 or 3k+2 tiles (k <= 2 keeps this fast): -1 = complete."""
    n = int(sum(c))
    return distance(c, (n - 1) // 3) - 1


def live_shanten(c, own, structural=None) -> int:
    """``shanten`` where a wait held four times is no wait (RULES §4: every copy is the player's
    own, ``own`` counting melds): a 3k+1 hand whose structural waits are all such is
    1-shanten, and a 3k+2 hand is 0-shanten only if a discard leaves a wait with a copy
    outside the player's tiles. ``structural`` (a list of counts -> shanten) replaces the slow
    ``shanten`` for hands of more tiles."""
    shanten_of = structural or shanten
    c = [int(x) for x in c]
    sh = shanten_of(c)
    if sh != 0:
        return sh
    if sum(c) % 3 == 1:
        return 0 if any(own[t] < 4 for t in structural_waits(c)) else 1
    for d in range(N):
        if c[d]:
            rest = list(c)
            rest[d] -= 1
            left = list(own)
            left[d] -= 1
            if shanten_of(rest) == 0 and any(left[t] < 4 for t in structural_waits(rest)):
                return 0
    return 1


def live_useful(c, own) -> list[int]:
    """Tiles the player can draw (a copy outside his own tiles) that lower ``live_shanten``."""
    c = [int(x) for x in c]
    own = [int(x) for x in own]
    now = live_shanten(c, own)
    out = []
    for t in range(N):
        if own[t] < 4:
            c[t] += 1
            own[t] += 1
            if live_shanten(c, own) < now:
                out.append(t)
            c[t] -= 1
            own[t] -= 1
    return out


def useful(c) -> list[int]:
    """Tiles (not already held four times) whose draw lowers the distance."""
    k = (int(sum(c)) - 1) // 3
    d0 = distance(c, k)
    out = []
    for t in range(N):
        if c[t] < 4:
            d = np.array(c, np.int16)
            d[t] += 1
            if distance(d, k) < d0:
                out.append(t)
    return out


# --------------------------------------------------------------------------- legal distance

_TARGETS: dict = {}  # k -> every complete k-set + pair hand
_NO_LEGAL: set = set()  # (k, melds, options) with no legal target at all


def legal_distance(c, melds, opts) -> int | None:
    """Fewest tiles to add to the concealed counts ``c`` so that they hold a legal win beside
    ``melds``: the smallest |Y - c| (tiles of Y not in c) over every complete target hand Y
    that ``judge`` finds legal (None when there is none). Brute force over all target hands,
    nearest first (so the first legal one is the answer), so only for hands with two or more
    melds (k <= 2 sets to make); 七对 is not searched."""
    k = 4 - len(melds)
    key = (k, tuple((m.name, tuple(m.tiles)) for m in melds), repr(sorted(dict(opts).items())))
    if key in _NO_LEGAL:
        return None
    if k not in _TARGETS:
        _TARGETS[k] = _targets(k)
    rows = _TARGETS[k]
    need = np.maximum(rows - np.asarray(c, np.int16), 0).sum(axis=1)
    for i in np.argsort(need, kind="stable"):
        if judge(rows[i], melds, int(np.flatnonzero(rows[i])[0]), opts).legal:
            return int(need[i])
    _NO_LEGAL.add(key)
    return None
