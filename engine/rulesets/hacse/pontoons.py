"""Provides pontoons (digest 4.8, 13.7): an AT ditch "can be crossed with a pontoon like a stream".

[PROPOSED] (4.8): a pontoon is an equipment item of an engineer unit (its sheet's ``pontoons``, or the scenario's
``status.pontoons``); laying it is a turn of work (``lay UNIT HEX pontoon``) from a hex next to the AT ditch or stream
hex it spans, done in the End Phase, step 7; while it lies there, entering that hex is a stream crossing for every
class, wheeled too: "max." (the whole move, 4.3), the ``pontoon`` row of ``terrain.toml``. Pontoons are laid openly
(13.3: "AT ditches ... are placed openly") and stay for the rest of the game. Values in ``fortifications.toml``
``[pontoons]``.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache

from engine.hexgrid import Hex, distance
from engine.rules import Transition
from engine.state import GameState, Unit

from .bridges import terrain_of
from .data import DATA_DIR, Tables, TerrainClass, read_toml, require
from .model import data, status
from .movement import Refused

__all__ = ["carried", "crossing", "lay", "pontoon_item", "refusal", "spannable"]

ROW = "pontoon"
"""The 4.3 base row of a hex a pontoon spans (``terrain.toml``)."""


@cache
def _table() -> tuple[str, tuple[str, ...]]:
    raw = require(read_toml(DATA_DIR / "fortifications.toml"), "pontoons", "fortifications.toml")
    return str(require(raw, "item", "fortifications.toml pontoons")), tuple(
        require(raw, "rows", "fortifications.toml pontoons")
    )


def pontoon_item() -> str:
    """The equipment key of a pontoon (4.8 P)."""
    return _table()[0]


def carried(tables: Tables, unit: Unit) -> int:
    """Pontoons the unit still carries: its sheet's and its status's, less those laid."""
    s = status(unit)
    item = pontoon_item()
    return tables.sheets[unit.type].equipment.get(item, 0) + s.pontoons - s.used.get(item, 0)


def spannable(st: GameState, tables: Tables, h: Hex) -> bool:
    """Whether a pontoon may lie in ``h``: an AT ditch (13.7) or a stream (4.8)."""
    return h in data(st).ditches or terrain_of(st, tables, h).movement in _table()[1]


def crossing(st: GameState, tables: Tables, h: Hex, terrain: TerrainClass) -> TerrainClass:
    """The terrain a unit entering ``h`` crosses: with a pontoon there, a stream crossing for every class (4.8 P)."""
    if h in data(st).pontoons:
        return replace(terrain, movement=ROW, overlays=())
    return terrain


def refusal(st: GameState, tables: Tables, unit: Unit, h: Hex) -> Refused | None:
    """Why ``unit`` may not lay a pontoon in ``h`` this turn (4.8 P), or None."""
    label = st.board.label(h)
    if carried(tables, unit) <= 0:
        return Refused(f"Cannot lay: {unit.id} carries no pontoon", "4.8")
    if unit.hex is None or distance(unit.hex, h) != 1:
        return Refused(f"Cannot lay: a pontoon is laid from a hex next to the ditch or stream, not in {label}", "4.8")
    if not spannable(st, tables, h):
        return Refused(f"Cannot lay: {label} is neither an AT ditch nor a stream", "4.8")
    if h in data(st).pontoons:
        return Refused(f"Cannot lay: a pontoon already spans {label}", "4.8")
    return None


def lay(tr: Transition, unit: Unit, h: Hex) -> None:
    """End Phase step 7: the pontoon lies in ``h`` (4.8 P), told to both sides."""
    st = tr.state
    s = status(unit)
    item = pontoon_item()
    if s.pontoons > 0:
        s.pontoons -= 1
    else:
        s.used[item] = s.used.get(item, 0) + 1
    d = data(st)
    if h not in d.pontoons:
        d.pontoons.append(h)
    tr.emit("pontoon", f"{unit.id} has laid a pontoon across {st.board.label(h)} (rule 4.8)")
