"""Provides the choose mode: every decision is a list of the legal actions, with the engine's explanation.

Every decision supports it, so a mode the client does not know falls back to it. Enter on the map opens the
list; so does the table as soon as the decision is the player's.
"""

from __future__ import annotations

from engine.contract import CHOOSE

from .base import Mode

__all__ = ["ChooseMode"]


class ChooseMode(Mode):
    """A list of the legal actions (chits, reactions, combat results, questions)."""

    name = CHOOSE
