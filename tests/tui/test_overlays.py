"""Rule overlays on the map: command ranges and out of command (k, Blitzkrieg 3.4/3.5), and the barrage target
and observer on the passive player's map (6.3.4, 8.6.1). The engine says which hexes; the screen draws them."""

from __future__ import annotations

from engine import Action, Hex
from engine.hexgrid import distance
from tui.app import PlanspielApp
from tui.screens.dialogs import ChoiceDialog
from tui.screens.game import GameScreen
from tui.screens.help import HelpScreen

from .conftest import hannut, make_app, play_quietly, screen_text, settle


def game_screen(app: PlanspielApp) -> GameScreen:
    return next(s for s in app.screen_stack if isinstance(s, GameScreen))


async def test_k_shows_the_command_range_of_the_units_hq_with_distances() -> None:
    app = make_app(hannut())
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        if isinstance(app.screen, ChoiceDialog):
            await pilot.press("m")  # look at the map
        screen = game_screen(app)
        view = screen.now.view
        unit = view.units["ger-i12schr-sch-1"]
        hq = view.units["ger-i12schr-hq"]
        assert unit.hex is not None and hq.hex is not None
        screen.map.move_cursor(unit.hex)
        await pilot.pause()
        assert not any(o.kind == "command" for o in screen.map.overlay.values())
        await pilot.press("k")
        overlay = screen.map.overlay
        command = {h for h, o in overlay.items() if o.kind == "command"}
        assert command and all(distance(h, hq.hex) <= 3 for h in command)  # German doctrine: 3 hexes (3.4)
        assert overlay[hq.hex].text == "[HQ]"
        far = max(command, key=lambda h: distance(h, hq.hex))
        assert overlay[far].text == f"┆{distance(far, hq.hex)}┆"  # a glyph pattern, not colour alone
        assert "within command distance" in screen.query_one("#hex").text  # type: ignore[attr-defined]
        await pilot.press("k")
        assert not any(o.kind == "command" for o in screen.map.overlay.values())


async def test_k_marks_units_out_of_command() -> None:
    app = make_app(hannut())
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        screen = game_screen(app)
        assert app.session is not None
        unit = screen.now.view.units["ger-i12schr-mgg"]
        assert unit.hex is not None
        asked: list[str | None] = []
        real = screen.client.overlays

        def overlays(unit_id: str | None = None) -> dict[str, set[Hex]]:
            # As the engine reports a unit marked out of command (3.5; the rule is tested in the engine's tests).
            asked.append(unit_id)
            return {**real(unit_id), "out_of_command": {unit.hex}}  # type: ignore[dict-item]

        screen.client.overlays = overlays  # type: ignore[method-assign]
        screen.refresh_view()
        assert screen.map.overlay.get(unit.hex) is None or screen.map.overlay[unit.hex].text != "OOC"
        screen.keys.key_command()
        assert screen.map.overlay[unit.hex].text == "OOC"
        assert "unit out of command" in screen.query_one("#hex").text  # type: ignore[attr-defined]


async def test_the_passive_player_sees_the_barrage_target_and_observer() -> None:
    app = make_app(hannut(seed=1), reactions="ask")  # the French are asked even when the barrage hurt nobody
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        session = app.session
        assert session is not None
        screen = play_quietly(app, "german", "keep ger-i-12-schr", "first ger-artillery-1-1", "barrage")
        screen.play(Action("salvo", ("1202", "heavy", "ger-ii12schr-hq")))
        await settle(pilot, app)
        assert screen.client.side == "french"  # the reaction window (6.3.4) is the French decision
        board = screen.info.board
        overlay = screen.map.overlay
        assert overlay[board.parse("1202")].text == "◎◎◎"
        observer = screen.now.view.units["ger-ii12schr-hq"].hex
        assert observer is not None and overlay[observer].text == "OBS"
        if isinstance(app.screen, ChoiceDialog):
            await pilot.press("m")
        text = screen_text(app)
        assert "barrage target" in text and "1202" in text


async def test_command_key_is_in_help_and_footer() -> None:
    app = make_app(hannut())
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        if isinstance(app.screen, ChoiceDialog):
            await pilot.press("m")
        assert "Command" in screen_text(app)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        assert "command range of the selected unit's HQ" in screen_text(app)
