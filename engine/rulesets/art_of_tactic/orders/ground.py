"""Provides the handlers of the orders a ground unit carries out where it stands (3.6–3.11, 4.4, 6.9, 9): combat
orders (Defend, Ambush, fire, location, smoke), holding, and the special orders of step 9 (engineers, supply,
towing, merging, facing, Deploy and Withdraw)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

from engine.hexgrid import Hex
from engine.notation import Notation
from engine.state import GameState, Unit

from ..combat import accuracy_at, location_attacks, ranged_attack, structure_attack
from ..data import OrderKind
from ..gamedata import data
from ..model import Rules, card, has_field_of_fire, is_on_board, refuse, side_units, smoke
from ..movement import side_key
from ..notation import (
    Ambush,
    ClearMines,
    ClearPath,
    Defend,
    Demolish,
    Deploy,
    Entrench,
    Facing,
    Fire,
    Hold,
    LoadSupply,
    Location,
    Merge,
    Mines,
    Pontoon,
    Reconnoitre,
    Smoke,
    Supply,
    Suppress,
    Tow,
    Unteeth,
    Unwire,
    Withdraw,
)
from ..records import Order, status
from ..sight import facing_of, in_field_of_fire, line_of_sight
from .common import Around, OrderType, relocation, relocations, target
from .verbs import MINE_KINDS

__all__ = [
    "AMBUSH",
    "CLEAR_MINES",
    "CLEAR_PATH",
    "DEFEND",
    "DEMOLITION",
    "DEPLOY",
    "ENTRENCH",
    "FACING",
    "FIRE",
    "HOLD",
    "LAY_MINES",
    "LOAD_SUPPLY",
    "LOCATION",
    "MERGE",
    "PONTOON",
    "RECONNOITRE",
    "REMOVE_OBSTACLE",
    "REMOVE_WIRE",
    "SMOKE",
    "SUPPLY",
    "SUPPRESS",
    "TOW",
    "WITHDRAW",
]


def _own_hex(u: Unit) -> Hex:
    assert u.hex is not None
    return u.hex


class _Plain(OrderType):
    """An order with no argument but the unit (Hold, Reconnoitre, Clear mines, Clear a path, Load supply,
    Demolition): one candidate when the card has it."""

    form: ClassVar[type[Notation]]
    gated: ClassVar[bool] = True

    def candidates(self, rs: Rules, st: GameState, u: Unit, around: Around) -> Iterator[Notation]:
        if not self.gated or around.card.can_order(self.kind):
            yield self.form(u.id)  # type: ignore[call-arg]


class _Hold(_Plain):
    """4.4: stay and do nothing (also the order of a unit given none, 2.3)."""

    kind = "hold"
    form = Hold
    gated = False


class _Reconnoitre(_Plain):
    """G19: reveal hidden enemies and concealed HQs in sight within range, in step 9."""

    kind = "reconnoitre"
    form = Reconnoitre


class _Guard(OrderType):
    """Defend (3.6) and Ambush (3.11): a field of fire facing a hex, an engagement range, a reaction policy."""

    form: ClassVar[type[Defend] | type[Ambush]]
    same_check = True

    def record(self, typed: Notation, notation: str) -> Order:
        assert isinstance(typed, (Defend, Ambush))
        policy = typed.policy if typed.policy != "first" else None  # absent = "first", as before policies (15.2)
        return Order(self.kind, notation, facing_hex=typed.facing_hex, range=typed.range, policy=policy)

    def check(self, rs: Rules, st: GameState, u: Unit, typed: Notation) -> None:
        assert isinstance(typed, (Defend, Ambush))
        if facing_of(_own_hex(u), typed.facing_hex) is None:
            raise refuse(f"the facing hex {st.board.label(typed.facing_hex)} must be next to {u.id}'s hex", "3.6")
        top = max(card(rs.tables, u).max_range, 1)
        if not 1 <= typed.range <= top:
            raise refuse(f"the engagement range must be 1 to {top} ({u.id}'s maximum range)", "3.6")
        if isinstance(typed, Defend) and typed.policy == "hold":
            # 3.6: a defender "opens fire automatically"; 15.2 offers Defend the same policies, but not hold fire.
            raise refuse(
                "Defend opens fire automatically at a mover: the policy hold (never fire) is for Ambush only", "3.6"
            )

    def candidates(self, rs: Rules, st: GameState, u: Unit, around: Around) -> Iterator[Notation]:
        if around.card.can_order(self.kind):
            top = max(around.card.max_range, 1)
            for n in around.neighbours:
                for r in range(1, top + 1):
                    yield self.form(u.id, n, r)


class _Defend(_Guard):
    kind = "defend"
    form = Defend


class _Ambush(_Guard):
    kind = "ambush"
    form = Ambush

    def check(self, rs: Rules, st: GameState, u: Unit, typed: Notation) -> None:
        """3.11: the terrain of the unit's hex must allow Ambush for its type."""
        tc = rs.tables.terrain[st.board.terrain(_own_hex(u))]
        ctype = card(rs.tables, u).type
        if ctype not in tc.ambush:
            raise refuse(f"{u.id} ({ctype}) may not be given Ambush in {tc.name}", "3.11")
        super().check(rs, st, u, typed)


