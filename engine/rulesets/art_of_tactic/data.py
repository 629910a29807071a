"""Provides the Art of Tactic tables: unit cards, terrain, fortifications, minefields and rule constants.

Every value comes from ``data/*.toml`` (the digest's PROPOSED values included); :func:`load_tables` reads and
checks them once, and a broken file raises :class:`DataError` naming the file, the key and what was expected.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Literal, get_args

__all__ = [
    "DATA",
    "ORDER_KINDS",
    "DataError",
    "MineKind",
    "OrderKind",
    "Tables",
    "TerrainClass",
    "UnitCard",
    "load_tables",
]

DATA = Path(__file__).parent / "data"

OrderKind = Literal[
    "defend", "suppress", "fire", "smoke", "location", "assault", "ambush", "deploy", "withdraw", "facing",
    "merge", "lay_mines", "clear_mines", "demolition", "tow", "remove_wire", "remove_obstacle", "pontoon",
    "supply", "load_supply", "entrench", "clear_path", "cautious", "march", "hold", "fire_on_move", "mount",
    "dismount", "air_strike", "intercept", "patrol", "escort", "reconnoitre", "recon", "supply_drop",
    "airborne_landing",
]  # fmt: skip
"""An order box a card may print (digest 3.5), by the key the data files use."""
ORDER_KINDS: tuple[OrderKind, ...] = get_args(OrderKind)
"""Every order box, in the digest's order."""
MineKind = Literal["anti_tank", "anti_personnel", "dummy"]
"""A minefield card (12.4): anti-tank, anti-personnel or a dummy."""


class DataError(ValueError):
    """A data file is broken: the message names the file, the key and what was expected."""


@dataclass(frozen=True, slots=True)
class UnitCard:
    """One unit card (digest 3.1, 12.3)."""

    code: str
    side: str
    name: str
    type: str
    """Unit type: INF ART VEH ARM LT MT HT AIR (1.5)."""
    size: int
    bravery: int
    bravery_loss: int
    defence: int
    ammo: int
    cost: int
    field_of_fire: bool
    abilities: frozenset[str]
    firepower: Mapping[str, tuple[int, ...]]
    """Dice by target type, one entry per loss state."""
    cc_only: frozenset[str]
    range: tuple[int | None, ...]
    """Accuracy by distance (index 0 = own hex); None = X, no attack at that range."""
    suppressed_accuracy: int
    cc_dice: str | int
    orders: Mapping[str, Mapping[str, int]]
    move_as: str
    smoke: int = 0
    command_range: int = 0
    carries: frozenset[str] = frozenset()
    cargo: Mapping[str, int] = field(default_factory=dict)
    indirect_penalty: int = 0
    adjacent_firepower: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    optional: bool = False
    mine_cost: int = 0
    air_accuracy: int = 0
    """Accuracy in air combat (its own-hex field against aircraft, 9.14)."""
    mission_boxes: int = 0
    """Time boxes of a sortie: air-combat rounds and rounds aloft (9.14)."""
    patrol_radius: int = 0
    flight_duration: int = 0
    generic: bool = False
    """A generic card of 12.5 (``generic_aircraft.toml``): not in the roster, not for purchase."""
    observation_zone: int = 0
    """Recon (9.15.3): the largest observation radius; artillery may fire at enemies this close to the centre."""
    detection: tuple[int, ...] = ()
    cargo_limit: int = 0
    """Transport aircraft (9.15.6, 12.5): the most cargo units it carries."""
    """Recon (9.15.3): the highest die that finds hidden units, by chosen radius (index = radius)."""

    @property
    def max_range(self) -> int:
        """The longest range with an accuracy field (0 if the unit cannot fire)."""
        return max((i for i, a in enumerate(self.range) if a is not None and i > 0), default=0)

    def has(self, ability: str) -> bool:
        """True if the card prints the ability."""
        return ability in self.abilities

    def can_order(self, kind: str) -> bool:
        """True if the card prints the order box (3.2)."""
        return kind in self.orders

    def order(self, kind: str, key: str, default: int = 0) -> int:
        """A printed order parameter (``order("cautious", "range")``)."""
        return int(self.orders.get(kind, {}).get(key, default))

    def dice(self, target_type: str, losses: int) -> int | None:
        """Firepower against a target type with ``losses`` losses (3.1); None if the type is not listed."""
        row = self.firepower.get(target_type)
        if not row:
            return None
        return row[min(losses, len(row) - 1)]


@dataclass(frozen=True, slots=True)
class TerrainClass:
    """One terrain class (digest 10.1)."""

    key: str
    name: str
    blocks_los: bool
    enter: str
    march: bool
    ambush: frozenset[str]
    defence: Mapping[str, int]
    field_penalty: Mapping[str, int]
    tank_penalty: int
    road_like: bool
    no_assault_on_armour: bool
    infantry_versus_armour: bool
    infantry_versus_armour_on_road: bool
    infantry_one_hex: bool
    no_normal_fire: bool
    close_combat_accuracy: int

    def defence_for(self, unit_type: str) -> int:
        """The terrain's defence modifier for a unit type (6.3)."""
        if not self.defence:
            return 0
        return int(self.defence.get(unit_type, self.defence.get("other", 0)))


