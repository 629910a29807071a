"""Provides the Blitzkrieg 1940 notation as typed actions: one class per verb, its arguments and its roles.

The verbs' help lines are in :mod:`.verbs` and in the README; here each verb's arguments get their kind (the unit
that acts, a target, a hex, a path...) and the verb its roles (:class:`engine.contract.Role`), which is all a
client needs to know. ``check`` and ``apply`` read an action into its class once, and the frame handlers work on
the typed fields.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engine.contract import Role
from engine.hexgrid import Hex
from engine.notation import Actor, Friend, Notation, Path, Target, Word, verb_table

__all__ = ["NOTATIONS"]

R = Role


# --- Set-up (12) --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Place(Notation, verb="place", roles={R.PLACE}):
    unit: Actor
    hex: Hex


@dataclass(frozen=True, slots=True)
class Loss(Notation, verb="loss", roles={R.DECIDE}):
    unit: Actor


@dataclass(frozen=True, slots=True)
class Assign(Notation, verb="assign", roles={R.DECIDE}):
    unit: Actor
    formation: Word


@dataclass(frozen=True, slots=True)
class OwnChit(Notation, verb="ownchit", roles={R.DECIDE}):
    formation: Word


@dataclass(frozen=True, slots=True)
class Dissolve(Notation, verb="dissolve", roles={R.DECIDE}):
    formation: Word


@dataclass(frozen=True, slots=True)
class Mount(Notation, verb="mount", roles={R.DECIDE}):
    company: Actor


@dataclass(frozen=True, slots=True)
class NoMount(Notation, verb="nomount", roles={R.DECIDE}):
    pass


@dataclass(frozen=True, slots=True)
class Fort(Notation, verb="fort", roles={R.PLACE}):
    hex: Hex


@dataclass(frozen=True, slots=True)
class Mine(Notation, verb="mine", roles={R.PLACE}):
    hex: Hex


@dataclass(frozen=True, slots=True)
class Default(Notation, verb="default", roles={R.DECIDE}):
    pass


@dataclass(frozen=True, slots=True)
class Restart(Notation, verb="restart", roles={R.CANCEL}):
    pass


# --- The sequence of play (2, 5) ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Keep(Notation, verb="keep", roles={R.DECIDE}):
    chit: Word | None = None


@dataclass(frozen=True, slots=True)
class First(Notation, verb="first", roles={R.DECIDE}):
    chit: Word


@dataclass(frozen=True, slots=True)
class Cancel(Notation, verb="cancel", roles={R.DECIDE, R.CHANCE}):
    pass


@dataclass(frozen=True, slots=True)
class NoCancel(Notation, verb="nocancel", roles={R.DECIDE, R.PASS}):
    pass


@dataclass(frozen=True, slots=True)
class Activate(Notation, verb="activate", roles={R.DECIDE}):
    pass


@dataclass(frozen=True, slots=True)
class Decline(Notation, verb="decline", roles={R.DECIDE, R.PASS}):
    pass


@dataclass(frozen=True, slots=True)
class Test(Notation, verb="test", roles={R.DECIDE, R.CHANCE}):
    pass


@dataclass(frozen=True, slots=True)
class Skip(Notation, verb="skip", roles={R.DECIDE, R.PASS}):
    pass


@dataclass(frozen=True, slots=True)
class Barrage(Notation, verb="barrage", roles={R.DECIDE}):
    pass


@dataclass(frozen=True, slots=True)
class Hold(Notation, verb="hold", roles={R.DECIDE, R.HOLD}):
    pass


@dataclass(frozen=True, slots=True)
class Combine(Notation, verb="combine", roles={R.DECIDE}):
    pass


@dataclass(frozen=True, slots=True)
class Lapse(Notation, verb="lapse", roles={R.DECIDE, R.PASS}):
    pass


@dataclass(frozen=True, slots=True)
class Replay(Notation, verb="replay", roles={R.DECIDE}):
    formation: Word


@dataclass(frozen=True, slots=True)
class General(Notation, verb="general", roles={R.DECIDE}):
    use: Literal["neutral", "exhaust", "replay"]


@dataclass(frozen=True, slots=True)
class Clear(Notation, verb="clear", roles={R.DECIDE}):
    subject: Actor
    """A unit, or a formation (read as a word: no unit acts)."""


@dataclass(frozen=True, slots=True)
class Done(Notation, verb="done", roles={R.DECIDE, R.PASS}):
    pass


@dataclass(frozen=True, slots=True)
class Discard(Notation, verb="discard", roles={R.DECIDE, R.PASS}):
    pass


# --- A unit's action in an activation (6, 7, 8, 9) ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Move(Notation, verb="move", roles={R.ORDER, R.MOVE}):
    unit: Actor
    path: Path


@dataclass(frozen=True, slots=True)
class Road(Notation, verb="road", roles={R.ORDER, R.MOVE}):
    unit: Actor
    path: Path


@dataclass(frozen=True, slots=True)
class MoveFire(Notation, verb="mf", roles={R.ORDER, R.MOVE}):
    unit: Actor
    path: Path


@dataclass(frozen=True, slots=True)
class FireMove(Notation, verb="fm", roles={R.ORDER, R.ATTACK, R.CHANCE}):
    unit: Actor
    target: Target


@dataclass(frozen=True, slots=True)
class Fire(Notation, verb="fire", roles={R.ORDER, R.ATTACK, R.CHANCE}):
    unit: Actor
    target: Target


@dataclass(frozen=True, slots=True)
class Stop(Notation, verb="stop", roles={R.ORDER, R.STOP, R.PASS}):
    unit: Actor


@dataclass(frozen=True, slots=True, kw_only=True)
class Stack(Notation, verb="stack", roles={R.ORDER, R.MOVE}, secondary=True):
    unit: Actor
    second: Friend
    third: Friend | None
    hex: Hex


@dataclass(frozen=True, slots=True)
class Load(Notation, verb="load", roles={R.ORDER}):
    apc: Actor
    company: Friend


@dataclass(frozen=True, slots=True)
class Unload(Notation, verb="unload", roles={R.ORDER}):
    apc: Actor


@dataclass(frozen=True, slots=True)
class Assault(Notation, verb="assault", roles={R.ORDER, R.MOVE, R.ATTACK, R.CHANCE}):
    unit: Actor
    hex: Hex


@dataclass(frozen=True, slots=True)
class End(Notation, verb="end", roles={R.END, R.PASS}):
    pass


@dataclass(frozen=True, slots=True)
class Salvo(Notation, verb="salvo", roles={R.ATTACK, R.CHANCE}):
    hex: Hex
    calibre: Word
    observer: Friend
    count: int | None = None


@dataclass(frozen=True, slots=True)
class Stuka(Notation, verb="stuka", roles={R.ATTACK, R.CHANCE}):
    hex: Hex
    count: int | None = None


# --- Reactions (6.3) and results (8.3, 9) -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Opportunity(Notation, verb="opp", roles={R.REACT, R.ATTACK, R.CHANCE}):
    unit: Actor
    target: Target


@dataclass(frozen=True, slots=True)
class ReturnFire(Notation, verb="retfire", roles={R.REACT, R.ATTACK, R.CHANCE}):
    unit: Actor
    target: Target


@dataclass(frozen=True, slots=True)
class Retreat(Notation, verb="retreat", roles={R.REACT, R.RETREAT, R.CHANCE}):
    unit: Actor
    hex: Hex


@dataclass(frozen=True, slots=True)
class Close(Notation, verb="close", roles={R.REACT, R.PASS, R.HOLD}):
    pass


@dataclass(frozen=True, slots=True)
class Accept(Notation, verb="accept", roles={R.DECIDE, R.PASS}):
    unit: Actor


@dataclass(frozen=True, slots=True)
class StepLoss(Notation, verb="steploss", roles={R.DECIDE}):
    unit: Actor


@dataclass(frozen=True, slots=True)
class Lose(Notation, verb="lose", roles={R.DECIDE}):
    unit: Actor


@dataclass(frozen=True, slots=True)
class CloseFire(Notation, verb="ccfire", roles={R.DECIDE, R.ATTACK, R.CHANCE}):
    unit: Actor
    target: Target


@dataclass(frozen=True, slots=True)
class Exchange(Notation, verb="exchange", roles={R.DECIDE}):
    unit: Actor


@dataclass(frozen=True, slots=True)
class Fallback(Notation, verb="fallback", roles={R.DECIDE, R.RETREAT}):
    unit: Actor


@dataclass(frozen=True, slots=True)
class Stay(Notation, verb="stay", roles={R.DECIDE}):
    unit: Actor


@dataclass(frozen=True, slots=True)
class Withdraw(Notation, verb="withdraw", roles={R.DECIDE, R.RETREAT}):
    unit: Actor
    hex: Hex | None = None


@dataclass(frozen=True, slots=True)
class CloseOn(Notation, verb="ccon", roles={R.DECIDE, R.PASS}):
    pass


NOTATIONS = verb_table(
    [
        Place, Loss, Assign, OwnChit, Dissolve, Mount, NoMount, Fort, Mine, Default, Restart,
        Keep, First, Cancel, NoCancel, Activate, Decline, Test, Skip, Barrage, Hold, Combine, Lapse, Replay,
        General, Clear, Done, Discard,
        Move, Road, MoveFire, FireMove, Fire, Stop, Stack, Load, Unload, Assault, End, Salvo, Stuka,
        Opportunity, ReturnFire, Retreat, Close, Accept, StepLoss, Lose, CloseFire, Exchange, Fallback, Stay,
        Withdraw, CloseOn,
    ]
)  # fmt: skip
"""Verb → its typed form."""
