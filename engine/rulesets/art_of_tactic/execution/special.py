"""Provides step 9 of the Execution Phase: special orders (9.1–9.16, G19), each kind's part in its order:

relocations first (a towed unit takes position, 9.9), supply crates dropped (9.15.6), Reconnoitre (G19), hitching
up (9.9), the time-box orders of engineers, supply and entrenching starting (9.6–9.10, 9.16), vehicles on Ambush
hiding in their second round (3.11), demolition charges (9.8), merges (9.5), then Change field of fire, Deploy and
Withdraw (9.2–9.4). Nothing here asks a decision (15.2).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

from engine.hexgrid import Hex, distance

from ..data import OrderKind
from ..gamedata import data
from ..model import card, is_on_board, smoke
from ..records import Ongoing, status
from ..sight import facing_of, line_of_sight
from .common import active, can_act, expose, hide, ordered, step
from .machine import Run

__all__ = ["STARTS", "run_step"]


def _take_position(x: Run) -> None:
    """9.9: "Take position" unhitches a towed unit, which then starts deploying."""
    st, tr = x.st, x.tr
    for u, _o in ordered(x.rs, st, {"deploy"}):
        s = status(u)
        if s.towed and u.steps > 0:
            assert s.carried_by is not None
            tower = st.units[s.carried_by]
            s.carried_by, s.towed = None, False
            ts = status(tower)
            ts.carrying = tuple(p for p in ts.carrying if p != u.id)
            u.hex = tower.hex
            tr.emit("tow", f"{u.id} takes position in {st.board.label(u.hex) if u.hex else '?'} (rule 9.9)", unit=u.id)


def _drop_crates(x: Run) -> None:
    """9.15.6: a transport aircraft over its drop hex this round (not attacked by enemy aircraft) places its crate:
    the cargo less ⌈cargo / size⌉ cargo units per loss taken on the way (12.5), each cargo unit worth
    ``[supply_drop] cargo_unit`` ammunition (G24)."""
    st, tr = x.st, x.tr
    per = int(x.rs.tables.rules.get("supply_drop", {}).get("cargo_unit", 5))
    crates = data(st).crates
    for u in sorted(st.units.values(), key=lambda v: v.id):
        air = status(u).air
        if air is None or not air.cargo or air.round != st.turn or u.steps <= 0 or air.struck:
            continue
        cargo, size = air.cargo, card(x.rs.tables, u).size
        lost = ((air.size if air.size is not None else u.steps) - u.steps) * -(-cargo // size)
        left = max(0, cargo - lost)
        air.cargo = 0
        if left <= 0:
            tr.emit("supply", f"{u.id} lost all its cargo (rule 9.15.6)", unit=u.id)
            continue
        crates[air.target] = crates.get(air.target, 0) + left * per
        tr.emit(
            "supply",
            f"{u.id} drops a supply crate with {left * per} ammunition at {st.board.label(air.target)} (rule 9.15.6)",
            unit=u.id,
        )


def _reconnoitre(x: Run) -> None:
    """G19 PROPOSED: Reconnoitre reveals every hidden enemy unit and concealed HQ in sight within its range."""
    rs, st, tr = x.rs, x.st, x.tr
    reach = int(rs.tables.rules.get("reconnoitre", {}).get("range", 3))
    for u, _o in ordered(rs, st, {"reconnoitre"}):
        if not can_act(u) or u.hex is None:
            continue
        for e in sorted(st.units.values(), key=lambda v: v.id):
            if e.side == u.side or not is_on_board(e) or e.hex is None or distance(u.hex, e.hex) > reach:
                continue
            if not (status(e).hidden or status(e).concealed):
                continue
            if not line_of_sight(st.board, rs.policy, u.hex, e.hex, smoke(st)).visible:
                continue
            expose(st, tr, e, f"{u.id} reconnoitres (rule G19)", f" by {u.id} (rule G19)")


def _hitch(x: Run) -> None:
    """9.9: hitching up is immediate: both units ordered to tow each other."""
    st, tr = x.st, x.tr
    orders = active(st)
    for u, o in ordered(x.rs, st, {"tow"}):
        other = st.units.get(o.partner or "")
        po = orders.get(o.partner or "")
        if other is None or po is None or po.partner != u.id or not can_act(u) or not can_act(other):
            continue
        tower, towed = (u, other) if card(x.rs.tables, u).has("tow") else (other, u)
        ws = status(towed)
        if ws.towed or ws.deployed or towed.hex != tower.hex:
            continue
        ws.carried_by, ws.towed = tower.id, True
        status(tower).carrying += (towed.id,)
        tr.emit("tow", f"{tower.id} hitches up {towed.id} (rule 9.9)", unit=tower.id)


def _start(x: Run, kinds: set[OrderKind], make: Callable[[Run, str], Ongoing | None]) -> None:
    """Time-box orders of ``kinds`` start (2.7): each unit that can act and has none in progress marks none of its
    boxes yet; ``make`` gives the record of what is in progress (None: it cannot start, and says why)."""
    for u, _o in ordered(x.rs, x.st, kinds):
        if not can_act(u) or u.hex is None or status(u).ongoing is not None:
            continue
        got = make(x, u.id)
        if got is not None:
            status(u).ongoing = got


def _engineering(x: Run) -> None:
    """9.10, 9.16: removing dragon's teeth, clearing a path, building a pontoon bridge (with as many engineers as
    its manpower, 9.10) and loading supply start."""
    st, tr = x.st, x.tr
    orders = active(st)
    builders: dict[Hex, list[str]] = defaultdict(list)
    for u, o in ordered(x.rs, st, {"pontoon"}):
        if can_act(u) and not o.continued and o.hex is not None:
            builders[o.hex].append(u.id)

    def make(x: Run, uid: str) -> Ongoing | None:
        u, o = st.units[uid], orders[uid]
        c = card(x.rs.tables, u)
        need_men = c.order(o.kind, "manpower", 1)
        if o.kind == "pontoon" and len(builders[o.hex or u.hex]) < need_men:  # type: ignore[index]
            tr.emit("order", f"{u.id}'s pontoon bridge needs {need_men} engineer units (rule 9.10)", unit=u.id)
            return None
        tr.emit("special", f"{u.id} starts to {o.kind.replace('_', ' ')} (rule 9.10)", unit=u.id)
        return Ongoing(o.kind, 0, c.order(o.kind, "boxes", 1), hex=o.hex or u.hex)

    _start(x, {"remove_obstacle", "clear_path", "pontoon", "load_supply"}, make)


def _mines(x: Run) -> None:
    """9.6, 9.7: laying and clearing mines start (the kind laid stays secret)."""
    st, tr = x.st, x.tr
    orders = active(st)

    def make(x: Run, uid: str) -> Ongoing | None:
        u, o = st.units[uid], orders[uid]
        tr.emit("special", f"{u.id} starts to {o.kind.replace('_', ' ')} (rule 9.6, 9.7)", unit=u.id)
        return Ongoing(o.kind, 0, card(x.rs.tables, u).order(o.kind, "boxes", 1), hex=u.hex, mine=o.mine)

    _start(x, {"lay_mines", "clear_mines"}, make)


def _digging_and_supply(x: Run) -> None:
    """9.10, 9.16: entrenching and receiving supply start."""
    st, tr = x.st, x.tr
    orders = active(st)

    def make(x: Run, uid: str) -> Ongoing | None:
        u, o = st.units[uid], orders[uid]
        tr.emit("special", f"{u.id} starts to {o.kind} (rule 9.10, 9.16)", unit=u.id)
        need = card(x.rs.tables, u).order(o.kind, "boxes", 1)
        return Ongoing(o.kind, 0, need, facing_hex=o.facing_hex, partner=o.partner)

    _start(x, {"entrench", "supply"}, make)


def _vehicles_hide(x: Run) -> None:
    """3.11: vehicles on Ambush take two rounds: hidden in step 9 of the second."""
    st = x.st
    for u, _o in ordered(x.rs, st, {"ambush"}):
        if can_act(u) and card(x.rs.tables, u).type not in ("INF", "ART") and status(u).ambush_rounds >= 2:
            hide(st, x.tr, u)


def _demolition(x: Run) -> None:
    """9.8: engineers place demolition charges on the bridge or dugout in their hex (time boxes)."""
    st, tr = x.st, x.tr
    for u, _o in ordered(x.rs, st, {"demolition"}):
        if not can_act(u) or u.hex is None:
            continue
        s = status(u)
        if s.ongoing is None:
            need = card(x.rs.tables, u).order("demolition", "boxes", 1)
            s.ongoing = Ongoing("demolition", 0, need, hex=u.hex)
            tr.emit("special", f"{u.id} places demolition charges at {st.board.label(u.hex)} (rule 9.8)", unit=u.id)


def _merge(x: Run) -> None:
    """9.5: two units of the same card in one hex, each ordered to merge with the other, become one; PROPOSED: the
    larger stays."""
    st, tr = x.st, x.tr
    orders = active(st)
    for u, o in ordered(x.rs, st, {"merge"}):
        partner = o.partner or ""
        other = st.units.get(partner)
        po = orders.get(partner)
        if other is None or not can_act(u) or not can_act(other) or po is None or po.partner != u.id or u.steps <= 0:
            if u.steps > 0 and other is not None and other.steps > 0:
                tr.emit("order", f"{u.id}'s merge fails: {partner} did not merge with it (rule 9.5)", unit=u.id)
            continue
        if other.hex != u.hex or u.steps + other.steps > card(x.rs.tables, u).size:
            continue
        keep, gone = sorted((u, other), key=lambda v: (-v.steps, v.id))  # PROPOSED: the larger unit stays
        keep.steps += gone.steps
        ks = status(keep)
        ks.ammo = min(card(x.rs.tables, keep).ammo, ks.ammo + status(gone).ammo)
        gone.steps = 0
        gone.hex = None
        status(gone).merged_into = keep.id
        orders.pop(gone.id, None)
        tr.emit("merge", f"{gone.id} merges into {keep.id}, now size {keep.steps} (rule 9.5)", unit=keep.id)


def _facing_deploy_withdraw(x: Run) -> None:
    """9.4 Change field of fire (immediate); 9.2 Deploy and 9.3 Withdraw start (time boxes), first moving to the
    written adjacent hex unless an enemy or smoke is there by then."""
    st, tr = x.st, x.tr
    label = st.board.label
    for u, o in ordered(x.rs, st, {"facing", "deploy", "withdraw"}):
        if not can_act(u):
            continue
        assert u.hex is not None
        s = status(u)
        if o.kind == "facing":
            assert o.facing_hex is not None
            s.facing = facing_of(u.hex, o.facing_hex)
            tr.emit("special", f"{u.id} now faces {label(o.facing_hex)} (rule 9.4)", unit=u.id)
            continue
        if s.ongoing is not None:
            continue
        to = o.to
        if to is not None and to != u.hex:
            blocked = any(e.side != u.side and is_on_board(e) and e.hex == to for e in st.units.values())
            if blocked or to in smoke(st):
                tr.emit("special", f"{u.id} cannot move to {label(to)}: it stays where it is (rule 9.2)", unit=u.id)
            else:
                u.hex = to
                tr.emit("move", f"{u.id} moves to {label(to)} to {o.kind} (rule 9.2, 9.3)", unit=u.id, hex=label(to))
        need = card(x.rs.tables, u).order(o.kind, "boxes", 1)
        s.ongoing = Ongoing(o.kind, 0, need, facing_hex=o.facing_hex)
        tr.emit(
            "special",
            f"{u.id} starts to {o.kind} ({need} time box{'es' if need != 1 else ''}, rule 9.2)",
            unit=u.id,
        )


STARTS: tuple[Callable[[Run], None], ...] = (
    _take_position,
    _drop_crates,
    _reconnoitre,
    _hitch,
    _engineering,
    _mines,
    _digging_and_supply,
    _vehicles_hide,
    _demolition,
    _merge,
    _facing_deploy_withdraw,
)
"""Step 9's parts, in their order (relocations first, 9.1)."""


def run_step(x: Run) -> None:
    """Step 9: special orders."""
    step(x.rs, x.tr, 9, "Special orders")
    for part in STARTS:
        part(x)
