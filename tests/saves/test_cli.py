"""The ``planspiel saves`` subcommands: list, verify, show; errors in one sentence, never a traceback."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import engine
import saves
from tests.saves.helpers import repack
from tui import cli

FIXTURES = Path(__file__).resolve().parent / "fixtures"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def folder(home: Path, duel_game: engine.Game) -> Path:
    """The saves folder with a game save, a campaign save, a damaged save and a tampered one."""
    f = saves.saves_dir()
    saves.save_game(duel_game, f / "duel.planspiel", players={"blue": "ai:random"})
    shutil.copy(FIXTURES / "format1_campaign.planspiel", f / "camp.planspiel")
    (f / "junk.planspiel").write_bytes(b"junk")
    data = (f / "duel.planspiel").read_bytes()
    (f / "tampered.planspiel").write_bytes(repack(data, body=lambda b: b["state"].update(turn=4)))
    return f


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_saves_list(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "saves", "list")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].split() == ["FILE", "RULESET", "SCENARIO", "TURN", "SIDES", "LAST", "PLAYED"]
    duel = next(line for line in lines if line.startswith("duel.planspiel"))
    assert "minirules" in duel and "duel" in duel and "red (human), blue (ai:random)" in duel
    assert any(line.startswith("camp.planspiel") and "test-march: duel" in line for line in lines)
    assert any(
        line.startswith("junk.planspiel") and "cannot be read: is not a Planspiel save" in line for line in lines
    )
    assert lines[-1] == f"4 saves in {folder}"
    assert run(capsys, "saves", "list", str(folder))[1] == out


def test_saves_list_empty_and_missing(home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "saves", "list") == (0, f"No saves in {saves.saves_dir()}.\n", "")
    code, _, err = run(capsys, "saves", "list", str(tmp_path / "nowhere"))
    assert code == 1 and err == f"planspiel: {tmp_path / 'nowhere'}: no such folder\n"


def test_saves_verify(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "saves", "verify", str(folder / "duel.planspiel"), str(folder / "camp.planspiel"))
    assert code == 0
    assert out.splitlines()[0].startswith(f"ok   {folder / 'duel.planspiel'}: 10 actions replay to the saved position")
    assert out.splitlines()[-1] == "2 ok, 0 failed"
    code, out, _ = run(capsys, "saves", "verify", str(folder / "tampered.planspiel"))
    assert code == 1
    assert out.startswith(f"FAIL {folder / 'tampered.planspiel'}: the replayed history differs from the saved position")
    assert "state.turn: saved 4, replayed 2" in out
    code, out, _ = run(capsys, "saves", "verify", str(folder / "junk.planspiel"), str(folder / "none.planspiel"))
    assert code == 1
    assert out.splitlines() == [
        f"FAIL {folder / 'junk.planspiel'}: is not a Planspiel save (no planspiel header at the start)",
        f"FAIL {folder / 'none.planspiel'}: no such file",
        "0 ok, 2 failed",
    ]


def test_saves_show(folder: Path, duel_game: engine.Game, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "saves", "show", str(folder / "duel.planspiel"))
    assert code == 0
    lines = out.splitlines()
    assert lines[1] == "Scenario:    Duel at the crossroads (minirules/duel)"
    assert "Sides:       Red (human), Blue (ai:random)" in lines
    assert f"History:     {len(duel_game.history)} actions" in lines
    assert lines[-len(duel_game.history) :] == [
        f"  {i:>2}. {duel_game.describe(a)}" for i, a in enumerate(duel_game.history, start=1)
    ]
    code, out, _ = run(capsys, "saves", "show", str(folder / "camp.planspiel"))
    assert code == 0 and "Campaign:    Test march (test-march)" in out


def test_saves_errors_are_one_sentence(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "saves", "show", str(folder / "junk.planspiel"))
    assert code == 1 and out == ""
    assert (
        err == f"planspiel: {folder / 'junk.planspiel'}: is not a Planspiel save (no planspiel header at the start)\n"
    )
    with pytest.raises(SystemExit) as info:
        cli.main(["saves"])
    assert info.value.code == 2
    assert "required" in capsys.readouterr().err


def test_the_other_commands_still_work(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "list")
    assert code == 0 and "blitzkrieg1940" in out
    code, out, _ = run(capsys, "validate", "blitzkrieg1940/hannut")
    assert code == 0 and out.startswith("ok")


def test_list_lines_up_the_scenario_titles(capsys: pytest.CaptureFixture[str]) -> None:
    """Ids longer than 12 characters (``o3-panzerkeil``) no longer push their title out of the column."""
    _, out, _ = run(capsys, "list")
    lines = out.splitlines()
    starts = {line.index("O-", 4) for line in lines if line.startswith("    o")}
    assert len(starts) == 1, out
    assert all("  " in line.strip() for line in lines if line.startswith("    "))


def test_saves_commands_in_a_subprocess(folder: Path) -> None:
    """The installed entry point end to end, and no Textual imported by the headless commands."""
    code = (
        "import sys\n"
        "from tui import cli\n"
        "rc = cli.main(sys.argv[1:])\n"
        "print('TEXTUAL' if 'textual' in sys.modules else 'CLEAN')\n"
        "sys.exit(rc)\n"
    )
    env = {**os.environ, "PLANSPIEL_HOME": str(folder.parent), "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", code, "saves", "list"], check=False, capture_output=True, text=True, env=env, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    assert "duel.planspiel" in done.stdout and done.stdout.strip().endswith("CLEAN")
    done = subprocess.run(
        [sys.executable, "-m", "tui.cli", "saves", "show", str(folder / "junk.planspiel")],
        check=False, capture_output=True, text=True, env=env, cwd=ROOT, timeout=60,
    )  # fmt: skip
    assert done.returncode == 1
    assert done.stderr.startswith("planspiel: ") and "Traceback" not in done.stderr
