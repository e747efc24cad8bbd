"""`ccmj simulate` as a user runs it, in a subprocess: Ctrl-C (SIGINT) while it starts and once it
plays — it stops within a second, with one line (and the statistics of the hands finished)."""

import json
import os
import subprocess

import pytest
from sigint import ROOT, ccmj, interrupt_after

LONG = ["simulate", "--hands", "100000000", "--seed", "1", "--json"]

pytestmark = pytest.mark.skipif(os.name != "posix", reason="SIGINT is POSIX")


@pytest.fixture(scope="module", autouse=True)
def warm():
    """Load (or compile, on a first run) the table kernels once, so the runs below are warm."""
    subprocess.run(ccmj("simulate", "-n", "20", "--seed", "1"), cwd=ROOT, check=True,
                   capture_output=True, timeout=3600)  # fmt: skip


def test_sigint_while_starting_stops_at_once():
    code, out, err, took = interrupt_after(0.3, *LONG)
    assert code == 130, (out, err)
    assert "interrupted" in err.lower() and "Traceback" not in err
    assert took < 1.0


def test_sigint_while_playing_prints_the_hands_finished():
    for delay in (3, 6, 12, 24):  # (a loaded machine may take longer to start)
        code, out, err, took = interrupt_after(delay, *LONG)
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
