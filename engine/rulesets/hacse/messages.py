"""Provides the messages of §10 that the game sends by itself: sightings passed on (6.1 condition 5, 10.3).

After the sighting checks at the start of the Fire Phase (3.2 Phase 3) a unit that has a line of sight to an enemy
unit but has not sighted it receives the sighting from a friendly unit that has, when the two can communicate
(10.1) and neither has used its message of the turn (10.3: one send and one receive per unit, HQs excepted). The
receiver may then fire at that enemy at +1 (one unit upstream, 10.3 DERIVED; ``Status.shared``). Sightings are
passed only directly (INTERP: no relay chains yet) and only to units with a line of sight to the enemy (indirect
fire, which could use them without, is not implemented). ``Status.sent`` and ``Status.received`` count the turn's
messages; the End Phase resets them and the shared sightings (3.2 Phase 4 step 9).
"""

from __future__ import annotations

from engine.rules import Transition
from engine.state import GameState, Unit

from .communication import may_send, party
from .data import Tables
from .model import status
from .sighting import sight_line, sights

__all__ = ["pass_sightings", "reset_messages"]


def _targets(st: GameState, side: str) -> list[Unit]:
    return [
        u
        for u in sorted(st.units.values(), key=lambda u: u.id)
        if u.side != side and u.hex is not None and not status(u).destroyed and not status(u).hidden
    ]


def _sender(st: GameState, tables: Tables, receiver: Unit, target: Unit) -> Unit | None:
    """The first friendly unit (by id) that has sighted ``target`` and may send it to ``receiver`` (10.1, 10.3)."""
    to = party(st, tables, receiver)
    for u in sorted(st.units.values(), key=lambda u: u.id):
        if u.side != receiver.side or u.id == receiver.id or not sights(u) or target.id not in status(u).sighted:
            continue
        if may_send(party(st, tables, u), to, status(u).sent, status(receiver).received) is None:
            return u
    return None


def _pass(tr: Transition, tables: Tables, receiver: Unit) -> None:
    st = tr.state
    r = status(receiver)
    assert receiver.hex is not None
    for target in _targets(st, receiver.side):
        if target.id in r.sighted or target.id in r.shared:
            continue
        assert target.hex is not None
        if not sight_line(st, tables, receiver.hex, target.hex).clear:
            continue
        sender = _sender(st, tables, receiver, target)
        if sender is None:
            continue
        status(sender).sent += 1
        r.received += 1
        r.shared[target.id] = 1
        tr.emit(
            "message",
            f"{sender.id} passes its sighting of {target.id} to {receiver.id} (rules 6.1, 10.3)",
            (receiver.side,),
            unit=receiver.id,
        )
        if r.received >= 1 and "hq" not in tables.sheets[receiver.type].traits:
            return


def pass_sightings(tr: Transition, tables: Tables) -> None:
    """6.1 condition 5: after the Fire Phase's sighting checks, sightings are passed to units that lack them."""
    for u in sorted(tr.state.units.values(), key=lambda u: u.id):
        if sights(u):
            _pass(tr, tables, u)


def reset_messages(st: GameState) -> None:
    """3.2 Phase 4 step 9: the communication counters and the turn's shared sightings are reset."""
    for u in st.units.values():
        s = status(u)
        s.sent = s.received = 0
        s.shared = {}
