"""Provides the hot-seat hand-off screen: a blank screen until the next player presses Enter, then a summary."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Middle
from textual.screen import Screen
from textual.widgets import Static

from engine import Event

__all__ = ["HandoffScreen"]


class HandoffScreen(Screen[str]):
    """Hides the table while the players change seats; returns the side that takes over.

    Args:
        side: the side that decides next.
        side_name: its display name.
        summary: what that side saw since its last decision (its view of the events), shown after Enter.
        words: words each line for the player (units named from that side's view, :class:`tui.names.UnitNames`);
            None: the events as written (the raw ids).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space", "next", "Continue", id="handoff.continue"),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | enter, space | Show the summary, then go back to the table. |
    """

    DEFAULT_CSS = """
    HandoffScreen {
        background: $background;
        align: center middle;
    }
    HandoffScreen #handoff-text {
        width: auto;
        max-width: 90;
        height: auto;
        text-align: center;
        padding: 1 2;
        border: double $primary;
    }
    """

    def __init__(
        self, side: str, side_name: str, summary: list[Event], words: Callable[[str], str] | None = None
    ) -> None:
        super().__init__()
        self.side = side
        self.side_name = side_name
        self.summary = summary
        self.words = words
        self.stage = 0

    def compose(self) -> ComposeResult:
        with Middle(), Center():
            yield Static(Text(f"{self.side_name} player: press Enter", style="bold"), id="handoff-text")

    def action_next(self) -> None:
        """First Enter: the summary (if anything happened); second: back to the table."""
        if self.stage == 0 and self.summary:
            self.stage = 1
            text = Text(f"{self.side_name}: since your last decision\n\n", style="bold")
            for e in self.summary[-14:]:
                text.append(f"· {self.words(e.text) if self.words else e.text}\n", style="")
            if len(self.summary) > 14:
                text.append(f"(and {len(self.summary) - 14} earlier events in the log)\n", style="dim")
            text.append("\nPress Enter to play", style="bold")
            self.query_one("#handoff-text", Static).update(text)
            return
        self.dismiss(self.side)
