"""Provides step 10 of the Execution Phase: movement (4.1–4.7) with Defend fire (3.6), Fire on the move (4.5) and
minefields (9.7), one hex a sub-step for every mover at once.

:class:`~..frames.Movement` keeps the step's sub-step: the paths left, the movers stopped, the hexes fire on the move
fires from, and which part of the sub-step runs. Mines exploding under a transport and the Defend target among the
movers (the defender's side decides, 3.6, 15.2) may wait for an answer.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from engine.hexgrid import Hex, distance
from engine.state import Unit

from ..combat import ranged_attack
from ..frames import Attack, HitEach, HitItem, MineAttack, MineEntry, Movement
from ..gamedata import data
from ..model import card, hex_label_of, is_on_board, smoke
from ..movement import obstacles
from ..records import status
from ..sight import in_field_of_fire
from .ambush import prefers
from .common import (
    active,
    by_side,
    can_act,
    carry_passengers,
    cross_wire,
    entry,
    ordered,
    reveal_adjacent,
    reveal_minefield,
    roll_all,
    step,
)
from .machine import Handler, Run

__all__ = ["HANDLERS", "run_movement", "start"]


def start(x: Run) -> None:
    """Step 10 begins: mounting and dismounting (4.6), the movers and their paths; the rest is a frame."""
    step(x.rs, x.tr, 10, "Movement")
    _mount_and_dismount(x)
    f = Movement()
    _paths(x, f)
    x.push(f)


def _mount_and_dismount(x: Run) -> None:
    """Sub-step 0: mount and dismount (4.6 PROPOSED)."""
    st, tr = x.st, x.tr
    orders = active(st)
    for u, o in ordered(x.rs, st, {"mount", "dismount"}):
        if u.steps <= 0 or u.hex is None:
            continue
        s = status(u)
        if o.kind == "mount" and not s.suppressed:
            tp = st.units.get(o.transport or "")
            if tp is None or not is_on_board(tp) or tp.hex != u.hex:
                tr.emit("order", f"{u.id} cannot mount: {o.transport} is not in its hex (rule 4.6)", unit=u.id)
                continue
            ts = status(tp)
            aboard = sum(st.units[p].steps for p in ts.carrying)
            if aboard + u.steps > tp.steps:
                tr.emit("order", f"{u.id} cannot mount: {tp.id} has no room (rule 4.6)", unit=u.id)
                continue
            s.carried_by = tp.id
            ts.carrying += (u.id,)
            tr.emit("mount", f"{u.id} mounts {tp.id} (rule 4.6)", unit=u.id)
        elif o.kind == "dismount" and s.carried_by is not None:
            tp = st.units[s.carried_by]
            to = orders.get(tp.id)
            if to is None or to.kind != "dismount" or s.suppressed:
                tr.emit("order", f"{u.id} stays aboard: {tp.id} has no Dismount order (rule 4.6)", unit=u.id)
                continue
            s.carried_by = None
            ts = status(tp)
            ts.carrying = tuple(p for p in ts.carrying if p != u.id)
            u.hex = tp.hex
            tr.emit(
                "dismount",
                f"{u.id} dismounts from {tp.id} in {st.board.label(tp.hex) if tp.hex else '?'} (rule 4.6)",
                unit=u.id,
            )


def _paths(x: Run, f: Movement) -> None:
    """The movers' paths (a suppressed unit moves only to withdraw, 7.8; smoke on its path keeps it where it is,
    3.9), the hexes fire on the move fires from (4.5), and the units in minefields at the start (9.7)."""
    st, tr = x.st, x.tr
    fog = smoke(st)
    for u, o in ordered(x.rs, st, {"cautious", "march", "fire_on_move"}):
        s = status(u)
        if u.steps <= 0 or u.hex is None or (s.suppressed and not o.withdrawal):
            continue
        if fog & set(o.path):
            tr.emit("move", f"{u.id} does not move: smoke lies on its path (rule 3.9)", unit=u.id)
            continue
        f.paths[u.id] = list(o.path)
        if o.kind == "fire_on_move":
            assert o.fire_hex is not None
            f.firing[u.id] = o.fire_hex
        if o.withdrawal:
            s.bound = False
            s.bound_to = None
    f.started = {m: st.units[m].hex for m in f.paths}
    f.todo = [u.id for side in x.rs.tables.sides for u in st.units.values() if u.side == side]


def run_movement(x: Run, f: Movement) -> None:
    """4.1, 4.7: simultaneous 1-hex sub-steps; Defend fire when a mover enters a defended zone (3.6)."""
    st = x.st
    if f.stage == "mines":
        if not _mines_at_start(x, f):
            return
        f.ready = [m for m in f.firing if st.units[m].hex == f.firing[m]]
        f.stage = "fire"
    while True:
        if f.stage == "fire":
            if _fire_on_the_move(x, f):
                f.stage = "fired"
                return
            f.stage = "move"
        elif f.stage == "fired":
            f.stopped.update(x.returned())
            f.stage = "move"
        if f.stage == "move":
            if not any(f.paths[m] for m in f.paths if m not in f.stopped) or f.k > 30:
                break
            _sub_step(x, f)
            f.stage = "mined"
        if f.stage == "mined":
            if not _mine_entries(x, f):
                return
            f.todo = [u.id for side in x.rs.tables.sides for u in st.units.values() if u.side == side]
            f.attacks = []
            f.stage = "defend"
        if f.stage == "defend":
            if not _defend_fire(x, f):
                return
            items = _hits(x, roll_all(x.tr, x.rs.tables, f.attacks), "defend fire")
            f.attacks = []
            if items:
                x.push(HitEach(items, "test", "hit by defend fire, rule 3.6"))
                f.stage = "defended"
                return
            f.stage = "next"
        elif f.stage == "defended":
            f.stopped.update(x.returned())
            f.stage = "next"
        if f.stage == "next":
            f.ready = [m for m in f.entered if f.firing.get(m) == st.units[m].hex]
            f.stage = "fire"
    x.done(f)


def _mines_at_start(x: Run, f: Movement) -> bool:
    """9.7: a unit starting in a mined hex moves one hex at most and the mines explode before it leaves; an
    engineer standing in a detected minefield with any order but Clear mines (or none, if it could get one) is
    attacked (PROPOSED: at the start of step 10). False while an explosion waits for a decision."""
    st = x.st
    fields = data(st).minefields
    orders = active(st)
    while f.todo:
        u = st.units[f.todo.pop(0)]
        if not is_on_board(u) or u.hex is None:
            continue
        field = fields.get(u.hex)
        if field is None:
            continue
        if card(x.rs.tables, u).has("engineer"):
            o = orders.get(u.id)
            s = status(u)
            could_order = not s.flag and not s.no_order
            real = field.revealed and field.kind != "dummy"
            if real and could_order and (o is None or o.kind != "clear_mines"):
                x.push(MineAttack(u.id, u.hex))
                return False
            continue
        if u.id in f.paths:
            f.paths[u.id] = f.paths[u.id][:1]
            if reveal_minefield(x.tr, u.hex):
                x.push(MineAttack(u.id, u.hex))
                return False
    return True


def _fire_on_the_move(x: Run, f: Movement) -> bool:
    """4.5: the shot from the underlined hex (1 ammunition, firepower − the printed penalty, at least 1 die) of the
    movers in ``f.ready``; the shots of one sub-step are simultaneous; a hit target tests bravery at once and stops
    if it fails. True if their hits are being applied (a frame)."""
    rs, st, tr = x.rs, x.st, x.tr
    t = rs.tables
    orders = active(st)
    attacks: list[Attack] = []
    for m in by_side(rs, st, f.ready):
        u = st.units[m]
        o = orders.get(m)
        f.firing.pop(m, None)
        if o is None or not can_act(u):
            continue
        s = status(u)
        s.ammo = max(0, s.ammo - int(t.rules["ammo"]["fire_on_move"]))
        assert o.target is not None
        target = st.units[o.target]
        attack, reason, rule = ranged_attack(rs, st, u, target, "fire on the move", "fire")
        if attack is None:
            tr.emit("order", f"{m}'s fire on the move is lost: {reason} (rule {rule}); ammunition spent", unit=m)
            continue
        penalty = card(t, u).order("fire_on_move", "penalty")
        dice = max(int(t.rules["fire"]["minimum_dice"]), attack.dice - penalty)
        attack.modifiers.append((dice - attack.dice, "fire on the move (rule 4.5)"))
        attack.purpose = attack.purpose.replace(f"{attack.dice} dice", f"{dice} dice")
        attack.dice = dice
        attacks.append(attack)
    f.ready = []
    items = _hits(x, roll_all(tr, t, attacks), "fire on the move")
    if not items:
        return False
    x.push(HitEach(items, "test", "hit by fire on the move, rule 4.5"))
    return True


def _hits(x: Run, hits: dict[str, int], cause: str) -> list[HitItem]:
    """The hits of a sub-step's fire, side by side (the first side first, then by id), those that hit."""
    return [HitItem(tid, hits[tid], cause) for tid in by_side(x.rs, x.st, hits) if hits[tid] > 0]


