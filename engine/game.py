"""Provides the Game facade: the one object tests, tools, saves and the TUI play through."""

from __future__ import annotations

import contextlib
import gc
import hashlib
import reprlib
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Self

from .actions import Action, parse_notation
from .board import Board
from .contract import ActionInfo, Waiting
from .dice import Dice, DiceSource
from .errors import ActionError, IllegalActionError, InvalidActionError, ReplayError, StateError
from .events import Event
from .hexgrid import Hex
from .los import LosResult, line_of_sight
from .notation import Arg, Notation, slots
from .odds import Odds
from .pathing import Route, reachable, route
from .rules import PUBLIC, RESIGN, Ruleset, Transition, get_ruleset
from .scenario import Scenario
from .state import GameState, Outcome

__all__ = [
    "Game",
    "board_for",
    "collector_paused",
    "new_game",
    "replay",
    "scenario_setup_action",
    "take_scenario_setup",
]

_UNIT_ARGS = (Arg.ACTOR, Arg.UNIT, Arg.TARGET)
"""Argument kinds that name a unit (a target may also be a hex, read as a ``Hex``)."""

REPLAY_CHECKPOINT = 32
"""A replay copies its state at a roll or a reveal at most every this many actions (:meth:`Game._replay`): a copy
costs about as much as applying an action, and at the end up to this many are applied again to reach the last
position undo may return to."""


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _shown(value: object, limit: int = 60) -> str:
    """``value`` for a message: its repr, cut to about ``limit`` characters (never the whole of a huge or deeply
    nested value)."""
    try:
        return _cut(reprlib.repr(value), limit)
    except Exception:  # a value whose repr fails (an integer beyond the digit limit)
        return f"<a {type(value).__name__}>"


def _error_text(err: BaseException, limit: int = 200) -> str:
    """An exception as ``Type: message``, cut to about ``limit`` characters."""
    try:
        text = str(err)
    except Exception:  # a message built from a value that cannot be shown
        text = ""
    return _cut(f"{type(err).__name__}: {text}" if text else type(err).__name__, limit)


_boards: dict[tuple[str, str, str], Board] = {}


def board_for(scenario: Scenario, ruleset: Ruleset) -> Board:
    """The board of a scenario's map under a ruleset, built once and shared (with its LOS cache)."""
    digest = hashlib.sha256(scenario.map.text.encode()).hexdigest() if scenario.map.text else repr(id(scenario.map))
    key = (ruleset.id, scenario.map.id, digest)
    board = _boards.get(key)
    if board is None:
        board = Board(scenario.map, ruleset.terrain_codes)
        _boards[key] = board
    return board


