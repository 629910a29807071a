"""The public view (``Game.view(PUBLIC)``, for spectators): what no side's view hides. Checked over seeded random
playouts of the shipped rulesets: a unit on the map there is on the map, in the same hex, in every side's view;
it names no unit that no side's view names; Art of Tactic's secret orders never show in it before the reveal."""

from __future__ import annotations

import random

import pytest

import engine
from engine.rules import PUBLIC


@pytest.mark.parametrize(
    ("ruleset", "scenario"),
    [("blitzkrieg1940", "hannut"), ("art_of_tactic", "p1-grenzgefecht"), ("art_of_tactic", "o3-panzerkeil")],
)
def test_the_public_view_shows_only_what_every_side_sees(ruleset: str, scenario: str) -> None:
    sc = engine.load_scenario(ruleset, scenario)
    game = engine.new_game(sc, seed=11)
    rng = random.Random(11)
    checked = 0
    for step in range(400):
        if game.to_act is None:
            break
        game.apply(rng.choice(game.legal_actions()))
        if step % 7:
            continue
        public = game.view(PUBLIC)
        assert public.viewer == PUBLIC and game.legal_actions(PUBLIC) == []
        views = {s: game.view(s) for s in game.state.sides}
        for uid, u in public.units.items():
            if u.hex is None:
                continue
            seen = [v.units[uid].hex for v in views.values() if uid in v.units]
            assert seen and all(h == u.hex for h in seen), (step, uid)  # (a concealed HQ: its placeholder's id)
            real = [v for v in views.values() if uid in v.units]
            if len(real) == len(views):
                assert all(v.units[uid].hex is not None for v in real), (step, uid, "hidden from a side")
        assert all(any(uid in v.units for v in views.values()) for uid in public.units), step
        data = public.data
        orders = getattr(data, "orders", None)
        if orders is not None and public.phase == "planning":
            assert all(not o for o in orders.values()), (step, "a secret order in the public view")
        checked += 1
    assert checked >= 10
