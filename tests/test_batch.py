"""Batch CSV scoring: columns, order, bad rows, exit codes, JSON lines, stdin/stdout, and agreement
with ``scoring.score`` row by row (the batch's bulk path must not drift from the single path)."""

import csv
import io
import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ccmj_cli import batch as B
from ccmj_cli import scoring as S
from ccmj_cli.batch import RESULT_COLUMNS
from ccmj_cli.cli import app
from ccmj_cli.errors import CcmjError, UsageError
from ccmj_cli.rules import load_variant

runner = CliRunner()
EXAMPLE = Path(__file__).parent.parent / "examples" / "wins.csv"


def run_text(text, **kw):
    out = io.StringIO()
    summary = B.run(io.StringIO(text), out, **kw)
    return summary, out.getvalue()


def rows_of(text):
    return list(csv.DictReader(io.StringIO(text)))


def test_example_file_exact():
    summary, out = run_text(EXAMPLE.read_text(encoding="utf-8"))
    rows = rows_of(out)
    assert summary.rows == 8 and summary.failed == 1
    assert list(rows[0]) == [
        "hand",
        "win",
        "how",
        "seat",
        "from",
        "bao",
        "base",
        "kongs",
        "declared",
        *RESULT_COLUMNS,
    ]
    # seed 001: non-dealer 门清+夹+自摸+宝 -> 16/16/32
    assert [rows[0][f"pay_{s}"] for s in "ESWN"] == ["-32", "64", "-16", "-16"]
    assert rows[0]["stands_for"] == "5s"
    # dealer 门清+夹+自摸+宝 -> 32 each
    assert [rows[1][f"pay_{s}"] for s in "ESWN"] == ["96", "-32", "-32", "-32"]
    # dealer 门清+飘+自摸+宝 (对宝) -> 64 each, 192
    assert [rows[2][f"pay_{s}"] for s in "ESWN"] == ["192", "-64", "-64", "-64"]
    # discard from W with kongs and base 2: hand (-8, 20, -8, -4) + kongs (5, -3, 1, -3), x2
    assert [rows[3][f"pay_{s}"] for s in "ESWN"] == ["-6", "34", "-14", "-14"]
    assert rows[4]["legal"] == "false" and rows[4]["reasons"] == "no_pung"
    # concealed 大蛋 (1111s): W wins 门清 夹 自摸, +4 from each for the kong
    assert [rows[5][f"pay_{s}"] for s in "ESWN"] == ["-20", "-12", "44", "-12"]
    assert rows[6]["legal"] == "true"  # Chinese honors go the Python way
    assert rows[7]["error"].startswith("bad win") and rows[7]["legal"] == ""


def test_one_row_per_input_row_in_order_across_chunks():
    lines = ["hand,win,how,seat,from"]
    expected = []
    for i in range(25):
        if i % 4 == 3:
            lines.append("garbage,5s,self,S,")
            expected.append("error")
        else:
            seat = "ESWN"[i % 4]
            lines.append(f"123m456p46s55s111z,5s,self,{seat},")
            expected.append(seat)
    summary, out = run_text("\n".join(lines) + "\n", chunk=4)
    rows = rows_of(out)
    assert len(rows) == 25 and summary.failed == 6
    for row, exp in zip(rows, expected, strict=False):
        assert (row["error"] != "") == (exp == "error")
        if exp != "error":
            assert row["seat"] == exp and int(row[f"pay_{exp}"]) > 0


def test_bad_rows_keep_going_with_messages():
    text = (
        "hand,win,how,seat,from,bao,base\n"
        "123m456p46s55s111z,5s,discard,S,,,\n"  # no discarder
        "123m456p46s55s111z,5s,self,S,,,x\n"  # bad base
        "123m456p46s55s111z,5s,self,Q,,,\n"  # bad seat
        "123m456p46s55s111z,5s,self,S,,,,extra\n"  # too many cells
        "123m456p46s55s111z,5s\n"  # short row: the rest defaults
    )
    summary, out = run_text(text)
    rows = rows_of(out)
    assert summary.failed == 4 and len(rows) == 5
    assert "discarder" in rows[0]["error"] and "base" in rows[1]["error"]
    assert "seat" in rows[2]["error"] and "cells" in rows[3]["error"]
    assert rows[4]["error"] == "" and rows[4]["legal"] == "true"


def test_headerless_and_aliases():
    _, out = run_text("123m456p46s55s111z,5s,self,S\n")
    assert rows_of(out)[0]["pay_S"] == "32"
    _, out = run_text("hand,win,by,winner,discarder,id\n123m456p46s55s111z,5s,discard,S,W,17\n")
    row = rows_of(out)[0]
    assert row["id"] == "17" and row["pay_W"] == "-8"


