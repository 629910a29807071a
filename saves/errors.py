"""Provides :class:`SaveError`, the one exception the saves package raises for a file it cannot use, and
:func:`shown`, the way its messages quote a value read from a file."""

from __future__ import annotations

import os
import reprlib

from engine.errors import PlanspielError

__all__ = ["SaveError", "shown"]

_REPR = reprlib.Repr()
_REPR.maxlevel = 3
_REPR.maxstring = 50
_REPR.maxother = 50


def shown(value: object, limit: int = 60) -> str:
    """``value`` quoted for a message: its repr, at most ``limit`` characters and three levels deep, so that a
    huge or deeply nested value from a hostile file costs no time and never raises."""
    if isinstance(value, str):  # text is cut at the end, not in the middle as reprlib would
        return repr(value) if len(value) <= limit - 2 else repr(value[: limit - 5]) + "..."
    try:
        text = _REPR.repr(value)
    except Exception:  # a value whose repr fails
        text = f"<a {type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


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
