"""Provides the HACSE data tables (``data/*.toml``) as typed, read-only values.

Every PROPOSED or INTERP value of the rules digest (``shared/rules/hacse.md``) lives in a data file beside this
module, never in code; this module reads the files, checks their shape and their cross-references, and looks
values up. A problem names the file, the entry and what was expected (:class:`DataError`).

>>> t = load_tables()
>>> t.sheets["GER-PZ4H"].armour.front, t.sheets["GER-PZ4H"].possible_damage
(8, 14)
>>> t.weapons["KWK40"].ammo["AP"].dk
10
>>> t.experience["conscript"].skill_tn
15
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

__all__ = [
    "ARMOUR_FACES",
    "DATA_DIR",
    "MAX",
    "MOUNTS",
    "MOVE_CLASSES",
    "NA",
    "PROHIBITED",
    "ROW_KINDS",
    "UNIT_TYPES",
    "Ammo",
    "Armour",
    "BuildingType",
    "Cost",
    "DataError",
    "Experience",
    "Mount",
    "MovementRules",
    "Row",
    "Sheet",
    "Tables",
    "TerrainClass",
    "Weapon",
    "load_tables",
]

DATA_DIR = Path(__file__).parent / "data"
"""The folder of the ruleset's TOML tables."""

MAX: Literal["max"] = "max"
"""A movement cost of "max.": the unit's whole MP allowance, only as its first expenditure (4.3 [INTERP])."""
PROHIBITED: Literal["prohibited"] = "prohibited"
"""A movement cost of "–": that movement class may not make the step (4.3)."""
NA: Literal["n/a"] = "n/a"
"""A surcharge that does not apply to the movement class (4.3: moving backwards on foot)."""

Cost = float | Literal["max", "prohibited", "n/a"]
"""An entry of the movement cost table (4.3)."""

UNIT_TYPES = ("infantry", "gun", "vehicle")
"""The three kinds of land unit (2.1)."""
MOVE_CLASSES = ("foot", "track", "wheel")
"""The movement classes, the columns of the cost table (2.3, 4.3)."""
TRAITS = ("hq", "map_station", "company_leader", "transport", "mountain_troops", "ranger", "signals_liaison")
"""A sheet's traits (2.3's sheet table; ``company_leader`` 9.2 and ``transport`` are ours, see ``units.toml``)."""
ARMOUR_FACES = ("front", "side", "rear", "top")
"""The armour values of a sheet (2.3)."""
MOUNTS = ("turret", "hull", "rear", "coax", "pintle", "carried", "towed")
"""Where a weapon is mounted (2.3); the arc follows from it (2.2)."""
ROW_KINDS = (
    "soldier",
    "track_axle",
    "engine",
    "fuel_tank",
    "ammunition",
    "ammo_trailer",
    "turret",
    "weapon",
    "equipment",
    "cargo_bed",
    "gun",
)
"""The kinds of damage row (2.3; ``gun`` is the weapon row of a gun sheet, 15.6)."""
WEAPON_CLASSES = ("rifle", "smg", "lmg", "hmg", "cannon", "mortar", "grenade", "charge", "flame", "rocket", "melee")
"""The weapon classes (2.3, 15.4)."""
FIRE_MODES = ("direct", "indirect", "both")
"""How a weapon may fire (2.3)."""


class DataError(ValueError):
    """A data file is missing a key, holds a value of the wrong kind, or names something that does not exist."""


