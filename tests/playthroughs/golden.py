"""Provides golden playthrough transcripts: one seeded game per scenario, as notation and events.

Regenerate after a deliberate rules change with::

    .venv/bin/python -m tests.playthroughs.golden

and review the diff like any other change of behaviour.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import engine

HERE = Path(__file__).parent
GAMES = [("blitzkrieg1940", "hannut", 1), ("blitzkrieg1940", "stonne", 1)]
MAX_ACTIONS = 400
"""Transcripts stop after this many actions so that they stay readable and quick to check."""


def path_of(ruleset: str, scenario: str, seed: int) -> Path:
    return HERE / f"{ruleset}_{scenario}_seed{seed}.txt"


def transcript(ruleset: str, scenario: str, seed: int) -> str:
    """Play seeded random legal actions and write every action with the events it caused."""
    sc = engine.load_scenario(ruleset, scenario)
    game = engine.new_game(sc, seed=seed)
    rng = random.Random(seed)
    lines = [f"# {ruleset}/{scenario} seed {seed}: random legal actions (tests/playthroughs/golden.py)"]
    lines += [f"  . {e.text}" for e in game.events]
    for n in range(1, MAX_ACTIONS + 1):
        if game.to_act is None:
            break
        action = rng.choice(game.legal_actions())
        side = game.to_act
        events = game.apply(action)
        lines.append(f"{n:4d} {side}: {game.describe(action)}")
        lines += [f"     . {e.text}" for e in events]
    lines.append(f"# outcome: {game.outcome}")
    return "\n".join(lines) + "\n"


def main() -> int:
    for ruleset, scenario, seed in GAMES:
        p = path_of(ruleset, scenario, seed)
        p.write_text(transcript(ruleset, scenario, seed), encoding="utf-8")
        print(f"wrote {p}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
