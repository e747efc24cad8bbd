"""ccmj actions: positions worked out by hand with their complete legal action lists, bad input,
and a property test (the bot's own choice at a dealt position is always in the legal list).

Each position below is small on purpose; the comment above it says how its list was worked out
from docs/rules.md. The waits a discard leaves are the hand judgment's (``hand.waits``, tested
on its own in tests/test_legal.py): here they are asked through the table, and compared.
"""

import json
import sys
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from ccmj_cli import tiles as T
from ccmj_cli.actions import legal_actions
from ccmj_cli.cli import app
from ccmj_cli.hand import waits
from ccmj_cli.position import Position, PositionError

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "positions"
runner = CliRunner()


def _count(text):
    return len(T.parse_tiles(text)) if text else 0


def make(seats, last, rules="default", dealer="E", left=None, bao=None, tail_draws=0):
    """A position; ``left`` defaults to what the hands, melds and ponds leave of 136 tiles."""
    seats = json.loads(json.dumps(seats))  # (a copy: fill_ponds changes it)
    d = {"rules": rules, "dealer": dealer, "seats": seats, "last": last,
         "wall": {"left": 0, "tail_draws": tail_draws}}  # fmt: skip
    if bao is not None:
        d["bao"] = bao
    if left is None:
        held = 0
        for sp in seats.values():
            held += _count(sp["hand"]) if "hand" in sp else sp["count"]
            for m in sp.get("melds", []):
                held += _count(m["meld"].strip("[]()") if isinstance(m, dict) else m.strip("[]()"))
            held += sum(1 for p in sp.get("pond", []) if not p.endswith("*"))
        left = 136 - held - (1 if last["event"] == "kong_add" else 0)
    d["wall"]["left"] = left
    return d


def fill_ponds(d, left):
    """Give the ponds the tiles nobody holds until the wall has ``left`` tiles (wall's end)."""
    used = np.zeros(34, int)
    for sp in d["seats"].values():
        for t in T.parse_tiles(sp.get("hand", "")):
            used[t] += 1
        for p in sp.get("pond", []):
            used[T.tile_index(p.rstrip("*"))] += 1
    need = d["wall"]["left"] - left
    order = [s for s in "ESWN" if "count" in d["seats"][s]] or list("ESWN")
    k = 0
    for t in range(33, -1, -1):
        while used[t] < 3 and need > 0:  # (a copy of each kind stays for the wall)
            d["seats"][order[k % len(order)]].setdefault("pond", []).insert(0, T.tile_name(t))
            used[t] += 1
            need -= 1
            k += 1
    d["wall"]["left"] = left
    return d


def groups(r, seat):
    return r["seats"].get(seat, {})


def tiles_of(acts):
    return sorted(a["tile"] for a in acts)


def forbidden(r, seat, action):
    return sorted((a.get("tile", ""), a["forbidden"]) for a in r["forbidden"]
                  if a["seat"] == seat and a["action"] == action)  # fmt: skip


# ------------------------------------------------------------------ claims and their priority
def test_claim_priority_example():
    # S discards 5m. W (next after S) holds 46m456p789s99s111z: 456m 456p 789s 111z 99s, a
    # legal 夹胡 (pung 111z, 幺九, three suits) -> 胡; W may also 吃 456m. E holds 55m -> 碰.
    # N's tiles are unknown (not judged). Priority: 胡 > 碰 > 吃, so W wins.
    # W's fan, worked by hand: 平胡 1 + 门清 1 + 夹胡 1 = 3; E (dealer) +1 = 4 -> 2^3 = 8;
    # S (点炮) +1 = 4 -> 8; N 3 -> 4; W +20.
    r = legal_actions((EXAMPLES / "claim.json").read_text(), explain=True)
    assert r["phase"] == "claim"
    assert set(groups(r, "E")) == {"pung", "pass"}
    assert set(groups(r, "W")) == {"win", "chow", "pass"}
    assert "S" not in r["seats"] and r["unknown"] == ["N"]
    (win,) = groups(r, "W")["win"]
    assert win["fan"] == 3 and win["score"]["total"] == {"E": -8, "S": -8, "W": 20, "N": -4}
    assert [c["chow"] for c in groups(r, "W")["chow"]] == ["456m"]
    assert [(c["seat"], c["action"]) for c in r["claims"]["priority"]] == [
        ("W", "win"), ("E", "pung"), ("W", "chow")]  # fmt: skip
    assert r["claims"]["takes"]["seat"] == "W" and not r["claims"]["jiehu"]
    assert r["forbidden"] == []


