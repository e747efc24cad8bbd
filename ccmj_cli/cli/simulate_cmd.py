"""ccmj simulate / replay: whole-table simulation with bots, and replay of logged hands."""

from typing import Annotated

import typer

from .._kernels.table_layout import POLICY_HELP  # constants only: the engine loads on use
from ..output import render_replay, render_simulate
from .common import JsonOpt, PlotOpt, RulesOpt, emit, handles_errors, variant


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
                "(needs ccmj_cli[dask])."
            ),
        ] = None,
        workers: Annotated[int, typer.Option(help="Worker processes for --scheduler local.")] = 2,
        log: Annotated[
            str | None,
            typer.Option(help="Write every hand as a JSON line to FILE (slower; for replay)."),
        ] = None,
        progress: Annotated[bool, typer.Option(help="Progress bar on stderr.")] = True,
        json: JsonOpt = False,
        plot: PlotOpt = None,
    ):
        """Simulate complete hands with four rule-following bots; rates with 95% CIs."""
        v = variant(rules)
        if plot:
            from ..plots import plot_format

            plot_format(plot)  # a bad name or no matplotlib: fail before the work
        from .. import simulate as S

        r = S.simulate(
            hands=hands,
            sessions=sessions,
            seed=seed,
            rules=v,
            policy=policy,
            threads=threads,
            scheduler=scheduler,
            log=log,
            progress=progress,
            workers=workers,
        )
        d = r.to_dict()
        emit(d, json, render_simulate)
        if plot:
            from ..plots import plot_simulate

            plot_simulate(d, plot)

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
