"""The bulk reader/writer of plain MPSZ (_kernels/notation.py) that batches use, checked against
tiles.py: every row it accepts reads and prints exactly as parse_hand/format_hand would, and it
accepts every plain row parse_hand accepts; a batch answers each line as if it were alone."""

import numpy as np
import strategies as S
from hypothesis import given, settings
from hypothesis import strategies as st

from ccmj_cli import hand as H
from ccmj_cli import tiles as T
from ccmj_cli._kernels.notation import encode_rows, format_rows, plain_counts
from ccmj_cli.errors import HandError

near_plain = st.text(alphabet="0123456789mpszMPSZ z[]()东\t", max_size=24)


def read(lines):
    n = len(lines)
    c = np.empty((n, 34), np.uint8)
    n_tiles = np.empty(n, np.int64)
    ok = np.empty(n, np.uint8)
    plain_counts(*encode_rows(lines), c, n_tiles, ok)
    return c, n_tiles, ok


@settings(max_examples=S.examples(300))
@given(st.lists(st.one_of(near_plain, S.random_hands().map(S.text_of)), min_size=1, max_size=12))
def test_plain_rows_read_and_print_as_parse_hand(lines):
    c, n_tiles, ok = read(lines)
    texts = format_rows(c, np.full(len(lines), -1, np.int64), ok)
    for i, line in enumerate(lines):
        try:
            h = T.parse_hand(line)
        except HandError:
            assert not ok[i], line  # the kernel never accepts what the parser refuses
            continue
        plain = not h.melds and set(line) <= set("123456789mpszMPSZ ")
        assert bool(ok[i]) == plain, line
        if ok[i]:
            assert (c[i] == h.concealed).all() and n_tiles[i] == h.size, line
            assert texts[i] == T.format_hand(h), line


def test_upper_case_suits_read_in_bulk():
    # 1M = 1m in the bulk reader too (batches read the same hands as one-hand commands)
    lines = ["123M456P789S1123s", "1 2 3M 1Z", "8Z"]
    c, n_tiles, ok = read(lines)
    assert ok.tolist() == [1, 1, 0]
    assert (c[0] == T.parse_hand("123m456p789s1123s").concealed).all() and n_tiles[0] == 13
    assert (c[1] == T.parse_hand("123m1z").concealed).all() and n_tiles[1] == 4


def test_plain_rows_by_hand():
    lines = ["123m456p789s1123s", "1 2 3m", "111112m", "0m", "8z", "12", "m", "", "123m[456p]"]
    c, n_tiles, ok = read(lines)
    assert ok.tolist() == [1, 1, 0, 0, 0, 0, 0, 0, 0]
    assert n_tiles[:2].tolist() == [13, 3]
    assert format_rows(c, np.array([-1, 27, -1, -1, -1, -1, -1, -1, -1]), ok)[:3] == [
        "123m456p1123789s", "123m1z", ""
    ]  # fmt: skip


@settings(max_examples=S.examples(60))
@given(st.lists(st.one_of(S.tenpai_hands().map(lambda h: h[0]), near_plain), max_size=10))
def test_a_batch_answers_each_line_as_if_alone(lines):
    batch = H.waits_dicts(lines, "5m5p")
    for line, got in zip(lines, batch, strict=True):
        alone = H.waits_dicts([line], "5m5p")[0]
        if isinstance(alone, HandError):
            assert isinstance(got, HandError) and got.message == alone.message
        else:
            assert got == alone
