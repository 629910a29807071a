"""Tests of bunkers (digest 4.9 P, 6.3 b, 8.4, 8.6, 13.2; ``bunkers.py``): a scenario's ``fortifications.bunkers``
give buildings of one hex with their own armour, "destroyed at" and capacity, hidden from the enemy until sighted;
``planspiel validate`` accepts the keys and refuses bad ones saying what and where. The fixture is H-1 with a
bunker at G2's hex (0908), written next to a copy of its map."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

import engine
from engine.errors import ScenarioError
from engine.hexgrid import parse_hex
from engine.rules import Transition
from engine.rulesets.hacse import buildings, hits
from engine.rulesets.hacse.attack import Aim, _shot_refusal
from engine.rulesets.hacse.bunkers import BUNKER
from engine.rulesets.hacse.data import load_tables
from engine.rulesets.hacse.model import data, status
from engine.specs import Scenario
from engine.state import GameState

from .helpers import ruleset, take_scenario_setup

T = load_tables()
ROOT = Path(__file__).resolve().parents[3]
BUNKERED = parse_hex("0908")
LINE = '[fortifications]\nbunkers = [ { hex = "0908", side = "german"%s } ]\n'


def _scenario(tmp: Path, extra: str = "") -> Scenario:
    """H-1 with a bunker at 0908 (``extra``: more keys of the bunker, TOML)."""
    src = ROOT / "scenarios" / "hacse"
    text = (src / "h1-le-hamel.toml").read_text(encoding="utf-8")
    text = text.replace("[fortifications]\n", LINE % extra, 1)
    shutil.copy(src / "h1-le-hamel.map", tmp / "h1-le-hamel.map")
    (tmp / "h1-bunker.toml").write_text(text, encoding="utf-8")
    return engine.load_scenario(tmp / "h1-bunker.toml")


def _state(tmp: Path, extra: str = "") -> GameState:
    g = engine.new_game(_scenario(tmp, extra), seed=1)
    take_scenario_setup(g)
    st = g.state.clone()
    status(st.units["G2"]).in_building = True
    return st


def test_4_9_a_scenario_bunker_has_its_own_armour_destroyed_at_and_capacity(tmp_path: Path) -> None:
    st = _state(tmp_path)
    house = buildings.house(st, T, BUNKERED)
    assert house is not None and house.key == BUNKER
    assert (house.armour, house.destroyed_at, house.capacity) == (6, 30, 20)  # 4.9 P suggested values
    st = _state(tmp_path, ", armour = 8, capacity = 10")
    house = buildings.house(st, T, BUNKERED)
    assert house is not None and (house.armour, house.capacity) == (8, 10)
    assert buildings.occupied(st, T, st.units["G2"]) == house


def test_8_4_a_hit_on_a_unit_in_a_bunker_needs_dk_of_its_armour(tmp_path: Path) -> None:
    st = _state(tmp_path)
    assert hits.target_of(st, T, st.units["G2"]).bunker == 6
    status(st.units["G2"]).in_building = False
    assert hits.target_of(st, T, st.units["G2"]).bunker == 0


def test_8_6_damage_destroys_the_bunker_at_its_value(tmp_path: Path) -> None:
    st = _state(tmp_path)
    house = buildings.house(st, T, BUNKERED)
    assert house is not None
    tr = Transition(st.clone())
    done, lost = hits.damage_building(tr, T, BUNKERED, house, 29, "test")
    assert not done and buildings.house(tr.state, T, BUNKERED) == house
    done, lost = hits.damage_building(tr, T, BUNKERED, house, 1, "test")
    assert done and [u.id for u in lost] == ["G2"]  # infantry's armour 0 is lower than the bunker's (4.9)
    assert buildings.house(tr.state, T, BUNKERED) is None


def test_13_2_a_hidden_bunker_is_not_in_the_enemys_view_until_sighted(tmp_path: Path) -> None:
    st = _state(tmp_path)
    rs = ruleset()
    assert status(st.units["G2"]).hidden
    assert data(rs.view(st, "german")).bunkers and not data(rs.view(st, "us")).bunkers
    status(st.units["G2"]).hidden = False  # sighted (6.1, 13.2)
    assert [b.hex for b in data(rs.view(st, "us")).bunkers] == [BUNKERED]
    st = _state(tmp_path, ", hidden = false")
    assert data(rs.view(st, "us")).bunkers


def test_4_9_validate_accepts_the_bunker_keys(tmp_path: Path) -> None:
    sc = _scenario(tmp_path, ", armour = 6, destroyed_at = 30, capacity = 20, hidden = true")
    assert ruleset().validate_scenario(sc) == []


def _problems(tmp: Path, line: str) -> str:
    """The validator's report on H-1 with ``line`` in place of its ``[fortifications]`` header."""
    src = ROOT / "scenarios" / "hacse" / "h1-le-hamel.toml"
    text = src.read_text(encoding="utf-8").replace("[fortifications]\n", line, 1)
    (tmp / "bad.toml").write_text(text, encoding="utf-8")
    shutil.copy(src.with_suffix(".map"), tmp / "h1-le-hamel.map")
    with pytest.raises(ScenarioError) as err:
        engine.load_scenario(tmp / "bad.toml")
    return str(err.value)


