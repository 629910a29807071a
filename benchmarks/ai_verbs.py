"""What each side played, by phase and verb, in games of a ``planspiel simulate`` run (the same seeds and players), and
who won each: to see how an AI or a baseline plays, e.g. how often ``greedy`` shells (benchmarks/RESULTS.md, "HACSE
AI, round 7").

    python benchmarks/ai_verbs.py RULESET SCENARIO A B INDEXES [--seed S]

``A`` plays the scenario's first side (``ai:normal``, ``greedy``, ``random``), ``INDEXES`` the games' numbers in the
run (``0,3,14`` or ``20-23``), ``--seed`` the run's seed (2026 by default).
"""

from __future__ import annotations

import sys
from collections import Counter

import engine
from engine.ai.players import make_agent
from engine.ai.simulate import game_seed


def _indexes(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out += list(range(int(lo), int(hi or lo) + 1))
    return out


def main(argv: list[str]) -> int:
    if len(argv) < 5:
        print(__doc__)
        return 2
    ruleset, scenario, a, b, which = argv[:5]
    seed = int(argv[argv.index("--seed") + 1]) if "--seed" in argv else 2026
    sc = engine.load_scenario(ruleset, scenario)
    sides = sc.side_ids()
    played: Counter[tuple[str, str, str]] = Counter()
    for index in _indexes(which):
        agents = {
            sides[0]: make_agent(a.removeprefix("ai:"), game_seed(seed, index, "a")),
            sides[1]: make_agent(b.removeprefix("ai:"), game_seed(seed, index, "b")),
        }
        game = engine.new_game(sc, seed=game_seed(seed, index))
        engine.take_scenario_setup(game)
        while game.to_act is not None:
            if engine.take_scenario_setup(game):
                continue
            side = game.to_act
            action = agents[side].choose(game.view(side), float(getattr(agents[side], "budget_s", 1.0)))
            played[(side, game.state.phase, action.verb)] += 1
            game.apply(action, side=side)
        winner = game.outcome.winner if game.outcome is not None else None
        print(f"game {index}: {winner or 'draw'} won after turn {game.state.turn}")
    for (side, phase, verb), n in sorted(played.items()):
        print(f"{side:8} {phase:10} {verb:10} {n}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
