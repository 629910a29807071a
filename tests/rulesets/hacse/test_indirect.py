"""Indirect fire and random hits (§7) and the worked examples of §14.8."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.errors import IllegalActionError
from engine.rulesets.hacse.fire import Ammo, Shot, ToHit, range_band, rules_shots
from engine.rulesets.hacse.firedata import TWO_D10, chance_at_least, mod
from engine.rulesets.hacse.indirect import (
    carry_over,
    check_without_sight,
    count_groups,
    hex_fire,
    indirect_odds,
    random_hit,
    random_hit_kind,
    random_hit_tn,
    random_hits_in_hex,
    resolve_indirect,
    scatter,
    side_hit,
    smoke_turns,
    variable_damage,
    victim,
    with_sight_outcome,
    with_sight_roll,
    without_sight_landing,
    without_sight_tn,
)
from engine.rulesets.hacse.targetdie import target_die

from .fire_sheets import GW34, KWK40, MORTAR_HE, SPRGR34, Script, ger_inf_sqd, pz4h, sdkfz251, two_d10


def test_14_8_in_01_no_sight_hex_target() -> None:
    tn, mods = without_sight_tn(4)
    assert tn == 14
    assert "rule 7.4" in mods[1].reason


def test_14_8_in_02_no_sight_one_relay() -> None:
    assert without_sight_tn(4, relays=1)[0] == 15


def test_7_4_firer_modifiers_add_to_the_hex_tn() -> None:
    moved = mod(2, "firer moved this turn", "6.3")
    shaken = mod(5, "firer shaken", "9.5")
    assert without_sight_tn(4, firer=(moved, shaken))[0] == 21


@pytest.mark.parametrize(("roll", "result"), [(7, "random-hit check"), (6, "no effect")])
def test_14_8_in_03_half_the_tn(roll: int, result: str) -> None:
    assert with_sight_outcome(ToHit(13, (), "short", frozenset({2}), 40), roll) == result


def test_7_2_tn_21_to_40_cannot_hit_the_unit_but_may_hit_by_chance() -> None:
    to_hit = ToHit(24, (), "long", frozenset({2}), 40)
    assert to_hit.possible
    assert with_sight_outcome(to_hit, 20) == "random-hit check"
    assert with_sight_outcome(to_hit, 11) == "no effect"
    assert with_sight_outcome(to_hit, 2) == "jam"


def test_7_2_with_sight_adds_2_and_doubles_ranges() -> None:
    die = target_die(profile=0, infantry=True, mp=3, mp_spent=3)
    shot = Shot(4, KWK40, SPRGR34, distance=20, target_die=die, target_infantry=True)
    to_hit = with_sight_roll(shot)
    assert to_hit.band == "medium"  # 15-28 when doubled
    assert to_hit.tn == 4 + 4 + 2 - 6
    assert "indirect fire (rule 7.2)" in [m.reason for m in to_hit.modifiers]


def test_14_8_in_04_embarked_groups_do_not_count() -> None:
    groups = count_groups(units=3, embarked=1)
    assert groups == 2
    assert random_hit_tn(he=3, groups=groups) == 20


def test_14_8_in_05_mortar_on_a_hex_uses_double_he() -> None:
    assert GW34.burst
    assert random_hit_tn(he=3, groups=2, hex_burst=True) == 17
    assert rules_shots(1, hex_burst=True) == 2


def test_14_8_in_06_he_10_four_groups() -> None:
    assert random_hit_tn(he=10, groups=4) == 11


def test_14_8_in_07_even_roll_from_above_full_damage() -> None:
    assert random_hit_kind(18) == "above"
    # Dk 2 against top armour 1: 1 + 3 = 4 points on the top column: 5 commander, 7 engine, 8 turret, 3 fuel tank
    dice = Script([*two_d10(5), *two_d10(7), *two_d10(8), *two_d10(3)])
    result = random_hit(pz4h(), 18, dice, ammo=SPRGR34, dk_range=2)
    assert result.column == "top"
    assert result.damage == 4
    assert result.allocation.rows == (1, 7, 10, 8)
    assert dice.used_up


def test_14_8_in_08_odd_roll_side_hit_variable_damage() -> None:
    assert random_hit_kind(17) == "side"
    result = random_hit(ger_inf_sqd(), 17, Script([3]), ammo=SPRGR34, dk_range=2)
    assert (result.kind, result.damage, result.dk) == ("side", 3, 1)
    assert result.allocation.rows == (1, 2, 3)


@pytest.mark.parametrize(
    ("he", "damage"),
    [
        (1, "1"),
        (2, "1"),
        (3, "1d3"),
        (5, "1d3"),
        (6, "1d6"),
        (9, "1d6"),
        (10, "1d10"),
        (19, "1d10"),
        (20, "2d10"),
        (29, "2d10"),
    ],
)
def test_14_8_in_09_variable_damage_by_he(he: int, damage: str) -> None:
    assert str(variable_damage(he)) == damage


def test_7_3_variable_damage_above_the_table_and_its_distribution() -> None:
    assert str(variable_damage(30)) == "3d10"
    assert str(variable_damage(47)) == "4d10"
    assert variable_damage(3).distribution() == {1: Fraction(1, 3), 2: Fraction(1, 3), 3: Fraction(1, 3)}
    assert variable_damage(20).distribution() == dict(TWO_D10)


@pytest.mark.parametrize(("die", "where"), [(6, "beyond"), (7, "short")])
def test_14_8_in_10_scatter_by_parity(die: int, where: str) -> None:
    assert scatter(die) == where
    assert without_sight_landing(14, 9, die) == where


def test_7_4_hex_hit_lands_on_target_and_a_jam_does_nothing() -> None:
    assert without_sight_landing(14, 14) == "target"
    assert without_sight_landing(14, 2) == "jam"
    with pytest.raises(ValueError, match="scatter die"):
        without_sight_landing(14, 9)


def test_14_8_in_11_kwk_fired_indirectly_doubles_its_bands() -> None:
    bands = {d: range_band(KWK40, d, indirect=True) for d in (14, 15, 28, 29, 54)}
    assert bands == {14: "short", 15: "medium", 28: "medium", 29: "long", 54: "long"}
    with pytest.raises(IllegalActionError):
        range_band(KWK40, 55, indirect=True)
    assert range_band(GW34, 32, indirect=True) == "long"  # indirect-only weapons keep their bands
    with pytest.raises(IllegalActionError, match=r"minimum range"):
        range_band(GW34, 0, indirect=True)


def test_14_8_in_12_without_sight_needs_a_precondition() -> None:
    with pytest.raises(IllegalActionError, match=r"rule 7\.4"):
        check_without_sight(hex_tn=21, neighbour_tns=[21] * 6)
    check_without_sight(hex_tn=20)
    check_without_sight(hex_tn=21, neighbour_tns=[20, 19, 18, 21, 21, 21])
    with pytest.raises(IllegalActionError):
        check_without_sight(hex_tn=21, neighbour_tns=[20, 19, 21, 21, 21, 21])
    check_without_sight(hex_tn=21, map_station=True)
    check_without_sight(hex_tn=21, fired_from_hex=True)


def test_14_8_in_13_smoke_shell() -> None:
    smoke = Ammo("smoke", 0, 3, is_smoke=True)
    assert smoke_turns(smoke) == 3
    assert smoke_turns(SPRGR34) == 0


def test_14_8_in_14_even_random_hit_on_infantry_he_plus_1() -> None:
    result = random_hit(ger_inf_sqd(), 18, Script([]), ammo=SPRGR34, dk_range=2)
    assert result.damage == 4
    assert result.allocation.rows == (1, 2, 3, 4)


def test_7_3_odd_hit_against_armour_needs_half_damage_to_beat_side_armour() -> None:
    # 1d3 = 1 -> Dk 0 < side 1 of the half-track: nothing
    result = random_hit(sdkfz251(), 17, Script([1, *two_d10(8)]), ammo=SPRGR34, dk_range=2)
    assert result.damage == 0
    # 1d3 = 3 -> Dk 1 >= side 1: 3 points, the first on the location rolled (8: side column -> crew)
    result = random_hit(sdkfz251(), 17, Script([3, *two_d10(8), 1, *two_d10(4), *two_d10(5)]), ammo=SPRGR34, dk_range=2)
    assert result.damage == 3
    assert result.allocation.rows[0] == 1
    # a track/axle location has half armour: side 3 of the Panzer IV -> 1, so Dk 1 gets through
    result = random_hit(pz4h(), 17, Script([3, *two_d10(6), *two_d10(14), *two_d10(17)]), ammo=SPRGR34, dk_range=2)
    assert result.damage == 3
    assert result.allocation.rows == (6, 7, 8)


def test_7_3_mortar_variable_damage() -> None:
    assert str(variable_damage(MORTAR_HE.he)) == "1d3"


def test_7_3_carry_over_and_victim() -> None:
    assert carry_over(5) == (5, 2, "side")
    assert victim(1, Script([])) == 0
    assert victim(3, Script([2])) == 1
    with pytest.raises(ValueError, match="needs a unit"):
        victim(0, Script([]))
    blitz_crew = ger_inf_sqd()
    result = random_hit(blitz_crew, 18, Script([]), ammo=Ammo("HE", 2, 12), dk_range=2)
    assert result.damage == 13
    assert result.carried == 3


def test_7_2_indirect_odds() -> None:
    to_hit = ToHit(13, (), "short", frozenset({2}), 40)
    odds = indirect_odds(to_hit, he=3, groups=2)
    assert sum(odds.values()) == 1
    assert odds["hit"] == chance_at_least(13)
    assert odds["jam"] == Fraction(1, 100)
    half = sum((p for r, p in TWO_D10.items() if 7 <= r < 13), Fraction(0))
    assert odds["random hit"] == half * chance_at_least(20)


# --- procedures ---------------------------------------------------------------------------------------------------


def test_7_3_random_hits_in_hex_with_carry_over() -> None:
    # HE 12, 2 groups: TN 25 - 12 - 2 = 11. Roll 12 (even): full damage to the victim (die 1: the squad of 10 rows),
    # HE + 1 = 13 points: 10 rows, 3 carried over as a side hit with Dk 1 to the other unit (the only one left).
    big = Ammo("HE", 2, 12)
    units = [ger_inf_sqd(), ger_inf_sqd()]
    dice = Script([*two_d10(12), 1])
    result = random_hits_in_hex(units, dice, ammo=big, dk_range=2, groups=2)
    assert (result.roll, result.tn) == (12, 11)
    assert [i for i, _ in result.hits] == [0, 1]
    assert result.hits[0][1].allocation.rows == tuple(range(1, 11))
    carried = result.hits[1][1]
    assert (carried.kind, carried.damage, carried.dk) == ("side", 3, 1)
    assert carried.allocation.rows == (1, 2, 3)
    assert dice.used_up


def test_7_3_random_hit_roll_below_the_tn_strikes_nobody() -> None:
    result = random_hits_in_hex([ger_inf_sqd()], Script(two_d10(19)), ammo=SPRGR34, dk_range=2, groups=1)
    assert result.tn == 21
    assert result.hits == ()
    with pytest.raises(ValueError, match="smoke"):
        random_hits_in_hex([ger_inf_sqd()], Script([]), ammo=Ammo("smoke", 0, 3, is_smoke=True), dk_range=0, groups=1)


def test_7_3_carried_damage_against_armour_is_a_side_hit() -> None:
    # 4 points carried to a Panzer IV: Dk 2 < side 3 on a crew location: nothing
    assert side_hit(pz4h(), 4, Script(two_d10(8))).damage == 0
    # on a track/axle (half armour 1) it gets through: 4 points
    result = side_hit(pz4h(), 4, Script([*two_d10(6), *two_d10(14), *two_d10(17), *two_d10(3), 1]))
    assert result.damage == 4
    assert result.allocation.rows == (
        6,
        7,
        8,
        1,
    )  # track, engine (14), fuel tank (17), then 3 -> fuel hit -> 4 ... crew


def test_7_2_resolve_indirect_checks_random_hits_on_a_near_miss() -> None:
    die = target_die(profile=0, infantry=True, mp=3, mp_spent=0)
    # a mortar (burst) with sight at 12 hexes: TN 4 + 4 (medium) + 3 (kept MP) + 2 (indirect) - 6 (HE 3) = 7
    shot = Shot(4, GW34, MORTAR_HE, distance=12, target_die=die, target_infantry=True)
    assert with_sight_roll(shot).tn == 7
    units = [ger_inf_sqd(), sdkfz251()]
    # first roll 4: a miss, 8 >= 7 -> random-hit check: roll 20 (TN 25 - 3 - 2 = 20), victim die 1 (the squad),
    # even: HE + 1 = 4 points; second roll (burst) 9: a hit on the squad, from above, 1 + 2 // 3 = 1 point
    dice = Script([*two_d10(4), *two_d10(20), 1, *two_d10(9)])
    result = resolve_indirect(shot, units, 0, dice, groups=2, burst=True)
    assert [o.roll for o in result.attack.rolls] == [4, 9]
    assert len(result.hex_hits) == 1
    ((index, hit),) = result.hex_hits[0].hits
    assert (index, hit.kind, hit.damage) == (0, "above", 4)
    assert hit.allocation.rows == (1, 2, 3, 4)
    assert result.attack.hits[0].column == "top"
    assert result.attack.rows_hit == (5,)  # the random hit's casualties count for the burst's second roll
    assert dice.used_up


def test_7_4_hex_fire_lands_or_scatters() -> None:
    assert hex_fire(14, Script(two_d10(15))) == (15, "target")
    assert hex_fire(14, Script([*two_d10(9), 4])) == (9, "beyond")
    assert hex_fire(14, Script([*two_d10(9), 3])) == (9, "short")
    assert hex_fire(14, Script([1, 1])) == (2, "jam")
