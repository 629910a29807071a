"""Provides smoke grenades (15.4) as ``smoke UNIT WEAPON`` in Phase 3b.

A unit with a smoke grenade left (its sheet's ``smoke_grenades`` less ``Status.used``) throws one into its own hex
instead of firing the weapon named (15.4: "throwing it replaces one weapon's fire"; a tank crew member throws
instead of operating his weapon): that mount counts as fired this phase. The hex has smoke for the grenade's HE
value in turns (``weapons.toml`` SG: 2; 15.4, G20), counted for LOS from the end of this Fire Phase (3.2 P), as a
smoke shell's (7.1). No dice.

Readings (README): the throw is offered to a unit that has a shot to make in 3b (its fire is what the grenade
replaces), with a weapon that has not fired, is not jammed and has its operator; a carried mount of several
weapons (the squad's rifles) counts as fired as a whole [INTERP].
"""

from __future__ import annotations

from engine.actions import Action
from engine.rules import Transition
from engine.state import GameState, Unit

from . import attack, options
from .attack import mount_label
from .data import Tables
from .model import data, status
from .movement import Refused

__all__ = ["ITEM", "actions", "left", "refusal", "throw", "turns"]

ITEM = "smoke_grenades"
"""The sheet's equipment key of smoke grenades (2.3, 15.7)."""


def left(tables: Tables, unit: Unit) -> int:
    """Smoke grenades the unit still has (15.7 equipment less those thrown)."""
    return tables.sheets[unit.type].equipment.get(ITEM, 0) - status(unit).used.get(ITEM, 0)


def turns(tables: Tables) -> int:
    """Turns of smoke a grenade leaves (15.4: the SG's HE value)."""
    return next(a.he for a in tables.weapons["SG"].ammo.values() if a.smoke)


def _mount(tables: Tables, unit: Unit, label: str) -> int | None:
    sheet = tables.sheets[unit.type]
    return next((i for i in range(len(sheet.mounts)) if mount_label(sheet, i).lower() == label.lower()), None)


def refusal(st: GameState, tables: Tables, unit_id: str, label: str) -> Refused | None:
    """Why ``smoke unit_id label`` may not be played now (15.4, 3.2), or None."""
    unit = st.units.get(unit_id)
    if unit is None or unit.side != st.to_act:
        return Refused(f"Cannot throw smoke: {unit_id} is not a unit of {st.to_act}", "3.2")
    if st.phase != "attack" or data(st).physical is not None:
        return Refused("Cannot throw smoke: a smoke grenade is thrown in the Fire Phase (3b)", "15.4")
    why = attack.phase_refusal(st, tables, unit)
    if why is not None:
        return Refused(why.text.replace("Cannot fire", "Cannot throw smoke"), why.rule)
    if left(tables, unit) < 1:
        return Refused(f"Cannot throw smoke: {unit_id} has no smoke grenade left", "15.4")
    index = _mount(tables, unit, label)
    if index is None:
        return Refused(f"Cannot throw smoke: {unit_id} has no weapon {label}", "2.3")
    why = attack.weapon_refusal(tables, unit, index, indirect=True)
    if why is not None:
        return Refused(f"{why.text}; a smoke grenade replaces the fire of a weapon that could fire", why.rule)
    if not (options.fire_actions(st, tables, unit) or attack.has_shot(st, tables, unit)):
        return Refused(
            f"Cannot throw smoke: {unit_id} has no fire to make this phase for the grenade to replace", "15.4"
        )
    return None


def actions(st: GameState, tables: Tables, unit: Unit) -> list[Action]:
    """The smoke grenades ``unit`` may throw now, one per weapon whose fire it would replace; the caller lists
    them only for a unit that has a shot (as :func:`refusal` asks)."""
    if st.phase != "attack" or left(tables, unit) < 1 or attack.phase_refusal(st, tables, unit) is not None:
        return []
    sheet = tables.sheets[unit.type]
    return [
        Action("smoke", (unit.id, mount_label(sheet, i)))
        for i in range(len(sheet.mounts))
        if attack.weapon_refusal(tables, unit, i, indirect=True) is None
    ]


def throw(tr: Transition, tables: Tables, unit: Unit, label: str) -> None:
    """Throw the grenade: smoke in the unit's hex, the weapon's fire used; the unit's fire ends when no shot is left."""
    st = tr.state
    s = status(unit)
    index = _mount(tables, unit, label)
    assert index is not None and unit.hex is not None
    d = data(st)
    d.active = unit.id
    s.used[ITEM] = s.used.get(ITEM, 0) + 1
    s.fired.append(index)
    n = turns(tables)
    d.smoke[unit.hex] = max(d.smoke.get(unit.hex, 0), n)
    if d.smoke_turn != st.turn:
        d.smoke_new, d.smoke_turn = [], st.turn
    d.smoke_new.append(unit.hex)  # 3.2 P: it counts for LOS after this Fire Phase
    place = st.board.label(unit.hex)
    text = (
        f"{unit.id} throws a smoke grenade instead of firing its {mount_label(tables.sheets[unit.type], index)}: "
        f"smoke in {place} for {n} turns (rule 15.4)"
    )
    if s.hidden:  # 13.2: the other side sees the smoke, not who threw it
        tr.emit("smoke", text, (unit.side,), unit=unit.id)
        tr.emit("smoke", f"Smoke rises in {place} for {n} turns (rule 15.4)", st.enemies_of(unit.side))
    else:
        tr.emit("smoke", text, unit=unit.id)
    if not attack.has_shot(st, tables, unit):
        attack.end_fire_unit(tr, tables, unit)
