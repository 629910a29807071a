"""Provides the handlers of the orders that move a ground unit (4, 7): Cautious movement, March, Fire on the move,
Assault, Mount and Dismount."""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

from engine.hexgrid import Hex, distance
from engine.notation import Notation
from engine.state import GameState, Unit

from ..model import Rules, card, enemies_in_hex, is_on_board, refuse, side_units, smoke, visible_enemy
from ..movement import check_path, destinations, move_allowance, obstacles, step_rule
from ..notation import Assault, Dismount, FireMove, March, Mount, Move
from ..records import Order, status
from ..sight import line_of_sight
from .common import Around, OrderType, stack_ok, target

__all__ = [
    "ASSAULT",
    "CAUTIOUS",
    "DISMOUNT",
    "FIRE_ON_MOVE",
    "MARCH",
    "MOUNT",
    "assault_route_problem",
    "check_fire_on_move",
]


def _own_hex(u: Unit) -> Hex:
    assert u.hex is not None
    return u.hex


def check_move(rs: Rules, st: GameState, u: Unit, kind: str, path: tuple[Hex, ...], stacking: bool = True) -> None:
    """4.1–4.11: the written path of a ``kind`` move (cautious, march, fire_on_move), no enemy in it (3.10, 7.8)
    and, with ``stacking``, room where it ends (4.9)."""
    c = card(rs.tables, u)
    mode, allowance, bonus = move_allowance(rs, c, kind)
    check_path(rs.tables, st.board, c.move_as, _own_hex(u), path, mode, allowance, bonus, obstacles(st), u.id)
    for h in path:
        blockers = [e for e in st.units.values() if e.side != u.side and visible_enemy(st, e) and e.hex == h]
        if blockers and not status(u).bound:
            raise refuse(
                f"{u.id} cannot move into {st.board.label(h)}, held by {blockers[0].id}: "
                "only Assault may enter an enemy hex",
                "3.10",
            )
        if blockers:
            raise refuse(f"{u.id} may withdraw only to a hex without enemy units", "7.8")
    if stacking:
        stack_ok(rs, st, u, path[-1])


class _Move(OrderType):
    """4.2 Cautious movement and 4.3 March along the written path."""

    form: ClassVar[type[Move] | type[March]]

    def record(self, typed: Notation, notation: str) -> Order:
        assert isinstance(typed, (Move, March))
        return Order(self.kind, notation, path=typed.path)

    def check(self, rs: Rules, st: GameState, u: Unit, typed: Notation) -> None:
        assert isinstance(typed, (Move, March))
        check_move(rs, st, u, self.kind, typed.path)

    def candidates(self, rs: Rules, st: GameState, u: Unit, around: Around) -> Iterator[Notation]:
        """One canonical path to every hex the unit may reach (``movement.destinations``)."""
        c = around.card
        if not c.can_order(self.kind):
            return
        bonus = int(rs.tables.rules["march"]["road_bonus"].get(c.move_as, 0)) if self.kind == "march" else 0
        reach = c.order(self.kind, "range")
        dest = destinations(rs.tables, st.board, c.move_as, _own_hex(u), self.kind, reach, bonus, obstacles(st))
        for _h, path in sorted(dest.items()):
            yield self.form(u.id, path)


class _Cautious(_Move):
    kind = "cautious"
    form = Move


class _March(_Move):
    kind = "march"
    form = March


def withdrawals(rs: Rules, st: GameState, u: Unit, around: Around) -> Iterator[Notation]:
    """7.7, 7.8: a unit bound in close combat may assault an enemy in its hex or withdraw one hex (Cautious or
    March), hex by hex."""
    for e in enemies_in_hex(st, u):
        yield Assault(u.id, e.id)
    for n in around.neighbours:
        if around.card.can_order("cautious"):
            yield Move(u.id, (n,))
        if around.card.can_order("march"):
            yield March(u.id, (n,))


