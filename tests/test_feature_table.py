"""The suit feature table (tables.py ``_build_features``, tb[8]) and the small kernels judge_waits
builds on it, each checked against what it replaces: the exact/waits tables, a naive enumeration
of the suit's readings (naive._sets), a set product, and structural_waits.

test_kernel_consistency.py checks the whole judgment (table path against read_win).
"""

import random

import naive
import numpy as np
import pytest

from ccmj_cli._kernels import layout as L
from ccmj_cli._kernels.judge import (
    W_COLS,
    W_STRUCTURAL,
    _combine,
    all_waits,
    judge_waits,
    judge_waits_rows,
)
from ccmj_cli._kernels.tables import tables
from ccmj_cli.rules import load_variant

KEYS = 5**9


@pytest.fixture(scope="module")
def tb():
    return tables()


@pytest.fixture(scope="module")
def digits():
    keys = np.arange(KEYS, dtype=np.int32)
    return np.stack([(keys // 5**i % 5).astype(np.int8) for i in range(9)], axis=1)


def test_table_agrees_with_exact_and_waits_tables(tb, digits):
    feat = tb[8]
    n = digits.sum(axis=1)
    # a wait x of a suit (at most 13 tiles) has features exactly when waits0/waits1 say so
    win_mask = np.zeros(KEYS, np.int64)
    for x in range(9):
        win_mask |= (feat[:, x] != 0).astype(np.int64) << x
        assert not feat[digits[:, x] == 4, x].any()  # no fifth copy
    waits = tb[2].astype(np.int64) | tb[3]
    assert np.array_equal(win_mask[n <= 13], waits[n <= 13])
    # column 9 (no winning tile) has features exactly when the suit is sets (+ a pair)
    assert np.array_equal((feat[:, 9] != 0)[n <= 14], (tb[0] != 0)[n <= 14])
    assert (feat[:, 9] < 16).all()  # no 夹 bit without a winning tile


def _naive_features(d, win):
    """Feature bits (P | C << 1 | J << 2) of every reading of suit counts ``d`` (+ ``win``)."""
    c = [0] * L.N_KINDS
    c[:9] = [int(x) for x in d]
    if win >= 0:
        c[win] += 1
    n = sum(c)
    readings = []
    if n % 3 == 0:
        readings = [(-1, sets) for sets in naive._sets(c, n // 3)]
    elif n % 3 == 2:
        readings = naive.decompositions(c)
    mask = 0
    for pair, sets in readings:
        p = any(kind == "pung" for kind, _ in sets)
        ch = any(kind == "chow" for kind, _ in sets)
        j = win >= 0 and naive._jia_shape(pair, sets, win)
        mask |= 1 << (p | ch << 1 | j << 2)
    return mask


def test_table_features_match_enumeration(tb):
    rng = random.Random(20261130)
    feat = tb[8]
    checked = 0
    for i in range(600):
        d = [0] * 9
        if i % 3:  # sets (+ a pair) of one suit, less a tile or two: the rows tenpai hands read
            for _ in range(rng.randrange(5)):
                t = rng.randrange(9)
                if rng.random() < 0.5 and t <= 6:
                    for u in (t, t + 1, t + 2):
                        d[u] += 1
                else:
                    d[t] += 3
            if rng.random() < 0.6:
                d[rng.randrange(9)] += 2
            for _ in range(rng.randrange(3)):
                held = [t for t in range(9) if d[t]]
                if held:
                    d[rng.choice(held)] -= 1
        else:
            for _ in range(rng.randrange(14)):
                d[rng.randrange(9)] += 1
        if max(d) > 4 or sum(d) > 13:
            continue
        key = sum(x * 5**i for i, x in enumerate(d))
        assert feat[key, 9] == _naive_features(d, -1), d
        for x in range(9):
            want = _naive_features(d, x) if d[x] < 4 else 0
            assert feat[key, x] == want, (d, x)
        checked += 1
    assert checked > 300


def _naive_combine(states, m):
    return {a | b for a in range(16) if states >> a & 1 for b in range(8) if m >> b & 1}


def test_combine_is_the_set_product():
    rng = random.Random(7)
    pairs = [(s, m) for s in range(256) for m in range(0, 256, 5)]  # suits' states: bits 0-7
    pairs += [(rng.randrange(1 << 16), rng.randrange(256)) for _ in range(2000)]  # + honors
    for s, m in pairs:
        got = _combine(s, m)
        assert {a for a in range(16) if got >> a & 1} == _naive_combine(s, m), (s, m)
    for s, m in pairs[::50]:  # the interpreted kernel (plain Python ints) too
        assert _combine.py_func(s, m) == _combine(s, m)


def _random_hand(rng):
    """3k+1 concealed tiles: random, or sets + a pair less a tile (so tenpai shapes, honors at
    0/1/2 mod 3 and 七对 shapes all occur)."""
    k = rng.choice([4, 4, 4, 3, 2, 1, 0])
    while True:
        c = np.zeros(L.N_KINDS, np.int64)
        r = rng.random()
        if r < 0.3:
            for t in rng.sample(range(136), 3 * k + 1):
                c[t // 4] += 1
            return c.astype(np.uint8), k
        if r < 0.4 and k == 4:
            for t in rng.sample(range(L.N_KINDS), 7):
                c[t] += 2
        else:
            for _ in range(k):
                t = rng.randrange(L.N_KINDS)
                if rng.random() < 0.5 and t < L.HONOR and t % 9 <= 6:
                    c[t : t + 3] += 1
                else:
                    c[t] += 3
            c[rng.randrange(L.N_KINDS)] += 2
        if c.max() <= 4:
            c[rng.choice(list(np.repeat(np.arange(L.N_KINDS), c)))] -= 1
            return c.astype(np.uint8), k


def _plus(c, t):
    d = [int(x) for x in c]
    d[t] += 1
    return d


def test_judge_waits_structural_column_is_all_waits(tb):
    """judge_waits reads the structural waits from the feature table rows; structural_waits
    (checked against naive.py in test_properties) reads the exact/waits tables. judge_waits
    also lists the waits on a fifth copy of a tile held four times (RULES §4: reported with no
    live copy), which no table holds: those are checked against the reference's recursion."""
    rng = random.Random(11)
    default = load_variant().vector
    qidui = default.copy()
    qidui[L.RV_QIDUI] = 1
    out = np.zeros((L.N_KINDS, W_COLS), np.int64)
    for _ in range(4000):
        c, k = _random_hand(rng)
        ms = np.zeros(L.MS_LEN, np.int64)
        ms[L.MS_SETS] = 4 - k
        for rv in (default, qidui):
            judge_waits(c, ms, c.copy(), rv, tb, out)
            m = all_waits(c, ms, rv, tb)
            fifth = {t for t in np.flatnonzero(c == 4) if naive.is_complete(_plus(c, t))}
            got = np.flatnonzero(out[:, W_STRUCTURAL])
            want = sorted({t for t in range(L.N_KINDS) if m >> t & 1} | fifth)
            assert list(got) == want, (c, rv[L.RV_QIDUI])


def test_rows_match_single_hands_with_and_without_qidui(tb):
    """judge_waits_rows shares one scratch over rows; judge_waits allocates it only for 七对."""
    rng = random.Random(5)
    hands = [_random_hand(rng) for _ in range(500)]
    c = np.array([h[0] for h in hands])
    ms = np.zeros((len(hands), L.MS_LEN), np.int64)
    ms[:, L.MS_SETS] = [4 - h[1] for h in hands]
    default = load_variant().vector
    qidui = default.copy()
    qidui[L.RV_QIDUI] = 1
    for rv in (default, qidui):
        out = np.zeros((len(hands), L.N_KINDS, W_COLS), np.int64)
        n_live = np.zeros(len(hands), np.int64)
        look = np.zeros(len(hands), np.int64)
        judge_waits_rows(c, ms, c.copy(), rv, tb, out, n_live, look)
        one = np.zeros((L.N_KINDS, W_COLS), np.int64)
        for r in range(len(hands)):
            assert judge_waits(c[r], ms[r], c[r].copy(), rv, tb, one) == n_live[r]
            assert np.array_equal(one, out[r])
