"""Provides the bookkeeping of an activation that the unit actions, close combat and the sequence of play share:
the activation frame on the stack, a unit's action coming to its end (6.1, 7.3) and the activation's end (2.5).

This module sits below :mod:`.closecombat`, :mod:`.actions` and :mod:`.sequence`, which all finish actions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.rules import Transition
from engine.state import GameState, Unit

from . import movement
from .model import ActivationFrame, data, formation, status

if TYPE_CHECKING:
    from .model import Rules

__all__ = ["activation", "end_activation", "finish_action"]


def activation(st: GameState) -> ActivationFrame | None:
    """The activation frame under way (the topmost one on the stack), or None."""
    return next((x for x in reversed(data(st).frames) if isinstance(x, ActivationFrame)), None)


def finish_action(rs: Rules, tr: Transition, u: Unit) -> None:
    """6.1: the unit's action is over."""
    st = tr.state
    if u.hex is not None and status(u).moving and not movement.stacking_ok(rs.tables, st, u.hex, []):
        # 7.3 [P]: a unit stopped in a full hex it was passing through (say, neutralised by opportunity fire)
        # is displaced like a retreat (6.3.3): by the shortest way to the nearest hex where stacking is legal.
        path = movement.retreat_path(rs.tables, st, u)
        if path:
            u.hex = path[-1]
            if status(u).carrying:
                st.units[str(status(u).carrying)].hex = u.hex
            label = st.board.label(u.hex) if u.hex is not None else "off map"
            tr.emit("move", f"{u.id} cannot stay in a full hex and is displaced to {label} (rule 7.3)")
    status(u).moving = None
    status(u).column = False
    status(u).acted = True
    act = activation(tr.state)
    if act is not None and any(formation(tr.state, fid).demoralised for fid in act.formations):
        act.ending = True  # 8.5.1 [P]: the activation ends after the acting unit's action


def end_activation(rs: Rules, tr: Transition, f: ActivationFrame) -> None:
    """2.5 step 7: count the activation; the second one exhausts the formation (5.3)."""
    st = tr.state
    data(st).frames.remove(f)
    for fid in f.formations:
        rec = formation(st, fid)
        rec.acts += 1
        if rec.acts >= 2 and not rec.exhausted:
            rec.exhausted = True
            tr.emit("exhaustion", f"{rec.name} has been activated twice this turn and is exhausted (rule 5.3)")
    for u in st.units.values():
        status(u).acted = False
        status(u).moving = None
    tr.emit("activate", f"{f.side.title()}'s activation ends")
