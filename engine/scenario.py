"""Provides loading and validation of scenario (``.toml``) and map (``.map``) files.

Every problem names the file, the line (or key) and what was expected; all problems are collected and
raised together as one :class:`~engine.errors.ScenarioError`.

The work spent on one file is bounded, whatever the file holds: its size (:data:`MAX_FILE_CHARS`), how deeply
its tables and arrays nest (:data:`MAX_DEPTH`), the hexes of a map (:data:`MAX_MAP_HEXES`, checked before the
terrain grid is read) and the numbers of the generic keys (:data:`MAX_TURNS`, :data:`MAX_STEPS`). A ruleset's own
checks that fail on a file they do not expect are reported as a problem of that file.
"""

from __future__ import annotations

import re
import reprlib
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import replace
from importlib import resources
from itertools import pairwise
from pathlib import Path
from typing import Any, TypeGuard

from .board import EDGE_NAMES, HEXSIDE_FEATURES, LINE_FEATURES, Board, MapData
from .errors import PlanspielError, Problem, ScenarioError
from .hexgrid import Hex, distance, hex_label, offset_to_hex, parse_hex
from .rules import Ruleset, get_ruleset, ruleset_names
from .specs import Scenario, SideSpec, UnitSpec

__all__ = [
    "MAX_DEPTH",
    "MAX_FILE_CHARS",
    "MAX_MAP_HEXES",
    "MAX_STEPS",
    "MAX_TURNS",
    "Scenario",
    "SideSpec",
    "UnitSpec",
    "find_scenario",
    "load_scenario",
    "parse_map",
    "parse_scenario",
    "scenario_ids",
    "validate_path",
]

MAX_FILE_CHARS = 1024 * 1024
"""The largest scenario or map file read, in characters: the largest shipped file (the Stonne scenario) has about
27,000 and a map of :data:`MAX_MAP_HEXES` hexes needs about 30,000."""

MAX_DEPTH = 32
"""How deeply tables and arrays may nest in a scenario or map file: the shipped files nest at most 5 levels."""

MAX_MAP_HEXES = 5000
"""The most hexes a map may have. DESIGN §5 plans for maps of at most a few thousand hexes; the largest shipped
map has 288 (Hannut, 18 x 16) and four geomorphic boards make about 1,500. The work of a map (its board, graph,
paths and lines of sight) grows with its hexes, and a 300 x 300 map took 45 s and 183 MB to load."""

MAX_MAP_SIDE = 999
"""The most columns or rows of a map: hex labels have at most three digits each (``CCCRRR``)."""

MAX_TURNS = 999
"""The most turns of a scenario (the shipped ones last at most 15)."""

MAX_STEPS = 99
"""The most steps of a unit (the shipped units have at most 4)."""

_TOKEN_RE = re.compile(r"^([A-Za-z_.#~^=+*-]+)(\d)$")
_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
_SIZE_RE = re.compile(r"^[ \t]*size[ \t]*=[ \t]*\[[ \t]*(\d{1,12})[ \t]*,[ \t]*(\d{1,12})[ \t]*\]", re.MULTILINE)
"""The ``size = [columns, rows]`` line of a map, read before the rest of the file."""


def _shown(value: Any, limit: int = 60) -> str:
    """``value`` for a problem's message: its repr cut to about ``limit`` characters, a few levels deep (a file's
    value may be huge or nested deeply)."""
    if isinstance(value, str):
        return repr(value) if len(value) <= limit - 2 else repr(value[: limit - 5]) + "..."
    try:
        text = reprlib.repr(value)
    except Exception:  # an integer with more digits than Python writes
        text = f"<a {type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _count(value: Any, low: int, high: int) -> TypeGuard[int]:
    """True if ``value`` is a whole number (not a boolean) from ``low`` to ``high``."""
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


# --- Locating keys in TOML text -----------------------------------------------------------------------


