"""Provides the game screen's background work, each with a spinner in the status bar: an AI side choosing its
action, the AI's hint for the player, and the replay check of a loaded save.

Agents run in worker threads and read only their side's client (its view, legal actions and odds); their
choice is applied back in the UI thread. The hint is for the side on screen and is dropped once the game has
moved on.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Protocol

from textual.timer import Timer
from textual.worker import get_current_worker

from engine import Action
from engine.ai import make_agent
from engine.errors import PlanspielError

from ..client import GameClient
from ..widgets.panels import EventLog, StatusBar

if TYPE_CHECKING:
    from textual.app import App

    from ..host import Host
    from ..table import Table

__all__ = ["Thinking"]


class _Screen(Protocol):
    """The game screen as its background work uses it."""

    hint: Action | None
    hinting: bool
    hint_at: tuple[str, int] | None

    @property
    def app(self) -> App[Any]: ...

    @property
    def host(self) -> Host: ...

    @property
    def table(self) -> Table: ...

    @property
    def status_bar(self) -> StatusBar: ...

    @property
    def log_widget(self) -> EventLog: ...

    @property
    def is_attached(self) -> bool: ...

    def run_worker(
        self, work: Any, *, name: str = "", group: str = "", exclusive: bool = False, thread: bool = False
    ) -> Any: ...

    def set_interval(self, interval: float, callback: Any) -> Timer: ...

    def set_timer(self, delay: float, callback: Any) -> Timer: ...

    def notify(
        self, message: str, *, title: str = "", severity: Any = "information", timeout: float | None = None
    ) -> None: ...

    def report_error(self, message: str) -> None: ...

    def refresh_view(self) -> None: ...

    def advance(self) -> None: ...

    def after_change(self) -> None: ...

    def can_decide(self) -> bool: ...


class Thinking:
    """The AI's turns, the hint and the save's replay check of one game screen.

    Args:
        screen: the game screen.
    """

    def __init__(self, screen: _Screen) -> None:
        self.screen = screen
        self.progress: dict[str, str] = {}
        """Latest progress line per worker (``ai``, ``hint``), written by the agent's thread, read by the UI's."""
        self.failed: set[Action] = set()
        """Actions the engine refused for the AI at this decision (it plays another)."""
        self._spinner: Timer | None = None

    # --- The spinner ----------------------------------------------------------------------------------

    def spin(self) -> None:
        """Start the status bar's spinner (AI thinking, the save's replay check)."""
        self.tick()
        if self._spinner is None:
            self._spinner = self.screen.set_interval(0.1, self.tick)

    def tick(self) -> None:
        """Advance the spinner; show the agents' latest progress lines (handed over from their threads)."""
        s = self.screen
        status = s.status_bar
        ai_side = s.table.ai_side
        if ai_side is not None:
            line = self.progress.get("ai")
            status.thinking = f"{s.table.info.side_name(ai_side)} AI is thinking…" + (f" {line}" if line else "")
        elif s.hinting:
            line = self.progress.get("hint")
            status.thinking = "Hint: the AI is looking for your best action…" + (f" {line}" if line else "")
        status.tick()

    def unspin(self) -> None:
        """Stop the spinner once nothing shows it."""
        status = self.screen.status_bar
        if self._spinner is not None and not status.busy:
            self._spinner.stop()
            self._spinner = None
        status.tick()

    # --- An AI side -----------------------------------------------------------------------------------

    def start_ai(self, side: str) -> None:
        """Let the AI of ``side`` choose in a worker thread, with a thinking indicator."""
        s = self.screen
        s.table.ai_side = side
        s.status_bar.thinking = f"{s.table.info.side_name(side)} AI is thinking…"
        self.spin()
        s.run_worker(lambda: self._think(side), group="ai", exclusive=True, thread=True)

    def _think(self, side: str) -> None:
        s = self.screen
        session = s.table.session
        agent = session.agents[side]
        client = session.client(side)
        delay = s.host.settings.ai_delay
        start = time.perf_counter()
        self.progress.pop("ai", None)

        def progress(line: str) -> None:
            self.progress["ai"] = line  # one assignment: the UI thread reads it on its next spinner tick

        try:
            action: Action | None = agent.choose(
                client, budget_s=float(getattr(agent, "budget_s", 1.0)), progress=progress
            )
            error = ""
            if action in self.failed:
                # The engine refused this action before: play another legal one instead.
                others = [a for a in client.legal_actions() if a not in self.failed]
                action = others[0] if others else None
                error = "every legal action was refused by the engine"
        except (ValueError, PlanspielError) as err:
            action, error = None, str(err)
        rest = delay - (time.perf_counter() - start)
        if rest > 0:
            time.sleep(rest)
        if get_current_worker().is_cancelled:
            return
        try:
            s.app.call_from_thread(self._ai_chose, side, action, error)
        except RuntimeError:  # the app is closing
            return

    def _ai_chose(self, side: str, action: Action | None, error: str) -> None:
        s = self.screen
        t = s.table
        t.ai_side = None
        if not s.is_attached or not s.status_bar.is_attached:
            return  # the screen is closing
        s.status_bar.thinking = None
        self.unspin()
        name = t.info.side_name(side)
        if action is None:
            s.report_error(f"{name} AI could not choose: {error}")
            s.refresh_view()
            return
        try:
            t.session.client(side).apply(action)
        except ValueError as err:  # ActionError, or an engine fault: the game is unchanged
            s.report_error(f"{name} AI: {action}: {err}")
            self.failed.add(action)
            s.refresh_view()
            s.advance()
            return
        self.failed.clear()
        s.after_change()

    # --- The hint -------------------------------------------------------------------------------------

    def hint_level(self) -> str:
        """The AI level of the hint: the opponent's if an AI plays in this game, else normal."""
        levels = [p.split(":", 1)[1] for p in self.screen.table.session.players.values() if p.startswith("ai:")]
        return levels[0] if levels else "normal"

    def ask_hint(self) -> None:
        """Ask the AI (the opponent's level, or normal) for this side's best action, from this side's view only."""
        s = self.screen
        if s.hinting or not s.can_decide():
            if not s.hinting:
                s.notify("A hint is for your own decision: it is not yours now.", severity="warning")
            return
        s.hinting = True
        self.progress.pop("hint", None)
        self.spin()
        client = s.table.client
        level, played = self.hint_level(), client.actions_played
        s.run_worker(lambda: self._find_hint(client, level, played), group="hint", exclusive=True, thread=True)

    def _find_hint(self, client: GameClient, level: str, played: int) -> None:
        # Hidden information: the agent reads only this side's client (its view, legal actions and odds).
        def progress(line: str) -> None:
            self.progress["hint"] = line

        try:
            agent = make_agent(level, seed=self.screen.table.session.game.seed * 31 + 7 + played)
            action: Action | None = agent.choose(
                client, budget_s=float(getattr(agent, "budget_s", 1.0)), progress=progress
            )
            error = ""
        except (ValueError, PlanspielError) as err:
            action, error = None, str(err)
        if get_current_worker().is_cancelled:
            return
        try:
            self.screen.app.call_from_thread(self._hint_found, client.side, played, action, error)
        except RuntimeError:  # the app is closing
            return

    def _hint_found(self, side: str, played: int, action: Action | None, error: str) -> None:
        s = self.screen
        s.hinting = False
        if not s.is_attached or not s.status_bar.is_attached:
            return
        s.status_bar.thinking = None
        self.unspin()
        if action is None:
            s.report_error(f"no hint: {error}")
            return
        t = s.table
        if (side, played) != (t.client.side, t.client.actions_played):
            s.notify("The hint came too late: the game has moved on.", severity="warning")
            return
        words = t.words()
        note = t.presenter.action_note(t.now.view, action)  # e.g. a movement order's path cost (AoT 4.11)
        explanation = words.explanation(action)
        line = (
            f"hint: {t.client.describe(action)}"
            + (f" ({note})" if note else "")
            + (f" — {explanation}" if explanation else "")
            + " (H plays it, any other action ignores it)"
        )
        s.log_widget.add("hint", line)
        s.notify(line, title="Hint", timeout=12)
        s.hint_at = (side, played)
        s.hint = action

    # --- The save's replay check ----------------------------------------------------------------------

    def start_replay_check(self) -> None:
        """Replay the loaded history in a worker and compare it with the saved position; the game goes on."""
        s = self.screen
        if not s.is_attached:
            return
        s.table.session.replay_check_pending = False
        s.status_bar.checking = "checking the save…"
        self.spin()
        s.run_worker(self._check_replay, group="replay-check", exclusive=True, thread=True)

    def _check_replay(self) -> None:
        start = time.perf_counter()
        try:
            problems = self.screen.table.session.check_replay()
        except Exception as err:  # a failing check must never cost the player the game
            problems = [f"the check itself failed ({type(err).__name__}: {err})"]
        if get_current_worker().is_cancelled:
            return
        try:
            self.screen.app.call_from_thread(self._replay_checked, problems, time.perf_counter() - start)
        except RuntimeError:  # the app is closing
            return

    def _replay_checked(self, problems: list[str], seconds: float) -> None:
        s = self.screen
        if not s.is_attached or not s.status_bar.is_attached:
            return
        s.status_bar.checking = None
        self.unspin()
        if not problems:
            s.log_widget.add("check", f"save checked: its history replays to this position ({seconds:.1f} s)")
            return
        message = (
            "The save's history does not replay to the saved position: "
            + "; ".join(problems)
            + ". The game goes on from the saved position, as the file recorded it. Its history may come from"
            " another version of the rules, or the file was changed: undo and the score chart may not match the"
            " table. Keep a copy of the file if you want to report it."
        )
        s.log_widget.add("error", message)
        s.notify(message, title="Save check: the replay differs", severity="warning", timeout=30)
