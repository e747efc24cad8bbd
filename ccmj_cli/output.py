"""All rendering in one place: tables (tabulate), JSON, JSON lines and CSV."""

import csv
import io
import json

_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": "))  # one, not one a call


def to_json(obj) -> str:
    """One compact JSON document (UTF-8 characters kept, keys in a stable order)."""
    return _ENCODER.encode(obj)


def yes(flag) -> str:
    return "yes" if flag else "no"


def table(rows, headers, floatfmt="g") -> str:
    from tabulate import tabulate  # imported on use: JSON output never pays for it

    return tabulate(
        rows, headers=headers, tablefmt="simple", floatfmt=floatfmt, disable_numparse=True
    )


def fields(pairs) -> str:
    """A two-column key: value block."""
    from tabulate import tabulate

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
            (
                "can look at bao",
                yes(d["can_look_bao"]) + (f" ({d['bao_reason']})" if d["bao_reason"] else ""),
            ),
            ("live legal waits", d["live_total"]),
        ]
    )
    if not d["waits"]:
        return head + "\n\nno structural waits"
    rows = [
        (
            w["tile"],
            yes(w["legal"]),
            ", ".join(w["reasons"]) or "-",
            w["live"],
            yes(w["jiahu"]),
            yes(w["piao"]),
        )
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
        return (
            head
            + "\n"
            + fields([("useful", tiles_list(d["useful"])), ("total", d["useful_total"])])
        )
    rows = []
    for x in d["discards"]:
        if x["legal_waits"] is None:
            waits = "-"  # the discard does not leave tenpai
        elif not x["legal_waits"]:
            waits = "none legal"
        else:
            waits = f"{tiles_list(x['legal_waits'])} ({x['legal_waits_total']})"
        rows.append((x["tile"], x["shanten"], tiles_list(x["useful"]), x["useful_total"], waits))
    return (
        head + "\n\n" + table(rows, ["discard", "shanten", "useful tiles", "total", "legal waits"])
    )


def _rule_rows(d: dict) -> list[tuple[str, object]]:
    rows = []
    for k, v in d.items():
        if isinstance(v, dict):
            rows.extend((f"{k}.{sk}", sv) for sk, sv in v.items())
        else:
            rows.append((k, "null" if v is None else str(v).lower() if isinstance(v, bool) else v))
    return rows


def render_rules(d: dict, name: str, default: dict | None = None) -> str:
    """The options as a table; with ``default`` (the default variant's options), a third
    column marks with ``*`` each option whose value differs from the default."""
    rows = _rule_rows(d)
    if default is None or d == default:
        return f"variant: {name}\n\n" + table(rows, ["option", "value"])
    base = dict(_rule_rows(default))
    marked = [(k, v, "*" if base.get(k, object()) != v else "") for k, v in rows]
    return f"variant: {name} (* differs from the default)\n\n" + table(
        marked, ["option", "value", ""]
    )


SEAT_ORDER = ("E", "S", "W", "N")


def _signed(n) -> str:
    return f"{n:+d}" if n else "0"


def render_score(d: dict) -> str:
    """ccmj score: verdict, fan items, then the settlement per seat."""
    pairs = [
        ("hand", d["hand"]),
        ("win", d["win"] + (f" (bao {d['bao']} stands for it)" if d.get("stands_for") else "")),
        (
            "how",
            d["how"]
            + (f" from {d['discarder']}" if d["discarder"] else "")
            + (f", bao {d['bao']}" if d["bao"] and not d.get("stands_for") else ""),
        ),
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
    for label, key in (
        ("fan", "fan_by_seat"),
        ("hand", "payments"),
        ("kongs", "kong_payments"),
        ("total", "total"),
    ):
        vals = d[key]
        rows.append(
            (label, *(vals[s] if key == "fan_by_seat" else _signed(vals[s]) for s in SEAT_ORDER))
        )
    if d["base"] != 1:
        rows.append((f"total x {d['base']}", *(_signed(d["total_amount"][s]) for s in SEAT_ORDER)))
    out += "\n\n" + table(rows, ["", *SEAT_ORDER])
    disc = d["discarder"]
    covered = [
        x for x in SEAT_ORDER
        if x not in (d["seat"], disc) and d["fan_by_seat"][x] and not d["payments"][x]
    ]  # fmt: skip
    if disc and covered:
        out += f"\n\n点炮全包: {disc} also pays the shares of {' '.join(covered)}"
    cap = d.get("fan_cap")
    if cap and max(d["fan_by_seat"].values()) >= cap:
        out += f"\n\n封顶: a loser pays at most {cap} fan"
    if d["kongs"]:
        out += "\n\nkongs: " + ", ".join(
            f"{k['seat']} {k['meld']} ({k['value']} each)" for k in d["kongs"]
        )
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
        ("may change (换宝)", yes(d["may_change"])),
    ]
    out = fields(pairs)
    if d["score"]:
        s = d["score"]
        label = "对宝 win" if d["outcome"] == "duibao" else "摸宝 win would score"
        items = " + ".join(f"{i['name_zh']} {i['fan']}" for i in s["fan_items"])
        rows = [
            ("fan", *(s["fan_by_seat"][x] for x in SEAT_ORDER)),
            ("pays", *(_signed(s["total"][x]) for x in SEAT_ORDER)),
        ]
        out += f"\n\n{label}: {items}\n" + table(rows, ["", *SEAT_ORDER])
    return out


ODDS_METHODS = (("zimo", "自摸"), ("dianpao", "点炮"), ("mobao", "摸宝"), ("duibao", "对宝"))


def _p(x) -> str:
    return "-" if x is None else f"{x:.4f}"


def _useful(ex: dict) -> str:
    tiles = " ".join(f"{u['tile']}×{u['live']}" for u in ex["useful"])
    return f"{tiles} ({ex['useful_total']})" if tiles else "-"


def _shanten(ex: dict) -> str:
    return "-" if ex["legal_shanten"] is None else str(ex["legal_shanten"])


def _exact_method(ex: dict) -> str:
    if ex["solver"] == "closed form":
        return "exact (closed form: a declared tenpai hand; drawn tiles leave the pool)"
    goal = "P(win)" if ex["objective"] == "win" else "the payment"
    if ex["complete"]:
        return (
            f"exact (best play for {goal} over every play; pool hand_only; {ex['states']:,} states)"
        )
    moves = ", every move on its edge" if ex.get("edge") == "all" else ""
    widened = (
        ", the straight path only: a draw that does not help is thrown at once"
        if ex["gain"] is None
        else f", the last widening added +{ex['gain']:.6f}"
    )
    return (
        f"region search: a lower bound, not the optimum (best play for {goal} over hands within "
        f"{ex['limit']} of a win counting new tiles{moves}{widened}; pool hand_only; "
        f"{ex['states']:,} states)"
    )


def _tag(ex: dict | None) -> str:
    """What the solver's figures are called: exact, or a region search's lower bound."""
    return "exact" if ex is None or ex["complete"] else "region"


def _odds_block(d: dict) -> str:
    ex = d["exact"]
    mc = d["trials"] > 0
    tag = _tag(ex)
    head = [
        ("hand", d["hand"] + (f"  (after discarding {d['discard']})" if d["discard"] else "")),
        (
            "model",
            f"{d['rounds']} round(s), opponents {d['opponents']}, "
            f"declare {yes(d['declare'])}, bao {d['bao']}",
        ),
    ]
    if ex is not None:
        head.append(("method", _exact_method(ex) + (" + Monte Carlo" if mc else "")))
    else:
        head.append(("method", f"Monte Carlo (the baseline discard policy; pool {d['pool']})"))
    if mc and ex is not None and d["policy"] == "solver":
        head.append(("Monte Carlo", "plays the exact solver's decisions in its pool"))
    if d["interrupted"] and not mc:
        head.append(("INTERRUPTED", "stopped before any answer"))
    if mc:
        lo, hi = d["ci95"]
        plo, phi = d["payment_ci95"]
        head += [
            (
                "trials",
                f"{d['trials']} (seed {d['seed']}, {d['trials_per_second']:,.0f} trials/s)"
                + ("  INTERRUPTED" if d["interrupted"] else ""),
            ),
            ("P(win)", f"{_p(d['p_win'])}  95% CI [{lo:.4f}, {hi:.4f}]"),
        ]
        if ex is not None:
            head.append((f"{tag} P(win)", f"{ex['p_win']:.6f}"))
        elif d["exact_note"]:
            head.append(("exact", f"not available: {d['exact_note']}"))
        head += [
            ("P(夹胡 win)", _p(d["p_jiahu"]) + (f"  {tag} {ex['p_jiahu']:.6f}" if ex else "")),
            ("P(飘胡 win)", _p(d["p_piao"]) + (f"  {tag} {ex['p_piao']:.6f}" if ex else "")),
            (
                "expected payment",
                f"{d['expected_payment']:.3f} base units  95% CI [{plo:.3f}, {phi:.3f}]"
                + (f"  {tag} {ex['expected_payment']:.4f}" if ex else ""),
            ),
            (
                "P(reach tenpai)",
                _p(d["p_tenpai"]) + (f"  {tag} {ex['p_tenpai']:.6f}" if ex else ""),
            ),
        ]
        if d["p_declared"] is not None:
            head.append(("P(declared 报听)", _p(d["p_declared"])))
        if d["p_bao_blocked"]:
            head.append(("P(断幺九: no bao look)", _p(d["p_bao_blocked"])))
    elif ex is not None:
        head += [
            ("P(win)", f"{ex['p_win']:.6f}"),
            ("P(夹胡 win)", f"{ex['p_jiahu']:.6f}"),
            ("P(飘胡 win)", f"{ex['p_piao']:.6f}"),
            ("expected payment", f"{ex['expected_payment']:.4f} base units"),
            ("P(reach tenpai)", f"{ex['p_tenpai']:.6f}"),
            ("legal shanten", _shanten(ex)),
            ("useful tiles", _useful(ex)),
        ]
    if ex is None and not mc:
        return fields(head)
    how = [
        (
            f"{zh} {name}",
            *((_p(d["by_method"][name]),) if mc else ()),
            *((_p(ex["by_method"][name]),) if ex else ()),
        )
        for name, zh in ODDS_METHODS
    ]
    how_heads = ["how", *(["P"] if mc else []), *([tag] if ex else [])]
    rounds, cum = [], 0.0
    n = max(len(d["by_round"]) if mc else 0, len(ex["by_round"]) if ex else 0)
    for r in range(1, n + 1):
        row = [r]
        if mc:
            p = d["by_round"][r - 1] if r <= len(d["by_round"]) else 0.0
            cum += p
            row += [_p(p), _p(cum)]
        if ex:
            row += [
                _p(ex["win_by_turn"][r - 1]) if r <= len(ex["win_by_turn"]) else "-",
                _p(ex["tenpai_by_turn"][r - 1]) if r <= len(ex["tenpai_by_turn"]) else "-",
            ]
        rounds.append(row)
    round_heads = [
        "round",
        *(["P(win)", "cumulative"] if mc else []),
        *([f"{tag} P(won by)", f"{tag} P(tenpai by)"] if ex else []),
    ]
    return fields(head) + "\n\n" + table(how, how_heads) + "\n\n" + table(rounds, round_heads)


def render_odds(d: dict) -> str:
    """One hand's odds, or (14 tiles) a summary table of every discard, best first."""
    if "discards" not in d:
        return _odds_block(d)
    xs = d["discards"]
    mc = any(x["trials"] > 0 for x in xs)
    with_ex = [x for x in xs if x["exact"]]
    tag = _tag(with_ex[0]["exact"]) if with_ex else "exact"
    rows = []
    for x in xs:
        ex = x["exact"]
        row = [x["discard"]]
        if with_ex:
            row += [_shanten(ex) if ex else "-", _useful(ex) if ex else "-"]
        if mc:
            lo, hi = x["ci95"] if x["ci95"] else (0.0, 1.0)
            row += [
                _p(x["p_win"]),
                f"[{lo:.4f}, {hi:.4f}]",
                *(_p(x["by_method"][name]) for name, _ in ODDS_METHODS),
                _p(x["p_jiahu"]),
                _p(x["p_piao"]),
                f"{x['expected_payment']:.3f}",
            ]
        if with_ex:
            row += [
                _p(ex["p_tenpai"]) if ex else "-",
                _p(ex["p_win"]) if ex else "-",
                *(
                    (_p(ex["p_jiahu"]) if ex else "-", _p(ex["p_piao"]) if ex else "-")
                    if not mc
                    else ()
                ),
                f"{ex['expected_payment']:.3f}" if ex else "-",
            ]
        rows.append(row)
    first = xs[0]
    heads = ["discard"]
    if with_ex:
        heads += ["shanten*", "useful tiles (live)"]
    if mc:
        heads += ["P(win)", "95% CI", *(zh for _, zh in ODDS_METHODS), "夹胡", "飘胡", "E[pay]"]
    if with_ex:
        heads += [f"{tag} P(tenpai)" if mc else "P(tenpai)", f"{tag} P(win)" if mc else "P(win)"]
        heads += [] if mc else ["夹胡", "飘胡"]
        heads += [f"{tag} E[pay]" if mc else "E[pay]"]
    model = (
        f"{first['rounds']} round(s), opponents {first['opponents']}, "
        f"declare {yes(first['declare'])}, bao {first['bao']}"
    )
    lines = [f"hand {d['hand']}"]
    if with_ex:
        lines.append(_exact_method(with_ex[0]["exact"]) + f", {model}")
    if mc:
        lines.append(
            f"Monte Carlo: {first['trials']} trials per discard, seed {first['seed']}, {model}"
            + ("  INTERRUPTED" if any(x["interrupted"] for x in xs) else "")
        )
    out = "\n".join(lines) + "\n\n" + table(rows, heads)
    if with_ex:
        out += "\n(shanten* = legal shanten: tiles from a legal win, minus one)"
        top = with_ex[:3]
        n = len(top[0]["exact"]["win_by_turn"])
        turns = [
            [t + 1, *(f"{_p(x['exact']['tenpai_by_turn'][t])} / {_p(x['exact']['win_by_turn'][t])}"
                      for x in top)]
            for t in range(n)
        ]  # fmt: skip
        out += "\n\n" + table(
            turns, ["draw", *(f"{x['discard']}: P(tenpai) / P(win) by" for x in top)]
        )
    notes = sorted({x["exact_note"] for x in xs if x["exact_note"]})
    out += "".join(f"\nno exact answer for some discards: {n}" for n in notes)
    return out


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
    pol_text = (
        pol["E"] if len(set(pol.values())) == 1 else ", ".join(f"{k} {v}" for k, v in pol.items())
    )
    speed = f"{d['hands_per_second']:,.0f}" if d["hands_per_second"] else "-"
    where = d["scheduler"] or f"{d['threads']} thread(s)"
    sessions = f"{d['sessions']:,} session(s)"
    played = f"(interrupted; {sessions} planned)" if d.get("interrupted") else f"in {sessions}"
    head = fields(
        [
            ("hands", f"{d['hands']:,} {played}, seed {d['seed']}"),
            ("rules / policy", f"{d['rules']} / {pol_text}"),
            ("speed", f"{speed} hands/s ({d['seconds']:.2f} s, {where})"),
        ]
    )
    kong = d["kong_money"]["mean_per_seat"]
    rows = []
    for s in ("E", "S", "W", "N"):
        st = d["seats"][s]
        m = st["wins_by_method"]
        rows.append(
            (
                s, _pct(st["win_rate"]), _pct(st["dealin_rate"]),
                f"{m['zimo']}/{m['dianpao']}/{m['mobao']}/{m['duibao']}",
                f"{st['dealt_rate']['rate']:.1%}", _money(st["mean_payout"]), f"{kong[s]:+.3f}",
            )
        )  # fmt: skip
    seats = table(
        rows,
        ["seat", "win rate [95% CI]", "点炮 deal-in [95% CI]", "wins 自摸/点炮/摸宝/对宝",
         "dealt", "payout per hand [95% CI]", "kong money"],
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
        (
            "kong money per hand",
            f"{d['kong_money']['per_hand']:.3f} ({d['kong_money']['kongs_per_hand']:.3f} kongs)",
        ),
        ("discarder pays (per 点炮)", _money(d["discarder_mean_payout"])),
    ]
    fan = "  ".join(f"{k}:{v}" for k, v in d["fan_distribution"].items()) or "-"
    return "\n\n".join([head, seats, fields(rates), "fan distribution (hand fan: wins)\n" + fan])


def render_compare(d: dict) -> str:
    def pol(p):
        return p["E"] if len(set(p.values())) == 1 else ",".join(p.values())

    head = fields(
        [
            ("hands", f"{d['hands']:,} in {d['sessions']:,} session(s), seed {d['seed']}"),
            ("A", f"{d['a']['rules']} / {pol(d['a']['policy'])}"),
            ("B", f"{d['b']['rules']} / {pol(d['b']['policy'])}"),
            ("paired", d["paired"]),
        ]
    )
    rows = []
    for k, v in d["compare"].items():
        diff = v["diff"]
        lo, hi = diff["ci95"]
        sig = "*" if lo > 0 or hi < 0 else ""
        rows.append(
            (
                k,
                f"{v['a']:.4f}",
                f"{v['b']:.4f}",
                f"{diff['mean']:+.4f}",
                f"[{lo:+.4f}, {hi:+.4f}]{sig}",
            )
        )
    body = table(rows, ["statistic (per hand)", "A", "B", "A − B", "95% CI (paired)"])
    return head + "\n\n" + body + "\n* the interval excludes zero"


def render_replay(d: dict) -> str:
    lines = [
        f"hand {d['hand']} (session {d['session']}, hand {d['session_hand']}), "
        f"dealer {d['dealer']}, rules {d['rules']}"
    ]
    lines.append("start:")
    lines += [f"  {s}  {h}" for s, h in d["start"].items()]
    lines += [f"{i:4d}. {t}" for i, t in enumerate(d["turns"], 1)]
    r = d["result"]
    if r["winner"]:
        flags = [
            n for n, f in (("门清", r["menqing"]), ("夹胡", r["jiahu"]), ("飘胡", r["piao"])) if f
        ]
        src = f" from {r['discarder']}" if r["discarder"] else ""
        lines.append(
            f"result: {r['winner']} wins by {r['how']}{src} with {r['win_tile']}, "
            f"hand fan {r['fan']}" + (f" ({' '.join(flags)})" if flags else "")
        )
        lines.append(f"  winning hand: {r['winning_hand']} + {r['win_tile']}")
    else:
        lines.append("result: 荒庄 (no winner)")
    lines.append(
        "  payout (kong money included): "
        + "  ".join(f"{s} {v:+d}" for s, v in r["payout"].items())
    )
    lines.append("  kong money: " + "  ".join(f"{s} {v:+d}" for s, v in r["kong_money"].items()))
    lines.append(f"  next dealer: {r['next_dealer']}")
    lines.append("final hands:")
    lines += [f"  {s}  {h}" for s, h in d["final"].items()]
    if "verified" in d:
        lines.append(
            "verified: "
            + (
                "the engine replays this hand exactly"
                if d["verified"]
                else "MISMATCH with the engine"
            )
        )
    return "\n".join(lines)


def render_review(d: dict) -> str:
    """``ccmj review``: a row per decision (loss marked ! when large), then a summary per seat."""
    large = 0.02 if d["objective"] == "win" else 0.5
    key = "p_win" if d["objective"] == "win" else "expected_payment"
    rows = []
    for x in d["decisions"]:
        mark = "!" if x["loss"][key] >= large else ""
        rows.append((x["hand"], x["seat"], x["event"], x.get("turn", ""), x["kind"], x["tiles"],
                     x["draws"],
                     x["chosen"], x["best"], f"{x['loss']['p_win']:.4f}",
                     f"{x['loss']['expected_payment']:.3f}", mark, x["method"]))  # fmt: skip
    out = [f"review of {d['record']} (objective: {d['objective']}; ! marks a loss of "
           f"{large:g} or more)", ""]  # fmt: skip
    if rows:
        out.append(table(rows, ["hand", "seat", "event", "turn", "kind", "hand at decision",
                                "draws", "chosen", "best", "loss P(win)", "loss E[pay]", "",
                                "method"]))  # fmt: skip
    else:
        out.append("no decision to grade")
    out.append("")
    srows = []
    for s, x in d["summary"].items():
        agree = "-" if x["agreement"] is None else f"{x['agreement']:.1%}"
        worst = "; ".join(f"hand {w['hand']} event {w['event']} {w['kind']}: {w['chosen']} "
                          f"(best {w['best']})" for w in x["worst"])  # fmt: skip
        srows.append((s, x["decisions"], agree, f"{x['mean_loss']['p_win']:.4f}",
                      f"{x['total_loss']['p_win']:.4f}",
                      f"{x['total_loss']['expected_payment']:.3f}", worst or "-"))  # fmt: skip
    out.append(table(srows, ["seat", "decisions", "agreement", "mean loss P(win)",
                             "total loss P(win)", "total loss E[pay]", "worst"]))  # fmt: skip
    illegal = [x for x in d.get("skipped", []) if x["kind"] == "illegal"]
    for x in illegal:
        out.append(f"\nhand {x['hand']}: reviewed up to event {x['event']}, which is not legal "
                   f"({x['why'].split(': ', 1)[1]})")  # fmt: skip
    if len(d.get("skipped", [])) > len(illegal):
        out.append(f"\n{len(d['skipped']) - len(illegal)} position(s) followed but not graded "
                   "(the analysis could not value them); --json says why")  # fmt: skip
    return "\n".join(out)


def _action_detail(a: dict) -> str:
    bits = []
    for k in ("tile", "chow", "meld", "onto", "from", "how"):
        if k in a:
            bits.append(f"{k} {a[k]}" if k not in ("tile",) else a[k])
    if "waits" in a:
        bits.append(("tenpai: " + " ".join(a["waits"])) if a["tenpai"] else "not tenpai")
    if a.get("duibao"):
        bits.append("对宝 (a win)")
    if a.get("rolls"):
        bits.append("rolls the bao")
    if "score" in a:
        s = a["score"]
        pay = " ".join(f"{k}{_signed(v)}" for k, v in s["total"].items())
        bits.append(f"fan {a['fan']}, pays {pay}")
    if "forbidden" in a:
        bits.append(f"forbidden: {a['forbidden']}")
    return ", ".join(bits)


def render_actions(d: dict) -> str:
    """ccmj actions: per seat, each group of legal actions; the claims' outcome; forbidden."""
    lines = [f"phase: {d['phase']} ({d['on_turn']} on turn)"]
    if d["unknown"]:
        lines.append("unknown hands (not judged): " + " ".join(d["unknown"]))
    for s, groups in d["seats"].items():
        rows = []
        for g, acts in groups.items():
            for a in acts:
                rows.append((g, _action_detail(a)))
        lines.append("")
        lines.append(f"{s}:")
        lines.append(table(rows, ["action", "detail"]))
    if "claims" in d:
        c = d["claims"]
        lines.append("")
        order = ", ".join(
            f"{x['seat']} {x['action']}" + (" (loses: claim_priority)" if "rule" in x else "")
            for x in c["priority"]
        ) or "none"
        lines.append(f"claims by priority: {order}")
        if c["takes"]:
            lines.append(f"takes the tile: {c['takes']['seat']} ({c['takes']['action']})"
                         + (" — 截胡" if c["jiehu"] else ""))  # fmt: skip
    if "forbidden" in d:
        lines.append("")
        lines.append("forbidden now:")
        rows = [(a["seat"], a["action"], a.get("tile", ""), a["forbidden"]) for a in d["forbidden"]]
        lines.append(table(rows, ["seat", "action", "tile", "rule"]) if rows else "(none)")
    return "\n".join(lines)
