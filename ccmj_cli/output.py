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


SEAT_ORDER = ("E", "S", "W", "N")


def _signed(n) -> str:
    return f"{n:+d}" if n else "0"


def render_score(d: dict) -> str:
    """ccmj score: verdict, fan items, then the settlement per seat."""
    pairs = [
        ("hand", d["hand"]),
        ("win", d["win"] + (f" (bao {d['bao']} stands for it)" if d.get("stands_for") else "")),
        ("how", d["how"] + (f" from {d['discarder']}" if d["discarder"] else "")
         + (f", bao {d['bao']}" if d["bao"] and not d.get("stands_for") else "")),
        ("winner", d["seat"] + (" (dealer)" if d["seat"] == "E" else "")),
        ("legal", yes(d["legal"])),
    ]
    if not d["legal"]:
        pairs.append(("why not", ", ".join(d["reasons"]) or "-"))
    out = fields(pairs)
    if d["fan_items"]:
        rows = [(i["name_zh"], i["name"], i["fan"], " ".join(i["seats"])) for i in d["fan_items"]]
        out += "\n\n" + table(rows, ["番", "item", "fan", "charged to"])
    rows = []
    for label, key in (("fan", "fan_by_seat"), ("hand", "payments"), ("kongs", "kong_payments"),
                       ("total", "total")):
        vals = d[key]
        rows.append((label, *(vals[s] if key == "fan_by_seat" else _signed(vals[s]) for s in SEAT_ORDER)))
    if d["base"] != 1:
        rows.append((f"total x {d['base']}", *(_signed(d["total_amount"][s]) for s in SEAT_ORDER)))
    out += "\n\n" + table(rows, ["", *SEAT_ORDER])
    if d["kongs"]:
        out += "\n\nkongs: " + ", ".join(f"{k['seat']} {k['meld']} ({k['value']} each)" for k in d["kongs"])
    return out


def render_bao(d: dict) -> str:
    """ccmj bao: may the hand look, what the bao does, and the score it would bring."""
    pairs = [
        ("hand", d["hand"]),
        ("bao", d["bao"]),
        ("can look", yes(d["can_look"]) + (f" ({d['reason']})" if d["reason"] else "")),
        ("outcome", d["outcome"]),
        ("stands for", d["stands_for"] or "-"),
        ("live copies", d["live"]),
        ("public copies", d["public"]),
        ("must change (换宝)", yes(d["must_change"])),
    ]
    out = fields(pairs)
    if d["score"]:
        s = d["score"]
        label = "对宝 win" if d["outcome"] == "duibao" else "摸宝 win would score"
        items = " + ".join(f"{i['name_zh']} {i['fan']}" for i in s["fan_items"])
        rows = [("fan", *(s["fan_by_seat"][x] for x in SEAT_ORDER)),
                ("pays", *(_signed(s["total"][x]) for x in SEAT_ORDER))]
        out += f"\n\n{label}: {items}\n" + table(rows, ["", *SEAT_ORDER])
    return out
