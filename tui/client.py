"""Provides the game client interface: what one side's screens may ask of a game, and the in-process client.

Screens never touch a game's full state: they hold a :class:`GameClient` for one side and read its view,
its legal actions and side-scoped queries (DESIGN §9). :class:`LocalClient` calls the engine in the same
process; a network client will implement the same protocol later.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from engine import Action, ActionInfo, Event, Game, GameState, Hex, LosResult, Odds, Outcome, Waiting
from engine.errors import IllegalActionError
from engine.pathing import Route
from engine.presentation import GameInfo, SideInfo
from engine.rules import PUBLIC

__all__ = ["Change", "GameClient", "GameInfo", "LocalClient", "SideInfo"]


@dataclass(frozen=True, slots=True)
class Change:
    """What a client reports after it changed the game: who acted, what, and the events it caused."""

    side: str
    action: Action | None
    """The action applied, or None for an undo."""
    events: tuple[Event, ...]
    undone: Action | None = None


@runtime_checkable
class GameClient(Protocol):
    """One side's connection to a game (DESIGN §9): its view, its decisions and side-scoped queries."""

    @property
    def side(self) -> str:
        """The side this client plays."""
        ...

    @property
    def info(self) -> GameInfo:
        """Ruleset, scenario, sides and map."""
        ...

    @property
    def to_act(self) -> str | None:
        """The side that must decide now; None when the game is over."""
        ...

    @property
    def outcome(self) -> Outcome | None:
        """None while the game goes on."""
        ...

    @property
    def actions_played(self) -> int:
        """How many actions the game's history holds."""
        ...

    def view(self) -> GameState:
        """The state as this side may see it."""
        ...

    def legal_actions(self) -> list[Action]:
        """This side's legal actions now (empty when it is not to act)."""
        ...

    def apply(self, action: Action | str) -> list[Event]:
        """Play an action for this side; returns the events this side may see.

        Raises:
            InvalidActionError: malformed notation.
            IllegalActionError: not legal now; the message cites the rule.
        """
        ...

    def describe(self, action: Action) -> str:
        """The action as notation."""
        ...

    def parse(self, text: str) -> Action:
        """Notation read into an action (no legality check)."""
        ...

    def explain(self, action: Action) -> str:
        """A sentence saying what the action does."""
        ...

    def check(self, action: Action) -> None:
        """Raise the engine's refusal (citing its rule) if ``action`` is not legal for this side now."""
        ...

    def odds(self, action: Action) -> Odds | None:
        """Exact odds of a chance action, from this side's view."""
        ...

    def action_info(self, action: Action) -> ActionInfo:
        """What an action means (roles, the unit that acts, the units and hexes it concerns), from this side's
        view."""
        ...

    def waiting(self) -> Waiting:
        """What the game waits for, from this side's view: who decides, the interaction mode, a question."""
        ...

    def line_of_sight(self, a: str, b: str) -> LosResult:
        """Line of sight between two hexes (labels)."""
        ...

    def reachable(self, unit_id: str) -> dict[str, float]:
        """``{hex label: cost}`` the unit can reach now."""
        ...

    def route(self, unit_id: str, goal: str) -> Route | None:
        """The cheapest route for the unit to ``goal``."""
        ...

    def overlays(self, unit_id: str | None = None) -> dict[str, set[Hex]]:
        """Hexes the ruleset marks for this side (command ranges, out of command, a barrage...): name → hexes."""
        ...

    @property
    def event_count(self) -> int:
        """How many events the game has had (an index for :meth:`events_since`)."""
        ...

    def events_since(self, index: int) -> list[Event]:
        """Events after the first ``index``, only those this side may see."""
        ...

    @property
    def can_undo(self) -> bool:
        """True if this side may take back the last action."""
        ...

    def undo(self) -> Action:
        """Take back this side's last action."""
        ...

    def resign(self) -> list[Event]:
        """This side gives up the game, whoever is to act: the other side wins (``Game.resign``); returns the
        events this side may see.

        Raises:
            IllegalActionError: the game is over.
        """
        ...


AUTO = "auto:"
"""Prefix of an actor entry for an action the client played for a side (``"auto:french"``)."""


