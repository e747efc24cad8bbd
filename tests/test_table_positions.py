"""Positions for the table rules and options, each worked out by hand from docs/rules.md with its
complete legal action list (and, with ``--explain``, the forbidden actions and their rule), under
the default rules and under mil2024.

The lists are compared whole: ``summary`` writes each legal action as one line
(``group tile ...``) and each forbidden one as ``seat action tile rule``. Declarations (报听) that
``not_tenpai`` forbids are left out of the forbidden lists (every non-tenpai discard has one).
"""

import pytest

from ccmj_cli.actions import legal_actions
from ccmj_cli.position import Position, PositionError
from test_actions import fill_ponds, make

BOTH = ["default", "mil2024"]


def summary(r):
    """({seat: sorted action lines}, sorted forbidden lines)."""
    out = {}
    for s, g in r["seats"].items():
        lines = []
        for k, acts in g.items():
            for a in acts:
                x = [k]
                for f in ("tile", "chow", "meld", "onto", "how", "from"):
                    if f in a:
                        x.append(str(a[f]))
                if k in ("discard", "declare"):
                    x.append("waits=" + ",".join(a["waits"]))
                if k == "win":
                    x.append(f"fan={a['fan']}")
                if k == "look":
                    x.append("duibao" if a["duibao"] else "no-duibao")
                    if a.get("rolls"):
                        x.append("rolls")
                lines.append(" ".join(x))
        out[s] = sorted(lines)
    fb = sorted(f"{a['seat']} {a['action']} {a.get('tile', '')} {a['forbidden']}".replace("  ", " ")
                for a in r.get("forbidden", []) if a["forbidden"] != "not_tenpai")  # fmt: skip
    return out, fb


def lines(group, *items):
    return [f"{group} {x}" for x in items]


# ------------------------------------------------------------------ 报听: the locked hand's kongs
def _locked(rules, drawn):
    # S declared with 123m 111p 3444p and the pung [888s] (claimed from E): his waits are
    # 2p (坎 of 1-3 reading 11p+123p+444p), 3p (单调 3p+444p) and 5p (34p+44p).
    seats = {
        "E": {"count": 13, "pond": ["8s*", "1z"], "first_turn": False},
        "S": {"hand": "123m111p3444p" + drawn, "melds": [{"meld": "[888s]", "from": "E"}],
              "pond": ["2z"], "declared": True},
        "W": {"count": 13, "pond": ["3z"]}, "N": {"count": 13, "pond": ["4z"]},
    }  # fmt: skip
    return make(seats, {"event": "draw", "seat": "S", "tile": drawn}, rules)


LOCKED_DISCARDS = {"1m", "2m", "3m", "1p", "3p", "4p"}  # the kinds of his locked 10 tiles


@pytest.mark.parametrize("rules", BOTH)
@pytest.mark.parametrize(
    "drawn, extra, locked_kong",
    [
        # the fourth 1p: 暗杠 (1111p) leaves 123m 3444p: still 2p/3p/5p -> allowed
        ("1p", ["ankong 1p"], []),
        # the fourth 4p: 暗杠 (4444p) leaves 123m 111p 3p: 3p alone -> the waits change: refused
        ("4p", [], ["S ankong 4p locked_hand"]),
        # the fourth 8s onto his pung: 加杠 leaves his concealed tiles as they were -> allowed
        ("8s", ["jiagang 8s"], []),
        # 2p is a wait: 自摸; fan: win 1 + 自摸 1 + 夹胡 1 (坎 2p of 1-3) = 3 (no 门清: a pung)
        ("2p", ["win 2p self fan=3"], []),
    ],
)
def test_locked_hand_kongs_only_when_the_waits_stay(rules, drawn, extra, locked_kong):
    r = legal_actions(_locked(rules, drawn), explain=True)
    acts, fb = summary(r)
    # locked: the only discard is the drawn tile, which leaves the declared waits
    assert acts == {"S": sorted([f"discard {drawn} waits=2p,3p,5p"] + extra)}
    others = sorted(f"S discard {t} locked_hand" for t in LOCKED_DISCARDS - {drawn})
    assert fb == sorted(others + locked_kong)


