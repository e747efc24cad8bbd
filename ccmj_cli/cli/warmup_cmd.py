"""ccmj warm-up: compile (or load) every command's kernels now, saying what and how far.

A fresh install compiles Numba kernels on each command's first use: minutes for ``simulate``,
under a minute each for ``batch`` and ``odds``. ``ccmj warm-up`` runs each command once on a
tiny job, in this process, so their kernels land in the cache folder (Set-up in the README);
each step says on stderr what it compiles, how far the warm-up is, and how long it took. Run
again with a warm cache it only loads them (seconds). The test suite runs it once per session.

On a machine with two cores or more the parts run in two chains of processes at once (the table
engine in one; the hand and odds kernels, then the referee's, in the other: the two take about
as long), each compiling its own kernels: the warm-up takes about half the time. Numba compiles
on one thread, so more processes would only split smaller parts.
"""

import contextlib
import io
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from typing import Annotated

import typer

from .. import interrupts

HAND = "111m456p789s2345s"
WINS = (  # batch rows: a self-draw, a discard, 摸宝, 对宝, with kongs, one bad row
    "hand,win,how,seat,from,bao,base,kongs,declared\n"
    "123m456p46s55s111z,,mobao,S,,9p,1,,\n"
    "111m999p11s55s777z,5s,duibao,E,,5s,1,,\n"
    '123m456p46s55s111z,5s,discard,S,W,,2,"E:(5555m),W:[1234z]",\n'
    "123m456p789s1123s,4s,self,N,,,1,,\n"
    "123m456p789s1123s,4x,self,S,,,1,,\n"
)
ODDS_13 = ["odds", "123m456p789s1112s", "--declare", "-n", "4", "--seed", "1"]
ODDS_14 = ["odds", "123m456p789s11123s", "--declare", "-n", "4", "--seed", "1"]
# a position (docs/position.md): S discarded 5m, W wins on it, E may pung, W chow
POSITION = (
    '{"dealer": "E", "wall": {"left": 82}, "last": {"event": "discard", "seat": "S", "tile": '
    '"5m"}, "seats": {"E": {"hand": "55m123p789p234s36z", "pond": ["7z"]}, "S": {"hand": '
    '"11m234m567p1235s4z", "pond": ["5m"]}, "W": {"hand": "46m456p789s99s111z"}, "N": '
    '{"count": 13}}}'
)
SIM = ["simulate", "-n", "16", "--seed", "1", "--no-progress", "--json"]
# a recorded hand (docs/referee.md): the referee runs the table engine scripted, a compile of
# its own
RECORD = (
    'rules default\n'
    'dealer S\n'
    'deal S 558m2567p2289s44z1z\n'
    'deal W 2344667m67p79s12z\n'
    'deal N 27m13488p127s245z\n'
    'deal E 33689m135p1366s7z\n'
    'S discard 8m\n'
    'W chow 8m 678m from S\n'
    'W discard 1z\n'
    'N draw 2m\n'
    'N discard 2z\n'
    'E draw 2p\n'
    'E discard 6m\n'
    'S draw 7s\n'
    'S discard 2p\n'
    'W draw 9p\n'
    'W discard 2z\n'
    'N draw 3p\n'
    'N discard 7m\n'
    'E chow 7m 789m from N\n'
    'E discard 5p\n'
    'S draw 5m\n'
    'S discard 1z\n'
    'S declare\n'
    'W draw 7m\n'
    'W discard 7m\n'
    'N draw 5s\n'
    'N discard 1p\n'
    'E draw 3m\n'
    'E discard 7z\n'
    'E declare\n'
    'bao 9m by S dice 2 2\n'
    'S look 9m\n'
    'S draw 4m\n'
    'S discard 4m\n'
    'W chow 4m 234m from S\n'
    'W discard 6m\n'
    'N draw 1m\n'
    'N discard 4z\n'
    'S win 4z from N\n'
    'payout E -4 S 16 W -4 N -8\n'
)

