"""The variant: load, merge and validate YAML into a frozen ``Variant`` and its kernel vector.

The defaults are package data (``data/default.yaml``); presets live in ``data/presets/``. A user
file overrides any subset of keys and may name its base with ``extends: NAME``. An unknown key, a
wrong type or a bad value raises VariantError naming the key path (exit 3).
"""

import os
from dataclasses import dataclass
from functools import cached_property
from importlib import resources
from pathlib import Path
from types import MappingProxyType

import numpy as np
import yaml

from ._kernels import layout as L
from .errors import VariantError
from .tiles import MeldRules

JIAHU_MODES = ("any", "single_wait", "shape", "shape_duanyaojiu")
DIANPAO_MODES = ("all_pay", "discarder_only", "discarder_covers_all")
HAOHUA_MODES = ("any_quad", "wait_completes_quad")
XIAOJI_MODES = ("one", "any")  # with xiaoji_feidan: XIAOJI_ONE, XIAOJI_ANY
TIMING_MODES = ("deal", "first_turn", "first_draw")
BAO_CHANGE_MODES = ("always", "optional")
BAO_PLACE_MODES = ("any_stack", "top_six", "tile")
WALL_END_MODES = ("reserve", "win_only_four")
FAN_KEYS = ("win", "menqing", "jiahu", "piao", "zimo", "bao", "dealer", "dianpao", "qidui",
            "haohua", "chongbao", "piaoding")  # fmt: skip
KONG_KEYS = ("ming", "an", "special", "bu", "dadan_open", "dadan_concealed")

# key -> (kind, allowed): kind is bool, int, str (allowed lists the values), or a dict's keys
SCHEMA = {
    "jiahu": ("str", JIAHU_MODES),
    "piao_stacks_with_jia": ("bool", None),
    "special_kong_is_pung": ("bool", None),
    "special_kong_breaks_menqing": ("bool", None),
    "open_kong_breaks_menqing": ("bool", None),
    "dragon_pair_is_pung": ("bool", None),
    "quemen": ("bool", None),
    "piao_exempt": ("bool", None),
    "qidui": ("bool", None),
    "qidui_jiahu": ("bool", None),
    "haohua": ("str", HAOHUA_MODES),
    "shoubayi_ankong_concealed": ("bool", None),
    "sanfeng_dan": ("bool", None),
    "xiaoji_feidan": ("bool", None),
    "xiaoji_wildcard": ("str", XIAOJI_MODES),
    "xiaoji_is_suit_tile": ("bool", None),
    "sanyaoji": ("bool", None),
    "dadan_laid": ("bool", None),
    "xi_bu_any_honor": ("bool", None),
    "one_special_kong_per_kind": ("bool", None),
    "special_kong_timing": ("str", TIMING_MODES),
    "bao_forbidden_without_yaojiu": ("bool", None),
    "duanyaojiu_may_declare": ("bool", None),
    "bao_dice": ("int", (1, 2)),
    "bao_change": ("str", BAO_CHANGE_MODES),
    "bao_place": ("str", BAO_PLACE_MODES),
    "wall_end": ("str", WALL_END_MODES),
    "guoshui": ("bool", None),
    "shoubayi_no_claim": ("bool", None),
    "dealin_declaration_counts": ("bool", None),
    "mobao_must_win": ("bool", None),
    "bao_kong": ("bool", None),
    "declared_kong_keeps_pattern": ("bool", None),
    "shoubayi_piaoding_only": ("bool", None),
    "chongbao_double": ("bool", None),
    "dianpao": ("str", DIANPAO_MODES),
    "cover_only_undeclared": ("bool", None),
    "cover_needs_look": ("bool", None),
    "dealer_dianpao_stacks": ("bool", None),
    "cap_fan": ("int_or_null", (1, 30)),
    "stakes": ("ladder", (1, L.MAX_STAKES)),
    "fan": ("ints", FAN_KEYS),
    "kong": ("ints", KONG_KEYS),
    "dead_wall_stacks": ("int", (0, 17)),
}
PRESET_DIR = "presets"
MAX_FAN = 62  # payments are 2^(fan - 1) in 64-bit integers
MAX_STAKE = 2**52  # the largest amount of a stake ladder (payments stay exact in int64)


