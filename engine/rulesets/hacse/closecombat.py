"""Provides Phase 3a of the Attack Phase (digest 3.2, 12): physical attacks, after the sighting checks of the phase
and before the fire of 3b.

- **Rams first** (12.1–12.3): a vehicle that entered a hex this turn rams an enemy unit in its hex
  (``ram UNIT TARGET``): the suicide test and its morale roll at −6 before the attack (12.3, 9.3), the hit roll at
  +4 without terrain (12.1, 6.4; ``ramming.ram_shot``), then on a hit the damage of 12.2 to both vehicles
  (``ramming.ram_damage``; a gun's points on its table of 15.6, a vehicle's to tracks first and fuel and ammunition
  last, ``ramming.ram_allocation``) or 1 damage to infantry. One ram per vehicle per turn.
- **Then infantry close combat** (12.1): infantry attacks an enemy unit in its hex with its improvised close-combat
  weapons (``assault UNIT TARGET``; the weapon ``CCW``: Dk 0, HE 0, +4, its intact soldiers pooled as numerous
  shooters, 11.3); against an armoured vehicle it first rolls morale (9.3; a failure still attacks, at +5, unless
  it dissolves). A unit that attacked so makes no other attack this turn (12.3: no fire in 3b).
- Sides alternate, one attack at a time, the initiative loser first (3.2); a side with no attack left, or that
  plays ``pass``, is done with that step; rams end when both sides are done, then close combat the same way.
- Results apply at once (3.2): a destroyed unit leaves the map with what it carries, and the morale rolls the
  damage causes are made at once (9.3, one per cause and unit in the phase); a unit destroyed, out of action or
  that attacked physically does not fire in 3b.

Readings (README): the facing rammed is the target's sector seen from the hex behind the rammer (it strikes with
its front, whose armour 12.2 takes); a vehicle rams only an enemy unit it has sighted (6.1: hidden units are not
named). A vehicle may also ram the building of its hex (``ram UNIT HEX``, 12.2, 12.3): the hit roll without the +4
and the target's die, the suicide test with the A² damage it would take; on a hit the building fought over takes
⌊v × w / 10⌋ − its armour (``buildings.py``; it may collapse, 4.9) and the rammer, if the building stands, is in it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from fractions import Fraction

from engine.actions import Action
from engine.errors import IllegalActionError
from engine.hexgrid import Hex
from engine.odds import Odds, OddsEntry, merge
from engine.rules import Transition
from engine.state import GameState, Unit

from . import attack, buildings, hits, sheets
from .damage import COLUMNS, effects, fixed_hit
from .data import Tables
from .fire import Shot, ToHit, hit_roll, pools, resolve_attack, shot_odds
from .geometry import armour_faces, theta
from .model import data, status
from .morale import DISSOLVED, SHAKEN, MoraleRoll
from .movement import Refused
from .ramming import check_ram, is_suicide, ram_allocation, ram_building, ram_damage, ram_shot, vs_infantry_damage
from .targetdie import has_moved

__all__ = [
    "CLOSE_COMBAT",
    "assault_refusal",
    "physical_actions",
    "physical_apply",
    "physical_odds",
    "physical_refusal",
    "ram_net",
    "ram_refusal",
    "start",
]

CLOSE_COMBAT = "CCW"
"""The improvised close-combat weapons every infantry unit has (15.4, 12.1 P)."""

_VERB = ("ram", "assault")
_STEP_NAME = {"ram": "rams", "assault": "infantry close combat"}


# --- Who may attack whom ---------------------------------------------------------------------------------------


def _on_map(unit: Unit) -> bool:
    s = status(unit)
    return unit.hex is not None and not (s.destroyed or s.embarked_in or s.towed_by)


def _target_refusal(st: GameState, unit: Unit, tid: str, verb: str) -> Refused | None:
    """The target: an enemy unit on the map in the attacker's hex that the attacker has sighted (12.1, 6.1)."""
    target = st.units.get(tid)
    if target is None or target.side == unit.side or not _on_map(target):
        return Refused(f"Cannot {verb}: {tid} is not an enemy unit on the map", "12.1")
    if target.hex != unit.hex:
        return Refused(f"Cannot {verb}: {tid} is not in the hex of {unit.id} (a physical attack is at range 0)", "12.1")
    s = status(unit)
    if tid not in s.sighted and tid not in s.shared:
        return Refused(f"Cannot {verb}: {unit.id} has not sighted {tid}", "6.1")
    return None


