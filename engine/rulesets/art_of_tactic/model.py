"""Provides the Art of Tactic unit model: card values read through a unit's state (digest 3.4), and what the rules
read besides the state (:class:`Rules`: the tables and the line of sight).

A unit's ``steps`` are its remaining size symbols; its status (:class:`~.records.AotStatus`) holds the rest:
ammunition, facing, markers, the order in force and time boxes.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

from engine.errors import IllegalActionError
from engine.hexgrid import Hex
from engine.state import GameState, Unit

from .data import Tables, UnitCard
from .gamedata import data
from .records import Order, status
from .sight import AotLosPolicy

__all__ = [
    "UNIDENTIFIED",
    "UNIDENTIFIED_CARD",
    "Rules",
    "asks",
    "card",
    "current_bravery",
    "enemies_in_hex",
    "has_field_of_fire",
    "hex_label_of",
    "in_close_combat",
    "is_alive",
    "is_on_board",
    "losses",
    "order_of",
    "policy_rows",
    "refuse",
    "side_units",
    "smoke",
    "visible_enemy",
]


class Rules(Protocol):
    """What the rules read besides the state: the checked tables of ``data/*.toml`` and the exact line of sight of
    5.4 (the ruleset, :class:`~.ruleset.ArtOfTactic`, provides both)."""

    @property
    def tables(self) -> Tables: ...

    @property
    def policy(self) -> AotLosPolicy: ...


UNIDENTIFIED = "?"
"""The type of an unidentified unit in a side's view: a concealed enemy HQ (9.11, 15.1, ``concealment.py``)."""

UNIDENTIFIED_CARD = UnitCard(
    code=UNIDENTIFIED, side="", name="unidentified unit", type="INF", size=1, bravery=0, bravery_loss=0,
    defence=0, ammo=0, cost=0, field_of_fire=False, abilities=frozenset(), firepower={}, cc_only=frozenset(),
    range=(None,), suppressed_accuracy=0, cc_dice=0, orders={}, move_as="INF",
)  # fmt: skip
"""What a view knows of an unidentified unit: a ground unit (every card with concealment is infantry, 12.3)
with no values, no abilities and no orders; it cannot be targeted (``visible_enemy``)."""


def card(tables: Tables, u: Unit) -> UnitCard:
    """The unit's card (an unidentified unit in a view has the empty card ``UNIDENTIFIED_CARD``)."""
    if u.type == UNIDENTIFIED:
        return UNIDENTIFIED_CARD
    return tables.units[u.type]


def losses(tables: Tables, u: Unit) -> int:
    """Size symbols crossed off (3.1)."""
    return card(tables, u).size - u.steps


def current_bravery(tables: Tables, u: Unit) -> int:
    """Initial bravery minus the points lost per loss (8.2), without the HQ bonus."""
    c = card(tables, u)
    return c.bravery - losses(tables, u) * c.bravery_loss


def is_alive(u: Unit) -> bool:
    return u.steps > 0


def is_on_board(u: Unit) -> bool:
    """On the map and not carried (passengers ride on the transport's card, 4.6)."""
    return u.hex is not None and u.steps > 0 and status(u).carried_by is None


def side_units(st: GameState, side: str) -> Iterator[Unit]:
    """A side's living units on the board, in id order."""
    for u in st.units.values():
        if u.side == side and is_on_board(u):
            yield u


def enemies_in_hex(st: GameState, u: Unit, h: Hex | None = None) -> list[Unit]:
    """Enemy units on the board in ``h`` (default: the unit's own hex)."""
    where = h if h is not None else u.hex
    return [x for x in st.units.values() if x.side != u.side and is_on_board(x) and x.hex == where]


def in_close_combat(st: GameState, u: Unit) -> bool:
    """True if enemy units share its hex (7.3: units in close combat cannot be targeted by fire)."""
    return status(u).bound or bool(enemies_in_hex(st, u))


def has_field_of_fire(tables: Tables, u: Unit) -> bool:
    """5.5: printed on the card, or granted by a Defend order in force; a facing must be set."""
    s = status(u)
    return (card(tables, u).field_of_fire or s.fof) and s.facing is not None


def visible_enemy(st: GameState, u: Unit) -> bool:
    """True if ``u`` may be named as a target by the other side: on the board, not hidden in Ambush (3.11) and
    not a concealed HQ (9.11)."""
    s = status(u)
    return is_on_board(u) and not s.concealed and not s.hidden


def order_of(st: GameState, u: Unit) -> Order | None:
    """The unit's order this round: while planning the side's own sheet, during execution the revealed one."""
    d = data(st)
    if d.active is not None:
        return d.active.get(u.id)
    return d.orders.get(u.side, {}).get(u.id)


def smoke(st: GameState) -> frozenset[Hex]:
    """Hexes with smoke markers (3.9)."""
    return frozenset(data(st).smoke)


def asks(st: GameState, side: str) -> bool:
    """True if ``side`` decides during execution (``prompts on``, 15.2)."""
    return side in data(st).ask


def policy_rows(tables: Tables, policy: str | None) -> tuple[str, ...]:
    """15.2 item 4: the target rows a ``prefer-CLASS`` reaction policy prefers; () for ``first``, ``hold`` and none
    (the classes are ``rules.toml`` ``[policy_classes]``)."""
    if policy is None or not policy.startswith("prefer-"):
        return ()
    got = tables.rules["policy_classes"].get(policy.removeprefix("prefer-"))
    return tuple(got["rows"]) if got else ()


def hex_label_of(st: GameState, u: Unit) -> str:
    """The unit's hex label, or "?" off the map."""
    return st.board.label(u.hex) if u.hex is not None else "?"


def refuse(text: str, rule: str) -> IllegalActionError:
    """An IllegalActionError citing the digest section."""
    return IllegalActionError(f"{text} (rule {rule})", rule)
