"""Benchmarks the engine core against DESIGN.md section 11 (reachable, route, line of sight).

Run with::

    .venv/bin/python -m pytest benchmarks -q --benchmark-enable -o addopts=""

Figures and budgets are in benchmarks/RESULTS.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from engine import los as los_module
from engine.board import Board
from engine.hexgrid import Hex, distance, trace_segment
from engine.los import LosPolicy, line_of_sight
from engine.pathing import reachable, route
from engine.scenario import parse_map

MAP = Path(__file__).resolve().parent.parent / "scenarios" / "blitzkrieg1940" / "hannut.map"
CODES = {".": "open", "V": "village", "O": "orchard", "W": "woods"}
SLOW = frozenset({"village", "orchard", "woods"})
POLICY = LosPolicy(id="bench-bk", obstacles=SLOW, max_range=8)
EXACT = LosPolicy(id="bench-exact", obstacles=SLOW, max_range=8, tracer="exact")

# Pairs for one line of sight: the longest lines the Blitzkrieg policy traces (8 hexes).
CLEAR_HEXSIDE = ("0706", "1506")  # clear, along hexsides: 4 of its 7 inner steps are hex pairs
CLEAR_STRAIGHT = ("0706", "0714")  # clear, down one column
BLIND = ("0706", "0702")  # blocked: the blind hex behind the orchard at 0703 (AC-07)


@pytest.fixture(scope="module")
def hannut() -> Board:
    return Board(parse_map(MAP.read_text(encoding="utf-8"), str(MAP), CODES), CODES)


def weight_for(board: Board) -> Any:
    cells = board.cells

    def weight(u: Hex, v: Hex, edge: Mapping[str, Any]) -> float | None:
        return 2 if cells[v].terrain in SLOW else 1

    return weight


def test_reachable_8mp(benchmark: Any, hannut: Board) -> None:
    start = hannut.parse("0706")
    weight = weight_for(hannut)
    result = benchmark(reachable, hannut, start, 8, weight)
    assert len(result) > 100
    assert all(r.cost <= 8 for r in result.values())


def test_route_across_the_map(benchmark: Any, hannut: Board) -> None:
    start, goal = hannut.parse("0101"), hannut.parse("1816")
    weight = weight_for(hannut)
    found = benchmark(route, hannut, start, goal, weight)
    assert found is not None and found.path[0] == start and found.path[-1] == goal


@pytest.mark.parametrize("pair", [CLEAR_HEXSIDE, CLEAR_STRAIGHT, BLIND], ids=["hexside", "straight", "blind"])
def test_los_one_pair_uncached(benchmark: Any, hannut: Board, pair: tuple[str, str]) -> None:
    a, b = hannut.parse(pair[0]), hannut.parse(pair[1])
    assert distance(a, b) == (4 if pair == BLIND else 8)
    line_of_sight(hannut, a, b, POLICY)  # line templates are warm in any game; the result cache is cleared

    def call() -> bool:
        hannut.cache.clear()
        return line_of_sight(hannut, a, b, POLICY).visible

    visible = benchmark(call)
    assert visible == (pair != BLIND)


def test_los_one_pair_cold_geometry(benchmark: Any, hannut: Board) -> None:
    """As uncached, but the per-difference line template of engine.los is dropped too (a never-seen shape)."""
    a, b = hannut.parse(CLEAR_HEXSIDE[0]), hannut.parse(CLEAR_HEXSIDE[1])

    def call() -> bool:
        hannut.cache.clear()
        los_module._template.cache_clear()
        return line_of_sight(hannut, a, b, POLICY).visible

    assert benchmark(call)


def test_los_one_pair_uncached_exact_tracer(benchmark: Any, hannut: Board) -> None:
    """The exact tracer (Art of Tactic 5.4) on the same pair, its per-difference template warm."""
    a, b = hannut.parse(CLEAR_HEXSIDE[0]), hannut.parse(CLEAR_HEXSIDE[1])
    line_of_sight(hannut, a, b, EXACT)

    def call() -> bool:
        hannut.cache.clear()
        return line_of_sight(hannut, a, b, EXACT).visible

    assert benchmark(call)


def test_trace_segment_8_hexes(benchmark: Any, hannut: Board) -> None:
    """The exact tracer itself, computed from scratch (what a never-seen difference costs once)."""
    a, b = hannut.parse(CLEAR_HEXSIDE[0]), hannut.parse(CLEAR_HEXSIDE[1])
    hits = benchmark(trace_segment, a, b)
    assert hits[0].hex == a


def test_los_cache_clear_overhead(benchmark: Any, hannut: Board) -> None:
    """The cost of the cache.clear() inside the uncached benchmark, to subtract from it."""
    benchmark(hannut.cache.clear)


def test_los_one_pair_cached(benchmark: Any, hannut: Board) -> None:
    a, b = hannut.parse(CLEAR_HEXSIDE[0]), hannut.parse(CLEAR_HEXSIDE[1])
    first = line_of_sight(hannut, a, b, POLICY)
    assert benchmark(line_of_sight, hannut, a, b, POLICY) is first


def test_los_full_table(benchmark: Any, hannut: Board) -> None:
    hexes = list(hannut)

    def table() -> int:
        hannut.cache.clear()
        return sum(line_of_sight(hannut, a, b, POLICY).visible for a in hexes for b in hexes)

    visible = benchmark.pedantic(table, rounds=5, iterations=1, warmup_rounds=1)
    assert len(hexes) == 18 * 16
    assert 0 < visible < len(hexes) ** 2
