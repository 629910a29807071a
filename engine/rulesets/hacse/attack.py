"""Provides the HACSE Attack Phase (§3.2 Phase 3) with direct fire (§6.3–6.8, §8), on the calculators.

- :func:`start` opens the phase: the sighting checks of §6.1; every unit able to fire is marked
  (``Status.may_fire``; Phase 3a, physical attacks, ``closecombat.py``, takes the mark from units it destroys or
  that fought in close combat) and fires in 3b even if destroyed during it (simultaneous in effect).
- Sides alternate, one unit at a time, the initiative loser first (§3.2 3b): the side to act fires the weapons of
  one unit (``fire UNIT TARGET WEAPON``, each weapon once) and ends its fire with ``cease UNIT`` (or when it has no
  shot left); a side with no unit left passes; 3b ends when neither side has one.
- :func:`refusal` says why a shot may not be made, citing the rule; :func:`fire_actions` lists exactly the shots
  it admits; :func:`resolve` makes the shot with the game's dice (``fire.resolve_attack``) and records rows hit,
  effects, ammunition and jams; :func:`odds` gives its exact distribution (``fire.shot_odds``).
- At the end of 3b the morale rolls caused during it are made (§9.3) and destroyed units leave the map.

Opportunity fire (§6.7) is not here: its hook is :func:`shot` with a firer in the Movement Phase (the refusals of
3b that concern the phase are in :func:`_firer_refusal`, the shot itself in :func:`_shot_refusal`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from fractions import Fraction

from engine.actions import Action
from engine.errors import IllegalActionError
from engine.hexgrid import Hex, distance
from engine.los import line_of_sight
from engine.odds import Odds, OddsEntry, merge
from engine.rules import Transition
from engine.state import GameState, Unit

from . import buildings, fires, fortifications, hits, sheets
from .bridges import terrain_of
from .bunkers import BUNKER
from .cache import kept, listing
from .damage import COLUMNS, Target, effects
from .data import Mount, Sheet, Tables
from .fire import Building, Shot, ShotOdds, hit_roll, pools, range_band, resolve_attack, shot_odds
from .geometry import armour_faces, in_arc, theta
from .messages import pass_sightings
from .model import data, status
from .morale import MoraleRoll, damage_trigger, morale_roll, rolls_due
from .movement import Refused
from .rally import leadership
from .sighting import fire_phase_checks, los_policy, sight_line
from .targetdie import TargetDie, has_moved, target_die

__all__ = [
    "Aim",
    "aim",
    "armour_morale",
    "armour_morale_due",
    "armour_morale_odds",
    "beyond",
    "cease_refusal",
    "die_of",
    "end_fire",
    "end_fire_unit",
    "facing_hit",
    "fire_actions",
    "firers",
    "flamed",
    "has_shot",
    "jam",
    "leave",
    "line_shot",
    "mount_label",
    "next_side",
    "odds",
    "phase_refusal",
    "ready_weapons",
    "record_damage",
    "refusal",
    "resolve",
    "roll_morale",
    "round_for",
    "shoot",
    "shot",
    "start",
    "weapon_refusal",
    "weigh_morale",
]


def mount_label(sheet: Sheet, index: int) -> str:
    """The name of mount ``index`` (0-based) in the fire verb: its weapon key, with the mount when the sheet has
    two of that weapon (``MG34V-hull``)."""
    kept = _LABELS.get(sheet.id)
    if kept is None or kept[0] is not sheet:
        kept = _LABELS[sheet.id] = (sheet, _labels(sheet))
    return kept[1][index]


_LABELS: dict[str, tuple[Sheet, tuple[str, ...]]] = {}
"""Mount labels by sheet id (with the sheet itself: another sheet of that id is labelled anew)."""


def _labels(sheet: Sheet) -> tuple[str, ...]:
    out = []
    for m in sheet.mounts:
        same = [x for x in sheet.mounts if x.weapon == m.weapon]
        out.append(m.weapon if len(same) == 1 else f"{m.weapon}-{m.mount}")
    return tuple(out)


def _mount_index(sheet: Sheet, label: str) -> int | None:
    for i in range(len(sheet.mounts)):
        if mount_label(sheet, i).lower() == label.lower():
            return i
    return None


def die_of(st: GameState, tables: Tables, unit: Unit) -> TargetDie:
    """The unit's target-modifier die (§5) from its movement this turn, its hex and dug-in flag (found once per
    listing, ``cache``)."""
    return kept(st, ("die", unit.id), lambda: _die_of(st, tables, unit), unit)


def _die_of(st: GameState, tables: Tables, unit: Unit) -> TargetDie:
    sheet = tables.sheets[unit.type]
    s = status(unit)
    terrain: tuple[str, ...] = (terrain_of(st, tables, unit.hex).key,) if unit.hex is not None else ()
    terrain += fortifications.cover_keys(st, tables, unit)  # AT obstacles (13.6)
    return target_die(
        profile=sheet.target_profile,
        infantry=sheet.unit_type == "infantry",
        mp=sheet.mp,
        mp_spent=Fraction(s.half_mp, 2),
        hexes_entered=s.hexes,
        terrain=terrain,
        dug_in=s.dug_in,
    )


def _able(st: GameState, tables: Tables, unit: Unit) -> bool:
    """May fire in 3b (§3.2): on the map, not destroyed or carried, not a gun that changed hex, did not work, not
    out of action (§8.5)."""
    s = status(unit)
    sheet = tables.sheets[unit.type]
    if unit.hex is None or s.destroyed or s.embarked_in or s.towed_by or s.work or not sheet.mounts:
        return False
    if s.opp_fired:  # 6.7: it fired on opportunity this turn
        return False
    if sheet.unit_type == "gun" and s.hexes:
        return False
    return not effects(sheets.target(sheet, s.rows_hit)).out_of_action


def start(tr: Transition, tables: Tables) -> None:
    """Phase 3 opens (§3.2): the sighting checks, then 3b with the initiative loser to fire first."""
    st = tr.state
    d = data(st)
    st.phase = "attack"
    d.mover, d.quota, d.active = None, 0, None
    tr.emit("phase", "Attack Phase: sighting checks, then physical attacks (3a) and fire (3b) (rule 3.2)")
    fire_phase_checks(tr, tables)
    pass_sightings(tr, tables)  # 6.1 condition 5
    for u in st.units.values():
        s = status(u)
        s.may_fire, s.fired, s.fire_done = _able(st, tables, u), [], False


def firers(st: GameState, tables: Tables, side: str) -> Iterator[Unit]:
    """The side's units that may still fire and have a shot (§3.2 3b)."""
    for u in sorted(st.units.values(), key=lambda u: u.id):
        s = status(u)
        if u.side == side and s.may_fire and not s.fire_done and has_shot(st, tables, u):
            yield u


