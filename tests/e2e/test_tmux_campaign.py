"""End to end in a real terminal: a campaign started with ``planspiel campaign new`` opens battle 1, is quit and
continued from the title screen, battle 1 ends, and after another restart Continue is between the battles with
the same roster.

Battle 1 (Hannut) is finished quickly: between two runs of the program its saved battle is played to its end by
seeded random moves for both sides (as a long game at the keyboard would end it), then the game client does the
rest: Continue loads the finished battle, the carry-over is applied and saved, the between-battles screen shows.
"""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import saves
from tests.saves.helpers import play_random

from .test_tmux import PLANSPIEL, Terminal, home  # noqa: F401 - the fixture

__all__: list[str] = []


def _stop(term: Terminal) -> None:
    term.kill()
    deadline = time.monotonic() + 10
    while term.alive() and time.monotonic() < deadline:
        time.sleep(0.2)
    socket = Path(term.socket)
    while socket.exists() and time.monotonic() < deadline:  # the tmux server leaves with its last session
        time.sleep(0.2)


def _terminal(folder: Path, command: list[str]) -> Terminal:
    """A new terminal; a tmux server still shutting down on a busy machine may refuse it once: try again."""
    for attempt in range(3):
        try:
            return Terminal(folder, command)
        except subprocess.CalledProcessError:
            if attempt == 2:
                raise
            time.sleep(1.0)
    raise AssertionError("unreachable")


def _continue_between_battles(home: Path) -> None:  # noqa: F811 - not the fixture
    """Run the program again: Continue (named as between battles) opens the between-battles screen."""
    fourth = _terminal(home, [str(PLANSPIEL)])
    try:
        fourth.wait_for("Continue — Mai 1940, between battles")
        fourth.keys("c")
        fourth.wait_for("Replacement points left")
        fourth.wait_for("before battle 2 of 2")
    finally:
        _stop(fourth)


def test_campaign_start_finish_battle_continue_between_battles(home: Path) -> None:  # noqa: F811
    path = home / "saves" / "mai.planspiel"
    command = [str(PLANSPIEL), "campaign", "new", "blitzkrieg1940", "mai-1940", "--out", str(path)]
    term = _terminal(home, [*command, "--german", "human", "--french", "human", "--seed", "7"])
    try:
        term.wait_for("keep out of the cup")  # battle 1 on the table, straight from the command
        term.keys("1")  # keep a chit: an action of battle 1, saved inside the campaign save
        term.wait_for("which kept chit to resolve next")
    finally:
        _stop(term)
    c = saves.load_campaign(path, verify="snapshot")
    assert c.battle is not None and c.battle.scenario.id == "hannut" and len(c.battle.history) >= 1

    again = _terminal(home, [str(PLANSPIEL)])
    try:
        again.wait_for("Continue — Mai 1940: Hannut")
        again.keys("c")
        again.wait_for("which kept chit to resolve next")  # mid-battle, exactly where it stopped
    finally:
        _stop(again)

    # Battle 1 is played to its end (both sides at random), and the campaign saved with it.
    c = saves.load_campaign(path, verify="snapshot")
    assert c.battle is not None
    play_random(c.battle, 7)
    assert c.battle.outcome is not None
    saves.save_campaign(c, path)

    third = _terminal(home, [str(PLANSPIEL)])
    try:
        third.wait_for("Continue — Mai 1940")
        third.keys("c")
        third.wait_for("Replacement points left")  # the battle's end: carry-over applied, between battles
        screen = third.wait_for("before battle 2 of 2")
        assert "What carries over" in screen or "Your force" in screen
    finally:
        _stop(third)
    between = saves.load_campaign(path, verify="snapshot")
    assert between.battle is None and between.data["battle"] == "stonne" and len(between.results) == 1
    roster = {uid: u.to_dict() for uid, u in between.roster.items()}

    _continue_between_battles(home)
    after = saves.load_campaign(path, verify="snapshot")
    assert {uid: u.to_dict() for uid, u in after.roster.items()} == roster  # the same roster
    assert after.battle is None and after.data["battle"] == "stonne"