class _Locator:
    """Finds the line of a key path in TOML text (tables, arrays of tables and top-level keys)."""

    _HEADER = re.compile(r"^\s*(\[\[?)([^\]]*)\]\]?\s*(#.*)?$")  # no nested quantifiers: linear in the line
    _KEY = re.compile(r"^\s*(\"[^\"]*\"|'[^']*'|[A-Za-z0-9_-]+)\s*=")

    def __init__(self, text: str) -> None:
        self.lines: dict[tuple[Any, ...], int] = {}
        counts: dict[str, int] = {}
        table: tuple[Any, ...] = ()
        in_multiline = False
        for no, line in enumerate(text.splitlines(), start=1):
            if in_multiline:
                if line.count('"""') % 2 == 1 or line.count("'''") % 2 == 1:
                    in_multiline = False
                continue
            m = self._HEADER.match(line)
            if m and m.group(2).strip():
                name = m.group(2).strip().strip('"')
                if m.group(1) == "[[":
                    counts[name] = counts.get(name, -1) + 1
                    table = (*name.split("."), counts[name])
                else:
                    table = tuple(name.split("."))
                self.lines.setdefault(table, no)
                continue
            k = self._KEY.match(line)
            if k:
                self.lines.setdefault((*table, k.group(1).strip("\"'")), no)
                if line.count('"""') % 2 == 1 or line.count("'''") % 2 == 1:
                    in_multiline = True

    def line(self, *path: Any) -> int | None:
        """The line of ``path`` or of its nearest enclosing key or table."""
        p = tuple(path)
        while p:
            if p in self.lines:
                return self.lines[p]
            p = p[:-1]
        return None

    def where(self, *path: Any) -> str:
        """``line N, key`` for a problem report."""
        key = ""
        for part in path:
            key += f"[{part}]" if isinstance(part, int) else (f".{part}" if key else str(part))
        no = self.line(*path)
        if no is None:
            return key
        return f"line {no}, {key}" if key else f"line {no}"


class _Report:
    """Collects problems for one file."""

    def __init__(self, file: str, text: str) -> None:
        self.file = file
        self.loc = _Locator(text)
        self.problems: list[Problem] = []

    def add(self, message: str, *path: Any, line: int | None = None) -> None:
        where = self.loc.where(*path)
        if line is not None:
            key = where.split(", ", 1)[1] if where.startswith("line ") and ", " in where else where
            where = f"line {line}, {key}" if key else f"line {line}"
        self.problems.append(Problem(self.file, where, message))


def _load_toml(text: str, report: _Report) -> dict[str, Any] | None:
    """The file's TOML, or None (reported) if it is too large, not TOML, or nested more than :data:`MAX_DEPTH`
    levels deep."""
    if len(text) > MAX_FILE_CHARS:
        report.problems.append(
            Problem(report.file, "", f"the file has {len(text):,} characters; the limit is {MAX_FILE_CHARS:,}")
        )
        return None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        msg = str(err)
        m = re.search(r"\(at line (\d+), column (\d+)\)", msg)
        where = f"line {m.group(1)}, column {m.group(2)}" if m else ""
        report.problems.append(Problem(report.file, where, f"not valid TOML: {msg.split(' (at', maxsplit=1)[0]}"))
        return None
    except (RecursionError, ValueError) as err:  # arrays or inline tables nested hundreds deep; a huge number
        why = f"arrays or tables nested more than {MAX_DEPTH} levels deep" if isinstance(err, RecursionError) else err
        report.problems.append(Problem(report.file, "", f"not valid TOML: {why}"))
        return None
    deepest = _deepest(data)
    if deepest is not None:
        report.add(f"tables and arrays nested more than {MAX_DEPTH} levels deep", *deepest)
        return None
    return data


def _deepest(data: dict[str, Any]) -> tuple[Any, ...] | None:
    """The key path of a value nested more than :data:`MAX_DEPTH` levels deep in ``data``, or None; one pass
    without recursion."""
    stack: list[tuple[Any, tuple[Any, ...]]] = [(data, ())]
    while stack:
        value, path = stack.pop()
        if len(path) >= MAX_DEPTH:
            return path[:3]
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, child in items:
            if isinstance(child, (dict, list)):
                stack.append((child, (*path, key)))
    return None


def _labels(value: Any) -> list[str] | None:
    """A hex list given as "0101 0102" (spaces, commas or dashes) or as a TOML list of labels."""
    if isinstance(value, str):
        return [t for t in re.split(r"[\s,–—]+|(?<=\d)-(?=\d)", value) if t]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    return None


def _hexes(value: Any, report: _Report, on_map: Callable[[Hex], bool] | None, *path: Any) -> tuple[Hex, ...]:
    labels = _labels(value)
    if labels is None:
        report.add(f'expected hex labels like "0706 0707", got {_shown(value)}', *path)
        return ()
    out: list[Hex] = []
    for lab in labels:
        try:
            h = parse_hex(lab)
        except ValueError as err:
            report.add(str(err), *path)
            continue
        if on_map is not None and not on_map(h):
            report.add(f"hex {lab} is off the map", *path)
            continue
        out.append(h)
    return tuple(out)


# --- Maps -----------------------------------------------------------------------------------------------


