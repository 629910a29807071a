"""Provides the Blitzkrieg 1940 data tables (``data/*.toml``) as typed, read-only values.

Every PROPOSED ([P]) or interpreted ([I]) number of the rules digest lives in a data file beside this module,
never in code; this module only reads the files, checks their shape and looks values up. Each data file cites
the digest section it transcribes.

>>> crt_result(6, 11), crt_result(4, 11), crt_result(5, 9), crt_result(15, 2)
('step', 'n', 'red_n', '-')
>>> crt_distribution(12)["step"]
Fraction(5, 12)
>>> load_tables().formations["ger-i-gd"].ff
10
"""

from __future__ import annotations

import copy
import math
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

__all__ = [
    "CHIT_KINDS",
    "DATA_DIR",
    "FIRE_TYPES",
    "RESULTS",
    "SIDES",
    "TWO_D6",
    "Artillery",
    "Calibre",
    "ChitChange",
    "ChitSet",
    "Crt",
    "DataError",
    "FfTest",
    "Formation",
    "HannutVictory",
    "Modifier",
    "Movement",
    "OobFormation",
    "Reaction",
    "ReactionModifier",
    "Salvos",
    "ScenarioChits",
    "SequenceRules",
    "StonneVictory",
    "Tables",
    "Terrain",
    "TerrainClass",
    "Transmission",
    "UnitGroup",
    "UnitType",
    "VisibilityClass",
    "VpAwards",
    "chance_2d6",
    "crt_distribution",
    "crt_result",
    "load_tables",
    "raw_table",
]

DATA_DIR = Path(__file__).parent / "data"
"""The folder of the ruleset's TOML tables."""

RESULTS: tuple[str, ...] = ("-", "red_n", "n", "step")
"""Combat results from weakest to strongest (8.3): nothing, red N (infantry only), N, one step loss."""

SIDES: tuple[str, ...] = ("german", "french")
"""Side ids, as in the scenario and map files."""

TWO_D6: Mapping[int, Fraction] = MappingProxyType({total: Fraction(6 - abs(total - 7), 36) for total in range(2, 13)})
"""The probability of each 2d6 total."""


class DataError(ValueError):
    """A data file is missing a key or holds a value of the wrong kind."""


def chance_2d6(event: Callable[[int], bool]) -> Fraction:
    """The probability that a 2d6 roll satisfies ``event``.

    >>> chance_2d6(lambda roll: roll <= 7)
    Fraction(7, 12)
    """
    return sum((p for roll, p in TWO_D6.items() if event(roll)), Fraction(0))


# --- Reading -----------------------------------------------------------------------------------------------


@cache
def _load(name: str) -> dict[str, Any]:
    path = DATA_DIR / f"{name}.toml"
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        raise DataError(f"{path}: data file missing") from None
    except tomllib.TOMLDecodeError as err:
        raise DataError(f"{path}: {err}") from None


def raw_table(name: str) -> dict[str, Any]:
    """A fresh copy of the parsed file ``data/<name>.toml`` (for readers with their own layout, e.g. sight)."""
    return copy.deepcopy(_load(name))


