"""Provides step 12 of the Execution Phase, the status update (2.6): time boxes and the orders they complete (one
completion per order kind, :data:`COMPLETIONS`), aircraft time boxes and preparation (9.12, 9.15), recovery tests
(8.3), close-combat binding (7.7), smoke clearing (3.9), HQs concealed again (9.11) and control (11.2).

Receiving supply asks its side how much ammunition it takes (9.16, 9.15.6, 15.2): :class:`~..frames.StatusStep`
keeps the unit whose order is completing, so the answer goes on from there.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from engine.hexgrid import distance
from engine.state import Unit

from ..combat import recovery_test
from ..data import OrderKind
from ..frames import StatusStep
from ..gamedata import data
from ..model import card, enemies_in_hex, is_on_board
from ..records import Minefield, Ongoing, status
from ..sight import facing_of
from .air_combat import land
from .common import active, destroy_bridge, destroy_dugout, step
from .machine import Handler, Run
from .victory import update_control

__all__ = ["COMPLETIONS", "HANDLERS", "run_status", "start"]

Completion = Callable[[Run, StatusStep, Unit, Ongoing], bool]
"""Completes a time-box order (2.7); False while its side decides (15.2)."""


def start(x: Run) -> None:
    """Step 12 begins: the header; the rest is a frame."""
    step(x.rs, x.tr, 12, "Status update")
    x.push(StatusStep(list(x.st.units)))


def run_status(x: Run, f: StatusStep) -> None:
    """2.6: time boxes, recovery tests, order marks, close-combat binding, control."""
    st = x.st
    while f.todo:
        u = st.units[f.todo[0]]
        if f.completing is None:
            s = status(u)
            og = s.ongoing
            if og is None or u.steps <= 0:
                f.todo.pop(0)
                continue
            og.boxes += 1
            if og.boxes < og.need:
                f.todo.pop(0)
                continue
            s.ongoing = None
            f.completing = og
            f.stage = "start"
        if not completion(f.completing.kind)(x, f, u, f.completing):
            return
        f.completing = None
        f.todo.pop(0)
    _aircraft(x)
    for side in x.rs.tables.sides:
        for u in st.units.values():
            if u.side == side and u.steps > 0 and status(u).flag:
                recovery_test(x.rs, x.tr, st, u)
    _binding(x)
    d = data(st)
    for h, placed_in in sorted(d.smoke.items()):
        if placed_in < st.turn:
            d.smoke.pop(h)
            label = st.board.label(h)
            x.tr.emit("smoke", f"the smoke on {label} clears (rule 3.9)", hex=label)
    _reconceal(x)
    update_control(st)
    d.active = None
    x.done(f)


# --- Completions of time-box orders (2.7) -----------------------------------------------------------------------


def _deployed(x: Run, f: StatusStep, u: Unit, og: Ongoing) -> bool:
    """9.2: deployed, facing the hex written."""
    s = status(u)
    s.deployed = True
    if og.facing_hex is not None and u.hex is not None:
        s.facing = facing_of(u.hex, og.facing_hex)
    x.tr.emit("special", f"{u.id} is deployed (rule 9.2)", unit=u.id)
    return True


def _withdrawn(x: Run, f: StatusStep, u: Unit, og: Ongoing) -> bool:
    """9.3: limbered up: it may move."""
    status(u).deployed = False
    x.tr.emit("special", f"{u.id} has limbered up and may move (rule 9.3)", unit=u.id)
    return True


def _entrenched(x: Run, f: StatusStep, u: Unit, og: Ongoing) -> bool:
    """9.10: a trench in the unit's hex, facing the hex written."""
    if u.hex is None or og.facing_hex is None:
        return True
    trenches = data(x.st).structures.trenches
    if u.hex not in trenches:
        facing = facing_of(u.hex, og.facing_hex)
        assert facing is not None
        trenches[u.hex] = facing
        x.tr.emit("structure", f"{u.id} has dug a trench in {x.st.board.label(u.hex)} (rule 9.10)", unit=u.id)
    return True


def _supplied(x: Run, f: StatusStep, u: Unit, og: Ongoing) -> bool:
    """9.16, 9.15.6: the unit is resupplied from the transport it named, or from the crate in its hex."""
    if og.partner == "crate":
        return _crate_supply(x, u)
    if og.partner is not None:
        return _resupply(x, f, u, x.st.units[og.partner])
    return True


def _mines_laid(x: Run, f: StatusStep, u: Unit, og: Ongoing) -> bool:
    """9.6: the minefield (or dummy) is laid in the engineer's hex: its kind is its side's secret."""
    kind = og.mine or "dummy"
    if kind != "dummy":
        status(u).mines = False  # the one real minefield is used (9.6)
    assert og.hex is not None
    data(x.st).minefields[og.hex] = Minefield(u.side, kind)
    x.tr.emit("mines", f"{u.id} has laid a minefield (rule 9.6)", visible_to=[u.side], unit=u.id)
    return True


