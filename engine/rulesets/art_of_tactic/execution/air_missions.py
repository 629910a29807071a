"""Provides step 5 of the Execution Phase: air missions (9.12–9.15, 9.19).

Intercepts of aircraft still over a target from the last round fly first; aircraft sitting in an enemy patrol's
zone are fought; missions over return; then patrols, recon flights, strikes (with their escorts), supply drops
and airborne landings take off, with the interceptors of aircraft launching now, and all fly together one hex a
flight step (:class:`~..frames.FlyTogether`); then patrols whose zones overlap fight, and recon aircraft search.
Every air combat is a frame that can wait for a side's pairing choices (15.2).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Literal

from engine.hexgrid import distance

from ..frames import AirStep, Flight, FlyTogether, Meet
from ..model import card, is_on_board
from ..orders.common import has_hq
from ..records import AirMission, status
from .air_combat import abort, air_combat, flak_on, flight_path, fly, in_zone, land, patrols, with_escorts
from .common import active, expose, ordered
from .machine import Handler, Run

__all__ = ["HANDLERS", "run_air_step", "run_fly_together"]


def run_air_step(x: Run, f: AirStep) -> None:
    """9.19 for air missions: intercepts against aircraft still over a target, patrol zones, returns, launches
    with their flights and flak, overlapping patrols, reconnaissance. All interceptors of one target fly in, then
    fight it together (9.14, DR-20)."""
    if f.stage == "start":
        _pending_intercepts(x, f)
        f.stage = "old"
    if f.stage == "old" and not _old_targets(x, f):
        return
    if f.stage == "old":
        f.todo = sorted(x.st.units)
        f.stage = "hunt"
    if f.stage == "hunt" and not _hunters(x, f):
        return
    if f.stage == "hunt":
        _returns(x)
        flights = _launches(x, f)
        f.stage = "flown"
        x.push(FlyTogether(flights))
        return
    if f.stage == "flown":
        f.todo = [p.id for p in patrols(x.st)]  # 9.19 step 5: the zones are active once on station
        f.stage = "overlap"
    if f.stage == "overlap" and not _overlapping_patrols(x, f):
        return
    _recon_detection(x)
    x.done(f)


def _pending_intercepts(x: Run, f: AirStep) -> None:
    """The intercepts that may fly (an unsuppressed HQ on the board, 9.11), grouped by their target."""
    rs, st = x.rs, x.st
    for u, o in ordered(rs, st, {"intercept"}):
        if u.steps > 0 and not status(u).suppressed and has_hq(rs, st, u.side):
            assert o.target is not None and o.entry is not None
            f.pending.append(u.id)
            f.targets[u.id] = o.target
            f.entries[u.id] = o.entry
    f.groups = _by_target(f, f.pending)


def _by_target(f: AirStep, pending: list[str]) -> list[Meet]:
    out: dict[str, list[str]] = {}
    for uid in pending:
        out.setdefault(f.targets[uid], []).append(uid)
    return [Meet(tid, group) for tid, group in out.items()]


def _old_targets(x: Run, f: AirStep) -> bool:
    """1. Intercepts of aircraft still over their target from the last round: all the interceptors of one target fly
    in (flak on the way), then fight it and its escorts. False while an air combat waits for a decision."""
    st, tr = x.st, x.tr
    while f.at < len(f.groups):
        group = f.groups[f.at]
        f.at += 1
        target = st.units[group.target]
        air = status(target).air
        if air is None or air.round >= st.turn or target.steps <= 0:
            continue
        f.pending = [uid for uid in f.pending if uid not in group.units]
        label = st.board.label(air.target)
        flown = []
        for uid in group.units:
            u = st.units[uid]
            s = status(u)
            s.prep, s.boxes = 0, 0
            tr.emit("air", f"{u.id} takes off to intercept {target.id} over {label} (rule 9.15.2)", unit=u.id)
            if not fly(x, u, f.entries[uid], air.target):
                if u.steps > 0:
                    s.prep = 1
                continue
            s.air = AirMission(air.target, st.turn, struck=True, intercept=True)
            flown.append(u)
        if flown and target.steps > 0 and status(target).air is not None:
            x.push(air_combat(x.rs, flown, with_escorts(st, target), label))
            return False
    f.at = 0
    return True


def _hunters(x: Run, f: AirStep) -> bool:
    """9.15.5: an enemy aircraft still in a patrolled zone is fought by every patrol of the zone. False while an
    air combat waits for a decision."""
    st = x.st
    while f.todo:
        u = st.units[f.todo.pop(0)]
        air = status(u).air
        if air is None or air.patrol or u.steps <= 0:
            continue
        hunters = [p for p in patrols(st) if p.side != u.side and in_zone(p, air.target)]
        if hunters:
            x.push(air_combat(x.rs, hunters, with_escorts(st, u), st.board.label(air.target)))
            return False
    return True


def _returns(x: Run) -> None:
    """2. Aircraft whose mission is over return (a patrol stays until its duration is up, step 12)."""
    st, t = x.st, x.rs.tables
    for u in st.units.values():
        air = status(u).air
        old = air is not None and air.round < st.turn
        if card(t, u).type == "AIR" and old and air is not None and not (air.patrol or air.recon) and u.steps > 0:
            land(x.tr, u, "its mission is over")


def _launch(x: Run, uid: str, text: str, air: AirMission) -> bool:
    """An aircraft takes off (9.12), if it may (9.11: an unsuppressed HQ of its side on the board)."""
    st, tr = x.st, x.tr
    u = st.units[uid]
    s = status(u)
    if u.steps <= 0 or s.suppressed:
        return False
    if not has_hq(x.rs, st, u.side):
        tr.emit("air", f"{u.id} cannot take off: no unsuppressed HQ on the board (rule 9.11)", unit=u.id)
        return False
    s.prep, s.boxes = 0, 0
    s.air = air
    tr.emit("air", text, unit=u.id)
    return True


def _launches(x: Run, f: AirStep) -> list[Flight]:
    """3. Launches: patrols first (PROPOSED order), recon flights, strikes with their escorts, supply drops and
    airborne landings; 4. the interceptors of aircraft launching now."""
    rs, st, tr = x.rs, x.st, x.tr
    label = st.board.label
    flights: list[Flight] = []
    missions: tuple[tuple[Literal["patrol", "recon"], str, str], ...] = (
        ("patrol", "patrol", "9.15.5"),
        ("recon", "observe", "9.15.3"),
    )
    for kind, words, rule in missions:
        for u, o in ordered(rs, st, {kind}):
            assert o.hex is not None and o.entry is not None
            text = f"{u.id} takes off to {words} around {label(o.hex)} (rule {rule})"
            if _launch(x, u.id, text, AirMission(o.hex, st.turn, struck=True)):
                path = flight_path(st, o.entry, o.hex)
                flights.append(Flight(kind, [u.id], path, o.hex, o.radius or 0, o.rounds or 0))
    for u, o in ordered(rs, st, {"air_strike"}):
        assert o.hex is not None and o.entry is not None
        text = f"{u.id} takes off and flies in from {label(o.entry)} towards {label(o.hex)} (rule 9.13)"
        if not _launch(x, u.id, text, AirMission(o.hex, st.turn)):
            continue
        members = [u.id]
        for e, eo in ordered(rs, st, {"escort"}):  # 9.15.7: escorts fly with it (flak tests each of them)
            es = status(e)
            if eo.partner == u.id and e.steps > 0 and not es.suppressed:
                es.prep, es.boxes = 0, 0
                es.air = AirMission(o.hex, st.turn, struck=True, escorting=u.id)
                tr.emit("air", f"{e.id} escorts {u.id} (rule 9.15.7)", unit=e.id)
                members.append(e.id)
        flights.append(Flight("strike", members, flight_path(st, o.entry, o.hex), o.hex))
    for u, o in ordered(rs, st, {"supply_drop", "airborne_landing"}):  # 9.15.6, 9.15.4: fly like a strike
        assert o.hex is not None and o.entry is not None
        active(st)[u.id] = replace(o, size=u.steps)  # losses on the way: cargo (12.5) and paratroopers (9.15.4)
        if o.kind == "supply_drop":
            text = f"{u.id} takes off to drop {o.cargo} cargo units at {label(o.hex)} (rule 9.15.6)"
            air = AirMission(o.hex, st.turn, cargo=o.cargo, size=u.steps)
        else:
            text = f"{u.id} takes off with {o.para} for {label(o.hex)} (rule 9.15.4)"
            air = AirMission(o.hex, st.turn, cargo=0, para=o.para, size=u.steps)
        if _launch(x, u.id, text, air):
            flights.append(Flight("drop", [u.id], flight_path(st, o.entry, o.hex), o.hex))
    flying = {fl.units[0]: fl for fl in flights}
    for group in _by_target(f, f.pending):  # 4. intercepts of aircraft launching this step
        target = st.units[group.target]
        if target.id not in flying or target.steps <= 0:
            for uid in group.units:
                tr.emit("air", f"{uid} stays on its airfield: {target.id} is not in the air (rule 9.15.2)", unit=uid)
            continue
        goal = flying[target.id].hex
        assert goal is not None
        for uid in group.units:
            s = status(st.units[uid])
            s.prep, s.boxes = 0, 0
            s.air = AirMission(goal, st.turn, struck=True, intercept=True)
            tr.emit("air", f"{uid} takes off to intercept {target.id} (rule 9.15.2)", unit=uid)
            flights.append(Flight("intercept", [uid], flight_path(st, f.entries[uid], goal), target=target.id))
    return flights


def run_fly_together(x: Run, f: FlyTogether) -> None:
    """9.19 step 4: every flight advances one hex of its path per flight step, together. In each flight step:
    (a) the advance; (b) flak on first entry into range (and at its own hex on arrival at the target), flight by
    flight in launch order, aircraft by aircraft; (c) air combat: a strike (with its escorts) entering the zone of
    enemy patrols on station fights them all together; interceptors that meet their target (same hex, or passing
    each other) fight it together. A patrol takes station when it reaches its centre. A strike whose aircraft
    turns back takes its escorts home with it (9.15.7: they move exactly as it does)."""
    steps = max((len(fl.path) for fl in f.flights), default=0)
    while f.k < steps:
        if f.stage == "advance":
            _advance(x, f)
            f.stage = "zones"
            f.at = 0
        if f.stage == "zones":
            if not _zones(x, f):
                return
            f.meets = _meetings(x, f)
            f.stage = "meets"
            f.at = 0
        if f.stage == "meets":
            if not _meet(x, f):
                return
            _arrivals(x, f)
            f.k += 1
            f.stage = "advance"
    if f.stage != "last":
        f.stage = "last"
        f.at = 0
    if not _zones(x, f):  # 9.19 step 5: patrols just on station
        return
    x.done(f)


def _advance(x: Run, f: FlyTogether) -> None:
    """(a) and (b): the flights not done advance one hex, then flak fires at them."""
    st, k = x.st, f.k
    live = [fl for fl in f.flights if not fl.done]
    for fl in live:  # (a)
        lead = fl.units[0]
        if lead in f.where:
            f.before[lead] = f.where[lead]
        f.where[lead] = fl.path[min(k, len(fl.path) - 1)]
    for fl in live:  # (b)
        last = k == len(fl.path) - 1
        if k >= len(fl.path):
            continue
        at = f.where[fl.units[0]]
        for uid in fl.units:
            u = st.units[uid]
            seen = f.shot.setdefault(uid, set())
            if u.steps > 0 and status(u).air is not None and not flak_on(x, u, at, seen, last):
                abort(u)
        lead_unit = st.units[fl.units[0]]
        if status(lead_unit).air is None:
            fl.done = True
            for e in fl.units[1:]:
                if status(st.units[e]).air is not None:
                    land(x.tr, st.units[e], f"{lead_unit.id} turned back (rule 9.15.7)")


def _zones(x: Run, f: FlyTogether) -> bool:
    """(c) a strike in the zone of enemy patrols on station, entering it or sitting over its target there. False
    while an air combat waits for a decision."""
    st = x.st
    while f.at < len(f.flights):
        fl = f.flights[f.at]
        f.at += 1
        lead = st.units[fl.units[0]]
        if (
            fl.mission not in ("strike", "drop")
            or lead.id not in f.where
            or status(lead).air is None
            or lead.steps <= 0
        ):
            continue
        at = f.where[lead.id]
        hunters = [
            p for p in patrols(st)
            if p.side != lead.side and in_zone(p, at) and (p.id, lead.id) not in f.hunted
        ]  # fmt: skip
        if hunters:  # entering the patrolled area draws it into air combat (9.15.5)
            f.hunted.update((p.id, lead.id) for p in hunters)
            x.push(air_combat(x.rs, hunters, with_escorts(st, lead), st.board.label(at)))
            return False
    return True


def _meetings(x: Run, f: FlyTogether) -> list[Meet]:
    """(c) the interceptors that meet their target in this flight step (same hex, or passing each other)."""
    st = x.st
    meets: dict[str, list[str]] = {}
    for fl in f.flights:
        if fl.done or fl.mission != "intercept":
            continue
        u = st.units[fl.units[0]]
        assert fl.target is not None
        target = st.units[fl.target]
        target_air = status(target).air
        if status(u).air is None or target.steps <= 0 or target_air is None:
            continue
        at, there = f.where[u.id], f.where.get(target.id, target_air.target)
        crossed = f.before.get(u.id) == there and f.before.get(target.id) == at
        if at == there or crossed:
            meets.setdefault(target.id, []).append(u.id)
            fl.done = True
    return [Meet(tid, ups) for tid, ups in meets.items()]


def _meet(x: Run, f: FlyTogether) -> bool:
    """The interceptors that met a target fight it together. False while an air combat waits for a decision."""
    st = x.st
    while f.at < len(f.meets):
        meet = f.meets[f.at]
        f.at += 1
        target = st.units[meet.target]
        target_air = status(target).air
        assert target_air is not None
        label = st.board.label(f.where.get(meet.target, target_air.target))
        ups = [st.units[uid] for uid in meet.units]
        for u in ups:
            air = status(u).air
            assert air is not None
            air.target = st.board.parse(label)
        x.push(air_combat(x.rs, ups, with_escorts(st, target), label))
        return False
    return True


def _arrivals(x: Run, f: FlyTogether) -> None:
    """A patrol or recon aircraft at its centre takes station; a strike or drop at its target is done flying."""
    st = x.st
    for fl in f.flights:
        if fl.done or f.k != len(fl.path) - 1:
            continue
        u = st.units[fl.units[0]]
        s = status(u)
        if fl.mission in ("patrol", "recon") and s.air is not None:
            assert fl.hex is not None
            s.air = AirMission(
                fl.hex,
                st.turn,
                struck=True,
                patrol=fl.mission == "patrol",
                recon=fl.mission == "recon",
                radius=fl.radius,
                rounds=fl.rounds,
                aloft=0,
            )
            fl.done = True
        elif fl.mission in ("strike", "drop"):
            fl.done = True


def _overlapping_patrols(x: Run, f: AirStep) -> bool:
    """9.14 (3): enemy aircraft whose patrolled areas overlap fight; overlapping zones chain into one combat. False
    while an air combat waits for a decision."""
    st = x.st
    while f.todo:
        group = [st.units[f.todo.pop(0)]]
        grew = True
        while grew:
            grew = False
            for qid in list(f.todo):
                q = st.units[qid]
                qz = status(q).air
                assert qz is not None
                for p in group:
                    pz = status(p).air
                    assert pz is not None
                    if distance(pz.target, qz.target) <= pz.radius + qz.radius:
                        group.append(q)
                        f.todo.remove(qid)
                        grew = True
                        break
        first = group[0]
        attackers = [p for p in group if p.side == first.side]
        defenders = [p for p in group if p.side != first.side]
        if defenders:
            first_air = status(first).air
            assert first_air is not None
            x.push(air_combat(x.rs, attackers, defenders, st.board.label(first_air.target)))
            return False
    return True


def _recon_detection(x: Run) -> None:
    """9.15.3, 9.19 step 5: one detection roll a round for each recon aircraft on station: a die at most the card's
    value for the chosen radius reveals every enemy unit in Ambush, and a concealed HQ, within the radius."""
    st, tr = x.st, x.tr
    for u in sorted(st.units.values(), key=lambda v: v.id):
        air = status(u).air
        if air is None or not air.recon or u.steps <= 0:
            continue
        centre, r = air.target, air.radius
        need = card(x.rs.tables, u).detection[r]
        text = f"recon: {u.id} searches within {r} of {st.board.label(centre)} (rule 9.15.3)"
        if tr.roll(6, 1, text, target=need, compare="at_most")[0] > need:
            continue
        for e in sorted(st.units.values(), key=lambda v: v.id):
            if e.side == u.side or not is_on_board(e) or e.hex is None or distance(e.hex, centre) > r:
                continue
            expose(st, tr, e, f"{u.id} spots it from the air (rule 9.15.3)", f" by {u.id} (rule 9.15.3)")


HANDLERS: Mapping[type, Handler] = {AirStep: run_air_step, FlyTogether: run_fly_together}
"""The frames of this module and their handlers."""
