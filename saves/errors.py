"""Provides :class:`SaveError`, the one exception the saves package raises for a file it cannot use."""

from __future__ import annotations

import os

from engine.errors import PlanspielError

__all__ = ["SaveError"]


class SaveError(PlanspielError):
    """A save could not be written or read. ``str(err)`` is ``"<file>: <cause>"``, a sentence a player can read.

    Attributes:
        path: the file concerned.
        cause: what went wrong, without the file name.
    """

    def __init__(self, path: str | os.PathLike[str], cause: str) -> None:
        self.path = os.fspath(path)
        self.cause = cause
        super().__init__(f"{self.path}: {cause}")
