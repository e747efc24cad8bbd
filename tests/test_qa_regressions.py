"""QA regressions: real bugs found by the QA pass on main (2026-11-30).

Every test here failed on the commit it was written against; each says the hand, the expected
value and where it comes from (RULES.md section or the README contract).
"""

import csv
import io
import json

import pytest
import yaml
from typer.testing import CliRunner

from ccmj_cli import hand as H
from ccmj_cli import scoring as S
from ccmj_cli.cli import app
from ccmj_cli.errors import CcmjError

runner = CliRunner()


def run(*args, input=None):
    return runner.invoke(app, list(args), input=input)


def no_traceback(r):
    assert isinstance(r.exception, SystemExit | None), repr(r.exception)
    assert "Traceback" not in r.output


def csv_rows(text):
    return list(csv.DictReader(io.StringIO(text)))


# --------------------------------------------------------------------------- batch money


def test_batch_csv_large_base_does_not_wrap_int64():
    # 123m456p46s55s111z, dealer E wins by 摸宝 (bao 9p stands for 5s, the 4556s 坎/单调 wait):
    # 平胡 1 + 门清 1 + 夹胡 1 + 自摸 1 + 宝 1 + 庄 1 = 6 fan per loser -> 32 each (RULES §5,
    # seed 001 "庄家 门清+夹+自摸+宝 -> 32 each"): hand E +96, S/W/N -32.
    # W declared a 旋风杠 [1234z] = 1 from each other seat (RULES §7): kongs E -1, S -1, W +3, N -1.
    # total E 95, S -33, W -29, N -33; x base 10**18 -> 95e18, -33e18, -29e18, -33e18 (sums to 0).
    # `ccmj score --base 10**18 --json` gets this right; the CSV path wrapped int64 and printed
    # 2766279631452241920, 3893488147419103232, 7893488147419103232, 3893488147419103232.
    base = 10**18
    text = f'hand,win,how,seat,bao,base,kongs\n123m456p46s55s111z,,mobao,E,9p,{base},"W:[1234z]"\n'
    r = run("batch", "-", input=text)
    no_traceback(r)
    assert r.exit_code == 0, r.output
    row = csv_rows(r.stdout)[0]
    pays = [int(row[f"pay_{s}"]) for s in "ESWN"]
    assert pays == [95 * base, -33 * base, -29 * base, -33 * base]
    assert sum(pays) == 0


def test_batch_huge_base_is_not_a_traceback():
    # Same win (dealer 门清+夹+自摸+宝, 32 from each: hand +96/-32/-32/-32, RULES §5) with a base
    # beyond int64. `ccmj score --base 99999999999999999999` prints exact amounts; the batch
    # aborted the whole run with OverflowError (exit 1, traceback). Either exact amounts or a
    # per-row error (exit 4) is acceptable; a crash is not.
    base = 99999999999999999999
    text = f"hand,win,how,seat,bao,base\n123m456p46s55s111z,,mobao,E,9p,{base}\n"
    r = run("batch", "-", input=text)
    no_traceback(r)
    assert r.exit_code in (0, 4), r.output
    row = csv_rows(r.stdout)[0]
    if r.exit_code == 0:
        assert [int(row[f"pay_{s}"]) for s in "ESWN"] == [
            96 * base,
            -32 * base,
            -32 * base,
            -32 * base,
        ]
    else:
        assert row["error"]


def test_fan_total_over_63_does_not_wrap(tmp_path):
    # A room file with big fan values (each within the schema's 0-30): fan.win/menqing/jiahu/
    # zimo/bao/dealer = 30. Non-dealer S wins 123m456p46s55s111z by 摸宝 (bao 9p -> 5s):
    # W and N pay at 30*5 = 150 fan, dealer E at 180 fan. RULES §5: payment = 2^(fan-1), so
    # W = N = -2**149 and E = -2**179. ccmj printed -2097152 (2**21 = 2**(149 mod 64)) and
    # -2**51: the shift wraps at 64 bits. Either refuse the variant (exit 3) or pay exactly.
    room = tmp_path / "bigfan.yaml"
    room.write_text(
        yaml.safe_dump(
            {"fan": {k: 30 for k in ("win", "menqing", "jiahu", "zimo", "bao", "dealer")}}
        )
    )
    r = run(
        "score",
        "123m456p46s55s111z",
        "--by",
        "mobao",
        "--bao",
        "9p",
        "--rules",
        str(room),
        "--json",
    )
    no_traceback(r)
    assert r.exit_code in (0, 3), r.output
    if r.exit_code == 0:
        d = json.loads(r.stdout)
        assert d["fan_by_seat"] == {"E": 180, "S": 0, "W": 150, "N": 150}
        assert d["payments"]["W"] == -(2**149)
        assert d["payments"]["E"] == -(2**179)


