"""Tests of the HACSE data tables (``engine/rulesets/hacse/data``): the roster of 15.7 and the values of 4.3,
15.2–15.5 and 15.8 against the digest, and the loader's refusals of a bad file."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from engine.rulesets.hacse.data import DATA_DIR, MAX, PROHIBITED, DataError, load_tables, read_tables

T = load_tables()

# 15.7 / 15.8: sheet -> (unit type, move class, MP, road MP, profile, armour f/s/r/t, BV, possible damage)
ROSTER = {
    "GER-INF-SQD": ("infantry", "foot", 3, 4, 0, (0, 0, 0, 0), 12, 10),
    "US-INF-SQD": ("infantry", "foot", 3, 4, 0, (0, 0, 0, 0), 13, 12),
    "SOV-INF-SQD": ("infantry", "foot", 3, 4, 0, (0, 0, 0, 0), 10, 9),
    "GER-HMG": ("infantry", "foot", 2, 3, 0, (0, 0, 0, 0), 10, 6),
    "GER-PAK40": ("gun", "foot", 1, 1, 1, (1, 0, 0, 0), 15, 6),
    "GER-PZ4H": ("vehicle", "track", 5, 8, 0, (8, 3, 2, 1), 25, 14),
    "US-M4A3-75": ("vehicle", "track", 5, 9, -1, (9, 4, 4, 2), 24, 15),
    "SOV-T34-76": ("vehicle", "track", 6, 11, 0, (9, 5, 4, 2), 24, 13),
    "GER-SDKFZ251": ("vehicle", "track", 6, 11, 0, (2, 1, 1, 0), 10, 9),
    "GER-OPELBLITZ": ("vehicle", "wheel", 4, 13, -1, (0, 0, 0, 0), 3, 5),
    "GER-COY-HQ": ("infantry", "foot", 3, 4, 0, (0, 0, 0, 0), 8, 5),
    "GER-MORTAR": ("infantry", "foot", 2, 3, 0, (0, 0, 0, 0), 10, 6),
}


def test_15_7_the_roster_has_every_sheet_and_nothing_else() -> None:
    assert set(T.sheets) == set(ROSTER)


@pytest.mark.parametrize("sheet_id", sorted(ROSTER))
def test_15_7_sheet_values_match_the_digest(sheet_id: str) -> None:
    s = T.sheets[sheet_id]
    a = s.armour
    got = (s.unit_type, s.move_class, s.mp, s.road_mp, s.target_profile, (a.front, a.side, a.rear, a.top), s.bv)
    assert got == ROSTER[sheet_id][:7]
    assert s.possible_damage == ROSTER[sheet_id][7]


def test_15_7_weights_transport_and_riders() -> None:
    w = {k: T.sheets[k].weight_t for k in ("GER-PAK40", "GER-PZ4H", "US-M4A3-75", "SOV-T34-76")}
    assert w == {"GER-PAK40": 1.4, "GER-PZ4H": 25.0, "US-M4A3-75": 30.0, "SOV-T34-76": 30.9}
    assert (T.sheets["GER-SDKFZ251"].weight_t, T.sheets["GER-OPELBLITZ"].weight_t) == (9.0, 3.3)
    assert T.sheets["GER-SDKFZ251"].transport_capacity == 10
    assert T.sheets["GER-OPELBLITZ"].transport_capacity == 16
    # 4.5: 4 outside riders when top armour >= 1
    assert [T.sheets[k].outside_riders for k in ("GER-PZ4H", "GER-SDKFZ251", "GER-OPELBLITZ")] == [4, 0, 0]
    assert T.sheets["GER-SDKFZ251"].open_topped and T.sheets["GER-OPELBLITZ"].open_topped


def test_15_7_1_rifle_squad_rows_and_mounts() -> None:
    s = T.sheets["GER-INF-SQD"]
    assert [r.weapon for r in s.rows] == ["K98"] * 7 + ["MG42L", "K98", "MP40"]
    assert s.leader_row is not None and s.leader_row.index == 10  # the leader is the last row (2.3)
    want = {("K98", 8, 20), ("MG42L", 1, 30), ("MP40", 1, 12)}
    assert {(m.weapon, m.count, m.ammo["ball"]) for m in s.mounts} == want
    assert dict(s.equipment) == {"binoculars": 1, "hand_grenades": 6, "smoke_grenades": 1}


def test_15_7_1_variants() -> None:
    us, sov = T.sheets["US-INF-SQD"], T.sheets["SOV-INF-SQD"]
    assert {(m.weapon, m.count) for m in us.mounts} == {("M1", 11), ("BAR", 1)}
    assert us.equipment["hand_grenades"] == 8
    assert [r.weapon for r in sov.rows] == ["MN"] * 6 + ["DP", "PPSH", "PPSH"]
    assert {(m.weapon, m.count, m.ammo["ball"]) for m in sov.mounts} == {("MN", 6, 20), ("DP", 1, 20), ("PPSH", 2, 12)}


def test_15_7_2_hmg_team_is_heavy_with_sustained_fire_costs() -> None:
    s = T.sheets["GER-HMG"]
    mg = next(m for m in s.mounts if m.weapon == "MG42H")
    assert (mg.ammo["ball"], mg.sustained_cost, mg.sustained_doubled_cost) == (150, 30, 60)
    assert s.heavy_equipment and T.weapons["MG42H"].heavy


def test_15_7_3_pak40_arc_main_gun_and_ammunition() -> None:
    s = T.sheets["GER-PAK40"]
    main = s.main_mount
    assert main is not None and main.weapon == "PAK40" and main.arc == "front"
    assert dict(main.ammo) == {"AP": 20, "HE": 20}
    assert s.rows[5].kind == "gun" and s.leader_row is not None and s.leader_row.index == 5
    assert "rough" in s.hide_in and "clear" not in s.hide_in


@pytest.mark.parametrize(
    ("sheet_id", "main", "ammo", "hull_row"),
    [
        ("GER-PZ4H", "KWK40", {"AP": 40, "HE": 47}, 13),
        ("US-M4A3-75", "M3_75", {"AP": 35, "HE": 55, "smoke": 7}, 13),
        ("SOV-T34-76", "F34", {"AP": 25, "HE": 75}, 12),
    ],
)
def test_15_7_tank_main_guns_and_hull_mgs(sheet_id: str, main: str, ammo: dict[str, int], hull_row: int) -> None:
    s = T.sheets[sheet_id]
    m = s.main_mount
    assert m is not None and (m.weapon, dict(m.ammo), m.mount, m.arc) == (main, ammo, "turret", "all")
    hull = next(x for x in s.mounts if x.mount == "hull")
    assert (hull.row, hull.arc) == (hull_row, "front")
    assert s.rows[0].leader and s.rows[0].crew


def test_15_7_7_half_track_rear_mg_and_cargo_bed() -> None:
    s = T.sheets["GER-SDKFZ251"]
    assert {m.arc for m in s.mounts} == {"front", "rear"}
    assert s.rows[-1].kind == "cargo_bed" and len(s.rows) == 10 and s.possible_damage == 9


def test_15_7_8_truck_has_no_main_weapon_and_two_cargo_beds() -> None:
    s = T.sheets["GER-OPELBLITZ"]
    assert s.main_mount is None
    assert [r.kind for r in s.rows].count("cargo_bed") == 2
    assert s.leader_row is not None and s.leader_row.role == "co-driver"
    assert "transport" in s.traits


def test_15_7_9_company_hq_traits_and_commander_bonus() -> None:
    s = T.sheets["GER-COY-HQ"]
    assert {"hq", "map_station", "company_leader"} <= set(s.traits)
    assert s.commander_bonus == T.commander_bonus["company_hq"] == 1
    assert s.rows[2].equipment == "radio"


def test_15_7_10_mortar_indirect_only() -> None:
    s = T.sheets["GER-MORTAR"]
    m = next(x for x in s.mounts if x.weapon == "GW34")
    assert dict(m.ammo) == {"HE": 26, "smoke": 4}
    assert T.weapons["GW34"].fire_mode == "indirect" and T.weapons["GW34"].min_range == 1


def test_15_2_experience_levels_and_ac_sk_01_skill_tn() -> None:
    e = T.experience
    assert [(e[k].base_number, e[k].morale) for k in ("conscript", "veteran", "elite")] == [(5, 14), (4, 16), (3, 18)]
    # AC-SK-01: B = 3 / 4 / 5 -> skill TN 9 / 12 / 15
    assert [e[k].skill_tn for k in ("elite", "veteran", "conscript")] == [9, 12, 15]
    assert T.default_experience == "veteran"
    assert (e["conscript"].bv_factor, e["elite"].bv_factor) == (0.8, 1.25)  # 15.8


def test_15_3_target_profiles() -> None:
    assert dict(T.profiles) == {
        "infantry": 0,
        "light_gun": 1,
        "heavy_gun": 0,
        "low_vehicle": 0,
        "tall_vehicle": -1,
        "very_large_vehicle": -1,
    }


def test_15_4_weapon_bands_and_ammunition() -> None:
    w = T.weapons
    assert w["K98"].bands == ((0, 3), (4, 6), (7, 10))
    assert w["MG42H"].bands == ((0, 6), (7, 14), (15, 27))
    assert w["M2HB"].ammo["ball"].dk == 2
    assert (w["M3_75"].ammo["AP"].dk, w["M3_75"].ammo["AP"].ap, w["M3_75"].ammo["smoke"].dk) == (8, True, None)
    assert w["HG"].poolable is False and w["HG"].max_range == 0
    assert [w["MP40"].band(d) for d in (0, 1, 2, 3, 4)] == ["short", "short", "medium", "long", None]
    assert w["GW34"].band(0) is None  # minimum range 1 (2.3)
    assert all(w[k].semi_auto for k in ("M1", "KWK40", "PAK40", "M3_75", "F34"))


def test_4_3_movement_cost_table() -> None:
    b, s = T.movement.base, T.movement.surcharge
    assert dict(b["light_forest"]) == {"foot": 1, "track": 2, "wheel": 3}
    assert dict(b["dense_forest"]) == {"foot": 2, "track": 3, "wheel": PROHIBITED}
    assert dict(b["stream"]) == {"foot": MAX, "track": MAX, "wheel": PROHIBITED}
    assert dict(b["water"]) == {"foot": MAX, "track": PROHIBITED, "wheel": PROHIBITED}
    assert dict(s["swamp_mud"]) == {"foot": 0.5, "track": 1, "wheel": MAX}
    assert [dict(r)["foot"] for r in T.movement.level_change] == [1, 2, 2]
    assert dict(T.movement.level_change[2])["track"] == PROHIBITED
    assert T.movement.value("stacking_per") == 20 and T.movement.value("turn_mp_per_60") == 1


def test_15_10_1_terrain_codes() -> None:
    want = {".": "clear", "l": "light_forest", "F": "dense_forest", "s": "ford", "=": "bridge", "g": "crop"}
    assert {k: T.codes[k] for k in want} == want
    assert T.terrain["mud"].overlays == ("swamp_mud",)
    assert T.terrain["heavy_buildings"].as_road and T.terrain["heavy_buildings"].building == "heavy"
    assert (T.buildings["heavy"].height, T.buildings["heavy"].armour, T.buildings["heavy"].destroyed_at) == (2, 3, 20)
    assert dict(T.bridge) == {"armour": 2, "destroyed_at": 25, "charges_to_blow": 5}  # 4.10


def _copy(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    shutil.copytree(DATA_DIR, folder)
    return folder


def _edit(folder: Path, name: str, old: str, new: str) -> None:
    p = folder / f"{name}.toml"
    text = p.read_text(encoding="utf-8")
    assert old in text
    p.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize(
    ("name", "old", "new", "message"),
    [
        ("units", "steps = 10", "steps = 11", "units.toml types.GER-INF-SQD.steps: expected 10"),
        ("units", "target_profile = -1", "target_profile = 0", "tall_vehicle has profile -1 (15.3)"),
        ("units", 'weapon = "K98", count = 8', 'weapon = "K98", count = 7', "8 soldier rows carry K98"),
        ("units", "ammo = { AP = 40, HE = 47 }", "ammo = { APCR = 40 }", "KWK40 has no such ammunition"),
        ("units", "outside_riders = 4", "outside_riders = 0", "expected 4 (top armour 1, 4.5)"),
        ("weapons", "short = [0, 3]", "short = [3, 0]", "weapons.toml weapons.K98.short: expected [first hex"),
        ("terrain", 'l = "light_forest"', 'l = "jungle"', "terrain.toml codes.l: unknown terrain class"),
        ("experience", 'default = "veteran"', 'default = "recruit"', "experience.toml.default: expected one of"),
        (
            "units",
            'traits = ["transport"]',
            'traits = ["mountain_troop"]',
            "traits: unknown 'mountain_troop'; known: hq",
        ),
    ],
)
def test_the_loader_names_file_entry_and_expectation(
    tmp_path: Path, name: str, old: str, new: str, message: str
) -> None:
    folder = _copy(tmp_path)
    _edit(folder, name, old, new)
    with pytest.raises(DataError) as err:
        read_tables(folder)
    assert message in str(err.value)


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    (folder / "profiles.toml").unlink()
    with pytest.raises(DataError, match=r"profiles\.toml: data file missing"):
        read_tables(folder)