def _teeth_removed(x: Run, f: StatusStep, u: Unit, og: Ongoing) -> bool:
    """9.10: the dragon's teeth between the engineer's hex and the hex written are gone."""
    if u.hex is None or og.hex is None:
        return True
    pair = (u.hex, og.hex) if u.hex <= og.hex else (og.hex, u.hex)
    teeth = data(x.st).structures.teeth
    if pair in teeth:
        teeth.remove(pair)
        a, b = (x.st.board.label(h) for h in pair)
        x.tr.emit("structure", f"{u.id} removes the dragon's teeth {a}-{b} (rule 9.10)", unit=u.id)
    return True


def _path_cleared(x: Run, f: StatusStep, u: Unit, og: Ongoing) -> bool:
    """9.10: a path through the woods hex (entered by any ground unit as if along a road)."""
    paths = data(x.st).structures.paths
    assert og.hex is not None
    if og.hex not in paths:
        paths.append(og.hex)
        x.tr.emit("structure", f"{u.id} has cleared a path through {x.st.board.label(og.hex)} (rule 9.10)", unit=u.id)
    return True


def _pontoon_built(x: Run, f: StatusStep, u: Unit, og: Ongoing) -> bool:
    """9.10, 9.18.7: a pontoon bridge stands in the river hex."""
    pontoons = data(x.st).structures.pontoons
    assert og.hex is not None
    if og.hex not in pontoons:
        pontoons.append(og.hex)
        label = x.st.board.label(og.hex)
        x.tr.emit("structure", f"a pontoon bridge stands at {label} (rule 9.10)", hex=label)
    return True


def _loaded(x: Run, f: StatusStep, u: Unit, og: Ongoing) -> bool:
    """9.16: the transport's ammunition cargo is refilled (less the capacity its losses took)."""
    s = status(u)
    cap = int(card(x.rs.tables, u).cargo.get("ammo", 0)) - s.cargo_lost
    s.cargo_ammo = max(s.cargo_ammo, cap)
    x.tr.emit("supply", f"{u.id} has loaded supplies: {cap} ammunition (rule 9.16)", unit=u.id)
    return True


def _mines_cleared(x: Run, f: StatusStep, u: Unit, og: Ongoing) -> bool:
    """9.7: the revealed minefield in the engineer's hex is cleared."""
    assert og.hex is not None
    if data(x.st).minefields.pop(og.hex, None) is not None:
        x.tr.emit("mines", f"{u.id} clears the minefield at {x.st.board.label(og.hex)} (rule 9.7)", unit=u.id)
    return True


def _charges_blown(x: Run, f: StatusStep, u: Unit, og: Ongoing) -> bool:
    """9.8: the charges explode: a dugout is destroyed with everyone inside, a bridge is destroyed."""
    status(u).charges_used = True
    assert og.hex is not None
    why = f"{u.id}'s charges explode (rule 9.8)"
    if og.hex in data(x.st).structures.dugouts:
        destroy_dugout(x.tr, og.hex, why, kill=True)
    else:
        destroy_bridge(x.tr, og.hex, why)
    return True


def _nothing(x: Run, f: StatusStep, u: Unit, og: Ongoing) -> bool:
    return True


COMPLETIONS: dict[OrderKind, Completion] = {
    "deploy": _deployed,
    "withdraw": _withdrawn,
    "entrench": _entrenched,
    "supply": _supplied,
    "lay_mines": _mines_laid,
    "remove_obstacle": _teeth_removed,
    "clear_path": _path_cleared,
    "pontoon": _pontoon_built,
    "load_supply": _loaded,
    "clear_mines": _mines_cleared,
    "demolition": _charges_blown,
}
"""Each time-box order kind (2.7) → what its completion does in step 12."""


def completion(kind: OrderKind) -> Completion:
    return COMPLETIONS.get(kind, _nothing)


# --- Supply (9.16, 9.15.6) -------------------------------------------------------------------------------------


def _resupply(x: Run, f: StatusStep, u: Unit, tp: Unit) -> bool:
    """9.16: both units ordered, in one hex; an engineer without a real minefield takes a mine first (9.6
    PROPOSED), then the unit takes the ammunition its side chooses (preset: all it lacks). False while it decides."""
    st, tr = x.st, x.tr
    us, ts = status(u), status(tp)
    if f.stage == "start":
        o = active(st).get(tp.id)
        if o is None or o.kind != "supply" or tp.hex != u.hex or tp.steps <= 0 or u.steps <= 0:
            tr.emit("order", f"{u.id} is not resupplied: {tp.id} did not deliver (rule 9.16)", unit=u.id)
            return True
        if card(x.rs.tables, u).has("engineer") and not us.mines and ts.cargo_mines > 0:
            ts.cargo_mines -= 1  # 9.6 PROPOSED: a mine for a real minefield
            us.mines = True
            tr.emit("supply", f"{u.id} takes a mine from {tp.id}: one real minefield (rule 9.6)", unit=u.id)
        f.stage = "amount"
    want = card(x.rs.tables, u).ammo - us.ammo
    most = max(0, min(want, ts.cargo_ammo))
    give = _supply_amount(x, u, most, f"from {tp.id}", "9.16", [u, tp])
    if give is None:
        return False
    us.ammo += give
    ts.cargo_ammo -= give
    tr.emit("supply", f"{u.id} takes {give} ammunition from {tp.id} (rule 9.16)", unit=u.id)
    return True


