"""The Attack Phase (§3.2 Phase 3b) with direct fire (§6.3–6.8, §8, §9.3): legal targets, refusals citing the rule,
resolution with the game's dice, odds, simultaneous fire and the end of the phase."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from engine.actions import Action
from engine.presentation import GameInfo, Marker, SideInfo
from engine.rules import Transition
from engine.rulesets.hacse import attack
from engine.rulesets.hacse.data import load_tables
from engine.rulesets.hacse.model import data, status

from .helpers import LOSE, fire_state, game, placed, play, refused, ruleset

T = load_tables()


def test_2_2_target_outside_the_front_arc_of_a_towed_gun() -> None:
    st = fire_state(G4="0905:n", U4="0908:n")
    err = refused(st, "fire G4 U4 PAK40")
    assert str(err) == "Cannot fire: U4 is outside the front arc of the PAK40 of G4, facing N (rule 2.2)"
    assert err.rule == "2.2"


def test_2_2_target_in_the_front_arc_is_legal() -> None:
    st = fire_state(G4="0905:s", U4="0908:n")
    assert Action("fire", ("G4", "U4", "PAK40")) in ruleset().legal_actions(st)


def test_6_1_an_enemy_not_sighted_is_no_target() -> None:
    st = fire_state(G4="0905:s", U4="0908:n")
    status(st.units["G4"]).sighted = []
    assert refused(st, "fire G4 U4 PAK40").rule == "6.1"
    # no shot at U4 itself (fire at its hex without sight is 7.4: test_artillery)
    assert not [a for a in ruleset().legal_actions(st) if a.verb == "fire" and a.args[:2] == ("G4", "U4")]


def test_6_3_beyond_the_long_range() -> None:
    st = fire_state(G1="0101", U1="0113")
    err = refused(st, "fire G1 U1 MP40")
    assert err.rule == "6.3" and "beyond the long range" in str(err)


def test_6_6_a_jammed_weapon_cannot_fire() -> None:
    st = fire_state(G4="0905:s", U4="0908:n")
    status(st.units["G4"]).jammed = [0]
    assert refused(st, "fire G4 U4 PAK40").rule == "6.6"


def test_6_8_a_weapon_whose_row_is_hit_cannot_fire() -> None:
    st = fire_state(G4="0905:s", U4="0908:n")
    status(st.units["G4"]).rows_hit = [6]
    assert refused(st, "fire G4 U4 PAK40").rule == "6.8"


def test_3_2_each_weapon_fires_once_and_fire_is_made_in_the_attack_phase() -> None:
    st = fire_state(G4="0905:s", U4="0908:n")
    status(st.units["G4"]).fired = [0]
    assert refused(st, "fire G4 U4 PAK40").rule == "3.2"
    st2 = fire_state(G4="0905:s", U4="0908:n")
    st2.phase = "movement"
    assert refused(st2, "fire G4 U4 PAK40").rule == "3.2"


def test_3_2_the_other_side_cannot_fire_out_of_turn() -> None:
    st = fire_state(G4="0905:s", U4="0908:n")
    assert refused(st, "fire U4 G4 M3_75").rule == "3.2"


def test_6_3_odds_list_the_modifiers_and_sum_to_one() -> None:
    st = fire_state(G4="0905:s", U4="0908:n")
    odds = ruleset().odds(st, Action("fire", ("G4", "U4", "PAK40")))
    assert odds is not None
    assert sum(e.probability for e in odds.entries) == Fraction(1)
    assert odds.note.startswith("TN ") and "(rule 6.3)" in odds.note and "hits the front" in odds.note
    assert {"jam", "miss"} <= {e.result for e in odds.entries}


def test_6_8_a_hit_damages_the_target_and_the_dice_log_explains_the_roll() -> None:
    st = fire_state(dice=LOSE + [10, 10] + [4] * 60, G4="0905:s", U4="0908:n")
    rs = ruleset()
    action = rs.parse_action(st, "fire G4 U4 PAK40")
    rs.check(st, action)
    tr = Transition(st.clone())
    rs.apply(tr, action)
    after = tr.state
    u4 = status(after.units["U4"])
    assert u4.rows_hit, "a roll of 20 hits and the PaK 40's AP penetrates the Sherman's front"
    # the dice log: the hit roll on 2d10 with its TN, each modifier with its rule, the dice and what was needed
    hit = next(e for e in tr.events if e.kind == "roll")
    assert hit.data["dice"] == [10, 10] and hit.data["sides"] == 10 and hit.data["target"] == 6
    assert hit.text == (
        "G4 fires PAK40 at U4: TN 6 = +4 base number (rule 6.3) -1 target profile (rule 5) "
        "+3 light forest in the line of fire (rule 6.2): rolled 10+10 = 20, needs 6 or more"
    )
    g4 = status(after.units["G4"])
    assert g4.fired == [0] and g4.fire_done  # its only weapon: its fire is over
    assert g4.spent == {"0.AP": 1}
    assert after.to_act == "us" or after.phase != "attack"


def test_6_6_a_natural_2_jams() -> None:
    st = fire_state(dice=LOSE + [1, 1] + [4] * 20, G4="0905:s", U4="0908:n")
    after = play(st, "fire G4 U4 PAK40")
    assert status(after.units["G4"]).jammed == [0]
    assert not status(after.units["U4"]).rows_hit


def test_3_2_fire_is_simultaneous_a_destroyed_unit_still_fires() -> None:
    st = fire_state(G4="0905:s", U4="0908:n")
    status(st.units["G4"]).destroyed = True
    st.to_act = "us"
    assert Action("fire", ("U4", "G4", "M3_75")) not in ruleset().legal_actions(st)  # no target: destroyed
    st.to_act = "german"
    assert Action("fire", ("G4", "U4", "PAK40")) in ruleset().legal_actions(st)  # but it still fires (3.2)


def test_3_2_cease_ends_the_units_fire_and_passes_the_turn() -> None:
    st = fire_state(G1="0906", U1="0908")
    after = play(st, "cease G1")
    assert status(after.units["G1"]).fire_done
    assert after.to_act == "us"


def test_3_2_a_unit_fires_its_weapons_then_the_other_side() -> None:
    st = fire_state(dice=LOSE + [4] * 80, G1="0906", U1="0908")
    after = play(st, "fire G1 U1 K98")
    assert data(after).active == "G1" and after.to_act == "german"
    assert refused(after, "cease U1").rule == "3.2"


@pytest.mark.parametrize("sid", ["h1-le-hamel", "h2-height-212", "h3-bridge-at-dusk"])
def test_3_2_random_playouts_fire_and_do_damage(sid: str) -> None:
    fired = damaged = 0
    for seed in (1, 2, 3, 4):  # H-1's Germans hide again each End Phase (13.2): few shots in a random game
        g = game(sid, seed=seed)
        rng = random.Random(seed)
        while g.state.outcome is None and g.state.turn <= 6:
            legal = g.legal_actions()
            shots = [a for a in legal if a.verb == "fire"]
            g.apply(rng.choice(shots) if shots and rng.random() < 0.9 else rng.choice(legal))
        fired += sum(1 for a in g.history if a.verb == "fire")
        damaged += sum(len(status(u).rows_hit) for u in g.state.units.values())
    assert fired > 0 and damaged > 0


def test_9_3_morale_is_rolled_at_the_end_of_the_fire_phase() -> None:
    st = fire_state(dice=LOSE + [4] * 80, G1="0906", U1="0908")
    status(st.units["U1"]).morale_due = ["damage"]
    status(st.units["U1"]).rows_hit = list(range(1, 8))
    for u in st.units.values():
        status(u).fire_done = True
    tr = Transition(st.clone())
    attack.end_fire(tr, T)
    assert any(e.kind == "morale" and "rule 9.5" in e.text for e in tr.events)
    assert status(tr.state.units["U1"]).morale_due == []


def test_5_the_target_die_is_placed_at_the_end_of_an_activation_and_shown() -> None:
    g = game("h1-le-hamel", dice=LOSE + [4] * 40)
    st = placed(g, U4="0908:n")
    st.to_act = "us"
    after = play(st, "move U4 0907", "stop U4")
    s = status(after.units["U4"])
    assert s.die == attack.die_of(after, T, after.units["U4"]).value == 1 - 1  # 1 hex entered, profile -1
    info = GameInfo("hacse", "HACSE", "h1", "h1", 10, (SideInfo("german", "G"), SideInfo("us", "U")), g.board)
    markers = ruleset().presentation(info).unit_markers(after.units["U4"])
    assert Marker("0", "target die +0 (5)") in markers
