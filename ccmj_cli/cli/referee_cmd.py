"""ccmj referee: a recorded game checked event by event, and its settlement recomputed."""

import sys
from typing import Annotated

import typer

from ..errors import EXIT_FALSE
from .common import JsonOpt, handles_errors


def register(app: typer.Typer):
    @app.command()
    @handles_errors
    def referee(
        record: Annotated[
            str,
            typer.Argument(
                help="A ccmj simulate --log file, a text record (one event a line) or its JSON form."
            ),
        ],
        at: Annotated[
            int | None,
            typer.Option(
                "--at", metavar="N", help="Print the position after event N (from 0) of the "
                "first hand (or of --hand), as `ccmj actions` reads it, instead of checking."
            ),
        ] = None,
        hand: Annotated[
            int | None, typer.Option("--hand", help="With --at: the record's hand number.")
        ] = None,
        json: JsonOpt = False,
    ):
        """Check every hand of RECORD under its rules: OK, or its first illegal event with the
        rule it breaks; the settlement recomputed and compared with the record's result.
        Exit 0 when every hand is legal, 1 when any is not."""
        from .. import referee as R  # kernels load only when the command runs
        from ..errors import HandError, UsageError
        from ..interrupts import say_when_interrupted
        from ..output import to_json

        if hand is not None and at is None:
            raise UsageError("--hand names the hand of --at: give --at too")
        rec = R.load_record(record)
        if at is not None:
            idx = 0
            if hand is not None:
                nums = [h.number for h in rec.all_hands()]
                if hand not in nums:
                    raise UsageError(f"bad --hand {hand}: the record holds no such hand")
                idx = nums.index(hand)
            typer.echo(to_json(R.state_at(rec, idx, at)))
            return
        out = sys.stdout
        bad = 0
        total = 0
        lines = []
        for v in rec.verdicts():
            total += 1
            bad += not v["ok"]
            if json:
                lines.append(to_json(v))
            elif v["ok"]:
                s = v["settlement"]
                who = f"{s['winner']} wins ({s['how']}, {s['fan']} fan)" if s["winner"] else "荒庄"
                pay = " ".join(f"{k} {x:+d}" for k, x in s["payout"].items())
                lines.append(f"hand {v['hand']}: OK  {who}  payout {pay}")
            else:
                for p in v["problems"]:
                    lines.append(f"hand {v['hand']}: event {p['event']}: {p['rule']}: {p['message']}")
            if len(lines) >= 4096:
                out.write("\n".join(lines) + "\n")
                out.flush()
                lines = []
                say_when_interrupted(f"INTERRUPTED: the verdicts printed are final; {total} "
                                     "hand(s) checked, the rest not")  # fmt: skip
        if lines:
            out.write("\n".join(lines) + "\n")
        if total == 0:
            raise HandError(f"record '{record}' holds no hand")
        if not json:
            typer.echo(f"{total - bad} of {total} hands legal", err=True)
        if bad:
            raise typer.Exit(EXIT_FALSE)