# ------------------------------------------------------------------ one special kong per kind
@pytest.mark.parametrize("rules", BOTH)
def test_special_kong_repeat(rules):
    # E (dealer) laid out [1234z] in his first turn and drew its replacement 9p; he holds the
    # other four winds 1234z + 123m 456p 9p. A second 旋风杠 [1234z]: the default allows it;
    # mil2024 (one_special_kong_per_kind) refuses it (special_kong_repeat) — there the winds
    # are 补 tiles onto the first, and no 补 in the dealer's first turn (special_kong_timing),
    # under both. No win, no 报听 (not tenpai: 1234z are four singles), one discard per kind.
    seats = {"E": {"hand": "1234z123m456p9p", "melds": [{"meld": "[1234z]"}], "first_turn": True},
             "S": {"count": 13}, "W": {"count": 13}, "N": {"count": 13}}  # fmt: skip
    d = make(seats, {"event": "tail_draw", "seat": "E", "tile": "9p"}, rules, tail_draws=1)
    acts, fb = summary(legal_actions(d, explain=True))
    discards = lines("discard", *(f"{t} waits=" for t in
                                  ("1m", "2m", "3m", "4p", "5p", "6p", "9p", "1z", "2z", "3z",
                                   "4z")))  # fmt: skip
    bu = [f"E bu {t} special_kong_timing" for t in ("1z", "2z", "3z", "4z")]
    if rules == "default":
        assert acts == {"E": sorted(discards + ["special_kong 1z [1234z]"])}
        assert fb == sorted(bu)
    else:
        assert acts == {"E": sorted(discards)}
        assert fb == sorted(bu + ["E special_kong 1z special_kong_repeat"])


# ------------------------------------------------------------------ a 3-tile special kong brings no tile
@pytest.mark.parametrize("rules", BOTH)
def test_no_win_after_a_three_tile_special_kong_until_a_tile_comes(rules):
    # S (first turn) drew 3m and laid out 喜杠 [567z] from 123m456p789s11s 567z: his 11 tiles
    # 123m 456p 789s 11s with the kong are a complete hand, but the kong brought no tile (a
    # win is judged when one comes: at the draw, 567z were no set and the hand no win), so
    # after it he discards; the 自摸 is forbidden (no_win_chance). The same hand given as just
    # drawn, with 567z already laid before the draw (no flag), may win 自摸 on 3m: 1 + 自摸 1 +
    # 夹 (边张 12m) 1 = 3 fan (a special kong breaks 门清 under both).
    seats = {"E": {"count": 13, "pond": ["1z"], "first_turn": False},
             "S": {"hand": "123m456p789s11s", "melds": [{"meld": "[567z]"}], "first_turn": True},
             "W": {"count": 13}, "N": {"count": 13}}  # fmt: skip
    laid = make(seats, {"event": "draw", "seat": "S", "tile": "3m", "special_laid": True}, rules)
    drawn = make(seats, {"event": "draw", "seat": "S", "tile": "3m"}, rules)
    acts, fb = summary(legal_actions(laid, explain=True))
    acts0, fb0 = summary(legal_actions(drawn, explain=True))
    assert "win 3m self fan=3" in acts0["S"]
    assert acts["S"] == [a for a in acts0["S"] if a != "win 3m self fan=3"]
    assert sorted(fb) == sorted(fb0 + ["S win 3m no_win_chance"])
    # the flag reads back, and only where it means something
    assert Position.from_json(laid).to_json()["last"]["special_laid"] is True
    no_kong = make({**seats, "S": {"hand": "123m456p789s11s567z", "first_turn": True}},
                   {"event": "draw", "seat": "S", "tile": "3m", "special_laid": True}, rules)
    with pytest.raises(PositionError, match="special_laid"):
        Position.from_json(no_kong)


