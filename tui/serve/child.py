"""Provides a game process on its own pseudo-terminal: started in a new session with the terminal as its
controlling terminal (so that a window change arrives as SIGWINCH), under resource limits, and stopped the way a
dropped connection stops a local game (SIGHUP: the client saves and exits)."""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import resource
import signal
import struct
import subprocess
import termios
from collections.abc import Mapping, Sequence
from pathlib import Path

from .limits import ServeLimits

__all__ = ["Child", "child_env"]


def child_env(home: Path, term: str, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment of a game process: the account's ``PLANSPIEL_HOME``, the client's terminal type, UTF-8;
    never ``COLUMNS``/``LINES`` (the terminal's size must come from the pty, and change with it)."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "PLANSPIEL_HOME": str(home),
        "TERM": term,
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "PYTHONIOENCODING": "utf-8",
    }
    for key in ("PYTHONPATH", "PLANSPIEL_RULESETS", "VIRTUAL_ENV"):
        if key in os.environ:
            env[key] = os.environ[key]
    env.update(extra or {})
    return env


MAX_SIZE = (500, 200)
"""The largest terminal a game draws (columns, rows): a client may claim any size."""


def set_size(fd: int, cols: int, rows: int) -> None:
    """Set a terminal's size, at most :data:`MAX_SIZE` (the kernel signals SIGWINCH to the foreground process
    group of a pty)."""
    cols, rows = max(1, min(cols, MAX_SIZE[0])), max(1, min(rows, MAX_SIZE[1]))
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))


class Child:
    """A command running on a new pseudo-terminal.

    Args:
        argv: the command.
        env: its whole environment.
        size: the terminal's (columns, rows).
        limits: the resource limits applied in the child before it runs.
        cwd: its working folder.
    """

    def __init__(
        self,
        argv: Sequence[str],
        env: Mapping[str, str],
        size: tuple[int, int],
        limits: ServeLimits,
        cwd: Path,
    ) -> None:
        master, slave = pty.openpty()
        set_size(slave, *size)
        os.set_blocking(master, False)
        memory, cpu, files = limits.memory_mb, limits.cpu_seconds, limits.open_files

        def _in_child() -> None:  # after setsid (start_new_session), before exec
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)
            resource.setrlimit(resource.RLIMIT_AS, (memory * 1024 * 1024, memory * 1024 * 1024))
            resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
            resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

        try:
            # preexec_fn (not thread-safe) is the only way to TIOCSCTTY and setrlimit; the server's loop is
            # single-threaded when it starts a game.
            self.process = subprocess.Popen(
                list(argv),
                stdin=slave,
                stdout=slave,
                stderr=slave,
                env=dict(env),
                cwd=cwd,
                start_new_session=True,
                preexec_fn=_in_child,  # noqa: PLW1509
                close_fds=True,
            )
        except BaseException:
            os.close(master)
            raise
        finally:
            os.close(slave)
        self.master = master

    @property
    def pid(self) -> int:
        return self.process.pid

    def resize(self, cols: int, rows: int) -> None:
        """The client's window changed."""
        with contextlib.suppress(OSError):
            set_size(self.master, cols, rows)

    def write(self, data: bytes) -> None:
        """Keys typed by the player (what the pty does not take now is dropped: a stuck game must not stall the
        server)."""
        view = memoryview(data)
        while view:
            try:
                n = os.write(self.master, view)
            except BlockingIOError:
                return
            except OSError:
                return
            view = view[n:]

    def read(self) -> bytes | None:
        """What the game drew since the last read: None when nothing is waiting, b"" when the game has gone
        (Linux reports the closed terminal as EIO)."""
        try:
            return os.read(self.master, 65536)
        except BlockingIOError:
            return None
        except OSError:
            return b""

    def hang_up(self) -> None:
        """Stop the game as a dropped connection does: SIGHUP to its process group (it saves and exits)."""
        self._signal(signal.SIGHUP)

    def kill(self) -> None:
        self._signal(signal.SIGKILL)

    def _signal(self, sig: int) -> None:
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.process.pid, sig)

    def close(self) -> None:
        """Release the terminal (after the process has ended)."""
        with contextlib.suppress(OSError):
            os.close(self.master)
