"""Tile notation <-> ``uint8[34]`` counts, declared melds, and validation.

Notation (docs/rules.md §1): MPSZ groups (``123m456p789s11z``), honors also as 东南西北白发中, suits
also as 万/饼(筒)/条(索); melds in brackets: chow ``[123m]``, pung ``[555s]``, open kong
``[5555s]``, concealed kong ``(5555s)``, 旋风杠 ``[1234z]``, 喜杠 ``[567z]``, 幺蛋 ``[1m1p1s]``,
九蛋 ``[9m9p9s]``, each special kong optionally with extra 补 tiles (``[12341z]``). What a
bracket forms depends on the variant's meld options (``MeldRules``); the rule itself is the
kernel ``_kernels.melds.classify_bracket``.

>>> h = parse_hand("123m456p789s1123s")
>>> format_hand(h)
'123m456p1123789s'
>>> tile_index("7z"), tile_name(33)
(33, '7z')
"""

import functools
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from ._kernels.layout import (
    EAST,
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
    MS_LEN,
    N_KINDS,
    ONE_M,
    ONE_P,
    ONE_S,
    XIAOJI_ANY,
    XIAOJI_OFF,
    XIAOJI_ONE,
)
from .errors import HandError

SUITS = "mpsz"
SUIT_ALIASES = {"万": "m", "饼": "p", "筒": "p", "条": "s", "索": "s"}
SUIT_ALIASES.update({s.upper(): s for s in SUITS})  # 1M = 1m: suit letters in any case
HONOR_CHARS = {"东": 27, "南": 28, "西": 29, "北": 30, "白": 31, "发": 32, "中": 33}
HONOR_CHARS.update({"東": 27, "發": 32})  # traditional forms
OPEN = {"[": "]", "(": ")"}
SANYAOJI_MARK = "*"  # [*111s]: three 一条 laid as a special kong (三幺鸡, option sanyaoji)

MELD_NAMES_ZH = {
    MELD_XUANFENG: "旋风杠",
    MELD_XI: "喜杠",
    MELD_YAODAN: "幺蛋",
    MELD_JIUDAN: "九蛋",
}
MELD_NAMES = {
    MELD_CHOW: "chow",
    MELD_PUNG: "pung",
    MELD_KONG: "kong",
    MELD_ANKONG: "concealed_kong",
    MELD_XUANFENG: "xuanfeng",
    MELD_XI: "xi",
    MELD_YAODAN: "yaodan",
    MELD_JIUDAN: "jiudan",
}
WINDS = frozenset(range(EAST, EAST + 4))
DRAGONS = frozenset(range(HAKU, HAKU + 3))
YAO = frozenset((ONE_M, ONE_P, ONE_S))
DADAN = frozenset((ONE_S, ONE_P, HAKU, HAKU + 1, HAKU + 2))  # 大蛋 tiles: 幺鸡 幺饼 白 发 中
JIU = frozenset((ONE_M + 8, ONE_P + 8, ONE_S + 8))
# the special kongs: kind -> the set of tiles that forms it (any of them may be a 补 tile)
SPECIAL_GROUPS = {MELD_XUANFENG: WINDS, MELD_XI: DRAGONS, MELD_YAODAN: YAO, MELD_JIUDAN: JIU}


def is_public_meld(kind: int, n: int) -> bool:
    """Other players see the tiles of a meld of ``kind`` and ``n`` tiles: every meld but a
    concealed kong of four (a 大蛋 laid as three, ``(777z)``, lies face up)."""
    return kind != MELD_ANKONG or n == 3


def tile_name(t: int) -> str:
    """MPSZ name of tile index ``t`` (0-33)."""
    return f"{t % 9 + 1}{SUITS[t // 9]}"


def is_yaojiu(t: int) -> bool:
    return t >= HONOR or t % 9 in (0, 8)


