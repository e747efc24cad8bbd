"""ccmj rules: print the effective variant."""

from typing import Annotated

import typer

from ..output import render_rules
from ..rules import load_variant, preset_names
from ..errors import UsageError
from .common import JsonOpt, RulesOpt, emit, handles_errors, variant


def register(app: typer.Typer):
    @app.command()
    @handles_errors
    def rules(
        rules: RulesOpt = None,
        preset: Annotated[
            str | None, typer.Option("--preset", help="Show a packaged preset.")
        ] = None,
        list_presets: Annotated[
            bool, typer.Option("--list", help="List the packaged presets.")
        ] = False,
        json: JsonOpt = False,
    ):
        """Print the effective variant (every option) after merging --rules over the defaults."""
        if list_presets:
            names = preset_names()
            typer.echo(", ".join(names) if not json else __import__("json").dumps(names))
            return
        if preset is not None and rules is not None:
            raise UsageError("give --preset or --rules, not both")
        v = variant(rules) if preset is None else load_variant(preset)
        emit(
            {"name": v.name, "options": v.to_dict()} if json else v.to_dict(),
            json,
            lambda d: render_rules(d, v.name, load_variant().to_dict()),
        )
