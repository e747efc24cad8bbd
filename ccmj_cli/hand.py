"""Public API for one hand: waits, check and shanten, returning dataclasses.

Every judgment is made by the kernels in ``_kernels`` with the variant passed in; this module
only validates input, calls them and packages the answers.

>>> r = waits("23m456p789s111z55s")
>>> [(w.tile, w.legal, w.jiahu) for w in r.waits]
[('1m', True, False), ('4m', True, False)]
>>> check("123m456p789s1123s", "4s").reasons
['no_pung']
"""

from dataclasses import dataclass, field

import numpy as np

from . import tiles as T
from ._kernels import layout as L
from ._kernels.judge import (
    LOOK_DUANYAOJIU,
    LOOK_NOT_TENPAI,
    LOOK_OK,
    W_COLS,
    W_LEGAL,
    W_PIAO,
    W_STRUCTURAL,
)
from ._kernels.judge import judge_waits as _judge_waits
from ._kernels.judge import judge_waits_rows as _judge_waits_rows
from ._kernels.judge import judge_win as _judge_win
from ._kernels.judge import live_shanten as _live_shanten
from ._kernels.judge import live_useful_mask as _live_useful_mask
from ._kernels.notation import encode_rows, format_rows, plain_counts
from ._kernels.shape import shanten_many as _shanten_many
from ._kernels.shape import waits_many as _waits_many
from ._kernels.tables import tables
from .errors import HandError
from .rules import Variant, load_variant

FAIL_CODES = (
    (L.FAIL_INCOMPLETE, "incomplete"),
    (L.FAIL_MISSING_SUIT, "missing_suit"),
    (L.FAIL_NO_YAOJIU, "no_yaojiu"),
    (L.FAIL_NO_PUNG, "no_pung"),
    (L.FAIL_SINGLE_TILE_NOT_PIAO, "single_tile_not_piao"),
)
REASON_TEXT = {
    "incomplete": "not four sets and a pair",
    "missing_suit": "三色全: a suit is missing",
    "no_yaojiu": "幺九: no terminal or honor",
    "no_pung": "刻: no pung, kong or dragon pair",
    "single_tile_not_piao": "手把一: a single-tile hand may only win as 飘胡",
    "not_tenpai": "not tenpai",
    "duanyaojiu": "断幺九: no terminal or honor, may not look at the bao",
}


_NAMES = [T.tile_name(t) for t in range(L.N_KINDS)]


def plain(x):
    """A result dataclass as JSON-ready dicts and lists (``asdict`` without its deep copies:
    the batch path makes one per line)."""
    if isinstance(x, list):
        return [plain(i) for i in x]
    if hasattr(x, "__dataclass_fields__"):
        return {k: plain(v) for k, v in vars(x).items()}
    return x


def reasons_of(fails: int) -> list[str]:
    """Stable codes for a failure bit mask."""
    if fails & L.FAIL_INCOMPLETE:
        return ["incomplete"]
    return [code for bit, code in FAIL_CODES if fails & bit]


_REASONS = [reasons_of(f) for f in range(32)]  # every FAIL_* combination, precomputed


def _variant(rules: Variant | str | None) -> Variant:
    return rules if isinstance(rules, Variant) else load_variant(rules)


def _hand(hand: T.Hand | str, variant: Variant) -> tuple[T.Hand, str]:
    if isinstance(hand, T.Hand):
        return hand, T.format_hand(hand)
    return T.parse_hand(hand, variant.meld_rules), hand


def hand_to_play(hand: T.Hand | str, variant: Variant, who: str) -> tuple[T.Hand, str]:
    """(hand, its text) for ``odds``/the exact analysis: 3k+1 concealed tiles (a hand that
    has discarded) or 3k+2 (one that is to discard) beside k declared sets; ``who`` names the
    command in the error."""
    h, text = _hand(hand, variant)
    k = 4 - h.n_sets
    if h.n_concealed not in (3 * k + 1, 3 * k + 2):
        melds = f" beside {h.n_sets} declared set(s)" if h.n_sets else ""
        raise HandError(
            f"bad hand '{text.strip()}': {who} needs {3 * k + 1} or {3 * k + 2} concealed "
            f"tiles{melds}, got {h.n_concealed}"
        )
    return h, text


