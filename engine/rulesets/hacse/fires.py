"""Provides the fires of burning vehicles: their smoke (8.5, 3.2 Phase 4 step 2) and their light as a sighting aid
(6.1).

- A vehicle burning (its fuel tank hit) puts smoke in its hex in each End Phase while it burns (step 2,
  :func:`burning_smoke`); one destroyed by an ammunition explosion or burning out leaves smoke for ``fire_turns``
  turns (8.5 P: 3) where it was (:func:`wreck`, called when it leaves the map). The smoke is ``Data.smoke``, as
  indirect fire's (7.1): 4 levels high, +5 to sight, counted down in step 8.
- The hex of a burning vehicle, and of such a wreck while its smoke lasts (``Data.fires``, INTERP: the digest
  names "a burning vehicle (fuel-tank or ammunition hit)" and gives the wreck no time of its own), is lit with its
  neighbours (:func:`lit`): sighting into them is at +1 per full 2 hexes where that is less than the weather's
  distance term (6.1 P).
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any

from engine.hexgrid import Hex
from engine.rules import Transition
from engine.state import GameState, Unit

from . import sheets
from .damage import effects
from .data import Tables
from .model import data, status

__all__ = ["burning", "burning_smoke", "fire_hexes", "lit", "wreck"]


@cache
def _table() -> dict[str, Any]:
    with (Path(__file__).parent / "data" / "sight.toml").open("rb") as f:
        return tomllib.load(f)


def _turns() -> int:
    return int(_table()["fire_turns"])


def burning(tables: Tables, unit: Unit) -> bool:
    """Whether the unit is a vehicle burning now (8.5: its fuel tank hit), on the map."""
    s = status(unit)
    if unit.hex is None or s.destroyed or not s.rows_hit:
        return False
    return effects(sheets.target(tables.sheets[unit.type], s.rows_hit)).burning


def fire_hexes(st: GameState, tables: Tables) -> set[Hex]:
    """The hexes with a fire: a burning vehicle, or a wreck that burns while its smoke lasts (``Data.fires``)."""
    out = {u.hex for u in st.units.values() if u.hex is not None and burning(tables, u)}
    return out | set(data(st).fires)


def lit(st: GameState, tables: Tables, where: Hex | None) -> bool:
    """Whether ``where`` or a neighbour holds a fire (6.1: a sighting aid)."""
    if where is None:
        return False
    near = fire_hexes(st, tables)
    return bool(near) and (where in near or any(n in near for n in where.neighbours()))


def _smoke(tr: Transition, where: Hex, why: str) -> None:
    d = data(tr.state)
    new = where not in d.smoke
    d.smoke[where] = max(d.smoke.get(where, 0), _turns())
    if new:
        tr.emit("smoke", f"Smoke in {tr.state.board.label(where)}: {why} (rule 8.5)")


def burning_smoke(tr: Transition, tables: Tables) -> None:
    """End Phase step 2 (3.2, 8.5): smoke in the hex of every burning vehicle, kept while it burns."""
    st = tr.state
    for u in sorted(st.units.values(), key=lambda u: u.id):
        if u.hex is not None and burning(tables, u):
            _smoke(tr, u.hex, f"{u.id} burns")


def wreck(tr: Transition, tables: Tables, unit: Unit, where: Hex | None) -> None:
    """``unit`` is destroyed at ``where``: an ammunition explosion or a fire leaves smoke and a fire there for
    ``fire_turns`` turns (8.5 P)."""
    s = status(unit)
    if where is None or not s.rows_hit:
        return
    if not effects(sheets.target(tables.sheets[unit.type], s.rows_hit)).smoke:
        return
    d = data(tr.state)
    d.fires[where] = max(d.fires.get(where, 0), _turns())
    _smoke(tr, where, f"the wreck of {unit.id} burns")
