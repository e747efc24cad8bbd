"""Error types and the exit codes they map to (see README, "Exit codes")."""

EXIT_OK = 0
EXIT_FALSE = 1  # a --check style predicate was false
EXIT_USAGE = 2  # bad usage or a bad hand
EXIT_VARIANT = 3  # invalid variant file
EXIT_BATCH_ERRORS = 4  # a batch finished with some rows in error


class CcmjError(Exception):
    """Base error: a one-line message, a stable snake_case code and an exit code."""

    exit_code = EXIT_USAGE
    code = "error"

    def __init__(self, message: str, code: str | None = None):
        super().__init__(message)
        if code:
            self.code = code

    @property
    def message(self) -> str:
        return str(self.args[0])


class HandError(CcmjError):
    """The hand text (or a tile argument) is not a valid hand for this command."""

    code = "bad_hand"


class UsageError(CcmjError):
    """Options that do not fit together (e.g. a discard win without --from)."""

    code = "bad_usage"


class PolicyError(CcmjError):
    """A policy file (--policy FILE) is unreadable or names an unknown weight or a bad value."""

    exit_code = EXIT_VARIANT
    code = "bad_policy"


class VariantError(CcmjError):
    """The variant file (rules.yaml) is unreadable or names an unknown key or bad value."""

    exit_code = EXIT_VARIANT
    code = "bad_variant"


def one_line(message: str) -> str:
    """The message as one line whatever the input held (a hand argument may contain a newline),
    quoting at most 80 characters of any input (a 100 KB hand is not worth echoing)."""
    import re

    message = message.replace("\r", "\\r").replace("\n", "\\n")
    return re.sub(r"'([^']{80})[^']{4,}'", lambda m: f"'{m.group(1)[:77]}...'", message)


def output_error(e: OSError) -> "UsageError":
    """Writing the output failed (a full disk, /dev/full, ...): the error to report."""
    name = str(e.filename)
    name = name if len(name) <= 80 else name[:77] + "..."
    what = f"'{name}'" if e.filename else "cannot write the output"
    return UsageError(f"{what}: {e.strerror or e}")


def quiet_stdout():
    """Point stdout at /dev/null, so that the interpreter's last flush of output that could not
    be written raises nothing more at exit."""
    import contextlib
    import os
    import sys

    with contextlib.suppress(OSError, ValueError, AttributeError):
        sys.stdout.flush()
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):
        pass
