"""Provides what the title and load screens need of the saves before any game is open: the saves package, and
the save that Continue opens.

The saves package imports the engine's game facade: this module imports it when asked, never with itself, so
that the title screen is drawn before it is imported (start-up budget, DESIGN §11).
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

__all__ = ["LastSave", "find_last_save", "load_saves"]

log = logging.getLogger(__name__)

_TURN_COPY = re.compile(r"\.turn\d+\.planspiel$")


def load_saves() -> ModuleType | None:
    """The saves package, or None if it cannot be imported (the game then runs without saving)."""
    try:
        import saves  # noqa: PLC0415
    except ImportError as err:  # pragma: no cover - the package is part of the project
        log.warning("saves package unavailable: %s", err)
        return None
    return saves


@dataclass(frozen=True, slots=True)
class LastSave:
    """The save that Continue opens."""

    path: Path
    title: str
    turn: int
    updated: str
    over: bool
    campaign: str = ""
    """The campaign's title for a campaign save ("" for a single game)."""


def find_last_save() -> LastSave | None:
    """The most recently written save, game or campaign (autosaves included, turn copies excluded), unfinished
    games first."""
    saves = load_saves()
    if saves is None:
        return None
    entries = []
    for folder in (saves.saves_dir(), saves.autosave_dir()):
        try:
            found = saves.list_saves(folder)
            entries += [e for e in found if e.header is not None and e.header.kind in ("game", "campaign")]
        except saves.SaveError:
            continue
    entries = [e for e in entries if not _TURN_COPY.search(e.path.name)]
    if not entries:
        return None
    entries.sort(key=lambda e: (not e.header.is_over, e.header.updated, e.mtime), reverse=True)
    h = entries[0].header
    if h.kind == "campaign":
        name = h.campaign_title or h.campaign or "campaign"
        title = f"{name}: {h.title}" if h.title else name
        return LastSave(entries[0].path, title, h.turn, h.updated, h.is_over, h.campaign_title or h.campaign or "")
    return LastSave(entries[0].path, h.title, h.turn, h.updated, h.is_over)