# --- Records ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Ammo:
    """One ammunition type of a weapon (15.4): penetration (Dk), HE value, big-AP (8.3), smoke."""

    key: str
    name: str
    dk: int | None
    """Penetration; None for smoke."""
    he: int
    """HE value; for smoke, its duration in turns (15.4)."""
    ap: bool = False
    smoke: bool = False


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon type (2.3, 15.4)."""

    key: str
    name: str
    cls: str
    """rifle, smg, lmg, hmg, cannon, mortar, grenade, charge, melee."""
    bands: tuple[tuple[int, int], ...]
    """The range bands short, medium, long (those it has) as [first, last] hex."""
    min_range: int
    burst: bool
    semi_auto: bool
    heavy: bool
    fire_mode: str
    poolable: bool
    ammo: Mapping[str, Ammo]
    physical: bool = False
    from_above: bool = False

    @property
    def max_range(self) -> int:
        """The last hex of the longest band (beyond it the weapon cannot fire, 2.3)."""
        return self.bands[-1][1]

    def band(self, distance: int) -> str | None:
        """``short``, ``medium`` or ``long`` for a range in hexes, None when it cannot fire that far (or close)."""
        for name, (first, last) in zip(("short", "medium", "long"), self.bands, strict=False):
            if first <= distance <= last:
                return name
        return None


@dataclass(frozen=True, slots=True)
class Row:
    """One damage row of a sheet (2.3)."""

    index: int
    """1-based, in sheet order."""
    kind: str
    role: str
    weapon: str | None = None
    equipment: str | None = None
    leader: bool = False
    crew: bool = False


@dataclass(frozen=True, slots=True)
class Mount:
    """A weapon mount of a sheet (2.3): the weapon, how many, where, who operates it, the rules shots (15.5)."""

    weapon: str
    count: int
    mount: str
    ammo: Mapping[str, int]
    row: int | None = None
    crew: int | None = None
    main: bool = False
    sustained_cost: int | None = None
    sustained_doubled_cost: int | None = None

    @property
    def arc(self) -> str:
        """Where it may fire (2.2): ``all`` (turret, coax, pintle, carried), ``front`` (hull, towed: sector 0) or
        ``rear`` (sector ±3)."""
        if self.mount in ("hull", "towed"):
            return "front"
        if self.mount == "rear":
            return "rear"
        return "all"


@dataclass(frozen=True, slots=True)
class Armour:
    """Armour by location (2.3); 0 = unarmoured."""

    front: int
    side: int
    rear: int
    top: int


@dataclass(frozen=True, slots=True)
class Sheet:
    """A unit sheet (2.3, 15.7): the static data of a unit type."""

    id: str
    name: str
    short: str
    nation: str
    year: int
    unit_type: str
    kind: str
    move_class: str
    mp: int
    road_mp: int
    weight_t: float | None
    tow_load_t: float | None
    transport_capacity: int
    outside_riders: int
    open_topped: bool
    profile_kind: str
    target_profile: int
    armour: Armour
    heavy_equipment: bool
    hide_in: tuple[str, ...]
    traits: tuple[str, ...]
    commander_bonus: int
    equipment: Mapping[str, int]
    bv: int
    rows: tuple[Row, ...]
    mounts: tuple[Mount, ...]

    @property
    def has_facing(self) -> bool:
        """Guns and vehicles have a facing; infantry faces every way (2.1)."""
        return self.unit_type != "infantry"

    @property
    def possible_damage(self) -> int:
        """Rows that are not cargo beds (2.3 [INTERP])."""
        return sum(1 for r in self.rows if r.kind != "cargo_bed")

    @property
    def leader_row(self) -> Row | None:
        """The group leader's row (9.2), if the sheet marks one."""
        return next((r for r in self.rows if r.leader), None)

    @property
    def main_mount(self) -> Mount | None:
        """The mount flagged ``main`` (2.3), if any."""
        return next((m for m in self.mounts if m.main), None)


@dataclass(frozen=True, slots=True)
class Experience:
    """An experience level (15.2)."""

    key: str
    name: str
    base_number: int
    morale: int
    bv_factor: float
    skill_tn: int
    """3 × base number (13.1)."""


@dataclass(frozen=True, slots=True)
class BuildingType:
    """A building type (4.9)."""

    key: str
    height: int
    armour: int
    destroyed_at: int
    capacity: int
    per_hex: int


