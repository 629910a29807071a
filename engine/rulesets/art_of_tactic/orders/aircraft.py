"""Provides the handlers of the air missions (9.13–9.15): Intercept, Air patrol, Reconnaissance, Supply drop,
Airborne landing, Escort and Air strike. A mission takes off only while an unsuppressed HQ of its side is on the
board (9.11); its target hex must be seen by a friendly unit, and it enters at the map's edge (9.13)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

from engine.hexgrid import Hex, distance
from engine.notation import Notation
from engine.state import GameState, Unit

from ..data import OrderKind
from ..gamedata import data
from ..model import Rules, card, is_on_board, refuse, side_units, smoke, visible_enemy
from ..notation import Airland, Airstrike, Drop, Escort, Intercept, Patrol, Recon
from ..records import Order, status
from ..sight import line_of_sight
from .common import Around, OrderType, edge_hexes, has_hq

__all__ = ["AIRBORNE_LANDING", "AIR_STRIKE", "ESCORT", "INTERCEPT", "PATROL", "RECON", "SUPPLY_DROP"]

_NO_HQ = "aircraft take off only while an unsuppressed HQ of yours is on the board"


def _entry_hex(st: GameState, side: str, target: Hex) -> Hex:
    """The aircraft's canonical entry hex: the hex of its side's map edge nearest the target (9.13)."""
    edge = st.board.edges.get(side, "left")
    return min(st.board.edge_hexes(edge), key=lambda h: (distance(h, target), h))


def _own_hexes(st: GameState, side: str) -> list[Hex]:
    """The hexes the side's units stand in on the board, sorted: the candidate centres and targets of missions."""
    return sorted({x.hex for x in st.units.values() if x.side == side and is_on_board(x) and x.hex})


def check_flight(rs: Rules, st: GameState, u: Unit, target: Hex, entry: Hex) -> None:
    """9.11–9.13: an unsuppressed own HQ on the board; the target hex seen by a friendly ground unit; the entry
    hex on the edge of the map."""
    if not has_hq(rs, st, u.side):
        raise refuse(_NO_HQ, "9.11")
    fog = smoke(st)
    if not any(
        x.side == u.side and is_on_board(x) and x.hex is not None
        and line_of_sight(st.board, rs.policy, x.hex, target, fog).visible
        for x in st.units.values()
    ):  # fmt: skip
        raise refuse(f"no unit of yours sees {st.board.label(target)}: an air strike needs its target in sight", "9.11")
    if entry not in edge_hexes(st):
        raise refuse(f"{st.board.label(entry)} is not on the edge of the map: aircraft enter at an edge", "9.13")


class _AirStrike(OrderType):
    """9.13, 9.15.1: fly in from the edge and bomb every enemy unit in the hex."""

    kind = "air_strike"

    def record(self, typed: Notation, notation: str) -> Order:
        assert isinstance(typed, Airstrike)
        return Order(self.kind, notation, hex=typed.hex, entry=typed.entry_hex)

    def check(self, rs: Rules, st: GameState, u: Unit, typed: Notation) -> None:
        assert isinstance(typed, Airstrike)
        check_flight(rs, st, u, typed.hex, typed.entry_hex)

    def candidates(self, rs: Rules, st: GameState, u: Unit, around: Around) -> Iterator[Notation]:
        if around.card.can_order(self.kind):
            for h in sorted({e.hex for e in st.units.values() if e.side != u.side and visible_enemy(st, e) and e.hex}):
                yield Airstrike(u.id, h, _entry_hex(st, u.side, h))


