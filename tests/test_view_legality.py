"""The side to act decides on what it may see: its legal actions read from its own view are exactly those of the
full state (fewer, and a player would be stuck; more, and legality would tell what the view hides). Checked at
every decision of seeded random playouts of the shipped scenarios of every exported ruleset."""

from __future__ import annotations

import random

import pytest

import engine

CASES = [(rs, sc) for rs in engine.ruleset_names() if rs != "minirules" for sc in engine.scenario_ids(rs)]


def check_playout(ruleset: str, scenario: str, seed: int, limit: int) -> int:
    """Play ``limit`` random decisions (the agent reads its view); returns how many were checked."""
    game = engine.new_game(engine.load_scenario(ruleset, scenario), seed=seed)
    rng = random.Random(seed)
    checked = 0
    while game.to_act is not None and checked < limit:
        if engine.take_scenario_setup(game):
            continue
        side = game.to_act
        full = game.legal_actions()
        seen = game.legal_actions(side=side)
        more, fewer = sorted(map(str, set(seen) - set(full)))[:5], sorted(map(str, set(full) - set(seen)))[:5]
        assert seen == full, (
            f"{ruleset}/{scenario} seed {seed}, action {len(game.history)}: {side}'s view has {more} more and "
            f"{fewer} fewer"
        )
        checked += 1
        game.apply(rng.choice(seen), side=side)
    return checked


@pytest.mark.parametrize(("ruleset", "scenario"), CASES, ids=[f"{r}/{s}" for r, s in CASES])
def test_the_side_to_act_has_the_same_legal_actions_in_its_view(ruleset: str, scenario: str) -> None:
    assert check_playout(ruleset, scenario, seed=5, limit=300) > 20
