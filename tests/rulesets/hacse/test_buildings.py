"""Occupying buildings (4.9, ``buildings.py``) and rams against buildings (12.2, 12.3, ``closecombat.py``): the
acceptance cases AC-RM-04, -05, -06 and -10 played through the ruleset (the calculator's own are in
``test_ramming.py``)."""

from __future__ import annotations

import random

import engine
from engine.rules import Transition
from engine.rulesets.hacse import attack, buildings, hits, sighting
from engine.rulesets.hacse.model import data, status
from engine.rulesets.hacse.movement import Refused
from engine.state import GameState

from .helpers import LOSE, fire_state, game, placed, play, refused, ruleset
from .test_closecombat import attack_phase, legal, script
from .test_scenarios import _toward


def _moving(**where: str) -> GameState:
    """H-1 with the Germans to move first and the units placed (``placed``)."""
    return placed(game("h1-le-hamel", LOSE), **where)


def test_4_9_units_set_up_in_a_building_hex_occupy_a_building() -> None:
    st = game("h1-le-hamel").state
    assert status(st.units["G1"]).in_building and status(st.units["A-HQ"]).in_building  # 1107, medium
    assert not status(st.units["G2"]).in_building  # 0908 has no building
    assert hits.building_of(st, ruleset().tables, st.units["G1"]) is not None


def test_4_9_infantry_entering_a_building_hex_occupies_one_by_default() -> None:
    st = play(_moving(G2="1007"), "move G2 1108")
    assert status(st.units["G2"]).in_building
    assert hits.building_of(st, ruleset().tables, st.units["G2"]) is not None
    st = play(st, "move G2 1007")  # leaving the hex leaves the building
    assert not status(st.units["G2"]).in_building


def test_4_9_vacate_declares_the_streets_once_per_hex() -> None:
    st = play(_moving(G2="1007"), "move G2 1108", "vacate G2")
    assert not status(st.units["G2"]).in_building
    assert hits.building_of(st, ruleset().tables, st.units["G2"]) is None  # no +5, not caught by a collapse
    e = refused(st, "occupy G2")
    assert e.rule == "4.9" and "already chosen" in str(e)
    st = play(st, "move G2 1208")  # a new hex: in a building again by default
    assert status(st.units["G2"]).in_building


def test_4_9_no_room_leaves_the_unit_in_the_streets() -> None:
    # 1108 holds light buildings (room for 20 soldiers): G1 (10) and A-HQ (5) are in the one fought over
    st = _moving(G2="1007", G1="1108", **{"A-HQ": "1108"})
    for uid in ("G1", "A-HQ"):
        status(st.units[uid]).in_building = True
    st = play(st, "move G2 1108")
    assert not status(st.units["G2"]).in_building
    e = refused(st, "occupy G2")
    assert e.rule == "4.9" and "room for 5 soldiers" in str(e)


def test_4_9_only_infantry_chooses_and_only_in_a_building_hex() -> None:
    st = _moving(G2="1007", G4="1008:n")
    assert refused(st, "occupy G2").rule == "4.9"  # 1007 is clear
    assert refused(st, "occupy G4").rule == "4.9"  # a gun


def test_4_9_mounting_a_vehicle_leaves_the_building() -> None:
    st = placed(game("h2-height-212", LOSE), G4="0613", G3="0613:n")  # the squad and the half-track
    st.to_act = "german"
    status(st.units["G4"]).in_building = True
    st = play(st, "mount G4 G3")
    assert not status(st.units["G4"]).in_building
    st.to_act = "german"
    st = play(st, "dismount G3 G4")  # out again in a building hex: in a building by default
    assert status(st.units["G4"]).in_building


def _building_ram(sid: str, uid: str, spec: str) -> GameState:
    st = attack_phase(sid, **{uid: spec})
    assert data(st).physical == "ram"
    return st


