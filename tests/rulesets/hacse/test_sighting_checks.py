"""Sighting checks by every enemy unit (6.1 P: a unit entering a hex, the end of an activation, a unit revealed),
one roll per pair and phase, hidden units sighted and revealed (13.2), and what each side reads of them: a hidden
unit's existence never reaches the other side through a log or dice line (13.2)."""

from __future__ import annotations

import random

import pytest

import engine
from engine.dice import ScriptedDice
from engine.hexgrid import parse_hex
from engine.rules import Transition
from engine.rulesets.hacse import sighting
from engine.rulesets.hacse.data import load_tables
from engine.rulesets.hacse.hidden import withhold
from engine.rulesets.hacse.model import data, status
from engine.rulesets.hacse.sighting import check
from engine.state import GameState

from .helpers import LOSE, fire_state, game, names_unit, placed, play, ruleset

T = load_tables()


def _us_to_move(**where: str) -> GameState:
    """H-1 with units placed, the US side to activate one unit; the German units placed have moved (not eligible
    for opportunity fire) and see nobody."""
    st = placed(game("h1-le-hamel", LOSE), **where)
    d = data(st)
    st.to_act, d.mover, d.quota, d.active = "us", "us", 1, None
    for uid in where:
        s = status(st.units[uid])
        s.sighted = []
        if st.units[uid].side == "german":
            s.activated, s.stood = True, False
    return st


def test_6_1_every_enemy_unit_checks_a_unit_entering_a_hex_not_only_the_eligible() -> None:
    st = _us_to_move(G1="0101", U1="0114")
    tr = Transition(st.clone())
    ruleset().apply(tr, ruleset().parse_action(st, "move U1 0113"))
    assert "U1" in status(tr.state.units["G1"]).sighted  # 12 hexes on open ground: condition 3
    said = [e for e in tr.events if e.kind == "sight" and e.text.startswith("G1 sights U1")]
    assert said and said[0].visible_to == ("german",)


def test_6_1_a_unit_checks_every_enemy_unit_at_the_end_of_its_activation() -> None:
    st = _us_to_move(G1="0101", U1="0113")
    st = play(st, "stand U1")
    assert status(st.units["U1"]).sighted == ["G1"]


def test_6_1_one_sighting_roll_per_observer_and_target_in_a_phase() -> None:
    st = placed(game("h1-le-hamel", [*LOSE, 1, 1]), G1="1501", U1="1301")  # dense forest, 2 hexes: a roll
    st.phase = "movement"
    tr = Transition(st)
    assert not check(tr, T, st.units["U1"], st.units["G1"])  # 1 + 1 misses
    assert not check(tr, T, st.units["U1"], st.units["G1"])  # no second roll (the dice would run out)
    assert sum(1 for e in tr.events if e.kind == "roll") == 1
    st.phase = "attack"  # a new phase, a new roll
    st.dice = ScriptedDice([10, 10])
    assert check(tr, T, st.units["U1"], st.units["G1"])


def test_13_2_a_hidden_observers_check_is_read_by_its_side_only() -> None:
    st = placed(game("h1-le-hamel", [*LOSE, 1, 1]), G1="1301", U1="1501")
    status(st.units["G1"]).hidden = True
    tr = Transition(st)
    check(tr, T, st.units["G1"], st.units["U1"])
    assert tr.events and all(e.visible_to == ("german",) for e in tr.events)


def test_13_2_a_missed_check_of_a_hidden_unit_is_not_in_the_observers_log() -> None:
    st = placed(game("h1-le-hamel", [*LOSE, 1, 1]), G1="1501", U1="1301")
    status(st.units["G1"]).hidden = True
    tr = Transition(st)
    assert not check(tr, T, st.units["U1"], st.units["G1"])
    assert tr.events and all(not e.is_visible_to("us") for e in tr.events)  # dice line and text
    assert all(e.visible_to == ("german",) for e in tr.events)  # the hidden unit's side reads it
    status(st.units["U1"]).hidden = True  # both hidden: nobody but the referee
    st.phase = "end"
    st.dice = ScriptedDice([1, 1])
    tr = Transition(st)
    check(tr, T, st.units["U1"], st.units["G1"])
    assert tr.events and all(e.visible_to == () for e in tr.events)


def test_13_2_a_hidden_unit_sighted_is_revealed_and_every_enemy_unit_checks_it() -> None:
    st = placed(game("h1-le-hamel", [*LOSE, 10, 10]), G1="1501", U1="1301", U2="1401")
    status(st.units["G1"]).hidden = True
    tr = Transition(st)
    assert check(tr, T, st.units["U1"], st.units["G1"])  # 20: sighted
    assert not status(st.units["G1"]).hidden and tr.revealed
    assert any(e.kind == "reveal" and e.visible_to is None for e in tr.events)
    assert "G1" in status(st.units["U2"]).sighted  # adjacent: checked at once, no roll (6.1 P)


