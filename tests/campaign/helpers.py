"""Shared by the campaign tests: a battle played to its end by baseline agents."""

from __future__ import annotations

import engine
from engine.ai.players import make_agent


def play_out(game: engine.Game, seed: int, agent: str = "random") -> None:
    """Play ``game`` to its end with ``agent`` on every side (seeded per side), taking scenario set-ups."""
    agents = {s: make_agent(agent, seed + i) for i, s in enumerate(game.scenario.side_ids())}
    engine.take_scenario_setup(game)
    while game.to_act is not None:
        if engine.take_scenario_setup(game):
            continue
        side = game.to_act
        game.apply(agents[side].choose(game.view(side), 1.0), side=side)
