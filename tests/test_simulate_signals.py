"""`ccmj simulate` as a user runs it, in a subprocess: Ctrl-C (SIGINT) while it starts and once it
plays — it stops within a second, with one line (and the statistics of the hands finished)."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LONG = ["simulate", "--hands", "100000000", "--seed", "1", "--json"]

pytestmark = pytest.mark.skipif(os.name != "posix", reason="SIGINT is POSIX")


def _cmd(*args):
    return [sys.executable, "-m", "ccmj_cli", *args]


@pytest.fixture(scope="module", autouse=True)
def warm():
    """Load (or compile, on a first run) the table kernels once, so the runs below are warm."""
    subprocess.run(_cmd("simulate", "-n", "20", "--seed", "1"), cwd=ROOT, check=True,
                   capture_output=True, timeout=3600)  # fmt: skip


def interrupt_after(delay: float):
    """Start the long run, send SIGINT after ``delay`` seconds; (exit code, stdout, stderr,
    seconds from the signal to the exit)."""
    p = subprocess.Popen(_cmd(*LONG), cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)  # fmt: skip
    time.sleep(delay)
    t0 = time.monotonic()
    p.send_signal(signal.SIGINT)
    try:
        out, err = p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        pytest.fail("simulate did not stop within 30 s of SIGINT")
    return p.returncode, out, err, time.monotonic() - t0


def test_sigint_while_starting_stops_at_once():
    code, out, err, took = interrupt_after(0.3)
    assert code == 130, (out, err)
    assert "interrupted" in err.lower() and "Traceback" not in err
    assert took < 1.0


def test_sigint_while_playing_prints_the_hands_finished():
    for delay in (3, 6, 12, 24):  # (a loaded machine may take longer to start)
        code, out, err, took = interrupt_after(delay)
        assert code == 130, (out, err)
        assert "interrupted" in err.lower() and "Traceback" not in err
        assert took < 2.0
        if not out.strip():
            continue  # still loading: nothing known yet, and it said so
        d = json.loads(out)
        assert d["interrupted"] is True and 0 < d["hands"] < 100_000_000
        assert sum(d["by_method"][m]["count"] for m in d["by_method"]) <= d["hands"]
        return
    pytest.fail("the run never started its hands")
