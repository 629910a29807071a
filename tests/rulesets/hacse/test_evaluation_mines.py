"""Tests of mines in the AI's evaluation (digest 13.4; ``evaluation._known_mines``, weight ``mines`` in
``data/ai.toml``): a unit in a hex of known enemy mines that can affect it costs its side its BV times the chance of
a trigger; mines the side does not know (the enemy's secret ones) change nothing."""

from __future__ import annotations

import dataclasses

import pytest

from engine.hexgrid import parse_hex
from engine.rulesets.hacse.data import load_tables
from engine.rulesets.hacse.evaluation import weights
from engine.rulesets.hacse.model import data
from engine.state import GameState

from .helpers import game, placed, ruleset

T = load_tables()
MINED = parse_hex("0807")  # H-1: 3 secret German AT mines (15.10.3)


def _value(st: GameState, side: str) -> float:
    rs = ruleset()
    return rs.evaluate(rs.view(st, side), side)


def _h1(known: bool | None, **where: str) -> GameState:
    """H-1 with units placed by hand; its German AT mines at 0807 secret (``known`` False), known to the US (True)
    or gone (None)."""
    st = placed(game("h1-le-hamel"), **where)
    d = data(st)
    d.mines = [] if known is None else [dataclasses.replace(m, secret=not known) for m in d.mines]
    return st


def _chance(n: int) -> float:
    return sum(1 for a in range(1, 11) for b in range(1, 11) if a + b >= 15 - n) / 100


def test_13_4_hidden_mines_the_side_does_not_know_change_nothing() -> None:
    assert any(m.hex == MINED and m.secret for m in data(_h1(False)).mines)
    for side in ("us", "german"):
        assert _value(_h1(False, U4="0807:ne"), side) == _value(_h1(None, U4="0807:ne"), side)


def test_13_4_a_tank_in_known_enemy_at_mines_costs_its_bv_times_the_trigger_chance() -> None:
    here, clear = _value(_h1(True, U4="0807:ne"), "us"), _value(_h1(None, U4="0807:ne"), "us")
    st = _h1(True, U4="0807:ne")
    n = sum(m.count for m in data(st).mines if m.hex == MINED)
    bv = T.sheets[st.units["U4"].type].bv
    assert here == pytest.approx(clear - weights()["mines"] * bv * _chance(n))
    assert here < clear


def test_13_4_the_enemy_in_known_mines_counts_for_the_side() -> None:
    assert _value(_h1(True, U4="0807:ne"), "german") > _value(_h1(None, U4="0807:ne"), "german")


def test_13_4_at_mines_do_not_weigh_on_infantry() -> None:
    assert _value(_h1(True, U1="0807"), "us") == _value(_h1(None, U1="0807"), "us")


def test_13_4_the_ai_prefers_a_path_around_known_mines() -> None:
    """Two states that differ only in the tank's hex: next to the mines it is worth more than in them."""
    assert _value(_h1(True, U4="0707:ne"), "us") - _value(_h1(True, U4="0807:ne"), "us") > 0
    assert _value(_h1(False, U4="0807:ne"), "us") == _value(_h1(None, U4="0807:ne"), "us")
