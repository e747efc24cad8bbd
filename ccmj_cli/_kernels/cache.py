"""Where ccmj keeps what it builds once per machine: the per-suit lookup tables and the compiled
kernels. Kept apart from tables.py so the command line can ask "are the tables built?" without
loading any kernel (this module imports neither Numba nor any kernel).

The folder is ``$CCMJ_CACHE_DIR`` (exactly that folder), else ``$XDG_CACHE_HOME/ccmj``, else
``~/.cache/ccmj``. When it cannot be written (a read-only home, an install shared by several
users), a private folder in the system's temporary directory (``<tmp>/ccmj-<uid>``), with a
one-line note on stderr; when neither can be, nothing is cached: the tables are built in memory
and the kernels compiled in every process that needs them.

- ``tables-v<TABLE_VERSION>/``: the tables as ``.npy`` files, and ``manifest.json`` with each
  file's shape, dtype and SHA-256, and the ``os.stat`` stamp (size, mtime, ctime, inode) it had
  when its checksum was last verified. A file whose stamp still matches is used as it is (a
  write to a file changes its ctime, which no user command can set back); any other file is
  checked against its SHA-256 (50 ms for all tables), and a file that fails the check (empty,
  cut, the wrong shape, a damaged body) is rebuilt, never used.
- ``numba-<version>-<hash>/``: Numba's cache of compiled kernels, one folder per ccmj version
  and content of the kernel sources (``_kernels/**/*.py``). Numba re-validates a cached kernel
  against its own source file only, so a kernel whose callee changed (a new version, an edited
  checkout) would otherwise run stale machine code; a new folder compiles everything afresh.
  Old folders are never used again and may be deleted.
"""

import contextlib
import json
import os
import stat
import sys
from pathlib import Path

# hashlib and tempfile (~20 ms of imports) are imported where used: a warm start needs neither

TABLE_VERSION = 3  # 3: manifest.json (checksums); 2: the feature table filed by the hand before
TABLE_PARTS = ("exact", "dist", "waits0", "waits1")
MANIFEST = "manifest.json"


def cache_dir() -> Path:
    """The cache folder as configured (whether or not it can be written)."""
    if os.environ.get("CCMJ_CACHE_DIR"):
        return Path(os.environ["CCMJ_CACHE_DIR"])
    if os.environ.get("XDG_CACHE_HOME"):
        return Path(os.environ["XDG_CACHE_HOME"]) / "ccmj"
    try:
        return Path.home() / ".cache" / "ccmj"
    except RuntimeError:  # no home directory at all
        return fallback_dir()


def fallback_dir() -> Path:
    """The private folder used when the cache folder cannot be written."""
    import tempfile

    uid = os.getuid() if hasattr(os, "getuid") else os.getpid()
    return Path(tempfile.gettempdir()) / f"ccmj-{uid}"


def _private(folder: Path) -> bool:
    """``folder`` is a real folder of this user that no one else can write: a shared temporary
    directory must not let another user plant tables or compiled code there."""
    try:
        st = os.lstat(folder)
    except OSError:
        return False
    if not stat.S_ISDIR(st.st_mode) or st.st_mode & 0o022:
        return False
    return not hasattr(os, "getuid") or st.st_uid == os.getuid()


def _writable(folder: Path, private: bool = False) -> bool:
    import tempfile

    try:
        folder.mkdir(mode=0o700 if private else 0o777, parents=True, exist_ok=True)
        if private and not _private(folder):
            return False
        with tempfile.TemporaryFile(dir=folder):
            pass
    except (OSError, ValueError):
        return False
    return True


_ROOT: list = []  # the folder to write in, once resolved: [Path | None]
_noted = False


def note(message: str) -> None:
    """One line on stderr, once per process."""
    global _noted
    if not _noted:
        _noted = True
        with contextlib.suppress(OSError, ValueError, AttributeError):
            sys.stderr.write(f"note: {message}\n")


def writable_root() -> Path | None:
    """The folder to write caches in: the cache folder, else the private temporary one (with a
    note on stderr), else None (a note: nothing is cached)."""
    if not _ROOT:
        primary = cache_dir()
        if _writable(primary):
            _ROOT.append(primary)
        elif _writable(fallback_dir(), private=True):
            _ROOT.append(fallback_dir())
            note(f"the cache folder {primary} cannot be written; caching in {fallback_dir()}")
        else:
            _ROOT.append(None)
            note(f"the cache folder {primary} cannot be written: nothing is cached this run")
    return _ROOT[0]


