"""Provides the machine that runs the Execution Phase as an explicit cursor in the state (15.2 item 4).

The state's :attr:`~..records.AotData.execution` is a :class:`~..frames.Cursor`: the step being carried out
(1–12), the frames of what is left of it (the running one last) and, while execution waits, the decision asked.
:meth:`Run.run` runs the top frame's handler until no frame is left or a decision is asked; a handler makes
progress each time it is called: it finishes its frame (:meth:`Run.done`), pushes the frames it calls
(:meth:`Run.push`; it is called again when they are done) or asks a decision (:meth:`Run.decide` returns None).
A frame keeps in its fields everything its handler needs to go on, so the answer resumes execution exactly where it
stopped: nothing is run again, no snapshot is kept.

A handler must not change the state between the point it was called from (or its last finished part) and a
:meth:`Run.decide` that may return None: it is called again with the answer and reaches the same question from the
same state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from engine.rules import Transition
from engine.state import GameState, Unit

from ..frames import Cursor, Decision, Frame
from ..gamedata import data
from ..model import Rules, asks
from ..records import status

__all__ = ["Handler", "Run"]

Handler = Callable[["Run", Any], None]
"""Runs a frame of its class (the top of the cursor's frames) until it is done, calls other frames or waits."""


class Run:
    """A running Execution Phase: the transition it writes into, the rules and the handlers of the frames."""

    def __init__(self, rs: Rules, tr: Transition, handlers: Mapping[type, Handler]) -> None:
        self.rs = rs
        self.tr = tr
        self.handlers = handlers

    @property
    def st(self) -> GameState:
        return self.tr.state

    @property
    def cursor(self) -> Cursor:
        got = data(self.tr.state).execution
        assert got is not None, "no Execution Phase is running"
        return got

    # --- Frames -----------------------------------------------------------------------------------------------

    def push(self, *frames: Frame) -> None:
        """Call ``frames``, the first given first (each runs to its end before the next)."""
        self.cursor.frames.extend(reversed(frames))

    def done(self, frame: Frame, returned: Iterable[str] = ()) -> None:
        """Finish ``frame`` (the running one), handing ``returned`` (unit ids) to the frame that called it."""
        c = self.cursor
        assert c.frames and c.frames[-1] is frame, "only the running frame can finish"
        c.frames.pop()
        c.returned = list(returned)

    def returned(self) -> list[str]:
        """What the frame that just finished handed back (and forget it)."""
        c = self.cursor
        got, c.returned = c.returned, []
        return got

    def run(self) -> None:
        """Run the frames until none is left or a decision is asked."""
        c = self.cursor
        frames = c.frames
        while frames and c.pending is None:
            top = frames[-1]
            self.handlers[type(top)](self, top)

    def run_now(self, frame: Frame) -> None:
        """Run ``frame`` to its end at once, where no decision can be asked (an aircraft's losses: it carries no
        passenger and no cargo, 4.6, 9.16)."""
        c = self.cursor
        depth = len(c.frames)
        c.frames.append(frame)
        while len(c.frames) > depth:
            top = c.frames[-1]
            self.handlers[type(top)](self, top)
            assert c.pending is None, "a decision cannot be asked here"

    # --- Decisions (15.2) -------------------------------------------------------------------------------------

    def decide(
        self,
        *,
        side: str,
        kind: str,
        question: str,
        rule: str,
        options: Sequence[tuple[str, str]],
        units: Iterable[Unit] = (),
    ) -> str | None:
        """The key of the option ``side`` takes, or None while execution waits for it.

        The preset's (the first) unless the side decides during execution (``prompts on``) and there is a choice;
        a decision naming a hidden unit or a concealed HQ (the decider or an option, 3.11, 9.11) is never asked:
        the preset decides (15.2 "Exception").

        Args:
            side: the deciding side.
            kind: what is decided (``defend``, ``close_combat`` ...), for screens.
            question: the question, naming the deciding unit and its hex.
            rule: the digest section that gives the choice.
            options: ``(key, label)`` pairs, the preset policy's first; a key is one word (a unit id, ``yes``/``no``).
            units: the units the decision names (the decider and the options).
        """
        if len(options) < 2 or not asks(self.st, side):
            return options[0][0]
        if any(status(u).hidden or status(u).concealed for u in units):
            return options[0][0]  # 15.2 exception: decided automatically, no prompt
        c = self.cursor
        if c.answer is not None:
            assert c.asked == question, f"the answer to {c.asked!r} reached {question!r}"
            key, c.answer, c.asked = c.answer, None, None
            keys = [k for k, _ in options]
            return key if key in keys else keys[0]
        c.pending = Decision(side, kind, question, rule, [(k, v) for k, v in options])
        return None
