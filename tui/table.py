"""Provides what an interaction mode (:mod:`tui.modes`) and the game screen's helpers may ask of the table, and
what the table read from its side's client (:class:`Snapshot`).

The game screen (:class:`~tui.screens.game.GameScreen`) implements :class:`Table`; a mode holds the table, never
the screen class, so that a mode imports no screen and no Textual (its lists and questions go through
:meth:`Table.choose` and :meth:`Table.confirm`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, Protocol

from rich.text import Text

from engine import Action, ActionInfo, GameState, Hex, Role, Unit, Waiting
from engine.presentation import GameInfo, Presentation

from .client import GameClient
from .overlay import Legal

if TYPE_CHECKING:
    from .choices import Words
    from .entry import Entry
    from .session import Session

__all__ = ["Pick", "Snapshot", "Table"]

Pick = Callable[[ActionInfo], bool]
"""A test of what an action means (its roles, its unit...)."""


@dataclass(frozen=True, eq=False)
class Snapshot:
    """What a side's table read from its client at once: the view, the legal actions with what each means, what
    the game waits for."""

    client: GameClient
    view: GameState
    legal: list[Action] = field(default_factory=list)
    infos: dict[Action, ActionInfo] = field(default_factory=dict)
    """What each legal action means (the engine's answer, read once)."""
    waiting: Waiting = field(default_factory=lambda: Waiting(None))

    @classmethod
    def read(cls, client: GameClient) -> Snapshot:
        """Read the view, the legal actions, what each means and what the game waits for."""
        legal = client.legal_actions()
        return cls(client, client.view(), legal, {a: client.action_info(a) for a in legal}, client.waiting())

    @cached_property
    def legal_infos(self) -> Legal:
        """The legal actions with what each means, in the engine's order."""
        return tuple(self.infos.items())

    def info_of(self, action: Action) -> ActionInfo:
        """What an action means (a legal one as read, another from the engine)."""
        got = self.infos.get(action)
        return got if got is not None else self.client.action_info(action)

    def unit(self, unit_id: str | None) -> Unit | None:
        """A unit of the view, if it is there."""
        return self.view.units.get(unit_id) if unit_id else None

    def unit_actions(self, unit_id: str, pick: Pick | None = None) -> list[Action]:
        """A unit's legal actions (that ``pick`` accepts)."""
        return [a for a in self.legal if (i := self.info_of(a)).unit == unit_id and (pick is None or pick(i))]

    def actions(self, pick: Pick) -> list[Action]:
        """The legal actions that ``pick`` accepts."""
        return [a for a in self.legal if pick(self.info_of(a))]

    def end_action(self) -> Action | None:
        """The legal action that ends the side's activation, turn or planning (no unit's), if any."""
        return next((a for a in self.legal if (i := self.info_of(a)).has(Role.END) and i.unit is None), None)


class Table(Protocol):
    """The game screen as the modes use it: one side's view and decisions, the selection, the dialogs."""

    client: GameClient
    """The client of the side on screen."""
    session: Session
    info: GameInfo
    presenter: Presentation
    selected: str | None
    """The selected unit (set it to select)."""
    entry: Entry | None
    """The order being written (the plan mode)."""
    decisions: int
    """How many actions this table applied."""
    ai_side: str | None
    """The side whose AI is thinking, if one is."""

    @property
    def now(self) -> Snapshot:
        """What the table read from its client last."""
        ...

    @property
    def cursor(self) -> Hex:
        """The hex under the map cursor."""
        ...

    @property
    def is_mounted(self) -> bool:
        """True once the screen is on."""
        ...

    def words(self) -> Words:
        """The words of lists and questions for the side on screen."""
        ...

    def selectable_at(self, h: Hex) -> list[str]:
        """Units on ``h`` the player may select now."""
        ...

    def to_decide(self) -> bool:
        """True if the keys that act may be used: the screen is on, no AI is thinking, the side on screen is to
        act."""
        ...

    def can_decide(self) -> bool:
        """True if the side on screen may decide now (no dialog, no AI, its turn, something legal)."""
        ...

    # --- Doing --------------------------------------------------------------------------------------

    def select_unit(self, unit_id: str | None) -> None:
        """Select a unit (None: deselect), the cursor on it."""
        ...

    def deselect(self) -> None:
        """Deselect and hide the line of sight."""
        ...

    def play(self, action: Action, *, confirmed: bool = False) -> None:
        """Play an action for the side on screen (a shot's odds are confirmed first)."""
        ...

    def decide(self, actions: list[Action], title: str) -> None:
        """One action: play it; several: ask which."""
        ...

    def open_choices(self) -> None:
        """Every legal decision now, as a list with explanations."""
        ...

    def choose(self, title: str, items: Sequence[tuple[Any, Text | str]], then: Callable[[Any], None]) -> None:
        """Ask for one of ``items`` (a list); ``then(value)``, None if closed without a choice."""
        ...

    def confirm(self, title: str, lines: Sequence[Text | str], then: Callable[[bool], None]) -> None:
        """Ask a yes-or-no question with details; ``then(answer)``."""
        ...

    def show_lines(self, title: str, lines: Sequence[Text | str]) -> None:
        """Show lines to read (a sheet of orders) until the player closes them."""
        ...

    def show_last_report(self) -> None:
        """The last resolution again, step by step."""
        ...

    def focus_map(self) -> None:
        """Give the keys to the map (its cursor)."""
        ...

    def refresh_view(self) -> None:
        """Read the view and legal actions again."""
        ...

    def notify(
        self, message: str, *, title: str = "", severity: Any = "information", timeout: float | None = None
    ) -> None:
        """A notification."""
        ...

    def report_error(self, message: str) -> None:
        """A refusal in the log and as a notification."""
        ...

    def named(self, text: str) -> str:
        """A line with the units named as the player reads them (ids while ``I`` shows ids)."""
        ...
