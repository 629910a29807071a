"""Provides the rules reference: a ruleset's player's reference (or its developer README), searchable.

The files sit next to the ruleset's module: ``REFERENCE.md`` for players, ``README.md`` for developers. The
Markdown is rendered once per width into plain lines, so that a search can find a line, highlight it and scroll
it to the top.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Input, Static

import engine
from engine.errors import PlanspielError

if TYPE_CHECKING:
    from textual import events

__all__ = ["RulesScreen", "rules_file", "rules_readme", "rules_reference"]

READER = "REFERENCE.md"
"""The player's reference of a ruleset, next to its module."""

DEVELOPER = "README.md"
"""The developer README of a ruleset, next to its module."""


def rules_file(ruleset: str, name: str) -> Path | None:
    """The file ``name`` in a ruleset's package, if it has one."""
    try:
        rs = engine.get_ruleset(ruleset)
    except PlanspielError:
        return None
    path = Path(inspect.getfile(type(rs))).parent / name
    return path if path.is_file() else None


def rules_readme(ruleset: str) -> Path | None:
    """The developer README of a ruleset package, if it has one."""
    return rules_file(ruleset, DEVELOPER)


def rules_reference(ruleset: str) -> Path | None:
    """The player's reference of a ruleset package, if it has one."""
    return rules_file(ruleset, READER)


@dataclass
class _Search:
    """The text searched for and the line of the match shown (None: none yet)."""

    text: str = ""
    line: int | None = None


