"""Provides Art of Tactic fire (digest 6), defence and losses (6.3), bravery tests and suppression (8).

Fire in one step is simultaneous (2.4, 6.4, 6.5): callers roll every attack from the state at the start of the
step (:func:`roll_attack`), collect the hits per target and apply them together (``execution.losses``: the hits
lower the defence, :func:`defence_now`, and the rest are losses, which may wait for the owner's decisions).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from engine.events import Modifier
from engine.hexgrid import Hex, distance
from engine.odds import Odds, OddsEntry
from engine.rules import Transition
from engine.state import GameState, Unit

from .data import Tables
from .frames import Attack
from .gamedata import data
from .model import (
    Rules,
    card,
    current_bravery,
    has_field_of_fire,
    hex_label_of,
    in_close_combat,
    is_on_board,
    losses,
    smoke,
)
from .records import status
from .sight import in_field_of_fire, line_of_sight

__all__ = [
    "Attack",
    "accuracy_at",
    "bravery_target",
    "bravery_test",
    "defence_now",
    "destroy",
    "fire_odds",
    "location_attacks",
    "ranged_attack",
    "recovery_test",
    "roll_attack",
    "structure_attack",
    "suppress",
]


def _mods(mods: list[Modifier]) -> list[tuple[int, str]]:
    return [(m.value, m.reason) for m in mods]


def _facing(u: Unit) -> int:
    """The facing of a unit that has a field of fire (``has_field_of_fire`` checked that it is set)."""
    f = status(u).facing
    assert f is not None
    return f


def accuracy_at(rs: Rules, st: GameState, firer: Unit, target_hex: Hex) -> tuple[int | None, list[Modifier]]:
    """Accuracy at the target's range (6.1 step 5), from higher ground shifted one field right (10.11).

    None when the chart has no field (or an X) at that range.
    """
    assert firer.hex is not None
    c = card(rs.tables, firer)
    r = distance(firer.hex, target_hex)
    chart = list(c.range)
    mods: list[Modifier] = []
    if r < 1:
        return None, mods
    if st.board.level(firer.hex) > st.board.level(target_hex):
        # 10.11 PROPOSED: hill_chart[1] = chart[1], hill_chart[r] = chart[r - 1] for r >= 2; max range + 1.
        chart = chart[:2] + chart[1:] if len(chart) > 1 else chart
        mods.append(Modifier(0, "from higher ground: range chart shifted one field (rule 10.11)"))
    if r >= len(chart):
        return None, mods
    return chart[r], mods


def _clamp(tables: Tables, a: int) -> int:
    return max(int(tables.rules["accuracy_min"]), min(int(tables.rules["accuracy_max"]), a))


def ranged_attack(
    rs: Rules, st: GameState, firer: Unit, target: Unit, purpose: str, kind: str, at: Hex | None = None
) -> tuple[Attack | None, str, str]:
    """A fire test of ``firer`` at ``target`` now, or None with the reason and rule.

    ``kind`` is ``fire`` (Open Fire, Defend fire), ``suppress`` (× 1.5) or ``ambush`` (+1 die).
    """
    t = rs.tables
    c = card(t, firer)
    if firer.hex is None or target.hex is None or not is_on_board(target):
        return None, "the target is no longer on the board", "3.8"
    where = at if at is not None else target.hex  # ambush fire measures to a hex of the planned path (3.11)
    if in_close_combat(st, target):
        return None, f"{target.id} is in close combat and cannot be fired at", "7.3"
    row = t.target_row(t.units[target.type].type)
    if row in c.cc_only:
        return None, f"{firer.id} may attack {row} units only in close combat", "3.1"
    base = c.dice(row, losses(t, firer))
    if base is None or base == 0:
        return None, f"{firer.id} cannot attack {row} units (not a target type on its card)", "3.1"
    for h, who in ((firer.hex, firer.id), (where, target.id)):
        tc = t.terrain[st.board.terrain(h)]
        if tc.no_normal_fire:
            return None, f"{who} stands in {tc.name}: no normal attacks into or out of woods", "10.5"
    acc, mods = accuracy_at(rs, st, firer, where)
    r = distance(firer.hex, where)
    if acc is None:
        return None, f"{target.id} at range {r} is out of {firer.id}'s range chart (or an X field)", "6.2"
    if has_field_of_fire(t, firer) and not in_field_of_fire(firer.hex, _facing(firer), where):
        return None, f"{target.id} at {st.board.label(where)} is outside {firer.id}'s field of fire", "5.5"
    los = line_of_sight(st.board, rs.policy, firer.hex, where, smoke(st))
    dice = base
    dmods: list[Modifier] = []
    if not los.visible:
        why = f"no line of sight from {st.board.label(firer.hex)}: {los.reason}"
        if not c.has("indirect_fire"):
            return None, why, los.rule or "5.1"
        problem = indirect_problem(rs, st, firer, target)
        if problem:
            return None, f"{why}; no indirect fire: {problem}", "6.8"
        dmods.append(Modifier(-c.indirect_penalty, "indirect fire (rule 6.8)"))
    if kind == "suppress":
        num, den = t.rules["fire"]["suppression_factor"]
        dice = math.ceil(base * num / den)
        dmods.append(Modifier(dice - base, "suppression fire × 1.5, rounded up (rule 3.7)"))
    elif kind == "ambush":
        dice = base + int(t.rules["fire"]["ambush_extra_dice"])
        dmods.append(Modifier(dice - base, "ambush fire (rule 3.11)"))
    dice = max(int(t.rules["fire"]["minimum_dice"]), dice - c.indirect_penalty * (not los.visible))
    text = f"{purpose}: {firer.id} at {target.id}, range {r}, {dice} dice hitting on {_clamp(t, acc)} or less"
    return Attack(firer.id, target.id, dice, _clamp(t, acc), text, _mods([*mods, *dmods])), "", ""


def recon_observes(rs: Rules, st: GameState, side: str, h: Hex) -> bool:
    """9.15.3: a friendly recon aircraft on station has ``h`` in its whole observation zone (the card's zone around
    the centre, beyond the chosen radius): artillery may fire there without a ground observer."""
    for x in st.units.values():
        air = status(x).air
        if air is None or not (x.side == side and x.steps > 0 and air.recon):
            continue
        if distance(air.target, h) <= card(rs.tables, x).observation_zone:
            return True
    return False


def indirect_problem(rs: Rules, st: GameState, firer: Unit, target: Unit) -> str:
    """6.8: an unsuppressed own HQ on the board and an observer (a friendly unit with LOS to the target)."""
    t = rs.tables
    if target.hex is None:
        return "no target"
    if not any(
        x.side == firer.side and is_on_board(x) and card(t, x).has("hq") and not status(x).suppressed
        for x in st.units.values()
    ):
        return "no unsuppressed HQ of yours on the board"
    if recon_observes(rs, st, firer.side, target.hex):
        return ""
    for x in st.units.values():
        if (
            x.side == firer.side
            and x.id != firer.id
            and is_on_board(x)
            and x.hex is not None
            and line_of_sight(st.board, rs.policy, x.hex, target.hex, smoke(st)).visible
        ):
            return ""
    return "no friendly unit sees the target (observer)"


def structure_attack(rs: Rules, st: GameState, firer: Unit, h: Hex) -> tuple[Attack | None, str, str]:
    """9.18.8 PROPOSED: Open Fire at a bridge, a pontoon bridge (9.18.7) or a dugout by a unit that can attack
    structures (INF row, defence 0)."""
    t = rs.tables
    c = card(t, firer)
    if firer.hex is None:
        return None, "the firer is not on the board", "3.8"
    if not c.has("attack_structures"):
        return None, f"{firer.id} cannot attack structures", "9.18.8"
    structures = data(st).structures
    label = st.board.label(h)
    bridge = structures.bridges.get(h)
    standing = h in structures.dugouts or h in structures.pontoons
    if (bridge is None or bridge.destroyed) and not standing:
        return None, f"there is no intact bridge, pontoon bridge or dugout at {label}", "9.18.8"
    dice = c.dice(t.target_row("INF"), losses(t, firer))
    if not dice:
        return None, f"{firer.id} has no INF firepower to attack structures with", "9.18.8"
    if t.terrain[st.board.terrain(firer.hex)].no_normal_fire:
        return None, f"{firer.id} stands in woods: no normal attacks out of woods", "10.5"
    acc, mods = accuracy_at(rs, st, firer, h)
    if acc is None:
        return None, f"{label} is out of {firer.id}'s range chart (or an X field)", "6.2"
    if has_field_of_fire(t, firer) and not in_field_of_fire(firer.hex, _facing(firer), h):
        return None, f"{label} is outside {firer.id}'s field of fire", "5.5"
    los = line_of_sight(st.board, rs.policy, firer.hex, h, smoke(st))
    if not los.visible:
        return None, f"no line of sight to {label}: {los.reason}", los.rule or "5.1"
    text = f"open fire at the structure in {label}: {firer.id}, {dice} dice hitting on {_clamp(t, acc)} or less"
    return Attack(firer.id, label, dice, _clamp(t, acc), text, _mods(mods)), "", ""


def location_attacks(rs: Rules, st: GameState, firer: Unit, h: Hex) -> tuple[list[Attack], str, str]:
    """6.9: a fire test at every enemy unit in the hex (first row) and, for two-row cards, in the hexes next to
    it (second row, same accuracy); hidden units and concealed HQs are hit, units in close combat are not.

    Returns the attacks (possibly none) or, when the order cannot be carried out, an empty list with the reason.
    """
    t = rs.tables
    c = card(t, firer)
    if firer.hex is None:
        return [], "the firer is not on the board", "6.9"
    label = st.board.label(h)
    if t.terrain[st.board.terrain(h)].no_normal_fire:
        return [], f"{label} is woods: fire at location cannot target it", "10.5"
    if t.terrain[st.board.terrain(firer.hex)].no_normal_fire:
        return [], f"{firer.id} stands in woods: no normal attacks out of woods", "10.5"
    acc, _mods = accuracy_at(rs, st, firer, h)
    if acc is None:
        return [], f"{label} is out of {firer.id}'s range chart (or an X field)", "6.2"
    if has_field_of_fire(t, firer) and not in_field_of_fire(firer.hex, _facing(firer), h):
        return [], f"{label} is outside {firer.id}'s field of fire", "5.5"
    penalty = 0
    if not line_of_sight(st.board, rs.policy, firer.hex, h, smoke(st)).visible:
        if not c.has("indirect_fire"):
            return [], f"no line of sight to {label}", "5.1"
        hq = any(
            x.side == firer.side and is_on_board(x) and card(t, x).has("hq") and not status(x).suppressed
            for x in st.units.values()
        )
        seen = any(
            x.side == firer.side and is_on_board(x) and x.hex is not None and x.id != firer.id
            and line_of_sight(st.board, rs.policy, x.hex, h, smoke(st)).visible
            for x in st.units.values()
        )  # fmt: skip
        seen = seen or recon_observes(rs, st, firer.side, h)
        if not (hq and seen):
            return [], "indirect fire needs an unsuppressed HQ and an observer who sees the hex", "6.8"
        penalty = c.indirect_penalty
    accuracy = _clamp(t, acc)
    out: list[Attack] = []
    for x in sorted(st.units.values(), key=lambda v: v.id):
        if x.side == firer.side or not is_on_board(x) or x.hex is None or in_close_combat(st, x):
            continue
        if x.hex == h:
            table = c.firepower
        elif x.hex in h.neighbours() and c.adjacent_firepower:
            if t.terrain[st.board.terrain(x.hex)].no_normal_fire:
                continue  # units in adjacent woods are immune (6.9 PROPOSED)
            table = c.adjacent_firepower
            penalty_here = 0  # the indirect penalty applies to the target row only (12.3: BM-13)
        else:
            continue
        row = t.target_row(card(t, x).type)
        col = table.get(row)
        if not col:
            continue
        dice = col[min(losses(t, firer), len(col) - 1)]
        if x.hex == h:
            penalty_here = penalty
        dice = max(int(t.rules["fire"]["minimum_dice"]), dice - penalty_here) if dice else 0
        if dice:
            text = f"fire at location {label}: {firer.id} at {x.id}, {dice} dice hitting on {accuracy} or less"
            out.append(Attack(firer.id, x.id, dice, accuracy, text))
    return out, "", ""


def roll_attack(tr: Transition, tables: Tables, attack: Attack) -> tuple[int, int]:
    """Roll a fire test (6.1 steps 4–7); return (hits, misses)."""
    if attack.dice <= 0:
        return 0, 0
    values = tr.roll(int(tables.rules["die_sides"]), attack.dice, attack.purpose, pool=attack.accuracy)
    hits = sum(1 for v in values if v <= attack.accuracy)
    tr.emit(
        "hits",
        f"{attack.firer} scores {hits} hit{'s' if hits != 1 else ''} on {attack.target}",
        firer=attack.firer,
        target=attack.target,
        hits=hits,
        mods=[[v, r] for v, r in attack.modifiers],
    )
    return hits, attack.dice - hits


def defence_now(
    rs: Rules, st: GameState, u: Unit, role: str | None = None, flank: bool = False
) -> tuple[int, list[Modifier]]:
    """The unit's current defence value (6.3): base + modifiers in force − hits absorbed this round.

    ``role`` is ``assaulter`` or ``defender`` in close combat (7.5): assaulters get no terrain or hill modifier.
    """
    t = rs.tables
    c = card(t, u)
    s = status(u)
    mods: list[Modifier] = []
    active = data(st).active
    order = active.get(u.id) if active is not None else None
    if (s.ongoing is not None and s.ongoing.kind == "entrench") or (order is not None and order.kind == "entrench"):
        return 0, [Modifier(-c.defence, "entrenching: defence 0 (rule 6.3)")]
    if not s.suppressed:
        if s.bonus:
            mods.append(Modifier(s.bonus, f"{s.bonus_from or 'order'} bonus (rule 6.3)"))
        if u.hex is not None and role != "assaulter":
            tc = t.terrain[st.board.terrain(u.hex)]
            td = tc.defence_for(c.type)
            if td:
                mods.append(Modifier(td, f"{tc.name} (rule 10)"))
            if role == "defender" and st.board.level(u.hex) >= 1:
                mods.append(Modifier(int(t.hills.get("assaulted_defence", 1)), "assaulted on a hill (rule 10.11)"))
            if s.in_dugout:
                mods.append(Modifier(int(t.fortifications["dugout"]["defence"]), "in a dugout (rule 9.18.6)"))
            elif s.entrenched and not s.flanked:
                mods.append(Modifier(int(t.fortifications["trench"]["defence"]), "in a trench (rule 9.18.5)"))
    if s.absorbed:
        mods.append(Modifier(-s.absorbed, "hits absorbed earlier this round (rule 6.3)"))
    return max(0, c.defence + sum(m.value for m in mods)), mods


def destroy(tr: Transition, st: GameState, u: Unit, why: str) -> None:
    """Remove a destroyed unit (8.5); its passengers survive in its hex with their own losses."""
    at = hex_label_of(st, u)
    s = status(u)
    tr.emit("destroyed", f"{u.id} is destroyed at {at} ({why})", unit=u.id)
    for pid in list(s.carrying):
        p = st.units[pid]
        status(p).carried_by = None
        if p.steps > 0:
            p.hex = u.hex
            tr.emit("dismount", f"{pid} survives its transport and stands in {at} (rule 8.5)", unit=pid)
    s.carrying = ()
    u.steps = 0
    u.hex = None
    s.defend = None
    s.bound = False
    s.role = None
    s.pending = False
    s.fof = False
    s.bonus = 0
    active = data(st).active
    if active is not None:
        active.pop(u.id, None)


def morale_bonus(rs: Rules, st: GameState, u: Unit) -> Modifier | None:
    """9.11 Morale: +2 within a friendly HQ's command range and with LOS to it (the HQ itself included)."""
    if u.hex is None:
        return None
    t = rs.tables
    for hq in st.units.values():
        c = card(t, hq)
        if hq.side != u.side or not c.has("morale") or not is_on_board(hq) or hq.hex is None:
            continue
        if distance(hq.hex, u.hex) <= c.command_range and (
            hq.hex == u.hex or line_of_sight(st.board, rs.policy, u.hex, hq.hex, smoke(st)).visible
        ):
            return Modifier(int(t.rules["hq"]["morale_bonus"]), f"HQ {hq.id} morale (rule 9.11)")
    return None


