"""A writer killed with SIGKILL at a random moment while saving in a loop, 100 times: the save always loads."""

from __future__ import annotations

import os
import random
import signal
import time
from collections.abc import Callable
from pathlib import Path

import pytest

import engine
import saves

Played = Callable[[str, str, int, int | None], engine.Game]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_sigkill_while_saving_never_loses_the_game(game_of: Played, tmp_path: Path) -> None:
    """The writer is a forked child (a fresh interpreter would take a second to start, 100 times)."""
    games = [game_of("blitzkrieg1940", "hannut", 1, 30), game_of("blitzkrieg1940", "hannut", 1, 150)]
    histories = {g.history for g in games}
    path = tmp_path / "g.planspiel"
    saves.save_game(games[0], path)
    rng = random.Random(2024)
    counts = {"main": 0, "bak": 0}
    for _ in range(100):
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child never returns
            try:
                n = 0
                while True:
                    saves.save_game(games[n % 2], path)
                    n += 1
            finally:
                os._exit(0)
        time.sleep(rng.uniform(0.0, 0.012))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        loaded = saves.load_game(path, verify="snapshot", backup=False)  # the name always holds a whole save
        assert loaded.history in histories
        counts["main"] += 1
        bak = saves.backup_path(path)
        if bak.exists():
            assert saves.load_game(bak, verify="snapshot", backup=False).history in histories
            counts["bak"] += 1
    assert counts["main"] == 100
    leftovers = [p.name for p in tmp_path.iterdir() if p.name not in ("g.planspiel", "g.planspiel.bak")]
    assert all(n.startswith(".g.planspiel.") and n.endswith(".tmp") for n in leftovers)
    print(f"kills mid-write (temporary files left): {len(leftovers)}; backups: {counts['bak']}")
