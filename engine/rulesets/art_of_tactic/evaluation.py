"""Provides the Art of Tactic position evaluation for the AI (DESIGN §7): how good a state is for one side.

Orders are secret and change nothing on the board until the Execution Phase (2.3), so while a side plans, the
generic planner's "apply the order to a copy of the view" only writes the order on the sheet. The evaluation
therefore values the position *including the side's own planned orders* (its view holds its own sheet and never
the enemy's, 2.3, 15.1):

- **victory** — the end of the game is worth ``win``; each victory hex a side controls (11.2) is worth
  ``hold_objective`` (more towards the last round), and a ground unit planned to stand on one guards it;
- **material** — each size symbol left (3.1) is worth ``step`` plus ``cost_step`` per card point per symbol;
  suppressed units and marked bravery flags (8) cost a little;
- **planned orders** — an Open fire or Suppression fire order is worth the exact expected losses of its fire test
  (the same dice pools and defence as :func:`~.combat.fire_odds`) less its ammunition; a Defend order with an
  enemy in range, its defence bonus;
- **where each unit will stand** (its current hex, or the end of its planned path) — the distance to the
  victory hexes it must take, the cover of the terrain there, the best expected losses a visible enemy can
  inflict on it there (``threat``) and the best it can inflict from there next round (``opportunity``).

Enemy units are valued where the view shows them: hidden units (3.11) and enemy orders are not in the view.
Every weight is in ``data/ai.toml`` (an AI valuation, not a rule).
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING, Any

from engine.hexgrid import Hex, distance
from engine.state import GameState, Unit

from .combat import fire_odds, ranged_attack
from .data import DATA, DataError
from .model import card, is_on_board, losses, visible_enemy
from .sight import in_field_of_fire, line_of_sight

if TYPE_CHECKING:
    from .ruleset import ArtOfTactic

__all__ = ["evaluate", "goals", "weights"]

_MOVE_KINDS = frozenset({"cautious", "march", "fire_on_move", "assault"})


@cache
def weights() -> Mapping[str, float]:
    """The weights of ``data/ai.toml`` (checked: every value a number)."""
    path = DATA / "ai.toml"
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise DataError(f"{path.name}: cannot read it: {exc}") from exc
    table = raw.get("ai")
    if not isinstance(table, dict):
        raise DataError(f"{path.name}: expected an [ai] table of weights")
    out: dict[str, float] = {}
    for k, v in table.items():
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise DataError(f"{path.name}: ai.{k}: expected a number, got {v!r}")
        out[k] = float(v)
    return out


def goals(rs: ArtOfTactic, st: GameState, side: str) -> list[Hex]:
    """The victory hexes (11.2) the side does not control yet; all of them if it holds every one."""
    labels = list(st.data.get("victory", {}).get("hexes", []))
    control = st.data.get("control", {})
    hexes = [st.board.parse(h) for h in labels if control.get(h) != side]
    return hexes or [st.board.parse(h) for h in labels]


@cache
def _expected_losses(dice: int, accuracy: int, sides: int, defence: int, steps: int) -> float:
    """Expected losses of a fire test: ``dice`` dice hitting on ``accuracy`` or less, less ``defence`` (6.1, 6.3)."""
    p = Fraction(max(0, min(sides, accuracy)), sides)
    total = Fraction(0)
    for hits in range(defence + 1, dice + 1):
        q = Fraction(math.comb(dice, hits)) * p**hits * (1 - p) ** (dice - hits)
        total += q * min(steps, hits - defence)
    return float(total)


def _where(st: GameState, u: Unit, order: Mapping[str, Any] | None) -> Hex | None:
    """Where the unit will stand after its planned order: the end of a planned path, else its hex."""
    if order and order.get("kind") in _MOVE_KINDS and order.get("path"):
        try:
            return st.board.parse(str(order["path"][-1]))
        except ValueError:
            return u.hex
    return u.hex


def _fire_value(rs: ArtOfTactic, st: GameState, u: Unit, order: Mapping[str, Any], w: Mapping[str, float]) -> float:
    """The value of a planned fire order: exact expected losses now, less the ammunition it spends."""
    kind = order.get("kind")
    target = st.units.get(str(order.get("target", "")))
    if target is None or not is_on_board(target) or u.hex is None:
        return 0.0
    attack, _, _ = ranged_attack(rs, st, u, target, str(kind), str(kind))
    cost = int(rs.tables.rules["ammo"].get(str(kind), 1))
    if attack is None:
        return -w["ammo"] * cost
    expected = fire_odds(rs, st, None, attack, target).expected
    value = w["fire_order"] * expected - w["ammo"] * cost
    if kind == "suppress":
        value += w["suppress_order"]
    return value


def evaluate(rs: ArtOfTactic, st: GameState, side: str) -> float:
    """How good ``st`` is for ``side`` (see the module docstring); higher is better."""
    w = weights()
    if st.outcome is not None:
        if st.outcome.winner == side:
            return w["win"]
        return 0.0 if st.outcome.winner == "draw" else -w["win"]
    t = rs.tables
    sides_n = int(t.rules["die_sides"])
    smoke = rs.smoke(st)
    planning = st.phase == "planning" and st.data.get("active") is None
    # Only the side's own sheet is read: the enemy's orders are secret (2.3; its view holds none of them).
    sheet = st.data.get("orders", {}).get(side, {}) if planning else {}
    score = 0.0
    stands: dict[str, Hex] = {}
    on_board: list[Unit] = []
    for u in st.units.values():
        sign = 1.0 if u.side == side else -1.0
        c = card(t, u)
        if u.steps > 0:
            score += sign * u.steps * (w["step"] + w["cost_step"] * c.cost / max(1, c.size))
        if not is_on_board(u):
            continue
        if u.side != side and not visible_enemy(st, u):
            continue
        on_board.append(u)
        order = sheet.get(u.id) if u.side == side else None
        if u.status.get("suppressed"):
            score -= sign * w["suppressed"]
        if u.status.get("flag"):
            score -= sign * w["flag"]
        h = _where(st, u, order)
        if h is not None and c.type != "AIR":
            stands[u.id] = h
            tc = t.terrain.get(st.board.terrain(h))
            if tc is not None:
                score += sign * w["cover"] * tc.defence_for(c.type)
        if order and u.side == side:
            kind = order.get("kind")
            if kind in ("fire", "suppress") and order.get("target"):
                score += _fire_value(rs, st, u, order, w)
            elif kind == "defend" and _enemy_within(st, u, c.max_range):
                score += w["defend_order"] + w["defend_bonus"] * c.order("defend", "bonus")
    score += _objectives(rs, st, side, stands, w)
    score += _threats(rs, st, side, on_board, stands, smoke, sides_n, w)
    return score


def _enemy_within(st: GameState, u: Unit, r: int) -> bool:
    if u.hex is None:
        return False
    return any(
        e.side != u.side and visible_enemy(st, e) and e.hex is not None and distance(u.hex, e.hex) <= r
        for e in st.units.values()
    )


def _objectives(rs: ArtOfTactic, st: GameState, side: str, stands: Mapping[str, Hex], w: Mapping[str, float]) -> float:
    v = st.data.get("victory", {})
    labels = list(v.get("hexes", []))
    if not labels:
        return 0.0
    control = st.data.get("control", {})
    rounds = max(1, int(st.data.get("rounds", 1)))
    late = w["hold_objective"] + w["hold_late"] * min(1.0, st.turn / rounds)
    holder = v.get("otherwise")
    score = 0.0
    by_side: dict[str, list[Hex]] = {}
    for uid, h in stands.items():  # ground units only (aircraft have no stand)
        by_side.setdefault(st.units[uid].side, []).append(h)
    cap = w["approach_cap"]
    urgency = 1.0 + w["approach_urgency"] * min(1.0, st.turn / rounds)
    enemy_on: dict[str, set[Hex]] = {}
    for uid, h in stands.items():
        enemy_on.setdefault(st.units[uid].side, set()).add(h)
    for s in st.sides:
        sign = 1.0 if s == side else -1.0
        weight = w["approach_holder"] if holder == s else w["approach"]
        open_goals: list[Hex] = []
        for label in labels:
            h = st.board.parse(label)
            if control.get(label) == s:
                score += sign * late
            mine = by_side.get(s, [])
            if not mine:
                continue
            d = min(distance(x, h) for x in mine)
            if control.get(label) == s:
                score += sign * w["guard"] * (d == 0)
                continue
            open_goals.append(h)
            if d == 0:
                others = set().union(*(v for k, v in enemy_on.items() if k != s))
                # An enemy seen there must be driven out first (11.2: only one side's units control a hex).
                score += sign * w["take"] * urgency * (1.0 if h not in others else w["take_contested"])
            else:
                score -= sign * weight * min(cap, d)
        if holder != s and open_goals:
            for x in by_side.get(s, []):
                d = min(distance(x, g) for g in open_goals)
                score -= sign * w["approach_each"] * urgency * min(cap, d)
    return score


def _threats(
    rs: ArtOfTactic,
    st: GameState,
    side: str,
    units: list[Unit],
    stands: Mapping[str, Hex],
    smoke: frozenset[Hex],
    die_sides: int,
    w: Mapping[str, float],
) -> float:
    """The best expected losses each unit can inflict on an enemy, from where both will stand."""
    t = rs.tables
    reach = int(w["threat_range"])
    score = 0.0
    for a in units:
        at = stands.get(a.id)
        if at is None or a.status.get("suppressed"):
            continue
        ca = card(t, a)
        chart = ca.range
        best = 0.0
        for b in units:
            where = stands.get(b.id)
            if b.side == a.side or where is None:
                continue
            r = distance(at, where)
            if r < 1 or r > reach:
                continue
            ch = list(chart)
            if st.board.level(at) > st.board.level(where) and len(ch) > 1:
                ch = ch[:2] + ch[1:]  # 10.11: from higher ground the chart shifts one field
            if r >= len(ch) or ch[r] is None:
                continue
            cb = card(t, b)
            row = t.target_row(cb.type)
            if row in ca.cc_only:
                continue
            dice = ca.dice(row, losses(t, a))
            if not dice:
                continue
            if t.terrain[st.board.terrain(at)].no_normal_fire or t.terrain[st.board.terrain(where)].no_normal_fire:
                continue
            facing = a.status.get("facing")
            if rs.has_fof(a) and at == a.hex and facing is not None and not in_field_of_fire(at, int(facing), where):
                continue
            if not line_of_sight(st.board, rs.policy, at, where, smoke).visible:
                continue
            defence = cb.defence
            tc = t.terrain.get(st.board.terrain(where))
            if tc is not None and not b.status.get("suppressed"):
                defence += tc.defence_for(cb.type)
            acc = max(int(t.rules["accuracy_min"]), min(int(t.rules["accuracy_max"]), int(ch[r] or 0)))
            best = max(best, _expected_losses(int(dice), acc, die_sides, defence, b.steps))
        if best:
            score += (w["opportunity"] if a.side == side else -w["threat"]) * best
    return score
