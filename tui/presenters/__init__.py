"""Provides presenters: a ruleset's hooks for the screens (glyphs, markers, the status line, scores).

The screens are the same for every ruleset; what differs (which unit status flags are markers, what the
engine is waiting for, how victory is counted) comes from the ruleset's presenter, found by ruleset id. The
base :class:`Presenter` works for any ruleset from its generic data (unit types, steps, statuses); a ruleset
adds a module here to say more. A presenter only reads a side's view: it never decides a rule.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from engine import Action, GameState, Hex, Unit
from engine.typed import field_values

from ..client import GameInfo

__all__ = ["KIND_GLYPHS", "Marker", "Presenter", "get_presenter"]

KIND_GLYPHS: Mapping[str, str] = {
    "tank": "T",
    "assault_gun": "S",
    "apc": "A",
    "armoured_car": "C",
    "infantry": "I",
    "mg": "M",
    "pioneer": "E",
    "motorcycle": "K",
    "at_gun": "G",
    "artillery": "R",
    "hq": "H",
}
"""Unit kind (``units.toml`` ``kind``) → the letter a counter shows on the map."""

TERRAIN_GLYPHS: Mapping[str, str] = {
    "open": "",
    "village": "⌂",
    "town": "⌂",
    "orchard": "♠",
    "woods": "♣",
    "forest": "♣",
    "hill": "^",
    "marsh": "≈",
    "water": "~",
}
"""Terrain class → the glyph that marks it on the map (besides its colour)."""


@dataclass(frozen=True, slots=True)
class Marker:
    """A marker on a unit or a hex: one glyph on the map, and its meaning for the panels."""

    glyph: str
    text: str
    side: str | None = None
    """The side the marker belongs to (its colour), if any."""


class Presenter:
    """How a ruleset's state is shown. The base class works from generic data for any ruleset.

    Args:
        info: the game's ruleset, scenario, sides, map and unit types.
    """

    ruleset: str = ""
    map_verbs: frozenset[str] = frozenset({"move", "fire", "assault", "stop", "end", "pass"})
    secondary_verbs: frozenset[str] = frozenset()
    """Verbs Enter on a hex offers only when nothing else fits there (orders for several units at once)."""
    placement_verbs: frozenset[str] = frozenset({"place", "move"})
    """Verbs that put a unit not yet on the map onto a hex (set-up, arrivals), or a marker: Enter on a legal hex
    plays them, and their hexes are marked with "+" while nothing is selected."""
    """Verbs the player gives on the map; a decision with none of them is offered as a list of choices."""
    score_name: str = "score"

    def __init__(self, info: GameInfo) -> None:
        self.info = info
        self.side_index = {s.id: i for i, s in enumerate(info.sides)}
        self.side_letters = _side_letters([s.name for s in info.sides], [s.id for s in info.sides])

    # --- Units ------------------------------------------------------------------------------------------

    def unit_type(self, unit: Unit) -> Mapping[str, Any]:
        """The unit's type values (empty if unknown)."""
        return self.info.unit_types.get(unit.type, {})

    def unit_name(self, unit: Unit) -> str:
        """The type's display name."""
        return str(self.unit_type(unit).get("name", unit.type))

    def full_steps(self, unit: Unit) -> int:
        """Steps at full strength."""
        return int(self.unit_type(unit).get("steps", max(unit.steps, 1)))

    def unit_glyph(self, unit: Unit) -> str:
        """The one-letter type glyph of a counter."""
        t = self.unit_type(unit)
        kind = str(t.get("kind", t.get("category", "")))
        return KIND_GLYPHS.get(kind, (kind or unit.type)[:1].upper() or "?")

    def unit_label(self, unit: Unit) -> str:
        """The three cells a counter shows: side letter, type glyph, remaining steps (``GT2``)."""
        steps = str(unit.steps) if self.full_steps(unit) > 0 else "·"
        return f"{self.side_letters.get(unit.side, '?')}{self.unit_glyph(unit)}{steps[-1]}"

    def unit_markers(self, unit: Unit) -> list[Marker]:
        """Markers on a unit; the base shows every true status flag by its first letter."""
        out = []
        for key, value in sorted(field_values(unit.status).items()):
            if value is True:
                out.append(Marker(key[:1].upper(), key.replace("_", " ")))
        return out

    def unit_facts(self, unit: Unit) -> list[tuple[str, str]]:
        """Rows of the unit panel: value name and value."""
        t = self.unit_type(unit)
        rows = [("type", self.unit_name(unit)), ("steps", f"{unit.steps} of {self.full_steps(unit)}")]
        for key in ("attack_full", "attack_reduced", "range", "armour", "mp"):
            if t.get(key) is not None:
                rows.append((key.replace("_", " "), str(t[key])))
        if unit.formation:
            rows.append(("formation", unit.formation))
        return rows

    def unit_order(self, view: GameState, unit: Unit) -> str | None:
        """The order the unit was given this round, where the ruleset has written orders (None: no such row)."""
        return None

    def stack_order(self, units: Iterable[Unit]) -> list[Unit]:
        """Units of a hex, the one shown on top first (combat units before HQs, then by id)."""
        return sorted(units, key=lambda u: (self.full_steps(u) == 0, u.id))

    # --- Hexes ------------------------------------------------------------------------------------------

    def terrain_glyph(self, terrain: str) -> str:
        """The glyph of a terrain class (empty for open ground)."""
        return TERRAIN_GLYPHS.get(terrain, terrain[:1])

    def hex_markers(self, view: GameState, h: Hex) -> list[Marker]:
        """Markers in a hex (objectives, mines, fortifications...); none in the base class."""
        return []

    def hex_control(self, view: GameState, h: Hex) -> str | None:
        """The side that controls or holds the hex, if the ruleset says."""
        return None

    # --- The decision -----------------------------------------------------------------------------------

    def waiting_for(self, view: GameState) -> str:
        """A sentence saying what the engine is waiting for."""
        if view.outcome is not None:
            return f"The game is over: {view.outcome.reason}"
        return f"{self.info.side_name(view.to_act)} decides ({view.phase})"

    def status_items(self, view: GameState) -> list[str]:
        """Short items of the status bar besides turn, phase and side (a chit drawn, a score)."""
        return []

    def is_map_decision(self, view: GameState, legal: list[Action]) -> bool:
        """True if the player gives this decision on the map; else it is offered as a list of choices."""
        return any(a.verb in self.map_verbs for a in legal)

    def action_note(self, view: GameState, action: Action) -> str:
        """Readable names for an action's arguments (a chit's formation name...); empty in the base class."""
        return ""

    def action_unit(self, view: GameState, action: Action) -> str | None:
        """The unit of the acting side that an action is about (its first argument), if any."""
        if action.args and action.args[0] in view.units:
            return action.args[0]
        return None

    def action_hexes(self, view: GameState, action: Action) -> list[Hex]:
        """The hexes an action points at: hex arguments, and the hexes of units named after the first."""
        out: list[Hex] = []
        for i, arg in enumerate(action.args):
            if arg[:1].isdigit():
                try:
                    out.append(view.board.parse(arg))
                except ValueError:
                    continue
            elif i > 0 and arg in view.units:
                u = view.units[arg]
                if u.hex is not None:
                    out.append(u.hex)
        return out

    # --- Scores -----------------------------------------------------------------------------------------

    OVERLAYS: ClassVar[dict[str, tuple[str, str, str]]] = {
        "command": ("command", "┆", "within command distance of the HQ (the number: hexes from it)"),
        "hq": ("command", "[HQ]", "the HQ the command distance is measured from"),
        "out_of_command": ("alert", "OOC", "unit out of command"),
        "barrage": ("alert", "◎◎◎", "barrage target: only units here may retreat"),
        "observer": ("alert", "OBS", "the HQ observing the barrage"),
    }
    """Overlay name of the ruleset → (map overlay kind, glyphs, legend). Unknown names use ``alert`` and ``!``."""
    ON_DEMAND: ClassVar[frozenset[str]] = frozenset({"command", "hq", "out_of_command"})
    """Overlays drawn only while the player asks for command ranges (k); the others are always drawn."""

    def overlay_on_demand(self, name: str) -> bool:
        """True if the overlay is drawn only with ``k`` (command ranges), False if always (a barrage)."""
        return name in self.ON_DEMAND

    def overlay_look(self, name: str) -> tuple[str, str, str]:
        """How the map draws a ruleset overlay: (kind, glyphs, legend)."""
        return self.OVERLAYS.get(name, ("alert", "!", name.replace("_", " ")))

    def score(self, view: GameState) -> dict[str, int] | None:
        """The victory score per side (for the end-of-game chart), or None if the ruleset keeps none."""
        return None

    def score_label(self, view: GameState) -> str:
        """What the score counts, for the end-of-game chart."""
        return self.score_name

    def losses(self, view: GameState) -> dict[str, int]:
        """Steps lost per side since the start (full strength minus remaining steps)."""
        out = {s.id: 0 for s in self.info.sides}
        for u in view.units.values():
            out[u.side] = out.get(u.side, 0) + max(0, self.full_steps(u) - u.steps)
        return out


def _side_letters(names: list[str], ids: list[str]) -> dict[str, str]:
    """One distinct capital letter per side, from its name where possible."""
    used: set[str] = set()
    out: dict[str, str] = {}
    for name, sid in zip(names, ids, strict=True):
        for ch in (name + sid + "ABCDEFGHIJKLMNOPQRSTUVWXYZ").upper():
            if ch.isalpha() and ch not in used:
                out[sid] = ch
                used.add(ch)
                break
    return out


_PRESENTERS: dict[str, type[Presenter]] = {}


def get_presenter(info: GameInfo) -> Presenter:
    """The presenter for a game's ruleset: ``tui.presenters.<ruleset id>`` if it exists, else the base."""
    cls = _PRESENTERS.get(info.ruleset)
    if cls is None:
        cls = Presenter
        name = f"{__name__}.{info.ruleset}"
        if importlib.util.find_spec(name) is not None:
            cls = getattr(importlib.import_module(name), "PRESENTER", Presenter)
        _PRESENTERS[info.ruleset] = cls
    return cls(info)