def _out_of_action(tables: Tables, unit: Unit) -> bool:
    s = status(unit)
    return bool(s.rows_hit) and effects(sheets.target(tables.sheets[unit.type], s.rows_hit)).out_of_action


def _building_hex(st: GameState, tid: str) -> Hex | None:
    """The hex ``tid`` names when it is a hex label, not a unit (a ram against a building, 12.2)."""
    if tid in st.units or not tid.isdigit():
        return None
    try:
        return st.board.parse(tid)
    except ValueError:
        return None


def ram_refusal(st: GameState, tables: Tables, unit: Unit, tid: str) -> Refused | None:
    """Why ``unit`` may not ram ``tid`` (a unit, or the hex of the building rammed) now (12.1, 12.3), the step and
    the side aside."""
    why = _rammer_refusal(tables, unit)
    if why is not None:
        return why
    h = _building_hex(st, tid)
    if h is not None:
        return _ram_building_refusal(st, tables, unit, h)
    why = _target_refusal(st, unit, tid, "ram")
    if why is not None:
        return why
    return _tn_refusal(_ram_to_hit(st, tables, unit, st.units[tid]), "ram")


def _ram_building_refusal(st: GameState, tables: Tables, unit: Unit, h: Hex) -> Refused | None:
    """A ram against the building of the rammer's hex (12.1, 12.2, 4.9)."""
    label = st.board.label(h)
    if unit.hex != h:
        return Refused(f"Cannot ram: {label} is not the hex of {unit.id} (a physical attack is at range 0)", "12.1")
    if buildings.house(st, tables, h) is None:
        return Refused(f"Cannot ram: there is no building standing in {label}", "12.2")
    if status(unit).in_building:
        return Refused(f"Cannot ram: {unit.id} is already in a building of {label}", "12.3")
    return _tn_refusal(hit_roll(_building_shot(tables, unit)), "ram")


def _rammer_refusal(tables: Tables, unit: Unit) -> Refused | None:
    """Why ``unit`` may not ram at all now (12.1, 8.5)."""
    s = status(unit)
    if not _on_map(unit):
        return Refused(f"Cannot ram: {unit.id} is not on the map", "12.1")
    try:  # 12.1 P (AC-RM-07): a vehicle, that entered a hex this turn (the target's: it is in it), once a turn
        check_ram(
            vehicle=tables.sheets[unit.type].unit_type == "vehicle",
            entered_target_hex=s.hexes > 0,
            rammed_this_turn=s.rammed,
        )
    except IllegalActionError as e:
        return Refused(str(e.args[0]), e.rule or "12.1")
    if _out_of_action(tables, unit):
        return Refused(f"Cannot ram: {unit.id} is out of action", "8.5")
    if s.rows_hit and effects(sheets.target(tables.sheets[unit.type], s.rows_hit)).immobilised:
        return Refused(f"Cannot ram: {unit.id} is immobilised", "8.5")
    return None


def assault_refusal(st: GameState, tables: Tables, unit: Unit, tid: str) -> Refused | None:
    """Why ``unit`` may not attack ``tid`` in close combat now (12.1, 12.3, 3.2), the step and the side aside."""
    s = status(unit)
    if not _on_map(unit):
        return Refused(f"Cannot assault: {unit.id} is not on the map", "12.1")
    if tables.sheets[unit.type].unit_type != "infantry":
        return Refused(f"Cannot assault: only infantry attacks in close combat ({unit.id} may ram)", "12.1")
    if s.assaulted:
        return Refused(f"Cannot assault: {unit.id} has already made its physical attack this turn", "12.3")
    if s.opp_fired:
        return Refused(f"Cannot assault: {unit.id} fired on opportunity this turn", "12.3")
    if s.work:
        return Refused(f"Cannot assault: {unit.id} worked or climbed this turn", "3.2")
    why = _target_refusal(st, unit, tid, "assault")
    if why is not None:
        return why
    if _soldiers(tables, unit) == 0 or _out_of_action(tables, unit):
        return Refused(f"Cannot assault: {unit.id} has no soldier left to fight", "12.1")
    return _tn_refusal(hit_roll(_assault_shot(st, tables, unit, st.units[tid])), "assault")