def visible_counts(visible: str | list[int] | None) -> np.ndarray:
    """Counts (int64[34]) of tiles seen elsewhere: discards, other players' melds."""
    vis = np.zeros(L.N_KINDS, np.int64)
    for t in T.parse_tiles(visible, "visible tiles") if isinstance(visible, str) else visible or []:
        vis[t] += 1
    return vis


def unseen_counts(hand: T.Hand, visible, text: str) -> np.ndarray:
    """Copies of each tile not in the player's hand/melds nor visible (int64[34])."""
    vis = visible if isinstance(visible, np.ndarray) else visible_counts(visible)
    unseen = 4 - hand.own_counts() - vis
    if unseen.min() < 0:
        t = int(np.argmin(unseen))
        raise HandError(
            f"bad hand '{text.strip()}': {4 - unseen[t]} copies of {T.tile_name(t)} "
            "counting the visible tiles (there are only 4)"
        )
    return unseen


@dataclass(frozen=True)
class Wait:
    tile: str
    legal: bool
    reasons: list[str]
    live: int
    jiahu: bool
    piao: bool


@dataclass(frozen=True)
class WaitsResult:
    hand: str
    tenpai: bool
    can_look_bao: bool
    bao_reason: str | None
    waits: list[Wait]
    live_total: int

    def to_dict(self) -> dict:
        return plain(self)


def waits(
    hand: T.Hand | str, visible: str | np.ndarray | None = None, rules: Variant | str | None = None
) -> WaitsResult:
    """Structural and legal waits of a 13-tile hand (fewer concealed tiles beside melds).

    ``visible``: tiles seen elsewhere, as text or an int64[34] count array.
    """
    (d,) = waits_dicts([hand], visible, rules)
    if isinstance(d, HandError):
        raise d
    return WaitsResult(**{**d, "waits": [Wait(**w) for w in d["waits"]]})


def waits_dicts(
    hands: list, visible: str | np.ndarray | None = None, rules: Variant | str | None = None
) -> list:
    """``waits`` for many hands with one kernel call, as JSON-ready dicts (the fields of
    WaitsResult) or a HandError per hand. The batch path: no per-hand objects."""
    v = _variant(rules)
    vis = visible if isinstance(visible, np.ndarray) else visible_counts(visible)
    n = len(hands)
    results: list = [None] * n
    c = np.empty((n, L.N_KINDS), np.uint8)
    ms = np.zeros((n, L.MS_LEN), np.int64)
    # plain 13-tile text is read in bulk by a kernel; melds, Chinese names and every error
    # take the Python parser
    lines = [h if isinstance(h, str) else "" for h in hands]
    n_tiles = np.empty(n, np.int64)
    plain = np.empty(n, np.uint8)
    plain_counts(*encode_rows(lines), c, n_tiles, plain)
    plain &= n_tiles == 13
    own = c.copy()
    texts = format_rows(c, np.full(n, -1, np.int64), plain)
    parsed: list = [None] * n
    for i in np.flatnonzero(plain == 0).tolist():
        try:
            h, text = _hand(hands[i], v)
            T.require_size(h, 1, text, "waits")
        except HandError as e:
            results[i] = e
            c[i] = own[i] = 0
            continue
        parsed[i] = h
        c[i] = h.concealed
        if h.melds:
            own[i] = h.own_counts()
            ms[i] = h.meld_summary()
        else:
            own[i] = h.concealed
        texts[i] = T.format_hand(h)
    unseen = 4 - own.astype(np.int64) - vis
    if n and unseen.min() < 0:  # too many copies counting the visible tiles: those rows fail
        for i in np.flatnonzero(unseen.min(axis=1) < 0).tolist():
            if results[i] is None:
                h = parsed[i] or T.Hand(c[i].copy(), (), 13)
                try:
                    unseen_counts(h, vis, lines[i])
                except HandError as e:
                    results[i] = e
    out = np.zeros((n, L.N_KINDS, W_COLS), np.int64)
    n_live = np.zeros(n, np.int64)
    look = np.zeros(n, np.int64)
    _judge_waits_rows(c, ms, own, v.vector, tables(), out, n_live, look)
    rows_of, tiles_of = np.nonzero(out[:, :, W_STRUCTURAL])
    per_row: list[list] = [[] for _ in range(n)]
    flags = out[rows_of, tiles_of, W_LEGAL : W_PIAO + 1].tolist()
    lives = unseen[rows_of, tiles_of].tolist()
    for r, t, f, live in zip(rows_of.tolist(), tiles_of.tolist(), flags, lives, strict=True):
        per_row[r].append((t, f, live))
    tenpai_all = (n_live > 0).tolist()
    look_all = look.tolist()
    for i in range(n):
        if results[i] is not None:
            continue
        ws = []
        live_total = 0
        for t, (legal, fails, jia, piao), live in per_row[i]:
            if legal:
                live_total += live
            ws.append({"tile": _NAMES[t], "legal": legal == 1, "reasons": _REASONS[fails],
                       "live": live, "jiahu": jia == 1, "piao": piao == 1})  # fmt: skip
        tenpai = tenpai_all[i]
        reason = LOOK_REASONS[look_all[i]]
        results[i] = {
            "hand": texts[i],
            "tenpai": tenpai,
            "can_look_bao": reason is None,
            "bao_reason": reason,
            "waits": ws,
            "live_total": live_total,
        }
    return results