class Game:
    """A game in progress: the scenario, the seed, the history and the current state.

    States are never changed once made: ``apply`` builds a new one, so undo is a step back.
    """

    def __init__(self, scenario: Scenario, seed: int = 0, dice: DiceSource | None = None) -> None:
        self.scenario = scenario
        self.ruleset: Ruleset = get_ruleset(scenario.ruleset)
        self.seed = seed
        self.board = board_for(scenario, self.ruleset)
        first = self.ruleset.setup(scenario, self.board, dice if dice is not None else Dice(seed))
        tr = Transition(first)
        self.ruleset.begin(tr)
        self._setup_events: tuple[Event, ...] = tuple(tr.events)
        self._states: list[GameState] = [tr.state]
        self._history: list[Action] = []
        self._events: list[tuple[Event, ...]] = []
        self._undo_floor = 0
        self._views: dict[str, tuple[GameState, GameState]] = {}

    def __repr__(self) -> str:
        return f"<Game {self.scenario.ruleset}/{self.scenario.id} seed={self.seed} actions={len(self._history)}>"

    @classmethod
    def restore(
        cls,
        scenario: Scenario,
        seed: int,
        history: Iterable[Action | str],
        state: GameState | Mapping[str, Any],
        events: Iterable[Event] | None = None,
        dice: DiceSource | None = None,
    ) -> Self:
        """A game continued from a snapshot of its state, without replaying its history (saves use this).

        The game goes on from ``state``; ``history`` is kept for the record (and a later replay check), and
        ``events`` for the log. Undo cannot step back past the restored position.

        Args:
            scenario: the scenario the game was started from.
            seed: the game's seed.
            history: the actions played so far, as actions or notation.
            state: the current state, or its :meth:`GameState.to_dict` snapshot.
            events: every event so far (the log), if kept.
            dice: dice to continue with instead of those the state holds.

        Raises:
            ValueError: the state belongs to another ruleset or scenario, or cannot be read (a snapshot with a
                missing key, a wrong type or a bad hex label; :class:`~engine.errors.StateError` when its data or
                a unit's status does not fit the ruleset's record classes), or a state object holds data or a
                status of another class than the ruleset's; ``InvalidActionError`` (a ``ValueError``) for notation
                that cannot be read.
        """
        game = cls.__new__(cls)
        game.scenario = scenario
        game.ruleset = get_ruleset(scenario.ruleset)
        game.seed = seed
        game.board = board_for(scenario, game.ruleset)
        data_type, status_type = game.ruleset.state_type, game.ruleset.status_type
        if isinstance(state, GameState):
            st = state.clone()
            st.board = game.board
        else:
            try:
                st = GameState.from_dict(state, game.board, data_type=data_type, status_type=status_type)
            except (KeyError, TypeError) as err:
                raise ValueError(f"not a state snapshot: {type(err).__name__}: {err}") from None
        if st.ruleset != scenario.ruleset or st.scenario != scenario.id:
            raise ValueError(
                f"the state is of {st.ruleset}/{st.scenario}, the scenario is {scenario.ruleset}/{scenario.id}"
            )
        want_data, want_status = data_type or dict, status_type or dict
        wrong = [("the state's data", st.data, want_data)] if not isinstance(st.data, want_data) else []
        wrong += [
            (f"the status of {u.id}", u.status, want_status)
            for u in st.units.values()
            if not isinstance(u.status, want_status)
        ]
        if wrong:
            what, value, want = wrong[0]
            raise ValueError(f"{what} is a {type(value).__name__}, {scenario.ruleset} keeps a {want.__name__}")
        if dice is not None:
            st.dice = dice
        actions: list[Action] = []
        for item in history:
            if isinstance(item, Action):
                actions.append(item)
                continue
            try:
                actions.append(game.ruleset.parse_action(st, item))
            except ActionError:
                # The notation was written against an earlier state; read it with the plain grammar.
                actions.append(parse_notation(item))
        game._setup_events = tuple(events) if events is not None else ()
        game._states = [st]
        game._history = actions
        game._events = []
        game._undo_floor = len(actions)
        game._views = {}
        return game

    def check_playable(self) -> None:
        """Refuse a position the game cannot go on from, such as a snapshot edited by hand, before anyone plays it.

        Checks that the state belongs to the scenario (its sides, and every unit's id, type, side and hex on the
        map), then that the ruleset answers :meth:`legal_actions`, each side's :meth:`view` and its legal actions
        there, :meth:`waiting` and the outcome, and that the state can be written (:meth:`GameState.to_dict`).
        It is a check of the position as it stands, not of the rules: a later action may still find something.

        Raises:
            StateError: what is wrong, in a sentence (the ruleset's exception is named when the rules fail).
        """
        st = self.state
        sides = self.scenario.side_ids()
        if tuple(st.sides) != sides:
            raise StateError(f"sides: {_shown(st.sides)}, the scenario has {_shown(sides)}")
        if st.to_act is not None and st.to_act not in sides:
            raise StateError(f"to_act: {_shown(st.to_act)} is not a side of the scenario")
        if st.outcome is not None and st.outcome.winner not in (*sides, "draw"):
            raise StateError(f"outcome: the winner {_shown(st.outcome.winner)} is not a side of the scenario")
        types = self.ruleset.unit_types
        for key, u in st.units.items():
            where = f"units[{_shown(key)}]"
            if u.id != key:
                raise StateError(f"{where}.id: {_shown(u.id)}, not the unit's key")
            if types and u.type not in types:
                raise StateError(f"{where}.type: unknown unit type {_shown(u.type)} in {self.ruleset.id}")
            if u.side not in sides:
                raise StateError(f"{where}.side: {_shown(u.side)} is not a side of the scenario")
            if u.hex is not None and u.hex not in self.board:
                raise StateError(f"{where}.hex: {u.hex!r} is off the {self.board.id} map")
        try:
            self.legal_actions()
            self.waiting()
            for side in sides:
                self.view(side)
                if side == self.to_act:
                    self.legal_actions(side)
                    self.waiting(side)
            st.to_dict()
        except Exception as err:  # whatever the rules meet in a position they never made
            why = _error_text(err)
            raise StateError(f"the {self.ruleset.id} rules cannot go on from this position ({why})") from None

    # --- State ------------------------------------------------------------------------------------------

    @property
    def state(self) -> GameState:
        """The current state (the full state: show players a :meth:`view`)."""
        return self._states[-1]

    @property
    def to_act(self) -> str | None:
        """The side that must decide now, or None when the game is over."""
        return None if self.state.outcome is not None else self.state.to_act

    @property
    def outcome(self) -> Outcome | None:
        """None while the game goes on, then ``Outcome(winner | "draw", reason)``."""
        return self.state.outcome

    @property
    def history(self) -> tuple[Action, ...]:
        """Every action applied so far, in order."""
        return tuple(self._history)

    @property
    def events(self) -> tuple[Event, ...]:
        """Every event so far, in order."""
        return self._setup_events + tuple(e for batch in self._events for e in batch)

    def events_since(self, index: int, side: str | None = None) -> list[Event]:
        """Events after the first ``index`` events, only those ``side`` may see."""
        return [e for e in self.events[index:] if e.is_visible_to(side)]

    def view(self, side: str) -> GameState:
        """The current state as ``side`` may see it (``PUBLIC``: what every side may see, for spectators)."""
        if side not in self.state.sides and side != PUBLIC:
            raise InvalidActionError(f"unknown side {side!r} (sides: {', '.join(self.state.sides)})")
        state = self.state
        got = self._views.get(side)
        if got is not None and got[0] is state:
            return got[1]
        v = self.ruleset.public_view(state) if side == PUBLIC else self.ruleset.view(state, side)
        # One view per side, of the current state only (compared by identity: after an undo and another action the
        # history has the same length but the state is another one).
        self._views = {side: (state, v), **{k: x for k, x in self._views.items() if x[0] is state}}
        return v

    def _scoped(self, side: str | None) -> GameState:
        return self.state if side is None else self.view(side)

    # --- Actions ----------------------------------------------------------------------------------------

    def read(self, action: object, side: str | None = None) -> Action:
        """``action`` (an :class:`Action` or its notation) read and checked the way notation is read, against the
        current state (``side``'s view when given); no legality check.

        An action built in code must be one that notation can write (a verb and a tuple of words) and that the
        ruleset reads back from its notation unchanged (a verb it knows, arguments that fit the verb's typed form
        or the ruleset's own reading). A unit argument of a typed form must name a unit of the state; else the
        ruleset's own refusal stands where its check gives one, or the action is refused as malformed (an id that
        is not a unit, such as a formation, passes when the ruleset lists the action as legal). An action the
        ruleset lists as legal now is never refused here, even where its own reading of notation fails (a
        ruleset bug that must not stop a game).

        Raises:
            InvalidActionError: anything else, whatever ``action`` is.
        """
        return self._read(self._scoped(side), action)

    def _read(self, state: GameState, action: object) -> Action:
        rs = self.ruleset
        if isinstance(action, str):
            read = rs.parse_action(state, action)
        elif not isinstance(action, Action):
            raise InvalidActionError(
                f"not an action: a {type(action).__name__} (expected an Action or its notation, e.g. 'end')"
            )
        elif not action.reads_back:
            raise InvalidActionError(f"not an action notation can write: {_shown(action)}")
        else:
            try:
                read = self._read_back(state, action)
            except InvalidActionError:
                if action not in rs.legal_actions(state):
                    raise
                return action
        if read.verb in rs.notations:
            try:
                typed = rs.read(state, read)
            except InvalidActionError:
                return read  # the ruleset reads its own notation more widely (its check then says why not)
            self._check_units(state, read, typed)
        return read

    def _read_back(self, state: GameState, action: Action) -> Action:
        """``action`` as the ruleset reads its notation (InvalidActionError if it reads otherwise, or not)."""
        rs = self.ruleset
        if type(rs).parse_action is Ruleset.parse_action and action.verb in rs.notations:
            rs.read(state, action)  # the default reading, without writing the notation and splitting it again
            return action
        read = rs.parse_action(state, str(action))
        if read != action:
            raise InvalidActionError(f"{_shown(action)} reads back from its notation as {_shown(read)}")
        return read

    def _check_units(self, state: GameState, action: Action, typed: Notation) -> None:
        """Refuse a unit argument that names no unit of ``state``: with the ruleset's own refusal where its check
        gives one (it may have a better reason, such as a phase without orders), else InvalidActionError."""
        for slot in slots(type(typed)):
            if slot.kind not in _UNIT_ARGS:
                continue
            value = getattr(typed, slot.name)
            if not isinstance(value, str) or value in state.units:
                continue
            if action in self.ruleset.legal_actions(state):
                return  # an id that is not a unit, which the ruleset lists (a formation that acts)
            try:
                self.ruleset.check(state, action)
            except ActionError:
                raise
            except Exception:  # the rules looked the id up: refused below, as the malformed action it is
                pass
            raise InvalidActionError(f"{action.verb}: no unit {_shown(value)} ({slot.words})")

    def legal_actions(self, side: str | None = None) -> list[Action]:
        """Legal actions for the side to act, in a deterministic order (empty if ``side`` is not to act)."""
        if self.to_act is None or (side is not None and side != self.to_act):
            return []
        return self.ruleset.legal_actions(self._scoped(side))

    def parse(self, text: str, side: str | None = None) -> Action:
        """Read notation into an action (no legality check). Raises InvalidActionError.

        ``resign SIDE`` is the engine's own (:meth:`resign`), whatever the ruleset."""
        resigned = self._resigning(text)
        if resigned is not None:
            return Action(RESIGN, (resigned,))
        return self.ruleset.parse_action(self._scoped(side), text)

    def describe(self, action: Action, side: str | None = None) -> str:
        """Write an action as notation; ``parse(describe(a)) == a``."""
        if self._resigning(action) is not None:
            return str(action)
        return self.ruleset.describe(self._scoped(side), action)

    def explain(self, action: Action, side: str | None = None) -> str:
        """A sentence saying what the action does."""
        resigned = self._resigning(action)
        if resigned is not None:
            names = {s.id: s.name for s in self.scenario.sides}
            return f"{names.get(resigned, resigned)} gives up the game (the other side wins)"
        return self.ruleset.explain(self._scoped(side), action)

    def action_info(self, action: Action | str, side: str | None = None) -> ActionInfo:
        """What an action means: its roles, the unit that acts, the units and hexes it concerns, its path.

        An action that is not legal, or whose arguments do not fit its verb, is still described as far as it can
        be (a client asks while a player is still entering an order).

        Raises:
            InvalidActionError: ``action`` is neither an action notation can write nor readable notation.
        """
        st = self._scoped(side)
        if isinstance(action, str):
            action = self.ruleset.parse_action(st, action)
        elif not isinstance(action, Action) or not action.reads_back:
            raise InvalidActionError(f"not an action notation can write: {_shown(action)}")
        return self.ruleset.action_info(st, action)

    def waiting(self, side: str | None = None) -> Waiting:
        """What the game waits for: who decides, and how (the interaction mode, a question, standing switches)."""
        if self.to_act is None:
            return Waiting(None)
        st = self._scoped(side)
        legal = self.legal_actions(side) if side is None or side == self.to_act else []
        return self.ruleset.waiting(st, legal)

    def odds(self, action: Action | str, side: str | None = None) -> Odds | None:
        """The exact result distribution of a chance action (None if it involves no chance).

        Raises:
            InvalidActionError: malformed (see :meth:`read`).
        """
        st = self._scoped(side)
        return self.ruleset.odds(st, self._read(st, action))

    def check(self, action: Action | str, side: str | None = None) -> Action:
        """Refuse ``action`` if it may not be played now, and change nothing; returns the action as read.

        Args:
            action: the action or its notation.
            side: when given, the side that would act: it is refused if it is not that side's decision, and the
                action is judged on that side's view (an order entered hex by hex is judged as it grows).

        Raises:
            InvalidActionError: malformed (see :meth:`read`).
            IllegalActionError: not legal now; the message says why and cites the rule.
        """
        resigned = self._resigning(action)
        if resigned is not None:
            self._resignation(self.state, resigned, side)
            return Action(RESIGN, (resigned,))
        self._check_turn(side)
        st = self._scoped(side)
        action = self._read(st, action)
        self.ruleset.check(st, action)
        return action

    def _check_turn(self, side: str | None) -> None:
        if self.to_act is None:
            reason = self.outcome.reason if self.outcome else "nobody is to act"
            raise IllegalActionError(f"the game is over: {reason}")
        if side is not None and side != self.to_act:
            raise IllegalActionError(f"it is not {side}'s decision: {self.to_act} is to act")

    def apply(self, action: Action | str, side: str | None = None) -> list[Event]:
        """Apply an action (or its notation) for the side to act; returns the events.

        Args:
            action: the action or its notation.
            side: when given, the side that is acting; refused if it is not that side's decision.

        Raises:
            InvalidActionError: malformed notation, or an action that notation could not write or read back
                (see :meth:`read`), or not an action at all.
            IllegalActionError: not legal now; the message says why and cites the rule.
        """
        state = self.state
        resigned = self._resigning(action)
        if resigned is not None:
            return self._apply_resignation(resigned, side)
        action = self._read(state, action)
        self._check_turn(side)
        self.ruleset.check(state, action)
        tr = Transition(state.clone())
        self.ruleset.apply(tr, action)
        self._history.append(action)
        self._events.append(tuple(tr.events))
        if tr.rolled or tr.revealed:
            # Undo cannot step back past this position: the states before it are let go (a long game kept
            # every position, and the collector walked them all on every action).
            self._undo_floor = len(self._history)
            self._states = [tr.state]
        else:
            self._states.append(tr.state)
        return list(tr.events)

    def _apply_resignation(self, resigned: str, side: str | None) -> list[Event]:
        tr = Transition(self.state.clone())
        self._resign(tr, resigned, side)
        self._history.append(Action(RESIGN, (resigned,)))
        self._events.append(tuple(tr.events))
        self._undo_floor = len(self._history)
        self._states = [tr.state]
        return list(tr.events)

    def _replay(self, history: Iterable[Action | str]) -> None:
        """Apply ``history`` as :func:`replay` does, with the game's states afterwards exactly those of
        :meth:`apply`: each action is applied to the state itself instead of a copy (nothing needs the positions
        undo cannot reach). Undo stops after a roll or a reveal, so only the position after the last such action
        (the anchor) and those after it are kept: a copy is taken at a roll or reveal at most every
        :data:`REPLAY_CHECKPOINT` actions, and at the end the actions since that copy are applied to it again up to
        the anchor (the dice are part of the state, so they roll alike), then each later action on a copy.

        Raises:
            ReplayError: an action could not be read or applied (its position is counted from 1); the game is then
                left unusable.
        """
        state = self._states[-1]
        checkpoint = state.clone()
        since: list[Action] = []  # the actions applied since ``checkpoint``
        floor = 0  # how many of ``since`` lead to the anchor (the last roll or reveal)
        for i, given in enumerate(history, start=1):
            resigned = self._resigning(given)
            if resigned is not None:
                tr = Transition(state)
                try:
                    self._resign(tr, resigned)
                except ActionError as err:
                    raise ReplayError(i, str(given), err) from None
                state = self._states[-1] = tr.state
                self._history.append(Action(RESIGN, (resigned,)))
                self._events.append(tuple(tr.events))
                self._undo_floor = len(self._history)
                checkpoint, since, floor = state.clone(), [], 0
                continue  # the game is over: a later entry is refused as played after the end
            try:
                action = self._read(state, given)
                self._check_turn(None)
                self.ruleset.check(state, action)
            except ActionError as err:
                raise ReplayError(i, str(given), err) from None
            tr = Transition(state)
            self.ruleset.apply(tr, action)
            state = tr.state
            self._states[-1] = state
            self._history.append(action)
            self._events.append(tuple(tr.events))
            since.append(action)
            if tr.rolled or tr.revealed:
                self._undo_floor = len(self._history)
                if len(since) >= REPLAY_CHECKPOINT:
                    checkpoint, since = state.clone(), []
                floor = len(since)
        if floor == len(since):
            self._states = [state]  # the last action rolled or revealed: the game's state is the anchor
            return
        anchor = checkpoint
        for action in since[:floor]:  # the same actions on the same state and dice: the same positions
            tr = Transition(anchor)
            self.ruleset.apply(tr, action)
            anchor = tr.state
        states = [anchor]
        for action in since[floor:]:
            tr = Transition(states[-1].clone())
            self.ruleset.apply(tr, action)
            states.append(tr.state)
        self._states = states

    @property
    def can_undo(self) -> bool:
        """True if the last action may be taken back (it rolled no dice and revealed nothing)."""
        return len(self._history) > self._undo_floor

    def undo(self) -> Action:
        """Take back the last action and return it.

        Raises:
            IllegalActionError: nothing to undo, or the last action rolled dice or revealed hidden
                information.
        """
        if not self._history:
            raise IllegalActionError("nothing to undo")
        if not self.can_undo:
            raise IllegalActionError("cannot undo: dice were rolled or hidden information was revealed since")
        self._states.pop()
        self._events.pop()
        return self._history.pop()

    def resign(self, side: str) -> list[Event]:
        """``side`` gives up the game, at any moment before it is over (whoever is to act): the other side wins.

        The same as ``apply(f"resign {side}", side=side)``: kept in the history as ``resign SIDE`` (a save replays
        to the same end), never undone, never among the legal actions. The state is otherwise left as it stood, so
        that a campaign carries over the force as it was when the side gave up.

        Raises:
            IllegalActionError: the game is over, ``side`` is not a side of it, or the game has not two sides.
        """
        return self.apply(Action(RESIGN, (side,)), side=side)

    def _resign(self, tr: Transition, side: str, by: str | None = None) -> None:
        """Apply a resignation to ``tr`` (its checks first: see :meth:`resign`)."""
        winner, reason = self._resignation(tr.state, side, by)
        st = tr.state
        st.outcome = Outcome(winner, reason)
        st.to_act = None
        tr.emit("resign", f"{reason}.", resigned=side, winner=winner)

    def _resignation(self, state: GameState, side: str, by: str | None = None) -> tuple[str, str]:
        """The winner and the outcome's reason when ``side`` resigns in ``state`` (asked by side ``by`` when
        given); IllegalActionError if it may not."""
        if by is not None and by != side:
            raise IllegalActionError(f"{by} cannot resign for {side}: a side resigns only for itself")
        if state.outcome is not None:
            raise IllegalActionError(f"the game is over: {state.outcome.reason}")
        names = {s.id: s.name for s in self.scenario.sides}
        if side not in names:
            raise IllegalActionError(f"cannot resign: no side {_shown(side)} (sides: {', '.join(names)})")
        others = [s for s in names if s != side]
        if len(others) != 1:
            raise IllegalActionError("cannot resign: a resignation needs a game of two sides")
        return others[0], f"{names[side]} resigned: {names[others[0]]} victory"

    @staticmethod
    def _resigning(given: object) -> str | None:
        """The side a history entry or an action resigns for, or None when it is no resignation."""
        if isinstance(given, Action):
            return str(given.args[0]) if given.verb == RESIGN and len(given.args) == 1 else None
        words = given.split() if isinstance(given, str) else []
        return words[1] if len(words) == 2 and words[0] == RESIGN else None

    # --- Map queries ------------------------------------------------------------------------------------

    def _hex(self, value: str | Hex) -> Hex:
        if isinstance(value, Hex):
            return value
        try:
            return self.board.parse(value)
        except ValueError as err:
            raise InvalidActionError(str(err)) from None

    def line_of_sight(self, a: str | Hex, b: str | Hex, side: str | None = None) -> LosResult:
        """Line of sight between two hexes under this ruleset's policy (terrain only)."""
        return line_of_sight(self.board, self._hex(a), self._hex(b), self.ruleset.los_policy(self._scoped(side)))

    def _unit(self, st: GameState, unit_id: str) -> Any:
        u = st.units.get(unit_id)
        if u is None or not u.is_on_map:
            raise InvalidActionError(f"no unit {unit_id!r} on the map")
        return u

    def reachable(self, unit_id: str, side: str | None = None) -> dict[str, float]:
        """``{hex label: cost}`` of every hex the unit can reach now (its own hex at 0)."""
        st = self._scoped(side)
        u = self._unit(st, unit_id)
        mp = self.ruleset.movement_points(st, u)
        found = reachable(self.board, u.hex, mp, self.ruleset.move_weight(st, u))
        return {self.board.label(h): r.cost for h, r in sorted(found.items())}

    def route(self, unit_id: str, goal: str | Hex, side: str | None = None) -> Route | None:
        """The cheapest route for the unit to ``goal`` within its movement points, or None."""
        st = self._scoped(side)
        u = self._unit(st, unit_id)
        mp = self.ruleset.movement_points(st, u)
        return route(self.board, u.hex, self._hex(goal), self.ruleset.move_weight(st, u), mp)


