"""A whole activation by keyboard, hot-seat: chits, a move, the passive player's opportunity fire, a shot with
its exact odds, the end of the activation; and bad input that changes nothing."""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from textual.widgets import Input, OptionList
from textual.worker import WorkerCancelled

from engine import Action
from tui.app import PlanspielApp
from tui.screens.dialogs import ChoiceDialog, ConfirmDialog
from tui.screens.game import GameScreen
from tui.screens.handoff import HandoffScreen

from .conftest import hannut, make_app, screen_text


async def _pause(pilot: object, app: PlanspielApp) -> None:
    await pilot.pause()  # type: ignore[attr-defined]
    with contextlib.suppress(WorkerCancelled):
        await app.workers.wait_for_complete()
    await pilot.pause()  # type: ignore[attr-defined]


async def choose(pilot: object, app: PlanspielApp, match: Callable[[Action], bool]) -> Action:
    """Pick the first item of the open choice list that ``match`` accepts, by its number key."""
    dialog = app.screen
    assert isinstance(dialog, ChoiceDialog), app.screen_stack
    index = next(i for i, (v, _) in enumerate(dialog.items) if isinstance(v, Action) and match(v))
    if index < 9:
        await pilot.press(str(index + 1))  # type: ignore[attr-defined]
    else:
        dialog.query_one(OptionList).highlighted = index
        await pilot.press("enter")  # type: ignore[attr-defined]
    await _pause(pilot, app)
    return dialog.items[index][0]  # type: ignore[return-value]


async def pass_reactions(pilot: object, app: PlanspielApp, side: str = "french") -> None:
    """Hand over to ``side`` and decline its reactions until the other side decides on the map."""
    session = app.session
    assert session is not None
    for _ in range(20):
        if isinstance(app.screen, HandoffScreen):
            await pilot.press("enter")  # type: ignore[attr-defined]
            await _pause(pilot, app)
        elif isinstance(app.screen, ChoiceDialog) and session.game.to_act == side:
            await choose(pilot, app, lambda a: a.verb in ("close", "nocancel", "accept", "ccon"))
        else:
            return


def _game_screen(app: PlanspielApp) -> GameScreen:
    return next(s for s in app.screen_stack if isinstance(s, GameScreen))


