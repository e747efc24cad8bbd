"""`ccmj actions` runs the table engine's source as plain Python (one position: no Numba
start-up). Beside the hand-made positions of test_actions, every position of real play must
get the same answer both ways: positions taken from simulated hands (`ccmj referee --at`) at
many events of each hand, under the default rules and two rooms, are answered compiled here
and interpreted in a child process with numpy's RuntimeWarnings as errors (a uint8 that wraps
where Numba widens to int64 fails loudly, not as a different answer)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ccmj_cli._kernels.table import layout as TL
from ccmj_cli.actions import legal_actions
from ccmj_cli.cli import app
from ccmj_cli.errors import UsageError
from ccmj_cli.referee import load_record, state_at

RULES = {"default": [], "mil2024": ["--preset", "mil2024"], "piaoding": ["--preset", "piaoding"]}

CHILD = (
    "import json, sys\n"
    "from ccmj_cli.actions import legal_actions\n"
    "cases = json.loads(sys.stdin.read())\n"
    "out = [legal_actions(c, explain=True) for c in cases]\n"
    "print(json.dumps({'numba': 'numba' in sys.modules, 'out': out}))\n"
)


def _positions(tmp_path, args, hands=8, step=3):
    """The position after every event of ``hands`` simulated hands (each must be one that
    `ccmj actions` reads: after a kong, before its replacement draw; after a 3-tile special
    kong, its seat still to discard); every ``step``-th one is returned. The hand's last event
    (a win or 荒庄) has no position: a clear error says so."""
    log = tmp_path / "x.log"
    r = CliRunner().invoke(app, ["simulate", "-n", str(hands), "--seed", "21", "--no-progress",
                                 "--log", str(log), *args])  # fmt: skip
    assert r.exit_code == 0, r.output
    rec = load_record(str(log))
    out = []
    for i, h in enumerate(rec.all_hands()):
        n = len(h.events)
        assert int(h.events[n - 1, 0]) in (TL.EV_WIN, TL.EV_HUANG)
        with pytest.raises(UsageError, match="ends the hand"):
            state_at(rec, i, n - 1)
        for e in range(n - 1):
            st = state_at(rec, i, e)
            assert "position" in st, (i, e, h.events[e].tolist(), st.get("position_error"))
            if e % step == 0 or e == n - 2:
                out.append(st["position"])
    return out


@pytest.mark.parametrize("which", list(RULES))
def test_simulated_positions_get_the_same_actions_interpreted(which, tmp_path):
    cases = _positions(tmp_path, RULES[which])
    assert len(cases) > 100
    env = {**os.environ, "CCMJ_JIT": "0"}
    r = subprocess.run([sys.executable, "-W", "error::RuntimeWarning", "-c", CHILD],
                       input=json.dumps(cases), capture_output=True, text=True, env=env,
                       check=False)  # fmt: skip
    assert r.returncode == 0, r.stderr[-2000:]
    got = json.loads(r.stdout)
    assert not got["numba"]
    want = json.loads(json.dumps([legal_actions(c, explain=True) for c in cases]))
    bad = [i for i, (a, b) in enumerate(zip(got["out"], want, strict=True)) if a != b]
    assert not bad, (len(bad), json.dumps(cases[bad[0]]), got["out"][bad[0]], want[bad[0]])
