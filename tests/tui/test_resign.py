"""Resigning at the table (ctrl+r, asked first): the game ends for the other side, is saved so, and in a campaign
the battle counts as lost and the force carries over as it stood."""

from __future__ import annotations

from pathlib import Path

import saves
from tui.app import PlanspielApp
from tui.campaign import CampaignPlay
from tui.screens.campaign import CampaignScreen
from tui.screens.dialogs import ChoiceDialog, ConfirmDialog
from tui.screens.endgame import EndGameScreen
from tui.screens.game import GameScreen

from .conftest import hannut, make_app, screen_text, settle
from .test_campaign import HURT, new_campaign


async def _at_the_table(pilot: object, app: PlanspielApp) -> None:
    await settle(pilot, app)
    if isinstance(app.screen, ChoiceDialog):  # the first list of choices: m closes it to see the table
        await pilot.press("m")  # type: ignore[attr-defined]
        await settle(pilot, app)
    assert isinstance(app.screen, GameScreen)


async def test_resign_asks_first_then_ends_the_game_for_the_other_side(home: Path) -> None:
    app = make_app(hannut())
    async with app.run_test(size=(80, 24)) as pilot:
        await _at_the_table(pilot, app)
        assert app.session is not None
        session = app.session
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        assert "Resign for German?" in screen_text(app) and "French victory" in screen_text(app)
        await pilot.press("n")  # changed its mind: nothing happened (the list of choices is back)
        await _at_the_table(pilot, app)
        assert session.game.outcome is None
        await pilot.press("ctrl+r")
        await pilot.pause()
        await pilot.press("y")
        await settle(pilot, app)
        assert isinstance(app.screen, EndGameScreen)
        assert "German resigned" in screen_text(app)
        assert session.game.outcome is not None and session.game.outcome.winner == "french"
        path = session.last_saved  # the autosave, written after the resignation
    assert path is not None
    loaded = saves.load_game(path)  # saved at once, and replays to the same end
    assert loaded.outcome is not None and loaded.outcome.reason == "German resigned: French victory"
    assert str(loaded.history[-1]) == "resign german"


async def test_a_resigned_campaign_battle_is_lost_and_the_force_carries_as_it_stood(home: Path) -> None:
    path = new_campaign(home)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        assert app.start_campaign_battle(CampaignPlay.load(path))
        await _at_the_table(pilot, app)
        assert app.session is not None
        app.session.game.state.units[HURT].steps = 1  # a step lost in the battle so far (made by hand)
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        assert "the battle counts as lost" in screen_text(app)
        await pilot.press("y")
        await settle(pilot, app)
        assert isinstance(app.screen, CampaignScreen)
        report = str(app.screen.query_one("#report").render())
        assert "German resigned" in report
    on_disk = saves.load_campaign(path, verify="snapshot")
    assert on_disk.results[0]["result"] == "loss" and "resigned" in on_disk.results[0]["reason"]
    assert on_disk.roster["ger-i69schr-sch-3"].steps == 1  # HURT fights Stonne under this id, still down a step
