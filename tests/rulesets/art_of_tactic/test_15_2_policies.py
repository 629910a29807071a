"""15.2 item 4: reaction policies set at planning, the optional last argument of ``ambush`` and ``defend``.

Ambush (3.11): ``first`` (the default: the nearest eligible mover, then by id), ``prefer-CLASS`` (the nearest of
that class it can attack, else as ``first``), ``hold`` (never fire; stays hidden). Never a prompt (hidden
information). Defend (3.6): ``first`` and ``prefer-CLASS`` set the preset; no ``hold`` (3.6 "opens fire
automatically"). The policy is part of the secret order; the opponent learns only "unit N: Ambush".
"""

from __future__ import annotations

import pytest

import engine
from engine.actions import Action
from engine.errors import IllegalActionError, InvalidActionError
from engine.rulesets.art_of_tactic.records import Order
from engine.typed import to_plain

from .helpers import D, P, S, event_texts, game, play_round, rolls, ruleset, scenario


def _ambush(policy: str, inf_from: str = "0503", inf_to: str = "0504") -> tuple[engine.Game, list[str]]:
    """ger-inf hides in bushes at 0505 facing 0504 (range 2); sov-inf enters ``inf_to``, the truck 0403 (range 2)."""
    sc = scenario(
        [("ger-inf", "DE-INF", "0505"), ("sov-inf", "SU-INF", inf_from), ("sov-truck", "SU-ZIS5", "0402")],
        terrain={"0505": "b"},
    )
    g = game(sc, [6] * 80)
    events = play_round(g, [f"ambush ger-inf 0504 2{policy}"], [f"move sov-inf {inf_to}", "march sov-truck 0403"])
    return g, [p for p, _ in rolls(events) if p.startswith("ambush fire")]


def test_15_2_3_11_ambush_default_fires_at_the_nearest_mover() -> None:
    _g0, shots = _ambush("")
    assert shots == ["ambush fire: ger-inf at sov-inf, range 1, 11 dice hitting on 2 or less"]
    _g, same = _ambush(" first")
    assert same == shots, "first is the default"


def test_15_2_3_11_ambush_prefer_class_fires_at_it_over_a_nearer_mover() -> None:
    _g, shots = _ambush(" prefer-vehicle")
    assert len(shots) == 1 and "ger-inf at sov-truck, range 2" in shots[0], "the truck, not the nearer infantry"


def test_15_2_3_11_ambush_prefer_class_absent_falls_back_to_the_nearest() -> None:
    _g, shots = _ambush(" prefer-tank")
    assert len(shots) == 1 and "ger-inf at sov-inf, range 1" in shots[0]


def test_15_2_3_11_ambush_hold_never_fires_and_stays_hidden() -> None:
    g, shots = _ambush(" hold", inf_from="0502", inf_to="0503")  # both movers stay 2 hexes away
    assert shots == []
    ger = g.state.units["ger-inf"]
    assert S(ger).hidden, "an ambusher that holds fire stays hidden"
    assert S(ger).ammo == 6, "no ammunition spent"
    assert g.view("soviet").units["ger-inf"].hex is None
    _g2, fired = _ambush("", inf_from="0502", inf_to="0503")
    assert len(fired) == 1, "the same movers draw fire without hold"


def test_15_2_orders_parse_and_describe_are_inverses() -> None:
    rs = ruleset()
    g = game(scenario([("ger-inf", "DE-INF", "0505"), ("sov-inf", "SU-INF", "0802")], terrain={"0505": "b"}))
    for text in ("ambush ger-inf 0504 2", "ambush ger-inf 0504 2 hold", "ambush ger-inf 0504 2 prefer-tank",
                 "defend ger-inf 0504 2 prefer-infantry", "defend ger-inf 0504 1 first"):  # fmt: skip
        a = rs.parse_action(g.state, text)
        assert rs.describe(g.state, a) == text
        assert rs.parse_action(g.state, rs.describe(g.state, a)) == a
    with pytest.raises(InvalidActionError, match="prefer-heavy-tank"):
        rs.parse_action(g.state, "ambush ger-inf 0504 2 prefer-horse")
    assert "prefer-CLASS" in rs.verbs["ambush"] and "hold" in rs.verbs["ambush"]


