"""ccmj odds through the CLI (typer CliRunner): output, JSON fields, errors, exit codes."""

import json
import signal
import subprocess
import sys
import time

import pytest
from typer.testing import CliRunner

from ccmj_cli.cli import app

runner = CliRunner()
TANKI = "123m456p789s1112s"  # only 2s is a legal wait, 3 live among 123 unseen


def odds(*args, input=None):
    return runner.invoke(app, ["odds", *args], input=input)


def test_table_output():
    r = odds(TANKI, "--declare", "--draws", "1", "--trials", "2000", "--seed", "3", "--exact")
    assert r.exit_code == 0, r.output
    assert "P(win)" in r.output and "95% CI" in r.output
    assert "exact P(win)      0.024390" in r.output  # 3/123
    for word in ("自摸", "点炮", "摸宝", "对宝", "round", "cumulative"):
        assert word in r.output


def test_json_fields():
    r = odds(
        TANKI, "--declare", "-n", "6", "-t", "3000", "--seed", "5", "--bao", "unknown", "--json"
    )
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    for key in (
        "p_win",
        "ci95",
        "by_method",
        "p_jiahu",
        "p_piao",
        "expected_payment",
        "trials",
        "seed",
    ):
        assert key in d
    assert d["seed"] == 5 and d["trials"] == 3000 and d["bao"] == "unknown"
    assert set(d["by_method"]) == {"zimo", "dianpao", "mobao", "duibao"}
    assert d["ci95"][0] <= d["p_win"] <= d["ci95"][1]
    assert len(d["by_round"]) == 6


def test_threads_do_not_change_the_json():
    base = [
        TANKI,
        "--declare",
        "-n",
        "9",
        "-t",
        "4000",
        "--seed",
        "9",
        "--opponents",
        "random",
        "--json",
    ]
    a = json.loads(odds(*base, "--threads", "1").stdout)
    b = json.loads(odds(*base, "--threads", "2").stdout)
    for d in (a, b):
        del d["seconds"], d["trials_per_second"]
    assert a == b


def test_random_seed_is_reported():
    d = json.loads(odds(TANKI, "--declare", "-n", "3", "-t", "1000", "--json").stdout)
    assert isinstance(d["seed"], int) and d["seed"] >= 0


def test_fourteen_tiles_table_and_json():
    r = odds("123m456p789s11123s", "--declare", "-n", "4", "-t", "1000", "--seed", "1")
    assert r.exit_code == 0 and "discard" in r.output and "1000 trials per discard" in r.output
    d = json.loads(
        odds("123m456p789s11123s", "-n", "4", "-t", "1000", "--seed", "1", "--json").stdout
    )
    assert len(d["discards"]) == 12 and d["discards"][0]["p_win"] >= d["discards"][-1]["p_win"]


def test_exact_only():
    r = odds(TANKI, "--declare", "-n", "2", "--trials", "0", "--exact", "--json")
    d = json.loads(r.stdout)
    assert d["trials"] == 0 and abs(d["exact"]["p_win"] - (1 - 120 * 119 / (123 * 122))) < 1e-12


def test_errors_are_one_line_with_exit_2():
    for args in (
        ["123m456p789s11s"],  # 11 tiles
        [TANKI, "--bao", "5z"],  # bao without --declare
        [TANKI, "--draws", "3", "--wall", "12"],
        [TANKI, "--opponents", "smart"],
        [TANKI, "--trials", "0"],
        [TANKI, "--visible", "2s2s2s2s"],
        ["123m456p789s111x"],
    ):
        r = odds(*args)
        assert r.exit_code == 2, (args, r.output)
        assert r.stderr.startswith("error: ") and r.stderr.count("\n") == 1, r.stderr


def test_bad_variant_exit_3(tmp_path):
    bad = tmp_path / "v.yaml"
    bad.write_text("jiahu: sometimes\n")
    r = odds(TANKI, "--rules", str(bad), "-t", "10")
    assert r.exit_code == 3 and "jiahu" in r.stderr


def test_documented_in_help():
    r = runner.invoke(app, ["--help"])
    assert "odds" in r.output
    r = odds("--help")
    for opt in ("--draws", "--wall", "--trials", "--seed", "--declare", "--bao", "--opponents",
                "--threads", "--exact", "--json"):  # fmt: skip
        assert opt in r.output


# --- the exact analysis through the CLI ------------------------------------------------------


