"""ccmj review: each decision kind on small hand-made records (a horizon of one draw, worked
by hand), the discard values against ``ccmj odds --exact``, and the grading properties."""

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from ccmj_cli import review as RV
from ccmj_cli import tiles as T
from ccmj_cli._kernels import layout as L
from ccmj_cli._kernels.table import layout as TL
from ccmj_cli.cli import app
from ccmj_cli.odds import odds
from ccmj_cli.replay import LOG_VERSION
from ccmj_cli.rules import load_variant

E, S, W, N = range(4)


def t(name: str) -> int:
    return T.tile_index(name)


def record(dealer, starts: dict, events, drawable) -> RV.HandRecord:
    """A hand-made record: the dealt tiles of the seats that matter, the events, and how many
    head draws the wall allows after the deal (``drawable``: a short horizon)."""
    start = tuple(
        T.counts_of(T.parse_tiles(starts[s])).astype(np.uint8) if s in starts
        else np.zeros(34, np.uint8)
        for s in range(4)
    )  # fmt: skip
    v = load_variant(None)
    return RV.HandRecord(1, dealer, start, [list(e) for e in events],
                         np.asarray(v.vector, np.int64), "default", drawable)  # fmt: skip


def grade(rec, seat=E, objective="win", search="full", rules=None):
    valuer = RV.Valuer(rules or load_variant(None), objective, search=search)
    skipped = []
    return RV._decisions_of_hand(rec, [seat], valuer, skipped), valuer


# W deals and throws 9m, N draws and throws 9m, E draws 9m and throws 2s. E then holds
# 123m456p789s111s9m: one draw left (7 drawable, 3 drawn: 4 left, E draws the fourth).
DISCARD = record(
    W,
    {E: "123m456p789s1112s", S: "4455667788m99p3s", W: "9m1234567p112233z",
     N: "2345678p112233z"},
    [
        (TL.EV_DISCARD, W, t("9m"), 0, 0),
        (TL.EV_DRAW, N, t("9m"), 0, 0),
        (TL.EV_DISCARD, N, t("9m"), 0, 0),
        (TL.EV_DRAW, E, t("9m"), 0, 0),
        (TL.EV_DISCARD, E, t("2s"), 0, 0),
    ],
    7,
)


def test_discard_hand_worked():
    # E's 14 tiles 123m456p789s1112s9m, two 9m seen: unseen = 136 - 13 held - 2 = 121.
    # Throwing 9m waits on 2s (111s + 2s pair), 3 live: 3/121 with the one draw;
    # throwing 2s waits on 9m (123m 456p 789s 111s 9m pair), 1 live: 1/121. The loss 2/121.
    ds, _ = grade(DISCARD)
    (d,) = [x for x in ds if x.kind == "discard"]
    assert d.tiles == T.format_tiles(T.parse_tiles("123m456p789s1112s9m"))
    assert d.draws == 1 and d.chosen == "2s" and d.best == "9m"
    assert d.values["9m"].p_win == pytest.approx(3 / 121)
    assert d.values["2s"].p_win == pytest.approx(1 / 121)
    assert d.loss["p_win"] == pytest.approx(2 / 121)
    assert d.visible == "99m"


@pytest.mark.parametrize("objective", ["win", "payment"])
def test_discard_equals_odds_exact_cli(objective):
    # the same numbers as `ccmj odds TILES --visible V --draws D --exact`, every discard of
    # every discard decision of the records (the claim record's E throws a drawn 5z)
    for rec in (DISCARD, CLAIM):
        ds, _ = grade(rec, objective=objective)
        for d in [x for x in ds if x.kind == "discard"]:
            _same_as_odds(d, objective)


def test_quick_search_equals_odds_unasked():
    # --search quick: the numbers of `ccmj odds TILES --visible V --draws D` (no --exact)
    ds, _ = grade(DISCARD, search="quick")
    for d in [x for x in ds if x.kind == "discard"]:
        _same_as_odds(d, "win", exact=False)


def _same_as_odds(d, objective, exact=True):
    r = CliRunner().invoke(app, ["odds", d.tiles, "--visible", d.visible, "--draws",
                                 str(d.draws), *(["--exact"] if exact else []), "--json",
                                 "--objective", objective])  # fmt: skip
    assert r.exit_code == 0, r.output
    got = {x["discard"]: x["exact"] for x in json.loads(r.output)["discards"]}
    assert set(got) == set(d.values)
    for k, v in d.values.items():
        assert v.p_win == got[k]["p_win"]
        assert v.expected_payment == got[k]["expected_payment"]


def test_declare_decision():
    # E's 14 tiles 123m456p789s1112s9m, one draw left: 报听 now or not, and with which discard.
    # Throwing 2s or 9m leaves a tenpai that may declare (throwing any other tile, none):
    # the declared lines after each, against the undeclared one with the discard made (2s):
    # 1 live 9m among 136 - 13 - 3 = 120 unseen. Declared, the hand also wins on the bao; after
    # 9m it waits on three live 2s, after 2s on one live 9m: declaring with 9m is the best.
    ds, _ = grade(DISCARD)
    (d,) = [x for x in ds if x.kind == "declare"]
    assert d.tiles == T.format_tiles(T.parse_tiles("123m456p789s1112s9m")) and d.visible == "99m"
    assert set(d.values) == {"declare 9m", "declare 2s", RV.STAY}
    assert d.chosen == RV.STAY and d.best == "declare 9m"
    v = load_variant(None)
    u = odds("123m456p789s111s9m", visible="99m2s", draws=1, exact=True, trials=0,
             rules=v).results[0]  # fmt: skip
    assert d.values[RV.STAY].p_win == u.exact.p_win == pytest.approx(1 / 120)
    dec = odds("123m456p789s111s9m", visible="99m2s", draws=1, exact=True, trials=0,
               declare=True, bao="unknown", rules=v).results[0]  # fmt: skip
    assert d.values["declare 2s"].p_win == dec.exact.p_win
    assert d.values["declare 9m"].p_win > d.values["declare 2s"].p_win > d.values[RV.STAY].p_win
    assert d.loss["p_win"] == pytest.approx(d.values["declare 9m"].p_win - 1 / 120)


def test_declaring_with_the_worse_discard_is_a_loss():
    # the same hand, E declares with 2s (one live wait) where 9m leaves three: graded as
    # "declare 2s", the loss the difference from "declare 9m"
    rec = record(DISCARD.dealer, {}, [*DISCARD.events, [TL.EV_DECLARE, E, t("2s"), 0, 0]], 7)
    rec = RV.HandRecord(1, rec.dealer, DISCARD.start, rec.events, rec.rv, "default", 7)
    ds, _ = grade(rec)
    (d,) = [x for x in ds if x.kind == "declare"]
    assert d.chosen == "declare 2s" and d.best == "declare 9m"
    best, made = d.values["declare 9m"], d.values["declare 2s"]
    assert d.loss["p_win"] == pytest.approx(best.p_win - made.p_win) and d.loss["p_win"] > 0


