"""Tests of the HACSE turn sequence (digest 3.2 [PROPOSED], 14.12 AC-IT-01 to 03): initiative, alternating
activations with the ⌊a / b⌋ rule, the end of the turn and of the game, and what the other side sees of hidden
units (13.2)."""

from __future__ import annotations

import pytest

from engine.actions import Action
from engine.errors import IllegalActionError
from engine.rulesets.hacse.model import data, status
from engine.rulesets.hacse.sequence import activations

from .helpers import LOSE, WIN, game, play, ruleset


def test_14_12_ac_it_01_nine_against_three() -> None:
    assert activations(9, 3) == 3


def test_14_12_ac_it_02_two_against_five() -> None:
    assert activations(2, 5) == 1


def test_14_12_ac_it_03_none_left_is_skipped_and_the_other_side_activates_all() -> None:
    assert activations(0, 4) == 0
    assert activations(4, 0) == 4


def test_3_2_initiative_loser_moves_first_and_ties_are_rerolled() -> None:
    g = game("h1-le-hamel", [5, 5, 6, 4, 3, 3, 9, 1])  # 10 : 10 tie, then german 6 against us 10
    d = data(g.state)
    assert d.first == "german" and g.state.to_act == "german" and g.state.phase == "movement"
    texts = [e.text for e in g.events]
    assert any("tied at 10" in t for t in texts) and any("us wins the initiative 10 to 6" in t for t in texts)


def test_3_2_step_quota_follows_the_ratio_rule() -> None:
    # H-1 turn 1: german 5 units against us 6 (all waiting to enter), recounted at every step.
    g = game("h1-le-hamel", LOSE)
    st = g.state
    seen = [(data(st).mover, data(st).quota)]
    for uid in ("G1", "U1", "G2", "U2", "G3", "U3", "U4", "G4", "U5", "U6"):
        st = play(st, f"stand {uid}")
        seen.append((data(st).mover, data(st).quota))
    assert seen == [
        ("german", 1),  # 5 against 6
        ("us", 1),  # 6 against 4
        ("german", 1),  # 4 against 5
        ("us", 1),  # 5 against 3
        ("german", 1),  # 3 against 4
        ("us", 2),  # 4 against 2
        ("us", 1),
        ("german", 1),  # 2 against 2
        ("us", 2),  # 2 against 1
        ("us", 1),
        ("german", 1),  # 1 against 0: all
    ]


def test_3_2_a_turn_ends_when_every_unit_has_been_activated() -> None:
    g = game("h1-le-hamel", LOSE + WIN)
    st = g.state
    for uid in ("G1", "U1", "G2", "U2", "G3", "U3", "U4", "G4", "U5", "U6", "A-HQ"):
        st = play(st, f"stand {uid}")
    while st.phase == "attack":  # 3b: the PaK G4 may shell a hex (7.4) and is asked; it ceases
        st = play(st, str(next(a for a in ruleset().legal_actions(st) if a.verb == "cease")))
    assert st.turn == 2 and data(st).first == "us" and st.to_act == "us"  # turn 2: the us lost the initiative
    assert not any(status(u).activated for u in st.units.values())


def test_3_2_an_activation_is_one_unit_at_a_time() -> None:
    g = game("h1-le-hamel", WIN)  # the us moves first
    st = play(g.state, "enter U4 0107 se")
    assert data(st).active == "U4"
    rs = ruleset()
    with pytest.raises(IllegalActionError, match=r"U4 is in activation.*rule 3\.2"):
        rs.check(st, rs.parse_action(st, "enter U1 0107"))
    with pytest.raises(IllegalActionError, match=r"already begun.*rule 3\.2"):
        rs.check(st, rs.parse_action(st, "stand U4"))
    st = play(st, "stop U4")
    assert status(st.units["U4"]).activated and data(st).active is None and st.to_act == "german"
    with pytest.raises(IllegalActionError, match=r"not a unit of german.*rule 3\.2"):
        rs.check(st, rs.parse_action(st, "stand U1"))


def test_3_2_an_activated_unit_may_not_act_again() -> None:
    g = game("h1-le-hamel", WIN)
    st = play(g.state, "stand U1", "stand G1")
    rs = ruleset()
    assert st.to_act == "us"
    with pytest.raises(IllegalActionError, match=r"already been activated.*rule 3\.2"):
        rs.check(st, rs.parse_action(st, "stand U1"))


