"""Opportunity fire (6.7; 3.2 Phase 2, interrupts during movement, step 3): a unit that stood this turn fires at
an enemy unit moving in its sight; the other side decides; the move goes on or ends."""

from __future__ import annotations

import random

import pytest

from engine.dice import Dice
from engine.errors import IllegalActionError
from engine.rulesets.hacse.model import data, status
from engine.state import GameState

from .helpers import LOSE, game, placed, play, ruleset


def _ambush(stood: bool = True) -> GameState:
    """H-1: the PaK G4 at 0905 facing SW has stood this turn (spending no MP) and sees the Sherman U4 at 0604;
    the US side is to activate a unit."""
    st = placed(game("h1-le-hamel", LOSE), U4="0604:se", G4="0905:sw")
    st.dice = Dice(11)
    g4 = status(st.units["G4"])
    g4.activated, g4.stood, g4.sighted = True, stood, ["U4"]
    d = data(st)
    st.to_act, d.mover, d.quota, d.active = "us", "us", 1, None
    return st


def test_6_7_a_unit_moving_in_sight_of_a_unit_that_stood_is_offered_to_the_other_side() -> None:
    st = play(_ambush(), "move U4 0605 0606")
    d = data(st)
    assert d.opp_mover == "U4" and st.to_act == "german"
    assert st.units["U4"].hex is not None and st.board.label(st.units["U4"].hex) == "0605"  # the rest waits
    legal = {str(a) for a in ruleset().legal_actions(st)}
    assert "hold" in legal and any(a.startswith("fire G4 U4 ") for a in legal)
    assert all(a == "hold" or a.startswith("fire G4 U4") for a in legal)  # only at the mover, only eligible units


def test_6_7_a_unit_that_moved_is_not_eligible() -> None:
    st = play(_ambush(stood=False), "move U4 0605")
    assert data(st).opp_mover is None and st.to_act == "us"


def test_6_7_holding_closes_the_offer_and_the_move_goes_on() -> None:
    st = play(_ambush(), "move U4 0605", "hold")
    assert data(st).opp_mover is None and st.to_act == "us" and data(st).active == "U4"
    assert not status(st.units["G4"]).opp_fired  # not picked: still eligible for later hexes (6.7)
    st = play(st, "move U4 0606")
    assert data(st).opp_mover == "U4"  # offered again at the next hex


def test_6_7_a_unit_that_fired_on_opportunity_does_not_fire_in_the_attack_phase() -> None:
    st = _ambush()
    st = play(st, "move U4 0605")
    shot = next(a for a in ruleset().legal_actions(st) if a.verb == "fire")
    st = play(st, str(shot))
    assert status(st.units["G4"]).opp_fired
    if data(st).opp_mover is not None:
        st = play(st, "hold")
    assert data(st).opp_mover is None  # the offer is closed (the US move went on, or ended if U4 was stopped)
    from engine.rulesets.hacse.attack import _able  # noqa: PLC0415 - the 3b eligibility itself

    assert not _able(st, ruleset().tables, st.units["G4"])


def test_6_7_while_the_offer_is_open_nothing_else_may_be_played() -> None:
    st = play(_ambush(), "move U4 0605")
    with pytest.raises(IllegalActionError, match=r"opportunity") as e:
        ruleset().check(st, ruleset().parse_action(st, "stand G1"))
    assert e.value.rule == "6.7"
    with pytest.raises(IllegalActionError):
        ruleset().check(st, ruleset().parse_action(st, "fire G1 U4 K98"))


def test_6_7_hold_outside_an_offer_is_refused() -> None:
    st = _ambush()
    with pytest.raises(IllegalActionError, match="no opportunity fire") as e:
        ruleset().check(st, ruleset().parse_action(st, "hold"))
    assert e.value.rule == "6.7"


def test_6_7_odds_of_an_opportunity_shot_are_exact() -> None:
    st = play(_ambush(), "move U4 0605")
    shot = next(a for a in ruleset().legal_actions(st) if a.verb == "fire")
    odds = ruleset().odds(st, shot)
    assert odds is not None and abs(sum(float(e.probability) for e in odds.entries) - 1) < 1e-9


@pytest.mark.parametrize("sid", ["h1-le-hamel", "h2-height-212", "h3-bridge-at-dusk"])
def test_6_7_offers_appear_and_close_in_seeded_playouts(sid: str) -> None:
    offers = 0
    for seed in range(20):  # H-1: about one offer in two games (its Germans hide again each End Phase)
        g = game(sid, seed=seed)
        rng = random.Random(seed)
        while g.state.outcome is None:
            legal = g.legal_actions()
            if data(g.state).opp_mover is not None:
                offers += 1
                assert any(a.verb == "hold" for a in legal)
                assert g.state.to_act != g.state.units[data(g.state).opp_mover or ""].side
            g.apply(rng.choice(legal))
    assert offers > 0
