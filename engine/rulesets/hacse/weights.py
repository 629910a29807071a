"""Provides the AI's weights (``data/ai.toml``; not rules) and a scenario's ``[ai.<side>]`` values on top of them.

A scenario may set some weights for one side, as Art of Tactic's scenarios do (and a Wesnoth scenario sets its AI's
aggression): ``planspiel validate`` checks the table (:func:`check_overrides`) and the game keeps it in its data as
``ai`` (public, like the scenario file).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from engine.state import GameState
from engine.weights import read_weights

from .data import DATA_DIR, DataError
from .model import data

__all__ = ["check_overrides", "side_weights", "weights"]


@cache
def weights() -> Mapping[str, float]:
    """The weights of ``data/ai.toml`` (checked: an ``[ai]`` table, every value a number)."""
    return read_weights(DATA_DIR / "ai.toml", DataError)


def check_overrides(table: object, sides: tuple[str, ...]) -> list[tuple[str, str]]:
    """Problems (where, message) of a scenario's ``[ai.<side>]`` tables: AI weights for one side of that scenario
    (not rules; names as in ``data/ai.toml``), as Art of Tactic's scenarios set them."""
    if not isinstance(table, dict):
        return [("ai", "expected [ai.<side>] tables of AI weights (names as in data/ai.toml)")]
    out: list[tuple[str, str]] = []
    known = weights()
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


@cache
def _merged(over: tuple[tuple[str, float], ...]) -> Mapping[str, float]:
    return {**weights(), **dict(over)}


def side_weights(st: GameState, side: str) -> Mapping[str, float]:
    """The weights the AI plays ``side`` with: ``data/ai.toml`` with the scenario's ``[ai.<side>]`` values on top
    (kept in the game's data as ``ai``; public, like the scenario file)."""
    over = data(st).ai.get(side)
    if not over:
        return weights()
    return _merged(tuple(sorted((str(k), float(v)) for k, v in over.items())))
