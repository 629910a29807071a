"""Provides the Ruleset base class, the transition context rulesets write into, and the registry.

A ruleset is an interpreter of its data files (``data/*.toml``): terrain classes, unit types, tables.
Built-in rulesets live in ``engine.rulesets.<id>`` and expose ``RULESET``; others register through the
entry-point group ``planspiel.rulesets`` (an entry point names a Ruleset subclass or instance).
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import logging
import os
import sys
import tomllib
from collections.abc import Mapping, Sequence
from functools import cached_property
from importlib.metadata import entry_points
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from .actions import Action, parse_notation
from .contract import ACT, CHOOSE, ActionInfo, Role, Waiting
from .dice import DiceSource, HiddenDice
from .errors import IllegalActionError, InvalidActionError, Problem, UnknownRulesetError
from .events import Event, Modifier
from .los import LosPolicy
from .notation import Notation, read
from .notation import action_info as notation_info
from .pathing import WeightFn, route

if TYPE_CHECKING:
    from .board import Board
    from .hexgrid import Hex
    from .odds import Odds
    from .presentation import GameInfo, Presentation
    from .specs import Scenario
    from .state import GameState, Unit

__all__ = [
    "BUILTIN_RULESETS",
    "PUBLIC",
    "RESIGN",
    "Ruleset",
    "Transition",
    "get_ruleset",
    "register_ruleset",
    "ruleset_names",
    "unregister_ruleset",
]

log = logging.getLogger(__name__)

_NEEDS = {"at_most": "needs {} or less", "at_least": "needs {} or more", "above": "happens above {}"}
"""How a roll's log line says what it must meet (:meth:`Transition.roll`'s ``compare``)."""

READ_CACHE_SIZE = 20_000
"""Actions read per map and ruleset kept by :meth:`Ruleset.read` (then the cache starts again)."""
BUILTIN_RULESETS = ("art_of_tactic", "behind_omaha", "blitzkrieg1940", "hacse", "wiener")
"""Ruleset packages under ``engine.rulesets`` (each is loaded if it is present)."""


class Transition:
    """The working copy a ruleset changes while applying one action, and the events it emits."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.events: list[Event] = []
        self.rolled = False
        """True once a die was rolled (undo stops here)."""
        self.revealed = False
        """True once hidden information was revealed (undo stops here)."""

    def emit(self, kind: str, text: str, visible_to: Sequence[str] | None = None, **data: Any) -> Event:
        """Record an event."""
        ev = Event(kind, text, data, tuple(visible_to) if visible_to is not None else None)
        self.events.append(ev)
        return ev

    def roll(
        self,
        sides: int,
        count: int,
        purpose: str,
        *,
        target: int | None = None,
        column: str | None = None,
        modifiers: Sequence[Modifier] = (),
        shifts: Sequence[Modifier] = (),
        visible_to: Sequence[str] | None = None,
        pool: int | None = None,
        compare: str | None = None,
    ) -> tuple[int, ...]:
        """Roll the game's dice and record the roll with its purpose, target or column and modifiers.

        ``modifiers`` are added to the roll; ``shifts`` are the modifiers that chose the ``column`` (recorded
        for the log, not added to the roll). ``pool``: a dice pool, where each die at or under it succeeds on its
        own; the record counts the successes instead of adding the dice. ``compare``: how the roll meets the
        ``target``, ``at_most`` ("needs 8 or less"), ``at_least`` ("needs 8 or more") or ``above`` ("happens above 8");
        None says "needs 8".
        """
        values, self.state.dice = self.state.dice.roll(sides, count)
        self.rolled = True
        total = sum(values)
        net = total + sum(m.value for m in modifiers)
        extra: dict[str, int] = {}
        if pool is not None:
            extra = {"pool": pool, "hits": sum(1 for v in values if v <= pool)}
            target = pool
            text = f"{purpose}: rolled {' '.join(str(v) for v in values)}: {extra['hits']} at {pool} or less"
        else:
            dice_text = "+".join(str(v) for v in values)
            text = f"{purpose}: rolled {dice_text}" + (f" = {total}" if count > 1 else "")
            if modifiers:
                text += " " + " ".join(f"{m.value:+d} ({m.reason})" for m in modifiers) + f" = {net}"
            if column is not None:
                text += f" on column {column}"
                if shifts:
                    text += " (" + ", ".join(f"{m.value:+d} {m.reason}" for m in shifts) + ")"
            if target is not None:
                text += ", " + _NEEDS.get(compare or "", "needs {}").format(target)
        self.emit(
            "roll",
            text,
            visible_to,
            purpose=purpose,
            dice=list(values),
            sides=sides,
            total=total,
            net=net,
            target=target,
            column=column,
            modifiers=[[m.value, m.reason] for m in modifiers],
            shifts=[[m.value, m.reason] for m in shifts],
            **extra,
        )
        return values

    def reveal(self) -> None:
        """Mark that hidden information became known (undo stops here)."""
        self.revealed = True


