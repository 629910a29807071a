"""Provides the title screen: continue the last game, new game, load, rules reference, settings, quit.

The screen is drawn before the saves are read (the saves package imports the engine's game facade): its menu
opens with ``Continue`` as a plain entry, and the last save is looked up right after the title is on the
terminal, in the event loop, so that a key pressed meanwhile waits for it and finds the menu complete (start-up
budget, DESIGN §11).
"""

from __future__ import annotations

import os
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Middle, Vertical
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

import engine

from ..host import Host
from ..lastsave import LastSave, find_last_save

__all__ = ["TitleScreen"]

BANNER = r"""
 ____  _                       _      _
|  _ \| | __ _ _ __  ___ _ __ (_) ___| |
| |_) | |/ _` | '_ \/ __| '_ \| |/ _ \ |
|  __/| | (_| | | | \__ \ |_) | |  __/ |
|_|   |_|\__,_|_| |_|___/ .__/|_|\___|_|
                        |_|
"""


_GUEST_MENU = (("lobby", "Lobby: watch games on this server"), ("rules", "Rules reference"), ("quit", "Quit"))
"""The title screen's menu in a guest's session."""

_NOT_FOR_GUESTS = ("continue", "new", "open", "settings")


def _guest() -> bool:
    """True in a guest's session of a Planspiel server (``ssh guest@HOST``): watching games only."""
    return bool(os.environ.get("PLANSPIEL_GUEST"))


class TitleScreen(Screen[None]):
    """The first screen: a menu."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "choose('continue')", "Continue", id="title.continue"),
        Binding("n", "choose('new')", "New game", id="title.new"),
        Binding("l", "choose('open')", "Load", id="title.load"),
        Binding("o", "choose('lobby')", "Lobby", id="title.lobby", show=False),
        Binding("r", "choose('rules')", "Rules", id="title.rules"),
        Binding("s", "choose('settings')", "Settings", id="title.settings"),
        Binding("q", "choose('quit')", "Quit", id="title.quit"),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | c | Continue the last game. |
    | n | Start a new game. |
    | l | Load a saved game. |
    | o | The lobby (on a Planspiel server): play others, watch. |
    | r | Read the rules reference. |
    | s | Settings: theme, hand-off, AI pace, keys. |
    | q | Quit. |
    """

    DEFAULT_CSS = """
    TitleScreen {
        align: center middle;
    }
    TitleScreen #banner {
        color: $primary;
        text-style: bold;
        width: auto;
    }
    TitleScreen #tagline {
        width: auto;
        color: $text-muted;
        margin-bottom: 1;
    }
    TitleScreen #menu {
        width: 60;
        height: auto;
        border: round $primary;
    }
    """

    def __init__(self) -> None:
        super().__init__()
        self.last: LastSave | None = None
        self.looked_up = False
        """True once the last save was looked up (the menu shows it)."""

    @property
    def planspiel(self) -> Host:
        """The app (as the screens use it)."""
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        with Middle(), Center(), Vertical(id="title-box"):
            yield Center(Static(BANNER.strip("\n"), id="banner"))
            yield Center(
                Static(f"a terminal wargame table · version {engine.__version__}", id="tagline"),
            )
            yield Center(OptionList(id="menu"))
        yield Footer()

    def on_mount(self) -> None:
        self._fill_menu(looked_up=False)
        if getattr(self.app, "first_frame_out", True):  # else the app calls look_up once its first frame is out
            self.call_after_refresh(self.look_up)

    def on_screen_resume(self) -> None:
        if self.looked_up or getattr(self.app, "first_frame_out", True):  # not when first shown at start-up
            self.rebuild()

    def look_up(self) -> None:
        """Look up the last save (once the title is on the terminal), unless that was done."""
        if not self.looked_up:
            self.rebuild()

    def rebuild(self) -> None:
        """Read the last save again and rebuild the menu."""
        moved = None if self.looked_up else self.query_one("#menu", OptionList).highlighted
        self.last = find_last_save()
        self.looked_up = True
        self._fill_menu(looked_up=True)
        if moved:  # the player moved in the first menu: the entries are the same, the choice stays
            self.query_one("#menu", OptionList).highlighted = moved

    def _fill_menu(self, *, looked_up: bool) -> None:
        """The menu; before the last save was looked up its first entry is a plain ``Continue``."""
        menu = self.query_one("#menu", OptionList)
        menu.clear_options()
        if _guest():
            for oid, text in _GUEST_MENU:
                menu.add_option(Option(text, id=oid))
            menu.highlighted = 0
            menu.focus()
            return
        if not looked_up:
            menu.add_option(Option(Text("Continue", style="bold"), id="continue"))
        elif self.last is not None:
            state = "finished" if self.last.over else f"turn {self.last.turn}"
            if self.last.campaign and not self.last.turn:
                state = "between battles"
            label = Text("Continue", style="bold")
            label.append(f" — {self.last.title}, {state}", style="")
            menu.add_option(Option(label, id="continue"))
        else:
            menu.add_option(Option(Text("Continue — no saved game yet", style="dim"), id="continue", disabled=True))
        on_server = bool(os.environ.get("PLANSPIEL_TABLES"))
        lobby = (("lobby", "Lobby: play others on this server, or watch"),) if on_server else ()
        for oid, text in (
            ("new", "New game"),
            *lobby,
            ("open", "Load a saved game"),
            ("rules", "Rules reference"),
            ("settings", "Settings"),
            ("quit", "Quit"),
        ):
            menu.add_option(Option(text, id=oid))
        menu.highlighted = 0 if self.last is not None or not looked_up else 1
        menu.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Run the chosen entry."""
        event.stop()
        if event.option.id:
            self.action_choose(event.option.id)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A guest's title screen has no keys for games of their own."""
        return not (_guest() and bool(parameters) and parameters[0] in _NOT_FOR_GUESTS)  # the menu's entries

    def action_choose(self, what: str) -> None:
        """Run a menu entry."""
        app = self.planspiel
        if _guest() and what in _NOT_FOR_GUESTS:
            self.notify("A guest may only watch games (the lobby, o): log in with a key to play.", severity="warning")
            return
        if not self.looked_up:  # not yet (a key cannot come before it: it waits in the event loop)
            self.rebuild()
        if what == "continue":
            if self.last is None:
                self.notify("There is no saved game to continue yet.", severity="warning")
                return
            app.load_game(self.last.path)
        elif what == "new":
            app.open_new_game()
        elif what == "open":
            app.open_load()
        elif what == "lobby":
            app.open_lobby()
        elif what == "rules":
            app.open_rules()
        elif what == "settings":
            app.open_settings()
        elif what == "quit":
            app.exit(0)