def _roots():
    """The folders where built tables may be found, in order (the second only if needed)."""
    primary = cache_dir()
    yield primary
    if fallback_dir() != primary and _private(fallback_dir()):
        yield fallback_dir()


def _specs(group: str, n: int) -> dict:
    keys = 5**n  # a suit's (n = 9) or the honors' (n = 7) tile counts, base 5
    shapes = {"exact": (keys,), "dist": (keys, 10), "waits0": (keys,), "waits1": (keys,)}
    dtypes = {"exact": "uint8", "dist": "uint8", "waits0": "uint16", "waits1": "uint16"}
    return {f"{group}-{p}": (shapes[p], dtypes[p]) for p in TABLE_PARTS}


# name -> (shape, dtype) of every table file (tables.py builds them; checked here on load)
SUIT_SPECS = _specs("suit", 9)
HONOR_SPECS = _specs("honor", 7)
FEATURE_SPECS = {"suit-features": ((5**9, 10), "uint8")}
TABLE_SPECS = {**SUIT_SPECS, **HONOR_SPECS, **FEATURE_SPECS}


# --- verified tables ---------------------------------------------------------------------


def _stamp(st: os.stat_result) -> list[int]:
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]


def _digest(arr) -> str:
    import hashlib

    import numpy as np

    return hashlib.sha256(memoryview(np.ascontiguousarray(arr)).cast("B")).hexdigest()


def _read_manifest(folder: Path) -> dict:
    try:
        with open(folder / MANIFEST, "rb") as f:
            data = json.loads(f.read(1 << 16))
        files = data["files"]
        return files if data.get("version") == TABLE_VERSION and isinstance(files, dict) else {}
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        return {}


def _write_manifest(folder: Path, files: dict) -> None:
    tmp = folder / f"{MANIFEST}.{os.getpid()}.tmp"
    try:
        tmp.write_text(json.dumps({"version": TABLE_VERSION, "files": files}, indent=1))
        os.replace(tmp, folder / MANIFEST)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink()


def _load_one(folder: Path, name: str, entry, spec):
    """The array of ``name`` (memory-mapped, read-only) if it passes the checks, else None."""
    import numpy as np

    if not isinstance(entry, dict):
        return None
    path = folder / f"{name}.npy"
    try:
        st = os.stat(path)
        arr = np.load(path, mmap_mode="r", allow_pickle=False).view(np.ndarray)
    except (OSError, ValueError, EOFError):  # missing, empty, cut, not an .npy
        return None
    shape, dtype = spec
    if arr.shape != shape or arr.dtype != np.dtype(dtype):
        return None
    if entry.get("shape") != list(shape) or entry.get("dtype") != np.dtype(dtype).name:
        return None
    if entry.get("stamp") != _stamp(st):
        if _digest(arr) != entry.get("sha256"):
            return None
        entry["stamp"] = _stamp(st)  # verified again: refresh the stamp
        entry["_refreshed"] = True
    return arr


_LOADED: dict = {}  # name -> verified array, for this process


def load_tables(specs: dict) -> dict | None:
    """{name: array} for ``specs`` ({name: (shape, dtype)}) from the first folder that holds
    them all verified, else None (they must be built)."""
    if all(n in _LOADED for n in specs):
        return {n: _LOADED[n] for n in specs}
    for root in _roots():
        folder = root / f"tables-v{TABLE_VERSION}"
        files = _read_manifest(folder)
        if not files:
            continue
        out = {}
        for name, spec in specs.items():
            arr = _load_one(folder, name, files.get(name), spec)
            if arr is None:
                break
            out[name] = arr
        else:
            refreshed = [e.pop("_refreshed", False) for e in files.values() if isinstance(e, dict)]
            if any(refreshed):
                _write_manifest(folder, files)
            _LOADED.update(out)
            return out
    return None


def save_tables(arrays: dict) -> None:
    """Write ``arrays`` ({name: array}) and their manifest entries, each file whole or not at
    all; nothing when no cache folder can be written (they are then built every run)."""
    root = writable_root()
    if root is None:
        return
    folder = root / f"tables-v{TABLE_VERSION}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        files = _read_manifest(folder)
        for name, arr in arrays.items():
            import numpy as np

            path = folder / f"{name}.npy"
            tmp = folder / f"{name}.{os.getpid()}.tmp"
            with open(tmp, "wb") as f:
                np.save(f, arr)
            os.replace(tmp, path)
            files[name] = {
                "shape": list(arr.shape),
                "dtype": arr.dtype.name,
                "sha256": _digest(arr),
                "stamp": _stamp(os.stat(path)),
            }
        _write_manifest(folder, files)
    except OSError:
        pass  # a full disk, a folder that went away: built again next time


