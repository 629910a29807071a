"""Provides the Blitzkrieg 1940 scenario checks: setup legality and agreement with the rule tables.

Three checks, each returning :class:`~engine.errors.Problem` objects that name the scenario file, the line and key,
and what was expected:

- :func:`check_keys` — every hex list and whole number of the Blitzkrieg keys that the rules read in play is a
  hex list of the map or a number in its range (so that a file never passes validation to fail in play).
- :func:`check_setup` — every default position of a scenario is legal: inside its setup zone (12.1, 12.2, 13.9),
  on terrain its movement class may enter (7.3 [P]), at most 3 non-HQ units per hex (7.3), within the doctrine
  distance of its HQ (3.4), outside the French exclusion ring of Stonne (12.2 [P]); mounted companies on their
  own APC (12.1); fortifications in hexes with friendly infantry (10.2 [P]) and minefields in their zone (10.1,
  12.2); the number of markers (12.1, 12.2); reinforcements entering on their own map edge (12.2).
- :func:`scenario_consistency` — the scenario's formations, counters, chits, timed events and victory keys agree
  with ``data/oob.toml``, ``formations.toml``, ``chits.toml``, ``artillery.toml`` and ``victory.toml`` (13.7, 12).

The scenario keys read here (``formations``, ``units``, ``chits``, ``zones``, ``markers``, ``schedule``,
``victory``, ``special``) are described at the top of ``scenarios/blitzkrieg1940/hannut.toml``.

>>> from engine.hexgrid import parse_hex
>>> parse_hex("1612") in _labels_to_hexes("1511 1512, 1612")
True
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from engine.board import Board
from engine.errors import Problem, StateError
from engine.hexgrid import Hex, distance, hex_label, parse_hex
from engine.scenario import Scenario, UnitSpec, _Locator
from engine.typed import from_plain

from .data import CHIT_KINDS, ChitSet, Tables
from .model import DeployStep

__all__ = [
    "MARKER_KINDS",
    "check_keys",
    "check_setup",
    "chits_in_play",
    "marker_zone_hexes",
    "scenario_consistency",
    "unit_zone",
    "zone_hexes",
]

MARKER_KINDS: tuple[str, ...] = ("fortification", "minefield")
"""Map markers a scenario places at the start (10.1 minefields, 10.2 fortifications)."""

_STUKA = "stuka"
"""The salvo entry of one Stuka attack in a chit's ``salvos`` list (8.6)."""


# --- Reading the scenario's ruleset keys ------------------------------------------------------------------------


def _labels_to_hexes(value: Any) -> list[Hex]:
    """Hexes of a hex list written as in scenarios/README.md ("0101 0102", commas, or a list); bad labels skipped."""
    if isinstance(value, str):
        labels = [t for t in re.split(r"[\s,]+|(?<=\d)-(?=\d)", value) if t]
    elif isinstance(value, list):
        labels = [v for v in value if isinstance(v, str)]
    else:
        return []
    out: list[Hex] = []
    for lab in labels:
        try:
            out.append(parse_hex(lab))
        except ValueError:
            continue
    return out


def _bad_labels(value: Any) -> list[str]:
    """The entries of a hex list that are not hex labels (empty if the list is fine)."""
    if isinstance(value, str):
        labels = [t for t in re.split(r"[\s,]+|(?<=\d)-(?=\d)", value) if t]
    elif isinstance(value, list):
        labels = [str(v) for v in value]
    else:
        return [repr(value)]
    bad: list[str] = []
    for lab in labels:
        try:
            parse_hex(lab)
        except ValueError:
            bad.append(lab)
    return bad


def _array(raw: Mapping[str, Any], key: str) -> list[tuple[int, Mapping[str, Any]]]:
    """The tables of the array-of-tables ``key`` with their indices (entries that are not tables are skipped)."""
    value = raw.get(key, [])
    if not isinstance(value, list):
        return []
    return [(i, t) for i, t in enumerate(value) if isinstance(t, Mapping)]


