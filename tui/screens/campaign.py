"""Provides the campaign's between-battles screen and its force review.

Between two battles: the last battle's result, the side's casualties and survivors, what carried over and why
(the engine's notes, the mapping of formations between battles included), the replacements to buy (one step at a
time, each undoable until the next battle starts, the points left always on screen), the next battle's briefing.
At the end of the campaign: its final score. A side sees only its own force; the enemy's losses only as the end
of the battle showed them. The rules are the engine's (:mod:`engine.campaign`): this screen only shows and asks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option, OptionDoesNotExist

import engine
from engine import campaign as cp

from ..host import Host
from .handoff import HandoffScreen

if TYPE_CHECKING:
    from ..campaign import CampaignPlay

__all__ = ["CampaignScreen", "ForceScreen", "force_text"]


def _strength(e: cp.RosterEntry) -> str:
    if e.lost:
        return "lost"
    if e.full == 0:
        return "—"
    return f"{e.steps}/{e.full}"


def force_text(play: CampaignPlay, side: str) -> Text:
    """One side's force: every unit of the roster with its steps, losses and earlier ids; lost units last."""
    roster = [e for e in play.roster().values() if e.side == side]
    t = Text()
    alive = sorted((e for e in roster if not e.lost), key=lambda e: e.id)
    lost = sorted((e for e in roster if e.lost), key=lambda e: e.id)
    reduced = sum(1 for e in alive if e.full and e.steps < e.full)
    t.append(f"{len(alive)} units ({reduced} reduced), {len(lost)} lost\n", style="bold")
    for e in alive + lost:
        style = "dim" if e.lost else ""
        t.append(f"  {e.id:<24} {e.type:<14} {_strength(e):>5}", style=style)
        if e.losses:
            t.append(f"  {e.losses} steps lost", style=style)
        if e.was:
            t.append(f"  was {', '.join(e.was)}", style="dim")
        t.append("\n")
    return t


class ForceScreen(ModalScreen[None]):
    """The force the campaign carries, for the sides people play (reachable at any time: F4)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,backspace,f4,q", "leave", "Close", id="force.close"),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | up, down, pageup, pagedown | Scroll. |
    | escape, backspace, F4, q | Close. |
    """

    DEFAULT_CSS = """
    ForceScreen {
        align: center middle;
    }
    ForceScreen VerticalScroll {
        width: 90%;
        height: 90%;
        border: round $primary;
        background: $surface;
        padding: 0 1;
    }
    """

    def __init__(self, play: CampaignPlay) -> None:
        super().__init__()
        self.play = play

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="force"):
            t = Text(f"{self.play.campaign.title} — your force\n", style="bold underline")
            sides = self.play.humans() or list(self.play.campaign.carry)
            for side in sides:
                if side not in self.play.campaign.carry:
                    t.append(f"\n{side}: its units do not carry over in this campaign\n", style="dim")
                    continue
                t.append(f"\n{side.title()}: ", style="bold")
                t.append_text(force_text(self.play, side))
            yield Static(t, id="force-text")

    def action_leave(self) -> None:
        """Close the review."""
        self.dismiss(None)


