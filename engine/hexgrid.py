"""Provides hex-grid maths: axial hexes, CCRR labels, distance, rings and line tracing.

Hexes are flat-topped and numbered ``CCRR`` (column, row) from ``0101`` at the top left, as on printed
wargame maps. Even-numbered columns sit half a hex lower ("odd-q" on zero-based columns). Internally a hex
is an axial :class:`Hex`; labels exist only at the edges (:func:`parse_hex`, :func:`hex_label`).

>>> parse_hex("0706")
Hex(6, 2)
>>> hex_label(Hex(6, 2))
'0706'
>>> distance(parse_hex("0502"), parse_hex("0304"))
3
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

__all__ = [
    "DIRECTIONS",
    "DIRECTION_NAMES",
    "Hex",
    "HexLine",
    "SegmentHit",
    "distance",
    "hex_label",
    "hex_line",
    "hex_to_offset",
    "hexes_within",
    "neighbours",
    "offset_to_hex",
    "parse_hex",
    "ring",
    "trace_segment",
]


class Hex(NamedTuple):
    """An axial hex coordinate (flat-topped grid). ``s`` is derived: ``q + r + s == 0``.

    A named tuple ``(q, r)``: hashing, equality and ordering are the tuple's (as fast as Python gets, and the
    same hash the earlier frozen dataclass had, so sets and dicts of hexes iterate in the same order). A hex
    therefore equals the plain tuple ``(q, r)``; ``+`` and ``-`` are vector sums, not tuple concatenation.
    """

    q: int
    """Zero-based column."""
    r: int
    """Axial row: the offset row shifted by half the column."""

    @property
    def s(self) -> int:
        """The third cube coordinate."""
        return -self.q - self.r

    def __add__(self, other: Hex) -> Hex:  # type: ignore[override]
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r)

    def __repr__(self) -> str:
        return f"Hex({self.q}, {self.r})"

    def __str__(self) -> str:
        try:
            return hex_label(self)
        except ValueError:
            return repr(self)

    def neighbours(self) -> tuple[Hex, ...]:
        """The six adjacent hexes, clockwise from north."""
        q, r = self
        return (Hex(q, r - 1), Hex(q + 1, r - 1), Hex(q + 1, r), Hex(q, r + 1), Hex(q - 1, r + 1), Hex(q - 1, r))


DIRECTIONS: tuple[Hex, ...] = (Hex(0, -1), Hex(1, -1), Hex(1, 0), Hex(0, 1), Hex(-1, 1), Hex(-1, 0))
"""Axial steps clockwise from north on a flat-topped grid (with north at the top of the display)."""

DIRECTION_NAMES: tuple[str, ...] = ("n", "ne", "se", "s", "sw", "nw")
"""Display directions matching :data:`DIRECTIONS` (the top of the screen is "n")."""

_LABEL_RE = re.compile(r"^(?:(\d{2})(\d{2})|(\d{3})(\d{3}))$")


def offset_to_hex(col: int, row: int) -> Hex:
    """The hex at 1-based ``col`` and ``row`` (even columns half a hex lower)."""
    q = col - 1
    return Hex(q, (row - 1) - (q - (q & 1)) // 2)


def hex_to_offset(h: Hex) -> tuple[int, int]:
    """The 1-based ``(col, row)`` of ``h``; the inverse of :func:`offset_to_hex`."""
    return h.q + 1, h.r + (h.q - (h.q & 1)) // 2 + 1


def parse_hex(label: str) -> Hex:
    """Parse a ``CCRR`` (or ``CCCRRR``) label.

    Raises:
        ValueError: the text is not a hex label.

    >>> parse_hex("0101")
    Hex(0, 0)
    """
    m = _LABEL_RE.match(label.strip())
    if not m:
        raise ValueError(f"not a hex label: {label!r} (expected four digits CCRR, e.g. 0706)")
    col, row = (int(m.group(1)), int(m.group(2))) if m.group(1) else (int(m.group(3)), int(m.group(4)))
    if col < 1 or row < 1:
        raise ValueError(f"not a hex label: {label!r} (columns and rows start at 01)")
    return offset_to_hex(col, row)


def hex_label(h: Hex, wide: bool = False) -> str:
    """The ``CCRR`` label of ``h`` (``CCCRRR`` when ``wide`` or a dimension exceeds 99).

    Raises:
        ValueError: the hex lies left of column 1 or above row 1, where no label exists.

    >>> hex_label(Hex(0, 0))
    '0101'
    """
    col, row = hex_to_offset(h)
    if col < 1 or row < 1:
        raise ValueError(f"{h!r} lies off any labelled map (column {col}, row {row})")
    if wide or col > 99 or row > 99:
        return f"{col:03d}{row:03d}"
    return f"{col:02d}{row:02d}"


def distance(a: Hex, b: Hex) -> int:
    """Hex distance: the target hex counts, the start hex does not (adjacent = 1)."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def neighbours(h: Hex) -> tuple[Hex, ...]:
    """The six hexes adjacent to ``h``."""
    return h.neighbours()


