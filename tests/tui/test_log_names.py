"""Issue 18 item 6: the log, the hand-off summary and the end screen name units as a player reads them
(``I/12 SchR SdKfz 251``), from the side's view only; ``I`` shows the raw ids of the notation instead, and the unit
panel keeps the id."""

from __future__ import annotations

from rich.console import Console

from tui.app import PlanspielApp, Start
from tui.screens.dialogs import ChoiceDialog
from tui.screens.game import GameScreen
from tui.screens.handoff import HandoffScreen
from tui.screens.help import HelpScreen, bindings_table
from tui.screens.resolution import ExecutionScreen

from .conftest import activate_i12, hannut, make_app, screen_text, settle, table

APC, APC_NAME = "ger-i12schr-apc", "I/12 SchR SdKfz 251"


async def _move_half_track(app: PlanspielApp, pilot: object, *first: str) -> GameScreen:
    """Hannut: I/12 SchR activated, the keys ``first`` pressed, then its half-track one hex north-west (n, q,
    Enter) to 1507."""
    screen = await activate_i12(app, pilot)
    for key in first:
        await pilot.press(key)  # type: ignore[attr-defined]
    await pilot.press("n")  # type: ignore[attr-defined]
    assert screen.selected == APC
    await pilot.press("q")  # type: ignore[attr-defined]
    assert screen.info.board.label(screen.map.cursor) == "1507"
    await pilot.press("enter")  # type: ignore[attr-defined]
    await settle(pilot, app)
    if isinstance(app.screen, ChoiceDialog):  # move or move-and-fire: move
        await pilot.press("1")  # type: ignore[attr-defined]
        await settle(pilot, app)
    return screen


async def test_after_a_move_in_hannut_the_log_names_the_unit() -> None:
    app = make_app(hannut(), handoff="never", reactions="never")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _move_half_track(app, pilot)
        assert isinstance(app.screen, GameScreen), screen_text(app)
        assert f"{APC} enters 1507" in "\n".join(screen.log_widget.lines_written), "the engine's text is unchanged"
        text = screen_text(app)
        assert f"{APC_NAME} enters 1507" in text
        assert f"{APC} enters 1507" not in text


async def test_I_switches_the_log_between_ids_and_names_and_the_help_says_so() -> None:
    app = make_app(hannut(), handoff="never", reactions="never")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _move_half_track(app, pilot)
        assert f"GA2 {APC}" in screen_text(app), "the unit panel keeps the id (for notation)"
        await pilot.press("I")
        await settle(pilot, app)
        text = screen_text(app)
        assert f"{APC} enters 1507" in text and f"{APC_NAME} enters" not in text
        assert app.session is not None and app.session.log_ids
        await pilot.press("I")
        await settle(pilot, app)
        text = screen_text(app)
        assert f"{APC_NAME} enters 1507" in text and f"{APC} enters" not in text
        await pilot.press("question_mark")
        await settle(pilot, app)
        assert isinstance(app.screen, HelpScreen)
        console = Console(width=120, record=True)
        console.print(bindings_table(screen))
        help_text = console.export_text()
        assert "\n I " in help_text and "name units as a player reads them" in help_text, help_text
        command = next(c for c in app.get_system_commands(screen) if c.title == "Unit ids or names")
        command.callback()  # in the palette too
        assert app.session.log_ids and f"{APC} enters 1507" in screen.log_widget.lines_shown[-1]


async def test_the_hand_off_summary_names_the_unit_that_moved() -> None:
    app = make_app(hannut(), handoff="always", reactions="ask")
    async with app.run_test(size=(120, 40)) as pilot:
        await _move_half_track(app, pilot)
        assert isinstance(app.screen, HandoffScreen), app.screen_stack
        await pilot.press("enter")
        await settle(pilot, app)
        text = screen_text(app)
        assert "French: since your last decision" in text
        assert f"{APC_NAME} enters 1507" in text and APC not in text, text


async def test_with_ids_on_the_hand_off_summary_shows_the_ids() -> None:
    app = make_app(hannut(), handoff="always", reactions="ask")
    async with app.run_test(size=(120, 40)) as pilot:
        await _move_half_track(app, pilot, "I")
        assert app.session is not None and app.session.log_ids, "I switched the ids on"
        assert isinstance(app.screen, HandoffScreen), app.screen_stack
        await pilot.press("enter")
        await settle(pilot, app)
        text = screen_text(app)
        assert f"{APC} enters 1507" in text and APC_NAME not in text


async def test_art_of_tactic_names_units_from_the_sides_view_and_never_a_concealed_hq() -> None:
    """P-1: a concealed Soviet HQ is an unidentified unit to the German (9.11); the German log names it so, never
    as the HQ it is, while the Soviet log names its own HQ."""
    app = make_app(Start("new", "art_of_tactic", "p1-grenzgefecht", {"german": "human", "soviet": "human"}, 7))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        session = app.session
        assert session is not None
        screen = table(app)
        german, soviet = session.client("german"), session.client("soviet")
        german.apply("defend ger-2-pz2 0305 1")
        german.apply("commit")
        soviet.apply("defend sov-21-hq 1207 1")
        soviet.apply("commit")
        screen.after_change()
        await settle(pilot, app)
        rounds: list[str] = []
        for _ in range(6):
            if isinstance(app.screen, HandoffScreen):
                await pilot.press("enter")
            elif isinstance(app.screen, ExecutionScreen):
                await pilot.press("e")
                await settle(pilot, app)
                rounds.append(f"{screen.client.side}: {app.screen.text}")
                await pilot.press("enter")
            await settle(pilot, app)
        assert screen.client.side == "german" and isinstance(app.screen, GameScreen), app.screen_stack
        assert rounds and rounds[0].startswith("german: "), "the round shown step by step (2.4)"
        assert "unidentified #1 defends facing 1207 up to 1 hex" in rounds[0], rounds[0]
        assert "HQ #21" not in rounds[0] and "sov-21-hq" not in rounds[0]
        shown = "\n".join(screen.log_widget.lines_shown)
        assert "Pz II #2 defends facing 0305 up to 1 hex" in shown
        assert "unidentified #1 defends facing 1207 up to 1 hex" in shown
        assert "HQ #21" not in shown and "sov-21-hq" not in shown
        written = "\n".join(screen.log_widget.lines_written)
        assert "soviet-unidentified-1 defends facing 1207" in written, "the engine's text is unchanged"

        await pilot.press("I", "r")
        await settle(pilot, app)
        assert isinstance(app.screen, ExecutionScreen)
        await pilot.press("e")
        await settle(pilot, app)
        assert "soviet-unidentified-1 defends facing 1207 up to 1 hex" in app.screen.text, "I: the ids"
        await pilot.press("enter")
        await settle(pilot, app)

        screen.switch_side("soviet")
        shown = "\n".join(screen.log_widget.lines_shown)
        assert "sov-21-hq defends facing 1207 up to 1 hex" in shown, "I holds for the game"
        await pilot.press("I")
        shown = "\n".join(screen.log_widget.lines_shown)
        assert "HQ #21 defends facing 1207 up to 1 hex" in shown
