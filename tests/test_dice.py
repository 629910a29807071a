"""Tests engine.dice: seeded dice are reproducible across processes, pinned, fair enough and immutable."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.dice import Dice, DiceExhaustedError, HiddenDice, ScriptedDice, dice_from_dict

ROLL_SCRIPT = (
    "import json; from engine.dice import Dice; "
    "a, d = Dice(12345).roll(6, 20); b, d = d.roll(10, 5); c, d = d.roll(20, 3); "
    "print(json.dumps([a, b, c, d.counter]))"
)


def rolls_in_process() -> list[object]:
    a, d = Dice(12345).roll(6, 20)
    b, d = d.roll(10, 5)
    c, d = d.roll(20, 3)
    return json.loads(json.dumps([a, b, c, d.counter]))  # type: ignore[no-any-return]


def rolls_in_subprocess(hash_seed: str) -> list[object]:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    out = subprocess.run(
        [sys.executable, "-c", ROLL_SCRIPT], capture_output=True, text=True, check=True, env=env, timeout=60
    )
    return json.loads(out.stdout)  # type: ignore[no-any-return]


def test_same_seed_same_rolls_in_separate_processes() -> None:
    first = rolls_in_subprocess("1")
    second = rolls_in_subprocess("2")
    assert first == second == rolls_in_process()
    assert first[3] == 28


def test_pinned_d6_sequence_for_seed_7() -> None:
    values, dice = Dice(7).roll(6, 10)
    assert values == (2, 1, 3, 6, 4, 5, 2, 2, 4, 2)
    assert dice == Dice(7, 10)


def test_pinned_d10_sequences() -> None:
    assert Dice(7).roll(10, 10)[0] == (2, 7, 1, 8, 6, 7, 8, 2, 4, 4)
    assert Dice(2024).roll(10, 12)[0] == (1, 2, 6, 2, 4, 9, 3, 6, 9, 9, 7, 10)


def test_rolling_one_at_a_time_equals_rolling_together() -> None:
    together, _ = Dice(99).roll(6, 8)
    dice = Dice(99)
    one_by_one = []
    for _ in range(8):
        (v,), dice = dice.roll(6)
        one_by_one.append(v)
    assert tuple(one_by_one) == together
    assert dice.counter == 8


@given(st.integers(-(2**70), 2**70), st.integers(0, 10_000), st.integers(2, 100), st.integers(1, 12))
def test_rolls_are_in_range(seed: int, counter: int, sides: int, count: int) -> None:
    values, after = Dice(seed, counter).roll(sides, count)
    assert len(values) == count
    assert all(1 <= v <= sides for v in values)
    assert after.counter == counter + count
    assert after.seed == seed


def test_6000_d6_are_roughly_uniform() -> None:
    values, _ = Dice(1).roll(6, 6000)
    counts = Counter(values)
    chi2 = sum((counts[face] - 1000) ** 2 / 1000 for face in range(1, 7))
    # 5 degrees of freedom: P(chi2 > 20.5) is about 0.001.
    assert chi2 < 20.5, counts


def test_different_seeds_differ() -> None:
    assert Dice(1).roll(6, 20)[0] != Dice(2).roll(6, 20)[0]


def test_dice_are_immutable() -> None:
    dice = Dice(7)
    _, after = dice.roll(6, 3)
    assert after is not dice
    assert dice.counter == 0
    assert after.counter == 3
    assert dice.roll(6, 3)[0] == Dice(7).roll(6, 3)[0]
    with pytest.raises(AttributeError):
        dice.counter = 5  # type: ignore[misc]


@pytest.mark.parametrize(("sides", "count"), [(1, 1), (0, 1), (6, 0), (6, -1)])
def test_impossible_rolls_are_refused(sides: int, count: int) -> None:
    with pytest.raises(ValueError):
        Dice(7).roll(sides, count)


def test_scripted_dice_return_values_in_order() -> None:
    dice = ScriptedDice([6, 5, 3, 1])
    first, dice = dice.roll(6)
    rest, dice = dice.roll(6, 3)
    assert first == (6,)
    assert rest == (5, 3, 1)
    assert dice.remaining == 0


def test_scripted_dice_raise_when_exhausted() -> None:
    dice = ScriptedDice([4])
    _, dice = dice.roll(6)
    with pytest.raises(DiceExhaustedError, match="exhausted"):
        dice.roll(6)
    with pytest.raises(DiceExhaustedError):
        ScriptedDice([1, 2]).roll(6, 3)


def test_scripted_value_that_does_not_fit_the_die_is_refused() -> None:
    with pytest.raises(ValueError, match="d6"):
        ScriptedDice([7]).roll(6)
    with pytest.raises(ValueError):
        ScriptedDice([0]).roll(10)
    assert ScriptedDice([10]).roll(10)[0] == (10,)


def test_scripted_dice_are_immutable() -> None:
    dice = ScriptedDice([1, 2])
    _, after = dice.roll(6)
    assert dice.position == 0 and dice.remaining == 2
    assert after.position == 1
    assert dice.roll(6)[0] == (1,)


@pytest.mark.parametrize("dice", [Dice(7), Dice(-3, 41), ScriptedDice([1, 2, 3], 1), ScriptedDice([]), HiddenDice()])
def test_to_dict_round_trips(dice: Dice | ScriptedDice | HiddenDice) -> None:
    data = dice.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert dice_from_dict(data) == dice


def test_round_tripped_dice_continue_the_same_sequence() -> None:
    _, dice = Dice(7).roll(6, 4)
    restored = dice_from_dict(dice.to_dict())
    assert restored.roll(6, 6)[0] == dice.roll(6, 6)[0] == Dice(7).roll(6, 10)[0][4:]


def test_unknown_dice_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown dice kind"):
        dice_from_dict({"kind": "loaded"})


def test_hidden_dice_cannot_roll() -> None:
    with pytest.raises(RuntimeError):
        HiddenDice().roll(6)