def parse_map(text: str, file: str = "<map>", codes: Mapping[str, str] | None = None) -> MapData:
    """Parse a map file.

    Args:
        text: the file's text.
        file: its name for messages.
        codes: terrain code → class; when given, unknown codes are reported.

    Raises:
        ScenarioError: with every problem found.
    """
    report = _Report(file, text)
    data = None if _map_too_large(text, report) else _load_toml(text, report)
    if data is None:
        raise ScenarioError(report.problems)
    result = _parse_map_data(data, text, file, report, codes)
    if report.problems or result is None:
        raise ScenarioError(report.problems)
    return result


def _parse_map_data(
    data: dict[str, Any], text: str, file: str, report: _Report, codes: Mapping[str, str] | None
) -> MapData | None:
    known = {"id", "title", "size", "north", "terrain", "edges", "places", *HEXSIDE_FEATURES, *LINE_FEATURES}
    for key in data:
        if key not in known:
            report.add(f"unknown key {_shown(key)} (expected one of {', '.join(sorted(known))})", key)
    map_id = data.get("id")
    if not isinstance(map_id, str) or not _ID_RE.match(map_id):
        report.add('expected id = "name" (letters, digits, - or _)', "id")
        map_id = Path(file).stem
    size = data.get("size")
    if not (isinstance(size, list) and len(size) == 2 and all(_count(v, 1, MAX_MAP_SIDE) for v in size)):
        report.add(
            f"expected size = [columns, rows] with two whole numbers from 1 to {MAX_MAP_SIDE}, got {_shown(size)}",
            "size",
        )
        return None
    cols, rows = size
    if cols * rows > MAX_MAP_HEXES:
        report.add(_too_large(cols, rows), "size")
        return None
    north = data.get("north", "top")
    if north not in EDGE_NAMES:
        report.add(f"north must be one of {', '.join(EDGE_NAMES)}, got {_shown(north)}", "north")
        north = "top"
    terrain = _parse_terrain(data.get("terrain"), text, report, cols, rows, codes)

    def on_map(h: Hex) -> bool:
        return h in terrain

    hexsides = _parse_hexsides(data, report, on_map)
    lines = _parse_line_features(data, report, on_map)
    places = _parse_places(data.get("places", {}), report, on_map)
    edges = _parse_edges(data.get("edges", {}), report)
    title = data.get("title", map_id)
    return MapData(
        id=map_id,
        title=str(title),
        cols=cols,
        rows=rows,
        terrain=terrain,
        north=north,
        hexsides=hexsides,
        lines=lines,
        places=places,
        edges=edges,
        path=file,
        text=text,
    )


def _too_large(cols: int, rows: int) -> str:
    return (
        f"the map is {cols} x {rows} = {cols * rows:,} hexes; a map may have at most {MAX_MAP_HEXES:,} hexes "
        "(real maps have a few thousand at most)"
    )


def _map_too_large(text: str, report: _Report) -> bool:
    """True (reported) if the map's ``size`` line asks for more hexes than a map may have: checked on the text,
    before the file is parsed, so that a huge map costs nothing."""
    m = _SIZE_RE.search(text)
    if m is None:
        return False
    cols, rows = int(m.group(1)), int(m.group(2))
    if cols * rows <= MAX_MAP_HEXES and max(cols, rows) <= MAX_MAP_SIDE:
        return False
    line = text.count("\n", 0, m.start()) + 1
    report.problems.append(Problem(report.file, f"line {line}, size", _too_large(cols, rows)))
    return True


def _parse_terrain(
    grid: Any, text: str, report: _Report, cols: int, rows: int, codes: Mapping[str, str] | None
) -> dict[Hex, tuple[str, int]]:
    """The ``terrain`` grid: one line per map row, one token (terrain code and level digit) per hex."""
    terrain: dict[Hex, tuple[str, int]] = {}
    if not isinstance(grid, str):
        report.add('expected terrain = """ ... """ with one line per map row', "terrain")
        return terrain
    first = (report.loc.line("terrain") or 0) + 1
    opening = text.splitlines()[first - 2] if first >= 2 else ""
    if re.search(r"(\"\"\"|''')\s*\S", opening):  # the first row follows the opening quotes
        first -= 1
    grid_lines = grid.splitlines()
    if len(grid_lines) != rows:
        report.add(f"terrain has {len(grid_lines)} rows, size says {rows}", "terrain")
    wide = cols > 99 or rows > 99
    for ri, line in enumerate(grid_lines):
        tokens = line.split()
        row = ri + 1
        if len(tokens) != cols:
            report.add(f"row {row:02d} has {len(tokens)} hexes, size says {cols}", "terrain", line=first + ri)
        for ci, tok in enumerate(tokens[:cols]):
            h = offset_to_hex(ci + 1, row)
            cell = _terrain_cell(tok, hex_label(h, wide=wide), codes, report, first + ri)
            if cell is not None and row <= rows:
                terrain[h] = cell
    return terrain