# ------------------------------------------------------------------ the wall's end and 荒庄
HAND = "123m456p789s111z5m"
# a 14-tile hand 123m456p789s111z55m (S drew 5m): complete (单调 5m). Each discard's waits, by
# hand: 1m -> 23m: 1m/4m; 2m -> 13m: 2m; 3m -> 12m: 3m; 4p -> 56p: 4p/7p; 5p -> 46p: 5p;
# 6p -> 45p: 3p/6p; 7s -> 89s: 7s; 8s -> 79s: 8s; 9s -> 78s: 6s/9s; 1z -> 11z+55m: 5m/1z;
# 5m -> 单调 5m. Every one legal (三色, 幺九, the pung 111z), so each may also declare.
WIN_WAITS = {"1m": "1m,4m", "2m": "2m", "3m": "3m", "4p": "4p,7p", "5p": "5p", "6p": "3p,6p",
             "7s": "7s", "8s": "8s", "9s": "6s,9s", "1z": "5m,1z", "5m": "5m"}  # fmt: skip
# fan of the 自摸 5m: win 1 + 门清 1 + 自摸 1 + 夹胡 1 (单调) = 4
ORDINARY_WIN = sorted(["win 5m self fan=4"]
                      + [f"{g} {t} waits={w}" for t, w in WIN_WAITS.items()
                         for g in ("discard", "declare")])  # fmt: skip
# with 9m drawn instead: 123m456p789s111z 5m 9m: two singles. Discarding 5m waits on 9m, 9m on
# 5m (单调); any other discard leaves no wait.
ORDINARY_NO_WIN = sorted(["discard 5m waits=9m", "declare 5m waits=9m", "discard 9m waits=5m",
                          "declare 9m waits=5m"]
                         + [f"discard {t} waits=" for t in
                            ("1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z")])  # fmt: skip


def _drew(rules, drawn, left):
    seats = {"E": {"count": 13, "pond": []}, "S": {"hand": HAND + drawn},
             "W": {"count": 13}, "N": {"count": 13}}  # fmt: skip
    return fill_ponds(make(seats, {"event": "draw", "seat": "S", "tile": drawn}, rules), left)


@pytest.mark.parametrize("rules", BOTH)
@pytest.mark.parametrize("left", [18, 17, 14])
@pytest.mark.parametrize("drawn", ["5m", "9m"])
def test_the_wall_end_draws_under_each_wall_end(rules, left, drawn):
    # default (wall_end reserve): every draw down to the 14 tiles of the dead wall is ordinary
    # (the draw leaving 14 is the last one). mil2024 (win_only_four): at 9 stacks (18 tiles)
    # left the next four draws (leaving 17, 16, 15, 14) may only win: a drawn tile that wins
    # is won on or passed on face up; one that does not win is passed on; no discard, kong or
    # 报听 (forbidden: wall_end_win_only, a discard and a 报听 per kind held).
    r = legal_actions(_drew(rules, drawn, left), explain=True)
    acts, fb = summary(r)
    if rules == "default" or left == 18:
        assert acts == {"S": ORDINARY_WIN if drawn == "5m" else ORDINARY_NO_WIN}
        assert fb == []
    else:
        assert acts == {"S": ["pass " + drawn] + (["win 5m self fan=4"] if drawn == "5m" else [])}
        kinds = sorted(set(WIN_WAITS) | {drawn})
        assert fb == sorted(f"S {a} {t} wall_end_win_only" for t in kinds
                            for a in ("discard", "declare"))  # fmt: skip


