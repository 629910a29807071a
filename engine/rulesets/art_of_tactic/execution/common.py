"""Provides what the execution steps share (2.4–2.9): the revealed orders in the order dice go (15.4), who can still
act, hiding and revealing units (3.11, 9.11), step headers, moving one hex, structures taking hits (9.18) and
minefields (9.6, 9.7)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from engine.hexgrid import Hex, distance
from engine.rules import Transition
from engine.state import GameState, Unit

from ..combat import roll_attack
from ..data import OrderKind, Tables
from ..frames import Attack
from ..gamedata import data
from ..model import Rules, card, hex_label_of, is_on_board
from ..records import Order, status
from ..sight import side_of_entry

__all__ = [
    "active",
    "can_act",
    "carry_passengers",
    "cross_wire",
    "destroy_bridge",
    "destroy_dugout",
    "entry",
    "expose",
    "hide",
    "hit_pontoon",
    "ordered",
    "reveal_adjacent",
    "reveal_minefield",
    "roll_all",
    "step",
    "unhide",
    "unit_options",
]


def active(st: GameState) -> dict[str, Order]:
    """The revealed orders being carried out this round (2.4)."""
    got = data(st).active
    assert got is not None, "no orders are being carried out"
    return got


def ordered(rs: Rules, st: GameState, kinds: Iterable[OrderKind]) -> list[tuple[Unit, Order]]:
    """Units whose revealed order is of ``kinds``, German first then Soviet, by id (15.4)."""
    wanted = frozenset(kinds)
    orders = active(st)
    out: list[tuple[Unit, Order]] = []
    for side in rs.tables.sides:
        for u in st.units.values():
            o = orders.get(u.id)
            if u.side == side and o is not None and o.kind in wanted and u.steps > 0:
                out.append((u, o))
    return out


def can_act(u: Unit) -> bool:
    """On the board with size left and not suppressed (8.3: its orders are cancelled)."""
    return u.steps > 0 and u.hex is not None and not status(u).suppressed


def unhide(st: GameState, tr: Transition, u: Unit, why: str) -> None:
    """3.11: a hidden unit comes back on the board; its "last seen" marker goes."""
    status(u).hidden = False
    at = hex_label_of(st, u)
    data(st).last_seen.pop(u.id, None)
    tr.emit("revealed", f"{u.id} is revealed at {at}: {why}", unit=u.id, hex=at)


def expose(st: GameState, tr: Transition, u: Unit, why: str, found: str) -> None:
    """A hidden unit is revealed (``why``) and a concealed HQ found (``found``: " by X (rule N)")."""
    s = status(u)
    if s.hidden:
        unhide(st, tr, u, why)
    if s.concealed and u.hex is not None:
        s.concealed = False
        s.found_at = u.hex
        tr.emit("revealed", f"{u.id} is found at {st.board.label(u.hex)}{found}", unit=u.id)


def hide(st: GameState, tr: Transition, u: Unit) -> None:
    """3.11: the model leaves the board; the opponent keeps a "last seen" marker."""
    s = status(u)
    if s.hidden or u.hex is None:
        return
    s.hidden = True
    data(st).last_seen[u.id] = u.hex
    tr.emit("hidden", f"{u.id} is hidden in ambush (rule 3.11)", unit=u.id)


def reveal_adjacent(rs: Rules, tr: Transition) -> None:
    """9.11, 3.11: a concealed HQ or hidden unit with an enemy unit next to it (or in its hex) is found."""
    st = tr.state
    for u in st.units.values():
        s = status(u)
        if not (s.concealed or s.hidden) or not is_on_board(u) or u.hex is None:
            continue
        if not any(
            e.side != u.side and is_on_board(e) and e.hex is not None and distance(e.hex, u.hex) <= 1
            for e in st.units.values()
        ):
            continue
        expose(st, tr, u, "an enemy unit is next to it (rule 3.11)", " (rule 9.11)")


def step(rs: Rules, tr: Transition, n: int, name: str, reveal: bool = True) -> None:
    """A step begins (2.5); units found by adjacency at the end of the last one are revealed first."""
    if reveal:
        reveal_adjacent(rs, tr)  # checked at the end of every step (3.11, 9.11)
    tr.emit("step", f"Step {n}: {name} (rule 2.5)", step=n)


def entry(frm: Hex | None, into: Hex | None) -> int | None:
    """The hexside of ``into`` a unit crosses coming from ``frm`` (its facing after the step, 5.5)."""
    if frm is None or into is None:
        return None
    return side_of_entry(frm, into)


def carry_passengers(st: GameState, u: Unit) -> None:
    """4.6: passengers and a towed unit go where their transport goes."""
    for pid in status(u).carrying:
        st.units[pid].hex = u.hex


def cross_wire(rs: Rules, tr: Transition, u: Unit, into: Hex) -> None:
    """9.17, 9.18.3: a tank crossing a wired hexside destroys the wire."""
    st = tr.state
    if u.hex is None or not rs.tables.is_tank(card(rs.tables, u).type):
        return
    pair = (u.hex, into) if u.hex <= into else (into, u.hex)
    wire = data(st).structures.wire
    if pair in wire:
        wire.remove(pair)
        a, b = (st.board.label(h) for h in pair)
        tr.emit("structure", f"{u.id} crosses and destroys the barbed wire {a}-{b} (rule 9.17)", unit=u.id)


def unit_options(t: Tables, units: Iterable[Unit]) -> list[tuple[str, str]]:
    """A decision's options that are units (15.2): the id, then its card and size, as the question lists them."""
    return [(x.id, f"{x.id} ({card(t, x).code}, size {x.steps})") for x in units]


