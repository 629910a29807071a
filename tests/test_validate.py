"""Tests scenario and map validation: one broken copy of the minirules duel per kind of problem, and the CLI."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

import engine
from engine.errors import Problem, ScenarioError
from engine.hexgrid import hex_label, neighbours, parse_hex
from tui.cli import main

ROOT = Path(__file__).resolve().parents[1]
DUEL = ROOT / "tests" / "minirules" / "scenarios"
BLITZ_MAPS = sorted((ROOT / "scenarios" / "blitzkrieg1940").glob("*.map"))


# --- Helpers --------------------------------------------------------------------------------------------


def _edit(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times"
    return text.replace(old, new)


def write_duel(
    tmp_path: Path,
    scenario: Sequence[tuple[str, str]] = (),
    map_: Sequence[tuple[str, str]] = (),
    map_suffix: str = "",
) -> Path:
    """A copy of the duel scenario and map in tmp_path, with each (old, new) replaced once; the scenario's path."""
    sc_text = (DUEL / "duel.toml").read_text(encoding="utf-8")
    map_text = (DUEL / "duel.map").read_text(encoding="utf-8")
    for old, new in scenario:
        sc_text = _edit(sc_text, old, new)
    for old, new in map_:
        map_text = _edit(map_text, old, new)
    (tmp_path / "duel.toml").write_text(sc_text, encoding="utf-8")
    (tmp_path / "duel.map").write_text(map_text + map_suffix, encoding="utf-8")
    return tmp_path / "duel.toml"


def lines_of(path: Path, text: str) -> list[int]:
    """The 1-based numbers of the lines of ``path`` that contain ``text``."""
    return [no for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if text in line]


def line_of(path: Path, text: str) -> int:
    """The number of the one line of ``path`` containing ``text``."""
    found = lines_of(path, text)
    assert len(found) == 1, f"{text!r} on lines {found}"
    return found[0]


def problems_of(path: Path) -> list[Problem]:
    """The problems of a broken scenario; loading and validate_path must agree."""
    with pytest.raises(ScenarioError) as info:
        engine.load_scenario(path)
    assert engine.validate_path(str(path)) == info.value.problems
    return info.value.problems


def one_problem(path: Path) -> Problem:
    problems = problems_of(path)
    assert len(problems) == 1, problems
    return problems[0]


# --- One test per kind of broken file -------------------------------------------------------------------


def test_the_duel_copy_is_valid(tmp_path: Path) -> None:
    path = write_duel(tmp_path)
    assert engine.validate_path(str(path)) == []
    assert engine.load_scenario(path).id == "duel"


def test_bad_toml_names_file_and_line(tmp_path: Path) -> None:
    path = write_duel(tmp_path, scenario=[("turns = 4", "turns = = 4")])
    p = one_problem(path)
    assert p.file == str(path)
    assert p.where.startswith(f"line {line_of(path, 'turns = = 4')},")
    assert p.message.startswith("not valid TOML")


def test_bad_toml_in_the_map_names_the_map(tmp_path: Path) -> None:
    path = write_duel(tmp_path, map_=[('title = "Duel"', 'title = "Duel')])
    p = one_problem(path)
    assert p.file == str(tmp_path / "duel.map")
    assert p.where.startswith(f"line {line_of(tmp_path / 'duel.map', 'title = ')},")
    assert "not valid TOML" in p.message


def test_unknown_terrain_code(tmp_path: Path) -> None:
    path = write_duel(tmp_path, map_=[("c0 c0 x0 c0 w0 c0 c0 c0", "c0 c0 q0 c0 w0 c0 c0 c0")])
    map_path = tmp_path / "duel.map"
    p = one_problem(path)
    assert p.file == str(map_path)
    assert p.where == f"line {line_of(map_path, 'q0')}, terrain"
    known = ", ".join(sorted(engine.get_ruleset("minirules").terrain_codes))
    assert known == "., c, v, w, x"
    assert p.message == f"hex 0304: unknown terrain code 'q' (the ruleset knows {known})"


