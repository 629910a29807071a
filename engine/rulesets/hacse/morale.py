"""Provides the HACSE morale calculators (§9): the modified morale value, the roll's result, triggers, leaders.

- A morale roll succeeds on 2d10 ≤ the modified morale value (§9.1); failing makes the unit shaken (it fires at
  +5 and may only move away from the enemy, §9.5); failing by 10 or more, or on a suicide order, or as an
  immobilised vehicle, dissolves it (:func:`morale_result`, :func:`morale_roll`).
- The value (§9.4): −1 per damage, −4 burning or attacked with flames, −4 without contact to a leader, −6 for a
  suicide attack, +4 with group leader, platoon leader and a further leader in contact (:func:`morale_value`).
- When to roll (§9.3): :func:`damage_trigger`, at most one roll per cause per turn (:func:`rolls_due`).
- Leaders (§9.2): :func:`group_leader` finds the group/team leader's row on a sheet.

>>> roll = morale_roll(16, damage=7, no_leader=True)
>>> roll.value, roll.result(5), roll.result(6), roll.result(15)
(5, 'steady', 'shaken', 'dissolved')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from engine.events import Modifier

from .firedata import TWO_D10, Row, mod, morale_table, total

__all__ = [
    "CAUSES",
    "MoraleRoll",
    "damage_trigger",
    "full_chain",
    "group_leader",
    "leader_contact",
    "may_rally",
    "morale_result",
    "morale_roll",
    "morale_value",
    "rolls_due",
    "step_away_allowed",
]

CAUSES: tuple[str, ...] = ("damage", "flames", "burning", "suicide", "infantry_vs_armour", "leader_contact")
"""The causes of a morale roll (§9.3); each gives at most one roll per unit per turn."""

STEADY, SHAKEN, DISSOLVED = "steady", "shaken", "dissolved"


def morale_value(
    morale: int,
    *,
    damage: int = 0,
    burning: bool = False,
    no_leader: bool = False,
    suicide: bool = False,
    full_chain: bool = False,
) -> tuple[int, tuple[Modifier, ...]]:
    """The modified morale value (§9.4) and its terms, the sheet's morale value first.

    ``burning`` covers "burning or attacked with flames" (one −4). ``full_chain``: the unit has its group leader
    and is in communication with its platoon leader and a further (company or battalion) leader.

    >>> morale_value(16, damage=3, full_chain=True)[0]
    17
    """
    table = morale_table().modifiers
    mods = [mod(morale, "morale value", "9.1")]
    if damage:
        mods.append(mod(table["per_damage"] * damage, f"{damage} damage", "9.4"))
    if burning:
        mods.append(mod(table["burning"], "burning or under flames", "9.4"))
    if no_leader:
        mods.append(mod(table["no_leader"], "no contact to a leader", "9.4"))
    if suicide:
        mods.append(mod(table["suicide"], "suicide attack", "9.4"))
    if full_chain:
        mods.append(mod(table["full_chain"], "group, platoon and further leader", "9.4"))
    return total(mods), tuple(mods)


def morale_result(value: int, roll: int, *, suicide: bool = False, immobilised_vehicle: bool = False) -> str:
    """``steady``, ``shaken`` or ``dissolved`` for a natural 2d10 ``roll`` against a modified ``value`` (§9.1, §9.5)."""
    if roll <= value:
        return STEADY
    if suicide or immobilised_vehicle or roll - value >= morale_table().dissolve_margin:
        return DISSOLVED
    return SHAKEN


@dataclass(frozen=True, slots=True)
class MoraleRoll:
    """A morale roll to be made: its modified value with the terms, and what a roll does (§9)."""

    value: int
    modifiers: tuple[Modifier, ...]
    suicide: bool = False
    immobilised_vehicle: bool = False

    def result(self, roll: int) -> str:
        """The result of a natural 2d10 roll."""
        return morale_result(self.value, roll, suicide=self.suicide, immobilised_vehicle=self.immobilised_vehicle)

    def odds(self) -> dict[str, Fraction]:
        """The exact chances of ``steady``, ``shaken`` and ``dissolved``."""
        out = {STEADY: Fraction(0), SHAKEN: Fraction(0), DISSOLVED: Fraction(0)}
        for roll, p in TWO_D10.items():
            out[self.result(roll)] += p
        return out


def morale_roll(
    morale: int,
    *,
    damage: int = 0,
    burning: bool = False,
    no_leader: bool = False,
    suicide: bool = False,
    full_chain: bool = False,
    immobilised_vehicle: bool = False,
) -> MoraleRoll:
    """The morale roll of a unit with sheet morale ``morale`` in the situation given (§9.1, §9.4, §9.5)."""
    value, mods = morale_value(
        morale, damage=damage, burning=burning, no_leader=no_leader, suicide=suicide, full_chain=full_chain
    )
    return MoraleRoll(value, mods, suicide, immobilised_vehicle)


def damage_trigger(possible: int, damage_after: int, *, took_damage: bool = True) -> bool:
    """Whether damage makes a unit roll (§9.3): it took damage and now has 50 % or more of its possible damage.

    >>> damage_trigger(14, 6), damage_trigger(14, 7), damage_trigger(5, 3)
    (False, True, True)
    """
    return took_damage and damage_after >= possible * morale_table().trigger


def rolls_due(causes: Iterable[str], used_this_turn: Iterable[str] = ()) -> tuple[str, ...]:
    """The causes that still give a roll this turn, each once (§9.3: one roll per cause per unit per turn)."""
    used = set(used_this_turn)
    out: list[str] = []
    for cause in causes:
        if cause not in CAUSES:
            raise ValueError(f"unknown morale cause {cause!r} (one of {', '.join(CAUSES)})")
        if cause not in used and cause not in out:
            out.append(cause)
    return tuple(out)


def group_leader(unit_type: str, rows: Sequence[Row]) -> int | None:
    """The row of the unit's group/team leader (§9.2), or None when the sheet has no soldier.

    Infantry: the last soldier. Gun: the commander, else the last soldier of the crew. Vehicle: the commander,
    else the gunner of the main weapon (the turret-mounted one if several are flagged), else the last soldier.
    """
    soldiers = [r for r in rows if r.is_crew]
    if not soldiers:
        return None
    if unit_type != "infantry":
        commander = next((r for r in soldiers if r.is_commander), None)
        if commander is not None:
            return commander.index
        if unit_type == "vehicle":
            mains = sorted((r for r in rows if r.is_weapon and r.main), key=lambda r: r.mount != "turret")
            if mains and mains[0].operator is not None:
                return mains[0].operator
    return soldiers[-1].index


def leader_contact(*, group_leader_intact: bool, reaches_leader: bool) -> bool:
    """Contact to a leader (§9.2 P): its own group leader is intact, or it can communicate directly (§10.1) with a
    friendly unit holding an intact platoon, company or battalion leader."""
    return group_leader_intact or reaches_leader


def full_chain(*, group_leader_intact: bool, platoon_leader: bool, further_leader: bool) -> bool:
    """The +4 of §9.4: group leader, and communication with the platoon leader and a company or battalion leader.

    A unit that contains its platoon leader counts as in communication with him (§9.4 P).
    """
    return group_leader_intact and platoon_leader and further_leader


def may_rally(shaken_turn: int, turn: int) -> bool:
    """A shaken unit may roll again at the end of each turn after the one it became shaken in (§9.5)."""
    return turn > shaken_turn


def step_away_allowed(distance_before: int, distance_after: int) -> bool:
    """A shaken unit may only move away from the enemy (§9.5 P): each hex entered is farther from the nearest known
    enemy than the hex left."""
    return distance_after > distance_before
