"""Bad input found by a robustness sweep (2026-12-07): each case printed a traceback, exited 0
or 1 on input it should refuse, or dropped data without a word. The contract (README): a clear
one-line error, exit 2 (3 for a variant or policy file), batch modes reporting every bad row."""

import json
import signal
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ccmj_cli import interrupts
from ccmj_cli.cli import app

runner = CliRunner()
EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "positions"


def run(*args, input=None):
    return runner.invoke(app, [str(a) for a in args], input=input)


def refused(r, code=2, words=""):
    assert isinstance(r.exception, SystemExit | None), repr(r.exception)
    assert "Traceback" not in r.output
    assert r.exit_code == code, r.output
    assert words in r.output, r.output


@pytest.fixture(scope="module")
def log_lines(tmp_path_factory):
    path = tmp_path_factory.mktemp("log") / "log.jsonl"
    r = run("simulate", "-n", 2, "--seed", 3, "--no-progress", "--log", path)
    assert r.exit_code == 0, r.output
    return path.read_text().splitlines()


def damaged(tmp_path, lines, edit=None, header=None):
    """The log with hand 1 (and the header) edited; the path written."""
    head = json.loads(lines[0])
    if header:
        header(head)
    hand = json.loads(lines[1])
    if edit:
        edit(hand)
    path = tmp_path / "damaged.jsonl"
    path.write_text(json.dumps(head) + "\n" + json.dumps(hand) + "\n")
    return path


# --------------------------------------------------------------------------- policy files
@pytest.mark.parametrize(
    "text, words",
    [
        (b"\xff\xfec\x00", "not valid UTF-8"),
        (b"extends: [baseline]\n", "bad extends"),
        (b"extends: {a: 1}\n", "bad extends"),
        (b"call: 1\ncall: 2\n", "given twice"),
        (b"call: true\n", "bad value for 'call'"),
    ],
)
def test_a_bad_policy_file_is_exit_3(tmp_path, text, words):
    p = tmp_path / "p.yaml"
    p.write_bytes(text)
    refused(run("simulate", "-n", 2, "--no-progress", "--policy", p), 3, words)


def test_empty_names_are_refused_not_read_as_the_default():
    refused(run("simulate", "-n", 2, "--no-progress", "--policy", ""), 2, "bad --policy ''")
    refused(run("simulate", "-n", 2, "--no-progress", "--compare", "", ""), 2, "--compare")
    refused(run("simulate", "-n", 2, "--no-progress", "--compare", "baseline", "rules:"), 3)
    refused(run("rules", "--preset", ""), 3, "empty")


def test_an_extends_that_names_nothing_says_so(tmp_path):
    p = tmp_path / "room.yaml"
    p.write_text("extends: nopreset\n")
    refused(run("rules", "--rules", p), 3, "key 'extends'")


# --------------------------------------------------------------------------- referee: logs
@pytest.mark.parametrize(
    "edit, words",
    [
        (lambda h: h["wall"].__setitem__(0, h["wall"][1]), "four times"),
        (lambda h: h.__setitem__("dice", [0, 0]), "dice"),
        (lambda h: h.__setitem__("dice", [7, 9]), "dice"),
        (lambda h: h["events"].__setitem__(0, [0.5, 1, 1, 0, 0]), "events"),
        (lambda h: h["events"].__setitem__(0, [-1, -1, -1, -1, -1]), "events"),
        (lambda h: h["result"].__setitem__("winner", "Q"), "result.winner"),
    ],
)
def test_a_damaged_log_hand_is_refused_as_replay_refuses_it(tmp_path, log_lines, edit, words):
    path = damaged(tmp_path, log_lines, edit)
    refused(run("referee", path), 2, words)
    refused(run("replay", path, "--hand", 1, "--verify"), 2)


@pytest.mark.parametrize("rv0", [-99999, 2**63, 99])
def test_a_log_header_out_of_the_engines_range_is_refused(tmp_path, log_lines, rv0):
    path = damaged(tmp_path, log_lines, header=lambda h: h["rv"].__setitem__(0, rv0))
    refused(run("referee", path), 2, "'rv' is not the engine's")


