"""Batch throughput: score N generated CSV rows end to end and print rows/s.

    python scripts/bench_batch.py [N] [--json]

The rows are wins built from random sets + a pair (mostly legal, some not), with a random
winner, way of winning (self / discard / mobao / duibao), discarder and base, all distinct
enough that caches do not make the figure: the hand column is shuffled tile order text.
The first chunk pays the JIT/cache load; it is timed apart (warm-up) and excluded.
"""

import io
import os
import random
import sys
import time

sys.path.insert(0, ".")

from ccmj_cli import batch  # noqa: E402

SEATS = "ESWN"


def _hand(rng: random.Random) -> tuple[str, str]:
    while True:
        counts = [0] * 34
        tiles = []
        for _ in range(4):
            if rng.random() < 0.5:
                t = rng.randrange(34)
                tiles += [t] * 3
            else:
                s = rng.randrange(3)
                r = rng.randrange(7)
                tiles += [s * 9 + r, s * 9 + r + 1, s * 9 + r + 2]
        tiles += [rng.randrange(34)] * 2
        for t in tiles:
            counts[t] += 1
        if max(counts) <= 4:
            break
    win = tiles.pop(rng.randrange(len(tiles)))
    rng.shuffle(tiles)
    text = "".join(f"{t % 9 + 1}{'mpsz'[t // 9]}" for t in tiles)
    return text, f"{win % 9 + 1}{'mpsz'[win // 9]}"


def rows(n: int, seed: int = 1) -> str:
    rng = random.Random(seed)
    out = ["hand,win,how,seat,from,bao,base"]
    for _ in range(n):
        hand, win = _hand(rng)
        how = rng.choice(("self", "discard", "discard", "mobao", "duibao"))
        seat = rng.choice(SEATS)
        frm = rng.choice([s for s in SEATS if s != seat]) if how == "discard" else ""
        bao = win if how in ("mobao", "duibao") else ""
        if how == "mobao":
            bao = f"{rng.randrange(1, 10)}{rng.choice('mps')}"
            win = ""
        out.append(f"{hand},{win},{how},{seat},{frm},{bao},{rng.choice((1, 2, 5))}")
    return "\n".join(out) + "\n"


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 100_000
    as_json = "--json" in sys.argv
    t0 = time.perf_counter()
    warm = rows(2000, seed=2)
    batch.run(io.StringIO(warm), io.StringIO(), as_json)
    t1 = time.perf_counter()
    text = rows(n)
    t2 = time.perf_counter()
    out = io.StringIO()
    cpu = time.process_time()
    summary = batch.run(io.StringIO(text), out, as_json)
    t3 = time.perf_counter()
    cpu = time.process_time() - cpu
    print(f"warm-up (JIT/cache load) {t1 - t0:.1f} s; generated {n} rows in {t2 - t1:.1f} s")
    print(
        f"{summary.rows} rows, {summary.failed} in error, {t3 - t2:.2f} s: "
        f"{summary.rows / (t3 - t2):,.0f} rows/s wall"
    )
    print(
        f"CPU time {cpu:.2f} s (all threads): {summary.rows / cpu:,.0f} rows per CPU-second; "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )


if __name__ == "__main__":
    main()
