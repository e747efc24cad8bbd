"""Where compile time goes: each kernel's compile time on a cold cache, per warm-up part.

Runs ``ccmj warm-up --part PART`` in this process on a fresh, empty cache folder (so every
kernel it needs compiles; ``--cache DIR`` for a given one) and prints, for each kernel compiled, the seconds of its compile
without the kernels it compiled on the way (own) and with them (inclusive), largest first, and
how many specialisations (compiles) there were. A kernel's own time includes LLVM optimising
the callees linked into it: an entry kernel that calls the whole engine pays for it again.

    python scripts/compile_times.py simulate          # the table engine
    python scripts/compile_times.py hand odds --top 15
"""

import argparse
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("parts", nargs="+", help="warm-up parts: hand, odds, simulate")
    ap.add_argument("--top", type=int, default=25, help="this many kernels (default 25)")
    ap.add_argument("--cache", help="compile into this cache folder (default: a fresh temporary "
                    "one; a warm folder shows only what is not in it yet)")  # fmt: skip
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="ccmj-compile-times-") as tmp:
        os.environ["CCMJ_CACHE_DIR"] = args.cache or tmp
        os.environ["CCMJ_JIT"] = "1"
        sys.path.insert(0, str(ROOT))
        from numba.core import event

        from ccmj_cli._kernels.progress import CompileTimes
        from ccmj_cli.cli import common
        from ccmj_cli.cli.warmup_cmd import STEPS, warm_up

        bad = [p for p in args.parts if p not in STEPS]
        if bad:
            sys.exit(f"error: unknown part '{bad[0]}' (parts: {', '.join(STEPS)})")
        common.STANDALONE = False
        times = CompileTimes()
        event.register("numba:compile", times)
        t0 = time.perf_counter()
        c0 = time.process_time()
        warm_up(args.parts, lambda line: print(line, file=sys.stderr, flush=True))
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    own = sorted(times.own.items(), key=lambda kv: -kv[1])
    print(f"{'kernel':<44} {'own s':>7} {'incl. s':>8} {'compiles':>8}")
    for name, t in own[: args.top]:
        print(f"{name:<44} {t:>7.1f} {times.inclusive[name]:>8.1f} {times.compiles[name]:>8}")
    print(f"{times.count} compiles of {len(own)} kernels; warm-up {' '.join(args.parts)}: "
          f"{wall:.0f} s wall, {cpu:.0f} s CPU (this process), max RSS {rss:.0f} MB; "
          f"load average {os.getloadavg()[0]:.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
