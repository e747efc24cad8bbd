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
        return "[" + "".join(name(t) for t in tiles) + "]"
    return f"[{text_of(tiles)}]"


def fits(used, tiles) -> bool:
    need = {}
    for t in tiles:
        need[t] = need.get(t, 0) + 1
    return all(used[t] + n <= 4 for t, n in need.items())


def take(used, tiles):
    for t in tiles:
        used[t] += 1


@st.composite
def melds(draw, n: int, used, specials: bool = True):
    """``n`` declared melds that fit beside ``used`` counts (updated in place).

    Returns a list of (kind, tiles)."""
    out = []
    kinds = MELD_KINDS if specials else MELD_KINDS[:4]
    for _ in range(n):
        options = []
        for kind in kinds:
            if kind == "chow":
                options += [("chow", set_tiles(s)) for s in CHOWS if fits(used, set_tiles(s))]
            elif kind == "pung":
                options += [("pung", [t] * 3) for t in range(N) if used[t] <= 1]
            elif kind in ("kong", "concealed_kong"):
                options += [(kind, [t] * 4) for t in range(N) if used[t] == 0]
            else:
                group = SPECIAL_GROUPS[kind]
                if fits(used, group):
                    options.append((kind, list(group)))
        kind, tiles = draw(st.sampled_from(options))
        if kind in SPECIAL_GROUPS:
            # 0-2 extra 补 tiles of the kong's own group, in any order
            extra = draw(st.lists(st.sampled_from(SPECIAL_GROUPS[kind]), max_size=2))
            for t in extra:
                if fits(used, [*tiles, t]):
                    tiles = [*tiles, t]
            tiles = draw(st.permutations(tiles))
        take(used, tiles)
        out.append((kind, list(tiles)))
    return out


@st.composite
def complete_hands(draw, max_melds: int = 4, specials: bool = True, min_melds: int = 0):
    """A complete hand: (concealed tile list of 3k+2 tiles, melds [(kind, tiles)]).

    The concealed part is k = 4 - len(melds) random sets + a random pair."""
    used = [0] * N
    n_melds = draw(st.integers(min_melds, max_melds))
    ms = draw(melds(n_melds, used, specials))
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
)
_VARIANT_DIR = None


def variant_with(**options):
    """A Variant with the given options over the defaults, loaded from a YAML file the way a
    user's ``--rules FILE`` is (files are written once per option combination)."""
    global _VARIANT_DIR
    if _VARIANT_DIR is None:
        _VARIANT_DIR = Path(tempfile.mkdtemp(prefix="ccmj-variants-"))
        atexit.register(shutil.rmtree, _VARIANT_DIR, True)
    key = hashlib.sha1(repr(sorted(options.items())).encode()).hexdigest()[:16]
    path = _VARIANT_DIR / f"v_{key}.yaml"
    if not path.exists():
        path.write_text(yaml.safe_dump(options), encoding="utf-8")
    return load_variant(str(path))


@st.composite
def variants(draw, fan: bool = False):
    """A random combination of the rule options (and optionally fan values)."""
    opts = {k: draw(st.booleans()) for k in BOOL_OPTIONS}
    opts["jiahu"] = draw(st.sampled_from(["any", "single_wait", "shape"]))
    opts["haohua"] = draw(st.sampled_from(["any_quad", "wait_completes_quad"]))
    if fan:
        opts["fan"] = {
            "jiahu": draw(st.integers(0, 3)),
            "piao": draw(st.integers(0, 3)),
            "qidui": draw(st.integers(0, 3)),
        }
    return variant_with(**opts)