class _FireAt(OrderType):
    """Open fire (3.8) at a unit or, for units that can attack structures, a bridge or dugout (9.18.8); Suppression
    fire (3.7) at a unit."""

    form: ClassVar[type[Fire] | type[Suppress]]

    def record(self, typed: Notation, notation: str) -> Order:
        assert isinstance(typed, (Fire, Suppress))
        if isinstance(typed.target, Hex):
            return Order(self.kind, notation, structure=typed.target)
        return Order(self.kind, notation, target=typed.target)

    def check(self, rs: Rules, st: GameState, u: Unit, typed: Notation) -> None:
        assert isinstance(typed, (Fire, Suppress))
        if isinstance(typed.target, Hex):
            attack, reason, rule = structure_attack(rs, st, u, typed.target)
            if attack is None:
                raise refuse(f"{u.id} cannot fire at {st.board.label(typed.target)}: {reason}", rule)
            return
        t = target(st, u, typed.target)
        attack, reason, rule = ranged_attack(rs, st, u, t, typed.verb, self.kind)
        if attack is None:
            raise refuse(f"{u.id} cannot {typed.verb} at {t.id}: {reason}", rule)

    def candidates(self, rs: Rules, st: GameState, u: Unit, around: Around) -> Iterator[Notation]:
        if around.card.can_order(self.kind):
            for e in around.enemies:
                yield self.form(u.id, e.id)


class _Fire(_FireAt):
    kind = "fire"
    form = Fire

    def structures(self, rs: Rules, st: GameState, u: Unit, around: Around) -> Iterator[Notation]:
        """9.18.8: the intact bridges and the dugouts, for units that can attack structures."""
        if around.card.can_order("fire") and around.card.has("attack_structures"):
            s = data(st).structures
            for b, rec in sorted(s.bridges.items()):
                if not rec.destroyed:
                    yield Fire(u.id, b)
            for d in sorted(s.dugouts):
                yield Fire(u.id, d)


class _Suppress(_FireAt):
    kind = "suppress"
    form = Suppress


