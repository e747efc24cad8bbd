"""The batch's bulk reading (``_kernels/notation.read_hand`` / ``read_kongs``, ``prepare_rows``)
against the Python parsers and ``ccmj score``.

The kernels read melds, concealed kongs, special kongs with 补 tiles, Chinese names and ``kongs``
cells straight from the CSV bytes; every row they refuse goes to the Python parser, which words
the error. So: what the kernels accept, they read exactly as ``tiles.parse_hand`` /
``scoring.parse_kongs`` do (same counts, melds, 补 tiles); what Python refuses, the kernels refuse
(routed to Python for the message); and a batch over the realistic row mix answers every row as
``ccmj score`` does for that row alone.
"""

import csv
import importlib.util
import io
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ccmj_cli import batch as B
from ccmj_cli import scoring as S
from ccmj_cli import tiles as T
from ccmj_cli._kernels.notation import (
    MAX_CONCEALED,
    MAX_MELD_TILES,
    WORK_LEN,
    read_hand,
    read_kongs,
)
from ccmj_cli.errors import CcmjError
from ccmj_cli.rules import load_variant

ROOT = Path(__file__).resolve().parent.parent
SUITS = "mpsz"
HONOR_ZH = "东南西北白发中"
SUIT_ZH = {"m": "万", "p": "饼", "s": "条"}
WINDS, DRAGONS = (27, 28, 29, 30), (31, 32, 33)
SPECIAL = (WINDS, DRAGONS, (0, 9, 18), (8, 17, 26))
ODD = ("0", "8z", "]", ")", "(", "[", "x", "\u3000", "\t", "5", "m", "东5", "99999999999999999m")


# The generators below take their odds from a seeded Random Hypothesis draws: drawn
# directly, Hypothesis' small integers and first choices come so often that most texts would
# carry an error and the "read the same" half of each property would rarely run.


