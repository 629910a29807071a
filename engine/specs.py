"""Provides the scenario as loaded: :class:`Scenario` with its :class:`SideSpec` and :class:`UnitSpec` entries.

These are plain data, below both the rules (``Ruleset.setup`` and ``validate_scenario`` take a Scenario) and
the loader in :mod:`engine.scenario`, which builds them and re-exports them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .board import MapData
from .hexgrid import Hex

__all__ = ["Scenario", "SideSpec", "UnitSpec"]


@dataclass(frozen=True, slots=True)
class SideSpec:
    """A side of a scenario."""

    id: str
    name: str


@dataclass(frozen=True, slots=True)
class UnitSpec:
    """A unit as the scenario sets it up."""

    id: str
    """Stable, readable and unique (``ger-5pzr-1``)."""
    type: str
    """Key into the ruleset's ``data/units.toml``."""
    side: str
    hex: Hex | None
    """Where it starts; None for a reinforcement that is not yet on the map."""
    formation: str | None = None
    steps: int | None = None
    """Remaining steps; None means the unit type's full strength."""
    status: Mapping[str, Any] = field(default_factory=dict)
    arrives: int | None = None
    """Turn of arrival for reinforcements."""
    entry: tuple[Hex, ...] = ()
    """Entry hexes for reinforcements."""


@dataclass(frozen=True, slots=True)
class Scenario:
    """A loaded, validated scenario with its map."""

    id: str
    ruleset: str
    title: str
    map: MapData
    sides: tuple[SideSpec, ...]
    units: tuple[UnitSpec, ...]
    turns: int
    first: str
    raw: Mapping[str, Any]
    """The whole scenario table, for ruleset-specific keys (formations, chits, victory, special rules)."""
    path: str = ""
    text: str = ""
    """The scenario file's full text."""

    @property
    def briefing(self) -> str:
        """The scenario's briefing (or history note)."""
        return str(self.raw.get("briefing") or self.raw.get("history") or "")

    def side_ids(self) -> tuple[str, ...]:
        """The sides' ids in scenario order."""
        return tuple(s.id for s in self.sides)

    def unit(self, unit_id: str) -> UnitSpec:
        """The unit spec with that id (KeyError if none)."""
        for u in self.units:
            if u.id == unit_id:
                return u
        raise KeyError(unit_id)

    def __repr__(self) -> str:
        return f"<Scenario {self.ruleset}/{self.id} {self.title!r}>"
