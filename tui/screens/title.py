"""Provides the title screen: continue the last game, new game, load, rules reference, settings, quit."""

from __future__ import annotations

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
from ..session import LastSave, find_last_save

__all__ = ["TitleScreen"]

BANNER = r"""
 ____  _                       _      _
|  _ \| | __ _ _ __  ___ _ __ (_) ___| |
| |_) | |/ _` | '_ \/ __| '_ \| |/ _ \ |
|  __/| | (_| | | | \__ \ |_) | |  __/ |
|_|   |_|\__,_|_| |_|___/ .__/|_|\___|_|
                        |_|
"""


class TitleScreen(Screen[None]):
    """The first screen: a menu."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "choose('continue')", "Continue", id="title.continue"),
        Binding("n", "choose('new')", "New game", id="title.new"),
        Binding("l", "choose('open')", "Load", id="title.load"),
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
        self.rebuild()

    def on_screen_resume(self) -> None:
        self.rebuild()

    def rebuild(self) -> None:
        """Read the last save again and rebuild the menu."""
        self.last = find_last_save()
        menu = self.query_one("#menu", OptionList)
        menu.clear_options()
        if self.last is not None:
            state = "finished" if self.last.over else f"turn {self.last.turn}"
            label = Text("Continue", style="bold")
            label.append(f" — {self.last.title}, {state}", style="")
            menu.add_option(Option(label, id="continue"))
        else:
            menu.add_option(Option(Text("Continue — no saved game yet", style="dim"), id="continue", disabled=True))
        for oid, text in (
            ("new", "New game"),
            ("open", "Load a saved game"),
            ("rules", "Rules reference"),
            ("settings", "Settings"),
            ("quit", "Quit"),
        ):
            menu.add_option(Option(text, id=oid))
        menu.highlighted = 0 if self.last is not None else 1
        menu.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Run the chosen entry."""
        event.stop()
        if event.option.id:
            self.action_choose(event.option.id)

    def action_choose(self, what: str) -> None:
        """Run a menu entry."""
        app = self.planspiel
        if what == "continue":
            if self.last is None:
                self.notify("There is no saved game to continue yet.", severity="warning")
                return
            app.load_game(self.last.path)
        elif what == "new":
            app.open_new_game()
        elif what == "open":
            app.open_load()
        elif what == "rules":
            app.open_rules()
        elif what == "settings":
            app.open_settings()
        elif what == "quit":
            app.exit(0)
