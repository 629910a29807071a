"""Provides the engine's exceptions: action errors a player reads, and file problems a designer reads."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "ActionError",
    "AmbiguousActionError",
    "IllegalActionError",
    "InvalidActionError",
    "PlanspielError",
    "Problem",
    "ReplayError",
    "ScenarioError",
    "StateError",
    "UnknownRulesetError",
]


class PlanspielError(Exception):
    """Base of every error the engine raises on purpose."""


class ActionError(ValueError, PlanspielError):
    """An action was refused. ``str(err)`` is a sentence a player can read; ``rule`` cites the section."""

    def __init__(self, message: str, rule: str | None = None) -> None:
        self.message = message
        self.rule = rule
        text = message if rule is None or f"rule {rule}" in message else f"{message} (rule {rule})"
        super().__init__(text)


class InvalidActionError(ActionError):
    """The notation is malformed: unknown verb, wrong number of arguments, unknown unit or hex."""


class AmbiguousActionError(InvalidActionError):
    """The notation matches more than one action."""


class IllegalActionError(ActionError):
    """The action is well formed but not allowed now."""


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem found in a scenario or map file."""

    file: str
    """The file's path (or ``ruleset/id`` for a built-in scenario)."""
    where: str
    """``line N`` and/or the key, e.g. ``line 12, units[3].hex``."""
    message: str
    """What is wrong and what was expected."""

    def __str__(self) -> str:
        return f"{self.file}: {self.where}: {self.message}" if self.where else f"{self.file}: {self.message}"


class ScenarioError(PlanspielError):
    """A scenario or map file is broken; ``problems`` lists every problem found, not just the first."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = list(problems)
        n = len(self.problems)
        head = f"{n} problem{'s' if n != 1 else ''} found"
        super().__init__(head + ":\n" + "\n".join(f"  {p}" for p in self.problems))


class UnknownRulesetError(LookupError, PlanspielError):
    """No ruleset is registered under that id."""

    def __init__(self, ruleset_id: str, known: list[str]) -> None:
        self.ruleset_id = ruleset_id
        listing = ", ".join(known) if known else "none installed"
        super().__init__(f"unknown ruleset {ruleset_id!r} (known: {listing})")


class StateError(ValueError, PlanspielError):
    """Saved ruleset state cannot be read into the ruleset's types; ``str(err)`` names the path and the problem
    (``data.formations['f1'].ff: expected int, got 'x'``)."""


class ReplayError(PlanspielError):
    """An action of a history could not be applied while replaying it."""

    def __init__(self, position: int, notation: str, cause: Exception) -> None:
        self.position = position
        self.notation = notation
        self.cause = cause
        super().__init__(f"illegal action in the history at position {position} ({notation!r}): {cause}")
