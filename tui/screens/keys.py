"""Provides the game screen's keys: the table's own and those of the interaction modes the ruleset uses.

Every key is bound to one action, ``key(OWNER, NAME)``: ``table`` for the table's own keys (run here), or a
mode's name for the keys a mode adds (:attr:`tui.modes.Mode.keys`, run by the mode). A key is shown while its
owner is the table or a mode the ruleset uses, and the modes may hold the table's keys back for a while (an
order being written); it is dimmed while the game does not allow it now. The help screen's words, the footer's
order and the command palette's commands come from here too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from rich.text import Text
from textual.actions import parse as parse_action
from textual.binding import Binding, BindingType
from textual.suggester import SuggestFromList
from textual.widgets import Input

from engine import Action, Role, distance
from engine.errors import ActionError
from engine.notation import Arg

from ..legend import legend, ordered
from ..modes import MODES, Key, Mode, PaletteCommand
from ..settings import DEFAULT_REACTION_THRESHOLD
from ..standing import RETREATS, ROUTINES, Standing
from ..table import Pick, Table

if TYPE_CHECKING:
    from collections.abc import Mapping

    from ..host import Host
    from ..widgets.hexmap import HexMap
    from ..widgets.panels import EventLog
    from .thinking import Thinking

__all__ = ["TABLE", "TableKeys", "bindings"]

TABLE = "table"
"""The owner of the table's own keys (the modes' keys are owned by the mode's name)."""

_TABLE_KEYS: list[Binding] = [
    Binding("question_mark", "app.help", "Help", key_display="?", id="game.help"),
    Binding("f", "key('table', 'direct_fire')", "Fire", id="game.fire"),
    Binding("c", "key('table', 'assault_list')", "Assault", id="game.assault"),
    Binding("o", "key('table', 'orders')", "Choices", id="game.orders"),
    Binding("n", "key('table', 'next_unit')", "Next", id="game.next"),
    Binding("v", "key('table', 'los')", "LOS", id="game.los"),
    Binding("k", "key('table', 'command')", "Command", id="game.command"),
    Binding("h", "key('table', 'hint')", "Hint", id="game.hint"),
    Binding("H", "key('table', 'play_hint')", "Play hint", key_display="H", id="game.play_hint"),
    Binding("u", "key('table', 'undo')", "Undo", id="game.undo"),
    Binding("colon", "key('table', 'prompt')", "Notation", key_display=":", id="game.prompt"),
    Binding("S", "key('table', 'save')", "Save", key_display="S", id="game.save"),
    Binding("i", "key('table', 'toggle_panel')", "Unit/hex panel", show=False, id="game.panel"),
    Binding("Q", "key('table', 'leave')", "Title", key_display="Q", id="game.leave"),
    Binding("r", "key('table', 'last_report')", "Last round", id="tactic.round"),
    Binding("l", "key('table', 'legend')", "Legend", id="game.legend"),
    Binding("R", "key('table', 'standing')", "Reactions", key_display="R", show=False, id="game.reactions"),
    Binding("L", "key('table', 'tall_log')", "Log", key_display="L", show=False, id="game.log"),
    Binding("I", "key('table', 'log_ids')", "Ids", key_display="I", show=False, id="game.log_ids"),
    Binding("ctrl+r", "key('table', 'resign')", "Resign", key_display="^r", show=False, id="game.resign"),
]
"""The table's own keys, whatever the mode."""

_KEY_ORDER = (
    *(
        "question_mark",
        "f",
        "c",
        "b",
        "x",
        "z",
        "o",
        "n",
        "v",
        "k",
        "h",
        "H",
        "u",
        "colon",
        "S",
        "escape",
        "backspace",
        "i",
        "Q",
    ),
    *("y", "g", "r", "P", "l", "R", "L", "I", "ctrl+r"),
)
"""The order of the keys in the footer and the help; other keys follow, the table's first, then the modes' in the
registry's order."""

