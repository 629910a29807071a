"""Blitzkrieg 1940 rule 8.3: the owner of a unit that suffers N may take a step loss instead. Keeping the N is
the usual answer the ruleset names to the clients (``Waiting.usual``), which a side's standing orders may give by
themselves; no other decision of the game names one."""

from __future__ import annotations

import random

import engine
from engine.actions import Action
from engine.rulesets.blitzkrieg1940.model import NChoiceFrame


def test_8_3_keeping_the_n_is_the_usual_answer_and_the_only_one_named() -> None:
    seen = 0
    for seed in range(1, 8):
        game = engine.new_game(engine.load_scenario("blitzkrieg1940", "hannut"), seed=seed)
        engine.take_scenario_setup(game)
        rng = random.Random(seed)
        for _ in range(700):
            if game.to_act is None:
                break
            legal = game.legal_actions()
            usual = game.waiting().usual
            frames = game.state.data.frames
            top = frames[-1] if frames else None
            if isinstance(top, NChoiceFrame):
                assert usual == Action("accept", (top.unit,)), usual
                assert {a.verb for a in legal} == {"accept", "steploss"}
                seen += 1
            else:
                assert usual is None, (top, usual)
            game.apply(rng.choice(legal))
    assert seen >= 3, "too few N choices met to check"