# N throws 9m; E (next seat) holds 99m: 碰 or pass, with one draw after either.
CLAIM = record(
    W,
    {E: "123m456p789s11s99m", W: "1234567p112233z", N: "9m2345678p11223z"},
    [
        (TL.EV_DISCARD, W, t("1z"), 0, 0),
        (TL.EV_DRAW, N, t("4z"), 0, 0),
        (TL.EV_DISCARD, N, t("9m"), 0, 0),
        (TL.EV_DRAW, E, t("5z"), 0, 0),
        (TL.EV_DISCARD, E, t("5z"), 0, 0),
    ],
    6,
)


def test_claim_values_are_the_two_hands():
    # pass: 123m456p789s11s99m with 9m and 1z seen, the draws E gets (6 drawable, 1 drawn:
    # 5 left; after N's discard E draws the 1st and the 5th: 2 draws); pung: [999m] + the 11
    # concealed tiles, its best discard, then S draws first: E gets the 4th, 1 draw
    ds, valuer = grade(CLAIM)
    (d,) = [x for x in ds if x.kind == "claim"]
    assert d.chosen == RV.PASS and set(d.values) == {RV.PASS, "pung 9m"}
    v = load_variant(None)
    p = odds("123m456p789s11s99m", visible="9m1z", draws=d.draws, exact=True, trials=0,
             rules=v).results[0]  # fmt: skip
    assert d.values[RV.PASS].p_win == p.exact.p_win
    assert d.draws == 2
    c = odds("123m456p789s11s[999m]", visible="1z", draws=1, exact=True, trials=0,
             rules=v).results  # fmt: skip
    assert d.values["pung 9m"].p_win == max(r.exact.p_win for r in c)


# E holds four 5z after his draw and lays a concealed kong: with the replacement draw vs not
KONG = record(
    S,
    {E: "123m456p789s1s555z", S: "1234567p1122334z"},
    [
        (TL.EV_DISCARD, S, t("4z"), 0, 0),
        (TL.EV_DRAW, W, t("6z"), 0, 0),
        (TL.EV_DISCARD, W, t("6z"), 0, 0),
        (TL.EV_DRAW, N, t("7z"), 0, 0),
        (TL.EV_DISCARD, N, t("7z"), 0, 0),
        (TL.EV_DRAW, E, t("5z"), 0, 0),
        (TL.EV_ANKONG, E, t("5z"), 0, 0),
    ],
    7,
)


def test_kong_with_and_without_replacement():
    # kong: 123m456p789s1s(5555z) waiting on 1s with 1 + 0 draws... his draws left after the
    # kong (7 drawable, 3 drawn: 4 left, E draws the 4th: 1) plus the replacement: 2 draws;
    # no kong: the 14-tile hand's best discard, 1 draw
    ds, _ = grade(KONG)
    (d,) = [x for x in ds if x.kind == "kong"]
    v = load_variant(None)
    k = odds("123m456p789s1s(5555z)", visible="46z7z", draws=2, exact=True, trials=0,
             rules=v).results[0]  # fmt: skip
    assert d.chosen == "kong 5z" and set(d.values) == {"kong 5z", RV.NO_KONG}
    assert d.values["kong 5z"].p_win == k.exact.p_win
    n = odds("123m456p789s1s5555z", visible="46z7z", draws=1, exact=True, trials=0, rules=v)
    assert d.values[RV.NO_KONG].p_win == max(r.exact.p_win for r in n.results)


def test_a_kong_earns_its_kong_money_in_the_payment(make_variant):
    # (5555z) is a concealed 大蛋: 4 base units from each of the three others, at once, won or
    # not: the kong's expected payment is the hand's plus 12; its P(win), and not konging,
    # unchanged. A room paying 1 for it: plus 3.
    ds, _ = grade(KONG)
    (d,) = [x for x in ds if x.kind == "kong"]
    k = odds("123m456p789s1s(5555z)", visible="46z7z", draws=2, exact=True, trials=0,
             rules=load_variant(None)).results[0]  # fmt: skip
    assert d.values["kong 5z"].p_win == k.exact.p_win
    assert d.values["kong 5z"].expected_payment == pytest.approx(k.exact.expected_payment + 12)
    ds, _ = grade(KONG, rules=make_variant(kong={"dadan_concealed": 1}))
    (d1,) = [x for x in ds if x.kind == "kong"]
    assert d1.values["kong 5z"].expected_payment == pytest.approx(k.exact.expected_payment + 3)
    assert d1.values[RV.NO_KONG] == d.values[RV.NO_KONG]


# the same turn, and E throws 1s instead: the kong he did not make is a decision too
NO_KONG = record(S, {E: "123m456p789s1s555z", S: "1234567p1122334z"},
                 [*KONG.events[:-1], (TL.EV_DISCARD, E, t("1s"), 0, 0)], 7)  # fmt: skip


def test_kong_not_made():
    ds, _ = grade(NO_KONG)
    (d,) = [x for x in ds if x.kind == "kong"]
    (k,) = [x for x in grade(KONG)[0] if x.kind == "kong"]
    assert d.chosen == RV.NO_KONG and d.values == k.values and d.event == k.event


# E deals himself 1234z 123m456p789s 5s and lays the 旋风杠 on his first turn (one replacement
# draw, from the tail: 7z), with no head draw left for him (3 drawable, none drawn: 3 // 4 = 0)
XUANFENG = record(
    E,
    {E: "1234z123m456p789s5s"},
    [
        (TL.EV_SPECIAL, E, t("1z"), L.MELD_XUANFENG, 4),
        (TL.EV_TAIL, E, t("7z"), 0, 0),
        (TL.EV_DISCARD, E, t("7z"), 0, 0),
    ],
    3,
)


def test_special_kong_with_its_replacement_draw():
    # laid: 123m456p789s5s[1234z] waits on 5s (单调, legal), 3 live among 136 - 14 = 122
    # unseen, and the replacement draw is his one draw: 3/122. Not laid: the 14 tiles with no
    # draw left win nothing.
    ds, _ = grade(XUANFENG)
    (d,) = [x for x in ds if x.kind == "kong"]
    assert d.chosen == d.best == "kong [1234z]" and set(d.values) == {"kong [1234z]", RV.NO_KONG}
    assert d.values["kong [1234z]"].p_win == pytest.approx(3 / 122)
    assert d.values[RV.NO_KONG].p_win == 0 and d.loss["p_win"] == 0
    assert d.draws == 0 and d.tiles == "123m456p5789s1234z"



@pytest.mark.parametrize("sanfeng, each", [(False, 1), (True, 2)])
def test_a_special_kong_earns_its_kong_money(make_variant, sanfeng, each):
    # 旋风杠 pays 1 + 1 per 补 tile from each other seat: four winds are the kong itself by
    # default, three winds and a 补 under 三风蛋 (sanfeng_dan)
    v = make_variant(sanfeng_dan=sanfeng)
    ds, _ = grade(XUANFENG, rules=v)
    (d,) = [x for x in ds if x.kind == "kong"]
    win = odds("123m456p789s5s[1234z]", draws=1, exact=True, trials=0, rules=v,
               dealer=True).results[0]  # (E deals)
    assert d.values["kong [1234z]"].p_win == win.exact.p_win
    assert d.values["kong [1234z]"].expected_payment == pytest.approx(
        win.exact.expected_payment + 3 * each)


