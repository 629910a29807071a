"""Provides the movement rules of digest 4.1–4.6 as pure functions: the cost of a step (4.3), the road allowance
(4.2), stacking (4.4), turning (4.1) and towing speeds (4.6).

A step's cost comes from the tables of ``data/terrain.toml``; :func:`admit` decides whether a unit that has spent
what its :class:`Spent` record says may make it, and returns the record after it or the reason it may not, citing
the rule. Costs are in half MP where they are counted (infantry MP are tracked in halves, 4.3).

>>> from engine.rulesets.hacse.data import load_tables
>>> t = load_tables()
>>> step_cost(t, "track", t.terrain["dense_forest"], level_change=-2)
5.0
>>> step_cost(t, "wheel", t.terrain["mud"])
'max'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from .data import MAX, NA, PROHIBITED, Cost, Sheet, Tables, TerrainClass

__all__ = [
    "CLIMB",
    "STEP_KINDS",
    "Refused",
    "Spent",
    "admit",
    "combine",
    "limit",
    "stacking_surcharge",
    "step_cost",
    "tow_speed",
    "turn_cost",
]

CLIMB = "climb"
"""A level change of 4 or more: only infantry, by climbing (4.7)."""


class Refused(NamedTuple):
    """Why an action may not be taken: the sentence a player reads and the rule it cites."""

    text: str
    rule: str


def combine(costs: Iterable[Cost]) -> Cost:
    """The cost of a step made of components (4.3): prohibited if any is, else "max." if any is, else their sum
    ("n/a" components are left out)."""
    total = 0.0
    is_max = False
    for c in costs:
        if c == PROHIBITED:
            return PROHIBITED
        if c == MAX:
            is_max = True
        elif c != NA:
            total += float(c)
    return MAX if is_max else total


def step_cost(
    tables: Tables,
    move_class: str,
    terrain: TerrainClass,
    *,
    level_change: int = 0,
    road: bool = False,
    backwards: bool = False,
    overlays: Sequence[str] | None = None,
) -> Cost | str:
    """The cost for ``move_class`` to enter a hex of ``terrain`` (4.3): its base row (the road row on a road step,
    4.2, which ignores the hex's terrain and overlays), the overlays' surcharges (``overlays`` replaces the
    terrain's own, e.g. snow), the level-change surcharge and the reversing surcharge. :data:`CLIMB` for a level
    change of 4 or more (4.7)."""
    mv = tables.movement
    parts: list[Cost] = [mv.base["road" if road else terrain.movement][move_class]]
    if not road:
        parts += [mv.surcharge[o][move_class] for o in (terrain.overlays if overlays is None else overlays)]
    change = abs(level_change)
    if change >= int(mv.value("climb_min_levels")):
        return CLIMB
    if change:
        parts.append(mv.level_change[change - 1][move_class])
    if backwards:
        parts.append(mv.surcharge["backwards"][move_class])
    return combine(parts)


def stacking_surcharge(tables: Tables, units_in_hex: int) -> int:
    """+1 MP per full 20 units already in the hex entered (4.4 [INTERP]: ⌊n / 20⌋)."""
    return units_in_hex // int(tables.movement.value("stacking_per"))


def turn_cost(tables: Tables, steps: int) -> int:
    """MP to turn ``steps`` hexsides (4.1: 1 MP per 60°)."""
    return steps * int(tables.movement.value("turn_mp_per_60"))


@dataclass(frozen=True, slots=True)
class Spent:
    """What a unit has spent this turn, as far as the next expenditure's admission depends on it (4.2, 4.3)."""

    half_mp: int = 0
    """MP spent, in halves."""
    off_road: int = 0
    """Steps that were not road steps (4.2)."""
    max_move: bool = False
    """A "max." step was made: movement is over (4.3 [INTERP])."""
    road_steps: int = 0
    """Road steps made (4.2)."""


STEP_KINDS = ("road", "off_road", "none")
"""What an expenditure is for the road allowance (4.2): a road step, a step that is not one, or no step at all
(turning, mounting, hooking up)."""


def limit(tables: Tables, mp: int, road_mp: int, off_road: int, road_steps: int) -> int:
    """The MP allowance (4.2 [INTERP]): the road MP once the move has road steps and at most one step that is not,
    else the MP."""
    on_road = road_steps > 0 and off_road <= int(tables.movement.value("max_road_off_steps"))
    return road_mp if on_road else mp


def admit(
    tables: Tables, spent: Spent, cost: Cost | str, *, mp: int, road_mp: int, kind: str, what: str
) -> Spent | Refused:
    """The record after an expenditure of ``cost`` (``kind`` one of :data:`STEP_KINDS`), or why the unit may not
    make it. ``what`` names it for the sentence."""
    road, off = int(kind == "road"), int(kind == "off_road")
    if spent.max_move:
        return Refused(f"Cannot move: its movement ended with a whole-move step this turn ({what})", "4.3")
    if cost == PROHIBITED:
        return Refused(f"Cannot move: {what} is prohibited for it", "4.3")
    if cost == CLIMB:
        return Refused(f"Cannot move: {what} is a climb of 4 or more levels (infantry climbs with climb)", "4.7")
    if cost == MAX:
        if spent.half_mp:
            return Refused(f"Cannot move: {what} takes the whole move, and it has already spent MP this turn", "4.3")
        return Spent(2 * mp, spent.off_road + off, True, spent.road_steps + road)
    assert isinstance(cost, float)
    after = Spent(spent.half_mp + round(2 * cost), spent.off_road + off, False, spent.road_steps + road)
    allowance = limit(tables, mp, road_mp, after.off_road, after.road_steps)
    if after.half_mp > 2 * allowance:
        on_road = allowance == road_mp and road_mp != mp
        lost_road = limit(tables, mp, road_mp, spent.off_road, spent.road_steps) > allowance  # the step ends it (4.2)
        rule = "4.2" if on_road or lost_road else "4.3"
        return Refused(
            f"Cannot move: {what} costs {cost:g} MP; it has spent {spent.half_mp / 2:g} of its {allowance} "
            f"{'road MP' if on_road else 'MP'}",
            rule,
        )
    return after


def tow_speed(tractors: Sequence[Sheet], load_t: float, tables: Tables) -> tuple[int, int] | None:
    """The (MP, road MP) of ``tractors`` towing ``load_t`` tonnes together (4.6), or None if they cannot.

    Each tractor pulls at MP/2 up to half its weight, or up to its stated tow load [INTERP]; at 1 MP (3 on roads)
    up to twice that. Several tractors add their limits and move at the lowest MP among them; MP/2 and road MP/2
    round down, minimum 1 [PROPOSED / INTERP].
    """
    mv = tables.movement
    half = sum(
        s.tow_load_t if s.tow_load_t is not None else (s.weight_t or 0.0) * mv.value("tow_half_fraction")
        for s in tractors
    )
    low = min(tractors, key=lambda s: (s.mp, s.road_mp))
    least = int(mv.value("tow_min_mp"))
    if load_t <= half:
        return max(least, low.mp // 2), max(least, min(s.road_mp for s in tractors) // 2)
    if load_t <= 2 * half:
        return int(mv.value("tow_heavy_mp")), int(mv.value("tow_heavy_road_mp"))
    return None