_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when built with it: 10x faster
# A variant file is a few dozen lines: anything far larger, deeper or with anchors is refused
# before it is built (a 300-byte "billion laughs" of nested aliases expands to gigabytes).
MAX_FILE_BYTES = 64 * 1024
MAX_EVENTS = 4096  # YAML parse events: scalars, mapping and sequence starts and ends
MAX_DEPTH = 8  # nested mappings/sequences (a variant has two levels)
MAX_EXTENDS = 16  # files in one extends chain
QUOTE = 80  # at most this many characters of a value in an error message


def _quote(value) -> str:
    """``repr(value)``, cut to about QUOTE characters (the structure is bounded, so repr is).
    A long string keeps both ends and its quotes (a deep path still shows its file name, and
    the rest of the message is not read as part of it)."""
    text = repr(value)
    if len(text) <= QUOTE:
        return text
    if isinstance(value, str):
        head = (QUOTE - 5) // 3
        return repr(value[:head] + "..." + value[-(QUOTE - 5 - head) :])
    return text[: QUOTE - 3] + "..."


class _DuplicateKey(yaml.YAMLError):
    def __init__(self, key, mark):
        self.key, self.problem_mark = key, mark


class _Loader(_LOADER):
    """The safe loader, refusing a mapping that names a key twice (YAML says keys are unique;
    PyYAML keeps the last one silently)."""

    def construct_mapping(self, node, deep=False):
        if isinstance(node, yaml.MappingNode):
            seen = set()
            for key_node, _ in node.value:
                key = self.construct_object(key_node, deep=True)
                try:
                    duplicate = key in seen
                    seen.add(key)
                except TypeError:  # unhashable: the base class reports it
                    continue
                if duplicate:
                    raise _DuplicateKey(key, key_node.start_mark)
        return super().construct_mapping(node, deep=deep)


def _refuse_bombs(text: str, origin: str) -> None:
    """Refuse anchors and aliases (never needed in a variant file, and the way to a YAML bomb),
    and more events or nesting than a variant file can have, before anything is built."""
    depth = events = 0
    try:
        for event in yaml.parse(text, Loader=_LOADER):
            events += 1
            if events > MAX_EVENTS:
                raise VariantError(f"{origin}: too large for a variant file")
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                line = event.start_mark.line + 1
                raise VariantError(
                    f"{origin}: anchors and aliases (&, *) are not allowed (line {line})"
                )
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > MAX_DEPTH:
                    line = event.start_mark.line + 1
                    raise VariantError(f"{origin}: nested too deeply (line {line})")
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
    except yaml.YAMLError:
        return  # not valid YAML: the load below says so, with the line


def _read_yaml(text: str, origin: str, packaged: bool = False) -> dict:
    if not packaged:  # (the package's own files are known to be plain; ~1 ms a start saved)
        _refuse_bombs(text, origin)
    try:
        data = yaml.load(text, Loader=_Loader)
    except _DuplicateKey as e:
        line = e.problem_mark.line + 1
        raise VariantError(
            f"{origin}: key {_quote(e.key)} is given twice (line {line}); give each key once"
        ) from None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        line = f" (line {mark.line + 1})" if mark else ""
        raise VariantError(f"{origin}: not valid YAML{line}") from None
    except (ValueError, TypeError, OverflowError):  # e.g. an integer of 5,000 digits
        raise VariantError(f"{origin}: not valid YAML (a value cannot be read)") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise VariantError(f"{origin}: expected a mapping of option: value")
    return data


