"""Provides presentations: a ruleset's words and glyphs for the screens (markers, unit cards, the status line,
the names of orders, scores), with no user-interface code.

The screens are the same for every ruleset; what differs (which unit status flags are markers, what the engine is
waiting for, how victory is counted, what an order is called) comes from the ruleset's presentation, found
through the ruleset (:meth:`engine.rules.Ruleset.presentation`: a ``presentation`` module beside the ruleset's,
with a ``PRESENTATION`` class). The base :class:`Presentation` works for any ruleset from its generic data (unit
types, steps, statuses). A presentation only reads a side's view: it never decides a rule, and it imports no
user-interface library (a test checks that the engine imports none).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .actions import Action
from .board import Board
from .events import Event
from .hexgrid import Hex
from .notation import Arg, Slot
from .state import GameState, Unit
from .typed import field_values

__all__ = [
    "KIND_GLYPHS",
    "TERRAIN_GLYPHS",
    "WATER_TERRAIN",
    "GameInfo",
    "Marker",
    "PathPreview",
    "Presentation",
    "Report",
    "SideInfo",
    "id_number",
]


@dataclass(frozen=True, slots=True)
class SideInfo:
    """A side of the scenario."""

    id: str
    name: str


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What every side may know about the game before it starts: ruleset, scenario, sides and the map."""

    ruleset: str
    ruleset_title: str
    scenario: str
    title: str
    turns: int
    sides: tuple[SideInfo, ...]
    board: Board = field(repr=False)
    """The map (terrain, levels, roads, places): public data, never changed."""
    unit_types: Mapping[str, Mapping[str, Any]] = field(repr=False, default_factory=dict)
    """Unit type → its values, from the ruleset's ``units.toml``."""
    briefing: str = ""
    verbs: Mapping[str, str] = field(repr=False, default_factory=dict)
    """Notation verb → its line of help (``"fire UNIT TARGET — direct fire at full strength (8.1)"``)."""
    modes: frozenset[str] = frozenset()
    """The interaction modes the ruleset's decisions use (:attr:`engine.rules.Ruleset.modes`)."""
    forms: Mapping[str, tuple[tuple[Slot, ...], ...]] = field(repr=False, default_factory=dict)
    """Notation verb → the arguments of each of its forms (:mod:`engine.notation`): what an order entry asks
    for, in order (a unit, a target, a hex, a path...)."""

    def path_start(self, verb: str) -> int | None:
        """Where the written path begins among the verb's arguments (None: the verb takes no path)."""
        for slots in self.forms.get(verb, ()):
            for i, slot in enumerate(slots):
                if slot.kind is Arg.PATH:
                    return i
        return None

    def verb_help(self, verb: str) -> str:
        """What a verb does, without its argument pattern (empty if the ruleset says nothing)."""
        line = self.verbs.get(verb, "")
        return line.split(" — ", 1)[1] if " — " in line else ""

    def side_name(self, side: str | None) -> str:
        """The display name of a side (``"German"``), or ``"nobody"``."""
        if side is None:
            return "nobody"
        return next((s.name for s in self.sides if s.id == side), side.title())


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
    "marsh": "ψ",
    "swamp": "ψ",
    "snow": "∗",
    "water": "~",
    "river": "~",
    "plain": "",
    "field": "≡",
    "bushes": "*",
    "light_woods": "♧",
    "ford": "≃",
    "bridge": "Ξ",
}
"""Terrain class → the glyph that marks it on the map (besides its colour): every class of every ruleset has one
(open ground excepted), so that the map reads in the monochrome theme too."""

WATER_TERRAIN: frozenset[str] = frozenset({"water", "river", "ford", "bridge"})
"""Terrain classes a river of hexes runs through (its fords and bridges included): the map draws the hexside
between two of them as water, so that the river reads as one line from hex to hex."""


@dataclass(frozen=True, slots=True)
class Marker:
    """A marker on a unit or a hex: one glyph on the map, and its meaning for the panels."""

    glyph: str
    text: str
    side: str | None = None
    """The side the marker belongs to (its colour), if any."""


@dataclass(frozen=True, slots=True)
class PathPreview:
    """What a path written so far costs, as the engine answers it from a side's view (for plotting a path)."""

    words: str
    """The path and its cost for a player (``2 hexes, cost 3 of movement range 4, 1 left``)."""
    short: str
    """The same for a narrow status line."""
    problem: str = ""
    """Why the path cannot go on as written (a rule broken), empty if it can."""


