"""Provides the Planspiel Textual app: screens, themes, settings, saves and the exit handlers.

Start it with :func:`run` (``planspiel``, ``planspiel new ...``, ``planspiel load FILE``). The app holds at
most one :class:`~tui.session.Session` (the game at the table); screens reach the game only through the
session's per-side clients.

Only the title screen is imported with the app: the game's screens, the session (and with it the engine's game
facade, the AI and the presenters) and the saves package are imported when first needed, so that the title is
on screen at once (start-up budget, DESIGN §11; ``tests/tui/test_lazy_start.py`` keeps it so).
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.screen import Screen

from engine.errors import PlanspielError

from . import output
from .driver import EndOfInput, driver_class
from .lastsave import find_last_save, load_saves
from .names import UnitNames
from .screens.dialogs import MIN_SIZE, TooSmallScreen
from .screens.title import TitleScreen
from .settings import Settings
from .theme import THEME_NAMES, THEMES, MapPalette, map_palette, textual_theme

if TYPE_CHECKING:
    from engine import Waiting

    from .session import Session

__all__ = ["PlanspielApp", "Start", "run"]

log = logging.getLogger(__name__)


def _shown(module: str, name: str) -> type | None:
    """The screen class ``name`` of ``tui.screens.<module>`` if that module was imported, else None (no screen
    of it can exist then): a check of the screens on the stack that does not import every screen."""
    return getattr(sys.modules.get(f"{__package__}.screens.{module}"), name, None)


@dataclass(frozen=True, slots=True)
class Start:
    """What the app opens with: the title screen, a new game, or a save."""

    kind: str = "title"
    """``title``, ``new`` or ``load``."""
    ruleset: str = ""
    scenario: str = ""
    players: Mapping[str, str | None] = field(default_factory=dict)
    seed: int | None = None
    path: Path | None = None
    setup: str = "scenario"
    """``scenario``: the scenario file's set-up for every side; ``players``: each side sets up its units."""


