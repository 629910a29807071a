"""Provides the typed state of Art of Tactic: a unit's status, the orders on its card, and the parts of the game's
data (structures, minefields, victory conditions, the set-up); the data itself is :class:`~.gamedata.AotData`.

The records are :mod:`engine.typed` records, so the engine's one codec copies them, writes them as plain data and
reads them back strictly. The rules read and write them through :func:`status` and :func:`.gamedata.data`, so that
mypy checks every field they use. Hexes are :class:`~engine.hexgrid.Hex` (written as their labels); a field whose value
equals its default is left out of the plain form, so a unit with no marker on its card writes only its ammunition
and facing.
"""

from __future__ import annotations

from typing import Literal

from engine.hexgrid import Hex
from engine.state import Unit
from engine.typed import field, record

from .data import MineKind, OrderKind

__all__ = [
    "AirMission",
    "AmbushZone",
    "AotStatus",
    "Bridge",
    "DefaultForce",
    "DefaultUnit",
    "DefendZone",
    "Dugout",
    "Fort",
    "Minefield",
    "Ongoing",
    "Order",
    "PurchaseRules",
    "Setup",
    "Special",
    "Structures",
    "Victory",
    "status",
]

Role = Literal["assaulter", "defender"]
"""A unit's role in close combat (7.5)."""
FortKind = Literal["trench", "dugout", "wire", "teeth", "minefield"]
"""A fortification of ``[[structures]]`` (9.18) or a purchase (11.6); a scenario's minefields (9.6) too."""


# --- Orders (2.3, 3) ------------------------------------------------------------------------------------------


@record(frozen=True)
class Order:
    """An order written on a unit's card (2.3) and, once revealed, the order being carried out (2.4).

    ``kind`` is the order's box on the card (``data.ORDER_KINDS``); the other fields are those of its notation that
    the order has (a target, a path, a hex ...); execution adds ``continued`` (a time-box order going on, 2.7),
    ``withdrawal`` (a bound unit's move out of close combat, 7.8) and ``size`` (an aircraft's size at take-off, for
    the losses of its cargo or paratroopers, 9.15.4, 9.15.6). Frozen: the clones of a state share their orders,
    and execution replaces an order it changes (``dataclasses.replace``)."""

    kind: OrderKind
    notation: str
    target: str | None = None
    """The unit aimed at (fire, suppression, assault, fire on the move, intercept)."""
    structure: Hex | None = None
    """The hex of the structure fired at (9.18.8)."""
    hex: Hex | None = None
    second: Hex | None = None
    """Smoke's adjacent hex (3.9)."""
    facing_hex: Hex | None = None
    path: tuple[Hex, ...] = ()
    fire_hex: Hex | None = None
    partner: str | None = None
    """The other unit of a merge, tow or escort; the transport (or ``crate``) of a supply order."""
    transport: str | None = None
    to: Hex | None = None
    """Deploy or Withdraw: the adjacent hex moved to first (9.2, 9.3)."""
    mine: MineKind | None = None
    range: int | None = None
    policy: str | None = None
    """The reaction policy of Defend or Ambush (15.2 item 4); None is ``first``."""
    entry: Hex | None = None
    """An aircraft's entry hex on the map's edge (9.13)."""
    cargo: int | None = None
    para: str | None = None
    radius: int | None = None
    rounds: int | None = None
    continued: bool = False
    withdrawal: bool = False
    size: int | None = None


# --- A unit's status ------------------------------------------------------------------------------------------


@record
class DefendZone:
    """A Defend order in force (3.6): its engagement range, whether it has fired, whether it had the ammunition,
    and its reaction policy (15.2 item 4)."""

    range: int
    used: bool = False
    armed: bool = False
    policy: str | None = None


@record
class AmbushZone:
    """An Ambush order in force (3.11): its engagement range."""

    range: int


@record
class Ongoing:
    """A time-box order in progress (2.7): boxes marked of those it needs, and what it was given for."""

    kind: OrderKind
    boxes: int
    need: int
    hex: Hex | None = None
    facing_hex: Hex | None = None
    partner: str | None = None
    mine: MineKind | None = None


@record
class AirMission:
    """An aircraft in the air (9.12–9.15): over ``target``, since ``round``; ``struck`` once it has attacked (or its
    orders are cancelled by an air combat); its mission (intercept, patrol, recon, escorting an aircraft); on
    station a patrol's or recon's ``radius``, ``rounds`` and rounds ``aloft``; a transport's ``cargo``, its
    ``size`` at take-off and the paratroopers aboard (``para``)."""

    target: Hex
    round: int
    struck: bool = False
    intercept: bool = False
    patrol: bool = False
    recon: bool = False
    escorting: str | None = None
    radius: int = 0
    rounds: int = 0
    aloft: int = 0
    cargo: int | None = None
    size: int | None = None
    para: str | None = None