def next_side(st: GameState, tables: Tables, side: str) -> str | None:
    """Who fires next: ``side`` if it has a unit left, else the other side, else None (3b is over, §3.2 P)."""
    other = st.enemies_of(side)[0]
    with listing(st):  # every unit of a side asked about the state as it stands (cache.py)
        for s in (side, other):
            if any(True for _ in firers(st, tables, s)):
                return s
    return None


# --- Shots ------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Aim:
    """A shot made ready: the hit roll's inputs, the target as damage sees it, the facing hit, the mount."""

    shot: Shot
    target: Target
    column: str
    mount: int
    ammo: str
    weapon_burst: bool


def round_for(tables: Tables, m: Mount, target_armoured: bool, spent: dict[str, int], index: int) -> str | None:
    """The round a mount fires (15.5 [INTERP]): the highest Dk against armour, else the highest HE, then Dk;
    only a type with rounds left."""
    weapon = tables.weapons[m.weapon]
    left = [k for k, n in m.ammo.items() if spent.get(f"{index}.{k}", 0) < n and not weapon.ammo[k].smoke]
    if not left:
        return None

    def rank(k: str) -> tuple[int, int]:
        a = weapon.ammo[k]
        return ((a.dk or 0), a.he) if target_armoured else (a.he, a.dk or 0)

    return max(left, key=rank)


def facing_hit(tables: Tables, firer: Unit, target: Unit) -> str:
    """The facing hit (§2.2): the target's sector seen from the firer; on a boundary the higher armour."""
    facing = status(target).facing
    if facing is None or firer.hex is None or target.hex is None or firer.hex == target.hex:
        return "front"
    faces = armour_faces(theta(target.hex, facing, firer.hex))
    a = tables.sheets[target.type].armour
    value = {"front": a.front, "side": a.side, "rear": a.rear, "top": a.top}
    return max(faces, key=lambda f: value[f]) if faces[0] in COLUMNS else "front"


def _firer_refusal(st: GameState, tables: Tables, firer: Unit) -> Refused | None:
    """Why ``firer`` may not fire now in Phase 3b (§3.2)."""
    s = status(firer)
    d = data(st)
    if st.phase != "attack":
        return Refused(
            "Cannot fire: fire is made in the Attack Phase, or on opportunity at an enemy moving in sight", "3.2"
        )
    if not s.may_fire:
        return Refused(f"Cannot fire: {firer.id} was not able to fire at the start of the Fire Phase", "3.2")
    if s.fire_done:
        return Refused(f"Cannot fire: {firer.id} has already fired this phase", "3.2")
    if d.active is not None and d.active != firer.id:
        return Refused(f"Cannot fire: {d.active} is firing; cease its fire first", "3.2")
    return None


def phase_refusal(st: GameState, tables: Tables, firer: Unit) -> Refused | None:
    """Why ``firer`` may not fire now in Phase 3b (§3.2), for the fire of other modules (indirect fire, 7)."""
    return _firer_refusal(st, tables, firer)


def weapon_refusal(tables: Tables, firer: Unit, index: int, *, indirect: bool = False) -> Refused | None:
    """Step 1 of §6.8 for the weapon (:func:`_weapon_refusal`); ``indirect`` admits weapons that fire only
    indirectly (7.1)."""
    return _weapon_refusal(tables, firer, index, indirect=indirect)


