"""Provides :func:`verify_save`: load a game or campaign save with the replay check and report what differs."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

from .campaign import load_campaign
from .errors import SaveError
from .games import SavedGame, load_game, read_header
from .header import SaveHeader

__all__ = ["VerifyReport", "verify_save"]


@dataclass(frozen=True, slots=True)
class VerifyReport:
    """The result of :func:`verify_save`: ``ok`` when the history replays to exactly the saved position."""

    path: Path
    ok: bool
    problems: tuple[str, ...]
    """Sentences: why the file cannot be loaded, or how the replay differs."""
    header: SaveHeader | None
    seconds: float
    """How long loading with the replay check took."""


def verify_save(path: str | os.PathLike[str]) -> VerifyReport:
    """Load a save (a game, or a campaign's current battle) with the replay check, and report.

    Never raises for a bad file: the report says why. The backup is not used: this checks the file itself.
    """
    target = Path(path)
    start = time.perf_counter()
    try:
        header = read_header(target)
        if header.kind == "campaign":
            campaign = load_campaign(target, verify="replay", backup=False)
            game = campaign.battle if isinstance(campaign.battle, SavedGame) else None
            ok = (game is None or game.verified) and not campaign.warnings
            return VerifyReport(target, ok, tuple(campaign.warnings), header, time.perf_counter() - start)
        game = load_game(target, verify="replay", backup=False)
    except SaveError as err:
        return VerifyReport(target, False, (err.cause,), None, time.perf_counter() - start)
    problems = tuple(game.warnings)
    return VerifyReport(target, game.verified and not problems, problems, game.header, time.perf_counter() - start)
