"""Provides the map's legend: what each glyph in view means, in the words of the ruleset's presentation.

The counters (side letter, type letter, steps), the markers on units and hexes, the terrain glyphs, the levels,
roads and hexside features, and the overlays the table draws (movement costs, steps, odds, line of sight,
command ranges) are explained by :func:`legend` for the whole view or for one hex (the hex panel's line); pure
functions of the view, the presentation and the overlay, tested without Textual.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from engine import Board, GameState, Hex, Unit
from engine.presentation import Presentation

from .marks import Overlay

__all__ = ["GROUPS", "Entry", "hex_legend", "legend", "ordered"]

_SIDE_FEATURES = {
    "rivers": ("≈", "a river along the hexside (drawn in place of the hex's edge there)"),
    "streams": ("~", "a stream along the hexside (drawn in place of the hex's edge there)"),
    "walls": ("#", "a wall along the hexside (drawn in place of the hex's edge there)"),
}

_OVERLAYS: tuple[tuple[str, str, str], ...] = (
    ("reach", "3", "movement points the selected unit needs to reach the hex (Enter there moves it, step by step)"),
    ("step", "»1", "a step the selected unit may take now, with its cost (Enter moves it there)"),
    ("step", "+", "a unit may be placed (set up, arrive) here"),
    ("target", "◎42%", "a target of the selected unit, with the chance that its fire has an effect"),
    ("target", "◎sa", "a barrage target (the letters name the kind of barrage)"),
    ("target", "×", "close combat (an assault) into this hex"),
    ("los", "·", "the line of sight runs through this hex"),
    ("block", "✗", "the line of sight is blocked here"),
    ("command", "┆2┆", "inside the HQ's command range, hexes from the HQ"),
    ("alert", "HINT", "the AI's hint (H plays it)"),
)
"""Overlay kind, an example of its text, what it means."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of the legend: the glyph as the map draws it, what it means, and its group."""

    glyph: str
    meaning: str
    group: str


def _unit_entries(view: GameState, presenter: Presentation, units: Sequence[Unit]) -> list[Entry]:
    out: dict[tuple[str, str], Entry] = {}
    kinds: dict[str, list[str]] = {}
    for u in units:
        label = presenter.unit_label(u)
        side = presenter.info.side_name(u.side)
        letter, kind, steps = label[:1], label[1:2], label[2:3]
        out.setdefault(("side", letter), Entry(letter, f"first letter of a counter: {side}", "counters"))
        if kind == "?":
            name = "a unit your side has not identified"
        else:
            name = str(presenter.unit_type(u).get("kind", "")).replace("_", " ") or presenter.unit_name(u)
        if name not in kinds.setdefault(kind, []):
            kinds[kind].append(name)
        out[("kind", kind)] = Entry(kind, f"second letter of a counter: {', '.join(kinds[kind])}", "counters")
        if steps == "·":
            out.setdefault(("steps", "·"), Entry("·", "third cell: a unit without steps (an HQ)", "counters"))
        else:
            out.setdefault(("steps", "n"), Entry("2", "third cell: the steps the unit has left", "counters"))
        for m in presenter.unit_markers(u):
            out.setdefault(("unit", m.glyph), Entry(m.glyph, m.text, "markers on units"))
        here = [x for x in units if x.hex == u.hex]
        if len(here) > 1:
            out.setdefault(
                ("count", "+"),
                Entry(
                    "+1",
                    "after the top counter: how many more units share the hex "
                    "(the first one's marker then sits at the lower right)",
                    "counters",
                ),
            )
    return list(out.values())