class RulesScreen(Screen[None]):
    """The rules reference: the player's reference of a ruleset, its developer README with d, searchable with /."""

    DEFAULT_CSS = """
    RulesScreen #rules-title { height: 1; background: $boost; text-style: bold; }
    RulesScreen #rules-status { height: 1; color: $text-muted; }
    RulesScreen #rules-search { display: none; }
    RulesScreen #rules-search.open { display: block; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark", "app.help", "Help", key_display="?", id="rules.help"),
        Binding("escape,backspace,q", "back", "Back", id="rules.back"),
        Binding("slash", "search", "Search", key_display="/", id="rules.search"),
        Binding("n", "next_match", "Next", id="rules.next"),
        Binding("d", "switch_document", "Dev notes", id="rules.document"),
        Binding("r", "next_ruleset", "Ruleset", id="rules.ruleset"),
        Binding("down,j", "scroll(1)", "Down", show=False, id="rules.down"),
        Binding("up,k", "scroll(-1)", "Up", show=False, id="rules.up"),
        Binding("home,g", "top", "Top", show=False, id="rules.top"),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | / | Search: type a text, Enter jumps to the next line holding it (case-insensitive). |
    | n | The next match of the last search (from the top again after the last). |
    | d | Switch between the player's reference and the developer notes (README). |
    | r | The next installed ruleset. |
    | up, down, page up, page down, home | Scroll. |
    | escape, backspace, q | Back (escape in the search field closes it). |
    """

    KEY_HELP: ClassVar[dict[str, str]] = {
        "rules.back": "back to where you came from",
        "rules.search": "search: type a text, Enter jumps to the next line holding it (case-insensitive)",
        "rules.next": "the next match of the last search (from the top again after the last)",
        "rules.document": "switch between the player's reference and the developer notes (the ruleset's README)",
        "rules.ruleset": "the next installed ruleset (the title line names them)",
        "rules.help": "these keys",
        "rules.down": "scroll down",
        "rules.up": "scroll up",
        "rules.top": "back to the top",
    }
    """Binding id → what the help screen says."""

    def __init__(self, ruleset: str | None = None) -> None:
        super().__init__()
        found = [n for n in engine.ruleset_names() if rules_reference(n) or rules_readme(n)]
        self.rulesets: list[str] = found
        """The installed rulesets with a reference or a README, in registry order."""
        self.index = found.index(ruleset) if ruleset in found else 0
        self.developer = False
        """Whether the developer README is shown instead of the player's reference."""
        self.search = _Search()
        self.lines: list[Text] = []
        """The document as rendered at the screen's width, one Text per line."""
        self.body = Text()
        """What the screen shows: the lines, the match highlighted."""
        self._width = 0

    # --- What is shown ----------------------------------------------------------------------------------

    @property
    def ruleset(self) -> str | None:
        """The ruleset shown (None: no installed ruleset has a reference)."""
        return self.rulesets[self.index] if self.rulesets else None

    @property
    def path(self) -> Path | None:
        """The file shown: the player's reference, or the README (either when the other is missing)."""
        rs = self.ruleset
        if rs is None:
            return None
        first, second = (rules_readme, rules_reference) if self.developer else (rules_reference, rules_readme)
        return first(rs) or second(rs)

    def _text(self) -> str:
        path = self.path
        if path is None:
            return "# Rules reference\n\nNo installed ruleset has a reference yet."
        try:
            return path.read_text(encoding="utf-8")
        except OSError as err:
            return f"# Rules reference\n\n{path} cannot be read: {err}"

    def _title(self) -> str:
        rs = self.ruleset
        if rs is None:
            return "Rules reference"
        path = self.path
        kind = "developer notes" if path is not None and path.name == DEVELOPER else "player's reference"
        others = f" · r: ruleset {self.index + 1}/{len(self.rulesets)}" if len(self.rulesets) > 1 else ""
        other_doc = "reference" if kind == "developer notes" else "developer notes"
        return f"{rs} · {kind} · d: {other_doc}{others}"

    def compose(self) -> ComposeResult:
        yield Static(self._title(), id="rules-title")
        with VerticalScroll(id="rules-scroll"):
            yield Static("", id="rules")
        yield Static("/ search · n next match · d developer notes · ? keys", id="rules-status")
        yield Input(placeholder="search the reference (Enter: next line holding it, Escape: close)", id="rules-search")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#rules-scroll", VerticalScroll).focus()
        self._render_document()

    def on_resize(self, event: events.Resize) -> None:
        """Render the document again at the new width."""
        self._render_document()

    def _render_document(self, force: bool = False) -> None:
        from rich.markdown import Markdown  # noqa: PLC0415 - only this screen renders Markdown

        width = max(20, self.size.width - 2)
        if width == self._width and not force:
            return
        self._width = width
        console = self.app.console
        options = console.options.update_width(width)
        # Rich's Markdown renders a long file at once (Textual's Markdown widget builds a widget per block).
        rendered = console.render_lines(Markdown(self._text()), options, pad=False)
        self.lines = [Text.assemble(*((seg.text, seg.style) for seg in line if not seg.control)) for line in rendered]
        self._show()

    def _show(self) -> None:
        """Put the lines on the screen, the match highlighted."""
        lines = list(self.lines)
        if self.search.line is not None and self.search.line < len(lines):
            lines[self.search.line] = lines[self.search.line].copy()
            lines[self.search.line].stylize("reverse")
        self.body = Text("\n").join(lines)
        self.query_one("#rules", Static).update(self.body)
        self.query_one("#rules-title", Static).update(self._title())

    def _say(self, words: str) -> None:
        self.query_one("#rules-status", Static).update(words)

    # --- Search -----------------------------------------------------------------------------------------

    def action_search(self) -> None:
        """Open the search field."""
        field = self.query_one("#rules-search", Input)
        field.add_class("open")
        field.value = self.search.text
        field.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in the search field: jump to the next line holding the text."""
        event.stop()
        text = event.value.strip()
        if text != self.search.text:
            self.search = _Search(text)
        self._close_search()
        self.action_next_match()

    def on_key(self, event: events.Key) -> None:
        """Escape in the search field closes it (and leaves the screen open)."""
        field = self.query_one("#rules-search", Input)
        if event.key == "escape" and field.has_focus:
            event.stop()
            event.prevent_default()
            self._close_search()

    def _close_search(self) -> None:
        self.query_one("#rules-search", Input).remove_class("open")
        self.query_one("#rules-scroll", VerticalScroll).focus()

    def action_next_match(self) -> None:
        """The next line holding the searched text, from the top again after the last."""
        needle = self.search.text.lower()
        if not needle:
            self._say("Nothing searched yet: / opens the search.")
            return
        plain = [line.plain.lower() for line in self.lines]
        start = -1 if self.search.line is None else self.search.line
        order = [*range(start + 1, len(plain)), *range(0, start + 1)]
        hit = next((i for i in order if needle in plain[i]), None)
        if hit is None:
            self.search.line = None
            self._show()
            self._say(f"No match for “{self.search.text}”.")
            return
        wrapped = self.search.line is not None and hit <= self.search.line
        self.search.line = hit
        self._show()
        self.query_one("#rules-scroll", VerticalScroll).scroll_to(y=hit, animate=False)
        total = sum(needle in p for p in plain)
        rank = sum(needle in p for p in plain[: hit + 1])
        again = " (from the top again)" if wrapped else ""
        self._say(f"“{self.search.text}”: match {rank} of {total}, line {hit + 1}{again} · n next")

    # --- Document and ruleset ---------------------------------------------------------------------------

    def action_switch_document(self) -> None:
        """Switch between the player's reference and the developer README."""
        self.developer = not self.developer
        self._reload()

    def action_next_ruleset(self) -> None:
        """The next installed ruleset's reference."""
        if len(self.rulesets) < 2:
            self._say("Only one ruleset is installed.")
            return
        self.index = (self.index + 1) % len(self.rulesets)
        self.developer = False
        self._reload()

    def _reload(self) -> None:
        self.search.line = None
        self._render_document(force=True)
        self.query_one("#rules-scroll", VerticalScroll).scroll_home(animate=False)
        self._say("/ search · n next match · d developer notes · r ruleset · ? keys")

    def action_scroll(self, lines: int) -> None:
        """Scroll by lines."""
        self.query_one("#rules-scroll", VerticalScroll).scroll_relative(y=lines, animate=False)

    def action_top(self) -> None:
        """Back to the top."""
        self.query_one("#rules-scroll", VerticalScroll).scroll_home(animate=False)

    def action_back(self) -> None:
        """Back."""
        self.dismiss(None)
