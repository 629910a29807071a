"""Provides Blitzkrieg 1940 close combat (digest 9) and the overrun of lone HQs (3.2 [P]).

``assault UNIT HEX`` (see :mod:`.actions`) sets the unit's ``moving`` record and calls :func:`start`. Entering a
hex that holds only enemy HQs overruns them at once (3.2 [P]); any other enemy-occupied hex opens a close combat:
a ``cc`` frame on the frame stack, decided one choice at a time by the owner of the units concerned (9.1.2
item 4 [P]) through :data:`HANDLER` (:func:`cc_actions`, then the choice applied); every step without a choice
is taken by :func:`auto_cc`.

The ``cc`` frame (:class:`.model.CloseCombatFrame`):

- ``side``: the side deciding now; ``hex``: the combat hex; ``origin`` (written ``from``): the hex the attackers
  came from (9.1.5: no retreat goes there; neutralised attackers fall back into it, 9.1.2).
- ``attacker_side``, ``defender_side``; ``attackers``, ``defenders`` (combat units), ``hqs`` (defending HQs):
  the participants' ids at the start. A unit takes part while it stands in the combat hex.
- ``force``: the defending combat units at the start (9.2); ``pre_neutralised``: defenders neutralised before the
  combat (9.1.2 item 3, 9.1.5).
- ``round`` (1 = sequential fire, 9.1.2; from 2 on simultaneous, 9.1.3), ``step`` (index into the round's
  stages), ``stage`` (its name: ``att_choice``, ``def_fire``, ``att_fire``, ``declare``, ``def_choice``,
  ``vol_def``, ``vol_att``, then ``hq`` and ``end``).
- ``fired``: shooters that fired (round 1) or declared a shot (later rounds) in the current stage; ``shots``:
  declared shots ``(shooter, target)`` of a simultaneous round; ``round_shots``: shots resolved this round.
- ``n``: units with an N result still to be handled (exchange for a step loss, or retreat; 9.1.2 item 4 [P]);
  ``hit``: defenders that took a step loss in round 1 (stay or retreat, 9.1.2 item 2).
- ``retreated_to``: hexes defenders retreated into (an HQ may go with them, 3.2 [P]); ``winner``.

Readings chosen here ([P] unless the digest fixes them):

- Round 1: the defender's owner picks each defender's target in turn and each shot is resolved at once; the
  attacker's owner then handles every N on his units; then the attackers fire the same way and the defender's
  owner makes all his choices. Later rounds: the defender's owner declares all his targets, then the attacker's
  owner; all shots are rolled, then all results applied; then the defender's owner chooses, then the attacker's.
- A unit hit by several N in one round makes one choice: one step loss (exchange) or one retreat (AC-78).
- A defender neutralised before the combat that also took a step loss in round 1 still must retreat or take a
  further step loss (9.1.5).
- The "stay or retreat" choice after a step loss is offered in round 1 (9.1.2 item 2); later, the voluntary
  retreats at the end of each round serve the same purpose (9.1.5). An attacker's retreat, voluntary or
  forced, always goes into the hex it came from and ends its move (9.1.2, 9.1.3).
- A defender whose retreat is required as the alternative to a step loss but has no retreat hex may choose
  ``withdraw UNIT`` without a hex: it is eliminated (9.1.5). An overstacked retreat continues to the nearest legal
  hex (:func:`~.movement.retreat_path`); if there is none the unit is eliminated.
- HQs neither fire nor are fired at. When the attackers take the hex, each defending HQ still in it may retreat
  with its units (into a hex a defender retreated into during this combat) or stays and is overrun (3.2 [P]).
- A round in which no unit of either side can fire (every final factor below −1, 8.2 step 3) ends the combat:
  the attackers fall back into the hex they came from.
- 9.2: only tanks and armoured cars whose defending force was made up only of infantry, pioneers (1.1 [P]), MG
  units and AT guns may move on; motorcycle units (the motorised category of 1.1) are not "infantry" here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.actions import Action
from engine.errors import IllegalActionError
from engine.hexgrid import Hex
from engine.notation import Notation, read
from engine.odds import Odds
from engine.rules import Transition
from engine.state import GameState, Unit

from . import combat, movement, verbs
from . import notation as N
from .activation import finish_action
from .handler import UnitFrameHandler
from .model import CloseCombatFrame, data, formation, formation_units, push, status

if TYPE_CHECKING:
    from .model import Rules

__all__ = [
    "CONTINUE_KINDS",
    "HANDLER",
    "ROUND_1",
    "ROUND_N",
    "SOFT_KINDS",
    "VERBS",
    "auto_cc",
    "cc_actions",
    "odds",
    "overrun",
    "start",
    "waiting",
]

VERBS = verbs.CLOSE_COMBAT

ROUND_1: tuple[str, ...] = ("att_choice", "def_fire", "att_choice", "att_fire", "def_choice", "vol_def", "vol_att")
"""Stages of the first, sequential round (9.1.2): N from the minefield (10.1), defensive fire, the attacker's N
choices, offensive fire, the defender's choices, voluntary retreats (defender first, 9.1.5 [P])."""

ROUND_N: tuple[str, ...] = ("declare", "def_choice", "att_choice", "vol_def", "vol_att")
"""Stages of every later, simultaneous round (9.1.3)."""

