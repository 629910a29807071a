"""Blitzkrieg 1940 digest section 13 (PROPOSED tables) and the table-driven acceptance cases, read from the data files.

Every table is taken from ``engine/rulesets/blitzkrieg1940/data/*.toml`` through ``data.py``; the only numbers
written here are the digest's printed values the data must reproduce.
"""

from __future__ import annotations

import itertools
import tomllib
from fractions import Fraction
from pathlib import Path

import pytest

from engine.rulesets.blitzkrieg1940.data import (
    RESULTS,
    Tables,
    chance_2d6,
    crt_distribution,
    crt_result,
    load_tables,
    raw_table,
)

MAPS = Path(__file__).resolve().parents[3] / "scenarios" / "blitzkrieg1940"


@pytest.fixture(scope="module")
def t() -> Tables:
    return load_tables()


def pct(p: Fraction) -> int:
    """A probability in whole percent, rounded as the digest prints it."""
    return round(p * 100)


def map_cells(name: str) -> dict[str, tuple[str, int]]:
    """Hex label → (terrain code, level) of a shipped map."""
    data = tomllib.loads((MAPS / f"{name}.map").read_text(encoding="utf-8"))
    cells: dict[str, tuple[str, int]] = {}
    for r, line in enumerate(data["terrain"].strip().splitlines(), start=1):
        for c, token in enumerate(line.split(), start=1):
            cells[f"{c:02d}{r:02d}"] = (token[:-1], int(token[-1]))
    return cells


def map_places(name: str) -> dict[str, list[str]]:
    data = tomllib.loads((MAPS / f"{name}.map").read_text(encoding="utf-8"))
    return {place: hexes.split() for place, hexes in data["places"].items()}


# --- 13.1 Combat results table ------------------------------------------------------------------------------


def test_13_1_crt_covers_every_roll_once_per_column(t: Tables) -> None:
    assert sorted(t.crt.ranges) == list(range(-1, 13))
    for column, cells in t.crt.ranges.items():
        hits = dict.fromkeys(range(2, 13), 0)
        for low, high in cells.values():
            assert 2 <= low <= high <= 12, (column, low, high)
            for roll in range(low, high + 1):
                hits[roll] += 1
        assert all(n == 1 for n in hits.values()), (column, hits)


def test_13_1_crt_results_in_order_along_each_column(t: Tables) -> None:
    # 13.1: "Along a column the order is always –, red N, N, 1."
    for column, cells in t.crt.ranges.items():
        spans = list(cells.items())
        assert [r for r, _ in spans] == [r for r in RESULTS if r in cells], column
        for (_, (_, high)), (_, (low, _)) in itertools.pairwise(spans):
            assert low == high + 1, column


def test_13_1_crt_monotone(t: Tables) -> None:
    def rank(column: int, roll: int) -> int:
        return RESULTS.index(crt_result(column, roll))

    for column in range(-1, 13):
        for roll in range(2, 12):
            assert rank(column, roll + 1) >= rank(column, roll), (column, roll)
    for column in range(-1, 12):
        for roll in range(2, 13):
            assert rank(column + 1, roll) >= rank(column, roll), (column, roll)


# 13.1 "Probabilities per shot": column → (P(step loss), P(N or worse, any target), P(any effect on infantry)).
PRINTED_PROBABILITIES = {
    -1: (0, 3, 8),
    0: (0, 3, 17),
    1: (3, 8, 17),
    2: (3, 8, 28),
    3: (3, 17, 28),
    4: (3, 17, 42),
    5: (8, 17, 42),
    6: (8, 28, 58),
    7: (17, 28, 58),
    8: (17, 42, 72),
    9: (28, 42, 72),
    10: (28, 58, 83),
    11: (42, 58, 83),
    12: (42, 72, 92),
}


def test_13_1_probabilities_match_digest() -> None:
    for column, printed in PRINTED_PROBABILITIES.items():
        d = crt_distribution(column)
        assert sum(d.values()) == 1
        computed = (pct(d["step"]), pct(d["n"] + d["step"]), pct(d["red_n"] + d["n"] + d["step"]))
        assert computed == printed, column


