"""Benchmarks start-up as a player sees it (DESIGN §11): the real ``planspiel`` program in a new process, in tmux.

A private tmux server (its own socket, no configuration file) holds one idle 160×48 window. For each start the
clock starts, ``tmux respawn-window -k`` runs the command in that window (a new process, as a player typing it at
a shell prompt would start it), and ``tmux capture-pane`` is polled every few milliseconds until the screen shows
what the player waits for:

- ``planspiel``: the title screen's menu (``New game`` and ``Load a saved game``) under the banner;
- ``planspiel load FILE`` of a finished Hannut game (a seeded random playout, as ``bench_tui.load_seconds``):
  the end-of-game screen (a finished game opens there; its keys work), then ``m`` (back to the map) and the
  background replay check's result in the map screen's log (``save checked``, or the warning of a mismatch).

The figures include tmux's own work (the respawn, the pane's redraw, one ``capture-pane`` every 5 ms), as the
player's wait does. The starts keep Python's compiled modules (``__pycache__``) as a player's do, after one
start of each that is not counted. Median of ``RUNS`` starts each (``PLANSPIEL_BENCH_RUNS`` overrides); the
saves folder of the runs is a temporary ``PLANSPIEL_HOME`` holding the finished game (the title screen's
Continue names it).

Run with ``.venv/bin/python benchmarks/bench_tmux.py`` (prints a Markdown table) or as part of ``make bench``
(skipped when tmux is not installed).
"""

from __future__ import annotations

import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

SIZE = (160, 48)
RUNS = int(os.environ.get("PLANSPIEL_BENCH_RUNS", "7"))
POLL = 0.005
TIMEOUT = 30.0
PLANSPIEL = str(Path(sys.executable).with_name("planspiel"))


@dataclass
class Tmux:
    """A private tmux server with one idle window of the benchmark's size."""

    socket: str

    def __call__(self, *args: str, check: bool = True) -> str:
        out = subprocess.run(
            ["tmux", "-L", self.socket, "-f", "/dev/null", *args], capture_output=True, text=True, check=check
        )
        return out.stdout

    def screen(self) -> str:
        return self("capture-pane", "-p", "-t", "bench", check=False)


@contextmanager
def tmux_server() -> Iterator[Tmux]:
    tmux = Tmux(f"planspiel-bench-{os.getpid()}")
    w, h = SIZE
    tmux("new-session", "-d", "-s", "bench", "-x", str(w), "-y", str(h), "sleep 100000")
    tmux("set-option", "-t", "bench", "remain-on-exit", "on")
    socket = Path(tmux("display-message", "-p", "#{socket_path}").strip())
    try:
        yield tmux
    finally:
        tmux("kill-server", check=False)
        socket.unlink(missing_ok=True)


Stage = Callable[[str], bool] | str
"""A test of the captured screen, or keys to send (``tmux send-keys``) before the next test."""


def start(tmux: Tmux, command: str, *stages: Stage) -> list[float]:
    """Run ``command`` in the benchmark window; seconds from the start until each stage's test holds for the
    captured screen (in order; a string stage sends its keys). Raises ``TimeoutError`` with the last screen if a
    stage never comes."""
    tmux("respawn-window", "-k", "-t", "bench", "sleep 100000")  # a blank window, the previous run ended
    time.sleep(0.3)
    t0 = time.perf_counter()
    tmux("respawn-window", "-k", "-t", "bench", command)
    seconds: list[float] = []
    screen = ""
    for stage in stages:
        if isinstance(stage, str):
            tmux("send-keys", "-t", "bench", stage)
            continue
        while True:
            screen = tmux.screen()
            now = time.perf_counter() - t0
            if stage(screen):
                seconds.append(now)
                break
            if now > TIMEOUT:
                raise TimeoutError(f"{command!r}: stage {len(seconds) + 1} not seen after {TIMEOUT} s:\n{screen}")
            time.sleep(POLL)
    tmux("respawn-window", "-k", "-t", "bench", "sleep 100000")  # ends the game (it autosaves on SIGHUP)
    return seconds


def title_drawn(screen: str) -> bool:
    """The title screen's menu is on screen."""
    return "New game" in screen and "Load a saved game" in screen and "|_|" in screen


def end_drawn(screen: str) -> bool:
    """The end-of-game screen of a finished game is on screen (with its keys: the map, a new game...)."""
    return "game over" in screen and "Look at the map" in screen


def check_shown(screen: str) -> bool:
    """The map screen shows the background replay check's result (in its log, or the warning of a mismatch)."""
    return "save checked" in screen or "replay differs" in screen