def _package_text(name: str) -> str | None:
    files = resources.files("ccmj_cli") / "data"
    path = files / "default.yaml" if name == "default" else files / PRESET_DIR / f"{name}.yaml"
    try:
        return path.read_text(encoding="utf-8") if path.is_file() else None
    except (OSError, ValueError):  # a name too long for a path, a NUL byte, ...
        return None


def preset_names() -> list[str]:
    folder = resources.files("ccmj_cli") / "data" / PRESET_DIR
    if not folder.is_dir():
        return ["default"]
    names = sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".yaml"))
    return ["default", *names]


def _check(key: str, value, origin: str):
    if key not in SCHEMA:
        raise VariantError(f"{origin}: unknown key {_quote(key)} (known: {', '.join(SCHEMA)})")
    kind, allowed = SCHEMA[key]

    def bad(what):
        return VariantError(f"{origin}: key '{key}': {what}, got {_quote(value)}")

    if kind == "bool":
        if not isinstance(value, bool):
            raise bad("expected true or false")
    elif kind == "str":
        if value not in allowed:
            raise bad(f"expected one of {' | '.join(allowed)}")
    elif kind in ("int", "int_or_null"):
        if value is None and kind == "int_or_null":
            return
        if isinstance(value, bool) or not isinstance(value, int):
            raise bad("expected a whole number" + (" or null" if kind == "int_or_null" else ""))
        lo, hi = allowed
        if not lo <= value <= hi:
            raise bad(f"expected {lo} to {hi}")
    elif kind == "ladder":
        if value is None:
            return
        lo, hi = allowed
        if not isinstance(value, list) or not lo <= len(value) <= hi:
            raise bad(f"expected null or a list of {lo} to {hi} amounts (for 1, 2, 3 ... fan)")
        for v in value:
            if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= MAX_STAKE:
                raise bad(f"expected positive whole numbers (at most 2^52), found {v!r}")
    elif kind == "ints":
        if not isinstance(value, dict):
            raise bad(f"expected a mapping with keys {', '.join(allowed)}")
        for sub, v in value.items():
            if sub not in allowed:
                raise VariantError(
                    f"{origin}: unknown key {_quote(f'{key}.{sub}')} (known: {', '.join(allowed)})"
                )
            if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 30:
                raise VariantError(
                    f"{origin}: key '{key}.{sub}': expected 0 to 30, got {_quote(v)}"
                )


def _merge(base: dict, over: dict, origin: str) -> dict:
    out = dict(base)
    for key, value in over.items():
        if key == "extends":
            continue
        _check(key, value, origin)
        if SCHEMA[key][0] == "ints":
            out[key] = {**base[key], **value}
        else:
            out[key] = value
    return out


def _preset_text(spec: str) -> str | None:
    """The packaged YAML of a preset name (None for anything that is not one)."""
    if "/" in spec or spec.endswith((".yaml", ".yml")):
        return None
    return _package_text(spec)


def _read_file(path: Path, spec: str, what: str = "variant file") -> str:
    """The text of a variant file (or another small YAML file: ``what``), read no further than
    MAX_FILE_BYTES."""
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_FILE_BYTES + 1)
    except OSError as e:
        raise VariantError(
            f"{what} {_quote(spec)}: cannot read ({e.strerror or e.__class__.__name__})"
        ) from None
    if len(raw) > MAX_FILE_BYTES:
        raise VariantError(
            f"{what} {_quote(spec)}: larger than {MAX_FILE_BYTES // 1024} KB, "
            f"too large for a {what}"
        )
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise VariantError(
            f"{what} {_quote(spec)}: not valid UTF-8 text (byte 0x{raw[e.start]:02x})"
        ) from None


def _is_file(path: Path) -> bool:
    """A regular file, a FIFO, /dev/stdin, <(...): anything readable but a folder."""
    try:
        return path.exists() and not path.is_dir()
    except (OSError, ValueError):  # (a name too long, a NUL in it)
        return False


