"""A slow, readable reference for scoring, kong money and the bao, written from RULES.md §5-§7.

The legal-win judgment (legality, 独听, 夹胡, 飘胡, 门清, the readings) comes from ``naive.py``,
which is itself written from RULES.md §2-§4 and does not touch the kernels. Everything after
that — the fan items, each loser's fan, who pays whom under every 点炮 mode, the cap, kong money,
对宝 / 摸宝 / 换宝 — is written here once more, one small function per rule, with the rule text in
its docstring. Nothing here imports ccmj_cli's fan items, settlement, bao or scoring code.

Vocabulary
- Seats are 0-3 = E S W N (counter-clockwise); the dealer sits E (seat 0), as ``ccmj score``.
- ``hand``: a ``Hand`` below (or anything with ``concealed`` counts and ``melds``), the player's
  hand BEFORE the win: 3k+1 concealed tiles beside k' = 4 - k declared melds.
- A meld has ``name`` (chow, pung, kong, concealed_kong, xuanfeng, xi, yaodan, jiudan) and
  ``tiles`` (the physical tiles, 补 tiles of a special kong included).
- ``opts``: the variant options, a mapping such as ``load_variant(...).options``.
- ``how``: self | discard | mobao | duibao.
- The discarder's state for 包庄: ``declared`` (he had declared tenpai, 报听) and ``looked`` (he
  had declared and looked at the current bao; ``looked`` implies ``declared``).

The room options each live in the function of the rule they change: the stake ladder
(``stakes``) in ``payment_of_fan``, a discarding dealer (``dealer_dianpao_stacks``) in
``pays_dianpao``, 包庄's tests (``cover_only_undeclared``, ``cover_needs_look``) in
``discarder_covers``, 豪华七对 (``haohua``) in ``item_haohua``, a 断幺九 hand's declaration
(``duanyaojiu_may_declare``) in ``may_declare``, the 补 count of a 三风蛋 in ``special_base``,
换宝 as a choice (``bao_change``) in ``change_at_look``.
"""

from dataclasses import dataclass

import naive

N = 34
SEATS = "ESWN"
DEALER = 0  # the dealer sits East
HOWS = ("self", "discard", "mobao", "duibao")
# fan items in the order ccmj reports them (庄 and 点炮 are per loser: see dealer_step/dianpao_step)
ITEM_ORDER = ("win", "menqing", "jiahu", "piao", "zimo", "bao", "dealer", "dianpao", "qidui",
              "haohua", "chongbao", "piaoding")  # fmt: skip
# 大蛋 tiles (RULES.md §7): 幺鸡 1s, 幺饼 1p, 白 5z, 发 6z, 中 7z
DADAN_TILES = (18, 9, 31, 32, 33)
WINDS = (27, 28, 29, 30)
SPECIAL_GROUPS = {
    "xuanfeng": WINDS,  # 旋风杠 东南西北
    "xi": (31, 32, 33),  # 喜杠 白发中
    "yaodan": (0, 9, 18),  # 幺蛋 1m1p1s
    "jiudan": (8, 17, 26),  # 九蛋 9m9p9s
}
EXPOSED = ("chow", "pung", "kong", *SPECIAL_GROUPS)  # every declared meld but a concealed kong


@dataclass(frozen=True)
class Meld:
    name: str
    tiles: tuple


@dataclass(frozen=True)
class Hand:
    """The hand before the win: 34 concealed counts and the declared melds."""

    concealed: tuple
    melds: tuple = ()


def own_counts(hand) -> list[int]:
    """Every tile the player holds, melds included."""
    return naive.own_counts(hand)


def with_tile(hand, t: int) -> list[int]:
    """The concealed counts after the winning tile ``t`` joins them."""
    c = [int(x) for x in hand.concealed]
    c[t] += 1
    return c


# =========================================================================== the win (§3-§4)


def judge(hand, t: int, opts) -> naive.Verdict:
    """The naive judgment of hand + ``t`` (独听 from the hand's own live legal waits)."""
    return naive.check(hand, t, opts)


