"""Provides the modal dialogs: a list of choices, a confirmation (fire with its odds), and "terminal too small"."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Generic, TypeVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

__all__ = ["MIN_SIZE", "ChoiceDialog", "ConfirmDialog", "TooSmallScreen"]

T = TypeVar("T")

MIN_SIZE = (80, 24)
"""The smallest terminal the game is laid out for."""


class ChoiceDialog(ModalScreen[T | None], Generic[T]):
    """A list of choices with their explanations; returns the chosen value, or None to look at the map.

    Args:
        title: the question (what the engine is waiting for).
        items: (value, label) pairs, in the order shown.
        dismissable: whether the player may close the list without choosing (to look at the map first).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,backspace,m", "look", "Look at the map", id="choice.look"),
        *(Binding(str(i), f"pick({i - 1})", f"Choose {i}", show=False, id=f"choice.{i}") for i in range(1, 10)),
        Binding("question_mark", "app.help", "Help", key_display="?", show=False, id="choice.help"),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | up, down, enter | Move through the list and choose. |
    | 1 … 9 | Choose the option with that number. |
    | m, escape, backspace | Close the list to look at the map (reopen it with o). |
    | ? | The keys of this list (a modal screen holds back the app's own ?). |
    """

    DEFAULT_CSS = """
    ChoiceDialog {
        align: center middle;
    }
    ChoiceDialog > Vertical {
        width: 90%;
        max-width: 110;
        height: auto;
        max-height: 90%;
        border: thick $primary;
        background: $surface;
        padding: 0 1;
    }
    ChoiceDialog #choice-title {
        text-style: bold;
        margin-bottom: 1;
    }
    ChoiceDialog OptionList {
        height: auto;
        max-height: 20;
    }
    ChoiceDialog #choice-help {
        color: $text-muted;
    }
    """

    def __init__(self, title: str, items: Sequence[tuple[T, Text | str]], *, dismissable: bool = True) -> None:
        super().__init__()
        self.title_text = title
        self.items = list(items)
        self.dismissable = dismissable

    def compose(self) -> ComposeResult:
        options = []
        for i, (_, label) in enumerate(self.items, start=1):
            prompt = Text(f"{i}. " if i <= 9 else "   ")
            prompt.append_text(label if isinstance(label, Text) else Text(label))
            options.append(Option(prompt, id=f"choice-{i - 1}"))
        with Vertical():
            yield Static(self.title_text, id="choice-title")
            yield OptionList(*options, id="choices")
            help_text = "enter or 1–9: choose"
            if self.dismissable:
                help_text += " · m: look at the map first (o reopens the list)"
            yield Static(help_text, id="choice-help")

    def on_mount(self) -> None:
        ol = self.query_one(OptionList)
        ol.highlighted = 0 if self.items else None
        ol.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Choose the selected option."""
        event.stop()
        self.dismiss(self.items[event.option_index][0])

    def action_look(self) -> None:
        """Close the list without choosing."""
        if self.dismissable:
            self.dismiss(None)

    def action_pick(self, index: int) -> None:
        """Choose the option at ``index`` (keys 1–9)."""
        if 0 <= index < len(self.items):
            self.dismiss(self.items[index][0])


class ConfirmDialog(ModalScreen[bool]):
    """A question with details (a shot's line of sight, range and exact odds); Enter or y confirms."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,y", "answer(True)", "Confirm", id="confirm.yes"),
        Binding("n,escape,backspace", "answer(False)", "Cancel", id="confirm.no"),
        Binding("question_mark", "app.help", "Help", key_display="?", show=False, id="confirm.help"),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | enter, y | Confirm. |
    | n, escape, backspace | Cancel. |
    | ? | The keys of this question. |
    """

    DEFAULT_CSS = """
    ConfirmDialog {
        align: center middle;
    }
    ConfirmDialog > Vertical {
        width: 90%;
        max-width: 100;
        height: auto;
        max-height: 90%;
        border: thick $accent;
        background: $surface;
        padding: 0 1;
    }
    ConfirmDialog #confirm-title {
        text-style: bold;
    }
    ConfirmDialog #confirm-help {
        color: $text-muted;
        margin-top: 1;
    }
    """

    def __init__(self, title: str, lines: Sequence[Text | str]) -> None:
        super().__init__()
        self.title_text = title
        self.lines = list(lines)

    def compose(self) -> ComposeResult:
        body = Text("\n").join(x if isinstance(x, Text) else Text(x) for x in self.lines)
        with Vertical():
            yield Static(self.title_text, id="confirm-title")
            yield Static(body, id="confirm-body")
            yield Static("enter or y: confirm · n or backspace: cancel", id="confirm-help")

    def action_answer(self, answer: bool) -> None:
        """Close with the answer."""
        self.dismiss(answer)


class TooSmallScreen(ModalScreen[None]):
    """Shown while the terminal is smaller than 80×24: says what size is needed."""

    DEFAULT_CSS = """
    TooSmallScreen {
        align: center middle;
        background: $background;
    }
    TooSmallScreen Static {
        width: auto;
        height: auto;
        text-align: center;
    }
    """

    def __init__(self, size: tuple[int, int]) -> None:
        super().__init__()
        self.size_now = size

    def compose(self) -> ComposeResult:
        yield Static(self.message(), id="too-small")

    def message(self) -> str:
        """The sentence shown."""
        w, h = self.size_now
        return f"Planspiel needs a terminal of at least {MIN_SIZE[0]}×{MIN_SIZE[1]};\nthis one is {w}×{h}."

    def on_screen_resume(self) -> None:
        """Uncovered again: go away if the terminal has grown meanwhile."""
        w, h = self.app.size
        if w >= MIN_SIZE[0] and h >= MIN_SIZE[1]:
            self.dismiss(None)
        else:
            self.update_size((w, h))

    def update_size(self, size: tuple[int, int]) -> None:
        """The terminal changed size but is still too small."""
        self.size_now = size
        for label in self.query("#too-small").results(Static):
            label.update(self.message())
