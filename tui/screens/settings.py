"""Provides the settings screen: theme, hot-seat hand-off, AI pace and key bindings, saved at once."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Input, RadioButton, RadioSet, Select, Static

from ..host import Host
from ..settings import HANDOFF_MODES
from ..theme import THEME_NAMES

__all__ = ["SettingsScreen", "remappable_bindings"]

_PACES = ((0.0, "no pause"), (0.2, "0.2 s"), (0.5, "0.5 s"), (1.0, "1 s"))


def remappable_bindings() -> list[tuple[str, str, str]]:
    """(binding id, default keys, description) of every binding a player can remap."""
    from ..widgets.hexmap import HexMap  # noqa: PLC0415
    from .game import GameScreen  # noqa: PLC0415

    out: dict[str, tuple[str, str, str]] = {}
    for cls in (HexMap, GameScreen):
        for b in cls.BINDINGS:
            if not isinstance(b, Binding) or not b.id:
                continue
            if b.id in out:  # one binding split per key, or the same id in two modes: all its keys, once
                bid, keys, text = out[b.id]
                if b.key not in keys.split(","):
                    out[b.id] = (bid, f"{keys},{b.key}", text)
                continue
            out[b.id] = (b.id, b.key, getattr(cls, "KEY_HELP", {}).get(b.id, b.description))
    return list(out.values())


class SettingsScreen(Screen[None]):
    """Change the theme, the hand-off, the AI pace and key bindings; every change is saved at once."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back", id="settings.back"),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | tab, shift+tab | Move between the settings. |
    | enter | On a key binding: type new keys (comma-separated), enter to keep them. |
    | escape | Back. |
    """

    DEFAULT_CSS = """
    SettingsScreen VerticalScroll {
        padding: 0 1;
    }
    SettingsScreen .title {
        text-style: bold;
        margin-top: 1;
    }
    SettingsScreen RadioSet {
        height: auto;
        width: auto;
    }
    SettingsScreen #row {
        height: auto;
    }
    SettingsScreen #keys {
        height: 12;
    }
    SettingsScreen #key-input {
        display: none;
    }
    SettingsScreen #key-input.visible {
        display: block;
    }
    """

    def __init__(self) -> None:
        super().__init__()
        self.editing: str | None = None

    @property
    def planspiel(self) -> Host:
        """The app (as the screens use it)."""
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        s = self.planspiel.settings
        with VerticalScroll():
            yield Static("Settings (saved as soon as you change them)", classes="title")
            with Horizontal(id="row"):
                with Vertical():
                    yield Static("Theme", classes="title")
                    with RadioSet(id="theme"):
                        for name in THEME_NAMES:
                            yield RadioButton(name, value=name == s.theme, name=name)
                with Vertical():
                    yield Static("Hot-seat hand-off screen", classes="title")
                    with RadioSet(id="handoff"):
                        for mode, text in HANDOFF_MODES.items():
                            yield RadioButton(text, value=mode == s.handoff, name=mode)
            yield Static("Pause after each AI action", classes="title")
            yield Select(
                [(label, str(v)) for v, label in _PACES],
                value=str(s.ai_delay) if any(v == s.ai_delay for v, _ in _PACES) else "0.2",
                allow_blank=False,
                id="pace",
            )
            yield Static("Key bindings (enter on a row to change it)", classes="title")
            yield DataTable(id="keys", cursor_type="row")
            yield Input(placeholder="new keys, comma-separated (e.g. f,F); empty: default", id="key-input")
            if self.planspiel.no_color:
                yield Static("NO_COLOR is set: the monochrome theme is used whatever is chosen here.")
        yield Footer()

    def on_mount(self) -> None:
        self.fill_keys()

    def fill_keys(self) -> None:
        """List the bindings with the keys in force."""
        table = self.query_one("#keys", DataTable)
        table.clear(columns=True)
        table.add_columns("binding", "keys", "what it does")
        keymap = self.planspiel.settings.keymap
        for bid, keys, text in remappable_bindings():
            table.add_row(bid, keymap.get(bid, keys), text, key=bid)

    @on(RadioSet.Changed, "#theme")
    def _theme(self, event: RadioSet.Changed) -> None:
        name = event.pressed.name
        if name:
            self.planspiel.settings.theme = name
            self.planspiel.apply_theme()
            self.planspiel.save_settings()

    @on(RadioSet.Changed, "#handoff")
    def _handoff(self, event: RadioSet.Changed) -> None:
        if event.pressed.name:
            self.planspiel.settings.handoff = event.pressed.name
            self.planspiel.save_settings()

    @on(Select.Changed, "#pace")
    def _pace(self, event: Select.Changed) -> None:
        if isinstance(event.value, str):
            self.planspiel.settings.ai_delay = float(event.value)
            self.planspiel.save_settings()

    @on(DataTable.RowSelected, "#keys")
    def _edit_key(self, event: DataTable.RowSelected) -> None:
        self.editing = str(event.row_key.value)
        box = self.query_one("#key-input", Input)
        box.value = self.planspiel.settings.keymap.get(self.editing, "")
        box.add_class("visible")
        box.focus()

    @on(Input.Submitted, "#key-input")
    def _key_entered(self, event: Input.Submitted) -> None:
        box = self.query_one("#key-input", Input)
        box.remove_class("visible")
        if self.editing is not None:
            keys = ",".join(k.strip() for k in event.value.split(",") if k.strip())
            if keys:
                self.planspiel.settings.keymap[self.editing] = keys
            else:
                self.planspiel.settings.keymap.pop(self.editing, None)
            self.planspiel.apply_keymap()
            self.planspiel.save_settings()
        self.editing = None
        self.fill_keys()
        self.query_one("#keys", DataTable).focus()

    def action_back(self) -> None:
        """Back."""
        box = self.query_one("#key-input", Input)
        if box.has_class("visible"):
            box.remove_class("visible")
            self.query_one("#keys", DataTable).focus()
            return
        self.dismiss(None)
