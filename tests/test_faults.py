"""Fault injection: the command line as a user's shell runs it, under hostile conditions.

No traceback, no lost file, no hang: same input and output file (also through links, or stdout
appended to the input), closed stdin, output to a missing folder or a full device, oversized
CSV fields, UTF-16 input, YAML bombs, self-extending files, truncated and garbage logs,
corrupted and unwritable caches. Each test runs ``ccmj`` in its own process (cheap: the
single-hand commands run interpreted) with a timeout, so a hang fails the test instead of the
suite; tests that need a fresh cache point ``CCMJ_CACHE_DIR`` / ``XDG_CACHE_HOME`` / ``HOME`` at
temporary folders.
"""

import csv
import io
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HAND = "111m456p789s2345s"
WIN_ROW = "123m456p46s55s111z,5s,self"
TIMEOUT = 120  # a compiled command's first run in a fresh process; a hang fails the test


def ccmj(*args, stdin=None, close_stdin=False, env=None, cwd=None, timeout=TIMEOUT):
    """``ccmj ARGS`` in its own process, importing this checkout: (exit code, stdout, stderr)."""
    full_env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    full_env.pop("CCMJ_JIT", None)
    kw = {}
    if close_stdin:
        kw["preexec_fn"] = lambda: os.close(0)
    elif isinstance(stdin, (str, bytes)):
        kw["input"] = stdin.encode() if isinstance(stdin, str) else stdin
    else:
        kw["stdin"] = stdin if stdin is not None else subprocess.DEVNULL
    r = subprocess.run(
        [sys.executable, "-m", "ccmj_cli", *map(str, args)],
        capture_output=True, env=full_env, cwd=cwd, timeout=timeout, **kw,
    )  # fmt: skip
    return r.returncode, r.stdout.decode("utf-8", "replace"), r.stderr.decode("utf-8", "replace")


def one_line_error(code, out, err, rc):
    """The failure shape every bad input must have: exit ``rc``, one `error: ...` line."""
    assert code == rc, (code, out, err)
    assert "Traceback" not in err, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


# --- item 1: no command destroys its input -------------------------------------------------


@pytest.fixture
def wins(tmp_path):
    path = tmp_path / "x.csv"
    path.write_text(f"hand,win,how\n{WIN_ROW}\n", encoding="utf-8")
    return path


def test_batch_output_that_is_its_input_is_refused_and_the_input_kept(wins, tmp_path):
    before = wins.read_bytes()
    (tmp_path / "sym.csv").symlink_to(wins)
    os.link(wins, tmp_path / "hard.csv")
    for inp, out in (("x.csv", "x.csv"), ("x.csv", "sym.csv"), ("hard.csv", "x.csv"),
                     ("sym.csv", "./x.csv")):  # fmt: skip
        line = one_line_error(*ccmj("batch", inp, "-o", out, cwd=tmp_path), 2)
        assert "same file" in line
        assert wins.read_bytes() == before


def test_batch_stdout_appended_to_its_input_is_refused(wins, tmp_path):
    """`ccmj batch x.csv >> x.csv` would read its own output back for ever."""
    before = wins.read_bytes()
    with open(wins, "ab") as out:
        r = subprocess.run(
            [sys.executable, "-m", "ccmj_cli", "batch", str(wins)], stdout=out,
            stderr=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=TIMEOUT,
        )  # fmt: skip
    assert r.returncode == 2 and b"same file" in r.stderr
    assert wins.read_bytes() == before


def test_stdin_batch_answers_appended_to_the_input_are_refused(tmp_path):
    """`ccmj waits - < f >> f`: the answers would be read back as lines, for ever."""
    f = tmp_path / "hands.txt"
    f.write_text((HAND + "\n") * 3, encoding="utf-8")
    before = f.read_bytes()
    with open(f, "rb") as src, open(f, "ab") as dst:
        r = subprocess.run(
            [sys.executable, "-m", "ccmj_cli", "waits", "-"], stdin=src, stdout=dst,
            stderr=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=TIMEOUT,
        )  # fmt: skip
    assert r.returncode == 2 and b"same file" in r.stderr
    assert f.read_bytes() == before


def test_batch_from_stdin_into_the_file_it_reads_is_refused(wins):
    before = wins.read_bytes()
    with open(wins, "rb") as src:
        code, out, err = ccmj("batch", "-", "-o", wins, stdin=src)
    one_line_error(code, out, err, 2)
    assert wins.read_bytes() == before


@pytest.mark.parametrize("out", ["missing/y.csv", "x.csv/y.csv", ".", "/dev/full", ""])
def test_batch_output_that_cannot_be_written_is_one_line(wins, tmp_path, out):
    line = one_line_error(*ccmj("batch", "x.csv", "-o", out, cwd=tmp_path), 2)
    assert "cannot write" in line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.csv"]  # no temporary file left


def test_batch_stdout_on_a_full_device_is_one_line(wins):
    with open("/dev/full", "wb") as full:
        r = subprocess.run(
            [sys.executable, "-m", "ccmj_cli", "batch", str(wins)], stdout=full,
            stderr=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=TIMEOUT,
        )  # fmt: skip
    err = r.stderr.decode()
    assert r.returncode == 2 and err.startswith("error: ") and len(err.splitlines()) == 1, err


