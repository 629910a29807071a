"""Provides the first state of a HACSE scenario (15.10.2: units placed with their facing, hidden and dug-in status,
units waiting to enter, passengers and towed guns, fortifications, objectives) and the checks of a scenario's
HACSE keys (:func:`check_scenario`: every problem names the key and what was expected).

Scenario keys read here (beyond the engine's): a unit's ``status`` may hold ``facing`` (0–5, guns and vehicles on
the map), ``hidden``, ``dug_in``, ``experience``, ``charges``, ``embarked_in`` and ``towed_by`` (the id of the
carrier); ``[fortifications]`` (``mines``, ``wire``, ``trenches``, ``obstacles``, ``ditches``), ``[victory]``
(``hexes``, ``points``, ``control``, and the awards of 15.10.5), ``[setup]``, ``[conditions]`` and ``[special]``
(the bridge's charges).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise
from typing import Any

from engine.board import Board
from engine.dice import DiceSource
from engine.errors import Problem, StateError
from engine.hexgrid import Hex, parse_hex
from engine.specs import Scenario, UnitSpec
from engine.state import GameState, Unit
from engine.typed import from_plain

from . import buildings, bunkers, campaign, searchlights, sheets
from .data import PROHIBITED, Tables
from .fortifications import fort_table
from .model import Data, Mine, Status, status
from .weather import conditions_by_turn, ground_of
from .weights import check_overrides

__all__ = ["build_state", "check_scenario"]

_HEX_KEYS = ("wire", "trenches", "obstacles", "ditches")


def _labels(value: Any) -> list[str]:
    if isinstance(value, list):
        return [str(v) for v in value]
    return str(value or "").replace(",", " ").split()


def _hexes(value: Any) -> list[Hex]:
    return [parse_hex(x) for x in _labels(value)]


def _status(spec: UnitSpec, tables: Tables) -> Status:
    s = from_plain(Status, dict(spec.status), where=f"units[{spec.id!r}].status")
    if "experience" not in spec.status:
        s.experience = tables.default_experience
    s.origin = spec.hex
    if spec.hex is None:
        s.off_map = True
        s.arrives = spec.arrives or 1
        s.entry = list(spec.entry)
    return s


def build_state(ruleset_id: str, scenario: Scenario, board: Board, dice: DiceSource, tables: Tables) -> GameState:
    """The state before the first turn (15.10.2): the scenario's default deployment."""
    units: dict[str, Unit] = {}
    for spec in scenario.units:
        sheet = tables.sheets[spec.type]
        units[spec.id] = Unit(
            spec.id, spec.type, spec.side, spec.hex, sheet.possible_damage, spec.formation, _status(spec, tables)
        )
        carried = campaign.start_rows(sheet, spec.steps)  # a campaign's carried losses (campaign.py)
        if carried:
            status(units[spec.id]).rows_hit = carried
            units[spec.id].steps = sheet.possible_damage - sheets.target(sheet, carried).damage_taken
    for u in units.values():  # passengers and towed guns wait with their carrier (15.10.2)
        carrier = u.status.embarked_in or u.status.towed_by
        if carrier in units and units[carrier].hex is None:
            u.status.entry = list(units[carrier].status.entry)
    raw = scenario.raw
    forts = raw.get("fortifications", {})
    victory = raw.get("victory", {})
    special = raw.get("special", {})
    d = Data(turns=scenario.turns)
    d.mines = [
        Mine(
            parse_hex(m["hex"]), int(m["count"]), str(m["side"]), str(m.get("kind", "at")), bool(m.get("secret", True))
        )
        for m in forts.get("mines", [])
    ]
    d.conditions = conditions_by_turn(raw.get("conditions", {}), scenario.turns)  # 6.1
    d.ground = ground_of(raw.get("conditions", {}))  # 4.3: mud or snow on the ground
    d.bunkers = bunkers.load(forts.get("bunkers", []), tables)  # 4.9 P
    d.wire = _hexes(forts.get("wire"))
    d.trenches = _hexes(forts.get("trenches"))
    d.obstacles = _hexes(forts.get("obstacles"))  # 13.6
    d.ditches = _hexes(forts.get("ditches"))  # 13.7
    if "bridge" in special:
        bridge = parse_hex(special["bridge"])
        d.charges = {bridge: int(special.get("charges", {}).get("count", 0))}
        if "side" in special.get("charges", {}):
            d.charge_side = {bridge: str(special["charges"]["side"])}
        d.blow_from = int(special.get("blow_from_turn", 1))
    points = {parse_hex(k): int(v) for k, v in victory.get("points", {}).items()}
    d.points = {h: points.get(h, 0) for h in _hexes(victory.get("hexes"))}
    d.control = {parse_hex(k): str(v) for k, v in victory.get("control", {}).items()}
    d.victory = victory
    # the scenario's AI weights per side (not rules; weights.side_weights)
    d.ai = {str(s): {str(k): float(x) for k, x in dict(over).items()} for s, over in dict(raw.get("ai", {})).items()}
    setup = raw.get("setup", {})
    d.zones = {side: [int(c) for c in z["columns"]] for side, z in setup.get("zones", {}).items()}
    d.setup_sides = [side for side in setup.get("order", []) if side in d.zones]
    st = GameState(
        ruleset=ruleset_id,
        scenario=scenario.id,
        sides=scenario.side_ids(),
        board=board,
        units=units,
        turn=1,
        phase="setup",
        to_act=None,
        data=d,
        dice=dice,
    )
    buildings.start(st, tables, {spec.id for spec in scenario.units if "in_building" in spec.status})  # 4.9
    return st