def _table(raw: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = raw.get(key, {})
    return value if isinstance(value, Mapping) else {}


def _strs(value: Any) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _formations(scenario: Scenario) -> dict[str, Mapping[str, Any]]:
    """The scenario's ``[[formations]]`` by id (the first of duplicates)."""
    out: dict[str, Mapping[str, Any]] = {}
    for _, f in _array(scenario.raw, "formations"):
        fid = f.get("id")
        if isinstance(fid, str) and fid not in out:
            out[fid] = f
    return out


def _zones_for(scenario: Scenario, key: str, value: str, side: str | None) -> list[tuple[int, Mapping[str, Any]]]:
    """The ``[[zones]]`` whose ``key`` list ("formations" or "markers") names ``value`` (for ``side`` if given)."""
    return [
        (i, z)
        for i, z in _array(scenario.raw, "zones")
        if value in _strs(z.get(key)) and (side is None or z.get("side") in (None, side))
    ]


def zone_hexes(scenario: Scenario, fid: str) -> set[Hex]:
    """The setup zone of formation (or independent unit group) ``fid``: every ``[[zones]]`` hex listing it.

    Empty if no zone names ``fid`` (an independent unit without a zone of its own then uses the zone of the
    formation it is assigned to, see :func:`unit_zone`).
    """
    return {h for _, z in _zones_for(scenario, "formations", fid, None) for h in _labels_to_hexes(z.get("hexes"))}


def _unit_zones(scenario: Scenario, unit: UnitSpec) -> tuple[str | None, list[tuple[int, Mapping[str, Any]]]]:
    """The formation id whose zone applies to ``unit`` and those zones: its own group first, then its formation."""
    group = unit.status.get("group")
    for key in (group if isinstance(group, str) else None, unit.formation):
        if key is None:
            continue
        zones = _zones_for(scenario, "formations", key, unit.side)
        if zones:
            return key, zones
    return None, []


def unit_zone(scenario: Scenario, unit: UnitSpec) -> set[Hex]:
    """The hexes where ``unit`` may set up: the zone of its independent group (``status.group``) if it has one,
    else the zone of its formation (12.2 [P]: the 205 RI AT gun sets up in its battalion's zone)."""
    _, zones = _unit_zones(scenario, unit)
    return {h for _, z in zones for h in _labels_to_hexes(z.get("hexes"))}


def marker_zone_hexes(scenario: Scenario, kind: str, side: str) -> set[Hex] | None:
    """Where ``side``'s markers of ``kind`` may be placed, or None if no zone restricts them."""
    zones = _zones_for(scenario, "markers", kind, side)
    if not zones:
        return None
    return {h for _, z in zones for h in _labels_to_hexes(z.get("hexes"))}


def chits_in_play(scenario: Scenario, side: str, turn: int, *, include_optional: bool = True) -> ChitSet:
    """The chits ``side`` has in ``turn`` according to the scenario (12, 2.1 step 2; losses in play not counted).

    Formation chits: ``[[formations]]`` with ``chit = true`` whose ``arrives`` (default 1) is at most ``turn`` and
    whose ``leaves`` (if any) is at least ``turn``. Other chits: ``[[chits]]`` with ``turn`` (default 1) at most
    ``turn``. Optional chits are those of independent formations with their own chit (12.2: 4 BCC, which the
    French may dissolve at setup); ``include_optional=False`` leaves them out.
    """
    formations: list[str] = []
    optional: set[str] = set()
    for fid, f in _formations(scenario).items():
        if f.get("side") != side or f.get("chit") is not True:
            continue
        if f.get("independent") is True:
            optional.add(fid)
            if not include_optional:
                continue
        arrives, leaves = f.get("arrives", 1), f.get("leaves")
        if isinstance(arrives, int) and arrives <= turn and (not isinstance(leaves, int) or turn <= leaves):
            formations.append(fid)
    counts = dict.fromkeys(CHIT_KINDS, 0)
    for _, c in _array(scenario.raw, "chits"):
        kind, count, first = c.get("kind"), c.get("count", 1), c.get("turn", 1)
        on_time = isinstance(first, int) and first <= turn
        if c.get("side") == side and kind in counts and isinstance(count, int) and on_time:
            counts[kind] += count
    return ChitSet(tuple(formations), frozenset(optional), **counts)


# --- Reporting ---------------------------------------------------------------------------------------------------


class _Report:
    """Collects problems for one scenario file, located like the loader's (``line N, units[3].hex``)."""

    def __init__(self, scenario: Scenario) -> None:
        self.file = scenario.path or f"{scenario.ruleset}/{scenario.id}"
        self.loc = _Locator(scenario.text)
        self.problems: list[Problem] = []

    def add(self, message: str, *path: Any) -> None:
        self.problems.append(Problem(self.file, self.loc.where(*path), message))


def _unit_index(scenario: Scenario) -> dict[str, int]:
    """Unit id → index of its ``[[units]]`` table (for locating problems)."""
    return {str(u.get("id")): i for i, u in _array(scenario.raw, "units")}


def _labels(hexes: Iterable[Hex]) -> str:
    return " ".join(sorted(hex_label(h) for h in hexes))


# --- Hex lists and numbers of the scenario keys ------------------------------------------------------------------

_HEX_LISTS: tuple[tuple[str, ...], ...] = (
    ("special", "french_exclusion", "of"),
    ("victory", "hexes"),
    ("victory", "objectives"),
)
"""Hex lists the rules read (``"0108 0112"``, commas, or a TOML list of labels); zones and markers are checked
with their tables below."""

_TURNS = -1
"""An upper bound meaning the scenario's number of turns."""

_NUMBERS: tuple[tuple[tuple[str, ...], int, int], ...] = (
    (("special", "french_exclusion", "within"), 0, 99),
    (("special", "turn1_kept_chits", "*"), 0, 9),
    (("special", "setup_losses", "steps"), 0, 99),
    (("special", "optional_mounted", "companies"), 0, 9),
    (("special", "marker_counts", "*"), 0, 99),
    (("victory", "turn"), 1, _TURNS),
    (("chits", "[]", "count"), 1, 99),
    (("chits", "[]", "turn"), 1, _TURNS),
    (("schedule", "[]", "turn"), 1, _TURNS),
    (("schedule", "[]", "add", "*"), 1, 99),
    (("formations", "[]", "ff"), 2, 12),
    (("formations", "[]", "arrives"), 1, _TURNS),
    (("formations", "[]", "leaves"), 1, _TURNS),
    (("formations", "[]", "setup_step_losses"), 0, 99),
)
"""Whole numbers the rules read, with their range: ``"*"`` is every key of a table, ``"[]"`` every table of an
array (``turn1_kept_chits.side`` is a word, not a number: it is left to the comparison with chits.toml)."""

_WORDS = frozenset({("special", "turn1_kept_chits", "side")})
"""Keys that a ``"*"`` of :data:`_NUMBERS` would take in but that are not numbers."""


def _found(value: Any, path: tuple[str, ...], at: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], Any]]:
    """The values at ``path`` in the plain data ``value``, each with its full key path."""
    if not path:
        return [(at, value)]
    head, rest = path[0], path[1:]
    if head == "[]":
        items = list(enumerate(value)) if isinstance(value, list) else []
        return [x for i, v in items if isinstance(v, Mapping) for x in _found(v, rest, (*at, i))]
    if not isinstance(value, Mapping):
        return []
    keys = sorted(str(k) for k in value) if head == "*" else [head] if head in value else []
    return [x for k in keys for x in _found(value[k], rest, (*at, k))]


