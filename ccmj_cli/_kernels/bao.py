"""Bao (宝牌) judgments (RULES.md §6) as kernels, for ``ccmj bao`` and the table simulation.

- ``look_block``: may a 13-tile hand look at the bao (tenpai, not a forbidden 断幺九)?
- ``is_duibao``: 对宝 — the bao seen at the look is one of the hand's live legal waits.
- ``bao_stands_for``: 摸宝 — the live legal wait the bao stands for: the one that scores most
  (夹胡 by 独听 or shape included), ties to the lowest tile.
- ``must_change``: 换宝 — the three other copies of the bao kind are public;
  ``change_rule``: whether the bao then must (bao_change always) or may (optional) be changed.
- ``bao_outcome``: the look, 对宝 and 摸宝 together, the way a table applies them.
"""

import numpy as np

from .jit import njit
from .judge import (
    LOOK_DUANYAOJIU,
    LOOK_NOT_TENPAI,
    LOOK_OK,
    W_COLS,
    W_LEGAL,
    judge_waits,
    judge_win,
    look_rule,
)
from .layout import (
    HOW_DUIBAO,
    HOW_MOBAO,
    N_FAN,
    N_KINDS,
    RD_HAOHUA,
    RD_LEN,
    RV_BAO_CHANGE,
)
from .score import fan_items, score_win

__all__ = ["LOOK_OK", "LOOK_NOT_TENPAI", "LOOK_DUANYAOJIU"]  # look_block codes (judge.look_rule)

# bao_outcome codes
BAO_DUIBAO = 0  # the bao is a live legal wait: immediate win (自摸 + 宝)
BAO_MOBAO_POSSIBLE = 1  # drawing a tile of the bao kind wins as bao_stands_for
BAO_CANNOT_LOOK = 2  # see look_block for why
BAO_NO_MOBAO = 3  # not 对宝, and no copy of the bao kind is left to draw: 摸宝 cannot happen

# change_rule codes (换宝)
CHANGE_NONE = 0  # fewer than three other copies are public
CHANGE_MAY = 1  # three are public and bao_change is optional: the declared player may change
CHANGE_MUST = 2  # three are public and bao_change is always: the bao is re-rolled


@njit(cache=True)
def look_block(c, ms, own, rv, tb):
    """0 if the hand may look at the bao, else LOOK_NOT_TENPAI or LOOK_DUANYAOJIU.

    ``own`` counts the player's tiles, melds included (断幺九 looks at all of them).
    """
    waits = np.zeros((N_KINDS, W_COLS), np.int64)
    return look_rule(judge_waits(c, ms, own, rv, tb, waits) > 0, own, rv)


@njit(cache=True)
def is_duibao(c, bao, ms, own, rv, tb):
    """对宝: ``bao`` is a legal wait of ``c`` with a copy outside the player's hand."""
    if own[bao] >= 4:
        return False
    waits = np.zeros((N_KINDS, W_COLS), np.int64)
    judge_waits(c, ms, own, rv, tb, waits)
    return waits[bao, W_LEGAL] == 1


@njit(cache=True)
def bao_stands_for(c, ms, own, rv, tb, rd):
    """摸宝: the live legal wait worth most fan as a 摸宝 win (-1 if none); ``rd`` its reading."""
    waits = np.zeros((N_KINDS, W_COLS), np.int64)
    judge_waits(c, ms, own, rv, tb, waits)
    items = np.zeros(N_FAN, np.int64)
    best = -1
    best_fan = -1
    for t in range(N_KINDS):
        if waits[t, W_LEGAL] != 1 or own[t] >= 4:
            continue
        judge_win(c, t, ms, own, rv, tb, rd)
        fan_items(rd, HOW_MOBAO, rd[RD_HAOHUA] == 1, rv, items)
        f = 0
        for i in range(N_FAN):
            f += items[i]
        if f > best_fan:
            best_fan = f
            best = t
    if best >= 0:
        judge_win(c, best, ms, own, rv, tb, rd)
    return best


@njit(cache=True)
def must_change(bao, public):
    """换宝: the three other copies of the bao kind are public (discards, exposed melds)."""
    return public[bao] >= 3


@njit(cache=True)
def change_rule(bao, public, rv):
    """换宝 at the look: CHANGE_NONE, CHANGE_MUST (three other copies public, bao_change
    always) or CHANGE_MAY (three public, bao_change optional: MIL 三-25, the declared player's
    choice)."""
    if not must_change(bao, public):
        return CHANGE_NONE
    return CHANGE_MAY if rv[RV_BAO_CHANGE] else CHANGE_MUST


@njit(cache=True)
def bao_outcome(c, bao, live, ms, own, rv, tb, out):
    """What the bao does for a tenpai hand at its look (the bao kept): BAO_* code.

    ``live``: copies of the bao kind the player can still draw (not his, not public, not the
    bao tile itself); with none, a hand that is not 对宝 cannot 摸宝 (BAO_NO_MOBAO).
    ``out[0]`` = LOOK_* code, ``out[1]`` = the tile the win is scored on (the bao for 对宝, the
    best wait for 摸宝, -1 when the hand cannot look or cannot 摸宝).
    """
    out[0] = look_block(c, ms, own, rv, tb)
    out[1] = -1
    if out[0] != LOOK_OK:
        return BAO_CANNOT_LOOK
    if is_duibao(c, bao, ms, own, rv, tb):
        out[1] = bao
        return BAO_DUIBAO
    if live <= 0:
        return BAO_NO_MOBAO
    rd = np.zeros(RD_LEN, np.int64)
    out[1] = bao_stands_for(c, ms, own, rv, tb, rd)
    return BAO_MOBAO_POSSIBLE


@njit(cache=True)
def score_any(
    c,
    win,
    ms,
    own,
    how,
    winner,
    dealer,
    discarder,
    declared,
    rv,
    tb,
    rd,
    items,
    fan_out,
    pay_out,
    res,
):
    """Judge and score one win of any kind (HOW_*), the bao rules included.

    For 摸宝 and 对宝 the hand must be allowed to look at the bao; a 摸宝 is scored on the wait
    the bao stands for (``win`` is then the bao kind drawn). ``res[0]`` = legal, ``res[1]`` = the
    tile the win is scored on, ``res[2]`` = LOOK_* code (LOOK_OK for other wins). The rest as
    ``score.score_win``. Returns whether the win is legal.
    """
    res[0] = 0
    res[1] = win
    res[2] = LOOK_OK
    if how == HOW_MOBAO or how == HOW_DUIBAO:  # noqa: SIM109 (plain comparisons for Numba)
        block = look_block(c, ms, own, rv, tb)
        if block != LOOK_OK:
            res[2] = block
            for i in range(N_FAN):
                items[i] = 0
            for s in range(fan_out.shape[0]):
                fan_out[s] = 0
                pay_out[s] = 0
            for i in range(RD_LEN):
                rd[i] = 0
            return False
        if how == HOW_MOBAO:
            win = bao_stands_for(c, ms, own, rv, tb, rd)
            res[1] = win
    legal = score_win(
        c,
        win,
        ms,
        own,
        how,
        winner,
        dealer,
        discarder,
        declared,
        rv,
        tb,
        rd,
        items,
        fan_out,
        pay_out,
    )
    res[0] = 1 if legal else 0
    return legal
