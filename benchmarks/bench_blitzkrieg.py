"""Benchmarks of the Blitzkrieg 1940 ruleset against DESIGN §11: legal actions for the side to act (≤ 20 ms),
one ``apply`` per decision, and one whole seeded random playout per scenario.

Run with ``make bench`` (or the command in benchmarks/RESULTS.md); ``python benchmarks/bench_blitzkrieg.py`` prints the
median and the maximum of ``legal_actions`` per decision over the positions of each scenario (each position's median
of 15 calls; the figures of benchmarks/RESULTS.md, section "Issue 17").
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from typing import Any

import pytest

import engine


def _positions(scenario: str, seed: int, count: int) -> list[engine.Game]:
    """Games paused at ``count`` decision points of a seeded random playout (one game per point)."""
    sc = engine.load_scenario("blitzkrieg1940", scenario)
    game = engine.new_game(sc, seed=seed)
    rng = random.Random(seed)
    history: list[engine.Action] = []
    stops = set(range(0, 400, max(1, 400 // count)))
    games = []
    for n in range(400):
        if game.to_act is None:
            break
        if n in stops:
            games.append(engine.replay(sc, seed, history))
        action = rng.choice(game.legal_actions())
        game.apply(action)
        history.append(action)
    return games


@pytest.fixture(scope="module", params=["hannut", "stonne"])
def positions(request: Any) -> list[engine.Game]:
    return _positions(request.param, 3, 20)


def test_legal_actions_per_decision(benchmark: Any, positions: list[engine.Game]) -> None:
    def run() -> int:
        return sum(len(g.ruleset.legal_actions(g.state)) for g in positions)

    total = benchmark(run)
    assert total > 0
    benchmark.extra_info["decisions"] = len(positions)


def test_apply_per_decision(benchmark: Any, positions: list[engine.Game]) -> None:
    rng = random.Random(1)
    chosen = [(g, rng.choice(g.legal_actions())) for g in positions]

    def run() -> None:
        # What Game.apply does, on a clone, so that every round starts from the same positions.
        for g, action in chosen:
            g.ruleset.check(g.state, action)
            tr = engine.Transition(g.state.clone())
            g.ruleset.apply(tr, action)

    benchmark(run)
    benchmark.extra_info["decisions"] = len(chosen)


@pytest.mark.parametrize("scenario", ["hannut", "stonne"])
def test_whole_random_playout(benchmark: Any, scenario: str) -> None:
    sc = engine.load_scenario("blitzkrieg1940", scenario)

    def run() -> int:
        game = engine.new_game(sc, seed=11)
        rng = random.Random(11)
        while game.to_act is not None:
            game.apply(rng.choice(game.legal_actions()))
        return len(game.history)

    actions = benchmark.pedantic(run, rounds=3, iterations=1)
    benchmark.extra_info["actions"] = actions


def main() -> None:
    for scenario in ("hannut", "stonne"):
        per = []
        for g in _positions(scenario, 3, 20):
            times = []
            for _ in range(15):
                t = time.perf_counter()
                g.ruleset.legal_actions(g.state)
                times.append(time.perf_counter() - t)
            per.append((statistics.median(times), g.state.phase, len(g.history)))
        worst = max(per)
        median = statistics.median(p[0] for p in per)
        print(
            f"{scenario}: legal_actions at {len(per)} positions, median {median * 1e3:.3f} ms, "
            f"max {worst[0] * 1e3:.3f} ms ({worst[1]}, after {worst[2]} actions)"
        )


if __name__ == "__main__":
    sys.exit(main())
