"""Provides the game screen for rulesets with secret written orders (Art of Tactic): order entry per unit,
the orders-given summary, and the reveal and execution shown step by step.

Order entry (2.3) goes in stages, each one offered from the engine's legal actions only: Enter on a unit of the
side on screen opens the list of the orders its card allows that are legal now (keys 1–9); then the order's
targets are picked on the map (the legal hexes are marked ``◎``, Enter picks) or from a short list (a range, a
kind of mine); a movement order's path is plotted hex by hex (Enter adds the hex under the cursor, Backspace
takes the last one back, Enter again on the last hex or ``y`` gives the order). Escape cancels the stage. The
engine checks the plotted path as it grows (its rule-cited sentence is shown) and once more when it is given;
it also answers what the path costs against the order's movement range (4.11), shown while plotting and in the
orders-given summary; only the next hexes it would take are marked ``·``, and a hex that would break 4.1 or
4.11 (over the range, terrain, a capped step) is not added: the engine's sentence says why.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from engine import Action, Hex, Role, distance
from engine.contract import PLAN
from engine.errors import ActionError, PlanspielError
from engine.presentation import PathPreview, Report

from ..client import LocalClient
from ..widgets.hexmap import Overlay
from .dialogs import ChoiceDialog, ConfirmDialog
from .game import GameScreen

if TYPE_CHECKING:
    from ..session import Session

__all__ = ["ExecutionScreen", "OrdersSummaryScreen", "TacticScreen"]


@dataclass
class _Entry:
    """An order being written: its unit and verb, the arguments chosen so far and the candidates left."""

    unit: str
    verb: str
    actions: list[Action]
    """The unit's legal actions of this verb that agree with the arguments chosen so far."""
    args: list[str] = field(default_factory=list)
    """Arguments chosen after the unit."""
    path: list[Hex] | None = None
    """The plotted path (None: not in the path stage)."""
    targets: dict[Hex, list[str]] = field(default_factory=dict)
    """In the target stage: hex → the argument values there."""
    verdict: str = ""
    """The engine's word on the path as plotted."""


_NOT_WHILE_WRITING = frozenset(
    {"fire", "assault", "stop", "end", "orders", "next_unit", "command", "hint", "play_hint", "replay_round"}
)
"""Keys that do nothing for the order being written (another unit, another decision, the commit): hidden from
the footer and the help until it is given or cancelled, so that an 80-column footer shows the entry's own keys."""