def check_keys(scenario: Scenario, board: Board) -> list[Problem]:
    """Check every hex list and number of the scenario's Blitzkrieg keys that the rules read in play (12, 13.9):
    hex labels on the map, whole numbers in range, the set-up sequence's tables; each problem names file, line
    and key, and what was expected. (A bad value here used to pass validation and fail actions into the game.)"""
    rep = _Report(scenario)
    raw = scenario.raw
    for path in _HEX_LISTS:
        for at, value in _found(raw, path):
            bad = _bad_labels(value)
            off = [h for h in _labels_to_hexes(value) if h not in board]
            if bad or not _labels_to_hexes(value):
                shown = ", ".join(repr(b) for b in bad[:5]) or "no hex"
                rep.add(f'expected a hex list "CCRR CCRR ..." (hex labels of the map), got {shown}', *at)
            elif off:
                rep.add(f"hexes off the {board.id} map: {_labels(off)} (expected hexes of the map)", *at)
    for path, lo, hi in _NUMBERS:
        top = scenario.turns if hi == _TURNS else hi
        for at, value in _found(raw, path):
            if tuple(str(p) for p in at) in _WORDS:
                continue
            if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= top:
                shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
                rep.add(f"expected a whole number from {lo} to {top}, got {shown}", *at)
    sequence = _table(raw, "special").get("setup_sequence", [])
    if not isinstance(sequence, list):
        rep.add("expected [[special.setup_sequence]] tables (side, formations, markers)", "special", "setup_sequence")
    else:
        for i, step in enumerate(sequence):
            try:
                from_plain(DeployStep, step, where=f"special.setup_sequence[{i}]")
            except StateError as err:
                rep.add(f"expected a set-up step (side, formations, markers): {err}", "special", "setup_sequence", i)
    return rep.problems


# --- Setup legality ----------------------------------------------------------------------------------------------


def check_setup(scenario: Scenario, tables: Tables, board: Board) -> list[Problem]:
    """Check every default position of ``scenario`` against the setup rules (12.1, 12.2, 3.4, 7.3, 10).

    Args:
        scenario: a scenario that the generic loader accepted.
        tables: the Blitzkrieg 1940 rule tables.
        board: the scenario's map under the ruleset's terrain classes.

    Returns:
        Every problem found (empty if the setup is legal), each naming file, key and what was expected.
    """
    rep = _Report(scenario)
    index = _unit_index(scenario)
    forms = _formations(scenario)
    _check_zone_tables(scenario, board, forms, rep)
    placed = [u for u in scenario.units if u.hex is not None]
    by_id = {u.id: u for u in scenario.units}
    for u in placed:
        _check_position(scenario, tables, board, u, index.get(u.id, 0), rep)
    _check_stacking(tables, placed, index, rep)
    _check_doctrine(tables, placed, by_id, forms, index, rep)
    _check_mounted(tables, scenario.units, by_id, index, rep)
    _check_reinforcements(scenario, board, index, rep)
    _check_markers(scenario, tables, board, placed, rep)
    return rep.problems


def _check_zone_tables(scenario: Scenario, board: Board, forms: Mapping[str, Any], rep: _Report) -> None:
    sides = set(scenario.side_ids())
    for i, z in _array(scenario.raw, "zones"):
        if z.get("side") not in sides:
            rep.add(f"zone side must be one of {', '.join(sorted(sides))}, got {z.get('side')!r}", "zones", i, "side")
        for fid in _strs(z.get("formations")):
            if fid not in forms:
                rep.add(f"zone names formation {fid!r}, which is not in [[formations]]", "zones", i, "formations")
        for kind in _strs(z.get("markers")):
            if kind not in MARKER_KINDS:
                rep.add(f"unknown marker kind {kind!r} (expected one of {', '.join(MARKER_KINDS)})", "zones", i)
        if not _strs(z.get("formations")) and not _strs(z.get("markers")):
            rep.add("a zone needs formations = [...] or markers = [...]", "zones", i)
        bad = _bad_labels(z.get("hexes"))
        if bad or not _labels_to_hexes(z.get("hexes")):
            rep.add(f'expected hexes = "CCRR CCRR ..." (a hex list), bad entries: {bad}', "zones", i, "hexes")
        off = [h for h in _labels_to_hexes(z.get("hexes")) if h not in board]
        if off:
            rep.add(f"zone hexes off the map: {_labels(off)}", "zones", i, "hexes")


