"""Tests engine.hexgrid: labels, offsets, distance, neighbours, rings, nudged lines and the exact tracer.

Pinned examples come from the Blitzkrieg 1940 digest (4.4 geometry, 13.9 neighbours, the range example).
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.hexgrid import (
    DIRECTIONS,
    Hex,
    distance,
    hex_label,
    hex_line,
    hex_to_offset,
    hexes_within,
    neighbours,
    offset_to_hex,
    parse_hex,
    ring,
    trace_segment,
)

coords = st.integers(min_value=-60, max_value=60)
hexes = st.builds(Hex, coords, coords)
small = st.integers(min_value=-12, max_value=12)
near_hexes = st.builds(Hex, small, small)


def labels(hs: object) -> list[str]:
    return [hex_label(h) for h in hs]  # type: ignore[attr-defined]


def digest_neighbours(col: int, row: int) -> set[tuple[int, int]]:
    """Neighbours of (col, row) exactly as digest 13.9 lists them (1-based, even columns lower)."""
    c, r = col, row
    if c % 2 == 1:
        return {(c, r - 1), (c, r + 1), (c - 1, r - 1), (c - 1, r), (c + 1, r - 1), (c + 1, r)}
    return {(c, r - 1), (c, r + 1), (c - 1, r), (c - 1, r + 1), (c + 1, r), (c + 1, r + 1)}


def digest_distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Distance by the cube formula of digest 4.4, written from the text."""

    def cube(c: int, r: int) -> tuple[int, int, int]:
        q = c - 1
        rr = (r - 1) - (c - 1) // 2
        return q, rr, -q - rr

    (q1, r1, s1), (q2, r2, s2) = cube(*a), cube(*b)
    return max(abs(q1 - q2), abs(r1 - r2), abs(s1 - s2))


# --- Labels and offsets -----------------------------------------------------------------------------------


@given(st.integers(1, 99), st.integers(1, 99))
def test_label_round_trip_ccrr(col: int, row: int) -> None:
    h = offset_to_hex(col, row)
    label = hex_label(h)
    assert label == f"{col:02d}{row:02d}"
    assert parse_hex(label) == h


@given(st.integers(1, 999), st.integers(1, 999))
def test_label_round_trip_cccrrr(col: int, row: int) -> None:
    h = offset_to_hex(col, row)
    wide = hex_label(h, wide=True)
    assert wide == f"{col:03d}{row:03d}"
    assert parse_hex(wide) == h
    label = hex_label(h)
    assert len(label) == (6 if col > 99 or row > 99 else 4)
    assert parse_hex(label) == h


@given(hexes)
def test_hex_round_trips_through_offset(h: Hex) -> None:
    assert offset_to_hex(*hex_to_offset(h)) == h


@given(coords, coords)
def test_offset_round_trips_through_hex(col: int, row: int) -> None:
    assert hex_to_offset(offset_to_hex(col, row)) == (col, row)


@pytest.mark.parametrize("text", ["", "706", "07060", "0a06", "0006", "0700", "000000", "07-6", "0706x"])
def test_parse_hex_rejects_non_labels(text: str) -> None:
    with pytest.raises(ValueError, match="not a hex label"):
        parse_hex(text)


def test_hex_label_rejects_hexes_left_or_above_the_map() -> None:
    with pytest.raises(ValueError):
        hex_label(offset_to_hex(0, 5))
    with pytest.raises(ValueError):
        hex_label(offset_to_hex(5, 0))


def test_digest_geometry_pins_0706() -> None:
    # Digest 4.4: q = c - 1, r' = (r - 1) - floor((c - 1) / 2).
    assert parse_hex("0706") == Hex(6, 2)
    assert parse_hex("0101") == Hex(0, 0)
    assert parse_hex("0201") == Hex(1, 0)
    assert str(Hex(6, 2)) == "0706"


# --- Distance -----------------------------------------------------------------------------------------


@given(hexes, hexes)
def test_distance_is_symmetric(a: Hex, b: Hex) -> None:
    assert distance(a, b) == distance(b, a)