def _sub_step(x: Run, f: Movement) -> None:
    """4.7: every mover not stopped steps into the next hex of its path at once; a mover meeting the enemy (in
    the hex, entering it, or swapping with it) stops before it; a destroyed bridge stops it (9.18.2)."""
    rs, st, tr = x.rs, x.st, x.tr
    f.k += 1
    snap = {uid: u.hex for uid, u in st.units.items() if is_on_board(u)}
    nxt = {m: p[0] for m, p in f.paths.items() if p and m not in f.stopped and st.units[m].steps > 0}
    orders = active(st)
    closed = obstacles(st).closed
    f.entered = []
    for m, h in sorted(nxt.items()):
        u = st.units[m]
        o = orders.get(m)
        if status(u).suppressed and not (o is not None and o.withdrawal):
            f.stopped.add(m)
            continue
        enemy_here = any(st.units[v].side != u.side and hh == h for v, hh in snap.items())
        clash = any(st.units[v].side != u.side and hh == h for v, hh in nxt.items() if v != m)
        swap = any(st.units[v].side != u.side and snap.get(v) == h and hh == u.hex for v, hh in nxt.items())
        if enemy_here or clash or swap:
            tr.emit("move", f"{m} meets the enemy and stops before {st.board.label(h)} (rule 4.7)", unit=m)
            f.stopped.add(m)
            continue
        if h in closed:
            tr.emit("move", f"{m} stops: the bridge at {st.board.label(h)} is destroyed (rule 9.18.2)", unit=m)
            f.stopped.add(m)
            continue
        cross_wire(rs, tr, u, h)
        status(u).facing = entry(u.hex, h)
        u.hex = h
        f.paths[m] = f.paths[m][1:]
        carry_passengers(st, u)
        f.entered.append(m)
        tr.emit("move", f"{m} moves to {st.board.label(h)}", unit=m, hex=st.board.label(h))
    reveal_adjacent(rs, tr)
    f.todo = list(f.entered)


