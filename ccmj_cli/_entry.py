"""The ``ccmj`` console script. Ctrl-C is handled the one way described in ``interrupts``
(never a traceback from the middle of an import). The process ends with ``os._exit`` once the
command is done and its output flushed: the interpreter's shutdown would collect every object
of the compiled kernels (about a second), and it puts back the default SIGINT action, so a
Ctrl-C arriving then would kill the process (exit -2) instead of ending it with exit 130."""

import contextlib
import os
import sys

from . import interrupts


def main():
    interrupts.install()
    from .cli import main as cli_main

    try:
        cli_main()
        code = 0
    except SystemExit as e:  # typer ends every command this way
        code = e.code
    if code is None:
        code = 0
    elif not isinstance(code, int):
        sys.stderr.write(f"{code}\n")
        code = 1
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe (`| head`), or stream
            stream.flush()
    os._exit(code)
