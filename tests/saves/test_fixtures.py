"""Old-format fixtures keep loading; a newer format is refused; the migration chain runs on older files.

The fixtures in ``fixtures/`` are frozen: ``make_fixtures.py`` wrote them once per format version and never
rewrites them, and ``format<N>_expected.json`` records what each must load as.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

import engine
import saves
from saves import migrations
from tests.saves.helpers import repack

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def manifest() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for path in sorted(FIXTURES.glob("format*_expected.json")):
        out.update(json.loads(path.read_text(encoding="utf-8")))
    return out


EXPECTED = manifest()


def state_digest(game: saves.SavedGame) -> str:
    return hashlib.sha256(json.dumps(game.state.to_dict(), sort_keys=True).encode()).hexdigest()


def test_every_format_has_fixtures() -> None:
    versions = {int(name.split("_")[0].removeprefix("format")) for name in EXPECTED}
    assert versions == set(range(1, saves.FORMAT_VERSION + 1))
    assert sorted(p.name for p in FIXTURES.glob("*.planspiel")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fixture_is_frozen(name: str) -> None:
    data = (FIXTURES / name).read_bytes()
    assert hashlib.sha256(data).hexdigest() == EXPECTED[name]["file_sha256"], f"{name} was rewritten: restore it"


def load_any(path: Path, verify: saves.Verify) -> tuple[saves.SavedGame, dict[str, Any]]:
    expected = EXPECTED[path.name]
    if expected["kind"] == "campaign":
        campaign = saves.load_campaign(path, verify=verify, backup=False)
        assert campaign.campaign == expected["campaign"]
        assert {uid: u.to_dict() for uid, u in campaign.roster.items()} == expected["roster"]
        assert campaign.players == expected["players"]
        assert isinstance(campaign.battle, saves.SavedGame)
        return campaign.battle, expected
    game = saves.load_game(path, verify=verify, backup=False)
    assert game.players == expected["players"]
    return game, expected


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fixture_loads_from_its_snapshot(name: str) -> None:
    path = FIXTURES / name
    header = saves.read_header(path)
    game, expected = load_any(path, "snapshot")
    assert header.kind == expected["kind"] and header.ruleset == expected["ruleset"]
    assert header.scenario == expected["scenario"] and header.actions == len(expected["history"])
    assert [game.describe(a) for a in game.history] == expected["history"]
    assert game.seed == expected["seed"] and game.state.turn == expected["turn"]
    assert state_digest(game) == expected["state_sha256"]
    assert saves.read_history(path) == (header, expected["history"])


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fixture_replays_to_its_snapshot(name: str) -> None:
    """If this fails for a Blitzkrieg 1940 fixture after a rules change, the old history no longer replays:
    bump ``Blitzkrieg1940.version`` (saves of the old version then continue from their snapshot, with a
    warning) rather than regenerating the fixture."""
    game, expected = load_any(FIXTURES / name, "replay")
    saved_with = game.header.ruleset_version if game.header is not None else ""
    if saved_with == str(engine.get_ruleset(game.scenario.ruleset).version):
        assert game.verified, game.warnings
    else:
        # An older ruleset version: the history may no longer replay; the game continues from its snapshot
        # and the player is told why.
        assert game.verified or any(f"version {saved_with}" in w for w in game.warnings), game.warnings
    assert state_digest(game) == expected["state_sha256"]


def test_a_fixture_claiming_a_newer_format_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "future.planspiel"
    path.write_bytes(repack((FIXTURES / "format1_duel.planspiel").read_bytes(), header=lambda h: h.update(format=99)))
    for reader in (saves.read_header, saves.load_game, saves.load_campaign, saves.read_history):
        with pytest.raises(saves.SaveError) as info:
            reader(path)
        assert "save format 99" in str(info.value) and "formats 1 to 1" in str(info.value)
    [entry] = saves.list_saves(tmp_path)
    assert entry.error is not None and "newer version" in str(entry.error)


def test_the_migration_chain_upgrades_older_files(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pretend the current format is 2: format 1 files go through MIGRATIONS[1], headers alone too."""
    seen: list[bool] = []

    def one_to_two(header: dict[str, Any], body: dict[str, Any] | None) -> None:
        header["title"] = header["title"].upper()
        seen.append(body is not None)
        if body is not None:
            body["header"]["title"] = header["title"]
            body["players"] = {side: "human" for side in body["players"]}

    monkeypatch.setattr(migrations, "FORMAT_VERSION", 2)
    monkeypatch.setitem(migrations.MIGRATIONS, 1, one_to_two)
    path = FIXTURES / "format1_duel.planspiel"
    header = saves.read_header(path)
    assert header.format == 2 and header.title == "DUEL AT THE CROSSROADS"
    game = saves.load_game(path, verify="snapshot", backup=False)
    assert game.header is not None and game.header.format == 2
    assert game.players == {"red": "human", "blue": "human"}
    assert seen == [False, True]


def test_a_missing_migration_step_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(migrations, "FORMAT_VERSION", 2)
    with pytest.raises(saves.SaveError, match="cannot be upgraded from save format 1"):
        saves.load_game(FIXTURES / "format1_duel.planspiel", backup=False)