@dataclass(frozen=True, slots=True)
class TerrainClass:
    """A terrain class of the maps (4.3, 15.10.1)."""

    key: str
    name: str
    movement: str
    """The base row of the cost table."""
    overlays: tuple[str, ...]
    """Surcharge rows always paid to enter."""
    height: int
    """Levels above the ground for line of sight (6.3)."""
    as_road: bool = False
    building: str | None = None
    bridge: bool = False
    water: bool = False


@dataclass(frozen=True, slots=True)
class MovementRules:
    """The movement cost table (4.3) and the other movement values (4.1–4.7)."""

    base: Mapping[str, Mapping[str, Cost]]
    surcharge: Mapping[str, Mapping[str, Cost]]
    level_change: tuple[Mapping[str, Cost], ...]
    values: Mapping[str, float]
    """``movement.toml``: turning, stacking, mounting, towing, climbing values."""

    def value(self, key: str) -> float:
        """A value of ``movement.toml`` (KeyError names it)."""
        return self.values[key]


@dataclass(frozen=True, slots=True)
class Tables:
    """Every HACSE table."""

    weapons: Mapping[str, Weapon]
    sheets: Mapping[str, Sheet]
    experience: Mapping[str, Experience]
    default_experience: str
    skill_factor: int
    """The skill roll's TN is this multiple of the base number (13.1)."""
    commander_bonus: Mapping[str, int]
    profiles: Mapping[str, int]
    terrain: Mapping[str, TerrainClass]
    codes: Mapping[str, str]
    buildings: Mapping[str, BuildingType]
    bridge: Mapping[str, int]
    bunker: Mapping[str, int]
    movement: MovementRules
    sequence: Mapping[str, Mapping[str, Any]]


# --- Reading ---------------------------------------------------------------------------------------------------


def read_toml(path: Path, error: type[ValueError] = DataError) -> dict[str, Any]:
    """A data file of the ruleset, parsed; ``error`` names the file when it is missing or not TOML (the fire
    tables raise their own :class:`~.firedata.FireDataError`)."""
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        raise error(f"{path}: data file missing") from None
    except tomllib.TOMLDecodeError as err:
        raise error(f"{path}: {err}") from None


def require(d: Mapping[str, Any], key: str, where: str, error: type[ValueError] = DataError) -> Any:
    """``d[key]``, or ``error`` naming ``where.key`` when it is missing."""
    if key not in d:
        raise error(f"{where}.{key}: missing")
    return d[key]


def _load(name: str, folder: Path) -> dict[str, Any]:
    return read_toml(folder / f"{name}.toml")


def _get(d: Mapping[str, Any], key: str, where: str) -> Any:
    return require(d, key, where)


def _int(d: Mapping[str, Any], key: str, where: str, default: int | None = None) -> int:
    value = d.get(key, default) if default is not None else _get(d, key, where)
    if not isinstance(value, int) or isinstance(value, bool):
        raise DataError(f"{where}.{key}: expected an integer, got {value!r}")
    return value


def _opt_int(d: Mapping[str, Any], key: str, where: str) -> int | None:
    return None if key not in d else _int(d, key, where)


def _num(value: Any, where: str) -> float:
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise DataError(f"{where}: expected a number, got {value!r}")
    return float(value)


def _str(d: Mapping[str, Any], key: str, where: str, choices: tuple[str, ...] = ()) -> str:
    value = _get(d, key, where)
    if not isinstance(value, str):
        raise DataError(f"{where}.{key}: expected a string, got {value!r}")
    if choices and value not in choices:
        raise DataError(f"{where}.{key}: expected one of {', '.join(choices)}, got {value!r}")
    return value


def _opt_str(d: Mapping[str, Any], key: str, where: str) -> str | None:
    return None if key not in d else _str(d, key, where)


def _bool(d: Mapping[str, Any], key: str, where: str, default: bool | None = None) -> bool:
    value = d.get(key, default) if default is not None else _get(d, key, where)
    if not isinstance(value, bool):
        raise DataError(f"{where}.{key}: expected true or false, got {value!r}")
    return value