def _jiehu(rules):
    # E discards 5m; S and W both win on it (each holds 46m...: 夹 5m); S is nearest
    # counter-clockwise from E, so S takes it (截胡) and W's win is lower in the order.
    seats = {
        "E": {"hand": "11m234m567p9p123s4z", "pond": ["5m"], "first_turn": False},
        "S": {"hand": "46m456p789s99s111z"},
        "W": {"hand": "46m345p678s22s222z"},
        "N": {"count": 13},
    }
    return make(seats, {"event": "discard", "seat": "E", "tile": "5m"}, rules)


@pytest.mark.parametrize("rules", ["default", "mil2024"])
def test_jiehu_nearest_winner_takes(rules):
    r = legal_actions(_jiehu(rules))
    assert [(c["seat"], c["action"]) for c in r["claims"]["priority"]][:2] == [
        ("S", "win"), ("W", "win")]  # fmt: skip
    assert r["claims"]["takes"] == {"seat": "S", "action": "win", "tile": "5m"}
    assert r["claims"]["jiehu"]
    # S is next after E: he may also 吃 456m (46m + 5m); W may not (not from his left)
    assert [c["chow"] for c in groups(r, "S")["chow"]] == ["456m"]
    assert "chow" not in groups(r, "W")


def test_chow_only_from_the_left_explained():
    r = legal_actions(_jiehu("default"), explain=True)
    assert forbidden(r, "W", "chow") == [("5m", "chow_not_from_left")]


def test_baozhuang_by_the_discarders_state():
    # 包庄 by the discarder's state. default: all_pay, W and N pay their own share. mil2024:
    # discarder_covers_all + cover_only_undeclared + cover_needs_look: an undeclared E covers
    # every loser (W and N pay 0); an E who declared and looked at the current bao pays only
    # his own share.
    r = legal_actions(_jiehu("default"))
    total = groups(r, "S")["win"][0]["score"]["total"]
    assert total["W"] < 0 and total["N"] < 0
    r = legal_actions(_jiehu("mil2024"))
    total = groups(r, "S")["win"][0]["score"]["total"]
    assert total["W"] == 0 and total["N"] == 0 and total["E"] == -total["S"] < 0
    d = _jiehu("mil2024")
    d["seats"]["E"] |= {"pond": ["1p", "5m"], "declared": True, "looked": True}
    d["seats"]["S"]["declared"] = False
    d["bao"] = {"state": "rolled", "tile": "9s", "dice": 5}
    d["wall"]["left"] -= 1
    r = legal_actions(d)
    total = groups(r, "S")["win"][0]["score"]["total"]
    assert total["W"] < 0 and total["N"] < 0


# ------------------------------------------------------------------ the turn: discards, 报听, lock
def _turn(rules="default", declared=False, drawn="9m"):
    # S drew 9m holding 123m456p789s111z5m: no win (9m 5m are two singles). Discards: each of
    # the 11 kinds held; 5m or 9m leaves a 单吊 tenpai (on the other), the rest none.
    seats = {
        "E": {"count": 13, "pond": ["1p"]},
        "S": {"hand": "123m456p789s111z5m" + drawn, "pond": ["2p"] if declared else [],
              "declared": declared, "first_turn": not declared},
        "W": {"count": 13}, "N": {"count": 13},
    }  # fmt: skip
    return make(seats, {"event": "draw", "seat": "S", "tile": drawn}, rules)


@pytest.mark.parametrize("rules", ["default", "mil2024"])
def test_discards_and_their_waits(rules):
    r = legal_actions(_turn(rules))
    g = groups(r, "S")
    assert set(g) <= {"discard", "declare"} and "win" not in g
    assert tiles_of(g["discard"]) == sorted(["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s",
                                             "9s", "1z", "5m", "9m"])  # fmt: skip
    for a in g["discard"]:
        c = T.parse_tiles("123m456p789s111z5m9m")
        c.remove(T.tile_index(a["tile"]))
        legal = sorted(w.tile for w in waits(T.format_tiles(c), rules=rules).waits if w.legal)
        assert sorted(a["waits"]) == legal, a
        assert a["tenpai"] == bool(legal)
    # 报听 with exactly the discards that leave legal waits
    assert tiles_of(g.get("declare", [])) == sorted(a["tile"] for a in g["discard"] if a["tenpai"])