@dataclass(frozen=True, slots=True)
class Tables:
    """Every table of the ruleset."""

    units: Mapping[str, UnitCard]
    terrain: Mapping[str, TerrainClass]
    codes: Mapping[str, str]
    hills: Mapping[str, int]
    rules: Mapping[str, Any]
    fortifications: Mapping[str, Mapping[str, Any]]
    structures: Mapping[str, Mapping[str, Any]]
    mines: Mapping[str, Any]

    @property
    def sides(self) -> tuple[str, ...]:
        return tuple(self.rules["sides"])

    def is_vehicle(self, unit_type: str) -> bool:
        """True for the vehicle stacking class (4.9)."""
        return unit_type in self.rules["vehicles"]

    def is_armour(self, unit_type: str) -> bool:
        return unit_type in self.rules["armour"]

    def is_tank(self, unit_type: str) -> bool:
        return unit_type in self.rules["tanks"]

    def target_row(self, unit_type: str) -> str:
        """The firepower row used against a unit type (3.1: artillery uses the INF row)."""
        return str(self.rules["artillery_target_row"]) if unit_type == "ART" else unit_type


def _load(name: str) -> dict[str, Any]:
    path = DATA / f"{name}.toml"
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as err:
        raise DataError(f"{path}: {err}") from None


