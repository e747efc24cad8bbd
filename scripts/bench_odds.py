"""Benchmark for ``ccmj odds`` (a script, not a test): whole commands as a user runs them.

    python scripts/bench_odds.py              # every case, 3 runs each, min and median
    python scripts/bench_odds.py --runs 5
    python scripts/bench_odds.py --in-process  # also the trials/s of the kernel alone

Each case runs the CLI as a subprocess (start-up, kernel loading and output included) after a
warm-up run (compiled kernels cached), and prints the wall time of each run, the min and the
median, with the machine's load average before and after: on a shared machine the figures are
only as good as the load is low.

Targets (warm, 2 cores): a 2-shanten hand, 100,000 trials
of the discard policy, <= 2 s; a 14-tile hand's per-discard table <= 3 s.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TWO = "123m469p789s1557z"  # 2-shanten (standard and legal)
FOURTEEN = "123m469p789s15577z"  # 14 tiles, 12 distinct discards
TENPAI = "123m456p789s1112s"

CASES = [
    # (label, arguments after `ccmj odds`)
    ("2-shanten, policy Monte Carlo, 100,000 trials, 1 thread",
     [TWO, "--declare", "--trials", "100000", "--seed", "1"]),
    ("2-shanten, policy Monte Carlo, 100,000 trials, 2 threads",
     [TWO, "--declare", "--trials", "100000", "--seed", "1", "--threads", "2"]),
    ("2-shanten, default command (exact when within reach)", [TWO, "--declare"]),
    ("14 tiles, per-discard table, default command (exact)", [FOURTEEN]),
    ("14 tiles, per-discard Monte Carlo, 20,000 trials per discard, 2 threads",
     [FOURTEEN, "--trials", "20000", "--seed", "1", "--threads", "2"]),
    ("14 tiles, per-discard Monte Carlo, 5,000 trials per discard, 2 threads",
     [FOURTEEN, "--trials", "5000", "--seed", "1", "--threads", "2"]),
    ("tenpai, declared, 1,000,000 trials, 2 threads",
     [TENPAI, "--declare", "--trials", "1000000", "--seed", "1", "--threads", "2"]),
]  # fmt: skip


def ccmj(args: list[str]) -> float:
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "ccmj_cli", "odds", *args, "--json"], cwd=ROOT,
                   check=True, stdout=subprocess.DEVNULL)  # fmt: skip
    return time.perf_counter() - t


def in_process():
    """The kernel alone (no start-up): trials per second of the policy path, labelled as such."""
    sys.path.insert(0, str(ROOT))
    from ccmj_cli.odds import odds

    odds(TWO, declare=True, trials=1000, seed=0, exact=False)  # load the kernels
    for threads in (1, 2):
        cpu = time.process_time()
        r = odds(TWO, declare=True, trials=100_000, seed=1, threads=threads, exact=False)
        r = r.results[0]
        cpu = time.process_time() - cpu
        print(
            f"  in-process, 2-shanten policy, 100,000 trials, {threads} thread(s): "
            f"{r.seconds:.2f} s wall, {cpu:.2f} CPU-s, {r.trials_per_second:,.0f} trials/s"
        )


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--in-process", action="store_true")
    args = ap.parse_args()
    print(f"cpus: {os.cpu_count()}, load average before: {os.getloadavg()[0]:.2f}")
    ccmj([TENPAI, "--declare", "--trials", "2000", "-n", "3"])  # warm-up: kernels cached
    for label, argv in CASES:
        ccmj(argv)  # (and this case's kernels)
        times = [ccmj(argv) for _ in range(args.runs)]
        print(f"{label:75s} " + " ".join(f"{t:5.2f}" for t in times)
              + f"  min {min(times):5.2f}  median {statistics.median(times):5.2f} s"
              + f"  (load {os.getloadavg()[0]:.1f})")  # fmt: skip
    if args.in_process:
        in_process()
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
