"""Time `ccmj actions` on the example positions: the whole command (a fresh process each run),
warm (the compiled kernels cached). Prints the median and best of N runs per position.

    python scripts/bench_actions.py [N]
"""

import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
N = int(sys.argv[1]) if len(sys.argv) > 1 else 5


def run(path: Path) -> float:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "ccmj_cli", "actions", str(path), "--json"],
                   check=True, stdout=subprocess.DEVNULL, cwd=ROOT)  # fmt: skip
    return time.perf_counter() - t0


def main():
    files = sorted((ROOT / "examples" / "positions").glob("*.json"))
    run(files[0])  # warm the cache
    for f in files:
        ts = [run(f) for _ in range(N)]
        print(f"{f.name:28s} median {statistics.median(ts):.3f} s  best {min(ts):.3f} s")
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