def _is_folder(spec: str) -> bool:
    try:
        return bool(spec.strip()) and Path(spec).is_dir()
    except (OSError, ValueError):
        return False


def read_mapping(spec: str, what: str) -> dict:
    """A small YAML file of key: value (a policy file), read as strictly as a variant file:
    UTF-8, at most MAX_FILE_BYTES, no anchors, no key twice. VariantError names what is wrong."""
    path = Path(spec)
    if not _is_file(path):
        raise VariantError(f"{what} {_quote(spec)}: "
                           + ("a folder" if _is_folder(spec) else "no such file"))  # fmt: skip
    origin = f"{what} {_quote(spec)}"
    return _read_yaml(_read_file(path, spec, what), origin)


def _resolve(spec: str, chain: tuple = ()) -> tuple[dict, str]:
    """Raw merged mapping for a preset name or a file path. ``chain``: the (identity, name)
    of the variants that extend this one, to refuse an ``extends`` loop naming it."""
    text = _preset_text(spec)
    path = None
    if text is not None:
        origin, name, ident = f"preset '{spec}'", spec, ("preset", spec)
    else:
        path = Path(spec)
        if not _is_file(path):
            known = ", ".join(preset_names())
            if _is_folder(spec):
                raise VariantError(f"variant {_quote(spec)}: a folder, not a variant file")
            raise VariantError(f"variant {_quote(spec)}: no such file or preset (presets: {known})")
        text = _read_file(path, spec)
        origin, name = f"variant file {_quote(spec)}", path.stem
        if _package_text(path.stem) is not None:  # ./kuansong.yaml is not the preset kuansong
            name = spec
        ident = ("file", os.path.realpath(path))  # one file, however it is named
    if ident in (i for i, _ in chain):
        names = " -> ".join(n for _, n in chain)
        raise VariantError(f"{origin}: extends loop: {names} -> {spec}")
    if len(chain) >= MAX_EXTENDS:
        raise VariantError(f"{origin}: extends chain longer than {MAX_EXTENDS} files")
    data = _read_yaml(text, origin, packaged=path is None)
    if spec == "default":
        for key, value in data.items():
            _check(key, value, origin)
        return data, "default"
    base_name = data.get("extends", "default")
    if not isinstance(base_name, str) or not base_name.strip():
        raise VariantError(
            f"{origin}: key 'extends': expected a preset name or file, got {_quote(base_name)}"
        )
    if path is not None and _preset_text(base_name) is None and not Path(base_name).is_absolute():
        base_name = str(path.parent / base_name)  # a file extends its neighbours, wherever run
    try:
        base, _ = _resolve(base_name, chain + ((ident, spec),))
    except VariantError as e:
        if not str(e).startswith(f"variant {_quote(base_name)}:"):
            raise
        raise VariantError(f"{origin}: key 'extends': {e}") from None
    return _merge(base, data, origin), name


