"""Run ``ccmj`` as a user does (``python -m ccmj_cli`` in a subprocess) and press Ctrl-C."""

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def ccmj(*args) -> list[str]:
    return [sys.executable, "-m", "ccmj_cli", *args]


def interrupt_after(delay: float, *args, timeout: float = 30):
    """Start ``ccmj *args``, send SIGINT after ``delay`` seconds; (exit code, stdout, stderr,
    seconds from the signal to the exit). Fails the test if it has not ended ``timeout``
    seconds after the signal."""
    p = subprocess.Popen(ccmj(*args), cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)  # fmt: skip
    time.sleep(delay)
    t0 = time.monotonic()
    p.send_signal(signal.SIGINT)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        pytest.fail(f"ccmj {' '.join(args)} did not stop within {timeout} s of SIGINT")
    return p.returncode, out, err, time.monotonic() - t0