def test_13_1_seed_data_points() -> None:
    assert crt_result(6, 11) == "step"  # Stuka example: infantry in a village, defence-3 tank
    assert crt_result(4, 11) == "n"  # Stuka example: defence-5 tank (black N)
    assert crt_result(5, 9) == "red_n"  # artillery example: medium on infantry in the open


def test_13_1_column_limits(t: Tables) -> None:
    assert (t.crt.min_column, t.crt.max_column) == (-1, 12)
    for roll in range(2, 13):
        assert crt_result(13, roll) == crt_result(25, roll) == crt_result(12, roll)
    assert crt_distribution(20) == crt_distribution(12)
    with pytest.raises(ValueError, match=r"^no fire below column -1 \(rule 8\.2\)$"):
        crt_result(-2, 7)
    with pytest.raises(ValueError, match=r"no fire below column -1 \(rule 8\.2\)"):
        crt_distribution(-2)
    with pytest.raises(ValueError):
        crt_result(3, 13)


def test_ac_45_stuka_example_from_data(t: Tables) -> None:
    # 8.6.1 / AC-45: Orp-le-Petit (village), one roll of 11 for the whole hex.
    stuka = t.crt.stuka
    village = t.terrain.classes["village"].fire_modifier
    dispersed = t.modifiers["F11"].value("indirect")
    assert dispersed is not None
    assert crt_result(stuka - 0 + village, 11) == "step"  # infantry: 8 − 0 − 2 = 6
    assert crt_result(stuka - 3 + dispersed, 11) == "step"  # defence-3 tank: 8 − 3 + 1 = 6
    assert crt_result(stuka - 5 + dispersed, 11) == "n"  # defence-5 tank: 8 − 5 + 1 = 4


def test_ac_46_artillery_example_from_data(t: Tables) -> None:
    medium = t.artillery.calibres["medium"].attack
    assert medium + t.terrain.classes["open"].fire_modifier == 5
    assert crt_result(medium, 9) == "red_n"


def test_ac_55_direct_fire_from_data(t: Tables) -> None:
    s35, pz3 = t.units["S35"], t.units["PZ3"]
    assert s35.attack_full is not None
    per_hex = t.modifiers["F2"].value("direct")
    assert per_hex == -1
    column = s35.attack_full - pz3.armour + per_hex * (2 - 1)
    assert column == 4
    assert [crt_result(column, r) for r in (11, 12, 9)] == ["n", "step", "red_n"]
    assert not pz3.red_n_affects  # red N does not affect tanks (8.3)


# --- 13.2 Fire modifiers ------------------------------------------------------------------------------------


def test_13_2_fire_modifiers(t: Tables) -> None:
    m = t.modifiers
    assert sorted(m, key=lambda k: int(k[1:])) == [f"F{i}" for i in range(1, 20)]
    assert (m["F1"].value("direct"), m["F2"].value("direct"), m["F3"].value("close_combat")) == (0, -1, 1)
    assert m["F1"].value("indirect") is None and m["F2"].value("indirect") is None  # no range count
    assert m["F4"].effect == "use_reduced_attack"
    for fid in ("F5", "F7", "F8"):
        assert (m[fid].value("direct"), m[fid].value("close_combat"), m[fid].value("indirect")) == (-1, -1, None)
    assert "close_combat_attack_forbidden" in m["F6"].flags and "close_combat_defender_only" in m["F6"].flags
    assert "close_combat_first_round_only" in m["F7"].flags
    assert (m["F9"].value("direct"), m["F9"].value("close_combat"), m["F9"].value_source) == (-2, -2, "P")
    assert (m["F10"].value("direct"), m["F10"].value("indirect")) == (1, None)
    assert [m["F11"].value(f) for f in ("direct", "close_combat", "indirect")] == [1, 1, 1]
    expected = {"F12": ("village", -2, "S"), "F13": ("woods", -2, "P"), "F14": ("orchard", -1, "P")}
    expected["F15"] = ("open", 0, "S")
    for fid, (terrain, value, source) in expected.items():
        assert (m[fid].terrain, m[fid].source) == (terrain, source)
        assert [m[fid].value(f) for f in ("direct", "close_combat", "indirect")] == [value] * 3
        assert "target_armour_zero_only" in m[fid].flags
        # terrain.toml repeats the same value per class; both must agree.
        assert t.terrain.classes[terrain].fire_modifier == value
    assert [m["F16"].value(f) for f in ("direct", "close_combat", "indirect")] == [-2, -2, -2]
    assert m["F17"].effect == "no_terrain_modifier"
    assert m["F18"].effect == "halve_attack_round_up"
    assert (m["F19"].effect, m["F19"].column, m["F19"].applies) == ("fixed_column", 6, ("mines",))
    assert m["F19"].column == t.crt.mines_column


