"""Provides the HACSE notation as typed actions: one class per verb, its arguments and its roles.

Movement (4, 15.10.2) and the activations of 3.2 so far: a unit enters the map, moves forwards (turning to face
each hex it enters), reverses, turns, stands, or stops its activation. Clients know nothing else of the verbs:
the roles say what each one means.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engine.contract import Role
from engine.hexgrid import Hex
from engine.notation import Actor, Friend, Notation, Path, Target, TargetOrHex, Word, verb_table

__all__ = [
    "NOTATIONS",
    "VERBS",
    "Aim",
    "Assault",
    "Back",
    "Blow",
    "Cancel",
    "Cease",
    "Clear",
    "Climb",
    "Cut",
    "Deploy",
    "Dismount",
    "Enter",
    "Facing",
    "Fire",
    "Hide",
    "Hold",
    "Hook",
    "Lay",
    "Light",
    "Mount",
    "Move",
    "Occupy",
    "Pass",
    "Place",
    "Ram",
    "Shell",
    "Smoke",
    "Spare",
    "Stand",
    "Stay",
    "Stop",
    "Turn",
    "Unhook",
    "Vacate",
    "Work",
]

R = Role

Facing = Literal["n", "ne", "se", "s", "sw", "nw"]
"""A facing as notation writes it (2.2, 15.10.1: 0 N … 5 NW)."""


@dataclass(frozen=True, slots=True)
class Place(Notation, verb="place", roles={R.PLACE}):
    """15.10.2: in its set-up, a side places one of its units in its zone (``turn`` faces it, free then)."""

    unit: Actor
    hex: Hex


@dataclass(frozen=True, slots=True)
class Deploy(Notation, verb="deploy", roles={R.DECIDE, R.END}):
    """15.10.2: the side's set-up is done; units not placed stand where the scenario sets them."""


@dataclass(frozen=True, slots=True)
class Enter(Notation, verb="enter", roles={R.ORDER, R.PLACE}):
    """15.10.2: a unit waiting off the map enters by a hex of its entry edge (guns and vehicles choose a facing)."""

    unit: Actor
    hex: Hex
    facing: Facing | None = None


@dataclass(frozen=True, slots=True)
class Move(Notation, verb="move", roles={R.ORDER, R.MOVE}):
    """4.1–4.4: the unit enters adjacent hexes in turn; a gun or vehicle turns to face each one first."""

    unit: Actor
    path: Path


@dataclass(frozen=True, slots=True)
class Back(Notation, verb="back", roles={R.ORDER, R.MOVE}):
    """4.3: a gun or vehicle reverses into the hex directly behind it."""

    unit: Actor
    hex: Hex


@dataclass(frozen=True, slots=True)
class Turn(Notation, verb="turn", roles={R.ORDER}):
    """4.1: a gun or vehicle turns to a facing (1 MP per 60°)."""

    unit: Actor
    facing: Facing


@dataclass(frozen=True, slots=True)
class Stand(Notation, verb="stand", roles={R.ORDER, R.HOLD}):
    """3.2: the unit's activation spends no MP (a unit off the map stays off it, 15.10.2)."""

    unit: Actor


@dataclass(frozen=True, slots=True)
class Stop(Notation, verb="stop", roles={R.ORDER, R.STOP, R.PASS}):
    """3.2: the unit in activation ends it where it stands."""

    unit: Actor


@dataclass(frozen=True, slots=True)
class Mount(Notation, verb="mount", roles={R.ORDER}):
    """4.5: an infantry unit gets into (or onto) a friendly vehicle in its hex, for 1 MP; its activation ends."""

    unit: Actor
    carrier: Friend


@dataclass(frozen=True, slots=True)
class Dismount(Notation, verb="dismount", roles={R.ORDER}):
    """4.5: in the carrier's activation, a passenger gets out in the carrier's hex."""

    unit: Actor
    passenger: Friend


@dataclass(frozen=True, slots=True)
class Hook(Notation, verb="hook", roles={R.ORDER}):
    """4.6: a vehicle hooks up a gun in its hex, for half its MP."""

    unit: Actor
    load: Friend


