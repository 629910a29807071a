"""Provides AI players (DESIGN §7): the :class:`Agent` protocol, the random and greedy baselines, the default AI
(:class:`PlannerAgent`, levels ``easy`` / ``normal`` / ``hard``) and headless AI-against-AI games
(:mod:`engine.ai.simulate`, ``planspiel simulate``).

An agent reads only what its side may see (a view, or a side-scoped client) and returns one legal action.
It uses its own seeded random numbers, never the game's dice.

>>> import engine
>>> from engine.ai import GreedyAgent
>>> game = engine.new_game(engine.load_scenario("blitzkrieg1940", "hannut"), seed=7)
>>> action = GreedyAgent(seed=1).choose(game.view(game.to_act), budget_s=1.0)
>>> action in game.legal_actions()
True
"""

from __future__ import annotations

from .agents import Agent, GreedyAgent, PlayerView, Progress, RandomAgent
from .planner import LEVELS, Level, PlannerAgent
from .players import AI_LEVELS, make_agent, parse_player

__all__ = [
    "AI_LEVELS",
    "LEVELS",
    "Agent",
    "GreedyAgent",
    "Level",
    "PlannerAgent",
    "PlayerView",
    "Progress",
    "RandomAgent",
    "make_agent",
    "parse_player",
]
