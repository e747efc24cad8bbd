"""Properties: ccmj's ``score``, ``batch`` (CSV and JSON, through the API and the CLI) and ``bao``
against the slow scoring reference (naive_scoring.py), which shares no scoring code with ccmj.

The wins come from ``strategies.win_cases``: hands built from sets + a pair to be legal most of
the time (a test below checks the share), every way of winning, every seat, declared or not,
other seats' kongs, random fan/kong values, caps and options — and every example is settled
under EVERY 点炮 mode (``strategies.PAYMENT_MODES``), so no run can miss one.
``CCMJ_EXAMPLES_SCALE=10 python -m pytest tests/test_scoring_properties.py`` searches longer.
"""

import csv
import io
import json

from hypothesis import event, given, settings
from hypothesis import strategies as st
from scoring_support import (
    assert_bao,
    assert_batch_row,
    assert_score,
    reference_bao,
    reference_score,
)
from strategies import (
    HOWS,
    PAYMENT_MODES,
    bao_cases,
    examples,
    scoring_variants,
    variant_path,
    variant_with,
    win_cases,
)
from typer.testing import CliRunner

from ccmj_cli import bao as B
from ccmj_cli import batch as BT
from ccmj_cli import scoring as S
from ccmj_cli.cli import app
from ccmj_cli.rules import load_variant

runner = CliRunner()


def mode_variants(vopts: dict):
    """(label, rules file, Variant) for every 点炮 mode over the options ``vopts``."""
    for mode, only_undeclared in PAYMENT_MODES:
        path = variant_path(**vopts, dianpao=mode, cover_only_undeclared=only_undeclared)
        yield f"{mode}/{only_undeclared}", path, load_variant(path)


# --- the strategy makes legal wins most of the time -----------------------------------------


def test_the_generated_wins_are_mostly_legal():
    # a property that only ever saw illegal wins would compare zeros with zeros: under the
    # default rules at least 60% of the generated wins must be legal, for every way of winning
    # (and some must be illegal, so the reasons are compared too)
    v = load_variant()
    seen = []

    @settings(max_examples=300, derandomize=True, database=None)
    @given(case=win_cases())
    def collect(case):
        seen.append((case["how"], reference_score(rules=v, **case).legal))

    collect()
    share = sum(legal for _, legal in seen) / len(seen)
    assert share >= 0.6, share
    assert sum(not legal for _, legal in seen) >= 0.05 * len(seen)
    for how in HOWS:
        mine = [legal for h, legal in seen if h == how]
        assert sum(mine) >= 0.5 * len(mine), (how, sum(mine), len(mine))


# --- score ---------------------------------------------------------------------------------


@settings(max_examples=examples(80))
@given(case=win_cases(), vopts=scoring_variants())
def test_score_matches_the_reference_in_every_payment_mode(case, vopts):
    for label, _, v in mode_variants(vopts):
        e = reference_score(rules=v, **case)
        r = S.score(rules=v, **case)
        assert_score(r, e, base=case["base"], fan_cap=v.cap_fan, context=label)
    event(f"{case['how']}: {'legal' if e.legal else 'not legal'}")


@settings(max_examples=examples(60))
@given(case=win_cases(hows=("discard",)), vopts=scoring_variants())
def test_discard_wins_match_the_reference_in_every_payment_mode(case, vopts):
    # the 点炮 modes only matter on a discard win: this property sees nothing else, so every
    # run settles dozens of discard wins under each mode (declared and not, dealer anywhere)
    for label, _, v in mode_variants(vopts):
        e = reference_score(rules=v, **case)
        assert_score(S.score(rules=v, **case), e, base=case["base"], fan_cap=v.cap_fan,
                     context=label)  # fmt: skip
    who = "dealer wins" if case["seat"] == "E" else "dealer discards"
    who = who if "E" in (case["seat"], case["discarder"]) else "dealer neither"
    event(f"{who}, {'legal' if e.legal else 'not legal'}")


# --- batch: CSV and JSON, API and CLI --------------------------------------------------------

COLUMNS = ("hand", "win", "how", "seat", "from", "bao", "base", "kongs", "declared")
DECLARED = {True: ("1", "true", "yes", "Y"), False: ("0", "false", "no", "")}


@st.composite
def batch_rows(draw):
    """(CSV cells, score keyword arguments) for 1-6 wins."""
    out = []
    for case in draw(st.lists(win_cases(), min_size=1, max_size=6)):
        cells = [
            case["hand"],
            case["win"] or "",
            case["how"],
            case["seat"],
            case["discarder"] or "",
            case["bao"] or "",
            str(case["base"]),
            case["kongs"] or "",
            draw(st.sampled_from(DECLARED[case["declared"]])),
        ]
        out.append((cells, case))
    return out


def csv_text(rows) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(COLUMNS)
    for cells, _ in rows:
        w.writerow(cells)
    return buf.getvalue()


def run_batch(text, path, v, as_json, via) -> str:
    if via == "api":
        out = io.StringIO()
        assert BT.run(io.StringIO(text), out, as_json=as_json, rules=v).failed == 0
        return out.getvalue()
    res = runner.invoke(
        app, ["batch", "-", "--rules", path, *(["--json"] if as_json else [])], input=text
    )
    assert res.exit_code == 0, res.output
    return res.stdout


@settings(max_examples=examples(12))
@given(rows=batch_rows(), vopts=scoring_variants(), via=st.sampled_from(["api", "cli"]))
def test_batch_matches_the_reference_in_every_payment_mode(rows, vopts, via):
    text = csv_text(rows)
    for label, path, v in mode_variants(vopts):
        expected = [reference_score(rules=v, **case) for _, case in rows]
        out = run_batch(text, path, v, False, via)
        got = list(csv.DictReader(io.StringIO(out)))
        assert len(got) == len(rows)
        for (cells, case), row, e in zip(rows, got, expected, strict=True):
            assert [row[c] for c in COLUMNS] == cells
            assert_batch_row(row, e, base=case["base"], context=f"{via} csv {label}")
        out = run_batch(text, path, v, True, via)
        lines = [json.loads(x) for x in out.splitlines()]
        assert len(lines) == len(rows)
        for (cells, case), d, e in zip(rows, lines, expected, strict=True):
            assert d.pop("input") == dict(zip(COLUMNS, cells, strict=True))
            assert d.pop("error") is None
            assert_score(d, e, base=case["base"], fan_cap=v.cap_fan, context=f"{via} json {label}")
    event(f"{via}: {sum(e.legal for e in expected)} of {len(rows)} legal")


# --- bao -------------------------------------------------------------------------------------


@settings(max_examples=examples(60))
@given(case=bao_cases(), vopts=scoring_variants())
def test_bao_matches_the_reference(case, vopts):
    v = variant_with(**vopts)
    e = reference_bao(rules=v, **case)
    assert_bao(B.bao(rules=v, **case), e, fan_cap=v.cap_fan)
    event(e.outcome)