def _check_position(scenario: Scenario, tables: Tables, board: Board, u: UnitSpec, i: int, rep: _Report) -> None:
    assert u.hex is not None
    lab = board.label(u.hex)
    utype = tables.units[u.type]
    # Setup zone (12.1, 12.2, 13.9).
    fid, zones = _unit_zones(scenario, u)
    if not zones:
        rep.add(
            f"unit {u.id}: no setup zone for its formation {u.formation!r} (expected a [[zones]] table listing it, "
            "rules 12.1 / 12.2)",
            "units",
            i,
            "hex",
        )
    else:
        hexes = {h for _, z in zones for h in _labels_to_hexes(z.get("hexes"))}
        rules = "; ".join(str(z.get("rule", f"zones[{zi}]")) for zi, z in zones)
        if u.hex not in hexes:
            rep.add(
                f"unit {u.id} ({u.type}) at {lab} is outside the setup zone of {fid} (expected {rules})",
                "units",
                i,
                "hex",
            )
        if any(z.get("stack_with_assigned") is True for _, z in zones):
            mates = [
                o
                for o in scenario.units
                if o.hex == u.hex and o.formation == u.formation and o.id != u.id and not o.status.get("independent")
            ]
            if not mates:
                rep.add(
                    f"unit {u.id} at {lab} must stack with a unit of {u.formation}, the formation it is assigned to "
                    f"(rule 12.1: {rules})",
                    "units",
                    i,
                )
    # Terrain (7.3 [P]: only where the unit could move; no wheeled unit in woods).
    if utype.category != "hq":
        cls = tables.terrain.classes[board.terrain(u.hex)]
        if cls.entry_cost(utype.move_class) is None:
            rep.add(
                f"unit {u.id} ({u.type}, {utype.move_class}) may not set up in {cls.name} at {lab} (rule 7.3 [P]: only "
                f"in a hex it could enter; expected terrain where {utype.move_class} units may move)",
                "units",
                i,
                "hex",
            )
    # Exclusion ring (12.2 [P]: no French unit within 2 hexes of the German setup hexes).
    excl = _table(_table(scenario.raw, "special"), "french_exclusion")
    within = excl.get("within")
    if excl.get("side") == u.side and isinstance(within, int):
        near = [h for h in _labels_to_hexes(excl.get("of")) if distance(h, u.hex) <= within]
        if near:
            rep.add(
                f"unit {u.id} at {lab} is within {within} hexes of {_labels(near)} (rule 12.2 [P]: expected more than "
                f"{within} hexes from {_labels(_labels_to_hexes(excl.get('of')))})",
                "units",
                i,
                "hex",
            )
    if u.arrives is not None and u.arrives > 1:
        rep.add(f"unit {u.id} has both hex and arrives = {u.arrives} (expected one of them)", "units", i, "arrives")


def _check_stacking(tables: Tables, placed: list[UnitSpec], index: Mapping[str, int], rep: _Report) -> None:
    limit = tables.sequence.stacking_limit
    by_hex: dict[Hex, list[UnitSpec]] = {}
    for u in placed:
        assert u.hex is not None
        by_hex.setdefault(u.hex, []).append(u)
    for h, units in sorted(by_hex.items()):
        combat = [u for u in units if tables.units[u.type].category != "hq"]
        if len(combat) > limit:
            last = combat[-1]
            rep.add(
                f"{len(combat)} units in {hex_label(h)} ({', '.join(u.id for u in combat)}): at most {limit} per hex "
                "(rule 7.3; HQs do not count, a mounted company and its APC count 2)",
                "units",
                index.get(last.id, 0),
                "hex",
            )
        sides = sorted({u.side for u in units})
        if len(sides) > 1:
            rep.add(
                f"units of {' and '.join(sides)} set up together in {hex_label(h)} (expected one side per hex)",
                "units",
                index.get(units[-1].id, 0),
                "hex",
            )


def _check_doctrine(
    tables: Tables,
    placed: list[UnitSpec],
    by_id: Mapping[str, UnitSpec],
    forms: Mapping[str, Mapping[str, Any]],
    index: Mapping[str, int],
    rep: _Report,
) -> None:
    """3.4: doctrine-bound units (infantry and tracked, 1.1) within their HQ's command distance; independents exempt."""
    for u in placed:
        assert u.hex is not None
        if not tables.units[u.type].doctrine_bound or u.status.get("independent") is True or u.formation is None:
            continue
        hq_id = forms.get(u.formation, {}).get("hq")
        hq = by_id.get(hq_id) if isinstance(hq_id, str) else None
        if hq is None:
            continue  # a formation without HQ (4 BCC) is never out of command (12.2 [P])
        if hq.hex is None:
            rep.add(
                f"unit {u.id} sets up but its HQ {hq.id} does not (rule 3.4: expected the HQ on the map)",
                "units",
                index.get(u.id, 0),
            )
            continue
        reach = tables.units[hq.type].command_range
        d = distance(u.hex, hq.hex)
        if reach is not None and d > reach:
            rep.add(
                f"unit {u.id} at {hex_label(u.hex)} is {d} hexes from its HQ {hq.id} at {hex_label(hq.hex)} "
                f"(rule 3.4: expected at most {reach})",
                "units",
                index.get(u.id, 0),
                "hex",
            )


