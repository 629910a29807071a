"""Tests of what the HACSE engine keeps to answer faster (``cache.py``, DESIGN §11): what a check finds is handed on
only to the apply of the same action to the very state checked, once, and a bound on steps never refuses a step the
movement rules admit (``activation._may_step``, 4.2, 4.3)."""

from __future__ import annotations

import random

import engine
from engine.rulesets.hacse import activation
from engine.rulesets.hacse.cache import applying, checking, handed, taken
from engine.rulesets.hacse.model import status
from engine.rulesets.hacse.movement import Spent

from .helpers import game, ruleset


def test_a_check_hands_its_finding_to_the_apply_of_the_same_state_once() -> None:
    st = game("h1-le-hamel").state
    made: list[str] = []

    def make(tag: str) -> object:
        made.append(tag)
        return tag

    with checking(st):
        assert handed(st, ("k",), lambda: make("check")) == "check"
    with applying(st):
        assert taken(st, ("k",), lambda: make("apply")) == "check"  # the check's, not made again
        assert taken(st, ("k",), lambda: make("again")) == "again"  # once only
    assert made == ["check", "again"]


def test_nothing_is_handed_to_another_state_or_past_the_next_apply() -> None:
    st = game("h1-le-hamel").state
    other = st.clone()
    with checking(st):
        handed(st, ("k",), lambda: "check")
    with applying(other):  # Game.apply applies to a copy: it finds nothing
        assert taken(other, ("k",), lambda: "fresh") == "fresh"
    with applying(st):  # that apply ended what the check handed on
        assert taken(st, ("k",), lambda: "fresh") == "fresh"
    with applying(st):  # nor is anything kept outside a check
        handed(st, ("k",), lambda: "not a check")
        assert taken(st, ("k",), lambda: "fresh") == "fresh"


def test_4_3_the_bound_on_steps_never_refuses_a_move_the_rules_admit() -> None:
    """In seeded random playouts, whenever a unit in its Movement Phase is said to have no step left, trying every
    neighbour hex with ``step_into`` finds none either (the bound spares that work, it decides nothing)."""
    rs = ruleset()
    seen = 0
    for sid, seed in (("h1-le-hamel", 3), ("h2-height-212", 4), ("h3-bridge-at-dusk", 5)):
        g = game(sid, seed=seed)
        rng = random.Random(seed)
        for _ in range(1500):
            st = g.state
            if st.outcome is not None:
                break
            for u in st.units.values():
                if u.hex is None or st.phase != "movement" or status(u).destroyed:
                    continue
                at = activation._here(u)
                mp = activation.speed(st, rs.tables, u)
                if activation._may_step(rs.tables, rs.tables.sheets[u.type].move_class, at.spent, mp):
                    continue
                seen += 1
                for n in at.hex.neighbours():
                    if n in st.board:
                        got = activation.step_into(st, rs.tables, u, at, n)
                        assert isinstance(got, activation.Refused), (sid, u.id, n)
            legal = g.legal_actions()
            g.apply(rng.choice(legal))
    assert seen > 0  # the bound was put to the test


def test_4_2_the_bound_counts_the_road_mp_only_while_a_road_move_may_go_on() -> None:
    """Infantry (3 MP, 4 on roads, a step at least 1 MP) that has spent 3 MP: a road move with at most one step
    off the road may take one more road step (4.2); once two steps were off the road only its 3 MP count, and no
    step is tried."""
    tables = ruleset().tables
    assert activation._may_step(tables, "foot", Spent(6, off_road=1, road_steps=2), (3, 4))
    assert not activation._may_step(tables, "foot", Spent(6, off_road=2, road_steps=1), (3, 4))
    assert not activation._may_step(tables, "foot", Spent(6, off_road=3, road_steps=0), (3, 4))
    assert activation._may_step(tables, "foot", Spent(4, off_road=2, road_steps=0), (3, 4))  # 1 MP left


def test_a_replay_applies_each_action_as_a_fresh_apply_does() -> None:
    """A replay (each action checked, then applied to the state checked) ends in the state of the game played with
    copies (nothing handed on): the same history, the same final state."""
    g = game("h3-bridge-at-dusk", seed=2)
    rng = random.Random(2)
    while g.state.outcome is None and len(g.history) < 600:
        g.apply(rng.choice(g.legal_actions()))
    again = engine.replay(g.scenario, 2, g.history)
    assert again.state == g.state
