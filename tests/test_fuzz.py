"""Fuzz: random text, random bytes and near-miss hands never give a traceback.

Through the CLI: exit code in {0, 1, 2} (4 for a batch with bad lines), no "Traceback", and the
only exception CliRunner sees is SystemExit. Through the API: only CcmjError is raised.
"""

import contextlib
import json

import strategies as S
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from ccmj_cli import hand as H
from ccmj_cli.cli import app
from ccmj_cli.errors import CcmjError

runner = CliRunner()

NOTATION = "0123456789mpsz[]() 东南西北白发中發万饼筒条索"
ALPHABET = NOTATION + "abxyZ-_,.;:'\"\\/\t\n\x00\u3000１２ⅠⅡ⑤🀄"


def no_traceback(r, codes=(0, 1, 2)):
    assert r.exit_code in codes, (r.exit_code, r.output, r.exception)
    assert "Traceback" not in r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    if r.exit_code == 2 and r.stderr.startswith("error: "):
        assert r.stderr.count("\n") == 1, r.stderr  # one-line message


@st.composite
def near_miss(draw):
    """A valid hand text with a few random edits (delete, insert, replace, swap, duplicate)."""
    text, win, _, _ = draw(S.tenpai_hands())
    chars = list(text)
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["del", "ins", "rep", "swap", "dup"]))
        i = draw(st.integers(0, max(len(chars) - 1, 0)))
        if op == "del" and chars:
            del chars[i]
        elif op == "ins":
            chars.insert(i, draw(st.sampled_from(NOTATION)))
        elif op == "rep" and chars:
            chars[i] = draw(st.sampled_from(NOTATION))
        elif op == "swap" and len(chars) > 1:
            j = draw(st.integers(0, len(chars) - 1))
            chars[i], chars[j] = chars[j], chars[i]
        elif op == "dup" and chars:
            j = draw(st.integers(i, min(len(chars), i + 4)))
            chars[i:i] = chars[i:j]
    return "".join(chars), S.name(win)


hand_like = st.one_of(
    st.text(alphabet=ALPHABET, max_size=40),
    st.text(max_size=30),
    st.binary(max_size=40).map(lambda b: b.decode("utf-8", "surrogateescape")),
    near_miss().map(lambda x: x[0]),
)
tile_like = st.one_of(
    st.sampled_from(["1m", "9p", "5z", "7z", "8z", "0m", "中", "m", "", "1m1m", "10m"]),
    st.text(alphabet=ALPHABET, max_size=5),
)


@settings(max_examples=S.examples(150))
@given(st.sampled_from(["waits", "shanten"]), hand_like, st.booleans())
def test_cli_hand_commands_never_traceback(cmd, text, as_json):
    if text.startswith("-"):
        text = " " + text  # an option-looking argument is a usage error in Click, also fine
    r = runner.invoke(app, [cmd, text] + (["--json"] if as_json else []))
    no_traceback(r)
    if as_json and r.exit_code == 0:
        json.loads(r.stdout)


@settings(max_examples=S.examples(150))
@given(hand_like, tile_like, st.booleans())
def test_cli_check_never_traceback(text, win, as_json):
    args = ["check"] + [" " + a if a.startswith("-") else a for a in (text, win)]
    r = runner.invoke(app, args + (["--json"] if as_json else []))
    no_traceback(r)


@settings(max_examples=S.examples(100))
@given(near_miss(), st.booleans())
def test_cli_near_miss_check(h, as_json):
    text, win = h
    r = runner.invoke(app, ["check", text, win] + (["--json"] if as_json else []))
    no_traceback(r)


line_like = st.one_of(
    hand_like.map(lambda x: x.encode("utf-8", "surrogateescape")),
    st.binary(max_size=40),
    near_miss().map(lambda x: " ".join(x).encode()),
)


@settings(max_examples=S.examples(60))
@given(st.sampled_from(["waits", "check", "shanten"]), st.lists(line_like, min_size=1, max_size=6))
def test_cli_batch_never_traceback(cmd, lines):
    # stdin is bytes: undecodable lines must become error objects too
    lines = [x.replace(b"\n", b" ").replace(b"\r", b" ") for x in lines]
    r = runner.invoke(app, [cmd, "-", "--json"], input=b"\n".join(lines) + b"\n")
    no_traceback(r, codes=(0, 4))
    out = r.stdout.split("\n")[:-1]  # JSON lines end in \n (str.splitlines also splits on U+0085)
    # one JSON object per non-blank input line
    blank = sum(1 for x in lines if not x.decode("utf-8", "replace").strip())
    assert len(out) == len(lines) - blank
    for line in out:
        json.loads(line)


@settings(max_examples=S.examples(200))
@given(hand_like, tile_like)
def test_api_raises_only_ccmj_errors(text, win):
    for call in (lambda: H.waits(text), lambda: H.shanten(text), lambda: H.check(text, win)):
        with contextlib.suppress(CcmjError):  # the only exception allowed
            call()


@settings(max_examples=S.examples(80))
@given(st.sampled_from(["waits", "shanten"]), near_miss(), st.text(alphabet=ALPHABET, max_size=12))
def test_cli_visible_option_never_traceback(cmd, h, visible):
    text, _ = h
    if visible.startswith("-"):
        visible = " " + visible
    r = runner.invoke(app, [cmd, text, "--visible", visible, "--json"])
    no_traceback(r)
