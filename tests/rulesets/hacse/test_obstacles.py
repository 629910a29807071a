"""Fire at AT obstacles (digest 13.6, 14.11 AC-OB-01; ``obstacles.py``): an aimed shell of HE 6 or more that hits
removes the obstacles of its hex. No roster weapon has such a shell (the 75 mm HE is HE 3): a stand-in KwK 40 with
an HE 6 round plays the case through the ruleset."""

from __future__ import annotations

import dataclasses

from engine.actions import Action
from engine.dice import ScriptedDice
from engine.errors import IllegalActionError
from engine.hexgrid import parse_hex
from engine.rules import Transition
from engine.rulesets.hacse.data import load_tables
from engine.rulesets.hacse.model import data, status
from engine.rulesets.hacse.ruleset import Hacse
from engine.state import GameState

from .helpers import fire_state

H = parse_hex
T = load_tables()
WALL = H("1007")  # H-2: next to G1 at 1008, north


def _ruleset(he: int = 6) -> Hacse:
    """The ruleset with the KwK 40's HE round at ``he``."""
    w = T.weapons["KWK40"]
    stand_in = dataclasses.replace(w, ammo={**w.ammo, "HE": dataclasses.replace(w.ammo["HE"], he=he)})
    rs = Hacse()
    rs.tables = dataclasses.replace(T, weapons={**T.weapons, "KWK40": stand_in})
    return rs


def _state(dice: list[int] | None = None) -> GameState:
    st = fire_state(None, "german", "h2-height-212", G1="1008:n")
    data(st).obstacles.append(WALL)
    if dice is not None:
        st.dice = ScriptedDice([*dice, *[1, 1, 2, 1] * 60])  # then small dice that never tie at the next initiative
    return st


def _play(rs: Hacse, st: GameState, text: str) -> Transition:
    action = rs.parse_action(st, text)
    rs.check(st, action)
    tr = Transition(st.clone())
    rs.apply(tr, action)
    return tr


def _refusal(rs: Hacse, st: GameState, text: str) -> IllegalActionError:
    try:
        rs.check(st, rs.parse_action(st, text))
    except IllegalActionError as e:
        return e
    raise AssertionError(f"{text} was not refused")


def test_14_11_ac_ob_01_an_aimed_he_6_hit_removes_the_obstacles() -> None:
    rs = _ruleset(6)
    st = _state([10, 10])
    shot = Action("fire", ("G1", "1007", "KWK40", "aimed"))
    assert shot in rs.legal_actions(st)
    odds = rs.odds(st, shot)
    assert odds is not None and "aimed shot" in odds.note and odds.probability("obstacles removed") > 0
    tr = _play(rs, st, "fire G1 1007 KWK40 aimed")
    assert WALL not in data(tr.state).obstacles
    assert any("The AT obstacles in 1007 are removed" in e.text for e in tr.events)
    g1 = status(tr.state.units["G1"])
    index = [m.weapon for m in T.sheets["GER-PZ4H"].mounts].index("KWK40")
    assert index in g1.fired and g1.spent == {f"{index}.HE": 1}


def test_14_11_ac_ob_01_aimed_he_3_is_not_offered_and_refused() -> None:
    rs = _ruleset(3)  # the roster's own 75 mm HE
    st = _state()
    assert not any(a.args[1:2] == ("1007",) for a in rs.legal_actions(st))
    assert _refusal(rs, st, "fire G1 1007 KWK40 aimed").rule == "13.6"


def test_14_11_ac_ob_01_a_shell_that_is_not_aimed_leaves_the_obstacles() -> None:
    rs = _ruleset(6)
    st = _state([10, 10, 10, 10, 10, 10])
    action = rs.parse_action(st, "fire G1 1007 KWK40 HE")
    try:
        rs.check(st, action)  # not aimed: fire at a hex is indirect fire (7.4), refused or made, never this rule
    except IllegalActionError as e:
        assert e.rule != "13.6"
        return
    tr = Transition(st.clone())
    rs.apply(tr, action)
    assert WALL in data(tr.state).obstacles


def test_13_6_a_miss_leaves_them_and_a_natural_2_jams() -> None:
    rs = _ruleset(6)
    tr = _play(rs, _state([3, 3]), "fire G1 1007 KWK40 aimed")
    assert WALL in data(tr.state).obstacles
    tr = _play(rs, _state([1, 1]), "fire G1 1007 KWK40 aimed")
    assert WALL in data(tr.state).obstacles and status(tr.state.units["G1"]).jammed


def test_13_6_refusals_cite_their_rule() -> None:
    rs = _ruleset(6)
    st = _state()
    assert _refusal(rs, st, "fire G1 1007 KWK40 aimed 3").rule == "11.1"  # obstacles have no rows
    assert _refusal(rs, st, "fire G1 1007 KWK40 AP aimed").rule == "13.6"  # no HE 6: it cannot remove them
    assert _refusal(rs, st, "fire G1 1007 MG34V-hull aimed").rule == "11.1"  # a burst weapon is not aimed
    st.dice = ScriptedDice([10, 10, *[1, 1, 2, 1] * 60])
    after = _play(rs, st, "fire G1 1007 KWK40 aimed").state
    data(after).obstacles.append(WALL)
    # fired already, or its fire is over (the End Phase may be asking who hides again, 13.2)
    assert _refusal(rs, after, "fire G1 1007 KWK40 aimed").rule in ("3.2", "13.2")