class PlanspielApp(App[int]):
    """The Planspiel game client."""

    CSS_PATH = Path(__file__).parent / "styles" / "app.tcss"
    TITLE = "Planspiel"
    ENABLE_COMMAND_PALETTE = True
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark", "help", "Help", key_display="?", id="app.help"),
        Binding("p,ctrl+p", "command_palette", "Commands", show=False, id="app.palette"),
        Binding("f4", "campaign_force", "Force", show=False, id="app.force"),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | ? | The keys of the current screen. |
    | p, ctrl+p | The command palette: every command. |
    | F4 | In a campaign: review your force (the roster carried from battle to battle). |
    | ctrl+q | Quit (the game is saved). |
    """

    def __init__(
        self,
        start: Start | None = None,
        *,
        settings: Settings | None = None,
        autosave: bool = True,
        exit_handlers: bool = True,
    ) -> None:
        self.start = start or Start()
        self.settings = settings if settings is not None else Settings.load()
        self.autosave_enabled = autosave
        self.table_link: Any = None
        """The connection to the server's tables (``planspiel serve``), once the lobby was opened."""
        self.exit_handlers = exit_handlers
        output.install()  # only the changed cells of a line go to the terminal (DESIGN §11)
        super().__init__()
        self.session: Session | None = None
        self.palette: MapPalette = map_palette(self.effective_theme())
        self._seen: dict[str, int] = {}
        """Side → how many events it had seen when it last handed control on (for the hand-off summary)."""
        self._uninstall: Callable[[], None] | None = None
        self._end_shown = False
        self.first_frame_out = False
        """True once Textual has put the first frame on the terminal (the title screen waits for it)."""

    def get_driver_class(self) -> Any:
        """Textual's driver, except on POSIX terminals: one that notices the end of input."""
        cls = driver_class()
        if cls is None or os.environ.get("TEXTUAL_DRIVER"):
            return super().get_driver_class()
        return cls

    # --- Start and stop ---------------------------------------------------------------------------------

    def on_mount(self) -> None:
        for theme in THEMES.values():
            self.register_theme(theme)
        self.apply_theme()
        self.apply_keymap()
        if self.settings.note:
            self.notify(self.settings.note, severity="warning")
        started = False
        if self.start.kind == "new":
            started = self.new_game(
                self.start.ruleset,
                self.start.scenario,
                dict(self.start.players),
                seed=self.start.seed,
                setup=self.start.setup,
            )
        elif self.start.kind == "load" and self.start.path is not None:
            started = self.load_game(self.start.path)
        if not started:
            self.push_screen(TitleScreen())

    def on_ready(self) -> None:
        """The first frame is on the terminal: now what waited for it (the title screen's look-up of the last
        save, the save-on-exit handlers: both import the saves package)."""
        self.first_frame_out = True
        for screen in self.screen_stack:  # the title may be under the "terminal too small" message
            if isinstance(screen, TitleScreen):
                screen.call_after_refresh(screen.look_up)
        if self.exit_handlers:
            self.call_after_refresh(self._install_exit_handlers)

    def _install_exit_handlers(self) -> None:
        saves = load_saves()
        if saves is None or threading.current_thread() is not threading.main_thread():
            return
        try:
            self._uninstall = saves.install_exit_handlers(self.save_before_exit, on_exit=self._exit_for_signal)
        except ValueError as err:  # not the main thread (e.g. inside a test runner's thread)
            log.warning("cannot install the save-on-exit handlers: %s", err)

    def save_before_exit(self) -> None:
        """Save the game at the table (SIGHUP, SIGTERM, end of input, quit)."""
        if self.session is not None:
            self.session.autosave()

    def _exit_for_signal(self, status: int) -> None:
        # The handler runs between two bytecodes of the event loop, maybe while it waits in select():
        # call_soon_threadsafe wakes it, a plain exit() would wait for the next timer.
        try:
            asyncio.get_running_loop().call_soon_threadsafe(partial(self.exit, status, return_code=status))
        except RuntimeError:
            self.exit(status, return_code=status)
        # A hung-up terminal may never take the goodbye sequences; the game is saved, so leave for sure.
        timer = threading.Timer(3.0, os._exit, (status,))
        timer.daemon = True
        timer.start()

    def on_end_of_input(self, message: EndOfInput) -> None:
        """The terminal's input ended: save and exit."""
        self.save_before_exit()
        self.exit(0)

    async def action_quit(self) -> None:
        """Save, then quit."""
        self.save_before_exit()
        self.exit(0)

    def on_unmount(self) -> None:
        if self._uninstall is not None:
            self._uninstall()
            self._uninstall = None

    # --- Themes, keys, size -----------------------------------------------------------------------------

    def effective_theme(self) -> str:
        """The theme in force: monochrome under ``NO_COLOR``, else the chosen one."""
        return "monochrome" if os.environ.get("NO_COLOR") is not None else self.settings.theme

    def apply_theme(self) -> None:
        """Use the chosen theme for panels and map."""
        name = self.effective_theme()
        self.theme = textual_theme(name).name
        self.palette = map_palette(name)
        game_screen = _shown("game", "GameScreen")
        for screen in self.screen_stack:
            if game_screen is not None and isinstance(screen, game_screen) and screen.is_mounted:
                screen.map.set_palette(self.palette)

    def apply_keymap(self) -> None:
        """Use the player's key bindings."""
        self.set_keymap(dict(self.settings.keymap))

    def save_settings(self) -> None:
        """Write the settings file (a failure is a notification)."""
        try:
            self.settings.save()
        except OSError as err:
            self.notify(f"settings not saved: {err}", severity="warning")

    async def _on_resize(self, event: events.Resize) -> None:
        # Textual's handler stops the event before a public ``on_resize`` would see it: extend it instead.
        await super()._on_resize(event)
        self.set_timer(0.05, self._check_size)

    def is_too_small(self) -> bool:
        """True if the terminal is smaller than the game's layout needs."""
        w, h = self.size
        return w < MIN_SIZE[0] or h < MIN_SIZE[1]

    def _check_size(self) -> None:
        """Keep the "terminal too small" message on top while the terminal is too small."""
        w, h = self.size
        top = self.screen if self.screen_stack else None
        if self.is_too_small():
            if isinstance(top, TooSmallScreen):
                top.update_size((w, h))
            else:
                self.push_screen(TooSmallScreen((w, h)))
        elif isinstance(top, TooSmallScreen):
            self.pop_screen()

    def push_screen(self, *args: Any, **kwargs: Any) -> Any:
        """Push a screen; the "too small" message stays above it while the terminal is too small."""
        result = super().push_screen(*args, **kwargs)
        if args and not isinstance(args[0], TooSmallScreen) and self.is_too_small():
            self.set_timer(0.05, self._check_size)
        return result

    # --- Screens ----------------------------------------------------------------------------------------

    def action_help(self) -> None:
        """The keys of the current screen."""
        from .screens.help import HelpScreen  # noqa: PLC0415 - imported when first shown

        if isinstance(self.screen, HelpScreen):
            return
        self.push_screen(HelpScreen(self.screen))

    def back_to_title(self) -> None:
        """Close every screen above the title screen (opening it if the game started straight in)."""
        self._pop_to_base()
        self.session = None
        if isinstance(self.screen, TitleScreen):
            self.screen.rebuild()
        else:
            self.push_screen(TitleScreen())

    def _pop_to_base(self) -> None:
        """Pop screens until the title screen, or the default screen, is on top."""
        while len(self.screen_stack) > 1 and not isinstance(self.screen, TitleScreen):
            self.pop_screen()

    def open_new_game(self) -> None:
        """The new-game screen."""
        from .screens.newgame import NewGameScreen  # noqa: PLC0415 - imported when first shown

        self.push_screen(NewGameScreen())

    def open_load(self) -> None:
        """The load screen."""
        from .screens.load import LoadScreen  # noqa: PLC0415 - imported when first shown

        self.push_screen(LoadScreen())

    def open_rules(self) -> None:
        """The rules reference (of the game at the table, else the first ruleset with one)."""
        from .screens.rules import RulesScreen  # noqa: PLC0415 - imported when first shown

        self.push_screen(RulesScreen(self.session.info.ruleset if self.session else None))

    def open_settings(self) -> None:
        """The settings screen."""
        from .screens.settings import SettingsScreen  # noqa: PLC0415 - imported when first shown

        self.push_screen(SettingsScreen())

    def start_session(self, session: Session, side: str | None = None) -> None:
        """Put a game on the table and show it (from ``side``'s view when given: a spectator's)."""
        from .screens.game import GameScreen  # noqa: PLC0415 - imported when the first game starts

        self._pop_to_base()
        self.session = session
        self._seen = {}
        self._end_shown = False
        self.push_screen(GameScreen(session, side=side))

    def open_lobby(self) -> None:
        """The lobby of the server this game runs on (``planspiel serve``)."""
        from .remote import TableLink  # noqa: PLC0415 - only in a game process of the server
        from .screens.lobby import LobbyScreen  # noqa: PLC0415

        try:
            link = self.table_link or TableLink.from_env()
        except PlanspielError as err:
            self.notify(str(err), title="No lobby", severity="error", timeout=10)
            return
        if link is None:
            self.notify("The lobby is there when you play on a Planspiel server (ssh).", severity="warning")
            return
        self.table_link = link
        self.push_screen(LobbyScreen(link))

    def new_game(
        self,
        ruleset: str,
        scenario: str,
        players: Mapping[str, str | None],
        seed: int | None = None,
        setup: str = "scenario",
    ) -> bool:
        """Start a new game; ``setup`` = ``scenario`` or ``players``; a problem is a notification (and False)."""
        from .session import Session  # noqa: PLC0415 - imported when the first game starts

        try:
            session = Session.new(ruleset, scenario, players, seed=seed, autosave=self.autosave_enabled, setup=setup)
        except (PlanspielError, ValueError) as err:
            self.notify(str(err), title="Cannot start the game", severity="error", timeout=10)
            return False
        session.autosave()
        if self.settings.last_ruleset != ruleset:
            self.settings.last_ruleset = ruleset  # the new-game screen offers it first next time
            self.save_settings()
        self.start_session(session)
        return True

    def load_game(self, path: str | Path) -> bool:
        """Continue a saved game or campaign; a damaged save shows the saves package's sentence (and False)."""
        from .session import Session  # noqa: PLC0415 - imported when the first game starts

        saves = load_saves()
        if saves is not None:
            try:
                if saves.read_header(path).kind == "campaign":
                    return self.open_campaign(path)
            except saves.SaveError:
                pass  # loading it says why
        try:
            session = Session.load(path, autosave=self.autosave_enabled)
        except (PlanspielError, ValueError, OSError) as err:
            self.notify(str(err), title="Cannot load the game", severity="error", timeout=12)
            return False
        for warning in getattr(session.game, "warnings", []):
            self.notify(str(warning), severity="warning", timeout=10)
        self.start_session(session)
        return True

    # --- Campaigns --------------------------------------------------------------------------------------

    def open_campaign(self, path: str | Path) -> bool:
        """Continue a campaign where it stopped: its battle under way, else the between-battles screen."""
        from .campaign import CampaignPlay  # noqa: PLC0415 - imported when the first campaign opens

        try:
            play = CampaignPlay.load(path)
        except (PlanspielError, ValueError, OSError) as err:
            self.notify(str(err), title="Cannot continue the campaign", severity="error", timeout=12)
            return False
        for warning in play.save.warnings:
            self.notify(str(warning), severity="warning", timeout=10)
        if play.game is not None:
            return self.start_campaign_battle(play)
        self.show_between_battles(play)
        return True

    def new_campaign(self, ruleset: str, campaign_id: str, players: Mapping[str, str | None]) -> bool:
        """Start a campaign (its save in the saves folder) and open battle 1; a problem is a notification."""
        import time  # noqa: PLC0415

        from .campaign import CampaignPlay  # noqa: PLC0415 - imported when the first campaign opens

        saves = load_saves()
        if saves is None:
            self.notify("saves are not available in this installation", severity="error")
            return False
        path = saves.saves_dir() / f"{campaign_id}-{time.strftime('%Y%m%d-%H%M%S')}{saves.SUFFIX}"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            chosen = {s: p for s, p in players.items() if p is not None}
            play = CampaignPlay.new(ruleset, campaign_id, chosen, None, path)
        except (PlanspielError, ValueError, OSError) as err:
            self.notify(str(err), title="Cannot start the campaign", severity="error", timeout=10)
            return False
        return self.start_campaign_battle(play)

    def start_campaign_battle(self, play: Any) -> bool:
        """Put a campaign's battle under way on the table."""
        from .session import Session  # noqa: PLC0415 - imported when the first game starts

        try:
            session = Session.for_campaign(play, autosave=self.autosave_enabled)
        except (PlanspielError, ValueError) as err:
            self.notify(str(err), title="Cannot start the battle", severity="error", timeout=12)
            return False
        session.autosave()
        self.start_session(session)
        return True

    def show_between_battles(self, play: Any) -> None:
        """The between-battles screen of a campaign (its end, when it is over)."""
        from .screens.campaign import CampaignScreen  # noqa: PLC0415 - imported when first shown

        self._pop_to_base()
        self.session = None
        self.push_screen(CampaignScreen(play))

    def _finish_campaign_battle(self, session: Session) -> None:
        """A campaign battle has ended: the carry-over applied and saved, then the between-battles screen."""
        play = session.campaign
        viewer = session.humans[0] if session.humans else session.info.sides[0].id
        losses = dict(session.presenter.losses(session.client(viewer).view()))
        try:
            play.finish_battle(losses)
        except (PlanspielError, ValueError, OSError) as err:
            self.notify(str(err), title="The campaign was not saved", severity="error", timeout=12)
        self.show_between_battles(play)

    def action_campaign_force(self) -> None:
        """Review the campaign's force (in a campaign battle or between battles)."""
        from .screens.campaign import CampaignScreen, ForceScreen  # noqa: PLC0415 - imported when first shown

        play = self.session.campaign if self.session is not None else None
        if play is None and isinstance(self.screen, CampaignScreen):
            play = self.screen.play
        if play is None:
            self.notify("Not in a campaign: there is no force to review.", severity="warning")
            return
        if isinstance(self.screen, ForceScreen):
            return
        self.push_screen(ForceScreen(play))

    def continue_game(self) -> bool:
        """Load the last save (the title screen's Continue)."""
        last = find_last_save()
        if last is None:
            self.notify("There is no saved game to continue yet.", severity="warning")
            return False
        return self.load_game(last.path)

    def save_game(self, session: Session) -> None:
        """Save by hand and say where."""
        try:
            path = session.save()
        except (PlanspielError, ValueError, OSError) as err:
            self.notify(str(err), title="Not saved", severity="error", timeout=10)
            return
        self.notify(f"Saved to {path}", title="Saved")

    def needs_handoff(self, session: Session, waiting: Waiting | None = None) -> bool:
        """True if control passing between two humans needs the blank hand-off screen: as the settings say
        (``always``, ``never``), else (``hidden``) when the next decision is secret (``waiting``, as the side taking
        over sees it) or the game hides something from a side."""
        mode = self.settings.handoff
        if mode == "never" or len(session.humans) < 2:
            return False
        if mode == "always" or (waiting is not None and waiting.secret):
            return True
        return session.has_hidden_information()

    def push_handoff(self, session: Session, side: str, callback: Callable[[str], None]) -> None:
        """Show the hand-off screen for ``side``, then call ``callback(side)``."""
        client = session.client(side)
        for other in session.humans:
            if other != side:
                self._seen[other] = session.client(other).event_count
        summary = client.events_since(self._seen.get(side, 0))
        from .screens.handoff import HandoffScreen  # noqa: PLC0415 - imported when first shown

        words = None if session.log_ids else UnitNames(client.view(), session.presenter)
        self.push_screen(
            HandoffScreen(side, session.info.side_name(side), summary, words),
            lambda result: callback(result or side),
        )

    def handed_on(self, session: Session, side: str) -> None:
        """Control left ``side`` without a hand-off screen: its next hand-off summary starts here (it listed every
        event since the set-up when the hand-off was switched on mid-game, issue 18 item 9)."""
        if session.is_human(side):
            self._seen[side] = session.client(side).event_count

    def show_end(self, session: Session) -> None:
        """The end-of-game screen (once per game)."""
        if self._end_shown:
            return
        self._end_shown = True
        if session.campaign is not None:
            self._finish_campaign_battle(session)
            return
        from .screens.endgame import EndGameScreen  # noqa: PLC0415 - imported when first shown

        self.push_screen(EndGameScreen(session))

    # --- Command palette --------------------------------------------------------------------------------

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """Every command of the app and of the current screen."""
        yield from super().get_system_commands(screen)
        yield SystemCommand("New game", "Start a new game", self.open_new_game)
        yield SystemCommand("Load game", "Continue a saved game", self.open_load)
        commands = getattr(screen, "palette_commands", None)
        if not callable(commands):  # at the table, the last game is the one being played (issue 18 item 9)
            yield SystemCommand("Continue", "Continue the last game", self.continue_game)
        if self.session is not None and self.session.campaign is not None:
            yield SystemCommand("Campaign force", "Review the campaign's force (F4)", self.action_campaign_force)
        yield SystemCommand("Rules reference", "The ruleset's player's reference, searchable", self.open_rules)
        yield SystemCommand("Settings", "Theme, hand-off, AI pace, key bindings", self.open_settings)
        yield SystemCommand("Help", "The keys of this screen", self.action_help)
        for name in THEME_NAMES:
            yield SystemCommand(f"Theme: {name}", f"Use the {name} theme", lambda n=name: self._set_theme(n))
        if callable(commands):  # the game screen's: save, its keys, its modes' own commands
            for title, text, callback in commands():
                yield SystemCommand(title, text, callback)

    def _set_theme(self, name: str) -> None:
        self.settings.theme = name
        self.apply_theme()
        self.save_settings()


def run(start: Start | None = None) -> int:
    """Run the app until the player quits; returns the exit status."""
    app = PlanspielApp(start)
    app.run()
    return int(app.return_code or 0)
