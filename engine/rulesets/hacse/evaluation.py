"""Provides the HACSE position evaluation for the AI (DESIGN §7): how good a state is for one side.

The score is in victory points (15.9: one point of BV). It is the side's terms less its enemies':

- **victory** — the end of the game is worth ``win`` (a draw 0); before it, the points of 15.9 as they stand
  (:func:`~.victory.scores`: BV of enemy units destroyed or dissolved, half the BV of those immobilised, shaken or
  at ≥ 50 % damage, objectives controlled, the scenario's awards of 15.10);
- **material** — the BV of every unit still in the game times its condition: less the share of its rows hit
  (2.3 "possible damage") and less for being immobilised, burning, out of action (8.5) or shaken (9.5);
- **objectives** (15.9) — a unit standing on an objective its side controls guards it, a controlled objective
  with a seen enemy near and no own unit on it is unguarded, a unit standing on an objective its side does not
  control (and no enemy seen there) is taking it; the nearest unit's distance to each objective the side does not
  control, and each unit's distance to its nearest such objective (or, with all held, beyond ``guard_range`` of
  the nearest held one), pull toward them; each objective counts by its value (its points and the awards that
  need it, 15.10.5), and more as the last turn nears;
- **fire** (3.2 Phase 3b) — what the side's units could do to the enemy's in the next Fire Phase from where they
  stand, less what the enemy's could do to them (``threat.py``: expected damage of each weapon at its best target,
  valued in BV per row);
- **facing** (2.2) — a gun or vehicle should turn its front armour (a gun its front arc) toward the seen enemies
  near it: each costs its mean armour shortfall toward them, as a share of its front armour.

It reads only what ``st`` holds, and the planner gives it a side's view: hidden enemy units (13.2) are not in it,
so they change nothing. Every weight is in ``data/ai.toml`` (an AI valuation, not a rule).

The damage and morale states are read from the unit's status by :func:`condition`: the rows hit and their effects
(8.5), shaken (9.5); a dissolved unit is destroyed (9.5 INTERP) and out of the material.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from engine.actions import Action
from engine.errors import PlanspielError
from engine.hexgrid import Hex, distance
from engine.scenario import load_scenario
from engine.state import GameState, Unit

from . import sheets
from .damage import effects
from .data import Sheet, Tables
from .firedata import chance_at_least
from .fortifications import mine_kind_for, trigger_tn
from .geometry import armour_faces, in_arc, theta
from .model import data, status
from .options import line_hexes
from .rally import leadership
from .threat import exchange
from .victory import bridge_hex, half_bv, scores
from .weights import side_weights, weights

__all__ = [
    "Condition",
    "ai_actions",
    "condition",
    "evaluate",
    "fire_score",
    "goals",
    "last_stand",
    "objective_values",
    "weights",
]


# --- A unit's condition ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Condition:
    """What the status shows of a unit's damage and morale (2.3 UnitState, 8.5, 9.5)."""

    hit: int = 0
    """Rows hit."""
    immobile: bool = False
    burning: bool = False
    out_of_action: bool = False
    shaken: bool = False


INTACT = Condition()


def condition(u: Unit, sheet: Sheet) -> Condition:
    """The unit's condition as its status shows it: ``rows_hit`` and what they mean (8.5), ``shaken`` (9.5)."""
    s = status(u)
    if not s.rows_hit:
        return Condition(shaken=True) if s.shaken else INTACT
    eff = effects(sheets.target(sheet, s.rows_hit))
    return Condition(
        hit=len(s.rows_hit),
        immobile=eff.immobilised,
        burning=eff.burning,
        out_of_action=eff.out_of_action,
        shaken=s.shaken,
    )


def _worth(sheet: Sheet, c: Condition, w: Mapping[str, float]) -> float:
    """The share of the unit's BV its condition keeps (0–1)."""
    share = 1.0 - w["damage"] * c.hit / max(1, sheet.possible_damage)
    for flag, key in (
        (c.immobile, "immobile"),
        (c.burning, "burning"),
        (c.out_of_action, "out_of_action"),
        (c.shaken, "shaken"),
    ):
        if flag:
            share -= w[key]
    return max(0.0, share)


