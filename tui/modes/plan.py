"""Provides the plan mode: secret written orders, one per unit, then a commit.

Order entry goes in stages, each one offered from the engine's legal actions only: Enter on a unit of the side on
screen opens the list of the orders its card allows that are legal now (keys 1–9; named by the presentation's
:meth:`~engine.presentation.Presentation.verb_name`); then each argument of the verb's form
(:attr:`engine.presentation.GameInfo.forms`): targets are picked on the map (the legal hexes are marked ``◎``,
Enter picks), words and numbers from a short list (worded by the presentation), an optional trailing word from
the presentation's options; a movement order's path is plotted hex by hex (Enter adds the hex under the cursor,
Backspace takes the last one back, Enter again on the last hex or ``y`` gives the order). Escape cancels the
stage. The engine checks the plotted path as it grows (its rule-cited sentence is shown) and once more when it
is given; the presentation answers what the path costs against the order's movement range, shown while plotting
and in the orders-given summary; only the next hexes it would take are marked ``·``, and a hex that would break
the path's rules is not added: the engine's sentence says why.

Keys it adds: ``y`` give the order, ``x`` take an order back (a :attr:`~engine.contract.Role.CANCEL` action),
``z`` commit (the :attr:`~engine.contract.Role.END` action, after the summary), ``g`` the orders given, ``P``
the side's switches (:attr:`engine.Waiting.switches`), Escape cancel, Backspace back one hex. (``r``, the last
round again, is the table's: it is offered wherever the ruleset reports its resolutions.)
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text

from engine import Action, Hex, Role, distance
from engine.contract import PLAN
from engine.errors import ActionError, PlanspielError
from engine.presentation import PathPreview

from .. import entry as entries
from ..client import LocalClient
from ..entry import Entry
from ..overlay import Drawn
from .base import Key, MapMode, PaletteCommand

__all__ = ["PlanMode"]

_NOT_WHILE_WRITING = frozenset(
    {"direct_fire", "assault_list", "orders", "next_unit", "command", "hint", "play_hint", "last_report"}
)
"""Table keys that do nothing for the order being written (another unit, another decision): hidden from the
footer and the help until it is given or cancelled, so that an 80-column footer shows the entry's own keys."""


