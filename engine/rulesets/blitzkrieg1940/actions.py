"""Provides the Blitzkrieg 1940 unit actions, reaction windows and owner choices (digest 6, 7, 8, 8.6).

Frames decided here (see :mod:`.model`), one :class:`~.handler.FrameHandler` each (:data:`HANDLERS`):

- ``activation`` (active player): unit actions of the activated formation(s) and combined barrages; ``end``.
- ``window`` (passive player): a reaction window of 6.3.4 — return fire, opportunity fire, retreats; ``close``.
- ``n_choice`` (a unit's owner): accept a Neutralised result or take a step loss instead (8.3).
- ``pair_loss`` (a mounted pair's owner): which half takes the step loss (12.1).

Each action of an activation has its function (:data:`_UNIT_VERBS`), given the action read into its notation.

Movement is entered one hex at a time (``move UNIT HEX`` also takes a path), so that every hex entered can open
a movement window for the passive side.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import combinations, pairwise
from typing import TYPE_CHECKING, Any

from engine.actions import Action
from engine.contract import ACT, CHOOSE, Role
from engine.events import Modifier
from engine.hexgrid import Hex, distance
from engine.notation import Notation
from engine.pathing import WeightFn
from engine.rules import Transition
from engine.state import GameState, Unit

from . import closecombat, combat, movement, sight, verbs
from . import notation as N
from .activation import activation, end_activation, finish_action
from .handler import FrameHandler, UnitFrameHandler, named_unit
from .model import (
    ActivationFrame,
    Moving,
    NChoiceFrame,
    PairLossFrame,
    WindowFrame,
    data,
    formation,
    formation_units,
    frame,
    opponent,
    push,
    status,
)

if TYPE_CHECKING:
    from .model import Rules

__all__ = [
    "HANDLERS",
    "VERBS",
    "activation_effects",
    "command_check",
    "demoralised_retreat",
    "factor",
    "move_weight",
    "movement_points",
    "reaction_mods",
    "reaction_value",
]

VERBS = verbs.UNIT

# --- Unit facts -------------------------------------------------------------------------------------------


def _t(rs: Rules, u: Unit) -> Any:
    return rs.tables.units[u.type]


def _is_hq(rs: Rules, u: Unit) -> bool:
    return bool(_t(rs, u).category == "hq")


def _label(st: GameState, h: Hex | None) -> str:
    return st.board.label(h) if h is not None else "off map"


def _combat_hexes(rs: Rules, st: GameState, side: str) -> set[Hex]:
    """Hexes holding a combat unit (not an HQ) of ``side``."""
    return {e.hex for e in st.iter_units(side) if e.hex is not None and not _is_hq(rs, e)}


def _enemy_adjacent(rs: Rules, st: GameState, u: Unit, enemy_hexes: set[Hex] | None = None) -> bool:
    """4.2: an enemy combat unit (not an HQ) adjacent to ``u``."""
    assert u.hex is not None
    if enemy_hexes is None:
        enemy_hexes = _combat_hexes(rs, st, opponent(st, u.side))
    return any(n in enemy_hexes for n in u.hex.neighbours())


def _demoralised(st: GameState, u: Unit) -> bool:
    return u.formation is not None and bool(formation(st, u.formation).demoralised)


def _terrain_open(rs: Rules, st: GameState, h: Hex) -> bool:
    return bool(rs.tables.terrain.classes[st.board.terrain(h)].open)


def _visibility_class(rs: Rules, u: Unit) -> str:
    if status(u).carrying:
        return "vehicle"
    return str(_t(rs, u).visibility)


def sees(rs: Rules, st: GameState, a: Unit, b: Unit) -> sight.SightResult:
    """4.1/4.4: ``a`` sees ``b`` (line of sight, then ``b``'s visibility)."""
    assert a.hex is not None and b.hex is not None
    return sight.can_see(st.board, a.hex, b.hex, _visibility_class(rs, b), _terrain_open(rs, st, b.hex), rs.sight_rules)


def fire_problem(
    rs: Rules,
    st: GameState,
    shooter: Unit,
    target: Unit,
    mode: str,
    reduced: bool,
    enemy_hexes: set[Hex] | None = None,
) -> str | None:
    """None if ``shooter`` may fire at ``target`` now, else a sentence citing the rule.

    ``enemy_hexes`` (hexes of the shooter's enemies' combat units) may be passed to save work in loops.
    """
    t = _t(rs, shooter)
    if shooter.hex is None or target.hex is None:
        return "a unit is not on the map"
    if _is_hq(rs, shooter) or not t.may_fire_directly:
        return f"{shooter.id} cannot fire (rule 8.1)"
    if target.side == shooter.side:
        return f"{target.id} is not an enemy unit"
    d = distance(shooter.hex, target.hex)
    printed = _printed_range(rs, st, shooter)
    neutralised = bool(status(shooter).neutralised)
    limited = neutralised or (mode == "opportunity" and _demoralised(st, shooter))
    if d > max(1, printed):
        return f"{target.id} is {d} hexes away, beyond {shooter.id}'s range of {max(1, printed)} (rule 4.2)"
    adjacent = _enemy_adjacent(rs, st, shooter, enemy_hexes)
    if not sight.can_fire(printed, d, mode, enemy_adjacent=adjacent, neutralised=limited):  # type: ignore[arg-type]
        if mode != "return" and printed == 0:
            return f"{shooter.id} has range 0 and may only return fire (rule 4.2)"
        rng = sight.effective_range(printed, adjacent, limited)
        return f"{target.id} is {d} hexes away, beyond {shooter.id}'s range of {rng} (rule 4.2)"
    seen = sees(rs, st, shooter, target)
    if not seen.visible:
        return seen.reason
    fac = factor(rs, st, shooter, target, "direct", reduced)
    if fac.column is None:
        return f"final attack factor {fac.final} is below the lowest column (rule 8.2)"
    return None


def _printed_range(rs: Rules, st: GameState, shooter: Unit) -> int:
    """4.2: the firer's printed range; a mounted APC pair fires at its company's range (12.1 [P])."""
    carried = _carried(st, shooter)
    return int(_t(rs, carried if carried is not None else shooter).range or 0)


def factor(rs: Rules, st: GameState, shooter: Unit, target: Unit, fire: str, reduced: bool) -> Any:
    assert shooter.hex is not None and target.hex is not None
    carried = _carried(st, shooter)
    return combat.attack_factor(
        rs.tables,
        st,
        shooter,
        target,
        fire=fire,
        reduced=reduced,
        distance=distance(shooter.hex, target.hex),
        combined_with=carried,
    )


def _carried(st: GameState, apc: Unit) -> Unit | None:
    cid = status(apc).carrying
    return st.units[cid] if cid else None


# --- Activation effects, command, retreats ---------------------------------------------------------------


def activation_effects(rs: Rules, tr: Transition, fid: str) -> None:
    """2.5 step 5: the overrun HQ returns, rally rolls, OPP-used markers off the formation's units."""
    st = tr.state
    f = formation(st, fid)
    if f.overrun and f.hq and (f.overrun_turn or 0) < st.turn:
        hq = st.units[f.hq]
        host = next((u for u in formation_units(st, fid, hq=False) if u.hex is not None), None)
        if host is not None:
            hq.hex = host.hex
            f.overrun = False
            tr.emit("hq", f"{hq.id} returns, stacked with {host.id} at {_label(st, host.hex)} (rule 3.2)")
            command_check(rs, tr, formation_units(st, fid, hq=False))
    for u in formation_units(st, fid):
        status(u).opp_used = False
        if status(u).neutralised:
            combat.rally_roll(tr, rs.tables, u)


def command_check(rs: Rules, tr: Transition, units: list[Unit] | None) -> None:
    """3.5: out-of-command markers on and off."""
    movement.command_check(tr, rs.tables, units)


def demoralised_retreat(rs: Rules, tr: Transition, fid: str) -> None:
    """8.5.1: move every unit of the formation along its retreat path; units may exit at their own edge."""
    st = tr.state
    paths = movement.demoralised_retreat_paths(rs.tables, st, fid)
    for uid, path in sorted(paths.items()):
        u = st.units[uid]
        if not path:
            continue
        if path[-1] is None:
            u.hex = None
            status(u).exited = True
            status(u).clear("neutralised", "opp_used", "ooc", "moving", "column")  # markers leave the map with it
            tr.emit("retreat", f"{uid} leaves the map at its own edge (rule 8.5.1)")
            continue
        u.hex = path[-1]
        tr.emit("retreat", f"{uid} retreats to {_label(st, u.hex)} (rule 8.5.1)")
    if not any(u.hex is not None for u in formation_units(st, fid)) and fid in data(st).chits:
        data(st).removed_chits.append(fid)
        formation(st, fid).removed = True
        tr.emit("retreat", f"{formation(st, fid).name} has left the map: its chit is removed (rule 8.5.1)")


# --- Legal actions ---------------------------------------------------------------------------------------


def movement_points(rs: Rules, st: GameState, unit: Unit) -> float:
    """MP the unit has now: what is left of its current move, or its full allowance."""
    moving = status(unit).moving
    if moving:
        return float(moving.mp - moving.spent)
    return float(movement.mp_allowance(rs.tables, st, unit, action="move"))


def move_weight(rs: Rules, st: GameState, unit: Unit) -> WeightFn:
    """Weight function for the reachable-hexes overlay."""
    moving = status(unit).moving
    return movement.weight_fn(rs.tables, st, unit, in_column=moving is not None and moving.column)


def _active_units(rs: Rules, st: GameState, f: ActivationFrame) -> list[Unit]:
    """Units of the activated formation(s) on the map that have not finished an action."""
    out = []
    for fid in f.formations:
        for u in formation_units(st, fid):
            # 12.1 [P]: a mounted company cannot act separately; its APC acts for the pair.
            if u.hex is not None and not status(u).acted and not status(u).carried_by:
                out.append(u)
    return out


def _entering_units(rs: Rules, st: GameState, f: ActivationFrame) -> list[Unit]:
    """Reinforcements of the activated formations that may enter now (12.2 [P])."""
    out = []
    for fid in f.formations:
        for u in st.units.values():
            if u.formation == fid and u.hex is None and not status(u).exited and u.steps > 0:
                arrives = status(u).arrives
                if arrives is not None and arrives <= st.turn and not status(u).acted:
                    out.append(u)
    return sorted(out, key=lambda u: u.id)


def _step_options(rs: Rules, st: GameState, u: Unit, verb: str, at: Hex | None = None) -> list[Action]:
    """One-hex steps ``verb UNIT HEX`` the unit may take now (only into ``at``, when given)."""
    out = []
    for h in _next_hexes(rs, st, u, column=verb == "road", verb=verb, at=at):
        out.append(Action(verb, (u.id, st.board.label(h))))
    return out


def _next_hexes(
    rs: Rules, st: GameState, u: Unit, column: bool, verb: str = "move", at: Hex | None = None
) -> list[Hex]:
    """The hexes the unit may step into now (only ``at``, if it is one of them, when given)."""
    here = u.hex
    enemies = movement.enemy_hexes(rs.tables, st, u.side)
    if here is None:
        entry = [st.board.parse(x) for x in (status(u).entry or [])]
        return [
            h
            for h in entry
            if (at is None or h == at) and _step_problem(rs, st, u, None, h, column, verb, enemies) is None
        ]
    return sorted(
        h
        for h in here.neighbours()
        if (at is None or h == at)
        and h in st.board
        and _step_problem(rs, st, u, here, h, column, verb, enemies) is None
    )


def _edge_entry_cost(rs: Rules, st: GameState, u: Unit, b: Hex) -> float | None:
    """12.2 [P]: a reinforcement pays the entry hex's terrain cost for its movement class (no road rate)."""
    mclass = movement.move_class(rs.tables, st, u)
    return movement.terrain_cost(rs.tables, st.board.terrain(b), mclass, along_road=False)


def _step_problem(
    rs: Rules,
    st: GameState,
    u: Unit,
    a: Hex | None,
    b: Hex,
    column: bool,
    verb: str = "move",
    enemies: frozenset[Hex] | None = None,
) -> str | None:
    """None if ``u`` may step from ``a`` into ``b`` now (``a`` None: entering from off the map); ``verb`` is the
    action that starts the move (``mf`` moves with half MP)."""
    moving = status(u).moving
    label = st.board.label(b)
    if a is not None and distance(a, b) != 1:
        return f"{label} is not adjacent to {_label(st, a)}: a move enters one adjacent hex at a time (rule 7.1)"
    if enemies is None:
        enemies = movement.enemy_hexes(rs.tables, st, u.side)
    if b in enemies:
        return f"{label} holds enemy units: only close combat enters it (rule 9.1)"
    if column and (a is None or not st.board.has_road(a, b)):
        return f"no road from {_label(st, a)} to {label} (rule 7.2.1)"
    if a is None:
        cost = _edge_entry_cost(rs, st, u, b)
    else:
        cost = movement.step_cost(rs.tables, st, u, a, b, in_column=column, enemies=enemies)
    if cost is None:
        return f"{u.id} cannot enter {label} ({st.board.terrain(b)}) (rule 7.1, 13.3)"
    if moving is not None:
        mp, spent, moved = moving.mp, float(moving.spent), moving.moved
    else:
        action = "move_fire" if verb == "mf" else "move"
        mp, spent, moved = movement.mp_allowance(rs.tables, st, u, action=action), 0.0, 0
    if mp <= 0:
        return f"{u.id} cannot move (rule 8.4, 6.2)"
    if spent + cost > mp and not (moved == 0 and spent == 0):
        return f"{u.id} has {mp - spent:g} MP left; {label} costs {cost:g} (rule 7.1)"
    if a is not None and not movement.doctrine_allows(rs.tables, st, u, a, b):
        return f"{u.id} may not move farther than its command distance from its HQ (rule 3.4)"
    if not movement.stacking_ok(rs.tables, st, b, [u]) and not _can_leave(rs, st, u, b, mp - spent - cost, column):
        limit = rs.tables.sequence.stacking_limit
        return f"{u.id} could not move on from {label}, which already holds {limit} units (rule 7.3)"
    return None


def _can_leave(rs: Rules, st: GameState, u: Unit, b: Hex, mp_left: float, column: bool) -> bool:
    """7.3: a unit may pass through a full hex only if it can go on from it."""
    for n in b.neighbours():
        if n not in st.board or any(e.side != u.side and e.hex == n for e in st.iter_units()):
            continue
        cost = movement.step_cost(rs.tables, st, u, b, n, in_column=column and st.board.has_road(b, n))
        if (
            cost is not None
            and cost <= mp_left
            and movement.stacking_ok(rs.tables, st, n, [u])
            and movement.doctrine_allows(rs.tables, st, u, b, n)
        ):
            return True
    return False


def _targets(rs: Rules, st: GameState, shooter: Unit, mode: str, reduced: bool, only: Unit | None = None) -> list[Unit]:
    enemy_hexes = _combat_hexes(rs, st, opponent(st, shooter.side))
    # 12.1 [P]: a mounted pair is one target, the APC.
    pool = (
        [only]
        if only is not None
        else [t for t in st.iter_units() if t.side != shooter.side and not status(t).carried_by]
    )
    here = shooter.hex
    if here is None:
        return []  # fire_problem: not on the map
    reach = max(1, _printed_range(rs, st, shooter))  # beyond it fire_problem refuses (4.2)
    return [
        t
        for t in pool
        if t.hex is not None
        and distance(here, t.hex) <= reach
        and fire_problem(rs, st, shooter, t, mode, reduced, enemy_hexes) is None
    ]


def _activation_actions(rs: Rules, st: GameState, f: ActivationFrame) -> list[Action]:
    """Legal actions of an activation: the moving unit's (or stack's), else every unit's, barrages and ``end``."""
    moving = _moving_unit(st, f)
    if moving is not None:
        members = _stack_members(st, moving)
        if len(members) > 1:
            steps = _stack_options(rs, st, members, moving=True)
            if not any(a.verb == "stack" for a in steps):
                # 7.1 [P]: no hex every unit can pay for: the stack breaks up, each unit goes on alone.
                steps = [a for m in members for a in _unit_actions(rs, st, f, m)]
            # 7.3 [P]: never a dead end; a unit stopped in a full hex is displaced (see _finish_action).
            return steps or [Action("stop", (m.id,)) for m in members]
        return _unit_actions(rs, st, f, moving)
    out: list[Action] = []
    for u in _active_units(rs, st, f):
        out += _unit_actions(rs, st, f, u)
    out += _stack_starts(rs, st, f)
    for u in _entering_units(rs, st, f):
        out += _step_options(rs, st, u, "move")
    if f.salvos:
        out += _barrage_actions(rs, st, f)
    out.append(Action("end"))
    return out


def _moving_unit(st: GameState, f: ActivationFrame) -> Unit | None:
    return next((u for u in st.iter_units(f.side) if status(u).moving), None)


# --- Stacks (7.1 [P]: a stack moves hex by hex, each unit paying its own cost; units may be dropped off) -------


def _stack_members(st: GameState, u: Unit) -> list[Unit]:
    """The units still moving together with ``u`` (``u`` included), or just ``u``."""
    moving = status(u).moving
    ids = moving.stack if moving is not None else None
    if not ids:
        return [u]
    return [
        m for m in (st.units[i] for i in ids if i in st.units) if m.hex == u.hex and m.hex is not None and _in_stack(m)
    ]


def _in_stack(u: Unit) -> bool:
    moving = status(u).moving
    return moving is not None and bool(moving.stack)


def _stack_steps(rs: Rules, st: GameState, members: list[Unit]) -> list[Hex]:
    """Hexes every unit of the stack may step into now (each pays its own cost, 7.1 [P])."""
    here = members[0].hex
    assert here is not None
    enemies = movement.enemy_hexes(rs.tables, st, members[0].side)
    return sorted(
        h
        for h in here.neighbours()
        if h in st.board and all(_step_problem(rs, st, m, here, h, False, "move", enemies) is None for m in members)
    )


def _stack_options(rs: Rules, st: GameState, members: list[Unit], *, moving: bool) -> list[Action]:
    """``stack`` steps of a stack (and, once it moves, ``stop`` to drop a unit off)."""
    ids = tuple(m.id for m in members)
    out = [Action("stack", (*ids, st.board.label(h))) for h in _stack_steps(rs, st, members)]
    if moving:
        out += [Action("stop", (m.id,)) for m in members if _stop_problem(rs, st, m) is None]
    return out


def _stack_starts(rs: Rules, st: GameState, f: ActivationFrame) -> list[Action]:
    """7.1: two or three units of the activation in one hex, none neutralised, may move off together."""
    by_hex: dict[Hex, list[Unit]] = {}
    for u in _active_units(rs, st, f):
        if u.hex is not None and not status(u).neutralised and not status(u).moving:
            by_hex.setdefault(u.hex, []).append(u)
    out: list[Action] = []
    for units in by_hex.values():
        for size in range(2, rs.tables.sequence.stacking_limit + 1):  # 7.1: stacks of up to 3 units
            for g in combinations(units, size):
                out += _stack_options(rs, st, list(g), moving=False)
    return out


def _start_move(rs: Rules, st: GameState, u: Unit, act: str, *, column: bool = False) -> Moving:
    """6.1: the unit starts a move (``move``) or a move-and-fire (``mf``, half MP) from where it stands."""
    mp = movement.mp_allowance(rs.tables, st, u, action="move_fire" if act == "mf" else "move")
    moving = status(u).moving = Moving(act, mp, 0.0, 0, column, False, origin=_label(st, u.hex))
    return moving


def _stack_refusal(rs: Rules, st: GameState, f: ActivationFrame, typed: N.Stack) -> str | None:
    """Why a ``stack`` order is refused (7.1), or None if no specific reason is found."""
    ids = [typed.unit, typed.second] + ([typed.third] if typed.third is not None else [])
    units = [st.units.get(i) for i in ids]
    if any(u is None for u in units):
        return f"no unit {next(i for i in ids if i not in st.units)!r}"
    members = [u for u in units if u is not None]
    if len(members) > rs.tables.sequence.stacking_limit:
        return f"a stack has at most {rs.tables.sequence.stacking_limit} units (rule 7.1)"
    if len({u.hex for u in members}) != 1:
        return "the units of a stack must start in the same hex (rule 7.1)"
    b = typed.hex
    here = members[0].hex
    for u in members:
        if u.side != f.side or u.formation not in f.formations:
            return f"{u.id} is not in the activated formation (rule 5.2)"
        if status(u).acted:
            return f"{u.id} has already acted in this activation (rule 6.1)"
        if status(u).neutralised:
            return f"{u.id} is neutralised and cannot move (rule 8.4)"
        why = _step_problem(rs, st, u, here, b, False, "move")
        if why:
            return f"{u.id} cannot go with the stack: {why} (rule 7.1: every unit of the stack must pay its way)"
    return None


def _move_stack(rs: Rules, tr: Transition, members: list[Unit], b: Hex) -> None:
    """7.1 [P]: every unit of the stack enters ``b`` paying its own cost; then one reaction window (6.3.4)."""
    st = tr.state
    ids = [m.id for m in members]
    for m in members:
        moving = status(m).moving or _start_move(rs, st, m, "move")
        moving.stack = ids
    label = st.board.label(b)
    tr.emit("move", f"The stack {', '.join(ids)} moves to {label} (rule 7.1)", hex=label)
    for m in members:
        _step_into(rs, tr, m, b, column=False)
    present = [m for m in members if m.hex == b and not status(m).neutralised]
    if present and open_window(rs, tr, "move", present[0], hexes=[b], group=[m.id for m in present]):
        return
    for m in members:
        _maybe_finish(rs, tr, m)


_ALL_VERBS = frozenset({"move", "road", "mf", "fire", "fm", "assault", "load", "unload", "stop"})
"""Every verb :func:`_unit_actions` lists."""
_STOP = frozenset({"stop"})


def _unit_actions(
    rs: Rules,
    st: GameState,
    f: ActivationFrame,
    u: Unit,
    target: Unit | None = None,
    verbs: frozenset[str] = _ALL_VERBS,
    at: Hex | None = None,
) -> list[Action]:
    """The actions open to one unit now (6.1); ``target`` limits fire to that target, ``verbs`` to the actions of
    those verbs and ``at`` the steps to those into that hex (in the same order; ``stop`` lists every action, as
    whether any other is open decides it)."""
    m = status(u).moving
    if "stop" in verbs:
        if verbs == _STOP and m and _stop_problem(rs, st, u) is None:
            return [Action("stop", (u.id,))]  # stop is open whatever else is (see _moving_actions)
        verbs, at = _ALL_VERBS, None
    if m:
        return _moving_actions(rs, st, u, m, target, verbs, at)
    if u.hex is None:
        return _step_options(rs, st, u, "move", at) if u in _entering_units(rs, st, f) else []
    out: list[Action] = []
    neutralised = bool(status(u).neutralised)
    if not neutralised or _is_hq(rs, u):
        if "move" in verbs:
            out += _step_options(rs, st, u, "move", at)
        if "road" in verbs and any(st.board.has_road(u.hex, n) for n in u.hex.neighbours() if n in st.board):
            out += _step_options(rs, st, u, "road", at)
    if "load" in verbs or "unload" in verbs:
        out += _load_options(rs, st, f, u)
    if not _is_hq(rs, u):
        if "fire" in verbs:
            out += [Action("fire", (u.id, t.id)) for t in _targets(rs, st, u, "active", False, target)]
        if not neutralised:
            if not status(u).carrying and "assault" in verbs:
                out += _assault_options(rs, st, u)  # 9.1.1 [P]: a mounted pair must unload first
            # 12.1 [P]: the mounted pair may move and fire, with the APC's MP and the combined reduced value.
            if "mf" in verbs:
                out += _step_options(rs, st, u, "mf", at)
            if "fm" in verbs:
                out += [Action("fm", (u.id, t.id)) for t in _targets(rs, st, u, "active", True, target)]
    return out


def _moving_actions(
    rs: Rules, st: GameState, u: Unit, m: Moving, target: Unit | None, verbs: frozenset[str], at: Hex | None
) -> list[Action]:
    """The actions open to a unit whose action is under way (see :func:`_unit_actions`)."""
    out: list[Action] = []
    if "move" in verbs or "road" in verbs:
        # In column, whether any road step is open decides whether it may leave the road: every hex is looked at.
        steps = _step_options(rs, st, u, "road" if m.column else "move", None if m.column else at)
        if m.column and not steps and _stop_problem(rs, st, u) is not None:
            # 7.2.1, 7.3 [P]: no road hex to go on to and no room to stop in: the unit leaves the road (its
            # column ends, 7.2.1 "when the unit stops using the road") rather than be stuck.
            steps = _step_options(rs, st, u, "move")
        out += steps
    if m.action == "move" and "assault" in verbs:
        out += _assault_options(rs, st, u)
    if m.action == "mf" and not m.fired and "fire" in verbs:
        out += [Action("fire", (u.id, t.id)) for t in _targets(rs, st, u, "active", True, target)]
    if m.action == "load" and not m.fired and not m.moved and not _is_hq(rs, u) and "fire" in verbs:
        out += [Action("fire", (u.id, t.id)) for t in _targets(rs, st, u, "active", False, target)]
    if "stop" in verbs and (_stop_problem(rs, st, u) is None or not out):
        # 7.3 [P]: never a dead end: with nothing else left, it stops and is displaced (_finish_action).
        out.append(Action("stop", (u.id,)))
    return out


def _load_options(rs: Rules, st: GameState, f: ActivationFrame, apc: Unit) -> list[Action]:
    """6.1 option 5, 12.1 [P]: an APC of the activated formation loads a company of its battalion in its hex,
    or unloads the company on board (German units only)."""
    t = _t(rs, apc)
    if t.kind != "apc" or apc.side != "german" or apc.hex is None or status(apc).neutralised:
        return []
    if status(apc).carrying:
        return [Action("unload", (apc.id,))]
    out = []
    for c in st.units_at(apc.hex):
        ct = _t(rs, c)
        if (
            c.formation == apc.formation
            and ct.category == "infantry"
            and not status(c).acted
            and not status(c).neutralised
            and not status(c).carried_by
        ):
            out.append(Action("load", (apc.id, c.id)))
    return out


def _assault_options(rs: Rules, st: GameState, u: Unit) -> list[Action]:
    """9.1.1: adjacent enemy-occupied hexes the unit may enter for close combat (or to overrun lone HQs)."""
    if u.hex is None:
        return []
    m = status(u).moving
    mp = float(m.mp) if m else float(movement.mp_allowance(rs.tables, st, u, action="move"))
    mp_left = mp - (float(m.spent) if m else 0.0)
    moved = m is not None and m.moved > 0
    enemies = movement.enemy_hexes(rs.tables, st, u.side)
    out = []
    for h in sorted(u.hex.neighbours()):
        if h in enemies and movement.can_close_combat(rs.tables, st, u, u.hex, h, mp_left=mp_left, moved=moved):
            out.append(Action("assault", (u.id, st.board.label(h))))
    return out


def _stop_problem(rs: Rules, st: GameState, u: Unit) -> str | None:
    """7.3: a unit may not end its action in an overstacked hex."""
    assert u.hex is not None
    if not movement.stacking_ok(rs.tables, st, u.hex, []):
        return f"{_label(st, u.hex)} would hold more than {rs.tables.sequence.stacking_limit} units (rule 7.3)"
    return None


def _barrage_actions(rs: Rules, st: GameState, f: ActivationFrame) -> list[Action]:
    out: list[Action] = []
    salvos = f.salvos or []
    side = f.side
    enemy_hexes = sorted({u.hex for u in st.iter_units() if u.side != side and u.hex is not None})
    # 8.6.2: several attacks of one kind may be declared together on one hex (a COUNT after the arguments).
    stukas = salvos.count("stuka")
    for h in enemy_hexes:
        label = st.board.label(h)
        out += [Action("stuka", (label,) if n == 1 else (label, str(n))) for n in range(1, stukas + 1)]
    observers = [u for u in st.iter_units(side) if _is_hq(rs, u)]
    calibres = sorted(set(salvos) - {"stuka"})
    if not calibres:
        return out
    at: dict[Hex, list[Unit]] = {}  # the units in each hex, in id order (what st.units_at gives)
    for u in st.iter_units():
        at.setdefault(u.hex, []).append(u)  # type: ignore[arg-type]  # on the map: a hex
    # Whether each HQ observes each hex, the same for every calibre.
    observes = {(h, obs.id): _observer_problem(rs, st, obs, h, at) is None for h in enemy_hexes for obs in observers}
    for cal in calibres:
        for h in enemy_hexes:
            label = st.board.label(h)
            for obs in observers:
                if observes[h, obs.id]:
                    out += [
                        Action("salvo", (label, cal, obs.id) if n == 1 else (label, cal, obs.id, str(n)))
                        for n in range(1, salvos.count(cal) + 1)
                    ]
    return out


def _observer_problem(
    rs: Rules, st: GameState, obs: Unit, h: Hex, at: dict[Hex, list[Unit]] | None = None
) -> str | None:
    """8.6.1 [P]: an HQ with LOS to the hex and at least one visible enemy unit in it (``at``: the units of each
    hex, when known)."""
    if obs.hex is None:
        return f"{obs.id} is not on the map and cannot observe (rule 8.6.1)"
    enemies = [u for u in (st.units_at(h) if at is None else at.get(h, [])) if u.side != obs.side]
    if not enemies:
        return f"no enemy unit at {st.board.label(h)} (rule 8.6.1)"
    if not any(sees(rs, st, obs, e).visible for e in enemies):
        return f"{obs.id} cannot see an enemy unit at {st.board.label(h)} (rule 8.6.1)"
    return None


# --- Checks ------------------------------------------------------------------------------------------------

_UnitAction = N.Fire | N.FireMove | N.Move | N.Road | N.MoveFire | N.Stop | N.Assault | N.Load | N.Unload
"""The actions of one unit in an activation (6.1), each naming the unit that acts first."""


class NChoiceHandler(UnitFrameHandler[NChoiceFrame]):
    """``n_choice`` (a unit's owner): accept a Neutralised result or take a step loss instead (8.3)."""

    kind = "n_choice"
    rule = "8.3"
    forms = (N.Accept, N.StepLoss)

    def actions(self, rs: Rules, st: GameState, f: NChoiceFrame) -> list[Action]:
        return [Action("accept", (f.unit,)), Action("steploss", (f.unit,))]

    def usual(self, rs: Rules, st: GameState, f: NChoiceFrame, legal: Sequence[Action]) -> Action | None:
        """Keep the N (8.3): a step lost is lost for good and counts toward demoralisation (8.5), while an N
        goes with a rally (8.4); the exchange is for the player who needs the unit to move now."""
        keep = Action("accept", (f.unit,))
        return keep if keep in legal else None

    def refusal(
        self, rs: Rules, st: GameState, f: NChoiceFrame, action: Action, typed: Notation, legal: list[Action]
    ) -> str:
        if not isinstance(typed, N.Accept | N.StepLoss):
            owner = st.units[f.unit].side.title()
            return f"Cannot {action}: {owner} must first accept N or take a step loss on {f.unit} (rule 8.3)"
        return super().refusal(rs, st, f, action, typed, legal)

    def apply(self, rs: Rules, tr: Transition, f: NChoiceFrame, typed: Notation) -> None:
        st = tr.state
        data(st).frames.remove(f)
        u = st.units[f.unit]
        if u.hex is None or not status(u).neutralised:
            tr.emit("choice", f"{u.id} is no longer neutralised: there is nothing to exchange (rule 8.3)")
        elif isinstance(typed, N.StepLoss):
            combat.take_step_instead(tr, rs.tables, u, f.cause)
        else:
            tr.emit("choice", f"{u.id} stays neutralised (rule 8.3)")

    def auto(self, rs: Rules, tr: Transition, f: NChoiceFrame) -> bool:
        st = tr.state
        u = st.units[f.unit]
        if u.hex is None or not status(u).neutralised:
            # A later result (a second salvo, a panic test) already settled this unit: nothing left to choose.
            data(st).frames.remove(f)
            return True
        return False

    def waiting_for(self, st: GameState, f: NChoiceFrame) -> str:
        return f"{str(f.side).title()} decides whether {f.unit} accepts N or takes a step loss instead"


class PairLossHandler(UnitFrameHandler[PairLossFrame]):
    """``pair_loss`` (the owner of a mounted pair): which half takes the pair's step loss (12.1)."""

    kind = combat.PAIR_LOSS
    rule = "12.1"
    forms = (N.Lose,)

    def actions(self, rs: Rules, st: GameState, f: PairLossFrame) -> list[Action]:
        return [Action("lose", (uid,)) for uid in f.units if st.units[uid].hex is not None]

    def refusal(
        self, rs: Rules, st: GameState, f: PairLossFrame, action: Action, typed: Notation, legal: list[Action]
    ) -> str:
        owner, pair = st.units[f.units[0]].side.title(), " or ".join(f.units)
        return f"Cannot {action}: {owner} must first choose which half of the pair loses the step: {pair} (rule 12.1)"

    def apply(self, rs: Rules, tr: Transition, f: PairLossFrame, typed: Notation) -> None:
        assert isinstance(typed, N.Lose)
        st = tr.state
        data(st).frames.remove(f)
        u = st.units[typed.unit]
        tr.emit("choice", f"{u.id} takes the mounted pair's step loss (rule 12.1)", unit=u.id)
        combat.step_loss(tr, rs.tables, u, f.cause, owner_choice=False)

    def auto(self, rs: Rules, tr: Transition, f: PairLossFrame) -> bool:
        st = tr.state
        present = [st.units[uid] for uid in f.units if st.units[uid].hex is not None]
        if len(present) == 2 and combat.mount_partner(st, present[0]) is present[1]:
            return False
        data(st).frames.remove(f)  # the pair came apart meanwhile: the half still there takes the loss
        if present:
            combat.step_loss(tr, rs.tables, present[0], f.cause, owner_choice=False)
        return True

    def waiting_for(self, st: GameState, f: PairLossFrame) -> str:
        side = str(f.side).title()
        return f"{side} chooses which half of the mounted pair {' / '.join(f.units)} loses the step (rule 12.1)"


class WindowHandler(UnitFrameHandler[WindowFrame]):
    """``window`` (the passive player): a reaction window of 6.3.4 — return fire, opportunity fire, retreats."""

    kind = "window"
    rule = "6.3.4"
    forms = (N.Opportunity, N.ReturnFire, N.Retreat, N.Close)

    def actions(self, rs: Rules, st: GameState, f: WindowFrame) -> list[Action]:
        return _window_actions(rs, st, f)

    def quick_candidates(self, rs: Rules, st: GameState, f: WindowFrame, typed: Notation) -> list[Action] | None:
        return _window_candidates(rs, st, f, typed)

    def refusal(
        self, rs: Rules, st: GameState, f: WindowFrame, action: Action, typed: Notation, legal: list[Action]
    ) -> str:
        if not isinstance(typed, N.Opportunity | N.ReturnFire | N.Retreat | N.Close):
            return f"Cannot {action}: {self.waiting_for(st, f)} (rule 6.3.4)"
        if not isinstance(typed, N.Close):
            why = _window_refusal(rs, st, f, typed)
            if why:
                return f"Cannot {action}: {why}"
        return super().refusal(rs, st, f, action, typed, legal)

    def apply(self, rs: Rules, tr: Transition, f: WindowFrame, typed: Notation) -> None:
        _apply_window(rs, tr, f, typed)

    def auto(self, rs: Rules, tr: Transition, f: WindowFrame) -> bool:
        if not _window_actions(rs, tr.state, f, include_close=False, any_one=True):
            data(tr.state).frames.remove(f)
            _resume_mover(rs, tr, f)
            return True
        return False

    def waiting_for(self, st: GameState, f: WindowFrame) -> str:
        what = {"move": "a unit moved", "fire": "a unit fired", "indirect": "a barrage"}.get(f.trigger, "")
        return f"{str(f.side).title()} may react ({what}): return fire, opportunity fire, retreat, or close"


def _window_refusal(rs: Rules, st: GameState, w: WindowFrame, typed: Notation) -> str | None:
    """Why a reaction is refused in window ``w`` (6.3), or None if no specific reason is found."""
    assert isinstance(typed, N.Opportunity | N.ReturnFire | N.Retreat)
    u = st.units.get(typed.unit)
    if u is None:
        return f"no unit {typed.unit!r}"
    if u.side != w.side:
        return f"{u.id} is not a unit of the passive side (rule 6.3)"
    if status(u).carried_by:
        apc = status(u).carried_by
        return f"{u.id} rides {apc} and cannot react on its own: the APC reacts for the pair (rule 12.1)"
    if u.id in w.reacted:
        return f"{u.id} has already reacted in this window: one reaction per unit per window (rule 6.3.4)"
    active = st.units.get(w.active) if w.active else None
    order = {N.ReturnFire: 0, N.Opportunity: 1, N.Retreat: 2}
    if w.step > order[type(typed)]:
        return "reactions come in the order return fire, opportunity fire, retreats (rule 6.3.4)"
    if isinstance(typed, N.Retreat):
        return _retreat_refusal(rs, st, w, u, active, typed.hex)
    return _fire_reaction_refusal(rs, st, w, u, active, typed)


def _fire_reaction_refusal(
    rs: Rules, st: GameState, w: WindowFrame, u: Unit, active: Unit | None, typed: N.Opportunity | N.ReturnFire
) -> str | None:
    """Why return fire (6.3.2) or opportunity fire (6.3.1) is refused."""
    if isinstance(typed, N.ReturnFire):
        if w.trigger != "fire" or u.id != w.fired_at:
            return "only the unit just fired at may return fire, at the unit that fired (rule 6.3.2)"
        if status(u).returned:
            return f"{u.id} has already attempted return fire in this enemy activation (rule 6.3.2)"
    else:
        if w.trigger not in ("move", "fire"):
            return "opportunity fire only at a unit that has just moved or fired (rule 6.3.1)"
        if status(u).opp_used:
            return f"{u.id} carries an OPP-used marker and may not try opportunity fire again (rule 6.3.1)"
        allowed = [t.id for t in _window_targets(st, w, active)] if active is not None else []
        if typed.target not in allowed:
            return "opportunity fire targets the active unit (or a unit of the moving stack) (rule 6.3.1 [P])"
    if active is not None:
        opp = isinstance(typed, N.Opportunity)
        target = st.units[typed.target] if opp else active
        why = fire_problem(rs, st, u, target, "opportunity" if opp else "return", False)
        if why:
            return why + ("" if "(rule" in why else " (rule 6.3.1)")
    return None


def _retreat_refusal(rs: Rules, st: GameState, w: WindowFrame, u: Unit, active: Unit | None, dest: Hex) -> str | None:
    """Why a reaction retreat is refused (6.3.3)."""
    if status(u).retreated:
        return f"{u.id} has already retreated in this enemy activation (rule 6.3.3 [P])"
    if u not in _retreat_candidates(rs, st, w, active):
        return (
            f"{u.id} may retreat only when it sees the moving enemy, an enemy moved adjacent, "
            "or it was just fired at (rule 6.3.3)"
        )
    if dest not in movement.retreat_options(rs.tables, st, u):
        label = st.board.label(dest)
        return f"{label} is not an adjacent hex free of enemy units that {u.id} may enter (rule 6.3.3)"
    return None


class ActivationHandler(UnitFrameHandler[ActivationFrame]):
    """``activation`` (the active player): unit actions of the activated formation(s), combined barrages, ``end``
    (5.2, 6.1, 8.6); given on the map."""

    kind = "activation"
    rule = "6.1"
    forms = (N.Fire, N.FireMove, N.Move, N.Road, N.MoveFire, N.Stop, N.Assault, N.Load, N.Unload, N.Stack, N.End,
             N.Salvo, N.Stuka)  # fmt: skip

    def actions(self, rs: Rules, st: GameState, f: ActivationFrame) -> list[Action]:
        return _activation_actions(rs, st, f)

    def candidates(self, rs: Rules, st: GameState, f: ActivationFrame, typed: Notation) -> list[Action]:
        """Only the acting unit's actions, to keep checks cheap."""
        return _candidate_actions(rs, st, f, typed)

    def quick_candidates(self, rs: Rules, st: GameState, f: ActivationFrame, typed: Notation) -> list[Action]:
        """Only the acting unit's actions of the verb checked."""
        return _candidate_actions(rs, st, f, typed, fast=True)

    def accepts(self, rs: Rules, st: GameState, f: ActivationFrame, typed: Notation, legal: list[Action]) -> bool:
        # A path: the first step must be legal and every hex adjacent to the one before (7.1); the rest is checked
        # as the unit goes.
        if not isinstance(typed, N.Move | N.Road | N.MoveFire) or len(typed.path) < 2:
            return False
        if _path_gap(st, typed.path) is not None:
            return False
        first = (typed.unit, st.board.label(typed.path[0]))
        return (
            Action(typed.verb, first) in legal
            or Action("road" if isinstance(typed, N.Road) else "move", first) in legal
        )

    def refusal(
        self, rs: Rules, st: GameState, f: ActivationFrame, action: Action, typed: Notation, legal: list[Action]
    ) -> str:
        why = _activation_refusal(rs, st, f, action, typed)
        return why if why is not None else super().refusal(rs, st, f, action, typed, legal)

    def apply(self, rs: Rules, tr: Transition, f: ActivationFrame, typed: Notation) -> None:
        _UNIT_VERBS[type(typed)](rs, tr, f, typed)

    def auto(self, rs: Rules, tr: Transition, f: ActivationFrame) -> bool:
        st = tr.state
        demoralised = any(formation(st, fid).demoralised for fid in f.formations)
        movers = [u for u in st.units.values() if u.status.moving]  # one pass over the units, in id order
        if (f.ending or demoralised) and not movers and f.formations:
            tr.emit("activate", "The formation is demoralised: its activation ends (rule 8.5.1)")
            end_activation(rs, tr, f)
            return True
        moving = next((u for u in movers if u.side == f.side and u.hex is not None), None)
        if moving is None:
            return False
        if moving.hex is None or (status(moving).neutralised and not _is_hq(rs, moving)):
            finish_action(rs, tr, moving)
            return True
        return False

    def waiting_for(self, st: GameState, f: ActivationFrame) -> str:
        names = " and ".join(formation(st, fid).name for fid in f.formations) or "the artillery"
        return f"{str(f.side).title()} acts with {names}"

    def mode(self, rs: Rules, st: GameState, f: ActivationFrame, legal: Sequence[Action]) -> str:
        """Unit actions are given on the map (a unit selected); with none left, the choice is from a list."""
        wanted = (Role.ORDER, Role.ATTACK)
        on_map = any((i := rs.action_info(st, a)).any(*wanted) and not i.secondary for a in legal)
        return ACT if on_map else CHOOSE


def _candidate_actions(
    rs: Rules, st: GameState, f: ActivationFrame, typed: Notation, fast: bool = False
) -> list[Action]:
    """The legal actions that the action ``typed`` could be one of (only the acting unit's); with ``fast``, only
    those of its verb where that is enough to accept it (a refusal is then checked again without ``fast``, so
    that it lists the unit's actions)."""
    if isinstance(typed, N.End):
        return [Action("end")] if _moving_unit(st, f) is None else []
    if isinstance(typed, N.Salvo | N.Stuka):
        return _barrage_actions(rs, st, f) if _moving_unit(st, f) is None else []
    if isinstance(typed, N.Stack):
        return [a for a in _activation_actions(rs, st, f) if a.verb == "stack"]
    uid = named_unit(typed.verb, typed)
    u = st.units.get(uid) if uid is not None else None
    if u is None or u.side != f.side or u.formation not in f.formations or status(u).acted:
        return []
    if status(u).carried_by:
        return []  # 12.1 [P]: a mounted company cannot act on its own; its APC acts for the pair
    moving = _moving_unit(st, f)
    if moving is not None and len(_stack_members(st, moving)) > 1:
        return [a for a in _activation_actions(rs, st, f) if a.args[:1] == (u.id,)]
    if moving is not None and moving.id != u.id:
        return []
    target = st.units.get(typed.target) if isinstance(typed, N.Fire | N.FireMove) else None
    if not fast:
        return _unit_actions(rs, st, f, u, target)
    # Only the actions of the verb checked (and ``move``, whose first step a path of ``mf`` may take, see
    # ActivationHandler.accepts): every one of the unit's actions is listed only to refuse.
    verbs = frozenset({typed.verb, "move"} if isinstance(typed, N.MoveFire) else {typed.verb})
    at = typed.path[0] if isinstance(typed, N.Move | N.Road | N.MoveFire) and typed.path else None
    return _unit_actions(rs, st, f, u, target, verbs=verbs, at=at)


def _activation_refusal(rs: Rules, st: GameState, f: ActivationFrame, action: Action, typed: Notation) -> str | None:
    """Why a unit action or a barrage is refused in an activation, if a rule says more than "not legal now"."""
    if isinstance(typed, _UnitAction):
        return _unit_refusal(rs, st, f, action, typed)
    if isinstance(typed, N.Stack):
        why = _stack_refusal(rs, st, f, typed)
        return f"Cannot {action}: {why}" if why else None
    if isinstance(typed, N.Salvo | N.Stuka):
        why = _barrage_refusal(rs, st, f, typed)
        return f"Cannot {action}: {why}" if why else None
    if isinstance(typed, N.End):
        moving = _moving_unit(st, f)
        if moving is not None:
            return f"Cannot end the activation: {moving.id} must finish its action first (rule 6.1 [P])"
    return None


def _barrage_refusal(rs: Rules, st: GameState, f: ActivationFrame, typed: N.Salvo | N.Stuka) -> str | None:
    """Why a salvo or a Stuka attack is refused (8.6), or None if no specific reason is found."""
    salvos = f.salvos or []
    if not salvos:
        return "no artillery or Stuka chit is active (rule 8.6)"
    moving = _moving_unit(st, f)
    if moving is not None:
        return f"{moving.id} must finish its action first (rule 6.1 [P])"
    kind = "stuka" if isinstance(typed, N.Stuka) else typed.calibre
    if kind not in salvos:
        left = ", ".join(sorted(set(salvos))) or "none"
        return f"no {kind} attack is left in this activation (left: {left}) (rule 8.6.1)"
    count = typed.count if typed.count is not None else 1
    if not 1 <= count <= salvos.count(kind):
        return f"{salvos.count(kind)} {kind} attack(s) are left to declare on one hex, not {count} (rule 8.6.2)"
    if not any(u.side != f.side for u in st.units_at(typed.hex)):
        return f"no enemy unit at {st.board.label(typed.hex)} (rule 8.6.1)"
    if isinstance(typed, N.Salvo):
        obs = st.units.get(typed.observer)
        if obs is None or obs.side != f.side or not _is_hq(rs, obs):
            return f"{typed.observer} is not a {f.side} HQ: every salvo needs a friendly HQ as observer (rule 8.6.1)"
        return _observer_problem(rs, st, obs, typed.hex)
    return None


def _unit_refusal(rs: Rules, st: GameState, f: ActivationFrame, action: Action, typed: _UnitAction) -> str | None:
    """Why one unit's action (6.1: move, fire, move and fire, close combat, load or unload, stop) is refused
    (5.2, 6.1, 6.2, 7, 8, 9.1.1, 12.1), or None if no specific reason is found."""
    uid = named_unit(typed.verb, typed)
    u = st.units.get(uid) if uid is not None else None
    if u is None:
        return f"no unit {uid!r}"
    if u.side != f.side or u.formation not in f.formations:
        return f"Cannot {action}: {u.id} is not in the activated formation (rule 5.2)"
    apc = status(u).carried_by
    if apc:
        return f"Cannot {action}: {u.id} rides {apc} and cannot act on its own: the APC acts for the pair (rule 12.1)"
    if status(u).acted:
        return f"Cannot {action}: {u.id} has already acted in this activation (rule 6.1)"
    moving = _moving_unit(st, f)
    if moving is not None and moving.id != u.id and moving not in _stack_members(st, u):
        return f"Cannot {action}: {moving.id} must finish its action first (rule 6.1 [P])"
    if u.hex is None and not isinstance(typed, N.Move):
        return f"Cannot {action}: {u.id} is not on the map (rule 12.2)"
    if isinstance(typed, N.Fire | N.FireMove):
        return _fire_refusal(rs, st, u, action, typed)
    if isinstance(typed, N.Move | N.Road | N.MoveFire):
        return _move_refusal(rs, st, u, typed)
    if isinstance(typed, N.Assault):
        return _assault_refusal(rs, st, u, action, typed)
    if isinstance(typed, N.Load | N.Unload):
        return _load_refusal(rs, st, f, u, action, typed)
    why = _stop_problem(rs, st, u) if u.hex is not None else None
    if why and Action("stop", (u.id,)) not in _unit_actions(rs, st, f, u):
        return f"Cannot stop {u.id}: {why}"
    if status(u).moving is None:
        return f"Cannot stop {u.id}: it has not started an action (rule 6.1)"
    return None


def _fire_refusal(rs: Rules, st: GameState, u: Unit, action: Action, typed: N.Fire | N.FireMove) -> str | None:
    """Why a unit's fire (6.1 items 2, 3 and 5, 8.1) is refused."""
    target = st.units.get(typed.target)
    if target is not None and status(target).carried_by:
        return f"Cannot {action}: {target.id} rides {status(target).carried_by}: fire at the pair's APC (rule 12.1)"
    if target is not None:
        why = fire_problem(rs, st, u, target, "active", isinstance(typed, N.FireMove))
        if why:
            return f"Cannot fire: {why}"
    m = status(u).moving
    if isinstance(typed, N.FireMove):
        if status(u).neutralised:
            return f"Cannot {action}: a neutralised unit cannot move (rule 8.4)"
        if m is not None:
            return f"Cannot {action}: {u.id} has already started its action; fire and move is a whole action (rule 6.1)"
    elif m is not None and (m.action not in ("mf", "load") or m.fired or (m.action == "load" and m.moved)):
        return f"Cannot {action}: {u.id} is moving; it fires only in a move-and-fire or after loading (rule 6.1)"
    return None


def _assault_refusal(rs: Rules, st: GameState, u: Unit, action: Action, typed: N.Assault) -> str | None:
    """Why entering an enemy-occupied hex for close combat is refused (6.1 item 4, 6.2, 8.4, 9.1.1, 12.1)."""
    assert u.hex is not None
    m = status(u).moving
    if m is not None and m.action != "move":
        return f"Cannot {action}: close combat is part of a move, not of a {m.action} (rule 6.1)"
    mp = float(m.mp) if m else float(movement.mp_allowance(rs.tables, st, u, action="move"))
    mp_left = mp - (float(m.spent) if m else 0.0)
    verdict = movement.can_close_combat(
        rs.tables, st, u, u.hex, typed.hex, mp_left=mp_left, moved=m is not None and m.moved > 0
    )
    return None if verdict else f"Cannot {action}: {verdict.reason}"


def _load_refusal(
    rs: Rules, st: GameState, f: ActivationFrame, apc: Unit, action: Action, typed: N.Load | N.Unload
) -> str | None:
    """Why loading or unloading is refused (6.1 item 5, 12.1)."""
    if _t(rs, apc).kind != "apc":
        return f"Cannot {action}: {apc.id} is not an APC (rule 12.1)"
    if apc.side != "german":
        return f"Cannot {action}: only German units load and unload (rule 6.1)"
    if status(apc).neutralised:
        return f"Cannot {action}: {apc.id} is neutralised (rule 8.4)"
    if status(apc).moving is not None:
        return f"Cannot {action}: {apc.id} has already started its action (rule 6.1)"
    carried = status(apc).carrying
    if isinstance(typed, N.Unload):
        return None if carried else f"Cannot {action}: {apc.id} carries no company (rule 12.1)"
    if carried:
        return f"Cannot {action}: {apc.id} already carries {carried} (rule 12.1 [P]: one company at a time)"
    c = st.units.get(typed.company)
    if c is None or c.hex != apc.hex or c.formation != apc.formation or _t(rs, c).category != "infantry":
        return (
            f"Cannot {action}: {typed.company} is not an infantry company of {apc.id}'s battalion in its hex "
            "(rule 12.1 [P])"
        )
    if status(c).acted or status(c).neutralised:
        return f"Cannot {action}: {c.id} has acted or is neutralised (rules 6.1, 8.4)"
    return None


def _move_refusal(rs: Rules, st: GameState, u: Unit, typed: N.Move | N.Road | N.MoveFire) -> str | None:
    """Why the first step of a move, or the shape of its path, is refused (7, 8.4)."""
    b = typed.path[0]
    if status(u).neutralised and not _is_hq(rs, u):
        return f"Cannot move {u.id}: a neutralised unit cannot move (rule 8.4)"
    why = _step_problem(rs, st, u, u.hex, b, isinstance(typed, N.Road), typed.verb) or _path_gap(st, typed.path)
    if why:
        return f"Cannot move {u.id}: {why}"
    return None


def _path_gap(st: GameState, path: Sequence[Hex]) -> str | None:
    """7.1: why a path is not a chain of adjacent hexes (each hex entered is adjacent to the one before), or
    None."""
    for a, b in pairwise(path):
        if distance(a, b) != 1:
            return (
                f"{st.board.label(b)} is not adjacent to {st.board.label(a)}: a move enters one adjacent hex at a "
                "time (rule 7.1)"
            )
    return None


# --- Applying --------------------------------------------------------------------------------------------


def _apply_end(rs: Rules, tr: Transition, f: ActivationFrame, typed: Notation) -> None:
    """5.2: the activation ends."""
    end_activation(rs, tr, f)


def _apply_stack(rs: Rules, tr: Transition, f: ActivationFrame, typed: Notation) -> None:
    """7.1: the stack moves one hex."""
    assert isinstance(typed, N.Stack)
    st = tr.state
    ids = [typed.unit, typed.second] + ([typed.third] if typed.third is not None else [])
    _move_stack(rs, tr, [st.units[i] for i in ids], typed.hex)


def _apply_assault(rs: Rules, tr: Transition, f: ActivationFrame, typed: Notation) -> None:
    """9.1: the unit moves into the enemy's hex: close combat (or the overrun of lone HQs, 3.2)."""
    assert isinstance(typed, N.Assault)
    u = tr.state.units[typed.unit]
    if not status(u).moving:
        _start_move(rs, tr.state, u, "move")
    closecombat.start(rs, tr, u, typed.hex)


def _apply_move(rs: Rules, tr: Transition, f: ActivationFrame, typed: Notation) -> None:
    """6.1, 7: the unit moves one hex, or along a path until something stops it."""
    assert isinstance(typed, N.Move | N.Road | N.MoveFire)
    st = tr.state
    u = st.units[typed.unit]
    road = isinstance(typed, N.Road)
    moving = status(u).moving
    if not moving:
        _start_move(rs, st, u, "mf" if isinstance(typed, N.MoveFire) else "move", column=road)
        if road:
            status(u).column = True
    elif isinstance(typed, N.Move) and moving.column:
        moving.column = False  # 7.2.1: it stops using the road; column ends
        status(u).column = False
    path = typed.path
    for i, h in enumerate(path):
        if i > 0 and (problem := _step_problem(rs, st, u, u.hex, h, road)) is not None:
            tr.emit("move", f"{u.id} stops at {_label(st, u.hex)}: it cannot go on to {st.board.label(h)}: {problem}")
            break
        if not _enter(rs, tr, u, h, column=road):
            rest = path[i + 1 :]
            if rest and u.hex == h and status(u).moving:
                # 6.3.4, 7.1: a window (or what stopped the step) cuts a path given whole; the rest is not lost
                # silently: the player gives it again once the window is over.
                left = " ".join(st.board.label(x) for x in rest)
                tr.emit("move", f"{u.id} stops at {_label(st, h)} on its path; still to go: {left} (rule 6.3.4)")
            break
    _maybe_finish(rs, tr, u)


def _apply_stop(rs: Rules, tr: Transition, f: ActivationFrame, typed: Notation) -> None:
    """6.1, 7.1: the unit's action ends here (a unit of a moving stack is dropped off)."""
    assert isinstance(typed, N.Stop)
    finish_action(rs, tr, tr.state.units[typed.unit])


def _apply_load(rs: Rules, tr: Transition, f: ActivationFrame, typed: Notation) -> None:
    """6.1 option 5, 12.1: the company boards its APC, or gets off it; then the APC may move or fire."""
    assert isinstance(typed, N.Load | N.Unload)
    st = tr.state
    u = st.units[typed.apc]
    if isinstance(typed, N.Load):
        company = st.units[typed.company]
        status(u).carrying, status(company).carried_by = company.id, u.id
        tr.emit("load", f"{company.id} boards {u.id} at {_label(st, u.hex)} (rule 12.1)")
    else:
        company = st.units[str(status(u).carrying)]
        status(u).carrying = None
        status(company).carried_by = None
        tr.emit("load", f"{company.id} gets off {u.id} at {_label(st, u.hex)} (rule 12.1)")
    status(company).acted = True
    # 6.1 option 5: then move with half MP, or fire (at full value, [I]).
    mp = movement.mp_allowance(rs.tables, st, u, action="load")
    status(u).moving = Moving("load", mp, 0.0, 0, False, False)
    _maybe_finish(rs, tr, u)


def _apply_fire(rs: Rules, tr: Transition, f: ActivationFrame, typed: Notation) -> None:
    """8.1, 6.1: direct fire (a move-and-fire's fire at reduced strength; fire-and-move then moves)."""
    assert isinstance(typed, N.Fire | N.FireMove)
    st = tr.state
    u = st.units[typed.unit]
    target = st.units[typed.target]
    fm = isinstance(typed, N.FireMove)
    moving = status(u).moving
    if moving and moving.action == "load":
        moving.fired = True
        direct_fire(rs, tr, u, target, mode="active", reduced=False)
        finish_action(rs, tr, u)
        return
    reduced = fm or bool(moving and moving.action == "mf")
    if fm:
        mp = movement.mp_allowance(rs.tables, st, u, action="move_fire")
        status(u).moving = Moving("fm", mp, 0.0, 0, False, True)
    elif moving:
        moving.fired = True
    direct_fire(rs, tr, u, target, mode="active", reduced=reduced)
    if not fm and not moving:
        finish_action(rs, tr, u)
    else:
        _maybe_finish(rs, tr, u)


def _enter(rs: Rules, tr: Transition, u: Unit, b: Hex, column: bool) -> bool:
    """Move ``u`` one hex; False when its move stops there (neutralised, eliminated, a window opened)."""
    if not _step_into(rs, tr, u, b, column):
        return False
    # 6.3.4: a movement window for the passive side.
    return not open_window(rs, tr, "move", u, hexes=[b])


def _step_into(rs: Rules, tr: Transition, u: Unit, b: Hex, column: bool) -> bool:
    """Move ``u`` one hex, paying its cost, with the minefield attack of 10.1; False if that stopped it."""
    st = tr.state
    a = u.hex
    cost = _edge_entry_cost(rs, st, u, b) if a is None else movement.step_cost(rs.tables, st, u, a, b, in_column=column)
    assert cost is not None
    m = status(u).moving
    assert m is not None
    m.spent = float(m.spent) + cost
    m.moved += 1
    if column and (a is None or not st.board.has_road(a, b)):
        m.column = False
        status(u).column = False
    u.hex = b
    if status(u).carrying:
        st.units[str(status(u).carrying)].hex = b  # 12.1 [P]: the pair moves together
    label = st.board.label(b)
    tr.emit("move", f"{u.id} enters {label} ({cost:g} MP)", unit=u.id, hex=label)
    _hold_hex(rs, st, u, b)
    if a is None:
        status(u).arrives = None
        status(u).entry = None
    # 10.1: an enemy minefield attacks the unit entering it.
    mine_side = data(st).mines.get(label)
    if mine_side is not None and mine_side != u.side:
        combat.mine_attack(tr, rs.tables, u, label)
        if u.hex is None or status(u).neutralised:
            return False
    return True


def _hold_hex(rs: Rules, st: GameState, u: Unit, h: Hex) -> None:
    """11: the last side to move a combat unit through an objective hex holds it."""
    label = st.board.label(h)
    if label in data(st).held_by and not _is_hq(rs, u):
        data(st).held_by[label] = u.side


def _maybe_finish(rs: Rules, tr: Transition, u: Unit) -> None:
    """Finish the unit's action when nothing is left for it to do."""
    st = tr.state
    m = status(u).moving
    if not m or u.hex is None:
        finish_action(rs, tr, u)
        return
    if status(u).neutralised and not _is_hq(rs, u):
        finish_action(rs, tr, u)  # 8.4: a moving unit that becomes neutralised stops at once
        return
    top = frame(st)
    if top is not None and top.kind != "activation":
        return  # a window or a choice interrupts; the unit goes on afterwards
    if _can_step(rs, st, u, column=bool(m.column)):
        return
    can_fire = m.action in ("mf", "load") and not m.fired and _any_target(rs, st, u, "active", True)
    if not can_fire and _stop_problem(rs, st, u) is None:
        finish_action(rs, tr, u)


def _can_step(rs: Rules, st: GameState, u: Unit, column: bool) -> bool:
    """Whether :func:`_next_hexes` has a hex for the unit on the map (without looking for the others)."""
    here = u.hex
    assert here is not None
    enemies = movement.enemy_hexes(rs.tables, st, u.side)
    return any(
        h in st.board and _step_problem(rs, st, u, here, h, column, "move", enemies) is None for h in here.neighbours()
    )


def _any_target(rs: Rules, st: GameState, shooter: Unit, mode: str, reduced: bool) -> bool:
    """Whether :func:`_targets` has a target (without looking for the others)."""
    here = shooter.hex
    if here is None:
        return False
    enemy_hexes = _combat_hexes(rs, st, opponent(st, shooter.side))
    reach = max(1, _printed_range(rs, st, shooter))
    return any(
        fire_problem(rs, st, shooter, t, mode, reduced, enemy_hexes) is None
        for t in st.iter_units()
        if t.side != shooter.side and not status(t).carried_by and t.hex is not None and distance(here, t.hex) <= reach
    )


def _resume_mover(rs: Rules, tr: Transition, window: WindowFrame) -> None:
    ids = window.group or ([window.active] if window.active else [])
    for uid in ids:
        if uid and uid in tr.state.units and status(tr.state.units[uid]).moving:
            _maybe_finish(rs, tr, tr.state.units[uid])


# --- Fire --------------------------------------------------------------------------------------------------


def direct_fire(rs: Rules, tr: Transition, shooter: Unit, target: Unit, *, mode: str, reduced: bool) -> None:
    """8.1–8.3: one shot; then the fire window (active fire only)."""
    st = tr.state
    fac = factor(rs, st, shooter, target, "direct", reduced)
    how = {"active": "fires at", "opportunity": "opportunity-fires at", "return": "returns fire at"}[mode]
    dice = tr.roll(
        6,
        2,
        f"{shooter.id} {how} {target.id} (rule 8.2)",
        column=str(fac.column),
        shifts=list(fac.modifiers),
    )
    roll = sum(dice)
    result = combat.resolve(rs.tables, fac.column, roll, target)
    before = _condition(target)
    window = None
    if mode == "active":
        # 6.3.4: the fire window follows the result; the owner's N choice (pushed above it) comes first.
        opened = open_window(rs, tr, "fire", shooter, fired_at=target.id, lazy=True)
        window = data(st).frames[-1] if opened else None
    _apply_result(rs, tr, target, result, f"{shooter.id}'s fire")
    if mode == "active" and isinstance(window, WindowFrame) and _condition(target) != before:
        window.hurt = [target.id]


def _condition(u: Unit) -> tuple[int, bool]:
    """What a result can make worse (8.3, 8.4): the steps left and the Neutralised marker. A result that leaves
    both as they were (an N on a unit already neutralised that passes its panic test, an HQ's second N) hurt
    nobody: its owner is not asked about a retreat for it (``Waiting.hurt``)."""
    return u.steps if u.hex is not None else 0, bool(status(u).neutralised)


def _apply_result(rs: Rules, tr: Transition, target: Unit, result: str, cause: str) -> None:
    """8.3: apply a CRT result; the owner may take a step loss instead of N (not if already neutralised)."""
    st = tr.state
    names = {"-": "no effect", "red_n": "N (red)", "n": "N", "step": "one step loss"}
    tr.emit("result", f"{cause} on {target.id}: {names[result]} (rule 8.3)", unit=target.id, result=result)
    if result == "step":
        combat.step_loss(tr, rs.tables, target, cause)
    elif result in ("n", "red_n"):
        fresh = not status(target).neutralised and not _is_hq(rs, target)
        combat.neutralise(tr, rs.tables, target, cause)
        if fresh and target.hex is not None and status(target).neutralised:
            # 8.3: the owner may take a step loss instead (only a unit that was not neutralised before).
            push(st, NChoiceFrame("n_choice", target.side, target.id, cause))


def _barrage(rs: Rules, tr: Transition, f: ActivationFrame, typed: Notation) -> None:
    """8.6: artillery salvos (observer, transmission) and Stuka attacks; group fire (8.6.2)."""
    assert isinstance(typed, N.Salvo | N.Stuka)
    st = tr.state
    h = typed.hex
    label = st.board.label(h)
    count = typed.count if typed.count is not None else 1
    observer: Unit | None
    if isinstance(typed, N.Stuka):
        kind, observer = "stuka", None
        attack = rs.tables.artillery.stuka_attack
    else:
        kind = typed.calibre
        observer = st.units[typed.observer]
        attack = rs.tables.artillery.calibres[kind].attack
    salvos = f.salvos or []
    count = min(count, salvos.count(kind))
    # 6.3.4: after the attacks only units in the target hex may retreat.
    window = data(st).frames[-1] if open_window(rs, tr, "indirect", None, hexes=[h], lazy=True) else None
    for n in range(count):
        salvos.remove(kind)
        if not any(u.side != f.side for u in st.units_at(h)):
            tr.emit(
                "barrage",
                f"No enemy unit is left at {label}: the remaining {count - n} attack(s) are lost (rule 8.6.2)",
            )
            for _ in range(count - n - 1):
                salvos.remove(kind)
            break
        if observer is not None and not combat.transmit(tr, rs.tables, observer, h):
            continue
        before = {u.id: bool(status(u).neutralised) for u in st.units_at(h)}
        condition = {u.id: _condition(u) for u in st.units_at(h)}
        results = combat.indirect_attack(tr, rs.tables, st, h, attack, f"{kind} attack on {label} (rule 8.6.1)")
        for uid, res in sorted(results.items(), reverse=True):
            u = st.units[uid]
            worse = res != "-" and _condition(u) != condition.get(uid)
            if worse and isinstance(window, WindowFrame) and uid not in (window.hurt or []):
                window.hurt = [*(window.hurt or []), uid]
            fresh = not before.get(uid) and not _is_hq(rs, u)
            if res in ("n", "red_n") and u.hex is not None and fresh and status(u).neutralised:
                push(st, NChoiceFrame("n_choice", u.side, uid, f"{kind} attack"))


# --- Reaction windows ------------------------------------------------------------------------------------


def open_window(
    rs: Rules,
    tr: Transition,
    trigger: str,
    active: Unit | None,
    *,
    hexes: list[Hex] | None = None,
    fired_at: str | None = None,
    lazy: bool = False,
    group: list[str] | None = None,
    hurt: list[str] | None = None,
) -> bool:
    """6.3.4: open a reaction window for the passive side if any reaction is possible; True if opened.

    With ``lazy`` the window is pushed anyway and checked when it comes to the top (it closes by itself when
    no reaction is possible then).
    """
    st = tr.state
    act = activation(st)
    if act is None:
        return False
    passive = opponent(st, act.side)
    labels = [st.board.label(h) for h in (hexes or [])]
    w = WindowFrame("window", passive, trigger, active.id if active is not None else None, labels, fired_at, [], 0)
    w.hurt = hurt
    if group and len(group) > 1:
        w.group = list(group)  # 7.1 [P]: a moving stack; opportunity fire may take any of its units
    if not lazy and not _window_actions(rs, st, w, include_close=False, any_one=True):
        return False
    data(st).frames.append(w)
    return True


def reaction_value(rs: Rules, st: GameState, u: Unit) -> int:
    t = _t(rs, u)
    return int(rs.tables.reaction.value(u.side, t.kind, u.formation))


def reaction_mods(rs: Rules, st: GameState, u: Unit, trigger: Unit | None) -> list[Modifier]:
    """13.5: exhausted +1, out of command +1, neutralised +1, triggering enemy adjacent −1."""
    mods = rs.tables.reaction.modifiers
    out = []
    if u.formation is not None and formation(st, u.formation).exhausted:
        out.append(Modifier(mods["exhausted"].value, "formation exhausted (rule 5.4)"))
    if status(u).ooc:
        out.append(Modifier(mods["out_of_command"].value, "out of command (rule 6.2)"))
    if status(u).neutralised:
        out.append(Modifier(mods["neutralised"].value, "neutralised (13.5)"))
    if trigger is not None and trigger.hex is not None and u.hex is not None and distance(trigger.hex, u.hex) == 1:
        out.append(Modifier(mods["trigger_adjacent"].value, "the enemy unit is adjacent (13.5)"))
    return out


def _reaction_test(rs: Rules, tr: Transition, u: Unit, trigger: Unit | None, what: str) -> bool:
    """6.4: 2d6 + modifiers ≤ the reaction value."""
    st = tr.state
    value = reaction_value(rs, st, u)
    mods = reaction_mods(rs, st, u, trigger)
    roll = sum(
        tr.roll(6, 2, f"{u.id} reaction test: {what} (rule 6.4)", target=value, modifiers=mods, compare="at_most")
    )
    ok = roll + sum(m.value for m in mods) <= value
    tr.emit("reaction", f"{u.id} {'passes' if ok else 'fails'} its reaction test (rule 6.4)")
    return ok


def _window_actions(
    rs: Rules, st: GameState, w: WindowFrame, include_close: bool = True, any_one: bool = False
) -> list[Action]:
    """The reactions of window ``w`` in order (and ``close`` after them); with ``any_one``, at most the first
    reaction found (whether a reaction is possible at all), without looking further."""
    out = _return_fire(rs, st, w)
    if not (out and any_one):
        out += _opportunity_fire(rs, st, w, None, any_one)
    if not (out and any_one):
        out += _retreats(rs, st, w, None, any_one)
    if out and include_close:
        out.append(Action("close"))
    return out


def _window_candidates(rs: Rules, st: GameState, w: WindowFrame, typed: Notation) -> list[Action] | None:
    """The reactions of window ``w`` that ``typed`` could be one of: those of its verb and unit (``close``, if
    any reaction is possible), or None for another verb."""
    if isinstance(typed, N.Close):
        return [Action("close")] if _window_actions(rs, st, w, include_close=False, any_one=True) else []
    if isinstance(typed, N.ReturnFire):
        return _return_fire(rs, st, w)
    if isinstance(typed, N.Opportunity):
        return _opportunity_fire(rs, st, w, typed.unit, False)
    if isinstance(typed, N.Retreat):
        return _retreats(rs, st, w, typed.unit, False)
    return None


def _window_active(st: GameState, w: WindowFrame) -> Unit | None:
    """The unit that triggered window ``w``, if it is on the map."""
    active = st.units.get(w.active) if w.active else None
    return active if active is not None and active.hex is not None else None


def _return_fire(rs: Rules, st: GameState, w: WindowFrame) -> list[Action]:
    """1. Return fire (fire windows only)."""
    active = _window_active(st, w)
    if w.trigger == "fire" and w.step <= 0 and active is not None and w.fired_at:
        u = st.units[w.fired_at]
        able = u.hex is not None and u.id not in w.reacted and not status(u).returned
        if able and fire_problem(rs, st, u, active, "return", False) is None:
            return [Action("retfire", (u.id, active.id))]
    return []


def _opportunity_fire(rs: Rules, st: GameState, w: WindowFrame, uid: str | None, any_one: bool) -> list[Action]:
    """2. Opportunity fire (of unit ``uid`` only, when given; at most one with ``any_one``)."""
    out: list[Action] = []
    active = _window_active(st, w)
    if w.trigger not in ("move", "fire") or w.step > 1 or active is None:
        return out
    targets = _window_targets(st, w, active)
    reacted = set(w.reacted)
    for u in st.iter_units(w.side):
        if (uid is not None and u.id != uid) or u.id in reacted or status(u).opp_used or _is_hq(rs, u):
            continue
        if status(u).carried_by:
            continue  # 12.1 [P]: a mounted company fires only with its APC, as the pair
        assert u.hex is not None  # a unit of the side on the map
        reach = max(1, _printed_range(rs, st, u))
        for t in targets:
            # Beyond the printed range fire_problem refuses (4.2): most units are, and are not asked.
            near = t.hex is not None and distance(u.hex, t.hex) <= reach
            if near and fire_problem(rs, st, u, t, "opportunity", False) is None:
                out.append(Action("opp", (u.id, t.id)))
                if any_one:
                    return out
    return out


def _retreats(rs: Rules, st: GameState, w: WindowFrame, uid: str | None, any_one: bool) -> list[Action]:
    """3. Retreats (of unit ``uid`` only, when given; at most one with ``any_one``)."""
    out: list[Action] = []
    active = st.units.get(w.active) if w.active else None
    enemies: frozenset[Hex] | None = None
    for u in _iter_retreat_candidates(rs, st, w, active, uid):
        if u.id in w.reacted:
            continue
        if enemies is None:
            enemies = movement.enemy_hexes(rs.tables, st, u.side)
        for h in movement.retreat_options(rs.tables, st, u, enemies=enemies):
            out.append(Action("retreat", (u.id, st.board.label(h))))
            if any_one:
                return out
    return out


def _window_targets(st: GameState, w: WindowFrame, active: Unit) -> list[Unit]:
    """The units opportunity fire may take in window ``w``: the active unit, or any unit of a moving stack."""
    ids = w.group or [active.id]
    return [st.units[i] for i in ids if i in st.units and st.units[i].hex is not None]


def _retreat_candidates(
    rs: Rules, st: GameState, w: WindowFrame, active: Unit | None, uid: str | None = None
) -> list[Unit]:
    """6.3.3: LOS to the moving enemy, the enemy moved adjacent, just fired at, or in the barrage hex (``uid``
    only, when given)."""
    return list(_iter_retreat_candidates(rs, st, w, active, uid))


def _iter_retreat_candidates(
    rs: Rules, st: GameState, w: WindowFrame, active: Unit | None, uid: str | None = None
) -> Iterator[Unit]:
    """The units of :func:`_retreat_candidates`, found one by one (a loop that stops early looks at no more)."""
    side = w.side
    for u in st.iter_units(side):
        if (uid is not None and u.id != uid) or status(u).retreated or u.hex is None or status(u).carried_by:
            continue  # 12.1 [P]: a mounted company retreats only with its APC
        if w.trigger == "indirect":
            ok = st.board.label(u.hex) in w.hexes
        elif w.trigger == "fire":
            ok = u.id == w.fired_at
        else:
            ok = (
                active is not None
                and active.hex is not None
                and (distance(u.hex, active.hex) == 1 or sees(rs, st, u, active).visible)
            )
        if ok:
            yield u


def _apply_window(rs: Rules, tr: Transition, w: WindowFrame, typed: Notation) -> None:
    st = tr.state
    if isinstance(typed, N.Close):
        data(st).frames.remove(w)
        _resume_mover(rs, tr, w)
        return
    assert isinstance(typed, N.ReturnFire | N.Opportunity | N.Retreat)
    u = st.units[typed.unit]
    w.reacted.append(u.id)
    active = st.units.get(w.active) if w.active else None
    if isinstance(typed, N.ReturnFire):
        w.step = max(w.step, 1)
        status(u).returned = True
        if _reaction_test(rs, tr, u, active, "return fire") and active is not None:
            direct_fire(rs, tr, u, active, mode="return", reduced=False)
    elif isinstance(typed, N.Opportunity):
        w.step = max(w.step, 1)
        status(u).opp_used = True
        target = st.units[typed.target]
        if _reaction_test(rs, tr, u, target, "opportunity fire"):
            direct_fire(rs, tr, u, target, mode="opportunity", reduced=False)
    else:
        w.step = 2
        if status(u).neutralised and not _reaction_test(rs, tr, u, active, "retreat while neutralised"):
            return
        _reaction_retreat(rs, tr, u, typed.hex)


def _reaction_retreat(rs: Rules, tr: Transition, u: Unit, dest: Hex) -> None:
    """6.3.3: the unit retreats toward ``dest``; an enemy minefield on the way attacks it (10.1)."""
    st = tr.state
    status(u).retreated = True
    path = movement.retreat_path(rs.tables, st, u, dest)
    if path is None:
        tr.emit("retreat", f"{u.id} cannot retreat to {st.board.label(dest)} (rule 6.3.3)")
        return
    company = _carried(st, u)
    for h in path:
        u.hex = h
        if company is not None and status(company).carried_by == u.id:
            company.hex = h  # 12.1 [P]: the mounted pair retreats together
        label = st.board.label(h)
        mine_side = data(st).mines.get(label)
        if mine_side is not None and mine_side != u.side:
            combat.mine_attack(tr, rs.tables, u, label, retreating=True)
            if u.hex is None:
                break
    tr.emit("retreat", f"{u.id} retreats to {_label(st, u.hex)} (rule 6.3.3)")
    command_check(rs, tr, [u] if company is None or company.hex is None else [u, company])


_UNIT_VERBS: dict[type[Notation], Callable[[Rules, Transition, ActivationFrame, Notation], None]] = {
    N.End: _apply_end,
    N.Salvo: _barrage,
    N.Stuka: _barrage,
    N.Stack: _apply_stack,
    N.Assault: _apply_assault,
    N.Move: _apply_move,
    N.Road: _apply_move,
    N.MoveFire: _apply_move,
    N.Stop: _apply_stop,
    N.Load: _apply_load,
    N.Unload: _apply_load,
    N.Fire: _apply_fire,
    N.FireMove: _apply_fire,
}
"""What each action of an activation does (5.2, 6.1, 7, 8, 9)."""


HANDLERS: tuple[FrameHandler[Any], ...] = (ActivationHandler(), WindowHandler(), NChoiceHandler(), PairLossHandler())
"""The handlers of the frames of unit actions, reactions and owner choices."""
