"""Provides movement queries on a board: every hex a unit can reach, and the cheapest route.

Both run networkx's Dijkstra over the board graph with a ruleset weight function
``weight(u, v, edge) -> cost | None``, called in the direction of travel (from ``u`` into ``v``);
``None`` means the step is impassable.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .board import Board
from .hexgrid import Hex

__all__ = ["Reach", "Route", "WeightFn", "reachable", "route"]

WeightFn = Callable[[Hex, Hex, Mapping[str, Any]], float | None]
"""``(from_hex, to_hex, edge_attributes) -> cost``, or None when the step is impassable."""


@dataclass(frozen=True, slots=True)
class Reach:
    """A reachable hex: the cheapest cost and one cheapest path (start and end included)."""

    cost: float
    path: tuple[Hex, ...]


@dataclass(frozen=True, slots=True)
class Route:
    """The cheapest route between two hexes."""

    cost: float
    path: tuple[Hex, ...]


def reachable(board: Board, start: Hex, mp: float, weight: WeightFn) -> dict[Hex, Reach]:
    """Every hex reachable from ``start`` for at most ``mp`` movement points (``start`` itself at 0)."""
    if start not in board.graph:
        return {}
    import networkx as nx  # noqa: PLC0415 - keeps `import engine` fast (start-up budget, DESIGN §11)

    dist, paths = nx.single_source_dijkstra(board.graph, start, cutoff=mp, weight=weight)
    return {h: Reach(float(c), tuple(paths[h])) for h, c in dist.items()}


def route(board: Board, start: Hex, goal: Hex, weight: WeightFn, mp: float | None = None) -> Route | None:
    """The cheapest path from ``start`` to ``goal`` (within ``mp`` if given), or None if there is none."""
    if start not in board.graph or goal not in board.graph:
        return None
    if mp is not None:
        found = reachable(board, start, mp, weight).get(goal)
        return Route(found.cost, found.path) if found else None
    import networkx as nx  # noqa: PLC0415

    try:
        cost, path = nx.single_source_dijkstra(board.graph, start, goal, weight=weight)
    except nx.NetworkXNoPath:
        return None
    return Route(float(cost), tuple(path))
