"""Provides the actions of an activation (digest 3.2, 4.1–4.4, 4.6, 13.2, 15.10.2): what a unit may do now
(:func:`unit_actions`), why an action is refused (:func:`refusal`, citing the rule), and what it does
(:func:`apply_action`).

A unit's activation begins with its first action (enter, move, back, turn, mount, dismount, hook, unhook) and ends
with ``stop``, or at once with ``stand``, ``work`` or ``mount``; it also ends by itself when nothing but ``stop`` is
left. Passengers and towed guns go where their carrier goes (4.5, 4.6). The set-up decisions (15.10.2) and the End
Phase's bridge decision (4.10) are dispatched from here to :mod:`.deployment` and :mod:`.sequence`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import cast

from engine.actions import Action
from engine.hexgrid import Hex
from engine.notation import Notation
from engine.rules import Transition
from engine.state import GameState, Unit

from . import (
    aiming,
    attack,
    buildings,
    climbing,
    fortifications,
    grenades,
    hiding,
    lines,
    obstacles,
    opportunity,
    options,
    pontoons,
    shelling,
    sighting,
    weather,
)
from .bridges import road_between, start_work, terrain_of, work_hexes, work_refusal
from .cache import handed, keeping, kept, remember, taken
from .carriers import (
    dismount_refusal,
    hook_refusal,
    mount_refusal,
    riders,
    seat,
    speed,
    towed,
    unhook_refusal,
)
from .closecombat import physical_actions, physical_apply, physical_refusal
from .data import Cost, Sheet, Tables
from .deployment import apply_setup, setup_actions, setup_refusal
from .geometry import direction_to, turn_steps
from .model import FACING_NAMES, data, status
from .movement import CLIMB, Refused, Spent, admit, combine, limit, stacking_surcharge, step_cost, turn_cost
from .notation import (
    Aim,
    Assault,
    Back,
    Blow,
    Cancel,
    Cease,
    Clear,
    Climb,
    Cut,
    Dismount,
    Enter,
    Fire,
    Hide,
    Hold,
    Hook,
    Lay,
    Light,
    Mount,
    Move,
    Occupy,
    Pass,
    Ram,
    Shell,
    Smoke,
    Spare,
    Stand,
    Stay,
    Stop,
    Turn,
    Unhook,
    Vacate,
    Work,
)
from .rally import away_refusal
from .sequence import begin_fire, decide_bridge, end_activation, end_attack, finish_end_phase, pending

__all__ = ["Step", "apply_action", "refusal", "speed", "unit_actions"]


@dataclass(frozen=True, slots=True)
class Step:
    """Where a unit is after an action of its move: its hex, facing and what it has spent."""

    hex: Hex
    facing: int | None
    spent: Spent
    reversed: bool = False


def _crowd(st: GameState, h: Hex) -> int:
    """Units already in ``h`` for stacking (4.4 [PROPOSED]: embarked and towed units and wrecks not counted)."""
    if not keeping(st):  # check and apply: this hex alone
        return sum(1 for u in st.units.values() if u.hex == h and _crowds_in(u))
    return kept(st, ("crowds",), lambda: _crowds(st)).get(h, 0)  # every hex counted once per listing (cache.py)


def _crowds_in(u: Unit) -> bool:
    s = status(u)
    return not (s.embarked_in or s.towed_by or s.destroyed)


def _crowds(st: GameState) -> dict[Hex, int]:
    out: dict[Hex, int] = {}
    for u in st.units.values():
        if u.hex is not None and not (status(u).embarked_in or status(u).towed_by or status(u).destroyed):
            out[u.hex] = out.get(u.hex, 0) + 1
    return out


def _spent(unit: Unit) -> Spent:
    s = status(unit)
    return Spent(s.half_mp, s.off_road, s.max_move, s.hexes - s.off_road)


def _name(facing: int | None) -> str:
    return "-" if facing is None else FACING_NAMES[facing].upper()


def _turn(tables: Tables, sheet: Sheet, spent: Spent, frm: int, to: int, mp: tuple[int, int]) -> Spent | Refused:
    """Spend the MP of turning from facing ``frm`` to ``to`` (4.1); a value of its arguments, kept (every listing
    asks it for each facing of each gun and vehicle)."""
    key = (id(tables), spent, frm, to, mp)
    got = _TURNS.get(key)
    if got is None or got[0] is not tables:
        if len(_TURNS) >= 10_000:
            _TURNS.clear()
        got = _TURNS[key] = (tables, _turn_now(tables, spent, frm, to, mp))
    return got[1]


_TURNS: dict[tuple[int, Spent, int, int, tuple[int, int]], tuple[Tables, Spent | Refused]] = {}


def _turn_now(tables: Tables, spent: Spent, frm: int, to: int, mp: tuple[int, int]) -> Spent | Refused:
    cost = float(turn_cost(tables, turn_steps(frm, to)))
    return admit(tables, spent, cost, mp=mp[0], road_mp=mp[1], kind="none", what=f"turning to {_name(to)}")


def _enter_cost(
    st: GameState, tables: Tables, unit: Unit, frm: Hex | None, to: Hex, backwards: bool
) -> tuple[Cost | str, bool, str]:
    """The cost of entering ``to`` (4.3, 4.4): from ``frm``, or from off the map (15.10.2: no level surcharge)."""
    board = st.board
    terrain = pontoons.crossing(st, tables, to, terrain_of(st, tables, to))  # 4.8: a pontoon makes it a stream
    sheet = tables.sheets[unit.type]
    if frm is None:
        road = any(road_between(st, to, n) for n in to.neighbours() if n in board)
        change = 0
    else:
        road = road_between(st, frm, to)
        change = board.level(to) - board.level(frm)
    cost = step_cost(
        tables,
        sheet.move_class,
        terrain,
        level_change=change,
        road=road,
        backwards=backwards,
        overlays=weather.overlays(st, terrain),  # 4.3: the ground (mud, snow)
    )
    if cost != CLIMB:  # wire and ditches (13.5, 13.7)
        cost = combine([cast(Cost, cost), fortifications.entry_cost(st, tables, unit, frm, to)])
    if isinstance(cost, float):
        cost += stacking_surcharge(tables, _crowd(st, to))
    return cost, road, terrain.name


def step_into(st: GameState, tables: Tables, unit: Unit, at: Step, to: Hex, backwards: bool = False) -> Step | Refused:
    """The unit, standing as ``at`` says, enters the adjacent hex ``to``: forwards (a gun or vehicle first turns to
    face it, 4.1) or reversing into the hex behind it (4.3). The step after, or why it may not."""
    board = st.board
    sheet = tables.sheets[unit.type]
    if to not in board:
        return Refused("Cannot move: that hex is off the map, and units may not leave it", "15.10.2")
    way = direction_to(at.hex, to)
    if way is None:
        return Refused(f"Cannot move: {board.label(to)} is not adjacent to {board.label(at.hex)}", "4.3")
    away = away_refusal(st, unit, at.hex, to)  # 9.5: a shaken unit only moves away from the enemy
    if away is not None:
        return away
    spent, facing = at.spent, at.facing
    if fortifications.immobile(tables, unit):
        return Refused(f"Cannot move: {unit.id} is immobilised", "8.5")
    barred = fortifications.entry_refusal(st, tables, unit, at.hex, to, bool(spent.half_mp or spent.max_move))
    if barred is not None:
        return barred
    mp = kept(st, ("speed", unit.id), lambda: speed(st, tables, unit), unit)  # the same for every step listed
    if backwards:
        if facing is None:
            return Refused(f"Cannot reverse: {unit.id} is infantry and has no facing", "2.1")
        if way != (facing + 3) % 6:
            return Refused(f"Cannot reverse: {board.label(to)} is not behind {unit.id}, facing {_name(facing)}", "4.3")
    elif facing is not None and facing != way:
        if road_between(st, at.hex, to):
            facing = way  # a road step turns onto the road for free (README: 4.1 against 4.2 and AC-SC-08)
        else:
            got = _turn(tables, sheet, spent, facing, way, mp)
            if isinstance(got, Refused):
                return got
            spent, facing = got, way
    cost, road, name = _enter_cost(st, tables, unit, at.hex, to, backwards)
    what = f"{'reversing into' if backwards else 'entering'} {board.label(to)} ({name})"
    got = admit(tables, spent, cost, mp=mp[0], road_mp=mp[1], kind="road" if road else "off_road", what=what)
    if isinstance(got, Refused):
        return got
    return Step(to, facing, got, backwards)


def _entry(st: GameState, tables: Tables, unit: Unit, to: Hex, facing: str | None) -> Step | Refused:
    """A unit waiting off the map enters by ``to`` (15.10.2)."""
    board = st.board
    sheet = tables.sheets[unit.type]
    if to not in status(unit).entry:
        entries = " ".join(board.label(h) for h in status(unit).entry) or "none"
        return Refused(f"Cannot enter: {board.label(to)} is not an entry hex of {unit.id} ({entries})", "15.10.2")
    if sheet.has_facing and facing is None:
        return Refused(f"Cannot enter: {unit.id} is a {sheet.unit_type} and must choose its facing", "15.10.2")
    if not sheet.has_facing and facing is not None:
        return Refused(f"Cannot enter facing {facing}: infantry has no facing", "2.1")
    barred = fortifications.entry_refusal(st, tables, unit, None, to, False)
    if barred is not None:
        return barred
    cost, road, name = _enter_cost(st, tables, unit, None, to, False)
    mp = speed(st, tables, unit)
    what = f"entering {board.label(to)} ({name})"
    got = admit(tables, Spent(), cost, mp=mp[0], road_mp=mp[1], kind="road" if road else "off_road", what=what)
    if isinstance(got, Refused):
        return got
    return Step(to, None if facing is None else FACING_NAMES.index(facing), got)


def _here(unit: Unit) -> Step:
    assert unit.hex is not None
    return Step(unit.hex, status(unit).facing, _spent(unit))


# --- What a unit may do -----------------------------------------------------------------------------------------


def unit_actions(st: GameState, tables: Tables, unit: Unit) -> list[Action]:
    """Every legal action of ``unit`` now, in a fixed order (the unit is the one in activation, or one its side may
    activate: 3.2)."""
    active = data(st).active == unit.id
    out: list[Action] = []
    board = st.board
    s = status(unit)
    if s.off_map:
        facings = FACING_NAMES if tables.sheets[unit.type].has_facing else (None,)
        for h in s.entry:
            # whether a unit may enter by h does not depend on the facing it chooses (15.10.2): ask once
            if not isinstance(_entry(st, tables, unit, h, facings[0]), Refused):
                out += [Action("enter", (unit.id, board.label(h)) + ((f,) if f else ())) for f in facings]
    else:
        out += _moves(st, tables, unit)
        out += aiming.aim_actions(st, tables, unit)  # 6.1 P: once per turn, in two steps
        if not active:
            out += [Action("work", (unit.id, board.label(h))) for h in work_hexes(st, tables, unit)]
            out += _fort_work(st, tables, unit)
    out.append(Action("stop", (unit.id,)) if active else Action("stand", (unit.id,)))
    return out


def _fort_work(st: GameState, tables: Tables, unit: Unit) -> list[Action]:
    """Work on fortifications (3.2, 13.3–13.6) and climbs (4.7) open to the unit."""
    board = st.board
    out = [Action("work", (unit.id, board.label(h))) for h, _ in fortifications.work_hexes(st, tables, unit, "blast")]
    out += [
        Action("lay", (unit.id, board.label(h), k or "trap"))
        for h, k in fortifications.work_hexes(st, tables, unit, "lay")
    ]
    for job in ("clear", "cut"):
        if any(True for _ in fortifications.work_hexes(st, tables, unit, job)):
            out.append(Action(job, (unit.id,)))
    if unit.hex is not None and tables.sheets[unit.type].unit_type == "infantry":  # 4.7
        for n in unit.hex.neighbours():
            if n in board and climbing.climb_refusal(st, tables, unit, n) is None:
                out.append(Action("climb", (unit.id, board.label(n))))
    return out


def _moves(st: GameState, tables: Tables, unit: Unit) -> list[Action]:
    return list(_each_move(st, tables, unit))


def _each_move(st: GameState, tables: Tables, unit: Unit) -> Iterator[Action]:
    """The unit's moves, reverses, turns and carrier actions, one by one (``_moves``; the first found is enough to
    know that the activation can go on)."""
    board = st.board
    at = _here(unit)
    mp = kept(st, ("speed", unit.id), lambda: speed(st, tables, unit), unit)
    steps = _may_step(tables, tables.sheets[unit.type].move_class, at.spent, mp)  # else every step is refused
    for n in at.hex.neighbours() if steps else ():
        if n in board and not isinstance(step_into(st, tables, unit, at, n), Refused):
            yield Action("move", (unit.id, board.label(n)))
    if at.facing is not None and not fortifications.immobile(tables, unit):  # 8.5: an immobilised unit stays
        behind = at.hex.neighbours()[(at.facing + 3) % 6]
        if steps and behind in board and not isinstance(step_into(st, tables, unit, at, behind, True), Refused):
            yield Action("back", (unit.id, board.label(behind)))
        sheet = tables.sheets[unit.type]
        for f in range(6):
            if f != at.facing and not isinstance(_turn(tables, sheet, at.spent, at.facing, f, mp), Refused):
                yield Action("turn", (unit.id, FACING_NAMES[f]))
    yield from _carrier_actions(st, tables, unit)
    if buildings.occupy_refusal(st, tables, unit) is None:  # 4.9
        yield Action("occupy", (unit.id,))
    if buildings.vacate_refusal(st, tables, unit) is None:
        yield Action("vacate", (unit.id,))


def _may_step(tables: Tables, move_class: str, spent: Spent, mp: tuple[int, int]) -> bool:
    """False when no step into a hex can be admitted (4.3): the move ended with a whole-move step, or it has spent
    MP and the cheapest entry of the cost table would pass what the unit may still spend: a road step's cheapest
    entry (the road row) within the allowance it would leave, or any step's within the allowance an off-road step
    would leave (4.2: the road MP only while the move has road steps and at most one that is not, ``limit``). A
    bound that spares trying each hex, never a refusal of its own: True leaves every step to :func:`step_into`."""
    if spent.max_move:
        return False
    if not spent.half_mp:
        return True
    any_step, road_step = remember(_CHEAPEST, (id(tables), move_class), lambda: _cheapest(tables, move_class), tables)
    after_road = limit(tables, mp[0], mp[1], spent.off_road, spent.road_steps + 1)
    after_off = limit(tables, mp[0], mp[1], spent.off_road + 1, spent.road_steps)
    return (
        spent.half_mp + round(2 * road_step) <= 2 * after_road or spent.half_mp + round(2 * any_step) <= 2 * after_off
    )


_CHEAPEST: dict[tuple[int, str], tuple[Tables, tuple[float, float]]] = {}


def _cheapest(tables: Tables, move_class: str) -> tuple[float, float]:
    """The least a step into a hex can cost ``move_class`` (4.3): (any step, a road step); the cheapest float of the
    base rows (of the road row for a road step, 4.2), the surcharges, level changes, wire, ditches and stacking only
    adding to it; 0 if some surcharge could take away."""
    mv = tables.movement
    adds = [c for row in (*mv.surcharge.values(), *mv.level_change) for c in row.values()]
    if any(isinstance(c, (int, float)) and c < 0 for c in adds):
        return 0.0, 0.0
    costs = [float(row[move_class]) for row in mv.base.values() if isinstance(row.get(move_class), (int, float))]
    cheapest = max(0.0, min(costs, default=0.0))
    road = mv.base["road"].get(move_class)
    return cheapest, max(cheapest, float(road)) if isinstance(road, (int, float)) else cheapest


def _only_stop(st: GameState, tables: Tables, unit: Unit) -> bool:
    """Whether ``stop`` is the unit's only legal action (``unit_actions``; for the unit in activation on the map,
    without listing every move)."""
    if status(unit).off_map or data(st).active != unit.id:
        return unit_actions(st, tables, unit) == [Action("stop", (unit.id,))]
    return next(_each_move(st, tables, unit), None) is None


def _carrier_actions(st: GameState, tables: Tables, unit: Unit) -> list[Action]:
    """Mounting, dismounting, hooking up and unhooking open to the unit now (4.5, 4.6)."""
    out: list[Action] = []
    here = [u for u in st.units.values() if u.hex == unit.hex and u.id != unit.id and u.side == unit.side]
    for other in here:
        s = status(other)
        if s.embarked_in == unit.id and dismount_refusal(st, tables, unit, other) is None:
            out.append(Action("dismount", (unit.id, other.id)))
        if s.embarked_in or s.towed_by:
            continue
        if not isinstance(mount_refusal(st, tables, unit, other), Refused):
            out.append(Action("mount", (unit.id, other.id)))
        if not isinstance(hook_refusal(st, tables, unit, other), Refused):
            out.append(Action("hook", (unit.id, other.id)))
    if towed(st, unit) is not None and not isinstance(unhook_refusal(st, tables, unit), Refused):
        out.append(Action("unhook", (unit.id,)))
    return out


# --- Why an action is refused -----------------------------------------------------------------------------------


def refusal(st: GameState, tables: Tables, typed: Notation) -> Refused | None:
    """Why ``typed`` may not be played now (the rule cited), or None if it may."""
    d = data(st)
    if st.outcome is not None:
        return Refused("Cannot act: the game is over", "3.2")
    if st.phase == "setup":
        return setup_refusal(st, tables, typed)
    if d.opp_mover is not None:  # 6.7: the offer of opportunity fire is open
        if isinstance(typed, Fire) and not options.order(typed).plain:
            return Refused("Cannot fire with a round, an option or at a hex on opportunity: plain fire only", "6.7")
        args = (typed.unit, str(typed.target), typed.weapon) if isinstance(typed, Fire) else ()
        return opportunity.refusal(st, tables, typed.verb, args)
    if d.hiding is not None or isinstance(typed, (Hide, Stay)):  # 3.2 Phase 4 step 9 (hiding.py)
        return hiding.refusal(st, tables, typed.verb, typed.unit if isinstance(typed, Hide) else None)
    if d.physical is not None or isinstance(typed, (Ram, Assault, Pass)):  # 3.2 Phase 3a (closecombat.py)
        pair = (typed.unit, _label(st, typed.target)) if isinstance(typed, (Ram, Assault)) else ()
        return physical_refusal(st, tables, typed.verb, pair)
    if isinstance(typed, Hold):
        return Refused("Cannot hold: no opportunity fire is offered now", "6.7")
    if isinstance(typed, (Blow, Spare)):
        if d.offer != typed.hex:
            return Refused("Cannot decide on that bridge: its owner is asked at the start of the End Phase", "4.10")
        return None
    if d.aiming or isinstance(typed, (Aim, Light)) or (isinstance(typed, Cancel) and st.phase == "movement"):
        return _aim_refusal(st, tables, typed)  # 6.1 P: a searchlight aimed in two steps (aiming.py)
    if d.shelling or isinstance(typed, (Fire, Shell, Cancel)):
        return _fire_refusal(st, tables, typed)
    if isinstance(typed, Cease):
        return attack.cease_refusal(st, tables, typed.unit)
    if isinstance(typed, Smoke):  # 15.4, 3.2 Phase 3b (grenades.py)
        return grenades.refusal(st, tables, typed.unit, typed.weapon)
    if st.phase == "attack":
        return Refused(f"Cannot {typed.verb}: it is the Fire Phase (fire or cease)", "3.2")
    if st.phase != "movement":
        return Refused("Cannot act: the End Phase waits for the decision on the bridge", "4.10")
    uid = getattr(typed, "unit", None)  # every unit's verb names its unit first
    if not isinstance(uid, str):  # a decision of another phase (the set-up's deploy, 15.10.2)
        return Refused(f"Cannot {typed.verb}: it is the Movement Phase, a unit of {st.to_act} is to act", "3.2")
    unit = st.units.get(uid)
    if unit is None or unit.side != st.to_act:
        return Refused(f"Cannot act: {uid} is not a unit of {st.to_act}", "3.2")
    general = _general_refusal(st, unit, typed)
    if general is not None:
        return general
    return _step_refusal(st, tables, unit, typed, d.active == unit.id)


def _aim_refusal(st: GameState, tables: Tables, typed: Notation) -> Refused | None:
    """Why ``aim``, ``light`` or ``cancel``, or whatever is played while a searchlight is aimed, may not be played
    now: the Movement Phase and the unit's activation (3.2), then the searchlight's own conditions (6.1 P)."""
    if st.phase != "movement":
        return Refused(f"Cannot {typed.verb}: a searchlight is aimed in the Movement Phase", "6.1")
    if isinstance(typed, Aim):
        unit = st.units.get(typed.unit)
        if unit is None or unit.side != st.to_act:
            return Refused(f"Cannot aim: {typed.unit} is not a unit of {st.to_act}", "3.2")
        why = _general_refusal(st, unit, typed)
        if why is not None:
            return why
    return aiming.refusal(st, tables, typed)


def _fire_refusal(st: GameState, tables: Tables, typed: Notation) -> Refused | None:
    """Why a ``fire`` (3.2 Phase 3b: attack.py; options of 11, indirect fire of 7: options.py), or a ``shell`` or
    ``cancel`` and whatever is played while an aim is taken (7.4: fire at any hex, in two steps: shelling.py), may
    not be played now."""
    if data(st).shelling or isinstance(typed, (Shell, Cancel)):
        return shelling.refusal(st, tables, typed)
    assert isinstance(typed, Fire)
    if st.phase != "attack":
        return attack.refusal(st, tables, typed.unit, str(typed.target), typed.weapon)
    if obstacles.is_obstacle_order(st, options.order(typed)):  # 13.6: aimed at AT obstacles
        return obstacles.refusal(st, tables, options.order(typed))
    return options.refusal(st, tables, options.order(typed))


def _general_refusal(st: GameState, unit: Unit, typed: Notation) -> Refused | None:
    d = data(st)
    s = status(unit)
    if s.destroyed:
        return Refused(f"Cannot act: {unit.id} has been destroyed", "3.2")
    if s.embarked_in or s.towed_by:
        carrier = s.embarked_in or s.towed_by
        return Refused(
            f"Cannot act: {unit.id} goes with {carrier}, in its activation", "4.5" if s.embarked_in else "4.6"
        )
    if s.activated:
        return Refused(f"Cannot act: {unit.id} has already been activated this turn", "3.2")
    if d.active is not None and d.active != unit.id:
        return Refused(f"Cannot act: {d.active} is in activation; stop it first", "3.2")
    if s.off_map and s.arrives > st.turn:
        return Refused(f"Cannot act: {unit.id} arrives in turn {s.arrives}", "15.10.2")
    if isinstance(typed, Stop) and d.active != unit.id:
        return Refused(f"Cannot stop: {unit.id} is not in activation (stand activates it without moving)", "3.2")
    if isinstance(typed, (Stand, Work, Lay, Clear, Cut, Climb)) and d.active == unit.id:
        return Refused(f"Cannot {typed.verb}: {unit.id} has already begun its activation (stop ends it)", "3.2")
    if isinstance(typed, Enter) != s.off_map and not isinstance(typed, (Stand, Stop)):
        where = "has not entered the map yet" if s.off_map else "is already on the map"
        return Refused(f"Cannot {typed.verb}: {unit.id} {where}", "15.10.2")
    return None


def _step_refusal(st: GameState, tables: Tables, unit: Unit, typed: Notation, active: bool) -> Refused | None:
    if isinstance(typed, Enter):
        got = _entry(st, tables, unit, typed.hex, typed.facing)
        return got if isinstance(got, Refused) else None
    if isinstance(typed, Work):
        if typed.hex in data(st).obstacles:  # a charge against AT obstacles (13.6)
            return fortifications.work_refusal(st, tables, unit, "blast", typed.hex)
        return work_refusal(st, tables, unit, typed.hex)
    if isinstance(typed, Climb):
        return climbing.climb_refusal(st, tables, unit, typed.hex)
    if isinstance(typed, Lay):
        return fortifications.work_refusal(st, tables, unit, "lay", typed.hex, typed.kind)
    if isinstance(typed, (Clear, Cut)):
        assert unit.hex is not None
        return fortifications.work_refusal(st, tables, unit, typed.verb, unit.hex)
    if isinstance(typed, Turn):
        at = _here(unit)
        if at.facing is None:
            return Refused(f"Cannot turn: {unit.id} is infantry and has no facing", "2.1")
        if fortifications.immobile(tables, unit):
            return Refused(f"Cannot turn: {unit.id} is immobilised", "8.5")
        to = FACING_NAMES.index(typed.facing)
        if to == at.facing:
            return Refused(f"Cannot turn: {unit.id} already faces {_name(to)}", "4.1")
        turned = _turn(tables, tables.sheets[unit.type], at.spent, at.facing, to, speed(st, tables, unit))
        return turned if isinstance(turned, Refused) else None
    if isinstance(typed, (Move, Back)):
        steps = handed(st, ("walk", typed), lambda: walk(st, tables, unit, typed))  # the apply's steps (cache.py)
        return steps if isinstance(steps, Refused) else None
    if isinstance(typed, Occupy):  # 4.9
        return buildings.occupy_refusal(st, tables, unit)
    if isinstance(typed, Vacate):
        return buildings.vacate_refusal(st, tables, unit)
    return _carrier_refusal(st, tables, unit, typed)


def _carrier_refusal(st: GameState, tables: Tables, unit: Unit, typed: Notation) -> Refused | None:
    other_id = getattr(typed, "carrier", None) or getattr(typed, "passenger", None) or getattr(typed, "load", None)
    other = st.units.get(other_id) if other_id is not None else None
    if other_id is not None and (other is None or other.side != unit.side):
        return Refused(f"Cannot {typed.verb}: {other_id} is not a unit of {unit.side}", "4.5")
    got: Spent | Refused | None = None
    if isinstance(typed, Mount) and other is not None:
        got = mount_refusal(st, tables, unit, other)
    elif isinstance(typed, Dismount) and other is not None:
        got = dismount_refusal(st, tables, unit, other)
    elif isinstance(typed, Hook) and other is not None:
        got = hook_refusal(st, tables, unit, other)
    elif isinstance(typed, Unhook):
        got = unhook_refusal(st, tables, unit)
    return got if isinstance(got, Refused) else None


def walk(st: GameState, tables: Tables, unit: Unit, typed: Move | Back) -> list[Step] | Refused:
    """The steps of a move or a reversing step, or why one of them may not be made."""
    at = _here(unit)
    path = typed.path if isinstance(typed, Move) else (typed.hex,)
    if not path:
        return Refused("Cannot move: no hex given", "4.3")
    steps: list[Step] = []
    for h in path:
        got = step_into(st, tables, unit, at, h, isinstance(typed, Back))
        if isinstance(got, Refused):
            return got
        steps.append(got)
        at = got
    return steps


# --- What an action does ----------------------------------------------------------------------------------------


def apply_action(tr: Transition, tables: Tables, typed: Notation) -> None:
    """Play a legal action (checked by :func:`refusal`)."""
    st = tr.state
    d = data(st)
    if _apply_decision(tr, tables, typed):
        return
    unit = st.units[getattr(typed, "unit")]  # noqa: B009
    if isinstance(typed, (Work, Lay, Clear, Cut, Climb)):
        _work(tr, tables, unit, typed)
        return
    if isinstance(typed, Stand):
        _stand(tr, tables, unit)
        return
    if isinstance(typed, Stop):
        _finish(tr, tables, unit, "stops")
        return
    if d.active is None:
        d.active = unit.id
        _announce(tr, unit)
    halt: str | None = None  # 3.2: a unit that fails the morale roll of a mine's damage stops
    if isinstance(typed, Enter):
        got = _entry(st, tables, unit, typed.hex, typed.facing)
        assert isinstance(got, Step)
        status(unit).off_map = False
        _place(tr, tables, unit, got, "enters the map at")
        fortifications.on_enter(tr, tables, unit)  # 3.2 interrupt, step 1 (13.4, 13.5)
        halt = _mine_morale(tr, tables, unit)
        why = lines.on_enter(tr, tables, unit)  # step 2 (11.6)
        if why is not None:
            _finish(tr, tables, unit, why)
            return
        if opportunity.offer(tr, tables, unit):  # step 3 (6.7)
            return
    elif isinstance(typed, Turn):
        at = _here(unit)
        assert at.facing is not None
        to = FACING_NAMES.index(typed.facing)
        turned = _turn(tables, tables.sheets[unit.type], at.spent, at.facing, to, speed(st, tables, unit))
        assert isinstance(turned, Spent)
        _place(tr, tables, unit, Step(at.hex, to, turned), "turns in")
    elif isinstance(typed, (Move, Back)):
        done, halt = _move(tr, tables, unit, typed)
        if done:
            return
    elif isinstance(typed, (Occupy, Vacate)):  # 4.9
        buildings.occupy(tr, unit, isinstance(typed, Occupy))
    elif _apply_carrier(tr, tables, unit, typed):
        return
    if status(unit).destroyed:
        _finish(tr, tables, unit, "is out of the game, and its activation ends")
        return
    if halt is not None or _only_stop(st, tables, unit):
        _finish(tr, tables, unit, halt or "has no move left and stops")


def _move(tr: Transition, tables: Tables, unit: Unit, typed: Move | Back) -> tuple[bool, str | None]:
    """The steps of a move, each followed by the interrupts of 3.2: (whether the activation was ended or handed to
    the other side, why the unit must stop where it is)."""
    steps = taken(tr.state, ("walk", typed), lambda: walk(tr.state, tables, unit, typed))  # as its check found
    assert isinstance(steps, list)
    halt: str | None = None
    for step in steps:
        _place(tr, tables, unit, step, "reverses to" if step.reversed else "moves to")
        stopped = fortifications.on_enter(tr, tables, unit)  # 3.2 interrupt, step 1 (13.4, 13.5)
        halt = _mine_morale(tr, tables, unit)
        why = lines.on_enter(tr, tables, unit)  # step 2 (11.6): a line may stop the move
        if why is not None:
            _finish(tr, tables, unit, why)
            return True, None
        if opportunity.offer(tr, tables, unit):  # step 3 (6.7): the rest of the path waits
            return True, None
        if stopped or halt is not None:  # a mine or wire ended the move here
            break
    return False, halt


def _mine_morale(tr: Transition, tables: Tables, unit: Unit) -> str | None:
    """3.2 interrupt step 1: the morale roll that damage by a mine, trap or wire causes is made at once (9.3; results
    apply immediately, as for opportunity fire); why the unit stops when it fails (shaken; a dissolved unit is out
    of the game), else None. A hidden unit rolls with the others at the end of 3b [INTERP: its roll would tell the
    enemy which unit struck the mine]."""
    s = status(unit)
    if not s.morale_due or s.hidden or s.destroyed:
        return None
    was = s.shaken
    opportunity.results_now(tr, tables, unit)
    if s.shaken and not was and not s.destroyed:
        return "fails its morale roll and stops (rule 3.2)"
    return None


def _work(tr: Transition, tables: Tables, unit: Unit, typed: Work | Lay | Clear | Cut | Climb) -> None:
    """A whole activation of work (3.2) on a bridge (4.10) or on fortifications (13.3–13.6), done in the End Phase,
    step 7, or of climbing (4.7). Laying is told to the unit's side only (13.3: the enemy learns at the end of the
    turn)."""
    st = tr.state
    assert unit.hex is not None
    if isinstance(typed, Climb):
        _announce(tr, unit)
        climbing.climb(tr, tables, unit, typed.hex)
        _mine_morale(tr, tables, unit)  # 3.2: the morale of its damage (a failed roll, a mine) at once
        _finish(tr, tables, unit, "ends its climbing turn")
        return
    if isinstance(typed, Work) and typed.hex not in data(st).obstacles:
        _announce(tr, unit)
        tr.emit("work", start_work(st, unit, typed.hex), _visible(unit), unit=unit.id)
        end_activation(tr, tables, unit)
        return
    job = "blast" if isinstance(typed, Work) else typed.verb
    where = typed.hex if isinstance(typed, (Work, Lay)) else unit.hex
    kind = typed.kind if isinstance(typed, Lay) else None
    _announce(tr, unit)
    text = fortifications.start_work(st, tables, unit, job, where, kind)
    secret = job == "lay" or status(unit).hidden
    tr.emit("work", text, (unit.side,) if secret else None, unit=unit.id)
    if job == "lay" and not status(unit).hidden:
        tr.emit("work", f"{unit.id} works (rule 3.2)", st.enemies_of(unit.side), unit=unit.id)
    end_activation(tr, tables, unit)


def _apply_decision(tr: Transition, tables: Tables, typed: Notation) -> bool:
    """Play a decision that is not a unit's activation: set-up, opportunity fire (6.7), a bridge (4.10), fire in
    3b; True if ``typed`` was one."""
    st = tr.state
    d = data(st)
    if st.phase == "setup":
        apply_setup(tr, tables, typed)
    elif d.opp_mover is not None:  # 6.7
        mover = st.units[d.opp_mover]
        args = (typed.unit, str(typed.target), typed.weapon) if isinstance(typed, Fire) else ()
        if opportunity.apply(tr, tables, typed.verb, args):
            _go_on(tr, tables, mover)
    elif isinstance(typed, (Blow, Spare)):
        decide_bridge(tr, tables, isinstance(typed, Blow))
    elif isinstance(typed, (Hide, Stay)):  # 3.2 Phase 4 step 9 (13.2)
        if hiding.apply(tr, tables, typed.verb, typed.unit if isinstance(typed, Hide) else None):
            finish_end_phase(tr, tables)
    elif isinstance(typed, (Ram, Assault, Pass)):  # 3.2 Phase 3a
        pair = (typed.unit, _label(st, typed.target)) if isinstance(typed, (Ram, Assault)) else ()
        if physical_apply(tr, tables, typed.verb, pair):
            begin_fire(tr, tables)
    elif isinstance(typed, (Aim, Light)) or (isinstance(typed, Cancel) and d.aiming):  # 6.1 P (aiming.py)
        aiming.apply(tr, tables, typed)
    elif isinstance(typed, (Shell, Cancel)):  # 7.4 (shelling.py)
        shelling.apply(tr, tables, typed)
    elif isinstance(typed, (Fire, Cease, Smoke)):  # 3.2 Phase 3b
        if isinstance(typed, Fire):
            hidden = sighting.firing(tr, st.units[typed.unit])  # 13.2: a hidden unit that fires is revealed
            if obstacles.is_obstacle_order(st, options.order(typed)):
                obstacles.resolve(tr, tables, options.order(typed))  # 13.6
            else:
                options.resolve(tr, tables, options.order(typed))
            d.shelling = []  # 7.4: the aim taken is fired (shelling.py)
            if hidden:  # and every enemy unit checks it at once (13.2)
                sighting.checks_of(tr, tables, st.units[typed.unit], fired=True)
        elif isinstance(typed, Smoke):  # 15.4
            grenades.throw(tr, tables, st.units[typed.unit], typed.weapon)
        else:
            attack.end_fire_unit(tr, tables, st.units[typed.unit])
        if st.to_act is None:
            end_attack(tr, tables)
    else:
        return False
    return True


def _go_on(tr: Transition, tables: Tables, mover: Unit) -> None:
    """After the offer of opportunity fire (6.7): the mover's activation goes on, or ends (3.2: destroyed,
    immobilised or shaken; or nothing left to do)."""
    why = opportunity.stopped(tr.state, tables, mover)
    if why is not None:
        _finish(tr, tables, mover, why)
    elif _only_stop(tr.state, tables, mover):
        _finish(tr, tables, mover, "has no move left and stops")


def _apply_carrier(tr: Transition, tables: Tables, unit: Unit, typed: Notation) -> bool:
    """Mount, dismount, hook up or unhook (4.5, 4.6); True when the unit's activation is over."""
    st = tr.state
    s = status(unit)
    if isinstance(typed, Mount):
        spent = mount_refusal(st, tables, unit, st.units[typed.carrier])
        assert isinstance(spent, Spent)
        s.outside = seat(st, tables, st.units[typed.carrier], unit) == "outside"  # 4.5: outside riders
        s.half_mp, s.embarked_in = spent.half_mp, typed.carrier
        buildings.leave(unit)
        _finish(tr, tables, unit, f"mounts {typed.carrier}{', outside' if s.outside else ''} (rule 4.5) and")
        return True
    if isinstance(typed, Dismount):
        return _dismount(tr, tables, unit, st.units[typed.passenger])
    load = st.units[typed.load] if isinstance(typed, Hook) else towed(st, unit)
    assert load is not None
    spent = hook_refusal(st, tables, unit, load) if isinstance(typed, Hook) else unhook_refusal(st, tables, unit)
    assert isinstance(spent, Spent)
    s.half_mp = spent.half_mp
    ls = status(load)
    if isinstance(typed, Hook):
        ls.towed_by = unit.id
        tr.emit("hook", f"{unit.id} hooks up {load.id} (rule 4.6)", _visible(unit))
    else:
        ls.towed_by, ls.activated = None, True
        ls.facing = None if s.facing is None else (s.facing + 3) % 6
        tr.emit("unhook", f"{unit.id} unhooks {load.id}, facing {_name(ls.facing)} (rule 4.6)", _visible(unit))
    return False