def new_game(scenario: Scenario, seed: int = 0, dice: DiceSource | None = None) -> Game:
    """Start a game of ``scenario`` with seeded dice (or ``dice``, e.g. ``ScriptedDice`` in tests)."""
    return Game(scenario, seed, dice)


def take_scenario_setup(game: Game) -> int:
    """Play the ruleset's default set-up verb (``Ruleset.default_setup_verb``) for as long as it is offered:
    every side takes the scenario file's set-up (the TUI's and ``planspiel simulate``'s default). Returns how
    many actions were played (0 for a ruleset without set-up decisions).

    >>> import engine
    >>> g = engine.new_game(engine.load_scenario("blitzkrieg1940", "stonne"), seed=1)
    >>> take_scenario_setup(g), g.state.phase
    (2, 'operations')
    """
    played = 0
    while (action := scenario_setup_action(game)) is not None:
        game.apply(action)
        played += 1
    return played


def scenario_setup_action(game: Game) -> Action | None:
    """The legal action that takes the scenario file's set-up for the side to act now, or None."""
    verb = game.ruleset.default_setup_verb
    if verb is None or game.to_act is None or not game.ruleset.setup_offered(game.state):
        return None
    return next((a for a in game.legal_actions() if a.verb == verb and not a.args), None)


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while a batch of actions is applied (a replay), then let it run as
    before (if it was on).

    Each action makes a new state of some hundreds of objects, and the collector's passes over them (and, every
    so often, over every object of the process) took a quarter to a third of a replay: 35 ms of the 190 ms of
    replaying Hannut seed 4. States are freed by reference counting; what is left for the collector waits until
    the batch is done (nothing in a Blitzkrieg replay, about four objects an action in Art of Tactic). The
    collector is process-wide: another thread's garbage cycles wait too, for as long as the batch takes (a replay
    of a whole game: a few hundred milliseconds).
    """
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def replay(scenario: Scenario, seed: int, history: Iterable[Action | str], dice: DiceSource | None = None) -> Game:
    """Rebuild a game by applying ``history`` from the start (with the cyclic collector paused, see
    :func:`collector_paused`).

    Raises:
        ReplayError: an action could not be read or applied (its position is counted from 1).
    """
    with collector_paused():
        game = Game(scenario, seed, dice)
        game._replay(history)
    return game
