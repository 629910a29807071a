"""Provides the Blitzkrieg 1940 state model: the records of ``GameState.data`` (:class:`Data`) and of
``Unit.status`` (:class:`Status`), and small accessors.

The records are :func:`engine.typed.record` classes: the engine's codec writes them as plain, msgpack-safe dicts
(``state.to_dict()``, saves), reads snapshots back strictly and clones them. A field whose value equals its
default is left out of the plain form, so a unit status with every flag off is ``{}``; a field without a default
is always written. Hex labels stay labels (``str``) where the rules keep labels (markers, objectives, zones).

:class:`Data` holds the formations (:class:`Formation`, 2.4), the chits (:class:`Chit`, 2.3), the cup (chit ids,
sorted: the draw is a die roll over this order), the carried chit (2.6), the last passer (2.7), the players'
hands (:class:`Player`, 2.4), the stack of pending decisions (``frames``: one record class per kind, a tagged
union told apart by ``kind``, see :data:`Frame`), the markers (``mines``: hex → owner; ``forts``), the objectives'
holders (``held_by``, 11), the scenario's victory and special tables and its schedule (plain data, set at the
set-up and only read: the clones of a state share them), the removed chits, the chit
set aside for the next turn (``next_first``), Hannut's kept turn-1 chits (``t1_kept``, 2.8) and, during the
set-up, the set-up plan (:class:`Deploy`, 12).

:class:`Status` holds a unit's markers: ``neutralised``, ``opp_used``, ``ooc`` (out of command), ``returned``
(return fire attempted this enemy activation), ``retreated`` (reaction retreat this enemy activation), ``acted``
(its action in the current activation is done), ``moving`` (the action under way, :class:`Moving`), ``column``
(7.2.1), ``independent`` (10.3, with ``independent_until`` and its ``group``), ``exited`` (left the map for
good), ``arrives`` and ``entry`` (a reinforcement not yet on the map, 12.2), ``carrying`` (an APC: the company
on board) and ``carried_by`` (that company: the APC, 12.1 [P]).
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar

from engine.state import GameState, Outcome, Unit
from engine.typed import field, record

if TYPE_CHECKING:
    from engine.actions import Action
    from engine.contract import ActionInfo
    from engine.los import LosPolicy
    from engine.rules import Transition

    from .data import Tables
    from .sight import SightRules

__all__ = [
    "CHIT_KINDS",
    "ActivationFrame",
    "ArrivalFrame",
    "CancelFrame",
    "Chit",
    "ChitFrame",
    "CloseCombatFrame",
    "Data",
    "Deploy",
    "DeployFrame",
    "DeployItem",
    "ExhaustedFrame",
    "Formation",
    "Frame",
    "GeneralClearFrame",
    "Moving",
    "NChoiceFrame",
    "PairLossFrame",
    "Player",
    "Rules",
    "SideFrame",
    "Status",
    "WindowFrame",
    "data",
    "formation",
    "formation_units",
    "frame",
    "new_data",
    "new_formation",
    "new_player",
    "opponent",
    "player",
    "push",
    "status",
]

CHIT_KINDS = ("formation", "replay", "general", "artillery", "stuka")


# --- Unit status -------------------------------------------------------------------------------------------------


@record
class Moving:
    """The action a unit has under way (6.1): its kind, its MP and what it has done so far."""

    action: str
    """``move``, ``mf`` (move-and-fire), ``fm`` (fire-and-move) or ``load`` (6.1 option 5)."""
    mp: int
    spent: float
    moved: int
    """Hexes entered."""
    column: bool
    """Moving in column along a road (7.2.1)."""
    fired: bool
    origin: str | None = field(default=None, metadata={"key": "from"})
    """The hex label it started from (written as ``from``)."""
    stack: list[str] | None = None
    """The units moving together with it (7.1 [P]), itself included."""


@record
class Status:
    """A unit's markers and flags (see the module's docstring)."""

    neutralised: bool = False
    opp_used: bool = False
    ooc: bool = False
    returned: bool = False
    retreated: bool = False
    acted: bool = False
    moving: Moving | None = None
    column: bool = False
    independent: bool = False
    independent_until: int | None = None
    group: str | None = None
    exited: bool = False
    arrives: int | None = None
    entry: list[str] | None = None
    carrying: str | None = None
    carried_by: str | None = None
    halftrack_icon: bool = False

    def clear(self, *names: str) -> None:
        """Take the markers ``names`` off (each field back to its default)."""
        for name in names:
            setattr(self, name, _STATUS_DEFAULTS[name])


_STATUS_DEFAULTS: dict[str, Any] = {f.name: f.default for f in dataclasses.fields(Status)}


# --- Formations, chits, players -----------------------------------------------------------------------------------


@record
class Formation:
    """A formation's record: side, name, HQ, formation factor, and the per-turn state of 2.4."""

    side: str
    name: str
    hq: str | None
    ff: int
    independent: bool
    acts: int
    normal_used: bool
    replay_used: bool
    skipped: bool
    exhausted: bool
    demoralised: bool
    steps_total: int
    steps_lost: int
    overrun: bool
    removed: bool
    leaves: int | None
    """The turn at whose end it leaves play (12.2), or None."""
    overrun_turn: int | None = None
    """The turn its HQ was overrun (3.2)."""


