"""The layers hold (DESIGN §1) and stay simple: the import contracts are kept, the complexity lint is on."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

LINT_IMPORTS = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"

# The packages left out of the acyclic contract while their cycles are being removed; none may be added.
CYCLES_BEING_FIXED: set[str] = set()

# The paths the ruleset-contract work is restructuring, which skip the complexity rules until it is done.
BEING_RESTRUCTURED = {
    "tui/screens/game.py",
    "tui/screens/tactic.py",
}
COMPLEXITY_RULES = {"C90", "C901", "PLR0912", "PLR0915"}


def _pyproject() -> dict[str, Any]:
    with (ROOT / "pyproject.toml").open("rb") as f:
        return tomllib.load(f)


def _contract(contract_id: str) -> dict[str, Any]:
    contracts = _pyproject()["tool"]["importlinter"]["contracts"]
    found = [c for c in contracts if c.get("id") == contract_id]
    assert len(found) == 1, f"pyproject.toml must configure the import contract {contract_id!r} once"
    return found[0]


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


def test_import_contracts_are_kept() -> None:
    """``lint-imports`` (as ``make lint`` runs it) passes: no layer is crossed and no new cycle appears."""
    out = subprocess.run(
        [sys.executable, "-c", LINT_IMPORTS, "--no-cache", "--no-logo"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "0 broken" in out.stdout


def test_import_contracts_say_what_design_says() -> None:
    engine = _contract("engine-standalone")
    assert engine["type"] == "forbidden"
    assert engine["source_modules"] == ["engine"]
    assert {"tui", "saves", "textual", "rich", "msgpack"} <= set(engine["forbidden_modules"])
    assert not engine.get("allow_indirect_imports", False)
    assert _pyproject()["tool"]["importlinter"]["include_external_packages"] is True

    saves = _contract("saves-below-tui")
    assert saves["type"] == "forbidden"
    assert saves["source_modules"] == ["saves"]
    assert "tui" in saves["forbidden_modules"]

    acyclic = _contract("acyclic")
    assert acyclic["type"] == "acyclic_siblings"
    ancestors = set(acyclic["ancestors"])
    assert {"engine", "saves"} <= ancestors
    assert ancestors & {"tui", "tui.*"}
    skipped = set(acyclic.get("skip_descendants", []))
    new = sorted(skipped - CYCLES_BEING_FIXED)
    assert not new, f"new exceptions to the acyclic contract: {new}"


def test_complexity_lint_is_on() -> None:
    """Ruff checks McCabe complexity (C90, at most 20) and branch and statement counts everywhere but in the code
    being restructured; a test may only be long (PLR0915), never more complex."""
    lint = _pyproject()["tool"]["ruff"]["lint"]
    selected = set(lint["select"])
    assert selected & {"C90", "C901", "C", "ALL"}, "ruff must select C90 (McCabe complexity)"
    assert lint["mccabe"]["max-complexity"] <= 20
    assert selected & {"PL", "PLR", "ALL"}
    assert lint.get("pylint", {}).get("max-branches", 12) <= 20
    assert lint.get("pylint", {}).get("max-statements", 50) <= 50
    assert not set(lint.get("ignore", [])) & COMPLEXITY_RULES, "the complexity rules must not be ignored"
    for path, rules in lint.get("per-file-ignores", {}).items():
        skipped = set(rules) & COMPLEXITY_RULES
        if path in BEING_RESTRUCTURED or not skipped:
            continue
        assert path.startswith("tests/") and skipped == {"PLR0915"}, f"{path} skips {sorted(skipped)}"
