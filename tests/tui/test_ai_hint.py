"""The AI's progress in the thinking indicator, and the hint key (h, then H plays it): the AI reads only the
side's own client, the hint is shown in notation with the engine's explanation and marked on the map."""

from __future__ import annotations

import threading
from typing import Any

import pytest

import tui.screens.thinking as thinking_module
import tui.session as session_module
from engine import Action, GameState
from engine.ai import GreedyAgent, PlayerView, Progress
from tui.app import PlanspielApp
from tui.client import LocalClient
from tui.overlay import hint_hexes
from tui.screens.dialogs import ChoiceDialog
from tui.screens.game import GameScreen
from tui.screens.help import HelpScreen
from tui.widgets.panels import StatusBar

from .conftest import hannut, make_app, play_quietly, screen_text, settle


def game_screen(app: PlanspielApp) -> GameScreen:
    return next(s for s in app.screen_stack if isinstance(s, GameScreen))


class SlowAgent:
    """Reports progress, then waits for the test before choosing like the greedy agent."""

    name = "slow"

    def __init__(self) -> None:
        self.go = threading.Event()
        self.reported = threading.Event()

    def choose(self, view: GameState | PlayerView, budget_s: float, progress: Progress | None = None) -> Action:
        assert progress is not None
        progress("thinking: action 3 of 12")
        self.reported.set()
        self.go.wait(5)
        return GreedyAgent(seed=1).choose(view, budget_s)


async def test_the_thinking_indicator_shows_the_agents_progress(monkeypatch: pytest.MonkeyPatch) -> None:
    agent = SlowAgent()
    monkeypatch.setattr(session_module, "make_agent", lambda level, seed=0: agent)
    app = make_app(hannut(german="ai:normal"))
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        assert agent.reported.wait(5)
        for _ in range(20):  # the spinner's next tick hands the line over to the UI thread
            await pilot.pause(0.05)
            if "action 3 of 12" in (game_screen(app).query_one("#status", StatusBar).thinking or ""):
                break
        status = game_screen(app).query_one("#status", StatusBar)
        assert status.thinking == "German AI is thinking… thinking: action 3 of 12"
        assert "thinking: action 3 of 12" in screen_text(app)
        agent.go.set()
        await settle(pilot, app)
        assert len(app.session.game.history) >= 1  # type: ignore[union-attr]


async def test_hint_from_the_sides_own_client_then_h_plays_it(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[Any] = []

    class Recording(GreedyAgent):
        def choose(self, view: GameState | PlayerView, budget_s: float, progress: Progress | None = None) -> Action:
            asked.append(view)
            return super().choose(view, budget_s, progress)

    monkeypatch.setattr(thinking_module, "make_agent", lambda level, seed=0: Recording(seed))
    app = make_app(hannut())
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        session = app.session
        assert session is not None
        screen = play_quietly(app, "german", "keep ger-i-35-pzr", "first ger-i-35-pzr", "activate")
        german = session.client("german")
        await pilot.press("h")
        await settle(pilot, app)
        hint = screen.hint
        assert hint is not None and hint in german.legal_actions()
        # Hidden information: the AI read the German client only, never the game.
        assert len(asked) == 1 and isinstance(asked[0], LocalClient) and asked[0].side == "german"
        line = next(x for x in screen.log_widget.lines_written if x.startswith("→ hint: "))
        assert german.describe(hint) in line
        marked = [h for h, o in screen.map.overlay.items() if o.text == "HINT"]
        hexes = hint_hexes(screen.scene(), screen.now.info_of(hint))
        assert set(hexes) - {h for h, o in screen.map.overlay.items() if o.kind == "select"} <= set(marked)
        played = len(session.game.history)
        await pilot.press("H")
        await settle(pilot, app)
        assert len(session.game.history) > played and session.game.history[played] == hint
        assert screen.hint is None


async def test_hint_is_ignored_by_playing_something_else() -> None:
    app = make_app(hannut())
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        screen = game_screen(app)
        if isinstance(app.screen, ChoiceDialog):
            await pilot.press("m")
        await pilot.press("h")
        await settle(pilot, app)
        assert screen.hint is not None
        other = next(a for a in screen.now.legal if a != screen.hint)
        screen.play(other)
        await settle(pilot, app)
        assert screen.hint is None
        assert not any(o.text == "HINT" for o in screen.map.overlay.values())


async def test_hint_keys_in_help() -> None:
    app = make_app(hannut())
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        if isinstance(app.screen, ChoiceDialog):
            await pilot.press("m")
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        text = screen_text(app)
        assert "ask the AI for a hint" in text and "play the hinted action" in text
