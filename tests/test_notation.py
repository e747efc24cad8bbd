"""Notation (RULES.md §1): hand-worked parse/format cases and the messages for bad input."""

import pytest

from ccmj_cli import tiles as T
from ccmj_cli.errors import HandError


@pytest.mark.parametrize(
    "text, formatted, melds",
    [
        ("123m456p789s11z", "123m456p789s11z", []),
        # Chinese honors 东南西北白发中 = 1z-7z, 發 as 发, suits 万/饼(筒)/条(索)
        ("123万456饼789条东东东白", "123m456p789s1115z", []),
        ("123万456筒789索發發中", "123m456p789s667z", []),
        ("1 2 3m  4 5 6p", "123m456p", []),  # whitespace anywhere between tiles
        ("[123m] 456p", "456p[123m]", ["chow"]),
        ("[555s][5555m](7777p)", "[555s][5555m](7777p)", ["pung", "kong", "concealed_kong"]),
        (
            "[1234z][567z][1m1p1s][9m9p9s]",
            "[1234z][567z][1m1p1s][9m9p9s]",
            ["xuanfeng", "xi", "yaodan", "jiudan"],
        ),  # fmt: skip
        # 补 tiles of a special kong's own group stay inside its brackets
        ("[12341z]", "[12341z]", ["xuanfeng"]),
        ("[567z7z]", "[5677z]", ["xi"]),
        ("[1m1p1s1s]", "[1m1p11s]", ["yaodan"]),
    ],
)
def test_parse_and_format(text, formatted, melds):
    h = T.parse_hand(text)
    assert T.format_hand(h) == formatted
    assert [m.name for m in h.melds] == melds
    again = T.parse_hand(formatted)
    assert (again.concealed == h.concealed).all() and again.melds == h.melds


def test_own_counts_and_summary():
    # own counts include meld tiles (补 tiles too); the 幺蛋 brings suits p and s and 幺九
    h = T.parse_hand("234m22z[1m1p1s1s][555s]")
    own = h.own_counts()
    assert own[T.tile_index("1s")] == 2 and own[T.tile_index("5s")] == 3
    assert own[T.tile_index("1m")] == 1 and own[T.tile_index("2z")] == 2
    assert h.melds[0].bu == 1 and h.melds[1].bu == 0
    assert h.n_sets == 2 and h.n_concealed == 5


@pytest.mark.parametrize(
    "text, words",
    [
        ("123x", ["unknown character 'x'", "position 4"]),
        ("123", ["no suit"]),
        ("m", ["no digits before it"]),
        ("0m", ["'0m'", "not a tile"]),
        ("8z", ["'8z'", "honors are 1z-7z"]),
        ("11111m", ["5 copies of 1m"]),
        ("1m[111m][1m1p1s]", ["5 copies of 1m"]),
        ("[135m]", ["invalid meld '[135m]'"]),
        ("[12z]", ["invalid meld '[12z]'"]),
        ("[789m1p]", ["invalid meld"]),
        ("(111m)", ["concealed kong is four identical tiles"]),
        ("[123m", ["not closed"]),
        ("123m]", ["unexpected ']'"]),
        ("[1[2]3m]", ["position 2"]),  # nested bracket: the 1 before it has no suit
        ("[111m][222m][333m][444m][555m]", ["5 declared sets"]),
        ("", ["empty hand"]),
        ("   ", ["empty hand"]),
        ("１２３m", ["unknown character"]),  # full-width digits are not accepted
    ],
)
def test_bad_notation(text, words):
    with pytest.raises(HandError) as e:
        T.parse_hand(text)
    for w in words:
        assert w in e.value.message, (w, e.value.message)


@pytest.mark.parametrize("text, idx", [("1m", 0), ("9p", 17), ("1s", 18), ("1z", 27), ("中", 33),
                                       ("白", 31), ("7z", 33)])  # fmt: skip
def test_tile_index(text, idx):
    assert T.tile_index(text) == idx
    assert T.tile_name(idx) == ("7z" if text == "中" else "5z" if text == "白" else text)


@pytest.mark.parametrize("text", ["", "1m1m", "[1m]", "1"])
def test_tile_index_rejects(text):
    with pytest.raises(HandError):
        T.tile_index(text)


def test_require_size():
    h = T.parse_hand("5m[111m][444p][777s][222z]")
    assert T.require_size(h, 1, "x", "waits") == 0
    with pytest.raises(HandError, match="needs 2 concealed tiles beside 4 declared"):
        T.require_size(h, 2, "x", "check")


@pytest.mark.parametrize(
    "upper, lower",
    [
        ("1M23m456P789S1123s", "123m456p789s1123s"),
        ("123M456P789S11Z", "123m456p789s11z"),
        ("[123M]456p789s1123S", "[123m]456p789s1123s"),
        ("(5555S)123m456p789s1Z", "(5555s)123m456p789s1z"),
    ],
)
def test_suit_letters_in_upper_case(upper, lower):
    # seats and `how` are read in any case; suit letters too: 1M = 1m
    assert T.format_hand(T.parse_hand(upper)) == T.format_hand(T.parse_hand(lower))
    assert T.parse_tiles("55M7Z") == T.parse_tiles("55m7z")


def test_upper_case_suits_keep_the_checks():
    with pytest.raises(HandError, match="'8z' at position 1 is not a tile"):
        T.parse_hand("8Z")
    with pytest.raises(HandError, match="'0m'"):
        T.parse_hand("0M")
