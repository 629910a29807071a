"""Provides the hex map widget: a line-API ``ScrollView`` drawing flat-topped hexes with a strip cache.

Layout: flat-topped hexes in the ``CCRR`` layout, even columns half a hex lower. Each hex is 5 cells wide and
2 rows high between its slanted sides (columns step 6 cells), so a map of C columns and R rows is ``6C + 1``
cells wide and ``2R + 2`` rows high::

     01    02    03
     _____       _____
    /GT2+1\\_____/ ~ ~ \\
    \\♣1_★N/─╲ ╱─\\~~~~~/
    /     \\⌂1___/ ~ ~ \\

The top row of a hex shows its top unit (side letter, type glyph, remaining steps) and the stack count or the
unit's markers, or the terrain glyph when it is empty; the floor row (underlined: it is the hex's south side)
shows terrain glyph, elevation, hex marker and unit marker, or an overlay (movement cost, odds, line of sight).
Roads are lines from a hex's centre toward each hex they lead to (``─╲`` north-west, ``│`` north, ``╱─``
north-east on the top row; ``─╱``, ``│``, ``╲─`` on the floor row), drawn under counters and markers. A hexside
feature (river ``≈``, stream ``~``, wall ``#``) replaces the border along that side, and so does water between two
hexes of a river of hexes (the presentation's ``water_terrain``), so that a river reads as one line. Column and row
labels stay on the frame, with a compass at the top right; the map scrolls sideways by whole hex columns, so that
no half hex is drawn next to the row labels.

Each map row is cached as a full-width :class:`~textual.strip.Strip`; a change to a hex drops only that hex's
two rows from the cache and refreshes only the hex's region, so moving the cursor redraws two hexes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import var
from textual.scroll_view import ScrollView
from textual.strip import Strip

from engine import Board, Hex
from engine.hexgrid import DIRECTION_NAMES, DIRECTIONS, hex_to_offset, offset_to_hex

from ..marks import HexContent, Overlay, UnitMark
from ..theme import DEFAULT_THEME, MapPalette, map_palette

__all__ = ["CELL", "HexContent", "HexMap", "Overlay", "UnitMark"]

CELL = 5
"""Cells inside a hex, per row."""
STEP = CELL + 1
"""Columns from one hex column to the next."""

_DIRS: dict[str, Hex] = dict(zip(DIRECTION_NAMES, DIRECTIONS, strict=True))
_COMPASS = {"top": "N↑", "left": "N←", "right": "N→", "bottom": "N↓"}
_UNDERLINE = Style(underline=True)
_SIDE_FEATURES = ("rivers", "streams", "walls")
"""Hexside features the map draws, the strongest first."""
WATER = "water"
"""The hexside between two hexes of a river of hexes (the presentation's ``water_terrain``)."""
SIDE_GLYPHS = {"rivers": "≈", "streams": "~", "walls": "#", WATER: "~"}
"""Hexside feature → the glyph that replaces the hex border along that side (``_____``, ``/``, ``\\``)."""
ROAD_CELLS: dict[str, tuple[str, int, str]] = {
    "nw": ("top", 0, "─╲"),
    "n": ("top", 2, "│"),
    "ne": ("top", 3, "╱─"),
    "sw": ("floor", 0, "─╱"),
    "s": ("floor", 2, "│"),
    "se": ("floor", 3, "╲─"),
}
"""Direction of a road → the hex row, first cell and glyphs of its line from the hex's centre to that side."""
ROAD_GLYPHS = "─╱╲│"
"""The glyphs roads are drawn with."""


class HexMap(ScrollView, can_focus=True):
    """The hex map: terrain, units, markers, overlays and a cursor, drawn with the line API."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("w,up,8", "cursor('n')", "North", show=False, id="map.n"),
        Binding("s,down,2", "cursor('s')", "South", show=False, id="map.s"),
        Binding("e,9", "cursor('ne')", "North-east", show=False, id="map.ne"),
        Binding("d,3", "cursor('se')", "South-east", show=False, id="map.se"),
        Binding("a,1", "cursor('sw')", "South-west", show=False, id="map.sw"),
        Binding("q,7", "cursor('nw')", "North-west", show=False, id="map.nw"),
        Binding("left,4", "cursor_row(-1)", "West", show=False, id="map.left"),
        Binding("right,6", "cursor_row(1)", "East", show=False, id="map.right"),
        Binding("enter,space,5", "select", "Select", id="map.select"),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | w, up, 8 | Move the cursor one hex up the screen. |
    | s, down, 2 | Move the cursor one hex down the screen. |
    | e, 9 / d, 3 | Move the cursor up-right / down-right. |
    | q, 7 / a, 1 | Move the cursor up-left / down-left. |
    | left, 4 / right, 6 | Move the cursor along the screen row (zigzag through the columns). |
    | enter, space, 5 | Select the hex under the cursor. |
    """

    KEY_HELP: ClassVar[dict[str, str]] = {
        "map.n": "cursor one hex up the screen",
        "map.s": "cursor one hex down the screen",
        "map.ne": "cursor up-right",
        "map.se": "cursor down-right",
        "map.sw": "cursor down-left",
        "map.nw": "cursor up-left",
        "map.left": "cursor left along the screen row",
        "map.right": "cursor right along the screen row",
        "map.select": "select a unit here, or give the selected unit's order for this hex",
    }
    """Binding id → what the help screen says."""

    DEFAULT_CSS = """
    HexMap {
        scrollbar-size: 1 1;
    }
    """

    contents: var[Mapping[Hex, HexContent]] = var(dict, init=False, always_update=True)
    """What stands in each hex (units, markers); a hex not in it is empty."""
    overlay: var[Mapping[Hex, Overlay]] = var(dict, init=False, always_update=True)
    """The overlays shown now (reachable hexes, targets, line of sight...). Both are compared hex by hex when set
    (only the changed hexes are redrawn), not as a whole first."""

    class CursorMoved(Message):
        """Posted when the cursor moves to another hex."""

        def __init__(self, hex_map: HexMap, hex: Hex) -> None:
            super().__init__()
            self.hex_map = hex_map
            self.hex = hex

        @property
        def control(self) -> HexMap:
            """The map that sent the message."""
            return self.hex_map

    class HexSelected(Message):
        """Posted when the player confirms the hex under the cursor (Enter)."""

        def __init__(self, hex_map: HexMap, hex: Hex) -> None:
            super().__init__()
            self.hex_map = hex_map
            self.hex = hex

        @property
        def control(self) -> HexMap:
            """The map that sent the message."""
            return self.hex_map

    def __init__(
        self,
        board: Board,
        *,
        terrain_glyphs: Mapping[str, str] | None = None,
        terrain_looks: Mapping[str, str] | None = None,
        water: Iterable[str] = (),
        palette: MapPalette | None = None,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.board = board
        self.terrain_glyphs = dict(terrain_glyphs or {})
        self.terrain_looks = dict(terrain_looks or {})
        self.palette = palette or map_palette(DEFAULT_THEME)
        self.cols, self.rows = board.cols, board.rows
        self.label_width = len(str(self.rows)) + 1
        self.map_width = STEP * self.cols + 1
        self.map_height = 2 * self.rows + 2
        self.cursor: Hex = offset_to_hex(1, 1)
        self._content: Mapping[Hex, HexContent] = {}
        self._overlay: Mapping[Hex, Overlay] = {}
        self._rows: dict[int, Strip] = {}
        self._roads: dict[Hex, frozenset[str]] = {}
        """Road hexes → the directions their road leaves in (one line from the centre toward each)."""
        self._sides: dict[frozenset[Hex], str] = {}
        """Hexsides with a feature (stream, river, wall, a river of hexes) → the feature, drawn on the border."""
        wet = {h for h, c in board.cells.items() if c.terrain in set(water)}
        for a in board:
            dirs = frozenset(d for d, v in _DIRS.items() if a + v in board and board.has_road(a, a + v))
            if dirs:
                self._roads[a] = dirs
            for b in a.neighbours():
                edge = board.hexside(a, b) if b in board else {}
                feature = next((f for f in _SIDE_FEATURES if edge.get(f)), None)
                if feature is None and a in wet and b in wet:
                    feature = WATER
                if feature is not None:
                    self._sides[frozenset((a, b))] = feature
        self._header: Strip | None = None
        self._looks: dict[tuple[str, int, frozenset[str], str, str], list[Segment]] = {}
        """Painted rows of hexes with nothing on them, by (terrain, level, road, top|floor, south side)."""
        self._styles: dict[tuple[Style, Style], Style] = {}
        self._base: Style | None = None
        self.rendered_lines = 0
        """How many lines were rendered (benchmarks and tests read it)."""
        self.virtual_size = Size(self.label_width + self.map_width, 1 + self.map_height)

    # --- Geometry ---------------------------------------------------------------------------------------

    def hex_origin(self, h: Hex) -> tuple[int, int]:
        """Map coordinates of a hex: the x of its left slant and the y of its top row."""
        col, row = hex_to_offset(h)
        return STEP * (col - 1), 2 * row - 1 + (1 if col % 2 == 0 else 0)

    def _cell(self, q: int, y: int) -> tuple[str, Hex | None]:
        """What column ``q`` shows on map row ``y``: ``top``, ``floor``, ``edge`` (the top border) or ``none``."""
        col = q + 1
        yy = y - (1 if col % 2 == 0 else 0)
        if yy == 0:
            return "edge", None
        if yy < 0:
            return "none", None
        row = (yy + 1) // 2
        if row > self.rows:
            return "none", None
        h = offset_to_hex(col, row)
        if h not in self.board:
            return "none", None
        return ("top" if yy % 2 == 1 else "floor"), h

    def hex_at(self, x: int, y: int) -> Hex | None:
        """The hex under map coordinates ``(x, y)``, if any."""
        q = x // STEP
        if x % STEP == 0 or not 0 <= q < self.cols:
            return None
        kind, h = self._cell(q, y)
        return h if kind in ("top", "floor") else None

    # --- Content ----------------------------------------------------------------------------------------

    def set_palette(self, palette: MapPalette) -> None:
        """Paint with another palette (a theme change): everything is redrawn."""
        if palette is self.palette:
            return
        self.palette = palette
        self._rows.clear()
        self._looks.clear()
        self._styles.clear()
        self._header = None
        self.refresh()

    def set_content(self, content: Mapping[Hex, HexContent]) -> None:
        """Show units and markers (:attr:`contents`); only hexes whose content changed are redrawn."""
        self.contents = dict(content)

    def set_overlay(self, overlay: Mapping[Hex, Overlay]) -> None:
        """Show overlays (:attr:`overlay`); only changed hexes are redrawn."""
        self.overlay = dict(overlay)

    def watch_contents(self, old: Mapping[Hex, HexContent], new: Mapping[Hex, HexContent]) -> None:
        self._content = new
        self._invalidate(h for h in set(old) | set(new) if old.get(h) != new.get(h))

    def watch_overlay(self, old: Mapping[Hex, Overlay], new: Mapping[Hex, Overlay]) -> None:
        self._overlay = new
        self._invalidate(h for h in set(old) | set(new) if old.get(h) != new.get(h))

    def content(self, h: Hex) -> HexContent | None:
        """What the map shows in a hex."""
        return self._content.get(h)

    def _view_x(self) -> int:
        """The first map column in view: the scroll offset rounded to a whole hex column (down, or up at the right
        end of the map), so that no half hex is drawn next to the row labels."""
        sx = self.scroll_offset.x
        snapped = sx - sx % STEP
        if snapped != sx and sx >= self.max_scroll_x:
            snapped += STEP
        return snapped

    def _invalidate(self, hexes: Iterable[Hex]) -> None:
        sx, sy = self._view_x(), self.scroll_offset.y
        for h in hexes:
            if h not in self.board:
                continue
            x, y = self.hex_origin(h)
            self._rows.pop(y, None)
            self._rows.pop(y + 1, None)
            self.refresh(Region(self.label_width + x - sx, 1 + y - sy, STEP + 1, 2))

    # --- Cursor -----------------------------------------------------------------------------------------

    def move_cursor(self, h: Hex, *, scroll: bool = True) -> bool:
        """Put the cursor on ``h`` (if on the map); True if it moved."""
        if h not in self.board or h == self.cursor:
            if scroll and h in self.board:
                self.scroll_to_hex(h)
            return False
        old, self.cursor = self.cursor, h
        self._invalidate((old, h))
        if scroll:
            self.scroll_to_hex(h)
        self.post_message(self.CursorMoved(self, h))
        return True

    def scroll_to_hex(self, h: Hex, margin: int = 2) -> None:
        """Scroll the least needed for ``h`` to be in view."""
        x, y = self.hex_origin(h)
        width = max(1, self.scrollable_content_region.width - self.label_width)
        height = max(1, self.scrollable_content_region.height - 1)
        sx, sy = self._view_x(), self.scroll_offset.y
        nx, ny = self.scroll_offset
        if x < sx:
            nx = max(0, x - margin * STEP)
        elif x + STEP + 1 > sx + width:
            nx = x + STEP + 1 - width + margin * STEP
            nx += -nx % STEP  # a whole hex column first (see _view_x)
        if y < sy:
            ny = max(0, y - margin)
        elif y + 2 > sy + height:
            ny = y + 2 - height + margin
        nx = max(0, min(nx, self.virtual_size.width - self.scrollable_content_region.width))
        ny = max(0, min(ny, self.virtual_size.height - self.scrollable_content_region.height))
        if (nx, ny) != tuple(self.scroll_offset):
            self.scroll_to(nx, ny, animate=False, immediate=True)

    def action_cursor(self, direction: str) -> None:
        """Move the cursor one hex in a screen direction (``n``, ``ne``, ``se``, ``s``, ``sw``, ``nw``)."""
        self.move_cursor(self.cursor + _DIRS[direction])

    def action_cursor_row(self, dx: int) -> None:
        """Move the cursor one column left or right, zigzagging along the screen row."""
        col, _ = hex_to_offset(self.cursor)
        high = col % 2 == 1  # odd columns sit half a hex higher
        down, up = ("se", "ne") if dx > 0 else ("sw", "nw")
        first, second = (down, up) if high else (up, down)
        target = self.cursor + _DIRS[first]
        if target not in self.board:
            target = self.cursor + _DIRS[second]
        self.move_cursor(target)

    def action_select(self) -> None:
        """Confirm the hex under the cursor."""
        self.post_message(self.HexSelected(self, self.cursor))

    def on_click(self, event: events.Click) -> None:
        """Move the cursor to the clicked hex; a second click on it selects it."""
        sx, sy = self._view_x(), self.scroll_offset.y
        h = self.hex_at(event.x - self.label_width + sx, event.y - 1 + sy)
        if h is None:
            return
        if h == self.cursor:
            self.action_select()
        else:
            self.move_cursor(h, scroll=False)

    # --- Rendering --------------------------------------------------------------------------------------

    def _add(self, a: Style, b: Style) -> Style:
        """``a + b``, cached (a map repaints the same few combinations thousands of times)."""
        key = (a, b)
        style = self._styles.get(key)
        if style is None:
            style = self._styles[key] = a + b
        return style

    def _interior(self, kind: str, h: Hex | None) -> list[Segment]:
        """The five cells of one hex row (or of the top border, or of nothing), widget style included."""
        p = self.palette
        add = self._add
        frame = self._base_style()
        if kind == "edge":
            return [Segment("_" * CELL, add(frame, p.grid))]
        if kind == "none" or h is None:
            return [Segment(" " * CELL, frame)]
        content = self._content.get(h)
        overlay = self._overlay.get(h)
        cell = self.board.cells[h]
        road = self._roads.get(h, frozenset())
        plain = content is None and overlay is None and h != self.cursor
        look = (cell.terrain, cell.level, road, kind, self._sides.get(frozenset((h, h + _DIRS["s"]))) or "")
        if plain:
            cached = self._looks.get(look)
            if cached is not None:
                return cached
        base = add(frame, p.hex_style(self.terrain_looks.get(cell.terrain, cell.terrain), cell.level))
        glyph = self.terrain_glyphs.get(cell.terrain, "")
        segs: list[Segment]
        if kind == "top":
            segs = self._top_cells(base, glyph, road, content)
        elif overlay is not None and overlay.kind != "select":
            segs = [Segment(overlay.text[:CELL].center(CELL, "_"), add(base, self._overlay_style(overlay.kind)))]
        else:
            segs = self._floor_cells(h, base, glyph, str(cell.level) if cell.level > 0 else "", road, content)
        if overlay is not None and overlay.kind == "select":
            segs = [Segment(seg.text, add(seg.style or base, p.selected)) for seg in segs]
        if h == self.cursor:
            segs = [Segment(seg.text, add(seg.style or base, p.cursor)) for seg in segs]
        if plain:
            self._looks[look] = segs
        return segs

    def _road_cells(self, kind: str, road: frozenset[str]) -> dict[int, str]:
        """The cells of a hex row a road line takes (cell index → glyph)."""
        cells: dict[int, str] = {}
        for d in road:
            row, first, glyphs = ROAD_CELLS[d]
            if row == kind:
                for i, g in enumerate(glyphs):
                    cells[first + i] = g
        return cells

    def _top_cells(self, base: Style, glyph: str, road: frozenset[str], content: HexContent | None) -> list[Segment]:
        """The upper row of a hex: its top unit (label, then the stack count or flags), or the terrain glyph and the
        road lines leaving toward the north-west, north and north-east."""
        if content is None or content.unit is None:
            cells = self._road_cells("top", road)
            if not cells:
                return [Segment((f" {glyph} {glyph} " if glyph else " " * CELL)[:CELL], base)]
            text = [" "] * CELL
            spots = [i for i in (1, 3) if i not in cells] or ([2] if 2 not in cells else [])
            for i in spots:
                text[i] = glyph[:1] or " "
            road_style = self._add(base, self.palette.road)
            return [Segment(cells[i], road_style) if i in cells else Segment(text[i], base) for i in range(CELL)]
        p = self.palette
        u = content.unit
        extra = f"+{min(content.count - 1, 9)}" if content.count > 1 else u.flags[:2]
        return [
            Segment(u.label[:3].ljust(3), self._add(base, p.side_style(u.side))),
            Segment(extra.ljust(2), self._add(base, p.marker) if extra else base),
        ]

    def _overlay_style(self, kind: str) -> Style:
        """The palette's style of an overlay kind (reachable hexes when the kind is unknown)."""
        p = self.palette
        return {
            "reach": p.reach,
            "step": p.step,
            "target": p.target,
            "los": p.los,
            "block": p.block,
            "command": p.command,
            "alert": p.alert,
        }.get(kind, p.reach)

    def _floor_cells(
        self, h: Hex, base: Style, glyph: str, level: str, road: frozenset[str], content: HexContent | None
    ) -> list[Segment]:
        """The lower row of a hex, on its south hexside: terrain glyph, level, hex marker and stack flag, and the road
        lines leaving toward the south-west, south and south-east (the glyph gives way to a road, a road to the
        others; a displaced glyph moves to the middle cell when it is free)."""
        p = self.palette
        add = self._add
        marker = content.marker if content is not None else ""
        flag = ""
        if content is not None and content.unit is not None and content.count > 1:
            flag = content.unit.flags[:1]
        text_style = add(base, _UNDERLINE)
        blank = add(base, p.grid)
        marked = add(text_style, p.marker)
        south = self._sides.get(frozenset((h, h + _DIRS["s"])))
        fill = "_"
        if south is not None:
            fill, blank = SIDE_GLYPHS[south], add(base, self._side_style(south))
        roads = self._road_cells("floor", road)
        road_style = add(text_style, p.road)
        parts: list[tuple[str, Style]] = [
            (glyph[:1], text_style),
            (level[:1], text_style),
            ("", text_style),
            (marker[:1], marked),
            (flag, marked),
        ]
        for i, g in roads.items():
            if i == 0 or not parts[i][0]:
                parts[i] = (g, road_style)
        if 0 in roads and glyph and 2 not in roads:
            parts[2] = (glyph[:1], text_style)
        return [Segment(part or fill, style if part else blank) for part, style in parts]

    def _side_style(self, feature: str) -> Style:
        """How a hexside feature is drawn: walls in the palette's wall style, water in its water style."""
        p = self.palette
        return p.wall if feature == "walls" else p.water

    def _base_style(self) -> Style:
        """The widget's own style (background), looked up once per style change."""
        if self._base is None:
            self._base = self.rich_style
        return self._base

    def notify_style_update(self) -> None:
        """The widget's CSS changed (a theme): repaint everything."""
        super().notify_style_update()
        self._base = None
        self._rows.clear()
        self._looks.clear()
        self._styles.clear()
        self._header = None

    def _row(self, y: int) -> Strip:
        """The full-width strip of map row ``y``, the widget's style included (cached)."""
        strip = self._rows.get(y)
        if strip is not None:
            return strip
        grid = self._add(self._base_style(), self.palette.grid)
        blank = self._base_style()
        segs: list[Segment] = []
        prev = "none"
        prev_hex: Hex | None = None
        for q in range(self.cols + 1):
            kind, h = self._cell(q, y) if q < self.cols else ("none", None)
            # The slant at the left of column q: a side of this column's hex, or of the previous column's.
            side: frozenset[Hex] | None = None
            if kind == "top" and h is not None:
                char, side = "/", frozenset((h, h + _DIRS["nw"]))
            elif kind == "floor" and h is not None:
                char, side = "\\", frozenset((h, h + _DIRS["sw"]))
            elif prev == "top" and prev_hex is not None:
                char, side = "\\", frozenset((prev_hex, prev_hex + _DIRS["ne"]))
            elif prev == "floor" and prev_hex is not None:
                char, side = "/", frozenset((prev_hex, prev_hex + _DIRS["se"]))
            else:
                char = " "
            feature = self._sides.get(side) if side is not None else None
            if feature is not None:
                segs.append(Segment(SIDE_GLYPHS[feature], self._add(blank, self._side_style(feature))))
            else:
                segs.append(Segment(char, grid if char != " " else blank))
            if q < self.cols:
                segs.extend(self._interior(kind, h))
            prev, prev_hex = kind, h
        strip = Strip(segs, self.map_width).simplify()
        self._rows[y] = strip
        return strip

    def _header_strip(self) -> Strip:
        if self._header is None:
            label = self.palette.label
            segs = [Segment(" ")]
            for q in range(self.cols):
                segs.append(Segment(f"{q + 1:02d}".center(CELL) + " ", label))
            self._header = Strip(segs).adjust_cell_length(self.map_width + 1)
        return self._header

    def render_line(self, y: int) -> Strip:
        """One line of the widget: the column labels, or a map row with its row label."""
        self.rendered_lines += 1
        width = self.size.width
        sx, sy = self._view_x(), self.scroll_offset.y
        base = self._base_style()
        view_w = max(0, width - self.label_width)
        if y == 0:
            compass = _COMPASS.get(self.board.north, "N↑")
            head = self._header_strip().crop(sx, sx + view_w)
            strip = Strip.join([Strip.blank(self.label_width), head]).adjust_cell_length(width)
            if width >= len(compass) + 1:
                strip = Strip.join(
                    [strip.crop(0, width - len(compass) - 1), Strip([Segment(compass + " ", self.palette.compass)])]
                )
            return strip.apply_style(base)
        my = y - 1 + sy
        if my >= self.map_height:
            return Strip.blank(width, base)
        row_label = ""
        if my % 2 == 1 and (my + 1) // 2 <= self.rows:
            row_label = f"{(my + 1) // 2:0{self.label_width - 1}d}"
        gutter = Strip([Segment(row_label.ljust(self.label_width), self._add(base, self.palette.label))])
        return Strip.join([gutter, self._row(my).crop(sx, sx + view_w)]).adjust_cell_length(width, base)

    def on_resize(self, event: events.Resize) -> None:
        """Keep the cursor in view when the widget changes size."""
        self.call_after_refresh(self.scroll_to_hex, self.cursor)