@dataclass(frozen=True, slots=True)
class Unhook(Notation, verb="unhook", roles={R.ORDER}):
    """4.6: a vehicle unhooks the gun it tows, for half its MP; the gun faces away from the tractor."""

    unit: Actor


@dataclass(frozen=True, slots=True)
class Work(Notation, verb="work", roles={R.ORDER}):
    """3.2, 4.10: the unit's activation is a turn of work on a bridge (attach or remove a demolition charge)."""

    unit: Actor
    hex: Hex


@dataclass(frozen=True, slots=True)
class Lay(Notation, verb="lay", roles={R.ORDER}):
    """3.2, 13.3: the unit's activation is a turn of work laying an AT mine (``at``) or a booby trap (``trap``) in
    its hex or next to it, secretly when no enemy sights it; or a pontoon (``pontoon``, 4.8) across the AT ditch or
    stream next to it."""

    unit: Actor
    hex: Hex
    kind: Literal["at", "trap", "pontoon"]


@dataclass(frozen=True, slots=True)
class Clear(Notation, verb="clear", roles={R.ORDER}):
    """3.2, 13.4: the unit's activation is a turn of work clearing one known enemy mine in its hex."""

    unit: Actor


@dataclass(frozen=True, slots=True)
class Cut(Notation, verb="cut", roles={R.ORDER}):
    """3.2, 13.5: the unit's activation is a turn of work cutting the barbed wire in its hex."""

    unit: Actor


@dataclass(frozen=True, slots=True)
class Occupy(Notation, verb="occupy", roles={R.ORDER}):
    """4.9 P: infantry in a building hex occupies a building there, if it has room (no MP; once per hex entered)."""

    unit: Actor


@dataclass(frozen=True, slots=True)
class Vacate(Notation, verb="vacate", roles={R.ORDER}):
    """4.9 P: infantry leaves its building for the streets of its hex (no MP; once per hex entered)."""

    unit: Actor


@dataclass(frozen=True, slots=True)
class Climb(Notation, verb="climb", roles={R.ORDER, R.CHANCE}):
    """4.7, 13.1: infantry without heavy equipment climbs 4 or more levels into an adjacent hex: all its MP, a
    skill roll (1 damage on failure), one more turn per level above 5; no fire this turn."""

    unit: Actor
    hex: Hex


@dataclass(frozen=True, slots=True)
class Blow(Notation, verb="blow", roles={R.DECIDE, R.CHANCE}):
    """4.10: at the start of the End Phase, the owner blows a bridge with enough charges."""

    hex: Hex


@dataclass(frozen=True, slots=True)
class Spare(Notation, verb="spare", roles={R.DECIDE, R.PASS}):
    """4.10: the owner leaves the bridge standing this End Phase."""

    hex: Hex


AmmoWord = Literal["AP", "HE", "ball", "smoke"]
"""A round named in ``fire`` (15.5): the ammunition keys of ``weapons.toml`` a weapon may have several of."""

FireOption = Literal["aimed", "rapid", "bundled", "sustained", "doubled", "building", "bridge"]
"""The fire options of 11: aimed shot (with its ROW), rapid fire, bundled weapons, sustained fire (``doubled``:
at double ammunition use, MG 42); ``building``: fire aimed at the building of a hex (8.6 P, ``demolition.py``)."""


@dataclass(frozen=True, slots=True)
class Fire(Notation, verb="fire", roles={R.ORDER, R.ATTACK, R.CHANCE}):
    """3.2 Phase 3b, 6.8: the unit fires one of its weapons (its key, with the mount when it has two) at a sighted
    enemy unit, or indirectly at a unit its side sights or at a hex (7); optionally naming the round (15.5) and an
    option of 11 (``aimed ROW``, ``rapid``, ``bundled`` with the weapon key, ``sustained``, ``doubled``)."""

    unit: Actor
    target: TargetOrHex
    weapon: Word
    ammo: AmmoWord | None = None
    option: FireOption | None = None
    row: int | None = None


@dataclass(frozen=True, slots=True)
class Cease(Notation, verb="cease", roles={R.ORDER, R.STOP, R.PASS}):
    """3.2 Phase 3b: the unit fires no more this phase (or declines to fire)."""

    unit: Actor