def test_13_2_a_hidden_unit_that_fires_in_3b_is_revealed_and_checked_with_the_fired_modifier() -> None:
    st = fire_state(G1="0101", U1="0103")
    st.dice = engine.dice.Dice(5)
    status(st.units["G1"]).hidden = True
    status(st.units["U1"]).sighted = []
    shot = next(a for a in ruleset().legal_actions(st) if a.verb == "fire" and a.args[0] == "G1")
    tr = Transition(st.clone())
    ruleset().apply(tr, shot)
    g1 = tr.state.units["G1"]
    assert not status(g1).hidden
    reveal = next(i for i, e in enumerate(tr.events) if e.kind == "reveal")
    fire = next(i for i, e in enumerate(tr.events) if e.kind in {"fire", "roll"})
    assert reveal < fire  # revealed before its fire names it
    assert "G1" in status(tr.state.units["U1"]).sighted


def test_7_3_a_random_hit_check_counting_a_hidden_unit_is_read_only_by_its_side() -> None:
    g = game("h3-bridge-at-dusk", dice=LOSE + [10, 10, 10, 10] + [1] * 40)
    st = placed(g, M1="0306", S1="1206", S2="1206")
    status(st.units["S2"]).hidden = True
    st.phase, st.to_act = "attack", "german"
    data(st).active = data(st).mover = None
    for u in st.units.values():
        s = status(u)
        s.may_fire, s.fire_done, s.fired, s.sighted = u.hex is not None, False, [], []
    tr = Transition(st.clone())
    ruleset().apply(tr, ruleset().parse_action(st, "fire M1 1206 GW34 HE"))
    rolls = [e for e in tr.events if e.kind == "roll" and "random hit" in e.text]
    assert rolls and all(e.visible_to == ("soviet",) for e in rolls)  # its TN counts S2's group
    german = [e.text for e in tr.events if e.is_visible_to("german")]
    assert not any("S2" in t or "TN 17" in t for t in german)


@pytest.mark.parametrize("scenario", ["h1-le-hamel", "h2-height-212", "h3-bridge-at-dusk"])
def test_13_2_no_log_or_dice_line_of_a_side_names_an_enemy_unit_hidden_from_it(scenario: str) -> None:
    """Seeded random playouts: after each action, no event the other side may read names a unit hidden then (a unit
    revealed by the action is named once it is not hidden; ``hide`` tells the enemy which known unit went out of
    sight)."""
    game_ = engine.new_game(engine.load_scenario("hacse", scenario), seed=3)
    engine.take_scenario_setup(game_)
    rng = random.Random(3)
    seen = len(game_.events)
    for _ in range(1500):
        if game_.to_act is None:
            break
        game_.apply(rng.choice(game_.legal_actions()))
        new = game_.events[seen:]
        seen = len(game_.events)
        hidden = [u for u in game_.state.units.values() if status(u).hidden]
        for e in new:
            if e.kind == "hide":
                continue
            for u in hidden:
                for side in game_.state.sides:
                    if side != u.side and e.is_visible_to(side):
                        assert not names_unit(e.text, u.id), f"{side} reads {e.text!r} of hidden {u.id}"


def test_3_2_step_9_sight_is_lost_where_new_smoke_cuts_the_line() -> None:
    st = placed(game("h1-le-hamel"), G1="0101", U1="0113")
    status(st.units["G1"]).sighted = ["U1"]
    st.phase = "end"
    tr = Transition(st)
    sighting.persistence(tr, T)
    assert status(st.units["G1"]).sighted == ["U1"]
    data(st).smoke.update({parse_hex("0107"): 2, parse_hex("0108"): 2})  # +5 each: 10 blocks (6.2); laid in
    # 3b, it counts from the End Phase on (3.2 P)
    sighting.persistence(tr, T)
    assert status(st.units["G1"]).sighted == []
    assert not [e for e in tr.events if e.kind == "roll"]


def test_13_2_a_line_that_names_a_hidden_unit_in_its_text_is_withheld_from_the_enemy() -> None:
    """``hidden.withhold``, the last word after every action: a line whose text names a hidden unit (and no
    ``unit`` in its data) is left to that unit's side; one naming hidden units of both sides to neither; a ``hide``
    line, and a line naming no hidden unit, as they were."""
    st = game("h3-bridge-at-dusk").state.clone()  # 15.10.5: every German unit is hidden after the set-up
    assert status(st.units["G1"]).hidden and not status(st.units["S1"]).hidden
    status(st.units["S1"]).hidden = True
    tr = Transition(st)
    tr.emit("cease", "G1 ceases fire (rule 3.2)")
    tr.emit("note", "G1 and S1 in one line")
    tr.emit("hide", "G1 is out of sight (rule 13.2)")
    tr.emit("note", "G12 is no unit; nor is A-G1")
    withhold(tr)
    assert [e.visible_to for e in tr.events] == [("german",), (), None, None]
