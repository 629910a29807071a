"""Morale in the Attack Phase beyond damage (9.3): infantry firing at armour in its hex or next to it rolls first
(in 3b and on opportunity, as in close combat), the cause of flames, and one roll per cause per turn across the
phases (``Status.morale_used``, cleared in Phase 0)."""

from __future__ import annotations

from dataclasses import replace

from engine.rules import Transition
from engine.rulesets.hacse import attack, opportunity
from engine.rulesets.hacse.data import load_tables
from engine.rulesets.hacse.model import data, status
from engine.rulesets.hacse.movement import Refused
from engine.state import GameState

from .helpers import LOSE, fire_state, play, ruleset

T = load_tables()


def _hurt(st: GameState, uid: str = "G1") -> None:
    status(st.units[uid]).rows_hit = [1, 2, 3, 4, 5, 6, 7, 9]  # 8 damage, the MG and the leader left: 16 - 8 + 4 = 12


def test_9_3_infantry_firing_at_armour_next_to_it_rolls_morale_first() -> None:
    # G1 (morale 16, 8 damage, leaders in contact: 12) next to the M4: 10 + 10 = 20 > 12 → shaken, fires at +5
    st = fire_state([*LOSE, 10, 10] + [5] * 40, G1="0906", U4="0907:n")
    _hurt(st)
    after = Transition(st.clone())
    rs = ruleset()
    rs.apply(after, rs.parse_action(st, "fire G1 U4 MG42L"))
    texts = [e.text for e in after.events]
    assert any("for morale (infantry attacking armour) against 12: shaken" in t for t in texts)
    g1 = status(after.state.units["G1"])
    assert g1.shaken and g1.morale_used == ["infantry_vs_armour"]
    assert any("G1 fires MG42L at U4" in t and "firer shaken" in t for t in texts)  # 9.5: +5 on the shot
    again = play(after.state, "fire G1 U4 MP40")  # once a turn: no second roll
    assert status(again.units["G1"]).morale_used == ["infantry_vs_armour"]


def test_9_3_no_roll_two_hexes_away_or_at_an_unarmoured_target() -> None:
    st = fire_state([*LOSE] + [5] * 40, G1="0906", U4="0908:n")
    after = play(st, "fire G1 U4 MG42L")
    assert status(after.units["G1"]).morale_used == []
    st = fire_state(G1="0906", U1="0907")
    assert not attack.armour_morale_due(st, T, st.units["G1"], st.units["U1"])  # infantry is not armour


def test_9_3_the_odds_weigh_the_morale_roll() -> None:
    st = fire_state(G1="0906", U4="0907:n")
    _hurt(st)
    rs = ruleset()
    action = rs.parse_action(st, "fire G1 U4 MG42L")
    odds = rs.odds(st, action)
    assert odds is not None
    assert sum(e.probability for e in odds.entries) == 1
    assert "rolls morale first (rule 9.3)" in (odds.note or "")
    status(st.units["G1"]).morale_used = ["infantry_vs_armour"]  # rolled already this turn: the plain odds
    plain = rs.odds(st, action)
    assert plain is not None and "rolls morale first" not in (plain.note or "")
    miss = {e.result: e.probability for e in odds.entries}
    assert miss != {e.result: e.probability for e in plain.entries}  # 28 % shaken: +5 to the hit roll


def test_9_3_an_attack_with_flames_rolls_morale_at_minus_4() -> None:
    flame = replace(T, weapons={**T.weapons, "MG42L": replace(T.weapons["MG42L"], cls="flame")})
    st = fire_state([*LOSE, 3, 3], G1="0906", U1="0908")
    tr = Transition(st.clone())
    u1 = tr.state.units["U1"]
    attack.flamed(flame, u1, "MG42L")
    assert status(u1).morale_due == ["flames"]
    attack.end_fire(tr, flame)
    texts = [e.text for e in tr.events]
    assert any("for morale (attacked with flames)" in t for t in texts)
    assert status(u1).morale_used == ["flames"]
    attack.flamed(T, u1, "MG42L")  # not a flame weapon: no cause
    assert status(u1).morale_due == []


def test_14_9_ac_mo_08_one_roll_per_cause_per_turn_across_the_phases() -> None:
    """A unit that rolled for damage earlier in the turn (an opportunity hit in the Movement Phase, or 3a) does not
    roll for damage again at the end of 3b; another cause still rolls."""
    st = fire_state([*LOSE, 3, 3, 3, 3], G1="0906", U1="0908")
    tr = Transition(st.clone())
    u1 = tr.state.units["U1"]
    attack.roll_morale(tr, T, u1)  # Movement Phase: the damage roll at once
    assert status(u1).morale_used == ["damage"]
    status(u1).morale_due = ["damage", "infantry_vs_armour"]
    before = sum(1 for e in tr.events if e.kind == "morale")
    attack.end_fire(tr, T)
    morale = [e.text for e in tr.events if e.kind == "morale"][before:]
    assert len(morale) == 1 and "infantry attacking armour" in morale[0]


def test_9_3_on_opportunity_too() -> None:
    """6.7: opportunity fire by infantry at an armoured mover next to it rolls morale first as well (odds and
    shot)."""
    st = fire_state([*LOSE, 10, 10] + [5] * 40, G1="0906", U4="0907:n")
    _hurt(st)
    rs = ruleset()
    data(st).opp_mover = "U4"
    odds = rs.odds(st, rs.parse_action(st, "fire G1 U4 MG42L"))
    assert odds is not None and "rolls morale first (rule 9.3)" in (odds.note or "")
    assert sum(e.probability for e in odds.entries) == 1
    aim = attack.aim(st, T, st.units["G1"], "U4", "MG42L")
    assert not isinstance(aim, Refused)
    tr = Transition(st.clone())
    attack.shoot(tr, T, tr.state.units["G1"], "U4", "MG42L", aim)
    assert status(tr.state.units["G1"]).shaken
    assert any("G1 fires its MG42L at U4" in e.text and "firer shaken" in e.text for e in tr.events)


def test_9_3_9_5_a_unit_that_dissolves_firing_on_opportunity_fires_no_more() -> None:
    """6.7: G1 (9 damage, its leader hit: morale 7) fires on opportunity at the Sherman next to it, rolls 20 for
    morale first and dissolves (9.5): it leaves the game, so it has no other weapon to fire and the offer closes (the
    mover's side acts again). Found in a seeded game of H-1 where the engine asked the gone unit for its next shot."""
    st = fire_state([*LOSE, 10, 10] + [5] * 40, G1="0906", U4="0907:n")
    g1 = status(st.units["G1"])
    g1.rows_hit = [1, 2, 3, 4, 5, 6, 7, 9, 10]
    g1.activated = g1.stood = True
    st.phase, st.to_act = "movement", "german"
    data(st).opp_mover = "U4"
    assert opportunity.eligible(st, T, st.units["G1"])
    tr = Transition(st.clone())
    assert opportunity.apply(tr, T, "fire", ("G1", "U4", "MG42L"))
    assert any("G1 rolls 20 for morale (infantry attacking armour) against 7: dissolved" in e.text for e in tr.events)
    gone = tr.state.units["G1"]
    assert status(gone).destroyed and gone.hex is None
    d = data(tr.state)
    assert d.opp_mover is None and d.opp_firing is None and tr.state.to_act == "us"