def _tn_refusal(to_hit: ToHit, verb: str) -> Refused | None:
    if to_hit.possible:
        return None
    return Refused(f"Cannot {verb}: {to_hit.explain()}, above {to_hit.max_tn}", "6.3")


def _attacks(st: GameState, tables: Tables, side: str, step: str) -> Iterator[Action]:
    """The side's physical attacks of the step (``ram`` or ``assault``), attacker and target by id."""
    check = ram_refusal if step == "ram" else assault_refusal
    for u in sorted(st.units.values(), key=lambda u: u.id):
        if u.side != side or not _on_map(u):
            continue
        if step == "ram" and u.hex is not None and ram_refusal(st, tables, u, st.board.label(u.hex)) is None:
            yield Action("ram", (u.id, st.board.label(u.hex)))  # its hex's building (12.2)
        for t in sorted(st.units.values(), key=lambda t: t.id):
            if t.side != side and t.hex == u.hex and check(st, tables, u, t.id) is None:
                yield Action(step, (u.id, t.id))


def physical_actions(st: GameState, tables: Tables) -> list[Action]:
    """The actions of the side to act in 3a: its rams (or close-combat attacks) and ``pass``."""
    step = data(st).physical
    if step is None or st.to_act is None:
        return []
    return [*_attacks(st, tables, st.to_act, step), Action("pass", ())]


def physical_refusal(st: GameState, tables: Tables, verb: str, args: tuple[str, ...]) -> Refused | None:
    """Why an action may not be played in 3a (3.2, 12), or None."""
    step = data(st).physical
    if step is None:
        if verb in _VERB:
            return Refused(f"Cannot {verb}: physical attacks are made in Phase 3a of the Attack Phase", "3.2")
        return Refused("Cannot pass: nothing is asked of the side now (pass gives up physical attacks, 3a)", "3.2")
    if verb == "pass":
        return None
    if verb not in _VERB:
        return Refused(f"Cannot {verb}: physical attacks (3a, {_STEP_NAME[step]}) come first: {step} or pass", "3.2")
    if verb != step:
        what = "rams are made first" if step == "ram" else "the rams are over"
        return Refused(f"Cannot {verb}: {what} (3a: rams, then infantry close combat)", "3.2")
    uid, tid = args
    unit = st.units.get(uid)
    if unit is None or unit.side != st.to_act:
        return Refused(f"Cannot {verb}: {uid} is not a unit of {st.to_act}", "3.2")
    check = ram_refusal if step == "ram" else assault_refusal
    return check(st, tables, unit, tid)


# --- The sequence of 3a ------------------------------------------------------------------------------------------


def start(tr: Transition, tables: Tables) -> bool:
    """Phase 3a opens (3.2): rams, the initiative loser first. True when a side decides now; False when neither
    side has a physical attack (3b follows at once)."""
    st = tr.state
    d = data(st)
    for u in st.units.values():
        s = status(u)
        s.rammed = s.assaulted = False  # 9.3: morale_used is cleared in Phase 0 (one roll per cause per turn)
    d.physical, d.passed = "ram", []
    assert d.first is not None
    return _next(tr, tables, d.first)


def _has(st: GameState, tables: Tables, side: str, step: str) -> bool:
    return side not in data(st).passed and next(_attacks(st, tables, side, step), None) is not None


