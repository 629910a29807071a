"""The Art of Tactic AI: the generic planner with the Art of Tactic evaluation (issue 7 item 6, DESIGN §7).

Small positions on the blank test map of ``tests/rulesets/art_of_tactic/helpers.py``; every budget is one that
never runs out (no timing in a test).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import MISSING, Field, fields, replace
from typing import Any

import pytest

import engine
from engine.actions import Action
from engine.ai import make_agent
from engine.ai.planner import PlannerAgent
from engine.hexgrid import distance
from engine.odds import Odds
from engine.rulesets.art_of_tactic.evaluation import evaluate, weights
from engine.rulesets.art_of_tactic.records import AotStatus, Order
from engine.state import GameState
from engine.typed import to_plain
from tests.rulesets.art_of_tactic.helpers import D, P, S, game, ruleset, scenario

BUDGET = 30.0


def _with_orders(g: engine.Game, side: str, *orders: str) -> GameState:
    """The side's view with its orders written on its sheet (as the planner's copies hold them)."""
    for text in orders:
        g.apply(text, side=side)
    return g.view(side)


def test_evaluation_values_a_fire_order_by_its_exact_expected_losses() -> None:
    """2.3 + 6.1: a planned Open fire order changes nothing on the board; the evaluation adds its exact odds
    (expected losses and the chance to destroy the target)."""
    rs = ruleset()
    units = [("ger-a", "DE-INF", "0505"), ("sov-near", "SU-INF", "0604"), ("sov-far", "SU-INF", "0503")]
    near = _with_orders(game(scenario(units)), "german", "fire ger-a sov-near")
    far = _with_orders(game(scenario(units)), "german", "fire ger-a sov-far")
    none = game(scenario(units)).view("german")
    o_near = rs.odds(none, Action("fire", ("ger-a", "sov-near")))
    o_far = rs.odds(none, Action("fire", ("ger-a", "sov-far")))
    assert o_near is not None and o_far is not None and o_near.expected > o_far.expected
    w = weights()
    ammo = w["ammo"] * int(rs.tables.rules["ammo"]["fire"])
    killed = sum(float(e.probability) for e in o_near.entries if e.value >= 5)  # 6.3: all five symbols lost
    assert evaluate(rs, near, "german") - evaluate(rs, none, "german") == pytest.approx(
        w["fire_order"] * o_near.expected + w["fire_kill"] * killed - ammo
    )
    assert evaluate(rs, near, "german") > evaluate(rs, far, "german")


def test_ai_gives_the_fire_order_with_the_better_expected_hits() -> None:
    """6.1, 6.2: at range 1 the rifle platoon hits more than at range 2: the AI fires at the nearer target."""
    units = [("ger-a", "DE-INF", "0505"), ("sov-near", "SU-INF", "0604"), ("sov-far", "SU-INF", "0503")]
    g = game(scenario(units))
    action = PlannerAgent("normal", seed=1).choose(g.view("german"), BUDGET)
    assert action.verb in ("fire", "suppress")
    assert action.args == ("ger-a", "sov-near")


def test_ai_moves_toward_an_undefended_objective() -> None:
    """11.2: the only victory hex is far from every enemy: the AI's infantry heads for it."""
    g = game(scenario([("ger-a", "DE-INF", "0305"), ("sov-x", "SU-INF", "1310")]))
    D(g.state).victory = replace(D(g.state).victory, hexes=(P("0805"),))
    rs = ruleset()
    assert [g.state.board.label(h) for h in rs.ai_goals(g.view("german"), "german")] == ["0805"]
    action = PlannerAgent("normal", seed=2).choose(g.view("german"), BUDGET)
    assert action.verb in ("move", "march", "assault")
    b = g.state.board
    end = b.parse(action.args[-1])
    assert distance(end, b.parse("0805")) < distance(b.parse("0305"), b.parse("0805"))


