"""Weather and light (6.1, ``weather.py``): the scenarios' ``[conditions]`` turn by turn, the distance modifier of
each condition, the range of the automatic conditions 3–4, and the sighting TN that uses them."""

from __future__ import annotations

import pytest

from engine.rulesets.hacse.sighting import sight_tn
from engine.rulesets.hacse.weather import condition, conditions_by_turn, sight_effect

from .helpers import game


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
