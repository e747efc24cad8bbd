"""Where does `ccmj waits HAND` spend its warm start? Prints a step-by-step breakdown.

    python scripts/bench_startup.py            # uses the normal (warm) Numba and table caches
    python scripts/bench_startup.py --runs 5   # median of 5 fresh processes per figure

Each figure is measured in a fresh interpreter (subprocess), so nothing is shared between steps.
A single-hand command runs the kernels interpreted (no Numba: `_kernels/jit.py`); the second
breakdown is the same work with compiled kernels (CCMJ_JIT=1, what batches run), where the
"no scipy" column blocks `import scipy` in the child: Numba's CPU target imports scipy.linalg
(for BLAS) when it initialises, if scipy is installed; ccmj needs none of it.
"""

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HAND = "111m456p789s2345s"

# Runs in the child. Prints one JSON object: CPU seconds per step, in order.
PROBE_INTERPRETED = r"""
import sys, time, json
T = {}
t = time.process_time
t0 = t(); import numpy; T["import numpy"] = t() - t0
t0 = t(); import typer; T["import typer"] = t() - t0
t0 = t(); import ccmj_cli.cli; T["import ccmj_cli.cli (commands)"] = t() - t0
t0 = t(); from ccmj_cli._kernels import jit; assert jit.interpret()
T["jit.interpret() (are the tables built?)"] = t() - t0
t0 = t(); from ccmj_cli import hand as H
T["import ccmj_cli.hand (kernels as plain functions)"] = t() - t0
t0 = t(); from ccmj_cli.rules import load_variant; v = load_variant(None)
T["load_variant() (yaml)"] = t() - t0
t0 = t(); from ccmj_cli._kernels.tables import tables; tb = tables()
T["tables() (mmap .npy)"] = t() - t0
t0 = t(); r = H.waits(HAND, None, v); T["H.waits, interpreted kernels"] = t() - t0
t0 = t(); r = H.waits(HAND, None, v); T["second H.waits"] = t() - t0
t0 = t()
from ccmj_cli.output import render_waits
render_waits(r.to_dict())
T["render table (imports tabulate)"] = t() - t0
T["numba imported"] = ["numba" in sys.modules]
print(json.dumps(T))
"""

PROBE = r"""
import sys, time, json, io, contextlib
if BLOCK_SCIPY:
    sys.modules["scipy"] = None
T = {}
t = time.process_time  # CPU seconds of this process: steadier than wall time on shared cores
t0 = t(); import numpy; T["import numpy"] = t() - t0
t0 = t(); import numba; T["import numba"] = t() - t0
t0 = t(); import typer; T["import typer"] = t() - t0
t0 = t(); from ccmj_cli import hand as H
T["import ccmj_cli.hand (kernel modules, njit decorators)"] = t() - t0
t0 = t(); import ccmj_cli.cli; T["import ccmj_cli.cli (commands, output, tabulate)"] = t() - t0
t0 = t(); from ccmj_cli.rules import load_variant; v = load_variant(None)
T["load_variant() (yaml)"] = t() - t0
t0 = t(); from ccmj_cli._kernels.tables import tables; tb = tables()
T["tables() (mmap .npy)"] = t() - t0
t0 = t()
from numba.core.registry import cpu_target
cpu_target.target_context.refresh()  # done by the first dispatch: NRT, numba.np.*, scipy
T["Numba CPU target init (done by the first kernel call)"] = t() - t0
from ccmj_cli._kernels import judge
t0 = t(); H.waits(HAND, None, v); T["first H.waits: judge_waits_rows from Numba cache"] = t() - t0
st = judge.judge_waits_rows.stats
T["  (cache hits / misses)"] = [sum(st.cache_hits.values()), sum(st.cache_misses.values())]
t0 = t(); r = H.waits(HAND, None, v); T["second H.waits (steady state)"] = t() - t0
t0 = t()
from ccmj_cli.output import render_waits
render_waits(r.to_dict())
T["render table"] = t() - t0
import numpy as np
from ccmj_cli._kernels import shape
c = np.zeros(34, np.uint8); c[:13] = 1
for name, f in (("shanten", shape.shanten), ("useful_mask", shape.useful_mask)):
    t0 = t(); f(c, tb); T[f"(not used by waits) first {name} call, cache load"] = t() - t0
t0 = t(); H.check(HAND, "2s", v)
T["(not used by waits) first H.check: judge_win cache load"] = t() - t0
print(json.dumps(T))
"""


