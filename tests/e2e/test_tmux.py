"""End to end in a real terminal: ``planspiel`` in tmux, played with send-keys, killed, continued.

Starts Hannut hot-seat straight in, plays the chits and a move by keyboard, kills the tmux session (the game
gets SIGHUP, as on a dropped SSH connection), starts ``planspiel`` again, chooses Continue on the title screen,
and finds the same position (the French reaction window after the half-track's move) with ``capture-pane``.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

import saves

TMUX = shutil.which("tmux") or "/usr/bin/tmux"
PLANSPIEL = Path(sys.executable).with_name("planspiel")

pytestmark = pytest.mark.skipif(
    not (Path(TMUX).exists() and PLANSPIEL.exists()), reason="needs tmux and the planspiel entry point"
)


class Terminal:
    """One detached tmux session running a command."""

    def __init__(self, home: Path, command: list[str], size: tuple[int, int] = (120, 40)) -> None:
        self.name = f"planspiel-e2e-{uuid.uuid4().hex[:8]}"
        self.socket = str(home / "tmux.sock")
        env = {**os.environ, "PLANSPIEL_HOME": str(home), "TERM": "xterm-256color"}
        env.pop("NO_COLOR", None)
        # Textual sizes itself from COLUMNS/LINES when they are set (pytest-xdist workers may have them):
        # the tmux window's size must win.
        env.pop("COLUMNS", None)
        env.pop("LINES", None)
        shell = " ".join(command)
        subprocess.run(
            [
                *(TMUX, "-S", self.socket, "new-session", "-d", "-s", self.name),
                *("-x", str(size[0]), "-y", str(size[1])),
                f"PLANSPIEL_HOME={home} {shell}",
            ],
            check=True,
            env=env,
        )

    def screen(self) -> str:
        """The text on the terminal now."""
        out = subprocess.run(
            [TMUX, "-S", self.socket, "capture-pane", "-p", "-t", self.name],
            capture_output=True,
            text=True,
            check=False,
        )
        return out.stdout

    def wait_for(self, text: str, timeout: float = 60.0) -> str:
        """Wait until ``text`` shows; returns the screen."""
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.2)
        raise AssertionError(f"{text!r} did not show within {timeout} s; the screen:\n{screen}")

    def keys(self, *keys: str) -> None:
        """Type keys (tmux key names: Enter, Escape, or characters)."""
        for key in keys:
            subprocess.run([TMUX, "-S", self.socket, "send-keys", "-t", self.name, key], check=True)
            time.sleep(0.15)

    def alive(self) -> bool:
        """True while the session exists."""
        cmd = [TMUX, "-S", self.socket, "has-session", "-t", self.name]
        return subprocess.run(cmd, check=False, capture_output=True).returncode == 0

    def kill(self) -> None:
        """Kill the session: the program gets SIGHUP, as when an SSH connection drops."""
        subprocess.run([TMUX, "-S", self.socket, "kill-session", "-t", self.name], check=False)


@pytest.fixture
def home(tmp_path: Path) -> Iterator[Path]:
    home = tmp_path / "home"
    home.mkdir()
    yield home
    subprocess.run([TMUX, "-S", str(home / "tmux.sock"), "kill-server"], check=False, capture_output=True)


def _hannut_half_track(home: Path, settings: dict[str, str], french: str = "human") -> Terminal:
    """Hannut (seed 7, the French played by ``french``) with ``settings``: German keeps I/12 SchR, resolves it
    first, activates it and selects its half-track, by keyboard (three decisions); the terminal is returned at
    that point."""
    (home / "config").mkdir()
    (home / "config" / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    term = Terminal(
        home,
        [str(PLANSPIEL), "new", "blitzkrieg1940", "hannut", "--german", "human", "--french", french, "--seed", "7"],
    )
    term.wait_for("keep out of the cup")
    term.keys("1")  # keep I/12 SchR (2.8)
    term.wait_for("which kept chit to resolve next")
    term.keys("3")  # resolve it first
    term.wait_for("what to do with I/12 SchR")
    term.keys("1")  # activate
    term.wait_for("German activates I/12 SchR")
    term.keys("n")  # select the next unit: the half-track
    term.wait_for("ger-i12schr-apc")
    return term


def test_play_kill_continue(home: Path) -> None:
    # Blitzkrieg hides nothing, so the default ("hidden") would skip the hand-off: ask for it every time; and the
    # French standing reaction orders ask in every window (the default lets a window without a worthwhile
    # reaction pass by itself).
    term = _hannut_half_track(home, {"handoff": "always", "reactions": "ask"})
    try:
        term.keys("q")  # cursor north-west
        time.sleep(1.0)  # let the map take the cursor move before Enter, also on a busy machine
        term.keys("Enter")  # act there: the mounted pair may move or move and fire (12.1), so the choice is asked
        term.wait_for("1. move ger-i12schr-apc 1507")
        term.keys("1")  # move
        screen = term.wait_for("French player: press Enter")
        assert "ger-" not in screen  # the hand-off screen hides the table
    finally:
        term.kill()
    deadline = time.monotonic() + 10
    while term.alive() and time.monotonic() < deadline:
        time.sleep(0.2)

    again = Terminal(home, [str(PLANSPIEL)])
    try:
        again.wait_for("Continue — Hannut")
        again.keys("c")
        screen = again.wait_for("1. close")  # the reaction window is offered again, "no reaction" first
        assert "French may react to the move of I/12 SchR SdKfz 251" in screen and "opp " in screen
        again.keys("m")  # look at the map: the half-track stands in 1507, the log tells the story (by name)
        again.wait_for("I/12 SchR SdKfz 251 enters 1507")
        screen = again.wait_for("French to act")  # the status bar (a busy machine may paint it later)
        assert "I/12 SchR SdKfz 251 enters 1507" in screen
    finally:
        again.kill()


def _program_pid(term: Terminal) -> int:
    out = subprocess.run(
        [TMUX, "-S", term.socket, "list-panes", "-t", term.name, "-F", "#{pane_pid}"],
        capture_output=True,
        text=True,
        check=True,
    )
    pid = int(out.stdout.split()[0])
    ps = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True, check=False)
    children = ps.stdout.split()
    return int(children[0]) if children else pid


def test_sigterm_saves_and_exits(home: Path) -> None:
    rc = home / "rc.txt"
    command = [str(PLANSPIEL), "new", "blitzkrieg1940", "hannut", "--seed", "7", ";", "echo", f"$? > {rc}"]
    term = Terminal(home, command)
    try:
        term.wait_for("keep out of the cup")
        term.keys("1")
        term.wait_for("which kept chit to resolve next")
        os.kill(_program_pid(term), signal.SIGTERM)
        deadline = time.monotonic() + 2.5  # well before the 3 s fallback exit
        while not rc.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert rc.exists(), "planspiel did not exit on SIGTERM"
        assert rc.read_text().strip() == "143"  # 128 + SIGTERM
    finally:
        term.kill()
    files = [p for p in (home / "saves" / "autosave").glob("*.planspiel") if ".turn" not in p.name]
    assert len(files) == 1
    assert saves.read_header(files[0]).actions == 4  # the set-up steps played for the players (12.1) and a keep


def test_art_of_tactic_order_commit_and_hand_off(home: Path) -> None:
    """Art of Tactic hot-seat in a real terminal: Enter on the first German unit opens its orders, 1 gives
    Hold, z shows the orders to commit, Enter commits, and the hand-off screen hides the German orders."""
    term = Terminal(
        home,
        [str(PLANSPIEL), "new", "art_of_tactic", "p1-grenzgefecht", "--german", "human", "--soviet", "human"],
    )
    try:
        term.wait_for("German plans in secret")
        time.sleep(1.0)  # the cursor stands on the first German unit once the table is painted
        term.keys("Enter")
        screen = term.wait_for("Order for ")  # the unit under the cursor, by name (issue 18 item 6)
        assert "Hold" in screen and "Take the order back" not in screen
        term.keys("1")
        term.wait_for("1 order(s) given")
        term.keys("z")
        screen = term.wait_for("Commit the German orders?")
        assert "hold ger-1-hq" in screen
        term.keys("Enter")
        screen = term.wait_for("Soviet player: press Enter")
        assert "ger-" not in screen and "hold" not in screen
        term.keys("Enter")
        screen = term.wait_for("german has given its orders")
        assert "hold ger-1-hq" not in screen and "hold HQ #1" not in screen
    finally:
        term.kill()


def test_move_by_destination_and_the_legend(home: Path) -> None:
    """Issue 18 items 2 and 4 in a real terminal: Enter on a hex two steps away moves the half-track there, one
    legal step after the other (the French never react: their standing orders); l shows the legend."""
    term = _hannut_half_track(home, {"handoff": "never", "reactions": "never"})
    try:
        term.keys("q", "q")  # two hexes north-west: 1507, then 1406
        time.sleep(1.0)
        term.keys("Enter")  # the kind of move is asked once (move, or move and fire: 12.1)
        term.wait_for("which move?")
        term.keys("1")
        screen = term.wait_for("I/12 SchR SdKfz 251 enters 1406")  # the log names the unit (issue 18 item 6)
        assert "I/12 SchR SdKfz 251 enters 1507" in screen, "one step after the other"
        term.keys("l")
        legend = term.wait_for("Legend: what the map shows")
        assert "first letter of a counter" in legend
    finally:
        term.kill()