def test_auto_uses_the_exact_answer_and_says_so():
    r = odds(TANKI, "-n", "3")
    assert r.exit_code == 0, r.output
    assert "method            exact (best play for P(win) over every play" in r.output
    d = json.loads(odds(TANKI, "-n", "3", "--json").stdout)
    assert d["method"] == "exact" and d["trials"] == 0 and d["exact"]["complete"]
    assert d["p_win"] == d["exact"]["p_win"] and d["p_tenpai"] == d["exact"]["p_tenpai"]
    assert d["expected_payment"] == d["exact"]["expected_payment"] and d["ci95"] is None
    assert d["pool"] == d["exact"]["pool"] == "hand_only"
    # keeping the wait (3 live 2s of the 123 unseen, each draw 3/123) is one play; changing
    # it when a 3s comes is better: the best play wins more
    assert d["exact"]["p_win"] > 1 - (120 / 123) ** 3 + 0.01
    assert len(d["exact"]["win_by_turn"]) == 3 and d["exact"]["tenpai_by_turn"] == [1.0] * 3
    assert f"P(win)            {d['p_win']:.6f}" in r.output


def test_a_restricted_search_is_never_called_exact():
    # over 17 draws a 1-shanten hand's search stops short of the whole horizon (limit < 17):
    # its answer is the best play within the region, a lower bound, labelled as such
    hand = "123m456p111s4679s"
    d = json.loads(odds(hand, "--json").stdout)
    assert not d["exact"]["complete"] and d["exact"]["limit"] < 17
    assert d["method"] == "region" and d["p_win"] == d["exact"]["p_win"]
    r = odds(hand)
    assert "method            region search: a lower bound, not the optimum" in r.output
    assert "exact" not in r.output.split("method")[1].split("\n")[0]
    assert "region P(won by)" in r.output and "exact P(won by)" not in r.output
    # the same hand over 3 draws is searched whole: exact
    d3 = json.loads(odds(hand, "-n", "3", "--json").stdout)
    assert d3["exact"]["complete"] and d3["method"] == "exact"
    assert d["exact"]["edge"] == d3["exact"]["edge"] == "progress"


def test_a_settled_answer_says_every_move_on_its_edge_was_searched():
    # 66999m13567p35s2z: limit 4 wins 0.3147 after a step that added 0.051, the bot about
    # 0.322: the search goes on with every move on the edge (0.3203) and stops there
    d = json.loads(odds("66999m13567p35s2z", "--json").stdout)
    assert (d["exact"]["limit"], d["exact"]["edge"], d["method"]) == (4, "all", "region")
    assert abs(d["p_win"] - 0.3203) < 5e-5
    assert "counting new tiles, every move on its edge, the last widening" in odds(
        "66999m13567p35s2z").output


def test_auto_falls_back_to_monte_carlo_and_says_why():
    r = odds(TANKI, "-n", "3", "--declare", "--opponents", "random", "--seed", "1", "--json")
    d = json.loads(r.stdout)
    assert d["method"] == "monte_carlo" and d["trials"] == 20000 and d["exact"] is None
    assert "self-draws" in d["exact_note"]


def test_trials_zero_exact_without_an_exact_answer_fails():
    r = odds(TANKI, "--declare", "--opponents", "random", "--trials", "0", "--exact")
    assert r.exit_code == 2 and r.stderr.startswith("error: no exact answer")
    assert r.stdout == ""


def test_exact_fourteen_tiles_table_and_json():
    hand = "123m469p789s15577z"
    r = odds(hand, "--exact", "-n", "8")
    assert r.exit_code == 0, r.output
    for word in ("shanten*", "useful tiles (live)", "P(tenpai)", "P(win)", "E[pay]", "draw"):
        assert word in r.output
    d = json.loads(odds(hand, "--exact", "-n", "8", "--json").stdout)
    rows = d["discards"]
    assert len(rows) == 12  # (8 draws: the search stops at limit 5 or so, a region's bound)
    assert all(x["method"] == ("exact" if x["exact"]["complete"] else "region") for x in rows)
    ps = [round(x["exact"]["p_win"], 12) for x in rows]
    assert ps == sorted(ps, reverse=True)
    ex = rows[0]["exact"]
    assert len(ex["win_by_turn"]) == 8 == len(ex["tenpai_by_turn"])
    assert ex["legal_shanten"] == 1 and ex["useful_total"] == sum(u["live"] for u in ex["useful"])


def test_exact_with_trials_gives_both():
    d = json.loads(odds(TANKI, "--exact", "-n", "4", "-t", "2000", "--seed", "2", "--json").stdout)
    assert d["method"] == "both" and d["trials"] == 2000 and d["exact"]["solver"] == "dp"


def test_objective_and_moves_options():
    d = json.loads(odds(TANKI, "--exact", "-n", "2", "--objective", "payment", "--json").stdout)
    assert d["exact"]["objective"] == "payment"
    for args in (["--objective", "money"], ["--policy", "smart"], ["--pool", "some"],
                 ["--value", "odds"]):  # fmt: skip
        r = odds(TANKI, "--exact", *args)
        assert r.exit_code == 2 and r.stderr.count("\n") == 1