def adopt_tables(data: bytes) -> None:
    """Keep in this process tables handed over as consecutive ``.npy`` images (TABLE_SPECS
    order), if every one has its expected shape and dtype."""
    import io

    import numpy as np

    stream = io.BytesIO(data)
    out = {}
    try:
        for name, (shape, dtype) in TABLE_SPECS.items():
            arr = np.load(stream, allow_pickle=False)
            if arr.shape != shape or arr.dtype != np.dtype(dtype):
                return
            arr.setflags(write=False)
            out[name] = arr
    except (OSError, ValueError, EOFError):
        return
    _LOADED.update(out)


def tables_built() -> bool:
    """Are the lookup tables built and intact (so that interpreted kernels can run)?"""
    return load_tables(TABLE_SPECS) is not None


# --- the compiled kernels' cache -----------------------------------------------------------


def kernel_sources_hash() -> str:
    """A hash of every kernel source file, the table engine's (``table/``) too (jit.py included:
    it sets how they compile; this file and progress.py, which hold no kernel, not): any change
    to any of them is a new Numba cache."""
    import hashlib

    h = hashlib.sha256()
    here = Path(__file__).parent
    for path in sorted(here.rglob("*.py")):
        rel = path.relative_to(here).as_posix()
        if rel in ("cache.py", "progress.py"):
            continue
        h.update(rel.encode() + b"\0")
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def numba_cache_dir() -> Path | None:
    """Numba's cache folder for this ccmj version and kernel sources, or None (uncached)."""
    root = writable_root()
    if root is None:
        return None
    from .. import __version__

    folder = root / f"numba-{__version__}-{kernel_sources_hash()}"
    return folder if _writable(folder) else None


# --- memos kept between processes -------------------------------------------------------------


def memo_path(name: str) -> Path | None:
    """Where a kernel memo called ``name`` is kept between processes (``memo-<name>-<kernel
    sources hash>.npy``: a memo holds what the kernels of these sources computed), or None
    when nothing can be cached."""
    root = writable_root()
    if root is None:
        return None
    return root / f"memo-{name}-{kernel_sources_hash()}.npy"


_MEMO_MAGIC = b"ccmj-memo-1\n"


def load_memo(name: str) -> dict | None:
    """The arrays of a memo saved by ``save_memo``, or None (none saved, or unreadable: the
    caller starts afresh and the file is replaced at the next save). The arrays are mapped
    copy-on-write, not read: a process touches only the pages it uses, and its writes stay
    its own (a memo of 100,000 rows is 140 MB; reading it whole cost every command 0.5 s)."""
    path = memo_path(name)
    if path is None or not path.exists():
        return None
    import numpy as np
    from numpy.lib import format as npf

    out = {}
    try:
        size = path.stat().st_size
        with open(path, "rb") as f:
            if f.read(len(_MEMO_MAGIC)) != _MEMO_MAGIC:
                return None
            for _ in range(f.read(1)[0]):
                key = f.read(f.read(1)[0]).decode("ascii")
                npf.read_magic(f)
                shape, fortran, dtype = npf.read_array_header_1_0(f)
                off = f.tell()
                nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
                if fortran or dtype.hasobject or off + nbytes > size:
                    return None
                if nbytes:
                    a = np.asarray(np.memmap(path, dtype=dtype, mode="c", offset=off, shape=shape))
                else:
                    a = np.zeros(shape, dtype)
                out[key] = a
                f.seek(off + nbytes)
    except (OSError, ValueError, EOFError, IndexError, UnicodeDecodeError):
        return None
    return out


def save_memo(name: str, arrays: dict) -> None:
    """Write a memo's arrays into one file that ``load_memo`` maps (atomically: a temporary
    file, then renamed; a failure to write only means the next process computes them again).
    The same memo saved by other kernel sources (an earlier version) is deleted: no process of
    these sources reads it, and each is 100 MB or more."""
    path = memo_path(name)
    if path is None:
        return
    import tempfile

    import numpy as np
    from numpy.lib import format as npf

    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".memo-", suffix=".npy")
        with os.fdopen(fd, "wb") as f:
            f.write(_MEMO_MAGIC + bytes([len(arrays)]))
            for key, a in arrays.items():
                f.write(bytes([len(key)]) + key.encode("ascii"))
                npf.write_array(f, np.ascontiguousarray(a), version=(1, 0), allow_pickle=False)
        os.replace(tmp, path)
    except OSError:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        return
    for old in path.parent.glob(f"memo-{name}-*.npy"):
        if old != path:
            with contextlib.suppress(OSError):
                old.unlink()
