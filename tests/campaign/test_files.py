"""Campaign files: the shipped ones load, and every problem of a broken one is reported with file and line."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from engine.campaign import list_campaigns, load_campaign, parse_campaign
from engine.errors import ScenarioError
from tui.cli import main

GOOD = """\
ruleset = "blitzkrieg1940"
id = "t"
title = "Test"
side = "german"
carry = ["german"]

[[battles]]
id = "hannut"
scenario = "hannut"
win = "stonne"

[[battles]]
id = "stonne"
scenario = "stonne"

[[battles.map]]
from = "ger-i-35-pzr"
to = "ger-ii-pzr"
"""


def problems(text: str) -> list[str]:
    with pytest.raises(ScenarioError) as info:
        parse_campaign(text, "t.toml")
    return [str(p) for p in info.value.problems]


def test_every_shipped_campaign_loads() -> None:
    found = list_campaigns()
    assert found and all(not isinstance(c, ScenarioError) for c in found)


def test_mai_1940() -> None:
    c = load_campaign("blitzkrieg1940", "mai-1940")
    assert [b.scenario for b in c.battles] == ["hannut", "stonne"]
    assert c.side == "german" and set(c.carry) == {"german", "french"}
    assert all(c.battles[0].next[r] == "stonne" for r in ("win", "draw", "loss"))
    assert c.battles[1].maps and c.battles[1].replacements


def test_a_good_file_parses() -> None:
    c = parse_campaign(GOOD, "t.toml")
    assert c.battles[0].next == {"win": "stonne", "draw": "end", "loss": "end"}
    assert c.scoring == {"win": 3, "draw": 1, "loss": 0}


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ('win = "stonne"', 'win = "nowhere"', "t.toml: line 10, battles[0].win: no battle"),
        ('to = "ger-ii-pzr"', 'to = "ger-nobody"', "t.toml: line 16, battles[1].map[0]: to: no unit or formation"),
        ('from = "ger-i-35-pzr"', 'from = "ger-x"', "battles[1].map[0]: from: no unit or formation 'ger-x'"),
        ('carry = ["german"]', 'carry = ["russian"]', "t.toml: line 5, carry: 'russian' is not a side"),
        ('scenario = "stonne"', 'scenario = "paris"', "t.toml: line 14, battles[1].scenario: scenario 'paris'"),
        ('title = "Test"', 'title = "Test"\ncolour = 3', "t.toml: line 4, colour: unknown key"),
        (
            "[[battles.map]]",
            '[[battles.replacements]]\nside = "french"\npoints = 2\n[[battles.map]]',
            "battles[1].replacements[0]: side 'french' does not carry units over",
        ),
    ],
)
def test_problems_name_file_and_line(old: str, new: str, expected: str) -> None:
    found = problems(GOOD.replace(old, new, 1))
    assert any(expected in p for p in found), found


def test_a_later_battle_cannot_loop_back() -> None:
    text = GOOD.replace('scenario = "stonne"\n', 'scenario = "stonne"\nloss = "hannut"\n')
    assert any("not a later battle" in p for p in problems(text))


def test_planspiel_validate_checks_campaigns(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "campaigns"
    folder.mkdir()
    bad = folder / "bad.toml"
    bad.write_text(GOOD.replace('win = "stonne"', "win = 3"), encoding="utf-8")
    assert main(["validate", str(bad)]) == 1
    out = capsys.readouterr().out
    assert f"{bad}: line 10, battles[0].win: expected win" in out
    assert main(["validate", "blitzkrieg1940/campaigns/mai-1940"]) == 0
    assert main(["validate", "blitzkrieg1940/campaigns/nope"]) == 1
    assert "no such campaign" in capsys.readouterr().out


def test_the_scenario_campaign_table_is_checked() -> None:
    from engine.campaign import battle_scenario, initial_roster  # noqa: PLC0415
    from engine.scenario import parse_scenario  # noqa: PLC0415

    c = load_campaign("blitzkrieg1940", "mai-1940")
    sc = battle_scenario(c, "hannut", initial_roster(c))
    with pytest.raises(ScenarioError) as info:
        parse_scenario(sc.text.replace("absent = []", 'absent = ["ger-ghost"]'), "x.toml")
    assert any("no unit 'ger-ghost'" in str(p) for p in info.value.problems)


def test_a_carried_id_keeps_its_type() -> None:
    from dataclasses import replace  # noqa: PLC0415

    from engine.campaign import _check_types  # noqa: PLC0415
    from engine.scenario import _Report  # noqa: PLC0415

    c = parse_campaign(GOOD, "t.toml")
    hannut = engine.load_scenario("blitzkrieg1940", "hannut")
    stonne = engine.load_scenario("blitzkrieg1940", "stonne")
    report = _Report("t.toml", GOOD)
    _check_types(list(c.battles), {"hannut": hannut, "stonne": stonne}, c.carry, report)
    assert report.problems == []
    reused = replace(stonne, units=(*stonne.units, replace(hannut.unit("ger-i5pzr-pz1"), type="PZ4")))
    _check_types(list(c.battles), {"hannut": hannut, "stonne": reused}, c.carry, report)
    assert [str(p) for p in report.problems] == [
        "t.toml: line 14, battles[1].scenario: unit ger-i5pzr-pz1 is a PZ1 in hannut and a PZ4 in stonne: a carried "
        "unit keeps its type (give the unit another id, or map it with [[battles.map]])"
    ]