def test_batch_replaces_its_output_only_when_done(wins, tmp_path):
    """The output is written beside the target and moved over it at the end: an old output
    survives a run that fails before the end (here: an unreadable header), and a good run
    replaces it keeping its mode."""
    out = tmp_path / "out.csv"
    out.write_text("precious\n", encoding="utf-8")
    out.chmod(0o640)
    bad = tmp_path / "bad.csv"
    bad.write_text('"' + "x" * 200_000 + "\n", encoding="utf-8")  # a header csv cannot read
    one_line_error(*ccmj("batch", bad, "-o", out), 2)
    assert out.read_text(encoding="utf-8") == "precious\n"
    code, _, err = ccmj("batch", wins, "-o", out)
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert len(rows) == 1 and rows[0]["legal"] == "true"
    assert out.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.csv", "out.csv", "x.csv"]


# --- item 12: a closed stdin --------------------------------------------------------------


@pytest.mark.parametrize("args", [["waits", "-"], ["check", "-"], ["shanten", "-"], ["batch", "-"]])
def test_closed_stdin_is_one_line(args):
    line = one_line_error(*ccmj(*args, close_stdin=True), 2)
    assert "standard input is closed" in line


def test_score_of_a_dash_hand_does_not_read_stdin():
    """score/bao take one HAND: '-' is a bad hand, and stdin (closed here) is never read."""
    line = one_line_error(*ccmj("score", "-", "--win", "5s", close_stdin=True), 2)
    assert "bad hand '-'" in line


# --- items 7 and 15: CSV input the csv module or the decoder cannot read ---------------------


def test_a_csv_field_over_the_limit_scores_the_rows_before_it(tmp_path):
    """One stray quote in a 10,000-row file swallows the rest into one field over the csv
    module's limit (128 KB): the rows before it are scored and written, the rest is one error
    row naming the line where the broken record starts, exit 4."""
    rows = [f"{WIN_ROW}"] * 10_000
    rows[5000] = '"' + WIN_ROW  # an unbalanced quote
    path = tmp_path / "big.csv"
    path.write_text("hand,win,how\n" + "\n".join(rows) + "\n", encoding="utf-8")
    code, out, err = ccmj("batch", path)
    assert code == 4 and "Traceback" not in err, err
    got = list(csv.DictReader(io.StringIO(out)))
    assert len(got) == 5001
    assert all(r["legal"] == "true" and r["error"] == "" for r in got[:5000])
    assert got[5000]["hand"] == "" and got[5000]["error"].startswith("line 5002: ")
    assert "field limit" in got[5000]["error"]
    assert err.strip() == "1 of 5001 row(s) in error"
    code, out, err = ccmj("batch", path, "--json")
    assert code == 4
    last = json.loads(out.splitlines()[-1])
    assert last["error"].startswith("line 5002: ") and len(out.splitlines()) == 5001


def test_an_empty_csv_gives_the_header_and_says_0_rows(tmp_path):
    from ccmj_cli.batch import INPUT_COLUMNS, RESULT_COLUMNS

    (tmp_path / "e.csv").write_text("", encoding="utf-8")
    code, out, err = ccmj("batch", tmp_path / "e.csv")
    assert code == 0 and out == ",".join(INPUT_COLUMNS + RESULT_COLUMNS) + "\n"
    assert err.strip() == "0 rows (the input is empty)"
    code, out, err = ccmj("batch", "-", "--json", stdin="\n\n")  # blank lines are not rows
    assert (code, out) == (0, "") and "0 rows" in err


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32"])
def test_utf16_csv_is_one_line_naming_the_encoding(tmp_path, encoding):
    path = tmp_path / "w.csv"
    path.write_bytes(f"hand,win,how\n{WIN_ROW}\n".encode(encoding))
    for args, kw in (([path], {}), (["-"], {"stdin": path.read_bytes()})):
        line = one_line_error(*ccmj("batch", *args, **kw), 2)
        assert "UTF-16" in line or "UTF-32" in line or "NUL" in line
        assert "UTF-8" in line


def test_a_header_that_is_not_utf8_is_one_line(tmp_path):
    path = tmp_path / "gbk.csv"
    path.write_bytes(f"hand,win,how,备注\n{WIN_ROW},东\n".encode("gbk"))
    line = one_line_error(*ccmj("batch", path), 2)
    assert "not valid UTF-8" in line and "line 1" in line


def test_a_directory_as_the_csv_is_one_line(tmp_path):
    line = one_line_error(*ccmj("batch", tmp_path), 2)
    assert "directory" in line


# --- items 8, 9, 15: hostile variant files --------------------------------------------------


