"""Files the commands read and write, safely: no command destroys its input or leaves a
half-written output in place of a good file.

- An output file is written to a temporary file beside it and moved over it (``os.replace``)
  only once the whole output is written; on any error the temporary file is removed and the old
  file stays as it was. Devices and pipes (``/dev/null``, ``/dev/stdout``, a FIFO) are written
  directly: they cannot be replaced; so is a writable file in a folder where no new file can be
  made (it is the only way to write it).
- An output that is the input (the same file, also through a link, or stdout appended to the
  input file) is refused before anything is read: it would truncate the input, or grow it for
  ever while it is being read.
- An input that is a regular file is read up to the size it had when it was opened: a file that
  grows while it is read (``ccmj batch x.csv | tee -a x.csv``, which no check can see) is read
  as it was, not for ever.
"""

import contextlib
import io
import os
import stat
import sys
import tempfile

from .. import interrupts
from ..errors import UsageError


def _identity(st: os.stat_result | None) -> tuple[int, int] | None:
    """(device, inode) of a regular file: what two names of one file share."""
    if st is None or not stat.S_ISREG(st.st_mode):
        return None
    return st.st_dev, st.st_ino


def _stat(path: str) -> os.stat_result | None:
    try:
        return os.stat(path)
    except (OSError, ValueError):
        return None


def _fstat(stream) -> os.stat_result | None:
    try:
        return os.fstat(stream.fileno())
    except (AttributeError, OSError, ValueError):  # closed, or not a real file (a StringIO)
        return None


def refuse_same_file(inp: str, out: str | None) -> None:
    """A UsageError when writing ``out`` (None or '-': stdout) would write into ``inp`` ('-':
    stdin). Only regular files can be the same file; pipes and terminals never are."""
    src = _identity(_fstat(sys.stdin) if inp == "-" else _stat(inp))
    if src is None:
        return
    dst = _identity(_fstat(sys.stdout) if out in (None, "-") else _stat(out))
    if src == dst:
        what = "standard input" if inp == "-" else f"the input '{inp}'"
        where = "standard output" if out in (None, "-") else f"'{out}'"
        raise UsageError(
            f"{where} is the same file as {what}: writing it would destroy the input; "
            "write to another file"
        )


def check_writable(path: str, option: str = "--output") -> None:
    """A UsageError, before any work, when ``path`` cannot be written: an empty name, a
    directory, a missing folder, or (not as root, who may write anything) a folder where no new
    file can be made and a write-protected file."""
    if not path.strip():
        raise UsageError(f"cannot write '': give a file name to {option}")
    real = os.path.realpath(path)
    st = _stat(real)
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise UsageError(f"cannot write '{path}': it is a directory")
    folder = os.path.dirname(real) or "."
    if not os.path.isdir(folder):
        raise UsageError(f"cannot write '{path}': the folder '{folder}' does not exist")
    if st is not None and not stat.S_ISREG(st.st_mode):
        return  # a device or a pipe: written directly
    if not os.access(folder, os.W_OK) and not (st is not None and os.access(real, os.W_OK)):
        raise UsageError(f"cannot write '{path}': the folder '{folder}' is not writable")
    try:  # (as root every folder looks writable: /proc, a read-only mount; try it)
        fd, probe = tempfile.mkstemp(prefix=".ccmj-probe.", dir=folder)
    except OSError as e:
        if st is not None and os.access(real, os.W_OK):
            return  # (the file itself is written in place, as output_file does then)
        raise UsageError(f"cannot write '{path}': {e.strerror or e}") from None
    os.close(fd)
    os.unlink(probe)


def refuse_protected(path: str) -> None:
    """A UsageError when ``path`` is an existing regular file without write permission: as a
    shell's ``>`` (noclobber aside) would, ccmj does not replace it (``--force`` does)."""
    real = os.path.realpath(path)
    st = _stat(real)
    if st is not None and stat.S_ISREG(st.st_mode) and not os.access(real, os.W_OK):
        raise UsageError(f"'{path}' is write-protected: give --force to replace it")


@contextlib.contextmanager
def output_file(path: str, binary: bool = False, option: str = "--output"):
    """A text stream to write ``path`` (UTF-8, no newline translation; ``binary``: a byte
    stream), made whole or not at all: a temporary file beside ``path``, moved over it when the
    ``with`` block succeeds. ``option``: the option that named it, for the messages."""
    if not path.strip():
        raise UsageError(f"cannot write '': give a file name to {option}")
    text = {} if binary else {"newline": "", "encoding": "utf-8"}
    mode = "wb" if binary else "w"
    real = os.path.realpath(path)  # a symlink's target is what gets replaced, not the link
    st = _stat(real)
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise UsageError(f"cannot write '{path}': it is a directory")
    folder, name = os.path.split(real)
    direct = st is not None and not stat.S_ISREG(st.st_mode)  # a device or a pipe
    if st is not None and not direct and not os.access(folder or ".", os.W_OK):
        direct = os.access(real, os.W_OK)  # a writable file in a folder we cannot add to
    if direct:
        try:
            f = open(path, mode, **text)  # noqa: SIM115
        except OSError as e:
            raise UsageError(f"cannot write '{path}': {e.strerror}") from None
        try:
            with f:
                yield f
        except OSError as e:
            raise UsageError(f"cannot write '{path}': {e.strerror}") from None
        return
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder or ".")
    except OSError as e:
        raise UsageError(f"cannot write '{path}': {e.strerror}") from None
    interrupts.writing(tmp)
    try:
        with open(fd, mode, **text) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        # the mode the file had, or a new file's (mkstemp makes it owner-only)
        mode = stat.S_IMODE(st.st_mode) if st is not None else 0o666 & ~_umask()
        os.chmod(tmp, mode)
        os.replace(tmp, real)
    except BaseException as e:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(e, OSError):
            raise UsageError(f"cannot write '{path}': {e.strerror or e}") from None
        raise
    finally:
        interrupts.written(tmp)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


class _Bounded(io.RawIOBase):
    """A raw binary stream that ends after ``limit`` bytes."""

    def __init__(self, stream, limit: int, owns: bool):
        # read stream's raw file, past its (empty) buffer; keeping stream keeps the file open
        self._stream, self._raw, self._left, self._owns = stream, stream.raw, limit, owns

    def readable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._raw.fileno()

    def readinto(self, buffer) -> int:
        if self._left <= 0:
            return 0
        view = memoryview(buffer)
        n = self._raw.readinto(view[: min(len(view), self._left)]) or 0
        self._left -= n
        return n

    def close(self):
        if self._owns and not self.closed:
            self._stream.close()
        super().close()


def bounded(stream, owns: bool = True):
    """``stream`` (an open buffered binary file, nothing read from it yet) read no further than
    the bytes it holds now, when it is a regular file; otherwise (a pipe, a terminal, a device)
    ``stream`` itself. ``owns``: closing the result closes ``stream``'s file."""
    raw = getattr(stream, "raw", None)
    try:
        st = os.fstat(stream.fileno())
        here = os.lseek(stream.fileno(), 0, os.SEEK_CUR)
    except (AttributeError, OSError, ValueError):
        return stream
    if raw is None or not stat.S_ISREG(st.st_mode):
        return stream
    return io.BufferedReader(_Bounded(stream, max(st.st_size - here, 0), owns))