# part -> [(what is compiled, the ccmj arguments that compile it)]; {wins} is a CSV file
STEPS = {
    "hand": [
        ("hand kernels (waits, check, shanten, score, bao)", [
            ["waits", HAND], ["check", "123m456p789s1123s", "4s"], ["shanten", HAND],
            ["shanten", "123m456p789s11234s"],
            ["score", "123m456p789s1123s", "--win", "4s", "--by", "self", "--seat", "N"],
            ["bao", HAND, "--bao", "5s"],
        ]),
        ("batch (CSV and JSON)", [["batch", "{wins}"], ["batch", "{wins}", "--json"]]),
    ],
    "odds": [
        ("odds, Monte Carlo", [[*ODDS_13, "--trials", "200"]]),
        ("odds, exact", [[*ODDS_13, "--exact", "--trials", "0"], [*ODDS_14, "--exact"]]),
    ],
    "simulate": [
        ("simulate", [SIM]),
        ("simulate --csv", [[*SIM, "--csv", os.devnull]]),
        ("simulate --log", [[*SIM, "--log", "{log}"]]),
        ("actions (legal actions at a position)", [["actions", "{position}", "--explain"]]),
    ],
    "referee": [("referee (a recorded game checked, and stopped at an event)", [
        ["referee", "{record}"], ["referee", "{record}", "--at", "12"],
    ])],
}  # fmt: skip
PARTS = tuple(STEPS)
# Two chains side by side on two cores (the table engine alone takes as long as the rest), each
# stage a process of its own: the referee's compile in a fresh process, not on top of the hand
# and odds kernels (a process that compiles everything holds it all: 1.53 GB, not 1.46)
GROUPS = ((("simulate",),), (("hand", "odds"), ("referee",)))
CHILD = "CCMJ_WARM_UP_CHILD"  # set in a child process: report steps as tab-separated lines


def _run(args: list[str]) -> None:
    """One ccmj command in this process, its output thrown away; its errors are not ours
    (a step that fails still compiled what it reached)."""
    from . import app

    with (
        open(os.devnull, "w", encoding="utf-8") as null,
        contextlib.redirect_stdout(null),
        contextlib.redirect_stderr(io.StringIO()),
        contextlib.suppress(SystemExit, Exception),
    ):
        typer.main.get_command(app).main(args, prog_name="ccmj", standalone_mode=False)


def warm_up(parts=PARTS, say=None, child=None) -> float:
    """Run the steps of ``parts``; ``say(line)`` reports each (``child(line)``: as tab-separated
    start and done lines, for ``side_by_side``). Returns the seconds taken."""
    steps = [s for p in parts for s in STEPS[p]]
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="ccmj-warm-up-") as tmp:
        interrupts.writing(tmp)  # (removed too if a signal ends the process at once)
        try:
            names = {"wins": "wins.csv", "log": "hands.log", "position": "position.json",
                     "record": "record.txt"}  # fmt: skip
            files = {key: os.path.join(tmp, name) for key, name in names.items()}
            for key, text in (("wins", WINS), ("position", POSITION), ("record", RECORD)):
                with open(files[key], "w", encoding="utf-8") as f:
                    f.write(text)
            for i, (what, commands) in enumerate(steps, 1):
                t = time.perf_counter()
                if say:
                    say(f"warm-up {i}/{len(steps)}: {what}…")
                if child:
                    child(f"start\t{what}")
                for args in commands:
                    _run([a.format(**files) for a in args])
                    if interrupts.signalled():  # (a step that stopped early on it: end here)
                        interrupts.stop_now("INTERRUPTED: the kernels compiled so far are cached")
                if say:
                    say(f"warm-up {i}/{len(steps)}: {what}: {time.perf_counter() - t:.1f} s")
                if child:
                    child(f"done\t{what}\t{time.perf_counter() - t:.1f}")
        finally:
            interrupts.written(tmp)
    return time.perf_counter() - t0


def chains_of(parts) -> list[list[list[str]]]:
    """The chains of GROUPS that hold ``parts``: each a list of stages, each a list of parts."""
    chains = [[[p for p in stage if p in parts] for stage in chain] for chain in GROUPS]
    chains = [[stage for stage in chain if stage] for chain in chains]
    return [chain for chain in chains if chain]


def usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # (not on every platform)
        return os.cpu_count() or 1


