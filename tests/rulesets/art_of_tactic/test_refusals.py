"""Bad input of any kind gets a clear message, never a traceback: random notation against P-1 and P-2 either
applies or raises an ActionError; every IllegalActionError cites a rule of the digest, and a refused order names
the unit it was for."""

from __future__ import annotations

import random

import pytest

import engine
from engine.errors import ActionError, IllegalActionError
from engine.rulesets.art_of_tactic import RULESET
from engine.rulesets.art_of_tactic.orders import VERBS as ORDER_VERBS


@pytest.mark.parametrize("scenario_id", ["p1-grenzgefecht", "p2-die-bruecke"])
def test_random_notation_is_refused_with_a_rule_or_applies(scenario_id: str) -> None:
    sc = engine.load_scenario("art_of_tactic", scenario_id)
    rng = random.Random(11)
    game = engine.new_game(sc, seed=11)
    units = sorted(game.state.units)
    labels = [game.board.label(h) for h in sorted(game.board.cells)]
    pool = [*units, *labels, "0", "3", "99", "at", "ap", "dummy", "x", "", "0000", "9999"]
    verbs = sorted(RULESET.verbs)
    refused = 0
    for _ in range(1500):
        verb = rng.choice([*verbs, "bogus"])
        args = [rng.choice(pool) for _ in range(rng.randint(0, 5))]
        text = " ".join([verb, *(a if a else "''" for a in args)])
        try:
            game.apply(text)
        except IllegalActionError as err:
            refused += 1
            assert "(rule " in str(err), f"{text!r}: {err}"
            named = args[0] if args and args[0] in units else None
            if named and verb in ORDER_VERBS and verb not in ("commit", "cancel") and game.state.phase == "planning":
                assert named in str(err), f"{text!r}: the refusal does not name the unit: {err}"
        except ActionError:
            refused += 1
        if game.to_act is None:
            game = engine.new_game(sc, seed=11)
    assert refused > 1000
