"""Benchmark: ``ccmj review`` of a simulate log for one seat, the whole command, warm.

    python scripts/bench_review.py [HANDS] [SEAT] [SEARCH]

Writes a log of HANDS hands (default 100, seed 7), runs the review once to warm the kernel
cache, then once timed; prints the seconds and the decisions graded.
"""

import os
import subprocess
import sys
import tempfile
import time


def main():
    hands = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    seat = sys.argv[2] if len(sys.argv) > 2 else "E"
    search = sys.argv[3] if len(sys.argv) > 3 else "full"
    ccmj = [sys.executable, "-m", "ccmj_cli"]
    with tempfile.TemporaryDirectory() as d:
        log = os.path.join(d, "log.jsonl")
        subprocess.run([*ccmj, "simulate", "-n", str(hands), "--seed", "7", "--log", log],
                       check=True, stdout=subprocess.DEVNULL)  # fmt: skip
        cmd = [*ccmj, "review", log, "--seat", seat, "--search", search, "--json"]
        subprocess.run([*ccmj, "review", log, "--seat", seat, "--hand", "1", "--search",
                        search, "--json"],
                       check=True, stdout=subprocess.DEVNULL)  # warm: the kernels loaded once
        t = time.perf_counter()
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
        dt = time.perf_counter() - t
    n = len(out.splitlines()) - 1
    print(f"ccmj review --search {search}: {hands} hands, seat {seat}: {n} decisions in {dt:.1f} s "
          f"({dt / max(n, 1) * 1000:.0f} ms a decision); target <= 60 s")  # fmt: skip


if __name__ == "__main__":
    main()
