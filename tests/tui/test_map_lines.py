"""Issue 18 item 5: the map reads like a wargame map: roads and rivers are lines from hex to hex, and the legend
explains their glyphs."""

from __future__ import annotations

from engine import Hex
from tui.app import PlanspielApp, Start
from tui.legend import legend
from tui.screens.game import GameScreen
from tui.widgets.hexmap import ROAD_GLYPHS, SIDE_GLYPHS, STEP

from .conftest import hannut, make_app, screen_text
from .test_hexmap import MapApp, _lines, creek

P1 = Start("new", "art_of_tactic", "p1-grenzgefecht", {"german": "human", "soviet": "human"}, 7)


def _game(app: PlanspielApp) -> GameScreen:
    return next(s for s in app.screen_stack if isinstance(s, GameScreen))


def cells(app: PlanspielApp, h: Hex, row: int, first: int = 0, last: int = STEP) -> str:
    """What the screen shows on a hex's top (``row`` 0) or floor (1) row, from the cell ``first`` to ``last`` (0 and
    6 are its slanted sides, 1 to 5 its inside; beyond 6 the next column)."""
    m = _game(app).map
    x, y = m.hex_origin(h)
    sx, sy = m.scroll_offset
    sx -= sx % STEP  # the map scrolls by whole hex columns
    line = screen_text(app).splitlines()[m.region.y + 1 + y + row - sy]
    left = m.region.x + m.label_width + x - sx
    return line[left + first : left + last + 1]


async def test_a_road_is_a_line_from_hex_to_hex() -> None:
    """Hannut's road B runs 0502 (Marilles), 0503, 0403 (Orp-le-Grand): a line down from 0502's centre to 0503's,
    then one down-left across the hexside into 0403 (the old map put a ``═`` in each road hex)."""
    app = make_app(hannut())
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        await pilot.press("m")
        await pilot.pause()
        board = _game(app).info.board
        h0502, h0503, h0403 = (board.parse(label) for label in ("0502", "0503", "0403"))
        assert cells(app, h0502, 1, 3, 3) == "│", "south from 0502's centre, on its floor row (its south side)"
        assert cells(app, h0503, 0, 3, 3) == "│", "on into 0503 from the north"
        # 0503's floor row: the road leaves south-west (─╱) across the slanted side (\) into 0403's north-east (╱─).
        assert cells(app, h0503, 1, 0, 2) == "\\─╱"
        assert cells(app, h0403, 0, 4, 6) == "╱─\\"
        assert cells(app, h0403, 0, 4, 8) == "╱─\\─╱", "one line across the hexside"


async def test_the_river_of_p1_is_one_line_of_water_with_its_bridge() -> None:
    """Art of Tactic P-1: the river runs down column 08 as river hexes (0805 the bridge, 0809 the ford); the edge
    between two of them is drawn as water (it was the hex border ``_____``), and the main road crosses the bridge."""
    app = make_app(P1)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        board = _game(app).info.board
        river = [board.parse(f"08{r:02d}") for r in range(1, 11)]
        for upper in river[:-1]:
            floor = cells(app, upper, 1, 1, 5)
            assert floor[1:] == "~~~~", f"the edge below {board.label(upper)} is water: {floor!r}"
        bridge = board.parse("0805")
        assert cells(app, bridge, 0, 1, 5) == "─╲Ξ╱─", "the bridge: the road comes in from the north-west, leaves"
        assert cells(app, board.parse("0705"), 1, 4, 5) == "╲─", "the road leaves 0705 south-east for the bridge"
        assert cells(app, board.parse("0905"), 1, 1, 2) == "─╱", "and enters 0905 from the south-west"
        assert cells(app, board.parse("0810"), 1, 1, 5) == "~____", "the map ends below 0810: a plain border"


async def test_a_river_along_hexsides_replaces_their_borders() -> None:
    """A river on hexsides (a map's ``rivers``): the south side of 0101 and its south-east slant are drawn ``≈`` (the
    slant was a coloured ``/``, which the monochrome theme did not tell from the grid)."""
    app = MapApp(creek('rivers = ["0101-0102", "0101-0201"]\nwalls = ["0201-0301"]\n'))
    async with app.run_test(size=(40, 12)) as pilot:
        await pilot.pause()
        lines = _lines(app)
    # Row 2 of the screen's map: 0101's floor (its south side, then its south-east slant, to 0201), 0201's top row
    # and its north-east slant (to 0301), a wall.
    assert lines[3].startswith("  \\≈≈≈≈≈≈     #_____/"), lines[3]


async def test_the_legend_explains_the_lines_the_map_draws() -> None:
    """Every road and water glyph drawn on the P-1 and Hannut maps is in the legend."""
    for start in (P1, hannut()):
        app = make_app(start)
        async with app.run_test(size=(160, 48)) as pilot:
            await pilot.pause()
            if not isinstance(app.screen, GameScreen):
                await pilot.press("m")  # close the first list of choices to see the table
                await pilot.pause()
            screen = _game(app)
            m = screen.map
            lines = screen_text(app).splitlines()[m.region.y : m.region.bottom]
            text = "\n".join(line[m.region.x : m.region.right] for line in lines)
            drawn = {c for c in text if c in ROAD_GLYPHS or c in SIDE_GLYPHS.values()}
            assert drawn, "the map draws roads and water"
            view = screen.client.view()
            explained = "".join(e.glyph for e in legend(view, screen.presenter, screen.info.board))
            assert drawn <= set(explained), f"not in the legend: {sorted(drawn - set(explained))}"
