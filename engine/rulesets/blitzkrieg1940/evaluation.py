"""Provides the Blitzkrieg 1940 position evaluation for the AI (DESIGN §7): how good a state is for one side.

The score is in "steps": one step of an ordinary unit is worth 1. It is the difference of the two sides' terms:

- **victory** — the end of the game is worth :data:`WIN`; Hannut scores the German VP formula of 13.8 (steps lost
  weighted as the formula weighs them, 3 per objective held), Stonne scores steps and the Stonne hexes held
  (12.2, 11: the last side through holds a hex);
- **objectives** — the side that must take a hex is drawn toward it (distance of its nearest combat unit),
  and a unit standing on a hex its side holds guards it;
- **threats** — each enemy combat unit that has a line of sight to a unit within its range (at most
  :data:`THREAT_RANGE`) costs a little, more against a neutralised unit or one in the open;
- **command and cohesion** — neutralised units, units out of command (3.5), exhausted (5.4) and demoralised
  (8.5) formations cost their side.

Every weight here is an AI valuation, not a rule: changing one changes how the AI plays, never what is legal.
The state is read only through what a side's view holds (Blitzkrieg hides nothing but the dice).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine.hexgrid import Hex, parse_hex
from engine.los import line_of_sight
from engine.state import GameState, Unit

from .model import data, status
from .victory import hannut_objectives, victory_kind

if TYPE_CHECKING:
    from .data import UnitType
    from .model import Rules

__all__ = ["WIN", "evaluate", "goals"]

WIN = 1000.0
"""The value of a won game (a lost one is −WIN, a draw 0)."""
NEUTRALISED = 0.25
"""A neutralised unit (8.3) is worth this many steps less (it cannot act and a second N costs a step)."""
OUT_OF_COMMAND = 0.15
"""A unit out of command (3.5)."""
EXHAUSTED = 0.5
"""A formation that is exhausted (5.4)."""
DEMORALISED = 2.0
"""A formation that is demoralised (8.5)."""
HOLD_HEX = 4.0
"""Stonne: each Stonne hex held (12.2), before the last turn."""
HOLD_HEX_LATE = 8.0
"""Stonne: each Stonne hex held from the turn before the check turn on."""
APPROACH = 0.3
"""Per hex of distance between an objective to take and the nearest combat unit (capped at 12 hexes)."""
GUARD = 0.8
"""A combat unit standing on an objective its side holds."""
THREAT = 0.1
"""Per enemy combat unit that has the unit in range and sight, times its attack above the unit's armour in sixths."""
THREAT_CAP = 0.5
"""The most a unit's threats can cost before the neutralised and open-ground factors (at most 1 step in all)."""
THREAT_RANGE = 5
"""Threats are counted up to this distance (and the firer's printed range)."""


def evaluate(rs: Rules, st: GameState, side: str) -> float:
    """How good ``st`` is for ``side``, in steps (see the module docstring); higher is better."""
    if st.outcome is not None:
        if st.outcome.winner == side:
            return WIN
        return 0.0 if st.outcome.winner == "draw" else -WIN
    tables = rs.tables
    kind = _kind(st)
    tank_types = set(tables.hannut_victory.awards.tank_types) if kind == "vp" else set()
    score = 0.0
    present: dict[str, list[Unit]] = {s: [] for s in st.sides}
    for u in st.units.values():
        t = tables.units.get(u.type)
        if t is None:
            continue
        sign = 1.0 if u.side == side else -1.0
        if t.category == "hq":
            if u.hex is not None and status(u).ooc:
                score -= sign * OUT_OF_COMMAND
            continue
        # Hannut 13.8: the VP formula weighs French tank steps double; every other step counts once.
        weight = 2.0 if u.type in tank_types else 1.0
        score += sign * weight * u.steps
        if u.hex is None or u.steps <= 0:
            continue
        present.setdefault(u.side, []).append(u)
        if status(u).neutralised:
            score -= sign * NEUTRALISED * weight
        if status(u).ooc:
            score -= sign * OUT_OF_COMMAND
    for rec in data(st).formations.values():
        if rec.removed:
            continue
        sign = 1.0 if rec.side == side else -1.0
        if rec.demoralised:
            score -= sign * DEMORALISED
        elif rec.exhausted:
            score -= sign * EXHAUSTED
    # A neutralised unit still stands where it stands: it counts for the objectives (else an N would look like
    # a retreat and a step loss like a cure).
    score += _objectives(rs, st, side, kind, present)
    score -= _threats(rs, st, side, present)  # N is short-lived (rally, 8.4): it does not cancel a threat
    return score


def goals(rs: Rules, st: GameState, side: str) -> list[Hex]:
    """The objective hexes ``side`` should head for: those it must take and does not hold, or must win back."""
    kind = _kind(st)
    held: Mapping[str, str] = data(st).held_by or {}
    labels, taker = _objective_labels(rs, st, kind)
    out: list[Hex] = []
    for label in labels:
        holder = held.get(label)
        wanted = holder != side if (not taker or side == taker) else holder == taker
        if wanted:
            try:
                out.append(parse_hex(label))
            except ValueError:
                continue
    return out


