"""Tests of the Game facade (DESIGN §4) through the test-only minirules ruleset (tests/minirules/README.md)."""

from __future__ import annotations

import copy
import gc
import random

import pytest

import engine
import engine.rules as engine_rules
from engine import Action, IllegalActionError, InvalidActionError, ScriptedDice


def play_random(game: engine.Game, seed: int, limit: int = 2000) -> None:
    """Play random legal actions until the game ends (or ``limit`` actions)."""
    rng = random.Random(seed)
    for _ in range(limit):
        if game.to_act is None:
            return
        game.apply(rng.choice(game.legal_actions()))
    raise AssertionError(f"game did not end in {limit} actions")


def move(game: engine.Game, unit: str, goal: str) -> list[engine.Event]:
    """Move ``unit`` along its cheapest route to ``goal``, then hold any reaction it triggers."""
    r = game.route(unit, goal)
    assert r is not None, f"{unit} cannot reach {goal}"
    events = game.apply(Action("move", (unit, *(game.board.label(h) for h in r.path[1:]))))
    return events


def hold_reactions(game: engine.Game) -> None:
    while game.to_act is not None and Action("hold") in game.legal_actions():
        game.apply("hold")


def test_public_api_names() -> None:
    for name in ("ruleset_names", "scenario_ids", "load_scenario", "new_game", "replay", "ScriptedDice"):
        assert hasattr(engine, name)
    assert "minirules" in engine.ruleset_names()
    assert engine.scenario_ids("minirules") == ["duel"]


def test_new_game_starts_with_first_side(duel: engine.Scenario) -> None:
    game = engine.new_game(duel, seed=7)
    assert game.to_act == "red"
    assert game.outcome is None
    assert game.history == ()
    assert game.state.turn == 1


def test_perft_first_decision_count(duel: engine.Scenario) -> None:
    """Perft-style regression: duel, seed 0, first decision: every move, fire and end for red."""
    game = engine.new_game(duel, seed=0)
    actions = game.legal_actions()
    assert len(actions) == 66
    assert actions == engine.new_game(duel, seed=99).legal_actions()  # deterministic order
    assert actions[-1] == Action("end")


def test_apply_accepts_notation_and_action(duel: engine.Scenario) -> None:
    a = engine.new_game(duel)
    b = engine.new_game(duel)
    ev_a = a.apply("move red-inf-1 0202 0302")
    ev_b = b.apply(Action("move", ("red-inf-1", "0202", "0302")))
    assert [e.text for e in ev_a] == [e.text for e in ev_b]
    assert a.state.to_dict() == b.state.to_dict()
    assert a.state.units["red-inf-1"].hex == engine.parse_hex("0302")


def test_m1_move_beyond_mp_is_refused_with_rule(duel: engine.Scenario) -> None:
    game = engine.new_game(duel)
    with pytest.raises(IllegalActionError) as err:
        game.apply("move red-inf-1 0202 0302 0402 0502 0602")
    assert err.value.rule == "M1"
    assert "4 MP" in str(err.value) and "(rule M1)" in str(err.value)


def test_m1_tracked_unit_cannot_enter_woods(duel: engine.Scenario) -> None:
    game = engine.new_game(duel)
    with pytest.raises(IllegalActionError, match="cannot enter 0306"):
        game.apply("move red-tank-1 0204 0305 0306")


def test_m1_unit_acts_once_per_turn(duel: engine.Scenario) -> None:
    game = engine.new_game(duel)
    game.apply("move red-inf-1 0202")
    with pytest.raises(IllegalActionError, match="already acted"):
        game.apply("move red-inf-1 0302")


def test_invalid_notation(duel: engine.Scenario) -> None:
    game = engine.new_game(duel)
    with pytest.raises(InvalidActionError, match="unknown verb"):
        game.apply("dance red-inf-1")
    with pytest.raises(InvalidActionError, match="no unit"):
        game.apply("fire red-inf-9 blue-inf-1")
    with pytest.raises(InvalidActionError, match="off the duel map"):
        game.apply("move red-inf-1 0909")
    with pytest.raises(InvalidActionError, match="empty"):
        game.parse("   ")