class MeldRules(NamedTuple):
    """The variant's options on what a bracket forms (``Variant.meld_rules``)."""

    sanfeng: bool = False  # 三风蛋: three different winds make a 旋风杠
    xiaoji: int = XIAOJI_OFF  # 幺鸡 (1s) as a member: XIAOJI_OFF | XIAOJI_ONE | XIAOJI_ANY
    xi_bu_any_honor: bool = False  # a 喜杠 takes any honor as 补 tiles
    one_per_kind: bool = False  # at most one special kong of each kind
    sanyaoji: bool = False  # 三幺鸡: [*111s] is a special kong (a 幺蛋 of three 1s)
    dadan_laid: bool = False  # (777z): a 大蛋 laid from the deal as three tiles


@dataclass(frozen=True)
class Meld:
    """A declared set. ``tiles`` are the physical tiles, 补 tiles of a special kong included;
    ``bu`` counts those 补 tiles (the parser works it out under the variant's meld rules)."""

    kind: int
    tiles: tuple[int, ...]
    bu: int = 0
    sanyaoji: bool = False  # 三幺鸡: laid as ``[*111s...]``, three 1s for every member

    @property
    def name(self) -> str:
        return MELD_NAMES[self.kind]

    @property
    def is_special(self) -> bool:
        return self.kind >= MELD_XUANFENG

    @property
    def is_laid_dadan(self) -> bool:
        """A 大蛋 laid from the deal as three tiles ``(777z)`` (option dadan_laid): the
        concealed 大蛋 laid early, face up."""
        return self.kind == MELD_ANKONG and len(self.tiles) == 3

    @property
    def is_public(self) -> bool:
        """Other players see its tiles (``is_public_meld``)."""
        return is_public_meld(self.kind, len(self.tiles))

    def text(self) -> str:
        inner = format_tiles(self.tiles, sort=self.kind not in SPECIAL_GROUPS)
        if self.sanyaoji:
            return f"[{SANYAOJI_MARK}{inner}]"
        return f"({inner})" if self.kind == MELD_ANKONG else f"[{inner}]"


@dataclass(frozen=True)
class Hand:
    """A parsed hand: concealed counts plus declared melds."""

    concealed: np.ndarray  # uint8[34]
    melds: tuple[Meld, ...] = field(default=())
    size: int | None = None  # concealed tile count, when the parser already knows it

    @property
    def n_sets(self) -> int:
        return len(self.melds)

    @property
    def n_concealed(self) -> int:
        return int(self.concealed.sum()) if self.size is None else self.size

    def own_counts(self) -> np.ndarray:
        """The player's tiles, melds included (a new uint8[34])."""
        own = self.concealed.copy()
        for m in self.melds:
            for t in m.tiles:
                own[t] += 1
        return own

    def meld_summary(self) -> np.ndarray:
        """The MS_* vector the judgment kernels take: the rule is the kernel
        ``_kernels.melds.add_to_summary`` (one place: a 幺蛋/九蛋 supplies all three suits, a
        1s in a 旋风杠/喜杠 sets SUIT_XIAOJI, open kongs are counted apart)."""
        from ._kernels.melds import add_to_summary  # (a kernel: loaded once the mode is set)

        ms = np.zeros(MS_LEN, np.int64)
        for m in self.melds:
            add_to_summary(ms, m.kind, np.array(m.tiles, np.int64), len(m.tiles))
        return ms


