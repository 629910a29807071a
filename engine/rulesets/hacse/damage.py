"""Provides the HACSE damage calculators (§8, §15.6): penetration, damage amounts, hit locations, hit effects.

- Effective Dk (§8.2): the ammunition's Dk, −1 at medium and −2 at long range, −1 when the roll equals the TN,
  +1 on a natural 20, +1 per full 5 points the roll beats the TN (:func:`effective_dk`).
- Against vehicles and guns (§8.1, §8.3): damage only if effective Dk ≥ the armour used (armour 0: no check);
  1 + HE + ⌊(Dk − armour) / 3⌋ (never negative) + 1 or 2 for big AP shells (:func:`vehicle_damage`).
- Against infantry (§8.1, §11.4): 1, and with HE +1 per full 3 points above the TN, at most HE + 1
  (:func:`infantry_damage`).
- Where each damage point lands (§8.5, §15.6): infantry loses its lowest intact soldier row; guns and vehicles roll
  2d10 on the tables of ``data/hitlocation.toml`` (:func:`locate`), the first point before the armour check (a
  track/axle has half armour); :func:`allocate` spends a damage amount over the rows, :func:`apply_hit` is the whole
  §8.5 procedure for one hit, :func:`location_odds` the exact location distribution.
- Buildings and bunkers (§8.4, §8.6) and secondary damage (§8.7).

>>> effective_dk(10, "medium", roll=11, tn=11)[0]
8
>>> vehicle_damage(8, 4, he=1, is_ap=True).amount
4
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from fractions import Fraction

from engine.events import Modifier

from .cache import remember
from .firedata import TWO_D10, Roller, Row, damage_table, location_table, mod, total

__all__ = [
    "BANDS",
    "COLUMNS",
    "Allocation",
    "Effects",
    "HitResult",
    "Location",
    "Target",
    "VehicleDamage",
    "allocate",
    "apply_hit",
    "armour_used",
    "building_damage",
    "burning_damage",
    "destroyed_with_building",
    "effective_dk",
    "effects",
    "fixed_hit",
    "infantry_damage",
    "locate",
    "location_odds",
    "max_armour",
    "near_miss",
    "passengers_after",
    "pool_extra",
    "range_dk",
    "secondary_damage",
    "secondary_hit",
    "vehicle_damage",
]

BANDS: tuple[str, ...] = ("short", "medium", "long")
"""The range bands of a weapon (§6.3)."""

COLUMNS: tuple[str, ...] = ("front", "side", "rear", "top")
"""The armour facings and hit-location columns (§2.2, §15.6)."""


# --- Penetration and damage amounts (§8.1–8.3) --------------------------------------------------------------


def range_dk(dk: int, band: str) -> tuple[int, tuple[Modifier, ...]]:
    """The Dk after the range modifiers only (§8.2; used by the building rule §6.3 b and random hits §7.3)."""
    table = damage_table().dk
    if band not in BANDS:
        raise ValueError(f"unknown range band {band!r}")
    mods: tuple[Modifier, ...] = ()
    if band == "medium":
        mods = (mod(table["medium_range"], "medium range", "8.2"),)
    elif band == "long":
        mods = (mod(table["long_range"], "long range", "8.2"),)
    return dk + total(mods), mods


def effective_dk(dk: int, band: str, *, roll: int, tn: int) -> tuple[int, tuple[Modifier, ...]]:
    """The effective Dk of a hit (§8.2): range, roll equal to the TN, natural 20, per full 5 points above the TN.

    >>> effective_dk(10, "short", roll=20, tn=9)[0]
    13
    """
    table = damage_table().dk
    _, mods = range_dk(dk, band)
    if roll == tn:
        mods += (mod(table["roll_equals_tn"], "roll equal to the TN", "8.2"),)
    if roll == 20:
        mods += (mod(table["natural_20"], "natural 20", "8.2"),)
    step = (roll - tn) // table["margin_step"] if roll > tn else 0
    if step:
        mods += (mod(step, f"roll {roll - tn} above the TN", "8.2"),)
    return dk + total(mods), mods


@dataclass(frozen=True, slots=True)
class VehicleDamage:
    """The damage of one hit on a vehicle or gun (§8.1–8.3)."""

    penetrates: bool
    amount: int
    parts: tuple[Modifier, ...]
    """The terms of the amount (hit, HE, Dk above armour, big AP), or why nothing was dealt."""


def vehicle_damage(dk_eff: int, armour: int, *, he: int, is_ap: bool) -> VehicleDamage:
    """Damage of one hit against vehicles and guns (§8.1, §8.2, §8.3).

    Armour 0 means "unarmoured": no penetration check (§8.2 INTERP). Otherwise no damage unless Dk ≥ armour.

    >>> vehicle_damage(7, 9, he=1, is_ap=True).amount, vehicle_damage(12, 8, he=0, is_ap=True).amount
    (0, 4)
    """
    table = damage_table()
    if armour >= 1 and dk_eff < armour:
        return VehicleDamage(False, 0, (mod(0, f"Dk {dk_eff} does not penetrate armour {armour}", "8.2"),))
    parts = [mod(table.vehicle["base"], "hit", "8.1")]
    if he:
        parts.append(mod(he, f"HE {he}", "8.1"))
    over = max(0, (dk_eff - armour) // table.vehicle["dk_step"])
    if over:
        parts.append(mod(over, f"Dk {dk_eff} over armour {armour}", "8.1"))
    if is_ap:
        bonus = max((b for s, b in table.big_ap if dk_eff + armour >= s), default=0)
        if bonus:
            parts.append(mod(bonus, f"big AP shell (Dk + armour {dk_eff + armour})", "8.3"))
    return VehicleDamage(True, total(parts), tuple(parts))


def infantry_damage(*, he: int, margin: int) -> int:
    """Damage of one hit against infantry (§8.1, §11.4): 1; with HE, +1 per full 3 points above the TN, max HE + 1.

    >>> infantry_damage(he=3, margin=9), infantry_damage(he=3, margin=14), infantry_damage(he=0, margin=14)
    (4, 4, 1)
    """
    table = damage_table().infantry
    if he <= 0:
        return table["base"]
    step = damage_table().vehicle["dk_step"]
    return min(table["base"] + max(0, margin) // step, he + table["he_cap_extra"])


def pool_extra(margin: int, *, cap: int, per_step: int = 1) -> int:
    """Extra damage of a pooled or bundled hit (§11.3, §11.5): ``per_step`` per full 3 points above the eased TN.

    ``cap`` is the most the whole hit may deal (the number of weapons, §11.3 P, §11.5), so the extra is at most
    ``cap − 1``.
    """
    step = damage_table().vehicle["dk_step"]
    return max(0, min(per_step * (max(0, margin) // step), cap - 1))


# --- Targets, locations, allocation (§8.5, §15.6) ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Target:
    """What a hit needs to know of the unit it strikes (§2.3).

    ``unit_type`` is ``infantry``, ``gun`` or ``vehicle``; ``armour`` gives front, side, rear and top (0 =
    unarmoured); ``hit`` holds the indices of rows already hit; ``embarked`` counts the groups aboard (a cargo-bed
    hit damages one of them); ``riders`` says whether infantry rides outside (§4.5).
    """

    unit_type: str
    armour: tuple[int, int, int, int] = (0, 0, 0, 0)
    rows: tuple[Row, ...] = ()
    hit: frozenset[int] = frozenset()
    embarked: int = 0
    riders: bool = False
    bunker: int = 0
    """The armour of the bunker the unit occupies (0: none): a hit must have Dk ≥ it to do damage (§8.4, §8.6)."""

    def sheltered(self, building_armour: int) -> Target:
        """An armoured unit inside a building: only the higher of its and the building's armour counts (§8.4).

        Unarmoured units keep armour 0: the building protects them through the +5 to hit (§6.3 note b).
        """
        if not any(self.armour):
            return self
        armour = tuple(max(a, building_armour) for a in self.armour)
        return replace(self, armour=(armour[0], armour[1], armour[2], armour[3]))

    def armour_of(self, column: str) -> int:
        """The armour value of a facing (``front``, ``side``, ``rear``, ``top``)."""
        return self.armour[COLUMNS.index(column)]

    @property
    def possible_damage(self) -> int:
        """Rows that are not cargo beds (§2.3, INTERP)."""
        return sum(1 for r in self.rows if r.counts)

    @property
    def damage_taken(self) -> int:
        """Rows hit so far (cargo beds are never marked hit)."""
        return len(self.hit)

    def intact(self, rows: Iterable[Row]) -> tuple[Row, ...]:
        """The rows among ``rows`` that are not hit yet."""
        return tuple(r for r in rows if r.index not in self.hit)


@dataclass(frozen=True, slots=True)
class Location:
    """Where one damage point lands: the table's result, and the intact rows it may strike."""

    name: str
    """The location as the table names it after fall-through (``crew``, ``track_axle``, ``cargo`` ...)."""
    rows: tuple[int, ...]
    """The candidate rows; one is chosen at random when there are several (a random crew or weapon row)."""
    cargo: bool = False
    """A cargo-bed hit: 1 damage to a random embarked group, none if nobody is aboard (§8.5 P)."""
    roll: int = 0
    """The 2d10 location roll (0 for infantry, which does not roll)."""


