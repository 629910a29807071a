"""Provides fire at AT obstacles (digest 13.6): "destroyed ... by aimed shells with at least HE 6".

``fire UNIT HEX WEAPON [AMMO] aimed`` in Phase 3b: an aimed shot (11.1: +5, one weapon's single roll, no burst and
no pool) with a round of at least HE 6 (``fortifications.toml`` ``obstacles.min_he``) at a hex of AT obstacles the
firer sees (LOS, 6.2), in range and in the weapon's arc. The obstacles are a fixed object targeted directly, so the
TN is that of 8.6 P for a building: base number + range + the firer's own situation (moved, shaken) + aimed; no
target die, terrain or building. A hit removes the obstacles of the hex (13.6 P,
``fortifications.obstacle_removed``); a natural 2 jams the weapon (6.6). One round is spent. Shells of less HE are
not offered (they could not remove them, AC-OB-01); no roster weapon has HE 6 or more yet (the 75 mm HE is HE 3),
so the tests use a stand-in.
"""

from __future__ import annotations

from fractions import Fraction

from engine.actions import Action
from engine.errors import IllegalActionError
from engine.hexgrid import Hex, distance
from engine.odds import Odds, OddsEntry
from engine.rules import Transition
from engine.state import GameState, Unit

from . import attack, fortifications, sheets
from .data import Tables
from .fire import Shot, ToHit, hit_roll, range_band
from .geometry import in_arc, theta
from .model import FACING_NAMES, data, status
from .movement import Refused
from .options import Order
from .sighting import sight_line
from .targetdie import TargetDie, has_moved

__all__ = ["fire_actions", "is_obstacle_order", "odds", "refusal", "resolve"]


def is_obstacle_order(st: GameState, order: Order) -> bool:
    """Whether ``order`` is an aimed shot at a hex of AT obstacles (this module's)."""
    return order.option == "aimed" and isinstance(order.target, Hex) and order.target in data(st).obstacles


def _index(tables: Tables, firer: Unit, label: str) -> int | None:
    sheet = tables.sheets[firer.type]
    return next((i for i in range(len(sheet.mounts)) if attack.mount_label(sheet, i).lower() == label.lower()), None)


def _round(tables: Tables, firer: Unit, index: int, ammo: str | None) -> str | Refused:
    """The shell fired: the one named, else the first of the weapon's rounds with HE 6 or more (13.6)."""
    m = tables.sheets[firer.type].mounts[index]
    rounds = tables.weapons[m.weapon].ammo
    least = fortifications.fort_table().min_he
    strong = [k for k in m.ammo if not rounds[k].smoke and rounds[k].he >= least]
    if ammo is not None and ammo not in strong:
        return Refused(
            f"Cannot fire at the AT obstacles: only an aimed shell of HE {least} or more removes them", "13.6"
        )
    if not strong:
        return Refused(
            f"Cannot fire at the AT obstacles: the {m.weapon} has no shell of HE {least} or more to remove them", "13.6"
        )
    key = ammo or strong[0]
    if status(firer).spent.get(f"{index}.{key}", 0) >= m.ammo[key]:
        return Refused(f"Cannot fire: the {m.weapon} of {firer.id} has no {key} ammunition left", "15.5")
    return key


def _aim(st: GameState, tables: Tables, order: Order) -> tuple[Shot, int, str] | Refused:
    """The shot, the mount and the round of an aimed shot at AT obstacles, or why it may not be made."""
    firer = st.units.get(order.unit)
    if firer is None or firer.side != st.to_act:
        return Refused(f"Cannot fire: {order.unit} is not a unit of {st.to_act}", "3.2")
    why = attack.phase_refusal(st, tables, firer)
    if why is not None:
        return why
    assert isinstance(order.target, Hex) and firer.hex is not None
    index = _index(tables, firer, order.label)
    if index is None:
        return Refused(f"Cannot fire: {firer.id} has no weapon {order.label}", "2.3")
    why = attack.weapon_refusal(tables, firer, index)
    if why is not None:
        return why
    if order.row is not None:
        return Refused("Cannot aim at a row: AT obstacles have none (fire UNIT HEX WEAPON aimed)", "11.1")
    sheet = tables.sheets[firer.type]
    m = sheet.mounts[index]
    weapon = sheets.weapon(tables.weapons[m.weapon])
    if weapon.burst or (m.mount == "carried" and m.count > 1):
        return Refused(f"Cannot aim the {order.label}: an aimed shot is one weapon's single roll", "11.1")
    key = _round(tables, firer, index, order.ammo)
    if isinstance(key, Refused):
        return key
    return _placed(st, tables, firer, order.target, index, key)


