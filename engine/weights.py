"""Provides :func:`read_weights`: a ruleset data file's table of named numbers (the AI's weights, ``data/ai.toml``),
read and checked the same way by every ruleset."""

from __future__ import annotations

import tomllib
from pathlib import Path

__all__ = ["read_weights"]


def read_weights(path: Path, error: type[Exception], table: str = "ai") -> dict[str, float]:
    """The numbers of the ``[table]`` table of ``path``, as floats.

    Raises:
        error: the file cannot be read, has no such table, or a value is not a number (the message names the file
            and the key).
    """
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise error(f"{path.name}: cannot read it: {exc}") from exc
    found = raw.get(table)
    if not isinstance(found, dict):
        raise error(f"{path.name}: expected an [{table}] table of weights")
    out: dict[str, float] = {}
    for k, v in found.items():
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise error(f"{path.name}: {table}.{k}: expected a number, got {v!r}")
        out[k] = float(v)
    return out
