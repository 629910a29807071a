"""Provides hiding again in the End Phase (3.2 Phase 4 step 9, 13.2 P) as the owner's choice.

After the smoke markers (step 8) each side, the initiative loser first, is asked about its units that may hide
again: on the map, not carried or towed, not hidden, in a hex where they may hide (infantry anywhere, guns and
vehicles in the terrain classes of their sheet's ``hide_in``), that did not fire this turn and that no enemy unit
it knows of has sighted. ``hide UNIT`` hides one of them (the side is asked again about the others); ``stay``
leaves the others in the open. A side with no such unit is not asked. The program never chooses for a player; the
AI chooses among the same actions (``stay`` is a pass).

INTERP: "not sighted by any enemy unit" counts the enemy units the owner knows of (not hidden): a hidden enemy that
sees the unit would otherwise show itself by the choice not being offered. That enemy loses sight of it when it
hides (6.1: sight is lost when the target becomes hidden).
"""

from __future__ import annotations

from engine.actions import Action
from engine.rules import Transition
from engine.state import GameState, Unit

from .bridges import terrain_of
from .data import Tables
from .model import data, status
from .movement import Refused

__all__ = ["actions", "apply", "ask", "eligible", "refusal", "start", "why_not"]


def why_not(st: GameState, tables: Tables, unit: Unit) -> Refused | None:
    """Why ``unit`` may not hide again now (13.2 P), or None."""
    s = status(unit)
    if unit.hex is None or s.destroyed or s.embarked_in or s.towed_by:
        return Refused(f"Cannot hide: {unit.id} is not on the map by itself", "13.2")
    if s.hidden:
        return Refused(f"Cannot hide: {unit.id} is hidden already", "13.2")
    sheet = tables.sheets[unit.type]
    where = terrain_of(st, tables, unit.hex)
    if sheet.unit_type != "infantry" and where.key not in sheet.hide_in:
        return Refused(f"Cannot hide: a {sheet.unit_type} may not hide in {where.name}", "13.2")
    if s.fired_dk >= 0 or s.fired or s.opp_fired:
        return Refused(f"Cannot hide: {unit.id} fired this turn", "13.2")
    seen = next(
        (
            u.id
            for u in sorted(st.units.values(), key=lambda u: u.id)
            if u.side != unit.side and not status(u).hidden and unit.id in status(u).sighted
        ),
        None,
    )
    if seen is not None:
        return Refused(f"Cannot hide: {seen} has {unit.id} sighted", "13.2")
    return None


def eligible(st: GameState, tables: Tables, side: str) -> list[Unit]:
    """The side's units that may hide again now (13.2 P), by id."""
    return [
        u for u in sorted(st.units.values(), key=lambda u: u.id) if u.side == side and why_not(st, tables, u) is None
    ]


def start(tr: Transition, tables: Tables) -> bool:
    """Step 9 begins: ask the first side with a unit that may hide; True while a side is asked."""
    data(tr.state).hid = []
    return ask(tr, tables)


def ask(tr: Transition, tables: Tables) -> bool:
    """Ask the next side (the initiative loser first) that has a unit that may hide and has not answered; True if
    one is asked now, False when step 9's hiding is over."""
    st = tr.state
    d = data(st)
    first = d.first if d.first in st.sides else st.sides[0]
    for side in (first, *[s for s in st.sides if s != first]):
        if side in d.hid:
            continue
        if eligible(st, tables, side):
            d.hiding, st.to_act = side, side
            tr.emit("offer", f"{side} may hide units again: hide UNIT, or stay (rule 13.2)", (side,))
            return True
        d.hid.append(side)
    d.hiding = None
    return False


def actions(st: GameState, tables: Tables) -> list[Action]:
    """``hide UNIT`` for each unit of the side asked that may hide, then ``stay``."""
    side = data(st).hiding
    assert side is not None
    return [*(Action("hide", (u.id,)) for u in eligible(st, tables, side)), Action("stay", ())]


def refusal(st: GameState, tables: Tables, verb: str, uid: str | None) -> Refused | None:
    """Why ``hide`` or ``stay`` (or another verb while a side is asked) may not be played now, or None."""
    side = data(st).hiding
    if side is None:
        return Refused(f"Cannot {verb}: units hide again only in the End Phase, when asked", "13.2")
    if verb not in ("hide", "stay"):
        return Refused(f"Cannot {verb}: {side} is asked which of its units hide again (hide UNIT, or stay)", "13.2")
    if verb == "stay":
        return None
    unit = st.units.get(uid or "")
    if unit is None or unit.side != side:
        return Refused(f"Cannot hide: {uid} is not a unit of {side}", "13.2")
    return why_not(st, tables, unit)


def apply(tr: Transition, tables: Tables, verb: str, uid: str | None) -> bool:
    """Play ``hide UNIT`` or ``stay``; True when step 9's hiding is over (the End Phase goes on)."""
    st = tr.state
    d = data(st)
    side = d.hiding
    assert side is not None
    if verb == "hide":
        _hide(tr, st.units[uid or ""])
        if eligible(st, tables, side):
            return False
    else:
        tr.emit("stay", f"{side}'s other units stay in the open (rule 13.2)", (side,))
    d.hid.append(side)
    return not ask(tr, tables)


def _hide(tr: Transition, unit: Unit) -> None:
    """The unit hides: the enemy units that saw it lose sight of it (6.1); its side is told where, the other side
    only that a unit it knew is out of sight (13.2)."""
    st = tr.state
    status(unit).hidden = True
    for u in st.units.values():
        s = status(u)
        if u.side != unit.side:
            if unit.id in s.sighted:
                s.sighted.remove(unit.id)
            s.shared.pop(unit.id, None)
    assert unit.hex is not None
    tr.emit("hide", f"{unit.id} hides again at {st.board.label(unit.hex)} (rule 13.2)", (unit.side,), unit=unit.id)
    tr.emit("hide", f"{unit.id} hides (rule 13.2)", st.enemies_of(unit.side), unit=unit.id)
