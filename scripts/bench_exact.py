"""Benchmark for the exact discard analysis (``ccmj odds HAND --exact``), a script, not a test.

    python scripts/bench_exact.py           # every case: compute time and whole command
    python scripts/bench_exact.py --runs 5 --exact

For 14-tile hands whose best discard leaves a legal shanten of 1, 2, 3 (and one of 4, beyond
the targets), N = 18 draws, every discard: the compute time in-process (the graph, the dynamic
programme and the per-discard series, kernels loaded; min of the runs) and the whole command
`ccmj odds HAND -n 18 --json` (with --exact: `--exact` too) as a subprocess (min and median of
the runs, after a first one), with the search it made (limit, complete, states) and the machine's load average.
Then `ccmj odds -` on 40 hands a line and on 200 random one-shanten 13-tile hands (seed 11):
hands per second, whole command. The Monte
Carlo path on the same hand is timed alongside for reference (20,000 trials per discard).

Targets (whole command, warm): 1-shanten <= 0.5 s, 2-shanten <= 1 s, 3-shanten <= 10 s;
`ccmj odds -` >= 20 hands/s on 1-shanten hands.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CASES = [
    # (label, 14-tile hand): the least legal shanten a discard leaves
    ("1-shanten", "123m469p789s15577z"),
    ("2-shanten", "44567m466p5679s24z"),
    ("2-shanten", "123477m67p1237s26z"),
    ("3-shanten", "111248m66779p3s35z"),
    ("3-shanten", "24588m14568p144s4z"),
    ("4-shanten", "6m1266679p15s1125z"),
]
N = 18


def whole(args: list[str]) -> float:
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "ccmj_cli", "odds", *args, "--json"], cwd=ROOT,
                   check=True, stdout=subprocess.DEVNULL)  # fmt: skip
    return time.perf_counter() - t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--no-mc", action="store_true", help="skip the Monte Carlo comparison")
    ap.add_argument("--exact", action="store_true", help="the larger search of --exact")
    args = ap.parse_args()
    from ccmj_cli import exact
    from ccmj_cli.exact import WIDEN_STATES, analyze
    from ccmj_cli.odds import AUTO_STATES

    budget = WIDEN_STATES if args.exact else AUTO_STATES
    flags = ["--exact"] if args.exact else []

    print(f"cpus: {os.cpu_count()}, load average before: {os.getloadavg()[0]:.2f}")
    t = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import numba"], check=True)
    print(f"start-up floor: `python -c 'import numba'` {time.perf_counter() - t:.2f} s")
    analyze("123m456p789s1112s", draws=2)  # load the kernels
    for label, hand in CASES:
        comp = []
        for _ in range(args.runs):
            exact._DMEMOS.clear()  # (each run a first analysis: a repeat finds every distance)
            t = time.perf_counter()
            rep = analyze(hand, draws=N, widen_states=budget)
            comp.append(time.perf_counter() - t)
        best = rep.results[0]
        least = min(r.legal_shanten for r in rep.results if r.legal_shanten is not None)
        cold = whole([hand, *flags, "-n", str(N)])  # the first command: kernels from disk
        w = [whole([hand, *flags, "-n", str(N)]) for _ in range(args.runs)]
        line = (
            f"{label} {hand:20s} least legal shanten {least}, limit {rep.limit}"
            f"{' (complete)' if rep.complete else ''}, {rep.states:>7,} states: "
            f"compute min {min(comp):6.3f} s; whole command first {cold:6.2f}, then min "
            f"{min(w):6.2f} median {statistics.median(w):6.2f} s; best {best.discard} P(win) {best.p_win[-1]:.4f}"
        )
        if not args.no_mc:
            t = whole([hand, "-n", str(N), "--trials", "20000", "--seed", "1"])
            line += f"; Monte Carlo 20,000/discard {t:6.2f} s"
        print(line + f"  (load {os.getloadavg()[0]:.1f})")
    hands = "\n".join(["123m469p789s1557z", "111m456p789s57s12z", "46m456p78s557z[777z]",
                        "123m456p111s4679s"] * 10)  # fmt: skip
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "ccmj_cli", "odds", "-", "--json"], cwd=ROOT,
                   input=hands, text=True, check=True, stdout=subprocess.DEVNULL)  # fmt: skip
    print(f"ccmj odds - : 40 hands of legal shanten 0-2 in {time.perf_counter() - t:.2f} s, "
          f"{40 / (time.perf_counter() - t):.1f} hands/s (whole command)")
    ones = one_shanten_hands(200, seed=11)
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "ccmj_cli", "odds", "-", "--json"], cwd=ROOT,
                   input="\n".join(ones), text=True, check=True,
                   stdout=subprocess.DEVNULL)  # fmt: skip
    dt = time.perf_counter() - t
    print(f"ccmj odds - : {len(ones)} random one-shanten 13-tile hands in {dt:.2f} s, "
          f"{len(ones) / dt:.1f} hands/s (whole command; target >= 20)")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


def one_shanten_hands(n: int, seed: int) -> list[str]:
    """``n`` random 13-tile hands (no melds) one tile from a legal tenpai (legal distance 2)."""
    import random

    import numpy as np

    from ccmj_cli import tiles as T
    from ccmj_cli._kernels import layout as L
    from ccmj_cli._kernels import legal as LG
    from ccmj_cli.rules import load_variant

    rv = load_variant(None).vector
    memo, ms = LG.new_memo(rv), np.zeros(L.MS_LEN, np.int64)
    rng, wall, out = random.Random(seed), [t for t in range(34) for _ in range(4)], []
    while len(out) < n:
        c = np.zeros(34, np.uint8)
        for t in rng.sample(wall, 13):
            c[t] += 1
        d, memo = LG.distance(c.copy(), ms, rv, memo)
        if d == 2:
            out.append(T.format_hand(T.Hand(c, [])))
    return out


if __name__ == "__main__":
    main()
