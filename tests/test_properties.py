"""Hypothesis properties: the kernels against tests/naive.py, and invariants of the API."""

import naive
import numpy as np
import pytest
import strategies as S
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ccmj_cli import hand as H
from ccmj_cli import tiles as T
from ccmj_cli._kernels.shape import useful_mask
from ccmj_cli._kernels.tables import tables
from ccmj_cli.rules import load_variant

DEFAULT = load_variant()


def opts(v):
    return v.options


def idx(name: str) -> int:
    return T.tile_index(name)


# --------------------------------------------------------------------------- structural waits


@settings(max_examples=S.examples(300))
@given(S.random_hands(sizes=(1, 4, 7, 10, 13)))
def test_waits_many_equals_brute_force_random(tiles):
    c = S.counts(tiles)
    got = H.waits_many(c[None, :])[0]
    want = np.zeros(34, bool)
    want[naive.structural_waits(c)] = True
    assert (got == want).all(), (S.text_of(tiles), np.flatnonzero(got), np.flatnonzero(want))


@settings(max_examples=S.examples(300))
@given(S.tenpai_hands(max_melds=0))
def test_waits_many_equals_brute_force_near_complete(h):
    _, _, rest, _ = h
    c = S.counts(rest)
    got = np.flatnonzero(H.waits_many(c[None, :])[0]).tolist()
    assert got == naive.structural_waits(c)


@settings(max_examples=S.examples(150))
@given(S.tenpai_hands())
def test_waits_rows_are_the_structural_waits(h):
    # RULES §4: waits lists a wait held four times too (no live copy), concealed ones included
    text, _, rest, _ = h
    got = [idx(w.tile) for w in H.waits(text).waits]
    assert got == naive.structural_waits(S.counts(rest), fifth=True)


