"""Provides what the screens may ask of the app that hosts them: settings, the map palette and the app's screens.

Screens depend on this protocol, never on :class:`~tui.app.PlanspielApp` itself: the app imports the screens
to show them, and a screen importing the app back would be an import cycle (the acyclic contract in
``pyproject.toml`` forbids one).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from textual.app import App

if TYPE_CHECKING:
    from engine import Waiting

    from .session import Session
    from .settings import Settings
    from .theme import MapPalette

__all__ = ["Host", "host_of"]


class Host(Protocol):
    """The app as its screens use it."""

    settings: Settings
    palette: MapPalette
    session: Session | None

    @property
    def no_color(self) -> bool:
        """True under ``NO_COLOR``: the monochrome theme whatever the settings say."""
        ...

    # --- Screens ------------------------------------------------------------------------------------

    def back_to_title(self) -> None:
        """Close every screen above the title screen."""
        ...

    def open_new_game(self) -> None:
        """The new-game screen."""
        ...

    def open_load(self) -> None:
        """The load screen."""
        ...

    def open_rules(self) -> None:
        """The rules reference."""
        ...

    def open_settings(self) -> None:
        """The settings screen."""
        ...

    def open_lobby(self) -> None:
        """The lobby of the server this game runs on (``planspiel serve``)."""
        ...

    def start_session(self, session: Session, side: str | None = None) -> None:
        """Put a game on the table and show it (from ``side``'s view when given)."""
        ...

    def exit(self, result: Any = None, return_code: int = 0, message: Any = None) -> None:
        """Quit."""
        ...

    # --- Games --------------------------------------------------------------------------------------

    def new_game(
        self,
        ruleset: str,
        scenario: str,
        players: Mapping[str, str | None],
        seed: int | None = None,
        setup: str = "scenario",
    ) -> bool:
        """Start a new game; False (and a notification) if it cannot start."""
        ...

    def load_game(self, path: str | Path) -> bool:
        """Continue a saved game; False (and a notification) if it cannot be loaded."""
        ...

    def new_campaign(self, ruleset: str, campaign_id: str, players: Mapping[str, str | None]) -> bool:
        """Start a campaign and open battle 1; False (and a notification) if it cannot start."""
        ...

    def start_campaign_battle(self, play: Any) -> bool:
        """Put a campaign's battle under way (a :class:`~tui.campaign.CampaignPlay`) on the table."""
        ...

    def show_between_battles(self, play: Any) -> None:
        """The between-battles screen of a campaign."""
        ...

    def save_game(self, session: Session) -> None:
        """Save by hand and say where."""
        ...

    def needs_handoff(self, session: Session, waiting: Waiting | None = None) -> bool:
        """True if control passing between two humans goes through the blank hand-off screen."""
        ...

    def push_handoff(self, session: Session, side: str, callback: Callable[[str], None]) -> None:
        """Show the hand-off screen for ``side``, then call ``callback(side)``."""
        ...

    def handed_on(self, session: Session, side: str) -> None:
        """Control left ``side`` without a hand-off screen: its next hand-off summary starts here."""
        ...

    def show_end(self, session: Session) -> None:
        """The end-of-game screen (once per game)."""
        ...

    # --- Settings -----------------------------------------------------------------------------------

    def apply_theme(self) -> None:
        """Use the chosen theme for panels and map."""
        ...

    def apply_keymap(self) -> None:
        """Use the player's key bindings."""
        ...

    def save_settings(self) -> None:
        """Write the settings file (a failure is a notification)."""
        ...


def host_of(app: App[Any]) -> Host:
    """The app as its screens use it (the Planspiel app implements :class:`Host`)."""
    return app  # type: ignore[return-value]