@pytest.mark.parametrize("rules", BOTH)
@pytest.mark.parametrize(("left", "kongs"), [(15, 0), (14, 0), (16, 0), (16, 2), (18, 3)])
def test_huangzhuang_at_the_wall_end(rules, left, kongs):
    # S is to draw. default (reserve): 7 stacks are kept, 8 after two kongs, 9 after three, so
    # with 14 left (no kong), 16 (two kongs) or 18 (three kongs) the hand is drawn (荒庄): no
    # action, the draw forbidden wall_ended. mil2024 (win_only_four): drawn at 7 stacks
    # whatever the kongs: only with 14 left.
    seats = {"E": {"count": 13, "pond": []}, "S": {"hand": HAND},
             "W": {"count": 13}, "N": {"count": 13}}  # fmt: skip
    d = fill_ponds(make(seats, {"event": "to_draw", "seat": "S"}, rules), left)
    d["wall"]["kongs"] = kongs
    acts, fb = summary(legal_actions(d, explain=True))
    reserve = 14 + (2 * (kongs - 1) if kongs >= 2 else 0)
    drawn = left <= (reserve if rules == "default" else 14)
    if drawn:
        assert acts == {} and fb == ["S draw wall_ended"]
    else:
        assert acts == {"S": ["draw"]} and fb == []


# ------------------------------------------------------------------ 过水
def _guoshui(rules, flag):
    # S discards 5m. W holds 46m456p789s99s111z: 胡 (夹 5m: win 1 + 门清 1 + 夹胡 1 = 3) or
    # 吃 456m (S is before W); E holds 55m: 碰.
    seats = {"E": {"hand": "55m123p789p234s36z", "pond": ["1p"]},
             "S": {"hand": "11m234m567p1235s4z", "pond": ["5m"]},
             "W": {"hand": "46m456p789s99s111z"}, "N": {"count": 13}}  # fmt: skip
    if flag:
        seats["W"]["guoshui"] = flag
    return make(seats, {"event": "discard", "seat": "S", "tile": "5m"}, rules)


@pytest.mark.parametrize("rules", BOTH)
def test_guoshui(rules):
    # no 过水 in force: W's 胡 takes the tile under both presets
    r = legal_actions(_guoshui(rules, None), explain=True)
    acts, fb = summary(r)
    assert acts == {"E": ["pass 5m S", "pung 5m S"],
                    "W": ["chow 5m 456m S", "pass 5m S", "win 5m discard S fan=3"]}  # fmt: skip
    assert fb == [] and r["claims"]["takes"] == {"seat": "W", "action": "win", "tile": "5m"}
    if rules == "default":
        # no 过水 in the default rules: a position that says W passed a win is refused
        with pytest.raises(PositionError, match="guoshui"):
            Position.from_json(_guoshui(rules, "5m"))
        return
    # mil2024: W let a 5m win go since his last draw: this 5m win (the same fan) is barred;
    # E's 碰 now takes the tile, W may still 吃 (below the 碰)
    r = legal_actions(_guoshui(rules, "5m"), explain=True)
    acts, fb = summary(r)
    assert acts == {"E": ["pass 5m S", "pung 5m S"], "W": ["chow 5m 456m S", "pass 5m S"]}
    assert fb == ["W win 5m guoshui"]
    assert r["claims"]["takes"] == {"seat": "E", "action": "pung", "tile": "5m"}


# ------------------------------------------------------------------ 包庄 by the discarder's state
def _dealin(rules, state):
    # E (dealer) discards 5m; S and W both wait on it (S: 46m456p789s99s111z, W:
    # 46m345p678s22s222z), each 夹 5m: win 1 + 门清 1 + 夹胡 1 = 3 fan. S is nearest: 截胡.
    seats = {"E": {"hand": "11m234m567p9p123s4z", "pond": ["5m"], "first_turn": False},
             "S": {"hand": "46m456p789s99s111z"}, "W": {"hand": "46m345p678s22s222z"},
             "N": {"count": 13}}  # fmt: skip
    d = make(seats, {"event": "discard", "seat": "E", "tile": "5m"}, rules)
    if state in ("declared", "looked", "declared_with"):
        d["seats"]["E"] |= {"pond": ["1p", "5m"], "declared": True, "looked": state == "looked"}
        d["wall"]["left"] -= 1
    if state in ("declared", "looked"):
        d["bao"] = {"state": "rolled", "tile": "9s", "dice": 5}
    if state == "declared_with":
        d["last"]["declared"] = True
    return d