class _Location(OrderType):
    """6.9: fire at every enemy unit in a hex (two-row cards also next to it)."""

    kind = "location"

    def record(self, typed: Notation, notation: str) -> Order:
        assert isinstance(typed, Location)
        return Order(self.kind, notation, hex=typed.hex)

    def check(self, rs: Rules, st: GameState, u: Unit, typed: Notation) -> None:
        assert isinstance(typed, Location)
        _attacks, reason, rule = location_attacks(rs, st, u, typed.hex)
        if reason:
            raise refuse(f"{u.id} cannot fire at {st.board.label(typed.hex)}: {reason}", rule)

    def candidates(self, rs: Rules, st: GameState, u: Unit, around: Around) -> Iterator[Notation]:
        """The hexes of the enemies in sight, then the "last seen" markers of hidden ones (3.11)."""
        if not around.card.can_order(self.kind):
            return
        seen: set[Hex] = set()
        for e in around.enemies:
            if e.hex is not None and e.hex not in seen:
                seen.add(e.hex)
                yield Location(u.id, e.hex)
        for h in sorted(data(st).last_seen.values()):
            if h not in seen:
                seen.add(h)
                yield Location(u.id, h)


class _Smoke(OrderType):
    """3.9: smoke shells on a hex and an adjacent second hex."""

    kind = "smoke"

    def record(self, typed: Notation, notation: str) -> Order:
        assert isinstance(typed, Smoke)
        return Order(self.kind, notation, hex=typed.hex, second=typed.second_hex)

    def check(self, rs: Rules, st: GameState, u: Unit, typed: Notation) -> None:
        """3.9: a smoke point, the target hex on the range chart and in the field of fire, an observer, and a
        second hex next to the target hex."""
        assert isinstance(typed, Smoke)
        here = _own_hex(u)
        s = status(u)
        label = st.board.label
        if s.smoke_ammo < 1:
            raise refuse(f"{u.id} has no smoke shells left", "3.9")
        h, second = typed.hex, typed.second_hex
        if second not in h.neighbours():
            raise refuse(f"the second smoke hex {label(second)} must be next to {label(h)}", "3.9")
        acc, _ = accuracy_at(rs, st, u, h)
        if acc is None:
            raise refuse(f"{label(h)} is out of {u.id}'s range chart (or an X field)", "3.9")
        if has_field_of_fire(rs.tables, u) and s.facing is not None and not in_field_of_fire(here, s.facing, h):
            raise refuse(f"{label(h)} is outside {u.id}'s field of fire", "3.9")
        fog = smoke(st)
        if not any(
            x.side == u.side and is_on_board(x) and x.hex is not None
            and line_of_sight(st.board, rs.policy, x.hex, h, fog).visible
            for x in st.units.values()
        ):  # fmt: skip
            raise refuse(f"no friendly unit sees {label(h)} (smoke needs an observer)", "3.9")

    def candidates(self, rs: Rules, st: GameState, u: Unit, around: Around) -> Iterator[Notation]:
        if around.card.can_order(self.kind) and status(u).smoke_ammo > 0:
            for e in around.enemies:
                if e.hex is not None:
                    second = min(n for n in e.hex.neighbours() if n in st.board.cells)
                    yield Smoke(u.id, e.hex, second)


class _Merge(OrderType):
    """9.5: two units of the same card in one hex, both given Merge naming the other."""

    kind = "merge"

    def record(self, typed: Notation, notation: str) -> Order:
        assert isinstance(typed, Merge)
        return Order(self.kind, notation, partner=typed.other)

    def check(self, rs: Rules, st: GameState, u: Unit, typed: Notation) -> None:
        assert isinstance(typed, Merge)
        other = st.units.get(typed.other)
        if other is None or other.id == u.id or other.side != u.side or not is_on_board(other) or other.hex != u.hex:
            raise refuse(f"{typed.other} is not a friendly unit in {u.id}'s hex", "9.5")
        if other.type != u.type:
            raise refuse(f"only units of the same card may merge ({u.type} and {other.type})", "9.5")
        size = card(rs.tables, u).size
        if u.steps + other.steps > size:
            raise refuse(f"{u.steps} + {other.steps} exceeds the initial size {size}", "9.5")
        if status(other).flag or status(other).bound or status(u).bound:
            raise refuse("both units must be able to receive orders (not suppressed, not bound)", "9.5")

    def candidates(self, rs: Rules, st: GameState, u: Unit, around: Around) -> Iterator[Notation]:
        if around.card.can_order(self.kind):
            for x in side_units(st, u.side):
                if x.id != u.id and x.hex == u.hex and x.type == u.type:
                    yield Merge(u.id, x.id)


