"""The command line through typer's CliRunner: exit codes, JSON fields, batches, variants."""

import json

import pytest
from typer.testing import CliRunner

import ccmj_cli
from ccmj_cli.cli import app
from ccmj_cli.rules import SCHEMA

runner = CliRunner()


def run(*args, input=None):
    return runner.invoke(app, list(args), input=input)


def ok_json(*args, input=None):
    r = run(*args, "--json", input=input)
    assert r.exit_code == 0, (r.output, r.exception)
    return json.loads(r.stdout)


def assert_error(r, code: int, *words):
    """A one-line `error: ...` on stderr, the exit code, and no traceback."""
    assert r.exit_code == code, (r.exit_code, r.output)
    assert "Traceback" not in r.output
    assert isinstance(r.exception, SystemExit | None)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), r.stderr
    for w in words:
        assert w in lines[0], (w, lines[0])
    assert r.stdout == ""


# --------------------------------------------------------------------------- waits


def test_waits_json_fields():
    # 23m waiting 1m/4m (两面): tenpai, both legal, 4 live each, not 夹
    d = ok_json("waits", "23m456p789s111z55s")
    # exactly the documented fields (README "JSON fields")
    assert set(d) == {"hand", "tenpai", "can_look_bao", "bao_reason", "waits", "live_total"}
    assert all(set(w) == {"tile", "legal", "reasons", "live", "jiahu", "piao"} for w in d["waits"])
    assert d["tenpai"] is True and d["can_look_bao"] is True and d["bao_reason"] is None
    assert [(w["tile"], w["legal"], w["reasons"], w["live"], w["jiahu"], w["piao"])
            for w in d["waits"]] == [("1m", True, [], 4, False, False),
                                      ("4m", True, [], 4, False, False)]  # fmt: skip
    assert d["live_total"] == 8


def test_waits_json_reasons_and_bao():
    # RULES §3 断幺九: 6m fails no_yaojiu, 9m legal; may not look at the bao
    d = ok_json("waits", "78m234p345s666s55p")
    assert d["tenpai"] is True and d["can_look_bao"] is False
    w = {x["tile"]: x for x in d["waits"]}
    assert w["6m"]["legal"] is False and w["6m"]["reasons"] == ["no_yaojiu"]
    assert w["9m"]["legal"] is True


def test_waits_visible_reduces_live():
    d = ok_json("waits", "23m456p789s111z55s", "--visible", "1m4m4m")
    assert {w["tile"]: w["live"] for w in d["waits"]} == {"1m": 3, "4m": 2}


def table_rows(text: str) -> list[list[str]]:
    """The cells of every line of a table's output (runs of 2+ spaces separate cells)."""
    import re

    return [re.split(r"\s{2,}", line.strip()) for line in text.splitlines() if line.strip()]


def test_waits_table_output():
    # 23m456p789s111z55s: 两面 1m/4m, both legal, 4 live each (none held), neither 夹 nor 飘;
    # 111z has a 幺九, so the hand may look at the bao; 8 live legal copies
    r = run("waits", "23m456p789s111z55s")
    assert r.exit_code == 0
    rows = table_rows(r.stdout)
    assert rows[:4] == [
        ["hand", "23m456p55789s111z"],
        ["tenpai", "yes"],
        ["can look at bao", "yes"],
        ["live legal waits", "8"],
    ]
    assert rows[4] == ["wait", "legal", "why not", "live", "夹胡", "飘胡"]
    assert set(rows[5][0]) == {"-"}  # the rule under the header
    assert rows[6:] == [["1m", "yes", "-", "4", "no", "no"], ["4m", "yes", "-", "4", "no", "no"]]


