"""Public API for settling one win: fan items, who pays whom, kong money (docs/rules.md §5-§7).

Every judgment is made by the kernels (``judge.judge_win`` for legality and flags,
``score.score_win`` / ``fan_items`` / ``settle_declared`` for fan and payments,
``score.kong_money`` for kongs, ``bao`` for 摸宝/对宝); this module only validates input, calls
them and packages the answer. Seats are E S W N (counter-clockwise); the dealer sits E.

>>> r = score("123m456p46s55s111z", how="mobao", bao="9p")
>>> r.legal, r.stands_for, [(i.name, i.fan) for i in r.fan_items]
(True, '5s', [('win', 1), ('menqing', 1), ('jiahu', 1), ('zimo', 1), ('bao', 1), ('dealer', 1)])
>>> r.payments
{'E': -32, 'S': 64, 'W': -16, 'N': -16}
"""

from dataclasses import asdict, dataclass
from functools import lru_cache

import numpy as np

from . import tiles as T
from ._kernels import layout as L
from ._kernels.bao import LOOK_OK, score_any
from ._kernels.score import dealer_charged, dianpao_charged, kong_money, kong_value
from ._kernels.tables import tables
from .errors import HandError, UsageError
from .hand import reasons_of
from .rules import Variant, load_variant

SEATS = "ESWN"
DEALER = 0  # the dealer sits East
HOWS = {"self": L.HOW_SELF, "discard": L.HOW_DISCARD, "mobao": L.HOW_MOBAO, "duibao": L.HOW_DUIBAO}
# fan items in FAN_* order: (name, Chinese name)
FAN_NAMES = (
    ("win", "平胡"),
    ("menqing", "门清"),
    ("jiahu", "夹胡"),
    ("piao", "飘胡"),
    ("zimo", "自摸"),
    ("bao", "宝"),
    ("dealer", "庄"),
    ("dianpao", "点炮"),
    ("qidui", "七对"),
    ("haohua", "豪华七对"),
    ("chongbao", "冲宝"),
    ("piaoding", "飘顶"),
)
LOOK_REASONS = {1: "not_tenpai", 2: "duanyaojiu"}
KONG_KINDS = frozenset((L.MELD_KONG, L.MELD_ANKONG)) | frozenset(
    range(L.FIRST_SPECIAL, L.MELD_JIUDAN + 1)
)


@dataclass(frozen=True)
class FanItem:
    name: str
    name_zh: str
    fan: int
    seats: list[str]  # the losers charged this item


@dataclass(frozen=True)
class KongLine:
    seat: str
    meld: str
    value: int  # base units each other seat pays


@dataclass(frozen=True)
class ScoreResult:
    hand: str
    win: str | None  # the tile the win is scored on (for 摸宝: the wait the bao stands for)
    how: str
    seat: str
    discarder: str | None
    bao: str | None
    stands_for: str | None
    legal: bool
    reasons: list[str]
    fan_items: list[FanItem]
    fan_by_seat: dict[str, int]
    payments: dict[str, int]  # the hand, base units, winner positive, sums to zero
    kongs: list[KongLine]
    kong_payments: dict[str, int]
    total: dict[str, int]
    base: int
    total_amount: dict[str, int]  # total x base
    fan_cap: int | None  # the variant's 封顶 (cap_fan): no loser's fan exceeds it

    def to_dict(self) -> dict:
        return asdict(self)


def _variant(rules: Variant | str | None) -> Variant:
    return rules if isinstance(rules, Variant) else load_variant(rules)


@lru_cache(maxsize=65536)
def _parse(text: str, meld_rules: T.MeldRules) -> T.Hand:
    h = T.parse_hand(text, meld_rules)
    h.concealed.setflags(write=False)  # shared by the cache: never modified in place
    return h


def parse_hand(text: str, v: Variant) -> T.Hand:
    """Parse (cached) with the variant's meld rules."""
    return _parse(text, v.meld_rules)


@lru_cache(maxsize=256)
def tile(text: str, what: str) -> int:
    try:
        return T.tile_index(text)
    except HandError as e:
        raise HandError(f"bad {what}: {e.message}") from None


@lru_cache(maxsize=64)
def seat_index(text: str, what: str) -> int:
    s = text.strip().upper()
    if len(s) != 1 or s not in SEATS:
        raise UsageError(f"bad {what} '{text}': expected a seat E, S, W or N")
    return SEATS.index(s)


