"""Hypothesis strategies and small helpers for ccmj tests (shared by every test module).

Hands are built the way real hands are: random sets + a pair (optionally with declared melds),
never more than 4 copies of a tile; plus unstructured random 13/14-tile hands. Hands come out as
MPSZ text (what users type) so the same value can feed the API, the CLI and the parser.
"""

import atexit
import hashlib
import os
import shutil
import tempfile
from pathlib import Path

import numpy as np
import yaml
from hypothesis import strategies as st

from ccmj_cli.rules import load_variant

N = 34
HONOR = 27


def examples(n: int) -> int:
    """Hypothesis examples for a test: ``n`` scaled by $CCMJ_EXAMPLES_SCALE (default 1), so a
    long search is ``CCMJ_EXAMPLES_SCALE=20 python -m pytest tests/test_properties.py``."""
    return max(1, int(n * float(os.environ.get("CCMJ_EXAMPLES_SCALE", "1"))))


SUITS = "mpsz"
# every set as (kind, first tile): 34 pungs, 21 chows
PUNGS = [("pung", t) for t in range(N)]
CHOWS = [("chow", t) for t in range(HONOR) if t % 9 <= 6]
SETS = PUNGS + CHOWS
MELD_KINDS = ("chow", "pung", "kong", "concealed_kong", "xuanfeng", "xi", "yaodan", "jiudan")
SPECIAL_GROUPS = {
    "xuanfeng": (27, 28, 29, 30),  # 旋风杠 东南西北
    "xi": (31, 32, 33),  # 喜杠 白发中
    "yaodan": (0, 9, 18),  # 幺蛋 1m1p1s
    "jiudan": (8, 17, 26),  # 九蛋 9m9p9s
}


def name(t: int) -> str:
    return f"{t % 9 + 1}{SUITS[t // 9]}"


