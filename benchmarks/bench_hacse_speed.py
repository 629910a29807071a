"""Benchmarks of the HACSE engine speed against DESIGN §11 (issue 19, "Done when"): ``legal_actions`` for the side
to act (≤ 0.5 ms), ``check`` + ``apply`` of one action (≤ 0.15 ms, measured as a replay of a whole game), and a
state copy (≤ 50 µs), over the seeded random playouts of the conformance test (even seeds: the scenario's
set-up; odd seeds: a random set-up, whose placement lists are the longest).

``make bench`` runs the pytest-benchmark test; ``python benchmarks/bench_hacse_speed.py [N] [--cpu]`` prints, per
scenario over N playouts (default 6), the median and 95th percentile of ``legal_actions`` in play and in the
set-up, the replay time per action, ``apply`` in play (check, state copy and the action: median and 95th
percentile), and the median state copy (figures in benchmarks/RESULTS.md, HACSE engine speed); ``--cpu`` times
with the thread's CPU time instead of the wall clock. The ruleset is registered here, as its tests do (it is not
offered yet).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from typing import Any

import engine
from engine.rulesets.hacse.ruleset import Hacse

SCENARIOS = ("h1-le-hamel", "h2-height-212", "h3-bridge-at-dusk")


def _register() -> None:
    if "hacse" not in engine.ruleset_names():
        engine.register_ruleset(Hacse())


def playout(
    scenario: str, seed: int, applied: list[float] | None = None
) -> tuple[engine.Game, list[float], list[float]]:
    """A random playout: the game, and the seconds of each ``legal_actions`` in the set-up and in play (and of each
    ``apply`` in play, check included, added to ``applied`` when given)."""
    _register()
    game = engine.new_game(engine.load_scenario("hacse", scenario), seed=seed)
    rng = random.Random(seed)
    if seed % 2 == 0:
        engine.take_scenario_setup(game)
    setup: list[float] = []
    play: list[float] = []
    while game.to_act is not None:
        t0 = time.perf_counter()
        legal = game.legal_actions()
        (setup if game.state.phase == "setup" else play).append(time.perf_counter() - t0)
        in_play = game.state.phase != "setup"
        t0 = time.perf_counter()
        game.apply(rng.choice(legal))
        if applied is not None and in_play:
            applied.append(time.perf_counter() - t0)
    return game, setup, play


def _p95(xs: list[float]) -> float:
    return sorted(xs)[int(0.95 * (len(xs) - 1))] if xs else 0.0


def figures(scenario: str, n: int) -> dict[str, Any]:
    """The figures of ``n`` playouts of one scenario."""
    setup: list[float] = []
    play: list[float] = []
    per_action: list[float] = []
    copies: list[float] = []
    applied: list[float] = []
    for seed in range(n):
        game, s, p = playout(scenario, seed, applied)
        setup += s
        play += p
        t0 = time.perf_counter()
        engine.replay(game.scenario, seed, game.history)
        per_action.append((time.perf_counter() - t0) / max(1, len(game.history)))
        for _ in range(50):
            t0 = time.perf_counter()
            game.state.clone()
            copies.append(time.perf_counter() - t0)
    return {
        "legal_play_median_ms": statistics.median(play) * 1000,
        "legal_play_p95_ms": _p95(play) * 1000,
        "legal_setup_median_ms": statistics.median(setup) * 1000 if setup else 0.0,
        "replay_per_action_ms": statistics.median(per_action) * 1000,
        "apply_median_ms": statistics.median(applied) * 1000,
        "apply_p95_ms": _p95(applied) * 1000,
        "clone_us": statistics.median(copies) * 1e6,
    }


def test_bench_hacse_playout(benchmark: Any) -> None:
    benchmark(lambda: playout("h1-le-hamel", 2))


def main() -> None:
    args = [a for a in sys.argv[1:] if a != "--cpu"]
    if "--cpu" in sys.argv:  # the thread's CPU time as the clock: steadier than wall time on a shared machine
        time.perf_counter = time.thread_time  # type: ignore[assignment]
    n = int(args[0]) if args else 6
    for scenario in SCENARIOS:
        f = figures(scenario, n)
        print(
            f"{scenario:<18} legal_actions in play: median {f['legal_play_median_ms']:.3f} ms, "
            f"p95 {f['legal_play_p95_ms']:.3f} ms; in the set-up: median {f['legal_setup_median_ms']:.2f} ms; "
            f"replay {f['replay_per_action_ms']:.3f} ms per action; "
            f"apply in play: median {f['apply_median_ms']:.3f} ms, p95 {f['apply_p95_ms']:.3f} ms; "
            f"state copy {f['clone_us']:.1f} µs"
        )


if __name__ == "__main__":
    main()
