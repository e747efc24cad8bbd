"""Packaged presets: each loads, is shown by `ccmj rules --preset`, and changes a result the way
its comment says (hands worked by hand, payments base x 2^(fan-1))."""

import json
from importlib import resources

import pytest
import yaml
from typer.testing import CliRunner

from ccmj_cli import bao as B
from ccmj_cli import scoring as S
from ccmj_cli.cli import app
from ccmj_cli.rules import SCHEMA, load_variant, preset_names

runner = CliRunner()
PRESETS = ("quanbao", "kuansong", "yijiafu", "piaoding")
JIA_HAND = "123m456p46s55s111z"


def test_presets_are_listed_and_load():
    names = preset_names()
    assert names[0] == "default" and set(PRESETS) <= set(names)
    for name in names:
        assert load_variant(name).name == name


@pytest.mark.parametrize("name", PRESETS)
def test_preset_keys_are_known_and_change_something(name):
    text = (resources.files("ccmj_cli") / "data" / "presets" / f"{name}.yaml").read_text(
        encoding="utf-8"
    )
    data = yaml.safe_load(text)
    assert data.pop("extends") == "default"
    assert data and set(data) <= set(SCHEMA)
    default = load_variant("default")
    assert any(getattr(load_variant(name), k) != getattr(default, k) for k in data)


@pytest.mark.parametrize("name", PRESETS)
def test_cli_rules_preset(name):
    res = runner.invoke(app, ["rules", "--preset", name, "--json"])
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    assert d["name"] == name and set(d["options"]) == set(SCHEMA)


def test_every_schema_key_is_documented_in_rules_yaml():
    from pathlib import Path

    # (its values equal the packaged defaults: tests/test_docs.py)
    text = (Path(__file__).parent.parent / "rules.yaml").read_text(encoding="utf-8")
    for key in SCHEMA:
        assert f"\n{key}:" in "\n" + text


def test_quanbao_discarder_covers_all_and_caps(tmp_path):
    v = load_variant("quanbao")
    r = S.score(JIA_HAND, win="5s", how="discard", discarder="W", rules=v)
    assert r.payments == {"E": 0, "S": 20, "W": -20, "N": 0}  # 8 + 8 + 4, all from W
    # seed 003's 点炮全包 has no condition: a declared (报听) discarder covers too ...
    r = S.score(JIA_HAND, win="5s", how="discard", discarder="W", declared=True, rules=v)
    assert r.payments == {"E": 0, "S": 20, "W": -20, "N": 0}
    # ... unless the room says so (RULES §9: "some rooms only when he had not declared")
    room = tmp_path / "room.yaml"
    room.write_text("extends: quanbao\ncover_only_undeclared: true\n", encoding="utf-8")
    v2 = load_variant(str(room))
    r = S.score(JIA_HAND, win="5s", how="discard", discarder="W", declared=True, rules=v2)
    assert r.payments == {"E": -8, "S": 20, "W": -8, "N": -4}
    # 封顶 64x base (RULES §9): 7 fan in §5's count, so this 7-fan hand is just at the cap
    r = S.score("111m999p11s55s777z", how="duibao", bao="5s", seat="E", rules=v)
    assert v.cap_fan == 7 and r.fan_cap == 7 and r.payments["E"] == 3 * 64


def test_yijiafu_only_the_discarder_pays():
    r = S.score(JIA_HAND, win="5s", how="discard", discarder="N", rules="yijiafu")
    assert r.payments == {"E": 0, "S": 8, "W": 0, "N": -8}  # N: 1 + 门清 + 夹 + 点炮 = 4 fan
    # the items are charged to N alone: no 庄 item (the dealer pays nothing here)
    assert [(i.name, i.seats) for i in r.fan_items] == [
        ("win", ["N"]),
        ("menqing", ["N"]),
        ("jiahu", ["N"]),
        ("dianpao", ["N"]),
    ]
    r = S.score(JIA_HAND, win="5s", how="self", rules="yijiafu")  # self-draw: all pay as usual
    assert r.payments == {"E": -16, "S": 32, "W": -8, "N": -8}


def test_kuansong_room():
    v = load_variant("kuansong")
    # 缺门: no 条
    assert S.score("123m456m789p11p111z", win="1p", rules=v).legal
    assert not S.score("123m456m789p11p111z", win="1p").legal
    # a 飘胡 without 条 (缺门 and 大胡缺 both allow it here; each is tested alone in test_scoring)
    assert S.score("222m888p55p777z22z", win="2z", rules=v).legal
    # 七对
    r = S.score("11m99m11p99p11s99s7z", win="7z", how="self", rules=v)
    assert r.legal and "qidui" in {i.name for i in r.fan_items}
    # 三风蛋 and 小鸡飞蛋 parse as special kongs; 下蛋算站立 keeps 门清
    r = S.score("123m456p46s55s[123z]", win="5s", how="self", rules=v)
    assert r.legal and "menqing" in {i.name for i in r.fan_items} and r.kong_payments["S"] == 3
    r = S.score("123m456p46s55s[1s67z]", win="5s", how="self", rules=v)
    assert r.legal and r.kong_payments["S"] == 3
    # 冲宝翻倍
    r = B.bao(JIA_HAND, "5s", rules=v)
    assert "chongbao" in {i.name for i in r.score.fan_items}
    assert r.score.total["S"] == 2 * B.bao(JIA_HAND, "5s").score.total["S"]


def test_score_with_rules_name_on_cli():
    res = runner.invoke(
        app,
        [
            "score",
            JIA_HAND,
            "--win",
            "5s",
            "--by",
            "discard",
            "--from",
            "W",
            "--rules",
            "quanbao",
            "--json",
        ],
    )
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["payments"]["W"] == -20