class Ruleset:
    """Base class of a rule system. Subclasses set ``id``, ``title`` and ``version`` and override hooks.

    The engine calls the hooks with a :class:`~engine.state.GameState`; side-scoped queries pass a view
    (``state.viewer`` set), so a hook must answer from what the state it is given holds.
    """

    id: ClassVar[str] = ""
    title: ClassVar[str] = ""
    version: ClassVar[str] = "1"
    verbs: ClassVar[Mapping[str, str]] = {}
    """Notation verbs → a line of help (``"move": "move UNIT HEX... — move along a path"``)."""
    notations: ClassVar[Mapping[str, tuple[type[Notation], ...]]] = {}
    """Verb → its typed forms (:mod:`engine.notation`): the kinds of its arguments and its roles. Notation is read
    into them once (:meth:`read`), and clients learn from them what an action means (:meth:`action_info`)."""
    default_setup_verb: ClassVar[str | None] = None
    """The verb (no arguments) that takes the scenario file's set-up for the side's current set-up step, if the
    ruleset lets players set up; a client may play it for players who chose the scenario's set-up."""
    modes: ClassVar[frozenset[str]] = frozenset({ACT, CHOOSE})
    """The interaction modes this ruleset's decisions use (:mod:`engine.contract`); :meth:`waiting` names the one
    in force. A client that knows none of them offers every decision as a list (:data:`~engine.contract.CHOOSE`)."""
    scenario_keys: ClassVar[frozenset[str]] = frozenset()
    """Extra top-level scenario keys this ruleset reads."""
    state_type: ClassVar[type[Any] | None] = None
    """The record class (:func:`engine.typed.record`) of ``GameState.data``; None: a dict of plain values."""
    status_type: ClassVar[type[Any] | None] = None
    """The record class of every ``Unit.status``; None: dicts of plain values."""

    def setup_offered(self, state: GameState) -> bool:
        """Whether :attr:`default_setup_verb` may be legal now: a cheap test before listing the legal actions
        (True by default whenever the ruleset has the verb; a ruleset narrows it to its set-up decisions)."""
        return self.default_setup_verb is not None

    # --- Data -------------------------------------------------------------------------------------------

    @property
    def data_dir(self) -> Path:
        """The folder of this ruleset's data files (``data/`` beside its module)."""
        return Path(inspect.getfile(type(self))).parent / "data"

    @cached_property
    def data(self) -> dict[str, dict[str, Any]]:
        """Every ``data/*.toml`` file, by stem."""
        out: dict[str, dict[str, Any]] = {}
        d = self.data_dir
        if d.is_dir():
            for p in sorted(d.glob("*.toml")):
                with p.open("rb") as f:
                    out[p.stem] = tomllib.load(f)
        return out

    @cached_property
    def terrain_classes(self) -> dict[str, dict[str, Any]]:
        """Terrain class → its values, from ``terrain.toml`` ``[classes.<name>]``."""
        return dict(self.data.get("terrain", {}).get("classes", {}))

    @cached_property
    def terrain_codes(self) -> dict[str, str]:
        """Map terrain code → terrain class, from ``terrain.toml`` ``[codes]`` (aliases resolved)."""
        codes = self.data.get("terrain", {}).get("codes", {})
        out: dict[str, str] = {}
        for code, value in codes.items():
            seen, target = {code}, value
            while isinstance(target, dict) and "alias_of" in target:
                nxt = target["alias_of"]
                if nxt in seen:
                    raise ValueError(f"{self.id}: terrain alias loop at {code!r}")
                seen.add(nxt)
                target = codes.get(nxt, nxt)
            out[code] = str(target)
        return out

    @cached_property
    def unit_types(self) -> dict[str, dict[str, Any]]:
        """Unit type → its values, from ``units.toml`` ``[types.<name>]``."""
        return dict(self.data.get("units", {}).get("types", {}))

    def scenario_dirs(self) -> list[Path]:
        """Extra folders holding this ruleset's scenarios (beyond ``scenarios/<id>/``)."""
        return []

    # --- Scenario checks --------------------------------------------------------------------------------

    def can_stand(self, unit_type: str, terrain_class: str) -> bool:
        """True if a unit of ``unit_type`` may stand in terrain of ``terrain_class``."""
        return True

    def can_reach(self, board: Board, unit_type: str, start: Any, goal: Any) -> bool:
        """True if a unit of ``unit_type`` could ever walk from ``start`` to ``goal`` (no enemies, no MP limit)."""

        def weight(u: Any, v: Any, edge: Mapping[str, Any]) -> float | None:
            return 1.0 if self.can_stand(unit_type, board.terrain(v)) else None

        return route(board, start, goal, weight) is not None

    def validate_scenario(self, scenario: Scenario) -> list[Problem]:
        """Ruleset-specific checks of a scenario (formations, chits, victory...)."""
        return []

    # --- Play -------------------------------------------------------------------------------------------

    def setup(self, scenario: Scenario, board: Board, dice: DiceSource) -> GameState:
        """The state at the start of the scenario."""
        raise NotImplementedError

    def begin(self, tr: Transition) -> None:
        """Automatic steps right after setup (first phase, first draw), recorded as the game's first events."""

    def legal_actions(self, state: GameState) -> list[Action]:
        """Every legal action for ``state.to_act``, in a deterministic order."""
        raise NotImplementedError

    def check(self, state: GameState, action: Action) -> None:
        """Raise :class:`IllegalActionError` with the reason and rule if ``action`` is not legal now.

        The default compares with :meth:`legal_actions`; rulesets override it to say *why*.
        """
        if action not in self.legal_actions(state):
            raise IllegalActionError(f"{action} is not legal now (turn {state.turn}, {state.phase})")

    def apply(self, tr: Transition, action: Action) -> None:
        """Apply a legal action to ``tr.state``, emitting events and rolling through ``tr.roll``."""
        raise NotImplementedError

    def parse_action(self, state: GameState, text: str) -> Action:
        """Read notation. The default splits it, checks the verb and, where the verb has typed forms
        (:attr:`notations`), reads the arguments into them (kinds, count, hexes on the map)."""
        action = parse_notation(text)
        if self.verbs and action.verb not in self.verbs:
            raise InvalidActionError(f"unknown verb {action.verb!r}: {self.id} knows {', '.join(sorted(self.verbs))}")
        if action.verb in self.notations:
            self.read(state, action)
        return action

    def read(self, state: GameState, action: Action) -> Notation:
        """The action read into its verb's typed form (hexes as ``Hex``, counts as ``int``).

        Raises:
            InvalidActionError: an unknown verb, or arguments that do not fit the verb's notation.
        """
        board = state.board
        key = ("read", self.id)
        known: dict[Action, Notation] | None = board.cache.get(key)
        if known is None:
            known = board.cache[key] = {}
        try:
            return known[action]
        except KeyError:
            pass
        except TypeError:  # an action built in code with an argument that cannot be hashed: read, not kept
            known = None
        forms = self.notations.get(action.verb)
        if not forms:
            raise InvalidActionError(f"unknown verb {action.verb!r}: {self.id} knows {', '.join(sorted(self.verbs))}")
        typed = read(forms, action, board)
        if known is not None:
            # A reading depends only on the action and the map, and a typed notation is frozen: kept per map, for
            # check, apply, odds and action_info of the same action (bounded: hostile input cannot grow it).
            if len(known) >= READ_CACHE_SIZE:
                known.clear()
            known[action] = typed
        return typed

    def action_info(self, state: GameState, action: Action) -> ActionInfo:
        """What ``action`` means in ``state`` (a side's view): its roles, the unit that acts, the units and hexes
        it concerns, its path (:class:`~engine.contract.ActionInfo`). Clients read this, never the verb.

        The default derives it from the verb's typed form (:attr:`notations`); a verb without one is a decision
        (:attr:`~engine.contract.Role.DECIDE`) about the unit its first argument names, if any.
        """
        if action.verb in self.notations:
            try:
                return notation_info(self.read(state, action), state)
            except InvalidActionError:
                pass
        unit = action.args[0] if action.args and action.args[0] in state.units else None
        return ActionInfo(action.verb, frozenset({Role.DECIDE}), unit=unit)

    def waiting(self, state: GameState, legal: Sequence[Action] | None = None) -> Waiting:
        """What the game waits for in ``state`` (a side's view), and how a client lets the player enter it.

        The default: the side to act decides on the map (:data:`~engine.contract.ACT`) when one of its legal
        actions (``legal``, or :meth:`legal_actions` if not given) is a unit's order or a placement, else from a
        list (:data:`~engine.contract.CHOOSE`). Secondary actions (:attr:`~engine.contract.ActionInfo.secondary`) are
        never enough for the map.
        """
        side = None if state.outcome is not None else state.to_act
        if side is None:
            return Waiting(None)
        actions = self.legal_actions(state) if legal is None else legal
        on_map = any((i := self.action_info(state, a)).any(Role.ORDER, Role.PLACE) and not i.secondary for a in actions)
        return Waiting(side, ACT if on_map else CHOOSE)

    def describe(self, state: GameState, action: Action) -> str:
        """Write notation (the exact inverse of :meth:`parse_action`)."""
        return str(action)

    def explain(self, state: GameState, action: Action) -> str:
        """A sentence saying what the action does (for menus and logs); defaults to its notation."""
        return self.describe(state, action)

    def odds(self, state: GameState, action: Action) -> Odds | None:
        """The exact result distribution of a chance action; None for an action without chance."""
        return None

    def view(self, state: GameState, side: str) -> GameState:
        """``state`` as ``side`` may see it. The default hides the dice; rulesets remove hidden units,
        secret orders and pools."""
        v = state.clone()
        v.viewer = side
        v.dice = HiddenDice()
        return v

    def public_view(self, state: GameState) -> GameState:
        """``state`` as a spectator who may see only what every side may see: the default applies each side's
        :meth:`view` in turn (each hides that side's opponents' secrets), with ``viewer`` set to
        :data:`PUBLIC`. A ruleset whose views do not compose so overrides it."""
        v = state
        for side in state.sides:
            v = self.view(v, side)
        if v is state:
            v = state.clone()
        v.viewer = PUBLIC
        return v

    # --- Presentation -----------------------------------------------------------------------------------

    def presentation(self, info: GameInfo) -> Presentation:
        """How this ruleset's state is shown (glyphs, markers, unit cards, names of orders): the ``PRESENTATION``
        class of the ``presentation`` module beside the ruleset's module if there is one, else the generic
        :class:`~engine.presentation.Presentation`. Imported only when a client asks (a headless game never
        needs it)."""
        from . import presentation  # noqa: PLC0415 - only clients that show a game need it

        cls: type[Presentation] = presentation.Presentation
        module = sys.modules.get(type(self).__module__)
        package = ""
        if module is not None:
            package = module.__name__ if hasattr(module, "__path__") else module.__package__ or ""
        name = f"{package}.presentation"
        if package and importlib.util.find_spec(name) is not None:
            cls = getattr(importlib.import_module(name), "PRESENTATION", cls)
        return cls(info)

    # --- Overlays ---------------------------------------------------------------------------------------

    def overlays(
        self, view: GameState, side: str, unit_id: str | None = None, history: Sequence[Action] = ()
    ) -> dict[str, set[Hex]]:
        """Hexes a player's map may mark for ``side`` because of a rule: name → hexes.

        ``view`` is ``side``'s view (never the full state), ``unit_id`` the unit the player selected (or None),
        ``history`` the actions played so far (a ruleset reads from it only what ``side`` may know). Rulesets
        document their names (Blitzkrieg: ``command``, ``hq``, ``out_of_command``, ``barrage``, ``observer``);
        the default marks nothing.
        """
        return {}

    # --- AI ---------------------------------------------------------------------------------------------

    def evaluate(self, state: GameState, side: str) -> float:
        """How good ``state`` is for ``side`` (higher is better), for AI players (DESIGN §7).

        The score is in units of one step (or one unit for rulesets without steps). The default counts the
        end of the game (±1000, a draw 0), then remaining steps of ``side`` minus those of the other sides.
        Rulesets override it with their victory conditions, threats and cohesion; it must read only what
        ``state`` holds (it is given a side's view).
        """
        if state.outcome is not None:
            if state.outcome.winner == side:
                return 1000.0
            return 0.0 if state.outcome.winner == "draw" else -1000.0
        return float(sum(u.steps if u.side == side else -u.steps for u in state.units.values()))

    def ai_actions(self, state: GameState, actions: list[Action]) -> list[Action]:
        """The legal actions an AI player weighs in ``state`` (a side's view), for the planner.

        The default is all of them (the same list). A ruleset whose decisions come in long series may narrow
        it, e.g. to give every unit an order before ending its planning.
        """
        return actions

    def ai_score(self, state: GameState, action: Action, side: str) -> float | None:
        """A ruleset's own value of playing ``action`` in ``state`` (``side``'s view), for the planner; None: none.

        Where it is not None the planner uses it instead of its generic scores of the action (its cheap first
        sort and its re-scoring), on the same scale as :meth:`evaluate` (the value of the position the action
        leads to). A ruleset whose actions can be valued without playing them out (orders that are only written
        on a sheet) teaches the AI here what its odds alone do not show. The default is None for every action,
        so the planner's generic scores stand.
        """
        return None

    def ai_goals(self, state: GameState, side: str) -> list[Hex]:
        """Hexes ``side`` should head for (objectives to take or retake), for an AI's first sort of its moves.

        The default is none (the AI then heads for the enemy).
        """
        return []

    # --- Maps -------------------------------------------------------------------------------------------

    def los_policy(self, state: GameState) -> LosPolicy:
        """The line-of-sight policy (default: no obstacles, no range limit)."""
        return LosPolicy(id=f"{self.id}:default")

    def carried_steps(self, unit: Unit) -> int:
        """The steps ``unit`` carries to a campaign's next battle as it ends this one (0: lost; engine/campaign.py).
        The default: its steps."""
        return unit.steps

    def movement_points(self, state: GameState, unit: Unit) -> float:
        """Movement points the unit has now."""
        return 0.0

    def move_weight(self, state: GameState, unit: Unit) -> WeightFn:
        """The unit's weight function for pathing: cost to step from ``u`` into ``v``, None = impassable."""

        def weight(u: Any, v: Any, edge: Mapping[str, Any]) -> float | None:
            return 1.0 if self.can_stand(unit.type, state.board.terrain(v)) else None

        return weight

    def __repr__(self) -> str:
        return f"<Ruleset {self.id} v{self.version}>"