SOFT_KINDS: frozenset[str] = frozenset({"infantry", "pioneer", "mg", "at_gun"})
"""9.2 [P]: unit kinds of a defending force that lets a tank or armoured car move on (infantry with the
pioneers of 1.1 [P], heavy weapons = MG units, anti-tank units)."""

CONTINUE_KINDS: frozenset[str] = frozenset({"tank", "armoured_car"})
"""9.2: unit kinds that may continue moving after a close combat."""

_CHOICE_STAGES = frozenset({"att_choice", "def_choice", "hq"})
_FIRE_STAGES = frozenset({"def_fire", "att_fire", "declare"})


# --- Small helpers -----------------------------------------------------------------------------------------


def _is_hq(rs: Rules, u: Unit) -> bool:
    return movement.is_hq(rs.tables, u)


def _label(st: GameState, h: Hex | None) -> str:
    return st.board.label(h) if h is not None else "off map"


def _hex(st: GameState, f: CloseCombatFrame) -> Hex:
    return st.board.parse(f.hex)


def _origin(st: GameState, f: CloseCombatFrame) -> Hex:
    return st.board.parse(f.origin)


def _present(st: GameState, f: CloseCombatFrame, ids: list[str]) -> list[Unit]:
    """The units of ``ids`` still standing in the combat hex (taking part), in id order."""
    h = _hex(st, f)
    return [st.units[i] for i in sorted(ids) if st.units[i].hex == h]


def _attackers(st: GameState, f: CloseCombatFrame) -> list[Unit]:
    return _present(st, f, f.attackers)


def _defenders(st: GameState, f: CloseCombatFrame) -> list[Unit]:
    return _present(st, f, f.defenders)


def _is_defender(f: CloseCombatFrame, u: Unit) -> bool:
    return u.id in f.defenders or u.id in f.hqs


def _rules(f: CloseCombatFrame) -> str:
    return "9.1.2" if f.round == 1 else "9.1.3"


def _hold(st: GameState, u: Unit, h: Hex, rs: Rules) -> None:
    """11 [P]: an objective hex is held by the side of the last combat unit (not an HQ) that entered it."""
    held: dict[str, str] = data(st).held_by
    label = st.board.label(h)
    if label in held and not _is_hq(rs, u):
        held[label] = u.side


def _partner(st: GameState, u: Unit) -> Unit | None:
    """The company an APC carries (12.1 [P]), which moves and is hit with it."""
    cid = status(u).carrying
    return st.units.get(str(cid)) if cid else None


def _shooters(rs: Rules, st: GameState, units: list[Unit]) -> list[Unit]:
    """Units that fire in close combat: not HQs, not a company riding an APC (the pair fires once, 12.1 [P])."""
    return [u for u in units if not _is_hq(rs, u) and not status(u).carried_by]


def _factor(rs: Rules, st: GameState, f: CloseCombatFrame, shooter: Unit, target: Unit) -> combat.Factor:
    """8.2 with the close-combat column of 13.2: +1 (F3), terrain of the combat hex for every target,
    fortifications for defending infantry only (F16), column and neutralised firer in round 1 only (F7, F9),
    out-of-command defender −1 (F6)."""
    return combat.attack_factor(
        rs.tables,
        st,
        shooter,
        target,
        fire="close",
        first_round=f.round == 1,
        firer_defending=_is_defender(f, shooter),
        combined_with=_partner(st, shooter),
    )


def _targets(rs: Rules, st: GameState, f: CloseCombatFrame, shooter: Unit) -> list[Unit]:
    """9.1.5 [P]: the enemy units in the combat hex ``shooter`` may fire at (factor −1 or more, 8.2 step 3)."""
    enemies = _attackers(st, f) if _is_defender(f, shooter) else _defenders(st, f)
    return [t for t in _shooters(rs, st, enemies) if _factor(rs, st, f, shooter, t).column is not None]


def _retreat_hexes(rs: Rules, st: GameState, f: CloseCombatFrame, u: Unit) -> list[Hex]:
    """6.3.3, 9.1.5: adjacent hexes a defender may retreat into, never the attackers' hex of origin."""
    return movement.retreat_options(rs.tables, st, u, forbidden={_origin(st, f)})


def _gone(*units: Unit | None) -> None:
    """A unit that left the map (eliminated, overrun) carries no markers (8.3, 3.2)."""
    for u in units:
        if u is not None and u.hex is None:
            status(u).neutralised = False
            status(u).opp_used = False


def _emit(tr: Transition, kind: str, text: str, f: CloseCombatFrame, **data: Any) -> None:
    tr.emit(kind, text, hex=f.hex, **data)


# --- Start: entry, overrun, minefield ------------------------------------------------------------------------


