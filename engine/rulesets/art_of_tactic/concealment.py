"""Provides a concealed HQ as the other side knows it (9.11, 15.1): an unidentified unit on the map.

Reading of the digest (9.11: "the model of a concealed HQ is not taken off the board"; PROPOSED: "the opponent's
UI shows the concealed HQ's hex as occupied by an unidentified unit that cannot be targeted individually";
15.1: "a concealed HQ's identity" is the owner's secret until found): the HQ's hex is public, which unit stands
there is not. While an HQ is concealed and alive, the other side knows it only as ``<side>-unidentified-N``
(N counts the side's cards with concealment, by id): in its view (:func:`hide_concealed`: no card, size, status
or order, only the hex, and the Ambush hiding of 3.11 on top) and in every event it may read
(:func:`word_events`: an event naming the HQ goes in full to its owner, and to the other side with the HQ's
unidentified name). Once the HQ is found (by adjacency, Reconnoitre or a recon aircraft) or destroyed, its name
is public again; concealed again (9.11, step 12) it becomes the unidentified unit once more.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.events import Event
from engine.rules import Transition
from engine.state import GameState, Unit
from engine.typed import from_plain, to_plain

from .gamedata import AotData, data
from .model import UNIDENTIFIED, Rules
from .records import AotStatus, status

__all__ = ["UNIDENTIFIED", "aliases", "hide_concealed", "word_events"]


def aliases(rs: Rules, st: GameState) -> dict[str, str]:
    """Every concealed HQ alive in the full state ``st``: its id → the name the other side knows it by."""
    out: dict[str, str] = {}
    count: dict[str, int] = {}
    for u in st.units.values():  # in id order (engine.state)
        c = rs.tables.units.get(u.type)
        if c is None or not c.has("concealment"):
            continue
        count[u.side] = count.get(u.side, 0) + 1
        if status(u).concealed and u.steps > 0:
            out[u.id] = f"{u.side}-unidentified-{count[u.side]}"
    return out


def _pattern(names: Mapping[str, str]) -> re.Pattern[str]:
    """The ids as whole words (an id is letters, digits and hyphens); an "HQ " written before one goes too."""
    ids = "|".join(re.escape(k) for k in sorted(names, key=len, reverse=True))
    return re.compile(rf"(?:\bHQ )?(?<![\w-])({ids})(?![\w-])")


def _rename(value: Any, names: Mapping[str, str], pattern: re.Pattern[str]) -> Any:
    """``value`` (plain data) with every id of ``names`` replaced by its name, in keys, values and sentences."""
    if isinstance(value, str):
        return pattern.sub(lambda m: names[m.group(1)], value) if value else value
    if isinstance(value, dict):
        return {_rename(k, names, pattern): _rename(v, names, pattern) for k, v in value.items()}
    if isinstance(value, list):
        return [_rename(v, names, pattern) for v in value]
    if isinstance(value, tuple):
        return tuple(_rename(v, names, pattern) for v in value)
    return value


def hide_concealed(rs: Rules, full: GameState, v: GameState, side: str) -> None:
    """9.11, 15.1: in ``side``'s view ``v`` each concealed enemy HQ is an unidentified unit in its hex (off the
    map while hidden in Ambush, 3.11), with no card, size, status or order; nothing in the view names it."""
    names = {uid: a for uid, a in aliases(rs, full).items() if full.units[uid].side != side}
    if not names:
        return
    pattern = _pattern(names)
    active = data(v).active
    if active is not None:
        for uid in names:
            active.pop(uid, None)  # its revealed order (2.4) would name it
    units: dict[str, Unit] = {}
    for uid, u in v.units.items():
        alias = names.get(uid)
        if alias is None:
            if _names_any(_status_names(status(u)), names):
                u.status = from_plain(AotStatus, _rename(to_plain(u.status), names, pattern))
            units[uid] = u
            continue
        # What the other side sees of it: hidden in Ambush (3.11), aboard a visible transport (4.6).
        known = status(full.units[uid])
        carrier = _rename(known.carried_by, names, pattern) if known.carried_by else None
        seen = AotStatus(concealed=True, unidentified=True, hidden=known.hidden, carried_by=carrier)
        units[alias] = Unit(alias, UNIDENTIFIED, u.side, u.hex, 1, None, seen)
    v.units = dict(sorted(units.items()))
    if _names_any(_data_names(data(v)), names):
        v.data = from_plain(AotData, _rename(to_plain(data(v)), names, pattern))


def _status_names(s: AotStatus) -> tuple[object, ...]:
    """The fields of a unit's status that name other units (its transport, passengers, close-combat foe, the unit
    it merged into, the aircraft it escorts or the paratroopers it carries, its supply partner)."""
    air, ongoing = s.air, s.ongoing
    return (
        s.carried_by,
        s.carrying,
        s.bound_to,
        s.merged_into,
        None if air is None else (air.escorting, air.para),
        None if ongoing is None else ongoing.partner,
    )


def _data_names(d: AotData) -> tuple[object, ...]:
    """The parts of the game's data that name units: the order sheets, the revealed orders, the "last seen"
    markers, the set-up, the question execution waits for (a view holds no frame of the cursor)."""
    return (
        {side: {uid: to_plain(o) for uid, o in sheet.items()} for side, sheet in d.orders.items()},
        None if d.active is None else {uid: to_plain(o) for uid, o in d.active.items()},
        list(d.last_seen),
        None if d.setup is None else to_plain(d.setup),
        None if d.execution is None else to_plain(d.execution),
    )


def _names_any(value: Any, names: Mapping[str, str]) -> bool:
    """True if an id of ``names`` may occur in ``value`` (plain data: a quick test on its text before the walk)."""
    text = repr(value)
    return any(uid in text for uid in names)


def word_events(rs: Rules, tr: Transition) -> None:
    """9.11, 15.1: from now on in ``tr``, an event naming a concealed HQ is visible in full to the HQ's side
    only, and to the other side worded with the HQ's unidentified name (its hex stays, as on the map)."""
    emit: Callable[..., Event] = tr.emit
    if getattr(emit, "words_concealed", False):
        return  # already in place for this transition

    def emit_worded(kind: str, text: str, visible_to: Sequence[str] | None = None, **data: Any) -> Event:
        st = tr.state
        names = aliases(rs, st)
        if names:
            pattern = _pattern(names)
            named = {m.group(1) for m in pattern.finditer(text)}
            named |= {m.group(1) for s in _strings(data) for m in pattern.finditer(s)}
            if named:
                return _emit_per_side(emit, st, kind, text, visible_to, data, {k: names[k] for k in named})
        return emit(kind, text, visible_to, **data)

    emit_worded.words_concealed = True  # type: ignore[attr-defined]
    tr.emit = emit_worded  # type: ignore[method-assign]  # rolls (tr.roll) go through it too