class _LayMines(OrderType):
    """9.6: engineers lay a minefield (or a dummy) in their hex."""

    kind = "lay_mines"

    def record(self, typed: Notation, notation: str) -> Order:
        assert isinstance(typed, Mines)
        return Order(self.kind, notation, mine=MINE_KINDS[typed.kind])

    def check(self, rs: Rules, st: GameState, u: Unit, typed: Notation) -> None:
        assert isinstance(typed, Mines)
        here = _own_hex(u)
        if typed.kind != "dummy" and not status(u).mines:
            raise refuse(f"{u.id} has no real minefield left (bought at the start or received from a transport)", "9.6")
        if here in data(st).minefields:
            raise refuse(f"there is a minefield in {st.board.label(here)} already", "9.6")

    def candidates(self, rs: Rules, st: GameState, u: Unit, around: Around) -> Iterator[Notation]:
        if around.card.can_order(self.kind):
            yield Mines(u.id, "at")
            yield Mines(u.id, "ap")
            yield Mines(u.id, "dummy")


class _ClearMines(_Plain):
    """9.7: engineers clear the revealed minefield in their hex."""

    kind = "clear_mines"
    form = ClearMines

    def check(self, rs: Rules, st: GameState, u: Unit, typed: Notation) -> None:
        field = data(st).minefields.get(_own_hex(u))
        if field is None or not field.revealed:
            raise refuse(f"there is no revealed minefield in {u.id}'s hex", "9.7")


class _Hexside(OrderType):
    """Engineers take an obstacle off a hexside of their hex: dragon's teeth (9.10, time boxes) or barbed wire (in
    step 8)."""

    form: ClassVar[type[Unteeth] | type[Unwire]]
    what: ClassVar[str]
    rule: ClassVar[str] = "9.10"

    def record(self, typed: Notation, notation: str) -> Order:
        assert isinstance(typed, (Unteeth, Unwire))
        return Order(self.kind, notation, hex=typed.hex)

    def _sides(self, st: GameState) -> list[tuple[Hex, Hex]]:
        s = data(st).structures
        return s.teeth if self.kind == "remove_obstacle" else s.wire

    def check(self, rs: Rules, st: GameState, u: Unit, typed: Notation) -> None:
        assert isinstance(typed, (Unteeth, Unwire))
        if side_key(_own_hex(u), typed.hex) not in self._sides(st):
            raise refuse(f"there {self.what} between {u.id}'s hex and {st.board.label(typed.hex)}", self.rule)

    def candidates(self, rs: Rules, st: GameState, u: Unit, around: Around) -> Iterator[Notation]:
        if around.card.can_order(self.kind):
            here = _own_hex(u)
            sides = self._sides(st)
            for n in around.neighbours:
                if side_key(here, n) in sides:
                    yield self.form(u.id, n)


class _RemoveObstacle(_Hexside):
    kind = "remove_obstacle"
    form = Unteeth
    what = "are no dragon's teeth"


class _RemoveWire(_Hexside):
    kind = "remove_wire"
    form = Unwire
    what = "is no barbed wire"


class _ClearPath(_Plain):
    """9.10: engineers cut a path through the woods hex they stand in."""

    kind = "clear_path"
    form = ClearPath

    def check(self, rs: Rules, st: GameState, u: Unit, typed: Notation) -> None:
        here = _own_hex(u)
        tc = rs.tables.terrain[st.board.terrain(here)]
        if tc.key != "woods" or here in data(st).structures.paths:
            raise refuse(f"{u.id} must stand in a woods hex without a path", "9.10")


