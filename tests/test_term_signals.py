"""SIGTERM (``timeout``, ``kill``) and SIGHUP (a dropped ssh) are treated as Ctrl-C is: the
hands finished are kept, no temporary file is left, one line says so, and the exit code is
128 + the signal (143, 129)."""

import os
import signal
import subprocess

import pytest
from sigint import ROOT, ccmj, interrupt_after

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX signals")

LONG = ["simulate", "--hands", "100000000", "--seed", "1"]


@pytest.fixture(scope="module", autouse=True)
def warm():
    """Load (or compile, on a first run) the table kernels of simulate, --csv and --log once,
    so the runs below are warm."""
    subprocess.run(ccmj("warm-up", "--part", "simulate"), cwd=ROOT, check=True,
                   capture_output=True, timeout=3600)  # fmt: skip


def _tmp_grew(folder, past: int):
    """A temporary file in ``folder`` holds more than ``past`` bytes (hands were written)."""

    def grew():
        return any(p.name.endswith(".tmp") and p.stat().st_size > past for p in folder.iterdir())

    return grew


@pytest.mark.parametrize(
    ("option", "sig", "code"),
    [("--csv", signal.SIGTERM, 143), ("--log", signal.SIGTERM, 143), ("--csv", signal.SIGHUP, 129)],
)
def test_a_signal_during_simulate_keeps_the_hands_finished(tmp_path, option, sig, code):
    out_file = tmp_path / "hands.out"
    out_file.write_text("the old file\n")
    rc, out, err, took = interrupt_after(
        120, *LONG, option, str(out_file), sig=sig, until=_tmp_grew(tmp_path, 4096)
    )
    name = signal.Signals(sig).name
    assert rc == code, (rc, out, err)
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1].startswith(f"interrupted ({name}): the statistics"), err
    assert "hands" in out  # the statistics of the hands finished
    assert took < 5.0
    lines = out_file.read_text().splitlines()
    assert len(lines) > 2 and lines[0] != "the old file"  # the hands finished, kept
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hands.out"]  # no temporary file


@pytest.fixture(scope="module")
def big_csv(tmp_path_factory):
    path = tmp_path_factory.mktemp("batch") / "wins.csv"
    row = "123m456p789s1123s,1s,self,E,,,1\n"
    path.write_text("hand,win,how,seat,from,bao,base\n" + row * 400_000)
    return path


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_a_signal_during_batch_leaves_the_output_file_as_it_was(big_csv, tmp_path, sig, code):
    out_file = tmp_path / "out.csv"
    out_file.write_text("the old output\n")
    rc, out, err, took = interrupt_after(
        60, "batch", str(big_csv), "-o", str(out_file), sig=sig, until=_tmp_grew(tmp_path, 0)
    )
    assert rc == code, (rc, out, err)
    lines = err.strip().splitlines()
    name = signal.Signals(sig).name
    assert len(lines) == 1 and lines[0].startswith(f"INTERRUPTED ({name})"), err
    assert out_file.read_text() == "the old output\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.csv"]  # no temporary file left
