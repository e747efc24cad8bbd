"""The examples in the package's docstrings run and give what they show.

Only the modules that HAVE doctests are parametrised (a module without any would pass for
nothing); each listed module must hold at least one example, and a ``>>>`` anywhere else in the
package fails ``test_every_doctest_is_listed`` (add the module to DOCTEST_MODULES).
"""

import doctest
import importlib
from pathlib import Path

import pytest

import ccmj_cli

DOCTEST_MODULES = (
    "ccmj_cli.bao",
    "ccmj_cli.batch",
    "ccmj_cli.exact",
    "ccmj_cli.hand",
    "ccmj_cli.odds",
    "ccmj_cli.referee",
    "ccmj_cli.scoring",
    "ccmj_cli.tiles",
)  # (simulate's examples are all +SKIP: they would compile the table engine)
PACKAGE = Path(ccmj_cli.__file__).parent


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _runs_examples(text: str) -> bool:
    """Whether ``text`` holds a ``>>>`` example that doctest would run (not ``+SKIP``)."""
    return any(
        line.lstrip().startswith(">>> ") and "doctest: +SKIP" not in line
        for line in text.splitlines()
    )


def test_every_doctest_is_listed():
    # by the source text, so a doctest in a jitted kernel's docstring (which doctest's finder
    # does not see: a Numba dispatcher is not a function) is caught too
    with_examples = {
        _module_name(p) for p in PACKAGE.rglob("*.py") if _runs_examples(p.read_text("utf-8"))
    }
    assert with_examples == set(DOCTEST_MODULES)


@pytest.mark.parametrize("name", DOCTEST_MODULES)
def test_doctests(name):
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as e:  # an optional extra (e.g. dask) that is not installed
        if e.name and not e.name.startswith("ccmj_cli"):
            pytest.skip(f"optional dependency {e.name} not installed")
        raise
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0, f"{name} is listed but has no doctest"
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"
