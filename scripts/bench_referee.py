"""Benchmark: the whole `ccmj referee` command on a simulate log (default 100,000 hands).

Takes a log, or writes one once (ccmj simulate --log, kept in /tmp), then times `ccmj referee
LOG --json` end to end (start-up, reading, the replay, the output) and prints the median of
three runs: hands per second by the clock and per CPU-second (every thread counted), with the
machine's load (on a loaded machine the clock says more about the load than the command).

    python scripts/bench_referee.py [HANDS | LOG] [--preset NAME]
"""

import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path


def main():
    args = sys.argv[1:]
    given = [a for a in args if not a.isdigit() and not a.startswith("-") and Path(a).is_file()]
    hands = next((int(a) for a in args if a.isdigit()), 100_000)
    extra = [a for a in args if not a.isdigit() and a not in given]
    exe = str(Path(sys.executable).parent / "ccmj")
    if given:
        log = Path(given[0])
        with open(log, encoding="utf-8") as f:
            hands = sum(1 for line in f if line.strip()) - 1  # (the header line)
    else:
        tag = "_".join(x.strip("-") for x in extra) or "default"
        log = Path(f"/tmp/ccmj_bench_referee_{tag}_{hands}.log")
        if not log.exists():
            t = time.perf_counter()
            subprocess.run([exe, "simulate", "-n", str(hands), "--seed", "7", "--no-progress",
                            "--log", str(log), *extra], check=True, stdout=subprocess.DEVNULL)  # fmt: skip
            print(f"log written: {hands:,} hands in {time.perf_counter() - t:.1f} s ({log})")
    load = os.getloadavg()
    subprocess.run([exe, "referee", str(log), "--json"], stdout=subprocess.DEVNULL)  # warm
    walls, cpus = [], []
    for _ in range(RUNS):
        c0 = _children_cpu()
        t = time.perf_counter()
        r = subprocess.run([exe, "referee", str(log), "--json"], capture_output=True, text=True)
        walls.append(time.perf_counter() - t)
        cpus.append(_children_cpu() - c0)
    bad = sum('"ok":false' in x or '"ok": false' in x for x in r.stdout.splitlines())
    dt, cpu = statistics.median(walls), statistics.median(cpus)
    load = " ".join(f"{x:.2f}" for x in (max(a, b) for a, b in zip(load, os.getloadavg())))
    print(f"referee: {hands:,} hands, median of {RUNS}: {dt:.2f} s wall = {hands / dt:,.0f} "
          f"hands/s; {cpu:.2f} s CPU (all threads) = {hands / cpu:,.0f} hands per CPU-second "
          f"(exit {r.returncode}, {bad} hands with problems; load average {load} on "
          f"{os.cpu_count()} cores)")  # fmt: skip


RUNS = 3


def _children_cpu() -> float:
    """CPU time of the finished child processes (a loaded machine's wall time says little)."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


if __name__ == "__main__":
    main()
