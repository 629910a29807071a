"""Provides searchlights (digest 6.1 P): a sighting aid at night.

- **Where it sits.** A sheet's ``equipment.searchlight`` (1: the unit carries one; no shipped sheet does), and the
  hex it lights, the unit's ``status.searchlight`` (a scenario sets it; "HEX" within ``searchlight_range`` = 20
  hexes of ``data/sight.toml``, 6.1 P).
- **How it lights.** Sighting into the lit hex or its neighbours is at +1 per full 2 hexes where that is less than
  the weather's and light's term (6.1, ``sighting._distance_term``, as a fire's light).
- **Who it reveals.** The lit targets (above), and the searchlight's own unit: while it shines it is automatically
  sighted by every enemy with LOS (6.1 P, ``sighting.automatic``).
- **Aimed.** Once per turn in the Movement Phase, in two steps (6.1 P; ``aiming.py``). The scenario's
  ``status.searchlight`` is the aim it starts with; a unit without one lights nothing until it is aimed. [INTERP]
  It cannot be switched off: the digest gives it no such order.
- **Shot out.** [INTERP] It shines only while its unit is on the map, not destroyed, not carried and not out of
  action (8.5: a hit on its equipment puts it out); the digest gives the searchlight no row of its own.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.board import Board
from engine.hexgrid import Hex, distance
from engine.specs import UnitSpec
from engine.state import GameState, Unit

from . import sheets
from .damage import effects
from .data import Tables
from .model import status
from .weather import sight_table

__all__ = ["check", "lit", "lit_hexes", "range_hexes", "shining", "why_dark"]


def range_hexes() -> int:
    """``searchlight_range`` of ``data/sight.toml`` (6.1 P)."""
    return int(sight_table()["searchlight_range"])


def shining(st: GameState, tables: Tables, unit: Unit) -> bool:
    """Whether ``unit``'s searchlight shines now (6.1 P): it carries one, lights a hex within range, and can."""
    s = status(unit)
    if s.searchlight is None or unit.hex is None or distance(unit.hex, s.searchlight) > range_hexes():
        return False
    return why_dark(tables, unit) is None


def why_dark(tables: Tables, unit: Unit) -> str | None:
    """Why the unit's searchlight cannot shine (6.1 P; 8.5: a hit on its equipment puts it out), else None."""
    s = status(unit)
    sheet = tables.sheets[unit.type]
    if sheet.equipment.get("searchlight", 0) < 1:
        return "carries no searchlight"
    if unit.hex is None or s.destroyed or s.embarked_in or s.towed_by:
        return "is not on the map on its own"
    if s.rows_hit and effects(sheets.target(sheet, s.rows_hit)).out_of_action:
        return "is out of action"
    return None


def lit_hexes(st: GameState, tables: Tables) -> set[Hex]:
    """The hexes the searchlights light (6.1 P), without their neighbours."""
    return {h for u in st.units.values() if (h := status(u).searchlight) is not None and shining(st, tables, u)}


def lit(st: GameState, tables: Tables, where: Hex | None) -> bool:
    """Whether a searchlight lights ``where`` or a neighbour of it (6.1: a sighting aid)."""
    if where is None:
        return False
    near = lit_hexes(st, tables)
    return bool(near) and (where in near or any(n in near for n in where.neighbours()))


def check(spec: UnitSpec, tables: Tables, board: Board, add: Callable[[str], None]) -> None:
    """The validator's checks of a unit's ``status.searchlight`` (6.1 P): its sheet carries one, and the hex is on
    the map within range of the unit."""
    if tables.sheets[spec.type].equipment.get("searchlight", 0) < 1:
        add(f"unit {spec.id}: its sheet {spec.type} carries no searchlight (equipment.searchlight, 6.1)")
    try:
        h = board.parse(str(spec.status["searchlight"]))
    except ValueError as err:
        add(f"unit {spec.id}: {err} (6.1)")
        return
    if spec.hex is not None and distance(spec.hex, h) > range_hexes():
        add(f"unit {spec.id}: {board.label(h)} is beyond the searchlight's {range_hexes()} hexes (6.1)")