def _check_mounted(
    tables: Tables, units: Iterable[UnitSpec], by_id: Mapping[str, UnitSpec], index: Mapping[str, int], rep: _Report
) -> None:
    """12.1 [P]: a company starts mounted only on an APC of its own battalion, in the APC's hex, one per APC."""
    load: Counter[str] = Counter()
    for u in units:
        carrier_id = u.status.get("mounted_on")
        if carrier_id is None:
            continue
        i = index.get(u.id, 0)
        carrier = by_id.get(carrier_id) if isinstance(carrier_id, str) else None
        if carrier is None or tables.units[carrier.type].transport_capacity < 1:
            rep.add(f"unit {u.id}: mounted_on = {carrier_id!r} is not an APC of the scenario", "units", i, "status")
            continue
        load[carrier.id] += 1
        if tables.units[u.type].category != "infantry":
            rep.add(f"unit {u.id} ({u.type}) cannot ride an APC (rule 12.1 [P]: infantry companies only)", "units", i)
        if carrier.formation != u.formation:
            rep.add(
                f"unit {u.id} rides {carrier.id} of {carrier.formation} (rule 12.1 [P]: expected an APC of its own "
                f"battalion {u.formation})",
                "units",
                i,
                "status",
            )
        if (carrier.hex, carrier.arrives) != (u.hex, u.arrives):
            rep.add(
                f"unit {u.id} is mounted on {carrier.id} but does not start with it (expected the APC's hex "
                f"{hex_label(carrier.hex) if carrier.hex else carrier.arrives})",
                "units",
                i,
            )
        capacity = tables.units[carrier.type].transport_capacity
        if load[carrier.id] > capacity:
            rep.add(f"{carrier.id} carries more than {capacity} company (rule 12.1 [P])", "units", i, "status")


def _check_reinforcements(scenario: Scenario, board: Board, index: Mapping[str, int], rep: _Report) -> None:
    """12.2: reinforcements enter on their own map edge (Stonne: French 1310, German 0104-0108)."""
    edges = {str(s.get("id")): s.get("edge") for _, s in _array(scenario.raw, "sides")}
    for u in scenario.units:
        if u.hex is not None:
            continue
        i = index.get(u.id, 0)
        if not u.entry:
            rep.add(
                f"unit {u.id} arrives in turn {u.arrives} but has no entry hexes (expected entry = ...)", "units", i
            )
            continue
        edge = edges.get(u.side)
        if isinstance(edge, str) and edge in ("top", "right", "bottom", "left"):
            own = set(board.edge_hexes(edge))
            off = [h for h in u.entry if h not in own]
            if off:
                rep.add(
                    f"unit {u.id}: entry hexes {_labels(off)} are not on the {u.side} map edge ({edge}; rule 12.2)",
                    "units",
                    i,
                    "entry",
                )


def _check_markers(scenario: Scenario, tables: Tables, board: Board, placed: list[UnitSpec], rep: _Report) -> None:
    """10.1, 10.2 [P], 12.1, 12.2: marker kinds, places and numbers."""
    sides = set(scenario.side_ids())
    seen: dict[tuple[str, Hex], int] = {}
    counts: Counter[str] = Counter()
    for i, m in _array(scenario.raw, "markers"):
        kind, side = m.get("kind"), m.get("side")
        if kind not in MARKER_KINDS:
            rep.add(f"unknown marker kind {kind!r} (expected one of {', '.join(MARKER_KINDS)})", "markers", i, "kind")
            continue
        if side not in sides:
            rep.add(f"marker side must be one of {', '.join(sorted(sides))}, got {side!r}", "markers", i, "side")
            continue
        hexes = _labels_to_hexes(m.get("hex"))
        if len(hexes) != 1 or _bad_labels(m.get("hex")):
            rep.add(f'expected hex = "CCRR" (one hex), got {m.get("hex")!r}', "markers", i, "hex")
            continue
        h = hexes[0]
        counts[kind] += 1
        if h not in board:
            rep.add(f"marker hex {hex_label(h)} is off the map", "markers", i, "hex")
            continue
        if (kind, h) in seen:
            rep.add(f"a second {kind} marker in {hex_label(h)} (first: markers[{seen[kind, h]}])", "markers", i, "hex")
        seen.setdefault((kind, h), i)
        zone = marker_zone_hexes(scenario, kind, side)
        if zone is not None and h not in zone:
            rules = "; ".join(
                str(z.get("rule", f"zones[{zi}]")) for zi, z in _zones_for(scenario, "markers", kind, side)
            )
            rep.add(f"{kind} marker at {hex_label(h)} is outside its zone (expected {rules})", "markers", i, "hex")
        if kind == "fortification":
            infantry = [
                u for u in placed if u.hex == h and u.side == side and tables.units[u.type].fortification_benefit
            ]
            if not infantry:
                rep.add(
                    f"fortification at {hex_label(h)} holds no {side} infantry (rule 10.2 [P]: expected a hex with at "
                    "least one friendly infantry unit at setup)",
                    "markers",
                    i,
                    "hex",
                )
    expected = _table(_table(scenario.raw, "special"), "marker_counts")
    for kind in sorted(set(counts) | set(expected)):
        want = expected.get(kind)
        if want is None:
            rep.add(f"{counts[kind]} {kind} markers but no count for them (expected marker_counts.{kind})", "special")
        elif counts[kind] != want:
            rep.add(
                f"{counts[kind]} {kind} markers placed (expected {want}, rules 12.1 / 12.2)",
                "special",
                "marker_counts",
            )


# --- Consistency with the rule tables --------------------------------------------------------------------------------


