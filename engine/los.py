"""Provides line of sight: a traced line, the hex that blocks it and why, under a ruleset's policy.

The default policy is the level model of Blitzkrieg 1940 4.4 (obstacles, higher ground, crest hexes, blind
hexes, the hexside rule, a maximum range); rulesets set its values from their data or subclass it.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from .board import Board, Cell
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
    exact_sides: bool = False
    """With the exact tracer: a run along the side between two hexes blocks under the ``hexside`` rule (Art of
    Tactic 5.4 step 3); when False such a run never blocks."""
    rules: Mapping[str, str] = field(default_factory=dict)
    """Rule section for each reason key: range, obstacle, higher, crest, blind, hexside, adjacent."""
    names: Mapping[str, str] = field(default_factory=dict)
    """Display names of terrain classes for messages (``woods``, ``village``)."""

    def blocks(self, board: Board, x: Hex, high: Hex, low: Hex) -> str | None:
        """The reason key if hex ``x`` blocks the line between ``high`` (the higher end) and ``low``.

        Reason keys: ``"obstacle"``, ``"higher"`` (ground above the viewers), ``"crest"`` (ground at the higher
        viewer's level hides the lower ground: the higher viewer is not on a crest), ``"blind"``; None if ``x``
        does not block. Off-map hexes never block.
        """
        cell = board.cells.get(x)
        if cell is None:
            return None
        if not self.levels:
            return "obstacle" if cell.terrain in self.obstacles else None
        return self._blocks(cell, board.level(high), board.level(low), high, low)

    def _blocks(self, cell: Cell, hi: int, lo: int, high: Hex, low: Hex) -> str | None:
        """:meth:`blocks` for an on-map ``cell``, with the levels of both ends already looked up."""
        ob = cell.terrain in self.obstacles
        if not self.levels:
            return "obstacle" if ob else None
        g, x = cell.level, cell.hex
        if hi == lo:
            if g > hi:
                return "higher"
            return "obstacle" if ob and g == hi else None
        if g > hi:
            return "higher"
        if g == hi:
            return "crest"
        if ob and g >= lo:
            if not self.blind_hexes:
                return "obstacle"
            return "blind" if distance(x, low) == 1 and distance(x, high) >= 2 else None
        return None

    def rule(self, key: str) -> str | None:
        """The rule section for a reason key."""
        return self.rules.get(key)

    def describe(
        self, board: Board, key: str, x: Hex, hexside: bool, low: Hex | None = None, high: Hex | None = None
    ) -> str:
        """A sentence for a blocked line."""
        cell = board.cells[x]
        name = self.names.get(cell.terrain, cell.terrain)
        where = board.label(x)
        if key == "higher":
            text = f"blocked by higher ground at {where} (level {cell.level})"
        elif key == "crest":
            viewer = board.label(high) if high is not None else "the higher viewer"
            if high is not None and not board.is_crest(high):
                text = (
                    f"{viewer} is not a crest hex: the ground at {where} is at its level ({cell.level}) "
                    "and hides the lower ground"
                )
            else:
                text = (
                    f"the line crosses {where} at level {cell.level}, as high as {viewer}: a higher unit sees "
                    "lower ground only over its own crest, not across level ground"
                )
        elif key == "blind":
            behind = board.label(low) if low is not None else "the target"
            text = f"{behind} is a blind hex behind the {name} at {where}"
        else:
            text = f"blocked by {name} at {where}"
        if hexside:
            text += " (the line runs along a hexside and " + (
                "both hexes block)" if self.hexside == "both" else "one of its hexes blocks)"
            )
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


@lru_cache(maxsize=4096)
def _template(dq: int, dr: int) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, ...], ...], bool]:
    """The traced line from the origin to ``Hex(dq, dr)``, for reuse by every pair with that difference.

    Returns the line's hexes as ``(q, r)`` offsets (the order of :attr:`HexLine.hexes`), its inner steps as
    indexes into them (both ends dropped), and whether it runs along a hexside. :func:`hex_line` is
    translation invariant (tests/test_hexgrid.py checks it), so ``a + offset`` is the line from ``a``.
    """
    line = hex_line(Hex(0, 0), Hex(dq, dr))
    hexes = line.hexes
    index = {h: i for i, h in enumerate(hexes)}
    steps = tuple(tuple(index[h] for h in step) for step in line.steps[1:-1])
    return tuple((h.q, h.r) for h in hexes), steps, line.along_hexside


@lru_cache(maxsize=4096)
def _side_runs(dq: int, dr: int) -> tuple[tuple[tuple[int, int], tuple[int, int]], ...]:
    """For the exact tracer: the pairs of neighbours along whose shared side the segment to ``Hex(dq, dr)`` runs.

    As pairs of ``(q, r)`` offsets, in order along the segment; pairs holding an end hex are left out.
    """
    a, b = Hex(0, 0), Hex(dq, dr)
    along = [hit for hit in trace_segment(a, b) if hit.along_side]
    pairs: list[tuple[tuple[int, int], tuple[int, int]]] = []
    for i, x in enumerate(along):
        for y in along[i + 1 :]:
            if y.t == x.t and distance(x.hex, y.hex) == 1 and a not in (x.hex, y.hex) and b not in (x.hex, y.hex):
                pairs.append(((x.hex.q, x.hex.r), (y.hex.q, y.hex.r)))
    return tuple(pairs)


@lru_cache(maxsize=4096)
def _crossed(dq: int, dr: int) -> tuple[tuple[int, int], ...]:
    """For the exact tracer: the hexes whose inside the segment from the origin to ``Hex(dq, dr)`` crosses.

    As ``(q, r)`` offsets in the order of :func:`trace_segment`, both ends left out. The tracer's arithmetic is
    exact, so the answer for any pair with the same difference is these offsets added to its start.
    """
    a, b = Hex(0, 0), Hex(dq, dr)
    return tuple((hit.hex.q, hit.hex.r) for hit in trace_segment(a, b) if hit.interior and hit.hex not in (a, b))


_CELLS_BY_QR: weakref.WeakKeyDictionary[Board, dict[tuple[int, int], Cell]] = weakref.WeakKeyDictionary()
"""Each board's cells keyed by ``(q, r)``: tuples hash far faster than :class:`Hex` in the tracing loop."""


def _cells_by_qr(board: Board) -> dict[tuple[int, int], Cell]:
    cells = _CELLS_BY_QR.get(board)
    if cells is None or len(cells) != len(board.cells):
        cells = {(h.q, h.r): c for h, c in board.cells.items()}
        _CELLS_BY_QR[board] = cells
    return cells


def _trace(board: Board, a: Hex, b: Hex, policy: LosPolicy) -> LosResult:
    dq, dr = b.q - a.q, b.r - a.r
    d = max(abs(dq), abs(dr), abs(dq + dr))  # distance(a, b), inlined
    offsets, steps, along_hexside = _template(dq, dr)
    aq, ar = a.q, a.r
    by_qr = _cells_by_qr(board)
    found = [by_qr.get((aq + q, ar + r)) for q, r in offsets]
    path = tuple([Hex(aq + q, ar + r) if c is None else c.hex for c, (q, r) in zip(found, offsets, strict=True)])
    if d <= 1:
        return LosResult(True, path, None, "adjacent hexes always see each other", policy.rule("adjacent"))
    if policy.max_range is not None and d > policy.max_range:
        return LosResult(
            False,
            path,
            None,
            f"out of sight: {d} hexes, more than the maximum of {policy.max_range}",
            policy.rule("range"),
            along_hexside,
        )
    ca, cb = found[0], found[-1]
    if ca is None or cb is None:
        raise KeyError(a if ca is None else b)
    high, low, hi_level, lo_level = (a, b, ca.level, cb.level) if ca.level >= cb.level else (b, a, cb.level, ca.level)
    if policy.tracer == "exact":
        for q, r in _crossed(dq, dr):
            x = Hex(aq + q, ar + r)
            reason = policy.blocks(board, x, high, low)
            if reason is not None:
                text = policy.describe(board, reason, x, False, low, high)
                return LosResult(False, path, x, text, policy.rule(reason))
        runs = _side_runs(dq, dr) if policy.exact_sides else ()
        for (xq, xr), (yq, yr) in runs:
            x, y = Hex(aq + xq, ar + xr), Hex(aq + yq, ar + yr)
            rx, ry = policy.blocks(board, x, high, low), policy.blocks(board, y, high, low)
            blocked = (rx is not None and ry is not None) if policy.hexside == "both" else (rx or ry) is not None
            if blocked:
                first, reason = (x, rx) if rx is not None else (y, ry)
                assert reason is not None
                text = policy.describe(board, reason, first, True, low, high)
                return LosResult(False, path, first, text, policy.rule("hexside") or policy.rule(reason), True)
        return LosResult(True, path, None, "clear", None, bool(runs))
    note = "clear (along a hexside: one side is open)" if along_hexside else "clear"
    # The inner hexes are found[1:-1], in step order. With LosPolicy's own blocks(), test them all at once on the
    # looked-up cells (a line where no hex blocks is clear whatever the hexside rule); a subclass that overrides
    # blocks() has it called step by step.
    own = type(policy).blocks is LosPolicy.blocks
    if own:
        cell_blocks = policy._blocks
        verdicts = [None if c is None else cell_blocks(c, hi_level, lo_level, high, low) for c in found[1:-1]]
        if verdicts.count(None) == len(verdicts):
            return LosResult(True, path, None, note, None, along_hexside)
    both = policy.hexside == "both"
    for step in steps:
        reasons = [verdicts[i - 1] for i in step] if own else [policy.blocks(board, path[i], high, low) for i in step]
        along = len(step) == 2
        # Along a hexside under "both", every hex of the pair must block; otherwise any one hex does.
        blocked = None not in reasons if along and both else reasons.count(None) < len(reasons)
        if blocked:
            j = next(j for j, r in enumerate(reasons) if r is not None)
            x, reason = path[step[j]], reasons[j]
            assert reason is not None
            rule = policy.rule("hexside") if along and policy.rule("hexside") else policy.rule(reason)
            return LosResult(False, path, x, policy.describe(board, reason, x, along, low, high), rule, along_hexside)
    return LosResult(True, path, None, note, None, along_hexside)
