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


ODDS_METHODS = (("zimo", "自摸"), ("dianpao", "点炮"), ("mobao", "摸宝"), ("duibao", "对宝"))


def _p(x) -> str:
    return "-" if x is None else f"{x:.4f}"


def _odds_block(d: dict) -> str:
    ex = d["exact"]
    lo, hi = d["ci95"]
    plo, phi = d["payment_ci95"]
    head = [
        ("hand", d["hand"] + (f"  (after discarding {d['discard']})" if d["discard"] else "")),
        (
            "model",
            f"{d['rounds']} round(s), opponents {d['opponents']}, "
            f"declare {yes(d['declare'])}, bao {d['bao']}",
        ),
        (
            "trials",
            f"{d['trials']} (seed {d['seed']}, {d['trials_per_second']:,.0f} trials/s)"
            + ("  INTERRUPTED" if d["interrupted"] else ""),
        ),
        ("P(win)", f"{_p(d['p_win'])}  95% CI [{lo:.4f}, {hi:.4f}]"),
    ]
    if ex is not None:
        head.append(("exact P(win)", f"{ex['p_win']:.6f}"))
    elif d["exact_note"]:
        head.append(("exact", f"not available: {d['exact_note']}"))
    head += [
        ("P(夹胡 win)", _p(d["p_jiahu"]) + (f"  exact {ex['p_jiahu']:.6f}" if ex else "")),
        ("P(飘胡 win)", _p(d["p_piao"]) + (f"  exact {ex['p_piao']:.6f}" if ex else "")),
        (
            "expected payment",
            f"{d['expected_payment']:.3f} base units  95% CI [{plo:.3f}, {phi:.3f}]"
            + (f"  exact {ex['expected_payment']:.4f}" if ex else ""),
        ),
        ("P(reach tenpai)", _p(d["p_tenpai"])),
    ]
    if d["p_declared"] is not None:
        head.append(("P(declared 报听)", _p(d["p_declared"])))
    if d["p_bao_blocked"]:
        head.append(("P(断幺九: no bao look)", _p(d["p_bao_blocked"])))
    how = [
        (f"{zh} {name}", _p(d["by_method"][name]), _p(ex["by_method"][name]) if ex else "-")
        for name, zh in ODDS_METHODS
    ]
    rounds, cum = [], 0.0
    for r, p in enumerate(d["by_round"], 1):
        cum += p
        rounds.append(
            (
                r,
                _p(p),
                _p(cum),
                _p(ex["by_round"][r - 1]) if ex and r <= len(ex["by_round"]) else "-",
            )
        )
    return (
        fields(head)
        + "\n\n"
        + table(how, ["how", "P", "exact"])
        + "\n\n"
        + table(rounds, ["round", "P(win)", "cumulative", "exact"])
    )


def render_odds(d: dict) -> str:
    """One hand's odds, or (14 tiles) a summary table of every discard, best first."""
    if "discards" not in d:
        return _odds_block(d)
    rows = []
    for x in d["discards"]:
        lo, hi = x["ci95"]
        rows.append(
            (
                x["discard"],
                _p(x["p_win"]),
                f"[{lo:.4f}, {hi:.4f}]",
                *(_p(x["by_method"][name]) for name, _ in ODDS_METHODS),
                _p(x["p_jiahu"]),
                _p(x["p_piao"]),
                f"{x['expected_payment']:.3f}",
                _p(x["exact"]["p_win"]) if x["exact"] else "-",
            )
        )
    first = d["discards"][0]
    note = (
        f"{first['trials']} trials per discard, seed {first['seed']}, {first['rounds']} round(s), "
        f"opponents {first['opponents']}, declare {yes(first['declare'])}, bao {first['bao']}"
    )
    heads = [
        "discard",
        "P(win)",
        "95% CI",
        "自摸",
        "点炮",
        "摸宝",
        "对宝",
        "夹胡",
        "飘胡",
        "E[pay]",
        "exact",
    ]
    notes = sorted({x["exact_note"] for x in d["discards"] if x["exact_note"]})
    tail = "".join(f"\nno exact answer for some discards: {n}" for n in notes)
    return f"hand {d['hand']}\n{note}\n\n" + table(rows, heads) + ("\n" + tail if tail else "")