def scenario_consistency(scenario: Scenario, tables: Tables) -> list[Problem]:
    """Compare the scenario with the rule tables: order of battle (13.7), chits (12), salvos (8.6), victory (12, 13.8).

    Checks formations (ids, sides, names, HQs, independence, chits, arrival and departure turns), counters (types
    and numbers per formation, arrival turns, entry hexes, independence, setup step losses of 12.1), chits per side
    and turn, salvos per chit, the timed events, the Hannut turn-1 kept chits (2.8), the victory keys and the sides'
    map edges.

    Returns:
        Every disagreement (empty if none), each naming file, key and the value the tables expect.
    """
    rep = _Report(scenario)
    sc = scenario.id
    if sc not in tables.oob:
        rep.add(
            f"no order of battle for scenario {sc!r} in data/oob.toml (known: {', '.join(sorted(tables.oob))})", "id"
        )
        return rep.problems
    _compare_formations(scenario, tables, rep)
    _compare_units(scenario, tables, rep)
    _compare_chits(scenario, tables, rep)
    _compare_schedule(scenario, tables, rep)
    _compare_victory(scenario, tables, rep)
    for i, s in _array(scenario.raw, "sides"):
        want = scenario.map.edges.get(str(s.get("id")))
        if s.get("edge") != want:
            rep.add(f"side {s.get('id')}: edge = {s.get('edge')!r}, the map says {want!r}", "sides", i, "edge")
    return rep.problems


def _chit_formations(tables: Tables, sc: str) -> set[str]:
    chits = tables.chits.get(sc)
    if chits is None:
        return set()
    out = {f for cs in chits.sides.values() for f in cs.formations}
    for ch in chits.changes:
        out.update(ch.add_formations)
    return out


def _first_chit_turn(tables: Tables, sc: str, side: str, fid: str, turns: int) -> int | None:
    chits = tables.chits.get(sc)
    if chits is None or side not in chits.sides:
        return None
    for t in range(1, turns + 1):
        if fid in chits.in_play(side, t).formations:
            return t
    return None


def _compare_formations(scenario: Scenario, tables: Tables, rep: _Report) -> None:
    sc = scenario.id
    oob = {f.id: f for f in tables.oob[sc]}
    with_chit = _chit_formations(tables, sc)
    seen: dict[str, int] = {}
    units = {u.id: u for u in scenario.units}
    for i, f in _array(scenario.raw, "formations"):
        fid = f.get("id")
        if not isinstance(fid, str):
            rep.add('expected id = "<formation id>"', "formations", i)
            continue
        if fid in seen:
            rep.add(f"duplicate formation {fid!r} (first: formations[{seen[fid]}])", "formations", i, "id")
            continue
        seen[fid] = i
        o = oob.get(fid)
        if o is None:
            rep.add(
                f"formation {fid!r} is not in data/oob.toml [{sc}] (expected one of {', '.join(oob)})", "formations", i
            )
            continue
        if f.get("side") != o.side:
            rep.add(f"{fid}: side = {f.get('side')!r}, oob.toml says {o.side!r}", "formations", i, "side")
        if f.get("independent", False) != o.independent:
            rep.add(f"{fid}: independent = {f.get('independent')!r}, oob.toml says {o.independent}", "formations", i)
        known = tables.formations.get(fid)
        if known is not None and f.get("name") != known.name:
            rep.add(f"{fid}: name = {f.get('name')!r}, formations.toml says {known.name!r}", "formations", i, "name")
        hq_id = f.get("hq")
        if o.hq:
            hq = units.get(hq_id) if isinstance(hq_id, str) else None
            want_type = "hq_de" if o.side == "german" else "hq_fr"
            if hq is None:
                rep.add(
                    f"{fid}: hq = {hq_id!r} is not a unit (expected the id of its {want_type} counter)", "formations", i
                )
            elif hq.type != want_type or hq.formation != fid:
                rep.add(
                    f"{fid}: its HQ {hq.id} is a {hq.type} of {hq.formation} (expected a {want_type} of {fid})",
                    "formations",
                    i,
                    "hq",
                )
        elif hq_id is not None:
            rep.add(f"{fid} has no HQ in oob.toml (expected no hq key)", "formations", i, "hq")
        want_chit = fid in with_chit
        if f.get("chit") is not want_chit:
            rep.add(f"{fid}: chit = {f.get('chit')!r}, chits.toml says {want_chit}", "formations", i, "chit")
        first = _first_chit_turn(tables, sc, o.side, fid, scenario.turns) if want_chit else None
        want_arrives = first if first is not None else max(1, o.arrives)
        if f.get("arrives", 1) != want_arrives:
            rep.add(f"{fid}: arrives = {f.get('arrives', 1)!r} (expected {want_arrives})", "formations", i, "arrives")
        if f.get("leaves") != o.leaves:
            rep.add(f"{fid}: leaves = {f.get('leaves')!r}, oob.toml says {o.leaves!r}", "formations", i, "leaves")
        if sorted(_strs(f.get("assign_to"))) != sorted(o.assign_to):
            rep.add(f"{fid}: assign_to = {f.get('assign_to')!r}, oob.toml says {list(o.assign_to)}", "formations", i)
        if f.get("assign_to_any", False) != o.assign_to_any:
            rep.add(
                f"{fid}: assign_to_any = {f.get('assign_to_any')!r}, oob.toml says {o.assign_to_any}", "formations", i
            )
    for fid in oob:
        if fid not in seen:
            rep.add(
                f"formation {fid!r} of data/oob.toml [{sc}] is missing (expected a [[formations]] table)", "formations"
            )


def _unit_key(u: UnitSpec) -> str | None:
    """The order-of-battle entry a unit belongs to: its independent group, else its formation."""
    group = u.status.get("group")
    return group if isinstance(group, str) else u.formation