def test_waits_table_output_reasons_and_bao():
    # 78m 234p 55p 345s 666s: 断幺九 waiting 6m (no 幺九: not legal) / 9m (legal, 边张 7-8-9:
    # 夹); may not look at the bao (RULES §6)
    rows = table_rows(run("waits", "78m234p345s666s55p").stdout)
    assert rows[2] == ["can look at bao", "no (duanyaojiu)"]
    assert rows[6:] == [
        ["6m", "no", "no_yaojiu", "4", "no", "no"],
        ["9m", "yes", "-", "4", "yes", "no"],
    ]


def test_chinese_honors_accepted():
    # 白 = 5z: the dragon pair wins (刻 by dragon pair)
    d = ok_json("check", "123m456p789s123s白", "白")
    assert d["legal"] is True and d["win"] == "5z"


# --------------------------------------------------------------------------- check


def test_check_json_fields():
    d = ok_json("check", "123m456p789s1123s", "4s")
    assert {"legal", "reasons", "menqing", "jiahu", "piao"} <= set(d)
    # all chows, 11s pair: no 刻
    assert (d["legal"], d["reasons"], d["menqing"], d["jiahu"], d["piao"]) == (
        False, ["no_pung"], True, False, False)  # fmt: skip


def test_check_legal_flags():
    d = ok_json("check", "111m444p777s222z3z", "3z")  # 飘胡 单调: piao, not 夹 by default
    assert (d["legal"], d["piao"], d["jiahu"], d["menqing"]) == (True, True, False, True)


def test_check_table_output():
    r = run("check", "4556m123p789s111z", "5m")
    assert r.exit_code == 0 and "legal" in r.stdout and "yes" in r.stdout


def test_check_without_win_is_exit_2():
    assert_error(run("check", "4556m123p789s111z"), 2, "winning tile")


# --------------------------------------------------------------------------- shanten


def test_shanten_13_json():
    d = ok_json("shanten", "23m456p789s111z55s")
    assert d["shanten"] == 0
    assert [u["tile"] for u in d["useful"]] == ["1m", "4m"]


def test_shanten_14_json_discards():
    # 23m 456p 789s 111z 55s + 9m: discarding 9m leaves the 1m/4m tenpai (shanten 0, 8 live)
    d = ok_json("shanten", "23m456p789s111z55s9m")
    assert d["shanten"] == 0
    ds = d["discards"]
    assert {"tile", "shanten", "useful", "useful_total"} <= set(ds[0])
    assert ds[0]["tile"] == "9m" and ds[0]["shanten"] == 0 and ds[0]["useful_total"] == 8
    for x in ds:
        assert x["useful_total"] == sum(u["live"] for u in x["useful"])
        assert all(set(u) == {"tile", "live"} for u in x["useful"])
    # best first: shanten ascending, then more useful tiles
    keys = [(x["shanten"], -x["useful_total"]) for x in ds]
    assert keys == sorted(keys)


def test_shanten_table_output():
    r = run("shanten", "23m456p789s111z55s9m")
    assert r.exit_code == 0 and "discard" in r.stdout


# --------------------------------------------------------------------------- bad hands: exit 2


@pytest.mark.parametrize(
    "args, words",
    [
        (("waits", "123m456p789s111x5s"), ["unknown character"]),
        (("waits", "123m456p789s11155"), ["no suit"]),
        (("waits", "023m456p789s111z5s"), ["0m"]),
        (("waits", "123m456p789s1118z"), ["8z"]),
        (("waits", "11111m456p789s11z"), ["5 copies of 1m"]),
        (("waits", "1m456p789s11z[111m][1m1p1s]"), ["copies of 1m"]),
        (("waits", "1245m456p789s1z[135m]"), ["[135m]"]),
        (("waits", "12345m456p789s1z[12z]"), ["[12z]"]),
        (("waits", "123m456p789s111z"), ["13 concealed tiles", "got 12"]),
        (("waits", "123m456p789s111z55s9m"), ["13 concealed tiles"]),
        (("check", "123m456p789s111z5s", "5q"), ["bad"]),
        (("check", "123m456p789s111z5s", "5s5s"), ["exactly one tile"]),
        (("check", "1m234p567s999s[111m]", "1m"), ["all four copies of 1m"]),
        (("shanten", "123m"), ["13 or 14 concealed tiles", "got 3"]),
        (("score", "123m456p789s11z55s99m", "-w", "9m"), ["13 or 14 concealed tiles", "got 15"]),
        (("waits", "23m456p789s111z55s", "--visible", "4444m4m"), ["copies of 4m"]),
        (("waits", "[123m"), ["not closed"]),
        (("waits", ""), ["empty"]),
    ],
)
def test_bad_hand_exit_2(args, words):
    assert_error(run(*args), 2, *words)