def _next(tr: Transition, tables: Tables, side: str) -> bool:
    """Give the turn to ``side`` if it has an attack left in the step, else to the other side, else go on to the
    next step (or end 3a: False)."""
    st = tr.state
    d = data(st)
    while d.physical is not None:
        step = d.physical
        other = st.enemies_of(side)[0]
        for s in (side, other):
            if _has(st, tables, s, step):
                st.to_act = s
                return True
        if step == "ram":
            d.physical, d.passed = "assault", []
            assert d.first is not None
            side = d.first
        else:
            d.physical, d.passed = None, []
    _end(st, tables)
    return False


def _end(st: GameState, tables: Tables) -> None:
    """3a is over: units destroyed, out of action or that attacked physically do not fire in 3b (3.2, 12.3)."""
    for u in st.units.values():
        s = status(u)
        if s.may_fire and (s.assaulted or not _on_map(u) or _out_of_action(tables, u)):
            s.may_fire = False


def physical_apply(tr: Transition, tables: Tables, verb: str, args: tuple[str, ...]) -> bool:
    """Play ``ram``, ``assault`` or ``pass`` in 3a; True when 3a is over (3b begins)."""
    st = tr.state
    d = data(st)
    side = st.to_act
    assert side is not None and d.physical is not None
    if verb == "pass":
        d.passed.append(side)
        tr.emit("pass", f"{side} makes no more {_STEP_NAME[d.physical]} this phase (rule 3.2)")
    elif _building_hex(st, args[1]) is not None:
        unit = st.units[args[0]]
        _reveal(tr, unit)
        _ram_building(tr, tables, unit)
    else:
        unit, target = st.units[args[0]], st.units[args[1]]
        _reveal(tr, unit)
        if verb == "ram":
            _ram(tr, tables, unit, target)
        else:
            _assault(tr, tables, unit, target)
    return not _next(tr, tables, st.enemies_of(side)[0])


def _reveal(tr: Transition, unit: Unit) -> None:
    s = status(unit)
    if s.hidden:
        s.hidden = False
        tr.reveal()
        tr.emit("reveal", f"{unit.id} attacks and is revealed (rule 13.2)", unit=unit.id)


# --- Rams ----------------------------------------------------------------------------------------------------------


def _rammed_face(tables: Tables, rammer: Unit, target: Unit) -> str:
    """The facing of ``target`` a ram strikes (2.2 [INTERP]): seen from the hex behind the rammer, which drives into
    it front first; on a boundary the higher armour."""
    facing, own = status(target).facing, status(rammer).facing
    if facing is None or own is None or target.hex is None:
        return "front"
    behind = target.hex.neighbours()[(own + 3) % 6]
    faces = armour_faces(theta(target.hex, facing, behind))
    a = tables.sheets[target.type].armour
    value = {"front": a.front, "side": a.side, "rear": a.rear, "top": a.top}
    return max(faces, key=lambda f: value[f])


def _ram_shot(st: GameState, tables: Tables, rammer: Unit, target: Unit) -> Shot:
    s = status(rammer)
    shot = ram_shot(
        sheets.base_number(s.experience),
        attack.die_of(st, tables, target),
        moved=has_moved(Fraction(s.half_mp, 2)),
        target_infantry=tables.sheets[target.type].unit_type == "infantry",
    )
    return replace(shot, shaken=s.shaken)


def _ram_to_hit(st: GameState, tables: Tables, rammer: Unit, target: Unit) -> ToHit:
    return hit_roll(_ram_shot(st, tables, rammer, target))


def _ram_amounts(tables: Tables, rammer: Unit, target: Unit) -> tuple[int, int, str]:
    """(damage to the target, damage to the rammer, the facing rammed) on a hit (12.1, 12.2)."""
    tsheet, sheet = tables.sheets[target.type], tables.sheets[rammer.type]
    if tsheet.unit_type == "infantry":
        return vs_infantry_damage(), 0, "front"
    face = _rammed_face(tables, rammer, target)
    got = ram_damage(
        v=status(rammer).hexes,
        w_own=sheet.weight_t or 0.0,
        w_enemy=tsheet.weight_t or 0.0,
        a_enemy=getattr(tsheet.armour, face),
        a_own=sheet.armour.front,
    )
    return got.to_enemy, got.to_rammer, face


def _suicide(tables: Tables, rammer: Unit, own: int) -> bool:
    return is_suicide(own, tables.sheets[rammer.type].possible_damage)