def test_4_9_validate_refuses_bad_bunker_keys_saying_what_and_where(tmp_path: Path) -> None:
    got = _problems(tmp_path, LINE % ', armour = -1, capacity = "big", hidden = 3, roof = 2')
    assert "fortifications.bunkers[0].armour: expected a whole number ≥ 0, got -1 (4.9)" in got
    assert "fortifications.bunkers[0].capacity: expected a whole number ≥ 1, got 'big' (4.9)" in got
    assert "fortifications.bunkers[0].hidden: expected true or false, got 3 (13.2)" in got
    assert "fortifications.bunkers[0].roof: unknown key" in got
    got = _problems(tmp_path, LINE.replace('"german"', '"french"').replace('"0908"', '"9999"') % "")
    assert "fortifications.bunkers[0].side: expected a side of the scenario, got 'french' (4.9)" in got
    assert "fortifications.bunkers[0].hex:" in got
    got = _problems(
        tmp_path, '[fortifications]\nbunkers = [ { hex = "0908", side = "german" }, { hex = "0908", side = "us" } ]\n'
    )
    assert "fortifications.bunkers[1].hex: 0908 has a bunker already" in got
    assert "bunkers: expected a list" in _problems(tmp_path, "[fortifications]\nbunkers = 3\n")


@pytest.mark.parametrize("seed", [1, 2])
def test_4_9_seeded_playout_with_a_bunker_reaches_the_end_of_turn_2(tmp_path: Path, seed: int) -> None:
    """The fixture in play (G2 set up inside the bunker): every chosen action reads back from its text, and the
    game replays to the same state (the bunker survives a save's round trip)."""
    sc = _scenario(tmp_path)
    text = (tmp_path / "h1-bunker.toml").read_text(encoding="utf-8")
    text = text.replace(
        "status = { hidden = true, dug_in = true }", "status = { hidden = true, in_building = true }", 1
    )
    (tmp_path / "h1-bunker.toml").write_text(text, encoding="utf-8")
    sc = engine.load_scenario(tmp_path / "h1-bunker.toml")
    g = engine.new_game(sc, seed=seed)
    take_scenario_setup(g)
    assert status(g.state.units["G2"]).in_building and data(g.state).bunkers
    rng = random.Random(seed)
    for _ in range(2000):
        if g.state.outcome is not None or g.state.turn > 2:
            break
        action = rng.choice(g.legal_actions())
        assert g.ruleset.parse_action(g.state, g.describe(action)) == action
        g.apply(action)
    assert g.state.turn == 3 or g.state.outcome is not None
    again = engine.game.replay(g.scenario, seed, g.history)
    assert again.state.to_dict() == g.state.to_dict()


def test_6_3_8_4_a_shot_at_a_unit_in_a_bunker_is_plus_5_and_needs_dk_of_its_armour(tmp_path: Path) -> None:
    """U1's rifles at G2 in the bunker next to it: +5 always (6.3 b) and the target's bunker armour 6 (8.4)."""
    st = _state(tmp_path)
    u1 = st.units["U1"]
    u1.hex = parse_hex("0808")
    aim = _shot_refusal(st, T, u1, st.units["G2"], 0)
    assert isinstance(aim, Aim)
    assert aim.shot.building is not None and aim.shot.building.bunker and aim.target.bunker == 6
    status(st.units["G2"]).in_building = False
    aim = _shot_refusal(st, T, u1, st.units["G2"], 0)
    assert isinstance(aim, Aim) and aim.shot.building is None and aim.target.bunker == 0
