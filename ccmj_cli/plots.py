"""Pictures of a command's result (``--plot FILE``): ``ccmj odds`` and ``ccmj simulate``.

Every function takes the command's result object — the very dict its ``--json`` output is made
from — and never recomputes anything: ``odds_series`` / ``simulate_series`` pick out the numbers
a picture draws (tests compare them with the JSON of the same run), ``plot_odds`` /
``plot_simulate`` draw them. Fields that a result does not have are skipped, so results with
more (or fewer) fields still draw.

matplotlib is an optional extra (``pip install 'ccmj_cli[plot]'``), imported only here and only
when a picture is drawn, with the non-interactive Agg canvas (no window, no display needed).
Chinese labels are used only when a font that has the characters is installed; otherwise the
labels are English (no missing-glyph boxes).
"""

import math
import os
from pathlib import Path

from .errors import UsageError

FORMATS = {".png": "png", ".svg": "svg", ".pdf": "pdf"}
INSTALL_HINT = "--plot needs matplotlib: pip install 'ccmj_cli[plot]'"
METHODS = ("zimo", "dianpao", "mobao", "duibao")
METHOD_LABELS = {
    "zimo": ("自摸", "self-draw"),
    "dianpao": ("点炮", "discard win"),
    "mobao": ("摸宝", "bao drawn"),
    "duibao": ("对宝", "bao matched"),
}
SEATS = ("E", "S", "W", "N")
MAX_CURVES = 8  # discards drawn for a 14-tile hand (the best ones); the legend stays readable
Z95 = 1.959963984540054
# Fonts known to hold the Chinese characters ccmj prints (the first one installed is used)
CJK_FONTS = (
    "Noto Sans CJK SC",
    "Noto Sans SC",
    "Noto Serif CJK SC",
    "Source Han Sans SC",
    "Source Han Sans CN",
    "WenQuanYi Zen Hei",
    "WenQuanYi Micro Hei",
    "AR PL UMing CN",
    "AR PL UKai CN",
    "Droid Sans Fallback",
    "SimHei",
    "Microsoft YaHei",
    "PingFang SC",
    "Heiti SC",
    "Noto Sans CJK JP",
    "Noto Sans CJK TC",
)


def plot_format(path: str) -> str:
    """The picture format named by FILE's extension ('png', 'svg' or 'pdf'); checks that
    matplotlib can be imported. Called before the command's work starts, so a bad name fails
    at once. Raises UsageError (exit 2) with a one-line message: also for an empty name, a
    directory, a missing folder or a place that cannot be written."""
    if not path.strip():
        raise UsageError("--plot '': give a file name ending in .png, .svg or .pdf")
    if Path(path).is_dir():
        raise UsageError(f"--plot '{path}': it is a directory")
    fmt = FORMATS.get(Path(path).suffix.lower())
    if fmt is None:
        raise UsageError(f"--plot '{path}': the file name must end in .png, .svg or .pdf")
    folder = Path(path).parent
    if not folder.is_dir():
        raise UsageError(f"--plot '{path}': the folder '{folder}' does not exist")
    from .cli.files import check_writable  # (no typer there)

    try:
        check_writable(path, "--plot")
    except UsageError as e:  # "cannot write 'x': why" -> "--plot 'x': why"
        raise UsageError(f"--plot {e.message.removeprefix('cannot write ')}") from None
    try:
        import matplotlib  # noqa: F401  (only whether it is there)
    except ImportError:
        raise UsageError(INSTALL_HINT) from None
    return fmt


# --- the numbers drawn ------------------------------------------------------------------------


def _wilson(p: float, n: int) -> tuple[float, float]:
    """95% Wilson interval of a proportion p measured on n trials (as the odds report's ci95)."""
    if not n:
        return (0.0, 1.0)
    den = 1 + Z95 * Z95 / n
    mid = (p + Z95 * Z95 / (2 * n)) / den
    half = Z95 * math.sqrt(max(0.0, p * (1 - p)) / n + Z95 * Z95 / (4 * n * n)) / den
    return (max(0.0, mid - half), min(1.0, mid + half))


