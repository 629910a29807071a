"""Listing a saves folder from headers only: newest first, broken files last with their error."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import engine
import saves
from tests.saves.helpers import play_random


def test_list_saves(home: Path, duel_game: engine.Game) -> None:
    folder = saves.saves_dir()
    assert saves.list_saves() == []  # the folder does not exist yet
    saves.save_game(duel_game, folder / "first.planspiel")
    play_random(duel_game, 8, 2)
    saves.save_game(duel_game, folder / "second.planspiel", players={"blue": "ai:random"})
    saves.save_game(duel_game, folder / "second.planspiel", players={"blue": "ai:random"})  # makes a .bak
    (folder / "broken.planspiel").write_bytes(b"not a save")
    (folder / "notes.txt").write_text("ignored")
    (folder / ".hidden.planspiel").write_bytes(b"ignored")
    saves.save_campaign(saves.CampaignSave("c", "Camp", "minirules"), folder / "camp.planspiel")
    entries = saves.list_saves()
    assert [e.path.name for e in entries] == [
        "camp.planspiel",
        "second.planspiel",
        "first.planspiel",
        "broken.planspiel",
    ]
    assert entries[1].header is not None and entries[1].header.players["blue"] == "ai:random"
    assert entries[0].header is not None and entries[0].header.kind == "campaign"
    assert entries[-1].header is None and entries[-1].error is not None
    assert "not a Planspiel save" in str(entries[-1].error)
    assert [(e.path, e.header) for e in saves.list_saves(folder)] == [(e.path, e.header) for e in entries]


def test_list_saves_reads_only_headers(tmp_path: Path, duel_game: engine.Game) -> None:
    path = tmp_path / "g.planspiel"
    saves.save_game(duel_game, path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2] + bytes(len(data) - len(data) // 2))  # the body is ruined
    [entry] = saves.list_saves(tmp_path)
    assert entry.header is not None and entry.header.actions == len(duel_game.history)


def test_list_saves_of_a_file_is_an_error(tmp_path: Path) -> None:
    f = tmp_path / "f"
    f.write_text("x")
    with pytest.raises(saves.SaveError, match="is not a folder"):
        saves.list_saves(f)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every folder")
def test_an_unreadable_folder(tmp_path: Path) -> None:  # pragma: no cover - CI runs as root
    tmp_path.chmod(0)
    try:
        with pytest.raises(saves.SaveError, match="cannot be listed"):
            saves.list_saves(tmp_path)
    finally:
        tmp_path.chmod(0o755)


def test_header_properties(duel_game: engine.Game, tmp_path: Path) -> None:
    header = saves.save_game(duel_game, tmp_path / "g.planspiel")
    assert header.updated_at is not None and header.updated_at.tzinfo is not None
    assert not header.is_over
    assert str(header.sides[0]) == "red (human)"