def _weapon_refusal(tables: Tables, firer: Unit, index: int, *, indirect: bool = False) -> Refused | None:
    """Step 1 of §6.8 for the weapon: not fired yet, not jammed, intact, its operator intact, fires directly."""
    s = status(firer)
    sheet = tables.sheets[firer.type]
    m = sheet.mounts[index]
    name = mount_label(sheet, index)
    weapon = tables.weapons[m.weapon]
    if index in s.fired:
        return Refused(f"Cannot fire: the {name} of {firer.id} has already fired this phase", "3.2")
    if index in s.jammed:
        return Refused(f"Cannot fire: the {name} of {firer.id} is jammed", "6.6")
    if m.row is not None and m.row in s.rows_hit:
        return Refused(f"Cannot fire: the {name} of {firer.id} is destroyed (row {m.row})", "6.8")
    if m.crew is not None and m.crew in s.rows_hit:
        return Refused(f"Cannot fire: the {name} of {firer.id} has lost its operator (row {m.crew})", "6.8")
    if weapon.physical:
        return Refused(f"Cannot fire: the {name} is used only in a physical attack (Phase 3a)", "12.1")
    if weapon.fire_mode == "indirect" and not indirect:
        return Refused(
            f"Cannot fire: the {name} fires only indirectly (in the Fire Phase, at a unit its side sights or at a hex)",
            "7.1",
        )
    return None


def _target_refusal(st: GameState, firer: Unit, target: Unit | None, tid: str) -> Refused | None:
    if target is None or target.side == firer.side or target.hex is None:
        return Refused(f"Cannot fire: {tid} is not an enemy unit on the map", "6.8")
    if status(target).destroyed:
        return Refused(f"Cannot fire: {tid} is already destroyed", "3.2")
    carrier = status(target).embarked_in or status(target).towed_by
    if carrier:  # 4.5 P: riders cannot be targeted separately
        return Refused(f"Cannot fire at {tid}: it rides with {carrier}; fire at {carrier}", "4.5")
    if tid not in status(firer).sighted and tid not in status(firer).shared:  # 6.1 conditions 1-5
        return Refused(f"Cannot fire: {firer.id} has not sighted {tid}", "6.1")
    return None


def shot(st: GameState, tables: Tables, firer: Unit, tid: str, label: str, ammo: str | None = None) -> Aim | Refused:
    """The shot of ``firer``'s weapon ``label`` at ``tid`` (§6.8 steps 1–3), or why it may not be made; ``ammo``
    names the round (15.5), else the rule of :func:`round_for` chooses it. Found once per listing (``cache``)."""
    return kept(st, ("shot", firer.id, tid, label, ammo), lambda: _shot(st, tables, firer, tid, label, ammo), firer)


def _shot(st: GameState, tables: Tables, firer: Unit, tid: str, label: str, ammo: str | None) -> Aim | Refused:
    why = _firer_refusal(st, tables, firer)
    if why is not None:
        return why
    return aim(st, tables, firer, tid, label, ammo)


def aim(st: GameState, tables: Tables, firer: Unit, tid: str, label: str, ammo: str | None = None) -> Aim | Refused:
    """The shot of ``firer``'s weapon ``label`` at ``tid`` whatever the phase (§6.8 steps 1–3: weapon, target,
    arc, ammunition, range, LOS, TN), or why it may not be made; opportunity fire (§6.7) asks this."""
    sheet = tables.sheets[firer.type]
    index = _mount_index(sheet, label)
    if index is None:
        return Refused(f"Cannot fire: {firer.id} has no weapon {label}", "2.3")
    why = _weapon_refusal(tables, firer, index) or _target_refusal(st, firer, st.units.get(tid), tid)
    if why is not None:
        return why
    return _shot_refusal(st, tables, firer, st.units[tid], index, ammo)


def ready_weapons(tables: Tables, unit: Unit, index: int) -> int:
    """How many weapons of mount ``index`` can fire now (11.3, 8.5): a carried mount of N loses one weapon per
    soldier row carrying it that is hit, and one per weapon of it jammed in a pool (``Status.pool_jams``); other
    mounts have their one weapon (its row and operator are checked by the refusals)."""
    sheet = tables.sheets[unit.type]
    m = sheet.mounts[index]
    if m.mount != "carried" or m.count < 2:
        return m.count
    s = status(unit)
    carriers = [r.index for r in sheet.rows if r.kind == "soldier" and r.weapon == m.weapon]
    count = min(m.count, sum(1 for r in carriers if r not in s.rows_hit)) if carriers else m.count
    return max(0, count - len(s.pool_jams.get(str(index), [])))