def finished_hannut(home: Path) -> tuple[Path, int]:
    """A finished Hannut game (seeded random playout, seed 4) saved under ``home``; its path and length."""
    root = str(Path(__file__).resolve().parents[1])
    if root not in sys.path:  # run as a script: the tests package lives at the repository root
        sys.path.insert(0, root)
    import engine  # noqa: PLC0415
    import saves  # noqa: PLC0415
    from tests.saves.helpers import play_random  # noqa: PLC0415

    game = play_random(engine.new_game(engine.load_scenario("blitzkrieg1940", "hannut"), seed=4), 4)
    path = home / "saves" / "hannut-finished.planspiel"
    path.parent.mkdir(parents=True, exist_ok=True)
    saves.save_game(game, path, players={"german": "human", "french": "human"})
    return path, len(game.history)


@dataclass(frozen=True)
class Figures:
    """All runs of the tmux starts of one program."""

    title: list[float]
    load_shown: list[float]
    load_checked: list[float]
    actions: int
    load_avg: str


def program(tree: str | None) -> str:
    """The command that starts ``planspiel``: the installed entry point, or the sources of another checkout
    ``tree`` (e.g. a worktree of an older commit) with this venv's packages (``python -S``: the editable install of
    this checkout is not seen; run from ``/`` so that the current folder is not on the path either)."""
    if tree is None:
        return shlex.quote(PLANSPIEL)
    site = next(p for p in sys.path if p.endswith("site-packages"))
    code = "import sys; from tui.cli import main; sys.exit(main())"
    return f"PYTHONPATH={shlex.quote(f'{tree}:{site}')} {shlex.quote(sys.executable)} -S -c {shlex.quote(code)}"


def measure(runs: int = RUNS, trees: tuple[str | None, ...] = (None,)) -> dict[str | None, Figures]:
    """``planspiel`` to the title screen and ``planspiel load FILE`` to its screen, ``runs`` starts each, for
    each program of :func:`program` (interleaved, so that a busy moment of the machine touches all alike)."""
    out: dict[str | None, tuple[list[float], list[float], list[float]]] = {t: ([], [], []) for t in trees}
    with tempfile.TemporaryDirectory() as tmp, tmux_server() as tmux:
        home = Path(tmp)
        path, actions = finished_hannut(home)
        # A player's Python keeps the compiled modules (__pycache__) from the first start on: so do these starts,
        # whatever the environment of the benchmark says, and one start of each before the timed ones writes them.
        env = f"cd / && env -u PYTHONDONTWRITEBYTECODE PLANSPIEL_HOME={shlex.quote(str(home))} "
        for tree in trees:
            start(tmux, f"{env}{program(tree)}", title_drawn)
            start(tmux, f"{env}{program(tree)} load {shlex.quote(str(path))}", end_drawn, "m", check_shown)
        for _ in range(runs):
            for tree in trees:
                title, shown, checked = out[tree]
                (t,) = start(tmux, f"{env}{program(tree)}", title_drawn)
                title.append(t)
                load = f"{env}{program(tree)} load {shlex.quote(str(path))}"
                a, b = start(tmux, load, end_drawn, "m", check_shown)
                shown.append(a)
                checked.append(b)
                time.sleep(0.2)
    avg = " ".join(f"{x:.2f}" for x in os.getloadavg())
    return {t: Figures(*out[t], actions, avg) for t in trees}


def _ms(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} s (runs: {', '.join(f'{v:.2f}' for v in sorted(values))})"


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_start_in_tmux() -> None:
    """The figures, printed (no timed assertion: the budgets are checked by reading them)."""
    f = measure(runs=max(5, RUNS))[None]
    print(f"\ntitle: {_ms(f.title)}\nload: {_ms(f.load_shown)}, checked {_ms(f.load_checked)}")
    assert len(f.title) == len(f.load_shown) == max(5, RUNS)


def main() -> None:
    """Print the figures as a Markdown table: this checkout, and each tree named on the command line
    (``bench_tmux.py /path/to/a/worktree ...``: before and after in one sitting)."""
    trees: tuple[str | None, ...] = (None, *sys.argv[1:])
    figures = measure(trees=trees)
    f = figures[None]
    print(f"load average after the runs: {f.load_avg}; {RUNS} starts each, in tmux {SIZE[0]}×{SIZE[1]}\n")
    print("| what (new process, in tmux) | program | median | DESIGN §11 budget |")
    print("|---|---|---|---|")
    for tree, f in figures.items():
        name = "this checkout" if tree is None else f"`{tree}`"
        print(f"| `planspiel` to the title screen drawn | {name} | {_ms(f.title)} | ≤ 0.5 s |")
    for tree, f in figures.items():
        name = "this checkout" if tree is None else f"`{tree}`"
        load = f"`planspiel load FILE` (Hannut, {f.actions} actions, finished) to its screen"
        print(f"| {load} | {name} | {_ms(f.load_shown)} | ≤ 0.8 s |")
    for tree, f in figures.items():
        name = "this checkout" if tree is None else f"`{tree}`"
        print(f"| … then `m`: the replay check's result on the map screen | {name} | {_ms(f.load_checked)} | — |")


if __name__ == "__main__":
    main()
