"""Provides cropped partial updates: only the changed cells of a line go to the terminal.

Textual writes a partial screen update as spans of changed cells, but crops each widget's piece of a line
only on the right: everything from the widget's left edge up to the end of the span is written again. A hex
changed near the right edge of the map then rewrites the whole map row (~600 bytes instead of ~60), and a
changed value in a side panel rewrites the panel line from its left edge. :func:`install` replaces
``ChopsUpdate.render_segments`` with a version that crops on both sides (DESIGN §11: about 1 KB written per
cursor move at 160×48). The replacement is installed once, only if Textual's class still has the shape it
was written for; otherwise Textual's own code stays (correct, only more bytes).
"""

from __future__ import annotations

import inspect
import logging
from typing import Any

__all__ = ["install", "installed", "uninstall"]

log = logging.getLogger(__name__)

_installed = False
_original: Any = None


def _render_segments(self: Any, console: Any) -> str:
    """Like Textual's ``ChopsUpdate.render_segments``, but each piece is cropped to the span on both sides."""
    from rich.control import Control  # noqa: PLC0415

    sequences: list[str] = []
    append = sequences.append
    move_to = Control.move_to
    chops = self.chops
    chop_ends = self.chop_ends
    last_y = self.spans[-1][0]
    for y, x1, x2 in self.spans:
        line = chops[y]
        ends = chop_ends[y]
        for end, (x, strip) in zip(ends, line.items(), strict=False):
            if strip is None or x >= x2 or end <= x1:
                continue
            if x2 > x >= x1 and end <= x2:
                append(move_to(x, y).segment.text)
                append(strip.render(console))
                continue
            left = max(0, x1 - x)
            piece = strip.crop(left, min(end, x2) - x)
            append(move_to(x + left, y).segment.text)
            append(piece.render(console))
        if y != last_y:
            append("\n")
    return "".join(sequences)


def install() -> bool:
    """Crop partial updates on both sides from now on; True if the replacement is in force."""
    global _installed, _original
    if _installed:
        return True
    try:
        from textual._compositor import ChopsUpdate  # noqa: PLC0415
    except ImportError:  # pragma: no cover - a Textual without this internal class
        return False
    original = getattr(ChopsUpdate, "render_segments", None)
    if original is None or list(inspect.signature(original).parameters) != ["self", "console"]:
        log.info("Textual's ChopsUpdate changed: partial updates stay as Textual writes them")
        return False
    _original = original
    ChopsUpdate.render_segments = _render_segments  # type: ignore[method-assign]
    _installed = True
    return True


def uninstall() -> None:
    """Put Textual's own ``render_segments`` back (benchmarks compare both)."""
    global _installed
    if _installed:
        from textual._compositor import ChopsUpdate  # noqa: PLC0415

        ChopsUpdate.render_segments = _original  # type: ignore[method-assign]
        _installed = False


def installed() -> bool:
    """True if partial updates are cropped on both sides."""
    return _installed
