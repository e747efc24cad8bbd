"""ccmj batch: score a CSV of wins, streamed."""

import codecs
import contextlib
import errno
import io
import os
import sys
from typing import Annotated

import typer

from .. import interrupts
from ..errors import EXIT_BATCH_ERRORS, UsageError
from .common import RulesOpt, choose_kernels_for_file, handles_errors, stdin_stream, variant
from .files import bounded, output_file, refuse_protected, refuse_same_file

# Input is read as UTF-8 (a BOM is dropped); a byte that is not UTF-8 is kept as a surrogate
# (surrogateescape) so that its row is reported in error, not the run aborted by a decode error.
_ENCODING = {"encoding": "utf-8-sig", "errors": "surrogateescape", "newline": ""}
_WIDE_BOMS = (  # UTF-32 first: its little-endian BOM starts with UTF-16's
    (codecs.BOM_UTF32_LE, "UTF-32"), (codecs.BOM_UTF32_BE, "UTF-32"),
    (codecs.BOM_UTF16_LE, "UTF-16"), (codecs.BOM_UTF16_BE, "UTF-16"),
)  # fmt: skip


def _check_encoding(raw, name: str) -> None:
    """Refuse, in one line, input that is not UTF-8 text as a whole: UTF-16/32 (a BOM, or NUL
    bytes: every ASCII character of UTF-16 text has one), or a first line (the header) that is
    not UTF-8. A later row that is not UTF-8 is that row's error (see batch.py)."""
    peek = getattr(raw, "peek", None)
    if peek is None:
        return
    try:
        head = peek(4096)[:4096]
    except OSError as e:
        raise UsageError(f"cannot read {name}: {e.strerror or e}") from None
    for bom, enc in _WIDE_BOMS:
        if head.startswith(bom):
            raise UsageError(f"{name} is {enc} text, not UTF-8: save it as UTF-8 (CSV UTF-8)")
    if b"\x00" in head:
        raise UsageError(
            f"{name} holds NUL bytes: it is not UTF-8 text (UTF-16 without a BOM?): "
            "save it as UTF-8 (CSV UTF-8)"
        )
    line, newline, _ = head.partition(b"\n")
    if newline or len(head) < 4096:  # the whole first line is here
        try:
            line.decode("utf-8")
        except UnicodeDecodeError as e:
            raise UsageError(
                f"{name} is not valid UTF-8 text (byte 0x{line[e.start]:02x} on line 1): "
                "save it as UTF-8 (CSV UTF-8)"
            ) from None


def _open_in(path: str):
    if path == "-":
        stream = stdin_stream()  # (a closed stdin is a one-line error)
        if stream is sys.stdin:  # a text-only stdin (an embedding program): read it as it is
            return sys.stdin
        stream = bounded(stream, owns=False)  # (a file that grows as it is read: as it was)
        _check_encoding(stream, "standard input")
        return io.TextIOWrapper(stream, **_ENCODING)
    try:
        if os.path.isdir(path):
            raise IsADirectoryError(errno.EISDIR, "it is a directory")
        raw = bounded(open(path, "rb"))  # noqa: SIM115
    except (OSError, ValueError) as e:
        raise UsageError(f"cannot read '{path}': {getattr(e, 'strerror', None) or e}") from None
    try:
        _check_encoding(raw, f"'{path}'")
    except UsageError:
        raw.close()
        raise
    return io.TextIOWrapper(raw, **_ENCODING)


def _read(src, name: str):
    """The lines of ``src``; a failing read (an I/O error, a directory as stdin) is a one-line
    error naming the input, told apart from a failing write."""
    try:
        for line in src:  # noqa: UP028 (`yield from` would close src when this is closed)
            yield line
    except OSError as e:
        what = "standard input" if name == "-" else f"'{name}'"
        raise UsageError(f"cannot read {what}: {e.strerror or e}") from None


def register(app: typer.Typer):
    @app.command()
    @handles_errors
    def batch(
        file: Annotated[
            str,
            typer.Argument(
                help="CSV of wins (header: "
                "hand,win,how,seat,from,bao,base[,kongs,declared,looked]); '-' = stdin."
            ),
        ],
        output: Annotated[
            str | None,
            typer.Option("--output", "-o", help="Write here instead of stdout ('-' = stdout)."),
        ] = None,
        rules: RulesOpt = None,
        json: Annotated[
            bool, typer.Option("--json", help="Write JSON lines (one object per row), not CSV.")
        ] = False,
        force: Annotated[
            bool, typer.Option("--force", help="Replace a write-protected --output file.")
        ] = False,
    ):
        """Score every row of a CSV: input columns + legal, reasons, fan items, payments, error.

        One output row per input row, in order; a bad row gets its message in the error column
        and the run goes on (exit 4 at the end if any row failed).
        """
        choose_kernels_for_file(file)  # (before any kernel module is imported)
        from .. import batch as B  # kernels load only when the command runs

        v = variant(rules)
        refuse_same_file(file, output)  # before anything is read or written
        to_stdout = output is None or output == "-"
        if not to_stdout and not force:
            refuse_protected(output)
        interrupts.say_when_interrupted(
            "INTERRUPTED before the end of the input: "
            + ("the output is incomplete" if to_stdout else f"'{output}' was left as it was")
        )
        with contextlib.ExitStack() as stack:
            dst = sys.stdout if to_stdout else stack.enter_context(
                output_file(output, option="--output (or '-' for standard output)"))
            src = _open_in(file)
            try:
                summary = B.run(_read(src, file), dst, json, v)
            finally:
                if src is not sys.stdin:
                    if file == "-":
                        src.detach()  # leave sys.stdin's buffer open
                    else:
                        src.close()
        if summary.rows == 0:
            typer.echo("0 rows (the input is empty)", err=True)
        if summary.failed:
            typer.echo(f"{summary.failed} of {summary.rows} row(s) in error", err=True)
            raise typer.Exit(EXIT_BATCH_ERRORS)