def ring(center: Hex, radius: int) -> list[Hex]:
    """Hexes at exactly ``radius`` from ``center``, clockwise starting at the south-west corner (``[center]``
    for 0)."""
    if radius < 0:
        raise ValueError(f"ring radius must be >= 0, got {radius}")
    if radius == 0:
        return [center]
    out: list[Hex] = []
    # Start at the south-west corner and walk each of the six sides.
    h = Hex(center.q + DIRECTIONS[4].q * radius, center.r + DIRECTIONS[4].r * radius)
    for d in DIRECTIONS:
        for _ in range(radius):
            out.append(h)
            h = h + d
    return out


def hexes_within(center: Hex, radius: int) -> Iterator[Hex]:
    """Every hex at distance ``0..radius`` from ``center``."""
    for dq in range(-radius, radius + 1):
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
            yield Hex(center.q + dq, center.r + dr)


# --- Line tracing -------------------------------------------------------------------------------------

_EPS = (1e-6, 2e-6, -3e-6)
"""Nudge added to (q, r, s) before rounding; +eps and -eps expose lines along a hexside."""


def _cube_round(q: float, r: float, s: float) -> Hex:
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return Hex(int(rq), int(rr))


@dataclass(frozen=True, slots=True)
class HexLine:
    """A traced line between two hex centres, computed with both nudges."""

    plus: tuple[Hex, ...]
    """The line rounded with the positive nudge; ``distance + 1`` hexes, both ends included."""
    minus: tuple[Hex, ...]
    """The line rounded with the negative nudge."""

    @property
    def steps(self) -> tuple[tuple[Hex, ...], ...]:
        """One entry per step: a single hex, or the two hexes of a hexside the line runs along."""
        return tuple((p,) if p == m else (p, m) for p, m in zip(self.plus, self.minus, strict=True))

    @property
    def along_hexside(self) -> bool:
        """True when the line runs exactly along at least one hexside (the nudges disagree)."""
        return self.plus != self.minus

    @property
    def hexes(self) -> tuple[Hex, ...]:
        """Every hex either nudged line passes through, in order, without repeats."""
        seen: dict[Hex, None] = {}
        for step in self.steps:
            for h in step:
                seen.setdefault(h, None)
        return tuple(seen)

    def __len__(self) -> int:
        return len(self.plus)


def hex_line(a: Hex, b: Hex) -> HexLine:
    """Trace the line between the centres of ``a`` and ``b`` with both nudges (Red Blob's method).

    >>> [hex_label(h) for h in hex_line(parse_hex("0502"), parse_hex("0304")).plus]
    ['0502', '0402', '0403', '0304']
    """
    n = distance(a, b)
    if n == 0:
        return HexLine((a,), (a,))
    plus: list[Hex] = []
    minus: list[Hex] = []
    aq, ar, as_ = float(a.q), float(a.r), float(a.s)
    dq, dr, ds = b.q - aq, b.r - ar, b.s - as_
    for i in range(n + 1):
        t = i / n
        q, r, s = aq + dq * t, ar + dr * t, as_ + ds * t
        plus.append(_cube_round(q + _EPS[0], r + _EPS[1], s + _EPS[2]))
        minus.append(_cube_round(q - _EPS[0], r - _EPS[1], s - _EPS[2]))
    return HexLine(tuple(plus), tuple(minus))


# --- Exact segment tracer ----------------------------------------------------------------------------
# In the plane scaled by 1/sqrt(3) vertically and then doubled, a flat-topped hex of size 1 has integer
# centre and corners, so the segment between two centres is tested against each hexagon exactly with
# integers; parameters along the segment are kept as integer fractions and become Fractions only at the end.