@record(frozen=True)
class Chit:
    """An activation chit (2.3): its kind and side, the turn it enters the cup; a formation chit's formation, an
    artillery chit's salvos. Set once at the set-up and never changed (frozen: the clones of a state share it)."""

    kind: str
    side: str
    turn: int
    formation: str | None = None
    salvos: tuple[str, ...] | None = None

    @property
    def fid(self) -> str:
        """The formation of a formation chit (ValueError for another kind)."""
        if self.formation is None:
            raise ValueError(f"a {self.kind} chit has no formation")
        return self.formation


@record
class Player:
    """A player's hand and piles (2.4)."""

    replays: list[str]
    general: str | None
    general_free: bool
    held: str | None
    activated: list[str]
    skipped: list[str]

    def spend_general(self) -> None:
        """The General in hand is spent: no General, none free, no chit held under it (5.5)."""
        self.held, self.general, self.general_free = None, None, False

    def empty_hand(self) -> None:
        """Replays, General and held chit are lost (2.1, 2.10)."""
        self.replays = []
        self.spend_general()


# --- The set-up plan (12) ----------------------------------------------------------------------------------------


@record
class DeployStep:
    """One set-up step of the scenario: the side and what it sets up."""

    side: str
    formations: list[str] = field(default_factory=list)
    markers: list[str] = field(default_factory=list)


@record
class Zone:
    """A set-up zone: who and what may set up in its hexes (12.1, 12.2)."""

    side: str | None
    formations: list[str]
    markers: list[str]
    rule: str
    stack_with_assigned: bool
    hexes: list[str]


@record
class DefaultSetup:
    """The scenario file's own set-up (what ``default`` takes)."""

    hex: dict[str, str]
    steps: dict[str, int]
    formation: dict[str, str]
    mounted: dict[str, str]
    markers: dict[str, list[str]]


@record
class Deploy:
    """The set-up plan while the players set up."""

    steps: list[DeployStep]
    zones: list[Zone]
    assign_to: dict[str, list[str]]
    default: DefaultSetup
    counts: dict[str, int]
    dissolved: list[str]


@record
class DeployItem:
    """One decision of a set-up step (``what``: loss, bcc, assign, mount, place or marker)."""

    what: str
    unit: str | None = None
    formation: str | None = None
    to: list[str] | None = None
    apc: str | None = None
    kind: str | None = None
    """A marker's kind (fortification, minefield)."""
    left: int | None = None


# --- Decision frames -----------------------------------------------------------------------------------------------


@record
class DeployFrame:
    """A set-up step (12): its decisions still to take."""

    kind: Literal["deploy"]
    side: str
    step: int
    todo: list[DeployItem]
    fresh: bool