def _terrain_cell(
    tok: str, label: str, codes: Mapping[str, str] | None, report: _Report, line: int
) -> tuple[str, int] | None:
    """One token of the terrain grid as (code, level); None (reported) if it is not a code and a level digit."""
    m = _TOKEN_RE.match(tok)
    if not m:
        report.add(
            f"hex {label}: token {_shown(tok)} is not a terrain code followed by a level digit (e.g. V1)",
            "terrain",
            line=line,
        )
        return None
    code, level = m.group(1), int(m.group(2))
    if codes is not None and code not in codes:
        report.add(
            f"hex {label}: unknown terrain code {_shown(code)} (the ruleset knows {', '.join(sorted(codes))})",
            "terrain",
            line=line,
        )
    return code, level


def _parse_hexsides(
    data: dict[str, Any], report: _Report, on_map: Callable[[Hex], bool]
) -> dict[str, tuple[tuple[Hex, Hex], ...]]:
    """The hexside features (streams, rivers, walls): lists of adjacent hex pairs."""
    hexsides: dict[str, tuple[tuple[Hex, Hex], ...]] = {}
    for feature in HEXSIDE_FEATURES:
        raw = data.get(feature, [])
        if not isinstance(raw, list):
            report.add(f'expected {feature} = ["0304-0305", ...] (hex pairs)', feature)
            continue
        pairs: list[tuple[Hex, Hex]] = []
        for i, item in enumerate(raw):
            hs = _hexes(item, report, on_map, feature)
            if len(hs) != 2 or distance(hs[0], hs[1]) != 1:
                report.add(f"{feature} entry {i + 1}: expected two adjacent hexes, got {_shown(item)}", feature)
                continue
            pairs.append((hs[0], hs[1]))
        hexsides[feature] = tuple(pairs)
    return hexsides


def _parse_line_features(
    data: dict[str, Any], report: _Report, on_map: Callable[[Hex], bool]
) -> dict[str, tuple[tuple[str, tuple[Hex, ...]], ...]]:
    """The linear features through hexes (roads, rails): named paths of adjacent hexes."""
    lines: dict[str, tuple[tuple[str, tuple[Hex, ...]], ...]] = {}
    for feature in LINE_FEATURES:
        raw = data.get(feature, [])
        if not isinstance(raw, list):
            report.add(f"expected [[{feature}]] tables with name and path", feature)
            continue
        paths: list[tuple[str, tuple[Hex, ...]]] = []
        for i, item in enumerate(raw):
            if not isinstance(item, dict) or "path" not in item:
                report.add('expected a table with name = "..." and path = "0101 0102 ..."', feature, i)
                continue
            name = str(item.get("name", f"{feature[:-1]} {i + 1}"))
            path = _hexes(item["path"], report, on_map, feature, i, "path")
            for a, b in pairwise(path):
                if distance(a, b) != 1:
                    report.add(f"{feature[:-1]} {name}: {a} and {b} are not adjacent", feature, i, "path")
            paths.append((name, path))
        lines[feature] = tuple(paths)
    return lines


def _parse_places(raw: Any, report: _Report, on_map: Callable[[Hex], bool]) -> dict[str, tuple[Hex, ...]]:
    """The ``[places]`` table: name → hexes."""
    if not isinstance(raw, dict):
        report.add('expected a [places] table of name = "hexes"', "places")
        return {}
    return {name: _hexes(value, report, on_map, "places", name) for name, value in raw.items()}


def _parse_edges(raw: Any, report: _Report) -> dict[str, str]:
    """The ``[edges]`` table: side → map edge."""
    if not isinstance(raw, dict):
        report.add('expected an [edges] table of side = "left"', "edges")
        return {}
    edges: dict[str, str] = {}
    for side, edge in raw.items():
        if edge not in EDGE_NAMES:
            report.add(f"edge of {side} must be one of {', '.join(EDGE_NAMES)}, got {_shown(edge)}", "edges", side)
        else:
            edges[side] = edge
    return edges


# --- Scenarios ------------------------------------------------------------------------------------------


_SCENARIO_KEYS = {
    "ruleset", "id", "title", "map", "date", "history", "briefing", "turns", "first", "sides", "units",
    "formations", "zones", "markers", "victory", "special", "pools", "reinforcements", "notes", "campaign",
}  # fmt: skip


