"""One rules engine, two ways to run it: a single-hand command runs the kernels under CPython
(no Numba start-up), everything else compiled. The same calls must give the same answers.

A worker process (tests/interpreted_worker.py, CCMJ_JIT=0, warnings as errors) answers each
request interpreted; this process answers it compiled; every field must agree.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import strategies as S
from hypothesis import given, settings
from hypothesis import strategies as st
from interpreted_worker import answer

from ccmj_cli._kernels.tables import tables
from ccmj_cli.rules import preset_names

WORKER = Path(__file__).with_name("interpreted_worker.py")


@pytest.fixture(scope="module")
def interpreted():
    tables()  # the worker maps the tables this process built
    env = {**os.environ, "CCMJ_JIT": "0"}
    proc = subprocess.Popen(
        [sys.executable, "-W", "error", str(WORKER)], env=env, text=True,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip

    def ask(request: dict) -> dict:
        try:
            proc.stdin.write(json.dumps(request) + "\n")
            proc.stdin.flush()
            line = proc.stdout.readline()
        except BrokenPipeError:
            line = ""
        if not line:
            pytest.fail(f"the interpreted worker died on {request}:\n{proc.stderr.read()}")
        return json.loads(line)

    hello = json.loads(proc.stdout.readline() or "{}")
    assert hello == {"numba_loaded": False}, proc.stderr.read()  # truly interpreted
    yield ask
    proc.kill()
    proc.wait(timeout=30)


@st.composite
def options(draw):
    opts = {k: draw(st.booleans()) for k in S.BOOL_OPTIONS}
    opts["jiahu"] = draw(st.sampled_from(["any", "single_wait", "shape"]))
    preset = draw(st.sampled_from([None, *preset_names()]))
    if preset:
        opts["extends"] = preset
    return opts


def same(interpreted, fn: str, *args, opts: dict, **kwargs):
    request = {"fn": fn, "args": list(args), "kwargs": kwargs, "options": opts}
    compiled = json.loads(json.dumps(answer(request)))
    assert interpreted(request) == compiled, request


TILES = [S.name(t) for t in range(S.N)]


@settings(max_examples=S.examples(120))
@given(S.tenpai_hands(), st.sampled_from(TILES), options(), st.sampled_from("ESWN"))
def test_tenpai_hands_agree(interpreted, h, other, opts, seat):
    text, win, _, _ = h
    same(interpreted, "waits", text, "5m5p", opts=opts)
    same(interpreted, "shanten", text, "5m", opts=opts)
    for w in (S.name(win), other):
        same(interpreted, "check", text, w, opts=opts)
        same(interpreted, "score", text, w, "discard", seat, "E" if seat != "E" else "S",
             opts=opts)  # fmt: skip
    same(interpreted, "score", text, S.name(win), "self", seat, opts=opts, declared=True)
    same(interpreted, "bao", text, other, opts=opts, seat=seat)
    for how in ("mobao", "duibao"):
        same(interpreted, "score", text, None, how, seat, None, other, opts=opts)
    same(interpreted, "score", text, S.name(win), kongs="E:(5555m),W:[1234z]", opts=opts)


@settings(max_examples=S.examples(60))
@given(S.random_hands(sizes=(13, 14)), options())
def test_random_hands_agree(interpreted, tiles, opts):
    text = S.text_of(tiles)
    same(interpreted, "shanten", text, None, opts=opts)
    if len(tiles) == 13:
        same(interpreted, "waits", text, opts=opts)
    else:
        same(interpreted, "check", S.text_of(tiles[1:]), S.name(tiles[0]), opts=opts)


def run_ccmj(*args: str, stdin: str = "", **env: str) -> tuple[list[str], str]:
    """`ccmj ARGS` as its own process: (its output lines, then "numba-imported exit-code")."""
    probe = (
        "import sys; from ccmj_cli.cli import main\n"
        "try:\n    main()\nexcept SystemExit as e:\n    code = e.code\n"
        "print('numba' in sys.modules, code)"
    )
    env = {**{k: v for k, v in os.environ.items() if k != "CCMJ_JIT"}, **env}
    out = subprocess.run(
        [sys.executable, "-c", probe, *args], input=stdin, capture_output=True, text=True,
        check=True, env=env,
    ).stdout  # fmt: skip
    *lines, last = out.splitlines()
    return lines, last


def test_the_command_line_never_imports_numba_for_one_hand():
    """`ccmj waits HAND` (tables built) runs interpreted: Numba never loads."""
    tables()  # built once per machine (by compiled kernels), as the first `ccmj` run does
    for args in (["waits", "111m456p789s2345s"], ["check", "111m456p789s2345s", "2s"],
                 ["shanten", "1235m4568p789s234s"], ["score", "111m456p789s2345s", "-w", "2s"],
                 ["bao", "111m456p789s2345s", "--bao", "5s"]):  # fmt: skip
        assert run_ccmj(*args)[1] == "False 0", args


def test_a_first_run_builds_the_tables_in_a_child_and_still_runs_interpreted(tmp_path):
    """On a machine with no tables yet, `ccmj waits HAND` has a compiled child build them (the
    interpreted build would take minutes), then answers interpreted, Numba never imported."""
    private_tmp = tmp_path / "tmp"  # (no tables of another run in the fallback folder there)
    private_tmp.mkdir()
    lines, last = run_ccmj("waits", "111m456p789s2345s", "--json", CCMJ_CACHE_DIR=str(tmp_path),
                           TMPDIR=str(private_tmp))  # fmt: skip
    assert last == "False 0"
    assert json.loads(lines[0])["waits"][0]["tile"] == "2s"
    # CCMJ_CACHE_DIR is the cache folder itself (it was CCMJ_CACHE_DIR/ccmj, unlike the README)
    assert any(tmp_path.glob("tables-v*/suit-features.npy"))
    assert any(tmp_path.glob("tables-v*/manifest.json"))


def test_jit_0_runs_the_compiled_only_kernels_interpreted_too(tmp_path):
    """CCMJ_JIT=0 on a cache with the tables but no compiled kernel: `batch`, whose kernels
    were always compiled, called the interpreted notation kernels and failed typing them (a
    TypingError traceback; a warm cache hid it: the cached machine code types no callee)."""
    import shutil

    tables()
    for folder in Path(os.environ["CCMJ_CACHE_DIR"]).glob("tables-v*"):
        shutil.copytree(folder, tmp_path / folder.name)
    wins = str(Path(__file__).parents[1] / "examples" / "wins.csv")
    plain, last = run_ccmj("batch", wins, CCMJ_CACHE_DIR=str(tmp_path), CCMJ_JIT="0")
    compiled, compiled_last = run_ccmj("batch", wins)
    assert last.split()[1] == compiled_last.split()[1] == "4"  # one bad row, the rest scored
    assert plain == compiled and len(plain) == 9


def test_a_small_batch_file_runs_interpreted_a_large_one_compiled(tmp_path):
    """`ccmj batch FILE` of at most SMALL_FILE_ROWS rows answers interpreted (a fresh install
    answers in a second instead of compiling for half a minute); more rows run compiled. The
    same rows either way."""
    from ccmj_cli.cli.common import SMALL_FILE_ROWS

    tables()
    header, *rows = (Path(__file__).parents[1] / "examples" / "wins.csv").read_text().splitlines()
    probe = (
        "import sys; from ccmj_cli.cli import main\n"
        "try:\n    main()\nexcept SystemExit as e:\n    code = e.code\n"
        "from ccmj_cli._kernels import jit; print(jit.INTERPRETED, code)"
    )
    env = {k: v for k, v in os.environ.items() if k != "CCMJ_JIT"}
    outs = {}
    for n in (SMALL_FILE_ROWS, SMALL_FILE_ROWS + 1):
        path = tmp_path / f"w{n}.csv"
        path.write_text("\n".join([header, *(rows * n)[:n]]) + "\n", encoding="utf-8")
        out = subprocess.run([sys.executable, "-c", probe, "batch", str(path)], env=env,
                             capture_output=True, text=True, check=True).stdout  # fmt: skip
        *outs[n], outs[n, "mode"] = out.splitlines()
    assert outs[SMALL_FILE_ROWS, "mode"] == "True 4"  # interpreted; exit 4: bad rows in it
    assert outs[SMALL_FILE_ROWS + 1, "mode"] == "False 4"
    assert outs[SMALL_FILE_ROWS + 1][:-1] == outs[SMALL_FILE_ROWS]


def test_a_handful_of_stdin_lines_runs_interpreted_a_batch_compiled():
    """Up to SMALL_BATCH stdin lines are answered interpreted (a shell script piping one hand
    should not pay Numba's start-up); more run compiled. Same answers, line numbers kept."""
    from ccmj_cli.cli.common import SMALL_BATCH

    tables()
    hands = ["111m456p789s2345s", "", "bad", "123m456p789s1123s"]
    few, last = run_ccmj("waits", "-", "--json", stdin="\n".join(hands))
    assert last == "False 4" and len(few) == 3  # exit 4: one line in error
    assert json.loads(few[1])["line"] == 3
    many, last = run_ccmj("waits", "-", "--json", stdin="\n".join(hands * SMALL_BATCH))
    assert last == "True 4" and many[:3] == few