# --- 13.3 Terrain and movement ------------------------------------------------------------------------------


def test_13_3_terrain_costs(t: Tables) -> None:
    classes = t.terrain.classes
    costs = {
        name: tuple(classes[name].entry_cost(mc) for mc in ("foot", "tracked", "wheeled"))
        for name in ("open", "village", "orchard", "woods")
    }
    assert costs == {
        "open": (1, 1, 2),
        "village": (1, 2, 2),
        "orchard": (1, 2, 3),
        "woods": (2, 3, None),
    }
    assert classes["woods"].road_only == {"wheeled"}
    assert {n for n, c in classes.items() if c.obstacle} == {"village", "orchard", "woods"}
    assert {n for n, c in classes.items() if c.open} == {"open"}
    assert {n for n, c in classes.items() if c.disperses_armour} == {"village", "orchard", "woods"}
    mv = t.terrain.movement
    assert (mv.road_cost, mv.climb_per_level, mv.leave_minefield) == (0.5, 1, 2)
    # AC-34: MP 7 into a village pays ⌈7/4⌉ + 2 = 4; MP 3 pays ⌈3/4⌉ = 1 plus the hex.
    assert mv.close_combat_entry(7) + (classes["village"].entry_cost("tracked") or 0) == 4
    assert mv.close_combat_entry(3) == 1


def test_13_3_terrain_codes_cover_both_maps(t: Tables) -> None:
    assert dict(t.terrain.codes) == {".": "open", "V": "village", "O": "orchard", "W": "woods"}
    for name in ("hannut", "stonne"):
        codes = {code for code, _ in map_cells(name).values()}
        assert codes <= set(t.terrain.codes), name
    # The engine core reads the same [codes] / [classes] shape.
    raw = raw_table("terrain")
    assert set(raw["codes"]) == set(t.terrain.codes) and set(raw["classes"]) == set(t.terrain.classes)


# --- 13.4 Formation factors ---------------------------------------------------------------------------------


def test_13_4_ff_values(t: Tables) -> None:
    ff = {fid: f.ff for fid, f in t.formations.items()}
    assert ff["ger-i-gd"] == ff["ger-iii-gd"] == ff["ger-stupion-43"] == 10
    assert ff["ger-stug-640"] == ff["ger-pzjg-14-gd"] == ff["ger-i-35-pzr"] == ff["ger-i-69-schr"] == 9
    assert ff["ger-kg-3pz"] == ff["ger-pzjg-14-schr-8x"] == 8
    assert ff["fra-1-kur"] == ff["fra-iii-11-rdp"] == ff["fra-4-bcc"] == ff["fra-ii-67-ri"] == 8
    assert ff["fra-49-bcc"] == 9
    assert ff["fra-i-205-ri"] == ff["fra-6-grdi"] == 7
    assert len(ff) == 32  # 17 German + 15 French lines of 13.4
    assert t.exhausted_ff_modifier == -2
    offsets = {name: (test.compare, test.offset) for name, test in t.ff_tests.items()}
    assert offsets == {
        "panic": ("above", 0),
        "rally": ("at_most", -1),
        "demoralisation": ("above", 0),
        "recovery": ("at_most", -3),
        "exhaustion": ("at_most", -2),
    }
    assert t.ff_test_offset("recovery") == -3


