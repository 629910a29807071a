"""Provides step 8 of the Execution Phase: Ambush fire (3.11) and the removal of barbed wire (9.10).

Infantry and artillery on Ambush hide now; each hidden ambusher fires once (+1 die, 1 ammunition) at one enemy
whose planned path enters its field of fire within range and sight (G5). The owner's reaction policy set at
planning picks the target, never a prompt (15.2 item 4: hidden information): ``first`` (the default) the nearest,
then by id; ``prefer-CLASS`` the nearest of that class it can attack, else as ``first``; ``hold`` never fires (the
unit stays hidden). A hit target tests at once; a failure cancels its move, even a withdrawal.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.hexgrid import Hex, distance
from engine.state import Unit

from ..combat import ranged_attack
from ..frames import AmbushStep, Attack, HitEach, HitItem
from ..gamedata import data
from ..model import Rules, card, policy_rows, smoke
from ..records import Order, status
from ..sight import in_field_of_fire, line_of_sight
from .common import active, by_side, can_act, hide, ordered, roll_all, unhide
from .machine import Handler, Run

__all__ = ["HANDLERS", "prefers", "run_ambush"]


def prefers(rs: Rules, policy: str | None, x: Unit) -> bool:
    """15.2 item 4: True if ``x``'s target row (3.1) is one the ``prefer-CLASS`` policy prefers."""
    return rs.tables.target_row(card(rs.tables, x).type) in policy_rows(rs.tables, policy)


def run_ambush(x: Run, f: AmbushStep) -> None:
    """Step 8: ambushers hide and fire (their hits tested at once), then engineers take wire off."""
    rs, st = x.rs, x.st
    if not f.fired:
        f.fired = True
        hits = _ambush_fire(x)
        items = [HitItem(tid, hits[tid], "ambush fire") for tid in by_side(rs, st, hits) if hits[tid] > 0]
        x.push(HitEach(items, "test", "hit by ambush fire, rule 3.11"))
        return
    orders = active(st)
    for tid in x.returned():
        orders.pop(tid, None)  # a failed test cancels the move, even a withdrawal
    _remove_wire(x)
    x.done(f)


def _target(rs: Rules, x: Run, u: Unit, o: Order, movers: list[tuple[Unit, Order]]) -> Attack | None:
    """The ambusher's attack at the mover its policy picks, measured to the first hex of the mover's path in its
    field of fire, range and sight (3.11, G5); None if there is none."""
    st = x.st
    here = u.hex
    facing = status(u).facing
    assert here is not None and facing is not None
    zone = status(u).ambush
    limit = zone.range if zone is not None else (o.range or 0)
    fog = smoke(st)
    best: tuple[int, str, Hex] | None = None
    liked: list[tuple[int, str, Hex]] = []
    for m, mo in movers:
        if m.side == u.side or m.hex is None:
            continue
        for h in mo.path:
            r = distance(here, h)
            if 1 <= r <= limit and in_field_of_fire(here, facing, h):
                seen = line_of_sight(st.board, rs.policy, here, h, fog).visible
                if seen and (best is None or (r, m.id) < best[:2]):
                    best = (r, m.id, h)
                if seen and prefers(rs, o.policy, m):
                    liked.append((r, m.id, h))
                break
    attack: Attack | None = None
    for _r, mid, h in sorted(liked):  # prefer-CLASS: the nearest of the class it can attack (15.2 item 4)
        attack, _reason, _rule = ranged_attack(rs, st, u, st.units[mid], "ambush fire", "ambush", at=h)
        if attack is not None:
            break
    if attack is None and best is not None:
        attack, _reason, _rule = ranged_attack(rs, st, u, st.units[best[1]], "ambush fire", "ambush", at=best[2])
    return attack


def _ambush_fire(x: Run) -> dict[str, int]:
    """3.11: the ambushers hide, then fire together; the hits per target."""
    rs, st, tr = x.rs, x.st, x.tr
    t = rs.tables
    for u, _o in ordered(rs, st, {"ambush"}):
        if can_act(u) and card(t, u).type in ("INF", "ART"):
            hide(st, tr, u)
    movers = [
        (m, mo) for m, mo in ordered(rs, st, {"cautious", "march", "fire_on_move"}) if can_act(m) or mo.withdrawal
    ]
    attacks: list[tuple[Unit, Attack]] = []
    for u, o in ordered(rs, st, {"ambush"}):
        s = status(u)
        if not can_act(u) or not s.hidden or u.hex is None or s.ammo < 1:
            continue
        if o.policy == "hold":
            continue  # 15.2 item 4: hold fire, stay hidden
        attack = _target(rs, x, u, o, movers)
        if attack is None:
            continue
        s.ammo -= int(t.rules["ammo"]["ambush"])
        attacks.append((u, attack))
    hits = roll_all(tr, t, [attack for _u, attack in attacks])
    for u, _attack in attacks:
        unhide(st, tr, u, "it fired from ambush (rule 3.11)")
    return hits


def _remove_wire(x: Run) -> None:
    """9.10: engineers in either hex of a wired hexside take the wire off in step 8."""
    st, tr = x.st, x.tr
    wire = data(st).structures.wire
    for u, o in ordered(x.rs, st, {"remove_wire"}):
        if not can_act(u) or u.hex is None:
            continue
        assert o.hex is not None
        pair = (u.hex, o.hex) if u.hex <= o.hex else (o.hex, u.hex)
        if pair in wire:
            wire.remove(pair)
            a, b = (st.board.label(h) for h in pair)
            tr.emit("structure", f"{u.id} removes the barbed wire {a}-{b} (rule 9.10)", unit=u.id)


HANDLERS: Mapping[type, Handler] = {AmbushStep: run_ambush}
"""The frames of this module and their handlers."""