# --- Checks ----------------------------------------------------------------------------------------------------


def check_scenario(scenario: Scenario, tables: Tables) -> list[Problem]:
    """The HACSE keys of a scenario checked against the rules (2.1, 4.5, 4.6, 13.2, 15.10)."""
    board = Board(scenario.map, dict(tables.codes))
    problems: list[Problem] = []

    def add(where: str, message: str) -> None:
        problems.append(Problem(scenario.path or scenario.id, where, message))

    if len(scenario.sides) != 2:
        add("sides", f"expected two sides (3.2), got {len(scenario.sides)}")
    specs = {u.id: u for u in scenario.units}
    for i, spec in enumerate(scenario.units):
        _check_unit(spec, specs, tables, board, _adder(add, f"units[{i}]"))
        if "searchlight" in spec.status:  # 6.1 P
            searchlights.check(spec, tables, board, _adder(add, f"units[{i}].status.searchlight"))
    _check_hex_keys(scenario, board, add)
    if "ai" in scenario.raw:
        for where, message in check_overrides(scenario.raw["ai"], tuple(scenario.side_ids())):
            add(where, message)
    _check_fort_terrain(scenario, board, add)
    _check_roads(board, add)
    return problems


def _adder(add: Callable[[str, str], None], where: str) -> Callable[[str], None]:
    def one(message: str) -> None:
        add(where, message)

    return one


def _check_unit(
    spec: UnitSpec, specs: dict[str, UnitSpec], tables: Tables, board: Board, add: Callable[[str], None]
) -> None:
    sheet = tables.sheets[spec.type]
    try:
        s = from_plain(Status, dict(spec.status), where="status")
    except StateError as err:
        add(f"unit {spec.id}: {err}")
        return
    if s.experience not in tables.experience:
        add(f"unit {spec.id}: experience must be one of {', '.join(tables.experience)}, got {s.experience!r} (15.2)")
    if spec.hex is not None and sheet.has_facing and s.facing is None:
        add(f"unit {spec.id}: a {sheet.unit_type} on the map needs status.facing = 0-5 (2.2, 15.10.2)")
    if s.facing is not None and (not sheet.has_facing or not 0 <= s.facing <= 5):
        add(f"unit {spec.id}: facing must be 0-5 and only for guns and vehicles (2.1, 2.2), got {s.facing}")
    carrier = s.embarked_in or s.towed_by
    if carrier is not None:
        _check_carrier(spec, s, specs.get(carrier), tables, add)
    elif spec.hex is None and not spec.entry:
        add(f"unit {spec.id}: a unit that arrives needs entry hexes or a carrier (15.10.2)")
    if (
        s.hidden
        and spec.hex is not None
        and sheet.unit_type != "infantry"
        and board.terrain(spec.hex) not in sheet.hide_in
    ):
        add(f"unit {spec.id}: a {sheet.unit_type} may not hide in {board.terrain(spec.hex)} (13.2)")


