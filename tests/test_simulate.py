"""ccmj simulate: seeded reproducibility (threads, chunks, logs), statistics, CLI, replay."""

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from ccmj_cli import simulate as SIM
from ccmj_cli._kernels.table import layout as TL
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


# ---------------------------------------------------------------- streaming, limits, progress
@pytest.mark.parametrize("seed", [0, 1, 11, 12345, 2**70 + 5])
def test_seed_words_are_numpys_seed_sequence_words(seed):
    # the streamed session seeds are exactly word i of SeedSequence(seed).generate_state(S)
    ref = np.random.SeedSequence(seed).generate_state(3000, np.uint64)
    for a, b in ((0, 3000), (0, 1), (17, 333), (2999, 3000), (1500, 2100)):
        assert (SIM.seed_words(seed, a, b) == ref[a:b]).all(), (a, b)
    assert len(SIM.seed_words(seed, 5, 5)) == 0


def test_a_huge_run_is_planned_without_arrays_of_its_size():
    # issue: --hands 3000000000 grew to GBs, 10**12 raised a numpy memory error. A plan streams
    # its sessions (seeds computed per chunk); past the cap a one-line error.
    plan = SIM.make_plan(3_000_000_000, None, 1)
    assert plan.sessions == 3_000_000_000 // 16
    a, seeds, lengths = next(plan.chunks(64))
    assert a == 0 and len(seeds) == 64 and (lengths == 16).all()
    far = plan.seeds(plan.sessions - 2, plan.sessions)
    assert len(far) == 2 and far.dtype == np.uint64
    with pytest.raises(SIM.UsageError, match="at most 10,000,000,000"):
        SIM.make_plan(10**12, None, 1)


def test_pieces_and_chunks_do_not_change_the_result(base, monkeypatch):
    # sessions are played in pieces (random state and dealer carried over): any cut, same result
    monkeypatch.setattr(SIM, "PIECE_HANDS", 3)
    monkeypatch.setattr(SIM, "CHUNK_SESSIONS", 5)
    assert (SIM.simulate(hands=96, seed=11, threads=2).counts == base.counts).all()
    one = SIM.simulate(hands=40, seed=4, sessions=1, threads=1)
    monkeypatch.setattr(SIM, "PIECE_HANDS", 256)
    assert (SIM.simulate(hands=40, seed=4, sessions=1, threads=1).counts == one.counts).all()


def test_log_with_threads_is_written_in_order(base, tmp_path, monkeypatch):
    import ccmj_cli.replay as R

    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    logged = SIM.simulate(hands=96, seed=11, log=str(a), threads=2)
    assert (logged.counts == base.counts).all()
    monkeypatch.setattr(R, "LOG_HANDS", 5)  # several calls, long sessions in pieces
    SIM.simulate(hands=96, seed=11, log=str(b), threads=1)
    assert a.read_text() == b.read_text()
    _, lines = read_log(a)
    recs = [json.loads(x) for x in lines]
    assert [r["hand"] for r in recs] == list(range(1, 97))
    assert [(r["session"], r["session_hand"]) for r in recs] == sorted(
        (r["session"], r["session_hand"]) for r in recs
    )
    c = tmp_path / "c.jsonl"  # two sessions of 48 hands, each longer than LOG_HANDS
    SIM.simulate(hands=96, seed=11, sessions=2, log=str(c), threads=2)
    monkeypatch.setattr(R, "LOG_HANDS", 1024)
    d = tmp_path / "d.jsonl"
    SIM.simulate(hands=96, seed=11, sessions=2, log=str(d), threads=2)
    assert c.read_text() == d.read_text()
    assert replay_hand(c, 60, verify=True)["verified"]


def test_interrupted_run_reports_the_hands_finished(monkeypatch):
    calls = []
    real = SIM.run_chunk

    def flaky(seeds, *args, **kw):
        if len(seeds):  # (not the warm-up's empty call)
            calls.append(1)
            if len(calls) % 2 == 0:  # Ctrl-C during the second chunk of a run
                raise KeyboardInterrupt
        return real(seeds, *args, **kw)

    monkeypatch.setattr(SIM, "CHUNK_SESSIONS", 2)
    monkeypatch.setattr(SIM, "run_chunk", flaky)
    r = SIM.simulate(hands=96, seed=11, threads=1)
    assert r.interrupted and r.hands == 32  # the first chunk: two sessions of 16
    calls.clear()
    cli = runner.invoke(app, ["simulate", "-n", "96", "--seed", "11", "--json", "--threads", "1"])
    assert cli.exit_code == 130
    assert json.loads(cli.stdout)["interrupted"] is True
    assert "interrupted" in cli.stderr


def test_compile_note_on_a_cold_cache(monkeypatch):
    from ccmj_cli._kernels.table import driver as K

    notes = []
    monkeypatch.setattr(K, "cached", lambda kernel: False)
    SIM.warm_up(notes.append)
    assert notes == ["compiling kernels (first run)…"]
    notes.clear()
    monkeypatch.setattr(K, "cached", lambda kernel: True)
    SIM.warm_up(notes.append)
    assert notes == []


def test_no_progress_frames_into_a_file():
    # stderr is not a terminal here: no progress bar, no \r frames (issue: they went to files)
    r = runner.invoke(app, ["simulate", "-n", "64", "--seed", "2", "--json"])
    assert r.exit_code == 0, r.output
    assert "\r" not in r.stderr
    assert all(line == "compiling kernels (first run)…" for line in r.stderr.splitlines())


@pytest.mark.parametrize(
    "args, msg",
    [
        (["--sessions", "0"], "bad --sessions 0"),
        (["--scheduler", "local", "--workers", "0"], "bad --workers 0"),
        (["--scheduler", "local", "--workers", "-3"], "bad --workers -3"),
        (["--scheduler", "bogus"], "bad --scheduler 'bogus'"),
        (["--hands", "1000000000000"], "bad --hands 1000000000000"),
    ],
)
def test_cli_limits_are_one_line_errors(args, msg):
    r = runner.invoke(app, ["simulate", "--no-progress", *args])
    assert r.exit_code == 2, r.output
    assert r.stderr.startswith(f"error: {msg}") and len(r.stderr.strip().splitlines()) == 1


# --- --log is made whole or not at all (a temporary file moved into place) ---------------------


def test_log_replaces_an_existing_file_whole(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "hands.jsonl").write_text("an older log\n", encoding="utf-8")
    r = runner.invoke(app, ["simulate", "-n", "3", "--seed", "1", "--log", "hands.jsonl"])
    assert r.exit_code == 0, r.output
    lines = (tmp_path / "hands.jsonl").read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0])["hands"] == 3 and len(lines) == 4  # the header and three hands
    assert [p.name for p in tmp_path.iterdir()] == ["hands.jsonl"]  # no temporary file left


def test_log_that_cannot_be_written_is_one_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = runner.invoke(app, ["simulate", "-n", "3", "--log", "missing/h.jsonl"])
    assert r.exit_code == 2
    assert "error: cannot write 'missing/h.jsonl'" in r.output
    assert list(tmp_path.iterdir()) == []