def _bomb(key: str, levels: int = 9) -> str:
    """The "billion laughs" as the value of ``key``: each level an anchor of nine aliases of
    the one before (~400 bytes; 9^9 strings once expanded, as an error message quoting the
    value did)."""
    items = ['&a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, levels):
        items.append(f"&a{i} [" + ",".join([f"*a{i - 1}"] * 9) + "]")
    return f"{key}: [" + ", ".join(items) + "]\n"


def variant_error(tmp_path, text, name="v.yaml"):
    from ccmj_cli.errors import VariantError
    from ccmj_cli.rules import load_variant

    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(VariantError) as e:
        load_variant(str(path))
    assert "\n" not in e.value.message and len(e.value.message) < 300, e.value.message
    return e.value.message


@pytest.mark.parametrize("key", ["jiahu", "fan", "unknown_key", "extends", "cap_fan"])
def test_a_yaml_bomb_under_any_key_is_refused_at_once(tmp_path, key):
    text = _bomb(key)
    assert len(text) < 500
    assert "aliases" in variant_error(tmp_path, text)


def test_a_yaml_bomb_on_the_command_line_is_one_line_exit_3(tmp_path):
    (tmp_path / "bomb.yaml").write_text(_bomb("jiahu"), encoding="utf-8")
    code, out, err = ccmj("waits", HAND, "--rules", tmp_path / "bomb.yaml", timeout=30)
    assert "aliases" in one_line_error(code, out, err, 3)


def test_anchors_are_refused_even_unused(tmp_path):
    assert "line 1" in variant_error(tmp_path, "jiahu: &x any\n")


@pytest.mark.parametrize(
    ("text", "expect"),
    [
        ("jiahu: [" + ",".join(["'aaaaaaaaaa'"] * 3000) + "]\n", "got ['aaaaaaaaaa', "),
        ("jiahu: '" + "x" * 20000 + "'\n", "got 'xxxxx"),
        ("cap_fan: " + "9" * 5000 + "\n", "not valid YAML"),  # int() refuses 5,000 digits
        ("fan: " + "[" * 50 + "]" * 50 + "\n", "nested too deeply"),
        ("# padding\n" * 7000, "too large"),
        ("jiahu: any\n" + "x: 1\n" * 5000, "too large"),
    ],
)
def test_huge_values_are_bounded_in_messages(tmp_path, text, expect):
    message = variant_error(tmp_path, text)
    assert expect in message
    assert len(message.replace(str(tmp_path), "")) < 200


def test_a_device_behind_a_variant_file_name_is_not_read(tmp_path):
    """/dev/zero behind a .yaml name would never end: only regular files are read."""
    (tmp_path / "z.yaml").symlink_to("/dev/zero")
    message = variant_error(tmp_path, "extends: z.yaml\n")
    assert "z.yaml" in message


@pytest.mark.parametrize(
    ("text", "key", "line"),
    [
        ("jiahu: any\njiahu: shape\n", "'jiahu'", 2),
        ("cap_fan: 5\nfan:\n  win: 1\n  win: 2\n", "'win'", 4),
        ('{"qidui": true, "qidui": false}\n', "'qidui'", 1),
    ],
)
def test_a_key_given_twice_is_exit_3_naming_it(tmp_path, text, key, line):
    message = variant_error(tmp_path, text)
    assert f"key {key} is given twice (line {line})" in message
    code, out, err = ccmj("rules", "--rules", tmp_path / "v.yaml")
    one_line_error(code, out, err, 3)


def test_extends_itself_is_a_loop_naming_the_chain(tmp_path):
    message = variant_error(tmp_path, "extends: ./self.yaml\n", name="self.yaml")
    assert message.endswith(f"extends loop: {tmp_path}/self.yaml -> {tmp_path}/self.yaml")
    code, out, err = ccmj("rules", "--rules", "self.yaml", cwd=tmp_path)
    assert one_line_error(code, out, err, 3).endswith("extends loop: self.yaml -> self.yaml")


def test_extends_a_to_b_to_a_is_a_loop_naming_the_chain(tmp_path):
    (tmp_path / "b.yaml").write_text("extends: a.yaml\n", encoding="utf-8")
    (tmp_path / "a.yaml").write_text("extends: b.yaml\njiahu: shape\n", encoding="utf-8")
    code, out, err = ccmj("rules", "--rules", "a.yaml", cwd=tmp_path)
    line = one_line_error(code, out, err, 3)
    assert line.endswith("extends loop: a.yaml -> b.yaml -> a.yaml")


def test_a_long_extends_chain_is_bounded(tmp_path):
    for i in range(40):
        (tmp_path / f"r{i}.yaml").write_text(f"extends: r{i + 1}.yaml\n", encoding="utf-8")
    (tmp_path / "r40.yaml").write_text("jiahu: shape\n", encoding="utf-8")
    message = variant_error(tmp_path, "extends: r0.yaml\n")
    assert "longer than" in message


@pytest.mark.parametrize("spec", ["x" * 100_000, "x/" * 5000 + "a.yaml", "a\x00b"])
def test_an_absurd_rules_argument_is_one_short_line(spec):
    from ccmj_cli.errors import VariantError
    from ccmj_cli.rules import load_variant

    with pytest.raises(VariantError) as e:
        load_variant(spec)
    assert len(e.value.message) < 300


# --- item 14: --kongs that cannot be ----------------------------------------------------------


@pytest.mark.parametrize(
    ("kongs", "expect"),
    [
        # S wins with 13 tiles of his own: a kong of S's would be a 5th set (its tiles do not
        # fit), and the winner's kongs are read from HAND anyway
        ("S:[9999p]", "S is the winner, whose kongs belong in HAND"),
        ("E:(5555m),S:[1234z]", "S is the winner"),
        (",,,", "an empty item"),
        ("E:(5555m),,W:[9999p]", "an empty item"),
        ("E:(5555m),", "an empty item"),
        # a seat holds at most four melds: five kongs in one item, or spread over items
        ("E:[2222p][3333p][4444p][6666p][7777p]", "at most 4"),
        ("E:[2222p][3333p],E:[4444p][6666p],E:[7777p]", "more than four kongs for E"),
        # a tile more than 4 times: 5555s + the hand's 55s and the win on 5s
        ("W:[5555s]", "copies of 5s"),
    ],
)
def test_bad_kongs_are_refused(kongs, expect):
    from ccmj_cli.errors import CcmjError
    from ccmj_cli.scoring import score

    with pytest.raises(CcmjError) as e:
        score("123m456p46s55s111z", "5s", "discard", "S", "W", kongs=kongs)
    assert expect in e.value.message
    assert e.value.exit_code == 2


def test_kongs_of_other_seats_still_score():
    """E and W hold two kongs each (four melds between them is fine): E's open 5555m is 1, W's
    concealed (9999p) 2 and 旋风杠 [1234z] 1 (RULES §7), paid by each other seat."""
    from ccmj_cli.scoring import score

    r = score("123m456p46s55s111z", "5s", "self", kongs="E:[5555m],W:(9999p)[1234z]")
    assert [(k.seat, k.value) for k in r.kongs] == [("E", 1), ("W", 2), ("W", 1)]
    # E: +3 (5555m) - 2 - 1 = 0; S: -1 - 2 - 1 = -4; W: -1 + 6 + 3 = 8; N: -4
    assert r.kong_payments == {"E": 0, "S": -4, "W": 8, "N": -4}


def test_a_batch_row_with_the_winners_kong_is_a_row_error(tmp_path):
    path = tmp_path / "k.csv"
    path.write_text(
        "hand,win,how,seat,kongs\n"
        "123m456p46s55s111z,5s,self,S,S:[9999p]\n"
        '123m456p46s55s111z,5s,self,S,"E:(5555m),,"\n'
        "123m456p46s55s111z,5s,self,S,E:(5555m)\n",
        encoding="utf-8",
    )
    code, out, err = ccmj("batch", path)
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 4 and "Traceback" not in err
    assert "S is the winner" in rows[0]["error"] and "empty item" in rows[1]["error"]
    assert rows[2]["error"] == "" and rows[2]["legal"] == "true"


# --- item 10: replay of a damaged log ----------------------------------------------------------


def _log_header():
    from ccmj_cli._kernels import layout as L
    from ccmj_cli._kernels.table import layout as TL
    from ccmj_cli.replay import LOG_VERSION

    return {
        "ccmj_log": LOG_VERSION, "seed": 0, "rules": "default", "hands": 2, "sessions": 1,
        "policy": ["baseline"] * 4, "rv": [0] * L.RV_LEN, "tp": [7, 1, 0, 0][: TL.TP_LEN],
        "bots": [list(TL.POLICIES["baseline"])] * 4,
    }  # fmt: skip


def _log_hand(k=1):
    """A hand record with every field replay reads (a drawn hand: 荒庄)."""
    import random

    from ccmj_cli._kernels.table.layout import N_DICE
    from ccmj_cli.tiles import tile_name

    wall = [tile_name(t) for t in range(34) for _ in range(4)]
    random.Random(k).shuffle(wall)
    seats = {s: 0 for s in "ESWN"}
    return {
        "hand": k, "session": 0, "session_hand": k, "session_seed": 1, "dealer": "E",
        "wall": wall, "dice": [3] * N_DICE, "events": [[0, 0, 5, 0, 0], [2, 0, 5, 0, 0]],
        "result": {
            "winner": None, "how": "huang", "tile": None, "discarder": None, "fan": 0,
            "jiahu": False, "piao": False, "menqing": False, "payout": dict(seats),
            "kong_money": dict(seats), "loser_fan": dict(seats), "next_dealer": "E",
            "wall_left": 14,
        },
        "final": {s: "123m" for s in "ESWN"}, "pond": "",
    }  # fmt: skip


def write_log(path, *lines):
    path.write_text("".join(x if isinstance(x, str) else json.dumps(x) + "\n" for x in lines))
    return path


def test_a_well_formed_log_replays(tmp_path):
    log = write_log(tmp_path / "ok.jsonl", _log_header(), _log_hand(1), _log_hand(2))
    code, out, err = ccmj("replay", log, "--hand", 2, "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["hand"] == 2 and d["turns"] == ["E draws 6m", "E discards 6m"]


def _damaged(name):
    """name -> the log's lines: every way a log can be cut, garbled or hand-edited."""
    h, r = _log_header(), _log_hand(1)
    full = json.dumps(r) + "\n"
    bad_key = {k: v for k, v in r.items() if k != "wall"}
    bad_type = {**r, "dealer": 3}
    bad_result = {**r, "result": {**r["result"], "payout": {"E": "x"}}}
    bad_wall = {**r, "wall": r["wall"][:-1] + ["9z"]}
    five = {**r, "wall": r["wall"][:-1] + [r["wall"][0]]}
    bad_event = {**r, "events": [[99, 0, 5, 0, 0]]}
    event_seat = {**r, "events": [[0, 7, 5, 0, 0]]}
    short_event = {**r, "events": [[0, 0]]}
    return {
        "empty": [""],
        "header_only_cut": [json.dumps(h)[:20]],
        "not_json": [h, "this is not json\n"],
        "truncated": [h, full[: len(full) // 2]],
        "a_list": [h, "[1, 2, 3]\n"],
        "missing_key": [h, bad_key],
        "wrong_type": [h, bad_type],
        "bad_result": [h, bad_result],
        "bad_wall": [h, bad_wall],
        "five_copies": [h, five],
        "bad_event": [h, bad_event],
        "event_seat": [h, event_seat],
        "short_event": [h, short_event],
        "deep_json": [h, "[" * 100_000 + "]" * 100_000 + "\n"],
        "binary": [h, "\udcff"],
        "not_a_log": ['{"hello": 1}\n', full],
    }[name]


@pytest.mark.parametrize(
    "name",
    ["empty", "header_only_cut", "not_json", "truncated", "a_list", "missing_key", "wrong_type",
     "bad_result", "bad_wall", "five_copies", "bad_event", "event_seat", "short_event",
     "deep_json", "binary", "not_a_log"],
)  # fmt: skip
def test_a_damaged_log_is_one_line_exit_2(tmp_path, name):
    path = tmp_path / "log.jsonl"
    lines = _damaged(name)
    if name == "binary":
        path.write_bytes(json.dumps(lines[0]).encode() + b"\n\xff\xfe garbage\n")
    else:
        write_log(path, *lines)
    one_line_error(*ccmj("replay", path), 2)


def test_a_missing_hand_number_is_one_line(tmp_path):
    log = write_log(tmp_path / "ok.jsonl", _log_header(), _log_hand(1), _log_hand(2))
    for k in (0, -1, 3, 10**30):
        line = one_line_error(*ccmj("replay", log, "--hand", k), 2)
        assert "the log holds hands 1 to 2" in line


def test_a_log_that_is_a_directory_or_missing_is_one_line(tmp_path):
    one_line_error(*ccmj("replay", tmp_path), 2)
    one_line_error(*ccmj("replay", tmp_path / "nope.jsonl"), 2)


@pytest.mark.parametrize(
    ("key", "value"),
    [("rv", [0] * 3), ("rv", "x"), ("tp", [0, 9999, 0, 0]), ("bots", [[1, 1]]), ("rv", None)],
)
def test_verify_refuses_a_header_the_engine_cannot_take(tmp_path, key, value):
    """--verify hands the header's vectors to the compiled engine: wrong lengths or values
    would read out of bounds there, so they are refused first."""
    header = {**_log_header(), key: value}
    log = write_log(tmp_path / "h.jsonl", header, _log_hand(1))
    line = one_line_error(*ccmj("replay", log, "--verify"), 2)
    assert f"'{key}'" in line


def test_a_log_of_another_version_is_refused_in_one_line(tmp_path):
    """A log written by another ccmj (format 2: a shorter rule vector, four bot knobs) is
    refused as such, not with a message about one of its vectors."""
    header = {**_log_header(), "ccmj_log": 2}
    log = write_log(tmp_path / "old.jsonl", header, _log_hand(1))
    line = one_line_error(*ccmj("replay", log, "--verify"), 2)
    assert "another version" in line


# --- item 11: a damaged lookup-table cache is rebuilt, never used ----------------------------

TENPAI = "111m456p789s2345s"  # tenpai on 2s/5s: shanten 0 (a zeroed table said -1)


@pytest.fixture(autouse=True)
def no_fallback_tables(tmp_path_factory, monkeypatch):
    """A temporary folder of the test's own (here and in its ``ccmj`` processes): tables left
    in the machine's private fallback folder (``/tmp/ccmj-UID``, by an earlier run on an
    unwritable cache) would be found there and never built into the folder under test."""
    tmp = tmp_path_factory.mktemp("tmpdir")  # (beside tmp_path: tests list theirs)
    monkeypatch.setenv("TMPDIR", str(tmp))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))


@pytest.fixture(scope="module")
def built_cache(tmp_path_factory):
    """A cache folder with the tables and the compiled table builders, built once (seconds):
    each test damages a copy of it."""
    folder = tmp_path_factory.mktemp("cache") / "ccmj"
    tmp = tmp_path_factory.mktemp("tmpdir")  # (as no_fallback_tables)
    code, out, err = ccmj("waits", TENPAI, env={"CCMJ_CACHE_DIR": str(folder), "TMPDIR": str(tmp)})
    assert code == 0, err
    return folder


def fresh_copy(built_cache, tmp_path) -> Path:
    import shutil

    folder = tmp_path / "cache"
    shutil.copytree(built_cache, folder, symlinks=True)
    return folder


def tables_of(folder: Path) -> Path:
    from ccmj_cli._kernels.cache import TABLE_VERSION

    return folder / f"tables-v{TABLE_VERSION}"


def answers_right(folder: Path, **env):
    """shanten and waits of TENPAI from this cache folder: (stderr of the runs)."""
    env = {"CCMJ_CACHE_DIR": str(folder), **env}
    code, out, err = ccmj("shanten", TENPAI, "--json", env=env)
    assert code == 0 and "Traceback" not in err, err
    assert json.loads(out)["shanten"] == 0
    code, out, err2 = ccmj("waits", TENPAI, "--json", env=env)
    assert code == 0, err2
    assert [w["tile"] for w in json.loads(out)["waits"] if w["legal"]] == ["2s", "5s"]
    return err + err2


def assert_intact(folder: Path):
    """Every table file matches the checksum in the manifest (it was rebuilt)."""
    import hashlib

    import numpy as np

    tables = tables_of(folder)
    files = json.loads((tables / "manifest.json").read_text())["files"]
    assert len(files) == 9
    for name, entry in files.items():
        arr = np.load(tables / f"{name}.npy")
        assert list(arr.shape) == entry["shape"]
        assert hashlib.sha256(arr.tobytes()).hexdigest() == entry["sha256"], name


def _zero_body(path: Path):
    """Zero every byte after the .npy header, keeping the size (and so the mtime's meaning)."""
    data = path.read_bytes()
    header = data.index(b"\n") + 1
    with open(path, "r+b") as f:
        f.seek(header)
        f.write(bytes(len(data) - header))


@pytest.mark.parametrize(
    "damage",
    ["empty", "cut", "wrong_shape", "wrong_dtype", "zeroed_body", "one_byte", "not_npy",
     "no_manifest", "bad_manifest", "missing"],
)  # fmt: skip
def test_a_damaged_table_is_rebuilt_and_the_answer_right(built_cache, tmp_path, damage):
    import numpy as np

    folder = fresh_copy(built_cache, tmp_path)
    tables = tables_of(folder)
    target = tables / ("suit-exact.npy" if damage != "zeroed_body" else "suit-dist.npy")
    if damage == "empty":
        target.write_bytes(b"")
    elif damage == "cut":
        target.write_bytes(target.read_bytes()[:1000])
    elif damage == "wrong_shape":
        np.save(target, np.zeros(10, np.uint8))
    elif damage == "wrong_dtype":
        np.save(target, np.zeros(5**9, np.int8))
    elif damage == "zeroed_body":
        _zero_body(target)
    elif damage == "one_byte":
        data = bytearray(target.read_bytes())
        data[-7] ^= 1
        target.write_bytes(bytes(data))
    elif damage == "not_npy":
        target.write_bytes(b"garbage" * 1000)
    elif damage == "no_manifest":
        (tables / "manifest.json").unlink()
    elif damage == "bad_manifest":
        (tables / "manifest.json").write_text("{not json")
    elif damage == "missing":
        target.unlink()
    answers_right(folder)
    assert_intact(folder)


def test_a_table_rewritten_with_its_old_times_is_still_caught(built_cache, tmp_path):
    """Setting the mtime back does not hide a change: the ctime moves with any write."""
    folder = fresh_copy(built_cache, tmp_path)
    target = tables_of(folder) / "suit-dist.npy"
    st = target.stat()
    _zero_body(target)
    os.utime(target, ns=(st.st_atime_ns, st.st_mtime_ns))
    answers_right(folder)
    assert_intact(folder)


def test_verified_tables_load_without_rehashing(built_cache, tmp_path, monkeypatch):
    """The warm path: stamps match, so no checksum is computed (the 50 ms stays off the
    0.4 s start); a stamp that does not match (a copied folder) is verified once and its
    stamp refreshed."""
    from ccmj_cli._kernels import cache as C

    folder = fresh_copy(built_cache, tmp_path)  # (a copy: new inodes, so stamps differ)
    monkeypatch.setenv("CCMJ_CACHE_DIR", str(folder))
    monkeypatch.setattr(C, "_LOADED", {})
    hashed = []
    real = C._digest
    monkeypatch.setattr(C, "_digest", lambda arr: hashed.append(1) or real(arr))
    assert C.load_tables(C.TABLE_SPECS) is not None
    assert len(hashed) == 9  # verified once
    monkeypatch.setattr(C, "_LOADED", {})
    hashed.clear()
    assert C.load_tables(C.TABLE_SPECS) is not None
    assert hashed == []  # stamps refreshed: nothing rehashed


def test_tables_folder_that_cannot_be_written_still_answers(built_cache, tmp_path):
    """The tables folder is a file: nothing can be saved; the tables are built in memory."""
    folder = fresh_copy(built_cache, tmp_path)
    import shutil

    shutil.rmtree(tables_of(folder))
    tables_of(folder).write_text("not a folder")
    answers_right(folder)


# --- item 6: an unwritable cache, and kernels never stale ---------------------------------------


def unwritable_env(tmp_path, tmpdir_ok: bool) -> dict:
    """HOME, XDG_CACHE_HOME and CCMJ_CACHE_DIR under a regular file (so even root cannot
    create them: a multi-user install run by a user with no writable home); TMPDIR a fresh
    folder, or under the file too."""
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    return {
        "HOME": str(blocker / "home"),
        "XDG_CACHE_HOME": str(blocker / "xdg"),
        "CCMJ_CACHE_DIR": str(blocker / "ccmj"),
        "TMPDIR": str(tmp if tmpdir_ok else blocker / "tmp"),
    }


def test_an_unwritable_cache_falls_back_to_a_private_temporary_folder(built_cache, tmp_path):
    import shutil

    env = unwritable_env(tmp_path, tmpdir_ok=True)
    fallback = Path(env["TMPDIR"]) / f"ccmj-{os.getuid()}"
    fallback.mkdir(mode=0o700)
    for numba_dir in built_cache.glob("numba-*"):  # the compiled table builders: seconds
        shutil.copytree(numba_dir, fallback / numba_dir.name)
    code, out, err = ccmj("waits", TENPAI, "--json", env=env)
    assert code == 0 and "Traceback" not in err, err
    assert err.strip().startswith("note: the cache folder") and str(fallback) in err
    assert len(err.strip().splitlines()) == 1
    assert json.loads(out)["tenpai"] is True
    assert_intact(fallback)
    code, out, err = ccmj("shanten", TENPAI, "--json", env=env)  # found there next time
    assert (code, err) == (0, "")


def test_a_fallback_folder_of_another_user_or_open_to_all_is_not_used(tmp_path):
    from ccmj_cli._kernels import cache as C

    open_folder = tmp_path / "open"
    open_folder.mkdir()
    open_folder.chmod(0o777)
    assert not C._private(open_folder)
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "elsewhere")
    (tmp_path / "elsewhere").mkdir(mode=0o700)
    assert not C._private(link)
    mine = tmp_path / "mine"
    mine.mkdir(mode=0o700)
    assert C._private(mine)


PROBE = """
from .jit import njit
from .probe_helper import helper


@njit(cache=True)
def probe():
    return helper() * 10
"""
HELPER = """
from .jit import njit


@njit(cache=True)
def helper():
    return 1
"""


def probe_copy(tmp_path, numba_direct=False) -> Path:
    """A copy of the package with a kernel calling a kernel of another module."""
    import shutil

    root = tmp_path / ("plain" if numba_direct else "ccmj")
    shutil.copytree(ROOT / "ccmj_cli", root / "ccmj_cli",
                    ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
    imp = "from numba import njit" if numba_direct else "from .jit import njit"
    kernels = root / "ccmj_cli" / "_kernels"
    (kernels / "probe.py").write_text(PROBE.replace("from .jit import njit", imp))
    (kernels / "probe_helper.py").write_text(
        HELPER.replace("from .jit import njit", imp)
    )
    return root


def run_probe(root: Path, env: dict) -> tuple[int, str, str]:
    code = f"import sys; sys.path.insert(0, {str(root)!r})\n"
    code += "from ccmj_cli._kernels.probe import probe; print(probe())"
    # (no .pyc written: edit_keeping_stamp keeps size and mtime, so Python itself would import
    # a stale .pyc of the edited file; what is tested is the kernel cache)
    r = subprocess.run(
        [sys.executable, "-B", "-c", code], capture_output=True, text=True, timeout=TIMEOUT,
        env={**os.environ, **env},
    )  # fmt: skip
    return r.returncode, r.stdout.strip(), r.stderr


def edit_keeping_stamp(path: Path, old: str, new: str):
    """Change a source file keeping its size and mtime, as a reinstall may."""
    st = path.stat()
    text = path.read_text()
    assert len(old) == len(new) and old in text
    path.write_text(text.replace(old, new))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


def test_a_changed_callee_never_runs_stale_compiled_code(tmp_path):
    """probe() calls helper() in another module. Numba checks a cached kernel against its own
    file only, so after helper changes (a new version installed, a checkout edited) its cache
    of probe() still holds the old helper: the control run shows that. ccmj's cache folder is
    keyed by the version and every kernel source, so the change compiles afresh."""
    cache_env = {"CCMJ_CACHE_DIR": str(tmp_path / "cache"), "NUMBA_CACHE_DIR": ""}
    root = probe_copy(tmp_path)
    assert run_probe(root, cache_env)[:2] == (0, "10")
    assert run_probe(root, cache_env)[:2] == (0, "10")  # (now from the cache)
    edit_keeping_stamp(root / "ccmj_cli/_kernels/probe_helper.py", "return 1", "return 2")
    assert run_probe(root, cache_env)[:2] == (0, "20")
    assert len(list((tmp_path / "cache").glob("numba-*"))) == 2

    # the control: Numba's own cache (in __pycache__ beside the sources) runs the stale code
    plain = probe_copy(tmp_path, numba_direct=True)
    assert run_probe(plain, cache_env)[:2] == (0, "10")
    edit_keeping_stamp(plain / "ccmj_cli/_kernels/probe_helper.py", "return 1", "return 2")
    assert run_probe(plain, cache_env)[:2] == (0, "10")


def test_a_new_version_is_a_new_kernel_cache(tmp_path, monkeypatch):
    from ccmj_cli._kernels import cache as C

    monkeypatch.setenv("CCMJ_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(C, "_ROOT", [])
    first = C.numba_cache_dir()
    monkeypatch.setattr("ccmj_cli.__version__", "9.9.9")
    assert C.numba_cache_dir() != first and "9.9.9" in C.numba_cache_dir().name


def test_kernels_compile_uncached_when_nothing_can_be_written(tmp_path):
    """No writable home, cache or temporary folder: "no locator available" never raises; the
    kernel runs uncached, with one note on stderr."""
    root = probe_copy(tmp_path)
    code, out, err = run_probe(root, unwritable_env(tmp_path, tmpdir_ok=False))
    assert (code, out) == (0, "10"), err
    assert "Traceback" not in err and err.startswith("note: ") and len(err.splitlines()) == 1


def test_a_damaged_compiled_cache_is_a_miss_not_an_error(tmp_path):
    """Cut every index and data file of the kernels' cache: the next run compiles again."""
    env = {"CCMJ_CACHE_DIR": str(tmp_path / "cache"), "NUMBA_CACHE_DIR": ""}
    root = probe_copy(tmp_path)
    assert run_probe(root, env)[:2] == (0, "10")
    files = [*(tmp_path / "cache").rglob("*.nbi"), *(tmp_path / "cache").rglob("*.nbc")]
    assert files
    for i, f in enumerate(files):
        f.write_bytes(f.read_bytes()[: 10 * i])  # empty, or cut short
    code, out, err = run_probe(root, env)
    assert (code, out) == (0, "10") and "Traceback" not in err, err
    assert run_probe(root, env)[:2] == (0, "10")


def test_no_kernel_module_takes_njit_from_numba_directly():
    """Every kernel goes through _kernels/jit.py, which makes its cache safe (above)."""
    for path in (ROOT / "ccmj_cli" / "_kernels").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        for line in text.splitlines():
            if line.startswith("from numba import") and path.name != "jit.py":
                assert "njit" not in line.split("import", 1)[1].split(","), (path.name, line)


# --- garbage on the command line -----------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [["--help"], ["waits", "--help"], ["--version"], ["waits", TENPAI], ["rules"],
     ["score", TENPAI, "--win", "2s"]],
)  # fmt: skip
def test_any_output_to_a_full_device_is_one_line(args):
    with open("/dev/full", "wb") as full:
        r = subprocess.run(
            [sys.executable, "-m", "ccmj_cli", *args], stdout=full, stderr=subprocess.PIPE,
            env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=TIMEOUT,
        )  # fmt: skip
    err = r.stderr.decode()
    assert r.returncode == 2 and len(err.splitlines()) == 1, err
    assert err.startswith("error: ") and "No space left" in err


def test_a_huge_hand_is_quoted_short():
    hand = "1m" * 50_000
    line = one_line_error(*ccmj("waits", hand), 2)
    assert len(line) < 200 and "..." in line and "copies of 1m" in line


# --- a file that grows while it is read ------------------------------------------------------


def _run_feeding_back(args, path: Path, stdin=None):
    """Run ccmj with its stdout appended to ``path`` as it comes (``| tee -a path``, which the
    command cannot see): returns (exit code, everything it wrote)."""
    import threading

    proc = subprocess.Popen(
        [sys.executable, "-m", "ccmj_cli", *args], stdin=stdin or subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    out = []

    def pump():
        with open(path, "ab") as f:
            for chunk in iter(lambda: proc.stdout.read(4096), b""):
                out.append(chunk)
                f.write(chunk)
                f.flush()
                if sum(map(len, out)) > 50_000_000:  # it would never end: stop it
                    proc.kill()
                    return

    t = threading.Thread(target=pump)
    t.start()
    try:
        proc.wait(timeout=TIMEOUT)
    finally:
        proc.kill()
        t.join()
        proc.stderr.close()
    return proc.returncode, b"".join(out).decode()


def test_a_csv_that_grows_while_it_is_read_is_read_as_it_was(tmp_path):
    path = tmp_path / "grow.csv"
    path.write_text("hand,win,how\n" + f"{WIN_ROW}\n" * 30_000, encoding="utf-8")
    code, out = _run_feeding_back(["batch", str(path)], path)
    assert code == 0
    assert len(out.splitlines()) == 30_001  # the header and the 30,000 rows it had


def test_stdin_lines_that_grow_while_read_are_read_as_they_were(tmp_path):
    path = tmp_path / "hands.txt"
    path.write_text(f"{TENPAI}\n" * 30_000, encoding="utf-8")
    with open(path, "rb") as src:
        code, out = _run_feeding_back(["waits", "-"], path, stdin=src)
    assert code == 0 and len(out.splitlines()) == 30_000


@pytest.mark.parametrize("args", [["waits", TENPAI], ["batch", "-"], ["rules"]])
def test_a_closed_stdout_is_one_line(args):
    r = subprocess.run(
        [sys.executable, "-m", "ccmj_cli", *args], stdin=subprocess.DEVNULL,
        stderr=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=TIMEOUT,
        preexec_fn=lambda: os.close(1),
    )  # fmt: skip
    err = r.stderr.decode()
    assert (
        r.returncode == 2
        and err == "error: standard output is closed: the answer has nowhere to go\n"
    )
