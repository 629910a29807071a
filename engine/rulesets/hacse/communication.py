"""Provides communication (digest 10) as pure functions: who can communicate (10.1), all-round armour (10.2), the
per-turn send and receive limits and the relay modifier (10.3).

``messages.py`` passes sightings with these answers, ``artillery.py`` asks for spotters and map stations, and
``rally.py`` for leader contact. A unit is described by a :class:`Party`, built from the state by :func:`party`: its
radio or field telephone counts while a row holding it is intact (:func:`works`).

>>> relay_modifier(1), relay_modifier(2)
(1, 2)
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.hexgrid import Hex, distance
from engine.state import GameState, Unit

from .data import Sheet, Tables
from .model import status
from .movement import Refused

__all__ = ["Party", "all_round", "can_communicate", "may_send", "party", "relay_modifier", "works"]

TALK_RANGE = 2
"""10.1 (seed): units not under all-round armour communicate at most 2 hexes apart."""


@dataclass(frozen=True, slots=True)
class Party:
    """What 10.1 asks of a unit: its hex, its equipment, whether it is an armoured vehicle, under all-round armour,
    moving this turn, an HQ."""

    id: str
    hex: Hex
    radio: bool
    telephone: bool
    armoured_vehicle: bool
    all_round: bool
    moving: bool
    hq: bool = False


def all_round(sheet: Sheet) -> bool:
    """10.2 [PROPOSED]: a vehicle has all-round armour when its front, side and rear armour are all at least 1."""
    a = sheet.armour
    return sheet.unit_type == "vehicle" and min(a.front, a.side, a.rear) >= 1


def works(sheet: Sheet, rows_hit: list[int], item: str) -> bool:
    """Whether the unit has ``item`` (its sheet's equipment) in working order: not when every row that holds it (an
    equipment row, or the soldier who carries it) is hit (8.5: equipment destroyed; 15.7.9: the radio is lost when
    its operator is hit).

    >>> from .data import load_tables
    >>> hq = load_tables().sheets["GER-COY-HQ"]
    >>> works(hq, [], "radio"), works(hq, [3], "radio"), works(hq, [3], "field_telephone")
    (True, False, True)
    """
    if sheet.equipment.get(item, 0) <= 0:
        return False
    rows = [r.index for r in sheet.rows if r.equipment == item]
    return not rows or any(i not in rows_hit for i in rows)


def party(st: GameState, tables: Tables, unit: Unit, in_building: bool = False) -> Party:
    """The unit as 10.1 sees it: passengers inside a vehicle with all-round armour are under it (10.2); a unit in
    a building is (10.2); a unit moves this turn once it has spent MP (10.1 [PROPOSED])."""
    assert unit.hex is not None
    sheet = tables.sheets[unit.type]
    s = status(unit)
    carrier = st.units.get(s.embarked_in) if s.embarked_in else None
    covered = all_round(sheet) or in_building or (carrier is not None and all_round(tables.sheets[carrier.type]))
    return Party(
        id=unit.id,
        hex=unit.hex,
        radio=works(sheet, s.rows_hit, "radio"),
        telephone=works(sheet, s.rows_hit, "field_telephone"),
        armoured_vehicle=all_round(sheet),
        all_round=covered,
        moving=s.half_mp > 0,
        hq="hq" in sheet.traits,
    )


def can_communicate(a: Party, b: Party) -> Refused | None:
    """None if the two may communicate (10.1), else why not."""
    if (a.radio and b.radio) or (a.telephone and b.telephone):
        return None
    if not a.all_round and not b.all_round and distance(a.hex, b.hex) <= TALK_RANGE:
        return None
    if a.hex == b.hex:
        if not (a.armoured_vehicle and b.armoured_vehicle):
            return None
        if not a.moving and not b.moving:
            return None
        return Refused(f"Cannot communicate: {a.id} and {b.id} are armoured vehicles and one of them moves", "10.1")
    if a.all_round or b.all_round:
        covered = a.id if a.all_round else b.id
        return Refused(f"Cannot communicate: {covered} is under all-round armour and they share no radio", "10.1")
    return Refused(f"Cannot communicate: {a.id} and {b.id} are more than {TALK_RANGE} hexes apart", "10.1")


def may_send(sender: Party, receiver: Party, sent: int, received: int) -> Refused | None:
    """10.3: a unit sends to one unit and receives from one unit per turn (HQs excepted); ``sent`` and ``received``
    count what the sender sent and the receiver received this turn."""
    if sent >= 1 and not sender.hq:
        return Refused(f"Cannot send: {sender.id} has already sent once this turn", "10.3")
    if received >= 1 and not receiver.hq:
        return Refused(f"Cannot send: {receiver.id} has already received once this turn", "10.3")
    return can_communicate(sender, receiver)


def relay_modifier(upstream: int) -> int:
    """10.3 (DERIVED): a firer that does not see the target fires at +1 per unit upstream in the chain."""
    return upstream