class TacticScreen(GameScreen):
    """The table for secret written orders: order entry per unit, the summary, the reveal and the steps."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "confirm_path", "Give order", id="tactic.confirm"),
        Binding("x", "stop", "Take back", id="game.stop"),
        Binding("z", "end", "Commit", id="game.end"),
        Binding("g", "summary", "Orders given", id="tactic.summary"),
        Binding("r", "replay_round", "Last round", id="tactic.round"),
        Binding("P", "prompts", "Prompts", key_display="P", id="tactic.prompts"),
        Binding("escape", "cancel", "Cancel", show=False, id="game.cancel"),
        Binding("backspace", "back", "Back one hex", show=False, id="tactic.back"),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | enter, space | On a unit of yours: its orders (1–9 picks); then the target on the map, or the path hex by hex. |
    | y | Give the order along the plotted path (Enter on the last hex does the same). |
    | backspace | Take the last hex of the plotted path back. |
    | escape | Cancel the order being written (and deselect). |
    | x | Take back the selected unit's order (cancel). |
    | z | Commit: your orders are written; the other side plans, then all are revealed. |
    | g | The orders you have given this round (never the enemy's). |
    | r | The last round again: the orders revealed, then the execution step by step (and a decision it waits for). |
    | P | Planning: decide during execution yourself, or let the preset policies decide (prompts on/off, 15.2). |

    While an order is being written the keys for other units and decisions (f, c, x, z, o, n, k, h, H, r) are
    off until it is given (y) or cancelled (Escape).
    """

    KEY_HELP: ClassVar[dict[str, str]] = {
        **GameScreen.KEY_HELP,
        "game.stop": "take back the selected unit's order this round (cancel, 2.3)",
        "game.end": "commit: your orders are written; the other side plans, then all are revealed (2.3, 2.4)",
        "game.cancel": "cancel the order being written (each stage), or deselect",
        "tactic.confirm": "give the order along the plotted path (Enter on the last hex does the same)",
        "tactic.back": "take the last hex of the plotted path back (outside a path: cancel)",
        "tactic.summary": "the orders you have given this round (never the enemy's)",
        "tactic.round": "the last round again: the orders revealed, then the execution step by step (and the "
        "decision it waits for, 15.2)",
        "tactic.prompts": "planning: decide during execution yourself (prompts on) or let the preset policies decide "
        "(prompts off, the default); free and secret (15.2)",
        "game.orders": "every legal decision now as a list: orders of every unit, take back, commit",
    }

    def __init__(self, session: Session, *, side: str | None = None) -> None:
        super().__init__(session, side=side)
        self.entry: _Entry | None = None
        self._rounds_seen: dict[str, tuple[int, int, int]] = {}
        """Side → (round, lines, steps) of the last execution it was shown (a paused round is shown on from the
        step where it paused once more has happened)."""
        self._deferred: tuple[int, int] | None = None
        """(round, answers) of a decision the players closed without answering (r shows it again)."""

    # --- Reading the view -------------------------------------------------------------------------------

    def refresh_view(self) -> None:
        if self.entry is not None and self.client.to_act != self.client.side:
            self.entry = None
        super().refresh_view()

    def _update_status(self, note: str = "") -> None:
        super()._update_status(note or (self._entry_note() if self.entry is not None else ""))

    def _update_overlay(self) -> None:
        e = self.entry
        if e is None:
            super()._update_overlay()
            self._show_given_path()
            return
        overlay: dict[Hex, Overlay] = {}
        u = self._unit(e.unit)
        board = self.info.board
        if e.path is not None:
            start = u.hex if u is not None else None
            last = e.path[-1] if e.path else start
            if last is not None:
                labels = [board.label(h) for h in e.path]
                for n in last.neighbours():
                    if n in board.cells and n not in e.path and n != start:
                        cost = self._path_cost(Action(e.verb, (e.unit, *e.args, *labels, board.label(n))))
                        if cost is None or not cost.problem:  # the engine would take the hex (e.g. AoT 4.1, 4.11)
                            overlay[n] = Overlay("reach", "·")
                for h in self._next_hexes(e):
                    overlay[h] = Overlay("step", "»")
            for i, h in enumerate(e.path, start=1):
                last_is_target = self._is_assault(e) and i == len(e.path)
                overlay[h] = Overlay("target" if last_is_target else "step", f"{i}")
        else:
            for h in e.targets:
                overlay[h] = Overlay("target", "◎")
        if u is not None and u.hex is not None:
            overlay[u.hex] = Overlay("select")
        self._los_lines = self._entry_help()
        self.map.set_overlay(overlay)

    def _show_given_path(self) -> None:
        """The selected unit's written path (its own side's sheet only), numbered hex by hex."""
        u = self._unit(self.selected)
        if u is None or u.side != self.client.side:
            return
        notation = next((n for uid, _, n in self.presenter.given_orders(self._view, u.side) if uid == u.id), "")
        if not notation:
            return
        try:
            path = self.client.action_info(self.client.parse(notation)).path
        except (PlanspielError, ValueError):
            return
        if not path:
            return
        overlay = dict(self.map.overlay)
        for i, h in enumerate(path, start=1):
            overlay[h] = Overlay("step", f"{i}")
        self.map.set_overlay(overlay)

    def _is_assault(self, e: _Entry) -> bool:
        return bool(e.actions) and self.info_of(e.actions[0]).is_assault

    def _next_hexes(self, e: _Entry) -> list[Hex]:
        """Hexes that continue the plotted path along a path the engine lists for this order."""
        assert e.path is not None
        start = self.info.path_start(e.verb) or 0
        labels = [self.info.board.label(h) for h in e.path]
        out = []
        for a in e.actions:
            path = list(a.args[start:])
            if len(path) > len(labels) and path[: len(labels)] == labels:
                try:
                    out.append(self.info.board.parse(path[len(labels)]))
                except ValueError:
                    continue
        return out

    # --- Order entry ------------------------------------------------------------------------------------

    def _planning(self) -> bool:
        return self._waiting.mode == PLAN and self._on_map()

    def act_on_hex(self, h: Hex) -> None:
        """Enter on a hex: a unit's order list, a target, or the next hex of the path."""
        if not self._can_decide():
            return
        if not self._planning():
            super().act_on_hex(h)
            return
        e = self.entry
        if e is None:
            ids = self._selectable_at(h)
            if not ids:
                here = [u for u in self._view.units_at(h) if u.side == self.client.side]
                if here:
                    self.notify(f"{here[0].id} has no order to give now", severity="warning")
                else:
                    self.notify(f"no unit of yours at {self.info.board.label(h)}: Enter on one of yours")
                return
            if len(ids) == 1:
                self.select_unit(ids[0])
                self.open_unit_orders(ids[0])
            else:
                self._pick_unit(ids)
            return
        if e.path is not None:
            self._path_enter(h)
            return
        values = e.targets.get(h)
        if not values:
            self.report_error(
                f"{self.info.board.label(h)} is not a target of {e.verb} {e.unit} now: the legal ones are marked ◎"
            )
            return
        if len(values) == 1:
            self._choose_arg(values[0])
            return
        items = [(v, Text(self._arg_label(v))) for v in values]
        self._busy = True
        self.app.push_screen(ChoiceDialog(f"{e.verb} {e.unit}: which one?", items), self._arg_chosen)

    def _picked_unit(self, uid: str | None) -> None:
        self._busy = False
        if uid is not None:
            self.select_unit(uid)
            if self._planning():
                self.open_unit_orders(uid)

    def open_unit_orders(self, unit_id: str) -> None:
        """The orders the unit may be given now (from the legal actions), as a keyed list."""
        acts = self._unit_actions(unit_id)
        verbs: dict[str, list[Action]] = {}
        for a in acts:
            verbs.setdefault(a.verb, []).append(a)
        if not verbs:
            self.notify(f"{unit_id} has no order to give now", severity="warning")
            return
        items: list[tuple[str, Text | str]] = []
        for verb, group in verbs.items():
            label = Text(self.presenter.verb_name(verb), style="bold")
            label.append(f"  {verb}", style="italic")
            line = self.info.verbs.get(verb, "")
            what = line.split(" — ", 1)[1] if " — " in line else line.split(": ", 1)[1] if ": " in line else ""
            if what:
                label.append(f"  {what}")
            if self.info_of(group[0]).has(Role.CANCEL):
                label.append(f"  (now: {self.presenter.unit_order(self._view, self._view.units[unit_id])})")
            elif len(group) > 1:
                label.append(f"  [{len(group)} choices]", style="dim")
            items.append((verb, label))
        u = self._view.units[unit_id]
        self._busy = True
        self.app.push_screen(
            ChoiceDialog(f"Order for {unit_id} ({self.presenter.unit_name(u)})", items),
            lambda verb: self._verb_chosen(unit_id, verb),
        )

    def _verb_chosen(self, unit_id: str, verb: str | None) -> None:
        self._busy = False
        if verb is None:
            return
        self.entry = _Entry(unit_id, verb, self._unit_actions(unit_id, lambda i: i.verb == verb))
        self._next_stage()

    def _next_stage(self) -> None:
        """Go on with the order being written: play it once it is complete, else ask for the next argument."""
        e = self.entry
        if e is None:
            return
        i = len(e.args) + 1
        start = self.info.path_start(e.verb)
        if len(e.actions) == 1 and self._options_after(e.actions[0]):
            self._ask_policy(e.actions[0])
            return
        if len(e.actions) == 1 and (start is None or i > start):
            self._give(e.actions[0])
            return
        if start is not None and i >= start:
            bare = [a for a in e.actions if len(a.args) == i]
            if bare and len(e.actions) == len(bare):
                self._give(bare[0])  # 7: a bound unit's assault names no hexes
                return
            e.path = []
            e.targets = {}
            self.map.focus()
            self._redraw_entry()
            return
        longer = [a for a in e.actions if len(a.args) > i]
        complete = [a for a in e.actions if len(a.args) == i]
        values = list(dict.fromkeys(a.args[i] for a in longer))
        if not values:
            if complete:
                self._give(complete[0])
            return
        hexes: dict[Hex, list[str]] = {}
        for v in values:
            h = self._arg_hex(v)
            if h is None:
                hexes = {}
                break
            hexes.setdefault(h, []).append(v)
        if hexes:
            e.targets = hexes
            self.map.focus()
            self._redraw_entry()
            return
        items: list[tuple[str, Text | str]] = [(v, Text(self._arg_label(v))) for v in values]
        if complete:
            items.insert(0, ("", Text("no more: " + self.client.describe(complete[0]))))
        self._busy = True
        self.app.push_screen(ChoiceDialog(self._entry_title(), items), self._arg_chosen)

    def _options_after(self, action: Action) -> list[tuple[str, str]]:
        """The values of an optional last word the action leaves out (e.g. a reaction policy), default first."""
        for slots in self.info.forms.get(action.verb, ()):
            if len(slots) == len(action.args) + 1 and slots[-1].optional:
                return self.presenter.argument_options(action.verb, slots[-1].name)
        return []

    def _ask_policy(self, action: Action) -> None:
        """After the last written argument, an optional word from the engine's list (Art of Tactic 15.2 item 4: the
        reaction policy after the range); Enter keeps the default."""
        items: list[tuple[str, Text | str]] = []
        for value, what in self._options_after(action):
            label = Text(value, style="bold")
            label.append(f"  {what}")
            items.append((value, label))

        def chosen(value: str | None) -> None:
            self._busy = False
            if value is None:
                self.action_cancel()  # Escape: the order is not given, as at the range
            elif value == items[0][0]:
                self._give(action)  # the default is not written (notation of before)
            else:
                self._give(Action(action.verb, (*action.args, value)))

        self._busy = True
        title = f"{self.presenter.verb_name(action.verb)}: {action} … reaction policy (rule 15.2)"
        self.app.push_screen(ChoiceDialog(title, items), chosen)

    def _arg_hex(self, value: str) -> Hex | None:
        if value[:1].isdigit():
            try:
                return self.info.board.parse(value)
            except ValueError:
                return None
        u = self._view.units.get(value)
        return u.hex if u is not None else None

    def _arg_label(self, value: str) -> str:
        u = self._view.units.get(value)
        if u is not None:
            where = self.info.board.label(u.hex) if u.hex is not None else "off the map"
            return f"{value}  {self.presenter.unit_name(u)} at {where}"
        e = self.entry
        if e is None:
            return value
        slots = next(iter(self.info.forms.get(e.verb, ())), ())
        i = len(e.args) + 1  # the argument chosen now (the unit is the first)
        name = slots[i].name if i < len(slots) else ""
        return self.presenter.argument_label(e.verb, name, value)

    def _arg_chosen(self, value: str | None) -> None:
        self._busy = False
        if value is None:
            self.action_cancel()
            return
        e = self.entry
        if e is None:
            return
        if value == "":
            complete = [a for a in e.actions if len(a.args) == len(e.args) + 1]
            if complete:
                self._give(complete[0])
            return
        self._choose_arg(value)

    def _choose_arg(self, value: str) -> None:
        e = self.entry
        assert e is not None
        i = len(e.args) + 1
        e.args.append(value)
        e.actions = [a for a in e.actions if len(a.args) > i and a.args[i] == value]
        e.targets = {}
        self._next_stage()

    def _entry_title(self) -> str:
        e = self.entry
        if e is None:
            return ""
        return f"{self.presenter.verb_name(e.verb)}: {' '.join([e.verb, e.unit, *e.args])} …"

    def _entry_note(self) -> str:
        e = self.entry
        if e is None:
            return ""
        head = f"{self.presenter.verb_name(e.verb)} for {e.unit}"
        if e.path is None:
            return f"{head}: pick the {self._arg_name(e)} on the map (◎), Enter picks, Escape cancels"
        plotted = " ".join(self.info.board.label(h) for h in e.path) or "none yet"
        verdict = f" · {e.verdict}" if e.verdict else ""
        return f"{head}: {self._cost_note(e, short=True)} · path {plotted}{verdict}"

    def _arg_name(self, e: _Entry) -> str:
        """The next argument's name in the verb's notation (``FIRE-HEX`` → ``fire hex``), else ``target``."""
        pattern = self.info.verbs.get(e.verb, "").split(":", 1)[0].split()
        i = len(e.args) + 2  # the verb, the unit, then the arguments chosen so far
        name = pattern[i] if i < len(pattern) else "TARGET"
        return name.strip("[].").lower().replace("-", " ") or "target"

    def _cost_note(self, e: _Entry, *, short: bool = False) -> str:
        """``2 hexes, cost 3 of movement range 4, 1 left``: the engine's cost of the plotted path (4.11)."""
        assert e.path is not None
        labels = [self.info.board.label(h) for h in e.path]
        cost = self._path_cost(Action(e.verb, (e.unit, *e.args, *labels)))
        if cost is None:
            return f"{len(e.path)} hex" + ("" if len(e.path) == 1 else "es")
        return cost.short if short else cost.words

    def _path_cost(self, action: Action) -> PathPreview | None:
        """The engine's cost of a movement order's path from this side's view (None: no path to cost)."""
        return self.presenter.path_preview(self._view, action)

    def _entry_help(self) -> list[str]:
        """Lines for the hex panel while an order is written: the engine's verdict in full, then the keys."""
        e = self.entry
        if e is None:
            return []
        if e.path is None:
            return [f"{e.verb} {e.unit}: Enter on a marked hex (◎) picks it, Escape cancels"]
        lines = [f"path: {self._cost_note(e)} (4.11)"]
        if e.verdict:
            lines.append(f"engine: {e.verdict}")
        lines.append("· marks a hex the movement range still allows (» one on a listed path)")
        lines.append("Enter adds the hex under the cursor, Backspace takes the last back,")
        lines.append("y or Enter on the last hex gives the order, Escape cancels")
        return lines

    def _redraw_entry(self) -> None:
        self._update_overlay()
        self._update_panels()
        self._update_status()
        self._refresh_footer()

    def _path_action(self) -> Action | None:
        e = self.entry
        if e is None or e.path is None or not e.path:
            return None
        labels = [self.info.board.label(h) for h in e.path]
        return Action(e.verb, (e.unit, *e.args, *labels))

    def _path_enter(self, h: Hex) -> None:
        e = self.entry
        assert e is not None and e.path is not None
        u = self._unit(e.unit)
        last = e.path[-1] if e.path else (u.hex if u is not None else None)
        board = self.info.board
        if e.path and h == e.path[-1]:
            self.action_confirm_path()
            return
        if last is None or distance(last, h) != 1:
            where = board.label(last) if last is not None else "?"
            self.report_error(f"{board.label(h)} is not next to {where}: plot the path one hex at a time (rule 4.1)")
            return
        labels = [board.label(x) for x in (*e.path, h)]
        cost = self._path_cost(Action(e.verb, (e.unit, *e.args, *labels)))
        if cost is not None and cost.problem:
            # 4.1, 4.11: a path that breaks them breaks them however it goes on, so the hex is not added.
            self.report_error(f"{board.label(h)} not added to {e.unit}'s path: {cost.problem}")
            return
        e.path.append(h)
        self._check_path()
        self._redraw_entry()

    def _check_path(self) -> None:
        e = self.entry
        action = self._path_action()
        if e is None or action is None:
            return
        if not isinstance(self.client, LocalClient):
            e.verdict = ""
            return
        try:
            self.client.check(action)
        except ActionError as err:
            e.verdict = f"not legal as plotted: {err}"
        except (PlanspielError, ValueError) as err:
            e.verdict = f"the engine could not check it: {err}"
        else:
            e.verdict = "legal as plotted"

    def action_confirm_path(self) -> None:
        """Give the order along the plotted path (the engine decides; a refusal names the rule)."""
        action = self._path_action()
        if action is None:
            if self.entry is not None and self.entry.path is not None:
                self.notify("Plot the path first: Enter on the next hex")
            return
        self._give(action)

    def action_back(self) -> None:
        """Backspace: take the last hex of the path back; elsewhere cancel like Escape."""
        e = self.entry
        if e is not None and e.path:
            e.path.pop()
            self._check_path()
            if not e.path:
                e.verdict = ""
            self._redraw_entry()
            return
        self.action_cancel()

    def _give(self, action: Action) -> None:
        """Give the order; on a refusal the path stays to be mended."""
        before = self.decisions
        self.play(action)
        if self.decisions > before:
            self.entry = None
            self.refresh_view()
        elif self.entry is not None and self.entry.path is None:
            self.entry = None
            self._redraw_entry()

    def action_cancel(self) -> None:
        if self.entry is not None:
            self.entry = None
            self.notify("order cancelled", timeout=2)
            self._redraw_entry()
            self._update_status()
            return
        super().action_cancel()

    # --- Keys -------------------------------------------------------------------------------------------

    def _refresh_footer(self) -> None:
        super()._refresh_footer()
        state = (self.check_action("confirm_path", ()), self.selected, self.entry is None)
        if state != getattr(self, "_entry_footer", None):
            self._entry_footer = state
            self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "barrage":
            return False  # no barrages here: artillery fires by its written order
        if self.entry is not None and action in _NOT_WHILE_WRITING:
            return False  # while an order is written: its keys (y, Backspace, Escape) show in the footer instead
        if action == "confirm_path":
            return True if self.entry is not None and self.entry.path else None
        if action == "prompts":
            return True if self._may_switch_prompts() else None
        if action == "stop":
            u = self.selected
            if not self.is_mounted or self.client.to_act != self.client.side or u is None:
                return None
            return True if self._take_back(u) is not None else None
        if action == "end":
            if not self.is_mounted or self.client.to_act != self.client.side:
                return None
            return True if self._end_action() is not None else None
        return super().check_action(action, parameters)

    def _take_back(self, unit_id: str) -> Action | None:
        """The legal action that takes back the unit's order (written this planning), if any."""
        return next(iter(self._unit_actions(unit_id, lambda i: i.has(Role.CANCEL))), None)

    def _may_switch_prompts(self) -> bool:
        return (
            self.is_mounted
            and self.entry is None
            and self._ai_side is None
            and self._waiting.mode == PLAN
            and bool(self._waiting.switches)
            and self.client.to_act == self.client.side
            and self.session.is_human(self.client.side)
        )

    def action_prompts(self) -> None:
        """Switch between deciding during execution (prompts on) and the preset policies (off), 15.2."""
        if not self._can_decide() or not self._may_switch_prompts():
            return
        switch = self._waiting.switches[0]
        on = switch.on
        self.play(switch.toggle)
        self.notify(
            "you decide during execution (15.2)" if not on else "the preset policies decide during execution (15.2)",
            timeout=3,
        )

    def palette_commands(self) -> list[tuple[str, str, Any]]:
        """Commands this screen adds to the command palette."""
        return [
            ("Decide during execution", "prompts on/off: ask me, or let the preset policies decide (P)",
             self.action_prompts),
        ]  # fmt: skip

    def action_stop(self) -> None:
        """Take back the selected unit's order."""
        take_back = self._take_back(self.selected) if self._can_decide() and self.selected else None
        if take_back is not None:
            self.play(take_back)

    def action_end(self) -> None:
        """Commit the side's orders, after a look at them."""
        if not self._can_decide() or self._end_action() is None:
            return
        lines: list[Text | str] = list(self._summary_lines())
        lines.append(Text("Units without an order hold (2.3). The other side plans next.", style="italic"))
        self._busy = True
        self.app.push_screen(
            ConfirmDialog(f"Commit the {self.info.side_name(self.client.side)} orders?", lines),
            self._commit_confirmed,
        )

    def _commit_confirmed(self, ok: bool | None) -> None:
        self._busy = False
        end = self._end_action()
        if ok and end is not None:
            self.play(end)

    def _summary_lines(self) -> list[Text | str]:
        side = self.client.side
        out: list[Text | str] = []
        for uid, name, notation in self.presenter.given_orders(self._view, side):
            line = Text(f"{uid:<14}", style="bold")
            line.append(f" {name}: ")
            line.append(notation)
            cost = self._sheet_cost(notation)
            if cost is not None:
                line.append(f"  ({cost.words})", style="dim")
            out.append(line)
        if not out:
            out.append(Text("no orders given yet this round", style="dim"))
        return out

    def _sheet_cost(self, notation: str) -> PathPreview | None:
        """The cost of a given order's written path, or None (no path written)."""
        try:
            action = self.client.parse(notation)
            if not self.client.action_info(action).path:
                return None
            return self._path_cost(action)
        except (PlanspielError, ValueError):
            return None

    def action_summary(self) -> None:
        """The orders this side has given this round."""
        side = self.client.side
        title = f"{self.info.side_name(side)} orders, round {self._view.turn}"
        self.app.push_screen(OrdersSummaryScreen(title, self._summary_lines()))

    def action_replay_round(self) -> None:
        """The last executed round again, step by step."""
        report = self.presenter.report(self.client.events_since(0))
        if report is None:
            self.notify("No round has been carried out yet.")
            return
        decision = self._human_decision()
        if decision is not None:
            self._deferred = None
            self._busy = True
            start = len(report.steps)  # at the question, the steps so far above it
            self.app.push_screen(ExecutionScreen(report, decision, start=start), self._execution_closed)
            return
        self.app.push_screen(ExecutionScreen(report))

    # --- After an action: the reveal and the steps ------------------------------------------------------

    def advance(self) -> None:
        if self._busy or self._ai_side is not None or not self.is_attached:
            return
        if self._show_execution():
            return
        decision = self._human_decision()
        if decision is not None:
            # 15.2: the decision is public: asked on the shared screen, no hand-off, the table's side unchanged.
            if self._deferred != self._decision_key():
                # The round so far; a game restored without its log shows the question alone.
                report = self.presenter.report(self.client.events_since(max(0, self._event_floor())))
                report = report or Report(self._view.turn, ["(this round's log is not in the game)"], [], [])
                self._busy = True
                self.app.push_screen(ExecutionScreen(report, decision, start=len(report.steps)), self._execution_closed)
            return
        super().advance()

    def _decision(self) -> dict[str, Any] | None:
        """The decision execution waits for (15.2), as every view holds it, or None: side, question, rule and
        options (the option's notation, its words)."""
        q = self._waiting.question
        if q is None or self.client.outcome is not None:
            return None
        options = [[self.client.describe(a), label] for a, label in q.options]
        return {"side": q.side, "question": q.text, "rule": q.rule, "options": options}

    def _human_decision(self) -> dict[str, Any] | None:
        """The waiting decision if a human player makes it (an AI's goes through the AI)."""
        d = self._decision()
        return d if d is not None and self.session.is_human(str(d.get("side"))) else None

    def _decision_key(self) -> tuple[int, int]:
        q = self._waiting.question
        return (self._view.turn, q.serial if q is not None else 0)

    def _show_execution(self) -> bool:
        """Show the side on screen the round just carried out (once per side; a round that paused at a decision
        is shown on from the step where it paused); True if shown."""
        if not self.session.is_human(self.client.side):
            return False
        report = self.presenter.report(self.client.events_since(max(0, self._event_floor())))
        if report is None:
            return False
        size = sum(len(lines) for _, lines in report.steps) + len(report.steps) + len(report.after)
        seen = self._rounds_seen.get(self.client.side, (0, 0, 0))
        if report.round < seen[0] or (report.round == seen[0] and size <= seen[1]):
            return False
        start = seen[2] if report.round == seen[0] else 0  # on from the step where it paused
        self._rounds_seen[self.client.side] = (report.round, size, len(report.steps))
        decision = self._human_decision()
        self._busy = True
        self.app.push_screen(ExecutionScreen(report, decision, start=start), self._execution_closed)
        return True

    def _event_floor(self) -> int:
        """Where to look for the last round's events (the recent events are enough)."""
        return self.client.event_count - 2000

    def _execution_closed(self, choice: str | None = None) -> None:
        self._busy = False
        decision = self._human_decision()
        if decision is not None:
            if choice is None:
                self._deferred = self._decision_key()  # closed without answering: r asks again
                self.notify(f"{self.info.side_name(str(decision['side']))} decides: r shows the question (15.2)")
                self.refresh_view()
                return
            self._choose(str(decision["side"]), choice)
            return
        self.advance()

    def _choose(self, side: str, key: str) -> None:
        """Answer the decision for the deciding side (15.2: public, no hand-off; the table's side stays); ``key``
        is the chosen option's notation."""
        client = self.session.client(side)
        try:
            client.apply(client.parse(key))
        except ValueError as err:  # an ActionError names the rule; an engine fault leaves the game unchanged
            self.report_error(f"{key}: {err}")
            return
        self.decisions += 1
        self.after_change()

    def _handed_off(self, side: str) -> None:
        self._busy = False
        self.entry = None
        self.switch_side(side)
        self.advance()

    def handoff_needed(self) -> bool:
        """Secret planning: two humans always change seats behind the hand-off screen (2.3)."""
        app = self.planspiel
        return len(self.session.humans) >= 2 and app.settings.handoff != "never"


