"""Digest 4.3, 4.11: what a plotted path costs against the order's allowance (the query the order entry shows)."""

from __future__ import annotations

import pytest

from engine.actions import Action
from engine.errors import IllegalActionError
from engine.game import Game
from engine.rulesets.art_of_tactic.movement import PathCost, order_path_cost

from .helpers import game, ruleset, scenario


def _maybe(g: Game, text: str, side: str = "german") -> PathCost | None:
    verb, *args = text.split()
    return order_path_cost(ruleset(), g.view(side), Action(verb, tuple(args)))


def _cost(g: Game, text: str, side: str = "german") -> PathCost:
    got = _maybe(g, text, side)
    assert got is not None
    return got


def test_4_11_path_cost_adds_the_field_penalty_per_hex_entered() -> None:
    """Pz II (LT, Cautious range 2): plain costs 1, a field 1 + 1; over the range the refusal cites 4.11."""
    g = game(scenario([("g", "DE-PZ2", "0502"), ("s", "SU-INF", "1208")], terrain={"0504": "a", "0505": "a"}))
    one = _cost(g, "move g 0503")
    assert (one.hexes, one.cost, one.allowance, one.left, one.problem) == (1, 1, 2, 1, "")
    two = _cost(g, "move g 0503 0504")
    assert (two.cost, two.left) == (3, -1)
    assert "costs 3 hexes of movement, more than the 2 allowed" in two.problem
    assert "rule 4.11" in two.problem
    three = _cost(g, "move g 0503 0504 0505")
    assert three.cost == 5


def test_4_11_item_4_one_hex_is_always_allowed_even_over_the_range() -> None:
    g = game(scenario([("g", "DE-PZ2", "0503"), ("s", "SU-INF", "1208")], terrain={"0504": "a"}))
    got = _cost(g, "move g 0504")
    assert (got.cost, got.limit, got.problem) == (2, 2, "")
    g2 = game(scenario([("g", "DE-INF", "0503"), ("s", "SU-INF", "1208")], terrain={"0504": "a", "0505": "a"}))
    inf = _cost(g2, "move g 0504")  # INF Cautious range 1: a field costs 2, still one hex is allowed
    assert inf.cost == 2 and inf.left < 0 and inf.problem == ""


def test_4_3_march_road_bonus_counts_only_while_every_step_follows_the_road() -> None:
    """Pz II March range 3, light tank road bonus +2 (rules.toml): 5 hexes along the road cost 5 of 3 + 2."""
    sc = scenario([("g", "DE-PZ2", "0502"), ("s", "SU-INF", "1208")], roads=["0502 0503 0504 0505 0506 0507 0508"])
    g = game(sc)
    road = _cost(g, "march g 0503 0504 0505 0506 0507")
    assert (road.cost, road.allowance, road.bonus, road.limit, road.left, road.problem) == (5, 3, 2, 5, 0, "")
    off = _cost(g, "march g 0503 0504 0604 0605")  # 0604 is off the road: no bonus, 4 of 3
    assert off.bonus == 0 and off.cost == 4
    assert "road bonus applies only if every step follows the road" in off.problem


def test_4_11_item_7_the_assault_step_into_the_target_does_not_count() -> None:
    """Assault distance 2 (Pz II): two hexes before the target's, then the assault step, cost 2 of 2."""
    g = game(scenario([("g", "DE-PZ2", "0502"), ("s", "SU-INF", "0505")]))
    got = _cost(g, "assault g s 0503 0504 0505")
    assert (got.hexes, got.cost, got.allowance, got.problem) == (2, 2, 2, "")
    partial = _cost(g, "assault g s 0503")
    assert (partial.hexes, partial.cost) == (1, 1)


def test_4_11_orders_without_a_path_have_no_cost() -> None:
    g = game(scenario([("g", "DE-PZ2", "0502"), ("s", "SU-INF", "0505")]))
    assert _maybe(g, "hold g") is None
    assert _maybe(g, "move nobody 0503") is None
    assert _maybe(g, "fire g") is None
    empty = _cost(g, "march g")  # nothing written yet: the allowance alone
    assert (empty.hexes, empty.cost, empty.allowance, empty.problem) == (0, 0, 3, "")
    assert _cost(g, "assault g s").allowance == 2


def test_4_11_a_typed_path_over_the_range_is_refused_naming_the_unit() -> None:
    """The refusal of a typed order names the unit and keeps the rule (README: every refusal names the unit)."""
    g = game(scenario([("g", "DE-PZ2", "0502"), ("s", "SU-INF", "1208")], terrain={"0504": "a"}))
    with pytest.raises(IllegalActionError) as err:
        g.apply("move g 0503 0504")
    assert "g's path costs 3 hexes of movement, more than the 2 allowed (rule 4.11)" in str(err.value)
    with pytest.raises(IllegalActionError) as err:
        g.apply("move g 0503 0502")
    assert "g's path may not enter the same hex twice (rule 4.1)" in str(err.value)
