"""Provides the turn sequence of digest 3.2 [PROPOSED] as far as movement goes: the start of a turn (Phase 0),
initiative (Phase 1), the alternating activations of the Movement Phase with the ⌊a / b⌋ rule (Phase 2), and the
end of the turn (Phase 4: control, victory, the next turn).

The Attack Phase (Phase 3) and the End Phase events other than control and victory are not implemented yet: the
sequence records that it passes them (an event), so that a game plays from turn to turn.
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.rules import Transition
from engine.state import GameState, Outcome, Unit

from . import attack, closecombat, fortifications, hiding, sighting
from .bridges import blow, blowable, complete_work
from .carriers import resume
from .data import Tables
from .endphase import end_phase_events, end_phase_smoke
from .messages import reset_messages
from .model import data, status
from .victory import broken_sides, scores, update_control

__all__ = [
    "activations",
    "begin_fire",
    "decide_bridge",
    "end_activation",
    "end_attack",
    "finish_end_phase",
    "pending",
    "start_turn",
]


def activations(a: int, b: int) -> int:
    """How many units a side activates in its step (3.2): all ``a`` when the other side has none left (b = 0),
    else max(1, ⌊a / b⌋); 0 when it has none (its step is skipped).

    >>> activations(9, 3), activations(2, 5), activations(0, 4), activations(4, 0)
    (3, 1, 0, 4)
    """
    if a == 0:
        return 0
    return a if b == 0 else max(1, a // b)


def pending(st: GameState, side: str) -> Iterator[Unit]:
    """The side's units that must still be activated this turn (3.2): on the map or waiting to enter it (15.10.2),
    not embarked, not towed, not destroyed, not yet activated."""
    for u in st.units.values():
        s = status(u)
        if u.side != side or s.activated or s.destroyed or s.embarked_in or s.towed_by:
            continue
        if u.hex is not None or (s.off_map and s.arrives <= st.turn):
            yield u


def _other(st: GameState, side: str) -> str:
    return st.enemies_of(side)[0]


def start_turn(tr: Transition, tables: Tables) -> None:
    """Phase 0 (clear the per-turn flags), Phase 1 (initiative: 2d10 per side, ties re-rolled; the loser moves
    first) and the first step of the Movement Phase (3.2)."""
    st = tr.state
    d = data(st)
    for u in st.units.values():
        s = status(u)
        s.activated = s.stood = s.max_move = s.opp_fired = False
        s.half_mp = s.hexes = s.off_road = 0
        s.work, s.work_hex = None, None
        s.fired_dk_last, s.fired_dk = s.fired_dk, -1
        s.morale_used = []  # 3.2 Phase 0, 9.3: the morale causes used this turn
    d.asked = []
    tr.emit("turn", f"Turn {st.turn} of {d.turns} begins (rule 3.2)")
    dice, sides = int(tables.sequence["initiative"]["dice"]), int(tables.sequence["initiative"]["sides"])
    a, b = st.sides
    while True:
        ra = sum(tr.roll(sides, dice, f"initiative: {a}"))
        rb = sum(tr.roll(sides, dice, f"initiative: {b}"))
        if ra != rb:
            break
        tr.emit("initiative", f"Initiative tied at {ra}: both sides roll again (rule 3.2)")
    winner, loser = (a, b) if ra > rb else (b, a)
    d.first = loser
    tr.emit(
        "initiative", f"{winner} wins the initiative {max(ra, rb)} to {min(ra, rb)}; {loser} moves first (rule 3.2)"
    )
    st.phase = "movement"
    _step(tr, tables, loser)


def _step(tr: Transition, tables: Tables, side: str) -> None:
    """Give ``side`` its step of the Movement Phase: skip it when it has no unit left, end the phase when neither
    side has (3.2)."""
    st = tr.state
    d = data(st)
    for _ in range(2):
        a = sum(1 for _ in pending(st, side))
        b = sum(1 for _ in pending(st, _other(st, side)))
        n = activations(a, b)
        if n:
            d.mover, d.quota, d.active = side, n, None
            st.to_act = side
            tr.emit("step", f"{side} activates {n} unit{'s' if n != 1 else ''} ({a} left against {b}; rule 3.2)")
            return
        if b:
            tr.emit("step", f"{side} has no unit left to activate: its step is skipped (rule 3.2)")
        side = _other(st, side)
    _end_movement(tr, tables)


def end_activation(tr: Transition, tables: Tables, unit: Unit) -> None:
    """The unit's activation is over: it counts as activated, and the mover's step goes on while its quota lasts,
    else passes to the other side (3.2)."""
    st = tr.state
    d = data(st)
    status(unit).activated = True
    status(unit).die = attack.die_of(st, tables, unit).value if unit.hex is not None else None  # 5: placed now
    sighting.checks_by(tr, tables, unit)  # 6.1 P: at the end of its activation it checks every enemy unit
    if resume(st, unit):  # 4.5 P: a passenger that got out before its carrier moved is done; the carrier goes on
        return
    d.active = None
    d.quota -= 1
    update_control(st)
    side = unit.side
    if d.quota > 0 and any(True for _ in pending(st, side)):
        st.to_act = side
        return
    _step(tr, tables, _other(st, side))


def _end_movement(tr: Transition, tables: Tables) -> None:
    """Phase 3, the Attack Phase (3.2, ``attack.py``): the sighting checks, 3a (physical attacks,
    ``closecombat.py``) when a unit has one, else 3b at once."""
    attack.start(tr, tables)
    if not closecombat.start(tr, tables):
        begin_fire(tr, tables)


def begin_fire(tr: Transition, tables: Tables) -> None:
    """Phase 3b (3.2), the initiative loser first; the End Phase when no unit has a shot."""
    st = tr.state
    tr.emit("phase", "Fire (3b): sides alternate, one unit at a time, the initiative loser first (rule 3.2)")
    first = data(st).first
    assert first is not None
    st.to_act = attack.next_side(st, tables, first)
    if st.to_act is None:
        end_attack(tr, tables)


def end_attack(tr: Transition, tables: Tables) -> None:
    """The end of Phase 3b (morale, destroyed units leave), then the End Phase (3.2)."""
    st = tr.state
    attack.end_fire(tr, tables)
    st.phase = "end"
    _end_phase(tr, tables)


def _end_phase(tr: Transition, tables: Tables) -> None:
    """Phase 4 (3.2): step 1, a bridge's owner may blow it (asked, one bridge at a time); step 7, work is done;
    control and victory at the last turn, else the next turn. The other steps are not implemented yet."""
    st = tr.state
    d = data(st)
    bridge = blowable(st, tables)
    if bridge is not None:
        d.offer = bridge
        st.to_act = d.charge_side[bridge]
        tr.emit("offer", f"{st.to_act} may blow the bridge {st.board.label(bridge)} now (rule 4.10)")
        return
    end_phase_events(tr, tables)  # steps 2-6 (endphase.py)
    fortifications.complete_work(tr, tables)  # step 7: mines found, laid, cleared; wire cut (13.3-13.6)
    complete_work(tr)
    end_phase_smoke(tr)  # step 8 (7.1)
    sighting.persistence(tr, tables)  # step 9: sight lost where a line is gone (6.1)
    going_on = st.turn < d.turns and not broken_sides(st)  # after the game's last End Phase nobody need hide
    if going_on and hiding.start(tr, tables):  # step 9: the owners choose which units hide again (13.2)
        return
    finish_end_phase(tr, tables)


def finish_end_phase(tr: Transition, tables: Tables) -> None:
    """The rest of the End Phase once the owners chose which units hide (3.2 Phase 4 steps 9 and 10)."""
    st = tr.state
    d = data(st)
    reset_messages(st)  # step 9 (10.3)
    update_control(st)
    if st.turn >= d.turns:
        _finish(tr, tables, f"the last turn ({d.turns}) is over")
        return
    broken = broken_sides(st)
    if broken:
        _finish(
            tr, tables, f"{' and '.join(broken)} ha{'ve' if len(broken) > 1 else 's'} no unit left that is not shaken"
        )
        return
    st.turn += 1
    start_turn(tr, tables)


def decide_bridge(tr: Transition, tables: Tables, blown: bool) -> None:
    """The owner's answer to the offer of the End Phase, step 1 (4.10); the End Phase goes on."""
    d = data(tr.state)
    assert d.offer is not None
    bridge, d.offer = d.offer, None
    d.asked.append(bridge)
    if blown:
        blow(tr, tables, bridge)
    else:
        tr.emit("spare", f"The bridge {tr.state.board.label(bridge)} is left standing (rule 4.10)")
    _end_phase(tr, tables)


def _finish(tr: Transition, tables: Tables, why: str) -> None:
    """The game ends: the side with more victory points wins, equal points are a draw (15.9)."""
    st = tr.state
    points = scores(st, tables)
    text = ", ".join(f"{s} {p}" for s, p in points.items())
    best = max(points.values())
    leaders = [s for s, p in points.items() if p == best]
    winner = leaders[0] if len(leaders) == 1 else "draw"
    result = f"{winner} wins" if winner != "draw" else "a draw"
    st.outcome = Outcome(winner, f"{why}; victory points {text}: {result} (rule 15.9)")
    st.to_act = None
    st.phase = "over"
    tr.emit("outcome", f"Game over: {st.outcome.reason}")
