"""Provides the interaction mode interface: how a decision is entered on the game screen.

The engine says, for every decision, in which mode it is entered (:attr:`engine.Waiting.mode`); the game screen
hosts one :class:`Mode` per mode the ruleset declares (:attr:`engine.rules.Ruleset.modes`) and hands the
decision now to the mode named by the engine (the *current* mode; :class:`~tui.modes.choose.ChooseMode` for a
mode the client does not know). A mode says:

- what Enter on a hex does (:meth:`Mode.on_hex`) and which units may be selected (:meth:`Mode.selectable`);
- the keys it adds to the table (:attr:`Mode.keys`, with their help rows), offered while the ruleset uses the
  mode, and which of the table's own keys it holds back for now (:meth:`Mode.held_back`);
- its overlay and status note (:meth:`Mode.drawn`, :meth:`Mode.note`), and what Escape and Backspace do (as keys
  of its own).

A mode imports no screen and no Textual: it works through the :class:`~tui.table.Table` protocol.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import ClassVar

from engine import Hex, Role

from ..overlay import Drawn
from ..table import Table

__all__ = ["SELECT_ROLES", "Key", "MapMode", "Mode", "PaletteCommand"]

SELECT_ROLES = (Role.ORDER, Role.ATTACK, Role.CANCEL)
"""Actions of these roles make their unit selectable on the map (unless they are secondary)."""

PaletteCommand = tuple[str, str, Callable[[], None]]
"""A command for the command palette: title, what it does, what runs it."""


@dataclass(frozen=True)
class Key:
    """A key a mode adds to the table: the keys, the mode's name for it (``key_<name>`` runs it), the footer
    label, the binding id (key maps and help use it) and the help screen's words."""

    keys: str
    name: str
    label: str
    id: str
    help: str
    show: bool = True
    key_display: str | None = None


class Mode:
    """How the decisions of one interaction mode are entered. The base enters nothing on the map."""

    name: ClassVar[str] = ""
    """The interaction mode (:data:`engine.contract.ACT`...) this class serves."""
    keys: ClassVar[tuple[Key, ...]] = ()
    """The keys this mode adds to the table, in footer order (after the table's own)."""
    key_words: ClassVar[Mapping[str, str]] = {}
    """Binding id → what the help says about one of the table's own keys while the ruleset uses this mode."""
    table_name: ClassVar[str] = ""
    """What the help screen calls the table while the ruleset uses this mode (empty: ``game``)."""
    on_map: ClassVar[bool] = False
    """Decisions are given on the map (select a unit or hex first); False: from a list of every legal action."""
    placing: ClassVar[bool] = False
    """Set-up and arrivals are marked on the map and placed with Enter."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def selectable(self) -> list[str]:
        """Units the player may select on the map now, in id order."""
        return []

    def on_hex(self, h: Hex) -> None:
        """Enter on a hex (the side on screen may decide): the base offers every legal decision as a list."""
        self.table.open_choices()

    def picked(self, unit_id: str) -> None:
        """A unit was picked from a hex's list: select it."""
        self.table.select_unit(unit_id)

    def refreshed(self) -> None:
        """The view and the legal actions were read again (a mode may drop what no longer applies)."""

    def note(self) -> str:
        """What the status line says instead of the engine's sentence (empty: the engine's)."""
        return ""

    def drawn(self) -> Drawn | None:
        """The map's overlay in this mode's own terms, or None for the table's (selection, targets, LOS...: the
        screen draws :func:`tui.overlay.draw` of its scene)."""
        return None

    def held_back(self) -> frozenset[str]:
        """The table's own keys (by name) this mode holds back for now: hidden from the footer, they do nothing."""
        return frozenset()

    def check_key(self, name: str) -> bool | None:
        """One of this mode's keys: True (on), None (shown dim, does nothing) or False (hidden)."""
        return True

    def why_not(self, name: str) -> str:
        """One line saying why one of this mode's keys does nothing now (it is dimmed)."""
        return "Not possible now"

    def run_key(self, name: str) -> None:
        """Press one of this mode's keys."""
        getattr(self, f"key_{name}")()

    def palette(self) -> list[PaletteCommand]:
        """Commands this mode adds to the command palette."""
        return []


class MapMode(Mode):
    """A mode whose decisions start from a unit selected on the map."""

    on_map = True

    def selectable(self) -> list[str]:
        """Units with an order, an attack or a take-back of their own (not a secondary one), in id order."""
        t = self.table
        ids = {i.unit for a in t.now.legal if (i := t.now.info_of(a)).any(*SELECT_ROLES) and not i.secondary}
        return sorted(i for i in ids if i is not None)

    def pick_unit(self, ids: list[str]) -> None:
        """One unit: select it; several: ask which (then :meth:`picked`)."""
        if len(ids) == 1:
            self.table.select_unit(ids[0])
            return

        def picked(uid: str | None) -> None:
            if uid is not None:
                self.picked(uid)

        self.table.choose("Which unit?", self.table.words().units(ids), picked)
