"""ccmj simulate / replay: whole-table simulation with bots, and replay of logged hands."""

import os
import sys
import time
from typing import Annotated

import typer

from .. import interrupts
from .._kernels.table.layout import POLICY_HELP  # constants only: the engine loads on use
from ..errors import UsageError
from ..output import render_compare, render_replay, render_simulate
from .common import JsonOpt, PlotOpt, RulesOpt, emit, handles_errors, variant
from .files import output_file


def _nothing_finished():
    """Ctrl-C (or SIGTERM/SIGHUP) before any hand finished: one line, exit 130 (143/129), no
    empty statistics."""
    typer.echo(
        interrupts.named("INTERRUPTED before the first hands finished: nothing to report"),
        err=True,
    )
    raise typer.Exit(interrupts.exit_code())


class _Bar:
    """A rich progress bar on stderr, only when stderr is a terminal, shown once a run has
    lasted a second (nothing at all goes to a redirected stderr)."""

    def __init__(self, enabled: bool):
        self.enabled = enabled and sys.stderr.isatty()
        self.start = time.perf_counter()
        self.bar = None
        self.task = None

    def __call__(self, done: int, total: int):
        if not self.enabled:
            return
        if self.bar is None:
            if time.perf_counter() - self.start < 1.0 or done >= total:
                return
            from rich.console import Console
            from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

            self.bar = Progress(
                TextColumn("simulate"), BarColumn(),
                TextColumn("{task.completed:,}/{task.total:,} hands"), TimeRemainingColumn(),
                console=Console(stderr=True), transient=True,
            )  # fmt: skip
            self.bar.start()
            self.task = self.bar.add_task("simulate", total=total)
        self.bar.update(self.task, completed=done, total=total)

    def close(self):
        if self.bar is not None:
            self.bar.stop()


def _note(text: str):
    typer.echo(text, err=True)


