"""Provides :class:`SaveHeader`, the typed header of a save file that the load screen lists."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from .errors import SaveError, shown

__all__ = ["SaveHeader", "SideInfo", "header_from_dict", "utc_now"]

KINDS = ("game", "campaign")
"""The kinds of save file: one battle, or a campaign (its roster and the current battle)."""


def utc_now() -> str:
    """The time now as a header's ``created`` and ``updated`` hold it (ISO 8601, UTC, to the millisecond)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass(frozen=True, slots=True)
class SideInfo:
    """A side of the saved game and who plays it."""

    id: str
    """The side's id in the scenario (``"german"``)."""
    name: str
    """Its display name (``"German"``)."""
    player: str
    """``"human"`` or ``"ai:<level>"`` (DESIGN §6)."""

    def __str__(self) -> str:
        return f"{self.id} ({self.player})"


@dataclass(frozen=True, slots=True)
class SaveHeader:
    """What a save file says about itself before its body is read (format 1 fields, see FORMAT.md)."""

    format: int
    """The save format the file was written in (after migration: the current one)."""
    kind: str
    """``"game"`` or ``"campaign"``."""
    app: str
    """The Planspiel version that wrote the file."""
    ruleset: str
    ruleset_version: str
    scenario: str
    """The scenario id (for a campaign: the current battle's, or ``""`` between battles)."""
    title: str
    """The scenario's title."""
    turn: int
    actions: int
    """How many actions the history holds."""
    to_act: str | None
    """The side to decide next; None when the game is over."""
    winner: str | None
    """The winning side or ``"draw"`` once the game is over."""
    result: str | None
    """Why the game ended."""
    sides: tuple[SideInfo, ...]
    created: str
    """When the game was first saved (ISO 8601, UTC)."""
    updated: str
    """When this file was written (ISO 8601, UTC): the "last played" time."""
    campaign: str | None = None
    """The campaign id of a campaign save."""
    campaign_title: str | None = None

    @property
    def updated_at(self) -> datetime | None:
        """:attr:`updated` as a datetime (None if it cannot be read)."""
        try:
            return datetime.fromisoformat(self.updated)
        except ValueError:
            return None

    @property
    def is_over(self) -> bool:
        """True if the saved game has ended."""
        return self.winner is not None

    @property
    def players(self) -> dict[str, str]:
        """Side id → player."""
        return {s.id: s.player for s in self.sides}

    def to_dict(self) -> dict[str, Any]:
        """The header as stored in the file (without the body's size and checksum)."""
        return {
            "magic": "planspiel",
            "format": self.format,
            "kind": self.kind,
            "app": self.app,
            "ruleset": self.ruleset,
            "ruleset_version": self.ruleset_version,
            "scenario": self.scenario,
            "title": self.title,
            "turn": self.turn,
            "actions": self.actions,
            "to_act": self.to_act,
            "outcome": None if self.winner is None else {"winner": self.winner, "reason": self.result or ""},
            "sides": [{"id": s.id, "name": s.name, "player": s.player} for s in self.sides],
            "created": self.created,
            "updated": self.updated,
            "campaign": None
            if self.campaign is None
            else {"id": self.campaign, "title": self.campaign_title or self.campaign},
        }


def _str(d: dict[str, Any], key: str, name: str, *, optional: bool = False) -> Any:
    value = d.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise SaveError(name, f"is damaged: header entry {key!r} should be text, not {shown(value)}")
    return value


def _int(d: dict[str, Any], key: str, name: str) -> int:
    value = d.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise SaveError(name, f"is damaged: header entry {key!r} should be a number, not {shown(value)}")
    return value


def header_from_dict(d: dict[str, Any], name: str) -> SaveHeader:
    """Check a raw header of the current format and type it.

    Raises:
        SaveError: an entry is missing or has the wrong type.
    """
    kind = _str(d, "kind", name)
    if kind not in KINDS:
        raise SaveError(name, f"is damaged: unknown kind of save {shown(kind)} (expected game or campaign)")
    sides: list[SideInfo] = []
    raw_sides = d.get("sides")
    if not isinstance(raw_sides, list):
        raise SaveError(name, f"is damaged: header entry 'sides' should be a list, not {shown(raw_sides)}")
    for s in raw_sides:
        if not isinstance(s, dict):
            raise SaveError(name, f"is damaged: a side in the header should be a map, not {shown(s)}")
        sides.append(SideInfo(_str(s, "id", name), _str(s, "name", name), _str(s, "player", name)))
    outcome = d.get("outcome")
    if outcome is not None and not isinstance(outcome, dict):
        raise SaveError(name, f"is damaged: header entry 'outcome' should be a map, not {shown(outcome)}")
    campaign = d.get("campaign")
    if campaign is not None and not isinstance(campaign, dict):
        raise SaveError(name, f"is damaged: header entry 'campaign' should be a map, not {shown(campaign)}")
    return SaveHeader(
        format=_int(d, "format", name),
        kind=kind,
        app=_str(d, "app", name),
        ruleset=_str(d, "ruleset", name),
        ruleset_version=_str(d, "ruleset_version", name),
        scenario=_str(d, "scenario", name),
        title=_str(d, "title", name),
        turn=_int(d, "turn", name),
        actions=_int(d, "actions", name),
        to_act=_str(d, "to_act", name, optional=True),
        winner=None if outcome is None else _str(outcome, "winner", name),
        result=None if outcome is None else _str(outcome, "reason", name),
        sides=tuple(sides),
        created=_str(d, "created", name),
        updated=_str(d, "updated", name),
        campaign=None if campaign is None else _str(campaign, "id", name),
        campaign_title=None if campaign is None else _str(campaign, "title", name),
    )
