"""9.11 and 15.1: a concealed HQ stays hidden from the opponent: in its view and in every event it reads.

Reading (README, ``concealment.py``): the HQ's model stays on the board (9.11), so the opponent sees an
unidentified unit in its hex (``soviet-unidentified-1``), never which unit it is, until the HQ is found.
"""

from __future__ import annotations

import json
import re

import engine
from engine.events import Event
from engine.rulesets.art_of_tactic.concealment import aliases
from engine.typed import to_plain

from .helpers import D, P, S, game, play_round, ruleset, scenario

ALIAS = "soviet-unidentified-1"


def _names(events: list[Event], side: str, uid: str) -> list[str]:
    """The events ``side`` may read that name ``uid`` (as a whole id)."""
    word = re.compile(rf"(?<![\w-]){re.escape(uid)}(?![\w-])")
    return [e.text for e in events if e.is_visible_to(side) and word.search(json.dumps(e.to_dict()))]


def _hq_game(ger_inf: str = "0503", **extra: str) -> engine.Game:
    units = [("ger-inf", "DE-INF", ger_inf), ("ger-hq", "DE-HQ", "0101"), ("sov-hq", "SU-HQ", "0508"),
             ("sov-inf", "SU-INF", "0807")]  # fmt: skip
    return game(scenario(units, terrain=dict(extra)), [3] * 60)


def test_9_11_15_1_concealed_hq_is_an_unidentified_unit_in_the_opponents_view() -> None:
    g = _hq_game()
    german = g.view("german")
    assert "sov-hq" not in german.units and "sov-hq" not in json.dumps(german.to_dict())
    u = german.units[ALIAS]
    assert (u.type, u.hex, u.steps) == ("?", g.board.parse("0508"), 1), "on the map in its hex (9.11), no card"
    assert to_plain(u.status) == {"concealed": True, "unidentified": True}
    assert g.odds(f"fire ger-inf {ALIAS}", side="german") is None
    soviet = g.view("soviet")
    assert soviet.units["sov-hq"].type == "SU-HQ" and S(soviet.units["sov-hq"]).concealed, "its owner's"
    assert "ger-hq" not in g.view("soviet").units and "german-unidentified-1" in g.view("soviet").units
    assert aliases(ruleset(), g.state) == {"ger-hq": "german-unidentified-1", "sov-hq": ALIAS}


def test_9_11_15_1_no_event_the_opponent_reads_names_a_concealed_hq() -> None:
    g = _hq_game()
    events = play_round(g, ["defend ger-inf 0603 2"], ["move sov-hq 0608", "defend sov-inf 0707 2"])
    assert g.state.units["sov-hq"].hex == g.board.parse("0608") and S(g.state.units["sov-hq"]).concealed
    assert _names(events, "german", "sov-hq") == []
    assert _names(events, "soviet", "ger-hq") == []
    german = [e.text for e in events if e.is_visible_to("german")]
    assert f"soviet order: move {ALIAS} 0608" in german, "the order of the counter on the map (2.4)"
    assert f"{ALIAS} moves to 0608" in german
    soviet = [e.text for e in events if e.is_visible_to("soviet")]
    assert "soviet order: move sov-hq 0608" in soviet and "sov-hq moves to 0608" in soviet, "its owner reads it"
    assert g.view("german").units[ALIAS].hex == g.board.parse("0608")


def test_9_11_3_11_concealed_hq_in_ambush_is_off_the_map_under_its_unidentified_name() -> None:
    g = _hq_game(**{"0508": "b"})
    events = play_round(g, [], ["ambush sov-hq 0507 1"])
    assert S(g.state.units["sov-hq"]).hidden
    assert _names(events, "german", "sov-hq") == []
    assert f"{ALIAS} is hidden in ambush (rule 3.11)" in [e.text for e in events if e.is_visible_to("german")]
    german = g.view("german")
    assert german.units[ALIAS].hex is None and S(german.units[ALIAS]).hidden
    assert D(german).last_seen == {ALIAS: P("0508")}, "the last-seen marker (3.11) under the same name"
    assert "sov-hq" not in json.dumps(german.to_dict())


def test_9_11_found_hq_is_named_and_concealed_again_after_moving_away() -> None:
    g = _hq_game(ger_inf="0506")
    events = play_round(g, ["move ger-inf 0507"], ["hold sov-hq"])
    hq = g.state.units["sov-hq"]
    assert S(hq).concealed is False, "an enemy next to it finds it (9.11)"
    found = [e for e in events if e.kind == "revealed" and e.data.get("unit") == "sov-hq"]
    assert found and found[0].visible_to is None and "sov-hq is found at 0508" in found[0].text
    german = g.view("german")
    assert german.units["sov-hq"].type == "SU-HQ" and ALIAS not in german.units
    events = play_round(g, ["hold ger-inf"], ["move sov-hq 0509"])
    hq = g.state.units["sov-hq"]
    assert hq.hex == g.board.parse("0509") and S(hq).concealed, "step 12: in another hex, 2 from ger-inf at 0507 (9.11)"
    assert "soviet HQ sov-hq is concealed again (rule 9.11)" in [e.text for e in events if e.visible_to is None]
    assert ALIAS in g.view("german").units and "sov-hq" not in g.view("german").units


def test_11_2_9_11_control_of_a_lone_concealed_hq_comes_from_the_unidentified_unit_in_its_hex() -> None:
    units = [("sov-hq", "SU-HQ", "0508"), ("ger-inf", "DE-INF", "0503"), ("sov-inf", "SU-INF", "0807")]
    g = game(scenario(units), [3] * 60)  # the victory hex is 0508, where the HQ stands alone
    play_round(g, ["hold ger-inf"], ["hold sov-hq"])
    german = g.view("german")
    assert D(german).control.get(P("0508")) == "soviet", "11.2: hidden units and a concealed HQ count"
    there = [u for u in german.units.values() if u.hex == g.board.parse("0508")]
    assert [(u.id, u.side) for u in there] == [(ALIAS, "soviet")], "the German sees who holds it: a unit is there"


def test_9_11_11_1_concealed_hq_arriving_as_a_reinforcement_is_not_named_to_the_opponent() -> None:
    g = _hq_game()
    hq = g.state.units["sov-hq"]
    hq.hex = None
    S(hq).arrives, S(hq).entry = 2, (P("0508"),)  # 11.1: it enters at the start of round 2
    events = play_round(g, ["hold ger-inf"], ["hold sov-inf"])
    assert g.state.units["sov-hq"].hex == g.board.parse("0508")
    assert _names(events, "german", "sov-hq") == []
    assert f"{ALIAS} arrives at 0508 (rule 11.1)" in [e.text for e in events if e.is_visible_to("german")]