def test_unit_on_an_unknown_code_is_reported_once(tmp_path: Path) -> None:
    # The hex with the unknown code is still on the map: no second "off the map" problem for the unit on it.
    path = write_duel(
        tmp_path,
        scenario=[('hex = "0805"', 'hex = "0304"')],
        map_=[("c0 c0 x0 c0 w0 c0 c0 c0", "c0 c0 q0 c0 w0 c0 c0 c0")],
    )
    assert "unknown terrain code 'q'" in one_problem(path).message


def test_grid_starting_on_the_terrain_line(tmp_path: Path) -> None:
    path = write_duel(
        tmp_path,
        map_=[('terrain = """\n', 'terrain = """'), ("c0 c0 x0 c0 w0 c0 c0 c0", "c0 c0 q0 c0 w0 c0 c0 c0")],
    )
    p = one_problem(path)
    assert p.where == f"line {line_of(tmp_path / 'duel.map', 'q0')}, terrain"


def test_hex_off_the_map(tmp_path: Path, duel: engine.Scenario) -> None:
    assert (duel.map.cols, duel.map.rows) == (8, 6)
    path = write_duel(tmp_path, scenario=[('hex = "0805"', 'hex = "0909"')])
    p = one_problem(path)
    assert p.file == str(path)
    assert p.where == f"line {line_of(path, '0909')}, units[4].hex"
    assert p.message == "hex 0909 is off the map"


def test_duplicate_unit_id_names_both_positions(tmp_path: Path) -> None:
    path = write_duel(tmp_path, scenario=[('id = "blue-inf-2"', 'id = "blue-inf-1"')])
    first, second = lines_of(path, 'id = "blue-inf-1"')
    p = one_problem(path)
    assert p.where == f"line {second}, units[4].id"
    assert p.message == f"duplicate unit id 'blue-inf-1' (first used in units[3], line {first})"


def test_unit_on_impassable_terrain(tmp_path: Path, duel: engine.Scenario) -> None:
    rs = engine.get_ruleset("minirules")
    water = parse_hex("0703")
    assert rs.terrain_codes[duel.map.terrain[water][0]] == "water"
    assert not rs.can_stand("inf", "water")
    path = write_duel(tmp_path, scenario=[('hex = "0805"', 'hex = "0703"')])
    p = one_problem(path)
    assert p.where == f"line {line_of(path, '0703')}, units[4].hex"
    assert "blue-inf-2" in p.message
    assert "impassable terrain (water) at 0703" in p.message


def test_unknown_unit_type_lists_the_types(tmp_path: Path) -> None:
    path = write_duel(tmp_path, scenario=[('type = "tank"\nside = "blue"', 'type = "panzer"\nside = "blue"')])
    p = one_problem(path)
    assert p.where == f"line {line_of(path, 'panzer')}, units[5].type"
    assert p.message == "unit blue-tank-1: unknown unit type 'panzer' (expected one of inf, sniper, tank)"


def test_missing_map_file(tmp_path: Path) -> None:
    path = write_duel(tmp_path, scenario=[('map = "duel.map"', 'map = "nowhere.map"')])
    p = one_problem(path)
    assert p.file == str(path)
    assert p.where == f"line {line_of(path, 'nowhere.map')}, map"
    assert "'nowhere.map' not found" in p.message
    assert str(tmp_path / "nowhere.map") in p.message


@pytest.mark.parametrize(
    ("old", "new", "marker", "message"),
    [
        ("c0 c0 w0 c0 c0 c0 c0 c0\n", "", 'terrain = """', "terrain has 5 rows, size says 6"),
        ("c0 c0 x0 c0 w0 c0 c0 c0", "c0 c0 x0 c0 w0 c0 c0", "c0 c0 x0 c0 w0 c0 c0", "row 04 has 7 hexes, size says 8"),
        ("c0 c0 x0 c0 w0 c0 c0 c0", "c0 c0 x0 c0 w0 c0 c0 c0 c0", "c0 c0 x0 c0 w0", "row 04 has 9 hexes, size says 8"),
        ("c0 c0 x0 c0 w0 c0 c0 c0", "c0 c0 xx c0 w0 c0 c0 c0", "xx", "hex 0304: token 'xx' is not a terrain code"),
        ("size = [8, 6]", "size = [8]", "size", "expected size = [columns, rows]"),
    ],
    ids=["rows", "short-row", "long-row", "bad-token", "size"],
)
def test_wrong_grid_size(tmp_path: Path, old: str, new: str, marker: str, message: str) -> None:
    path = write_duel(tmp_path, map_=[(old, new)])
    map_path = tmp_path / "duel.map"
    p = one_problem(path)
    assert p.file == str(map_path)
    assert p.where.startswith(f"line {line_of(map_path, marker)},")
    assert p.message.startswith(message)
    # The map alone shows the same problem.
    assert engine.validate_path(str(map_path)) == [p]


