"""ccmj simulate: seeded reproducibility (threads, chunks, logs), statistics, CLI, replay."""

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from ccmj_cli import simulate as SIM
from ccmj_cli._kernels import table_layout as TL
from ccmj_cli.cli import app
from ccmj_cli.replay import read_log, replay_hand

runner = CliRunner()


@pytest.fixture(scope="module")
def base():
    return SIM.simulate(hands=96, seed=11, threads=1)


def test_same_seed_same_result_for_any_threads_and_chunking(base, monkeypatch):
    two = SIM.simulate(hands=96, seed=11, threads=2)
    assert (two.counts == base.counts).all()
    monkeypatch.setattr(SIM, "CHUNK_SESSIONS", 2)  # many small chunks, merged by summing
    chunked = SIM.simulate(hands=96, seed=11, threads=2)
    assert (chunked.counts == base.counts).all()
    other = SIM.simulate(hands=96, seed=12, threads=1)
    assert not (other.counts == base.counts).all()


def test_log_path_gives_the_same_statistics(base, tmp_path):
    log = tmp_path / "hands.jsonl"
    logged = SIM.simulate(hands=96, seed=11, log=str(log))
    assert (logged.counts == base.counts).all()
    header, lines = read_log(log)
    assert header["seed"] == 11 and len(lines) == 96
    d = replay_hand(log, 5, verify=True)
    assert d["verified"] and d["turns"]


def test_statistics_are_consistent(base):
    c = base.counts
    n = c[TL.S_HANDS]
    assert n == 96
    assert c[TL.S_WINS : TL.S_WINS + 4].sum() + c[TL.S_DRAWS] == n
    assert c[TL.S_METHOD : TL.S_METHOD + 4].sum() == n - c[TL.S_DRAWS]
    assert c[TL.S_FAN_HIST : TL.S_FAN_HIST + TL.N_FAN_BINS].sum() == n - c[TL.S_DRAWS]
    assert c[TL.S_PAY : TL.S_PAY + 4].sum() == 0  # money only changes hands
    d = base.to_dict()
    for s in SIM.SEATS:
        w = d["win_rate"][s]
        assert w["ci95"][0] <= w["rate"] <= w["ci95"][1]
        m = d["mean_payout"][s]
        assert m["ci95"][0] <= m["mean"] <= m["ci95"][1]
    assert sum(d["fan_distribution"].values()) == n - c[TL.S_DRAWS]


def test_discarder_payout_is_a_mean_with_its_interval(tmp_path):
    """`discarder_mean_payout` is {mean, sd, ci95} like every other mean: worked out here from
    the logged hands (the discarder's hand payout on each 点炮 win), sample sd, normal 95%."""
    log = tmp_path / "hands.jsonl"
    d = SIM.simulate(hands=96, seed=11, log=str(log)).to_dict()
    _, lines = read_log(log)
    pays = []
    for line in lines:
        r = json.loads(line)["result"]
        if r["how"] == "dianpao":
            pays.append(r["payout"][r["discarder"]])
    n = len(pays)
    assert n >= 10  # 96 hands give plenty of 点炮 wins (about 60% of hands)
    mean = sum(pays) / n
    sd = (sum((x - mean) ** 2 for x in pays) / (n - 1)) ** 0.5
    half = 1.959964 * sd / n**0.5
    m = d["discarder_mean_payout"]
    assert set(m) == {"mean", "sd", "ci95"}
    assert m["mean"] == pytest.approx(mean) and m["mean"] < 0  # the discarder pays
    assert m["sd"] == pytest.approx(sd)
    assert m["ci95"] == pytest.approx([mean - half, mean + half])


def test_wilson_interval_worked_value():
    # 50 of 100: p = .5, Wilson 95% = .5 ± 1.96*sqrt(.25/100 + 3.84/40000)/(1 + 3.84/100)
    r = SIM._rate(50, 100)
    assert r["rate"] == 0.5
    assert r["ci95"][0] == pytest.approx(0.4038, abs=1e-4)
    assert r["ci95"][1] == pytest.approx(0.5962, abs=1e-4)


