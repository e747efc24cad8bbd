"""How kernels compile: the cache folder follows every kernel source, the table engine has one
entry kernel for its three modes, and a terminal sees compile progress (none when warm)."""

import io
import shutil
from pathlib import Path

import numpy as np

from ccmj_cli._kernels import cache

KERNELS = Path(cache.__file__).parent


def test_cache_folder_follows_every_kernel_source(tmp_path, monkeypatch):
    """Numba re-validates a cached kernel against its own file only: an edit in a callee's
    file (the table engine's bots, say) must give a new cache folder, or the driver would run
    stale machine code. Files that hold no kernel (cache.py, progress.py) do not count."""
    copy = tmp_path / "_kernels"
    shutil.copytree(KERNELS, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(cache, "__file__", str(copy / "cache.py"))
    before = cache.kernel_sources_hash()
    for name in ("cache.py", "progress.py"):
        with open(copy / name, "a", encoding="utf-8") as f:
            f.write("\n# a comment\n")
        assert cache.kernel_sources_hash() == before, name
    with open(copy / "table" / "bots.py", "a", encoding="utf-8") as f:
        f.write("\n# a comment\n")
    assert cache.kernel_sources_hash() != before


def test_one_table_kernel_for_every_mode():
    """Statistics, results and the log all run ``pieces`` with the same argument types: one
    compiled specialisation (three would each re-optimise the whole engine)."""
    from ccmj_cli import simulate
    from ccmj_cli._kernels.table import driver as K

    simulate.warm_up()
    simulate.warm_up(results=True)
    simulate.warm_up(log=True)
    assert len(K.pieces.signatures) == 1, K.pieces.signatures


def test_one_scripted_engine_for_every_record(tmp_path):
    """The referee's scripted engine has one compiled version for a hand-written record (the
    warm-up's) and a simulate log: a read-only rule vector from the variant made the first
    referee of every log compile the whole engine again (2.5 minutes, silent)."""
    from typer.testing import CliRunner

    from ccmj_cli._kernels.table import referee as KR
    from ccmj_cli.cli import app
    from ccmj_cli.referee import load_record, referee, state_at

    example = str(Path(__file__).parent.parent / "examples" / "records" / "example.txt")
    log = str(tmp_path / "two.log")
    r = CliRunner().invoke(app, ["simulate", "-n", "2", "--seed", "3", "--log", log])
    assert r.exit_code == 0, r.output
    for record in (example, log):
        assert all(v["ok"] for v in referee(record))
        state_at(load_record(record), 0, 12)
    assert len(KR.referee_pieces.signatures) == 1, KR.referee_pieces.signatures
    assert len(KR.replay_to.signatures) == 1, KR.replay_to.signatures


def test_an_eager_kernel_compiles_once_for_every_integer_argument():
    """A kernel given a signature (``state.event``) compiles that one only: its callers' int
    literals, uint8 cells, booleans and int32 values are converted, where a lazy kernel
    compiles once per combination (``state.event`` did 29 times, with ``check_event``)."""
    from numba import njit

    from ccmj_cli._kernels.jit import njit as ccmj_njit

    @ccmj_njit("void(int64[:], int64, int64)", cache=False)
    def put(out, i, x):
        out[i] = x

    @njit(cache=False)
    def caller(out, cells):
        put(out, 0, 7)
        put(out, np.int32(1), cells[2])
        put(out[:], 2, cells[0] == 0)

    out = np.zeros(3, np.int64)
    caller(out, np.array([0, 1, 200], np.uint8))
    assert list(out) == [7, 200, 1]  # (200 > 127: read unsigned)
    assert len(put.signatures) == 1


def test_the_event_recorder_has_one_compiled_version():
    """``state.event`` is called with many argument types; it has exactly one signature."""
    from ccmj_cli._kernels.table import state

    assert len(state.event.signatures) == 1, state.event.signatures


class _Tty(io.StringIO):
    def isatty(self):
        return True


def _fresh_kernels():
    """Two tiny uncached kernels, ``outer`` calling ``inner``: compiled on their first call."""
    from numba import njit

    @njit(cache=False)
    def inner(x):
        return x + 1

    @njit(cache=False)
    def outer(x):
        return inner(x) * 2

    return inner, outer


def test_compile_progress_on_a_terminal():
    from numba.core import event

    from ccmj_cli._kernels.progress import PREFIX, _Line

    _inner, outer = _fresh_kernels()
    tty = _Tty()
    line = _Line(tty)
    event.register("numba:compile", line)
    try:
        assert outer(np.int64(3)) == 8
    finally:
        event.unregister("numba:compile", line)
    shown = tty.getvalue()
    assert PREFIX in shown and "outer" in shown, shown  # what compiles, and how many so far
    assert line.count == 2  # outer, then inner on the way
    assert shown.endswith("\r\x1b[K")  # the line is cleared once the compile is over
    assert line.own["test_compile.outer"] <= line.inclusive["test_compile.outer"]
    assert line.inclusive["test_compile.outer"] >= line.inclusive["test_compile.inner"]


def test_no_progress_off_a_terminal(monkeypatch):
    """stderr not a terminal (a log, a pipe, a test): install() registers nothing."""
    from numba.core import event

    from ccmj_cli._kernels import progress

    monkeypatch.setattr(progress, "_installed", [])
    registered = []
    monkeypatch.setattr(event, "register", lambda kind, listener: registered.append(listener))
    progress.install(io.StringIO())
    assert registered == []
    monkeypatch.setattr(progress, "_installed", [])
    progress.install(_Tty())
    assert len(registered) == 1


def test_the_warm_ups_record_is_the_example_game(tmp_path):
    """The warm-up's referee step checks a record that loads (its kernels then compile): the
    example game of docs/referee.md without its comments."""
    from ccmj_cli.cli.warmup_cmd import RECORD, STEPS
    from ccmj_cli.referee import load_record

    example = Path(__file__).parents[1] / "examples" / "records" / "example.txt"
    lines = example.read_text(encoding="utf-8").splitlines(keepends=True)
    assert RECORD == "".join(x for x in lines if not x.startswith("#"))
    path = tmp_path / "record.txt"
    path.write_text(RECORD, encoding="utf-8")
    assert len(load_record(str(path)).hands) == 1
    assert ["referee", "{record}"] in [a for _, cmds in STEPS["referee"] for a in cmds]