def bravery_target(rs: Rules, st: GameState, u: Unit) -> tuple[int, list[Modifier]]:
    """The number 2d6 must not exceed (8.2), with the HQ bonus checked now."""
    mods: list[Modifier] = []
    hq = morale_bonus(rs, st, u)
    if hq is not None:
        mods.append(hq)
    return current_bravery(rs.tables, u) + sum(m.value for m in mods), mods


def bravery_test(rs: Rules, tr: Transition, st: GameState, u: Unit, why: str) -> bool:
    """Roll 2d6 ≤ current bravery (8.2); a failure suppresses the unit at once (8.3). Returns True if passed.

    An already suppressed unit does not test (8.3 PROPOSED).
    """
    s = status(u)
    if u.steps <= 0 or s.suppressed:
        s.pending = False
        return False
    target, mods = bravery_target(rs, st, u)
    dice = int(rs.tables.rules["bravery_dice"])
    values = tr.roll(
        int(rs.tables.rules["die_sides"]),
        dice,
        f"bravery test of {u.id} ({why}, rule 8.2)",
        target=target,
        modifiers=(),
        shifts=mods,
    )
    s.pending = False
    passed = sum(values) <= target
    tr.emit("bravery", f"{u.id} {'passes' if passed else 'fails'} its bravery test", unit=u.id, passed=passed)
    if not passed:
        suppress(tr, st, u)
    return passed


