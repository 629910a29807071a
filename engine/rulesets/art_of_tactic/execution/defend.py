"""Provides step 1 of the Execution Phase: Defend (3.6) takes effect: ammunition for its one shot, the field of fire
facing the hex written, the defence bonus, a dugout (9.18.6) or trench (9.18.5) occupied."""

from __future__ import annotations

from ..gamedata import data
from ..model import card
from ..records import DefendZone, status
from ..sight import facing_of
from .common import can_act, ordered, step
from .machine import Run

__all__ = ["run_step"]


def run_step(x: Run) -> None:
    """Step 1: Defend."""
    rs, st, tr = x.rs, x.st, x.tr
    t = rs.tables
    structures = data(st).structures
    step(rs, tr, 1, "Defend")
    for u, o in ordered(rs, st, {"defend"}):
        if not can_act(u):
            continue
        assert u.hex is not None and o.facing_hex is not None and o.range is not None
        s = status(u)
        cost = int(t.rules["ammo"]["defend"])
        armed = s.ammo >= cost
        if armed:
            s.ammo -= cost
        s.facing = facing_of(u.hex, o.facing_hex)
        s.fof = True
        s.bonus = card(t, u).order("defend", "bonus")
        s.bonus_from = "Defend"
        # 15.2 item 4 PROPOSED: a prefer-CLASS policy (public once revealed).
        s.defend = DefendZone(o.range, used=False, armed=armed, policy=o.policy)
        c = card(t, u)
        may_use = c.type == "INF" and (not c.can_order("deploy") or c.has("machine_gun"))
        inside = [v for v in st.units.values() if status(v).in_dugout and v.hex == u.hex and v.id != u.id]
        dugout = structures.dugouts.get(u.hex)
        label = st.board.label(u.hex)
        if dugout is not None and may_use and len(inside) < 2:
            s.in_dugout = True
            s.facing = dugout.facing  # occupants get the dugout's field of fire (PROPOSED)
            tr.emit("defend", f"{u.id} occupies the dugout in {label} (rule 9.18.6)", unit=u.id)
        trench = structures.trenches.get(u.hex)
        if trench is not None and (c.type != "ART" or s.deployed is not False):
            s.entrenched = True
            s.facing = trench  # occupants face the trench's hexside (9.18.5 PROPOSED)
        hexes = "hex" if o.range == 1 else "hexes"
        tr.emit("defend", f"{u.id} defends facing {st.board.label(o.facing_hex)} up to {o.range} {hexes}"
                + (f", policy {o.policy} (rule 15.2)" if o.policy else "")
                + ("" if armed else " (no ammunition: it cannot fire, rule 3.6)"), unit=u.id)  # fmt: skip