def test_14_10_ac_rm_04_a_truck_rams_a_medium_building_takes_5() -> None:
    # G5 (Opel Blitz, wheeled, armour 0) drove 5 hexes into 0613 (medium): 2 x 2 + 1 = 5 damage to it
    st = _building_ram("h2-height-212", "G5", "0613:n/5")
    assert legal(st) == {"ram G5 0613", "pass"}
    odds = ruleset().odds(st, ruleset().parse_action(st, "ram G5 0613"))
    assert odds is not None and "0 damage to the building, 5 to G5" in odds.note


def test_14_10_ac_rm_05_the_truck_ram_is_a_suicide_attack() -> None:
    st = _building_ram("h2-height-212", "G5", "0613:n/5")
    odds = ruleset().odds(st, ruleset().parse_action(st, "ram G5 0613"))
    assert odds is not None and "suicide attack" in odds.note
    st.dice = script(10, 10)  # the morale roll at -6 fails: G5 dissolves without ramming
    st = play(st, "ram G5 0613")
    assert status(st.units["G5"]).destroyed and data(st).building_damage.get(st.units["G5"].hex or 0, 0) == 0


def test_14_10_ac_rm_06_a_panzer_iv_rams_a_medium_building_unharmed_and_is_in_it() -> None:
    # G1 (Pz IV, 25 t, front 8) drove 4 hexes: the building takes 10 - 2 = 8, G1 takes 4 - 8 -> 0
    st = _building_ram("h2-height-212", "G1", "0613:n/4")
    odds = ruleset().odds(st, ruleset().parse_action(st, "ram G1 0613"))
    assert odds is not None and "8 damage to the building, 0 to G1" in odds.note and "suicide" not in odds.note
    st.dice = script(10, 10)
    st = play(st, "ram G1 0613")
    g1 = st.units["G1"]
    assert status(g1).rows_hit == [] and status(g1).in_building  # 12.3: in the building, which stands (8 < 10)
    assert data(st).building_damage[g1.hex] == 8 if g1.hex is not None else False
    assert hits.building_of(st, ruleset().tables, g1) is not None
    assert "ram G1 0613" not in legal(st)


def test_14_10_ac_rm_10_a_slow_truck_does_the_building_no_damage() -> None:
    # G5 (3.3 t) drove 5 hexes into 0613 (medium, armour 2): 5 x 3.3 / 10 = 1 - 2 -> 0
    st = _building_ram("h2-height-212", "G5", "0613:n/5")
    odds = ruleset().odds(st, ruleset().parse_action(st, "ram G5 0613"))
    assert odds is not None and odds.probability("0 damage to the building") > 0


def test_4_9_a_ram_that_destroys_the_building_kills_the_infantry_inside() -> None:
    # G1 (25 t) drove 4 hexes into 0513 (light, armour 1, destroyed at 5): 10 - 1 = 9 -> it collapses on S4
    st = attack_phase("h2-height-212", G1="0513:n/4", S4="0513")
    status(st.units["S4"]).in_building = True
    assert "ram G1 0513" in legal(st)
    st.dice = script(10, 10)
    st = play(st, "ram G1 0513")
    assert status(st.units["S4"]).destroyed and st.units["S4"].hex is None
    assert data(st).buildings_lost[st.units["G1"].hex or 0] == 1 if st.units["G1"].hex else False
    assert not status(st.units["G1"]).in_building  # 12.3: the building collapsed


def test_12_1_a_building_ram_is_refused_with_its_rule() -> None:
    st = attack_phase("h2-height-212", G1="0613:n", S1="0613:n/2")
    st.to_act = "german"
    assert refused(st, "ram G1 0613").rule == "12.1"  # G1 entered no hex this turn
    st = attack_phase("h2-height-212", G1="0713:n/2", S1="0713:n")
    st.to_act = "german"
    assert refused(st, "ram G1 0713").rule == "12.2"  # no building there
    assert refused(st, "ram G1 0613").rule == "12.1"  # not its hex


def test_6_3_only_infantry_in_a_building_is_harder_to_sight() -> None:
    st = play(_moving(G2="1007", U1="0708"), "move G2 1108")
    rs = ruleset()
    observer, target = st.units["U1"], st.units["G2"]
    line = sighting.sight_line(st, rs.tables, observer.hex, target.hex)  # type: ignore[arg-type]
    inside, terms = sighting.sight_roll(st, rs.tables, observer, target, line)
    assert any("in a building" in str(m) for m in terms)
    status(target).in_building = False  # in the streets
    outside, _ = sighting.sight_roll(st, rs.tables, observer, target, line)
    assert inside - outside == 5


