"""Provides the start of a round (2.2, 2.9 ROUND_START, 11.1 reinforcements) and the reveal of the orders that
opens the Execution Phase (2.4)."""

from __future__ import annotations

from dataclasses import replace

from engine.rules import Transition
from engine.state import Unit

from ..concealment import word_events
from ..gamedata import data
from ..model import Rules, card, is_on_board
from ..records import AmbushZone, Order, status
from ..sight import facing_of
from .common import unhide

__all__ = ["reveal", "start_round"]


def start_round(rs: Rules, tr: Transition) -> None:
    """ROUND_START (2.2, 2.9): reset defence and per-round flags, mark the flag of suppressed units, bring in the
    reinforcements due (11.1); then the round's Planning Phase (2.3)."""
    st = tr.state
    d = data(st)
    word_events(rs, tr)  # 9.11, 15.1: a concealed HQ arriving (11.1) is not named to the other side
    for u in st.units.values():
        s = status(u)  # what lasts one round goes (6.3, 8.1, 3.6, 5.5, 9.11, 3.11)
        s.absorbed, s.pending, s.defend, s.fof, s.bonus = 0, False, None, False, 0
        s.bonus_from, s.entered_from, s.adjust_used, s.ambush = None, None, False, None
        if s.suppressed and u.steps > 0:
            s.flag = True
        s.no_order = False
        if is_on_board(u) and u.hex is not None and u.hex in d.smoke:
            s.no_order = True  # 3.9: no order in the round after smoke
    _reinforcements(rs, tr)
    st.phase = "planning"
    d.orders = {side: {} for side in st.sides}
    d.committed = []
    d.active = None
    st.to_act = rs.tables.sides[0]
    tr.emit("round", f"Round {st.turn} of {d.rounds}: Planning Phase (rule 2.3)", round=st.turn)


def _reinforcements(rs: Rules, tr: Transition) -> None:
    """11.1: units due this round enter at the first of their entry hexes that holds no enemy and has room
    (4.9); a unit that finds none waits for the next round (PROPOSED reading)."""
    st = tr.state
    t = rs.tables
    lim = t.rules["stacking"]
    for u in st.units.values():
        s = status(u)
        if s.arrives is None or s.arrives > st.turn or u.steps <= 0:
            continue
        veh = t.is_vehicle(card(t, u).type)
        for h in s.entry:
            here = [v for v in st.units.values() if is_on_board(v) and v.hex == h]
            same = [v for v in here if v.side == u.side and t.is_vehicle(card(t, v).type) == veh]
            if any(v.side != u.side for v in here) or len(same) >= int(
                lim["vehicles" if veh else "infantry_artillery"]
            ):
                continue
            u.hex = h
            s.arrives = None
            s.entry = ()
            label = st.board.label(h)
            tr.emit("reinforcement", f"{u.id} arrives at {label} (rule 11.1)", unit=u.id, hex=label)
            break


def reveal(rs: Rules, tr: Transition) -> None:
    """REVEAL (2.4): every order becomes public; a new order replaces a time-box order in progress (2.7)."""
    st = tr.state
    d = data(st)
    active: dict[str, Order] = {}
    for side in rs.tables.sides:
        for uid, o in sorted(d.orders.get(side, {}).items()):
            u = st.units[uid]
            if u.steps <= 0:
                continue
            active[uid] = o
            s = status(u)
            if s.ongoing is not None and s.ongoing.kind != o.kind:
                tr.emit("order", f"{uid} abandons its {s.ongoing.kind} in progress (rule 2.7)", unit=uid)
                s.ongoing = None
            if o.kind == "lay_mines":  # 9.6: the opponent sees the order, not what is laid
                tr.emit("order", f"{side} order: {uid}: Lay mines", unit=uid, side=side)
                tr.emit("order", f"your order: {o.notation}", visible_to=[side], unit=uid)
            elif o.kind == "ambush":  # 3.11 PROPOSED: the opponent learns only "unit N: Ambush"
                tr.emit("order", f"{side} order: {uid}: Ambush", unit=uid, side=side)
                tr.emit("order", f"your order: {o.notation}", visible_to=[side], unit=uid)
            else:
                tr.emit("order", f"{side} order: {o.notation}", unit=uid, side=side, order=o.notation)
    for u in st.units.values():
        _in_force(rs, tr, u, active)
    d.active = active
    d.orders = {side: {} for side in st.sides}
    st.phase = "execution"
    tr.reveal()
    tr.emit("phase", f"Round {st.turn}: orders revealed, Execution Phase (rule 2.4)", round=st.turn)


def _in_force(rs: Rules, tr: Transition, u: Unit, active: dict[str, Order]) -> None:
    """What a revealed order puts in force at once: a time-box order in progress goes on (2.7), a bound unit's
    move is a withdrawal (7.8), Ambush's hiding, bonus and field of fire (3.11), a dugout or trench left without
    Defend (9.18.5, 9.18.6), Cautious movement's defence bonus (4.2)."""
    st = tr.state
    s = status(u)
    ongoing = s.ongoing
    if ongoing is not None and u.id not in active and u.steps > 0:
        active[u.id] = Order(ongoing.kind, f"(continues {ongoing.kind})", continued=True)
    o = active.get(u.id)
    if o is not None and o.kind in ("cautious", "march") and s.bound:
        o = active[u.id] = replace(o, withdrawal=True)
    if s.hidden and (o is None or o.kind != "ambush"):
        unhide(st, tr, u, "it does not carry out Ambush this round (rule 3.11)")
    if o is None or o.kind != "ambush":
        s.ambush_rounds = 0
    elif u.hex is not None:
        assert o.facing_hex is not None and o.range is not None
        c = card(rs.tables, u)
        s.ambush_rounds += 1
        s.bonus = c.order("ambush", "bonus")
        s.bonus_from = "Ambush"
        s.fof = True
        s.facing = facing_of(u.hex, o.facing_hex)
        s.ambush = AmbushZone(o.range)
    if s.in_dugout and (o is None or o.kind != "defend"):
        s.in_dugout = False
        tr.emit("order", f"{u.id} leaves the dugout: it was not given Defend (rule 9.18.6)", unit=u.id)
    if s.entrenched and (o is None or o.kind != "defend"):
        s.entrenched = False
        tr.emit("order", f"{u.id} leaves its trench: it was not given Defend (rule 9.18.5)", unit=u.id)
    if o is not None and o.kind == "cautious":
        bonus = card(rs.tables, u).order("cautious", "bonus")
        if bonus:
            s.bonus = bonus  # 4.2 PROPOSED: for the whole Execution Phase
            s.bonus_from = "cautious movement"
