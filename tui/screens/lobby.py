"""Provides the lobby of ``planspiel serve``: the server's tables, to create, join, open and watch.

Shown from the title screen when the game runs in an SSH session of the server (``o``). Your tables come first
(Enter opens one once both seats are taken), then the tables waiting for a second player (Enter joins), then the
games others play that allow spectators (Enter watches, from the table owner's side's view), then your finished
games. The list refreshes every two seconds.
"""

from __future__ import annotations

import os
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from engine.ai import AI_LEVELS
from engine.errors import PlanspielError

from ..host import Host
from ..remote import TableLink, open_table
from .dialogs import ChoiceDialog

__all__ = ["LobbyScreen"]


def _line(t: dict[str, Any], me: str) -> str:
    seats: dict[str, str | None] = t["seats"]
    shown = [(s, n) for s, n in seats.items() if n != me] if me in seats.values() else list(seats.items())
    who = " against ".join(f"{n or 'a free seat'} ({s})" for s, n in shown)
    turn = f"turn {t['turn']}" if t["state"] != "over" else str(t.get("outcome") or "over")
    return f"{t['title']} — {who} · {turn} [{t['id']}]"


class LobbyScreen(Screen[None]):
    """The server's tables."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "create", "Create a table", id="lobby.create"),
        Binding("l", "saves", "Saved games", id="lobby.saves"),
        Binding("r", "refresh", "Refresh", id="lobby.refresh"),
        Binding("escape,backspace", "back", "Title", id="lobby.back"),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | up, down, enter | Choose a table: open yours, join one that waits for a player, watch one. |
    | c | Create a table: scenario, your side, your opponent (a player, or the AI), whether others may watch. |
    | l | Your saved games (solo and hot-seat): load one. |
    | r | Refresh the list (it also refreshes every two seconds). |
    | escape, backspace | Back to the title screen. |
    """

    DEFAULT_CSS = """
    LobbyScreen #lobby-box {
        padding: 0 1;
    }
    LobbyScreen #lobby-title {
        text-style: bold;
        color: $primary;
    }
    LobbyScreen #tables {
        height: 1fr;
        border: round $primary;
    }
    LobbyScreen #lobby-help {
        color: $text-muted;
    }
    """

    def __init__(self, link: TableLink) -> None:
        super().__init__()
        self.link = link
        self.guest = bool(os.environ.get("PLANSPIEL_GUEST"))
        """A guest of the server: watches games only."""
        self.tables: list[dict[str, Any]] = []

    @property
    def planspiel(self) -> Host:
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        with Vertical(id="lobby-box"):
            yield Static(
                f"Lobby — you are {self.link.name}" + (" (a guest: you may watch games)" if self.guest else ""),
                id="lobby-title",
            )
            yield OptionList(id="tables")
            yield Static("Enter: open, join or watch · c: create a table · r: refresh · escape: title", id="lobby-help")
        yield Footer()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A guest's lobby has no key to create a table."""
        return not (self.guest and action in ("create", "saves"))

    def on_mount(self) -> None:
        self.action_refresh()
        self.set_interval(2.0, self.action_refresh)
        self.query_one("#tables", OptionList).focus()

    def on_screen_resume(self) -> None:
        self.action_refresh()

    def action_refresh(self) -> None:
        """Read the tables again and rebuild the list (the highlighted entry stays)."""
        try:
            self.tables = list(self.link.request("list")["tables"])
        except PlanspielError as err:
            self.notify(str(err), title="The lobby", severity="error", timeout=10)
            return
        menu = self.query_one("#tables", OptionList)
        keep = menu.highlighted_option.id if menu.highlighted_option is not None else None
        menu.clear_options()
        me = self.link.name
        if not self.guest:
            menu.add_option(Option(Text("Create a table (c)", style="bold"), id="create"))
        sections: list[tuple[str, list[tuple[str, str]]]] = [
            ("Your tables", []),
            ("Waiting for a second player", []),
            ("Games you may watch", []),
            ("Your finished games", []),
        ]
        for t in self.tables:
            if self.guest and not (t["state"] == "playing" and t["spectators"]):
                continue
            mine = me in t["seats"].values()
            line = _line(t, me)
            if mine and t["state"] == "over":
                sections[3][1].append((f"done:{t['id']}", line))
            elif mine:
                waiting = " — waiting for a second player" if t["state"] == "open" else ""
                yours = " — your move" if t["to_act"] and t["seats"].get(t["to_act"]) == me else ""
                sections[0][1].append((f"open:{t['id']}", line + waiting + yours))
            elif t["state"] == "open":
                sections[1][1].append((f"join:{t['id']}", line))
            elif t["state"] == "playing" and t["spectators"]:
                sections[2][1].append((f"watch:{t['id']}", line))
        for title, entries in sections:
            if not entries:
                continue
            menu.add_option(Option(Text(title, style="bold underline"), disabled=True))
            for oid, line in entries:
                menu.add_option(Option(Text(line), id=oid, disabled=oid.startswith("done:")))
        if not self.guest:
            menu.add_option(Option(Text("Your saved games: solo and hot-seat (l)"), id="saves"))
        ids = [menu.get_option_at_index(i).id for i in range(menu.option_count)]
        if not ids:
            menu.add_option(Option(Text("No game to watch now (the list refreshes by itself)"), disabled=True))
            return
        menu.highlighted = ids.index(keep) if keep in ids else next((i for i, x in enumerate(ids) if x), 0)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        oid = event.option.id or ""
        kind, _, tid = oid.partition(":")
        if kind == "create":
            self.action_create()
        elif kind == "saves":
            self.action_saves()
        elif kind == "join":
            self._join(tid)
        elif kind in ("open", "watch"):
            self._open(tid)

    def _join(self, tid: str) -> None:
        try:
            side = self.link.request("join", table=tid)["side"]
        except PlanspielError as err:
            self.notify(str(err), title="Cannot join", severity="error", timeout=10)
            self.action_refresh()
            return
        self.notify(f"You play {side} at table {tid}.", title="Joined")
        self._open(tid)

    def _open(self, tid: str) -> None:
        table = next((t for t in self.tables if t["id"] == tid), None)
        if table is not None and table["state"] == "open" and self.link.name in table["seats"].values():
            self.notify("Your table waits for a second player: it opens once someone joins.", severity="warning")
            return
        try:
            session, remote = open_table(self.link, tid)
        except PlanspielError as err:
            self.notify(str(err), title="Cannot open the table", severity="error", timeout=10)
            return
        self.planspiel.start_session(session, side=remote.side)

    # --- Creating a table ---------------------------------------------------------------------------

    def action_create(self) -> None:
        """Choose a scenario, a side and whether others may watch; the table then waits in the list."""
        if self.guest:
            self.notify("A guest may only watch games: log in with a key to play.", severity="warning")
            return
        try:
            found = self.link.request("scenarios")["scenarios"]
        except PlanspielError as err:
            self.notify(str(err), title="Cannot create a table", severity="error", timeout=10)
            return
        items = [(sc, f"{sc['title']} ({sc['ruleset']})") for sc in found]
        self.app.push_screen(ChoiceDialog("Create a table: which scenario?", items), self._scenario_chosen)

    def _scenario_chosen(self, sc: dict[str, Any] | None) -> None:
        if sc is None:
            return
        items = [((sc, side), f"play {name}") for side, name in sc["sides"]]
        self.app.push_screen(ChoiceDialog(f"{sc['title']}: your side?", items), self._side_chosen)

    def _side_chosen(self, chosen: tuple[dict[str, Any], str] | None) -> None:
        if chosen is None:
            return
        items: list[tuple[tuple[dict[str, Any], str, str], str]] = [
            ((*chosen, "player"), "another player of this server (a table in the lobby)"),
            *(
                ((*chosen, f"ai:{level}"), f"the AI, {level} (a game of your own, saved in your folder)")
                for level in AI_LEVELS
            ),
        ]
        self.app.push_screen(ChoiceDialog("Your opponent?", items), self._opponent_chosen)

    def _opponent_chosen(self, chosen: tuple[dict[str, Any], str, str] | None) -> None:
        if chosen is None:
            return
        sc, side, opponent = chosen
        if opponent != "player":  # against the AI: a game of this session, as New game starts it
            players = {s: ("human" if s == side else opponent) for s, _ in sc["sides"]}
            self.planspiel.new_game(sc["ruleset"], sc["scenario"], players)
            return
        items = [
            ((sc, side, "owner"), "others may watch, from your side's view"),
            ((sc, side, "other"), "others may watch, from your opponent's view"),
            ((sc, side, "public"), "others may watch, from a public view (what either side hides stays hidden)"),
            ((sc, side, None), "no spectators"),
        ]
        self.app.push_screen(ChoiceDialog("Spectators?", items), self._create)

    def _create(self, chosen: tuple[dict[str, Any], str, str | None] | None) -> None:
        if chosen is None:
            return
        sc, side, watch = chosen
        try:
            tid = self.link.request(
                "create",
                ruleset=sc["ruleset"],
                scenario=sc["scenario"],
                side=side,
                spectators=watch is not None,
                watch=watch or "owner",
            )["table"]
        except PlanspielError as err:
            self.notify(str(err), title="Cannot create a table", severity="error", timeout=10)
            return
        self.notify(f"Table {tid} waits for a second player (it shows in their lobby).", title="Table created")
        self.action_refresh()

    def action_saves(self) -> None:
        """The player's own saved games (the load screen)."""
        if not self.guest:
            self.planspiel.open_load()

    def action_back(self) -> None:
        self.planspiel.back_to_title()
