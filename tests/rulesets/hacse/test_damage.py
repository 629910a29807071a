"""Damage, penetration, hit locations and hit effects (§8, §15.6): §14.7 and the hit-location cases of §14.13."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from engine.rulesets.hacse.damage import (
    Target,
    allocate,
    apply_hit,
    armour_used,
    building_damage,
    burning_damage,
    destroyed_with_building,
    effective_dk,
    effects,
    infantry_damage,
    locate,
    location_odds,
    max_armour,
    near_miss,
    passengers_after,
    range_dk,
    secondary_damage,
    secondary_hit,
    vehicle_damage,
)
from engine.rulesets.hacse.fire import Building, Shot, hit_roll, resolve_attack, shot_odds
from engine.rulesets.hacse.firedata import Row
from engine.rulesets.hacse.targetdie import target_die

from .fire_sheets import (
    BALL,
    K98,
    KWK40,
    PZGR39,
    Script,
    ger_inf_sqd,
    opel_blitz,
    pak40,
    pz4h,
    sdkfz251,
    sherman,
    t34,
    two_d10,
)

# --- §14.7 penetration and damage ---------------------------------------------------------------------------------


def test_14_7_dk_01_medium_range_roll_equal_to_tn() -> None:
    dk, mods = effective_dk(10, "medium", roll=11, tn=11)
    assert dk == 8
    assert [m.reason for m in mods] == ["medium range (rule 8.2)", "roll equal to the TN (rule 8.2)"]


def test_14_7_dk_02_long_range_roll_5_above() -> None:
    assert effective_dk(10, "long", roll=17, tn=12)[0] == 10 - 2 + 1 == 9


def test_14_7_dk_03_natural_20_and_margin_are_cumulative() -> None:
    assert effective_dk(10, "short", roll=20, tn=9)[0] == 10 + 1 + 11 // 5 == 13


def test_14_7_dk_04_big_ap_against_side_armour_4() -> None:
    dmg = vehicle_damage(8, 4, he=1, is_ap=True)
    assert dmg.penetrates
    assert dmg.amount == 1 + 1 + 4 // 3 + 1 == 4
    assert [m.value for m in dmg.parts] == [1, 1, 1, 1]
    assert "big AP shell" in dmg.parts[-1].reason and "8.3" in dmg.parts[-1].reason


def test_14_7_dk_05_ht_01_with_roll_equal_to_tn_on_the_sherman_side() -> None:
    die = target_die(profile=-1, infantry=False, hexes_entered=6)
    shot = Shot(4, KWK40, PZGR39, distance=10, target_die=die, firer_moved=True)
    assert hit_roll(shot).tn == 11
    # hit roll 11; first location 8 on the side column: Crew (5 intact, pick the 2nd); three more points:
    # location 13 (track/axle), 14 (engine), 16 (crew, pick the 1st of the 4 left)
    dice = Script([*two_d10(11), *two_d10(8), 2, *two_d10(13), *two_d10(14), *two_d10(16), 1])
    attack = resolve_attack(shot, sherman(), "side", dice)
    hit = attack.hits[0]
    assert hit.armour == 4
    assert hit.damage.amount == 4
    assert hit.allocation.rows == (2, 6, 7, 1)
    assert dice.used_up


def test_14_7_dk_06_track_axle_has_half_armour() -> None:
    target = sherman()
    loc = locate(target, "side", 9)
    assert loc is not None and loc.name == "track_axle"
    armour = armour_used(target, "side", loc)
    assert armour == 2
    assert vehicle_damage(8, armour, he=1, is_ap=True).amount == 1 + 1 + 6 // 3 + 1 == 5


def test_14_7_dk_07_dk_7_against_front_9() -> None:
    dmg = vehicle_damage(7, 9, he=1, is_ap=True)
    assert not dmg.penetrates
    assert dmg.amount == 0


def test_14_7_dk_08_dk_10_against_front_9() -> None:
    assert vehicle_damage(10, 9, he=1, is_ap=True).amount == 3


def test_14_7_dk_09_dk_12_against_armour_8_big_ap_2() -> None:
    assert vehicle_damage(12, 8, he=0, is_ap=True).amount == 1 + 0 + 1 + 2 == 4


@pytest.mark.parametrize(("dk", "amount"), [(6, 2), (5, 1)])
def test_14_7_dk_10_big_ap_threshold_10(dk: int, amount: int) -> None:
    assert vehicle_damage(dk, 4, he=0, is_ap=True).amount == amount


def test_14_7_dk_11_he_shell_against_half_track_side() -> None:
    dk, _ = effective_dk(2, "short", roll=9, tn=8)
    assert dk == 2
    assert vehicle_damage(dk, 1, he=3, is_ap=False).amount == 4


@pytest.mark.parametrize(("margin", "amount"), [(1, 0), (5, 4)])
def test_14_7_dk_12_he_shell_against_panzer_iv_side(margin: int, amount: int) -> None:
    dk, _ = effective_dk(2, "short", roll=8 + margin, tn=8)
    assert vehicle_damage(dk, 3, he=3, is_ap=False).amount == amount


def test_14_7_dk_13_indirect_he_from_above() -> None:
    dk, _ = effective_dk(2, "short", roll=12, tn=11)
    assert vehicle_damage(dk, pz4h().armour_of("top"), he=3, is_ap=False).amount == 4


def test_14_7_dk_14_rifle_on_a_truck_needs_no_check() -> None:
    dk, _ = effective_dk(1, "long", roll=13, tn=12)
    assert dk == -1
    dmg = vehicle_damage(dk, 0, he=0, is_ap=False)
    assert dmg.penetrates
    assert dmg.amount == 1


def test_14_7_dk_15_non_he_hit_on_infantry() -> None:
    assert infantry_damage(he=0, margin=12) == 1
    result = apply_hit(ger_inf_sqd(), "side", Script([]), dk_eff=0, he=0)
    assert result.allocation.rows == (1,)


def test_14_7_dk_16_riders_take_1_from_a_non_penetrating_hit() -> None:
    tank = replace(pz4h(), riders=True)
    result = apply_hit(tank, "front", Script(two_d10(7)), dk_eff=2, he=0)
    assert not result.damage.penetrates
    assert result.allocation.rows == ()
    assert result.riders == 1
    assert apply_hit(pz4h(), "front", Script(two_d10(7)), dk_eff=2, he=0).riders == 0


# --- §14.13 hit location and infantry casualties --------------------------------------------------------------------


def test_14_13_hl_01_opel_blitz_main_weapon_falls_through_to_crew() -> None:
    loc = locate(opel_blitz(), "front", 11)
    assert loc is not None
    assert (loc.name, loc.rows) == ("crew", (1, 2))
    dice = Script([*two_d10(11), 2])
    alloc = allocate(opel_blitz(), "front", 1, dice)
    assert alloc.rows == (2,)
    assert dice.calls[-1] == (2, 1, "which crew row")


def test_14_13_hl_02_panzer_iv_side_cargo_is_crew() -> None:
    loc = locate(pz4h(), "side", 4)
    assert loc is not None
    assert (loc.name, loc.rows) == ("crew", (1, 2, 3, 4, 5))


def test_14_13_hl_03_sdkfz251_cargo_bed_with_10_aboard() -> None:
    loc = locate(sdkfz251(embarked=1), "side", 12)
    assert loc is not None and loc.cargo
    alloc = allocate(sdkfz251(embarked=1), "side", 1, Script(two_d10(12)))
    assert (alloc.cargo_hits, alloc.rows, alloc.absorbed) == (1, (), 0)


def test_14_13_hl_04_sdkfz251_cargo_bed_empty() -> None:
    alloc = allocate(sdkfz251(), "side", 1, Script(two_d10(12)))
    assert (alloc.cargo_hits, alloc.rows, alloc.absorbed) == (0, (), 1)


def test_14_13_hl_05_squad_takes_3_damage() -> None:
    squad = ger_inf_sqd()
    alloc = allocate(squad, "side", 3, Script([]))
    assert alloc.rows == (1, 2, 3)
    left = [r for r in squad.rows if r.index not in alloc.rows]
    rifles = [r for r in left if r.role not in ("mg gunner", "leader")]
    assert len(rifles) == 5  # rows 4-7 and 9 carry K98s: the pool is 5
    assert {r.role for r in left} >= {"mg gunner", "leader"}


def test_14_13_hl_06_squad_takes_9_damage() -> None:
    squad = ger_inf_sqd()
    alloc = allocate(squad, "side", 9, Script([]))
    assert alloc.rows == tuple(range(1, 10))
    after = replace(squad, hit=frozenset(alloc.rows))
    assert [r.index for r in after.intact(after.rows)] == [10]
    assert not effects(after).out_of_action
    assert effects(replace(squad, hit=frozenset(range(1, 11)))).out_of_action


def test_14_13_hl_07_pak40_gun_and_crew() -> None:
    gun = pak40()
    loc = locate(gun, "front", 3)
    assert loc is not None and (loc.name, loc.rows) == ("gun", (6,))
    assert effects(replace(gun, hit=frozenset({6}))).out_of_action
    loc = locate(gun, "front", 10)
    assert loc is not None and (loc.name, loc.rows) == ("crew", (1,))
    loc = locate(replace(gun, hit=frozenset({1, 2})), "side", 10)
    assert loc is not None and loc.rows == (3,)


# --- §15.6 the resulting odds per 100 -----------------------------------------------------------------------------


def full_sheet() -> Target:
    """A sheet with every location kind (the Panzer IV and a cargo bed), as the §15.6 odds assume."""
    tank = pz4h()
    return replace(tank, rows=(*tank.rows, Row(15, "cargo_bed")))


ODDS_15_6 = {
    "front": dict(
        track_axle=20,
        crew=21,
        turret=17,
        main_weapon=10,
        equipment=8,
        hull_weapon=7,
        commander=6,
        any_weapon=4,
        engine=3,
        fuel_tank=2,
        ammunition=2,
    ),
    "side": dict(
        track_axle=27,
        crew=25,
        cargo=12,
        turret=10,
        engine=7,
        any_weapon=6,
        fuel_tank=6,
        equipment=3,
        commander=2,
        ammunition=2,
    ),
    "rear": dict(
        engine=35, track_axle=20, crew=13, fuel_tank=10, cargo=9, any_weapon=5, equipment=4, commander=2, ammunition=2
    ),
    "top": dict(
        crew=24,
        turret=17,
        engine=15,
        main_weapon=9,
        cargo=9,
        any_weapon=7,
        commander=6,
        fuel_tank=6,
        equipment=5,
        ammunition=2,
    ),
}


@pytest.mark.parametrize("column", ["front", "side", "rear", "top"])
def test_15_6_location_odds_per_100(column: str) -> None:
    odds = location_odds(full_sheet(), column)
    assert odds == {k: Fraction(v, 100) for k, v in ODDS_15_6[column].items()}


def test_15_6_fall_through_wraps_from_20_to_2() -> None:
    # the Opel Blitz has no ammunition row: 20 -> 2 (ammunition) -> 3 (fuel tank)
    loc = locate(opel_blitz(), "front", 20)
    assert loc is not None and (loc.name, loc.rows) == ("fuel_tank", (5,))


def test_15_6_commander_hit_already_falls_back_to_crew() -> None:
    loc = locate(replace(pz4h(), hit=frozenset({1})), "front", 19)
    assert loc is not None and (loc.name, loc.rows) == ("crew", (2, 3, 4, 5))


def test_15_6_nothing_left_to_hit() -> None:
    blitz = opel_blitz()
    wreck = replace(blitz, hit=frozenset(r.index for r in blitz.rows if r.counts))
    assert locate(wreck, "side", 10) is None
    alloc = allocate(wreck, "side", 2, Script(two_d10(10)))
    assert alloc.lost == 2


def test_8_5_further_points_roll_new_locations_without_a_new_armour_check() -> None:
    # first point on the engine (rear 7): rear armour 2 is beaten by Dk 8 -> 1 + 1 + 2 + 1 = 5 points
    # then 5 (engine, already hit -> 6 track/axle), 3 (fuel tank), 16 (any weapon: the 2nd of rows 11-13),
    # 2 (ammunition)
    dice = Script([*two_d10(7), *two_d10(5), *two_d10(3), *two_d10(16), 2, *two_d10(2)])
    result = apply_hit(pz4h(), "rear", dice, dk_eff=8, he=1, is_ap=True)
    assert result.armour == 2
    assert result.damage.amount == 5
    assert result.allocation.rows == (7, 6, 8, 12, 9)
    assert [loc.name for loc in result.allocation.locations] == [
        "engine",
        "track_axle",
        "fuel_tank",
        "any_weapon",
        "ammunition",
    ]
    assert dice.used_up


# --- §8.5 hit effects ---------------------------------------------------------------------------------------------


def test_8_5_effects_by_row_kind() -> None:
    tank = pz4h()

    def hit(*rows: int) -> Target:
        return replace(tank, hit=frozenset(rows))

    assert effects(hit(6)).immobilised and not effects(hit(6)).burning
    assert effects(hit(7)).immobilised
    fuel = effects(hit(8))
    assert fuel.immobilised and fuel.burning and fuel.smoke and not fuel.destroyed
    ammo = effects(hit(9))
    assert ammo.destroyed and ammo.smoke and ammo.secondary and ammo.out_of_action
    assert effects(hit(10)).turret_jammed
    assert effects(hit(11, 14)).lost == (11, 14)
    assert effects(hit(1, 2, 3, 4, 5)).out_of_action and not effects(hit(1, 2, 3, 4, 5)).destroyed
    assert effects(hit(*range(1, 15))).destroyed


def test_8_5_ammunition_trailer_adds_a_further_point() -> None:
    gun = replace(pak40(), rows=(*pak40().rows, Row(7, "ammo_trailer")))
    dice = Script([*two_d10(18), *two_d10(10)])
    alloc = allocate(gun, "front", 1, dice)
    assert alloc.rows == (7, 1)
    assert effects(replace(gun, hit=frozenset({7}))).ammo_trailer
    assert effects(replace(gun, hit=frozenset({7}))).secondary


def test_8_5_gun_18_without_trailer_is_the_gun() -> None:
    loc = locate(pak40(), "front", 18)
    assert loc is not None and loc.name == "gun"


# --- §8.4, §8.6, §8.7 buildings and secondary damage ---------------------------------------------------------------


def test_14_11_bd_02_near_miss_by_10_hits_the_building() -> None:
    assert near_miss(15, 5)
    assert not near_miss(15, 4)
    assert not near_miss(15, 15)


def test_14_11_bd_03_higher_of_unit_and_building_armour() -> None:
    assert max_armour(sdkfz251().armour_of("side"), 3) == 3


def test_14_11_bd_01_who_dies_with_a_light_building() -> None:
    assert destroyed_with_building(0, 1)  # infantry
    assert not destroyed_with_building(pz4h().armour_of("top"), 1)
    assert destroyed_with_building(sdkfz251().armour_of("top"), 1)


def test_8_6_building_damage_uses_the_vehicle_formula_with_range_dk() -> None:
    dk, _ = range_dk(2, "medium")
    assert dk == 1
    assert building_damage(dk, 2, he=3) == 0
    assert building_damage(10, 2, he=1) == 1 + 1 + 8 // 3


def test_8_7_secondary_damage() -> None:
    assert secondary_damage() == (1, 2, "side")


def test_8_1_he_infantry_damage_steps() -> None:
    assert [infantry_damage(he=3, margin=m) for m in (0, 2, 3, 6, 9, 12)] == [1, 1, 2, 3, 4, 4]
    assert infantry_damage(he=1, margin=20) == 2


def test_8_2_no_margin_bonus_on_a_miss() -> None:
    assert effective_dk(5, "short", roll=4, tn=9)[0] == 5


def test_8_4_armoured_unit_in_a_building_uses_the_higher_armour() -> None:
    halftrack = sdkfz251().sheltered(3)
    assert halftrack.armour == (3, 3, 3, 3)
    assert pz4h().sheltered(3).armour == (8, 3, 3, 3)
    assert ger_inf_sqd().sheltered(3).armour == (0, 0, 0, 0)  # infantry: the +5 of §6.3 b protects it


def test_8_4_bunker_occupants_need_dk_at_least_the_bunker_armour() -> None:
    squad = replace(ger_inf_sqd(), bunker=6)
    stopped = apply_hit(squad, "side", Script([]), dk_eff=5, he=0)
    assert not stopped.damage.penetrates
    assert "rule 8.4" in stopped.damage.parts[0].reason
    through = apply_hit(squad, "side", Script([]), dk_eff=6, he=0)
    assert through.allocation.rows == (1,)


def test_8_4_bunker_in_the_shot_odds() -> None:
    die = target_die(profile=0, infantry=True, mp=3, mp_spent=3)
    rifles = Shot(4, K98, BALL, distance=2, target_die=die, target_infantry=True, building=Building(6, bunker=True))
    odds = shot_odds(rifles, replace(ger_inf_sqd(), bunker=6), "side")
    assert odds.hit > 0
    assert odds.penetrate == 0
    kwk = Shot(4, KWK40, PZGR39, distance=2, target_die=die, target_infantry=True, building=Building(6, bunker=True))
    assert shot_odds(kwk, replace(ger_inf_sqd(), bunker=6), "side").penetrate == hit_roll(kwk).chance


def test_8_5_burning_deals_1_on_the_side_column_without_armour_check() -> None:
    burning = replace(pz4h(), hit=frozenset({8}))
    result = burning_damage(burning, Script(two_d10(7)))  # side 7: track/axle, side armour 3 does not matter
    assert result.allocation.rows == (6,)
    assert effects(replace(burning, hit=frozenset({6, 8}))).burning


def test_8_7_secondary_hit_is_1_point_with_dk_2_from_the_side() -> None:
    stopped = secondary_hit(pz4h(), Script(two_d10(8)))  # side 8: crew, armour 3 > Dk 2
    assert not stopped.damage.penetrates
    through = secondary_hit(sdkfz251(), Script([*two_d10(14)]))  # side 14: engine, armour 1 <= Dk 2
    assert through.allocation.rows == (4,)
    assert secondary_hit(ger_inf_sqd(), Script([])).allocation.rows == (1,)


def test_8_5_passengers_of_a_destroyed_or_wrecked_vehicle() -> None:
    halftrack = sdkfz251(embarked=1)
    assert passengers_after(effects(halftrack), ammunition_hit=False) is None
    assert passengers_after(effects(replace(halftrack, hit=frozenset({6}))), ammunition_hit=True) == "destroyed"
    assert passengers_after(effects(replace(halftrack, hit=frozenset({1, 2}))), ammunition_hit=False) == "dismount"


def test_15_6_commander_location_finds_a_commander_gunner() -> None:
    loc = locate(t34(), "front", 19)
    assert loc is not None and (loc.name, loc.rows) == ("commander", (1,))