def test_locked_hand_discards_only_the_drawn_tile():
    # S declared: his hand is locked, he discards the drawn 9m (no declare again, no other).
    r = legal_actions(_turn(declared=True), explain=True)
    g = groups(r, "S")
    assert set(g) == {"discard"} and tiles_of(g["discard"]) == ["9m"]
    locked = {t for t, code in forbidden(r, "S", "discard")}
    assert locked == {"1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "5m"}
    assert all(code == "locked_hand" for _t, code in forbidden(r, "S", "discard"))


def test_duanyaojiu_may_not_declare_under_mil2024():
    # 断幺九: S holds 234m456p678s33s55m + 7p drawn: discarding 7p leaves 234m456p678s33s55m,
    # tenpai on 3s/5m (双碰), but no 幺九 tile: mil2024 (duanyaojiu_may_declare false) forbids
    # 报听; the default allows it... if the wait is legal there (a 断幺九 win needs 幺九 by
    # default, so the default has no legal wait either: not_tenpai).
    seats = {
        "E": {"count": 13, "pond": ["1p"]},
        "S": {"hand": "234m456p678s33s55m7p", "first_turn": True},
        "W": {"count": 13}, "N": {"count": 13},
    }  # fmt: skip
    d = make(seats, {"event": "draw", "seat": "S", "tile": "7p"}, "mil2024")
    r = legal_actions(d, explain=True)
    assert "declare" not in groups(r, "S")
    codes = {code for _t, code in forbidden(r, "S", "declare")}
    assert codes <= {"duanyaojiu_no_declare", "not_tenpai"}


# ------------------------------------------------------------------ the wall's end
def _to_draw(rules, left):
    seats = {"E": {"count": 13, "pond": []}, "S": {"hand": "123m456p789s111z5m"},
             "W": {"count": 13}, "N": {"count": 13}}  # fmt: skip
    d = make(seats, {"event": "to_draw", "seat": "S"}, rules)
    return fill_ponds(d, left)


def test_wall_end_reserve():
    # default: 7 stacks (14 tiles) are never drawn: with 15 left S draws, with 14 the hand is
    # drawn (荒庄): no action at all, the draw forbidden wall_ended.
    r = legal_actions(_to_draw("default", 15))
    assert groups(r, "S") == {"draw": [{}]}
    r = legal_actions(_to_draw("default", 14), explain=True)
    assert r["seats"] == {} and forbidden(r, "S", "draw") == [("", "wall_ended")]


def test_wall_end_win_only_four():
    # mil2024: at 9 stacks (18 tiles) left the next four draws may only win. S drew 5m with 17
    # left (the 18th-last tile): 123m456p789s111z55m is a complete hand -> win or pass only;
    # every discard is forbidden wall_end_win_only.
    seats = {"E": {"count": 13, "pond": []}, "S": {"hand": "123m456p789s111z55m"},
             "W": {"count": 13}, "N": {"count": 13}}  # fmt: skip
    d = fill_ponds(make(seats, {"event": "draw", "seat": "S", "tile": "5m"}, "mil2024"), 17)
    r = legal_actions(d, explain=True)
    assert set(groups(r, "S")) == {"win", "pass"}
    assert {code for _t, code in forbidden(r, "S", "discard")} == {"wall_end_win_only"}
    # one tile earlier (18 left after the draw) it is an ordinary draw: discards are legal
    d = fill_ponds(make(seats, {"event": "draw", "seat": "S", "tile": "5m"}, "mil2024"), 18)
    r = legal_actions(d)
    assert {"win", "discard"} <= set(groups(r, "S")) and "pass" not in groups(r, "S")


# ------------------------------------------------------------------ 过水
def test_guoshui_bars_the_same_win():
    # mil2024 has 过水: W passed a win on 5m since his last draw; S discards 5m again: the win
    # is forbidden (guoshui); under the default (no 过水) the flag is refused as input.
    seats = {
        "E": {"count": 13, "pond": ["1p"]},
        "S": {"hand": "11m234m567p1235s4z", "pond": ["5m"]},
        "W": {"hand": "46m456p789s99s111z", "guoshui": "5m"},
        "N": {"count": 13},
    }
    r = legal_actions(make(seats, {"event": "discard", "seat": "S", "tile": "5m"}, "mil2024"),
                      explain=True)  # fmt: skip
    assert "win" not in groups(r, "W")
    assert forbidden(r, "W", "win") == [("5m", "guoshui")]
    with pytest.raises(PositionError, match="guoshui"):
        Position.from_json(make(seats, {"event": "discard", "seat": "S", "tile": "5m"}))


# ------------------------------------------------------------------ kongs
def test_concealed_kong_and_jiagang():
    # S drew 9m holding 9999m and an exposed pung [111z]: 暗杠 9m, 加杠 1z (he holds the 4th).
    seats = {
        "E": {"count": 13, "pond": ["1z*", "2p"]},
        "S": {"hand": "9999m123p9s1z22z", "melds": [{"meld": "[111z]", "from": "E"}],
              "pond": ["3p"]},
        "W": {"count": 13, "pond": ["4p"]}, "N": {"count": 13, "pond": ["5p"]},
    }  # fmt: skip
    r = legal_actions(make(seats, {"event": "draw", "seat": "S", "tile": "9m"}))
    g = groups(r, "S")
    assert tiles_of(g["ankong"]) == ["9m"] and tiles_of(g["jiagang"]) == ["1z"]


def test_rob_the_jiagang():
    # S adds 5m to his pung of 5m (加杠); W waits on 5m (46m): 抢杠胡.
    seats = {
        "E": {"count": 13, "pond": ["5m*", "2p"]},
        "S": {"hand": "123p456s33z77z", "melds": [{"meld": "[555m]", "from": "E"}],
              "pond": ["3p"]},
        "W": {"hand": "46m456p789s99s111z", "pond": ["4p"]}, "N": {"count": 13, "pond": ["5p"]},
    }  # fmt: skip
    d = make(seats, {"event": "kong_add", "seat": "S", "tile": "5m", "kind": "jiagang"})
    r = legal_actions(d)
    assert r["phase"] == "rob" and groups(r, "W")["win"][0]["from"] == "S"
    assert r["claims"]["takes"] == {"seat": "W", "action": "win", "tile": "5m"}


def test_special_kong_timing_deal_vs_first_turn():
    # S (not the dealer) drew 7z, his first draw, holding 56z: 喜杠 567z needs the 7z. Under
    # the default (special kongs from the dealt tiles only) it is forbidden; under mil2024
    # (special_kong_timing first_turn) the drawn tile counts.
    seats = {
        "E": {"count": 13, "pond": ["1p"]},
        "S": {"hand": "123m456p789s19m56z7z", "first_turn": True},
        "W": {"count": 13}, "N": {"count": 13},
    }  # fmt: skip
    last = {"event": "draw", "seat": "S", "tile": "7z"}
    r = legal_actions(make(seats, last, "mil2024"))
    assert [a["kind"] for a in groups(r, "S").get("special_kong", [])] == ["xi"]
    r = legal_actions(make(seats, last, "default"), explain=True)
    assert "special_kong" not in groups(r, "S")


# ------------------------------------------------------------------ the bao
def _declared_to_draw(bao, looked=False):
    # S declared (报听) holding 46m456p789s99s111z (夹 5m); he is to draw.
    seats = {
        "E": {"count": 13, "pond": ["1p"]},
        "S": {"hand": "46m456p789s99s111z", "pond": ["2p"], "declared": True,
              "looked": looked},
        "W": {"count": 13, "pond": ["3p"]}, "N": {"count": 13, "pond": ["4p"]},
    }  # fmt: skip
    return make(seats, {"event": "to_draw", "seat": "S"}, bao=bao)


def test_first_declarer_rolls_and_looks():
    r = legal_actions(_declared_to_draw({"state": "none"}))
    assert groups(r, "S") == {"look": [{"duibao": False, "rolls": True}]}


def test_look_is_duibao_when_the_bao_is_a_wait():
    # the bao is 5m, S's one legal wait: his look is 对宝, a win (scored as 对宝).
    r = legal_actions(_declared_to_draw({"state": "rolled", "tile": "5m", "dice": 4}))
    (look,) = groups(r, "S")["look"]
    assert look["duibao"] and look["score"]["how"] == "duibao" and look["score"]["legal"]
    # a bao he has seen already: no look, he draws
    r = legal_actions(_declared_to_draw({"state": "rolled", "tile": "9p", "dice": 4}, True))
    assert groups(r, "S") == {"draw": [{}]}


def test_mobao():
    # S has seen the bao 9p and draws a 9p: 摸宝, the bao stands for his wait 5m.
    seats = {
        "E": {"count": 13, "pond": ["1p"]},
        "S": {"hand": "46m456p789s99s111z9p", "pond": ["2p"], "declared": True, "looked": True},
        "W": {"count": 13, "pond": ["3p"]}, "N": {"count": 13, "pond": ["4p"]},
    }  # fmt: skip
    d = make(seats, {"event": "draw", "seat": "S", "tile": "9p"},
             bao={"state": "rolled", "tile": "9p", "dice": 4})  # fmt: skip
    r = legal_actions(d)
    wins = groups(r, "S")["win"]
    assert [w["how"] for w in wins] == ["mobao"] and wins[0]["tile"] == "5m"
    assert set(groups(r, "S")) == {"win", "discard"}
    assert tiles_of(groups(r, "S")["discard"]) == ["9p"]  # (locked: the drawn tile)


# ------------------------------------------------------------------ bad input
GOOD = json.loads((EXAMPLES / "claim.json").read_text())


def _bad(**change):
    d = json.loads(json.dumps(GOOD))
    for path, value in change.items():
        node = d
        keys = path.split("__")
        for k in keys[:-1]:
            node = node[k]
        if value is None:
            del node[keys[-1]]
        else:
            node[keys[-1]] = value
    return d


@pytest.mark.parametrize(
    "change, field",
    [
        ({"seats__E__hand": "555m123p789p234s36z"}, "seats.E.hand"),  # 14 tiles, not on turn
        ({"seats__E__hand": "555m23p789p234s36z", "seats__W__hand": "46m456p789s9s111z5m"},
         "seats"),  # a fifth copy of 5m  # fmt: skip
        ({"wall__left": 81}, "wall.left"),
        ({"seats__W__melds": [{"meld": "[123z]"}], "seats__W__hand": "46m456p789s99s"},
         "seats.W.melds[0].meld"),  # [123z] is no meld without 三风蛋  # fmt: skip
        ({"seats__W__looked": True}, "seats.W.looked"),  # looked without 报听
        ({"last__seat": "W"}, "last.tile"),  # W's last discard is not 5m
        ({"last__event": "draw"}, "seats.S.hand"),  # S drew, but holds 13
        ({"seats__E__colour": "red"}, "seats.E"),
        ({"dealer": "X"}, "dealer"),
        ({"seats__N": None}, "seats"),
    ],
)
def test_bad_input_names_the_field(change, field):
    with pytest.raises(PositionError) as e:
        Position.from_json(_bad(**change))
    assert f": {field}:" in e.value.message or e.value.message.split(": ")[1] == field


def test_cli_bad_input_one_line_exit_2(tmp_path):
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(_bad(wall__left=81)))
    r = runner.invoke(app, ["actions", str(p)])
    assert r.exit_code == 2
    assert "Traceback" not in r.output and "wall.left" in r.output
    p.write_text("{not json")
    r = runner.invoke(app, ["actions", str(p)])
    assert r.exit_code == 2 and "not JSON" in r.output


