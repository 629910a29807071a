"""Provides air combat (9.14, DR-20) and flak (9.13) for step 5 of the Execution Phase.

Air combat is a frame (:class:`~..frames.AirCombat`): rounds of duels until one side is gone or turns back; in each
round the chooser's side picks the enemy aircraft it fights (15.2, asked with ``prompts on``), so a round can wait.
Flak and an aircraft's losses never ask anything (an aircraft carries no passenger and no cargo, 4.6, 9.16).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping

from engine.hexgrid import Hex, distance, trace_segment
from engine.rules import Transition
from engine.state import GameState, Unit

from ..air import first_choosers, fleets_of, pairing
from ..combat import bravery_test, roll_attack
from ..frames import AirCombat, Attack, Hit
from ..model import Rules, card, current_bravery, losses
from ..records import status
from .common import can_act
from .machine import Handler, Run

__all__ = [
    "HANDLERS",
    "air_combat",
    "flak_on",
    "flight_path",
    "fly",
    "in_zone",
    "land",
    "patrols",
    "run_air_combat",
    "with_escorts",
]


def flight_path(st: GameState, entry: Hex, target: Hex) -> list[Hex]:
    """9.13, G54: the hexes of the exact line from the entry hex to the target hex, in order."""
    hexes = [h.hex for h in trace_segment(entry, target) if (h.interior or h.along_side) and h.hex in st.board.cells]
    out: list[Hex] = []
    for h in [entry, *hexes, target]:
        if h not in out:
            out.append(h)
    return out


def land(tr: Transition, u: Unit, why: str) -> None:
    """9.12: the aircraft is back on its airfield, Landed (box I)."""
    s = status(u)
    s.air = None
    if u.steps > 0:
        s.prep = 1
        tr.emit("air", f"{u.id} returns to its airfield: {why} (rule 9.12)", unit=u.id)


def abort(u: Unit) -> None:
    """An aircraft turned back or shot down during its approach (9.13): back on its airfield (I)."""
    s = status(u)
    s.air = None
    if u.steps > 0:
        s.prep = 1


def with_escorts(st: GameState, target: Unit) -> list[Unit]:
    """The aircraft and the fighters escorting it (9.15.7: they fight its attackers)."""
    escorts = [
        e for e in sorted(st.units.values(), key=lambda x: x.id)
        if (air := status(e).air) is not None and air.escorting == target.id and e.steps > 0 and e.side == target.side
    ]  # fmt: skip
    return [target, *escorts]


def in_zone(p: Unit, h: Hex) -> bool:
    """9.15.5: ``h`` is in the zone of the patrol ``p``."""
    air = status(p).air
    return air is not None and air.patrol and distance(air.target, h) <= air.radius


def patrols(st: GameState, side: str | None = None) -> list[Unit]:
    """Aircraft on station on Air patrol (of ``side`` if given), by id."""
    return [
        p for p in sorted(st.units.values(), key=lambda x: x.id)
        if p.steps > 0 and (air := status(p).air) is not None and air.patrol and (side is None or p.side == side)
    ]  # fmt: skip


def _apply(x: Run, u: Unit, hits: int, cause: str) -> int:
    """An aircraft's hits applied at once (no decision can be asked: it carries nobody, 4.6); its losses."""
    before = u.steps
    x.run_now(Hit(u.id, hits, cause))
    return before - u.steps


def _flak_shot(x: Run, flak: Unit, plane: Unit, at: Hex) -> bool:
    """9.13: a flak unit on Defend fires at an aircraft (AIR row, the chart at the distance; no LOS needed).

    Returns False if the aircraft aborts (a failed bravery test after losses) or is destroyed.
    """
    rs, st, tr = x.rs, x.st, x.tr
    t = rs.tables
    assert flak.hex is not None
    c = card(t, flak)
    r = max(1, distance(flak.hex, at))
    acc = c.range[r] if r < len(c.range) else None
    dice = c.dice("AIR", losses(t, flak))
    if acc is None or not dice:
        return True
    text = f"flak: {flak.id} at {plane.id} over {st.board.label(at)} (rule 9.13)"
    got, _ = roll_attack(tr, t, Attack(flak.id, plane.id, dice, int(acc), text))
    lost = _apply(x, plane, got, "flak") if got else 0
    if plane.steps <= 0:
        return False
    if lost and not bravery_test(rs, tr, st, plane, "losses from flak, rule 9.13"):
        tr.emit("air", f"{plane.id} aborts its mission and returns to its airfield (rule 9.13)", unit=plane.id)
        return False
    return True