def _label(st: GameState, target: str | Hex) -> str:
    """A target as 3a names it: a unit's id, or the label of the hex whose building a vehicle rams (12.2)."""
    return st.board.label(target) if isinstance(target, Hex) else target


def _dismount(tr: Transition, tables: Tables, carrier: Unit, p: Unit) -> bool:
    """A passenger gets out (4.5 P). Before the carrier moved it pays 1 MP and, unless it was activated this turn
    already (it mounted), uses the rest of its MP at once: its own activation begins, and the carrier's goes on when
    it ends (``Data.resume``; True: the carrier waits). After the carrier moved it has no MP left and is done."""
    st = tr.state
    ps = status(p)
    ps.embarked_in, ps.outside = None, False
    before = status(carrier).hexes == 0  # the carrier has not moved yet: the passenger pays 1 MP (4.5)
    mp = tables.movement.value("dismount_mp") if before else tables.sheets[p.type].mp
    ps.half_mp = round(2 * mp)
    assert carrier.hex is not None
    where = st.board.label(carrier.hex)
    at_once = before and not ps.activated
    more = " and moves on at once" if at_once else ""
    tr.emit("dismount", f"{p.id} gets out of {carrier.id} at {where}{more} (rule 4.5)", _visible(carrier), unit=p.id)
    buildings.on_enter(tr, tables, p)  # 4.9: into a building of the hex by default
    if not at_once:
        ps.activated = True
        return False
    d = data(st)
    d.resume, d.active = carrier.id, p.id
    _announce(tr, p)
    if _only_stop(st, tables, p):
        _finish(tr, tables, p, "has no move left and stops")
    return True


