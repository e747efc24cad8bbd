"""Time `ccmj actions` on the example positions: the whole command (a fresh process each run),
warm (the compiled kernels cached). Prints the median and best of N runs per position.

    python scripts/bench_actions.py [N]
"""

import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
N = int(sys.argv[1]) if len(sys.argv) > 1 else 5


CPU: list[float] = []


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(path: Path) -> float:
    """Wall time of one whole command; its CPU time goes to CPU (a loaded machine's wall time
    says little)."""
    c0 = _children_cpu()
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "ccmj_cli", "actions", str(path), "--json"],
                   check=True, stdout=subprocess.DEVNULL, cwd=ROOT)  # fmt: skip
    CPU.append(_children_cpu() - c0)
    return time.perf_counter() - t0


def main():
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    files = sorted((ROOT / "examples" / "positions").glob("*.json"))
    run(files[0])  # warm the cache
    for f in files:
        CPU.clear()
        ts = [run(f) for _ in range(N)]
        print(f"{f.name:28s} wall median {statistics.median(ts):.3f} s  best {min(ts):.3f} s"
              f"  cpu median {statistics.median(CPU):.3f} s")
    # in-process: one position's legal_actions once the kernels are loaded
    from ccmj_cli.actions import legal_actions

    text = files[0].read_text()
    legal_actions(text)
    t0 = time.perf_counter()
    for _ in range(20):
        legal_actions(text)
    print(f"in-process legal_actions: {(time.perf_counter() - t0) / 20 * 1000:.1f} ms a position")


if __name__ == "__main__":
    main()
