"""Art of Tactic: the hint line (h) of a movement order carries its path's cost, as the engine answers it from
the side's view (4.11), like the order list and the status line while plotting."""

from __future__ import annotations

import contextlib

import pytest
from textual.worker import WorkerCancelled

import tui.screens.thinking as thinking_module
from engine import Action, GameState
from engine.ai import PlayerView, Progress
from tui.app import Start
from tui.screens.game import GameScreen

from .conftest import make_app


class MoveAgent:
    """Hints the first legal March order with a path (the test needs a movement order, not the AI's choice)."""

    name = "move"

    def choose(self, view: GameState | PlayerView, budget_s: float, progress: Progress | None = None) -> Action:
        assert isinstance(view, PlayerView) or hasattr(view, "legal_actions")
        legal = view.legal_actions()  # type: ignore[union-attr]
        return next(a for a in legal if a.verb == "march" and len(a.args) >= 3)


async def test_4_11_the_hint_of_a_movement_order_shows_its_path_cost(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(thinking_module, "make_agent", lambda level, seed=0: MoveAgent())
    app = make_app(Start("new", "art_of_tactic", "p1-grenzgefecht", {"german": "human", "soviet": "human"}, 7))
    async with app.run_test(size=(160, 48)) as pilot:
        for _ in range(2):
            await pilot.pause()
            with contextlib.suppress(WorkerCancelled):
                await app.workers.wait_for_complete()
        screen = next(s for s in app.screen_stack if isinstance(s, GameScreen))
        await pilot.press("h")
        for _ in range(3):
            await pilot.pause()
            with contextlib.suppress(WorkerCancelled):
                await app.workers.wait_for_complete()
        hint = screen.hint
        assert hint is not None and hint.verb == "march"
        cost = screen.presenter.path_cost(screen.now.view, hint)  # type: ignore[attr-defined]
        assert cost is not None
        line = next(x for x in screen.log_widget.lines_written if x.startswith("→ hint: "))
        assert f"cost {cost.cost} of movement range {cost.allowance}" in line, line
