"""ccmj odds: exact and Monte Carlo odds of winning from a hand, per discard for 14 tiles."""

import os
import sys
import threading
import time
from typing import Annotated

import typer

from .. import interrupts
from ..errors import UsageError
from ..output import render_odds, to_json
from .common import JsonOpt, PlotOpt, RulesOpt, VisibleOpt, handles_errors, variant


class _Bar:
    """A rich progress bar on stderr, shown only when stderr is a terminal and once a run has
    lasted a second."""

    def __init__(self):
        self.start = time.perf_counter()
        self.bar = None
        self.task = None
        self.tty = sys.stderr.isatty()

    def __call__(self, done: int, total: int):
        if not self.tty:
            return
        if self.bar is None:
            if time.perf_counter() - self.start < 1.0 or done >= total:
                return
            from rich.console import Console
            from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

            self.bar = Progress(
                TextColumn("odds"), BarColumn(), TextColumn("{task.completed}/{task.total} trials"),
                TimeRemainingColumn(), console=Console(stderr=True), transient=True,
            )  # fmt: skip
            self.bar.start()
            self.task = self.bar.add_task("odds", total=total)
        self.bar.update(self.task, completed=done, total=total)

    def close(self):
        if self.bar is not None:
            self.bar.stop()


HandArg = Annotated[
    str,
    typer.Argument(help="13 tiles (after discarding) or 14 (odds per discard): 123m456p789s1112s."),
]
DrawsOpt = Annotated[
    int | None,
    typer.Option("--draws", "-n", help="The player's own draws left (default: a whole hand, 17)."),
]
WallOpt = Annotated[
    int | None,
    typer.Option("--wall", help="Tiles left in the wall instead: the player draws every fourth."),
]
TrialsOpt = Annotated[
    int | None,
    typer.Option(
        "--trials",
        "-t",
        help="Monte Carlo trials (default: exact when within reach, else 20000; 0 with --exact: "
        "exact only).",
    ),
]
SeedOpt = Annotated[
    int | None, typer.Option("--seed", help="Random seed (default: a fresh one, reported).")
]
DeclareOpt = Annotated[
    bool,
    typer.Option("--declare", help="Declare (报听) once tenpai: the hand locks, the bao applies."),
]
BaoOpt = Annotated[
    str,
    typer.Option("--bao", help="The bao: a tile, 'unknown' (rolled at the first look) or 'none'."),
]
OpponentsOpt = Annotated[
    str,
    typer.Option(
        "--opponents",
        help="none (self-draws only) or random (others discard random unseen tiles: 点炮).",
    ),
]
ThreadsOpt = Annotated[
    int | None,
    typer.Option(
        "--threads",
        "-j",
        help="Threads (the answer does not depend on it). Default 1; with HAND '-', hands are "
        "answered side by side, one per core (at most 4).",
    ),
]
STDIN_THREADS = 4  # the default's cap for '-': each thread may hold a search graph (~0.4 GB)
DealerOpt = Annotated[
    bool, typer.Option("--dealer", help="The player is the dealer (庄), for the payment.")
]
ExactOpt = Annotated[
    bool,
    typer.Option(
        "--exact",
        help="The exact analysis (best play, by dynamic programming); with --trials, Monte Carlo "
        "too.",
    ),
]
ObjectiveOpt = Annotated[
    str,
    typer.Option("--objective", help="What the exact analysis maximises: win (P(win)) or payment."),
]
PolicyOpt = Annotated[
    str | None,
    typer.Option(
        "--policy",
        help="Who plays the Monte Carlo: solver (the exact analysis's decisions, the default when "
        "it answered) or baseline (the simple discard policy; the exact answer then only with "
        "--exact).",
    ),
]
PoolOpt = Annotated[
    str,
    typer.Option(
        "--pool",
        help="The baseline Monte Carlo's pool: draws_leave (a drawn tile is gone for good) or "
        "hand_only (a thrown tile is unseen again, as in the exact analysis).",
    ),
]
ValueOpt = Annotated[
    str | None,
    typer.Option(
        "--value",
        help="Print just this field of the answer (p_win, expected_payment, p_tenpai; of the "
        "best discard for 14 tiles), for $(ccmj odds ... --value p_win).",
    ),
]
VALUE_FIELDS = ("p_win", "expected_payment", "p_tenpai", "p_jiahu", "p_piao")