def test_needs_a_hand_column():
    with pytest.raises(UsageError):
        run_text("win,how\n5s,self\n")


def test_json_lines():
    summary, out = run_text(EXAMPLE.read_text(encoding="utf-8"), as_json=True)
    lines = [json.loads(x) for x in out.splitlines()]
    assert len(lines) == 8
    assert lines[0]["payments"] == {"E": -32, "S": 64, "W": -16, "N": -16}
    assert lines[0]["fan_items"][0] == {
        "name": "win",
        "name_zh": "平胡",
        "fan": 1,
        "seats": ["E", "W", "N"],
    }
    assert lines[7]["error"] and "legal" not in lines[7]


def test_variant_applies():
    text = "hand,win,how,seat,from\n123m456p46s55s111z,5s,discard,S,W\n"
    _, out = run_text(text, rules="quanbao")
    row = rows_of(out)[0]
    assert [row[f"pay_{s}"] for s in "ESWN"] == ["0", "20", "-20", "0"]


def random_rows(n, seed):
    rng = random.Random(seed)
    names = [f"{i}{s}" for s in "mps" for i in range(1, 10)] + [f"{i}z" for i in range(1, 8)]
    rows = []
    for _ in range(n):
        tiles = []
        for _ in range(4):
            if rng.random() < 0.5:
                tiles += [rng.randrange(34)] * 3
            else:
                s, r = rng.randrange(3), rng.randrange(7)
                tiles += [s * 9 + r + i for i in range(3)]
        tiles += [rng.randrange(34)] * 2
        win = tiles.pop(rng.randrange(14))
        rng.shuffle(tiles)
        hand = "".join(names[t] for t in tiles)
        how = rng.choice(("self", "discard", "mobao", "duibao"))
        seat = rng.choice("ESWN")
        frm = rng.choice([s for s in "ESWN" if s != seat]) if how == "discard" else ""
        bao = (
            names[rng.randrange(34)] if how == "mobao" else (names[win] if how == "duibao" else "")
        )
        w = "" if how == "mobao" else names[win]
        if rng.random() < 0.2:
            hand += w  # complete 14-tile form
        if rng.random() < 0.1:
            hand = hand.replace("1z", "东")  # the Python path
        rows.append([hand, w, how, seat, frm, bao, str(rng.choice((1, 3)))])
    return rows


@pytest.mark.parametrize("preset", ["default", "kuansong", "quanbao", "yijiafu"])
def test_batch_agrees_with_score(preset):
    v = load_variant(preset)
    rows = random_rows(300, seed=sum(map(ord, preset)))  # stable across runs (not hash())
    text = "hand,win,how,seat,from,bao,base\n" + "\n".join(",".join(r) for r in rows) + "\n"
    _, out = run_text(text, rules=v, chunk=64)
    got = rows_of(out)
    assert len(got) == len(rows)
    for r, g in zip(rows, got, strict=False):
        hand, w, how, seat, frm, bao, base = r
        try:
            s = S.score(hand, w or None, how, seat, frm or None, bao or None, int(base), rules=v)
        except CcmjError as e:
            assert g["error"] == B._in_columns(e.message)
            continue
        assert g["error"] == "", g
        assert g["legal"] == ("true" if s.legal else "false")
        assert g["reasons"] == ";".join(s.reasons)
        assert [int(g[f"pay_{x}"]) for x in "ESWN"] == [s.total_amount[x] for x in "ESWN"]
        assert [int(g[f"fan_{x}"]) for x in "ESWN"] == [s.fan_by_seat[x] for x in "ESWN"]
        assert g["stands_for"] == (s.stands_for or "")
        assert g["fan_items"] == " ".join(f"{i.name}:{i.fan}" for i in s.fan_items)


# --- CLI ----------------------------------------------------------------------------------


def test_cli_exit_4_and_output_file(tmp_path):
    out = tmp_path / "out.csv"
    res = runner.invoke(app, ["batch", str(EXAMPLE), "-o", str(out)])
    assert res.exit_code == 4 and "1 of 8" in res.stderr
    assert len(rows_of(out.read_text(encoding="utf-8"))) == 8


def test_cli_stdin_stdout_json():
    text = "hand,win,how,seat\n123m456p46s55s111z,5s,self,S\n"
    res = runner.invoke(app, ["batch", "-", "--json"], input=text)
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["total"] == {"E": -16, "S": 32, "W": -8, "N": -8}
    res = runner.invoke(app, ["batch", "-", "-o", "-"], input=text)
    assert res.exit_code == 0 and rows_of(res.stdout)[0]["pay_S"] == "32"


