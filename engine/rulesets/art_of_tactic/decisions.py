"""Provides the decisions asked during the Execution Phase (digest 15.2 item 4) and the per-side switch.

15.2: "Decisions during execution are public knowledge at this point (orders are revealed). They are asked on
the shared screen, naming the deciding side"; PROPOSED: "the same pre-set reaction policies are offered ... so
execution can run without prompts if both players want that." Each side chooses, in its Planning Phase, with the
free verb ``prompts on|off`` (secret, like its orders), whether it decides during execution (``on``) or lets the
preset policies of the README decide (``off``, the default of a new game: the AI and ``planspiel simulate`` play
with the presets and their games stay the same).

How a pause works (saves hold plain state, so no generator is kept): when execution begins and some side asks,
the state at that moment is kept as a snapshot (:data:`RUN` in ``state.data``). Execution runs; at a choice of an
asking side with more than one legal option, :func:`decide` raises :class:`Pause`: the state as it stands then is
kept (the board part-way through the round, for the screens), ``to_act`` is the deciding side and its legal
actions are ``choose KEY``, the preset option first. ``choose KEY`` records the answer, rebuilds the state from the
snapshot and runs execution again with the same dice (the dice position is part of the snapshot), answering the
recorded decisions in order and emitting only the events after those already emitted, up to the next unanswered
decision or the end of the round. A decision that would reveal hidden information (a hidden unit or a concealed
HQ among the deciding unit or its options, 3.11, 9.11) is never asked: the preset decides (15.2 "Exception").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from engine.actions import Action
from engine.rules import Transition
from engine.state import GameState, Unit

from .model import refuse

if TYPE_CHECKING:
    from .ruleset import ArtOfTactic

__all__ = [
    "ASK",
    "RUN",
    "VERBS",
    "Pause",
    "apply_decision",
    "asks",
    "check_decision",
    "decide",
    "decision_actions",
    "execute",
    "hide_decisions",
    "pending",
]

ASK = "ask"
"""``state.data`` key: the sides that decide during execution (``prompts on``), in side order."""
RUN = "decisions"
"""``state.data`` key while execution runs with a side that asks: ``answers`` given so far, ``at`` (the next
answer to use); while it waits also the ``snapshot`` of the state when execution began, ``events`` (how many
events execution had emitted) and the ``pending`` decision."""

VERBS = {
    "prompts": "prompts on|off: planning, free and secret: decide during execution yourself (on) or let the preset "
    "policies decide (off, the default) (15.2)",
    "choose": "choose OPTION: answer the decision execution waits for; the first option listed is the preset "
    "policy's (15.2)",
}


class Pause(Exception):
    """Execution reached a decision of an asking side that has no recorded answer."""

    def __init__(self, decision: dict[str, Any]) -> None:
        super().__init__(decision["question"])
        self.decision = decision


def asks(st: GameState, side: str) -> bool:
    """True if ``side`` decides during execution (``prompts on``)."""
    return side in st.data.get(ASK, [])


def pending(st: GameState) -> dict[str, Any] | None:
    """The decision execution waits for, or None."""
    run = st.data.get(RUN)
    got = run.get("pending") if isinstance(run, dict) else None
    return got if isinstance(got, dict) else None


def decide(
    tr: Transition,
    *,
    side: str,
    kind: str,
    question: str,
    rule: str,
    options: Sequence[tuple[str, str]],
    units: Iterable[Unit] = (),
) -> str:
    """The key of the option ``side`` takes: the preset's (the first) unless the side asks and there is a choice.

    Args:
        tr: the running execution.
        side: the deciding side.
        kind: what is decided (``defend``, ``close_combat`` ...), for screens.
        question: the question, naming the deciding unit and its hex.
        rule: the digest section that gives the choice.
        options: ``(key, label)`` pairs, the preset policy's first; a key is one word (a unit id, ``yes``/``no``).
        units: the units the decision names (the decider and the options); if one is hidden or a concealed HQ
            the preset decides (15.2: no prompt may leak hidden information).

    Raises:
        Pause: the side asks, there is more than one option and no answer is recorded yet.
    """
    st = tr.state
    run = st.data.get(RUN)
    if not isinstance(run, dict) or len(options) < 2 or not asks(st, side):
        return options[0][0]
    if any(u.status.get("hidden") or u.status.get("concealed") for u in units):
        return options[0][0]  # 15.2 exception: decided automatically, no prompt
    at = int(run["at"])
    run["at"] = at + 1
    keys = [k for k, _ in options]
    answers = run["answers"]
    if at < len(answers):
        got = str(answers[at])
        return got if got in keys else keys[0]
    raise Pause(
        {"side": side, "kind": kind, "question": question, "rule": rule, "options": [[k, v] for k, v in options]}
    )


def execute(rs: ArtOfTactic, tr: Transition) -> None:
    """Run the Execution Phase (the second ``commit``): straight through when no side asks, else from a snapshot
    so that it can pause at the asking sides' decisions."""
    from .execution import execute_round  # noqa: PLC0415

    st = tr.state
    if not st.data.get(ASK):
        execute_round(rs, tr)
        return
    _run(rs, tr, st.to_dict(), [], 0)


