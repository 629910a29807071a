"""Provides the saves tests' fixtures: an isolated PLANSPIEL_HOME and played games cached for the session."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

import engine
from tests.saves.helpers import play_random

_games: dict[tuple[str, str, int, int | None], engine.Game] = {}


def played(ruleset: str, scenario: str, seed: int, limit: int | None) -> engine.Game:
    """A game played with seeded random actions (shared by the whole session: do not apply to it)."""
    key = (ruleset, scenario, seed, limit)
    game = _games.get(key)
    if game is None:
        game = play_random(engine.new_game(engine.load_scenario(ruleset, scenario), seed=seed), seed, limit)
        _games[key] = game
    return game


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """PLANSPIEL_HOME pointing at an empty folder for this test."""
    monkeypatch.setenv("PLANSPIEL_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


@pytest.fixture
def game_of() -> Callable[[str, str, int, int | None], engine.Game]:
    """``game_of(ruleset, scenario, seed, limit)``: a cached played game (read only)."""
    return played


@pytest.fixture
def duel_game() -> engine.Game:
    """A fresh minirules duel after 10 random actions (yours to play on)."""
    return play_random(engine.new_game(engine.load_scenario("minirules", "duel"), seed=7), 7, 10)