def roll_all(tr: Transition, t: Tables, attacks: Iterable[Attack]) -> dict[str, int]:
    """6.5: roll every attack of one step before any result applies; hits per target unit id."""
    hits: dict[str, int] = defaultdict(int)
    for a in attacks:
        got, _ = roll_attack(tr, t, a)
        hits[a.target] += got
    return hits


def by_side(rs: Rules, st: GameState, ids: Iterable[str]) -> list[str]:
    """Unit ids, the first side's first, then by id (the order results apply in, 15.4)."""
    return sorted(ids, key=lambda i: (rs.tables.sides.index(st.units[i].side), i))


# --- Structures (9.18) -----------------------------------------------------------------------------------------


def destroy_dugout(tr: Transition, h: Hex, why: str, kill: bool) -> None:
    """9.18.6: the dugout is removed; demolition destroys every unit inside, fire leaves them on the board."""
    st = tr.state
    if data(st).structures.dugouts.pop(h, None) is None:
        return
    label = st.board.label(h)
    tr.emit("structure", f"the dugout at {label} is destroyed: {why}", hex=label)
    for u in st.units.values():
        s = status(u)
        if s.in_dugout and u.hex == h:
            s.in_dugout = False
            if kill:
                tr.emit("destroyed", f"{u.id} is destroyed inside the dugout (rule 9.8)", unit=u.id)
                u.steps = 0
                u.hex = None
                active(st).pop(u.id, None)


def hit_pontoon(rs: Rules, tr: Transition, h: Hex, got: int) -> None:
    """9.18.7, 9.18.8 PROPOSED: a pontoon bridge takes hits like a bridge; at its card's hits it is gone (the river
    hex closes again to movement)."""
    st = tr.state
    s = data(st).structures
    label = st.board.label(h)
    s.pontoon_hits[h] = s.pontoon_hits.get(h, 0) + got
    need = int(rs.tables.structures["pontoon"]["hits"])
    if got:
        tr.emit(
            "structure", f"the pontoon bridge at {label} takes {got} hit(s): {s.pontoon_hits[h]} of {need}", hex=label
        )
    if s.pontoon_hits[h] >= need:
        del s.pontoon_hits[h]
        s.pontoons.remove(h)
        tr.emit("structure", f"the pontoon bridge at {label} is destroyed: hit by fire (rule 9.18.8)", hex=label)


def destroy_bridge(tr: Transition, h: Hex, why: str) -> None:
    """9.18.2: the bridge flips to its destroyed side; record the round for scenario rules."""
    st = tr.state
    bridge = data(st).structures.bridges.get(h)
    if bridge is None or bridge.destroyed:
        return
    bridge.destroyed = True
    bridge.round = st.turn
    label = st.board.label(h)
    tr.emit("structure", f"the bridge at {label} is destroyed: {why}", hex=label)


# --- Minefields (9.6, 9.7) -------------------------------------------------------------------------------------


def reveal_minefield(tr: Transition, h: Hex) -> bool:
    """Reveal a minefield card; a dummy is put aside. Returns True if the mines are real."""
    st = tr.state
    fields = data(st).minefields
    field = fields[h]
    label = st.board.label(h)
    if not field.revealed:
        field.revealed = True
        tr.reveal()
        tr.emit("mines", f"a minefield is revealed at {label}: {field.kind.replace('_', '-')}", hex=label)
    if field.kind == "dummy":
        fields.pop(h)
        tr.emit("mines", f"the minefield at {label} was a dummy and is removed (rule 9.7)", hex=label)
        return False
    return True
