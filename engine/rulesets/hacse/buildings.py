"""Provides occupying buildings (digest 4.9) and the building a ram strikes (12.2, 12.3).

- **Occupying (4.9 P).** Infantry entering a building hex occupies a building there (default yes) when the building
  has room for its soldiers; ``vacate UNIT`` declares that it stays in the streets, ``occupy UNIT`` takes a building
  after all (each once per hex entered, in the unit's activation, no MP). A unit set up in a building hex (guns too)
  starts in a building; a vehicle is in one only after ramming it (12.3). Leaving the hex, or mounting a vehicle,
  leaves the building. Only units in a building are "in a building" for fire, sighting and collapse (6.3 b, 8.6,
  4.9: ``hits.building_of`` reads :func:`occupied`).
- **The building fought over** [INTERP, as ``hits.near_misses`` reads 4.9]: the units occupying a hex are in one
  of its buildings, the one fought over; its room is the type's capacity in soldiers (intact soldier rows of the
  infantry inside; guns and vehicles take none), its damage is ``Data.building_damage`` of the hex; when it
  collapses the next building of the hex stands empty, and when every building of the hex is destroyed none is left
  to occupy.
- **Rams (12.2, 12.3).** A ram's damage goes to the building fought over as fire's does (``hits.damage_building``):
  at its "destroyed at" value it collapses on the units inside whose (top) armour is lower than its own (4.9).
"""

from __future__ import annotations

from engine.hexgrid import Hex
from engine.rules import Transition
from engine.state import GameState, Unit

from .bridges import terrain_of
from .bunkers import bunker_type
from .data import BuildingType, Tables
from .model import data, status
from .movement import Refused

__all__ = [
    "from_above",
    "house",
    "leave",
    "occupants",
    "occupied",
    "occupy",
    "occupy_refusal",
    "on_enter",
    "room",
    "settle",
    "start",
    "vacate_refusal",
]


def house(st: GameState, tables: Tables, h: Hex) -> BuildingType | None:
    """The type of the buildings of ``h`` (4.9), or None when it has none, or none left standing; a bunker of the
    scenario first (4.9 P, ``bunkers.py``)."""
    bunker = bunker_type(st, tables, h)
    if bunker is not None:
        return bunker
    kind = terrain_of(st, tables, h).building
    if kind is None:
        return None
    got = tables.buildings[kind]
    return got if data(st).buildings_lost.get(h, 0) < got.per_hex else None


def occupied(st: GameState, tables: Tables, unit: Unit) -> BuildingType | None:
    """The building type ``unit`` is in (4.9), or None when it is not in a building."""
    s = status(unit)
    if unit.hex is None or not s.in_building or s.destroyed or s.embarked_in or s.towed_by:
        return None
    return house(st, tables, unit.hex)


def from_above(st: GameState, tables: Tables, firer: Unit, target: Unit) -> bool:
    """Whether ``firer``'s direct fire strikes ``target``'s top armour (4.9): infantry in a building firing at a
    vehicle in its hex."""
    if firer.hex is None or firer.hex != target.hex or tables.sheets[target.type].unit_type != "vehicle":
        return False
    return tables.sheets[firer.type].unit_type == "infantry" and occupied(st, tables, firer) is not None


def occupants(st: GameState, tables: Tables, h: Hex) -> list[Unit]:
    """The units in the building fought over in ``h``, by id."""
    return sorted((u for u in st.units.values() if u.hex == h and occupied(st, tables, u)), key=lambda u: u.id)


def _soldiers(tables: Tables, unit: Unit) -> int:
    """The room a unit takes in a building (4.9: capacity in soldiers): infantry its intact rows, others none."""
    return unit.steps if tables.sheets[unit.type].unit_type == "infantry" else 0


def room(st: GameState, tables: Tables, h: Hex) -> int:
    """Soldiers the building fought over in ``h`` may still take (4.9), 0 without one."""
    kind = house(st, tables, h)
    if kind is None:
        return 0
    return kind.capacity - sum(_soldiers(tables, u) for u in occupants(st, tables, h))


def _mark(st: GameState, unit: Unit) -> str:
    return f"{st.turn}.{status(unit).hexes}"