# --------------------------------------------------------------------------- batch input


def test_batch_invalid_utf8_file_is_not_a_traceback(tmp_path):
    # A CSV file with a stray non-UTF-8 byte (0xff) in a hand cell. README: bad input is a
    # one-line `error: ...` (exit 2), or, per row, "a bad row gets its message in `error` ... and
    # the run goes on; the exit code is 4". ccmj crashed with UnicodeDecodeError (traceback, exit 1)
    # reading the file; from stdin it crashed with UnicodeEncodeError in batch._prepare_chunk.
    f = tmp_path / "wins.csv"
    f.write_bytes(b"hand,win,how\n123m456p46s55s111z\xff,5s,self\n123m456p46s55s111z,5s,self\n")
    r = run("batch", str(f))
    no_traceback(r)
    assert r.exit_code in (2, 4), r.output
    if r.exit_code == 2:
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), r.stderr
    else:
        rows = csv_rows(r.stdout)
        assert len(rows) == 2 and rows[0]["error"]
        # the good row: S 门清+夹(4556s+5s, 独听)+自摸 = 4 fan -> 8 each, dealer E 16 (§5)
        assert [rows[1][f"pay_{s}"] for s in "ESWN"] == ["-16", "32", "-8", "-8"]


def test_batch_utf8_bom_header_is_read():
    # Excel's "CSV UTF-8" export starts with a BOM. Read from a file it works (utf-8-sig), but
    # piped on stdin (`cat wins.csv | ccmj batch -`) the header 'hand' was read as '\ufeffhand'
    # and the whole input refused ("the CSV needs a 'hand' column", exit 2).
    # Row: S wins 123m456p46s55s111z on a self-drawn 5s: 门清+夹+自摸 -> 8 each, dealer 16 (§5).
    data = "\ufeffhand,win,how\n123m456p46s55s111z,5s,self\n".encode()
    r = run("batch", "-", input=data)
    no_traceback(r)
    assert r.exit_code == 0, r.output
    row = csv_rows(r.stdout)[0]
    assert row["legal"] == "true"
    assert [row[f"pay_{s}"] for s in "ESWN"] == ["-16", "32", "-8", "-8"]


def test_batch_blank_line_is_not_a_row():
    # A blank line between rows (common in hand-edited CSVs). README (hand analysis): "Blank
    # lines are not rows"; csv readers skip them. ccmj emitted an all-empty row with the error
    # "the winning tile is needed (--win TILE)" and exit 4.
    text = "hand,win,how\n123m456p46s55s111z,5s,self\n\n123m456p46s55s111z,5s,self\n"
    r = run("batch", "-", input=text)
    no_traceback(r)
    assert r.exit_code == 0, r.output
    rows = csv_rows(r.stdout)
    assert len(rows) == 2 and all(row["legal"] == "true" for row in rows)


def test_batch_json_keeps_score_fields():
    # README: "--json writes JSON lines with the `ccmj score --json` fields plus the input
    # columns". For a discard win from W the score field `discarder` is "W" and `kongs` is the
    # list [{seat, meld, value}]: E's concealed kong (5555m) = 2 from each (RULES §7 暗杠 2),
    # W's 旋风杠 [1234z] = 1. The batch line had no `discarder` and `kongs` was the raw cell text.
    text = 'hand,win,how,seat,from,kongs\n123m456p46s55s111z,5s,discard,S,W,"E:(5555m),W:[1234z]"\n'
    r = run("batch", "-", "--json", input=text)
    no_traceback(r)
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout.splitlines()[0])
    assert d.get("discarder") == "W"
    assert isinstance(d["kongs"], list)
    assert {(k["seat"], k["meld"], k["value"]) for k in d["kongs"]} == {
        ("E", "(5555m)", 2),
        ("W", "[1234z]", 1),
    }