class OrdersSummaryScreen(ModalScreen[None]):
    """The orders a side has given this round (its own sheet only)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,g,backspace", "close", "Close", id="summary.close"),
        Binding("question_mark", "app.help", "Help", key_display="?", show=False, id="summary.help"),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | enter, escape, g, backspace | Close the summary. |
    | ? | The keys of this screen. |
    """
    KEY_HELP: ClassVar[dict[str, str]] = {
        "summary.close": "close the summary, back to the table",
        "summary.help": "the keys of this screen",
    }
    DEFAULT_CSS = """
    OrdersSummaryScreen {
        align: center middle;
    }
    OrdersSummaryScreen VerticalScroll {
        width: 90%;
        max-width: 110;
        height: auto;
        max-height: 90%;
        border: thick $primary;
        background: $surface;
        padding: 0 1;
    }
    """

    def __init__(self, title: str, lines: list[Text | str]) -> None:
        super().__init__()
        self.title_text = title
        self.lines = lines

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(Text(self.title_text, style="bold"))
            for line in self.lines:
                yield Static(line)
            yield Static(Text("enter, escape or g closes · ?: keys", style="dim"))

    def action_close(self) -> None:
        """Close."""
        self.dismiss(None)


class ExecutionScreen(ModalScreen[str | None]):
    """The reveal (both sides' orders), then the execution step by step with each step's events; when execution
    waits for a decision (15.2), after the last step so far the question, naming the deciding side, and its
    options: the screen returns the chosen option's key (None: closed without choosing)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space,n", "next", "Next step", id="exec.next"),
        Binding("up", "move(-1)", "Option up", show=False, priority=True, id="exec.up"),
        Binding("down", "move(1)", "Option down", show=False, priority=True, id="exec.down"),
        Binding("e", "to_end", "To the end", id="exec.end"),
        Binding("escape", "close", "Close", id="exec.close"),
        *(Binding(str(i), f"pick({i - 1})", f"Choose {i}", show=False, id=f"exec.{i}") for i in range(1, 10)),
        Binding("question_mark", "app.help", "Help", key_display="?", show=False, id="exec.help"),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | enter, space, n | The next step (after the last: back to the table); at a decision: the highlighted option. |
    | 1 … 9 | At a decision (15.2): choose the option with that number. |
    | up, down | At a decision: highlight the option above or below (every option, beyond 9 too); elsewhere: scroll. |
    | e | Run to the end of the round (or to the decision it waits for): every step at once. |
    | escape | Back to the table (a decision waits; r shows it again). |
    | ? | The keys of this screen. |
    """
    KEY_HELP: ClassVar[dict[str, str]] = {
        "exec.next": "the next step of the execution (after the last one: back to the table); "
        "at a decision: the highlighted option (at first 1, the preset policy, 15.2)",
        "exec.up": "at a decision: highlight the option above (elsewhere: scroll up)",
        "exec.down": "at a decision: highlight the option below, every option, beyond 9 too (elsewhere: scroll down)",
        "exec.end": "run to the end of the round, or to the decision execution waits for: every step at once",
        "exec.close": "back to the table (a decision waits: r shows it again)",
        "exec.help": "the keys of this screen",
        **{f"exec.{i}": f"at a decision: choose option {i} (15.2)" for i in range(1, 10)},
    }

    DEFAULT_CSS = """
    ExecutionScreen {
        align: center middle;
    }
    ExecutionScreen VerticalScroll {
        width: 90%;
        max-width: 120;
        height: 90%;
        border: thick $primary;
        background: $surface;
        padding: 0 1;
    }
    """

    def __init__(self, report: Report, decision: Mapping[str, Any] | None = None, start: int = 0) -> None:
        super().__init__()
        self.report = report
        self.decision = decision
        """The decision execution waits for (``side``, ``question``, ``rule``, ``options``: [key, label]), or None."""
        self.stage = min(max(0, start), len(report.steps))
        """0: the reveal; N: steps 1..N shown."""
        self.cursor = 0
        """The highlighted option of the decision (Enter takes it; at first the preset's)."""

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(id="exec-body")
            yield Static(id="exec-help")

    def on_mount(self) -> None:
        self._show_stage()

    @property
    def text(self) -> str:
        """The plain text shown (tests read it)."""
        return self._body().plain

    def _body(self) -> Text:
        r = self.report
        t = Text()
        if self.stage == 0:
            t.append(f"Round {r.round}: the orders revealed (2.4)\n\n", style="bold underline")
            for line in r.head or ["(no orders: every unit holds)"]:
                t.append(f"· {line}\n")
            if not r.steps and self.decision is not None:
                self._question(t, self.decision, self.cursor)
            return t
        total = len(r.steps)
        t.append(f"Round {r.round}: step {self.stage} of {total}\n\n", style="bold underline")  # its name: below
        for n, (heading, lines) in enumerate(r.steps[: self.stage], start=1):
            current = n == self.stage
            t.append(f"{heading}\n", style="bold reverse" if current else "bold")
            for line in lines or ["nothing happens"]:
                t.append(f"  · {line}\n", style="" if current or lines else "dim")
        if self.stage == total:
            for line in r.after:
                t.append(f"{line}\n", style="bold")
            if self.decision is not None:
                self._question(t, self.decision, self.cursor)
        return t

    @staticmethod
    def _question(t: Text, d: Mapping[str, Any], cursor: int = 0) -> None:
        """The decision on the shared screen (15.2: public now), naming the deciding side, and its options (the
        highlighted one marked)."""
        side = str(d.get("side", "?")).upper()
        t.append(f"\n{side} decides (rule {d.get('rule', '?')}, 15.2): {d.get('question', '')}\n", style="bold reverse")
        for i, (_key, label) in enumerate(d.get("options", []), start=1):
            here = i - 1 == cursor
            t.append(f"{'▶' if here else ' '} {i:>2}  {label}", style="reverse" if here else "")
            t.append("  (preset)\n" if i == 1 else "\n", style="italic")

    def _show_stage(self) -> None:
        self.query_one("#exec-body", Static).update(self._body())
        self.query_one(VerticalScroll).scroll_end(animate=False)
        last = self.stage >= len(self.report.steps)
        keys = "enter: back to the table" if last else "enter: next step · e: end of the round"
        if last and self.decision is not None:
            n = len(self.decision.get("options", []))
            keys = f"1–{min(n, 9)}: choose · ↑↓: highlight · enter: the highlighted option ({self.cursor + 1})"
        self.query_one("#exec-help", Static).update(Text(f"{keys} · escape: close · ?: keys", style="dim"))

    def action_next(self) -> None:
        """The next step, or close after the last (at a decision: take the preset, option 1)."""
        if self.stage >= len(self.report.steps):
            self.dismiss(self._key(self.cursor) if self.decision is not None else None)
            return
        self.stage += 1
        self._show_stage()

    def action_to_end(self) -> None:
        """Every step at once."""
        self.stage = len(self.report.steps)
        self._show_stage()

    def action_move(self, delta: int) -> None:
        """At the decision: highlight another option; elsewhere scroll the round's text."""
        n = len((self.decision or {}).get("options", []))
        if not n or self.stage < len(self.report.steps):
            scroll = self.query_one(VerticalScroll)
            (scroll.scroll_up if delta < 0 else scroll.scroll_down)(animate=False)
            return
        self.cursor = (self.cursor + delta) % n
        self._show_stage()
        if self.cursor > 5:  # keep the highlighted option on screen
            self.query_one(VerticalScroll).scroll_end(animate=False)

    def _key(self, index: int) -> str | None:
        options = list((self.decision or {}).get("options", []))
        return str(options[index][0]) if 0 <= index < len(options) else None

    def action_pick(self, index: int) -> None:
        """At the decision (after the last step so far): choose option ``index + 1``."""
        if self.decision is None:
            return
        if self.stage < len(self.report.steps):
            self.action_to_end()  # the question comes after the events before it
            return
        key = self._key(index)
        if key is None:
            self.notify(f"there is no option {index + 1}", severity="warning")
            return
        self.dismiss(key)

    def action_close(self) -> None:
        """Back to the table."""
        self.dismiss(None)
