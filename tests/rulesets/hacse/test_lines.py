"""Sustained-fire lines during movement (11.6; 3.2 Phase 2, interrupts, step 2; ``lines.py``): a unit moving into
or through the line of a heavy MG before that MG's next activation is attacked, once per activation; results
apply at once."""

from __future__ import annotations

from engine.dice import ScriptedDice
from engine.hexgrid import parse_hex
from engine.rules import Transition
from engine.rulesets.hacse import options
from engine.rulesets.hacse.model import data, status
from engine.state import GameState

from .helpers import LOSE, game, placed, ruleset


def mg_line(side: str = "us", sighted: bool = True, doubled: bool = False, **where: str) -> GameState:
    """H-1 in the Movement Phase, ``side`` to activate: G3 (heavy MG 42) at 0908 has a sustained-fire line north
    through 0905 (laid in the last Fire Phase), and the units of ``where`` stand where it says."""
    st = placed(game("h1-le-hamel", LOSE), G3="0908", **where)
    g3 = status(st.units["G3"])
    g3.line = list(options.line_hexes(st, ruleset().tables, st.units["G3"], parse_hex("0905"), 27))
    g3.line_mount, g3.line_doubled = 0, doubled
    g3.sighted = [u for u in where if st.units[u].side != "german"] if sighted else []
    d = data(st)
    st.to_act, d.mover, d.quota, d.active = side, side, 1, None
    return st


def run(st: GameState, text: str, dice: list[int]) -> tuple[GameState, list[str]]:
    """The state after ``text`` with ``dice`` first (then small values), and the texts of its events."""
    rs = ruleset()
    st = st.clone()
    st.dice = ScriptedDice([*dice, *[1, 1, 2, 1] * 200])
    action = rs.parse_action(st, text)
    rs.check(st, action)
    tr = Transition(st)
    rs.apply(tr, action)
    return tr.state, [e.text for e in tr.events]


def test_11_6_a_unit_moving_into_a_sustained_fire_line_is_attacked() -> None:
    st = mg_line(U1="1005")
    assert parse_hex("0905") in status(st.units["G3"]).line
    after, texts = run(st, "move U1 0905", [6, 7])  # 13: hits (TN below it), one hit per point above
    hit = [t for t in texts if t.startswith("U1 moves into the sustained-fire line of G3: 13: ")]
    assert hit and "(rule 11.6)" in hit[0]
    assert status(after.units["U1"]).rows_hit  # the hits took rows at once (3.2)
    assert data(after).active == "U1"  # not stopped: its move goes on


def test_11_6_a_unit_is_attacked_once_per_activation_by_a_line() -> None:
    st = mg_line(U1="1005")
    after, texts = run(st, "move U1 0905 0904 0903", [3, 1])  # a miss at the first hex
    assert sum("moves into the sustained-fire line" in t for t in texts) == 1
    assert after.units["U1"].hex == parse_hex("0903")


def test_11_6_a_friendly_unit_moving_into_the_line_is_attacked_too() -> None:
    st = mg_line(side="german", G1="1005")
    _, texts = run(st, "move G1 0905", [3, 1])
    assert any(t.startswith("G1 moves into the sustained-fire line of G3") for t in texts)


def test_11_6_an_unsighted_mover_is_sighted_first_by_the_usual_rules() -> None:
    st = mg_line(sighted=False, U1="1005")  # 0905 is light forest behind light forest: a sighting roll (6.1)
    after, texts = run(st, "move U1 0905", [3, 1])  # 4: not sighted, so not attacked
    assert "U1" not in status(after.units["G3"]).sighted
    assert not any("moves into the sustained-fire line" in t for t in texts)
    after, texts = run(st, "move U1 0905", [10, 10, 3, 1])  # sighted, then attacked (a miss)
    assert "U1" in status(after.units["G3"]).sighted
    assert any("moves into the sustained-fire line of G3: 4: 0 hits" in t for t in texts)


def test_11_6_a_line_outside_the_move_attacks_nobody() -> None:
    st = mg_line(U1="1005")
    _, texts = run(st, "move U1 1004", [3, 1])
    assert not any("sustained-fire line" in t for t in texts)


def test_11_6_a_jam_ends_the_line() -> None:
    st = mg_line(U1="1005")
    after, texts = run(st, "move U1 0905", [1, 1])  # a natural 2: jam
    g3 = status(after.units["G3"])
    assert g3.line == [] and 0 in g3.jammed
    assert any("ends: its MG jammed (rule 11.6)" in t for t in texts)


def test_3_2_a_mover_destroyed_by_a_line_stops_there_before_opportunity_fire() -> None:
    st = mg_line(doubled=True, U1="1005")
    g4 = status(st.units["G4"])  # the PaK stood this turn: it would be offered a shot at the next hex
    g4.activated, g4.stood = True, True
    after, texts = run(st, "move U1 0905 0904", [10, 10, 10, 10])  # 20 and 20: every row of the squad
    assert status(after.units["U1"]).destroyed and after.units["U1"].hex is None
    assert data(after).active is None and data(after).opp_mover is None  # its activation ended at once
    assert any("U1 is out of the game" in t for t in texts)
