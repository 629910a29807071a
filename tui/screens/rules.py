"""Provides the rules reference: a ruleset's README, rendered as Markdown."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

import engine
from engine.errors import PlanspielError

__all__ = ["RulesScreen", "rules_readme"]


def rules_readme(ruleset: str) -> Path | None:
    """The README of a ruleset package, if it has one."""
    try:
        rs = engine.get_ruleset(ruleset)
    except PlanspielError:
        return None
    path = Path(inspect.getfile(type(rs))).parent / "README.md"
    return path if path.is_file() else None


class RulesScreen(Screen[None]):
    """The rules reference of one ruleset (the first with a README unless one is named)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,backspace,q", "back", "Back", id="rules.back"),
        Binding("down,j", "scroll(1)", "Down", show=False, id="rules.down"),
        Binding("up,k", "scroll(-1)", "Up", show=False, id="rules.up"),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | up, down, page up, page down | Scroll. |
    | escape, backspace, q | Back. |
    """

    def __init__(self, ruleset: str | None = None) -> None:
        super().__init__()
        names = [ruleset] if ruleset else engine.ruleset_names()
        self.path = next((p for p in (rules_readme(n) for n in names) if p is not None), None)

    def compose(self) -> ComposeResult:
        if self.path is None:
            text = "# Rules reference\n\nNo installed ruleset has a README yet."
        else:
            try:
                text = self.path.read_text(encoding="utf-8")
            except OSError as err:
                text = f"# Rules reference\n\n{self.path} cannot be read: {err}"
        from rich.markdown import Markdown  # noqa: PLC0415 - only this screen renders Markdown

        with VerticalScroll(id="rules-scroll"):
            # Rich's Markdown renders a long README at once (Textual's Markdown widget builds a widget per block).
            yield Static(Markdown(text), id="rules")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#rules-scroll", VerticalScroll).focus()

    def action_scroll(self, lines: int) -> None:
        """Scroll by lines."""
        self.query_one("#rules-scroll", VerticalScroll).scroll_relative(y=lines, animate=False)

    def action_back(self) -> None:
        """Back."""
        self.dismiss(None)
