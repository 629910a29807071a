"""Provides the Art of Tactic position evaluation for the AI (DESIGN §7): how good a state is for one side.

Orders are secret and change nothing on the board until the Execution Phase (2.3), so while a side plans, the
generic planner's "apply the order to a copy of the view" only writes the order on the sheet. The evaluation
therefore values the position *including the side's own planned orders* (its view holds its own sheet and never
the enemy's, 2.3, 15.1):

- **victory** — the end of the game is worth ``win``; each victory hex a side controls (11.2) is worth
  ``hold_objective`` (more towards the last round); a ground unit planned to stand on one guards it, and a held
  one left with a seen enemy within ``guard_range`` costs ``unguarded`` (control lasts until the other side alone
  stands there). The *defender* is the side that controls every victory hex, else the scenario's ``otherwise``
  side (O-4: the Germans hold 0604 from the start); the other side is the attacker and is pulled towards the
  victory hexes it does not hold (``approach``, ``approach_each``, ``take``, more urgent each round);
- **material** — each size symbol left (3.1) is worth ``step`` plus ``cost_step`` per card point per symbol;
  suppressed units and marked bravery flags (8) cost a little;
- **planned orders** — an Open fire or Suppression fire order is worth the exact expected losses of its fire test
  (the same dice pools and defence as :func:`~.combat.fire_odds`) and its exact chance to destroy the target,
  more against a unit on a victory hex or one that can destroy a bridge a victory needs, less its ammunition;
  fire at that bridge is a loss (``bridge``); an Assault is worth more against the holder of a victory hex; a
  Defend order with an enemy in range, its defence bonus (the attacker's, away from the victory hexes, less);
  passengers stand where their transport will and are worth ``dismount`` when set down near a victory hex or a
  seen enemy (4.6: Dismount on both cards);
- **where each unit will stand** (its current hex, or the end of its planned path) — the distance to the
  victory hexes it must take, the cover of the terrain there, the best expected losses a visible enemy can
  inflict on it there (``threat``) and the best it can inflict from there next round (``opportunity``).

While a side plans, :func:`score_action` (the ruleset's ``ai_score``) gives the planner the evaluation with a
candidate order written on the sheet, so that every order is valued by these terms, fire orders included.

Enemy units are valued where the view shows them: hidden units (3.11) and enemy orders are not in the view.
Every weight is in ``data/ai.toml`` (an AI valuation, not a rule).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from functools import cache
from typing import Any

from engine.actions import Action
from engine.errors import InvalidActionError
from engine.hexgrid import Hex, distance
from engine.notation import read
from engine.state import GameState, Unit

from . import orders
from .combat import fire_odds, ranged_attack
from .gamedata import data
from .model import Rules, card, has_field_of_fire, is_on_board, losses, smoke, visible_enemy
from .notation import NOTATIONS
from .records import Order, status
from .sight import in_field_of_fire, line_of_sight
from .weights import check_overrides, side_weights, weights

__all__ = ["check_overrides", "defender", "evaluate", "goals", "score_action", "side_weights", "weights"]

_MOVE_KINDS = frozenset({"cautious", "march", "fire_on_move", "assault"})


def goals(rs: Rules, st: GameState, side: str) -> list[Hex]:
    """The victory hexes (11.2) the side does not control yet; all of them if it holds every one."""
    objectives = data(st).victory.hexes
    control = data(st).control
    hexes = [h for h in objectives if control.get(h) != side]
    return hexes or list(objectives)


@cache
def _expected_losses(dice: int, accuracy: int, sides: int, defence: int, steps: int) -> float:
    """Expected losses of a fire test: ``dice`` dice hitting on ``accuracy`` or less, less ``defence`` (6.1, 6.3)."""
    p = Fraction(max(0, min(sides, accuracy)), sides)
    total = Fraction(0)
    for hits in range(defence + 1, dice + 1):
        q = Fraction(math.comb(dice, hits)) * p**hits * (1 - p) ** (dice - hits)
        total += q * min(steps, hits - defence)
    return float(total)


def _dist(a: Hex, b: Hex) -> int:
    """:func:`~engine.hexgrid.distance` without its property lookups (the evaluation's inner loops ask it often)."""
    dq, dr = a.q - b.q, a.r - b.r
    return max(abs(dq), abs(dr), abs(dq + dr))


def _where(st: GameState, u: Unit, order: Order | None) -> Hex | None:
    """Where the unit will stand after its planned order: the end of a planned path, else its hex."""
    if order is not None and order.kind in _MOVE_KINDS and order.path:
        return order.path[-1]
    return u.hex


def defender(st: GameState) -> str | None:
    """The side that wins if nothing changes: the one controlling every victory hex (11.2), else the scenario's
    ``otherwise`` side (O-4: the Germans hold 0604 from the start although ``otherwise`` names the Soviets)."""
    v = data(st).victory
    control = data(st).control
    for s in st.sides:
        if v.hexes and all(control.get(h) == s for h in v.hexes):
            return s
    return v.otherwise if v.otherwise in st.sides else None


def _objective_hexes(st: GameState) -> frozenset[Hex]:
    return frozenset(data(st).victory.hexes)


def _fire_value(
    rs: Rules,
    st: GameState,
    u: Unit,
    order: Order,
    w: Mapping[str, float],
    objectives: frozenset[Hex],
) -> float:
    """The value of a planned fire order: exact expected losses now (more against a unit on a victory hex, 11.2,
    and for the chance to destroy it), less the ammunition it spends."""
    kind = order.kind
    cost = int(rs.tables.rules["ammo"].get(kind, 1))
    structure = order.structure
    if structure is not None:  # 9.18.8: fire at a bridge the side needs intact is a loss of its own
        needed = structure in data(st).victory.bridge_intact
        return -w["ammo"] * cost - (w["bridge"] if needed else 0.0)
    target = st.units.get(order.target or "")
    if target is None or not is_on_board(target) or u.hex is None:
        return 0.0
    attack, _, _ = ranged_attack(rs, st, u, target, kind, kind)
    if attack is None:
        return -w["ammo"] * cost
    odds = fire_odds(rs, st, None, attack, target)
    killed = sum(float(e.probability) for e in odds.entries if e.value >= target.steps)
    bonus = 1.0 + (w["fire_objective"] if target.hex in objectives else 0.0)
    if data(st).victory.bridge_intact and card(rs.tables, target).has("attack_structures"):
        bonus += w["fire_bridge_threat"]  # 9.18.8: it could destroy the bridge a side's victory needs
    value = (w["fire_order"] * odds.expected + w["fire_kill"] * killed) * bonus - w["ammo"] * cost
    if kind == "suppress":
        value += w["suppress_order"] * bonus
    return value


def _assault_value(st: GameState, u: Unit, order: Order, w: Mapping[str, float], objectives: frozenset[Hex]) -> float:
    """A planned Assault (3.10, 7) on a seen enemy: worth more on a victory hex (it must be driven out, 11.2) and
    with more size symbols than the target."""
    target = st.units.get(order.target or "")
    if target is None or target.side == u.side or not visible_enemy(st, target):
        return 0.0
    ratio = min(w["assault_ratio_cap"], u.steps / max(1, target.steps))
    return w["assault"] * ratio * (1.0 + (w["assault_objective"] if target.hex in objectives else 0.0))


class _Memo:
    """What one decision's candidate orders share: the same view, so the same terms of every unit whose order the
    candidate does not change, and the same fire tests between two units in two hexes."""

    def __init__(self, st: GameState, mark: tuple[Any, ...]) -> None:
        self.st = st
        self.mark = mark
        self.units: dict[tuple[str, str | None], tuple[float, Hex | None]] = {}
        self.pairs: dict[tuple[str, Hex, str, Hex], float] = {}


_LAST: list[_Memo] = []


def _memo_for(st: GameState) -> _Memo:
    """The memo of the view the planner is scoring orders in (one at a time: a new view starts a new memo)."""
    own = data(st).orders.get(st.to_act or "", {})
    # A view changed in place (an order written, a unit moved) is not the view the memo was made for.
    mark = (
        st.turn,
        st.phase,
        tuple(sorted((uid, o.notation) for uid, o in own.items())),
        tuple((u.id, u.hex, u.steps) for u in st.units.values()),
    )
    if not _LAST or _LAST[0].st is not st or _LAST[0].mark != mark:
        _LAST[:] = [_Memo(st, mark)]
    return _LAST[0]


def score_action(rs: Rules, st: GameState, action: Action, side: str) -> float | None:
    """The evaluation after ``side`` writes the order ``action`` on its sheet (2.3: an order changes nothing else
    while a side plans), without copying the view; None outside planning and for ``commit`` and ``cancel``.

    The planner asks this for every candidate order of one decision on one unchanged view, so the terms the
    candidates share are worked out once (the view must not change between the calls of one decision)."""
    if st.phase != "planning" or data(st).active is not None or st.to_act != side:
        return None
    if action.verb in ("commit", "cancel") or not action.args or action.args[0] not in st.units:
        return None
    forms = NOTATIONS.get(action.verb, ())
    try:
        typed = read(forms, action, st.board)
    except InvalidActionError:
        return None
    if type(typed) not in orders.KINDS:
        return None
    return evaluate(rs, st, side, {action.args[0]: orders.record(typed, str(action))}, _memo_for(st))


def evaluate(
    rs: Rules,
    st: GameState,
    side: str,
    extra: Mapping[str, Order] | None = None,
    memo: _Memo | None = None,
) -> float:
    """How good ``st`` is for ``side`` (see the module docstring); higher is better. ``extra``: orders (unit id →
    order record) read as if written on the side's sheet too."""
    w = side_weights(st, side)
    if st.outcome is not None:
        if st.outcome.winner == side:
            return w["win"]
        return 0.0 if st.outcome.winner == "draw" else -w["win"]
    t = rs.tables
    sides_n = int(t.rules["die_sides"])
    fog = smoke(st)
    planning = st.phase == "planning" and data(st).active is None
    # Only the side's own sheet is read: the enemy's orders are secret (2.3; its view holds none of them).
    sheet: Mapping[str, Order] = data(st).orders.get(side, {}) if planning else {}
    if extra and planning:
        sheet = {**sheet, **extra}
    objectives = _objective_hexes(st)
    attacking = defender(st) not in (None, side)
    score = 0.0
    stands: dict[str, Hex] = {}
    on_board: list[Unit] = []
    passengers: list[Unit] = []
    for u in st.units.values():
        if not is_on_board(u):
            if u.steps > 0:
                c = card(t, u)
                score += (
                    (1.0 if u.side == side else -1.0) * u.steps * (w["step"] + w["cost_step"] * c.cost / max(1, c.size))
                )
            if u.side == side and u.steps > 0 and status(u).carried_by is not None and not status(u).towed:
                passengers.append(u)
            continue
        order = sheet.get(u.id) if u.side == side else None
        key = (u.id, None if order is None else order.notation)
        got = memo.units.get(key) if memo is not None else None
        if got is None:
            got = _unit_term(rs, st, side, u, order, w, objectives, attacking)
            if memo is not None:
                memo.units[key] = got
        value, h = got
        score += value
        if u.side != side and not visible_enemy(st, u):
            continue
        on_board.append(u)
        if h is not None:
            stands[u.id] = h
    # 4.6: a passenger stands where its transport will; it fights only once both have Dismount.
    for p in passengers:
        tp = st.units.get(status(p).carried_by or "")
        if tp is None or tp.id not in stands:
            continue
        stands[p.id] = stands[tp.id]
        t_order = sheet.get(tp.id)
        if t_order is not None and t_order.kind == "dismount" and not status(p).suppressed:
            score += _dismount_value(st, p, stands[tp.id], objectives, side, w)
    score += _objectives(rs, st, side, stands, w)
    score += _threats(rs, st, side, on_board, stands, fog, sides_n, w, memo)
    return score


def _unit_term(
    rs: Rules,
    st: GameState,
    side: str,
    u: Unit,
    order: Order | None,
    w: Mapping[str, float],
    objectives: frozenset[Hex],
    attacking: bool,
) -> tuple[float, Hex | None]:
    """One unit on the board: its size symbols, status, cover where it will stand and its planned order (for the
    side's own units), and where it will stand (None for an aircraft or an enemy the side cannot see)."""
    t = rs.tables
    sign = 1.0 if u.side == side else -1.0
    c = card(t, u)
    score = sign * u.steps * (w["step"] + w["cost_step"] * c.cost / max(1, c.size))
    if u.side != side and not visible_enemy(st, u):
        return score, None
    if status(u).suppressed:
        score -= sign * w["suppressed"]
    if status(u).flag:
        score -= sign * w["flag"]
    h = _where(st, u, order)
    stand = None
    if h is not None and c.type != "AIR":
        stand = h
        tc = t.terrain.get(st.board.terrain(h))
        if tc is not None:
            score += sign * w["cover"] * tc.defence_for(c.type)
    if order is not None and u.side == side:
        kind = order.kind
        if kind in ("fire", "suppress") and (order.target or order.structure is not None):
            score += _fire_value(rs, st, u, order, w, objectives)
        elif kind == "assault":
            score += _assault_value(st, u, order, w, objectives)
        elif kind == "defend" and _enemy_within(st, u, c.max_range):
            value = w["defend_order"] + w["defend_bonus"] * c.order("defend", "bonus")
            # The side that must take the victory hexes gains little by waiting away from them.
            score += value * (1.0 if not attacking or h in objectives else w["defend_attacker"])
    return score, stand


def _dismount_value(
    st: GameState, p: Unit, at: Hex, objectives: frozenset[Hex], side: str, w: Mapping[str, float]
) -> float:
    """A passenger set down (4.6): worth ``dismount`` near a victory hex or a seen enemy, less far from both."""
    reach = w["dismount_range"]
    near = any(distance(at, h) <= reach for h in objectives) or any(
        e.side != side and visible_enemy(st, e) and e.hex is not None and distance(at, e.hex) <= reach
        for e in st.units.values()
    )
    return (w["dismount"] if near else -w["dismount_far"]) * p.steps / w["dismount_per_steps"]


def _enemy_within(st: GameState, u: Unit, r: int) -> bool:
    if u.hex is None:
        return False
    return any(
        e.side != u.side and visible_enemy(st, e) and e.hex is not None and distance(u.hex, e.hex) <= r
        for e in st.units.values()
    )


def _objectives(rs: Rules, st: GameState, side: str, stands: Mapping[str, Hex], w: Mapping[str, float]) -> float:
    objectives = data(st).victory.hexes
    if not objectives:
        return 0.0
    control = data(st).control
    rounds = max(1, data(st).rounds)
    late = w["hold_objective"] + w["hold_late"] * min(1.0, st.turn / rounds)
    holder = defender(st)
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
        for h in objectives:
            mine = by_side.get(s, [])
            d = min((_dist(x, h) for x in mine), default=None)
            if control.get(h) == s:
                score += sign * late
                if d == 0:
                    score += sign * w["guard"]
                elif any(_dist(x, h) <= w["guard_range"] for k, xs in by_side.items() if k != s for x in xs):
                    # 11.2: control lasts until the other side alone stands there, and an enemy is close to it.
                    score -= sign * w["unguarded"] * urgency
                continue
            if d is None:
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
                d = min(_dist(x, g) for g in open_goals)
                score -= sign * w["approach_each"] * urgency * min(cap, d)
    return score


_PAIRS: dict[tuple[Any, ...], float] = {}
"""Cache of :func:`_pair`: the same pair of units in the same hexes is asked about by every candidate order."""


def _pair(
    rs: Rules, st: GameState, a: Unit, at: Hex, fof: int | None, b: Unit, where: Hex, smoke: frozenset[Hex]
) -> float:
    """Expected losses of one fire test by ``a`` from ``at`` at ``b`` in ``where`` (0 if it cannot fire)."""
    key = (st.board.id, a.type, a.steps, at, fof, b.type, b.steps, status(b).suppressed, where, smoke)
    got = _PAIRS.get(key)
    if got is not None:
        return got
    if len(_PAIRS) > 200_000:
        _PAIRS.clear()
    _PAIRS[key] = value = _pair_value(rs, st, a, at, fof, b, where, smoke)
    return value


def _pair_value(
    rs: Rules, st: GameState, a: Unit, at: Hex, fof: int | None, b: Unit, where: Hex, smoke: frozenset[Hex]
) -> float:
    t = rs.tables
    r = distance(at, where)
    ca = card(t, a)
    ch = list(ca.range)
    if st.board.level(at) > st.board.level(where) and len(ch) > 1:
        ch = ch[:2] + ch[1:]  # 10.11: from higher ground the chart shifts one field
    if r >= len(ch) or ch[r] is None:
        return 0.0
    cb = card(t, b)
    row = t.target_row(cb.type)
    if row in ca.cc_only:
        return 0.0
    dice = ca.dice(row, losses(t, a))
    if not dice:
        return 0.0
    if t.terrain[st.board.terrain(at)].no_normal_fire or t.terrain[st.board.terrain(where)].no_normal_fire:
        return 0.0
    if fof is not None and not in_field_of_fire(at, fof, where):
        return 0.0
    if not line_of_sight(st.board, rs.policy, at, where, smoke).visible:
        return 0.0
    defence = cb.defence
    tc = t.terrain.get(st.board.terrain(where))
    if tc is not None and not status(b).suppressed:
        defence += tc.defence_for(cb.type)
    acc = max(int(t.rules["accuracy_min"]), min(int(t.rules["accuracy_max"]), int(ch[r] or 0)))
    return _expected_losses(int(dice), acc, int(t.rules["die_sides"]), defence, b.steps)


def _threats(
    rs: Rules,
    st: GameState,
    side: str,
    units: list[Unit],
    stands: Mapping[str, Hex],
    smoke: frozenset[Hex],
    die_sides: int,
    w: Mapping[str, float],
    memo: _Memo | None = None,
) -> float:
    """The best expected losses each unit can inflict on an enemy, from where both will stand."""
    reach = int(w["threat_range"])
    score = 0.0
    placed = [(u, stands[u.id]) for u in units if u.id in stands]
    for a, at in placed:
        if status(a).suppressed:
            continue
        facing = status(a).facing
        # 5.5: a field of fire binds only a unit that stays where it faces.
        fof = facing if facing is not None and at == a.hex and has_field_of_fire(rs.tables, a) else None
        # The enemy stands where the view shows it whatever the side plans: an own unit's best shot from a hex
        # is the same for every candidate order of the decision.
        own_key = (a.id, at, "", at)
        if memo is not None and a.side == side and own_key in memo.pairs:
            best = memo.pairs[own_key]
            if best:
                score += w["opportunity"] * best
            continue
        best = 0.0
        for b, where in placed:
            if b.side == a.side:
                continue
            r = _dist(at, where)
            if r < 1 or r > reach:
                continue
            if memo is None:
                best = max(best, _pair(rs, st, a, at, fof, b, where, smoke))
                continue
            key = (a.id, at, b.id, where)
            got = memo.pairs.get(key)
            if got is None:
                got = memo.pairs[key] = _pair(rs, st, a, at, fof, b, where, smoke)
            best = max(best, got)
        if memo is not None and a.side == side:
            memo.pairs[own_key] = best
        if best:
            score += (w["opportunity"] if a.side == side else -w["threat"]) * best
    return score
