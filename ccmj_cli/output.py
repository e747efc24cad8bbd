"""All rendering in one place: tables (tabulate), JSON, JSON lines and CSV."""

import csv
import io
import json

from tabulate import tabulate


def to_json(obj) -> str:
    """One compact JSON document (UTF-8 characters kept, keys in a stable order)."""
    return json.dumps(obj, ensure_ascii=False, separators=(", ", ": "))


def yes(flag) -> str:
    return "yes" if flag else "no"


def table(rows, headers, floatfmt="g") -> str:
    return tabulate(rows, headers=headers, tablefmt="simple", floatfmt=floatfmt, disable_numparse=True)


def fields(pairs) -> str:
    """A two-column key: value block."""
    return tabulate([(k, v) for k, v in pairs], tablefmt="plain")


def csv_text(rows: list[dict], columns: list[str]) -> str:
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=columns, extrasaction="ignore", lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    return buf.getvalue()


def tiles_list(items) -> str:
    """'1s×2 4s×4' for a list of {tile, live}."""
    return " ".join(f"{u['tile']}×{u['live']}" for u in items) if items else "-"


def render_waits(d: dict) -> str:
    head = fields(
        [
            ("hand", d["hand"]),
            ("tenpai", yes(d["tenpai"])),
            ("can look at bao", yes(d["can_look_bao"]) + (f" ({d['bao_reason']})" if d["bao_reason"] else "")),
            ("live legal waits", d["live_total"]),
        ]
    )
    if not d["waits"]:
        return head + "\n\nno structural waits"
    rows = [
        (w["tile"], yes(w["legal"]), ", ".join(w["reasons"]) or "-", w["live"], yes(w["jiahu"]), yes(w["piao"]))
        for w in d["waits"]
    ]
    return head + "\n\n" + table(rows, ["wait", "legal", "why not", "live", "夹胡", "飘胡"])


def render_check(d: dict) -> str:
    return fields(
        [
            ("hand", d["hand"]),
            ("win", d["win"]),
            ("legal", yes(d["legal"])),
            ("why not", ", ".join(d["reasons"]) or "-"),
            ("门清 menqing", yes(d["menqing"])),
            ("夹胡 jiahu", yes(d["jiahu"])),
            ("飘胡 piao", yes(d["piao"])),
            ("reading", " ".join(d["reading"]) or "-"),
        ]
        + ([("七对 qidui", "yes")] if d.get("qidui") else [])
    )


def render_shanten(d: dict) -> str:
    head = fields([("hand", d["hand"]), ("shanten", d["shanten"])])
    if "discards" not in d:
        return head + "\n" + fields([("useful", tiles_list(d["useful"])), ("total", d["useful_total"])])
    rows = []
    for x in d["discards"]:
        waits = "-" if x["legal_waits"] is None else f"{tiles_list(x['legal_waits'])} ({x['legal_waits_total']})"
        rows.append((x["tile"], x["shanten"], tiles_list(x["useful"]), x["useful_total"], waits))
    return head + "\n\n" + table(rows, ["discard", "shanten", "useful tiles", "total", "legal waits"])


def render_rules(d: dict, name: str) -> str:
    rows = []
    for k, v in d.items():
        if isinstance(v, dict):
            rows.extend((f"{k}.{sk}", sv) for sk, sv in v.items())
        else:
            rows.append((k, "null" if v is None else str(v).lower() if isinstance(v, bool) else v))
    return f"variant: {name}\n\n" + table(rows, ["option", "value"])
