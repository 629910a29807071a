"""Provides the messages between the game processes and the server's tables: msgpack maps on a Unix socket.

A request carries ``op`` and ``rid`` (its number); its answer carries the same ``rid`` and either the result's
fields or ``error`` (a sentence). Events from the table carry ``ev`` (``action``, ``seats``, ``presence``) and
``table``, and no ``rid``.
"""

from __future__ import annotations

from typing import Any

import msgpack

__all__ = ["MAX_BUFFER", "pack", "unpacker"]

MAX_BUFFER = 8 * 1024 * 1024
"""The most bytes a message may take (a long game's history is well under this)."""


def pack(message: dict[str, Any]) -> bytes:
    """One message as bytes."""
    return msgpack.packb(message, use_bin_type=True)  # type: ignore[no-any-return]


def unpacker() -> msgpack.Unpacker:
    """A stream reader of messages (feed it bytes, iterate the messages): strings as str, limits on sizes."""
    return msgpack.Unpacker(raw=False, max_buffer_size=MAX_BUFFER, strict_map_key=True)