def test_15_10_2_entering_needs_an_entry_hex_and_a_facing_for_vehicles() -> None:
    g = game("h1-le-hamel", WIN)
    rs = ruleset()
    st = g.state
    with pytest.raises(IllegalActionError, match=r"not an entry hex.*rule 15\.10\.2"):
        rs.check(st, rs.parse_action(st, "enter U4 0207 se"))
    with pytest.raises(IllegalActionError, match=r"must choose its facing.*rule 15\.10\.2"):
        rs.check(st, rs.parse_action(st, "enter U4 0107"))
    with pytest.raises(IllegalActionError, match=r"has not entered the map yet.*rule 15\.10\.2"):
        rs.check(st, rs.parse_action(st, "move U4 0107"))
    st = play(st, "enter U1 0107")
    assert status(st.units["U1"]).half_mp == 2 and not status(st.units["U1"]).off_map


def test_15_10_2_passengers_enter_with_their_carrier_and_are_not_activated() -> None:
    g = game("h2-height-212", WIN)  # the germans move first
    legal = {a.args[0] for a in g.legal_actions()}
    assert "G4" not in legal and "G6" not in legal and "G3" in legal
    st = play(g.state, "enter G3 2210 nw")
    assert st.units["G4"].hex == st.units["G3"].hex == st.board.parse("2210")


def test_13_2_a_hidden_unit_is_not_in_the_other_sides_view_and_its_move_is_not_told() -> None:
    g = game("h1-le-hamel", LOSE)
    assert "G1" not in g.view("us").units and "G1" in g.view("german").units
    g.apply("move G1 1207")
    us_events = [e.text for e in g.events_since(0, "us")]
    assert any("A hidden unit is activated" in t for t in us_events)
    assert not any("G1" in t for t in us_events)
    assert status(g.state.units["G1"]).hidden


def test_13_2_secret_mines_are_not_in_the_other_sides_view() -> None:
    g = game("h1-le-hamel", LOSE)
    assert len(data(g.view("german")).mines) == 2 and data(g.view("us")).mines == []


def test_13_2_a_hidden_gun_moving_into_the_open_is_revealed() -> None:
    g = game("h1-le-hamel", LOSE)
    g.apply("turn G4 s")  # turning in the orchard: still hidden
    assert status(g.state.units["G4"]).hidden
    g2 = game("h1-le-hamel", LOSE)
    g2.apply("back G4 1004")  # 1004 is clear: a gun may not hide there
    assert not status(g2.state.units["G4"]).hidden and "G4" in g2.view("us").units


def test_15_9_the_game_ends_after_the_last_turn_with_victory_points() -> None:
    g = game("h1-le-hamel", seed=2)
    while g.state.outcome is None:
        g.apply(next(a for a in g.legal_actions() if a.verb in ("stand", "stop", "cease")))  # 3b: 7.4, shelling
    assert g.state.turn == 10 and g.state.outcome.winner == "german"
    assert "german 40, us 0" in g.state.outcome.reason


def test_3_2_the_other_side_is_not_told_which_hidden_unit_is_in_activation() -> None:
    g = game("h1-le-hamel", LOSE)
    g.apply("turn G4 s")  # the PaK (MP 1) has spent all: its activation ended by itself
    g2 = game("h1-le-hamel", LOSE)
    g2.apply("move G1 1207")  # the hidden squad is still in activation
    assert data(g2.state).active == "G1"
    assert data(g2.view("us")).active is None and data(g2.view("german")).active == "G1"
    assert status(g.state.units["G4"]).activated


def test_3_2_a_game_saves_and_reads_back_its_typed_state() -> None:
    from engine.state import GameState  # noqa: PLC0415

    g = game("h2-height-212", seed=4)
    g.apply(g.legal_actions()[0])
    st = g.state
    back = GameState.from_dict(
        st.to_dict(), st.board, data_type=g.ruleset.state_type, status_type=g.ruleset.status_type
    )
    assert back.to_dict() == st.to_dict()


def test_3_2_deploy_after_the_set_up_is_refused_with_its_rule() -> None:
    """Hostile input (CI's hypothesis run): ``deploy`` in the Movement Phase is refused citing 3.2, not an error."""
    g = game("h1-le-hamel", seed=16)
    while g.state.phase == "setup":
        g.apply(g.legal_actions()[0])
    with pytest.raises(IllegalActionError) as err:
        g.apply(Action("deploy", ()))
    assert err.value.rule == "3.2"