def _choice_refusal(st: GameState, tables: Tables, unit: Unit, verb: str) -> Refused | None:
    s = status(unit)
    if tables.sheets[unit.type].unit_type != "infantry":
        return Refused(f"Cannot {verb}: only infantry chooses to occupy a building ({unit.id} is not infantry)", "4.9")
    if unit.hex is None or house(st, tables, unit.hex) is None:
        return Refused(f"Cannot {verb}: there is no building standing in the hex of {unit.id}", "4.9")
    if s.housed_at == _mark(st, unit):
        return Refused(f"Cannot {verb}: {unit.id} has already chosen in this hex (once per hex entered)", "4.9")
    return None


def occupy_refusal(st: GameState, tables: Tables, unit: Unit) -> Refused | None:
    """Why ``unit`` may not occupy a building of its hex now (4.9 P), or None."""
    why = _choice_refusal(st, tables, unit, "occupy")
    if why is not None:
        return why
    assert unit.hex is not None
    if status(unit).in_building:
        return Refused(f"Cannot occupy: {unit.id} is already in a building", "4.9")
    free = room(st, tables, unit.hex)
    if _soldiers(tables, unit) > free:
        return Refused(
            f"Cannot occupy: the building of {st.board.label(unit.hex)} has room for {free} soldiers, {unit.id} has "
            f"{_soldiers(tables, unit)}",
            "4.9",
        )
    return None


def vacate_refusal(st: GameState, tables: Tables, unit: Unit) -> Refused | None:
    """Why ``unit`` may not leave its building for the streets of its hex now (4.9 P), or None."""
    why = _choice_refusal(st, tables, unit, "vacate")
    if why is None and not status(unit).in_building:
        return Refused(f"Cannot vacate: {unit.id} is not in a building", "4.9")
    return why


def _seen(unit: Unit) -> tuple[str, ...] | None:
    return (unit.side,) if status(unit).hidden else None


def occupy(tr: Transition, unit: Unit, inside: bool) -> None:
    """``occupy`` (``inside``) or ``vacate``: the unit's choice for this hex (4.9 P)."""
    st = tr.state
    s = status(unit)
    s.in_building, s.housed_at = inside, _mark(st, unit)
    assert unit.hex is not None
    where = st.board.label(unit.hex)
    text = f"occupies a building in {where}" if inside else f"leaves its building for the streets of {where}"
    tr.emit("building", f"{unit.id} {text} (rule 4.9)", _seen(unit), unit=unit.id)


def leave(unit: Unit) -> None:
    """The unit is no longer in a building (it left the hex, or mounted a vehicle)."""
    status(unit).in_building = False


def _default(st: GameState, tables: Tables, unit: Unit) -> bool:
    """Whether ``unit`` occupies a building where it stands now by default (4.9 P: infantry, and guns set up in one,
    where the building has room)."""
    if unit.hex is None or tables.sheets[unit.type].unit_type == "vehicle":
        return False
    return house(st, tables, unit.hex) is not None and _soldiers(tables, unit) <= room(st, tables, unit.hex)


def on_enter(tr: Transition, tables: Tables, unit: Unit) -> None:
    """Infantry has entered a hex (a move, the map, out of a vehicle): it occupies a building there by default when
    one has room (4.9 P), and is told when none has."""
    st = tr.state
    leave(unit)
    if unit.hex is None or tables.sheets[unit.type].unit_type != "infantry" or house(st, tables, unit.hex) is None:
        return
    where = st.board.label(unit.hex)
    if _default(st, tables, unit):
        status(unit).in_building = True
        tr.emit("building", f"{unit.id} occupies a building in {where} (rule 4.9)", _seen(unit), unit=unit.id)
    else:
        tr.emit("building", f"{unit.id}: no building in {where} has room for it (rule 4.9)", _seen(unit), unit=unit.id)


def settle(st: GameState, tables: Tables, unit: Unit) -> None:
    """A unit set up (15.10.2) in a building hex occupies a building there when it has room (4.9 P: infantry, and
    guns, which "may start a scenario inside a building")."""
    leave(unit)
    status(unit).in_building = _default(st, tables, unit)


def start(st: GameState, tables: Tables, keep: set[str]) -> None:
    """The scenario's set-up: every unit but those of ``keep`` (the scenario sets their ``in_building``) settles,
    by id (:func:`settle`)."""
    for u in sorted(st.units.values(), key=lambda u: u.id):
        if u.id not in keep:
            settle(st, tables, u)