def test_4_9_12_2_seeded_playout_occupies_vacates_and_rams_buildings() -> None:
    """A seeded H-3 playout whose units head for the buildings (and ram them when they may): infantry occupies and
    vacates buildings, vehicles ram them and bring some down (4.9, 12.2); each action reads back from its notation,
    and the game replays to the same state."""
    g = game("h3-bridge-at-dusk", seed=1)
    rng = random.Random(1)
    board = g.state.board
    houses = [h for h in board if "buildings" in board.terrain(h)]
    occupied = vacated = rammed = 0
    while g.state.outcome is None and g.state.turn <= 4:
        legal = g.legal_actions()
        at_houses = [a for a in legal if a.verb == "ram" and str(a.args[1]).isdigit()]
        toward = _toward(legal, houses)
        if at_houses and rng.random() < 0.7:
            pick = rng.choice(at_houses)
        else:
            pick = rng.choice(toward if toward and rng.random() < 0.8 else legal)
        assert g.ruleset.parse_action(g.state, g.describe(pick)) == pick
        events = g.apply(pick)
        occupied += sum("occupies a building" in e.text for e in events)
        vacated += pick.verb == "vacate"
        rammed += pick in at_houses
    assert occupied and vacated and rammed and sum(data(g.state).buildings_lost.values()) > 0
    again = engine.game.replay(g.scenario, 1, g.history)
    assert again.state.to_dict() == g.state.to_dict()


def test_4_9_the_last_building_of_a_hex_collapses_on_its_occupants_too() -> None:
    # H-1 1107 (5 medium buildings): four are down, the last takes near misses (as test_options' 8.6 case)
    st = fire_state(dice=LOSE + [1, 2, 2, 2] + [4] * 200, side="us", U4="0907:se", G1="1107")
    h = st.board.parse("1107")
    data(st).building_damage[h], data(st).buildings_lost[h] = 8, 4
    tr = Transition(st.clone())
    rs = ruleset()
    rs.apply(tr, rs.parse_action(st, "fire U4 G1 M2HB"))
    assert status(tr.state.units["G1"]).destroyed and data(tr.state).buildings_lost[h] == 5
    assert buildings.house(tr.state, rs.tables, h) is None  # none left to occupy
    hq = status(tr.state.units["A-HQ"])  # it shares the building with G1 (set up in 1107)
    assert hq.destroyed and not hq.in_building


def test_4_9_infantry_in_a_building_fires_at_a_vehicle_in_its_hex_from_above() -> None:
    st = fire_state(side="german", G1="1107", U4="1107:n")  # G1 set up in the medium buildings of 1107
    rs = ruleset()
    aim = attack.shot(st, rs.tables, st.units["G1"], "U4", "MG42L")
    assert not isinstance(aim, Refused) and aim.column == "top"  # the Sherman's top armour, 2 (not its front, 9)
    status(st.units["G1"]).in_building = False  # in the streets: the front, as any attack in the same hex
    aim = attack.shot(st, rs.tables, st.units["G1"], "U4", "MG42L")
    assert not isinstance(aim, Refused) and aim.column == "front"


def test_8_4_14_11_ac_bd_03_an_armoured_vehicle_in_a_building_has_the_higher_armour() -> None:
    # H-2: the half-track G3 (front 2, side 1, rear 1, top 0) rammed into the medium buildings (armour 2) of 0613
    st = placed(game("h2-height-212", LOSE), G3="0613:n")
    rs = ruleset()
    assert hits.target_of(st, rs.tables, st.units["G3"]).armour == (2, 1, 1, 0)
    status(st.units["G3"]).in_building = True
    assert hits.target_of(st, rs.tables, st.units["G3"]).armour == (2, 2, 2, 2)  # AC-BD-03: side 1 -> 2 (8.4)
