"""Provides helpers for the saves tests, the fixture generator and the benchmarks: seeded random playouts
and re-packing a save with edited header or body entries (a valid checksum around chosen content)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import msgpack

import engine
from engine.errors import IllegalActionError
from saves.codec import pack_save

__all__ = ["play_random", "repack", "unpack_raw"]


def play_random(game: engine.Game, seed: int, limit: int | None = None) -> engine.Game:
    """Apply seeded random legal actions until the game ends or ``limit`` actions were applied; returns ``game``.

    Close combat (Blitzkrieg 1940 digest 9) is being written in another issue: until it lands, its placeholder
    refuses every ``assault`` that ``legal_actions`` offers ("close combat is not available yet"). Such an
    action is skipped and another is drawn; any other refusal of a listed action is a bug and is raised.
    """
    rng = random.Random(seed)
    applied = 0
    while game.to_act is not None and (limit is None or applied < limit):
        actions = game.legal_actions()
        while True:
            if not actions:
                raise AssertionError(f"no applicable action at turn {game.state.turn}, {game.state.phase}")
            action = rng.choice(actions)
            try:
                game.apply(action)
                break
            except IllegalActionError as err:
                if action.verb == "assault" and "not available yet" in str(err):
                    actions = [a for a in actions if a != action]
                    continue
                raise
        applied += 1
    return game


def unpack_raw(data: bytes) -> tuple[dict[str, Any], dict[str, Any]]:
    """The raw header (without body size and checksum) and body (without its header copy) of a save."""
    unpacker = msgpack.Unpacker(raw=False, strict_map_key=False)
    unpacker.feed(data)
    header = unpacker.unpack()
    body = msgpack.unpackb(data[unpacker.tell() :], raw=False, strict_map_key=False)
    header = {k: v for k, v in header.items() if k not in ("body_size", "body_sha256")}
    body.pop("header", None)
    return header, body


def repack(
    data: bytes,
    header: Callable[[dict[str, Any]], None] | None = None,
    body: Callable[[dict[str, Any]], None] | None = None,
) -> bytes:
    """The save ``data`` with its header and/or body edited in place by the given functions, re-packed with a
    consistent header copy, size and checksum (so only the edited content can be wrong)."""
    h, b = unpack_raw(data)
    if header is not None:
        header(h)
    if body is not None:
        body(b)
    return pack_save(h, b)