LOOK_REASONS = {LOOK_OK: None, LOOK_NOT_TENPAI: "not_tenpai", LOOK_DUANYAOJIU: "duanyaojiu"}


@dataclass(frozen=True)
class CheckResult:
    hand: str
    win: str
    legal: bool
    reasons: list[str]
    menqing: bool
    jiahu: bool
    piao: bool
    qidui: bool
    reading: list[str]  # the decomposition used: pair first, then the concealed sets

    def to_dict(self) -> dict:
        return plain(self)


_PAIR_TEXT = [T.format_tiles([t, t]) for t in range(L.N_KINDS)]
_PUNG_TEXT = [T.format_tiles([t] * 3) for t in range(L.N_KINDS)]
_CHOW_TEXT = [
    T.format_tiles([t, t + 1, t + 2]) if t < L.HONOR and t % 9 < 7 else "" for t in range(L.N_KINDS)
]


def reading_of(rd: np.ndarray) -> list[str]:
    rd = rd.tolist()
    if rd[L.RD_FAILS] & L.FAIL_INCOMPLETE:
        return []
    if rd[L.RD_PAIR] < 0:
        return ["qidui"]
    parts = [_PAIR_TEXT[rd[L.RD_PAIR]]]
    for i in range(rd[L.RD_NSETS]):
        kind, t = rd[L.RD_SETS + 2 * i], rd[L.RD_SETS + 2 * i + 1]
        parts.append(_PUNG_TEXT[t] if kind == L.SET_PUNG else _CHOW_TEXT[t])
    return parts


def check(hand: T.Hand | str, win: str, rules: Variant | str | None = None) -> CheckResult:
    """Is hand + win a legal win under the variant, and if not, why not."""
    v = _variant(rules)
    h, text = _hand(hand, v)
    T.require_size(h, 1, text, "check")
    w = T.tile_index(win)
    own = h.own_counts()
    if own[w] >= 4:
        raise HandError(f"bad win '{win}': all four copies of {T.tile_name(w)} are in the hand")
    rd = np.zeros(L.RD_LEN, np.int64)
    legal = _judge_win(h.concealed.copy(), w, h.meld_summary(), own, v.vector, tables(), rd)
    return CheckResult(
        hand=T.format_hand(h),
        win=T.tile_name(w),
        legal=bool(legal),
        reasons=reasons_of(int(rd[L.RD_FAILS])),
        menqing=bool(rd[L.RD_MENQING]),
        jiahu=bool(rd[L.RD_JIAHU]),
        piao=bool(rd[L.RD_PIAO]),
        qidui=bool(rd[L.RD_QIDUI]),
        reading=reading_of(rd),
    )


