"""Tests of the set-up decisions (digest 15.10.2, 3.3 SETUP): the defender places in its zone, faces its guns and
vehicles, keeps hidden status only where it may hide, and ``deploy`` takes the scenario's deployment."""

from __future__ import annotations

import random

import pytest

from engine.contract import ACT
from engine.errors import IllegalActionError
from engine.game import take_scenario_setup
from engine.hexgrid import hex_to_offset, parse_hex
from engine.rulesets.hacse.model import data, status

from .helpers import game, ruleset


def test_15_10_2_the_defender_sets_up_first_in_its_zone() -> None:
    g = game("h1-le-hamel", setup=False)
    assert (g.state.phase, g.state.to_act, data(g.state).setup_sides) == ("setup", "german", ["german"])
    assert g.waiting().mode == ACT
    legal = g.legal_actions()
    places = [a for a in legal if a.verb == "place"]
    assert places and all(9 <= hex_to_offset(parse_hex(a.args[1]))[0] <= 20 for a in places)
    assert {a.args[0] for a in places} == {"A-HQ", "G1", "G2", "G3", "G4"}
    rs = ruleset()
    with pytest.raises(IllegalActionError, match=r"outside the zone, columns 09-20.*rule 15\.10\.2"):
        rs.check(g.state, rs.parse_action(g.state, "place G1 0807"))
    with pytest.raises(IllegalActionError, match=r"setting up.*rule 15\.10\.2"):
        rs.check(g.state, rs.parse_action(g.state, "stand G1"))


def test_15_10_2_placing_keeps_hidden_only_where_the_unit_may_hide() -> None:
    g = game("h1-le-hamel", [1, 1, 10, 10], setup=False)
    g.apply("place G1 1207")  # infantry hides anywhere
    g.apply("place G4 1503")  # a gun in the open is placed openly (13.2)
    g.apply("turn G4 nw")
    u = g.state.units
    assert status(u["G1"]).hidden and not status(u["G4"]).hidden and status(u["G4"]).facing == 5
    assert "G4" in g.view("us").units and "G1" not in g.view("us").units
    assert status(u["G4"]).origin == parse_hex("1503") and status(u["G2"]).dug_in
    g.apply("deploy")
    assert (g.state.phase, g.state.turn, g.state.to_act) == ("movement", 1, "german")
    assert u["G3"].hex == parse_hex("1005")  # not placed: the scenario's hex


def test_15_10_2_a_vehicle_cannot_be_placed_in_water() -> None:
    g = game("h3-bridge-at-dusk", setup=False)
    rs = ruleset()
    with pytest.raises(IllegalActionError, match=r"cannot stand in water.*rule 4\.3"):
        rs.check(g.state, rs.parse_action(g.state, "place G4 1011"))
    g.apply("place G2 1011")  # infantry may stand in water ("max." on foot)
    assert g.state.units["G2"].hex == parse_hex("1011")


def test_15_10_4_only_the_soviet_infantry_sets_up_in_h2() -> None:
    g = game("h2-height-212", setup=False)
    assert g.state.to_act == "soviet"
    assert {a.args[0] for a in g.legal_actions() if a.verb == "place"} == {"S4", "S5", "S6"}
    assert take_scenario_setup(g) == 1 and g.state.phase == "movement"


@pytest.mark.parametrize("sid", ["h1-le-hamel", "h3-bridge-at-dusk"])
def test_15_10_2_random_set_up_then_play_to_the_end_of_turn_2(sid: str) -> None:
    g = game(sid, seed=11, setup=False)
    rng = random.Random(11)
    placed = 0
    while g.state.phase == "setup":
        legal = g.legal_actions()
        action = rng.choice(legal[:-1]) if placed < 6 else legal[-1]
        placed += 1
        g.apply(action)
    while g.state.turn <= 2:
        g.apply(rng.choice(g.legal_actions()))
    assert g.state.turn == 3
