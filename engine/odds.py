"""Provides exact odds: the distribution of results of a chance action, from the ruleset's tables."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from itertools import product

from .actions import Action

__all__ = ["Odds", "OddsEntry", "dice_sums", "merge"]


@dataclass(frozen=True, slots=True)
class OddsEntry:
    """One possible result with its exact probability and its value to the acting side."""

    result: str
    """The result as the table names it (``"step loss"``, ``"N"``, ``"no effect"``)."""
    probability: Fraction
    value: float = 0.0
    """What the result is worth to the side acting (for example enemy steps lost); used by greedy AIs."""


@dataclass(frozen=True, slots=True)
class Odds:
    """The exact result distribution of one action; probabilities sum to 1."""

    action: Action
    entries: tuple[OddsEntry, ...]
    note: str = ""
    """How the odds were found (column, target number, modifiers)."""

    def __post_init__(self) -> None:
        total = sum((e.probability for e in self.entries), Fraction(0))
        if self.entries and total != 1:
            raise ValueError(f"odds of {self.action} sum to {total}, not 1")

    def __iter__(self) -> Iterator[OddsEntry]:
        return iter(self.entries)

    @property
    def expected(self) -> float:
        """The expected value of the action."""
        return float(sum((e.probability * Fraction(e.value) for e in self.entries), Fraction(0)))

    def probability(self, result: str) -> Fraction:
        """The probability of one named result (0 if it cannot happen)."""
        return sum((e.probability for e in self.entries if e.result == result), Fraction(0))

    def __str__(self) -> str:
        parts = [f"{e.result} {float(e.probability):.1%}" for e in self.entries]
        return f"{self.action}: " + ", ".join(parts) + (f" ({self.note})" if self.note else "")


def dice_sums(sides: int, count: int) -> dict[int, Fraction]:
    """The exact distribution of the sum of ``count`` dice with ``sides`` sides.

    >>> dice_sums(6, 2)[7]
    Fraction(1, 6)
    """
    counts: dict[int, int] = {}
    for roll in product(range(1, sides + 1), repeat=count):
        counts[sum(roll)] = counts.get(sum(roll), 0) + 1
    n = sides**count
    return {k: Fraction(v, n) for k, v in sorted(counts.items())}


def merge(entries: Iterable[OddsEntry]) -> tuple[OddsEntry, ...]:
    """Combine entries with the same result, keeping first-seen order."""
    acc: dict[str, OddsEntry] = {}
    for e in entries:
        if e.result in acc:
            old = acc[e.result]
            acc[e.result] = OddsEntry(e.result, old.probability + e.probability, old.value)
        else:
            acc[e.result] = e
    return tuple(acc.values())