# E deals himself 567z 123m456p789s 5s 9m and lays the 喜杠 (three tiles: no replacement
# draw), then throws 9m; one head draw left for him (7 drawable: 7 // 4 = 1)
XI = record(
    E,
    {E: "567z123m456p789s5s9m"},
    [(TL.EV_SPECIAL, E, t("5z"), L.MELD_XI, 3), (TL.EV_DISCARD, E, t("9m"), 0, 0)],
    7,
)


def test_three_tile_special_kong_takes_no_replacement_draw():
    # laid: the 11 tiles 123m456p789s5s9m beside [567z] discard (9m: the 5s wait) with his one
    # draw; not laid, 567z are three loose honours and the hand is far from a win: 0
    ds, _ = grade(XI)
    (d,) = [x for x in ds if x.kind == "kong"]
    assert d.chosen == d.best == "kong [567z]"
    laid = odds("123m456p789s5s9m[567z]", draws=1, exact=True, trials=0, dealer=True,
                rules=load_variant(None)).results  # fmt: skip (E deals)
    assert d.values["kong [567z]"].p_win == max(r.exact.p_win for r in laid) > 0
    assert d.values[RV.NO_KONG].p_win == 0
    # 喜杠 of three: 1 from each of the three others (its best discard's payment, plus 3)
    best = max(laid, key=lambda r: (r.exact.p_win, r.exact.expected_payment))
    assert d.values["kong [567z]"].expected_payment == pytest.approx(
        best.exact.expected_payment + 3)


# E holds [1234z] and draws a fourth wind later: the 补 (one replacement draw) or not
BU = record(
    E,
    {E: "1234z123m456p789s5s"},
    [
        *XUANFENG.events,
        (TL.EV_DRAW, S, t("7p"), 0, 0), (TL.EV_DISCARD, S, t("7p"), 0, 0),
        (TL.EV_DRAW, W, t("7p"), 0, 0), (TL.EV_DISCARD, W, t("7p"), 0, 0),
        (TL.EV_DRAW, N, t("7p"), 0, 0), (TL.EV_DISCARD, N, t("7p"), 0, 0),
        (TL.EV_DRAW, E, t("1z"), 0, 0),
        (TL.EV_BU, E, t("1z"), L.MELD_XUANFENG, 0),
    ],
    7,
)


def test_bu_onto_a_special_kong():
    # after E's draw (7 drawable, 5 drawn: 2 left, none for him after this turn): 补 1z, the
    # replacement draw his one chance on 5s; not: throw the 1z back, no draw left: 0
    ds, _ = grade(BU)
    (d,) = [x for x in ds if x.kind == "kong" and x.chosen.startswith("补")]
    assert d.chosen == d.best == "补 1z" and d.draws == 0
    after = odds("123m456p789s5s[11234z]", visible="777p7z", draws=1, exact=True, trials=0,
                 dealer=True, rules=load_variant(None)).results[0]  # fmt: skip (E deals)
    assert d.values["补 1z"].p_win == after.exact.p_win > 0
    assert d.values[RV.NO_KONG].p_win == 0
    # a 补 tile earns 1 more from each of the three others (kong.bu)
    assert d.values["补 1z"].expected_payment == pytest.approx(after.exact.expected_payment + 3)


# E (dealer) throws 5z and declares, waiting on 9m; he looks at the bao: 5z. S and W throw
# 5z: its three other copies are public, the bao's kind is dead. On his turn E returns it
# (换宝, bao_change optional) before his one draw (5 drawable, 3 drawn: 2 left, E's: 1).
BAO_CHANGE = record(
    E,
    {E: "123m456p789s111s9m5z"},
    [
        (TL.EV_DISCARD, E, t("5z"), 0, 0),
        (TL.EV_DECLARE, E, t("5z"), 0, 0),
        (TL.EV_LOOK, E, t("5z"), 0, 0),
        (TL.EV_DRAW, S, t("5z"), 0, 0), (TL.EV_DISCARD, S, t("5z"), 0, 0),
        (TL.EV_DRAW, W, t("5z"), 0, 0), (TL.EV_DISCARD, W, t("5z"), 0, 0),
        (TL.EV_DRAW, N, t("7p"), 0, 0), (TL.EV_DISCARD, N, t("7p"), 0, 0),
        (TL.EV_BAO_CHANGE, E, t("5z"), 0, 0),
    ],
    5,
)


def test_bao_change():
    # kept, the bao 5z is dead (no copy to draw, not a wait): only 9m wins, 3 live among
    # 136 - 13 held - 5 seen (5z 5z 5z 7p, and the bao 5z itself) = 118: 3/118. Returned, the
    # new bao may be a wait (对宝) or drawn (摸宝): more.
    ds, _ = grade(BAO_CHANGE)
    (d,) = [x for x in ds if x.kind == "bao_change"]
    assert d.tiles == T.format_tiles(T.parse_tiles("123m456p789s111s9m")) and d.draws == 1
    assert d.visible == "7p5555z" and d.chosen == RV.BAO_CHANGE
    assert d.values[RV.BAO_KEEP].p_win == pytest.approx(3 / 118)
    assert d.values[RV.BAO_CHANGE].p_win > d.values[RV.BAO_KEEP].p_win
    assert d.best == RV.BAO_CHANGE and d.loss["p_win"] == 0


def _optional_change(rec, events):
    """``rec`` with other events, under bao_change optional."""
    rv = np.array(rec.rv)
    rv[L.RV_BAO_CHANGE] = 1
    return RV.HandRecord(1, rec.dealer, rec.start, [list(e) for e in events], rv, "default",
                         rec.drawable)  # fmt: skip


def test_a_dead_bao_kept_is_graded_too():
    # the same turn, under bao_change optional: E keeps the dead 5z and draws; the same two
    # choices and values, his the worse
    keep = _optional_change(BAO_CHANGE, [*BAO_CHANGE.events[:-1], (TL.EV_DRAW, E, t("1p"), 0, 0)])
    (d,) = [x for x in grade(keep)[0] if x.kind == "bao_change"]
    (c,) = [x for x in grade(BAO_CHANGE)[0] if x.kind == "bao_change"]
    assert d.chosen == RV.BAO_KEEP and d.best == RV.BAO_CHANGE and d.values == c.values
    assert d.loss["p_win"] == pytest.approx(c.values[RV.BAO_CHANGE].p_win - 3 / 118)
    # under bao_change always the rule changes it: no choice, nothing graded
    always = record(E, {E: "123m456p789s111s9m5z"}, keep.events, 5)
    assert not [x for x in grade(always)[0] if x.kind == "bao_change"]


