"""ccmj: rules analyzer for Changchun mahjong (长春麻将).

The Python API: ``parse_hand``, ``waits``, ``check``, ``shanten`` (dataclasses) and the bulk
array functions ``shanten_many`` / ``waits_many``. Imports are lazy so the CLI starts fast.
"""

__version__ = "0.1.0"

_API = {
    "parse_hand": "tiles",
    "format_hand": "tiles",
    "waits": "hand",
    "check": "hand",
    "shanten": "hand",
    "shanten_many": "hand",
    "waits_many": "hand",
    "load_variant": "rules",
}
__all__ = [*_API, "__version__"]


def __getattr__(name):
    if name in _API:
        import importlib

        return getattr(importlib.import_module(f".{_API[name]}", __name__), name)
    raise AttributeError(name)
