"""Benchmark the table simulation: hands per second by thread count (not a test).

    python scripts/bench_simulate.py --hands 2000 --threads 1 2

Compiles (or loads from cache) first, outside the timing; prints one line per thread count and
the JSON of the last run with --json.
"""

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout, uninstalled

from ccmj_cli import simulate as SIM  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--rules", default=None)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    t = time.perf_counter()
    SIM.warm_up()
    print(f"warm-up (compile or cache load): {time.perf_counter() - t:.1f} s")
    base = None
    for k in a.threads:
        r = SIM.simulate(hands=a.hands, seed=a.seed, rules=a.rules, threads=k)
        hps = r.hands / r.seconds
        base = base or hps
        print(
            f"threads {k}: {r.hands} hands in {r.seconds:.2f} s = {hps:,.0f} hands/s "
            f"(x{hps / base:.2f})"
        )
    if a.json:
        print(json.dumps(r.to_dict(), ensure_ascii=False))


if __name__ == "__main__":
    main()
