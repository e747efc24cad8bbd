"""Where the kernels keep what they build once per machine: the per-suit lookup tables.

``~/.cache/ccmj`` (or ``$CCMJ_CACHE_DIR``, or ``$XDG_CACHE_HOME/ccmj``). Kept apart from
tables.py so the command line can ask "are the tables built?" without loading any kernel.
"""

import os
from pathlib import Path

TABLE_VERSION = 2  # 2: the feature table is filed by the hand before the win
TABLE_PARTS = ("exact", "dist", "waits0", "waits1")


def cache_dir() -> Path:
    base = os.environ.get("CCMJ_CACHE_DIR") or os.environ.get("XDG_CACHE_HOME")
    return Path(base) / "ccmj" if base else Path.home() / ".cache" / "ccmj"


def table_folder() -> Path:
    return cache_dir() / f"tables-v{TABLE_VERSION}"


def table_paths(name: str) -> list[Path]:
    return [table_folder() / f"{name}-{part}.npy" for part in TABLE_PARTS]


def features_path() -> Path:
    return table_folder() / "suit-features.npy"


def tables_built() -> bool:
    paths = [*table_paths("suit"), *table_paths("honor"), features_path()]
    return all(p.is_file() for p in paths)
