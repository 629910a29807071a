"""Provides facing geometry (digest 2.2 [PROPOSED]): directions between hexes, the angle θ of an attacker seen from
a target, the armour sector it hits, weapon arcs, and turning costs (4.1).

Facings are 0–5 clockwise from north (15.10.1: 0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW), the engine's
:data:`engine.hexgrid.DIRECTIONS` order. Angles are compass degrees measured between hex centres.

>>> from engine.hexgrid import parse_hex
>>> round(theta(parse_hex("0905"), 4, parse_hex("0807")))
-41
>>> armour_faces(theta(parse_hex("0905"), 4, parse_hex("0507")))
('front',)
"""

from __future__ import annotations

import math

from engine.hexgrid import DIRECTIONS, Hex, distance, hexes_within

__all__ = ["arc_outline", "armour_faces", "bearing", "direction_to", "in_arc", "theta", "turn_steps"]

_EPS = 1e-9


def _centre(h: Hex) -> tuple[float, float]:
    """The centre of a flat-topped hex: x to the east, y to the south."""
    return 1.5 * h.q, math.sqrt(3) * (h.r + h.q / 2)


def bearing(frm: Hex, to: Hex) -> float:
    """The compass bearing from ``frm``'s centre to ``to``'s, in degrees (0 = north, clockwise), 0 if equal."""
    (x0, y0), (x1, y1) = _centre(frm), _centre(to)
    if (x0, y0) == (x1, y1):
        return 0.0
    return math.degrees(math.atan2(x1 - x0, y0 - y1)) % 360.0


def direction_to(frm: Hex, to: Hex) -> int | None:
    """The facing (0–5) that points from ``frm`` to the adjacent hex ``to``; None if they are not adjacent."""
    d = Hex(to.q - frm.q, to.r - frm.r)
    return DIRECTIONS.index(d) if d in DIRECTIONS else None


def theta(target: Hex, facing: int, attacker: Hex) -> float:
    """θ of 2.2: the angle between the target's facing and the direction from its hex to the attacker's,
    normalised to −180…+180 (positive clockwise)."""
    t = (bearing(target, attacker) - 60.0 * facing) % 360.0
    return t - 360.0 if t > 180.0 + _EPS else t


def armour_faces(angle: float) -> tuple[str, ...]:
    """The armour face(s) an attack at θ = ``angle`` meets (2.2): sector 0 front, ±1 and ±2 side, ±3 rear; two faces
    when θ lies on a boundary (±30°, ±90°, ±150°: the defender gets the higher of the two)."""
    a = abs(angle)
    for boundary, faces in ((30.0, ("front", "side")), (90.0, ("side",)), (150.0, ("side", "rear"))):
        if abs(a - boundary) < _EPS:
            return faces
    sector = round(a / 60.0)
    return ("front",) if sector == 0 else ("rear",) if sector == 3 else ("side",)


def in_arc(arc: str, angle: float) -> bool:
    """Whether a weapon with ``arc`` (``all``, ``front``, ``rear``: data.Mount.arc) may fire at θ = ``angle`` (2.2):
    front |θ| ≤ 30°, rear |θ| ≥ 150°, boundaries included."""
    if arc == "front":
        return abs(angle) <= 30.0 + _EPS
    if arc == "rear":
        return abs(angle) >= 150.0 - _EPS
    return True


def turn_steps(frm: int, to: int) -> int:
    """Hexsides turned, the short way, from facing ``frm`` to ``to`` (4.1: 1 MP per 60°)."""
    d = (to - frm) % 6
    return min(d, 6 - d)


def arc_outline(at: Hex, facing: int, arc: str, reach: int) -> set[Hex]:
    """The outline of a unit's ``arc`` (2.2) out to ``reach`` hexes: the hexes of the arc that touch a hex outside it
    (its two edges and its far end), for drawing on a map.

    >>> from engine.hexgrid import parse_hex
    >>> cone = arc_outline(parse_hex("0505"), 0, "front", 3)  # facing north: a narrow cone (|θ| ≤ 30°)
    >>> len(cone), parse_hex("0502") in cone, parse_hex("0506") in cone
    (6, True, False)
    """
    inside = {h for h in hexes_within(at, reach) if h != at and in_arc(arc, theta(at, facing, h))}
    return {h for h in inside if distance(at, h) == reach or any(n not in inside and n != at for n in h.neighbours())}