def test_absurd_trials_is_one_line_exit_2():
    r = odds(TANKI, "--trials", "1000000000000")
    assert r.exit_code == 2 and r.stderr.startswith("error: bad --trials")
    assert r.stderr.count("\n") == 1


# --- Ctrl-C: the README's contract, from a real process ---------------------------------------
# "A run that lasts over a second shows a progress bar on stderr. Ctrl-C stops it and prints the
# estimate from the trials finished so far (marked INTERRUPTED, exit code 130)."

SLOW = "123m469p789s1557z"  # 2-shanten: the discard policy runs, ~10k trials per second
ODDS = [sys.executable, "-m", "ccmj_cli", "odds", SLOW, "--declare", "--seed", "1", "--policy",
        "baseline"]  # (the baseline's trials are slow; the solver's would end at once)


@pytest.fixture(scope="module")
def startup_seconds():
    """A short run first: it compiles (or loads) the kernels and times this machine's start-up,
    so that the signal below arrives while trials run, not while Python or Numba loads."""
    t0 = time.monotonic()
    warm = subprocess.run([*ODDS, "--trials", "1000"], capture_output=True, text=True, timeout=900)
    assert warm.returncode == 0, warm.stderr
    return time.monotonic() - t0


@pytest.mark.parametrize("as_json", [False, True])
def test_sigint_prints_the_estimate_and_exits_130(as_json, startup_seconds):
    trials = 1_000_000  # minutes of work: it cannot finish before the signal
    cmd = [*ODDS, "--trials", str(trials), *(["--json"] if as_json else [])]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(startup_seconds + 2.0)
        assert p.poll() is None, p.communicate()
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=120)
    finally:
        if p.poll() is None:  # never leave the child behind
            p.kill()
            p.communicate()
    assert p.returncode == 130, (p.returncode, err)
    assert "Traceback" not in err
    if as_json:
        d = json.loads(out)
        assert d["interrupted"] is True and d["trials"] < trials and d["trials"] % 1000 == 0
    else:
        assert "INTERRUPTED" in out and "P(win)" in out


def test_value_prints_just_the_number():
    d = json.loads(odds(TANKI, "-n", "3", "--json").stdout)
    r = odds(TANKI, "-n", "3", "--value", "p_win")
    assert r.exit_code == 0 and float(r.stdout) == d["p_win"]
    r = odds("123m456p789s11123s", "-n", "3", "--value", "expected_payment")
    d = json.loads(odds("123m456p789s11123s", "-n", "3", "--json").stdout)
    assert float(r.stdout) == d["discards"][0]["expected_payment"]


def test_stdin_one_answer_a_line_and_bad_lines_reported():
    r = odds("-", "-n", "2", "--json", input="111m456p789s57s12z\n123m\n\n123m456p789s1112s\n")
    assert r.exit_code == 4
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    assert len(lines) == 3 and lines[1]["line"] == 2 and lines[1]["code"] == "bad_hand"
    assert abs(lines[0]["p_win"] - 36 / 15129) < 1e-12 and lines[2]["p_win"] > 0
    r = odds("-", "-n", "2", "--value", "p_win", input="111m456p789s57s12z\n")
    assert r.exit_code == 0 and abs(float(r.stdout) - 36 / 15129) < 1e-12


def test_stdin_with_threads_answers_the_same_lines_in_order(monkeypatch):
    # -j 2 (and the default: one per core, two here): hands answered side by side, printed in
    # input order, bad lines where they were; the same as one at a time
    import os

    monkeypatch.setattr(os, "cpu_count", lambda: 2)  # (one core would run them one by one)
    hands = ["111m456p789s57s12z", "123m", "123m456p789s1112s", "46m456p78s557z[777z]",
             "19m", "123m456p111s4679s"] * 2  # fmt: skip
    text = "\n".join(hands) + "\n"
    one = odds("-", "-n", "3", "--json", "-j", "1", input=text)
    two = odds("-", "-n", "3", "--json", "-j", "2", input=text)
    default = odds("-", "-n", "3", "--json", input=text)
    assert one.exit_code == two.exit_code == default.exit_code == 4

    def lines(r):
        out = [json.loads(x) for x in r.stdout.splitlines()]
        for d in out:
            d.pop("seconds", None)
        return [(d.get("input"), d.get("hand"), d.get("p_win"), d.get("line")) for d in out]

    assert lines(one) == lines(two) == lines(default) and len(lines(two)) == len(hands)
    assert [x[3] for x in lines(two) if x[3] is not None] == [2, 5, 8, 11]
