"""Provides the records of the Execution Phase's cursor (15.2 item 4): the cursor itself, the decision it waits for,
a fire test worked out before its dice, and one frame class per part of a step that can wait for a decision.

A frame holds what its handler (``execution/*.py``) needs to go on: the part of its step it is in (``stage``), the
units left to do and what the step has worked out so far. Frames are told apart by their ``kind`` (an
:mod:`engine.typed` tagged union), so the cursor is written and read back like any other state.
"""

from __future__ import annotations

from typing import Literal

from engine.hexgrid import Hex
from engine.typed import field, record

from .records import Ongoing

__all__ = [
    "AirCombat",
    "AirStep",
    "AmbushStep",
    "AssaultStep",
    "Attack",
    "CloseCombat",
    "Cursor",
    "Decision",
    "FireStep",
    "Flight",
    "FlyTogether",
    "Frame",
    "Hit",
    "HitEach",
    "HitItem",
    "Losses",
    "Meet",
    "MineAttack",
    "MineEntry",
    "Movement",
    "Shot",
    "SmokeStep",
    "StatusStep",
]


@record
class Attack:
    """One fire test, worked out before the dice are rolled: the firer (or ``mines``), the target (a unit id, or
    the label of a structure's hex), the dice, the number each must not exceed, the roll's purpose and the
    modifiers that made the dice (value, reason)."""

    firer: str
    target: str
    dice: int
    accuracy: int
    purpose: str
    modifiers: list[tuple[int, str]] = field(default_factory=list)


@record
class Decision:
    """A decision execution waits for (15.2): the deciding side, what is decided (``defend``, ``close_combat``
    ...), the question, the rule that gives the choice and the options (key, label), the preset's first."""

    side: str
    kind: str
    question: str
    rule: str
    options: list[tuple[str, str]]


# --- Hits and losses (6.3, 4.6, 9.16) -----------------------------------------------------------------------------


@record
class Hit:
    """Hits on a unit: they lower its defence first, the rest are losses (6.1 steps 8–9, 6.3)."""

    unit: str
    hits: int
    cause: str
    role: str | None = None
    """``assaulter`` or ``defender`` in close combat (7.5)."""
    kind: Literal["hit"] = "hit"


@record
class Losses:
    """Losses crossed off a unit, then its cargo (9.16), a towed unit (9.9) and its passengers (4.6)."""

    unit: str
    n: int
    why: str
    stage: Literal["start", "cargo", "towed", "riders", "end"] = "start"
    before: int = 0
    """The unit's size before the losses."""
    everyone: list[str] = field(default_factory=list)
    riders: list[str] = field(default_factory=list)
    left: int = 0
    """Passenger losses left to share."""
    turn: int = 0
    """The passenger whose turn it is (preset: one at a time, round and round)."""
    kind: Literal["losses"] = "losses"


@record
class HitItem:
    """The hits of one unit in a step: how many, the cause, its close-combat role."""

    unit: str
    hits: int
    cause: str
    role: str | None = None


@record
class HitEach:
    """A step's hits applied one unit after the other, each followed by ``then`` (``execution.losses``)."""

    items: list[HitItem]
    then: Literal["lost", "test", "mark", "aircraft"]
    why: str = ""
    """The bravery test's reason (``test``)."""
    at: int = 0
    before: int = -1
    """The size of the unit being hit before its hits (-1: not hit yet)."""
    out: list[str] = field(default_factory=list)
    kind: Literal["hit_each"] = "hit_each"


@record
class MineEntry:
    """A unit entering a minefield (9.7)."""

    unit: str
    kind: Literal["mine_entry"] = "mine_entry"


@record
class MineAttack:
    """Mines exploding under a unit (9.7)."""

    unit: str
    hex: Hex
    before: int = -1
    kind: Literal["mine_attack"] = "mine_attack"


# --- Steps 2 and 3 (fire, smoke) ----------------------------------------------------------------------------------


@record
class Shot:
    """A planned attack and the other units of its group (6.6)."""

    attack: Attack
    extra: list[str] = field(default_factory=list)


@record
class FireStep:
    """Step 2 or 3's fire: the attacks planned, the one being rolled (its hits, misses, group fire's pool and
    the units left of its group), the hits so far."""

    order: Literal["suppress", "fire"]
    stage: Literal["plan", "roll", "adjust", "group", "structures", "after"] = "plan"
    shots: list[Shot] = field(default_factory=list)
    structure_shots: list[Attack] = field(default_factory=list)
    structure_hits: dict[str, int] = field(default_factory=dict)
    tested: list[str] = field(default_factory=list)
    """Targets of suppression fire: they test bravery (3.7)."""
    at: int = 0
    got: int = 0
    misses: int = 0
    pool: int = 0
    extra: list[str] = field(default_factory=list)
    hits: dict[str, int] = field(default_factory=dict)
    kind: Literal["fire_step"] = "fire_step"


@record
class SmokeStep:
    """Step 3's smoke: the units whose shells are still to land and the hexes smoked."""

    started: bool = False
    todo: list[str] = field(default_factory=list)
    placed: list[Hex] = field(default_factory=list)
    kind: Literal["smoke"] = "smoke"


# --- Step 5 (air missions) ----------------------------------------------------------------------------------------


@record
class AirCombat:
    """An air combat (9.14): the aircraft in the order they fire, the attackers among them, its hex, the round,
    the side choosing first and the choices made so far this round."""

    order: list[str]
    attackers: list[str]
    label: str
    announced: bool = False
    round: int = 0
    first: str | None = None
    picks: list[str] = field(default_factory=list)
    kind: Literal["air_combat"] = "air_combat"