def _ram(tr: Transition, tables: Tables, rammer: Unit, target: Unit) -> None:
    """A ram (12): the suicide roll first (12.3, 9.3), the hit roll, the damage to both, morale at once."""
    st = tr.state
    status(rammer).rammed = True
    to_enemy, to_rammer, face = _ram_amounts(tables, rammer, target)
    if _suicide(tables, rammer, to_rammer):
        tr.emit(
            "ram",
            f"{rammer.id} would take {to_rammer} damage ramming {target.id}: a suicide attack (rule 12.3)",
            unit=rammer.id,
        )
        if _morale(tr, tables, rammer, "suicide", suicide=True) != "steady":
            return
    to_hit = _ram_to_hit(st, tables, rammer, target)
    hit = f"{to_enemy} damage to {target.id}, {to_rammer} to {rammer.id}"
    if not _ram_roll(tr, rammer, to_hit, target.id, f"{target.id} ({face})", hit):
        return
    _ram_hit(tr, tables, target, to_enemy, face)
    _ram_hit(tr, tables, rammer, to_rammer, "front")
    for u in (target, rammer):
        _after(tr, tables, u)


def _building_shot(tables: Tables, rammer: Unit) -> Shot:
    """The hit roll of a ram against a building (12.1): no +4, no target die (8.6 P), the rammer's movement."""
    s = status(rammer)
    shot = ram_shot(sheets.base_number(s.experience), None, moved=has_moved(Fraction(s.half_mp, 2)))
    return replace(shot, shaken=s.shaken)


def _building_amounts(st: GameState, tables: Tables, rammer: Unit) -> tuple[int, int]:
    """(damage to the building, damage to the rammer) of a ram against the building of its hex (12.2)."""
    assert rammer.hex is not None
    kind = buildings.house(st, tables, rammer.hex)
    assert kind is not None
    sheet = tables.sheets[rammer.type]
    return ram_building(
        v=status(rammer).hexes,
        w_own=sheet.weight_t or 0.0,
        a_building=kind.armour,
        a_own=sheet.armour.front,
        wheeled=sheet.move_class == "wheel",
    )


def _ram_building(tr: Transition, tables: Tables, rammer: Unit) -> None:
    """A ram against the building of the rammer's hex (12.2, 12.3): the suicide roll, the hit roll, the damage to
    the building and to the rammer; the rammer is in the building afterwards unless it collapsed."""
    st = tr.state
    h = rammer.hex
    assert h is not None
    status(rammer).rammed = True
    to_building, to_rammer = _building_amounts(st, tables, rammer)
    what = f"a building in {st.board.label(h)}"
    if _suicide(tables, rammer, to_rammer):
        text = f"{rammer.id} would take {to_rammer} damage ramming {what}: a suicide attack (rule 12.3)"
        tr.emit("ram", text, unit=rammer.id)
        if _morale(tr, tables, rammer, "suicide", suicide=True) != "steady":
            return
    to_hit = hit_roll(_building_shot(tables, rammer))
    if not _ram_roll(
        tr, rammer, to_hit, what, what, f"{to_building} damage to the building, {to_rammer} to {rammer.id}"
    ):
        return
    house = buildings.house(tr.state, tables, h)
    collapsed, lost = (
        hits.damage_building(tr, tables, h, house, to_building, f"{rammer.id} rams it", rule="12.2")
        if house is not None and to_building > 0
        else (False, [])
    )
    _ram_hit(tr, tables, rammer, to_rammer, "front")
    for u in (*lost, rammer):
        _after(tr, tables, u)
    if not collapsed and not status(rammer).destroyed:
        status(rammer).in_building = True
        tr.emit("building", f"{rammer.id} is in the building now (rule 12.3)", unit=rammer.id)