@given(hexes, hexes, hexes)
def test_distance_triangle_inequality(a: Hex, b: Hex, c: Hex) -> None:
    assert distance(a, c) <= distance(a, b) + distance(b, c)


@given(hexes, hexes)
def test_distance_zero_iff_equal(a: Hex, b: Hex) -> None:
    assert (distance(a, b) == 0) == (a == b)
    assert distance(a, b) >= 0


@given(st.integers(1, 99), st.integers(1, 99), st.integers(1, 99), st.integers(1, 99))
def test_distance_matches_digest_cube_formula(c1: int, r1: int, c2: int, r2: int) -> None:
    assert distance(offset_to_hex(c1, r1), offset_to_hex(c2, r2)) == digest_distance((c1, r1), (c2, r2))


def test_distance_digest_range_example() -> None:
    # Digest 13.9 (Stonne): German tank 0502 -> target 0304 is distance 3.
    assert distance(parse_hex("0502"), parse_hex("0304")) == 3


# --- Neighbours -----------------------------------------------------------------------------------------


@given(hexes)
def test_six_neighbours_at_distance_one_and_distinct(h: Hex) -> None:
    ns = neighbours(h)
    assert len(ns) == 6
    assert len(set(ns)) == 6
    assert all(distance(h, n) == 1 for n in ns)
    assert h not in ns
    assert ns == h.neighbours() == tuple(h + d for d in DIRECTIONS)


@given(st.integers(2, 98), st.integers(2, 98))
def test_neighbours_match_digest_formula(col: int, row: int) -> None:
    got = {hex_to_offset(n) for n in neighbours(offset_to_hex(col, row))}
    assert got == digest_neighbours(col, row)


def test_neighbours_of_odd_column_pinned() -> None:
    # 13.9, odd c: (c, r-1), (c, r+1), (c-1, r-1), (c-1, r), (c+1, r-1), (c+1, r)
    assert set(labels(neighbours(parse_hex("0706")))) == {"0705", "0707", "0605", "0606", "0805", "0806"}


def test_neighbours_of_even_column_pinned() -> None:
    # 13.9, even c: (c, r-1), (c, r+1), (c-1, r), (c-1, r+1), (c+1, r), (c+1, r+1)
    assert set(labels(neighbours(parse_hex("0606")))) == {"0605", "0607", "0506", "0507", "0706", "0707"}


def test_neighbours_start_north_and_turn_clockwise() -> None:
    assert labels(neighbours(parse_hex("0706"))) == ["0705", "0805", "0806", "0707", "0606", "0605"]


# --- Rings and areas -------------------------------------------------------------------------------------


@given(hexes, st.integers(0, 12))
def test_ring_has_6n_hexes_all_at_distance_n(center: Hex, n: int) -> None:
    hs = ring(center, n)
    assert len(hs) == (6 * n if n else 1)
    assert len(set(hs)) == len(hs)
    assert all(distance(center, h) == n for h in hs)


@given(hexes, st.integers(1, 12))
def test_ring_is_a_closed_walk(center: Hex, n: int) -> None:
    hs = ring(center, n)
    assert all(distance(x, y) == 1 for x, y in zip(hs, hs[1:] + hs[:1], strict=True))


def test_ring_rejects_negative_radius() -> None:
    with pytest.raises(ValueError):
        ring(Hex(0, 0), -1)


@given(hexes, st.integers(0, 12))
def test_hexes_within_counts_3n_n_plus_1(center: Hex, n: int) -> None:
    hs = list(hexes_within(center, n))
    assert len(hs) == 3 * n * (n + 1) + 1
    assert len(set(hs)) == len(hs)
    assert all(distance(center, h) <= n for h in hs)
    assert set(hs) == {h for k in range(n + 1) for h in ring(center, k)}


# --- Nudged lines -----------------------------------------------------------------------------------------


@given(hexes, hexes)
def test_hex_line_lengths_and_ends(a: Hex, b: Hex) -> None:
    line = hex_line(a, b)
    n = distance(a, b)
    assert len(line.plus) == len(line.minus) == len(line) == n + 1
    assert line.plus[0] == line.minus[0] == a
    assert line.plus[-1] == line.minus[-1] == b


