"""Provides actions: a verb with arguments, written and read as notation (``move ger-1 0705 0706``)."""

from __future__ import annotations

import shlex
from dataclasses import dataclass

from .errors import InvalidActionError

__all__ = ["Action", "parse_notation"]


@dataclass(frozen=True, slots=True, order=True)
class Action:
    """One decision: ``Action("fire", ("ger-4pz-1", "fra-2cu-3"))``; ``str()`` gives its notation."""

    verb: str
    args: tuple[str, ...] = ()

    def __str__(self) -> str:
        return " ".join((self.verb, *(shlex.quote(a) if (" " in a or not a) else a for a in self.args)))

    def __repr__(self) -> str:
        return f"Action({self.verb!r}, {self.args!r})"

    @property
    def notation(self) -> str:
        """The action as notation (same as ``str()``)."""
        return str(self)


def parse_notation(text: str) -> Action:
    """Split notation into verb and arguments (no check against a ruleset).

    Raises:
        InvalidActionError: empty text or unbalanced quotes.

    >>> parse_notation("move ger-1 0705 0706")
    Action('move', ('ger-1', '0705', '0706'))
    """
    try:
        tokens = shlex.split(text.strip())
    except ValueError as err:
        raise InvalidActionError(f"cannot read {text!r}: {err}") from None
    if not tokens:
        raise InvalidActionError("empty action: type a verb and its arguments, e.g. 'pass'")
    return Action(tokens[0].lower(), tuple(tokens[1:]))
