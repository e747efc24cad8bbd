"""What Numba is compiling, while it compiles: a line on the terminal, kept up to date.

A fresh install compiles each command's kernels on first use (seconds to minutes, once: they are
then in the cache folder). Numba announces every compile of a kernel (a cache miss) as a
``numba:compile`` event; ``install()`` listens to them and, when stderr is a terminal, shows how
many kernels are compiled so far, which one is compiling now and the time it has taken, on one
line that is cleared when the compile is over. A loaded cache announces nothing, so a warm run
shows nothing; nor does a run whose stderr is not a terminal (a log, a pipe, a test).

``CompileTimes`` is the same listener keeping each kernel's compile time (scripts/bench_cold.py
and docs/testing.md: where compile time goes).
"""

import os
import sys
import time

from numba.core import event as _ev

PREFIX = "compiling kernels (first run)"


def _name(event) -> str:
    d = event.data.get("dispatcher")
    fn = getattr(d, "py_func", None)
    if fn is None:
        return "?"
    mod = fn.__module__.removeprefix("ccmj_cli._kernels.")
    return f"{mod}.{fn.__name__}"


class CompileTimes(_ev.Listener):
    """Each compiled kernel's compile time: ``inclusive`` (with the kernels it compiled on the
    way) and ``own`` (without them), in CPU seconds of the compiling thread (a loaded machine
    does not inflate them), by kernel name (summed over its specialisations)."""

    def __init__(self):
        self.stack: list = []  # [name, start, children's time]
        self.inclusive: dict[str, float] = {}
        self.own: dict[str, float] = {}
        self.compiles: dict[str, int] = {}  # specialisations compiled, by kernel name
        self.count = 0

    def on_start(self, event):
        self.count += 1
        self.stack.append([_name(event), time.thread_time(), 0.0])

    def on_end(self, event):
        if not self.stack:
            return
        name, t0, children = self.stack.pop()
        took = time.thread_time() - t0
        self.inclusive[name] = self.inclusive.get(name, 0.0) + took
        self.own[name] = self.own.get(name, 0.0) + took - children
        self.compiles[name] = self.compiles.get(name, 0) + 1
        if self.stack:
            self.stack[-1][2] += took


class _Line(CompileTimes):
    def __init__(self, stream):
        super().__init__()
        self.stream = stream
        self.t0 = None
        self.shown = 0.0

    def _write(self, text: str):
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):
            pass

    def on_start(self, event):
        super().on_start(event)
        now = time.perf_counter()
        if self.t0 is None:
            self.t0 = now
        if now - self.shown >= 0.25 or self.count == 1:
            self.shown = now
            try:
                width = os.get_terminal_size(self.stream.fileno()).columns - 1
            except (OSError, ValueError, AttributeError):
                width = 79
            line = f"{PREFIX}: {self.count} so far, {now - self.t0:.0f} s, now {self.stack[-1][0]}"
            self._write("\r" + line[:width].ljust(width))

    def on_end(self, event):
        super().on_end(event)
        if not self.stack:  # the outermost compile is over: clear the line
            self._write("\r\x1b[K")


_installed: list = []


def install(stream=None) -> None:
    """Show compile progress on ``stream`` (stderr) if it is a terminal; once per process.
    ``CCMJ_PROGRESS=0`` turns it off."""
    if _installed or os.environ.get("CCMJ_PROGRESS") == "0":
        return
    stream = stream or sys.stderr
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        tty = False
    _installed.append(True)
    if tty:
        _ev.register("numba:compile", _Line(stream))
