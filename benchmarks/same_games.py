"""Shows that a refactor leaves play unchanged: seeded random and AI games of every shipped scenario, hashed.

For every ruleset and scenario it plays

- seeded random playouts (random legal actions; odd seeds take a random set-up where the ruleset offers one, and
  in Art of Tactic sides switch decisions during execution on by seed, as the conformance tests do), and
- seeded AI games (``ai:normal``, ``greedy`` and ``ai:hard``, with a budget that never runs out, so no decision
  depends on the clock) against ``random``, the AI on each side once,

and prints one line per game with two hashes:

- ``play``: what the players saw and did: at every decision the side to act, the legal actions in order (their
  notation), the action taken, and every event (kind, text, who may see it, its data). This must not change in
  a refactor that should not change play.
- ``state``: every side's view and the full state (``to_dict()``) after every action. A change of the state's
  shape changes it while ``play`` stays the same; say so when it happens.

Run it before and after a change and compare (keep the lines in a file and use ``--check FILE``)::

    nice -n 5 .venv/bin/python benchmarks/same_games.py > /tmp/before.txt
    nice -n 5 .venv/bin/python benchmarks/same_games.py --check /tmp/before.txt

``--check`` compares the ``play`` hashes (and the ``state`` hashes too with ``--strict``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

import engine
from engine.ai import make_agent
from engine.typed import field_values

BUDGET_S = 1e9
"""A budget that never runs out: the planner scores every candidate whatever the load of the machine."""


def _plain(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=repr, ensure_ascii=False)


class _Hasher:
    def __init__(self) -> None:
        self.play = hashlib.sha256()
        self.state = hashlib.sha256()

    def events(self, events: list[engine.Event]) -> None:
        for e in events:
            self.play.update(_plain([e.kind, e.text, e.visible_to, e.data]).encode())

    def decision(self, game: engine.Game, side: str, legal: list[engine.Action], action: engine.Action) -> None:
        self.play.update(_plain([side, [game.describe(a) for a in legal], game.describe(action)]).encode())

    def states(self, game: engine.Game) -> None:
        self.state.update(_plain(game.state.to_dict()).encode())
        for side in game.state.sides:
            self.state.update(_plain(game.view(side).to_dict()).encode())


def random_game(ruleset: str, scenario: str, seed: int, max_actions: int) -> tuple[_Hasher, engine.Game]:
    """A seeded random playout, as the conformance tests play them."""
    game = engine.new_game(engine.load_scenario(ruleset, scenario), seed=seed)
    h = _Hasher()
    h.events(list(game.events))
    rng = random.Random(seed)
    if seed % 2:
        for _ in range(engine.take_scenario_setup(game)):
            pass
        h.events(list(game.events))
    sides = game.state.sides
    asking = {1: set(sides[:1]), 3: set(sides)}.get(seed % 4, set()) if ruleset == "art_of_tactic" else set()
    for _ in range(max_actions):
        side = game.to_act
        if side is None:
            break
        if (
            side in asking
            and game.state.phase == "planning"
            and side not in field_values(game.state.data).get("ask", [])
        ):
            h.events(game.apply("prompts on"))
        legal = game.legal_actions()
        action = rng.choice(legal)
        h.decision(game, side, legal, action)
        h.events(game.apply(action))
        h.states(game)
    return h, game


def ai_game(
    ruleset: str, scenario: str, level: str, seed: int, ai_side: int, max_actions: int
) -> tuple[_Hasher, engine.Game]:
    """An AI of ``level`` (unlimited budget) against ``random``, the scenario's set-up."""
    game = engine.new_game(engine.load_scenario(ruleset, scenario), seed=seed)
    h = _Hasher()
    sides = game.scenario.side_ids()
    agents = {s: make_agent(level if i == ai_side else "random", seed * 10 + i) for i, s in enumerate(sides)}
    engine.take_scenario_setup(game)
    h.events(list(game.events))
    for _ in range(max_actions):
        if engine.take_scenario_setup(game):
            continue
        side = game.to_act
        if side is None:
            break
        legal = game.legal_actions()
        action = agents[side].choose(game.view(side), BUDGET_S)
        h.decision(game, side, legal, action)
        h.events(game.apply(action, side=side))
        h.states(game)
    return h, game


def _line(kind: str, ruleset: str, scenario: str, h: _Hasher, game: engine.Game) -> str:
    result = game.outcome.winner if game.outcome is not None else "unfinished"
    return (
        f"{ruleset}/{scenario} {kind}: {len(game.history)} actions, {result}, "
        f"play {h.play.hexdigest()[:16]}, state {h.state.hexdigest()[:16]}"
    )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rulesets", default="blitzkrieg1940,art_of_tactic")
    p.add_argument("--scenarios", default="", help="comma-separated scenario ids (default: every one)")
    p.add_argument("--seeds", default="0,1,2,3", help="seeds of the random playouts")
    p.add_argument("--ai-seeds", default="1", help="seeds of the AI games (empty: none)")
    p.add_argument("--levels", default="normal,greedy,hard", help="AI levels played against random")
    p.add_argument("--max-actions", type=int, default=5_000)
    p.add_argument("--check", type=Path, help="lines printed by an earlier run: exit 1 if a play hash differs")
    p.add_argument("--strict", action="store_true", help="with --check, compare the state hashes too")
    args = p.parse_args(argv)
    wanted = {s for s in args.scenarios.split(",") if s}
    lines: list[str] = []
    for ruleset in args.rulesets.split(","):
        for scenario in engine.scenario_ids(ruleset):
            if wanted and scenario not in wanted:
                continue
            runs: list[tuple[str, str, int, int]] = [
                ("random", "random", int(x), 0) for x in args.seeds.split(",") if x
            ]
            for level in (x for x in args.levels.split(",") if x):
                for seed in (int(x) for x in args.ai_seeds.split(",") if x):
                    runs += [("ai" if level == "normal" else level, level, seed, side) for side in (0, 1)]
            for name, level, seed, side in runs:
                t0 = time.perf_counter()
                if level == "random":
                    kind = f"random seed {seed}"
                    h, game = random_game(ruleset, scenario, seed, args.max_actions)
                else:
                    kind = f"{name} side {side} seed {seed}"
                    h, game = ai_game(ruleset, scenario, level, seed, side, 100_000)
                line = _line(kind, ruleset, scenario, h, game)
                lines.append(line)
                print(f"{line}  ({time.perf_counter() - t0:.1f} s)", flush=True)
    if args.check is None:
        return 0
    old = {}
    for ln in args.check.read_text(encoding="utf-8").splitlines():
        if ": " in ln:
            head, _, rest = ln.partition(": ")
            old[head] = rest.split("  (")[0]
    bad = 0
    for ln in lines:
        head, _, rest = ln.partition(": ")
        before = old.get(head)
        if before is None:
            continue
        same = before == rest if args.strict else before.split(", state ")[0] == rest.split(", state ")[0]
        if not same:
            bad += 1
            print(f"DIFFERENT: {head}\n  before: {before}\n  now:    {rest}", file=sys.stderr)
    print(f"{len(lines) - bad} of {len(lines)} games the same as {args.check}")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
