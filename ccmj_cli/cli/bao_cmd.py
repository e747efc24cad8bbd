"""ccmj bao: what the bao does for a tenpai hand (对宝, 摸宝, 换宝)."""

from typing import Annotated

import typer

from ..output import render_bao
from .common import JsonOpt, RulesOpt, VisibleOpt, choose_kernels, emit, handles_errors, variant


def register(app: typer.Typer):
    @app.command()
    @handles_errors
    def bao(
        hand: Annotated[str, typer.Argument(help="A 13-tile tenpai hand (melds included).")],
        bao_tile: Annotated[str, typer.Option("--bao", "-b", help="The bao tile, e.g. 5s.")],
        visible: VisibleOpt = None,
        seat: Annotated[
            str, typer.Option("--seat", help="The player's seat E S W N (the dealer sits E).")
        ] = "S",
        base: Annotated[int, typer.Option("--base", min=1, help="Money per base unit.")] = 1,
        rules: RulesOpt = None,
        json: JsonOpt = False,
    ):
        """May HAND look at the bao; is it 对宝; what a 摸宝 win scores; live copies; 换宝."""
        choose_kernels(hand, batch=False)
        from .. import bao as B  # kernels load only when the command runs

        r = B.bao(hand, bao_tile, visible, seat, base, variant(rules))
        emit(r.to_dict(), json, render_bao)