def test_road_with_non_adjacent_hexes(tmp_path: Path) -> None:
    road = '\n[[roads]]\nname = "Main"\npath = "0101 0102 0104"\n'
    path = write_duel(tmp_path, map_suffix=road)
    map_path = tmp_path / "duel.map"
    p = one_problem(path)
    assert p.file == str(map_path)
    assert p.where == f"line {line_of(map_path, '0101 0102 0104')}, roads[0].path"
    assert p.message == "road Main: 0102 and 0104 are not adjacent"


def test_stream_between_non_adjacent_hexes(tmp_path: Path) -> None:
    path = write_duel(tmp_path, map_=[("size = [8, 6]", 'size = [8, 6]\nstreams = ["0101-0102", "0101-0103"]')])
    p = one_problem(path)
    assert p.where == f"line {line_of(tmp_path / 'duel.map', 'streams')}, streams"
    assert p.message == "streams entry 2: expected two adjacent hexes, got '0101-0103'"


@pytest.mark.parametrize(
    ("old", "new", "key", "message"),
    [
        (
            'side = "blue"\nhex = "0704"',
            'side = "green"\nhex = "0704"',
            "units[5].side",
            "unit blue-tank-1: side must be one of blue, red, got 'green'",
        ),
        ('first = "red"', 'first = "green"', "first", "first must name a side (blue, red), got 'green'"),
    ],
    ids=["unit", "first"],
)
def test_unknown_side(tmp_path: Path, old: str, new: str, key: str, message: str) -> None:
    path = write_duel(tmp_path, scenario=[(old, new)])
    p = one_problem(path)
    assert p.where == f"line {line_of(path, 'green')}, {key}"
    assert p.message == message


def test_unknown_ruleset(tmp_path: Path) -> None:
    path = write_duel(tmp_path, scenario=[('ruleset = "minirules"', 'ruleset = "nosuch"')])
    p = one_problem(path)
    assert p.where == f"line {line_of(path, 'nosuch')}, ruleset"
    assert p.message.startswith("unknown ruleset 'nosuch' (known: ")
    assert "minirules" in p.message


def _surround_with_water(map_text: str, centre: str) -> str:
    """The duel map with water on every neighbour of ``centre``."""
    head, grid, tail = map_text.split('"""')
    rows = [line.split() for line in grid.strip("\n").splitlines()]
    for h in neighbours(parse_hex(centre)):
        label = hex_label(h)
        rows[int(label[2:]) - 1][int(label[:2]) - 1] = "x0"
    return head + '"""\n' + "\n".join(" ".join(r) for r in rows) + '\n"""' + tail


@pytest.mark.parametrize(
    ("victory", "key", "message"),
    [
        ('hexes = "0403"', "hexes", "objective 0403 cannot be reached by any unit"),
        ('places = ["Hill"]', "places", "objective Hill at 0403 cannot be reached by any unit"),
    ],
    ids=["hexes", "places"],
)
def test_unreachable_objective(tmp_path: Path, victory: str, key: str, message: str) -> None:
    path = write_duel(tmp_path, scenario=[('hexes = "0403"', victory)])
    map_path = tmp_path / "duel.map"
    map_path.write_text(_surround_with_water(map_path.read_text(encoding="utf-8"), "0403"), encoding="utf-8")
    assert map_path.read_text(encoding="utf-8").count("x0") == 7  # 6 around 0403 (0304 already was) + 0703
    p = one_problem(path)
    assert p.where == f"line {line_of(path, victory)}, victory.{key}"
    assert p.message == message