def _candidates(target: Target, name: str) -> tuple[tuple[int, ...], str]:
    """The intact rows a location can strike on ``target`` (empty: unavailable) and the location's resolved name.

    Cargo* is a cargo bed if the sheet has one (hit repeatedly), else Crew; Commander is the intact commander row,
    else Crew (§15.6).
    """
    rows = target.rows
    if name == "cargo":
        beds = tuple(r.index for r in rows if r.kind == "cargo_bed")
        return (beds[:1], name) if beds else _candidates(target, "crew")
    if name == "commander":
        found = tuple(r.index for r in target.intact(rows) if r.is_commander)
        return (found, name) if found else _candidates(target, "crew")
    if name == "crew":
        crew = target.intact(r for r in rows if r.is_crew)
        if target.unit_type == "gun":  # §15.6: guns lose their lowest-numbered intact crew row
            crew = crew[:1]
        return tuple(r.index for r in crew), name
    weapons = target.intact(r for r in rows if r.is_weapon)
    if name == "main_weapon":
        return tuple(r.index for r in weapons if r.main), name
    if name == "hull_weapon":
        return tuple(r.index for r in weapons if r.mount == "hull"), name
    if name == "gun":
        return tuple(r.index for r in weapons if r.main or len(weapons) == 1), name
    if name == "any_weapon":
        return tuple(r.index for r in weapons), name
    return tuple(r.index for r in target.intact(r for r in rows if r.kind == name)), name