def test_ai_gives_every_unit_an_order_then_commits() -> None:
    """2.3: the AI never takes an order back; it ends its planning once every unit has one."""
    g = game(scenario([("ger-a", "DE-INF", "0305"), ("ger-b", "DE-MG", "0306", {"facing": "0406"}),
                       ("sov-x", "SU-INF", "0905")]))  # fmt: skip
    agent = PlannerAgent("normal", seed=3)
    played = []
    while g.to_act == "german":
        a = agent.choose(g.view("german"), BUDGET)
        assert a.verb != "cancel"
        played.append(a)
        g.apply(a)
    assert [a.verb for a in played][-1] == "commit"
    assert sorted(a.args[0] for a in played[:-1]) == ["ger-a", "ger-b"]


class HiddenRead(BaseException):
    """Raised when the AI touches what its side may not see (a BaseException: nothing in the AI swallows it)."""


class _Poison:
    """A hidden value put back into a view: any use of it is a read of hidden information. The engine may copy
    it (copies of a view share it) but never look at it."""

    def _no(self, *args: Any, **kwargs: Any) -> Any:
        raise HiddenRead("the AI read hidden information (an enemy order or a hidden unit)")

    __getattr__ = __bool__ = __int__ = __float__ = __index__ = __iter__ = __len__ = _no
    __getitem__ = __contains__ = __eq__ = __lt__ = __le__ = __gt__ = __ge__ = __hash__ = __str__ = _no  # type: ignore[assignment]
    __format__ = _no  # type: ignore[assignment]


_SHARED = frozenset({
    "ammo", "facing", "smoke_ammo", "cargo_ammo", "cargo_mines", "cargo_lost", "deployed", "concealed", "found_at",
    "mines", "suppressed", "flag", "pending", "absorbed", "bonus", "bonus_from", "fof", "ambush_rounds",
    "entrenched", "in_dugout", "bound", "bound_to", "role", "carried_by", "towed", "prep", "boxes",
})  # fmt: skip
"""Fields of a unit's status that a copy of a view shares (numbers, flags, words, hexes): they can be poisoned."""


def _poisoned(cls: type[Any], poison: Iterable[Field[Any]]) -> Any:
    """A record of ``cls`` whose fields ``poison`` hold poison (the others their defaults, or poison if they have
    none)."""
    names = {f.name for f in poison}
    values = {f.name: _Poison() for f in fields(cls) if f.name in names or f.default is MISSING}
    return cls(**values)


class _PoisonedClient:
    """One side's client whose view has the enemy's orders and hidden units poisoned."""

    def __init__(self, g: engine.Game, side: str) -> None:
        self.game = g
        self._side = side

    @property
    def side(self) -> str:
        return self._side

    def view(self) -> GameState:
        """The side's view with the enemy's true orders and its hidden units' true status put back, poisoned."""
        v = self.game.view(self._side).clone()
        truth = self.game.state
        for s, sheet in D(truth).orders.items():
            if s != self._side:
                D(v).orders[s] = {uid: _poisoned(Order, fields(Order)) for uid in sheet}
        for u in v.units.values():
            if u.side != self._side and S(u).hidden:
                # Its values as the truth has them (every field a copy of the view shares), poisoned.
                known = to_plain(truth.units[u.id].status)
                u.status = _poisoned(AotStatus, [f for f in fields(AotStatus) if f.name in _SHARED and f.name in known])
                S(u).hidden = True
        return v

    def legal_actions(self) -> list[Action]:
        return self.game.legal_actions()

    def odds(self, action: Action) -> Odds | None:
        return self.game.odds(action)


def _rounds(g: engine.Game, n: int, hidden_seen: list[bool]) -> Iterator[str]:
    """Plays ``n`` rounds: the German side random, the Soviet side the AI through a poisoned client."""
    german = make_agent("random", seed=5)
    soviet = PlannerAgent("normal", seed=6)
    start = g.state.turn
    while g.state.outcome is None and g.state.turn < start + n:
        side = g.to_act
        assert side is not None
        if side == "german":
            g.apply(german.choose(g.view(side), 1.0))
            continue
        client = _PoisonedClient(g, side)
        hidden_seen.append(any(u.side == "german" and S(u).hidden for u in g.state.units.values()))
        before = g.state.dice.to_dict()
        action = soviet.choose(client, BUDGET)
        assert g.state.dice.to_dict() == before  # the game's dice are never touched
        assert action in g.legal_actions()
        g.apply(action)
        yield str(action)


