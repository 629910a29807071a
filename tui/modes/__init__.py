"""Provides the interaction modes the game screen hosts, by the name the engine gives them.

A ruleset declares the modes its decisions use (:attr:`engine.rules.Ruleset.modes`) and the engine names the one
in force at every decision (:attr:`engine.Waiting.mode`). Adding a mode is a module with a :class:`Mode`
subclass and an entry in :data:`MODES`; the game screen needs no change (it offers the mode's keys while the
ruleset uses the mode, and hands it the decisions it is named for).
"""

from __future__ import annotations

from engine.contract import ACT, CHOOSE, PLAN

from .act import ActMode
from .base import Key, MapMode, Mode, PaletteCommand
from .choose import ChooseMode
from .plan import PlanMode

__all__ = ["MODES", "ActMode", "ChooseMode", "Key", "MapMode", "Mode", "PaletteCommand", "PlanMode", "mode_class"]

MODES: dict[str, type[Mode]] = {ACT: ActMode, PLAN: PlanMode, CHOOSE: ChooseMode}
"""Interaction mode (:mod:`engine.contract`) → the class that enters its decisions."""


def mode_class(name: str) -> type[Mode]:
    """The class for a mode; :class:`ChooseMode` (every decision as a list) for a mode this client does not know."""
    return MODES.get(name, ChooseMode)
