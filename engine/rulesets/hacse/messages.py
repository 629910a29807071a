"""Provides the messages of §10 that the game sends by itself: sightings passed on (6.1 condition 5, 10.3).

After the sighting checks at the start of the Fire Phase (3.2 Phase 3) a unit that has a line of sight to an enemy
unit but has not sighted it receives the sighting from a friendly unit that has, directly or through relays: each
link two units that can communicate (10.1), each unit with its message of the turn left (10.3: one send and one
receive per unit, HQs excepted; a relay receives and sends). The shortest chain is used (at most ``relay_max``
units upstream, ``data/sight.toml``), the nearest units by id first. The receiver may then fire at that enemy at
+1 per unit upstream (10.3 DERIVED; ``Status.shared``), and so may each relay that has a line of sight to it.
Sightings are passed only to units with a line of sight to the enemy (indirect fire asks for its spotter itself,
``artillery.py``). ``Status.sent`` and ``Status.received`` count the turn's messages; the End Phase resets them and
the shared sightings (3.2 Phase 4 step 9).
"""

from __future__ import annotations

from itertools import pairwise

from engine.rules import Transition
from engine.state import GameState, Unit

from .communication import can_communicate, party
from .data import Tables
from .model import status
from .sighting import sight_line, sights
from .weather import sight_table

__all__ = ["pass_sightings", "reset_messages"]


def _targets(st: GameState, side: str) -> list[Unit]:
    return [
        u
        for u in sorted(st.units.values(), key=lambda u: u.id)
        if u.side != side and u.hex is not None and not status(u).destroyed and not status(u).hidden
    ]


def _free(tables: Tables, unit: Unit, counter: str) -> bool:
    """Whether ``unit`` may still send (``sent``) or receive (``received``) this turn (10.3: once, HQs excepted)."""
    return getattr(status(unit), counter) < 1 or "hq" in tables.sheets[unit.type].traits


class _Net:
    """A side's units that can observe and who of them can communicate with whom (10.1), worked out once per
    pass of the sightings."""

    def __init__(self, st: GameState, tables: Tables, side: str) -> None:
        self.units = [u for u in sorted(st.units.values(), key=lambda u: u.id) if u.side == side and sights(u)]
        parties = {u.id: party(st, tables, u) for u in self.units}
        self.links = {
            u.id: [v for v in self.units if v.id != u.id and can_communicate(parties[v.id], parties[u.id]) is None]
            for u in self.units
        }

    def chain(self, tables: Tables, receiver: Unit, target: Unit, longest: int) -> tuple[list[Unit], int] | None:
        """The chain with the fewest units upstream (at most ``longest``) from a unit that knows of ``target`` (its
        own sighting, or one received this turn with its units upstream) to ``receiver``, each link two units that
        can communicate (10.1) with their message of the turn left (10.3); the nearest units by id first. The chain
        and the units upstream of its source."""
        back: dict[str, Unit | None] = {receiver.id: None}
        frontier = [receiver]
        best: tuple[int, list[Unit], int] | None = None
        for depth in range(1, longest + 1):
            nxt: list[Unit] = []
            for to in frontier:
                for u in self.links[to.id]:
                    if u.id in back or not _free(tables, u, "sent"):
                        continue
                    s = status(u)
                    up = 0 if target.id in s.sighted else s.shared.get(target.id)
                    back[u.id] = to
                    if up is None:
                        if _free(tables, u, "received"):  # a relay receives before it sends on
                            nxt.append(u)
                    elif depth + up <= longest and (best is None or depth + up < best[0]):
                        best = (depth + up, _walk(back, u), up)
            if best is not None and best[0] <= depth:
                break
            frontier = nxt
        return None if best is None else (best[1], best[2])


def _walk(back: dict[str, Unit | None], source: Unit) -> list[Unit]:
    """The chain from ``source`` back to the receiver (whose entry is None)."""
    out: list[Unit] = []
    at: Unit | None = source
    while at is not None:
        out.append(at)
        at = back[at.id]
    return out


def _pass(tr: Transition, tables: Tables, net: _Net, receiver: Unit) -> None:
    st = tr.state
    r = status(receiver)
    assert receiver.hex is not None
    longest = int(sight_table()["relay_max"])
    for target in _targets(st, receiver.side):
        if not _free(tables, receiver, "received"):
            return
        if target.id in r.sighted or target.id in r.shared:
            continue
        assert target.hex is not None
        if not sight_line(st, tables, receiver.hex, target.hex).clear:
            continue
        found = net.chain(tables, receiver, target, longest)
        if found is None:
            continue
        chain, up = found
        for k, (a, b) in enumerate(pairwise(chain)):
            status(a).sent += 1
            status(b).received += 1
            if target.id not in status(b).sighted:
                status(b).shared[target.id] = up + k + 1  # 10.3: +1 per unit upstream
        via = "".join(f", {b.id} to {c.id}" for b, c in pairwise(chain[1:]))
        tr.emit(
            "message",
            f"{chain[0].id} passes {'its' if not up else 'the'} sighting of {target.id} to {chain[1].id}{via} "
            "(rules 6.1, 10.3)",
            (receiver.side,),
            unit=receiver.id,
        )


def pass_sightings(tr: Transition, tables: Tables) -> None:
    """6.1 condition 5: after the Fire Phase's sighting checks, sightings are passed to units that lack them,
    directly or through relays (10.3)."""
    st = tr.state
    nets = {side: _Net(st, tables, side) for side in st.sides}
    for u in sorted(st.units.values(), key=lambda u: u.id):
        if sights(u):
            _pass(tr, tables, nets[u.side], u)


def reset_messages(st: GameState) -> None:
    """3.2 Phase 4 step 9: the communication counters and the turn's shared sightings are reset."""
    for u in st.units.values():
        s = status(u)
        s.sent = s.received = 0
        s.shared = {}
