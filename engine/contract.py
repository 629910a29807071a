"""Provides the ruleset contract: what the engine says about an action and about the decision it waits for.

A client (the TUI, the AI, a network peer) never reads a verb: it asks the engine what a legal action *means*
(:class:`ActionInfo`: its roles, the unit that acts, the units and hexes it concerns, its path) and what the game
waits for (:class:`Waiting`: who decides, in which interaction mode, and any question asked in the middle of a
resolution). A ruleset describes its actions with typed notation classes (:mod:`engine.notation`), whose
arguments say which unit acts, which units are aimed at and which hexes are named; :class:`ActionInfo` is derived
from them, so a new ruleset needs no code in the clients.

>>> info = ActionInfo("fire", frozenset({Role.ATTACK, Role.CHANCE, Role.ORDER}), unit="ger-1", targets=("fra-2",))
>>> info.has(Role.ATTACK), info.is_direct_fire
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from .actions import Action
from .hexgrid import Hex

__all__ = [
    "ACT",
    "CHOOSE",
    "MODES",
    "PLAN",
    "ActionInfo",
    "Question",
    "Role",
    "Switch",
    "Waiting",
]


class Role(StrEnum):
    """What an action does, as far as a client needs to know. An action has one or more roles."""

    MOVE = "move"
    """Moves the acting unit (along a path, or to a destination)."""
    ATTACK = "attack"
    """Aims fire or combat at enemy units or at a hex."""
    CHANCE = "chance"
    """Resolved with the game's dice: exact odds may be asked for (``Game.odds``)."""
    PASS = "pass"
    """Gives up a chance to act (an AI plays it only when nothing better is left)."""
    PLACE = "place"
    """Puts a unit or a marker onto the map (set-up, an arrival)."""
    ORDER = "order"
    """An order for one unit, given with that unit selected (a unit's action in an activation, a written order)."""
    REACT = "react"
    """An answer in the other side's activation (opportunity or return fire, a retreat, a counter-move)."""
    DECIDE = "decide"
    """A choice among options the game asks for (a chit's use, a combat result, a set-up choice)."""
    RETREAT = "retreat"
    """Gives ground."""
    STOP = "stop"
    """Ends the acting unit's move or action where it stands."""
    END = "end"
    """Ends the side's activation, turn or planning."""
    HOLD = "hold"
    """Leaves the position as it is (declining a reaction, holding a chit or a position)."""
    CANCEL = "cancel"
    """Takes back an earlier decision that is not final yet (an order written this planning)."""


ACT = "act"
"""Interaction mode: select a unit on the map and act with it; other decisions come up as lists."""
PLAN = "plan"
"""Interaction mode: write a secret order per unit (targets on the map, paths plotted hex by hex), then commit."""
CHOOSE = "choose"
"""Interaction mode: pick one of the legal actions from a list."""
MODES = (ACT, PLAN, CHOOSE)
"""The interaction modes clients know. A ruleset may declare others (facing, templates, army building); a client
that does not know a mode falls back to :data:`CHOOSE`, which every decision supports."""


@dataclass(frozen=True, slots=True)
class ActionInfo:
    """What a legal action means, from the view it was asked in (never more than that side may know)."""

    verb: str
    """The notation verb: a key to group actions by and to look up help and names, never a meaning."""
    roles: frozenset[Role]
    unit: str | None = None
    """The unit that acts (of the deciding side), if any."""
    units: tuple[str, ...] = ()
    """Other units of the deciding side that take part (a passenger, an observer, a partner)."""
    targets: tuple[str, ...] = ()
    """Enemy units aimed at."""
    hexes: tuple[Hex, ...] = ()
    """Every hex the action points at, in notation order: hexes named, the path, and the hexes of the units
    named after the acting one."""
    path: tuple[Hex, ...] = ()
    """The hexes a movement goes through, in order (empty if none is written)."""
    path_start: int | None = None
    """Where a written path begins among the notation's arguments (None: the action takes no path)."""
    destination: Hex | None = None
    """Where the acting unit ends up, if the action says (a move's last hex, a retreat's hex, a placement)."""
    secondary: bool = False
    """Offered on the map only when nothing else fits the hex (orders for several units at once)."""

    def has(self, *roles: Role) -> bool:
        """True if the action has every role given."""
        return all(r in self.roles for r in roles)

    def any(self, *roles: Role) -> bool:
        """True if the action has at least one of the roles given."""
        return any(r in self.roles for r in roles)

    @property
    def is_direct_fire(self) -> bool:
        """Fire or combat aimed at enemy units without moving (its odds are shown before it is confirmed)."""
        return Role.ATTACK in self.roles and bool(self.targets) and Role.MOVE not in self.roles

    @property
    def is_assault(self) -> bool:
        """Moving into combat (close combat, an assault, an overrun)."""
        return Role.ATTACK in self.roles and Role.MOVE in self.roles

    @property
    def is_barrage(self) -> bool:
        """Fire at a hex by no unit on the map (artillery off the map, aircraft)."""
        return Role.ATTACK in self.roles and self.unit is None and not self.targets and bool(self.hexes)


@dataclass(frozen=True, slots=True)
class Question:
    """A decision the game asks in the middle of a resolution (for example during a round's execution)."""

    side: str
    text: str
    options: tuple[tuple[Action, str], ...]
    """The legal answers with their wording, the preset (what happens if nobody asks) first."""
    rule: str = ""
    serial: int = 0
    """How many such questions were answered before this one in the resolution: a client keys its state by it."""


@dataclass(frozen=True, slots=True)
class Switch:
    """A standing setting of a side that it may change while it decides (free, and secret if the ruleset says)."""

    name: str
    """A few words (``decide during execution``)."""
    help: str
    """What it does, with the rule."""
    on: bool
    toggle: Action
    """The action that switches it (from on to off, or off to on)."""


@dataclass(frozen=True, slots=True)
class Waiting:
    """What the game waits for, as one side's view shows it."""

    side: str | None
    """The side that decides now (None: the game is over)."""
    mode: str = CHOOSE
    """How the decision is entered (:data:`ACT`, :data:`PLAN`, :data:`CHOOSE`, or a ruleset's own)."""
    question: Question | None = None
    secret: bool = False
    """The decision is secret from the other side (two players at one screen change seats behind a hand-off)."""
    switches: tuple[Switch, ...] = field(default=())
    """The deciding side's standing settings (for its own view only)."""
    react_to: tuple[str, ...] = field(default=())
    """In a reaction window: the enemy units whose move or fire opened it (a client's standing reaction orders
    weigh a retreat by them)."""
    struck: tuple[str, ...] = field(default=())
    """In a reaction window: the deciding side's units just attacked (a retreat of theirs is worth asking)."""
    hurt: tuple[str, ...] | None = None
    """In a reaction window: those of :attr:`struck` in a bad way after the attack (the ruleset's reading, e.g.
    neutralised or with a step lost), whose retreat the default standing orders ask about; None: the ruleset does
    not say (every unit struck counts)."""
    usual: Action | None = None
    """The answer most players give to this decision, where the ruleset names one (keep a result rather than
    pay for it, ...): a side's standing orders may give it by themselves, and say so; None: always asked."""
