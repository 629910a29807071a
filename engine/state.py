"""Provides the game state: units, turn and phase, ruleset data, dice and outcome.

A state is changed only by :meth:`engine.game.Game.apply`, which works on a clone, so an earlier state
object never changes. ``to_dict()`` gives a plain, msgpack-safe dict.

Ruleset data (``GameState.data``) and unit status (``Unit.status``) are plain dicts, or records of the classes a
ruleset declares (``Ruleset.state_type`` and ``status_type``, see :mod:`engine.typed`): a state copies and writes
records with the :mod:`engine.typed` codec and dicts with :func:`copy_plain`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .dice import DiceSource, HiddenDice, dice_from_dict
from .hexgrid import Hex, hex_label, parse_hex
from .plain import copy_plain
from .typed import clone, cloner, from_plain, to_plain

if TYPE_CHECKING:
    from .board import Board

__all__ = ["GameState", "Outcome", "Unit", "copy_plain"]

_new = object.__new__


def _copy(value: Any) -> Any:
    """Ruleset data or a unit status copied: a dict with :func:`copy_plain`, a record with the codec's ``clone``."""
    return copy_plain(value) if value.__class__ is dict else clone(value)


def _plain(value: Any) -> Any:
    """Ruleset data or a unit status as plain data: a dict copied, a record written by the codec."""
    return copy_plain(value) if value.__class__ is dict else to_plain(value)


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: ``winner`` is a side id or ``"draw"``."""

    winner: str
    reason: str

    def to_dict(self) -> dict[str, str]:
        return {"winner": self.winner, "reason": self.reason}


@dataclass(slots=True)
class Unit:
    """A unit in play. Mutable only inside a transition, on the clone being built."""

    id: str
    """Stable key from the scenario (``ger-5pzr-1``)."""
    type: str
    """Key into the ruleset's unit types."""
    side: str
    hex: Hex | None
    """Where it stands; None when off the map (not yet arrived, or eliminated)."""
    steps: int
    """Remaining steps (0 = eliminated)."""
    formation: str | None = None
    status: Any = field(default_factory=dict)
    """Ruleset markers and flags: a dict of plain values (``{"neutralised": True}``), or a record of the
    ruleset's ``status_type``."""

    @property
    def is_on_map(self) -> bool:
        """True if the unit stands on the map (eliminated units and units not yet arrived have no hex)."""
        return self.hex is not None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "type": self.type,
            "side": self.side,
            "hex": hex_label(self.hex) if self.hex is not None else None,
            "steps": self.steps,
            "formation": self.formation,
            "status": _plain(self.status),
        }

    def clone(self) -> Unit:
        return Unit(self.id, self.type, self.side, self.hex, self.steps, self.formation, _copy(self.status))


