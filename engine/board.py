"""Provides the Board: a map's terrain, levels and hexside features, with one networkx graph built once."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from itertools import pairwise
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import networkx as nx

from .hexgrid import Hex, hex_label, hex_to_offset, offset_to_hex, parse_hex

__all__ = ["EDGE_NAMES", "HEXSIDE_FEATURES", "LINE_FEATURES", "Board", "Cell", "MapData"]

HEXSIDE_FEATURES = ("streams", "rivers", "walls")
"""Features drawn on hexsides, listed in a map file as hex pairs."""
LINE_FEATURES = ("roads", "rails")
"""Features running through hexes, listed in a map file as hex paths."""
EDGE_NAMES = ("top", "right", "bottom", "left")
"""The four display edges of a map."""


@dataclass(frozen=True, slots=True)
class MapData:
    """A parsed map file, before a ruleset's terrain classes are applied."""

    id: str
    title: str
    cols: int
    rows: int
    terrain: Mapping[Hex, tuple[str, int]]
    """Terrain code and level of every hex on the map."""
    north: str = "top"
    """Which display edge is north (the Stonne map has north on the left)."""
    hexsides: Mapping[str, tuple[tuple[Hex, Hex], ...]] = field(default_factory=dict)
    """Feature name (``streams``, ``rivers``, ``walls``) → hexsides as hex pairs."""
    lines: Mapping[str, tuple[tuple[str, tuple[Hex, ...]], ...]] = field(default_factory=dict)
    """Feature name (``roads``, ``rails``) → (name, path) pairs."""
    places: Mapping[str, tuple[Hex, ...]] = field(default_factory=dict)
    """Named places (villages, objectives) → their hexes."""
    edges: Mapping[str, str] = field(default_factory=dict)
    """Side id → the display edge that side calls its own."""
    path: str = ""
    """Where the map was read from (for messages)."""
    text: str = ""
    """The map file's full text (saves keep it so that a game never depends on files that may change)."""

    def has_hex(self, h: Hex) -> bool:
        """True if ``h`` lies on the map."""
        col, row = hex_to_offset(h)
        return 1 <= col <= self.cols and 1 <= row <= self.rows


@dataclass(frozen=True, slots=True)
class Cell:
    """What a hex of the board holds."""

    hex: Hex
    code: str
    """The map's terrain code (``V``, ``w``, ``.``)."""
    terrain: str
    """The ruleset's terrain class the code maps to (``village``, ``woods``, ``open``)."""
    level: int
    """Elevation level."""


