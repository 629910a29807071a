"""Fire aimed at a building (8.6 P), buildings collapsing and rubble (4.9), and AC-BD-01/02 of §14.11."""

from __future__ import annotations

import random

import engine
from engine.actions import Action
from engine.hexgrid import Hex, distance, parse_hex
from engine.rules import Transition
from engine.rulesets.hacse import attack
from engine.rulesets.hacse.bridges import terrain_of
from engine.rulesets.hacse.damage import destroyed_with_building
from engine.rulesets.hacse.data import load_tables
from engine.rulesets.hacse.fire import Building, Shot, hit_roll, resolve_attack
from engine.rulesets.hacse.hits import building_of, damage_building
from engine.rulesets.hacse.model import data, status
from engine.rulesets.hacse.movement import step_cost
from engine.rulesets.hacse.targetdie import target_die

from .fire_sheets import BALL, K98, ger_inf_sqd
from .helpers import LOSE, fire_state, game, play, refused, ruleset

T = load_tables()


def _acts(st: object) -> list[str]:
    return [str(a) for a in ruleset().legal_actions(st)]  # type: ignore[arg-type]


def test_8_6_fire_at_an_occupied_building_is_listed_and_checked() -> None:
    st = fire_state(side="us", G1="1205", U4="0905:ne")
    acts = _acts(st)
    assert "fire U4 1205 M3_75 HE building" in acts
    assert "fire U4 1205 M3_75 building" not in acts  # 15.5: the round is named where there are several
    assert refused(st, "fire U4 1205 M3_75 building").rule == "15.5"
    assert refused(st, "fire U4 1206 M3_75 HE building").rule == "4.9"  # nobody known in it
    assert refused(st, "fire U4 0906 M3_75 HE building").rule == "8.6"  # no building there
    assert refused(st, "fire U4 G1 M3_75 HE building").rule == "8.6"  # a unit, not a hex


def test_8_6_a_hidden_occupant_makes_no_target() -> None:
    st = fire_state(side="us", G1="1205", U4="0905:ne")
    status(st.units["G1"]).hidden = True
    assert refused(st, "fire U4 1205 M3_75 HE building").rule == "4.9"


def test_8_6_odds_are_exact_and_name_the_damage() -> None:
    st = fire_state(side="us", G1="1205", U4="0905:ne")
    rs = ruleset()
    odds = rs.odds(st, rs.parse_action(st, "fire U4 1205 M3_75 HE building"))
    assert odds is not None
    assert sum(e.probability for e in odds.entries) == 1
    by = {e.result: e.probability for e in odds.entries}
    assert by["4 damage to the building"] == 1 - by["jam"] - by["miss"]  # HE 3: 1 + 3, Dk 2 vs armour 1: +0
    assert "TN 4" in (odds.note or "")


def test_8_6_a_hit_damages_the_building_and_it_collapses_at_its_value() -> None:
    # light building (armour 1, destroyed at 5): an HE hit of 4 (1 + HE 3), then the .50 cal's 1 → it collapses
    # on G1 (armour 0 < 1, 4.9)
    st = fire_state([*LOSE, 10, 10, 10, 10], side="us", G1="1205", U4="0905:ne")
    here = parse_hex("1205")
    st = play(st, "fire U4 1205 M3_75 HE building")
    assert data(st).building_damage[here] == 4 and not data(st).buildings_lost
    assert status(st.units["U4"]).spent["0.HE"] == 1
    assert not status(st.units["G1"]).destroyed
    st = play(st, "fire U4 1205 M2HB building")
    assert data(st).buildings_lost[here] == 1 and data(st).building_damage[here] == 0
    assert status(st.units["G1"]).destroyed


def test_4_9_the_last_building_falls_and_the_hex_is_rubble() -> None:
    st = fire_state(side="us", G1="1205", U4="0905:ne")
    here = parse_hex("1205")
    house = T.buildings["light"]
    data(st).buildings_lost[here] = house.per_hex - 1
    tr = Transition(st.clone())
    damage_building(tr, T, here, house, 5, "test")
    texts = [e.text for e in tr.events]
    assert "1205 is rubble now (rule 4.9)" in texts
    assert status(tr.state.units["G1"]).destroyed
    assert terrain_of(tr.state, T, here).key == "rubble"
    assert building_of(tr.state, T, tr.state.units["G1"]) is None  # nobody is in a building there any more


