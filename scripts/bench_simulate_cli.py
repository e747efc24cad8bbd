"""Benchmark `ccmj simulate` as a user runs it: the whole command from the shell (not a test).

    python scripts/bench_simulate_cli.py                  # 20,000 hands, seed 3, 3 runs
    python scripts/bench_simulate_cli.py --log            # the same with --log to a temp file
    python scripts/bench_simulate_cli.py --hands 5000 --runs 5 -- --threads 1

Each run is `ccmj simulate --hands N --seed S --json [--log FILE] [extra]` in a subprocess,
timed from start to exit: Python and Numba start-up, loading the cached kernels and writing the
output are included (a warm-up run first, untimed, so the kernels are compiled and cached).
Prints each run, the min / median hands/s over the runs, the in-process figure the command
reports (`hands_per_second`, the play only), and the machine's load average before and after:
other jobs on the machine slow every figure.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(args: list[str]) -> tuple[float, dict]:
    cmd = [sys.executable, "-m", "ccmj_cli", "simulate", *args]  # as the ccmj script runs
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # this checkout, whatever is installed
    t = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    dt = time.perf_counter() - t
    if p.returncode != 0:
        sys.exit(f"ccmj simulate failed ({p.returncode}): {p.stderr.strip()}")
    return dt, json.loads(p.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--log", action="store_true", help="also write a hand log (--log FILE)")
    ap.add_argument("extra", nargs="*", help="more ccmj simulate options, after --")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        args = ["--hands", str(a.hands), "--seed", str(a.seed), "--json", *a.extra]
        if a.log:
            args += ["--log", str(Path(tmp) / "hands.jsonl")]
        print(f"ccmj simulate {' '.join(args)}")
        load0 = os.getloadavg()
        run(["--hands", "64", "--seed", "1", "--json", *args[4:]])  # warm-up: compile/cache
        rates, inner = [], []
        for i in range(a.runs):
            dt, d = run(args)
            rates.append(d["hands"] / dt)
            inner.append(d["hands_per_second"])
            print(
                f"run {i + 1}: {dt:.2f} s whole command = {rates[-1]:,.0f} hands/s "
                f"(in-process, play only: {inner[-1]:,.0f} hands/s, {d['threads']} threads)"
            )
        load1 = os.getloadavg()
    print(
        f"whole command: min {min(rates):,.0f}  median {statistics.median(rates):,.0f} hands/s;"
        f" in-process (play only): median {statistics.median(inner):,.0f} hands/s"
    )
    before = " ".join(f"{x:.2f}" for x in load0)
    after = " ".join(f"{x:.2f}" for x in load1)
    print(f"load average (1/5/15 min) before: {before}  after: {after}  ({os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