def _announce(tr: Transition, unit: Unit) -> None:
    """The activation begins; the other side learns only that a hidden unit was activated (3.2)."""
    s = status(unit)
    s.line, s.line_mount, s.line_doubled = [], -1, False  # 3.2, 11.6: a sustained-fire line ends at its next activation
    if status(unit).hidden:
        tr.emit("activate", "A hidden unit is activated (rule 3.2)", visible_to=tr.state.enemies_of(unit.side))


def _visible(unit: Unit) -> tuple[str, ...] | None:
    """Who sees an event of ``unit``: its own side while it is hidden (13.2), else everybody."""
    return (unit.side,) if status(unit).hidden else None


def _place(tr: Transition, tables: Tables, unit: Unit, step: Step, verb: str) -> None:
    """Put the unit where ``step`` says, with its riders (4.5, 4.6); a move out of a trench loses it (13.8), a move
    into a hex where it cannot hide reveals it (13.2)."""
    st = tr.state
    s = status(unit)
    moved = step.hex != unit.hex
    before = s.half_mp
    s.half_mp, s.off_road, s.max_move = step.spent.half_mp, step.spent.off_road, step.spent.max_move
    s.facing = step.facing
    if s.half_mp > before:
        s.dug_in = False
    if moved:
        unit.hex = step.hex
        s.hexes += 1
        s.climb_to = None  # a climb under way is given up (4.7)
        for r in riders(st, unit):
            r.hex = step.hex
            rs = status(r)
            rs.off_map = False
            rs.hexes += 1
            rs.dug_in = False
    where = st.board.label(step.hex)
    facing = f", facing {_name(step.facing)}" if step.facing is not None else ""
    tr.emit(
        "move", f"{unit.id} {verb} {where}{facing} ({s.half_mp / 2:g} MP spent; rule 4)", _visible(unit), unit=unit.id
    )
    if moved:
        buildings.on_enter(tr, tables, unit)  # 4.9: a building of the new hex, or the streets
    if s.hidden and not _may_hide(st, tables, unit):
        _reveal(tr, unit, f"it cannot hide in {st.board.label(step.hex)}")


