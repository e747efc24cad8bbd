"""ccmj referee: recorded hands replayed by the table engine in its scripted mode.

Simulated hands are legal by construction (the engine made them): the referee passes every one,
from the log directly and rewritten in the text form without its wall. One illegal change to a
logged hand (a property test) is flagged at or before the changed event, every time. Hand-worked
text records check single rules with their codes.
"""

import copy
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from ccmj_cli._kernels.table import layout as TL
from ccmj_cli.cli import app
from ccmj_cli.referee import load_record, referee, text_record

runner = CliRunner()
ROOM = str(Path(__file__).parent.parent / "examples" / "records" / "room.yaml")
EXAMPLE = Path(__file__).parent.parent / "examples" / "records"


def _log(tmp_path_factory, name, *args, n=40):
    path = tmp_path_factory.mktemp("ref") / f"{name}.log"
    r = runner.invoke(app, ["simulate", "-n", str(n), "--seed", "11", "--no-progress",
                            "--log", str(path), *args])  # fmt: skip
    assert r.exit_code == 0, r.output
    return path


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    return {
        "default": _log(tmp_path_factory, "default"),
        "mil2024": _log(tmp_path_factory, "mil", "--preset", "mil2024"),
        "room": _log(tmp_path_factory, "room", "--rules", ROOM),
    }


def _hands(path):
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    return json.loads(lines[0]), [json.loads(x) for x in lines[1:] if x.strip()]


def _write(tmp_path, header, hands, name="x.log"):
    p = tmp_path / name
    p.write_text("\n".join(json.dumps(x) for x in [header, *hands]) + "\n", encoding="utf-8")
    return p


@pytest.mark.parametrize("which", ["default", "mil2024", "room"])
def test_every_simulated_hand_is_legal(logs, which):
    verdicts = referee(logs[which])
    assert len(verdicts) == 40
    assert [v["problems"] for v in verdicts if not v["ok"]] == []
    # the settlement recomputed is the log's own (payments and kong money)
    _, hands = _hands(logs[which])
    for v, h in zip(verdicts, hands, strict=True):
        assert v["settlement"]["payout"] == h["result"]["payout"]
        assert v["settlement"]["kong_money"] == h["result"]["kong_money"]


@pytest.mark.parametrize("which", ["default", "mil2024", "room"])
def test_simulated_hands_written_by_hand_without_the_wall_are_legal(logs, which, tmp_path):
    header, hands = _hands(logs[which])
    rules = {"default": "default", "mil2024": "mil2024", "room": ROOM}[which]
    text = f"rules {rules}\n" + "".join(
        text_record(h, header["tp"][TL.TP_BAO_DICE], hand_line=True) for h in hands
    )
    p = tmp_path / "game.txt"
    p.write_text(text, encoding="utf-8")
    verdicts = referee(p)
    assert [(v["hand"], v["problems"]) for v in verdicts if not v["ok"]] == []


# ------------------------------------------------------------------ one illegal change
MUTATIONS = ["draw", "claim_seat", "locked_discard", "after_end", "bao", "look", "payment"]


def _candidates(h, kind):
    """Event indices where the mutation ``kind`` applies to the logged hand ``h``."""
    evs = h["events"]
    declared = set()
    out = []
    last_draw = {}
    for i, (k, s, t, a, b) in enumerate(evs):
        if kind == "draw" and k in (TL.EV_DRAW, TL.EV_TAIL):
            out.append(i)
        elif kind == "claim_seat" and k in (TL.EV_PUNG, TL.EV_CHOW, TL.EV_MINGKONG):
            out.append(i)
        elif kind == "locked_discard" and k == TL.EV_DISCARD and s in declared:
            if i > 0 and evs[i - 1][0] in (TL.EV_DRAW, TL.EV_TAIL) and evs[i - 1][1] == s:
                out.append(i)
        elif kind == "bao" and k == TL.EV_BAO:
            out.append(i)
        elif kind == "look" and k == TL.EV_DRAW and s not in declared:
            out.append(i)
        if k == TL.EV_DECLARE:
            declared.add(s)
        if k == TL.EV_DRAW:
            last_draw[s] = i
    if kind in ("after_end", "payment"):
        out = [len(evs) - 1]
    return out


