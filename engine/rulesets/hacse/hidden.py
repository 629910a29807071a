"""Provides the last word on what a side reads of hidden units (13.2): after an action, every event that names a
unit hidden at its end, by its id in the text or as the event's ``unit``, is withheld from the sides that do not
know that unit (everyone but its owner). The modules that emit events already tell a hidden unit's moves to its
side only; this catches the lines that do not (a hidden unit's cease, rally or morale roll, the check of a hidden
target), so that its existence never reaches the other side through a log or dice line.

Events of kind ``hide`` are left as they are: they tell the enemy that a unit it knew went out of its sight.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache

from engine.rules import Transition

from .model import status

__all__ = ["withhold"]


def withhold(tr: Transition) -> None:
    """Withhold from each side the events of this transition that name an enemy unit hidden now (13.2)."""
    events = tr.events
    if not events:
        return
    owner = {u.id: u.side for u in tr.state.units.values() if status(u).hidden}
    if not owner:
        return
    # Most lines name no hidden unit: one look at all the texts first, the pattern only where an id is in one.
    texts = "\n".join(e.text for e in events)
    names = _names(tuple(sorted(owner))) if any(i in texts for i in owner) else None
    sides = tr.state.sides
    for k, e in enumerate(events):
        if e.kind == "hide":
            continue
        unit = e.data.get("unit")
        holders: set[str] = set()
        if names is not None and any(i in e.text for i in owner):
            holders = {owner[n] for n in names.findall(e.text)}
        if unit in owner:
            holders.add(owner[unit])
        if not holders:
            continue
        before = sides if e.visible_to is None else e.visible_to
        # a line stays with a side only if every hidden unit it names is that side's own
        readers = tuple(s for s in before if len(holders) == 1 and s in holders)
        if readers != tuple(before):
            events[k] = replace(e, visible_to=readers)


@lru_cache(maxsize=256)
def _names(ids: tuple[str, ...]) -> re.Pattern[str]:
    """The pattern of the hidden units' ids (longest first), made once for each set of them."""
    return re.compile(
        r"(?<![\w-])(" + "|".join(re.escape(i) for i in sorted(ids, key=len, reverse=True)) + r")(?![\w-])"
    )
