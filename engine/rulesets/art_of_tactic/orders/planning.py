"""Provides the Planning Phase of Art of Tactic (digest 2.3, 2.9 PLANNING): reading an order's notation, checking an
order, writing it on the card, and the legal orders of a side.

Each side writes one order per unit in secret (``data.orders[side]``), then ``commit``. Every order is checked
against the board as the side sees it now; a refusal names the unit, the reason and the rule. The order kinds and
their handlers are in :mod:`.registry`.
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.actions import Action, parse_notation
from engine.errors import IllegalActionError, InvalidActionError
from engine.hexgrid import Hex
from engine.notation import Notation
from engine.state import GameState, Unit
from engine.typed import to_plain

from ..data import UnitCard
from ..gamedata import data
from ..model import Rules, card, policy_rows, refuse, side_units, visible_enemy
from ..notation import CancelOrder, Commit, FireMove
from ..records import Order, status
from .common import Around, check_common, end_hex, refusal_for, unit_can_take_orders
from .moves import check_fire_on_move
from .registry import ORDERS, candidates
from .verbs import KINDS, VERBS, policy_help

__all__ = ["check_order", "iter_orders", "parse", "record"]

_ARITY: dict[str, tuple[int, int]] = {
    "commit": (0, 0), "hold": (1, 1), "reconnoitre": (1, 1), "cancel": (1, 1), "withdraw": (1, 2),
    "dismount": (1, 1), "demolish": (1, 1), "unwire": (2, 2), "smoke": (3, 3), "merge": (2, 2), "entrench": (2, 2),
    "supply": (1, 2), "tow": (2, 2), "location": (2, 2), "mines": (2, 2), "clearmines": (1, 1), "unteeth": (2, 2),
    "clearpath": (1, 1), "pontoon": (2, 2), "load": (1, 1), "airstrike": (3, 3), "intercept": (3, 3),
    "patrol": (5, 5), "recon": (5, 5), "drop": (4, 4), "airland": (4, 4), "escort": (2, 2), "fire": (2, 2),
    "suppress": (2, 2), "mount": (2, 2), "facing": (2, 2), "deploy": (2, 3), "defend": (3, 4), "ambush": (3, 4),
    "move": (2, 99), "march": (2, 99), "assault": (2, 99), "firemove": (4, 99),
}  # fmt: skip
"""Verb → the fewest and the most arguments its notation takes."""

_HEXES: dict[str, tuple[int, ...] | int] = {
    "firemove": 2, "move": 1, "march": 1, "assault": 2, "deploy": 1, "withdraw": 1, "airstrike": 1,
    "intercept": (2,), "patrol": (1, 4), "recon": (1, 4), "drop": (1, 3), "airland": (1, 3), "defend": (1,),
    "ambush": (1,), "facing": (1,), "unwire": (1,), "entrench": (1,), "location": (1,), "unteeth": (1,),
    "pontoon": (1,), "smoke": (1, 2),
}  # fmt: skip
"""Verb → the positions of its hex arguments, or the first of the hexes that run to the end."""

_NUMBERS: dict[str, tuple[tuple[int, ...], str]] = {
    "patrol": ((2, 3), "{verb}: the radius and the number of rounds must be numbers"),
    "recon": ((2, 3), "{verb}: the radius and the number of rounds must be numbers"),
    "drop": ((2,), "drop: the cargo must be a number of cargo units, got {arg!r}"),
    "defend": ((2,), "{verb}: the range must be a number of hexes, got {arg!r}"),
    "ambush": ((2,), "{verb}: the range must be a number of hexes, got {arg!r}"),
}
"""Verb → the positions of its numbers and the refusal when one is not."""


def _is_label(text: str) -> bool:
    """True for a hex label (``0805``) rather than a unit id."""
    return text.isdigit() and len(text) in (4, 6)


def _hex_args(a: Action) -> tuple[str, ...]:
    where = _HEXES.get(a.verb)
    if isinstance(where, int):
        return a.args[where:]
    if where is not None:
        return tuple(a.args[i] for i in where)
    if a.verb == "fire" and _is_label(a.args[1]):
        return (a.args[1],)
    return ()


def parse(rs: Rules, st: GameState, text: str) -> Action:
    """Read an order's notation (the exact inverse of ``str(action)``), refusing what is malformed with a sentence
    that says how to write it."""
    a = parse_notation(text)
    if a.verb not in VERBS:
        raise InvalidActionError(f"unknown verb {a.verb!r}: art_of_tactic knows {', '.join(sorted(VERBS))}")
    n = len(a.args)
    least, most = _ARITY[a.verb]
    if not least <= n <= most:
        raise InvalidActionError(f"{a.verb}: wrong number of arguments; usage: {VERBS[a.verb]}")
    if n and a.verb != "commit" and a.args[0] not in st.units:
        raise InvalidActionError(f"{a.verb}: no unit {a.args[0]!r}")
    for h in _hex_args(a):
        try:
            st.board.parse(h)
        except ValueError as err:
            raise InvalidActionError(f"{a.verb}: {err}") from None
    if a.verb == "mines" and a.args[1] not in ("at", "ap", "dummy"):
        raise InvalidActionError(f"mines: the kind must be at, ap or dummy, got {a.args[1]!r}")
    numbers, refusal = _NUMBERS.get(a.verb, ((), ""))
    for i in numbers:
        if not a.args[i].isdigit():
            raise InvalidActionError(refusal.format(verb=a.verb, arg=a.args[i]))
    if a.verb in ("defend", "ambush") and n == 4:
        policy = a.args[3]
        if not (policy in ("first", "hold") or policy_rows(rs.tables, policy)):
            raise InvalidActionError(f"{a.verb}: unknown policy {policy!r}; {policy_help()}")
    return a


def record(typed: Notation, notation: str) -> Order:
    """The order written on the card for an order's notation (2.3)."""
    return ORDERS[KINDS[type(typed)]].record(typed, notation)