def _mutate(h, kind, i):
    h = copy.deepcopy(h)
    evs = h["events"]
    k, s, t, a, b = evs[i]
    if kind == "draw":
        evs[i][2] = (t + 1) % 34  # the wall's next tile is t: any other is not
    elif kind == "claim_seat":
        evs[i][1] = b  # the discarder claims his own tile (out of turn)
    elif kind == "locked_discard":
        evs[i][2] = (t + 1) % 34  # a locked hand discards the tile it drew, nothing else
    elif kind == "after_end":
        evs.append([TL.EV_DRAW, 0, 0, 0, 0])
        return h, len(evs) - 1
    elif kind == "bao":
        evs[i][2] = (t + 1) % 34
    elif kind == "look":
        evs.insert(i, [TL.EV_LOOK, s, 0, 0, 0])
    elif kind == "payment":
        p = h["result"]["payout"]
        p["E"] += 1
        p["S"] -= 1
    return h, i


@settings(max_examples=60)
@given(data=st.data())
def test_one_illegal_change_is_flagged_at_or_before_it(logs, tmp_path_factory, data):
    which = data.draw(st.sampled_from(sorted(logs)))
    header, hands = _hands(logs[which])
    kind = data.draw(st.sampled_from(MUTATIONS))
    options = [(j, i) for j, h in enumerate(hands) for i in _candidates(h, kind)]
    if not options:
        return
    j, i = data.draw(st.sampled_from(options))
    bad, at = _mutate(hands[j], kind, i)
    p = _write(tmp_path_factory.mktemp("mut"), header, [bad])
    (v,) = referee(p)
    assert not v["ok"], (kind, i)
    assert v["problems"][0]["event"] <= max(at, len(bad["events"]) - 1), (kind, v["problems"])


def test_a_draw_that_is_not_the_wall_tile_names_its_rule(logs, tmp_path):
    header, hands = _hands(logs["default"])
    h = hands[0]
    i = next(i for i, e in enumerate(h["events"]) if e[0] == TL.EV_DRAW)
    bad, _ = _mutate(h, "draw", i)
    (v,) = referee(_write(tmp_path, header, [bad]))
    assert v["problems"][0] == {
        "event": i, "rule": "not_wall_tile", "message": v["problems"][0]["message"]
    }


# ------------------------------------------------------------------ hand-worked text records
def _text(tmp_path, body, rules="default"):
    p = tmp_path / "r.txt"
    p.write_text(f"rules {rules}\n" + body, encoding="utf-8")
    return p


def test_example_game_is_legal_and_settles():
    (v,) = referee(EXAMPLE / "example.txt")
    assert v["ok"], v["problems"]


def test_cli_exit_codes_and_json(tmp_path, logs):
    r = runner.invoke(app, ["referee", str(logs["default"]), "--json"])
    assert r.exit_code == 0
    rows = [json.loads(x) for x in r.output.splitlines()]
    assert len(rows) == 40 and all(x["ok"] and x["problems"] == [] for x in rows)
    assert set(rows[0]) == {"hand", "ok", "problems", "settlement"}
    header, hands = _hands(logs["default"])
    bad, _ = _mutate(hands[0], "payment", 0)
    r = runner.invoke(app, ["referee", str(_write(tmp_path, header, [bad, hands[1]])), "--json"])
    assert r.exit_code == 1
    first = json.loads(r.output.splitlines()[0])
    assert first["problems"][0]["rule"] == "wrong_settlement"
    p = tmp_path / "bad.txt"
    p.write_text("dealer E\nE dance 5m\n", encoding="utf-8")
    r = runner.invoke(app, ["referee", str(p)])
    assert r.exit_code == 2 and "line 2" in r.output and "dance" in r.output
    p.write_text("rules no-such-rules.yaml\ndealer E\n", encoding="utf-8")
    r = runner.invoke(app, ["referee", str(p)])
    assert r.exit_code in (2, 3)


