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

SIGTERM (``timeout``, ``kill``) and SIGHUP (a dropped ssh, a closed terminal) are handled the
same way: the finished work is kept and temporary files removed, and the process exits with
128 + the signal's number (143, 129) instead of 130, its message naming the signal.
"""

import contextlib
import os
import shutil
import signal
import sys
from collections.abc import Callable

EXIT_INTERRUPTED = 130  # 128 + SIGINT; exit_code() is the one of the signal received
STARTING = "INTERRUPTED while starting: nothing computed yet"
AGAIN = "INTERRUPTED again: stopping now"

_act: Callable[[], None] | None = None  # what Ctrl-C does while a command's work runs
_message = STARTING
_temporary: set[str] = set()  # output files being written (removed if we end at once)
_signal: list[int] = []  # the signal that interrupted the work, once one has
# handled like Ctrl-C; a platform without one (Windows: no SIGHUP) simply lacks it
SIGNALS = tuple(getattr(signal, n) for n in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, n))


def install() -> None:
    for signum in SIGNALS:
        signal.signal(signum, _on_signal)


def exit_code() -> int:
    """128 + the number of the signal that interrupted the work (130 for Ctrl-C, 143 for
    SIGTERM, 129 for SIGHUP); 130 when none did (an in-process KeyboardInterrupt)."""
    return 128 + (_signal[0] if _signal else signal.SIGINT)


def signalled() -> bool:
    """A signal has interrupted work in this process (a command that finished early on it)."""
    return bool(_signal)


def named(message: str) -> str:
    """``message`` saying which signal it was, when not Ctrl-C: "INTERRUPTED (SIGTERM) ..."."""
    if not _signal or _signal[0] == signal.SIGINT:
        return message
    name = signal.Signals(_signal[0]).name
    for word in ("INTERRUPTED", "interrupted"):
        if message.startswith(word):
            return f"{word} ({name}){message[len(word):]}"
    return f"{message} ({name})"


_deferred: list = []  # per open deferred() block: the act a signal left for its end, or None


def _on_signal(signum, frame) -> None:
    global _act, _message
    if not _signal:
        _signal.append(signum)
    act, _act = _act, None
    if act is None:
        stop_now(_message)
    _message = AGAIN
    if _deferred:
        _deferred[-1] = act  # (acted on when the block ends)
        return
    act()


@contextlib.contextmanager
def deferred():
    """A block the first signal does not break into: its act (e.g. raising KeyboardInterrupt)
    waits until the block ends, so that what the block writes is written whole and what it
    counts is counted with it. A second signal still ends the process at once."""
    _deferred.append(None)
    try:
        yield
    finally:
        act = _deferred.pop()
    if act is not None:
        act()


def stop_now(message: str) -> None:
    """End the process now: remove the outputs being written, say ``message``, exit 130 (or
    128 + the signal's number)."""
    try:
        for path in list(_temporary):
            if os.path.isdir(path):  # (a scratch folder)
                shutil.rmtree(path, ignore_errors=True)
            with contextlib.suppress(OSError):
                os.unlink(path)
        sys.stderr.write(named(message) + "\n")
        sys.stderr.flush()
    finally:
        os._exit(exit_code())


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
    """``path`` is a temporary output file (or scratch folder): removed if the process ends
    at once."""
    _temporary.add(path)


def written(path: str) -> None:
    _temporary.discard(path)
