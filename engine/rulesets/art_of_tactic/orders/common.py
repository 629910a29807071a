"""Provides what every order kind shares while a side plans (2.3, 2.9 PLANNING): the base of an order kind's handler
(:class:`OrderType`), who may be given orders, the checks every order of a kind shares, targets, stacking at the end
of a move (4.9) and the relocation of Deploy and Withdraw (9.2, 9.3)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar

from engine.errors import IllegalActionError
from engine.hexgrid import Hex, distance
from engine.notation import Notation
from engine.state import GameState, Unit

from ..data import OrderKind, UnitCard
from ..gamedata import data
from ..model import Rules, card, is_on_board, refuse, side_units, visible_enemy
from ..movement import obstacles, step_rule
from ..notation import Assault, March, Move
from ..records import Order, status
from .verbs import ATTACK_ORDERS, MOVE_ORDERS

__all__ = [
    "Around",
    "OrderType",
    "check_common",
    "edge_hexes",
    "has_hq",
    "relocation",
    "stack_ok",
    "target",
    "unit_can_take_orders",
]


@dataclass(frozen=True, slots=True)
class Around:
    """What the candidate orders of one unit are made from: its card, its hex's neighbours on the map and the enemy
    units its side can see, in id order."""

    card: UnitCard
    neighbours: tuple[Hex, ...]
    enemies: tuple[Unit, ...]


class OrderType:
    """One order kind (a box on the card, 3.5): the notation forms that write it, what it records on the card, its
    own checks and its candidates among a unit's legal orders. The kinds are listed in ``orders.registry``."""

    kind: ClassVar[OrderKind]
    same_check: ClassVar[bool] = False
    """Whether the candidates are legal by construction but for what :meth:`check` finds in the unit itself, so
    that the first candidate's check stands for all of them (Defend and Ambush: a neighbour and a range that
    :meth:`candidates` only offers in bounds; Ambush's terrain)."""

    def record(self, typed: Notation, notation: str) -> Order:
        """The order written on the card for the notation ``typed`` (written ``notation``)."""
        return Order(self.kind, notation)

    def check(self, rs: Rules, st: GameState, u: Unit, typed: Notation) -> None:
        """Refuse the order for ``u`` (after the checks every order of the kind shares) with the rule it breaks."""

    def candidates(self, rs: Rules, st: GameState, u: Unit, around: Around) -> Iterator[Notation]:
        """The orders of this kind ``legal_actions`` offers ``u`` (each is checked before it is listed)."""
        return iter(())


def unit_can_take_orders(rs: Rules, st: GameState, u: Unit, side: str) -> None:
    """2.3: a unit of the side on the board (an aircraft Ready on its airfield, 9.12), not flag-marked (8.3) and
    not caught in smoke last round (3.9)."""
    s = status(u)
    if u.side != side:
        raise refuse(f"{u.id} is not a {side} unit", "2.3")
    if card(rs.tables, u).type == "AIR" and u.steps > 0:
        if s.air is not None or s.prep < 4:
            raise refuse(f"{u.id} is not ready on its airfield (box IV not marked)", "9.12")
    elif u.steps <= 0 or (u.hex is None and s.carried_by is None):
        raise refuse(f"{u.id} is not on the board", "2.3")
    if s.flag:
        raise refuse(f"{u.id} is suppressed (flag marked) and cannot be given any order this round", "8.3")
    if s.no_order:
        raise refuse(f"{u.id} stood in smoke and cannot be given an order this round", "3.9")


def check_common(rs: Rules, st: GameState, u: Unit, typed: Notation, kind: OrderKind) -> None:
    """The checks every order of ``kind`` shares: passengers, card, bound units, ammunition, Deploy/Withdraw."""
    c = card(rs.tables, u)
    s = status(u)
    if s.towed and kind != "deploy":
        raise refuse(f"{u.id} is towed by {s.carried_by}: Take position (deploy) is its only order", "9.9")
    if s.carried_by is not None and not s.towed and kind != "dismount":
        raise refuse(f"{u.id} rides on {s.carried_by}: Dismount is its only order", "4.6")
    if kind == "dismount" and s.carried_by is None and not s.carrying:
        raise refuse(f"{u.id} neither carries nor rides on a transport", "4.6")
    if not c.can_order(kind):
        raise refuse(f"{u.id} ({c.name}) has no {typed.verb} order on its card", "3.2")
    if s.bound:
        _check_bound(st, u, typed, kind)
    cost = int(rs.tables.rules["ammo"].get(kind, 0))
    if kind == "assault":
        cost = int(rs.tables.rules["ammo"]["assault_minimum"])
    if kind != "defend" and s.ammo < cost:
        raise refuse(f"{u.id} has {s.ammo} ammunition; {typed.verb} needs {cost}", "2.9")
    ongoing = s.ongoing.kind if s.ongoing is not None else None
    if kind in MOVE_ORDERS and c.can_order("withdraw") and s.deployed:
        raise refuse(f"{u.id} is deployed: it must complete Withdraw before it can move", "9.3")
    if kind in ATTACK_ORDERS and c.can_order("deploy") and (not s.deployed or ongoing in ("deploy", "withdraw")):
        raise refuse(f"{u.id} is not deployed: it may be given attack orders only once Deploy is complete", "9.2")


