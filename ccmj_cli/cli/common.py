"""Options and plumbing shared by every command: --rules, --json, errors, stdin batches."""

import functools
import itertools
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Annotated

import typer

from ..errors import (
    EXIT_BATCH_ERRORS, EXIT_FALSE, CcmjError, UsageError, one_line, output_error, quiet_stdout,
)  # fmt: skip
from ..output import to_json
from ..rules import Variant, load_variant, preset_names
from .files import bounded, refuse_same_file

RulesOpt = Annotated[
    str | None,
    typer.Option(
        "--rules", "-r", help="Variant: a preset name or a YAML file (default: the default preset)."
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON.")]
# commands with a stdin batch mode (HAND '-') say what --json does there
BatchJsonOpt = Annotated[
    bool, typer.Option("--json", help="Print JSON (JSON lines in batch mode).")
]
PlotOpt = Annotated[
    str | None,
    typer.Option(
        "--plot",
        metavar="FILE",
        help="Also draw the result to FILE: .png, .svg or .pdf (needs ccmj_cli\\[plot]).",
    ),
]
VisibleOpt = Annotated[
    str | None,
    typer.Option(
        "--visible", "-v", help="Tiles seen elsewhere (discards, others' melds), e.g. 55m7z."
    ),
]


def fail(e: CcmjError):
    typer.echo(f"error: {one_line(e.message)}", err=True)
    raise typer.Exit(e.exit_code)


def handles_errors(fn):
    """Turn a CcmjError into a one-line message on stderr and its exit code."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except CcmjError as e:
            fail(e)
        except BrokenPipeError:
            quiet_stdout()
            sys.stderr.close()  # the reader went away (e.g. `| head`): stop quietly
            raise typer.Exit(0) from None
        except OSError as e:  # writing the output failed (a full disk, /dev/full, ...)
            quiet_stdout()
            fail(output_error(e))

    return wrapper


# Set by `ccmj` itself (cli.main), not by an embedding program or CliRunner, whose process may
# go on to run batches: only a one-command process may choose interpreted kernels.
STANDALONE = False


MAX_LINE = 1 << 16  # bytes of one stdin line: a longer one is an error, not gigabytes of work
SMALL_BATCH = 8  # stdin lines worth answering interpreted rather than paying Numba's start-up
_stdin: tuple[list, Iterator] | None = None  # lines read ahead to count them, and the rest


def choose_kernels(hand: str, batch: bool = True) -> None:
    """One hand, or a stdin batch of at most SMALL_BATCH lines: run the kernels interpreted,
    sparing Numba's ~0.9 s start-up (see _kernels/jit.py). Call before the command imports its
    modules; a batch's first lines are read ahead here to count them (``batch``: the command
    reads a HAND of '-' from stdin)."""
    global _stdin
    if not STANDALONE:
        return
    if hand == "-" and batch:
        rest = _read_stdin()
        first = list(itertools.islice(rest, SMALL_BATCH + 1))
        _stdin = (first, rest)
        if len(first) > SMALL_BATCH:
            return
    from .._kernels.jit import interpret

    interpret()


SMALL_FILE_ROWS = 256  # batch file rows answered interpreted: ~0.5 s either way when warm


def choose_kernels_for_file(path: str) -> None:
    """A batch file of at most SMALL_FILE_ROWS rows runs the kernels interpreted: on a fresh
    install it answers in about a second instead of compiling for half a minute, and with a
    warm cache it takes about as long as the compiled kernels' start-up. Only a regular file's
    first MiB is looked at (a pipe or FIFO is read once, by the command)."""
    if not STANDALONE or not os.path.isfile(path):
        return
    try:
        with open(path, "rb") as f:
            head = f.read(1 << 20)
            more = f.read(1)
    except OSError:
        return  # (the command reports it)
    if not more and head.count(b"\n") <= SMALL_FILE_ROWS + 1:  # the header and the rows
        from .._kernels.jit import interpret

        interpret()


def variant(spec: str | None) -> Variant:
    """The variant of ``--rules`` (None: the default). An empty value (an unset ``$ROOM`` in
    ``--rules "$ROOM"``) is an error, not the default rules."""
    if spec is not None and not spec.strip():
        raise UsageError("--rules '': give a preset name or a YAML file (or leave --rules out)")
    if spec is not None and os.path.isfile(spec) and spec in preset_names():
        typer.echo(
            f"note: --rules {spec}: the preset '{spec}' is used; for the file of that name here, "
            f"give --rules ./{spec}",
            err=True,
        )
    return load_variant(spec)


def emit(data: dict, as_json: bool, render: Callable[[dict], str]):
    typer.echo(to_json(data) if as_json else render(data))


def stdin_lines() -> Iterable[tuple[int, str]]:
    """(line number, text) of each non-blank stdin line, the ones read ahead first."""
    global _stdin
    if _stdin is None:
        return _read_stdin()
    first, rest = _stdin
    _stdin = None
    return itertools.chain(first, rest)


def stdin_stream(binary: bool = True):
    """sys.stdin (its byte buffer when it has one), or a UsageError when there is none: a
    closed stdin (``ccmj waits - <&-``) leaves ``sys.stdin`` None."""
    if sys.stdin is None:
        raise UsageError("standard input is closed: give the input on stdin, or as an argument")
    return getattr(sys.stdin, "buffer", sys.stdin) if binary else sys.stdin


class LongLine(str):
    """A stdin line too long to be a row: its first characters stand for it, ``error`` says
    why (the lines around it are answered as usual)."""

    def __new__(cls, n: int, head: str):
        self = super().__new__(cls, head + "...")
        self.error = UsageError(
            f"line {n} of standard input is longer than {MAX_LINE:,} characters: "
            "give one hand per line"
        )
        return self


def _read_stdin() -> Iterator[tuple[int, str]]:
    # read bytes: undecodable input is a bad line (U+FFFD), not a UnicodeDecodeError traceback
    stream = stdin_stream()
    refuse_same_file("-", None)  # answers appended to the input would be read back, for ever
    if stream is not sys.stdin:
        stream = bounded(stream, owns=False)  # a file that grows as it is read: as it was
    try:
        for n, raw in enumerate(iter(lambda: stream.readline(MAX_LINE + 1), stream.read(0)), 1):
            body = raw[:-1] if raw[-1:] in (b"\n", "\n") else raw
            if len(body) > MAX_LINE:  # (a hand is a few dozen characters: not worth reading)
                rest = raw
                while rest and rest[-1:] not in (b"\n", "\n"):  # (skipped to its end)
                    rest = stream.readline(MAX_LINE + 1)
                head = body[:40].decode("utf-8", "replace") if isinstance(body, bytes) else body
                yield n, LongLine(n, head[:40])
                continue
            line = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
            if n == 1:
                line = line.removeprefix("\ufeff")  # a UTF-8 BOM (as batch reads it)
            line = line.strip()
            if line:  # blank lines separate nothing and are not rows
                yield n, line
    except OSError as e:  # stdin is a directory, a device that fails, ...
        raise UsageError(f"cannot read standard input: {e.strerror or e}") from None


def each_line(answer: Callable[[str], dict]) -> Callable[[list[str]], list]:
    """Adapt a one-line answer to run_batch: errors are returned, not raised."""

    def answer_many(lines: list[str]) -> list:
        out = []
        for line in lines:
            try:
                out.append(answer(line))
            except CcmjError as e:
                out.append(e)
        return out

    return answer_many


CHUNK = 2048  # lines judged per kernel call: streaming, with the call overhead amortised


def run_batch(
    answer_many: Callable[[list[str]], list],
    as_json: bool,
    summary: Callable[[dict], str],
    false_when: Callable[[dict], bool] | None = None,
):
    """One answer per stdin line, in order; a bad line becomes an error object, the run goes on.

    ``answer_many`` maps a chunk of lines to a dict or a CcmjError each. Exit 4 when any line
    failed (STYLE: a batch that finished with rows in error); else, with ``false_when`` (the
    command's --check), exit 1 when it holds for any answer.
    """
    failed = 0
    false = 0
    write = sys.stdout.write
    chunk: list[tuple[int, str]] = []

    def flush():
        nonlocal failed, false
        answers = iter(answer_many([x for _, x in chunk if not isinstance(x, LongLine)]))
        for n, line in chunk:
            d = line.error if isinstance(line, LongLine) else next(answers)
            if isinstance(d, CcmjError):
                failed += 1
                err = {"input": line, "line": n, "error": d.message, "code": d.code}
                write((to_json(err) if as_json else f"{line}\terror: {d.message}") + "\n")
            else:
                write((to_json(d) if as_json else f"{line}\t{summary(d)}") + "\n")
                false += bool(false_when and false_when(d))
        chunk.clear()

    for item in stdin_lines():
        chunk.append(item)
        if len(chunk) >= CHUNK:
            flush()
    flush()
    sys.stdout.flush()
    if failed:
        typer.echo(f"{failed} line(s) in error", err=True)
        raise typer.Exit(EXIT_BATCH_ERRORS)
    if false:
        raise typer.Exit(EXIT_FALSE)