def check_fire_on_move(rs: Rules, st: GameState, u: Unit, typed: FireMove, stacking: bool = True) -> None:
    """4.5: a target in LOS now, that the card may fire at; the firing hex is the start or on the path."""
    here = _own_hex(u)
    t = target(st, u, typed.target)
    assert t.hex is not None
    tables = rs.tables
    c = card(tables, u)
    row = tables.target_row(card(tables, t).type)
    if row in c.cc_only or not c.dice(row, 0):
        raise refuse(f"{u.id} cannot fire at {row} units (rule 3.1)", "3.1")
    if not line_of_sight(st.board, rs.policy, here, t.hex, smoke(st)).visible:
        raise refuse(f"{t.id} is not in {u.id}'s line of sight now", "4.5")
    if typed.fire_hex != here and typed.fire_hex not in typed.path:
        raise refuse(
            f"the firing hex {st.board.label(typed.fire_hex)} must be the start hex or a hex of the path", "4.5"
        )
    check_move(rs, st, u, "fire_on_move", typed.path, stacking)


class _FireOnMove(OrderType):
    """4.5: Cautious movement firing once from a hex of the path (or the start)."""

    kind = "fire_on_move"

    def record(self, typed: Notation, notation: str) -> Order:
        assert isinstance(typed, FireMove)
        return Order(self.kind, notation, target=typed.target, fire_hex=typed.fire_hex, path=typed.path)

    def check(self, rs: Rules, st: GameState, u: Unit, typed: Notation) -> None:
        assert isinstance(typed, FireMove)
        check_fire_on_move(rs, st, u, typed)

    def candidates(self, rs: Rules, st: GameState, u: Unit, around: Around) -> Iterator[Notation]:
        """Per target in sight, each canonical path firing from its last hex when the target is within the range
        chart's length from there (other firing hexes may be typed)."""
        c = around.card
        if not c.can_order(self.kind):
            return
        here = _own_hex(u)
        fom_range = c.order("fire_on_move", "range")
        dest = destinations(rs.tables, st.board, c.move_as, here, "cautious", fom_range, 0, obstacles(st))
        reach_of_fire = len(c.range) - 1
        fog = smoke(st)
        for e in around.enemies:
            assert e.hex is not None
            if not line_of_sight(st.board, rs.policy, here, e.hex, fog).visible:
                continue
            for _h, path in sorted(dest.items()):
                if 1 <= distance(path[-1], e.hex) <= reach_of_fire:
                    yield FireMove(u.id, e.id, path[-1], path)


def assault_route_problem(rs: Rules, st: GameState, u: Unit, t: Unit, route: tuple[Hex, ...]) -> None:
    """4.11 item 7: the hexes before the target's follow Cautious rules within the assault distance."""
    here = _own_hex(u)
    assert t.hex is not None
    c = card(rs.tables, u)
    if not route or route[-1] != t.hex:
        raise refuse(f"{u.id}'s route must end in {t.id}'s hex {st.board.label(t.hex)}", "3.10")
    before = route[:-1]
    prev = before[-1] if before else here
    if distance(prev, t.hex) != 1:
        raise refuse(f"write every hex of {u.id}'s route: the last one must be next to the target's hex", "3.10")
    where = obstacles(st)
    last = step_rule(rs.tables, st.board, c.move_as, prev, t.hex, "assault", where)
    if not last.allowed:
        raise refuse(f"{u.id} cannot assault into {st.board.label(t.hex)}: {last.reason}", last.rule)
    if last.capped and before:
        raise refuse(f"the step into the target's hex allows {u.id} only a 1-hex move: assault from next to it", "4.11")
    if before:
        distance_ = c.order("assault", "distance")
        check_path(rs.tables, st.board, c.move_as, here, before, "assault", distance_, 0, where, u.id)
        for h in before:
            if any(e.side != u.side and visible_enemy(st, e) and e.hex == h for e in st.units.values()):
                raise refuse(f"{u.id}'s route passes through the enemy in {st.board.label(h)}", "3.10")


