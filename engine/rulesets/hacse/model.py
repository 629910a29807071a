"""Provides the HACSE state records: ``Data`` (the game's data), ``Status`` (a unit's status) and their accessors.

The fields follow the UnitState and map data of digest 2.3, as far as the rules implemented so far need them
(movement, the turn sequence of 3.2); the engine's codec writes them as plain dicts and reads saves back strictly.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any

from engine.hexgrid import Hex
from engine.state import GameState, Unit
from engine.typed import record, state_of, status_of

__all__ = ["FACING_NAMES", "Bunker", "Data", "Mine", "Status", "data", "status"]

FACING_NAMES = ("n", "ne", "se", "s", "sw", "nw")
"""The six facings of 2.2 and 15.10.1, 0 to 5 clockwise from north, as notation writes them."""


@record
class Status:
    """A unit's status (2.3 UnitState): position extras, per-turn movement, hidden and carried state."""

    facing: int | None = None
    """0–5 clockwise from north (2.2); None for infantry, which faces every way (2.1)."""
    experience: str = "veteran"
    """The unit's experience level (15.2): a key of ``experience.toml``; scenarios may set it."""
    hidden: bool = False
    """Not shown to the other side (13.2)."""
    dug_in: bool = False
    """In a trench or foxhole until it moves (13.8)."""
    charges: int = 0
    """Extra demolition charges carried (15.10.5: the pioneers G1)."""
    pontoons: int = 0
    """Pontoons carried besides its sheet's (4.8 P: an engineer unit's equipment; scenarios may set it)."""
    off_map: bool = False
    """Waiting to enter the map (15.10.2); its ``Unit.hex`` is None."""
    entry: list[Hex] = field(default_factory=list)
    """Hexes it may enter by (15.10.2)."""
    arrives: int = 1
    """The turn from which it may enter."""
    embarked_in: str | None = None
    """The vehicle it rides in (4.5)."""
    outside: bool = False
    """It rides outside its vehicle (4.5: the outside riders, without armour protection), not inside."""
    towed_by: str | None = None
    """The tractor towing it (4.6)."""
    origin: Hex | None = None
    """Where it stood at the start of the game (15.10.5 withdrawal points)."""
    activated: bool = False
    """Drawn this turn (3.2 Phase 2)."""
    stood: bool = False
    """Activated this turn as "stand", spending 0 MP (3.2: opportunity fire eligibility)."""
    opp_fired: bool = False
    """Fired on opportunity this turn (6.7): it fires no more this turn."""
    half_mp: int = 0
    """MP spent this turn, in halves (4.3: infantry MP are tracked in halves)."""
    hexes: int = 0
    """Hexes entered this turn (5: the movement modifier of guns and vehicles)."""
    off_road: int = 0
    """Steps of this move that were not road steps (4.2)."""
    max_move: bool = False
    """Made a "max." step this turn: its movement is over (4.3 [INTERP])."""
    destroyed: bool = False
    """Out of the game (its ``Unit.hex`` is None)."""
    work: str | None = None
    """Work this turn (3.2 "work" activation): ``attach`` or ``remove`` a demolition charge (4.10, 15.10.5)."""
    work_hex: Hex | None = None
    """The hex worked on."""
    sighted: list[str] = field(default_factory=list)
    """Enemy units this unit has sighted and not lost sight of since (6.1)."""
    looked: list[str] = field(default_factory=list)
    """Enemy units it rolled to sight in the phase ``looked_in`` (6.1 P: one roll per pair and phase)."""
    looked_in: str = ""
    """The phase of ``looked``, as ``TURN:PHASE``."""
    rows_hit: list[int] = field(default_factory=list)
    """Damage rows hit (2.3, 8.5), 1-based."""
    may_fire: bool = False
    """Able to fire at the start of the Fire Phase (3.2 Phase 3b); fires even if destroyed during it."""
    fired: list[int] = field(default_factory=list)
    """Mounts (1-based) that fired this Fire Phase (3.2: each weapon once)."""
    fire_done: bool = False
    """Has fired (or declined to) this Fire Phase (3.2)."""
    jammed: list[int] = field(default_factory=list)
    """Mounts jammed (6.6)."""
    jam_turns: dict[str, int] = field(default_factory=dict)
    """The turn each jammed mount (its index, as text) jammed in (6.6: cleared in the End Phase of the next turn)."""
    spent: dict[str, int] = field(default_factory=dict)
    """Rounds used per ``mount.ammunition`` (15.5)."""
    fired_dk: int = -1
    """The highest base Dk fired this turn (6.3 note c), -1 if it did not fire."""
    fired_dk_last: int = -1
    """The same for the last turn."""
    shaken: bool = False
    """Failed a morale roll (9.5)."""
    shaken_turn: int = 0
    """The turn it became shaken in (9.5: it may rally at the end of each later turn)."""
    sent: int = 0
    """Messages sent this turn (10.3: one, HQs excepted)."""
    received: int = 0
    """Messages received this turn (10.3: one, HQs excepted)."""
    shared: dict[str, int] = field(default_factory=dict)
    """Enemy units whose sighting it received this turn (6.1 condition 5), with the units upstream (10.3: +1 each)."""
    die: int | None = None
    """The target-modifier die placed at the end of its last activation (5); None before its first."""
    morale_due: list[str] = field(default_factory=list)
    """Causes of morale rolls to make at the end of the Fire Phase (9.3)."""
    rammed: bool = False
    """Rammed in this turn's Phase 3a (12.1 P: one ram per vehicle per turn)."""
    assaulted: bool = False
    """Attacked in close combat in this turn's Phase 3a (12.3: no other attack this turn)."""
    morale_used: list[str] = field(default_factory=list)
    """Causes of the morale rolls made this turn (9.3: one roll per cause per turn; cleared in Phase 0)."""
    line_hits: list[str] = field(default_factory=list)
    """Sustained-fire lines that attacked it while it moved this turn, as ``MG-ID@TURN`` (11.6 P: once per
    activation)."""
    used: dict[str, int] = field(default_factory=dict)
    """Equipment items used up, by sheet ``equipment`` key (13.3: a trap uses a hand grenade, a mine at_mines)."""
    climb_to: Hex | None = None
    """The hex a climb of several turns is heading for (4.7)."""
    climbed: int = 0
    """Climbing turns made toward ``climb_to`` (4.7: 1 + levels above 5)."""
    lay_kind: str | None = None
    """The kind of mine being laid this turn (``at`` or ``trap``, 13.3), with ``work = "lay"``."""
    pool_jams: dict[str, list[int]] = field(default_factory=dict)
    """Weapons of a carried mount (its index, as text) jammed in a pool, one turn per weapon (6.6, 11.3)."""
    rapid: bool = False
    """Its fire this Fire Phase is rapid fire (11.2 P: declared with its first shot, for the whole phase)."""
    line: list[Hex] = field(default_factory=list)
    """The hexes of its sustained-fire line (11.6), from 3b until its next activation; empty when it has none."""
    line_mount: int = -1
    """The mount (index) firing the sustained-fire line, -1 when none (11.6)."""
    line_doubled: bool = False
    """The line is fired at double ammunition use (11.6, MG 42: a second roll against every target)."""
    in_building: bool = False
    """Occupies the building of its hex that is fought over (4.9 P): infantry entering a building hex (default yes,
    where the building has room), a unit set up in one, a vehicle that rammed one (12.3); ``buildings.py``."""
    housed_at: str = ""
    """``TURN.HEXES`` when it last chose to occupy or leave a building (4.9: once per hex entered)."""
    searchlight: Hex | None = None
    """The hex its searchlight lights (6.1 P; a scenario's ``status.searchlight``; ``searchlights.py``)."""
    lit_turn: int = 0
    """The turn its searchlight was last aimed (6.1 P: one chosen hex per turn; ``searchlights.py``)."""


