"""The documentation keeps up with the code: every command is in the README (with an example that
runs), the docs/ site builds with `mkdocs build --strict`, every example of the README and of
docs/*.md runs as written, and the top-level rules.yaml documents every option with its true
default."""

from pathlib import Path

import yaml

from ccmj_cli.cli import app
from ccmj_cli.rules import SCHEMA, load_variant

ROOT = Path(__file__).resolve().parent.parent
# The README (the front door) and the pages of the docs/ site, in that order
DOC_FILES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _doc_name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def test_every_command_is_documented_in_the_readme():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    names = [c.name or c.callback.__name__ for c in app.registered_commands]
    assert names, "no commands registered"
    for name in names:
        assert f"ccmj {name}" in readme, f"`ccmj {name}` is not documented in README.md"


def test_rules_yaml_lists_every_option_with_its_default():
    data = yaml.safe_load((ROOT / "rules.yaml").read_text(encoding="utf-8"))
    assert data.pop("extends") == "default"
    assert set(data) == set(SCHEMA), "rules.yaml and the schema name different options"
    assert load_variant(str(ROOT / "rules.yaml")).to_dict() == load_variant().to_dict()


def test_variant_page_names_every_option():
    page = (ROOT / "docs" / "variants.md").read_text(encoding="utf-8")
    section = page.split("## The variant file", 1)[1].split("\n## ", 1)[0]
    for key in SCHEMA:
        assert f"`{key}`" in section or f"`{key}.*`" in section, key


# -------------------------------------------------------------------- README and docs examples
#
# Every shell example of the README and of docs/*.md that starts with `ccmj` (or `$ ccmj`) is
# run as written, in a scratch folder holding a copy of examples/ and every file they write out
# (```yaml blocks that start with `# NAME.yaml`); other lines of the same block (`printf ... >
# room.yaml`) run too, in order. Where the README shows the output (a `$ command` followed by
# lines), the output must match: a line `...` or `…` stands for any number of lines, `…` inside
# a line for any text, and a trailing `   # comment` is the README's remark, not output.
# Documented nondeterministic fields (trials/s) are masked on both sides.

import os  # noqa: E402
import re  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402

import pytest  # noqa: E402

FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
# A synopsis, not an example: placeholders in capitals (HAND, TILE, FILE.csv) or option lists
SYNOPSIS = re.compile(r"\b[A-Z]{3,}\b|\[--")
# Examples not run as written, with the reason. The hand counts only change how long a run
# takes (the same code runs); a remote Dask cluster is not there in a test run.
SCALED = {
    "-n 200000 ": "-n 2000 ",
    "-n 20000 ": "-n 1000 ",
    "-n 10000 ": "-n 1000 ",
    "--hands 10000 ": "--hands 1000 ",
}
NOT_RUN = {"tcp://10.0.0.5:8786": "needs a running Dask cluster at that address"}
MASKS = [(re.compile(r"[\d,.]+ trials/s"), "<rate> trials/s")]


def _readme_examples():
    """[(file name, line, [(command, expected output lines or None)])]: the README's examples,
    then each docs page's, in page order."""
    out = []
    for path in DOC_FILES:
        out += [(_doc_name(path), n, steps) for n, steps in _examples_of(path)]
    return out


def _examples_of(path: Path):
    """[(line, [(command, expected output lines or None)])] of one Markdown file, in order."""
    readme = path.read_text(encoding="utf-8")
    out = []
    for m in FENCE.finditer(readme):
        lang, body = m.group(1), m.group(2)
        if lang not in ("", "sh", "console", "bash"):
            continue
        line_no = readme[: m.start()].count("\n") + 1
        steps: list = []
        if any(x.startswith("$ ") for x in body.splitlines()):  # a transcript
            for x in body.splitlines():
                if x.startswith("$ "):
                    steps.append((x[2:], []))
                elif steps:
                    steps[-1][1].append(x)
            steps = [(c, exp if any(e.strip() for e in exp) else None) for c, exp in steps]
        else:
            steps = [(x, None) for x in body.splitlines() if x.strip() and not x[0].isspace()]
        commands = [c for c, _ in steps]
        if not any(c.startswith("ccmj ") and not SYNOPSIS.search(c) for c in commands):
            continue  # no ccmj example here (installation, benchmarks, synopses)
        if any(c.startswith("ccmj ") and SYNOPSIS.search(c) for c in commands):
            continue
        out.append((line_no, steps))
    return out


