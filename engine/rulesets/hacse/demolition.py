"""Provides fire aimed at a building (8.6 P) as ``fire UNIT HEX WEAPON [AMMO] building`` in Phase 3b.

- Only occupied buildings are fought over (4.9): the hex must hold a building with an enemy unit in it that the
  firer's side knows of (not hidden, 13.2). The firer needs the hex in its weapon's arc and direct range and a line
  of sight to it (6.2); weapons that fire only indirectly and physical weapons are refused (7.1, 12.1).
- TN = base number + range (medium +4, long +8) + the firer's own modifiers (moved +2, shaken +5); target-unit
  modifiers do not apply (8.6 P). A natural 2 misses and jams (6.6). One roll per weapon, 1 rules shot [INTERP: a
  pool or a burst fires one roll at a building].
- A hit deals the vehicle formula (8.1) with the Dk after range modifiers against the building's armour (8.6 P);
  a shot whose Dk cannot break the armour is refused (it could do nothing). ``hits.damage_building`` collapses the
  building at its "destroyed at" value (4.9) and turns the hex to rubble when the last one falls.
- Where the weapon has several rounds the round is named (as for fire at a hex, 7.4); smoke is refused (7.1).
- Fire aimed at a bridge (4.10, 8.6 P) is ``fire UNIT HEX WEAPON [AMMO] bridge``: the same shot against a bridge
  standing (not blown) in any hex, by either side, from the turn the scenario lets it be destroyed (15.10.5 H-3: turn
  6 [INTERP], as for blowing it), with the bridge's armour (2) and damage (25 destroys it,
  ``bridges.damage``, which blows it as demolition charges do: the units on it fall with it).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

from engine.actions import Action
from engine.errors import IllegalActionError
from engine.events import Modifier
from engine.hexgrid import Hex, distance
from engine.odds import Odds, OddsEntry
from engine.rules import Transition
from engine.state import GameState, Unit

from . import attack, bridges, hits, sheets
from .attack import mount_label
from .bridges import bridge_hexes, terrain_of
from .damage import building_damage, range_dk
from .data import BuildingType, Tables
from .fire import range_band
from .firedata import TWO_D10, fire_table, mod, total
from .geometry import in_arc, theta
from .model import data, status
from .movement import Refused
from .sighting import sight_line
from .targetdie import has_moved

__all__ = ["BRIDGE", "OPTION", "Demolition", "actions", "bridge_type", "fire", "has_building_shot", "odds", "ready"]

OPTION = "building"
"""The option word of ``fire`` aimed at a building (8.6 P)."""
BRIDGE = "bridge"
"""The option word of ``fire`` aimed at a bridge (4.10, 8.6 P)."""


def bridge_type(tables: Tables) -> BuildingType:
    """A bridge as a target of fire (4.10: armour 2, destroyed at 25 damage; ``terrain.toml`` [bridge])."""
    b = tables.bridge
    return BuildingType(BRIDGE, 0, int(b["armour"]), int(b["destroyed_at"]), 0, 1)


def _what(house: BuildingType) -> str:
    return "the bridge" if house.key == BRIDGE else f"the {house.key} building"


@dataclass(frozen=True, slots=True)
class Demolition:
    """Fire at a building made ready (8.6 P): the firer's mount and round, the hex, the TN and what a hit does."""

    firer: str
    mount: int
    label: str
    ammo: str
    hex: Hex
    tn: int
    modifiers: tuple[Modifier, ...]
    dk: int
    """The Dk after range modifiers (8.6 P)."""
    points: int
    """The damage a hit deals to the building (8.1 vehicle formula)."""
    house: BuildingType


def _occupied(st: GameState, tables: Tables, side: str) -> list[Hex]:
    """The hexes where the side knows an enemy unit in a building (4.9: only occupied buildings are fought over)."""
    out = {
        u.hex
        for u in st.units.values()
        if u.side != side
        and u.hex is not None
        and not (status(u).hidden or status(u).destroyed)
        and hits.building_of(st, tables, u) is not None
    }
    return sorted(out, key=lambda h: (h.q, h.r))


def ready(
    st: GameState, tables: Tables, firer: Unit, where: Hex, label: str, ammo: str | None, option: str = OPTION
) -> Demolition | Refused:
    """The fire of ``firer``'s weapon ``label`` at the building (``option`` building) or the bridge (``bridge``) in
    ``where``, or why it may not be made."""
    why = attack.phase_refusal(st, tables, firer)
    if why is not None:
        return why
    sheet = tables.sheets[firer.type]
    index = next((i for i in range(len(sheet.mounts)) if mount_label(sheet, i).lower() == label.lower()), None)
    if index is None:
        return Refused(f"Cannot fire: {firer.id} has no weapon {label}", "2.3")
    why = attack.weapon_refusal(tables, firer, index)
    if why is not None:
        return why
    return _at(st, tables, firer, index, where, ammo, option)


