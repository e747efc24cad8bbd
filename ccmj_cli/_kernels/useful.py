"""Per-suit "useful tile" tables for the discard policy of the table bots.

``useful[key, y]`` is the bit mask of the tiles x of a suit (bit x: tile x of the suit, 0-8; honors
0-6) that, added to the suit's counts ``key`` (base 5, as in ``tables``), lower its distance
``dist[key, y]`` for the target y = 2 * sets + pairs. A tile lowers a distance by one at most,
so whether a drawn tile helps a whole hand is whether it lowers its suit's distance at a target
the best split of the hand uses: one row lookup per suit instead of one per tile
(``policy.choose_discard_value``).

Built from the distance tables by a jitted pass (about a second) and cached next to them as
``.npy`` files, memory-mapped on a warm start; a few rows are checked against a fresh
computation on every load, and a file that fails is rebuilt.
"""

import os

import numpy as np

from .cache import table_folder
from .jit import njit
from .tables import tables

N_CHECK = 64  # rows re-computed on load


@njit(cache=True)
def useful_row(dist, key, n, out):
    """Fill ``out[10]`` with the useful-tile masks of suit counts ``key`` (n tiles)."""
    for y in range(10):
        out[y] = 0
    kk = key
    p = 1
    for x in range(n):
        if kk % 5 < 4:  # (a fifth copy is never drawn)
            r1 = dist[key + p]
            for y in range(10):
                if r1[y] < dist[key, y]:
                    out[y] |= 1 << x
        kk //= 5
        p *= 5


@njit(cache=True)
def build_useful(dist, n):
    out = np.zeros((dist.shape[0], 10), np.uint16)
    for key in range(dist.shape[0]):
        useful_row(dist, key, n, out[key])
    return out


@njit(cache=True)
def _rows_match(useful, dist, n, keys):
    row = np.zeros(10, np.uint16)
    for key in keys:
        useful_row(dist, key, n, row)
        for y in range(10):
            if row[y] != useful[key, y]:
                return False
    return True


def _load_or_build(name, dist, n):
    path = table_folder() / f"{name}-useful.npy"
    keys = np.random.default_rng().integers(0, dist.shape[0], N_CHECK)
    try:
        u = np.load(path, mmap_mode="r").view(np.ndarray)
        ok = u.shape == (dist.shape[0], 10) and u.dtype == np.uint16
        if ok and _rows_match(u, dist, n, keys):
            return u
    except (OSError, ValueError):
        pass
    u = build_useful(dist, n)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        with open(tmp, "wb") as f:
            np.save(f, u)
        os.replace(tmp, path)
    except OSError:
        pass  # a read-only cache still works, it just rebuilds next time
    u.setflags(write=False)  # one array type (read-only) whether built or loaded
    return u


_USEFUL = None


def useful_tables():
    """(suit useful, honor useful): built once per machine, then memory-mapped."""
    global _USEFUL
    if _USEFUL is None:
        tb = tables()
        _USEFUL = (_load_or_build("suit", tb[1], 9), _load_or_build("honor", tb[5], 7))
    return _USEFUL