class PlanMode(MapMode):
    """Write a secret order per unit (targets on the map, paths plotted hex by hex), then commit (Art of Tactic)."""

    name = PLAN
    table_name = "tactic"
    keys: ClassVar[tuple[Key, ...]] = (
        Key("y", "give", "Give order", "tactic.confirm",
            "give the order along the plotted path (Enter on the last hex does the same)"),
        Key("x", "take_back", "Take back", "game.stop",
            "take back the selected unit's order this round (cancel, 2.3)"),
        Key("z", "commit_orders", "Commit", "game.end",
            "commit: your orders are written; the other side plans, then all are revealed (2.3, 2.4)"),
        Key("g", "summary", "Orders given", "tactic.summary",
            "the orders you have given this round (never the enemy's)"),
        Key("P", "switches", "Prompts", "tactic.prompts",
            "planning: decide during execution yourself (prompts on) or let the preset policies decide (prompts off, "
            "the default); free and secret (15.2)", key_display="P"),
        Key("escape", "cancel_entry", "Cancel", "game.cancel",
            "cancel the order being written (each stage), or deselect", False),
        Key("backspace", "back", "Back one hex", "tactic.back",
            "take the last hex of the plotted path back (outside a path: cancel)", False),
    )  # fmt: skip
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
    | P | Planning: decide during execution yourself, or let the preset policies decide (prompts on/off, 15.2). |

    While an order is being written the keys for other units and decisions (f, c, x, z, o, n, k, h, H, and the
    table's r) are off until it is given (y) or cancelled (Escape).
    """
    key_words: ClassVar[dict[str, str]] = {
        "game.orders": "every legal decision now as a list: orders of every unit, take back, commit",
    }

    # --- The table ------------------------------------------------------------------------------------

    def refreshed(self) -> None:
        t = self.table
        if t.entry is not None and t.client.to_act != t.client.side:
            t.entry = None

    def note(self) -> str:
        t = self.table
        e = t.entry
        return entries.note(e, t.info, t.presenter, t.now.view) if e is not None else ""

    def drawn(self) -> Drawn | None:
        t = self.table
        e = t.entry
        if e is None:
            return None
        now = t.now
        assault = bool(e.actions) and now.info_of(e.actions[0]).is_assault
        return entries.drawn(e, t.info, t.presenter, now.view, assault=assault)

    def held_back(self) -> frozenset[str]:
        return frozenset() if self.table.entry is None else _NOT_WHILE_WRITING

    def check_key(self, name: str) -> bool | None:
        t = self.table
        writing = t.entry is not None
        if writing and name in ("take_back", "commit_orders"):
            return False  # while an order is written: its keys (y, Backspace, Escape) show in the footer instead
        if name == "give":
            return True if t.entry is not None and t.entry.path else None
        if name == "switches":
            return True if self._may_switch() else None
        if name in ("take_back", "commit_orders"):
            if not t.is_mounted or t.client.to_act != t.client.side:
                return None
            if name == "commit_orders":
                return True if t.now.end_action() is not None else None
            return True if t.selected is not None and self._take_back(t.selected) is not None else None
        return True

    def palette(self) -> list[PaletteCommand]:
        return [
            ("Decide during execution", "prompts on/off: ask me, or let the preset policies decide (P)",
             self.key_switches),
        ]  # fmt: skip

    # --- Enter on a hex -------------------------------------------------------------------------------

    def on_hex(self, h: Hex) -> None:
        """A unit's order list, a target, or the next hex of the path."""
        t = self.table
        e = t.entry
        if e is None:
            self._unit_at(h)
            return
        if e.path is not None:
            self._path_enter(h)
            return
        values = e.targets.get(h)
        if not values:
            t.report_error(
                f"{t.info.board.label(h)} is not a target of {e.verb} {e.unit} now: the legal ones are marked ◎"
            )
            return
        if len(values) == 1:
            self._choose_arg(values[0])
            return
        items = [(v, Text(self._arg_label(v))) for v in values]
        t.choose(f"{e.verb} {e.unit}: which one?", items, self._arg_chosen)

    def _unit_at(self, h: Hex) -> None:
        t = self.table
        ids = t.selectable_at(h)
        if not ids:
            here = [u for u in t.now.view.units_at(h) if u.side == t.client.side]
            if here:
                t.notify(f"{here[0].id} has no order to give now", severity="warning")
            else:
                t.notify(f"no unit of yours at {t.info.board.label(h)}: Enter on one of yours")
            return
        if len(ids) == 1:
            t.select_unit(ids[0])
            self.open_unit_orders(ids[0])
        else:
            self.pick_unit(ids)

    def picked(self, unit_id: str) -> None:
        self.table.select_unit(unit_id)
        if self.table.now.legal:
            self.open_unit_orders(unit_id)

    # --- The order's stages ---------------------------------------------------------------------------

    def open_unit_orders(self, unit_id: str) -> None:
        """The orders the unit may be given now (from the legal actions), as a keyed list."""
        t = self.table
        verbs: dict[str, list[Action]] = {}
        for a in t.now.unit_actions(unit_id):
            verbs.setdefault(a.verb, []).append(a)
        if not verbs:
            t.notify(f"{unit_id} has no order to give now", severity="warning")
            return
        items: list[tuple[str, Text | str]] = []
        for verb, group in verbs.items():
            label = Text(t.presenter.verb_name(verb), style="bold")
            label.append(f"  {verb}", style="italic")
            line = t.info.verbs.get(verb, "")
            what = line.split(" — ", 1)[1] if " — " in line else line.split(": ", 1)[1] if ": " in line else ""
            if what:
                label.append(f"  {what}")
            if t.now.info_of(group[0]).has(Role.CANCEL):
                label.append(f"  (now: {t.presenter.unit_order(t.now.view, t.now.view.units[unit_id])})")
            elif len(group) > 1:
                label.append(f"  [{len(group)} choices]", style="dim")
            items.append((verb, label))
        u = t.now.view.units[unit_id]
        t.choose(
            f"Order for {unit_id} ({t.presenter.unit_name(u)})", items, lambda verb: self._verb_chosen(unit_id, verb)
        )

    def _verb_chosen(self, unit_id: str, verb: str | None) -> None:
        if verb is None:
            return
        t = self.table
        t.entry = Entry(unit_id, verb, tuple(t.now.unit_actions(unit_id, lambda i: i.verb == verb)))
        self._next_stage()

    def _next_stage(self) -> None:
        """Go on with the order being written: play it once it is complete, else ask for the next argument."""
        t = self.table
        e = t.entry
        if e is None:
            return
        i = len(e.args) + 1
        start = t.info.path_start(e.verb)
        if len(e.actions) == 1 and self._options_after(e.actions[0]):
            self._ask_policy(e.actions[0])
        elif len(e.actions) == 1 and (start is None or i > start):
            self._give(e.actions[0])
        elif start is not None and i >= start:
            bare = [a for a in e.actions if len(a.args) == i]
            if bare and len(e.actions) == len(bare):
                self._give(bare[0])  # 7: a bound unit's assault names no hexes
                return
            t.entry = e.but(path=(), targets={})
            t.focus_map()
        else:
            self._next_argument(e, i)

    def _next_argument(self, e: Entry, i: int) -> None:
        """The ``i``-th argument: hexes on the map (``◎``) where every value is a hex or a unit, else a list."""
        t = self.table
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
            t.entry = e.but(targets={h: tuple(vs) for h, vs in hexes.items()})
            t.focus_map()
            return
        items: list[tuple[str, Text | str]] = [(v, Text(self._arg_label(v))) for v in values]
        if complete:
            items.insert(0, ("", Text("no more: " + t.client.describe(complete[0]))))
        t.choose(self._entry_title(), items, self._arg_chosen)

    def _options_after(self, action: Action) -> list[tuple[str, str]]:
        """The values of an optional last word the action leaves out (e.g. a reaction policy), default first."""
        t = self.table
        for slots in t.info.forms.get(action.verb, ()):
            if len(slots) == len(action.args) + 1 and slots[-1].optional:
                return t.presenter.argument_options(action.verb, slots[-1].name)
        return []

    def _ask_policy(self, action: Action) -> None:
        """After the last written argument, an optional word from the engine's list (Art of Tactic 15.2 item 4: the
        reaction policy after the range); Enter keeps the default."""
        t = self.table
        items: list[tuple[str, Text | str]] = []
        for value, what in self._options_after(action):
            label = Text(value, style="bold")
            label.append(f"  {what}")
            items.append((value, label))

        def chosen(value: str | None) -> None:
            if value is None:
                self.key_cancel_entry()  # Escape: the order is not given, as at the range
            elif value == items[0][0]:
                self._give(action)  # the default is not written (notation of before)
            else:
                self._give(Action(action.verb, (*action.args, value)))

        title = f"{t.presenter.verb_name(action.verb)}: {action} … reaction policy (rule 15.2)"
        t.choose(title, items, chosen)

    def _arg_hex(self, value: str) -> Hex | None:
        t = self.table
        if value[:1].isdigit():
            try:
                return t.info.board.parse(value)
            except ValueError:
                return None
        u = t.now.view.units.get(value)
        return u.hex if u is not None else None

    def _arg_label(self, value: str) -> str:
        t = self.table
        u = t.now.view.units.get(value)
        if u is not None:
            where = t.info.board.label(u.hex) if u.hex is not None else "off the map"
            return f"{value}  {t.presenter.unit_name(u)} at {where}"
        e = t.entry
        if e is None:
            return value
        slots = next(iter(t.info.forms.get(e.verb, ())), ())
        i = len(e.args) + 1  # the argument chosen now (the unit is the first)
        name = slots[i].name if i < len(slots) else ""
        return t.presenter.argument_label(e.verb, name, value)

    def _arg_chosen(self, value: str | None) -> None:
        if value is None:
            self.key_cancel_entry()
            return
        e = self.table.entry
        if e is None:
            return
        if value == "":
            complete = [a for a in e.actions if len(a.args) == len(e.args) + 1]
            if complete:
                self._give(complete[0])
            return
        self._choose_arg(value)

    def _choose_arg(self, value: str) -> None:
        t = self.table
        e = t.entry
        assert e is not None
        i = len(e.args) + 1
        actions = tuple(a for a in e.actions if len(a.args) > i and a.args[i] == value)
        t.entry = e.but(args=(*e.args, value), actions=actions, targets={})
        self._next_stage()

    def _entry_title(self) -> str:
        t = self.table
        e = t.entry
        if e is None:
            return ""
        return f"{t.presenter.verb_name(e.verb)}: {' '.join([e.verb, e.unit, *e.args])} …"

    # --- The path -------------------------------------------------------------------------------------

    def _path_enter(self, h: Hex) -> None:
        t = self.table
        e = t.entry
        assert e is not None and e.path is not None
        u = t.now.unit(e.unit)
        last = e.path[-1] if e.path else (u.hex if u is not None else None)
        board = t.info.board
        if e.path and h == e.path[-1]:
            self.key_give()
            return
        if last is None or distance(last, h) != 1:
            where = board.label(last) if last is not None else "?"
            t.report_error(f"{board.label(h)} is not next to {where}: plot the path one hex at a time (rule 4.1)")
            return
        cost = entries.preview(t.presenter, t.now.view, entries.path_action(e, board, (h,)))
        if cost is not None and cost.problem:
            # 4.1, 4.11: a path that breaks them breaks them however it goes on, so the hex is not added.
            t.report_error(f"{board.label(h)} not added to {e.unit}'s path: {cost.problem}")
            return
        path = (*e.path, h)
        t.entry = e.but(path=path, verdict=self._verdict(e, path))

    def _verdict(self, e: Entry, path: tuple[Hex, ...]) -> str:
        """The engine's word on the order with this path as plotted (nothing to say for an empty path)."""
        t = self.table
        if not path or not isinstance(t.client, LocalClient):
            return ""
        try:
            t.client.check(entries.path_action(e, t.info.board, path=path))
        except ActionError as err:
            return f"not legal as plotted: {err}"
        except (PlanspielError, ValueError) as err:
            return f"the engine could not check it: {err}"
        return "legal as plotted"

    def key_give(self) -> None:
        """Give the order along the plotted path (the engine decides; a refusal names the rule)."""
        t = self.table
        e = t.entry
        if e is None or e.path is None:
            return
        if not e.path:
            t.notify("Plot the path first: Enter on the next hex")
            return
        self._give(entries.path_action(e, t.info.board))

    def key_back(self) -> None:
        """Backspace: take the last hex of the path back; elsewhere cancel like Escape."""
        t = self.table
        e = t.entry
        if e is not None and e.path:
            path = e.path[:-1]
            t.entry = e.but(path=path, verdict=self._verdict(e, path))
            return
        self.key_cancel_entry()

    def _give(self, action: Action) -> None:
        """Give the order; on a refusal the path stays to be mended."""
        t = self.table
        before = t.decisions
        t.play(action)
        if t.decisions > before:
            t.entry = None
            t.refresh_view()
        elif t.entry is not None and t.entry.path is None:
            t.entry = None

    def key_cancel_entry(self) -> None:
        """Cancel the order being written, or deselect."""
        t = self.table
        if t.entry is not None:
            t.entry = None
            t.notify("order cancelled", timeout=2)
            return
        t.deselect()

    # --- Take back, commit, the summary, the switches -------------------------------------------------

    def _take_back(self, unit_id: str) -> Action | None:
        """The legal action that takes back the unit's order (written this planning), if any."""
        return next(iter(self.table.now.unit_actions(unit_id, lambda i: i.has(Role.CANCEL))), None)

    def key_take_back(self) -> None:
        """Take back the selected unit's order."""
        t = self.table
        take_back = self._take_back(t.selected) if t.can_decide() and t.selected else None
        if take_back is not None:
            t.play(take_back)

    def key_commit_orders(self) -> None:
        """Commit the side's orders, after a look at them."""
        t = self.table
        if not t.can_decide() or t.now.end_action() is None:
            return
        lines: list[Text | str] = list(self.summary_lines())
        lines.append(Text("Units without an order hold (2.3). The other side plans next.", style="italic"))
        t.confirm(f"Commit the {t.info.side_name(t.client.side)} orders?", lines, self._commit_confirmed)

    def _commit_confirmed(self, ok: bool | None) -> None:
        end = self.table.now.end_action()
        if ok and end is not None:
            self.table.play(end)

    def summary_lines(self) -> list[Text | str]:
        """The side's orders given this round, each with its path's cost."""
        t = self.table
        out: list[Text | str] = []
        for uid, name, notation in t.presenter.given_orders(t.now.view, t.client.side):
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
        t = self.table
        try:
            action = t.client.parse(notation)
            if not t.client.action_info(action).path:
                return None
            return entries.preview(t.presenter, t.now.view, action)
        except (PlanspielError, ValueError):
            return None

    def key_summary(self) -> None:
        """The orders this side has given this round."""
        t = self.table
        t.show_lines(f"{t.info.side_name(t.client.side)} orders, round {t.now.view.turn}", self.summary_lines())

    def _may_switch(self) -> bool:
        t = self.table
        w = t.now.waiting
        return (
            t.is_mounted
            and t.entry is None
            and t.ai_side is None
            and w.mode == PLAN
            and bool(w.switches)
            and t.client.to_act == t.client.side
            and t.session.is_human(t.client.side)
        )

    def key_switches(self) -> None:
        """Switch between deciding during execution (prompts on) and the preset policies (off), 15.2."""
        t = self.table
        if not t.can_decide() or not self._may_switch():
            return
        switch = t.now.waiting.switches[0]
        on = switch.on
        t.play(switch.toggle)
        t.notify(
            "you decide during execution (15.2)" if not on else "the preset policies decide during execution (15.2)",
            timeout=3,
        )