def register(app: typer.Typer):
    @app.command()
    @handles_errors
    def simulate(
        hands: Annotated[int, typer.Option("--hands", "-n", help="Hands to play in all.")] = 10_000,
        sessions: Annotated[
            int | None,
            typer.Option(
                help="Sessions (runs of hands with the dealer rotating); default one per 16 hands."
            ),
        ] = None,
        seed: Annotated[
            int, typer.Option(help="Random seed: the same seed gives the same result.")
        ] = 0,
        rules: RulesOpt = None,
        preset: Annotated[
            str | None,
            typer.Option("--preset", help="A packaged preset (ccmj rules --list), e.g. mil2024."),
        ] = None,
        policy: Annotated[
            str,
            typer.Option(
                help=f"Bot policy for all seats, or four comma-separated (E,S,W,N): {POLICY_HELP}."
            ),
        ] = "baseline",
        threads: Annotated[
            int | None, typer.Option(help="Threads on this machine (default: all cores).")
        ] = None,
        scheduler: Annotated[
            str | None,
            typer.Option(
                help="Run on Dask: 'local' (a LocalCluster) or tcp://HOST:PORT "
                "(needs ccmj_cli\\[dask])."
            ),
        ] = None,
        workers: Annotated[int, typer.Option(help="Worker processes for --scheduler local.")] = 2,
        log: Annotated[
            str | None,
            typer.Option(help="Write every hand as a JSON line to FILE (slower; for replay)."),
        ] = None,
        csv: Annotated[
            str | None,
            typer.Option(
                help="Write one CSV row per hand to FILE (dealer, winner, method, fan items, "
                "payments, kong money)."
            ),
        ] = None,
        compare: Annotated[
            tuple[str, str] | None,
            typer.Option(
                help="Compare two arms on the same walls: A B, each a policy line-up (as "
                "--policy) or rules:FILE (a variant file, with --policy's bots); reports "
                "each statistic's paired difference A − B with its 95% CI.",
            ),
        ] = None,
        progress: Annotated[
            bool, typer.Option(help="Progress bar on stderr (when it is a terminal).")
        ] = True,
        json: JsonOpt = False,
        plot: PlotOpt = None,
    ):
        """Simulate complete hands with four rule-following bots; rates with 95% CIs."""
        if preset is not None:
            from ..rules import preset_names

            if rules is not None:
                raise UsageError("give --preset or --rules, not both")
            if preset not in preset_names():
                raise UsageError(
                    f"unknown preset '{preset}' (presets: {', '.join(preset_names())})"
                )
        v = variant(preset or rules)
        cap = os.environ.get("NUMBA_NUM_THREADS", "").strip()
        if threads is not None and cap.isdigit() and 0 < int(cap) < threads:
            _note(f"note: --threads {threads}: NUMBA_NUM_THREADS={cap} allows {cap}; using {cap}")
        if plot is not None:
            from ..plots import plot_format

            plot_format(plot)  # a bad name or no matplotlib: fail before the work
        for opt, name in (("--log", log), ("--csv", csv)):
            if name is not None and name.strip() == "-":
                raise UsageError(f"{opt} writes a file: give it a file name ('-' is not "
                                 "standard output here)")  # fmt: skip
        bar = _Bar(progress)
        if compare is not None:
            if log is not None or csv is not None or scheduler is not None:
                raise UsageError("--compare runs on this machine: no --log, --csv or --scheduler")
            from .. import simulate as S

            try:
                d = S.compare(
                    compare[0], compare[1], hands=hands, sessions=sessions, seed=seed, rules=v,
                    policy=policy, threads=threads, progress=bar, note=_note,
                    ready=interrupts.work_started,
                )  # fmt: skip
            finally:
                interrupts.work_ended()
                bar.close()
            if d["interrupted"] and not d["hands"]:
                _nothing_finished()
            emit(d, json, render_compare)
            if d["interrupted"]:
                raise typer.Exit(interrupts.exit_code())
            return
        try:
            from .. import simulate as S

            if csv is not None:
                with output_file(csv, option="--csv") as f:
                    r = S.simulate(
                        hands=hands, sessions=sessions, seed=seed, rules=v, policy=policy,
                        threads=threads, scheduler=scheduler, log=log, progress=bar,
                        workers=workers, note=_note, csv=f, ready=interrupts.work_started,
                    )  # fmt: skip
                    if r.interrupted and not r.hands:
                        _nothing_finished()  # (inside: the old CSV file stays as it was)
            else:
                r = S.simulate(
                    hands=hands, sessions=sessions, seed=seed, rules=v, policy=policy,
                    threads=threads, scheduler=scheduler, log=log, progress=bar, workers=workers,
                    note=_note, ready=interrupts.work_started,
                )  # fmt: skip
        except KeyboardInterrupt:  # (in-process callers: Ctrl-C before the first hand)
            _nothing_finished()
        finally:
            interrupts.work_ended()
            bar.close()
        if r.interrupted and not r.hands:
            _nothing_finished()
        if r.hands:
            d = r.to_dict()
            emit(d, json, render_simulate)
            if plot is not None:
                from ..plots import plot_simulate

                plot_simulate(d, plot)
        if r.interrupted:
            typer.echo(
                interrupts.named(
                    f"interrupted: the statistics above are of the {r.hands:,} hands finished"
                ),
                err=True,
            )
            raise typer.Exit(interrupts.exit_code())

    @app.command()
    @handles_errors
    def replay(
        file: Annotated[str, typer.Argument(help="A log written by ccmj simulate --log.")],
        hand: Annotated[int, typer.Option("--hand", "-k", help="Which hand (1 = the first).")] = 1,
        verify: Annotated[
            bool,
            typer.Option(help="Play the hand again through the engine and compare with the log."),
        ] = False,
        json: JsonOpt = False,
    ):
        """Print one logged hand turn by turn, with its settlement."""
        from .. import replay as R

        d = R.replay_hand(file, hand, verify)
        emit(d, json, render_replay)
        if verify and not d["verified"]:
            raise typer.Exit(1)