def check_order(rs: Rules, st: GameState, typed: Notation) -> None:
    """Refuse the planning action ``typed`` if it is not allowed now (2.9 PLANNING checks), citing the rule."""
    side = st.to_act
    assert side is not None
    if isinstance(typed, Commit):
        return
    uid = getattr(typed, "unit", "")
    u = st.units.get(uid)
    if u is None:
        raise refuse(f"there is no unit {uid!r}", "2.3")
    sheet = data(st).orders.setdefault(side, {})
    if isinstance(typed, CancelOrder):
        if u.side != side or u.id not in sheet:
            raise refuse(f"{u.id} has no order of yours to cancel", "2.3")
        return
    unit_can_take_orders(rs, st, u, side)
    if u.id in sheet:
        raise refuse(f"{u.id} already has an order this round ({sheet[u.id].notation}); cancel it first", "2.3")
    kind = KINDS[type(typed)]
    try:
        check_common(rs, st, u, typed, kind)
        ORDERS[kind].check(rs, st, u, typed)
    except IllegalActionError as err:
        raise refusal_for(u, err) from None


def _around(st: GameState, u: Unit, c: UnitCard) -> Around:
    neighbours = tuple(n for n in u.hex.neighbours() if n in st.board.cells) if u.hex is not None else ()
    enemies = tuple(e for e in st.units.values() if e.side != u.side and visible_enemy(st, e))
    return Around(c, neighbours, enemies)


