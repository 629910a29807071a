"""The hit roll (§6.3–6.8), the fire options of §11 and the worked examples of §14.6 (and AC-OF, AC-HM of §14.12)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from engine.actions import Action
from engine.errors import IllegalActionError
from engine.odds import Odds
from engine.rulesets.hacse.fire import (
    Building,
    RollOutcome,
    Shot,
    ToHit,
    bundle_ease,
    check_aimed_row,
    check_rapid,
    check_sustained,
    hit_roll,
    jam_cleared,
    opportunity_eligible,
    pools,
    range_band,
    resolve_attack,
    rules_shots,
    shot_odds,
    sustained_attack,
    sustained_hits,
    sustained_line,
    sustained_rules_shots,
)
from engine.rulesets.hacse.firedata import TWO_D10, Row
from engine.rulesets.hacse.targetdie import target_die

from .fire_sheets import (
    BALL,
    CCW,
    K98,
    KWK40,
    M1,
    MELEE,
    MG34V,
    MG42H,
    MP40,
    PZGR39,
    SMG_BALL,
    SPRGR34,
    Script,
    ger_inf_sqd,
    pz4h,
    sdkfz251,
    sherman,
    two_d10,
)

SHERMAN_MOVED_6 = target_die(profile=-1, infantry=False, hexes_entered=6)
SHERMAN_STILL = target_die(profile=-1, infantry=False)
SQUAD_IN_FOREST = target_die(profile=0, infantry=True, mp=3, mp_spent=2, terrain=("light_forest",))


def kwk_shot(distance: int, **kw: object) -> Shot:
    return Shot(4, KWK40, PZGR39, distance=distance, target_die=SHERMAN_MOVED_6, firer_moved=True, **kw)  # type: ignore[arg-type]


def squad_shot(**kw: object) -> Shot:
    base = Shot(4, K98, BALL, distance=5, target_die=SQUAD_IN_FOREST, target_infantry=True, pooled=8)
    return replace(base, **kw)  # type: ignore[arg-type]


def reasons(to_hit: ToHit) -> list[str]:
    return [m.reason for m in to_hit.modifiers]


# --- §14.6 --------------------------------------------------------------------------------------------------------


def test_14_6_ht_01_panzer_iv_at_sherman_medium_range() -> None:
    to_hit = hit_roll(kwk_shot(10))
    assert to_hit.tn == 11
    assert to_hit.band == "medium"
    assert [m.value for m in to_hit.modifiers] == [4, 4, -1, 2, 2]
    assert reasons(to_hit)[1] == "medium range (rule 6.3)"
    assert reasons(to_hit)[-1] == "firer moved this turn (rule 6.3)"
    assert to_hit.chance == Fraction(55, 100)


def test_14_6_ht_02_same_shot_at_long_range() -> None:
    to_hit = hit_roll(kwk_shot(20))
    assert to_hit.tn == 15
    assert to_hit.band == "long"
    assert "long range (rule 6.3)" in reasons(to_hit)


def test_14_6_ht_03_short_range_both_stationary() -> None:
    shot = Shot(4, KWK40, PZGR39, distance=5, target_die=SHERMAN_STILL)
    assert hit_roll(shot).tn == 3


def test_14_6_ht_04_pool_of_8_rifles_at_infantry_in_forest() -> None:
    to_hit = hit_roll(squad_shot())
    assert to_hit.tn == 4 + 4 + 3 + 1 - 8 == 4
    assert "8 shooters (rule 11.3)" in reasons(to_hit)


def test_14_6_ht_05_pool_roll_13_deals_4_damage() -> None:
    dice = Script(two_d10(13))
    attack = resolve_attack(squad_shot(), ger_inf_sqd(), "side", dice)
    assert attack.rolls[0].hit
    assert attack.rolls[0].margin == 9
    assert attack.rows_hit == (1, 2, 3, 4)
    assert dice.used_up


def test_14_6_ht_05_pool_damage_is_capped_at_the_pool_size() -> None:
    shot = squad_shot(pooled=3)
    attack = resolve_attack(shot, ger_inf_sqd(), "side", Script(two_d10(20)))
    assert attack.to_hit.tn == 9
    assert len(attack.rows_hit) == 3  # 1 + 11 // 3 = 4, capped at 3 weapons


def test_14_6_ht_06_natural_2_misses_and_jams_the_pool() -> None:
    attack = resolve_attack(squad_shot(), ger_inf_sqd(), "side", Script([1, 1]))
    assert attack.jammed
    assert not attack.hits
    assert attack.to_hit.tn == 4


def test_14_6_ht_07_he_at_infantry_eases_by_2_per_he() -> None:
    shot = Shot(4, KWK40, SPRGR34, distance=5, target_die=SQUAD_IN_FOREST, target_infantry=True)
    to_hit = hit_roll(shot)
    assert to_hit.tn == 4 + 0 + 3 + 1 - 6 == 2
    assert "HE 3 against infantry (rule 11.4)" in reasons(to_hit)
    assert to_hit.chance == Fraction(99, 100)  # only the natural 2 misses


@pytest.mark.parametrize(("roll", "damage"), [(15, 4), (20, 4)])
def test_14_6_ht_08_he_damage_against_infantry_capped_at_he_plus_1(roll: int, damage: int) -> None:
    die = target_die(profile=0, infantry=True, mp=3, mp_spent=0, terrain=("dense_forest",))
    shot = Shot(4, KWK40, SPRGR34, distance=5, target_die=die, target_infantry=True)
    assert hit_roll(shot).tn == 4 + 0 + 3 + 5 - 6 == 6
    attack = resolve_attack(shot, ger_inf_sqd(), "side", Script(two_d10(roll)))
    assert len(attack.rows_hit) == damage


@pytest.mark.parametrize(("count", "expected"), [(2, (1, 1)), (3, (3,)), (10, (10,)), (12, (10, 1, 1))])
def test_14_6_ht_09_numerous_shooters_pools(count: int, expected: tuple[int, ...]) -> None:
    assert pools(count, K98) == expected
    for size in expected:
        shot = squad_shot(pooled=size)
        ease = [m.value for m in hit_roll(shot).modifiers if "shooters" in m.reason]
        assert ease == ([-size] if size >= 3 else [])


@pytest.mark.parametrize(("count", "ease"), [(2, 1), (3, 1), (4, 2), (7, 2), (8, 3), (16, 4)])
def test_14_6_ht_10_bundled_weapons_ease(count: int, ease: int) -> None:
    assert bundle_ease(count) == ease
    shot = squad_shot(pooled=1, bundled=count)
    assert f"{count} bundled weapons (rule 11.5)" in reasons(hit_roll(shot))
    assert bundle_ease(count, built_in=True) == 0


def test_14_6_ht_11_bundled_damage_capped_at_the_number_of_weapons() -> None:
    shot = squad_shot(distance=3, pooled=1, bundled=4)  # TN 4 + 3 + 1 - 2 = 6
    attack = resolve_attack(shot, ger_inf_sqd(), "side", Script(two_d10(hit_roll(shot).tn + 12)))
    assert len(attack.rows_hit) == 4


def test_14_6_ht_12_aimed_rapid_and_semi_automatic_rapid() -> None:
    plain = hit_roll(squad_shot(pooled=1)).tn
    assert hit_roll(squad_shot(pooled=1, aimed=True)).tn == plain + 5
    assert hit_roll(squad_shot(pooled=1, rapid=True)).tn == plain + 5
    semi = replace(squad_shot(pooled=1, rapid=True), weapon=M1)
    assert hit_roll(semi).tn == plain + 3
    assert "rapid fire, semi-automatic (rule 11.2)" in reasons(hit_roll(semi))


def test_14_6_ht_13_rapid_fire_jams_on_a_natural_3() -> None:
    to_hit = hit_roll(squad_shot(rapid=True))
    assert to_hit.outcome(3).jammed
    assert not to_hit.outcome(3).hit
    assert not hit_roll(squad_shot()).outcome(3).jammed
    assert to_hit.odds()["jam"] == Fraction(3, 100)


def test_14_6_ht_14_rapid_fire_refused_to_infantry_that_moved() -> None:
    with pytest.raises(IllegalActionError, match=r"rule 11\.2"):
        check_rapid(infantry=True, moved=True)
    check_rapid(infantry=True, moved=False)
    check_rapid(infantry=False, moved=True)


def test_14_6_ht_15_shaken_firer() -> None:
    plain = hit_roll(kwk_shot(10)).tn
    to_hit = hit_roll(kwk_shot(10, shaken=True))
    assert to_hit.tn == plain + 5
    assert "firer shaken (rule 9.5)" in reasons(to_hit)


def test_14_6_ht_16_passenger_firing_from_a_moving_open_half_track() -> None:
    plain = hit_roll(squad_shot()).tn
    assert hit_roll(squad_shot(from_vehicle=True, firer_moved=True)).tn == plain + 3 + 2


@pytest.mark.parametrize(("relays", "extra"), [(1, 1), (2, 2)])
def test_14_6_ht_17_relayed_sighting(relays: int, extra: int) -> None:
    plain = hit_roll(squad_shot()).tn
    assert hit_roll(squad_shot(relays=relays)).tn == plain + extra


def test_14_6_ht_18_same_hex_infantry_in_a_building_in_dense_forest() -> None:
    die = target_die(profile=0, infantry=True, mp=3, mp_spent=3, terrain=("dense_forest",))
    shot = Shot(
        4,
        K98,
        BALL,
        distance=0,
        target_die=die,
        target_infantry=True,
        same_hex=True,
        both_infantry=True,
        building=Building(3),
        intervening=("dense_forest",),
    )
    to_hit = hit_roll(shot)
    assert to_hit.tn == 4
    assert not any("building" in r or "forest" in r for r in reasons(to_hit))


def test_14_6_ht_19_same_hex_against_a_bunker_keeps_the_5() -> None:
    die = target_die(profile=0, infantry=True, mp=3, mp_spent=3)
    shot = Shot(
        4,
        K98,
        BALL,
        distance=0,
        target_die=die,
        target_infantry=True,
        same_hex=True,
        both_infantry=True,
        building=Building(6, bunker=True),
    )
    assert hit_roll(shot).tn == 4 + 5


@pytest.mark.parametrize(("distance", "plus"), [(3, 0), (5, 5)])
def test_14_6_ht_20_rifle_against_a_light_building(distance: int, plus: int) -> None:
    die = target_die(profile=0, infantry=True, mp=3, mp_spent=3)
    shot = Shot(4, K98, BALL, distance=distance, target_die=die, target_infantry=True, building=Building(1))
    to_hit = hit_roll(shot)
    assert to_hit.tn == 4 + (4 if distance > 3 else 0) + plus


@pytest.mark.parametrize(("armour", "plus"), [(2, 0), (3, 5)])
def test_14_6_ht_21_kwk_he_against_medium_and_heavy_buildings(armour: int, plus: int) -> None:
    die = target_die(profile=0, infantry=True, mp=3, mp_spent=3)
    shot = Shot(4, KWK40, SPRGR34, distance=5, target_die=die, target_infantry=True, building=Building(armour))
    assert hit_roll(shot).tn == 4 + plus - 6


def test_14_6_ht_22_two_vehicles_in_the_line_of_fire() -> None:
    plain = hit_roll(kwk_shot(10)).tn
    assert hit_roll(kwk_shot(10, vehicles_in_line=2)).tn == plain + 2


def test_14_6_ht_23_tn_above_20_is_impossible() -> None:
    shot = kwk_shot(20, aimed=True, shaken=True)
    to_hit = hit_roll(shot)
    assert to_hit.tn == 25
    assert not to_hit.possible
    with pytest.raises(IllegalActionError, match=r"rule 6\.3"):
        resolve_attack(shot, sherman(), "front", Script([]))
    assert hit_roll(kwk_shot(20, aimed=True)).possible  # TN 20 may still be tried


# --- §14.12 opportunity fire and sustained fire -------------------------------------------------------------------


def test_14_12_of_01_stood_still_and_not_fired_is_eligible() -> None:
    assert opportunity_eligible(activated=True, mp_spent=0, fired=False)
    assert not opportunity_eligible(activated=False, mp_spent=0, fired=False)
    assert not opportunity_eligible(activated=True, mp_spent=0, fired=True)


def test_14_12_of_02_turning_60_degrees_spends_mp_and_ends_eligibility() -> None:
    assert not opportunity_eligible(activated=True, mp_spent=1, fired=False)


def test_6_7_opportunity_fire_uses_the_movers_die_so_far() -> None:
    # §5 (P): during an interrupt the die is computed from the movement made so far.
    after_2 = target_die(profile=-1, infantry=False, hexes_entered=2)
    after_4 = target_die(profile=-1, infantry=False, hexes_entered=4)
    tn2 = hit_roll(Shot(4, KWK40, PZGR39, distance=5, target_die=after_2)).tn
    tn4 = hit_roll(Shot(4, KWK40, PZGR39, distance=5, target_die=after_4)).tn
    assert (tn2, tn4) == (4, 5)


@pytest.mark.parametrize(("roll", "hits"), [(13, 5), (9, 1), (8, 0)])
def test_14_12_hm_01_sustained_fire_hits_per_point(roll: int, hits: int) -> None:
    to_hit = ToHit(9, (), "short", frozenset({2}), 20)
    assert sustained_hits(to_hit.outcome(roll)) == hits


def test_14_12_hm_02_mg42_doubled_sustained_fire() -> None:
    assert sustained_rules_shots(MG42H) == (30, 1)
    assert sustained_rules_shots(MG42H, doubled=True) == (60, 2)
    with pytest.raises(IllegalActionError, match=r"rule 11\.6"):
        sustained_rules_shots(MG34V, doubled=True)


def test_11_6_sustained_fire_conditions() -> None:
    check_sustained(MG42H, infantry=True, moved=False)
    for weapon, infantry, moved in ((MG34V, True, False), (MG42H, False, False), (MG42H, True, True)):
        with pytest.raises(IllegalActionError, match=r"rule 11\.6"):
            check_sustained(weapon, infantry=infantry, moved=moved)


def test_11_6_sustained_line_skips_lower_hexes_and_stops_at_higher() -> None:
    assert sustained_line([2, 2, 1, 2, 3, 2], own_level=2) == (0, 1, 3)
    assert sustained_line([], own_level=0) == ()


def test_11_6_a_jammed_sustained_roll_hits_nothing() -> None:
    assert sustained_hits(RollOutcome(2, 2, False, True)) == 0


# --- Other rules of §6 and §11 ------------------------------------------------------------------------------------


def test_6_3_range_bands_and_refusals() -> None:
    assert [range_band(K98, d) for d in (0, 3, 4, 6, 7, 10)] == ["short"] * 2 + ["medium"] * 2 + ["long"] * 2
    with pytest.raises(IllegalActionError, match=r"beyond the long range of the Karabiner 98k \(10\) \(rule 6\.3\)"):
        range_band(K98, 11)


def test_7_1_indirect_fire_doubles_the_bands_of_direct_capable_guns() -> None:
    assert range_band(KWK40, 54, indirect=True) == "long"
    assert range_band(KWK40, 28, indirect=True) == "medium"
    with pytest.raises(IllegalActionError, match=r"rule 7\.1"):
        range_band(KWK40, 55, indirect=True)


def test_6_3_natural_2_always_misses_even_at_tn_2() -> None:
    to_hit = ToHit(2, (), "short", frozenset({2}), 20)
    assert not to_hit.outcome(2).hit
    assert to_hit.outcome(3).hit


def test_6_5_burst_makes_a_second_roll_at_the_same_tn() -> None:
    die = target_die(profile=0, infantry=True, mp=3, mp_spent=3)
    shot = Shot(4, MP40, BALL, distance=1, target_die=die, target_infantry=True)
    dice = Script([*two_d10(10), *two_d10(3)])
    attack = resolve_attack(shot, ger_inf_sqd(), "side", dice, burst=True)
    assert [o.roll for o in attack.rolls] == [10, 3]
    assert attack.rows_hit == (1,)
    assert dice.used_up
    assert rules_shots(len(attack.rolls)) == 2
    without = resolve_attack(shot, ger_inf_sqd(), "side", Script(two_d10(10)))
    assert len(without.rolls) == 1


def test_6_6_jam_ends_the_attack_and_clears_after_one_turn() -> None:
    die = target_die(profile=0, infantry=True, mp=3, mp_spent=3)
    shot = Shot(4, MP40, BALL, distance=1, target_die=die, target_infantry=True)
    attack = resolve_attack(shot, ger_inf_sqd(), "side", Script([1, 1]), burst=True)
    assert attack.jammed
    assert len(attack.rolls) == 1
    assert not jam_cleared(3, 3)
    assert jam_cleared(3, 4)


def test_11_2_rapid_fire_doubles_the_rolls() -> None:
    die = target_die(profile=0, infantry=True, mp=3, mp_spent=3)
    shot = Shot(4, MP40, BALL, distance=1, target_die=die, target_infantry=True, rapid=True)
    dice = Script([*two_d10(12)] * 4)
    attack = resolve_attack(shot, ger_inf_sqd(), "side", dice, burst=True)
    assert len(attack.rolls) == 4
    assert attack.rows_hit == (1, 2, 3, 4)


def test_11_1_aimed_row_checks() -> None:
    check_aimed_row(Row(6, "track_axle"))
    for kind in ("ammunition", "fuel_tank"):
        with pytest.raises(IllegalActionError, match=r"rule 11\.1"):
            check_aimed_row(Row(9, kind))
    with pytest.raises(IllegalActionError, match=r"needs direct fire"):
        check_aimed_row(Row(6, "track_axle"), indirect=True)


def test_11_1_aimed_shot_sends_the_first_point_to_the_chosen_row() -> None:
    shot = Shot(4, KWK40, PZGR39, distance=5, target_die=SHERMAN_STILL, aimed=True)
    # TN 4 - 1 + 5 = 8; roll 10: Dk 10 against the turret's front armour 9 -> 1 + 1 + 0 + 1 (big AP) = 3 points;
    # the first goes to the turret (row 10), the others roll locations: 9 (track/axle), 11 (main weapon).
    dice = Script([*two_d10(10), *two_d10(9), *two_d10(11)])
    attack = resolve_attack(shot, sherman(), "front", dice, aimed_row=10)
    hit = attack.hits[0]
    assert hit.armour == 9
    assert hit.damage.amount == 3
    assert hit.allocation.rows == (10, 6, 11)
    assert dice.used_up


def test_11_3_hand_grenades_never_pool() -> None:
    grenade = replace(K98, key="HG", name="hand grenade", poolable=False)
    assert pools(4, grenade) == (1, 1, 1, 1)


def test_12_1_physical_attack_plus_4_at_range_0() -> None:
    die = target_die(profile=0, infantry=True, mp=3, mp_spent=3, terrain=("dense_forest",))
    shot = Shot(4, CCW, MELEE, distance=0, target_die=die, target_infantry=True, same_hex=True, physical=True, pooled=8)
    to_hit = hit_roll(shot)
    assert to_hit.tn == 4 + 4 - 8
    assert "physical attack (rule 12.1)" in reasons(to_hit)


def test_6_8_non_penetrating_hit_on_a_sherman_front() -> None:
    shot = Shot(4, K98, BALL, distance=2, target_die=SHERMAN_STILL)
    dice = Script([*two_d10(15), *two_d10(11)])
    attack = resolve_attack(shot, sherman(), "front", dice)
    assert attack.hits[0].damage.penetrates is False
    assert attack.rows_hit == ()


def test_8_6_misses_by_10_or_less_hit_the_building() -> None:
    die = target_die(profile=0, infantry=True, mp=3, mp_spent=3)
    shot = Shot(4, K98, BALL, distance=8, target_die=die, target_infantry=True, building=Building(2))
    assert hit_roll(shot).tn == 4 + 8 + 5 == 17
    attack = resolve_attack(shot, ger_inf_sqd(), "side", Script(two_d10(7)))
    assert attack.building_hits == 1
    attack = resolve_attack(shot, ger_inf_sqd(), "side", Script(two_d10(6)))
    assert attack.building_hits == 0


def test_shot_odds_kwk_at_sherman_side() -> None:
    odds = shot_odds(kwk_shot(10), sherman(), "side")
    assert odds.hit == Fraction(55, 100)
    assert odds.jam == Fraction(1, 100)
    assert sum(odds.damage.values()) == 1
    assert odds.damage[0] == 1 - odds.penetrate
    assert 0 < odds.penetrate <= odds.hit
    assert sum(odds.location.values()) == 1
    # Dk 10 at medium is at least 9 > side 4 on every hit, so every hit penetrates.
    assert odds.penetrate == odds.hit


def test_shot_odds_rifles_at_a_sherman_only_through_the_tracks() -> None:
    # TN 3. Front armour 9 stops Dk 1, but a track/axle (20 % from the front, §15.6) has half armour, 4: rolls of
    # 18 and 19 (Dk 1 + 3) and 20 (Dk 1 + 1 + 3) get through (§8.2, §8.5).
    shot = Shot(4, K98, BALL, distance=2, target_die=SHERMAN_STILL)
    odds = shot_odds(shot, sherman(), "front")
    assert odds.hit == Fraction(99, 100)
    assert odds.location["track_axle"] == Fraction(20, 100)
    assert odds.penetrate == Fraction(6, 100) * Fraction(20, 100)


def test_shot_odds_pool_damage_distribution() -> None:
    odds = shot_odds(squad_shot(), ger_inf_sqd(), "side")
    expected = {0: Fraction(3, 100)}  # TN 4: rolls 2 and 3 miss
    for roll, p in TWO_D10.items():
        if roll >= 4:
            amount = min(1 + (roll - 4) // 3, 8)
            expected[amount] = expected.get(amount, Fraction(0)) + p
    assert odds.damage == dict(sorted(expected.items()))


# --- §11 options through the attack procedure ---------------------------------------------------------------------


def test_11_3_four_smgs_make_two_pooled_rolls() -> None:
    die = target_die(profile=0, infantry=True, mp=3, mp_spent=3)
    shot = Shot(4, MP40, SMG_BALL, distance=1, target_die=die, target_infantry=True, pooled=4)
    assert pools(4, MP40) == (4,)
    dice = Script([*two_d10(10), *two_d10(3)])
    attack = resolve_attack(shot, ger_inf_sqd(), "side", dice, burst=True)
    assert attack.to_hit.tn == 4 - 4
    assert [o.roll for o in attack.rolls] == [10, 3]
    assert len(attack.rows_hit) == 4 + 2  # 1 + 10 // 3 = 4 (cap 4), then 1 + 3 // 3 = 2
    assert rules_shots(len(attack.rolls)) == 2


def test_11_3_pool_extra_damage_comes_after_the_armour_check() -> None:
    # 8 rifles (Dk 1) at the half-track's side (armour 1), short range: TN 4 + 0 - 8 = -4
    halftrack = sdkfz251()
    shot = Shot(4, K98, BALL, distance=2, target_die=target_die(profile=0, infantry=False), pooled=8)
    dice = Script([*two_d10(5), *two_d10(8), 1, *two_d10(14), *two_d10(17), *two_d10(18)])
    attack = resolve_attack(shot, halftrack, "side", dice)
    hit = attack.hits[0]
    assert hit.damage.penetrates
    # effective Dk 1 + 1 (9 above the TN) = 2 >= armour 1: 1 + (2 - 1) // 3 = 1 point by the vehicle formula ...
    assert hit.damage.amount == 1
    # ... and the pool's 9 // 3 = 3 points after the armour check: crew (row 1), engine, fuel tank, radio
    assert hit.allocation.rows == (1, 4, 5, 9)


def test_11_5_bundled_he_weapons_deal_he_plus_1_per_3_points() -> None:
    he1 = replace(BALL, key="HE", he=1)
    die = target_die(profile=0, infantry=True, mp=3, mp_spent=3)
    shot = Shot(4, K98, he1, distance=2, target_die=die, target_infantry=True, bundled=8)
    to_hit = hit_roll(shot)
    assert to_hit.tn == 4 - 2 - 3
    attack = resolve_attack(shot, ger_inf_sqd(), "side", Script(two_d10(6)))
    assert len(attack.rows_hit) == 1 + 2 * 2  # 7 above the TN: 2 steps of HE 1 + 1


def test_11_6_sustained_attack_on_a_squad_and_doubled() -> None:
    die = target_die(profile=0, infantry=True, mp=3, mp_spent=3)
    shot = Shot(4, MG42H, BALL, distance=8, target_die=die, target_infantry=True)
    assert hit_roll(shot).tn == 4 + 4 + 0
    attack = sustained_attack(shot, ger_inf_sqd(), "side", Script(two_d10(12)))
    assert attack.rows_hit == (1, 2, 3, 4, 5)
    doubled = sustained_attack(shot, ger_inf_sqd(), "side", Script([*two_d10(8), *two_d10(9)]), doubled=True)
    assert [o.roll for o in doubled.rolls] == [8, 9]
    assert doubled.rows_hit == (1, 2, 3)  # 1 hit, then 2


def test_11_6_sustained_hits_on_a_vehicle_each_check_armour() -> None:
    shot = Shot(4, MG42H, BALL, distance=3, target_die=target_die(profile=0, infantry=False))
    dice = Script([*two_d10(5), *two_d10(10), *two_d10(6)])  # TN 4, roll 5: 2 hits; locations 10 (crew), 6 (track)
    attack = sustained_attack(shot, pz4h(), "side", dice)
    assert [h.damage.penetrates for h in attack.hits] == [False, True]  # side 3 stops Dk 1; the track has 1
    assert attack.rows_hit == (6,)


def test_shot_odds_entries_fit_engine_odds() -> None:
    odds = shot_odds(kwk_shot(10), sherman(), "side")
    entries = odds.entries()
    table = Odds(Action("fire", ("ger-pz4-1", "us-m4-1")), entries)  # refuses entries that do not sum to 1
    assert table.probability("jam") == Fraction(1, 100)
    assert table.probability("miss") == Fraction(44, 100)
    assert table.probability("no penetration") == 0
    assert table.expected == pytest.approx(float(sum(n * p for n, p in odds.damage.items())))