def _may_hide(st: GameState, tables: Tables, unit: Unit) -> bool:
    """Whether the unit may be hidden where it stands (13.2): infantry anywhere, guns and vehicles only in the
    terrain classes their sheet lists."""
    sheet = tables.sheets[unit.type]
    if unit.hex is None or sheet.unit_type == "infantry":
        return True
    return terrain_of(st, tables, unit.hex).key in sheet.hide_in


def _reveal(tr: Transition, unit: Unit, why: str) -> None:
    status(unit).hidden = False
    tr.reveal()
    where = tr.state.board.label(unit.hex) if unit.hex is not None else "off the map"
    tr.emit("reveal", f"{unit.id} is revealed at {where}: {why} (rule 13.2)", unit=unit.id)


def _stand(tr: Transition, tables: Tables, unit: Unit) -> None:
    s = status(unit)
    s.stood = not s.off_map
    _announce(tr, unit)
    what = "stays off the map" if s.off_map else "stands"
    tr.emit("stand", f"{unit.id} {what} (rule 3.2)", _visible(unit), unit=unit.id)
    end_activation(tr, tables, unit)


def _finish(tr: Transition, tables: Tables, unit: Unit, how: str) -> None:
    """End the unit's activation; a hidden unit that ends its move next to an enemy unit is revealed (13.2)."""
    st = tr.state
    tr.emit("stop", f"{unit.id} {how} (rule 3.2)", _visible(unit), unit=unit.id)
    if status(unit).hidden and unit.hex is not None:
        near = unit.hex.neighbours()
        if any(
            u.hex is not None and u.side != unit.side and (u.hex in near or u.hex == unit.hex)
            for u in st.units.values()
        ):
            _reveal(tr, unit, "it ended its move next to an enemy unit")
            sighting.checks_of(tr, tables, unit)  # 6.1 P: every enemy unit checks a unit revealed
    end_activation(tr, tables, unit)


