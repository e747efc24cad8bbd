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
