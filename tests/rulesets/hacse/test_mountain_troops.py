"""Tests of mountain troops and rangers climbing (digest 4.7, 13.1; 14.4 AC-CL-04): a sheet's ``traits`` marks
them, and the climbing skill roll is 3 easier (``climb_specialist_ease`` in ``data/movement.toml``)."""

from __future__ import annotations

import dataclasses

from engine.dice import ScriptedDice
from engine.hexgrid import parse_hex
from engine.rules import Transition
from engine.rulesets.hacse.climbing import climb, climb_tn, is_climbing_specialist
from engine.rulesets.hacse.data import Tables, load_tables
from engine.rulesets.hacse.model import status

from .helpers import WIN, game, placed
from .test_fortifications import SIGHT, _cliff

T = load_tables()
SQUAD = "US-INF-SQD"


def _with_trait(trait: str) -> Tables:
    """The tables with the US squad's sheet marked by ``trait`` (no shipped sheet has mountain troops)."""
    sheets = dict(T.sheets)
    sheets[SQUAD] = dataclasses.replace(sheets[SQUAD], traits=(*sheets[SQUAD].traits, trait))
    return dataclasses.replace(T, sheets=sheets)


def test_4_7_mountain_troops_and_rangers_are_marked_by_their_sheets_traits() -> None:
    assert not is_climbing_specialist(T.sheets[SQUAD])
    assert is_climbing_specialist(_with_trait("mountain_troops").sheets[SQUAD])
    assert is_climbing_specialist(_with_trait("ranger").sheets[SQUAD])
    assert not is_climbing_specialist(_with_trait("hq").sheets[SQUAD])


def test_4_7_ac_cl_04_mountain_troops_climb_with_a_roll_3_easier() -> None:
    st = placed(game("h1-le-hamel", WIN), U1="0707")
    u1 = st.units["U1"]
    ease = int(T.movement.value("climb_specialist_ease"))
    assert ease == -3
    assert climb_tn(_with_trait("mountain_troops"), u1) == climb_tn(T, u1) + ease


def test_4_7_a_mountain_squad_climbing_rolls_against_the_eased_number_in_play() -> None:
    st = _cliff(placed(game("h1-le-hamel", WIN), U1="0707"), "0807", 5)
    tables = _with_trait("mountain_troops")
    normal = climb_tn(T, st.units["U1"])
    eased = climb_tn(tables, st.units["U1"])
    st.dice = ScriptedDice([5, eased - 5, *SIGHT])  # reaches the eased TN, misses the normal one
    tr = Transition(st.clone())
    climb(tr, tables, tr.state.units["U1"], parse_hex("0807"))
    roll = next(e for e in tr.events if e.kind == "roll")
    assert roll.data["target"] == eased < normal
    u1 = tr.state.units["U1"]
    assert u1.hex == parse_hex("0807") and not status(u1).rows_hit  # no damage: the roll succeeded
