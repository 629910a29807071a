"""The test ruleset (``tests/minirules``) played in the TUI from the first decision to the end screen, by keys:
select a unit and move it (M1), the other side's reaction from a list with the shot's odds (M3), a hot-seat hand-off
(M4 hides the sniper, so the seat changes behind the blank screen), fire with ``f`` and its odds (M2), ``z`` to
end each turn (M5), and the end-of-game screen. No code under ``tui/`` names the ruleset or its verbs: the screen
reads the roles of its notation classes (``tests/minirules/notation.py``)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import Action
from engine.contract import CHOOSE
from tui.app import PlanspielApp, Start
from tui.screens.dialogs import ChoiceDialog, ConfirmDialog
from tui.screens.endgame import EndGameScreen
from tui.screens.handoff import HandoffScreen

from .conftest import enter_on, make_app, screen_text, settle, table

DUEL = Start("new", "minirules", "duel", {"red": "human", "blue": "human"}, 7)


async def pick(app: PlanspielApp, pilot: object, notation: str) -> None:
    """In the list on screen, press the number of the action written ``notation``."""
    dialog = app.screen
    assert isinstance(dialog, ChoiceDialog), app.screen_stack
    values = [str(v) for v, _ in dialog.items]
    assert notation in values, values
    await pilot.press(str(values.index(notation) + 1))  # type: ignore[attr-defined]
    await settle(pilot, app)


async def hand_over(app: PlanspielApp, pilot: object, side: str) -> None:
    """The blank hand-off screen for ``side``: Enter (what happened since), Enter (the table)."""
    assert isinstance(app.screen, HandoffScreen), app.screen_stack
    assert f"{side.title()} player: press Enter" in screen_text(app)
    await pilot.press("enter", "enter")  # type: ignore[attr-defined]
    await settle(pilot, app)
    assert table(app).client.side == side


async def end_turns_to_the_end(app: PlanspielApp, pilot: object) -> None:
    """z for every turn of both sides (Enter, Enter at each hand-off; hold at a reaction) until the end screen."""
    screen = table(app)
    for _ in range(40):
        if isinstance(app.screen, EndGameScreen):
            return
        if isinstance(app.screen, HandoffScreen):
            await pilot.press("enter", "enter")  # type: ignore[attr-defined]
        elif isinstance(app.screen, ChoiceDialog):
            await pick(app, pilot, "hold")
        else:
            assert app.screen is screen, app.screen_stack
            await pilot.press("z")  # type: ignore[attr-defined]
        await settle(pilot, app)


async def test_a_minirules_duel_by_keys_from_the_first_decision_to_the_end_screen() -> None:
    app = make_app(DUEL, reactions="worth")  # M3 asks the reaction (the default fires it by itself)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        assert app.session is not None
        screen = table(app)
        assert app.screen is screen and screen.client.side == "red" and screen.mode == "act"

        # M1: Enter on the tank selects it: its next steps (») and where it can go (with costs).
        await enter_on(app, pilot, "0104")
        assert screen.selected == "red-tank-1"
        assert any(o.kind == "step" and o.text.startswith("»") for o in screen.map.overlay.values())
        assert any(o.kind == "reach" for o in screen.map.overlay.values())
        # Enter on 0604: the moves through that hex as a list (a path is one action); the one that ends there.
        await enter_on(app, pilot, "0604")
        if isinstance(app.screen, ChoiceDialog):
            await pick(app, pilot, "move red-tank-1 0204 0305 0404 0505 0604")
        assert "red-tank-1 moves 0104 → 0604" in "\n".join(screen.log_widget.lines_written)

        # M3: Blue may react (its tank is next to the mover): Blue takes the seat behind the hand-off (M4: Red's
        # sniper is hidden from Blue), and the reaction is a list; the shot shows its odds before it is fired.
        await hand_over(app, pilot, "blue")
        assert isinstance(app.screen, ChoiceDialog)
        assert {"react blue-tank-1 red-tank-1", "hold"} <= {str(v) for v, _ in app.screen.items}
        assert "red-sniper" not in screen_text(app)
        await pick(app, pilot, "react blue-tank-1 red-tank-1")
        assert isinstance(app.screen, ConfirmDialog)
        assert "Exact odds" in screen_text(app) and "1d6 needs" in screen_text(app)
        before = len(app.session.game.history)
        await pilot.press("enter")
        await settle(pilot, app)
        assert len(app.session.game.history) == before + 1
        assert "blue-tank-1 fires at red-tank-1" in "\n".join(screen.log_widget.lines_written)

        # Red again (its turn goes on), then z ends it: Blue's turn.
        await hand_over(app, pilot, "red")
        assert screen.check_action("key", ("act", "finish")) is True
        await pilot.press("z")
        await settle(pilot, app)
        await hand_over(app, pilot, "blue")

        # M2: f fires with the selected unit: the odds first, Enter confirms.
        assert app.session.game.state.units["red-tank-1"].hex is not None  # seed 7: the reaction missed
        screen.select_unit("blue-tank-1")
        await pilot.press("f")
        await settle(pilot, app)
        if isinstance(app.screen, ChoiceDialog):
            await pick(app, pilot, "fire blue-tank-1 red-tank-1")
        assert isinstance(app.screen, ConfirmDialog), app.screen_stack
        assert "Exact odds" in screen_text(app)
        await pilot.press("enter")
        await settle(pilot, app)
        assert str(app.session.game.history[-1]) == "fire blue-tank-1 red-tank-1"

        # M5: each side ends its turns (z), the seat changing behind the hand-off, until the game is over.
        await end_turns_to_the_end(app, pilot)
        assert isinstance(app.screen, EndGameScreen), app.screen_stack
        outcome = app.session.game.outcome
        assert outcome is not None and "(M5)" in outcome.reason
        assert "Game over" in screen_text(app) or outcome.reason in screen_text(app)


async def test_minirules_by_the_ai_against_a_human_in_the_tui() -> None:
    """Blue is the AI (greedy): it plays its turns and reactions in a worker; the human's table stays Red's."""
    app = make_app(Start("new", "minirules", "duel", {"red": "human", "blue": "ai:greedy"}, 3))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        assert app.session is not None
        screen = table(app)
        for _ in range(60):
            if app.session.game.outcome is not None:
                break
            if isinstance(app.screen, ChoiceDialog):  # a reaction of Red's: hold
                await pick(app, pilot, "hold")
            elif app.screen is screen and screen.client.to_act == "red" and screen.ai_side is None:
                assert screen.client.side == "red"
                end = screen.now.end_action()
                assert end == Action("end")
                await pilot.press("z")
            await settle(pilot, app)
        assert app.session.game.outcome is not None
        assert any(side == "blue" for side in app.session.actors), "the AI played Blue's decisions"


async def test_a_mode_the_client_does_not_know_falls_back_to_a_list(monkeypatch: pytest.MonkeyPatch) -> None:
    """A ruleset whose decisions use a mode this client has no class for (``facing``, to come with a new
    ruleset): the table offers no mode's keys, and every decision is a list of the legal actions."""
    from tests.minirules import RULESET  # noqa: PLC0415

    real = RULESET.waiting
    monkeypatch.setattr(RULESET, "modes", frozenset({"facing"}))
    monkeypatch.setattr(RULESET, "waiting", lambda state, legal=None: replace(real(state, legal), mode="facing"))
    app = make_app(DUEL)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        screen = table(app)
        assert screen.client.waiting().mode == "facing" and screen.mode == CHOOSE
        assert isinstance(app.screen, ChoiceDialog), "the list opens by itself"
        assert screen.check_action("key", ("act", "finish")) is False  # no select-and-act keys on this table
        await pick(app, pilot, "end")
        assert app.session is not None and [str(a) for a in app.session.game.history] == ["end"]
