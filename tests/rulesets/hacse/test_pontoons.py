"""Pontoons (digest 4.8, 13.7; ``pontoons.py``): laid by an engineer unit as a turn of work from a hex next to an
AT ditch or a stream, done in the End Phase; a ditch or stream with a pontoon is a stream crossing ("max.") for
every class, wheeled too."""

from __future__ import annotations

from engine.hexgrid import parse_hex
from engine.rulesets.hacse.model import data, status
from engine.state import GameState

from .helpers import WIN, game, placed, play, refused
from .test_fortifications import _end_turn, _h1, _legal, _refused

H = parse_hex
DITCH = H("0708")  # H-1: clear, level 1 (a ditch placed by the tests)


def _ditch(**where: str) -> GameState:
    st = _h1(**where)
    data(st).ditches.append(DITCH)
    return st


def test_4_8_a_pontoon_is_laid_from_next_to_the_ditch_in_the_end_phase() -> None:
    st = _ditch(U1="0707")
    assert not any(a.startswith("lay U1 0708 pontoon") for a in _legal(st))  # U1 carries none
    _refused(st, "lay U1 0708 pontoon", r"carries no pontoon.*rule 4\.8")
    status(st.units["U1"]).pontoons = 1  # an engineer unit (4.8 P: the scenario's status)
    assert "lay U1 0708 pontoon" in _legal(st)
    assert not any(a.endswith("pontoon") and a != "lay U1 0708 pontoon" for a in _legal(st))  # only the ditch
    after = play(st, "lay U1 0708 pontoon")
    assert status(after.units["U1"]).work == "lay" and DITCH not in data(after).pontoons
    after = _end_turn(after)
    assert data(after).pontoons == [DITCH] and status(after.units["U1"]).pontoons == 0


def test_4_8_pontoon_refusals_cite_the_rule() -> None:
    st = _ditch(U1="0708")
    status(st.units["U1"]).pontoons = 1
    assert refused(st, "lay U1 0708 pontoon").rule == "4.8"  # not from inside the ditch
    assert refused(st, "lay U1 0709 pontoon").rule == "4.8"  # 0709 is clear ground
    st = _ditch(U1="0707")
    status(st.units["U1"]).pontoons = 1
    data(st).pontoons.append(DITCH)
    assert refused(st, "lay U1 0708 pontoon").rule == "4.8"  # one is there already


def test_4_8_13_7_a_tracked_vehicle_crosses_a_ditch_with_a_pontoon_as_a_whole_move() -> None:
    st = _ditch(U4="0707:s")
    _refused(st, "move U4 0708", r"cannot cross the AT ditch in 0708.*rule 13\.7")
    data(st).pontoons.append(DITCH)
    after = play(st, "move U4 0708")
    assert after.units["U4"].hex == DITCH and status(after.units["U4"]).max_move  # "max." (4.3)
    spent = play(st, "turn U4 sw")
    _refused(spent, "move U4 0708", r"takes the whole move.*rule 4\.3")


def test_4_8_a_wheeled_vehicle_crosses_a_stream_only_over_a_pontoon() -> None:
    # H-3's ford 1012 is a stream (AC-SC-06: a wheeled vehicle may not cross it); S5 played as a truck next to it
    st = placed(game("h3-bridge-at-dusk", [10, 10, 1, 1]), S5="1112:sw")
    st.units["S5"].type = "GER-OPELBLITZ"
    st.to_act = "soviet"
    ford = H("1012")
    _refused(st, "move S5 1012", r"entering 1012 \(ford\) is prohibited.*rule 4\.3")
    data(st).pontoons.append(ford)
    after = play(st, "move S5 1012")
    assert after.units["S5"].hex == ford and status(after.units["S5"]).max_move


def test_4_8_a_pontoon_across_a_ditch_carries_a_wheeled_vehicle() -> None:
    st = placed(game("h2-height-212", WIN), G5="0510:n")
    ditch = H("0509")
    data(st).ditches.append(ditch)
    st.to_act = "german"
    _refused(st, "move G5 0509", r"wheel unit cannot cross the AT ditch in 0509.*rule 13\.7")
    data(st).pontoons.append(ditch)
    after = play(st, "move G5 0509")
    assert after.units["G5"].hex == ditch and status(after.units["G5"]).max_move