def test_14_11_ac_bd_01_light_building_takes_5_damage() -> None:
    """Light building, 5 damage: destroyed; infantry inside destroyed; top armour 1 survives, top 0 does not."""
    st = fire_state(side="us", G1="1205", U1="1205", U4="0905:ne")
    status(st.units["U1"]).in_building = True  # both squads occupy the building (4.9); G1 from its set-up
    here = parse_hex("1205")
    tr = Transition(st.clone())
    damage_building(tr, T, here, T.buildings["light"], 5, "test")
    assert data(tr.state).buildings_lost[here] == 1
    assert status(tr.state.units["G1"]).destroyed and status(tr.state.units["U1"]).destroyed
    assert not destroyed_with_building(T.sheets["GER-PZ4H"].armour.top, T.buildings["light"].armour)
    assert destroyed_with_building(T.sheets["GER-SDKFZ251"].armour.top, T.buildings["light"].armour)


def test_14_11_ac_bd_02_a_miss_by_10_hits_the_building() -> None:
    """A miss by 10 or less at a unit in a building damages the building (TN 15: roll 5 does, roll 4 does not)."""
    die = target_die(profile=0, infantry=True, mp=3, mp_spent=3)
    shot = Shot(6, K98, BALL, distance=5, target_die=die, target_infantry=True, building=Building(2))
    tn = hit_roll(shot).tn
    assert tn == 15
    for roll, hit in ((tn - 10, 1), (tn - 11, 0)):
        dice = iter([roll // 2, roll - roll // 2])
        got = resolve_attack(shot, ger_inf_sqd(), "side", lambda s, c, p, d=dice: tuple(next(d) for _ in range(c)))
        assert got.building_hits == hit


def test_8_6_15_4_seeded_playout_fights_over_the_village() -> None:
    """A seeded H-1 playout whose units head for the objectives and prefer fire at buildings and smoke grenades:
    buildings are fired at and one collapses (4.9), grenades are thrown (15.4), and the game replays to the same
    state."""
    g = game("h1-le-hamel", seed=3)
    rng = random.Random(3)
    goals = list(data(g.state).points)
    at_buildings = grenades = collapsed = 0
    while g.state.outcome is None and g.state.turn <= 6:
        legal = g.legal_actions()
        liked = [a for a in legal if (a.verb == "fire" and a.args[-1] == "building") or a.verb == "smoke"]
        shots = [a for a in legal if a.verb == "fire"]
        steps = _toward(legal, goals)
        r = rng.random()
        pick = (
            rng.choice(liked)
            if liked and r < 0.9
            else rng.choice(shots)
            if shots and r < 0.95
            else rng.choice(steps)
            if steps and r < 0.97
            else rng.choice(legal)
        )
        events = g.apply(pick)
        at_buildings += pick.verb == "fire" and pick.args[-1] == "building"
        grenades += pick.verb == "smoke"
        collapsed += sum(1 for e in events if "collapses (rule 4.9)" in e.text)
    assert at_buildings > 0 and grenades > 0 and collapsed > 0
    again = engine.game.replay(g.scenario, 3, g.history)
    assert again.state.to_dict() == g.state.to_dict()


def _toward(legal: list[Action], goals: list[Hex]) -> list[Action]:
    steps = [a for a in legal if a.verb in ("move", "enter")]
    if not steps:
        return []

    def near(a: Action) -> int:
        h = parse_hex(str(a.args[-1] if a.verb == "move" else a.args[1]))
        return min(distance(h, t) for t in goals)

    best = min(near(a) for a in steps)
    return [a for a in steps if near(a) == best]


def test_4_9_rubble_is_rough_ground_for_movement_and_cover() -> None:
    """After the last building of a hex falls: the rough row to enter (4.3 P, not "as road" any more), +1 to the
    target die of a unit there (6.3 rubble) and no building +5 (6.3 b)."""
    st = fire_state(side="us", G1="1106", U4="0905:ne")  # medium buildings: armour 2
    here = parse_hex("1106")
    rs = ruleset()
    shot = rs.parse_action(st, "fire U4 G1 M1919V-coax")
    before = terrain_of(st, T, here)
    assert before.as_road and step_cost(T, "track", before) != step_cost(T, "track", T.terrain["rough"])
    standing = attack.die_of(st, T, st.units["G1"]).value
    odds = rs.odds(st, shot)
    assert odds is not None and "building" in (odds.note or "")
    data(st).buildings_lost[here] = T.buildings["medium"].per_hex
    after = terrain_of(st, T, here)
    assert after.key == "rubble" and not after.as_road and after.building is None
    assert step_cost(T, "track", after) == step_cost(T, "track", T.terrain["rough"])
    assert attack.die_of(st, T, st.units["G1"]).value == standing + 1
    odds = rs.odds(st, shot)
    assert odds is not None and "building" not in (odds.note or "")
