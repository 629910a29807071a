"""Provides the skill roll (digest 13.1) and the calculators of climbing (4.7) as pure functions.

The climb itself (an activation type of 3.2 that uses all MP, with one skill roll per climbing turn and the
progress of a climb over several turns) is not an action yet: no map of the three scenarios has adjacent hexes
4 or more levels apart. These give the numbers it will use.

>>> skill_tn(4), skill_tn(4, specialist=True), skill_tn(4, commander_bonus=1)
(12, 9, 11)
>>> [climb_turns(n) for n in (4, 5, 6, 8)]
[1, 1, 2, 4]
"""

from __future__ import annotations

from .data import Sheet, Tables, load_tables

__all__ = ["climb_turns", "may_climb", "skill_tn"]


def skill_tn(
    base_number: int, *, commander_bonus: int = 0, specialist: bool = False, tables: Tables | None = None
) -> int:
    """The target number of a skill roll (13.1, succeeds on 2d10 ≥ TN [INTERP]): 3 × base number, eased by the
    commander bonus, and by 3 for mountain troops and rangers when climbing (4.7)."""
    t = tables or load_tables()
    ease = int(t.movement.value("climb_specialist_ease")) if specialist else 0
    return t.skill_factor * base_number - commander_bonus + ease


def climb_turns(levels: int, tables: Tables | None = None) -> int:
    """Turns a climb of ``levels`` (4 or more) takes (4.7, DERIVED): 1 + max(0, levels − 5); one skill roll in each."""
    t = tables or load_tables()
    return 1 + max(0, levels - int(t.movement.value("climb_one_turn_max")))


def may_climb(sheet: Sheet) -> bool:
    """Only infantry without heavy equipment climbs (4.7; heavy equipment [PROPOSED]: a heavy weapon, a mortar, a
    crew-served weapon)."""
    return sheet.unit_type == "infantry" and not sheet.heavy_equipment
