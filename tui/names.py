"""Provides the names a player reads in the log (issue 18 item 6): the unit ids in a line replaced by the units'
short names (:meth:`engine.presentation.Presentation.unit_short`), from one side's view only.

The engine's texts stay as they are (saves, transcripts and replays keep the ids); only what the screen shows is
worded with names, and the raw ids are one key away (``I``) for notation. A name comes from a unit the side's
view holds, as the view shows it: an id the view does not hold stays an id, and a unit the view knows only as an
unidentified unit is named as that. Two units that would read alike keep their ids.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.presentation import Presentation
    from engine.state import GameState

__all__ = ["UnitNames"]

_TOKEN = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9_.-]*[A-Za-z0-9_])?")
"""A word that may be a unit id (scenario ids: letters, digits, ``_ . -``; a sentence's full stop is not part)."""


class UnitNames:
    """Unit id → the short name a side reads, from its view.

    Args:
        view: the side's view (only its units are named).
        presenter: the ruleset's presentation.
    """

    def __init__(self, view: GameState, presenter: Presentation) -> None:
        self.view = view
        names = {uid: presenter.unit_short(view, unit) for uid, unit in view.units.items()}
        alike = Counter(names.values())
        self.names: dict[str, str] = {uid: name for uid, name in names.items() if name and alike[name] == 1}
        """Unit id → its name, for the units whose name no other unit of the view shares."""

    def __call__(self, text: str) -> str:
        """``text`` with every unit id the view holds replaced by the unit's name."""
        names = self.names
        return _TOKEN.sub(lambda m: names.get(m.group(0), m.group(0)), text)