@given(hexes, hexes)
def test_hex_line_consecutive_hexes_adjacent(a: Hex, b: Hex) -> None:
    line = hex_line(a, b)
    for seq in (line.plus, line.minus):
        assert all(distance(x, y) == 1 for x, y in itertools.pairwise(seq))


@given(hexes, hexes)
def test_hex_line_steps_are_one_hex_or_an_adjacent_pair(a: Hex, b: Hex) -> None:
    line = hex_line(a, b)
    assert len(line.steps) == distance(a, b) + 1
    for i, step in enumerate(line.steps):
        assert step[0] == line.plus[i]
        if len(step) == 2:
            assert step[1] == line.minus[i]
            assert distance(*step) == 1
        else:
            assert line.plus[i] == line.minus[i]
    assert line.along_hexside == any(len(s) == 2 for s in line.steps)
    assert set(line.hexes) == set(line.plus) | set(line.minus)
    assert len(set(line.hexes)) == len(line.hexes)


@given(hexes, hexes)
def test_hex_line_covers_the_same_hexes_both_ways(a: Hex, b: Hex) -> None:
    # LOS symmetry rests on this: the line from b to a passes through the same hexes.
    assert set(hex_line(a, b).hexes) == set(hex_line(b, a).hexes)


@given(hexes, hexes)
def test_hex_line_is_translation_invariant(a: Hex, b: Hex) -> None:
    origin = Hex(0, 0)
    shape = hex_line(origin, b - a)
    line = hex_line(a, b)
    assert line.plus == tuple(a + h for h in shape.plus)
    assert line.minus == tuple(a + h for h in shape.minus)


def test_hex_line_digest_range_example_crosses_0402_and_0403() -> None:
    line = hex_line(parse_hex("0502"), parse_hex("0304"))
    assert labels(line.plus) == ["0502", "0402", "0403", "0304"]
    assert line.plus == line.minus
    assert not line.along_hexside


def test_hex_line_along_a_hexside_pinned() -> None:
    # 0103 -> 0303 runs horizontally between 0202 (above) and 0203 (below): even column 02 sits lower.
    line = hex_line(parse_hex("0103"), parse_hex("0303"))
    assert line.along_hexside
    assert [set(labels(s)) for s in line.steps] == [{"0103"}, {"0202", "0203"}, {"0303"}]
    assert set(labels(line.hexes)) == {"0103", "0202", "0203", "0303"}


def test_hex_line_same_hex() -> None:
    h = parse_hex("0505")
    line = hex_line(h, h)
    assert line.plus == line.minus == (h,)
    assert line.steps == ((h,),)


# --- Exact tracer -----------------------------------------------------------------------------------------


@settings(max_examples=60)
@given(near_hexes, near_hexes)
def test_trace_segment_hits_both_ends(a: Hex, b: Hex) -> None:
    hits = trace_segment(a, b)
    found = {hit.hex: hit for hit in hits}
    assert a in found and found[a].interior and found[a].t == 0
    assert b in found and found[b].interior
    assert [h.t for h in hits] == sorted(h.t for h in hits)
    assert len(found) == len(hits)


@settings(max_examples=60)
@given(near_hexes, near_hexes)
def test_trace_segment_interior_includes_unambiguous_nudged_hexes(a: Hex, b: Hex) -> None:
    interior = {hit.hex for hit in trace_segment(a, b) if hit.interior}
    line = hex_line(a, b)
    for p, m in zip(line.plus, line.minus, strict=True):
        if p == m:
            assert p in interior


@settings(max_examples=60)
@given(near_hexes, near_hexes)
def test_trace_segment_meets_every_nudged_hex(a: Hex, b: Hex) -> None:
    # A hexside step's two hexes are met too (touched along the side, not crossed).
    met = {hit.hex for hit in trace_segment(a, b)}
    assert set(hex_line(a, b).hexes) <= met