def _round(tables: Tables, firer: Unit, index: int, armoured: bool, ammo: str | None) -> str | Refused:
    """The round fired (15.5): the one named, else :func:`round_for`'s; a smoke round only at a hex (7.1)."""
    s = status(firer)
    m = tables.sheets[firer.type].mounts[index]
    name = mount_label(tables.sheets[firer.type], index)
    if ammo is None:
        got = round_for(tables, m, armoured, s.spent, index)
        return Refused(f"Cannot fire: the {name} of {firer.id} has no ammunition left", "15.5") if got is None else got
    if ammo not in m.ammo:
        kinds = ", ".join(m.ammo)
        return Refused(f"Cannot fire: the {name} of {firer.id} has no {ammo} ammunition ({kinds})", "15.5")
    if tables.weapons[m.weapon].ammo[ammo].smoke:
        return Refused(f"Cannot fire {ammo} at a unit: smoke rounds are fired at a hex", "7.1")
    if s.spent.get(f"{index}.{ammo}", 0) >= m.ammo[ammo]:
        return Refused(f"Cannot fire: the {name} of {firer.id} has no {ammo} ammunition left", "15.5")
    return ammo


def _shot_refusal(
    st: GameState, tables: Tables, firer: Unit, target: Unit, index: int, ammo: str | None = None
) -> Aim | Refused:
    """Arc, ammunition, range, LOS and the TN (§2.2, §15.5, §6.3, §6.2)."""
    assert firer.hex is not None and target.hex is not None
    sheet, tsheet = tables.sheets[firer.type], tables.sheets[target.type]
    m = sheet.mounts[index]
    name = mount_label(sheet, index)
    s = status(firer)
    facing = s.facing
    if facing is not None and firer.hex != target.hex and not in_arc(m.arc, theta(firer.hex, facing, target.hex)):
        arc = {"front": "front arc", "rear": "rear arc"}.get(m.arc, "arc")
        return Refused(
            f"Cannot fire: {target.id} is outside the {arc} of the {name} of {firer.id}, facing "
            f"{('N', 'NE', 'SE', 'S', 'SW', 'NW')[facing]}",
            "2.2",
        )
    armoured = any((tsheet.armour.front, tsheet.armour.side, tsheet.armour.rear))
    akey = _round(tables, firer, index, armoured, ammo)
    if isinstance(akey, Refused):
        return akey
    ready = ready_weapons(tables, firer, index)
    if ready < 1:
        return Refused(f"Cannot fire: nobody of {firer.id} is left to fire the {name} (or all are jammed)", "11.3")
    weapon = sheets.weapon(tables.weapons[m.weapon])
    dist = distance(firer.hex, target.hex)
    try:
        range_band(weapon, dist)
    except IllegalActionError as e:
        return Refused(str(e.args[0]) if e.args else "Cannot fire: out of range", e.rule or "6.3")
    line = sight_line(st, tables, firer.hex, target.hex)
    if not line.clear:
        return Refused(f"Cannot fire: no line of sight from {firer.id} to {target.id}: {line.reason}", "6.2")
    infantry = sheet.unit_type == "infantry"
    t_inf = tsheet.unit_type == "infantry"
    count = ready if m.mount == "carried" else 1
    pooled = max(pools(count, weapon))
    house = hits.building_of(st, tables, target)
    the_shot = Shot(
        base_number=sheets.base_number(s.experience),
        weapon=weapon,
        ammo=sheets.ammo(tables.weapons[m.weapon].ammo[akey]),
        distance=dist,
        target_die=die_of(st, tables, target),
        target_infantry=t_inf,
        firer_moved=has_moved(s.half_mp / 2),
        intervening=line.obstructing,
        vehicles_in_line=_vehicles_between(st, tables, firer, target),
        same_hex=firer.hex == target.hex,
        both_infantry=infantry and t_inf,
        shaken=s.shaken,
        pooled=pooled if pooled > 1 else 1,
        relays=0 if target.id in s.sighted else s.shared.get(target.id, 0),  # 10.3
        building=None if house is None else Building(house.armour, bunker=house.key == BUNKER),  # 6.3 b
    )
    to_hit = hit_roll(the_shot)
    if not to_hit.possible:
        return Refused(f"Cannot fire: {to_hit.explain()}, above {to_hit.max_tn}", "6.3")
    target_rec = hits.target_of(st, tables, target)
    column = "top" if buildings.from_above(st, tables, firer, target) else facing_hit(tables, firer, target)  # 4.9
    return Aim(the_shot, target_rec, column, index, akey, weapon.burst)


def line_shot(st: GameState, tables: Tables, firer: Unit, target: Unit, index: int) -> Aim | Refused:
    """The shot of mount ``index`` at any unit, friend or enemy (11.6: a sustained-fire line strikes both): arc,
    ammunition, range, LOS and the TN, without the checks of the phase, the weapon's use or sighting."""
    return _shot_refusal(st, tables, firer, target, index)


def _vehicles_between(st: GameState, tables: Tables, firer: Unit, target: Unit) -> int:
    """Vehicles or wrecks in the intervening hexes (§6.3 note e)."""
    assert firer.hex is not None and target.hex is not None
    path = line_of_sight(st.board, firer.hex, target.hex, los_policy(tables)).path
    between = set(path) - {firer.hex, target.hex}
    return sum(
        1
        for u in st.units.values()
        if u.hex in between and tables.sheets[u.type].unit_type == "vehicle" and not status(u).embarked_in
    )


