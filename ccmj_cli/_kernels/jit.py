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

import contextlib
import os
import sys

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
    from .cache import tables_built, writable_root

    if not tables_built():
        writable_root()  # (says so on stderr when the tables go to a fallback folder, or nowhere)
        _build_tables_compiled()
    INTERPRETED = tables_built()  # (false if the cache is not writable: then compiled)
    return INTERPRETED


_CHILD = """
import sys
sys.path.insert(0, {root!r})
from ccmj_cli._kernels.cache import TABLE_SPECS, tables_built
from ccmj_cli._kernels.tables import tables
import numpy as np
t = tables()
if not tables_built():  # no folder could keep them: hand them over through the pipe
    arrays = dict(zip(["suit-" + p for p in ("exact", "dist", "waits0", "waits1")]
                      + ["honor-" + p for p in ("exact", "dist", "waits0", "waits1")]
                      + ["suit-features"], t))
    for name in TABLE_SPECS:
        np.save(sys.stdout.buffer, arrays[name])
"""


def _build_tables_compiled() -> None:
    """Build the tables in a compiled child process. They are saved in the cache folder; when
    none can be written, the child writes them to its stdout and this process keeps them."""
    import subprocess
    from pathlib import Path

    root = str(Path(__file__).resolve().parents[2])  # this very ccmj_cli, whatever the cwd
    env = {**os.environ, "CCMJ_JIT": "1"}
    try:
        out = subprocess.run(
            [sys.executable, "-c", _CHILD.format(root=root)], env=env, capture_output=True,
            check=False,
        ).stdout  # fmt: skip
    except OSError:
        return
    if out:
        from .cache import adopt_tables

        adopt_tables(out)


def njit(*args, **kwargs):
    """``numba.njit`` with the same arguments, or (interpreted) the function itself.

    Compiled, the kernels' cache is made safe: Numba's cache goes to ccmj's own folder
    (``cache.numba_cache_dir``: per version and kernel sources, so never stale; a writable
    temporary folder if the cache folder is not writable), or the kernel is compiled uncached
    when no folder can be written ("no locator available" never raises); a damaged cache file
    is a cache miss, never an error. Interpreted, every kernel is the plain function, those of
    the modules that run only in bulk (typed containers, ``prange``: Python runs it as
    ``range``) too: a compiled kernel cannot call a plain one (``CCMJ_JIT=0 ccmj batch`` failed
    so on a cold cache; a warm one hid it, cached machine code types no callee)."""
    global _decorated
    _decorated = True  # (interpret() after this would mix compiled callers and plain callees)
    if INTERPRETED:
        if len(args) == 1 and callable(args[0]) and not kwargs:
            return args[0]
        return lambda fn: fn
    if len(args) == 1 and callable(args[0]) and not kwargs:
        return _compile(args[0], {})
    # signatures (eager compile): the kernel compiles only these, and a call with other
    # argument types converts them (an int literal, a uint8 cell), where a lazy kernel would
    # compile once more for each combination of its callers' types
    return lambda fn: _compile(fn, kwargs, args)


_cache_ok: list = []  # [bool] once Numba's cache folder is set up


def _setup_numba_cache() -> bool:
    """Point Numba's cache at ccmj's folder, before Numba is imported (it reads NUMBA_CACHE_DIR
    then) or, if it already is, in its config. Returns whether kernels can be cached."""
    if not _cache_ok:
        from .cache import numba_cache_dir

        folder = numba_cache_dir()
        if folder is not None:
            os.environ["NUMBA_CACHE_DIR"] = str(folder)
            if "numba" in sys.modules:
                from numba.core import config

                config.CACHE_DIR = str(folder)
        _cache_ok.append(folder is not None)
    return _cache_ok[0]


def _compile(fn, kwargs: dict, sigs: tuple = ()):
    cached = kwargs.get("cache", False) and _setup_numba_cache()
    from numba import njit as numba_njit

    from .progress import install

    install()  # a terminal sees what compiles on a first run (nothing when the cache is warm)

    if not cached:
        return _eager(_plain_calls(numba_njit(**{**kwargs, "cache": False})(fn)), sigs)
    try:
        disp = numba_njit(**kwargs)(fn)
    except RuntimeError:  # "cannot cache function ...: no locator available"
        from .cache import note

        note("the compiled kernels cannot be cached (no writable folder): compiling them")
        return _eager(_plain_calls(numba_njit(**{**kwargs, "cache": False})(fn)), sigs)
    inner = getattr(disp, "_cache", None)
    if inner is not None and hasattr(inner, "load_overload"):
        disp._cache = _SafeCache(inner)
    return _eager(_plain_calls(disp), sigs)


