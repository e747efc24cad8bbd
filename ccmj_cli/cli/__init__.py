"""The ccmj command line: one Typer app, one module per command group."""

from typing import Annotated

import typer

from .. import __version__
from . import analyze, rules_cmd, simulate_cmd

app = typer.Typer(
    name="ccmj",
    help="Rules analyzer for Changchun mahjong (长春麻将): waits, legal wins, scoring, bao, odds.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _version(value: bool):
    if value:
        typer.echo(f"ccmj {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version.")
    ] = False,
):
    """Rules analyzer for Changchun mahjong (长春麻将)."""


analyze.register(app)
rules_cmd.register(app)
simulate_cmd.register(app)


def main():
    app()
