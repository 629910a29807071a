"""The session: players, autosave after every action, saves by hand, Continue, scores per turn."""

from __future__ import annotations

from pathlib import Path

import pytest

import saves
from tui.session import Session, find_last_save, parse_players


def test_players_default_to_human_and_are_checked() -> None:
    assert parse_players(("german", "french"), {"french": "ai:normal"}) == {"german": "human", "french": "ai:normal"}
    with pytest.raises(ValueError, match="unknown side"):
        parse_players(("german", "french"), {"soviet": "human"})
    with pytest.raises(ValueError, match="unknown player"):
        parse_players(("german", "french"), {"german": "robot"})


def test_new_session_autosaves_after_every_action(home: Path) -> None:
    s = Session.new("blitzkrieg1940", "hannut", {"french": "ai:easy"}, seed=7)
    assert s.humans == ["german"] and "french" in s.agents
    assert s.autosave_path is not None and s.autosave_path.parent == saves.autosave_dir()
    s.client("german").apply("keep ger-i-35-pzr")
    assert s.autosave_path.is_file()
    header = saves.read_header(s.autosave_path)
    # The scenario's set-up (French, German), the keep, then the 1. Kürassiere's set-up (12.1), all saved.
    assert header.actions == len(s.game.history) == 4
    assert header.players == {"german": "human", "french": "ai:easy"}


def test_save_load_and_continue(home: Path) -> None:
    s = Session.new("blitzkrieg1940", "hannut", {}, seed=7)
    s.client("german").apply("keep ger-i-35-pzr")
    path = s.save()
    assert path.parent == saves.saves_dir()
    last = find_last_save()
    assert last is not None and last.title.startswith("Hannut")
    again = Session.load(path)
    assert again.game.history == s.game.history
    assert again.players == s.players
    # A game loaded from the saves folder autosaves to a new autosave file; one from an autosave continues it.
    assert again.autosave_path is not None and again.autosave_path != path
    auto = Session.load(s.autosave_path or path)
    assert auto.autosave_path == s.autosave_path


def test_damaged_save_is_a_save_error(home: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.planspiel"
    bad.write_bytes(b"not a save at all")
    with pytest.raises(saves.SaveError, match=r"bad\.planspiel"):
        Session.load(bad)


def test_no_save_no_continue(home: Path) -> None:
    assert find_last_save() is None


def test_scores_by_turn_and_hidden_information() -> None:
    s = Session.new("blitzkrieg1940", "hannut", {}, seed=7, autosave=False)
    assert s.scores == {1: {"german": 8}}
    assert s.score_history() == {1: {"german": 8}}
    assert not s.has_hidden_information()