def test_waits_many_bulk_rows_independent():
    # the same rows in one array and one by one give the same answer
    # (rows of different sizes may share one array: each row's k comes from its own count)
    rng = np.random.default_rng(7)
    rows = []
    for i in range(300):
        n = [13, 10, 7, 4, 1][i % 5]
        wall = rng.permutation(136)[:n] // 4
        rows.append(S.counts(wall))
    arr = np.array(rows)
    bulk = H.waits_many(arr)
    for i in range(len(rows)):
        assert (bulk[i] == H.waits_many(arr[i : i + 1])[0]).all()
        want = np.zeros(34, bool)
        want[naive.structural_waits(rows[i])] = True
        assert (bulk[i] == want).all()
    arr14 = np.array([S.counts(rng.permutation(136)[: [14, 11, 8, 5, 2][i % 5]] // 4)
                      for i in range(300)])  # fmt: skip
    sh = H.shanten_many(arr14)
    for i in range(len(arr14)):
        assert sh[i] == H.shanten_many(arr14[i : i + 1])[0]


@settings(max_examples=S.examples(200))
@given(S.complete_hands())
def test_removing_any_tile_leaves_a_wait_on_it(h):
    concealed, ms = h
    for t in sorted(set(concealed)):
        rest = list(concealed)
        rest.remove(t)
        text = S.hand_text(rest, ms)
        waits = [idx(w.tile) for w in H.waits(text).waits]
        assert t in waits, (text, T.tile_name(t))
        assert H.waits_many(S.counts(rest)[None, :])[0][t]


@settings(max_examples=S.examples(200))
@given(S.complete_hands())
def test_complete_hand_has_shanten_minus_one(h):
    concealed, _ = h
    assert H.shanten_many(S.counts(concealed)[None, :])[0] == -1


# --------------------------------------------------------------------------- suit symmetry


def _perm_waits(d: dict, perm: str) -> dict:
    d = dict(d)
    d["hand"] = None
    d["waits"] = sorted(
        ({**w, "tile": S.permute_text(w["tile"], perm)} for w in d["waits"]),
        key=lambda w: idx(w["tile"]),
    )
    return d


@settings(max_examples=S.examples(100))
@given(S.tenpai_hands(), st.sampled_from(S.SUIT_PERMS[1:]), S.variants())
def test_permuting_suits_changes_nothing(h, perm, v):
    text, win, rest, ms = h
    ptext = S.permute_text(text, perm)
    pwin = S.permute_text(T.tile_name(win), perm)
    a = H.waits(text, rules=v).to_dict()
    b = H.waits(ptext, rules=v).to_dict()
    assert _perm_waits(a, perm) == _perm_waits(b, "mps")
    ca = H.check(text, T.tile_name(win), v).to_dict()
    cb = H.check(ptext, pwin, v).to_dict()
    for key in ("legal", "reasons", "menqing", "jiahu", "piao", "qidui"):
        assert ca[key] == cb[key], key
    assert H.shanten(text).shanten == H.shanten(ptext).shanten
    c = S.counts(rest)
    pc = S.permute_counts(c, perm).astype(np.uint8)
    assert H.shanten_many(c[None, :])[0] == H.shanten_many(pc[None, :])[0]
    w1 = H.waits_many(c[None, :])[0]
    w2 = H.waits_many(pc[None, :])[0]
    assert (S.permute_counts(w1, perm) == w2).all()


@settings(max_examples=S.examples(200))
@given(S.random_hands(sizes=(13, 14)), st.sampled_from(S.SUIT_PERMS[1:]))
def test_permuting_suits_random_hands(tiles, perm):
    c = S.counts(tiles)
    pc = S.permute_counts(c, perm).astype(np.uint8)
    assert H.shanten_many(c[None, :])[0] == H.shanten_many(pc[None, :])[0]
    if len(tiles) == 13:
        w = H.waits_many(c[None, :])[0]
        assert (S.permute_counts(w, perm) == H.waits_many(pc[None, :])[0]).all()


# --------------------------------------------------------------------------- notation


def _same(a: T.Hand, b: T.Hand) -> bool:
    return (a.concealed == b.concealed).all() and a.melds == b.melds


@st.composite
def typed_text(draw):
    """A structured hand written as a user might: spaces between groups, honors as 东南西北白发中,
    melds anywhere."""
    concealed, ms = draw(S.complete_hands())
    if draw(st.booleans()) and concealed:
        concealed = concealed[1:]
    groups = []
    for s in range(4):
        ts = [t for t in concealed if t // 9 == s]
        if not ts:
            continue
        if s == 3 and draw(st.booleans()):
            groups.append("".join("东南西北白发中"[t - 27] for t in ts))
        else:
            groups.append("".join(str(t % 9 + 1) for t in ts) + "mpsz"[s])
    groups += [S.meld_text(k, t) for k, t in ms]
    groups = draw(st.permutations(groups))
    sep = draw(st.sampled_from(["", " ", "  "]))
    return sep.join(groups)


@settings(max_examples=S.examples(300))
@given(typed_text())
def test_parse_format_round_trip(text):
    h = T.parse_hand(text)
    again = T.parse_hand(T.format_hand(h))
    assert _same(again, h), (text, T.format_hand(h))
    assert T.format_hand(again) == T.format_hand(h)


@settings(max_examples=S.examples(200))
@given(S.random_hands(sizes=(1, 5, 13, 14)))
def test_format_parse_of_counts(tiles):
    c = S.counts(tiles)
    assert (T.parse_hand(T.format_tiles(c)).concealed == c).all()
    assert T.format_tiles(c) == S.text_of(tiles)


# --------------------------------------------------------------------------- legality vs naive


def assert_verdict(got: dict, want: naive.Verdict, where):
    """``got`` is a check() dict or a waits() row (which has no menqing/qidui fields)."""
    assert got["legal"] == want.legal, where
    if "menqing" in got:
        assert got["menqing"] == want.menqing, where
    if want.legal:
        assert got["reasons"] == [], where
        if "qidui" in got:
            flags = want.flags
            mine = (got["jiahu"], got["piao"], got["qidui"])
        else:
            flags = {f[:2] for f in want.flags}
            mine = (got["jiahu"], got["piao"])
        assert mine in flags, (where, flags)
    else:
        assert tuple(got["reasons"]) in want.reasons, (where, want.reasons)
        assert not got["jiahu"] and not got["piao"], where


def reading_key(parts: list[str]):
    """check()'s reading (["55m", "456m", ...]) as naive's (pair, sorted sets) key."""
    if parts == ["qidui"]:
        return ("qidui",)
    pair = T.parse_tiles(parts[0])[0]
    sets = []
    for p in parts[1:]:
        ts = T.parse_tiles(p)
        sets.append(("pung" if ts[0] == ts[1] else "chow", ts[0]))
    return (pair, tuple(sorted(sets)))


def assert_check(text: str, win: int, v):
    hand = T.parse_hand(text)
    got = H.check(text, T.tile_name(win), v).to_dict()
    want = naive.check(hand, win, opts(v))
    where = (text, T.tile_name(win), dict(v.options))
    assert_verdict(got, want, where)
    # the reading reported is one of the best readings, with its own flags and failures
    if got["reading"]:
        mine = (reading_key(got["reading"]), (got["jiahu"], got["piao"], got["qidui"]),
                tuple(got["reasons"]))  # fmt: skip
        assert mine in want.best, (where, got["reading"], want.best)
    else:
        assert got["reasons"] == ["incomplete"] and not want.best


@settings(max_examples=S.examples(300))
@given(S.tenpai_hands(), S.variants())
def test_check_equals_naive(h, v):
    text, win, _, _ = h
    assume(T.parse_hand(text).own_counts()[win] < 4)
    assert_check(text, win, v)


@settings(max_examples=S.examples(150))
@given(S.tenpai_hands(), S.variants(fan=True))
def test_check_equals_naive_fan_values(h, v):
    # fan values change which reading scores best (飘胡 vs 夹胡 vs 七对)
    text, win, _, _ = h
    assume(T.parse_hand(text).own_counts()[win] < 4)
    assert_check(text, win, v)


@settings(max_examples=S.examples(150))
@given(S.tenpai_hands(), st.integers(0, 33), S.variants())
def test_check_any_tile_equals_naive(h, win, v):
    # mostly incomplete hands: reasons are just ["incomplete"]
    text, _, _, _ = h
    assume(T.parse_hand(text).own_counts()[win] < 4)
    assert_check(text, win, v)


@st.composite
def qidui_hands(draw):
    """Seven pairs (a quad may stand for two pairs), minus one tile."""
    kinds = draw(st.lists(st.integers(0, 33), min_size=6, max_size=7))
    c = [0] * 34
    for t in kinds:
        if c[t] <= 2:
            c[t] += 2
    tiles = [t for t in range(34) for _ in range(c[t])]
    assume(len(tiles) == 14)
    win = draw(st.sampled_from(tiles))
    tiles.remove(win)
    return S.text_of(tiles), win


@settings(max_examples=S.examples(150))
@given(qidui_hands(), S.variants(fan=True))
def test_qidui_hands_equal_naive(h, v):
    text, win = h
    assert_check(text, win, v)
    assert_waits(text, None, v)


def assert_waits(text, visible, v):
    hand = T.parse_hand(text)
    got = H.waits(text, visible, v).to_dict()
    want = naive.waits(hand, opts(v))
    own = naive.own_counts(hand)
    vis = [0] * 34
    for t in T.parse_tiles(visible or ""):
        vis[t] += 1
    assert [idx(w["tile"]) for w in got["waits"]] == sorted(want.verdicts), text
    for w in got["waits"]:
        t = idx(w["tile"])
        assert_verdict(w, want.verdicts[t], (text, w["tile"]))
        assert w["live"] == 4 - own[t] - vis[t], (text, w["tile"])
    assert got["tenpai"] == want.tenpai, text
    assert got["can_look_bao"] == want.can_look_bao, text
    assert got["live_total"] == sum(w["live"] for w in got["waits"] if w["legal"])


@settings(max_examples=S.examples(250))
@given(S.tenpai_hands(), S.variants())
def test_waits_equal_naive(h, v):
    text, _, _, _ = h
    assert_waits(text, None, v)


@settings(max_examples=S.examples(100))
@given(S.tenpai_hands(), S.variants(fan=True), st.data())
def test_waits_equal_naive_with_visible(h, v, data):
    text, _, _, _ = h
    own = T.parse_hand(text).own_counts()
    room = [t for t in range(34) for _ in range(4 - int(own[t]))]
    vis = data.draw(st.lists(st.sampled_from(room), max_size=8, unique_by=None))
    c = [0] * 34
    for t in vis:
        c[t] += 1
    assume(all(own[t] + c[t] <= 4 for t in range(34)))
    assert_waits(text, S.text_of(vis) or None, v)


@settings(max_examples=S.examples(150))
@given(S.random_hands(sizes=(13,), dense=True), S.variants())
def test_waits_equal_naive_random_dense(tiles, v):
    assert_waits(S.text_of(tiles), None, v)


# --------------------------------------------------------------------------- shanten vs naive


@settings(max_examples=S.examples(150))
@given(S.random_hands(sizes=(1, 2, 4, 5, 7, 8)))
def test_shanten_and_useful_equal_naive(tiles):
    c = S.counts(tiles)
    assert H.shanten_many(c[None, :])[0] == naive.shanten(c), S.text_of(tiles)
    m = useful_mask(c.copy(), tables())
    got = [t for t in range(34) if m >> t & 1]
    assert got == naive.useful(c), S.text_of(tiles)


@settings(max_examples=S.examples(150))
@given(S.random_hands(sizes=(4, 5, 7, 8), dense=True))
def test_shanten_equal_naive_dense(tiles):
    c = S.counts(tiles)
    assert H.shanten_many(c[None, :])[0] == naive.shanten(c), S.text_of(tiles)


@settings(max_examples=S.examples(100))
@given(S.tenpai_hands(min_melds=2))
def test_shanten_api_with_melds_equal_naive(h):
    # a 13-tile hand with >= 2 melds has <= 7 concealed tiles: naive shanten is exact and fast.
    # The removed tile is a live wait (at most three of it are left), so the hand is tenpai;
    # a useful tile is one the player can draw: not one whose four copies are all his own,
    # melds included (1222333m[123m][456m]: 2m and 3m are not useful, 1m is)
    text, _, rest, ms = h
    r = H.shanten(text)
    c = S.counts(rest)
    own = naive.own_counts(T.parse_hand(text))
    assert r.shanten == naive.shanten(c) == naive.live_shanten(c, own) == 0
    assert [idx(u.tile) for u in r.useful] == naive.live_useful(c, own)


@pytest.mark.parametrize("n", [13, 14])
def test_shanten_many_rejects_bad_arrays(n):
    from ccmj_cli.errors import HandError

    with pytest.raises(HandError):
        H.shanten_many(np.zeros((3, 33), np.uint8))
    with pytest.raises(HandError):
        H.shanten_many(np.full((1, 34), 5, np.uint8))


# --------------------------------------------------------------------------- 14-tile 牌理 view


def _live_shanten(c, own) -> int:
    """The shanten ``ccmj shanten`` reports (a wait held four times, melds included, is no wait:
    2222444555m[3333m] waits on a fifth 2m, 1-shanten), the structural part from the bulk
    kernel (the naive one is too slow for 14 tiles)."""
    def bulk(x) -> int:
        return int(H.shanten_many(np.array(x, np.uint8)[None, :])[0])

    return naive.live_shanten(c, own, bulk)


@settings(max_examples=S.examples(80))
@given(S.tenpai_hands(max_melds=2), st.integers(0, 33), S.variants())
def test_shanten_14_discards_equal_naive(h, extra, v):
    # a tenpai hand + one more tile: every discard is listed once, with the shanten it
    # leaves; a discard leaving tenpai lists the legal waits of the 13-tile hand left
    _, _, concealed, ms = h
    own = S.counts(concealed + [t for _, ts in ms for t in ts])
    assume(own[extra] < 4)
    own[extra] += 1  # the 14-tile hand's own tiles, melds included
    tiles = sorted(concealed + [extra])
    r = H.shanten(S.hand_text(tiles, ms), rules=v)
    c = S.counts(tiles)
    assert r.shanten == _live_shanten(c, own)
    assert sorted(idx(d.tile) for d in r.discards) == sorted(set(tiles))
    for d in r.discards:
        rest = list(tiles)
        rest.remove(idx(d.tile))
        rc = S.counts(rest)
        own_rest = own.copy()
        own_rest[idx(d.tile)] -= 1
        assert d.shanten == _live_shanten(rc, own_rest)
        if d.shanten == 0:
            ans = naive.waits(T.parse_hand(S.hand_text(rest, ms)), opts(v))
            legal = [t for t, vd in ans.verdicts.items() if vd.legal]
            assert [idx(u.tile) for u in d.legal_waits] == sorted(legal)
        else:
            assert d.legal_waits is None
    keys = [(d.shanten, -d.useful_total) for d in r.discards]
    assert keys == sorted(keys)


def test_shanten_14_a_discard_leaving_only_a_fifth_copy_wait_is_1_shanten():
    # 12222444555m[3333m]: without the 1m, 222 444 555 + 2m waits on a fifth 2m (the other
    # shapes need a 3m, all four in the kong): 1-shanten; without a 2m, 1m waits (3 live)
    r = H.shanten("12222444555m[3333m]")
    got = {d.tile: d.shanten for d in r.discards}
    assert r.shanten == 0 and got["2m"] == 0 and got["1m"] == 1


# --------------------------------------------------------------------------- API consistency


@settings(max_examples=S.examples(150))
@given(S.random_hands(sizes=(4, 7, 10, 13)))
def test_tenpai_iff_structural_waits(tiles):
    # shanten 0 exactly when there is a structural wait, and then the useful tiles are the waits
    c = S.counts(tiles)
    sh = H.shanten_many(c[None, :])[0]
    w = H.waits_many(c[None, :])[0]
    assert (sh == 0) == bool(w.any()), S.text_of(tiles)
    if sh == 0:
        m = useful_mask(c.copy(), tables())
        assert [t for t in range(34) if m >> t & 1] == np.flatnonzero(w).tolist()


@settings(max_examples=S.examples(100))
@given(S.tenpai_hands(), S.variants())
def test_check_agrees_with_waits_rows(h, v):
    # check(hand, t) gives the same legality, reasons, 夹胡 and 飘胡 as the waits row for t
    text, _, _, _ = h
    own = T.parse_hand(text).own_counts()
    for w in H.waits(text, rules=v).waits:
        if own[idx(w.tile)] >= 4:
            continue  # check refuses a fifth copy
        c = H.check(text, w.tile, v)
        assert (c.legal, c.reasons, c.jiahu, c.piao) == (w.legal, w.reasons, w.jiahu, w.piao)