class Board:
    """A map under one ruleset's terrain classes: cells, features and the movement graph.

    Nodes of :attr:`graph` are hexes with ``terrain``, ``code`` and ``level``; edges join adjacent hexes
    and carry hexside features (``streams``, ``rivers``, ``walls``: True) and line features
    (``roads``, ``rails``: the feature's name). Units are never nodes.
    """

    def __init__(self, data: MapData, classes: Mapping[str, str]) -> None:
        """Build the board.

        Args:
            data: the parsed map.
            classes: terrain code → terrain class, from the ruleset's ``data/terrain.toml``.

        Raises:
            KeyError: a terrain code has no class (``validate`` reports this with the line first).
        """
        self.data = data
        self.id = data.id
        self.cols, self.rows = data.cols, data.rows
        self.wide = data.cols > 99 or data.rows > 99
        self.cells: dict[Hex, Cell] = {}
        for h, (code, level) in data.terrain.items():
            self.cells[h] = Cell(h, code, classes[code], level)
        import networkx as nx  # noqa: PLC0415 - imported when the first board is built, not with the engine

        g: nx.Graph[Hex] = nx.Graph()
        for h, c in self.cells.items():
            g.add_node(h, terrain=c.terrain, code=c.code, level=c.level)
        for h in self.cells:
            for n in h.neighbours():
                other = self.cells.get(n)
                # Join the node's own Hex object, not the equal one from neighbours(): networkx keys its
                # adjacency by the object given here, and dict lookups on identical keys skip Hex.__eq__.
                if other is not None and not g.has_edge(h, other.hex):
                    g.add_edge(h, other.hex)
        for feature, pairs in data.hexsides.items():
            for a, b in pairs:
                if g.has_edge(a, b):
                    g.edges[a, b][feature] = True
        for feature, paths in data.lines.items():
            for name, path in paths:
                for a, b in pairwise(path):
                    if g.has_edge(a, b):
                        g.edges[a, b].setdefault(feature, name)
        self.graph = g
        self.places: dict[str, tuple[Hex, ...]] = dict(data.places)
        self.north = data.north
        self.edges = dict(data.edges)
        self.cache: dict[Any, Any] = {}
        """Per-board caches (line of sight results, keyed by policy and hex pair)."""
        self._labels: dict[Hex, str] = {}
        self._hexes: dict[str, Hex] = {}
        """Labels read by :meth:`parse` → their hexes (rulesets keep positions as labels and read them often)."""

    def __repr__(self) -> str:
        return f"<Board {self.id!r} {self.cols}x{self.rows}>"

    def __contains__(self, h: object) -> bool:
        return h in self.cells

    def __iter__(self) -> Iterator[Hex]:
        return iter(self.cells)

    def __len__(self) -> int:
        return len(self.cells)

    def label(self, h: Hex) -> str:
        """The hex's label on this map (``CCCRRR`` on maps wider or taller than 99)."""
        got = self._labels.get(h)
        if got is None:
            got = self._labels[h] = hex_label(h, wide=self.wide)
        return got

    def parse(self, label: str) -> Hex:
        """Parse a label and check that the hex is on this map.

        Raises:
            ValueError: not a label, or off the map.
        """
        got = self._hexes.get(label)
        if got is not None:
            return got
        h = parse_hex(label)
        if h not in self.cells:
            raise ValueError(f"hex {label} is off the {self.id} map (0101 to {self.corner_label})")
        self._hexes[label] = h  # only labels of hexes on the map are kept: the cache cannot outgrow the map much
        return h

    @property
    def corner_label(self) -> str:
        """Label of the bottom-right hex."""
        return hex_label(offset_to_hex(self.cols, self.rows), wide=self.wide)

    def cell(self, h: Hex) -> Cell:
        """The cell at ``h`` (KeyError if off the map)."""
        return self.cells[h]

    def terrain(self, h: Hex) -> str:
        """Terrain class at ``h``."""
        return self.cells[h].terrain

    def level(self, h: Hex) -> int:
        """Elevation level at ``h``."""
        return self.cells[h].level

    def is_crest(self, h: Hex) -> bool:
        """True if ``h`` has at least one neighbour on the map at a lower level (a crest hex)."""
        lv = self.cells[h].level
        return any(n in self.cells and self.cells[n].level < lv for n in h.neighbours())

    def hexside(self, a: Hex, b: Hex) -> Mapping[str, Any]:
        """Features of the hexside between adjacent hexes ``a`` and ``b`` (empty if none)."""
        if self.graph.has_edge(a, b):
            return self.graph.edges[a, b]  # type: ignore[no-any-return]
        return {}

    def has_road(self, a: Hex, b: Hex) -> bool:
        """True if a road crosses the hexside between ``a`` and ``b``."""
        return "roads" in self.hexside(a, b)

    def place_of(self, h: Hex) -> str | None:
        """The name of the place that includes ``h``, if any."""
        for name, hexes in self.places.items():
            if h in hexes:
                return name
        return None

    def edge_hexes(self, edge: str) -> list[Hex]:
        """The hexes along a display edge (``top``, ``right``, ``bottom``, ``left``)."""
        if edge == "left":
            return [offset_to_hex(1, r) for r in range(1, self.rows + 1)]
        if edge == "right":
            return [offset_to_hex(self.cols, r) for r in range(1, self.rows + 1)]
        if edge == "top":
            return [offset_to_hex(c, 1) for c in range(1, self.cols + 1)]
        if edge == "bottom":
            return [offset_to_hex(c, self.rows) for c in range(1, self.cols + 1)]
        raise ValueError(f"unknown map edge {edge!r} (expected one of {', '.join(EDGE_NAMES)})")