def test_victory_places_must_be_a_list_of_map_places(tmp_path: Path) -> None:
    path = write_duel(tmp_path, scenario=[('hexes = "0403"', 'places = "Hill"')])
    assert one_problem(path).message == "expected places = [\"place name\", ...], got 'Hill'"
    path = write_duel(tmp_path, scenario=[('hexes = "0403"', 'places = ["Hill", "Nowhere"]')])
    assert one_problem(path).message == "victory place 'Nowhere' is not a place on the map"


def test_unit_hex_must_be_one_hex(tmp_path: Path) -> None:
    path = write_duel(tmp_path, scenario=[('hex = "0805"', 'hex = ""')])
    empty = 'hex = ""'
    p = one_problem(path)
    assert p.where == f"line {line_of(path, empty)}, units[4].hex"
    assert p.message == "unit blue-inf-2: expected one hex, got ''"
    path = write_duel(tmp_path, scenario=[('hex = "0805"', 'hex = "0805 0804"')])
    assert one_problem(path).message == "unit blue-inf-2: expected one hex, got '0805 0804'"


def test_several_problems_at_once(tmp_path: Path) -> None:
    path = write_duel(
        tmp_path,
        scenario=[
            ('id = "blue-inf-2"', 'id = "blue-inf-1"'),
            ('type = "tank"\nside = "blue"', 'type = "panzer"\nside = "blue"'),
            ('hex = "0202"', 'hex = "0909"'),
        ],
    )
    with pytest.raises(ScenarioError) as info:
        engine.load_scenario(path)
    err = info.value
    assert str(err).startswith("3 problems found:")
    assert all(p.file == str(path) for p in err.problems)
    first, second = lines_of(path, 'id = "blue-inf-1"')
    assert [p.where for p in err.problems] == [
        f"line {line_of(path, '0909')}, units[2].hex",
        f"line {second}, units[4].id",
        f"line {line_of(path, 'panzer')}, units[5].type",
    ]
    assert "off the map" in err.problems[0].message
    assert f"first used in units[3], line {first}" in err.problems[1].message
    assert "unknown unit type 'panzer'" in err.problems[2].message


# --- The command line -----------------------------------------------------------------------------------


def test_cli_reports_every_problem(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_duel(
        tmp_path,
        scenario=[('id = "blue-inf-2"', 'id = "blue-inf-1"'), ('hex = "0202"', 'hex = "0909"')],
    )
    problems = engine.validate_path(str(path))
    assert len(problems) == 2
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out
    assert out.splitlines()[0] == f"FAIL {path}: 2 problems"
    for p in problems:
        assert f"  {p}\n" in out
    assert f"{path}: line {line_of(path, '0909')}, units[2].hex: hex 0909 is off the map" in out


def test_cli_ok_for_the_duel(capsys: pytest.CaptureFixture[str]) -> None:
    target = str(DUEL / "duel.toml")
    assert main(["validate", target]) == 0
    assert capsys.readouterr().out == f"ok   {target}\n"


def test_cli_ruleset_slash_id(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "minirules/duel"]) == 0
    assert capsys.readouterr().out == "ok   minirules/duel\n"
    assert main(["validate", "minirules/nosuch"]) == 1
    out = capsys.readouterr().out
    assert "FAIL minirules/nosuch" in out
    assert "no such scenario for minirules (known: duel)" in out
    assert main(["validate", "nosuch/duel"]) == 1
    assert "unknown ruleset 'nosuch'" in capsys.readouterr().out


