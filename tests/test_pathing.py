"""Tests engine.pathing against an independent brute-force search on random small maps.

The brute force uses the neighbour table of Blitzkrieg 1940 digest 13.9 on offset coordinates and plain
Bellman-Ford relaxation, so it shares no code with networkx or engine.hexgrid's axial maths.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.board import Board
from engine.hexgrid import Hex, hex_to_offset, offset_to_hex
from engine.pathing import Reach, reachable, route
from tests.asciimap import ascii_board

Cost = int | None
Grid = dict[tuple[int, int], Cost]


def offset_neighbours(col: int, row: int) -> list[tuple[int, int]]:
    """Digest 13.9: neighbours of (col, row), 1-based, even columns half a hex lower."""
    c, r = col, row
    if c % 2 == 1:
        return [(c, r - 1), (c, r + 1), (c - 1, r - 1), (c - 1, r), (c + 1, r - 1), (c + 1, r)]
    return [(c, r - 1), (c, r + 1), (c - 1, r), (c - 1, r + 1), (c + 1, r), (c + 1, r + 1)]


def brute_costs(grid: Grid, start: tuple[int, int]) -> dict[tuple[int, int], float]:
    """Cheapest cost of entering each hex from ``start`` (Bellman-Ford over entry costs)."""
    best = dict.fromkeys(grid, math.inf)
    best[start] = 0.0
    for _ in range(len(grid)):
        changed = False
        for u, du in list(best.items()):
            if du == math.inf:
                continue
            for v in offset_neighbours(*u):
                if v in grid and grid[v] is not None and du + grid[v] < best[v]:  # type: ignore[operator]
                    best[v] = du + grid[v]  # type: ignore[operator]
                    changed = True
        if not changed:
            break
    return best


def board_of(grid: Grid, cols: int, rows: int) -> Board:
    lines = []
    for r in range(1, rows + 1):
        lines.append(" ".join("W0" if grid[(c, r)] is None else ".0" for c in range(1, cols + 1)))
    board, _ = ascii_board("\n".join(lines))
    return board


def entry_weight(grid: Grid) -> Any:
    def weight(u: Hex, v: Hex, edge: Mapping[str, Any]) -> float | None:
        return grid[hex_to_offset(v)]

    return weight


def check_path(grid: Grid, path: tuple[Hex, ...], start: tuple[int, int], end: tuple[int, int], cost: float) -> None:
    cells = [hex_to_offset(h) for h in path]
    assert cells[0] == start
    assert cells[-1] == end
    assert all(v in offset_neighbours(*u) for u, v in itertools.pairwise(cells))
    assert all(grid[v] is not None for v in cells[1:])
    assert sum(grid[v] for v in cells[1:]) == cost  # type: ignore[misc]


@st.composite
def random_maps(draw: st.DrawFn) -> tuple[Grid, int, int, tuple[int, int], tuple[int, int], int]:
    cols = draw(st.integers(3, 7))
    rows = draw(st.integers(3, 6))
    cells = [(c, r) for r in range(1, rows + 1) for c in range(1, cols + 1)]
    costs = draw(st.lists(st.sampled_from([1, 2, 3, 4, 1, 2, None]), min_size=len(cells), max_size=len(cells)))
    grid: Grid = dict(zip(cells, costs, strict=True))
    start = draw(st.sampled_from(cells))
    goal = draw(st.sampled_from(cells))
    mp = draw(st.integers(0, 14))
    return grid, cols, rows, start, goal, mp


@settings(max_examples=100, deadline=None)
@given(random_maps())
def test_reachable_matches_brute_force(case: tuple[Grid, int, int, tuple[int, int], tuple[int, int], int]) -> None:
    grid, cols, rows, start, _, mp = case
    board = board_of(grid, cols, rows)
    best = brute_costs(grid, start)
    got = reachable(board, offset_to_hex(*start), mp, entry_weight(grid))
    assert {hex_to_offset(h) for h in got} == {cell for cell, c in best.items() if c <= mp}
    for h, reach in got.items():
        cell = hex_to_offset(h)
        assert isinstance(reach, Reach)
        assert reach.cost == best[cell]
        assert reach.cost <= mp
        check_path(grid, reach.path, start, cell, reach.cost)
    assert got[offset_to_hex(*start)].cost == 0
    assert got[offset_to_hex(*start)].path == (offset_to_hex(*start),)


@settings(max_examples=100, deadline=None)
@given(random_maps())
def test_route_matches_brute_force(case: tuple[Grid, int, int, tuple[int, int], tuple[int, int], int]) -> None:
    grid, cols, rows, start, goal, mp = case
    board = board_of(grid, cols, rows)
    best = brute_costs(grid, start)[goal]
    weight = entry_weight(grid)
    found = route(board, offset_to_hex(*start), offset_to_hex(*goal), weight)
    if best == math.inf:
        assert found is None
    else:
        assert found is not None
        assert found.cost == best
        check_path(grid, found.path, start, goal, found.cost)
    limited = route(board, offset_to_hex(*start), offset_to_hex(*goal), weight, mp=mp)
    if best <= mp:
        assert limited is not None
        assert limited.cost == best
        check_path(grid, limited.path, start, goal, limited.cost)
    else:
        assert limited is None


def test_route_is_none_when_walled_off() -> None:
    board, at = ascii_board("""
        .0a W0 .0
        W0  W0 .0
        .0  .0 .0b
    """)

    def weight(u: Hex, v: Hex, edge: Mapping[str, Any]) -> float | None:
        return None if board.terrain(v) == "woods" else 1

    assert route(board, at["a"], at["b"], weight) is None
    assert route(board, at["a"], at["b"], weight, mp=99) is None
    assert set(reachable(board, at["a"], 99, weight)) == {at["a"]}


def test_route_and_reachable_off_the_map() -> None:
    board, at = ascii_board(".0a .0b")
    outside = offset_to_hex(9, 9)

    def weight(u: Hex, v: Hex, edge: Mapping[str, Any]) -> float | None:
        return 1

    assert reachable(board, outside, 5, weight) == {}
    assert route(board, outside, at["a"], weight) is None
    assert route(board, at["a"], outside, weight) is None


def test_cutoff_is_inclusive() -> None:
    board, at = ascii_board(".0a .0 .0 .0b .0c")

    def weight(u: Hex, v: Hex, edge: Mapping[str, Any]) -> float | None:
        return 1.5

    got = reachable(board, at["a"], 4.5, weight)
    assert got[at["b"]].cost == 4.5
    assert at["c"] not in got


def test_weight_is_called_in_the_direction_of_travel() -> None:
    # Entering a higher hex costs 1 + the climb, going down or level costs 1.
    board, at = ascii_board("""
        .0a
        .1
        .2
        .3b
    """)
    calls: list[tuple[int, int]] = []

    def climb(u: Hex, v: Hex, edge: Mapping[str, Any]) -> float | None:
        calls.append((board.level(u), board.level(v)))
        return 1 + max(0, board.level(v) - board.level(u))

    up = route(board, at["a"], at["b"], climb)
    down = route(board, at["b"], at["a"], climb)
    assert up is not None and down is not None
    assert up.cost == 6
    assert down.cost == 3
    assert reachable(board, at["a"], 10, climb)[at["b"]].cost == 6
    assert reachable(board, at["b"], 10, climb)[at["a"]].cost == 3
    assert (0, 1) in calls and (3, 2) in calls


def test_one_way_weight() -> None:
    board, at = ascii_board("""
        .0a .0 .0 .0 .0b
        .0  .0 .0 .0 .0
    """)

    def eastward(u: Hex, v: Hex, edge: Mapping[str, Any]) -> float | None:
        return 1 if v.q > u.q else None

    assert route(board, at["a"], at["b"], eastward) is not None
    assert route(board, at["b"], at["a"], eastward) is None
    assert all(h.q >= at["a"].q for h in reachable(board, at["a"], 10, eastward))
    assert set(reachable(board, at["b"], 10, eastward)) == {at["b"]}


def test_weight_receives_the_hexside_attributes() -> None:
    # A road along the top row: half a point per road hexside.
    top = tuple(offset_to_hex(c, 1) for c in (1, 2))
    board, at = ascii_board(
        """
        .0a .0b .0
        .0  .0  .0c
        """,
        lines={"roads": (("R", top),)},
    )
    seen: dict[tuple[Hex, Hex], Mapping[str, Any]] = {}

    def weight(u: Hex, v: Hex, edge: Mapping[str, Any]) -> float | None:
        seen[(u, v)] = edge
        return 0.5 if "roads" in edge else 2

    assert route(board, at["a"], at["b"], weight) == route(board, at["a"], at["b"], weight, mp=1)
    assert reachable(board, at["a"], 1, weight)[at["b"]].cost == 0.5
    assert seen[(at["a"], at["b"])]["roads"] == "R"
    assert reachable(board, at["a"], 10, weight)[at["c"]].cost == 2.5


@pytest.mark.parametrize("mp", [0, 1])
def test_start_is_always_reachable(mp: int) -> None:
    board, at = ascii_board("W0a .0")

    def weight(u: Hex, v: Hex, edge: Mapping[str, Any]) -> float | None:
        return None

    assert reachable(board, at["a"], mp, weight) == {at["a"]: Reach(0.0, (at["a"],))}
    found = route(board, at["a"], at["a"], weight)
    assert found is not None and found.cost == 0 and found.path == (at["a"],)
