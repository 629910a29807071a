"""Provides the Agent protocol and two baselines: a random player and a greedy one.

The greedy agent takes the action with the best immediate expected value from the ruleset's exact odds; when
no action involves chance it prefers doing something over passing, moving toward the enemy over moving away,
and never retreats unless nothing else is left.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from engine.actions import Action
from engine.contract import ActionInfo, Role
from engine.hexgrid import Hex, distance
from engine.odds import Odds
from engine.rules import get_ruleset
from engine.state import GameState

__all__ = [
    "Agent",
    "GreedyAgent",
    "PlayerView",
    "Progress",
    "RandomAgent",
    "move_goal",
]

Progress = Callable[[str], None]
"""A callback that shows the agent's progress to the player."""


@runtime_checkable
class PlayerView(Protocol):
    """What an agent may ask about the game: one side's view and side-scoped queries (a game client)."""

    @property
    def side(self) -> str:
        """The side this view belongs to."""
        ...

    def view(self) -> GameState:
        """The state as the side may see it."""
        ...

    def legal_actions(self) -> list[Action]:
        """The side's legal actions now (empty when it is not to act)."""
        ...

    def odds(self, action: Action) -> Odds | None:
        """The exact result distribution of a chance action, from the side's view."""
        ...


class Agent(Protocol):
    """An AI player: picks one legal action for the side to act within a time budget."""

    name: str
    """A short name for logs and menus (``"greedy"``)."""

    def choose(self, view: GameState | PlayerView, budget_s: float, progress: Progress | None = None) -> Action:
        """The action to play now.

        Args:
            view: the side's view of the state (``game.view(side)``) or a side-scoped client.
            budget_s: seconds the agent may think; it returns its best action so far when time is up.
            progress: called from time to time with a short line for the player ("thinking: unit 3 of 12");
                it runs in the agent's thread, so a UI must hand the text over to its own thread.

        Raises:
            ValueError: the side has no legal action (it is not its decision).
        """
        ...


@dataclass(frozen=True, slots=True)
class _Queries:
    """Legal actions and odds for one view, whichever form the caller gave."""

    state: GameState
    legal: Callable[[], list[Action]]
    odds: Callable[[Action], Odds | None]


def _queries(view: GameState | PlayerView) -> _Queries:
    if isinstance(view, GameState):
        rs = get_ruleset(view.ruleset)
        return _Queries(view, lambda: rs.legal_actions(view), lambda a: rs.odds(view, a))
    return _Queries(view.view(), view.legal_actions, view.odds)


def _legal(q: _Queries) -> list[Action]:
    actions = q.legal()
    if not actions:
        side = q.state.viewer or q.state.to_act
        raise ValueError(f"no legal action for {side} (turn {q.state.turn}, {q.state.phase}): not its decision")
    return actions


class RandomAgent:
    """Plays a uniformly random legal action (its own seeded random numbers)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def __repr__(self) -> str:
        return "RandomAgent()"

    def choose(self, view: GameState | PlayerView, budget_s: float, progress: Progress | None = None) -> Action:
        """A random legal action."""
        return self.rng.choice(_legal(_queries(view)))


class GreedyAgent:
    """Plays the action with the best immediate expected value (ties broken by its own seeded random numbers).

    Scores: a chance action scores ``1 + 10 × expected value`` from the exact odds; a move scores by how much
    closer it brings the unit to the nearest enemy; passing scores below any action, and retreating below
    passing. When the budget runs out it plays the best action scored so far.
    """

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def __repr__(self) -> str:
        return "GreedyAgent()"

    def choose(self, view: GameState | PlayerView, budget_s: float, progress: Progress | None = None) -> Action:
        """The best-scoring legal action."""
        deadline = time.perf_counter() + max(0.0, budget_s)
        q = _queries(view)
        actions = _legal(q)
        order = list(actions)
        self.rng.shuffle(order)
        enemies = _enemy_hexes(q.state)
        best: Action = order[0]
        best_score = float("-inf")
        for i, action in enumerate(order):
            if i and time.perf_counter() > deadline:
                break
            if progress is not None and i % 16 == 0:
                progress(f"thinking: action {i + 1} of {len(order)}")
            score = self.score(q, action, enemies)
            if score > best_score:
                best, best_score = action, score
        return best

    def score(self, q: _Queries, action: Action, enemies: Sequence[Hex]) -> float:
        """How good ``action`` looks right now (see the class docstring)."""
        info = get_ruleset(q.state.ruleset).action_info(q.state, action)
        if Role.RETREAT in info.roles:
            return -2.0
        if Role.PASS in info.roles:
            return -0.6 if Role.STOP in info.roles else -1.0
        odds = q.odds(action)
        if odds is not None:
            return 1.0 + 10.0 * odds.expected
        goal = move_goal(info)
        if goal is not None:
            bonus = 0.3 if Role.ATTACK in info.roles else 0.0
            return _approach(q.state, info.unit, goal, enemies) + bonus
        return 0.0


def move_goal(info: ActionInfo) -> Hex | None:
    """Where a move of one unit ends (its destination), for the agents' approach heuristics; None for anything
    else. A move that takes other units along (a stack moving together) is left to the evaluation: the approach
    of its first unit says little about the others."""
    if Role.MOVE not in info.roles or info.units:
        return None
    return info.destination


def _enemy_hexes(state: GameState) -> list[Hex]:
    side = state.viewer or state.to_act
    return [u.hex for u in state.iter_units() if u.side != side and u.hex is not None]


def _approach(state: GameState, unit_id: str | None, goal: Hex, enemies: Sequence[Hex]) -> float:
    """+0.5 for a step toward the nearest enemy, 0.1 sideways, −0.5 away (0 when it cannot be told)."""
    unit = state.units.get(unit_id) if unit_id is not None else None
    if unit is None or not enemies:
        return 0.0
    after = min(distance(goal, e) for e in enemies)
    if unit.hex is None:
        return 0.2
    before = min(distance(unit.hex, e) for e in enemies)
    return 0.5 if after < before else (0.1 if after == before else -0.5)
