"""End to end in a real terminal (issue 19, "Done when"): HACSE H-1 "Le Hamel crossroads" for a whole turn, the
German side by keys against ``ai:easy``, in tmux.

The scripted player opens the list of its
decisions (``o``) whenever it is to act and takes the first choice (Enter; a group of choices opens, and Enter
takes its first), and confirms what asks to be confirmed, until the header shows turn 2: every activation of
the turn goes through the table's lists, the other side's through the AI.
"""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

from .test_tmux import PLANSPIEL, TMUX, Terminal, pytestmark  # noqa: F401  (the skip)

CHOOSE = "enter or 1–9: choose"
CONFIRM = "enter or y: confirm"


def test_h1_is_played_for_a_turn_by_keys_against_the_ai(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    command = [str(PLANSPIEL), "new", "hacse", "h1-le-hamel", "--german", "human", "--us", "ai:easy"]
    term = Terminal(home, [*command, "--seed", "3"])
    decisions = 0
    screen = ""
    try:
        screen = term.wait_for("Turn 1/10", timeout=60)
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            screen = term.screen()
            header = screen.splitlines()[0] if screen else ""
            if "Turn 2/10" in header:
                break
            if CHOOSE in screen or CONFIRM in screen:
                term.keys("Enter")
                decisions += 1
            elif "German to act" in header:
                term.keys("o")
            else:
                time.sleep(0.3)  # the AI's activation, or the screen being drawn
                continue
            _changed(term, screen)
        assert "Turn 2/10" in screen.splitlines()[0], f"turn 2 did not start after {decisions} decisions:\n{screen}"
        assert "Traceback" not in screen
        assert decisions >= 5, "the German activations were played by keys"
        log = screen.splitlines()
        assert any("rule 3.2" in line for line in log), "the log cites the sequence of play"
    finally:
        term.kill()
        subprocess.run([TMUX, "-S", str(home / "tmux.sock"), "kill-server"], check=False, capture_output=True)


def _changed(term: Terminal, before: str, timeout: float = 10.0) -> None:
    """Wait until the screen differs from ``before``."""
    deadline = time.monotonic() + timeout
    while term.screen() == before and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(0.2)