class _Pontoon(OrderType):
    """9.10: engineers build a pontoon bridge in an adjacent river hex."""

    kind = "pontoon"

    def record(self, typed: Notation, notation: str) -> Order:
        assert isinstance(typed, Pontoon)
        return Order(self.kind, notation, hex=typed.hex)

    def check(self, rs: Rules, st: GameState, u: Unit, typed: Notation) -> None:
        assert isinstance(typed, Pontoon)
        h = typed.hex
        if h not in _own_hex(u).neighbours() or st.board.terrain(h) != "river":
            raise refuse(f"{st.board.label(h)} must be a river hex next to {u.id}", "9.10")
        if h in data(st).structures.pontoons:
            raise refuse(f"there is a pontoon bridge at {st.board.label(h)} already", "9.10")

    def candidates(self, rs: Rules, st: GameState, u: Unit, around: Around) -> Iterator[Notation]:
        if around.card.can_order(self.kind):
            for n in around.neighbours:
                if st.board.terrain(n) == "river":
                    yield Pontoon(u.id, n)


class _LoadSupply(_Plain):
    """9.16: a transport on its side's supply edge refills its ammunition cargo."""

    kind = "load_supply"
    form = LoadSupply

    def check(self, rs: Rules, st: GameState, u: Unit, typed: Notation) -> None:
        edge = st.board.places.get(f"{u.side.title()} supply edge", ())
        if _own_hex(u) not in edge:
            raise refuse(f"{u.id} must stand on the {u.side} supply edge to load supply", "9.16")
        s = status(u)
        cap = int(card(rs.tables, u).cargo.get("ammo", 0)) - s.cargo_lost
        if s.cargo_ammo >= cap:
            raise refuse(f"{u.id} is fully loaded", "9.16")


class _Demolition(_Plain):
    """9.8: engineers place charges on the bridge or dugout in their hex (once a game)."""

    kind = "demolition"
    form = Demolish

    def check(self, rs: Rules, st: GameState, u: Unit, typed: Notation) -> None:
        here = _own_hex(u)
        structures = data(st).structures
        bridge = structures.bridges.get(here)
        if (bridge is None or bridge.destroyed) and here not in structures.dugouts:
            raise refuse(f"{u.id} must stand on an intact bridge or in a dugout's hex to demolish it", "9.8")
        if status(u).charges_used:
            raise refuse(f"{u.id} has used its one demolition charge", "9.8")


class _Entrench(OrderType):
    """9.10: dig a trench facing a hex (time boxes; defence 0 meanwhile)."""

    kind = "entrench"

    def record(self, typed: Notation, notation: str) -> Order:
        assert isinstance(typed, Entrench)
        return Order(self.kind, notation, facing_hex=typed.facing_hex)

    def check(self, rs: Rules, st: GameState, u: Unit, typed: Notation) -> None:
        assert isinstance(typed, Entrench)
        here = _own_hex(u)
        if facing_of(here, typed.facing_hex) is None:
            raise refuse(
                f"the trench's facing hex {st.board.label(typed.facing_hex)} must be next to {u.id}'s hex", "9.10"
            )
        if here in data(st).structures.trenches:
            raise refuse(f"there is a trench in {st.board.label(here)} already", "9.10")

    def candidates(self, rs: Rules, st: GameState, u: Unit, around: Around) -> Iterator[Notation]:
        if around.card.can_order(self.kind):
            for n in around.neighbours:
                yield Entrench(u.id, n)


