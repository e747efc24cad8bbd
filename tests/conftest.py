"""Shared pytest set-up: one compiled-kernel cache for the whole session (warmed once), the
Hypothesis profile and variant fixtures."""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

sys.path.insert(0, str(Path(__file__).parent))  # `import naive`, `import strategies`

# JIT compilation on first call trips Hypothesis deadlines: never use them.
settings.register_profile(
    "ccmj",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ccmj"))


@pytest.fixture(scope="session")
def default_variant():
    from ccmj_cli.rules import load_variant

    return load_variant()


@pytest.fixture
def make_variant(tmp_path):
    """Write a variant YAML (options over the defaults) and load it like `--rules FILE`."""
    import yaml

    from ccmj_cli.rules import load_variant

    def make(**options):
        path = tmp_path / f"v{len(list(tmp_path.iterdir()))}.yaml"
        path.write_text(yaml.safe_dump(options, allow_unicode=True), encoding="utf-8")
        return load_variant(str(path))

    return make


# --- one compiled cache for the session ------------------------------------------------------
#
# Every process of a run (this one, the xdist workers, every `ccmj` a test starts) runs this
# checkout's source (PYTHONPATH) and finds the compiled kernels in one cache folder:
# CCMJ_CACHE_DIR, set here for all of them (as the user set it, else the folder ccmj would
# pick), so a test that changes HOME still shares it. Before the first test, `ccmj warm-up`
# fills it — the table engine in one process, the hand, batch, odds and referee kernels in
# another (its default on two cores), so a cold compile uses both cores once instead of every
# worker and subprocess compiling the same kernels. With a warm cache this takes seconds. It
# runs when the whole suite runs (no test paths given), or with CCMJ_WARM_UP=1;
# CCMJ_WARM_UP=0 skips it.


def _whole_suite(config) -> bool:
    flag = os.environ.get("CCMJ_WARM_UP", "")
    if flag in ("0", "1"):
        return flag == "1"
    paths = [a for a in config.invocation_params.args if not a.startswith("-") and
             os.path.exists(a.split("::")[0])]  # fmt: skip
    return not paths or all(Path(p).resolve() == Path(__file__).parent for p in paths)


def pytest_configure(config):
    if hasattr(config, "workerinput"):  # an xdist worker: the controller has done this
        return
    from ccmj_cli._kernels.cache import cache_dir

    os.environ.setdefault("CCMJ_CACHE_DIR", str(cache_dir()))
    # Every process runs this checkout's ccmj_cli, the `ccmj` program on PATH too (a README
    # example): after a plain `pip install .` it would import the installed copy, and Numba
    # keys its cache by the source file's path, so that copy would compile every kernel again.
    root = Path(__file__).resolve().parents[1]
    paths = [str(root), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    os.environ["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))
    if not _whole_suite(config):
        return
    env = dict(os.environ)
    env.pop("CCMJ_JIT", None)
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, "-m", "ccmj_cli", "warm-up", "--jobs", "2"], cwd=root,
                       env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True)  # fmt: skip
    took = time.perf_counter() - t0
    sys.stderr.write(f"ccmj warm-up: {took:.0f} s (kernels in {os.environ['CCMJ_CACHE_DIR']})\n")
    if p.returncode != 0:  # not fatal: the tests compile what they need
        sys.stderr.write(f"ccmj warm-up failed:\n{p.stderr[-2000:]}\n")
