"""Benchmarks of the Art of Tactic AI against DESIGN §11 (AI decision ≤ 1 s median, never more than its budget
+ 10 %) and of the first ``legal_actions`` of a round (budget 20 ms): seeded random playouts of the eight
scenarios, a view of the side to act at the first planning decision of each of the first rounds.

``make bench`` runs the pytest-benchmark tests; ``python benchmarks/bench_art_of_tactic_ai.py`` prints the
median and maximum of both over every position (the figures in benchmarks/RESULTS.md, section Art of Tactic AI).
Win rates come from ``planspiel simulate`` (see RESULTS.md).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from typing import Any

import pytest

import engine
from engine.ai import PlannerAgent
from engine.rules import get_ruleset

SCENARIOS = (
    "p1-grenzgefecht",
    "p2-die-bruecke",
    "p3-stuetzpunkt",
    "o1-waldrand",
    "o2-furt",
    "o3-panzerkeil",
    "o4-brueckenkopf",
    "o5-hoehe-112",
)


def _positions(scenario: str, seed: int, rounds: int) -> list[engine.GameState]:
    """Views of the side to act at the first planning decision of each side in the first ``rounds`` rounds."""
    game = engine.new_game(engine.load_scenario("art_of_tactic", scenario), seed=seed)
    rng = random.Random(seed)
    views = []
    last: tuple[int, str | None] | None = None
    while game.to_act is not None and game.state.turn <= rounds:
        key = (game.state.turn, game.to_act)
        if key != last:
            views.append(game.view(game.to_act))
            last = key
        game.apply(rng.choice(game.legal_actions()))
    return views


def _cold_legal(view: engine.GameState) -> float:
    """Seconds of ``legal_actions`` as the first call of a round (the per-round cache of orders emptied)."""
    rs = get_ruleset("art_of_tactic")
    for k in [k for k in view.board.cache if isinstance(k, tuple) and k and k[0] == "aot-legal"]:
        del view.board.cache[k]
    t = time.perf_counter()
    rs.legal_actions(view)
    return time.perf_counter() - t


@pytest.fixture(scope="module", params=["p2-die-bruecke", "o3-panzerkeil"])
def views(request: Any) -> list[engine.GameState]:
    return _positions(request.param, 5, 3)


def test_aot_normal_decision(benchmark: Any, views: list[engine.GameState]) -> None:
    agent = PlannerAgent("normal", seed=1)

    def decide() -> None:
        for v in views:
            agent.choose(v, agent.budget_s)

    benchmark.pedantic(decide, rounds=3, iterations=1)


def test_aot_first_legal_actions(benchmark: Any, views: list[engine.GameState]) -> None:
    benchmark.pedantic(lambda: [_cold_legal(v) for v in views], rounds=3, iterations=1)


def main() -> None:
    """Prints the median and maximum ``ai:normal`` decision and first ``legal_actions`` over all positions."""
    agent = PlannerAgent("normal", seed=1)
    decisions: list[float] = []
    legal: list[float] = []
    for sc in SCENARIOS:
        for v in _positions(sc, 5, 4):
            legal.append(_cold_legal(v))
            t = time.perf_counter()
            agent.choose(v, agent.budget_s)
            decisions.append(time.perf_counter() - t)
    for name, xs in (("ai:normal decision", decisions), ("first legal_actions of a round", legal)):
        print(f"{name}: {len(xs)} positions, median {statistics.median(xs) * 1000:.1f} ms, max {max(xs) * 1000:.1f} ms")


if __name__ == "__main__":
    sys.exit(main())