def test_apply_never_changes_an_earlier_state(duel: engine.Scenario) -> None:
    game = engine.new_game(duel, seed=3)
    rng = random.Random(3)
    for _ in range(40):
        if game.to_act is None:
            break
        before = game.state
        snapshot = copy.deepcopy(before.to_dict())
        game.apply(rng.choice(game.legal_actions()))
        assert before.to_dict() == snapshot
        assert game.state is not before


def test_describe_and_parse_are_inverses(duel: engine.Scenario) -> None:
    game = engine.new_game(duel, seed=5)
    rng = random.Random(5)
    while game.to_act is not None:
        actions = game.legal_actions()
        for a in actions:
            assert game.parse(game.describe(a)) == a
        game.apply(rng.choice(actions))


def test_m2_odds_are_exact(duel: engine.Scenario) -> None:
    game = engine.new_game(duel)
    move(game, "red-tank-1", "0604")
    hold_reactions(game)
    game.apply("end")
    # Blue's tank at 0704 fires at the red tank in the clear at 0604: a tank hits on 3+, so 4/6.
    odds = game.odds("fire blue-tank-1 red-tank-1")
    assert odds is not None
    assert sum(e.probability for e in odds) == 1
    assert odds.probability("hit") == pytest.approx(4 / 6)


def test_m2_cover_modifier_in_odds(duel: engine.Scenario) -> None:
    game = engine.new_game(duel)
    # red-sniper stands in woods at 0202: a blue infantry (hit 4) needs 5 there.
    st = game.state.clone()
    odds = game.ruleset.odds(st, Action("fire", ("blue-inf-1", "red-sniper")))
    assert odds is not None
    assert odds.probability("hit") == pytest.approx(2 / 6)
    assert "needs 5" in odds.note


def test_scripted_dice_force_a_hit_and_record_the_roll(duel: engine.Scenario) -> None:
    game = engine.new_game(duel, dice=ScriptedDice([6]))
    move(game, "red-tank-1", "0604")
    hold_reactions(game)
    game.apply("end")
    events = game.apply("fire blue-tank-1 red-tank-1")
    rolls = [e for e in events if e.kind == "roll"]
    assert len(rolls) == 1
    assert rolls[0].data["dice"] == [6] and rolls[0].data["target"] == 3
    assert "blue-tank-1 fires at red-tank-1" in rolls[0].data["purpose"]
    assert game.state.units["red-tank-1"].steps == 1


def test_m3_passive_side_decides_and_hold_is_always_offered(duel: engine.Scenario) -> None:
    game = engine.new_game(duel, dice=ScriptedDice([1]))
    game.apply("move red-tank-1 0204 0305 0405 0505 0604")
    assert game.to_act == "blue"  # the passive side must decide
    actions = game.legal_actions()
    assert Action("hold") in actions
    assert Action("react", ("blue-tank-1", "red-tank-1")) in actions
    assert game.legal_actions(side="red") == []
    with pytest.raises(IllegalActionError, match="reaction first"):
        game.apply("end")
    with pytest.raises(IllegalActionError, match="not red's decision"):
        game.apply("hold", side="red")
    game.apply("react blue-tank-1 red-tank-1")
    assert game.to_act == "red"


def test_m4_view_hides_the_sniper_and_side_queries_do_not_leak(duel: engine.Scenario) -> None:
    game = engine.new_game(duel, seed=1)
    assert "red-sniper" not in game.view("blue").units
    assert "red-sniper" in game.view("red").units
    assert game.view("blue").to_dict()["dice"] == {"kind": "hidden"}
    game.apply("end")
    # Blue's legal actions from its own view equal those from the full state: nothing hidden leaks.
    assert game.legal_actions(side="blue") == game.legal_actions()
    assert not any("red-sniper" in str(a) for a in game.legal_actions(side="blue"))
    with pytest.raises(InvalidActionError):
        game.parse("fire blue-inf-1 red-sniper", side="blue")


def test_m4_bumping_into_a_hidden_unit_reveals_it_and_stops_undo(duel: engine.Scenario) -> None:
    game = engine.new_game(duel, seed=1)
    game.apply("end")
    # blue-inf-1 walks west towards the woods at 0202 where the red sniper hides.
    move(game, "blue-inf-1", "0502")
    game.apply("end")
    game.apply("end")
    move(game, "blue-inf-1", "0302")
    hold_reactions(game)  # red may fire the sniper in reaction; it holds
    game.apply("end")
    game.apply("end")
    assert "red-sniper" not in game.view("blue").units
    events = game.apply("move blue-inf-1 0202")
    assert any(e.kind == "reveal" for e in events)
    assert game.state.units["blue-inf-1"].hex == engine.parse_hex("0302")
    assert "red-sniper" in game.view("blue").units
    assert not game.can_undo