def test_13_4_derived_chances(t: Tables) -> None:
    # 13.4: "FF 10 → rally 83 %, exhaustion test 72 %, recovery 58 %, panic loss 8 %; FF 8 → …; FF 7 → …".
    printed = {10: (83, 72, 58, 8), 8: (58, 42, 28, 28), 7: (42, 28, 17, 42)}
    tests = [t.ff_tests[n] for n in ("rally", "exhaustion", "recovery", "panic")]
    for ff, chances in printed.items():
        assert tuple(pct(test.chance(ff)) for test in tests) == chances, ff


def test_13_4_test_rolls(t: Tables) -> None:
    panic, rally, demo = t.ff_tests["panic"], t.ff_tests["rally"], t.ff_tests["demoralisation"]
    recovery, exhaustion = t.ff_tests["recovery"], t.ff_tests["exhaustion"]
    assert panic.happens(8, 9) and not panic.happens(8, 8)  # AC-50
    assert panic.happens(8 + t.exhausted_ff_modifier, 7)  # AC-50, exhausted FF 6
    assert rally.happens(8, 7) and not rally.happens(8, 8)  # AC-51
    assert demo.happens(8, 9) and not demo.happens(8, 8)  # AC-52
    assert demo.happens(9, 10)  # AC-79
    assert recovery.happens(8, 5) and not recovery.happens(8, 6)  # AC-53
    assert exhaustion.happens(9, 7) and not exhaustion.happens(9, 8)  # AC-25
    assert chance_2d6(lambda roll: roll <= 8) == Fraction(26, 36)


# --- 13.5 Reaction ------------------------------------------------------------------------------------------


def test_13_5_reaction_values(t: Tables) -> None:
    r = t.reaction
    assert [r.value("german", k) for k in ("infantry", "mg", "motorcycle")] == [8, 8, 8]
    assert [r.value("french", k) for k in ("infantry", "mg", "motorcycle")] == [7, 7, 7]
    assert r.value("german", "at_gun", "ger-pzjg-14-schr-8x") == r.value("french", "at_gun") == 7
    assert [r.value("german", k) for k in ("tank", "assault_gun", "armoured_car", "apc")] == [8] * 4
    assert [r.value("french", k) for k in ("tank", "armoured_car")] == [6, 6]
    assert (r.value("german", "hq"), r.value("french", "hq")) == (8, 7)
    # Großdeutschland units (all types) and Stu.Pion.Bat. 43: 9.
    assert r.value("german", "infantry", "ger-i-gd") == r.value("german", "mg", "ger-iii-gd") == 9
    assert r.value("german", "pioneer", "ger-stupion-43") == r.value("german", "at_gun", "ger-pzjg-14-gd") == 9
    assert r.value("german", "tank", "ger-ii-pzr") == 8
    mods = {k: (m.value, m.source) for k, m in r.modifiers.items()}
    assert mods == {
        "exhausted": (1, "S"),
        "out_of_command": (1, "S"),
        "neutralised": (1, "P"),
        "trigger_adjacent": (-1, "P"),
    }

    # AC-36: German infantry (8): roll 8 fires, 9 does not; exhausted 8 + 1 = 9 fails.
    def reacts(roll: int, *mods: str) -> bool:
        return roll + sum(r.modifiers[m].value for m in mods) <= r.value("german", "infantry")

    assert reacts(8) and not reacts(9) and not reacts(8, "exhausted")
    # Every unit kind has a reaction class; elite formations exist.
    assert all(r.class_of(u.kind) for u in t.units.values())
    assert r.elite_formations <= set(t.formations)
    assert pct(chance_2d6(lambda roll: roll <= 8)) == 72  # "passes 72 % of the time"


# --- 13.6 Indirect fire -------------------------------------------------------------------------------------


def test_13_6_calibres(t: Tables) -> None:
    cal = {name: (c.mm, c.attack, c.source) for name, c in t.artillery.calibres.items()}
    assert cal == {"light": (75, 4, "P"), "medium": (105, 5, "S"), "heavy": (150, 7, "P")}
    assert t.artillery.stuka_attack == t.crt.stuka == 8
    assert not t.artillery.stuka_needs_observer
    assert t.crt.mines_column == 6


