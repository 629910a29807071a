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
    st = tr.state
    if not tr.events:
        return
    owner = {u.id: u.side for u in st.units.values() if status(u).hidden}
    if not owner:
        return
    names: re.Pattern[str] | None = None
    for k, e in enumerate(tr.events):
        if e.kind == "hide":
            continue
        text = e.text
        named: set[str] = set()
        for i in owner:
            if i in text:  # the pattern only where an id is in the text at all (most lines name no hidden unit)
                names = names or _names(tuple(sorted(owner)))
                named = set(names.findall(text))
                break
        if e.data.get("unit") in owner:
            named.add(str(e.data["unit"]))
        if not named:
            continue
        before = st.sides if e.visible_to is None else e.visible_to
        readers = tuple(s for s in before if all(owner[n] == s for n in named))
        if readers != tuple(before):
            tr.events[k] = replace(e, visible_to=readers)


@lru_cache(maxsize=256)
def _names(ids: tuple[str, ...]) -> re.Pattern[str]:
    """The pattern of the hidden units' ids (longest first), made once for each set of them."""
    return re.compile(
        r"(?<![\w-])(" + "|".join(re.escape(i) for i in sorted(ids, key=len, reverse=True)) + r")(?![\w-])"
    )