def start(rs: Rules, tr: Transition, attacker: Unit, hex: Hex) -> None:
    """9.1.1: ``attacker`` enters the enemy-occupied ``hex``: pay the entry cost, move in, then overrun lone HQs
    (3.2 [P]) or suffer the defender's minefield (10.1) and open the close combat.

    The caller has set ``status(attacker).moving`` (the action's MP record, 6.1).

    Raises:
        IllegalActionError: the unit may not enter that hex for close combat now (9.1.1, 6.2, 8.4), citing why.
    """
    st = tr.state
    tables = rs.tables
    m = status(attacker).moving
    if attacker.hex is None or m is None:
        raise IllegalActionError(f"{attacker.id} is not moving on the map: it cannot attack (rule 9.1.1)", "9.1.1")
    a = attacker.hex
    mp_left = float(m.mp) - float(m.spent)
    verdict = movement.can_close_combat(tables, st, attacker, a, hex, mp_left=mp_left, moved=int(m.moved) > 0)
    if not verdict or verdict.cost is None:
        raise IllegalActionError(f"{attacker.id} cannot attack {_label(st, hex)}: {verdict.reason}", "9.1.1")
    label = st.board.label(hex)
    origin = st.board.label(a)
    enemies = [u for u in st.units_at(hex) if u.side != attacker.side]
    defender_side = enemies[0].side
    # 9.1.1: pay ⌈MP/4⌉ + the hex's full terrain cost (the one-hex exception lets a unit that has not moved enter
    # with too few MPs), then enter the hex.
    m.spent = float(m.spent) + verdict.cost
    m.moved = int(m.moved) + 1
    attacker.hex = hex
    only_hqs = all(_is_hq(rs, u) for u in enemies)
    what = "to overrun the lone enemy HQs (rule 3.2)" if only_hqs else "for close combat"
    tr.emit(
        "move",
        f"{attacker.id} enters {label} from {origin} {what}; {verdict.reason}",
        unit=attacker.id,
        hex=label,
        cost=verdict.cost,
    )
    mines: dict[str, str] = data(st).mines
    if only_hqs:
        # 10.1: entering an enemy minefield attacks the unit; then 3.2 [P]: the lone HQs are overrun, no fire.
        if mines.get(label) is not None and mines[label] != attacker.side:
            combat.mine_attack(tr, tables, attacker, label)
            _gone(attacker)
        if attacker.hex == hex:
            _hold(st, attacker, hex, rs)
            for hq in enemies:
                overrun(rs, tr, hq, attacker)
        return
    defenders = sorted(u.id for u in enemies if not _is_hq(rs, u))
    f = push(
        st,
        CloseCombatFrame(
            "cc",
            defender_side,
            hex=label,
            attacker_side=attacker.side,
            defender_side=defender_side,
            attackers=[attacker.id],
            defenders=defenders,
            hqs=sorted(u.id for u in enemies if _is_hq(rs, u)),
            force=list(defenders),
            pre_neutralised=sorted(i for i in defenders if status(st.units[i]).neutralised),
            round=1,
            step=0,
            stage=ROUND_1[0],
            fired=[],
            shots=[],
            round_shots=0,
            n=[],
            hit=[],
            retreated_to=[],
            winner=None,
            origin=origin,
        ),
    )
    names = ", ".join(defenders)
    _emit(tr, "close_combat", f"Close combat at {label}: {attacker.id} attacks {names} (rule 9.1)", f)
    # 10.1 / 9.1.1: a defender stacked with its own minefield: each attacker first suffers a mine attack and the
    # removal roll. An N here is handled like any N in the close combat (exchange or fall back, 9.1.2).
    if mines.get(label) == defender_side:
        for uid in f.attackers:
            u = st.units[uid]
            if label not in mines or u.hex != hex:
                continue
            _emit(tr, "mines", f"{uid} first suffers the defender's minefield in {label} (rules 9.1.1, 10.1)", f)
            fresh = not status(u).neutralised
            combat.mine_attack(tr, tables, u, label)
            _gone(u)
            if u.hex == hex and status(u).neutralised and fresh:
                f.n.append(uid)


def overrun(rs: Rules, tr: Transition, hq: Unit, by: Unit) -> None:
    """3.2: the HQ alone with an enemy unit is overrun: off the map until its formation's chit is drawn in a later
    turn; until then every unit of the formation is out of command (command check at once, 3.5)."""
    st = tr.state
    where = _label(st, hq.hex)
    hq.hex = None
    _gone(hq)
    fid = next((k for k, rec in sorted(data(st).formations.items()) if rec.hq == hq.id), hq.formation)
    tr.emit(
        "overrun",
        f"{hq.id} is alone with {by.id} in {where}: it is overrun and removed until its formation's chit is drawn "
        f"in a later turn (rule 3.2)",
        unit=hq.id,
        hex=where,
    )
    if fid is None:
        return
    rec = formation(st, fid)
    rec.overrun = True
    rec.overrun_turn = st.turn
    movement.command_check(tr, rs.tables, formation_units(st, fid, hq=False))


# --- What is pending now -------------------------------------------------------------------------------------


def _stage(f: CloseCombatFrame) -> str:
    return str(f.stage)


def _fire_groups(rs: Rules, st: GameState, f: CloseCombatFrame) -> tuple[str | None, list[list[Action]]]:
    """The side to fire and, per shooter still to fire, its ``ccfire`` actions."""
    stage = _stage(f)
    if stage == "def_fire":
        sides = [f.defender_side]
    elif stage == "att_fire":
        sides = [f.attacker_side]
    else:  # declare: the defender's owner first, then the attacker's (9.1.2 item 4 [P])
        sides = [f.defender_side, f.attacker_side]
    for side in sides:
        units = _defenders(st, f) if side == f.defender_side else _attackers(st, f)
        groups = []
        for s in _shooters(rs, st, units):
            if s.id in f.fired:
                continue
            acts = [Action("ccfire", (s.id, t.id)) for t in _targets(rs, st, f, s)]
            if acts:
                groups.append(acts)
        if groups:
            return side, groups
    return None, []