def test_8_6_1_transmission(t: Tables) -> None:
    tr = t.artillery.transmission
    assert (tr.target, tr.neutralised_observer, tr.adjacent_automatic, tr.reroll) == (8, 1, True, False)

    # AC-46 / AC-47: roll 9 fails; neutralised observer 8 + 1 = 9 fails; 7 + 1 = 8 succeeds.
    def transmits(roll: int, neutralised: bool = False) -> bool:
        return roll + (tr.neutralised_observer if neutralised else 0) <= tr.target

    assert not transmits(9) and not transmits(8, neutralised=True) and transmits(7, neutralised=True)


def test_ac_69_salvos_per_chit(t: Tables) -> None:
    s = t.artillery.salvos
    assert dict(s["hannut"]["french"].artillery) == {"medium": 2, "light": 2}
    assert dict(s["hannut"]["german"].artillery) == {"medium": 2, "heavy": 2}
    assert s["hannut"]["german"].stuka == 2
    assert dict(s["stonne"]["french"].artillery) == {"heavy": 1, "medium": 1, "light": 3}
    assert dict(s["stonne"]["german"].artillery) == {"medium": 2, "light": 2}
    assert s["stonne"]["french"].artillery_total == 5
    # Every side with artillery chits has a salvo composition, and every side with Stuka chits a Stuka count.
    for scenario, sc in t.chits.items():
        for side in sc.sides:
            chits = sc.in_play(side, 10)
            if chits.artillery:
                assert s[scenario][side].artillery_total > 0, (scenario, side)
            if chits.stuka:
                assert s[scenario][side].stuka > 0, (scenario, side)


# --- 13.7 Counters and order of battle ----------------------------------------------------------------------


def test_13_7_counter_values(t: Tables) -> None:
    def row(code: str) -> tuple[int | None, ...]:
        u = t.units[code]
        return (u.attack_full, u.attack_reduced, u.range, u.armour, u.mp, u.back_attack_full, u.back_attack_reduced)

    assert row("S35") == (8, 6, 3, 5, 6, 7, 5)
    assert row("PZ3") == (6, 5, 3, 3, 6, 5, 4)
    assert row("PZ1") == (3, 2, 2, 1, 7, 2, 1)
    assert row("STUG") == (7, 5, 3, 5, 5, 6, 4)
    assert row("APC") == (2, 1, 0, 1, 6, 1, 1)
    assert row("B1") == (9, 7, 3, 6, 4, 8, 6)
    assert row("P178") == (5, 4, 2, 2, 10, 4, 3)
    assert row("PIO") == (8, 6, 1, 0, 3, 6, 4)  # AC-56
    assert row("FIN") == (5, 3, 2, 0, 3, 4, 2)  # AC-56
    assert row("SCH") == (6, 4, 2, 0, 3, 4, 3)  # AC-75
    assert row("AT47") == (8, 4, 3, 0, 4, 7, 3)
    assert t.units["H39"].mp == 5 and t.units["H39"].armour == 4  # AC-35, AC-63
    assert t.units["PIO"].attack(reduced_side=True) == 6
    assert t.units["S35"].attack(moving=True) == 6
    assert len(t.units) == 28  # 26 counter types + 2 HQs
    assert {c for c, u in t.units.items() if u.side == "german" and u.kind != "hq"} == {
        "PZ1", "PZ2", "PZ3", "PZ4", "STUG", "APC", "ACG", "SCH", "MGG", "KRD", "GDI", "GDM", "PIO", "PAK",
    }  # fmt: skip
    for code in ("hq_de", "hq_fr"):
        hq = t.units[code]
        assert (hq.steps, hq.attack_full, hq.range, hq.mp, hq.may_fire_directly) == (0, None, None, None, False)
    assert (t.units["hq_de"].command_range, t.units["hq_fr"].command_range) == (3, 2)  # 3.4, AC-16
    assert all(u.steps == 2 for u in t.units.values() if u.kind != "hq")  # 1.2