def beyond(st: GameState, tables: Tables, unit: Unit, tid: str, label: str) -> bool:
    """Whether ``tid`` is out of the weapon's range (6.3): ``attack.shot`` refuses such a shot whatever else holds,
    and most shots a listing asks about are; this answers first, with less work."""
    target = st.units.get(tid)
    if target is None or target.hex is None or unit.hex is None:
        return False
    sheet = tables.sheets[unit.type]
    index = _mount_index(sheet, label)
    if index is None:
        return False
    try:
        range_band(sheets.weapon(tables.weapons[sheet.mounts[index].weapon]), distance(unit.hex, target.hex))
    except IllegalActionError:
        return True
    return False


def refusal(st: GameState, tables: Tables, unit_id: str, tid: str, label: str) -> Refused | None:
    """Why ``fire unit_id tid label`` may not be played now, or None."""
    firer = st.units.get(unit_id)
    if firer is None:
        return Refused(f"Cannot fire: {unit_id} is not a unit", "3.2")
    if firer.side != st.to_act:
        return Refused(f"Cannot fire: {firer.id} is not a unit of {st.to_act}", "3.2")
    got = shot(st, tables, firer, tid, label)
    return got if isinstance(got, Refused) else None


def cease_refusal(st: GameState, tables: Tables, unit_id: str) -> Refused | None:
    """Why ``cease unit_id`` may not be played now (§3.2 3b: a unit may decline to fire; it is then done)."""
    unit = st.units.get(unit_id)
    if st.phase != "attack":
        return Refused("Cannot cease fire: it is not the Fire Phase", "3.2")
    if unit is None or unit.side != st.to_act:
        return Refused(f"Cannot cease fire: {unit_id} is not a unit of {st.to_act}", "3.2")
    s = status(unit)
    if not s.may_fire or s.fire_done:
        return Refused(f"Cannot cease fire: {unit_id} has no fire to make this phase", "3.2")
    d = data(st)
    if d.active is not None and d.active != unit_id:
        return Refused(f"Cannot cease fire: {d.active} is firing; cease its fire first", "3.2")
    if not has_shot(st, tables, unit):
        return Refused(f"Cannot cease fire: {unit_id} has no shot to make", "3.2")
    return None


def _shots(st: GameState, tables: Tables, unit: Unit) -> Iterator[Action]:
    s = status(unit)
    if unit.hex is None or not s.may_fire or s.fire_done:
        return
    sheet = tables.sheets[unit.type]
    targets = sorted({*s.sighted, *s.shared})
    for i in range(len(sheet.mounts)):
        if _weapon_refusal(tables, unit, i) is not None:
            continue  # 6.8 step 1: refused at every target (``aim`` asks it first)
        label = mount_label(sheet, i)
        for tid in targets:
            if not beyond(st, tables, unit, tid, label) and not isinstance(shot(st, tables, unit, tid, label), Refused):
                yield Action("fire", (unit.id, tid, label))


def fire_actions(st: GameState, tables: Tables, unit: Unit) -> list[Action]:
    """Every shot ``unit`` may make now, weapon by weapon, targets by id."""
    return list(_shots(st, tables, unit))


SHOT_SOURCES: list[Callable[[GameState, Tables, Unit], bool]] = []
"""Other kinds of shots a unit may have in 3b besides its direct fire (the modules above this one add theirs:
``artillery.has_indirect_shot``, 7)."""


def has_shot(st: GameState, tables: Tables, unit: Unit) -> bool:
    """Whether ``unit`` has a shot to make now (the first one found ends the search). A question about the state as
    it stands: what it finds is kept while it asks (``cache.listing``)."""
    mounts = range(len(tables.sheets[unit.type].mounts))
    if all(_weapon_refusal(tables, unit, i, indirect=True) is not None for i in mounts):
        return False  # 6.8 step 1: every weapon fired, jammed or lost; every kind of shot asks this first
    with listing(st):
        return next(_shots(st, tables, unit), None) is not None or any(f(st, tables, unit) for f in SHOT_SOURCES)


# --- Resolution -------------------------------------------------------------------------------------------


def resolve(tr: Transition, tables: Tables, firer: Unit, tid: str, label: str) -> None:
    """Make the shot (§6.8 steps 4–7) with the game's dice, record its results, and pass on when the unit is done."""
    st = tr.state
    ready = shot(st, tables, firer, tid, label)
    assert not isinstance(ready, Refused)
    data(st).active = firer.id
    shoot(tr, tables, firer, tid, label, ready)
    if not has_shot(st, tables, firer):
        end_fire_unit(tr, tables, firer)