class _Intercept(OrderType):
    """9.15.2: a fighter flies in from the edge to fight an enemy aircraft."""

    kind = "intercept"

    def record(self, typed: Notation, notation: str) -> Order:
        assert isinstance(typed, Intercept)
        return Order(self.kind, notation, target=typed.enemy, entry=typed.entry_hex)

    def check(self, rs: Rules, st: GameState, u: Unit, typed: Notation) -> None:
        """9.15.2: an enemy aircraft still in the game; the HQ condition; an entry hex on the map's edge."""
        assert isinstance(typed, Intercept)
        enemy = st.units.get(typed.enemy)
        if enemy is None or enemy.side == u.side or enemy.steps <= 0 or card(rs.tables, enemy).type != "AIR":
            raise refuse(f"{typed.enemy} is not an enemy aircraft", "9.15.2")
        if not has_hq(rs, st, u.side):
            raise refuse(_NO_HQ, "9.11")
        if typed.entry_hex not in edge_hexes(st):
            raise refuse(
                f"{st.board.label(typed.entry_hex)} is not on the edge of the map: aircraft enter at an edge", "9.13"
            )

    def candidates(self, rs: Rules, st: GameState, u: Unit, around: Around) -> Iterator[Notation]:
        if not around.card.can_order(self.kind):
            return
        for e in sorted(st.units.values(), key=lambda x: x.id):
            if e.side != u.side and e.steps > 0 and card(rs.tables, e).type == "AIR":
                entry = st.board.edge_hexes(st.board.edges.get(u.side, "right"))[0]
                yield Intercept(u.id, e.id, entry)


class _Patrol(OrderType):
    """9.15.5: a fighter takes station over a centre for some rounds."""

    kind: ClassVar[OrderKind] = "patrol"

    def record(self, typed: Notation, notation: str) -> Order:
        assert isinstance(typed, (Patrol, Recon))
        return Order(
            self.kind, notation, hex=typed.centre, radius=typed.radius, rounds=typed.rounds, entry=typed.entry_hex
        )

    def check(self, rs: Rules, st: GameState, u: Unit, typed: Notation) -> None:
        """9.15.5: radius and duration within the card's maxima; the centre seen by an own ground unit (9.13)."""
        assert isinstance(typed, Patrol)
        c = card(rs.tables, u)
        if not 0 <= typed.radius <= c.patrol_radius:
            raise refuse(f"the patrol radius may be 0 to {c.patrol_radius}", "9.15.5")
        if not 1 <= typed.rounds <= c.flight_duration:
            raise refuse(f"the flight duration may be 1 to {c.flight_duration} rounds", "9.15.5")
        check_flight(rs, st, u, typed.centre, typed.entry_hex)

    def candidates(self, rs: Rules, st: GameState, u: Unit, around: Around) -> Iterator[Notation]:
        c = around.card
        if c.can_order(self.kind):
            for h in _own_hexes(st, u.side):
                yield Patrol(u.id, h, c.patrol_radius, c.flight_duration, _entry_hex(st, u.side, h))


class _Recon(_Patrol):
    """9.15.3: a recon aircraft takes station over a centre; it finds hidden units and directs artillery."""

    kind = "recon"

    def check(self, rs: Rules, st: GameState, u: Unit, typed: Notation) -> None:
        """9.15.3: radius within the card's observation zone, duration within its time boxes; the centre seen by an
        own ground unit (9.13)."""
        assert isinstance(typed, Recon)
        c = card(rs.tables, u)
        if not 0 <= typed.radius <= min(c.observation_zone, len(c.detection) - 1):
            raise refuse(f"the observation radius may be 0 to {c.observation_zone}", "9.15.3")
        if not 1 <= typed.rounds <= c.flight_duration:
            raise refuse(f"the flight duration may be 1 to {c.flight_duration} rounds", "9.15.3")
        check_flight(rs, st, u, typed.centre, typed.entry_hex)

    def candidates(self, rs: Rules, st: GameState, u: Unit, around: Around) -> Iterator[Notation]:
        c = around.card
        if c.can_order(self.kind):
            for h in _own_hexes(st, u.side):
                yield Recon(u.id, h, 1, c.flight_duration, _entry_hex(st, u.side, h))


class _SupplyDrop(OrderType):
    """9.15.6: a transport aircraft drops a crate of supplies in step 9."""

    kind = "supply_drop"

    def record(self, typed: Notation, notation: str) -> Order:
        assert isinstance(typed, Drop)
        return Order(self.kind, notation, hex=typed.hex, cargo=typed.cargo, entry=typed.entry_hex)

    def check(self, rs: Rules, st: GameState, u: Unit, typed: Notation) -> None:
        """9.15.6: at most the card's cargo limit; the drop hex seen by an own ground unit (9.13)."""
        assert isinstance(typed, Drop)
        c = card(rs.tables, u)
        if not 1 <= typed.cargo <= c.cargo_limit:
            raise refuse(f"the cargo may be 1 to {c.cargo_limit} cargo units", "9.15.6")
        check_flight(rs, st, u, typed.hex, typed.entry_hex)

    def candidates(self, rs: Rules, st: GameState, u: Unit, around: Around) -> Iterator[Notation]:
        c = around.card
        if c.can_order(self.kind):
            for h in _own_hexes(st, u.side):
                yield Drop(u.id, h, c.cargo_limit, _entry_hex(st, u.side, h))