@dataclass(frozen=True)
class Variant:
    """An effective, validated variant (every key present)."""

    name: str
    options: MappingProxyType

    def __getattr__(self, key):
        try:
            return self.options[key]
        except KeyError:
            raise AttributeError(key) from None

    def to_dict(self) -> dict:
        def plain(v):
            if isinstance(v, MappingProxyType):
                return dict(v)
            return list(v) if isinstance(v, tuple) else v

        return {k: plain(v) for k, v in self.options.items()}

    @cached_property
    def meld_rules(self) -> MeldRules:
        """What a bracket of tiles forms under this variant (``tiles.parse_hand``)."""
        o = self.options
        return MeldRules(
            o["sanfeng_dan"],
            xiaoji_mode(o),
            o["xi_bu_any_honor"],
            o["one_special_kong_per_kind"],
            o["sanyaoji"],
            o["dadan_laid"],
        )

    @cached_property
    def vector(self) -> np.ndarray:
        """The rule vector (RV_* layout) every judgment and scoring kernel takes."""
        o = self.options
        rv = np.zeros(L.RV_LEN, np.int64)
        rv[L.RV_JIAHU] = JIAHU_MODES.index(o["jiahu"])
        rv[L.RV_PIAO_STACKS_WITH_JIA] = o["piao_stacks_with_jia"]
        rv[L.RV_SPECIAL_KONG_IS_PUNG] = o["special_kong_is_pung"]
        rv[L.RV_SPECIAL_KONG_BREAKS_MENQING] = o["special_kong_breaks_menqing"]
        rv[L.RV_QUEMEN] = o["quemen"]
        rv[L.RV_PIAO_EXEMPT] = o["piao_exempt"]
        rv[L.RV_QIDUI] = o["qidui"]
        rv[L.RV_QIDUI_JIAHU] = o["qidui_jiahu"]
        rv[L.RV_HAOHUA] = HAOHUA_MODES.index(o["haohua"])
        rv[L.RV_SHOUBAYI_ANKONG_CONCEALED] = o["shoubayi_ankong_concealed"]
        rv[L.RV_DUANYAOJIU_MAY_DECLARE] = o["duanyaojiu_may_declare"]
        rv[L.RV_COVER_NEEDS_LOOK] = o["cover_needs_look"]
        rv[L.RV_DEALER_DIANPAO_STACKS] = o["dealer_dianpao_stacks"]
        rv[L.RV_BAO_CHANGE] = BAO_CHANGE_MODES.index(o["bao_change"])
        rv[L.RV_SANFENG] = o["sanfeng_dan"]
        rv[L.RV_XIAOJI] = xiaoji_mode(o)
        rv[L.RV_XI_BU_ANY_HONOR] = o["xi_bu_any_honor"]
        rv[L.RV_ONE_SPECIAL_PER_KIND] = o["one_special_kong_per_kind"]
        rv[L.RV_SPECIAL_KONG_TIMING] = TIMING_MODES.index(o["special_kong_timing"])
        rv[L.RV_BAO_PLACE] = BAO_PLACE_MODES.index(o["bao_place"])
        rv[L.RV_WALL_END] = WALL_END_MODES.index(o["wall_end"])
        rv[L.RV_GUOSHUI] = o["guoshui"]
        rv[L.RV_SHOUBAYI_NO_CLAIM] = o["shoubayi_no_claim"]
        rv[L.RV_DEALIN_DECLARATION_COUNTS] = o["dealin_declaration_counts"]
        rv[L.RV_OPEN_KONG_BREAKS_MENQING] = o["open_kong_breaks_menqing"]
        rv[L.RV_XIAOJI_IS_SUIT_TILE] = o["xiaoji_is_suit_tile"]
        rv[L.RV_SANYAOJI] = o["sanyaoji"]
        rv[L.RV_DADAN_LAID] = o["dadan_laid"]
        rv[L.RV_MOBAO_MUST_WIN] = o["mobao_must_win"]
        rv[L.RV_BAO_KONG] = o["bao_kong"]
        rv[L.RV_DECLARED_KONG_KEEPS_PATTERN] = o["declared_kong_keeps_pattern"]
        rv[L.RV_SHOUBAYI_PIAODING_ONLY] = o["shoubayi_piaoding_only"]
        stakes = o["stakes"] or ()
        rv[L.RV_STAKES_LEN] = len(stakes)
        for i, amount in enumerate(stakes):
            rv[L.RV_STAKES_BASE + i] = amount
        rv[L.RV_BAO_FORBIDDEN_WITHOUT_YAOJIU] = o["bao_forbidden_without_yaojiu"]
        rv[L.RV_DRAGON_PAIR_IS_PUNG] = o["dragon_pair_is_pung"]
        rv[L.RV_DIANPAO] = DIANPAO_MODES.index(o["dianpao"])
        rv[L.RV_CAP_FAN] = o["cap_fan"] or 0
        rv[L.RV_CHONGBAO_DOUBLE] = o["chongbao_double"]
        rv[L.RV_COVER_ONLY_UNDECLARED] = o["cover_only_undeclared"]
        for i, key in enumerate(FAN_KEYS):
            rv[L.RV_FAN_BASE + i] = o["fan"][key]
        for i, key in enumerate(KONG_KEYS):
            rv[L.RV_KONG_BASE + i] = o["kong"][key]
        rv.setflags(write=False)
        return rv