def _where(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


def _get(d: Mapping[str, Any], key: str, where: str) -> Any:
    if key not in d:
        raise DataError(f"{_where(where, key)}: missing")
    return d[key]


def _table(d: Mapping[str, Any], key: str, where: str) -> Mapping[str, Any]:
    value = _get(d, key, where)
    if not isinstance(value, Mapping):
        raise DataError(f"{_where(where, key)}: expected a table, got {value!r}")
    return value


def _opt_table(d: Mapping[str, Any], key: str, where: str) -> Mapping[str, Any]:
    return _table(d, key, where) if key in d else {}


def _int(d: Mapping[str, Any], key: str, where: str) -> int:
    value = _get(d, key, where)
    if not isinstance(value, int) or isinstance(value, bool):
        raise DataError(f"{_where(where, key)}: expected an integer, got {value!r}")
    return value


def _opt_int(d: Mapping[str, Any], key: str, where: str) -> int | None:
    return _int(d, key, where) if key in d else None


def _num(d: Mapping[str, Any], key: str, where: str) -> float:
    value = _get(d, key, where)
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise DataError(f"{_where(where, key)}: expected a number, got {value!r}")
    return float(value)


def _str(d: Mapping[str, Any], key: str, where: str) -> str:
    value = _get(d, key, where)
    if not isinstance(value, str):
        raise DataError(f"{_where(where, key)}: expected a string, got {value!r}")
    return value


def _opt_str(d: Mapping[str, Any], key: str, where: str) -> str | None:
    return _str(d, key, where) if key in d else None


def _bool(d: Mapping[str, Any], key: str, where: str, default: bool | None = None) -> bool:
    if key not in d and default is not None:
        return default
    value = _get(d, key, where)
    if not isinstance(value, bool):
        raise DataError(f"{_where(where, key)}: expected true or false, got {value!r}")
    return value


def _strs(d: Mapping[str, Any], key: str, where: str) -> tuple[str, ...]:
    value = d.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise DataError(f"{_where(where, key)}: expected a list of strings, got {value!r}")
    return tuple(value)


def _counts(d: Mapping[str, Any], key: str, where: str) -> Mapping[str, int]:
    table = _opt_table(d, key, where)
    return MappingProxyType({k: _int(table, k, _where(where, key)) for k in table})


def _side(d: Mapping[str, Any], where: str) -> str:
    side = _str(d, "side", where)
    if side not in SIDES:
        raise DataError(f"{where}.side: expected one of {', '.join(SIDES)}, got {side!r}")
    return side


# --- Terrain (terrain.toml, 13.3) ----------------------------------------------------------------------------


@dataclass(frozen=True)
class TerrainClass:
    """One terrain class of 13.3."""

    name: str
    obstacle: bool
    """Blocks a line of sight at the viewers' level (4.3.1)."""
    open: bool
    """Counts as open terrain for visibility (4.1)."""
    cost: Mapping[str, float]
    """MP to enter, by movement class; a missing class may not enter (cross-country)."""
    road_only: frozenset[str]
    """Movement classes that may enter only along a road (13.3: wheeled units in woods)."""
    fire_modifier: int
    """Modifier to fire at an armour-0 target in this terrain (13.2 F12–F15)."""
    disperses_armour: bool
    """Tanks, StuG and armoured cars here are dispersed (7.2.2)."""

    def entry_cost(self, move_class: str) -> float | None:
        """MP to enter cross-country, or None if the class may not enter (13.3)."""
        return self.cost.get(move_class)


@dataclass(frozen=True)
class Movement:
    """The movement lines of 13.3 below the terrain types."""

    road_cost: float
    climb_per_level: int
    leave_minefield: int
    close_combat_entry_divisor: int

    def close_combat_entry(self, mp: int) -> int:
        """The MP part of the close-combat entry cost, ⌈MP / divisor⌉ (9.1.1); the hex's cost is added on top."""
        return math.ceil(mp / self.close_combat_entry_divisor)


@dataclass(frozen=True)
class Terrain:
    """terrain.toml: map codes, terrain classes, movement rules."""

    codes: Mapping[str, str]
    """Map code → terrain class (aliases resolved)."""
    classes: Mapping[str, TerrainClass]
    movement: Movement

    def of_code(self, code: str) -> TerrainClass:
        """The terrain class of a map code."""
        return self.classes[self.codes[code]]


def _terrain(d: Mapping[str, Any]) -> Terrain:
    raw_codes = _table(d, "codes", "terrain")
    codes: dict[str, str] = {}
    for code, value in raw_codes.items():
        target, seen = value, {code}
        while isinstance(target, Mapping):
            nxt = _str(target, "alias_of", f"terrain.codes.{code}")
            if nxt in seen:
                raise DataError(f"terrain.codes.{code}: alias loop")
            seen.add(nxt)
            target = raw_codes.get(nxt, nxt)
        codes[code] = str(target)
    classes: dict[str, TerrainClass] = {}
    for name, c in _table(d, "classes", "terrain").items():
        where = f"terrain.classes.{name}"
        cost = _table(c, "cost", where)
        classes[name] = TerrainClass(
            name=_str(c, "name", where),
            obstacle=_bool(c, "obstacle", where),
            open=_bool(c, "open", where),
            cost=MappingProxyType({k: _num(cost, k, f"{where}.cost") for k in cost}),
            road_only=frozenset(_strs(c, "road_only", where)),
            fire_modifier=_int(c, "fire_modifier", where),
            disperses_armour=_bool(c, "disperses_armour", where),
        )
    for code, cls in codes.items():
        if cls not in classes:
            raise DataError(f"terrain.codes.{code}: unknown terrain class {cls!r}")
    m = _table(d, "movement", "terrain")
    movement = Movement(
        road_cost=_num(m, "road_cost", "terrain.movement"),
        climb_per_level=_int(m, "climb_per_level", "terrain.movement"),
        leave_minefield=_int(m, "leave_minefield", "terrain.movement"),
        close_combat_entry_divisor=_int(m, "close_combat_entry_divisor", "terrain.movement"),
    )
    return Terrain(MappingProxyType(codes), MappingProxyType(classes), movement)


# --- Units (units.toml, 13.7, 1.1) ---------------------------------------------------------------------------


@dataclass(frozen=True)
class UnitType:
    """One counter type of 13.7 with the derived properties of 1.1."""

    code: str
    name: str
    side: str
    category: str
    """infantry / motorised / tracked / hq (1.1)."""
    kind: str
    """tank, assault_gun, apc, armoured_car, infantry, mg, pioneer, motorcycle, at_gun, hq."""
    move_class: str
    """foot / tracked / wheeled; "formation" for HQs (3.2)."""
    attack_full: int | None
    attack_reduced: int | None
    back_attack_full: int | None
    back_attack_reduced: int | None
    range: int | None
    armour: int
    mp: int | None
    steps: int
    visibility: str
    armoured: bool
    disperses: bool
    red_n_affects: bool
    at_unit: bool
    fortification_benefit: bool
    doctrine_bound: bool
    may_fire_directly: bool
    command_range: int | None
    transport_capacity: int
    notes: str

    def attack(self, *, reduced_side: bool = False, moving: bool = False) -> int | None:
        """The attack value: front or back side (1.2), full or reduced for move-and-fire (6.1)."""
        if reduced_side:
            return self.back_attack_reduced if moving else self.back_attack_full
        return self.attack_reduced if moving else self.attack_full


def _units(d: Mapping[str, Any]) -> Mapping[str, UnitType]:
    out: dict[str, UnitType] = {}
    for code, t in _table(d, "types", "units").items():
        where = f"units.types.{code}"
        out[code] = UnitType(
            code=code,
            name=_str(t, "name", where),
            side=_side(t, where),
            category=_str(t, "category", where),
            kind=_str(t, "kind", where),
            move_class=_str(t, "move_class", where),
            attack_full=_opt_int(t, "attack_full", where),
            attack_reduced=_opt_int(t, "attack_reduced", where),
            back_attack_full=_opt_int(t, "back_attack_full", where),
            back_attack_reduced=_opt_int(t, "back_attack_reduced", where),
            range=_opt_int(t, "range", where),
            armour=_int(t, "armour", where),
            mp=_opt_int(t, "mp", where),
            steps=_int(t, "steps", where),
            visibility=_str(t, "visibility", where),
            armoured=_bool(t, "armoured", where),
            disperses=_bool(t, "disperses", where),
            red_n_affects=_bool(t, "red_n_affects", where),
            at_unit=_bool(t, "at_unit", where),
            fortification_benefit=_bool(t, "fortification_benefit", where),
            doctrine_bound=_bool(t, "doctrine_bound", where),
            may_fire_directly=_bool(t, "may_fire_directly", where),
            command_range=_opt_int(t, "command_range", where),
            transport_capacity=_opt_int(t, "transport_capacity", where) or 0,
            notes=_opt_str(t, "notes", where) or "",
        )
    return MappingProxyType(out)


# --- Combat results table (crt.toml, 13.1) -------------------------------------------------------------------


@dataclass(frozen=True)
class Crt:
    """The combat results table of 13.1 and its fixed columns (13.6)."""

    results: tuple[str, ...]
    ranges: Mapping[int, Mapping[str, tuple[int, int]]]
    """Column → result → inclusive 2d6 roll range, as printed."""
    stuka: int
    mines_column: int
    min_column: int
    max_column: int
    mine_removal_min: int
    """10.1: the lowest 2d6 roll that removes a minefield after a mine attack."""

    def column(self, factor: int) -> int:
        """The column used for a final attack factor (8.2 steps 3 and 5).

        Raises:
            ValueError: the factor is below the lowest column (the unit cannot fire).
        """
        if factor < self.min_column:
            raise ValueError(f"no fire below column {self.min_column} (rule 8.2)")
        return min(factor, self.max_column)

    def result(self, column: int, roll: int) -> str:
        """The result of a 2d6 ``roll`` on ``column`` (columns above the highest use the highest)."""
        col = self.column(column)
        if not 2 <= roll <= 12:
            raise ValueError(f"a 2d6 roll is 2 to 12, got {roll}")
        for result, (low, high) in self.ranges[col].items():
            if low <= roll <= high:
                return result
        raise DataError(f"crt.columns.{col}: no result for roll {roll}")

    def distribution(self, column: int) -> dict[str, Fraction]:
        """Result → probability on ``column`` (every result listed, impossible ones at 0)."""
        col = self.column(column)
        out = dict.fromkeys(self.results, Fraction(0))
        for roll, p in TWO_D6.items():
            out[self.result(col, roll)] += p
        return out


def _crt(d: Mapping[str, Any]) -> Crt:
    results = _strs(d, "results", "crt")
    if results != RESULTS:
        raise DataError(f"crt.results: expected {list(RESULTS)}, got {list(results)}")
    special = _table(d, "special", "crt")
    min_column = _int(special, "min_column", "crt.special")
    max_column = _int(special, "max_column", "crt.special")
    ranges: dict[int, Mapping[str, tuple[int, int]]] = {}
    for key, cells in _table(d, "columns", "crt").items():
        where = f"crt.columns.{key}"
        try:
            col = int(key)
        except ValueError:
            raise DataError(f"{where}: a column is an integer") from None
        if not isinstance(cells, Mapping):
            raise DataError(f"{where}: expected a table of result = [first, last]")
        row: dict[str, tuple[int, int]] = {}
        for result, span in cells.items():
            if result not in RESULTS:
                raise DataError(f"{where}.{result}: unknown result (expected one of {', '.join(RESULTS)})")
            if not (isinstance(span, list) and len(span) == 2 and all(type(v) is int for v in span)):
                raise DataError(f"{where}.{result}: expected [first roll, last roll], got {span!r}")
            row[result] = (span[0], span[1])
        ranges[col] = MappingProxyType(dict(sorted(row.items(), key=lambda kv: RESULTS.index(kv[0]))))
    missing = set(range(min_column, max_column + 1)) - set(ranges)
    if missing:
        raise DataError(f"crt.columns: missing columns {sorted(missing)}")
    return Crt(
        results=results,
        ranges=MappingProxyType(dict(sorted(ranges.items()))),
        stuka=_int(special, "stuka", "crt.special"),
        mines_column=_int(special, "mines_column", "crt.special"),
        min_column=min_column,
        max_column=max_column,
        mine_removal_min=_int(special, "mine_removal_min", "crt.special"),
    )


# --- Fire modifiers (modifiers.toml, 13.2) -------------------------------------------------------------------

FIRE_TYPES: tuple[str, ...] = ("direct", "close_combat", "indirect", "mines")
"""Fire types of 13.2: direct (also opportunity and return fire), close combat, indirect, mines."""

_MODIFIER_FLAGS = (
    "per_hex_beyond_first",
    "close_combat_first_round_only",
    "close_combat_defender_only",
    "close_combat_attack_forbidden",
    "target_armour_zero_only",
    "target_infantry_only",
)


@dataclass(frozen=True)
class Modifier:
    """One line F1–F19 of 13.2."""

    id: str
    key: str
    situation: str
    subject: str
    applies: tuple[str, ...]
    values: Mapping[str, int]
    """Fire type → modifier, for the lines that are a number."""
    effect: str | None
    column: int | None
    flags: frozenset[str]
    terrain: str | None
    source: str
    value_source: str | None

    def value(self, fire_type: str) -> int | None:
        """The modifier for ``fire_type``, or None if the line does not apply or is not a number."""
        return self.values.get(fire_type) if fire_type in self.applies else None


def _modifiers(d: Mapping[str, Any]) -> Mapping[str, Modifier]:
    out: dict[str, Modifier] = {}
    for mid, m in _table(d, "modifiers", "modifiers").items():
        where = f"modifiers.{mid}"
        applies = _strs(m, "applies", where)
        for t in applies:
            if t not in FIRE_TYPES:
                raise DataError(f"{where}.applies: unknown fire type {t!r}")
        values = {t: _int(m, t, where) for t in FIRE_TYPES if t in m}
        for t in values:
            if t not in applies:
                raise DataError(f"{where}.{t}: a value for a fire type not in applies")
        out[mid] = Modifier(
            id=mid,
            key=_str(m, "key", where),
            situation=_str(m, "situation", where),
            subject=_str(m, "subject", where),
            applies=applies,
            values=MappingProxyType(values),
            effect=_opt_str(m, "effect", where),
            column=_opt_int(m, "column", where),
            flags=frozenset(f for f in _MODIFIER_FLAGS if _bool(m, f, where, default=False)),
            terrain=_opt_str(m, "terrain", where),
            source=_str(m, "source", where),
            value_source=_opt_str(m, "value_source", where),
        )
    return MappingProxyType(out)


# --- Formations (formations.toml, 13.4) ----------------------------------------------------------------------


@dataclass(frozen=True)
class Formation:
    """One formation of 13.4."""

    id: str
    name: str
    side: str
    ff: int


@dataclass(frozen=True)
class FfTest:
    """An FF-based 2d6 test: the event happens when the roll is above / at most FF + offset."""

    name: str
    compare: str
    offset: int
    event: str

    def target(self, ff: int) -> int:
        """The number the roll is compared with."""
        return ff + self.offset

    def happens(self, ff: int, roll: int) -> bool:
        """True if the test's event happens on ``roll``."""
        t = self.target(ff)
        return roll > t if self.compare == "above" else roll <= t

    def chance(self, ff: int) -> Fraction:
        """The probability of the event on 2d6."""
        return chance_2d6(lambda roll: self.happens(ff, roll))


def _formations(d: Mapping[str, Any]) -> Mapping[str, Formation]:
    out: dict[str, Formation] = {}
    for fid, f in _table(d, "formations", "formations").items():
        where = f"formations.formations.{fid}"
        out[fid] = Formation(fid, _str(f, "name", where), _side(f, where), _int(f, "ff", where))
    return MappingProxyType(out)


def _ff_tests(d: Mapping[str, Any]) -> Mapping[str, FfTest]:
    out: dict[str, FfTest] = {}
    for name, t in _table(d, "tests", "formations").items():
        where = f"formations.tests.{name}"
        compare = _str(t, "compare", where)
        if compare not in ("above", "at_most"):
            raise DataError(f"{where}.compare: expected 'above' or 'at_most', got {compare!r}")
        out[name] = FfTest(name, compare, _int(t, "offset", where), _str(t, "event", where))
    return MappingProxyType(out)


# --- Reaction (reaction.toml, 13.5) --------------------------------------------------------------------------


@dataclass(frozen=True)
class ReactionModifier:
    """A modifier to the reaction test roll (13.5)."""

    key: str
    situation: str
    value: int
    source: str


@dataclass(frozen=True)
class Reaction:
    """The reaction test table of 13.5: 2d6 + modifiers ≤ value."""

    classes: Mapping[str, tuple[str, ...]]
    """Reaction class → unit kinds."""
    values: Mapping[str, Mapping[str, int]]
    """Side → reaction class → value."""
    elite_value: int
    elite_formations: frozenset[str]
    modifiers: Mapping[str, ReactionModifier]

    def class_of(self, kind: str) -> str:
        """The reaction class of a unit kind."""
        for cls, kinds in self.classes.items():
            if kind in kinds:
                return cls
        raise KeyError(f"no reaction class for unit kind {kind!r}")

    def value(self, side: str, kind: str, formation: str | None = None) -> int:
        """The reaction value of a unit of ``kind`` on ``side`` in ``formation`` (the elite value first)."""
        if formation is not None and formation in self.elite_formations:
            return self.elite_value
        return self.values[side][self.class_of(kind)]


def _reaction(d: Mapping[str, Any]) -> Reaction:
    classes = _table(d, "classes", "reaction")
    values = _table(d, "values", "reaction")
    elite = _table(d, "elite", "reaction")
    mods = _table(d, "modifiers", "reaction")
    return Reaction(
        classes=MappingProxyType({c: _strs(classes, c, "reaction.classes") for c in classes}),
        values=MappingProxyType({side: _counts(values, side, "reaction.values") for side in SIDES}),
        elite_value=_int(elite, "value", "reaction.elite"),
        elite_formations=frozenset(_strs(elite, "formations", "reaction.elite")),
        modifiers=MappingProxyType(
            {
                k: ReactionModifier(
                    k,
                    _str(m, "situation", f"reaction.modifiers.{k}"),
                    _int(m, "value", f"reaction.modifiers.{k}"),
                    _str(m, "source", f"reaction.modifiers.{k}"),
                )
                for k, m in mods.items()
            }
        ),
    )


# --- Artillery (artillery.toml, 13.6, 8.6) -------------------------------------------------------------------


@dataclass(frozen=True)
class Calibre:
    """An artillery calibre of 13.6."""

    name: str
    mm: int
    attack: int
    source: str


@dataclass(frozen=True)
class Transmission:
    """The observer's transmission roll (8.6.1): success when 2d6 + modifier ≤ target."""

    target: int
    neutralised_observer: int
    adjacent_automatic: bool
    reroll: bool


@dataclass(frozen=True)
class Salvos:
    """What one artillery chit fires (calibre → salvos) and how many attacks one Stuka chit makes."""

    artillery: Mapping[str, int]
    stuka: int

    @property
    def artillery_total(self) -> int:
        """The number of salvos of one artillery chit."""
        return sum(self.artillery.values())


@dataclass(frozen=True)
class Artillery:
    """artillery.toml: calibres, Stukas, transmission, salvos per chit by scenario and side."""

    calibres: Mapping[str, Calibre]
    stuka_attack: int
    stuka_needs_observer: bool
    transmission: Transmission
    salvos: Mapping[str, Mapping[str, Salvos]]
    """Scenario → side → salvos per chit."""


def _artillery(d: Mapping[str, Any]) -> Artillery:
    calibres = {
        name: Calibre(
            name,
            _int(c, "mm", f"artillery.calibres.{name}"),
            _int(c, "attack", f"artillery.calibres.{name}"),
            _str(c, "source", f"artillery.calibres.{name}"),
        )
        for name, c in _table(d, "calibres", "artillery").items()
    }
    stuka = _table(d, "stuka", "artillery")
    tr = _table(d, "transmission", "artillery")
    salvos: dict[str, Mapping[str, Salvos]] = {}
    for scenario, sides in _table(d, "salvos", "artillery").items():
        per_side: dict[str, Salvos] = {}
        for side, s in sides.items():
            where = f"artillery.salvos.{scenario}.{side}"
            art = _counts(s, "artillery", where)
            for cal in art:
                if cal not in calibres:
                    raise DataError(f"{where}.artillery.{cal}: unknown calibre")
            per_side[side] = Salvos(art, _opt_int(s, "stuka", where) or 0)
        salvos[scenario] = MappingProxyType(per_side)
    return Artillery(
        calibres=MappingProxyType(calibres),
        stuka_attack=_int(stuka, "attack", "artillery.stuka"),
        stuka_needs_observer=_bool(stuka, "observer", "artillery.stuka"),
        transmission=Transmission(
            target=_int(tr, "target", "artillery.transmission"),
            neutralised_observer=_int(tr, "neutralised_observer", "artillery.transmission"),
            adjacent_automatic=_bool(tr, "adjacent_automatic", "artillery.transmission"),
            reroll=_bool(tr, "reroll", "artillery.transmission"),
        ),
        salvos=MappingProxyType(salvos),
    )


# --- Victory (victory.toml, 12.1, 12.2, 13.8) ----------------------------------------------------------------


@dataclass(frozen=True)
class VpAwards:
    """The Hannut German VP formula of 13.8."""

    french_tank_step: int
    french_other_step: int
    objective_held: int
    german_step: int
    minimum: int
    tank_types: frozenset[str]

    def german_vp(
        self, *, french_tank_steps_lost: int, french_other_steps_lost: int, objectives_held: int, german_steps_lost: int
    ) -> int:
        """German VP from the losses and the objective hexes the German holds."""
        vp = (
            self.french_tank_step * french_tank_steps_lost
            + self.french_other_step * french_other_steps_lost
            + self.objective_held * objectives_held
            + self.german_step * german_steps_lost
        )
        return max(self.minimum, vp)


@dataclass(frozen=True)
class HannutVictory:
    """Hannut: German VP against a window per turn (12.1)."""

    windows: tuple[tuple[int, int], ...]
    above: str
    below: str
    inside: str
    inside_last_turn: str
    start_holder: str
    awards: VpAwards
    objectives: Mapping[str, str]
    """Objective hex → place name."""

    def outcome(self, turn: int, vp: int) -> str:
        """The end-of-turn check: the winning side, ``inside`` (play on) or ``inside_last_turn`` (draw)."""
        if not 1 <= turn <= len(self.windows):
            raise ValueError(f"Hannut has turns 1 to {len(self.windows)}, got {turn}")
        low, high = self.windows[turn - 1]
        if vp > high:
            return self.above
        if vp < low:
            return self.below
        return self.inside_last_turn if turn == len(self.windows) else self.inside


@dataclass(frozen=True)
class StonneVictory:
    """Stonne: ``side`` must hold every hex at the end of ``check_turn`` (12.2)."""

    side: str
    hexes: tuple[str, ...]
    check_turn: int
    otherwise: str
    start_holder: str


def _victory(d: Mapping[str, Any]) -> tuple[HannutVictory, StonneVictory]:
    h = _table(d, "hannut", "victory")
    windows: list[tuple[int, int]] = []
    for i, w in enumerate(_get(h, "windows", "victory.hannut")):
        if not (isinstance(w, list) and len(w) == 2 and all(type(v) is int for v in w) and w[0] <= w[1]):
            raise DataError(f"victory.hannut.windows[{i}]: expected [low, high], got {w!r}")
        windows.append((w[0], w[1]))
    a = _table(h, "awards", "victory.hannut")
    awards = VpAwards(
        french_tank_step=_int(a, "french_tank_step", "victory.hannut.awards"),
        french_other_step=_int(a, "french_other_step", "victory.hannut.awards"),
        objective_held=_int(a, "objective_held", "victory.hannut.awards"),
        german_step=_int(a, "german_step", "victory.hannut.awards"),
        minimum=_int(a, "minimum", "victory.hannut.awards"),
        tank_types=frozenset(_strs(a, "tank_types", "victory.hannut.awards")),
    )
    objectives = _table(h, "objectives", "victory.hannut")
    hannut = HannutVictory(
        windows=tuple(windows),
        above=_str(h, "above", "victory.hannut"),
        below=_str(h, "below", "victory.hannut"),
        inside=_str(h, "inside", "victory.hannut"),
        inside_last_turn=_str(h, "inside_last_turn", "victory.hannut"),
        start_holder=_str(h, "start_holder", "victory.hannut"),
        awards=awards,
        objectives=MappingProxyType({hx: _str(objectives, hx, "victory.hannut.objectives") for hx in objectives}),
    )
    s = _table(d, "stonne", "victory")
    stonne = StonneVictory(
        side=_side(s, "victory.stonne"),
        hexes=_strs(s, "hexes", "victory.stonne"),
        check_turn=_int(s, "check_turn", "victory.stonne"),
        otherwise=_str(s, "otherwise", "victory.stonne"),
        start_holder=_str(s, "start_holder", "victory.stonne"),
    )
    return hannut, stonne


# --- Chits (chits.toml, 12) ----------------------------------------------------------------------------------

CHIT_KINDS: tuple[str, ...] = ("artillery", "stuka", "replay", "general")
"""Chit kinds counted by number (formation chits are listed by formation id)."""


@dataclass(frozen=True)
class ChitSet:
    """The chits of one side: one per formation, plus counted artillery, Stuka, Replay and General chits."""

    formations: tuple[str, ...]
    optional: frozenset[str]
    """Formations whose chit depends on a setup choice (Stonne 4 BCC)."""
    artillery: int
    stuka: int
    replay: int
    general: int

    @property
    def total(self) -> int:
        """The number of chits."""
        return len(self.formations) + self.artillery + self.stuka + self.replay + self.general

    def count(self, kind: str) -> int:
        """The number of chits of ``kind`` ("formation", "artillery", "stuka", "replay", "general")."""
        if kind == "formation":
            return len(self.formations)
        if kind not in CHIT_KINDS:
            raise KeyError(f"unknown chit kind {kind!r}")
        value: int = getattr(self, kind)
        return value


@dataclass(frozen=True)
class ChitChange:
    """A scheduled change of a side's chits (12.2): added at the start or removed at the end of a turn."""

    turn: int
    when: str
    side: str
    add_formations: tuple[str, ...]
    remove_formations: tuple[str, ...]
    add: Mapping[str, int]

    def applies_in(self, turn: int) -> bool:
        """True if the change is in force during ``turn``."""
        return self.turn <= turn if self.when == "start" else self.turn < turn


@dataclass(frozen=True)
class ScenarioChits:
    """chits.toml for one scenario."""

    sides: Mapping[str, ChitSet]
    """The chits of the first turn, by side."""
    changes: tuple[ChitChange, ...]
    turn_1_side: str | None
    turn_1_kept_out: Mapping[str, int]

    def in_play(self, side: str, turn: int, *, include_optional: bool = True) -> ChitSet:
        """The side's chits in ``turn`` after the scheduled changes (losses in play are not counted)."""
        base = self.sides[side]
        formations = [f for f in base.formations if include_optional or f not in base.optional]
        counts = {k: base.count(k) for k in CHIT_KINDS}
        for ch in self.changes:
            if ch.side != side or not ch.applies_in(turn):
                continue
            formations += [f for f in ch.add_formations if f not in formations]
            formations = [f for f in formations if f not in ch.remove_formations]
            for k, n in ch.add.items():
                counts[k] += n
        return ChitSet(tuple(formations), base.optional, **counts)


def _chit_set(d: Mapping[str, Any], where: str) -> ChitSet:
    return ChitSet(
        formations=_strs(d, "formations", where),
        optional=frozenset(_strs(d, "optional", where)),
        artillery=_opt_int(d, "artillery", where) or 0,
        stuka=_opt_int(d, "stuka", where) or 0,
        replay=_opt_int(d, "replay", where) or 0,
        general=_opt_int(d, "general", where) or 0,
    )


def _chits(d: Mapping[str, Any]) -> Mapping[str, ScenarioChits]:
    out: dict[str, ScenarioChits] = {}
    for scenario, sc in d.items():
        where = f"chits.{scenario}"
        if not isinstance(sc, Mapping):
            raise DataError(f"{where}: expected a table")
        sides = {side: _chit_set(_table(sc, side, where), f"{where}.{side}") for side in SIDES if side in sc}
        changes = []
        for i, ch in enumerate(sc.get("changes", [])):
            w = f"{where}.changes[{i}]"
            when = _str(ch, "when", w)
            if when not in ("start", "end"):
                raise DataError(f"{w}.when: expected 'start' or 'end', got {when!r}")
            add = _counts(ch, "add", w)
            for k in add:
                if k not in CHIT_KINDS:
                    raise DataError(f"{w}.add.{k}: unknown chit kind")
            changes.append(
                ChitChange(
                    turn=_int(ch, "turn", w),
                    when=when,
                    side=_side(ch, w),
                    add_formations=_strs(ch, "add_formations", w),
                    remove_formations=_strs(ch, "remove_formations", w),
                    add=add,
                )
            )
        t1 = _opt_table(sc, "turn_1", where)
        out[scenario] = ScenarioChits(
            sides=MappingProxyType(sides),
            changes=tuple(changes),
            turn_1_side=_side(t1, f"{where}.turn_1") if t1 else None,
            turn_1_kept_out=_counts(t1, "kept_out", f"{where}.turn_1") if t1 else MappingProxyType({}),
        )
    return MappingProxyType(out)


# --- Order of battle (oob.toml, 13.7) ------------------------------------------------------------------------


@dataclass(frozen=True)
class UnitGroup:
    """``count`` counters of one unit type, with an arrival turn if it differs from the formation's."""

    type: str
    count: int
    arrives: int | None
    independent_until: int | None


@dataclass(frozen=True)
class OobFormation:
    """One formation (or independent unit group) of a scenario's order of battle (13.7)."""

    id: str
    side: str
    hq: bool
    independent: bool
    arrives: int
    """0 = sets up at the start; n = arrives in turn n."""
    units: tuple[UnitGroup, ...]
    hq_arrives: int | None
    leaves: int | None
    entry: tuple[str, ...]
    assign_to: tuple[str, ...]
    assign_to_any: bool
    assign_default: str | None
    setup_step_losses: int
    division: str | None
    notes: str

    @property
    def unit_count(self) -> int:
        """The number of combat-unit counters (HQ not included)."""
        return sum(g.count for g in self.units)

    def steps(self, types: Mapping[str, UnitType]) -> int:
        """The full-strength steps of the formation's combat units (HQs have none; 8.5 steps_total)."""
        return sum(g.count * types[g.type].steps for g in self.units)


def _oob(d: Mapping[str, Any]) -> Mapping[str, tuple[OobFormation, ...]]:
    out: dict[str, tuple[OobFormation, ...]] = {}
    for scenario, sc in d.items():
        forms: list[OobFormation] = []
        for i, f in enumerate(_get(sc, "formations", f"oob.{scenario}")):
            where = f"oob.{scenario}.formations[{i}]"
            groups = []
            for j, g in enumerate(_get(f, "units", where)):
                w = f"{where}.units[{j}]"
                groups.append(
                    UnitGroup(
                        _str(g, "type", w),
                        _int(g, "count", w),
                        _opt_int(g, "arrives", w),
                        _opt_int(g, "independent_until", w),
                    )
                )
            forms.append(
                OobFormation(
                    id=_str(f, "id", where),
                    side=_side(f, where),
                    hq=_bool(f, "hq", where),
                    independent=_bool(f, "independent", where),
                    arrives=_int(f, "arrives", where),
                    units=tuple(groups),
                    hq_arrives=_opt_int(f, "hq_arrives", where),
                    leaves=_opt_int(f, "leaves", where),
                    entry=_strs(f, "entry", where),
                    assign_to=_strs(f, "assign_to", where),
                    assign_to_any=_bool(f, "assign_to_any", where, default=False),
                    assign_default=_opt_str(f, "assign_default", where),
                    setup_step_losses=_opt_int(f, "setup_step_losses", where) or 0,
                    division=_opt_str(f, "division", where),
                    notes=_opt_str(f, "notes", where) or "",
                )
            )
        out[scenario] = tuple(forms)
    return MappingProxyType(out)


# --- Visibility (visibility.toml, 4.1) -----------------------------------------------------------------------


@dataclass(frozen=True)
class VisibilityClass:
    """How far a target of this class can be seen (4.1)."""

    name: str
    open: int
    other: int
    types: tuple[str, ...]
    """Unit kinds (and states such as mounted_infantry) in this class."""

    def distance(self, in_open: bool) -> int:
        """The visibility distance in open or in any other terrain."""
        return self.open if in_open else self.other


def _visibility(d: Mapping[str, Any]) -> tuple[int, Mapping[str, VisibilityClass]]:
    classes = {
        name: VisibilityClass(
            name,
            _int(v, "open", f"visibility.{name}"),
            _int(v, "other", f"visibility.{name}"),
            _strs(v, "types", f"visibility.{name}"),
        )
        for name, v in _table(d, "visibility", "visibility").items()
    }
    return _int(d, "max_los", "visibility"), MappingProxyType(classes)


# --- All tables ----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SequenceRules:
    """Numbers of the sequence of play (``sequence.toml``; seed values of 5.3, 5.5 and 7.3)."""

    max_activations: int
    cancel_max_roll: int
    general_neutral_markers: int
    general_exhaust_markers: int
    stacking_limit: int


def _sequence(d: Mapping[str, Any]) -> SequenceRules:
    where = "sequence.toml"
    return SequenceRules(
        max_activations=_int(_table(d, "activation", where), "max_per_turn", f"{where} [activation]"),
        cancel_max_roll=_int(_table(d, "general", where), "cancel_success_max", f"{where} [general]"),
        general_neutral_markers=_int(_table(d, "general", where), "neutral_markers", f"{where} [general]"),
        general_exhaust_markers=_int(_table(d, "general", where), "exhaust_markers", f"{where} [general]"),
        stacking_limit=_int(_table(d, "stacking", where), "limit", f"{where} [stacking]"),
    )


@dataclass(frozen=True)
class Tables:
    """Every Blitzkrieg 1940 table, typed and read-only."""

    terrain: Terrain
    units: Mapping[str, UnitType]
    crt: Crt
    modifiers: Mapping[str, Modifier]
    formations: Mapping[str, Formation]
    ff_tests: Mapping[str, FfTest]
    ff_modifiers: Mapping[str, int]
    reaction: Reaction
    artillery: Artillery
    hannut_victory: HannutVictory
    stonne_victory: StonneVictory
    chits: Mapping[str, ScenarioChits]
    oob: Mapping[str, tuple[OobFormation, ...]]
    max_los: int
    visibility: Mapping[str, VisibilityClass]
    sequence: SequenceRules

    @property
    def cancel_max_roll(self) -> int:
        """The highest 1d6 roll that cancels an enemy chit (5.5 option 4)."""
        return self.sequence.cancel_max_roll

    @property
    def general_neutral_markers(self) -> int:
        """Neutralised markers a General may remove (5.5 option 2)."""
        return self.sequence.general_neutral_markers

    @property
    def general_exhaust_markers(self) -> int:
        """Exhaustion markers a General may remove (5.5 option 2)."""
        return self.sequence.general_exhaust_markers

    @property
    def exhausted_ff_modifier(self) -> int:
        """The FF modifier of an exhausted formation (5.4, 13.4)."""
        return self.ff_modifiers["exhausted"]

    def ff_test_offset(self, name: str) -> int:
        """The offset to the FF of the named test (panic, rally, demoralisation, recovery, exhaustion)."""
        return self.ff_tests[name].offset

    def oob_formation(self, scenario: str, fid: str) -> OobFormation:
        """The order-of-battle entry ``fid`` of ``scenario``."""
        for f in self.oob[scenario]:
            if f.id == fid:
                return f
        raise KeyError(f"{scenario}: no formation {fid!r} in the order of battle")


@cache
def load_tables() -> Tables:
    """Read and check every table (once; the result is cached and read-only).

    Raises:
        DataError: a data file is missing, is not valid TOML, or lacks a key or has a value of the wrong kind.
    """
    formations_raw = _load("formations")
    hannut, stonne = _victory(_load("victory"))
    max_los, visibility = _visibility(_load("visibility"))
    return Tables(
        terrain=_terrain(_load("terrain")),
        units=_units(_load("units")),
        crt=_crt(_load("crt")),
        modifiers=_modifiers(_load("modifiers")),
        formations=_formations(formations_raw),
        ff_tests=_ff_tests(formations_raw),
        ff_modifiers=_counts(formations_raw, "modifiers", "formations"),
        reaction=_reaction(_load("reaction")),
        artillery=_artillery(_load("artillery")),
        hannut_victory=hannut,
        stonne_victory=stonne,
        chits=_chits(_load("chits")),
        oob=_oob(_load("oob")),
        max_los=max_los,
        visibility=visibility,
        sequence=_sequence(_load("sequence")),
    )


def crt_result(column: int, roll: int) -> str:
    """The combat result ("-", "red_n", "n" or "step") of a 2d6 ``roll`` on ``column`` (13.1).

    Columns above the highest use the highest (8.2 step 5).

    Raises:
        ValueError: ``column`` is below -1 ("no fire below column -1 (rule 8.2)") or ``roll`` is not 2–12.
    """
    return load_tables().crt.result(column, roll)


def crt_distribution(column: int) -> dict[str, Fraction]:
    """Result → probability over 2d6 on ``column`` (13.1); the four results always present.

    Raises:
        ValueError: ``column`` is below -1.
    """
    return load_tables().crt.distribution(column)