# --------------------------------------------------------------------------- variants: exit 3


@pytest.mark.parametrize(
    "text, words",
    [
        ("jiahu: sometimes\n", ["'jiahu'", "any | single_wait | shape"]),
        ("quemen: 3\n", ["'quemen'", "true or false"]),
        ("no_such_option: true\n", ["'no_such_option'"]),
        ("fan:\n  nope: 1\n", ["'fan.nope'"]),
        ("fan:\n  piao: -1\n", ["'fan.piao'"]),
        ("bao_dice: 3\n", ["'bao_dice'"]),
        ("jiahu: [any\n", ["not valid YAML"]),
        ("- a list\n", ["mapping"]),
        ("extends: nowhere\n", ["nowhere"]),
    ],
)
def test_bad_variant_exit_3(tmp_path, text, words):
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    for args in (("waits", "23m456p789s111z55s"), ("check", "23m456p789s111z55s", "1m"),
                 ("rules",)):  # fmt: skip
        assert_error(run(*args, "--rules", str(path)), 3, *words)


def test_missing_variant_file_exit_3(tmp_path):
    assert_error(run("waits", "23m456p789s111z55s", "--rules", str(tmp_path / "no.yaml")), 3,
                 "no.yaml")  # fmt: skip


def test_variant_file_changes_the_answer(tmp_path):
    # dragon pair exemption off: the 白 pair no longer gives 刻
    path = tmp_path / "room.yaml"
    path.write_text("dragon_pair_is_pung: false\n", encoding="utf-8")
    assert ok_json("check", "123m456p789s123s5z", "5z")["legal"] is True
    d = ok_json("check", "123m456p789s123s5z", "5z", "--rules", str(path))
    assert d["legal"] is False and d["reasons"] == ["no_pung"]


# --------------------------------------------------------------------------- rules, version


def test_rules_json():
    d = ok_json("rules")
    assert d["name"] == "default"
    assert set(d["options"]) == set(SCHEMA)
    # RULES.md defaults
    o = d["options"]
    assert o["jiahu"] == "any" and o["piao_stacks_with_jia"] is False
    assert o["special_kong_is_pung"] is True and o["special_kong_breaks_menqing"] is True
    assert o["bao_forbidden_without_yaojiu"] is True and o["bao_dice"] == 2
    assert o["dianpao"] == "all_pay" and o["cap_fan"] is None


def test_rules_json_with_override(tmp_path):
    path = tmp_path / "room.yaml"
    path.write_text("jiahu: shape\nfan:\n  piao: 3\n", encoding="utf-8")
    o = ok_json("rules", "--rules", str(path))["options"]
    assert o["jiahu"] == "shape" and o["fan"]["piao"] == 3
    assert o["fan"]["jiahu"] == 1  # other fan keys keep their defaults


def test_rules_table():
    r = run("rules")
    assert r.exit_code == 0 and "jiahu" in r.stdout and "any" in r.stdout


def test_version():
    r = run("--version")
    assert r.exit_code == 0 and r.stdout.strip() == f"ccmj {ccmj_cli.__version__}"


def test_help_lists_commands():
    r = run("--help")
    assert r.exit_code == 0
    for cmd in ("waits", "check", "shanten", "rules"):
        assert cmd in r.stdout