@pytest.mark.parametrize(
    "rec", [DISCARD, CLAIM, KONG, NO_KONG, XUANFENG, XI, BU, BAO_CHANGE],
    ids=["discard", "claim", "kong", "no_kong", "xuanfeng", "xi", "bu", "bao_change"],
)  # fmt: skip
@pytest.mark.parametrize("objective", ["win", "payment"])
def test_grading_properties(rec, objective):
    ds, valuer = grade(rec, objective=objective)
    assert ds
    key = "p_win" if objective == "win" else "expected_payment"
    for d in ds:
        assert d.loss["p_win"] >= 0 and d.loss["expected_payment"] >= 0
        b, c = getattr(d.values[d.best], key), getattr(d.values[d.chosen], key)
        assert (d.loss[key] > 0) == (b > c)
        best = d.values[d.best]
        assert all(valuer.key(best) >= valuer.key(v) for v in d.values.values())
        # a seat that plays the best choice loses nothing
        _, loss = RV._grade(valuer, d.values, d.best)
        assert loss == {"p_win": 0.0, "expected_payment": 0.0}
    s = RV._summary(ds, objective)
    assert s.decisions == len(ds)
    assert s.total_loss[key] == pytest.approx(sum(d.loss[key] for d in ds))


def test_monte_carlo_following_best_agrees():
    # the Monte Carlo that plays the solver's decisions from the best discard lands within its
    # 95% interval of the review's value
    ds, _ = grade(DISCARD)
    (d,) = [x for x in ds if x.kind == "discard"]
    r = odds(d.tiles, visible=d.visible, draws=d.draws, exact=True, trials=20000, seed=3,
             pool="hand_only", rules=load_variant(None))  # fmt: skip
    (best,) = [x for x in r.results if x.discard == d.best]
    lo, hi = best.ci95
    assert lo <= d.values[d.best].p_win <= hi


def test_bad_input(tmp_path):
    runner = CliRunner()
    bad = tmp_path / "x.jsonl"
    bad.write_text("not json\n")
    r = runner.invoke(app, ["review", str(bad)])  # (read as the referee's text form)
    assert r.exit_code == 2 and "line 1: 'not' is not a seat" in r.output
    binary = tmp_path / "x.bin"
    binary.write_bytes(b"\x00\xd0\xff" * 50)
    r = runner.invoke(app, ["review", str(binary)])
    assert r.exit_code == 2 and "not UTF-8 text" in r.output
    r = runner.invoke(app, ["review", str(tmp_path / "missing.jsonl")])
    assert r.exit_code == 2 and "cannot read" in r.output
    r = runner.invoke(app, ["review", str(bad), "--seat", "X"])
    assert r.exit_code == 2
    r = runner.invoke(app, ["review", str(bad), "--plot", str(tmp_path / "a.txt")])
    assert r.exit_code == 2 and "--plot" in r.output


def _write_log(path, rec: RV.HandRecord):
    """A record as a simulate log: the header, and a hand whose wall deals ``rec``'s tiles (13
    a seat from the dealer, his 14th at position 52; the rest of the tiles after)."""
    v = load_variant(None)
    wall = []
    for k in range(4):
        s = (rec.dealer + k) % 4
        c = rec.start[s].astype(int).copy()
        if k == 0:
            last = int(np.flatnonzero(c)[-1])
            c[last] -= 1
        wall += [x for x in range(34) for _ in range(c[x])]
        assert len(wall) == 13 * (k + 1)
    wall.append(last)
    left = np.full(34, 4) - np.bincount(wall, minlength=34)
    assert left.min() >= 0
    wall += [x for x in range(34) for _ in range(left[x])]
    header = {"ccmj_log": LOG_VERSION, "seed": 1, "rules": "default", "hands": 1, "sessions": 1,
              "policy": ["baseline"] * 4, "rv": [int(x) for x in v.vector],
              "tp": [7, 2], "bots": [[0] * TL.N_KNOBS for _ in range(4)]}  # fmt: skip
    seats = RV.SEATS
    hand = {"hand": 1, "session": 0, "session_hand": 1, "session_seed": 1,
            "dealer": seats[rec.dealer], "wall": [T.tile_name(x) for x in wall], "dice": [],
            "events": rec.events, "result": {
                "winner": None, "how": "huang", "tile": None, "discarder": None,
                "discarder_declared": None, "fan": 0, "jiahu": False, "piao": False,
                "menqing": False, "payout": dict.fromkeys(seats, 0),
                "kong_money": dict.fromkeys(seats, 0), "next_dealer": "E"},
            "final": dict.fromkeys(seats, ""), "pond": ""}  # fmt: skip
    path.write_text(json.dumps(header) + "\n" + json.dumps(hand) + "\n")


def test_cli_reads_a_log(tmp_path):
    # a seat with no decision in the hand: the summary line only, 0 decisions
    log = tmp_path / "game.jsonl"
    _write_log(log, DISCARD)
    r = CliRunner().invoke(app, ["review", str(log), "--seat", "S", "--json"])
    assert r.exit_code == 0, r.output
    lines = [json.loads(x) for x in r.output.splitlines()]
    assert lines == [{"summary": {"S": {"decisions": 0, "agreement": None,
                                        "mean_loss": {"p_win": 0.0, "expected_payment": 0.0},
                                        "total_loss": {"p_win": 0.0, "expected_payment": 0.0},
                                        "worst": []}}}]  # fmt: skip
    r = CliRunner().invoke(app, ["review", str(log), "--seat", "S", "--hand", "2"])
    assert r.exit_code == 2 and "--hand 2" in r.output


def test_json_line_fields_and_plot(tmp_path):
    ds, _ = grade(DISCARD)
    rv = RV.Review("x", "win", ds, {"E": RV._summary(ds, "win")})
    *lines, last = [json.loads(x) for x in rv.json_lines()]
    assert len(lines) == len(ds)
    for x in lines:
        assert list(x) == ["hand", "seat", "event", "kind", "tiles", "visible", "draws", "chosen",
                           "best", "values", "loss", "method"]  # fmt: skip
        assert x["kind"] in RV.KINDS and x["best"] in x["values"] and x["chosen"] in x["values"]
    assert last["summary"]["E"]["decisions"] == len(ds)
    pytest.importorskip("matplotlib")
    from ccmj_cli.plots import plot_review, review_series

    out = tmp_path / "r.png"
    assert plot_review(rv.to_dict(), str(out)) == review_series(rv.to_dict())
    assert out.stat().st_size > 0


def test_table_output():
    from ccmj_cli.output import render_review

    ds, _ = grade(DISCARD)
    rv = RV.Review("x", "win", ds, {"E": RV._summary(ds, "win")})
    text = render_review(rv.to_dict())
    # the discard row: turn 1 (E's first draw), chosen 2s, best 9m, loss 2/121 = 0.0165
    row = next(line for line in text.splitlines() if " discard " in line)
    assert " 2s " in row and " 9m " in row and "0.0165" in row
    assert "agreement" in text


def test_hands_side_by_side_give_the_same_review(monkeypatch):
    # three hands reviewed on several threads: the same decisions, values and summary, in the
    # record's order, as one thread gives (each hand is graded whole by one thread)
    import dataclasses

    recs = [dataclasses.replace(r, number=k) for k, r in enumerate((KONG, DISCARD, CLAIM), 1)]
    monkeypatch.setattr(RV, "read_record", lambda path, hand=None: recs)
    one = RV.review("game.jsonl", seat="E", threads=1).to_dict()
    many = RV.review("game.jsonl", seat="E", threads=3).to_dict()
    assert many == one
    hands = [d["hand"] for d in one["decisions"]]
    assert hands == sorted(hands) and set(hands) == {1, 2, 3}
    with pytest.raises(RV.UsageError, match="--threads 0"):
        RV.review("game.jsonl", seat="E", threads=0)


