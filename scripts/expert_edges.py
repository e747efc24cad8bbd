"""What the ``expert`` policy earns at the table: each line-up played by ``ccmj simulate`` (the
whole command, timed), the payout per hand of the policy's seats minus the other seats', with
its standard error from the hands themselves (the four payouts of a hand are not independent:
the figure is the mean and spread of one number per hand).

    python scripts/expert_edges.py [-n HANDS] [--seed S] [--rules R ...] [--lineup L ...]

Defaults: 20,000 hands, seed 9, the rules default, mil2024 and quanbao (点炮全包), the line-ups
expert,baseline,expert,baseline and expert,strong,expert,strong, and the expert alone at each
seat in turn against three baseline bots.
"""

import argparse
import csv
import math
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SEATS = "ESWN"
LINEUPS = [
    "expert,baseline,expert,baseline",
    "expert,strong,expert,strong",
    "expert,baseline,baseline,baseline",
    "baseline,expert,baseline,baseline",
    "baseline,baseline,expert,baseline",
    "baseline,baseline,baseline,expert",
]


def edge(path: Path, lineup: list[str], policy: str) -> tuple[float, float, int]:
    """(mean, standard error, hands) of the per-hand payout (kong money included) of the
    seats playing ``policy`` minus that of the other seats, each side averaged over its seats."""
    mine = [i for i, p in enumerate(lineup) if p == policy]
    other = [i for i, p in enumerate(lineup) if p != policy]
    xs = []
    with path.open() as f:
        for row in csv.DictReader(f):
            pay = [int(row[f"pay_{s}"]) + int(row[f"kong_{s}"]) for s in SEATS]
            ours = sum(pay[i] for i in mine) / len(mine)
            xs.append(ours - sum(pay[i] for i in other) / len(other))
    n = len(xs)
    mean = sum(xs) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1))
    return mean, sd / math.sqrt(n), n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=9)
    ap.add_argument("--rules", nargs="*", default=["default", "mil2024", "quanbao"])
    ap.add_argument("--lineup", nargs="*", default=LINEUPS)
    ap.add_argument("--policy", default="expert", help="the policy whose edge is measured")
    a = ap.parse_args()
    print(f"{'rules':10} {'line-up':36} {'edge':>7} {'SE':>6} {'edge/SE':>7} {'hands/s':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        for rules in a.rules:
            for lineup in a.lineup:
                out = Path(tmp) / "hands.csv"
                cmd = ["ccmj", "simulate", "-n", str(a.n), "--seed", str(a.seed), "--rules",
                       rules, "--policy", lineup, "--csv", str(out), "--no-progress"]  # fmt: skip
                t = time.perf_counter()
                subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
                seconds = time.perf_counter() - t
                m, se, n = edge(out, lineup.split(","), a.policy)
                print(f"{rules:10} {lineup:36} {m:+7.3f} {se:6.3f} {m / se:7.1f} "
                      f"{n / seconds:8.0f}", flush=True)  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
