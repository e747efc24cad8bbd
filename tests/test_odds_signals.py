"""`ccmj odds` as a user runs it, in a subprocess: Ctrl-C (SIGINT) early and late, memory that
does not grow with --trials, and no progress output when stderr is not a terminal."""

import json
import math
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
from sigint import ROOT, ccmj, interrupt_after

TANKI = "123m456p789s1112s"
LONG = ["odds", TANKI, "--declare", "--trials", "100000000", "--threads", "2"]

pytestmark = pytest.mark.skipif(os.name != "posix", reason="SIGINT and /proc are POSIX")


@pytest.fixture(scope="module", autouse=True)
def warm():
    """Load (or compile, on a first run) the kernels once, so the timings below are warm."""
    subprocess.run(ccmj("odds", TANKI, "--declare", "-t", "2000", "-n", "3"), cwd=ROOT,
                   check=True, capture_output=True, timeout=1800)  # fmt: skip


def test_sigint_while_starting_stops_at_once():
    code, out, err, took = interrupt_after(0.3, *LONG)
    assert code == 130, (out, err)
    assert "INTERRUPTED" in out + err and "Traceback" not in err
    assert took < 1.0  # within a second
    # what is known so far: nothing yet (said so), or an estimate, which is then a number
    for line in out.splitlines():
        if line.startswith("P(win)"):
            assert math.isfinite(float(line.split()[1]))


def test_sigint_while_running_prints_the_estimate_so_far():
    for delay in (2, 4, 8, 16):  # (a loaded machine may take longer than 2 s to start)
        code, out, err, took = interrupt_after(delay, *LONG, "--json")
        assert code == 130, (out, err)
        assert "INTERRUPTED" in err and "Traceback" not in err
        assert took < 1.0  # within a second
        if not out.strip():
            continue  # still loading: nothing known yet, and it said so
        d = json.loads(out)
        assert d["interrupted"] is True
        if d["trials"]:
            assert d["trials"] % 1000 == 0 and math.isfinite(d["p_win"]) and 0 <= d["p_win"] <= 1
            lo, hi = d["ci95"]
            assert lo <= d["p_win"] <= hi
            return
    pytest.fail("the run never started its trials")


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs /proc")
def test_memory_does_not_grow_with_trials_and_no_progress_on_a_pipe():
    # the largest --trials allowed: the chunks are made as they run, a few at a time
    args = ccmj("odds", TANKI, "--declare", "--trials", "1000000000", "--threads", "2")
    p = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)  # fmt: skip
    try:
        time.sleep(4)
        first = _rss_mb(p.pid)
        time.sleep(4)
        second = _rss_mb(p.pid)
    finally:
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=30)
    assert p.returncode == 130
    assert second - first < 20, (first, second)
    assert second < 600, second
    # stderr is a pipe: no progress bar, no stray newline — only the INTERRUPTED line
    assert err.strip().splitlines() == [
        "INTERRUPTED: the answer above is from the work finished so far"
    ], err
    assert "INTERRUPTED" in out
