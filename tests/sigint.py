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


def interrupt_after(delay: float, *args, timeout: float = 30, sig=signal.SIGINT, until=None):
    """Start ``ccmj *args``, send ``sig`` (SIGINT) after ``delay`` seconds, or as soon as
    ``until()`` holds (polled, for at most ``delay`` seconds); (exit code, stdout, stderr,
    seconds from the signal to the exit). Fails the test if it has not ended ``timeout``
    seconds after the signal."""
    p = subprocess.Popen(ccmj(*args), cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)  # fmt: skip
    if until is None:
        time.sleep(delay)
    else:
        end = time.monotonic() + delay
        while not until() and time.monotonic() < end and p.poll() is None:
            time.sleep(0.05)
    t0 = time.monotonic()
    p.send_signal(sig)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        pytest.fail(f"ccmj {' '.join(args)} did not stop within {timeout} s of SIGINT")
    return p.returncode, out, err, time.monotonic() - t0
