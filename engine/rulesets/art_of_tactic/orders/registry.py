"""Provides the registry of order kinds (one handler each, 3.5) and the order in which ``legal_actions`` lists a
unit's candidate orders (a towed unit, a passenger, an aircraft, a ground unit, bound or not)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

from engine.notation import Notation
from engine.state import GameState, Unit

from ..data import OrderKind
from ..model import Rules
from ..records import status
from . import aircraft, ground, moves
from .common import Around, OrderType

__all__ = ["ORDERS", "candidates"]

ORDERS: Mapping[OrderKind, OrderType] = {
    h.kind: h
    for h in (
        ground.HOLD, ground.RECONNOITRE, ground.DEFEND, ground.AMBUSH, ground.FIRE, ground.SUPPRESS,
        ground.LOCATION, ground.SMOKE, ground.MERGE, ground.LAY_MINES, ground.CLEAR_MINES, ground.REMOVE_OBSTACLE,
        ground.REMOVE_WIRE, ground.CLEAR_PATH, ground.PONTOON, ground.LOAD_SUPPLY, ground.DEMOLITION,
        ground.ENTRENCH, ground.SUPPLY, ground.TOW, ground.FACING, ground.DEPLOY, ground.WITHDRAW,
        moves.CAUTIOUS, moves.MARCH, moves.FIRE_ON_MOVE, moves.ASSAULT, moves.MOUNT, moves.DISMOUNT,
        aircraft.AIR_STRIKE, aircraft.INTERCEPT, aircraft.PATROL, aircraft.RECON, aircraft.SUPPLY_DROP,
        aircraft.AIRBORNE_LANDING, aircraft.ESCORT,
    )
}  # fmt: skip
"""Every order box a card may print (``data.ORDER_KINDS``) → its handler."""

Candidates = Callable[[Rules, GameState, Unit, Around], Iterator[Notation]]

_AIRCRAFT: tuple[Candidates, ...] = (
    aircraft.INTERCEPT.candidates, aircraft.PATROL.candidates, aircraft.RECON.candidates,
    aircraft.SUPPLY_DROP.candidates, aircraft.AIRBORNE_LANDING.candidates, aircraft.ESCORT.candidates,
    aircraft.AIR_STRIKE.candidates,
)  # fmt: skip
_IN_PLACE: tuple[Candidates, ...] = (
    ground.HOLD.candidates, ground.RECONNOITRE.candidates, ground.DEFEND.candidates, ground.AMBUSH.candidates,
    ground.FIRE.candidates, ground.SUPPRESS.candidates, ground.FIRE.structures, ground.LOCATION.candidates,
    ground.LAY_MINES.candidates, ground.CLEAR_MINES.candidates, ground.REMOVE_OBSTACLE.candidates,
    ground.CLEAR_PATH.candidates, ground.PONTOON.candidates, ground.LOAD_SUPPLY.candidates,
    ground.REMOVE_WIRE.candidates, ground.DEMOLITION.candidates, ground.ENTRENCH.candidates,
    ground.SUPPLY.candidates, ground.TOW.candidates, ground.MERGE.candidates, ground.SMOKE.candidates,
)  # fmt: skip
_MOVING: tuple[Candidates, ...] = (
    moves.CAUTIOUS.candidates, moves.MARCH.candidates, moves.FIRE_ON_MOVE.candidates, moves.ASSAULT.candidates,
    moves.MOUNT.candidates, moves.DISMOUNT.candidates, ground.FACING.candidates, ground.DEPLOY.candidates,
    ground.WITHDRAW.candidates,
)  # fmt: skip


def candidates(rs: Rules, st: GameState, u: Unit, around: Around) -> Iterator[Notation]:
    """Candidate orders for one unit, in the order ``legal_actions`` lists them (each is then checked): a towed
    unit's Take position (9.9), a passenger's Dismount (4.6), an aircraft's missions (9.15), else the orders carried
    out in place, then either a bound unit's Assault or withdrawal (7.7) or the orders that move."""
    s = status(u)
    if s.towed:
        yield from ground.DEPLOY.towed(rs, st, u, around)
        return
    if s.carried_by is not None:
        yield from moves.DISMOUNT.passenger(rs, st, u, around)
        return
    if around.card.type == "AIR":
        for make in _AIRCRAFT:
            yield from make(rs, st, u, around)
        return
    for make in _IN_PLACE:
        yield from make(rs, st, u, around)
    if s.bound:
        yield from moves.withdrawals(rs, st, u, around)
        return
    for make in _MOVING:
        yield from make(rs, st, u, around)
