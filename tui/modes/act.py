"""Provides the select-and-act mode: select a unit on the map, then Enter on a hex moves it, fires, assaults or
lists the actions there; set-up and arrivals are placed on marked hexes; barrages are aimed at hexes.

Keys it adds: ``b`` barrage, ``x`` stop the selected unit, ``z`` end the activation, Escape or Backspace
deselect.
"""

from __future__ import annotations

from typing import ClassVar

from engine import ActionInfo, Hex, Role
from engine.contract import ACT

from ..overlay import placements
from .base import Key, MapMode

__all__ = ["ActMode"]


def _is_barrage(info: ActionInfo) -> bool:
    return info.is_barrage


def _is_stop(info: ActionInfo) -> bool:
    return info.has(Role.STOP)


class ActMode(MapMode):
    """Select a unit and act with it (Blitzkrieg's activations and set-up)."""

    name = ACT
    placing = True
    keys: ClassVar[tuple[Key, ...]] = (
        Key(
            "b", "barrages", "Barrage", "game.barrage", "artillery or Stuka barrage: target hexes with their observers"
        ),
        Key("x", "stop_unit", "Stop", "game.stop", "stop the selected unit's move"),
        Key("z", "finish", "End", "game.end", "end the activation"),
        Key("escape,backspace", "deselect", "Deselect", "game.cancel", "deselect the unit, hide the overlays", False),
    )  # fmt: skip
    """
    | Key(s) | Description |
    | :- | :- |
    | enter, space | Select a unit, then a hex: move there one hex, fire at it, or choose among the actions there. |
    | b | Artillery or Stuka barrage: target hexes with their observers. |
    | x | Stop the selected unit's move. |
    | z | End the activation. |
    | escape, backspace | Deselect. |
    """

    # --- Enter on a hex -------------------------------------------------------------------------------

    def on_hex(self, h: Hex) -> None:
        """Select a unit there, give the selected unit's order for that hex, or place a unit."""
        t = self.table
        label = t.info.board.label(h)
        u = t.now.unit(t.selected)
        if u is not None:
            acts = [a for a in t.now.unit_actions(u.id) if h in t.now.info_of(a).hexes]
            # Enter moves the selected unit; orders for several units (a stack) are chosen with o.
            acts = [a for a in acts if not t.now.info_of(a).secondary] or acts
            if acts:
                t.decide(acts, f"{u.id} → {label}")
                return
            if u.hex == h:
                others = [x for x in t.selectable_at(h) if x != u.id]
                if others:
                    self.pick_unit(others)
                return
        placing = [a for a, info in placements(t.now.legal_infos, t.now.view) if h in info.hexes]
        if placing and u is None:
            t.decide(placing, f"Set up in {label}")
            return
        candidates = t.selectable_at(h)
        if candidates:
            if u is None or u.id not in candidates:
                self.pick_unit(candidates)
            return
        acts = [a for a in t.now.legal if (i := t.now.info_of(a)).unit is None and h in i.hexes]
        if acts:
            t.decide(acts, f"Orders for {label}")
            return
        if u is not None:
            t.notify(f"{u.id} has no order for {label}", severity="warning")

    # --- Keys -----------------------------------------------------------------------------------------

    def check_key(self, name: str) -> bool | None:
        t = self.table
        if name == "deselect":
            return True
        if not t.to_decide():
            return None
        if name == "barrages":
            found = bool(t.now.actions(_is_barrage))
        elif name == "stop_unit":
            found = bool(t.selected and t.now.unit_actions(t.selected, _is_stop))
        else:
            found = t.now.end_action() is not None
        return True if found else None

    def key_barrages(self) -> None:
        """Artillery and Stukas: target hexes with observers (those at the cursor first)."""
        t = self.table
        if not t.can_decide():
            return
        pool = t.now.actions(_is_barrage)
        here = [a for a in pool if t.cursor in t.now.info_of(a).hexes]
        if pool:
            t.decide(here or pool, "Barrage on which hex?")

    def key_stop_unit(self) -> None:
        """Stop the selected unit."""
        t = self.table
        if t.can_decide() and t.selected:
            acts = t.now.unit_actions(t.selected, _is_stop)
            if acts:
                t.play(acts[0])

    def key_finish(self) -> None:
        """End the activation."""
        t = self.table
        end = t.now.end_action()
        if t.can_decide() and end is not None:
            t.play(end)

    def key_deselect(self) -> None:
        """Deselect the unit and hide the overlays."""
        self.table.deselect()