def test_at_gives_the_position_where_the_next_event_is_legal():
    """--at N is a position `ccmj actions` reads, and at every event of the example game the
    record's next action (a discard, a claim, a win) is among the legal actions it lists for
    that seat: the referee and actions are one engine."""
    from ccmj_cli.actions import legal_actions
    from ccmj_cli.referee import state_at

    rec = load_record(str(EXAMPLE / "example.txt"))
    h = rec.all_hands()[0]
    names = {TL.EV_DISCARD: "discard", TL.EV_CHOW: "chow", TL.EV_PUNG: "pung", TL.EV_WIN: "win"}
    checked = 0
    for i in range(len(h.events) - 1):
        s = state_at(rec, 0, i)
        assert s["reached"] and "position" in s, (i, s.get("position_error"))
        k, seat = int(h.events[i + 1][0]), "ESWN"[int(h.events[i + 1][1])]
        if k in names:
            acts = legal_actions(s["position"])["seats"].get(seat, {})
            assert names[k] in acts, (i, names[k], seat, acts)
            checked += 1
    assert checked >= 15
    # the position after S's first discard: the others may claim it, W may chow (as he does)
    first = legal_actions(state_at(rec, 0, 0)["position"])
    assert first["phase"] == "claim" and "chow" in first["seats"]["W"]


def test_at_on_a_log_whose_rules_file_is_gone(tmp_path):
    """A log made with --rules FILE carries every option of its variant: with the file changed
    (or gone) the log is still refereed under its own rules, and --at gives a position with
    those rules written inline, which `ccmj actions` reads (before, only the file's name was
    kept and --at gave no position)."""
    from ccmj_cli.actions import legal_actions
    from ccmj_cli.referee import state_at

    rules = tmp_path / "myroom.yaml"
    rules.write_text("extends: mil2024\nbao_dice: 1\n", encoding="utf-8")
    log = tmp_path / "g.log"
    r = runner.invoke(app, ["simulate", "-n", "3", "--seed", "4", "--no-progress",
                            "--rules", str(rules), "--log", str(log)])  # fmt: skip
    assert r.exit_code == 0, r.output
    header = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    assert header["variant"]["bao_dice"] == 1 and header["variant"]["sanyaoji"] is True
    rules.write_text("extends: default\n", encoding="utf-8")  # the room's file changed since
    assert all(v["ok"] for v in referee(str(log)))
    s = state_at(load_record(str(log)), 0, 5)
    assert "position" in s, s.get("position_error")
    inline = s["position"]["rules"]
    assert isinstance(inline, dict) and inline["bao_dice"] == 1 and inline["sanyaoji"] is True
    assert legal_actions(s["position"])["seats"]
    # a log whose rules still load names them (a preset), not every option
    plain = tmp_path / "p.log"
    r = runner.invoke(app, ["simulate", "-n", "1", "--seed", "4", "--no-progress",
                            "--preset", "mil2024", "--log", str(plain)])  # fmt: skip
    assert state_at(load_record(str(plain)), 0, 3)["position"]["rules"] == "mil2024"


def test_at_every_special_kong_the_next_one_is_offered(logs):
    """At --at a 3-tile special kong (喜杠, 幺蛋, 九蛋), the seat is still in its first turn: a
    second special kong the record lays next is among the legal actions (the stop cleared the
    first-turn flag, so actions called it special_kong_timing), and no 自摸 is offered before
    a tile comes (the engine judges a win when one comes; the position says special_laid)."""
    from ccmj_cli.actions import legal_actions
    from ccmj_cli.referee import state_at

    seen = 0
    for which in ("default", "mil2024"):
        rec = load_record(str(logs[which]))
        for k, h in enumerate(rec.all_hands()):
            ev = h.events
            for i in range(len(ev) - 1):
                if int(ev[i][0]) != TL.EV_SPECIAL or int(ev[i][4]) != 3:
                    continue
                p = state_at(rec, k, i)["position"]
                seat = "ESWN"[int(ev[i][1])]
                assert p["last"].get("special_laid") is True, (which, h.number, i)
                acts = legal_actions(p)["seats"].get(seat, {})
                assert "win" not in acts
                if int(ev[i + 1][0]) == TL.EV_SPECIAL and int(ev[i + 1][1]) == int(ev[i][1]):
                    assert "special_kong" in acts, (which, h.number, i, acts)
                    seen += 1
    assert seen >= 1


