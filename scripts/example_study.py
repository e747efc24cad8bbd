"""The example study of docs/simulation.md ("dealer advantage and 点炮全包"): runs its commands
and prints its table, so the figures on the page are the ones this version gives.

    python scripts/example_study.py                      # print the table (Markdown)
    python scripts/example_study.py --check docs/simulation.md   # exit 1 if the page differs
    python scripts/example_study.py --write docs/simulation.md   # put the table in the page

The commands are the page's own: `ccmj simulate --hands 10000 --seed 1 --json`, once with the
default rules and once with `dianpao: discarder_covers_all` (the same hands: only the money
differs). The table sits between the page's `<!-- example-study -->` markers.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HANDS, SEED = 10_000, 1
START, END = "<!-- example-study -->", "<!-- /example-study -->"


def _ccmj() -> list[str]:
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    exe = shutil.which("ccmj", path=path)
    return [exe] if exe else [sys.executable, "-m", "ccmj_cli"]


def run_both() -> tuple[dict, dict]:
    with tempfile.TemporaryDirectory() as tmp:
        room = Path(tmp) / "baozhuang.yaml"
        room.write_text("extends: default\ndianpao: discarder_covers_all\n", encoding="utf-8")
        out = []
        for extra in ([], ["--rules", str(room)]):
            cmd = [*_ccmj(), "simulate", "--hands", str(HANDS), "--seed", str(SEED), "--json",
                   "--no-progress", *extra]  # fmt: skip
            r = subprocess.run(cmd, capture_output=True, text=True, check=True, cwd=tmp)
            out.append(json.loads(r.stdout))
    return out[0], out[1]


def _pct(r: dict) -> str:
    return f"{100 * r['rate']:.1f}%"


def _pct_ci(r: dict) -> str:
    lo, hi = r["ci95"]
    return f"{_pct(r)} [{100 * lo:.1f}, {100 * hi:.1f}]"


def _money(x: float) -> str:
    return f"{x:+.2f}".replace("-", "−")


def _mean_ci(m: dict) -> str:
    lo, hi = m["ci95"]
    return f"{_money(m['mean'])} [{_money(lo)}, {_money(hi)}]"


def table(a: dict, b: dict) -> str:
    """The page's table: default rules (a) against 点炮全包 (b); "same" where b equals a."""

    def row(name, f):
        x, y = f(a), f(b)
        return f"| {name} | {x} | {'same' if y == x else y} |"

    methods = ("zimo", "dianpao", "mobao", "duibao")
    km = a["kong_money"]
    rows = [
        f"| {HANDS:,} hands, seed {SEED}, baseline bots | default (all pay) | 点炮全包 |",
        "|---|---|---|",
        row("dealer win rate", lambda d: _pct_ci(d["dealer_win_rate"])),
        row("mean win rate of a seat ((1 − 荒庄)/4)",
            lambda d: f"{100 * (1 - d['draw_rate']['rate']) / 4:.1f}%"),
        row("dealer payout per hand (base units)", lambda d: _mean_ci(d["dealer_mean_payout"])),
        row("discarder's payout per 点炮", lambda d: _money(d["discarder_mean_payout"]["mean"])),
        row("荒庄 / 自摸 / 点炮 / 摸宝 / 对宝 (of hands)",
            lambda d: " / ".join(_pct(r) for r in
                                 [d["draw_rate"], *(d["by_method"][m] for m in methods)])),
        row("夹胡 / 飘胡 / 门清 (of wins)",
            lambda d: " / ".join(_pct(d[k]) for k in ("jiahu_rate", "piao_rate", "menqing_rate"))),
        row("bao rolled / 截胡",
            lambda d: f"{_pct(d['bao_rolled_rate'])} / {_pct(d['jiehu_rate'])} of hands"),
        row(f"kong money per hand ({km['kongs_per_hand']:.2f} kongs)",
            lambda d: f"{d['kong_money']['per_hand']:.2f}"),
    ]  # fmt: skip
    return "\n".join(rows)


def in_page(text: str) -> str:
    """The table between the markers of a page."""
    return text.split(START, 1)[1].split(END, 1)[0].strip("\n")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    g = p.add_mutually_exclusive_group()
    g.add_argument("--check", metavar="PAGE", help="exit 1 if PAGE's table is not this one")
    g.add_argument("--write", metavar="PAGE", help="replace PAGE's table with this one")
    args = p.parse_args(argv)
    made = table(*run_both())
    page = args.check or args.write
    if page is None:
        print(made)
        return 0
    text = Path(page).read_text(encoding="utf-8")
    if args.check:
        if in_page(text) != made:
            print(f"{page}: the example study's table is not what this version gives:\n{made}")
            return 1
        print(f"{page}: the example study's table is as this version gives it")
        return 0
    head, rest = text.split(START, 1)
    Path(page).write_text(f"{head}{START}\n{made}\n{END}{rest.split(END, 1)[1]}", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
