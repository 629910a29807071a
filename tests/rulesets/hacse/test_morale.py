"""Morale (§9) and the worked examples of §14.9."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.rulesets.hacse.firedata import Row, chance_at_most
from engine.rulesets.hacse.morale import (
    damage_trigger,
    full_chain,
    group_leader,
    leader_contact,
    may_rally,
    morale_result,
    morale_roll,
    morale_value,
    rolls_due,
    step_away_allowed,
)

from .fire_sheets import ger_inf_sqd, opel_blitz, pak40, pz4h, sdkfz251, t34


def test_14_9_mo_01_damage_and_no_leader() -> None:
    value, mods = morale_value(16, damage=7, no_leader=True)
    assert value == 16 - 7 - 4 == 5
    assert [m.reason for m in mods] == [
        "morale value (rule 9.1)",
        "7 damage (rule 9.4)",
        "no contact to a leader (rule 9.4)",
    ]


@pytest.mark.parametrize(("roll", "result"), [(5, "steady"), (6, "shaken"), (14, "shaken"), (15, "dissolved")])
def test_14_9_mo_02_results(roll: int, result: str) -> None:
    assert morale_roll(16, damage=7, no_leader=True).result(roll) == result


def test_14_9_mo_03_full_chain_of_leaders() -> None:
    assert morale_value(16, damage=3, full_chain=True)[0] == 17
    assert full_chain(group_leader_intact=True, platoon_leader=True, further_leader=True)
    assert not full_chain(group_leader_intact=True, platoon_leader=True, further_leader=False)
    assert not full_chain(group_leader_intact=False, platoon_leader=True, further_leader=True)


def test_14_9_mo_04_suicide_attack() -> None:
    roll = morale_roll(16, suicide=True)
    assert roll.value == 10
    assert roll.result(10) == "steady"
    assert roll.result(11) == "dissolved"


def test_14_9_mo_05_immobilised_vehicle_failing_by_1_dissolves() -> None:
    assert morale_result(12, 13, immobilised_vehicle=True) == "dissolved"
    assert morale_result(12, 13) == "shaken"


@pytest.mark.parametrize(("damage", "rolls"), [(6, False), (7, True)])
def test_14_9_mo_06_panzer_iv_half_of_14(damage: int, rolls: bool) -> None:
    assert pz4h().possible_damage == 14
    assert damage_trigger(14, damage) is rolls


def test_14_9_mo_07_opel_blitz_third_damage() -> None:
    assert opel_blitz().possible_damage == 5
    assert damage_trigger(5, 3)
    assert not damage_trigger(5, 2)


def test_14_9_mo_08_one_roll_per_cause_per_turn() -> None:
    first = rolls_due(["damage", "burning"])
    assert first == ("damage", "burning")
    assert rolls_due(["damage"], used_this_turn=first) == ()
    assert rolls_due(["damage", "damage"]) == ("damage",)
    with pytest.raises(ValueError, match="unknown morale cause"):
        rolls_due(["panic"])


def test_9_1_odds_of_a_morale_roll() -> None:
    odds = morale_roll(16, damage=7, no_leader=True).odds()
    assert odds["steady"] == chance_at_most(5) == Fraction(10, 100)
    assert odds["dissolved"] == 1 - chance_at_most(14) == Fraction(21, 100)
    assert sum(odds.values()) == 1


def test_9_2_group_leaders_of_the_roster() -> None:
    assert group_leader("infantry", ger_inf_sqd().rows) == 10
    assert group_leader("gun", pak40().rows) == 5
    assert group_leader("vehicle", pz4h().rows) == 1
    assert group_leader("vehicle", t34().rows) == 1
    assert group_leader("vehicle", sdkfz251().rows) == 1
    assert group_leader("vehicle", opel_blitz().rows) == 2  # no commander, no main weapon: the last soldier


def test_9_2_vehicle_without_commander_follows_the_main_gunner() -> None:
    rows = (
        Row(1, "soldier", "driver"),
        Row(2, "soldier", "gunner"),
        Row(3, "soldier", "loader"),
        Row(4, "weapon", mount="hull", main=True, operator=3),
        Row(5, "weapon", mount="turret", main=True, operator=2),
    )
    assert group_leader("vehicle", rows) == 2
    assert group_leader("vehicle", rows[:4]) == 3
    assert group_leader("gun", rows[:3]) == 3
    assert group_leader("vehicle", (Row(1, "engine"),)) is None


def test_9_2_contact_to_a_leader() -> None:
    assert leader_contact(group_leader_intact=True, reaches_leader=False)
    assert leader_contact(group_leader_intact=False, reaches_leader=True)
    assert not leader_contact(group_leader_intact=False, reaches_leader=False)


def test_9_4_burning_and_flames_give_one_minus_4() -> None:
    assert morale_value(16, burning=True)[0] == 12


def test_9_5_rally_from_the_next_turn_and_moving_away() -> None:
    assert not may_rally(3, 3)
    assert may_rally(3, 4)
    assert step_away_allowed(2, 3)
    assert not step_away_allowed(2, 2)
