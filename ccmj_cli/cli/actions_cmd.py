"""ccmj actions: every legal action at a table position (a position JSON file)."""

from typing import Annotated

import typer

from .common import JsonOpt, choose_kernels, emit, handles_errors


def register(app: typer.Typer):
    @app.command()
    @handles_errors
    def actions(
        position: Annotated[
            str, typer.Argument(help="A position JSON file (docs/position.md), or - for stdin.")
        ],
        seat: Annotated[
            str | None, typer.Option("--seat", help="Only this seat's actions (E S W N).")
        ] = None,
        explain: Annotated[
            bool,
            typer.Option(
                "--explain", help="Also list every action the rules forbid now, with its rule."
            ),
        ] = False,
        json: JsonOpt = False,
    ):
        """Every legal action of every seat that may act now: win (with its score), claims and
        their priority, kongs, 报听, the bao, discards (with the waits each leaves)."""
        # one position: the table engine's source runs interpreted, sparing Numba's start-up
        # (``ccmj`` itself answers this command without Typer: ``_fastpath``)
        choose_kernels(position, batch=False)
        from ..actions import legal_actions, read_position
        from ..output import render_actions

        text = read_position(position)
        emit(legal_actions(text, seat, explain), json, render_actions)
