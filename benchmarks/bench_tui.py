"""Benchmarks the TUI against DESIGN.md section 11: the hex map at 160×48, and start-up to the title screen.

For a cursor move and for a full redraw it measures, in the same run, the line-API ``HexMap`` (a ScrollView
with a strip cache) and a naive rendering of the same map through one ``Static`` widget that is given the
whole map again on every change:

- **render time**: the screen's compositor refresh (the widgets' lines, the compositor's cuts and the terminal
  sequence), timed around ``Screen._compositor_refresh``;
- **bytes written**: the length of the terminal sequence the app would write (``App._display`` is metered; the
  headless driver would otherwise drop it).

Run with ``.venv/bin/python benchmarks/bench_tui.py`` (prints a Markdown table) or as part of ``make bench``.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.text import Text
from textual._compositor import CompositorUpdate
from textual.app import App, ComposeResult
from textual.containers import ScrollableContainer
from textual.screen import Screen
from textual.widgets import Static

import engine
from engine.hexgrid import DIRECTIONS
from engine.presentation import TERRAIN_GLYPHS
from tui.widgets.hexmap import HexContent, HexMap, UnitMark

SIZE = (160, 48)
MOVES = 60


@dataclass
class Meter:
    """Render time and bytes of every screen update."""

    seconds: list[float] = field(default_factory=list)
    bytes: list[int] = field(default_factory=list)

    def mark(self) -> tuple[int, int]:
        return len(self.seconds), len(self.bytes)

    def since(self, mark: tuple[int, int]) -> tuple[float, int]:
        return sum(self.seconds[mark[0] :]), sum(self.bytes[mark[1] :])


METER = Meter()
_original_refresh = Screen._compositor_refresh


def _timed_refresh(self: Screen[Any]) -> None:
    start = time.perf_counter()
    _original_refresh(self)
    METER.seconds.append(time.perf_counter() - start)


Screen._compositor_refresh = _timed_refresh  # type: ignore[method-assign]


class MeteredApp(App[None]):
    """An app whose terminal output is counted instead of written."""

    def _display(self, screen: Screen[Any], renderable: Any) -> None:
        if renderable is None:
            return
        if isinstance(renderable, CompositorUpdate):
            text = renderable.render_segments(self.console)
        else:
            text = "".join(s.text for s in self.console.render(renderable))
        METER.bytes.append(len(text.encode("utf-8")))


def _board_and_units() -> tuple[engine.Board, dict[engine.Hex, HexContent]]:
    game = engine.new_game(engine.load_scenario("blitzkrieg1940", "hannut"), seed=7)
    view = game.view("german")
    sides = {s: i for i, s in enumerate(view.sides)}
    content: dict[engine.Hex, HexContent] = {}
    for u in view.iter_units():
        assert u.hex is not None
        old = content.get(u.hex)
        count = (old.count if old else 0) + 1
        mark = old.unit if old else UnitMark(sides[u.side], f"{u.side[0].upper()}T{u.steps}", "")
        content[u.hex] = HexContent(mark, count)
    return game.board, content


class LineApiApp(MeteredApp):
    """The HexMap widget, as the game screen uses it."""

    def compose(self) -> ComposeResult:
        board, content = _board_and_units()
        m = HexMap(board, terrain_glyphs=TERRAIN_GLYPHS, id="map")
        m.set_content(content)
        yield m

    def move(self, step: engine.Hex) -> None:
        m = self.query_one(HexMap)
        m.move_cursor(m.cursor + step)

    def redraw(self, cold: bool = True) -> None:
        m = self.query_one(HexMap)
        if cold:  # every row painted again (a theme change); warm: the cached rows cropped (a scroll)
            m._rows.clear()
            m._looks.clear()
        m.refresh()


class NaiveApp(MeteredApp):
    """The same map drawn as one Rich Text in one Static, given the whole map again on every change."""

    def compose(self) -> ComposeResult:
        board, content = _board_and_units()
        self.painter = HexMap(board, terrain_glyphs=TERRAIN_GLYPHS)
        self.painter.set_content(content)
        with ScrollableContainer():
            yield Static(self._text(), id="naive")

    def _text(self) -> Text:
        p = self.painter
        p._rows.clear()
        text = Text(no_wrap=True, overflow="crop")
        for y in range(p.map_height):
            for seg in p._row(y):
                text.append(seg.text, seg.style)
            text.append("\n")
        return text

    def move(self, step: engine.Hex) -> None:
        p = self.painter
        target = p.cursor + step
        if target in p.board:
            p.cursor = target
        self.query_one("#naive", Static).update(self._text())

    def redraw(self, cold: bool = True) -> None:
        self.query_one("#naive", Static).update(self._text())


@dataclass(frozen=True)
class Figures:
    """Medians of one rendering."""

    move_ms: float
    move_bytes: int
    redraw_ms: float
    redraw_bytes: int
    warm_ms: float


async def measure(app_cls: Callable[[], MeteredApp], moves: int = MOVES) -> Figures:
    """Median render time and bytes for a cursor move and a full redraw."""
    app = app_cls()
    south, north = DIRECTIONS[3], DIRECTIONS[0]
    move_t: list[float] = []
    move_b: list[int] = []
    draw_t: list[float] = []
    draw_b: list[int] = []
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for i in range(moves):
            mark = METER.mark()
            app.move(south if (i // 6) % 2 == 0 else north)  # type: ignore[attr-defined]
            await pilot.pause()
            t, b = METER.since(mark)
            move_t.append(t)
            move_b.append(b)
        warm_t: list[float] = []
        for i in range(2 * max(10, moves // 4)):
            mark = METER.mark()
            app.redraw(cold=i % 2 == 0)  # type: ignore[attr-defined]
            await pilot.pause()
            t, b = METER.since(mark)
            if i % 2 == 0:
                draw_t.append(t)
                draw_b.append(b)
            else:
                warm_t.append(t)
    return Figures(
        statistics.median(move_t) * 1000,
        int(statistics.median(move_b)),
        statistics.median(draw_t) * 1000,
        int(statistics.median(draw_b)),
        statistics.median(warm_t) * 1000,
    )


@dataclass(frozen=True)
class ScreenFigures:
    """Medians for the whole game screen (map, status bar, unit and hex panels, log, footer)."""

    move_ms: float
    move_bytes: int
    redraw_ms: float
    redraw_bytes: int


async def measure_game_screen(
    moves: int = 40, *, cropped: bool = True, ruleset: str = "blitzkrieg1940", scenario: str = "hannut"
) -> ScreenFigures:
    """Median render time and bytes of a cursor move and of a full redraw of the whole game screen.

    ``cropped``: with :mod:`tui.output` in force (partial updates cropped on both sides), else with Textual's
    own ``render_segments`` (which rewrites each widget's line from its left edge). ``ruleset`` and ``scenario``:
    the game shown (``bench_hacse_tui.py`` shows a HACSE one).
    """
    from tui import output  # noqa: PLC0415
    from tui.app import PlanspielApp, Start  # noqa: PLC0415
    from tui.screens.game import GameScreen  # noqa: PLC0415
    from tui.settings import Settings  # noqa: PLC0415

    class MeteredGame(PlanspielApp):
        _display = MeteredApp._display  # type: ignore[assignment]

    with tempfile.TemporaryDirectory() as home:
        os.environ["PLANSPIEL_HOME"] = home
        start = Start("new", ruleset, scenario, {}, 7)
        app = MeteredGame(start, settings=Settings(ai_delay=0.0), exit_handlers=False)
        if not cropped:
            output.uninstall()
        times: list[float] = []
        sizes: list[int] = []
        draw_t: list[float] = []
        draw_b: list[int] = []
        try:
            async with app.run_test(size=SIZE) as pilot:
                await pilot.pause()
                await pilot.press("m")
                await pilot.pause()
                screen = app.screen
                assert isinstance(screen, GameScreen)
                for i in range(moves):
                    mark = METER.mark()
                    screen.map.action_cursor("s" if (i // 6) % 2 == 0 else "n")
                    await pilot.pause()
                    t, b = METER.since(mark)
                    times.append(t)
                    sizes.append(b)
                for _ in range(max(5, moves // 4)):
                    mark = METER.mark()
                    for widget in screen.walk_children():
                        widget.refresh()
                    screen.map._rows.clear()
                    await pilot.pause()
                    t, b = METER.since(mark)
                    draw_t.append(t)
                    draw_b.append(b)
        finally:
            output.install()
            del os.environ["PLANSPIEL_HOME"]
    return ScreenFigures(
        statistics.median(times) * 1000,
        int(statistics.median(sizes)),
        statistics.median(draw_t) * 1000,
        int(statistics.median(draw_b)),
    )


def startup_seconds(runs: int = 5) -> float:
    """Median wall time from starting a Python process to the title screen being mounted (headless)."""
    code = (
        "import asyncio\n"
        "from tui.app import PlanspielApp\n"
        "from tui.settings import Settings\n"
        "from tui.screens.title import TitleScreen\n"
        "async def main():\n"
        "    app = PlanspielApp(settings=Settings(), exit_handlers=False)\n"
        "    async with app.run_test(size=(160, 48)) as pilot:\n"
        "        while not isinstance(app.screen, TitleScreen):\n"
        "            await pilot.pause(0.01)\n"
        "asyncio.run(main())\n"
    )
    times = []
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "PLANSPIEL_HOME": home}
        for _ in range(runs):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", code], check=True, env=env)
            times.append(time.perf_counter() - start)
    return statistics.median(times)


_LOAD_CODE = """
import asyncio, os, sys, time
from pathlib import Path
from tui.app import PlanspielApp, Start
from tui.screens.game import GameScreen
from tui.settings import Settings
t0 = float(os.environ["BENCH_T0"])
async def main():
    app = PlanspielApp(Start("load", path=Path(sys.argv[1])), settings=Settings(), exit_handlers=False)
    async with app.run_test(size=(160, 48)) as pilot:
        while not any(isinstance(s, GameScreen) and s.is_mounted for s in app.screen_stack):
            await pilot.pause(0.005)
        shown = time.time() - t0
        screen = next(s for s in app.screen_stack if isinstance(s, GameScreen))
        status = screen.query_one("#status")
        while status.checking is not None or app.session.replay_check_pending:
            await pilot.pause(0.02)
        print(shown, time.time() - t0, len(app.session.game.history), flush=True)
        os._exit(0)
asyncio.run(main())
"""


def load_seconds(runs: int = 5) -> tuple[float, float, int]:
    """``planspiel load FILE`` of a finished Hannut game (seeded random playout, seed 4), in a new process:
    median seconds to the game screen, median seconds until the background replay check is done, actions."""
    import saves  # noqa: PLC0415

    root = str(Path(__file__).resolve().parents[1])
    if root not in sys.path:  # run as a script: the tests package lives at the repository root
        sys.path.insert(0, root)
    from tests.saves.helpers import play_random  # noqa: PLC0415

    game = play_random(engine.new_game(engine.load_scenario("blitzkrieg1940", "hannut"), seed=4), 4)
    shown: list[float] = []
    checked: list[float] = []
    actions = 0
    with tempfile.TemporaryDirectory() as home:
        path = Path(home) / "hannut-finished.planspiel"
        saves.save_game(game, path, players={"german": "human", "french": "human"})
        env = {**os.environ, "PLANSPIEL_HOME": home}
        for _ in range(runs):
            env["BENCH_T0"] = repr(time.time())
            out = subprocess.run(
                [sys.executable, "-c", _LOAD_CODE, str(path)], check=True, env=env, capture_output=True, text=True
            )
            a, b, n = out.stdout.split()
            shown.append(float(a))
            checked.append(float(b))
            actions = int(n)
    return statistics.median(shown), statistics.median(checked), actions


async def measure_order_entry(steps: int = 40) -> tuple[float, float, int]:
    """Art of Tactic P-1 at 160×48, a March path being plotted: median milliseconds of the screen's handling of
    Enter on a hex (the engine's check of the path, overlay, panels, status), then of its render, and the bytes
    written, alternating "add 0405" and Backspace after 0305."""
    from tui.app import PlanspielApp, Start  # noqa: PLC0415
    from tui.screens.game import GameScreen  # noqa: PLC0415
    from tui.settings import Settings  # noqa: PLC0415

    class MeteredGame(PlanspielApp):
        _display = MeteredApp._display  # type: ignore[assignment]

    handled: list[float] = []
    rendered: list[float] = []
    sizes: list[int] = []
    with tempfile.TemporaryDirectory() as home:
        os.environ["PLANSPIEL_HOME"] = home
        start = Start("new", "art_of_tactic", "p1-grenzgefecht", {"german": "human", "soviet": "human"}, 7)
        app = MeteredGame(start, settings=Settings(ai_delay=0.0), exit_handlers=False)
        try:
            async with app.run_test(size=SIZE) as pilot:
                await pilot.pause()
                screen = app.screen
                assert isinstance(screen, GameScreen)
                screen.select_unit("ger-2-pz2")
                plan = screen.mode_now
                plan._verb_chosen("ger-2-pz2", "march")  # type: ignore[attr-defined]
                await pilot.pause()
                screen.act_on_hex(screen.info.board.parse("0305"))
                target = screen.info.board.parse("0405")
                for _ in range(steps):
                    for act in (lambda: screen.act_on_hex(target), plan.key_back):  # type: ignore[attr-defined]
                        mark = METER.mark()
                        t0 = time.perf_counter()
                        act()
                        handled.append(time.perf_counter() - t0)
                        await pilot.pause()
                        t, b = METER.since(mark)
                        rendered.append(t)
                        sizes.append(b)
        finally:
            del os.environ["PLANSPIEL_HOME"]
    return statistics.median(handled) * 1000, statistics.median(rendered) * 1000, int(statistics.median(sizes))


def test_hex_map_budgets() -> None:
    """DESIGN §11: a cursor move ≤ 5 ms and ≤ 1 KB; a full redraw ≤ 30 ms (160×48); the naive Static beside."""
    line = asyncio.run(measure(LineApiApp, moves=30))
    naive = asyncio.run(measure(NaiveApp, moves=10))
    screen = asyncio.run(measure_game_screen(moves=20))
    print(f"\nline API: {line}\nnaive Static: {naive}\ngame screen: {screen}")
    assert line.move_bytes <= 1024
    assert line.move_bytes < naive.move_bytes
    assert screen.move_bytes <= 1024


def main() -> None:
    """Print the figures as a Markdown table."""
    from tui import output  # noqa: PLC0415

    output.install()
    line = asyncio.run(measure(LineApiApp))
    naive = asyncio.run(measure(NaiveApp))
    start = startup_seconds()
    game = asyncio.run(measure_game_screen())
    plain = asyncio.run(measure_game_screen(cropped=False))
    print("| what (160×48, Hannut) | line-API HexMap | naive one Static | DESIGN §11 budget |")
    print("|---|---|---|---|")
    print(f"| cursor move: render time (median) | {line.move_ms:.2f} ms | {naive.move_ms:.2f} ms | ≤ 5 ms |")
    print(f"| cursor move: bytes written (median) | {line.move_bytes} B | {naive.move_bytes} B | ≤ 1 KB |")
    print(f"| full redraw, all rows painted: render | {line.redraw_ms:.2f} ms | {naive.redraw_ms:.2f} ms | ≤ 30 ms |")
    print(f"| full redraw, cached rows (scroll): render | {line.warm_ms:.2f} ms | {naive.warm_ms:.2f} ms | ≤ 30 ms |")
    print(f"| full redraw: bytes written (median) | {line.redraw_bytes} B | {naive.redraw_bytes} B | — |")
    print(
        f"| whole game screen, cursor move | {game.move_ms:.2f} ms, {game.move_bytes} B "
        f"| Textual's own output: {plain.move_ms:.2f} ms, {plain.move_bytes} B | ≤ 5 ms, ≤ 1 KB |"
    )
    print(
        f"| whole game screen, full redraw | {game.redraw_ms:.2f} ms, {game.redraw_bytes} B "
        f"| Textual's own output: {plain.redraw_ms:.2f} ms, {plain.redraw_bytes} B | ≤ 30 ms |"
    )
    print(f"| start-up to the title screen (new process, headless) | {start:.2f} s | | ≤ 1 s |")
    handled, rendered, written = asyncio.run(measure_order_entry())
    print(
        f"| Art of Tactic P-1: a hex added to or taken from a plotted path (engine check, overlay, panels) "
        f"| handled {handled:.2f} ms, rendered {rendered:.2f} ms, {written} B | | ≤ 5 ms render |"
    )
    shown, checked, actions = load_seconds()
    print(
        f"| `planspiel load` of a finished Hannut game ({actions} actions) to the game screen "
        f"(new process, headless) | {shown:.2f} s | replay check done in the background at {checked:.2f} s | — |"
    )


if __name__ == "__main__":
    main()
