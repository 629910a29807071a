"""Autosaves: a save after every action, rotating copies at turn boundaries (the last few kept)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import engine
import saves
from tests.saves.helpers import play_random


def new_duel(seed: int = 3) -> engine.Game:
    return engine.new_game(engine.load_scenario("minirules", "duel"), seed=seed)


def test_autosave_after_every_action(tmp_path: Path) -> None:
    game = new_duel()
    saver = saves.Autosaver(game, tmp_path / "duel.planspiel", players={"blue": "ai:random"}, keep=0)
    rng = random.Random(3)
    for n in range(1, 8):
        saver.apply(rng.choice(game.legal_actions()))
        header = saves.read_header(saver.path)
        assert header.actions == n
        assert header.players == {"red": "human", "blue": "ai:random"}
    loaded = saves.load_game(saver.path)
    assert loaded.history == game.history and loaded.state == game.state
    assert saves.load_game(saves.backup_path(saver.path)).history == game.history[:-1]
    assert saver.turn_saves() == []


def test_turn_copies_rotate(tmp_path: Path) -> None:
    game = new_duel()
    saver = saves.Autosaver(game, tmp_path / "duel.planspiel", keep=2)
    saver.save()
    rng = random.Random(3)
    turns_seen = {game.state.turn}
    while game.to_act is not None:
        saver.apply(rng.choice(game.legal_actions()))
        turns_seen.add(game.state.turn)
    assert len(turns_seen) >= 4
    kept = saver.turn_saves()
    assert [p.name for p in kept] == [f"duel.turn{t:03d}.planspiel" for t in sorted(turns_seen)[-2:]]
    for p in kept:  # each copy is the game at the start of its turn
        header = saves.read_header(p)
        first = saves.load_game(p)
        assert first.state.turn == header.turn
        assert first.history == game.history[: header.actions]
        assert len(saves.load_game(p).history) < len(game.history) or header.turn == game.state.turn
    assert not any(p.name.endswith(".bak") and "turn" in p.name for p in tmp_path.iterdir())


def test_default_keeps_five_turns(tmp_path: Path) -> None:
    game = new_duel()
    saver = saves.Autosaver(game, tmp_path / "d.planspiel")
    assert saver.keep == saves.KEEP_TURNS == 5
    for turn in range(1, 9):  # pretend to reach eight turns
        game.state.turn = turn
        saver.save()
    assert [p.name for p in saver.turn_saves()] == [f"d.turn{t:03d}.planspiel" for t in range(4, 9)]


def test_default_path_is_in_the_autosave_folder(home: Path) -> None:
    saver = saves.Autosaver(new_duel())
    assert saver.path.parent == home / "saves" / "autosave"
    assert saver.path.name.startswith("duel-") and saver.path.suffix == ".planspiel"
    saver.save()
    assert saves.list_saves(saves.autosave_dir())[0].path == saver.turn_path(1) or saver.path.exists()


def test_created_stays_and_a_loaded_game_keeps_its_own(tmp_path: Path) -> None:
    game = new_duel()
    saver = saves.Autosaver(game, tmp_path / "a.planspiel")
    first = saver.save()
    play_random(game, 1, 2)
    assert saver.save().created == first.created
    loaded = saves.load_game(saver.path)
    again = saves.Autosaver(loaded, tmp_path / "b.planspiel")
    assert again.save().created == first.created


def test_a_refused_action_saves_nothing(tmp_path: Path) -> None:
    saver = saves.Autosaver(new_duel(), tmp_path / "a.planspiel")
    with pytest.raises(engine.ActionError):
        saver.apply("move red-inf-1 0909")
    assert not saver.path.exists()
    with pytest.raises(ValueError, match="keep"):
        saves.Autosaver(new_duel(), keep=-1)