def test_undo_until_dice_are_rolled(duel: engine.Scenario) -> None:
    game = engine.new_game(duel, seed=2)
    before = game.state.to_dict()
    game.apply("move red-inf-1 0202")
    assert game.can_undo
    assert game.undo() == Action("move", ("red-inf-1", "0202"))
    assert game.state.to_dict() == before
    move(game, "red-tank-1", "0604")
    hold_reactions(game)
    game.apply("end")
    game.apply("fire blue-tank-1 red-tank-1")
    assert not game.can_undo
    with pytest.raises(IllegalActionError, match="dice were rolled"):
        game.undo()


def test_the_game_keeps_only_the_positions_undo_can_reach(duel: engine.Scenario) -> None:
    game = engine.new_game(duel, seed=2)
    move(game, "red-tank-1", "0604")
    hold_reactions(game)
    game.apply("end")
    assert len(game._states) == len(game.history) + 1  # no dice yet: every position back to the start
    game.apply("fire blue-tank-1 red-tank-1")
    rolled = game.state
    assert game._states == [rolled]  # dice rolled: the positions before are let go
    game.apply("end")
    assert game.can_undo and len(game._states) == 2
    game.undo()
    assert game.state is rolled and not game.can_undo


def test_replay_leaves_the_collector_as_it_was(duel: engine.Scenario) -> None:
    assert gc.isenabled()
    engine.replay(duel, 2, ["end"])
    assert gc.isenabled()
    with pytest.raises(engine.ReplayError):
        engine.replay(duel, 2, ["end", "no such action"])
    assert gc.isenabled()
    gc.disable()
    try:
        engine.replay(duel, 2, ["end"])
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_m5_game_ends_after_the_last_turn(duel: engine.Scenario) -> None:
    game = engine.new_game(duel)
    for _ in range(duel.turns * 2):
        game.apply("end")
    assert game.to_act is None
    # Nobody holds 0403; blue has 6 steps left to red's 5 (the sniper has one step).
    assert game.outcome is not None and game.outcome.winner == "blue"
    assert "more steps" in game.outcome.reason
    assert game.legal_actions() == []
    with pytest.raises(IllegalActionError, match="game is over"):
        game.apply("end")


def test_m5_objective_holder_wins(duel: engine.Scenario) -> None:
    game = engine.new_game(duel)
    move(game, "red-inf-1", "0403")
    for _ in range(duel.turns * 2):
        hold_reactions(game)
        game.apply("end")
    assert game.outcome is not None
    assert game.outcome.winner == "red"
    assert "0403" in game.outcome.reason


def test_replay_rebuilds_the_game(duel: engine.Scenario) -> None:
    game = engine.new_game(duel, seed=11)
    play_random(game, 11)
    again = engine.replay(duel, 11, game.history)
    assert again.state.to_dict() == game.state.to_dict()
    assert [e.text for e in again.events] == [e.text for e in game.events]


def test_replay_reports_the_position_of_an_illegal_action(duel: engine.Scenario) -> None:
    with pytest.raises(engine.ReplayError) as err:
        engine.replay(duel, 0, ["move red-inf-1 0202", "move red-inf-1 0302"])
    assert err.value.position == 2
    assert "position 2" in str(err.value)


def test_map_queries_through_the_facade(duel: engine.Scenario) -> None:
    game = engine.new_game(duel)
    reach = game.reachable("red-inf-1", side="red")
    assert reach["0102"] == 0
    assert reach["0202"] == 2  # woods cost 2 for foot
    assert "0304" not in reach  # water
    assert reach["0204"] == 3
    r = game.route("red-inf-1", "0403")
    assert r is not None and r.path[0] == engine.parse_hex("0102") and r.path[-1] == engine.parse_hex("0403")
    los = game.line_of_sight("0102", "0402")
    assert not los.visible and los.blocker == engine.parse_hex("0202") and los.rule == "M2"
    assert game.line_of_sight("0101", "0102").visible
    with pytest.raises(InvalidActionError, match="no unit"):
        game.reachable("red-sniper", side="blue")


