"""Frozen campaign saves of today's format (as the game client writes them: Mai 1940 between its battles and in
the middle of battle 2) keep loading, in the saves package and in the game client, and go through the migration
chain like game saves. ``make_campaign_fixtures.py`` wrote them once; they are never rewritten."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

import saves
from saves import migrations
from tui.campaign import CampaignPlay

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "campaigns"


def manifest() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for path in sorted(FIXTURES.glob("format*_expected.json")):
        out.update(json.loads(path.read_text(encoding="utf-8")))
    return out


EXPECTED = manifest()


def test_every_format_has_campaign_fixtures() -> None:
    versions = {int(name.split("_")[0].removeprefix("format")) for name in EXPECTED}
    assert versions == set(range(1, saves.FORMAT_VERSION + 1))
    assert sorted(p.name for p in FIXTURES.glob("*.planspiel")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_campaign_fixture_is_frozen(name: str) -> None:
    data = (FIXTURES / name).read_bytes()
    assert hashlib.sha256(data).hexdigest() == EXPECTED[name]["file_sha256"], f"{name} was rewritten: restore it"


@pytest.mark.parametrize("verify", ["snapshot", "replay"])
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_campaign_fixture_loads(name: str, verify: saves.Verify) -> None:
    expected = EXPECTED[name]
    c = saves.load_campaign(FIXTURES / name, verify=verify, backup=False)
    assert c.campaign == expected["campaign"] and c.players == expected["players"]
    assert {uid: u.to_dict() for uid, u in c.roster.items()} == expected["roster"]
    assert c.data == expected["data"] and c.results == expected["results"]
    battle = expected["battle"]
    if battle is None:
        assert c.battle is None
        return
    assert c.battle is not None and c.battle.scenario.id == battle["scenario"]
    assert [c.battle.describe(a) for a in c.battle.history] == battle["history"]
    digest = hashlib.sha256(json.dumps(c.battle.state.to_dict(), sort_keys=True).encode()).hexdigest()
    assert digest == battle["state_sha256"]
    if verify == "replay":
        assert c.battle.verified, c.battle.warnings


def test_the_game_client_continues_the_fixtures(tmp_path: Path) -> None:
    """Between battles: the roster the client reads, and battle 2 set up from it (a lost unit absent, steps lost
    still lost); mid-battle: the battle under way is the one the campaign expects."""
    between = tmp_path / "between.planspiel"
    shutil.copy(FIXTURES / "format1_mai1940_between.planspiel", between)
    play = CampaignPlay.load(between)
    assert play.game is None and play.battle_id == "stonne" and play.number == 2 and play.points == 0
    assert play.roster()["ger-iipzr-pz2"].lost and play.roster()["ger-i69schr-sch-3"].steps == 1
    assert play.points_left("german", []) == 2
    game = play.start_battle({}, seed=1)
    assert "ger-iipzr-pz2" not in game.state.units and game.state.units["ger-i69schr-sch-3"].steps == 1
    mid = tmp_path / "mid.planspiel"
    shutil.copy(FIXTURES / "format1_mai1940_battle2.planspiel", mid)
    play = CampaignPlay.load(mid)
    assert play.game is not None and play.game.scenario.id == "stonne"
    assert play.roster()["ger-i69schr-sch-3"].steps == 2  # the step bought back before battle 2


def test_campaign_fixtures_go_through_the_migration_chain(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pretend the current format is 2: a format 1 campaign save goes through MIGRATIONS[1], its body too."""
    seen: list[bool] = []

    def one_to_two(header: dict[str, Any], body: dict[str, Any] | None) -> None:
        seen.append(body is not None)
        if body is not None and "roster" in body:
            body["data"]["migrated"] = True

    monkeypatch.setattr(migrations, "FORMAT_VERSION", 2)
    monkeypatch.setitem(migrations.MIGRATIONS, 1, one_to_two)
    path = FIXTURES / "format1_mai1940_between.planspiel"
    assert saves.read_header(path).format == 2
    c = saves.load_campaign(path, verify="snapshot", backup=False)
    assert c.data["migrated"] is True and c.data["battle"] == "stonne"
    assert seen[0] is False and True in seen


def test_a_missing_migration_step_is_reported_for_campaigns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(migrations, "FORMAT_VERSION", 2)
    with pytest.raises(saves.SaveError, match="cannot be upgraded from save format 1"):
        saves.load_campaign(FIXTURES / "format1_mai1940_between.planspiel", backup=False)