def test_cli_missing_file():
    res = runner.invoke(app, ["batch", "/nonexistent/x.csv"])
    assert res.exit_code == 2 and res.stderr.startswith("error: ")


@pytest.mark.parametrize("preset", ["default", "quanbao"])
def test_batch_json_agrees_with_score(preset):
    v = load_variant(preset)
    rows = random_rows(200, seed=7 + len(preset))
    text = "hand,win,how,seat,from,bao,base\n" + "\n".join(",".join(r) for r in rows) + "\n"
    _, out = run_text(text, rules=v, as_json=True, chunk=50)
    got = [json.loads(x) for x in out.splitlines()]
    assert len(got) == len(rows)
    for r, g in zip(rows, got, strict=True):
        hand, w, how, seat, frm, bao, base = r
        try:
            s = S.score(hand, w or None, how, seat, frm or None, bao or None, int(base), rules=v)
        except CcmjError as e:
            assert g["error"] == B._in_columns(e.message)
            continue
        # every `ccmj score --json` field, the same values; the row's cells under "input"
        assert g.pop("error") is None
        assert g.pop("input") == dict(
            zip(("hand", "win", "how", "seat", "from", "bao", "base"), r, strict=True)
        )
        assert g == s.to_dict()


def test_json_rows_with_kongs_and_declared_agree_with_score():
    # the example file has a kongs cell (row 4), a concealed 大蛋 in the hand (row 6) and a
    # declared discarder (row 7): each JSON line is `ccmj score --json` for the same options
    _, out = run_text(EXAMPLE.read_text(encoding="utf-8"), as_json=True)
    got = [json.loads(x) for x in out.splitlines()]
    rows = rows_of(EXAMPLE.read_text(encoding="utf-8"))
    for r, g in zip(rows, got, strict=True):
        assert g.pop("input") == r
        try:
            s = S.score(
                r["hand"],
                r["win"] or None,
                r["how"],
                r["seat"],
                r["from"] or None,
                r["bao"] or None,
                int(r["base"]),
                r["kongs"] or None,
                r["declared"] == "1",
            )
        except CcmjError as e:
            assert g == {"error": B._in_columns(e.message)}
            continue
        assert g.pop("error") is None
        assert g == s.to_dict()
    assert got[3]["kongs"] == [
        {"seat": "E", "meld": "(5555m)", "value": 2},
        {"seat": "W", "meld": "[1234z]", "value": 1},
    ]


@pytest.mark.parametrize(
    "header", ["hand,win,by,how", "hand,win,from,discarder", "hand,seat,winner", "hand,Hand"]
)
def test_a_column_named_twice_is_refused(header):
    # which of the two cells counts would be a guess: a one-line usage error, exit 2
    res = runner.invoke(app, ["batch", "-"], input=f"{header}\n123m456p46s55s111z,5s,self,S\n")
    assert res.exit_code == 2, res.output
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "more than once" in lines[0]
    assert res.stdout == ""


def test_large_bases_are_exact_in_a_mixed_chunk():
    # base 1, 2**62 (amount x base > int64), 10**30 (beyond int64) side by side in one chunk:
    # S wins 123m456p46s55s111z on a self-drawn 5s (门清+夹+自摸: 8 each, dealer 16; RULES §5)
    bases = [1, 2**62, 10**30, 3]
    text = "hand,win,base\n" + "".join(f"123m456p46s55s111z,5s,{b}\n" for b in bases)
    for as_json in (False, True):
        summary, out = run_text(text, as_json=as_json)
        assert summary.failed == 0
        if as_json:
            got = [
                [d["total_amount"][x] for x in "ESWN"] for d in map(json.loads, out.splitlines())
            ]
            assert [json.loads(x)["base"] for x in out.splitlines()] == bases
        else:
            got = [[int(r[f"pay_{x}"]) for x in "ESWN"] for r in rows_of(out)]
        assert got == [[-16 * b, 32 * b, -8 * b, -8 * b] for b in bases]


def test_blank_lines_bom_and_bad_bytes():
    # blank lines (before the header too) are not rows; a BOM read as text is dropped
    text = "\n\ufeffhand,win\n\n123m456p46s55s111z,5s\n\n\n123m456p46s55s111z,5s\n"
    summary, out = run_text(text)
    assert (summary.rows, summary.failed) == (2, 0)
    assert [r["pay_S"] for r in rows_of(out)] == ["32", "32"]
    # a byte that is not UTF-8 in any cell: that row is in error, the others are scored
    data = b"hand,win,id\n123m456p46s55s111z,5s,a\xe9\n123m456p46s55s111z,5s,b\n"
    for args, skip in ((["batch", "-"], 1), (["batch", "-", "--json"], 0)):  # skip the header
        res = runner.invoke(app, args, input=data)
        assert res.exit_code == 4 and "Traceback" not in res.output
        first, second = res.stdout.splitlines()[skip:]
        assert "not valid UTF-8" in first and "0xe9" in first
        assert "not valid UTF-8" not in second