def _bridge_refusal(st: GameState, tables: Tables, firer: Unit, where: Hex) -> Refused | BuildingType:
    """4.10, 8.6 P: any bridge still standing may be fired at, by either side, but not from the bridge itself, and
    not before the scenario's first turn for destroying it (15.10.5 H-3: turn 6) [INTERP]."""
    place = st.board.label(where)
    if not terrain_of(st, tables, where).bridge:
        return Refused(f"Cannot fire at a bridge: {place} has no bridge standing", "4.10")
    if where == firer.hex:
        return Refused(f"Cannot fire at the bridge {place}: {firer.id} stands on it", "8.6")
    start = data(st).blow_from
    if st.turn < start:  # INTERP: the scenario's first turn for destroying the bridge holds for fire too
        return Refused(f"Cannot fire at the bridge {place}: it may not be destroyed before turn {start}", "15.10.5")
    return bridge_type(tables)


def _target_refusal(
    st: GameState, tables: Tables, firer: Unit, where: Hex, option: str = OPTION
) -> Refused | BuildingType:
    if where not in st.board:
        return Refused("Cannot fire: that hex is off the map", "8.6")
    if option == BRIDGE:
        return _bridge_refusal(st, tables, firer, where)
    place = st.board.label(where)
    kind = terrain_of(st, tables, where).building
    if kind is None:
        return Refused(f"Cannot fire at a building: {place} has no building standing", "8.6")
    if where == firer.hex:
        return Refused(f"Cannot fire at the building of {place}: {firer.id} stands in that hex", "8.6")
    if where not in _occupied(st, tables, firer.side):
        return Refused(
            f"Cannot fire at the buildings of {place}: only a building an enemy unit is known to occupy is fought over",
            "4.9",
        )
    return tables.buildings[kind]


def _round(tables: Tables, firer: Unit, index: int, ammo: str | None) -> str | Refused:
    """The round (15.5): named where the weapon has several, never smoke (7.1), with a round left."""
    m = tables.sheets[firer.type].mounts[index]
    weapon = tables.weapons[m.weapon]
    name = mount_label(tables.sheets[firer.type], index)
    if ammo is None:
        if len(m.ammo) > 1:
            return Refused(f"Cannot fire at a building without naming the round: {' or '.join(m.ammo)}", "15.5")
        ammo = next(iter(m.ammo))
    if ammo not in m.ammo:
        return Refused(f"Cannot fire: the {name} of {firer.id} has no {ammo} ammunition ({', '.join(m.ammo)})", "15.5")
    if weapon.ammo[ammo].smoke:
        return Refused(f"Cannot fire {ammo} at a building: smoke rounds are fired at a hex", "7.1")
    if status(firer).spent.get(f"{index}.{ammo}", 0) >= m.ammo[ammo]:
        return Refused(f"Cannot fire: the {name} of {firer.id} has no {ammo} ammunition left", "15.5")
    return ammo


def _at(
    st: GameState, tables: Tables, firer: Unit, index: int, where: Hex, ammo: str | None, option: str = OPTION
) -> Demolition | Refused:
    house = _target_refusal(st, tables, firer, where, option)
    if isinstance(house, Refused):
        return house
    assert firer.hex is not None
    sheet = tables.sheets[firer.type]
    m = sheet.mounts[index]
    name = mount_label(sheet, index)
    s = status(firer)
    if s.facing is not None and not in_arc(m.arc, theta(firer.hex, s.facing, where)):
        return Refused(f"Cannot fire: {st.board.label(where)} is outside the arc of the {name} of {firer.id}", "2.2")
    akey = _round(tables, firer, index, ammo)
    if isinstance(akey, Refused):
        return akey
    weapon = sheets.weapon(tables.weapons[m.weapon])
    try:
        band = range_band(weapon, distance(firer.hex, where))
    except IllegalActionError as e:
        return Refused(str(e.args[0]) if e.args else "Cannot fire: out of range", e.rule or "6.3")
    line = sight_line(st, tables, firer.hex, where)
    if not line.clear:
        return Refused(
            f"Cannot fire: no line of sight from {firer.id} to {st.board.label(where)}: {line.reason}", "6.2"
        )
    shell = sheets.ammo(tables.weapons[m.weapon].ammo[akey])
    dk, _ = range_dk(shell.dk, band)
    points = building_damage(dk, house.armour, he=shell.he)
    if not points:
        return Refused(f"Cannot fire at {_what(house)}: Dk {dk} does not break its armour {house.armour}", "8.6")
    mods = _modifiers(firer, band)
    tn = total(mods)
    if tn > fire_table().roll["max_tn"]:
        return Refused(f"Cannot fire: TN {tn} is above {fire_table().roll['max_tn']}", "6.3")
    return Demolition(firer.id, index, name, akey, where, tn, mods, dk, points, house)


