"""Provides the Art of Tactic notation as typed actions: one class per verb (per form), its arguments, its roles.

The verbs and their help lines are in ``orders.VERBS``, ``purchase.SETUP_VERBS`` and ``decisions.VERBS`` and in
the README; here each order's arguments get their kind (the unit given the order, a target, a hex, the written
path...) and the order its roles (:class:`engine.contract.Role`), which is all a client needs to know.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engine.contract import Role
from engine.hexgrid import Hex
from engine.notation import Actor, Friend, Notation, Path, Target, TargetOrHex, Word, verb_table

__all__ = ["NOTATIONS"]

R = Role
_ORDER = {R.ORDER}


# --- Orders (3, 4, 6, 9) ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Defend(Notation, verb="defend", roles=_ORDER):
    unit: Actor
    facing_hex: Hex
    range: int
    policy: Word | None = None


@dataclass(frozen=True, slots=True)
class Ambush(Notation, verb="ambush", roles=_ORDER):
    unit: Actor
    facing_hex: Hex
    range: int
    policy: Word | None = None


@dataclass(frozen=True, slots=True)
class Suppress(Notation, verb="suppress", roles={R.ORDER, R.ATTACK, R.CHANCE}):
    unit: Actor
    target: Target


@dataclass(frozen=True, slots=True)
class Fire(Notation, verb="fire", roles={R.ORDER, R.ATTACK, R.CHANCE}):
    unit: Actor
    target: TargetOrHex
    """An enemy unit, or a hex holding a structure (a bridge)."""


@dataclass(frozen=True, slots=True)
class Move(Notation, verb="move", roles={R.ORDER, R.MOVE}):
    unit: Actor
    path: Path


@dataclass(frozen=True, slots=True)
class March(Notation, verb="march", roles={R.ORDER, R.MOVE}):
    unit: Actor
    path: Path


@dataclass(frozen=True, slots=True)
class Hold(Notation, verb="hold", roles={R.ORDER, R.HOLD}):
    unit: Actor


@dataclass(frozen=True, slots=True)
class Reconnoitre(Notation, verb="reconnoitre", roles=_ORDER):
    unit: Actor


@dataclass(frozen=True, slots=True)
class FireMove(Notation, verb="firemove", roles={R.ORDER, R.MOVE, R.ATTACK}):
    unit: Actor
    target: Target
    fire_hex: Hex
    path: Path


@dataclass(frozen=True, slots=True)
class Assault(Notation, verb="assault", roles={R.ORDER, R.MOVE, R.ATTACK}):
    unit: Actor
    target: Target
    path: Path = ()
    """Empty for a unit already bound in close combat with the target (7)."""


@dataclass(frozen=True, slots=True)
class Mount(Notation, verb="mount", roles=_ORDER):
    unit: Actor
    transport: Friend


@dataclass(frozen=True, slots=True)
class Dismount(Notation, verb="dismount", roles=_ORDER):
    unit: Actor


@dataclass(frozen=True, slots=True)
class Facing(Notation, verb="facing", roles=_ORDER):
    unit: Actor
    facing_hex: Hex


@dataclass(frozen=True, slots=True)
class Deploy(Notation, verb="deploy", roles=_ORDER):
    unit: Actor
    facing_hex: Hex
    hex: Hex | None = None


@dataclass(frozen=True, slots=True)
class Withdraw(Notation, verb="withdraw", roles=_ORDER):
    unit: Actor
    hex: Hex | None = None


@dataclass(frozen=True, slots=True)
class Location(Notation, verb="location", roles={R.ORDER, R.ATTACK}):
    unit: Actor
    hex: Hex


@dataclass(frozen=True, slots=True)
class Smoke(Notation, verb="smoke", roles=_ORDER):
    unit: Actor
    hex: Hex
    second_hex: Hex


@dataclass(frozen=True, slots=True)
class Merge(Notation, verb="merge", roles=_ORDER):
    unit: Actor
    other: Friend


@dataclass(frozen=True, slots=True)
class Entrench(Notation, verb="entrench", roles=_ORDER):
    unit: Actor
    facing_hex: Hex


@dataclass(frozen=True, slots=True)
class Supply(Notation, verb="supply", roles=_ORDER):
    unit: Actor
    transport: Friend | None = None


@dataclass(frozen=True, slots=True)
class Tow(Notation, verb="tow", roles=_ORDER):
    unit: Actor
    other: Friend


@dataclass(frozen=True, slots=True)
class Mines(Notation, verb="mines", roles=_ORDER):
    unit: Actor
    kind: Literal["at", "ap", "dummy"]


@dataclass(frozen=True, slots=True)
class ClearMines(Notation, verb="clearmines", roles=_ORDER):
    unit: Actor


@dataclass(frozen=True, slots=True)
class Unteeth(Notation, verb="unteeth", roles=_ORDER):
    unit: Actor
    hex: Hex


@dataclass(frozen=True, slots=True)
class ClearPath(Notation, verb="clearpath", roles=_ORDER):
    unit: Actor


@dataclass(frozen=True, slots=True)
class Pontoon(Notation, verb="pontoon", roles=_ORDER):
    unit: Actor
    hex: Hex


@dataclass(frozen=True, slots=True)
class LoadSupply(Notation, verb="load", roles=_ORDER):
    unit: Actor


@dataclass(frozen=True, slots=True)
class Unwire(Notation, verb="unwire", roles=_ORDER):
    unit: Actor
    hex: Hex


@dataclass(frozen=True, slots=True)
class Demolish(Notation, verb="demolish", roles=_ORDER):
    unit: Actor


# --- Aircraft (9.15) ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Intercept(Notation, verb="intercept", roles={R.ORDER, R.ATTACK}):
    unit: Actor
    enemy: Target
    entry_hex: Hex


@dataclass(frozen=True, slots=True)
class Patrol(Notation, verb="patrol", roles=_ORDER):
    unit: Actor
    centre: Hex
    radius: int
    rounds: int
    entry_hex: Hex


@dataclass(frozen=True, slots=True)
class Recon(Notation, verb="recon", roles=_ORDER):
    unit: Actor
    centre: Hex
    radius: int
    rounds: int
    entry_hex: Hex


@dataclass(frozen=True, slots=True)
class Drop(Notation, verb="drop", roles=_ORDER):
    unit: Actor
    hex: Hex
    cargo: int
    entry_hex: Hex


@dataclass(frozen=True, slots=True)
class Airland(Notation, verb="airland", roles=_ORDER):
    unit: Actor
    hex: Hex
    paratroopers: Friend
    entry_hex: Hex


@dataclass(frozen=True, slots=True)
class Escort(Notation, verb="escort", roles=_ORDER):
    unit: Actor
    friend: Friend


@dataclass(frozen=True, slots=True)
class Airstrike(Notation, verb="airstrike", roles={R.ORDER, R.ATTACK}):
    unit: Actor
    hex: Hex
    entry_hex: Hex


# --- Planning (2.3) -----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CancelOrder(Notation, verb="cancel", roles={R.CANCEL}):
    unit: Actor


@dataclass(frozen=True, slots=True)
class Commit(Notation, verb="commit", roles={R.END}):
    pass


# --- Set-up (11.6) ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Buy(Notation, verb="buy", roles={R.PLACE}):
    card: Word
    hex: Hex | None = None
    facing_hex: Hex | None = None
    mines: Literal["mines"] | None = None


@dataclass(frozen=True, slots=True)
class FortifyPosition(Notation, verb="fortify", roles={R.PLACE}):
    kind: Literal["trench", "dugout"]
    hex: Hex
    facing_hex: Hex


@dataclass(frozen=True, slots=True)
class FortifyHexside(Notation, verb="fortify", roles={R.PLACE}):
    kind: Literal["wire", "teeth"]
    hex: Hex
    other_hex: Hex


@dataclass(frozen=True, slots=True)
class SellFortification(Notation, verb="sell", roles={R.CANCEL}):
    kind: Literal["trench", "dugout", "wire", "teeth"]
    hex: Hex
    other_hex: Hex | None = None


@dataclass(frozen=True, slots=True)
class SellUnit(Notation, verb="sell", roles={R.CANCEL}):
    unit: Actor


@dataclass(frozen=True, slots=True)
class Default(Notation, verb="default", roles={R.DECIDE}):
    pass


# --- Decisions during execution (15.2) ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Prompts(Notation, verb="prompts", roles={R.DECIDE}):
    switch: Literal["on", "off"]


@dataclass(frozen=True, slots=True)
class Choose(Notation, verb="choose", roles={R.DECIDE}):
    option: Word


NOTATIONS = verb_table(
    [
        Defend, Ambush, Suppress, Fire, Move, March, Hold, Reconnoitre, FireMove, Assault, Mount, Dismount,
        Facing, Deploy, Withdraw, Location, Smoke, Merge, Entrench, Supply, Tow, Mines, ClearMines, Unteeth,
        ClearPath, Pontoon, LoadSupply, Unwire, Demolish,
        Intercept, Patrol, Recon, Drop, Airland, Escort, Airstrike,
        CancelOrder, Commit,
        Buy, FortifyPosition, FortifyHexside, SellFortification, SellUnit, Default,
        Prompts, Choose,
    ]
)  # fmt: skip
"""Verb → its typed forms (the first that reads an action wins)."""
