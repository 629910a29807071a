"""Provides passengers and towing (digest 4.5, 4.6): who rides with whom, a tractor's speed, and the refusals and
effects of mounting, dismounting, hooking up and unhooking.

Readings [PROPOSED] where the digest is silent: a carrier's room is its ``transport_capacity`` inside and its
outside riders (4.5: up to 4 soldiers outside a vehicle with top armour), counted in soldiers (intact rows of the
passengers); a group mounting sits inside when it fits there, else outside when it fits there (``Status.outside``);
hooking and unhooking cost half the MP in force then (rounded up: a truck pays 2 of its 4 MP to hook up and 1 of its
towing MP 2 to unhook). A passenger who gets out before its carrier has moved pays 1 MP and uses the rest of its MP
at once: its own activation begins there, and the carrier's goes on when it ends (``Data.resume``,
:func:`resume`); one who gets out after the carrier moved has no MP left and is done for the turn.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from engine.state import GameState, Unit

from .data import Tables
from .model import data, status
from .movement import Refused, Spent, admit, tow_speed

__all__ = [
    "dismount_refusal",
    "hook_refusal",
    "mount_refusal",
    "resume",
    "riders",
    "room",
    "seat",
    "speed",
    "unhook_refusal",
]


def riders(st: GameState, unit: Unit) -> Iterator[Unit]:
    """The units embarked in or towed by ``unit`` (4.5, 4.6)."""
    for u in st.units.values():
        s = status(u)
        if unit.id in (s.embarked_in, s.towed_by):
            yield u


def towed(st: GameState, unit: Unit) -> Unit | None:
    """The load ``unit`` tows, if any (4.6: one at most)."""
    uid = unit.id
    return next((u for u in st.units.values() if status(u).towed_by == uid), None)


def speed(st: GameState, tables: Tables, unit: Unit) -> tuple[int, int]:
    """The unit's (MP, road MP): its sheet's, or its towing speed while it tows (4.6)."""
    sheet = tables.sheets[unit.type]
    load = towed(st, unit) if sheet.unit_type == "vehicle" else None  # 4.6: only vehicles tow
    if load is not None:
        got = tow_speed([sheet], tables.sheets[load.type].weight_t or 0.0, tables)
        if got is not None:
            return got
    return sheet.mp, sheet.road_mp


def room(st: GameState, tables: Tables, carrier: Unit) -> tuple[int, int]:
    """Soldiers the carrier may still take (4.5), (inside, outside): its capacity inside and its outside riders,
    less the soldiers (intact rows) of the units aboard there."""
    sheet = tables.sheets[carrier.type]
    aboard = [u for u in riders(st, carrier) if status(u).embarked_in == carrier.id]
    out = sum(u.steps for u in aboard if status(u).outside)
    return sheet.transport_capacity - sum(u.steps for u in aboard) + out, sheet.outside_riders - out


def seat(st: GameState, tables: Tables, carrier: Unit, unit: Unit) -> str | None:
    """Where ``unit`` rides if it mounts ``carrier`` (4.5 P): ``inside`` when it fits there, else ``outside`` when
    it fits there, else None."""
    inside, outside = room(st, tables, carrier)
    if unit.steps <= inside:
        return "inside"
    return "outside" if unit.steps <= outside else None


def _spent(unit: Unit) -> Spent:
    s = status(unit)
    return Spent(s.half_mp, s.off_road, s.max_move, s.hexes - s.off_road)


def half_mp_cost(st: GameState, tables: Tables, unit: Unit) -> int:
    """Hooking up or unhooking costs half the MP in force, rounded up (4.6 [PROPOSED])."""
    return math.ceil(speed(st, tables, unit)[0] / 2)


def _pay(st: GameState, tables: Tables, unit: Unit, mp: float, what: str) -> Spent | Refused:
    allowance = speed(st, tables, unit)
    return admit(tables, _spent(unit), mp, mp=allowance[0], road_mp=allowance[1], kind="none", what=what)


def mount_refusal(st: GameState, tables: Tables, unit: Unit, carrier: Unit) -> Spent | Refused:
    """The MP after ``unit`` mounts ``carrier``, or why it may not (4.5)."""
    if tables.sheets[unit.type].unit_type != "infantry":
        return Refused(f"Cannot mount: only infantry rides on vehicles ({unit.id} is not infantry)", "4.5")
    if carrier.side != unit.side or tables.sheets[carrier.type].unit_type != "vehicle":
        return Refused(f"Cannot mount: {carrier.id} is not a friendly vehicle", "4.5")
    if carrier.hex is None or carrier.hex != unit.hex:
        return Refused(f"Cannot mount: {carrier.id} is not in {unit.id}'s hex", "4.5")
    if status(carrier).embarked_in or status(carrier).towed_by:
        return Refused(f"Cannot mount: {carrier.id} is itself carried", "4.5")
    if seat(st, tables, carrier, unit) is None:
        inside, outside = room(st, tables, carrier)
        where = f"{inside} soldiers inside and {outside} outside" if outside else f"{inside} soldiers"
        return Refused(f"Cannot mount: {carrier.id} has room for {where}, {unit.id} has {unit.steps}", "4.5")
    return _pay(st, tables, unit, float(tables.movement.value("mount_mp")), f"mounting {carrier.id}")


def dismount_refusal(st: GameState, tables: Tables, carrier: Unit, passenger: Unit) -> Refused | None:
    """Why ``passenger`` may not get out of ``carrier`` now (4.5), or None."""
    if status(passenger).embarked_in != carrier.id:
        return Refused(f"Cannot dismount: {passenger.id} is not aboard {carrier.id}", "4.5")
    if carrier.hex is None:
        return Refused(f"Cannot dismount: {carrier.id} has not entered the map", "15.10.2")
    return None


def hook_refusal(st: GameState, tables: Tables, tractor: Unit, load: Unit) -> Spent | Refused:
    """The tractor's MP after hooking up ``load``, or why it may not (4.6)."""
    if tables.sheets[tractor.type].unit_type != "vehicle":
        return Refused(f"Cannot hook up: {tractor.id} is not a vehicle", "4.6")
    if towed(st, tractor) is not None:
        return Refused(f"Cannot hook up: {tractor.id} already tows a load", "4.6")
    if load.side != tractor.side or load.hex != tractor.hex or tables.sheets[load.type].unit_type == "infantry":
        return Refused(f"Cannot hook up: {load.id} is not a friendly gun or vehicle in {tractor.id}'s hex", "4.6")
    if status(load).towed_by or status(load).embarked_in or towed(st, load) is not None:
        return Refused(f"Cannot hook up: {load.id} is towed, carried or towing", "4.6")
    weight = tables.sheets[load.type].weight_t or 0.0
    if tow_speed([tables.sheets[tractor.type]], weight, tables) is None:
        return Refused(f"Cannot hook up: {load.id} ({weight:g} t) is too heavy for {tractor.id}", "4.6")
    return _pay(st, tables, tractor, float(half_mp_cost(st, tables, tractor)), f"hooking up {load.id}")


def unhook_refusal(st: GameState, tables: Tables, tractor: Unit) -> Spent | Refused:
    """The tractor's MP after unhooking its load, or why it may not (4.6)."""
    load = towed(st, tractor)
    if load is None:
        return Refused(f"Cannot unhook: {tractor.id} tows nothing", "4.6")
    if tractor.hex is None:
        return Refused(f"Cannot unhook: {tractor.id} has not entered the map", "15.10.2")
    return _pay(st, tables, tractor, float(half_mp_cost(st, tables, tractor)), f"unhooking {load.id}")


def in_activation(st: GameState, unit: Unit) -> bool:
    """Whether ``unit`` is the unit in activation."""
    return data(st).active == unit.id


def resume(st: GameState, unit: Unit) -> bool:
    """When the activation of ``unit``, a passenger that got out before its carrier moved (4.5 P), ends: the
    carrier's activation goes on (it is the unit in activation again). False when ``unit`` is no such passenger."""
    d = data(st)
    if d.resume is None or d.resume == unit.id:
        return False
    status(unit).activated = True
    d.active, d.resume = d.resume, None
    st.to_act = unit.side
    return True
