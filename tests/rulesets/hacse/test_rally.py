"""Morale rules that need the whole state (``rally.py``): leaders in the roll (9.2, 9.4), the End Phase's
leader-contact roll (9.3, 3.2 Phase 4 step 3), shaken units moving only away from the enemy (9.5), and the
acceptance cases 14.9 AC-MO-01, 03 and 08 played through the engine."""

from __future__ import annotations

import pytest

from engine.dice import ScriptedDice
from engine.errors import IllegalActionError
from engine.rules import Transition
from engine.rulesets.hacse import sheets
from engine.rulesets.hacse.attack import roll_morale
from engine.rulesets.hacse.endphase import end_phase_events
from engine.rulesets.hacse.model import status
from engine.rulesets.hacse.rally import leadership
from engine.state import GameState

from .helpers import WIN, game, placed, play, ruleset


def _end(st: GameState, dice: list[int]) -> tuple[GameState, list[str]]:
    st = st.clone()
    st.dice = ScriptedDice(dice)
    tr = Transition(st)
    end_phase_events(tr, ruleset().tables)
    return tr.state, [e.text for e in tr.events]


def _h1(**where: str) -> GameState:
    return placed(game("h1-le-hamel", WIN), **where)


def test_9_2_own_group_leader_is_contact_and_a_company_leader_in_reach_completes_the_chain() -> None:
    st = _h1()
    tables = ruleset().tables
    g2 = leadership(st, tables, st.units["G2"])  # 0908, 2 hexes from the company HQ in 1107 (10.1)
    assert g2.contact and g2.full_chain
    far = placed(game("h1-le-hamel", WIN), G2="1702")
    assert not leadership(far, tables, far.units["G2"]).full_chain  # out of reach, no radio
    assert leadership(far, tables, far.units["G2"]).contact  # its own group leader (row 10)


def test_9_2_a_unit_whose_group_leader_is_hit_keeps_contact_only_through_a_company_leader() -> None:
    tables = ruleset().tables
    st = _h1()
    status(st.units["G2"]).rows_hit = [10]  # the group leader (9.2: the last soldier)
    lead = leadership(st, tables, st.units["G2"])
    assert lead.contact and not lead.full_chain
    far = _h1(G2="1702")
    status(far.units["G2"]).rows_hit = [10]
    assert not leadership(far, tables, far.units["G2"]).contact


def test_14_9_ac_mo_01_no_leader_contact_takes_minus_4_in_the_engine() -> None:
    st = _h1(U1="0302")
    status(st.units["U1"]).rows_hit = [12]  # the US squad's leader row; no company HQ on the US side
    _, log = _end(st, [1, 1])
    assert "U1 has no contact to any leader and rolls morale (rule 9.3)" in log
    assert any(t.startswith("U1 rolls 2 for morale against ") for t in log)
    value = int(next(t for t in log if t.startswith("U1 rolls 2 for")).split("against ")[1].split(":")[0])
    steady = _end(_h1(U1="0302"), [])[1]
    assert steady == []  # with its leader intact: no roll at all
    assert value == sheets.morale(status(st.units["U1"]).experience) - 1 - 4  # 1 damage, no leader (9.4)


def test_14_9_ac_mo_03_full_chain_adds_4_in_the_engine() -> None:
    st = _h1()
    status(st.units["G2"]).rows_hit = [1, 2, 3]  # 3 damage, group leader (row 10) intact, the HQ in reach
    log = _end_roll(st, "G2")
    m = sheets.morale(status(st.units["G2"]).experience)
    assert f"G2 rolls 2 for morale against {m - 3 + 4}: steady (rule 9.5)" in log


def _end_roll(st: GameState, uid: str) -> list[str]:
    st = st.clone()
    st.dice = ScriptedDice([1, 1])
    tr = Transition(st)
    roll_morale(tr, ruleset().tables, st.units[uid])
    return [e.text for e in tr.events]


def test_14_9_ac_mo_08_a_burning_unit_rolls_once_for_burning_and_once_for_damage() -> None:
    """AC-MO-08 through the End Phase: the M4 burns (fuel tank, row 8) and its burning damage takes it to 50 % or
    more (8 of 15): that gives one roll for burning and one for the damage, no more (9.3)."""
    st = _h1(U4="0307:ne")
    status(st.units["U4"]).rows_hit = [2, 3, 4, 5, 7, 8, 10]  # 7 of 15; the burning damage makes 8
    _, log = _end(st, [3, 4, 1, 1, 1, 1])
    assert sum(1 for t in log if t.startswith("U4 rolls") and "for morale" in t) == 2


def test_9_5_a_shaken_unit_may_only_move_away_from_the_enemy() -> None:
    st = _h1(U1="0302", G2="0305")
    s = status(st.units["U1"])
    s.shaken, s.sighted = True, ["G2"]
    rs = ruleset()
    with pytest.raises(IllegalActionError, match=r"shaken.*not farther from the enemy.*rule 9\.5"):
        rs.check(st, rs.parse_action(st, "move U1 0303"))
    texts = {str(a) for a in rs.legal_actions(st)}
    assert "move U1 0303" not in texts  # (laying a trap there is still work, 13.3)
    after = play(st, "move U1 0301")  # away from G2
    assert after.units["U1"].hex is not None and after.board.label(after.units["U1"].hex) == "0301"


def test_9_5_a_shaken_unit_with_no_enemy_known_may_not_move() -> None:
    st = _h1(U1="0302")
    status(st.units["U1"]).shaken = True
    rs = ruleset()
    with pytest.raises(IllegalActionError, match=r"only move away from a known enemy.*rule 9\.5"):
        rs.check(st, rs.parse_action(st, "move U1 0301"))
