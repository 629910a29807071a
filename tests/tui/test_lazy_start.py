"""The start stays lazy (start-up budget, DESIGN §11): the title screen is drawn before the game's modules are
imported. Not timed: each test imports in a new process and looks at ``sys.modules`` (the times are in
``benchmarks/bench_tmux.py``)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys

import pytest

LATER = (
    "engine.rulesets",
    "networkx",
    "engine.game",
    "engine.ai",
    "engine.presentation",
    "saves",
    "msgpack",
    "tui.session",
    "tui.client",
    "tui.overlay",
    "tui.modes",
    "tui.widgets",
    "tui.screens.game",
    "tui.screens.endgame",
    "tui.screens.handoff",
    "tui.screens.resolution",
    "tui.screens.thinking",
    "tui.screens.keys",
    "tui.screens.newgame",
    "tui.screens.load",
    "tui.screens.settings",
)
"""Modules (and packages: with everything under them) that only a game, or a screen other than the title, needs."""


def imported_after(code: str) -> list[str]:
    """Every module in ``sys.modules`` after running ``code`` in a new Python process."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return list(json.loads(out.stdout.splitlines()[-1]))


def too_early(modules: list[str]) -> list[str]:
    return [m for m in modules if any(m == p or m.startswith(f"{p}.") for p in LATER)]


@pytest.mark.parametrize("code", ["import tui.app", "import tui.cli; from tui.app import PlanspielApp, Start, run"])
def test_the_app_imports_no_game_module(code: str) -> None:
    assert too_early(imported_after(code)) == []


def test_import_engine_imports_no_engine_module() -> None:
    modules = imported_after("import engine; engine.__version__")
    assert [m for m in modules if m.startswith("engine.")] == []


def test_engine_names_are_imported_on_first_use() -> None:
    modules = imported_after("import engine; engine.Hex; from engine import PlanspielError")
    assert "engine.hexgrid" in modules and "engine.errors" in modules and "engine.game" not in modules


def test_the_title_screen_imports_no_game_module() -> None:
    """The title screen drawn (headless) up to the look-up of the last save: still nothing of a game."""
    code = (
        "import asyncio, os, sys, tempfile\n"
        "os.environ['PLANSPIEL_HOME'] = tempfile.mkdtemp()\n"
        "import tui.app\n"
        "from tui.settings import Settings\n"
        "seen = []\n"
        "class Probe(tui.app.TitleScreen):\n"
        "    def look_up(self):\n"
        "        seen.append(sorted(sys.modules))\n"
        "        super().look_up()\n"
        "tui.app.TitleScreen = Probe\n"
        "async def main():\n"
        "    app = tui.app.PlanspielApp(settings=Settings(), exit_handlers=False)\n"
        "    async with app.run_test(size=(120, 40)) as pilot:\n"
        "        for _ in range(1000):\n"
        "            if seen and app.screen.looked_up:\n"
        "                break\n"
        "            await pilot.pause(0.01)\n"
        "asyncio.run(main())\n"
        "print(repr(seen[0]))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    before = list(ast.literal_eval(out.stdout.splitlines()[-1]))
    assert "tui.screens.title" in before
    assert too_early(before) == []


def test_a_ruleset_asked_for_by_name_imports_no_other() -> None:
    """Loading a Blitzkrieg save imports Blitzkrieg only; listing the rulesets imports every one."""
    modules = imported_after("import engine; engine.get_ruleset('blitzkrieg1940')")
    assert "engine.rulesets.blitzkrieg1940" in modules
    assert "engine.rulesets.art_of_tactic" not in modules
    modules = imported_after("import engine; engine.ruleset_names()")
    assert "engine.rulesets.art_of_tactic" in modules and "engine.rulesets.blitzkrieg1940" in modules
