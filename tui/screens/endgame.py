"""Provides the end-of-game screen: the result, losses by side, and the score per turn as a text chart."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from ..host import Host
from ..names import UnitNames

if TYPE_CHECKING:
    from ..session import Session

__all__ = ["EndGameScreen", "score_chart"]


def score_chart(scores: dict[int, dict[str, int]], names: dict[str, str], width: int = 40) -> Text:
    """Scores per turn as horizontal bars, one line per turn and side (``T1 German │████████ 8``)."""
    t = Text()
    if not scores:
        t.append("no score was kept for this game\n", style="dim")
        return t
    top = max((v for s in scores.values() for v in s.values()), default=0) or 1
    sides = sorted({k for s in scores.values() for k in s}, key=lambda k: list(names).index(k) if k in names else 99)
    label_w = max(len(names.get(k, k)) for k in sides)
    for turn, s in sorted(scores.items()):
        for i, side in enumerate(sides):
            value = s.get(side, 0)
            head = f"T{turn:<2}" if i == 0 else "   "
            t.append(f"{head} {names.get(side, side):<{label_w}} │")
            t.append("█" * round(max(0, value) / top * width), style="bold")
            t.append(f" {value}\n")
    return t


class EndGameScreen(Screen[None]):
    """The game is over: who won and why, the losses, and the score over time."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("m", "map", "Look at the map", id="end.map"),
        Binding("n", "new", "New game", id="end.new"),
        Binding("t,escape,backspace", "title", "Title", id="end.title"),
        Binding("q", "quit", "Quit", id="end.quit"),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | m | Back to the map to look at the final position. |
    | n | A new game. |
    | t, escape, backspace | The title screen. |
    | q | Quit. |
    """

    DEFAULT_CSS = """
    EndGameScreen VerticalScroll {
        padding: 1 2;
    }
    EndGameScreen #result {
        text-style: bold;
        margin-bottom: 1;
    }
    """

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session

    @property
    def planspiel(self) -> Host:
        """The app (as the screens use it)."""
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        s = self.session
        info = s.info
        client = s.client(s.humans[0] if s.humans else info.sides[0].id)
        view = client.view()
        outcome = client.outcome
        with VerticalScroll():
            head = Text(f"{info.title} — game over\n", style="bold underline")
            if outcome is not None:
                winner = "a draw" if outcome.winner == "draw" else f"{info.side_name(outcome.winner)} victory"
                head.append(f"Result: {winner}\n", style="bold")
                reason = outcome.reason if s.log_ids else UnitNames(view, s.presenter)(outcome.reason)
                head.append(reason + "\n")
            head.append(f"Turn {view.turn} of {info.turns}, {client.actions_played} actions.\n")
            yield Static(head, id="result")
            losses = s.presenter.losses(view)
            lt = Text("Losses (steps)\n", style="bold")
            for side in info.sides:
                lt.append(f"  {side.name:<12} {losses.get(side.id, 0)}\n")
            yield Static(lt, id="losses")
            yield Static(Text(s.presenter.score_label(view), style="bold"), id="chart-title")
            yield Static(Text("counting…", style="dim"), id="chart")
        yield Footer()

    def on_mount(self) -> None:
        # The replay behind the chart holds the interpreter for a second or more: start it once the screen is
        # drawn, so that it does not slow the first frame of a loaded finished game (DESIGN §11).
        self.call_after_refresh(self.build_chart)

    @work(thread=True, exclusive=True)
    def build_chart(self) -> None:
        """Find the score of every turn (a replay for turns played before this session) in a thread."""
        scores = self.session.score_history()
        names = {s.id: s.name for s in self.session.info.sides}
        chart = score_chart(scores, names)
        self.app.call_from_thread(self.query_one("#chart", Static).update, chart)

    def action_map(self) -> None:
        """Back to the map."""
        self.dismiss(None)

    def action_new(self) -> None:
        """A new game."""
        self.planspiel.back_to_title()
        self.planspiel.open_new_game()

    def action_title(self) -> None:
        """The title screen."""
        self.planspiel.back_to_title()

    def action_quit(self) -> None:
        """Quit."""
        self.app.exit(0)