def test_15_2_3_6_defend_has_no_hold_policy() -> None:
    g = game(scenario([("ger-inf", "DE-INF", "0505"), ("sov-inf", "SU-INF", "0802")]))
    with pytest.raises(IllegalActionError) as err:
        g.apply("defend ger-inf 0504 2 hold", side="german")
    assert "rule 3.6" in str(err.value) and "Ambush" in str(err.value)


def test_15_2_orders_with_the_default_policy_are_the_orders_of_before() -> None:
    g = game(scenario([("ger-inf", "DE-INF", "0505"), ("sov-inf", "SU-INF", "0802")], terrain={"0505": "b"}))
    g.apply("ambush ger-inf 0504 2 first", side="german")
    assert D(g.state).orders["german"]["ger-inf"].policy is None
    g.apply("cancel ger-inf", side="german")
    g.apply("ambush ger-inf 0504 2 hold", side="german")
    assert D(g.state).orders["german"]["ger-inf"].policy == "hold"
    legal = [a for a in g.legal_actions() if a.verb in ("defend", "ambush")]
    assert legal == [] or all(len(a.args) == 3 for a in legal), "policies are typed, not legal_actions"
    g.apply("cancel ger-inf", side="german")
    legal = [a for a in g.legal_actions() if a.verb in ("defend", "ambush")]
    assert legal and all(len(a.args) == 3 for a in legal)


def _defend(policy: str, ask: bool = False) -> engine.Game:
    """ger-a (infantry) and ger-truck enter sov-inf's Defend zone at range 2 in the same sub-step."""
    sc = scenario([("ger-a", "DE-INF", "0402"), ("ger-truck", "DE-OPEL", "0602"), ("sov-inf", "SU-INF", "0505")])
    g = game(sc, [1] * 60)
    g.apply("move ger-a 0403", side="german")
    g.apply("march ger-truck 0603", side="german")
    g.apply("commit", side="german")
    if ask:
        g.apply("prompts on", side="soviet")
    g.apply(f"defend sov-inf 0504 2{policy}", side="soviet")
    g.apply("commit", side="soviet")
    return g


def test_15_2_3_6_defend_prefer_class_sets_the_preset() -> None:
    shots = [p for p, _ in rolls(_defend("").events) if p.startswith("defend fire")]
    assert len(shots) == 1 and "sov-inf at ger-a" in shots[0], "default: the nearest, then by id"
    g = _defend(" prefer-vehicle")
    shots = [p for p, _ in rolls(g.events) if p.startswith("defend fire")]
    assert len(shots) == 1 and "sov-inf at ger-truck" in shots[0]
    assert any("policy prefer-vehicle (rule 15.2)" in t for t in event_texts(g.events, "defend"))


def test_15_2_3_6_defend_prefer_class_is_listed_first_when_asked() -> None:
    g = _defend(" prefer-vehicle", ask=True)
    assert g.to_act == "soviet"
    assert g.legal_actions() == [Action("choose", ("ger-truck",)), Action("choose", ("ger-a",))]


def test_15_1_15_2_the_other_side_sees_only_unit_n_ambush() -> None:
    rs = ruleset()
    g = game(scenario([("ger-inf", "DE-INF", "0505"), ("sov-inf", "SU-INF", "0802")], terrain={"0505": "b"}))
    st = g.state.clone()
    D(st).active = {
        "ger-inf": Order("ambush", "ambush ger-inf 0504 2 prefer-tank", facing_hex=P("0504"), range=2,
                         policy="prefer-tank"),
        "sov-inf": Order("defend", "defend sov-inf 0801 1 prefer-infantry", facing_hex=P("0801"), range=1,
                         policy="prefer-infantry"),
    }  # fmt: skip
    soviet = D(rs.view(st, "soviet")).active
    assert soviet is not None and to_plain(soviet["ger-inf"]) == {"kind": "ambush", "notation": "ger-inf: Ambush"}
    assert "prefer" not in repr(soviet["ger-inf"])
    german = D(rs.view(st, "german")).active
    assert german is not None and german["ger-inf"].policy == "prefer-tank", "the owner keeps it"
    assert german["sov-inf"].policy == "prefer-infantry", "Defend is revealed"
