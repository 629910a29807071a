"""Provides the new-game screen: ruleset, scenario or campaign with its briefing, and who plays each side."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

import engine
from engine.ai import AI_LEVELS
from engine.campaign import campaign_ids, campaign_sides, load_campaign
from engine.errors import PlanspielError

from ..host import Host

_CAMPAIGN = "campaign:"
"""The option id prefix of a campaign in the scenario list."""

__all__ = ["PLAYER_CHOICES", "NewGameScreen"]

PLAYER_CHOICES: tuple[str, ...] = ("human", *(f"ai:{level}" for level in AI_LEVELS))
"""What each side can be played by."""


class NewGameScreen(Screen[None]):
    """Choose a ruleset, a scenario (its briefing beside) and the player of each side, then start."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("g", "start", "Start", id="new.start"),
        Binding("escape,backspace", "back", "Back", id="new.back"),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | tab, shift+tab | Move between the choices. |
    | g | Start the game. |
    | escape, backspace | Back to the title screen. |
    """

    DEFAULT_CSS = """
    NewGameScreen #new-body {
        height: 1fr;
    }
    NewGameScreen #new-left {
        width: 44;
        padding: 0 1;
    }
    NewGameScreen #scenarios {
        height: auto;
        max-height: 8;
    }
    NewGameScreen #sides {
        height: auto;
    }
    NewGameScreen .side-row {
        height: 3;
    }
    NewGameScreen .side-row Label {
        width: 12;
        padding: 1 1 0 0;
    }
    NewGameScreen .side-row Select {
        width: 1fr;
    }
    NewGameScreen #briefing {
        width: 1fr;
        border-left: solid $panel-lighten-2;
        padding: 0 1;
    }
    NewGameScreen #buttons {
        height: 3;
    }
    NewGameScreen .title {
        text-style: bold;
        margin-top: 1;
    }
    """

    def __init__(self) -> None:
        super().__init__()
        self.rulesets = [r for r in engine.ruleset_names() if engine.scenario_ids(r)]
        self.ruleset = (self.rulesets or [""])[0]
        """The ruleset offered first: the last one played (settings), else the first with scenarios."""
        self.scenario: engine.Scenario | None = None
        self.campaign: str | None = None
        """The campaign chosen (its id), or None for a single scenario."""
        self.players: dict[str, str] = {}

    @property
    def planspiel(self) -> Host:
        """The app (as the screens use it)."""
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        last = self.planspiel.settings.last_ruleset
        if last in self.rulesets:
            self.ruleset = last
        with Horizontal(id="new-body"):
            with VerticalScroll(id="new-left"):  # every field reachable at 80×24: focus scrolls it into view
                yield Static("Ruleset", classes="title")
                yield Select(
                    [(f"{engine.get_ruleset(r).title}", r) for r in self.rulesets],
                    value=self.ruleset,
                    allow_blank=False,
                    id="ruleset",
                )
                yield Static("Scenario", classes="title")
                yield OptionList(id="scenarios")
                yield Static("Players", classes="title")
                yield Vertical(id="sides")
                yield Static("Set-up", classes="title")
                yield Select(
                    [("the scenario's positions", "scenario"), ("each side places its units", "players")],
                    value="scenario",
                    allow_blank=False,
                    id="setup",
                )
                with Horizontal(id="buttons"):
                    yield Button("Start (g)", variant="primary", id="start")
                    yield Button("Back", id="back")
            with VerticalScroll(id="briefing"):
                yield Static(id="briefing-text")
        yield Footer()

    def on_mount(self) -> None:
        self.fill_scenarios()
        self.query_one("#scenarios", OptionList).focus()

    @on(Select.Changed, "#ruleset")
    def _ruleset_changed(self, event: Select.Changed) -> None:
        if isinstance(event.value, str) and event.value != self.ruleset:
            self.ruleset = event.value
            self.fill_scenarios()

    def fill_scenarios(self) -> None:
        """List the ruleset's scenarios."""
        ol = self.query_one("#scenarios", OptionList)
        ol.clear_options()
        for sid in engine.scenario_ids(self.ruleset):
            try:
                sc = engine.load_scenario(self.ruleset, sid)
                label = Text(sc.title, style="bold")
                label.append(f"  {sc.turns} turns")
                ol.add_option(Option(label, id=sid))
            except PlanspielError as err:
                ol.add_option(Option(Text(f"{sid}: broken ({str(err).splitlines()[0]})"), id=sid, disabled=True))
        for cid in campaign_ids(self.ruleset):  # the campaigns next to the scenarios
            try:
                camp = load_campaign(self.ruleset, cid)
            except PlanspielError as err:
                ol.add_option(Option(Text(f"campaign {cid}: broken ({str(err).splitlines()[0]})"), disabled=True))
                continue
            label = Text(f"Campaign: {camp.title}", style="bold")
            label.append(f"  {len(camp.battles)} battles")
            ol.add_option(Option(label, id=f"{_CAMPAIGN}{cid}"))
        if ol.option_count:
            ol.highlighted = 0
            first = ol.get_option_at_index(0).id
            if first:
                self.choose_scenario(first)

    @on(OptionList.OptionHighlighted, "#scenarios")
    def _scenario_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option.id and event.option.id != self._chosen():
            self.choose_scenario(event.option.id)

    def _chosen(self) -> str | None:
        if self.campaign is not None:
            return f"{_CAMPAIGN}{self.campaign}"
        return self.scenario.id if self.scenario is not None else None

    @on(OptionList.OptionSelected, "#scenarios")
    def _scenario_selected(self, event: OptionList.OptionSelected) -> None:
        self.query_one("#start", Button).focus()

    def choose_scenario(self, sid: str) -> None:
        """Show a scenario's (or a campaign's) briefing and its sides."""
        camp = None
        try:
            if sid.startswith(_CAMPAIGN):
                camp = load_campaign(self.ruleset, sid.removeprefix(_CAMPAIGN))
                sc = engine.load_scenario(self.ruleset, camp.first.scenario)
            else:
                sc = engine.load_scenario(self.ruleset, sid)
        except PlanspielError as err:
            self.scenario = None
            self.campaign = None
            self.query_one("#briefing-text", Static).update(Text(str(err)))
            return
        self.scenario = sc
        self.campaign = camp.id if camp is not None else None
        raw = sc.raw
        t = Text()
        if camp is not None:
            t.append(f"Campaign: {camp.title}\n", style="bold underline")
            t.append(camp.briefing.strip() + "\n" if camp.briefing else "")
            t.append(f"{len(camp.battles)} battles; your force carries over from battle to battle. Battle 1:\n\n")
        t.append(f"{sc.title}\n", style="bold underline")
        if raw.get("date"):
            t.append(f"{raw['date']} · ")
        t.append(f"{sc.turns} turns · ")
        t.append(" against ".join(s.name for s in sc.sides))
        first = next((s.name for s in sc.sides if s.id == sc.first), sc.first)
        t.append(f" · {first} moves first\n\n")
        t.append(str(raw.get("briefing", "")).strip() + "\n")
        if raw.get("history"):
            t.append("\nHistory\n", style="bold")
            t.append(str(raw["history"]).strip() + "\n")
        self.query_one("#briefing-text", Static).update(t)
        sides = [(s.id, s.name) for s in sc.sides]
        if camp is not None:  # a later battle's sides are chosen now too
            try:
                sides = campaign_sides(camp)
            except PlanspielError as err:
                self.notify(str(err), title="A battle of the campaign is broken", severity="error", timeout=10)
        self.players = {s: ("human" if i == 0 else "ai:normal") for i, (s, _) in enumerate(sides)}
        box = self.query_one("#sides", Vertical)
        box.remove_children()
        rows = []
        for s_id, name in sides:
            row = Horizontal(
                Label(name),
                Select([(p, p) for p in PLAYER_CHOICES], value=self.players[s_id], allow_blank=False, id=f"p-{s_id}"),
                classes="side-row",
            )
            rows.append(row)
        box.mount_all(rows)

    @on(Select.Changed)
    def _player_changed(self, event: Select.Changed) -> None:
        sid = (event.select.id or "").removeprefix("p-")
        if sid in self.players and isinstance(event.value, str):
            self.players[sid] = event.value

    @on(Button.Pressed, "#start")
    def action_start(self) -> None:
        """Start the chosen scenario with the chosen players."""
        if self.scenario is None:
            self.notify("Choose a scenario first.", severity="warning")
            return
        if self.campaign is not None:
            self.planspiel.new_campaign(self.ruleset, self.campaign, dict(self.players))
            return
        setup = self.query_one("#setup", Select).value
        self.planspiel.new_game(
            self.ruleset, self.scenario.id, dict(self.players), setup=setup if isinstance(setup, str) else "scenario"
        )

    @on(Button.Pressed, "#back")
    def action_back(self) -> None:
        """Back to the title screen."""
        self.dismiss(None)