def parse_kongs(
    text: str | None, v: Variant, winner: int | None = None
) -> list[tuple[int, T.Meld]]:
    """``--kongs`` text: ``SEAT:MELDS`` items, comma-separated: ``E:(5555m),W:[1234z][567z]``.

    Each item names a seat (E S W N) and one or more declared kongs (open ``[5555m]``, concealed
    ``(5555m)``, special kongs with 补 tiles) that seat holds. With ``winner``, the winner's
    seat is refused (his kongs are in his hand) and no seat may hold more than four melds.
    """
    out: list[tuple[int, T.Meld]] = []
    if not text or not text.strip():
        return out
    for item in text.split(","):
        if not item.strip():
            raise UsageError(
                f"bad --kongs {_cut(text)!r}: an empty item (two commas in a row, or a comma "
                "at an end); give SEAT:MELDS items separated by commas"
            )
        shown = _cut(item.strip())
        seat_text, sep, melds = item.partition(":")
        if not sep:
            raise UsageError(f"bad --kongs item '{shown}': expected SEAT:MELDS, e.g. E:(5555m)")
        s = seat_index(seat_text, "--kongs seat")
        bracketed = UsageError(
            f"bad --kongs item '{shown}': give bracketed kongs, e.g. [5555m] or (5555m)"
        )
        if not melds.strip():
            raise bracketed
        try:
            h = T.parse_hand(melds, v.meld_rules)
        except HandError as e:  # name the option, not "bad hand"
            detail = e.message.split("': ", 1)[-1]
            raise UsageError(f"bad --kongs item '{shown}': {detail}") from None
        if h.n_concealed or not h.melds:
            raise bracketed
        for m in h.melds:
            if m.kind not in KONG_KINDS:
                raise UsageError(f"bad --kongs item '{shown}': {m.text()} is not a kong")
            out.append((s, m))
        if s == winner:
            raise UsageError(
                f"bad --kongs item '{shown}': {SEATS[s]} is the winner, whose kongs "
                "belong in HAND (written in it as [5555m] or (5555m))"
            )
        if sum(1 for seat, _ in out if seat == s) > 4:
            raise UsageError(
                f"bad --kongs: more than four kongs for {SEATS[s]} (a hand holds at most 4 melds)"
            )
    return out


def _cut(text: str, n: int = 60) -> str:
    return text if len(text) <= n else text[: n - 3] + "..."


def discarder_state(declared: bool, looked: bool) -> int:
    """The discarder's state for 包庄 (DISCARDER_*): ``looked`` implies ``declared``."""
    if looked:
        return L.DISCARDER_LOOKED
    return L.DISCARDER_DECLARED if declared else L.DISCARDER_UNDECLARED


def _seat_dict(arr, scale: int = 1) -> dict[str, int]:
    return {SEATS[i]: int(arr[i]) * scale for i in range(L.N_SEATS)}


def fan_item_list(
    items, winner: int, discarder: int, how: int, rv, charged: tuple[int, ...]
) -> list[FanItem]:
    """The fan items of a legal win, each with the losers it is charged to.

    ``items``: the kernel's per-item fan (``fan_items``); ``charged``: the seats that pay (fan > 0
    in ``settle``'s ``fan_out``). 庄 goes to every loser when the winner is the dealer, else to the
    dealer; 点炮 to the discarder (not to a dealer under dealer_dianpao_stacks: false): the
    kernels ``dealer_charged`` / ``dianpao_charged`` that ``settle`` uses. An item charged to
    nobody is left out.
    """
    losers = [SEATS[s] for s in range(L.N_SEATS) if s in charged]
    out = [
        FanItem(FAN_NAMES[i][0], FAN_NAMES[i][1], int(items[i]), losers)
        for i in range(L.N_FAN)
        if items[i]
    ]
    dealer_fan = int(rv[L.RV_FAN_BASE + L.FAN_DEALER])
    dealer_seats = [SEATS[s] for s in charged if dealer_charged(s, winner, DEALER)]
    if dealer_fan and dealer_seats:
        out.append(FanItem("dealer", "庄", dealer_fan, dealer_seats))
    dianpao_fan = int(rv[L.RV_FAN_BASE + L.FAN_DIANPAO])
    dianpao_seats = [SEATS[s] for s in charged if dianpao_charged(s, DEALER, discarder, how, rv)]
    if dianpao_fan and dianpao_seats:
        out.append(FanItem("dianpao", "点炮", dianpao_fan, dianpao_seats))
    order = {name: i for i, (name, _) in enumerate(FAN_NAMES)}
    return sorted(out, key=lambda x: order[x.name])


