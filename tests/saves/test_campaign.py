"""Campaign saves: a roster by stable unit id with losses, plus the current battle's save."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
import saves
from tests.saves.helpers import play_random, repack


def roster_of(game: engine.Game) -> dict[str, saves.RosterUnit]:
    return {
        u.id: saves.RosterUnit(u.id, u.type, u.side, u.steps, losses=2 - u.steps if u.steps < 2 else 0, experience=1)
        for u in game.state.units.values()
    }


def test_campaign_round_trip_with_a_battle(duel_game: engine.Game, tmp_path: Path) -> None:
    campaign = saves.CampaignSave(
        campaign="road-to-sedan",
        title="The road to Sedan",
        ruleset="minirules",
        roster=roster_of(duel_game),
        battle=duel_game,
        results=[{"scenario": "duel", "winner": "blue", "reason": "held 0403"}],
        data={"branch": "south", "points": [3, 4]},
        players={"red": "human", "blue": "ai:random"},
    )
    path = tmp_path / "campaign.planspiel"
    header = saves.save_campaign(campaign, path)
    assert campaign.created == header.created
    assert header.kind == "campaign" and header.campaign == "road-to-sedan"
    assert header.scenario == "duel" and header.actions == len(duel_game.history)
    assert saves.read_header(path) == header

    loaded = saves.load_campaign(path)
    assert loaded.campaign == "road-to-sedan" and loaded.title == "The road to Sedan"
    assert loaded.roster == campaign.roster
    assert loaded.results == campaign.results and loaded.data == campaign.data
    assert loaded.players == campaign.players and loaded.created == header.created
    assert loaded.warnings == []
    assert isinstance(loaded.battle, saves.SavedGame) and loaded.battle.verified
    assert loaded.battle.state == duel_game.state and loaded.battle.history == duel_game.history
    assert loaded.battle.players == {"red": "human", "blue": "ai:random"}
    assert loaded.losses("red") == campaign.losses("red")
    assert saves.read_history(path) == (header, [duel_game.describe(a) for a in duel_game.history])

    # Go on with the battle, save again: created is kept.
    play_random(loaded.battle, 4, 3)
    again = saves.save_campaign(loaded, path)
    assert again.created == header.created and again.actions == len(loaded.battle.history)


def test_campaign_between_battles(tmp_path: Path) -> None:
    campaign = saves.CampaignSave("c1", "Campaign one", "minirules", players={"red": "human", "blue": "ai:random"})
    path = tmp_path / "c.planspiel"
    header = saves.save_campaign(campaign, path)
    assert header.scenario == "" and header.turn == 0 and header.ruleset_version == "1"
    assert [s.id for s in header.sides] == ["red", "blue"]
    loaded = saves.load_campaign(path, verify="snapshot")
    assert loaded.battle is None and loaded.roster == {}
    assert saves.read_history(path) == (header, [])


def test_roster_unit_to_dict() -> None:
    u = saves.RosterUnit("ger-1", "pz3", "german", 1, losses=2, experience=3, status={"veteran": True})
    assert u.to_dict() == {
        "id": "ger-1", "type": "pz3", "side": "german", "steps": 1, "losses": 2, "experience": 3,
        "status": {"veteran": True},
    }  # fmt: skip


def test_a_battle_of_another_ruleset_is_refused(duel_game: engine.Game) -> None:
    with pytest.raises(ValueError, match="the battle is played under minirules"):
        saves.encode_campaign(saves.CampaignSave("c", "C", "blitzkrieg1940", battle=duel_game))


def test_damaged_campaigns(duel_game: engine.Game) -> None:
    data, _ = saves.encode_campaign(
        saves.CampaignSave("c", "C", "minirules", roster=roster_of(duel_game), battle=duel_game)
    )
    cases = {
        "the roster is not a map": lambda b: b.update(roster=[1]),
        "roster entry 'red-inf-1' is not a unit": lambda b: b["roster"]["red-inf-1"].update(steps="two"),
        "battle results are not a list": lambda b: b.update(results={}),
        "campaign data is not a map": lambda b: b.update(data=[]),
        "players are not a map": lambda b: b.update(players={"red": 1}),
        "current battle is not a game save": lambda b: b.update(battle="save"),
        "(current battle): is not a Planspiel save": lambda b: b.update(battle=b"junk"),
    }
    for cause, edit in cases.items():
        with pytest.raises(saves.SaveError, match=cause.replace("(", r"\(").replace(")", r"\)")):
            saves.decode_campaign(repack(data, body=edit), "c.planspiel")


def test_a_broken_battle_inside_a_campaign_names_both(duel_game: engine.Game, tmp_path: Path) -> None:
    battle, _ = saves.encode_game(duel_game)
    bad_battle = repack(battle, body=lambda b: b["history"].insert(0, "move red-inf-1 0909"))
    data, _ = saves.encode_campaign(saves.CampaignSave("c", "C", "minirules"))
    path = tmp_path / "c.planspiel"
    path.write_bytes(repack(data, body=lambda b: b.update(battle=bad_battle)))
    with pytest.raises(saves.SaveError) as info:
        saves.load_campaign(path)
    assert str(info.value).startswith(f"{path} (current battle): illegal action in the history at position 1")


def test_campaign_backup_fallback(tmp_path: Path) -> None:
    path = tmp_path / "c.planspiel"
    campaign = saves.CampaignSave("c", "C", "minirules", data={"n": 1})
    saves.save_campaign(campaign, path)
    campaign.data["n"] = 2
    saves.save_campaign(campaign, path)
    path.write_bytes(path.read_bytes()[:-3])
    loaded = saves.load_campaign(path)
    assert loaded.data == {"n": 1} and "is truncated" in loaded.warnings[0]
    with pytest.raises(saves.SaveError, match="truncated"):
        saves.load_campaign(path, backup=False)
