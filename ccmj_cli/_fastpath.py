"""``ccmj actions POSITION [--seat S] [--explain] [--json]`` answered without Typer.

One position takes the table engine milliseconds; importing Typer and building the options of
every command took a fifth of the whole command. So the ``ccmj`` program answers this one
command line itself — but only one it understands entirely: another command, ``--help``, an
option it does not know, a second position, ``--seat`` without a value, a console that cannot
print the answer: every other command line goes through Typer (``cli``), which defines the
command and words every usage error. The answer, the errors and the exit codes are the same
either way (tests/test_actions.py runs both).
"""

import os
import sys


def parse(argv: list[str]):
    """(position, seat, explain, json) of an ``actions`` command line, or None."""
    if not argv or argv[0] != "actions":
        return None
    position, seat, explain, as_json = None, None, False, False
    i = 1
    while i < len(argv):
        a = argv[i]
        if a == "--json":
            as_json = True
        elif a == "--explain":
            explain = True
        elif a == "--seat" or a.startswith("--seat="):
            if a == "--seat":
                i += 1
                if i == len(argv):
                    return None
                a = "--seat=" + argv[i]
            seat = a[7:]
            if not seat or seat.startswith("-"):
                return None
        elif a == "-" or not a.startswith("-"):
            if position is not None:
                return None
            position = a
        else:
            return None
        i += 1
    return None if position is None else (position, seat, explain, as_json)


def console_encoding_error() -> str | None:
    """Why standard output cannot carry ccmj's answers (tile and fan names are Chinese: a
    UnicodeEncodeError traceback came after part of the output), or None."""
    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    try:
        "长春麻将夹胡飘胡".encode(encoding)
    except UnicodeEncodeError:
        return (
            f"standard output's encoding is {encoding}, which cannot write the Chinese names "
            "ccmj prints: use a UTF-8 locale or set PYTHONIOENCODING=utf-8"
        )
    except LookupError:
        return None
    return None


def run(argv: list[str]) -> int | None:
    """Answer an ``actions`` command line: its exit code, or None to let Typer run it."""
    args = parse(argv)
    if args is None or sys.stdout is None or console_encoding_error():
        return None
    if os.environ.get("NUMBA_NUM_THREADS", "").strip():
        return None  # (compiled kernels may be chosen: Typer's path checks the value)
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # (as cli: no linear algebra here)
    sys.modules.setdefault("scipy", None)
    import contextlib

    from .errors import CcmjError, one_line, output_error, quiet_stdout

    with contextlib.suppress(AttributeError, ValueError):  # messages never fail to be written
        sys.stderr.reconfigure(errors="backslashreplace")
    position, seat, explain, as_json = args
    try:
        from ._kernels.jit import interpret

        interpret()  # one position: the table engine's source runs interpreted
        from .actions import legal_actions, read_position
        from .output import render_actions, to_json

        data = legal_actions(read_position(position), seat, explain)
        sys.stdout.write((to_json(data) if as_json else render_actions(data)) + "\n")
        sys.stdout.flush()
        return 0
    except CcmjError as e:
        sys.stderr.write(f"error: {one_line(e.message)}\n")
        return e.exit_code
    except BrokenPipeError:
        quiet_stdout()
        sys.stderr.close()  # the reader went away (e.g. `| head`): stop quietly
        return 0
    except OSError as e:  # writing the output failed (a full disk, /dev/full, ...)
        quiet_stdout()
        sys.stderr.write(f"error: {one_line(output_error(e).message)}\n")
        return 2
