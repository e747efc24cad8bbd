"""Per-suit lookup tables: the fast path for shanten and structural waits.

Sets never cross a suit, so a hand is judged suit by suit. A suit's tile counts (nine digits
0-4, base 5) index tables that say, for that suit alone:

- ``exact``  bit 0: the tiles are exactly some sets; bit 1: exactly sets + one pair;
- ``dist``   for each target (i sets, j pairs), i <= 4, j <= 1, the fewest tiles to add so that
             the suit contains such a group (the tomohxx / Tenhou distance, never a fifth copy);
- ``waits0`` / ``waits1``  the tiles t for which counts + t is exactly sets / sets + pair;
- ``features`` (suits only) the 刻/顺/夹 features of the readings, with and without each
  winning tile: everything ``judge_waits`` needs from a suit in one row (``_build_features``).

Honors use the first four tables over seven digits with no chows. The tables are built by a jitted
pass in under a second and cached, verified, as ``.npy`` files in ``~/.cache/ccmj`` (cache.py).
"""

import numpy as np

from .cache import FEATURE_SPECS, HONOR_SPECS, SUIT_SPECS, load_tables, save_tables
from .jit import njit
from .shape import next_reading

N_TARGETS = 10  # target t = 2 * sets + pairs


@njit(cache=True, inline="always")
def _digits(key, n, d):
    """Write the n base-5 digits of ``key`` (tile counts) into ``d``; return their sum."""
    s = 0
    for k in range(n):
        d[k] = key % 5
        key //= 5
        s += d[k]
    return s