def _read_tiles(text: str, start: int, stop_chars: str, where: str):
    """Read tiles from ``text[start:]`` until one of ``stop_chars``; returns (tiles, end)."""
    tiles: list[int] = []
    digits: list[tuple[int, int]] = []  # (digit, position)
    i = start
    while i < len(text):
        ch = text[i]
        if ch in stop_chars:
            break
        if ch.isspace():
            i += 1
            continue
        if ch.isdigit() and ch.isascii():
            digits.append((int(ch), i))
        elif ch in SUITS or ch in SUIT_ALIASES:
            suit = SUIT_ALIASES.get(ch, ch)
            if not digits:
                raise HandError(f"{where}: suit '{ch}' at position {i + 1} has no digits before it")
            for d, pos in digits:
                if d == 0:
                    raise HandError(f"{where}: '0{suit}' at position {pos + 1} is not a tile (1-9)")
                if suit == "z" and d > 7:
                    raise HandError(
                        f"{where}: '{d}z' at position {pos + 1} is not a tile (honors are 1z-7z)"
                    )
                tiles.append(SUITS.index(suit) * 9 + d - 1)
            digits = []
        elif ch in HONOR_CHARS:
            if digits:
                raise HandError(f"{where}: digits at position {digits[0][1] + 1} have no suit")
            tiles.append(HONOR_CHARS[ch])
        elif ch in OPEN or ch in OPEN.values():
            raise HandError(f"{where}: unexpected '{ch}' at position {i + 1}")
        else:
            raise HandError(f"{where}: unknown character {ch!r} at position {i + 1}")
        i += 1
    if digits:
        raise HandError(f"{where}: digits at position {digits[0][1] + 1} have no suit")
    return tiles, i


def _classify_sanyaoji(tiles: list[int], text: str, rules: MeldRules) -> Meld:
    """A bracket marked 三幺鸡 (``[*111s]``): the rule is ``melds.classify_sanyaoji``."""
    if not rules.sanyaoji:
        raise HandError(
            f"invalid meld '{text}': 三幺鸡 (three 1s laid as a special kong) needs the variant "
            "option sanyaoji: true"
        )
    from ._kernels.melds import classify_sanyaoji

    kind, bu = classify_sanyaoji(counts_of(tiles), rules.sanfeng)
    if kind < 0:
        raise HandError(
            f"invalid meld '{text}': a 三幺鸡 is three 1s, with any 补 tiles of one special kong"
            " after them (e.g. [*111s], [*111s9m])"
        )
    return Meld(int(kind), tuple(tiles), int(bu), True)


def _classify(tiles: list[int], concealed: bool, text: str, rules: MeldRules) -> Meld:
    ts = sorted(tiles)
    if concealed:
        if len(ts) == 4 and len(set(ts)) == 1:
            return Meld(MELD_ANKONG, tuple(ts))
        if len(ts) == 3 and len(set(ts)) == 1 and ts[0] in DADAN:
            if rules.dadan_laid:
                return Meld(MELD_ANKONG, tuple(ts))  # a 大蛋 laid from the deal
            raise HandError(
                f"invalid meld '{text}': a concealed kong is four identical tiles (three, a 大蛋 "
                "laid from the deal, need the variant option dadan_laid: true)"
            )
        raise HandError(f"invalid meld '{text}': a concealed kong is four identical tiles")
    from ._kernels.melds import classify_bracket  # (a kernel: loaded once the mode is chosen)

    kind, bu = classify_bracket(
        counts_of(tiles), rules.sanfeng, rules.xiaoji, rules.xi_bu_any_honor
    )
    if kind < 0:
        raise HandError(
            f"invalid meld '{text}': not a chow, pung, kong or special kong (旋风杠/喜杠/幺蛋/九蛋)"
        )
    if kind in SPECIAL_GROUPS:  # special kongs keep the order typed
        return Meld(int(kind), tuple(tiles), int(bu))
    return Meld(int(kind), tuple(ts))


def repeated_special(melds) -> tuple[Meld, Meld] | None:
    """The first two melds of one special kong kind (None if every kind appears once at most):
    under ``one_special_kong_per_kind`` a player has one special kong of each kind."""
    from ._kernels.melds import first_repeated_special  # (a kernel: loaded once the mode is set)

    melds = list(melds)
    kinds = np.array([m.kind for m in melds], np.int64)
    i = int(first_repeated_special(kinds, len(melds)))
    if i < 0:
        return None
    return next(m for m in melds if m.kind == melds[i].kind), melds[i]


def one_per_kind_message(first: Meld, second: Meld) -> str:
    """Why two special kongs of one kind are refused, and how to write them."""
    merged = Meld(first.kind, first.tiles + second.tiles)
    return (
        f"two {MELD_NAMES_ZH[first.kind]} melds ({first.text()} and {second.text()}); a player "
        f"has one special kong of each kind: write the extra members as 补 tiles of the first, "
        f"e.g. {merged.text()}"
    )


