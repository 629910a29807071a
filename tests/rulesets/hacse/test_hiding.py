"""Hiding again in the End Phase (3.2 Phase 4 step 9, 13.2 P) as the owner's choice: ``hide UNIT`` or ``stay``,
each side asked about its units that may hide, the initiative loser first; nothing chosen for a player."""

from __future__ import annotations

import random

import pytest

from engine.rules import Transition
from engine.rulesets.hacse import hiding
from engine.rulesets.hacse.data import load_tables
from engine.rulesets.hacse.model import data, status
from engine.state import GameState

from .helpers import game, placed, play, refused, ruleset

T = load_tables()


def _asked(**changes: object) -> GameState:
    """H-1 in the End Phase with G2 (infantry, 0908) in the open, US U1 and U4 on the map; step 9 under way."""
    st = placed(game("h1-le-hamel"), U1="0407", U4="0307:ne")
    st.phase = "end"
    data(st).first = "german"
    status(st.units["G2"]).hidden = False
    for uid in ("U1", "U4"):
        status(st.units[uid]).sighted = []
    for k, v in changes.items():
        setattr(status(st.units["G2"]), k, v)
    tr = Transition(st)
    hiding.start(tr, T)
    return tr.state


def test_13_2_the_owner_is_asked_and_nothing_hides_by_itself() -> None:
    st = _asked()
    assert data(st).hiding == "german" and st.to_act == "german"
    legal = [str(a) for a in ruleset().legal_actions(st)]
    assert "hide G2" in legal and legal[-1] == "stay"
    assert not status(st.units["G2"]).hidden  # not before the owner says so


def test_13_2_hide_unit_hides_it_told_where_only_to_its_side() -> None:
    st = _asked()
    rs = ruleset()
    tr = Transition(st.clone())
    rs.apply(tr, rs.parse_action(st, "hide G2"))
    assert status(tr.state.units["G2"]).hidden
    said = {(e.text, e.visible_to) for e in tr.events if e.kind == "hide"}
    assert ("G2 hides again at 0908 (rule 13.2)", ("german",)) in said
    assert ("G2 hides (rule 13.2)", ("us",)) in said
    assert "hide G2" not in [str(a) for a in rs.legal_actions(tr.state)]


def test_13_2_stay_leaves_the_units_in_the_open() -> None:
    st = play(_asked(), "stay")
    assert not status(st.units["G2"]).hidden
    assert data(st).hiding != "german"


def test_13_2_a_sighted_unit_or_one_that_fired_may_not_hide_and_the_refusal_cites_13_2() -> None:
    st = _asked()
    status(st.units["U1"]).sighted = ["G2"]
    err = refused(st, "hide G2")
    assert err.rule == "13.2" and "U1 has G2 sighted" in str(err)
    status(st.units["U1"]).sighted = []
    status(st.units["G2"]).fired_dk = 0
    assert "fired this turn" in str(refused(st, "hide G2"))
    assert status(st.units["U4"]).facing is not None
    assert refused(st, "hide U4").rule == "13.2"  # not the side asked


def test_13_2_a_vehicle_in_the_open_is_not_offered() -> None:
    st = _asked()
    data(st).hiding = "us"
    st.to_act = "us"
    assert "hide U4" not in [str(a) for a in ruleset().legal_actions(st)]  # 0307 is open ground
    assert "may not hide" in str(refused(st, "hide U4"))


def test_13_2_a_hidden_enemy_that_sees_it_does_not_stop_it_and_loses_sight() -> None:
    st = _asked()
    status(st.units["U1"]).sighted = ["G2"]
    status(st.units["U1"]).hidden = True  # the Germans do not know U1 is there
    assert "hide G2" in [str(a) for a in ruleset().legal_actions(st)]
    st = play(st, "hide G2")
    assert status(st.units["G2"]).hidden and "G2" not in status(st.units["U1"]).sighted


def test_13_2_hide_and_stay_are_refused_outside_the_end_phase() -> None:
    st = game("h1-le-hamel").state
    assert refused(st, "stay").rule == "13.2"
    assert refused(st, "hide G2").rule == "13.2"


@pytest.mark.parametrize("sid", ["h1-le-hamel", "h2-height-212", "h3-bridge-at-dusk"])
def test_13_2_seeded_playouts_ask_the_owners_and_units_hide_again(sid: str) -> None:
    g = game(sid, seed=2)
    rng = random.Random(2)
    asked = hid = 0
    while g.to_act is not None and g.state.turn <= 4:
        legal = g.legal_actions()
        if data(g.state).hiding is not None:
            asked += 1
            assert legal[-1].verb == "stay" and all(a.verb == "hide" for a in legal[:-1])
        action = rng.choice(legal)
        hid += action.verb == "hide"
        g.apply(action)
    assert asked and hid
