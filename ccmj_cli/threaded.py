"""Work items answered on several threads at once, the answers yielded in the items' order.

The searches behind `ccmj odds -` and `ccmj review` run in kernels that release the GIL, so
threads use every core. Ctrl-C reaches the main thread only (the one reading the answers): it,
or any other error there, sets ``stop``, which the work in flight reads so that it ends too.
"""

from collections import deque
from concurrent.futures import ThreadPoolExecutor


def in_order(items, fn, threads: int, stop):
    """(item, fn(item)) for each item in order, ``threads`` computed at a time and a few items
    ahead (the output streams as the input is read)."""
    work = ThreadPoolExecutor(max_workers=threads)
    ahead = deque()
    try:
        for item in items:
            ahead.append((item, work.submit(fn, item)))
            if len(ahead) >= 2 * threads:
                item0, f = ahead.popleft()
                yield item0, f.result()
        while ahead:
            item0, f = ahead.popleft()
            yield item0, f.result()
    except BaseException:
        stop.set()
        raise
    finally:
        work.shutdown(wait=True, cancel_futures=True)
