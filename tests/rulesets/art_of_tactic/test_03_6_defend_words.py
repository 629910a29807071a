"""3.6 Defend: step 1's log line says the field of fire's range with the right plural (issue 18 item 9)."""

from __future__ import annotations

from .helpers import event_texts, game, play_round, scenario


def test_3_6_defend_up_to_one_hex_is_singular_and_two_hexes_plural() -> None:
    sc = scenario([("ger-inf", "DE-INF", "0505"), ("sov-inf", "SU-INF", "0303")])
    g = game(sc)
    events = play_round(g, ["defend ger-inf 0504 1"], ["defend sov-inf 0304 2"])
    lines = event_texts(events, "defend")
    assert "ger-inf defends facing 0504 up to 1 hex" in lines
    assert "sov-inf defends facing 0304 up to 2 hexes" in lines
    assert not any("1 hexes" in line for line in event_texts(events))
