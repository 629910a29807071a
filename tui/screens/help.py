"""Provides the help screen: the keys of the screen below it (as remapped), with what each does."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

__all__ = ["HelpScreen", "bindings_table"]


def _key_name(key: str) -> str:
    return {"question_mark": "?", "colon": ":", "space": "space", "escape": "esc"}.get(key, key)


def bindings_table(screen: Screen[object]) -> Table:
    """A table of every key the screen (with its focused widget and the app) answers to now.

    Keys come from the live bindings (so a remapped key shows as remapped); the text is the node's ``HELP``
    entry for the binding id, else the binding's description. Keys for actions that are not legal now are dim.
    """
    table = Table(show_header=True, header_style="bold", expand=True, box=None, padding=(0, 1))
    table.add_column("keys", no_wrap=True)
    table.add_column("what they do")
    groups: dict[tuple[str, str], tuple[list[str], Binding, bool, str]] = {}
    for key, active in screen.active_bindings.items():
        node_name = type(active.node).__name__
        b = active.binding
        help_map: dict[str, str] = getattr(type(active.node), "KEY_HELP", None) or {}
        text = help_map.get(b.id or "", b.description) or b.action
        entry = groups.setdefault((node_name, b.action), ([], b, active.enabled, text))
        entry[0].append(_key_name(key))
    current = ""
    for (node_name, _), (keys, _b, enabled, text) in groups.items():
        if node_name != current:
            table.add_row(Text(node_name.replace("Screen", " screen"), style="bold underline"), "")
            current = node_name
        style = "" if enabled else "dim"
        table.add_row(Text(", ".join(keys), style=style), Text(text + ("" if enabled else " (not now)"), style=style))
    return table


class HelpScreen(ModalScreen[None]):
    """The keys of the screen below, from its live bindings."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,enter,backspace", "close", "Close", id="help.close"),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | enter, escape, ?, backspace | Close the help. |
    """

    DEFAULT_CSS = """
    HelpScreen {
        align: center middle;
    }
    HelpScreen VerticalScroll {
        width: 90%;
        max-width: 110;
        height: 90%;
        border: thick $primary;
        background: $surface;
        padding: 0 1;
    }
    """

    def __init__(self, below: Screen[object]) -> None:
        super().__init__()
        self.below = below
        self.table = bindings_table(below)

    def compose(self) -> ComposeResult:
        name = type(self.below).__name__.replace("Screen", "").lower() or "this"
        with VerticalScroll():
            yield Static(Text(f"Keys of the {name} screen", style="bold"))
            yield Static(self.table, id="help-table")
            yield Static(Text("enter, escape or ? closes this help; p opens the command palette", style="dim"))

    def action_close(self) -> None:
        """Close the help."""
        self.dismiss(None)
