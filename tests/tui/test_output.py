"""Bytes per cursor move (DESIGN §11): panels repaint only changed cells, updates are cropped on both sides."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.segment import Segment
from rich.text import Text
from textual._compositor import ChopsUpdate, CompositorUpdate
from textual.app import App, ComposeResult
from textual.screen import Screen
from textual.strip import Strip

from tui import output
from tui.app import PlanspielApp
from tui.screens.game import GameScreen
from tui.widgets.panels import EventLog, HexPanel, UnitPanel

from .conftest import hannut
from .conftest import make_app as _make_app


class PanelApp(App[None]):
    def compose(self) -> ComposeResult:
        yield HexPanel(id="hex")


async def test_panel_repaints_only_the_cells_that_changed() -> None:
    app = PanelApp()
    async with app.run_test(size=(40, 10)) as pilot:
        panel = app.query_one(HexPanel)
        panel.show_text(Text("Hex 0704  Hannut\n terrain open\n   level 0"))
        await pilot.pause()
        before = panel.refreshed_cells
        panel.show_text(Text("Hex 0705  Hannut\n terrain open\n   level 0"))
        await pilot.pause()
        assert panel.refreshed_cells - before == 1  # "4" → "5", nothing else
        assert panel.text.startswith("Hex 0705")
        lines = [s.text.rstrip() for s in app.screen._compositor.render_strips()]
        assert lines[0] == " Hex 0705  Hannut" and lines[2] == "    level 0"  # padding 0 1
        panel.show_text(Text("Hex 0705  Hannut\n terrain open\n   level 0"))
        assert panel.refreshed_cells - before == 1  # the same text: no repaint at all


class Metered(PlanspielApp):
    written: list[int]

    def _display(self, screen: Screen[Any], renderable: Any) -> None:
        if isinstance(renderable, CompositorUpdate):
            self.written.append(len(renderable.render_segments(self.console).encode()))


async def test_a_cursor_move_on_the_game_screen_writes_under_one_kilobyte() -> None:
    app = _make_app(hannut())
    app.__class__ = Metered
    app.written = []
    assert output.installed()
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.press("m")  # close the first choice list: look at the map
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        sizes = []
        for direction in "sssnnn":
            app.written.clear()
            screen.map.action_cursor(direction)
            await pilot.pause()
            sizes.append(sum(app.written))
        sizes.sort()
        assert sizes[len(sizes) // 2] <= 1024, sizes
        unit = screen.query_one("#unit", UnitPanel)
        assert unit.text  # the panels still show what is under the cursor


def test_partial_updates_are_cropped_on_both_sides() -> None:
    console = Console(force_terminal=True, color_system=None, width=40)
    strip = Strip([Segment("abcdefghij"), Segment("KLMNOPQRST")], 20)
    update = ChopsUpdate([{0: strip}], [(0, 12, 15)], [[20]])
    assert output.install()
    text = update.render_segments(console)
    assert text == "\x1b[1;13HMNO"  # only columns 12-14, written from column 12 (1-based 13)
    output.uninstall()
    try:
        assert update.render_segments(console).endswith("abcdefghijKLMNO")  # Textual's own: from the left edge
    finally:
        output.install()


async def test_the_log_keeps_its_place_while_read_and_says_what_waits_below() -> None:
    """Issue 18 item 9: scrolled up to read, the log does not jump; its border says how many new lines wait below,
    and at the end it follows again."""

    class One(App[None]):
        def compose(self) -> ComposeResult:
            yield EventLog(id="log")

    app = One()
    async with app.run_test(size=(60, 20)) as pilot:
        log = app.query_one(EventLog)
        for i in range(40):
            log.add("move", f"line {i}")
        await pilot.pause()
        assert log.scroll_y == log.max_scroll_y and not log.border_title
        log.scroll_home(animate=False)
        await pilot.pause()
        log.add("move", "news 1")
        log.add("move", "news 2")
        await pilot.pause()
        assert log.scroll_y == 0, "the reader's place is kept"
        assert log.border_title == "▼ 2 new lines below (End)"
        log.scroll_end(animate=False)
        await pilot.pause()
        assert not log.border_title and log.waiting_below == 0
        log.add("move", "news 3")
        await pilot.pause()
        assert log.scroll_y == log.max_scroll_y, "at the end it follows again"
