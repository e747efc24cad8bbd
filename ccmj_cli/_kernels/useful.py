"""Per-suit "useful tile" tables for the discard policy of the table bots.

``useful[key, y]`` is the bit mask of the tiles x of a suit (bit x: tile x of the suit, 0-8; honors
0-6) that, added to the suit's counts ``key`` (base 5, as in ``tables``), lower its distance
``dist[key, y]`` for the target y = 2 * sets + pairs. A tile lowers a distance by one at most,
so whether a drawn tile helps a whole hand is whether it lowers its suit's distance at a target
the best split of the hand uses: one row lookup per suit instead of one per tile
(``policy.choose_discard_value``).

Built from the distance tables by a jitted pass (about a second) and cached next to them as
``.npy`` files with the same checks (``cache.load_tables``: shape, dtype, checksum),
memory-mapped on a warm start; a few rows are also re-computed on every load, and tables that
fail are rebuilt.
"""

import numpy as np

from .cache import load_tables, save_tables
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


USEFUL_SPECS = {"suit-useful": ((5**9, 10), "uint16"), "honor-useful": ((5**7, 10), "uint16")}


def _load_or_build(dists):
    """The useful tables from the cache folder (verified as the lookup tables are, and a few
    rows re-computed), else built and saved there."""
    got = load_tables(USEFUL_SPECS)
    if got is not None:
        keys = np.random.default_rng()
        ok = all(
            _rows_match(got[name], dist, n, keys.integers(0, dist.shape[0], N_CHECK))
            for name, (dist, n) in dists.items()
        )
        if ok:
            return got
    got = {}
    for name, (dist, n) in dists.items():
        u = build_useful(dist, n)
        u.setflags(write=False)  # one array type (read-only) whether built or loaded
        got[name] = u
    save_tables(got)  # (nothing when no cache folder can be written: built next time)
    return got


_USEFUL = None


def useful_tables():
    """(suit useful, honor useful): built once per machine, then memory-mapped."""
    global _USEFUL
    if _USEFUL is None:
        tb = tables()
        got = _load_or_build({"suit-useful": (tb[1], 9), "honor-useful": (tb[5], 7)})
        _USEFUL = (got["suit-useful"], got["honor-useful"])
    return _USEFUL