@pytest.mark.parametrize("as_json", [False, True])
def test_a_header_naming_any_column_twice_is_an_error(as_json):
    """An extra column named twice: the JSON "input" object kept only the last value."""
    from typer.testing import CliRunner

    from ccmj_cli.cli import app

    data = "hand,win,how,note,Note\n123m456p789s1123s,4s,self,first,second\n"
    r = CliRunner().invoke(app, ["batch", "-", *(["--json"] if as_json else [])], input=data)
    assert r.exit_code == 2, r.output
    assert r.stderr.strip() == (
        "error: the CSV header names the 'note' column more than once (note, Note)"
    )
    assert r.stdout == ""


@pytest.mark.parametrize(("sep", "name"), [(";", "semicolons"), ("\t", "tabs")])
def test_a_csv_separated_by_semicolons_or_tabs_is_one_clear_error(sep, name):
    """It failed on every row with "the winning tile is needed"."""
    data = sep.join(["hand", "win", "how"]) + "\n" + sep.join(["123m456p789s1123s", "4s", "self"])
    r = runner.invoke(app, ["batch", "-"], input=data + "\n")
    assert r.exit_code == 2, r.output
    shown = sep.replace("\t", "\\t")
    assert r.stderr.strip() == (
        f"error: the CSV is separated by {name}, not commas: save it comma-separated "
        f"(e.g. tr '{shown}' ',' < FILE)"
    )
    assert r.stdout == ""


def test_batch_help_names_every_input_column():
    """The help listed the columns without `looked`."""
    r = runner.invoke(app, ["batch", "--help"], env={"COLUMNS": "250"})
    assert r.exit_code == 0
    assert ",".join(B.INPUT_COLUMNS[:7]) + "[," + ",".join(B.INPUT_COLUMNS[7:]) + "]" in r.stdout


def test_batch_output_refuses_a_write_protected_file_unless_forced(tmp_path, monkeypatch):
    """As a non-root user a shell's `>` refuses a write-protected file; batch -o replaced it.
    The tests run as root (who may write anything): the permission is mocked."""
    import ccmj_cli.cli.files as files

    out = tmp_path / "result.csv"
    out.write_text("the protected result\n")
    out.chmod(0o444)
    real = files.os.access
    protected = str(out.resolve())
    monkeypatch.setattr(
        files.os, "access",
        lambda p, mode: False if (str(p), mode) == (protected, files.os.W_OK) else real(p, mode),
    )  # fmt: skip
    wins = str(Path(__file__).parents[1] / "examples" / "wins.csv")
    r = runner.invoke(app, ["batch", wins, "-o", str(out)])
    assert r.exit_code == 2, r.output
    assert r.stderr.strip() == f"error: '{out}' is write-protected: give --force to replace it"
    assert out.read_text() == "the protected result\n"
    r = runner.invoke(app, ["batch", wins, "-o", str(out), "--force"])
    assert r.exit_code == 4, r.output  # (examples/wins.csv holds a bad row on purpose)
    assert out.read_text().startswith("hand,win,how")


def test_row_errors_name_the_csv_columns_not_the_score_flags():
    """A batch row has columns, not `ccmj score` flags: each bad option is named as its column
    (`from`, `bao`, `win`, `kongs`), and no message names a flag."""
    text = (
        "hand,win,how,seat,from,bao,kongs\n"
        "123m456p46s55s111z,5s,discard,S,,,\n"  # a discard win with no discarder
        "123m456p46s55s111z,5s,self,S,W,,\n"  # a discarder on a self-draw
        "123m456p46s55s111z,,mobao,S,,,\n"  # 摸宝 with no bao
        "123m456p46s55s111z,5s,self,S,,9p,\n"  # a bao on a self-draw
        "123m456p46s55s111z,,self,S,,,\n"  # no winning tile
        "123m456p46s55s111z,5s,self,S,,,E\n"  # a kongs item without melds
        "123m456p46s55s111z,6s,duibao,S,,5s,\n"  # 对宝 on another tile than the bao
    )
    summary, out = run_text(text)
    errors = [r["error"] for r in rows_of(out)]
    assert summary.failed == 7, errors
    for e in errors:
        assert "--" not in e, e
    assert "'from' column" in errors[0] and errors[1].startswith("'from' is only")
    assert "'bao' column" in errors[2] and errors[3].startswith("'bao' is only")
    assert "'win' column" in errors[4] and errors[5].startswith("bad kongs item")
    assert "'win' must equal 'bao'" in errors[6]