# =========================================================================== fan items (§5)
# "Payment from each paying loser = base × 2^(fan − 1), fan counted per loser:
#  any win 1 | 门清 +1 | 夹胡 +1 | 飘胡 +2 | 自摸 (also every bao win) +1 | 宝 (摸宝 or 对宝) +1 |
#  winner is dealer, or this loser is dealer +1 | this loser discarded the winning tile +1"
# The values are the variant's ``fan.*``.


def item_win(opts) -> int:
    """平胡: "any win" scores the base fan."""
    return opts["fan"]["win"]


def item_menqing(hand, opts) -> int:
    """门清 (站立/立胡): no claimed meld; a concealed kong keeps it, a special kong (下蛋) breaks it
    unless ``special_kong_breaks_menqing`` is false."""
    mq = naive.menqing(naive.melds_info(hand.melds, opts), opts)
    return opts["fan"]["menqing"] if mq else 0


def item_jiahu(jia: bool, opts) -> int:
    """夹胡, as the reading of the win says (独听 / 坎张 / 边张 / 单调, the ``jiahu`` mode)."""
    return opts["fan"]["jiahu"] if jia else 0


def item_piao(piao: bool, opts) -> int:
    """飘胡: all four sets pungs/kongs."""
    return opts["fan"]["piao"] if piao else 0


def item_qidui(qidui: bool, opts) -> int:
    """七对 (only when the variant allows seven pairs)."""
    return opts["fan"]["qidui"] if qidui else 0


def item_haohua(qidui: bool, c14, t: int, opts) -> int:
    """豪华七对, on top of 七对 (``c14``: the concealed tiles with the winning tile ``t``):
    ``haohua: any_quad`` — the 七对 holds four of a kind; ``wait_completes_quad`` (MIL 九) — the
    win makes the four (the hand waited on a pair it already held; a four held before the win
    is plain 七对)."""
    if not qidui:
        return 0
    quad = c14[t] == 4 if opts["haohua"] == "wait_completes_quad" else 4 in c14
    return opts["fan"]["haohua"] if quad else 0


def item_zimo(how: str, opts) -> int:
    """自摸: a self-drawn win, "also every bao win" (摸宝 and 对宝 count as 自摸)."""
    return opts["fan"]["zimo"] if how != "discard" else 0


def item_bao(how: str, opts) -> int:
    """宝: a 摸宝 or 对宝 win."""
    return opts["fan"]["bao"] if how in ("mobao", "duibao") else 0


def item_chongbao(how: str, opts) -> int:
    """冲宝翻倍 (``chongbao_double``): a 对宝 counts one more fan (not a 摸宝)."""
    return opts["fan"]["chongbao"] if how == "duibao" and opts["chongbao_double"] else 0


def item_piaoding(hand, piao: bool, opts) -> int:
    """飘顶 (``fan.piaoding``): a 手把一 hand — four declared sets and one concealed tile (a
    concealed kong of four, face down, counted as concealed tiles under
    shoubayi_ankong_concealed; a laid 大蛋 ``(777z)`` is face up) — that wins 飘胡 scores this on
    top of 飘胡."""
    hidden = opts["shoubayi_ankong_concealed"]
    n = sum(m.name != "concealed_kong" or len(m.tiles) == 3 or not hidden for m in hand.melds)
    return opts["fan"]["piaoding"] if piao and n == 4 else 0


def common_items(hand, t: int, how: str, flags, opts) -> dict[str, int]:
    """The items every loser pays, for a legal win on ``t`` whose reading has
    ``flags`` = (夹胡, 飘胡, 七对): name -> fan, items worth 0 left out."""
    jia, piao, qidui = flags
    items = {
        "win": item_win(opts),
        "menqing": item_menqing(hand, opts),
        "jiahu": item_jiahu(jia, opts),
        "piao": item_piao(piao, opts),
        "zimo": item_zimo(how, opts),
        "bao": item_bao(how, opts),
        "qidui": item_qidui(qidui, opts),
        "haohua": item_haohua(qidui, with_tile(hand, t), t, opts),
        "chongbao": item_chongbao(how, opts),
        "piaoding": item_piaoding(hand, piao, opts),
    }
    return {k: v for k, v in items.items() if v}


