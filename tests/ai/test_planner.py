"""The default AI (the planner) and the Blitzkrieg position evaluation, on small positions."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from engine.actions import Action
from engine.ai import LEVELS, PlannerAgent, make_agent, planner

from .clients import Client, PoisonedClient

A = Action


def _hannut(seed: int = 1) -> engine.Game:
    """Hannut set up as the scenario file does (12.1), at the German's kept-chit choice (2.8)."""
    game = engine.new_game(engine.load_scenario("blitzkrieg1940", "hannut"), seed=seed)
    engine.take_scenario_setup(game)
    return game


def _activation(seed: int = 1) -> engine.Game:
    """Hannut turn 1: the German I/5 PzR (four Panzer companies at 1605/1606) activated first."""
    game = _hannut(seed)
    game.apply("keep ger-i-5-pzr")
    engine.take_scenario_setup(game)  # 12.1: the 1. Kürassiere sets up after the German's choice
    for text in ("first ger-i-5-pzr", "activate"):
        game.apply(text)
    return game


def _edited(game: engine.Game, change: Any) -> engine.Game:
    """The game continued from a copy of its state changed by ``change(state)``."""
    st = game.state.clone()
    change(st)
    return engine.Game.restore(game.scenario, game.seed, [], st)


# --- The evaluation ------------------------------------------------------------------------------------------


def test_evaluation_is_zero_sum_and_counts_the_hannut_vp_formula() -> None:
    game = _hannut()
    rs = game.ruleset
    st = game.state
    assert rs.evaluate(st, "german") == pytest.approx(-rs.evaluate(st, "french"))
    # 13.8: a French tank step lost is worth 2 VP to the German, an infantry step 1.
    tank = _edited(game, lambda s: setattr(s.units["fra-1kur-s35-1"], "steps", 1)).state
    drg = _edited(game, lambda s: setattr(s.units["fra-i11rdp-drg-1"], "steps", 1)).state
    gain_tank = rs.evaluate(tank, "german") - rs.evaluate(st, "german")
    gain_drg = rs.evaluate(drg, "german") - rs.evaluate(st, "german")
    assert gain_tank > gain_drg > 0


def test_evaluation_values_an_objective_taken() -> None:
    game = _hannut()
    taken = _edited(game, lambda s: s.data.held_by.__setitem__("1512", "german")).state
    assert game.ruleset.evaluate(taken, "german") > game.ruleset.evaluate(game.state, "german") + 2.5


def test_evaluation_sees_a_threatened_unit() -> None:
    """French motorcyclists in the open next to four Panzer companies score worse than out of reach."""
    game = _activation()
    rs = game.ruleset

    def exposed(s: engine.GameState) -> None:
        s.units["fra-12kur-mot-1"].hex = s.board.parse("1506")

    def hidden(s: engine.GameState) -> None:
        s.units["fra-12kur-mot-1"].hex = s.board.parse("0201")

    a, b = _edited(game, exposed).state, _edited(game, hidden).state
    assert rs.evaluate(b, "french") > rs.evaluate(a, "french")


def test_ai_goals_are_the_objectives_not_held() -> None:
    game = _hannut()
    rs = game.ruleset
    german = {game.board.label(h) for h in rs.ai_goals(game.state, "german")}
    assert german == {"0403", "0404", "0504", "1006", "1204", "1205", "1415", "1416", "1512"}
    assert rs.ai_goals(game.state, "french") == []  # nothing to win back yet
    taken = _edited(game, lambda s: s.data.held_by.__setitem__("1512", "german")).state
    assert [game.board.label(h) for h in rs.ai_goals(taken, "french")] == ["1512"]


def test_default_evaluation_counts_steps() -> None:
    game = engine.new_game(engine.load_scenario("minirules", "duel"), seed=1)
    base = game.ruleset.evaluate(game.state, "red")
    hit = _edited(game, lambda s: setattr(s.units["blue-inf-1"], "steps", 1)).state
    assert game.ruleset.evaluate(hit, "red") == base + 1


# --- The planner's choices -----------------------------------------------------------------------------------


def test_prefers_the_higher_odds_attack() -> None:
    """Two shots on offer: the planner takes the one with the better expected result (exact odds)."""
    game = _activation()

    def targets(s: engine.GameState) -> None:
        s.units["fra-iii11rdp-drg-1"].hex = s.board.parse("1407")  # dragoons beside the H39 at 1408

    game = _edited(game, targets)
    client = Client(
        game, "german", keep=lambda a: a.verb == "end" or (a.verb == "fire" and a.args[0] == "ger-i5pzr-pz4")
    )
    fires = [a for a in client.legal_actions() if a.verb == "fire"]
    evs = {a: game.odds(a).expected for a in fires}  # type: ignore[union-attr]
    assert len(set(evs.values())) >= 2, evs
    choice = PlannerAgent("normal", seed=3).choose(client, 5.0)
    assert choice == max(evs, key=lambda a: evs[a])


