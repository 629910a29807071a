"""Provides the tables of the HACSE fire, damage and morale calculators, and the 2d10 arithmetic they share.

Every PROPOSED or interpreted value of the digest that these calculators use lives in ``data/fire.toml``,
``data/damage.toml``, ``data/morale.toml`` and ``data/hitlocation.toml``; this module reads them, checks their
shape and gives them typed (:func:`fire_table`, :func:`damage_table`, :func:`morale_table`,
:func:`location_table`). It also holds what every calculator shares: the exact 2d10 distribution (:data:`TWO_D10`,
Appendix A), :class:`Row` (one damage row of a unit sheet, §2.3), :class:`Roller` (how a procedure asks for dice)
and :func:`mod` (a modifier with its rule, for the dice log).

>>> TWO_D10[11], chance_at_least(8)
(Fraction(1, 10), Fraction(79, 100))
>>> fire_table().hit["medium_range"], damage_table().big_ap
(4, ((10, 1), (20, 2)))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from types import MappingProxyType
from typing import Any, Protocol

from engine.events import Modifier

from .data import DATA_DIR, read_toml, require

__all__ = [
    "DATA_DIR",
    "LOCATIONS",
    "ROW_KINDS",
    "TWO_D10",
    "DamageTable",
    "FireDataError",
    "FireTable",
    "LocationTable",
    "MoraleTable",
    "Roller",
    "Row",
    "VariableDamage",
    "chance",
    "chance_at_least",
    "chance_at_most",
    "damage_table",
    "fire_table",
    "location_table",
    "mod",
    "morale_table",
    "total",
]


TWO_D10: Mapping[int, Fraction] = MappingProxyType({s: Fraction(10 - abs(s - 11), 100) for s in range(2, 21)})
"""The probability of each 2d10 sum (Appendix A): 100 equally likely outcomes, 1 to 10 ways per sum."""

ROW_KINDS: tuple[str, ...] = (
    "soldier",
    "track_axle",
    "engine",
    "fuel_tank",
    "ammunition",
    "ammo_trailer",
    "turret",
    "weapon",
    "gun",
    "equipment",
    "cargo_bed",
)
"""The kinds of damage row of a unit sheet (§2.3); ``gun`` is the weapon row of a gun (the roster's name for it)."""


class FireDataError(ValueError):
    """A fire, damage, morale or hit-location data file is missing a key or holds a value of the wrong kind."""


def chance(event: Callable[[int], bool]) -> Fraction:
    """The exact probability that a 2d10 sum satisfies ``event``.

    >>> chance(lambda s: s % 2 == 0)
    Fraction(1, 2)
    """
    return sum((p for s, p in TWO_D10.items() if event(s)), Fraction(0))


def chance_at_least(tn: int) -> Fraction:
    """P(2d10 ≥ tn): the chance of a hit, sighting, random-hit or skill roll without jams (§1)."""
    return chance(lambda s: s >= tn)


def chance_at_most(value: int) -> Fraction:
    """P(2d10 ≤ value): the chance of a successful morale roll (§9.1)."""
    return chance(lambda s: s <= value)


def mod(value: int, name: str, rule: str) -> Modifier:
    """A modifier for the dice log: ``mod(4, "medium range", "6.3")`` reads "+4 medium range (rule 6.3)"."""
    got = _MODS.get((value, name, rule))
    if got is None:  # a modifier is frozen: one object for each (DESIGN §11, the listings make thousands)
        if len(_MODS) >= 10_000:
            _MODS.clear()
        got = _MODS[(value, name, rule)] = Modifier(value, f"{name} (rule {rule})")
    return got


_MODS: dict[tuple[int, str, str], Modifier] = {}


def total(modifiers: tuple[Modifier, ...] | list[Modifier]) -> int:
    """The sum of the modifiers' values."""
    return sum(m.value for m in modifiers)


class Roller(Protocol):
    """How a procedure asks for dice: ``roller(10, 2, "hit roll")`` returns the two d10 values.

    The ruleset passes ``lambda sides, count, purpose: tr.roll(sides, count, purpose)`` (the game's seeded dice,
    recorded in the dice log); tests pass scripted values.
    """

    def __call__(self, sides: int, count: int, purpose: str) -> tuple[int, ...]: ...


@dataclass(frozen=True, slots=True)
class Row:
    """One damage row ("Zeile") of a unit sheet (§2.3), as far as the calculators need it.

    ``kind`` is one of :data:`ROW_KINDS`; for a soldier ``role`` says what he does (``"commander"``,
    ``"gunner"``, ``"driver"``, ``"rifleman"``, ...); for a weapon row ``mount`` says where it sits (``"turret"``,
    ``"hull"``, ``"coax"``, ``"rear"``, ``"pintle"``, ``"carried"``, ``"towed"``), ``main`` flags the sheet's main
    weapon and ``operator`` is the index of the crew row that fires it.
    """

    index: int
    kind: str
    role: str = ""
    mount: str = ""
    main: bool = False
    operator: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in ROW_KINDS:
            raise ValueError(f"row {self.index}: unknown kind {self.kind!r} (one of {', '.join(ROW_KINDS)})")

    @property
    def is_crew(self) -> bool:
        """A soldier row (crew of a gun or vehicle, or a man of an infantry group)."""
        return self.kind == "soldier"

    @property
    def is_weapon(self) -> bool:
        """A weapon row (a gun's own weapon row included)."""
        return self.kind in ("weapon", "gun")

    @property
    def is_commander(self) -> bool:
        """A soldier whose role names him commander (``commander``, ``commander / gunner``, ``gun commander``)."""
        return self.is_crew and "commander" in self.role.lower()

    @property
    def counts(self) -> bool:
        """Counts toward the unit's possible damage: every row but a cargo bed (§2.3, INTERP)."""
        return self.kind != "cargo_bed"


# --- Reading -----------------------------------------------------------------------------------------------


@cache
def _load(name: str) -> dict[str, Any]:
    return read_toml(DATA_DIR / f"{name}.toml", FireDataError)


def _get(d: Mapping[str, Any], key: str, where: str) -> Any:
    return require(d, key, where, FireDataError)


def _ints(d: Mapping[str, Any], where: str, *, keys: tuple[str, ...] = ()) -> Mapping[str, int]:
    for key in keys:
        _get(d, key, where)
    out: dict[str, int] = {}
    for key, value in d.items():
        if not isinstance(value, int) or isinstance(value, bool):
            raise FireDataError(f"{where}.{key}: expected an integer, got {value!r}")
        out[key] = value
    return MappingProxyType(out)


def _int(d: Mapping[str, Any], key: str, where: str) -> int:
    value = _get(d, key, where)
    if not isinstance(value, int) or isinstance(value, bool):
        raise FireDataError(f"{where}.{key}: expected an integer, got {value!r}")
    return value


def _int_list(value: Any, where: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise FireDataError(f"{where}: expected a list of integers, got {value!r}")
    return tuple(value)


def _str_list(value: Any, where: str, length: int) -> tuple[str, ...]:
    if not isinstance(value, list) or len(value) != length or not all(isinstance(v, str) for v in value):
        raise FireDataError(f"{where}: expected a list of {length} names, got {value!r}")
    return tuple(value)


@dataclass(frozen=True, slots=True)
class FireTable:
    """``data/fire.toml``: the hit-roll limits and modifiers (§5, §6.3–6.7, §7, §11, §12.1, §15.5)."""

    roll: Mapping[str, int]
    indirect: Mapping[str, int]
    jam: frozenset[int]
    jam_rapid: frozenset[int]
    hit: Mapping[str, int]
    terrain_hit: Mapping[str, int]
    pool: Mapping[str, int]
    sustained_shots: int
    sustained_shots_doubled: int
    doubling_weapons: frozenset[str]
    rules_shots: Mapping[str, int]

    def terrain(self, key: str) -> int:
        """The hit-column entry of a terrain or overlay key (§6.3); 0 for keys the table does not list."""
        return self.terrain_hit.get(key, 0)


_HIT_KEYS = (
    "medium_range",
    "long_range",
    "indirect",
    "firer_moved",
    "vehicle_in_line",
    "dug_in",
    "building",
    "aimed",
    "rapid",
    "rapid_semi_auto",
    "relay",
    "from_vehicle",
    "shaken",
    "physical",
    "he_vs_infantry",
    "indirect_without_sight",
)


@cache
def fire_table() -> FireTable:
    """The fire table, read once and checked."""
    raw, w = _load("fire"), "fire.toml"
    roll_raw = dict(_get(raw, "roll", w))
    jam = _int_list(roll_raw.pop("jam", None), f"{w}.roll.jam")
    jam_rapid = _int_list(roll_raw.pop("jam_rapid", None), f"{w}.roll.jam_rapid")
    sustained = _get(raw, "sustained", w)
    weapons = _get(sustained, "doubling_weapons", f"{w}.sustained")
    if not isinstance(weapons, list) or not all(isinstance(k, str) for k in weapons):
        raise FireDataError(f"{w}.sustained.doubling_weapons: expected a list of weapon keys, got {weapons!r}")
    return FireTable(
        roll=_ints(roll_raw, f"{w}.roll", keys=("max_tn", "max_tn_indirect_sight", "always_miss", "jam_repair_turns")),
        indirect=_ints(_get(raw, "indirect", w), f"{w}.indirect", keys=("range_factor", "half_tn", "scatter_die")),
        jam=frozenset(jam),
        jam_rapid=frozenset(jam_rapid),
        hit=_ints(_get(raw, "hit", w), f"{w}.hit", keys=_HIT_KEYS),
        terrain_hit=_ints(_get(raw, "terrain_hit", w), f"{w}.terrain_hit"),
        pool=_ints(_get(raw, "pool", w), f"{w}.pool", keys=("min_weapons", "max_weapons", "damage_step")),
        sustained_shots=_int(sustained, "rules_shots", f"{w}.sustained"),
        sustained_shots_doubled=_int(sustained, "rules_shots_doubled", f"{w}.sustained"),
        doubling_weapons=frozenset(weapons),
        rules_shots=_ints(_get(raw, "rules_shots", w), f"{w}.rules_shots", keys=("roll", "hex_burst")),
    )


@dataclass(frozen=True, slots=True)
class VariableDamage:
    """The variable damage of an odd random hit for one HE value (§7.3): ``fixed`` points, or ``dice`` d ``sides``."""

    fixed: int = 0
    dice: int = 0
    sides: int = 0

    def distribution(self) -> dict[int, Fraction]:
        """The exact distribution of the damage."""
        if not self.dice:
            return {self.fixed: Fraction(1)}
        dist: dict[int, Fraction] = {0: Fraction(1)}
        for _ in range(self.dice):
            nxt: dict[int, Fraction] = {}
            for s, p in dist.items():
                for face in range(1, self.sides + 1):
                    nxt[s + face] = nxt.get(s + face, Fraction(0)) + p / self.sides
            dist = nxt
        return dict(sorted(dist.items()))

    def __str__(self) -> str:
        return str(self.fixed) if not self.dice else f"{self.dice}d{self.sides}"


@dataclass(frozen=True, slots=True)
class DamageTable:
    """``data/damage.toml``: penetration, damage amounts, random hits, secondary damage, rams (§7.3, §8, §12)."""

    dk: Mapping[str, int]
    vehicle: Mapping[str, int]
    big_ap: tuple[tuple[int, int], ...]
    """(Dk + armour at least, bonus) rows, lowest first (§8.3)."""
    infantry: Mapping[str, int]
    riders_extra: int
    building_near_miss: int
    secondary: Mapping[str, int]
    random_hit: Mapping[str, int]
    variable: tuple[tuple[int, VariableDamage], ...]
    """(HE at least, damage) rows, lowest first (§7.3)."""
    ram: Mapping[str, int]

    def variable_damage(self, he: int) -> VariableDamage:
        """The variable damage of an odd random hit with HE ``he`` (§7.3; above the table k d10 for HE 10k…10k+9)."""
        if he < self.variable[0][0]:
            return VariableDamage(fixed=0)
        step = self.random_hit["above_table_step"]
        top_he, top = self.variable[-1]
        if he >= top_he + step:
            return VariableDamage(dice=he // step, sides=top.sides)
        return next(v for lo, v in reversed(self.variable) if he >= lo)


def _variable_rows(raw: Any, where: str) -> tuple[tuple[int, VariableDamage], ...]:
    if not isinstance(raw, list) or not raw:
        raise FireDataError(f"{where}: expected a list of rows")
    rows: list[tuple[int, VariableDamage]] = []
    for i, row in enumerate(raw):
        vals = _ints(row, f"{where}[{i}]", keys=("he_min",))
        if "fixed" in vals:
            rows.append((vals["he_min"], VariableDamage(fixed=vals["fixed"])))
        else:
            dice = _ints(row, f"{where}[{i}]", keys=("dice", "sides"))
            rows.append((vals["he_min"], VariableDamage(dice=dice["dice"], sides=dice["sides"])))
    if [lo for lo, _ in rows] != sorted(lo for lo, _ in rows):
        raise FireDataError(f"{where}: rows must be in rising order of he_min")
    return tuple(rows)


@cache
def damage_table() -> DamageTable:
    """The damage table, read once and checked."""
    raw, w = _load("damage"), "damage.toml"
    vehicle = dict(_get(raw, "vehicle", w))
    big_raw = vehicle.pop("big_ap", None)
    if not isinstance(big_raw, list):
        raise FireDataError(f"{w}.vehicle.big_ap: expected a list of {{sum, bonus}} rows")
    big = tuple(
        (r["sum"], r["bonus"])
        for r in (_ints(b, f"{w}.vehicle.big_ap[{i}]", keys=("sum", "bonus")) for i, b in enumerate(big_raw))
    )
    return DamageTable(
        dk=_ints(
            _get(raw, "dk", w),
            f"{w}.dk",
            keys=("medium_range", "long_range", "roll_equals_tn", "natural_20", "margin_step"),
        ),
        vehicle=_ints(vehicle, f"{w}.vehicle", keys=("base", "dk_step", "track_divisor")),
        big_ap=tuple(sorted(big)),
        infantry=_ints(_get(raw, "infantry", w), f"{w}.infantry", keys=("base", "he_cap_extra")),
        riders_extra=_ints(_get(raw, "riders", w), f"{w}.riders", keys=("extra",))["extra"],
        building_near_miss=_ints(_get(raw, "building", w), f"{w}.building", keys=("near_miss",))["near_miss"],
        secondary=_ints(_get(raw, "secondary", w), f"{w}.secondary", keys=("damage", "dk")),
        random_hit=_ints(
            _get(raw, "random_hit", w),
            f"{w}.random_hit",
            keys=(
                "base",
                "burst_he_factor",
                "full_infantry_extra",
                "side_dk_divisor",
                "carry_dk_divisor",
                "above_table_step",
            ),
        ),
        variable=_variable_rows(_get(raw, "variable_damage", w), f"{w}.variable_damage"),
        ram=_ints(_get(raw, "ram", w), f"{w}.ram", keys=("divisor", "wheeled_building", "vs_infantry")),
    )


@dataclass(frozen=True, slots=True)
class MoraleTable:
    """``data/morale.toml``: morale modifiers, failure, the 50 % trigger and the ram suicide share (§9, §12.3)."""

    modifiers: Mapping[str, int]
    dissolve_margin: int
    trigger: Fraction
    suicide: Fraction


def _fraction(raw: Mapping[str, Any], where: str) -> Fraction:
    vals = _ints(raw, where, keys=("numerator", "denominator"))
    if vals["denominator"] <= 0:
        raise FireDataError(f"{where}.denominator: must be positive")
    return Fraction(vals["numerator"], vals["denominator"])


@cache
def morale_table() -> MoraleTable:
    """The morale table, read once and checked."""
    raw, w = _load("morale"), "morale.toml"
    return MoraleTable(
        modifiers=_ints(
            _get(raw, "modifiers", w),
            f"{w}.modifiers",
            keys=("per_damage", "burning", "no_leader", "suicide", "full_chain"),
        ),
        dissolve_margin=_ints(_get(raw, "failure", w), f"{w}.failure", keys=("dissolve_margin",))["dissolve_margin"],
        trigger=_fraction(_get(raw, "trigger", w), f"{w}.trigger"),
        suicide=_fraction(_get(raw, "suicide", w), f"{w}.suicide"),
    )


LOCATIONS: frozenset[str] = frozenset(
    {
        "ammunition",
        "fuel_tank",
        "engine",
        "turret",
        "track_axle",
        "equipment",
        "ammo_trailer",
        "commander",
        "crew",
        "cargo",
        "main_weapon",
        "hull_weapon",
        "any_weapon",
        "gun",
    }
)


@dataclass(frozen=True, slots=True)
class LocationTable:
    """``data/hitlocation.toml``: the 2d10 hit-location tables of §15.6 (results 2…20 per column)."""

    vehicle: Mapping[str, tuple[str, ...]]
    """Column (``front``, ``side``, ``rear``, ``top``) → the location of each result 2…20."""
    gun: tuple[str, ...]

    def vehicle_location(self, column: str, roll: int) -> str:
        """The location name a 2d10 ``roll`` gives in a vehicle ``column``."""
        return self.vehicle[column][roll - 2]


def _locations(value: Any, where: str) -> tuple[str, ...]:
    names = _str_list(value, where, 19)
    unknown = sorted(set(names) - LOCATIONS)
    if unknown:
        raise FireDataError(f"{where}: unknown locations {', '.join(unknown)} (one of {', '.join(sorted(LOCATIONS))})")
    return names


@cache
def location_table() -> LocationTable:
    """The hit-location tables, read once and checked."""
    raw, w = _load("hitlocation"), "hitlocation.toml"
    vehicle = _get(raw, "vehicle", w)
    columns = {
        c: _locations(_get(vehicle, c, f"{w}.vehicle"), f"{w}.vehicle.{c}") for c in ("front", "side", "rear", "top")
    }
    gun = _locations(_get(_get(raw, "gun", w), "results", f"{w}.gun"), f"{w}.gun.results")
    return LocationTable(vehicle=MappingProxyType(columns), gun=gun)