def _mine_entries(x: Run, f: Movement) -> bool:
    """9.7: a unit that entered a mined hex stops there; the mines explode (the frame may wait for a decision)."""
    st = x.st
    while f.todo:
        m = f.todo.pop(0)
        u = st.units[m]
        if u.hex is not None and u.hex in data(st).minefields:
            f.stopped.add(m)
            x.push(MineEntry(m))
            return False
    return True


def _defend_fire(x: Run, f: Movement) -> bool:
    """3.6: each armed Defend unit fires once at one eligible mover entering its zone this sub-step (the
    defender's side picks; preset: its policy, 15.2 item 4: the nearest, then by id; ``prefer-CLASS`` the nearest of
    that class first). False while a side decides."""
    st = x.st
    if not f.entered:
        f.todo = []
        return True
    while f.todo:
        d = st.units[f.todo[0]]
        shot = _defend_shot(x, f, d)
        if shot is False:
            return False
        f.todo.pop(0)
        if shot is not None:
            f.attacks.append(shot)
            dz = status(d).defend
            assert dz is not None
            dz.used = True
    return True


def _defend_shot(x: Run, f: Movement, d: Unit) -> Attack | Literal[False] | None:
    """The Defend fire of ``d`` at the movers of this sub-step: its attack, None if it does not fire, False while
    its side decides."""
    rs, st = x.rs, x.st
    dz = status(d).defend
    if dz is None or dz.used or not dz.armed or not can_act(d) or d.hex is None:
        return None
    facing = status(d).facing
    assert facing is not None
    started = f.started if f.k == 1 else {}
    cands: list[tuple[int, int, str]] = []
    for m in f.entered:
        mover = st.units[m]
        if mover.side == d.side or mover.hex is None or mover.steps <= 0:
            continue
        zone: list[Hex] = [mover.hex]
        first = started.get(m)
        if first is not None:
            zone.append(first)
        for h in zone:
            r = distance(d.hex, h)
            if 1 <= r <= dz.range and in_field_of_fire(d.hex, facing, h):
                # 15.2 item 4 PROPOSED: prefer-CLASS puts that class first, nearest first.
                cands.append((0 if prefers(rs, dz.policy, mover) else 1, r, m))
                break
    shots: list[tuple[int, str, Attack]] = []
    for _pref, r, m in sorted(cands):
        attack, _reason, _rule = ranged_attack(rs, st, d, st.units[m], "defend fire", "fire")
        if attack is not None:
            shots.append((r, m, attack))
            if d.side not in data(st).ask:
                break  # the preset needs only the first
    if not shots:
        return None
    # 3.6: "the defender must choose one of them"; preset: its policy, else the nearest, then by id (15.2).
    at = st.board.label(d.hex)
    chosen = x.decide(
        side=d.side,
        kind="defend",
        question=f"{d.id} on Defend at {at} fires once: at which mover?",
        rule="3.6",
        options=[(m, f"{m} at {hex_label_of(st, st.units[m])} (range {r})") for r, m, _a in shots],
        units=[d, *(st.units[m] for _r, m, _a in shots)],
    )
    if chosen is None:
        return False
    return next(a for _r, m, a in shots if m == chosen)


HANDLERS: Mapping[type, Handler] = {Movement: run_movement}
"""The frames of this module and their handlers."""
