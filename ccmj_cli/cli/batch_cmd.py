"""ccmj batch: score a CSV of wins, streamed."""

import io
import sys
from typing import Annotated

import typer

from ..errors import EXIT_BATCH_ERRORS, UsageError
from .common import JsonOpt, RulesOpt, handles_errors, variant

# Input is read as UTF-8 (a BOM is dropped); a byte that is not UTF-8 is kept as a surrogate
# (surrogateescape) so that its row is reported in error, not the run aborted by a decode error.
_ENCODING = {"encoding": "utf-8-sig", "errors": "surrogateescape", "newline": ""}


def _open_in(path: str):
    if path == "-":
        buffer = getattr(sys.stdin, "buffer", None)
        if buffer is None:  # a text-only stdin (an embedding program): read it as it is
            return sys.stdin
        return io.TextIOWrapper(buffer, **_ENCODING)
    try:
        return open(path, **_ENCODING)
    except OSError as e:
        raise UsageError(f"cannot read '{path}': {e.strerror}") from None


def _open_out(path: str | None):
    if path is None or path == "-":
        return sys.stdout
    try:
        return open(path, "w", newline="", encoding="utf-8")
    except OSError as e:
        raise UsageError(f"cannot write '{path}': {e.strerror}") from None


def register(app: typer.Typer):
    @app.command()
    @handles_errors
    def batch(
        file: Annotated[
            str,
            typer.Argument(
                help="CSV of wins (header: hand,win,how,seat,from,bao,base[,kongs,declared]); "
                "'-' = stdin."
            ),
        ],
        output: Annotated[
            str | None,
            typer.Option("--output", "-o", help="Write here instead of stdout ('-' = stdout)."),
        ] = None,
        rules: RulesOpt = None,
        json: JsonOpt = False,
    ):
        """Score every row of a CSV: input columns + legal, reasons, fan items, payments, error.

        One output row per input row, in order; a bad row gets its message in the error column
        and the run goes on (exit 4 at the end if any row failed).
        """
        from .. import batch as B  # kernels load only when the command runs

        v = variant(rules)
        src = _open_in(file)
        dst = _open_out(output)
        try:
            summary = B.run(src, dst, json, v)
        finally:
            if file == "-":
                if src is not sys.stdin:
                    src.detach()  # leave sys.stdin's buffer open
            else:
                src.close()
            if dst is not sys.stdout:
                dst.close()
        if summary.failed:
            typer.echo(f"{summary.failed} of {summary.rows} row(s) in error", err=True)
            raise typer.Exit(EXIT_BATCH_ERRORS)
