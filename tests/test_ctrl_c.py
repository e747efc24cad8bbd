"""Ctrl-C at any moment ends ``ccmj`` cleanly: exit 130, one line on stderr that says so, no
traceback, no hang, no process killed by the signal, and an output file left as it was (no
temporary file beside it). Swept over the start-up, where imports and Numba's kernel loading
are under way (a KeyboardInterrupt there once hung the process or killed it at exit)."""

import os
import subprocess

import pytest
from sigint import ROOT, ccmj, interrupt_after

pytestmark = pytest.mark.skipif(os.name != "posix", reason="SIGINT is POSIX")

SIMULATE = ["simulate", "--hands", "100000000", "--seed", "1", "--json"]


@pytest.fixture(scope="module", autouse=True)
def warm():
    """Load (or compile, on a first run) the kernels used below, so the sweep sees a warm start."""
    subprocess.run(ccmj("simulate", "-n", "20", "--seed", "1"), cwd=ROOT, check=True,
                   capture_output=True, timeout=3600)  # fmt: skip
    subprocess.run(ccmj("batch", "examples/wins.csv"), cwd=ROOT, capture_output=True,
                   timeout=3600)  # fmt: skip


def assert_one_clean_line(code, out, err):
    assert code == 130, (code, out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("INTERRUPTED"), err
    assert "Traceback" not in err


@pytest.mark.parametrize("delay", [round(0.1 * k, 1) for k in range(1, 16)])
def test_simulate_at_any_moment_of_its_start(delay):
    code, out, err, took = interrupt_after(delay, *SIMULATE, timeout=20)
    assert took < 1.0
    if out.strip():  # the hands had started: the statistics, then a line saying so
        assert code == 130 and '"interrupted": true' in out
        assert err.strip().splitlines()[-1].startswith("interrupted:")
    else:
        assert_one_clean_line(code, out, err)


@pytest.fixture(scope="module")
def big_csv(tmp_path_factory):
    """2,000,000 rows: over ten seconds of scoring here (400,000 once finished within 2.5 s on
    a faster machine, so the last interrupt came after the end)."""
    path = tmp_path_factory.mktemp("batch") / "wins.csv"
    row = "123m456p789s1123s,1s,self,E,,,1\n"
    path.write_text("hand,win,how,seat,from,bao,base\n" + row * 2_000_000)
    return path


@pytest.mark.parametrize("delay", [0.2, 0.6, 1.2, 2.5])
def test_batch_leaves_the_output_file_as_it_was(big_csv, tmp_path, delay):
    out_file = tmp_path / "out.csv"
    out_file.write_text("the old output\n")
    code, out, err, took = interrupt_after(delay, "batch", str(big_csv), "-o", str(out_file))
    assert_one_clean_line(code, out, err)
    assert took < 1.0
    assert out_file.read_text() == "the old output\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.csv"]  # no temporary file left


def _interrupt_the_first_piece(*args, **kwargs):
    raise KeyboardInterrupt


@pytest.mark.parametrize("option", ["--csv", "--log"])
def test_ctrl_c_before_any_hand_leaves_the_csv_or_log_as_it_was(tmp_path, monkeypatch, option):
    """Ctrl-C while the first piece of hands is played (nothing finished): exit 130, one line,
    and an existing --csv / --log file is not replaced by an empty one."""
    from typer.testing import CliRunner

    import ccmj_cli.replay
    import ccmj_cli.simulate
    from ccmj_cli.cli import app

    monkeypatch.setattr(ccmj_cli.simulate, "result_chunk", _interrupt_the_first_piece)
    monkeypatch.setattr(ccmj_cli.replay, "_record", _interrupt_the_first_piece)
    path = tmp_path / "out.txt"
    path.write_text("the old file\n")
    r = CliRunner().invoke(app, ["simulate", "-n", "50", "--seed", "1", option, str(path)])
    assert r.exit_code == 130, r.output
    assert "INTERRUPTED before the first hands finished" in r.output
    assert path.read_text() == "the old file\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]


@pytest.mark.parametrize("delay", [0.3, 4.0])
def test_review_says_how_far_it_got(delay):
    # a written game reviewed for every seat (far hands: minutes of search): stopped while
    # starting or while grading its one hand, it says how many hands were graded, and quickly
    code, out, err, took = interrupt_after(delay, "review", "examples/records/example.txt",
                                           timeout=20)  # fmt: skip
    if delay < 1 and "while starting" in err:  # (still importing: before the command ran)
        assert_one_clean_line(code, out, err)
        return
    assert_one_clean_line(code, out, err)
    assert err.strip() == "INTERRUPTED after 0 hand(s) graded: nothing printed"
    assert out == "" and took < 3.0
