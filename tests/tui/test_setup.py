"""Setting up on the map (Blitzkrieg 2.9, 12.2): a new game where each side places its own units."""

from __future__ import annotations

import contextlib

from textual.worker import WorkerCancelled

from tui.app import PlanspielApp, Start
from tui.screens.dialogs import ChoiceDialog
from tui.screens.game import GameScreen

from .conftest import make_app, screen_text


async def _pause(pilot: object, app: PlanspielApp) -> None:
    await pilot.pause()  # type: ignore[attr-defined]
    with contextlib.suppress(WorkerCancelled):
        await app.workers.wait_for_complete()
    await pilot.pause()  # type: ignore[attr-defined]


def _stonne(setup: str) -> Start:
    return Start("new", "blitzkrieg1940", "stonne", {"german": "human", "french": "human"}, 3, setup=setup)


async def test_12_2_players_place_units_on_the_map_with_enter() -> None:
    app = make_app(_stonne("players"), handoff="never")
    async with app.run_test(size=(140, 44)) as pilot:
        await _pause(pilot, app)
        session = app.session
        assert session is not None and session.game.to_act == "french" and session.game.history == ()
        # The first set-up decision is a list (4 BCC keeps its chit or is dissolved), then the AT gun.
        assert isinstance(app.screen, ChoiceDialog)
        labels = [str(v) for v, _ in app.screen.items]
        assert labels[:3] == ["default", "ownchit fra-4-bcc", "dissolve fra-4-bcc"]
        await pilot.press("2")
        await _pause(pilot, app)
        assert isinstance(app.screen, ChoiceDialog)
        await pilot.press("1")  # the AT gun joins I/205 RI
        await _pause(pilot, app)
        # Now a map decision: the I/205 RI HQ goes where Enter is pressed; legal hexes carry "+".
        screen = app.screen
        assert isinstance(screen, GameScreen)
        assert "sets up I/205 RI HQ" in screen_text(app)
        board = session.game.board
        legal = {a.args[1] for a in session.game.legal_actions() if a.verb == "place"}
        assert "0708" in legal
        marked = {board.label(h) for h, o in screen.map.overlay.items() if o.text == "+"}
        assert marked == legal
        screen.map.move_cursor(board.parse("0708"))
        await pilot.press("enter")
        await _pause(pilot, app)
        assert [str(a) for a in session.game.history][-1] == "place fra-i205ri-hq 0708"
        assert session.game.state.units["fra-i205ri-hq"].hex == board.parse("0708")
        # A hex outside the zone changes nothing.
        screen.map.move_cursor(board.parse("0101"))
        await pilot.press("enter")
        await _pause(pilot, app)
        assert len(session.game.history) == 3


async def test_scenario_setup_is_played_for_the_players() -> None:
    app = make_app(_stonne("scenario"), handoff="never")
    async with app.run_test(size=(140, 44)) as pilot:
        await _pause(pilot, app)
        session = app.session
        assert session is not None
        assert [str(a) for a in session.game.history] == ["default", "default"]
        assert session.game.state.phase == "operations"
