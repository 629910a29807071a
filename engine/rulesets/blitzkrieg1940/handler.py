"""Provides the base of a decision-frame handler: what a kind of pending decision offers, checks and applies.

Each kind of frame on the decision stack (``data(state).frames``, see :mod:`.model`) has one handler, defined
in the module of its rules (the set-up in :mod:`.deployment`, arrivals in :mod:`.arrival`, the chits in
:mod:`.sequence`, unit actions and reactions in :mod:`.actions`, close combat in :mod:`.closecombat`);
:mod:`.frames` holds the registry the ruleset dispatches through. A handler says:

- which actions are legal (:meth:`FrameHandler.actions`, in a fixed order);
- why another action is refused (:meth:`FrameHandler.check`, citing the rule);
- what an action does (:meth:`FrameHandler.apply`, given the action read once into its typed notation);
- what happens without a decision (:meth:`FrameHandler.auto`: a frame that closes by itself);
- what the game waits for, in words (:meth:`FrameHandler.waiting_for`) and as an interaction mode
  (:meth:`FrameHandler.mode`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import fields
from typing import TYPE_CHECKING, ClassVar, Generic, Protocol, TypeVar

from engine.actions import Action
from engine.contract import CHOOSE
from engine.errors import IllegalActionError, InvalidActionError
from engine.notation import Arg, Notation, slots
from engine.rules import Transition
from engine.state import GameState

from . import notation as N
from .verbs import UNIT

if TYPE_CHECKING:
    from .model import Rules

__all__ = ["FrameHandler", "UnitFrameHandler", "named_unit", "unknown_unit"]


class _Decision(Protocol):
    """A decision frame, as far as every handler reads it: the side that decides."""

    @property
    def side(self) -> str: ...


_CITES = re.compile(r"\brules? \d")
"""A sentence that already cites a rule."""

_UNIT_ARGS = frozenset({Arg.ACTOR, Arg.UNIT, Arg.TARGET})
"""The argument kinds that name a unit."""

F = TypeVar("F", bound=_Decision)
"""The frame record class a handler handles (one of :data:`.model.Frame`)."""


class FrameHandler(Generic[F]):
    """One kind of decision frame (its record class ``F``). Subclasses set :attr:`kind` and override what their
    frame needs."""

    kind: ClassVar[str] = ""
    """The frame kind handled (``"chit"``, ``"window"``...)."""
    rule: ClassVar[str] = "2.9"
    """The rule cited when an action is refused for being out of turn."""

    def actions(self, rs: Rules, st: GameState, f: F) -> list[Action]:
        """The legal actions, in a fixed order."""
        return []

    def check(self, rs: Rules, st: GameState, f: F, action: Action, typed: Notation) -> None:
        """Raise :class:`IllegalActionError` if ``action`` is not legal now. The default compares with
        :meth:`actions` and says what the game waits for."""
        legal = self.actions(rs, st, f)
        if action in legal:
            return
        choices = ", ".join(str(a) for a in legal)
        raise IllegalActionError(
            f"Cannot {action}: {self.waiting_for(st, f)}; the choices are {choices}", rule=self.rule
        )

    def apply(self, rs: Rules, tr: Transition, f: F, typed: Notation) -> None:
        """Apply a legal action, read into its typed notation."""
        raise IllegalActionError(f"{typed.verb} is not possible here")  # pragma: no cover

    def auto(self, rs: Rules, tr: Transition, f: F) -> bool:
        """Resolve the frame if it needs no decision now; True if something was done."""
        return False

    def waiting_for(self, st: GameState, f: F) -> str:
        """A sentence saying which decision the game waits for (refusals, the status line)."""
        return f"{f.side.title()} decides"

    def mode(self, rs: Rules, st: GameState, f: F, legal: Sequence[Action]) -> str:
        """The interaction mode of the decision (:mod:`engine.contract`); the default: pick from a list."""
        return CHOOSE

    def usual(self, rs: Rules, st: GameState, f: F, legal: Sequence[Action]) -> Action | None:
        """The answer most players give (:attr:`engine.Waiting.usual`), if the decision has one; the default:
        none (always asked)."""
        return None


def named_unit(verb: str, typed: Notation) -> str | None:
    """The unit id a unit action names first (its acting unit), or None for ``end``, barrages, ``close`` and the
    verbs of the set-up and of the sequence of play."""
    if verb not in UNIT or isinstance(typed, N.Salvo | N.Stuka):
        return None
    names = [f.name for f in fields(typed)]  # type: ignore[arg-type]
    first = getattr(typed, names[0]) if names else None
    return first if isinstance(first, str) else None


def unknown_unit(typed: Notation, st: GameState) -> str | None:
    """Why a unit action names no unit of the state (its acting unit, a partner, an observer, a target), or None;
    the verbs of the set-up and of the sequence of play name formations and chits too, and are not looked at."""
    if typed.verb not in UNIT:
        return None
    for slot in slots(type(typed)):
        if slot.kind in _UNIT_ARGS:
            value = getattr(typed, slot.name)
            if isinstance(value, str) and value not in st.units:
                return f"{typed.verb}: no unit {value!r} ({slot.words})"
    return None


class UnitFrameHandler(FrameHandler[F]):
    """A frame whose actions name units (unit actions, reactions, choices, close combat): an unknown unit is
    refused first, then an action that is not legal with the most precise reason found (:meth:`refusal`)."""

    forms: ClassVar[tuple[type[Notation], ...]] = ()
    """The notation forms this frame decides: every unit they name must be a unit of the state (another verb is
    refused for being out of turn, whatever it names after its acting unit)."""

    def check(self, rs: Rules, st: GameState, f: F, action: Action, typed: Notation) -> None:
        uid = named_unit(action.verb, typed)
        if uid is not None and uid not in st.units:
            raise InvalidActionError(f"no unit {uid!r}")
        unknown = unknown_unit(typed, st) if isinstance(typed, self.forms) else None
        if unknown is not None:
            raise InvalidActionError(unknown)
        quick = self.quick_candidates(rs, st, f, typed)
        if quick is not None and (action in quick or self.accepts(rs, st, f, typed, quick)):
            return
        legal = self.candidates(rs, st, f, typed)
        if action in legal or self.accepts(rs, st, f, typed, legal):
            return
        self.refuse(rs, st, f, action, typed, legal)

    def candidates(self, rs: Rules, st: GameState, f: F, typed: Notation) -> list[Action]:
        """The legal actions that the action checked could be one of."""
        return self.actions(rs, st, f)

    def quick_candidates(self, rs: Rules, st: GameState, f: F, typed: Notation) -> list[Action] | None:
        """Some of :meth:`candidates` (never another action), enough to accept a legal action for less; None
        when there is no such shortcut. An action they do not accept is checked against :meth:`candidates`, so
        a refusal lists the same actions either way."""
        return None

    def accepts(self, rs: Rules, st: GameState, f: F, typed: Notation, legal: list[Action]) -> bool:
        """Whether an action not in ``legal`` is accepted all the same (a path whose first step is legal)."""
        return False

    def refuse(self, rs: Rules, st: GameState, f: F, action: Action, typed: Notation, legal: list[Action]) -> None:
        """Raise :class:`IllegalActionError` saying why ``action`` is refused; a reason that names no rule cites
        the frame's (:attr:`rule`)."""
        why = self.refusal(rs, st, f, action, typed, legal)
        raise IllegalActionError(why, rule=None if _CITES.search(why) else self.rule)

    def refusal(self, rs: Rules, st: GameState, f: F, action: Action, typed: Notation, legal: list[Action]) -> str:
        """Why ``action`` is refused (the default: what the game waits for, and the legal actions; the frame's
        rule is cited by :meth:`refuse`)."""
        if not legal:
            return f"Cannot {action} now: {self.waiting_for(st, f)}"
        choices = ", ".join(str(a) for a in legal[:12]) + (" ..." if len(legal) > 12 else "")
        return f"Cannot {action} now: {self.waiting_for(st, f)}; legal now: {choices}"
