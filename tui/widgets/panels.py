"""Provides the game screen's panels: the status bar, the unit panel, the hex panel and the event log.

The screen pushes what a panel shows into its reactive attributes (:attr:`StatusBar.lines`, :attr:`UnitPanel.card`,
:attr:`HexPanel.card`: a side's view and the ruleset's presenter with the unit or hex to show); the panel renders
text from them and never asks the engine.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual.geometry import Region
from textual.reactive import var
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import RichLog, Static

from engine import Event, GameState, Hex, Unit
from engine.presentation import Presentation
from engine.rules import PUBLIC

from ..choices import odds_lines
from ..overlay import effect_chance

__all__ = [
    "EventLog",
    "HexCard",
    "HexPanel",
    "StatusBar",
    "UnitCard",
    "UnitPanel",
    "effect_chance",
    "odds_lines",
    "status_lines",
]

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"

_LOG_LINES = 2000
"""Lines the event log keeps."""


def status_lines(view: GameState, presenter: Presentation, you: str, turns: int, note: str = "") -> tuple[Text, Text]:
    """The status bar's two lines: a view's turn, phase, the ruleset's items and who is to act (``you`` is the side
    reading the screen); then ``note``, or what the engine is waiting for."""
    info = presenter.info
    line = Text()
    line.append(f"Turn {view.turn}/{turns}", style="bold")
    line.append(f" · {view.phase}")
    for item in presenter.status_items(view):
        line.append(f" · {item}")
    to_act = view.to_act if view.outcome is None else None
    line.append("  │ ")
    if to_act is None:
        line.append("game over", style="bold")
    else:
        line.append(f"{info.side_name(to_act)} to act", style="bold reverse")
    line.append("  │ watching: the public view" if you == PUBLIC else f"  │ you: {info.side_name(you)}")
    return line, Text(note or presenter.waiting_for(view), style="italic")


class StatusBar(Static):
    """Two lines: turn, phase, chit and side to act; then what the engine is waiting for."""

    DEFAULT_CSS = """
    StatusBar {
        height: 2;
        padding: 0 1;
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    """

    lines: var[tuple[Text, Text]] = var(lambda: (Text(), Text()), init=False)
    """The two lines (:func:`status_lines`)."""
    thinking: var[str | None] = var(None, init=False)
    """What the AI is doing (the second line, with a spinner) while it thinks."""
    checking: var[str | None] = var(None, init=False)
    """A background check under way (end of the first line, with a spinner): the save's replay check."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self._tick = 0

    def show(self, view: GameState, presenter: Presentation, you: str, turns: int, note: str = "") -> None:
        """Show a view's turn, phase and decision; ``you`` is the side reading the screen."""
        self.lines = status_lines(view, presenter, you, turns, note)

    def watch_lines(self) -> None:
        self._render_text()

    def watch_thinking(self) -> None:
        self._render_text()

    def watch_checking(self) -> None:
        self._render_text()

    def tick(self) -> None:
        """Advance the thinking spinner."""
        self._tick += 1
        self._render_text()

    def _render_text(self) -> None:
        spin = SPINNER[self._tick % len(SPINNER)]
        first, second = self.lines
        if self.checking:
            first = first.copy()
            first.append(f"  │ {spin} {self.checking}", style="italic")
        if self.thinking:
            second = Text(f"{spin} {self.thinking}", style="bold")
        # Two lines, never wrapped into each other (CSS: text-wrap nowrap, an ellipsis where too long).
        self.update(Text("\n").join([first, second]), layout=False)

    @property
    def busy(self) -> bool:
        """True while something shows a spinner."""
        return bool(self.thinking or self.checking)

    @property
    def text(self) -> str:
        """The plain text shown (for tests)."""
        first = self.lines[0].plain + (f"  │ {self.checking}" if self.checking else "")
        return f"{first}\n{self.lines[1].plain}"


class _Panel(Widget):
    """A panel drawn with the line API: a new text repaints only the cells that changed.

    The text is wrapped to the panel's width and kept as one :class:`~textual.strip.Strip` per line. Showing
    another text compares the new lines with the old ones cell by cell and refreshes, per line, only the span
    from the first to the last changed cell: moving the cursor from one hex to the next rewrites a label and
    a few values, not the whole panel (DESIGN §11: about 1 KB per cursor move).
    """

    _shown: Text | None = None

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._strips: list[Strip] = []
        self._cells: list[list[tuple[str, Style | None]]] = []
        self._width = -1
        self._base: Style | None = None
        self._styled: dict[int, Strip] = {}
        """Line → its strip with the widget's style applied (dropped when the line or the style changes)."""
        self.refreshed_cells = 0
        """How many cells the panel asked to repaint (benchmarks and tests read it)."""

    def show_text(self, text: Text) -> None:
        """Show ``text`` unless it is what is shown already; repaint only the changed cells."""
        if self._shown is not None and text == self._shown:
            return
        self._shown = text
        self._rebuild(partial=True)

    def _rebuild(self, *, partial: bool) -> None:
        width = self.content_region.width if self.is_mounted else 0
        if width <= 0 or self._shown is None:
            self._strips, self._cells, self._width = [], [], -1
            self._styled.clear()
            return
        console = self.app.console
        lines = self._shown.wrap(console, width, overflow="crop", no_wrap=False)
        strips: list[Strip] = []
        cells: list[list[tuple[str, Style | None]]] = []
        for line in lines:
            line.rstrip()
            segs = [s for s in line.render(console) if s.text != "\n"]
            strip = Strip(segs).adjust_cell_length(width)
            strips.append(strip)
            cells.append([(ch, seg.style) for seg in strip for ch in seg.text])
        if not partial or width != self._width:
            self._strips, self._cells, self._width = strips, cells, width
            self._styled.clear()
            self.refresh()
            return
        old = self._cells
        for y in range(max(len(old), len(cells))):
            a = old[y] if y < len(old) else []
            b = cells[y] if y < len(cells) else []
            if a == b:
                continue
            n = max(len(a), len(b))
            first = next((x for x in range(n) if x >= len(a) or x >= len(b) or a[x] != b[x]), n)
            last = next((x for x in range(n - 1, -1, -1) if x >= len(a) or x >= len(b) or a[x] != b[x]), -1)
            self._styled.pop(y, None)
            if last >= first:
                self.refreshed_cells += last - first + 1
                self.refresh(Region(first, y, last - first + 1, 1))
        self._strips, self._cells = strips, cells

    def render_line(self, y: int) -> Strip:
        """One line of the panel (the widget's own style under the text's, cached per line)."""
        width = self.content_region.width
        if self._width != width:
            self._rebuild(partial=False)
        if self._base is None:
            self._base = self.rich_style
            self._styled.clear()
        strip = self._styled.get(y)
        if strip is None:
            line = self._strips[y] if 0 <= y < len(self._strips) else Strip.blank(width)
            strip = self._styled[y] = line.apply_style(self._base)
        return strip

    def notify_style_update(self) -> None:
        """The widget's CSS changed (a theme): style every line again."""
        super().notify_style_update()
        self._base = None
        self._styled.clear()

    def on_resize(self) -> None:
        """Wrap the text again for the new width."""
        self._rebuild(partial=False)

    @property
    def text(self) -> str:
        """The plain text shown (for tests)."""
        return self._shown.plain if self._shown is not None else ""


@dataclass(frozen=True, eq=False)
class UnitCard:
    """What the unit panel shows: one unit (or none) of a side's view and the units stacked with it."""

    view: GameState
    presenter: Presentation
    unit: Unit | None
    stack: Sequence[Unit] = ()
    title: str = "Unit"

    def shows_as(self, other: UnitCard | None) -> bool:
        """True if ``other`` shows the same: the same view (a view never changes) and the same units and title."""
        return (
            other is not None
            and other.view is self.view
            and other.presenter is self.presenter
            and other.unit is self.unit
            and other.title == self.title
            and [u.id for u in other.stack] == [u.id for u in self.stack]
        )


class UnitPanel(_Panel):
    """The selected unit (or the top unit under the cursor): values, status, and its stack."""

    DEFAULT_CSS = """
    UnitPanel {
        padding: 0 1;
        height: 18;
        overflow: hidden;
    }
    """

    card: var[UnitCard | None] = var(None, init=False)
    """The unit to show (a card that shows what is shown already is not drawn again; of a new one only the cells
    that changed are repainted)."""

    def watch_card(self, old: UnitCard | None, card: UnitCard | None) -> None:
        if card is not None and not card.shows_as(old):
            self.show_text(unit_text(card))


def unit_text(card: UnitCard) -> Text:
    """The unit panel's text: one unit's id, side, order, values and markers, then the units stacked with it."""
    view, presenter, unit = card.view, card.presenter, card.unit
    t = Text()
    t.append(f"{card.title}\n", style="bold underline")
    if unit is None:
        t.append("no unit here\n", style="dim")
    else:
        # The counter as the map draws it, so that its letters read with the side and type below (issue 18 4).
        t.append(f"{presenter.unit_label(unit)} ")
        t.append(f"{unit.id}", style="bold")
        t.append(f"  {presenter.info.side_name(unit.side)}\n")
        order = presenter.unit_order(view, unit)
        if order is not None:
            t.append(f"{'order':>9} ", style="dim")
            t.append(f"{order}\n", style="bold")
        for name, value in presenter.unit_facts(unit):
            t.append(f"{name:>9} ", style="dim")
            t.append(f"{value}\n")
        markers = presenter.unit_markers(unit)
        if markers:
            t.append(f"{'status':>9} ", style="dim")
            t.append("; ".join(f"{m.glyph} {m.text}" for m in markers) + "\n")
    others = [u for u in card.stack if unit is None or u.id != unit.id]
    if others:
        t.append("stack\n", style="bold")
        for u in others:
            flags = "".join(m.glyph for m in presenter.unit_markers(u))
            t.append(f" {presenter.unit_label(u)} {u.id} {flags}\n")
    return t


@dataclass(frozen=True, eq=False)
class HexCard:
    """What the hex panel shows: one hex of a side's view, and lines about it (line of sight, range...)."""

    view: GameState
    presenter: Presentation
    hex: Hex
    extra: Sequence[str] = field(default=())

    def shows_as(self, other: HexCard | None) -> bool:
        """True if ``other`` shows the same: the same view (a view never changes), hex and lines."""
        return (
            other is not None
            and other.view is self.view
            and other.presenter is self.presenter
            and other.hex == self.hex
            and list(other.extra) == list(self.extra)
        )


class HexPanel(_Panel):
    """The hex under the cursor: label, terrain, level, place, markers, control and what is there."""

    DEFAULT_CSS = """
    HexPanel {
        padding: 0 1;
        height: 1fr;
        overflow: hidden;
    }
    """

    card: var[HexCard | None] = var(None, init=False)
    """The hex to show (a card that shows what is shown already is not drawn again; of a new one only the cells
    that changed are repainted)."""

    def watch_card(self, old: HexCard | None, card: HexCard | None) -> None:
        if card is not None and not card.shows_as(old):
            self.show_text(hex_text(card))


def hex_text(card: HexCard) -> Text:
    """The hex panel's text: label, place, terrain, level, roads, markers, units, then the extra lines."""
    view, presenter, h = card.view, card.presenter, card.hex
    board = view.board
    cell = board.cells[h]
    t = Text()
    t.append(f"Hex {board.label(h)}", style="bold underline")
    place = board.place_of(h)
    if place:
        t.append(f"  {place}", style="bold")
    t.append("\n")
    glyph = presenter.terrain_glyph(cell.terrain)
    t.append(f"{'terrain':>9} ", style="dim")
    t.append(f"{cell.terrain} {glyph}".rstrip() + f" (code {cell.code})\n")
    t.append(f"{'level':>9} ", style="dim")
    t.append(f"{cell.level}\n")
    roads = sorted({str(board.hexside(h, n).get("roads")) for n in h.neighbours() if board.has_road(h, n)})
    if roads:
        t.append(f"{'road':>9} ", style="dim")
        t.append(", ".join(roads) + "\n")
    for m in presenter.hex_markers(view, h):
        t.append(f"{'marker':>9} ", style="dim")
        t.append(f"{m.glyph} {m.text}\n")
    units = presenter.stack_order(view.units_at(h))
    if units:
        t.append(f"{'units':>9} ", style="dim")
        t.append(", ".join(f"{presenter.unit_label(u)} {u.id}" for u in units) + "\n")
    for line in card.extra:
        t.append(f"{line}\n", style="italic")
    return t


class EventLog(RichLog):
    """The event and dice log: every event a side may see, rolls with their purpose, dice and modifiers.

    Units are named as a player reads them (issue 18 item 6) by :attr:`namer`, unless :attr:`show_ids` asks for the
    ids of the notation; the log keeps the lines as written, so that it can show them either way."""

    KIND_STYLES: ClassVar[dict[str, str]] = {
        "roll": "bold",
        "phase": "bold underline",
        "outcome": "bold reverse",
        "loss": "bold",
        "eliminated": "bold",
        "error": "bold",
    }
    KIND_GLYPHS: ClassVar[dict[str, str]] = {
        "roll": "⚂ ",
        "error": "✗ ",
        "phase": "■ ",
        "outcome": "★ ",
        "undo": "↶ ",
        "check": "✓ ",
        "hint": "→ ",
    }

    DEFAULT_CSS = """
    EventLog {
        height: 8;
        border-top: solid $panel-lighten-2;
        scrollbar-size-vertical: 1;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, wrap=True, markup=False, highlight=False, max_lines=_LOG_LINES)
        self.lines_written: list[str] = []
        """Plain text of every line written, as the engine and the table wrote it (ids kept; tests read it)."""
        self.lines_shown: list[str] = []
        """Plain text of the lines the log shows now, as the player reads them (names, or ids with
        :attr:`show_ids`)."""
        self.namer: Callable[[str], str] | None = None
        """Words a line for the player (unit ids → names, :class:`tui.names.UnitNames`); None: as written."""
        self.show_ids = False
        """True: the log shows the raw unit ids (for notation) instead of the names (``I``)."""
        self.waiting_below = 0
        """Lines written while the player had scrolled up to read (shown on the log's border)."""
        self.reading = False
        """True while the player has scrolled up from the end (a write does not move the log then)."""
        self._kept: list[tuple[str, str]] = []

    def add(self, kind: str, text: str) -> None:
        """Write one line; the log follows it unless the player has scrolled up to read, in which case its
        border says how many new lines wait below (issue 18 item 9)."""
        self.lines_written.append(self.KIND_GLYPHS.get(kind, "· ") + text)
        self._kept.append((kind, text))
        if len(self._kept) > _LOG_LINES:
            del self._kept[: len(self._kept) - _LOG_LINES]
        self._write(kind, text, scroll_end=not self.reading)
        if self.reading:
            self.waiting_below += 1
            n = self.waiting_below
            self.border_title = f"▼ {n} new line{'s' if n != 1 else ''} below (End)"

    def _write(self, kind: str, text: str, *, scroll_end: bool) -> None:
        if self.namer is not None and not self.show_ids:
            text = self.namer(text)
        line = Text(self.KIND_GLYPHS.get(kind, "· ") + text, style=self.KIND_STYLES.get(kind, ""))
        if kind == "error":
            line.stylize("bold red")
        self.lines_shown.append(line.plain)
        self.write(line, scroll_end=scroll_end)

    def clear(self) -> EventLog:
        """Empty the log (the lines it keeps to show again too)."""
        self._kept.clear()
        self.lines_shown.clear()
        super().clear()
        return self

    def set_show_ids(self, show: bool) -> None:
        """Show the raw unit ids (True) or the names (False): the kept lines are written again, the player's place
        kept at the end unless they were reading further up."""
        if show == self.show_ids:
            return
        self.show_ids = show
        kept = list(self._kept)
        self.lines_shown.clear()
        super().clear()
        for kind, text in kept:
            self._write(kind, text, scroll_end=not self.reading)

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        """The player scrolled: up from the end, the log keeps their place; back at the end, it follows again."""
        super().watch_scroll_y(old_value, new_value)
        self.reading = new_value < self.max_scroll_y - 1
        if not self.reading and self.waiting_below:
            self.waiting_below = 0
            self.border_title = ""

    def add_events(self, events: Iterable[Event]) -> None:
        """Write events."""
        for e in events:
            self.add(e.kind, e.text)
