"""Weather and light (6.1, ``weather.py``): the scenarios' ``[conditions]`` turn by turn, the distance modifier of
each condition, the range of the automatic conditions 3–4, and the sighting TN that uses them."""

from __future__ import annotations

import pytest

from engine.rulesets.hacse.model import data, status
from engine.rulesets.hacse.movement import step_cost
from engine.rulesets.hacse.sighting import sight_tn
from engine.rulesets.hacse.weather import condition, conditions_by_turn, ground_of, sight_effect
from engine.state import GameState

from .helpers import LOSE, WIN, game, placed, play, refused, ruleset


def test_6_1_the_scenarios_conditions_turn_by_turn() -> None:
    h3 = game("h3-bridge-at-dusk").state
    h3.turn = 5
    assert condition(h3).name == "dusk"
    h3.turn = 6
    assert condition(h3).name == "moonlit_night"  # 15.10.5: moonlit night from turn 6
    assert condition(game("h2-height-212").state).name == "light_rain"
    assert condition(game("h1-le-hamel").state).name == "clear"


@pytest.mark.parametrize(
    ("name", "without", "with_glasses", "reach"),
    [
        ("clear", 2, 1, 15),
        ("dusk", 3, 2, 12),
        ("light_rain", 4, 2, 9),
        ("heavy_rain", 6, 3, 6),
        ("moonlit_night", 12, 4, 3),
        ("dark_night", 24, 24, 0),  # +2 per hex, binoculars need light; conditions 3-4 never apply
    ],
)
def test_6_1_distance_modifier_by_weather_at_12_hexes(name: str, without: int, with_glasses: int, reach: int) -> None:
    effect = sight_effect(name)
    assert effect.modifier(12, binoculars=False) == without
    assert effect.modifier(12, binoculars=True) == with_glasses
    assert effect.range == reach


def test_6_1_weather_and_light_together_the_worse_counts() -> None:
    assert conditions_by_turn({"weather": "light rain", "light": "dusk"}, 1) == ["light_rain"]
    assert conditions_by_turn({"weather": "fog", "light": "night"}, 1) == ["dark_night"]
    with pytest.raises(ValueError, match="unknown weather"):
        conditions_by_turn({"weather": "sandstorm"}, 1)


def test_6_1_the_sighting_tn_takes_the_condition() -> None:
    clear, _ = sight_tn(base=4, distance=12)
    night, terms = sight_tn(base=4, distance=12, conditions=sight_effect("moonlit_night"))
    assert (clear, night) == (6, 16)
    assert any("moonlit night" in str(t) for t in terms)


# --- The ground: weather's effect on movement (4.3 overlays) -------------------------------------------------


def _ground(sid: str, word: str, first: list[int], **where: str) -> GameState:
    st = placed(game(sid, first), **where)
    data(st).ground = word
    return st


def _spent(st: GameState, uid: str) -> float:
    return status(st.units[uid]).half_mp / 2


def test_4_3_swamp_and_snow_are_map_terrain() -> None:
    t = ruleset().tables
    assert ruleset().terrain_codes["w"] == "swamp" and ruleset().terrain_codes["n"] == "snow"
    assert step_cost(t, "foot", t.terrain["swamp"]) == 1.5  # AC-MV-05
    assert step_cost(t, "track", t.terrain["snow"]) == 2.0
    assert step_cost(t, "wheel", t.terrain["swamp"]) == "max" and step_cost(t, "wheel", t.terrain["snow"]) == "max"


def test_4_3_the_scenarios_ground_is_dry_and_a_word_is_checked() -> None:
    assert {data(game(sid).state).ground for sid in ("h1-le-hamel", "h2-height-212", "h3-bridge-at-dusk")} == {"dry"}
    assert ground_of({"ground": "snow"}) == "snow" and ground_of({}) == "dry"
    with pytest.raises(ValueError, match="unknown ground 'sand'"):
        ground_of({"ground": "sand"})


def test_4_3_mud_on_the_ground_surcharges_every_hex_entered() -> None:
    # H-1: U1 (foot) and U4 (Sherman, track) enter clear 0708 from 0707, same level
    dry = play(_ground("h1-le-hamel", "dry", WIN, U1="0707"), "move U1 0708")
    assert _spent(dry, "U1") == 1
    mud = play(_ground("h1-le-hamel", "mud", WIN, U1="0707"), "move U1 0708")
    assert _spent(mud, "U1") == 1.5  # 4.3: clear 1 + swamp/mud 0.5
    mud = play(_ground("h1-le-hamel", "mud", WIN, U4="0707:s"), "move U4 0708")
    assert _spent(mud, "U4") == 2  # 1 + 1


def test_4_3_ac_mv_06_snow_on_rough_costs_a_track_3() -> None:
    st = play(_ground("h1-le-hamel", "snow", WIN, U4="0708:s"), "move U4 0709")  # 0709 is rough
    assert _spent(st, "U4") == 3


def test_4_3_ac_mv_07_a_wheeled_vehicle_in_mud_moves_a_whole_move_but_roads_stay_open() -> None:
    st = _ground("h2-height-212", "mud", WIN, G5="2213:n", G6="")
    st.to_act = "german"
    road = play(st, "move G5 2113 2013")  # 4.2: a road step costs 1 whatever the ground
    assert _spent(road, "G5") == 2 and not status(road.units["G5"]).max_move
    off = play(st, "move G5 2212")  # off the road: clear with mud is "max." for wheels
    assert status(off.units["G5"]).max_move
    assert refused(play(st, "turn G5 ne"), "move G5 2212").rule == "4.3"  # "max." needs unspent MP


def test_4_3_buildings_and_water_keep_their_own_cost_in_mud() -> None:
    st = play(_ground("h1-le-hamel", "mud", LOSE, G2="1007"), "move G2 1108")  # light buildings count as road
    assert _spent(st, "G2") == 1
