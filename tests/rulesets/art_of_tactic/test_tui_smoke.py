"""The generic client plays Art of Tactic: a hot-seat game starts, both sides give orders in notation, the
round executes and the screen shows the next Planning Phase (the TUI's own order entry is later work)."""

from __future__ import annotations

import contextlib

from textual.worker import WorkerCancelled

from tui.app import PlanspielApp, Start
from tui.screens.game import GameScreen
from tui.settings import Settings


async def test_hot_seat_round_of_p1_through_the_client() -> None:
    start = Start("new", "art_of_tactic", "p1-grenzgefecht", {"german": "human", "soviet": "human"}, 7)
    app = PlanspielApp(start, settings=Settings(ai_delay=0.0), exit_handlers=False)
    async with app.run_test(size=(120, 36)) as pilot:
        for _ in range(3):
            await pilot.pause()
            with contextlib.suppress(WorkerCancelled):
                await app.workers.wait_for_complete()
        session = app.session
        assert session is not None
        german = session.client("german")
        german.apply("march ger-2-pz2 0305 0405 0505 0605 0705")
        german.apply("commit")
        soviet = session.client("soviet")
        assert all(a.verb != "cancel" or a.args[0].startswith("sov") for a in soviet.legal_actions())
        soviet.apply("defend sov-23-inf 1004 2")
        soviet.apply("commit")
        assert session.game.state.turn == 2
        screen = next(s for s in app.screen_stack if isinstance(s, GameScreen))
        screen.refresh_view()
        await pilot.pause()