# --- Objectives ------------------------------------------------------------------------------------------------


def objective_values(st: GameState) -> dict[Hex, float]:
    """Each objective hex's value (15.9): its points, plus the points of an award that needs it (15.10.5: the
    bridge intact and held)."""
    d = data(st)
    out = {h: float(p) for h, p in d.points.items()}
    victory: Mapping[str, Any] = d.victory or {}
    award = victory.get("bridge_intact")
    bridge = bridge_hex(st)
    if isinstance(award, dict) and bridge in out and bridge not in d.blown:
        out[bridge] += float(award.get("points", 0))
    return out


def goals(st: GameState, side: str) -> list[Hex]:
    """The objective hexes (15.9) the side does not control; all of them when it controls every one."""
    d = data(st)
    hexes = list(d.points)
    return [h for h in hexes if d.control.get(h) != side] or hexes


def _on_map(st: GameState) -> dict[str, list[Unit]]:
    """Each side's units standing on the map by themselves (not embarked, towed or destroyed)."""
    out: dict[str, list[Unit]] = {s: [] for s in st.sides}
    for u in st.units.values():
        s = status(u)
        if u.hex is not None and not s.destroyed and s.embarked_in is None and s.towed_by is None:
            out.setdefault(u.side, []).append(u)
    return out


def _where(st: GameState, u: Unit) -> list[Hex]:
    """Where a unit is or may enter (a unit waiting off the map: its entry hexes, or its carrier's or tractor's when
    it enters with one, so that entering together never looks like a loss)."""
    if u.hex is not None:
        return [u.hex]
    s = status(u)
    if not s.off_map:
        return []
    carrier = st.units.get(s.embarked_in or s.towed_by or "")
    return list(status(carrier).entry if carrier is not None and not s.entry else s.entry)


def _objectives(st: GameState, side: str, present: Mapping[str, list[Unit]], w: Mapping[str, float]) -> float:
    """The side's objective terms: guard, take, unguarded, and the pull toward objectives (see the module)."""
    d = data(st)
    values = objective_values(st)
    if not values:
        return 0.0
    urgency = 1.0 + w["late"] * st.turn / max(1, d.turns)
    cap = w["approach_cap"]
    mine = present.get(side, [])
    seen = [u for s, us in present.items() if s != side for u in us]
    score = 0.0
    for h, value in values.items():
        f = max(value, 1.0) / 20.0 * urgency
        here = any(u.hex == h for u in mine)
        enemy_near = min((distance(h, e.hex) for e in seen if e.hex is not None), default=None)
        if d.control.get(h) == side:
            if here:
                score += w["hold"] * f
            elif enemy_near is not None and enemy_near <= w["guard_range"]:
                score -= w["unguarded"] * f
            continue
        if here and enemy_near != 0:
            score += w["take"] * f
        near = min((distance(h, u.hex) for u in mine if u.hex is not None), default=cap)
        score -= w["approach"] * f * min(near, cap)
    return score + _approach_each(st, side, w)


def _approach_each(st: GameState, side: str, w: Mapping[str, float]) -> float:
    """Each unit of the side (on the map or waiting to enter) pulled toward its nearest objective to take, or,
    with every objective held, back within ``guard_range`` of the nearest."""
    d = data(st)
    wanted = [h for h in d.points if d.control.get(h) != side]
    slack = 0.0 if wanted else w["guard_range"]
    targets = wanted or list(d.points)
    if not targets:
        return 0.0
    cap = w["approach_cap"]
    total = 0.0
    for u in st.units.values():
        if u.side != side or status(u).destroyed:
            continue
        spots = _where(st, u)
        if not spots:
            continue
        near = min(distance(a, h) for a in spots for h in targets) + (0 if u.hex is not None else 1)
        total += min(cap, max(0.0, near - slack))
    return -w["approach_each"] * total


# --- Facing ----------------------------------------------------------------------------------------------------


