"""Provides :func:`read_weights`: a ruleset data file's table of named numbers (the AI's weights, ``data/ai.toml``),
read and checked the same way by every ruleset; and a scenario's ``[ai.<side>]`` tables on top of them
(:func:`check_overrides`, :func:`merged`), as the rulesets that let a scenario set its AI's weights read them."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path

__all__ = ["check_overrides", "merged", "read_weights"]


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


def check_overrides(table: object, sides: tuple[str, ...], known: Mapping[str, float]) -> list[tuple[str, str]]:
    """Problems (where, message) of a scenario's ``[ai.<side>]`` tables of weights (not rules: how the AI plays one
    side of that scenario, the way a Wesnoth scenario sets its AI's aggression); ``known``: the ruleset's weights."""
    if not isinstance(table, dict):
        return [("ai", "expected [ai.<side>] tables of AI weights (names as in data/ai.toml)")]
    out: list[tuple[str, str]] = []
    for side, over in table.items():
        if side not in sides:
            out.append((f"ai.{side}", f"unknown side {side!r} (expected one of {', '.join(sides)})"))
            continue
        if not isinstance(over, dict):
            out.append((f"ai.{side}", "expected a table of weight = number"))
            continue
        for k, v in over.items():
            if k not in known:
                out.append((f"ai.{side}.{k}", f"unknown AI weight {k!r} (see data/ai.toml)"))
            elif isinstance(v, bool) or not isinstance(v, (int, float)):
                out.append((f"ai.{side}.{k}", f"expected a number, got {v!r}"))
    return out


def merged(base: Mapping[str, float], over: Mapping[str, float] | None) -> Mapping[str, float]:
    """``base`` with a side's ``[ai.<side>]`` values on top (``base`` itself when there are none); each mix is made
    once and kept with its ``base``."""
    if not over:
        return base
    key = (id(base), tuple(sorted((str(k), float(v)) for k, v in over.items())))
    got = _MERGED.get(key)
    if got is None or got[0] is not base:
        if len(_MERGED) >= 256:
            _MERGED.clear()
        got = _MERGED[key] = (base, {**base, **dict(key[1])})
    return got[1]


_MERGED: dict[tuple[int, tuple[tuple[str, float], ...]], tuple[Mapping[str, float], Mapping[str, float]]] = {}
