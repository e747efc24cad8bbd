"""The kernels' decorator: Numba's ``njit``, or the plain Python function.

Numba costs a process about 0.9 s before it runs anything (its import, then loading cached
machine code), while judging one hand takes microseconds compiled and milliseconds under
CPython. So a command that answers a single hand (``ccmj waits HAND``, or a handful of stdin
lines) runs the same kernel source interpreted, and never imports Numba; batches, bulk arrays,
odds and the table run compiled. Either way there is one rules engine — the same source — and
tests/test_interpreted.py checks that both ways give the same answers.

The mode is fixed when the first kernel module is imported: ``interpret()`` must come first.
``CCMJ_JIT=1`` forces compiled kernels, ``CCMJ_JIT=0`` interpreted ones.
"""

import os

_FORCED = os.environ.get("CCMJ_JIT", "")
INTERPRETED = _FORCED == "0"
_decorated = False  # a kernel exists: the mode is fixed


def interpret() -> bool:
    """Switch this process to interpreted kernels, unless a kernel is loaded already or
    CCMJ_JIT=1. Interpreted kernels need the lookup tables built (building them interpreted
    would take minutes): on a machine's first run a child process builds them compiled, which
    compiles only the table builders (seconds, not the minute of compiling every kernel).
    Returns whether the kernels will run interpreted."""
    global INTERPRETED
    if INTERPRETED or _decorated or _FORCED == "1":
        return INTERPRETED
    from .cache import tables_built

    if not tables_built():
        _build_tables_compiled()
    INTERPRETED = tables_built()  # (false if the cache is not writable: then compiled)
    return INTERPRETED


def _build_tables_compiled() -> None:
    import subprocess
    import sys
    from pathlib import Path

    root = str(Path(__file__).resolve().parents[2])  # this very ccmj_cli, whatever the cwd
    code = f"import sys; sys.path.insert(0, {root!r}); from ccmj_cli._kernels.tables import tables"
    code += "; tables()"
    env = {**os.environ, "CCMJ_JIT": "1"}
    subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, check=False)


def njit(*args, **kwargs):
    """``numba.njit`` with the same arguments, or (interpreted) the function itself."""
    global _decorated
    _decorated = True
    if INTERPRETED:
        if len(args) == 1 and callable(args[0]) and not kwargs:
            return args[0]
        return lambda fn: fn
    from numba import njit as numba_njit

    return numba_njit(*args, **kwargs)
