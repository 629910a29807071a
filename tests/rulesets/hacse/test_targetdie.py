"""The target-modifier die (§5) and the worked examples of §14.1."""

from __future__ import annotations

import pytest

from engine.rulesets.hacse.targetdie import has_moved, movement_modifier, target_die


@pytest.mark.parametrize(
    ("case", "hexes", "expected"),
    [
        ("AC-MM-01", 0, 0),
        ("AC-MM-02", 1, 1),
        ("AC-MM-03", 3, 1),
        ("AC-MM-04", 4, 2),
        ("AC-MM-05", 8, 2),
        ("AC-MM-06", 9, 3),
        ("AC-MM-07", 15, 3),
        ("AC-MM-07", 16, 4),
        ("AC-MM-07", 24, 4),
        ("AC-MM-07", 25, 5),
    ],
)
def test_14_1_mm_01_to_07_vehicle_movement_modifier(case: str, hexes: int, expected: int) -> None:
    assert movement_modifier(infantry=False, hexes_entered=hexes) == expected, case


def test_14_1_mm_08_turn_in_place_gives_die_0_but_counts_as_moved() -> None:
    die = target_die(profile=0, infantry=False, hexes_entered=0)
    assert die.value == 0
    assert has_moved(2)
    assert not has_moved(0)


@pytest.mark.parametrize(("spent", "expected"), [(0, 3), (1, 2), (2, 1), (3, 0)])
def test_14_1_mm_09_infantry_mp_kept(spent: int, expected: int) -> None:
    assert movement_modifier(infantry=True, mp=3, mp_spent=spent) == expected


def test_14_1_mm_10_infantry_half_mp_rounds_down() -> None:
    assert movement_modifier(infantry=True, mp=3, mp_spent=1.5) == 1


def test_14_1_mm_11_panzer_iv_moved_5_in_light_forest() -> None:
    die = target_die(profile=0, infantry=False, hexes_entered=5, terrain=("light_forest",))
    assert die.value == 5
    assert [m.value for m in die.modifiers] == [2, 3]


def test_14_1_mm_12_squad_spent_1_in_dense_forest() -> None:
    die = target_die(profile=0, infantry=True, mp=3, mp_spent=1, terrain=("dense_forest",))
    assert die.value == 7


def test_14_1_mm_13_hmg_dug_in_in_rough() -> None:
    die = target_die(profile=0, infantry=True, mp=2, mp_spent=0, terrain=("rough",), dug_in=True)
    assert die.value == 6
    assert any("dug in" in m.reason and "13.8" in m.reason for m in die.terrain)


def test_14_1_mm_14_pak40_not_moved_in_rough() -> None:
    die = target_die(profile=1, infantry=False, hexes_entered=0, terrain=("rough",))
    assert die.value == 2


def test_14_1_mm_15_hmg_after_spending_1_mp_loses_the_trench() -> None:
    die = target_die(profile=0, infantry=True, mp=2, mp_spent=1, terrain=("rough",), dug_in=False)
    assert die.value == 2


def test_5_terrain_entries_of_the_hit_column() -> None:
    def die(*terrain: str) -> int:
        return target_die(profile=0, infantry=False, terrain=terrain).value

    assert (die("clear"), die("road"), die("light_forest"), die("dense_forest"), die("mangrove_forest")) == (
        0,
        0,
        3,
        5,
        5,
    )
    assert (die("rough"), die("rubble"), die("elephant_grass"), die("smoke")) == (1, 1, 0, 0)
    assert die("rough", "smoke") == 1


def test_5_same_hex_die_drops_the_terrain_part() -> None:
    die = target_die(profile=-1, infantry=False, hexes_entered=4, terrain=("dense_forest",), dug_in=True)
    assert die.value == -1 + 2 + 5 + 3
    assert sum(m.value for m in die.without_terrain()) == 1


def test_5_modifiers_cite_rule_5() -> None:
    die = target_die(profile=1, infantry=True, mp=3, mp_spent=0, terrain=("light_forest",))
    assert all("(rule 5)" in m.reason for m in die.modifiers)
    assert [m.value for m in die.modifiers] == [1, 3, 3]
