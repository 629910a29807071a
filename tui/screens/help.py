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
    return {"question_mark": "?", "colon": ":", "slash": "/", "space": "space", "escape": "esc"}.get(key, key)


def _node_name(node: object) -> str:
    """The class name a heading shows (``GameScreen``), or the screen's own name for itself (``TacticScreen``)."""
    name = getattr(node, "help_name", None)
    return f"{name.title()}Screen" if isinstance(name, str) else type(node).__name__


def bindings_table(screen: Screen[object]) -> Table:
    """A table of every key the screen (with its focused widget and the app) answers to now.

    Keys come from the live bindings (so a remapped key shows as remapped); the text is the node's own words for
    the key (``key_help``, the game screen's: the interaction mode's words), else its ``KEY_HELP`` entry for the
    binding id, else the binding's description. Keys for actions that are not legal now are dim.
    """
    table = Table(show_header=True, header_style="bold", expand=True, box=None, padding=(0, 1))
    table.add_column("keys", no_wrap=True)
    table.add_column("what they do")
    groups: dict[tuple[str, str], tuple[list[str], Binding, bool, str]] = {}
    for key, active in screen.active_bindings.items():
        node_name = _node_name(active.node)
        b = active.binding
        key_help = getattr(active.node, "key_help", None)
        help_map: dict[str, str] = getattr(type(active.node), "KEY_HELP", None) or {}
        text = (key_help(b) if callable(key_help) else help_map.get(b.id or "", b.description)) or b.action
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
        Binding("escape,question_mark,enter,backspace", "leave", "Close", id="help.close"),
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
        name = _node_name(self.below).replace("Screen", "").lower() or "this"
        with VerticalScroll():
            yield Static(Text(f"Keys of the {name} screen", style="bold"))
            yield Static(self.table, id="help-table")
            yield Static(Text("enter, escape or ? closes this help; p opens the command palette", style="dim"))

    def action_leave(self) -> None:
        """Close the help."""
        self.dismiss(None)