_ENGINE_KEYS = frozenset({"direct_fire", "assault_list", "orders", "next_unit", "undo", "hint", "play_hint"})
"""Table keys that act in the game: dimmed while the side on screen may not decide."""

KEY_HELP: dict[str, str] = {
    "game.fire": "fire with the selected unit: its targets with the exact odds, then confirm",
    "game.assault": "close combat (assault) with the selected unit",
    "game.orders": "every legal decision now, with the engine's explanation (chits, reactions...)",
    "game.next": "select the next unit that can act",
    "game.los": "line of sight and range from the selected unit to the cursor",
    "game.command": "command range of the selected unit's HQ (┆n┆: hexes from it), units out of command (OOC)",
    "game.hint": "ask the AI for a hint: the best action for your side now, explained and marked HINT on the map",
    "game.play_hint": "play the hinted action (any other action ignores the hint)",
    "game.undo": "undo your last action (until dice are rolled or hidden information is revealed)",
    "game.prompt": "type an action in notation (fire ger-1 fra-3)",
    "game.save": "save now (the game also autosaves after every action)",
    "game.panel": "switch between the unit and hex panels (narrow terminals)",
    "game.leave": "back to the title screen (the game is saved)",
    "game.reactions": "standing reaction orders: when your side's reaction windows ask you, react by themselves "
    "or pass (for the side, or the selected unit)",
    "game.log": "the event log: half the screen, or back to its few lines (small terminals)",
    "game.log_ids": "the log, the hand-off summary and the rounds name units as a player reads them, or show "
    "their ids for notation (and back); the unit panel always shows the id",
    "game.resign": "resign: your side gives up the game (a battle of a campaign counts as lost, its force carries "
    "over as it stands); asked first, never undone",
    "game.legend": "the legend: what every glyph on the map means now (counters, markers, terrain, overlays)",
    "tactic.round": "the last round again: the orders revealed, then the execution step by step (and the "
    "decision it waits for, 15.2)",
    **{key.id: key.help for cls in reversed(MODES.values()) for key in cls.keys},
}
"""Binding id → what the help screen says (the key of several modes: the first mode's words)."""

_PALETTE: tuple[tuple[str, str, str], ...] = (
    ("direct_fire", "Fire", "fire with the selected unit, odds first"),
    ("assault_list", "Close combat", "assault with the selected unit"),
    ("game.barrage", "Barrage", "artillery or Stuka on a hex"),
    ("game.stop", "Stop unit", "end the selected unit's move"),
    ("game.end", "End activation", "end the activation"),
    ("orders", "Choices", "every legal decision with explanations"),
    ("next_unit", "Next unit", "select the next unit that can act"),
    ("los", "Line of sight", "from the selected unit to the cursor"),
    ("command", "Command range", "the HQ's command range and units out of command (k)"),
    ("hint", "Hint", "ask the AI for your best action now (h); H plays it"),
    ("play_hint", "Play hint", "play the action the AI suggested (H)"),
    ("undo", "Undo", "take back your last action"),
    ("prompt", "Notation prompt", "type an action in notation"),
    ("legend", "Legend", "what every glyph on the map means now (l)"),
    ("standing", "Reaction orders", "when reaction windows ask you, react by themselves or pass (R)"),
    ("log_ids", "Unit ids or names", "the log names units, or shows their ids for notation (I)"),
    ("leave", "Back to title", "the game is saved"),
    ("resign", "Resign", "give up the game: the other side wins (asked first)"),
)
"""The table's commands in the palette: a table key by name, or a mode's key by binding id."""


def _mode_binding(mode: str, key: Key) -> Binding:
    return Binding(
        key.keys, f"key({mode!r}, {key.name!r})", key.label, show=key.show, key_display=key.key_display, id=key.id
    )


