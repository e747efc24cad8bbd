"""Properties: ccmj's ``score``, ``batch`` (CSV and JSON, through the API and the CLI) and ``bao``
against the slow scoring reference (naive_scoring.py), which shares no scoring code with ccmj.

The variants come from ``strategies.scoring_variants``: random fan/kong values, caps, stake
ladders, every scoring, bao and meld option, and the mil2024 preset (a test below checks that
every value of every option is drawn). The wins come from ``strategies.win_cases`` under that
variant: hands built from sets + a pair (or seven pairs) to be legal most of the time (a test
below checks the share), special kongs as the variant's meld options allow, every way of
winning, every seat, the discarder declared / looked or not, other seats' kongs — and every
example is settled under EVERY 点炮 mode and 包庄 test (``strategies.PAYMENT_MODES``), so no run
can miss one.
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
    bao_examples,
    examples,
    scoring_examples,
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
    """(label, rules file, Variant) for every 点炮 mode and 包庄 test over the options ``vopts``."""
    for mode, only_undeclared, needs_look in PAYMENT_MODES:
        path = variant_path(**{**vopts, "dianpao": mode, "cover_only_undeclared": only_undeclared,
                               "cover_needs_look": needs_look})  # fmt: skip
        yield f"{mode}/{only_undeclared}/{needs_look}", path, load_variant(path)


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


# every scoring, bao and meld option the variants must draw, with every value it can take
DRAWN_OPTIONS = {
    "dianpao": ("all_pay", "discarder_only", "discarder_covers_all"),  # (from PAYMENT_MODES)
    "cover_only_undeclared": (False, True),
    "cover_needs_look": (False, True),
    "dealer_dianpao_stacks": (False, True),
    "bao_change": ("always", "optional"),
    "haohua": ("any_quad", "wait_completes_quad"),
    "duanyaojiu_may_declare": (False, True),
    "bao_forbidden_without_yaojiu": (False, True),
    "shoubayi_ankong_concealed": (False, True),
    "qidui": (False, True),
    "chongbao_double": (False, True),
    "sanfeng_dan": (False, True),
    "xiaoji_feidan": (False, True),
    "xiaoji_wildcard": ("one", "any"),
    "xi_bu_any_honor": (False, True),
    "one_special_kong_per_kind": (False, True),
}


def test_the_strategies_draw_every_option_and_input():
    # the properties below can only compare what the strategies draw: every value of every
    # scoring / bao / meld option, a stake ladder, the mil2024 preset, the discarder declared
    # and looked, and the wins the new options are about (七对 with 豪华 by either rule, a 4-wind
    # 旋风杠 under 三风蛋, 1s in a special kong, a wind on a 喜杠, a 断幺九 hand at the bao)
    seen = {k: set() for k in DRAWN_OPTIONS}
    wins = set()

    @settings(max_examples=300, derandomize=True, database=None)
    @given(example=scoring_examples())
    def collect(example):
        vopts, case = example
        for _, _, v in mode_variants(vopts):
            for k in seen:
                seen[k].add(v.options[k])
        v = variant_with(**vopts)
        wins.add("mil2024" if vopts.get("extends") == "mil2024" else "own")
        wins.add("stakes" if v.stakes else "doubling")
        wins.update(k for k in ("declared", "looked") if case[k])
        e = reference_score(rules=v, **case)
        for items in e.items:
            wins.update(f"{name}/{v.haohua}" for name, *_ in items if name == "haohua")
        for _, meld, _ in e.kong_lines:
            if meld.name == "xuanfeng" and len(set(meld.tiles)) == 4 and v.sanfeng_dan:
                wins.add("4-wind 三风蛋")
            if meld.name in ("xuanfeng", "xi", "jiudan") and 18 in meld.tiles:
                wins.add("1s stands in")
            if meld.name == "xi" and set(meld.tiles) & {27, 28, 29, 30}:
                wins.add("wind 补 on 喜杠")
        if e.reasons == frozenset({("duanyaojiu",)}):
            wins.add("断幺九 at the bao")

    collect()
    for k, values in DRAWN_OPTIONS.items():
        assert seen[k] == set(values), (k, seen[k])
    want = {"mil2024", "own", "stakes", "doubling", "declared", "looked",
            "haohua/any_quad", "haohua/wait_completes_quad", "4-wind 三风蛋", "1s stands in",
            "wind 补 on 喜杠", "断幺九 at the bao"}  # fmt: skip
    assert want <= wins, want - wins


# --- score ---------------------------------------------------------------------------------


@settings(max_examples=examples(80))
@given(example=scoring_examples())
def test_score_matches_the_reference_in_every_payment_mode(example):
    vopts, case = example
    for label, _, v in mode_variants(vopts):
        e = reference_score(rules=v, **case)
        r = S.score(rules=v, **case)
        assert_score(r, e, base=case["base"], fan_cap=v.cap_fan, context=label)
    event(f"{case['how']}: {'legal' if e.legal else 'not legal'}")


@settings(max_examples=examples(60))
@given(example=scoring_examples(hows=("discard",)))
def test_discard_wins_match_the_reference_in_every_payment_mode(example):
    # the 点炮 modes only matter on a discard win: this property sees nothing else, so every
    # run settles dozens of discard wins under each mode (declared, looked or neither; the
    # dealer winning, discarding or neither)
    vopts, case = example
    for label, _, v in mode_variants(vopts):
        e = reference_score(rules=v, **case)
        assert_score(S.score(rules=v, **case), e, base=case["base"], fan_cap=v.cap_fan,
                     context=label)  # fmt: skip
    who = "dealer wins" if case["seat"] == "E" else "dealer discards"
    who = who if "E" in (case["seat"], case["discarder"]) else "dealer neither"
    event(f"{who}, {'legal' if e.legal else 'not legal'}")


# --- batch: CSV and JSON, API and CLI --------------------------------------------------------

COLUMNS = ("hand", "win", "how", "seat", "from", "bao", "base", "kongs", "declared", "looked")
TRUTH = {True: ("1", "true", "yes", "Y"), False: ("0", "false", "no", "")}


@st.composite
def batch_rows(draw, opts):
    """(CSV cells, score keyword arguments) for 1-6 wins under the variant options ``opts``."""
    out = []
    for case in draw(st.lists(win_cases(opts), min_size=1, max_size=6)):
        cells = [
            case["hand"],
            case["win"] or "",
            case["how"],
            case["seat"],
            case["discarder"] or "",
            case["bao"] or "",
            str(case["base"]),
            case["kongs"] or "",
            draw(st.sampled_from(TRUTH[case["declared"]])),
            draw(st.sampled_from(TRUTH[case["looked"]])),
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


@st.composite
def batch_examples(draw):
    """(scoring_variants options, batch_rows under that variant)."""
    vopts = draw(scoring_variants())
    return vopts, draw(batch_rows(variant_with(**vopts).options))


@settings(max_examples=examples(12))
@given(example=batch_examples(), via=st.sampled_from(["api", "cli"]))
def test_batch_matches_the_reference_in_every_payment_mode(example, via):
    vopts, rows = example
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
@given(example=bao_examples())
def test_bao_matches_the_reference(example):
    vopts, case = example
    v = variant_with(**vopts)
    e = reference_bao(rules=v, **case)
    assert_bao(B.bao(rules=v, **case), e, fan_cap=v.cap_fan)
    event(e.outcome)