def _supply_amount(x: Run, u: Unit, most: int, source: str, rule: str, units: list[Unit]) -> int | None:
    """9.16: how much ammunition the unit takes, from all it can (the preset, 15.2) down to 1 (more than 0: the
    order was given to be resupplied); None while its side decides."""
    if most <= 1:
        return most
    got = x.decide(
        side=u.side,
        kind="supply",
        question=f"{u.id} is resupplied {source}: how much ammunition does it take (at most {most})?",
        rule=rule,
        options=[(str(n), f"{n} ammunition" + (" (all it can)" if n == most else "")) for n in range(most, 0, -1)],
        units=units,
    )
    return None if got is None else int(got)


def _crate_supply(x: Run, u: Unit) -> bool:
    """9.15.6, G24: a unit takes what it lacks from the crate in its hex (either side's); an empty crate goes.
    False while its side decides."""
    st, tr = x.st, x.tr
    crates = data(st).crates
    if u.steps <= 0 or u.hex is None or crates.get(u.hex, 0) <= 0:
        tr.emit("order", f"{u.id} is not resupplied: no crate left in its hex (rule 9.15.6)", unit=u.id)
        return True
    label = st.board.label(u.hex)
    s = status(u)
    most = max(0, min(card(x.rs.tables, u).ammo - s.ammo, crates[u.hex]))
    give = _supply_amount(x, u, most, f"from the supply crate at {label}", "9.15.6", [u])
    if give is None:
        return False
    s.ammo += give
    crates[u.hex] -= give
    tr.emit("supply", f"{u.id} takes {give} ammunition from the supply crate at {label} (rule 9.15.6)", unit=u.id)
    if crates[u.hex] <= 0:
        del crates[u.hex]
        tr.emit("supply", f"the supply crate at {label} is empty and removed (rule 9.15.6)")
    return True


# --- The rest of step 12 ----------------------------------------------------------------------------------------


def _aircraft(x: Run) -> None:
    """9.15.5, 9.15.3: a patrol or recon aircraft marks a time box a round and goes home when its rounds or its
    boxes are up; 9.12: an aircraft on its airfield marks its next preparation box."""
    st, tr, t = x.st, x.tr, x.rs.tables
    for u in st.units.values():
        s = status(u)
        pz = s.air
        if pz is not None and (pz.patrol or pz.recon) and u.steps > 0:
            pz.aloft += 1
            s.boxes += 1
            if pz.aloft >= pz.rounds or s.boxes >= max(1, card(t, u).mission_boxes):
                land(tr, u, "its patrol is over" if pz.patrol else "its reconnaissance is over")
    for u in st.units.values():
        s = status(u)
        if card(t, u).type == "AIR" and u.steps > 0 and s.air is None and 0 < s.prep < 4:
            s.prep += 1  # 2.6: the next preparation box (9.12)
            tr.emit("air", f"{u.id} on its airfield: preparation box {s.prep} (rule 9.12)", unit=u.id)


def _binding(x: Run) -> None:
    """7.7: units sharing a hex with enemies are bound in close combat (each to one of them); the others are
    free again (their close-combat role goes)."""
    st = x.st
    for u in st.units.values():
        if not is_on_board(u):
            continue
        s = status(u)
        foes = enemies_in_hex(st, u)
        if foes:
            s.bound = True
            if not any(e.id == s.bound_to for e in foes):
                s.bound_to = foes[0].id
        else:
            s.bound, s.bound_to, s.role = False, None, None


def _reconceal(x: Run) -> None:
    """9.11 PROPOSED: a found HQ that ended the round in another hex with no enemy next to it hides again."""
    st, tr = x.st, x.tr
    for u in st.units.values():
        s = status(u)
        found = s.found_at
        if found is None or not is_on_board(u) or u.hex is None or u.hex == found:
            continue
        if not any(
            e.side != u.side and is_on_board(e) and e.hex is not None and distance(e.hex, u.hex) <= 1
            for e in st.units.values()
        ):
            # Named before it hides: the other side knows the found HQ and sees it become unidentified (9.11).
            tr.emit("concealed", f"{u.side} HQ {u.id} is concealed again (rule 9.11)", unit=u.id)
            s.concealed = True
            s.found_at = None


HANDLERS: Mapping[type, Handler] = {StatusStep: run_status}
"""The frames of this module and their handlers."""
