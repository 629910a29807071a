"""What a HACSE unit carries from one battle of a campaign to the next (issue 21; README, "Campaigns").

The engine's roster (:mod:`engine.campaign`) carries one number per unit, its steps; in HACSE a unit's steps are
its intact damage rows (2.3, 8.5). The readings (PROPOSED, README "Readings: campaigns"):

- a unit destroyed (8.5: a wreck, an infantry group with no soldier left, a gun or vehicle out of the game) is
  lost: it carries 0 steps, whatever rows its sheet still shows;
- infantry carries its soldiers: soldier rows lost stay lost, and the next battle sets it up with its
  lowest-numbered soldier rows hit (the rows 8.5 strikes first);
- a gun or vehicle that survives is repaired and re-crewed between the battles: it carries its full rows (the
  damage of 8.5 is by row and effect — a jammed turret, a broken track — which a day's workshop mends; a count of
  rows could not say which rows were hit).
"""

from __future__ import annotations

from engine.state import Unit

from . import sheets
from .damage import effects
from .data import Sheet
from .model import status


def carried_steps(unit: Unit, sheet: Sheet) -> int:
    """The steps ``unit`` carries to the next battle (0: lost), by the readings above."""
    s = status(unit)
    if s.destroyed or unit.steps <= 0 or effects(sheets.target(sheet, s.rows_hit)).destroyed:
        return 0
    if sheet.unit_type == "infantry":
        return unit.steps
    return sheet.possible_damage


def start_rows(sheet: Sheet, steps: int | None) -> list[int]:
    """The rows hit of a unit that a campaign sets up with ``steps`` (None or full: none): infantry's lowest
    soldier rows (8.5), as many as it lost; a gun or vehicle is carried at full rows (see above)."""
    if steps is None or steps >= sheet.possible_damage or sheet.unit_type != "infantry":
        return []
    soldiers = sorted(r.index for r in sheets.rows(sheet) if r.is_crew)
    return soldiers[: sheet.possible_damage - steps]
