"""`--plot FILE` on odds and simulate: a valid picture of the requested type, drawn from the very
numbers the command prints with --json (never recomputed), one-line errors, no missing glyphs."""

import json
import re
import sys
import warnings

import pytest
from typer.testing import CliRunner

from ccmj_cli.cli import app

runner = CliRunner()
MAGIC = {"png": b"\x89PNG\r\n\x1a\n", "pdf": b"%PDF-"}

ODDS_13 = ["odds", "123m456p789s1112s", "--declare", "--bao", "unknown", "-n", "6",
           "--seed", "1", "--trials", "3000", "--exact"]  # fmt: skip
ODDS_14 = ["odds", "123m456p789s11123s", "--declare", "-n", "6", "--seed", "1",
           "--trials", "2000", "--exact"]  # fmt: skip
SIMULATE = ["simulate", "-n", "96", "--seed", "2", "--no-progress", "--threads", "1"]


def assert_image(path, fmt):
    data = path.read_bytes()
    assert len(data) > 1000, (path, len(data))
    if fmt == "svg":
        head = data[:400].decode("utf-8")
        assert head.startswith("<?xml") and "<svg" in head, head
        assert data.rstrip().endswith(b"</svg>")
    else:
        assert data.startswith(MAGIC[fmt]), data[:8]
    if fmt == "pdf":
        assert data.rstrip().endswith(b"%%EOF")


def run_plotted(monkeypatch, tmp_path, args, kind, fmt):
    """Run the command with --json --plot; return (JSON printed, dict the plot got, its series,
    the picture's path). The plot function is wrapped, not replaced: the picture is drawn."""
    pytest.importorskip("matplotlib")
    from ccmj_cli import plots

    seen = {}
    real = getattr(plots, f"plot_{kind}")

    def spy(d, path):
        seen["d"], seen["series"] = d, real(d, path)
        return seen["series"]

    monkeypatch.setattr(plots, f"plot_{kind}", spy)
    path = tmp_path / f"pic.{fmt}"
    r = runner.invoke(app, [*args, "--json", "--plot", str(path)])
    assert r.exit_code == 0, (r.output, r.exception)
    printed = json.loads(r.stdout)
    assert_image(path, fmt)
    # the plot got the object the JSON was printed from
    assert json.loads(json.dumps(seen["d"])) == printed
    return printed, seen["series"], path


def cumsum(xs):
    out, t = [], 0.0
    for x in xs:
        t += x
        out.append(t)
    return out


def test_odds_13_tiles_png_draws_the_json_numbers(monkeypatch, tmp_path):
    d, series, _ = run_plotted(monkeypatch, tmp_path, ODDS_13, "odds", "png")
    assert len(series) == 1
    mc, ex = series[0]["mc"], series[0]["exact"]
    # the Monte Carlo curve is the cumulative by_round of the JSON, ending at p_win, and its
    # band ends at the JSON's 95% interval
    assert mc["rounds"] == list(range(1, d["rounds"] + 1))
    assert mc["cumulative"] == pytest.approx(cumsum(d["by_round"]), abs=1e-12)
    assert mc["cumulative"][-1] == pytest.approx(d["p_win"], abs=1e-12)
    assert [mc["lo"][-1], mc["hi"][-1]] == pytest.approx(d["ci95"], abs=1e-9)
    band = zip(mc["lo"], mc["cumulative"], mc["hi"], strict=True)
    assert all(lo <= p <= hi for lo, p, hi in band)
    # the exact curve is drawn apart, from the JSON's exact series
    want = d["exact"].get("win_by_turn") or cumsum(d["exact"]["by_round"])
    assert ex["cumulative"] == pytest.approx(want, abs=1e-12)
    assert ex["cumulative"][-1] == pytest.approx(d["exact"]["p_win"], abs=1e-9)
    # the split by win method: the JSON's by_method, Monte Carlo and exact
    assert series[0]["methods"]["mc"] == d["by_method"]
    assert series[0]["methods"]["exact"] == d["exact"]["by_method"]