def _n_type(st: GameState, f: CloseCombatFrame, u: Unit) -> bool:
    """The unit must exchange or retreat: an N to handle, or (round 1) neutralised before the combat (9.1.5)."""
    if u.id in f.n:
        return True
    return f.round == 1 and u.id in f.pre_neutralised and bool(status(u).neutralised)


def _choice_groups(rs: Rules, st: GameState, f: CloseCombatFrame) -> tuple[str | None, list[list[Action]]]:
    """The side to choose and, per unit concerned, its choices."""
    stage = _stage(f)
    groups: list[list[Action]] = []
    if stage == "att_choice":
        for u in _attackers(st, f):
            if u.id in f.n:
                groups.append([Action("exchange", (u.id,)), Action("fallback", (u.id,))])
        return (f.attacker_side, groups) if groups else (None, [])
    if stage == "hq":
        retreated = set(f.retreated_to)
        for hq in _present(st, f, f.hqs):
            labels = [st.board.label(h) for h in _retreat_hexes(rs, st, f, hq)]
            acts = [Action("withdraw", (hq.id, x)) for x in labels if x in retreated]
            groups.append([Action("stay", (hq.id,)), *acts])
        return (f.defender_side, groups) if groups else (None, [])
    # def_choice
    for u in _defenders(st, f):
        if status(u).carried_by:
            continue  # 12.1 [P]: the company on board shares its APC's fate
        hexes = [Action("withdraw", (u.id, st.board.label(h))) for h in _retreat_hexes(rs, st, f, u)]
        if _n_type(st, f, u):
            groups.append([Action("exchange", (u.id,)), *(hexes or [Action("withdraw", (u.id,))])])
        elif u.id in f.hit:
            groups.append([Action("stay", (u.id,)), *hexes])
    return (f.defender_side, groups) if groups else (None, [])


def _voluntary_groups(rs: Rules, st: GameState, f: CloseCombatFrame) -> tuple[str | None, list[list[Action]]]:
    """9.1.5 [P]: voluntary retreats at the end of the round, the defender first; ``ccon`` ends the offer."""
    groups: list[list[Action]] = []
    if _stage(f) == "vol_def":
        side = f.defender_side
        for u in _shooters(rs, st, _defenders(st, f)):
            hexes = [Action("withdraw", (u.id, st.board.label(h))) for h in _retreat_hexes(rs, st, f, u)]
            if hexes:
                groups.append(hexes)
    else:
        side = f.attacker_side
        groups = [[Action("fallback", (u.id,))] for u in _attackers(st, f)]
    if not groups:
        return None, []
    return side, [*groups, [Action("ccon")]]


def _pending(rs: Rules, st: GameState, f: CloseCombatFrame) -> tuple[str | None, list[list[Action]]]:
    """The side that decides now and its choices grouped by unit (ccon last); (None, []) when the stage is done."""
    stage = _stage(f)
    if stage in _FIRE_STAGES:
        return _fire_groups(rs, st, f)
    if stage in _CHOICE_STAGES:
        return _choice_groups(rs, st, f)
    if stage in ("vol_def", "vol_att"):
        if not _attackers(st, f) or not _defenders(st, f):
            return None, []
        return _voluntary_groups(rs, st, f)
    return None, []


def voluntary_window(
    st: GameState, f: CloseCombatFrame
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]] | None:
    """In the voluntary retreats at the end of a round (9.1.5; a retreat after a close combat is a reaction,
    6.3.3): the enemy units of the combat, the deciding side's units in it (all under its fire) and those of them
    the round's fire had an effect on; else None."""
    if f.stage not in ("vol_def", "vol_att"):
        return None
    own, enemy = (_defenders, _attackers) if f.stage == "vol_def" else (_attackers, _defenders)
    mine = tuple(u.id for u in own(st, f))
    return tuple(u.id for u in enemy(st, f)), mine, tuple(u for u in mine if u in (f.hurt or ()))


def cc_actions(rs: Rules, st: GameState, f: CloseCombatFrame) -> list[Action]:
    """The legal actions in the close-combat frame ``f``, in a deterministic order (unit id, then choice)."""
    return [a for g in _pending(rs, st, f)[1] for a in g]


def waiting(st: GameState, f: CloseCombatFrame) -> str:
    """A sentence saying which close-combat decision is awaited (for refusals and the status bar)."""
    side = str(f.side).title()
    what = {
        "att_choice": "exchanges an N for a step loss or falls back (rule 9.1.2)",
        "def_fire": "chooses the targets of defensive fire (rule 9.1.2)",
        "att_fire": "chooses the targets of offensive fire (rule 9.1.2)",
        "declare": "declares the targets of this round (rule 9.1.3)",
        "def_choice": "chooses: exchange or retreat, stay or retreat (rules 9.1.2, 9.1.5)",
        "vol_def": "may retreat units voluntarily (rule 9.1.5)",
        "vol_att": "may fall back voluntarily (rule 9.1.5)",
        "hq": "decides whether the HQs retreat with their units or are overrun (rule 3.2)",
    }.get(_stage(f), "decides (rule 9.1)")
    return f"close combat at {f.hex}, round {f.round}: {side} {what}"


