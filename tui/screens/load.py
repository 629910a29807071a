"""Provides the load screen: the campaigns, then the saved games (autosaves too), newest first; a damaged file
shows why."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from ..host import Host
from ..lastsave import load_saves

__all__ = ["LoadScreen", "list_games"]

_TURN_COPY = re.compile(r"\.turn(\d+)\.planspiel$")


def list_games() -> list[tuple[Path, Any, str | None]]:
    """(path, header or None, error sentence or None) of every save, autosaves and turn copies included."""
    saves = load_saves()
    if saves is None:
        return []
    out: list[tuple[Path, Any, str | None]] = []
    for folder in (saves.saves_dir(), saves.autosave_dir()):
        try:
            entries = saves.list_saves(folder)
        except saves.SaveError as err:
            out.append((Path(folder), None, str(err)))
            continue
        for e in entries:
            out.append((e.path, e.header, str(e.error) if e.error else None))
    good = [x for x in out if x[1] is not None]
    good.sort(key=lambda x: x[1].updated, reverse=True)
    return good + [x for x in out if x[1] is None]


def _when(iso: str) -> str:
    try:
        return datetime.fromisoformat(iso).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return iso


class LoadScreen(Screen[None]):
    """Pick a save to continue."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,backspace", "back", "Back", id="load.back"),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | up, down, enter | Choose a campaign or a save and continue it. |
    | escape, backspace | Back to the title screen. |
    """

    DEFAULT_CSS = """
    LoadScreen #load-title {
        text-style: bold;
        padding: 0 1;
    }
    LoadScreen #saves {
        height: 1fr;
    }
    """

    def __init__(self) -> None:
        super().__init__()
        self.games = list_games()

    @property
    def planspiel(self) -> Host:
        """The app (as the screens use it)."""
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        yield Static("Campaigns, then saved games (newest first)", id="load-title")
        options = []
        campaigns = [i for i, (_, h, _) in enumerate(self.games) if h is not None and h.kind == "campaign"]
        for i in campaigns:  # campaigns apart from single games
            path, header, _ = self.games[i]
            where = f"battle: {header.title}, turn {header.turn}" if header.scenario else "between battles"
            label = Text(f"Campaign: {header.campaign_title or header.campaign}", style="bold")
            label.append(f"  {where}\n")
            label.append(f"  {_when(header.updated)} · {path.name}", style="dim")
            options.append(Option(label, id=f"save-{i}"))
        if campaigns:
            options.append(Option(Text("Single games", style="bold underline"), disabled=True))
        for i, (path, header, error) in enumerate(self.games):
            if header is None:
                options.append(Option(Text(f"✗ {error}", style="dim"), id=f"save-{i}", disabled=True))
                continue
            if i in campaigns:
                continue
            kind = "autosave" if "autosave" in path.parent.name else "save"
            m = _TURN_COPY.search(path.name)
            if m:
                kind = f"start of turn {int(m.group(1))}"
            state = f"over: {header.winner}" if header.is_over else f"turn {header.turn}"
            players = ", ".join(f"{s.name} {s.player}" for s in header.sides)
            label = Text(f"{header.title}", style="bold")
            label.append(f"  {state} · {header.actions} actions · {players}\n")
            label.append(f"  {_when(header.updated)} · {kind} · {path.name}", style="dim")
            options.append(Option(label, id=f"save-{i}"))
        if not options:
            options.append(Option(Text("No saved games yet.", style="dim"), disabled=True))
        yield OptionList(*options, id="saves")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#saves", OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Load the chosen save."""
        event.stop()
        oid = event.option.id or ""
        if oid.startswith("save-"):
            path = self.games[int(oid.removeprefix("save-"))][0]
            self.planspiel.load_game(path)

    def action_back(self) -> None:
        """Back to the title screen."""
        self.dismiss(None)
