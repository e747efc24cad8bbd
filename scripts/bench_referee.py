"""Benchmark: the whole `ccmj referee` command on a simulate log (default 100,000 hands).

Writes the log once (ccmj simulate --log, kept in /tmp), then times `ccmj referee LOG --json`
end to end (start-up, reading, the replay, the output) and prints the median hands per second
of three runs, by wall time and by CPU time.

    python scripts/bench_referee.py [HANDS] [--preset NAME]
"""

import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path


def main():
    hands = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 100_000
    extra = [a for a in sys.argv[1:] if not a.isdigit()]
    tag = "_".join(x.strip("-") for x in extra) or "default"
    log = Path(f"/tmp/ccmj_bench_referee_{tag}_{hands}.log")
    exe = str(Path(sys.executable).parent / "ccmj")
    if not log.exists():
        t = time.perf_counter()
        subprocess.run([exe, "simulate", "-n", str(hands), "--seed", "7", "--no-progress",
                        "--log", str(log), *extra], check=True, stdout=subprocess.DEVNULL)  # fmt: skip
        print(f"log written: {hands:,} hands in {time.perf_counter() - t:.1f} s ({log})")
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
    print(f"referee: {hands:,} hands, median of {RUNS}: {dt:.2f} s wall = {hands / dt:,.0f} "
          f"hands/s; {cpu:.2f} s CPU (all threads) = {hands / cpu:,.0f} hands per CPU-second "
          f"(exit {r.returncode}, {bad} hands with problems)")  # fmt: skip


RUNS = 3


def _children_cpu() -> float:
    """CPU time of the finished child processes (a loaded machine's wall time says little)."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


if __name__ == "__main__":
    main()