@record
class AotStatus:
    """A unit's status (3.4): what its card does not print. Only the fields that differ from their defaults are
    written: a unit with no marker has ``{"ammo": N, "facing": None}``."""

    ammo: int = 0
    facing: int | None = None
    """The direction index (0 north, clockwise) of the hexside its field of fire faces (5.5)."""
    smoke_ammo: int = 0
    cargo_ammo: int = 0
    cargo_mines: int = 0
    cargo_lost: int = 0
    """Cargo capacity lost with the transport's losses (9.16)."""
    deployed: bool | None = None
    """Cards with Deploy: whether it is deployed (G51, 9.2); None for the others."""
    concealed: bool = False
    found_at: Hex | None = None
    """Where a concealed HQ was found (9.11)."""
    unidentified: bool = False
    """In a view: a concealed enemy HQ, known only as an unidentified unit (9.11, 15.1)."""
    mines: bool = False
    """An engineer's real minefield, not laid yet (9.6)."""
    suppressed: bool = False
    flag: bool = False
    """The bravery box's flag (8.3): no order this round."""
    pending: bool = False
    """A bravery test due (8.1)."""
    no_order: bool = False
    """It stood in smoke: no order this round (3.9)."""
    absorbed: int = 0
    """Hits absorbed by its defence this round (6.3)."""
    bonus: int = 0
    bonus_from: str | None = None
    fof: bool = False
    """A field of fire granted by Defend or Ambush (5.5)."""
    defend: DefendZone | None = None
    ambush: AmbushZone | None = None
    ambush_rounds: int = 0
    hidden: bool = False
    in_dugout: bool = False
    entrenched: bool = False
    flanked: bool = False
    entered_from: int | None = None
    bound: bool = False
    bound_to: str | None = None
    role: Role | None = None
    carried_by: str | None = None
    carrying: tuple[str, ...] = ()
    towed: bool = False
    ongoing: Ongoing | None = None
    adjust_used: bool = False
    charges_used: bool = False
    merged_into: str | None = None
    arrives: int | None = None
    entry: tuple[Hex, ...] = ()
    airfield: bool = False
    """Paratroopers waiting on the airfield for their transport (9.15.4)."""
    prep: int = 4
    """An aircraft on its airfield: the preparation box marked (9.12: 4 is Ready)."""
    boxes: int = 0
    """An aircraft's time boxes of this sortie (9.14)."""
    air: AirMission | None = None


# --- The game's data ------------------------------------------------------------------------------------------


@record(frozen=True)
class Victory:
    """The scenario's victory conditions (11.2): the objectives, who wins otherwise, bridges that must stand (frozen:
    they do not change in play)."""

    hexes: tuple[Hex, ...] = ()
    otherwise: str = "draw"
    bridge_intact: tuple[Hex, ...] = ()


@record
class Bridge:
    """A bridge (9.18.1): hits taken, whether destroyed and in which round."""

    hits: int = 0
    destroyed: bool = False
    round: int | None = None


@record
class Dugout:
    """A dugout (9.18.6): the hexside its field of fire faces, hits taken."""

    facing: int
    hits: int = 0


@record
class Structures:
    """Fortifications and structures on the map (9.10, 9.18): hexsides as (smaller, larger) hex pairs."""

    wire: list[tuple[Hex, Hex]] = field(default_factory=list)
    teeth: list[tuple[Hex, Hex]] = field(default_factory=list)
    trenches: dict[Hex, int] = field(default_factory=dict)
    """Trench hex → the direction its occupants face."""
    bridges: dict[Hex, Bridge] = field(default_factory=dict)
    paths: list[Hex] = field(default_factory=list)
    pontoons: list[Hex] = field(default_factory=list)
    dugouts: dict[Hex, Dugout] = field(default_factory=dict)
    pontoon_hits: dict[Hex, int] = field(default_factory=dict)


@record
class Minefield:
    """A minefield card (9.6): its side, its kind, and whether it has been revealed."""

    owner: str
    kind: MineKind
    revealed: bool = False


@record
class Special:
    """A scenario's special rules: P-2's S2 (the bridge destroyed by this round ends the game as a draw)."""

    bridge_draw_until: int | None = None


@record
class Fort:
    """A fortification or minefield of ``[[structures]]`` or bought in a set-up (11.6, 9.18)."""

    kind: FortKind
    side: str | None = None
    hex: Hex | None = None
    facing: Hex | None = None
    between: tuple[Hex, Hex] | None = None
    """Wire and dragon's teeth: the hexside, as the (smaller, larger) pair."""
    mine: MineKind | None = None


@record
class PurchaseRules:
    """A side's ``[purchase.<side>]`` table (11.6)."""

    points: int
    max_copies: int = 99
    limits: dict[str, int] = field(default_factory=dict)
    exactly_one: list[str] = field(default_factory=list)
    optional_allowed: bool = False
    columns: tuple[int, int] = (1, 99)
    fortifications: bool = False
    mines: bool = False


@record
class DefaultUnit:
    """A unit of the scenario file's force for a purchasing side (11.6: its ``default`` set-up)."""

    id: str
    type: str
    side: str
    hex: Hex | None
    steps: int
    formation: str | None
    status: AotStatus


@record
class DefaultForce:
    """The scenario file's force and fortifications of a purchasing side (11.6)."""

    units: list[DefaultUnit] = field(default_factory=list)
    structures: list[Fort] = field(default_factory=list)


@record
class Setup:
    """The secret set-up (11.6): the purchasing sides in order, those done, their rules, their default forces and
    the fortifications bought so far."""

    sides: list[str]
    done: list[str] = field(default_factory=list)
    rules: dict[str, PurchaseRules] = field(default_factory=dict)
    default: dict[str, DefaultForce] = field(default_factory=dict)
    structures: dict[str, list[Fort]] = field(default_factory=dict)


def status(u: Unit) -> AotStatus:
    """The unit's status, typed."""
    s: AotStatus = u.status
    return s