def _placed(
    st: GameState, tables: Tables, firer: Unit, h: Hex, index: int, key: str
) -> tuple[Shot, int, str] | Refused:
    """Arc, range, LOS and the TN of the shot at ``h`` (2.2, 6.3, 6.2, 8.6 P)."""
    assert firer.hex is not None
    s = status(firer)
    m = tables.sheets[firer.type].mounts[index]
    label = st.board.label(h)
    if s.facing is not None and firer.hex != h and not in_arc(m.arc, theta(firer.hex, s.facing, h)):
        return Refused(
            f"Cannot fire: {label} is outside the arc of the {m.weapon}, facing {FACING_NAMES[s.facing]}", "2.2"
        )
    weapon = sheets.weapon(tables.weapons[m.weapon])
    dist = distance(firer.hex, h)
    try:
        range_band(weapon, dist)
    except IllegalActionError as e:
        return Refused(str(e.args[0]) if e.args else "Cannot fire: out of range", e.rule or "6.3")
    line = sight_line(st, tables, firer.hex, h)
    if not line.clear:
        return Refused(f"Cannot fire: no line of sight from {firer.id} to {label}: {line.reason}", "6.2")
    shot = Shot(
        base_number=sheets.base_number(s.experience),
        weapon=weapon,
        ammo=sheets.ammo(tables.weapons[m.weapon].ammo[key]),
        distance=dist,
        target_die=TargetDie((), (), ()),  # 8.6 P: a fixed object: no die, no terrain
        firer_moved=has_moved(Fraction(s.half_mp, 2)),
        shaken=s.shaken,
        aimed=True,
    )
    to_hit = hit_roll(shot)
    if not to_hit.possible:
        return Refused(f"Cannot fire: {to_hit.explain()}, above {to_hit.max_tn}", "6.3")
    return shot, index, key


def refusal(st: GameState, tables: Tables, order: Order) -> Refused | None:
    """Why the aimed shot at AT obstacles may not be made now (13.6, 11.1, 3.2), or None."""
    got = _aim(st, tables, order)
    return got if isinstance(got, Refused) else None


def fire_actions(st: GameState, tables: Tables, unit: Unit) -> list[Action]:
    """The unit's aimed shots at hexes of AT obstacles now, by hex, then weapon."""
    d = data(st)
    s = status(unit)
    if not d.obstacles or unit.hex is None or not s.may_fire or s.fire_done:
        return []
    sheet = tables.sheets[unit.type]
    out: list[Action] = []
    for h in sorted(d.obstacles):
        for i in range(len(sheet.mounts)):
            label = attack.mount_label(sheet, i)
            if not isinstance(_aim(st, tables, Order(unit.id, h, label, option="aimed")), Refused):
                out.append(Action("fire", (unit.id, st.board.label(h), label, "aimed")))
    return out


def _has_shot(st: GameState, tables: Tables, unit: Unit) -> bool:
    return bool(fire_actions(st, tables, unit))


attack.SHOT_SOURCES.append(_has_shot)


def resolve(tr: Transition, tables: Tables, order: Order) -> None:
    """The shot with the game's dice (6.8): a hit removes the obstacles (13.6), a jam jams the weapon (6.6); the
    unit's fire passes on when it has no shot left (3.2)."""
    st = tr.state
    got = _aim(st, tables, order)
    assert not isinstance(got, Refused) and isinstance(order.target, Hex)
    shot, index, key = got
    firer = st.units[order.unit]
    s = status(firer)
    data(st).active = firer.id
    to_hit = hit_roll(shot)
    label = st.board.label(order.target)
    what = f"{firer.id} fires its {order.label} ({key}) aimed at the AT obstacles in {label}"
    roll = sum(tr.roll(10, 2, f"{what}: {to_hit.explain()}", target=to_hit.tn, compare="at_least"))
    outcome = to_hit.outcome(roll)
    s.fired.append(index)
    s.spent[f"{index}.{key}"] = s.spent.get(f"{index}.{key}", 0) + 1
    s.fired_dk = max(s.fired_dk, shot.ammo.dk)
    result = "jam" if outcome.jammed else "hit" if outcome.hit else "miss"
    tr.emit("fire", f"{what}: {roll} {result} against {to_hit.explain()} (rule 13.6)", unit=firer.id)
    if outcome.jammed:
        attack.jam(tr, tables, firer, index, order.label)
    if outcome.hit and fortifications.obstacle_removed(aimed=True, he=shot.ammo.he):
        fortifications.remove_obstacles(tr, order.target, f"{firer.id}'s aimed {key} shell")
    if not attack.has_shot(st, tables, firer):
        attack.end_fire_unit(tr, tables, firer)


def odds(st: GameState, tables: Tables, action: Action, order: Order) -> Odds | None:
    """The chance that the shot removes the obstacles: its hit chance with each modifier (6.3)."""
    got = _aim(st, tables, order)
    if isinstance(got, Refused):
        return None
    to_hit: ToHit = hit_roll(got[0])
    chances = to_hit.odds()
    entries = [
        OddsEntry("obstacles removed", chances["hit"], 1.0),
        OddsEntry("miss", chances["miss"]),
        OddsEntry("jam", chances["jam"]),
    ]
    return Odds(action, tuple(e for e in entries if e.probability), note=to_hit.explain())
