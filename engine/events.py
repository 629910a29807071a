"""Provides events: what happened when an action was applied, each a sentence for the log plus data."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Event", "Modifier"]


@dataclass(frozen=True, slots=True)
class Modifier:
    """One modifier of a roll or a value, with its reason: ``Modifier(-2, "range 3 hexes (rule 8.2.4)")``."""

    value: int
    reason: str

    def __str__(self) -> str:
        return f"{self.value:+d} {self.reason}"


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened. ``kind`` is a short tag (``roll``, ``move``, ``loss``, ``phase``...)."""

    kind: str
    text: str
    """A sentence a player can read."""
    data: Mapping[str, Any] = field(default_factory=dict)
    """Plain, msgpack-safe details (for a roll: purpose, dice, total, target, modifiers, result)."""
    visible_to: tuple[str, ...] | None = None
    """Sides that may see the event; None means every side."""

    def is_visible_to(self, side: str | None) -> bool:
        """True if ``side`` may see this event (``None`` = the referee, who sees everything)."""
        return side is None or self.visible_to is None or side in self.visible_to

    def to_dict(self) -> dict[str, Any]:
        """A plain dict for saves and transcripts."""
        d: dict[str, Any] = {"kind": self.kind, "text": self.text, "data": dict(self.data)}
        if self.visible_to is not None:
            d["visible_to"] = list(self.visible_to)
        return d

    def __str__(self) -> str:
        return self.text