def _refuse(
    rs: Rules, st: GameState, f: CloseCombatFrame, action: Action, typed: Notation, legal: list[Action]
) -> None:
    """Raise IllegalActionError, citing the rule, for an action that is not legal in the close-combat frame."""
    rule = "9.1"
    why = f"it is not legal now: {waiting(st, f)}"
    uid = getattr(typed, "unit", None)
    u = st.units.get(uid) if isinstance(uid, str) else None
    if (
        isinstance(typed, N.Withdraw)
        and u is not None
        and typed.hex is not None
        and st.board.label(typed.hex) == f.origin
    ):
        rule, why = "9.1.5", f"a retreat may never go into {f.origin}, the hex the attackers came from"
    elif isinstance(typed, N.Withdraw) and u is not None and u.id in f.attackers:
        rule, why = "9.1.2", "an attacker retreats only into the hex it came from: use fallback"
    elif isinstance(typed, N.Fallback) and u is not None and _is_defender(f, u):
        rule, why = "9.1.2", "only an attacker falls back into the hex it came from: a defender withdraws"
    elif isinstance(typed, N.CloseFire) and u is not None and u.id in f.fired:
        rule, why = "9.1.5", f"{u.id} has already fired in this round"
    elif action.verb in VERBS and f.side != (u.side if u is not None else f.side):
        rule, why = "9.1.2", f"every choice belongs to the owner of the unit concerned; {waiting(st, f)}"
    choices = ", ".join(str(a) for a in legal)
    raise IllegalActionError(f"Cannot {action}: {why}; the choices are {choices} (rule {rule})", rule)


# --- Automatic steps ---------------------------------------------------------------------------------------


def auto_cc(rs: Rules, tr: Transition, f: CloseCombatFrame) -> bool:
    """Take the next step of the close combat that needs no decision; False when a side must decide (then
    ``f.side`` names it)."""
    st = tr.state
    if _stage(f) == "end":
        _finish(rs, tr, f)
        return True
    side, groups = _pending(rs, st, f)
    if side is None:
        _next_stage(rs, tr, f)
        return True
    stage = _stage(f)
    unit_groups = [g for g in groups if g[0].verb != "ccon"]
    if stage in _FIRE_STAGES and all(len(g) == 1 for g in unit_groups):
        _apply(rs, tr, f, _read(st, unit_groups[0][0]))  # only one target for each shooter: no choice
        return True
    if stage in _CHOICE_STAGES:
        single = next((g for g in unit_groups if len(g) == 1), None)
        if single is not None:
            _apply(rs, tr, f, _read(st, single[0]))  # a single possible choice is no choice
            return True
    f.side = side
    st.to_act = side
    return False


def _next_stage(rs: Rules, tr: Transition, f: CloseCombatFrame) -> None:
    """The current stage is done: resolve what it ends, check the end of the combat, go on."""
    st = tr.state
    stage = _stage(f)
    if stage == "hq":
        f.stage = "end"
        return
    if stage in ("def_fire", "att_fire", "declare"):
        _no_fire_notes(rs, tr, f)
    if stage == "declare":
        _resolve_declared(rs, tr, f)
    f.fired = []
    attackers, defenders = _attackers(st, f), _defenders(st, f)
    if not attackers or not defenders:
        _end(rs, tr, f)
        return
    stages = ROUND_1 if f.round == 1 else ROUND_N
    if f.step + 1 < len(stages):
        f.step += 1
        f.stage = stages[f.step]
        return
    # End of the round.
    if f.round_shots == 0:
        _emit(
            tr,
            "close_combat",
            f"No unit in {f.hex} can fire at the enemy (rule 8.2 step 3): the close combat cannot be decided "
            f"and the attackers fall back (rule 9.1.4)",
            f,
        )
        for u in attackers:
            _fall_back(rs, tr, f, u, "the close combat cannot be decided")
        _end(rs, tr, f)
        return
    f.round += 1
    f.step = 0
    f.stage = ROUND_N[0]
    f.round_shots = 0
    f.shots = []
    f.hit = []
    f.n = []
    f.hurt = None
    for u in [*attackers, *defenders]:
        # 7.2.1: column ends for a unit that takes part in a close combat for more than one round.
        if status(u).column:
            status(u).column = False
            tr.emit("column", f"{u.id} is no longer in column: the close combat goes on (rule 7.2.1)", unit=u.id)
        m = status(u).moving
        if m:
            m.column = False
    _emit(tr, "close_combat", f"Close combat at {f.hex}, round {f.round}: both sides fire (rule 9.1.3)", f)


def _no_fire_notes(rs: Rules, tr: Transition, f: CloseCombatFrame) -> None:
    """Note the units of the stage's side that could not fire (8.2 step 3)."""
    st = tr.state
    stage = _stage(f)
    units: list[Unit] = []
    if stage in ("def_fire", "declare"):
        units += _defenders(st, f)
    if stage in ("att_fire", "declare"):
        units += _attackers(st, f)
    enemies_left = bool(_attackers(st, f)) and bool(_defenders(st, f))
    for u in _shooters(rs, st, units):
        if u.id not in f.fired and enemies_left:
            tr.emit(
                "close_combat",
                f"{u.id} cannot fire at any enemy unit in {f.hex}: every final attack factor is below the "
                f"lowest column (rule 8.2 step 3)",
                unit=u.id,
            )


