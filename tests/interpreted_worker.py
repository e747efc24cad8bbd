"""ccmj's Python API with the kernels interpreted: one JSON request per stdin line, one JSON
answer per stdout line. Run by test_interpreted.py with CCMJ_JIT=0 and ``-W error``, so a numpy
warning (say, a uint8 wrapping where Numba would widen to int64) fails the comparison loudly."""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
# this checkout's ccmj_cli, not whichever one the interpreter has installed
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from strategies import variant_with  # noqa: E402

from ccmj_cli import bao, hand, scoring  # noqa: E402
from ccmj_cli._kernels import jit  # noqa: E402
from ccmj_cli.errors import CcmjError  # noqa: E402

FUNCTIONS = {"waits": hand.waits, "check": hand.check, "shanten": hand.shanten,
             "score": scoring.score, "bao": bao.bao}  # fmt: skip


def answer(request: dict) -> dict:
    fn = FUNCTIONS[request["fn"]]
    try:
        rules = variant_with(**request["options"])
        return fn(*request["args"], **request["kwargs"], rules=rules).to_dict()
    except CcmjError as e:
        return {"error": e.message}


if __name__ == "__main__":
    assert jit.INTERPRETED, "run with CCMJ_JIT=0"
    print(json.dumps({"numba_loaded": "numba" in sys.modules}), flush=True)
    for line in sys.stdin:
        print(json.dumps(answer(json.loads(line))), flush=True)