def help_text(*args):
    r = run(*args, "--help")
    assert r.exit_code == 0, r.output
    return " ".join(r.stdout.replace("│", " ").split())  # the words, whatever the wrapping


def test_help_shows_the_notation_and_melds():
    assert "123m456p789s1123s" in help_text() and "(5555m) concealed kong" in help_text()
    for cmd in ("waits", "check"):
        text = help_text(cmd)
        assert "[123m](5555p)" in text, (cmd, text)
        # the example is a hand the command takes
        assert (
            run(cmd, "1123s789s[123m](5555p)", *(["4s"] if cmd == "check" else [])).exit_code == 0
        )


def test_shell_completion_completes_commands_and_options():
    """`ccmj --install-completion` is offered; the completion it installs answers (bash)."""
    import os
    import subprocess
    import sys

    assert "--install-completion" in help_text()
    from pathlib import Path

    exe = [str(Path(sys.executable).parent / "ccmj")]  # the program name picks the variable

    def complete(words: str) -> list[str]:
        env = {**os.environ, "_CCMJ_COMPLETE": "complete_bash", "COMP_WORDS": words,
               "COMP_CWORD": str(len(words.split()) - 1)}  # fmt: skip
        r = subprocess.run(exe, env=env, capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, r.stderr
        return r.stdout.split()

    assert complete("ccmj wa") == ["waits", "warm-up"]
    assert complete("ccmj odds --pl") == ["--plot"]
    # --show-completion prints the script of the shell it runs in (found from the process
    # tree): run it from bash (`; true` keeps bash from exec-ing it, which would hide bash)
    r = subprocess.run(["bash", "-c", f"'{exe[0]}' --show-completion; true"],
                       capture_output=True, text=True)  # fmt: skip
    assert r.returncode == 0 and "_CCMJ_COMPLETE" in r.stdout, r.stderr


def test_json_help_names_batch_mode_only_where_there_is_one():
    for cmd in ("waits", "check", "shanten"):
        assert "JSON lines in batch mode" in help_text(cmd), cmd
    for cmd in ("score", "bao", "odds", "simulate", "replay", "rules", "batch"):
        assert "JSON lines in batch mode" not in help_text(cmd), cmd
    assert "--json Write JSON lines (one object per row), not CSV." in help_text("batch")


# --------------------------------------------------------------------------- batch mode


def lines_of(r):
    return [json.loads(x) for x in r.stdout.splitlines()]


def test_batch_waits_json():
    inp = "23m456p789s111z55s\nnot a hand\n1233m456p789s111z\n23m456p789s111z55\n"
    r = run("waits", "-", "--json", input=inp)
    assert r.exit_code == 4
    out = lines_of(r)
    assert len(out) == 4  # one output line per input line
    assert out[0]["tenpai"] is True and [w["tile"] for w in out[0]["waits"]] == ["1m", "4m"]
    assert out[1]["error"].startswith("bad hand") and out[1]["line"] == 2
    assert out[1]["input"] == "not a hand" and out[1]["code"] == "bad_hand"
    assert [w["tile"] for w in out[2]["waits"]] == ["3m"]
    assert "error" in out[3] and out[3]["line"] == 4
    assert "1 line" not in r.stderr and "2 line(s) in error" in r.stderr
    assert "Traceback" not in r.output


def test_batch_all_good_exit_0():
    inp = "23m456p789s111z55s\n1233m456p789s111z\n"
    r = run("waits", "-", "--json", input=inp)
    assert r.exit_code == 0
    assert len(lines_of(r)) == 2


def test_batch_check_json():
    inp = (
        "23m456p789s111z55s 1m\n123m456p789s1123s 4s\n23m456p789s111z55s\n1m234p567s999s[111m] 1m\n"
    )
    r = run("check", "-", "--json", input=inp)
    assert r.exit_code == 4
    out = lines_of(r)
    assert len(out) == 4
    assert out[0]["legal"] is True
    assert out[1]["legal"] is False and out[1]["reasons"] == ["no_pung"]
    assert "error" in out[2] and "error" in out[3]


def test_batch_shanten_json():
    r = run("shanten", "-", "--json", input="23m456p789s111z55s\n23m456p789s111z55s9m\n9\n")
    assert r.exit_code == 4
    out = lines_of(r)
    assert [o.get("shanten") for o in out[:2]] == [0, 0]
    assert "discards" in out[1] and "error" in out[2]


def test_batch_table_mode_one_line_each():
    r = run("waits", "-", input="23m456p789s111z55s\nxx\n")
    assert r.exit_code == 4
    lines = r.stdout.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("23m456p789s111z55s\t") and "tenpai=yes" in lines[0]
    assert lines[1].startswith("xx\t") and "error:" in lines[1]


def test_batch_bad_variant_is_exit_3_before_reading(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("quemen: maybe\n", encoding="utf-8")
    assert_error(run("waits", "-", "--rules", str(path), input="23m456p789s111z55s\n"), 3,
                 "'quemen'")  # fmt: skip


def test_batch_undecodable_bytes_become_error_objects():
    # stdin bytes that are not UTF-8 (0x80, 0xff): an error object for that line, no traceback
    r = runner.invoke(app, ["waits", "-", "--json"], input=b"\x80\xff\n23m456p789s111z55s\n")
    assert r.exit_code == 4 and "Traceback" not in r.output
    out = lines_of(r)
    assert "error" in out[0] and out[0]["line"] == 1
    assert out[1]["tenpai"] is True


def test_error_message_stays_one_line():
    # a newline inside the hand argument is escaped in the one-line message
    assert_error(run("waits", "12\nm"), 2, "\\n")


def test_check_flag_makes_the_verdict_an_exit_code():
    # 123m456p789s1123s + 4s: four sets and a pair but no pung (刻): not legal -> exit 1
    assert runner.invoke(app, ["check", "123m456p789s1123s", "4s", "--check"]).exit_code == 1
    # 111m456p789s2345s + 2s: legal (111m is the pung) -> exit 0
    assert runner.invoke(app, ["check", "111m456p789s2345s", "2s", "--check"]).exit_code == 0
    # without --check the verdict is only reported
    assert runner.invoke(app, ["check", "123m456p789s1123s", "4s"]).exit_code == 0


def test_waits_check_flag_is_tenpai():
    # waits 1s/4s exist but neither is legal (no pung): not tenpai -> exit 1
    assert runner.invoke(app, ["waits", "123m456p789s1123s", "--check"]).exit_code == 1
    assert runner.invoke(app, ["waits", "111m456p789s2345s", "--check"]).exit_code == 0


@pytest.mark.parametrize(
    "args",
    [["rules"], ["waits", "111m456p789s2345s"], ["simulate", "-n", "16"], ["batch", "-"]],
)
def test_an_empty_rules_value_is_an_error_not_the_default(args):
    """`--rules "$ROOM"` with ROOM unset must not run the default rules silently."""
    r = CliRunner().invoke(app, [*args, "--rules", ""])
    assert r.exit_code == 2, r.output
    assert r.stderr.strip() == (
        "error: --rules '': give a preset name or a YAML file (or leave --rules out)"
    )
    assert r.stdout == ""


def test_rules_with_both_rules_and_preset_is_an_error():
    r = CliRunner().invoke(app, ["rules", "--rules", "kuansong", "--preset", "mil2024"])
    assert r.exit_code == 2, r.output
    assert r.stderr.strip() == "error: give --preset or --rules, not both"


@pytest.mark.parametrize(("command", "extra"), [("simulate", "[dask]"), ("simulate", "[plot]"),
                                                ("odds", "[plot]")])  # fmt: skip
def test_help_shows_the_extras_to_install(command, extra):
    """Rich markup read `[plot]` / `[dask]` as a style tag and printed "(needs ccmj_cli)"."""
    r = CliRunner().invoke(app, [command, "--help"], env={"COLUMNS": "250"})
    assert r.exit_code == 0
    assert f"(needs ccmj_cli{extra})" in r.stdout, r.stdout


def test_score_by_is_read_as_a_batch_how_is_any_case():
    """`batch` reads a how of DISCARD as discard; `score --by DISCARD` was refused."""
    args = ["score", "123m456p789s1123s", "--win", "4s", "--seat", "N", "--json"]
    lower = CliRunner().invoke(app, [*args, "--by", "self"])
    upper = CliRunner().invoke(app, [*args, "--by", "SELF"])
    assert lower.exit_code == upper.exit_code == 0, upper.output
    assert json.loads(upper.stdout) == json.loads(lower.stdout)


def test_a_stdin_batch_reads_past_a_utf8_bom():
    """A file saved by an editor as "UTF-8 with BOM": batch accepted it, `waits -` refused the
    first line."""
    r = CliRunner().invoke(app, ["waits", "-", "--json"],
                           input="\ufeff111m456p789s2345s\n111m456p789s2345s\n")  # fmt: skip
    assert r.exit_code == 0, r.output
    first, second = (json.loads(line) for line in r.stdout.splitlines())
    assert first == second and first["tenpai"] is True


@pytest.mark.parametrize("value", ["0", "-1", "two"])
def test_numba_num_threads_that_cannot_work_is_one_line(value):
    """NUMBA_NUM_THREADS=0 was a ValueError traceback from inside Numba."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    env = {**os.environ, "NUMBA_NUM_THREADS": value}
    r = subprocess.run([sys.executable, "-m", "ccmj_cli", "batch", "examples/wins.csv"],
                       cwd=Path(__file__).parents[1], env=env, capture_output=True, text=True,
                       timeout=300)  # fmt: skip
    assert r.returncode == 2, r.stderr
    assert r.stderr.strip() == (
        f"error: NUMBA_NUM_THREADS={value!r}: Numba needs a whole number of threads of 1 or more "
        "(unset it to use every core)"
    )
    assert r.stdout == ""


def test_threads_beyond_numba_num_threads_says_so(monkeypatch):
    """NUMBA_NUM_THREADS=1 turned --threads 2 into 1 silently. (A bad --plot name ends the run
    before any hand: the note comes first.)"""
    monkeypatch.setenv("NUMBA_NUM_THREADS", "1")
    r = CliRunner().invoke(app, ["simulate", "-n", "16", "--threads", "2", "--plot", "x.jpg"])
    assert r.stderr.splitlines()[0] == (
        "note: --threads 2: NUMBA_NUM_THREADS=1 allows 1; using 1"
    ), r.stderr


def test_a_huge_stdin_line_is_one_clear_error():
    """One 10 MB line took seconds and a gigabyte; a line is one hand: a limit, said once. It is
    that line's error row: the lines around it are answered (it used to end the run there)."""
    text = "111m456p789s2345s\n" + "1m" * 5_000_000 + "\n111m456p789s2345s\n"
    r = CliRunner().invoke(app, ["waits", "-", "--json"], input=text)
    assert r.exit_code == 4, r.output
    rows = [json.loads(x) for x in r.stdout.splitlines()]
    assert [x.get("line") for x in rows] == [None, 2, None]
    assert rows[1]["error"] == (
        "line 2 of standard input is longer than 65,536 characters: give one hand per line"
    )
    assert rows[0]["waits"] == rows[2]["waits"]


def test_rules_name_that_is_a_preset_and_a_file_says_which(tmp_path, monkeypatch):
    """A file named like a preset in the current folder: the preset is used, and it says so;
    `./NAME` is the file, reported by its path (not as the preset's name)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "kuansong").write_text("extends: default\n", encoding="utf-8")
    r = CliRunner().invoke(app, ["rules", "--rules", "kuansong", "--json"])
    assert r.exit_code == 0, r.output
    assert r.stderr.strip() == (
        "note: --rules kuansong: the preset 'kuansong' is used; for the file of that name here, "
        "give --rules ./kuansong"
    )
    assert json.loads(r.stdout)["name"] == "kuansong"
    r = CliRunner().invoke(app, ["rules", "--rules", "./kuansong", "--json"])
    assert r.exit_code == 0 and r.stderr == "", r.output
    assert json.loads(r.stdout)["name"] == "./kuansong"


def test_rules_from_a_fifo_is_read(tmp_path):
    """`--rules <(...)`, /dev/stdin, a FIFO: "no such file or preset" though it exists."""
    import os
    import threading

    fifo = tmp_path / "room.fifo"
    os.mkfifo(fifo)

    def feed():
        with open(fifo, "w", encoding="utf-8") as f:
            f.write("extends: default\n")

    t = threading.Thread(target=feed)
    t.start()
    r = CliRunner().invoke(app, ["rules", "--rules", str(fifo), "--json"])
    t.join(timeout=10)
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["options"] == json.loads(
        CliRunner().invoke(app, ["rules", "--json"]).stdout
    )["options"]


@pytest.mark.parametrize("encoding", ["ascii", "latin-1", "cp1252"])
@pytest.mark.parametrize("args", [["waits", "111m456p789s2345s"], ["batch", "examples/wins.csv"]])
def test_a_console_that_cannot_write_chinese_is_one_error_before_any_output(encoding, args):
    """PYTHONIOENCODING=ascii: a UnicodeEncodeError traceback, after a partial CSV for batch."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    env = {**os.environ, "PYTHONIOENCODING": encoding}
    r = subprocess.run([sys.executable, "-m", "ccmj_cli", *args], cwd=Path(__file__).parents[1],
                       env=env, capture_output=True, timeout=300)  # fmt: skip
    assert r.returncode == 2, r.stderr
    assert r.stdout == b""
    lines = r.stderr.decode().strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: standard output's encoding is"), lines
    assert "PYTHONIOENCODING=utf-8" in lines[0]


def test_rules_marks_what_a_preset_changes_from_the_default():
    """`rules --preset X` listed every option alike: which ones the preset changes was hidden."""
    from ccmj_cli.rules import load_variant

    default, preset = load_variant().to_dict(), load_variant("mil2024").to_dict()
    changed = {k for k in preset if preset[k] != default[k] and not isinstance(preset[k], dict)}
    assert changed
    r = CliRunner().invoke(app, ["rules", "--preset", "mil2024"], env={"COLUMNS": "250"})
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines()[0] == "variant: mil2024 (* differs from the default)"
    marked = {line.split()[0] for line in r.stdout.splitlines()[4:] if line.rstrip().endswith("*")}
    assert changed <= marked
    assert all(k.split(".")[0] in preset and preset[k.split(".")[0]] != default[k.split(".")[0]]
               for k in marked)  # fmt: skip
    plain = CliRunner().invoke(app, ["rules"])
    assert "*" not in plain.stdout and "differs" not in plain.stdout


def test_the_cyclic_collector_is_off_for_start_up_only():
    # start-up runs without the cyclic collector (it walked the imported objects again and
    # again); it is back on after START_UP_S, and at once in a child forked before that
    import subprocess
    import sys

    probe = (
        "import gc, os, time\n"
        "from ccmj_cli import _entry as e\n"
        "e.START_UP_S = 0.2\n"
        "e._collector_off_for_start_up()\n"
        "off = not gc.isenabled()\n"
        "r, w = os.pipe()\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    os.write(w, b'1' if gc.isenabled() else b'0'); os._exit(0)\n"
        "os.waitpid(pid, 0)\n"
        "child = os.read(r, 1) == b'1'\n"
        "time.sleep(1.0)\n"
        "print(off, child, gc.isenabled())\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "True", "True"]