class _Assault(OrderType):
    """3.10, 7: move along the route into the target's hex and fight (a bound unit names no route)."""

    kind = "assault"

    def record(self, typed: Notation, notation: str) -> Order:
        assert isinstance(typed, Assault)
        return Order(self.kind, notation, target=typed.target, path=typed.path)

    def check(self, rs: Rules, st: GameState, u: Unit, typed: Notation) -> None:
        assert isinstance(typed, Assault)
        here = _own_hex(u)
        t = target(st, u, typed.target)
        tables = rs.tables
        c = card(tables, u)
        row = tables.target_row(card(tables, t).type)
        if c.dice(row, 0) is None and c.cc_dice != "art":
            raise refuse(f"{u.id} cannot attack {row} units (not a target type on its card)", "7.3")
        if status(t).hidden:
            raise refuse(f"{t.id} is hidden and cannot be assaulted", "3.11")
        if c.type == "INF" and tables.is_armour(card(tables, t).type):
            terrain = tables.terrain[st.board.terrain(here)]
            if terrain.no_assault_on_armour:
                raise refuse(
                    f"infantry in {terrain.name} may not be ordered to assault armoured vehicles or tanks", "7.3"
                )
        if status(u).bound:
            return
        assault_route_problem(rs, st, u, t, typed.path)

    def candidates(self, rs: Rules, st: GameState, u: Unit, around: Around) -> Iterator[Notation]:
        """Per enemy in sight, the shortest route into its hex within the assault distance."""
        c = around.card
        if not c.can_order(self.kind):
            return
        here = _own_hex(u)
        dist = c.order("assault", "distance")
        reach = destinations(rs.tables, st.board, c.move_as, here, "assault", dist, 0, obstacles(st))
        for e in around.enemies:
            assert e.hex is not None
            best: tuple[int, tuple[Hex, ...]] | None = None
            for n in sorted(e.hex.neighbours()):
                before = () if n == here else reach.get(n)
                if before is None:
                    continue
                cand = (len(before), (*before, e.hex))
                if best is None or cand < best:
                    best = cand
            if best is not None:
                yield Assault(u.id, e.id, best[1])


class _Mount(OrderType):
    """4.6: board a transport in the same hex."""

    kind = "mount"

    def record(self, typed: Notation, notation: str) -> Order:
        assert isinstance(typed, Mount)
        return Order(self.kind, notation, transport=typed.transport)

    def check(self, rs: Rules, st: GameState, u: Unit, typed: Notation) -> None:
        assert isinstance(typed, Mount)
        tp = st.units.get(typed.transport)
        t = rs.tables
        if tp is None or tp.side != u.side or not is_on_board(tp) or tp.hex != u.hex:
            raise refuse(f"{typed.transport} is not a friendly transport in {u.id}'s hex", "4.6")
        tc = card(t, tp)
        if not tc.has("transport") or card(t, u).type not in tc.carries:
            raise refuse(f"{tp.id} cannot carry {u.id}", "4.6")
        aboard = sum(st.units[p].steps for p in status(tp).carrying)
        if aboard + u.steps > tp.steps:
            raise refuse(
                f"{tp.id} (size {tp.steps}) has room for {tp.steps - aboard} more, {u.id} has size {u.steps}", "4.6"
            )

    def candidates(self, rs: Rules, st: GameState, u: Unit, around: Around) -> Iterator[Notation]:
        if around.card.can_order(self.kind):
            for x in side_units(st, u.side):
                if x.id != u.id and x.hex == u.hex and card(rs.tables, x).has("transport"):
                    yield Mount(u.id, x.id)


class _Dismount(OrderType):
    """4.6: leave the transport (given to the passenger and to the transport)."""

    kind = "dismount"

    def candidates(self, rs: Rules, st: GameState, u: Unit, around: Around) -> Iterator[Notation]:
        if around.card.can_order(self.kind) and status(u).carrying:
            yield Dismount(u.id)

    def passenger(self, rs: Rules, st: GameState, u: Unit, around: Around) -> Iterator[Notation]:
        """A passenger's only order (4.6)."""
        yield Dismount(u.id)


CAUTIOUS = _Cautious()
MARCH = _March()
FIRE_ON_MOVE = _FireOnMove()
ASSAULT = _Assault()
MOUNT = _Mount()
DISMOUNT = _Dismount()