def shoot(tr: Transition, tables: Tables, firer: Unit, tid: str, label: str, aim: Aim) -> None:
    """Make a shot made ready (§6.8 steps 4–7) with the game's dice and record its results: rounds spent, a jam,
    the rows hit and their effects, the morale cause (§9.3)."""
    st = tr.state
    target = st.units[tid]
    s = status(firer)
    if armour_morale_due(st, tables, firer, target):  # 9.3: infantry attacking armour this close
        if armour_morale(tr, tables, firer, target) == "dissolved":
            return
        if s.shaken and not aim.shot.shaken:
            aim = replace(aim, shot=replace(aim.shot, shaken=True))
            if not hit_roll(aim.shot).possible:
                tr.emit("fire", f"{firer.id} is shaken and cannot make the shot at {tid} (rule 9.5)", unit=firer.id)
                return
    to_hit = hit_roll(aim.shot)
    explain = to_hit.explain()

    def roller(sides: int, count: int, purpose: str) -> tuple[int, ...]:
        if purpose == "hit roll":
            return tr.roll(
                sides, count, f"{firer.id} fires its {label} at {tid}: {explain}", target=to_hit.tn, compare="at_least"
            )
        return tr.roll(sides, count, f"{firer.id} at {tid}: {purpose}")

    attack = resolve_attack(aim.shot, aim.target, aim.column, roller, burst=aim.weapon_burst)
    s.fired.append(aim.mount)
    key = f"{aim.mount}.{aim.ammo}"
    s.spent[key] = s.spent.get(key, 0) + len(attack.rolls)
    s.fired_dk = max(s.fired_dk, aim.shot.ammo.dk)
    rolls = ", ".join(f"{o.roll}" + (" jam" if o.jammed else " hit" if o.hit else " miss") for o in attack.rolls)
    tr.emit(
        "fire",
        f"{firer.id} fires its {label} ({aim.ammo}) at {tid}: {rolls} against {explain} (rule 6.8)",
        unit=firer.id,
    )
    if attack.jammed:
        jam(tr, tables, firer, aim.mount, label)
    _record_damage(tr, tables, target, attack.rows_hit, aim.column)
    hits.carried_damage(tr, tables, target, attack.hits, _record_damage)
    hits.near_misses(tr, tables, target, aim.shot, attack.building_hits)
    flamed(tables, target, tables.sheets[firer.type].mounts[aim.mount].weapon)


def record_damage(tr: Transition, tables: Tables, target: Unit, rows: tuple[int, ...], column: str) -> None:
    """Rows hit, their effects (§8.5), the morale trigger (§9.3, rolled at the end of 3b): for the fire options
    and indirect fire (``options.py``, ``artillery.py``)."""
    _record_damage(tr, tables, target, rows, column)


def _record_damage(tr: Transition, tables: Tables, target: Unit, rows: tuple[int, ...], column: str) -> None:
    """Rows hit, their effects (§8.5), the morale trigger (§9.3, rolled at the end of 3b)."""
    if not rows:
        return
    ts = status(target)
    sheet = tables.sheets[target.type]
    ts.rows_hit = sorted(set(ts.rows_hit) | set(rows))
    after = sheets.target(sheet, ts.rows_hit)
    target.steps = max(0, after.possible_damage - after.damage_taken)
    eff = effects(after)
    parts = [f"rows {', '.join(map(str, rows))} hit ({column})"]
    flags = (
        ("immobilised", eff.immobilised),
        ("burning", eff.burning),
        ("out of action", eff.out_of_action and not eff.destroyed),
        ("turret jammed", eff.turret_jammed),
    )
    parts += [name for name, on in flags if on]
    tr.emit("damage", f"{target.id}: " + ", ".join(parts) + " (rule 8.5)", unit=target.id)
    if eff.destroyed and not ts.destroyed:
        ts.destroyed = True
        tr.emit("destroyed", f"{target.id} is destroyed (rule 8.5)", unit=target.id)
    elif damage_trigger(after.possible_damage, after.damage_taken) and "damage" not in ts.morale_due:
        ts.morale_due.append("damage")
    if eff.out_of_action and not eff.destroyed and sheet.unit_type == "vehicle":
        _wrecked(tr, tables, target)  # 8.5 P: the passengers of a wreck get out


def jam(tr: Transition, tables: Tables, firer: Unit, index: int, label: str) -> None:
    """Mount ``index`` jams (6.6); in a pool of a carried mount only one weapon of it jams (6.6, 11.3), kept in
    ``Status.pool_jams`` with the turn, cleared as a mount's jam is (End Phase step 5)."""
    s = status(firer)
    m = tables.sheets[firer.type].mounts[index]
    if m.mount == "carried" and m.count > 1:
        s.pool_jams.setdefault(str(index), []).append(tr.state.turn)
        tr.emit("jam", f"One {m.weapon} of {firer.id} jams (rule 6.6)", unit=firer.id)
        return
    s.jammed.append(index)
    s.jam_turns[str(index)] = tr.state.turn
    tr.emit("jam", f"The {label} of {firer.id} jams (rule 6.6)", unit=firer.id)


def end_fire_unit(tr: Transition, tables: Tables, unit: Unit) -> None:
    """The unit's fire is over (§3.2 3b); the turn to fire passes to the other side if it has a unit left."""
    st = tr.state
    status(unit).fire_done = True
    data(st).active = None
    tr.emit("cease", f"{unit.id} ceases fire (rule 3.2)", unit=unit.id)
    st.to_act = next_side(st, tables, st.enemies_of(unit.side)[0])


