"""ccmj score: settle one win (fan items, payments per seat, kong money)."""

from typing import Annotated

import typer

from ..errors import EXIT_FALSE
from ..output import render_score
from .common import JsonOpt, RulesOpt, choose_kernels, emit, handles_errors, variant

KONGS_HELP = (
    "Kongs held by the other seats (the winner's are in HAND): SEAT:MELDS items "
    "separated by commas, "
    "e.g. 'E:(5555m),W:[1234z][567z]'. Open [5555m], concealed (5555m), "
    "special kongs with 补 tiles."
)


def register(app: typer.Typer):
    @app.command()
    @handles_errors
    def score(
        hand: Annotated[
            str,
            typer.Argument(
                help="The winner's hand before the win (or with the winning tile), melds included."
            ),
        ],
        win: Annotated[
            str | None,
            typer.Option("--win", "-w", help="The winning tile (摸宝/对宝: optional, the bao)."),
        ] = None,
        by: Annotated[
            str, typer.Option("--by", help="How the hand was won: self | discard | mobao | duibao.")
        ] = "self",
        seat: Annotated[
            str, typer.Option("--seat", help="The winner's seat E S W N (the dealer sits E).")
        ] = "S",
        from_: Annotated[
            str | None, typer.Option("--from", help="The discarder's seat (discard wins).")
        ] = None,
        declared: Annotated[
            bool, typer.Option("--declared", help="The discarder had declared tenpai (报听).")
        ] = False,
        looked: Annotated[
            bool,
            typer.Option(
                "--looked",
                help="The discarder had declared and looked at the current bao (implies "
                "--declared).",
            ),
        ] = False,
        bao: Annotated[
            str | None, typer.Option("--bao", help="The bao tile (摸宝 / 对宝).")
        ] = None,
        kongs: Annotated[str | None, typer.Option("--kongs", help=KONGS_HELP)] = None,
        base: Annotated[int, typer.Option("--base", min=1, help="Money per base unit.")] = 1,
        check: Annotated[
            bool, typer.Option("--check", help="Exit 1 when the win is not legal.")
        ] = False,
        rules: RulesOpt = None,
        json: JsonOpt = False,
    ):
        """Score a win: legal verdict, fan items, fan per loser, payment per seat, kong money.

        Payment from each paying loser = base x 2^(fan-1), or the variant's stake ladder; kongs
        settle apart.
        """
        choose_kernels(hand, batch=False)
        from .. import scoring as S  # kernels load only when the command runs

        by = by.strip().lower()  # (as a batch's how column: DISCARD, Self)
        r = S.score(
            hand, win, by, seat, from_, bao, base, kongs, declared, variant(rules), looked=looked
        )
        emit(r.to_dict(), json, render_score)
        if check and not r.legal:
            raise typer.Exit(EXIT_FALSE)
