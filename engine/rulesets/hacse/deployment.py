"""Provides the set-up decisions of digest 15.10.2 (§3.3 SETUP): the sides of the scenario's ``[setup] order`` that
have a zone set up in turn, the defender first; each may place its units on the map anywhere in its zone
(``place``), face its guns and vehicles (``turn``, free now), and ends with ``deploy``, which keeps the scenario's
default deployment for every unit not placed. Then the first turn begins.

Readings [PROPOSED]: a unit keeps its dug-in status wherever it is placed (its trench goes with it: 13.3 notes
trenches "only on the units concerned"); it stays hidden only where it may hide (13.2). Fortifications keep the
scenario's hexes.
"""

from __future__ import annotations

from engine.actions import Action
from engine.hexgrid import Hex, hex_to_offset
from engine.notation import Notation
from engine.rules import Transition
from engine.state import GameState, Unit

from .bridges import terrain_of
from .buildings import settle
from .data import PROHIBITED, Tables
from .model import FACING_NAMES, data, status
from .movement import Refused
from .notation import Deploy, Place, Turn
from .sequence import start_turn

__all__ = ["apply_setup", "begin", "setup_actions", "setup_refusal"]


def begin(tr: Transition, tables: Tables) -> None:
    """The first side to set up decides, or the first turn begins when none sets up (15.10.2)."""
    st = tr.state
    d = data(st)
    if d.setup_sides:
        st.phase, st.to_act = "setup", d.setup_sides[0]
        tr.emit("setup", f"{st.to_act} sets up in columns {_zone_text(st, st.to_act)} (rule 15.10.2)")
    else:
        start_turn(tr, tables)


def _zone_text(st: GameState, side: str) -> str:
    first, last = data(st).zones[side]
    return f"{first:02d}-{last:02d}"


def _in_zone(st: GameState, side: str, h: Hex) -> bool:
    first, last = data(st).zones[side]
    return first <= hex_to_offset(h)[0] <= last


def _placeable(st: GameState, unit: Unit) -> bool:
    return unit.side == st.to_act and unit.hex is not None


def _place_refusal(st: GameState, tables: Tables, unit: Unit, h: Hex) -> Refused | None:
    side = unit.side
    if not _in_zone(st, side, h):
        return Refused(
            f"Cannot place {unit.id}: {st.board.label(h)} is outside the zone, columns {_zone_text(st, side)}",
            "15.10.2",
        )
    terrain = terrain_of(st, tables, h)
    if tables.movement.base[terrain.movement][tables.sheets[unit.type].move_class] == PROHIBITED:
        return Refused(f"Cannot place {unit.id}: it cannot stand in {terrain.name}", "4.3")
    if h == unit.hex:
        return Refused(f"Cannot place {unit.id}: it already stands in {st.board.label(h)}", "15.10.2")
    return None


def setup_actions(st: GameState, tables: Tables) -> list[Action]:
    """The legal set-up actions of the side to act (15.10.2)."""
    out: list[Action] = []
    side = st.to_act
    zone = [h for h in st.board if _in_zone(st, side, h)] if side is not None else []
    # Move class → the hexes of the zone its units may stand in (4.3), in the board's order: what
    # _place_refusal accepts, worked out once per class instead of once per unit and hex.
    standable: dict[str, list[Hex]] = {}
    for u in st.units.values():
        if not _placeable(st, u):
            continue
        move_class = tables.sheets[u.type].move_class
        if move_class not in standable:
            standable[move_class] = [
                h for h in zone if tables.movement.base[terrain_of(st, tables, h).movement][move_class] != PROHIBITED
            ]
        out += [Action("place", (u.id, st.board.label(h))) for h in standable[move_class] if h != u.hex]
        facing = status(u).facing
        if facing is not None:
            out += [Action("turn", (u.id, f)) for i, f in enumerate(FACING_NAMES) if i != facing]
    out.append(Action("deploy"))
    return out


def setup_refusal(st: GameState, tables: Tables, typed: Notation) -> Refused | None:
    """Why a set-up action may not be played now, or None."""
    if isinstance(typed, Deploy):
        return None
    if not isinstance(typed, (Place, Turn)):
        return Refused(f"Cannot {typed.verb}: {st.to_act} is setting up (place, turn, deploy)", "15.10.2")
    unit = st.units.get(typed.unit)
    if unit is None or not _placeable(st, unit):
        return Refused(f"Cannot set up {typed.unit}: not a unit of {st.to_act} on the map", "15.10.2")
    if isinstance(typed, Place):
        return _place_refusal(st, tables, unit, typed.hex)
    facing = status(unit).facing
    if facing is None:
        return Refused(f"Cannot turn: {unit.id} is infantry and has no facing", "2.1")
    if FACING_NAMES.index(typed.facing) == facing:
        return Refused(f"Cannot turn: {unit.id} already faces {typed.facing.upper()}", "4.1")
    return None


def apply_setup(tr: Transition, tables: Tables, typed: Notation) -> None:
    """Play a set-up action (checked by :func:`setup_refusal`)."""
    st = tr.state
    d = data(st)
    side = st.to_act
    assert side is not None
    if isinstance(typed, Deploy):
        d.setup_sides.pop(0)
        tr.emit("setup", f"{side} has set up (rule 15.10.2)")
        begin(tr, tables)
        return
    assert isinstance(typed, (Place, Turn))
    unit = st.units[typed.unit]
    s = status(unit)
    seen = (side,) if s.hidden else None
    if isinstance(typed, Turn):
        s.facing = FACING_NAMES.index(typed.facing)
        tr.emit("setup", f"{unit.id} faces {typed.facing.upper()} (rule 15.10.2)", seen, unit=unit.id)
        return
    unit.hex = s.origin = typed.hex
    settle(st, tables, unit)  # 4.9 P: in a building of the hex where it has room
    tr.emit("setup", f"{unit.id} is placed in {st.board.label(typed.hex)} (rule 15.10.2)", seen, unit=unit.id)
    sheet = tables.sheets[unit.type]
    if s.hidden and sheet.unit_type != "infantry" and terrain_of(st, tables, typed.hex).key not in sheet.hide_in:
        s.hidden = False
        tr.reveal()
        tr.emit("reveal", f"{unit.id} may not hide in {st.board.label(typed.hex)}: it is placed openly (rule 13.2)")
