"""Provides the game screen: the map, the panels, the log, and every decision by keyboard, for every ruleset.

The screen reads one side's client at a time (hot-seat switches clients at a hand-off) and asks the engine
everything through it: legal actions and what each means, what the game waits for, reachable hexes, line of
sight, odds and explanations. How a decision is entered is the interaction mode's (:mod:`tui.modes`): the engine
names the mode of each decision (``waiting().mode``) and the screen hands Enter on a hex, the overlay and the
status note to that mode; the keys of every mode the ruleset uses are on the table (:mod:`tui.screens.keys`). A
resolution the ruleset reports step by step, and a question it asks, go through :mod:`tui.screens.resolution`;
the AI and the hint through :mod:`tui.screens.thinking`. An illegal action shows the engine's sentence and
changes nothing.

The screen's own state (what was read from the client, the mode, the selection, the line of sight and command
ranges switched on, the hint, the order being written, the dialog and AI flags) is reactive: each watcher marks
what depends on it, and the marked parts are computed once (:mod:`tui.overlay`, :mod:`tui.entry`: pure
functions) and pushed into the widgets' attributes; the widgets post messages up (the map's cursor and Enter).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.reactive import var
from textual.screen import Screen
from textual.widgets import Footer, Input

from engine import Action, Hex, Role
from engine.contract import CHOOSE
from engine.errors import ActionError
from engine.typed import field_values

from ..choices import Words
from ..client import GameClient
from ..entry import Entry
from ..host import Host
from ..modes import MODES, Mode, PaletteCommand, mode_class
from ..names import UnitNames
from ..overlay import Scene, ask, draw, hex_content
from ..standing import Standing, decide, note_declined, window_pass
from ..table import Snapshot
from ..widgets.hexmap import HexMap
from ..widgets.panels import EventLog, HexCard, HexPanel, StatusBar, UnitCard, UnitPanel, status_lines
from .dialogs import ChoiceDialog, ConfirmDialog
from .keys import TableKeys, bindings
from .resolution import OrdersSummaryScreen, Resolution
from .thinking import Thinking

if TYPE_CHECKING:
    from ..session import Session

__all__ = ["GameScreen"]

_NARROW = 120
"""Below this width the unit and hex panels share one place (i switches)."""

_EVERYTHING = ("content", "overlay", "panels", "status", "footer")
"""The parts of the screen that are computed from its state."""

_DEPENDS: dict[str, tuple[str, ...]] = {
    "now": _EVERYTHING,
    "mode": ("overlay", "status", "footer"),
    "selected": ("content", "overlay", "panels", "footer"),
    "los_on": ("overlay", "panels"),
    "command_on": ("overlay", "panels"),
    "hint": ("overlay", "panels", "footer"),
    "entry": ("overlay", "panels", "status", "footer"),
    "busy": ("footer",),
    "ai_side": ("footer",),
    "hinting": ("footer",),
}
"""Each reactive attribute of the screen → the parts shown from it (its watcher marks them; the map's cursor marks
the panels, and the overlay while it follows the cursor)."""


class GameScreen(Screen[None]):
    """The table: map, unit and hex panels, event log, status bar and footer."""

    BINDINGS: ClassVar[list[BindingType]] = bindings()
    """
    | Key(s) | Description |
    | :- | :- |
    | enter, space | Select a unit, then a hex: move there (step by step along the route), fire at it, or choose. |
    | f | Fire with the selected unit: its targets with the exact odds, then confirm. |
    | c | Close combat (assault) with the selected unit. |
    | o | Every legal decision now, with the engine's explanation (chits, reactions, …). |
    | n | Select the next unit that can act. |
    | v | Show the line of sight from the selected unit (or the cursor) to the cursor. |
    | k | Command range of the selected unit's HQ (``┆2┆``: hexes from it), units out of command (``OOC``). |
    | h | Ask the AI for a hint: the best action for you now, with the engine's explanation, marked on the map. |
    | H | Play the hinted action (any other action ignores it). |
    | u | Undo your last action (until dice are rolled or hidden information is revealed). |
    | : | Type an action in notation (``fire ger-1 fra-3``). |
    | S | Save now (the game also autosaves after every action). |
    | i | Switch between the unit and hex panels (narrow terminals). |
    | L | The event log over half the screen, or back to its few lines. |
    | I | The log with unit ids (for notation) or unit names. |
    | Q | Back to the title screen (the game is saved). |
    | r | The last round again, step by step, and the question it waits for (rulesets that report their rounds). |

    The modes the ruleset uses add their keys (:mod:`tui.modes`): select-and-act ``b x z`` and Escape, plan
    ``y x z g P``, Escape and Backspace.
    """

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
    GameScreen.tall-log #log {
        height: 50%;
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

    now: var[Snapshot] = var(None, init=False)  # type: ignore[arg-type]
    """The view, the legal actions with what each means and what the game waits for, as last read."""
    mode: var[str] = var(CHOOSE, init=False)
    """The interaction mode of the decision now (one this client knows)."""
    selected: var[str | None] = var(None, init=False)
    """The selected unit."""
    los_on: var[bool] = var(False, init=False)
    """The line of sight from the selected unit to the cursor is shown (v)."""
    command_on: var[bool] = var(False, init=False)
    """Command ranges and out-of-command units are shown (k)."""
    hint: var[Action | None] = var(None, init=False)
    """The AI's suggestion for the side on screen (h), until the game moves on."""
    entry: var[Entry | None] = var(None, init=False)
    """The order being written (the plan mode)."""
    busy: var[bool] = var(False, init=False)
    """True while a dialog or a hand-off is open (advance waits)."""
    ai_side: var[str | None] = var(None, init=False)
    """The side whose AI is thinking, if one is."""
    hinting: var[bool] = var(False, init=False)
    """True while the AI looks for a hint."""

    def __init__(self, session: Session, *, side: str | None = None) -> None:
        super().__init__()
        self.session = session
        humans = session.humans
        first = side or (session.game.to_act if session.is_human(session.game.to_act) else None)
        self.client: GameClient = session.client(first or (humans[0] if humans else session.info.sides[0].id))
        self.presenter = session.presenter
        self.info = self.client.info
        self.set_reactive(GameScreen.now, Snapshot(self.client, self.client.view()))
        self.modes: dict[str, Mode] = {name: cls(self) for name, cls in MODES.items()}
        """One of each mode this client knows (a mode keeps no state of its own: the table does)."""
        self.key_modes = [m for name, m in self.modes.items() if name in self.info.modes]
        """The modes the ruleset uses: their keys are on the table."""
        self.notes: tuple[str, ...] = ()
        """Lines explaining the overlay (line of sight, the ruleset's overlays, the hint, the order written)."""
        self.hint_at: tuple[str, int] | None = None
        """(side, actions played) when the hint was asked for: it is stale once either changes."""
        self.decisions = 0
        """How many actions this screen applied (tests read it)."""
        self.keys = TableKeys(self)
        self.thinking = Thinking(self)
        self.resolution = Resolution(self)
        self._event_index = 0
        self._names: UnitNames | None = None
        self._selectable: list[str] = []
        self._dirty: set[str] = set()
        self._batching = 0
        for name, parts in _DEPENDS.items():
            self.watch(self, name, self._marks(parts), init=False)

    @property
    def host(self) -> Host:
        """The app (as the screens use it)."""
        return self.app  # type: ignore[return-value]

    @property
    def table(self) -> GameScreen:
        """The table (this screen) as its helpers use it."""
        return self

    # --- Layout -----------------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        self.status_bar = StatusBar(id="status")
        self.map = HexMap(
            self.info.board,
            terrain_glyphs=self.presenter.terrain_glyphs,
            terrain_looks=self.presenter.terrain_looks,
            water=self.presenter.water_terrain,
            id="map",
        )
        self.unit_panel = UnitPanel(id="unit")
        self.hex_panel = HexPanel(id="hex")
        self.log_widget = EventLog(id="log")
        yield self.status_bar
        with Horizontal(id="main"):
            yield self.map
            with Vertical(id="side"):
                yield self.unit_panel
                yield self.hex_panel
        yield self.log_widget
        yield Input(placeholder="notation, e.g. fire ger-1 fra-3 (enter: play, escape: close)", id="prompt")
        yield Footer(compact=True, show_command_palette=False)  # p and ctrl+p open it; the table keys need the room

    def on_mount(self) -> None:
        self.map.set_palette(self.host.palette)
        self._apply_size(self.app.size.width)
        self.log_widget.namer = self.name_units
        self.log_widget.show_ids = self.session.log_ids
        self._reload_log()
        self._place_cursor()
        self.map.focus()
        if self.session.replay_check_pending:
            # The indicator at once; the replay itself once the table is on screen (it competes for the CPU).
            self.status_bar.checking = "checking the save…"
            self.thinking.spin()
            self.set_timer(0.3, self.thinking.start_replay_check)
        if self.session.remote is not None:
            # A spectator's screen has no decision of its own that would draw it: once mounted, draw it all.
            self.call_after_refresh(self._changed, *_EVERYTHING)
            self.set_interval(0.2, self._remote_tick)
        self.call_after_refresh(self.advance)

    def _remote_tick(self) -> None:
        """A game at a server table: apply the other player's actions that arrived; say when the copy fell out of
        step with the table."""
        remote = self.session.remote
        if remote.error is not None:
            error, remote.error = remote.error, None
            self.report_error(error)
            self.notify(error, title="The table", severity="error", timeout=15)
            return
        if self.busy and self.client.to_act == self.client.side:
            return  # the player is in a dialog of their own decision: what arrives (a resignation) waits for it
        if remote.incoming(self.session):
            self.status_bar.thinking = None
            self.after_change()
        elif self.session.is_remote(self.client.to_act):
            self.advance()  # the waiting line follows who is connected

    def on_resize(self) -> None:
        self._apply_size(self.app.size.width)

    def _apply_size(self, width: int) -> None:
        narrow = width < _NARROW
        self.set_class(narrow, "narrow")
        if narrow and not (self.has_class("show-unit") or self.has_class("show-hex")):
            self.add_class("show-unit")

    def on_screen_resume(self) -> None:
        self.map.set_palette(self.host.palette)

    # --- Reading ----------------------------------------------------------------------------------------

    @property
    def mode_now(self) -> Mode:
        """The mode of the decision now."""
        return self.modes[self.mode]

    @property
    def cursor(self) -> Hex:
        """The hex under the map cursor."""
        return self.map.cursor

    def refresh_view(self) -> None:
        """Read the view and legal actions again and redraw what changed."""
        with self._batch():
            self.mode_now.refreshed()
            now = Snapshot.read(self.client)
            self.mode = mode_class(now.waiting.mode).name
            self.now = now
            self._selectable = self.mode_now.selectable() if now.legal else []
            if self.hint is not None and self.hint_at != (self.client.side, self.client.actions_played):
                self.hint = None  # the game moved on: the hint no longer applies
            if self.selected is not None and self.selected not in self._selectable:
                self.selected = None
            moving = self._moving_unit()
            if moving is not None:
                self.selected = moving

    def words(self) -> Words:
        """The words of lists and questions for the side on screen."""
        return Words(self.client, self.presenter, self.info, self.now.view, self.now.info_of)

    def selectable(self) -> list[str]:
        """Units the player may select on the map now, in id order."""
        return self._selectable

    def selectable_at(self, h: Hex) -> list[str]:
        """Units on ``h`` the player may select now."""
        return [uid for uid in self._selectable if (u := self.now.unit(uid)) is not None and u.hex == h]

    def _moving_unit(self) -> str | None:
        """The only selectable unit, if it is in the middle of a move (it stays selected)."""
        ids = self._selectable
        u = self.now.unit(ids[0]) if len(ids) == 1 else None
        return u.id if u is not None and field_values(u.status).get("moving") else None

    def _place_cursor(self) -> None:
        """Read the view again; the cursor on the first unit that can act, else on the first unit of the side on
        screen."""
        with self._batch():
            self.refresh_view()
            view = self.now.view
            here = [u.hex for uid in self._selectable if (u := view.units.get(uid)) is not None and u.hex is not None]
            here += [u.hex for u in view.iter_units(self.client.side) if u.hex is not None]
            if here:
                self.map.move_cursor(here[0])
            self._changed("overlay", "panels")

    # --- Watchers: what depends on what -----------------------------------------------------------------

    @on(HexMap.CursorMoved)
    def _cursor_moved(self, event: HexMap.CursorMoved) -> None:
        if self.los_on or (self.command_on and self.selected is None):
            self._changed("overlay")
        self._changed("panels")

    def _marks(self, parts: tuple[str, ...]) -> Callable[[], None]:
        """A watcher that marks ``parts``."""

        def changed() -> None:
            self._changed(*parts)

        return changed

    def _changed(self, *parts: str) -> None:
        """Mark what must be shown again; shown at once, or at the end of the batch under way."""
        self._dirty.update(parts)
        if not self._batching:
            self._flush()

    @contextmanager
    def _batch(self) -> Iterator[None]:
        """Change several things at once; what depends on them is shown once, at the end."""
        self._batching += 1
        try:
            yield
        finally:
            self._batching -= 1
            if not self._batching:
                self._flush()

    def _flush(self) -> None:
        """Compute the marked parts and push them into the widgets (the overlay's notes before the panels)."""
        if not self.is_mounted:
            return
        dirty, self._dirty = self._dirty, set()
        view = self.now.view
        if "content" in dirty:
            self.map.set_content(hex_content(view, self.presenter, self.info.board, self.selected))
        if "overlay" in dirty:
            drawn = self.mode_now.drawn()
            if drawn is None:
                scene = self.scene()
                drawn = draw(scene, ask(scene, self.client))
            self.notes = drawn.notes
            self.map.set_overlay(drawn.overlay)
        if "overlay" in dirty or "panels" in dirty:
            self._push_panels()
        if "status" in dirty:
            note = self.mode_now.note()
            top, below = status_lines(view, self.presenter, self.client.side, self.info.turns, note)
            self.status_bar.lines = top, Text(self.named(below.plain), style=below.style)
        if "footer" in dirty and self.keys.changed():
            self.refresh_bindings()

    def scene(self) -> Scene:
        """What the overlays are drawn from now."""
        return Scene(
            board=self.info.board,
            view=self.now.view,
            presenter=self.presenter,
            side=self.client.side,
            legal=self.now.legal_infos,
            selected=self.selected,
            cursor=self.cursor,
            los_on=self.los_on,
            command_on=self.command_on,
            placing=self.mode_now.placing,
            hint=self.hint,
        )

    def _push_panels(self) -> None:
        now, pr = self.now, self.presenter
        view, unit = now.view, now.unit(self.selected)
        if unit is not None:
            stack = pr.stack_order(view.units_at(unit.hex)) if unit.hex is not None else [unit]
            self.unit_panel.card = UnitCard(view, pr, unit, stack, "Selected unit")
        else:
            here = pr.stack_order(view.units_at(self.cursor))
            self.unit_panel.card = UnitCard(view, pr, here[0] if here else None, here, "Unit")
        self.hex_panel.card = HexCard(view, pr, self.cursor, self.notes)

    # --- The log ----------------------------------------------------------------------------------------

    def _reload_log(self) -> None:
        log = self.log_widget
        log.clear()
        log.add("phase", f"{self.info.title}: {self.info.side_name(self.client.side)} view (? for the keys)")
        events = self.client.events_since(0)
        log.add_events(events[-150:])  # the recent story; more would slow the first paint of a long game
        self._event_index = self.client.event_count

    def named(self, text: str) -> str:
        """A status or title line as the player reads it: units named, or ids while ``I`` shows ids."""
        return text if self.session.log_ids else self.name_units(text)

    def name_units(self, text: str) -> str:
        """A line with the units named as the side on screen reads them (its view, as it is now)."""
        view = self.client.view()
        if self._names is None or self._names.view is not view:
            self._names = UnitNames(view, self.presenter)
        return self._names(text)

    def _log_new_events(self) -> None:
        events = self.client.events_since(self._event_index)
        self.log_widget.add_events(events)
        self._event_index = self.client.event_count

    def report_error(self, message: str) -> None:
        """Show a refusal in the log and as a notification; nothing changes."""
        self.log_widget.add("error", message)
        self.notify(message, title="Not allowed", severity="error", timeout=6)

    # --- The map and the selection ----------------------------------------------------------------------

    @on(HexMap.HexSelected)
    def _hex_selected(self, event: HexMap.HexSelected) -> None:
        self.act_on_hex(event.hex)

    def act_on_hex(self, h: Hex) -> None:
        """Enter on a hex: what the mode of the decision now does with it."""
        if self.can_decide():
            self.mode_now.on_hex(h)

    def select_unit(self, unit_id: str | None) -> None:
        """Select a unit (None: deselect) and show its reachable hexes, steps and targets."""
        with self._batch():
            self.selected = unit_id
            u = self.now.unit(unit_id)
            if u is not None and u.hex is not None:
                self.map.move_cursor(u.hex)
            self._changed("content", "overlay", "panels", "footer")

    def deselect(self) -> None:
        """Deselect the unit and hide the line of sight."""
        with self._batch():
            self.los_on = False
            self.select_unit(None)

    def focus_map(self) -> None:
        """Give the keys to the map."""
        self.map.focus()

    # --- Dialogs ----------------------------------------------------------------------------------------

    def push_modal(self, screen: Screen[Any], then: Callable[[Any], None]) -> None:
        """Push a screen that holds the table's decisions until it closes; then ``then(result)``."""
        self.busy = True

        def closed(result: Any) -> None:
            self.busy = False
            then(result)

        self.app.push_screen(screen, closed)

    def push(self, screen: Screen[Any]) -> None:
        """Push a screen to read (the table goes on below it)."""
        self.app.push_screen(screen)

    def choose(self, title: str, items: Sequence[tuple[Any, Text | str]], then: Callable[[Any], None]) -> None:
        """A list of ``items``; ``then(value)``, None if the player closed it to look at the map."""
        self.push_modal(ChoiceDialog(self.named(title), items), then)

    def confirm(self, title: str, lines: Sequence[Text | str], then: Callable[[bool], None]) -> None:
        """A yes-or-no question with details; ``then(answer)``."""
        self.push_modal(ConfirmDialog(title, lines), lambda ok: then(bool(ok)))

    def show_lines(self, title: str, lines: Sequence[Text | str]) -> None:
        """Lines to read (a sheet of orders) until the player closes them."""
        self.push(OrdersSummaryScreen(title, list(lines)))

    def show_last_report(self) -> None:
        """The last resolution again, step by step (and the question it waits for)."""
        self.resolution.show_last()

    # --- Deciding ---------------------------------------------------------------------------------------

    def to_decide(self) -> bool:
        """True if the keys that act may be used: the screen is on, no AI is thinking, the side on screen is to
        act."""
        return (
            self.is_mounted
            and self.ai_side is None
            and self.client.to_act == self.client.side
            and self.session.is_human(self.client.side)  # a spectator never acts
        )

    def can_decide(self) -> bool:
        """True if the side on screen may decide now: no dialog or AI under way, its decision, something legal."""
        if self.busy or self.ai_side is not None:
            return False
        return (
            self.client.to_act == self.client.side and self.session.is_human(self.client.side) and bool(self.now.legal)
        )

    def decide(self, actions: list[Action], title: str) -> None:
        """One action: play it (a shot first shows its odds); several: ask which."""
        if len(actions) == 1:
            self.play(actions[0])
            return
        self.choose(title, self.words().items(actions), self._chosen)

    def _chosen(self, choice: Action | list[Action] | None) -> None:
        if isinstance(choice, list):
            self.decide(choice, f"{choice[0].verb} {choice[0].args[0] if choice[0].args else ''}: which one?")
        elif choice is not None:
            self.play(choice)

    def open_choices(self) -> None:
        """Every legal decision now, as a list with explanations."""
        if self.can_decide():
            title = self.presenter.waiting_for(self.now.view)
            self.choose(title, self.words().items(self.now.legal), self._chosen)

    def play(self, action: Action, *, confirmed: bool = False) -> None:
        """Play an action for the side on screen; a shot is confirmed first with its LOS, range and odds."""
        if self.now.info_of(action).is_direct_fire and not confirmed:
            odds = self.client.odds(action)
            if odds is not None:
                details = self.words().fire_details(action, odds)
                self.confirm(f"{self.client.describe(action)}?", details, lambda ok: self._confirmed(action, ok))
                return
        self._remember_declined(action)
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

    def _remember_declined(self, action: Action) -> None:
        """The player lets a reaction window pass: its standing orders remember the chances let pass
        (:func:`tui.standing.note_declined`)."""
        info = self.now.info_of(action)
        if not info.has(Role.PASS) or info.unit is not None:
            return
        legal = tuple((a, self.now.info_of(a)) for a in self.now.legal)
        if window_pass(legal) != action:
            return
        side = self.client.side
        note_declined(self.standing_of(side), self.client.view(), side, legal, self.client.odds, self.client.waiting())

    def _confirmed(self, action: Action, ok: bool) -> None:
        if ok:
            self.play(action, confirmed=True)
        else:
            self.advance()

    # --- Who decides next -------------------------------------------------------------------------------

    def after_change(self) -> None:
        """After any action: log the new events, redraw, and go on to the next decision."""
        self._log_new_events()
        error = self.session.save_error
        if error:
            self.notify(f"autosave failed: {error}", severity="warning")
        self.refresh_view()
        self.advance()

    def undone(self) -> None:
        """After an undo: the log goes on from here, save, redraw, and go on."""
        self._event_index = self.client.event_count
        self.session.autosave()
        self.refresh_view()
        self.advance()

    def advance(self) -> None:
        """Go on to whoever decides next: a resolution to show, the end of the game, an AI, a hand-off, or a list
        of choices."""
        if self.busy or self.ai_side is not None or not self.is_attached:
            return
        if self.resolution.step():
            return
        if self.client.outcome is not None:
            self.host.show_end(self.session)
            return
        to_act = self.client.to_act
        if to_act is None:
            return
        if self.session.is_remote(to_act):
            self.status_bar.thinking = (
                f"Waiting for {self.session.remote.player(to_act)}, {self.info.side_name(to_act)}"
            )
            return
        if not self.session.is_human(to_act):
            self.thinking.start_ai(to_act)
            return
        if self._standing_orders(to_act):
            return
        if to_act != self.client.side:
            if self.host.needs_handoff(self.session, self.session.client(to_act).waiting()):
                self.busy = True
                self.host.push_handoff(self.session, to_act, self._handed_off)
                return
            self.switch_side(to_act)
        if not self.mode_now.on_map and self.now.legal:
            self.open_choices()

    def standing_of(self, side: str) -> Standing:
        """A human side's standing reaction orders (the settings' for a side that has none yet)."""
        got = self.session.standing.get(side)
        if got is None:
            settings = self.host.settings
            got = self.session.standing[side] = Standing(settings.reactions, settings.reaction_threshold)
        return got

    def _standing_orders(self, side: str) -> bool:
        """A reaction window that the side's standing orders answer (:mod:`tui.standing`): play the answer for it,
        as an action played for the side (an undo passes over it), and go on; False: the player decides."""
        client = self.session.client(side)
        legal = client.legal_actions()
        if len(legal) < 2:
            return False
        waiting = client.waiting()
        infos = []
        for a in legal:  # most decisions are no window: the first action that is no reaction says so
            info = client.action_info(a)
            if not info.any(Role.REACT, Role.RETREAT, Role.PASS) and waiting.usual is None:
                return False
            infos.append((a, info))
        names = {s.id: s.name for s in self.info.sides}
        orders = self.standing_of(side)
        verdict = decide(orders, client.view(), side, tuple(infos), client.odds, names, waiting, self._described)
        if verdict.action is None:
            return False
        try:
            client.apply(verdict.action, auto=True)
        except ActionError as err:  # the engine refused: the player decides
            self.report_error(str(err))
            return False
        if side == self.client.side:
            self.log_widget.add("auto", verdict.line)  # the other side only sees the engine's events
        self.after_change()
        return True

    def _described(self, action: Action) -> str:
        """An action and what its verb does (``accept ger-1 — keep the Neutralised result (8.3)``)."""
        meaning = self.info.verb_help(action.verb).partition(" — ")[2]
        text = self.client.describe(action)
        return f"{text} — {meaning}" if meaning else text

    def _handed_off(self, side: str) -> None:
        self.busy = False
        self.entry = None
        self.switch_side(side)
        self.advance()

    def switch_side(self, side: str) -> None:
        """Show the game as ``side`` sees it (hot-seat)."""
        if side == self.client.side:
            return
        self.host.handed_on(self.session, self.client.side)
        self.client = self.session.client(side)
        with self._batch():
            self.selected = None
            self.los_on = False
            self.entry = None
            self._reload_log()
            self._place_cursor()

    # --- Keys (tui.screens.keys) and the notation prompt -----------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Hide the keys of modes the ruleset does not use, and those a mode holds back now; dim the keys whose
        action is not legal now (the footer keeps them, greyed)."""
        return self.keys.check(str(parameters[0]), str(parameters[1])) if action == "key" else True

    def action_key(self, owner: str, name: str) -> None:
        """A key of the table or of a mode."""
        self.keys.run(owner, name)

    def key_help(self, binding: Binding) -> str:
        """What the help screen says about a key (in the words of the modes the ruleset uses)."""
        return self.keys.help(binding)

    @property
    def help_name(self) -> str:
        """What the help screen calls this table (``game``, or what a mode of the ruleset calls it)."""
        return self.keys.table_name()

    def palette_commands(self) -> list[PaletteCommand]:
        """The table's commands for the command palette."""
        return self.keys.palette()

    @on(Input.Submitted, "#prompt")
    def _prompt_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        self._close_prompt()
        if not text:
            return
        if self.ai_side is not None or self.client.to_act != self.client.side:
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
        """Escape in the prompt closes it; a key that cannot act now says why in one line (issue 18 item 3)."""
        prompt = self.query_one("#prompt", Input)
        if prompt.has_focus:
            if event.key == "escape":
                event.stop()
                self._close_prompt()
            return
        why = self.keys.why_not(event.key)
        if why:
            event.stop()
            event.prevent_default()
            self.notify(why, severity="warning", timeout=5)
