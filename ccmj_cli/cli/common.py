"""Options and plumbing shared by every command: --rules, --json, errors, stdin batches."""

import functools
import sys
from collections.abc import Callable, Iterable
from typing import Annotated

import typer

from ..errors import EXIT_BATCH_ERRORS, CcmjError
from ..output import to_json
from ..rules import Variant, load_variant

RulesOpt = Annotated[
    str | None,
    typer.Option("--rules", "-r", help="Variant: a preset name or a YAML file (default: the seed rules)."),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON (JSON lines in batch mode).")]
VisibleOpt = Annotated[
    str | None,
    typer.Option("--visible", "-v", help="Tiles seen elsewhere (discards, others' melds), e.g. 55m7z."),
]


def fail(e: CcmjError):
    # one line whatever the input held (a hand argument may contain a newline)
    message = e.message.replace("\r", "\\r").replace("\n", "\\n")
    typer.echo(f"error: {message}", err=True)
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
            sys.stderr.close()  # the reader went away (e.g. `| head`): stop quietly
            raise typer.Exit(0) from None

    return wrapper


def variant(spec: str | None) -> Variant:
    return load_variant(spec)


def emit(data: dict, as_json: bool, render: Callable[[dict], str]):
    typer.echo(to_json(data) if as_json else render(data))


def stdin_lines() -> Iterable[tuple[int, str]]:
    # read bytes: undecodable input is a bad line (U+FFFD), not a UnicodeDecodeError traceback
    stream = getattr(sys.stdin, "buffer", sys.stdin)
    for n, raw in enumerate(stream, 1):
        line = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
        line = line.strip()
        if line:  # blank lines separate nothing and are not rows
            yield n, line


def run_batch(answer: Callable[[str], dict], as_json: bool, summary: Callable[[dict], str]):
    """One answer per stdin line; a bad line becomes an error object and the run goes on.

    Exit 4 when any line failed (STYLE: a batch that finished with rows in error).
    """
    failed = 0
    out = sys.stdout
    for n, line in stdin_lines():
        try:
            d = answer(line)
        except CcmjError as e:
            failed += 1
            d = {"input": line, "line": n, "error": e.message, "code": e.code}
            out.write((to_json(d) if as_json else f"{line}\terror: {e.message}") + "\n")
            continue
        out.write((to_json(d) if as_json else f"{line}\t{summary(d)}") + "\n")
    out.flush()
    if failed:
        typer.echo(f"{failed} line(s) in error", err=True)
        raise typer.Exit(EXIT_BATCH_ERRORS)
