"""The Fire Phase's listing of a whole side kept between decisions (carryover.py, DESIGN §11) gives exactly what a
fresh listing gives (3.2 Phase 3b)."""

from __future__ import annotations

import random

import pytest

import engine
from engine.rulesets.hacse import carryover, options
from engine.rulesets.hacse.model import data, status

from .helpers import ruleset


def _whole_side(st: engine.GameState) -> bool:
    d = data(st)
    quiet = d.opp_mover is None and d.hiding is None and d.offer is None and d.physical is None
    return st.phase == "attack" and d.active is None and quiet and st.to_act is not None


@pytest.mark.parametrize(("scenario", "seed"), [("h2-height-212", 0), ("h2-height-212", 3), ("h3-bridge-at-dusk", 1)])
def test_3_2_kept_fire_listing_is_a_fresh_one_at_every_decision(scenario: str, seed: int) -> None:
    """At every decision of a whole side in the Fire Phase of a seeded random playout, the listing (kept from the
    side's last one where nothing it reads changed) equals one made with nothing kept."""
    rs = ruleset()
    game = engine.new_game(engine.load_scenario("hacse", scenario), seed=seed)
    rng = random.Random(seed)
    if seed % 2 == 0:
        engine.take_scenario_setup(game)
    compared = 0
    while game.to_act is not None:
        st = game.state
        legal = rs.legal_actions(st)
        if _whole_side(st):
            carryover._NOW.kept = {}  # nothing kept: a fresh listing
            assert legal == rs.legal_actions(st), f"turn {st.turn}, {st.to_act}"
            rs.legal_actions(st)  # kept again for the next decision, as in play
            compared += 1
        game.apply(rng.choice(legal))
    assert compared > 20


def _fire_phase(seed: int = 0) -> engine.Game:
    game = engine.new_game(engine.load_scenario("hacse", "h2-height-212"), seed=seed)
    engine.take_scenario_setup(game)
    rng = random.Random(seed)
    while not _whole_side(game.state) or not any(
        a.verb == "fire" and a.args[1] in game.state.units for a in game.legal_actions()
    ):
        game.apply(rng.choice(game.legal_actions()))
    return game


def test_3_2_a_state_changed_in_place_is_listed_afresh() -> None:
    """A change made to the state itself (not by an action) is seen: a unit that has ceased fire is not listed."""
    rs = ruleset()
    st = _fire_phase().state
    before = rs.legal_actions(st)
    firer = next(a.args[0] for a in before if a.verb == "cease")
    status(st.units[firer]).fire_done = True
    after = rs.legal_actions(st)
    assert all(a.args[0] != firer for a in after if a.verb == "cease")
    carryover._NOW.kept = {}
    assert after == rs.legal_actions(st)


def test_3_2_a_unit_not_changed_is_not_listed_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """After one unit ceases fire, the side's other units' shots are given from its last listing, not found anew."""
    rs = ruleset()
    game = _fire_phase()
    before = rs.legal_actions(game.state)
    firers = {a.args[0] for a in before if a.verb == "cease"}
    if len(firers) < 2:
        pytest.skip("one firer only")
    side = game.state.to_act
    game.apply(next(a for a in before if a.verb == "cease"))
    while game.state.to_act != side or not _whole_side(game.state):  # the other side's decisions, if any: cease
        game.apply(next(a for a in game.legal_actions() if a.verb in ("cease", "pass")))
    asked: list[str] = []
    real = options.fire_actions
    monkeypatch.setattr(options, "fire_actions", lambda st, tables, u: asked.append(u.id) or real(st, tables, u))
    rs.legal_actions(game.state)
    assert asked == []


def test_8_5_a_target_destroyed_since_the_last_listing_is_not_offered() -> None:
    """What a unit's listing reads of an enemy (here: destroyed, 8.5) keeps nothing from the last listing."""
    rs = ruleset()
    st = _fire_phase().state
    before = rs.legal_actions(st)
    target = next(a.args[1] for a in before if a.verb == "fire" and a.args[1] in st.units)
    status(st.units[target]).destroyed = True
    after = rs.legal_actions(st)
    assert all(a.args[1] != target for a in after if a.verb == "fire")
    carryover._NOW.kept = {}
    assert after == rs.legal_actions(st)
