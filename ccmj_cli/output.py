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


# --- table simulation (ccmj simulate / replay)
def _pct(r: dict) -> str:
    if r["rate"] is None:
        return "-"
    lo, hi = r["ci95"]
    return f"{100 * r['rate']:.2f}% [{100 * lo:.2f}, {100 * hi:.2f}]"


def _money(m: dict) -> str:
    if m["mean"] is None:
        return "-"
    lo, hi = m["ci95"]
    return f"{m['mean']:+.3f} [{lo:+.3f}, {hi:+.3f}]  sd {m['sd']:.2f}"


def render_simulate(d: dict) -> str:
    pol = d["policy"]
    pol_text = pol["E"] if len(set(pol.values())) == 1 else ", ".join(f"{k} {v}" for k, v in pol.items())
    speed = f"{d['hands_per_second']:,.0f}" if d["hands_per_second"] else "-"
    where = d["scheduler"] or f"{d['threads']} thread(s)"
    head = fields(
        [
            ("hands", f"{d['hands']:,} in {d['sessions']:,} session(s), seed {d['seed']}"),
            ("rules / policy", f"{d['rules']} / {pol_text}"),
            ("speed", f"{speed} hands/s ({d['seconds']:.2f} s, {where})"),
        ]
    )
    seats = table(
        [(s, _pct(d["win_rate"][s]), _money(d["mean_payout"][s]), f"{d['kong_money']['mean_per_seat'][s]:+.3f}")
         for s in ("E", "S", "W", "N")],
        ["seat", "win rate [95% CI]", "payout per hand [95% CI]", "kong money"],
    )  # fmt: skip
    rates = [
        ("dealer wins", _pct(d["dealer_win_rate"])),
        ("dealer payout per hand", _money(d["dealer_mean_payout"])),
        ("荒庄 (drawn hands)", _pct(d["draw_rate"])),
        ("自摸 self-draw", _pct(d["by_method"]["zimo"])),
        ("点炮 discard win", _pct(d["by_method"]["dianpao"])),
        ("摸宝", _pct(d["by_method"]["mobao"])),
        ("对宝", _pct(d["by_method"]["duibao"])),
        ("夹胡 (of wins)", _pct(d["jiahu_rate"])),
        ("飘胡 (of wins)", _pct(d["piao_rate"])),
        ("门清 (of wins)", _pct(d["menqing_rate"])),
        ("bao rolled", _pct(d["bao_rolled_rate"])),
        ("截胡 (two+ winners)", _pct(d["jiehu_rate"])),
        ("kong money per hand", f"{d['kong_money']['per_hand']:.3f} ({d['kong_money']['kongs_per_hand']:.3f} kongs)"),
        ("discarder pays (per 点炮)", "-" if d["discarder_mean_payout"] is None else f"{d['discarder_mean_payout']:+.2f}"),
    ]
    fan = "  ".join(f"{k}:{v}" for k, v in d["fan_distribution"].items()) or "-"
    return "\n\n".join([head, seats, fields(rates), "fan distribution (hand fan: wins)\n" + fan])


def render_replay(d: dict) -> str:
    lines = [f"hand {d['hand']} (session {d['session']}, hand {d['session_hand']}), dealer {d['dealer']}, rules {d['rules']}"]
    lines.append("start:")
    lines += [f"  {s}  {h}" for s, h in d["start"].items()]
    lines += [f"{i:4d}. {t}" for i, t in enumerate(d["turns"], 1)]
    r = d["result"]
    if r["winner"]:
        flags = [n for n, f in (("门清", r["menqing"]), ("夹胡", r["jiahu"]), ("飘胡", r["piao"])) if f]
        src = f" from {r['discarder']}" if r["discarder"] else ""
        lines.append(
            f"result: {r['winner']} wins by {r['how']}{src} with {r['win_tile']}, hand fan {r['fan']}"
            + (f" ({' '.join(flags)})" if flags else "")
        )
        lines.append(f"  winning hand: {r['winning_hand']} + {r['win_tile']}")
    else:
        lines.append("result: 荒庄 (no winner)")
    lines.append("  payout (kong money included): " + "  ".join(f"{s} {v:+d}" for s, v in r["payout"].items()))
    lines.append("  kong money: " + "  ".join(f"{s} {v:+d}" for s, v in r["kong_money"].items()))
    lines.append(f"  next dealer: {r['next_dealer']}")
    lines.append("final hands:")
    lines += [f"  {s}  {h}" for s, h in d["final"].items()]
    if "verified" in d:
        lines.append("verified: " + ("the engine replays this hand exactly" if d["verified"] else "MISMATCH with the engine"))
    return "\n".join(lines)