def parse_scenario(
    text: str,
    file: str = "<scenario>",
    map_text: str | None = None,
    map_file: str | None = None,
    ruleset: Ruleset | None = None,
) -> Scenario:
    """Parse and validate a scenario.

    Args:
        text: the scenario's TOML text.
        file: its name for messages (and the folder its ``map`` key is relative to).
        map_text: the map's text; when None, the map named by the ``map`` key is read from disk.
        map_file: the map's name for messages.
        ruleset: the ruleset to check against; when None, the one the scenario names is looked up.

    Raises:
        ScenarioError: with every problem found in the scenario and its map.
    """
    report = _Report(file, text)
    data = _load_toml(text, report)
    if data is None:
        raise ScenarioError(report.problems)
    ruleset = _scenario_ruleset(data, ruleset, report)
    known_keys = _SCENARIO_KEYS | ruleset.scenario_keys
    for key in data:  # after the lookup, so that the keys the ruleset declares are known
        if key not in known_keys:
            report.add(f"unknown key {_shown(key)} (expected one of {', '.join(sorted(known_keys))})", key)
    sc_id = data.get("id", Path(file).stem)
    if not isinstance(sc_id, str) or not _ID_RE.match(sc_id):
        report.add('expected id = "name" (letters, digits, - or _)', "id")
        sc_id = Path(file).stem
    map_data = _scenario_map(data, file, map_text, map_file, ruleset, report)
    sides = _parse_sides(data.get("sides"), report)
    turns, first, title = _scenario_turns_first_title(data, sides, sc_id, report)
    units = _parse_units(data.get("units", []), report, ruleset, {s.id for s in sides}, map_data)
    units = _campaign_units(data.get("campaign"), units, report)
    if map_data is None and not report.problems:
        report.add("no map", "map")
    if report.problems or map_data is None:
        raise ScenarioError(report.problems)
    scenario = Scenario(
        id=sc_id,
        ruleset=ruleset.id,
        title=title,
        map=map_data,
        sides=tuple(sides),
        units=tuple(units),
        turns=turns,
        first=str(first),
        raw=data,
        path=file,
        text=text,
    )
    # Objectives must be reachable, and the ruleset checks its own keys.
    try:
        _check_objectives(scenario, ruleset, report)
        own = ruleset.validate_scenario(scenario)
    except Exception as err:  # a ruleset's checks meeting values they do not expect: the file's problem
        try:
            why = f"{type(err).__name__}: {err}" if str(err) else type(err).__name__
        except Exception:  # a message made from a value that cannot be shown
            why = type(err).__name__
        why = why if len(why) <= 200 else why[:197] + "..."
        own = [Problem(file, "", f"the {ruleset.id} rules cannot check this scenario ({why})")]
    for problem in own:
        report.problems.append(problem if problem.where else Problem(file, "", problem.message))
    if report.problems:
        raise ScenarioError(report.problems)
    return scenario


def _campaign_units(raw: Any, units: list[UnitSpec], report: _Report) -> list[UnitSpec]:
    """The units as a campaign sets them up: the table ``[campaign]`` that :mod:`engine.campaign` appends to a
    battle's scenario text (``absent`` = ids of units lost in earlier battles, ``steps`` = id → steps left), so
    that a battle's save, which keeps the scenario's text, sets up the same carried force when it is loaded."""
    if raw is None:
        return units
    if not isinstance(raw, dict):
        report.add("expected a table [campaign] with absent = [...] and steps = {...}", "campaign")
        return units
    for key in raw:
        if key not in ("id", "absent", "steps"):
            report.add(f"unknown key {_shown(key)} (expected one of absent, id, steps)", "campaign", key)
    ids = {u.id for u in units}
    absent = raw.get("absent", [])
    steps = raw.get("steps", {})
    if not (isinstance(absent, list) and all(isinstance(a, str) for a in absent)):
        report.add("expected absent = [unit ids]", "campaign", "absent")
        absent = []
    if not isinstance(steps, dict):
        report.add("expected steps = { unit-id = steps }", "campaign", "steps")
        steps = {}
    for uid in [*absent, *steps]:
        if uid not in ids:
            report.add(f"no unit {_shown(uid)} in this scenario", "campaign")
    for uid, n in steps.items():
        if not _count(n, 1, MAX_STEPS):
            report.add(f"{uid}: steps must be a whole number from 1 to {MAX_STEPS}, got {_shown(n)}", "campaign")
    out: list[UnitSpec] = []
    for u in units:
        if u.id in absent:
            continue
        n = steps.get(u.id)
        out.append(replace(u, steps=n) if _count(n, 1, MAX_STEPS) else u)
    return out


