"""Provides the conversion of the roster records (``data.py``, §15.2–15.7) to the calculators' inputs.

The calculators (``fire.py``, ``damage.py``, ``morale.py``) never read the roster files; this adapter does:

- :func:`weapon` and :func:`ammo` turn a ``data.Weapon`` / ``data.Ammo`` of ``weapons.toml`` (§15.4) into a
  ``fire.Weapon`` / ``fire.Ammo`` (the last hex of each band; a weapon without medium or long band repeats its last
  band, so :func:`fire.range_band` refuses beyond it);
- :func:`rows` turns a sheet's damage rows (§2.3, §15.7) into ``firedata.Row``s, taking mount, main and operator
  from the ``data.Mount`` whose ``row`` is that row;
- :func:`target` gives the ``damage.Target`` of a sheet with the rows already hit;
- :func:`base_number` and :func:`morale` give the experience values of §15.2.

The values that appear both in ``weapons.toml`` and ``fire.toml`` live in ``fire.toml`` only: the indirect range
factor (§7.1, ``indirect.range_factor``) and the physical-attack modifier (§12.1, ``hit.physical``).
"""

from __future__ import annotations

from collections.abc import Iterable

from . import data as roster
from .cache import remember
from .damage import Target
from .fire import Ammo, Weapon
from .firedata import Row

__all__ = ["ammo", "base_number", "morale", "mount_of_row", "rows", "target", "unit_type", "weapon"]


_WEAPONS: dict[int, tuple[roster.Weapon, Weapon]] = {}
_AMMO: dict[int, tuple[roster.Ammo, Ammo]] = {}
"""Weapons and rounds already converted, by the roster record's id (kept with it, so that the id is not reused)."""


def weapon(w: roster.Weapon) -> Weapon:
    """The hit roll's view of a weapon type (§2.3, §15.4)."""
    return remember(_WEAPONS, id(w), lambda: _weapon(w), w)


def _weapon(w: roster.Weapon) -> Weapon:
    lasts = [last for _, last in w.bands]
    while len(lasts) < 3:
        lasts.append(lasts[-1])
    return Weapon(
        key=w.key,
        name=w.name,
        short_max=lasts[0],
        medium_max=lasts[1],
        long_max=lasts[2],
        min_range=w.min_range,
        burst=w.burst,
        semi_auto=w.semi_auto,
        heavy=w.heavy,
        fire_mode=w.fire_mode,
        poolable=w.poolable,
    )


def ammo(a: roster.Ammo) -> Ammo:
    """The calculators' view of an ammunition type (§15.4, §15.5): smoke has no Dk (0 here)."""
    return remember(_AMMO, id(a), lambda: Ammo(a.key, a.dk or 0, a.he, is_ap=a.ap, is_smoke=a.smoke), a)


def mount_of_row(sheet: roster.Sheet, index: int) -> roster.Mount | None:
    """The mount whose weapon sits on row ``index`` (1-based), if any."""
    return next((m for m in sheet.mounts if m.row == index), None)


_ROWS: dict[str, tuple[roster.Sheet, tuple[Row, ...]]] = {}
"""Rows already converted, by sheet id (with the sheet itself: another sheet of the same id is converted anew)."""


def rows(sheet: roster.Sheet) -> tuple[Row, ...]:
    """The sheet's damage rows as the damage and morale calculators see them (§2.3, §9.2, §15.6)."""
    return remember(_ROWS, sheet.id, lambda: _rows(sheet), sheet)


def _rows(sheet: roster.Sheet) -> tuple[Row, ...]:
    out: list[Row] = []
    for r in sheet.rows:
        m = mount_of_row(sheet, r.index)
        out.append(
            Row(
                r.index,
                r.kind,
                r.role,
                mount=m.mount if m else "",
                main=m.main if m else False,
                operator=m.crew if m else None,
            )
        )
    return tuple(out)


def unit_type(sheet: roster.Sheet) -> str:
    """``infantry``, ``gun`` or ``vehicle`` (§2.1)."""
    return sheet.unit_type


def target(
    sheet: roster.Sheet,
    hit: Iterable[int] = (),
    *,
    embarked: int = 0,
    riders: bool = False,
    bunker: int = 0,
) -> Target:
    """The ``damage.Target`` of a unit with this sheet and the rows ``hit`` (§2.3, §8)."""
    a = sheet.armour
    return Target(
        sheet.unit_type,
        (a.front, a.side, a.rear, a.top),
        rows(sheet),
        hit=frozenset(hit),
        embarked=embarked,
        riders=riders,
        bunker=bunker,
    )


def base_number(experience: str) -> int:
    """The hit roll's base number of an experience level (§15.2, §6.3)."""
    return roster.load_tables().experience[experience].base_number


def morale(experience: str) -> int:
    """The sheet morale value of an experience level (§15.2, §9.1)."""
    return roster.load_tables().experience[experience].morale
