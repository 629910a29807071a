"""Rubble and line of sight (4.9 P, 6.2, 6.3): a building hex whose buildings all fell stops blocking as a building
and obstructs as rubble (1 level high, +1 to sight)."""

from __future__ import annotations

from engine.hexgrid import parse_hex
from engine.los import line_of_sight
from engine.rules import Transition
from engine.rulesets.hacse.hits import damage_building
from engine.rulesets.hacse.model import data
from engine.rulesets.hacse.sighting import sight_line

from .helpers import ruleset
from .test_artillery import T, h3


def test_6_2_a_building_hex_blocks_the_line_until_it_is_rubble_after_the_fire_phase() -> None:
    st = h3()
    a, b, town = parse_hex("1105"), parse_hex("1107"), parse_hex("1106")
    before = sight_line(st, T, a, b)
    assert not before.clear and "1106" in before.reason
    kind = T.terrain[st.board.terrain(town)].building
    assert kind
    tr = Transition(st.clone())
    house = T.buildings[kind]
    for _ in range(house.per_hex):
        damage_building(tr, T, town, house, house.destroyed_at, "test")
    assert not sight_line(tr.state, T, a, b).clear  # 3.2 P: rubble of this Fire Phase counts for LOS after it
    tr.state.phase = "end"
    after = sight_line(tr.state, T, a, b)
    assert after.clear, after.reason
    assert after.obstructing == ("rubble",)  # 6.3: rubble is 1 level high, its Sight entry counts
    tr.state.phase, tr.state.turn = "attack", tr.state.turn + 1
    assert sight_line(tr.state, T, a, b).clear  # the next turn's Fire Phase sees across the rubble
    # the old state still sees the building (no cache serves the rubble's answer there, nor the other way)
    assert not sight_line(st, T, a, b).clear


def test_6_2_the_rulesets_los_policy_follows_the_rubble() -> None:
    """The LOS the TUI and the AI read (``Ruleset.los_policy(state)``) traces the rubble hex as open."""
    st = h3()
    a, b, town = parse_hex("1105"), parse_hex("1107"), parse_hex("1106")
    rs = ruleset()
    assert not line_of_sight(st.board, a, b, rs.los_policy(st)).visible
    kind = T.terrain[st.board.terrain(town)].building
    assert kind
    later = st.clone()
    data(later).buildings_lost[town] = T.buildings[kind].per_hex
    assert line_of_sight(later.board, a, b, rs.los_policy(later)).visible
    assert not line_of_sight(st.board, a, b, rs.los_policy(st)).visible


def test_6_2_a_building_still_standing_in_the_hex_keeps_it_blocking() -> None:
    st = h3()
    a, b, town = parse_hex("1105"), parse_hex("1107"), parse_hex("1106")
    kind = T.terrain[st.board.terrain(town)].building
    assert kind
    assert T.buildings[kind].per_hex >= 2
    data(st).buildings_lost[town] = T.buildings[kind].per_hex - 1
    assert not sight_line(st, T, a, b).clear