def text_of(tiles) -> str:
    """MPSZ text of a list of tile indices, sorted, grouped by suit."""
    ts = sorted(tiles)
    groups = ("".join(str(t % 9 + 1) for t in ts if t // 9 == s) for s in range(4))
    return "".join(g + SUITS[s] for s, g in enumerate(groups) if g)


def counts_text(c) -> str:
    return text_of([t for t in range(N) for _ in range(int(c[t]))])


def set_tiles(s) -> list[int]:
    kind, t = s
    return [t, t, t] if kind == "pung" else [t, t + 1, t + 2]


def meld_text(kind: str, tiles) -> str:
    """Notation of a declared meld (special kong tiles in the given order)."""
    if kind == "concealed_kong":
        return f"({text_of(tiles)})"
    if kind in SPECIAL_GROUPS:
        mark = "*" if len(tiles) >= 3 and all(t == 18 for t in tiles) else ""  # 三幺鸡
        return "[" + mark + "".join(name(t) for t in tiles) + "]"
    return f"[{text_of(tiles)}]"


def fits(used, tiles) -> bool:
    need = {}
    for t in tiles:
        need[t] = need.get(t, 0) + 1
    return all(used[t] + n <= 4 for t, n in need.items())


def take(used, tiles):
    for t in tiles:
        used[t] += 1


# the variant options that decide what a bracket forms (their defaults), for hands and kongs
# that the variant's parser accepts
MELD_OPTIONS = {
    "sanfeng_dan": False,
    "xiaoji_feidan": False,
    "xiaoji_wildcard": "one",
    "xi_bu_any_honor": False,
    "one_special_kong_per_kind": False,
    "sanyaoji": False,
    "dadan_laid": False,
}
ONE_S = 18
DADAN_TILES = (18, 9, 31, 32, 33)  # 大蛋: 幺鸡 1s, 幺饼 1p, 白, 发, 中
HONORS = tuple(range(HONOR, N))
WINDS = tuple(range(HONOR, HONOR + 4))  # 东南西北


def meld_options(opts) -> dict:
    """The meld options of ``opts`` (a variant's options, a partial dict, or None: defaults)."""
    return {k: (opts or {}).get(k, v) for k, v in MELD_OPTIONS.items()}


@st.composite
def special_kong(draw, kind: str, used, opts=None):
    """The tiles of one special kong of ``kind`` that the variant's meld options accept and that
    fit beside ``used`` (not updated), in any order; None when none fits. Written from the
    rules, not from the parser: the group's members (三风蛋 ``sanfeng_dan``: any three
    different winds, or all four); 幺鸡 1s standing in for members (小鸡飞蛋 ``xiaoji_feidan``:
    one 1s, not in a 幺蛋, where 1s is a member itself; ``xiaoji_wildcard: any``: any number,
    in a 幺蛋 too, at least one tile not a 1s); then 0-2 补 tiles: members of the group, any
    honor on a 喜杠 (``xi_bu_any_honor``), a 1s under the wildcard or as the one 幺鸡."""
    o = meld_options(opts)
    if kind == "yaodan" and o["sanyaoji"] and fits(used, [ONE_S] * 3) and draw(st.booleans()):
        return [ONE_S] * 3  # 三幺鸡 (written [*111s]): three 1s for every member of a 幺蛋
    group = list(SPECIAL_GROUPS[kind])
    if kind == "xuanfeng" and o["sanfeng_dan"]:
        group = draw(st.permutations(group))[: draw(st.sampled_from([3, 4]))]
    wild = "off" if not o["xiaoji_feidan"] else o["xiaoji_wildcard"]
    tiles = list(group)
    if wild != "off":
        stand_ins = [i for i, t in enumerate(tiles) if t != ONE_S]
        if kind == "yaodan":
            n = draw(st.integers(0, 1)) if wild == "any" else 0  # keep a 1m or 1p
        else:
            n = draw(st.integers(0, 1 if wild == "one" else len(stand_ins) - 1))
        for i in draw(st.permutations(stand_ins))[:n]:
            tiles[i] = ONE_S
    if not fits(used, tiles):
        return None
    bu = set(SPECIAL_GROUPS[kind])
    if kind == "xi" and o["xi_bu_any_honor"]:
        bu |= set(HONORS)
    if wild == "any" or (wild == "one" and ONE_S not in tiles):
        bu.add(ONE_S)
    extra = draw(st.lists(st.sampled_from(sorted(bu)), max_size=2))
    if kind == "xi" and o["xi_bu_any_honor"] and draw(st.booleans()):
        extra = [draw(st.sampled_from(WINDS)), *extra][:2]  # a wind 补, the option's point
    for t in extra:
        if fits(used, [*tiles, t]) and not (wild == "one" and t == ONE_S and ONE_S in tiles
                                             and kind != "yaodan"):  # fmt: skip
            tiles = [*tiles, t]
    return list(draw(st.permutations(tiles)))


def special_kinds(ms, opts=None) -> list[str]:
    """The special kong kinds a seat holding melds ``ms`` [(kind, tiles)] may still declare:
    every kind, or under ``one_special_kong_per_kind`` those it has none of."""
    if not meld_options(opts)["one_special_kong_per_kind"]:
        return sorted(SPECIAL_GROUPS)
    held = {k for k, _ in ms}
    return [k for k in sorted(SPECIAL_GROUPS) if k not in held]


@st.composite
def melds(draw, n: int, used, specials: bool = True, opts=None):
    """``n`` declared melds that fit beside ``used`` counts (updated in place); special kongs
    as the variant's meld options ``opts`` allow (see ``special_kong``).

    Returns a list of (kind, tiles)."""
    out = []
    for _ in range(n):
        options = []
        for kind in MELD_KINDS[:4]:
            if kind == "chow":
                options += [("chow", set_tiles(s)) for s in CHOWS if fits(used, set_tiles(s))]
            elif kind == "pung":
                options += [("pung", [t] * 3) for t in range(N) if used[t] <= 1]
            else:
                options += [(kind, [t] * 4) for t in range(N) if used[t] == 0]
        if meld_options(opts)["dadan_laid"]:  # a 大蛋 laid from the deal: (777z), three tiles
            options += [("concealed_kong", [t] * 3) for t in DADAN_TILES if used[t] <= 1]
        if specials:
            options += [(kind, None) for kind in special_kinds(out, opts)]
        kind, tiles = draw(st.sampled_from(options))
        if tiles is None:  # a special kong: its tiles, if one fits (else any plain meld)
            tiles = draw(special_kong(kind, used, opts))
            if tiles is None:
                kind, tiles = draw(st.sampled_from([x for x in options if x[1] is not None]))
        take(used, tiles)
        out.append((kind, list(tiles)))
    return out


@st.composite
def complete_hands(draw, max_melds: int = 4, specials: bool = True, min_melds: int = 0,
                   opts=None):  # fmt: skip
    """A complete hand: (concealed tile list of 3k+2 tiles, melds [(kind, tiles)]).

    The concealed part is k = 4 - len(melds) random sets + a random pair; special kongs as
    the variant's meld options ``opts`` allow."""
    used = [0] * N
    n_melds = draw(st.integers(min_melds, max_melds))
    ms = draw(melds(n_melds, used, specials, opts))
    concealed = []
    pair = draw(st.sampled_from([t for t in range(N) if used[t] <= 2]))
    take(used, [pair, pair])
    concealed += [pair, pair]
    for _ in range(4 - n_melds):
        options = [s for s in SETS if fits(used, set_tiles(s))]
        s = draw(st.sampled_from(options))
        take(used, set_tiles(s))
        concealed += set_tiles(s)
    return sorted(concealed), ms


@st.composite
def held_four_hands(draw, min_melds: int = 0):
    """A 13-tile hand holding all four copies of a tile t that it waits on (RULES §4: a wait
    with no live copy): (text, t, concealed list, melds). Either the four are concealed
    (tttt + sets: c + t reads ttt + tt) or three are a declared pung/kong... of t and the
    fourth is concealed beside k sets (a 单调 on t). Other melds and sets are random."""
    used = [0] * N
    t = draw(st.integers(0, N - 1))
    pung = draw(st.booleans())
    n_other = draw(st.integers(min_melds, 2 if pung else 3))
    ms = []
    if pung:
        ms.append(("pung", [t, t, t]))
    take(used, [t] * 4)
    ms += draw(melds(n_other, used))
    concealed = [t] if pung else [t] * 4
    k = 4 - len(ms) - (0 if pung else 1)
    for _ in range(k):
        options = [s for s in SETS if fits(used, set_tiles(s))]
        s = draw(st.sampled_from(options))
        take(used, set_tiles(s))
        concealed += set_tiles(s)
    ms = draw(st.permutations(ms))
    return hand_text(concealed, ms), t, sorted(concealed), list(ms)


def hand_text(concealed, ms) -> str:
    return text_of(concealed) + "".join(meld_text(k, t) for k, t in ms)


@st.composite
def tenpai_hands(draw, **kw):
    """A complete hand with one concealed tile removed: (13-tile text, removed tile,
    concealed list after removal, melds)."""
    concealed, ms = draw(complete_hands(**kw))
    i = draw(st.integers(0, len(concealed) - 1))
    win = concealed[i]
    rest = concealed[:i] + concealed[i + 1 :]
    return hand_text(rest, ms), win, rest, ms


def random_tiles(n: int, lo: int = 0, hi: int = N - 1):
    """``n`` random tiles from [lo, hi], at most 4 of each (a sorted list)."""
    return (
        st.lists(st.integers(lo, hi), min_size=n, max_size=n)
        .filter(lambda ts: max(ts.count(t) for t in set(ts)) <= 4)
        .map(sorted)
    )


@st.composite
def random_hands(draw, sizes=(13, 14), dense: bool | None = None):
    """Unstructured random hands of the given sizes; ``dense`` draws from one or two suits,
    where waits and complete shapes are common."""
    n = draw(st.sampled_from(sizes))
    if dense is None:
        dense = draw(st.booleans())
    if dense:
        lo = draw(st.sampled_from([0, 9, 18]))
        hi = lo + draw(st.sampled_from([8, 17])) if lo < 18 else 26
        return draw(random_tiles(n, lo, hi))
    return draw(random_tiles(n))


def counts(tiles) -> np.ndarray:
    c = np.zeros(N, np.uint8)
    for t in tiles:
        c[t] += 1
    return c


# --------------------------------------------------------------------------- suit symmetry

SUIT_PERMS = ["mps", "msp", "pms", "psm", "smp", "spm"]


def permute_text(text: str, perm: str) -> str:
    """Rename the suits m, p, s to ``perm`` (e.g. 'psm': m->p, p->s, s->m)."""
    return text.translate(str.maketrans("mps", perm))


def permute_tile(t: int, perm: str) -> int:
    if t >= HONOR:
        return t
    return SUITS.index(perm[t // 9]) * 9 + t % 9


def permute_counts(c, perm: str) -> np.ndarray:
    out = np.zeros_like(np.asarray(c))
    for t in range(N):
        out[permute_tile(t, perm)] = c[t]
    return out


# --------------------------------------------------------------------------- variants

BOOL_OPTIONS = (
    "piao_stacks_with_jia",
    "special_kong_is_pung",
    "special_kong_breaks_menqing",
    "dragon_pair_is_pung",
    "quemen",
    "piao_exempt",
    "qidui",
    "qidui_jiahu",
    "bao_forbidden_without_yaojiu",
    "shoubayi_ankong_concealed",
    "duanyaojiu_may_declare",
    "open_kong_breaks_menqing",
    "xiaoji_is_suit_tile",
)
JIAHU_MODES = ("any", "single_wait", "shape", "shape_duanyaojiu")
_VARIANT_DIR = None


def variant_path(**options) -> str:
    """The YAML file of these options over the defaults (written once per combination), for
    ``--rules FILE``."""
    global _VARIANT_DIR
    if _VARIANT_DIR is None:
        _VARIANT_DIR = Path(tempfile.mkdtemp(prefix="ccmj-variants-"))
        atexit.register(shutil.rmtree, _VARIANT_DIR, True)
    key = hashlib.sha1(repr(sorted(options.items())).encode()).hexdigest()[:16]
    path = _VARIANT_DIR / f"v_{key}.yaml"
    if not path.exists():
        path.write_text(yaml.safe_dump(options), encoding="utf-8")
    return str(path)


def variant_with(**options):
    """A Variant with the given options over the defaults, loaded from a YAML file the way a
    user's ``--rules FILE`` is (files are written once per option combination)."""
    return load_variant(variant_path(**options))


@st.composite
def variants(draw, fan: bool = False):
    """A random combination of the rule options (and optionally fan values)."""
    opts = {k: draw(st.booleans()) for k in BOOL_OPTIONS}
    opts["jiahu"] = draw(st.sampled_from(JIAHU_MODES))
    opts["haohua"] = draw(st.sampled_from(["any_quad", "wait_completes_quad"]))
    if fan:
        opts["fan"] = {
            "jiahu": draw(st.integers(0, 3)),
            "piao": draw(st.integers(0, 3)),
            "qidui": draw(st.integers(0, 3)),
        }
    return variant_with(**opts)


# --------------------------------------------------------------------------- wins to score
# Hands built to be LEGAL wins most of the time (RULES.md §3): one set brings 刻 (a pung, a kong
# or a special kong; sometimes a 中/发/白 pair does instead), three sets bring the three suits,
# and the pair brings 幺九 when no set does. A share of unconstrained complete hands keeps the
# illegal paths covered. Used by the scoring, batch and bao properties (naive_scoring.py).
# Each strategy takes the variant's options ``opts`` (a Variant's ``options``; None: the
# defaults) and draws what that variant's parser accepts and its hand options make legal:
# special kongs by its meld options (``special_kong``), 七对 (豪华 or not) when qidui is on, four
# melds with a chow beside a concealed kong under shoubayi_ankong_concealed.

YAOJIU = [t for t in range(N) if t >= HONOR or t % 9 in (0, 8)]
DRAGON_TILES = (31, 32, 33)


def _in_suit_set(draw, used, s: int, pung_only: bool):
    """A chow or a pung in suit ``s`` (0 m, 1 p, 2 s) that fits beside ``used``, or None."""
    options = [("pung", s * 9 + i) for i in range(9)]
    if not pung_only:
        options += [("chow", s * 9 + i) for i in range(7)]
    options = [x for x in options if fits(used, set_tiles(x))]
    return draw(st.sampled_from(options)) if options else None


@st.composite
def legal_complete_hands(draw, max_melds: int = 4, opts=None):
    """(concealed tiles of 3k+2, melds [(kind, tiles)]): a complete hand that satisfies 三色, 幺九
    and 刻 unless an option of the variant says otherwise (ties of 4 copies aside)."""
    o = opts or {}
    used = [0] * N
    n_melds = draw(st.sampled_from([n for n in (0, 0, 0, 1, 1, 2, 2, 3, 4) if n <= max_melds]))
    # 手把一 (C4): four melds + one tile win only as 飘胡 — unless one of them is a concealed
    # kong and shoubayi_ankong_concealed counts its tiles as concealed (MIL 五-4): chows then
    ankong = n_melds == 4 and o.get("shoubayi_ankong_concealed", False) and draw(st.booleans())
    all_pungs = n_melds == 4 and not ankong
    anchor = draw(st.sampled_from(["pung", "pung", "pung", "special", "dragon_pair"]))
    slots = []  # (kind, tiles): kind chow | pung | xuanfeng | xi | yaodan | jiudan
    if (anchor == "special" and n_melds == 0) or ankong:
        anchor = "pung"
    if anchor == "special":
        kind = draw(st.sampled_from(sorted(SPECIAL_GROUPS)))
        tiles = draw(special_kong(kind, used, opts))  # (nothing is used yet: it fits)
        take(used, tiles)
        slots.append((kind, list(tiles)))
    elif anchor == "pung":
        t = draw(st.sampled_from([t for t in range(N) if used[t] <= 1]))
        take(used, [t] * (4 if ankong else 3))  # the concealed kong's fourth tile kept aside
        slots.append(("pung", [t] * 3))
    for s in draw(st.permutations([0, 1, 2])):
        x = _in_suit_set(draw, used, s, all_pungs)
        if x is None:
            x = draw(st.sampled_from([p for p in PUNGS if fits(used, set_tiles(p))]))
        take(used, set_tiles(x))
        slots.append((x[0], set_tiles(x)))
    if len(slots) < 4:  # the dragon-pair anchor: one more set of any kind
        options = [x for x in (PUNGS if all_pungs else SETS) if fits(used, set_tiles(x))]
        x = draw(st.sampled_from(options))
        take(used, set_tiles(x))
        slots.append((x[0], set_tiles(x)))
    has_yaojiu = any(t in YAOJIU for _, tiles in slots for t in tiles)
    if anchor == "dragon_pair":
        pool = list(DRAGON_TILES)
    elif not has_yaojiu or draw(st.booleans()):
        pool = YAOJIU
    else:
        pool = list(range(N))
    pairs = [t for t in pool if used[t] <= 2] or [t for t in range(N) if used[t] <= 2]
    pair = draw(st.sampled_from(pairs))
    take(used, [pair, pair])
    # which slots are declared: special kongs always (they are only ever declared)
    order = draw(st.permutations(range(4)))
    declared = {i for i in range(4) if slots[i][0] in SPECIAL_GROUPS}
    for i in order:
        if len(declared) >= n_melds:
            break
        declared.add(i)
    melds_out, concealed = [], [pair, pair]
    for i, (kind, tiles) in enumerate(slots):
        if i not in declared:
            concealed += tiles
            continue
        if ankong and i == 0:
            kind, tiles = "concealed_kong", [tiles[0]] * 4
        elif kind == "pung":
            t = tiles[0]
            choices = ["pung"] + (["kong", "concealed_kong"] if used[t] == 3 else [])
            if o.get("dadan_laid") and t in DADAN_TILES:
                choices.append("laid_dadan")  # (777z): the 大蛋 laid from the deal, three tiles
            kind = draw(st.sampled_from(choices))
            if kind == "laid_dadan":
                kind = "concealed_kong"
            elif kind != "pung":
                tiles = [t] * 4
                take(used, [t])
        melds_out.append((kind, list(tiles)))
    return sorted(concealed), melds_out


@st.composite
def qidui_hands(draw):
    """(14 concealed tiles, no melds): seven pairs, legal most of the time (a pair of each suit
    and a 幺九 pair), sometimes with a kind held twice (four of a kind: 豪华七对)."""
    used = [0] * N
    pairs = []
    for pool in (YAOJIU, range(0, 9), range(9, 18), range(18, 27)):
        t = draw(st.sampled_from([t for t in pool if used[t] == 0]))
        take(used, [t, t])
        pairs.append(t)
    while len(pairs) < 7:
        if draw(st.integers(0, 3)) == 0 and any(used[t] == 2 for t in pairs):
            t = draw(st.sampled_from([t for t in pairs if used[t] == 2]))  # a four of a kind
        else:
            t = draw(st.sampled_from([t for t in range(N) if used[t] == 0]))
        take(used, [t, t])
        pairs.append(t)
    return sorted(pairs + pairs), []


SIMPLES = [t for t in range(HONOR) if t % 9 not in (0, 8)]


@st.composite
def duanyaojiu_wins(draw):
    """(concealed 3k+1 tiles, melds, winning tile): a 断幺九 hand (no 幺九 tile, melds included)
    that wins legally on a terminal completing a 123 or 789 chow, its one 幺九 — whether such a
    hand may declare and look at the bao is up to the variant (bao_forbidden_without_yaojiu,
    duanyaojiu_may_declare). The other sets (a pung for 刻, the three suits) and the pair are
    simples; the pung is sometimes declared."""
    used = [0] * N
    suits = draw(st.permutations([0, 1, 2]))
    start = suits[0] * 9 + draw(st.sampled_from([0, 6]))
    win = start if start % 9 == 0 else start + 2
    take(used, set_tiles(("chow", start)))
    pung = draw(st.sampled_from([t for t in SIMPLES if t // 9 == suits[1]]))
    take(used, [pung] * 3)
    sets = [set_tiles(("chow", start))]
    for pool in ([suits[2]], [0, 1, 2]):
        options = [("pung", t) for t in SIMPLES if t // 9 in pool]
        options += [("chow", t) for t in SIMPLES if t // 9 in pool and t % 9 <= 5]
        x = draw(st.sampled_from([x for x in options if fits(used, set_tiles(x))]))
        take(used, set_tiles(x))
        sets.append(set_tiles(x))
    pair = draw(st.sampled_from([t for t in SIMPLES if used[t] <= 2]))
    concealed = [pair, pair] + [t for tiles in sets for t in tiles]
    ms = [("pung", [pung] * 3)] if draw(st.booleans()) else []
    concealed += [] if ms else [pung] * 3
    concealed.remove(win)
    return sorted(concealed), ms, win


@st.composite
def scoring_hands(draw, max_melds: int = 4, opts=None):
    """A complete hand, legal most of the time (see legal_complete_hands; 七对 a quarter of the
    time when the variant has it; a 断幺九 hand won on its one terminal one time in twelve),
    and the tile it was won on: (concealed 3k+1 tiles before the win, melds, winning tile)."""
    if draw(st.integers(0, 11)) == 0:
        return draw(duanyaojiu_wins())
    if (opts or {}).get("qidui") and draw(st.integers(0, 3)) == 0:
        concealed, ms = draw(qidui_hands())
    elif draw(st.integers(0, 9)) < 8:
        concealed, ms = draw(legal_complete_hands(max_melds, opts))
    else:
        concealed, ms = draw(complete_hands(max_melds=max_melds, opts=opts))
    i = draw(st.integers(0, len(concealed) - 1))
    win = concealed[i]
    return concealed[:i] + concealed[i + 1 :], ms, win


@st.composite
def other_kongs(draw, used, winner: int, max_n: int = 2, opts=None):
    """Kongs of the other seats that fit beside ``used`` (updated): [(seat, kind, tiles)];
    special kongs as the variant's meld options allow (one of each kind per seat under
    one_special_kong_per_kind)."""
    out = []
    for _ in range(draw(st.integers(0, max_n))):
        seat = draw(st.sampled_from([s for s in range(4) if s != winner]))
        kinds = special_kinds([(k, t) for s, k, t in out if s == seat], opts)
        if kinds and draw(st.integers(0, 2)) == 0:  # a special kong (a third of them), if it fits
            kind = draw(st.sampled_from(kinds))
            tiles = draw(special_kong(kind, used, opts))
            if tiles is None:
                continue
        else:
            free = [t for t in range(N) if used[t] == 0]
            choices = [(k, [t] * 4) for t in free for k in ("kong", "concealed_kong")]
            if meld_options(opts)["dadan_laid"]:  # a 大蛋 laid from the deal: (777z)
                choices += [("concealed_kong", [t] * 3) for t in DADAN_TILES if used[t] <= 1]
            kind, tiles = draw(st.sampled_from(choices))
        take(used, tiles)
        out.append((seat, kind, list(tiles)))
    return out


def kongs_text(kongs) -> str:
    """``--kongs`` text of [(seat, kind, tiles)]: ``E:(5555m),W:[1234z]``."""
    return ",".join(f"{'ESWN'[s]}:{meld_text(k, t)}" for s, k, t in kongs)


FAN_KEYS = ("win", "menqing", "jiahu", "piao", "zimo", "bao", "dealer", "dianpao", "qidui",
            "haohua", "chongbao", "piaoding")  # fmt: skip
KONG_KEYS = ("ming", "an", "special", "bu", "dadan_open", "dadan_concealed")
# seed 000's rooms: "135" pays 1, 3, 5, 10, 20, 40, 80 for 1..7 fan; "250" 2, 5, 10 ...; "5" 5 ...
LADDERS = ((1, 3, 5, 10, 20, 40, 80), (2, 5, 10, 20, 40, 80, 160), (5, 10, 20, 40, 80, 160, 320))


@st.composite
def stake_ladder(draw, n: int):
    """A stake ladder (``stakes``) of at least ``n`` amounts (1 <= n <= 30): one of seed 000's,
    doubled on where it ends, or random amounts (not always increasing)."""
    size = draw(st.integers(max(n, 1), max(n, 1) + 2))
    if draw(st.booleans()):
        ladder = list(draw(st.sampled_from(LADDERS)))
        while len(ladder) < size:
            ladder.append(ladder[-1] * 2)
        return ladder[:size]
    return draw(st.lists(st.integers(1, 10**6), min_size=size, max_size=size))


@st.composite
def scoring_variants(draw, dianpao: bool = False):
    """Options (a dict, for ``variant_with``) that change scoring: fan and kong values, the cap,
    a stake ladder, 冲宝, the bao dice, 换宝 always or optional, a discarding dealer's 点炮 step,
    the 包庄 look test, the meld options (三风蛋, 幺鸡 one or wildcard, 喜杠 补 with any honor, one
    special kong of each kind), sometimes the judgment options too (豪华七对's rule, 手把一 with
    a concealed kong, a 断幺九 hand's declaration ...) — or, a fifth of the time, the mil2024
    preset (sometimes with a stake ladder). ``dianpao``: draw the 点炮 mode and the 包庄 tests
    as well (the properties usually loop over every mode instead: PAYMENT_MODES)."""
    if draw(st.integers(0, 4)) == 0:
        opts = {"extends": "mil2024"}
        if draw(st.booleans()):
            opts["stakes"] = draw(stake_ladder(7))  # its cap_fan 7 keeps every fan on it
    else:
        opts = {}
        if draw(st.booleans()):
            opts.update({k: draw(st.booleans()) for k in BOOL_OPTIONS})
            opts["jiahu"] = draw(st.sampled_from(JIAHU_MODES))
            opts["haohua"] = draw(st.sampled_from(["any_quad", "wait_completes_quad"]))
        for k in ("bao_forbidden_without_yaojiu", "duanyaojiu_may_declare"):  # (断幺九 hands)
            opts[k] = draw(st.booleans())
        if draw(st.booleans()):
            opts["fan"] = {k: draw(st.integers(0, 3)) for k in FAN_KEYS}
        if draw(st.booleans()):
            opts["kong"] = {k: draw(st.integers(0, 4)) for k in KONG_KEYS}
        opts["cap_fan"] = draw(st.one_of(st.none(), st.integers(1, 9)))
        opts["chongbao_double"] = draw(st.booleans())
        opts["bao_dice"] = draw(st.sampled_from([1, 2]))
        opts["bao_change"] = draw(st.sampled_from(["always", "optional"]))
        opts["dealer_dianpao_stacks"] = draw(st.booleans())
        opts["cover_needs_look"] = draw(st.booleans())
        opts["sanfeng_dan"] = draw(st.booleans())
        opts["xiaoji_feidan"] = draw(st.booleans())
        opts["xiaoji_wildcard"] = draw(st.sampled_from(["one", "any"]))
        opts["xi_bu_any_honor"] = draw(st.booleans())
        opts["one_special_kong_per_kind"] = draw(st.booleans())
        opts["sanyaoji"] = draw(st.booleans())
        opts["dadan_laid"] = draw(st.booleans())
        if draw(st.booleans()):
            # a ladder long enough for every fan a loser can be charged (the loader refuses a
            # shorter one): the cap, or every fan value added up (more than enough)
            fan = opts.get("fan") or load_variant().fan
            bound = opts["cap_fan"] or sum(fan.values())
            if bound > 30:
                opts["cap_fan"] = bound = draw(st.integers(1, 9))
            opts["stakes"] = draw(stake_ladder(bound))
    if dianpao:
        mode, only_undeclared, needs_look = draw(st.sampled_from(PAYMENT_MODES))
        opts.update(dianpao=mode, cover_only_undeclared=only_undeclared,
                    cover_needs_look=needs_look)  # fmt: skip
    return opts


DIANPAO_MODES = ("all_pay", "discarder_only", "discarder_covers_all")
# every way a discard win can be settled: (dianpao, cover_only_undeclared, cover_needs_look)
PAYMENT_MODES = (
    ("all_pay", False, False),
    ("discarder_only", False, False),
    ("discarder_covers_all", False, False),
    ("discarder_covers_all", True, False),
    ("discarder_covers_all", True, True),
)


HOWS = ("self", "discard", "mobao", "duibao")
SEAT_NAMES = "ESWN"


def own_of(concealed, ms) -> list[int]:
    own = [0] * N
    for t in concealed:
        own[t] += 1
    for _, tiles in ms:
        for t in tiles:
            own[t] += 1
    return own


@st.composite
def win_cases(draw, opts=None, hows=HOWS):
    """The keyword arguments of ``ccmj_cli.scoring.score`` for one win (all valid input under
    the variant whose options are ``opts``; None: the defaults): a hand from ``scoring_hands``
    given before or after the win, the way it was won, the seats (the dealer is E), the
    discarder's state (declared, looked), other seats' kongs and a base. For a 摸宝 the bao is
    any tile with a copy left; for a 对宝 it is usually the tile the hand was built around."""
    concealed, ms, win = draw(scoring_hands(opts=opts))
    how = draw(st.sampled_from(hows))
    seat = draw(st.integers(0, 3))
    own = own_of(concealed, ms)
    spare = [t for t in range(N) if own[t] <= 3]
    if how == "mobao" or (how == "duibao" and draw(st.integers(0, 3)) == 0):
        drawn = draw(st.sampled_from(spare))
    else:
        drawn = win
    discarder = None
    if how == "discard":
        discarder = SEAT_NAMES[draw(st.sampled_from([s for s in range(4) if s != seat]))]
    used = list(own)
    used[drawn] += 1
    kongs = draw(other_kongs(used, seat, opts=opts))
    shown = concealed + [drawn] if draw(st.booleans()) else concealed  # 13- or 14-tile form
    bao_win = how in ("mobao", "duibao")
    return {
        "hand": hand_text(shown, ms),
        "win": None if bao_win else name(drawn),
        "how": how,
        "seat": SEAT_NAMES[seat],
        "discarder": discarder,
        "bao": name(drawn) if bao_win else None,
        "base": draw(st.sampled_from([1, 1, 2, 7])),
        "kongs": kongs_text(kongs) or None,
        "declared": draw(st.booleans()),
        "looked": draw(st.booleans()),
    }


@st.composite
def bao_cases(draw, opts=None):
    """The arguments of ``ccmj_cli.bao.bao``: a 13-tile hand (tenpai most of the time), a bao
    tile (often the tile the hand waits on, or one in the player's exposed melds), tiles seen
    elsewhere (often copies of the bao kind, so that 换宝 happens, or none is left to draw) and
    the player's seat; ``opts`` as ``win_cases``."""
    # a 断幺九 hand a quarter of the time: may it look? (bao_forbidden_without_yaojiu,
    # duanyaojiu_may_declare)
    if draw(st.integers(0, 3)) == 0:
        concealed, ms, win = draw(duanyaojiu_wins())
    else:
        concealed, ms, win = draw(scoring_hands(opts=opts))
    own = own_of(concealed, ms)
    spare = [t for t in range(N) if own[t] <= 3]
    exposed = [t for k, ts in ms if k != "concealed_kong" for t in ts if own[t] <= 3]
    pick = draw(st.integers(0, 2))
    if pick == 0 and own[win] <= 3:
        b = win  # a wait: 对宝
    elif pick == 1 and exposed:
        b = draw(st.sampled_from(exposed))  # the player's own exposed copies are public (换宝)
    else:
        b = draw(st.sampled_from(spare))
    vis = [0] * N
    vis[b] = min(draw(st.integers(0, 3)), 3 - own[b])  # (3 - own[b]: none left to draw)
    hidden = concealed.count(b) + sum(ts.count(b) for k, ts in ms if k == "concealed_kong")
    if hidden == 0 and draw(st.integers(0, 3)) == 0:
        vis[b] = 3 - own[b]  # with his exposed copies, the three other copies are public: 换宝
    for t in draw(st.lists(st.integers(0, N - 1), max_size=4)):
        if own[t] + vis[t] < (3 if t == b else 4):
            vis[t] += 1
    visible = counts_text(vis)
    return {
        "hand": hand_text(concealed, ms),
        "bao_tile": name(b),
        "visible": visible or None,
        "seat": draw(st.sampled_from(SEAT_NAMES)),
    }


@st.composite
def scoring_examples(draw, hows=HOWS):
    """(scoring_variants options, win_cases under that variant)."""
    vopts = draw(scoring_variants())
    return vopts, draw(win_cases(variant_with(**vopts).options, hows))


@st.composite
def bao_examples(draw):
    """(scoring_variants options, bao_cases under that variant)."""
    vopts = draw(scoring_variants())
    return vopts, draw(bao_cases(variant_with(**vopts).options))
