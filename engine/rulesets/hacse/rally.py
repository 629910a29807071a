"""Provides the morale rules that need the whole state (§9.2, §9.3, §9.5): leaders in the roll, the End Phase's
leader-contact roll, and the movement of shaken units.

- Leaders (§9.2 P): a unit has contact to a leader when its own group leader's row is intact, or it can communicate
  directly (§10.1) with a friendly unit holding an intact company leader (trait ``company_leader``). The scenarios
  form no platoons; INTERP: each unit is a platoon of one, so its group leader is its platoon leader (§9.4 P: a
  unit that contains its platoon leader counts as in communication with him). Without contact its morale value
  takes −4 (§9.4); with its group leader and contact to a company leader, +4 (§9.4 "full chain").
- The leader-contact roll (§9.3, 3.2 Phase 4 step 3): every unit on the map without contact to any leader rolls
  morale in the End Phase.
- Shaken units (§9.5 P) may move only away from the enemy: each hex entered is farther from the nearest enemy unit
  its side has sighted than the hex left (:func:`away_refusal`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.hexgrid import Hex, distance
from engine.rules import Transition
from engine.state import GameState, Unit

from .communication import can_communicate, party
from .data import Tables
from .model import status
from .movement import Refused

__all__ = ["Leadership", "away_refusal", "leader_contact_rolls", "leadership", "nearest_enemy"]


@dataclass(frozen=True, slots=True)
class Leadership:
    """What §9.2 and §9.4 ask of a unit's leaders: contact to any leader, and the full chain for +4."""

    contact: bool
    full_chain: bool


def _leader_intact(tables: Tables, unit: Unit) -> bool:
    row = tables.sheets[unit.type].leader_row
    return row is not None and row.index not in status(unit).rows_hit


def _company_leaders(st: GameState, tables: Tables, unit: Unit) -> list[Unit]:
    return [
        u
        for u in sorted(st.units.values(), key=lambda u: u.id)
        if u.side == unit.side
        and u.hex is not None
        and not status(u).destroyed
        and "company_leader" in tables.sheets[u.type].traits
        and _leader_intact(tables, u)
    ]


def leadership(st: GameState, tables: Tables, unit: Unit) -> Leadership:
    """The unit's leaders (§9.2 P, §9.4): see the module's docstring."""
    own = _leader_intact(tables, unit)
    if unit.hex is None:
        return Leadership(contact=own, full_chain=False)
    me = party(st, tables, unit)
    company = any(
        c.id == unit.id or can_communicate(me, party(st, tables, c)) is None for c in _company_leaders(st, tables, unit)
    )
    return Leadership(contact=own or company, full_chain=own and company)


def leader_contact_rolls(
    tr: Transition, tables: Tables, roll_morale: Callable[[Transition, Tables, Unit], None]
) -> None:
    """3.2 Phase 4 step 3 (§9.3): every unit on the map without contact to any leader rolls morale (at −4, §9.4).

    ``roll_morale(tr, tables, unit)`` makes the roll (``attack.roll_morale``; passed in to keep the imports one
    way)."""
    st = tr.state
    for u in sorted(st.units.values(), key=lambda u: u.id):
        s = status(u)
        if u.hex is None or s.destroyed or s.embarked_in or leadership(st, tables, u).contact:
            continue
        tr.emit("morale", f"{u.id} has no contact to any leader and rolls morale (rule 9.3)", unit=u.id)
        roll_morale(tr, tables, u)


def nearest_enemy(st: GameState, unit: Unit, at: Hex) -> int | None:
    """The distance from ``at`` to the nearest enemy unit on the map that ``unit``'s side has sighted (6.1), or None
    when its side knows of none."""
    known = {e for u in st.units.values() if u.side == unit.side for e in status(u).sighted}
    dists = [
        distance(at, e.hex)
        for e in st.units.values()
        if e.id in known and e.hex is not None and not status(e).destroyed and e.side != unit.side
    ]
    return min(dists) if dists else None


def away_refusal(st: GameState, unit: Unit, frm: Hex, to: Hex) -> Refused | None:
    """§9.5 P: a shaken unit may enter a hex only if it is farther from the nearest known enemy than the hex it
    leaves; with no enemy known it may not move at all (there is no 'away')."""
    if not status(unit).shaken:
        return None
    before = nearest_enemy(st, unit, frm)
    if before is None:
        return Refused(f"Cannot move: {unit.id} is shaken and may only move away from a known enemy", "9.5")
    after = nearest_enemy(st, unit, to)
    if after is not None and after <= before:
        label = st.board.label(to)
        return Refused(f"Cannot move: {unit.id} is shaken and {label} is not farther from the enemy", "9.5")
    return None
