"""Atomic writes: the previous save survives a full disk, a read-only folder or any failure mid-write; the
previous good file is kept as ``.bak``; no temporary file is left behind."""

from __future__ import annotations

import errno
import os
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import engine
import saves
from saves import fileio
from tests.saves.helpers import play_random


def files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_write_keeps_the_previous_file_as_bak(tmp_path: Path) -> None:
    path = tmp_path / "a.planspiel"
    saves.write_atomic(path, b"one")
    assert files(tmp_path) == ["a.planspiel"]
    saves.write_atomic(path, b"two")
    saves.write_atomic(path, b"three")
    assert path.read_bytes() == b"three"
    assert saves.backup_path(path).read_bytes() == b"two"
    assert files(tmp_path) == ["a.planspiel", "a.planspiel.bak"]
    saves.write_atomic(path, b"four", backup=False)
    assert saves.backup_path(path).read_bytes() == b"two"


def test_write_creates_missing_folders(tmp_path: Path) -> None:
    path = tmp_path / "x" / "y" / "a.planspiel"
    saves.write_atomic(path, b"data")
    assert path.read_bytes() == b"data"


def test_backup_by_copy_where_hard_links_fail(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_link(*args: Any, **kwargs: Any) -> None:
        raise OSError(errno.EPERM, "Operation not permitted")

    path = tmp_path / "a.planspiel"
    saves.write_atomic(path, b"one")
    monkeypatch.setattr(os, "link", no_link)
    saves.write_atomic(path, b"two")
    assert path.read_bytes() == b"two" and saves.backup_path(path).read_bytes() == b"one"
    assert files(tmp_path) == ["a.planspiel", "a.planspiel.bak"]


def failing(code: int, name: str, real: Any, when: Any = lambda *a, **k: True) -> Any:
    def fake(*args: Any, **kwargs: Any) -> Any:
        if when(*args, **kwargs):
            raise OSError(code, os.strerror(code))
        return real(*args, **kwargs)

    fake.__name__ = name
    return fake


@pytest.mark.parametrize(
    ("target", "code", "message"),
    [
        ("write", errno.ENOSPC, "the disk is full"),
        ("fsync", errno.ENOSPC, "the disk is full"),
        ("fsync", errno.EIO, "Input/output error"),
        ("open", errno.EROFS, "the folder is read-only"),
        ("open", errno.EACCES, "permission denied"),
        ("replace", errno.EXDEV, "Invalid cross-device link"),
    ],
)
def test_failures_leave_the_previous_save_intact(
    duel_game: engine.Game, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, target: str, code: int, message: str
) -> None:
    path = tmp_path / "g.planspiel"
    saves.save_game(duel_game, path)
    saves.save_game(duel_game, path)
    before = (path.read_bytes(), saves.backup_path(path).read_bytes())
    play_random(duel_game, 1, 2)
    real = getattr(os, target)
    only_creating = (lambda p, flags, *a, **k: bool(flags & os.O_CREAT)) if target == "open" else (lambda *a, **k: True)
    monkeypatch.setattr(os, target, failing(code, target, real, only_creating))
    with pytest.raises(saves.SaveError) as info:
        saves.save_game(duel_game, path)
    monkeypatch.undo()
    assert str(info.value) == f"{path}: cannot save: {message}; the previous save is intact"
    assert (path.read_bytes(), saves.backup_path(path).read_bytes()) == before
    assert files(tmp_path) == ["g.planspiel", "g.planspiel.bak"]  # no temporary file left
    saves.load_game(path, backup=False)


def test_a_failing_backup_leaves_everything_intact(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "a.planspiel"
    saves.write_atomic(path, b"one")
    saves.write_atomic(path, b"two")
    monkeypatch.setattr(os, "link", failing(errno.ENOSPC, "link", os.link))
    monkeypatch.setattr(fileio.shutil, "copyfile", failing(errno.ENOSPC, "copyfile", fileio.shutil.copyfile))
    with pytest.raises(saves.SaveError, match="disk is full"):
        saves.write_atomic(path, b"three")
    assert path.read_bytes() == b"two" and saves.backup_path(path).read_bytes() == b"one"
    assert files(tmp_path) == ["a.planspiel", "a.planspiel.bak"]


def test_an_interrupt_mid_write_removes_the_temporary_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "a.planspiel"
    saves.write_atomic(path, b"one")

    def interrupted(fd: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        saves.write_atomic(path, b"two")
    assert files(tmp_path) == ["a.planspiel"] and path.read_bytes() == b"one"


def test_a_folder_that_refuses_fsync_is_fine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = os.fsync

    def fsync(fd: int) -> None:
        if os.path.isdir(f"/proc/self/fd/{fd}"):
            raise OSError(errno.EINVAL, "Invalid argument")
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    saves.write_atomic(tmp_path / "a.planspiel", b"one")
    assert (tmp_path / "a.planspiel").read_bytes() == b"one"


def test_stale_temporary_files_are_removed(tmp_path: Path) -> None:
    path = tmp_path / "a.planspiel"
    stale = tmp_path / ".a.planspiel.123.deadbeef.tmp"
    fresh = tmp_path / ".a.planspiel.456.cafebabe.tmp"
    other = tmp_path / ".b.planspiel.1.2.tmp"
    for p in (stale, fresh, other):
        p.write_bytes(b"half a save")
    old = time.time() - fileio.STALE_SECONDS - 10
    os.utime(stale, (old, old))
    os.utime(other, (old, old))
    saves.write_atomic(path, b"data")
    assert not stale.exists()
    assert fresh.exists() and other.exists()  # maybe another writer's; another save's


def test_the_saves_folder_follows_planspiel_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PLANSPIEL_HOME", str(tmp_path))
    assert saves.saves_dir() == tmp_path / "saves"
    assert saves.autosave_dir() == tmp_path / "saves" / "autosave"


@pytest.mark.skipif(sys.platform != "linux", reason="XDG folders are a Linux convention")
def test_the_saves_folder_is_in_the_user_data_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("PLANSPIEL_HOME", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert saves.saves_dir() == tmp_path / "xdg" / "planspiel" / "saves"
