"""Ctrl-C (SIGINT), the same way in every command.

Until a command says its work has started, Ctrl-C ends the process at once: one line on
stderr, exit 130, and any output file being written is removed (the file it would replace stays
as it was). A KeyboardInterrupt raised there instead would unwind through imports and through
Numba loading kernels and starting its threads, which can leave the process hung, or killed by
the signal at exit.

A command that can report the work finished so far (``odds``, ``simulate``) calls
``work_started(act)`` once its kernels are loaded: the next Ctrl-C calls ``act()`` (set a stop
event, or raise KeyboardInterrupt) and a second one ends at once. ``work_ended()`` goes back to
ending at once. Only the ``ccmj`` command installs the handler; in-process callers keep Python's.
"""

import contextlib
import os
import signal
import sys
from collections.abc import Callable

EXIT_INTERRUPTED = 130
STARTING = "INTERRUPTED while starting: nothing computed yet"
AGAIN = "INTERRUPTED again: stopping now"

_act: Callable[[], None] | None = None  # what Ctrl-C does while a command's work runs
_message = STARTING
_temporary: set[str] = set()  # output files being written (removed if we end at once)


def install() -> None:
    signal.signal(signal.SIGINT, _on_sigint)


def _on_sigint(signum, frame) -> None:
    global _act, _message
    act, _act = _act, None
    if act is None:
        stop_now(_message)
    _message = AGAIN
    act()


def stop_now(message: str) -> None:
    """End the process now: remove the outputs being written, say ``message``, exit 130."""
    try:
        for path in list(_temporary):
            with contextlib.suppress(OSError):
                os.unlink(path)
        sys.stderr.write(message + "\n")
        sys.stderr.flush()
    finally:
        os._exit(EXIT_INTERRUPTED)


def raise_interrupt() -> None:
    raise KeyboardInterrupt


def work_started(act: Callable[[], None] = raise_interrupt) -> None:
    """From now on the next Ctrl-C calls ``act()`` instead of ending the process."""
    global _act
    _act = act


def work_ended(message: str = "INTERRUPTED") -> None:
    """Ctrl-C ends the process at once again, saying ``message``."""
    global _act
    _act = None
    say_when_interrupted(message)


def say_when_interrupted(message: str) -> None:
    """What Ctrl-C says when it ends the process at once (a command's work under way)."""
    global _message
    _message = message


def writing(path: str) -> None:
    """``path`` is a temporary output file: removed if the process ends at once."""
    _temporary.add(path)


def written(path: str) -> None:
    _temporary.discard(path)
