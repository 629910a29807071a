"""Provides line of sight: a traced line, the hex that blocks it and why, under a ruleset's policy.

The default policy is the level model of Blitzkrieg 1940 4.4 (obstacles, higher ground, crest hexes, blind
hexes, the hexside rule, a maximum range); rulesets set its values from their data or subclass it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from .board import Board
from .hexgrid import Hex, distance, hex_line, trace_segment

__all__ = ["LosPolicy", "LosResult", "line_of_sight"]


@dataclass(frozen=True, slots=True)
class LosResult:
    """The answer to "can A see B?", with the explanation."""

    visible: bool
    path: tuple[Hex, ...]
    """The hexes the line passes through, both ends included (both hexes of a hexside step)."""
    blocker: Hex | None = None
    """The hex that blocks the line (for a hexside, the first of the pair)."""
    reason: str = ""
    """Why the line is blocked (or what made it clear), in words a player can read."""
    rule: str | None = None
    """The rule section that applies."""
    hexside: bool = False
    """True when the line runs along at least one hexside."""

    def __bool__(self) -> bool:
        return self.visible


@dataclass(frozen=True)
class LosPolicy:
    """How a ruleset decides line of sight. Values come from the ruleset's data files."""

    id: str = "default"
    """Cache key: two policies with the same id must give the same answers."""
    obstacles: frozenset[str] = frozenset()
    """Terrain classes that block a line at the viewers' level (woods, village, orchard)."""
    max_range: int | None = None
    """Longest line in hexes; None for no limit."""
    levels: bool = True
    """Apply elevation: higher ground blocks, obstacles below both viewers do not."""
    blind_hexes: bool = True
    """With different levels, an obstacle hides only the hex directly behind it from the higher viewer."""
    hexside: Literal["both", "either"] = "both"
    """Along a hexside, the line is blocked only if both hexes block ("both") or if either does."""
    tracer: Literal["nudge", "exact"] = "nudge"
    """"nudge": hex_line with both nudges; "exact": segment against each hexagon (touching never blocks)."""
    rules: Mapping[str, str] = field(default_factory=dict)
    """Rule section for each reason key: range, obstacle, higher, blind, hexside, adjacent."""
    names: Mapping[str, str] = field(default_factory=dict)
    """Display names of terrain classes for messages (``woods``, ``village``)."""

    def blocks(self, board: Board, x: Hex, high: Hex, low: Hex) -> str | None:
        """The reason key if hex ``x`` blocks the line between ``high`` (the higher end) and ``low``.

        Reason keys: ``"obstacle"``, ``"higher"``, ``"blind"``; None if ``x`` does not block. Off-map
        hexes never block.
        """
        cell = board.cells.get(x)
        if cell is None:
            return None
        ob = cell.terrain in self.obstacles
        if not self.levels:
            return "obstacle" if ob else None
        g, hi, lo = cell.level, board.level(high), board.level(low)
        if hi == lo:
            if g > hi:
                return "higher"
            return "obstacle" if ob and g == hi else None
        if g >= hi:
            return "higher"
        if ob and g >= lo:
            if not self.blind_hexes:
                return "obstacle"
            return "blind" if distance(x, low) == 1 and distance(x, high) >= 2 else None
        return None

    def rule(self, key: str) -> str | None:
        """The rule section for a reason key."""
        return self.rules.get(key)

    def describe(self, board: Board, key: str, x: Hex, hexside: bool, low: Hex | None = None) -> str:
        """A sentence for a blocked line."""
        cell = board.cells[x]
        name = self.names.get(cell.terrain, cell.terrain)
        where = board.label(x)
        if key == "higher":
            text = f"blocked by higher ground at {where} (level {cell.level})"
        elif key == "blind":
            behind = board.label(low) if low is not None else "the target"
            text = f"{behind} is a blind hex behind the {name} at {where}"
        else:
            text = f"blocked by {name} at {where}"
        if hexside:
            text += " (along a hexside where both hexes block)"
        return text


def line_of_sight(board: Board, a: Hex, b: Hex, policy: LosPolicy) -> LosResult:
    """Trace the line from ``a`` to ``b`` and apply ``policy``; results are cached per board and policy.

    The start and end hexes never block; adjacent hexes always see each other.
    """
    key = ("los", policy.id, a, b)
    cached = board.cache.get(key)
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    result = _trace(board, a, b, policy)
    board.cache[key] = result
    return result


def _trace(board: Board, a: Hex, b: Hex, policy: LosPolicy) -> LosResult:
    d = distance(a, b)
    line = hex_line(a, b)
    path = line.hexes
    if d <= 1:
        return LosResult(True, path, None, "adjacent hexes always see each other", policy.rule("adjacent"))
    if policy.max_range is not None and d > policy.max_range:
        return LosResult(
            False,
            path,
            None,
            f"out of sight: {d} hexes, more than the maximum of {policy.max_range}",
            policy.rule("range"),
            line.along_hexside,
        )
    high, low = (a, b) if board.level(a) >= board.level(b) else (b, a)
    if policy.tracer == "exact":
        for hit in trace_segment(a, b):
            if hit.hex in (a, b) or not hit.interior:
                continue
            reason = policy.blocks(board, hit.hex, high, low)
            if reason is not None:
                text = policy.describe(board, reason, hit.hex, False, low)
                return LosResult(False, path, hit.hex, text, policy.rule(reason))
        return LosResult(True, path, None, "clear", None)
    for step in line.steps[1:-1]:
        reasons = [policy.blocks(board, x, high, low) for x in step]
        along = len(step) == 2
        if along and policy.hexside == "both":
            blocked = all(r is not None for r in reasons)
        else:
            blocked = any(r is not None for r in reasons)
        if blocked:
            i = next(i for i, r in enumerate(reasons) if r is not None)
            x, reason = step[i], reasons[i]
            assert reason is not None
            rule = policy.rule("hexside") if along and policy.rule("hexside") else policy.rule(reason)
            return LosResult(False, path, x, policy.describe(board, reason, x, along, low), rule, line.along_hexside)
    note = "clear (along a hexside: one side is open)" if line.along_hexside else "clear"
    return LosResult(True, path, None, note, None, line.along_hexside)
