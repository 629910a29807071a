"""Provides bunkers (digest 4.9 P, 8.4, 6.3 b, 13.2): buildings of one hex with their own armour, "destroyed at" and
capacity, given by a scenario, hidden from the enemy until sighted.

- **Scenario keys.** ``[[fortifications.bunkers]]`` with ``hex``, ``side`` (the side that built it), and optional
  ``armour``, ``destroyed_at``, ``capacity`` (soldiers) and ``hidden`` (default true); the defaults are the
  suggested values of 4.9 P (``[bunker]`` in ``data/terrain.toml``). :func:`check` is the validator's part.
- **As a building.** A bunker is the building of its hex (``buildings.house`` reads :func:`bunker_type` first):
  infantry occupies and leaves it as any building (4.9 P), its room is its capacity, fire's near misses and rams
  damage it (``hits.damage_building``, 8.6), and at its "destroyed at" value it collapses on the units inside whose
  armour is lower (4.9); the hex then has no building left. A unit in a bunker is hit at +5 always (6.3 b), and a
  hit damages it only with Dk ≥ the bunker's armour (8.4; ``damage.Target.bunker``).
- **Hidden (13.2).** A hidden bunker is not in the enemy's view (:func:`visible_to`) while every unit of its side in
  its hex is hidden [INTERP]: it is seen once one of them is sighted, and hides again with them.
- **Ground (4.3 P).** A bunker hex moves and sights as its map terrain; the bunker's height is ``[bunker] height``
  of ``data/terrain.toml`` (0 [INTERP]: dug in).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.board import Board
from engine.hexgrid import Hex, parse_hex
from engine.state import GameState

from .data import BuildingType, Tables
from .model import Bunker, data, status

__all__ = ["BUNKER", "bunker_type", "check", "load", "visible_to"]

BUNKER = "bunker"
"""The key of a bunker's :class:`~.data.BuildingType` (``Building.bunker`` of 6.3 b, ``Target.bunker`` of 8.4)."""

_KEYS = ("hex", "side", "armour", "destroyed_at", "capacity", "hidden")


def load(raw: list[Mapping[str, Any]], tables: Tables) -> list[Bunker]:
    """The bunkers of a scenario's ``fortifications.bunkers`` (checked by :func:`check`)."""
    d = tables.bunker
    return [
        Bunker(
            parse_hex(str(b["hex"])),
            str(b["side"]),
            int(b.get("armour", d["armour"])),
            int(b.get("destroyed_at", d["destroyed_at"])),
            int(b.get("capacity", d["capacity"])),
            bool(b.get("hidden", True)),
        )
        for b in raw
    ]


def bunker_type(st: GameState, tables: Tables, h: Hex) -> BuildingType | None:
    """The bunker of ``h`` as a building type (4.9 P; its height ``[bunker]`` of ``terrain.toml``, one per hex), or
    None when it has none or it was destroyed."""
    d = data(st)
    if not d.bunkers or d.buildings_lost.get(h, 0):
        return None
    for b in d.bunkers:
        if b.hex == h:
            return BuildingType(BUNKER, tables.bunker["height"], b.armour, b.destroyed_at, b.capacity, 1)
    return None


def visible_to(st: GameState, b: Bunker, side: str) -> bool:
    """Whether ``side`` sees bunker ``b`` (13.2): its own, an open one, or a hidden one with a unit of its side in
    its hex that is not hidden [INTERP]."""
    if b.side == side or not b.hidden:
        return True
    return any(u.hex == b.hex and u.side == b.side and not status(u).hidden for u in st.units.values())


def check(raw: Any, sides: set[str], board: Board, add: Callable[[str, str], None]) -> None:
    """The validator's checks of ``fortifications.bunkers`` (4.9 P, 13.2)."""
    if not isinstance(raw, list):
        add("fortifications.bunkers", "expected a list of { hex, side, armour, destroyed_at, capacity, hidden } (4.9)")
        return
    seen: set[str] = set()
    for i, b in enumerate(raw):
        where = f"fortifications.bunkers[{i}]"
        if not isinstance(b, dict):
            add(where, "expected a table { hex, side, armour, destroyed_at, capacity, hidden } (4.9)")
            continue
        for k in sorted(set(b) - set(_KEYS)):
            add(f"{where}.{k}", f"unknown key; a bunker has {', '.join(_KEYS)} (4.9)")
        if b.get("side") not in sides:
            add(f"{where}.side", f"expected a side of the scenario, got {b.get('side')!r} (4.9)")
        for k in ("armour", "destroyed_at", "capacity"):
            v = b.get(k, 1)
            if not isinstance(v, int) or isinstance(v, bool) or v < (0 if k == "armour" else 1):
                add(f"{where}.{k}", f"expected a whole number ≥ {0 if k == 'armour' else 1}, got {v!r} (4.9)")
        if not isinstance(b.get("hidden", True), bool):
            add(f"{where}.hidden", f"expected true or false, got {b.get('hidden')!r} (13.2)")
        try:
            h = board.parse(str(b.get("hex")))
        except ValueError as err:
            add(f"{where}.hex", str(err))
            continue
        label = board.label(h)
        if label in seen:
            add(f"{where}.hex", f"{label} has a bunker already: one bunker per hex (4.9)")
        seen.add(label)
