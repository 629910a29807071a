"""Benchmarks the engine.typed codec against copy_plain of the same state held as plain dicts.

The state is a Blitzkrieg 1940 Hannut position (seed 3, the scenario's set-up, then 60 seeded random actions)
read into records that model its data (``BkData``: 15 formations, 27 chits, the cup, players, frames, held hexes)
and its 74 unit statuses (``BkStatus``). The plain dicts are what the ruleset holds today. Run with::

    .venv/bin/python -m pytest benchmarks/bench_typed.py -q --benchmark-enable \\
        --benchmark-columns=median,mean,min,rounds -o addopts=""

Figures are in benchmarks/RESULTS.md (section "Typed state").
"""

from __future__ import annotations

import random
from typing import Any

import msgpack
import pytest

import engine
from engine import GameState, Hex
from engine.game import take_scenario_setup
from engine.state import copy_plain
from engine.typed import clone, field, from_plain, record, to_plain


@record
class BkFormation:
    side: str
    name: str
    hq: str | None
    ff: int
    independent: bool = False
    acts: int = 0
    normal_used: bool = False
    replay_used: bool = False
    skipped: bool = False
    exhausted: bool = False
    demoralised: bool = False
    steps_total: int = 0
    steps_lost: int = 0
    overrun: bool = False
    removed: bool = False
    leaves: str | None = None


@record
class BkChit:
    kind: str
    side: str
    formation: str | None = None
    turn: int | None = None
    salvos: list[Any] | None = None


@record
class BkPlayer:
    replays: list[Any] = field(default_factory=list)
    general: str | None = None
    general_free: bool = False
    held: str | None = None
    activated: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


@record
class BkData:
    scenario: str
    turns: int
    formations: dict[str, BkFormation]
    chits: dict[str, BkChit]
    cup: list[str]
    players: dict[str, BkPlayer]
    frames: list[dict[str, Any]]
    forts: list[Hex]
    held_by: dict[Hex, str]
    victory: dict[str, Any]
    special: dict[str, Any]
    edges: dict[str, str]
    carried: Any = None
    next_first: str | None = None
    pass_owner: str | None = None
    removed_chits: list[str] = field(default_factory=list)
    mines: dict[Hex, Any] = field(default_factory=dict)
    schedule: list[Any] = field(default_factory=list)
    t1_kept: list[str] = field(default_factory=list)
    deploy: Any = None


@record
class BkStatus:
    independent: bool = False
    group: str | None = None
    carrying: str | None = None
    halftrack_icon: bool = False
    carried_by: str | None = None
    acted: bool = False
    retreated: bool = False
    moving: dict[str, Any] | None = None
    opp_used: bool = False
    neutralised: bool = False
    column: bool = False
    ooc: bool = False


@pytest.fixture(scope="module")
def plain_state() -> GameState:
    """The Hannut position with plain dicts, as the ruleset keeps it."""
    game = engine.new_game(engine.load_scenario("blitzkrieg1940", "hannut"), seed=3)
    take_scenario_setup(game)
    rng = random.Random(1)
    for _ in range(60):
        game.apply(rng.choice(game.legal_actions()))
    return game.state


@pytest.fixture(scope="module")
def typed_state(plain_state: GameState) -> GameState:
    """The same position with its data and statuses read into records."""
    st = GameState.from_dict(plain_state.to_dict(), plain_state.board, data_type=BkData, status_type=BkStatus)
    assert len(st.data.formations) == 15 and len(st.data.chits) == 27 and len(st.units) == 74
    assert st.clone() == st
    return st


def test_clone_data_record(benchmark: Any, typed_state: GameState) -> None:
    copy = benchmark(clone, typed_state.data)
    assert copy == typed_state.data and copy.formations is not typed_state.data.formations


def test_copy_plain_data_dict(benchmark: Any, plain_state: GameState) -> None:
    copy = benchmark(copy_plain, plain_state.data)
    assert copy == plain_state.data


def test_clone_statuses(benchmark: Any, typed_state: GameState) -> None:
    statuses = [u.status for u in typed_state.units.values()]
    copies = benchmark(lambda: [clone(s) for s in statuses])
    assert copies == statuses


def test_copy_plain_statuses(benchmark: Any, plain_state: GameState) -> None:
    statuses = [u.status for u in plain_state.units.values()]
    copies = benchmark(lambda: [copy_plain(s) for s in statuses])
    assert copies == statuses


def test_state_clone_with_records(benchmark: Any, typed_state: GameState) -> None:
    assert benchmark(typed_state.clone) == typed_state


def test_state_clone_with_plain_dicts(benchmark: Any, plain_state: GameState) -> None:
    assert benchmark(plain_state.clone) == plain_state


def test_to_plain_data_record(benchmark: Any, typed_state: GameState) -> None:
    written = benchmark(to_plain, typed_state.data)
    assert from_plain(BkData, written) == typed_state.data


def test_from_plain_data_record(benchmark: Any, typed_state: GameState) -> None:
    plain = msgpack.unpackb(msgpack.packb(to_plain(typed_state.data)), raw=False)
    assert benchmark(from_plain, BkData, plain) == typed_state.data