def rule_vector(values) -> np.ndarray:
    """A rule vector from its values (a log's header): read-only int64, as ``Variant.vector``
    gives it. Every kernel then sees one array type; a writable rule vector would compile the
    whole engine once more for it (minutes, on a machine's first ``referee`` or ``replay``)."""
    rv = np.array(values, np.int64)
    rv.setflags(write=False)
    return rv


def xiaoji_mode(o) -> int:
    """The 幺鸡 mode (XIAOJI_*) of a variant's options: xiaoji_feidan, then xiaoji_wildcard."""
    if not o["xiaoji_feidan"]:
        return L.XIAOJI_OFF
    return L.XIAOJI_ONE if o["xiaoji_wildcard"] == "one" else L.XIAOJI_ANY


def max_charged_fan(o) -> int:
    """The largest fan one loser can be charged under the options ``o``: 平胡 + 门清 + the best
    hand items that stack (夹胡 and 飘胡 (+ 飘顶) only with piao_stacks_with_jia; 七对 + 豪华
    (+ 夹胡 under qidui_jiahu) with qidui) + the larger of 自摸 + 宝 (+ 冲宝) and 点炮, + 庄;
    capped by cap_fan."""
    f = o["fan"]
    piao = f["piao"] + f.get("piaoding", 0)
    jia_piao = f["jiahu"] + piao if o["piao_stacks_with_jia"] else max(f["jiahu"], piao)
    qidui = f["qidui"] + f["haohua"] + (f["jiahu"] if o["qidui_jiahu"] else 0) if o["qidui"] else 0
    self_draw = f["zimo"] + f["bao"] + (f["chongbao"] if o["chongbao_double"] else 0)
    top = f["win"] + f["menqing"] + max(jia_piao, qidui) + max(self_draw, f["dianpao"])
    top += f["dealer"]
    return min(top, o["cap_fan"]) if o["cap_fan"] else top


_CACHE: dict = {}


def load_variant(spec: str | None = None) -> Variant:
    """The variant for a preset name, a YAML path, or None (the default)."""
    spec = "default" if spec is None else spec
    if not spec.strip():
        raise VariantError("variant '': empty: give a preset name or a variant file")
    if spec not in _CACHE:
        data, name = _resolve(spec)
        missing = [k for k in SCHEMA if k not in data]
        if missing:
            raise VariantError(f"variant '{spec}': missing keys {', '.join(missing)}")
        top = sum(data["fan"].values())
        if data["stakes"] is None and data["cap_fan"] is None and top > MAX_FAN:
            raise VariantError(
                f"variant '{spec}': key 'fan': the fan values add up to {top}, more than the "
                f"{MAX_FAN} a payment of 2^(fan-1) can hold; lower them or set cap_fan"
            )
        if data["stakes"] is not None:
            charged = max_charged_fan(data)
            if charged > len(data["stakes"]):
                raise VariantError(
                    f"variant '{spec}': key 'stakes': {len(data['stakes'])} amounts, but a loser "
                    f"can be charged {charged} fan under these rules; "
                    + (f"give {charged} amounts or " if charged <= L.MAX_STAKES else "")
                    + f"set cap_fan to {min(len(data['stakes']), 30)} or lower"
                )
        frozen = {
            k: MappingProxyType(dict(v))
            if isinstance(v, dict)
            else tuple(v)
            if isinstance(v, list)
            else v
            for k, v in data.items()
        }
        _CACHE[spec] = Variant(name, MappingProxyType(frozen))
    return _CACHE[spec]