def _end(rs: Rules, tr: Transition, f: CloseCombatFrame) -> None:
    """9.1.4: one force is eliminated or gone. If the attackers hold the hex, the fortification goes when no
    defending infantry remains (10.2) and the defending HQs retreat with their units or are overrun (3.2)."""
    st = tr.state
    attackers, defenders = _attackers(st, f), _defenders(st, f)
    h = _hex(st, f)
    if attackers and not defenders:
        f.winner = f.attacker_side
        _emit(tr, "close_combat", f"The close combat at {f.hex} ends: the attackers take the hex (rule 9.1.4)", f)
        for u in attackers:
            _hold(st, u, h, rs)
        combat.update_fortification(tr, rs.tables, f.hex, f.defender_side)
        if _present(st, f, f.hqs):
            f.stage = "hq"
            return
    elif defenders and not attackers:
        f.winner = f.defender_side
        _emit(tr, "close_combat", f"The close combat at {f.hex} ends: the defenders hold the hex (rule 9.1.4)", f)
    else:
        _emit(tr, "close_combat", f"The close combat at {f.hex} ends: neither force is left in it (rule 9.1.4)", f)
    f.stage = "end"


def _finish(rs: Rules, tr: Transition, f: CloseCombatFrame) -> None:
    """Close the frame: overrun the HQs left with the winners (3.2); 9.2: a tank or armoured car that beat only
    soft defenders moves on with the MPs it has left, every other attacker's action ends."""
    st = tr.state
    data(st).frames.remove(f)
    attackers = _attackers(st, f)
    if f.winner == f.attacker_side and attackers:
        for hq in _present(st, f, f.hqs):
            overrun(rs, tr, hq, attackers[0])
    soft = all(rs.tables.units[st.units[i].type].kind in SOFT_KINDS for i in f.force)
    for uid in f.attackers:
        u = st.units[uid]
        m = status(u).moving
        if not m:
            continue
        won = f.winner == u.side and u.hex == _hex(st, f)
        kind = rs.tables.units[u.type].kind
        left = float(m.mp) - float(m.spent)
        if won and soft and kind in CONTINUE_KINDS and left > 0 and not status(u).neutralised:
            m.column = False
            status(u).column = False
            tr.emit(
                "close_combat",
                f"{uid} beat a force of infantry, MG and AT units only: it may move on with {left:g} MP (rule 9.2)",
                unit=uid,
            )
            continue
        if won:
            if kind not in CONTINUE_KINDS:
                why = "it is not a tank or armoured car"
            elif not soft:
                why = "the defenders were not only infantry, MG and AT units"
            else:
                why = "it has no MP left"
            tr.emit("close_combat", f"{uid} stops in {f.hex}: {why} (rule 9.2)", unit=uid)
        finish_action(rs, tr, u)


# --- Applying a choice -------------------------------------------------------------------------------------


def _apply(rs: Rules, tr: Transition, f: CloseCombatFrame, typed: Notation) -> None:
    st = tr.state
    if isinstance(typed, N.CloseOn):
        who = "defender" if _stage(f) == "vol_def" else "attacker"
        _emit(tr, "choice", f"The {who} retreats no (more) units this round (rule 9.1.5)", f)
        _next_stage(rs, tr, f)
        return
    assert isinstance(typed, N.CloseFire | N.Exchange | N.Fallback | N.Stay | N.Withdraw)
    u = st.units[typed.unit]
    if isinstance(typed, N.CloseFire):
        f.fired.append(u.id)
        target = st.units[typed.target]
        if _stage(f) == "declare":
            f.shots.append((u.id, target.id))
            _emit(tr, "declare", f"{u.id} will fire at {target.id} this round (rule 9.1.3)", f, unit=u.id)
            return
        result = _shoot(rs, tr, f, u, target)
        _take(rs, tr, f, target, result, f"{u.id}'s close-combat fire")
    elif isinstance(typed, N.Exchange):
        _exchange(rs, tr, f, u)
    elif isinstance(typed, N.Fallback):
        voluntary = u.id not in f.n
        _fall_back(rs, tr, f, u, "a voluntary retreat" if voluntary else "neutralised, it does not exchange")
    elif isinstance(typed, N.Stay):
        _stay(rs, tr, f, u)
    else:
        _withdraw(rs, tr, f, u, typed.hex)


def _stay(rs: Rules, tr: Transition, f: CloseCombatFrame, u: Unit) -> None:
    """9.1.2: the defender stays after its step loss; an HQ stays with the enemy and is overrun (3.2)."""
    _discard(f, u.id)
    if _is_hq(rs, u):
        tr.emit("choice", f"{u.id} stays in {f.hex} with the enemy (rule 3.2)", unit=u.id)
        attackers = _attackers(tr.state, f)
        if attackers:
            overrun(rs, tr, u, attackers[0])
    else:
        tr.emit("choice", f"{u.id} stays in {f.hex} after its step loss (rule 9.1.2)", unit=u.id)