def test_1_1_derived_properties(t: Tables) -> None:
    move_class = {"infantry": "foot", "motorised": "wheeled", "tracked": "tracked", "hq": "formation"}
    cost_keys = {mc for c in t.terrain.classes.values() for mc in c.cost}
    for code, u in t.units.items():
        assert u.move_class == move_class[u.category], code
        assert u.move_class in cost_keys or u.kind == "hq", code
        assert u.armoured == (u.armour >= 1), code
        assert u.disperses == (u.kind in ("tank", "assault_gun", "armoured_car")), code
        assert u.visibility == ("vehicle" if u.kind in ("tank", "assault_gun", "armoured_car", "apc") else "small")
        assert u.red_n_affects == u.fortification_benefit == (u.category == "infantry"), code
        assert u.at_unit == (u.kind == "at_gun"), code
        assert u.doctrine_bound == (u.category in ("infantry", "tracked")), code
        assert u.may_fire_directly == (u.kind != "hq"), code
        # units.toml and visibility.toml agree on the class.
        assert u.kind in t.visibility[u.visibility].types, code
    assert {u.kind for u in t.units.values() if u.category == "infantry"} == {"infantry", "mg", "pioneer"}
    assert t.units["APC"].transport_capacity == 1


def test_4_1_visibility(t: Tables) -> None:
    vis = {name: (v.open, v.other) for name, v in t.visibility.items()}
    assert vis == {"vehicle": (8, 4), "small": (4, 2)}
    assert t.max_los == 8
    assert "mounted_infantry" in t.visibility["vehicle"].types  # AC-04: infantry mounted on an APC, open, 7 → visible
    assert t.visibility["vehicle"].distance(in_open=False) == 4


# 13.7 order of battle, the digest's Steps column.
PRINTED_STEPS = {
    "hannut": {
        "fra-1-kur": 10,
        "fra-2-kur": 10,
        "fra-12-kur": 8,
        "fra-i-11-rdp": 8,
        "fra-ii-11-rdp": 8,
        "fra-iii-11-rdp": 8,
        "fra-11-rdp-at": 2,
        "ger-i-5-pzr": 8,
        "ger-ii-5-pzr": 8,
        "ger-i-12-schr": 10,
        "ger-ii-12-schr": 8,
        "ger-kg-3pz": 6,
        "ger-i-35-pzr": 8,
        "ger-ii-35-pzr": 8,
        "ger-i-33-schr": 10,
    },
    "stonne": {
        "fra-i-205-ri": 8,
        "fra-ii-205-ri": 8,
        "fra-iii-205-ri": 8,
        "fra-205-ri-at": 2,
        "fra-4-bcc": 6,
        "fra-6-grdi": 8,
        "fra-45-bcc": 6,
        "fra-i-67-ri": 8,
        "fra-67-ri-at": 2,
        "fra-49-bcc": 6,
        "fra-ii-67-ri": 8,
        "ger-i-gd": 8,
        "ger-ii-gd": 8,
        "ger-iii-gd": 8,
        "ger-stupion-43": 6,
        "ger-stug-640": 4,
        "ger-pzjg-14-gd": 4,
        "ger-ii-pzr": 8,
        "ger-i-69-schr": 8,
        "ger-pzjg-14-schr-8x": 4,
    },
}


def test_13_7_oob_types_exist_and_steps_match(t: Tables) -> None:
    assert set(t.oob) == {"hannut", "stonne"}
    for scenario, formations in t.oob.items():
        ids = [f.id for f in formations]
        assert len(ids) == len(set(ids)), scenario
        assert {f.id: f.steps(t.units) for f in formations} == PRINTED_STEPS[scenario], scenario
        for f in formations:
            for g in f.units:
                assert g.type in t.units, (scenario, f.id, g.type)
                assert t.units[g.type].side == f.side, (scenario, f.id, g.type)
                assert t.units[g.type].kind != "hq"
            if f.id in t.formations:
                assert t.formations[f.id].side == f.side
            else:
                assert f.independent and not f.hq, f.id  # only independent unit groups have no FF
            for target in f.assign_to + ((f.assign_default,) if f.assign_default else ()):
                assert target in ids and target in t.formations, (f.id, target)