def test_a_hand_without_events_is_a_verdict_not_a_traceback(tmp_path, log_lines):
    path = damaged(tmp_path, log_lines, lambda h: h.__setitem__("events", []))
    refused(run("referee", path), 1, "no event")


def test_a_log_without_hands_holds_no_hand(tmp_path, log_lines):
    path = tmp_path / "header.jsonl"
    path.write_text(log_lines[0] + "\n")
    refused(run("referee", path), 2, "holds no hand")


# --------------------------------------------------------------------------- referee: records
@pytest.mark.parametrize(
    "data, words",
    [
        ({"hands": []}, "holds no hand"),
        ({"hands": [{"hand": "x", "dealer": "E", "deal": {}, "events": []}]}, "hands[0].hand"),
    ],
)
def test_a_bad_json_record_is_exit_2(tmp_path, data, words):
    p = tmp_path / "r.json"
    p.write_text(json.dumps(data))
    refused(run("referee", p), 2, words)
    refused(run("review", p, "--search", "quick"), 2, words)


def test_deeply_nested_json_is_exit_2(tmp_path):
    deep = "[" * 100_000 + "]" * 100_000
    p = tmp_path / "r.json"
    p.write_text('{"hands": ' + deep + "}")
    refused(run("referee", p), 2, "not valid JSON")
    q = tmp_path / "position.json"
    q.write_text(deep)
    refused(run("actions", q), 2, "not JSON")


def test_a_bad_special_line_is_a_reading_error_with_its_line(tmp_path):
    p = tmp_path / "r.txt"
    p.write_text("hand 1\ndealer E\ndeal E 1m\nW special 5m\n")
    refused(run("referee", p), 2, "line 4: '5m' is not a special kong")


def test_hand_without_at_is_refused(tmp_path, log_lines):
    path = damaged(tmp_path, log_lines)
    refused(run("referee", path, "--hand", 1), 2, "--at")


# --------------------------------------------------------------------------- other commands
def test_inline_position_rules_are_named_as_written_and_leave_no_scratch(tmp_path):
    import glob
    import tempfile

    before = set(glob.glob(f"{tempfile.gettempdir()}/ccmj-position-*"))
    pos = json.loads((EXAMPLES / "claim.json").read_text())
    pos["rules"] = {"jiahu": "often"}
    p = tmp_path / "p.json"
    p.write_text(json.dumps(pos))
    refused(run("actions", p), 3, "the position's 'rules': key 'jiahu'")
    assert set(glob.glob(f"{tempfile.gettempdir()}/ccmj-position-*")) == before


