"""Provides the Planspiel rules engine: boards, pathing, line of sight, dice, rulesets and the Game facade.

>>> import engine
>>> engine.parse_hex("0706")
Hex(6, 2)
"""

from __future__ import annotations

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