_CORNERS = ((2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1))
"""Corners of a hexagon relative to its centre, counter-clockwise, in doubled scaled coordinates."""
_EDGES = tuple(
    (ax, ay, bx - ax, by - ay) for (ax, ay), (bx, by) in zip(_CORNERS, _CORNERS[1:] + _CORNERS[:1], strict=True)
)
"""Each edge as (corner x, corner y, edge x, edge y); the inside is to the left of the edge."""


def _centre(h: Hex) -> tuple[int, int]:
    return 3 * h.q, 2 * h.r + h.q


@dataclass(frozen=True, slots=True)
class SegmentHit:
    """A hex the centre-to-centre segment meets."""

    hex: Hex
    interior: bool
    """True when the segment passes through the inside of the hexagon; False when it only touches a
    corner or runs along a side."""
    t: Fraction
    """Where along the segment (0 at the start, 1 at the end) it first meets the hexagon."""
    along_side: bool = False
    """True when the segment runs along one of the hexagon's sides for a positive length (it then runs along
    the neighbour across that side too); False for a crossing or a touch of a corner."""


def _clip(p0: tuple[int, int], p1: tuple[int, int], h: Hex) -> tuple[int, int, int, int] | None:
    """Cyrus–Beck clip of the segment against hexagon ``h``.

    Returns the closed parameter interval ``[n0/d0, n1/d1]`` (denominators positive), or None.
    """
    cx, cy = _centre(h)
    dx, dy = p1[0] - p0[0], p1[1] - p0[1]
    n0, d0, n1, d1 = 0, 1, 1, 1
    for ox, oy, ex, ey in _EDGES:
        ax, ay = cx + ox, cy + oy
        # Inside is to the left of the counter-clockwise edge: cross(edge, p - corner) >= 0.
        num = ex * (p0[1] - ay) - ey * (p0[0] - ax)  # cross at t = 0
        den = ex * dy - ey * dx  # change of cross per unit t
        if den == 0:
            if num < 0:
                return None
            continue
        if den > 0:  # entering: t0 = max(t0, -num / den)
            if -num * d0 > n0 * den:
                n0, d0 = -num, den
        elif num * d1 < n1 * -den:  # leaving: t1 = min(t1, num / -den)
            n1, d1 = num, -den
        if n0 * d1 > n1 * d0:
            return None
    return n0, d0, n1, d1


def _mid_strictly_inside(p0: tuple[int, int], p1: tuple[int, int], iv: tuple[int, int, int, int], h: Hex) -> bool:
    """True if the middle of the clipped interval ``iv`` lies strictly inside hexagon ``h``."""
    n0, d0, n1, d1 = iv
    # mid t = (n0/d0 + n1/d1) / 2 = n / d; the point is (m_x / d, m_y / d) with d > 0.
    n, d = n0 * d1 + n1 * d0, 2 * d0 * d1
    mx, my = p0[0] * d + (p1[0] - p0[0]) * n, p0[1] * d + (p1[1] - p0[1]) * n
    cx, cy = _centre(h)
    return all(ex * (my - (cy + oy) * d) - ey * (mx - (cx + ox) * d) > 0 for ox, oy, ex, ey in _EDGES)


def trace_segment(a: Hex, b: Hex) -> tuple[SegmentHit, ...]:
    """Every hex whose hexagon the segment between the centres of ``a`` and ``b`` meets, exactly.

    Hits are ordered along the segment; ``interior`` tells a real crossing from a touch of a corner or a
    run along a side. Rulesets that define the line exactly (Art of Tactic 5.4) use this tracer.
    """
    if a == b:
        return (SegmentHit(a, True, Fraction(0)),)
    p0, p1 = _centre(a), _centre(b)
    line = hex_line(a, b)
    candidates: set[Hex] = set()
    for h in line.hexes:
        candidates.add(h)
        candidates.update(h.neighbours())
    hits: list[SegmentHit] = []
    for h in candidates:
        iv = _clip(p0, p1, h)
        if iv is None:
            continue
        n0, d0, n1, d1 = iv
        positive = n0 * d1 < n1 * d0
        interior = positive and _mid_strictly_inside(p0, p1, iv, h)
        hits.append(SegmentHit(h, interior, Fraction(n0, d0), positive and not interior))
    hits.sort(key=lambda hit: (hit.t, hit.hex))
    return tuple(hits)
