"""Work items answered on several threads at once, the answers yielded in the items' order.

The searches behind `ccmj odds -` and `ccmj review` run in kernels that release the GIL, so
threads use every core. Ctrl-C reaches the main thread only (the one reading the answers): it,
or any other error there, sets ``stop``, which the work in flight reads so that it ends too.
"""

import threading
from collections import deque
from concurrent.futures import ThreadPoolExecutor


class Background:
    """``fn(*args, **kw)`` run in a daemon thread (``thread``), so that the caller can wait for
    it with a limit or while watching Ctrl-C; ``outcome()``, once it has ended, is its value,
    or raises its exception in the caller's thread."""

    def __init__(self, fn, *args, **kw):
        self._box = {}

        def work():
            try:
                self._box["out"] = fn(*args, **kw)
            except BaseException as e:  # (handed to the caller's thread)
                self._box["err"] = e

        self.thread = threading.Thread(target=work, daemon=True)
        self.thread.start()

    def error(self) -> BaseException | None:
        return self._box.get("err")

    def outcome(self):
        if "err" in self._box:
            raise self._box["err"]
        return self._box["out"]


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