class CampaignScreen(Screen[None]):
    """Between two battles of a campaign (or at its end)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,plus,b", "buy_step", "Buy a step", id="camp.buy"),
        Binding("minus,u", "undo", "Undo", id="camp.undo"),
        Binding("g", "go", "Next battle", id="camp.go"),
        Binding("f", "force", "Force", id="camp.force"),
        Binding("pageup", "scroll_report(-1)", "Scroll up", show=False, priority=True, id="camp.up"),
        Binding("pagedown", "scroll_report(1)", "Scroll down", show=False, priority=True, id="camp.down"),
        Binding("f1", "app.help", "Help", show=False, id="camp.help"),
        Binding("t,escape", "title", "Title", id="camp.title"),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | up, down | Choose a unit to reinforce. |
    | enter, +, b | Buy one step for it (the points left are shown above the list). |
    | -, u | Undo the last purchase (until the next battle starts). |
    | g | Confirm the purchases and start the next battle (hot-seat: the other side buys first). |
    | f, F4 | Review the whole force. |
    | pageup, pagedown | Scroll the report (result, what carries over, briefing). |
    | ?, F1 | These keys. |
    | t, escape | The title screen (the campaign is saved; Continue comes back here). |
    """

    DEFAULT_CSS = """
    CampaignScreen #camp-head {
        text-style: bold;
        padding: 0 1;
        background: $panel;
    }
    CampaignScreen #camp-body {
        height: 1fr;
        padding: 0 1;
    }
    CampaignScreen #points {
        padding: 0 1;
        text-style: bold;
        background: $panel;
    }
    CampaignScreen #to-buy {
        height: auto;
        max-height: 8;
    }
    """

    def __init__(self, play: CampaignPlay) -> None:
        super().__init__()
        self.play = play
        self.sides = [s for s in play.humans() if s in play.campaign.carry]
        """The sides people play whose force carries over: each buys in turn (hot-seat), seeing only its own."""
        self.side: str | None = self.sides[0] if self.sides else None
        self.bought: dict[str, list[str]] = {}
        """The purchases of the sides that have confirmed theirs."""
        """The side whose force and purchases this screen shows (None: no side people play carries units)."""
        self.picks: list[str] = []
        """Steps bought so far, in order (unit ids; undone from the end)."""

    @property
    def planspiel(self) -> Host:
        """The app (as the screens use it)."""
        return self.app  # type: ignore[return-value]

    # --- Drawing ----------------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        play = self.play
        head = f"{play.campaign.title} — "
        n = len(play.campaign.battles)
        head += "the end of the campaign" if play.over else f"before battle {play.number} of {n}"
        head += f" · campaign points {play.points}"
        yield Static(head, id="camp-head")
        with VerticalScroll(id="camp-body"):
            yield Static(self._report(), id="report")
        yield Static("", id="points")
        yield OptionList(id="to-buy")
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_purchases()
        self.query_one("#to-buy", OptionList).focus()

    def _report(self) -> Text:
        play = self.play
        t = Text()
        last = play.last_result()
        if last is not None:
            winner = str(last.get("winner", "?"))
            who = "a draw" if winner == "draw" else f"{winner.title()} victory"
            t.append(f"{last.get('title', last.get('battle', ''))}: {who} ", style="bold")
            t.append(f"({last.get('result', '?')} for {play.campaign.side.title()}, {last.get('points', 0)} points)\n")
            if last.get("reason"):
                t.append(f"{last['reason']}\n")
            losses = last.get("losses")
            if isinstance(losses, dict) and losses:
                t.append("Losses (steps): " + ", ".join(f"{s.title()} {n}" for s, n in losses.items()) + "\n")
            notes = [n for n in last.get("carried", []) if isinstance(n, dict) and n.get("side") == self.side]
            plain = ("full strength", "carries")  # one line each, by count; the rest unit by unit
            if notes:
                t.append("\nWhat carries over and why\n", style="bold")
            for what in plain:
                same = [n for n in notes if n.get("what") == what]
                if same:
                    t.append(f"  {len(same)} units: {what}", style="")
                    t.append(f" — {same[0].get('why', '')} (f: the whole force)\n", style="dim")
            for n in notes:
                if n.get("what") not in plain:
                    t.append(f"  {n.get('unit', '')}: {n.get('what', '')}", style="")
                    t.append(f" — {n.get('why', '')}\n", style="dim")
        if self.side is not None:
            t.append(f"\nYour force ({self.side.title()})\n", style="bold")
            t.append_text(force_text(play, self.side))
        if play.over:
            t.append("\nThe campaign is over.\n", style="bold")
            for r in play.save.results:
                name = r.get("title", r.get("battle", ""))
                t.append(f"  {name}: {r.get('result', '?')}, {r.get('points', 0)} points\n")
            t.append(f"Final score: {play.points} campaign points for {play.campaign.side.title()}\n", style="bold")
            return t
        battle = play.campaign.battle(play.battle_id or "")
        try:
            sc = engine.load_scenario(play.campaign.ruleset, battle.scenario)
            t.append(f"\nNext: battle {play.number}, {sc.title}\n", style="bold")
            if sc.briefing:
                t.append(sc.briefing.strip() + "\n")
        except engine.PlanspielError as err:
            t.append(f"\nNext: {battle.scenario} (cannot be read: {err})\n", style="bold")
        return t

    def _buyable(self) -> list[cp.RosterEntry]:
        """The units of the side one more step could be bought for now (as the engine allows)."""
        if self.side is None or self.play.over:
            return []
        out = []
        for e in sorted(self.play.roster().values(), key=lambda e: e.id):
            if e.side != self.side:
                continue
            try:
                self.play.points_left(self.side, [*self.picks, e.id])
            except ValueError:
                continue
            out.append(e)
        return out

    def points(self) -> int:
        """The replacement points left after the purchases so far."""
        if self.side is None or self.play.over:
            return 0
        return self.play.points_left(self.side, self.picks)

    def refresh_purchases(self) -> None:
        """Redraw the points left and the list of units to reinforce."""
        menu = self.query_one("#to-buy", OptionList)
        keep = menu.highlighted
        menu.clear_options()
        points = self.query_one("#points", Static)
        if self.play.over:
            points.update("g or t: back to the title screen")
            return
        if self.side is None:
            points.update("No side at this keyboard carries units: g starts the next battle.")
            return
        bought: dict[str, int] = {}
        for uid in self.picks:
            bought[uid] = bought.get(uid, 0) + 1
        roster = self.play.roster()
        line = f"Replacement points left: {self.points()}"
        if self.picks:
            line += " · bought: " + ", ".join(f"{u} +{n}" for u, n in bought.items()) + " (- or u undoes)"
        line += " · g: next battle"
        points.update(line)
        for e in self._buyable():
            have = e.steps + bought.get(e.id, 0)
            label = f"{e.id:<24} {e.type:<14} {have}/{e.full} steps"
            if e.lost and not bought.get(e.id):
                label = f"{e.id:<24} {e.type:<14} lost: rebuild"
            menu.add_option(Option(label, id=e.id))
        for uid, n in bought.items():  # bought up to full strength: still listed, to see it
            if not _has(menu, uid):
                e = roster[uid]
                menu.add_option(Option(Text(f"{uid:<24} {e.type:<14} {e.steps + n}/{e.full} steps", style="dim"),
                                       id=uid, disabled=True))  # fmt: skip
        if menu.option_count == 0:
            menu.add_option(Option(Text("Nothing to buy now.", style="dim"), disabled=True))
        elif keep is not None:
            menu.highlighted = min(keep, menu.option_count - 1)

    # --- Keys ---------------------------------------------------------------------------------------------

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id:
            self.buy(event.option.id)

    def buy(self, uid: str) -> bool:
        """Buy one step for ``uid``; a pick the engine refuses is a message (and False)."""
        if self.side is None or self.play.over:
            return False
        try:
            self.play.points_left(self.side, [*self.picks, uid])
        except ValueError as err:
            self.notify(str(err), severity="warning")
            return False
        self.picks.append(uid)
        self.refresh_purchases()
        return True

    def action_buy_step(self) -> None:
        """Buy one step for the highlighted unit."""
        menu = self.query_one("#to-buy", OptionList)
        if menu.highlighted is None:
            return
        option = menu.get_option_at_index(menu.highlighted)
        if option.id and not option.disabled:
            self.buy(option.id)

    def action_undo(self) -> None:
        """Undo the last purchase."""
        if self.picks:
            self.picks.pop()
            self.refresh_purchases()

    def action_scroll_report(self, direction: int) -> None:
        """Scroll the report by a page."""
        body = self.query_one("#camp-body", VerticalScroll)
        if direction < 0:
            body.scroll_page_up()
        else:
            body.scroll_page_down()

    def action_force(self) -> None:
        """Review the force."""
        self.app.push_screen(ForceScreen(self.play))

    def action_go(self) -> None:
        """Confirm the purchases and start the next battle (at the end: the title screen)."""
        if self.play.over:
            self.planspiel.back_to_title()
            return
        if self.side is not None:
            self.bought[self.side] = list(self.picks)
            later = self.sides[self.sides.index(self.side) + 1 :]
            if later:  # hot-seat: the seats change behind a hand-off screen; the next side sees only its own force
                nxt = later[0]
                self.side, self.picks = None, []
                self.query_one("#report", Static).update(Text(""))
                self.app.push_screen(HandoffScreen(nxt, nxt.title(), []), lambda _: self._take_over(nxt))
                return
        picks: dict[str, Any] = dict(self.bought)
        try:
            self.play.start_battle(picks)
        except (engine.PlanspielError, ValueError, OSError) as err:
            self.notify(str(err), title="Cannot start the next battle", severity="error", timeout=12)
            self.bought = {}
            self.side, self.picks = (self.sides[0] if self.sides else None), []
            self.query_one("#report", Static).update(self._report())
            self.refresh_purchases()
            return
        self.picks = []
        self.planspiel.start_campaign_battle(self.play)

    def _take_over(self, side: str) -> None:
        """The next side of a hot-seat campaign buys its replacements (after the hand-off)."""
        self.side, self.picks = side, []
        self.query_one("#report", Static).update(self._report())
        self.query_one("#camp-body", VerticalScroll).scroll_home(animate=False)
        self.refresh_purchases()
        self.notify(f"{side.title()}: your replacements (g when done).", timeout=6)

    def action_title(self) -> None:
        """The title screen (the campaign is saved as it stands)."""
        self.planspiel.back_to_title()


def _has(menu: OptionList, oid: str) -> bool:
    try:
        menu.get_option(oid)
    except OptionDoesNotExist:
        return False
    return True
