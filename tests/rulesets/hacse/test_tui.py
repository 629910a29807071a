"""A HACSE activation played through the TUI by keys (issue 19, Play): the PaK's facing shows on the map, Enter
selects it, Enter on the hex behind it reverses it there (4.3), the activation ends by itself (3.2) and the seat
changes behind the hand-off; a gun turned from its list of decisions turns its marker (4.1); in hot-seat the other
seat reads no hidden unit (13.2). No code under ``tui/`` names the ruleset: the screen reads the roles of its
verbs."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from engine import Action
from engine.rulesets.hacse.model import status
from tests.rulesets.hacse.helpers import names_unit
from tests.tui.conftest import enter_on, make_app, pick_listed, screen_text, settle, table
from tui.app import PlanspielApp, Start
from tui.screens.dialogs import ChoiceDialog
from tui.screens.handoff import HandoffScreen


async def _past_handoff(pilot: Pilot[None], app: PlanspielApp) -> None:
    """Through the hand-off screen, if it is up (hot-seat: the next player takes the keyboard)."""
    if isinstance(app.screen, HandoffScreen):
        await pilot.press("enter", "enter")
        await settle(pilot, app)


H1 = Start("new", "hacse", "h1-le-hamel", {"german": "human", "us": "human"}, 1)
"""Seed 1: the Germans lose the initiative and move first (3.2)."""


async def test_3_2_a_whole_activation_by_keys() -> None:
    app = make_app(H1)
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot, app)
        assert app.session is not None
        game = app.session.game
        assert (game.state.phase, game.state.to_act) == ("movement", "german")
        await _past_handoff(pilot, app)
        screen = table(app)
        assert screen.client.side == "german"
        assert "↙" in screen_text(app)  # G4 faces SW (2.2): its marker is on the map
        await enter_on(app, pilot, "0905")
        assert screen.selected == "G4"
        await enter_on(app, pilot, "1004")
        assert game.history[-1] == Action("back", ("G4", "1004"))
        log = "\n".join(screen.log_widget.lines_written)
        assert "G4 reverses to 1004, facing SW" in log and "G4 has no move left and stops" in log
        assert isinstance(app.screen, HandoffScreen) and game.state.to_act == "us"


async def test_2_2_the_selected_gun_shows_its_front_arc_on_the_map() -> None:
    app = make_app(H1)
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot, app)
        await _past_handoff(pilot, app)
        screen = table(app)
        await enter_on(app, pilot, "0905")  # the PaK G4, facing SW
        assert screen.selected == "G4"
        board = app.session.info.board if app.session is not None else None
        assert board is not None
        arc = {board.label(h) for h, o in screen.map.overlay.items() if o.text == "·"}
        assert arc, "the front arc's outline is drawn"
        # facing SW from 0905: the arc lies to the south-west (lower column numbers, higher rows), never behind
        assert all(int(label[:2]) < 9 for label in arc)
        assert any("front arc" in note for note in screen.notes)


async def test_4_1_a_gun_is_turned_by_keys_and_its_marker_turns() -> None:
    """Turning as a player does it (4.1: one hexside per MP): the selected PaK's decisions (``o``) offer its turns;
    picking one turns it, the log says so and the facing marker on the map follows (↙ SW to ↓ S)."""
    app = make_app(H1)
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot, app)
        assert app.session is not None
        game = app.session.game
        await _past_handoff(pilot, app)
        screen = table(app)
        assert "↙" in screen_text(app) and "↓" not in screen_text(app)
        before = screen.map.content(screen.info.board.parse("0905"))
        assert before is not None and before.unit is not None and "↙" in before.unit.flags
        await enter_on(app, pilot, "0905")
        assert screen.selected == "G4"
        await pilot.press("o")  # the unit's decisions, as a list: down to the turn, then Enter
        await settle(pilot, app)
        assert isinstance(app.screen, ChoiceDialog)
        items = [v for v, _ in app.screen.items]
        turn = Action("turn", ("G4", "s"))
        at = next(i for i, v in enumerate(items) if isinstance(v, list) and turn in v)  # the unit's turns, together
        for _ in range(at):
            await pilot.press("down")
        await pilot.press("enter")
        await settle(pilot, app)
        assert isinstance(app.screen, ChoiceDialog)  # which way: S or NW
        await pilot.press(str([v for v, _ in app.screen.items].index(turn) + 1))
        await settle(pilot, app)
        assert game.history[-1] == turn
        assert status(game.state.units["G4"]).facing == 3  # S (2.2: 0 N, clockwise)
        # its activation is over (the hand-off is up): the German seat's map under it shows the new facing
        mark = screen.map.content(screen.info.board.parse("0905"))
        assert mark is not None and mark.unit is not None
        assert "↓" in mark.unit.flags and "↙" not in mark.unit.flags


async def test_13_2_in_hot_seat_the_other_seat_never_sees_a_hidden_unit() -> None:
    """H-3 hot-seat (15.10.5: every German unit starts hidden): after the hand-off to the Soviet seat, no German
    unit is on its map, in its panels or in its log (13.2)."""
    h3 = Start("new", "hacse", "h3-bridge-at-dusk", {"german": "human", "soviet": "human"}, 1)
    app = make_app(h3)
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot, app)
        assert app.session is not None
        game = app.session.game
        hidden = [u.id for u in game.state.units.values() if u.side == "german" and u.hex is not None]
        assert hidden and all(status(game.state.units[i]).hidden for i in hidden)
        await _past_handoff(pilot, app)
        assert (game.state.phase, game.to_act, table(app).client.side) == ("movement", "german", "german")
        await pick_listed(app, pilot, Action("stand", ("A-HQ",)))  # the German activation, by keys
        assert game.history[-1] == Action("stand", ("A-HQ",)) and game.to_act == "soviet"
        assert isinstance(app.screen, HandoffScreen)
        await pilot.press("enter", "enter")
        await settle(pilot, app)
        screen = table(app)
        assert screen.client.side == "soviet"
        seen = screen_text(app) + "\n".join(screen.log_widget.lines_shown)  # the Soviet seat's log, whole
        assert "A hidden unit is activated (rule 3.2)" in seen  # what it is told of the German activation
        still = [i for i in hidden if status(game.state.units[i]).hidden]
        assert still, "some German unit is still hidden"
        shown = [i for i in still if names_unit(seen, i)]
        assert not shown, f"the Soviet seat reads hidden German units: {shown}"


async def test_2_2_the_facing_marker_reads_in_monochrome(monkeypatch: pytest.MonkeyPatch) -> None:
    """NO_COLOR: the monochrome theme, and the PaK's facing is still on the map as a glyph (2.2), not a colour."""
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(H1)
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot, app)
        await _past_handoff(pilot, app)
        assert app.effective_theme() == "monochrome"
        assert "↙" in screen_text(app)  # G4 faces SW
