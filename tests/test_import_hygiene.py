"""The engine and the saves package never import Textual or Rich (DESIGN §1)."""

from __future__ import annotations

import subprocess
import sys


def test_engine_and_saves_import_without_textual() -> None:
    code = (
        "import sys, engine, engine.rulesets, saves\n"
        "import engine.game, engine.los, engine.pathing, engine.scenario\n"
        "engine.ruleset_names()\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich', 'tui'))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_headless_cli_imports_no_textual() -> None:
    code = (
        "import sys\n"
        "from tui import cli\n"
        "cli.main(['list'])\n"
        "print('TEXTUAL' if 'textual' in sys.modules else 'CLEAN')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().endswith("CLEAN")