def _flak_ready(rs: Rules, flak: Unit, side: str) -> bool:
    dz = status(flak).defend
    return (
        flak.side != side
        and card(rs.tables, flak).has("flak")
        and dz is not None
        and dz.armed
        and can_act(flak)
        and flak.hex is not None
    )


def flak_on(x: Run, u: Unit, h: Hex, shot: set[str], last: bool) -> bool:
    """9.13: every flak on Defend fires once when the aircraft first comes within its range, and again at its own
    hex when the aircraft reaches it as its target. False if the aircraft aborted or was destroyed."""
    rs, st = x.rs, x.st
    t = rs.tables
    for flak in sorted(st.units.values(), key=lambda v: v.id):
        if not _flak_ready(rs, flak, u.side) or flak.id in shot or flak.hex is None:
            continue
        if distance(flak.hex, h) > card(t, flak).max_range:  # 9.13: its range, not the Defend limit
            continue
        shot.add(flak.id)
        dz = status(flak).defend
        assert dz is not None
        dz.used = True
        if not _flak_shot(x, flak, u, h):
            return False
    if last:
        for flak in sorted(st.units.values(), key=lambda v: v.id):
            if _flak_ready(rs, flak, u.side) and flak.hex == h and not _flak_shot(x, flak, u, h):
                return False  # the second shot at its own hex (9.13)
    return True


def fly(x: Run, u: Unit, entry: Hex, target: Hex) -> bool:
    """9.13: the approach along the exact line; flak fires on first entering its range and again at its own hex
    when it stands in the target hex. Returns False if the aircraft aborted or was destroyed."""
    path = flight_path(x.st, entry, target)
    shot: set[str] = set()
    return all(flak_on(x, u, h, shot, last=i == len(path) - 1) for i, h in enumerate(path))


def air_combat(rs: Rules, attackers: list[Unit], defenders: list[Unit], label: str) -> AirCombat:
    """The air combat of ``attackers`` against ``defenders`` over the hex ``label`` (9.14): the attackers by
    descending bravery, then the defenders, as listed."""
    t = rs.tables
    key = {u.id: (-current_bravery(t, u), u.id) for u in attackers}
    order = [*sorted(attackers, key=lambda u: key[u.id]), *[d for d in defenders if d.id not in key]]
    return AirCombat([u.id for u in order], [u.id for u in order if u.id in key], label)


def _roll_off(rs: Rules, tr: Transition, sides: list[str]) -> str:
    """9.14 PROPOSED: tied best choosers: each side rolls 1d6, the higher chooses first; ties are rerolled."""
    order = sorted(sides, key=rs.tables.sides.index)
    for _ in range(20):
        got = {s: tr.roll(6, 1, f"air combat: {s} rolls to choose first (rule 9.14)")[0] for s in order}
        best = max(got.values())
        winners = [s for s in order if got[s] == best]
        if len(winners) == 1:
            return winners[0]
    return order[0]