def _gun_location(target: Target, roll: int) -> Location:
    name = location_table().gun[roll - 2]
    if name == "ammo_trailer":
        found, _ = _candidates(target, name)
        if found:
            return Location(name, found, roll=roll)
        name = "gun"  # §15.6: 18 is the ammunition trailer if the sheet has one, else Gun
    found, _ = _candidates(target, name)
    if not found:  # §15.6: the result is unavailable, use the other location kind
        name = "crew" if name == "gun" else "gun"
        found, _ = _candidates(target, name)
    return Location(name, found, roll=roll)


def locate(target: Target, column: str, roll: int = 0) -> Location | None:
    """The location of one damage point (§8.5 P, §15.6), or None when no intact row is left.

    Infantry: the lowest-numbered intact soldier row, no roll. Guns: the gun table. Vehicles: the ``column`` of the
    facing hit; when the sheet has no intact row of the result's kind, the next higher result (after 20: 2).
    """
    if target.unit_type == "infantry":
        soldiers = target.intact(r for r in target.rows if r.is_crew)
        return Location("soldier", (soldiers[0].index,)) if soldiers else None
    if not 2 <= roll <= 20:
        raise ValueError(f"a hit-location roll is a 2d10 sum (2-20), not {roll}")
    if not any(r.counts and r.index not in target.hit for r in target.rows):
        return None
    if target.unit_type == "gun":
        loc = _gun_location(target, roll)
        return loc if loc.rows else None
    names = location_table().vehicle[column]
    for step in range(19):
        result = (roll - 2 + step) % 19 + 2
        found, name = _candidates(target, names[result - 2])
        if found:
            return Location(name, found, name == "cargo", roll)
    return None


