"""planspiel campaign list / new, simulate --campaign, saves list: output, saves, and bad input in one sentence."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import saves
from engine.campaign import load_campaign
from tui.cli import main


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLANSPIEL_HOME", str(tmp_path / "home"))


def test_campaign_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["campaign", "list"]) == 0
    out = capsys.readouterr().out
    assert "blitzkrieg1940  mai-1940  Mai 1940 — 2 battles: hannut, stonne" in out.splitlines()


def test_campaign_new_writes_a_campaign_save(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "c.planspiel"
    argv = ["campaign", "new", "blitzkrieg1940", "mai-1940", "--out", str(target), "--german", "human"]
    assert main([*argv, "--french", "ai:normal", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert f"Saved to {target}" in out and "battle 1 of 2" in out
    assert "title screen's Continue" in out  # a human side, no terminal: it says how to play it
    c = saves.load_campaign(target)
    assert (c.campaign, c.ruleset, c.players) == (
        "mai-1940",
        "blitzkrieg1940",
        {"german": "human", "french": "ai:normal"},
    )
    assert c.battle is not None and c.battle.scenario.id == "hannut" and c.battle.state.turn >= 0
    camp = load_campaign("blitzkrieg1940", "mai-1940")
    assert set(c.roster) == {u.id for u in c.battle.scenario.units if u.side in camp.carry}
    entry = c.roster["ger-i35pzr-pz2"].to_entry()
    assert (entry.steps, entry.full, entry.formation) == (2, 2, "ger-i-35-pzr")
    assert saves.RosterUnit.from_entry(entry) == c.roster["ger-i35pzr-pz2"]
    assert main(["saves", "list", str(tmp_path)]) == 0
    assert "mai-1940: hannut" in capsys.readouterr().out
    assert main(["saves", "show", str(target)]) == 0
    out = capsys.readouterr().out
    assert "Campaign:    Mai 1940 (mai-1940)" in out
    assert "Roster:      german: 41 units, 0 lost, 0 reduced, 0 steps lost" in out


def test_campaign_new_default_folder(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["campaign", "new", "blitzkrieg1940", "mai-1940", "--german", "ai:easy", "--french", "ai:easy"]) == 0
    out = capsys.readouterr().out
    assert "Continue" not in out
    assert len(list(saves.saves_dir().glob("mai-1940-*.planspiel"))) == 1


def test_campaign_new_takes_a_player_for_a_side_that_comes_in_a_later_battle(tmp_path: Path) -> None:
    """HACSE's campaign: the Soviets first fight in battle 2 (H-2); they are chosen at the start like the others,
    so a solo campaign is not hot-seat from battle 2 on."""
    target = tmp_path / "k.planspiel"
    argv = ["campaign", "new", "hacse", "kampfgruppe-1944", "--out", str(target), "--german", "human"]
    assert main([*argv, "--us", "ai:easy", "--soviet", "ai:normal", "--seed", "3"]) == 0
    c = saves.load_campaign(target)
    assert c.players == {"german": "human", "us": "ai:easy", "soviet": "ai:normal"}
    assert c.battle is not None and c.battle.scenario.id == "h1-le-hamel"


def test_campaign_new_a_later_sides_player_not_given_is_human(tmp_path: Path) -> None:
    target = tmp_path / "k.planspiel"
    assert main(["campaign", "new", "hacse", "kampfgruppe-1944", "--out", str(target), "--us", "ai:easy"]) == 0
    assert saves.load_campaign(target).players == {"german": "human", "us": "ai:easy", "soviet": "human"}


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["campaign", "new", "blitzkrieg1940", "nope"], "no such campaign for blitzkrieg1940 (known: mai-1940)"),
        (["campaign", "new", "chess", "x"], "chess"),
        (["campaign", "new", "blitzkrieg1940", "mai-1940", "--russian", "ai"], "this campaign's sides are german"),
        (["campaign", "new", "blitzkrieg1940", "mai-1940", "--german", "genius"], "genius"),
        (["simulate", "blitzkrieg1940", "--campaign", "nope"], "no such campaign"),
        (["campaign", "new", "blitzkrieg1940", "mai-1940", "--out", "/proc/nope/x.planspiel"], "cannot create the"),
        (["simulate", "blitzkrieg1940", "hannut", "--campaign", "mai-1940"], "not both"),
        (["simulate", "blitzkrieg1940"], "name a scenario (or --campaign ID)"),
        (["simulate", "blitzkrieg1940", "--campaign", "mai-1940", "--a", "wizard"], "unknown agent"),
    ],
)
def test_bad_input_is_one_sentence(argv: list[str], expected: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) != 0
    err = capsys.readouterr().err
    assert expected in err and "Traceback" not in err


def test_simulate_whole_campaigns(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "blitzkrieg1940", "--campaign", "mai-1940", "--games", "1", "--a", "random", "--b", "random"]
    assert main([*argv, "--seed", "4", "--json"]) == 0
    lines = capsys.readouterr().out.splitlines()
    summary = json.loads(lines[-1])
    assert [b["battle"] for b in summary["battles"]] == ["hannut", "stonne"]
    first, second = summary["battles"]
    assert first["result"] in ("win", "draw", "loss") and first["next"] == "stonne" and second["next"] == "end"
    assert first["carried"] and all({"unit", "side", "what", "why"} <= set(n) for n in first["carried"])
    assert summary["errors"] == 0 and summary["campaigns"][0]["points"] == first["points"] + second["points"]
    assert any(line.strip().startswith("hannut:") for line in lines)
