"""7.4's hex check (the sighting TN of a hex, precondition 1 of fire at a hex): a fire's light counts at night."""

from __future__ import annotations

from engine.hexgrid import parse_hex
from engine.rulesets.hacse import artillery
from engine.rulesets.hacse.model import data

from .test_artillery import T, h3


def test_7_4_the_hex_check_at_night_counts_a_fires_light() -> None:
    """H-3 turn 8 is a moonlit night (15.10.5); S5 (a T-34, no binoculars) looks 9 hexes at 0513: +9 for the
    distance, but a fire in the hex lights it (6.1 P: +1 per full 2 hexes, +4), as for the sighting of a unit."""
    st = h3(S5="0906")
    st.turn = 8
    s5, where = st.units["S5"], parse_hex("0513")
    dark = artillery._hex_tn(st, T, s5, where)
    data(st).fires[where] = 2  # a wreck burning there (fires.py)
    assert artillery._hex_tn(st, T, s5, where) == dark - 5
    data(st).fires.clear()
    data(st).fires[parse_hex("0514")] = 2  # a neighbour's fire lights it too (6.1)
    assert artillery._hex_tn(st, T, s5, where) == dark - 5


def test_7_4_in_daylight_a_fire_changes_nothing() -> None:
    st = h3(S5="0906")
    s5, where = st.units["S5"], parse_hex("0513")
    day = artillery._hex_tn(st, T, s5, where)
    data(st).fires[where] = 2
    assert artillery._hex_tn(st, T, s5, where) == day