def side_actions(st: GameState, tables: Tables) -> list[Action]:
    """Every legal action of the side to act (3.2): the unit in activation's, or those of every unit it may still
    activate."""
    d = data(st)
    if st.outcome is not None or st.to_act is None:
        return []
    if st.phase == "setup":
        return setup_actions(st, tables)
    if d.opp_mover is not None:
        return opportunity.actions(st, tables)
    if d.hiding is not None:  # 3.2 Phase 4 step 9
        return hiding.actions(st, tables)
    if d.offer is not None:
        label = st.board.label(d.offer)
        return [Action("blow", (label,)), Action("spare", (label,))]
    if d.physical is not None:  # 3.2 Phase 3a
        return physical_actions(st, tables)
    if st.phase == "attack":
        return _fire_phase_actions(st, tables)
    if st.phase != "movement":
        return []
    if d.aiming:  # 6.1 P: the hex of the searchlight being aimed
        return aiming.light_actions(st, tables)
    if d.active is not None:
        return unit_actions(st, tables, st.units[d.active])
    out: list[Action] = []
    for u in pending(st, st.to_act):
        out += unit_actions(st, tables, u)
    return out


def _fire_phase_actions(st: GameState, tables: Tables) -> list[Action]:
    """3.2 Phase 3b: the shots of the unit firing, or of every unit of the side that may fire; ``cease`` for each."""
    d = data(st)
    if d.shelling:  # 7.4: the hex of the aim taken (shelling.py)
        return shelling.aim_actions(st, tables)
    if d.active is not None:
        units = [st.units[d.active]]
    else:  # attack.firers, listing each unit's shots once rather than first asking whether it has one
        units = [
            u
            for u in sorted(st.units.values(), key=lambda u: u.id)
            if u.side == st.to_act and status(u).may_fire and not status(u).fire_done
        ]
    out: list[Action] = []
    for u in units:
        shots = options.fire_actions(st, tables, u) + obstacles.fire_actions(st, tables, u)  # 13.6
        shots += shelling.shell_actions(st, tables, u)  # 7.4: any hex, in two steps
        if shots or attack.has_shot(st, tables, u):  # a unit with a shot none of its options allow only ceases
            out += [*shots, *grenades.actions(st, tables, u), Action("cease", (u.id,))]  # 15.4: smoke grenades
    return out