def _compare_units(scenario: Scenario, tables: Tables, rep: _Report) -> None:
    sc = scenario.id
    oob = {f.id: f for f in tables.oob[sc]}
    forms = _formations(scenario)
    index = _unit_index(scenario)
    actual: dict[str, Counter[tuple[str, int, int | None]]] = {fid: Counter() for fid in oob}
    lost: Counter[str] = Counter()
    # A campaign's battle (a [campaign] table, engine/campaign.py) lacks the units lost in earlier battles and
    # has the steps they lost: the order of battle is then an upper bound.
    campaign = "campaign" in scenario.raw
    for u in scenario.units:
        i = index.get(u.id, 0)
        key = _unit_key(u)
        o = oob.get(key) if key is not None else None
        if o is None:
            rep.add(f"unit {u.id}: formation {key!r} is not in data/oob.toml [{sc}]", "units", i, "formation")
            continue
        if u.side != o.side:
            rep.add(f"unit {u.id}: side {u.side!r}, but {o.id} is {o.side!r}", "units", i, "side")
        arrival = 0 if u.hex is not None else (u.arrives or 1)
        until = u.status.get("independent_until")
        actual[o.id][(u.type, arrival, until if isinstance(until, int) else None)] += 1
        # Independence (10.3): the units of an independent group, and a unit independent until a later turn.
        want_indep = o.independent or isinstance(until, int)
        if bool(u.status.get("independent")) != want_indep:
            rep.add(
                f"unit {u.id}: status.independent = {u.status.get('independent')!r} (expected {want_indep}: {o.id} "
                f"is {'independent' if want_indep else 'not independent'}, rule 10.3)",
                "units",
                i,
                "status",
            )
        if key != u.formation and o.independent:
            allowed = set(o.assign_to)
            if o.assign_to_any:
                allowed |= {fid for fid, f in forms.items() if f.get("side") == o.side and f.get("chit") is True}
            if u.formation not in allowed:
                rep.add(
                    f"unit {u.id} of {o.id} is assigned to {u.formation!r} "
                    f"(expected one of {', '.join(sorted(allowed))})",
                    "units",
                    i,
                    "formation",
                )
        if u.formation is not None and u.formation not in forms:
            rep.add(f"unit {u.id}: formation {u.formation!r} is not in [[formations]]", "units", i, "formation")
        if arrival and o.entry and sorted(hex_label(h) for h in u.entry) != sorted(o.entry):
            rep.add(
                f"unit {u.id}: entry = {_labels(u.entry)!r} (expected {' '.join(o.entry)!r}, rule 12.2)", "units", i
            )
        full = tables.units[u.type].steps
        if u.steps is not None and u.steps < full:
            lost[o.id] += full - u.steps
    for fid, o in oob.items():
        want: Counter[tuple[str, int, int | None]] = Counter()
        if o.hq:
            want["hq_de" if o.side == "german" else "hq_fr", o.hq_arrives or o.arrives, None] += 1
        for g in o.units:
            want[g.type, g.arrives if g.arrives is not None else o.arrives, g.independent_until] += g.count
        if actual[fid] != want and not (campaign and not actual[fid] - want):
            missing = want - actual[fid]
            extra = actual[fid] - want
            rep.add(
                f"{fid}: counters differ from data/oob.toml (13.7): missing {_counter_text(missing)}, "
                f"extra {_counter_text(extra)} (type, arrival turn or 0 = setup, independent until)",
                "units",
            )
        if lost[fid] != o.setup_step_losses and not campaign:
            rep.add(
                f"{fid}: {lost[fid]} steps lost at setup (expected {o.setup_step_losses}, rule 12.1 / oob.toml)",
                "units",
            )
    # 12.1: the setup losses are also named in [special] setup_losses.
    losses = _table(_table(scenario.raw, "special"), "setup_losses")
    want_losses = {o.id: o.setup_step_losses for o in oob.values() if o.setup_step_losses}
    have_losses = {str(losses.get("formation")): losses.get("steps")} if losses else {}
    if have_losses != want_losses:
        rep.add(f"setup_losses = {dict(losses)!r} (expected {want_losses}, rule 12.1)", "special", "setup_losses")


def _counter_text(c: Counter[tuple[str, int, int | None]]) -> str:
    if not c:
        return "none"
    return ", ".join(
        f"{n} × {t}@{a}" + (f" (independent until {u})" if u else "") for (t, a, u), n in sorted(c.items())
    )


def _expected_salvos(tables: Tables, sc: str, side: str, kind: str) -> list[str] | None:
    per_side = tables.artillery.salvos.get(sc, {}).get(side)
    if per_side is None:
        return None
    if kind == "artillery":
        return sorted(cal for cal, n in per_side.artillery.items() for _ in range(n))
    if kind == _STUKA:
        return [_STUKA] * per_side.stuka
    return []