def _scenario_ruleset(data: dict[str, Any], ruleset: Ruleset | None, report: _Report) -> Ruleset:
    """The ruleset to check against: the one given, or the one the scenario names (ScenarioError if none)."""
    rs_id = data.get("ruleset")
    if ruleset is not None:
        if rs_id is not None and rs_id != ruleset.id:
            report.add(f"scenario is for ruleset {_shown(rs_id)}, not {_shown(ruleset.id)}", "ruleset")
        return ruleset
    if not isinstance(rs_id, str):
        report.add('expected ruleset = "<ruleset id>"', "ruleset")
        raise ScenarioError(report.problems)
    try:
        return get_ruleset(rs_id)
    except LookupError as err:
        report.add(str(err).strip("'\""), "ruleset")
        raise ScenarioError(report.problems) from None


def _scenario_map(
    data: dict[str, Any],
    file: str,
    map_text: str | None,
    map_file: str | None,
    ruleset: Ruleset,
    report: _Report,
) -> MapData | None:
    """The scenario's map: ``map_text``, or the file its ``map`` key names beside it; None if it has problems.

    The map's problems are added to ``report`` (they name the map file).
    """
    map_name = data.get("map")
    if map_text is None:
        if not isinstance(map_name, str):
            report.add('expected map = "<name>.map" (a map file beside the scenario)', "map")
            return None
        map_path = Path(file).parent / map_name
        map_file = str(map_path)
        try:
            map_text = map_path.read_text(encoding="utf-8")
        except FileNotFoundError:
            report.add(f"map file {_shown(map_name)} not found (looked for {map_path})", "map")
            return None
        except (OSError, UnicodeDecodeError) as err:
            report.add(f"map file {_shown(map_name)} cannot be read: {err}", "map")
            return None
    map_report = _Report(map_file or str(map_name or "<map>"), map_text)
    raw_map = None if _map_too_large(map_text, map_report) else _load_toml(map_text, map_report)
    map_data = None
    if raw_map is not None:
        map_data = _parse_map_data(raw_map, map_text, map_report.file, map_report, ruleset.terrain_codes)
    report.problems.extend(map_report.problems)
    return map_data


def _parse_sides(raw_sides: Any, report: _Report) -> list[SideSpec]:
    """The ``[[sides]]`` tables."""
    sides: list[SideSpec] = []
    if not isinstance(raw_sides, list) or not raw_sides:
        report.add("expected [[sides]] tables with id and name", "sides")
        return sides
    for i, s in enumerate(raw_sides):
        if not isinstance(s, dict) or not isinstance(s.get("id"), str):
            report.add('expected id = "side" in each [[sides]]', "sides", i)
            continue
        if s["id"] in {x.id for x in sides}:
            report.add(f"duplicate side id {_shown(s['id'])}", "sides", i, "id")
        sides.append(SideSpec(s["id"], str(s.get("name", s["id"].title()))))
    return sides


def _scenario_turns_first_title(
    data: dict[str, Any], sides: list[SideSpec], sc_id: str, report: _Report
) -> tuple[int, Any, str]:
    """The number of turns, the side that moves first and the title (defaults where they are missing or bad)."""
    side_ids = {s.id for s in sides}
    turns = data.get("turns")
    if not _count(turns, 1, MAX_TURNS):
        report.add(f"expected turns = <number of turns, from 1 to {MAX_TURNS}>, got {_shown(turns)}", "turns")
        turns = 1
    first = data.get("first", sides[0].id if sides else "")
    if sides and not (isinstance(first, str) and first in side_ids):
        report.add(f"first must name a side ({', '.join(sorted(side_ids))}), got {_shown(first)}", "first")
    title = data.get("title")
    if not isinstance(title, str) or not title:
        report.add('expected title = "..."', "title")
        title = sc_id
    return turns, first, title


def _parse_units(
    raw_units: Any, report: _Report, ruleset: Ruleset, side_ids: set[str], map_data: MapData | None
) -> list[UnitSpec]:
    """The ``[[units]]`` tables; a unit with a problem is reported and left out."""
    if not isinstance(raw_units, list):
        report.add("expected [[units]] tables", "units")
        raw_units = []
    on_map: Callable[[Hex], bool] = (lambda h: h in map_data.terrain) if map_data else (lambda h: True)
    units: list[UnitSpec] = []
    seen: dict[str, int] = {}
    for i, u in enumerate(raw_units):
        spec = _parse_unit(u, i, report, ruleset, side_ids, on_map, seen)
        if spec is None:
            continue
        if spec.hex is not None and map_data is not None and spec.hex in map_data.terrain:
            _check_standing(spec, map_data.terrain[spec.hex][0], u["hex"], i, ruleset, report)
        units.append(spec)
    return units