# ---------------------------------------------------------------- the referee's records
EXAMPLE = Path(__file__).parent.parent / "examples" / "records" / "example.txt"


def _rows(recs):
    # (a roll's wall position aside: a record without its wall lays its tiles out its own way)
    return [(r.number, r.dealer, [c.tolist() for c in r.start],
             [list(e[:4]) + [None if e[0] == TL.EV_BAO else e[4]] for e in r.events],
             r.rv.tolist(), r.drawable, r.problem) for r in recs]  # fmt: skip


@pytest.mark.parametrize("preset", ["default", "mil2024", "piaoding"])
def test_a_text_record_is_walked_as_its_simulate_log(tmp_path, preset):
    # simulated hands written in the referee's text form (no wall: the draws named): the
    # review reads the same dealt tiles, the same events (each field filled in as the table
    # made it) and the same draws; the JSON form as the text form
    from ccmj_cli.referee import text_record

    log = tmp_path / "game.log"
    r = CliRunner().invoke(app, ["simulate", "-n", "12", "--seed", "5", "--no-progress",
                                 "--preset", preset, "--log", str(log)])  # fmt: skip
    assert r.exit_code == 0, r.output
    header, *hands = [json.loads(x) for x in log.read_text().splitlines()]
    text = tmp_path / "game.txt"
    text.write_text(f"rules {preset}\n" + "".join(
        text_record(h, header["tp"][TL.TP_BAO_DICE]) for h in hands))  # fmt: skip
    from_log = RV.read_record(log)
    assert len(from_log) == 12 and any(r.events[-1][0] == TL.EV_WIN for r in from_log)
    assert from_log[0].drawable == (83 if preset == "piaoding" else 69)  # (no dead wall there)
    assert _rows(RV.read_record(text)) == _rows(from_log)
    assert _rows(RV.read_record(text, hand=3)) == _rows(from_log[2:3])
    as_json = {"rules": preset, "hands": []}
    for block in text.read_text().split("hand ")[1:]:
        number, *lines = block.strip().splitlines()
        deal = {x.split()[1]: x.split()[2] for x in lines if x.startswith("deal ")}
        dealer = next(x.split()[1] for x in lines if x.startswith("dealer "))
        events = [x for x in lines if not x.startswith(("deal", "payout"))]
        as_json["hands"].append({"hand": int(number), "dealer": dealer, "deal": deal,
                                 "events": events})  # fmt: skip
    js = tmp_path / "game.json"
    js.write_text(json.dumps(as_json))
    assert _rows(RV.read_record(js)) == _rows(from_log)


def test_a_hand_is_reviewed_up_to_its_illegal_event(tmp_path):
    # W discards a 1s he does not hold (event 30): the hand's events stop there, the review
    # says so (a line in the table, a skipped entry in the API), and S's decisions before it
    # are graded as in the legal record; a second, legal hand is reviewed whole
    legal = EXAMPLE.read_text()
    bad = legal.replace("W discard 6m", "W discard 1s")
    assert bad != legal
    body = legal.split("rules default\n")[1]
    p = tmp_path / "bad.txt"
    p.write_text(bad.replace("dealer S", "hand 1\ndealer S", 1) + "hand 2\n" + body)
    bad_hand, good_hand = RV.read_record(p)
    assert bad_hand.problem["event"] == 30 and bad_hand.problem["rule"] == "tile_not_held"
    assert len(bad_hand.events) == 30 and good_hand.problem is None
    (whole,) = RV.read_record(EXAMPLE)
    assert bad_hand.events == whole.events[:30] and good_hand.events == whole.events
    assert whole.events[-1][:3] == [TL.EV_WIN, S, t("4z")]  # ('S win 4z from N': filled in)
    assert whole.events[-1][3] == L.HOW_DISCARD
    r = CliRunner().invoke(app, ["review", str(p), "--seat", "N", "--search", "quick"])
    assert r.exit_code == 0, r.output
    assert ("hand 1: reviewed up to event 30, which is not legal (tile_not_held: line 41: W "
            "discards 1s: the seat does not hold the tiles)") in r.output
    r = CliRunner().invoke(app, ["review", str(p), "--seat", "N", "--search", "quick",
                                 "--json"])  # fmt: skip
    last = json.loads(r.output.splitlines()[-1])
    assert [(x["hand"], x["event"], x["kind"]) for x in last["skipped"]] == [(1, 30, "illegal")]
    r = CliRunner().invoke(app, ["review", str(p), "--seat", "N", "--hand", "3"])
    assert r.exit_code == 2 and "--hand 3" in r.output


# ---------------------------------------------------------------- special kongs not made
# E deals himself 1234z 123m456p789s 5s (as XUANFENG) and S, W, N hands that do not matter;
# the engine, asked at each position, says which special kongs and 补 he could make
DEALS = """rules default
dealer E
deal E {east}
deal S 1122334455667m
deal W 1122334455667p
deal N 1122334455667s
"""


def _text_hand(tmp_path, east, events, drawable):
    import dataclasses

    p = tmp_path / "game.txt"
    p.write_text(DEALS.format(east=east) + "\n".join(events) + "\n")
    (rec,) = RV.read_record(p)
    assert rec.problem is None, rec.problem
    return dataclasses.replace(rec, drawable=drawable)


def test_a_special_kong_not_laid_is_graded(tmp_path):
    # E discards 5s without laying out his 旋风杠: the same two choices, with the same values,
    # as when he lays it (XUANFENG, 3/122 with it, nothing without); not laying it loses 3/122
    rec = _text_hand(tmp_path, "1234z123m456p789s5s", ["E discard 5s"], 3)
    ds, _ = grade(rec)
    (d,) = [x for x in ds if x.kind == "kong"]
    (k,) = [x for x in grade(XUANFENG)[0] if x.kind == "kong"]
    assert d.event == 0 and d.chosen == RV.NO_KONG and d.best == "kong [1234z]"
    assert d.values == k.values and d.loss["p_win"] == pytest.approx(3 / 122)
    assert d.tiles == k.tiles and d.draws == k.draws == 0


def test_a_bu_not_made_is_graded_as_the_bu_made(tmp_path):
    # E lays the 旋风杠 (the dealer may not 补 on his first turn), and at his next draw holds a
    # 1z he could add: the 补 not made is a kong decision whose values are those of the 补
    # made at that point (the choice made aside)
    east = "11234z23m456p789s5s"
    head = ["E special 1234z", "E tail 7z", "E discard 7z", "S draw 8m", "S discard 8m",
            "W draw 8p", "W discard 8p", "N draw 8s", "N discard 8s", "E draw 9m"]  # fmt: skip
    passed = _text_hand(tmp_path, east, [*head, "E discard 9m"], 9)
    made = _text_hand(tmp_path, east, [*head, "E bu 1z", "E tail 9s", "E discard 9s"], 9)
    (p,) = [x for x in grade(passed)[0] if x.kind == "kong" and x.event == 10]
    (m,) = [x for x in grade(made)[0] if x.kind == "kong" and x.event == 10]
    assert p.chosen == RV.NO_KONG and m.chosen == "补 1z"
    assert set(p.values) == set(m.values) == {RV.NO_KONG, "补 1z"}
    assert p.values == m.values and p.best == m.best
    assert p.loss[("p_win")] == pytest.approx(p.values[p.best].p_win - p.values[RV.NO_KONG].p_win)
    # on his first turn (the dealer) no 补 was offered: the 旋风杠 made is graded alone
    (first,) = [x for x in grade(passed)[0] if x.kind == "kong" and x.event == 0]
    assert set(first.values) == {RV.NO_KONG, "kong [1234z]"}


