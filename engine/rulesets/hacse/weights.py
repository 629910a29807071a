"""Provides the AI's weights (``data/ai.toml``; not rules) and a scenario's ``[ai.<side>]`` values on top of them.

A scenario may set some weights for one side, as Art of Tactic's scenarios do (and a Wesnoth scenario sets its AI's
aggression): ``planspiel validate`` checks the table (:func:`check_overrides`) and the game keeps it in its data as
``ai`` (public, like the scenario file).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from engine.state import GameState
from engine.weights import check_overrides as weights_check
from engine.weights import merged, read_weights

from .data import DATA_DIR, DataError
from .model import data

__all__ = ["check_overrides", "side_weights", "weights"]


@cache
def weights() -> Mapping[str, float]:
    """The weights of ``data/ai.toml`` (checked: an ``[ai]`` table, every value a number)."""
    return read_weights(DATA_DIR / "ai.toml", DataError)


def check_overrides(table: object, sides: tuple[str, ...]) -> list[tuple[str, str]]:
    """Problems (where, message) of a scenario's ``[ai.<side>]`` tables of weights (``engine.weights``)."""
    return weights_check(table, sides, weights())


def side_weights(st: GameState, side: str) -> Mapping[str, float]:
    """The weights the AI plays ``side`` with: ``data/ai.toml`` with the scenario's ``[ai.<side>]`` values on top
    (kept in the game's data as ``ai``; public, like the scenario file)."""
    return merged(weights(), data(st).ai.get(side))
