"""Shows that a change to the generic AI leaves Blitzkrieg games unchanged: plays a few seeded Hannut games of
``ai:normal`` against ``random`` (each side once per seed) with a budget that never runs out, so that no decision
depends on the clock, and prints a hash of each game's history (every action played, in order).

Run it before and after a change and compare the lines (or keep them in a file and use ``--check FILE``)::

    nice -n 5 .venv/bin/python benchmarks/bench_ai_same_games.py > /tmp/before.txt
    nice -n 5 .venv/bin/python benchmarks/bench_ai_same_games.py --check /tmp/before.txt

The same seed gives the same game only if every AI decision is the same: one changed decision changes the hash.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from pathlib import Path

import engine
from engine.ai import make_agent

BUDGET_S = 1e9
"""A budget that never runs out: the planner scores every candidate whatever the load of the machine."""


def play(scenario: str, seed: int, ai_side: int, max_actions: int) -> tuple[str, int, str]:
    """One game (or its first ``max_actions`` actions): (history hash, actions played, result)."""
    game = engine.new_game(engine.load_scenario("blitzkrieg1940", scenario), seed=seed)
    sides = game.scenario.side_ids()
    agents = {s: make_agent("normal" if i == ai_side else "random", seed * 10 + i) for i, s in enumerate(sides)}
    engine.take_scenario_setup(game)
    n = 0
    while game.to_act is not None and n < max_actions:
        if engine.take_scenario_setup(game):
            continue
        side = game.to_act
        game.apply(agents[side].choose(game.view(side), BUDGET_S), side=side)
        n += 1
    text = "\n".join(str(a) for a in game.history)
    result = game.outcome.winner if game.outcome is not None else f"unfinished after {n} actions"
    return hashlib.sha256(text.encode()).hexdigest()[:16], len(game.history), str(result)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--scenario", default="hannut")
    p.add_argument("--seeds", default="1,2,3", help="comma-separated game seeds")
    p.add_argument("--max-actions", type=int, default=100_000, help="stop each game after this many actions")
    p.add_argument("--check", type=Path, help="a file of lines printed by an earlier run: exit 1 if any differs")
    args = p.parse_args(argv)
    lines = []
    for seed in (int(s) for s in args.seeds.split(",")):
        for ai_side in (0, 1):
            t0 = time.perf_counter()
            digest, n, result = play(args.scenario, seed, ai_side, args.max_actions)
            line = f"{args.scenario} seed {seed} ai side {ai_side}: {n} actions, history {digest}, {result}"
            lines.append(line)
            print(f"{line}  ({time.perf_counter() - t0:.0f} s)", flush=True)
    if args.check is not None:
        old = [ln.split("  (")[0] for ln in args.check.read_text(encoding="utf-8").splitlines() if ln.strip()]
        if old != lines:
            print("DIFFERENT from", args.check, file=sys.stderr)
            return 1
        print("same games as", args.check)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