def _plain_calls(disp):
    """Make a kernel called from another compile for the plain types of the call's arguments
    (int64 for ``0``, bool for ``True``), not for each literal value: Numba types a constant
    argument as a literal and compiled a callee once per combination of literals at its call
    sites (a small helper 25 times, the win judgment 4). A kernel that does need a literal (a
    tuple indexed by an argument) still gets it: the plain typing fails and the call is typed
    as written."""
    if not hasattr(disp, "get_call_template"):
        return disp  # (NUMBA_DISABLE_JIT: the plain function)
    from numba.core import types
    from numba.core.errors import TypingError

    typed = disp.get_call_template

    def get_call_template(args, kws):
        plain = tuple(types.unliteral(a) for a in args)
        plain_kws = {k: types.unliteral(a) for k, a in kws.items()}
        if plain != tuple(args) or plain_kws != kws:
            try:
                return typed(plain, plain_kws)
            except TypingError:
                pass
        return typed(args, kws)

    disp.get_call_template = get_call_template
    return disp


def _eager(disp, sigs: tuple):
    """Compile (or load) the signatures now and no others, as ``numba.njit(sigs)`` does, but
    after the safe cache is in place. Under NUMBA_DISABLE_JIT Numba's njit gives back the plain
    function: nothing to compile."""
    if sigs and hasattr(disp, "compile"):
        for sig in sigs[0] if isinstance(sigs[0], list) else sigs:
            disp.compile(sig)
        disp.disable_compile()
    return disp


_runtime: list = []  # [bool] once the runtime that loaded kernels link against is set up


def _runtime_ready(target_context) -> bool:
    """Set up what machine code loaded from the cache links against, without Numba's context
    refresh: before each load Numba refreshes its compiler context, which imports and registers
    every implementation it could compile with (about 0.08 s, a sixth of a warm command) while a
    loaded kernel needs only the runtime library (NRT) and the hash secrets' symbols. A compile
    still refreshes the context itself. False when this Numba lacks the pieces (then a load
    refreshes as usual)."""
    if not _runtime:
        try:
            import numba.cpython.hashing  # noqa: F401  (adds the hash secrets' symbols)
            from numba.core.runtime import rtsys

            rtsys.initialize(target_context)
            ok = True
        except Exception:
            ok = False
        _runtime.append(ok)
    return _runtime[0]


@contextlib.contextmanager
def _llvm_calls_unannounced():
    """Numba announces every call into LLVM as an event (for its compile timers); loading a
    kernel makes thousands of such calls (its symbols, one by one) and needs no timer: about
    0.015 s of a warm command. Loads run under Numba's compiler lock, so no other thread makes
    LLVM calls meanwhile."""
    from llvmlite.binding import ffi

    lock = getattr(getattr(ffi, "lib", None), "_lock", None)
    saved = getattr(lock, "_cblist", None)
    if not isinstance(saved, list):
        yield
        return
    lock._cblist = []
    try:
        yield
    finally:
        lock._cblist = saved


class _SafeCache:
    """Numba's per-function cache, where a damaged index or data file (cut, garbled, from
    another build) is a cache miss: the file is removed so the fresh compile can be saved."""

    def __init__(self, inner):
        self._inner = inner

    def __getattr__(self, name):
        return getattr(self._inner, name)

    def _forget(self):
        cache_file = getattr(self._inner, "_cache_file", None)
        path = getattr(cache_file, "_index_path", None)
        if path:
            with contextlib.suppress(OSError):
                os.unlink(path)

    def load_overload(self, sig, target_context):
        try:
            inner = self._inner
            if not (
                hasattr(inner, "_load_overload")
                and hasattr(inner, "_guard_against_spurious_io_errors")
                and _runtime_ready(target_context)
            ):
                return inner.load_overload(sig, target_context)
            with inner._guard_against_spurious_io_errors(), _llvm_calls_unannounced():
                return inner._load_overload(sig, target_context)
        except Exception:
            self._forget()
            return None

    def save_overload(self, sig, data):
        try:
            self._inner.save_overload(sig, data)
        except Exception:  # a full disk, a folder removed meanwhile: the kernel still runs
            self._forget()

    def flush(self):
        try:
            self._inner.flush()
        except Exception:
            self._forget()