def _check_carrier(
    spec: UnitSpec, s: Status, carrier: UnitSpec | None, tables: Tables, add: Callable[[str], None]
) -> None:
    name = s.embarked_in or s.towed_by
    if carrier is None or carrier.side != spec.side:
        add(f"unit {spec.id}: carrier {name!r} is not a unit of its side (4.5, 4.6)")
        return
    if spec.hex is not None or carrier.hex is not None:
        add(f"unit {spec.id}: embarked and towed units start off the map with their carrier (15.10.2)")
    csheet = tables.sheets[carrier.type]
    sheet = tables.sheets[spec.type]
    if s.embarked_in and (sheet.unit_type != "infantry" or len(sheet.rows) > csheet.transport_capacity):
        add(f"unit {spec.id}: {carrier.id} ({carrier.type}) carries {csheet.transport_capacity} soldiers (4.5)")
    if s.towed_by and (sheet.weight_t or 0.0) > 2 * (csheet.tow_load_t or (csheet.weight_t or 0.0) / 2):
        add(f"unit {spec.id}: {carrier.id} ({carrier.type}) cannot tow {sheet.weight_t} t (4.6)")


def _check_hex_keys(scenario: Scenario, board: Board, add: Callable[[str, str], None]) -> None:
    raw = scenario.raw
    sides = set(scenario.side_ids())
    values: list[tuple[str, Any]] = []
    forts = raw.get("fortifications", {})
    values += [(f"fortifications.{k}", forts.get(k)) for k in _HEX_KEYS if k in forts]
    if "bunkers" in forts:
        bunkers.check(forts["bunkers"], sides, board, add)  # 4.9 P
    for i, m in enumerate(forts.get("mines", [])):
        values.append((f"fortifications.mines[{i}].hex", m.get("hex")))
        if m.get("side") not in sides or not isinstance(m.get("count"), int):
            add(f"fortifications.mines[{i}]", "expected { hex, count, side } with a side of the scenario (13.4)")
    victory = raw.get("victory", {})
    values += [
        ("victory.points", list(victory.get("points", {}))),
        ("victory.control", list(victory.get("control", {}))),
    ]
    for k, side in victory.get("control", {}).items():
        if side not in sides:
            add("victory.control", f"{k}: expected a side of the scenario, got {side!r} (15.9)")
    setup = raw.get("setup", {})
    for side, zone in setup.get("zones", {}).items():
        cols = zone.get("columns") if isinstance(zone, dict) else None
        if not (isinstance(cols, list) and len(cols) == 2 and all(isinstance(c, int) for c in cols)):
            cols = [0, 0]
        if side not in sides or not 1 <= cols[0] <= cols[1] <= board.cols:
            add(f"setup.zones.{side}", f"expected a side and columns = [first, last] on the map (15.10), got {zone!r}")
    for side in setup.get("order", []):
        if side not in sides:
            add("setup.order", f"expected sides of the scenario (15.10.2), got {side!r}")
    if "bridge" in raw.get("special", {}):
        values.append(("special.bridge", raw["special"]["bridge"]))
    for where, value in values:
        for label in _labels(value):
            try:
                board.parse(label)
            except ValueError as err:
                add(where, str(err))


def _check_fort_terrain(scenario: Scenario, board: Board, add: Callable[[str, str], None]) -> None:
    """13.7: an AT ditch only in open terrain; 13.4: booby traps only in forest or buildings."""
    forts = scenario.raw.get("fortifications", {})
    places: list[tuple[str, Any, tuple[str, ...], str]] = [
        ("fortifications.ditches", x, ("clear",), "an AT ditch is dug only in open terrain (13.7)")
        for x in _labels(forts.get("ditches"))
    ]
    places += [
        (
            f"fortifications.mines[{i}]",
            m.get("hex"),
            fort_table().trap_terrain,
            "traps only in forest or buildings (13.4)",
        )
        for i, m in enumerate(forts.get("mines", []))
        if isinstance(m, dict) and m.get("kind") == "trap"
    ]
    for where, label, allowed, why in places:
        try:
            h = board.parse(str(label))
        except ValueError:
            continue  # reported by _check_hex_keys
        if board.terrain(h) not in allowed:
            add(where, f"{label} is {board.terrain(h)}: {why}")


def _check_roads(board: Board, add: Callable[[str, str], None]) -> None:
    """15.10.1: consecutive road hexes differ by at most 1 level."""
    for name, path in board.data.lines.get("roads", ()):
        for a, b in pairwise(path):
            if abs(board.level(a) - board.level(b)) > 1:
                add(f"map roads {name}", f"{board.label(a)}-{board.label(b)} climbs more than 1 level (15.10.1)")


def can_stand(tables: Tables, sheet_id: str, terrain_class: str) -> bool:
    """Whether a unit of the sheet may stand in the terrain: its movement class may enter it (4.3)."""
    sheet = tables.sheets.get(sheet_id)
    terrain = tables.terrain.get(terrain_class)
    if sheet is None or terrain is None:
        return True
    return tables.movement.base[terrain.movement][sheet.move_class] != PROHIBITED