_PLAIN = re.compile(r"(?:[1-9]+[mps]|[1-7]+z)+")
_GROUP = re.compile(r"([1-9]+)([mpsz])")
_SUIT_BASE = {"m": 0, "p": 9, "s": 18, "z": 27}


@functools.lru_cache(maxsize=4096)
def _group_tiles(group: tuple[str, str]) -> tuple[int, ...]:
    """Tile indices of one plain MPSZ group such as ('123', 'm') (cached: groups recur)."""
    digits, suit = group
    base = _SUIT_BASE[suit]
    return tuple(base + ord(d) - 49 for d in digits)


def meld_rules(sanfeng: bool = False, xiaoji: bool | int = False, **more) -> MeldRules:
    """MeldRules from keyword options; ``xiaoji`` True means 小鸡飞蛋 (one 幺鸡)."""
    mode = XIAOJI_ONE if xiaoji is True else XIAOJI_OFF if xiaoji is False else int(xiaoji)
    if mode not in (XIAOJI_OFF, XIAOJI_ONE, XIAOJI_ANY):
        raise ValueError(f"xiaoji: expected a XIAOJI_* mode, got {xiaoji!r}")
    return MeldRules(bool(sanfeng), mode, **more)


DEFAULT_MELD_RULES = MeldRules()


def parse_hand(
    text: str,
    rules: MeldRules | None = None,
    *,
    sanfeng: bool = False,
    xiaoji: bool | int = False,
) -> Hand:
    """Parse a hand with optional melds. Raises HandError with a one-line message.

    ``rules``: the variant's meld options (``Variant.meld_rules``); without it, ``sanfeng``
    (三风蛋) and ``xiaoji`` (小鸡飞蛋; or a XIAOJI_* mode) say the special-kong options.
    """
    if rules is None:
        rules = meld_rules(sanfeng, xiaoji) if (sanfeng or xiaoji) else DEFAULT_MELD_RULES
    if not isinstance(text, str) or not text.strip():
        raise HandError("empty hand")
    if _PLAIN.fullmatch(text):  # fast path: concealed tiles only, plain MPSZ
        counts = [0] * N_KINDS
        for group in _GROUP.findall(text):
            for t in _group_tiles(group):
                counts[t] += 1
        if max(counts) <= 4:
            return Hand(np.array(counts, np.uint8), (), sum(counts))
    where = f"bad hand '{text.strip()}'"
    concealed: list[int] = []
    melds: list[Meld] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch in OPEN:
            close = OPEN[ch]
            marked = ch == "[" and text[i + 1 : i + 2] == SANYAOJI_MARK
            tiles, end = _read_tiles(text, i + 1 + marked, "[]()", where)
            if end >= len(text) or text[end] != close:
                raise HandError(f"{where}: '{ch}' at position {i + 1} is not closed by '{close}'")
            if marked:
                melds.append(_classify_sanyaoji(tiles, text[i : end + 1], rules))
            else:
                melds.append(_classify(tiles, ch == "(", text[i : end + 1], rules))
            i = end + 1
        else:
            tiles, end = _read_tiles(text, i, "[(", where)
            if end < len(text) and text[end] in "])":
                raise HandError(f"{where}: unexpected '{text[end]}' at position {end + 1}")
            concealed.extend(tiles)
            i = end
    counts = np.zeros(N_KINDS, np.int64)
    for t in concealed:
        counts[t] += 1
    hand = Hand(counts.astype(np.uint8), tuple(melds), len(concealed))
    own = Counter(concealed)
    for m in melds:
        own.update(m.tiles)
    for t, n in sorted(own.items()):
        if n > 4:
            raise HandError(f"{where}: {n} copies of {tile_name(t)} (there are only 4)")
    if len(melds) > 4:
        raise HandError(f"{where}: {len(melds)} declared sets (at most 4)")
    if rules.one_per_kind:
        pair = repeated_special(melds)
        if pair is not None:
            raise HandError(f"{where}: {one_per_kind_message(*pair)}")
    return hand