def test_cli_json_and_round_trip():
    r = runner.invoke(app, ["actions", str(EXAMPLES / "claim.json"), "--json", "--seat", "E"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert list(d["seats"]) == ["E"] and set(d["seats"]["E"]) == {"pung", "pass"}
    p = Position.from_json(GOOD)
    assert Position.from_json(p.to_json()).to_json() == p.to_json()


# ------------------------------------------------------------------ property: the bot's choice
@pytest.mark.parametrize("rules", ["default", "mil2024"])
def test_bot_discard_is_legal_at_dealt_positions(rules):
    # 30 shuffled deals: the dealer's position after the deal; the baseline bot's discard
    # (bots.choose_discard_at, what simulate plays) is among the legal discards.
    from ccmj_cli._kernels.table.bots import choose_discard_at
    from ccmj_cli._kernels.table.wall import shuffle_wall
    from ccmj_cli.actions import _engine
    from ccmj_cli.simulate import policy_matrix

    _names, bots = policy_matrix("baseline")
    e = _engine()
    st = np.array([12345], np.uint64)
    wall = np.zeros(136, np.int64)
    for _ in range(30):
        shuffle_wall(st, wall)
        hands = [sorted(wall[13 * k: 13 * k + 13]) for k in range(4)]
        hands[0] = sorted(hands[0] + [wall[52]])
        seats = {s: {"hand": T.format_tiles(h)} for s, h in zip("ESWN", hands)}
        d = make(seats, {"event": "deal", "seat": "E", "tile": T.tile_name(int(wall[52]))}, rules)
        p = Position.from_json(d)
        r = legal_actions(p)
        legal = {a["tile"] for a in groups(r, "E").get("discard", [])}
        tab, _known = p.state()
        t, _n = choose_discard_at(tab, e["ws"], 0, int(wall[52]), bots, p.variant.vector, e["tb"])
        assert T.tile_name(int(t)) in legal


# ------------------------------------------------------------------ the schema and the examples
def test_schema_matches_the_reader_and_examples_load():
    from importlib.resources import files

    from ccmj_cli import position as P

    schema = json.loads((files("ccmj_cli") / "data" / "position.schema.json").read_text())
    props = schema["properties"]
    assert set(props) == P.TOP_KEYS
    assert set(schema["$defs"]["seat"]["properties"]) == P.SEAT_KEYS
    assert set(props["wall"]["properties"]) == P.WALL_KEYS
    assert set(props["bao"]["properties"]) == P.BAO_KEYS
    assert set(props["last"]["properties"]) == P.LAST_KEYS
    assert props["last"]["properties"]["event"]["enum"] == list(P.EVENTS)
    meld = schema["$defs"]["meld"]["oneOf"][1]["properties"]
    assert meld["kind"]["enum"] == list(P.KIND_NAMES) and set(meld) == P.MELD_KEYS
    examples = sorted(EXAMPLES.glob("*.json"))
    assert len(examples) >= 5
    for f in examples:
        p = Position.from_json(f.read_text())
        assert Position.from_json(p.to_json()).to_json() == p.to_json(), f.name


# ------------------------------------------------------------------ 手把一 and 换宝
def _shoubayi(rules):
    # W holds [123m] [555p] [789s] and 99m11z; S discards 9m. 胡: 999m 11z completes the hand
    # (three suits, 幺九, the pung 555p): legal. 碰 9m would leave 11z and, after the discard,
    # one concealed tile beside a chow: 手把一, which mil2024 (shoubayi_no_claim) forbids and the
    # default allows. No chow (W has no 78m).
    seats = {
        "E": {"count": 13, "pond": ["5p*", "1p"]},
        "S": {"hand": "456m234p456s77z33z", "pond": ["2m*", "7s*", "9m"]},
        "W": {"hand": "99m11z", "pond": ["1s", "2s", "3s"],
              "melds": [{"meld": "[123m]", "from": "S"}, {"meld": "[555p]", "from": "E"},
                        {"meld": "[789s]", "from": "S"}]},
        "N": {"count": 13, "pond": ["6p"]},
    }  # fmt: skip
    return make(seats, {"event": "discard", "seat": "S", "tile": "9m"}, rules)


def test_shoubayi_no_claim():
    r = legal_actions(_shoubayi("default"))
    assert set(groups(r, "W")) == {"win", "pung", "pass"}
    r = legal_actions(_shoubayi("mil2024"), explain=True)
    assert set(groups(r, "W")) == {"win", "pass"}
    assert forbidden(r, "W", "pung") == [("9m", "shoubayi_no_claim")]


def _dead_bao(rules):
    # S declared and has seen the bao 9p; the three other 9p are in the ponds (dead).
    seats = {
        "E": {"count": 13, "pond": ["9p"]},
        "S": {"hand": "46m456p789s99s111z", "pond": ["9p"], "declared": True, "looked": True},
        "W": {"count": 13, "pond": ["9p"]}, "N": {"count": 13, "pond": ["4p"]},
    }  # fmt: skip
    return make(seats, {"event": "to_draw", "seat": "S"}, rules,
                bao={"state": "rolled", "tile": "9p", "dice": 3})  # fmt: skip


def test_bao_change_optional_is_a_choice():
    # mil2024 (bao_change optional): 换宝 or draw. Under the default (always) the bao would
    # have been changed at once: such a position cannot happen.
    r = legal_actions(_dead_bao("mil2024"))
    assert groups(r, "S") == {"bao_change": [{"tile": "9p"}], "draw": [{}]}
    with pytest.raises(PositionError, match="bao.tile"):
        Position.from_json(_dead_bao("default"))


def test_no_bao_for_the_rest_of_the_hand():
    # no_bao (bao_place top_six used up, say): a declared seat just draws, nothing to look at.
    d = _declared_to_draw({"state": "no_bao"})
    assert groups(legal_actions(d), "S") == {"draw": [{}]}


# ------------------------------------------------------------------ state -> position
@pytest.mark.parametrize("rules", ["default", "mil2024"])
def test_position_from_state_round_trip(rules):
    # the engine's state of a position, read back (with the events that give the pond's
    # order): the same position. E (dealer) has discarded 4z and S holds the claim hand.
    from ccmj_cli._kernels.table.layout import EV_DISCARD
    from ccmj_cli.position import position_from_state

    seats = {
        "E": {"hand": "55m123p789p234s36z", "pond": ["4z"]},
        "S": {"hand": "11m234m567p1235s7z"},
        "W": {"hand": "46m456p789s99s111z"},
        "N": {"hand": "22m333m888p678s11s"},
    }
    d = make(seats, {"event": "discard", "seat": "E", "tile": "4z"}, rules)
    p = Position.from_json(d)
    tab, _known = p.state()
    ev = np.array([[EV_DISCARD, 0, T.tile_index("4z"), 0, 0]], np.int64)
    q = position_from_state(tab, ev, 1, rules)
    assert q.to_json() == p.to_json()


@pytest.mark.parametrize(
    "data",
    [[], "[1, 2]", {"dealer": "E"}, _bad(seats__E__melds=5), _bad(seats__E__pond="5m"),
     _bad(seats__E__hand=5), _bad(wall__left="many"), _bad(last__event="win"),
     _bad(bao={"state": "rolled"}), _bad(seats__E__first_turn="yes")],
)  # fmt: skip
def test_malformed_input_is_a_position_error(data):
    with pytest.raises(PositionError):
        Position.from_json(data)


@pytest.mark.parametrize("rules", ["default", "mil2024"])
def test_dealer_first_turn_special_kongs(rules):
    # The deal: E (dealer) holds 1234z 567z 123m 456p 9p. His first turn may lay out 旋风杠
    # [1234z] and 喜杠 [567z] from his dealt tiles (both timings allow the starting hand); no
    # kong else, no win (not complete). Every kind held may be discarded.
    seats = {"E": {"hand": "1234z567z123m456p9p"}, "S": {"count": 13}, "W": {"count": 13},
             "N": {"count": 13}}  # fmt: skip
    r = legal_actions(make(seats, {"event": "deal", "seat": "E", "tile": "9p"}, rules))
    g = groups(r, "E")
    assert sorted(a["kind"] for a in g["special_kong"]) == ["xi", "xuanfeng"]
    assert not {"win", "ankong", "jiagang", "bu"} & set(g)
    assert len(g["discard"]) == 14  # 14 different kinds


# ------------------------------------------------------------------ the bots ask the same rules
def test_declared_bot_kongs_a_discard_when_its_waits_stay():
    # S declared holding 46m456p789s99s111z (tenpai on 5m: 夹 5m, the claim example's hand);
    # E discards 1z. A 明杠 of 1z leaves 46m456p789s99s + [1111z]: still waiting on 5m only,
    # so a declared hand may kong it (docs/rules.md "Declaring"): the table lists it, and the
    # simulate bot that kongs makes it. The bot's scratch may hold another seat's tiles from
    # an earlier judgment (here: all four 5m); the answer does not depend on it (the legal
    # waits compared are read from the seat's own tiles).
    from ccmj_cli._kernels.table import bots as B
    from ccmj_cli._kernels.table import layout as TL
    from ccmj_cli._kernels.table.state import new_work
    from ccmj_cli._kernels.tables import tables
    from ccmj_cli._kernels.useful import useful_tables

    seats = {
        "E": {"hand": "23m567p11s2345z66z", "pond": ["1z"], "first_turn": False},
        "S": {"hand": "46m456p789s99s111z", "pond": ["9p"], "declared": True,
              "first_turn": False},
        "W": {"count": 13, "first_turn": False},
        "N": {"count": 13, "first_turn": False},
    }
    p = Position.from_json(make(seats, {"event": "discard", "seat": "E", "tile": "1z"}))
    r = legal_actions(p)
    assert [a["tile"] for a in groups(r, "S")["mingkong"]] == ["1z"]  # (the table allows it)
    tab, _known = p.state()
    ws = new_work(useful_tables())
    rv = np.asarray(p.variant.vector, np.int64)
    bots = np.zeros((4, TL.N_KNOBS), np.int64)
    bots[:, TL.K_KONG] = 1
    own2 = ws[1]
    own2[:] = 0
    own2[T.tile_index("5m")] = 4  # (another seat's tiles: all four of S's wait)
    assert B.wants_mingkong(tab, ws, 1, T.tile_index("1z"), bots, rv, tables())


def test_claims_outranked_name_the_rule():
    # the claim example: W's 胡 takes the 5m; E's 碰 and W's own 吃 lose to it (胡 > 碰 > 吃),
    # each marked with the rule the referee names when a record shows it instead
    r = legal_actions((EXAMPLES / "claim.json").read_text())
    pri = r["claims"]["priority"]
    assert "rule" not in pri[0]
    assert [(x["seat"], x["action"], x["rule"], x["loses_to"]) for x in pri[1:]] == [
        ("E", "pung", "claim_priority", {"seat": "W", "action": "win"}),
        ("W", "chow", "claim_priority", {"seat": "W", "action": "win"}),
    ]
    out = runner.invoke(app, ["actions", str(EXAMPLES / "claim.json")]).output
    assert "E pung (loses: claim_priority)" in out


@pytest.mark.parametrize(("rules", "meld"), [("default", "[1234z]"), ("mil2024", "[123z]")])
def test_bu_onto_a_special_kong(rules, meld):
    # S laid out a 旋风杠 (default: the four winds; mil2024, 三风蛋: three winds are one) and
    # draws 1z, a wind: he may 补 it onto the kong (a replacement draw follows). His other
    # choices are the discards of the 11 kinds he holds (123m456p789s5m + 1z), and 报听 with
    # each discard that leaves legal waits. No win (5m and 1z are single), no other kong.
    seats = {
        "E": {"count": 13, "pond": ["1p"], "first_turn": False},
        "S": {"hand": "123m456p789s5m1z", "melds": [{"meld": meld}], "pond": ["2p"]},
        "W": {"count": 13, "pond": ["3p"]}, "N": {"count": 13, "pond": ["4p"]},
    }  # fmt: skip
    r = legal_actions(make(seats, {"event": "draw", "seat": "S", "tile": "1z"}, rules))
    g = groups(r, "S")
    assert g["bu"] == [{"tile": "1z", "onto": "xuanfeng"}]
    assert set(g) <= {"bu", "discard", "declare"}
    assert tiles_of(g["discard"]) == sorted(["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s",
                                             "9s", "5m", "1z"])  # fmt: skip
    assert tiles_of(g.get("declare", [])) == sorted(a["tile"] for a in g["discard"] if a["tenpai"])


@pytest.mark.parametrize("rules", ["default", "mil2024"])
def test_no_bu_in_the_dealers_first_turn(rules):
    # E (dealer) laid out [1234z] in his first turn, before any discard, and drew its
    # replacement tile 1z from the tail: no 补 in that turn (the timing of special kongs: the
    # dealer's first turn adds nothing to them) -> special_kong_timing; he discards.
    seats = {
        "E": {"hand": "123m456p789s5m1z", "melds": [{"meld": "[1234z]"}], "first_turn": True},
        "S": {"count": 13}, "W": {"count": 13}, "N": {"count": 13},
    }  # fmt: skip
    d = make(seats, {"event": "tail_draw", "seat": "E", "tile": "1z"}, rules, tail_draws=1)
    r = legal_actions(d, explain=True)
    assert "bu" not in groups(r, "E")
    assert forbidden(r, "E", "bu") == [("1z", "special_kong_timing")]


def test_interpreted_engine_gives_the_same_actions():
    # `ccmj actions` runs the table engine's source as Python (one position: no Numba start-up);
    # that must answer exactly as the compiled engine does here, on every example position and
    # the hand-worked ones above (explain: the forbidden actions too), without loading Numba.
    import os
    import subprocess
    import sys

    cases = [p.read_text() for p in sorted(EXAMPLES.glob("*.json"))]
    cases += [json.dumps(_jiehu("mil2024")), json.dumps(_shoubayi("mil2024")),
              json.dumps(_dead_bao("mil2024"))]  # fmt: skip
    code = (
        "import json, sys\n"
        "from ccmj_cli.actions import legal_actions\n"
        "cases = json.loads(sys.stdin.read())\n"
        "out = [legal_actions(c, explain=True) for c in cases]\n"
        "print(json.dumps({'numba': 'numba' in sys.modules, 'out': out}))\n"
    )
    env = {**os.environ, "CCMJ_JIT": "0"}
    r = subprocess.run([sys.executable, "-W", "error::RuntimeWarning", "-c", code],
                       input=json.dumps(cases), capture_output=True, text=True, env=env,
                       check=False)  # fmt: skip
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    assert not got["numba"]
    want = json.loads(json.dumps([legal_actions(c, explain=True) for c in cases]))
    assert got["out"] == want


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.json")), ids=lambda p: p.name)
def test_cli_text_on_every_example(path):
    # every shipped example position prints as text (exit 0), and a win — 对宝 at a look
    # included — shows its fan and payments as the JSON gives them
    r = runner.invoke(app, ["actions", str(path)])
    assert r.exit_code == 0, r.output
    data = legal_actions(path.read_text())
    for seat in data["seats"].values():
        for acts in seat.values():
            for a in acts:
                if "score" in a:
                    pay = " ".join(
                        f"{k}{v:+d}" if v else f"{k}0" for k, v in a["score"]["total"].items()
                    )
                    assert f"fan {a['fan']}, pays {pay}" in r.output


# ------------------------------------------------------------------ the command without Typer
def _ccmj(*args, stdin=None):
    import subprocess

    r = subprocess.run([sys.executable, "-m", "ccmj_cli", *args], capture_output=True,
                       text=True, encoding="utf-8", input=stdin, check=False)  # fmt: skip
    return r.returncode, r.stdout, r.stderr


@pytest.mark.parametrize(
    ("path", "opts"),
    [
        ("claim.json", []),
        ("bao_look.json", ["--json"]),
        ("jiehu_mil2024.json", ["--explain", "--seat", "W"]),
        ("turn.json", ["--seat=X"]),  # a bad seat: one line, exit 2
        ("no_such_position.json", ["--json"]),  # an unreadable file: one line, exit 2
    ],
)
def test_the_command_answers_without_typer_as_typer_does(path, opts):
    # `ccmj actions POSITION [--seat S] [--explain] [--json]` is answered without Typer
    # (_fastpath); `--` sends the same command line through Typer: the same output, error line
    # and exit code
    p = str(EXAMPLES / path)
    fast = _ccmj("actions", p, *opts)
    typer_way = _ccmj("actions", *opts, "--", p)
    assert fast == typer_way
    assert fast[0] == (2 if path.startswith("no_") or "--seat=X" in opts else 0)


def test_only_a_command_line_it_understands_skips_typer():
    from ccmj_cli._fastpath import parse

    assert parse(["actions", "p.json", "--seat", "S", "--json"]) == ("p.json", "S", False, True)
    assert parse(["actions", "--explain", "-"]) == ("-", None, True, False)
    for argv in (["actions"], ["actions", "a", "b"], ["actions", "p", "--seat"],
                 ["actions", "p", "--seat", "--json"], ["actions", "p", "--help"],
                 ["actions", "--", "p"], ["actions", "p", "-x"], ["score", "p"], []):  # fmt: skip
        assert parse(argv) is None, argv
    code = (
        "import sys; from ccmj_cli._fastpath import run; "
        f"c = run(['actions', {str(EXAMPLES / 'turn.json')!r}]); "
        "sys.stderr.write(f'{c} {\"typer\" in sys.modules}')"
    )
    import subprocess

    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert r.stderr.endswith("0 False"), r.stderr