def _objective_labels(rs: Rules, st: GameState, kind: str) -> tuple[tuple[str, ...], str]:
    """The objective hexes and the side that scores them (empty: each side scores the hexes it holds)."""
    victory: Mapping[str, Any] = data(st).victory or {}
    if kind == "vp":
        return hannut_objectives(rs.tables, st), "german"  # 13.8: only objectives held by the German score
    if kind == "hold":
        hexes = victory.get("hexes") or rs.tables.stonne_victory.hexes
        return (tuple(hexes.split()) if isinstance(hexes, str) else tuple(hexes)), ""
    return (), ""


def _kind(st: GameState) -> str:
    try:
        return victory_kind(st)
    except ValueError:
        return ""


def _objectives(rs: Rules, st: GameState, side: str, kind: str, units: Mapping[str, list[Unit]]) -> float:
    """Objective terms for ``side`` minus the opponent's: hexes held, the approach to hexes to take, guards."""
    held: Mapping[str, str] = data(st).held_by or {}
    victory: Mapping[str, Any] = data(st).victory or {}
    if kind == "vp":
        labels = hannut_objectives(rs.tables, st)
        per_hex = float(rs.tables.hannut_victory.awards.objective_held)
        taker = "german"  # 13.8: only objectives held by the German score
    elif kind == "hold":
        hexes = victory.get("hexes") or rs.tables.stonne_victory.hexes
        labels = tuple(hexes.split()) if isinstance(hexes, str) else tuple(hexes)
        check = int(victory.get("turn", rs.tables.stonne_victory.check_turn))
        per_hex = HOLD_HEX_LATE if st.turn >= check - 1 else HOLD_HEX
        taker = ""
    else:
        return 0.0
    score = 0.0
    where = {s: [(u.hex.q, u.hex.r) for u in units.get(s, []) if u.hex is not None] for s in st.sides}
    for label in labels:
        try:
            h = parse_hex(label)
        except ValueError:
            continue
        holder = held.get(label)
        hq, hr = h.q, h.r
        for s in st.sides:
            sign = 1.0 if s == side else -1.0
            mine = holder == s
            if mine and (not taker or s == taker):
                score += sign * per_hex
            spots = where[s]
            if not spots:
                continue
            if mine:
                if (hq, hr) in spots:
                    score += sign * GUARD
            elif not taker or taker in (s, holder):
                d = min(max(abs(q - hq), abs(r - hr), abs(q - hq + r - hr)) for q, r in spots)
                score -= sign * APPROACH * min(d, 12)
    return score


def _fire_power(st: GameState, e: Unit, units_t: Mapping[str, UnitType]) -> tuple[int, int]:
    """The printed range and full attack value a unit fires with: a mounted APC pair's are its company's range
    and the sum of both values (12.1 [P])."""
    t = units_t[e.type]
    rider = status(e).carrying
    c = units_t[st.units[rider].type] if rider and rider in st.units else None
    if c is None:
        return t.range or 0, t.attack_full or 0
    return c.range or 0, (t.attack_full or 0) + (c.attack_full or 0)


def _threats(rs: Rules, st: GameState, side: str, units: Mapping[str, list[Unit]]) -> float:
    """Threats against ``side``'s units minus threats against the opponent's (positive: worse for ``side``)."""
    policy = rs.los_policy(st)
    board = st.board
    units_t = rs.tables.units
    classes = rs.tables.terrain.classes
    total = 0.0
    for s in st.sides:
        sign = 1.0 if s == side else -1.0
        enemies = tuple(
            sorted(
                (e.hex.q, e.hex.r, min(THREAT_RANGE, rng), attack, e.hex)
                for o in st.sides
                if o != s
                for e in units.get(o, [])
                if e.hex is not None and not status(e).carried_by
                for rng, attack in (_fire_power(st, e, units_t),)
                if rng
            )
        )
        if not enemies:
            continue
        key = (id(board), policy.id, tuple(x[:4] for x in enemies))
        seen = _SEEN.get(key)
        if seen is None:
            if len(_SEEN) > 512:
                _SEEN.clear()
            seen = _SEEN[key] = {}
        for u in st.units.values():
            h = u.hex
            if u.side != s or h is None or u.steps <= 0 or status(u).carried_by:
                continue
            t = units_t.get(u.type)
            if t is None or t.category == "hq":
                continue
            n = seen.get((h, t.armour))
            if n is None:
                n = seen[(h, t.armour)] = _seen_by(board, policy, h, t.armour, enemies)
            if not n:
                continue
            w = min(THREAT * n, THREAT_CAP)
            if status(u).neutralised:
                w *= 1.3
            if classes[board.terrain(h)].open:
                w *= 1.25
            total += sign * w
    return total


_SEEN: dict[tuple[Any, ...], dict[tuple[Hex, int], float]] = {}
"""Per board, LOS policy and enemy placement: (hex, armour) → the threat of the enemy combat units against it."""


def _seen_by(
    board: Any, policy: Any, h: Hex, armour: int, enemies: tuple[tuple[int, int, int, int, Hex], ...]
) -> float:
    """The summed power (attack above the armour, in sixths) of the enemies that have ``h`` in range and sight."""
    n = 0.0
    q, r = h.q, h.r
    for eq, er, rng, attack, eh in enemies:
        if attack <= armour:
            continue
        dq, dr = eq - q, er - r
        d = max(abs(dq), abs(dr), abs(dq + dr))
        if d <= rng and (d <= 1 or line_of_sight(board, eh, h, policy).visible):
            n += (attack - armour) / 6.0
    return n
