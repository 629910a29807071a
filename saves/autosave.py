"""Provides :class:`Autosaver`: a save after every action, and rotating copies at turn boundaries.

Use it in place of ``game.apply``: ``Autosaver(game).apply("move ger-1 0705 0706")`` applies, then saves.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path

from engine.actions import Action
from engine.events import Event
from engine.game import Game

from .errors import SaveError
from .fileio import write_atomic
from .games import SavedGame, encode_game, is_good_save
from .header import SaveHeader, utc_now
from .paths import SUFFIX, autosave_dir
from .signals import deferred_signals

__all__ = ["KEEP_TURNS", "Autosaver"]

KEEP_TURNS = 5
"""How many rotating turn autosaves are kept per game."""


class Autosaver:
    """Saves one game to its autosave file after every action, and keeps a copy from the start of each turn.

    The autosave file is ``<stem>.planspiel``; the turn copies are ``<stem>.turn<NNN>.planspiel`` beside it,
    the last :data:`KEEP_TURNS` kept. Every write is atomic and keeps the previous autosave as ``.bak``.

    A turn copy holds the position at the start of its turn: the first save of a game that has a history (one
    resumed from a save) writes none for the turn under way, whose start it never saw (it would overwrite the
    copy of that turn's start with a position from its middle); the copy of the next turn is written as usual.

    Args:
        game: the game to save (the same object is saved every time, so keep playing on it).
        path: the autosave file; default ``autosave_dir() / "<scenario>-<date>-<time>.planspiel"``.
        players: side id → ``"human"`` or ``"ai:<level>"`` (see :func:`saves.save_game`).
        keep: how many turn copies to keep (0: none).
    """

    def __init__(
        self,
        game: Game,
        path: str | os.PathLike[str] | None = None,
        *,
        players: Mapping[str, str] | None = None,
        keep: int = KEEP_TURNS,
    ) -> None:
        if keep < 0:
            raise ValueError(f"keep must be 0 or more, not {keep}")
        self.game = game
        self.players = dict(players) if players is not None else None
        self.keep = keep
        created = getattr(game, "created", None) if isinstance(game, SavedGame) else None
        self.created: str = created or utc_now()
        if path is None:
            stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
            path = autosave_dir() / f"{game.scenario.id}-{stamp}{SUFFIX}"
        self.path = Path(path)
        self._turn: int | None = game.state.turn if game.history else None
        """The turn whose copy was written (or, for a resumed game, whose start was before this saver)."""
        self._wrote = False

    def __repr__(self) -> str:
        return f"<Autosaver {self.path} keep={self.keep}>"

    @property
    def stem(self) -> str:
        """The autosave file's name without ``.planspiel``; turn copies start with it."""
        name = self.path.name
        return name[: -len(SUFFIX)] if name.endswith(SUFFIX) else name

    def turn_path(self, turn: int) -> Path:
        """Where the copy from the start of ``turn`` goes."""
        return self.path.with_name(f"{self.stem}.turn{turn:03d}{SUFFIX}")

    def turn_saves(self) -> list[Path]:
        """The turn copies of this game that exist, oldest turn first."""
        pattern = re.compile(re.escape(self.stem) + r"\.turn(\d+)" + re.escape(SUFFIX) + "$")
        found: list[tuple[int, Path]] = []
        try:
            with os.scandir(self.path.parent) as entries:
                for e in entries:
                    m = pattern.match(e.name)
                    if m:
                        found.append((int(m.group(1)), Path(e.path)))
        except OSError:
            return []
        return [p for _, p in sorted(found)]

    def save(self) -> SaveHeader:
        """Save the game now (call it after every action); at a new turn, also write the turn copy.

        Raises:
            SaveError: the save could not be written; the previous autosave is intact.
        """
        with deferred_signals():
            data, header = encode_game(self.game, self.players, created=self.created, name=str(self.path))
            # The previous autosave is known to be good once this saver wrote it; only an older file is checked.
            write_atomic(self.path, data, backup=True, is_good=None if self._wrote else is_good_save)
            self._wrote = True
            if self.keep and header.turn != self._turn:
                write_atomic(self.turn_path(header.turn), data, backup=False)
                self._turn = header.turn
                self._prune()
        return header

    def apply(self, action: Action | str, side: str | None = None) -> list[Event]:
        """Apply an action to the game, then save; returns the action's events.

        Raises:
            IllegalActionError, InvalidActionError: the action was refused (nothing is saved).
            SaveError: the action was applied but the save could not be written.
        """
        with deferred_signals():  # a hang-up half-way through an action waits for the action and its save
            events = self.game.apply(action, side)
            self.save()
        return events

    def _prune(self) -> None:
        copies = self.turn_saves()
        for old in copies[: max(0, len(copies) - self.keep)]:
            try:
                old.unlink()
            except FileNotFoundError:
                pass
            except OSError as err:
                raise SaveError(old, f"cannot remove an old turn autosave: {err.strerror or err}") from None