def _ram_roll(tr: Transition, rammer: Unit, to_hit: ToHit, what: str, what_hit: str, on_hit: str) -> bool:
    """The hit roll of a ram at ``what`` (12.1), told with its terms; on a hit (told at ``what_hit``) what it does
    (12.2). Whether it hit."""
    explain = to_hit.explain()
    roll = sum(tr.roll(10, 2, f"{rammer.id} rams {what}: {explain}", target=to_hit.tn, compare="at_least"))
    if not to_hit.outcome(roll).hit:
        tr.emit("ram", f"{rammer.id} rams {what}: {roll} against {explain}: missed (rule 12.1)", unit=rammer.id)
        return False
    tr.emit("ram", f"{rammer.id} rams {what_hit}: {roll} against {explain}: hit, {on_hit} (rule 12.2)", unit=rammer.id)
    return True


def _ram_hit(tr: Transition, tables: Tables, unit: Unit, points: int, face: str) -> None:
    """Ram damage on ``unit`` (12.3): vehicles tracks first, fuel and ammunition last; a gun on its table (15.6,
    12.2 P); infantry on its lowest rows (8.5); no armour check (12.2 P)."""
    if points <= 0:
        return
    sheet = tables.sheets[unit.type]
    rec = sheets.target(sheet, status(unit).rows_hit)

    def roller(sides: int, count: int, purpose: str) -> tuple[int, ...]:
        return tr.roll(sides, count, f"ram damage to {unit.id}: {purpose}")

    if sheet.unit_type == "vehicle":
        rows = ram_allocation(rec, points, roller)
    else:
        rows = fixed_hit(rec, face if face in COLUMNS else "front", points, roller, dk=None).allocation.rows
    attack.record_damage(tr, tables, unit, rows, face)


# --- Infantry close combat ------------------------------------------------------------------------------------


def _soldiers(tables: Tables, unit: Unit) -> int:
    hit = set(status(unit).rows_hit)
    return sum(1 for r in sheets.rows(tables.sheets[unit.type]) if r.kind == "soldier" and r.index not in hit)


def _assault_shot(st: GameState, tables: Tables, unit: Unit, target: Unit, *, shaken: bool | None = None) -> Shot:
    """The hit roll of close combat (12.1 P): the close-combat weapons at range 0, +4, the target's die without
    terrain (6.4), the intact soldiers pooled as numerous shooters (11.3: the largest pool)."""
    s = status(unit)
    w = tables.weapons[CLOSE_COMBAT]
    weapon = sheets.weapon(w)
    t_inf = tables.sheets[target.type].unit_type == "infantry"
    pooled = max(pools(_soldiers(tables, unit), weapon), default=1)
    return Shot(
        base_number=sheets.base_number(s.experience),
        weapon=weapon,
        ammo=sheets.ammo(next(iter(w.ammo.values()))),
        distance=0,
        target_die=attack.die_of(st, tables, target),
        target_infantry=t_inf,
        firer_moved=has_moved(Fraction(s.half_mp, 2)),
        same_hex=True,
        both_infantry=t_inf,
        shaken=s.shaken if shaken is None else shaken,
        physical=True,
        pooled=pooled if pooled > 1 else 1,
    )


def _armoured(tables: Tables, unit: Unit) -> bool:
    """An armoured vehicle (9.3): a vehicle with armour on any facing."""
    sheet = tables.sheets[unit.type]
    a = sheet.armour
    return sheet.unit_type == "vehicle" and any((a.front, a.side, a.rear, a.top))


def _assault(tr: Transition, tables: Tables, unit: Unit, target: Unit) -> None:
    """Close combat (12.1): infantry attacking an armoured vehicle rolls morale first (9.3: a failure attacks at +5,
    a dissolved unit does not attack); the attack (6.8) with the game's dice; results and morale at once."""
    st = tr.state
    s = status(unit)
    s.assaulted = True
    if _armoured(tables, target) and _morale(tr, tables, unit, "infantry_vs_armour") == DISSOLVED:
        return
    shot = _assault_shot(st, tables, unit, target)
    to_hit = hit_roll(shot)
    explain = to_hit.explain()
    column = attack.facing_hit(tables, unit, target)

    def roller(sides: int, count: int, purpose: str) -> tuple[int, ...]:
        if purpose == "hit roll":
            return tr.roll(
                sides,
                count,
                f"{unit.id} attacks {target.id} in close combat: {explain}",
                target=to_hit.tn,
                compare="at_least",
            )
        return tr.roll(sides, count, f"{unit.id} at {target.id}: {purpose}")

    rec = sheets.target(tables.sheets[target.type], status(target).rows_hit)
    result = resolve_attack(shot, rec, column, roller)
    rolls = ", ".join(f"{o.roll}" + (" hit" if o.hit else " miss") for o in result.rolls)
    tr.emit(
        "assault",
        f"{unit.id} attacks {target.id} in close combat: {rolls} against {explain} (rule 12.1)",
        unit=unit.id,
    )
    attack.record_damage(tr, tables, target, result.rows_hit, column)
    _after(tr, tables, target)


