"""Provides the Execution Phase as a whole (2.4–2.9): the reveal, the twelve steps in order, the end of the round,
and the decisions asked on the way (15.2 item 4).

Execution runs inside the ``commit`` of the second side (:func:`execute`). Where the digest lets a player choose
during execution, the preset policy of the README decides, or, for a side that plays ``prompts on``, the side
itself: execution then stops at the question, with the cursor in the state (:mod:`.machine`), and the ``choose``
that answers it goes on from there (:func:`resume`). Dice go German first, then Soviet, each by unit id (15.4).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.events import Event
from engine.rules import Transition

from ..concealment import word_events
from ..frames import AirStep, AmbushStep, Cursor, FireStep, SmokeStep
from ..gamedata import data
from ..model import Rules
from . import air_combat, air_missions, ambush, assault, bravery, defend, fire, losses, mines, movement, special, status
from .common import step
from .machine import Handler, Run
from .reveal import reveal, start_round
from .victory import check_victory

__all__ = ["HANDLERS", "STEPS", "execute", "resume"]

HANDLERS: Mapping[type, Handler] = {
    **losses.HANDLERS,
    **mines.HANDLERS,
    **fire.HANDLERS,
    **air_combat.HANDLERS,
    **air_missions.HANDLERS,
    **assault.HANDLERS,
    **ambush.HANDLERS,
    **movement.HANDLERS,
    **status.HANDLERS,
}
"""Every frame class of the Execution Phase → its handler."""


def _step2(x: Run) -> None:
    step(x.rs, x.tr, 2, "Suppression fire")
    x.push(FireStep("suppress"))


def _step3(x: Run) -> None:
    step(x.rs, x.tr, 3, "Open fire and smoke")
    x.push(FireStep("fire"), SmokeStep())


def _step5(x: Run) -> None:
    step(x.rs, x.tr, 5, "Air missions")
    x.push(AirStep())


def _step8(x: Run) -> None:
    step(x.rs, x.tr, 8, "Ambush and wire removal")
    x.push(AmbushStep())


STEPS: Mapping[int, Callable[[Run], None]] = {
    1: defend.run_step,
    2: _step2,
    3: _step3,
    4: lambda x: bravery.run_step(x, 4),
    5: _step5,
    6: assault.start,
    7: lambda x: bravery.run_step(x, 7),
    8: _step8,
    9: special.run_step,
    10: movement.start,
    11: lambda x: bravery.run_step(x, 11),
    12: status.start,
}
"""Each step of 2.5 → what begins it (the step's header and what it does at once; its frames run after)."""


def _advance(x: Run) -> None:
    """Run the steps on until a decision is asked or the round is over (2.9)."""
    c = x.cursor
    while True:
        x.run()
        if c.pending is not None:
            return
        if c.step >= 12:
            _end_of_round(x)
            return
        c.step += 1
        STEPS[c.step](x)


def _end_of_round(x: Run) -> None:
    """END_OF_ROUND (2.9): victory is checked after step 12; then the next round begins."""
    st, tr = x.st, x.tr
    data(st).execution = None
    outcome = check_victory(x.rs, st)
    if outcome is not None:
        st.outcome = outcome
        st.to_act = None
        st.phase = "over"
        tr.emit("outcome", f"Game over: {outcome.reason}", winner=outcome.winner)
        return
    st.turn += 1
    start_round(x.rs, tr)


def execute(rs: Rules, tr: Transition) -> None:
    """The Execution Phase after both sides committed: reveal (2.4), then the steps, until the round is over or a
    side that decides during execution is asked (15.2)."""
    emit = tr.emit
    word_events(rs, tr)  # 9.11, 15.1: events naming a concealed HQ reach the other side without its name
    reveal(rs, tr)
    data(tr.state).execution = Cursor()
    _go_on(rs, tr, emit)


def resume(rs: Rules, tr: Transition, key: str) -> None:
    """``choose KEY``: the answer is announced (public) and execution goes on from the question to the next one or
    the end of the round."""
    c = data(tr.state).execution
    assert c is not None and c.pending is not None
    asked = c.pending
    label = next(v for k, v in asked.options if k == key)
    tr.emit(
        "decision",
        f"{asked.side} chooses: {label} (rule {asked.rule}, 15.2)",
        side=asked.side,
        decision=asked.kind,
        choice=key,
    )
    c.pending = None
    c.answer, c.asked = key, asked.question
    c.answered += 1
    tr.reveal()  # an answer goes on with an execution that revealed the orders: it is never taken back
    emit = tr.emit
    word_events(rs, tr)
    _go_on(rs, tr, emit)


def _go_on(rs: Rules, tr: Transition, emit: Callable[..., Event]) -> None:
    """Run execution; if it waits, the deciding side is to act and the question is told (``emit``: unworded, the
    question names no concealed HQ, 15.2)."""
    x = Run(rs, tr, HANDLERS)
    _advance(x)
    c = data(tr.state).execution
    if c is None or c.pending is None:
        return
    asked = c.pending
    tr.state.to_act = asked.side
    options = "; ".join(f"{i}. {label}" for i, (_k, label) in enumerate(asked.options, start=1))
    rule = f"1 is the preset; rule {asked.rule}, 15.2"
    extra: dict[str, Any] = {"side": asked.side, "decision": asked.kind, "options": [k for k, _ in asked.options]}
    emit("decision", f"{asked.side} decides: {asked.question} — {options} ({rule})", **extra)