class LocalClient:
    """A :class:`GameClient` that calls the engine in this process.

    Args:
        game: the game.
        side: the side this client plays.
        actors: shared record of which side played each action of this session (for undo); one list per game.
        on_change: called after this client applied or undid an action (autosave, records).
    """

    def __init__(
        self,
        game: Game,
        side: str,
        *,
        actors: list[str | None] | None = None,
        on_change: Callable[[Change], None] | None = None,
    ) -> None:
        if side not in game.state.sides and side != PUBLIC:
            raise ValueError(f"unknown side {side!r} (sides: {', '.join(game.state.sides)})")
        self._game = game
        self._side = side
        self._actors: list[str | None] = actors if actors is not None else []
        self._on_change = on_change
        self.undo_allowed = True
        """False in a game at a server table: the other player has seen the action."""
        sc = game.scenario
        self._info = GameInfo(
            ruleset=game.ruleset.id,
            ruleset_title=game.ruleset.title,
            scenario=sc.id,
            title=sc.title,
            turns=sc.turns,
            sides=tuple(SideInfo(s.id, s.name) for s in sc.sides),
            board=game.board,
            unit_types=game.ruleset.unit_types,
            briefing=str(sc.raw.get("briefing", "")).strip(),
            verbs=dict(game.ruleset.verbs),
            modes=game.ruleset.modes,
            forms={verb: tuple(f.slots() for f in forms) for verb, forms in game.ruleset.notations.items()},
        )

    def __repr__(self) -> str:
        return f"<LocalClient {self._info.ruleset}/{self._info.scenario} side={self._side}>"

    # --- The protocol ---------------------------------------------------------------------------------

    @property
    def side(self) -> str:
        return self._side

    @property
    def info(self) -> GameInfo:
        return self._info

    @property
    def to_act(self) -> str | None:
        return self._game.to_act

    @property
    def outcome(self) -> Outcome | None:
        return self._game.outcome

    @property
    def actions_played(self) -> int:
        return len(self._game.history)

    def view(self) -> GameState:
        return self._game.view(self._side)

    def legal_actions(self) -> list[Action]:
        return self._game.legal_actions(side=self._side)

    def apply(self, action: Action | str, *, auto: bool = False) -> list[Event]:
        """Apply an action of this side; ``auto`` marks one the client played for the player (the scenario's
        set-up), which an undo of the player's previous action takes back with it."""
        if isinstance(action, str):
            action = self._game.parse(action, side=self._side)
        before = len(self._game.events)
        self._game.apply(action, side=self._side)
        self._actors.append(f"{AUTO}{self._side}" if auto else self._side)
        events = self._game.events_since(before, self._side)
        if self._on_change is not None:
            self._on_change(Change(self._side, action, tuple(events)))
        return events

    def describe(self, action: Action) -> str:
        return self._game.describe(action, side=self._side)

    def parse(self, text: str) -> Action:
        return self._game.parse(text, side=self._side)

    def explain(self, action: Action) -> str:
        return self._game.explain(action, side=self._side)

    def check(self, action: Action) -> None:
        """Raise the engine's rule-cited refusal if ``action`` is not legal for this side now; change nothing.

        Checked against this side's view (``Ruleset.check``): an order plotted hex by hex is judged as it grows.
        """
        game = self._game
        if game.to_act != self._side:
            raise IllegalActionError(f"it is not {self._side}'s decision: {game.to_act} is to act")
        game.ruleset.check(game.view(self._side), action)

    def odds(self, action: Action) -> Odds | None:
        return self._game.odds(action, side=self._side)

    def action_info(self, action: Action) -> ActionInfo:
        return self._game.action_info(action, side=self._side)

    def waiting(self) -> Waiting:
        return self._game.waiting(side=self._side)

    def line_of_sight(self, a: str, b: str) -> LosResult:
        return self._game.line_of_sight(a, b, side=self._side)

    def reachable(self, unit_id: str) -> dict[str, float]:
        return self._game.reachable(unit_id, side=self._side)

    def route(self, unit_id: str, goal: str) -> Route | None:
        return self._game.route(unit_id, goal, side=self._side)

    def overlays(self, unit_id: str | None = None) -> dict[str, set[Hex]]:
        game = self._game
        return game.ruleset.overlays(game.view(self._side), self._side, unit_id, game.history)

    @property
    def event_count(self) -> int:
        return len(self._game.events)

    def events_since(self, index: int) -> list[Event]:
        return self._game.events_since(index, self._side)

    def _auto_tail(self) -> int:
        """How many of the last actions the client played automatically."""
        n = 0
        while n < len(self._actors) and str(self._actors[-1 - n]).startswith(AUTO):
            n += 1
        return n

    @property
    def can_undo(self) -> bool:
        if not self.undo_allowed:
            return False
        n = self._auto_tail()
        return self._game.can_undo and len(self._actors) > n and self._actors[-1 - n] == self._side

    def undo(self) -> Action:
        if not self.undo_allowed:
            raise IllegalActionError("cannot undo at a server table: the other player has seen the action")
        if not self.can_undo:
            if self._game.can_undo:
                raise IllegalActionError("cannot undo: the last action was not yours")
            self._game.undo()  # raises with the engine's reason
        for _ in range(self._auto_tail()):
            self._game.undo()  # what the client played after the player's action goes too
            self._actors.pop()
        action = self._game.undo()
        self._actors.pop()
        if self._on_change is not None:
            self._on_change(Change(self._side, None, (), undone=action))
        return action

    def resign(self) -> list[Event]:
        before = len(self._game.events)
        self._game.resign(self._side)
        self._actors.append(self._side)
        events = self._game.events_since(before, self._side)
        if self._on_change is not None:
            self._on_change(Change(self._side, self._game.history[-1], tuple(events)))
        return events