# --- Results and morale --------------------------------------------------------------------------------------------


def _after(tr: Transition, tables: Tables, unit: Unit) -> None:
    """Results apply at once in 3a (3.2): a destroyed unit leaves the map; the damage morale roll is made now."""
    s = status(unit)
    if s.destroyed:
        if unit.hex is not None:
            attack.leave(tr, unit, tables)
        s.morale_due = []
        return
    if "damage" in s.morale_due:
        s.morale_due.remove("damage")
        _morale(tr, tables, unit, "damage")


def _roll_of(st: GameState, tables: Tables, unit: Unit, *, suicide: bool) -> MoraleRoll:
    return attack.unit_morale(st, tables, unit, suicide=suicide)


_CAUSE = {"damage": "damage", "suicide": "a suicide attack", "infantry_vs_armour": "infantry attacking armour"}


def _morale(tr: Transition, tables: Tables, unit: Unit, cause: str, *, suicide: bool = False) -> str:
    """A morale roll now (9.3–9.5), at most one per cause and unit in the phase: ``steady``, ``shaken`` or
    ``dissolved`` (a dissolved unit leaves the game, counted as destroyed: 9.5 INTERP)."""
    s = status(unit)
    if cause in s.morale_used:
        return "steady"
    s.morale_used.append(cause)
    roll_of = _roll_of(tr.state, tables, unit, suicide=suicide)
    terms = " ".join(str(m) for m in roll_of.modifiers)
    (a, b) = tr.roll(10, 2, f"morale of {unit.id} ({_CAUSE[cause]}): {terms}", target=roll_of.value, compare="at_most")
    result = roll_of.result(a + b)
    tr.emit(
        "morale",
        f"{unit.id} rolls {a + b} for morale ({_CAUSE[cause]}) against {roll_of.value}: {result} (rule 9.5)",
        unit=unit.id,
    )
    if result == SHAKEN and not s.shaken:
        s.shaken, s.shaken_turn = True, tr.state.turn
    elif result == DISSOLVED:
        s.destroyed = True
        tr.emit("destroyed", f"{unit.id} dissolves and leaves the game (rule 9.5)", unit=unit.id)
        if unit.hex is not None:
            attack.leave(tr, unit, tables)
    return result


# --- Odds ----------------------------------------------------------------------------------------------------------


def physical_odds(st: GameState, tables: Tables, action: Action) -> Odds | None:
    """The exact distribution of a ram or a close-combat attack: the morale roll it needs first (suicide, 12.3;
    infantry against armour, 9.3), the hit roll with each modifier, the damage."""
    uid, tid = (str(a) for a in action.args)
    unit, target = st.units.get(uid), st.units.get(tid)
    if action.verb == "ram" and unit is not None and _building_hex(st, tid) is not None:
        return _ram_building_odds(st, tables, action, unit)
    if unit is None or target is None or unit.hex is None or target.hex != unit.hex:
        return None
    if action.verb == "ram":
        return _ram_odds(st, tables, action, unit, target)
    return _assault_odds(st, tables, action, unit, target)


def _ram_odds(st: GameState, tables: Tables, action: Action, rammer: Unit, target: Unit) -> Odds:
    to_enemy, to_rammer, face = _ram_amounts(tables, rammer, target)
    to_hit = _ram_to_hit(st, tables, rammer, target)
    on_hit = f"{to_enemy} damage to {target.id} ({face}), {to_rammer} to {rammer.id}"
    return _ram_chances(st, tables, action, rammer, to_hit, to_rammer, on_hit, (f"{to_enemy} damage", to_enemy))