@pytest.mark.parametrize("rules", BOTH)
@pytest.mark.parametrize("state", ["undeclared", "declared", "looked", "declared_with"])
def test_baozhuang_by_the_discarders_state(rules, state):
    # Each loser's fan for S's win: E 3 + dealer 1 + 点炮 1 = 5 -> 16; W 3 -> 4; N 3 -> 4.
    # default (all_pay): everyone pays his own, whatever E's state: S +24.
    # mil2024 (discarder_covers_all + cover_only_undeclared + cover_needs_look): E covers every
    # loser (24, W and N pay 0) unless he has declared *and* looked at the current bao; a
    # declaration made with this very discard counts as declared, but he has not looked: he
    # covers. Same for W's win (S pays 4 then).
    r = legal_actions(_dealin(rules, state), explain=True)
    acts, fb = summary(r)
    assert acts == {"S": ["chow 5m 456m E", "pass 5m E", "win 5m discard E fan=3"],
                    "W": ["pass 5m E", "win 5m discard E fan=3"]}  # fmt: skip
    assert fb == ["W chow 5m chow_not_from_left"]
    assert r["claims"]["takes"] == {"seat": "S", "action": "win", "tile": "5m"}
    covers = rules == "mil2024" and state != "looked"
    want_s = {"E": -24, "S": 24, "W": 0, "N": 0} if covers else {"E": -16, "S": 24, "W": -4,
                                                                  "N": -4}  # fmt: skip
    want_w = {"E": -24, "S": 0, "W": 24, "N": 0} if covers else {"E": -16, "S": -4, "W": 24,
                                                                  "N": -4}  # fmt: skip
    assert r["seats"]["S"]["win"][0]["score"]["total"] == want_s
    assert r["seats"]["W"]["win"][0]["score"]["total"] == want_w


# ------------------------------------------------------------------ 手把一: shoubayi_no_claim
@pytest.mark.parametrize("rules", BOTH)
def test_shoubayi_no_claim_complete(rules):
    # W holds [123m][555p][789s] + 99m11z; S discards 9m. 胡 999m + 11z: legal (三色, 幺九,
    # pungs); 双碰 9m/1z, no 门清: 1 fan. E 1 + dealer 1 = 2 -> 2, S 1 + 点炮 1 = 2 -> 2, N 1;
    # W +5 (default); mil2024: S (undeclared) covers all, 5. 碰 9m leaves 11z -> after the
    # discard one concealed tile beside two chows: mil2024 (shoubayi_no_claim) forbids it.
    seats = {
        "E": {"count": 13, "pond": ["5p*", "1p"]},
        "S": {"hand": "456m234p456s77z33z", "pond": ["2m*", "7s*", "9m"]},
        "W": {"hand": "99m11z", "pond": ["1s", "2s", "3s"],
              "melds": [{"meld": "[123m]", "from": "S"}, {"meld": "[555p]", "from": "E"},
                        {"meld": "[789s]", "from": "S"}]},
        "N": {"count": 13, "pond": ["6p"]},
    }  # fmt: skip
    r = legal_actions(make(seats, {"event": "discard", "seat": "S", "tile": "9m"}, rules),
                      explain=True)  # fmt: skip
    acts, fb = summary(r)
    win = ["pass 9m S", "win 9m discard S fan=1"]
    if rules == "default":
        assert acts == {"W": sorted(win + ["pung 9m S"])} and fb == []
        assert r["seats"]["W"]["win"][0]["score"]["total"] == {"E": -2, "S": -2, "W": 5, "N": -1}
    else:
        assert acts == {"W": win} and fb == ["W pung 9m shoubayi_no_claim"]
        assert r["seats"]["W"]["win"][0]["score"]["total"] == {"E": 0, "S": -5, "W": 5, "N": 0}


