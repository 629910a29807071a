"""The command line's game entry points: ``planspiel``, ``planspiel new``, ``planspiel load`` (no Textual run)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tui import cli


def test_new_reads_players_for_the_scenarios_sides() -> None:
    args = cli.build_parser().parse_args(
        ["new", "blitzkrieg1940", "hannut", "--german", "human", "--french", "ai:normal"]
    )
    assert args.func is cli._cmd_new
    assert cli._players_from(args.players, ("german", "french")) == ({"german": "human", "french": "ai:normal"}, None)
    assert cli._players_from(["--french=ai:hard", "--seed", "4"], ("german", "french")) == ({"french": "ai:hard"}, 4)
    # The set-up mode rides with the players (Blitzkrieg 12: the scenario's positions or each side's own).
    assert cli._players_from(["--setup", "players"], ("german", "french")) == ({"--setup": "players"}, None)


@pytest.mark.parametrize(
    ("rest", "message"),
    [
        (["--soviet", "human"], "unknown side --soviet"),
        (["--german"], "needs a value"),
        (["--german", "robot"], "unknown player"),
        (["german"], "unexpected 'german'"),
        (["--seed", "x"], "whole number"),
        (["--setup", "random"], "'scenario' or 'players'"),
    ],
)
def test_new_refuses_bad_players(rest: list[str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        cli._players_from(rest, ("german", "french"))


def test_bad_new_and_load_are_sentences_without_textual(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from tui import cli\n"
        "a = cli.main(['new', 'blitzkrieg1940', 'hannut', '--soviet', 'human'])\n"
        f"b = cli.main(['load', {str(tmp_path / 'missing.planspiel')!r}])\n"
        "print(a, b, 'textual' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "2 1 False"
    assert "unknown side --soviet" in out.stderr and "no such file" in out.stderr


def test_no_arguments_opens_the_title_screen() -> None:
    assert cli.build_parser().parse_args([]).func is cli._cmd_play


@pytest.mark.parametrize("command", [["saves", "show"], ["saves", "verify"], ["list"]])
def test_a_reader_that_stops_reading_gets_no_broken_pipe_message(command: list[str]) -> None:
    """Issue 18 item 9: ``planspiel saves show FILE | head`` ended with "Broken pipe". The pipe's reading end is
    closed before the command writes, so that every write fails."""
    fixture = Path(__file__).resolve().parents[1] / "saves" / "fixtures" / "format1_hannut.planspiel"
    argv = [*command, str(fixture)] if command[0] == "saves" else command
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        out = subprocess.run(
            [sys.executable, "-c", f"import sys; from tui import cli; sys.exit(cli.main({argv!r}))"],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
    finally:
        os.close(write_end)
    assert "Broken pipe" not in out.stderr and "Errno" not in out.stderr, out.stderr
    assert out.returncode == 0