def _ram_chances(
    st: GameState,
    tables: Tables,
    action: Action,
    rammer: Unit,
    to_hit: ToHit,
    to_rammer: int,
    on_hit: str,
    hit_entry: tuple[str, int],
) -> Odds:
    """A ram's odds (12.1–12.3): the suicide roll first where it is one (its chance to dissolve the rammer), then the
    hit roll; ``on_hit`` says what a hit does, ``hit_entry`` names it and its damage."""
    hit = to_hit.chance if to_hit.possible else Fraction(0)
    go = Fraction(1)
    entries: list[OddsEntry] = []
    note = f"{to_hit.explain()}; on a hit {on_hit}"
    if _suicide(tables, rammer, to_rammer) and "suicide" not in status(rammer).morale_used:
        m = _roll_of(st, tables, rammer, suicide=True)
        go = m.odds()["steady"]
        entries.append(OddsEntry("rammer dissolves (suicide attack)", 1 - go, -1.0))
        note += f"; suicide attack: morale {m.value} first (rule 12.3)"
    entries.append(OddsEntry("miss", go * (1 - hit)))
    entries.append(OddsEntry(hit_entry[0], go * hit, float(hit_entry[1])))
    return Odds(action, merge(e for e in entries if e.probability), note=note)


def ram_net(st: GameState, tables: Tables, action: Action, odds: Odds) -> float | None:
    """The expected damage a ram at an enemy unit deals less what it costs the rammer (12.1, 12.2: both take damage
    on a hit; 12.3: a suicide ram may dissolve the rammer, counted as 1), on the scale of the odds' values (damage
    points): for the AI, whose score of a chance action is its odds' expected value. None for other actions."""
    if action.verb != "ram" or len(action.args) != 2:
        return None
    rammer, target = st.units.get(str(action.args[0])), st.units.get(str(action.args[1]))
    if rammer is None or target is None:
        return None
    to_enemy, to_rammer, _ = _ram_amounts(tables, rammer, target)
    hit = odds.probability(f"{to_enemy} damage")
    return float(hit * (to_enemy - to_rammer) - odds.probability("rammer dissolves (suicide attack)"))


def _ram_building_odds(st: GameState, tables: Tables, action: Action, rammer: Unit) -> Odds | None:
    if ram_refusal(st, tables, rammer, str(action.args[1])) is not None:
        return None
    to_building, to_rammer = _building_amounts(st, tables, rammer)
    to_hit = hit_roll(_building_shot(tables, rammer))
    on_hit = f"{to_building} damage to the building, {to_rammer} to {rammer.id}"
    entry = (f"{to_building} damage to the building", to_building)
    return _ram_chances(st, tables, action, rammer, to_hit, to_rammer, on_hit, entry)


def _assault_odds(st: GameState, tables: Tables, action: Action, unit: Unit, target: Unit) -> Odds:
    column = attack.facing_hit(tables, unit, target)
    rec = sheets.target(tables.sheets[target.type], status(target).rows_hit)
    plain = shot_odds(_assault_shot(st, tables, unit, target), rec, column)
    note = plain.to_hit.explain() + f"; hits the {column}"
    if not _armoured(tables, target) or "infantry_vs_armour" in status(unit).morale_used:
        return Odds(action, plain.entries(), note=note)
    m = _roll_of(st, tables, unit, suicide=False).odds()
    shaken = shot_odds(_assault_shot(st, tables, unit, target, shaken=True), rec, column)
    entries = [OddsEntry("attacker dissolves", m[DISSOLVED], -1.0)]
    entries += [replace(e, probability=e.probability * m["steady"]) for e in plain.entries()]
    entries += [replace(e, probability=e.probability * m[SHAKEN]) for e in shaken.entries()]
    note += "; infantry attacking armour rolls morale first (rule 9.3)"
    return Odds(action, merge(e for e in entries if e.probability), note=note)
