"""The exact analysis against the baseline bot: how far the default answer of ``ccmj odds`` is
above (or below) the bot playing the same hand in the same pool. A script, not a test.

    python scripts/bot_gap.py [SEED] [HANDS] [--no-settle]

Deals random 13-tile hands (seed SEED, default 1) and keeps HANDS of them (default 25) whose
legal shanten is 1-3; for each prints the search the default answer made (limit, edge: p =
progress only, a = every move on the edge; states; seconds), its P(win) over 17 draws, the
baseline bot's Monte Carlo P(win) in the exact analysis's pool (6,000 trials, ``--policy
baseline --pool hand_only``) and z = (answer - bot) / the bot's standard error. A z below -3
is an answer clearly below the bot. ``--no-settle``: the search without the settling step.
"""

import math
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ccmj_cli import odds as O  # noqa: E402
from ccmj_cli import tiles as T  # noqa: E402


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    settle = "--no-settle" not in sys.argv
    rng = random.Random(int(args[0]) if args else 1)
    want = int(args[1]) if len(args) > 1 else 25
    done, worst = 0, math.inf
    while done < want:
        wall = [t for t in range(34) for _ in range(4)]
        rng.shuffle(wall)
        c = np.zeros(34, np.uint8)
        for t in wall[:13]:
            c[t] += 1
        hand = T.format_hand(T.Hand(c, []))
        t0 = time.perf_counter()
        ex = O.odds(hand, settle=settle).results[0].exact
        dt = time.perf_counter() - t0
        if ex is None or ex.legal_shanten is None or ex.legal_shanten > 3:
            continue
        done += 1
        bot = O.odds(hand, exact=False, pool="hand_only", trials=6000, seed=done).results[0]
        se = math.sqrt(max(bot.p_win * (1 - bot.p_win), 1e-9) / bot.trials)
        z = (ex.p_win - bot.p_win) / se
        worst = min(worst, z)
        print(f"{hand:20s} shanten {ex.legal_shanten} limit {ex.limit}{ex.edge[0]} "
              f"{ex.states:7,} states {dt:5.2f} s  answer {ex.p_win:.4f}  bot {bot.p_win:.4f}  "
              f"z {z:+5.1f}", flush=True)  # fmt: skip
    print(f"{done} hands; lowest z {worst:+.1f}")


if __name__ == "__main__":
    main()
