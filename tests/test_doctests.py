"""The examples in the package's docstrings run and give what they show."""

import doctest
import importlib
import pkgutil

import pytest

import ccmj_cli


def _modules():
    names = []
    for info in pkgutil.walk_packages(ccmj_cli.__path__, "ccmj_cli."):
        if info.name.endswith("__main__"):
            continue  # importing it runs the CLI
        names.append(info.name)
    return sorted(names)


@pytest.mark.parametrize("name", _modules())
def test_doctests(name):
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as e:  # an optional extra (e.g. dask) that is not installed
        if e.name and not e.name.startswith("ccmj_cli"):
            pytest.skip(f"optional dependency {e.name} not installed")
        raise
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"