def _run(rs: ArtOfTactic, tr: Transition, snapshot: dict[str, Any], answers: list[str], skip: int) -> None:
    """Execution from ``snapshot`` with ``answers``, emitting into ``tr`` the events after the first ``skip``."""
    from .execution import execute_round  # noqa: PLC0415

    work = GameState.from_dict(snapshot, tr.state.board)
    work.data[RUN] = {"answers": list(answers), "at": 0}
    inner = Transition(work)
    waiting: dict[str, Any] | None = None
    try:
        execute_round(rs, inner)
    except Pause as pause:
        waiting = pause.decision
    if waiting is None:
        work.data.pop(RUN, None)
    else:
        work.data[RUN] = {
            "snapshot": snapshot,
            "answers": list(answers),
            "events": len(inner.events),
            "pending": waiting,
        }
        work.to_act = str(waiting["side"])
    tr.state = work
    tr.events.extend(inner.events[skip:])
    tr.rolled = tr.rolled or inner.rolled
    tr.revealed = tr.revealed or inner.revealed
    if waiting is not None:
        options = "; ".join(f"{i}. {label}" for i, (_k, label) in enumerate(waiting["options"], start=1))
        rule = f"1 is the preset; rule {waiting['rule']}, 15.2"
        tr.emit(
            "decision",
            f"{waiting['side']} decides: {waiting['question']} — {options} ({rule})",
            side=waiting["side"],
            decision=waiting["kind"],
            options=[k for k, _ in waiting["options"]],
        )


def decision_actions(st: GameState) -> list[Action]:
    """``choose KEY`` for every option of the pending decision, the preset's first."""
    got = pending(st)
    if got is None:
        return []
    return [Action("choose", (str(k),)) for k, _ in got["options"]]


def check_decision(st: GameState, action: Action) -> None:
    """Refuse anything but a ``choose`` of a listed option while execution waits (and ``choose`` otherwise)."""
    got = pending(st)
    if got is None:
        raise refuse(f"{action.verb}: no decision is waiting; execution decisions come in the Execution Phase", "15.2")
    if action.verb != "choose":
        raise refuse(f"{action.verb}: execution waits for {got['side']} to choose: {got['question']}", "15.2")
    keys = [str(k) for k, _ in got["options"]]
    if len(action.args) != 1 or action.args[0] not in keys:
        raise refuse(f"choose one of {', '.join(keys)}: {got['question']}", "15.2")


def apply_decision(rs: ArtOfTactic, tr: Transition, action: Action) -> None:
    """``choose KEY``: announce the answer and run execution on to the next decision or the end of the round."""
    st = tr.state
    run = st.data[RUN]
    got = run["pending"]
    key = action.args[0]
    label = next(str(v) for k, v in got["options"] if k == key)
    tr.emit(
        "decision",
        f"{got['side']} chooses: {label} (rule {got['rule']}, 15.2)",
        side=got["side"],
        decision=got["kind"],
        choice=key,
    )
    _run(rs, tr, run["snapshot"], [*run["answers"], key], int(run["events"]))


def check_prompts(st: GameState, action: Action) -> None:
    """``prompts on|off``: only in the side's own Planning Phase (it costs nothing and is secret)."""
    if st.phase != "planning":
        raise refuse("prompts: the switch is set in the Planning Phase", "15.2")
    if len(action.args) != 1 or action.args[0] not in ("on", "off"):
        raise refuse("prompts takes on or off", "15.2")


def apply_prompts(tr: Transition, action: Action) -> None:
    st = tr.state
    side = st.to_act
    assert side is not None
    on = action.args[0] == "on"
    ask = [s for s in st.sides if (s == side and on) or (s != side and s in st.data.get(ASK, []))]
    if ask:
        st.data[ASK] = ask
    else:
        st.data.pop(ASK, None)
    text = (
        f"{side} decides during execution (rule 15.2)"
        if on
        else f"{side} lets the preset policies decide during execution (rule 15.2)"
    )
    tr.emit("prompts", text, visible_to=[side], side=side, on=on)


def hide_decisions(v: GameState, side: str) -> None:
    """15.1, 15.2: a view holds the waiting decision (public) and how many were answered, but not the snapshot (it
    holds the dice, hidden units and minefields); the other side's switch is its own secret."""
    ask = v.data.get(ASK)
    if isinstance(ask, list):
        mine = [s for s in ask if s == side]
        if mine:
            v.data[ASK] = mine
        else:
            v.data.pop(ASK, None)
    run = v.data.get(RUN)
    if isinstance(run, dict):
        # The answers are public (each was announced) but may name an HQ concealed again since: only their number.
        v.data[RUN] = {"pending": run.get("pending"), "answered": len(run.get("answers") or [])}