def test_13_7_oob_arrivals(t: Tables) -> None:
    stonne = {f.id: f for f in t.oob["stonne"]}
    assert {fid for fid, f in stonne.items() if f.arrives == 2} == {"fra-6-grdi"}
    assert {fid for fid, f in stonne.items() if f.arrives == 4} == {
        "fra-45-bcc",
        "fra-i-67-ri",
        "fra-67-ri-at",
        "fra-49-bcc",
    }
    assert {fid for fid, f in stonne.items() if f.arrives == 7} == {"ger-i-69-schr", "ger-pzjg-14-schr-8x"}
    assert {fid for fid, f in stonne.items() if f.arrives == 8} == {"fra-ii-67-ri"}
    b1 = stonne["fra-49-bcc"]
    assert [(g.count, g.arrives, g.independent_until) for g in b1.units] == [(1, 4, 8), (2, 8, None)]
    assert b1.hq_arrives == 8
    assert stonne["ger-ii-pzr"].leaves == 3
    assert stonne["fra-4-bcc"].independent and not stonne["fra-4-bcc"].hq
    assert all(f.entry == ("1310",) for f in stonne.values() if f.side == "french" and f.arrives)
    assert all(f.entry == ("0104", "0105", "0106", "0107", "0108") for f in stonne.values() if f.arrives == 7)
    assert t.oob_formation("hannut", "fra-2-kur").setup_step_losses == 4
    assert all(f.arrives == 0 for f in t.oob["hannut"])


# --- 12 Scenario chits --------------------------------------------------------------------------------------


def test_ac_68_hannut_chit_counts(t: Tables) -> None:
    h = t.chits["hannut"]
    fr, de = h.in_play("french", 1), h.in_play("german", 1)
    assert (fr.total, len(fr.formations), fr.artillery, fr.stuka, fr.replay, fr.general) == (10, 6, 2, 0, 1, 1)
    assert (de.total, len(de.formations), de.artillery, de.stuka, de.replay, de.general) == (17, 8, 3, 2, 2, 2)
    assert h.turn_1_side == "german"
    assert dict(h.turn_1_kept_out) == {"stuka": 1, "artillery": 1, "formation": 1}  # 2.8
    assert h.in_play("german", 6) == de  # no scheduled changes in Hannut


def test_ac_67_stonne_chit_schedule(t: Tables) -> None:
    s = t.chits["stonne"]

    def formations(side: str, turn: int, **kw: bool) -> set[str]:
        return set(s.in_play(side, turn, **kw).formations)

    base_fr = {"fra-i-205-ri", "fra-ii-205-ri", "fra-iii-205-ri", "fra-4-bcc"}
    base_de = {"ger-i-gd", "ger-ii-gd", "ger-iii-gd", "ger-pzjg-14-gd", "ger-stug-640", "ger-stupion-43", "ger-ii-pzr"}
    fr1, de1 = s.in_play("french", 1), s.in_play("german", 1)
    assert formations("french", 1) == base_fr
    assert formations("french", 1, include_optional=False) == base_fr - {"fra-4-bcc"}  # 4 BCC dissolved
    assert (fr1.artillery, fr1.replay, fr1.general, fr1.stuka) == (1, 1, 1, 0)
    assert formations("german", 1) == base_de
    assert (de1.artillery, de1.replay, de1.general, de1.stuka) == (1, 2, 2, 0)
    assert formations("french", 2) == base_fr | {"fra-6-grdi"}
    assert formations("german", 3) == base_de  # II/PZ.R leaves at the END of turn 3
    assert formations("german", 4) == base_de - {"ger-ii-pzr"}
    assert formations("french", 4) == base_fr | {"fra-6-grdi", "fra-45-bcc", "fra-i-67-ri", "fra-49-bcc"}
    assert s.in_play("french", 4).artillery == 2 and s.in_play("french", 3).artillery == 1
    assert (s.in_play("german", 5).artillery, s.in_play("german", 5).replay) == (1, 2)
    assert (s.in_play("german", 6).artillery, s.in_play("german", 6).replay) == (2, 3)
    assert formations("german", 7) == base_de - {"ger-ii-pzr"} | {"ger-i-69-schr", "ger-pzjg-14-schr-8x"}
    assert formations("french", 8) - formations("french", 7) == {"fra-ii-67-ri"}
    assert s.turn_1_side is None