def _read(st: GameState, action: Action) -> Notation:
    """A legal close-combat action read into its notation (for the choices the engine takes by itself)."""
    return read(N.NOTATIONS[action.verb], action, st.board)


def _discard(f: CloseCombatFrame, uid: str) -> None:
    for pending in (f.n, f.hit):
        if uid in pending:
            pending.remove(uid)


def _shoot(rs: Rules, tr: Transition, f: CloseCombatFrame, shooter: Unit, target: Unit) -> str:
    """Roll one close-combat shot and return its effective result (8.2, 8.3); nothing is applied."""
    st = tr.state
    factor = _factor(rs, st, f, shooter, target)
    assert factor.column is not None
    if f.round == 1:
        what = "defensive fire" if _is_defender(f, shooter) else "offensive fire"
    else:
        what = f"close-combat fire, round {f.round},"
    purpose = f"{shooter.id} {what} at {target.id} (rule {_rules(f)})"
    roll = sum(tr.roll(6, 2, purpose, column=str(factor.column), shifts=list(factor.modifiers)))
    result = combat.resolve(rs.tables, factor.column, roll, target)
    f.round_shots += 1
    _emit(
        tr,
        "fire",
        f"{target.id}: {factor.explain()}; roll {roll} → {combat.RESULT_NAMES[result]} (rules 8.3, {_rules(f)})",
        f,
        unit=target.id,
        shooter=shooter.id,
        fire="close",
        column=factor.column,
        final=factor.final,
        roll=roll,
        result=result,
    )
    return result


def _take(rs: Rules, tr: Transition, f: CloseCombatFrame, target: Unit, result: str, cause: str) -> None:
    """Apply a close-combat result: a step loss at once; an N neutralises and waits for its owner's choice, with
    no panic test for a unit already neutralised (9.1.2 item 4 [P])."""
    st = tr.state
    h = _hex(st, f)
    if target.hex != h or result == "-":
        return
    if target.id not in (f.hurt or []):
        f.hurt = [*(f.hurt or []), target.id]
    if result == "step":
        combat.step_loss(tr, rs.tables, target, cause, owner_choice=False)
        _gone(target, combat.mount_partner(st, target))
        if target.hex == h and _is_defender(f, target) and f.round == 1 and target.id not in f.hit:
            f.hit.append(target.id)
        return
    if status(target).neutralised:
        tr.emit(
            "neutralised",
            f"{target.id} is already neutralised: no panic test inside a close combat; its owner must take a step "
            f"loss or retreat (rule 9.1.2)",
            unit=target.id,
        )
    else:
        combat.neutralise(tr, rs.tables, target, f"{cause}, rule {_rules(f)}")
    if target.id not in f.n:
        f.n.append(target.id)


def _resolve_declared(rs: Rules, tr: Transition, f: CloseCombatFrame) -> None:
    """9.1.3: roll every declared shot, then apply every result."""
    st = tr.state
    rolled: list[tuple[Unit, str, str]] = []
    for sid, tid in f.shots:
        shooter, target = st.units[sid], st.units[tid]
        rolled.append((target, _shoot(rs, tr, f, shooter, target), f"{sid}'s close-combat fire"))
    f.shots = []
    for target, result, cause in rolled:
        _take(rs, tr, f, target, result, cause)


def _exchange(rs: Rules, tr: Transition, f: CloseCombatFrame, u: Unit) -> None:
    """9.1.2 / 9.1.5: one step loss instead of the N (or of the retreat); the unit stays, unmarked."""
    _discard(f, u.id)
    pre = f.round == 1 and u.id in f.pre_neutralised
    status(u).neutralised = False
    partner = combat.mount_partner(tr.state, u)
    if partner is not None:
        status(partner).neutralised = False
    why = (
        "to stay although it was neutralised before the combat; its Neutralised marker is removed (rule 9.1.5)"
        if pre
        else "instead of the N, and stays in the combat (rule 9.1.2)"
    )
    tr.emit("exchange", f"{u.id} takes a step loss {why}", unit=u.id)
    combat.step_loss(tr, rs.tables, u, f"close combat at {f.hex}", owner_choice=False)
    _gone(u, partner)
    if u.hex is None:
        _after_defender_left(rs, tr, f, u)


def _walk(rs: Rules, tr: Transition, u: Unit, path: list[Hex]) -> Unit | None:
    """Move ``u`` (with the company it carries) along a retreat path, its first hex excluded; each enemy minefield
    entered attacks it without removal roll (6.3.3). Returns the carried company, if any."""
    st = tr.state
    partner = _partner(st, u)
    mines: dict[str, str] = data(st).mines
    for h in path[1:]:
        u.hex = h
        if partner is not None and status(partner).carried_by == u.id:
            partner.hex = h
        _hold(st, u, h, rs)
        label = st.board.label(h)
        owner = mines.get(label)
        if owner is not None and owner != u.side:
            combat.mine_attack(tr, rs.tables, u, label, retreating=True)
            if u.hex is None:
                _gone(u, partner)
                break
    return partner


