"""Appendix A, the 2d10 probabilities, against the calculators' distributions."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.odds import dice_sums
from engine.rulesets.hacse.fire import ToHit
from engine.rulesets.hacse.firedata import TWO_D10, chance_at_least, chance_at_most

# Appendix A as printed: sum, P(= sum), P(>= sum), P(<= sum), in percent.
APPENDIX_A = [
    (2, 1, 100, 1),
    (3, 2, 99, 3),
    (4, 3, 97, 6),
    (5, 4, 94, 10),
    (6, 5, 90, 15),
    (7, 6, 85, 21),
    (8, 7, 79, 28),
    (9, 8, 72, 36),
    (10, 9, 64, 45),
    (11, 10, 55, 55),
    (12, 9, 45, 64),
    (13, 8, 36, 72),
    (14, 7, 28, 79),
    (15, 6, 21, 85),
    (16, 5, 15, 90),
    (17, 4, 10, 94),
    (18, 3, 6, 97),
    (19, 2, 3, 99),
    (20, 1, 1, 100),
]


def pct(p: int) -> Fraction:
    return Fraction(p, 100)


@pytest.mark.parametrize(("total", "equal", "at_least", "at_most"), APPENDIX_A)
def test_appendix_a_row(total: int, equal: int, at_least: int, at_most: int) -> None:
    assert TWO_D10[total] == pct(equal)
    assert chance_at_least(total) == pct(at_least)
    assert chance_at_most(total) == pct(at_most)


def test_appendix_a_is_the_engines_2d10() -> None:
    assert dict(TWO_D10) == dice_sums(10, 2)
    assert sorted(TWO_D10) == [row[0] for row in APPENDIX_A]
    assert sum(TWO_D10.values()) == 1


@pytest.mark.parametrize(("total", "equal", "at_least", "at_most"), APPENDIX_A)
def test_appendix_a_hit_chance_of_a_tn(total: int, equal: int, at_least: int, at_most: int) -> None:
    # A hit needs 2d10 >= TN (§1); a natural 2 always misses and jams (§6.3, §6.6), so a TN of 2 hits 99 %.
    odds = ToHit(total, (), "short", frozenset({2}), 20).odds()
    assert odds["hit"] == (pct(at_least) if total > 2 else pct(99))
    assert odds["jam"] == pct(1)
    assert odds["hit"] + odds["miss"] + odds["jam"] == 1