def test_a_special_kong_with_a_1s_standing_in_leaves_the_hand_the_table_left(tmp_path):
    # MIL 2024: E lays out his 2z 4z with a 1s standing in for the missing wind (a 3-tile
    # 旋风杠, no replacement draw). The review follows the table: one 1s is in the kong, the
    # other still in his hand (it kept both 1s before, and valued a hand of 12 tiles)
    p = tmp_path / "game.txt"
    p.write_text(DEALS.replace("rules default", "rules mil2024").format(
        east="24z11s23m456p789s5s9m") + "E special 2z4z1s\nE discard 9m\n")  # fmt: skip
    (rec,) = RV.read_record(p)
    assert rec.problem is None, rec.problem
    rec = __import__("dataclasses").replace(rec, drawable=3)
    ds, _ = grade(rec, rules=load_variant("mil2024"))
    k, nine = [x for x in ds if x.kind == "kong"]
    (d,) = [x for x in ds if x.kind == "discard"]
    assert k.event == 0 and k.chosen == "kong [24z1s]" and k.tiles == "239m456p115789s24z"
    assert d.event == 1 and d.tiles == "239m456p15789s[24z1s]" and d.chosen == "9m"
    # and with that 1s he could still have laid a 九蛋 (9m 9s, the 1s for 9p): not laid
    assert nine.event == 1 and nine.chosen == RV.NO_KONG and set(nine.values) == {
        RV.NO_KONG, "kong [9m91s]"}  # fmt: skip


ROBBED_BU = Path(__file__).parent / "data" / "records" / "laid_then_robbed.txt"


def test_a_bu_robbed_by_pung_leaves_the_robbed_hand_without_its_tile():
    # N lays 9m9p9s, adds his other 9m (补), E pungs it (抢叉): the 9m is E's now. N's next
    # hand: dealt 699m149p3459s345z + 9s, less 9m9p9s, less the 9m, + 5m (it kept the 9m)
    (rec,) = RV.read_record(ROBBED_BU)
    ds, _ = grade(__import__("dataclasses").replace(rec, drawable=20), seat=N,
                  rules=load_variant("mil2024"), search="quick")  # fmt: skip
    (d,) = [x for x in ds if x.kind == "discard"]
    assert d.tiles == "56m14p3459s345z[9m9p9s]" and d.chosen == "5m"


@pytest.mark.parametrize("preset", ["default", "mil2024", "quanbao", "piaoding", "bao_kong"])
def test_the_review_follows_the_table_the_engine_plays(tmp_path, preset):
    # every event of simulated hands: the hands, melds and ponds the review follows are the
    # engine's own after that event (its position, replayed by the referee's engine), and the
    # claims and kongs it weighs at each discard the table's
    from ccmj_cli.actions import legal_actions
    from ccmj_cli.referee import position_after
    from ccmj_cli.simulate import table_params

    log = tmp_path / "game.log"
    rules = ["--preset", preset]
    if preset == "bao_kong":  # (a room with 用宝: these 25 hands hold two of its kongs)
        room = tmp_path / "bao_kong.yaml"
        room.write_text("extends: default\nbao_kong: true\n", encoding="utf-8")
        rules, preset = ["--rules", str(room)], str(room)
    r = CliRunner().invoke(app, ["simulate", "-n", "25", "--seed", "8", "--no-progress",
                                 *rules, "--log", str(log)])  # fmt: skip
    assert r.exit_code == 0, r.output
    v = load_variant(preset)
    if rules[0] == "--rules":
        assert sum(e[0] == TL.EV_BAO_KONG for rec in RV.read_record(log) for e in rec.events) == 2
    compared = 0

    def same(rec, i, tab):
        nonlocal compared
        if rec.events[i][0] in (TL.EV_WIN, TL.EV_HUANG, TL.EV_KONG_ROBBED):
            return  # (no position after the end; a robbing is shown before the robber's tile)
        pos = position_after(rec.replay, i, rec.rv, table_params(v), v)
        pond = np.zeros(34, np.int64)
        for s in range(4):
            sp = pos.seats[s]
            where = (rec.number, i, RV.SEATS[s])
            assert tab.conc[s].tolist() == sp.hand.astype(int).tolist(), where
            mine = sorted((k, tuple(sorted(ts))) for k, ts in tab.melds[s])
            table = sorted((m.kind, tuple(sorted(m.tiles))) for m, _f in sp.melds)
            assert mine == table, where
            assert tab.declared[s] == sp.declared, where
            looked = pos.bao_tile if sp.looked and pos.bao_state == "rolled" else None
            assert tab.bao_seen[s] == looked, where
            for t, claimed in sp.pond:
                pond[t] += not claimed
        assert tab.pond.tolist() == pond.tolist(), (rec.number, i)
        # (the draws made, which the draws left are counted from)
        assert RV.N_WALL - RV.DEALT - tab.drawn == pos.left, (rec.number, i)
        compared += 1
        k, s, t = rec.events[i][:3]
        if k == TL.EV_DISCARD and rec.events[i + 1][0] != TL.EV_DECLARE:
            # the claims the review weighs on a discard are those the table offers there
            acts = legal_actions(pos)["seats"]
            for o in range(4):  # (a declared seat's too: a 明杠 that keeps his waits)
                if o == s:
                    continue
                offered = acts.get(RV.SEATS[o], {})
                table = sorted(
                    [f"pung {x['tile']}" for x in offered.get("pung", [])]
                    + [f"kong {x['tile']}" for x in offered.get("mingkong", [])]
                    + [f"chow {x['chow']}" for x in offered.get("chow", [])]
                )
                assert sorted(RV._claim_choices(tab, o, t, s, rec.rv, v)) == table, (
                    rec.number, i, RV.SEATS[o])
        nk, ns = rec.events[i + 1][:2]
        if nk == TL.EV_DISCARD and not tab.declared[ns]:
            # the kongs the review weighs before a discard are those the table offers there
            tab.at = i + 1  # (the draws left: before that discard)
            mine = RV._kong_options(tab, ns) if tab.after_draw[ns] else []
            offered = legal_actions(pos, ns)["seats"].get(RV.SEATS[ns], {})
            table = [(TL.EV_ANKONG, T.tile_index(x["tile"])) for x in offered.get("ankong", [])]
            table += [(TL.EV_JIAGANG, T.tile_index(x["tile"])) for x in offered.get("jiagang", [])]
            assert sorted(mine) == sorted(table), (rec.number, i + 1, RV.SEATS[ns])

    for rec in RV.read_record(log):
        RV._decisions_of_hand(rec, [], RV.Valuer(v, "win"), [],
                              followed=lambda i, tab, rec=rec: same(rec, i, tab))  # fmt: skip
    assert compared > 1000


