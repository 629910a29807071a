"""Provides the aim of a searchlight (6.1 P: "one chosen hex within 20 hexes per turn"), in two steps so that the
listing stays small.

1. ``aim UNIT`` (3.2 Movement Phase): the side is to aim the unit's searchlight. [INTERP] Once per turn, while the
   unit is still to be activated or in its activation, at no MP and without starting the activation; not while it
   cannot shine (``searchlights.why_dark``).
2. The side then chooses the hex: ``light UNIT HEX`` at each hex within range that the unit has a line of sight to
   (6.2: a beam needs one; not its own hex), marked on the map; or ``cancel UNIT``, which keeps the hex it had.

The light is seen by both sides; a hidden unit's aim is told to its side only (13.2, ``Hacse.view``). The AI leaves
``aim`` out of its candidates (``Hacse.ai_actions``).
"""

from __future__ import annotations

from engine.actions import Action
from engine.hexgrid import Hex, distance
from engine.rules import Transition
from engine.state import GameState, Unit

from . import searchlights
from .data import Tables
from .model import data, status
from .movement import Refused
from .notation import Aim, Cancel, Light
from .sighting import sight_line

__all__ = ["aim_actions", "apply", "hexes", "light_actions", "refusal"]


def aim_actions(st: GameState, tables: Tables, unit: Unit) -> list[Action]:
    """``aim UNIT`` when the unit's searchlight may be aimed now (6.1 P): not yet this turn, none being aimed."""
    if data(st).aiming or status(unit).lit_turn == st.turn or searchlights.why_dark(tables, unit) is not None:
        return []
    return [Action("aim", (unit.id,))]


def _beam(st: GameState, tables: Tables, unit: Unit, h: Hex) -> str | None:
    """Why the unit's searchlight may not light ``h`` (6.1 P, 6.2), else None."""
    assert unit.hex is not None
    if h == unit.hex:
        return f"Cannot light {st.board.label(h)}: it is {unit.id}'s own hex"
    if distance(unit.hex, h) > searchlights.range_hexes():
        return f"Cannot light {st.board.label(h)}: beyond the searchlight's {searchlights.range_hexes()} hexes"
    line = sight_line(st, tables, unit.hex, h)
    if not line.clear:
        return f"Cannot light {st.board.label(h)}: no line of sight from {unit.id} ({line.reason})"
    return None


def light_actions(st: GameState, tables: Tables) -> list[Action]:
    """The second step: ``light UNIT HEX`` at each hex the searchlight being aimed may light, by column and row,
    then ``cancel UNIT``."""
    uid = data(st).aiming
    unit = st.units[uid]
    assert unit.hex is not None
    near = sorted(
        (h for h in st.board if distance(unit.hex, h) <= searchlights.range_hexes()), key=lambda h: (h.q, h.r)
    )
    out = [Action("light", (uid, st.board.label(h))) for h in near if _beam(st, tables, unit, h) is None]
    return [*out, Action("cancel", (uid,))]


def hexes(st: GameState, tables: Tables) -> set[Hex]:
    """The hexes the searchlight being aimed may light (none while none is): for the map."""
    if not data(st).aiming or data(st).aiming not in st.units:
        return set()
    return {st.board.parse(str(a.args[1])) for a in light_actions(st, tables) if a.verb == "light"}


def refusal(st: GameState, tables: Tables, typed: Aim | Light | Cancel | object) -> Refused | None:
    """Why ``typed`` may not be played now, for the searchlight's own conditions (6.1 P); the activation's
    (whose unit, which phase, 3.2) are :mod:`activation`'s."""
    aiming = data(st).aiming
    if isinstance(typed, Aim):
        unit = st.units[typed.unit]
        if aiming:
            return Refused(f"Cannot aim: {aiming}'s searchlight is being aimed; choose its hex or cancel", "6.1")
        why = searchlights.why_dark(tables, unit)
        if why is not None:
            return Refused(f"Cannot aim: {unit.id} {why}", "6.1")
        if status(unit).lit_turn == st.turn:
            return Refused(f"Cannot aim: {unit.id}'s searchlight was aimed this turn (one hex per turn)", "6.1")
        return None
    if not aiming:
        return Refused(f"Cannot {getattr(typed, 'verb', 'do that')}: no searchlight is being aimed", "6.1")
    if not isinstance(typed, (Light, Cancel)) or typed.unit != aiming:
        return Refused(f"Cannot do that now: {aiming}'s searchlight is being aimed; choose its hex or cancel", "6.1")
    if isinstance(typed, Light):
        why = _beam(st, tables, st.units[aiming], typed.hex)
        return None if why is None else Refused(why, "6.1")
    return None


def apply(tr: Transition, tables: Tables, typed: Aim | Light | Cancel) -> None:
    """``aim``: the aim is taken (told to the side only); ``light``: the searchlight lights the hex from now on
    (seen by all: it is a light); ``cancel``: it keeps its hex."""
    st = tr.state
    unit = st.units[typed.unit]
    d = data(st)
    if isinstance(typed, Aim):
        d.aiming = unit.id
        tr.emit("aim", f"{unit.id} is to aim its searchlight: choose the hex (rule 6.1)", (unit.side,), unit=unit.id)
        return
    d.aiming = ""
    if isinstance(typed, Cancel):
        tr.emit("aim", f"{unit.id}'s searchlight keeps its hex (rule 6.1)", (unit.side,), unit=unit.id)
        return
    s = status(unit)
    s.searchlight = typed.hex
    s.lit_turn = st.turn
    tr.emit("aim", f"{unit.id}'s searchlight lights {st.board.label(typed.hex)} (rule 6.1)", unit=unit.id)