@dataclass(slots=True)
class GameState:
    """Everything needed to continue a game (apart from the scenario it came from)."""

    ruleset: str
    scenario: str
    sides: tuple[str, ...]
    board: Board = field(repr=False, compare=False)
    """The map under the ruleset's terrain classes (shared, never changed)."""
    units: dict[str, Unit] = field(default_factory=dict)
    turn: int = 1
    phase: str = "setup"
    to_act: str | None = None
    """The side that must decide now; None when the game is over."""
    data: Any = field(default_factory=dict)
    """Ruleset-specific values (chit cup, markers, pending decisions...): a dict of plain values, or a record of the
    ruleset's ``state_type``."""
    dice: DiceSource = field(default_factory=HiddenDice, compare=False)
    outcome: Outcome | None = None
    viewer: str | None = None
    """None for the full state; a side id for that side's view."""

    def __post_init__(self) -> None:
        # Units are kept in id order so that iteration is deterministic without sorting on every query.
        if list(self.units) != sorted(self.units):
            self.units = dict(sorted(self.units.items()))

    def __repr__(self) -> str:
        return (
            f"GameState(ruleset={self.ruleset!r}, scenario={self.scenario!r}, turn={self.turn}, "
            f"phase={self.phase!r}, to_act={self.to_act!r}, units={len(self.units)})"
        )

    def clone(self) -> GameState:
        """A deep copy that shares the board (used by transitions and views)."""
        # Built field by field: the units are already in id order, so __post_init__ has nothing to sort; every
        # state is cloned once per action (and once per side's view), so this is on the engine's hot path.
        st = _new(GameState)
        st.ruleset, st.scenario, st.sides, st.board = self.ruleset, self.scenario, self.sides, self.board
        units: dict[str, Unit] = {}
        kind: type | None = None
        copy: Any = None
        for k, u in self.units.items():
            c = _new(Unit)
            c.id, c.type, c.side, c.hex, c.steps, c.formation = u.id, u.type, u.side, u.hex, u.steps, u.formation
            s = u.status
            if s.__class__ is not kind:  # the statuses are of one class: its cloner is looked up once
                kind = s.__class__
                copy = copy_plain if kind is dict else cloner(kind)
            c.status = copy(s)
            units[k] = c
        st.units = units
        st.turn, st.phase, st.to_act = self.turn, self.phase, self.to_act
        data = self.data
        st.data = copy_plain(data) if data.__class__ is dict else clone(data)
        st.dice, st.outcome, st.viewer = self.dice, self.outcome, self.viewer
        return st

    def unit(self, unit_id: str) -> Unit:
        """The unit with that id (KeyError if none)."""
        return self.units[unit_id]

    def iter_units(self, side: str | None = None, on_map: bool = True) -> Iterator[Unit]:
        """Units in id order, optionally of one side and only those on the map."""
        for u in self.units.values():
            if (side is None or u.side == side) and (not on_map or u.hex is not None):
                yield u

    def units_at(self, h: Hex) -> list[Unit]:
        """Units on the map in hex ``h``, in id order."""
        return [u for u in self.iter_units() if u.hex == h]

    def enemies_of(self, side: str) -> tuple[str, ...]:
        """The other sides."""
        return tuple(s for s in self.sides if s != side)

    def to_dict(self) -> dict[str, Any]:
        """A plain, msgpack-safe dict of the whole state (the dice included, as a plain dict)."""
        return {
            "ruleset": self.ruleset,
            "scenario": self.scenario,
            "sides": list(self.sides),
            "turn": self.turn,
            "phase": self.phase,
            "to_act": self.to_act,
            "units": {uid: self.units[uid].to_dict() for uid in sorted(self.units)},
            "data": _plain(self.data),
            "dice": self.dice.to_dict(),
            "outcome": self.outcome.to_dict() if self.outcome else None,
            "viewer": self.viewer,
        }

    @classmethod
    def from_dict(
        cls,
        d: Mapping[str, Any],
        board: Board,
        *,
        data_type: type[Any] | None = None,
        status_type: type[Any] | None = None,
    ) -> GameState:
        """Rebuild a state from :meth:`to_dict` (the inverse, given the ruleset's types:
        ``from_dict(s.to_dict(), s.board, data_type=..., status_type=...) == s``).

        Lists that ``to_dict`` wrote for tuples come back as the tuples the state holds (``sides``). Ruleset
        ``data`` and unit ``status`` come back as records of ``data_type`` and ``status_type`` (read strictly with
        :func:`engine.typed.from_plain`), or as the plain values stored where no type is given; either way they are
        never shared with ``d``.

        Args:
            d: a dict made by :meth:`to_dict` (possibly after a round trip through msgpack).
            board: the board of the scenario's map under the ruleset (``engine.game.board_for``).
            data_type: the ruleset's ``state_type`` (a record class), or None for a plain dict.
            status_type: the ruleset's ``status_type`` (a record class), or None for plain dicts.

        Raises:
            KeyError: a key is missing.
            TypeError: a value has the wrong type.
            ValueError: a hex label or the dice cannot be read; :class:`~engine.errors.StateError` (a
                ``ValueError``) when the data or a status does not fit its record class (the message names the
                path, e.g. ``units['red-1'].status.hidden: expected bool, got 1``).
        """
        raw_units, raw_sides = d["units"], d["sides"]
        if not isinstance(raw_units, Mapping):
            raise TypeError(f"units must be a dict, got {type(raw_units).__name__}")
        if not isinstance(raw_sides, (list, tuple)):
            raise TypeError(f"sides must be a list, got {type(raw_sides).__name__}")
        units: dict[str, Unit] = {}
        for uid, u in raw_units.items():
            if not isinstance(u, Mapping):
                raise TypeError(f"unit {uid!r}: expected a dict, got {type(u).__name__}")
            label = u["hex"]
            steps = u["steps"]
            if not isinstance(steps, int) or isinstance(steps, bool):
                raise TypeError(f"unit {uid!r}: steps must be an integer, got {steps!r}")
            status = u.get("status") or {}
            if not isinstance(status, Mapping):
                raise TypeError(f"unit {uid!r}: status must be a dict, got {type(status).__name__}")
            units[str(uid)] = Unit(
                id=str(u["id"]),
                type=str(u["type"]),
                side=str(u["side"]),
                hex=parse_hex(label) if label is not None else None,
                steps=steps,
                formation=None if u.get("formation") is None else str(u["formation"]),
                status=copy_plain(dict(status))
                if status_type is None
                else from_plain(status_type, dict(status), where=f"units[{uid!r}].status"),
            )
        data = d.get("data") or {}
        if not isinstance(data, Mapping):
            raise TypeError(f"data must be a dict, got {type(data).__name__}")
        dice = d.get("dice")
        outcome = d.get("outcome")
        turn = d["turn"]
        if not isinstance(turn, int) or isinstance(turn, bool):
            raise TypeError(f"turn must be an integer, got {turn!r}")
        return cls(
            ruleset=str(d["ruleset"]),
            scenario=str(d["scenario"]),
            sides=tuple(str(s) for s in raw_sides),
            board=board,
            units=units,
            turn=turn,
            phase=str(d["phase"]),
            to_act=None if d.get("to_act") is None else str(d["to_act"]),
            data=copy_plain(dict(data)) if data_type is None else from_plain(data_type, dict(data), where="data"),
            dice=dice_from_dict(dict(dice)) if dice is not None else HiddenDice(),
            outcome=Outcome(str(outcome["winner"]), str(outcome["reason"])) if outcome is not None else None,
            viewer=None if d.get("viewer") is None else str(d["viewer"]),
        )