def location_odds(target: Target, column: str) -> dict[str, Fraction]:
    """The exact distribution of the location of a first damage point (§15.6), by location name."""
    if target.unit_type == "infantry":
        loc = locate(target, column)
        return {loc.name: Fraction(1)} if loc else {}
    out: dict[str, Fraction] = {}
    for roll, p in TWO_D10.items():
        loc = locate(target, column, roll)
        name = loc.name if loc else "nothing left"
        out[name] = out.get(name, Fraction(0)) + p
    return out


def armour_used(target: Target, column: str, location: Location | None) -> int:
    """The armour a hit must beat (§8.5): the facing's armour, half of it (rounded down) on a track/axle."""
    armour = target.armour_of(column)
    if location is not None and location.name == "track_axle":
        return armour // damage_table().vehicle["track_divisor"]
    return armour


@dataclass(frozen=True, slots=True)
class Allocation:
    """Where the points of a damage amount went (§8.5)."""

    rows: tuple[int, ...] = ()
    """The rows hit, in order."""
    cargo_hits: int = 0
    """Cargo-bed hits with groups aboard: each is 1 damage to a random embarked group (§8.5 P)."""
    absorbed: int = 0
    """Cargo-bed hits with nobody aboard: no effect (§8.5 P)."""
    locations: tuple[Location, ...] = ()
    """The location of each point spent (cargo hits included)."""
    lost: int = 0
    """Points that found no intact row (the unit has nothing left to hit)."""


def _pick(loc: Location, roller: Roller) -> int:
    if len(loc.rows) == 1:
        return loc.rows[0]
    (die,) = roller(len(loc.rows), 1, f"which {loc.name.replace('_', ' ')} row")
    return loc.rows[die - 1]


def allocate(
    target: Target,
    column: str,
    points: int,
    roller: Roller,
    *,
    first: Location | None = None,
) -> Allocation:
    """Spend ``points`` damage points over the rows (§8.5 P): every point after the first rolls a new location.

    ``first`` is the already rolled location of the first point (it chose the armour); an ammunition trailer hit
    adds one further point (§8.5).
    """
    hit = set(target.hit)
    rows: list[int] = []
    locations: list[Location] = []
    cargo = absorbed = lost = 0
    remaining = points
    loc = first
    while remaining > 0:
        remaining -= 1
        current = replace(target, hit=frozenset(hit))
        if loc is None or (not loc.cargo and not set(loc.rows) - hit):
            roll = sum(roller(10, 2, "hit location")) if target.unit_type != "infantry" else 0
            loc = locate(current, column, roll)
        if loc is None:
            lost += 1 + remaining
            break
        locations.append(loc)
        if loc.cargo and target.embarked:
            cargo += 1
        elif loc.cargo:
            absorbed += 1
        else:
            row = _pick(Location(loc.name, tuple(i for i in loc.rows if i not in hit)), roller)
            hit.add(row)
            rows.append(row)
            if loc.name == "ammo_trailer":
                remaining += 1
        loc = None
    return Allocation(tuple(rows), cargo, absorbed, tuple(locations), lost)


@dataclass(frozen=True, slots=True)
class HitResult:
    """One hit resolved against a unit (§6.8 step 7, §8)."""

    column: str
    first: Location | None
    armour: int
    damage: VehicleDamage
    allocation: Allocation
    riders: int = 0
    """Extra damage to outside riders (§4.5: every hit on the vehicle, penetrating or not)."""