def _hex_entries(view: GameState, presenter: Presentation, board: Board, hexes: Iterable[Hex]) -> list[Entry]:
    out: dict[tuple[str, str], Entry] = {}
    for h in hexes:
        cell = board.cells.get(h)
        if cell is None:
            continue
        glyph = presenter.terrain_glyphs.get(cell.terrain, "")  # as the map draws it
        if glyph:
            name = cell.terrain.replace("_", " ")
            out.setdefault(("terrain", glyph), Entry(glyph, f"terrain: {name}", "terrain"))
        for m in presenter.hex_markers(view, h):
            out.setdefault(("hex", m.glyph), Entry(m.glyph, m.text, "markers on hexes"))
    return list(out.values())


def _board_entries(board: Board, presenter: Presentation) -> list[Entry]:
    out = []
    if any(c.level > 0 for c in board.cells.values()):
        out.append(Entry("1", "after the terrain glyph: the hex's level (elevation)", "terrain"))
    if board.data.lines.get("roads"):
        out.append(
            Entry(
                "─╱╲│",
                "a road: a line from the hex's centre toward each hex the road leads to (under a counter)",
                "terrain",
            )
        )
    water = presenter.water_terrain
    if any(
        board.cells[h].terrain in water and n in board and board.cells[n].terrain in water
        for h in board
        for n in h.neighbours()
    ):
        out.append(Entry("~~~~~", "a river of hexes runs on across this edge into the next hex", "terrain"))
    for feature, (glyph, meaning) in _SIDE_FEATURES.items():
        if board.data.hexsides.get(feature):
            out.append(Entry(glyph, meaning, "terrain"))
    return out


def _overlay_entries(overlay: Mapping[Hex, Overlay]) -> list[Entry]:
    shown = {(o.kind, _shape(o.text)) for o in overlay.values()}
    return [
        Entry(example, meaning, "on the map now")
        for kind, example, meaning in _OVERLAYS
        if (kind, _shape(example)) in shown
    ]


def _shape(text: str) -> str:
    """What kind of overlay text: digits become 9, so that ``3`` and ``12`` are the same entry."""
    if text.startswith("◎"):
        return "◎%" if text.endswith("%") or text == "◎" else "◎ab"
    if text.startswith("»"):
        return "»"
    return "".join("9" if c.isdigit() else c for c in text).replace("99", "9").replace(".9", "")


def legend(
    view: GameState, presenter: Presentation, board: Board, overlay: Mapping[Hex, Overlay] | None = None
) -> list[Entry]:
    """Every glyph the map may show now, explained: counters and markers of the units in view, terrain and
    hex markers of the map, and the overlays drawn now."""
    units = sorted((u for u in view.units.values() if u.hex is not None), key=lambda u: u.id)
    return [
        *_unit_entries(view, presenter, units),
        *_hex_entries(view, presenter, board, list(board)),
        *_board_entries(board, presenter),
        *_overlay_entries(overlay or {}),
    ]


GROUPS = ("counters", "markers on units", "terrain", "markers on hexes", "on the map now")
"""The legend's groups, in the order it shows them."""


def ordered(entries: Iterable[Entry]) -> list[Entry]:
    """Entries by group (:data:`GROUPS`), the counters' first letters (sides) before their second (kinds)."""

    def key(e: Entry) -> tuple[int, int, str]:
        kind_letter = e.meaning.startswith("second letter")
        steps = e.meaning.startswith("third cell")
        return (GROUPS.index(e.group) if e.group in GROUPS else len(GROUPS), 2 if steps else int(kind_letter), e.glyph)

    return sorted(entries, key=key)


def hex_legend(
    view: GameState, presenter: Presentation, board: Board, h: Hex, overlay: Mapping[Hex, Overlay] | None = None
) -> list[Entry]:
    """The glyphs of one hex explained (the hex panel's line): its units' counters and markers, its terrain and
    markers, the overlay drawn on it."""
    units = [u for u in view.units.values() if u.hex == h]
    drawn = {h: overlay[h]} if overlay and h in overlay else {}
    return [
        *_unit_entries(view, presenter, units),
        *_hex_entries(view, presenter, board, [h]),
        *_overlay_entries(drawn),
    ]
