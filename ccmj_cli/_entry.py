"""The ``ccmj`` console script. Ctrl-C is handled the one way described in ``interrupts``
(never a traceback from the middle of an import). The process ends with ``os._exit`` once the
command is done and its output flushed: the interpreter's shutdown would collect every object
of the compiled kernels (about a second), and it puts back the default SIGINT action, so a
Ctrl-C arriving then would kill the process (exit -2) instead of ending it with exit 130."""

import contextlib
import gc
import os
import sys
import threading

from . import interrupts

# Start-up (imports, loading the compiled kernels) makes several hundred thousand objects that
# live as long as the process, and the cyclic collector walked them again and again as they
# came: about 0.08 s of a 0.6 s command. So a command starts with the collector off and turns
# it on after START_UP_S, which a warm command rarely reaches; reference counting frees all
# but cycles meanwhile. A child forked before then turns it on at once.
START_UP_S = 1.0


def _collector_off_for_start_up() -> None:
    gc.disable()
    os.register_at_fork(after_in_child=gc.enable)
    timer = threading.Timer(START_UP_S, gc.enable)
    timer.daemon = True
    timer.start()


def main():
    _collector_off_for_start_up()
    interrupts.install()
    from ._fastpath import run

    code = run(sys.argv[1:])  # `ccmj actions POSITION`: answered without Typer
    if code is None:
        from .cli import main as cli_main

        try:
            cli_main()
            code = 0
        except SystemExit as e:  # typer ends every command this way
            code = e.code
    if code is None:
        code = 0
    elif not isinstance(code, int):
        if sys.stderr is not None:
            sys.stderr.write(f"{code}\n")
        code = 1
    try:
        if sys.stdout is not None:  # (None: the process was started with it closed)
            sys.stdout.flush()
    except (BrokenPipeError, ValueError):  # the reader went away (`| head`), or it is closed
        pass
    except OSError as e:  # (the commands flush their own output: this is a last guard)
        if sys.stderr is not None:
            sys.stderr.write(f"error: cannot write the output: {e.strerror or e}\n")
        code = code or 2
    if sys.stderr is not None:
        with contextlib.suppress(OSError, ValueError):
            sys.stderr.flush()
    exact = sys.modules.get("ccmj_cli.exact")  # (os._exit skips atexit: its memo is kept here)
    if exact is not None:
        with contextlib.suppress(Exception):
            exact.save_memos()
    os._exit(code)
