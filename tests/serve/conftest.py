"""Fixtures of the server's tests: the table service on its socket, in a thread of its own."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tui.serve.tables import TableService


@pytest.fixture
def tables(tmp_path: Path) -> Iterator[tuple[TableService, str]]:
    """The table service on its socket, in a thread of its own (as in the server's process)."""
    service = TableService(tmp_path)
    path = tmp_path / "t.sock"
    loop = asyncio.new_event_loop()
    ready = threading.Event()
    holder: dict[str, Any] = {}

    def run() -> None:
        asyncio.set_event_loop(loop)
        holder["server"] = loop.run_until_complete(service.start(path))
        ready.set()
        loop.run_forever()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    ready.wait(10)
    yield service, str(path)
    asyncio.run_coroutine_threadsafe(service.stop(), loop).result(10)
    loop.call_soon_threadsafe(loop.stop)
    thread.join(10)
    loop.close()