def test_ai_score_default_is_none_and_the_planner_follows_a_ruleset_that_scores(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``Ruleset.ai_score``: None by default (the planner's own scores stand); where a ruleset values an action
    itself, the planner plays the action it values most, even against the exact odds."""
    game = _activation()

    def targets(s: engine.GameState) -> None:
        s.units["fra-iii11rdp-drg-1"].hex = s.board.parse("1407")

    game = _edited(game, targets)
    rs = game.ruleset
    client = Client(
        game, "german", keep=lambda a: a.verb == "end" or (a.verb == "fire" and a.args[0] == "ger-i5pzr-pz4")
    )
    fires = [a for a in client.legal_actions() if a.verb == "fire"]
    assert all(rs.ai_score(game.view("german"), a, "german") is None for a in client.legal_actions())
    evs = {a: game.odds(a).expected for a in fires}  # type: ignore[union-attr]
    worst = min(evs, key=lambda a: evs[a])
    assert PlannerAgent("normal", seed=3).choose(client, 5.0) != worst
    monkeypatch.setattr(type(rs), "ai_score", lambda self, state, action, side: 50.0 if action == worst else 0.0)
    assert PlannerAgent("normal", seed=3).choose(client, 5.0) == worst


def test_takes_an_undefended_objective() -> None:
    game = _activation()

    def undefended(s: engine.GameState) -> None:
        for u in s.iter_units("french"):
            u.hex = s.board.parse("0101") if u.hex is not None else None
        s.units["ger-i5pzr-pz1"].hex = s.board.parse("1206")  # next to Jandrenouille (1205)

    game = _edited(game, undefended)
    assert A("move", ("ger-i5pzr-pz1", "1205")) in game.legal_actions()
    choice = PlannerAgent("normal", seed=5).choose(game.view("german"), 5.0)
    assert choice.args[:1] == ("ger-i5pzr-pz1",) and choice.args[-1] == "1205", choice


def _window_with_retreat(seed: int = 1) -> engine.Game:
    """A French reaction window (6.3.4) in which a French unit may retreat: the Germans move up until one opens."""
    game = _activation(seed)
    for step in ("move ger-i5pzr-pz3 1506", "move ger-i5pzr-pz3 1406"):
        game.apply(step)
        if game.to_act == "french" and any(a.verb == "retreat" for a in game.legal_actions()):
            return game
    pytest.skip("no retreat window in this line of play")


def test_retreats_a_unit_that_would_be_lost() -> None:
    game = _window_with_retreat()
    retreats = [a for a in game.legal_actions() if a.verb == "retreat"]
    uid = retreats[0].args[0]

    def doomed(s: engine.GameState) -> None:
        u = s.units[uid]
        u.steps = 1
        u.status.neutralised = True
        for gid, spot in (("ger-i5pzr-pz1", "1507"), ("ger-i5pzr-pz2", "1505"), ("ger-i5pzr-pz4", "1605")):
            s.units[gid].hex = s.board.parse(spot)

    game = _edited(game, doomed)
    client = Client(
        game, "french", keep=lambda a: a.verb in ("retreat", "close") and (a.verb == "close" or a.args[0] == uid)
    )
    choice = PlannerAgent("normal", seed=1).choose(client, 5.0)
    assert choice.verb == "retreat", choice


# --- Time, honesty, levels -----------------------------------------------------------------------------------


def test_the_time_cap_holds_with_many_units(monkeypatch: pytest.MonkeyPatch) -> None:
    """60+ actions and a clock on which every look costs 10 ms: the planner stops within its budget of 0.2 s and
    plays the best action scored so far (a fake clock, so the test does not depend on the machine's speed)."""
    game = _activation()
    legal = game.legal_actions()
    assert len(legal) > 50
    now = [0.0]

    def clock() -> float:
        now[0] += 0.01
        return now[0]

    scored: list[Action] = []
    real_score = planner._Scorer.score

    def score(self: Any, action: Action) -> float:
        scored.append(action)
        return real_score(self, action)

    monkeypatch.setattr(planner.time, "perf_counter", clock)
    monkeypatch.setattr(planner._Scorer, "score", score)
    agent = PlannerAgent("hard", seed=2)
    choice = agent.choose(game.view("german"), budget_s=0.2)
    assert choice in legal
    assert now[0] <= 0.2 * 1.1
    assert 1 <= len(scored) < LEVELS["hard"].width  # it stopped early, with something scored


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_never_reads_hidden_information(level: str) -> None:
    """Given a view whose hidden parts (the dice) are poisoned, every level still decides from the view alone."""
    game = _hannut(seed=4)
    agent = make_agent(level, seed=9)
    for _ in range(12):
        side = game.to_act
        assert side is not None
        client = PoisonedClient(game, side)
        before = game.state.dice.to_dict()
        action = agent.choose(client, budget_s=0.3)
        assert game.state.dice.to_dict() == before  # the game's dice are never touched
        assert action in game.legal_actions()
        game.apply(action)


def test_minirules_hidden_sniper_stays_hidden() -> None:
    """The minirules sniper is hidden from Blue: Blue's AI decides on a view without it, and never asks for it."""
    game = engine.new_game(engine.load_scenario("minirules", "duel"), seed=2)
    game.apply("end")
    assert game.to_act == "blue"
    client = PoisonedClient(game, "blue")
    assert "red-sniper" not in client.view().units
    action = PlannerAgent("normal", seed=1).choose(client, 0.5)
    assert action in game.legal_actions()
    assert "red-sniper" not in action.args


def test_same_seed_same_choices() -> None:
    def play(seed: int) -> list[str]:
        game = _activation()
        agent = PlannerAgent("normal", seed=seed)
        out = []
        for _ in range(6):
            side = game.to_act
            assert side is not None
            action = agent.choose(game.view(side), 5.0)  # a budget that never runs out: no timing in the test
            out.append(str(action))
            game.apply(action)
        return out

    assert play(4) == play(4)


def test_progress_is_reported() -> None:
    lines: list[str] = []
    PlannerAgent("normal", seed=1).choose(_activation().view("german"), 1.0, progress=lines.append)
    assert lines and all(line.startswith("thinking: ") for line in lines)


def test_levels() -> None:
    assert [LEVELS[k].budget_s for k in ("easy", "normal", "hard")] == [0.2, 1.0, 5.0]
    with pytest.raises(ValueError, match="unknown AI level"):
        PlannerAgent("godlike")