@record
class ArrivalFrame:
    """An arriving independent unit joins a formation (12.2 [P])."""

    kind: Literal["arrival_assign"]
    side: str
    unit: str
    to: list[str]


@record
class SideFrame:
    """A decision that needs nothing but its side: Hannut's kept chits (2.8), a second Replay (5.3)."""

    kind: Literal["t1_keep", "t1", "replay_now"]
    side: str


@record
class CancelFrame:
    """The General's cancellation window (5.5 option 4) for ``chit``; ``then`` says what waits on it."""

    kind: Literal["cancel"]
    side: str
    chit: str
    then: str
    chit_frame: str | None = None
    formation: str | None = None


@record
class ChitFrame:
    """A drawn or played chit being resolved (2.7, 2.9)."""

    kind: Literal["chit"]
    side: str
    chit: str
    stage: str
    t1: bool
    outcome: str | None = None
    lapsed: bool = False
    combine_with: str | None = None


@record
class GeneralClearFrame:
    """The General removes markers (5.5 option 2)."""

    kind: Literal["general_clear"]
    side: str
    what: str
    left: int


@record
class ExhaustedFrame:
    """An exhausted formation of a combined activation tests or skips (5.4)."""

    kind: Literal["exhausted"]
    side: str
    formation: str


@record
class ActivationFrame:
    """An activation under way (2.5 step 6): the formations, how each was activated, the artillery chit."""

    kind: Literal["activation"]
    side: str
    formations: list[str]
    via: dict[str, str]
    art: str | None
    salvos: list[str] | None
    acted: list[str]
    moving: str | None
    ending: bool = False


@record
class WindowFrame:
    """A reaction window of the passive side (6.3.4)."""

    kind: Literal["window"]
    side: str
    trigger: str
    active: str | None
    hexes: list[str]
    fired_at: str | None
    reacted: list[str]
    step: int
    group: list[str] | None = None
    hurt: list[str] | None = None
    """The units of the passive side the attack that opened the window had an effect on (8.3; for the standing
    reaction orders of a client: their retreats are the ones worth asking about)."""


@record
class NChoiceFrame:
    """The owner accepts an N result or takes a step loss instead (8.3)."""

    kind: Literal["n_choice"]
    side: str
    unit: str
    cause: str


@record
class PairLossFrame:
    """The owner of a mounted pair picks the half that loses the step (12.1)."""

    kind: Literal["pair_loss"]
    side: str
    units: list[str]
    cause: str


@record
class CloseCombatFrame:
    """A close combat (9.1): the forces, the round and stage, the shots and results pending."""

    kind: Literal["cc"]
    side: str
    hex: str
    attacker_side: str
    defender_side: str
    attackers: list[str]
    defenders: list[str]
    hqs: list[str]
    force: list[str]
    pre_neutralised: list[str]
    round: int
    step: int
    stage: str
    fired: list[str]
    shots: list[tuple[str, str]]
    round_shots: int
    n: list[str]
    hit: list[str]
    retreated_to: list[str]
    winner: str | None
    origin: str = field(metadata={"key": "from"})
    hurt: list[str] | None = None
    """The units the fire of this round had an effect on (8.3; for the standing reaction orders of a client)."""
    """The hex the attackers came from (written as ``from``)."""


Frame = (
    DeployFrame
    | ArrivalFrame
    | SideFrame
    | CancelFrame
    | ChitFrame
    | GeneralClearFrame
    | ExhaustedFrame
    | ActivationFrame
    | WindowFrame
    | NChoiceFrame
    | PairLossFrame
    | CloseCombatFrame
)
"""A pending decision: one record class per kind, told apart by ``kind``."""


# --- The state -----------------------------------------------------------------------------------------------------