@lru_cache(maxsize=4096)
def prepare_options(
    win: str | None,
    how: str,
    seat: str | None,
    discarder: str | None,
    bao: str | None,
    base: int = 1,
) -> tuple[int, int, int, int, int]:
    """Validate the options of one win: (drawn tile, HOW_*, winner, discarder or -1, bao or -1).

    The drawn tile is the winning tile, or the bao itself for 摸宝 / 对宝.
    """
    if how not in HOWS:
        raise UsageError(f"bad how '{how}': expected self, discard, mobao or duibao")
    h_how = HOWS[how]
    if isinstance(base, bool) or not isinstance(base, int) or base < 1:
        raise UsageError(f"bad base {base!r}: expected a whole number >= 1")
    winner = seat_index("S" if seat is None else seat, "seat")
    d = -1
    if h_how == L.HOW_DISCARD:
        if not discarder:
            raise UsageError("a discard win needs the discarder (--from SEAT)")
        d = seat_index(discarder, "discarder")
        if d == winner:
            raise UsageError("the discarder cannot be the winner")
    elif discarder:
        raise UsageError(f"--from is only for a discard win (this one is {how})")
    b = -1
    if h_how in (L.HOW_MOBAO, L.HOW_DUIBAO):
        if bao is None and win is None:
            raise UsageError(f"a {how} win needs the bao tile (--bao TILE)")
        b = tile(bao if bao is not None else win, "bao")
        if win is not None and tile(win, "win") != b:
            if h_how == L.HOW_DUIBAO:
                raise UsageError("a 对宝 win is on the bao itself: --win must equal --bao")
            raise UsageError(
                "a 摸宝 win is drawn on the bao kind: give --bao only "
                "(the wait the bao stands for is chosen by score)"
            )
        w = b
    else:
        if bao is not None:
            raise UsageError(f"--bao is only for a mobao or duibao win (this one is {how})")
        if win is None:
            raise UsageError("the winning tile is needed (--win TILE)")
        w = tile(win, "win")
    return w, h_how, winner, d, b


def prepare_hand(h: T.Hand, w: int, text: str) -> tuple[np.ndarray, np.ndarray]:
    """The concealed tiles before the win and the player's own counts (melds included).

    A complete hand (3k+2) must hold the drawn tile ``w``, which is taken out of it.
    """
    k = 4 - h.n_sets
    c = h.concealed.copy()
    n = int(c.sum())
    own = h.own_counts()
    if n == 3 * k + 2:
        if c[w] == 0:
            raise HandError(
                f"bad hand '{text.strip()}': a complete hand must hold "
                f"the winning tile {T.tile_name(w)}"
            )
        c[w] -= 1
        own[w] -= 1
    elif n != 3 * k + 1:
        T.require_size(h, (1, 2), text, "score")
    elif own[w] >= 4:
        raise HandError(f"bad win '{T.tile_name(w)}': all four copies are in the hand")
    return c, own


def kong_settlement(melds, rv) -> tuple[np.ndarray, list[KongLine]]:
    """Kong money for (seat, meld) pairs: per-seat payments (base units) and one line per kong."""
    n = len(melds)
    kinds, firsts, bus, owners = (np.zeros(n, np.int64) for _ in range(4))
    lines = []
    for i, (s, m) in enumerate(melds):
        kinds[i], firsts[i], bus[i], owners[i] = m.kind, m.tiles[0], m.bu, s
        value = int(kong_value(m.kind, m.tiles[0], m.bu, rv))
        if value:
            lines.append(KongLine(SEATS[s], m.text(), value))
    pay = np.zeros(L.N_SEATS, np.int64)
    kong_money(kinds, firsts, bus, owners, n, rv, pay)
    return pay, lines


