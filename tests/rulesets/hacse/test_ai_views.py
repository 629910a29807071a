"""The AI plays HACSE from its side's view only (13.2), at every level: its choice on a position with hidden enemy
units is the same when what lies outside its view (the hidden units, the game's dice) is changed and poisoned;
``ai:hard`` answers each side of H-1 legally.

The planner stops at a time cap (``engine.ai.planner``): with a real clock a loaded machine could cut one search
shorter than its twin and make two choices differ for no reason of the view. The comparison therefore runs on a
stopped clock (``planner.time``, as ``tests/ai/test_planner.py`` fakes the clock): every search is complete, and the
same agent seed makes the same choice from the same view."""

from __future__ import annotations

import random
import time
import types

import pytest

import engine
from engine.actions import Action
from engine.ai import agents, make_agent, planner
from engine.dice import Dice
from engine.hexgrid import Hex
from engine.rulesets.hacse.model import status
from tests.ai.clients import Client, PoisonedClient

from .helpers import game as set_up

LEVELS = ("greedy", "easy", "normal", "hard")
SEED = 4


@pytest.fixture
def stopped_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """The agents' clock stands still: no search is cut short by the time cap (see the module docstring)."""
    clock = types.SimpleNamespace(perf_counter=lambda: 0.0)
    monkeypatch.setattr(planner, "time", clock)
    monkeypatch.setattr(agents, "time", clock)


def _hidden_enemies(game: engine.Game, side: str) -> list[str]:
    return sorted(
        uid
        for uid, u in game.state.units.items()
        if u.side != side and status(u).hidden and not status(u).destroyed and u.hex is not None
    )


def _changed_outside_the_view(game: engine.Game, side: str, hidden: list[str]) -> engine.Game:
    """The game continued from a copy of its state in which only what ``side`` cannot see differs: the first
    hidden enemy is destroyed, the others stand damaged and shaken next to the side's own units (or where they
    enter), and the dice are others."""
    st = game.state.clone()
    board = st.board
    # Next to the side's units on the map, or to the hexes its units waiting off the map enter by (15.10.2).
    own = [u for _, u in sorted(st.units.items()) if u.side == side and not status(u).destroyed]
    spots = [h for u in own for h in (u.hex, *status(u).entry) if h is not None]
    near = [n for h in spots for n in h.neighbours() if n in board]
    assert near, f"no {side} unit on or entering the map"
    for k, uid in enumerate(hidden):
        u, s = st.units[uid], status(st.units[uid])
        if k == 0:
            s.destroyed, u.hex = True, None
            continue
        spot: Hex = near[k % len(near)]
        u.hex = spot
        s.rows_hit, s.shaken = [1, 2, 3], True
    st.dice = Dice(game.seed + 1000, 7)
    return engine.Game.restore(game.scenario, game.seed, [], st)


def _same_choice(game: engine.Game, level: str) -> Action:
    """The level's choice for the side to act, with and without the hidden information changed and poisoned."""
    side = game.to_act
    assert side is not None
    hidden = _hidden_enemies(game, side)
    assert hidden and not set(hidden) & set(game.view(side).units)
    changed = _changed_outside_the_view(game, side, hidden)
    assert changed.state.to_dict() != game.state.to_dict()
    assert changed.view(side).to_dict() == game.view(side).to_dict()  # the change lies outside the view only
    plain = make_agent(level, seed=9).choose(Client(game, side), budget_s=0.3)
    dice = changed.state.dice.to_dict()
    poisoned = make_agent(level, seed=9).choose(PoisonedClient(changed, side), budget_s=0.3)
    assert changed.state.dice.to_dict() == dice  # the game's dice are never touched
    assert poisoned == plain, f"{level} as {side} at turn {game.state.turn} ({game.state.phase})"
    assert plain in game.legal_actions()
    return plain


@pytest.mark.usefixtures("stopped_clock")
@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("scenario_id", ["h3-bridge-at-dusk", "h1-le-hamel"])
def test_13_2_the_ai_chooses_alike_whatever_lies_outside_its_view(scenario_id: str, level: str) -> None:
    """Seeded random play through the first two turns; at the first decision of each side and phase where the
    side to act has hidden enemies (H-3: all the Germans from the start; H-1: most of them), the level's choice is
    the same when those units are destroyed, moved next to its own units or damaged, and the dice changed."""
    game = set_up(scenario_id, seed=SEED)
    rng = random.Random(SEED)
    compared: set[tuple[str, str]] = set()
    while game.to_act is not None and game.state.turn <= 2:
        side, phase = game.to_act, game.state.phase
        if (side, phase) not in compared and _hidden_enemies(game, side):
            _same_choice(game, level)
            compared.add((side, phase))
        game.apply(rng.choice(game.legal_actions()))
    assert {"movement", "attack"} <= {phase for _, phase in compared}, compared
    if scenario_id == "h3-bridge-at-dusk":
        assert ("soviet", "movement") in compared and ("soviet", "attack") in compared


@pytest.mark.parametrize("side", ["german", "us"])
def test_ai_hard_answers_each_side_of_h1_with_a_legal_action(side: str) -> None:
    """One ``ai:hard`` decision for the side, on a budget of 1 s (below the level's 5 s): a legal action. The time
    it took is only shown, never asserted (no timed assertions in the tests)."""
    game = set_up("h1-le-hamel", seed=SEED)
    rng = random.Random(SEED)
    while game.to_act != side:
        assert game.to_act is not None
        game.apply(rng.choice(game.legal_actions()))
    legal = game.legal_actions()
    assert len(legal) > 1
    start = time.perf_counter()
    action = make_agent("hard", seed=1).choose(game.view(side), budget_s=1.0)
    took = time.perf_counter() - start
    assert action in legal, (action, took)
    game.apply(action, side=side)
    assert game.history[-1] == action
