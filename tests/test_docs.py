"""The documentation keeps up with the code: every command is in the README, and the top-level
rules.yaml documents every option with its true default."""

from pathlib import Path

import yaml

from ccmj_cli.cli import app
from ccmj_cli.rules import SCHEMA, load_variant

ROOT = Path(__file__).resolve().parent.parent


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


def test_readme_variant_section_names_every_option():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## The variant file", 1)[1].split("\n## ", 1)[0]
    for key in SCHEMA:
        assert f"`{key}`" in section or f"`{key}.*`" in section, key
