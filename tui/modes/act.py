"""Provides the select-and-act mode: select a unit on the map, then Enter on a hex moves it, fires, assaults or
lists the actions there; set-up and arrivals are placed on marked hexes; barrages are aimed at hexes.

Enter on a reachable hex further away moves the unit along the route the map's costs show, one step at a time,
each step a legal action of its own (the engine's rules apply to every step: a reaction window, a minefield or a
rule may stop it). Where the walk stops short, the player is told where and why, and Enter on the hex again goes
on from there.

Keys it adds: ``b`` barrage, ``x`` stop the selected unit, ``z`` end the activation, Escape or Backspace
deselect.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from engine import Action, ActionInfo, Hex, Role
from engine.contract import ACT
from engine.errors import ActionError

from ..overlay import placements
from .base import Key, MapMode

__all__ = ["ActMode"]


def _is_barrage(info: ActionInfo) -> bool:
    return info.is_barrage


def _is_stop(info: ActionInfo) -> bool:
    return info.has(Role.STOP)


def _is_step(info: ActionInfo) -> bool:
    """A unit's own move (not a secondary one, such as a stack's)."""
    return info.has(Role.MOVE) and not info.secondary and info.destination is not None


@dataclass
class _Walk:
    """A move by destination under way: the unit, where it goes, the steps left, and the kind of move (the verb of
    the first step, so that a move stays a move and a move-and-fire stays one)."""

    unit: str
    side: str
    """The side whose unit walks: when another side is to decide (a reaction window), the walk stops."""
    goal: Hex
    steps: list[Hex] = field(default_factory=list)
    verb: str = ""


class ActMode(MapMode):
    """Select a unit and act with it (Blitzkrieg's activations and set-up)."""

    name = ACT
    placing = True
    walk: _Walk | None = None
    """The move by destination waiting for the player's choice of its first step."""
    keys: ClassVar[tuple[Key, ...]] = (
        Key(
            "b", "barrages", "Barrage", "game.barrage", "artillery or Stuka barrage: target hexes with their observers"
        ),
        Key("x", "stop_unit", "Stop", "game.stop", "stop the selected unit's move"),
        Key("z", "finish", "End", "game.end", "end the activation (a unit still moving stops first)"),
        Key("escape,backspace", "deselect", "Deselect", "game.cancel", "deselect the unit, hide the overlays", False),
    )  # fmt: skip
    """
    | Key(s) | Description |
    | :- | :- |
    | enter, space | Select a unit, then a hex: move there (step by step along the route), fire at it, or choose. |
    | b | Artillery or Stuka barrage: target hexes with their observers. |
    | x | Stop the selected unit's move. |
    | z | End the activation (a unit still on its move stops first). |
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
            if self._walk_to(u.id, h):
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
            t.notify(
                f"{u.id} has no order for {label}: it cannot reach it now, and nothing there is its target",
                severity="warning",
            )

    # --- Moving by destination -------------------------------------------------------------------------

    def _steps_to(self, unit_id: str, h: Hex, verb: str = "") -> list[Action]:
        """The unit's legal one-hex moves into ``h`` (of the walk's kind, if it has one)."""
        t = self.table
        return [
            a
            for a in t.now.unit_actions(unit_id, _is_step)
            if t.now.info_of(a).destination == h and (not verb or a.verb == verb)
        ]

    def _walk_to(self, unit_id: str, goal: Hex) -> bool:
        """Start moving the unit along its cheapest route to ``goal``; False if the engine knows no route there."""
        t = self.table
        board = t.info.board
        try:
            route = t.client.route(unit_id, board.label(goal))
        except ActionError:
            return False
        if route is None or len(route.path) < 2:
            return False
        walk = _Walk(unit_id, t.client.side, goal, list(route.path[1:]))
        first = self._steps_to(unit_id, walk.steps[0])
        if not first:
            self._stopped(walk, self._why_not(walk, walk.steps[0], None))
            return True
        self.walk = walk
        if len(first) == 1:
            self._go(first[0])
        else:
            t.choose(f"{unit_id} → {board.label(goal)}: which move?", t.words().items(first), self._go)
        return True

    def _go(self, first: Action | None) -> None:
        """Walk on from the first step (None: the player closed the list)."""
        walk, self.walk = self.walk, None
        if walk is None or first is None:
            return
        walk.verb = first.verb
        t = self.table
        step: Action | None = first
        while step is not None:
            played = t.decisions
            walk.steps.pop(0)
            t.play(step)
            if t.decisions == played:
                return  # refused: the table has said why
            if not walk.steps:
                return
            if t.client.to_act != walk.side or not t.to_decide():
                waiting = t.presenter.waiting_for(t.client.view()).rstrip(".")
                self._stopped(walk, f"{waiting}; then Enter on the hex again to go on")
                return
            steps = self._steps_to(walk.unit, walk.steps[0], walk.verb)
            if not steps:
                self._stopped(walk, self._why_not(walk, walk.steps[0], step))
                return
            step = steps[0]

    def _why_not(self, walk: _Walk, h: Hex, last: Action | None) -> str:
        """Why the unit cannot step into ``h`` now: the engine's refusal of that step, with its rule."""
        t = self.table
        label = t.info.board.label(h)
        tried = [last] if last is not None else t.now.unit_actions(walk.unit, _is_step)[:1]
        for a in tried:
            start = t.info.path_start(a.verb)
            if start is None:
                continue
            try:
                t.client.check(Action(a.verb, (*a.args[:start], label)))
            except ActionError as err:
                return str(err)
        return f"it cannot move into {label} now"

    def _stopped(self, walk: _Walk, why: str) -> None:
        """Tell the player where the walk stopped short of its goal, and why."""
        t = self.table
        u = t.now.unit(walk.unit)
        here = t.info.board.label(u.hex) if u is not None and u.hex is not None else "its hex"
        t.notify(
            t.named(f"{walk.unit} stops at {here}, short of {t.info.board.label(walk.goal)}: {why}"),
            severity="warning",
            timeout=8,
        )

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
            found = t.now.end_action() is not None or len(t.now.actions(_is_stop)) == 1
        return True if found else None

    def why_not(self, name: str) -> str:
        t = self.table
        if not t.to_decide():
            return "Not your decision now"
        if name == "barrages":
            return "No artillery or Stuka barrage can be called now"
        if name == "stop_unit":
            if not t.selected:
                return "Select the unit that is moving first: x stops its move"
            return f"{t.selected} is not moving: there is no move to stop"
        return "There is no activation of yours to end now"

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
        """End the activation; a unit still on its move stops first (one key for both: the stop, then the end)."""
        t = self.table
        if not t.can_decide():
            return
        end = t.now.end_action()
        if end is None:
            stops = t.now.actions(_is_stop)
            if len(stops) != 1:
                return
            t.play(stops[0])
            end = t.now.end_action() if t.can_decide() else None
            if end is None:  # something else comes first (a reaction, a choice): z again after it
                return
        t.play(end)

    def key_deselect(self) -> None:
        """Deselect the unit and hide the overlays."""
        self.table.deselect()
