"""Provides what a hit does beyond the unit it strikes: the riders and passengers of a vehicle (4.5, 8.5) and the
building an infantry unit stands in (6.3 b, 8.6, 4.9).

- :func:`passengers` tells the groups inside a carrier from those riding outside, :func:`target_of` gives the unit
  as ``damage.Target`` with them (cargo-bed hits, riders' extra damage); :func:`carried_damage` deals the
  passengers' share of the hits.
- :func:`building_of` is the building an infantry unit is in, :func:`near_misses` the damage near misses do to it,
  :func:`damage_building` any damage to it (8.6), its collapse and the rubble of the hex (4.9).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from engine.hexgrid import Hex
from engine.rules import Transition
from engine.state import GameState, Unit

from . import buildings, sheets
from .bunkers import BUNKER
from .damage import HitResult, Target, building_damage, destroyed_with_building, range_dk
from .data import BuildingType, Tables
from .fire import Shot, outcome_band
from .model import data, status

__all__ = ["Recorder", "building_of", "carried_damage", "damage_building", "near_misses", "passengers", "target_of"]

Recorder = Callable[[Transition, Tables, Unit, tuple[int, ...], str], None]
"""Records rows hit on a unit: their effects and the morale trigger (``attack.record_damage``)."""


def building_of(st: GameState, tables: Tables, unit: Unit) -> BuildingType | None:
    """The building type a unit is in (4.9, 6.3 b): one it occupies (``buildings.occupied``: infantry by choice, a
    gun set up in one, a vehicle that rammed one)."""
    return buildings.occupied(st, tables, unit)


def near_misses(tr: Transition, tables: Tables, target: Unit, shot: Shot, count: int) -> None:
    """8.6: each miss by 10 or less at a unit in a building damages the building if the shot's range-modified Dk
    breaks its armour (the vehicle formula, P); at its "destroyed at" value it collapses on the units of the hex
    whose armour is lower (4.9), and the next building of the hex is the one fought over [INTERP]."""
    house = building_of(tr.state, tables, target)
    if house is None or not count or target.hex is None:
        return
    dk, _ = range_dk(shot.ammo.dk, outcome_band(shot))
    points = count * building_damage(dk, house.armour, he=shot.ammo.he)
    where = target.hex
    if not points:
        what = f"the {house.key} building at {tr.state.board.label(where)}"
        tr.emit("fire", f"Near misses at {target.id}: Dk {dk} does not break {what} (rule 8.6)")
        return
    damage_building(tr, tables, where, house, points, f"Near misses at {target.id}")


def damage_building(
    tr: Transition, tables: Tables, where: Hex, house: BuildingType, points: int, cause: str, rule: str = "8.6"
) -> tuple[bool, list[Unit]]:
    """``points`` of damage to the building fought over in ``where`` (fire and near misses 8.6, a ram 12.2): at its
    "destroyed at" value it collapses on the units inside whose (top) armour is lower (4.9), the others stand in
    the streets, and the next building of the hex is the one fought over [INTERP]; when the last one falls the hex
    becomes rubble (4.9 P; ``bridges.terrain_of``). (Whether it collapsed, the units it destroyed.)"""
    d = data(tr.state)
    what = f"the {house.key} building at {tr.state.board.label(where)}"
    d.building_damage[where] = d.building_damage.get(where, 0) + points
    done = d.building_damage[where]
    tr.emit("fire", f"{cause}: {what} takes {points} damage ({done} of {house.destroyed_at}; rule {rule})")
    if done < house.destroyed_at:
        return False, []
    inside = buildings.occupants(tr.state, tables, where)  # before the hex counts it lost (its last one too)
    d.building_damage[where] = 0
    d.buildings_lost[where] = d.buildings_lost.get(where, 0) + 1
    tr.emit("fire", f"{what[0].upper()}{what[1:]} collapses (rule 4.9)")
    if d.buildings_lost[where] >= house.per_hex:  # 4.9 P: every building of the hex is destroyed
        tr.emit("terrain", f"{tr.state.board.label(where)} is rubble now (rule 4.9)")
        d.rubble_turn[where] = tr.state.turn  # 3.2 P: for LOS from the end of this phase (sighting.rubble_hexes)
    lost: list[Unit] = []
    for u in inside:
        buildings.leave(u)  # the survivors stand in the streets (4.9)
        if destroyed_with_building(tables.sheets[u.type].armour.top, house.armour):
            status(u).destroyed = True
            tr.emit("destroyed", f"{u.id} is destroyed with the building (rule 4.9)", unit=u.id)
            lost.append(u)
    return True, lost


def passengers(st: GameState, tables: Tables, vehicle: Unit) -> tuple[list[Unit], list[Unit]]:
    """The groups aboard ``vehicle`` (4.5), (inside, outside): those seated outside when they mounted
    (``Status.outside``) ride outside; the others by id fill its transport capacity (in soldiers, their intact rows),
    and any left over ride outside."""
    aboard = sorted(
        (u for u in st.units.values() if status(u).embarked_in == vehicle.id and not status(u).destroyed),
        key=lambda u: u.id,
    )
    room = tables.sheets[vehicle.type].transport_capacity
    inside: list[Unit] = []
    outside: list[Unit] = []
    for u in aboard:
        if u.steps <= room and not status(u).outside:
            inside.append(u)
            room -= u.steps
        else:
            outside.append(u)
    return inside, outside


def target_of(st: GameState, tables: Tables, unit: Unit) -> Target:
    """The unit as damage sees it (8): its rows hit, the groups inside (cargo-bed hits, 8.5) and whether it has
    outside riders (4.5); an armoured unit in a building has the higher of its and the building's armour (8.4)."""
    got = _target(st, tables, unit)
    house = buildings.occupied(st, tables, unit)
    if house is not None and house.key == BUNKER:  # 8.4: the bunker's armour must be penetrated
        got = replace(got, bunker=house.armour)
    return got if house is None else got.sheltered(house.armour)