def _shortfall(sheet: Sheet, at: Hex, facing: int, threats: list[Hex]) -> float:
    """The mean armour shortfall (0–1) of a gun or vehicle at ``at`` facing ``facing`` toward the threats (2.2):
    1 − armour met / front armour; unarmoured: 1 outside the front arc, else 0."""
    front = sheet.armour.front
    total = 0.0
    for e in threats:
        angle = theta(at, facing, e)
        if front > 0:
            met = max(getattr(sheet.armour, face) for face in armour_faces(angle))
            total += max(0.0, 1.0 - met / front)
        elif not in_arc("front", angle):
            total += 1.0
    return total / len(threats)


def _facing(tables: Tables, side: str, present: Mapping[str, list[Unit]], w: Mapping[str, float]) -> float:
    """The facing cost of the side's guns and vehicles toward the enemies seen within ``facing_range``."""
    enemies = [u.hex for s, us in present.items() if s != side for u in us if u.hex is not None]
    total = 0.0
    for u in present.get(side, []):
        facing = status(u).facing
        sheet = tables.sheets.get(u.type)
        if facing is None or sheet is None or not sheet.has_facing or u.hex is None:
            continue
        at = u.hex
        threats = [e for e in enemies if 0 < distance(at, e) <= w["facing_range"]]
        if threats:
            total += _shortfall(sheet, at, facing, threats)
    return -w["facing"] * total


# --- The evaluation --------------------------------------------------------------------------------------------


def _material(tables: Tables, st: GameState, side: str, w: Mapping[str, float]) -> float:
    """The side's material less its enemies' (the half-BV awards of 15.9 are in the victory points already); a
    unit out of contact to any leader (9.3: it rolls morale in every End Phase) is worth ``no_contact`` less."""
    score = 0.0
    for u in st.units.values():
        sheet = tables.sheets.get(u.type)
        if sheet is None or status(u).destroyed:
            continue
        sign = 1.0 if u.side == side else -1.0
        c = condition(u, sheet)
        share = _worth(sheet, c, w)
        if w["no_contact"] and _out_of_contact(tables, st, u, sheet):
            share = max(0.0, share - w["no_contact"])
        score += sign * w["material"] * sheet.bv * share
    return score


def _out_of_contact(tables: Tables, st: GameState, u: Unit, sheet: Sheet) -> bool:
    """9.3: on the map with its own group leader hit and no company leader to talk to (``rally.leadership``)."""
    row = sheet.leader_row
    if u.hex is None or status(u).embarked_in or (row is not None and row.index not in status(u).rows_hit):
        return False
    return not leadership(st, tables, u).contact


def evaluate(tables: Tables, st: GameState, side: str) -> float:
    """How good ``st`` (a view of ``side``) is for ``side``, in victory points; higher is better."""
    w = side_weights(st, side)
    if st.outcome is not None:
        if st.outcome.winner == side:
            return w["win"]
        return 0.0 if st.outcome.winner == "draw" else -w["win"]
    points = scores(st, tables)
    score = w["vp"] * sum(p if s == side else -p for s, p in points.items())
    score += _material(tables, st, side, w)
    if w["fire"]:
        score += w["fire"] * exchange(st, tables, side, w["ram"], w["hidden"], w["others"])
    present = _on_map(st)
    for s in st.sides:
        sign = 1.0 if s == side else -1.0
        score += sign * _objectives(st, s, present, w)
        score += sign * _facing(tables, s, present, w)
    if w["mines"]:
        score -= w["mines"] * _known_mines(tables, st, side)
    if w["demolition"]:
        score += w["demolition"] * _demolition(tables, st, side)
    # 3.2: a unit laying or clearing mines, cutting wire or climbing gives up its fire this turn (13.3-13.5, 4.7)
    score -= w["work"] * sum(1 for u in st.units.values() if u.side == side and status(u).work in _NO_FIRE)
    return score


_NO_FIRE = ("lay", "clear", "cut", "climb")