def test_odds_14_tiles_svg_one_curve_per_discard_best_first(monkeypatch, tmp_path):
    d, series, path = run_plotted(monkeypatch, tmp_path, ODDS_14, "odds", "svg")
    from ccmj_cli.plots import MAX_CURVES

    rows = d["discards"][:MAX_CURVES]
    assert [c["label"] for c in series] == [r["discard"] for r in rows]
    for c, r in zip(series, rows, strict=True):
        assert c["mc"]["cumulative"] == pytest.approx(cumsum(r["by_round"]), abs=1e-12)
        assert c["methods"]["mc"] == r["by_method"]
        assert (c["exact"] is None) == (r["exact"] is None)
    # each curve is labelled with its discard in the picture (SVG keeps the text)
    svg = path.read_text(encoding="utf-8")
    for r in rows[:3]:
        assert f"discard {r['discard']}" in svg


def test_simulate_pdf_draws_the_json_numbers(monkeypatch, tmp_path):
    d, s, _ = run_plotted(monkeypatch, tmp_path, SIMULATE, "simulate", "pdf")

    def triple(r):
        return (r["rate"], *r["ci95"])

    def mtriple(m):
        return (m["mean"], *m["ci95"])

    assert s["win_rate"] == {k: triple(v) for k, v in d["win_rate"].items()}
    assert s["dealer_win_rate"] == triple(d["dealer_win_rate"])
    assert s["ends"] == {**{m: triple(v) for m, v in d["by_method"].items()},
                         "draw": triple(d["draw_rate"])}  # fmt: skip
    wins = sum(d["fan_distribution"].values())
    assert s["fan"] == {k: v / wins for k, v in d["fan_distribution"].items()}
    assert s["payout"] == {k: mtriple(v) for k, v in d["mean_payout"].items()}
    assert s["dealer_payout"] == mtriple(d["dealer_mean_payout"])
    assert s["discarder_payout"] == mtriple(d["discarder_mean_payout"])


def test_plot_functions_tolerate_missing_and_extra_fields(tmp_path):
    """Results with fields left out (an exact-only odds run, a simulate result without some
    statistics) or new fields still draw, and draw what they have."""
    pytest.importorskip("matplotlib")
    from ccmj_cli import plots

    exact_only = {"hand": "123m456p1112789s", "discard": None, "method": "exact", "p_win": None,
                  "by_round": None, "by_method": None, "trials": 0, "new_field": [1, 2],
                  "exact": {"p_win": 0.3, "by_method": {"zimo": 0.3}, "by_round": [0.1, 0.2],
                            "win_by_turn": [0.1, 0.3], "tenpai_by_turn": [1.0, 1.0]}}  # fmt: skip
    (c,) = plots.plot_odds(exact_only, str(tmp_path / "e.png"))
    assert c["mc"] is None and c["exact"]["cumulative"] == [0.1, 0.3]
    assert c["exact"]["tenpai"] == [1.0, 1.0] and c["methods"] == {"exact": {"zimo": 0.3}}
    assert_image(tmp_path / "e.png", "png")
    s = plots.plot_simulate({"hands": 5, "win_rate": {"E": {"rate": 0.2, "ci95": [0.1, 0.3]}},
                             "extra": {"x": 1}}, str(tmp_path / "s.svg"))  # fmt: skip
    assert s["win_rate"] == {"E": (0.2, 0.1, 0.3)} and s["fan"] == {} and s["payout"] == {}
    assert_image(tmp_path / "s.svg", "svg")


def test_no_missing_glyphs_whatever_the_fonts(tmp_path):
    """Chinese labels only with a font that has them: matplotlib warns for every glyph it
    cannot draw (the tofu box), so drawing with warnings as errors proves there is none — also
    for a rules file named in Chinese."""
    pytest.importorskip("matplotlib")
    from ccmj_cli import plots

    d = {"hands": 10, "seed": 1, "rules": "我的房间.yaml", "policy": {"E": "baseline"},
         "fan_distribution": {"3": 4, "4": 2}, "discarder_mean_payout": -2.5,
         "by_method": {"zimo": {"rate": 0.3, "ci95": [0.2, 0.4]}},
         "draw_rate": {"rate": 0.1, "ci95": [0.05, 0.2]}}  # fmt: skip
    odds = {"hand": "123m456p1112789s", "p_win": 0.5, "trials": 100, "by_round": [0.2, 0.3],
            "by_method": {m: 0.125 for m in plots.METHODS}, "exact": None}  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        s = plots.plot_simulate(d, str(tmp_path / "a.png"))
        plots.plot_odds(odds, str(tmp_path / "b.png"))
    assert s["discarder_payout"] == (-2.5, -2.5, -2.5)  # a bare number: drawn, no interval


