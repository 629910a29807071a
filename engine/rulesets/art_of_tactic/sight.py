"""Provides Art of Tactic sight: the exact line of sight of 5.4, fields of fire (5.5), front, flanks and rear (5.6).

The line is traced exactly (segment against each hexagon, :func:`engine.hexgrid.trace_segment`) by the core's
exact tracer; :class:`AotLosPolicy` decides which crossed hex blocks (5.4 step 2) and a run along the side of
two hexes blocks only if both do (step 3). Smoke is state, not terrain: :func:`line_of_sight` adds it.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from engine.board import Board
from engine.hexgrid import DIRECTIONS, Hex, distance, trace_segment
from engine.los import LosPolicy, LosResult
from engine.los import line_of_sight as core_line_of_sight

from .data import Tables

__all__ = [
    "AotLosPolicy",
    "facing_of",
    "in_field_of_fire",
    "line_of_sight",
    "los_policy",
    "side_of_entry",
]


@dataclass(frozen=True)
class AotLosPolicy(LosPolicy):
    """5.4 step 2: which single intermediate hex blocks a line between ``high`` (F) and ``low`` (T)."""

    def blocks(self, board: Board, x: Hex, high: Hex, low: Hex) -> str | None:
        cell = board.cells.get(x)
        if cell is None:
            return None
        hx, hf, ht = cell.level, board.level(high), board.level(low)
        if hx > hf:
            return "higher"  # (b) higher than both ends
        obstructing = cell.terrain in self.obstacles or (hx >= 1 and hx > ht)  # terrain, or rule H1
        if not obstructing:
            return None
        if hx >= hf:
            return "obstacle"  # (c)
        # (d) the higher end looks down on it (rule H2): it hides only the hex directly behind it.
        if hf == ht:
            return "blind" if distance(x, low) == 1 or distance(x, high) == 1 else None
        return "blind" if distance(x, low) == 1 else None


def los_policy(tables: Tables) -> AotLosPolicy:
    """The policy from ``terrain.toml`` (blocks_los) with the rule sections for each reason."""
    obstacles = frozenset(k for k, t in tables.terrain.items() if t.blocks_los)
    return AotLosPolicy(
        id="art_of_tactic:5.4",
        obstacles=obstacles,
        levels=True,
        hexside="both",
        tracer="exact",
        exact_sides=True,
        rules={
            "obstacle": "5.2",
            "higher": "5.3",
            "blind": "5.3",
            "crest": "5.3",
            "hexside": "5.1",
            "adjacent": "5.4",
        },
        names={k: t.name for k, t in tables.terrain.items()},
    )


@lru_cache(maxsize=8192)
def _crossed_offsets(dq: int, dr: int) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
    """Hexes crossed (interior) and hexes run along, as offsets from the start (both ends left out)."""
    a, b = Hex(0, 0), Hex(dq, dr)
    inner = tuple((h.hex.q, h.hex.r) for h in trace_segment(a, b) if h.interior and h.hex not in (a, b))
    along = tuple((h.hex.q, h.hex.r) for h in trace_segment(a, b) if h.along_side and h.hex not in (a, b))
    return inner, along


def line_of_sight(board: Board, policy: LosPolicy, a: Hex, b: Hex, smoke: frozenset[Hex] = frozenset()) -> LosResult:
    """Line of sight from ``a`` to ``b`` (5.1–5.4), smoke included (3.9: smoke blocks for all units)."""
    result = core_line_of_sight(board, a, b, policy)
    if not result.visible or not smoke or distance(a, b) <= 1:
        return result
    inner, along = _crossed_offsets(b.q - a.q, b.r - a.r)
    for q, r in inner:
        h = Hex(a.q + q, a.r + r)
        if h in smoke:
            return LosResult(False, result.path, h, f"blocked by smoke at {board.label(h)}", "3.9")
    smoky = [Hex(a.q + q, a.r + r) for q, r in along if Hex(a.q + q, a.r + r) in smoke]
    if len(smoky) >= 2:
        return LosResult(False, result.path, smoky[0], f"blocked by smoke along {board.label(smoky[0])}", "3.9", True)
    return result


def _solve(delta: Hex, u: Hex, v: Hex) -> tuple[Fraction, Fraction]:
    """Coefficients (a, b) with delta = a·u + b·v in axial coordinates."""
    det = u.q * v.r - u.r * v.q
    a = Fraction(delta.q * v.r - delta.r * v.q, det)
    b = Fraction(u.q * delta.r - u.r * delta.q, det)
    return a, b


def in_field_of_fire(unit_hex: Hex, facing: int, target: Hex) -> bool:
    """5.5 PROPOSED: the closed 60° wedge through the two corners of the facing hexside (own hex excluded)."""
    if target == unit_hex:
        return False
    d = DIRECTIONS[facing]
    left, right = DIRECTIONS[(facing - 1) % 6], DIRECTIONS[(facing + 1) % 6]
    a, b = _solve(target - unit_hex, d + left, d + right)
    return a >= 0 and b >= 0


def facing_of(unit_hex: Hex, facing_hex: Hex) -> int | None:
    """The direction index (0 = north, clockwise) of an adjacent facing hex, or None if not adjacent."""
    diff = facing_hex - unit_hex
    for i, d in enumerate(DIRECTIONS):
        if d == diff:
            return i
    return None


def side_of_entry(from_hex: Hex, into: Hex) -> int | None:
    """The hexside of ``into`` that a unit crosses coming from the adjacent ``from_hex`` (direction index)."""
    return facing_of(into, from_hex)


def attack_side(facing: int, entry_side: int) -> str:
    """5.6: ``front`` (the facing hexside), ``rear`` (the opposite one) or ``flank`` (the other four)."""
    if entry_side == facing:
        return "front"
    if entry_side == (facing + 3) % 6:
        return "rear"
    return "flank"
