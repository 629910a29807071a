"""The End Phase events of 3.2 Phase 4, steps 2–6 (``endphase.py``): burning (8.5), pending morale (9.3), rally
(9.5), jams cleared (6.6), ammunition trailers (8.5)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.dice import ScriptedDice
from engine.hexgrid import parse_hex
from engine.rules import Transition
from engine.rulesets.hacse.endphase import (
    SMOKE_FIELD,
    end_phase_events,
    end_phase_smoke,
    smoke_markers,
)
from engine.rulesets.hacse.model import data, status
from engine.state import GameState

from .helpers import game, placed, ruleset


def _end(st: GameState, dice: list[int]) -> tuple[GameState, list[str]]:
    """The End Phase events on a copy of ``st`` with scripted dice; the state after and the log texts."""
    st = st.clone()
    st.dice = ScriptedDice(dice)
    tr = Transition(st)
    end_phase_events(tr, ruleset().tables)
    return tr.state, [e.text for e in tr.events]


def _h1() -> GameState:
    return placed(game("h1-le-hamel"), U1="0407", U4="0307:ne")


def test_8_5_a_burning_vehicle_takes_one_damage_and_rolls_morale_for_burning() -> None:
    st = _h1()
    status(st.units["U4"]).rows_hit = [8]  # the M4's fuel tank: burning (8.5)
    # burning_damage: the location roll on the side column (3+4: tracks, row 6), then the morale roll of 9.3
    after, log = _end(st, [3, 4, 1, 1])
    assert status(after.units["U4"]).rows_hit == [6, 8]
    assert "U4 burns: 1 damage, row 6 hit (rule 8.5)" in log
    assert any("-4 burning" in t for t in log)  # 9.4
    assert "U4 rolls 2 for morale against 10: steady (rule 9.5)" in log


def test_8_5_a_burning_vehicle_whose_ammunition_is_hit_burns_out() -> None:
    st = _h1()
    status(st.units["U4"]).rows_hit = [8]
    after, log = _end(st, [1, 1])  # 2: the ammunition row 9 (15.6)
    assert status(after.units["U4"]).destroyed and after.units["U4"].hex is None
    assert "U4 burns out and is destroyed (rule 8.5)" in log


def test_8_5_a_vehicle_that_is_not_burning_takes_nothing() -> None:
    st = _h1()
    status(st.units["U4"]).rows_hit = [6]  # tracks only
    after, log = _end(st, [])
    assert status(after.units["U4"]).rows_hit == [6] and log == []


def test_9_5_a_unit_shaken_this_turn_does_not_rally_yet() -> None:
    st = _h1()
    s = status(st.units["U1"])
    s.shaken, s.shaken_turn = True, st.turn
    after, log = _end(st, [])
    assert status(after.units["U1"]).shaken and log == []


def test_9_5_a_unit_shaken_earlier_rallies_on_a_success_and_stays_shaken_on_a_failure() -> None:
    st = _h1()
    st.turn = 2
    s = status(st.units["U1"])
    s.shaken, s.shaken_turn = True, 1
    rallied, log = _end(st, [1, 1])  # 2 <= any morale value
    assert not status(rallied.units["U1"]).shaken
    assert any("U1 rolls 2" in t and "rallies (rule 9.5)" in t for t in log)
    stays, log = _end(st, [10, 10])  # 20: fails, and a rally roll never dissolves (INTERP)
    assert status(stays.units["U1"]).shaken and not status(stays.units["U1"]).destroyed
    assert any("stays shaken (rule 9.5)" in t for t in log)


def test_6_6_a_weapon_jammed_in_turn_n_is_cleared_in_the_end_phase_of_turn_n_plus_1() -> None:
    st = _h1()
    s = status(st.units["U4"])
    s.jammed, s.jam_turns = [0], {"0": st.turn}
    same_turn, _ = _end(st, [])
    assert status(same_turn.units["U4"]).jammed == [0]
    st.turn += 1
    next_turn, log = _end(st, [])
    assert status(next_turn.units["U4"]).jammed == [] and any("is cleared (rule 6.6)" in t for t in log)


def test_8_5_an_ammunition_trailer_hit_leaves_no_rounds() -> None:
    """No sheet of the roster (15.7) has an ammunition-trailer row: the test gives the Opel Blitz one (its
    equipment row 5 turned into a trailer) in a copy of the tables."""
    tables = ruleset().tables
    truck = tables.sheets["GER-OPELBLITZ"]
    rows = tuple(replace(r, kind="ammo_trailer") if r.index == len(truck.rows) else r for r in truck.rows)
    sheet = replace(truck, rows=rows, mounts=tables.sheets["GER-SDKFZ251"].mounts)
    changed = replace(tables, sheets={**tables.sheets, sheet.id: sheet})
    st = placed(game("h2-height-212"), G5="2213:nw")
    status(st.units["G5"]).rows_hit = [len(truck.rows)]
    st.dice = ScriptedDice([])
    tr = Transition(st)
    end_phase_events(tr, changed)
    spent = status(tr.state.units["G5"]).spent
    assert spent and all(spent[f"{i}.{k}"] == n for i, m in enumerate(sheet.mounts) for k, n in m.ammo.items())
    assert any("no rounds left (rule 8.5)" in e.text for e in tr.events)


def test_3_2_step_8_smoke_markers_lose_a_turn_and_clear_at_0(monkeypatch: pytest.MonkeyPatch) -> None:
    """The indirect-fire rules keep smoke in ``Data.smoke`` (hex → turns left, 7.1)."""
    st = _h1()
    assert smoke_markers(st) == {}  # no smoke yet: nothing happens
    a, b = parse_hex("0905"), parse_hex("1005")
    getattr(data(st), SMOKE_FIELD).update({a: 2, b: 1})
    tr = Transition(st.clone())
    end_phase_smoke(tr)
    assert smoke_markers(tr.state) == {a: 1}
    assert [e.text for e in tr.events] == ["The smoke in 1005 clears (rule 7.1)"]
