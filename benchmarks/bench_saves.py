"""Benchmarks the saves package against DESIGN.md section 11 (save after an action ≤ 10 ms; load with the
replay check of a complete Hannut game ≤ 200 ms) and the listing of 500 saves (headers only).

Run with::

    .venv/bin/python -m pytest benchmarks/bench_saves.py -q --benchmark-enable \\
        --benchmark-columns=median,mean,min,rounds -o addopts=""

Figures are in benchmarks/RESULTS.md (section "Saves").
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import engine
import saves
from tests.saves.helpers import play_random

SEED = 4
"""Random Hannut games end early (a side falls out of the victory-point window) after 86 to 866 actions for
seeds 1 to 6; seed 4 is the longest of them, so the figures are for a long game."""


@pytest.fixture(scope="module")
def hannut() -> engine.Game:
    """A complete Hannut game (seeded random playout to the end)."""
    game = play_random(engine.new_game(engine.load_scenario("blitzkrieg1940", "hannut"), seed=SEED), SEED)
    assert game.outcome is not None
    return game


@pytest.fixture(autouse=True)
def _record_length(benchmark: Any, hannut: engine.Game) -> None:
    benchmark.extra_info["actions"] = len(hannut.history)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    path = tmp_path_factory.mktemp("bench-saves")
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="module")
def saved(hannut: engine.Game, folder: Path) -> Path:
    path = folder / "hannut.planspiel"
    saves.save_game(hannut, path)
    return path


def test_save_after_an_action_autosave(benchmark: Any, hannut: engine.Game, folder: Path) -> None:
    """What the game pays after each action, over the last 60 actions of the game: encode (the autosaver packs
    only the new action and events), write a temporary file, fsync, keep .bak, rename, fsync the folder (it
    trusts the previous autosave it wrote, so it does not read it back). The action itself is not timed."""
    last = 60
    game = engine.replay(hannut.scenario, hannut.seed, hannut.history[:-last])
    saver = saves.Autosaver(game, folder / "auto.planspiel", keep=0)
    saver.save()
    todo = iter(hannut.history[-last:])

    def next_action() -> None:
        game.apply(next(todo))

    benchmark.pedantic(saver.save, setup=next_action, rounds=last, iterations=1)
    assert game.state == hannut.state
    assert saves.read_header(saver.path).actions == len(hannut.history)


def test_save_game_full_hannut(benchmark: Any, hannut: engine.Game, folder: Path) -> None:
    """saves.save_game of the same game again: as the autosave, plus reading the previous file back to check it
    before it becomes the .bak."""
    path = folder / "manual.planspiel"
    saves.save_game(hannut, path)
    benchmark(saves.save_game, hannut, path)


def test_encode_first_save_full_hannut(benchmark: Any, hannut: engine.Game) -> None:
    """The first save of a game loaded or started in this process: everything is packed (no disk)."""
    data, _ = benchmark(lambda: saves.GameEncoder().encode(hannut))
    assert len(data) > 10_000


def test_load_replay_full_hannut(benchmark: Any, hannut: engine.Game, saved: Path) -> None:
    """load_game(verify="replay"): the history replayed from the start and compared with the snapshot."""
    game = benchmark.pedantic(saves.load_game, args=(saved,), rounds=3, iterations=1, warmup_rounds=1)
    assert game.verified and game.state == hannut.state


def test_load_snapshot_full_hannut_cold(benchmark: Any, hannut: engine.Game, saved: Path) -> None:
    """load_game(verify="snapshot") in a fresh process: the embedded scenario is parsed (and validated) first."""

    def load() -> saves.SavedGame:
        return saves.load_game(saved, verify="snapshot")

    game = benchmark.pedantic(load, setup=saves.clear_scenario_cache, rounds=10, iterations=1, warmup_rounds=1)
    assert game.state == hannut.state


def test_load_snapshot_full_hannut_warm(benchmark: Any, hannut: engine.Game, saved: Path) -> None:
    """load_game(verify="snapshot") once the scenario was parsed (a second load in the same process)."""
    saves.load_game(saved, verify="snapshot")
    game = benchmark(saves.load_game, saved, verify="snapshot")
    assert game.state == hannut.state


def test_list_500_saves(benchmark: Any, saved: Path, folder: Path) -> None:
    """saves.list_saves over 500 files (headers only)."""
    many = folder / "many"
    many.mkdir()
    data = saved.read_bytes()
    for i in range(500):
        (many / f"game-{i:03d}.planspiel").write_bytes(data)
    entries = benchmark(saves.list_saves, many)
    assert len(entries) == 500 and all(e.header is not None for e in entries)