def _unit_orders(rs: Rules, st: GameState, u: Unit) -> list[tuple[Action, Hex | None]]:
    """A unit's legal orders before stacking, each with the hex its move ends in (None if it does not move).

    Generated paths are legal by construction (``movement.destinations``), so for a move only the enemies on the
    path are checked; the checks every order of a kind shares are made once per kind, and so is the kind's own
    check where its candidates are legal by construction (``OrderType.same_check``)."""
    out: list[tuple[Action, Hex | None]] = []
    around = _around(st, u, card(rs.tables, u))
    enemy_hexes = {e.hex for e in around.enemies}
    bound = status(u).bound
    common: dict[str, bool] = {}
    checked: dict[str, bool] = {}
    board = st.board
    for typed in candidates(rs, st, u, around):
        kind = KINDS[type(typed)]
        ok = common.get(kind)
        if ok is None:
            try:
                check_common(rs, st, u, typed, kind)
                ok = True
            except IllegalActionError:
                ok = False
            common[kind] = ok
        if not ok:
            continue
        if isinstance(typed, FireMove):
            try:
                check_fire_on_move(rs, st, u, typed, stacking=False)
            except IllegalActionError:
                continue
            out.append((typed.action(board), typed.path[-1]))
            continue
        path: tuple[Hex, ...] = getattr(typed, "path", ())
        if kind in ("cautious", "march") and not bound:
            if not any(h in enemy_hexes for h in path):
                out.append((typed.action(board), path[-1]))
            continue
        handler = ORDERS[kind]
        ok = checked.get(kind) if handler.same_check else None
        if ok is None:
            try:
                handler.check(rs, st, u, typed)
                ok = True
            except IllegalActionError:
                ok = False
            if handler.same_check:
                checked[kind] = ok
        if ok:
            out.append((typed.action(board), None))
    return out


def _end_counts(rs: Rules, st: GameState, side: str) -> dict[Hex, list[int]]:
    """Where the side's units will end the round as ordered so far: {hex: [vehicles, infantry]} (4.9)."""
    t = rs.tables
    sheet = data(st).orders.get(side, {})
    out: dict[Hex, list[int]] = {}
    for x in side_units(st, side):
        where = end_hex(st, x, sheet.get(x.id))
        assert where is not None
        out.setdefault(where, [0, 0])[0 if t.is_vehicle(card(t, x).type) else 1] += 1
    return out


def _signature(st: GameState) -> tuple[object, ...]:
    """What the legal orders of a unit depend on, apart from the side's own order sheet: copies, compared by value
    and, for the dicts whose order the candidates may follow, by order (a status's plain form lists its fields in
    their declared order)."""
    units = [(u.id, u.hex, u.steps, to_plain(u.status)) for u in st.units.values()]
    d = data(st)
    structures = tuple((k, tuple(v.items()) if isinstance(v, dict) else v) for k, v in to_plain(d.structures).items())
    return (st.turn, st.viewer, units, tuple(d.smoke.items()), structures, tuple(d.last_seen.items()))


def iter_orders(rs: Rules, st: GameState) -> Iterator[Action]:
    """Every legal planning action of the side to act, in a deterministic order.

    Generated paths are legal by construction (``movement.destinations``), so only what changes with the units
    (enemies on the path, stacking at its end) is checked for them. Orders never move units while a side
    plans, so each unit's orders are kept (per board, for the latest position) and only stacking, which
    depends on the orders already given, is checked again at each decision.
    """
    side = st.to_act
    assert side is not None
    t = rs.tables
    sheet = data(st).orders.get(side, {})
    ends = _end_counts(rs, st, side)
    lim = t.rules["stacking"]
    key = ("aot-legal", side, st.viewer)
    sig = _signature(st)
    slot = st.board.cache.get(key)
    if slot is None or slot[0] != sig:
        slot = (sig, {})
        st.board.cache[key] = slot
    per_unit: dict[str, list[tuple[Action, Hex | None]]] = slot[1]
    for u in st.units.values():
        aircraft = card(t, u).type == "AIR"
        if u.side != side or u.steps <= 0 or (u.hex is None and status(u).carried_by is None and not aircraft):
            continue
        if u.id in sheet:
            yield Action("cancel", (u.id,))
            continue
        try:
            unit_can_take_orders(rs, st, u, side)
        except IllegalActionError:
            continue
        acts = per_unit.get(u.id)
        if acts is None:
            acts = _unit_orders(rs, st, u)
            per_unit[u.id] = acts
        veh = t.is_vehicle(card(t, u).type)
        room = int(lim["vehicles" if veh else "infantry_artillery"])
        for a, end in acts:
            if end is not None and ends.get(end, [0, 0])[0 if veh else 1] + 1 > room:
                continue
            yield a
    yield Action("commit", ())
