"""Resignation: ``Game.resign`` (the engine's own verb ``resign SIDE``) ends a game of any ruleset for the other
side, is kept in the history, replays and saves to the same end, and cannot be undone or played after the end."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import ClassVar

import pytest

import engine
import engine.rules as engine_rules
import saves
from engine import Action, IllegalActionError
from engine.rules import RESIGN
from tests.minirules import MiniRules


def test_the_side_not_to_act_may_resign_and_the_other_wins(duel: engine.Scenario) -> None:
    game = engine.new_game(duel, seed=3)
    game.apply("move red-inf-1 0202 0302")
    assert game.to_act == "red"
    events = game.resign("blue")
    assert game.outcome == engine.Outcome("red", "Blue resigned: Red victory")
    assert game.to_act is None and game.legal_actions() == [] and game.waiting().side is None
    assert [(e.kind, e.text, e.data["resigned"]) for e in events] == [("resign", "Blue resigned: Red victory.", "blue")]
    assert game.history[-1] == Action(RESIGN, ("blue",))
    assert game.describe(game.history[-1]) == "resign blue"
    assert game.state.units["red-inf-1"].hex == engine.parse_hex("0302")  # the position stands as it was


def test_a_resignation_is_never_legal_nor_undone_and_ends_the_game(duel: engine.Scenario) -> None:
    game = engine.new_game(duel, seed=3)
    assert all(a.verb != RESIGN for a in game.legal_actions())
    game.apply("move red-inf-1 0202 0302")
    assert game.can_undo
    game.apply("resign red", side="red")
    assert not game.can_undo
    with pytest.raises(IllegalActionError, match="cannot undo"):
        game.undo()
    with pytest.raises(IllegalActionError, match="the game is over: Red resigned"):
        game.resign("blue")
    with pytest.raises(IllegalActionError, match="the game is over"):
        game.apply("end")


def test_refusals_say_why(duel: engine.Scenario) -> None:
    game = engine.new_game(duel, seed=3)
    with pytest.raises(IllegalActionError, match="no side 'green'"):
        game.resign("green")
    with pytest.raises(IllegalActionError, match="red cannot resign for blue"):
        game.apply("resign blue", side="red")
    with pytest.raises(IllegalActionError, match="red cannot resign for blue"):
        game.check("resign blue", side="red")
    assert game.check("resign blue", side="blue") == Action(RESIGN, ("blue",))
    assert game.outcome is None and game.history == ()  # checking changed nothing


def test_replay_and_saves_reach_the_same_end(duel: engine.Scenario, tmp_path: Path) -> None:
    game = engine.new_game(duel, seed=5)
    game.apply("move red-inf-1 0202 0302")
    game.resign("red")
    again = engine.replay(duel, 5, [game.describe(a) for a in game.history])
    assert again.outcome == game.outcome and again.state == game.state
    assert [e.to_dict() for e in again.events] == [e.to_dict() for e in game.events]
    with pytest.raises(engine.ReplayError, match="position 3"):  # nothing is played after the end
        engine.replay(duel, 5, [*map(str, game.history), "end"])
    path = tmp_path / "resigned.planspiel"
    saves.save_game(game, path)
    for verify in ("replay", "snapshot"):
        loaded = saves.load_game(path, verify=verify)
        assert loaded.outcome == engine.Outcome("blue", "Red resigned: Blue victory")
        assert loaded.history == game.history


def test_no_ruleset_may_take_the_verb() -> None:
    class Resigning(MiniRules):
        id = "resigning"
        verbs: ClassVar[Mapping[str, str]] = {**MiniRules.verbs, RESIGN: "resign — a ruleset's own"}

    with pytest.raises(ValueError, match=r"the engine keeps for Game\.resign"):
        engine_rules.register_ruleset(Resigning)
    assert "resigning" not in engine.ruleset_names()
