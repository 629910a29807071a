"""A HACSE activation played through the TUI by keys (issue 19, Play): the PaK's facing shows on the map, Enter
selects it, Enter on the hex behind it reverses it there (4.3), the activation ends by itself (3.2) and the seat
changes behind the hand-off. No code under ``tui/`` names the ruleset: the screen reads the roles of its verbs."""

from __future__ import annotations

from engine import Action
from tests.tui.conftest import enter_on, make_app, screen_text, settle, table
from tui.app import Start
from tui.screens.handoff import HandoffScreen

H1 = Start("new", "hacse", "h1-le-hamel", {"german": "human", "us": "human"}, 1)
"""Seed 1: the Germans lose the initiative and move first (3.2)."""


async def test_3_2_a_whole_activation_by_keys() -> None:
    app = make_app(H1)
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot, app)
        assert app.session is not None
        game = app.session.game
        assert (game.state.phase, game.state.to_act) == ("movement", "german")
        if isinstance(app.screen, HandoffScreen):
            await pilot.press("enter", "enter")
            await settle(pilot, app)
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
        if isinstance(app.screen, HandoffScreen):
            await pilot.press("enter", "enter")
            await settle(pilot, app)
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
