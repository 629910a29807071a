"""Provides the registry of decision-frame handlers and the loop that runs the game to its next decision.

Every kind of frame on the decision stack has one :class:`~.handler.FrameHandler` (:data:`HANDLERS`); the ruleset
asks the handler of the frame on top for the legal actions, the check, the application and what the game waits
for. :func:`advance` resolves frames that need no decision and draws chits while the stack is empty (2.7), until a
side must decide or the game ends.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.rules import Transition
from engine.state import GameState

from . import actions, arrival, closecombat, deployment, sequence
from .handler import FrameHandler
from .model import Frame, frame

if TYPE_CHECKING:
    from .model import Rules

__all__ = ["HANDLERS", "advance", "handler", "waiting_for"]

_ALL: tuple[FrameHandler[Any], ...] = (
    deployment.HANDLER,
    arrival.HANDLER,
    *sequence.HANDLERS,
    *actions.HANDLERS,
    closecombat.HANDLER,
)
HANDLERS: dict[str, FrameHandler[Any]] = {h.kind: h for h in _ALL}
"""Frame kind → its handler."""

_NONE: FrameHandler[Any] = FrameHandler()


def handler(f: Frame) -> FrameHandler[Any]:
    """The handler of frame ``f`` (a handler that offers nothing for an unknown kind)."""
    return HANDLERS.get(f.kind, _NONE)


def waiting_for(st: GameState, f: Frame) -> str:
    """A sentence saying which decision the game waits for in frame ``f`` (refusals, the status line)."""
    return handler(f).waiting_for(st, f)


def advance(rs: Rules, tr: Transition) -> None:
    """Run automatic steps until a side must decide (or the game ends)."""
    st = tr.state
    for _ in range(10_000):
        if st.outcome is not None:
            return
        f = frame(st)
        if f is not None:
            if handler(f).auto(rs, tr, f):
                continue
            st.to_act = f.side
            return
        sequence.next_chit(rs, tr)
    raise RuntimeError("the sequence of play did not reach a decision")  # pragma: no cover
