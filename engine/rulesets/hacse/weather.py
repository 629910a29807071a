"""Provides weather and light (§6.1): the condition in force each turn, from the scenario's ``[conditions]``, and
what it does to sighting (the distance modifier and the range of the automatic conditions 3 and 4); and the ground
(mud, snow) and what it does to movement (§4.3 overlays, :func:`overlays`).

Values in ``data/sight.toml`` (``[conditions.*]``, ``[condition_names]``). The scenario gives ``weather`` (one word)
and ``light`` (one word, or a list of ``{turns = [first, last], light = ...}``); the condition of a turn is the worse
of the two (INTERP: the smaller distance step).

>>> sight_effect("clear").range, sight_effect("dark_night").modifier(5, binoculars=True)
(15, 10)
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from engine.state import GameState

from .data import TerrainClass
from .model import data

__all__ = ["SightEffect", "condition", "conditions_by_turn", "ground_of", "overlays", "sight_effect"]


@cache
def sight_table() -> dict[str, Any]:
    """``data/sight.toml``, read once (its ``[conditions]`` and ``[condition_names]``)."""
    with (Path(__file__).parent / "data" / "sight.toml").open("rb") as f:
        return tomllib.load(f)


@dataclass(frozen=True, slots=True)
class SightEffect:
    """What a condition does to sighting (§6.1): +``factor`` per full ``step`` hexes (``binocular_step`` with
    binoculars), and the distance of the automatic conditions 3–4 (0: never)."""

    name: str
    step: int
    binocular_step: int
    factor: int
    range: int

    def modifier(self, distance: int, *, binoculars: bool) -> int:
        """The distance modifier of the sighting TN."""
        return distance // (self.binocular_step if binoculars else self.step) * self.factor


def sight_effect(name: str) -> SightEffect:
    """The effect of the condition ``name`` (a key of ``[conditions]``)."""
    c = sight_table()["conditions"][name]
    return SightEffect(name, int(c["step"]), int(c["binocular_step"]), int(c["factor"]), int(c["range"]))


def _key(word: str) -> str:
    names = sight_table()["condition_names"]
    if word not in names:
        raise ValueError(f"unknown weather or light {word!r} (6.1; one of {', '.join(sorted(names))})")
    return str(names[word])


def conditions_by_turn(raw: dict[str, Any], turns: int) -> list[str]:
    """The condition of each turn 1..``turns`` from a scenario's ``[conditions]`` table."""
    weather = _key(str(raw.get("weather", "clear")))
    light = raw.get("light", "daylight")
    spans = light if isinstance(light, list) else [{"turns": [1, turns], "light": light}]
    out: list[str] = []
    for turn in range(1, turns + 1):
        lit = next((_key(str(s["light"])) for s in spans if int(s["turns"][0]) <= turn <= int(s["turns"][1])), "clear")
        out.append(min((weather, lit), key=lambda k: (sight_effect(k).step, -sight_effect(k).factor)))
    return out


def condition(st: GameState) -> SightEffect:
    """The condition in force this turn (clear when the state keeps none)."""
    kept = getattr(data(st), "conditions", None) or []
    return sight_effect(kept[min(st.turn, len(kept)) - 1] if kept else "clear")


# --- The ground: weather's effect on movement (4.3) -------------------------------------------------------------


@cache
def ground_table() -> dict[str, tuple[str, ...]]:
    """``data/terrain.toml`` [ground]: each ground word and the 4.3 surcharge rows it lays on the hexes entered."""
    with (Path(__file__).parent / "data" / "terrain.toml").open("rb") as f:
        raw = tomllib.load(f)
    rows = raw["movement"]["surcharge"]
    out: dict[str, tuple[str, ...]] = {}
    for word, laid in raw["ground"].items():
        unknown = [r for r in laid if r not in rows]
        if unknown:
            raise ValueError(f"terrain.toml ground.{word}: unknown surcharge row {unknown[0]!r} (4.3)")
        out[word] = tuple(laid)
    return out


def ground_of(raw: dict[str, Any]) -> str:
    """The ground word of a scenario's ``[conditions]`` (``dry`` when it names none)."""
    word = str(raw.get("ground", "dry"))
    if word not in ground_table():
        raise ValueError(f"unknown ground {word!r} (4.3; one of {', '.join(sorted(ground_table()))})")
    return word


def overlays(st: GameState, terrain: TerrainClass) -> tuple[str, ...]:
    """The 4.3 surcharge rows paid to enter a hex of ``terrain`` in this game's ground: its own, plus the ground's
    (mud, snow) except in hexes that count as road and in water, stream or ford hexes [INTERP, ``terrain.toml``]."""
    own = terrain.overlays
    if terrain.as_road or terrain.water:
        return own
    laid = ground_table()[getattr(data(st), "ground", "dry")]
    return own + tuple(r for r in laid if r not in own)