@settings(max_examples=60)
@given(near_hexes, near_hexes, near_hexes)
def test_trace_segment_is_translation_invariant(a: Hex, b: Hex, shift: Hex) -> None:
    # engine.los caches the exact tracer's answer per difference b - a, which relies on this.
    moved = trace_segment(a + shift, b + shift)
    assert [(h.hex, h.interior, h.t) for h in moved] == [(h.hex + shift, h.interior, h.t) for h in trace_segment(a, b)]


def _orientation(p: tuple[int, int], q: tuple[int, int], r: tuple[int, int]) -> int:
    v = (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
    return (v > 0) - (v < 0)


def _on_segment(p: tuple[int, int], q: tuple[int, int], r: tuple[int, int]) -> bool:
    """r lies on segment pq, given the three are collinear."""
    return min(p[0], q[0]) <= r[0] <= max(p[0], q[0]) and min(p[1], q[1]) <= r[1] <= max(p[1], q[1])


def _segments_meet(p1: tuple[int, int], p2: tuple[int, int], q1: tuple[int, int], q2: tuple[int, int]) -> bool:
    o1, o2 = _orientation(p1, p2, q1), _orientation(p1, p2, q2)
    o3, o4 = _orientation(q1, q2, p1), _orientation(q1, q2, p2)
    if o1 != o2 and o3 != o4:
        return True
    return (
        (o1 == 0 and _on_segment(p1, p2, q1))
        or (o2 == 0 and _on_segment(p1, p2, q2))
        or (o3 == 0 and _on_segment(q1, q2, p1))
        or (o4 == 0 and _on_segment(q1, q2, p2))
    )


def _meets_hexagon(p0: tuple[int, int], p1: tuple[int, int], h: Hex) -> bool:
    """Brute force, independent of the tracer: does segment p0-p1 meet the closed hexagon of h?

    Coordinates are doubled and scaled by 1/sqrt(3) vertically, so a hex of size 1 has integer corners.
    The segment ends are hex centres, so the segment meets the hexagon iff it meets one of its edges or
    one end is h's centre.
    """
    cx, cy = 3 * h.q, 2 * h.r + h.q
    if (cx, cy) in (p0, p1):
        return True
    corners = [(cx + 2, cy), (cx + 1, cy + 1), (cx - 1, cy + 1), (cx - 2, cy), (cx - 1, cy - 1), (cx + 1, cy - 1)]
    return any(_segments_meet(p0, p1, corners[i], corners[(i + 1) % 6]) for i in range(6))


@settings(max_examples=40)
@given(st.builds(Hex, st.integers(-6, 6), st.integers(-6, 6)))
def test_trace_segment_meets_exactly_the_hexes_a_brute_force_finds(b: Hex) -> None:
    a = Hex(0, 0)
    p0, p1 = (0, 0), (3 * b.q, 2 * b.r + b.q)
    expected = {h for h in hexes_within(a, distance(a, b) + 1) if _meets_hexagon(p0, p1, h)}
    assert {hit.hex for hit in trace_segment(a, b)} == expected


def test_trace_segment_along_a_hexside_only_touches_the_pair() -> None:
    hits = {hex_label(h.hex): h.interior for h in trace_segment(parse_hex("0103"), parse_hex("0303"))}
    assert hits["0103"] and hits["0303"]
    assert hits["0202"] is False and hits["0203"] is False


def test_trace_segment_corner_touch_is_not_interior() -> None:
    # From 0103 to 0604 the segment passes exactly through a corner of 0303 and of 0404.
    hits = {hex_label(h.hex): h for h in trace_segment(parse_hex("0103"), parse_hex("0604"))}
    for label in ("0303", "0404"):
        assert hits[label].interior is False
    assert hits["0203"].interior
    assert set(labels(hex_line(parse_hex("0103"), parse_hex("0604")).hexes)).isdisjoint({"0303", "0404"})


def test_trace_segment_same_hex() -> None:
    h = parse_hex("0303")
    assert [(x.hex, x.interior) for x in trace_segment(h, h)] == [(h, True)]
