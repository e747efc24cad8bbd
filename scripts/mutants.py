"""Mutation check: does breaking a scoring, bao or batch rule make a FAST test fail?

Each mutant below is one exact text change in one file of ccmj_cli (a rule written wrong). For
each, the script copies the package, the tests and what they read to a temporary directory,
applies the change there (this checkout is never touched), runs the fast tests of the copy —
the hand-worked ones: ``pytest -m "not hypothesis"`` over FAST_TESTS, so the slow Hypothesis
properties do not count — and prints which tests failed. A mutant no test catches is a hole in
the tests: the script exits 1 and says which.

    python scripts/mutants.py                      # every mutant (a baseline run first)
    python scripts/mutants.py --list               # the mutants, one line each
    python scripts/mutants.py --only honors_not_yaojiu dianpao_fan_zero
    python scripts/mutants.py --with-properties    # let the Hypothesis properties count too
    python scripts/mutants.py --jit                # compiled kernels (a fresh compile per mutant)

By default the copy runs its kernels as plain Python (NUMBA_DISABLE_JIT=1: the same source,
no compilation, so a mutant costs a couple of minutes, not a recompile). ``--jit`` runs them
compiled instead, with the copy's own empty Numba cache — never a cache built from unmutated
source: Numba re-validates a cached kernel against its own file only, so the callers of a
changed kernel would silently keep the old code. The lookup tables come from $CCMJ_CACHE_DIR
as usual (no mutant touches them).

A mutant whose text is not found (the code moved on) is an error: update its ``old`` text.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COPY = ("ccmj_cli", "tests", "examples", "README.md", "rules.yaml", "pyproject.toml")
FAST_TESTS = (
    "tests/test_scoring_cases.py",
    "tests/test_scoring.py",
    "tests/test_bao.py",
    "tests/test_batch.py",
    "tests/test_rules_golden.py",
    "tests/test_presets.py",
    "tests/test_qa_regressions.py",
    "tests/test_cli.py",
)
PROPERTY_TESTS = ("tests/test_scoring_properties.py",)


@dataclass(frozen=True)
class Mutant:
    name: str
    path: str  # relative to the repository
    old: str
    new: str
    what: str


SCORE = "ccmj_cli/_kernels/score.py"
BAO_K = "ccmj_cli/_kernels/bao.py"
MUTANTS = (
    # --- the four of the mutation run that found the holes (issue 15)
    Mutant(
        "batch_ignores_declared",
        "ccmj_cli/batch.py",
        "return w, h_how, winner, disc, bao_t, b if b <= _I64 else _HUGE_BASE, d in _TRUE",
        "return w, h_how, winner, disc, bao_t, b if b <= _I64 else _HUGE_BASE, False",
        "batch reads every discarder as undeclared (the declared column is ignored)",
    ),
    Mutant(
        "honors_not_yaojiu",
        "ccmj_cli/_kernels/judge.py",
        "    for t in range(HONOR, N_KINDS):\n        ends += c[t]\n",
        "    for t in range(HONOR, N_KINDS):\n        ends += 0\n",
        "concealed honors no longer count as 幺九 for C2",
    ),
    Mutant(
        "dianpao_fan_zero",
        SCORE,
        "f += rv[RV_FAN_BASE + FAN_DIANPAO]",
        "f += 0",
        "the discarder pays no extra 点炮 fan",
    ),
    Mutant(
        "covers_all_own_share_only",
        SCORE,
        "if s != discarder and mode == DIANPAO_DISCARDER_ONLY:",
        "if s != discarder:",
        "点炮全包: the discarder pays only his own share (the others' shares are dropped)",
    ),
    # --- more rules of scoring, bao and kongs
    Mutant(
        "cap_ignored",
        SCORE,
        "if cap > 0 and f > cap:",
        "if False:",
        "cap_fan (封顶) is ignored",
    ),
    Mutant(
        "dealer_fan_wrong_seat",
        SCORE,
        "if winner == dealer or s == dealer:",
        "if winner == dealer or s == (dealer + 1) % N_SEATS:",
        "the 庄 fan goes to the seat after the dealer",
    ),
    Mutant(
        "cover_only_undeclared_ignored",
        SCORE,
        "if mode == DIANPAO_COVERS_ALL and declared and rv[RV_COVER_ONLY_UNDECLARED]:",
        "if False:",
        "cover_only_undeclared: a declared discarder still covers everyone",
    ),
    Mutant(
        "duibao_not_zimo",
        SCORE,
        "    if how != HOW_DISCARD:\n        items[FAN_ZIMO]",
        "    if how != HOW_DISCARD and how != HOW_DUIBAO:\n        items[FAN_ZIMO]",
        "a 对宝 does not score 自摸",
    ),
    Mutant(
        "chongbao_on_mobao",
        SCORE,
        "if how == HOW_DUIBAO and rv[RV_CHONGBAO_DOUBLE]:",
        "if (how == HOW_DUIBAO or how == HOW_MOBAO) and rv[RV_CHONGBAO_DOUBLE]:",
        "冲宝翻倍 doubles a 摸宝 too",
    ),
    Mutant(
        "kong_bu_ignored",
        SCORE,
        "return rv[RV_KONG_BASE + KONG_SPECIAL] + bu * rv[RV_KONG_BASE + KONG_BU]",
        "return rv[RV_KONG_BASE + KONG_SPECIAL]",
        "补 tiles on a special kong are worth nothing",
    ),
    Mutant(
        "dadan_without_1p",
        SCORE,
        "return t == ONE_S or t == ONE_P or t == HAKU",
        "return t == ONE_S or t == HAKU",
        "a kong of 幺饼 is not a 大蛋",
    ),
    Mutant(
        "mobao_first_wait",
        BAO_K,
        "if f > best_fan:",
        "if best < 0:",
        "摸宝: the bao stands for the lowest legal wait, not the best",
    ),
    Mutant(
        "mobao_tie_to_highest",
        BAO_K,
        "if f > best_fan:",
        "if f >= best_fan:",
        "摸宝: a tie between waits goes to the highest tile",
    ),
    Mutant(
        "huanbao_at_four",
        BAO_K,
        "return public[bao] >= 3",
        "return public[bao] >= 4",
        "换宝 only when four copies are public",
    ),
    # (a concealed kong counted as public cannot be seen by `ccmj bao`: it holds all four
    # copies of its kind, and the bao tile itself lies in the wall)
    Mutant(
        "special_kongs_not_public",
        "ccmj_cli/bao.py",
        "| frozenset(\n    range(L.FIRST_SPECIAL, L.MELD_JIUDAN + 1)\n)",
        "| frozenset()",
        "the player's special kongs do not count as public for 换宝",
    ),
    Mutant(
        "batch_drops_kong_money",
        "ccmj_cli/batch.py",
        "amount = pay + kong  # base units",
        "amount = pay  # base units",
        "batch CSV leaves the kongs column's money out of pay_*",
    ),
)


def copy_tree(dst: Path):
    skip = shutil.ignore_patterns("__pycache__", ".hypothesis", "*.nbi", "*.nbc")
    for name in COPY:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dst / name, ignore=skip)
        else:
            shutil.copy2(src, dst / name)


def apply(m: Mutant, root: Path):
    path = root / m.path
    text = path.read_text(encoding="utf-8")
    n = text.count(m.old)
    if n != 1:
        raise SystemExit(f"mutant {m.name}: its text is found {n} times in {m.path}, not once")
    path.write_text(text.replace(m.old, m.new), encoding="utf-8")


def run_tests(root: Path, files, jit: bool, with_properties: bool):
    """(failed test ids, pytest's exit code, seconds) of the fast tests in the copy at ``root``."""
    env = dict(os.environ)
    env.pop("CCMJ_JIT", None)
    env["PYTHONPATH"] = str(root)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    if jit:
        env["NUMBA_CACHE_DIR"] = str(root / ".numba-cache")
    else:
        env["NUMBA_DISABLE_JIT"] = "1"
    cmd = [sys.executable, "-m", "pytest", "-q", "-rfE", "-p", "no:cacheprovider", *files]
    if not with_properties:
        cmd[4:4] = ["-m", "not hypothesis"]
    where = subprocess.run(
        [sys.executable, "-c", "import ccmj_cli; print(ccmj_cli.__file__)"],
        cwd=root, env=env, capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    if not where.startswith(str(root)):
        raise SystemExit(f"the copy imports ccmj_cli from {where}, not from {root}")
    t0 = time.perf_counter()
    p = subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True)
    failed = re.findall(r"^(?:FAILED|ERROR) (\S+)", p.stdout, re.M)
    return failed, p.returncode, time.perf_counter() - t0, p.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--list", action="store_true", help="list the mutants and stop")
    ap.add_argument("--only", nargs="+", metavar="NAME", help="run these mutants only")
    ap.add_argument("--jit", action="store_true", help="compiled kernels (slow: compiles)")
    ap.add_argument("--with-properties", action="store_true", help="count Hypothesis tests too")
    ap.add_argument("--no-baseline", action="store_true", help="skip the unmutated run")
    ap.add_argument("--show", type=int, default=5, metavar="N", help="failed tests listed (5)")
    args = ap.parse_args()
    if args.list:
        for m in MUTANTS:
            print(f"{m.name:32} {m.path:30} {m.what}")
        return 0
    chosen = [m for m in MUTANTS if not args.only or m.name in args.only]
    unknown = set(args.only or ()) - {m.name for m in MUTANTS}
    if unknown:
        raise SystemExit(f"unknown mutant(s): {', '.join(sorted(unknown))} (see --list)")
    files = list(FAST_TESTS) + (list(PROPERTY_TESTS) if args.with_properties else [])
    mode = "compiled" if args.jit else "interpreted (NUMBA_DISABLE_JIT=1)"
    print(f"tests: {' '.join(files)}; kernels {mode}", flush=True)
    missed = []
    runs = ([None] if not args.no_baseline else []) + chosen
    for m in runs:
        with tempfile.TemporaryDirectory(prefix="ccmj-mutant-") as tmp:
            root = Path(tmp)
            copy_tree(root)
            if m is not None:
                apply(m, root)
            failed, code, secs, out = run_tests(root, files, args.jit, args.with_properties)
        label = "baseline (no mutant)" if m is None else m.name
        if m is None:
            if code != 0:
                print(out)
                raise SystemExit("the unmutated copy fails its tests: fix that first")
            print(f"{label:32} all pass ({secs:.0f} s)", flush=True)
            continue
        if code not in (0, 1):  # 2+: interrupted, collection error, usage error
            print(out)
            raise SystemExit(f"mutant {m.name}: pytest exited {code} (the mutant broke the run?)")
        if failed:
            print(f"{label:32} caught by {len(failed)} test(s) ({secs:.0f} s): {m.what}")
            for t in failed[: args.show]:
                print(f"    {t}")
            if len(failed) > args.show:
                print(f"    ... and {len(failed) - args.show} more")
        else:
            missed.append(m.name)
            print(f"{label:32} NOT CAUGHT ({secs:.0f} s): {m.what}")
        sys.stdout.flush()
    if missed:
        print(f"\n{len(missed)} mutant(s) no test caught: {', '.join(missed)}")
        return 1
    print(f"\nevery mutant ({len(chosen)}) was caught")
    return 0


if __name__ == "__main__":
    sys.exit(main())
