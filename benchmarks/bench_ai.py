"""Benchmarks of the default AI against DESIGN §11 (AI decision ≤ 1 s median, never more than its budget + 10 %):
one ``ai:normal`` decision at 10 decision points of a seeded random playout of each Blitzkrieg scenario.

Run with ``make bench`` (or the command in benchmarks/RESULTS.md). Win rates and the decision times of whole
games come from ``planspiel simulate`` (see RESULTS.md, section AI).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine
from engine.ai import PlannerAgent


def _positions(scenario: str, seed: int, count: int) -> list[engine.GameState]:
    """Views of the side to act at ``count`` decision points of a seeded random playout."""
    game = engine.new_game(engine.load_scenario("blitzkrieg1940", scenario), seed=seed)
    engine.take_scenario_setup(game)
    rng = random.Random(seed)
    views = []
    for n in range(300):
        side = game.to_act
        if side is None:
            break
        if n % (300 // count) == 0:
            views.append(game.view(side))
        game.apply(rng.choice(game.legal_actions()))
    return views


@pytest.fixture(scope="module", params=["hannut", "stonne"])
def views(request: Any) -> list[engine.GameState]:
    return _positions(request.param, 5, 10)


def test_normal_decision(benchmark: Any, views: list[engine.GameState]) -> None:
    agent = PlannerAgent("normal", seed=1)

    def decide() -> None:
        for v in views:
            agent.choose(v, agent.budget_s)

    benchmark.pedantic(decide, rounds=3, iterations=1)