def bindings() -> list[BindingType]:
    """The table's keys and every mode's, one binding per key, in footer order."""
    mode_keys = [_mode_binding(name, key) for name, cls in MODES.items() for key in cls.keys]
    found = list(Binding.make_bindings([*_TABLE_KEYS, *mode_keys]))
    rank = {k: i for i, k in enumerate(_KEY_ORDER)}
    return sorted(found, key=lambda b: rank.get(b.key, len(rank)))  # stable: each key's modes in registry order


_KEYED: tuple[tuple[str, str, str], ...] = tuple(
    (b.key, str(p[0]), str(p[1]))
    for b in bindings()
    if isinstance(b, Binding) and b.action.startswith("key(")
    for p in [parse_action(b.action)[2]]
)
"""(key, owner, name) of every key of the table (the help key, the app's, left out)."""

_BOUND: tuple[tuple[str, str], ...] = tuple(dict.fromkeys((owner, name) for _, owner, name in _KEYED))
"""(owner, name) of every key of the table, once each."""


class _Screen(Table, Protocol):
    """The game screen as its keys use it."""

    los_on: bool
    command_on: bool
    hint: Action | None
    hinting: bool
    busy: bool
    modes: Mapping[str, Mode]
    key_modes: list[Mode]
    thinking: Thinking
    log_widget: EventLog

    @property
    def host(self) -> Host: ...

    @property
    def map(self) -> HexMap: ...

    def selectable(self) -> list[str]: ...

    def standing_of(self, side: str) -> Standing: ...

    def advance(self) -> None: ...

    def undone(self) -> None: ...

    def after_change(self) -> None: ...

    def query_one(self, selector: str, expect_type: Any = None) -> Any: ...

    def has_class(self, name: str) -> bool: ...

    def add_class(self, *names: str) -> Any: ...

    def remove_class(self, *names: str) -> Any: ...