def _modifiers(firer: Unit, band: str) -> tuple[Modifier, ...]:
    """8.6 P: base number + range + the firer's own modifiers (moved, shaken)."""
    s = status(firer)
    hit = fire_table().hit
    out = [mod(sheets.base_number(s.experience), "base number", "6.3")]
    if band in ("medium", "long"):
        out.append(mod(hit["medium_range"], "medium range", "6.3"))
    if band == "long":
        out.append(mod(hit["long_range"], "long range", "6.3"))
    if has_moved(Fraction(s.half_mp, 2)):
        out.append(mod(hit["firer_moved"], "firer moved this turn", "6.3"))
    if s.shaken:
        out.append(mod(hit["shaken"], "firer shaken", "9.5"))
    return tuple(out)


# --- Listing ---------------------------------------------------------------------------------------------------


def _each(st: GameState, tables: Tables, unit: Unit) -> Iterator[Action]:
    s = status(unit)
    if unit.hex is None or not s.may_fire or s.fire_done or attack.phase_refusal(st, tables, unit) is not None:
        return
    places = [(h, OPTION) for h in _occupied(st, tables, unit.side)]
    places += [(h, BRIDGE) for h in bridge_hexes(st, tables)]  # 4.10, 8.6 P
    if not places:
        return
    sheet = tables.sheets[unit.type]
    for i, m in enumerate(sheet.mounts):
        if attack.weapon_refusal(tables, unit, i) is not None:
            continue
        words: list[tuple[str, ...]] = [(k,) for k in m.ammo] if len(m.ammo) > 1 else [()]
        for h, option in places:
            for w in words:
                if not isinstance(_at(st, tables, unit, i, h, w[0] if w else None, option), Refused):
                    yield Action("fire", (unit.id, st.board.label(h), mount_label(sheet, i), *w, option))


def actions(st: GameState, tables: Tables, unit: Unit) -> list[Action]:
    """Every fire at a building or a bridge the unit may make now (the round named where the weapon has several)."""
    return list(_each(st, tables, unit))


def has_building_shot(st: GameState, tables: Tables, unit: Unit) -> bool:
    """Whether the unit may fire at a building now (the first found ends the search)."""
    return next(_each(st, tables, unit), None) is not None


attack.SHOT_SOURCES.append(has_building_shot)


# --- Resolution and odds ------------------------------------------------------------------------------------------


def fire(tr: Transition, tables: Tables, firer: Unit, shot: Demolition) -> None:
    """Make the fire at the building with the game's dice: a jam, or on a hit the building's damage (8.6)."""
    s = status(firer)
    bridge = shot.house.key == BRIDGE
    place = tr.state.board.label(shot.hex)
    explain = f"TN {shot.tn} = " + " ".join(str(m) for m in shot.modifiers)
    (a, b) = tr.roll(
        10,
        2,
        f"{firer.id} fires its {shot.label} at the {'bridge' if bridge else 'building'} at {place}: {explain}",
        target=shot.tn,
        compare="at_least",
    )
    roll = a + b
    s.fired.append(shot.mount)
    s.rapid = False  # 11.2: fire at a building takes no option
    key = f"{shot.mount}.{shot.ammo}"
    s.spent[key] = s.spent.get(key, 0) + 1
    s.fired_dk = max(s.fired_dk, shot.dk)
    jammed = roll in fire_table().jam
    hit = not jammed and roll >= shot.tn and roll != fire_table().roll["always_miss"]
    result = "jam" if jammed else "hit" if hit else "miss"
    tr.emit(
        "fire",
        f"{firer.id} fires its {shot.label} ({shot.ammo}) at {_what(shot.house)} at {place}: {roll} "
        f"{result} against {explain} (rule 8.6)",
        unit=firer.id,
    )
    if jammed:
        attack.jam(tr, tables, firer, shot.mount, shot.label)
    if hit and bridge:
        bridges.damage(tr, tables, shot.hex, shot.points, f"{firer.id}'s fire")
    elif hit:
        hits.damage_building(tr, tables, shot.hex, shot.house, shot.points, f"{firer.id}'s fire")


def odds(action: Action, shot: Demolition) -> Odds:
    """Exact odds of fire at a building or a bridge: jam, miss, or its damage (8.6)."""
    table = fire_table()
    bridge = shot.house.key == BRIDGE
    jam = sum((p for r, p in TWO_D10.items() if r in table.jam), Fraction(0))
    hit = sum(
        (p for r, p in TWO_D10.items() if r >= shot.tn and r not in table.jam and r != table.roll["always_miss"]),
        Fraction(0),
    )
    entries = (
        OddsEntry("jam", jam),
        OddsEntry("miss", 1 - hit - jam),
        OddsEntry(f"{shot.points} damage to the {'bridge' if bridge else 'building'}", hit, float(shot.points)),
    )
    note = f"TN {shot.tn} = " + " ".join(str(m) for m in shot.modifiers)
    note += f"; Dk {shot.dk} against armour {shot.house.armour}; destroyed at {shot.house.destroyed_at}"
    return Odds(action, tuple(e for e in entries if e.probability), note=note)
