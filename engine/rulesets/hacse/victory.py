"""Provides control of objective hexes and victory points (digest 15.9 [PROPOSED], the scenario objectives of
15.10).

A unit's state is read from its status: ``destroyed`` (8.5, or dissolved: 9.5 INTERP), ``shaken`` (9.5) and the
rows hit (``rows_hit``), whose effects (8.5: immobilised) and share of the possible damage give the half-BV award.
"""

from __future__ import annotations

from typing import Any

from engine.hexgrid import Hex, hex_to_offset, parse_hex
from engine.state import GameState

from . import sheets
from .damage import effects
from .data import Sheet, Tables
from .model import Status, data, status

__all__ = ["bridge_hex", "broken_sides", "half_bv", "scores", "update_control"]


def update_control(st: GameState) -> None:
    """A side controls an objective hex when it was the last side to have a non-shaken unit there alone (15.9)."""
    d = data(st)
    for h in d.points:
        sides = {u.side for u in st.units.values() if u.hex == h and not (s := status(u)).destroyed and not s.shaken}
        if len(sides) == 1:
            d.control[h] = sides.pop()


def broken_sides(st: GameState) -> list[str]:
    """The sides with no unit left that is not destroyed, dissolved (9.5 INTERP: destroyed) or shaken: the game
    ends then (15.9). Units still to enter count as left."""
    return [
        side
        for side in st.sides
        if not any(u.side == side and not (s := status(u)).destroyed and not s.shaken for u in st.units.values())
    ]


def scores(st: GameState, tables: Tables) -> dict[str, int]:
    """Victory points of each side (15.9): the BV of enemy units destroyed or dissolved, half the BV of enemy units
    immobilised, shaken or at ≥ 50 % damage, the objectives it controls, and the scenario's awards (15.10.5)."""
    d = data(st)
    points = {side: 0 for side in st.sides}
    for u in st.units.values():
        sheet = tables.sheets[u.type]
        s = status(u)
        award = sheet.bv if s.destroyed else half_bv(tables, sheet, s)
        if award:
            for side in st.enemies_of(u.side):
                points[side] += award
    for h, p in d.points.items():
        owner = d.control.get(h)
        if owner in points:
            points[owner] += p
    victory: dict[str, Any] = d.victory or {}
    _bridge_award(st, victory, points)
    _withdrawal_award(st, victory, points)
    return points


def half_bv(tables: Tables, sheet: Sheet, s: Status) -> int:
    """15.9: a share of the BV, rounded down (``sequence.toml [victory] partial_fraction``: half), of a unit that is
    immobilised (8.5), shaken (9.5) or has at least ``damaged_fraction`` of its possible damage (2.3); 0 otherwise
    (a destroyed unit scores its whole BV instead)."""
    v = tables.sequence["victory"]
    award = int(sheet.bv * float(v["partial_fraction"]))
    if s.shaken:
        return award
    if not s.rows_hit:
        return 0
    t = sheets.target(sheet, s.rows_hit)
    if t.possible_damage > 0 and t.damage_taken >= float(v["damaged_fraction"]) * t.possible_damage:
        return award
    return award if effects(t).immobilised else 0


def bridge_hex(st: GameState) -> Hex | None:
    """The hex of the scenario's bridge awards (15.10.5): the first of its victory hexes; None without any."""
    victory: dict[str, Any] = data(st).victory or {}
    hexes = victory.get("hexes")
    if not isinstance(hexes, str) or not hexes.split():
        return None
    return parse_hex(hexes.split()[0])


def _bridge_award(st: GameState, victory: dict[str, Any], points: dict[str, int]) -> None:
    """15.10.5: the bridge intact and controlled by the side named, or destroyed, gives that award's side its
    points."""
    bridge = bridge_hex(st)
    if bridge is None:
        return
    d = data(st)
    award = victory.get("bridge_destroyed" if bridge in d.blown else "bridge_intact")
    if not isinstance(award, dict) or award.get("side") not in points:
        return
    if bridge in d.blown or d.control.get(bridge) == award["side"]:
        points[award["side"]] += int(award.get("points", 0))


def _withdrawal_award(st: GameState, victory: dict[str, Any], points: dict[str, int]) -> None:
    """15.10.5: each unit of the side named that started east of the columns given and ends the game inside them
    (not shaken) scores the points."""
    award = victory.get("withdrawal")
    if not isinstance(award, dict) or award.get("side") not in points:
        return
    first, last = award["columns"]
    for u in st.units.values():
        s = status(u)
        if u.side != award["side"] or u.hex is None or s.origin is None or s.destroyed:
            continue
        if hex_to_offset(s.origin)[0] > last and first <= hex_to_offset(u.hex)[0] <= last:
            points[u.side] += int(award["points"])