@record
class Data:
    """``GameState.data`` of a Blitzkrieg game (see the module's docstring)."""

    scenario: str
    turns: int
    formations: dict[str, Formation]
    chits: dict[str, Chit]
    cup: list[str]
    carried: str | None
    next_first: str | None
    pass_owner: str | None
    players: dict[str, Player]
    frames: list[Frame]
    removed_chits: list[str]
    mines: dict[str, str]
    forts: list[str]
    held_by: dict[str, str]
    victory: dict[str, Any] = field(metadata={"shared": True})
    special: dict[str, Any] = field(metadata={"shared": True})
    schedule: list[Any] = field(metadata={"shared": True})
    edges: dict[str, str | None]
    t1_kept: list[str] | None = None
    deploy: Deploy | None = None


def new_data(
    *,
    scenario: str = "test",
    turns: int = 1,
    formations: dict[str, Formation] | None = None,
    chits: dict[str, Chit] | None = None,
    players: dict[str, Player] | None = None,
    mines: dict[str, str] | None = None,
    forts: list[str] | None = None,
    held_by: dict[str, str] | None = None,
    victory: dict[str, Any] | None = None,
    special: dict[str, Any] | None = None,
    edges: dict[str, str | None] | None = None,
) -> Data:
    """A :class:`Data` with empty piles and no pending decision (for the set-up and for tests)."""
    return Data(
        scenario,
        turns,
        formations or {},
        chits or {},
        [],
        None,
        None,
        None,
        players or {},
        [],
        [],
        mines or {},
        forts or [],
        held_by or {},
        victory or {},
        special or {},
        [],
        edges or {},
    )


def new_player() -> Player:
    """A player's record at the start of a scenario: empty hand and piles."""
    return Player([], None, False, None, [], [])


class Rules(Protocol):
    """What the rules modules need of the ruleset object (:class:`.ruleset.Blitzkrieg1940`): its tables and the
    hooks of the sequence of play. The modules below the ruleset class name this protocol, never the class, so
    that none of them imports the module on top."""

    @property
    def tables(self) -> Tables: ...

    @property
    def sight_rules(self) -> SightRules: ...

    def los_policy(self, state: GameState) -> LosPolicy: ...

    def action_info(self, state: GameState, action: Action) -> ActionInfo: ...

    def turns(self, st: GameState) -> int: ...

    def recovery_first_side(self, st: GameState) -> str: ...

    def turn_start_events(self, tr: Transition) -> None: ...

    def turn_end_events(self, tr: Transition) -> None: ...

    def command_check(self, tr: Transition, units: list[Unit] | None) -> None: ...

    def demoralised_retreat(self, tr: Transition, fid: str) -> None: ...

    def activation_effects(self, tr: Transition, fid: str) -> None: ...

    def victory_check(self, st: GameState, final: bool) -> Outcome | None: ...


def new_formation(
    side: str, name: str, hq: str | None, ff: int, independent: bool = False, leaves: int | None = None
) -> Formation:
    """A formation record at the start of a scenario."""
    return Formation(side, name, hq, ff, independent, 0, False, False, False, False, False, 0, 0, False, False, leaves)


def data(st: GameState) -> Data:
    """The state's data as its record."""
    d: Data = st.data
    return d


def status(u: Unit) -> Status:
    """The unit's status as its record."""
    s: Status = u.status
    return s


def formation(st: GameState, fid: str) -> Formation:
    """The formation record ``fid``."""
    return data(st).formations[fid]


def formation_units(st: GameState, fid: str, on_map: bool = True, hq: bool = True) -> list[Unit]:
    """Units of formation ``fid`` (attached independents included), in id order."""
    hq_id = formation(st, fid).hq
    return [u for u in st.iter_units(on_map=on_map) if u.formation == fid and (hq or u.id != hq_id)]


def player(st: GameState, side: str) -> Player:
    """The per-player record of ``side``."""
    return data(st).players[side]


def opponent(st: GameState, side: str) -> str:
    """The other side."""
    return next(s for s in st.sides if s != side)


def frame(st: GameState) -> Frame | None:
    """The pending decision on top of the stack, or None."""
    frames = data(st).frames
    return frames[-1] if frames else None


_F = TypeVar("_F", bound=Frame)


def push(st: GameState, f: _F) -> _F:
    """Push a decision frame and make its side the side to act."""
    data(st).frames.append(f)
    st.to_act = f.side
    return f