def _readme_files():
    """{name: text} of the files the README and docs write out (```yaml blocks headed `# NAME`)."""
    files = {}
    for path in DOC_FILES:
        for m in FENCE.finditer(path.read_text(encoding="utf-8")):
            first = m.group(2).split("\n", 1)[0]
            if m.group(1) == "yaml" and re.fullmatch(r"# [\w.-]+\.ya?ml", first):
                assert files.get(first[2:], m.group(2)) == m.group(2), f"two {first[2:]}"
                files[first[2:]] = m.group(2)
    return files


EXAMPLES = _readme_examples()


def _line_pattern(line: str) -> re.Pattern:
    line = re.sub(r"\s{2,}# .*$", "", line.rstrip())
    for rx, mask in MASKS:
        line = rx.sub(mask, line)
    return re.compile(".*".join(re.escape(part) for part in re.split(r"\s*…\s*", line)) + r"\Z")


def output_matches(expected: list[str], actual: list[str]) -> bool:
    """Expected lines (with `...` lines and `…` inside lines as wildcards) against the output."""
    actual = [x.rstrip() for x in actual]
    for rx, mask in MASKS:
        actual = [rx.sub(mask, x) for x in actual]
    while expected and not expected[-1].strip():
        expected = expected[:-1]
    while actual and not actual[-1]:
        actual = actual[:-1]
    segments: list[list[re.Pattern]] = [[]]
    for x in expected:
        if x.strip() in ("...", "…"):
            segments.append([])
        else:
            segments[-1].append(_line_pattern(x))

    def at(seg, i):
        return i + len(seg) <= len(actual) and all(
            p.match(actual[i + k]) for k, p in enumerate(seg)
        )

    pos = 0
    for n, seg in enumerate(segments):
        first, last = n == 0, n == len(segments) - 1
        if last and len(segments) > 1 and not seg:
            return True  # ends with `...`
        if first:
            if not at(seg, 0):
                return False
            pos = len(seg)
            if last:
                return pos == len(actual)
            continue
        if last:
            start = len(actual) - len(seg)
            return start >= pos and at(seg, start)
        i = next((i for i in range(pos, len(actual) - len(seg) + 1) if at(seg, i)), None)
        if i is None:
            return False
        pos = i + len(seg)
    return True


def test_output_matcher_by_hand():
    out = ["hand  x", "a 1", "b 2", "c 3"]
    assert output_matches(["hand  x", "a 1", "b 2", "c 3"], out)
    assert output_matches(["hand  x", "...", "c 3"], out)
    assert output_matches(["...", "b 2", "c 3"], out)
    assert output_matches(["hand  x", "a 1", "..."], out)
    assert output_matches(["hand …", "…", "c 3      # a remark"], out)
    assert not output_matches(["hand  x", "a 1"], out)  # output left over
    assert not output_matches(["hand  x", "...", "b 3"], out)
    assert not output_matches(["hand  y", "..."], out)
    assert output_matches(["t (seed 1, 9,000 trials/s)"], ["t (seed 1, 179,632 trials/s)"])


def test_the_readme_examples_are_found():
    commands = [c for _, _, steps in EXAMPLES for c, _ in steps]
    assert len(EXAMPLES) >= 12 and len(commands) >= 20, commands
    for needed in (
        "ccmj waits 111m456p789s2345s",
        "ccmj odds 123m456p789s11123s",
        "ccmj simulate -n 2000 --rules my-room.yaml",
        "printf 'extends: quanbao",
    ):
        assert any(c.startswith(needed) for c in commands), needed
    assert "my-room.yaml" in _readme_files()
    pages = {name for name, _, _ in EXAMPLES}
    for page in ("README.md", "docs/commands.md", "docs/odds.md", "docs/simulation.md"):
        assert page in pages, page