def _cumsum(xs) -> list[float]:
    out, total = [], 0.0
    for x in xs:
        total += x
        out.append(total)
    return out


def odds_series(d: dict) -> list[dict]:
    """The curves of an ``odds`` result (a 13-tile result, or ``{"hand", "discards": [...]}``),
    best first, at most MAX_CURVES: one dict per starting point with ``label`` (the discard, or
    the hand), ``mc`` (``None``, or ``{rounds, cumulative, lo, hi, p_win, ci95, trials}``: the
    cumulative sum of ``by_round`` and its 95% Wilson band), ``exact`` (``None``, or
    ``{turns, cumulative, tenpai}``: ``win_by_turn`` where the result has it, else the
    cumulative ``by_round``; ``tenpai_by_turn`` or None) and ``methods`` (``{"mc": {method:
    p}, "exact": {method: p}}``, either absent when the result has no split)."""
    results = d.get("discards") if "discards" in d else [d]
    out = []
    for r in (results or [])[:MAX_CURVES]:
        item = {"label": r.get("discard") or r.get("hand") or "", "mc": None, "exact": None}
        by_round = r.get("by_round")
        trials = r.get("trials") or 0
        if by_round and trials:
            cum = _cumsum(by_round)
            band = [_wilson(p, trials) for p in cum]
            item["mc"] = {
                "rounds": list(range(1, len(cum) + 1)),
                "cumulative": cum,
                "lo": [b[0] for b in band],
                "hi": [b[1] for b in band],
                "p_win": r.get("p_win"),
                "ci95": r.get("ci95"),
                "trials": trials,
            }
        ex = r.get("exact")
        if isinstance(ex, dict):
            cum = ex.get("win_by_turn")
            if cum is None and ex.get("by_round") is not None:
                cum = _cumsum(ex["by_round"])
            if cum:
                item["exact"] = {
                    "turns": list(range(1, len(cum) + 1)),
                    "cumulative": list(cum),
                    "tenpai": list(ex["tenpai_by_turn"]) if ex.get("tenpai_by_turn") else None,
                }
        methods = {}
        if isinstance(r.get("by_method"), dict):
            methods["mc"] = {m: r["by_method"][m] for m in METHODS if m in r["by_method"]}
        if isinstance(ex, dict) and isinstance(ex.get("by_method"), dict):
            methods["exact"] = {m: ex["by_method"][m] for m in METHODS if m in ex["by_method"]}
        item["methods"] = methods
        out.append(item)
    return out


def _rate(r) -> tuple[float, float, float] | None:
    """(rate, lo, hi) of a ``{count, n, rate, ci95}`` field, or None."""
    if not isinstance(r, dict) or r.get("rate") is None:
        return None
    lo, hi = r.get("ci95") or (r["rate"], r["rate"])
    return (r["rate"], lo, hi)


def _mean(m) -> tuple[float, float, float] | None:
    """(mean, lo, hi) of a ``{mean, sd, ci95}`` field (a bare number: no interval), or None."""
    if isinstance(m, int | float):
        return (float(m), float(m), float(m))
    if not isinstance(m, dict) or m.get("mean") is None:
        return None
    lo, hi = m.get("ci95") or (m["mean"], m["mean"])
    return (m["mean"], lo, hi)


def simulate_series(d: dict) -> dict:
    """The numbers a ``simulate`` picture draws, each ``(value, lo, hi)`` with its 95% CI, or
    left out when the result lacks the field: ``win_rate`` {seat}, ``dealer_win_rate``,
    ``seat_mean_win_rate`` ((1 − 荒庄)/4, no interval), ``ends`` (how hands end: the
    ``by_method`` rates and ``draw``), ``fan`` ({fan: share of wins}, from
    ``fan_distribution``), ``payout`` {seat}, ``dealer_payout``, ``discarder_payout``."""
    s: dict = {}
    wr = d.get("win_rate") or {}
    s["win_rate"] = {k: _rate(wr.get(k)) for k in SEATS if _rate(wr.get(k))}
    if _rate(d.get("dealer_win_rate")):
        s["dealer_win_rate"] = _rate(d["dealer_win_rate"])
    draw = _rate(d.get("draw_rate"))
    if draw:
        s["seat_mean_win_rate"] = (1 - draw[0]) / 4
    ends = {m: _rate((d.get("by_method") or {}).get(m)) for m in METHODS}
    ends = {m: v for m, v in ends.items() if v}
    if draw:
        ends["draw"] = draw
    s["ends"] = ends
    fan = d.get("fan_distribution") or {}
    wins = sum(fan.values())
    s["fan"] = {k: v / wins for k, v in fan.items()} if wins else {}
    pay = d.get("mean_payout") or {}
    s["payout"] = {k: _mean(pay.get(k)) for k in SEATS if _mean(pay.get(k))}
    for key, name in (
        ("dealer_mean_payout", "dealer_payout"),
        ("discarder_mean_payout", "discarder_payout"),
    ):
        if _mean(d.get(key)):
            s[name] = _mean(d[key])
    return s