def test_the_draws_left_are_the_walls_with_the_bao_stepped_over(tmp_path):
    # piaoding: no dead wall (83 tiles to draw after the deal) and the bao is one tile 1-6 from
    # the tail, inside the drawable wall: once rolled, the draws step over it. N's discard at
    # event 32 (his 4z): 83 - the draws made - the bao = 71 head draws left; E draws next, N is
    # the fourth: (71 - 3 + 3) // 4 = 17 (the review counted 18 before: the bao drawn too)
    text = EXAMPLE.read_text().replace("rules default", "rules piaoding")
    p = tmp_path / "game.txt"
    p.write_text(text.replace("bao 9m by S dice 2 2", "bao 9m by S dice 2"))
    (rec,) = RV.read_record(p)
    assert rec.problem is None, rec.problem
    drawn = sum(e[0] in (TL.EV_DRAW, TL.EV_TAIL) for e in rec.events[:32])
    assert 83 - drawn - 1 == 71
    ds, _ = grade(rec, seat=N, rules=load_variant("piaoding"), search="quick")
    (d,) = [x for x in ds if x.event == 32 and x.kind == "discard"]
    assert d.chosen == "4z" and d.draws == 17


def test_a_concealed_kong_declined_is_the_one_the_table_offered(tmp_path):
    # E deals himself 1111m and discards without the 暗杠: the table offers it (its legal
    # actions at the deal), the review weighs it against no kong, and the choice made is graded
    from ccmj_cli.actions import legal_actions
    from ccmj_cli.referee import position_before
    from ccmj_cli.simulate import table_params

    p = tmp_path / "game.txt"
    p.write_text("rules default\ndealer E\ndeal E 1111m456p789s2355s\ndeal S 1122334455667p\n"
                 "deal W 1122334455667s\ndeal N 1122334455667z\nE discard 2s\n")  # fmt: skip
    (rec,) = RV.read_record(p)
    v = load_variant(None)
    pos = position_before(rec.replay, 0, rec.rv, table_params(v), v)
    assert legal_actions(pos, "E")["seats"]["E"]["ankong"] == [{"tile": "1m"}]
    ds, _ = grade(__import__("dataclasses").replace(rec, drawable=8))
    (k,) = [x for x in ds if x.kind == "kong"]
    assert k.event == 0 and k.chosen == RV.NO_KONG and set(k.values) == {RV.NO_KONG, "kong 1m"}


def test_a_declared_seats_kong_not_made(tmp_path, monkeypatch):
    # E declares on 111m456p789s2355s (waits 1s 4s), looks at the bao 9m, draws the fourth 1m:
    # the table lets him 暗杠 (his waits stay), he throws it. One draw left with the kong (its
    # replacement), none without (the horizon cut to 3 head draws: E, fourth after S, gets 0).
    # With the kong he wins on 1s, 4s (4 + 4 live) or 摸宝 on a 9m (3 left besides the bao):
    # 11 of the 136 - 14 (his) - 4 (ponds: 7z 8m 9p 5z) - 1 (the bao) = 117 unseen
    p = tmp_path / "game.txt"
    p.write_text("rules default\ndealer E\ndeal E 111m456p789s2355s7z\ndeal S 2233445566778m\n"
                 "deal W 1122334455667p\ndeal N 999s1122334466z\nE discard 7z\nE declare\n"
                 "S draw 8m\nS discard 8m\nW draw 9p\nW discard 9p\nN draw 5z\nN discard 5z\n"
                 "bao 9m by E dice 2 2\nE look 9m\nE draw 1m\nE discard 1m\n")  # fmt: skip
    (rec,) = RV.read_record(p)
    assert rec.problem is None, rec.problem
    monkeypatch.setattr(RV._Table, "head_left", lambda self: 3)
    ds, _ = grade(rec)
    (k,) = [x for x in ds if x.kind == "kong"]
    assert k.event == 11 and k.chosen == RV.NO_KONG and k.best == "kong 1m"
    assert k.values["kong 1m"].p_win == pytest.approx(11 / 117)
    assert k.values[RV.NO_KONG].p_win == 0 and k.loss["p_win"] == pytest.approx(11 / 117)
    # the kong made instead: the same two values, no loss
    p.write_text(p.read_text().replace("E discard 1m\n", "E ankong 1m\nE tail 2p\nE discard 2p\n"))
    (made,) = RV.read_record(p)
    assert made.problem is None, made.problem
    (m,) = [x for x in grade(made)[0] if x.kind == "kong"]
    assert m.chosen == "kong 1m" and m.values == k.values and m.loss["p_win"] == 0


def test_a_rob_pung_is_graded_as_a_claim():
    # E pungs N's 补 tile 9m (抢叉) in the record of the test above: a claim, pung 9m against
    # passing, each the value `ccmj odds` gives its hand (--search quick: odds unasked).
    # Passing: E keeps 23799m25p5677s16z, N's 9m public in his 九蛋, his draws as after N's
    # discard; the pung: [999m] beside the 11 other tiles, his best discard, the 9m his.
    (rec,) = RV.read_record(ROBBED_BU)
    v = load_variant("mil2024")
    ds, _ = grade(__import__("dataclasses").replace(rec, drawable=20), seat=E, rules=v,
                  search="quick")  # fmt: skip
    (d,) = [x for x in ds if x.kind == "claim"]
    assert d.chosen == "pung 9m" and set(d.values) == {RV.PASS, "pung 9m"}
    # seen: N's 九蛋 9m9p9s and the 补 9m, S's pung of 2z, the ponds' 5z and 8p (the pung
    # takes the 补 9m: one 9m seen fewer)
    assert d.tiles == "23799m25p5677s16z+9m" and d.visible == "99m89p9s2225z"
    # the wall: 136 - 53 dealt - 2 drawn (W, N; the 九蛋 takes no tail draw) - 14 kept back
    # = 67 head draws; passing, E draws first: 17 of them; after the pung S draws first: 16
    assert d.draws == 17
    p = odds("23799m25p5677s16z", visible=d.visible, draws=17, rules=v).results[0]
    assert d.values[RV.PASS].p_win == p.exact.p_win
    c = odds("237m25p5677s16z[999m]", visible="9m89p9s2225z", draws=16,
             rules=v).results  # fmt: skip
    assert d.values["pung 9m"].p_win == max(r.exact.p_win for r in c)


def _locked_odds(tiles, visible, draws, bao, rules):
    """``ccmj odds`` of E's declared (locked) hand, E dealing."""
    return odds(tiles, visible=visible, draws=draws, declare=True, bao=bao, dealer=True,
                rules=rules).results[0]  # fmt: skip


