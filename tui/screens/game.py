"""Provides the game screen: the map, the panels, the log, and every decision by keyboard.

The screen reads one side's client at a time (hot-seat switches clients at a hand-off) and asks the engine
everything through it: legal actions, reachable hexes, line of sight, odds and explanations. Decisions given on
the map (moves, fire, close combat, barrages) start from a selected unit or hex; every other decision (chits,
reactions, N results, close combat choices) comes up as a list of the legal actions with the engine's
explanation. An illegal action shows the engine's sentence and changes nothing.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.suggester import SuggestFromList
from textual.timer import Timer
from textual.widgets import Footer, Input
from textual.worker import get_current_worker

from engine import Action, ActionInfo, GameState, Hex, Role, Unit, Waiting, distance
from engine.ai import make_agent
from engine.contract import ACT, PLAN
from engine.errors import ActionError, PlanspielError
from engine.typed import field_values

from ..client import GameClient
from ..widgets.hexmap import HexContent, HexMap, Overlay, UnitMark
from ..widgets.panels import EventLog, HexPanel, StatusBar, UnitPanel, effect_chance, odds_lines
from .dialogs import ChoiceDialog, ConfirmDialog

if TYPE_CHECKING:
    from ..app import PlanspielApp
    from ..session import Session

__all__ = ["GameScreen"]

Pick = Callable[[ActionInfo], bool]
"""A test of what an action means (its roles, its unit...)."""
_SELECT_ROLES = (Role.ORDER, Role.ATTACK, Role.CANCEL)
"""Actions of these roles make their unit selectable on the map (unless they are secondary)."""
_GROUP_OVER = 16
"""Choice lists longer than this show one line per verb and unit, then the hexes."""
_NARROW = 120
"""Below this width the unit and hex panels share one place (i switches)."""


class GameScreen(Screen[None]):
    """The table: map, unit and hex panels, event log, status bar and footer."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f", "fire", "Fire", id="game.fire"),
        Binding("c", "assault", "Assault", id="game.assault"),
        Binding("b", "barrage", "Barrage", id="game.barrage"),
        Binding("x", "stop", "Stop", id="game.stop"),
        Binding("z", "end", "End", id="game.end"),
        Binding("o", "orders", "Choices", id="game.orders"),
        Binding("n", "next_unit", "Next", id="game.next"),
        Binding("v", "los", "LOS", id="game.los"),
        Binding("k", "command", "Command", id="game.command"),
        Binding("h", "hint", "Hint", id="game.hint"),
        Binding("H", "play_hint", "Play hint", key_display="H", id="game.play_hint"),
        Binding("u", "undo", "Undo", id="game.undo"),
        Binding("colon", "prompt", "Notation", key_display=":", id="game.prompt"),
        Binding("S", "save", "Save", key_display="S", id="game.save"),
        Binding("escape,backspace", "cancel", "Deselect", show=False, id="game.cancel"),
        Binding("i", "toggle_panel", "Unit/hex panel", show=False, id="game.panel"),
        Binding("Q", "leave", "Title", key_display="Q", id="game.leave"),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | enter, space | Select a unit, then a hex: move there one hex, fire at it, or choose among the actions there. |
    | f | Fire with the selected unit: its targets with the exact odds, then confirm. |
    | c | Close combat (assault) with the selected unit. |
    | b | Artillery or Stuka barrage: target hexes with their observers. |
    | x | Stop the selected unit's move. |
    | z | End the activation. |
    | o | Every legal decision now, with the engine's explanation (chits, reactions, …). |
    | n | Select the next unit that can act. |
    | v | Show the line of sight from the selected unit (or the cursor) to the cursor. |
    | k | Command range of the selected unit's HQ (``┆2┆``: hexes from it), units out of command (``OOC``). |
    | h | Ask the AI for a hint: the best action for you now, with the engine's explanation, marked on the map. |
    | H | Play the hinted action (any other action ignores it). |
    | u | Undo your last action (until dice are rolled or hidden information is revealed). |
    | : | Type an action in notation (``fire ger-1 fra-3``). |
    | S | Save now (the game also autosaves after every action). |
    | escape, backspace | Deselect. |
    | i | Switch between the unit and hex panels (narrow terminals). |
    | Q | Back to the title screen (the game is saved). |
    """

    KEY_HELP: ClassVar[dict[str, str]] = {
        "game.fire": "fire with the selected unit: its targets with the exact odds, then confirm",
        "game.assault": "close combat (assault) with the selected unit",
        "game.barrage": "artillery or Stuka barrage: target hexes with their observers",
        "game.stop": "stop the selected unit's move",
        "game.end": "end the activation",
        "game.orders": "every legal decision now, with the engine's explanation (chits, reactions...)",
        "game.next": "select the next unit that can act",
        "game.los": "line of sight and range from the selected unit to the cursor",
        "game.command": "command range of the selected unit's HQ (┆n┆: hexes from it), units out of command (OOC)",
        "game.hint": "ask the AI for a hint: the best action for your side now, explained and marked HINT on the map",
        "game.play_hint": "play the hinted action (any other action ignores the hint)",
        "game.undo": "undo your last action (until dice are rolled or hidden information is revealed)",
        "game.prompt": "type an action in notation (fire ger-1 fra-3)",
        "game.save": "save now (the game also autosaves after every action)",
        "game.cancel": "deselect the unit, hide the overlays",
        "game.panel": "switch between the unit and hex panels (narrow terminals)",
        "game.leave": "back to the title screen (the game is saved)",
    }
    """Binding id → what the help screen says."""

    DEFAULT_CSS = """
    GameScreen #main {
        height: 1fr;
    }
    GameScreen HexMap {
        width: 1fr;
        height: 1fr;
    }
    GameScreen #side {
        width: 44;
        height: 1fr;
        border-left: solid $panel-lighten-2;
    }
    GameScreen.narrow #side {
        width: 30;
    }
    GameScreen.narrow #log {
        height: 4;
    }
    GameScreen.narrow.show-unit #hex {
        display: none;
    }
    GameScreen.narrow.show-unit #unit {
        height: 1fr;
    }
    GameScreen.narrow.show-hex #unit {
        display: none;
    }
    GameScreen #prompt {
        dock: bottom;
        display: none;
        margin-bottom: 1;
    }
    GameScreen #prompt.visible {
        display: block;
    }
    """

    def __init__(self, session: Session, *, side: str | None = None) -> None:
        super().__init__()
        self.session = session
        humans = session.humans
        first = side or (session.game.to_act if session.is_human(session.game.to_act) else None)
        self.client: GameClient = session.client(first or (humans[0] if humans else session.info.sides[0].id))
        self.presenter = session.presenter
        self.info = self.client.info
        self.selected: str | None = None
        self.los_on = False
        self.command_on = False
        """Command ranges and out-of-command units shown (k)."""
        self._view: GameState = self.client.view()
        self._legal: list[Action] = []
        self._infos: dict[Action, ActionInfo] = {}
        """What each legal action means (the engine's answer, read once per refresh)."""
        self._waiting: Waiting = Waiting(None)
        self._event_index = 0
        self._busy = False
        """True while a dialog, a hand-off or the AI is under way (advance waits)."""
        self._ai_side: str | None = None
        self._spinner: Timer | None = None
        self._ai_progress: dict[str, str] = {}
        """Latest progress line per worker (``ai``, ``hint``), written by the agent's thread, read by the UI's."""
        self.hint: Action | None = None
        """The AI's suggestion for the side on screen (h), until the game moves on."""
        self._hint_at: tuple[str, int] | None = None
        """(side, actions played) when the hint was asked for: it is stale once either changes."""
        self._hinting = False
        self._los_lines: list[str] = []
        self._ai_failed: set[Action] = set()
        """Actions the engine refused for the AI at this decision (it plays another)."""
        self.decisions = 0
        """How many actions this screen applied (tests read it)."""

    @property
    def planspiel(self) -> PlanspielApp:
        """The app (typed)."""
        return self.app  # type: ignore[return-value]

    # --- Layout -----------------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield StatusBar(id="status")
        with Horizontal(id="main"):
            yield HexMap(self.info.board, terrain_glyphs=self.presenter.terrain_glyphs, id="map")
            with Vertical(id="side"):
                yield UnitPanel(id="unit")
                yield HexPanel(id="hex")
        yield EventLog(id="log")
        yield Input(placeholder="notation, e.g. fire ger-1 fra-3 (enter: play, escape: close)", id="prompt")
        yield Footer(compact=True)

    @property
    def map(self) -> HexMap:
        """The hex map."""
        return self.query_one("#map", HexMap)

    @property
    def log_widget(self) -> EventLog:
        """The event log."""
        return self.query_one("#log", EventLog)

    def on_mount(self) -> None:
        self.map.set_palette(self.planspiel.palette)
        self._apply_size(self.app.size.width)
        self._reload_log()
        self._place_cursor()
        self.refresh_view()
        self.map.focus()
        if self.session.replay_check_pending:
            # The indicator at once; the replay itself once the table is on screen (it competes for the CPU).
            self.query_one("#status", StatusBar).checking = "checking the save…"
            self._spin()
            self.set_timer(0.3, self.start_replay_check)
        self.call_after_refresh(self.advance)

    def on_resize(self) -> None:
        self._apply_size(self.app.size.width)

    def _apply_size(self, width: int) -> None:
        narrow = width < _NARROW
        self.set_class(narrow, "narrow")
        if narrow and not (self.has_class("show-unit") or self.has_class("show-hex")):
            self.add_class("show-unit")

    def on_screen_resume(self) -> None:
        self.map.set_palette(self.planspiel.palette)

    # --- Reading the view -------------------------------------------------------------------------------

    def refresh_view(self) -> None:
        """Read the view and legal actions again and redraw what changed."""
        self._read_legal()
        if self.hint is not None and self._hint_at != (self.client.side, self.client.actions_played):
            self.hint = None  # the game moved on: the hint no longer applies
        if self.selected is not None and self.selected not in self._selectable():
            self.selected = None
        moving = self._moving_unit()
        if moving is not None:
            self.selected = moving
        self.map.set_content(self._content())
        self._update_overlay()
        self._update_panels()
        self._update_status()
        self._refresh_footer()

    def _content(self) -> dict[Hex, HexContent]:
        view, pr = self._view, self.presenter
        stacks: dict[Hex, list[Unit]] = defaultdict(list)
        for u in view.iter_units():
            if u.hex is not None:
                stacks[u.hex].append(u)
        out: dict[Hex, HexContent] = {}
        for h in self.info.board:
            units = stacks.get(h, [])
            markers = pr.hex_markers(view, h)
            if not units and not markers:
                continue
            mark = None
            if units:
                ordered = pr.stack_order(units)
                top = next((u for u in ordered if u.id == self.selected), ordered[0])
                flags = "".join(m.glyph for m in pr.unit_markers(top))
                mark = UnitMark(pr.side_index.get(top.side, 0), pr.unit_label(top), flags)
            marker = markers[0] if markers else None
            out[h] = HexContent(
                mark,
                len(units),
                marker.glyph if marker else "",
                pr.side_index.get(marker.side) if marker and marker.side else None,
            )
        return out

    def _read_legal(self) -> None:
        """Read the view, the legal actions, what each means and what the game waits for."""
        self._view = self.client.view()
        self._legal = self.client.legal_actions()
        self._infos = {a: self.client.action_info(a) for a in self._legal}
        self._waiting = self.client.waiting()

    def info_of(self, action: Action) -> ActionInfo:
        """What an action means (from the engine; legal actions are read once per refresh)."""
        got = self._infos.get(action)
        return got if got is not None else self.client.action_info(action)

    def _on_map(self) -> bool:
        """True if the decision now is given on the map (else it is a list of choices)."""
        return self._waiting.mode in (ACT, PLAN) and bool(self._legal)

    def _selectable(self) -> list[str]:
        """Units the player may give a map order to now, in id order."""
        if not self._on_map():
            return []
        ids = {i.unit for i in self._infos.values() if i.any(*_SELECT_ROLES) and not i.secondary}
        return sorted(i for i in ids if i is not None)

    def _moving_unit(self) -> str | None:
        ids = self._selectable()
        return ids[0] if len(ids) == 1 and self._unit(ids[0]) is not None and self._is_moving(ids[0]) else None

    def _is_moving(self, unit_id: str) -> bool:
        u = self._unit(unit_id)
        return bool(u is not None and field_values(u.status).get("moving"))

    def _unit(self, unit_id: str | None) -> Unit | None:
        return self._view.units.get(unit_id) if unit_id else None

    def _unit_actions(self, unit_id: str, pick: Pick | None = None) -> list[Action]:
        return [a for a in self._legal if (i := self.info_of(a)).unit == unit_id and (pick is None or pick(i))]

    def _actions(self, pick: Pick) -> list[Action]:
        return [a for a in self._legal if pick(self.info_of(a))]

    def _update_overlay(self) -> None:
        overlay: dict[Hex, Overlay] = {}
        board = self.info.board
        u = self._unit(self.selected)
        if u is not None:
            reach: dict[str, float] = {}
            if u.hex is not None:
                try:
                    reach = self.client.reachable(u.id)
                except (ActionError, PlanspielError, ValueError):
                    reach = {}
            for label, cost in reach.items():
                h = board.parse(label)
                if h != u.hex:
                    overlay[h] = Overlay("reach", f"{cost:g}")
            for a in self._unit_actions(u.id, _is_step):
                info = self.info_of(a)
                for h in info.hexes[:1]:
                    step_cost = reach.get(board.label(h))
                    text = "»" + (f"{step_cost:g}" if step_cost is not None else "")
                    overlay[h] = Overlay("target", "×") if info.is_assault else Overlay("step", text)
            for a in self._unit_actions(u.id, _is_fire):
                targets = self.info_of(a).targets
                target = self._unit(targets[0]) if targets else None
                if target is None or target.hex is None:
                    continue
                odds = self.client.odds(a)
                text = f"◎{effect_chance(odds):.0%}" if odds is not None else "◎"
                overlay[target.hex] = Overlay("target", text)
            if u.hex is not None:
                overlay[u.hex] = Overlay("select")
        if self.selected is None:
            for a in self._placements():
                for h in self.info_of(a).hexes[:1]:
                    overlay.setdefault(h, Overlay("step", "+"))
            for a in self._actions(_is_barrage):
                info = self.info_of(a)
                for h in info.hexes[:1]:
                    overlay.setdefault(h, Overlay("target", "◎" + info.verb[:2]))
        self._los_lines = []
        if self.los_on:
            src = u.hex if u is not None and u.hex is not None else None
            if src is not None and src != self.map.cursor:
                los = self.client.line_of_sight(board.label(src), board.label(self.map.cursor))
                for h in los.path[1:-1]:
                    overlay.setdefault(h, Overlay("los", "·"))
                if los.blocker is not None:
                    overlay[los.blocker] = Overlay("block", "✗")
                rng = distance(src, self.map.cursor)
                verdict = "clear" if los.visible else f"blocked at {board.label(los.blocker) if los.blocker else '?'}"
                if los.visible and los.reason.startswith("clear"):
                    verdict, why = los.reason, ""  # the engine's own words ("clear", "clear (along a hexside…)")
                else:
                    why = f": {los.reason}" if los.reason else ""
                rule = f" (rule {los.rule})" if los.rule and f"rule {los.rule}" not in los.reason else ""
                self._los_lines = [f"LOS from {board.label(src)}: {verdict}{why}{rule}", f"range {rng} hexes"]
        self._los_lines += self._rule_overlays(overlay, u)
        if self.hint is not None:
            self._los_lines.append(f"HINT {self.client.describe(self.hint)} (H plays it)")
            for h in self._hint_hexes(self.hint):
                if overlay.get(h) is None or overlay[h].kind != "select":
                    overlay[h] = Overlay("alert", "HINT")
        self.map.set_overlay(overlay)

    def _command_subjects(self, selected: Unit | None) -> list[str | None]:
        """Units whose command range ``k`` may show: the selected one, else this side's units under the cursor."""
        if selected is not None:
            return [selected.id]
        here = self.presenter.stack_order(self._view.units_at(self.map.cursor))
        own: list[str | None] = [x.id for x in here if x.side == self.client.side]
        return own[:4] or [None]

    def _rule_overlays(self, overlay: dict[Hex, Overlay], selected: Unit | None) -> list[str]:
        """Add the ruleset's overlays (a barrage always; command ranges with ``k``); returns their legend lines."""
        subject: str | None = None
        marks: dict[str, set[Hex]] = {}
        try:
            # The first unit of the stack under the cursor that has a command range (motorised units have none).
            for subject in self._command_subjects(selected) if self.command_on else [None]:
                marks = self.client.overlays(subject)
                if any(self.presenter.overlay_look(n)[0] == "command" for n in marks):
                    break
        except (PlanspielError, ValueError):
            return []
        board, pr = self.info.board, self.presenter
        centre = next(iter(marks.get("hq", ())), None)
        notes: list[str] = []
        # Ranges first (one glyph each: the HQ's name last), then the alerts over them.
        order = sorted(marks, key=lambda n: (pr.overlay_look(n)[0] != "command", len(pr.overlay_look(n)[1]), n))
        for name in order:
            hexes = marks[name]
            kind, glyphs, legend = pr.overlay_look(name)
            if not self.command_on and (kind == "command" or pr.overlay_on_demand(name)):
                continue
            for h in hexes:
                current = overlay.get(h)
                if kind == "command":
                    text = glyphs if len(glyphs) > 1 or centre is None else f"{glyphs}{distance(h, centre)}{glyphs}"
                    if current is None or current.kind in ("los", "command"):
                        overlay[h] = Overlay(kind, text)
                elif current is None or current.kind in ("command", "reach", "los"):
                    overlay[h] = Overlay(kind, glyphs)
            labels = sorted(board.label(h) for h in hexes)
            where = ", ".join(labels[:6]) + (f" and {len(labels) - 6} more" if len(labels) > 6 else "")
            if name == "command" and subject is not None:
                where = f"{len(labels)} hexes around {board.label(centre) if centre else '?'} (for {subject})"
            notes.append(f"{glyphs} {legend}: {where}")
        return notes

    def _update_panels(self) -> None:
        view, pr = self._view, self.presenter
        h = self.map.cursor
        here = pr.stack_order(view.units_at(h))
        unit = self._unit(self.selected)
        if unit is not None:
            stack = pr.stack_order(view.units_at(unit.hex)) if unit.hex is not None else [unit]
            self.query_one("#unit", UnitPanel).show(view, pr, unit, stack, "Selected unit")
        else:
            self.query_one("#unit", UnitPanel).show(view, pr, here[0] if here else None, here, "Unit")
        self.query_one("#hex", HexPanel).show(view, pr, h, self._los_lines)

    def _update_status(self, note: str = "") -> None:
        status = self.query_one("#status", StatusBar)
        status.show(self._view, self.presenter, self.client.side, self.info.turns, note)

    def _place_cursor(self) -> None:
        self._read_legal()
        view = self._view
        ids = self._selectable()
        for uid in ids:
            u = view.units.get(uid)
            if u is not None and u.hex is not None:
                self.map.move_cursor(u.hex)
                return
        own = [u.hex for u in view.iter_units(self.client.side) if u.hex is not None]
        if own:
            self.map.move_cursor(own[0])

    # --- The log ----------------------------------------------------------------------------------------

    def _reload_log(self) -> None:
        log = self.log_widget
        log.clear()
        log.add("phase", f"{self.info.title}: {self.info.side_name(self.client.side)} view (? for the keys)")
        events = self.client.events_since(0)
        log.add_events(events[-150:])  # the recent story; more would slow the first paint of a long game
        self._event_index = self.client.event_count

    def _log_new_events(self) -> None:
        events = self.client.events_since(self._event_index)
        self.log_widget.add_events(events)
        self._event_index = self.client.event_count

    def report_error(self, message: str) -> None:
        """Show a refusal in the log and as a notification; nothing changes."""
        self.log_widget.add("error", message)
        self.notify(message, title="Not allowed", severity="error", timeout=6)

    # --- Messages from the map --------------------------------------------------------------------------

    @on(HexMap.CursorMoved)
    def _cursor_moved(self, event: HexMap.CursorMoved) -> None:
        if self.los_on or (self.command_on and self.selected is None):
            self._update_overlay()
        self._update_panels()

    @on(HexMap.HexSelected)
    def _hex_selected(self, event: HexMap.HexSelected) -> None:
        self.act_on_hex(event.hex)

    def act_on_hex(self, h: Hex) -> None:
        """Enter on a hex: select a unit there, or give the selected unit's order for that hex."""
        if not self._can_decide():
            return
        if not self._on_map():
            self.open_choices()
            return
        u = self._unit(self.selected)
        if u is not None:
            acts = [a for a in self._unit_actions(u.id) if h in self.info_of(a).hexes]
            # Enter moves the selected unit; orders for several units (a stack) are chosen with o.
            acts = [a for a in acts if not self.info_of(a).secondary] or acts
            if acts:
                self._decide(acts, f"{u.id} → {self.info.board.label(h)}")
                return
            if u.hex == h:
                others = [x for x in self._selectable_at(h) if x != u.id]
                if others:
                    self._pick_unit(others)
                return
        placing = self._placements_at(h)
        if placing and u is None:
            self._decide(placing, f"Set up in {self.info.board.label(h)}")
            return
        candidates = self._selectable_at(h)
        if candidates:
            if u is not None and u.id in candidates:
                return
            self._pick_unit(candidates)
            return
        acts = [a for a in self._legal if (i := self.info_of(a)).unit is None and h in i.hexes]
        if acts:
            self._decide(acts, f"Orders for {self.info.board.label(h)}")
            return
        if u is not None:
            self.notify(f"{u.id} has no order for {self.info.board.label(h)}", severity="warning")

    def _placements(self) -> list[Action]:
        """Map actions for a unit not on the map (set-up, arrival) or for no unit at all (a marker)."""
        if self._waiting.mode != ACT:
            return []
        out = []
        for a in self._legal:
            info = self.info_of(a)
            if not info.any(Role.PLACE, Role.MOVE) or info.is_barrage or not info.hexes:
                continue
            unit = self._unit(info.unit)
            if info.unit is None or (unit is not None and unit.hex is None):
                out.append(a)
        return out

    def _placements_at(self, h: Hex) -> list[Action]:
        return [a for a in self._placements() if h in self.info_of(a).hexes]

    def _selectable_at(self, h: Hex) -> list[str]:
        return [uid for uid in self._selectable() if (u := self._unit(uid)) is not None and u.hex == h]

    def _pick_unit(self, ids: list[str]) -> None:
        if len(ids) == 1:
            self.select_unit(ids[0])
            return
        pr = self.presenter
        items = []
        for uid in ids:
            u = self._unit(uid)
            assert u is not None
            flags = " ".join(m.glyph for m in pr.unit_markers(u))
            items.append((uid, Text(f"{pr.unit_label(u)}  {uid}  {pr.unit_name(u)} {flags}".rstrip())))
        self._busy = True
        self.app.push_screen(ChoiceDialog("Which unit?", items), self._picked_unit)

    def _picked_unit(self, uid: str | None) -> None:
        self._busy = False
        if uid is not None:
            self.select_unit(uid)

    def select_unit(self, unit_id: str | None) -> None:
        """Select a unit (None: deselect) and show its reachable hexes, steps and targets."""
        self.selected = unit_id
        u = self._unit(unit_id)
        if u is not None and u.hex is not None:
            self.map.move_cursor(u.hex)
        self.map.set_content(self._content())
        self._update_overlay()
        self._update_panels()
        self._refresh_footer()

    # --- Deciding ---------------------------------------------------------------------------------------

    def _can_decide(self) -> bool:
        if self._busy or self._ai_side is not None:
            return False
        if self.client.to_act != self.client.side:
            return False
        return bool(self._legal)

    def _label_for(self, action: Action) -> Text:
        text = Text(self.client.describe(action), style="bold")
        explanation = self.client.explain(action)
        notation = str(action)
        if explanation.startswith(notation):
            explanation = explanation[len(notation) :].lstrip(" :—-")
        note = self.presenter.action_note(self._view, action)
        if note:
            text.append(f"  ({note})", style="italic")
        explanation = explanation or self.info.verb_help(action.verb)
        if explanation:
            text.append(f"  {explanation}")
        info = self.info_of(action)
        if info.is_direct_fire:
            odds = self.client.odds(action)
            if odds is not None:
                text.append(f"  [effect {effect_chance(odds):.0%}]", style="bold")
        if info.is_barrage and info.units:
            obs = self._view.units[info.units[0]]
            if obs.hex is not None:
                text.append(f"  observer {obs.id} at {self.info.board.label(obs.hex)}", style="italic")
        return text

    def _decide(self, actions: list[Action], title: str) -> None:
        """One action: play it (a shot first shows its odds); several: ask which."""
        if len(actions) == 1:
            self.play(actions[0])
            return
        self._busy = True
        self.app.push_screen(ChoiceDialog(title, self._choice_items(actions)), self._chosen)

    def _choice_items(self, actions: list[Action]) -> list[tuple[Action | list[Action], Text]]:
        """Items of a choice list: passing first in a long list; one line per unit and verb when very long.

        A list that is a single group (e.g. the group just picked: one unit's 18 moves) is listed in full, since
        grouping it again would only offer the same group back (a dead end)."""
        if len(actions) > 9:
            passes = {a for a in actions if Role.PASS in self.client.action_info(a).roles}
            actions = [a for a in actions if a in passes] + [a for a in actions if a not in passes]
        groups: dict[tuple[str, str], list[Action]] = {}
        for a in actions:
            groups.setdefault((a.verb, a.args[0] if a.args else ""), []).append(a)
        if len(actions) <= _GROUP_OVER or len(groups) == 1:
            return [(a, self._label_for(a)) for a in actions]
        items: list[tuple[Action | list[Action], Text]] = []
        for (verb, first), group in groups.items():
            if len(group) == 1:
                items.append((group[0], self._label_for(group[0])))
                continue
            label = Text(f"{verb} {first} …", style="bold")
            label.append(f"  {len(group)} choices")
            help_text = self.info.verb_help(verb)
            if help_text:
                label.append(f"  {help_text}")
            items.append((group, label))
        return items

    def _chosen(self, choice: Action | list[Action] | None) -> None:
        self._busy = False
        if isinstance(choice, list):
            self._decide(choice, f"{choice[0].verb} {choice[0].args[0] if choice[0].args else ''}: which one?")
        elif choice is not None:
            self.play(choice)

    def open_choices(self) -> None:
        """Every legal decision now, as a list with explanations."""
        if not self._can_decide():
            return
        title = self.presenter.waiting_for(self._view)
        self._busy = True
        self.app.push_screen(ChoiceDialog(title, self._choice_items(self._legal)), self._chosen)

    def play(self, action: Action, *, confirmed: bool = False) -> None:
        """Play an action for the side on screen; a shot is confirmed first with its LOS, range and odds."""
        if self.info_of(action).is_direct_fire and not confirmed:
            odds = self.client.odds(action)
            if odds is not None:
                self._busy = True
                self.app.push_screen(
                    ConfirmDialog(f"{self.client.describe(action)}?", self._fire_details(action, odds)),
                    lambda ok: self._confirmed(action, bool(ok)),
                )
                return
        try:
            self.client.apply(action)
        except ActionError as err:
            self.report_error(str(err))
            return
        except ValueError as err:  # an engine fault: the game is unchanged (apply works on a copy)
            self.report_error(f"the engine could not apply {action}: {err}")
            return
        self.decisions += 1
        self.after_change()

    def _confirmed(self, action: Action, ok: bool) -> None:
        self._busy = False
        if ok:
            self.play(action, confirmed=True)
        else:
            self.advance()

    def _fire_details(self, action: Action, odds: Any) -> list[Text | str]:
        board = self.info.board
        info = self.info_of(action)
        shooter = self._unit(info.unit)
        target = self._unit(info.targets[0]) if info.targets else None
        lines: list[Text | str] = []
        if shooter is not None and target is not None and shooter.hex is not None and target.hex is not None:
            pr = self.presenter
            lines.append(
                f"{shooter.id} ({pr.unit_name(shooter)}) at {board.label(shooter.hex)} → "
                f"{target.id} ({pr.unit_name(target)}) at {board.label(target.hex)}"
            )
            los = self.client.line_of_sight(board.label(shooter.hex), board.label(target.hex))
            path = " ".join(board.label(h) for h in los.path)
            if los.visible:
                lines.append(f"Range {distance(shooter.hex, target.hex)} hexes · line of sight clear ({path})")
            else:
                where = board.label(los.blocker) if los.blocker else "?"
                lines.append(f"Range {distance(shooter.hex, target.hex)} hexes · terrain line blocked at {where}")
        lines.append(Text("Exact odds:", style="bold"))
        lines.extend(odds_lines(odds))
        if odds.note:
            lines.append(Text(odds.note, style="italic"))
        return lines

    def after_change(self) -> None:
        """After any action: log the new events, redraw, and go on to the next decision."""
        self._log_new_events()
        error = self.session.save_error
        if error:
            self.notify(f"autosave failed: {error}", severity="warning")
        self.refresh_view()
        self.advance()

    def advance(self) -> None:
        """Go on to whoever decides next: the end of the game, an AI, a hand-off, or a list of choices."""
        if self._busy or self._ai_side is not None or not self.is_attached:
            return
        if self.client.outcome is not None:
            self.planspiel.show_end(self.session)
            return
        to_act = self.client.to_act
        if to_act is None:
            return
        if not self.session.is_human(to_act):
            self.start_ai(to_act)
            return
        if to_act != self.client.side:
            if self.handoff_needed():
                self._busy = True
                self.planspiel.push_handoff(self.session, to_act, self._handed_off)
                return
            self.switch_side(to_act)
        if not self._on_map() and self._legal:
            self.open_choices()

    def handoff_needed(self) -> bool:
        """True if control passing to the other human goes through the blank hand-off screen."""
        return self.planspiel.needs_handoff(self.session)

    def _handed_off(self, side: str) -> None:
        self._busy = False
        self.switch_side(side)
        self.advance()

    def switch_side(self, side: str) -> None:
        """Show the game as ``side`` sees it (hot-seat)."""
        if side == self.client.side:
            return
        self.client = self.session.client(side)
        self.selected = None
        self.los_on = False
        self._reload_log()
        self.refresh_view()
        self._place_cursor()

    # --- Spinner ----------------------------------------------------------------------------------------

    def _spin(self) -> None:
        """Start the status bar's spinner (AI thinking, the save's replay check)."""
        self._tick()
        if self._spinner is None:
            self._spinner = self.set_interval(0.1, self._tick)

    def _tick(self) -> None:
        """Advance the spinner; show the agents' latest progress lines (handed over from their threads)."""
        status = self.query_one("#status", StatusBar)
        if self._ai_side is not None:
            line = self._ai_progress.get("ai")
            status.thinking = f"{self.info.side_name(self._ai_side)} AI is thinking…" + (f" {line}" if line else "")
        elif self._hinting:
            line = self._ai_progress.get("hint")
            status.thinking = "Hint: the AI is looking for your best action…" + (f" {line}" if line else "")
        status.tick()

    def _unspin(self) -> None:
        """Stop the spinner once nothing shows it."""
        status = self.query_one("#status", StatusBar)
        if self._spinner is not None and not status.busy:
            self._spinner.stop()
            self._spinner = None
        status.tick()

    # --- The save's replay check -------------------------------------------------------------------------

    def start_replay_check(self) -> None:
        """Replay the loaded history in a worker and compare it with the saved position; the game goes on."""
        if not self.is_attached:
            return
        self.session.replay_check_pending = False
        self.query_one("#status", StatusBar).checking = "checking the save…"
        self._spin()
        self._check_replay()

    @work(thread=True, exclusive=True, group="replay-check")
    def _check_replay(self) -> None:
        start = time.perf_counter()
        try:
            problems = self.session.check_replay()
        except Exception as err:  # a failing check must never cost the player the game
            problems = [f"the check itself failed ({type(err).__name__}: {err})"]
        if get_current_worker().is_cancelled:
            return
        try:
            self.app.call_from_thread(self._replay_checked, problems, time.perf_counter() - start)
        except RuntimeError:  # the app is closing
            return

    def _replay_checked(self, problems: list[str], seconds: float) -> None:
        if not self.is_attached or not self.query("#status"):
            return
        self.query_one("#status", StatusBar).checking = None
        self._unspin()
        if not problems:
            self.log_widget.add("check", f"save checked: its history replays to this position ({seconds:.1f} s)")
            return
        message = (
            "The save's history does not replay to the saved position: "
            + "; ".join(problems)
            + ". The game goes on from the saved position, as the file recorded it. Its history may come from"
            " another version of the rules, or the file was changed: undo and the score chart may not match the"
            " table. Keep a copy of the file if you want to report it."
        )
        self.log_widget.add("error", message)
        self.notify(message, title="Save check: the replay differs", severity="warning", timeout=30)

    # --- The AI -----------------------------------------------------------------------------------------

    def start_ai(self, side: str) -> None:
        """Let the AI of ``side`` choose in a worker thread, with a thinking indicator."""
        self._ai_side = side
        status = self.query_one("#status", StatusBar)
        status.thinking = f"{self.info.side_name(side)} AI is thinking…"
        self._spin()
        self._refresh_footer()
        self._think(side)

    @work(thread=True, exclusive=True, group="ai")
    def _think(self, side: str) -> None:
        agent = self.session.agents[side]
        client = self.session.client(side)
        delay = self.planspiel.settings.ai_delay
        start = time.perf_counter()
        self._ai_progress.pop("ai", None)

        def progress(line: str) -> None:
            self._ai_progress["ai"] = line  # one assignment: the UI thread reads it on its next spinner tick

        try:
            action: Action | None = agent.choose(
                client, budget_s=float(getattr(agent, "budget_s", 1.0)), progress=progress
            )
            error = ""
            if action in self._ai_failed:
                # The engine refused this action before: play another legal one instead.
                others = [a for a in client.legal_actions() if a not in self._ai_failed]
                action = others[0] if others else None
                error = "every legal action was refused by the engine"
        except (ValueError, PlanspielError) as err:
            action, error = None, str(err)
        rest = delay - (time.perf_counter() - start)
        if rest > 0:
            time.sleep(rest)
        if get_current_worker().is_cancelled:
            return
        try:
            self.app.call_from_thread(self._ai_chose, side, action, error)
        except RuntimeError:  # the app is closing
            return

    def _ai_chose(self, side: str, action: Action | None, error: str) -> None:
        self._ai_side = None
        if not self.is_attached or not self.query("#status"):
            return  # the screen is closing
        status = self.query_one("#status", StatusBar)
        status.thinking = None
        self._unspin()
        if action is None:
            self.report_error(f"{self.info.side_name(side)} AI could not choose: {error}")
            self.refresh_view()
            return
        try:
            self.session.client(side).apply(action)
        except ValueError as err:  # ActionError, or an engine fault: the game is unchanged
            self.report_error(f"{self.info.side_name(side)} AI: {action}: {err}")
            self._ai_failed.add(action)
            self.refresh_view()
            self.advance()
            return
        self._ai_failed.clear()
        self.after_change()

    # --- Actions (keys) ---------------------------------------------------------------------------------

    _ENGINE_KEYS = ("fire", "assault", "barrage", "stop", "end", "orders", "next_unit", "undo", "hint", "play_hint")

    def _refresh_footer(self) -> None:
        """Refresh the footer only when a key's legality changed (the footer rebuilds itself: not cheap)."""
        state = tuple(self.check_action(a, ()) for a in self._ENGINE_KEYS)
        if state != getattr(self, "_footer_state", None):
            self._footer_state = state
            self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Dim the keys whose action is not legal now (the footer keeps them, greyed)."""
        if action in self._ENGINE_KEYS and (
            not self.is_mounted or self._ai_side is not None or self.client.to_act != self.client.side
        ):
            return None
        legal = self._legal
        u = self.selected
        if action == "fire":
            pool = self._unit_actions(u, _is_fire) if u else self._actions(_is_fire)
            return True if pool else None
        if action == "assault":
            pool = self._unit_actions(u, _is_assault) if u else self._actions(_is_assault)
            return True if pool else None
        if action == "barrage":
            return True if self._actions(_is_barrage) else None
        if action == "stop":
            return True if u and self._unit_actions(u, _is_stop) else None
        if action == "end":
            return True if self._end_action() is not None else None
        if action == "orders":
            return True if legal else None
        if action == "next_unit":
            return True if self._selectable() else None
        if action == "undo":
            return True if self.client.can_undo else None
        if action == "hint":
            return True if legal and not self._hinting else None
        if action == "play_hint":
            return True if self.hint is not None and self.hint in legal else None
        return True

    def action_fire(self) -> None:
        """Fire: the selected unit's targets (or every shot possible) with their odds."""
        if not self._can_decide():
            return
        pool = self._unit_actions(self.selected, _is_fire) if self.selected else []
        pool = pool or self._actions(_is_fire)
        if pool:
            self._decide(pool, "Fire at which target?")

    def action_assault(self) -> None:
        """Close combat: the selected unit's assaults."""
        if not self._can_decide():
            return
        pool = self._unit_actions(self.selected, _is_assault) if self.selected else []
        pool = pool or self._actions(_is_assault)
        if pool:
            self._decide(pool, "Assault which hex?")

    def action_barrage(self) -> None:
        """Artillery and Stukas: target hexes with observers."""
        if not self._can_decide():
            return
        pool = self._actions(_is_barrage)
        h = self.map.cursor
        here = [a for a in pool if h in self.info_of(a).hexes]
        if pool:
            self._decide(here or pool, "Barrage on which hex?")

    def action_stop(self) -> None:
        """Stop the selected unit."""
        if self._can_decide() and self.selected:
            acts = self._unit_actions(self.selected, _is_stop)
            if acts:
                self.play(acts[0])

    def _end_action(self) -> Action | None:
        """The legal action that ends the side's activation, turn or planning (no unit's), if any."""
        return next((a for a in self._legal if (i := self.info_of(a)).has(Role.END) and i.unit is None), None)

    def action_end(self) -> None:
        """End the activation."""
        end = self._end_action()
        if self._can_decide() and end is not None:
            self.play(end)

    def action_orders(self) -> None:
        """Every legal decision, with explanations."""
        self.open_choices()

    def action_next_unit(self) -> None:
        """Select the next unit that can act."""
        ids = self._selectable()
        if not ids:
            return
        nxt = ids[(ids.index(self.selected) + 1) % len(ids)] if self.selected in ids else ids[0]
        self.select_unit(nxt)

    def action_los(self) -> None:
        """Show or hide the line of sight from the selected unit to the cursor."""
        self.los_on = not self.los_on
        if self.los_on and self.selected is None:
            self.notify("Select a unit first (enter or n): the line runs from it to the cursor.")
        self._update_overlay()
        self._update_panels()

    def action_command(self) -> None:
        """Show or hide command ranges (of the selected unit's HQ) and units out of command."""
        self.command_on = not self.command_on
        self._update_overlay()
        self._update_panels()
        if self.command_on and not any(o.kind == "command" for o in self.map.overlay.values()):
            self.notify("No command range here: select a unit of a formation with an HQ (enter or n).")

    def _hint_hexes(self, action: Action) -> list[Hex]:
        """The hexes a hinted action concerns: its unit's hex and the hexes it names."""
        info = self.info_of(action)
        out = list(info.hexes)
        unit = self._unit(info.unit)
        if unit is not None and unit.hex is not None and unit.hex not in out:
            out.insert(0, unit.hex)
        return out

    def _hint_level(self) -> str:
        """The AI level of the hint: the opponent's if an AI plays in this game, else normal."""
        levels = [p.split(":", 1)[1] for p in self.session.players.values() if p.startswith("ai:")]
        return levels[0] if levels else "normal"

    def action_hint(self) -> None:
        """Ask the AI (the opponent's level, or normal) for this side's best action, from this side's view only."""
        if self._hinting or not self._can_decide():
            if not self._hinting:
                self.notify("A hint is for your own decision: it is not yours now.", severity="warning")
            return
        self._hinting = True
        self._ai_progress.pop("hint", None)
        self._spin()
        self._refresh_footer()
        self._find_hint(self.client, self._hint_level(), self.client.actions_played)

    @work(thread=True, exclusive=True, group="hint")
    def _find_hint(self, client: GameClient, level: str, played: int) -> None:
        # Hidden information: the agent reads only this side's client (its view, legal actions and odds).
        def progress(line: str) -> None:
            self._ai_progress["hint"] = line

        try:
            agent = make_agent(level, seed=self.session.game.seed * 31 + 7 + played)
            action: Action | None = agent.choose(
                client, budget_s=float(getattr(agent, "budget_s", 1.0)), progress=progress
            )
            error = ""
        except (ValueError, PlanspielError) as err:
            action, error = None, str(err)
        if get_current_worker().is_cancelled:
            return
        try:
            self.app.call_from_thread(self._hint_found, client.side, played, action, error)
        except RuntimeError:  # the app is closing
            return

    def _hint_found(self, side: str, played: int, action: Action | None, error: str) -> None:
        self._hinting = False
        if not self.is_attached or not self.query("#status"):
            return
        self.query_one("#status", StatusBar).thinking = None
        self._unspin()
        self._refresh_footer()
        if action is None:
            self.report_error(f"no hint: {error}")
            return
        if (side, played) != (self.client.side, self.client.actions_played):
            self.notify("The hint came too late: the game has moved on.", severity="warning")
            return
        self.hint, self._hint_at = action, (side, played)
        text = self.client.describe(action)
        explanation = self.client.explain(action)
        if explanation.startswith(str(action)):
            explanation = explanation[len(str(action)) :].lstrip(" :—-")
        note = self.presenter.action_note(self._view, action)  # e.g. a movement order's path cost (AoT 4.11)
        line = (
            f"hint: {text}"
            + (f" ({note})" if note else "")
            + (f" — {explanation}" if explanation else "")
            + " (H plays it, any other action ignores it)"
        )
        self.log_widget.add("hint", line)
        self.notify(line, title="Hint", timeout=12)
        self._update_overlay()
        self._update_panels()
        self._refresh_footer()

    def action_play_hint(self) -> None:
        """Play the hinted action."""
        hint = self.hint
        if hint is None or not self._can_decide():
            return
        if hint not in self._legal:
            self.hint = None
            self.report_error("the hinted action is no longer legal")
            return
        self.hint = None
        self.play(hint, confirmed=True)

    def action_undo(self) -> None:
        """Take back your last action (refused once dice were rolled)."""
        if self._ai_side is not None or self._busy:
            return
        try:
            undone = self.client.undo()
        except ActionError as err:
            self.report_error(str(err))
            return
        self.log_widget.add("undo", f"undone: {self.client.describe(undone)}")
        self._event_index = self.client.event_count
        self.session.autosave()
        self.refresh_view()
        self.advance()

    def action_prompt(self) -> None:
        """Open the notation prompt."""
        prompt = self.query_one("#prompt", Input)
        prompt.suggester = SuggestFromList([self.client.describe(a) for a in self._legal], case_sensitive=False)
        prompt.add_class("visible")
        prompt.value = ""
        prompt.focus()

    @on(Input.Submitted, "#prompt")
    def _prompt_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        self._close_prompt()
        if not text:
            return
        if self._ai_side is not None or self.client.to_act != self.client.side:
            self.report_error(f"it is not {self.info.side_name(self.client.side)}'s decision now")
            return
        try:
            action = self.client.parse(text)
        except ActionError as err:
            self.report_error(str(err))
            return
        self.play(action, confirmed=True)

    def _close_prompt(self) -> None:
        prompt = self.query_one("#prompt", Input)
        prompt.remove_class("visible")
        prompt.value = ""
        self.map.focus()

    def on_key(self, event: Any) -> None:
        """Escape in the prompt closes it."""
        prompt = self.query_one("#prompt", Input)
        if event.key == "escape" and prompt.has_focus:
            event.stop()
            self._close_prompt()

    def action_cancel(self) -> None:
        """Deselect the unit and hide overlays."""
        self.los_on = False
        self.select_unit(None)

    def action_save(self) -> None:
        """Save now."""
        self.planspiel.save_game(self.session)

    def action_toggle_panel(self) -> None:
        """Switch between the unit and hex panels on narrow terminals."""
        if self.has_class("show-unit"):
            self.remove_class("show-unit")
            self.add_class("show-hex")
        else:
            self.remove_class("show-hex")
            self.add_class("show-unit")

    def action_leave(self) -> None:
        """Back to the title screen (after saving)."""
        self.session.autosave()
        self.planspiel.back_to_title()


def _is_step(info: ActionInfo) -> bool:
    """A move of the selected unit shown on the map (its next hex marked with the cost), or an assault."""
    return info.has(Role.MOVE) and not info.secondary


def _is_fire(info: ActionInfo) -> bool:
    return info.is_direct_fire


def _is_assault(info: ActionInfo) -> bool:
    return info.is_assault


def _is_barrage(info: ActionInfo) -> bool:
    return info.is_barrage


def _is_stop(info: ActionInfo) -> bool:
    return info.has(Role.STOP)