# --- drawing ----------------------------------------------------------------------------------


def _figure(rows: int, cols: int, size: tuple[float, float]):
    """A matplotlib Figure drawn by the Agg canvas, and whether Chinese labels can be used."""
    os.environ.setdefault("MPLBACKEND", "Agg")
    try:
        from matplotlib import font_manager
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise UsageError(INSTALL_HINT) from None
    cjk = _cjk_font(font_manager)
    rc = {"font.size": 9, "axes.titlesize": 10, "legend.fontsize": 8}
    if cjk:
        rc["font.family"] = [cjk, "DejaVu Sans"]
    import matplotlib

    with matplotlib.rc_context(rc):
        fig = Figure(figsize=size, layout="constrained")
        FigureCanvasAgg(fig)
        axes = fig.subplots(rows, cols, squeeze=False)
    return fig, axes, cjk is not None, rc


# every Chinese character the pictures use: a font is used only if it has them all
CJK_NEEDED = "".join(zh for zh, _ in METHOD_LABELS.values()) + "胡法荒庄番"


def _cjk_font(font_manager) -> str | None:
    """The first installed font of CJK_FONTS that really has every character the labels use
    (a font known by name but missing a glyph would still draw boxes), or None."""
    from matplotlib import ft2font

    paths: dict[str, str] = {}
    for f in font_manager.fontManager.ttflist:
        paths.setdefault(f.name, f.fname)
    for name in CJK_FONTS:
        if name not in paths:
            continue
        try:
            font = ft2font.FT2Font(paths[name])
        except (OSError, RuntimeError, ValueError):
            continue
        if all(font.get_char_index(ord(ch)) for ch in CJK_NEEDED):
            return name
    return None


def _labeller(cjk: bool):
    def label(zh: str, en: str) -> str:
        return f"{zh} {en}" if cjk else en

    def text(s: str) -> str:  # user text (a rules file name): no CJK characters without a font
        return s if cjk else "".join(ch if ord(ch) < 0x2E80 else "?" for ch in s)

    return label, text


def _save(fig, rc: dict, path: str):
    """Write the picture through a temporary file beside ``path`` (cli/files.output_file): a
    failed write (a full disk) leaves an old picture as it was, and the error names the file."""
    from .cli.files import output_file

    fmt = plot_format(path)
    with output_file(path, binary=True) as f:
        _draw(fig, rc, fmt, f)


def _draw(fig, rc: dict, fmt: str, path):
    import matplotlib

    # fixed metadata: the same result gives the same file
    meta = {"png": {"Software": None}, "svg": {"Date": None}, "pdf": {"CreationDate": None}}
    with matplotlib.rc_context({**rc, "svg.hashsalt": "ccmj"}):
        if fmt != "png":
            fig.savefig(path, format=fmt, dpi=100, metadata=meta[fmt])
            return
        # PNG: drawn by Agg, then stored with a 256-colour palette (a third of the size, the
        # same picture to the eye); Pillow comes with matplotlib
        import io

        from PIL import Image

        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=100, metadata=meta["png"])
        with Image.open(buf) as im:
            small = im.convert("RGB").quantize(256, method=Image.Quantize.MEDIANCUT)
            small.save(path, format="PNG", optimize=True)