def score(
    hand: T.Hand | str,
    win: str | None = None,
    how: str = "self",
    seat: str = "S",
    discarder: str | None = None,
    bao: str | None = None,
    base: int = 1,
    kongs: str | None = None,
    declared: bool = False,
    rules: Variant | str | None = None,
    looked: bool = False,
) -> ScoreResult:
    """Settle one win. ``hand`` is the hand before the win (3k+1 concealed tiles beside its
    melds) or after it (3k+2, the winning tile — the drawn bao for 摸宝 — included).

    ``how``: self | discard | mobao | duibao. ``seat``: the winner; ``discarder``: the seat that
    discarded (discard wins); ``bao``: the bao tile (摸宝 / 对宝; defaults to ``win``);
    ``declared``: the discarder had declared tenpai (matters for ``cover_only_undeclared``);
    ``looked``: he had declared and looked at the current bao (implies ``declared``; matters
    for ``cover_needs_look``);
    ``kongs``: other seats' kongs, ``SEAT:MELDS,...``. Bad input raises a CcmjError.
    """
    v = _variant(rules)
    if isinstance(hand, T.Hand):
        h, text = hand, T.format_hand(hand)
    else:
        h, text = parse_hand(hand, v), hand
    w, h_how, winner, d, b = prepare_options(win, how, seat, discarder, bao, base)
    c, own = prepare_hand(h, w, text)
    others = parse_kongs(kongs, v, winner)
    _check_copies(own, w, others, text)
    check_one_per_kind([(winner, m) for m in h.melds] + others, v)
    rv = v.vector
    rd = np.zeros(L.RD_LEN, np.int64)
    items = np.zeros(L.N_FAN, np.int64)
    fan_out = np.zeros(L.N_SEATS, np.int64)
    pay = np.zeros(L.N_SEATS, np.int64)
    res = np.zeros(3, np.int64)
    legal = bool(
        score_any(
            c,
            w,
            h.meld_summary(),
            own,
            h_how,
            winner,
            DEALER,
            d,
            discarder_state(declared, looked),
            rv,
            tables(),
            rd,
            items,
            fan_out,
            pay,
            res,
        )
    )
    if res[2] != LOOK_OK:
        reasons = [LOOK_REASONS[int(res[2])]]
    else:
        reasons = [] if legal else reasons_of(int(rd[L.RD_FAILS]))
    kong_pay, kong_lines = kong_settlement([(winner, m) for m in h.melds] + others, rv)
    charged = tuple(int(x) for x in np.flatnonzero(fan_out))
    fan_list = fan_item_list(items, winner, d, h_how, rv, charged) if legal else []
    total = pay + kong_pay
    scored = int(res[1])
    return ScoreResult(
        hand=T.format_hand(h),
        win=T.tile_name(scored) if scored >= 0 else None,
        how=how,
        seat=SEATS[winner],
        discarder=SEATS[d] if d >= 0 else None,
        bao=T.tile_name(b) if b >= 0 else None,
        stands_for=T.tile_name(scored) if h_how == L.HOW_MOBAO and res[2] == LOOK_OK else None,
        legal=legal,
        reasons=reasons,
        fan_items=fan_list,
        fan_by_seat=_seat_dict(fan_out),
        payments=_seat_dict(pay),
        kongs=kong_lines,
        kong_payments=_seat_dict(kong_pay),
        total=_seat_dict(total),
        base=base,
        total_amount=_seat_dict(total, base),
        fan_cap=int(v.vector[L.RV_CAP_FAN]) or None,
    )


def check_one_per_kind(melds, v: Variant) -> None:
    """one_special_kong_per_kind: no seat holds two special kongs of one kind, counting the
    winner's hand and every --kongs item of that seat."""
    if not v.one_special_kong_per_kind:
        return
    for s in range(L.N_SEATS):
        pair = T.repeated_special(m for seat, m in melds if seat == s)
        if pair is not None:
            raise UsageError(f"bad --kongs: seat {SEATS[s]}: {T.one_per_kind_message(*pair)}")


def _check_copies(own: np.ndarray, drawn: int, others, text: str):
    """No tile more than 4 times across the winner's hand, the drawn tile and the --kongs."""
    counts = own.astype(np.int64)
    counts[drawn] += 1
    for _, m in others:
        for t in m.tiles:
            counts[t] += 1
    over = np.flatnonzero(counts > 4)
    if over.size:
        t = int(over[0])
        raise HandError(
            f"bad hand '{text.strip()}': {counts[t]} copies of {T.tile_name(t)} counting --kongs "
            "(there are only 4)"
        )
