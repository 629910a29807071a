"""Provides the Fire Phase's listing of a whole side kept from one decision to the next (DESIGN §11: ``legal_actions``
p95 ≤ 0.5 ms).

In the Fire Phase (3.2 Phase 3b) the sides take turns to fire a unit, and at each of its decisions a side lists the
shots of every unit it may still fire: about 1 ms in H-2, most of it the same as at its last decision. What one
unit's shots read is the state less the record of what the other units did with their own fire this phase
(:data:`SELF_ONLY`: the weapons each fired, its rounds spent, jams, its rapid fire, whether it ceased, the Dk it
fired at), and, unless the unit may fire indirectly (7), less :data:`FOR_INDIRECT` (whether an enemy unit fired,
7.4 precondition 3; the messages of 10.3). So a unit's actions are kept with a copy of everything else of the
state (:func:`_world`) and of the unit itself, and given again while both are equal (compared by value: a state
changed in place, as tests do, is seen as changed).

``CHECK``: lists afresh as well and raises when the kept listing differs (``PLANSPIEL_HACSE_CHECK_KEPT=1``;
``test_carryover.py`` turns it on for seeded playouts).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable
from dataclasses import fields
from operator import attrgetter
from typing import Any

from engine.actions import Action
from engine.state import GameState, Unit

from .artillery import indirect_mounts
from .data import Tables
from .model import Data, Status

__all__ = ["CHECK", "FOR_INDIRECT", "SELF_ONLY", "side_listing"]

CHECK = os.environ.get("PLANSPIEL_HACSE_CHECK_KEPT", "") not in ("", "0")

FOR_INDIRECT = ("sent", "received", "shared", "fired_dk_last")
"""Status fields of other units only indirect fire reads (with whether an enemy unit fired: ``fired_dk``)."""

SELF_ONLY = ("fired", "fire_done", "spent", "rapid", "jammed", "jam_turns", "used", "pool_jams", "fired_dk")
"""Status fields a unit's Fire Phase listing reads of that unit alone (they record its own fire)."""

_ALL = attrgetter(*(f.name for f in fields(Status)))
_OTHER = attrgetter(*(f.name for f in fields(Status) if f.name not in (*SELF_ONLY, *FOR_INDIRECT)))
_DATA = attrgetter(*(f.name for f in fields(Data)))

_NOW = threading.local()
"""``kept``: {(tables id, side): (world, for indirect fire, {unit id: (unit, actions)})}."""


def _unit(u: Unit) -> tuple[object, ...]:
    return (u.id, u.type, u.side, u.hex, u.steps, u.formation, _ALL(u.status))


def _world(st: GameState, tables: Tables) -> tuple[tuple[object, ...], tuple[object, ...]] | None:
    """What any unit's listing reads besides that unit, and what only indirect fire reads besides (7.4 precondition
    3: which enemy units fired; 10.3: the messages each unit sent and received, and the spotting they shared);
    None when the state is not HACSE's typed records."""
    if st.data.__class__ is not Data:
        return None
    side = st.to_act
    units: list[tuple[object, ...]] = []
    indirect: list[tuple[object, ...]] = []
    for u in st.units.values():
        s = u.status
        if s.__class__ is not Status:
            return None
        units.append((u.id, u.type, u.side, u.hex, u.steps, u.formation, _OTHER(s)))
        fired = u.side != side and max(s.fired_dk, s.fired_dk_last) >= 0
        indirect.append((fired, s.sent, s.received, s.shared))
    head = (id(tables), id(st.board), st.turn, st.phase, side, st.viewer, st.outcome)
    return (*head, tuple(units), _DATA(st.data)), tuple(indirect)


def side_listing(
    st: GameState, tables: Tables, units: Iterable[Unit], each: Callable[[GameState, Tables, Unit], list[Action]]
) -> list[Action]:
    """``each(st, tables, u)`` for every unit in ``units``, concatenated; a unit's answer is given again from the
    side's last listing when neither the unit nor anything else it reads (:func:`_world`) has changed since."""
    world = _world(st, tables)
    if world is None:
        return [a for u in units for a in each(st, tables, u)]
    store: dict[tuple[int, Any], Any] = getattr(_NOW, "kept", None) or {}
    _NOW.kept = store
    key = (id(tables), st.to_act)
    got = store.get(key)
    if got is None or got[0] != world[0]:  # kept from a copy, whose lists and dicts are nobody else's to change
        got = store[key] = [*(_world(st.clone(), tables) or ((), ())), {}]
    elif got[1] != world[1]:  # what only indirect fire reads changed: its units are listed afresh
        per = got[2]
        for uid in [uid for uid, (_, _, indirect) in per.items() if indirect]:
            del per[uid]
        got[1] = _world(st.clone(), tables)[1]  # type: ignore[index]
    per = got[2]
    out: list[Action] = []
    for u in units:
        me = _unit(u)
        entry = per.get(u.id)
        if entry is None or entry[0] != me:
            actions = each(st, tables, u)
            per[u.id] = (_unit(u.clone()), list(actions), bool(indirect_mounts(tables, u)))
        else:
            actions = list(entry[1])
            if CHECK:
                _check(st, tables, u, each, actions)
        out += actions
    return out


def _check(st: GameState, tables: Tables, u: Unit, each: Callable[..., list[Action]], kept: list[Action]) -> None:
    fresh = each(st, tables, u)
    if fresh != kept:
        raise AssertionError(f"kept Fire Phase listing of {u.id} differs from a fresh one: {kept} != {fresh}")
