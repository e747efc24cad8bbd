"""Public API for the bao (宝牌, docs/rules.md §6): what the bao does for a tenpai hand.

The judgments are kernels in ``_kernels/bao.py`` (look, 对宝, the wait a 摸宝 stands for, 换宝);
the score comes from ``scoring.score``. This module validates, calls and packages.

>>> r = bao("123m456p46s55s111z", "9p")
>>> r.outcome, r.stands_for, r.score.total["S"]
('mobao_possible', '5s', 64)
>>> bao("123m456p46s55s111z", "5s").outcome
'duibao'
>>> bao("3334m111p567s789s", "1p").outcome  # every other 1p is in the hand: nothing to draw
'no_mobao'
"""

from dataclasses import asdict, dataclass

import numpy as np

from . import tiles as T
from ._kernels import layout as L
from ._kernels.bao import (
    BAO_CANNOT_LOOK,
    BAO_DUIBAO,
    BAO_MOBAO_POSSIBLE,
    BAO_NO_MOBAO,
    CHANGE_MUST,
    CHANGE_NONE,
    bao_outcome,
    change_rule,
)
from ._kernels.tables import tables
from .errors import HandError
from .rules import Variant, load_variant
from .scoring import LOOK_REASONS, ScoreResult, parse_hand, score, seat_index, tile

OUTCOMES = {
    BAO_DUIBAO: "duibao",
    BAO_MOBAO_POSSIBLE: "mobao_possible",
    BAO_CANNOT_LOOK: "cannot_look",
    BAO_NO_MOBAO: "no_mobao",
}
CHANGE = "change"  # 换宝: this bao is re-rolled at the look, so it neither 对宝s nor 摸宝s


@dataclass(frozen=True)
class BaoResult:
    hand: str
    bao: str
    can_look: bool
    reason: str | None  # why the hand may not look: not_tenpai | duanyaojiu
    outcome: str  # duibao | mobao_possible | no_mobao | change | cannot_look
    stands_for: str | None  # the tile the win is scored on (对宝: the bao; 摸宝: the best wait)
    score: ScoreResult | None  # the 对宝 win, or what a 摸宝 win would score
    live: int  # copies of the bao kind still to draw (not held, not visible, not the bao itself)
    public: int  # copies of the bao kind public (visible tiles and the player's exposed melds)
    must_change: bool  # 换宝: the three other copies are public (bao_change always)
    may_change: bool  # the three other copies are public: the bao may be re-rolled (optional)

    def to_dict(self) -> dict:
        return asdict(self)


def bao(
    hand: T.Hand | str,
    bao_tile: str,
    visible: str | None = None,
    seat: str = "S",
    base: int = 1,
    rules: Variant | str | None = None,
) -> BaoResult:
    """What the bao ``bao_tile`` does for the 13-tile ``hand`` (3k+1 concealed beside melds).

    ``visible``: tiles public elsewhere (discards, other players' exposed melds).
    """
    seat_index(seat, "seat")  # (a bad seat is refused whatever the hand)
    v = rules if isinstance(rules, Variant) else load_variant(rules)
    if isinstance(hand, T.Hand):
        h, text = hand, T.format_hand(hand)
    else:
        h, text = parse_hand(hand, v), hand
    T.require_size(h, 1, text, "bao")
    b = tile(bao_tile, "bao")
    own = h.own_counts()
    vis = np.zeros(L.N_KINDS, np.int64)
    for t in T.parse_tiles(visible, "visible tiles") if visible else []:
        vis[t] += 1
    if own[b] + vis[b] > 3:
        raise HandError(
            f"bad bao '{T.tile_name(b)}': {own[b] + vis[b]} copies held or visible, "
            "but the bao tile itself lies in the wall"
        )
    over = np.flatnonzero(own.astype(np.int64) + vis > 4)
    if over.size:
        t = int(over[0])
        raise HandError(
            f"bad hand '{text.strip()}': more than 4 copies of {T.tile_name(t)} counting --visible"
        )
    public = vis.copy()
    for m in h.melds:
        if m.is_public:  # a concealed kong stays private
            for t in m.tiles:
                public[t] += 1
    out = np.zeros(2, np.int64)
    live = max(int(4 - own[b] - vis[b] - 1), 0)
    rv = v.vector
    code = int(bao_outcome(h.concealed.copy(), b, live, h.meld_summary(), own, rv, tables(), out))
    change = int(change_rule(b, public, rv))
    result = None
    stands = None
    # under bao_change optional the player may keep the bao: it is judged as if it stays
    if code in (BAO_DUIBAO, BAO_MOBAO_POSSIBLE) and change != CHANGE_MUST:
        how = "duibao" if code == BAO_DUIBAO else "mobao"
        result = score(h, how=how, bao=T.tile_name(b), seat=seat, base=base, rules=v)
        stands = result.win
    return BaoResult(
        hand=T.format_hand(h),
        bao=T.tile_name(b),
        can_look=code != BAO_CANNOT_LOOK,
        reason=LOOK_REASONS.get(int(out[0])),
        outcome=CHANGE if change == CHANGE_MUST and code != BAO_CANNOT_LOOK else OUTCOMES[code],
        stands_for=stands,
        score=result,
        live=live,
        public=int(public[b]),
        must_change=change == CHANGE_MUST,
        may_change=change != CHANGE_NONE,
    )
