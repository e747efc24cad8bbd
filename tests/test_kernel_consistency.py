"""The two evaluations of a reading agree: the feature-table fast path used by judge_waits
(fast_read_wait) and the enumeration of every decomposition used by check (read_win).

Both call judge_features for the rules, so this checks the table and the enumeration, over
random complete hands, declared-meld summaries and variant option combinations.
"""

import random

import numpy as np
import pytest
import yaml

from ccmj_cli._kernels import layout as L
from ccmj_cli._kernels.judge import W_COLS, judge_waits, read_win
from ccmj_cli._kernels.tables import tables
from ccmj_cli.rules import load_variant


@pytest.fixture(scope="module")
def variants(tmp_path_factory):
    out = []
    folder = tmp_path_factory.mktemp("variants")
    for i, (jiahu, stacks, exempt, dragon, quemen) in enumerate(
        [
            ("any", False, False, True, False),
            ("single_wait", True, False, True, False),
            ("shape", False, True, False, True),
            ("any", True, True, False, False),
            ("shape", True, False, True, True),
        ]
    ):
        path = folder / f"v{i}.yaml"
        path.write_text(
            yaml.safe_dump(
                {
                    "jiahu": jiahu,
                    "piao_stacks_with_jia": stacks,
                    "piao_exempt": exempt,
                    "dragon_pair_is_pung": dragon,
                    "quemen": quemen,
                }  # fmt: skip
            )
        )
        out.append(load_variant(str(path)).vector)
    return out


def _random_tenpai(rng):
    """A complete hand built from sets + pair, minus one tile, with a random meld summary."""
    while True:
        n_melds = rng.choice([0, 0, 0, 1, 2, 4])
        ms = np.zeros(L.MS_LEN, np.int64)
        ms[L.MS_SETS] = n_melds
        if n_melds:
            ms[L.MS_PUNGS] = rng.randint(0, n_melds)
            ms[L.MS_CHOWS] = n_melds - ms[L.MS_PUNGS]
            ms[L.MS_SUITS] = rng.randint(0, 7)
            ms[L.MS_YAOJIU] = rng.randint(0, 1)
        c = np.zeros(L.N_KINDS, np.int64)
        for _ in range(4 - n_melds):
            if rng.random() < 0.5:
                t = 9 * rng.randrange(3) + rng.randrange(7)
                c[t : t + 3] += 1
            else:
                c[rng.randrange(L.N_KINDS)] += 3
        c[rng.randrange(L.N_KINDS)] += 2
        if c.max() <= 4:
            tiles = np.repeat(np.arange(L.N_KINDS), c)
            c[rng.choice(list(tiles))] -= 1
            return c.astype(np.uint8), ms


def test_fast_path_matches_enumeration(variants):
    rng = random.Random(20261130)
    tb = tables()
    rd = np.zeros(L.RD_LEN, np.int64)
    checked = 0
    for _ in range(3000):
        c, ms = _random_tenpai(rng)
        rv = rng.choice(variants)
        out = np.zeros((L.N_KINDS, W_COLS), np.int64)
        judge_waits(c.copy(), ms, c.copy(), rv, tb, out)
        expected = {}
        for w in np.flatnonzero(out[:, 0]):
            c2 = c.copy()
            c2[w] += 1
            legal = read_win(c2, w, ms, False, rv, rd)
            expected[w] = [
                1,
                int(legal),
                int(rd[L.RD_FAILS]),
                int(rd[L.RD_JIAHU]),
                int(rd[L.RD_PIAO]),
            ]
        live = [w for w, e in expected.items() if e[1] and c[w] < 4]
        if len(live) == 1 and rv[L.RV_JIAHU] != 2:  # 独听 re-read
            (w,) = live
            c2 = c.copy()
            c2[w] += 1
            read_win(c2, w, ms, True, rv, rd)
            expected[w][3:] = [int(rd[L.RD_JIAHU]), int(rd[L.RD_PIAO])]
        for w, e in expected.items():
            assert list(out[w]) == e, (c, w, ms, rv)
            checked += 1
    assert checked > 2000