def _table(d: Mapping[str, Any], key: str, where: str) -> Mapping[str, Any]:
    value = _get(d, key, where)
    if not isinstance(value, dict):
        raise DataError(f"{where}.{key}: expected a table, got {value!r}")
    return value


def _strs(d: Mapping[str, Any], key: str, where: str, choices: tuple[str, ...] = ()) -> tuple[str, ...]:
    value = d.get(key, [])
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise DataError(f"{where}.{key}: expected a list of strings, got {value!r}")
    unknown = [x for x in value if choices and x not in choices]
    if unknown:
        raise DataError(f"{where}.{key}: unknown {', '.join(map(repr, unknown))}; known: {', '.join(choices)}")
    return tuple(value)


def _band(value: Any, where: str) -> tuple[int, int]:
    ok = isinstance(value, list) and len(value) == 2 and all(isinstance(x, int) for x in value)
    if not ok or value[0] > value[1] or value[0] < 0:
        raise DataError(f"{where}: expected [first hex, last hex], got {value!r}")
    return int(value[0]), int(value[1])


def _weapon(key: str, d: Mapping[str, Any], where: str) -> Weapon:
    bands = tuple(_band(d[b], f"{where}.{b}") for b in ("short", "medium", "long") if b in d)
    if not bands:
        raise DataError(f"{where}: expected at least the short range band")
    ammo: dict[str, Ammo] = {}
    for akey, a in _table(d, "ammo", where).items():
        w = f"{where}.ammo.{akey}"
        smoke = _bool(a, "smoke", w, False)
        dk = None if smoke else _int(a, "dk", w)
        ammo[akey] = Ammo(akey, _str(a, "name", w), dk, _int(a, "he", w), _bool(a, "ap", w, False), smoke)
    return Weapon(
        key=key,
        name=_str(d, "name", where),
        cls=_str(d, "class", where, WEAPON_CLASSES),
        bands=bands,
        min_range=_int(d, "min_range", where, 0),
        burst=_bool(d, "burst", where),
        semi_auto=_bool(d, "semi_auto", where),
        heavy=_bool(d, "heavy", where),
        fire_mode=_str(d, "fire_mode", where, FIRE_MODES),
        poolable=_bool(d, "poolable", where),
        ammo=MappingProxyType(ammo),
        physical=_bool(d, "physical", where, False),
        from_above=_bool(d, "from_above", where, False),
    )


def _row(i: int, d: Any, where: str) -> Row:
    w = f"{where}.rows[{i}]"
    if not isinstance(d, dict):
        raise DataError(f"{w}: expected a table, got {d!r}")
    return Row(
        index=i + 1,
        kind=_str(d, "kind", w, ROW_KINDS),
        role=_str(d, "role", w),
        weapon=_opt_str(d, "weapon", w),
        equipment=_opt_str(d, "equipment", w),
        leader=_bool(d, "leader", w, False),
        crew=_bool(d, "crew", w, False),
    )


def _mount(i: int, d: Any, where: str) -> Mount:
    w = f"{where}.mounts[{i}]"
    if not isinstance(d, dict):
        raise DataError(f"{w}: expected a table, got {d!r}")
    ammo = _table(d, "ammo", w)
    for k in ammo:
        _int(ammo, k, f"{w}.ammo")
    return Mount(
        weapon=_str(d, "weapon", w),
        count=_int(d, "count", w),
        mount=_str(d, "mount", w, MOUNTS),
        ammo=MappingProxyType(dict(ammo)),
        row=_opt_int(d, "row", w),
        crew=_opt_int(d, "crew", w),
        main=_bool(d, "main", w, False),
        sustained_cost=_opt_int(d, "sustained_cost", w),
        sustained_doubled_cost=_opt_int(d, "sustained_doubled_cost", w),
    )


