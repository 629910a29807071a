"""The roster-to-calculator adapter (``sheets.py``) over all twelve sheets of §15.7 and the weapons of §15.4."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from engine.errors import IllegalActionError
from engine.rulesets.hacse import data, sheets
from engine.rulesets.hacse.damage import COLUMNS, location_odds
from engine.rulesets.hacse.fire import range_band
from engine.rulesets.hacse.firedata import fire_table
from engine.rulesets.hacse.morale import group_leader

TABLES = data.load_tables()
SHEETS = sorted(TABLES.sheets)


def test_15_7_twelve_sheets() -> None:
    assert len(SHEETS) == 12


@pytest.mark.parametrize("key", SHEETS)
def test_9_2_group_leader_is_the_row_the_sheet_marks(key: str) -> None:
    sheet = TABLES.sheets[key]
    target = sheets.target(sheet)
    assert [group_leader(sheet.unit_type, target.rows)] == [r.index for r in sheet.rows if r.leader]


@pytest.mark.parametrize("key", SHEETS)
def test_2_3_target_has_the_sheets_armour_rows_and_steps(key: str) -> None:
    sheet = TABLES.sheets[key]
    target = sheets.target(sheet, hit=[1])
    a = sheet.armour
    assert target.armour == (a.front, a.side, a.rear, a.top)
    assert [(r.index, r.kind) for r in target.rows] == [(r.index, r.kind) for r in sheet.rows]
    assert target.possible_damage == len(sheet.rows) - sum(1 for r in sheet.rows if r.kind == "cargo_bed")
    assert target.hit == frozenset({1})
    assert target.unit_type == sheet.unit_type


@pytest.mark.parametrize("key", SHEETS)
def test_15_6_every_location_column_is_a_distribution(key: str) -> None:
    target = sheets.target(TABLES.sheets[key])
    for column in COLUMNS:
        assert sum(location_odds(target, column).values()) == Fraction(1)


@pytest.mark.parametrize("key", SHEETS)
def test_2_3_weapon_rows_take_mount_main_and_operator_from_the_mounts(key: str) -> None:
    sheet = TABLES.sheets[key]
    by_index = {r.index: r for r in sheets.target(sheet).rows}
    for m in sheet.mounts:
        if m.row is not None:
            row = by_index[m.row]
            assert (row.mount, row.main, row.operator) == (m.mount, m.main, m.crew)
            assert row.is_weapon


@pytest.mark.parametrize("key", sorted(TABLES.weapons))
def test_6_3_range_band_matches_the_roster_band_at_every_distance(key: str) -> None:
    w = TABLES.weapons[key]
    fw = sheets.weapon(w)
    for distance in range(w.max_range + 3):
        expected = w.band(distance)
        if expected is None:
            with pytest.raises(IllegalActionError):
                range_band(fw, distance)
        else:
            assert range_band(fw, distance) == expected


@pytest.mark.parametrize("key", sorted(TABLES.weapons))
def test_15_4_ammunition_converted(key: str) -> None:
    for a in TABLES.weapons[key].ammo.values():
        fa = sheets.ammo(a)
        assert (fa.key, fa.dk, fa.he, fa.is_ap, fa.is_smoke) == (a.key, a.dk or 0, a.he, a.ap, a.smoke)


def test_15_2_experience_values() -> None:
    for key, e in TABLES.experience.items():
        assert sheets.base_number(key) == e.base_number
        assert sheets.morale(key) == e.morale


def test_7_1_12_1_duplicated_values_live_in_fire_toml_only() -> None:
    text = (Path(data.__file__).parent / "data" / "weapons.toml").read_text()
    assert "indirect_factor =" not in text
    assert "physical_modifier =" not in text
    assert not hasattr(TABLES.weapons["CCW"], "physical_modifier")
    assert fire_table().indirect["range_factor"] == 2
    assert fire_table().hit["physical"] == 4
