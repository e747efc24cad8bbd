"""Shared pytest set-up: the Hypothesis profile and variant fixtures."""

import os
import sys
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
