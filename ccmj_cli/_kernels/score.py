"""Scoring kernels (RULES.md §5, §7): fan items, who pays whom, kong money.

Payment from each paying loser = base x 2^(fan - 1) (or the variant's stake ladder's amount for
that fan), fan counted per loser: the items every loser pays (win, 门清, 夹胡, 飘胡, 自摸, 宝,
七对 ...) plus 庄 (the winner or this loser is the dealer) plus 点炮 (this loser discarded the
winning tile; under dealer_dianpao_stacks: false not for a dealer, whose 庄 step stays alone).
"""

import numpy as np

from .jit import njit
from .judge import judge_win
from .layout import (
    CHUN,
    DISCARDER_DECLARED,
    DISCARDER_LOOKED,
    FAN_BAO,
    FAN_CHONGBAO,
    FAN_DEALER,
    FAN_DIANPAO,
    FAN_HAOHUA,
    FAN_JIAHU,
    FAN_MENQING,
    FAN_PIAO,
    FAN_PIAODING,
    FAN_QIDUI,
    FAN_WIN,
    FAN_ZIMO,
    FIRST_SPECIAL,
    HAKU,
    HATSU,
    HOW_DISCARD,
    HOW_DUIBAO,
    HOW_MOBAO,
    KONG_AN,
    KONG_BU,
    KONG_DADAN_CONCEALED,
    KONG_DADAN_OPEN,
    KONG_MING,
    KONG_SPECIAL,
    MELD_ANKONG,
    MELD_KONG,
    N_FAN,
    N_SEATS,
    ONE_P,
    ONE_S,
    RD_HAOHUA,
    RD_JIAHU,
    RD_MENQING,
    RD_PIAO,
    RD_PIAODING,
    RD_QIDUI,
    RV_CAP_FAN,
    RV_CHONGBAO_DOUBLE,
    RV_COVER_NEEDS_LOOK,
    RV_COVER_ONLY_UNDECLARED,
    RV_DEALER_DIANPAO_STACKS,
    RV_DIANPAO,
    RV_FAN_BASE,
    RV_KONG_BASE,
    RV_STAKES_BASE,
    RV_STAKES_LEN,
)

DIANPAO_ALL_PAY = 0
DIANPAO_DISCARDER_ONLY = 1
DIANPAO_COVERS_ALL = 2


@njit(cache=True)
def fan_items(rd, how, haohua, rv, items):
    """Fill ``items[N_FAN]`` with the fan of each item that applies, from a legal reading ``rd``.

    庄 and 点炮 are per loser: ``settle`` adds them. 豪华七对 comes from the reading
    (``rd[RD_HAOHUA]``, judged by the variant's `haohua` rule); the ``haohua`` argument is
    ignored and stays only so that callers written before the reading carried it still work.
    """
    for i in range(N_FAN):
        items[i] = 0
    items[FAN_WIN] = rv[RV_FAN_BASE + FAN_WIN]
    if rd[RD_MENQING]:
        items[FAN_MENQING] = rv[RV_FAN_BASE + FAN_MENQING]
    if rd[RD_JIAHU]:
        items[FAN_JIAHU] = rv[RV_FAN_BASE + FAN_JIAHU]
    if rd[RD_PIAO]:
        items[FAN_PIAO] = rv[RV_FAN_BASE + FAN_PIAO]
    if rd[RD_QIDUI]:
        items[FAN_QIDUI] = rv[RV_FAN_BASE + FAN_QIDUI]
        if rd[RD_HAOHUA]:
            items[FAN_HAOHUA] = rv[RV_FAN_BASE + FAN_HAOHUA]
    if how != HOW_DISCARD:
        items[FAN_ZIMO] = rv[RV_FAN_BASE + FAN_ZIMO]
    if how == HOW_MOBAO or how == HOW_DUIBAO:
        items[FAN_BAO] = rv[RV_FAN_BASE + FAN_BAO]
    if how == HOW_DUIBAO and rv[RV_CHONGBAO_DOUBLE]:
        items[FAN_CHONGBAO] = rv[RV_FAN_BASE + FAN_CHONGBAO]
    if rd[RD_PIAODING]:  # 飘顶: a 手把一 hand's 飘胡 (fan.piaoding, 0 by default)
        items[FAN_PIAODING] = rv[RV_FAN_BASE + FAN_PIAODING]


@njit(cache=True)
def settle(items, winner, dealer, discarder, how, rv, fan_out, pay_out):
    """Per-seat fan and payments (base units; winner positive, sums to zero).

    ``fan_out[s]`` is the fan loser s is charged at (0 for the winner and for non-payers).
    The discarder is taken as not having declared tenpai (see ``settle_declared``).
    """
    # (0, not False: the callers pass an int state, and one type compiles it once)
    settle_declared(items, winner, dealer, discarder, how, 0, rv, fan_out, pay_out)


@njit(cache=True)
def dealer_charged(s, winner, dealer):
    """Loser ``s`` pays the 庄 step: the winner or this loser is the dealer."""
    return winner == dealer or s == dealer


@njit(cache=True)
def dianpao_charged(s, dealer, discarder, how, rv):
    """Loser ``s`` pays the 点炮 step: he discarded the winning tile — unless he is the dealer
    and the variant says dealer_dianpao_stacks: false (seed 000: 如果平家点炮再翻一倍，庄家不变)."""
    if how != HOW_DISCARD or s != discarder:
        return False
    return s != dealer or rv[RV_DEALER_DIANPAO_STACKS] != 0


