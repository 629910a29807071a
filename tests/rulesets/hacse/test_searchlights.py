"""Tests of searchlights (digest 6.1 P; ``searchlights.py``): a unit whose sheet carries ``equipment.searchlight``
lights the hex of its ``status.searchlight`` (within 20 hexes) and its neighbours: sighting into them is at +1 per
full 2 hexes where that is less; while it shines the unit itself is sighted automatically by every enemy with LOS;
it goes out with its unit (destroyed, carried, out of action)."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

import engine
from engine.errors import ScenarioError
from engine.hexgrid import parse_hex
from engine.rulesets.hacse import searchlights, sighting
from engine.rulesets.hacse.data import Tables, load_tables
from engine.rulesets.hacse.model import data, status
from engine.state import GameState

from .helpers import WIN, game, placed

T = load_tables()
ROOT = Path(__file__).resolve().parents[3]
H = parse_hex
LIGHT = "US-INF-SQD"


def _carrying() -> Tables:
    """The tables with the US squad's sheet carrying a searchlight (no shipped sheet does)."""
    sheets = dict(T.sheets)
    sheet = sheets[LIGHT]
    sheets[LIGHT] = dataclasses.replace(sheet, equipment={**sheet.equipment, "searchlight": 1})
    return dataclasses.replace(T, sheets=sheets)


def _night(**where: str) -> GameState:
    """H-1 at a dark night, U1 shining its searchlight at 1107 (G1's hex)."""
    st = placed(game("h1-le-hamel", WIN), **where)
    data(st).conditions = ["dark_night"] * 10
    status(st.units["U1"]).searchlight = H("1107")
    return st


def test_6_1_a_searchlight_lights_its_hex_and_the_neighbours() -> None:
    st, tables = _night(U1="0407", G1="1107"), _carrying()
    assert searchlights.lit(st, tables, H("1107")) and searchlights.lit(st, tables, H("1108"))
    assert not searchlights.lit(st, tables, H("1110"))
    assert not searchlights.lit(st, T, H("1107"))  # the sheet carries none


def test_6_1_a_searchlight_reaches_20_hexes() -> None:
    st, tables = _night(U1="0407"), _carrying()
    status(st.units["U1"]).searchlight = H("2807")  # 24 hexes away
    assert not searchlights.lit(st, tables, H("2807"))


def test_6_1_sighting_into_the_lit_hex_at_night_is_plus_1_per_2_hexes() -> None:
    st, tables = _night(U1="0407", U2="0707", G1="1107"), _carrying()
    observer, target = st.units["U2"], st.units["G1"]
    assert observer.hex is not None and target.hex is not None
    line = sighting.sight_line(st, tables, observer.hex, target.hex)
    dark = [str(m) for m in sighting.sight_roll(st, T, observer, target, line)[1]]
    lit = [str(m) for m in sighting.sight_roll(st, tables, observer, target, line)[1]]
    assert "+2 4 hexes, the target lit (+1 per full 2) (rule 6.1)" in lit
    assert not any("lit" in m for m in dark) and any(m.startswith("+8 4 hexes") for m in dark)  # +2 per hex


def test_6_1_a_shining_searchlight_is_sighted_automatically_and_goes_out_with_its_unit() -> None:
    st, tables = _night(U1="0407", G1="1107"), _carrying()
    observer, light = st.units["G1"], st.units["U1"]
    assert observer.hex is not None and light.hex is not None
    line = sighting.sight_line(st, tables, observer.hex, light.hex)
    assert sighting.automatic(st, tables, observer, light, line) == "its searchlight shines (rule 6.1)"
    assert sighting.automatic(st, T, observer, light, line) is None
    status(light).destroyed = True
    assert not searchlights.shining(st, tables, light)


def test_6_1_validate_refuses_a_searchlight_the_sheet_does_not_carry(tmp_path: Path) -> None:
    src = ROOT / "scenarios" / "hacse" / "h1-le-hamel.toml"
    text = src.read_text(encoding="utf-8").replace(
        'formation = "1st rifle platoon"\n', 'formation = "1st rifle platoon"\nstatus = { searchlight = "9999" }\n', 1
    )
    (tmp_path / "lit.toml").write_text(text, encoding="utf-8")
    shutil.copy(src.with_suffix(".map"), tmp_path / "h1-le-hamel.map")
    with pytest.raises(ScenarioError) as err:
        engine.load_scenario(tmp_path / "lit.toml")
    got = str(err.value)
    assert "units[5].status.searchlight: unit U1: its sheet US-INF-SQD carries no searchlight" in got
    assert "units[5].status.searchlight: unit U1: hex 9999 is off the h1-le-hamel map" in got
