"""Provides the resolution screens and the table's part in them: a resolution the ruleset reports step by step
(a round's reveal and execution, :meth:`engine.presentation.Presentation.report`) is shown to each human side once,
step by step; a question it waits for (:attr:`engine.Waiting.question`) is asked on the shared screen, its options
the legal answers with their words, and the answer is played as that action; ``r`` shows the last report again.
The sheet of orders a side has given is shown the same way (:class:`OrdersSummaryScreen`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Protocol

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from engine import Action
from engine.presentation import Report

from ..table import Table

__all__ = ["ExecutionScreen", "OrdersSummaryScreen", "Resolution"]


class _Table(Table, Protocol):
    """The game screen as the resolution uses it: the table, and the screens it pushes."""

    def push_modal(self, screen: Screen[Any], then: Any) -> None:
        """Push a screen that holds the table's decisions until it closes; ``then(result)``."""
        ...

    def push(self, screen: Screen[Any]) -> None:
        """Push a screen to read."""
        ...

    def after_change(self) -> None:
        """After an action: log, redraw, go on."""
        ...

    def advance(self) -> None:
        """Go on to whoever decides next."""
        ...

    def name_units(self, text: str) -> str:
        """A line with the units named as the side on screen reads them."""
        ...


class Resolution:
    """The table's resolutions: each human side is shown the last one once (a round that paused at a question
    is shown on from the step where it paused), and a human's question is asked on the shared screen (public:
    no hand-off, the table's side unchanged).

    Args:
        table: the game screen.
    """

    def __init__(self, table: _Table) -> None:
        self.table = table
        self.seen: dict[str, tuple[int, int, int]] = {}
        """Side → (round, lines, steps) of the last resolution it was shown."""
        self.deferred: tuple[int, int] | None = None
        """(round, answers) of a question the players closed without answering (r shows it again)."""

    def step(self) -> bool:
        """Show what is due before the next decision: the last resolution, or the question it waits for; True if
        the table waits for it."""
        t = self.table
        if not t.presenter.shows_reports and t.now.waiting.question is None:
            return False
        if self._show_report():
            return True
        decision = self._human_decision()
        if decision is None:
            return False
        if self.deferred != self._decision_key():
            # The round so far; a game restored without its log shows the question alone.
            report = t.presenter.report(t.client.events_since(max(0, self._event_floor())))
            report = report or Report(t.now.view.turn, ["(this round's log is not in the game)"], [], [])
            t.push_modal(ExecutionScreen(report, decision, len(report.steps), self._words()), self._closed)
        return True

    def show_last(self) -> None:
        """The last resolution again, step by step (and the question it waits for)."""
        t = self.table
        report = t.presenter.report(t.client.events_since(0))
        if report is None:
            t.notify("No round has been carried out yet.")
            return
        decision = self._human_decision()
        if decision is not None:
            self.deferred = None
            start = len(report.steps)  # at the question, the steps so far above it
            t.push_modal(ExecutionScreen(report, decision, start, self._words()), self._closed)
            return
        t.push(ExecutionScreen(report, words=self._words()))

    def _words(self) -> Callable[[str], str] | None:
        """How the round's lines name units: as the log does (names, or the ids with ``I``)."""
        t = self.table
        return None if t.session.log_ids else t.name_units

    def _decision(self) -> dict[str, Any] | None:
        """The question the resolution waits for, as every view holds it, or None: side, question, rule and
        options (the option's notation, its words)."""
        t = self.table
        q = t.now.waiting.question
        if q is None or t.client.outcome is not None:
            return None
        options = [[t.client.describe(a), label] for a, label in q.options]
        return {"side": q.side, "question": q.text, "rule": q.rule, "options": options}

    def _human_decision(self) -> dict[str, Any] | None:
        """The waiting question if a human player answers it (an AI's goes through the AI)."""
        d = self._decision()
        return d if d is not None and self.table.session.is_human(str(d.get("side"))) else None

    def _decision_key(self) -> tuple[int, int]:
        q = self.table.now.waiting.question
        return (self.table.now.view.turn, q.serial if q is not None else 0)

    def _show_report(self) -> bool:
        """Show the side on screen the resolution just carried out (once per side; one that paused at a question
        is shown on from the step where it paused); True if shown."""
        t = self.table
        if not t.presenter.shows_reports or not t.session.is_human(t.client.side):
            return False
        report = t.presenter.report(t.client.events_since(max(0, self._event_floor())))
        if report is None:
            return False
        size = sum(len(lines) for _, lines in report.steps) + len(report.steps) + len(report.after)
        seen = self.seen.get(t.client.side, (0, 0, 0))
        if report.round < seen[0] or (report.round == seen[0] and size <= seen[1]):
            return False
        start = seen[2] if report.round == seen[0] else 0  # on from the step where it paused
        self.seen[t.client.side] = (report.round, size, len(report.steps))
        t.push_modal(ExecutionScreen(report, self._human_decision(), start, self._words()), self._closed)
        return True

    def _event_floor(self) -> int:
        """Where to look for the last round's events (the recent events are enough)."""
        return self.table.client.event_count - 2000

    def _closed(self, choice: str | None = None) -> None:
        t = self.table
        decision = self._human_decision()
        if decision is None:
            t.advance()
            return
        if choice is None:
            self.deferred = self._decision_key()  # closed without answering: r asks again
            t.notify(f"{t.info.side_name(str(decision['side']))} decides: r shows the question (15.2)")
            t.refresh_view()
            return
        self._answer(str(decision["side"]), choice)

    def _answer(self, side: str, key: str) -> None:
        """Answer the question for the deciding side (15.2: public, no hand-off; the table's side stays); ``key``
        is the chosen option's notation, played as the option's action."""
        t = self.table
        client = t.session.client(side)
        q = t.now.waiting.question
        options = {t.client.describe(a): a for a, _ in q.options} if q is not None else {}
        try:
            action: Action = options[key] if key in options else client.parse(key)
            client.apply(action)
        except ValueError as err:  # an ActionError names the rule; an engine fault leaves the game unchanged
            t.report_error(f"{key}: {err}")
            return
        t.decisions += 1
        t.after_change()


