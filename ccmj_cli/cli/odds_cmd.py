"""ccmj odds: exact and Monte Carlo odds of winning from a hand, per discard for 14 tiles."""

import sys
import threading
import time
from typing import Annotated

import typer

from .. import interrupts
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
    int, typer.Option("--threads", "-j", help="Threads (the answer does not depend on it).")
]
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
MovesOpt = Annotated[
    str,
    typer.Option(
        "--moves",
        help="Exact analysis: useful (keep only draws that bring a legal win nearer) or all "
        "(every move; short horizons only).",
    ),
]


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
        threads: ThreadsOpt = 1,
        dealer: DealerOpt = False,
        exact: ExactOpt = False,
        objective: ObjectiveOpt = "win",
        moves: MovesOpt = "useful",
        rules: RulesOpt = None,
        json: JsonOpt = False,
        plot: PlotOpt = None,
    ):
        """P(win) and P(tenpai) by turn, expected payment, by 自摸/点炮/摸宝/对宝, 夹胡/飘胡: exact
        (best play) when within reach, else Monte Carlo; every discard of a 14-tile hand."""
        v = variant(rules)
        if plot is not None:
            from ..plots import plot_format

            plot_format(plot)  # a bad name or no matplotlib: fail before the work
        mode = True if exact else (False if trials is not None else None)
        bar = _Bar()
        stop = threading.Event()  # Ctrl-C once the work has started: stop, print what is known
        try:
            from .. import odds as O  # kernels load only when the command runs

            report = O.odds(
                hand, visible=visible, draws=draws, wall=wall, trials=trials, seed=seed,
                declare=declare, bao=bao, opponents=opponents, threads=threads, dealer=dealer,
                exact=mode, objective=objective, moves=moves, rules=v, progress=bar,
                stop=stop, ready=lambda: interrupts.work_started(stop.set),
            )  # fmt: skip
        finally:
            interrupts.work_ended()
            bar.close()
        d = report.to_dict()
        typer.echo(to_json(d) if json else render_odds(d))
        if plot is not None:
            from ..plots import plot_odds

            plot_odds(d, plot)
        if report.interrupted:
            message = "INTERRUPTED: the answer above is from the work finished so far"
            typer.echo(interrupts.named(message), err=True)  # (Ctrl-C, SIGTERM or SIGHUP)
            raise typer.Exit(interrupts.exit_code())