class _Supply(OrderType):
    """9.16: receive supply from a transport in the hex (both given the order), or from a crate (9.15.6)."""

    kind = "supply"

    def record(self, typed: Notation, notation: str) -> Order:
        assert isinstance(typed, Supply)
        return Order(self.kind, notation, partner=typed.transport)

    def check(self, rs: Rules, st: GameState, u: Unit, typed: Notation) -> None:
        """9.16: the recipient names a friendly transport with ammunition in its hex; the transport names nobody."""
        assert isinstance(typed, Supply)
        c = card(rs.tables, u)
        s = status(u)
        if typed.transport is None:
            if not c.has("supply_carrier"):
                raise refuse(f"{u.id} carries no supplies: name the transport (supply UNIT TRANSPORT)", "9.16")
            return
        if typed.transport == "crate":  # 9.15.6, G24: a dropped crate is a stationary transport, for either side
            if u.hex is None or data(st).crates.get(u.hex, 0) <= 0:
                raise refuse(f"there is no supply crate in {u.id}'s hex", "9.15.6")
            if s.ammo >= c.ammo:
                raise refuse(f"{u.id} already has its full ammunition", "9.16")
            return
        tp = st.units.get(typed.transport)
        if tp is None or tp.side != u.side or not is_on_board(tp) or tp.hex != u.hex:
            raise refuse(f"{typed.transport} is not a friendly transport in {u.id}'s hex", "9.16")
        ts = status(tp)
        wants_mine = c.has("engineer") and not s.mines and ts.cargo_mines > 0
        if not card(rs.tables, tp).has("supply_carrier") or (ts.cargo_ammo <= 0 and not wants_mine):
            raise refuse(f"{tp.id} has nothing to give", "9.16")
        if s.ammo >= c.ammo and not wants_mine:
            raise refuse(f"{u.id} already has its full ammunition", "9.16")

    def candidates(self, rs: Rules, st: GameState, u: Unit, around: Around) -> Iterator[Notation]:
        c = around.card
        if not c.can_order(self.kind):
            return
        if c.has("supply_carrier"):
            yield Supply(u.id)
        for x in side_units(st, u.side):
            if x.id != u.id and x.hex == u.hex and card(rs.tables, x).has("supply_carrier"):
                yield Supply(u.id, x.id)
        if data(st).crates.get(_own_hex(u), 0) > 0 and status(u).ammo < c.ammo:
            yield Supply(u.id, "crate")


class _Tow(OrderType):
    """9.9: a transport that tows and a limbered unit in one hex, both given Tow naming the other."""

    kind = "tow"

    def record(self, typed: Notation, notation: str) -> Order:
        assert isinstance(typed, Tow)
        return Order(self.kind, notation, partner=typed.other)

    def check(self, rs: Rules, st: GameState, u: Unit, typed: Notation) -> None:
        """9.9: tower and towed in one hex; the towed unit has withdrawn; its size is not above the tower's."""
        assert isinstance(typed, Tow)
        other = st.units.get(typed.other)
        if other is None or other.side != u.side or not is_on_board(other) or other.hex != u.hex:
            raise refuse(f"{typed.other} is not a friendly unit in {u.id}'s hex", "9.9")
        t = rs.tables
        tower, towed = (u, other) if card(t, u).has("tow") else (other, u)
        if not card(t, tower).has("tow") or card(t, towed).has("tow"):
            raise refuse("one of the two must be a transport that tows and the other the unit it tows", "9.9")
        if status(towed).deployed or status(towed).ongoing is not None:
            raise refuse(f"{towed.id} must complete Withdraw before it can be towed", "9.9")
        if towed.steps > tower.steps or any(status(st.units[p]).towed for p in status(tower).carrying):
            raise refuse(f"{tower.id} cannot tow {towed.id} (one unit, of a size not above its own)", "9.9")

    def candidates(self, rs: Rules, st: GameState, u: Unit, around: Around) -> Iterator[Notation]:
        if around.card.can_order(self.kind):
            for x in side_units(st, u.side):
                if x.id != u.id and x.hex == u.hex and card(rs.tables, x).can_order("tow"):
                    yield Tow(u.id, x.id)