def _sheet(key: str, d: Mapping[str, Any], where: str) -> Sheet:
    armour = _table(d, "armour", where)
    rows = _get(d, "rows", where)
    mounts = _get(d, "mounts", where)
    if not isinstance(rows, list) or not rows:
        raise DataError(f"{where}.rows: expected a list of row tables")
    if not isinstance(mounts, list):
        raise DataError(f"{where}.mounts: expected a list of mount tables")
    equipment = _table(d, "equipment", where)
    for k in equipment:
        _int(equipment, k, f"{where}.equipment")
    weight = d.get("weight_t")
    tow = d.get("tow_load_t")
    return Sheet(
        id=key,
        name=_str(d, "name", where),
        short=_str(d, "short", where),
        nation=_str(d, "nation", where),
        year=_int(d, "year", where),
        unit_type=_str(d, "unit_type", where, UNIT_TYPES),
        kind=_str(d, "kind", where),
        move_class=_str(d, "move_class", where, MOVE_CLASSES),
        mp=_int(d, "mp", where),
        road_mp=_int(d, "road_mp", where),
        weight_t=None if weight is None else _num(weight, f"{where}.weight_t"),
        tow_load_t=None if tow is None else _num(tow, f"{where}.tow_load_t"),
        transport_capacity=_int(d, "transport_capacity", where),
        outside_riders=_int(d, "outside_riders", where),
        open_topped=_bool(d, "open_topped", where),
        profile_kind=_str(d, "profile_kind", where),
        target_profile=_int(d, "target_profile", where),
        armour=Armour(*(_int(armour, f, f"{where}.armour") for f in ARMOUR_FACES)),
        heavy_equipment=_bool(d, "heavy_equipment", where),
        hide_in=_strs(d, "hide_in", where),
        traits=_strs(d, "traits", where, TRAITS),
        commander_bonus=_int(d, "commander_bonus", where),
        equipment=MappingProxyType(dict(equipment)),
        bv=_int(d, "bv", where),
        rows=tuple(_row(i, r, where) for i, r in enumerate(rows)),
        mounts=tuple(_mount(i, m, where) for i, m in enumerate(mounts)),
    )


def _check_sheet(s: Sheet, steps: Any, tables: _Partial, where: str) -> None:
    """Cross-checks of one sheet against the rules and the other tables (2.3, 4.5, 15.3, 15.7)."""
    if steps != s.possible_damage:
        raise DataError(
            f"{where}.steps: expected {s.possible_damage} (rows that are not cargo beds, 2.3), got {steps!r}"
        )
    if s.profile_kind not in tables.profiles:
        raise DataError(f"{where}.profile_kind: unknown kind {s.profile_kind!r} (profiles.toml)")
    if tables.profiles[s.profile_kind] != s.target_profile:
        raise DataError(
            f"{where}.target_profile: {s.profile_kind} has profile {tables.profiles[s.profile_kind]} (15.3), "
            f"got {s.target_profile}"
        )
    riders = 4 if s.armour.top >= 1 else 0
    if s.outside_riders != riders:
        raise DataError(f"{where}.outside_riders: expected {riders} (top armour {s.armour.top}, 4.5)")
    if s.unit_type != "infantry" and s.weight_t is None:
        raise DataError(f"{where}.weight_t: missing (guns and vehicles have a weight, 2.3)")
    if sum(1 for r in s.rows if r.leader) != 1:
        raise DataError(f"{where}.rows: expected exactly one leader row (9.2)")
    if sum(1 for m in s.mounts if m.main) > 1:
        raise DataError(f"{where}.mounts: at most one mount may be main (2.3)")
    for cls in s.hide_in:
        if cls not in tables.terrain:
            raise DataError(f"{where}.hide_in: unknown terrain class {cls!r} (terrain.toml)")
    for r in s.rows:
        if r.weapon is not None and r.weapon not in tables.weapons:
            raise DataError(f"{where}.rows[{r.index - 1}].weapon: unknown weapon {r.weapon!r} (weapons.toml)")
    for i, m in enumerate(s.mounts):
        _check_mount(s, i, m, tables.weapons, f"{where}.mounts[{i}]")