def dealer_step(winner: int, loser: int, opts) -> int:
    """庄 (坐庄): "+1 when the winner is dealer, or this loser is dealer"."""
    return opts["fan"]["dealer"] if DEALER in (winner, loser) else 0


def pays_dianpao(how: str, discarder, loser: int, opts) -> bool:
    """Is ``loser`` charged the 点炮 step: he discarded the winning tile — except a dealer under
    ``dealer_dianpao_stacks: false`` (seed 000: "如果平家点炮再翻一倍，庄家不变": a non-dealer
    discarder pays one step more, a discarding dealer pays his 庄 step alone)."""
    if how != "discard" or loser != discarder:
        return False
    return loser != DEALER or opts["dealer_dianpao_stacks"]


def dianpao_step(how: str, discarder, loser: int, opts) -> int:
    """点炮: "+1 for the loser who discarded the winning tile" (放炮者多输 1 番)."""
    return opts["fan"]["dianpao"] if pays_dianpao(how, discarder, loser, opts) else 0


def capped(fan: int, opts) -> int:
    """封顶 (``cap_fan``): no loser pays at more than the cap."""
    cap = opts["cap_fan"]
    return min(fan, cap) if cap else fan


def loser_fan(common: int, winner: int, loser: int, how: str, discarder, opts) -> int:
    """The fan one loser's share is counted at: the common items + his 庄 and 点炮 steps, capped."""
    f = common + dealer_step(winner, loser, opts) + dianpao_step(how, discarder, loser, opts)
    return capped(f, opts)


def payment_of_fan(fan: int, opts) -> int:
    """滚滚番: a share at ``fan`` is 2^(fan − 1) base units (a share at 0 fan is nothing) — or,
    in a room with a stake ladder (``stakes``: seed 000's "135" room pays 1, 3, 5, 10, 20, 40, 80
    for 1…7 fan), the ladder's amount for that fan. A variant whose losers could be charged
    more fan than the ladder lists is refused when it is loaded, so every fan is on it."""
    if fan < 1:
        return 0
    ladder = opts["stakes"]
    if not ladder:
        return 2 ** (fan - 1)
    assert fan <= len(ladder), f"{fan} fan is beyond the stake ladder {ladder}"
    return ladder[fan - 1]


# =========================================================================== who pays (§5, §9)


def only_discarder_pays(how: str, opts) -> bool:
    """一家付 (``dianpao: discarder_only``): on a discard win only the discarder pays, his own
    share (with his 点炮 fan); the other two pay nothing ("只有放炮家输分，且放炮家不包分")."""
    return how == "discard" and opts["dianpao"] == "discarder_only"


def discarder_covers(how: str, declared: bool, looked: bool, opts) -> bool:
    """点炮全包 / 包庄 (``dianpao: discarder_covers_all``): on a discard win the discarder also pays
    the other two losers' shares ("点炮者在多输 1 番的同时将其它玩家输分全包 杠分不包").
    With ``cover_only_undeclared`` he covers only if he had not declared tenpai (报听); with
    ``cover_needs_look`` as well (MIL 九: 包庄 "if the discarder had not declared, or had not
    looked at the current bao") a declared discarder covers unless he had also looked. An
    exempt discarder pays his own share, like ``all_pay``. ``looked`` implies ``declared``."""
    if how != "discard" or opts["dianpao"] != "discarder_covers_all":
        return False
    declared = declared or looked
    if not (declared and opts["cover_only_undeclared"]):
        return True
    return bool(opts["cover_needs_look"]) and not looked


def settle(common: int, winner: int, how: str, discarder, declared: bool, looked: bool, opts):
    """Each loser's fan (as ``fan_by_seat`` reports it: the fan of the share he is charged for,
    0 for the winner and for a loser who pays nothing) and the payments (winner positive)."""
    fan = [0] * 4
    pay = [0] * 4
    for s in range(4):
        if s == winner:
            continue
        if only_discarder_pays(how, opts) and s != discarder:
            continue
        fan[s] = loser_fan(common, winner, s, how, discarder, opts)
        amount = payment_of_fan(fan[s], opts)
        payer = discarder if discarder_covers(how, declared, looked, opts) else s
        pay[payer] -= amount
        pay[winner] += amount
    return fan, pay


