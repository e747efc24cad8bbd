"""Threads for the table engine: its kernels release the GIL (``nogil``), and a run is cut in
blocks played side by side in plain Python threads.

Numba's own parallel loops (``parallel=True``, ``prange``) were the table engine's first way;
their compile re-optimised the whole engine twice more for each entry kernel (about 50 s each
on a 2-core machine, for ``simulate`` and again for the referee), where a ``nogil`` kernel
called from threads compiles once. This module holds no kernel (the cache key skips it).
"""

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, wait


def set_threads(k):
    """Use k threads (None: all available; more than available is clamped)."""
    from numba import config, set_num_threads

    top = config.NUMBA_NUM_THREADS
    set_num_threads(top if k is None else max(1, min(int(k), top)))


def get_threads() -> int:
    from numba import get_num_threads

    return get_num_threads()


def in_blocks(work: Callable[[int, int], None], n: int) -> None:
    """``work(b, n)`` for every block b < n: block 0 in this thread, each other in a thread of
    its own; returns when all have ended. A Ctrl-C meanwhile (a KeyboardInterrupt raised while
    waiting) is raised only then: until every block ends, their output rows are half written."""
    if n <= 1:
        work(0, 1)
        return
    interrupted = None
    with ThreadPoolExecutor(n - 1, thread_name_prefix="ccmj-block") as pool:
        futures = [pool.submit(work, b, n) for b in range(1, n)]
        try:
            work(0, n)
        finally:
            while True:
                try:
                    wait(futures)
                    break
                except KeyboardInterrupt as e:
                    interrupted = e
    if interrupted is not None:
        raise interrupted
    for f in futures:
        f.result()  # a block's error, raised here