def test_the_readme_has_a_running_example_of_every_command():
    """The front door: one example per command, among the examples the tests run."""
    run = [c for name, _, steps in EXAMPLES if name == "README.md" for c, _ in steps]
    words = {w for c in run for w in re.findall(r"(?:^|&& |\| )ccmj ([\w-]+)", c)}
    for c in app.registered_commands:
        assert (c.name or c.callback.__name__) in words, c.name


def test_the_readme_keeps_the_two_set_up_commands():
    """.ci/run installs and tests exactly as the README says."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()[-1]
    assert f"```sh\n{ci}\n```" in readme
    install = "pip install . && ccmj waits 111m456p789s2345s && ccmj warm-up"
    assert f"```sh\npython3 -m venv .venv && . .venv/bin/activate && {install}\n```" in readme


LINK = re.compile(r"\]\(([^)\s]+)\)")


def test_links_between_the_readme_and_the_docs_lead_somewhere():
    """Every relative link of the README and the docs names a file that exists (and, on a docs
    page, one inside docs/: the site cannot link out of it); mkdocs --strict checks anchors."""
    for path in DOC_FILES:
        text = FENCE.sub("", path.read_text(encoding="utf-8"))
        text = re.sub(r"`[^`\n]*`", "", text)  # hands in code spans: `[222p](9999p)`
        for target in LINK.findall(text):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            file = (path.parent / target.split("#", 1)[0]).resolve()
            assert file.exists(), (_doc_name(path), target)
            if path.parent.name == "docs":
                assert (ROOT / "docs") in file.parents, (_doc_name(path), target)


def test_the_readme_and_docs_speak_in_the_projects_own_words():
    """No working notes leak into user-facing text: internal paths, the rule notes' file
    name, the test-case files' name, tracker numbers."""
    bad = re.compile(r"/work/|(?-i:\bRULES\.md\b)|\bseeds\b|\bissue\s*#?\d+", re.I)
    for path in DOC_FILES:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            assert not bad.search(line), (_doc_name(path), n, line)


def test_the_docs_site_builds_strict(tmp_path):
    """`mkdocs build --strict` (mkdocs-material is in the test extra): no broken link or anchor,
    no page left out of the nav, no nav entry to a missing page."""
    pytest.importorskip("mkdocs")
    pytest.importorskip("material")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    r = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-f",
                        str(ROOT / "mkdocs.yml"), "-d", str(tmp_path / "site")],
                       capture_output=True, text=True, env=env, timeout=300)  # fmt: skip
    assert r.returncode == 0, r.stderr[-3000:]
    assert (tmp_path / "site" / "odds" / "index.html").is_file()
    assert (tmp_path / "site" / "img" / "odds.png").is_file()


@pytest.fixture(scope="module")
def example_dir(tmp_path_factory):
    folder = tmp_path_factory.mktemp("readme")
    shutil.copytree(ROOT / "examples", folder / "examples")
    (folder / "docs" / "img").mkdir(parents=True)  # where the README's pictures are made
    for name, text in _readme_files().items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def _slow(steps) -> bool:
    return any(re.match(r"ccmj (odds|simulate)", c) for c, _ in steps)


@pytest.mark.parametrize(
    "steps",
    [
        pytest.param(s, id=f"{name}-line-{n}", marks=[pytest.mark.slow] if _slow(s) else [])
        for name, n, s in EXAMPLES
    ],  # fmt: skip
)
def test_readme_example_runs_as_written(steps, example_dir):
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    for command, expected in steps:
        if any(k in command for k in NOT_RUN):
            continue
        if "--plot" in command:
            pytest.importorskip("matplotlib")  # (the test extra installs it)
        for a, b in SCALED.items():
            command = command.replace(a, b)
        r = subprocess.run(["bash", "-c", command], cwd=example_dir, env=env, text=True,
                           capture_output=True, timeout=900)  # fmt: skip
        assert r.returncode == 0, (command, r.returncode, r.stderr[-2000:])
        assert "Traceback" not in r.stderr, (command, r.stderr[-2000:])
        if expected is not None:
            assert output_matches(expected, r.stdout.splitlines()), (
                command, "\n".join(expected), r.stdout
            )  # fmt: skip


