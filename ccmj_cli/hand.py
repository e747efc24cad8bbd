"""Public API for one hand: waits, check and shanten, returning dataclasses.

Every judgment is made by the kernels in ``_kernels`` with the variant passed in; this module
only validates input, calls them and packages the answers.

>>> r = waits("23m456p789s111z55s")
>>> [(w.tile, w.legal, w.jiahu) for w in r.waits]
[('1m', True, False), ('4m', True, False)]
>>> check("123m456p789s1123s", "4s").reasons
['no_pung']
"""

from dataclasses import asdict, dataclass, field

import numpy as np

from . import tiles as T
from ._kernels import layout as L
from ._kernels.judge import W_COLS, W_FAILS, W_JIAHU, W_LEGAL, W_PIAO, W_STRUCTURAL
from ._kernels.judge import judge_waits as _judge_waits
from ._kernels.judge import judge_win as _judge_win
from ._kernels.shape import shanten as _shanten
from ._kernels.shape import shanten_many as _shanten_many
from ._kernels.shape import useful_mask as _useful_mask
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


def reasons_of(fails: int) -> list[str]:
    """Stable codes for a failure bit mask."""
    if fails & L.FAIL_INCOMPLETE:
        return ["incomplete"]
    return [code for bit, code in FAIL_CODES if fails & bit]


def _variant(rules: Variant | str | None) -> Variant:
    return rules if isinstance(rules, Variant) else load_variant(rules)


def _hand(hand: T.Hand | str, variant: Variant) -> tuple[T.Hand, str]:
    if isinstance(hand, T.Hand):
        return hand, T.format_hand(hand)
    return T.parse_hand(hand, sanfeng=variant.sanfeng_dan, xiaoji=variant.xiaoji_feidan), hand


def unseen_counts(hand: T.Hand, visible: str | list[int] | None, text: str) -> np.ndarray:
    """Copies of each tile not in the player's hand/melds nor visible (int64[34])."""
    own = hand.own_counts().astype(np.int64)
    vis = np.zeros(L.N_KINDS, np.int64)
    for t in T.parse_tiles(visible, "visible tiles") if isinstance(visible, str) else visible or []:
        vis[t] += 1
    total = own + vis
    over = np.flatnonzero(total > 4)
    if over.size:
        t = int(over[0])
        raise HandError(
            f"bad hand '{text.strip()}': {total[t]} copies of {T.tile_name(t)} "
            "counting the visible tiles (there are only 4)"
        )
    return 4 - total


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
        return asdict(self)


def waits(
    hand: T.Hand | str, visible: str | None = None, rules: Variant | str | None = None
) -> WaitsResult:
    """Structural and legal waits of a 13-tile hand (fewer concealed tiles beside melds)."""
    v = _variant(rules)
    h, text = _hand(hand, v)
    T.require_size(h, 1, text, "waits")
    unseen = unseen_counts(h, visible, text)
    own = h.own_counts()
    out = np.zeros((L.N_KINDS, W_COLS), np.int64)
    n_live = _judge_waits(h.concealed.copy(), h.meld_summary(), own, v.vector, tables(), out)
    rows = []
    for t in np.flatnonzero(out[:, W_STRUCTURAL]):
        rows.append(
            Wait(
                tile=T.tile_name(int(t)),
                legal=bool(out[t, W_LEGAL]),
                reasons=reasons_of(int(out[t, W_FAILS])),
                live=int(unseen[t]),
                jiahu=bool(out[t, W_JIAHU]),
                piao=bool(out[t, W_PIAO]),
            )
        )
    tenpai = n_live > 0
    reason = bao_block_reason(h, tenpai, v)
    return WaitsResult(
        hand=T.format_hand(h),
        tenpai=tenpai,
        can_look_bao=reason is None,
        bao_reason=reason,
        waits=rows,
        live_total=sum(w.live for w in rows if w.legal),
    )


def bao_block_reason(h: T.Hand, tenpai: bool, v: Variant) -> str | None:
    """Why a hand may not look at the bao (None if it may): not tenpai, or 断幺九."""
    if not tenpai:
        return "not_tenpai"
    if v.bao_forbidden_without_yaojiu:
        own = h.own_counts()
        if not any(own[t] and T.is_yaojiu(t) for t in range(L.N_KINDS)):
            return "duanyaojiu"
    return None


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
        return asdict(self)


def reading_of(rd: np.ndarray) -> list[str]:
    if rd[L.RD_FAILS] & L.FAIL_INCOMPLETE:
        return []
    if rd[L.RD_PAIR] < 0:
        return ["qidui"]
    parts = [T.format_tiles([rd[L.RD_PAIR]] * 2)]
    for i in range(int(rd[L.RD_NSETS])):
        kind, t = rd[L.RD_SETS + 2 * i], int(rd[L.RD_SETS + 2 * i + 1])
        parts.append(T.format_tiles([t] * 3 if kind == L.SET_PUNG else [t, t + 1, t + 2]))
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
        d = asdict(self)
        return {k: v for k, v in d.items() if v is not None}


def _useful(c: np.ndarray, unseen: np.ndarray) -> tuple[list[Useful], int]:
    m = _useful_mask(c, tables())
    rows = [Useful(T.tile_name(t), int(unseen[t])) for t in range(L.N_KINDS) if m >> t & 1]
    return rows, sum(u.live for u in rows)


def shanten(
    hand: T.Hand | str, visible: str | None = None, rules: Variant | str | None = None
) -> ShantenResult:
    """Standard-form shanten; useful tiles (13) or each discard best first (14, 牌理 view)."""
    v = _variant(rules)
    h, text = _hand(hand, v)
    k = 4 - h.n_sets
    if h.n_concealed not in (3 * k + 1, 3 * k + 2):
        T.require_size(h, 1, text, "shanten")  # raises with the expected count
    unseen = unseen_counts(h, visible, text)
    c = h.concealed.copy()
    sh = int(_shanten(c, tables()))
    if h.n_concealed == 3 * k + 1:
        useful, total = _useful(c, unseen)
        return ShantenResult(T.format_hand(h), sh, useful, total)
    discards = []
    ms, own = h.meld_summary(), h.own_counts()
    wait_out = np.zeros((L.N_KINDS, W_COLS), np.int64)
    # the discarded tile goes to the river, so live counts stay those of the 14-tile hand
    for d in np.flatnonzero(c):
        c[d] -= 1
        own[d] -= 1
        dsh = int(_shanten(c, tables()))
        useful, total = _useful(c, unseen)
        lw = lw_total = None
        if dsh == 0:
            _judge_waits(c, ms, own, v.vector, tables(), wait_out)
            lw = [Useful(T.tile_name(t), int(unseen[t])) for t in np.flatnonzero(wait_out[:, W_LEGAL])]
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