def test_ai_never_reads_the_enemy_orders_or_hidden_units() -> None:
    """2.3, 3.11, 15.1: the Soviet AI plans on a view whose German orders and hidden units raise when read."""
    # The victory hex is the first unit's (the German HQ's): far from the ambush, so nobody walks next to it.
    units = [("ger-hq", "DE-HQ", "0102"), ("ger-a", "DE-INF", "0605"), ("ger-b", "DE-INF", "0903"),
             ("sov-x", "SU-INF", "1205"), ("sov-y", "SU-INF", "1103"), ("sov-hq", "SU-HQ", "1304")]  # fmt: skip
    g = engine.new_game(scenario(units, terrain={"0605": "v"}, turns=4), seed=3)
    g.apply("ambush ger-a 0705 2", side="german")  # hidden from step 8 on (3.11)
    g.apply("fire ger-b sov-y", side="german")  # an order the Soviet AI must not read
    g.apply("commit", side="german")
    hidden_seen = []
    played = list(_rounds(g, 2, hidden_seen))
    assert played.count("commit") == 2
    assert any(hidden_seen), "a German unit was hidden while the Soviet AI planned"


def test_poison_catches_a_read() -> None:
    """The poisoned view does catch a read of the enemy's orders (a test that can fail)."""
    g = engine.new_game(engine.load_scenario("art_of_tactic", "o1-waldrand"), seed=3)
    g.apply("hold ger-1-hq", side="german")
    g.apply("commit", side="german")
    v = _PoisonedClient(g, "soviet").view()
    assert list(D(v.clone()).orders["german"]) == ["ger-1-hq"]  # a copy of the view is no read
    with pytest.raises(HiddenRead):
        _ = D(v).orders["german"]["ger-1-hq"].kind == "hold"
    assert D(g.view("soviet")).orders["german"] == {}


# --- The evaluation's own value of an order (Ruleset.ai_score) and its terms -----------------------------------


def _objective(g: engine.Game, *hexes: str, control: dict[str, str] | None = None) -> engine.Game:
    D(g.state).victory = replace(D(g.state).victory, hexes=tuple(P(h) for h in hexes))
    D(g.state).control = {P(h): side for h, side in (control or {}).items()}
    return g


def test_ai_score_is_the_evaluation_with_the_order_written() -> None:
    """2.3: while a side plans, an order only writes its sheet: ai_score is the evaluation after writing it."""
    rs = ruleset()
    units = [("ger-a", "DE-INF", "0505"), ("sov-x", "SU-INF", "0604")]
    for text in ("fire ger-a sov-x", "move ger-a 0605", "hold ger-a"):
        g = game(scenario(units))
        before = g.view("german")
        score = rs.ai_score(before, rs.parse_action(before, text), "german")
        assert score == pytest.approx(evaluate(rs, _with_orders(g, "german", text), "german"))
    g = game(scenario(units))
    assert rs.ai_score(g.view("german"), Action("commit", ()), "german") is None  # commit is not scored


def test_11_2_fire_at_the_holder_of_a_victory_hex_counts_more() -> None:
    """11.2: a unit on a victory hex must be driven out: the same fire odds are worth more against it."""
    rs = ruleset()
    units = [("ger-a", "DE-INF", "0505"), ("sov-on", "SU-INF", "0604"), ("sov-off", "SU-INF", "0405")]
    g = _objective(game(scenario(units)), "0604", control={"0604": "soviet"})
    v = g.view("german")
    o_on = rs.odds(v, Action("fire", ("ger-a", "sov-on")))
    o_off = rs.odds(v, Action("fire", ("ger-a", "sov-off")))
    assert o_on is not None and o_off is not None and o_on.expected == o_off.expected  # the same odds
    on = rs.ai_score(v, Action("fire", ("ger-a", "sov-on")), "german")
    off = rs.ai_score(v, Action("fire", ("ger-a", "sov-off")), "german")
    assert on is not None and off is not None
    w = weights()
    killed = sum(float(e.probability) for e in o_on.entries if e.value >= 5)
    assert on - off == pytest.approx(w["fire_objective"] * (w["fire_order"] * o_on.expected + w["fire_kill"] * killed))
    chosen = PlannerAgent("normal", seed=4).choose(v, BUDGET)
    assert chosen.verb in ("fire", "suppress") and chosen.args == ("ger-a", "sov-on")


