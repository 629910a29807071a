"""Provides the HACSE target-modifier die (§5): how much harder a unit is to hit after its movement.

die = target profile modifier + movement modifier + terrain of its own hex (+3 dug in and never moved).

- Infantry's movement modifier is the MP it kept (rounded down, §5 PROPOSED); everyone else's is
  ⌊√(hexes entered this turn)⌋ (turning in place enters no hex).
- The die records only the target's own state (§5 INTERP): the building +5, intervening terrain and the firer's
  situation are added per shot (``fire.py``). The parts are kept apart because a same-hex fight ignores the
  terrain part (§6.4).

>>> die = target_die(profile=0, infantry=False, hexes_entered=5, terrain=("light_forest",))
>>> die.value, [str(m) for m in die.modifiers]
(5, ['+2 movement: 5 hexes entered (rule 5)', '+3 light forest (rule 5)'])
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from engine.events import Modifier

from .firedata import fire_table, mod, total

__all__ = [
    "TargetDie",
    "has_moved",
    "movement_modifier",
    "target_die",
    "terrain_modifiers",
]


def movement_modifier(
    *, infantry: bool, mp: float | Fraction = 0, mp_spent: float | Fraction = 0, hexes_entered: int = 0
) -> int:
    """The movement modifier of §5.

    Infantry: the MP it kept this turn, rounded down (3 MP, spent 1.5 → 1). Guns and vehicles: ⌊√hexes entered⌋
    (0 → 0, 1–3 → 1, 4–8 → 2, 9–15 → 3, ...).

    >>> movement_modifier(infantry=True, mp=3, mp_spent=1.5), movement_modifier(infantry=False, hexes_entered=9)
    (1, 3)
    """
    if infantry:
        return max(0, math.floor(Fraction(mp) - Fraction(mp_spent)))
    if hexes_entered < 0:
        raise ValueError(f"hexes entered cannot be negative: {hexes_entered}")
    return math.isqrt(hexes_entered)


def has_moved(mp_spent: float | Fraction) -> bool:
    """Whether a unit counts as "moved this turn" for its own fire and sighting (+2, §6.3): it spent ≥ 1 MP.

    A vehicle that turned in place entered no hex (die 0) but moved (AC-MM-08).
    """
    return mp_spent > 0


def terrain_modifiers(terrain: Sequence[str]) -> tuple[Modifier, ...]:
    """The hit-column entries (§6.3) of a hex's terrain and overlay keys, those that are not 0."""
    table = fire_table()
    return tuple(mod(table.terrain(key), key.replace("_", " "), "5") for key in terrain if table.terrain(key))


@dataclass(frozen=True, slots=True)
class TargetDie:
    """A unit's target-modifier die with its parts (§5)."""

    profile: tuple[Modifier, ...]
    """The sheet's target profile modifier (Beschussmodifikator, §15.3), if not 0."""
    movement: tuple[Modifier, ...]
    """The movement modifier, if not 0."""
    terrain: tuple[Modifier, ...]
    """The hit-column entries of the unit's own hex, and +3 dug in (trench, foxhole, §13.8)."""

    @property
    def modifiers(self) -> tuple[Modifier, ...]:
        """Every part, in the order profile, movement, terrain."""
        return self.profile + self.movement + self.terrain

    @property
    def value(self) -> int:
        """The number the die shows."""
        return total(self.modifiers)

    def without_terrain(self) -> tuple[Modifier, ...]:
        """The parts a same-hex attack counts (§6.4: the hit roll ignores terrain)."""
        return self.profile + self.movement


def target_die(
    *,
    profile: int,
    infantry: bool,
    mp: float | Fraction = 0,
    mp_spent: float | Fraction = 0,
    hexes_entered: int = 0,
    terrain: Sequence[str] = (),
    dug_in: bool = False,
) -> TargetDie:
    """The die a unit places after its activation (§5), or during a move from the movement made so far (§5 P).

    ``dug_in``: the unit started dug in and has never spent MP since (§13.8 P: the first MP spent removes the
    bonus for good; the caller keeps that flag).
    """
    move = movement_modifier(infantry=infantry, mp=mp, mp_spent=mp_spent, hexes_entered=hexes_entered)
    if infantry:
        move_name = f"movement: {move} MP kept"
    else:
        move_name = f"movement: {hexes_entered} hex{'es' if hexes_entered != 1 else ''} entered"
    cover = terrain_modifiers(terrain)
    if dug_in:
        cover += (mod(fire_table().hit["dug_in"], "dug in", "13.8"),)
    return TargetDie(
        profile=(mod(profile, "target profile", "5"),) if profile else (),
        movement=(mod(move, move_name, "5"),) if move else (),
        terrain=cover,
    )
