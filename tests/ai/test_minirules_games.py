"""The test ruleset played to the end by every AI agent and by ``planspiel simulate``, with no code in
``engine/ai`` that names it: the agents read the roles of its notation classes (``tests/minirules/notation.py``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import engine
from engine.ai import make_agent

ROOT = Path(__file__).resolve().parents[2]
PLANSPIEL = Path(sys.executable).with_name("planspiel")


@pytest.mark.parametrize("level", ["random", "greedy", "easy", "normal", "hard"])
def test_every_agent_plays_a_duel_to_the_end(level: str) -> None:
    """Each side an agent of ``level`` (a short budget per decision): every action is legal and the game ends by
    M5 (the last turn, or a side without units)."""
    game = engine.new_game(engine.load_scenario("minirules", "duel"), seed=5)
    agents = {side: make_agent(level, seed=i) for i, side in enumerate(game.state.sides)}
    decisions = 0
    while game.to_act is not None:
        side = game.to_act
        action = agents[side].choose(game.view(side), 0.05)
        assert action in game.legal_actions(side=side)
        game.apply(action, side=side)
        decisions += 1
        assert decisions < 400, "no end"
    assert game.outcome is not None and "(M5)" in game.outcome.reason
    roles = {role for a in game.history for role in game.action_info(a).roles}
    assert engine.Role.END in roles


@pytest.mark.skipif(not PLANSPIEL.exists(), reason="needs the planspiel entry point")
def test_planspiel_simulate_plays_duels_to_the_end() -> None:
    """``planspiel simulate`` in a new process, the test ruleset registered through ``PLANSPIEL_RULESETS``."""
    env = {**os.environ, "PLANSPIEL_RULESETS": "tests.minirules:RULESET", "PYTHONPATH": str(ROOT)}
    command = [str(PLANSPIEL), "simulate", "minirules", "duel", "--games", "4", "--a", "ai:easy", "--b", "greedy"]
    out = subprocess.run(
        [*command, "--seed", "3", "--json"],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        check=False,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout.strip().splitlines()[-1])
    assert data["games"] == 4 and data["a_wins"] + data["b_wins"] + data["draws"] == 4
    assert "Traceback" not in out.stderr