def end_fire(tr: Transition, tables: Tables) -> None:
    """The end of 3b (§3.2): the morale rolls caused in it (§9.3: one per cause and unit in the turn), destroyed
    units leave the map."""
    st = tr.state
    for u in sorted(st.units.values(), key=lambda u: u.id):
        if status(u).destroyed and u.hex is not None:
            leave(tr, u, tables)  # first: passengers getting out of a wreck take damage (8.5 P)
    for u in sorted(st.units.values(), key=lambda u: u.id):
        s = status(u)
        for cause in rolls_due(s.morale_due, s.morale_used):
            if not s.destroyed:
                _morale(tr, tables, u, cause)
        s.morale_due = []


def leave(tr: Transition, unit: Unit, tables: Tables | None = None) -> None:
    """A destroyed unit leaves the map; what it tows is destroyed with it, and so are its passengers when its
    ammunition exploded; otherwise (with ``tables``) they get out in the hex and each takes 1 damage (8.5 P)."""
    hexed = unit.hex
    exploded = tables is not None and any(
        r.kind == "ammunition" and r.index in status(unit).rows_hit for r in tables.sheets[unit.type].rows
    )
    if tables is not None:
        fires.wreck(tr, tables, unit, hexed)  # 8.5 P: an explosion or a fire leaves smoke (fires.py)
    unit.hex = None
    for p in sorted(tr.state.units.values(), key=lambda u: u.id):
        ps = status(p)
        if tables is not None and ps.embarked_in == unit.id and not exploded and not ps.destroyed:
            _get_out(tr, tables, unit, p, hexed)
        elif unit.id in (ps.embarked_in, ps.towed_by):
            ps.destroyed, ps.embarked_in, ps.towed_by = True, None, None
            tr.emit("destroyed", f"{p.id} is destroyed with {unit.id} (rule 8.5)", unit=p.id)


def _get_out(tr: Transition, tables: Tables, wreck: Unit, p: Unit, where: Hex | None) -> None:
    """Passenger ``p`` gets out of ``wreck`` in its hex and takes 1 damage (8.5 P)."""
    ps = status(p)
    ps.embarked_in, p.hex = None, where
    place = tr.state.board.label(where) if where is not None else "off the map"
    tr.emit("dismount", f"{p.id} gets out of the wreck of {wreck.id} at {place} (rule 8.5)", unit=p.id)
    row = next(
        (r.index for r in tables.sheets[p.type].rows if r.kind == "soldier" and r.index not in ps.rows_hit),
        None,
    )
    if row is not None:
        _record_damage(tr, tables, p, (row,), "side")
    if ps.destroyed:
        p.hex = None


def _wrecked(tr: Transition, tables: Tables, vehicle: Unit) -> None:
    """A vehicle out of action but not destroyed (8.5 P: its crew all hit) is a wreck: its passengers get out in
    its hex at once, each taking 1 damage (8.5 P "wrecked otherwise"); they are done for the turn (they were
    carried, so they neither move nor fire this turn)."""
    for p in sorted(tr.state.units.values(), key=lambda u: u.id):
        if status(p).embarked_in == vehicle.id and not status(p).destroyed:
            _get_out(tr, tables, vehicle, p, vehicle.hex)


def roll_morale(tr: Transition, tables: Tables, unit: Unit, cause: str = "damage") -> str:
    """A morale roll of ``unit`` for ``cause`` now (§9.3–9.5), unless it rolled for that cause this turn; for the
    Movement Phase's results and the End Phase's pending rolls. Returns ``steady``, ``shaken`` or ``dissolved``."""
    return _morale(tr, tables, unit, cause)


_CAUSES = {
    "damage": "",
    "flames": " (attacked with flames)",
    "burning": "",  # its −4 is in the terms; the End Phase tells the cause
    "infantry_vs_armour": " (infantry attacking armour)",
    "leader_contact": "",
}


def unit_morale(
    st: GameState, tables: Tables, unit: Unit, *, suicide: bool = False, flames: bool = False
) -> MoraleRoll:
    """The morale roll of ``unit`` as it stands (§9.1, 9.4, 9.5): its sheet's value, the damage taken, burning or
    attacked with flames (one −4), contact to a leader (9.2), a suicide attack; an immobilised vehicle that fails
    dissolves (9.5)."""
    s = status(unit)
    sheet = tables.sheets[unit.type]
    target = sheets.target(sheet, s.rows_hit)
    eff = effects(target)
    lead = leadership(st, tables, unit)  # 9.2, 9.4
    return morale_roll(
        sheets.morale(s.experience),
        damage=target.damage_taken,
        burning=eff.burning or flames,  # 9.4: burning or attacked with flames, one −4
        no_leader=not lead.contact,
        suicide=suicide,
        full_chain=lead.full_chain,
        immobilised_vehicle=sheet.unit_type == "vehicle" and eff.immobilised,
    )