def plot_odds(d: dict, path: str) -> list[dict]:
    """Draw an ``odds`` result to PATH (format by extension); returns ``odds_series(d)``."""
    series = odds_series(d)
    fig, axes, cjk, rc = _figure(1, 2, (10, 4))
    label, text = _labeller(cjk)
    import matplotlib

    with matplotlib.rc_context(rc):
        ax, bx = axes[0]
        colors = [f"C{i}" for i in range(10)]
        many = "discards" in d
        for i, c in enumerate(series):
            # one hue per start; its exact curve a darker shade of it (one start: another hue),
            # so the two curves of a discard differ by colour as well as by the dash
            color = colors[i % 10]
            exact_color = _darker(color) if many else "C3"
            name = f"discard {c['label']}" if many else "P(win)"
            if c["mc"]:
                mc = c["mc"]
                ax.plot(mc["rounds"], mc["cumulative"], color=color, lw=1.6,
                        label=f"{name} (Monte Carlo)" if c["exact"] else name)  # fmt: skip
                ax.fill_between(mc["rounds"], mc["lo"], mc["hi"], color=color, alpha=0.2, lw=0)
            if c["exact"]:
                ex = c["exact"]
                ax.plot(ex["turns"], ex["cumulative"], color=exact_color, ls="--", marker=".",
                        lw=1.2, label=f"{name} (exact)")  # fmt: skip
                if ex["tenpai"] and not many:
                    ax.plot(ex["turns"], ex["tenpai"], color="0.4", ls=":",
                            label="P(tenpai) (exact)")  # fmt: skip
        ax.set_xlabel("draw (round)")
        ax.set_ylabel("P(won by this draw), cumulative")
        ax.set_ylim(0, None)
        ax.grid(alpha=0.3)
        title = f"ccmj odds {text(d.get('hand', ''))}"
        if series and series[0]["mc"]:
            title += "  (band: 95% CI)"
        ax.set_title(title)
        if series:
            ax.legend(loc="upper left")

        # the split by how the hand is won: one stacked bar per starting point (and per method)
        rows, names = [], []
        for c in series:
            for kind in ("mc", "exact"):
                if c["methods"].get(kind):
                    rows.append(c["methods"][kind])
                    tag = "MC" if kind == "mc" else "exact"
                    names.append(f"{c['label']} {tag}" if many else tag)
        y = list(range(len(rows)))
        left = [0.0] * len(rows)
        for j, m in enumerate(METHODS):
            widths = [r.get(m, 0.0) or 0.0 for r in rows]
            if not any(widths):
                continue  # a method no row has (点炮 without opponents, 摸宝 without a bao)
            bx.barh(y, widths, left=left, color=f"C{j}", label=label(*METHOD_LABELS[m]))
            left = [a + b for a, b in zip(left, widths, strict=True)]
        bx.set_yticks(y, names)
        bx.invert_yaxis()
        bx.set_title("P(win) by " + label("胡法", "win method"))
        bx.grid(axis="x", alpha=0.3)
        if bx.get_legend_handles_labels()[0]:
            bx.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=4, frameon=False)
        _save(fig, rc, path)
    return series


def _darker(color: str, k: float = 0.55) -> tuple:
    """``color`` darkened toward black (RGB times ``k``)."""
    from matplotlib.colors import to_rgb

    return tuple(k * x for x in to_rgb(color))


def _bars(ax, names, triples, color="C0", dealer: str | None = None):
    """Bars with 95% CI error bars from (value, lo, hi) triples; the bar named ``dealer`` (the
    dealer's, beside the seats) in its own colour."""
    vals = [t[0] for t in triples]
    err = [[t[0] - t[1] for t in triples], [t[2] - t[0] for t in triples]]
    colors = ["C3" if n == dealer else color for n in names]
    ax.bar(names, vals, yerr=err, capsize=3, color=colors)


