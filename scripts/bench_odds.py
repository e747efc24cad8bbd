"""Benchmark for ``ccmj odds`` (a script, not a test): prints trials/second, compile time apart.

    python scripts/bench_odds.py            # the issue's targets, 1 and 2 threads
    python scripts/bench_odds.py --quick    # a tenth of the trials

Targets (ISSUE 4, on a 2-core machine, warm): a tenpai hand, 1,000,000 trials in under 2 s;
a 2-shanten hand with the discard policy, 100,000 trials in under 10 s; near-linear speed-up
from 1 to 2 threads.
"""

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from ccmj_cli.odds import odds  # noqa: E402

CASES = [
    # (label, hand, kwargs, trials)
    ("tenpai, declared, self-draws", "123m456p789s1112s", dict(declare=True), 1_000_000),
    ("tenpai, declared, bao unknown, random opponents", "123m456p789s1112s",
     dict(declare=True, bao="unknown", opponents="random"), 1_000_000),
    ("2-shanten, discard policy, declare", "123m469p789s1557z", dict(declare=True), 100_000),
    ("2-shanten, discard policy, opponents", "123m469p789s1557z",
     dict(declare=True, opponents="random"), 100_000),
]  # fmt: skip


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="a tenth of the trials")
    ap.add_argument("--threads", default="1,2", help="thread counts to time, e.g. 1,2")
    args = ap.parse_args()
    scale = 10 if args.quick else 1
    threads = [int(x) for x in args.threads.split(",")]
    t0 = time.perf_counter()
    for _, hand, kw, _ in CASES:  # compile / load every kernel once, outside the timings
        odds(hand, trials=10, seed=0, draws=17, **kw)
    print(f"warm-up (compile or cache load): {time.perf_counter() - t0:.1f} s")
    print(f"cpus: {os.cpu_count()}, load average: {os.getloadavg()[0]:.2f} "
          "(other processes share the cores: compare trials/cpu-s when it is high)")  # fmt: skip
    for label, hand, kw, n in CASES:
        n //= scale
        base = None
        for k in threads:
            cpu = time.process_time()
            r = odds(hand, trials=n, seed=1, draws=17, threads=k, **kw).results[0]
            cpu = time.process_time() - cpu
            base = base or r.seconds
            print(
                f"{label:48s} threads={k}  {n:>9,} trials  wall {r.seconds:6.2f} s  "
                f"{r.trials_per_second:>10,.0f} trials/s  speed-up {base / r.seconds:4.2f}  "
                f"cpu {cpu:6.2f} s ({n / cpu:>10,.0f} trials/cpu-s)  p_win={r.p_win:.4f}"
            )


if __name__ == "__main__":
    main()