def run_air_combat(x: Run, f: AirCombat) -> None:
    """9.14, DR-20: rounds of air combat until one side is gone or turns back. Each round the aircraft pair off
    into duels by bravery (``air.pairing``: several attackers of one aircraft fight it together and it fires at
    the first of them; escorts take on the attackers, 9.15.7), then fire at once (AIR row, air accuracy,
    1 ammunition a round; attackers first by bravery, then the defenders, as listed); losses force a bravery test
    (no HQ bonus) and a failure aborts; each round survived marks a time box and a full track sends the aircraft
    home. An aircraft attacked has its orders for the round cancelled."""
    st, tr = x.st, x.tr
    if not f.announced:
        f.announced = True
        attackers = [uid for uid in f.order if uid in f.attackers]
        others = [uid for uid in f.order if uid not in f.attackers]
        tr.emit("air", f"air combat over {f.label}: {', '.join(attackers)} against {', '.join(others)} (rule 9.14)")
    while f.round < 10:
        alive = [u for uid in f.order if (u := st.units[uid]).steps > 0 and status(u).air is not None]
        fleets = fleets_of(alive)
        if f.first is None:
            firsts = first_choosers(x.rs, fleets)
            if not firsts:
                break
            f.first = firsts[0] if len(firsts) == 1 else _roll_off(x.rs, tr, firsts)
        fires_at = pairing(x.rs, fleets, f.first, _chooser(x, f))
        if fires_at is None:
            return  # the chooser's side decides (15.2)
        if not fires_at:
            break
        _fight(x, alive, fires_at)
        f.round += 1
        f.first = None
        f.picks = []
    x.done(f)


def _chooser(x: Run, f: AirCombat):  # type: ignore[no-untyped-def]
    """9.14 step 1: the chooser's side picks the enemy aircraft it fights (asked with ``prompts on``; preset: the
    pairing's, listed first). The picks of this round so far are kept in the frame: the pairing, a function of
    them, goes on from them when the answer comes."""
    st, t = x.st, x.rs.tables
    served = 0

    def choose(c: Unit, candidates: list[Unit]) -> Unit | None:
        nonlocal served
        if served < len(f.picks):
            served += 1
            return st.units[f.picks[served - 1]]
        key = x.decide(
            side=c.side,
            kind="air_pairing",
            question=f"air combat over {f.label}: {c.id} (bravery {current_bravery(t, c)}) chooses its opponent",
            rule="9.14",
            options=[
                (e.id, f"{e.id} ({card(t, e).code}, size {e.steps}, bravery {current_bravery(t, e)})")
                for e in candidates
            ],
            units=[c, *candidates],
        )
        if key is None:
            return None
        f.picks.append(key)
        served += 1
        return st.units[key]

    return choose


def _fight(x: Run, alive: list[Unit], fires_at: dict[str, str]) -> None:
    """One round's fire (9.14 steps 2–4): shots at once, losses, bravery tests, time boxes."""
    rs, st, tr = x.rs, x.st, x.tr
    t = rs.tables
    for tid in fires_at.values():
        air = status(st.units[tid]).air
        assert air is not None
        air.struck = True  # its orders for this round are cancelled
    shots: list[Attack] = []
    for u in alive:
        s = status(u)
        if u.id not in fires_at or s.ammo < 1:
            continue
        foe = st.units[fires_at[u.id]]
        c = card(t, u)
        s.ammo -= 1
        dice = c.dice("AIR", losses(t, u))
        if dice:
            shots.append(Attack(u.id, foe.id, dice, c.air_accuracy, f"air combat: {u.id} at {foe.id} (rule 9.14)"))
    hits: dict[str, int] = defaultdict(int)
    for a in shots:
        got, _ = roll_attack(tr, t, a)
        hits[a.target] += got
    for uid in sorted(hits):
        u = st.units[uid]
        lost = _apply(x, u, hits[uid], "air combat") if hits[uid] else 0
        if lost and u.steps > 0 and not bravery_test(rs, tr, st, u, "losses in air combat, rule 9.14"):
            land(tr, u, "it broke off the air combat")
    engaged = set(fires_at) | set(fires_at.values())
    for u in alive:
        s = status(u)
        if u.id in engaged and u.steps > 0 and s.air is not None:
            s.boxes += 1
            if s.boxes >= max(1, card(t, u).mission_boxes):
                land(tr, u, "low on fuel")


HANDLERS: Mapping[type, Handler] = {AirCombat: run_air_combat}
"""The frames of this module and their handlers."""
