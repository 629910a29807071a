"""Provides crash-safe file writing (temporary file, fsync, rename, fsync the folder, ``.bak``) and bounded reads.

A save is first written to a temporary file in the same folder, flushed to disk, then renamed over the old
file, and the folder itself is synced, so that a crash, a kill or a power cut at any moment leaves either the
old save or the new one, never a mixture. The previous good file is kept beside it as ``<name>.bak``; it is
made with a hard link before the rename, so the save's own name never disappears, not even for an instant.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import shutil
import stat
import time
from collections.abc import Callable
from pathlib import Path

from .errors import SaveError

__all__ = ["STALE_SECONDS", "backup_path", "read_bounded", "read_prefix", "write_atomic"]

STALE_SECONDS = 60.0
"""Temporary files older than this, left by a writer that was killed, are removed by the next write."""


def backup_path(path: Path) -> Path:
    """Where the previous good version of ``path`` is kept: ``<name>.bak`` beside it."""
    return path.with_name(path.name + ".bak")


def _cause(err: OSError, doing: str) -> str:
    code = err.errno
    if code in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)):
        reason = "the disk is full"
    elif code == errno.EROFS:
        reason = "the folder is read-only"
    elif code in (errno.EACCES, errno.EPERM):
        reason = "permission denied"
    else:
        reason = err.strerror or str(err) or type(err).__name__
    return f"cannot {doing}: {reason}"


def _temp_name(target: Path) -> Path:
    return target.with_name(f".{target.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        if n <= 0:  # pragma: no cover - os.write raises rather than returning 0 on a regular file
            raise OSError(errno.EIO, "short write")
        view = view[n:]


def _write_synced(target: Path, data: bytes) -> None:
    """Create ``target`` (it must not exist), write ``data`` and fsync it."""
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666)
    try:
        _write_all(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_dir(folder: Path) -> None:
    """Make a rename in ``folder`` durable (best effort: some filesystems refuse to sync a folder)."""
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)
    with contextlib.suppress(OSError):
        fd = os.open(folder, flags)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _unlink_quietly(path: Path) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)


def _remove_stale(folder: Path, name: str) -> None:
    """Remove temporary files of ``name`` (and of its backup) left behind by a killed writer."""
    now = time.time()
    prefix = f".{name}."
    with contextlib.suppress(OSError), os.scandir(folder) as entries:
        for entry in entries:
            if entry.name.startswith(prefix) and entry.name.endswith(".tmp"):
                with contextlib.suppress(OSError):
                    if now - entry.stat(follow_symlinks=False).st_mtime > STALE_SECONDS:
                        os.unlink(entry.path)


def _keep_backup(path: Path) -> None:
    """Make ``<path>.bak`` the current content of ``path`` without ``path`` ever going missing."""
    bak = backup_path(path)
    tmp = _temp_name(bak)
    try:
        try:
            os.link(path, tmp)
        except OSError:  # no hard links here (some network and FAT filesystems): copy instead
            shutil.copyfile(path, tmp)
            fd = os.open(tmp, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        os.replace(tmp, bak)
    except BaseException:
        _unlink_quietly(tmp)
        raise


def write_atomic(
    path: str | os.PathLike[str],
    data: bytes,
    *,
    backup: bool = True,
    is_good: Callable[[Path], bool] | None = None,
) -> None:
    """Write ``data`` to ``path`` so that a crash at any moment leaves the old file or the new one.

    Args:
        path: the file to write; its folder is created if needed.
        data: the complete new content.
        backup: keep the file being replaced as ``<name>.bak``.
        is_good: when given, the old file becomes the backup only if ``is_good(path)`` is true (so a damaged
            file never replaces a good backup).

    Raises:
        SaveError: the file could not be written (full disk, read-only folder, no permission...). The
            previous file, if any, is left as it was.
    """
    target = Path(path)
    folder = target.parent
    tmp = _temp_name(target)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        _remove_stale(folder, target.name)
        _write_synced(tmp, data)
        if backup and target.is_file() and (is_good is None or is_good(target)):
            _keep_backup(target)
        os.replace(tmp, target)
    except OSError as err:
        _unlink_quietly(tmp)
        raise SaveError(target, _cause(err, "save") + "; the previous save is intact") from None
    except BaseException:
        _unlink_quietly(tmp)
        raise
    _fsync_dir(folder)


def _open_for_reading(target: Path) -> int:
    try:
        return os.open(target, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise SaveError(target, "no such file") from None
    except IsADirectoryError:
        raise SaveError(target, "is a folder, not a save file") from None
    except OSError as err:
        raise SaveError(target, _cause(err, "read the file")) from None


def read_bounded(path: str | os.PathLike[str], limit: int) -> bytes:
    """The whole content of ``path``, refused if it is larger than ``limit`` bytes.

    Raises:
        SaveError: missing, unreadable, not a regular file, or too large.
    """
    target = Path(path)
    fd = _open_for_reading(target)
    try:
        try:
            st = os.fstat(fd)
            _check_regular(target, st.st_mode)
            if st.st_size > limit:
                raise SaveError(target, f"is too large for a save ({st.st_size} bytes; the limit is {limit})")
            chunks: list[bytes] = []
            left = limit + 1
            while left > 0:
                chunk = os.read(fd, min(left, 1 << 20))
                if not chunk:
                    break
                chunks.append(chunk)
                left -= len(chunk)
        except OSError as err:
            raise SaveError(target, _cause(err, "read the file")) from None
        data = b"".join(chunks)
        if len(data) > limit:  # it grew while being read
            raise SaveError(target, f"is too large for a save (more than {limit} bytes)")
        return data
    finally:
        os.close(fd)


def read_prefix(path: str | os.PathLike[str], size: int) -> bytes:
    """At most the first ``size`` bytes of ``path`` (for reading a header without the rest).

    Raises:
        SaveError: missing, unreadable or not a regular file.
    """
    target = Path(path)
    fd = _open_for_reading(target)
    try:
        try:
            _check_regular(target, os.fstat(fd).st_mode)
            chunks: list[bytes] = []
            left = size
            while left > 0:
                chunk = os.read(fd, left)
                if not chunk:
                    break
                chunks.append(chunk)
                left -= len(chunk)
            return b"".join(chunks)
        except OSError as err:
            raise SaveError(target, _cause(err, "read the file")) from None
    finally:
        os.close(fd)


def _check_regular(target: Path, mode: int) -> None:
    if stat.S_ISDIR(mode):
        raise SaveError(target, "is a folder, not a save file")
    if not stat.S_ISREG(mode):
        raise SaveError(target, "is not a regular file")