def probe(block_scipy: bool, interpreted: bool = False) -> dict:
    code = f"BLOCK_SCIPY = {block_scipy}\nHAND = {HAND!r}\n"
    code += PROBE_INTERPRETED if interpreted else PROBE
    env = {k: v for k, v in os.environ.items() if k != "CCMJ_JIT"}
    p = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, env=env
    )
    if p.returncode:
        raise SystemExit(p.stderr)
    return json.loads(p.stdout.strip().splitlines()[-1])


def wall(args: list[str], runs: int) -> tuple[float, float]:
    """Median wall seconds and median CPU (user+sys) seconds of `runs` fresh processes."""
    times, cpus = [], []
    for _ in range(runs):
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        subprocess.run(args, cwd=ROOT, capture_output=True)
        times.append(time.perf_counter() - t)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
    return statistics.median(times), statistics.median(cpus)


def importtime_top(n: int) -> list[tuple[int, str]]:
    """Largest top-level (cumulative) entries of `python -X importtime -m ccmj_cli waits HAND`."""
    p = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "ccmj_cli", "waits", HAND],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    rows = []
    for line in p.stderr.splitlines():
        if not line.startswith("import time:") or "cumulative" in line:
            continue
        _self, cum, name = line[len("import time:") :].split("|")
        depth = len(name) - len(name.lstrip())
        if depth <= 3:  # top-level imports and their direct children
            rows.append((int(cum), name.rstrip()))
    return sorted(rows, reverse=True)[:n]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3, help="fresh processes per figure (median)")
    args = ap.parse_args()
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")

    probe(False)  # make sure the caches are warm
    runs = [probe(False, interpreted=True) for _ in range(args.runs)]
    print(f"== warm start of `ccmj waits {HAND}` (interpreted kernels): CPU seconds by step")
    print(f"   (median of {args.runs} fresh processes; caches warm)")
    for k in runs[0]:
        if isinstance(runs[0][k], list):
            print(f"{k:58}  {str(runs[0][k]):>8}")
        else:
            print(f"{k:58}  {statistics.median(r[k] for r in runs):8.3f}")

    runs = [probe(False) for _ in range(args.runs)]
    runs_ns = [probe(True) for _ in range(args.runs)]
    print("\n== the same with compiled kernels (CCMJ_JIT=1): CPU seconds by step")
    print(f"   (median of {args.runs} fresh processes; caches warm)")
    print(f"{'step':58}  {'as is':>8}  {'no scipy':>8}")
    for k in runs[0]:
        if isinstance(runs[0][k], list):
            print(f"{k:58}  {str(runs[0][k]):>8}")
            continue
        a = statistics.median(r[k] for r in runs)
        b = statistics.median(r[k] for r in runs_ns)
        print(f"{k:58}  {a:8.3f}  {b:8.3f}")

    py = sys.executable
    block = [
        "-c",
        f"import sys; sys.modules['scipy'] = None; sys.argv = ['ccmj', 'waits', '{HAND}'];"
        " from ccmj_cli.cli import main; main()",
    ]
    print(f"\n== whole processes (median of {args.runs})")
    print(f"{'':58}  {'wall':>8}  {'CPU':>8}")
    for label, cmd in (
        ("python -c pass", [py, "-c", "pass"]),
        ("python -c 'import numpy'", [py, "-c", "import numpy"]),
        ("python -c 'import numba'", [py, "-c", "import numba"]),
        ("python -c 'import typer'", [py, "-c", "import typer"]),
        (f"python -m ccmj_cli waits {HAND}", [py, "-m", "ccmj_cli", "waits", HAND]),
        (
            "  same, CCMJ_JIT=1 (compiled kernels)",
            ["env", "CCMJ_JIT=1", py, "-m", "ccmj_cli", "waits", HAND],
        ),
        ("  same, CCMJ_JIT=1 with scipy blocked", ["env", "CCMJ_JIT=1", py, *block]),
        ("python -m ccmj_cli --version", [py, "-m", "ccmj_cli", "--version"]),
    ):
        w, c = wall(cmd, args.runs)
        print(f"{label:58}  {w:8.3f}  {c:8.3f}")

    print("\n== python -X importtime: largest top-level imports (cumulative, ms)")
    for cum, name in importtime_top(14):
        print(f"{cum / 1000:8.1f}  {name.strip()}")


if __name__ == "__main__":
    main()