def _morale(tr: Transition, tables: Tables, unit: Unit, cause: str = "damage") -> str:
    """A morale roll (§9.3–9.5): 2d10 ≤ the modified morale value; a failure shakes the unit. At most one roll per
    cause and unit in the turn (§9.3, ``Status.morale_used``, cleared in Phase 0)."""
    s = status(unit)
    if cause in s.morale_used:
        return "steady"
    s.morale_used.append(cause)
    roll_of = unit_morale(tr.state, tables, unit, flames=cause == "flames")
    terms = " ".join(str(m) for m in roll_of.modifiers)
    why = _CAUSES.get(cause, f" ({cause})")
    (a, b) = tr.roll(10, 2, f"morale of {unit.id}{why}: {terms}", target=roll_of.value, compare="at_most")
    result = roll_of.result(a + b)
    tr.emit(
        "morale", f"{unit.id} rolls {a + b} for morale{why} against {roll_of.value}: {result} (rule 9.5)", unit=unit.id
    )
    if result == "shaken":
        s.shaken, s.shaken_turn = True, tr.state.turn
    elif result == "dissolved":  # INTERP (9.5): a dissolved unit leaves the game and counts as destroyed
        s.destroyed = True
        unit.hex = None
        tr.emit("destroyed", f"{unit.id} dissolves and leaves the game (rule 9.5)", unit=unit.id)
    return result


def armour_morale_due(st: GameState, tables: Tables, firer: Unit, target: Unit) -> bool:
    """Whether ``firer`` rolls morale before attacking ``target`` (§9.3): infantry attacking an armoured vehicle in
    the same or an adjacent hex, once a turn (P: when it declares the attack; a failure still attacks, at +5)."""
    if tables.sheets[firer.type].unit_type != "infantry" or "infantry_vs_armour" in status(firer).morale_used:
        return False
    sheet = tables.sheets[target.type]
    a = sheet.armour
    if sheet.unit_type != "vehicle" or not any((a.front, a.side, a.rear, a.top)):
        return False
    return firer.hex is not None and target.hex is not None and distance(firer.hex, target.hex) <= 1


def armour_morale(tr: Transition, tables: Tables, firer: Unit, target: Unit) -> str:
    """The roll of :func:`armour_morale_due` when it is due (``steady`` otherwise): shaken, the firer attacks at +5;
    dissolved, it does not attack (§9.3, §9.5)."""
    if not armour_morale_due(tr.state, tables, firer, target):
        return "steady"
    return _morale(tr, tables, firer, "infantry_vs_armour")


def armour_morale_odds(st: GameState, tables: Tables, firer: Unit, target: Unit) -> dict[str, Fraction] | None:
    """The exact chances of ``steady``, ``shaken`` and ``dissolved`` of that roll, None when none is due."""
    if not armour_morale_due(st, tables, firer, target):
        return None
    return unit_morale(st, tables, firer).odds()  # infantry: no vehicle to be immobilised


def flamed(tables: Tables, target: Unit, weapon: str) -> None:
    """An attack with flames (a weapon of class ``flame``, 15.4) makes the target roll morale at the end of 3b
    (§9.3, −4 by §9.4), hit or not [INTERP: "attacked with flames"]."""
    ts = status(target)
    if tables.weapons[weapon].cls == "flame" and "flames" not in ts.morale_due and not ts.destroyed:
        ts.morale_due.append("flames")


def odds(st: GameState, tables: Tables, action: Action) -> Odds | None:
    """The exact distribution of a shot's first hit roll: hit chance with each modifier, penetration, damage."""
    unit_id, tid, label = (str(a) for a in action.args)
    firer = st.units.get(unit_id)
    if firer is None:
        return None
    # in the Fire Phase a shot of 3b; while opportunity fire is offered (6.7), a shot at the mover
    ready = shot(st, tables, firer, tid, label) if data(st).opp_mover is None else aim(st, tables, firer, tid, label)
    if isinstance(ready, Refused):
        return None
    got = shot_odds(ready.shot, ready.target, ready.column)
    note = got.to_hit.explain() + f"; hits the {ready.column}, {ready.ammo}"
    morale = armour_morale_odds(st, tables, firer, st.units[tid])
    if morale is None:
        return Odds(action, tuple(got.entries()), note=note)
    shaken = shot_odds(replace(ready.shot, shaken=True), ready.target, ready.column)
    note += "; infantry firing at armour this close rolls morale first (rule 9.3)"
    return Odds(action, weigh_morale(got, shaken, morale), note=note)


def weigh_morale(plain: ShotOdds, shaken: ShotOdds, morale: dict[str, Fraction]) -> tuple[OddsEntry, ...]:
    """A shot's odds after the morale roll of 9.3 (:func:`armour_morale_odds`): the firer dissolves, fires as it
    is, or fires shaken (+5; no shot when that TN is above 20)."""
    entries = [OddsEntry("firer dissolves", morale["dissolved"], -1.0)]
    entries += [replace(e, probability=e.probability * morale["steady"]) for e in plain.entries()]
    if shaken.to_hit.possible:
        entries += [replace(e, probability=e.probability * morale["shaken"]) for e in shaken.entries()]
    else:
        entries.append(OddsEntry("shaken, no shot", morale["shaken"]))
    return merge(e for e in entries if e.probability)