@dataclass
class Report:
    """A resolution as one side saw it (a round's reveal and execution steps), for a screen that shows it step by
    step."""

    round: int
    head: list[str]
    """What comes before the steps (the orders revealed)."""
    steps: list[tuple[str, list[str]]]
    """(step heading, the lines of its events)."""
    after: list[str]
    """What comes after the last step (victory, the next round)."""


class Presentation:
    """How a ruleset's state is shown. The base class works from generic data for any ruleset.

    Args:
        info: the game's ruleset, scenario, sides, map and unit types.
    """

    ruleset: str = ""
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

    def unit_title(self, view: GameState, unit: Unit) -> str:
        """How a player names the unit in lists, beside its id (kept for notation): its type's name here; a
        ruleset adds what else tells units apart (its formation)."""
        return self.unit_name(unit)

    short_names: ClassVar[Mapping[str, str]] = {}
    """Unit type → its short name for the log (``Pz III``); a type not listed is called by its type's name."""

    def unit_short(self, view: GameState, unit: Unit) -> str:
        """How the log names the unit for a player, short enough for a line at 80 columns, beside the id kept for
        notation: here the type's short name and the number the id ends with (``-3``: ``S35 #3``); a ruleset adds
        what else tells units apart (its formation). From the side's view only (what it shows of the unit)."""
        short = self.short_names.get(unit.type) or self.unit_name(unit)
        number = id_number(unit.id)
        return f"{short} #{number}" if number else short

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

    terrain_glyphs: ClassVar[Mapping[str, str]] = TERRAIN_GLYPHS
    """Terrain class → the glyph that marks it on the map."""
    water_terrain: ClassVar[frozenset[str]] = WATER_TERRAIN
    """Terrain classes of a river of hexes: the map joins neighbouring ones with water across their hexside."""
    terrain_looks: ClassVar[Mapping[str, str]] = {}
    """Terrain class → the common class whose colour the map gives it, for a ruleset's own classes (``"dense_forest":
    "woods"``): the themes colour the common classes (the keys of :data:`TERRAIN_GLYPHS`), so that a ruleset's map
    is drawn in colour without the client knowing its terrain. A class not named here is drawn as itself."""

    def terrain_look(self, terrain: str) -> str:
        """The common terrain class whose colour ``terrain`` is drawn in."""
        return self.terrain_looks.get(terrain, terrain)

    def terrain_glyph(self, terrain: str) -> str:
        """The glyph of a terrain class (empty for open ground)."""
        return self.terrain_glyphs.get(terrain, terrain[:1])

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

    def action_note(self, view: GameState, action: Action) -> str:
        """Readable names for an action's arguments (a chit's formation name...); empty in the base class."""
        return ""

    def verb_name(self, verb: str) -> str:
        """What an order or action is called on the table (``Cautious movement``); the verb in the base class."""
        return verb

    def argument_label(self, verb: str, slot: str, value: str) -> str:
        """An argument's value as a list of choices words it (``range 3 hexes``); the value in the base class."""
        return value

    def argument_options(self, verb: str, slot: str) -> list[tuple[str, str]]:
        """The values an optional trailing word argument may take, with what each does, the default (written
        as nothing) first; none in the base class."""
        return []

    def path_preview(self, view: GameState, action: Action) -> PathPreview | None:
        """What the path of ``action`` (written so far) costs against its unit's movement, as the engine answers
        it from this side's view; None where the ruleset has nothing to say (the base class)."""
        return None

    def given_orders(self, view: GameState, side: str) -> list[tuple[str, str, str]]:
        """The orders ``side`` has written this round, as its view holds them: (unit id, name, notation). None
        in the base class (rulesets without written orders)."""
        return []

    def report(self, events: Sequence[Event]) -> Report | None:
        """The last resolution (a round's execution) in a side's events, to show step by step; None if there is
        none or the ruleset resolves nothing that way (the base class)."""
        return None

    @property
    def shows_reports(self) -> bool:
        """True if the ruleset shows its resolutions step by step (its presentation implements :meth:`report`):
        a client then shows each side the last one and offers it again; False spares it reading the events."""
        return type(self).report is not Presentation.report

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


def id_number(unit_id: str) -> str:
    """The number a unit id ends with after a dash (``fra-2kur-s35-3``: ``3``), empty if none."""
    head, dash, tail = unit_id.rpartition("-")
    return tail if dash and head and tail.isdigit() else ""


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