@record
class Meet:
    """Aircraft flying at one target."""

    target: str
    units: list[str]


@record
class Flight:
    """A flight of step 5 (9.19 step 4): its mission, its aircraft (the lead first), its path, its goal."""

    mission: Literal["patrol", "recon", "strike", "drop", "intercept"]
    units: list[str]
    path: list[Hex]
    hex: Hex | None = None
    radius: int = 0
    rounds: int = 0
    target: str | None = None
    done: bool = False


@record
class FlyTogether:
    """The flights of step 5 advancing together (9.19 step 4): the flight step, where each lead is and was, the
    flak that fired at each aircraft, the patrols that fought each strike, the interceptors that met their
    target."""

    flights: list[Flight]
    k: int = 0
    stage: Literal["advance", "zones", "meets", "last"] = "advance"
    at: int = 0
    shot: dict[str, set[str]] = field(default_factory=dict)
    hunted: set[tuple[str, str]] = field(default_factory=set)
    where: dict[str, Hex] = field(default_factory=dict)
    before: dict[str, Hex] = field(default_factory=dict)
    meets: list[Meet] = field(default_factory=list)
    kind: Literal["fly_together"] = "fly_together"


@record
class AirStep:
    """Step 5: the intercepts waiting for their target, the groups flying at aircraft already over a target, the
    units left to look at."""

    stage: Literal["start", "old", "hunt", "flown", "overlap"] = "start"
    pending: list[str] = field(default_factory=list)
    targets: dict[str, str] = field(default_factory=dict)
    entries: dict[str, Hex] = field(default_factory=dict)
    groups: list[Meet] = field(default_factory=list)
    at: int = 0
    todo: list[str] = field(default_factory=list)
    kind: Literal["air_step"] = "air_step"


# --- Step 6 (assault) ----------------------------------------------------------------------------------------------


@record
class AssaultStep:
    """Step 6 after the landings: the strikes' bombed units, the assaulters' routes and targets, the movement
    sub-step (where units stood, where movers go, those left to move), the combat hexes left."""

    stage: Literal["strikes", "bombed", "move", "combat"] = "strikes"
    bombed: list[str] = field(default_factory=list)
    movers: dict[str, list[Hex]] = field(default_factory=dict)
    assaulting: dict[str, str] = field(default_factory=dict)
    stopped: set[str] = field(default_factory=set)
    arrived: dict[str, Hex] = field(default_factory=dict)
    """Assaulter → the hex it came from into the combat hex."""
    k: int = 0
    snap: dict[str, Hex | None] = field(default_factory=dict)
    nxt: dict[str, Hex] = field(default_factory=dict)
    done: list[str] = field(default_factory=list)
    queue: list[tuple[str, Hex]] = field(default_factory=list)
    combat: list[Hex] = field(default_factory=list)
    kind: Literal["assault_step"] = "assault_step"


@record
class CloseCombat:
    """A close combat (7) in one hex: the units there, who assaults whom, who arrived, who is left to pick a
    target, the shots."""

    hex: Hex
    here: list[str]
    assaulting: dict[str, str]
    arrived: list[str]
    stage: Literal["start", "targets", "end"] = "start"
    todo: list[str] = field(default_factory=list)
    shots: list[tuple[str, str]] = field(default_factory=list)
    kind: Literal["close_combat"] = "close_combat"


# --- Steps 8, 10, 12 -----------------------------------------------------------------------------------------------


@record
class AmbushStep:
    """Step 8: whether the ambushers have fired."""

    fired: bool = False
    kind: Literal["ambush_step"] = "ambush_step"


@record
class Movement:
    """Step 10: the paths left, the firing hexes of fire on the move, the movers stopped, where they started,
    the sub-step, who entered a hex in it, the units left to look at, the shots ready."""

    stage: Literal["mines", "fire", "fired", "move", "mined", "defend", "defended", "next"] = "mines"
    paths: dict[str, list[Hex]] = field(default_factory=dict)
    firing: dict[str, Hex] = field(default_factory=dict)
    stopped: set[str] = field(default_factory=set)
    started: dict[str, Hex | None] = field(default_factory=dict)
    k: int = 0
    entered: list[str] = field(default_factory=list)
    todo: list[str] = field(default_factory=list)
    ready: list[str] = field(default_factory=list)
    attacks: list[Attack] = field(default_factory=list)
    kind: Literal["movement"] = "movement"


@record
class StatusStep:
    """Step 12's time boxes: the units left, the order completing (taken off the unit) and its part."""

    todo: list[str]
    completing: Ongoing | None = None
    stage: Literal["start", "amount"] = "start"
    kind: Literal["status_step"] = "status_step"


Frame = (
    Hit | Losses | HitEach | MineEntry | MineAttack | FireStep | SmokeStep | AirCombat | FlyTogether | AirStep
    | AssaultStep | CloseCombat | AmbushStep | Movement | StatusStep
)  # fmt: skip
"""A frame of the Execution Phase."""


@record
class Cursor:
    """Where the Execution Phase stands (15.2 item 4): the step (1–12), the frames of what is left of it (the
    running one last), the decision it waits for, the answer given to it (taken by the question it answers), how
    many were answered this round, and what the last finished frame handed back."""

    step: int = 0
    frames: list[Frame] = field(default_factory=list)
    pending: Decision | None = None
    answer: str | None = None
    asked: str | None = None
    answered: int = 0
    returned: list[str] = field(default_factory=list)