def test_simulate_log_to_dash_is_refused_not_a_file_named_dash(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    refused(run("simulate", "-n", 2, "--no-progress", "--log", "-"), 2, "--log")
    refused(run("simulate", "-n", 2, "--no-progress", "--csv", "-"), 2, "--csv")
    assert not (tmp_path / "-").exists()


def test_odds_stdin_refuses_plot(tmp_path):
    refused(run("odds", "-", "-n", 3, "--plot", tmp_path / "x.png", input="123m456p789s1123s\n"),
            2, "--plot")  # fmt: skip


def test_a_bad_seat_is_refused_whatever_the_hand():
    refused(run("bao", "123m456p789s1123s", "-b", "1s", "--seat", "Q"), 2, "bad seat")
    refused(run("score", "123m456p46s55s111z", "--win", "5s", "--seat", ""), 2, "bad seat")


def test_batch_an_unbalanced_quote_is_reported_not_swallowing_rows():
    rows = "123m456p46s55s111z,5s\n"
    text = "hand,win\n" + rows + '"' + rows + rows * 5
    r = run("batch", "-", input=text)
    refused(r, 4, "line 3: the CSV cannot be read from here on")
    assert r.stdout.count("true") == 1  # the row before it scored; the rest named, not dropped


# --------------------------------------------------------------------------- interrupts
def test_a_signal_inside_a_deferred_block_acts_when_it_ends(monkeypatch):
    seen = []
    monkeypatch.setattr(interrupts, "_signal", [])
    monkeypatch.setattr(interrupts, "_message", interrupts.STARTING)
    interrupts.work_started(lambda: seen.append("act"))
    try:
        with interrupts.deferred():
            interrupts._on_signal(signal.SIGINT, None)
            seen.append("inside")
        assert seen == ["inside", "act"]
    finally:
        interrupts.work_ended()


def test_a_hand_number_written_twice_is_refused(tmp_path):
    body = (EXAMPLES.parent / "records" / "example.txt").read_text().replace("rules default\n", "")
    p = tmp_path / "twice.txt"
    p.write_text("hand 1\n" + body + "hand 1\n" + body)
    refused(run("referee", p), 2, "hand 1 is written twice")


def test_at_on_a_hand_without_events_says_so(tmp_path, log_lines):
    path = damaged(tmp_path, log_lines, lambda h: h.__setitem__("events", []))
    refused(run("referee", path, "--at", 0), 2, "has no event")


def _listener(banner: bytes | None):
    """A local TCP server that is not a Dask scheduler: it sends ``banner`` to whoever connects
    (None: says nothing). Returns (address, the socket to close)."""
    import socket
    import threading

    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen()

    def serve():
        conns = []
        try:
            while True:
                c, _ = srv.accept()
                conns.append(c)
                if banner:
                    c.sendall(banner)
        except OSError:
            pass

    threading.Thread(target=serve, daemon=True).start()
    return f"tcp://127.0.0.1:{srv.getsockname()[1]}", srv


@pytest.mark.parametrize(
    "banner, words", [(b"SSH-2.0-x\r\n" * 10, "not a Dask scheduler"), (None, "no answer")]
)
def test_a_scheduler_address_that_is_not_dask_is_exit_2(monkeypatch, banner, words):
    from ccmj_cli import simulate as S

    monkeypatch.setattr(S, "DASK_ANSWER_S", 2)
    address, srv = _listener(banner)
    try:
        refused(run("simulate", "-n", 3, "--no-progress", "--scheduler", address), 2, words)
    finally:
        srv.close()


@pytest.mark.parametrize("threads", ["1", "2"])
def test_odds_stdin_a_huge_line_is_its_error_row_and_the_others_are_answered(threads):
    good = "123m456p789s1123s\n"
    r = run("odds", "-", "-n", 3, "--json", "--threads", threads,
            input=good * 3 + "1m" * 40_000 + "\n" + good * 2)  # fmt: skip
    refused(r, 4)
    rows = [json.loads(x) for x in r.stdout.splitlines()]
    assert len(rows) == 6
    assert [x.get("line") for x in rows] == [None, None, None, 4, None, None]
    assert "longer than 65,536 characters" in rows[3]["error"]


def test_a_log_with_a_hand_written_twice_is_damaged(tmp_path, log_lines):
    path = tmp_path / "twice.jsonl"
    path.write_text("\n".join([log_lines[0], log_lines[1], log_lines[1]]) + "\n")
    refused(run("referee", path), 2, "line 3: hand 1 is written twice")
    refused(run("review", path, "--search", "quick"), 2, "line 3: hand 1 is written twice")


def test_odds_says_when_the_policy_asked_for_cannot_play():
    r = run("odds", "123m456p789s1123s", "-n", 3, "--opponents", "random", "--policy", "solver",
            "--trials", 100, "--seed", 1, "--json")  # fmt: skip
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["policy"] == "baseline" and "--policy solver" in d["exact_note"]


def test_odds_value_and_json_together_are_refused():
    refused(run("odds", "123m456p789s1123s", "-n", 3, "--value", "p_win", "--json"), 2, "not both")


def test_odds_empty_bao_is_refused():
    refused(run("odds", "123m456p789s1123s", "-n", 3, "--bao", ""), 2, "--bao ''")


def test_a_plot_to_a_folder_nothing_can_be_written_in_is_refused_before_the_work():
    refused(run("odds", "123m456p789s1123s", "-n", 3, "--plot", "/proc/x.png"), 2, "/proc/x.png")
