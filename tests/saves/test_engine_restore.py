"""Tests of what the saves package added to the engine: ``GameState.from_dict`` and ``Game.restore``."""

from __future__ import annotations

import copy
from collections.abc import Callable

import msgpack
import pytest

import engine
from engine import Action, GameState
from engine.dice import Dice, ScriptedDice
from tests.saves.helpers import play_random

Played = Callable[[str, str, int, int | None], engine.Game]


def through_msgpack(d: dict[str, object]) -> dict[str, object]:
    return msgpack.unpackb(msgpack.packb(d), raw=False, strict_map_key=False)  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("ruleset", "scenario", "limit"), [("minirules", "duel", 10), ("blitzkrieg1940", "hannut", 60)]
)
def test_from_dict_inverts_to_dict(game_of: Played, ruleset: str, scenario: str, limit: int) -> None:
    game = game_of(ruleset, scenario, 1, limit)
    state = game.state
    types = {"data_type": game.ruleset.state_type, "status_type": game.ruleset.status_type}
    rebuilt = GameState.from_dict(through_msgpack(state.to_dict()), game.board, **types)
    assert rebuilt == state
    assert rebuilt.to_dict() == state.to_dict()
    assert rebuilt.dice == state.dice
    assert rebuilt.board is game.board
    assert isinstance(rebuilt.sides, tuple)


def test_from_dict_copies_its_input(duel_game: engine.Game) -> None:
    d = duel_game.state.to_dict()
    before = copy.deepcopy(d)
    rebuilt = GameState.from_dict(d, duel_game.board)
    rebuilt.data["scribble"] = 1
    next(iter(rebuilt.units.values())).status["scribble"] = 1
    assert d == before


def test_from_dict_keeps_outcome_and_scripted_dice() -> None:
    sc = engine.load_scenario("minirules", "duel")
    game = play_random(engine.new_game(sc, seed=2, dice=ScriptedDice([3, 4, 5, 6, 1, 2] * 30)), 2)
    assert game.outcome is not None
    rebuilt = GameState.from_dict(game.state.to_dict(), game.board)
    assert rebuilt.outcome == game.outcome
    assert rebuilt.dice == game.state.dice


@pytest.mark.parametrize(
    ("edit", "error"),
    [
        (lambda d: d.pop("units"), KeyError),
        (lambda d: d.update(units=[]), TypeError),
        (lambda d: d.update(sides="red"), TypeError),
        (lambda d: d.update(turn="1"), TypeError),
        (lambda d: d["units"]["red-inf-1"].update(hex="99x"), ValueError),
        (lambda d: d["units"]["red-inf-1"].update(steps=None), TypeError),
        (lambda d: d.update(dice={"kind": "loaded"}), ValueError),
    ],
)
def test_from_dict_refuses_broken_snapshots(
    duel_game: engine.Game, edit: Callable[[dict[str, object]], object], error: type[Exception]
) -> None:
    d = duel_game.state.to_dict()
    edit(d)
    with pytest.raises(error):
        GameState.from_dict(d, duel_game.board)


def test_restore_continues_exactly_like_the_original(game_of: Played) -> None:
    original = game_of("blitzkrieg1940", "hannut", 2, 80)
    restored = engine.Game.restore(
        original.scenario,
        original.seed,
        [original.describe(a) for a in original.history],
        through_msgpack(original.state.to_dict()),
        original.events,
    )
    assert restored.state == original.state
    assert restored.history == original.history
    assert restored.events == original.events
    assert restored.to_act == original.to_act
    assert restored.legal_actions() == original.legal_actions()
    # Both go on identically (the dice are part of the state).
    twin = engine.replay(original.scenario, original.seed, original.history)
    play_random(restored, 9, 40)
    play_random(twin, 9, 40)
    assert restored.state == twin.state
    assert restored.history == twin.history


def test_restore_from_a_state_object_does_not_share_it(duel_game: engine.Game) -> None:
    restored = engine.Game.restore(duel_game.scenario, duel_game.seed, duel_game.history, duel_game.state)
    assert restored.state == duel_game.state
    assert restored.state is not duel_game.state
    play_random(restored, 4, 3)
    assert duel_game.state != restored.state or duel_game.history != restored.history


def test_restore_cannot_undo_past_the_restored_position(duel_game: engine.Game) -> None:
    def restore() -> engine.Game:
        return engine.Game.restore(duel_game.scenario, duel_game.seed, duel_game.history, duel_game.state.to_dict())

    restored = restore()
    assert not restored.can_undo
    with pytest.raises(engine.IllegalActionError):
        restored.undo()
    for action in restored.legal_actions():  # the first action that rolls nothing and reveals nothing
        game = restore()
        before = game.state
        game.apply(action)
        if game.can_undo:
            assert game.undo() == action
            assert game.state == before
            assert len(game.history) == len(duel_game.history)
            assert not game.can_undo
            break
    else:
        pytest.fail("no undoable action")


def test_restore_reads_notation_against_the_plain_grammar_when_the_ruleset_refuses_it(duel_game: engine.Game) -> None:
    restored = engine.Game.restore(duel_game.scenario, duel_game.seed, ["dance red-inf-1", "end"], duel_game.state)
    assert restored.history == (Action("dance", ("red-inf-1",)), Action("end"))


def test_restore_with_dice_replaces_the_state_dice(duel_game: engine.Game) -> None:
    restored = engine.Game.restore(duel_game.scenario, 0, [], duel_game.state, dice=Dice(99, 5))
    assert restored.state.dice == Dice(99, 5)


def test_restore_refuses_a_state_of_another_scenario(duel_game: engine.Game) -> None:
    d = duel_game.state.to_dict()
    d["scenario"] = "other"
    with pytest.raises(ValueError, match="other"):
        engine.Game.restore(duel_game.scenario, 0, [], d)
    with pytest.raises(ValueError, match="not a state snapshot"):
        engine.Game.restore(duel_game.scenario, 0, [], {"ruleset": "minirules"})