# ------------------------------------------------------------------ the bao: place, look, 换宝
def _declared_to_draw(rules, bao, looked=False, ponds=("1p", "2p", "3p", "4p")):
    # S declared holding 46m456p789s99s111z (one legal wait: 夹 5m) and is to draw.
    seats = {"E": {"count": 13, "pond": [ponds[0]]},
             "S": {"hand": "46m456p789s99s111z", "pond": [ponds[1]], "declared": True,
                   "looked": looked},
             "W": {"count": 13, "pond": [ponds[2]]}, "N": {"count": 13, "pond": [ponds[3]]}}  # fmt: skip
    return make(seats, {"event": "to_draw", "seat": "S"}, rules, bao=bao)


@pytest.mark.parametrize("rules", BOTH + ["piaoding"])
def test_bao_place_stack_and_tile(rules):
    # Not rolled: the first declarer's look rolls it (his only action). A rolled bao 9p he has
    # not seen: he looks (no 对宝: 9p is no wait of his); the bao 5m: the look is 对宝.
    # Where a bao may lie: under any_stack (default) the tile under a dead stack top serves,
    # so a bao at a stack's lower tile is a position; under top_six (mil2024) only stack tops
    # serve: refused; under tile (piaoding) the dice count single tiles: any tile.
    acts, _ = summary(legal_actions(_declared_to_draw(rules, {"state": "none"})))
    assert acts == {"S": ["look no-duibao rolls"]}
    dice = 3 if rules != "default" else 7
    for tile, want in (("9p", "look 9p no-duibao"), ("5m", "look 5m duibao")):
        bao = {"state": "rolled", "tile": tile, "dice": dice}
        acts, _ = summary(legal_actions(_declared_to_draw(rules, bao)))
        assert acts == {"S": [want]}
    lower = _declared_to_draw(rules, {"state": "rolled", "tile": "9p", "dice": dice,
                                      "lower": True})  # fmt: skip
    if rules == "mil2024":
        with pytest.raises(PositionError, match="bao.lower"):
            Position.from_json(lower)
    else:
        assert summary(legal_actions(lower))[0] == {"S": ["look 9p no-duibao"]}
        p = Position.from_json(lower)
        assert p.to_json()["bao"]["lower"] is True
    # the dice: one die under mil2024 and piaoding (1-6), two by default (2-12)
    bad = 7 if rules != "default" else 1
    with pytest.raises(PositionError, match="bao.dice"):
        Position.from_json(_declared_to_draw(rules, {"state": "rolled", "tile": "9p",
                                                     "dice": bad}))  # fmt: skip
    # no bao for the rest of the hand (top_six used up, or no tile could serve): he draws
    acts, _ = summary(legal_actions(_declared_to_draw(rules, {"state": "no_bao"})))
    assert acts == {"S": ["draw"]}


@pytest.mark.parametrize("rules", BOTH)
def test_bao_change(rules):
    # The three other copies of the bao 9p are in the ponds (dead). default (bao_change
    # always): it was changed the moment the third went public, so such a position is refused.
    # mil2024 (optional): S, who has seen it, chooses 换宝 or draws; S, who has not seen it
    # yet, does not know it is dead: he looks first (no 对宝: 9p is no wait).
    bao = {"state": "rolled", "tile": "9p", "dice": 3}
    dead = ("9p", "9p", "9p", "4p")
    if rules == "default":
        for looked in (True, False):
            with pytest.raises(PositionError, match="bao.tile"):
                Position.from_json(_declared_to_draw(rules, bao, looked, dead))
        return
    r = legal_actions(_declared_to_draw(rules, bao, True, dead), explain=True)
    assert summary(r) == ({"S": ["bao_change 9p", "draw"]}, [])
    r = legal_actions(_declared_to_draw(rules, bao, False, dead), explain=True)
    assert summary(r) == ({"S": ["look 9p no-duibao"]}, [])
    # with two copies public the bao is live: no 换宝, he draws (he has seen it)
    r = legal_actions(_declared_to_draw(rules, bao, True, ("9p", "9p", "3p", "4p")), explain=True)
    assert summary(r)[0] == {"S": ["draw"]}