def _compare_chits(scenario: Scenario, tables: Tables, rep: _Report) -> None:
    sc = scenario.id
    chits = tables.chits.get(sc)
    if chits is None:
        rep.add(f"no chits for scenario {sc!r} in data/chits.toml", "chits")
        return
    sides = scenario.side_ids()
    for i, c in _array(scenario.raw, "chits"):
        kind, side, count, turn = c.get("kind"), c.get("side"), c.get("count", 1), c.get("turn", 1)
        if kind not in CHIT_KINDS:
            rep.add(f"unknown chit kind {kind!r} (expected one of {', '.join(CHIT_KINDS)})", "chits", i, "kind")
            continue
        if side not in sides:
            rep.add(f"chit side must be one of {', '.join(sides)}, got {side!r}", "chits", i, "side")
            continue
        if not isinstance(count, int) or count < 1 or not isinstance(turn, int) or turn < 1:
            rep.add(f"expected count >= 1 and turn >= 1, got count = {count!r}, turn = {turn!r}", "chits", i)
        want = _expected_salvos(tables, sc, str(side), str(kind))
        have = c.get("salvos")
        if kind in ("artillery", _STUKA):
            if want is not None and sorted(_strs(have)) != want:
                rep.add(
                    f"{side} {kind} salvos = {have!r} (expected {want}, artillery.toml / 8.6)", "chits", i, "salvos"
                )
        elif have is not None:
            rep.add(f"a {kind} chit has no salvos (expected no salvos key)", "chits", i, "salvos")
    for side in sides:
        if side not in chits.sides:
            continue
        for what in ("formation", *CHIT_KINDS):
            for turn in range(1, scenario.turns + 1):
                want_set = chits.in_play(side, turn)
                have_set = chits_in_play(scenario, side, turn)
                if what == "formation":
                    w_f, h_f = sorted(want_set.formations), sorted(have_set.formations)
                    if w_f != h_f:
                        rep.add(
                            f"{side} formation chits in turn {turn}: {h_f} (expected {w_f}, chits.toml)", "formations"
                        )
                        break
                elif want_set.count(what) != have_set.count(what):
                    rep.add(
                        f"{side} {what} chits in turn {turn}: {have_set.count(what)} "
                        f"(expected {want_set.count(what)}, chits.toml)",
                        "chits",
                    )
                    break
    # 2.8: the Hannut turn-1 kept chits.
    kept = _table(_table(scenario.raw, "special"), "turn1_kept_chits")
    want_kept: dict[str, Any] = {}
    if chits.turn_1_side is not None:
        want_kept = {"side": chits.turn_1_side, **chits.turn_1_kept_out}
    if dict(kept) != want_kept:
        rep.add(f"turn1_kept_chits = {dict(kept)!r} (expected {want_kept or 'none'}, rule 2.8)", "special")


def _schedule_key(entry: Mapping[str, Any]) -> tuple[Any, ...]:
    add = entry.get("add", {})
    return (
        entry.get("turn"),
        entry.get("when"),
        entry.get("side"),
        tuple(sorted(_strs(entry.get("add_formations")))),
        tuple(sorted(_strs(entry.get("remove_formations")))),
        tuple(sorted(add.items())) if isinstance(add, Mapping) else (),
    )


def _compare_schedule(scenario: Scenario, tables: Tables, rep: _Report) -> None:
    chits = tables.chits.get(scenario.id)
    if chits is None:
        return
    want = Counter(
        (ch.turn, ch.when, ch.side, tuple(sorted(ch.add_formations)), tuple(sorted(ch.remove_formations)),
         tuple(sorted(ch.add.items())))
        for ch in chits.changes
    )  # fmt: skip
    have = Counter(_schedule_key(e) for _, e in _array(scenario.raw, "schedule"))
    for key in sorted(want - have, key=str):
        rep.add(f"missing timed event {_event_text(key)} (chits.toml, rule 12.2)", "schedule")
    for key in sorted(have - want, key=str):
        rep.add(f"timed event {_event_text(key)} is not in chits.toml (rule 12.2)", "schedule")


def _event_text(key: tuple[Any, ...]) -> str:
    turn, when, side, add_f, rem_f, add = key
    parts = [f"turn {turn} {when}, {side}"]
    if add_f:
        parts.append(f"add {', '.join(add_f)}")
    if rem_f:
        parts.append(f"remove {', '.join(rem_f)}")
    if add:
        parts.append(", ".join(f"+{n} {k}" for k, n in add))
    return ": ".join([parts[0], "; ".join(parts[1:])])


def _hexset(value: Any) -> set[str]:
    return {hex_label(h) for h in _labels_to_hexes(value)}


def _compare_victory(scenario: Scenario, tables: Tables, rep: _Report) -> None:
    victory = _table(scenario.raw, "victory")
    holder = _table(scenario.raw, "special").get("initial_holder")
    kind = victory.get("kind")
    if kind == "vp":
        h = tables.hannut_victory
        want = set(h.objectives)
        if _hexset(victory.get("objectives")) != want:
            rep.add(f"objectives differ from victory.toml (13.8): expected {' '.join(sorted(want))}", "victory")
        if "hexes" in victory and _hexset(victory.get("hexes")) != want:
            rep.add(f"hexes must repeat the objectives: expected {' '.join(sorted(want))}", "victory", "hexes")
        if scenario.turns != len(h.windows):
            rep.add(f"turns = {scenario.turns}, but victory.toml has {len(h.windows)} VP windows (12.1)", "turns")
        start = h.start_holder
    elif kind == "hold":
        s = tables.stonne_victory
        if _hexset(victory.get("hexes")) != set(s.hexes):
            rep.add(f"victory hexes differ from victory.toml: expected {' '.join(s.hexes)} (12.2)", "victory", "hexes")
        if victory.get("side") != s.side:
            rep.add(f"victory side = {victory.get('side')!r} (expected {s.side!r}, 12.2)", "victory", "side")
        if victory.get("turn") != s.check_turn or scenario.turns != s.check_turn:
            rep.add(f"victory turn and turns must be {s.check_turn} (12.2)", "victory", "turn")
        start = s.start_holder
    else:
        rep.add(f'victory kind = {kind!r} (expected "vp" or "hold")', "victory", "kind")
        return
    if holder != start:
        rep.add(f"initial_holder = {holder!r} (expected {start!r}, rules 11 and 12)", "special", "initial_holder")