@pytest.mark.parametrize("args", [["simulate", "-n", "16"], ["odds", "123m456p789s1112s"]])
def test_plot_needs_a_known_extension(args):
    r = runner.invoke(app, [*args, "--plot", "odds.jpg"])
    assert r.exit_code == 2, r.output
    assert r.stderr.strip() == (
        "error: --plot 'odds.jpg': the file name must end in .png, .svg or .pdf"
    )
    assert r.stdout == ""  # refused before any work


@pytest.mark.parametrize("args", [["simulate", "-n", "16"], ["odds", "123m456p789s1112s"]])
def test_plot_without_matplotlib_is_one_line(monkeypatch, args):
    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # `import matplotlib` fails
    r = runner.invoke(app, [*args, "--plot", "x.png"])
    assert r.exit_code == 2, r.output
    assert r.stderr.strip() == "error: --plot needs matplotlib: pip install 'ccmj_cli[plot]'"
    assert r.stdout == ""


def test_plot_to_a_folder_that_does_not_exist_is_one_line(tmp_path):
    pytest.importorskip("matplotlib")
    r = runner.invoke(app, [*ODDS_13[:-3], "--trials", "200", "--plot",
                            str(tmp_path / "no" / "x.png")])  # fmt: skip
    assert r.exit_code == 2, r.output
    folder = tmp_path / "no"
    assert (
        r.stderr.strip()
        == f"error: --plot '{folder / 'x.png'}': the folder '{folder}' does not exist"
    )
    assert r.stdout == ""  # refused before any work


def test_matplotlib_is_imported_only_for_a_picture(tmp_path):
    """The start-up of every command stays as it was: matplotlib loads only with --plot (its
    import costs a few tenths of a second)."""
    import subprocess

    probe = (
        "import sys; from ccmj_cli.cli import main\n"
        "try:\n    main()\nexcept SystemExit as e:\n    code = e.code\n"
        "print('matplotlib' in sys.modules, code)"
    )

    def loaded(*args):
        out = subprocess.run([sys.executable, "-c", probe, *args], capture_output=True,
                             text=True, check=True).stdout  # fmt: skip
        return out.splitlines()[-1]

    assert loaded("waits", "111m456p789s2345s") == "False 0"
    assert loaded("odds", "123m456p789s1112s", "--trials", "0", "--exact", "--declare") == (
        "False 0"
    )
    assert loaded("simulate", "--help") == "False 0"
    pytest.importorskip("matplotlib")
    pic = str(tmp_path / "o.svg")
    assert loaded("odds", "123m456p789s1112s", "--trials", "0", "--exact", "--declare",
                  "--plot", pic) == "True 0"  # fmt: skip


def test_a_font_without_the_characters_is_not_used(monkeypatch, tmp_path):
    """A font is taken for Chinese labels only if it has every character they use: DejaVu Sans
    (always there, no CJK glyphs) listed as a CJK font still gives English labels."""
    pytest.importorskip("matplotlib")
    from matplotlib import font_manager

    from ccmj_cli import plots

    monkeypatch.setattr(plots, "CJK_FONTS", ("DejaVu Sans",))
    assert plots._cjk_font(font_manager) is None
    odds = {"hand": "123m456p1112789s", "p_win": 0.5, "trials": 100, "by_round": [0.2, 0.3],
            "by_method": {m: 0.125 for m in plots.METHODS}, "exact": None}  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        plots.plot_odds(odds, str(tmp_path / "o.svg"))
    svg = (tmp_path / "o.svg").read_text(encoding="utf-8")
    assert "self-draw" in svg and not any(ch in svg for ch in plots.CJK_NEEDED)