def test_cli_blitzkrieg_maps(capsys: pytest.CaptureFixture[str]) -> None:
    assert [p.name for p in BLITZ_MAPS] == ["hannut.map", "stonne.map"]
    assert main(["validate", *map(str, BLITZ_MAPS)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [*(f"ok   {p}" for p in BLITZ_MAPS), "2 ok, 0 failed"]


def test_cli_mixed_targets(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = write_duel(tmp_path, scenario=[("turns = 4", "turns = = 4")])
    assert main(["validate", "minirules/duel", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "ok   minirules/duel" in out
    assert f"FAIL {bad}: 1 problem\n" in out
    assert out.endswith("1 ok, 1 failed\n")


def _planspiel() -> list[str]:
    script = Path(sys.executable).parent / "planspiel"
    return [str(script)] if script.exists() else [sys.executable, "-m", "tui.cli"]


@pytest.mark.parametrize("case", ["bad-toml", "missing"])
def test_cli_subprocess_never_shows_a_traceback(tmp_path: Path, case: str) -> None:
    if case == "bad-toml":
        target = str(write_duel(tmp_path, scenario=[("turns = 4", "turns = = 4")]))
        expected = "not valid TOML"
    else:
        target = str(tmp_path / "does-not-exist.toml")
        expected = "file not found"
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "PLANSPIEL_RULESETS": "tests.minirules",
    }
    env.pop("PLANSPIEL_DEBUG", None)
    result = subprocess.run(
        [*_planspiel(), "validate", target],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
        check=False,
    )
    assert result.returncode != 0
    assert "Traceback" not in result.stdout + result.stderr
    assert f"FAIL {target}" in result.stdout
    assert expected in result.stdout


def test_unknown_top_level_key(tmp_path: Path) -> None:
    path = write_duel(tmp_path, scenario=[("[victory]", "[chits]\nred = 3\n\n[victory]")])
    p = one_problem(path)
    assert p.where == f"line {line_of(path, '[chits]')}, chits"
    assert p.message.startswith("unknown key 'chits' (expected one of briefing, campaign, date, first, ")


def test_keys_the_ruleset_declares_are_known(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rs = engine.get_ruleset("minirules")
    monkeypatch.setattr(type(rs), "scenario_keys", frozenset({"chits"}))
    path = write_duel(tmp_path, scenario=[("[victory]", "[chits]\nred = 3\n\n[victory]")])
    assert engine.validate_path(str(path)) == []
    assert engine.load_scenario(path).raw["chits"] == {"red": 3}


def test_unknown_map_key(tmp_path: Path) -> None:
    path = write_duel(tmp_path, map_=[("[edges]", "[roadz]\n\n[edges]")])
    p = one_problem(path)
    assert p.file == str(tmp_path / "duel.map")
    assert p.where == f"line {line_of(tmp_path / 'duel.map', 'roadz')}, roadz"
    assert p.message.startswith("unknown key 'roadz' (expected one of edges, id, north, places, rails, ")


def test_every_problem_of_a_unit_is_reported(tmp_path: Path) -> None:
    """Issue 18 item 9: validate reported only the first problem of a unit (its type), then left it out."""
    path = write_duel(
        tmp_path,
        scenario=[('type = "tank"\nside = "blue"', 'type = "panzer"\nside = "green"')],
    )
    messages = [p.message for p in problems_of(path)]
    assert any("unknown unit type 'panzer'" in m for m in messages), messages
    assert any("blue-tank-1: side must be one of" in m and "'green'" in m for m in messages), messages


def test_a_map_alone_is_checked_against_the_codes_of_its_rulesets_folder(tmp_path: Path) -> None:
    """Issue 18 item 9: ``planspiel validate`` of a ``.map`` alone did not check its terrain codes. A map in a
    ruleset's scenario folder (``scenarios/<ruleset>/``) is checked against that ruleset's codes."""
    text = (DUEL / "duel.map").read_text(encoding="utf-8")
    text = _edit(text, "c0 c0 x0 c0 w0 c0 c0 c0", "c0 c0 q0 c0 w0 c0 c0 c0")
    folder = tmp_path / "minirules"
    folder.mkdir()
    (folder / "duel.map").write_text(text, encoding="utf-8")
    problems = engine.validate_path(str(folder / "duel.map"))
    known = ", ".join(sorted(engine.get_ruleset("minirules").terrain_codes))
    assert [p.message for p in problems] == [f"hex 0304: unknown terrain code 'q' (the ruleset knows {known})"]
    (tmp_path / "duel.map").write_text(text, encoding="utf-8")
    assert engine.validate_path(str(tmp_path / "duel.map")) == [], "no ruleset to tell: the grammar only"