def test_same_seed_same_game(duel: engine.Scenario) -> None:
    a, b = engine.new_game(duel, seed=21), engine.new_game(duel, seed=21)
    play_random(a, 4)
    play_random(b, 4)
    assert a.state.to_dict() == b.state.to_dict()


def _check_invariants(game: engine.Game) -> None:
    st = game.state
    for u in st.units.values():
        assert 0 <= u.steps <= game.ruleset.unit_types[u.type]["steps"]
        assert (u.hex is None) == (u.steps == 0) or u.hex is None
        if u.hex is not None:
            assert u.hex in game.board, f"{u.id} off the map"
            assert game.ruleset.can_stand(u.type, game.board.terrain(u.hex))
    for h in {u.hex for u in st.iter_units()}:
        assert len({u.side for u in st.units_at(h)}) == 1, "enemies share a hex"
    for side in st.sides:
        assert not any(u.side != side and u.status.hidden for u in game.view(side).units.values()), (
            "a view shows a hidden enemy"
        )


@pytest.mark.parametrize("seed", range(50))
def test_random_playout_ends_cleanly_and_replays(duel: engine.Scenario, seed: int) -> None:
    game = engine.new_game(duel, seed=seed)
    rng = random.Random(seed)
    while game.to_act is not None:
        game.apply(rng.choice(game.legal_actions()))
        _check_invariants(game)
    assert game.outcome is not None
    assert engine.replay(duel, seed, game.history).state.to_dict() == game.state.to_dict()


@pytest.mark.soak
@pytest.mark.parametrize("seed", range(50, 1050))
def test_soak_random_playouts(duel: engine.Scenario, seed: int) -> None:
    game = engine.new_game(duel, seed=seed)
    play_random(game, seed)
    _check_invariants(game)
    assert engine.replay(duel, seed, game.history).state.to_dict() == game.state.to_dict()


def test_a_dice_pool_roll_counts_successes(duel: engine.Scenario) -> None:
    """Transition.roll(pool=N): each die at or under N succeeds; the record says how many, not a sum."""
    from engine.rules import Transition  # noqa: PLC0415

    st = engine.new_game(duel, seed=1).state.clone()
    st.dice = ScriptedDice([1, 4, 3, 6])
    tr = Transition(st)
    assert tr.roll(6, 4, "fire", pool=3) == (1, 4, 3, 6)
    (ev,) = tr.events
    assert ev.text == "fire: rolled 1 4 3 6: 2 at 3 or less"
    assert ev.data["hits"] == 2 and ev.data["pool"] == 3 and ev.data["dice"] == [1, 4, 3, 6]


def test_view_after_an_undo_and_another_action_is_of_the_new_position(duel: engine.Scenario) -> None:
    """The view cache is keyed by the state itself: undo, then a different action, then view() shows the new
    position (it once returned the view cached before the undo, the history having the same length again)."""
    game = engine.new_game(duel, seed=1)
    side = game.to_act
    assert side is not None
    first, second = [a for a in game.legal_actions() if a.verb == "move"][:2]
    game.apply(first)
    before = game.view(side)
    game.undo()
    game.apply(second)
    after = game.view(side)
    assert after is not before
    assert after.to_dict() == game.ruleset.view(game.state, side).to_dict()


