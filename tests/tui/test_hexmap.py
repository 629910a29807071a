"""The hex map widget: CCRR geometry, drawing, the six direction keys, and redrawing only what changed."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult

import engine
from engine import Hex, parse_hex
from engine.hexgrid import DIRECTION_NAMES, DIRECTIONS, hex_label
from engine.presentation import TERRAIN_GLYPHS
from tui.client import LocalClient
from tui.widgets.hexmap import HexContent, HexMap, Overlay, UnitMark


@pytest.fixture(scope="module")
def board() -> engine.Board:
    return engine.new_game(engine.load_scenario("blitzkrieg1940", "hannut"), seed=1).board


class MapApp(App[None]):
    def __init__(self, board: engine.Board) -> None:
        super().__init__()
        self.board = board

    def compose(self) -> ComposeResult:
        yield HexMap(self.board, terrain_glyphs=TERRAIN_GLYPHS)


def _lines(app: MapApp) -> list[str]:
    return [s.text.rstrip() for s in app.screen._compositor.render_strips()]


def test_geometry_round_trip(board: engine.Board) -> None:
    m = HexMap(board)
    assert m.map_width == 6 * 18 + 1 and m.map_height == 2 * 16 + 2
    for h in board:
        x, y = m.hex_origin(h)
        for dx in range(1, 6):
            assert m.hex_at(x + dx, y) == h
            assert m.hex_at(x + dx, y + 1) == h
        assert m.hex_at(x, y) is None  # the slanted side belongs to no hex
    # Even columns sit half a hex lower: 0201's top row is one below 0101's.
    assert m.hex_origin(parse_hex("0201"))[1] == m.hex_origin(parse_hex("0101"))[1] + 1


async def test_draws_frame_hexes_units_and_overlays(board: engine.Board) -> None:
    app = MapApp(board)
    async with app.run_test(size=(80, 24)) as pilot:
        m = app.query_one(HexMap)
        m.set_content({parse_hex("0101"): HexContent(UnitMark(0, "GT2", "N"), 2, "★", 1)})
        m.set_overlay({parse_hex("0201"): Overlay("reach", "2.5"), parse_hex("0102"): Overlay("target", "◎42%")})
        await pilot.pause()
        lines = _lines(app)
    assert lines[0].split()[:3] == ["01", "02", "03"]  # column labels
    assert lines[0].rstrip().endswith("N↑")  # compass: Hannut is north-up
    assert lines[1].startswith("    _____       _____")
    assert lines[2].startswith("01 /GT2+1\\_____/")  # row label, counter and stack count
    assert lines[3].startswith("   \\___★N/     \\")  # 0101's floor: hex marker and unit flag
    assert lines[4].startswith("02 /     \\_2.5_/")  # 0201 (half a hex lower): its movement cost
    assert "◎42%" in lines[5]


async def test_stonne_compass_points_left() -> None:
    stonne = engine.new_game(engine.load_scenario("blitzkrieg1940", "stonne"), seed=1).board
    app = MapApp(stonne)
    async with app.run_test(size=(90, 30)):
        assert _lines(app)[0].rstrip().endswith("N←")


DIRECTION_KEYS = {"w": "n", "e": "ne", "d": "se", "s": "s", "a": "sw", "q": "nw"}
KEYPAD_KEYS = {"8": "n", "9": "ne", "3": "se", "2": "s", "1": "sw", "7": "nw"}


@pytest.mark.parametrize("keys", [DIRECTION_KEYS, KEYPAD_KEYS, {"up": "n", "down": "s"}])
async def test_six_directions(board: engine.Board, keys: dict[str, str]) -> None:
    steps = dict(zip(DIRECTION_NAMES, DIRECTIONS, strict=True))
    app = MapApp(board)
    async with app.run_test(size=(100, 30)) as pilot:
        m = app.query_one(HexMap)
        for start in ("0505", "0605"):
            for key, direction in keys.items():
                m.move_cursor(parse_hex(start))
                await pilot.press(key)
                assert m.cursor == parse_hex(start) + steps[direction], (start, key)


async def test_left_right_zigzag_along_the_row(board: engine.Board) -> None:
    app = MapApp(board)
    async with app.run_test(size=(100, 30)) as pilot:
        m = app.query_one(HexMap)
        m.move_cursor(parse_hex("0505"))
        seen = []
        for _ in range(4):
            await pilot.press("right")
            seen.append(hex_label(m.cursor))
        assert seen == ["0605", "0705", "0805", "0905"]
        await pilot.press("left", "left")
        assert hex_label(m.cursor) == "0705"


async def test_cursor_move_redraws_only_two_hexes(board: engine.Board) -> None:
    app = MapApp(board)
    async with app.run_test(size=(160, 48)) as pilot:
        m = app.query_one(HexMap)
        await pilot.pause()
        cached = set(m._rows)
        assert len(cached) >= 30  # the whole visible map is cached after the first paint
        before = m.rendered_lines
        await pilot.press("s")
        await pilot.pause()
        # Only the old and new cursor hexes' rows were dropped from the cache and rendered again.
        assert m.rendered_lines - before <= 4
        assert len(cached - set(m._rows)) == 0


class SelectingApp(MapApp):
    def __init__(self, board: engine.Board) -> None:
        super().__init__(board)
        self.selected: list[Hex] = []

    def on_hex_map_hex_selected(self, event: HexMap.HexSelected) -> None:
        self.selected.append(event.hex)


async def test_click_moves_the_cursor_then_selects(board: engine.Board) -> None:
    app = SelectingApp(board)
    async with app.run_test(size=(100, 30)) as pilot:
        m = app.query_one(HexMap)
        x, y = m.hex_origin(parse_hex("0303"))
        await pilot.click(HexMap, offset=(m.label_width + x + 2, 1 + y))
        assert m.cursor == parse_hex("0303") and app.selected == []
        await pilot.click(HexMap, offset=(m.label_width + x + 2, 1 + y))
        await pilot.pause()
        assert app.selected == [parse_hex("0303")]


async def test_cursor_scrolls_into_view(board: engine.Board) -> None:
    app = MapApp(board)
    async with app.run_test(size=(80, 24)) as pilot:
        m = app.query_one(HexMap)
        for _ in range(15):
            await pilot.press("d")
        await pilot.pause()
        x, y = m.hex_origin(m.cursor)
        sx, sy = m.scroll_offset
        assert sx <= x and x + 7 <= sx + m.size.width - m.label_width
        assert sy <= y and y + 2 <= sy + m.size.height - 1


def creek(sides: str) -> engine.Board:
    """A 3×2 map of open ground with the hexside features ``sides`` (map file lines)."""
    text = 'id = "creek"\ntitle = "Creek"\nsize = [3, 2]\nterrain = """\n.0 .0 .0\n.0 .0 .0\n"""\n' + sides
    codes = {".": "open"}
    return engine.Board(engine.parse_map(text, "creek.map", codes), codes)


async def test_streams_are_drawn_on_their_hexsides() -> None:
    app = MapApp(creek('streams = ["0101-0102", "0101-0201"]\n'))
    async with app.run_test(size=(40, 12)) as pilot:
        await pilot.pause()
        lines = _lines(app)
        strips = app.screen._compositor.render_strips()
        m = app.query_one(HexMap)
    assert lines[3].startswith("  \\~~~~~~")  # 0101's south side (to 0102) is a stream; its south-east slant too
    x, _ = m.hex_origin(parse_hex("0201"))
    slant = next(seg for seg in strips[3].crop(m.label_width + x, m.label_width + x + 1))
    assert slant.text == "~" and slant.style is not None and slant.style.bold


async def test_a_rulesets_own_terrain_is_drawn_in_the_colour_of_its_look() -> None:
    """Contract: HACSE's dense forest is coloured as woods through its presentation's ``terrain_looks`` (the
    client knows no ruleset's terrain); without the look it would be the fallback grey."""
    game = engine.new_game(engine.load_scenario("hacse", "h1-le-hamel"), seed=1)
    board = game.board
    forest = next(h for h, c in sorted(board.cells.items()) if c.terrain == "dense_forest")
    presenter = engine.get_ruleset("hacse").presentation(LocalClient(game, game.state.sides[0]).info)

    class LookApp(App[None]):
        def compose(self) -> ComposeResult:
            yield HexMap(board, terrain_glyphs=presenter.terrain_glyphs, terrain_looks=presenter.terrain_looks)

    app = LookApp()
    async with app.run_test(size=(200, 60)) as pilot:
        m = app.query_one(HexMap)
        await pilot.pause()
        x, y = m.hex_origin(forest)
        row = m._row(y + 1)
        cells = [seg.style for seg in row for _ in seg.text]
        bgs = {st.bgcolor for st in cells[x + 1 : x + 5] if st is not None}
    level = board.cells[forest].level
    assert m.palette.hex_style("woods", level).bgcolor in bgs
    assert m.palette.hex_style("dense_forest", level).bgcolor not in bgs  # the grey it was drawn in before