# --- Registry -------------------------------------------------------------------------------------------

_registry: dict[str, Ruleset] = {}
_discovered = False


PUBLIC = "*"
"""The viewer of the public view (``Game.view(PUBLIC)``): what no side's view hides, for spectators."""

RESIGN = "resign"
"""The engine's own verb, ``resign SIDE`` (``Game.resign``): kept in a game's history like any action, so that a
save replays to the same end; no ruleset may use it (:func:`register_ruleset` refuses it)."""


def register_ruleset(ruleset: Ruleset | type[Ruleset], replace: bool = False) -> Ruleset:
    """Add a ruleset (an instance or a class) to the registry and return the instance."""
    rs = ruleset() if isinstance(ruleset, type) else ruleset
    if not rs.id:
        raise ValueError(f"{rs!r} has no id")
    if RESIGN in rs.verbs or RESIGN in rs.notations:
        raise ValueError(f"ruleset {rs.id!r} uses the verb {RESIGN!r}, which the engine keeps for Game.resign")
    if rs.id in _registry and not replace and type(_registry[rs.id]) is not type(rs):
        raise ValueError(f"ruleset {rs.id!r} is already registered")
    _registry[rs.id] = rs
    return rs


def unregister_ruleset(ruleset_id: str) -> None:
    """Remove a ruleset (tests use this to clean up)."""
    _registry.pop(ruleset_id, None)


