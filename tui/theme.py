"""Provides the three Planspiel themes (default, monochrome, colour-blind) and the map palette of each.

The Textual themes colour the panels; :class:`MapPalette` holds the Rich styles the hex map paints with. In
every theme the meaning of the map never rests on colour alone: sides have letters, overlays have glyphs
(costs, ``»`` for the next legal steps, ``◎`` for targets, ``·`` for a line of sight, ``✗`` for its blocker).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import cache

from rich.color import Color
from rich.style import Style
from textual.theme import Theme

__all__ = [
    "DEFAULT_THEME",
    "THEMES",
    "THEME_NAMES",
    "MapPalette",
    "default_theme_name",
    "map_palette",
    "textual_theme",
]

DEFAULT_THEME = "default"
"""The theme a player starts with (its name is the word the settings file and the command palette use)."""
THEME_NAMES: tuple[str, ...] = (DEFAULT_THEME, "monochrome", "colour-blind")
"""The themes a player can pick in the settings."""


def default_theme_name() -> str:
    """``monochrome`` when ``NO_COLOR`` is set (https://no-color.org), else ``default``."""
    return "monochrome" if os.environ.get("NO_COLOR") is not None else DEFAULT_THEME


THEMES: dict[str, Theme] = {
    DEFAULT_THEME: Theme(
        name="planspiel",
        primary="#c8a45a",
        secondary="#7fa7d9",
        accent="#d9a441",
        warning="#e0b040",
        error="#e05050",
        success="#6fbf6f",
        foreground="#e6e1d6",
        background="#1b1d1a",
        surface="#262923",
        panel="#31352c",
        dark=True,
    ),
    "monochrome": Theme(
        name="planspiel-monochrome",
        primary="#d0d0d0",
        secondary="#a0a0a0",
        accent="#ffffff",
        warning="#ffffff",
        error="#ffffff",
        success="#ffffff",
        foreground="#e0e0e0",
        background="#000000",
        surface="#101010",
        panel="#202020",
        dark=True,
    ),
    "colour-blind": Theme(
        name="planspiel-colour-blind",
        # Okabe–Ito palette: distinguishable with every common colour-vision deficiency.
        primary="#56B4E9",
        secondary="#E69F00",
        accent="#F0E442",
        warning="#E69F00",
        error="#D55E00",
        success="#009E73",
        foreground="#f0f0f0",
        background="#15171a",
        surface="#202328",
        panel="#2b2f36",
        dark=True,
    ),
}
"""Planspiel theme name → the Textual theme registered for it."""


def textual_theme(name: str) -> Theme:
    """The Textual theme for a Planspiel theme name (``default`` if unknown)."""
    return THEMES.get(name, THEMES[DEFAULT_THEME])


def _shade(hex_colour: str, level: int) -> str:
    """Lighten a colour by 14 % per elevation level (elevation shading)."""
    if level <= 0:
        return hex_colour
    r, g, b = Color.parse(hex_colour).get_truecolor()
    f = min(0.6, 0.14 * level)
    return "#{:02x}{:02x}{:02x}".format(*(int(c + (255 - c) * f) for c in (r, g, b)))


@dataclass(frozen=True, eq=False)
class MapPalette:
    """Rich styles of the hex map for one theme."""

    name: str
    terrain_bg: dict[str, str] = field(default_factory=dict)
    """Terrain class → background colour at level 0 (empty: no background)."""
    terrain_fg: str = "#d8d8c8"
    grid: Style = field(default_factory=Style)
    sides: tuple[Style, ...] = ()
    """Unit counter style per side, in scenario order."""
    marker: Style = field(default_factory=Style)
    road: Style = field(default_factory=lambda: Style(bold=True))
    """Road lines (``─ ╱ ╲ │`` from a hex's centre toward the next road hex)."""
    water: Style = field(default_factory=lambda: Style(bold=True))
    """Rivers and streams along hexsides, and a river of hexes running on across a hexside (``≈ ~``)."""
    wall: Style = field(default_factory=lambda: Style(bold=True))
    """Walls along hexsides (``#``)."""
    reach: Style = field(default_factory=Style)
    step: Style = field(default_factory=Style)
    target: Style = field(default_factory=Style)
    los: Style = field(default_factory=Style)
    block: Style = field(default_factory=Style)
    command: Style = field(default_factory=Style)
    """Hexes within command range (3.4), drawn ``┆2┆`` with the distance to the HQ."""
    alert: Style = field(default_factory=lambda: Style(bold=True, reverse=True))
    """Out of command, a barrage target and its observer, a hinted action (``OOC``, ``◎◎◎``, ``OBS``, ``HINT``)."""
    selected: Style = field(default_factory=Style)
    cursor: Style = field(default_factory=lambda: Style(reverse=True, bold=True))
    label: Style = field(default_factory=Style)
    compass: Style = field(default_factory=Style)

    def hex_style(self, terrain: str, level: int) -> Style:
        """The background style of a hex's interior (terrain colour, lighter with elevation)."""
        return _hex_style(self, terrain, level)

    def side_style(self, index: int) -> Style:
        """The counter style of the side at ``index`` in the scenario's order."""
        if not self.sides:
            return Style(bold=True)
        return self.sides[index % len(self.sides)]


@cache
def _hex_style(palette: MapPalette, terrain: str, level: int) -> Style:
    bg = palette.terrain_bg.get(terrain, palette.terrain_bg.get("*", ""))
    if not bg:
        return Style(color=palette.terrain_fg) if palette.terrain_fg else Style()
    return Style(color=palette.terrain_fg, bgcolor=_shade(bg, level))


_PALETTES: dict[str, MapPalette] = {
    DEFAULT_THEME: MapPalette(
        name=DEFAULT_THEME,
        terrain_bg={
            "open": "#39462b",
            "village": "#6a5646",
            "town": "#6a5646",
            "orchard": "#2e5a36",
            "woods": "#1d4223",
            "hill": "#5b5233",
            "marsh": "#2f4a4a",
            "swamp": "#2f4a4a",
            "snow": "#6f7f8c",
            "water": "#1f3a5a",
            "river": "#1f3a5a",
            "ford": "#2f5f80",
            "bridge": "#6e6a62",
            "plain": "#39462b",
            "field": "#5a5a2a",
            "bushes": "#3a5a2a",
            "light_woods": "#2a5032",
            "*": "#444444",
        },
        terrain_fg="#d8d8c0",
        grid=Style(color="#7c7f70"),
        sides=(
            Style(color="#101010", bgcolor="#c8c8c0", bold=True),
            Style(color="#0a1a30", bgcolor="#78aef0", bold=True),
            Style(color="#101010", bgcolor="#e0a060", bold=True),
            Style(color="#101010", bgcolor="#a0d080", bold=True),
        ),
        marker=Style(color="#ffd75f", bold=True),
        road=Style(color="#f0e0b0", bold=True),
        water=Style(color="#5fafff", bold=True),
        wall=Style(color="#ffd75f", bold=True),
        reach=Style(color="#102010", bgcolor="#9fd89f"),
        step=Style(color="#001000", bgcolor="#5fd75f", bold=True),
        target=Style(color="#ffffff", bgcolor="#b83030", bold=True),
        los=Style(color="#202000", bgcolor="#d8d870"),
        block=Style(color="#ffffff", bgcolor="#7a3a8a", bold=True),
        command=Style(color="#0a1a30", bgcolor="#a8c8f0"),
        alert=Style(color="#ffffff", bgcolor="#c05000", bold=True),
        selected=Style(color="#000000", bgcolor="#ffd75f", bold=True),
        cursor=Style(reverse=True, bold=True),
        label=Style(color="#a8a890"),
        compass=Style(color="#ffd75f", bold=True),
    ),
    "monochrome": MapPalette(
        name="monochrome",
        terrain_bg={},
        terrain_fg="",
        grid=Style(dim=True),
        sides=(Style(bold=True), Style(bold=True, italic=True), Style(bold=True), Style(bold=True)),
        marker=Style(bold=True),
        reach=Style(underline=True),
        step=Style(bold=True, underline=True),
        target=Style(bold=True, reverse=True),
        los=Style(underline=True),
        block=Style(bold=True, reverse=True),
        command=Style(italic=True),
        alert=Style(bold=True, reverse=True, underline=True),
        selected=Style(bold=True, reverse=True),
        cursor=Style(reverse=True, bold=True, underline=True),
        label=Style(dim=True),
        compass=Style(bold=True),
    ),
    "colour-blind": MapPalette(
        name="colour-blind",
        terrain_bg={
            "open": "#3b3b33",
            "village": "#6b6b6b",
            "town": "#6b6b6b",
            "orchard": "#35506b",
            "woods": "#1f3550",
            "hill": "#5a5040",
            "marsh": "#304850",
            "swamp": "#304850",
            "snow": "#7f8fa0",
            "water": "#203a60",
            "river": "#203a60",
            "ford": "#2a5a8a",
            "bridge": "#7a7a7a",
            "plain": "#3b3b33",
            "field": "#5a5230",
            "bushes": "#40506a",
            "light_woods": "#2a4560",
            "*": "#444444",
        },
        terrain_fg="#e8e8e8",
        grid=Style(color="#808080"),
        sides=(
            Style(color="#000000", bgcolor="#E69F00", bold=True),
            Style(color="#000000", bgcolor="#56B4E9", bold=True),
            Style(color="#000000", bgcolor="#F0E442", bold=True),
            Style(color="#000000", bgcolor="#CC79A7", bold=True),
        ),
        marker=Style(color="#F0E442", bold=True),
        road=Style(color="#ffffff", bold=True),
        water=Style(color="#56B4E9", bold=True),
        wall=Style(color="#F0E442", bold=True),
        reach=Style(color="#000000", bgcolor="#80c8b0"),
        step=Style(color="#000000", bgcolor="#009E73", bold=True),
        target=Style(color="#ffffff", bgcolor="#D55E00", bold=True),
        los=Style(color="#000000", bgcolor="#F0E442"),
        block=Style(color="#ffffff", bgcolor="#CC79A7", bold=True),
        command=Style(color="#000000", bgcolor="#56B4E9"),
        alert=Style(color="#000000", bgcolor="#E69F00", bold=True),
        selected=Style(color="#000000", bgcolor="#ffffff", bold=True),
        cursor=Style(reverse=True, bold=True),
        label=Style(color="#b0b0b0"),
        compass=Style(color="#F0E442", bold=True),
    ),
}


def map_palette(name: str) -> MapPalette:
    """The map palette of a Planspiel theme (``default`` if unknown)."""
    return _PALETTES.get(name, _PALETTES[DEFAULT_THEME])
