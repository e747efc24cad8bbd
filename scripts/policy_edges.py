"""The edge of each policy against the baseline, measured with paired seeds.

For each policy P: ``ccmj simulate --compare P,baseline,baseline,baseline baseline`` (the same
walls under both arms); prints seat E's payout difference per hand with its paired 95% CI, and
its win and deal-in rates in both arms. Usage:

    python scripts/policy_edges.py --hands 20000 --seed 11 [POLICY ...]
"""

import argparse
import os
import sys

from ccmj_cli.simulate import compare


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("policies", nargs="*", default=["defence", "value", "strong"])
    a = ap.parse_args(argv)
    print(f"load average {os.getloadavg()[0]:.1f}; {a.hands} hands, seed {a.seed}", flush=True)
    print("policy | E payout/hand A − B [95% CI] | E win A / B | E deal-in A / B | hands/s")
    for p in a.policies:
        d = compare(f"{p},baseline,baseline,baseline", "baseline", hands=a.hands, seed=a.seed,
                    threads=a.threads)  # fmt: skip
        c = d["compare"]
        pay = c["seats.E.mean_payout"]["diff"]
        w = c["seats.E.win_rate"]
        di = c["seats.E.dealin_rate"]
        lo, hi = pay["ci95"]
        print(
            f"{p} | {pay['mean']:+.3f} [{lo:+.3f}, {hi:+.3f}] | {w['a']:.3f} / {w['b']:.3f} | "
            f"{di['a']:.3f} / {di['b']:.3f} | {d['hands_per_second']:.0f}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