def recovery_test(rs: Rules, tr: Transition, st: GameState, u: Unit) -> bool:
    """8.3 step 12: a flag-marked unit tests; a pass erases the flag and the Suppressed mark."""
    target, mods = bravery_target(rs, st, u)
    values = tr.roll(
        int(rs.tables.rules["die_sides"]),
        int(rs.tables.rules["bravery_dice"]),
        f"recovery test of {u.id} (rule 8.3)",
        target=target,
        shifts=mods,
    )
    passed = sum(values) <= target
    if passed:
        s = status(u)
        s.suppressed = False
        s.flag = False
        tr.emit("recovered", f"{u.id} recovers: no longer suppressed (rule 8.3)", unit=u.id)
    else:
        tr.emit("bravery", f"{u.id} stays suppressed for another round (rule 8.3)", unit=u.id, passed=False)
    return passed


def suppress(tr: Transition, st: GameState, u: Unit) -> None:
    """8.3: Suppressed at once; its orders for the round are cancelled (a withdrawal still moves, 7.8), every
    defence bonus is gone; a time-box order loses its progress (2.7); passengers are suppressed too."""
    s = status(u)
    s.suppressed = True
    s.bonus = 0
    s.fof = False
    s.defend = None
    s.ongoing = None
    s.bonus_from = None
    active = data(st).active
    if active is not None and u.id in active and not active[u.id].withdrawal:
        active.pop(u.id)
    tr.emit("suppressed", f"{u.id} is suppressed: its orders are cancelled (rule 8.3)", unit=u.id)
    for pid in list(s.carrying):
        p = st.units[pid]
        ps = status(p)
        if not ps.suppressed:
            ps.suppressed = True
            tr.emit("suppressed", f"{pid} aboard {u.id} is suppressed with it (rule 8.3)", unit=pid)
        if ps.towed:  # 9.9: no longer towed; the model goes back on the board, not deployed
            ps.towed = False
            ps.carried_by = None
            ps.deployed = False
            s.carrying = tuple(p for p in s.carrying if p != pid)
            tr.emit("tow", f"{pid} is no longer towed and stands in {u.hex} (rule 9.9)", unit=pid)


def _binomial(n: int, p: Fraction) -> list[Fraction]:
    return [Fraction(math.comb(n, k)) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]


def fire_odds(rs: Rules, st: GameState, action: Any, attack: Attack, target: Unit) -> Odds:
    """Exact odds of losses from one fire test against the target's defence now (6.1, 6.3)."""
    sides = int(rs.tables.rules["die_sides"])
    p = Fraction(max(0, min(sides, attack.accuracy)), sides)
    defence, _ = defence_now(rs, st, target)
    dist: dict[int, Fraction] = {}
    for hits, q in enumerate(_binomial(attack.dice, p)):
        lost = min(target.steps, max(0, hits - defence))
        dist[lost] = dist.get(lost, Fraction(0)) + q
    entries = tuple(
        OddsEntry(
            "no loss" if k == 0 else ("destroyed" if k >= target.steps else f"{k} loss{'es' if k > 1 else ''}"),
            q,
            float(k),
        )
        for k, q in sorted(dist.items())
        if q > 0
    )
    return Odds(action, entries, note=f"{attack.dice} dice hitting on {attack.accuracy} or less, defence {defence}")