def parse_tiles(text: str, what: str = "tiles") -> list[int]:
    """Parse a plain list of tiles (no melds), e.g. ``--visible 55m7z``."""
    if not isinstance(text, str) or not text.strip():
        return []
    tiles, end = _read_tiles(text, 0, "[]()", f"bad {what} '{text.strip()}'")
    if end < len(text):
        raise HandError(f"bad {what} '{text.strip()}': melds are not allowed here")
    return tiles


def tile_index(text: str) -> int:
    """Index of a single tile written ``5m`` or ``中``."""
    tiles = parse_tiles(text, "tile")
    if len(tiles) != 1:
        raise HandError(f"bad tile '{text}': expected exactly one tile")
    return tiles[0]


def format_counts(counts) -> str:
    """MPSZ text for a uint8[34] count array, e.g. '123m55z'."""
    raw = counts.tobytes()
    return (
        _suit_text(raw[0:9], 0)
        + _suit_text(raw[9:18], 1)
        + _suit_text(raw[18:27], 2)
        + _suit_text(raw[27:34], 3)
    )


@functools.lru_cache(maxsize=65536)
def _suit_text(raw: bytes, s: int) -> str:
    digits = "".join(_DIGITS[i] * n for i, n in enumerate(raw))
    return digits + SUITS[s] if digits else ""


_DIGITS = "123456789"


def laid_meld_text(kind: int, tiles) -> str:
    """The bracket of a meld the table laid (``kind``, its tiles in the order laid): ``(...)``
    for a concealed kong; a special kong whose first three tiles are 1s is a 三幺鸡
    (``[*111s...]``: the table lays a special kong's members first, so three 1s come first
    only when they stand in for every member); a special kong keeps its order."""
    tiles = list(tiles)
    special = kind >= MELD_XUANFENG
    inner = format_tiles(tiles, sort=not special)
    if kind == MELD_ANKONG:
        return f"({inner})"
    if special and tiles[:3] == [ONE_S] * 3:
        return f"[{SANYAOJI_MARK}{inner}]"
    return f"[{inner}]"


def format_tiles(tiles, sort: bool = True) -> str:
    """MPSZ text for a list of tile indices (or a uint8[34] count array)."""
    if isinstance(tiles, np.ndarray) and tiles.shape == (N_KINDS,) and tiles.dtype == np.uint8:
        return format_counts(tiles)
    tiles = sorted(tiles) if sort else list(tiles)
    out = []
    for t in tiles:
        suit = SUITS[t // 9]
        if out and out[-1][1] == suit:
            out[-1][0].append(str(t % 9 + 1))
        else:
            out.append(([str(t % 9 + 1)], suit))
    return "".join("".join(ds) + s for ds, s in out)


def format_hand(hand: Hand) -> str:
    """MPSZ text of a hand: concealed tiles, then melds."""
    parts = [format_counts(hand.concealed)]
    parts += [m.text() for m in hand.melds]
    return "".join(parts)


def counts_of(tiles) -> np.ndarray:
    c = np.zeros(N_KINDS, np.uint8)
    for t in tiles:
        c[t] += 1
    return c


def require_size(hand: Hand, extra: int | tuple[int, ...], text: str, what: str) -> int:
    """Check the concealed part has 3k + ``extra`` tiles (one of ``extra`` when a tuple) for
    k = 4 - melds; return k."""
    k = 4 - hand.n_sets
    wants = [3 * k + e for e in (extra if isinstance(extra, tuple) else (extra,))]
    if hand.n_concealed not in wants:
        melds = f" beside {hand.n_sets} declared set(s)" if hand.n_sets else ""
        want = " or ".join(map(str, wants))
        raise HandError(
            f"bad hand '{text.strip()}': {what} needs {want} concealed tiles{melds}, "
            f"got {hand.n_concealed}"
        )
    return k
