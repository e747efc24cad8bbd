"""The ``ccmj`` console script: Ctrl-C while the command line is still loading ends quietly
(one line on stderr, exit 130) instead of a traceback from the middle of an import; and the
exit skips the interpreter's last garbage collection over the compiled kernels' objects (it
cost about a second after every command that ran compiled kernels)."""

import gc
import os
import signal
import sys

EXIT_INTERRUPTED = 130


def _while_loading(signum, frame):
    try:
        sys.stderr.write("INTERRUPTED while starting: nothing computed yet\n")
        sys.stderr.flush()
    finally:
        os._exit(EXIT_INTERRUPTED)


def main():
    signal.signal(signal.SIGINT, _while_loading)
    from .cli import main as cli_main

    signal.signal(signal.SIGINT, signal.default_int_handler)  # commands handle Ctrl-C their way
    try:
        cli_main()
    finally:
        gc.freeze()  # nothing is collected at exit: the process ends anyway
