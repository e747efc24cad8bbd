"""Benchmark ccmj's bulk kernels and CLI against riichienv and xiangting (one thread).

Prints figures, asserts nothing about time. Run from the repository root:

    python scripts/bench.py            # 200,000 hands per set, CLI cold/warm start, 100k-line batch
    python scripts/bench.py --quick    # 20,000 hands, 3 warm runs, 10k-line batch
    python scripts/bench.py --n 1000000 --no-cli

riichienv and xiangting are optional (``pip install xiangting riichienv``); a missing one is
reported and skipped. Their shanten counts 七对/国士 too, so the agreement check compares them
with min(ccmj standard form, 七对, 国士) computed here, and also prints the raw difference.
"""

import argparse
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ["NUMBA_NUM_THREADS"] = "1"  # before numba is imported

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CLI_HAND = "111m456p789s2345s"
OTHER_COMMANDS = (
    ["check", CLI_HAND, "2s"],
    ["shanten", "1235m4568p789s234s"],
    ["score", CLI_HAND, "-w", "2s", "--by", "discard", "--from", "E"],
    ["bao", CLI_HAND, "--bao", "5s"],
)
N_KINDS = 34
YAOJIU = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]


# ---------------------------------------------------------------------------- hand sets


def random_hands(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """13 tiles from a shuffled 136-tile wall: (counts uint8[n,34], tile ids int16[n,13])."""
    ids = np.empty((n, 13), np.int16)
    wall = np.broadcast_to(np.arange(136, dtype=np.int16), (min(n, 50_000), 136))
    for s in range(0, n, 50_000):
        m = min(50_000, n - s)
        ids[s : s + m] = rng.permuted(wall[:m], axis=1)[:, :13]
    return _counts(ids // 4), ids


# the 55 sets: 21 chows (start 1-7 in each suit) then 34 pungs, as (tile, tile, tile)
_SETS = np.array(
    [[9 * s + r + i for i in range(3)] for s in range(3) for r in range(7)]
    + [[t, t, t] for t in range(N_KINDS)],
    np.int16,
)


def tenpai_hands(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """4 uniformly drawn sets + a pair (redrawn while any tile exceeds 4 copies), minus one
    random tile: mostly tenpai, the case the per-suit tables are for."""
    kinds = np.empty((n, 14), np.int16)
    todo = np.arange(n)
    while todo.size:
        m = todo.size
        sets = _SETS[rng.integers(0, len(_SETS), (m, 4))].reshape(m, 12)
        pair = rng.integers(0, N_KINDS, m).astype(np.int16)
        k = np.concatenate([sets, pair[:, None], pair[:, None]], axis=1)
        ok = (_counts(k) <= 4).all(axis=1)
        kinds[todo[ok]] = k[ok]
        todo = todo[~ok]
    drop = rng.integers(0, 14, n)
    keep = np.ones((n, 14), bool)
    keep[np.arange(n), drop] = False
    kinds = kinds[keep].reshape(n, 13)
    kinds.sort(axis=1)
    counts = _counts(kinds)
    # real 136-ids for libraries that take them: copy number = rank among equal tiles
    rank = np.zeros_like(kinds)
    for j in range(1, 13):
        rank[:, j] = np.where(kinds[:, j] == kinds[:, j - 1], rank[:, j - 1] + 1, 0)
    return counts, kinds * 4 + rank


def _counts(kinds: np.ndarray) -> np.ndarray:
    out = np.zeros((kinds.shape[0], N_KINDS), np.uint8)
    rows = np.repeat(np.arange(kinds.shape[0]), kinds.shape[1])
    np.add.at(out, (rows, kinds.ravel()), 1)
    return out


def mpsz(c: np.ndarray) -> str:
    parts = []
    for s, (lo, hi) in zip("mpsz", ((0, 9), (9, 18), (18, 27), (27, 34)), strict=True):
        digits = "".join(str(t - lo + 1) * int(c[t]) for t in range(lo, hi))
        if digits:
            parts.append(digits + s)
    return "".join(parts)


def other_forms_shanten(counts: np.ndarray) -> np.ndarray:
    """min(七对, 国士) shanten (Tenhou convention), for comparing with libraries that count them."""
    pairs = (counts >= 2).sum(axis=1)
    kinds = (counts >= 1).sum(axis=1)
    qidui = 6 - pairs + np.maximum(0, 7 - kinds)
    y = counts[:, YAOJIU]
    guoshi = 13 - (y > 0).sum(axis=1) - (y >= 2).any(axis=1)
    return np.minimum(qidui, guoshi)


# ---------------------------------------------------------------------------- timing helpers


def best_of(repeats: int, fn, *args) -> tuple[float, object]:
    """Shortest wall time of fn(*args) over `repeats` runs, and its result."""
    best, out = float("inf"), None
    for _ in range(repeats):
        t = time.perf_counter()
        out = fn(*args)
        best = min(best, time.perf_counter() - t)
    return best, out


def rate(n: int, seconds: float) -> str:
    r = n / seconds
    if r >= 1e6:
        return f"{r / 1e6:.2f} M/s"
    return f"{r / 1e3:.0f} k/s" if r >= 1e4 else f"{r:,.0f}/s"


class Table:
    def __init__(self):
        self.rows = []
        self.rates = {}  # (library, kind, hand set) -> hands/s, for the targets summary

    def timed(self, lib, kind, call, set_name, n, dt):
        self.rates[lib, kind, set_name] = n / dt
        self.add(lib, call, set_name, rate(n, dt), f"{dt:.3f}")

    def add(self, *row):
        self.rows.append([str(x) for x in row])
        print("  " + " | ".join(self.rows[-1]), flush=True)  # progress while it runs

    def show(self, header):
        rows = [header, *self.rows]
        w = [max(len(r[i]) for r in rows) for i in range(len(header))]
        line = lambda r: "  ".join(x.ljust(w[i]) for i, x in enumerate(r))  # noqa: E731
        print(line(header))
        print("  ".join("-" * x for x in w))
        for r in self.rows:
            print(line(r))


# ---------------------------------------------------------------------------- sections


def machine_info():
    import numba

    import ccmj_cli

    model = "?"
    try:
        with open("/proc/cpuinfo") as f:
            model = next(x for x in f if x.startswith("model name")).split(":", 1)[1].strip()
    except (OSError, StopIteration):
        pass
    avail = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"machine : {platform.machine()}, nproc {avail}, CPU {model}")
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load    : {load} (1/5/15 min; other processes share the cores)")
    print(
        f"python  : {platform.python_version()}   numpy {np.__version__}"
        f"   numba {numba.__version__}   ccmj {ccmj_cli.__version__}"
    )
    for lib in ("riichienv", "xiangting"):
        try:
            from importlib.metadata import version

            print(f"{lib:8}: {version(lib)}")
        except Exception:
            print(f"{lib:8}: not installed (pip install {lib})")
    threads = os.environ["NUMBA_NUM_THREADS"]
    print(f"threads : NUMBA_NUM_THREADS={threads} (ccmj's kernels are serial anyway)")


def bench_ccmj(sets, repeats, table: Table, first: Table):
    import numba

    numba.set_num_threads(1)
    t0 = time.perf_counter()
    from ccmj_cli import hand
    from ccmj_cli._kernels import judge, shape
    from ccmj_cli._kernels.layout import MS_LEN
    from ccmj_cli._kernels.tables import tables
    from ccmj_cli.rules import load_variant

    first.add("import ccmj_cli.hand (numba, kernels)", f"{time.perf_counter() - t0:.3f} s")
    t0 = time.perf_counter()
    tb = tables()
    first.add("tables() (load .npy, or build on first use)", f"{time.perf_counter() - t0:.3f} s")
    from numba.core.registry import cpu_target

    t0 = time.perf_counter()
    cpu_target.target_context.refresh()  # what the first kernel call of a process does first
    dt = time.perf_counter() - t0
    first.add("Numba CPU target init (imports numba.np.*, scipy if installed)", f"{dt:.3f} s")
    tiny = sets["random"][0][:2]
    for name, fn, disp in (
        ("hand.shanten_many", hand.shanten_many, shape.shanten_many),
        ("hand.waits_many", hand.waits_many, shape.waits_many),
    ):
        t0 = time.perf_counter()
        fn(tiny)
        dt = time.perf_counter() - t0
        how = "loaded from cache" if disp.stats.cache_hits else "compiled"
        first.add(f"first {name} call ({how})", f"{dt:.3f} s")

    ms = np.zeros(MS_LEN, np.int64)
    rv = load_variant(None).vector
    out = np.zeros((N_KINDS, judge.W_COLS), np.int64)
    driver = make_legal_driver(judge.judge_waits)
    t0 = time.perf_counter()
    driver(tiny, ms, rv, tb, out)
    how = "loaded from cache" if judge.judge_waits.stats.cache_hits else "compiled"
    first.add(
        f"first legal-waits driver call (driver compiled, judge_waits {how})",
        f"{time.perf_counter() - t0:.3f} s",
    )

    results = {}
    for set_name, (counts, _ids) in sets.items():
        n = len(counts)
        dt, sh = best_of(repeats, hand.shanten_many, counts)
        table.timed("ccmj", "shanten", "hand.shanten_many (std form)", set_name, n, dt)
        dt, w = best_of(repeats, hand.waits_many, counts)
        table.timed("ccmj", "waits", "hand.waits_many (structural)", set_name, n, dt)
        dt, n_tenpai = best_of(repeats, driver, counts, ms, rv, tb, out)
        table.timed("ccmj", "legal", "judge.judge_waits (legal, all flags)", set_name, n, dt)
        results[set_name] = (sh, w, n_tenpai)
    return results


def make_legal_driver(judge_waits):
    from numba import njit

    @njit
    def legal_waits_driver(counts, ms, rv, tb, out):
        """judge_waits on each row (no melds, own = the row); rows with a live legal wait."""
        n_tenpai = 0
        for r in range(counts.shape[0]):
            c = counts[r]
            if judge_waits(c, ms, c, rv, tb, out) > 0:
                n_tenpai += 1
        return n_tenpai

    return legal_waits_driver


def bench_riichienv(sets, ccmj, table: Table, checks: list):
    try:
        import riichienv
        from riichienv import _riichienv as core
    except Exception as e:  # noqa: BLE001
        table.add("riichienv", f"not available: {type(e).__name__}: {e}", "-", "-", "-")
        return
    for set_name, (counts, ids) in sets.items():
        n = len(counts)
        lists = ids.tolist()  # native input: lists of 136-tile ids (converted before timing)
        dt, sh = best_of(1, _loop_shanten, riichienv.calculate_shanten, lists)
        table.timed("riichienv", "shanten", "calculate_shanten(ids136)", set_name, n, dt)
        dt, waits = best_of(1, _loop_waits, riichienv.HandEvaluator, lists)
        table.timed("riichienv", "waits", "HandEvaluator(ids136).get_waits()", set_name, n, dt)
        dt, _ = best_of(1, _loop_waits_core, core.HandEvaluator, lists)
        call = "_riichienv.HandEvaluator(ids, []).get_waits()"
        table.timed("riichienv", "waits_core", call, set_name, n, dt)
        res = compare(counts, np.array(sh), waits_mask_from_lists(waits), ccmj[set_name])
        checks.append(("riichienv", set_name, *res))


def _loop_shanten(f, lists):
    return [f(x) for x in lists]


def _loop_waits(he, lists):
    return [he(x).get_waits() for x in lists]


def _loop_waits_core(he, lists):
    return [he(x, []).get_waits() for x in lists]


def _loop_xiangting(f, lists, players):
    return [f(x, players) for x in lists]


def bench_xiangting(sets, ccmj, table: Table, checks: list):
    try:
        import xiangting
    except Exception as e:  # noqa: BLE001
        table.add("xiangting", f"not available: {type(e).__name__}: {e}", "-", "-", "-")
        return
    four = xiangting.PlayerCount.FOUR
    for set_name, (counts, _ids) in sets.items():
        n = len(counts)
        lists = counts.tolist()  # native input: 34-count lists (converted before timing)
        dt, rn = best_of(1, _loop_xiangting, xiangting.calculate_replacement_number, lists, four)
        call = "calculate_replacement_number(c34, FOUR) - 1"
        table.timed("xiangting", "shanten", call, set_name, n, dt)
        dt, res = best_of(1, _loop_xiangting, xiangting.calculate_necessary_tiles, lists, four)
        table.timed("xiangting", "waits", "calculate_necessary_tiles(c34, FOUR)", set_name, n, dt)
        # for a tenpai hand its necessary tiles are its waits
        masks = np.array([m for _r, m in res], np.int64)
        w = (masks[:, None] >> np.arange(N_KINDS)) & 1 == 1
        res = compare(counts, np.array(rn) - 1, w, ccmj[set_name])
        checks.append(("xiangting", set_name, *res))


def waits_mask_from_lists(waits) -> np.ndarray:
    w = np.zeros((len(waits), N_KINDS), bool)
    for i, ts in enumerate(waits):
        w[i, ts] = True
    return w


def compare(counts, lib_sh, lib_waits, ccmj_res):
    """(raw shanten mismatches, mismatches vs min(std, 七对, 国士), waits mismatches on hands that
    are standard-form tenpai and not 七对/国士 tenpai, number of such hands)."""
    sh, w, _ = ccmj_res
    sh = sh.astype(np.int64)
    other = other_forms_shanten(counts)
    raw = int((lib_sh != sh).sum())
    unexplained = int((lib_sh != np.minimum(sh, other)).sum())
    std_only = (sh == 0) & (other > 0)
    wait_bad = int((lib_waits[std_only] != w[std_only]).any(axis=1).sum())
    return raw, unexplained, wait_bad, int(std_only.sum())


def bench_cli(n_batch: int, warm_runs: int, tenpai_counts, table: Table) -> dict:
    env = dict(os.environ)
    env.pop("CCMJ_JIT", None)  # the default: single-hand commands interpreted
    with tempfile.TemporaryDirectory(prefix="ccmj-bench-") as tmp:
        env["CCMJ_CACHE_DIR"] = str(Path(tmp) / "ccmj")  # tables and compiled kernels: cold
        cmd = [sys.executable, "-m", "ccmj_cli", "waits", CLI_HAND]

        def run(args, stdin=None):
            """(wall seconds, completed process); the child's CPU seconds go to cpu[-1]."""
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.perf_counter()
            p = subprocess.run(args, cwd=ROOT, env=env, stdin=stdin, capture_output=True)
            dt = time.perf_counter() - t
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu.append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
            return dt, p

        cpu = []

        dt, p = run(cmd)
        table.add(
            f"ccmj waits {CLI_HAND}",
            "cold (empty Numba + table caches)",
            f"{dt:.2f} s",
            f"exit {p.returncode}, CPU (user+sys) {cpu[-1]:.2f} s; builds the tables",
        )
        figures = {"cold": dt}
        times = [run(cmd)[0] for _ in range(warm_runs)]
        figures["warm"] = statistics.median(times)
        table.add(
            f"ccmj waits {CLI_HAND}",
            f"warm, median of {warm_runs}",
            f"{statistics.median(times):.2f} s",
            f"min {min(times):.2f} s, CPU median {statistics.median(cpu[-warm_runs:]):.2f} s",
        )
        figures["warm_cpu"] = statistics.median(cpu[-warm_runs:])
        for args in OTHER_COMMANDS:  # the other single-hand commands, also interpreted
            times = [run([*cmd[:3], *args])[0] for _ in range(warm_runs)]
            table.add(f"ccmj {' '.join(args)}", "warm", f"{statistics.median(times):.2f} s", "")

        # the same command with compiled kernels (what batches, odds and simulate run)
        env["CCMJ_JIT"] = "1"
        dt, p = run(cmd)
        table.add(
            f"CCMJ_JIT=1 ccmj waits {CLI_HAND}",
            "first compiled run",
            f"{dt:.2f} s",
            f"compiles the hand kernels; exit {p.returncode}",
        )
        times = [run(cmd)[0] for _ in range(warm_runs)]
        table.add(
            f"CCMJ_JIT=1 ccmj waits {CLI_HAND}",
            f"warm, median of {warm_runs}",
            f"{statistics.median(times):.2f} s",
            "Numba import + cache load",
        )
        del env["CCMJ_JIT"]

        lines = Path(tmp) / "hands.txt"
        lines.write_text("".join(mpsz(c) + "\n" for c in tenpai_counts[:n_batch]))
        with open(lines, "rb") as f:
            dt, p = run([sys.executable, "-m", "ccmj_cli", "waits", "-", "--json"], stdin=f)
        figures["batch"] = dt
        n_out = p.stdout.count(b"\n")
        n_err = p.stdout.count(b'"error"')
        table.add(
            f"ccmj waits - --json  ({n_batch:,} lines)",
            "warm, wall time",
            f"{dt:.2f} s",
            f"exit {p.returncode}, {n_out:,} lines out, {n_err} errors, {rate(n_batch, dt)},"
            f" CPU {cpu[-1]:.2f} s",
        )
    return figures


# ---------------------------------------------------------------------------- main


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, help="hands per set (default 200,000; 20,000 with --quick)")
    ap.add_argument(
        "--quick", action="store_true", help="small run: 20k hands, 3 warm CLI runs, 10k-line batch"
    )
    ap.add_argument("--repeats", type=int, default=3, help="ccmj timings: best of N runs (3)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--no-libs", action="store_true", help="skip riichienv and xiangting")
    ap.add_argument("--no-cli", action="store_true", help="skip the CLI timings")
    ap.add_argument("--batch", type=int, help="stdin batch lines (100,000; 10,000 with --quick)")
    args = ap.parse_args()
    n = args.n or (20_000 if args.quick else 200_000)
    n_batch = args.batch or (10_000 if args.quick else 100_000)
    warm_runs = 3 if args.quick else 5

    machine_info()
    rng = np.random.default_rng(args.seed)
    t0 = time.perf_counter()
    rand = random_hands(n, rng)
    t_counts, t_ids = tenpai_hands(max(n, n_batch), rng)  # the CLI batch lines come from these
    sets = {"random": rand, "tenpai-heavy": (t_counts[:n], t_ids[:n])}
    dt = time.perf_counter() - t0
    print(f"hands   : {n:,} per set (seed {args.seed}), generated in {dt:.1f} s\n")

    first, table, checks = Table(), Table(), []
    print("running ...")
    ccmj = bench_ccmj(sets, args.repeats, table, first)
    if not args.no_libs:
        bench_riichienv(sets, ccmj, table, checks)
        bench_xiangting(sets, ccmj, table, checks)
    cli, cli_fig = Table(), {}
    if not args.no_cli:
        cli_fig = bench_cli(n_batch, warm_runs, t_counts, cli)

    print("\n== ccmj first calls in this process (compile or cache load, kept out of the rates)")
    first.show(["step", "time"])
    how = f"ccmj: best of {args.repeats}; libraries: one pass of a Python loop"
    print(f"\n== throughput, one thread ({how})")
    table.show(["library", "call", "hands", "hands/s", "seconds"])
    for set_name, (sh, _w, n_tenpai) in ccmj.items():
        hist = np.bincount(sh.astype(np.int64) + 1, minlength=3)
        print(
            f"  {set_name}: ccmj standard-form shanten -1/0/1/2+ = {hist[0]}/{hist[1]}/{hist[2]}/"
            f"{hist[3:].sum()}; legal tenpai (a live legal wait, default variant) = {n_tenpai}"
        )
    if checks:
        print("\n== agreement with ccmj on the same hands")
        t = Table()
        t.rows = [[lib, s, str(a), str(b), f"{wb} of {ns}"] for lib, s, a, b, wb, ns in checks]
        t.show(
            [
                "library",
                "hands",
                "shanten != ccmj std (raw)",
                "!= min(std, 七对, 国士)",
                "waits differ (std-tenpai, not 七对/国士)",
            ]
        )
    if cli.rows:
        print("\n== CLI (subprocess, cwd = repo root)")
        cli.show(["command", "start", "time", "notes"])

    print("\n== against the targets of ISSUE_2 (provisional: shared machine)")
    targets(table.rates, cli_fig, n_batch, list(sets))


def targets(r: dict, cli: dict, n_batch: int, set_names: list[str]):
    def line(what, value, goal, ok):
        print(f"  {'ok  ' if ok else 'MISS'}  {what:58} {value:>22}   target {goal}")

    for s in set_names:
        libs = [
            v for (lib, kind, s2), v in r.items() if lib != "ccmj" and (kind, s2) == ("shanten", s)
        ]
        if libs:
            x = r["ccmj", "shanten", s] / max(libs)
            line(f"shanten_many / faster library, {s}", f"{x:.2f}x", ">= 1x", x >= 1)
        if ("riichienv", "waits", s) in r:
            x = r["ccmj", "waits", s] / r["riichienv", "waits", s]
            line(f"waits_many / riichienv get_waits, {s}", f"{x:.1f}x", ">= 5x", x >= 5)
        x = r["ccmj", "legal", s]
        line(f"legal waits (judge_waits), {s}", rate(1, 1 / x), ">= 1 M/s", x >= 1e6)
    if cli:
        w, wc = cli["warm"], cli["warm_cpu"]
        line(f"ccmj waits {CLI_HAND}, warm (CPU {wc:.2f} s)", f"{w:.2f} s", "< 0.6 s", w < 0.6)
        if n_batch == 100_000:
            line("stdin batch, 100,000 lines", f"{cli['batch']:.2f} s", "< 5 s", cli["batch"] < 5)
        else:
            b = cli["batch"]
            print(
                f"  --    stdin batch of {n_batch:,} lines: {b:.2f} s (target: 100,000 lines < 5 s)"
            )


if __name__ == "__main__":
    main()
