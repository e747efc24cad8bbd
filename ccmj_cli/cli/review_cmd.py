"""ccmj review: every decision of a seat in a recorded game, graded by the exact analysis."""

from typing import Annotated

import typer

from .. import interrupts
from .common import JsonOpt, PlotOpt, RulesOpt, handles_errors, variant


def register(app: typer.Typer):
    @app.command()
    @handles_errors
    def review(
        record: Annotated[
            str,
            typer.Argument(
                help="A game record: a ccmj simulate --log file, or a game written down as "
                "ccmj referee reads it."
            ),
        ],
        seat: Annotated[
            str | None, typer.Option("--seat", help="The seat to review: E S W N (default: all).")
        ] = None,
        hand: Annotated[
            int | None, typer.Option("--hand", help="Only this hand of the record (its number).")
        ] = None,
        objective: Annotated[
            str,
            typer.Option("--objective", help="What the best choice maximises: win or payment."),
        ] = "win",
        search: Annotated[
            str,
            typer.Option(
                "--search",
                help="full: every position as ccmj odds --exact values it; quick: as ccmj odds "
                "does unasked (a smaller search, much faster on far hands; a 13-tile position "
                "without its settling step).",
            ),
        ] = "full",
        threads: Annotated[
            int | None,
            typer.Option(
                "--threads",
                "-j",
                help="Hands reviewed side by side (default: one per core, at most 4); the review "
                "does not depend on it.",
            ),
        ] = None,
        rules: RulesOpt = None,
        json: JsonOpt = False,
        plot: PlotOpt = None,
    ):
        """Grade every decision (discard, claim, kong, 报听) by the exact analysis: the value of
        each legal choice, the best one, the loss of the choice made; a summary per seat."""
        if plot is not None:
            from ..plots import plot_format

            plot_format(plot)  # a bad name or no matplotlib: fail before the work
        from .. import review as RV  # kernels load only when the command runs
        from ..output import render_review

        done = [0]

        def graded(n: int) -> None:  # (the review is printed whole, once every hand is graded)
            done[0] += n
            interrupts.say_when_interrupted(f"INTERRUPTED after {done[0]} hand(s) graded: "
                                            "nothing printed")  # fmt: skip

        graded(0)  # (from here on, Ctrl-C says how far the review got)
        r = RV.review(record, seat=seat, hand=hand, objective=objective, search=search,
                      rules=variant(rules) if rules else None, threads=threads,
                      progress=graded)  # fmt: skip
        if json:
            for line in r.json_lines():
                typer.echo(line)
        else:
            typer.echo(render_review(r.to_dict()))
        if plot is not None:
            from ..plots import plot_review

            plot_review(r.to_dict(), plot)
