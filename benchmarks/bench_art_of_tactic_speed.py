"""Benchmarks of the Art of Tactic engine speed: the seeded random playouts of the conformance test (issue 7:
50 a scenario in ``make test``), a state clone, the first ``legal_actions`` of a round, and the answer to a 15.2
decision (execution paused for a side's choice, then resumed).

A playout is what ``tests/rulesets/art_of_tactic/test_conformance.py`` does apart from its assertions: from the
start (odd seeds take the scenario file's set-up) the other side's view and the legal actions at every decision,
a random legal action applied, and at the end ``replay(history)``.

``make bench`` runs the pytest-benchmark tests; ``python benchmarks/bench_art_of_tactic_speed.py [N]`` prints the
CPU seconds of N playouts (default 4) of each of the eight scenarios, the median clone of a mid-game state, the
median and maximum first ``legal_actions`` of a round and the median and maximum answer to a decision (the figures
in benchmarks/RESULTS.md, section Art of Tactic engine speed).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from typing import Any

import engine
from engine.actions import Action
from engine.rules import Transition, get_ruleset

SCENARIOS = (
    "o1-waldrand",
    "o2-furt",
    "o3-panzerkeil",
    "o4-brueckenkopf",
    "o5-hoehe-112",
    "p1-grenzgefecht",
    "p2-die-bruecke",
    "p3-stuetzpunkt",
)


def playout(scenario: str, seed: int) -> engine.Game:
    """The conformance test's random playout without its checks, then a replay of its history."""
    game = engine.new_game(engine.load_scenario("art_of_tactic", scenario), seed=seed)
    rng = random.Random(seed)
    if seed % 2:
        engine.take_scenario_setup(game)
    while (side := game.to_act) is not None:
        for other in game.state.sides:
            if other != side:
                game.view(other)
        game.apply(rng.choice(game.legal_actions()))
    engine.replay(game.scenario, seed, game.history)
    return game


DECISION_GAMES = (
    ("p2-die-bruecke", 1),
    ("o2-furt", 2),
    ("o4-brueckenkopf", 5),
    ("p2-die-bruecke", 7),
    ("o2-furt", 8),
    ("p2-die-bruecke", 9),
    ("o4-brueckenkopf", 14),
    ("p2-die-bruecke", 14),
)
"""The games of :func:`decisions` (scenario, seed) that pause for a decision: 9 positions (seeds 1–15 of the eight
scenarios; random orders seldom meet a choice)."""


def mid_game(scenario: str, seed: int, actions: int = 200) -> engine.GameState:
    """The state after ``actions`` random actions (fewer if the game ends first)."""
    game = engine.new_game(engine.load_scenario("art_of_tactic", scenario), seed=seed)
    rng = random.Random(seed)
    for _ in range(actions):
        if game.to_act is None:
            break
        game.apply(rng.choice(game.legal_actions()))
    return game.state


def first_legal(scenario: str, seed: int, rounds: int) -> list[float]:
    """Seconds of the first ``legal_actions`` of each side's planning in the first ``rounds`` rounds (the
    per-round cache of orders emptied first, as in bench_art_of_tactic_ai.py)."""
    rs = get_ruleset("art_of_tactic")
    game = engine.new_game(engine.load_scenario("art_of_tactic", scenario), seed=seed)
    rng = random.Random(seed)
    out: list[float] = []
    last: tuple[int, str | None] | None = None
    while game.to_act is not None and game.state.turn <= rounds:
        key = (game.state.turn, game.to_act)
        if key != last and game.state.phase == "planning":
            view = game.view(game.to_act)
            for k in [k for k in view.board.cache if isinstance(k, tuple) and k and k[0] == "aot-legal"]:
                del view.board.cache[k]
            t = time.perf_counter()
            rs.legal_actions(view)
            out.append(time.perf_counter() - t)
            last = key
        game.apply(rng.choice(game.legal_actions()))
    return out


def decisions(scenario: str, seed: int, limit: int = 100) -> list[tuple[engine.GameState, Action]]:
    """Up to ``limit`` positions where execution waits for a side's 15.2 decision, each with its first legal answer:
    the scenario file's set-up, both sides with ``prompts on``, a random order for every unit that can take one
    (then ``commit``) and random answers."""
    game = engine.new_game(engine.load_scenario("art_of_tactic", scenario), seed=seed)
    engine.take_scenario_setup(game)
    rng = random.Random(seed)
    asked: set[str] = set()
    out: list[tuple[engine.GameState, Action]] = []
    while (side := game.to_act) is not None and len(out) < limit:
        if game.state.phase == "planning" and side not in asked:
            game.apply("prompts on")
            asked.add(side)
        legal = game.legal_actions()
        if game.state.phase == "execution":
            out.append((game.state, legal[0]))
        elif game.state.phase == "planning":
            legal = [a for a in legal if a.verb not in ("cancel", "prompts")]
            legal = [a for a in legal if a.verb != "commit"] or legal
        game.apply(rng.choice(legal))
    return out


def answer(state: engine.GameState, action: Action) -> None:
    """What ``Game.apply`` does with an answer: check it, then apply it to a copy of the state."""
    rs = get_ruleset("art_of_tactic")
    rs.check(state, action)
    rs.apply(Transition(state.clone()), action)


def test_aot_random_playout(benchmark: Any) -> None:
    benchmark.pedantic(lambda: playout("o3-panzerkeil", 1), rounds=3, iterations=1)


def test_aot_state_clone(benchmark: Any) -> None:
    st = mid_game("p3-stuetzpunkt", 1)
    benchmark(st.clone)


def test_aot_answer_decision(benchmark: Any) -> None:
    # The first of DECISION_GAMES that still pauses for a decision (p2-die-bruecke seed 1 no longer does since the
    # rules changes of issue 16).
    state, action = next(d for sc, seed in DECISION_GAMES for d in decisions(sc, seed, 1))
    benchmark(answer, state, action)


def main() -> None:
    """Prints CPU seconds of the playouts, the clone of a mid-game state and the first legal actions."""
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    total = 0.0
    for sc in SCENARIOS:
        t = time.process_time()
        actions = sum(len(playout(sc, seed).history) for seed in range(n))
        spent = time.process_time() - t
        total += spent
        print(f"{sc}: {n} playouts, {actions} actions, {spent:.2f} s CPU")
    print(f"playouts: {n} x {len(SCENARIOS)} scenarios, {total:.1f} s CPU, {total / n / len(SCENARIOS):.3f} s each")
    st = mid_game("p3-stuetzpunkt", 1)
    clones = []
    for _ in range(200):
        t = time.perf_counter()
        st.clone()
        clones.append(time.perf_counter() - t)
    print(f"clone of a P-3 state after 200 actions: median {statistics.median(clones) * 1e6:.0f} µs")
    legal = [x for sc in SCENARIOS for x in first_legal(sc, 5, 4)]
    print(
        f"first legal_actions of a round: {len(legal)} positions, median {statistics.median(legal) * 1000:.1f} ms,"
        f" max {max(legal) * 1000:.1f} ms"
    )
    answers = []
    for sc, seed in DECISION_GAMES:
        for state, action in decisions(sc, seed):
            t = time.perf_counter()
            answer(state, action)
            answers.append(time.perf_counter() - t)
    print(
        f"answer to a 15.2 decision: {len(answers)} positions, median {statistics.median(answers) * 1000:.2f} ms,"
        f" max {max(answers) * 1000:.1f} ms"
    )


if __name__ == "__main__":
    sys.exit(main())
