"""The AI baselines: they play only legal actions, read only a side's view, and are reproducible."""

from __future__ import annotations

import time
from fractions import Fraction

import pytest

import engine
from engine.ai import AI_LEVELS, GreedyAgent, PlannerAgent, PlayerView, RandomAgent, make_agent, parse_player
from engine.odds import Odds, OddsEntry

from .clients import Client


def _hannut(seed: int = 7) -> engine.Game:
    return engine.new_game(engine.load_scenario("blitzkrieg1940", "hannut"), seed=seed)


@pytest.mark.parametrize("agent_cls", [RandomAgent, GreedyAgent])
def test_agents_play_legal_actions_from_a_view_or_a_client(agent_cls: type) -> None:
    game = _hannut()
    agent = agent_cls(seed=3)
    for i in range(40):
        side = game.to_act
        assert side is not None
        source = game.view(side) if i % 2 else Client(game, side)
        action = agent.choose(source, budget_s=1.0)
        assert action in game.legal_actions()
        game.apply(action, side=side)


def test_side_view_satisfies_the_protocol() -> None:
    game = _hannut()
    assert isinstance(Client(game, "german"), PlayerView)


def test_same_seed_same_choices() -> None:
    def play(seed: int) -> list[str]:
        game = _hannut()
        agent = GreedyAgent(seed=seed)
        out = []
        for _ in range(12):
            side = game.to_act
            assert side is not None
            action = agent.choose(game.view(side), 1.0)
            out.append(str(action))
            game.apply(action)
        return out

    assert play(5) == play(5)


def test_agent_never_uses_the_game_dice() -> None:
    game = _hannut()
    before = game.state.dice.to_dict()
    GreedyAgent(seed=1).choose(game.view("german"), 1.0)
    RandomAgent(seed=1).choose(game.view("german"), 1.0)
    assert game.state.dice.to_dict() == before


def test_no_decision_is_a_value_error() -> None:
    game = _hannut()
    while game.to_act == "french":  # the French set-up (12.1): then the German is to act
        game.apply("default")
    assert game.to_act == "german"
    with pytest.raises(ValueError, match="no legal action for french"):
        GreedyAgent().choose(Client(game, "french"), 1.0)


class _FakeView:
    """Two fire actions with known odds, a pass and a retreat."""

    side = "red"

    def __init__(self, state: engine.GameState) -> None:
        self.state = state

    def view(self) -> engine.GameState:
        return self.state

    def legal_actions(self) -> list[engine.Action]:
        return [
            engine.Action("end"),
            engine.Action("retreat", ("r1", "0101")),
            engine.Action("fire", ("r1", "b1")),
            engine.Action("fire", ("r1", "b2")),
        ]

    def odds(self, action: engine.Action) -> Odds | None:
        if action.verb != "fire":
            return None
        good = Fraction(1, 2) if action.args[1] == "b2" else Fraction(1, 6)
        return Odds(action, (OddsEntry("hit", good, 1.0), OddsEntry("miss", 1 - good, 0.0)))


def test_greedy_takes_the_best_expected_value_and_passes_last() -> None:
    state = _hannut().view("german")
    view = _FakeView(state)
    assert GreedyAgent(seed=0).choose(view, 1.0) == engine.Action("fire", ("r1", "b2"))

    class OnlyPassOrRetreat(_FakeView):
        def legal_actions(self) -> list[engine.Action]:
            return [engine.Action("retreat", ("r1", "0101")), engine.Action("close")]

    assert GreedyAgent(seed=0).choose(OnlyPassOrRetreat(state), 1.0) == engine.Action("close")


def test_greedy_keeps_to_its_budget() -> None:
    game = _hannut()
    for _ in range(3):
        game.apply(GreedyAgent(seed=0).choose(game.view(game.to_act or ""), 1.0))
    start = time.perf_counter()
    GreedyAgent(seed=0).choose(game.view(game.to_act or ""), budget_s=0.0)
    assert time.perf_counter() - start < 0.5


def test_levels_and_players() -> None:
    for level in AI_LEVELS:
        agent = make_agent(level)
        assert isinstance(agent, PlannerAgent)
        assert agent.name == f"ai:{level}"
    assert [make_agent(level).budget_s for level in AI_LEVELS] == [0.2, 1.0, 5.0]  # type: ignore[attr-defined]
    assert isinstance(make_agent("greedy"), GreedyAgent)
    assert isinstance(make_agent("random"), RandomAgent)
    assert parse_player("human") == ("human", None)
    assert parse_player("AI:Normal") == ("ai", "normal")
    with pytest.raises(ValueError, match="unknown player"):
        parse_player("ai:godlike")
    with pytest.raises(ValueError, match="unknown AI level"):
        make_agent("godlike")


@pytest.mark.soak
def test_greedy_against_greedy_finishes_hannut() -> None:
    game = _hannut(seed=2)
    agents = {s: GreedyAgent(seed=i) for i, s in enumerate(game.state.sides)}
    for _ in range(5000):
        side = game.to_act
        if side is None:
            break
        game.apply(agents[side].choose(game.view(side), 1.0), side=side)
    assert game.outcome is not None