@record(frozen=True)
class Bunker:
    """A bunker of the scenario (4.9 P; ``bunkers.py``): a building of one hex with its own armour, "destroyed at"
    and capacity in soldiers, hidden from the enemy until sighted (13.2)."""

    hex: Hex
    side: str
    armour: int
    destroyed_at: int
    capacity: int
    hidden: bool = True


@record(frozen=True)
class Mine:
    """Mines laid in a hex (13.4; 15.10 fortifications): how many, whose, of which kind, secret or known."""

    hex: Hex
    count: int
    side: str
    kind: str = "at"
    secret: bool = True


@record
class Data:
    """The game's data: the turn sequence of 3.2, the scenario's fortifications and objectives (15.10)."""

    turns: int
    """The scenario's last turn."""
    setup_sides: list[str] = field(default_factory=list)
    """The sides still to set up, in order (15.10.2); the first one decides now."""
    zones: dict[str, list[int]] = field(default_factory=dict)
    """Each setting-up side's zone: its first and last column (15.10)."""
    first: str | None = None
    """The side that lost the initiative this turn and moves first (3.2 Phase 1)."""
    mover: str | None = None
    """The side whose activation step it is (3.2 Phase 2)."""
    quota: int = 0
    """Activations left in the mover's step (3.2: max(1, ⌊a / b⌋))."""
    active: str | None = None
    """The unit in activation, if one is."""
    resume: str | None = None
    """The carrier whose activation goes on when the passenger in activation, which got out before it moved, ends
    its own (4.5 P)."""
    opp_mover: str | None = None
    """The moving unit the other side may fire at on opportunity now (6.7), while the offer is open."""
    opp_firing: str | None = None
    """The unit firing on opportunity at it, until it holds (6.7: each picked unit fires completely)."""
    physical: str | None = None
    """The step of Phase 3a under way (3.2): ``ram``, then ``assault`` (infantry close combat); None outside 3a."""
    passed: list[str] = field(default_factory=list)
    """The sides done with the step of 3a under way (3.2: they passed or have no attack left)."""
    mines: list[Mine] = field(default_factory=list)
    wire: list[Hex] = field(default_factory=list)
    trenches: list[Hex] = field(default_factory=list)
    obstacles: list[Hex] = field(default_factory=list)
    """Hexes with AT obstacles / hedgehogs (13.6), placed openly."""
    ditches: list[Hex] = field(default_factory=list)
    """Hexes with an AT ditch (13.7), placed openly."""
    pontoons: list[Hex] = field(default_factory=list)
    """Ditch and stream hexes a pontoon spans (4.8 P): a stream crossing for every class."""
    charges: dict[Hex, int] = field(default_factory=dict)
    """Demolition charges attached to bridges (4.10), by hex."""
    charge_side: dict[Hex, str] = field(default_factory=dict)
    """The side whose charges are on each bridge (its owner, who may blow it: 4.10)."""
    blow_from: int = 1
    """The first turn in whose End Phase a bridge may be blown (15.10.5: turn 6)."""
    conditions: list[str] = field(default_factory=list)
    """The weather and light of each turn (6.1, ``data/sight.toml`` [conditions]; ``weather.py``)."""
    ground: str = "dry"
    """The ground (``terrain.toml`` [ground]: dry, mud, snow): its 4.3 surcharge on the hexes entered (``weather``)."""
    blown: list[Hex] = field(default_factory=list)
    """Bridges destroyed: their hexes are water now (4.10)."""
    offer: Hex | None = None
    """The bridge its owner is asked to blow or spare now (3.2 Phase 4, step 1)."""
    asked: list[Hex] = field(default_factory=list)
    """Bridges whose owner was asked this End Phase."""
    points: dict[Hex, int] = field(default_factory=dict)
    """Objective hexes and their points (15.9)."""
    control: dict[Hex, str] = field(default_factory=dict)
    """The side controlling each objective hex (15.9), where one does."""
    smoke: dict[Hex, int] = field(default_factory=dict)
    """Smoke markers: hex → turns left (7.1, 8.5; End Phase step 8 counts them down, ``endphase.smoke_markers``)."""
    building_damage: dict[Hex, int] = field(default_factory=dict)
    """Damage of the building the units of a hex occupy (8.6 near misses; 4.9: destroyed at the type's value)."""
    buildings_lost: dict[Hex, int] = field(default_factory=dict)
    """Buildings destroyed in a hex (4.9)."""
    bridge_damage: dict[Hex, int] = field(default_factory=dict)
    """Damage each bridge has taken from fire (8.6 P; 4.10: destroyed at 25)."""
    rubble_turn: dict[Hex, int] = field(default_factory=dict)
    """The turn in whose Attack Phase each hex became rubble: it counts for LOS only after that phase (3.2 P)."""
    bunkers: list[Bunker] = field(default_factory=list)
    """The scenario's bunkers (4.9 P, ``fortifications.bunkers``; ``bunkers.py``)."""
    smoke_new: list[Hex] = field(default_factory=list)
    """Hexes smoked in the Fire Phase of turn ``smoke_turn``: their smoke counts for LOS only after it (3.2 P)."""
    smoke_turn: int = 0
    fires: dict[Hex, int] = field(default_factory=dict)
    """Wrecks burning (8.5 P: an ammunition explosion or a fire): hex → turns left, as their smoke; they light the
    hex and its neighbours (6.1, ``fires.py``)."""
    shelling: list[str] = field(default_factory=list)
    """Fire at any hex (7.4) under way, in two steps (``shelling.py``): the unit, its weapon and the round of the
    ``shell`` played, while its side chooses the hex; empty otherwise."""
    aiming: str = ""
    """The unit whose searchlight its side is aiming (6.1 P, two steps: ``aim``, then ``light UNIT HEX`` or
    ``cancel``; ``searchlights.py``); empty otherwise."""
    hiding: str | None = None
    """The side asked which of its units hide again (3.2 Phase 4 step 9, 13.2 P), while one is."""
    hid: list[str] = field(default_factory=list)
    """The sides done with hiding in this End Phase (13.2 P)."""
    victory: Any = field(default=None, metadata={"shared": True})
    """The scenario's ``[victory]`` table (plain data, read only)."""
    ai: dict[str, dict[str, float]] = field(default_factory=dict, metadata={"shared": True})
    """The scenario's AI weights per side (``[ai.<side>]``; not rules: ``weights.side_weights``; read only)."""


def data(st: GameState) -> Data:
    """The state's data, typed."""
    d = st.data
    return d if d.__class__ is Data else state_of(st, Data)  # the check of state_of, without its call (DESIGN §11)


def status(unit: Unit) -> Status:
    """The unit's status, typed."""
    s = unit.status
    return s if s.__class__ is Status else status_of(unit, Status)  # as ``data``
