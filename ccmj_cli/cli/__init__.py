"""The ccmj command line: one Typer app, one module per command group."""

import contextlib
import os
import sys

# The command line does no linear algebra: one OpenBLAS thread makes `import numpy` faster.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
from typing import Annotated

import typer
from typer.core import TyperGroup

from .. import __version__
from .._fastpath import console_encoding_error as _console_encoding_error
from . import (
    actions_cmd, analyze, bao_cmd, batch_cmd, common, odds_cmd, referee_cmd, review_cmd,
    rules_cmd, score_cmd, simulate_cmd, warmup_cmd,
)  # fmt: skip


class _OneLineErrors(TyperGroup):
    """Usage errors (unknown option, missing argument, bad value) as one `error: ...` line and
    exit 2, like every other error, instead of Typer's boxed usage text."""

    def main(self, *args, standalone_mode: bool = True, **kwargs):
        if not standalone_mode:
            return super().main(*args, standalone_mode=False, **kwargs)
        try:
            rv = super().main(*args, standalone_mode=False, **kwargs)
        except Exception as e:
            # click's ClickException (typer may vendor click, so matched by its interface)
            if not (hasattr(e, "format_message") and hasattr(e, "exit_code")):
                raise
            message = " ".join(e.format_message().split())
            ctx = getattr(e, "ctx", None)
            hint = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
            if message:  # (no arguments at all: the help was printed instead)
                sys.stderr.write(f"error: {message}{hint}\n")
            sys.exit(e.exit_code)
        sys.exit(rv if isinstance(rv, int) else 0)


app = typer.Typer(
    name="ccmj",
    cls=_OneLineErrors,
    help="Rules analyzer for Changchun mahjong (长春麻将): waits, legal wins, scoring, bao, odds."
    "\n\nHands are MPSZ, e.g. 123m456p789s1123s (m 万, p 饼, s 条, 1z-7z 东南西北白发中); melds in"
    " brackets: [123m] chow, [555s] pung, (5555m) concealed kong.",
    no_args_is_help=True,
    add_completion=True,  # ccmj --install-completion: no measurable start-up cost (README)
    pretty_exceptions_enable=False,
)


def _version(value: bool):
    if value:
        typer.echo(f"ccmj {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version.")
    ] = False,
):
    """Rules analyzer for Changchun mahjong (长春麻将)."""


analyze.register(app)
rules_cmd.register(app)
score_cmd.register(app)
bao_cmd.register(app)
batch_cmd.register(app)
odds_cmd.register(app)
simulate_cmd.register(app)
review_cmd.register(app)
referee_cmd.register(app)
actions_cmd.register(app)
warmup_cmd.register(app)


def _bad_numba_threads() -> str | None:
    """Why $NUMBA_NUM_THREADS cannot work (Numba raises a ValueError traceback on its first
    compiled kernel for 0 or a word), or None."""
    value = os.environ.get("NUMBA_NUM_THREADS", "").strip()
    if not value:
        return None
    if value.isdigit() and int(value) > 0:
        return None
    return (
        f"NUMBA_NUM_THREADS={value!r}: Numba needs a whole number of threads of 1 or more "
        "(unset it to use every core)"
    )


def main():
    # Numba's first kernel call imports scipy.linalg when scipy is installed (to offer np.dot),
    # about 0.3 s; no ccmj kernel uses linear algebra, so the command line skips it.
    sys.modules.setdefault("scipy", None)
    common.STANDALONE = True
    if sys.stdout is None:  # `ccmj ... >&-`: every command writes its answer there
        if sys.stderr is not None:
            sys.stderr.write("error: standard output is closed: the answer has nowhere to go\n")
        sys.exit(2)
    with contextlib.suppress(AttributeError, ValueError):  # messages never fail to be written
        sys.stderr.reconfigure(errors="backslashreplace")
    bad_console = _console_encoding_error()
    if bad_console:
        sys.stderr.write(f"error: {bad_console}\n")
        sys.exit(2)
    bad_threads = _bad_numba_threads()
    if bad_threads:
        sys.stderr.write(f"error: {bad_threads}\n")
        sys.exit(2)
    try:
        app()
    except BrokenPipeError:  # the reader went away (`ccmj --help | head -1`): stop quietly
        common.quiet_stdout()
        sys.exit(0)
    except OSError as e:  # outside a command (--help to a full disk, ...): one line, no trace
        common.quiet_stdout()
        sys.stderr.write(f"error: cannot write the output: {e.strerror or e}\n")
        sys.exit(2)