@pytest.mark.parametrize("args", [["simulate", "-n", "16"], ["odds", "123m456p789s1112s"]])
def test_plot_with_an_empty_name_is_refused_before_any_work(args):
    r = runner.invoke(app, [*args, "--plot", ""])
    assert r.exit_code == 2, r.output
    assert r.stderr.strip() == "error: --plot '': give a file name ending in .png, .svg or .pdf"
    assert r.stdout == ""


@pytest.mark.parametrize("args", [["simulate", "-n", "16"], ["odds", "123m456p789s1112s"]])
def test_plot_onto_a_folder_is_refused_before_any_work(args, tmp_path):
    pytest.importorskip("matplotlib")
    folder = tmp_path / "pic.png"
    folder.mkdir()
    r = runner.invoke(app, [*args, "--plot", str(folder)])
    assert r.exit_code == 2, r.output
    assert r.stderr.strip() == f"error: --plot '{folder}': it is a directory"
    assert r.stdout == ""


@pytest.mark.parametrize("args", [["simulate", "-n", "16"], ["odds", "123m456p789s1112s"]])
def test_plot_into_a_read_only_folder_is_refused_before_any_work(args, tmp_path, monkeypatch):
    """The tests run as root, who may write anywhere: the permission is mocked (a user's
    read-only folder), and the command must ask before its work."""
    pytest.importorskip("matplotlib")
    import ccmj_cli.cli.files as files

    real = files.os.access
    monkeypatch.setattr(
        files.os, "access", lambda p, mode: False if mode == files.os.W_OK else real(p, mode)
    )
    r = runner.invoke(app, [*args, "--plot", str(tmp_path / "x.png")])
    assert r.exit_code == 2, r.output
    assert r.stderr.strip() == (
        f"error: --plot '{tmp_path / 'x.png'}': the folder '{tmp_path}' is not writable"
    )
    assert r.stdout == ""


def test_a_failed_plot_write_leaves_the_old_picture_and_names_the_file(tmp_path, monkeypatch):
    """A full disk half-way through the picture: the old picture stays, no temporary file is
    left, and the error names the file."""
    pytest.importorskip("matplotlib")
    import errno

    from ccmj_cli import plots
    from ccmj_cli.errors import UsageError

    path = tmp_path / "pic.svg"
    path.write_bytes(b"the old picture")

    def full_disk(fig, rc, fmt, f):
        f.write(b"<?xml half a picture")
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(plots, "_draw", full_disk)
    with pytest.raises(UsageError) as e:
        plots.plot_simulate({"hands": 5, "win_rate": {"E": {"rate": 0.2, "ci95": [0.1, 0.3]}}},
                            str(path))  # fmt: skip
    assert e.value.message == f"cannot write '{path}': No space left on device"
    assert path.read_bytes() == b"the old picture"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pic.svg"]


def _drawn(monkeypatch, plots, fn, d, tmp_path, cjk: bool):
    """Draw ``d`` with ``fn`` and keep the figure (the picture is written as usual); Chinese
    labels on or off (DejaVu Sans as the only "CJK" font has none of the characters)."""
    if not cjk:
        monkeypatch.setattr(plots, "CJK_FONTS", ("DejaVu Sans",))
    kept = {}
    real = plots._save

    def save(fig, rc, path):
        kept["fig"] = fig
        real(fig, rc, path)

    monkeypatch.setattr(plots, "_save", save)
    fn(d, str(tmp_path / "p.png"))
    fig = kept["fig"]
    fig.canvas.draw()
    return fig


SIM_RESULT = {  # the shape of a `simulate --json` result, with wide figures in the titles
    "hands": 10000, "seed": 1, "rules": "default", "policy": {s: "baseline" for s in "ESWN"},
    "win_rate": {s: {"rate": 0.23, "ci95": [0.22, 0.24]} for s in "ESWN"},
    "dealer_win_rate": {"rate": 0.25, "ci95": [0.24, 0.26]},
    "draw_rate": {"rate": 0.063, "ci95": [0.058, 0.068]},
    "by_method": {m: {"rate": 0.2, "ci95": [0.19, 0.21]} for m in ("zimo", "dianpao", "mobao",
                                                                     "duibao")},
    "fan_distribution": {"3": 40, "4": 30, "5": 20},
    "mean_payout": {s: {"mean": 0.1, "sd": 9.0, "ci95": [-0.12, 0.32]} for s in "ESWN"},
    "dealer_mean_payout": {"mean": 0.48, "sd": 14.0, "ci95": [0.21, 0.76]},
    "discarder_mean_payout": {"mean": -9.804, "sd": 6.0, "ci95": [-9.912, -9.696]},
}  # fmt: skip


