"""Riders and passengers under fire (§4.5, §8.5): outside riders take 1 damage from every hit on their vehicle, a
cargo-bed hit strikes a group inside, passengers of a vehicle destroyed otherwise than by its ammunition get out
with 1 damage each, and riders cannot be fired at on their own (H-2: the Panzer IV G1, the half-track G3 and the
squad G4; the T-34 S1)."""

from __future__ import annotations

import pytest

from engine.errors import IllegalActionError
from engine.rules import Transition
from engine.rulesets.hacse import attack, hits
from engine.rulesets.hacse.data import load_tables
from engine.rulesets.hacse.model import data, status
from engine.state import GameState

from .helpers import LOSE, game, placed, ruleset

T = load_tables()


def h2(dice: list[int], carrier: str = "G1", **where: str) -> GameState:
    """H-2, the Fire Phase open for the Soviets, S1 seeing the placed Germans; G4 aboard ``carrier``."""
    g = game("h2-height-212", dice=dice)
    st = placed(g, **where)
    st.phase, st.to_act = "attack", "soviet"
    d = data(st)
    d.active = d.mover = None
    g4 = st.units["G4"]
    status(g4).embarked_in, g4.hex = carrier, st.units[carrier].hex
    status(g4).off_map = False
    s1 = status(st.units["S1"])
    s1.may_fire, s1.fire_done, s1.fired = True, False, []
    s1.sighted = [u for u in where if st.units[u].side == "german"]
    return st


def run(st: GameState, text: str) -> Transition:
    rs = ruleset()
    action = rs.parse_action(st, text)
    rs.check(st, action)
    tr = Transition(st.clone())
    rs.apply(tr, action)
    return tr


def test_4_5_riders_cannot_be_fired_at_on_their_own() -> None:
    st = h2(LOSE, S1="1814:n", G1="1810:s")
    status(st.units["S1"]).sighted.append("G4")
    rs = ruleset()
    with pytest.raises(IllegalActionError) as err:
        rs.check(st, rs.parse_action(st, "fire S1 G4 DTV-coax"))
    assert err.value.rule == "4.5"


def test_14_7_dk_16_a_hit_that_does_not_penetrate_still_hurts_the_outside_riders() -> None:
    probe = h2(LOSE, S1="1814:n", G1="1810:s")
    odds = ruleset().odds(probe, ruleset().parse_action(probe, "fire S1 G1 F34 HE"))
    assert odds is not None
    tn = int(odds.note.split()[1])  # roll exactly the TN: effective Dk 2 - 1, below even half the front armour 8
    st = h2(LOSE + [tn - tn // 2, tn // 2] + [1, 2, 3] * 40, S1="1814:n", G1="1810:s")
    inside, outside = hits.passengers(st, T, st.units["G1"])
    assert inside == [] and [u.id for u in outside] == ["G4"]  # a tank has no room inside: G4 rides outside
    tr = run(st, "fire S1 G1 F34 HE")
    assert status(tr.state.units["G1"]).rows_hit == []  # 0 to the tank
    assert status(tr.state.units["G4"]).rows_hit == [1]  # 1 to the riders
    assert any("G4, outside G1, takes 1 damage (rule 4.5)" in e.text for e in tr.events)


def test_4_5_passengers_inside_a_half_track_are_not_riders() -> None:
    st = h2(LOSE, carrier="G3", S1="1814:n", G3="1810:s")
    inside, outside = hits.passengers(st, T, st.units["G3"])
    assert [u.id for u in inside] == ["G4"] and outside == []
    assert hits.target_of(st, T, st.units["G3"]).embarked == 1


def test_8_5_passengers_get_out_of_a_wreck_with_1_damage_each() -> None:
    st = h2(LOSE + [1] * 40, carrier="G3", S1="1814:n", G3="1810:s")
    g3 = st.units["G3"]
    status(g3).destroyed = True
    status(g3).rows_hit = [r.index for r in T.sheets[g3.type].rows if r.kind not in ("cargo_bed", "ammunition")]
    tr = Transition(st.clone())
    attack.leave(tr, tr.state.units["G3"], T)
    g4 = status(tr.state.units["G4"])
    assert g4.embarked_in is None and not g4.destroyed and g4.rows_hit == [1]
    assert tr.state.units["G4"].hex == st.units["G3"].hex


def test_8_5_passengers_die_when_the_ammunition_explodes() -> None:
    st = h2(LOSE + [5] * 40, S1="1814:n", G1="1810:s")
    g1 = st.units["G1"]
    status(g1).destroyed = True
    status(g1).rows_hit = [9]  # the ammunition row
    tr = Transition(st.clone())
    attack.leave(tr, tr.state.units["G1"], T)
    assert status(tr.state.units["G4"]).destroyed


def test_8_5_passengers_get_out_of_a_wreck_that_is_not_destroyed() -> None:
    """The half-track's crew (rows 1, 2) is hit: it is out of action, a wreck, not destroyed; the squad aboard gets
    out in its hex at once with 1 damage (8.5 P) and is no longer carried."""
    st = h2(LOSE + [1] * 40, carrier="G3", S1="1814:n", G3="1810:s")
    status(st.units["G3"]).rows_hit = [1]
    tr = Transition(st.clone())
    attack.record_damage(tr, T, tr.state.units["G3"], (2,), "front")
    g3, g4 = status(tr.state.units["G3"]), status(tr.state.units["G4"])
    assert not g3.destroyed and tr.state.units["G3"].hex is not None  # a wreck on the map
    assert g4.embarked_in is None and g4.rows_hit == [1]
    assert tr.state.units["G4"].hex == st.units["G3"].hex
    assert any("gets out of the wreck of G3" in e.text for e in tr.events)
    again = Transition(tr.state.clone())
    attack.record_damage(again, T, again.state.units["G3"], (4,), "front")  # further hits: nobody left aboard
    assert status(again.state.units["G4"]).rows_hit == [1]