class _AirborneLanding(OrderType):
    """9.15.4: a transport aircraft flies paratroopers waiting on the airfield to a hex; they land in step 6."""

    kind = "airborne_landing"

    def record(self, typed: Notation, notation: str) -> Order:
        assert isinstance(typed, Airland)
        return Order(self.kind, notation, hex=typed.hex, para=typed.paratroopers, entry=typed.entry_hex)

    def check(self, rs: Rules, st: GameState, u: Unit, typed: Notation) -> None:
        """9.15.4: paratroopers of the side waiting on the airfield, of a size at most the aircraft's; the landing
        hex seen by an own ground unit (9.13)."""
        assert isinstance(typed, Airland)
        para = st.units.get(typed.paratroopers)
        if para is None or para.side != u.side or not card(rs.tables, para).has("paratrooper"):
            raise refuse(f"{typed.paratroopers} is not a paratrooper unit of yours", "9.15.4")
        if not status(para).airfield or para.steps <= 0:
            raise refuse(f"{para.id} is not waiting on the airfield", "9.15.4")
        if para.steps > u.steps:
            raise refuse(f"{para.id} (size {para.steps}) is larger than {u.id} (size {u.steps})", "9.15.4")
        if any(o.para == para.id for o in data(st).orders.get(u.side, {}).values()):
            raise refuse(f"{para.id} already has a transport this round", "9.15.4")
        check_flight(rs, st, u, typed.hex, typed.entry_hex)

    def candidates(self, rs: Rules, st: GameState, u: Unit, around: Around) -> Iterator[Notation]:
        if not around.card.can_order(self.kind):
            return
        for p in sorted(st.units.values(), key=lambda x: x.id):
            if p.side == u.side and status(p).airfield and 0 < p.steps <= u.steps:
                for h in sorted({x.hex for x in side_units(st, u.side) if x.hex}):
                    yield Airland(u.id, h, p.id, _entry_hex(st, u.side, h))


class _Escort(OrderType):
    """9.15.7: a fighter flies with a friendly aircraft launching this round and fights off its attackers."""

    kind = "escort"

    def record(self, typed: Notation, notation: str) -> Order:
        assert isinstance(typed, Escort)
        return Order(self.kind, notation, partner=typed.friend)

    def check(self, rs: Rules, st: GameState, u: Unit, typed: Notation) -> None:
        """9.15.7: a friendly aircraft, Ready on its airfield (it must fly this round for the escort to launch)."""
        assert isinstance(typed, Escort)
        friend = st.units.get(typed.friend)
        if friend is None or friend.side != u.side or friend.id == u.id or card(rs.tables, friend).type != "AIR":
            raise refuse(f"{typed.friend} is not a friendly aircraft", "9.15.7")
        fs = status(friend)
        if friend.steps <= 0 or fs.air is not None or fs.prep < 4:
            raise refuse(f"{typed.friend} is not ready to fly", "9.15.7")
        if not has_hq(rs, st, u.side):
            raise refuse(_NO_HQ, "9.11")

    def candidates(self, rs: Rules, st: GameState, u: Unit, around: Around) -> Iterator[Notation]:
        if not around.card.can_order(self.kind):
            return
        for f in sorted(st.units.values(), key=lambda x: x.id):
            if f.side == u.side and f.id != u.id and f.steps > 0 and card(rs.tables, f).type == "AIR":
                yield Escort(u.id, f.id)


AIR_STRIKE = _AirStrike()
INTERCEPT = _Intercept()
PATROL = _Patrol()
RECON = _Recon()
SUPPLY_DROP = _SupplyDrop()
AIRBORNE_LANDING = _AirborneLanding()
ESCORT = _Escort()