def _import_builtin(name: str) -> None:
    """Import the built-in ruleset package ``name`` (if installed) and register its ``RULESET``."""
    mod_name = f"engine.rulesets.{name}"
    if importlib.util.find_spec(mod_name) is None:
        return
    module = importlib.import_module(mod_name)
    rs = getattr(module, "RULESET", None)
    if rs is not None and getattr(rs, "id", "") not in _registry:
        register_ruleset(rs)


def _discover() -> None:
    global _discovered
    if _discovered:
        return
    _discovered = True
    for name in BUILTIN_RULESETS:
        _import_builtin(name)
    # Extra rulesets named in the environment ("module:attr,module:attr"), for plugin development and tests.
    for spec in filter(None, (x.strip() for x in os.environ.get("PLANSPIEL_RULESETS", "").split(","))):
        mod_name, _, attr = spec.partition(":")
        try:
            register_ruleset(getattr(importlib.import_module(mod_name), attr or "RULESET"), replace=True)
        except Exception as err:
            log.warning("ruleset %s from PLANSPIEL_RULESETS could not be loaded: %s", spec, err)
    for ep in entry_points(group="planspiel.rulesets"):
        try:
            obj = ep.load()
            rs = register_ruleset(obj) if ep.name not in _registry else _registry[ep.name]
        except Exception as err:  # a broken plugin must not stop the game
            log.warning("ruleset plugin %s could not be loaded: %s", ep.name, err)
            continue
        if rs.id != ep.name:
            log.warning("ruleset plugin %s registered under id %s", ep.name, rs.id)


def ruleset_names() -> list[str]:
    """Ids of every installed ruleset, sorted."""
    _discover()
    return sorted(_registry)


def get_ruleset(ruleset_id: str) -> Ruleset:
    """The ruleset with that id.

    Raises:
        UnknownRulesetError: none is installed under that id.
    """
    if ruleset_id not in _registry and ruleset_id in BUILTIN_RULESETS and not os.environ.get("PLANSPIEL_RULESETS"):
        # A built-in asked for by name: only its package is imported (a Blitzkrieg game, a save of one, does not
        # import Art of Tactic: start-up budget, DESIGN §11). Plugins never replace a built-in id (entry points
        # are skipped for a registered id); PLANSPIEL_RULESETS may, so with it set everything is discovered.
        _import_builtin(ruleset_id)
    if ruleset_id not in _registry:
        _discover()
    try:
        return _registry[ruleset_id]
    except KeyError:
        raise UnknownRulesetError(ruleset_id, sorted(_registry)) from None
