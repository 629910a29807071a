"""Provides the Planspiel rules engine: boards, pathing, line of sight, dice, rulesets and the Game facade.

>>> import engine
>>> engine.parse_hex("0706")
Hex(6, 2)

The names below are imported from their modules when first used (``engine.Game`` imports :mod:`engine.game`), so
that ``import engine`` alone costs next to nothing: the title screen needs only :data:`__version__` (start-up
budget, DESIGN §11).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .actions import Action, parse_notation
    from .board import Board, Cell, MapData
    from .contract import ActionInfo, Question, Role, Switch, Waiting
    from .dice import Dice, DiceSource, ScriptedDice
    from .errors import (
        ActionError,
        AmbiguousActionError,
        IllegalActionError,
        InvalidActionError,
        PlanspielError,
        Problem,
        ReplayError,
        ScenarioError,
        StateError,
        UnknownRulesetError,
    )
    from .events import Event, Modifier
    from .game import Game, new_game, replay, scenario_setup_action, take_scenario_setup
    from .hexgrid import Hex, distance, hex_label, hex_line, parse_hex
    from .los import LosPolicy, LosResult
    from .odds import Odds, OddsEntry
    from .rules import Ruleset, Transition, get_ruleset, register_ruleset, ruleset_names, unregister_ruleset
    from .scenario import Scenario, load_scenario, parse_map, parse_scenario, scenario_ids, validate_path
    from .state import GameState, Outcome, Unit

__version__ = "0.1.0"

__all__ = [
    "Action",
    "ActionError",
    "ActionInfo",
    "AmbiguousActionError",
    "Board",
    "Cell",
    "Dice",
    "DiceSource",
    "Event",
    "Game",
    "GameState",
    "Hex",
    "IllegalActionError",
    "InvalidActionError",
    "LosPolicy",
    "LosResult",
    "MapData",
    "Modifier",
    "Odds",
    "OddsEntry",
    "Outcome",
    "PlanspielError",
    "Problem",
    "Question",
    "ReplayError",
    "Role",
    "Ruleset",
    "Scenario",
    "ScenarioError",
    "ScriptedDice",
    "StateError",
    "Switch",
    "Transition",
    "Unit",
    "UnknownRulesetError",
    "Waiting",
    "__version__",
    "distance",
    "get_ruleset",
    "hex_label",
    "hex_line",
    "load_scenario",
    "new_game",
    "parse_hex",
    "parse_map",
    "parse_notation",
    "parse_scenario",
    "register_ruleset",
    "replay",
    "ruleset_names",
    "scenario_ids",
    "scenario_setup_action",
    "take_scenario_setup",
    "unregister_ruleset",
    "validate_path",
]

_MODULES: dict[str, tuple[str, ...]] = {
    "actions": ("Action", "parse_notation"),
    "board": ("Board", "Cell", "MapData"),
    "contract": ("ActionInfo", "Question", "Role", "Switch", "Waiting"),
    "dice": ("Dice", "DiceSource", "ScriptedDice"),
    "errors": (
        "ActionError",
        "AmbiguousActionError",
        "IllegalActionError",
        "InvalidActionError",
        "PlanspielError",
        "Problem",
        "ReplayError",
        "ScenarioError",
        "StateError",
        "UnknownRulesetError",
    ),
    "events": ("Event", "Modifier"),
    "game": ("Game", "new_game", "replay", "scenario_setup_action", "take_scenario_setup"),
    "hexgrid": ("Hex", "distance", "hex_label", "hex_line", "parse_hex"),
    "los": ("LosPolicy", "LosResult"),
    "odds": ("Odds", "OddsEntry"),
    "rules": ("Ruleset", "Transition", "get_ruleset", "register_ruleset", "ruleset_names", "unregister_ruleset"),
    "scenario": ("Scenario", "load_scenario", "parse_map", "parse_scenario", "scenario_ids", "validate_path"),
    "state": ("GameState", "Outcome", "Unit"),
}
"""Each module of the engine → the names re-exported from it (the imports under ``TYPE_CHECKING`` above)."""

_SOURCE = {name: module for module, names in _MODULES.items() for name in names}


def __getattr__(name: str) -> Any:
    """A re-exported name, imported from its module on first use (then kept in this module)."""
    module = _SOURCE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_SOURCE})
