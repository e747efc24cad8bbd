"""Cold and warm times of each command, as a user on a fresh install meets them.

Each command runs as ``python -m ccmj_cli ARGS`` twice in one fresh cache folder: the first run
compiles (cold), the second loads the cached kernels (warm). Printed per command: wall seconds
and CPU seconds (user + sys of the process), cold and warm. The commands run
in order in one cache, so a later command's cold time excludes kernels an earlier one compiled
(pass --separate for a fresh cache per command: each cold time is then the whole compile).
Wall times are noisy on a shared machine: compare CPU times.

    python scripts/bench_cold.py                  # every command
    python scripts/bench_cold.py --only batch odds --separate
"""

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMMANDS = {
    "waits": ["waits", "111m456p789s2345s"],
    "batch": ["batch", "examples/wins.csv"],  # 8 rows: interpreted (at most 256 are)
    "batch-1000": ["batch", "{big}"],  # 1,000 rows (wins.csv's, repeated): compiled
    "odds": ["odds", "123m456p789s1112s", "--declare", "--trials", "2000", "--seed", "1"],
    "odds-exact": ["odds", "123m456p789s1112s", "--declare", "--exact", "-n", "6"],
    "simulate": ["simulate", "-n", "1000", "--seed", "1", "--no-progress"],
    "warm-up": ["warm-up"],
}


def run(args: list[str], cache: str) -> tuple[float, float, int]:
    """(wall s, CPU s, exit code) of one ``ccmj ARGS``."""
    env = {**os.environ, "CCMJ_CACHE_DIR": cache, "PYTHONPATH": str(ROOT)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, "-m", "ccmj_cli", *args], cwd=ROOT, env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, p.returncode


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", nargs="+", choices=list(COMMANDS), help="these commands only")
    ap.add_argument("--separate", action="store_true", help="a fresh cache for each command")
    args = ap.parse_args()
    names = args.only or list(COMMANDS)
    print(f"{'command':<12} {'cold wall':>10} {'cold CPU':>9} {'warm wall':>10} {'warm CPU':>9}")
    with tempfile.TemporaryDirectory(prefix="ccmj-bench-cold-") as tmp:
        big = os.path.join(tmp, "wins-1000.csv")
        header, *rows = (ROOT / "examples" / "wins.csv").read_text(encoding="utf-8").splitlines()
        with open(big, "w", encoding="utf-8") as f:
            f.write("\n".join([header, *(rows * 1000)[:1000]]) + "\n")
        for name in names:
            cache = os.path.join(tmp, name if args.separate else "shared")
            command = [a.format(big=big) for a in COMMANDS[name]]
            cold = run(command, cache)
            warm = run(command, cache)
            bad = "" if cold[2] == warm[2] == 0 else f"  (exit {cold[2]}, {warm[2]})"
            print(f"{name:<12} {cold[0]:>9.1f}s {cold[1]:>8.1f}s {warm[0]:>9.1f}s "
                  f"{warm[1]:>8.1f}s{bad}", flush=True)  # fmt: skip
    print(f"load average {os.getloadavg()[0]:.1f} (a shared machine: CPU times are the measure)")


if __name__ == "__main__":
    main()