@dataclass(frozen=True)
class Useful:
    tile: str
    live: int


@dataclass(frozen=True)
class Discard:
    tile: str
    shanten: int
    useful: list[Useful]
    useful_total: int
    legal_waits: list[Useful] | None  # when the discard leaves tenpai: legal waits, live copies
    legal_waits_total: int | None


@dataclass(frozen=True)
class ShantenResult:
    hand: str
    shanten: int
    useful: list[Useful] | None = None  # 13-tile hands
    useful_total: int | None = None
    discards: list[Discard] | None = field(default=None)  # 14-tile hands, best first

    def to_dict(self) -> dict:
        return {k: v for k, v in plain(self).items() if v is not None}


def _useful(c: np.ndarray, own: np.ndarray, unseen: np.ndarray) -> tuple[list[Useful], int]:
    m = _live_useful_mask(c, own, tables())
    rows = [Useful(T.tile_name(t), int(unseen[t])) for t in range(L.N_KINDS) if m >> t & 1]
    return rows, sum(u.live for u in rows)


def shanten(
    hand: T.Hand | str, visible: str | None = None, rules: Variant | str | None = None
) -> ShantenResult:
    """Standard-form shanten; useful tiles (13) or each discard best first (14, 牌理 view).

    A wait held four times (every copy the player's own, melds included) is no wait: a hand
    whose only waits are such is 1-shanten, not tenpai (``judge.live_shanten``)."""
    v = _variant(rules)
    h, text = _hand(hand, v)
    k = T.require_size(h, (1, 2), text, "shanten")
    unseen = unseen_counts(h, visible, text)
    c = h.concealed.copy()
    ms, own = h.meld_summary(), h.own_counts()
    sh = int(_live_shanten(c, own, tables()))
    if h.n_concealed == 3 * k + 1:
        useful, total = _useful(c, own, unseen)
        return ShantenResult(T.format_hand(h), sh, useful, total)
    discards = []
    wait_out = np.zeros((L.N_KINDS, W_COLS), np.int64)
    # the discarded tile goes to the river, so live counts stay those of the 14-tile hand
    for d in np.flatnonzero(c):
        c[d] -= 1
        own[d] -= 1
        dsh = int(_live_shanten(c, own, tables()))
        useful, total = _useful(c, own, unseen)
        lw = lw_total = None
        if dsh == 0:
            _judge_waits(c, ms, own, v.vector, tables(), wait_out)
            lw = [
                Useful(T.tile_name(t), int(unseen[t])) for t in np.flatnonzero(wait_out[:, W_LEGAL])
            ]
            lw_total = sum(u.live for u in lw)
        c[d] += 1
        own[d] += 1
        discards.append(Discard(T.tile_name(int(d)), dsh, useful, total, lw, lw_total))
    discards.sort(key=lambda x: (x.shanten, -x.useful_total, T.tile_index(x.tile)))
    return ShantenResult(T.format_hand(h), sh, discards=discards)


def shanten_many(counts: np.ndarray) -> np.ndarray:
    """Standard-form shanten of each row of an (N, 34) uint8 array of concealed counts.

    Each row holds 3k+1 or 3k+2 tiles (k sets to make). Returns int8[N].
    """
    return _shanten_many(_bulk(counts), tables())


def waits_many(counts: np.ndarray) -> np.ndarray:
    """Structural (standard-form) waits of each 3k+1-tile row: bool[N, 34]."""
    return _waits_many(_bulk(counts), tables())


def _bulk(counts) -> np.ndarray:
    arr = np.ascontiguousarray(counts, dtype=np.uint8)
    if arr.ndim != 2 or arr.shape[1] != L.N_KINDS:
        raise HandError(f"expected an (N, 34) array of tile counts, got shape {arr.shape}")
    if (arr > 4).any():
        raise HandError("tile counts must be 0-4")
    return arr
