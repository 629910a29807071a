"""Fires as sighting aids (6.1, 14.5 AC-SG-08, AC-SG-09) and the smoke of burning vehicles (8.5, 3.2 Phase 4 step
2): ``fires.py``."""

from __future__ import annotations

from engine.dice import ScriptedDice
from engine.hexgrid import parse_hex
from engine.rules import Transition
from engine.rulesets.hacse import attack, fires
from engine.rulesets.hacse.data import load_tables
from engine.rulesets.hacse.endphase import end_phase_events, end_phase_smoke
from engine.rulesets.hacse.model import data, status
from engine.rulesets.hacse.sighting import sight_line, sight_roll
from engine.state import GameState

from .helpers import distance_term, game, placed

T = load_tables()
FUEL, AMMO = 8, 9
"""The M4's fuel tank and ammunition rows (15.7.5)."""


def test_14_5_ac_sg_08_moonlit_night_a_lit_target_at_9_hexes() -> None:
    assert distance_term(9, "moonlit_night") == 9 and distance_term(9, "moonlit_night", lit=True) == 4  # min(9, 4)
    assert distance_term(9, "moonlit_night", binoculars=True, lit=True) == 3  # min(3, 4)


def test_14_5_ac_sg_09_dark_night_beside_a_burning_tank_at_7_hexes() -> None:
    assert distance_term(7, "dark_night") == 14 and distance_term(7, "dark_night", lit=True) == 3
    assert distance_term(7, "clear", lit=True) == 1  # by day the weather's term is the lower one


def _h1() -> GameState:
    return placed(game("h1-le-hamel"), U4="0407:ne", U1="0408", G1="0101")


def test_6_1_a_burning_vehicle_lights_its_hex_and_its_neighbours() -> None:
    st = _h1()
    assert not fires.lit(st, T, parse_hex("0408"))
    status(st.units["U4"]).rows_hit = [FUEL]
    assert fires.lit(st, T, parse_hex("0407")) and fires.lit(st, T, parse_hex("0408"))
    assert not fires.lit(st, T, parse_hex("0410"))


def test_6_1_a_sighting_roll_at_night_into_a_lit_hex_uses_the_fire() -> None:
    st = placed(game("h3-bridge-at-dusk"), S5="0313:n", G2="0306", G4="0305:n")
    st.turn = 8  # moonlit night (15.10.5); the T-34 has no binoculars
    s5, g2 = st.units["S5"], st.units["G2"]
    assert s5.hex and g2.hex
    line = sight_line(st, T, s5.hex, g2.hex)
    dark, _ = sight_roll(st, T, s5, g2, line)
    fuel = next(r.index for r in T.sheets["GER-PZ4H"].rows if r.kind == "fuel_tank")
    status(st.units["G4"]).rows_hit = [fuel]  # the Panzer IV beside G2 burns
    lit, terms = sight_roll(st, T, s5, g2, line)
    assert dark - lit == 7 - 3  # +1 per hex at 7 hexes, against +1 per full 2 (6.1)
    assert any("the target lit" in m.reason for m in terms)


def test_8_5_a_burning_vehicle_puts_smoke_in_its_hex_in_the_end_phase() -> None:
    st = _h1()
    status(st.units["U4"]).rows_hit = [FUEL]
    st.dice = ScriptedDice([3, 4, 1, 1])  # burning damage on row 6, a morale roll passed
    tr = Transition(st)
    end_phase_events(tr, T)
    where = parse_hex("0407")
    assert data(st).smoke[where] == 3
    assert any(e.kind == "smoke" and "U4 burns" in e.text and "rule 8.5" in e.text for e in tr.events)
    end_phase_smoke(tr)
    assert data(st).smoke[where] == 2  # kept while it burns: the next End Phase puts it back to 3


def test_8_5_an_exploded_vehicle_leaves_smoke_and_a_fire_for_3_turns() -> None:
    st = _h1()
    u4 = st.units["U4"]
    status(u4).rows_hit, status(u4).destroyed = [AMMO], True
    tr = Transition(st)
    attack.leave(tr, u4, T)
    where = parse_hex("0407")
    assert u4.hex is None and data(st).smoke[where] == 3 and data(st).fires[where] == 3
    assert fires.lit(st, T, parse_hex("0408"))
    for _ in range(3):
        end_phase_smoke(tr)
    assert where not in data(st).smoke and where not in data(st).fires


def test_8_5_a_vehicle_destroyed_without_fire_leaves_no_smoke() -> None:
    st = _h1()
    u4 = st.units["U4"]
    crew = [r.index for r in T.sheets["US-M4A3-75"].rows if r.crew]
    status(u4).rows_hit, status(u4).destroyed = crew, True
    tr = Transition(st)
    attack.leave(tr, u4, T)
    assert not data(st).smoke and not data(st).fires
