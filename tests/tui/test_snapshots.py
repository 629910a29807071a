"""Snapshot tests: the screen's text compared with stored files in ``tests/tui/snapshots/``.

Regenerate after an intended change with ``.venv/bin/python tests/tui/snapshots/regenerate.py`` (or
``PLANSPIEL_UPDATE_SNAPSHOTS=1 pytest tests/tui/test_snapshots.py``) and read the diff before committing.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from rich.color import Color

from tui.app import PlanspielApp, Start
from tui.screens.game import GameScreen
from tui.screens.handoff import HandoffScreen

from .conftest import hannut, make_app, screen_text, steady_text

SNAPSHOTS = Path(__file__).parent / "snapshots"


def compare(name: str, text: str) -> None:
    """Compare ``text`` with the stored snapshot (or store it when regenerating)."""
    path = SNAPSHOTS / f"{name}.txt"
    text = text.rstrip("\n")
    if os.environ.get("PLANSPIEL_UPDATE_SNAPSHOTS") or not path.exists():
        path.write_text(text + "\n", encoding="utf-8")
        if not os.environ.get("PLANSPIEL_UPDATE_SNAPSHOTS"):
            pytest.fail(f"snapshot {path.name} was missing and has been written: check it and run again")
        return
    expected = path.read_text(encoding="utf-8").rstrip("\n")
    assert text == expected, f"the screen differs from {path.name} (regenerate if the change is intended)"


def screenshot(app: PlanspielApp, name: str) -> None:
    """When regenerating, also keep the screen as an SVG picture (the README shows them)."""
    if os.environ.get("PLANSPIEL_UPDATE_SNAPSHOTS"):
        app.save_screenshot(f"{name}.svg", str(SNAPSHOTS))


def map_colours(app: PlanspielApp) -> set[str]:
    """The colours (foreground and background) the hex map of the game screen is painted with."""
    screen = app.screen
    assert isinstance(screen, GameScreen)
    region = screen.map.region
    colours: set[str] = set()
    for strip in app.screen._compositor.render_strips()[region.y : region.bottom]:
        for seg in strip.crop(region.x, region.right):
            for colour in (seg.style.color, seg.style.bgcolor) if seg.style else ():
                if colour is not None and not colour.is_default:
                    colours.add(colour.get_truecolor().hex)
    return colours


def map_attributes(app: PlanspielApp) -> str:
    """The map's text attributes, one letter a cell (what the monochrome theme draws with instead of colour):
    ``R`` reverse, ``I`` italic, ``B`` bold, ``U`` underlined only, ``.`` none (Textual draws dim text as a
    darker grey, which :func:`map_colours` sees)."""
    screen = app.screen
    assert isinstance(screen, GameScreen)
    region = screen.map.region
    lines = []
    for strip in app.screen._compositor.render_strips()[region.y : region.bottom]:
        line = ""
        for seg in strip.crop(region.x, region.right):
            st = seg.style
            code = "."
            if st is not None:
                code = next(
                    (c for c, on in (("R", st.reverse), ("I", st.italic), ("B", st.bold)) if on),
                    "U" if st.underline else ".",
                )
            line += code * seg.cell_length
        lines.append(line.rstrip("."))
    return "\n".join(lines).rstrip("\n")


def is_grey(hex_colour: str) -> bool:
    """True for a grey (red, green and blue equal): what the monochrome theme may paint with."""
    r, g, b = Color.parse(hex_colour).get_truecolor()
    return r == g == b


async def _game_screen(app: PlanspielApp, size: tuple[int, int]) -> str:
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press("m")  # close the first list of choices to see the table
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        if size == (120, 40):
            screenshot(app, "game_120x40")
        return _monochrome_check(app, await steady_text(pilot, app))


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (160, 48)], ids=["80x24", "120x40", "160x48"])
async def test_game_screen(size: tuple[int, int]) -> None:
    """Hannut at the start, German to act: status bar (turn, phase, VP, side, what the engine waits for),
    the map with column/row labels and compass, counters with side letter, type and steps, the unit and hex
    panels (at 80×24 only the unit panel: i switches), the log and the footer with dimmed keys."""
    text = await _game_screen(make_app(hannut()), size)
    compare(f"game_{size[0]}x{size[1]}", text)


@pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=["80x24", "160x48"])
async def test_game_screen_monochrome(size: tuple[int, int]) -> None:
    """The same screen in the monochrome theme: painted in greys only (checked), terrain, roads and counters still
    differ by their glyphs (the snapshot)."""
    text = await _game_screen(make_app(hannut(), theme="monochrome"), size)
    compare(f"game_monochrome_{size[0]}x{size[1]}", text)


async def test_handoff_screen() -> None:
    """The hot-seat hand-off: a blank table and one line, "French player: press Enter"."""
    app = make_app(hannut())
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        session = app.session
        assert session is not None
        screen = next(s for s in app.screen_stack if isinstance(s, GameScreen))
        app.push_handoff(session, "french", lambda side: None)
        await pilot.pause()
        assert isinstance(app.screen, HandoffScreen)
        text = screen_text(app)
        del screen
    compare("handoff_100x30", text)


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (160, 48)], ids=["80x24", "120x40", "160x48"])
async def test_art_of_tactic_planning_screen(size: tuple[int, int]) -> None:
    """Art of Tactic P-1, German planning: the status line (round, what the engine waits for), the map, the Pz II's
    card in the unit panel with the order it was given, and the footer with the order keys (y, x, z, g, r)."""
    text = await _planning_screen(make_app(_P1), size)
    compare(f"aot_planning_{size[0]}x{size[1]}", text)


@pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=["80x24", "160x48"])
async def test_art_of_tactic_planning_screen_monochrome(size: tuple[int, int]) -> None:
    """The same screen in the monochrome theme: painted in greys only (checked); the river, its bridge and ford,
    the fields, bushes, woods and swamp, and the roads still differ by their glyphs (the snapshot)."""
    text = await _planning_screen(make_app(_P1, theme="monochrome"), size)
    compare(f"aot_planning_monochrome_{size[0]}x{size[1]}", text)


_P1 = Start("new", "art_of_tactic", "p1-grenzgefecht", {"german": "human", "soviet": "human"}, 7)


async def _planning_screen(app: PlanspielApp, size: tuple[int, int]) -> str:
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert app.session is not None
        app.session.client("german").apply("march ger-2-pz2 0305 0405")
        screen = next(s for s in app.screen_stack if isinstance(s, GameScreen))
        screen.refresh_view()
        screen.map.move_cursor(screen.info.board.parse("0205"))
        text = await steady_text(pilot, app)
        if size == (120, 40) and app.settings.theme != "monochrome":
            screenshot(app, "aot_planning_120x40")
        return _monochrome_check(app, text)


def _monochrome_check(app: PlanspielApp, text: str) -> str:
    """In the monochrome theme: check that the map is painted in greys only, and add its text attributes to the
    screen's text (the snapshot then shows what tells counters, roads, water and the grid apart without colour)."""
    if app.settings.theme != "monochrome":
        return text
    colours = map_colours(app)
    assert all(is_grey(c) for c in colours), f"the monochrome map is painted in colours: {sorted(colours)}"
    return f"{text.rstrip()}\n\n--- the map's attributes: R reverse, I italic, B bold, U underlined ---\n" + (
        map_attributes(app)
    )