def test_cache_dir_is_that_very_folder(tmp_path):
    """README: `$CCMJ_CACHE_DIR` is the cache folder itself (tables-v3/ right inside it)."""
    folder = tmp_path / "mycache"
    env = {**os.environ, "CCMJ_CACHE_DIR": str(folder)}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"
    r = subprocess.run(["ccmj", "waits", "111m456p789s2345s"], env=env, capture_output=True,
                       text=True, timeout=300)  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert (folder / "tables-v3" / "manifest.json").is_file()
    assert not (folder / "ccmj").exists()
    page = (ROOT / "docs" / "install.md").read_text(encoding="utf-8")
    assert "`$CCMJ_CACHE_DIR` if set (that very folder)" in page


def test_readme_python_api_example_runs_and_says_what_it_prints(monkeypatch):
    """The Python API block (docs/api.md) runs from the repository root (as its load_variant line
    says), and every line whose comment starts with a Python value gives that value."""
    import ast

    readme = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    block = readme.split("## Python API\n\n```python\n", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(ROOT)
    scope: dict = {}
    checked = 0
    for line in block.splitlines():
        code, _, comment = line.partition("  #")
        exec(code, scope)  # noqa: S102 - the README's own example
        value = comment.strip().split(": ")[0].split(" (")[0]
        try:
            want = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            continue
        assert eval(code, scope) == want, line  # noqa: S307
        checked += 1
    assert checked >= 6


def test_readme_pictures_are_small_pngs_made_by_a_documented_command():
    readme = (ROOT / "docs" / "plots.md").read_text(encoding="utf-8")
    for name in ("odds", "simulate"):
        path = ROOT / "docs" / "img" / f"{name}.png"
        data = path.read_bytes()
        assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) < 100_000, (path, len(data))
        assert f"](img/{name}.png)" in readme
        assert re.search(rf"^ccmj {name} .*--plot docs/img/{name}\.png$", readme, re.M), name


@pytest.mark.slow
def test_the_example_study_figures_are_this_versions():
    """docs/simulation.md's example study table is what its commands give now (made by
    scripts/example_study.py, which runs them: 2 × 10,000 hands)."""
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "example_study.py"), "--check",
                        str(ROOT / "docs" / "simulation.md")],
                       capture_output=True, text=True, timeout=1800)  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr[-2000:]


def test_the_example_study_table_is_made_from_the_json_fields():
    """The table builder by hand on a made-up result: rates as percentages with their
    intervals, "same" where the 点炮全包 run equals the default one, money signed."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("study", ROOT / "scripts" / "example_study.py")
    study = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(study)
    rate = lambda x, lo, hi: {"rate": x, "ci95": [lo, hi]}  # noqa: E731
    a = {
        "dealer_win_rate": rate(0.25, 0.242, 0.259),
        "draw_rate": rate(0.064, 0, 1),
        "dealer_mean_payout": {"mean": 0.48, "ci95": [0.21, 0.76]},
        "discarder_mean_payout": {"mean": -4.97},
        "by_method": {m: rate(0.2, 0, 1) for m in ("zimo", "dianpao", "mobao", "duibao")},
        "jiahu_rate": rate(0.459, 0, 1),
        "piao_rate": rate(0.003, 0, 1),
        "menqing_rate": rate(0.106, 0, 1),
        "bao_rolled_rate": rate(0.837, 0, 1),
        "jiehu_rate": rate(0.012, 0, 1),
        "kong_money": {"per_hand": 3.45, "kongs_per_hand": 0.84},
    }
    b = {**a, "discarder_mean_payout": {"mean": -9.8}}
    rows = study.table(a, b).splitlines()
    assert rows[2] == "| dealer win rate | 25.0% [24.2, 25.9] | same |"
    assert rows[3] == "| mean win rate of a seat ((1 − 荒庄)/4) | 23.4% | same |"  # (1-0.064)/4
    assert rows[4] == "| dealer payout per hand (base units) | +0.48 [+0.21, +0.76] | same |"
    assert rows[5] == "| discarder's payout per 点炮 | −4.97 | −9.80 |"
    assert rows[-1] == "| kong money per hand (0.84 kongs) | 3.45 | same |"