def test_at_the_roll_and_the_look_stop_before_the_draw():
    """--at the bao's roll / S's look: S has looked (at the look) but not yet drawn his 4m, and
    the wall still holds it (the replay stops at the event, not after the draw behind it)."""
    from ccmj_cli.referee import state_at

    rec = load_record(str(EXAMPLE / "example.txt"))
    h = rec.all_hands()[0]
    kinds = [int(e[0]) for e in h.events]
    roll, look = kinds.index(TL.EV_BAO), kinds.index(TL.EV_LOOK)
    before = state_at(rec, 0, roll - 1)["position"]
    for i, looked in ((roll, False), (look, True)):
        pos = state_at(rec, 0, i)["position"]
        s = pos["seats"]["S"]
        assert len(s["hand"].split("[")[0]) - sum(ch.isalpha() for ch in s["hand"]) == 13
        assert s["looked"] is looked and pos["wall"]["left"] == before["wall"]["left"], (i, pos)


def test_at_on_a_log_hand(logs):
    from ccmj_cli.referee import state_at

    rec = load_record(str(logs["default"]))
    s = state_at(rec, 0, 0)  # after the first event (the dealer's discard or a kong)
    assert s["reached"] and s["position"]["dealer"] in "ESWN"


def _edit(tmp_path, old, new, count=1):
    """The example game with one line changed (``new`` None: the line removed)."""
    lines = (EXAMPLE / "example.txt").read_text(encoding="utf-8").splitlines()
    i = [k for k, x in enumerate(lines) if x == old][count - 1]
    if new is None:
        del lines[i]
    elif isinstance(new, list):
        lines[i : i + 1] = new
    else:
        lines[i] = new
    p = tmp_path / "edited.txt"
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    events = [x for x in lines if x and not x.startswith(("#", "rules", "dealer", "deal "))]
    return p, events


# Each case: one line of the example game changed, the rule it breaks, worked out by reading the
# game: after "S declare" S is locked, so at "S draw 4m" he must discard the 4m (locked_hand);
# W has not declared, so a look before his draw is refused (look_without_declare); N sits two
# seats after S, so he cannot chow S's 8m (chow_not_from_left); N holds no 6z (tile_not_held);
# W holds one 2z when N discards his, so no pung (tile_not_held); after S's win nothing more
# happens (wall_ended); the payout moved by one (wrong_settlement).
CASES = [
    ("S discard 4m", "S discard 5m", "locked_hand", "S discard 5m"),
    ("W draw 7m", ["W look 9m", "W draw 7m"], "look_without_declare", "W look 9m"),
    ("W chow 8m 678m from S", "N chow 8m 678m from S", "chow_not_from_left", None),
    ("N discard 2z", "N discard 6z", "tile_not_held", "N discard 6z"),
    ("E draw 2p", ["W pung 2z from N", "E draw 2p"], "tile_not_held", "W pung 2z from N"),
    ("payout E -4 S 16 W -4 N -8", ["E draw 1m", "payout E -4 S 16 W -4 N -8"], "wall_ended",
     "E draw 1m"),
    ("payout E -4 S 16 W -4 N -8", "payout E -3 S 16 W -5 N -8", "wrong_settlement", None),
]  # fmt: skip


@pytest.mark.parametrize(("old", "new", "rule", "line"), CASES)
def test_hand_worked_illegal_records(tmp_path, old, new, rule, line):
    p, events = _edit(tmp_path, old, new)
    (v,) = referee(p)
    assert not v["ok"]
    got = v["problems"][0]
    assert got["rule"] == rule, got
    if line is not None:
        assert got["event"] == events.index(line)


# The first 24 events of a simulated hand (seed 7, hand 96 of a default log): S lays out 九蛋
# [9m9p9s], later draws the fourth 9p and adds it (补); N holds 99p and robs it by 碰 (抢叉).
ROBBED = """rules default
dealer W
deal W 167m13457p336s16z6s
deal N 29m1699p279s1167z
deal E 459m127p449s2346z
deal S 49m3589p12889s55z
W discard 1z
N pung 1z from W
N discard 6z
E draw 8p
E discard 6z
S draw 6m
S special 9m9p9s
S discard 8p
W draw 7z
W discard 6z
N draw 7m
N discard 7z
E draw 1m
E discard 2z
S draw 6m
S discard 6m
W draw 2p
W discard 1m
N draw 4z
N discard 4z
E draw 3z
E discard 1m
S draw 9p
N robpung 9p from S
N discard 2m
"""


