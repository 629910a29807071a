"""``--backend ray`` (issue 20): the games of ``simulate`` and ``balance`` as Ray tasks on a local Ray give the
same per-game results as the process pool for the same seed. Skipped where the optional extra is not installed
(``pip install 'planspiel[ray]'``)."""

from __future__ import annotations

import json

import pytest

from engine.ai.simulate import simulate
from tui.cli import main

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module", autouse=True)
def local_ray() -> object:
    yield
    ray.shutdown()


def test_20_games_on_ray_are_the_games_of_the_process_pool() -> None:
    pool = simulate("blitzkrieg1940", "hannut", 20, "greedy", "random", workers=2, seed=7)
    tasks = simulate("blitzkrieg1940", "hannut", 20, "greedy", "random", workers=2, seed=7, backend="ray")
    assert len(pool.per_game) == 20 and not pool.errors
    assert tasks.per_game == pool.per_game
    assert (tasks.a_wins, tasks.b_wins, tasks.draws, tasks.turns) == (pool.a_wins, pool.b_wins, pool.draws, pool.turns)


def test_balance_takes_the_backend(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["balance", "blitzkrieg1940", "hannut", "--games", "2", "--ai", "random", "--seed", "3", "--json"]
    assert main([*argv, "--backend", "ray"]) == 0
    ray_json = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert main(argv) == 0
    pool_json = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert ray_json["per_game"] == pool_json["per_game"] and ray_json["games"] == 2