class TableKeys:
    """The keys of one game screen: which are on, what they do, what the help and the palette say.

    Args:
        screen: the game screen.
    """

    _CHECKS: ClassVar[dict[str, Callable[[_Screen], bool | None]]] = {
        "direct_fire": lambda s: _attacks(s, lambda i: i.is_direct_fire),
        "assault_list": lambda s: _attacks(s, lambda i: i.is_assault),
        "orders": lambda s: True if s.now.legal else None,
        "next_unit": lambda s: True if s.selectable() else None,
        "undo": lambda s: True if s.client.can_undo else None,
        "hint": lambda s: True if s.now.legal and not s.hinting else None,
        "play_hint": lambda s: True if s.hint is not None and s.hint in s.now.legal else None,
        "last_report": lambda s: s.presenter.shows_reports,  # hidden (False) where the ruleset reports nothing
        "resign": lambda s: (
            (True if s.client.outcome is None and s.ai_side is None and not s.busy else None)
            if s.session.is_human(s.client.side)
            else False  # a spectator's screen (or an AI's side) has no side of its own to give up
        ),
    }
    """The table's keys that are on only when the game allows them now (the others always are)."""

    def __init__(self, screen: _Screen) -> None:
        self.screen = screen
        self._state: tuple[bool | None, ...] | None = None
        used = {name for name, mode in screen.modes.items() if mode in screen.key_modes}
        self._shown = tuple((owner, name) for owner, name in _BOUND if owner == TABLE or owner in used)
        """The keys that may show on this table (the table's, and those of the modes its ruleset uses)."""

    # --- Which keys are on ----------------------------------------------------------------------------

    def check(self, owner: str, name: str) -> bool | None:
        """True (on), None (shown dim, does nothing) or False (hidden)."""
        return self._check(owner, name, self._held(), self.screen.to_decide())

    def _held(self) -> frozenset[str]:
        held: frozenset[str] = frozenset()
        for m in self.screen.key_modes:
            held |= m.held_back()
        return held

    def _check(self, owner: str, name: str, held: frozenset[str], deciding: bool) -> bool | None:
        s = self.screen
        if owner != TABLE:
            mode = s.modes.get(owner)
            return mode.check_key(name) if mode is not None and mode in s.key_modes else False
        if name in held:
            return False
        if name in _ENGINE_KEYS and not deciding:
            return None
        check = self._CHECKS.get(name)
        return check(s) if check is not None else True

    # --- Why a key does nothing now -------------------------------------------------------------------

    def why_not(self, key: str) -> str | None:
        """One line saying why ``key`` does nothing now (it is dimmed), or None if it acts, is hidden or is not a
        key of the table."""
        s = self.screen
        held, deciding = self._held(), s.to_decide()
        states = [
            (owner, name, self._check(owner, name, held, deciding))
            for k, owner, name in _KEYED
            if k == key and (owner, name) in self._shown
        ]
        if any(state is True for _, _, state in states):
            return None
        dim = [(owner, name) for owner, name, state in states if state is None]
        if not dim:
            return None
        owner, name = dim[0]
        if owner != TABLE:
            return s.modes[owner].why_not(name)
        if name in _ENGINE_KEYS and not deciding:
            return self._not_yours()
        reason = self._REASONS.get(name)
        return reason(self) if reason is not None else "Not possible now"

    def _not_yours(self) -> str:
        """Why the keys that act do nothing: another side decides, the AI thinks, or the game is over."""
        s = self.screen
        if s.ai_side is not None:
            return f"Wait: the AI is thinking for {s.info.side_name(s.ai_side)}"
        view = s.client.view()
        return f"Not your decision now: {s.presenter.waiting_for(view)}"

    def _no_attack(self, pick: Pick, what: str) -> str:
        """Why fire (or close combat) is not possible: the engine's refusal, with its rule, of such an attack by
        the selected unit at the enemy under the cursor (or the nearest one); ``what`` names the attack."""
        s = self.screen
        unit = s.now.unit(s.selected)
        if unit is None or unit.hex is None:
            return f"No {what} for a unit of yours now; select one (enter or n) to see why"
        refusal = _attack_refusal(s, unit.id, unit.hex, pick)
        if not refusal:
            return f"No {what} for {unit.id} now: no target"
        return refusal if refusal.lower().startswith("cannot") else f"No {what}: {refusal}"

    _REASONS: ClassVar[dict[str, Callable[[TableKeys], str]]] = {
        "direct_fire": lambda k: k._no_attack(lambda i: i.is_direct_fire, "direct fire"),
        "assault_list": lambda k: k._no_attack(lambda i: i.is_assault, "close combat"),
        "orders": lambda k: "Nothing to decide now",
        "next_unit": lambda k: "No unit of yours can act now",
        "undo": lambda k: (
            "Nothing to undo: dice were rolled or hidden information was revealed since your last "
            "action, or the last action was not yours"
        ),
        "hint": lambda k: "A hint is being worked out" if k.screen.hinting else "Nothing to decide now",
        "resign": lambda k: (
            "The game is over" if k.screen.client.outcome is not None else "Wait until the table is yours again"
        ),
        "play_hint": lambda k: (
            "No hint to play: press h for one first"
            if k.screen.hint is None
            else "The hinted action is no longer legal: press h again"
        ),
    }
    """Why a table key is dimmed, when the side on screen decides."""

    def changed(self) -> bool:
        """True if a key's state changed since the last call (the footer rebuilds itself: not cheap)."""
        held, deciding = self._held(), self.screen.to_decide()
        state = tuple(self._check(owner, name, held, deciding) for owner, name in self._shown)
        if state == self._state:
            return False
        self._state = state
        return True

    def run(self, owner: str, name: str) -> None:
        """Press a key."""
        if owner == TABLE:
            getattr(self, f"key_{name}")()
        else:
            self.screen.modes[owner].run_key(name)

    # --- The help and the palette ---------------------------------------------------------------------

    def help(self, binding: Binding) -> str:
        """What the help screen says about a key: the mode's words for its own keys and for the table's keys it
        words differently, else the table's."""
        _, action, parameters = parse_action(binding.action)
        cls = MODES.get(str(parameters[0])) if action == "key" and len(parameters) == 2 else None
        key = next((k for k in cls.keys if k.name == parameters[1]), None) if cls is not None else None
        if key is not None:
            return key.help
        for m in self.screen.key_modes:
            if binding.id in m.key_words:
                return m.key_words[binding.id]
        return KEY_HELP.get(binding.id or "", binding.description)

    def table_name(self) -> str:
        """What the help screen calls this table (``game``, or what a mode of the ruleset calls it)."""
        return next((m.table_name for m in self.screen.key_modes if m.table_name), "game")

    def palette(self) -> list[PaletteCommand]:
        """The commands of the table for the command palette (the modes' keys run in the ruleset's terms)."""
        s = self.screen
        commands: list[PaletteCommand] = [("Save game", "Save the game now", lambda: s.host.save_game(s.session))]
        for target, title, text in _PALETTE:
            run = getattr(self, f"key_{target}", None) or (lambda bid=target: self._run_id(bid))
            commands.append((title, text, run))
        for m in s.key_modes:
            commands += m.palette()
        return commands

    def _run_id(self, binding_id: str) -> None:
        """Run the key with this binding id of the first mode of the ruleset that has one."""
        for m in self.screen.key_modes:
            key = next((k for k in m.keys if k.id == binding_id), None)
            if key is not None:
                m.run_key(key.name)
                return

    # --- The table's keys -----------------------------------------------------------------------------

    def key_direct_fire(self) -> None:
        """Fire: the selected unit's targets (or every shot possible) with their odds."""
        self._attack(lambda i: i.is_direct_fire, "Fire at which target?")

    def key_assault_list(self) -> None:
        """Close combat: the selected unit's assaults."""
        self._attack(lambda i: i.is_assault, "Assault which hex?")

    def _attack(self, pick: Pick, title: str) -> None:
        s = self.screen
        if not s.can_decide():
            return
        pool = s.now.unit_actions(s.selected, pick) if s.selected else []
        pool = pool or s.now.actions(pick)
        if pool:
            s.decide(pool, title)

    def key_last_report(self) -> None:
        """The last resolution again, step by step (rulesets that report theirs)."""
        self.screen.show_last_report()

    def key_orders(self) -> None:
        """Every legal decision, with explanations."""
        self.screen.open_choices()

    def key_next_unit(self) -> None:
        """Select the next unit that can act."""
        s = self.screen
        ids = s.selectable()
        if ids:
            s.select_unit(ids[(ids.index(s.selected) + 1) % len(ids)] if s.selected in ids else ids[0])

    def key_los(self) -> None:
        """Show or hide the line of sight from the selected unit to the cursor."""
        s = self.screen
        s.los_on = not s.los_on
        if s.los_on and s.selected is None:
            s.notify("Select a unit first (enter or n): the line runs from it to the cursor.")

    def key_command(self) -> None:
        """Show or hide command ranges (of the selected unit's HQ) and units out of command."""
        s = self.screen
        s.command_on = not s.command_on
        if s.command_on and not any(o.kind == "command" for o in s.map.overlay.values()):
            s.notify("No command range here: select a unit of a formation with an HQ (enter or n).")

    def key_hint(self) -> None:
        """Ask the AI (the opponent's level, or normal) for this side's best action, from this side's view only."""
        self.screen.thinking.ask_hint()

    def key_play_hint(self) -> None:
        """Play the hinted action."""
        s = self.screen
        hint = s.hint
        if hint is None or not s.can_decide():
            return
        s.hint = None
        if hint not in s.now.legal:
            s.report_error("the hinted action is no longer legal")
            return
        s.play(hint, confirmed=True)

    def key_undo(self) -> None:
        """Take back your last action (refused once dice were rolled)."""
        s = self.screen
        if s.ai_side is not None or s.busy:
            return
        try:
            undone = s.client.undo()
        except ActionError as err:
            s.report_error(str(err))
            return
        s.log_widget.add("undo", f"undone: {s.client.describe(undone)}")
        s.undone()

    def key_prompt(self) -> None:
        """Open the notation prompt, with the legal actions as suggestions."""
        s = self.screen
        prompt = s.query_one("#prompt", Input)
        prompt.suggester = SuggestFromList([s.client.describe(a) for a in s.now.legal], case_sensitive=False)
        prompt.add_class("visible")
        prompt.value = ""
        prompt.focus()

    def key_save(self) -> None:
        """Save now."""
        self.screen.host.save_game(self.screen.session)

    def key_tall_log(self) -> None:
        """The event log over half the screen, or back (80×24 leaves it three lines)."""
        s = self.screen
        if s.has_class("tall-log"):
            s.remove_class("tall-log")
        else:
            s.add_class("tall-log")

    def key_log_ids(self) -> None:
        """The log, the hand-off summary and the rounds with the units' ids (for notation) or their names, and
        back."""
        s = self.screen
        s.session.log_ids = not s.session.log_ids
        s.log_widget.set_show_ids(s.session.log_ids)
        s.notify("The log shows unit ids (I: names)" if s.session.log_ids else "The log shows unit names (I: ids)")

    def key_toggle_panel(self) -> None:
        """Switch between the unit and hex panels on narrow terminals."""
        s = self.screen
        if s.has_class("show-unit"):
            s.remove_class("show-unit")
            s.add_class("show-hex")
        else:
            s.remove_class("show-hex")
            s.add_class("show-unit")

    def key_legend(self) -> None:
        """The legend: what each glyph in view means, by group."""
        s = self.screen
        lines: list[Text | str] = []
        group = ""
        for e in ordered(legend(s.now.view, s.presenter, s.info.board, s.map.overlay)):
            if e.group != group:
                group = e.group
                lines.append(Text(group.capitalize(), style="bold underline"))
            line = Text(f"  {e.glyph:>5}  ", style="bold")
            line.append(e.meaning)
            lines.append(line)
        s.show_lines("Legend: what the map shows", lines)

    def key_standing(self) -> None:
        """Standing reaction orders of the side on screen: for all its units, or for the selected one."""
        s = self.screen
        side = s.client.side
        if not s.session.is_human(side):
            s.notify("Standing orders are for a human side")
            return
        orders = s.standing_of(side)
        items: list[tuple[Any, Text | str]] = []
        for choice, words in _STANDING_CHOICES:
            now = orders.order == choice[0] and (choice[1] is None or abs(orders.threshold - choice[1]) < 1e-9)
            items.append((("side", *choice), f"{'• ' if now else '  '}All units: {words}"))
        for policy, words in RETREATS.items():
            default = "; the default" if policy == Standing().retreats else ""
            mark = "• " if orders.retreats == policy else "  "
            items.append((("retreats", policy), f"{mark}Retreats: {words}{default}"))
        for policy, words in ROUTINES.items():
            default = "; the default" if policy == Standing().routine else ""
            mark = "• " if orders.routine == policy else "  "
            items.append((("routine", policy), f"{mark}Routine choices: {words}{default}"))
        unit = s.now.unit(s.selected)
        if unit is not None and unit.side == side:
            own = orders.units.get(unit.id)
            for order, words in (("", "as the side"), ("ask", "always ask"), ("never", "never react")):
                mark = "• " if (own or "") == order else "  "
                items.append((("unit", unit.id, order), f"{mark}{unit.id}: {words}"))

        def chosen(value: Any) -> None:
            if value is None:
                return
            if value[0] == "side":
                orders.order = value[1]
                if value[2] is not None:
                    orders.threshold = value[2]
                said = f"All units: {dict(_STANDING_CHOICES)[(value[1], value[2])]}"
            elif value[0] == "retreats":
                orders.retreats = value[1]
                said = f"Retreats: {RETREATS[value[1]]}"
            elif value[0] == "routine":
                orders.routine = value[1]
                said = f"Routine choices: {ROUTINES[value[1]]}"
            else:
                if value[2]:
                    orders.units[value[1]] = value[2]
                else:
                    orders.units.pop(value[1], None)
                said = f"{value[1]}: {value[2] or 'as the side'}"
            s.notify(f"Standing reaction orders: {said}")
            s.advance()

        s.choose(f"Standing reaction orders of {s.info.side_name(side)}", items, chosen)

    def key_resign(self) -> None:
        """Ask, then give up the game for the side on screen (whoever is to act): the other side wins."""
        s = self.screen
        if s.client.outcome is not None or s.ai_side is not None or s.busy or not s.session.is_human(s.client.side):
            return
        side = s.client.side
        others = [x.name for x in s.info.sides if x.id != side]
        lines = [
            f"The game ends now as a {' and '.join(others)} victory. A resignation cannot be undone.",
        ]
        if s.session.campaign is not None:
            lines.append("In a campaign the battle counts as lost; the force carries over as it stands now.")
        s.confirm(f"Resign for {s.info.side_name(side)}?", lines, self._resign_answer)

    def _resign_answer(self, ok: bool) -> None:
        s = self.screen
        if not ok:
            s.advance()
            return
        try:
            s.client.resign()
        except ActionError as err:
            s.report_error(str(err))
            return
        s.after_change()

    def key_leave(self) -> None:
        """Back to the title screen (after saving)."""
        self.screen.session.autosave()
        self.screen.host.back_to_title()


