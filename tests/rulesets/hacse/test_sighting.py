"""Sighting (§6.1), line of sight (§6.2) and the acceptance cases of §14.5 (AC-SG-08 and -09, lit targets at night:
``test_fires.py``)."""

from __future__ import annotations

import pytest

from engine.hexgrid import distance, parse_hex
from engine.rules import Transition
from engine.rulesets.hacse import sighting
from engine.rulesets.hacse.data import load_tables
from engine.rulesets.hacse.model import data, status
from engine.rulesets.hacse.sighting import SightLine, automatic, check, sight_line, sight_tn
from engine.state import GameState

from .helpers import LOSE, distance_term, game, placed

T = load_tables()


def dist_mod(d: int, binoculars: bool = False) -> int:
    return sight_tn(base=0, distance=d, binoculars=binoculars)[0]


def test_14_5_ac_sg_01_distance_clear() -> None:
    assert [dist_mod(d) for d in (4, 5, 14, 15)] == [0, 1, 2, 3]


def test_14_5_ac_sg_02_distance_clear_with_binoculars() -> None:
    assert [dist_mod(d, True) for d in (13, 14, 21)] == [1, 2, 3]


AC12 = {"base": 4, "distance": 12, "target_terrain": "light_forest", "kept": 3, "moved": True, "all_round": True}


def test_14_5_ac_sg_12_buttoned_panzer_with_binoculars() -> None:
    tn, terms = sight_tn(binoculars=True, **AC12)  # type: ignore[arg-type]
    assert tn == 16
    assert [m.value for m in terms] == [4, 1, 3, 3, 2, 3]
    assert all("(rule 6." in m.reason for m in terms)


def test_14_5_ac_sg_12b_t34_without_binoculars() -> None:
    assert sight_tn(binoculars=False, **AC12)[0] == 17  # type: ignore[arg-type]


def test_14_5_ac_sg_13_target_fired_an_mg_last_turn() -> None:
    assert sight_tn(binoculars=True, fired_dk=1, **AC12)[0] == 13  # type: ignore[arg-type]


def test_14_5_ac_sg_14_pak_that_fired_dk_10() -> None:
    args = {**AC12, "kept": 0}
    assert sight_tn(binoculars=True, profile=1, fired_dk=10, **args)[0] == 2  # type: ignore[arg-type]


def test_14_5_ac_sg_15_observer_four_levels_higher() -> None:
    assert sight_tn(binoculars=True, higher=4, **AC12)[0] == 12  # type: ignore[arg-type]


def test_14_5_ac_sg_10_twelve_hexes_on_clear_needs_no_roll() -> None:
    g = game("h1-le-hamel")
    st = placed(g, G1="0101", U1="0113")
    line = sight_line(st, T, parse_hex("0101"), parse_hex("0113"))
    assert line.clear and not line.obstructing
    assert "rule 6.1" in (automatic(st, T, st.units["G1"], st.units["U1"], line) or "")


def test_14_5_ac_sg_11_adjacent_in_dense_forest_needs_no_roll() -> None:
    g = game("h1-le-hamel")
    st = placed(g, G1="1401", U1="1501")
    assert st.board.terrain(parse_hex("1501")) == "dense_forest"
    line = sight_line(st, T, parse_hex("1401"), parse_hex("1501"))
    assert automatic(st, T, st.units["G1"], st.units["U1"], line) == "in the same or an adjacent hex (rule 6.1)"


def test_6_1_in_forest_beyond_adjacent_needs_a_roll() -> None:
    g = game("h1-le-hamel")
    st = placed(g, G1="1301", U1="1501")
    line = sight_line(st, T, parse_hex("1301"), parse_hex("1501"))
    assert line.clear
    assert automatic(st, T, st.units["G1"], st.units["U1"], line) is None


def test_6_2_dense_forest_in_the_line_sums_to_a_block() -> None:
    g = game("h1-le-hamel")
    st = g.state
    line = sight_line(st, T, parse_hex("1401"), parse_hex("1901"))
    assert not line.clear
    assert "8 or more" in line.reason


def test_6_2_two_light_forests_obstruct_without_blocking() -> None:
    st = game("h1-le-hamel").state
    a, b = parse_hex("0402"), parse_hex("0405")
    line = sight_line(st, T, a, b)
    assert line.clear and line.obstructing == ("light_forest", "light_forest") and line.sight_sum == 6