@dataclass(frozen=True, slots=True)
class Shell(Notation, verb="shell", roles={R.ORDER}):
    """7.4, 7.1: the unit is to fire its weapon indirectly, with the round named, at a hex its side then chooses
    among every hex meeting 7.4's preconditions (``fire UNIT HEX WEAPON AMMO``), or ``cancel``."""

    unit: Actor
    weapon: Word
    ammo: AmmoWord


@dataclass(frozen=True, slots=True)
class Cancel(Notation, verb="cancel", roles={R.ORDER, R.STOP}):
    """7.4: the unit does not shell after all; the Fire Phase goes on as before its ``shell``. 6.1 P: the
    searchlight being aimed keeps its hex."""

    unit: Actor


@dataclass(frozen=True, slots=True)
class Aim(Notation, verb="aim", roles={R.ORDER}):
    """6.1 P: the unit is to aim its searchlight, once per turn in the Movement Phase and without MP, at a hex its
    side then chooses (``light UNIT HEX``), or ``cancel``."""

    unit: Actor


@dataclass(frozen=True, slots=True)
class Light(Notation, verb="light", roles={R.ORDER}):
    """6.1 P: the searchlight being aimed lights the hex named (within 20 hexes, in the unit's line of sight) until
    it is aimed again."""

    unit: Actor
    hex: Hex


@dataclass(frozen=True, slots=True)
class Smoke(Notation, verb="smoke", roles={R.ORDER}):
    """15.4: in Phase 3b the unit throws a smoke grenade into its own hex instead of firing the weapon named."""

    unit: Actor
    weapon: Word


@dataclass(frozen=True, slots=True)
class Hold(Notation, verb="hold", roles={R.DECIDE, R.PASS}):
    """6.7: no more opportunity fire now: the unit firing on opportunity is done, or (none firing) the offer closes
    and the move goes on."""


@dataclass(frozen=True, slots=True)
class Ram(Notation, verb="ram", roles={R.ORDER, R.ATTACK, R.CHANCE}):
    """3.2 Phase 3a, 12: a vehicle that entered a hex this turn rams an enemy unit in its hex, or the building of
    its hex (the hex named, 12.2, 12.3: it is in the building afterwards unless it collapsed)."""

    unit: Actor
    target: TargetOrHex


@dataclass(frozen=True, slots=True)
class Assault(Notation, verb="assault", roles={R.ORDER, R.ATTACK, R.CHANCE}):
    """3.2 Phase 3a, 12.1: infantry attacks an enemy unit in its hex with its close-combat weapons."""

    unit: Actor
    target: Target


@dataclass(frozen=True, slots=True)
class Pass(Notation, verb="pass", roles={R.DECIDE, R.PASS}):
    """3.2 Phase 3a: the side makes no more rams (or close-combat attacks) this phase."""


@dataclass(frozen=True, slots=True)
class Hide(Notation, verb="hide", roles={R.DECIDE}):
    """3.2 Phase 4 step 9, 13.2: in the End Phase the owner hides a unit again (unsighted, did not fire)."""

    unit: Actor


@dataclass(frozen=True, slots=True)
class Stay(Notation, verb="stay", roles={R.DECIDE, R.PASS}):
    """3.2 Phase 4 step 9, 13.2: the side's other units that could hide stay in the open."""


NOTATIONS = verb_table(
    [
        Place,
        Deploy,
        Enter,
        Move,
        Back,
        Turn,
        Mount,
        Dismount,
        Hook,
        Unhook,
        Work,
        Lay,
        Clear,
        Cut,
        Climb,
        Occupy,
        Vacate,
        Stand,
        Stop,
        Blow,
        Spare,
        Fire,
        Cease,
        Smoke,
        Shell,
        Cancel,
        Aim,
        Light,
        Hold,
        Ram,
        Assault,
        Pass,
        Hide,
        Stay,
    ]
)
"""Verb → its typed forms."""