def item_list(common_map: dict, winner: int, how: str, discarder, fan: list[int], opts):
    """The fan items as ``ccmj score`` lists them: (name, fan, seats charged), in ITEM_ORDER.
    A seat is charged when its share's fan is above 0; 庄 is charged to every charged loser when
    the winner deals, else to the dealer; 点炮 to the discarder when he pays the step
    (``pays_dianpao``); an item charged to nobody is left out."""
    charged = tuple(SEATS[s] for s in range(4) if fan[s] > 0)
    items = {name: (f, charged) for name, f in common_map.items() if charged}
    dealer = opts["fan"]["dealer"]
    d_seats = charged if winner == DEALER else tuple(s for s in charged if s == SEATS[DEALER])
    if dealer and d_seats:
        items["dealer"] = (dealer, d_seats)
    d_charged = how == "discard" and SEATS[discarder] in charged
    if opts["fan"]["dianpao"] and d_charged and pays_dianpao(how, discarder, discarder, opts):
        items["dianpao"] = (opts["fan"]["dianpao"], (SEATS[discarder],))
    return tuple((name, *items[name]) for name in ITEM_ORDER if name in items)


# =========================================================================== kong money (§7)


def is_dadan(t: int) -> bool:
    """大蛋: "a kong of 幺鸡, 幺饼, 中, 发 or 白"."""
    return t in DADAN_TILES


def special_base(meld, opts) -> int:
    """Tiles that form a special kong before any 补: its whole group (4 winds, 3 dragons, 1m1p1s,
    9m9p9s) — a 幺鸡 standing in for a member (小鸡飞蛋, ``xiaoji_feidan``) counts as that
    member. Under 三风蛋 (``sanfeng_dan``) any three winds form a 旋风杠, so its base is three
    winds and every further tile is a 补: a 4-wind ``[1234z]`` is three winds + one 补 and pays
    as ``[1231z]`` (MIL 三-14…17: the same situation pays the same)."""
    if meld.name == "xuanfeng" and opts["sanfeng_dan"]:
        return 3
    return len(SPECIAL_GROUPS[meld.name])


def bu_count(meld, opts) -> int:
    """补 tiles: every tile of a special kong beyond the tiles that formed it (a 1s beyond the
    members it stands in for, a wind on a 喜杠 under ``xi_bu_any_honor``, a member of a second
    kong of one kind under ``one_special_kong_per_kind``: all are tiles of the meld)."""
    return len(meld.tiles) - special_base(meld, opts)


def kong_value(meld, opts) -> int:
    """Base units each other player pays the konger for one declared meld (RULES.md §7):
    明杠 1, 暗杠 2, 旋风杠/喜杠/幺蛋/九蛋 1, each 补 tile 1, 大蛋 2 open / 4 concealed (the
    variant's ``kong.*``); chows and pungs are worth nothing. A 大蛋 laid from the deal as
    three tiles (``dadan_laid``: ``(777z)``) is the concealed 大蛋 laid early: it pays as one."""
    k = opts["kong"]
    t = meld.tiles[0]
    if meld.name == "kong":
        return k["dadan_open"] if is_dadan(t) else k["ming"]
    if meld.name == "concealed_kong":
        return k["dadan_concealed"] if is_dadan(t) else k["an"]
    if meld.name in SPECIAL_GROUPS:
        return k["special"] + bu_count(meld, opts) * k["bu"]
    return 0


def kong_money(seat_melds, opts) -> tuple[list[int], list]:
    """Kong money (settled apart, never covered by 点炮全包, paid even on a drawn hand): each
    other seat pays each kong's value to its owner. ``seat_melds``: (seat, meld) pairs.
    Returns (per-seat amounts, [(seat, meld, value)] of the melds worth something)."""
    pay = [0] * 4
    lines = []
    for seat, meld in seat_melds:
        v = kong_value(meld, opts)
        if not v:
            continue
        lines.append((seat, meld, v))
        for s in range(4):
            if s != seat:
                pay[s] -= v
                pay[seat] += v
    return pay, lines