def _parse_unit(
    u: Any,
    i: int,
    report: _Report,
    ruleset: Ruleset,
    side_ids: set[str],
    on_map: Callable[[Hex], bool],
    seen: dict[str, int],
) -> UnitSpec | None:
    """The ``i``-th ``[[units]]`` table, or None if its id, type, side or hex is wrong; every problem of the table
    is reported, not only the first.

    ``seen`` maps the unit ids read so far to their index; this unit's id is added to it.
    """
    if not isinstance(u, dict):
        report.add("expected a table", "units", i)
        return None
    uid = _unit_id(u, i, report, seen)
    name = uid or f"units[{i}]"
    utype = u.get("type")
    unit_types = ruleset.unit_types
    bad = uid is None
    if not isinstance(utype, str) or utype not in unit_types:
        shown = ", ".join(sorted(unit_types)[:12]) + (" ..." if len(unit_types) > 12 else "")
        report.add(f"unit {name}: unknown unit type {_shown(utype)} (expected one of {shown})", "units", i, "type")
        bad = True
    side = u.get("side")
    if not (isinstance(side, str) and side in side_ids):
        report.add(
            f"unit {name}: side must be one of {', '.join(sorted(side_ids))}, got {_shown(side)}", "units", i, "side"
        )
        bad = True
    h: Hex | None = None
    if "hex" in u:
        before = len(report.problems)
        hs = _hexes(u["hex"], report, on_map, "units", i, "hex")
        if len(hs) == 1:
            h = hs[0]
        else:
            if len(report.problems) == before:  # not already reported as off the map or malformed
                report.add(f"unit {name}: expected one hex, got {_shown(u['hex'])}", "units", i, "hex")
            bad = True
    arrives = u.get("arrives")
    if arrives is not None and not _count(arrives, 1, MAX_TURNS):
        report.add(
            f"unit {name}: arrives must be a turn number from 1 to {MAX_TURNS}, got {_shown(arrives)}",
            "units",
            i,
            "arrives",
        )
        arrives = None
    entry = _hexes(u.get("entry", ""), report, on_map, "units", i, "entry") if "entry" in u else ()
    if "hex" not in u and arrives is None:
        report.add(f'unit {name}: expected hex = "CCRR" or arrives = <turn>', "units", i)
    steps, status = _unit_steps_and_status(u, name, i, report)
    if bad or uid is None or not isinstance(utype, str) or not isinstance(side, str):
        return None
    formation = u.get("formation")
    return UnitSpec(
        uid, utype, side, h, formation if isinstance(formation, str) else None, steps, status, arrives, entry
    )


def _unit_id(u: dict[str, Any], i: int, report: _Report, seen: dict[str, int]) -> str | None:
    """The unit's id, or None (reported) if it is malformed or already used; a good id is added to ``seen``."""
    uid = u.get("id")
    if not isinstance(uid, str) or not _ID_RE.match(uid):
        report.add(f'expected id = "side-unit" (letters, digits, - or _), got {_shown(uid)}', "units", i, "id")
        return None
    if uid in seen:
        first_use = f"units[{seen[uid]}], line {report.loc.line('units', seen[uid], 'id')}"
        report.add(f"duplicate unit id {_shown(uid)} (first used in {first_use})", "units", i, "id")
        return None
    seen[uid] = i
    return uid


def _unit_steps_and_status(u: dict[str, Any], uid: str, i: int, report: _Report) -> tuple[int | None, dict[str, Any]]:
    """The unit's ``steps`` (None: full strength, or reported as bad) and ``status`` table (empty if bad)."""
    steps = u.get("steps")
    if steps is not None and not _count(steps, 1, MAX_STEPS):
        report.add(
            f"unit {uid}: steps must be a whole number from 1 to {MAX_STEPS}, got {_shown(steps)}", "units", i, "steps"
        )
        steps = None
    status = u.get("status", {})
    if not isinstance(status, dict):
        report.add(f"unit {uid}: status must be a table", "units", i, "status")
        status = {}
    return steps, status


def _check_standing(spec: UnitSpec, code: str, where: Any, i: int, ruleset: Ruleset, report: _Report) -> None:
    """Report a unit set up on terrain (``code``) its type may not stand in; ``where`` is its ``hex`` value."""
    terrain_class = ruleset.terrain_codes.get(code)
    if terrain_class is not None and not ruleset.can_stand(spec.type, terrain_class):
        report.add(
            f"unit {spec.id} ({spec.type}) stands on impassable terrain ({terrain_class}) at {where}",
            "units",
            i,
            "hex",
        )


