"""Provides the Blitzkrieg 1940 map overlays: command ranges (3.4), units out of command (3.5) and a barrage's
target and observer while its reaction window is open (6.3.4, 8.6.1).

Overlay names (:meth:`Blitzkrieg1940.overlays`):

- ``command``: hexes within the command distance of the HQ that binds the unit (3.4: French 2, German 3, the
  HQ's printed command range); for an HQ, its own range.
- ``hq``: the hex of that HQ.
- ``out_of_command``: hexes holding units of the viewing side that are out of command: marked (3.5), or beyond
  their command distance or cut off from an overrun HQ now (3.2, 3.4; marked at the next check of 3.5).
- ``barrage``: the target hex of the barrage whose reaction window is open (6.3.4: only units there may
  retreat).
- ``observer``: the hex of the HQ that observed that salvo (8.6.1; none for a Stuka attack).

Everything is read from the given view and the public action history; nothing here changes a state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.actions import Action
from engine.hexgrid import Hex, distance
from engine.notation import read
from engine.state import GameState, Unit

from . import movement
from . import notation as N
from .model import WindowFrame, data, status

if TYPE_CHECKING:
    from .data import Tables

__all__ = ["OVERLAY_NAMES", "overlays"]

OVERLAY_NAMES: dict[str, str] = {
    "command": "within command distance of the HQ (rule 3.4)",
    "hq": "the HQ the command distance is measured from (rule 3.4)",
    "out_of_command": "unit out of command (rules 3.5, 6.2)",
    "barrage": "barrage target hex: only units here may retreat (rules 6.3.4, 8.6)",
    "observer": "the HQ observing the barrage (rule 8.6.1)",
}
"""Overlay name → what it shows, with the rule."""


def command_hexes(tables: Tables, view: GameState, unit_id: str | None) -> tuple[set[Hex], set[Hex]]:
    """3.4: the hexes within the command distance binding ``unit_id`` (or of the HQ itself), and the HQ's hex.

    Empty when the unit is not on the map or is exempt (motorised, independent, no HQ: 1.1, 10.3) or its HQ is
    off the map (overrun, 3.2).
    """
    unit = view.units.get(unit_id) if unit_id else None
    if unit is None or unit.hex is None:
        return set(), set()
    hq: Unit | None
    if movement.is_hq(tables, unit):
        # Blitzkrieg 3.4 [I]: the distance is the HQ's printed command range (French 2, German 3).
        hq, reach = unit, tables.units[unit.type].command_range
    else:
        # Blitzkrieg 1.1, 10.3: exempt units (motorised, independent, no HQ) have no distance (None).
        hq, reach = movement.hq_of(view, unit), movement.command_distance(tables, view, unit)
    if hq is None or hq.hex is None or reach is None:
        return set(), set()
    centre = hq.hex
    return {h for h in view.board if distance(h, centre) <= reach}, {centre}


def out_of_command_hexes(tables: Tables, view: GameState, side: str) -> set[Hex]:
    """3.5: hexes of ``side``'s units that are out of command (marked, or failing the limits of 3.2/3.4 now)."""
    out: set[Hex] = set()
    for u in view.iter_units(side):
        if u.hex is None or status(u).exited or movement.is_hq(tables, u):
            continue
        # Blitzkrieg 3.5: the marker; 3.2/3.4: failing the limits now (the marker follows at the next check).
        if status(u).ooc or movement.out_of_command(tables, view, u):
            out.add(u.hex)
    return out


def _barrage_window(view: GameState) -> WindowFrame | None:
    """The topmost open reaction window that follows a barrage (6.3.4), if any."""
    for f in reversed(data(view).frames):
        if isinstance(f, WindowFrame):
            return f if f.trigger == "indirect" else None
    return None


def barrage_hexes(view: GameState, history: Sequence[Action]) -> tuple[set[Hex], set[Hex]]:
    """6.3.4, 8.6.1: the target hex of the barrage whose window is open, and its observer's hex."""
    window = _barrage_window(view)
    if window is None:
        return set(), set()
    targets = {view.board.parse(x) for x in window.hexes}
    observers: set[Hex] = set()
    # Blitzkrieg 8.6.1: the observer is named by the salvo that opened the window (a Stuka has none).
    for action in reversed(history):
        if action.verb not in ("salvo", "stuka"):
            continue
        barrage = read(N.NOTATIONS[action.verb], action, view.board)
        if isinstance(barrage, N.Salvo | N.Stuka) and barrage.hex in targets:
            obs = view.units.get(barrage.observer) if isinstance(barrage, N.Salvo) else None
            if obs is not None and obs.hex is not None:
                observers.add(obs.hex)
            break
    return targets, observers


def overlays(
    tables: Tables, view: GameState, side: str, unit_id: str | None, history: Sequence[Action]
) -> dict[str, set[Hex]]:
    """Every Blitzkrieg overlay for ``side`` (see the module's list of names); empty sets are left out."""
    command, hq = command_hexes(tables, view, unit_id)
    unit = view.units.get(unit_id) if unit_id else None
    if unit is not None and unit.side != side:
        command, hq = set(), set()  # the enemy's command ranges are not this screen's business
    target, observer = barrage_hexes(view, history)
    out = {
        "command": command,
        "hq": hq,
        "out_of_command": out_of_command_hexes(tables, view, side),
        "barrage": target,
        "observer": observer,
    }
    return {k: v for k, v in out.items() if v}