def test_readings_are_kept_per_map_and_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ruleset.read keeps what it read per map (check, apply, odds and action_info read the same action), gives the
    same typed action as a fresh reading, and keeps at most READ_CACHE_SIZE of them: random notation cannot grow
    it without bound."""
    monkeypatch.setattr(engine_rules, "READ_CACHE_SIZE", 3)
    game = engine.new_game(engine.load_scenario("blitzkrieg1940", "hannut"), seed=1)
    engine.take_scenario_setup(game)
    rs, st = game.ruleset, game.state
    # The board (and its readings) is shared by every Hannut game of the process: another test's readings of the
    # same actions (the AI reads every candidate) would be found without a miss, and nothing would be let go.
    st.board.cache.pop(("read", rs.id), None)
    moves = [a for a in game.legal_actions() if a.verb in rs.notations][:5]
    assert len(moves) == 5
    # The board (and its readings) is shared by every Hannut game of this process: a test that read these actions
    # before (the AI's tests do) left them kept, and a reading found kept adds nothing, so nothing is dropped.
    st.board.cache.pop(("read", rs.id), None)
    first = rs.read(st, moves[0])
    assert rs.read(st, Action(moves[0].verb, moves[0].args)) is first, "an equal action is read once"
    for a in moves:
        assert rs.read(st, a) == type(rs.read(st, a)).read(a, st.board)
    kept = st.board.cache[("read", rs.id)]
    assert 0 < len(kept) <= 3


@pytest.mark.parametrize(
    ("ruleset", "scenario", "seed"),
    [("blitzkrieg1940", "hannut", 3), ("blitzkrieg1940", "stonne", 1), ("art_of_tactic", "p1-grenzgefecht", 2)],
)
def test_replay_applies_in_place_and_keeps_what_undo_reaches(ruleset: str, scenario: str, seed: int) -> None:
    """engine.replay applies each action to the state itself (issue 17: no copy per action) and ends with the
    states apply would have kept: the same position, events and history, and the same positions undo steps back
    to, one by one, down to the last roll."""
    sc = engine.load_scenario(ruleset, scenario)
    played = engine.new_game(sc, seed=seed)
    engine.take_scenario_setup(played)
    rng = random.Random(seed)
    while played.to_act is not None and len(played.history) < 400:
        played.apply(rng.choice(played.legal_actions()))
    again = engine.replay(sc, seed, list(played.history))
    assert again.history == played.history and again.events == played.events
    while True:
        assert again.state.to_dict() == played.state.to_dict()
        assert again.can_undo == played.can_undo
        if not played.can_undo:
            break
        assert again.undo() == played.undo()
    assert again.legal_actions() == played.legal_actions()
    # A prefix that ends with actions that roll nothing: undo steps back through states the replay rebuilt.
    step_by_step = engine.new_game(sc, seed=seed)
    quiet = 0
    for action in played.history:
        step_by_step.apply(action)
        quiet = quiet + 1 if step_by_step.can_undo else 0
        if quiet >= 3 and len(step_by_step.history) > 20:
            break
    assert quiet >= 3, "no three quiet actions in a row"
    rebuilt = engine.replay(sc, seed, list(step_by_step.history))
    steps = 0
    while step_by_step.can_undo:
        assert rebuilt.can_undo
        assert rebuilt.undo() == step_by_step.undo()
        assert rebuilt.state.to_dict() == step_by_step.state.to_dict()
        steps += 1
    assert steps >= 2 and not rebuilt.can_undo


@pytest.mark.parametrize(
    ("ruleset", "scenario", "seed"),
    [("hacse", "h3-bridge-at-dusk", 4), ("blitzkrieg1940", "hannut", 5)],
)
def test_replay_rebuilds_the_positions_undo_reaches_from_its_last_copy(ruleset: str, scenario: str, seed: int) -> None:
    """A replay copies its state only now and then (``REPLAY_CHECKPOINT``) and reaches the last position undo may
    return to by applying the actions since that copy again: at every length of a long history whose last
    actions rolled nothing, the rebuilt game steps back through the same positions as the game played."""
    sc = engine.load_scenario(ruleset, scenario)
    played = engine.new_game(sc, seed=seed)
    engine.take_scenario_setup(played)
    rng = random.Random(seed)
    quiet_ends: list[int] = []  # history lengths after which undo can step back at least twice
    while played.to_act is not None and len(played.history) < 600:
        played.apply(rng.choice(played.legal_actions()))
        if played.can_undo and len(played.history) > 2 * engine.game.REPLAY_CHECKPOINT:
            quiet_ends.append(len(played.history))
    cuts = [n for n in quiet_ends if n - 1 in quiet_ends][::7][:6]
    assert len(cuts) >= 3, "too few quiet stretches after two checkpoints' worth of actions"
    for cut in cuts:
        live = engine.new_game(sc, seed=seed)
        for action in played.history[:cut]:
            live.apply(action)
        rebuilt = engine.replay(sc, seed, list(played.history[:cut]))
        assert rebuilt.state.to_dict() == live.state.to_dict()
        steps = 0
        while live.can_undo:
            assert rebuilt.can_undo, f"history of {cut}: undo stopped early"
            assert rebuilt.undo() == live.undo()
            assert rebuilt.state.to_dict() == live.state.to_dict(), f"history of {cut}: position {steps + 1} back"
            steps += 1
        assert steps >= 2 and not rebuilt.can_undo