def test_12_chit_formations_exist(t: Tables) -> None:
    for scenario, sc in t.chits.items():
        oob = {f.id: f for f in t.oob[scenario]}
        named = {f for side in sc.sides for f in sc.sides[side].formations}
        named |= {f for ch in sc.changes for f in ch.add_formations + ch.remove_formations}
        for fid in named:
            assert fid in t.formations and fid in oob, (scenario, fid)
        for side, chits in sc.sides.items():
            assert all(t.formations[f].side == side for f in chits.formations)
        # Every formation of the OOB with an HQ has a chit at some point (independent unit groups have none).
        assert {fid for fid, f in oob.items() if f.hq} <= named, scenario


# --- 12.1 / 13.8 Victory ------------------------------------------------------------------------------------


def test_ac_64_vp_windows(t: Tables) -> None:
    v = t.hannut_victory
    assert v.windows == ((8, 12), (14, 20), (16, 24), (20, 28), (26, 36), (32, 42))
    assert v.outcome(2, 13) == "french"
    assert v.outcome(1, 13) == "german"
    assert v.outcome(1, 12) == v.outcome(1, 8) == "continue"
    assert v.outcome(1, 7) == "french"
    assert (v.outcome(5, 37), v.outcome(5, 26)) == ("german", "continue")
    assert v.outcome(6, 32) == v.outcome(6, 42) == "draw"
    assert (v.outcome(6, 43), v.outcome(6, 31)) == ("german", "french")


def test_ac_65_hannut_start_vp(t: Tables) -> None:
    v = t.hannut_victory
    assert v.start_holder == "french"
    aw = v.awards
    second_kur = t.oob_formation("hannut", "fra-2-kur")
    assert {g.type for g in second_kur.units} <= aw.tank_types  # its 4 setup losses are tank steps
    start = aw.german_vp(
        french_tank_steps_lost=second_kur.setup_step_losses,
        french_other_steps_lost=0,
        objectives_held=0,
        german_steps_lost=0,
    )
    assert start == 8 == v.windows[0][0]
    # Germans take Thisnes, eliminate one H39 (2 steps), lose 1 step → 8 + 3 + 4 − 1 = 14.
    later = aw.german_vp(
        french_tank_steps_lost=4 + 2, french_other_steps_lost=0, objectives_held=1, german_steps_lost=1
    )
    assert later == 14
    assert (
        aw.german_vp(french_tank_steps_lost=0, french_other_steps_lost=0, objectives_held=0, german_steps_lost=5) == 0
    )
    assert (aw.french_other_step, aw.minimum) == (1, 0)


def test_13_8_objective_hexes(t: Tables) -> None:
    objectives = t.hannut_victory.objectives
    assert set(objectives) == {"0403", "0404", "0504", "1006", "1204", "1205", "1415", "1416", "1512"}
    cells, places = map_cells("hannut"), map_places("hannut")
    for hx, place in objectives.items():
        assert hx in places[place], (hx, place)
        assert t.terrain.codes[cells[hx][0]] == "village", hx


def test_12_2_stonne_victory(t: Tables) -> None:
    v = t.stonne_victory
    assert (v.side, v.hexes, v.check_turn, v.otherwise, v.start_holder) == (
        "german",
        ("0708", "0709"),
        10,
        "french",
        "french",
    )
    assert list(v.hexes) == map_places("stonne")["Stonne"]
    cells = map_cells("stonne")
    assert all(t.terrain.codes[cells[hx][0]] == "village" for hx in v.hexes)


def test_data_files_cite_the_digest() -> None:
    # Project rule: every table is TOML with comments citing the digest section.
    for name in ("terrain", "units", "crt", "modifiers", "formations", "reaction", "artillery", "victory", "chits"):
        text = (Path(__file__).resolve().parents[3] / "engine/rulesets/blitzkrieg1940/data" / f"{name}.toml").read_text(
            encoding="utf-8"
        )
        assert "rules digest" in text and "section" in text, name