def plot_simulate(d: dict, path: str) -> dict:
    """Draw a ``simulate`` result to PATH (format by extension); returns
    ``simulate_series(d)``."""
    s = simulate_series(d)
    fig, axes, cjk, rc = _figure(2, 2, (10, 7))
    label, text = _labeller(cjk)
    import matplotlib

    with matplotlib.rc_context(rc):
        (a, b), (c, e) = axes
        # how hands end (of hands), and the win rate of each seat with the dealer's
        ends = s["ends"]
        names = [label(*METHOD_LABELS[m]) if m in METHOD_LABELS else label("荒庄", "no win")
                 for m in ends]  # fmt: skip
        _bars(a, names, list(ends.values()), "C0")
        a.set_ylabel("share of hands")
        a.set_title(label("胡法", "how hands end") + " (95% CI)")
        a.grid(axis="y", alpha=0.3)

        seats = list(s["win_rate"])
        triples = list(s["win_rate"].values())
        if "dealer_win_rate" in s:
            seats.append(label("庄", "dealer"))
            triples.append(s["dealer_win_rate"])
        _bars(b, seats, triples, "C2", label("庄", "dealer"))
        if "seat_mean_win_rate" in s:
            b.axhline(s["seat_mean_win_rate"], color="0.3", ls="--", lw=1,
                      label="mean seat ((1 - no-win share) / 4)")  # fmt: skip
            b.legend(loc="lower right")
        b.set_ylabel("win rate")
        b.set_title("win rate by seat (E deals first) and the dealer's")
        b.grid(axis="y", alpha=0.3)

        fans = s["fan"]
        c.bar(list(fans), list(fans.values()), color="C1")
        c.set_xlabel("hand fan")
        c.set_ylabel("share of wins")
        c.set_title(label("番", "fan distribution"))
        c.grid(axis="y", alpha=0.3)

        names = list(s["payout"])
        triples = list(s["payout"].values())
        if "dealer_payout" in s:
            names.append(label("庄", "dealer"))
            triples.append(s["dealer_payout"])
        _bars(e, names, triples, "C4", label("庄", "dealer"))
        e.axhline(0, color="0.3", lw=0.8)
        e.set_ylabel("base units per hand")
        title = "payout per hand (95% CI)"
        if "discarder_payout" in s:  # on a line of its own: one line is wider than the panel
            dp = s["discarder_payout"]
            title += f"\ndiscarder per {label('点炮', 'discard win')}: {dp[0]:+.2f}"
            if dp[1] != dp[2]:
                title += f" [{dp[1]:+.2f}, {dp[2]:+.2f}]"
        e.set_title(title)
        e.grid(axis="y", alpha=0.3)

        pol = d.get("policy") or {}
        bots = ",".join(dict.fromkeys(pol.values())) if pol else "?"
        fig.suptitle(
            f"ccmj simulate: {d.get('hands', 0):,} hands, seed {d.get('seed')}, rules "
            f"{text(str(d.get('rules')))}, bots {text(bots)}"
        )
        _save(fig, rc, path)
    return s


def review_series(d: dict) -> dict:
    """Per seat: the loss (in the objective) of each decision in order, as a ``review`` result
    holds it."""
    key = "p_win" if d["objective"] == "win" else "expected_payment"
    out: dict = {}
    for x in d["decisions"]:
        out.setdefault(x["seat"], []).append(float(x["loss"][key]))
    return out


def plot_review(d: dict, path: str) -> dict:
    """Draw a ``review`` result to PATH: the loss along the game and a histogram, per seat;
    returns ``review_series(d)``."""
    series = review_series(d)
    seats = [s for s in SEATS if s in series] or ["E"]
    fig, axes, cjk, rc = _figure(len(seats), 2, (10, 2.6 * len(seats)))
    label, _text = _labeller(cjk)
    import matplotlib

    what = "P(win)" if d["objective"] == "win" else "E[pay]"
    with matplotlib.rc_context(rc):
        for i, s in enumerate(seats):
            ax, bx = axes[i]
            ys = series.get(s, [])
            ax.plot(range(1, len(ys) + 1), ys, marker=".", lw=0.8)
            ax.set_title(f"{s}: loss in {what} along the game")
            ax.set_xlabel("decision")
            ax.set_ylabel(f"loss ({what})")
            bx.hist(ys, bins=20, color="C1")
            bx.set_title(f"{s}: losses")
            bx.set_xlabel(f"loss ({what})")
            bx.set_ylabel("decisions")
    _save(fig, rc, path)
    return series