async def test_a_whole_activation_by_keyboard() -> None:
    app = make_app(hannut(), handoff="always", reactions="ask")  # every window asked: this test reacts
    async with app.run_test(size=(120, 40)) as pilot:
        await _pause(pilot, app)
        session = app.session
        assert session is not None
        screen = _game_screen(app)
        # Chits (2.8): keep I/12 SchR, resolve it first, activate it — each a list of choices with explanations.
        assert "keep out of the cup" in screen_text(app)
        await choose(pilot, app, lambda a: str(a) == "keep ger-i-12-schr")
        await choose(pilot, app, lambda a: str(a) == "first ger-i-12-schr")
        await choose(pilot, app, lambda a: a.verb == "activate")
        assert isinstance(app.screen, GameScreen)
        assert "German acts with I/12 SchR" in screen_text(app)

        # Select the half-track (n), see where it can go, step north-west one hex (q, enter).
        await pilot.press("n")
        assert screen.selected == "ger-i12schr-apc"
        overlay = {session.info.board.label(h): o for h, o in screen.map.overlay.items()}
        assert overlay["1507"].kind == "step" and overlay["1507"].text.startswith("»")
        assert any(o.kind == "reach" for o in overlay.values())
        await pilot.press("q")
        assert session.info.board.label(screen.map.cursor) == "1507"
        await pilot.press("enter")
        await _pause(pilot, app)
        if isinstance(app.screen, ChoiceDialog):
            await choose(pilot, app, lambda a: a.verb == "move")
        assert "ger-i12schr-apc enters 1507" in "\n".join(screen.log_widget.lines_written)

        # The French may react: a blank hand-off, then the reactions with their odds, "close" included.
        assert isinstance(app.screen, HandoffScreen)
        await pilot.press("enter")
        await _pause(pilot, app)
        if isinstance(app.screen, HandoffScreen):
            await pilot.press("enter")
            await _pause(pilot, app)
        dialog = app.screen
        assert isinstance(dialog, ChoiceDialog)
        verbs = {v.verb for v, _ in dialog.items if isinstance(v, Action)}
        assert {"opp", "close"} <= verbs
        assert "[effect" in screen_text(app)
        await choose(pilot, app, lambda a: a.verb == "opp")
        assert isinstance(app.screen, ConfirmDialog)
        text = screen_text(app)
        assert "Exact odds" in text and "line of sight clear" in text and "%" in text
        await pilot.press("y")
        await _pause(pilot, app)
        log = "\n".join(screen.log_widget.lines_written)
        assert "reaction test: opportunity fire" in log
        await pass_reactions(pilot, app)

        # Back to the German: stop the half-track (x), then fire with a company: targets and odds first.
        assert session.game.to_act == "german"
        assert isinstance(app.screen, GameScreen), app.screen_stack
        assert screen.client.side == "german"
        if screen.selected and screen.check_action("key", ("act", "stop_unit")):
            await pilot.press("x")
            await _pause(pilot, app)
        for _ in range(12):
            if screen.selected and screen.now.unit_actions(screen.selected, lambda i: i.verb == "fire"):
                break
            await pilot.press("n")
        assert screen.check_action("key", ("table", "direct_fire")) is True
        await pilot.press("f")
        await _pause(pilot, app)
        if isinstance(app.screen, ChoiceDialog):
            await choose(pilot, app, lambda a: a.verb == "fire")
        assert isinstance(app.screen, ConfirmDialog)
        assert "Exact odds" in screen_text(app)
        before = len(session.game.history)
        await pilot.press("enter")
        await _pause(pilot, app)
        assert len(session.game.history) == before + 1
        assert "fires at" in "\n".join(screen.log_widget.lines_written)
        await pass_reactions(pilot, app)

        # End the activation (z): the engine moves on to the next chit.
        assert session.game.to_act == "german" and isinstance(app.screen, GameScreen)
        await pilot.press("z")
        await _pause(pilot, app)
        assert "German's activation ends" in "\n".join(screen.log_widget.lines_written)


async def test_illegal_action_shows_the_engines_reason_and_changes_nothing() -> None:
    app = make_app(hannut())
    async with app.run_test(size=(120, 40)) as pilot:
        await _pause(pilot, app)
        session = app.session
        assert session is not None
        screen = _game_screen(app)
        await pilot.press("m")  # look at the map instead of the list
        assert isinstance(app.screen, GameScreen)
        before = session.game.state.to_dict()
        await pilot.press("colon")
        prompt = screen.query_one("#prompt", Input)
        assert prompt.has_focus
        await pilot.press(*"fire ")
        prompt.value = "fire ger-i5pzr-pz3 fra-1kur-s35-1"
        await pilot.press("enter")
        await _pause(pilot, app)
        errors = [line for line in screen.log_widget.lines_written if line.startswith("✗")]
        assert errors and "rule" in errors[-1]
        assert any("Not allowed" in (n.title or "") for n in app._notifications)
        assert session.game.state.to_dict() == before
        # Good notation through the same prompt is played.
        await pilot.press("colon")
        prompt.value = "keep ger-i-35-pzr"
        await pilot.press("enter")
        await _pause(pilot, app)
        # The scenario's set-up steps are played for the players (12.1); the keep is the German's.
        assert [str(a) for a in session.game.history] == ["default", "default", "keep ger-i-35-pzr", "default"]


async def test_undo_until_dice_are_rolled() -> None:
    app = make_app(hannut())
    async with app.run_test(size=(120, 40)) as pilot:
        await _pause(pilot, app)
        session = app.session
        assert session is not None
        screen = _game_screen(app)
        await choose(pilot, app, lambda a: str(a) == "keep ger-i-35-pzr")
        await pilot.press("m")
        assert screen.check_action("key", ("table", "undo")) is True
        await pilot.press("u")
        await _pause(pilot, app)
        assert [str(a) for a in session.game.history] == ["default", "default"]  # the keep and what followed
        assert any(line.startswith("↶ undone: keep") for line in screen.log_widget.lines_written)