def test_at_the_robbed_kong(tmp_path):
    """--at the 抢叉 event: the table as it was when S added his 9p (a 补, which may be robbed),
    before N took it: `ccmj actions` there offers N the 碰 of it (and the pass)."""
    from ccmj_cli.actions import legal_actions
    from ccmj_cli.referee import state_at

    p = tmp_path / "robbed.txt"
    p.write_text(ROBBED, encoding="utf-8")
    rec = load_record(str(p))
    kinds = [int(e[0]) for e in rec.all_hands()[0].events]
    rob = kinds.index(TL.EV_KONG_ROBBED)
    pos = state_at(rec, 0, rob)["position"]
    assert pos["last"] == {"event": "kong_add", "seat": "S", "tile": "9p", "kind": "bu"}
    r = legal_actions(pos)
    assert r["phase"] == "rob"
    assert r["seats"]["N"]["rob_pung"] == [{"tile": "9p", "from": "S"}]
    assert r["claims"]["takes"]["seat"] == "N"


def test_at_the_rob_pung_round_trips(tmp_path):
    """--at the 抢叉 pung (the event after the robbing) and at N's discard after it: N's [999p]
    is robbed from S's 补 (``robbed``), so it takes no discard of S's; each position reads back
    unchanged, and `ccmj actions` there offers what the record does next (N discards 2m)."""
    from ccmj_cli.actions import legal_actions
    from ccmj_cli.position import Position, PositionError

    p = tmp_path / "robbed.txt"
    p.write_text(ROBBED, encoding="utf-8")
    rec = load_record(str(p))
    kinds = [int(e[0]) for e in rec.all_hands()[0].events]
    pung = kinds.index(TL.EV_ROB_PUNG)
    r = runner.invoke(app, ["referee", str(p), "--at", str(pung)])
    assert r.exit_code == 0, r.output
    at = json.loads(r.output)
    assert at["reached"] and "position" in at, at
    pos = at["position"]
    assert pos["last"] == {"event": "claim", "seat": "N"}
    assert pos["seats"]["N"]["melds"][-1] == {"meld": "[999p]", "kind": "pung", "from": "S",
                                              "robbed": True}  # fmt: skip
    assert not any(t.endswith("*") for t in pos["seats"]["S"]["pond"])
    assert Position.from_json(json.dumps(pos)).to_json() == pos
    f = tmp_path / "pos.json"
    f.write_text(json.dumps(pos), encoding="utf-8")
    r = runner.invoke(app, ["actions", str(f), "--json", "--seat", "N"])
    assert r.exit_code == 0, r.output
    acts = json.loads(r.output)
    assert acts["phase"] == "turn"
    assert "2m" in [a["tile"] for a in acts["seats"]["N"]["discard"]]
    after = legal_actions(state_at_json(rec, pung + 1))
    assert after["phase"] == "claim"
    # without the flag the pung would take a discard of S's that S's pond does not mark
    bad = copy.deepcopy(pos)
    del bad["seats"]["N"]["melds"][-1]["robbed"]
    with pytest.raises(PositionError, match="seats.S.pond"):
        Position.from_json(bad)
    # a robbed pung names a seat that was adding a 补 (one with a special kong) ...
    bad = copy.deepcopy(pos)
    bad["seats"]["N"]["melds"][0] |= {"robbed": True}  # ([111z] from W: W has none)
    with pytest.raises(PositionError, match=r"seats.N.melds\[0\].robbed"):
        Position.from_json(bad)
    # ... and only a pung robs it
    bad = copy.deepcopy(pos)
    bad["seats"]["S"]["melds"][0] |= {"robbed": True}
    with pytest.raises(PositionError, match=r"seats.S.melds\[0\].robbed"):
        Position.from_json(bad)


def state_at_json(rec, i):
    from ccmj_cli.referee import state_at

    s = state_at(rec, 0, i)
    assert "position" in s, s.get("position_error")
    return s["position"]