def _bao_kong_record(tmp_path, made: bool):
    """E declares on 111m456p789s2355s (waits 1s 4s) and looks at the bao 1m: under bao_kong he
    may take it out of the wall for a 暗杠 [1111m] (his waits stay). ``made``: he does (a new
    bao 9m, his look, his replacement draw 2p); else he draws 2p. Both thrown."""
    room = tmp_path / "room.yaml"
    room.write_text("extends: default\nbao_kong: true\n", encoding="utf-8")
    turn = ("E baokong 1m\nbao 9m by E dice 1 1\nE look 9m\nE tail 2p\n" if made
            else "E draw 2p\n")  # fmt: skip
    p = tmp_path / ("made.txt" if made else "not.txt")
    p.write_text(f"rules {room}\ndealer E\ndeal E 111m456p789s2355s7z\ndeal S 2233445566778m\n"
                 "deal W 1122334455667p\ndeal N 999s1122334466z\nE discard 7z\nE declare\n"
                 "S draw 8m\nS discard 8m\nW draw 9p\nW discard 9p\nN draw 5z\nN discard 5z\n"
                 f"bao 1m by E dice 2 2\nE look 1m\n{turn}E discard 2p\n")  # fmt: skip
    (rec,) = RV.read_record(p)
    assert rec.problem is None, rec.problem
    return rec, load_variant(str(room))


def test_a_bao_kong_is_graded(tmp_path, monkeypatch):
    # 用宝 or not at E's look, with one draw left (the horizon cut to 3 head draws: E draws
    # next, the fourth after his). His 13 tiles, the ponds 8m 9p 5z 7z and the bao leave
    # 136 - 13 - 4 - 1 = 118 unseen.
    # - no 用宝: the bao 1m is dead (his three and itself): he wins on a 1s or 4s, 8/118.
    # - 用宝 暗杠 1m: the bao is his, the 118 unseen hold the new one, rolled and looked at
    #   at once: a 1s or 4s is 对宝 (8/118); else a bao of kind k (c_k copies unseen) leaves
    #   8 waits and c_k - 1 摸宝 copies among 117 for his replacement draw. Over the 110 other
    #   tiles that is (7 * 110 + sum of c_k^2) / (117 * 118); the c_k^2 of the kinds not
    #   waited on sum to 400 (m 121, p 116, s 65, z 98): 8/118 + 1170/13806 = 2106/13806.
    #   Its payment adds the 暗杠's money, 2 from each other seat.
    monkeypatch.setattr(RV._Table, "head_left", lambda self: 3)
    rec, v = _bao_kong_record(tmp_path, made=True)
    ds, _ = grade(rec, rules=v)
    (d,) = [x for x in ds if x.kind == "kong"]
    assert d.chosen == "用宝 kong 1m" == d.best and d.draws == 1
    assert d.tiles == "111m456p2355789s" and d.visible == "18m9p57z"  # (the bao 1m seen)
    assert set(d.values) == {RV.NO_BAO_KONG, "用宝 kong 1m"}
    assert d.values[RV.NO_BAO_KONG].p_win == pytest.approx(8 / 118)
    assert d.values["用宝 kong 1m"].p_win == pytest.approx(2106 / 13806)
    # each value is ccmj odds of its locked hand (E deals), the 用宝 one with its kong money
    a = _locked_odds("111m456p2355789s", "8m9p57z", 1, "1m", v)
    b = _locked_odds("456p2355789s(1111m)", "8m9p57z", 1, "unknown", v)
    assert d.values[RV.NO_BAO_KONG].expected_payment == pytest.approx(a.exact.expected_payment)
    assert d.values["用宝 kong 1m"].expected_payment == pytest.approx(
        b.exact.expected_payment + 3 * 2)  # (kong.an: 2 from each)
    assert d.loss == {"p_win": 0.0, "expected_payment": 0.0}
    # not made: the same decision and values, his the loss
    rec, v = _bao_kong_record(tmp_path, made=False)
    (n,) = [x for x in grade(rec, rules=v)[0] if x.kind == "kong"]
    assert n.chosen == RV.NO_BAO_KONG and n.best == "用宝 kong 1m" and n.values == d.values
    assert n.loss["p_win"] == pytest.approx(2106 / 13806 - 8 / 118)



def _declared_claim_record(tmp_path, made: bool):
    """E declares on 111m456p789s2355s (waits 1s 4s), looks at the bao 9m, draws and throws
    2p; S discards the last 1m. E's locked hand may 明杠 it (his waits stay): ``made``, he
    does (his tail draw 3p, thrown)."""
    kong = "E kong 1m from S\nE tail 3p\nE discard 3p\n" if made else ""
    p = tmp_path / ("made.txt" if made else "passed.txt")
    p.write_text("rules default\ndealer E\ndeal E 111m456p789s2355s7z\ndeal S 2233445566778m\n"
                 "deal W 1122334455667p\ndeal N 999s1122334466z\nE discard 7z\nE declare\n"
                 "S draw 8m\nS discard 8m\nW draw 9p\nW discard 9p\nN draw 5z\nN discard 5z\n"
                 "bao 9m by E dice 2 2\nE look 9m\nE draw 2p\nE discard 2p\nS draw 1m\n"
                 f"S discard 1m\n{kong}")  # fmt: skip
    (rec,) = RV.read_record(p)
    assert rec.problem is None, rec.problem
    return rec


def test_a_declared_seats_kong_on_a_discard_is_graded(tmp_path, monkeypatch):
    # S's 1m (event 13), the wall cut to 4 head draws: passing, W draws next and E gets
    # one of them; the 明杠 gives him its replacement draw and then one of them as well. Both
    # locked, the bao 9m known: each draw wins on a 1s or 4s (8) or 摸宝 on a 9m (3 besides
    # the bao), 11 of 136 - 13 held - 6 seen (7z 8m 9p 5z 2p 1m) - the bao = 116 (the kong:
    # 14 held, the 1m no longer in a pond: 116 too). Pass: 11/116; kong: 11/116 +
    # 105/116 * 11/115 (a tile drawn and thrown leaves the pool) = 2420/13340.
    monkeypatch.setattr(RV._Table, "head_left", lambda self: 4)
    ds, _ = grade(_declared_claim_record(tmp_path, made=False))
    (d,) = [x for x in ds if x.kind == "claim"]
    assert d.event == 13 and d.chosen == RV.PASS and d.best == "kong 1m"
    assert set(d.values) == {RV.PASS, "kong 1m"}  # (no 碰: his hand is locked)
    assert d.tiles == "111m456p2355789s+1m" and d.visible == "189m29p57z" and d.draws == 1
    assert d.values[RV.PASS].p_win == pytest.approx(11 / 116)
    assert d.values["kong 1m"].p_win == pytest.approx(2420 / 13340)
    # each value is ccmj odds of the locked hand (E deals), the kong's with its money
    v = load_variant(None)
    a = _locked_odds("111m456p2355789s", "1m8m9p57z2p", 1, "9m", v)
    b = _locked_odds("456p2355789s[1111m]", "8m9p57z2p", 2, "9m", v)
    assert d.values[RV.PASS].expected_payment == pytest.approx(a.exact.expected_payment)
    assert d.values["kong 1m"].expected_payment == pytest.approx(
        b.exact.expected_payment + 3 * 1)  # (kong.ming: 1 from each)
    # made: the same decision, no loss
    (m,) = [x for x in grade(_declared_claim_record(tmp_path, made=True))[0]
            if x.kind == "claim"]  # fmt: skip
    assert m.chosen == "kong 1m" and m.values == d.values and m.loss["p_win"] == 0