def _target(st: GameState, tables: Tables, unit: Unit) -> Target:
    sheet = tables.sheets[unit.type]
    s = status(unit)
    if not (sheet.transport_capacity or sheet.outside_riders):
        return sheets.target(sheet, s.rows_hit)
    inside, outside = passengers(st, tables, unit)
    return sheets.target(sheet, s.rows_hit, embarked=len(inside), riders=bool(outside))


def carried_damage(tr: Transition, tables: Tables, vehicle: Unit, hits: Sequence[HitResult], record: Recorder) -> None:
    """The passengers' share of hits on ``vehicle``: each hit deals 1 extra damage to one outside rider group chosen
    at random (4.5 INTERP), each cargo-bed point 1 damage to a random group inside (8.5 P); the lowest intact soldier
    row takes it, recorded by ``record`` (``attack.record_damage``: effects and the morale trigger)."""
    for where, points in (
        ("outside", sum(h.riders for h in hits)),
        ("inside", sum(h.allocation.cargo_hits for h in hits)),
    ):
        for _ in range(points):
            inside, outside = passengers(tr.state, tables, vehicle)
            groups = [g for g in (outside if where == "outside" else inside) if g.steps > 0]
            if not groups:
                break
            pick = 0
            if len(groups) > 1:
                pick = tr.roll(len(groups), 1, f"which group {where} {vehicle.id} is hit (rule 4.5)")[0] - 1
            group = groups[pick]
            gs = status(group)
            row = next(
                r.index for r in tables.sheets[group.type].rows if r.kind == "soldier" and r.index not in gs.rows_hit
            )
            rule = "4.5" if where == "outside" else "8.5"
            tr.emit("damage", f"{group.id}, {where} {vehicle.id}, takes 1 damage (rule {rule})", unit=group.id)
            record(tr, tables, group, (row,), "side")