def _eliminate(rs: Rules, tr: Transition, u: Unit, why: str) -> None:
    """9.1.5: a unit that must retreat and cannot is eliminated (every step it has left is lost)."""
    tr.emit("eliminated", f"{u.id} must retreat but has {why}: it is eliminated (rule 9.1.5)", unit=u.id)
    while u.hex is not None:
        combat.step_loss(tr, rs.tables, u, "no retreat after close combat (rule 9.1.5)", owner_choice=False)
    _gone(u, _partner(tr.state, u))


def _fall_back(rs: Rules, tr: Transition, f: CloseCombatFrame, u: Unit, why: str) -> None:
    """9.1.2: the attacker goes back into the hex it came from and its move ends; if that hex is overstacked it
    goes on to the nearest hex where stacking is legal (9.1.5, 7.3); command check (3.5)."""
    st = tr.state
    _discard(f, u.id)
    _walk(rs, tr, u, [_hex(st, f), _origin(st, f)])
    tr.emit(
        "retreat",
        f"{u.id} falls back into {f.origin} ({why}); its move ends (rule 9.1.2)",
        unit=u.id,
        hex=f.origin,
    )
    if u.hex is not None and not movement.stacking_ok(rs.tables, st, u.hex, [u]):
        path = movement.retreat_path(rs.tables, st, u, forbidden={_hex(st, f)})
        if path is None:
            _eliminate(rs, tr, u, f"no hex where stacking is legal beyond {f.origin}")
        else:
            _walk(rs, tr, u, path)
            tr.emit(
                "retreat",
                f"{f.origin} holds too many units: {u.id} goes on to {_label(st, u.hex)} (rules 7.3, 9.1.5)",
                unit=u.id,
                hex=_label(st, u.hex),
            )
    finish_action(rs, tr, u)
    movement.command_check(tr, rs.tables, [u])


def _withdraw(rs: Rules, tr: Transition, f: CloseCombatFrame, u: Unit, dest: Hex | None) -> None:
    """A defender (or, at the end, a defending HQ) retreats one hex, continuing while overstacked (9.1.5); with
    no retreat hex it is eliminated (9.1.5). Mines on the way attack it without removal roll (6.3.3)."""
    st = tr.state
    _discard(f, u.id)
    tables = rs.tables
    path = None
    if dest is not None:
        path = movement.retreat_path(tables, st, u, dest, forbidden={_origin(st, f)})
    if path is None:
        beyond = "no hex to retreat into" if dest is None else f"no legal stacking beyond {st.board.label(dest)}"
        _eliminate(rs, tr, u, beyond)
        _after_defender_left(rs, tr, f, u)
        return
    partner = _walk(rs, tr, u, path)
    still = " still neutralised" if status(u).neutralised else ""
    where = _label(st, u.hex)
    via = f" by way of {', '.join(st.board.label(h) for h in path[1:-1])}" if len(path) > 2 else ""
    tr.emit(
        "retreat",
        f"{u.id} retreats from {f.hex} to {where}{via}{still} (rules 9.1.2, 9.1.5)",
        unit=u.id,
        hex=where,
    )
    if u.hex is not None:
        f.retreated_to.append(st.board.label(u.hex))
    if _is_hq(rs, u):
        return
    movement.command_check(tr, tables, [x for x in (u, partner) if x is not None])
    _after_defender_left(rs, tr, f, u)


def _after_defender_left(rs: Rules, tr: Transition, f: CloseCombatFrame, u: Unit) -> None:
    """10.2: the fortification marker goes when no defending infantry is left in the hex."""
    if u.id in f.defenders:
        combat.update_fortification(tr, rs.tables, f.hex, f.defender_side)


# --- Odds --------------------------------------------------------------------------------------------------


def odds(rs: Rules, st: GameState, f: CloseCombatFrame, action: Action, typed: Notation) -> Odds | None:
    """The exact result distribution of a ``ccfire`` shot (8.2, 8.3), or None for any other action."""
    if not isinstance(typed, N.CloseFire):
        return None
    shooter, target = st.units.get(typed.unit), st.units.get(typed.target)
    if shooter is None or target is None or target.hex is None:
        return None
    factor = _factor(rs, st, f, shooter, target)
    if factor.column is None:
        return None
    return Odds(action, combat.odds_entries(rs.tables, factor.column, target), note=factor.explain())


class CloseCombatHandler(UnitFrameHandler[CloseCombatFrame]):
    """``cc`` (the side whose choice it is): the stages of a close combat (9.1)."""

    kind = "cc"
    rule = "9.1"
    forms = (N.CloseFire, N.Exchange, N.Fallback, N.Stay, N.Withdraw, N.CloseOn)

    def actions(self, rs: Rules, st: GameState, f: CloseCombatFrame) -> list[Action]:
        return cc_actions(rs, st, f)

    def refuse(
        self, rs: Rules, st: GameState, f: CloseCombatFrame, action: Action, typed: Notation, legal: list[Action]
    ) -> None:
        _refuse(rs, st, f, action, typed, legal)

    def apply(self, rs: Rules, tr: Transition, f: CloseCombatFrame, typed: Notation) -> None:
        _apply(rs, tr, f, typed)

    def auto(self, rs: Rules, tr: Transition, f: CloseCombatFrame) -> bool:
        return auto_cc(rs, tr, f)

    def waiting_for(self, st: GameState, f: CloseCombatFrame) -> str:
        return waiting(st, f)


HANDLER = CloseCombatHandler()
"""The handler of close-combat frames."""