def test_7_7_bound_unit_assaults_the_holder_of_a_victory_hex() -> None:
    """7.7, 11.2: bound in close combat on the victory hex, the AI assaults (not hold, not withdraw)."""
    rs = ruleset()
    units = [("ger-a", "DE-INF", "0505"), ("sov-x", "SU-INF", "0604")]
    g = _objective(game(scenario(units)), "0604", control={"0604": "soviet"})
    a = g.state.units["ger-a"]
    a.hex = g.state.units["sov-x"].hex  # as after an assault that did not decide the close combat (7.7)
    S(a).bound = S(g.state.units["sov-x"]).bound = True
    v = g.view("german")
    assault = Action("assault", ("ger-a", "sov-x"))
    assert assault in g.legal_actions()
    hold = rs.ai_score(v, Action("hold", ("ger-a",)), "german")
    scored = rs.ai_score(v, assault, "german")
    assert scored is not None and hold is not None and scored > hold
    assert PlannerAgent("normal", seed=5).choose(v, BUDGET) == assault


def test_4_6_passengers_dismount_next_to_the_objective() -> None:
    """4.6: Dismount works only on both cards; next to a victory hex the transport's Dismount is worth more than
    far from it (the passenger's only order is Dismount)."""
    rs = ruleset()

    def dismount_gain(at: str) -> float:
        units = [("ger-t", "DE-251", at), ("ger-p", "DE-INF", at, {"aboard": "ger-t"}), ("sov-x", "SU-INF", "1310")]
        g = game(scenario(units))
        _objective(g, "0805", control={"0805": "soviet"})
        v = _with_orders(g, "german", "dismount ger-p")
        d = rs.ai_score(v, Action("dismount", ("ger-t",)), "german")
        h = rs.ai_score(v, Action("hold", ("ger-t",)), "german")
        assert d is not None and h is not None
        return d - h

    w = weights()
    assert dismount_gain("0705") == pytest.approx(w["dismount"])  # next to 0805
    assert dismount_gain("0205") == pytest.approx(-w["dismount_far"])


def test_11_2_attacker_values_defend_less_than_the_holder() -> None:
    """11.2: the side that must take the victory hex gains little by a Defend order away from it."""
    rs = ruleset()
    units = [("ger-a", "DE-INF", "0505"), ("sov-x", "SU-INF", "0705")]

    def defend_gain(side_holding: str, side: str, uid: str, facing: str) -> float:
        g = _objective(game(scenario(units)), "0905", control={"0905": side_holding})
        g.state.to_act = side
        v = g.view(side)
        d = rs.ai_score(v, Action("defend", (uid, facing, "2")), side)
        h = rs.ai_score(v, Action("hold", (uid,)), side)
        assert d is not None and h is not None
        return d - h

    w = weights()
    full = w["defend_order"] + w["defend_bonus"] * 1
    assert defend_gain("german", "german", "ger-a", "0605") == pytest.approx(full)  # the holder
    assert defend_gain("soviet", "german", "ger-a", "0605") == pytest.approx(full * w["defend_attacker"])


def test_o4_defender_is_the_side_holding_every_victory_hex() -> None:
    """O-4: 0604 lies in the German control columns, so the Germans hold it although ``otherwise`` names the
    Soviets; P-2: nobody holds 0905 and 1005 at the start, so the ``otherwise`` side (Soviet) defends."""
    from engine.rulesets.art_of_tactic.evaluation import defender  # noqa: PLC0415

    o4 = engine.new_game(engine.load_scenario("art_of_tactic", "o4-brueckenkopf"), seed=1)
    assert D(o4.state).victory.otherwise == "soviet"
    assert defender(o4.view("german")) == "german"
    p2 = engine.new_game(engine.load_scenario("art_of_tactic", "p2-die-bruecke"), seed=1)
    assert defender(p2.view("german")) == "soviet"