# =========================================================================== the bao (§6)


def live_legal_waits(hand, opts) -> list[int]:
    """Legal waits with a copy outside the player's own hand and melds (RULES.md §4)."""
    return naive.waits(hand, opts).live_legal


def has_yaojiu(hand) -> bool:
    """A terminal or honor anywhere among the player's tiles, melds included."""
    own = own_counts(hand)
    return any(own[t] and naive.is_yaojiu(t) for t in range(N))


def may_declare(hand, opts) -> bool:
    """报听: a 断幺九 hand (no 幺九 among its tiles, melds included) "may declare" by default;
    under ``duanyaojiu_may_declare: false`` (MIL 七-1) it "may not declare at all" (it may still
    win undeclared)."""
    return opts["duanyaojiu_may_declare"] or has_yaojiu(hand)


def look_block(hand, opts) -> str | None:
    """Why the hand may not look at the bao, or None: "A player who has declared tenpai looks at
    the bao" (not tenpai: ``not_tenpai``); "A 断幺九 hand ... may declare but may not look at the
    bao" (``bao_forbidden_without_yaojiu``), and a hand that may not declare never looks
    (``may_declare``): both ``duanyaojiu``. "A player who did not declare cannot use the bao"."""
    if not live_legal_waits(hand, opts):
        return "not_tenpai"
    if not may_declare(hand, opts):
        return "duanyaojiu"
    if opts["bao_forbidden_without_yaojiu"] and not has_yaojiu(hand):
        return "duanyaojiu"
    return None


def is_duibao(hand, bao: int, opts) -> bool:
    """对宝: "when a player looks at the bao and it is one of his legal waits, he wins at once"
    (a live legal wait)."""
    return bao in live_legal_waits(hand, opts)


def mobao_value(hand, t: int, opts) -> int:
    """The fan every loser pays for a 摸宝 scored on the wait ``t`` (庄/点炮 aside: the same for
    every wait)."""
    v = judge(hand, t, opts)
    return max(sum(common_items(hand, t, "mobao", f, opts).values()) for f in v.flags)


def mobao_stands_for(hand, opts) -> int | None:
    """摸宝: "the bao stands for whichever legal wait scores best (夹胡 still counts when it
    applies)": the live legal wait worth most fan; ties go to the lowest tile."""
    waits = live_legal_waits(hand, opts)
    if not waits:
        return None
    return max(waits, key=lambda t: (mobao_value(hand, t, opts), -t))


def public_copies(bao: int, hand, visible) -> int:
    """Copies of the bao kind in public: ``visible`` counts (discards, other players' exposed
    melds) plus the player's own exposed melds — "not concealed kongs, not tiles in a hand"
    (a 大蛋 laid as three, ``(111p)``, lies face up: public)."""
    n = int(visible[bao])
    for m in hand.melds:
        if m.name in EXPOSED or (m.name == "concealed_kong" and len(m.tiles) == 3):
            n += sum(1 for t in m.tiles if t == bao)
    return n


def three_public(bao: int, hand, visible) -> bool:
    """换宝's condition: "the three other copies of the bao kind are public"."""
    return public_copies(bao, hand, visible) >= 3


def change_at_look(bao: int, hand, visible, opts) -> tuple[bool, bool]:
    """换宝 at the look, as (may change, must change): with three other copies public "the bao
    is re-rolled" (``bao_change: always``), or the declared player may re-roll it or keep it
    (``optional``, MIL 三-25); kept, it is judged as it stands."""
    three = three_public(bao, hand, visible)
    return three, three and opts["bao_change"] == "always"


def live_bao_copies(bao: int, hand, visible) -> int:
    """Copies of the bao kind still to draw: not held, not visible, not the bao tile itself."""
    return max(4 - own_counts(hand)[bao] - int(visible[bao]) - 1, 0)


# =========================================================================== one win, settled