def apply_hit(
    target: Target,
    column: str,
    roller: Roller,
    *,
    dk_eff: int,
    he: int,
    is_ap: bool = False,
    infantry_amount: int = 1,
    extra: int = 0,
    aimed_row: int | None = None,
) -> HitResult:
    """Resolve one hit (§8.5 P): locate the first point, take its armour, check penetration, allocate the damage.

    Infantry takes ``infantry_amount`` (see :func:`infantry_damage`). ``extra`` is the pool or bundle damage added
    after the armour check (§8.1). ``aimed_row``: the first point strikes that row (§11.1 P). In a bunker nothing
    is damaged unless ``dk_eff`` reaches the bunker's armour (§8.4).
    """
    riders = damage_table().riders_extra if target.riders else 0
    first: Location | None
    if target.bunker and dk_eff < target.bunker:
        why = mod(0, f"Dk {dk_eff} does not penetrate the bunker's armour {target.bunker}", "8.4")
        return HitResult(column, None, target.bunker, VehicleDamage(False, 0, (why,)), Allocation(), riders)
    if target.unit_type == "infantry":
        amount = infantry_amount + extra
        first = locate(target, column) if aimed_row is None else Location("aimed", (aimed_row,))
        dmg = VehicleDamage(True, amount, (mod(amount, "damage", "8.1"),))
        return HitResult(column, first, 0, dmg, allocate(target, column, amount, roller, first=first), riders)
    if aimed_row is not None:
        row = next(r for r in target.rows if r.index == aimed_row)
        first = Location(row.kind, (aimed_row,))
    else:
        (a, b) = roller(10, 2, "hit location")
        first = locate(target, column, a + b)
    armour = armour_used(target, column, first)
    dmg = vehicle_damage(dk_eff, armour, he=he, is_ap=is_ap)
    if not dmg.penetrates:
        return HitResult(column, first, armour, dmg, Allocation(), riders)
    amount = dmg.amount + extra
    return HitResult(column, first, armour, dmg, allocate(target, column, amount, roller, first=first), riders)


def fixed_hit(target: Target, column: str, amount: int, roller: Roller, *, dk: int | None) -> HitResult:
    """``amount`` damage points of a fixed size on ``column`` (§7.3 side hits, §8.5 burning, §8.7 secondary damage).

    With ``dk`` the first point's armour must be beaten (armour 0: no check, half on a track/axle); ``dk=None``
    means no armour check at all (a burning vehicle's own damage).
    """
    riders = damage_table().riders_extra if target.riders else 0
    if target.unit_type == "infantry":
        dmg = VehicleDamage(True, amount, (mod(amount, "damage", "8.1"),))
        return HitResult(column, None, 0, dmg, allocate(target, column, amount, roller), riders)
    first = locate(target, column, sum(roller(10, 2, "hit location")))
    armour = armour_used(target, column, first)
    if dk is not None and armour >= 1 and dk < armour:
        why = mod(0, f"Dk {dk} does not penetrate armour {armour}", "8.2")
        return HitResult(column, first, armour, VehicleDamage(False, 0, (why,)), Allocation(), riders)
    dmg = VehicleDamage(True, amount, (mod(amount, "damage", "8.1"),))
    return HitResult(column, first, armour, dmg, allocate(target, column, amount, roller, first=first), riders)


def burning_damage(target: Target, roller: Roller) -> HitResult:
    """The End-Phase damage of a burning vehicle (§8.5, P): 1 point on a random location of the Side column, no
    armour check."""
    return fixed_hit(target, "side", 1, roller, dk=None)


def secondary_hit(target: Target, roller: Roller) -> HitResult:
    """Secondary damage to another unit in the hex of an ammunition explosion or trailer hit (§8.7 P): 1 damage as
    a side hit with Dk 2."""
    amount, dk, column = secondary_damage()
    return fixed_hit(target, column, amount, roller, dk=dk)


