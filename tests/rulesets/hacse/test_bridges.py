"""Tests of bridges and demolition charges (digest 4.10, 15.10.5; 14.14 AC-SC-07): work activations, the End
Phase offer to blow, and what a blown bridge does."""

from __future__ import annotations

import pytest

from engine.actions import Action
from engine.dice import ScriptedDice
from engine.errors import IllegalActionError
from engine.game import Game
from engine.hexgrid import parse_hex
from engine.rules import Transition
from engine.rulesets.hacse import bridges
from engine.rulesets.hacse.data import load_tables
from engine.rulesets.hacse.model import data, status

from .helpers import game, placed, play, ruleset

BRIDGE = parse_hex("1007")


def _pass(g: Game) -> None:
    """Play the first standing or stopping action (or spare a bridge, or cease fire: 8.6 P fire at the bridge)."""
    g.apply(next(a for a in g.legal_actions() if a.verb in ("stand", "stop", "spare", "cease")))


def test_14_14_ac_sc_07_charges_attached_in_turns_1_and_2_and_no_blowing_before_turn_6() -> None:
    g = game("h3-bridge-at-dusk", seed=3)
    assert data(g.state).charges == {BRIDGE: 3}
    offers: list[int] = []
    after_turn_2 = None
    while g.state.turn <= 6:
        legal = g.legal_actions()
        if Action("work", ("G1", "1007")) in legal:
            g.apply("work G1 1007")
        elif legal[0].verb == "blow":
            offers.append(g.state.turn)
            g.apply(legal[1])  # spare
        else:
            _pass(g)
        if g.state.turn == 3 and after_turn_2 is None:
            after_turn_2 = data(g.state).charges[BRIDGE]
    assert after_turn_2 == 5 and status(g.state.units["G1"]).charges == 0
    assert offers == [6]  # first offered at the End Phase of turn 6 (15.10.5)


def test_4_10_work_refusals_cite_the_rule() -> None:
    g = game("h3-bridge-at-dusk", [10, 10, 1, 1])  # the germans win: the soviets move first
    rs = ruleset()
    st = placed(g, S1="1107")
    with pytest.raises(IllegalActionError, match=r"removing a charge takes a unit in 1007.*rule 15\.10\.5"):
        rs.check(st, rs.parse_action(st, "work S1 1007"))
    st = play(placed(g, S1="1007"), "work S1 1007")
    assert status(st.units["S1"]).work == "remove" and status(st.units["S1"]).activated


def test_4_10_blowing_destroys_vehicles_hurts_infantry_and_leaves_water() -> None:
    g = game("h3-bridge-at-dusk", [1, 1, 10, 10])  # the germans move first
    st = placed(g, S5="1007:sw", S1="1007")
    data(st).charges[BRIDGE] = 5
    st.turn = 6
    st.dice = ScriptedDice([4])
    tables = load_tables()
    assert bridges.blowable(st, tables) == BRIDGE
    tr = Transition(st.clone())
    bridges.blow(tr, tables, BRIDGE)
    after = tr.state
    assert status(after.units["S5"]).destroyed and after.units["S5"].hex is None
    assert after.units["S1"].hex == BRIDGE and after.units["S1"].steps == 9 - 4  # 1d6 = 4 rows lost
    assert bridges.terrain_of(after, tables, BRIDGE).key == "water"
    assert not bridges.road_between(after, parse_hex("0907"), BRIDGE)
    assert any("falls with the bridge" in e.text for e in tr.events)


def test_4_10_the_owner_decides_in_the_end_phase_and_a_blown_bridge_scores() -> None:
    g = game("h3-bridge-at-dusk", seed=3)
    # play to the offer of turn 6, attaching the charges of AC-SC-07 on the way
    while not (g.legal_actions() and g.legal_actions()[0].verb == "blow"):
        legal = g.legal_actions()
        g.apply(
            "work G1 1007"
            if Action("work", ("G1", "1007")) in legal
            else next(a for a in legal if a.verb in ("stand", "stop", "cease"))
        )
    assert g.state.turn == 6 and g.state.phase == "end" and g.waiting().side == "german"
    rs = ruleset()
    with pytest.raises(IllegalActionError, match=r"rule 4\.10"):
        rs.check(g.state, rs.parse_action(g.state, "stand G2"))
    g.apply("blow 1007")
    assert data(g.state).blown == [BRIDGE] and g.state.turn == 7
    while g.state.outcome is None:
        _pass(g)
    assert g.state.outcome.winner == "german" and "german 20" in g.state.outcome.reason  # bridge destroyed: +20


def test_14_11_ac_bg_01_four_charges_intact_five_may_be_blown_25_damage_destroyed() -> None:
    tables = load_tables()
    st = game("h3-bridge-at-dusk").state.clone()
    st.turn = 6  # 15.10.5: blowing from turn 6 on
    data(st).charges[BRIDGE] = 4
    assert bridges.blowable(st, tables) is None  # 4 charges: intact (4.10: at least 5)
    data(st).charges[BRIDGE] = 5
    assert bridges.blowable(st, tables) == BRIDGE  # 5 charges: may be blown
    tr = Transition(game("h3-bridge-at-dusk").state.clone())
    assert not bridges.damage(tr, tables, BRIDGE, 24, "test fire") and BRIDGE not in data(tr.state).blown
    assert bridges.damage(tr, tables, BRIDGE, 1, "test fire")  # 25 damage: destroyed (4.10: armour 2, 25)
    assert BRIDGE in data(tr.state).blown
