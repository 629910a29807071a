"""Provides the skill roll (digest 13.1), the calculators of climbing (4.7) as pure functions, and the climb as an
activation of 3.2 (:func:`climb_refusal`, :func:`climb`): infantry without heavy equipment climbs into an adjacent
hex 4 or more levels higher or lower, spending all its MP, with a skill roll in every climbing turn (1 damage on
a failure; the climb goes on, [INTERP]); a climb of L levels takes 1 + max(0, L − 5) turns, and the unit reaches
the hex in its last one. It may not fire in a turn it climbs (3.1). No map of the three scenarios has adjacent hexes
4 or more levels apart, so only the tests meet it.

>>> skill_tn(4), skill_tn(4, specialist=True), skill_tn(4, commander_bonus=1)
(12, 9, 11)
>>> [climb_turns(n) for n in (4, 5, 6, 8)]
[1, 1, 2, 4]
"""

from __future__ import annotations

from engine.hexgrid import Hex, distance
from engine.rules import Transition
from engine.state import GameState, Unit

from . import sheets
from .damage import fixed_hit
from .data import Sheet, Tables, load_tables
from .fortifications import on_enter, record_damage
from .model import status
from .movement import Refused

__all__ = ["climb", "climb_refusal", "climb_tn", "climb_turns", "is_climbing_specialist", "may_climb", "skill_tn"]


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


# --- The climb as an activation (3.2, 4.7) ----------------------------------------------------------------------


def climb_tn(tables: Tables, unit: Unit) -> int:
    """The unit's climbing skill roll TN (13.1): 3 × its base number, less the commander bonus while a commander row
    is intact [PROPOSED]."""
    sheet = tables.sheets[unit.type]
    s = status(unit)
    target = sheets.target(sheet, s.rows_hit)
    leader = any(r.is_commander for r in target.intact(target.rows))
    bonus = sheet.commander_bonus if leader else 0
    specialist = is_climbing_specialist(sheet)
    return skill_tn(sheets.base_number(s.experience), commander_bonus=bonus, specialist=specialist, tables=tables)


CLIMBING_TRAITS = ("mountain_troops", "ranger")


def is_climbing_specialist(sheet: Sheet) -> bool:
    """Mountain troops and rangers (the sheet's ``traits``, digest's sheet table) climb 3 easier (4.7)."""
    return any(t in CLIMBING_TRAITS for t in sheet.traits)


def climb_refusal(st: GameState, tables: Tables, unit: Unit, h: Hex) -> Refused | None:
    """Why ``unit`` may not climb into ``h`` now (4.7), or None."""
    sheet = tables.sheets[unit.type]
    if sheet.unit_type != "infantry":
        return Refused(f"Cannot climb: only infantry climbs ({unit.id} is a {sheet.unit_type})", "4.7")
    if not may_climb(sheet):
        return Refused(f"Cannot climb: {unit.id} carries heavy equipment", "4.7")
    if unit.hex is None or h not in st.board or distance(unit.hex, h) != 1:
        return Refused(f"Cannot climb: {st.board.label(h)} is not next to {unit.id}", "4.7")
    levels = abs(st.board.level(h) - st.board.level(unit.hex))
    if levels < int(tables.movement.value("climb_min_levels")):
        return Refused(f"Cannot climb: {st.board.label(h)} is only {levels} levels away (move there)", "4.7")
    if status(unit).half_mp:
        return Refused(f"Cannot climb: climbing takes all {unit.id}'s MP, and it has spent MP this turn", "4.7")
    return None


def climb(tr: Transition, tables: Tables, unit: Unit, h: Hex) -> None:
    """A turn of climbing (4.7): all MP, the skill roll, the progress; in the last turn the unit enters ``h``."""
    st = tr.state
    s = status(unit)
    assert unit.hex is not None
    levels = abs(st.board.level(h) - st.board.level(unit.hex))
    way = "up" if st.board.level(h) > st.board.level(unit.hex) else "down"
    if s.climb_to != h:
        s.climb_to, s.climbed = h, 0
    s.climbed += 1
    need = climb_turns(levels, tables)
    s.half_mp, s.max_move, s.work = 2 * tables.sheets[unit.type].mp, True, "climb"
    s.dug_in = False
    tn = climb_tn(tables, unit)
    seen = (unit.side,) if s.hidden else None
    label = st.board.label(h)
    what = f"{unit.id} climbs {levels} levels toward {label}, turn {s.climbed} of {need}: skill roll (rule 4.7, 13.1)"
    roll = sum(tr.roll(10, 2, what, target=tn, compare="at_least", visible_to=seen))
    if roll < tn:

        def roller(sides: int, count: int, purpose: str) -> tuple[int, ...]:
            return tr.roll(sides, count, f"{unit.id} falls while climbing: {purpose}", visible_to=seen)

        rows = fixed_hit(sheets.target(tables.sheets[unit.type], s.rows_hit), "side", 1, roller, dk=None)
        record_damage(tr, tables, unit, rows.allocation.rows, "fails its climbing roll: 1 damage (rule 4.7)")
        if s.destroyed:
            return
    if s.climbed < need:
        tr.emit("climb", f"{unit.id} is climbing toward {label} (rule 4.7)", seen, unit=unit.id)
        return
    unit.hex, s.climb_to, s.climbed = h, None, 0
    s.hexes += 1
    tr.emit("climb", f"{unit.id} climbs {way} to {label} (rule 4.7)", seen, unit=unit.id)
    on_enter(tr, tables, unit)  # 3.2 interrupt, step 1: mines and traps in the hex reached