def _check_mount(s: Sheet, i: int, m: Mount, weapons: Mapping[str, Weapon], where: str) -> None:
    weapon = weapons.get(m.weapon)
    if weapon is None:
        raise DataError(f"{where}.weapon: unknown weapon {m.weapon!r} (weapons.toml)")
    for akey in m.ammo:
        if akey not in weapon.ammo:
            raise DataError(f"{where}.ammo.{akey}: {m.weapon} has no such ammunition ({', '.join(weapon.ammo)})")
    for ref in (m.row, m.crew):
        if ref is not None and not 1 <= ref <= len(s.rows):
            raise DataError(f"{where}: row {ref} is not a row of the sheet (1 to {len(s.rows)})")
    if m.row is not None and s.rows[m.row - 1].weapon != m.weapon:
        raise DataError(f"{where}.row: row {m.row} is not a {m.weapon} weapon row")
    if m.mount == "carried" and m.row is None:
        carried = sum(1 for r in s.rows if r.kind == "soldier" and r.weapon == m.weapon)
        if carried != m.count:
            raise DataError(f"{where}.count: {carried} soldier rows carry {m.weapon} (15.7), got {m.count}")


@dataclass
class _Partial:
    weapons: Mapping[str, Weapon]
    profiles: Mapping[str, int]
    terrain: Mapping[str, TerrainClass]


def _cost(value: Any, where: str) -> Cost:
    if value == MAX:
        return MAX
    if value == PROHIBITED:
        return PROHIBITED
    if value == NA:
        return NA
    return _num(value, where)


def _cost_row(d: Any, where: str) -> Mapping[str, Cost]:
    if not isinstance(d, dict):
        raise DataError(f"{where}: expected a table of foot / track / wheel costs, got {d!r}")
    return MappingProxyType({c: _cost(_get(d, c, where), f"{where}.{c}") for c in MOVE_CLASSES})


def _terrain(data: Mapping[str, Any]) -> tuple[dict[str, TerrainClass], dict[str, str], MovementRules]:
    where = "terrain.toml"
    mv = _table(data, "movement", where)
    base = {k: _cost_row(v, f"{where} movement.base.{k}") for k, v in _table(mv, "base", f"{where} movement").items()}
    surcharge = {
        k: _cost_row(v, f"{where} movement.surcharge.{k}")
        for k, v in _table(mv, "surcharge", f"{where} movement").items()
    }
    levels = _get(mv, "level_change", f"{where} movement")
    if not isinstance(levels, list) or len(levels) != 3:
        raise DataError(f"{where} movement.level_change: expected 3 rows (level change 1, 2, 3; 4.3)")
    classes: dict[str, TerrainClass] = {}
    for key, c in _table(data, "classes", where).items():
        w = f"{where} classes.{key}"
        tc = TerrainClass(
            key=key,
            name=_str(c, "name", w),
            movement=_str(c, "movement", w, tuple(base)),
            overlays=_strs(c, "overlays", w),
            height=_int(c, "height", w),
            as_road=_bool(c, "as_road", w, False),
            building=_opt_str(c, "building", w),
            bridge=_bool(c, "bridge", w, False),
            water=_bool(c, "water", w, False),
        )
        for o in tc.overlays:
            if o not in surcharge:
                raise DataError(f"{w}.overlays: unknown surcharge row {o!r} (movement.surcharge)")
        classes[key] = tc
    codes = {k: str(v) for k, v in _table(data, "codes", where).items()}
    for code, cls in codes.items():
        if cls not in classes:
            raise DataError(f"{where} codes.{code}: unknown terrain class {cls!r}")
    rules = MovementRules(
        base=MappingProxyType(base),
        surcharge=MappingProxyType(surcharge),
        level_change=tuple(_cost_row(r, f"{where} movement.level_change[{i}]") for i, r in enumerate(levels)),
        values=MappingProxyType({}),
    )
    return classes, codes, rules