def _int(file: str, where: str, value: Any, minimum: int = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise DataError(f"{file}: {where}: expected an integer >= {minimum}, got {value!r}")
    return value


def _card(code: str, raw: Mapping[str, Any], rules: Mapping[str, Any], file: str = "units.toml") -> UnitCard:
    where = f"types.{code}"
    for key in ("side", "name", "type", "size", "bravery", "bravery_loss", "defence", "ammo", "cost"):
        if key not in raw:
            raise DataError(f"{file}: {where}: missing key {key!r}")
    if raw["side"] not in rules["sides"]:
        raise DataError(f"{file}: {where}.side: expected one of {rules['sides']}, got {raw['side']!r}")
    if raw["type"] not in rules["unit_types"]:
        raise DataError(f"{file}: {where}.type: expected one of {rules['unit_types']}, got {raw['type']!r}")
    size = _int(file, f"{where}.size", raw["size"], 1)
    fp: dict[str, tuple[int, ...]] = {}
    for t, row in dict(raw.get("firepower", {})).items():
        if t not in rules["target_types"]:
            raise DataError(f"{file}: {where}.firepower: unknown target type {t!r}")
        if not isinstance(row, list) or not row or len(row) > size:
            raise DataError(f"{file}: {where}.firepower.{t}: expected 1 to {size} columns (one per loss state)")
        fp[t] = tuple(_int(file, f"{where}.firepower.{t}", v) for v in row)
    adj = {t: tuple(int(v) for v in row) for t, row in dict(raw.get("adjacent_firepower", {})).items()}
    chart: list[int | None] = []
    for i, v in enumerate(raw.get("range", [])):
        if v == "X":
            chart.append(None)
        else:
            chart.append(_int(file, f"{where}.range[{i}]", v))
    orders: dict[str, dict[str, int]] = {}
    for kind, params in dict(raw.get("orders", {})).items():
        if kind not in ORDER_KINDS:
            raise DataError(
                f"{file}: {where}.orders: unknown order {kind!r} (expected one of {', '.join(ORDER_KINDS)})"
            )
        orders[kind] = {k: _int(file, f"{where}.orders.{kind}.{k}", v) for k, v in dict(params).items()}
    for kind, key in (("cautious", "range"), ("march", "range"), ("assault", "distance")):
        if kind in orders and key not in orders[kind]:
            raise DataError(f"{file}: {where}.orders.{kind}: missing the printed {key}")
    cc = raw.get("cc_dice", "table")
    if not (cc in ("table", "art") or (isinstance(cc, int) and not isinstance(cc, bool) and cc >= 0)):
        raise DataError(f'{file}: {where}.cc_dice: expected "table", "art" or a number, got {cc!r}')
    cc_only = frozenset(raw.get("cc_only", []))
    if not cc_only <= set(fp):
        raise DataError(f"{file}: {where}.cc_only: {sorted(cc_only - set(fp))} have no firepower row")
    return UnitCard(
        code=code,
        side=str(raw["side"]),
        name=str(raw["name"]),
        type=str(raw["type"]),
        size=size,
        bravery=_int(file, f"{where}.bravery", raw["bravery"]),
        bravery_loss=_int(file, f"{where}.bravery_loss", raw["bravery_loss"]),
        defence=_int(file, f"{where}.defence", raw["defence"]),
        ammo=_int(file, f"{where}.ammo", raw["ammo"]),
        cost=_int(file, f"{where}.cost", raw["cost"]),
        field_of_fire=bool(raw.get("field_of_fire", False)),
        abilities=frozenset(raw.get("abilities", [])),
        firepower=fp,
        cc_only=cc_only,
        range=tuple(chart),
        suppressed_accuracy=_int(file, f"{where}.suppressed_accuracy", raw.get("suppressed_accuracy", 1)),
        cc_dice=cc,
        orders=orders,
        move_as=str(raw.get("move_as", raw["type"])),
        smoke=_int(file, f"{where}.smoke", raw.get("smoke", 0)),
        command_range=_int(file, f"{where}.command_range", raw.get("command_range", 0)),
        carries=frozenset(raw.get("carries", [])),
        cargo=dict(raw.get("cargo", {})),
        indirect_penalty=_int(file, f"{where}.indirect_penalty", raw.get("indirect_penalty", 0)),
        adjacent_firepower=adj,
        optional=bool(raw.get("optional", False)),
        mine_cost=_int(file, f"{where}.mine_cost", raw.get("mine_cost", 0)),
        air_accuracy=_int(file, f"{where}.air_accuracy", raw.get("air_accuracy", 0)),
        mission_boxes=_int(file, f"{where}.mission_boxes", raw.get("mission_boxes", 0)),
        patrol_radius=_int(file, f"{where}.patrol_radius", raw.get("patrol_radius", 0)),
        flight_duration=_int(file, f"{where}.flight_duration", raw.get("flight_duration", 0)),
        generic=file != "units.toml",
        observation_zone=_int(file, f"{where}.observation_zone", raw.get("observation_zone", 0)),
        detection=tuple(_int(file, f"{where}.detection", v) for v in raw.get("detection", [])),
        cargo_limit=_int(file, f"{where}.cargo_limit", raw.get("cargo_limit", 0)),
    )


def _terrain(key: str, raw: Mapping[str, Any]) -> TerrainClass:
    enter = raw.get("enter", "all")
    if enter not in ("all", "infantry", "special", "road", "no_wheels", "ford"):
        raise DataError(f"terrain.toml: classes.{key}.enter: unknown entry rule {enter!r}")
    return TerrainClass(
        key=key,
        name=str(raw.get("name", key)),
        blocks_los=bool(raw.get("blocks_los", False)),
        enter=str(enter),
        march=bool(raw.get("march", False)),
        ambush=frozenset(raw.get("ambush", [])),
        defence=dict(raw.get("defence", {})),
        field_penalty=dict(raw.get("field_penalty", {})),
        tank_penalty=int(raw.get("tank_penalty", 0)),
        road_like=bool(raw.get("road_like", False)),
        no_assault_on_armour=bool(raw.get("no_assault_on_armour", False)),
        infantry_versus_armour=bool(raw.get("infantry_versus_armour", False)),
        infantry_versus_armour_on_road=bool(raw.get("infantry_versus_armour_on_road", False)),
        infantry_one_hex=bool(raw.get("infantry_one_hex", False)),
        no_normal_fire=bool(raw.get("no_normal_fire", False)),
        close_combat_accuracy=int(raw.get("close_combat_accuracy", 0)),
    )


@cache
def load_tables() -> Tables:
    """Read and check every data file (once).

    Raises:
        DataError: a file is missing, malformed, or holds a value of the wrong kind.
    """
    rules = _load("rules")
    for key in ("sides", "target_types", "unit_types", "tanks", "armour", "vehicles", "ammo", "fire", "stacking",
                "policy_classes"):  # fmt: skip
        if key not in rules:
            raise DataError(f"rules.toml: missing key {key!r}")
    for name, cls in rules["policy_classes"].items():
        rows = cls.get("rows") if isinstance(cls, dict) else None
        if not rows or not set(rows) <= set(rules["target_types"]) or not isinstance(cls.get("words"), str):
            raise DataError(
                f"rules.toml: policy_classes.{name}: expected {{ rows = [target rows of {rules['target_types']}], "
                f'words = "..." }}, got {cls!r}'
            )
    units_raw = _load("units").get("types", {})
    units = {code: _card(code, raw, rules) for code, raw in units_raw.items()}
    for code, raw in _load("generic_aircraft").get("types", {}).items():  # 12.5: not in the roster
        if code in units:
            raise DataError(f"generic_aircraft.toml: types.{code}: the roster has this card already")
        units[code] = _card(code, raw, rules, "generic_aircraft.toml")
    terrain_raw = _load("terrain")
    classes = {k: _terrain(k, v) for k, v in terrain_raw.get("classes", {}).items()}
    codes = {str(k): str(v) for k, v in terrain_raw.get("codes", {}).items()}
    for code, cls in codes.items():
        if cls not in classes:
            raise DataError(f"terrain.toml: codes.{code}: unknown terrain class {cls!r}")
    structures = _load("structures")
    return Tables(
        units=units,
        terrain=classes,
        codes=codes,
        hills={k: int(v) for k, v in terrain_raw.get("hills", {}).items()},
        rules=rules,
        fortifications=structures.get("fortifications", {}),
        structures=structures.get("structures", {}),
        mines=_load("mines"),
    )