@njit(cache=True)
def _build(n, allow_chow):
    nkeys = 5**n
    pw = np.empty(n, np.int64)
    pw[0] = 1
    for k in range(1, n):
        pw[k] = pw[k - 1] * 5
    exact = np.zeros(nkeys, np.uint8)
    contains = np.zeros(nkeys, np.uint16)
    d = np.zeros(n, np.int64)
    for key in range(nkeys):
        if key > 0:  # increment the base-5 digits
            k = 0
            while d[k] == 4:
                d[k] = 0
                k += 1
            d[k] += 1
        s = 0
        for k in range(n):
            s += d[k]
        e = 0
        if s == 0:
            e = 1
        elif s % 3 == 0:
            i = 0
            while d[i] == 0:
                i += 1
            # the lowest tile starts a pung or a chow, and the rest are sets
            pung = d[i] >= 3 and exact[key - 3 * pw[i]] & 1
            chow = allow_chow and i <= n - 3 and d[i + 1] > 0 and d[i + 2] > 0
            if pung or (chow and exact[key - pw[i] - pw[i + 1] - pw[i + 2]] & 1):
                e = 1
        elif s % 3 == 2:
            for j in range(n):
                if d[j] >= 2 and exact[key - 2 * pw[j]] & 1:
                    e = 2
                    break
        exact[key] = e
        m = 0
        if e == 1 and s // 3 <= 4:
            m |= 1 << (2 * (s // 3))
        if e == 2 and s // 3 <= 4:
            m |= 1 << (2 * (s // 3) + 1)
        for k in range(n):
            if d[k] > 0:
                m |= contains[key - pw[k]]
        contains[key] = m

    dist = np.zeros((nkeys, N_TARGETS), np.uint8)
    waits0 = np.zeros(nkeys, np.uint16)
    waits1 = np.zeros(nkeys, np.uint16)
    for key in range(nkeys - 1, -1, -1):
        s = _digits(key, n, d)
        for t in range(N_TARGETS):
            if contains[key] >> t & 1:
                continue
            best = 255
            for k in range(n):
                if d[k] < 4:
                    v = dist[key + pw[k], t]
                    if v < best:
                        best = v
            dist[key, t] = min(best + 1, 255)
        if s <= 13:
            w0 = 0
            w1 = 0
            for k in range(n):
                if d[k] < 4:
                    x = exact[key + pw[k]]
                    if x & 1:
                        w0 |= 1 << k
                    if x & 2:
                        w1 |= 1 << k
            waits0[key] = w0
            waits1[key] = w1
    return exact, dist, waits0, waits1


@njit(cache=True)
def _build_features(exact):
    """Per suit pattern: which reading features its readings can have, for 夹胡/刻/飘 judgment.

    Bits: (P | C << 1 | J << 2) is set when some reading has a pung (P), a chow (C) and puts
    the winning tile in a 夹 shape (J: 坎张, 边张 or 单调 on the pair). Per pattern ``key``
    (at most 13 tiles): feat[key, x], x = 0-8, holds the features of key + the winning tile x
    (0 when that is not sets / sets + a pair, or x is held four times), and feat[key, 9] the
    features of key itself (no winning tile in this suit; 0 when it is not sets / sets + a
    pair). So one row answers a suit: the waits of a 1 or 2 mod 3 suit are the nonzero x,
    whether a 0 or 2 mod 3 suit is sets (+ pair) is column 9, and judging a wait needs no
    other lookup.
    """
    n = 9
    nkeys = 5**n
    pw = np.empty(n, np.int64)
    pw[0] = 1
    for k in range(1, n):
        pw[k] = pw[k - 1] * 5
    feat = np.zeros((nkeys, 10), np.uint8)
    d = np.zeros(n, np.int64)
    w = np.zeros(n, np.int64)
    kinds = np.zeros(5, np.int64)
    starts = np.zeros(5, np.int64)
    st = np.zeros(2, np.int64)
    for key in range(nkeys):
        e = exact[key]
        if e == 0:
            continue
        s = _digits(key, n, d)
        if s > 14:
            continue
        for pair in range(-1, n):
            if pair < 0 and e != 1:
                continue
            if pair >= 0 and (e != 2 or d[pair] < 2 or not exact[key - 2 * pw[pair]] & 1):
                continue
            for k in range(n):
                w[k] = d[k]
            if pair >= 0:
                w[pair] -= 2
            nsets = (s - (2 if pair >= 0 else 0)) // 3
            st[0] = 0
            st[1] = 0
            while next_reading(w, nsets, kinds, starts, st):
                has_p = 0
                has_c = 0
                for i in range(nsets):
                    if kinds[i] == 1:
                        has_p = 1
                    else:
                        has_c = 1
                base = has_p | has_c << 1
                feat[key, 9] |= 1 << base
                for x in range(n):
                    if d[x] == 0:
                        continue
                    jia = 1 if x == pair else 0
                    for i in range(nsets):
                        if kinds[i] == 0:
                            t = starts[i]
                            if x == t + 1 or (x == t + 2 and t == 0) or (x == t and t == 6):
                                jia = 1
                    feat[key - pw[x], x] |= 1 << (base | jia << 2)  # filed under key - x
    return feat


def _load_or_build(specs, n, allow_chow):
    # Memory-mapped .npy files, verified (cache.py): a warm start maps them instead of reading
    # 30 MB; a missing or damaged file is built again.
    loaded = load_tables(specs)
    if loaded is not None:
        return tuple(loaded[name] for name in specs)
    built = _build(n, allow_chow)
    save_tables(dict(zip(specs, built, strict=True)))
    for arr in built:  # one array type (read-only) whether built or loaded: one compilation
        arr.setflags(write=False)
    return built


def _load_or_build_features(suit_exact):
    loaded = load_tables(FEATURE_SPECS)
    if loaded is not None:
        return loaded["suit-features"]
    feat = _build_features(suit_exact)
    save_tables({"suit-features": feat})
    feat.setflags(write=False)
    return feat


_TABLES = None


def tables():
    """(suit exact, dist, waits0, waits1, honor exact, dist, waits0, waits1, suit features).

    Built once per machine, then memory-mapped from the cache.
    """
    global _TABLES
    if _TABLES is None:
        suit = _load_or_build(SUIT_SPECS, 9, True)
        honor = _load_or_build(HONOR_SPECS, 7, False)
        _TABLES = suit + honor + (_load_or_build_features(suit[0]),)
    return _TABLES