def test_6_1_sight_of_a_unit_that_hides_is_lost_and_a_hidden_unit_sighted_is_revealed() -> None:
    g = game("h1-le-hamel", dice=[*LOSE, 1, 1])
    st = placed(g, G1="1501", U1="1301")  # dense forest, 2 hexes: a roll is needed (and fails with 1 + 1)
    status(st.units["U1"]).sighted = ["G1"]
    status(st.units["G1"]).hidden = True
    tr = Transition(st)
    assert not check(tr, T, st.units["U1"], st.units["G1"])
    assert status(st.units["U1"]).sighted == []
    assert any("loses sight of G1" in e.text for e in tr.events)
    assert status(st.units["G1"]).hidden
    st = placed(g, G1="0101", U1="0103")  # open ground, 2 hexes: sighted without a roll (condition 3)
    status(st.units["G1"]).hidden = True
    tr = Transition(st)
    assert check(tr, T, st.units["U1"], st.units["G1"])
    assert not status(st.units["G1"]).hidden and tr.revealed
    assert any(e.kind == "reveal" and "G1 is revealed" in e.text and "rule 13.2" in e.text for e in tr.events)


def test_6_1_sighting_roll_against_the_tn() -> None:
    g = game("h1-le-hamel", dice=[1, 1, 10, 10, 10, 10, 1, 1])
    st = placed(g, G1="1301", U1="1501")
    tr = Transition(st)
    seen = check(tr, T, st.units["G1"], st.units["U1"])
    assert seen == (status(st.units["G1"]).sighted == ["U1"])
    assert any(e.kind == "sight" and "TN" in e.text for e in tr.events)


@pytest.mark.parametrize("sid", ["h1-le-hamel", "h2-height-212", "h3-bridge-at-dusk"])
def test_6_1_fire_phase_checks_only_of_units_on_the_map(sid: str) -> None:
    st = game(sid).state
    tr = Transition(st)
    sighting.fire_phase_checks(tr, T)
    for u in st.units.values():
        for tid in status(u).sighted:
            assert u.hex is not None and st.units[tid].hex is not None
            assert not status(st.units[tid]).hidden  # a hidden unit sighted is revealed (13.2)


# --- 14.5 in other weather and light (6.1: the distance modifier and the reach of conditions 3-4 by condition) ---


@pytest.mark.parametrize(
    ("case", "condition", "d", "without", "with_glasses"),
    [
        ("AC-SG-03", "dusk", 12, 3, 2),
        ("AC-SG-04", "light_rain", 10, 3, 2),
        ("AC-SG-05", "heavy_rain", 9, 4, 2),
        ("AC-SG-06", "moonlit_night", 4, 4, 1),
        ("AC-SG-07", "dark_night", 4, 8, 8),  # binoculars need light: no help in the dark
    ],
    ids=["ac_sg_03", "ac_sg_04", "ac_sg_05", "ac_sg_06", "ac_sg_07"],
)
def test_14_5_ac_sg_03_to_07_distance_by_weather_and_light(
    case: str, condition: str, d: int, without: int, with_glasses: int
) -> None:
    assert (distance_term(d, condition), distance_term(d, condition, binoculars=True)) == (without, with_glasses), case


def _in(condition: str, observer: str, target: str) -> tuple[GameState, SightLine]:
    """H-1 with G1 and U1 placed on the open column 01 (clear, level 0) and ``condition`` in force every turn."""
    st = placed(game("h1-le-hamel"), G1=observer, U1=target)
    data(st).conditions = [condition] * data(st).turns
    line = sight_line(st, T, parse_hex(observer), parse_hex(target))
    assert line.clear and not line.obstructing
    return st, line


def test_14_5_ac_sg_16_dusk_eleven_hexes_on_open_ground_needs_no_roll() -> None:
    st, line = _in("dusk", "0101", "0112")
    assert distance(parse_hex("0101"), parse_hex("0112")) == 11
    assert automatic(st, T, st.units["G1"], st.units["U1"], line) == (
        "within 12 hexes on open ground, nothing in the way (rule 6.1)"
    )
    # beyond dusk's 12 hexes a roll is needed, where clear weather's 15 would spare it
    st, line = _in("dusk", "0101", "0114")
    assert automatic(st, T, st.units["G1"], st.units["U1"], line) is None
    st, line = _in("clear", "0101", "0114")
    assert automatic(st, T, st.units["G1"], st.units["U1"], line) is not None


def test_14_5_ac_sg_17_dark_night_two_hexes_needs_a_roll_at_plus_4() -> None:
    st, line = _in("dark_night", "0101", "0103")
    assert distance(parse_hex("0101"), parse_hex("0103")) == 2
    assert automatic(st, T, st.units["G1"], st.units["U1"], line) is None  # conditions 3-4 never at night
    assert distance_term(2, "dark_night") == 4
    st, line = _in("clear", "0101", "0103")
    assert automatic(st, T, st.units["G1"], st.units["U1"], line) is not None