class OrdersSummaryScreen(ModalScreen[None]):
    """The orders a side has given this round (its own sheet only)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,g,backspace", "leave", "Close", id="summary.close"),
        Binding("question_mark", "app.help", "Help", key_display="?", show=False, id="summary.help"),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | enter, escape, g, backspace | Close the summary. |
    | ? | The keys of this screen. |
    """
    KEY_HELP: ClassVar[dict[str, str]] = {
        "summary.close": "close the summary, back to the table",
        "summary.help": "the keys of this screen",
    }
    DEFAULT_CSS = """
    OrdersSummaryScreen {
        align: center middle;
    }
    OrdersSummaryScreen VerticalScroll {
        width: 90%;
        max-width: 110;
        height: auto;
        max-height: 90%;
        border: thick $primary;
        background: $surface;
        padding: 0 1;
    }
    """

    def __init__(self, title: str, lines: list[Text | str]) -> None:
        super().__init__()
        self.title_text = title
        self.lines = lines

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(Text(self.title_text, style="bold"))
            for line in self.lines:
                yield Static(line)
            yield Static(Text("enter, escape or g closes · ?: keys", style="dim"))

    def action_leave(self) -> None:
        """Close."""
        self.dismiss(None)


class ExecutionScreen(ModalScreen[str | None]):
    """The reveal (both sides' orders), then the execution step by step with each step's events; when execution
    waits for a decision (15.2), after the last step so far the question, naming the deciding side, and its
    options: the screen returns the chosen option's key (None: closed without choosing). Units are named as the log
    names them (``words``; None: the ids as the engine wrote them)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space,n", "next", "Next step", id="exec.next"),
        Binding("up", "move(-1)", "Option up", show=False, priority=True, id="exec.up"),
        Binding("down", "move(1)", "Option down", show=False, priority=True, id="exec.down"),
        Binding("e", "to_end", "To the end", id="exec.end"),
        Binding("escape", "leave", "Close", id="exec.close"),
        *(Binding(str(i), f"pick({i - 1})", f"Choose {i}", show=False, id=f"exec.{i}") for i in range(1, 10)),
        Binding("question_mark", "app.help", "Help", key_display="?", show=False, id="exec.help"),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | enter, space, n | The next step (after the last: back to the table); at a decision: the highlighted option. |
    | 1 … 9 | At a decision (15.2): choose the option with that number. |
    | up, down | At a decision: highlight the option above or below (every option, beyond 9 too); elsewhere: scroll. |
    | e | Run to the end of the round (or to the decision it waits for): every step at once. |
    | escape | Back to the table (a decision waits; r shows it again). |
    | ? | The keys of this screen. |
    """
    KEY_HELP: ClassVar[dict[str, str]] = {
        "exec.next": "the next step of the execution (after the last one: back to the table); "
        "at a decision: the highlighted option (at first 1, the preset policy, 15.2)",
        "exec.up": "at a decision: highlight the option above (elsewhere: scroll up)",
        "exec.down": "at a decision: highlight the option below, every option, beyond 9 too (elsewhere: scroll down)",
        "exec.end": "run to the end of the round, or to the decision execution waits for: every step at once",
        "exec.close": "back to the table (a decision waits: r shows it again)",
        "exec.help": "the keys of this screen",
        **{f"exec.{i}": f"at a decision: choose option {i} (15.2)" for i in range(1, 10)},
    }

    DEFAULT_CSS = """
    ExecutionScreen {
        align: center middle;
    }
    ExecutionScreen VerticalScroll {
        width: 90%;
        max-width: 120;
        height: 90%;
        border: thick $primary;
        background: $surface;
        padding: 0 1;
    }
    """

    def __init__(
        self,
        report: Report,
        decision: Mapping[str, Any] | None = None,
        start: int = 0,
        words: Callable[[str], str] | None = None,
    ) -> None:
        super().__init__()
        self.report = report
        self.words: Callable[[str], str] = words or str
        self.decision = decision
        """The decision execution waits for (``side``, ``question``, ``rule``, ``options``: [key, label]), or None."""
        self.stage = min(max(0, start), len(report.steps))
        """0: the reveal; N: steps 1..N shown."""
        self.cursor = 0
        """The highlighted option of the decision (Enter takes it; at first the preset's)."""

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(id="exec-body")
            yield Static(id="exec-help")

    def on_mount(self) -> None:
        self._show_stage()

    @property
    def text(self) -> str:
        """The plain text shown (tests read it)."""
        return self._body().plain

    def _body(self) -> Text:
        r = self.report
        t = Text()
        if self.stage == 0:
            t.append(f"Round {r.round}: the orders revealed (2.4)\n\n", style="bold underline")
            for line in r.head or ["(no orders: every unit holds)"]:
                t.append(f"· {self.words(line)}\n")
            if not r.steps and self.decision is not None:
                self._question(t, self.decision, self.cursor, self.words)
            return t
        total = len(r.steps)
        t.append(f"Round {r.round}: step {self.stage} of {total}\n\n", style="bold underline")  # its name: below
        for n, (heading, lines) in enumerate(r.steps[: self.stage], start=1):
            current = n == self.stage
            t.append(f"{heading}\n", style="bold reverse" if current else "bold")
            for line in lines or ["nothing happens"]:
                t.append(f"  · {self.words(line)}\n", style="" if current or lines else "dim")
        if self.stage == total:
            for line in r.after:
                t.append(f"{self.words(line)}\n", style="bold")
            if self.decision is not None:
                self._question(t, self.decision, self.cursor, self.words)
        return t

    @staticmethod
    def _question(t: Text, d: Mapping[str, Any], cursor: int = 0, words: Callable[[str], str] = str) -> None:
        """The decision on the shared screen (15.2: public now), naming the deciding side, and its options (the
        highlighted one marked)."""
        side = str(d.get("side", "?")).upper()
        question = words(str(d.get("question", "")))
        t.append(f"\n{side} decides (rule {d.get('rule', '?')}, 15.2): {question}\n", style="bold reverse")
        for i, (_key, label) in enumerate(d.get("options", []), start=1):
            here = i - 1 == cursor
            t.append(f"{'▶' if here else ' '} {i:>2}  {words(str(label))}", style="reverse" if here else "")
            t.append("  (preset)\n" if i == 1 else "\n", style="italic")

    def _show_stage(self) -> None:
        self.query_one("#exec-body", Static).update(self._body())
        self.query_one(VerticalScroll).scroll_end(animate=False)
        last = self.stage >= len(self.report.steps)
        keys = "enter: back to the table" if last else "enter: next step · e: end of the round"
        if last and self.decision is not None:
            n = len(self.decision.get("options", []))
            keys = f"1–{min(n, 9)}: choose · ↑↓: highlight · enter: the highlighted option ({self.cursor + 1})"
        self.query_one("#exec-help", Static).update(Text(f"{keys} · escape: close · ?: keys", style="dim"))

    def action_next(self) -> None:
        """The next step, or close after the last (at a decision: take the preset, option 1)."""
        if self.stage >= len(self.report.steps):
            self.dismiss(self._key(self.cursor) if self.decision is not None else None)
            return
        self.stage += 1
        self._show_stage()

    def action_to_end(self) -> None:
        """Every step at once."""
        self.stage = len(self.report.steps)
        self._show_stage()

    def action_move(self, delta: int) -> None:
        """At the decision: highlight another option; elsewhere scroll the round's text."""
        n = len((self.decision or {}).get("options", []))
        if not n or self.stage < len(self.report.steps):
            scroll = self.query_one(VerticalScroll)
            (scroll.scroll_up if delta < 0 else scroll.scroll_down)(animate=False)
            return
        self.cursor = (self.cursor + delta) % n
        self._show_stage()
        if self.cursor > 5:  # keep the highlighted option on screen
            self.query_one(VerticalScroll).scroll_end(animate=False)

    def _key(self, index: int) -> str | None:
        options = list((self.decision or {}).get("options", []))
        return str(options[index][0]) if 0 <= index < len(options) else None

    def action_pick(self, index: int) -> None:
        """At the decision (after the last step so far): choose option ``index + 1``."""
        if self.decision is None:
            return
        if self.stage < len(self.report.steps):
            self.action_to_end()  # the question comes after the events before it
            return
        key = self._key(index)
        if key is None:
            self.notify(f"there is no option {index + 1}", severity="warning")
            return
        self.dismiss(key)

    def action_leave(self) -> None:
        """Back to the table."""
        self.dismiss(None)
