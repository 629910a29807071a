"""Provides the decisions asked during the Execution Phase (digest 15.2 item 4) as the game's players meet them:
the per-side switch ``prompts on|off``, the ``choose`` answering a question, and what a view holds of them.

15.2: "Decisions during execution are public knowledge at this point (orders are revealed). They are asked on
the shared screen, naming the deciding side"; PROPOSED: "the same pre-set reaction policies are offered ... so
execution can run without prompts if both players want that." Each side chooses, in its Planning Phase, with the
free verb ``prompts on|off`` (secret, like its orders), whether it decides during execution (``on``) or lets the
preset policies of the README decide (``off``, the default of a new game: the AI and ``planspiel simulate`` play
with the presets and their games stay the same).

Execution stops at a question with its cursor in the state (``execution.machine``): ``game.to_act`` is the deciding
side and its legal actions are ``choose KEY``, the preset option first; ``choose KEY`` goes on from the question. A
decision that would reveal hidden information (a hidden unit or a concealed HQ among the deciding unit or its
options, 3.11, 9.11) is never asked: the preset decides (15.2 "Exception").
"""

from __future__ import annotations

from engine.actions import Action
from engine.rules import Transition
from engine.state import GameState

from .frames import Cursor, Decision
from .gamedata import data
from .model import asks, refuse

__all__ = ["VERBS", "apply_prompts", "check_decision", "check_prompts", "decision_actions", "hide_decisions", "pending"]

VERBS = {
    "prompts": "prompts on|off: planning, free and secret: decide during execution yourself (on) or let the preset "
    "policies decide (off, the default) (15.2)",
    "choose": "choose OPTION: answer the decision execution waits for; the first option listed is the preset "
    "policy's (15.2)",
}


def pending(st: GameState) -> Decision | None:
    """The decision execution waits for, or None."""
    c = data(st).execution
    return c.pending if c is not None else None


def decision_actions(st: GameState) -> list[Action]:
    """``choose KEY`` for every option of the pending decision, the preset's first."""
    got = pending(st)
    if got is None:
        return []
    return [Action("choose", (k,)) for k, _ in got.options]


def check_decision(st: GameState, action: Action) -> None:
    """Refuse anything but a ``choose`` of a listed option while execution waits (and ``choose`` otherwise)."""
    got = pending(st)
    if got is None:
        raise refuse(f"{action.verb}: no decision is waiting; execution decisions come in the Execution Phase", "15.2")
    if action.verb != "choose":
        raise refuse(f"{action.verb}: execution waits for {got.side} to choose: {got.question}", "15.2")
    keys = [k for k, _ in got.options]
    if len(action.args) != 1 or action.args[0] not in keys:
        raise refuse(f"choose one of {', '.join(keys)}: {got.question}", "15.2")


def check_prompts(st: GameState, action: Action) -> None:
    """``prompts on|off``: only in the side's own Planning Phase (it costs nothing and is secret)."""
    if st.phase != "planning":
        raise refuse("prompts: the switch is set in the Planning Phase", "15.2")
    if len(action.args) != 1 or action.args[0] not in ("on", "off"):
        raise refuse("prompts takes on or off", "15.2")


def apply_prompts(tr: Transition, on: bool) -> None:
    """``prompts on|off``: the side's secret switch (15.2)."""
    st = tr.state
    side = st.to_act
    assert side is not None
    data(st).ask = [s for s in st.sides if (s == side and on) or (s != side and asks(st, s))]
    text = (
        f"{side} decides during execution (rule 15.2)"
        if on
        else f"{side} lets the preset policies decide during execution (rule 15.2)"
    )
    tr.emit("prompts", text, visible_to=[side], side=side, on=on)


def hide_decisions(v: GameState, side: str) -> None:
    """15.1, 15.2: a view holds the step, the waiting decision (public) and how many were answered, but none of
    the cursor's frames (they name hidden units, minefields and the rolls to come); the other side's switch is its
    own secret."""
    d = data(v)
    d.ask = [s for s in d.ask if s == side]
    c = d.execution
    if c is not None:
        # The answers are public (each was announced) but may name an HQ concealed again since: only their number.
        d.execution = Cursor(step=c.step, pending=c.pending, answered=c.answered)
