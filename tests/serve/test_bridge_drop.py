"""A dropped connection is told apart from a game that ended however the two directions notice it
(``tui.serve.server._bridge``): when the screen can no longer be sent before the keys' reader sees the end, the game
is still hung up (SIGHUP: it saves and exits), never killed as if it had quit."""

from __future__ import annotations

import asyncio
import os

import pytest

pytest.importorskip("asyncssh")

from tui.serve.server import _bridge


class _Process:
    def __init__(self) -> None:
        self.code: int | None = None

    def poll(self) -> int | None:
        return self.code


class _Child:
    """A game whose screen has something to send (a pipe with bytes in it) and that exits when hung up."""

    def __init__(self) -> None:
        self.master, self._w = os.pipe()
        os.write(self._w, b"screen")
        self.process = _Process()
        self.calls: list[str] = []

    def read(self) -> bytes:
        return os.read(self.master, 4096)

    def hang_up(self) -> None:
        self.calls.append("hang_up")
        self.process.code = 0

    def kill(self) -> None:
        self.calls.append("kill")
        self.process.code = -9

    def close(self) -> None:
        os.close(self.master)
        os.close(self._w)


class _Gone:
    """The SSH side of a connection that has gone: writing fails, and reading never returns (not noticed yet)."""

    class stdout:  # the attribute asyncssh's process has
        @staticmethod
        def write(data: bytes) -> None:
            raise BrokenPipeError("channel closed")

        @staticmethod
        async def drain() -> None:
            return None

    class stdin:
        @staticmethod
        async def read(n: int) -> bytes:
            await asyncio.Event().wait()
            return b""


async def test_a_connection_that_fails_on_the_screen_first_is_dropped_and_the_game_hung_up() -> None:
    child = _Child()
    try:
        status = await asyncio.wait_for(_bridge(_Gone(), child, idle_timeout=60.0), timeout=10)  # type: ignore[arg-type]
    finally:
        child.close()
    assert status == "dropped"
    assert child.calls == ["hang_up"]  # saved and exited, not killed
