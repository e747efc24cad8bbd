"""Standard-form shanten against the public 40,000-hand set in tests/data/shanten.

From TadaoYamaoka/cmajiang tests_cpp/data (MIT licence in LICENSE-cmajiang.txt): x[0] is the
standard-form shanten of each 14-tile hand `q` (Tenhou convention: a tile held four times
cannot be waited on)."""

import json
from pathlib import Path

import numpy as np
import pytest

from ccmj_cli import hand as H

DATA = Path(__file__).parent / "data" / "shanten"
SUIT = {"m": 0, "p": 9, "s": 18, "z": 27}


def _load():
    rows, want = [], []
    for path in sorted(DATA.glob("xiangting_*.json")):
        for item in json.loads(path.read_text()):
            c = np.zeros(34, np.uint8)
            for tile in item["q"]:
                c[SUIT[tile[0]] + int(tile[1]) - 1] += 1
            rows.append(c)
            want.append(item["x"][0])
    return np.array(rows), np.array(want)


@pytest.fixture(scope="module")
def dataset():
    return _load()


def test_dataset_is_complete(dataset):
    counts, want = dataset
    assert counts.shape == (40_000, 34)
    assert (counts.sum(axis=1) == 14).all() and counts.max() <= 4
    assert set(np.unique(want)) <= set(range(-1, 9))


def test_shanten_many_matches_all_40000(dataset):
    counts, want = dataset
    got = H.shanten_many(counts)
    bad = np.flatnonzero(got != want)
    assert bad.size == 0, f"{bad.size} mismatches, first row {bad[:5]}"


def test_dataset_sample_through_the_api(dataset):
    # the public API (text in, dataclass out) agrees on a sample too
    from ccmj_cli.tiles import format_tiles

    counts, want = dataset
    for i in range(0, 40_000, 4000):
        assert H.shanten(format_tiles(counts[i])).shanten == want[i]
