"""Fire aimed at a bridge (4.10, 8.6 P): armour 2, destroyed at 25 damage like a blown bridge; in H-3 not before
turn 6 (15.10.5 [INTERP])."""

from __future__ import annotations

from fractions import Fraction

from engine.actions import Action
from engine.hexgrid import parse_hex
from engine.rules import Transition
from engine.rulesets.hacse import demolition, hits
from engine.rulesets.hacse.bridges import road_between, terrain_of
from engine.rulesets.hacse.model import data, status
from engine.state import GameState

from .helpers import LOSE, refused, ruleset
from .test_artillery import T, h3, odds_of

BRIDGE = parse_hex("1007")


def shoot(st: GameState) -> Transition:
    """G4's gun fires AP at the bridge with the game's dice (the shot alone, the phase not carried on)."""
    ruleset().check(st, Action("fire", ("G4", "1007", "KWK40", "AP", "bridge")))
    tr = Transition(st.clone())
    shot = demolition.ready(tr.state, T, tr.state.units["G4"], BRIDGE, "KWK40", "AP", demolition.BRIDGE)
    assert isinstance(shot, demolition.Demolition)
    demolition.fire(tr, T, tr.state.units["G4"], shot)
    return tr


def test_8_6_fire_at_the_bridge_is_listed_with_exact_odds() -> None:
    """H-3: the Panzer IV at 0907, next to the bridge, may fire its gun at it; TN 4 (base number only, 8.6 P): a
    natural 2 misses and jams, 3 misses; Dk 10 against armour 2 deals 4 damage (8.1 vehicle formula)."""
    st = h3(G4="0907")
    st.turn = 6
    assert Action("fire", ("G4", "1007", "KWK40", "AP", "bridge")) in set(ruleset().legal_actions(st))
    odds, note = odds_of(st, "fire G4 1007 KWK40 AP bridge")
    assert odds == {
        "jam": Fraction(1, 100),
        "miss": Fraction(2, 100),
        "4 damage to the bridge": Fraction(97, 100),
    }
    assert "destroyed at 25" in note


def test_4_10_a_hex_without_a_bridge_is_refused_citing_the_rule() -> None:
    st = h3(G4="0907")
    st.turn = 6
    err = refused(st, "fire G4 0906 KWK40 AP bridge")
    assert err.rule == "4.10" and "no bridge" in str(err)


def test_15_10_5_no_fire_at_the_bridge_before_turn_6() -> None:
    """H-3 lets the bridge be blown from turn 6 on: fire may not destroy it sooner (15.10.5 [INTERP])."""
    st = h3(G4="0907")
    st.turn = 5
    err = refused(st, "fire G4 1007 KWK40 AP bridge")
    assert err.rule == "15.10.5"
    assert not any(a.args[-1] == "bridge" for a in ruleset().legal_actions(st) if a.args)


def test_4_10_at_25_damage_the_bridge_falls_with_the_units_on_it() -> None:
    """21 damage before, a hit of 4: the bridge is destroyed (4.10): the T-34 on it is destroyed, the infantry takes
    1d6 damage; the hex is water and carries no road from then on."""
    st = h3(dice=[*LOSE, 9, 9, 2], G4="0907", S5="1007", S1="1007")
    st.turn = 6
    data(st).bridge_damage[BRIDGE] = 21
    steps = st.units["S1"].steps
    tr = shoot(st)
    after = tr.state
    texts = [e.text for e in tr.events]
    assert any("takes 4 damage (25 of 25; rule 8.6)" in t for t in texts)
    assert BRIDGE in data(after).blown
    assert status(after.units["S5"]).destroyed
    assert after.units["S1"].steps == steps - 2
    assert terrain_of(after, T, BRIDGE).key == "water"
    assert not road_between(after, parse_hex("0907"), BRIDGE)
    assert not any(a.args[-1] == "bridge" for a in ruleset().legal_actions(after) if a.args)


def test_8_6_a_hit_below_25_leaves_the_bridge_standing() -> None:
    st = h3(dice=[*LOSE, 9, 9], G4="0907")
    st.turn = 7
    tr = shoot(st)
    assert data(tr.state).bridge_damage[BRIDGE] == 4 and BRIDGE not in data(tr.state).blown


def test_8_6_near_misses_damage_a_building_a_unit_is_in_never_a_bridge() -> None:
    """8.6 names the building the target unit occupies as what near misses damage: a unit on the bridge is in none,
    so misses at it leave the bridge as it was (``hits.near_misses`` finds no building) [reading, README]."""
    st = h3(S1="1007", S2="1107")
    status(st.units["S1"]).in_building = status(st.units["S2"]).in_building = True  # as if either could be
    assert hits.building_of(st, T, st.units["S1"]) is None  # the bridge hex has no building
    assert hits.building_of(st, T, st.units["S2"]) is not None  # 1107 has: near misses there damage it


def test_7_1_8_6_a_weapon_that_fires_only_indirectly_does_not_aim_at_the_bridge() -> None:
    """8.6 P: a bridge is targeted directly (TN = base number + range + firer-side modifiers): a mortar's HE at the
    bridge hex is fire at a hex (7.4), which hits units there, not the bridge [reading, README]."""
    st = h3(M1="0306", G4="0907")
    st.turn = 6
    assert refused(st, "fire M1 1007 GW34 HE bridge").rule == "7.1"
    listed = ruleset().legal_actions(st)
    assert Action("fire", ("G4", "1007", "KWK40", "HE", "bridge")) in listed
    assert not any(a.args[0] == "M1" and a.args[-1] == "bridge" for a in listed if a.args)