def register(app: typer.Typer):
    @app.command()
    @handles_errors
    def odds(
        hand: HandArg,
        visible: VisibleOpt = None,
        draws: DrawsOpt = None,
        wall: WallOpt = None,
        trials: TrialsOpt = None,
        seed: SeedOpt = None,
        declare: DeclareOpt = False,
        bao: BaoOpt = "none",
        opponents: OpponentsOpt = "none",
        threads: ThreadsOpt = None,
        dealer: DealerOpt = False,
        exact: ExactOpt = False,
        objective: ObjectiveOpt = "win",
        policy: PolicyOpt = None,
        pool: PoolOpt = "draws_leave",
        value: ValueOpt = None,
        rules: RulesOpt = None,
        json: JsonOpt = False,
        plot: PlotOpt = None,
    ):
        """P(win) and P(tenpai) by turn, expected payment, by 自摸/点炮/摸宝/对宝, 夹胡/飘胡: exact
        (best play) when the model allows it, else Monte Carlo; every discard of a 14-tile hand.
        HAND '-' reads one hand a line from stdin (one answer, or JSON line, a hand)."""
        v = variant(rules)
        if value is not None and value not in VALUE_FIELDS:
            raise UsageError(f"bad --value '{value}': expected one of {', '.join(VALUE_FIELDS)}")
        if value is not None and json:
            raise UsageError("give --value (the number alone) or --json (every field), not both")
        if threads is not None and threads < 1:
            raise UsageError(f"bad --threads {threads}: expected 1 or more")
        if hand == "-":
            if plot is not None:
                raise UsageError("--plot draws one hand's chances: not with HAND '-'")
            return _stdin(v, json, value, dict(
                visible=visible, draws=draws, wall=wall, trials=trials, seed=seed,
                declare=declare, bao=bao, opponents=opponents, threads=threads, dealer=dealer,
                exact=True if exact else None, objective=objective, policy=policy, pool=pool))
        if plot is not None:
            from ..plots import plot_format

            plot_format(plot)  # a bad name or no matplotlib: fail before the work
        mode = True if exact else None
        threads = 1 if threads is None else threads
        bar = _Bar()
        stop = threading.Event()  # Ctrl-C once the work has started: stop, print what is known
        try:
            from .. import odds as O  # kernels load only when the command runs

            report = O.odds(
                hand, visible=visible, draws=draws, wall=wall, trials=trials, seed=seed,
                declare=declare, bao=bao, opponents=opponents, threads=threads, dealer=dealer,
                exact=mode, objective=objective, policy=policy, pool=pool, rules=v, progress=bar,
                stop=stop, ready=lambda: interrupts.work_started(stop.set),
            )  # fmt: skip
        finally:
            interrupts.work_ended()
            bar.close()
        d = report.to_dict()
        if value is not None:
            typer.echo(_value_of(d, value))
        else:
            typer.echo(to_json(d) if json else render_odds(d))
        if plot is not None:
            from ..plots import plot_odds

            plot_odds(d, plot)
        if report.interrupted:
            message = "INTERRUPTED: the answer above is from the work finished so far"
            typer.echo(interrupts.named(message), err=True)  # (Ctrl-C, SIGTERM or SIGHUP)
            raise typer.Exit(interrupts.exit_code())


def _value_of(d: dict, field: str) -> str:
    """One field of the answer (the best discard's for 14 tiles), as a plain number."""
    x = d["discards"][0] if "discards" in d else d
    v = x[field]
    return "null" if v is None else repr(float(v))


def _stdin(v, json: bool, value: str | None, kw: dict):
    """``ccmj odds -``: one hand a stdin line, one answer a hand (a JSON line with --json, the
    number with --value); a bad line is an error line and the run goes on (exit 4 if any line
    failed)."""
    from .. import odds as O
    from ..errors import CcmjError
    from ..threaded import in_order
    from .common import LongLine, stdin_lines

    def answer(line):
        if isinstance(line, LongLine):
            return None, line.error
        try:
            return O.odds(line, rules=v, **kw).to_dict(), None
        except CcmjError as e:
            return None, e

    asked = kw["threads"] if kw["threads"] is not None else STDIN_THREADS
    threads = min(asked, os.cpu_count() or 1)  # (as odds itself: more only cost)
    if threads > 1:  # --threads: hands answered side by side (the search runs without the GIL)
        # one thread a hand; Ctrl-C reaches this thread only: it sets ``stop`` for the others
        kw = dict(kw, threads=1, stop=threading.Event())
        pairs = in_order(stdin_lines(), lambda item: answer(item[1]), threads, kw["stop"])
    else:
        kw = dict(kw, threads=asked)
        pairs = ((item, answer(item[1])) for item in stdin_lines())
    failed = 0
    for done, ((i, line), (d, e)) in enumerate(pairs, 1):
        if e is not None:
            failed += 1
            err = {"input": line, "line": i, "error": e.message, "code": e.code}
            typer.echo(to_json(err) if json else f"{line}\terror: {e.message}")
        elif value is not None:
            typer.echo(_value_of(d, value))
        elif json:
            typer.echo(to_json(d))
        else:
            typer.echo(render_odds(d) + "\n")
        # (each line is flushed as it is printed)
        interrupts.say_when_interrupted(f"INTERRUPTED after {done} line(s) answered")
    if failed:
        typer.echo(f"{failed} line(s) in error", err=True)
        raise typer.Exit(4)
