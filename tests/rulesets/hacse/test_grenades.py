"""Smoke grenades (15.4): ``smoke UNIT WEAPON`` in Phase 3b, smoke in the thrower's hex for 2 turns instead of the
named weapon's fire."""

from __future__ import annotations

from engine.actions import Action
from engine.hexgrid import parse_hex
from engine.rules import Transition
from engine.rulesets.hacse.model import data, status

from .helpers import fire_state, play, refused, ruleset


def test_15_4_a_smoke_grenade_smokes_the_throwers_hex_instead_of_a_weapons_fire() -> None:
    st = fire_state(G1="1205", U1="0905")
    acts = set(ruleset().legal_actions(st))
    assert Action("smoke", ("G1", "K98")) in acts
    after = play(st, "smoke G1 K98")
    s = status(after.units["G1"])
    assert data(after).smoke == {parse_hex("1205"): 2}
    assert parse_hex("1205") in data(after).smoke_new  # 3.2 P: for LOS after this Fire Phase
    assert s.used == {"smoke_grenades": 1} and s.fired == [0]
    assert refused(after, "fire G1 U1 K98").rule == "3.2"  # the rifles' fire was replaced
    assert refused(after, "smoke G1 MG42L").rule == "15.4"  # its only grenade is gone
    play(after, "fire G1 U1 MG42L")  # its other weapons still fire


def test_15_4_no_grenade_no_fire_to_replace_or_not_the_fire_phase() -> None:
    st = fire_state(G1="1205", U1="0905")
    status(st.units["G1"]).used["smoke_grenades"] = 1
    assert refused(st, "smoke G1 K98").rule == "15.4"
    st = fire_state(G1="1205", U1="0905")
    status(st.units["G1"]).sighted = []  # nothing to fire at: no fire for a grenade to replace
    assert refused(st, "smoke G1 K98").rule == "15.4"
    assert not [a for a in ruleset().legal_actions(st) if a.verb == "smoke"]
    st = fire_state(G1="1205", U1="0905")
    st.phase = "movement"
    assert refused(st, "smoke G1 K98").rule == "15.4"


def test_15_4_a_tank_crew_throws_instead_of_operating_its_weapon() -> None:
    st = fire_state(side="us", G1="1205", U4="0905:ne")
    after = play(st, "smoke U4 M2HB")
    assert status(after.units["U4"]).used == {"smoke_grenades": 1}
    assert refused(after, "fire U4 G1 M2HB").rule == "3.2"
    assert Action("smoke", ("U4", "M3_75")) in set(ruleset().legal_actions(after))  # 2 grenades on an M4


def test_13_2_a_hidden_thrower_is_not_named_to_the_other_side() -> None:
    st = fire_state(G1="1205", U1="0905")
    status(st.units["G1"]).hidden = True
    rs = ruleset()
    tr = Transition(st.clone())
    rs.apply(tr, rs.parse_action(st, "smoke G1 K98"))
    seen = [e.text for e in tr.events if e.visible_to is None or "us" in e.visible_to]
    assert seen and not any("G1" in t for t in seen)
    assert any("Smoke rises in 1205" in t for t in seen)
