"""Benchmarks the engine's replay against DESIGN §11 (issue 17): ``check`` + ``apply`` of one action ≤ 0.15 ms on the
replay of a long game, ``engine.replay`` of a whole game (loading with the replay check: ≤ 200 ms), and a state copy
(``GameState.clone``, ≤ 50 µs).

The games are the longest seeded random playouts of Hannut and Stonne in ``benchmarks/same_games.py`` (seeds 0–7):
Hannut seed 4 (784 actions; the game of ``tests/saves/helpers.play_random`` seed 4, 866 actions before the rules
changes of issue 16) and Stonne seed 4 (1,232 actions); Stonne seed 1 (1,146 actions) is the game the issue names.
Each is played once (a few seconds), then replayed from its actions.

``make bench`` runs the pytest-benchmark tests; ``python benchmarks/bench_replay.py [ROUNDS]`` prints, for each game,
the median of ROUNDS (default 5) replays, the per-action time of its parts (reading, ``check``, the state's clone and
``apply``, as ``Game.apply`` does them, the collector on) and the median clone of the state halfway through (the
figures in benchmarks/RESULTS.md, section "Issue 17").
"""

from __future__ import annotations

import contextlib
import statistics
import sys
import time
from functools import cache
from typing import Any

import pytest
from same_games import random_game

import engine
import engine.game
from engine.rules import Transition

GAMES = (("hannut", 4), ("stonne", 1), ("stonne", 4))
"""(scenario, seed) of the Blitzkrieg 1940 random playouts replayed."""


@cache
def history(scenario: str, seed: int) -> tuple[engine.Scenario, tuple[engine.Action, ...]]:
    """The scenario and the actions of the seeded random playout (as same_games.py plays it)."""
    _, game = random_game("blitzkrieg1940", scenario, seed, 5_000)
    return game.scenario, game.history


def check_apply(sc: engine.Scenario, seed: int, actions: tuple[engine.Action, ...]) -> list[float]:
    """Seconds of reading, ``check``, the clone and ``apply`` summed over the replay of ``actions``, done as
    ``Game.apply`` does them (the game keeps its positions as it does), with the collector paused as in
    ``engine.replay``. The steps of ``Game.apply`` are written out here, not called, to time each one, and so
    that the same file measures trees before issue 17 too: keep them in step with ``Game.apply``."""
    with _paused():
        return _check_apply(sc, seed, actions)


_paused = getattr(engine.game, "collector_paused", contextlib.nullcontext)
"""engine.game.collector_paused (nothing on a tree before issue 17, so that this file measures it too)."""


def _check_apply(sc: engine.Scenario, seed: int, actions: tuple[engine.Action, ...]) -> list[float]:
    game = engine.new_game(sc, seed)
    rs = game.ruleset
    parts = [0.0, 0.0, 0.0, 0.0]
    clock = time.perf_counter
    for action in actions:
        st = game.state
        t0 = clock()
        read = game._read(st, action)
        t1 = clock()
        rs.check(st, read)
        t2 = clock()
        tr = Transition(st.clone())
        t3 = clock()
        rs.apply(tr, read)
        t4 = clock()
        game._history.append(read)
        game._events.append(tuple(tr.events))
        if tr.rolled or tr.revealed:
            game._undo_floor = len(game._history)
            game._states = [tr.state]
        else:
            game._states.append(tr.state)
        for i, dt in enumerate((t1 - t0, t2 - t1, t3 - t2, t4 - t3)):
            parts[i] += dt
    return parts


def halfway(sc: engine.Scenario, seed: int, actions: tuple[engine.Action, ...]) -> engine.GameState:
    return engine.replay(sc, seed, actions[: len(actions) // 2]).state


@pytest.fixture(scope="module", params=[f"{s}-{n}" for s, n in GAMES])
def game(request: Any) -> tuple[engine.Scenario, int, tuple[engine.Action, ...]]:
    scenario, seed = request.param.split("-")
    sc, actions = history(scenario, int(seed))
    return sc, int(seed), actions


def test_replay_whole_game(benchmark: Any, game: tuple[engine.Scenario, int, tuple[engine.Action, ...]]) -> None:
    sc, seed, actions = game
    replayed = benchmark.pedantic(engine.replay, args=(sc, seed, actions), rounds=5, iterations=1)
    assert replayed.history == actions
    benchmark.extra_info["actions"] = len(actions)


def test_check_and_apply_per_action(
    benchmark: Any, game: tuple[engine.Scenario, int, tuple[engine.Action, ...]]
) -> None:
    """One round: every action of the game read, checked, and applied to a clone (the per-action figure is the
    round divided by ``actions``)."""
    sc, seed, actions = game
    benchmark.pedantic(check_apply, args=(sc, seed, actions), rounds=5, iterations=1)
    benchmark.extra_info["actions"] = len(actions)


def test_state_clone_halfway(benchmark: Any, game: tuple[engine.Scenario, int, tuple[engine.Action, ...]]) -> None:
    st = halfway(*game)
    assert benchmark(st.clone) == st


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    for scenario, seed in GAMES:
        sc, actions = history(scenario, seed)
        n = len(actions)
        whole = []
        for _ in range(rounds):
            t = time.perf_counter()
            engine.replay(sc, seed, actions)
            whole.append(time.perf_counter() - t)
        runs = [check_apply(sc, seed, actions) for _ in range(rounds)]
        part = [statistics.median(r[i] for r in runs) / n * 1e6 for i in range(4)]
        per = statistics.median(sum(r) for r in runs) / n * 1e3
        st = halfway(sc, seed, actions)
        clones = []
        for _ in range(300):
            t = time.perf_counter()
            st.clone()
            clones.append(time.perf_counter() - t)
        print(
            f"{scenario} seed {seed}: {n} actions; replay median {statistics.median(whole) * 1e3:.0f} ms "
            f"({statistics.median(whole) / n * 1e3:.3f} ms an action); read + check + clone + apply {per:.3f} ms "
            f"an action (read {part[0]:.0f}, check {part[1]:.0f}, clone {part[2]:.0f}, apply {part[3]:.0f} µs); "
            f"clone of the state halfway {statistics.median(clones) * 1e6:.0f} µs"
        )


if __name__ == "__main__":
    sys.exit(main())