@njit(cache=True)
def stake(f, rv):
    """What a loser charged ``f`` fan pays, in base units: 2^(f - 1), or the variant's stake
    ladder's amount for f fan (a fan beyond the ladder pays its last amount; the variant is
    refused at load time when that could happen)."""
    if f < 1:
        return np.int64(0)
    n = rv[RV_STAKES_LEN]
    if n == 0:
        return np.int64(1) << (f - 1)
    return rv[RV_STAKES_BASE + min(f, n) - 1]


@njit(cache=True)
def covers_all(declared, rv):
    """点炮全包 applies to this discard: dianpao is discarder_covers_all and the discarder is
    not exempt. ``declared`` is the discarder's state: 0 (or False) not declared, 1 (or True)
    declared (报听) and not yet looked at the current bao, 2 declared and looked. Under
    cover_only_undeclared a declared discarder is exempt; under cover_needs_look too only if
    he had looked (MIL 九: 包庄 when he had not declared or not looked at the bao)."""
    if rv[RV_DIANPAO] != DIANPAO_COVERS_ALL:
        return False
    state = np.int64(declared)
    if not rv[RV_COVER_ONLY_UNDECLARED] or state < DISCARDER_DECLARED:
        return True
    return rv[RV_COVER_NEEDS_LOOK] != 0 and state < DISCARDER_LOOKED


@njit(cache=True)
def settle_declared(items, winner, dealer, discarder, how, declared, rv, fan_out, pay_out):
    """``settle`` knowing the discarder's state ``declared`` (see ``covers_all``): 0 / False
    not declared, 1 / True declared (报听), 2 declared and looked at the current bao.

    Under 点炮全包 an exempt discarder pays only his own share, like ``all_pay``.
    """
    common = 0
    for i in range(N_FAN):
        common += items[i]
    cap = rv[RV_CAP_FAN]
    mode = rv[RV_DIANPAO]
    if mode == DIANPAO_COVERS_ALL and not covers_all(declared, rv):
        mode = DIANPAO_ALL_PAY
    for s in range(N_SEATS):
        fan_out[s] = 0
        pay_out[s] = 0
    for s in range(N_SEATS):
        if s == winner:
            continue
        f = common
        if dealer_charged(s, winner, dealer):
            f += rv[RV_FAN_BASE + FAN_DEALER]
        if dianpao_charged(s, dealer, discarder, how, rv):
            f += rv[RV_FAN_BASE + FAN_DIANPAO]
        if cap > 0 and f > cap:
            f = cap
        fan_out[s] = f
        amount = stake(f, rv)
        payer = s
        if how == HOW_DISCARD and mode != DIANPAO_ALL_PAY:
            if s != discarder and mode == DIANPAO_DISCARDER_ONLY:
                fan_out[s] = 0
                continue
            payer = discarder  # 点炮全包: the discarder also pays the others' shares
        pay_out[payer] -= amount
        pay_out[winner] += amount


@njit(cache=True)
def is_dadan_tile(t):
    """大蛋: a kong of 幺鸡, 幺饼, 中, 发 or 白."""
    return t == ONE_S or t == ONE_P or t == HAKU or t == HATSU or t == CHUN


@njit(cache=True)
def kong_value(kind, tile, bu, rv):
    """Base units each other player pays for one declared meld (0 for chows and pungs)."""
    if kind == MELD_KONG:
        if is_dadan_tile(tile):
            return rv[RV_KONG_BASE + KONG_DADAN_OPEN]
        return rv[RV_KONG_BASE + KONG_MING]
    if kind == MELD_ANKONG:
        if is_dadan_tile(tile):
            return rv[RV_KONG_BASE + KONG_DADAN_CONCEALED]
        return rv[RV_KONG_BASE + KONG_AN]
    if kind >= FIRST_SPECIAL:
        return rv[RV_KONG_BASE + KONG_SPECIAL] + bu * rv[RV_KONG_BASE + KONG_BU]
    return 0


@njit(cache=True)
def settle_kong(owner, value, pay_out):
    """Add one kong's money: each other seat pays ``value`` to ``owner``."""
    for s in range(N_SEATS):
        if s != owner:
            pay_out[s] -= value
            pay_out[owner] += value


@njit(cache=True)
def score_win(
    c, win, ms, own, how, winner, dealer, discarder, declared, rv, tb, rd, items, fan_out, pay_out
):
    """Judge and score one win: concealed ``c`` (3k+1) + ``win``, won ``how`` (HOW_*).

    Fills ``rd`` (the reading), ``items[N_FAN]`` (fan per item, 0 when not legal), ``fan_out``
    and ``pay_out`` (per seat, base units, all 0 when not legal). Returns whether it is legal.
    """
    legal = judge_win(c, win, ms, own, rv, tb, rd)
    if not legal:
        for i in range(N_FAN):
            items[i] = 0
        for s in range(N_SEATS):
            fan_out[s] = 0
            pay_out[s] = 0
        return False
    fan_items(rd, how, rd[RD_HAOHUA] == 1, rv, items)
    settle_declared(items, winner, dealer, discarder, how, declared, rv, fan_out, pay_out)
    return True


@njit(cache=True)
def kong_money(kinds, firsts, bus, owners, n, rv, pay_out):
    """Kong money of ``n`` declared melds (kind, first tile, 补 count, owner seat) into ``pay_out``.

    Chows and pungs are worth nothing; every kong pays ``kong_value`` from each other seat.
    """
    for s in range(N_SEATS):
        pay_out[s] = 0
    for i in range(n):
        v = kong_value(kinds[i], firsts[i], bus[i], rv)
        if v:
            settle_kong(owners[i], v, pay_out)
