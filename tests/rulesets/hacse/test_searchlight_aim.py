"""Aiming a searchlight (digest 6.1 P: "one chosen hex within 20 hexes per turn"; ``aiming.py``): in the Movement
Phase, once per turn, in two steps (``aim UNIT``, then ``light UNIT HEX`` at a hex within 20 hexes in the unit's line
of sight, or ``cancel UNIT``). H-1 at night, the US squad U1's sheet carrying a searchlight (no shipped sheet does)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine.actions import Action
from engine.hexgrid import distance, parse_hex
from engine.rulesets.hacse import sighting
from engine.rulesets.hacse.model import Data, Status, data, status
from engine.state import GameState
from engine.typed import from_plain, to_plain

from .helpers import WIN, game, placed, play, reach_quietly, refused, ruleset
from .test_searchlights import _carrying

H = parse_hex


@pytest.fixture(autouse=True)
def carrying(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The ruleset's tables with U1's sheet carrying a searchlight, for every test here."""
    monkeypatch.setattr(ruleset(), "tables", _carrying())
    yield


def _us(**where: str) -> GameState:
    """H-1 in the Movement Phase of turn 1, the US to act, no unit in activation, at a dark night."""
    st = placed(game("h1-le-hamel", WIN), **where)
    st.phase, st.to_act = "movement", "us"
    d = data(st)
    d.active = d.mover = None
    d.conditions = ["dark_night"] * 10
    return st


def _lit(st: GameState) -> set[str]:
    return {str(a.args[1]) for a in ruleset().legal_actions(st) if a.verb == "light"}


def test_6_1_aim_is_offered_then_the_side_chooses_a_hex_in_range_and_sight() -> None:
    st = _us(U1="0706", U4="0707:se", G1="1107")
    assert Action("aim", ("U1",)) in ruleset().legal_actions(st)
    assert not any(
        a.verb == "aim" and a.args[0] != "U1" for a in ruleset().legal_actions(st)
    )  # U4 carries none, U2 and U3 are off the map
    aimed = play(st, "aim U1")
    assert data(aimed).aiming == "U1" and data(aimed).active is None  # aiming does not start the activation
    listed = ruleset().legal_actions(aimed)
    assert listed[-1] == Action("cancel", ("U1",)) and {a.verb for a in listed} == {"light", "cancel"}
    rs, u1 = ruleset(), H("0706")
    for label in _lit(aimed):
        h = H(label)
        assert h != u1 and distance(u1, h) <= 20 and sighting.sight_line(aimed, rs.tables, u1, h).clear
    assert "1107" in _lit(aimed)
    after = play(aimed, "light U1 1107")
    s = status(after.units["U1"])
    assert s.searchlight == H("1107") and s.lit_turn == after.turn and data(after).aiming == ""
    assert not any(a.verb == "aim" for a in ruleset().legal_actions(after))  # one hex per turn
    assert Action("stand", ("U1",)) in ruleset().legal_actions(after)  # U1 is still to be activated


def test_6_1_the_lit_hex_helps_sighting_at_once() -> None:
    st = _us(U1="0706", U2="0707", G1="1107")
    rs = ruleset()
    observer, target = st.units["U2"], st.units["G1"]
    assert observer.hex is not None and target.hex is not None
    line = sighting.sight_line(st, rs.tables, observer.hex, target.hex)
    before = [str(m) for m in sighting.sight_roll(st, rs.tables, observer, target, line)[1]]
    after = play(st, "aim U1", "light U1 1107")
    lit = [str(m) for m in sighting.sight_roll(after, rs.tables, after.units["U2"], after.units["G1"], line)[1]]
    assert not any("lit" in m for m in before)
    assert "+2 4 hexes, the target lit (+1 per full 2) (rule 6.1)" in lit


def test_6_1_refusals_name_the_rule() -> None:
    st = _us(U1="0706", U4="0707:se", G1="1107")
    assert refused(st, "aim U4").rule == "6.1"  # the Sherman's sheet carries no searchlight
    assert refused(st, "light U1 1107").rule == "6.1"  # not aimed first
    aimed = play(st, "aim U1")
    assert refused(aimed, "light U1 0706").rule == "6.1"  # its own hex
    corner = play(_us(U1="0101"), "aim U1")
    far = next(h for h in corner.board if distance(H("0101"), h) > 20)
    err = refused(corner, f"light U1 {corner.board.label(far)}")
    assert err.rule == "6.1" and "beyond the searchlight's 20 hexes" in str(err)
    unseen = next(
        h
        for h in aimed.board
        if distance(H("0706"), h) <= 20 and h != H("0706") and aimed.board.label(h) not in _lit(aimed)
    )
    err = refused(aimed, f"light U1 {aimed.board.label(unseen)}")
    assert err.rule == "6.1" and "no line of sight" in str(err)
    for text in ("aim U1", "stand U1", "move U1 0806", "cancel U2"):
        assert refused(aimed, text).rule == "6.1", text
    done = play(aimed, "light U1 1107")
    err = refused(done, "aim U1")
    assert err.rule == "6.1" and "this turn" in str(err)


