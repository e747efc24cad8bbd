"""A small open-addressing hash table on numpy arrays, for the kernels' memos and state graphs.

Keys are four non-negative int64 words (pad unused words with 0); values are int64 >= 0. The
table is three arrays — ``keys`` int64[cap, 4], ``vals`` int64[cap] (-1 = empty slot) and
``meta`` int64[2] = [entries, cap - 1] — so a kernel can own several and grow them (``put``
returns the arrays, new ones when it had to grow). The hash stays below 2**52 at every step, so
the same source gives the same answers interpreted (no int64 overflow) and compiled.
"""

import numpy as np

from .jit import njit

_M = 2147483647  # 2**31 - 1


@njit(cache=True)
def new(cap):
    """An empty table with room for ``cap`` (a power of two) slots."""
    keys = np.zeros((cap, 4), np.int64)
    vals = np.full(cap, -1, np.int64)
    meta = np.zeros(2, np.int64)
    meta[1] = cap - 1
    return keys, vals, meta


@njit(cache=True, inline="always")
def _hash(k0, k1, k2, k3):
    h = k0 % _M
    h = (h * 1000003 + k1 % _M) % _M
    h = (h * 1000003 + k2 % _M) % _M
    h = (h * 1000003 + k3 % _M) % _M
    h = (h * 1000003 + k0 // _M % _M) % _M
    h = (h * 1000003 + k1 // _M % _M) % _M
    return (h * 2654435761) % _M  # (a multiplicative mix, < 2**63)


@njit(cache=True, inline="always")
def slot(keys, vals, meta, k0, k1, k2, k3):
    """The slot holding this key, or the empty slot where it would go."""
    mask = meta[1]
    i = _hash(k0, k1, k2, k3) & mask
    while vals[i] >= 0:
        if keys[i, 0] == k0 and keys[i, 1] == k1 and keys[i, 2] == k2 and keys[i, 3] == k3:
            return i
        i = (i + 1) & mask
    return i


@njit(cache=True, inline="always")
def find(keys, vals, meta, k0, k1, k2, k3):
    """``get``, inlined into the caller (a lookup in a hot loop)."""
    return vals[slot(keys, vals, meta, k0, k1, k2, k3)]


@njit(cache=True)
def get(keys, vals, meta, k0, k1, k2, k3):
    """The value stored for this key, or -1."""
    return vals[slot(keys, vals, meta, k0, k1, k2, k3)]


@njit(cache=True, inline="always")
def insert(keys, vals, meta, k0, k1, k2, k3, v):
    """Store ``v`` (>= 0) for the key in a table with room for it (``reserve``): it never
    grows, so a hot loop keeps its arrays (no new ones to count references to)."""
    i = slot(keys, vals, meta, k0, k1, k2, k3)
    if vals[i] < 0:
        meta[0] += 1
    keys[i, 0] = k0
    keys[i, 1] = k1
    keys[i, 2] = k2
    keys[i, 3] = k3
    vals[i] = v


@njit(cache=True)
def _rehash(keys, vals, meta, cap):
    nk, nv, nm = new(cap)
    for j in range(meta[1] + 1):
        if vals[j] >= 0:
            s = slot(nk, nv, nm, keys[j, 0], keys[j, 1], keys[j, 2], keys[j, 3])
            nk[s, :] = keys[j, :]
            nv[s] = vals[j]
            nm[0] += 1
    return nk, nv, nm


@njit(cache=True)
def reserve(keys, vals, meta, n):
    """(keys, vals, meta) with room for ``n`` more entries that ``insert`` keeps at most half
    full (grown now when needed)."""
    cap = meta[1] + 1
    if 2 * (meta[0] + n) <= cap:
        return keys, vals, meta
    while 2 * (meta[0] + n) > cap:
        cap *= 2
    return _rehash(keys, vals, meta, cap)


@njit(cache=True)
def put(keys, vals, meta, k0, k1, k2, k3, v):
    """Store ``v`` (>= 0) for the key; returns (keys, vals, meta), grown when over half full."""
    insert(keys, vals, meta, k0, k1, k2, k3, v)
    if 2 * meta[0] <= meta[1] + 1:
        return keys, vals, meta
    return _rehash(keys, vals, meta, 2 * (meta[1] + 1))
