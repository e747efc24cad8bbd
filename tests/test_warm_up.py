"""`ccmj warm-up`: every step said and numbered, in one process or two side by side, and a
Ctrl-C or SIGTERM ends every process with the usual exit code, leaving no scratch folder."""

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ccmj_cli.cli.warmup_cmd import GROUPS, PARTS, STEPS

ROOT = Path(__file__).resolve().parents[1]
STEP_NAMES = [what for p in PARTS for what, _ in STEPS[p]]


def warm_up(*args, env=None):
    return subprocess.run([sys.executable, "-m", "ccmj_cli", "warm-up", *args], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=600)  # fmt: skip


def steps_said(stderr: str) -> dict[int, tuple[str, str]]:
    """{number: (what, seconds)} of the finished steps; every start line comes before its end."""
    total = len(STEP_NAMES)
    started, done = {}, {}
    for line in stderr.splitlines():
        m = re.fullmatch(rf"warm-up (\d+)/{total}: (.+?)(…|: (\d+\.\d) s)", line)
        if m is None:
            continue
        n, what = int(m[1]), m[2]
        if m[3] == "…":
            assert n not in started
            started[n] = what
        else:
            assert started.get(n) == what, line  # the same number as its start
            done[n] = (what, m[4])
    return done


def test_the_chains_cover_every_part_once():
    assert sorted(p for chain in GROUPS for stage in chain for p in stage) == sorted(PARTS)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_every_step_is_said_once_numbered_in_order_of_start(jobs):
    r = warm_up("--jobs", jobs)  # (the suite's cache is warm: seconds)
    assert r.returncode == 0, r.stderr
    done = steps_said(r.stderr)
    assert sorted(done) == list(range(1, len(STEP_NAMES) + 1))
    assert sorted(what for what, _ in done.values()) == sorted(STEP_NAMES)
    if jobs == "1":  # one process: in the parts' order
        assert [done[n][0] for n in sorted(done)] == STEP_NAMES
    assert re.search(r"^warm-up done in \d+\.\d s", r.stderr, re.M)


def test_an_unknown_part_is_a_usage_error():
    r = warm_up("--part", "nonsense")
    assert r.returncode == 2
    parts = "hand, odds, simulate, referee"
    assert r.stderr.strip() == f"error: unknown part 'nonsense' (parts: {parts})"


@pytest.mark.parametrize("sig, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_ends_both_processes_of_a_cold_warm_up(tmp_path, sig, code):
    psutil = pytest.importorskip("psutil")
    scratch = tmp_path / "tmp"  # the processes' temporary folders: none left behind
    scratch.mkdir()
    env = {**os.environ, "CCMJ_CACHE_DIR": str(tmp_path / "cache"), "TMPDIR": str(scratch)}
    env.pop("CCMJ_JIT", None)
    p = subprocess.Popen([sys.executable, "-m", "ccmj_cli", "warm-up", "--jobs", "2"], cwd=ROOT,
                         env=env, stderr=subprocess.PIPE, text=True,
                         start_new_session=True)  # fmt: skip
    parent = psutil.Process(p.pid)
    deadline = time.monotonic() + 60
    while len(parent.children()) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    children = parent.children()
    assert len(children) == 2  # (the first stage of each chain)
    time.sleep(2)  # (both compiling)
    # Ctrl-C reaches the whole foreground group; `timeout` and `kill` the one process
    if sig == signal.SIGINT:
        os.killpg(p.pid, sig)
    else:
        p.send_signal(sig)
    _out, err = p.communicate(timeout=60)
    assert p.returncode == code, err
    assert err.strip().splitlines()[-1].startswith("INTERRUPTED")
    assert "Traceback" not in err
    gone, alive = psutil.wait_procs(children, timeout=30)
    assert not alive
    assert [x.name for x in scratch.iterdir()] == []