class _Facing(OrderType):
    """9.4 Change field of fire; 9.2 Deploy facing a hex (first moving to an adjacent hex if given)."""

    kind: ClassVar[OrderKind] = "facing"

    def record(self, typed: Notation, notation: str) -> Order:
        assert isinstance(typed, Facing)
        return Order(self.kind, notation, facing_hex=typed.facing_hex)

    def check(self, rs: Rules, st: GameState, u: Unit, typed: Notation) -> None:
        assert isinstance(typed, (Facing, Deploy))
        where = _own_hex(u)
        if isinstance(typed, Deploy) and typed.hex is not None:
            where = relocation(rs, st, u, typed.hex, "9.2")
        if facing_of(where, typed.facing_hex) is None:
            raise refuse(f"the facing hex {st.board.label(typed.facing_hex)} must be next to {u.id}'s hex", "9.4")
        if isinstance(typed, Deploy) and status(u).deployed:
            raise refuse(f"{u.id} is already deployed", "9.2")

    def candidates(self, rs: Rules, st: GameState, u: Unit, around: Around) -> Iterator[Notation]:
        if around.card.can_order(self.kind):
            for n in around.neighbours:
                yield Facing(u.id, n)


class _Deploy(_Facing):
    kind = "deploy"

    def record(self, typed: Notation, notation: str) -> Order:
        assert isinstance(typed, Deploy)
        return Order(self.kind, notation, facing_hex=typed.facing_hex, to=typed.hex)

    def candidates(self, rs: Rules, st: GameState, u: Unit, around: Around) -> Iterator[Notation]:
        if around.card.can_order(self.kind) and not status(u).deployed:
            yield from self.towed(rs, st, u, around)

    def towed(self, rs: Rules, st: GameState, u: Unit, around: Around) -> Iterator[Notation]:
        """9.2: Deploy where the unit stands facing any neighbour, or first moving to an adjacent hex it may enter
        and facing any neighbour of that hex; 9.9: a towed unit's Take position is the same order."""
        for n in around.neighbours:
            yield Deploy(u.id, n)
        for to in relocations(rs, st, u, around, "9.2"):
            for n in (x for x in to.neighbours() if x in st.board.cells):
                yield Deploy(u.id, n, to)


class _Withdraw(OrderType):
    """9.3: limber up to move (time boxes), first moving to an adjacent hex if given."""

    kind = "withdraw"

    def record(self, typed: Notation, notation: str) -> Order:
        assert isinstance(typed, Withdraw)
        return Order(self.kind, notation, to=typed.hex)

    def check(self, rs: Rules, st: GameState, u: Unit, typed: Notation) -> None:
        assert isinstance(typed, Withdraw)
        if not status(u).deployed:
            raise refuse(f"{u.id} is not deployed", "9.3")
        if typed.hex is not None:
            relocation(rs, st, u, typed.hex, "9.3")

    def candidates(self, rs: Rules, st: GameState, u: Unit, around: Around) -> Iterator[Notation]:
        if around.card.can_order(self.kind):
            yield Withdraw(u.id)
            for to in relocations(rs, st, u, around, "9.3"):
                yield Withdraw(u.id, to)


HOLD = _Hold()
RECONNOITRE = _Reconnoitre()
DEFEND = _Defend()
AMBUSH = _Ambush()
FIRE = _Fire()
SUPPRESS = _Suppress()
LOCATION = _Location()
SMOKE = _Smoke()
MERGE = _Merge()
LAY_MINES = _LayMines()
CLEAR_MINES = _ClearMines()
REMOVE_OBSTACLE = _RemoveObstacle()
REMOVE_WIRE = _RemoveWire()
CLEAR_PATH = _ClearPath()
PONTOON = _Pontoon()
LOAD_SUPPLY = _LoadSupply()
DEMOLITION = _Demolition()
ENTRENCH = _Entrench()
SUPPLY = _Supply()
TOW = _Tow()
FACING = _Facing()
DEPLOY = _Deploy()
WITHDRAW = _Withdraw()
