"""Provides ``GameState.data`` of Art of Tactic as a record (:class:`AotData`) and its typed accessor :func:`data`."""

from __future__ import annotations

from engine.hexgrid import Hex
from engine.state import GameState
from engine.typed import field, record

from .frames import Cursor
from .records import Minefield, Order, Setup, Special, Structures, Victory

__all__ = ["AotData", "data"]


@record
class AotData:
    """``GameState.data`` of Art of Tactic."""

    rounds: int
    orders: dict[str, dict[str, Order]] = field(default_factory=dict)
    """Each side's order sheet this Planning Phase (2.3): unit id → order."""
    committed: list[str] = field(default_factory=list)
    control: dict[Hex, str] = field(default_factory=dict)
    victory: Victory = field(default_factory=Victory)
    smoke: dict[Hex, int] = field(default_factory=dict)
    """Smoke hex → the round it was laid in (3.9)."""
    structures: Structures = field(default_factory=Structures)
    minefields: dict[Hex, Minefield] = field(default_factory=dict)
    special: Special = field(default_factory=Special)
    ai: dict[str, dict[str, float]] = field(default_factory=dict)
    """The scenario's AI weights per side (not rules: ``evaluation.side_weights``)."""
    active: dict[str, Order] | None = None
    """During execution: the revealed orders being carried out (2.4)."""
    last_seen: dict[str, Hex] = field(default_factory=dict)
    """Hidden units' "last seen" markers (3.11)."""
    crates: dict[Hex, int] = field(default_factory=dict)
    """Supply crates dropped (9.15.6): hex → ammunition in it."""
    ask: list[str] = field(default_factory=list)
    """The sides that decide during execution (``prompts on``, 15.2), in side order."""
    setup: Setup | None = None
    execution: Cursor | None = None
    """The Execution Phase's cursor while it runs or waits for a decision (15.2 item 4)."""


def data(st: GameState) -> AotData:
    """The state's data, typed."""
    d: AotData = st.data
    return d
