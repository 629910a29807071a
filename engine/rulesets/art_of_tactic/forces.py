"""Provides what a scenario file puts on the map: a new unit's status from its card and the file (11.1, G51, 9.6,
9.11), and the fortifications of ``[[structures]]`` (9.18), for the initial state and for a purchase (11.6)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.hexgrid import Hex, parse_hex

from .data import MineKind, Tables
from .records import AotStatus, Dugout, Fort, FortKind, Structures
from .sight import facing_of

__all__ = ["add_structure", "can_stand", "fort", "hex_list", "unit_status"]


def can_stand(tables: Tables, unit_type: str, terrain_class: str) -> bool:
    """4.8: a unit may be set up where it could enter (bridges and roads aside)."""
    c = tables.units.get(unit_type)
    tc = tables.terrain.get(terrain_class)
    if c is None or tc is None:
        return True
    if tc.enter == "special":
        return False
    if tc.enter == "infantry" and c.move_as != "INF":
        return False
    return not (tc.enter == "no_wheels" and c.move_as in ("VEH", "ARM"))


def hex_list(value: Any) -> list[str]:
    """Hex labels written as ``"0305 0306"`` (or with commas) or as a list."""
    if isinstance(value, str):
        return [x for x in value.replace(",", " ").split() if x]
    return [str(x) for x in value or []]


def _pair(a: Hex, b: Hex) -> tuple[Hex, Hex]:
    return (a, b) if a <= b else (b, a)


def fort(item: Mapping[str, Any]) -> Fort:
    """A ``[[structures]]`` item of a scenario file (checked by ``setup.check_scenario``) as a record."""
    kind: FortKind = item["kind"]
    between = None
    if kind in ("wire", "teeth"):
        a, b = (parse_hex(x) for x in hex_list(item.get("between")))
        between = _pair(a, b)
    place = item.get("hex")
    facing = item.get("facing")
    mine: MineKind | None = item.get("mine", "anti_tank") if kind == "minefield" else None
    return Fort(
        kind=kind,
        side=None if item.get("side") is None else str(item["side"]),
        hex=None if place is None else parse_hex(str(place)),
        facing=None if facing is None else parse_hex(str(facing)),
        between=between,
        mine=mine,
    )


def add_structure(out: Structures, item: Fort) -> None:
    """Put one fortification (wire, teeth, trench or dugout) on the map's structures (9.18); a minefield is laid
    apart (9.6)."""
    if item.kind in ("wire", "teeth"):
        assert item.between is not None
        (out.wire if item.kind == "wire" else out.teeth).append(item.between)
    elif item.kind in ("trench", "dugout"):
        assert item.hex is not None and item.facing is not None
        facing = facing_of(item.hex, item.facing)
        assert facing is not None
        if item.kind == "trench":
            out.trenches[item.hex] = facing
        else:
            out.dugouts[item.hex] = Dugout(facing)


def unit_status(tables: Tables, code: str, where: Hex | None, given: Mapping[str, Any]) -> AotStatus:
    """A new unit's status from its card and the scenario's ``status`` (11.1, G51, 9.6, 9.11)."""
    c = tables.units[code]
    s = AotStatus(ammo=int(given.get("ammo", c.ammo)))
    if c.smoke:
        s.smoke_ammo = c.smoke
    if c.cargo:
        s.cargo_ammo = int(given.get("cargo_ammo", c.cargo.get("ammo", 0)))
        s.cargo_mines = int(given.get("cargo_mines", c.cargo.get("mines", 0)))
    if c.has("concealment"):
        s.concealed = bool(given.get("concealed", True))  # 9.11: starts concealed
    if c.can_order("deploy"):
        s.deployed = bool(given.get("deployed", True))  # G51: deployed unless said otherwise
    f = given.get("facing")
    s.facing = facing_of(where, parse_hex(str(f))) if (f is not None and where is not None) else None
    s.suppressed = bool(given.get("suppressed"))
    s.entrenched = bool(given.get("entrenched"))
    if c.has("engineer"):
        s.mines = bool(given.get("mines", False))  # 9.6: the real minefield must be bought
    return s