def spelt(rng, tiles) -> str:
    """``tiles`` as a person may type them: in the order given, one suit letter per run (or a
    letter per tile), 万饼条 for suits and 东南西北白发中 for honors now and then, spaces."""
    out = []
    for t in tiles:
        suit = SUITS[t // 9]
        if suit == "z" and rng.random() < 0.4:
            out.append(("", HONOR_ZH[t - 27]))
            continue
        if suit in SUIT_ZH and rng.random() < 0.2:
            suit = SUIT_ZH[suit]
        if out and out[-1][1] == suit and rng.random() < 0.7:
            out[-1] = (out[-1][0] + str(t % 9 + 1), suit)
        else:
            out.append((str(t % 9 + 1), suit))
    return (" " if rng.random() < 0.15 else "").join(d + s for d, s in out)


def bracket_tiles(rng, kongs_only=False) -> list[int]:
    """The tiles of one bracket: a set, a kong, a special kong with 补 tiles (幺鸡 among them
    now and then), or now and then a few tiles near one of those (mostly not a meld)."""
    kinds = ["kong", "special"] if kongs_only else ["chow", "pung", "kong", "special"]
    kind = rng.choice(kinds) if rng.random() < 0.9 else "near"
    if kind == "chow":
        s, k = rng.randrange(3), rng.randrange(7)
        tiles = [s * 9 + k + i for i in range(3)]
    elif kind in ("pung", "kong"):
        tiles = [rng.randrange(34)] * (3 if kind == "pung" else 4)
    else:
        group = list(rng.choice(SPECIAL))
        if rng.random() < 0.1:
            group.remove(rng.choice(group))  # 三风蛋, or a gap for 幺鸡
        if rng.random() < 0.1:
            group.append(18)  # 幺鸡
        pool = group  # 补 tiles: members, now and then any honor or 幺鸡
        if rng.random() < 0.1:
            pool = group + [18] + list(WINDS + DRAGONS)
        tiles = group + [rng.choice(pool) for _ in range(rng.choice((0, 0, 1, 2)))]
        if kind == "near":
            tiles = [rng.choice(tiles + [0, 1, 2]) for _ in range(rng.randint(1, 6))]
    rng.shuffle(tiles)
    return tiles


def bracketed(rng, tiles) -> str:
    if len(tiles) == 4 and len(set(tiles)) == 1 and rng.random() < 0.5:
        return "(" + spelt(rng, tiles) + ")"
    return "[" + spelt(rng, tiles) + "]"


def odd(rng, text: str) -> str:
    """``text`` with something odd typed into it, now and then."""
    if rng.random() < 0.15:
        k = rng.randint(0, len(text))
        text = text[:k] + rng.choice(ODD) + text[k:]
    return text


@st.composite
def hand_texts(draw):
    """A hand text: concealed tiles and up to four brackets (square or round; five now and
    then), in any order, the tiles mostly held at most four times; now and then with something
    odd typed into it."""
    rng = draw(st.randoms(use_true_random=True))
    used = [0] * 34
    parts = []
    for _ in range(rng.choice((0, 1, 1, 2, 2, 3, 3, 4, 4, 5))):
        tiles = bracket_tiles(rng)
        for t in tiles:
            used[t] += 1
        parts.append(bracketed(rng, tiles))
    concealed = []
    for _ in range(rng.choice((0, 1, 2, 4, 5, 7, 8, 10, 11, 13, 14))):
        t = rng.randrange(34)
        if used[t] < 4 or rng.random() < 0.05:  # a fifth copy now and then
            used[t] += 1
            concealed.append(t)
    parts.insert(rng.randint(0, len(parts)), spelt(rng, concealed))
    return odd(rng, "".join(parts))


meld_rules = st.builds(
    T.MeldRules,
    sanfeng=st.booleans(),
    xiaoji=st.sampled_from([T.XIAOJI_OFF, T.XIAOJI_ONE, T.XIAOJI_ANY]),
    xi_bu_any_honor=st.booleans(),
    one_per_kind=st.booleans(),
)


def melds_of(kinds, tiles, lens, bus, n):
    return [
        T.Meld(int(kinds[m]), tuple(tiles[m, : lens[m]].tolist()), int(bus[m])) for m in range(n)
    ]


def kernel_hand(text: str, r: T.MeldRules):
    """``read_hand`` on ``text``'s UTF-8 bytes: (counts, melds, concealed tiles), or None."""
    buf = np.frombuffer(text.encode(), np.uint8)
    conc = np.zeros(34, np.int64)
    kinds, lens, bus = (np.zeros(4, np.int64) for _ in range(3))
    tiles = np.zeros((4, MAX_MELD_TILES), np.int64)
    work = np.zeros(WORK_LEN, np.int64)
    nm, ncon = read_hand(buf, 0, buf.shape[0], r.sanfeng, r.xiaoji, r.xi_bu_any_honor,
                         r.one_per_kind, conc, kinds, tiles, lens, bus, work)  # fmt: skip
    if nm < 0:
        return None
    return conc.tolist(), melds_of(kinds, tiles, lens, bus, nm), ncon


def exotic(text: str) -> bool:
    """Text the kernels may leave to the Python parser although it reads it: whitespace other
    than ASCII, a run of more than 16 digits, more concealed tiles than a wall holds."""
    runs = "".join(c if c.isdigit() else " " for c in text).split()
    return (
        any(c.isspace() and not c.isascii() for c in text)
        or max(map(len, runs), default=0) > 16
        or sum(map(len, runs)) > MAX_CONCEALED
    )


@settings(max_examples=400)
@given(text=hand_texts(), rules=meld_rules)
def test_read_hand_reads_what_parse_hand_reads(text, rules):
    # accepted by the kernel: the same concealed counts, melds (kind, tiles, 补) and tile count
    # as tiles.parse_hand; refused by parse_hand: refused by the kernel (the row goes to Python
    # for the message); accepted by parse_hand: accepted by the kernel unless the text is exotic
    got = kernel_hand(text, rules)
    try:
        h = T.parse_hand(text, rules)
    except CcmjError:
        assert got is None, text
        return
    if got is None:
        assert exotic(text), text
        return
    counts, melds, ncon = got
    assert counts == h.concealed.tolist(), text
    assert melds == list(h.melds), text
    assert ncon == h.n_concealed, text


@st.composite
def kongs_cells(draw, winner):
    """A ``kongs`` cell: SEAT:MELDS items of the seats other than ``winner`` (now and then the
    winner's, a seat letter that is not one, an empty item, loose tiles, a set that is not a
    kong, more than four kongs for a seat)."""
    rng = draw(st.randoms(use_true_random=True))
    items = []
    others = [s for k, s in enumerate("ESWN") if k != winner]
    for _ in range(rng.choice((1, 1, 1, 2, 2, 3))):
        seat = rng.choice(others) if rng.random() < 0.9 else rng.choice("ESWNeswQ")
        melds = [
            bracketed(rng, bracket_tiles(rng, kongs_only=rng.random() < 0.9))
            for _ in range(rng.choice((1, 1, 1, 1, 2, 2, 2, 5)))
        ]
        if rng.random() < 0.05:
            melds.append(rng.choice(["1m", "", " ", "[", "(1111m"]))
        items.append(
            seat + (":" if rng.random() < 0.95 else rng.choice(("", ": "))) + "".join(melds)
        )
    sep = "," if rng.random() < 0.9 else rng.choice((", ", ",,"))
    return odd(rng, sep.join(items))


@settings(max_examples=300)
@given(data=st.data(), rules=meld_rules, winner=st.integers(0, 3))
def test_read_kongs_reads_what_parse_kongs_reads(data, rules, winner):
    # as read_hand: what the kernel accepts it reads as scoring.parse_kongs (same seats, kongs,
    # 补 tiles); what parse_kongs or check_one_per_kind refuses (the errors name the cell) the
    # kernel refuses
    text = data.draw(kongs_cells(winner))
    buf = np.frombuffer(text.encode(), np.uint8)
    n = 17  # a first meld of the winner's, then room for up to 4 kongs a seat (16)
    seats, kinds, lens, bus = (np.full(n, -7, np.int64) for _ in range(4))
    tiles = np.zeros((n, MAX_MELD_TILES), np.int64)
    work = np.zeros(WORK_LEN, np.int64)
    end = read_kongs(buf, 0, buf.shape[0], winner, rules.sanfeng, rules.xiaoji,
                     rules.xi_bu_any_honor, rules.one_per_kind, seats, kinds, tiles, lens, bus,
                     1, work)  # fmt: skip
    v = SimpleNamespace(meld_rules=rules, one_special_kong_per_kind=rules.one_per_kind)
    try:
        want = S.parse_kongs(text, v, winner)
        S.check_one_per_kind(want, v)  # (two special kongs of a kind for a seat across items)
    except CcmjError:
        assert end < 0, text
        return
    assert end >= 0 or exotic(text), text
    if end >= 0:
        got = list(zip(seats[1:end].tolist(), melds_of(kinds[1:], tiles[1:], lens[1:],
                                                       bus[1:], end - 1), strict=True))  # fmt: skip
        assert got == want, text
        assert kinds[0] == -7  # (the winner's melds before ``first`` are left alone)


# --- the realistic row mix, row by row against ``ccmj score`` -------------------------------


def _bench():
    """scripts/bench_batch_cli.py: the generator of the row mix the batch is benchmarked on."""
    spec = importlib.util.spec_from_file_location("bench_batch_cli", ROOT / "scripts" /
                                                  "bench_batch_cli.py")  # fmt: skip
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


TRUTH = {"1": True, "true": True, "yes": True, "0": False, "false": False, "no": False, "": False}


@pytest.mark.parametrize(
    "preset,seed", [("default", 1), ("kuansong", 2), ("mil2024", 3), ("quanbao", 4)]
)
def test_the_row_mix_answers_as_score_row_by_row(preset, seed, tmp_path):
    # rows of examples/wins.csv's kinds with distinct hands (melds, concealed kongs, special
    # kongs with 补 tiles, Chinese names, kongs cells, declared/looked, bao wins, one bad row in
    # eight); small chunks so that rows in error sit among kernel-read rows in every chunk
    bench = _bench()
    path = tmp_path / "mix.csv"
    bench.write_set("mix", 400, path, seed)
    text = path.read_text(encoding="utf-8")
    v = load_variant(preset)
    out = io.StringIO()
    summary = B.run(io.StringIO(text), out, rules=v, chunk=37)
    rows = list(csv.DictReader(io.StringIO(text)))
    got = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert len(got) == len(rows) == summary.rows == 400
    failed = 0
    kinds = {"melds": 0, "kongs": 0, "chinese": 0}  # scored rows of the new kinds
    for r, g in zip(rows, got, strict=True):
        assert {k: g[k] for k in r} == r  # the input cells passed through
        declared, looked = (TRUTH.get(r[k].strip().lower()) for k in ("declared", "looked"))
        try:
            if declared is None or looked is None or not r["base"].isdigit():
                raise CcmjError("a cell score's options do not take")
            s = S.score(r["hand"], r["win"] or None, r["how"], r["seat"], r["from"] or None,
                        r["bao"] or None, int(r["base"]), r["kongs"] or None, declared,
                        rules=v, looked=looked)  # fmt: skip
        except CcmjError as e:
            failed += 1
            assert g["error"] != "", r
            if not e.message.startswith("a cell"):
                assert g["error"] == B._in_columns(e.message), r  # (worded for the columns)
            continue
        assert g["error"] == "", (r, g["error"])
        assert g["legal"] == ("true" if s.legal else "false"), r
        assert g["reasons"] == ";".join(s.reasons), r
        assert g["stands_for"] == (s.stands_for or ""), r
        assert g["fan_items"] == " ".join(f"{i.name}:{i.fan}" for i in s.fan_items), r
        assert [int(g[f"fan_{x}"]) for x in "ESWN"] == [s.fan_by_seat[x] for x in "ESWN"], r
        assert [int(g[f"pay_{x}"]) for x in "ESWN"] == [s.total_amount[x] for x in "ESWN"], r
        kinds["melds"] += "[" in r["hand"] or "(" in r["hand"]
        kinds["kongs"] += bool(r["kongs"])
        kinds["chinese"] += not r["hand"].isascii()
    assert summary.failed == failed
    assert min(kinds.values()) >= 40, kinds
    assert 30 <= failed <= 120  # the mix holds its one bad row in eight (and illegal-ish rows)
