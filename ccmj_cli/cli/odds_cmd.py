"""ccmj odds: Monte Carlo (and exact) odds of winning from a hand."""

import time
from typing import Annotated

import typer

from ..output import render_odds, to_json
from .common import JsonOpt, PlotOpt, RulesOpt, VisibleOpt, handles_errors, variant

EXIT_INTERRUPTED = 130  # Ctrl-C: the estimate so far is printed, then this code


class _Bar:
    """A rich progress bar on stderr, shown only once a run has lasted a second."""

    def __init__(self):
        self.start = time.perf_counter()
        self.bar = None
        self.task = None

    def __call__(self, done: int, total: int):
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
    int, typer.Option("--trials", "-t", help="Monte Carlo trials (0 with --exact: exact only).")
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
    typer.Option("--exact", help="Also the exact answer (declared tenpai hand, self-draws)."),
]


def register(app: typer.Typer):
    @app.command()
    @handles_errors
    def odds(
        hand: HandArg,
        visible: VisibleOpt = None,
        draws: DrawsOpt = None,
        wall: WallOpt = None,
        trials: TrialsOpt = 20_000,
        seed: SeedOpt = None,
        declare: DeclareOpt = False,
        bao: BaoOpt = "none",
        opponents: OpponentsOpt = "none",
        threads: ThreadsOpt = 1,
        dealer: DealerOpt = False,
        exact: ExactOpt = False,
        rules: RulesOpt = None,
        json: JsonOpt = False,
        plot: PlotOpt = None,
    ):
        """P(win) with a 95% CI, by 自摸/点炮/摸宝/对宝, 夹胡/飘胡, by round, expected payment."""
        v = variant(rules)
        if plot:
            from ..plots import plot_format

            plot_format(plot)  # a bad name or no matplotlib: fail before the work
        bar = _Bar()
        try:
            from .. import odds as O  # kernels load only when the command runs

            report = O.odds(
                hand, visible=visible, draws=draws, wall=wall, trials=trials, seed=seed,
                declare=declare, bao=bao, opponents=opponents, threads=threads, dealer=dealer,
                exact=exact, rules=v, progress=bar,
            )  # fmt: skip
        finally:
            bar.close()
        d = report.to_dict()
        typer.echo(to_json(d) if json else render_odds(d))
        if plot:
            from ..plots import plot_odds

            plot_odds(d, plot)
        if report.interrupted:
            typer.echo(
                "interrupted: the estimate above is from the trials finished so far", err=True
            )
            raise typer.Exit(EXIT_INTERRUPTED)
