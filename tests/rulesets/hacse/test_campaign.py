"""The HACSE campaign (issue 21): kampfgruppe-1944 over H-1, H-2, H-3, and what a unit carries (README,
"Readings: campaigns": soldier rows lost stay lost, guns and vehicles repaired, a wreck is lost)."""

from __future__ import annotations

import json

import pytest

import engine
from engine.campaign import (
    Campaign,
    RosterEntry,
    battle_scenario,
    carry_over,
    find_campaign,
    initial_roster,
    load_campaign,
    validate_campaign_path,
)
from engine.rules import get_ruleset
from engine.rulesets.hacse import sheets
from engine.rulesets.hacse.model import status
from tests.campaign.helpers import play_out
from tui.cli import main

CAMP = "kampfgruppe-1944"


@pytest.fixture(scope="module")
def camp() -> Campaign:
    return load_campaign("hacse", CAMP)


def test_the_campaign_file_validates() -> None:
    assert validate_campaign_path(find_campaign("hacse", CAMP)) == []


def _end(camp: Campaign, battle: str, roster: dict[str, RosterEntry], hits: dict[str, list[int]]) -> engine.Game:
    game = engine.new_game(battle_scenario(camp, battle, roster), seed=1)
    tables = get_ruleset("hacse").tables  # type: ignore[attr-defined]
    for uid, rows in hits.items():
        u = game.state.units[uid]
        sheet = tables.sheets[u.type]
        status(u).rows_hit = rows
        u.steps = sheet.possible_damage - sheets.target(sheet, rows).damage_taken
    return game


def test_8_5_soldiers_lost_stay_lost_vehicles_are_repaired_wrecks_are_lost(camp: Campaign) -> None:
    roster = initial_roster(camp)
    game = _end(camp, "h-1", roster, {"G1": [1, 2], "G4": [1]})  # squad loses 2 soldiers; the PaK a crew row
    status(game.state.units["G2"]).destroyed = True  # a unit destroyed with rows left is lost all the same
    co = carry_over(game.state, "german", roster, camp, "h-1")
    r = co.roster
    full_g1 = game.state.units["G1"].steps + 2
    assert r["G4"].was[-1] == "G1" and r["G4"].steps == full_g1 - 2  # H-1's G1 is H-2's squad G4, 2 rows down
    assert r["G6"].steps == r["G6"].full  # the PaK 40 is repaired and re-crewed
    assert r["G2/GER-INF-SQD"].lost  # held out of H-2 under its type, and lost
    assert r["G3/GER-HMG"].steps == r["G3/GER-HMG"].full
    sc = battle_scenario(camp, "h-2", r)
    g2 = engine.new_game(sc, seed=2)
    g4 = g2.state.units["G4"]
    assert g4.type == "GER-INF-SQD" and g4.steps == full_g1 - 2 and status(g4).rows_hit  # soldiers lost stay lost
    assert "G1" not in r and not status(g2.state.units["G1"]).rows_hit  # H-2's Panzer IV comes fresh


@pytest.mark.parametrize("seed", [1, 2])
def test_the_campaign_played_to_its_end_carries_every_survivor_and_no_loss(camp: Campaign, seed: int) -> None:
    """AI against AI to the end: every German unit surviving battle N starts battle N+1 (under its mapped id)
    with its carried rows, a lost unit fights no later battle."""
    hacse = get_ruleset("hacse")
    roster = initial_roster(camp)
    battle: str | None = camp.first.id
    number = 0
    while battle is not None:
        number += 1
        game = engine.new_game(battle_scenario(camp, battle, roster), seed=seed * 10 + number)
        for uid, u in game.state.units.items():
            e = roster.get(uid)
            if u.side == "german" and e is not None and e.type == u.type and e.full > 0:
                assert not e.lost, uid  # a lost unit is absent
                assert u.steps == e.steps, f"{uid}: {u.steps} rows at {battle}, carried {e.steps}"
        assert not {uid for uid, e in roster.items() if e.lost} & set(game.state.units)
        play_out(game, seed)
        assert game.outcome is not None
        co = carry_over(game.state, game.outcome.winner, roster, camp, battle)
        renamed = {n.what.split()[1]: n.unit for n in co.notes if n.what.startswith("is ")}
        for uid, u in game.state.units.items():
            if u.side != "german":
                continue
            e = co.roster[renamed.get(uid, uid)]
            assert e.steps == hacse.carried_steps(u), uid
            if e.lost:  # a destroyed unit (8.5) or a squad with no soldier left is lost, wreck or not
                assert status(u).destroyed or u.steps <= 0 or e.type != "GER-INF-SQD", uid
        roster, battle = co.roster, co.next
    assert number == 3  # every battle fought, the survivors of each in the next


def test_simulate_the_campaign(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "hacse", "--campaign", CAMP, "--games", "2", "--a", "random", "--b", "random", "--json"]
    assert main(argv) == 0
    summary = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert summary["errors"] == 0 and summary["games"] == 2
    assert [b["battle"] for b in summary["battles"]][:3] == ["h-1", "h-2", "h-3"]