# --------------------------------------------------------------------------- CLI contract


def test_usage_error_is_one_line():
    # README exit codes: "2 | bad usage or a bad hand (a one-line message on stderr)".
    # `--base 0` (and unknown options, missing arguments) printed Typer's 5-line boxed usage
    # message instead of one `error: ...` line.
    r = run("score", "123m456p46s55s111z", "--win", "5s", "--by", "self", "--base", "0")
    assert r.exit_code == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), r.stderr


def test_check_flag_counts_in_stdin_mode():
    # README: `ccmj check HAND WIN [--check]` "(with --check: exit 1 when it is not)".
    # 123m456p789s1123s + 4s is not legal (no_pung: 11s + 123m 456p 234s 789s has no pung and the
    # pair is not a dragon, RULES §3 C3). Read from stdin with --check the exit code was 0: the
    # flag was silently ignored.
    r = run("check", "-", "--check", input="123m456p789s1123s 4s\n")
    no_traceback(r)
    assert r.exit_code == 1, r.output


def test_extends_file_resolves_next_to_the_including_file(tmp_path):
    # rooms/base.yaml: `extends: quanbao` + `jiahu: shape`; rooms/room.yaml: `extends: base.yaml`
    # + `cap_fan: 5`. Loaded by path from another directory, room.yaml must see its sibling:
    # effective jiahu shape, cap_fan 5, dianpao discarder_covers_all (from quanbao, README
    # presets table). ccmj resolved `extends: base.yaml` against the current directory and
    # failed with "variant 'base.yaml': no such file or preset" (exit 3) unless run from rooms/.
    rooms = tmp_path / "rooms"
    rooms.mkdir()
    (rooms / "base.yaml").write_text("extends: quanbao\njiahu: shape\n")
    (rooms / "room.yaml").write_text("extends: base.yaml\ncap_fan: 5\n")
    r = run("rules", "--rules", str(rooms / "room.yaml"), "--json")
    no_traceback(r)
    assert r.exit_code == 0, r.output
    opts = json.loads(r.stdout)["options"]
    assert (opts["jiahu"], opts["cap_fan"], opts["dianpao"]) == ("shape", 5, "discarder_covers_all")


def test_kongs_errors_name_the_option():
    """QA 2026-11-30: a bad --kongs item was reported as "bad hand '(5555m)(5555m)'"."""
    for spec, words in (
        ("E:(5555m)(5555m)", ["bad --kongs item 'E:(5555m)(5555m)'", "8 copies of 5m"]),
        ("E:(5555q)", ["bad --kongs item", "'q'"]),
        ("E:", ["bad --kongs item 'E:'", "bracketed kongs"]),
    ):
        with pytest.raises(CcmjError) as e:
            S.score("123m456p46s88s111z", "5s", kongs=spec)
        assert e.value.exit_code == 2 and all(w in e.value.message for w in words), e.value


def test_single_wait_reread_keeps_the_content_failures(tmp_path):
    """Found by test_properties (2026-11-30): 1222333444555m waits on 1m alone; it lacks two
    suits, so under 大胡缺 (piao_exempt) only the all-pung reading 11+222+333+444+555 is legal:
    飘胡, and not 夹 (飘 does not stack). The fast path re-read the 独听 with failures 0 and let
    a chow reading (夹 by 独听) win the tie when 夹 and 飘 are worth the same fan."""
    room = tmp_path / "room.yaml"
    room.write_text("piao_exempt: true\nfan: {jiahu: 1, piao: 1}\n", encoding="utf-8")
    w = H.waits("1222333444555m", rules=str(room)).waits[0]
    assert (w.tile, w.legal, w.jiahu, w.piao) == ("1m", True, False, True)
    c = H.check("1222333444555m", "1m", rules=str(room))
    assert (c.legal, c.jiahu, c.piao) == (True, False, True)