def _known_mines(tables: Tables, st: GameState, side: str) -> float:
    """The BV the side's units risk in hexes of known enemy mines of the kind that can affect them, less the
    enemy's (13.4): each unit's BV times the chance of a trigger on entering (2d10 ≥ 15 − n). A mine is known to a
    side when it is the enemy's and no longer secret; ``st`` is the side's view, so the enemy's secret mines are
    not in it, and on the full state they count for neither side either."""
    mines = data(st).mines
    if not mines:
        return 0.0
    risk = 0.0
    for u in st.units.values():
        sheet = tables.sheets.get(u.type)
        if u.hex is None or sheet is None or status(u).destroyed:
            continue
        kind = mine_kind_for(sheet.unit_type)
        n = sum(m.count for m in mines if m.hex == u.hex and m.kind == kind and m.side != u.side and not m.secret)
        if n:
            chance = float(chance_at_least(trigger_tn(n)))
            risk += (1.0 if u.side == side else -1.0) * sheet.bv * chance
    return risk


def _demolition(tables: Tables, st: GameState, side: str) -> float:
    """The progress toward blowing the scenario's bridge (4.10, 15.10.5), for ``side`` less its enemies: the points
    of the ``bridge_destroyed`` award times the share of the charges needed that are attached or being attached
    this turn (a work of 3.2, done in the End Phase), less those being removed; 0 once it is blown (its award is in
    the victory points then)."""
    d = data(st)
    victory: Mapping[str, Any] = d.victory or {}
    award, bridge = victory.get("bridge_destroyed"), bridge_hex(st)
    if not isinstance(award, dict) or bridge is None or bridge in d.blown:
        return 0.0
    owner = award.get("side")
    n = d.charges.get(bridge, 0)
    for u in st.units.values():
        s = status(u)
        if s.work_hex == bridge and not s.destroyed and s.work in ("attach", "remove"):
            n += 1 if s.work == "attach" else -1
    need = max(1, int(tables.bridge["charges_to_blow"]))
    value = float(award.get("points", 0)) * min(max(n, 0), need) / need
    return value if owner == side else -value


# --- Fire by a hidden unit ------------------------------------------------------------------------------------

_REVEALED: list[tuple[GameState, str, dict[str, float]]] = []
"""The last view scored (by identity), its side, its evaluation (key ``""``) and each hidden firer's position
revealed: the planner scores every shot of a decision from the same view."""


def fire_score(tables: Tables, st: GameState, action: Action, side: str, expected: float) -> float | None:
    """The AI's value of a ``fire`` by one of ``side``'s hidden units (13.2: a unit that fires is revealed): the
    position with the firer revealed plus the shot's expected value (``expected``, as the planner weighs any
    chance action), so that a shot gives up cover only for a gain; None for any other action (the planner's own
    score stands)."""
    firer = st.units.get(str(action.args[0])) if action.verb == "fire" and action.args else None
    if firer is None or firer.side != side or not status(firer).hidden:
        return None
    if not _REVEALED or _REVEALED[0][0] is not st or _REVEALED[0][1] != side:
        _REVEALED[:] = [(st, side, {})]
    memo = _REVEALED[0][2]
    if firer.id not in memo:
        seen = st.clone()
        status(seen.units[firer.id]).hidden = False
        memo[firer.id] = evaluate(tables, seen, side)
    return memo[firer.id] + expected


# --- What the AI weighs ----------------------------------------------------------------------------------------


def ai_actions(tables: Tables, st: GameState, actions: list[Action]) -> list[Action]:
    """The legal actions the AI weighs: all but hooking up a vehicle that can still drive itself (4.6 allows any
    vehicle as a load; a tractor pulling a mobile vehicle only slows both, so a player would not)."""

    def pointless(a: Action) -> bool:
        if a.verb != "hook" or len(a.args) < 2:
            return False
        load = st.units.get(str(a.args[1]))
        sheet = tables.sheets.get(load.type) if load is not None else None
        return (
            load is not None
            and sheet is not None
            and sheet.unit_type == "vehicle"
            and not condition(load, sheet).immobile
        )

    spared = last_stand(tables, st, st.viewer or st.to_act)
    kept = [
        a for a in actions if not pointless(a) and not _strikes(st, a, spared) and not _line_hits_own(tables, st, a)
    ]
    return kept or actions


