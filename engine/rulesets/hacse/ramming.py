"""Provides the HACSE physical-attack and ramming calculators (§12).

- The attack roll (§12.1): a normal hit roll at range 0 (same hex: no terrain, §6.4) "as if at medium range", +4,
  except a vehicle against a building (:func:`ram_shot` builds the :class:`~.fire.Shot`); against infantry a
  vehicle deals 1 damage.
- Ram damage (§12.2): to the enemy ⌊v × w_own / 10⌋ − its armour on the facing rammed; to the rammer
  ⌊v × w_enemy / 10⌋ − its front armour; never below 0 (:func:`ram_damage`); against buildings
  (:func:`ram_building`).
- A ram is a suicide attack when the rammer would take damage on more than half its rows (§12.3,
  :func:`is_suicide`); ram damage goes to tracks/axles first, the fuel tank and the ammunition last
  (:func:`ram_allocation`).

>>> ram_damage(v=4, w_own=25, w_enemy=30.9, a_enemy=5, a_own=8).to_enemy
5
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from engine.errors import IllegalActionError
from engine.events import Modifier

from .damage import Target
from .fire import Ammo, Building, Shot, Weapon
from .firedata import Roller, damage_table, mod, morale_table
from .targetdie import TargetDie

__all__ = [
    "RAM",
    "RAM_AMMO",
    "RamDamage",
    "check_ram",
    "is_suicide",
    "ram_allocation",
    "ram_building",
    "ram_damage",
    "ram_shot",
    "vs_infantry_damage",
]

RAM = Weapon("RAM", "ram", 0, 0, 0, poolable=False)
"""A vehicle's physical attack (§12.1): range 0 only."""
RAM_AMMO = Ammo("ram", 0, 0)
"""Ram damage needs no Dk check (§12.2 P): the Dk is never used."""

_LAST = ("fuel_tank", "ammunition")


def _force(v: int, weight: float) -> int:
    """⌊v × w / 10⌋ (§12.2 P), exact for weights written with decimals (30.9 t)."""
    return math.floor(v * Fraction(str(weight)) / damage_table().ram["divisor"])


@dataclass(frozen=True, slots=True)
class RamDamage:
    """The damage of a ram to both vehicles (§12.2), with the terms for the log."""

    to_enemy: int
    to_rammer: int
    terms: tuple[Modifier, ...]


def ram_damage(*, v: int, w_own: float, w_enemy: float, a_enemy: int, a_own: int) -> RamDamage:
    """Damage of a vehicle (or gun) rammed by a vehicle (§12.2): ``v`` hexes moved this turn, weights in tonnes,
    ``a_enemy`` the armour of the facing rammed (§2.2), ``a_own`` the rammer's front armour.

    >>> r = ram_damage(v=6, w_own=30.9, w_enemy=25, a_enemy=2, a_own=9)
    >>> r.to_enemy, r.to_rammer
    (16, 6)
    """
    hit, back = _force(v, w_own), _force(v, w_enemy)
    terms = (
        mod(hit, f"{v} hexes x {w_own} t / 10", "12.2"),
        mod(-a_enemy, "armour of the facing rammed", "12.2"),
        mod(back, f"{v} hexes x {w_enemy} t / 10 (to the rammer)", "12.2"),
        mod(-a_own, "rammer's front armour", "12.2"),
    )
    return RamDamage(max(0, hit - a_enemy), max(0, back - a_own), terms)


def ram_building(*, v: int, w_own: float, a_building: int, a_own: int, wheeled: bool) -> tuple[int, int]:
    """(damage to the building, damage to the rammer) when a vehicle rams a building (§12.2).

    The rammer takes A_building² (+1 if wheeled) − its own armour; the building ⌊v × w / 10⌋ − its armour (P).

    >>> ram_building(v=5, w_own=3.3, a_building=2, a_own=0, wheeled=True)
    (0, 5)
    """
    extra = damage_table().ram["wheeled_building"] if wheeled else 0
    return max(0, _force(v, w_own) - a_building), max(0, a_building * a_building + extra - a_own)


def is_suicide(own_damage: int, possible_damage: int) -> bool:
    """A ram is a suicide attack when the rammer would take damage on more than half of its rows (§12.3; cargo beds
    do not count): a morale roll at −6 before the attack, and failing it dissolves the unit (§9.3, §9.5).

    >>> is_suicide(4, 14), is_suicide(6, 13), is_suicide(5, 5)
    (False, False, True)
    """
    return own_damage > possible_damage * morale_table().suicide


def check_ram(*, vehicle: bool, entered_target_hex: bool, rammed_this_turn: bool) -> None:
    """Refuse a ram that §12.1 does not allow: only vehicles ram (P), the rammer must have entered the target's hex
    this turn (P), and a vehicle rams once per turn (P)."""
    if not vehicle:
        raise IllegalActionError("Cannot ram: only vehicles ram; infantry attacks in close combat", "12.1")
    if not entered_target_hex:
        raise IllegalActionError("Cannot ram: the vehicle did not enter the target's hex this turn", "12.1")
    if rammed_this_turn:
        raise IllegalActionError("Cannot ram: the vehicle already rammed this turn", "12.1")


def ram_shot(
    base_number: int,
    target_die: TargetDie | None = None,
    *,
    moved: bool,
    target_infantry: bool = False,
    building: Building | None = None,
) -> Shot:
    """The hit roll of a vehicle's physical attack (§12.1): range 0 in the target's hex (no terrain, §6.4), +4, the
    rammer's movement +2. Without ``target_die`` the target is the ``building`` itself: no +4 and no die (§8.6 P)."""
    at_building = target_die is None
    return Shot(
        base_number,
        RAM,
        RAM_AMMO,
        distance=0,
        target_die=target_die or TargetDie((), (), ()),
        target_infantry=target_infantry,
        firer_moved=moved,
        same_hex=True,
        physical=True,
        vehicle_physical=True,
        at_building=at_building,
        building=None if at_building else building,
    )


def vs_infantry_damage() -> int:
    """A vehicle's physical attack against infantry deals 1 damage (§12.1)."""
    return damage_table().ram["vs_infantry"]


def ram_allocation(target: Target, points: int, roller: Roller) -> tuple[int, ...]:
    """The rows ram damage strikes (§12.3): first the track/axle rows, then random other rows (P), the fuel tank and
    the ammunition only when every other row is hit; cargo beds never. Points beyond the last row are lost."""
    hit = set(target.hit)
    out: list[int] = []
    rows = [r for r in target.rows if r.counts]
    for _ in range(points):
        intact = [r for r in rows if r.index not in hit]
        if not intact:
            break
        tracks = [r.index for r in intact if r.kind == "track_axle"]
        others = [r.index for r in intact if r.kind not in _LAST and r.kind != "track_axle"]
        pool = tracks or others or [r.index for r in intact]
        index = pool[0] if len(pool) == 1 else pool[roller(len(pool), 1, "which row the ram damages")[0] - 1]
        hit.add(index)
        out.append(index)
    return tuple(out)
