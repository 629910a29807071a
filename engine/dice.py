"""Provides the engine's dice: counter-based seeded dice and scripted dice for tests.

A die's value depends only on the seed and the die's position in the game, through SHA-256, so the same
seed gives the same rolls on every Python version and platform (``random`` is never used).

>>> values, dice = Dice(7).roll(6, 2)
>>> values, dice.counter
((2, 1), 2)
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

__all__ = ["Dice", "DiceExhaustedError", "DiceSource", "HiddenDice", "ScriptedDice", "dice_from_dict"]

_SPACE = 1 << 64


class DiceSource(Protocol):
    """Anything that rolls dice immutably: ``values, dice = dice.roll(6, 2)``."""

    def roll(self, sides: int, count: int = 1) -> tuple[tuple[int, ...], DiceSource]:
        """Roll ``count`` dice of ``sides`` sides; returns the values and the advanced source."""
        ...

    def to_dict(self) -> dict[str, Any]:
        """A plain dict that :func:`dice_from_dict` turns back into this source."""
        ...


def _die(seed: int, index: int, sides: int) -> int:
    limit = _SPACE - (_SPACE % sides)
    attempt = 0
    while True:
        digest = hashlib.sha256(f"planspiel:{seed}:{index}:{attempt}".encode()).digest()
        x = int.from_bytes(digest[:8], "big")
        if x < limit:
            return x % sides + 1
        attempt += 1


@dataclass(frozen=True, slots=True)
class Dice:
    """Seeded dice: the ``n``-th die of a game is a pure function of ``(seed, n)``."""

    seed: int
    counter: int = 0
    """How many dice have been rolled so far."""

    def roll(self, sides: int, count: int = 1) -> tuple[tuple[int, ...], Dice]:
        """Roll ``count`` dice with ``sides`` sides each."""
        if sides < 2 or count < 1:
            raise ValueError(f"cannot roll {count}d{sides}")
        values = tuple(_die(self.seed, self.counter + i, sides) for i in range(count))
        return values, Dice(self.seed, self.counter + count)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "seeded", "seed": self.seed, "counter": self.counter}


class DiceExhaustedError(RuntimeError):
    """A :class:`ScriptedDice` ran out of values: the test scripted too few rolls."""


@dataclass(frozen=True, slots=True)
class ScriptedDice:
    """Dice that return fixed values in order, for tests: ``ScriptedDice([6, 5, 3])``."""

    values: tuple[int, ...]
    position: int = 0

    def __init__(self, values: Sequence[int], position: int = 0) -> None:
        object.__setattr__(self, "values", tuple(values))
        object.__setattr__(self, "position", position)

    def roll(self, sides: int, count: int = 1) -> tuple[tuple[int, ...], ScriptedDice]:
        """The next ``count`` scripted values (each must fit a die of ``sides`` sides)."""
        end = self.position + count
        if end > len(self.values):
            raise DiceExhaustedError(
                f"scripted dice exhausted: {count}d{sides} asked after {self.position} of {len(self.values)} values"
            )
        out = self.values[self.position : end]
        for v in out:
            if not 1 <= v <= sides:
                raise ValueError(f"scripted value {v} does not fit a d{sides}")
        return out, ScriptedDice(self.values, end)

    @property
    def remaining(self) -> int:
        """Values not yet used."""
        return len(self.values) - self.position

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "scripted", "values": list(self.values), "position": self.position}


@dataclass(frozen=True, slots=True)
class HiddenDice:
    """Stands in for the game's dice in a side's view: the seed is secret, so nothing can be rolled."""

    def roll(self, sides: int, count: int = 1) -> tuple[tuple[int, ...], HiddenDice]:
        raise RuntimeError("a side's view has no dice; give it dice of its own to simulate")

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "hidden"}


def dice_from_dict(d: dict[str, Any]) -> DiceSource:
    """Rebuild a dice source from :meth:`DiceSource.to_dict`."""
    kind = d.get("kind")
    if kind == "seeded":
        return Dice(int(d["seed"]), int(d["counter"]))
    if kind == "scripted":
        return ScriptedDice([int(v) for v in d["values"]], int(d["position"]))
    if kind == "hidden":
        return HiddenDice()
    raise ValueError(f"unknown dice kind {kind!r}")