def _check_objectives(scenario: Scenario, ruleset: Ruleset, report: _Report) -> None:
    """Every hex named in ``victory.hexes`` or ``victory.places`` exists and some unit can reach it."""
    victory = scenario.raw.get("victory", {})
    if not isinstance(victory, dict):
        return
    targets: list[tuple[str, str, Hex]] = []  # (key, what, hex)
    names = victory.get("places", [])
    if not (isinstance(names, list) and all(isinstance(n, str) for n in names)):
        report.add(f'expected places = ["place name", ...], got {_shown(names)}', "victory", "places")
        names = []
    for name in names:
        if name not in scenario.map.places:
            report.add(f"victory place {_shown(name)} is not a place on the map", "victory", "places")
        else:
            targets.extend(("places", f"{name} at ", h) for h in scenario.map.places[name])
    if "hexes" in victory:
        for h in _hexes(victory["hexes"], report, lambda x: x in scenario.map.terrain, "victory", "hexes"):
            targets.append(("hexes", "", h))
    if not targets or not scenario.units:
        return
    board = Board(scenario.map, ruleset.terrain_codes)
    for key, what, h in targets:
        if not any(u.hex is not None and ruleset.can_reach(board, u.type, u.hex, h) for u in scenario.units):
            report.add(f"objective {what}{board.label(h)} cannot be reached by any unit", "victory", key)


# --- Finding and loading --------------------------------------------------------------------------------


def _scenario_dir(ruleset_id: str) -> Path | None:
    root = resources.files("scenarios")
    d = root / ruleset_id
    if d.is_dir():
        return Path(str(d))
    return None


def scenario_ids(ruleset_id: str) -> list[str]:
    """Ids of the scenarios shipped for a ruleset, sorted."""
    dirs = [d for d in (_scenario_dir(ruleset_id), *get_ruleset(ruleset_id).scenario_dirs()) if d is not None]
    return sorted({p.stem for d in dirs for p in d.glob("*.toml")})


def find_scenario(ruleset_id: str, scenario_id: str) -> Path:
    """The path of a shipped scenario.

    Raises:
        ScenarioError: no such scenario.
    """
    dirs = [d for d in (_scenario_dir(ruleset_id), *get_ruleset(ruleset_id).scenario_dirs()) if d is not None]
    for d in dirs:
        p = d / f"{scenario_id}.toml"
        if p.is_file():
            return p
    known = ", ".join(scenario_ids(ruleset_id)) or "none"
    raise ScenarioError(
        [Problem(f"{ruleset_id}/{scenario_id}", "", f"no such scenario for {ruleset_id} (known: {known})")]
    )


def load_scenario(ruleset_or_path: str | Path, scenario_id: str | None = None) -> Scenario:
    """Load a scenario: ``load_scenario("blitzkrieg1940", "hannut")`` or ``load_scenario(path)``.

    Raises:
        ScenarioError: the file is missing or broken (every problem listed).
        UnknownRulesetError: the ruleset is not installed.
    """
    path = find_scenario(str(ruleset_or_path), scenario_id) if scenario_id is not None else Path(ruleset_or_path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ScenarioError([Problem(str(path), "", "file not found")]) from None
    except (OSError, UnicodeDecodeError) as err:
        raise ScenarioError([Problem(str(path), "", f"cannot be read: {err}")]) from None
    return parse_scenario(text, str(path))


def _codes_for_map(path: Path) -> Mapping[str, str] | None:
    """The terrain codes of the ruleset whose scenario folder (``scenarios/<ruleset>/``, or a folder named after
    the ruleset) holds a map file, so that its codes are checked; None where no ruleset can be told."""
    folder = path.resolve().parent.name
    if folder not in ruleset_names():
        return None
    try:
        return get_ruleset(folder).terrain_codes
    except (LookupError, PlanspielError):
        return None


def read_checked(path: Path) -> str | list[Problem]:
    """The text of a file to check, or the problem that stops reading it (not found, unreadable, not UTF-8)."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return [Problem(str(path), "", "file not found")]
    except (OSError, UnicodeDecodeError) as err:
        return [Problem(str(path), "", f"cannot be read: {err}")]


def validate_path(target: str) -> list[Problem]:
    """Check a scenario or map file (a path, or ``RULESET/ID``); the problems found (empty if none).

    A ``.map`` file is checked on its own (syntax, grid, features); a scenario is checked with its map
    against its ruleset.
    """
    path = Path(target)
    if not path.exists() and target.count("/") == 1 and not target.endswith((".toml", ".map")):
        rs_id, _, sc_id = target.partition("/")
        try:
            get_ruleset(rs_id)
            path = find_scenario(rs_id, sc_id)
        except ScenarioError as err:
            return err.problems
        except LookupError as err:
            return [Problem(target, "", f"no such file, and {str(err).strip(chr(39) + chr(34))}")]
    text = read_checked(path)
    if isinstance(text, list):
        return text
    try:
        if path.suffix == ".map":
            parse_map(text, str(path), _codes_for_map(path))
        else:
            parse_scenario(text, str(path))
    except ScenarioError as err:
        return err.problems
    return []
