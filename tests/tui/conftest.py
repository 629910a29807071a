"""Provides the TUI tests' fixtures: an isolated PLANSPIEL_HOME, an app factory and screen text helpers."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.worker import WorkerCancelled

import engine
from tui.app import PlanspielApp, Start
from tui.client import LocalClient
from tui.screens.dialogs import ChoiceDialog
from tui.screens.game import GameScreen
from tui.settings import Settings

HOTSEAT = {"german": "human", "french": "human"}


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """PLANSPIEL_HOME in a fresh folder (saves and settings), colour allowed."""
    monkeypatch.setenv("PLANSPIEL_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("NO_COLOR", raising=False)
    yield tmp_path / "home"


def make_app(start: Start | None = None, **settings: Any) -> PlanspielApp:
    """An app for Pilot tests: no AI pause, no signal handlers."""
    return PlanspielApp(start, settings=Settings(**{"ai_delay": 0.0, **settings}), exit_handlers=False)


@pytest.fixture
def app_factory() -> Callable[..., PlanspielApp]:
    """``app_factory(start=None, **settings)``."""
    return make_app


def hannut(seed: int = 7, **players: str) -> Start:
    """Start a Hannut game (hot-seat unless players are given)."""
    return Start("new", "blitzkrieg1940", "hannut", {**HOTSEAT, **players}, seed)


def screen_text(app: PlanspielApp) -> str:
    """The plain text of the screen on top (what a player reads)."""
    return "\n".join(strip.text.rstrip() for strip in app.screen._compositor.render_strips())


async def steady_text(pilot: object, app: PlanspielApp, rounds: int = 40) -> str:
    """The screen's text once drawing has settled: the same text after two pauses in a row, with the footer's last
    line drawn (under load the footer's keys can arrive a frame after the rest of the screen). Gives up after
    ``rounds`` pauses and returns what is on screen then, so that a screen that never settles fails its comparison
    instead of hanging."""
    text = screen_text(app)
    for _ in range(rounds):
        await pilot.pause()  # type: ignore[attr-defined]
        again = screen_text(app)
        if again == text and again.rstrip("\n").splitlines()[-1:] != [""] and again.strip():
            return again
        text = again
    return text


def play_quietly(app: PlanspielApp, side: str, *notations: str) -> GameScreen:
    """Play ``notations`` for ``side`` through its client (no keys), close a choice list left open and redraw the
    game screen, which is returned: a quick way to a position inside a Pilot test."""
    assert app.session is not None
    client = app.session.client(side)
    for notation in notations:
        client.apply(notation)
    screen = next(s for s in app.screen_stack if isinstance(s, GameScreen))
    if isinstance(app.screen, ChoiceDialog):
        app.pop_screen()
    screen.busy = False
    screen.refresh_view()
    return screen


async def settle(pilot: object, app: PlanspielApp, rounds: int = 3) -> None:
    """Let the workers finish and the screen catch up."""
    for _ in range(rounds):
        await pilot.pause()  # type: ignore[attr-defined]
        with contextlib.suppress(WorkerCancelled):
            await app.workers.wait_for_complete()
    await pilot.pause()  # type: ignore[attr-defined]


async def pick_listed(app: PlanspielApp, pilot: object, action: engine.Action) -> None:
    """``o`` lists the decisions of the selected unit; ``action`` is picked by its number key (through any nested
    list), as a player would."""
    await pilot.press("o")  # type: ignore[attr-defined]
    await settle(pilot, app)
    while isinstance(app.screen, ChoiceDialog):
        items = [v for v, _ in app.screen.items]
        at = next(i for i, v in enumerate(items) if v == action or (isinstance(v, list) and action in v))
        assert at < 9, "picked by its number key"
        await pilot.press(str(at + 1))  # type: ignore[attr-defined]
        await settle(pilot, app)


def table(app: PlanspielApp) -> GameScreen:
    """The game screen on the app's stack (under any dialog)."""
    return next(s for s in app.screen_stack if isinstance(s, GameScreen))


async def activate_i12(app: PlanspielApp, pilot: object) -> GameScreen:
    """Hannut, seed 7 (:func:`hannut`): German keeps and activates I/12 SchR (chits 2.8), then it is German's
    move on the map; the game screen is returned."""
    await settle(pilot, app)
    play_quietly(app, "german", "keep ger-i-12-schr", "first ger-i-12-schr")
    assert app.session is not None
    activate = next(a for a in app.session.client("german").legal_actions() if a.verb == "activate")
    screen = play_quietly(app, "german", str(activate))
    await settle(pilot, app)
    return screen


async def enter_on(app: PlanspielApp, pilot: object, label: str) -> None:
    """The map cursor to a hex, then Enter."""
    screen = table(app)
    screen.map.move_cursor(screen.info.board.parse(label))
    await pilot.press("enter")  # type: ignore[attr-defined]
    await settle(pilot, app)


def hannut_position(found: Callable[[LocalClient], bool], seeds: range, steps: int) -> LocalClient:
    """The first position of seeded random Hannut games (the scenario's set-up, then random legal actions) where
    ``found`` holds for the side to act's client; an AssertionError when none of ``seeds`` meets one within
    ``steps`` actions."""
    for seed in seeds:
        game = engine.new_game(engine.load_scenario("blitzkrieg1940", "hannut"), seed=seed)
        engine.take_scenario_setup(game)
        rng = random.Random(seed)
        for _ in range(steps):
            if game.to_act is None:
                break
            client = LocalClient(game, game.to_act)
            if found(client):
                return client
            game.apply(rng.choice(game.legal_actions()))
    raise AssertionError(f"no such position in seeds {seeds.start}-{seeds.stop - 1}")