def test_policies_change_the_game(base):
    closed = SIM.simulate(hands=96, seed=11, policy="closed", threads=1).to_dict()
    # bots that never 吃/碰 win 门清 far more often (only special kongs still break it)
    assert closed["menqing_rate"]["rate"] > base.to_dict()["menqing_rate"]["rate"] + 0.2
    mixed = SIM.simulate(hands=32, seed=3, policy="baseline,silent,baseline,silent", threads=1)
    assert mixed.policy == ["baseline", "silent", "baseline", "silent"]
    assert mixed.to_dict()["declare_rate"]["rate"] <= 0.5


def test_cli_json_fields():
    r = runner.invoke(app, ["simulate", "--hands", "32", "--seed", "5", "--json", "--threads", "1"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    for key in (
        "hands",
        "seed",
        "win_rate",
        "mean_payout",
        "dealer_win_rate",
        "draw_rate",
        "by_method",
        "jiahu_rate",
        "piao_rate",
        "hands_per_second",
    ):
        assert key in d
    assert d["hands"] == 32 and d["seed"] == 5
    assert set(d["win_rate"]) == {"E", "S", "W", "N"}
    assert set(d["by_method"]) == {"zimo", "dianpao", "mobao", "duibao"}
    assert "ci95" in d["draw_rate"] and "ci95" in d["mean_payout"]["E"]


def test_cli_table_output():
    r = runner.invoke(app, ["simulate", "--hands", "16", "--seed", "5", "--no-progress"])
    assert r.exit_code == 0, r.output
    assert "win rate [95% CI]" in r.stdout and "荒庄" in r.stdout and "hands/s" in r.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["--hands", "0"],
        ["--policy", "wild"],
        ["--policy", "baseline,closed"],
        ["--seed", "-1"],
        ["--hands", "4", "--sessions", "9"],
        ["--threads", "0"],
    ],
)
def test_cli_bad_input_is_one_line_error(args):
    r = runner.invoke(app, ["simulate", "--no-progress", *args])
    assert r.exit_code in (2, 3), r.output
    assert r.stderr.startswith("error: ") and len(r.stderr.strip().splitlines()) == 1


def test_cli_log_and_replay(tmp_path):
    log = tmp_path / "h.jsonl"
    args = ["simulate", "-n", "8", "--seed", "9", "--log", str(log), "--no-progress"]
    r = runner.invoke(app, args)
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["replay", str(log), "--hand", "3", "--verify"])
    assert r.exit_code == 0, r.output
    assert "start:" in r.stdout and "verified: the engine replays this hand exactly" in r.stdout
    r = runner.invoke(app, ["replay", str(log), "--hand", "99"])
    assert r.exit_code == 2 and "log holds hands 1 to 8" in r.stderr
    bad = tmp_path / "x.jsonl"
    bad.write_text("{}\n")
    r = runner.invoke(app, ["replay", str(bad)])
    assert r.exit_code == 2 and r.stderr.startswith("error: ")


def test_tampered_log_fails_verification(tmp_path):
    log = tmp_path / "h.jsonl"
    SIM.simulate(hands=4, seed=9, log=str(log))
    lines = log.read_text().splitlines()
    rec = json.loads(lines[1])
    rec["result"]["payout"]["E"] += 1
    lines[1] = json.dumps(rec, ensure_ascii=False)
    log.write_text("\n".join(lines) + "\n")
    assert replay_hand(log, 1, verify=True)["verified"] is False
    r = runner.invoke(app, ["replay", str(log), "--hand", "1", "--verify"])
    assert r.exit_code == 1


def test_session_plan_is_exact():
    seeds, lengths = SIM.session_plan(100, 7, 1)
    assert lengths.sum() == 100 and len(seeds) == 7 and lengths.max() - lengths.min() <= 1
    s2, _ = SIM.session_plan(100, 7, 1)
    assert (s2 == seeds).all() and seeds.dtype == np.uint64
