"""Loading without freezing: the game opens from the save's snapshot at once, the replay check runs in a worker
with an indicator, and a replay that disagrees is told to the player without losing the game."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from textual.worker import WorkerCancelled

import saves
from tui.app import PlanspielApp, Start
from tui.screens.game import GameScreen
from tui.session import Session
from tui.widgets.panels import StatusBar

from .conftest import make_app


def _saved_game() -> Path:
    s = Session.new("blitzkrieg1940", "hannut", {}, seed=7, autosave=False)
    for notation in ("keep ger-i-35-pzr", "first ger-i-35-pzr"):
        s.client("german").apply(notation)
    return s.save()


async def settle(pilot: object, app: PlanspielApp) -> None:
    """Wait until the background replay check has started and finished (it starts on a short timer)."""
    for _ in range(200):
        await pilot.pause(0.05)  # type: ignore[attr-defined]
        with contextlib.suppress(WorkerCancelled):
            await app.workers.wait_for_complete()
        screen = next((s for s in app.screen_stack if isinstance(s, GameScreen)), None)
        idle = screen is not None and screen.query_one("#status", StatusBar).checking is None
        if idle and app.session is not None and not app.session.replay_check_pending:
            break
    await pilot.pause()  # type: ignore[attr-defined]


def test_session_loads_from_the_snapshot_and_checks_later(home: Path) -> None:
    path = _saved_game()
    session = Session.load(path)
    assert session.replay_check_pending and not session.game.verified  # type: ignore[attr-defined]
    assert len(session.game.history) == 5  # the set-up steps played for the players (12.1), keep, first
    assert session.check_replay() == []
    assert not session.replay_check_pending
    checked = Session.load(path, verify="replay")
    assert not checked.replay_check_pending and checked.game.verified  # type: ignore[attr-defined]


async def test_load_opens_at_once_then_checks_in_a_worker(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _saved_game()
    started: list[bool] = []
    real = saves.check_replay

    def slow_check(game: saves.SavedGame) -> list[str]:
        started.append(True)
        return real(game)

    monkeypatch.setattr(saves, "check_replay", slow_check)
    app = make_app(Start("load", path=path))
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        screen = next(s for s in app.screen_stack if isinstance(s, GameScreen))
        status = screen.query_one("#status", StatusBar)
        assert status.checking is not None or started  # the indicator, or the check already done
        await settle(pilot, app)
        assert started and status.checking is None
        assert any("save checked" in line for line in screen.log_widget.lines_written)


async def test_a_replay_that_disagrees_is_told_and_the_game_goes_on(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _saved_game()
    monkeypatch.setattr(saves, "check_replay", lambda game: ["turn: saved 1, replayed 2"])
    app = make_app(Start("load", path=path))
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, app)
        screen = next(s for s in app.screen_stack if isinstance(s, GameScreen))
        lines = [line for line in screen.log_widget.lines_written if "does not replay" in line]
        assert lines and "turn: saved 1, replayed 2" in lines[0] and "goes on from the saved position" in lines[0]
        assert any("replay differs" in str(n.title) for n in app._notifications)
        assert app.session is not None and len(app.session.game.history) == 5  # nothing lost
        assert app.session.replay_problems == ["turn: saved 1, replayed 2"]