def _attacks(s: _Screen, pick: Pick) -> bool | None:
    """On if the selected unit (or, with none selected, any unit) has such an attack."""
    return True if (s.now.unit_actions(s.selected, pick) if s.selected else s.now.actions(pick)) else None


_STANDING_CHOICES: tuple[tuple[tuple[str, float | None], str], ...] = (
    (("ask", None), "ask in every reaction window"),
    (("worth", DEFAULT_REACTION_THRESHOLD), "ask when a reaction has a 10 % chance of an effect or more; others pass"),
    (("worth", 0.25), "ask when a reaction has 25 % or more; the rest pass"),
    (
        ("auto", DEFAULT_REACTION_THRESHOLD),
        "react by themselves with the best reaction of 10 % or more (retreats are asked; the default)",
    ),
    (("auto", 0.25), "react by themselves with the best reaction of 25 % or more (retreats are asked)"),
    (("never", None), "never react: every window passes by itself"),
)
"""The side's standing orders offered by R: (order, threshold or None to keep it) → what they do."""


def _attack_refusal(s: _Screen, unit_id: str, here: Any, pick: Pick) -> str | None:
    """The engine's refusal of an attack by ``unit_id`` (of the kind ``pick`` accepts) at the enemy unit under the
    cursor, else at the nearest one in view: each verb whose notation is a unit and a target is tried (orders
    before reactions), and the first refusal is returned."""
    view = s.now.view
    me = view.units[unit_id]
    enemies = [u for u in view.units.values() if u.side != me.side and u.hex is not None]
    at_cursor = [u for u in enemies if u.hex == s.cursor]
    targets = at_cursor or sorted(enemies, key=lambda e: (distance(e.hex, here), e.id))[:1]
    found: list[tuple[int, str]] = []
    for verb, forms in s.info.forms.items():
        slots = forms[0] if forms else ()
        if len(slots) < 2 or slots[0].kind is not Arg.ACTOR or slots[1].kind is not Arg.TARGET:
            continue
        for target in targets:
            action = Action(verb, (unit_id, target.id))
            try:
                info = s.client.action_info(action)
            except ActionError:
                continue
            if not pick(info):
                continue
            try:
                s.client.check(action)
            except ActionError as err:
                found.append((0 if Role.ORDER in info.roles else 1, str(err)))
    return min(found)[1] if found else None