VERBS = {
    "place": "place UNIT HEX — set-up: place a unit in the side's zone; turn faces it at no cost (15.10.2)",
    "deploy": "deploy — set-up done: the units not placed stand where the scenario sets them (15.10.2)",
    "enter": "enter UNIT HEX [FACING] — enter the map by an entry hex; guns and vehicles choose a facing (15.10.2)",
    "move": "move UNIT HEX... — enter adjacent hexes; a gun or vehicle turns to face each first (4.1, 4.3)",
    "back": "back UNIT HEX — reverse a gun or vehicle into the hex behind it (4.3)",
    "turn": "turn UNIT FACING — turn a gun or vehicle, 1 MP per 60 degrees (4.1)",
    "mount": "mount UNIT CARRIER — infantry gets into a friendly vehicle in its hex, 1 MP (4.5)",
    "dismount": "dismount CARRIER PASSENGER — a passenger gets out in the carrier's activation (4.5)",
    "hook": "hook TRACTOR LOAD — hook up a gun in the tractor's hex, half its MP (4.6)",
    "unhook": "unhook TRACTOR — unhook the towed gun, half its MP; it faces away from the tractor (4.6)",
    "work": "work UNIT HEX — a turn of work on a bridge (attach or remove a charge, 4.10) or on AT obstacles (13.6)",
    "lay": "lay UNIT HEX at|trap|pontoon — a turn of work laying an AT mine or a trap here or next door (13.3), or a"
    " pontoon across the AT ditch or stream next door (4.8)",
    "clear": "clear UNIT — a turn of work clearing one known enemy mine in the unit's hex (13.4)",
    "climb": "climb UNIT HEX — infantry climbs 4+ levels into an adjacent hex: all MP, a skill roll each turn (4.7)",
    "cut": "cut UNIT — a turn of work cutting the barbed wire in the unit's hex (13.5)",
    "occupy": "occupy UNIT — infantry occupies a building of its hex that has room, no MP (4.9)",
    "vacate": "vacate UNIT — infantry leaves its building for the streets of its hex, no MP (4.9)",
    "blow": "blow HEX — blow the bridge (at least 5 charges, start of the End Phase; 4.10)",
    "spare": "spare HEX — leave the bridge standing this End Phase (4.10)",
    "stand": "stand UNIT — activate the unit without spending MP, or stay off the map (3.2)",
    "stop": "stop UNIT — end the activation of the unit that is moving (3.2)",
    "fire": "fire UNIT TARGET WEAPON [AMMO] [aimed ROW|rapid|bundled|sustained|doubled|building|bridge] — Fire Phase:"
    " fire"
    " a weapon at a sighted enemy unit (3.2, 6.8), with a round (15.5) and an option (11); indirectly at a unit or a"
    " HEX (7); at the building of a HEX (8.6); at the bridge of a HEX (bridge, 4.10); in the Movement Phase: on"
    " opportunity at the enemy unit moving in sight (6.7)",
    "shell": "shell UNIT WEAPON AMMO — Fire Phase: fire WEAPON indirectly with the round named at a hex chosen next,"
    " any hex meeting 7.4's preconditions (7.4, 7.1)",
    "cancel": "cancel UNIT — Fire Phase: the unit does not shell after all (7.4); Movement Phase: the searchlight"
    " being aimed keeps its hex (6.1)",
    "aim": "aim UNIT — Movement Phase: aim the unit's searchlight, once per turn and without MP, at a hex chosen next"
    " (6.1)",
    "light": "light UNIT HEX — the searchlight being aimed lights HEX (within 20 hexes, in its line of sight; 6.1)",
    "hold": "hold — no more opportunity fire now: the unit firing is done, or the move goes on (6.7)",
    "cease": "cease UNIT — Fire Phase: the unit fires no more this phase (3.2)",
    "smoke": "smoke UNIT WEAPON — Fire Phase: throw a smoke grenade into the unit's hex instead of firing WEAPON"
    " (15.4)",
    "ram": "ram UNIT TARGET|HEX — Attack Phase 3a: a vehicle that entered a hex this turn rams an enemy unit in it,"
    " or the building of its hex (12)",
    "assault": "assault UNIT TARGET — Attack Phase 3a: infantry attacks an enemy unit in its hex in close combat"
    " (12.1)",
    "pass": "pass — Attack Phase 3a: the side makes no more rams, or close-combat attacks, this phase (3.2)",
    "hide": "hide UNIT — End Phase: an unsighted unit that did not fire hides again where it may (13.2)",
    "stay": "stay — End Phase: the side's other units that could hide stay in the open (13.2)",
}
"""Verb → its help line."""