@pytest.mark.parametrize("cjk", [False, True])
def test_every_panel_title_fits_its_panel(monkeypatch, tmp_path, cjk):
    """No title is cut off or runs into the next panel: each panel's title is no wider than the
    panel and lies inside the picture (the payout panel's title with the discarder's payout
    and its interval was wider than the panel)."""
    pytest.importorskip("matplotlib")
    from ccmj_cli import plots

    if cjk and not plots._cjk_font(__import__("matplotlib").font_manager):
        pytest.skip("no CJK font installed")
    fig = _drawn(monkeypatch, plots, plots.plot_simulate, SIM_RESULT, tmp_path, cjk)
    r = fig.canvas.get_renderer()
    width = fig.bbox.width
    for ax in fig.axes:
        t, box = ax.title.get_window_extent(r), ax.get_window_extent(r)
        assert t.width <= box.width + 1, (ax.get_title(), t.width, box.width)
        assert t.x0 >= -1 and t.x1 <= width + 1, (ax.get_title(), t.x0, t.x1, width)


def test_no_win_is_not_called_a_draw(monkeypatch, tmp_path):
    """荒庄 (the wall runs out, nobody wins) is not "draw", which reads as a self-draw (自摸)
    beside the win methods: in English it is "no win"."""
    pytest.importorskip("matplotlib")
    from ccmj_cli import plots

    fig = _drawn(monkeypatch, plots, plots.plot_simulate, SIM_RESULT, tmp_path, cjk=False)
    ends = fig.axes[0]
    ticks = [t.get_text() for t in ends.get_xticklabels()]
    assert "no win" in ticks and "self-draw" in ticks, ticks
    legends = [ax.get_legend() for ax in fig.axes if ax.get_legend()]
    words = " ".join([*ticks, *(x.get_text() for lg in legends for x in lg.get_texts())])
    assert not re.search(r"(?<!self-)\bdraws?\b", words), words  # ("bao drawn" is 摸宝)


@pytest.mark.parametrize("many", [False, True])
def test_a_discards_exact_and_monte_carlo_curves_differ_in_colour(monkeypatch, tmp_path, many):
    """The exact curve and the Monte Carlo curve of one start are told apart by colour too, not
    only by the dash; and different discards keep different colours."""
    pytest.importorskip("matplotlib")
    from matplotlib.colors import to_rgba

    from ccmj_cli import plots

    one = {"hand": "123m456p1112789s", "p_win": 0.4, "trials": 100, "by_round": [0.2, 0.2],
           "ci95": [0.3, 0.5], "by_method": {"zimo": 0.4},
           "exact": {"p_win": 0.41, "by_method": {"zimo": 0.41}, "by_round": [0.2, 0.21],
                     "win_by_turn": [0.2, 0.41], "tenpai_by_turn": [1.0, 1.0]}}  # fmt: skip
    d = {"hand": "x", "discards": [{**one, "discard": t} for t in ("1z", "2z")]} if many else one
    fig = _drawn(monkeypatch, plots, plots.plot_odds, d, tmp_path, cjk=False)
    lines = {x.get_label(): to_rgba(x.get_color()) for x in fig.axes[0].get_lines()}
    names = ["discard 1z", "discard 2z"] if many else ["P(win)"]
    for n in names:
        assert lines[f"{n} (Monte Carlo)"] != lines[f"{n} (exact)"], (n, lines)
    if many:
        assert lines["discard 1z (exact)"] != lines["discard 2z (exact)"]
        assert lines["discard 1z (Monte Carlo)"] != lines["discard 2z (Monte Carlo)"]