def _check_bound(st: GameState, u: Unit, typed: Notation, kind: OrderKind) -> None:
    """7.7: a bound unit gets only Assault on an enemy in its own hex, or a 1-hex move (withdrawal)."""
    if isinstance(typed, Assault):
        tgt = st.units.get(typed.target)
        if tgt is None or tgt.hex != u.hex or typed.path:
            raise refuse(f"{u.id} is bound in close combat: its Assault must name an enemy in its own hex", "7.7")
        return
    if isinstance(typed, (Move, March)):
        if len(typed.path) != 1:
            raise refuse(f"{u.id} is bound in close combat: it may withdraw only to an adjacent hex", "7.8")
        return
    if kind != "hold":
        raise refuse(f"{u.id} is bound in close combat: only Assault or a 1-hex withdrawal", "7.7")


def target(st: GameState, u: Unit, tid: str) -> Unit:
    """An enemy unit ``u``'s side can see on the board (3.8)."""
    t = st.units.get(tid)
    if t is None or t.side == u.side or not visible_enemy(st, t):
        raise refuse(f"{tid} is not an enemy unit you can see on the board", "3.8")
    return t


def has_hq(rs: Rules, st: GameState, side: str) -> bool:
    """9.11: an unsuppressed HQ of the side on the board."""
    return any(
        x.side == side and is_on_board(x) and card(rs.tables, x).has("hq") and not status(x).suppressed
        for x in st.units.values()
    )


def edge_hexes(st: GameState) -> set[Hex]:
    """Every hex on the map's edge (9.13: aircraft enter there)."""
    return {h for e in ("top", "right", "bottom", "left") for h in st.board.edge_hexes(e)}


def end_hex(st: GameState, u: Unit, order: Order | None) -> Hex | None:
    """Where the unit will end the round as ordered: the end of a movement order's path, else its hex."""
    if order is not None and order.kind in MOVE_ORDERS:
        return order.path[-1]
    return u.hex


def stack_ok(rs: Rules, st: GameState, u: Unit, end: Hex) -> None:
    """4.9 PROPOSED: the end hex may not then hold more than 3 vehicle and 6 INF/ART units of one side."""
    t = rs.tables
    sheet = data(st).orders.get(u.side, {})
    vehicles = infantry = 0
    for x in side_units(st, u.side):
        if x.id == u.id:
            continue
        if end_hex(st, x, sheet.get(x.id)) == end:
            if t.is_vehicle(card(t, x).type):
                vehicles += 1
            else:
                infantry += 1
    lim = t.rules["stacking"]
    if t.is_vehicle(card(t, u).type):
        if vehicles + 1 > int(lim["vehicles"]):
            raise refuse(f"{st.board.label(end)} would hold more than {lim['vehicles']} vehicle units", "4.9")
    elif infantry + 1 > int(lim["infantry_artillery"]):
        raise refuse(f"{st.board.label(end)} would hold more than {lim['infantry_artillery']} infantry units", "4.9")


def relocation(rs: Rules, st: GameState, u: Unit, to: Hex, rule: str) -> Hex:
    """9.2, 9.3 PROPOSED: the unit's own hex or an adjacent hex it may enter, with no enemy and no smoke."""
    assert u.hex is not None
    label = st.board.label(to)
    if to == u.hex:
        # The bare order is the one that stays: one way to write each order, as legal_actions lists it.
        raise refuse(f"{u.id} is in {label} already: leave the hex out to stay there", rule)
    if distance(to, u.hex) != 1:
        raise refuse(f"{label} must be {u.id}'s hex or next to it", rule)
    step = step_rule(rs.tables, st.board, card(rs.tables, u).move_as, u.hex, to, "cautious", obstacles(st))
    if not step.allowed:
        raise refuse(f"{u.id} cannot move into {label}: {step.reason}", step.rule)
    if any(e.side != u.side and visible_enemy(st, e) and e.hex == to for e in st.units.values()):
        raise refuse(f"{label} holds an enemy unit", rule)
    stack_ok(rs, st, u, to)
    return to


def relocations(rs: Rules, st: GameState, u: Unit, around: Around, rule: str) -> Iterator[Hex]:
    """The adjacent hexes ``u`` may relocate to with Deploy (9.2) or Withdraw (9.3), in ``around``'s order."""
    for to in around.neighbours:
        try:
            relocation(rs, st, u, to, rule)
        except IllegalActionError:
            continue
        yield to


def refusal_for(u: Unit, err: IllegalActionError) -> IllegalActionError:
    """Every refusal names the unit the order was for (the rule cited stays)."""
    if u.id in err.message:
        return err
    return IllegalActionError(f"{u.id}: {err.message}", err.rule)