def side_by_side(chains, say) -> float:
    """``warm_up`` with ``chains`` (``chains_of``) at once: each chain's stages one after the
    other, each stage (its parts) in a process of its own; the steps are numbered in the order
    they start. Returns the seconds taken."""
    total = sum(len(STEPS[p]) for chain in chains for stage in chain for p in stage)
    t0 = time.perf_counter()
    env = {**os.environ, CHILD: "1"}
    lock = threading.Lock()
    started: dict[str, int] = {}
    said: set[str] = set()  # other lines (a notice about the cache folder): said once
    running: list[subprocess.Popen] = []
    failed: list[str] = []
    stopping: list[bool] = []

    def relay(line: str):
        kind, _, rest = line.rstrip("\n").partition("\t")
        if kind == "start":
            started[rest] = len(started) + 1
            say(f"warm-up {started[rest]}/{total}: {rest}…")
        elif kind == "done":
            what, _, secs = rest.rpartition("\t")
            say(f"warm-up {started.get(what, '?')}/{total}: {what}: {secs} s")
        elif line.strip() and line not in said:
            said.add(line)
            say(line.rstrip("\n"))

    def run_chain(chain):
        for stage in chain:
            with lock:
                if stopping:
                    return
                proc = subprocess.Popen(
                    [sys.executable, "-m", "ccmj_cli", "warm-up", *(f"--part={p}" for p in stage)],
                    env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                    stderr=subprocess.PIPE, text=True, encoding="utf-8", errors="replace",
                )  # fmt: skip
                running.append(proc)
            for line in proc.stderr:
                with lock:
                    if not stopping:
                        relay(line)
            if proc.wait() != 0:
                with lock:
                    failed.append(f"the warm-up of {', '.join(stage)} ended with exit "
                                  f"{proc.returncode}")  # fmt: skip
                return

    def stop():  # a signal (the children ignore Ctrl-C): they end, then we do
        with lock:
            stopping.append(True)
            for proc in running:
                with contextlib.suppress(OSError):
                    proc.terminate()
        raise KeyboardInterrupt

    interrupts.work_started(stop)
    threads = [threading.Thread(target=run_chain, args=(c,), daemon=True) for c in chains]
    try:
        for t in threads:
            t.start()
        for t in threads:
            while t.is_alive():  # (a timeout: the main thread stays free for a signal)
                t.join(0.2)
    finally:
        interrupts.work_ended()
    if failed and not stopping:
        raise RuntimeError(failed[0])
    return time.perf_counter() - t0


def register(app: typer.Typer):
    @app.command("warm-up")
    def warm_up_cmd(
        part: Annotated[
            list[str] | None,
            typer.Option(
                "--part", help=f"Only these parts ({', '.join(PARTS)}); repeat for several."
            ),
        ] = None,
        jobs: Annotated[
            int | None,
            typer.Option(
                "--jobs", "-j", min=1,
                help="Compile in this many processes at once (default: 2 on a machine with two "
                "cores or more; more gain nothing).",
            ),
        ] = None,
    ):
        """Compile every command's kernels now (minutes on a fresh install; seconds after)."""
        from . import common

        common.STANDALONE = False  # every step compiled, even one hand (see choose_kernels)
        parts = part or list(PARTS)
        bad = [p for p in parts if p not in STEPS]
        if bad:
            typer.echo(f"error: unknown part '{bad[0]}' (parts: {', '.join(PARTS)})", err=True)
            raise typer.Exit(2)

        def say(line: str):
            with contextlib.suppress(OSError, ValueError):
                sys.stderr.write(line + "\n")
                sys.stderr.flush()

        if os.environ.get(CHILD) == "1":  # a process of side_by_side: machine-readable steps
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # (Ctrl-C: the parent ends it)
            warm_up(parts, None, child=say)
            return
        split = jobs if jobs is not None else min(2, usable_cores())
        chains = chains_of(parts)
        if split > 1 and len(chains) > 1:
            try:
                took = side_by_side(chains, say)
            except KeyboardInterrupt:
                typer.echo(interrupts.named("INTERRUPTED: the kernels compiled so far are "
                                            "cached"), err=True)  # fmt: skip
                raise typer.Exit(interrupts.exit_code()) from None
            except RuntimeError as e:
                typer.echo(f"error: {e}", err=True)
                raise typer.Exit(1) from None
        else:
            took = warm_up(parts, say)
        typer.echo(f"warm-up done in {took:.1f} s: the kernels are in the cache folder", err=True)
