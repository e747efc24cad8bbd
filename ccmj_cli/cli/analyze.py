"""ccmj waits / check / shanten: hand analysis."""

from typing import Annotated

import typer

from ..errors import EXIT_FALSE, HandError
from ..output import render_check, render_shanten, render_waits
from .common import (
    BatchJsonOpt,
    RulesOpt,
    VisibleOpt,
    choose_kernels,
    each_line,
    emit,
    handles_errors,
    run_batch,
    variant,
)

CheckOpt = Annotated[bool, typer.Option("--check", help="Exit 1 when the win is not legal.")]
HandArg = Annotated[
    str,
    typer.Argument(
        help="The hand, e.g. 123m456p789s1123s, or with melds 1123s789s[123m](5555p) ([ ] exposed,"
        " ( ) concealed kong); '-' reads one per line from stdin."
    ),
]


def _waits_summary(d: dict) -> str:
    legal = " ".join(f"{w['tile']}×{w['live']}" for w in d["waits"] if w["legal"]) or "-"
    return f"tenpai={'yes' if d['tenpai'] else 'no'}\tlegal waits: {legal}"


def _check_summary(d: dict) -> str:
    why = ",".join(d["reasons"]) or "-"
    yes = {True: "yes", False: "no"}
    return (
        f"legal={yes[d['legal']]}\twhy not: {why}\tjiahu={yes[d['jiahu']]}\tpiao={yes[d['piao']]}"
    )


def _shanten_summary(d: dict) -> str:
    return f"shanten={d['shanten']}"


def register(app: typer.Typer):
    @app.command()
    @handles_errors
    def waits(
        hand: HandArg,
        visible: VisibleOpt = None,
        rules: RulesOpt = None,
        json: BatchJsonOpt = False,
        check: Annotated[
            bool, typer.Option("--check", help="Exit 1 when the hand is not tenpai.")
        ] = False,
    ):
        """Waits of a 13-tile hand: structural, legal under the variant, live copies, 夹胡/飘胡."""
        v = variant(rules)  # a bad variant is reported before stdin is read
        choose_kernels(hand)
        from .. import hand as H  # the kernels load only for commands that use them

        seen = H.visible_counts(visible)  # parsed once, also for a whole batch
        if hand == "-":
            return run_batch(
                lambda lines: H.waits_dicts(lines, seen, v), json, _waits_summary,
                (lambda d: not d["tenpai"]) if check else None,
            )  # fmt: skip
        d = H.waits(hand, seen, v).to_dict()
        emit(d, json, render_waits)
        if check and not d["tenpai"]:
            raise typer.Exit(EXIT_FALSE)

    @app.command()
    @handles_errors
    def check(
        hand: HandArg,
        win: Annotated[
            str | None,
            typer.Argument(help="The winning tile (in batch mode: the last word of each line)."),
        ] = None,
        rules: RulesOpt = None,
        json: BatchJsonOpt = False,
        check: CheckOpt = False,
    ):
        """Is HAND + WIN a legal win, and exactly why not; 门清, 夹胡, 飘胡 and the reading used."""
        v = variant(rules)
        choose_kernels(hand)
        from .. import hand as H

        def answer(text: str, win_tile: str | None = win) -> dict:
            if win_tile is None:
                text, _, win_tile = text.rpartition(" ")
                if not text.strip():
                    raise HandError(f"bad line '{win_tile}': expected 'HAND WIN'")
            return H.check(text, win_tile, v).to_dict()

        if hand == "-":
            return run_batch(
                each_line(answer),
                json,
                _check_summary,
                (lambda d: not d["legal"]) if check else None,
            )
        if win is None:
            raise HandError("check needs the winning tile: ccmj check HAND WIN")
        d = answer(hand)
        emit(d, json, render_check)
        if check and not d["legal"]:
            raise typer.Exit(EXIT_FALSE)

    @app.command()
    @handles_errors
    def shanten(
        hand: HandArg,
        visible: VisibleOpt = None,
        rules: RulesOpt = None,
        json: BatchJsonOpt = False,
    ):
        """Standard-form shanten and useful tiles; for 14 tiles, every discard best first (牌理)."""
        v = variant(rules)
        choose_kernels(hand)
        from .. import hand as H

        seen = H.visible_counts(visible)
        answer = lambda text: H.shanten(text, seen, v).to_dict()  # noqa: E731
        if hand == "-":
            return run_batch(each_line(answer), json, _shanten_summary)
        emit(answer(hand), json, render_shanten)
