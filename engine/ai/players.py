"""Provides the players a side can have: parsing ``human`` / ``ai:LEVEL`` and making the agent for a level."""

from __future__ import annotations

from .agents import Agent, GreedyAgent, RandomAgent
from .planner import PlannerAgent, seconds_level

__all__ = ["AI_LEVELS", "make_agent", "parse_player"]

AI_LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
"""The levels a player can pick (``ai:easy``...): the planner with 0.2, 1 and 5 s per decision."""


def parse_player(text: str) -> tuple[str, str | None]:
    """Read a player setting: ``"human"`` → ``("human", None)``, ``"ai:normal"`` → ``("ai", "normal")``.

    Raises:
        ValueError: neither ``human`` nor ``ai:<level>`` with a known level (or ``random``/``greedy``).

    >>> parse_player("ai:hard"), parse_player("ai:2.5")
    (('ai', 'hard'), ('ai', '2.5'))
    """
    text = text.strip().lower()
    if text == "human":
        return "human", None
    kind, _, level = text.partition(":")
    known = (*AI_LEVELS, "random", "greedy")
    if kind == "ai" and (level in known or seconds_level(level) is not None):
        return "ai", level
    raise ValueError(
        f"unknown player {text!r}: expected 'human' or 'ai:LEVEL' with LEVEL one of {', '.join(known)}, "
        "or seconds per decision (ai:2)"
    )


def make_agent(level: str, seed: int = 0) -> Agent:
    """The agent for an AI level: ``random`` and ``greedy`` are the baselines; ``easy``, ``normal`` and
    ``hard`` are the planner (:class:`engine.ai.planner.PlannerAgent`) with 0.2, 1 and 5 s per decision, and
    ``N`` (a number) the planner with N seconds.

    Raises:
        ValueError: an unknown level.
    """
    if level == "random":
        return RandomAgent(seed)
    if level == "greedy":
        return GreedyAgent(seed)
    if level in AI_LEVELS or seconds_level(level) is not None:
        return PlannerAgent(level, seed)
    raise ValueError(f"unknown AI level {level!r} (expected one of {', '.join((*AI_LEVELS, 'random', 'greedy'))})")
