"""Physical attacks and ramming (§12) and the worked examples of §14.10."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.errors import IllegalActionError
from engine.rulesets.hacse.fire import hit_roll
from engine.rulesets.hacse.morale import morale_roll
from engine.rulesets.hacse.ramming import (
    check_ram,
    is_suicide,
    ram_allocation,
    ram_building,
    ram_damage,
    ram_shot,
    vs_infantry_damage,
)
from engine.rulesets.hacse.targetdie import target_die

from .fire_sheets import Script, opel_blitz, pz4h, sdkfz251, t34


def test_14_10_rm_01_panzer_iv_rams_a_t34_in_the_side() -> None:
    ram = ram_damage(v=4, w_own=25, w_enemy=30.9, a_enemy=t34().armour_of("side"), a_own=pz4h().armour_of("front"))
    assert (ram.to_enemy, ram.to_rammer) == (5, 4)
    assert [t.value for t in ram.terms] == [10, -5, 12, -8]
    assert all("rule 12.2" in t.reason for t in ram.terms)


def test_14_10_rm_02_not_a_suicide() -> None:
    assert pz4h().possible_damage == 14
    assert not is_suicide(4, 14)


def test_14_10_rm_03_t34_rams_a_panzer_iv_in_the_rear() -> None:
    ram = ram_damage(v=6, w_own=30.9, w_enemy=25, a_enemy=pz4h().armour_of("rear"), a_own=t34().armour_of("front"))
    assert (ram.to_enemy, ram.to_rammer) == (16, 6)
    assert t34().possible_damage == 13
    assert not is_suicide(6, 13)


@pytest.mark.parametrize(("armour", "damage"), [(1, 2), (2, 5), (3, 10)])
def test_14_10_rm_04_opel_blitz_rams_buildings(armour: int, damage: int) -> None:
    _, to_rammer = ram_building(v=5, w_own=3.3, a_building=armour, a_own=0, wheeled=True)
    assert to_rammer == damage


def test_14_10_rm_05_ramming_a_medium_building_is_a_suicide_for_the_truck() -> None:
    _, to_rammer = ram_building(v=5, w_own=3.3, a_building=2, a_own=0, wheeled=True)
    assert is_suicide(to_rammer, opel_blitz().possible_damage)
    roll = morale_roll(16, suicide=True)
    assert roll.value == 10
    assert roll.result(11) == "dissolved"


def test_14_10_rm_06_panzer_iv_rams_a_medium_building() -> None:
    assert ram_building(v=3, w_own=25, a_building=2, a_own=8, wheeled=False)[1] == 0


def test_14_10_rm_07_no_ram_without_entering_the_targets_hex() -> None:
    with pytest.raises(IllegalActionError, match=r"did not enter the target's hex this turn \(rule 12\.1\)"):
        check_ram(vehicle=True, entered_target_hex=False, rammed_this_turn=False)
    assert ram_damage(v=0, w_own=25, w_enemy=30.9, a_enemy=5, a_own=8).to_enemy == 0
    check_ram(vehicle=True, entered_target_hex=True, rammed_this_turn=False)
    with pytest.raises(IllegalActionError, match=r"already rammed"):
        check_ram(vehicle=True, entered_target_hex=True, rammed_this_turn=True)
    with pytest.raises(IllegalActionError, match=r"only vehicles"):
        check_ram(vehicle=False, entered_target_hex=True, rammed_this_turn=False)


def test_14_10_rm_08_vehicle_rams_infantry() -> None:
    die = target_die(profile=0, infantry=True, mp=3, mp_spent=1, terrain=("light_forest",))
    to_hit = hit_roll(ram_shot(4, die, moved=True, target_infantry=True))
    assert to_hit.tn == 4 + 4 + 2 + 2  # B + 4 + die without its terrain (2 MP kept) + moved
    assert "physical attack (rule 12.1)" in [m.reason for m in to_hit.modifiers]
    assert vs_infantry_damage() == 1


def test_14_10_rm_09_ram_damage_hits_tracks_first_fuel_and_ammunition_last() -> None:
    dice = Script([3, 7])
    rows = ram_allocation(pz4h(), 3, dice)
    assert rows[0] == 6
    assert not {8, 9} & set(rows)
    assert dice.used_up
    everything_but = replace(pz4h(), hit=frozenset(set(range(1, 15)) - {8, 9}))
    assert set(ram_allocation(everything_but, 2, Script([1]))) == {8, 9}


def test_14_10_rm_10_building_rammed_by_an_opel_blitz() -> None:
    to_building, _ = ram_building(v=5, w_own=3.3, a_building=2, a_own=0, wheeled=True)
    assert to_building == 0


def test_12_1_vehicle_against_a_building_has_no_plus_4() -> None:
    to_hit = hit_roll(ram_shot(4, moved=True))
    assert to_hit.tn == 4 + 2


def test_12_3_cargo_beds_take_no_ram_damage_and_extra_points_are_lost() -> None:
    truck = opel_blitz()
    rows = ram_allocation(truck, 9, Script([1, 1, 1]))
    assert sorted(rows) == [1, 2, 3, 4, 5]
    assert rows[0] == 3
    assert sdkfz251().possible_damage == 9