def _buildings(data: Mapping[str, Any], classes: Mapping[str, TerrainClass]) -> dict[str, BuildingType]:
    out: dict[str, BuildingType] = {}
    for key, b in _table(data, "buildings", "terrain.toml").items():
        w = f"terrain.toml buildings.{key}"
        out[key] = BuildingType(
            key,
            *(_int(b, f, w) for f in ("height", "armour", "destroyed_at", "capacity", "per_hex")),
        )
    for c in classes.values():
        if c.building is not None and c.building not in out:
            raise DataError(f"terrain.toml classes.{c.key}.building: unknown building type {c.building!r}")
    return out


def _experience(data: Mapping[str, Any]) -> tuple[dict[str, Experience], str, dict[str, int]]:
    where = "experience.toml"
    factor = _int(data, "skill_factor", where)
    levels: dict[str, Experience] = {}
    for key, e in _table(data, "levels", where).items():
        w = f"{where} levels.{key}"
        base = _int(e, "base_number", w)
        levels[key] = Experience(
            key, _str(e, "name", w), base, _int(e, "morale", w), _num(_get(e, "bv_factor", w), w), factor * base
        )
    default = _str(data, "default", where, tuple(levels))
    bonus = {k: _int(_table(data, "commander_bonus", where), k, where) for k in data["commander_bonus"]}
    return levels, default, bonus


def _ints(data: Mapping[str, Any], key: str, where: str) -> Mapping[str, int]:
    table = _table(data, key, where)
    return MappingProxyType({k: _int(table, k, f"{where} {key}") for k in table})


def _movement_values(data: Mapping[str, Any]) -> dict[str, float]:
    return {k: _num(v, f"movement.toml {k}") for k, v in data.items()}


def read_tables(folder: Path = DATA_DIR) -> Tables:
    """Read and check every table of ``folder`` (the shipped ``data/`` by default).

    Raises:
        DataError: a file is missing, malformed, or a value does not fit (the message names file and entry).
    """
    weapons_raw = _table(_load("weapons", folder), "weapons", "weapons.toml")
    weapons = {k: _weapon(k, w, f"weapons.toml weapons.{k}") for k, w in weapons_raw.items()}
    profiles_raw = _table(_load("profiles", folder), "profiles", "profiles.toml")
    profiles = {k: _int(p, "profile", f"profiles.toml profiles.{k}") for k, p in profiles_raw.items()}
    terrain_raw = _load("terrain", folder)
    classes, codes, movement = _terrain(terrain_raw)
    buildings = _buildings(terrain_raw, classes)
    values = MappingProxyType(_movement_values(_load("movement", folder)))
    movement = MovementRules(movement.base, movement.surcharge, movement.level_change, values)
    levels, default, bonus = _experience(_load("experience", folder))
    partial = _Partial(weapons, profiles, classes)
    sheets: dict[str, Sheet] = {}
    for key, d in _table(_load("units", folder), "types", "units.toml").items():
        where = f"units.toml types.{key}"
        sheet = _sheet(key, d, where)
        _check_sheet(sheet, d.get("steps"), partial, where)
        sheets[key] = sheet
    return Tables(
        weapons=MappingProxyType(weapons),
        sheets=MappingProxyType(sheets),
        experience=MappingProxyType(levels),
        default_experience=default,
        skill_factor=_int(_load("experience", folder), "skill_factor", "experience.toml"),
        commander_bonus=MappingProxyType(bonus),
        profiles=MappingProxyType(profiles),
        terrain=MappingProxyType(classes),
        codes=MappingProxyType(codes),
        buildings=MappingProxyType(buildings),
        bridge=_ints(terrain_raw, "bridge", "terrain.toml"),
        bunker=_ints(terrain_raw, "bunker", "terrain.toml"),
        movement=movement,
        sequence=MappingProxyType(_load("sequence", folder)),
    )


@cache
def load_tables() -> Tables:
    """The shipped tables, read and checked once."""
    return read_tables()