_LINES = ("sustained", "doubled")


def _line_hits_own(tables: Tables, st: GameState, a: Action) -> bool:
    """Whether ``a`` is fire at a hex (7.4) where a unit of the firer's side stands, or lays a sustained-fire line
    (11.6) through one: every unit there is attacked, friend or foe, so a player would not."""
    if a.verb != "fire" or len(a.args) < 3:
        return False
    firer, target = st.units.get(str(a.args[0])), st.units.get(str(a.args[1]))
    if firer is not None and target is None and str(a.args[1]) in _own_hexes(st, firer.side):
        return True
    if not any(str(x) in _LINES for x in a.args[3:]):
        return False
    sheet = tables.sheets.get(firer.type) if firer is not None else None
    if firer is None or target is None or sheet is None or firer.hex is None or target.hex in (None, firer.hex):
        return False
    assert target.hex is not None
    reach = max((tables.weapons[m.weapon].max_range for m in sheet.mounts), default=0)
    line = {st.board.label(h) for h in line_hexes(st, tables, firer, target.hex, reach)}
    return bool(line & _own_hexes(st, firer.side))


def _own_hexes(st: GameState, side: str) -> set[str]:
    """The labels of the hexes where the side's units stand (not destroyed)."""
    return {
        st.board.label(u.hex)
        for u in st.units.values()
        if u.side == side and u.hex is not None and not status(u).destroyed
    }


# --- The early end (15.9) --------------------------------------------------------------------------------------

_ATTACKS = ("fire", "ram", "assault")
"""The verbs that attack a unit (6.8, 6.7, 7, 12) or, for indirect fire at a hex, everything in it (7.4)."""


@cache
def _forces(ruleset: str, scenario: str) -> Mapping[str, frozenset[str]]:
    """Each side's units in the scenario's force tables (15.10: public, unlike where hidden units stand); empty
    when the scenario cannot be read (a state built by hand)."""
    try:
        sc = load_scenario(ruleset, scenario)
    except (PlanspielError, OSError):
        return {}
    out: dict[str, set[str]] = {}
    for u in sc.units:
        out.setdefault(u.side, set()).add(u.id)
    return {s: frozenset(ids) for s, ids in out.items()}


def last_stand(tables: Tables, st: GameState, side: str | None) -> Unit | None:
    """The enemy's last unit standing when breaking it would end the game (15.9, 3.2 Phase 4 step 10: "when one
    side has no units left that are not shaken or dissolved") without ``side`` ahead on points; else None.

    Standing: not destroyed, not shaken and without a morale roll due (9.3). Only the view counts: an enemy unit
    of the force tables not in it (hidden, 13.2) may still stand, so then there is none. "Ahead": ``side``'s points
    as they stand, with the unit's half BV (shaken) counted, above every enemy's."""
    if side is None:
        return None
    enemies = [u for u in st.units.values() if u.side != side]
    seen = {u.id for u in enemies}
    if any(ids - seen for s, ids in _forces(st.ruleset, st.scenario).items() if s != side):
        return None
    standing = [u for u in enemies if not (s := status(u)).destroyed and not s.shaken and not s.morale_due]
    if len(standing) != 1:
        return None
    target = standing[0]
    sheet = tables.sheets.get(target.type)
    if sheet is None:
        return None
    points = scores(st, tables)
    ours = points.get(side, 0) - half_bv(tables, sheet, status(target)) + int(sheet.bv * _partial(tables))
    return target if ours <= max((p for s, p in points.items() if s != side), default=0) else None


def _partial(tables: Tables) -> float:
    return float(tables.sequence["victory"]["partial_fraction"])


def _strikes(st: GameState, a: Action, spared: Unit | None) -> bool:
    """Whether ``a`` attacks ``spared`` (by its id, or at its hex: indirect fire, 7.4)."""
    if spared is None or a.verb not in _ATTACKS or len(a.args) < 2:
        return False
    aim = str(a.args[1])
    return aim == spared.id or (spared.hex is not None and aim == st.board.label(spared.hex))