def test_6_1_cancel_keeps_the_hex_and_a_new_turn_allows_a_new_aim() -> None:
    st = _us(U1="0706", G1="1107")
    status(st.units["U1"]).searchlight = H("1107")
    kept = play(st, "aim U1", "cancel U1")
    assert status(kept.units["U1"]).searchlight == H("1107") and data(kept).aiming == ""
    assert Action("aim", ("U1",)) in ruleset().legal_actions(kept)  # a cancelled aim is no aim
    done = play(kept, "aim U1", "light U1 1108")
    done.turn += 1
    assert Action("aim", ("U1",)) in ruleset().legal_actions(done)


def test_6_1_no_aim_in_the_fire_phase_nor_by_a_unit_out_of_action() -> None:
    st = _us(U1="0706", G1="1107")
    fire = st.clone()
    fire.phase = "attack"
    assert refused(fire, "aim U1").rule == "6.1"
    status(st.units["U1"]).destroyed = True
    assert not any(a.verb == "aim" for a in ruleset().legal_actions(st))


def test_3_2_a_unit_activated_this_turn_no_longer_aims() -> None:
    st = _us(U1="0706", G1="1107")
    status(st.units["U1"]).activated = True
    assert refused(st, "aim U1").rule == "3.2"


def test_13_2_a_hidden_units_aim_stays_with_its_side() -> None:
    st = _us(U1="0706", G1="1107")
    status(st.units["U1"]).hidden = True
    aimed = play(st, "aim U1")
    assert data(ruleset().view(aimed, "german")).aiming == ""
    assert data(ruleset().view(aimed, "us")).aiming == "U1"


def test_6_1_the_aim_is_kept_in_the_saved_state_and_marked_on_the_map() -> None:
    st = _us(U1="0706", G1="1107")
    assert "light" not in ruleset().overlays(ruleset().view(st, "us"), "us", "U1")
    aimed = play(st, "aim U1")
    assert from_plain(Data, to_plain(data(aimed))).aiming == "U1"
    marks = ruleset().overlays(ruleset().view(aimed, "us"), "us", "U1")["light"]
    assert {aimed.board.label(h) for h in marks} == _lit(aimed)
    lit = play(aimed, "light U1 1107")
    assert from_plain(Status, to_plain(status(lit.units["U1"]))).lit_turn == lit.turn


def test_6_1_the_ai_leaves_aim_out_of_its_candidates() -> None:
    st = _us(U1="0706", G1="1107")
    legal = ruleset().legal_actions(st)
    assert Action("aim", ("U1",)) in legal
    assert Action("aim", ("U1",)) not in ruleset().ai_actions(st, legal)


# --- By keys -----------------------------------------------------------------------------------------------------


async def test_6_1_a_player_aims_a_searchlight_by_keys() -> None:
    """U1 enters the map; o lists its decisions and ``aim U1`` is picked by its number; the map then marks the hexes
    it may light (✧), and Enter on one lights it."""
    from tests.tui.conftest import enter_on, make_app, pick_listed, settle, table  # noqa: PLC0415
    from tui.app import Start  # noqa: PLC0415

    app = make_app(Start("new", "hacse", "h1-le-hamel", {"german": "human", "us": "human"}, 1))
    aim = Action("aim", ("U1",))
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot, app)
        assert app.session is not None
        game = app.session.game
        await reach_quietly(
            app,
            pilot,
            aim,
            prefer=lambda legal: next((a for a in legal if a.verb == "enter" and a.args[0] == "U1"), None),
        )
        screen = table(app)
        screen.switch_side("us")  # hot-seat: the US player at the table (no handoff after quiet play)
        await settle(pilot, app)
        u1 = game.state.units["U1"].hex
        assert u1 is not None and screen.client.side == "us"
        await enter_on(app, pilot, game.state.board.label(u1))
        assert screen.selected == "U1"
        await pick_listed(app, pilot, aim)
        assert game.history[-1] == aim
        marked = sorted((h for h, c in screen.map.overlay.items() if c.text == "✧"), key=lambda h: (h.q, h.r))
        assert marked and {game.state.board.label(h) for h in marked} == _lit(game.state)
        label = game.state.board.label(marked[0])
        if screen.selected != "U1":
            await enter_on(app, pilot, game.state.board.label(u1))
        await enter_on(app, pilot, label)
        assert game.history[-1] == Action("light", ("U1", label))
        assert status(game.state.units["U1"]).searchlight == marked[0]