def _emit_per_side(
    emit: Callable[..., Event],
    st: GameState,
    kind: str,
    text: str,
    visible_to: Sequence[str] | None,
    data: Mapping[str, Any],
    names: Mapping[str, str],
) -> Event:
    """One event per distinct wording: each side reads the HQs of the other side by their unidentified names."""
    audience = list(visible_to) if visible_to is not None else list(st.sides)
    versions: dict[str, tuple[str, dict[str, Any], list[str]]] = {}
    for s in audience:
        hide = {uid: a for uid, a in names.items() if st.units[uid].side != s}
        if hide:
            pattern = _pattern(hide)
            worded = (_rename(text, hide, pattern), _rename(dict(data), hide, pattern))
        else:
            worded = (text, dict(data))
        key = repr(worded)
        versions.setdefault(key, (worded[0], worded[1], []))[2].append(s)
    if not versions or list(versions) == [repr((text, dict(data)))]:
        return emit(kind, text, visible_to, **data)  # no reader of the event is kept from a name
    first: Event | None = None
    for t, d, sides in versions.values():
        ev = emit(kind, t, sides, **d)
        first = first or ev
    assert first is not None
    return first


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, Mapping):
        return [s for k, v in value.items() for s in (*_strings(k), *_strings(v))]
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in _strings(v)]
    return []
