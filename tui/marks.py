"""Provides what the hex map shows in a hex, as plain values: the top unit, the hex's content and an overlay.

These are the map's inputs (:class:`~tui.widgets.hexmap.HexMap` draws them); they import no Textual, so that
the functions computing them (:mod:`tui.overlay`) are tested without it.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["HexContent", "Overlay", "UnitMark"]


@dataclass(frozen=True, slots=True)
class UnitMark:
    """The top unit of a hex as the map shows it."""

    side: int
    """Index of the unit's side in the scenario (its colour)."""
    label: str
    """Three cells: side letter, type glyph, steps (``GT2``)."""
    flags: str = ""
    """Marker glyphs of the unit (``N``, ``C``, ``O``...)."""


@dataclass(frozen=True, slots=True)
class HexContent:
    """What stands in a hex: its top unit, how many units, and a hex marker."""

    unit: UnitMark | None = None
    count: int = 0
    marker: str = ""
    """One glyph: objective, minefield, fortification..."""
    marker_side: int | None = None


@dataclass(frozen=True, slots=True)
class Overlay:
    """An overlay on a hex's floor row: ``kind`` is reach, step, target, los, block, command, alert or select.

    The text says what it is in glyphs too (never colour alone): ``»`` steps, ``◎`` targets, ``·`` line of sight,
    ``✗`` its blocker, ``┆2┆`` command range, ``OOC``, ``◎◎◎`` barrage target, ``OBS`` observer, ``HINT``.
    """

    kind: str
    text: str = ""