def test_s2_fire_at_the_bridge_that_must_stay_intact_is_a_loss() -> None:
    """P-2 S2, 9.18.8: the Germans need the bridge at 0805 intact; firing at it is valued below holding."""
    g = engine.new_game(engine.load_scenario("art_of_tactic", "p2-die-bruecke"), seed=1)
    rs = ruleset()
    v = g.view("german")
    acts = [a for a in g.legal_actions() if a.verb == "fire" and a.args[1] == "0805"]
    if not acts:
        pytest.skip("no German unit can fire at the bridge in round 1")
    uid = acts[0].args[0]
    fire = rs.ai_score(v, acts[0], "german")
    hold = rs.ai_score(v, Action("hold", (uid,)), "german")
    assert fire is not None and hold is not None and fire < hold - weights()["bridge"] / 2


def test_11_2_a_held_victory_hex_with_an_enemy_close_is_guarded() -> None:
    """11.2: control lasts until the other side alone stands there: with an enemy two hexes off, leaving the held
    victory hex is valued below staying on it (with no enemy near, only the small ``guard`` weight differs)."""
    rs = ruleset()

    def stay_minus_leave(enemy_at: str) -> float:
        units = [("ger-a", "DE-INF", "0505"), ("sov-x", "SU-INF", enemy_at)]
        g = _objective(game(scenario(units)), "0505", control={"0505": "german"})
        v = g.view("german")
        stay = rs.ai_score(v, Action("hold", ("ger-a",)), "german")
        leave = rs.ai_score(v, Action("move", ("ger-a", "0405")), "german")
        assert stay is not None and leave is not None
        return stay - leave

    w = weights()
    assert stay_minus_leave("0705") > stay_minus_leave("1310") + w["unguarded"]


def test_scenario_ai_weights_apply_to_their_side_only() -> None:
    """A scenario's ``[ai.<side>]`` table (AI weights, not rules) changes how the AI values that side's position
    only; the other side keeps ``data/ai.toml``."""
    from engine.rulesets.art_of_tactic.evaluation import side_weights  # noqa: PLC0415

    rs = ruleset()
    units = [("ger-a", "DE-INF", "0505"), ("sov-near", "SU-INF", "0604")]
    base = game(scenario(units))
    base_ger, base_sov = evaluate(rs, base.view("german"), "german"), evaluate(rs, base.view("soviet"), "soviet")
    g = game(scenario(units))
    D(g.state).ai = {"german": {"step": 3.0}}
    assert side_weights(g.view("german"), "german")["step"] == 3.0
    assert side_weights(g.view("soviet"), "soviet") == weights()
    assert evaluate(rs, g.view("german"), "german") > base_ger  # its own five symbols count three times
    assert evaluate(rs, g.view("soviet"), "soviet") == pytest.approx(base_sov)


def test_scenario_ai_weights_are_checked_by_validate() -> None:
    """An unknown side, an unknown weight or a non-number in ``[ai.<side>]`` is a scenario problem that names the
    key (as ``planspiel validate`` prints it); the scenario's values reach the game's data."""
    from engine.errors import ScenarioError  # noqa: PLC0415
    from engine.scenario import parse_scenario  # noqa: PLC0415
    from tests.rulesets.art_of_tactic.helpers import blank_map  # noqa: PLC0415

    base = scenario([("ger-a", "DE-INF", "0505"), ("sov-x", "SU-INF", "0705")]).text

    def parse(extra: str) -> Any:
        return parse_scenario(base + extra, "test.toml", map_text=blank_map(), map_file="blank.map")

    with pytest.raises(ScenarioError) as err:
        parse('\n[ai.german]\napproachh = 1\nthreat = "low"\n[ai.finnish]\nstep = 1\n')
    bad = [f"{p.where}: {p.message}" for p in err.value.problems]
    assert any("ai.german.approachh" in p and "unknown AI weight" in p for p in bad)
    assert any("ai.german.threat" in p and "expected a number" in p for p in bad)
    assert any("ai.finnish" in p and "unknown side" in p for p in bad)
    assert D(engine.new_game(parse("\n[ai.german]\nthreat = 0.25\n"), seed=1).state).ai == {"german": {"threat": 0.25}}