@dataclass(frozen=True)
class Expected:
    """What ``ccmj score`` must answer for one win.

    ``reasons``: the acceptable reason lists (any of the readings with fewest failures; ``()``
    when legal). ``items``: the acceptable fan item lists, one per best-scoring reading (their
    fan totals agree, so the payments are one answer).
    """

    legal: bool
    reasons: frozenset
    win: int  # the tile the win is scored on
    stands_for: int | None
    items: frozenset
    fan_by_seat: tuple
    payments: tuple
    kong_payments: tuple
    kong_lines: tuple
    total: tuple

    def amounts(self, base: int) -> tuple:
        return tuple(x * base for x in self.total)


def score(hand, drawn: int, how: str, winner: int, discarder, declared: bool, others, opts,
          looked: bool = False):  # fmt: skip
    """Settle one win. ``drawn``: the winning tile (self / discard) or the bao (摸宝 / 对宝);
    ``declared`` / ``looked``: the discarder's state (包庄); ``others``: (seat, meld) kongs of the
    other seats. Kong money counts the winner's own melds first, then ``others`` in order."""
    kongs, lines = kong_money([(winner, m) for m in hand.melds] + list(others), opts)
    t = drawn
    stands = None
    verdict = None
    blocked = None
    if how in ("mobao", "duibao"):
        blocked = look_block(hand, opts)
        if blocked is None and how == "mobao":
            t = stands = mobao_stands_for(hand, opts)
    if blocked is None:
        verdict = judge(hand, t, opts)
    if verdict is None or not verdict.legal:
        reasons = frozenset({(blocked,)}) if blocked else verdict.reasons
        zero = (0, 0, 0, 0)
        return Expected(False, reasons, t, None, frozenset({()}), zero, zero, tuple(kongs),
                        tuple(lines), tuple(kongs))  # fmt: skip
    answers = set()
    item_sets = set()
    for flags in verdict.flags:
        common_map = common_items(hand, t, how, flags, opts)
        fan, pay = settle(sum(common_map.values()), winner, how, discarder, declared, looked,
                          opts)  # fmt: skip
        answers.add((tuple(fan), tuple(pay)))
        item_sets.add(item_list(common_map, winner, how, discarder, fan, opts))
    assert len(answers) == 1, answers  # the best readings are worth the same fan
    ((fan, pay),) = answers
    total = tuple(a + b for a, b in zip(pay, kongs, strict=True))
    return Expected(True, frozenset({()}), t, stands, frozenset(item_sets), fan, pay,
                    tuple(kongs), tuple(lines), total)  # fmt: skip


@dataclass(frozen=True)
class BaoExpected:
    """What ``ccmj bao`` must answer (``score``: the Expected of the 对宝 / 摸宝 win, or None)."""

    can_look: bool
    reason: str | None
    outcome: str  # duibao | mobao_possible | no_mobao | change | cannot_look
    stands_for: int | None
    score: Expected | None
    live: int
    public: int
    must_change: bool
    may_change: bool


def bao(hand, b: int, visible, seat: int, opts) -> BaoExpected:
    """What the bao ``b`` does for a 13-tile hand at its look (RULES.md §6): it may not look
    (``cannot_look``); 换宝 re-rolls it at the look, so it does nothing (``change``; under
    ``bao_change: optional`` it is judged as kept); 对宝 if it is a live legal wait; otherwise
    drawing its kind would win as a 摸宝 (``mobao_possible``) — unless no copy of its kind is
    left to draw, when 摸宝 cannot happen (``no_mobao``)."""
    block = look_block(hand, opts)
    may, must = change_at_look(b, hand, visible, opts)
    live = live_bao_copies(b, hand, visible)
    public = public_copies(b, hand, visible)

    def answer(can_look, reason, outcome, stands=None, s=None):
        return BaoExpected(can_look, reason, outcome, stands, s, live, public, must, may)

    if block is not None:
        return answer(False, block, "cannot_look")
    if must:
        return answer(True, None, "change")
    if is_duibao(hand, b, opts):
        s = score(hand, b, "duibao", seat, None, False, (), opts)
        return answer(True, None, "duibao", s.win, s)
    if live == 0:
        return answer(True, None, "no_mobao")
    s = score(hand, b, "mobao", seat, None, False, (), opts)
    return answer(True, None, "mobao_possible", s.win, s)
