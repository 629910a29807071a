"""Provides the minirules notation as typed actions (:mod:`engine.notation`): each verb's arguments and roles.

This is all a client needs to know about the verbs of M1–M5: the TUI selects a unit and moves it along a path or
fires at a target with the exact odds (its roles say so), offers the reaction of M3 as a list, and ends the turn
with the action whose role is ``END``; the AI filters its candidates the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.contract import Role
from engine.notation import Actor, Notation, Path, Target, verb_table

__all__ = ["NOTATIONS"]


@dataclass(frozen=True, slots=True)
class Move(Notation, verb="move", roles={Role.MOVE, Role.ORDER}):
    """M1: a unit moves along adjacent hexes."""

    unit: Actor
    path: Path


@dataclass(frozen=True, slots=True)
class Fire(Notation, verb="fire", roles={Role.ORDER, Role.ATTACK, Role.CHANCE}):
    """M2: a unit fires at a visible enemy (1d6)."""

    unit: Actor
    target: Target


@dataclass(frozen=True, slots=True)
class React(Notation, verb="react", roles={Role.REACT, Role.ATTACK, Role.CHANCE}):
    """M3: a unit next to the mover fires at it, in the other side's turn."""

    unit: Actor
    mover: Target


@dataclass(frozen=True, slots=True)
class Hold(Notation, verb="hold", roles={Role.REACT, Role.HOLD, Role.PASS}):
    """M3: no reaction."""


@dataclass(frozen=True, slots=True)
class End(Notation, verb="end", roles={Role.END, Role.PASS}):
    """M5: the side ends its turn."""


NOTATIONS = verb_table([Move, Fire, React, Hold, End])
"""Verb → its typed forms."""