def test_at_under_a_rules_file_gives_a_position_that_loads_anywhere(tmp_path):
    # a record whose rules line names a rules file: --at gives the position (not the engine's
    # arrays), with every option inline (the file's name alone would not load elsewhere), and
    # `ccmj actions` reads it back from another folder
    rules = tmp_path / "myroom.yaml"
    rules.write_text((EXAMPLE / "room.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    text = (EXAMPLE / "example.txt").read_text(encoding="utf-8")
    p = tmp_path / "game.txt"
    p.write_text(text.replace("rules default", f"rules {rules}"), encoding="utf-8")
    r = runner.invoke(app, ["referee", str(p), "--at", "12"])
    assert r.exit_code == 0, r.output
    at = json.loads(r.output)
    assert "position" in at, at
    pos = at["position"]
    assert isinstance(pos["rules"], dict) and pos["rules"]["jiahu"] == "any"
    rules.unlink()
    f = tmp_path / "pos.json"
    f.write_text(json.dumps(pos), encoding="utf-8")
    r = runner.invoke(app, ["actions", str(f), "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["on_turn"] == "N"
    from ccmj_cli.position import variant_of

    assert variant_of(pos["rules"]).vector.tolist() == load_record(str(p)).rv.tolist()


def test_at_after_a_claim_whose_record_leaves_out_from(tmp_path):
    # 'W chow 8m 678m' without 'from S' (the record may leave it out): --at after it gave a
    # traceback (the position read the open field as a seat); the position says W took S's 8m
    text = (EXAMPLE / "example.txt").read_text(encoding="utf-8")
    p = tmp_path / "game.txt"
    p.write_text(text.replace("W chow 8m 678m from S", "W chow 8m 678m"), encoding="utf-8")
    r = runner.invoke(app, ["referee", str(p), "--at", "5"])
    assert r.exit_code == 0, r.output
    pos = json.loads(r.output)["position"]
    assert pos["seats"]["W"]["melds"] == [{"meld": "[678m]", "kind": "chow", "from": "S"}]
    assert pos["seats"]["S"]["pond"] == ["8m*"]


# N's 补 onto his 3-tile 九蛋 robbed by E's 碰 (抢叉): E's turn is a claim's like any other,
# nothing of N's 'laid a 3-tile kong' is his
LAID_THEN_ROBBED = Path(__file__).parent / "data" / "records" / "laid_then_robbed.txt"


def test_the_seat_that_robs_a_bu_by_pung_takes_its_turn_as_after_a_claim():
    from ccmj_cli.actions import legal_actions
    from ccmj_cli.referee import state_at

    rec = load_record(str(LAID_THEN_ROBBED))
    kinds = [int(e[0]) for e in rec.all_hands()[0].events]
    pung = kinds.index(TL.EV_ROB_PUNG)
    assert kinds[pung - 2 : pung] == [TL.EV_SPECIAL, TL.EV_KONG_ROBBED]
    at = state_at(rec, 0, pung)
    assert "position" in at, at  # (was: 'E is not on turn with a 3-tile special kong laid')
    pos = at["position"]
    assert pos["last"] == {"event": "claim", "seat": "E"}
    acts = legal_actions(pos, "E")
    assert "1z" in [a["tile"] for a in acts["seats"]["E"]["discard"]]


def test_a_rules_file_beside_the_record(tmp_path, monkeypatch):
    # 'rules room.yaml' with the room's file beside the record: found there whatever the
    # current folder (its rules settle the example's hand differently: N covers all, 包庄)
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "room.yaml").write_text((EXAMPLE / "room.yaml").read_text("utf-8"),
                                                  encoding="utf-8")  # fmt: skip
    text = (EXAMPLE / "example.txt").read_text(encoding="utf-8")
    p = tmp_path / "games" / "g1.txt"
    p.write_text(text.replace("rules default", "rules room.yaml"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    (v,) = referee(str(p))
    assert v["settlement"]["payout"] == {"E": 0, "S": 16, "W": 0, "N": -16}
    from ccmj_cli.review import read_record

    (rec,) = read_record(str(p))
    from ccmj_cli.rules import load_variant

    assert rec.rv.tolist() == list(load_variant(ROOM).vector) and rec.rules.name == "room"