# --- Hit effects (§8.5) --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Effects:
    """What the rows hit mean for the unit (§8.5)."""

    immobilised: bool = False
    burning: bool = False
    destroyed: bool = False
    """Completely destroyed: ammunition hit, or every non-cargo row hit."""
    out_of_action: bool = False
    """A wreck (vehicle: all crew hit), a silenced gun (gun row or all crew), an eliminated group."""
    turret_jammed: bool = False
    ammo_trailer: bool = False
    """The unit's ammunition becomes 0 from the next turn on."""
    smoke: bool = False
    secondary: bool = False
    """Secondary damage to every other unit in the hex (§8.7 P: ammunition explosion or trailer hit)."""
    lost: tuple[int, ...] = field(default=())
    """Weapon and equipment rows destroyed."""


_EFFECTS: dict[tuple[int, frozenset[int], str], tuple[tuple[Row, ...], Effects]] = {}
"""Effects already found, by the rows (their tuple's id, the tuple kept with each), the rows hit and the unit type:
all they depend on. Movement asks at every step whether the unit is immobilised."""


def effects(target: Target) -> Effects:
    """The state of a unit given the rows hit so far (``target.hit``), by §8.5 and its PROPOSED completions."""
    key = (id(target.rows), target.hit, target.unit_type)
    return remember(_EFFECTS, key, lambda: _effects(target), target.rows, limit=10_000)


def _effects(target: Target) -> Effects:
    by_kind: dict[str, list[Row]] = {}
    for r in target.rows:
        if r.index in target.hit:
            by_kind.setdefault("weapon" if r.is_weapon else r.kind, []).append(r)
    crew = [r for r in target.rows if r.is_crew]
    all_crew_hit = bool(crew) and all(r.index in target.hit for r in crew)
    ammo = "ammunition" in by_kind
    destroyed = ammo or all(r.index in target.hit for r in target.rows if r.counts)
    gun_silenced = target.unit_type == "gun" and bool(by_kind.get("weapon"))  # §8.5 P: a gun's gun row hit
    out = all_crew_hit or gun_silenced
    return Effects(
        immobilised=any(k in by_kind for k in ("track_axle", "engine", "fuel_tank")),
        burning="fuel_tank" in by_kind and not ammo,
        destroyed=destroyed,
        out_of_action=out or destroyed,
        turret_jammed="turret" in by_kind,
        ammo_trailer="ammo_trailer" in by_kind,
        smoke="fuel_tank" in by_kind or ammo,
        secondary=ammo or "ammo_trailer" in by_kind,
        lost=tuple(r.index for r in by_kind.get("weapon", []) + by_kind.get("equipment", [])),
    )


def passengers_after(result: Effects, *, ammunition_hit: bool) -> str | None:
    """What happens to the passengers of a vehicle (§8.5 P): ``destroyed`` with it when its ammunition exploded;
    ``dismount`` (each group takes 1 damage and leaves in the hex) when it is otherwise destroyed or wrecked; None
    while it still runs."""
    if ammunition_hit:
        return "destroyed"
    if result.destroyed or result.out_of_action:
        return "dismount"
    return None


# --- Buildings, bunkers, secondary damage (§8.4, §8.6, §8.7) ---------------------------------------------------


def near_miss(tn: int, roll: int) -> bool:
    """A missed hit roll against units in a building damages the building when it missed by 10 or less (§8.6)."""
    return roll < tn and tn - roll <= damage_table().building_near_miss


def building_damage(dk_range: int, building_armour: int, *, he: int) -> int:
    """Damage to a building (§8.6 P): the vehicle formula with the range-modified Dk against its armour."""
    return vehicle_damage(dk_range, building_armour, he=he, is_ap=False).amount


def destroyed_with_building(unit_armour: int, building_armour: int) -> bool:
    """A unit inside a destroyed building is destroyed when its (top) armour is lower than the building's (§4.9)."""
    return unit_armour < building_armour


def secondary_damage() -> tuple[int, int, str]:
    """Secondary damage to every other unit in the hex (§8.7 P): (damage, Dk, column) = (1, 2, side)."""
    table = damage_table().secondary
    return table["damage"], table["dk"], "side"


def max_armour(*values: int) -> int:
    """Armoured units inside a building: only the higher of the unit's and the building's armour counts (§8.4)."""
    return max(values)
