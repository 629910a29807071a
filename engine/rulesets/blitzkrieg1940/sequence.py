"""Provides the Blitzkrieg 1940 sequence of play: administration, the chit cup, chit resolution and activations.

This is the state machine of digest 2.1–2.10 and 5.1–5.6; the pseudo-code of 2.7 is the reference. Pending
decisions are frames on a stack in ``data(state).frames`` (see :mod:`.model`); :func:`.frames.advance` runs
every automatic step (:func:`next_chit` when the stack is empty) until a side must decide, so the engine's
``to_act`` is always the side on top of the stack.

Frame kinds handled here, one :class:`~.handler.FrameHandler` each (:data:`HANDLERS`):

- ``t1_keep`` (German, Hannut setup 2.8): which formation chit to keep out of the cup.
- ``t1`` (German, Hannut turn 1): which kept chit to resolve next.
- ``cancel`` (the chit owner's opponent, 5.5 option 4): try to cancel the chit, or not.
- ``chit`` (the owner): what to do with a drawn or played chit (2.9).
- ``general_clear`` (the owner, 5.5 option 2): which Neutralised or Exhaustion markers to remove.
- ``exhausted`` (the owner): test or skip for an exhausted formation activated together with another (5.4).
- ``replay_now`` (the owner): two Replays in hand, one is played at once (5.3).

:func:`start_activation` pushes the ``activation`` frame, whose handler is in :mod:`.actions`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from engine.actions import Action
from engine.errors import IllegalActionError
from engine.notation import Notation
from engine.rules import Transition
from engine.state import GameState, Outcome

from . import notation as N
from . import verbs
from .activation import activation
from .arrival import arrival_assignments
from .handler import FrameHandler
from .model import (
    ActivationFrame,
    CancelFrame,
    Chit,
    ChitFrame,
    ExhaustedFrame,
    Frame,
    GeneralClearFrame,
    Player,
    SideFrame,
    data,
    formation,
    formation_units,
    frame,
    opponent,
    player,
    push,
    status,
)

if TYPE_CHECKING:
    from .model import Rules

__all__ = [
    "HANDLERS",
    "VERBS",
    "begin_game",
    "chit_name",
    "next_chit",
    "start_activation",
]

VERBS = verbs.SEQUENCE


# --- Small helpers ------------------------------------------------------------------------------------


def _chit(st: GameState, cid: str) -> Chit:
    return data(st).chits[cid]


def chit_name(st: GameState, cid: str) -> str:
    """A readable name for a chit: ``"I/5 PzR"``, ``"German artillery"``, ``"French Replay"``."""
    c = _chit(st, cid)
    if c.kind == "formation":
        return formation(st, c.fid).name
    side = str(c.side).title()
    return {"replay": f"{side} Replay", "general": f"{side} General", "artillery": f"{side} artillery"}.get(
        c.kind, f"{side} Stuka"
    )


def ff_now(st: GameState, fid: str, rs: Rules) -> int:
    """The formation factor in force: base FF, minus the exhaustion modifier when exhausted (5.4)."""
    f = formation(st, fid)
    return int(f.ff) + (rs.tables.exhausted_ff_modifier if f.exhausted else 0)


def _general_free(st: GameState, side: str) -> bool:
    p = player(st, side)
    return p.general is not None and bool(p.general_free)


def _pair_ok(st: GameState, held: str, new: str) -> bool:
    """2.7 PAIR_OK: a held formation with a new formation, artillery or Stuka chit; a held artillery or Stuka
    chit with a new formation chit."""
    hk, nk = _chit(st, held).kind, _chit(st, new).kind
    if hk == "formation":
        return nk in ("formation", "artillery", "stuka") and _chit(st, held).formation != _chit(st, new).formation
    return hk in ("artillery", "stuka") and nk == "formation"


def has_units_in_play(st: GameState, fid: str) -> bool:
    """True if the formation has a unit or its HQ on the map, an overrun HQ waiting, or units still to enter."""
    f = formation(st, fid)
    if f.removed:
        return False
    if f.overrun:
        return True
    for u in st.units.values():
        if u.formation != fid or u.steps <= 0 or status(u).exited:
            continue
        if u.hex is not None or status(u).arrives is not None:
            return True
    return False


def _orphan(st: GameState, cid: str) -> bool:
    """2.7 ORPHAN: a formation chit whose formation has left play."""
    c = _chit(st, cid)
    return c.kind == "formation" and (cid in data(st).removed_chits or not has_units_in_play(st, c.fid))


def replay_eligible(st: GameState, fid: str) -> bool:
    """5.3: a Replay may activate the formation (or, if it is exhausted, only remove its marker)."""
    return _replay_problem(st, fid) is None


def _replay_problem(st: GameState, fid: str, side: str | None = None) -> str | None:
    """Why a Replay of ``side`` may not activate ``fid`` now (5.3), citing the rule; None if it may."""
    if fid not in data(st).formations:
        c = data(st).chits.get(fid)
        if c is not None and c.kind in ("artillery", "stuka"):
            return "artillery and Stuka chits can never be activated by a Replay (rule 5.3)"
        return f"{fid} is not a formation: a Replay activates a formation (rule 5.3)"
    f = formation(st, fid)
    name = f.name
    if side is not None and f.side != side:
        return f"{name} is not a {side} formation: a Replay activates one of its owner's formations (rule 5.3)"
    if f.removed:
        return f"{name} has left play (rule 5.3)"
    if f.replay_used:
        return f"{name} was already activated by a Replay this turn, and never is by a second (rule 5.3)"
    if f.acts >= 2:
        return f"{name} has been activated twice this turn, the most a formation may be (rule 5.3)"
    if f.demoralised:
        return f"{name} is demoralised and cannot be activated by a Replay (rule 5.3, 8.5.1)"
    if not any(u.hex is not None for u in formation_units(st, fid)):
        return f"{name} has no unit on the map (rule 5.3)"
    if f.hq is not None:
        hq = st.units[f.hq]
        if f.overrun or hq.hex is None:
            return f"{name}'s HQ is not on the map (rule 5.3)"
        if status(hq).neutralised:
            return f"{name}'s HQ is neutralised (rule 5.3)"
    return None


def _eligible_replays(st: GameState, side: str) -> list[str]:
    return sorted(fid for fid, f in data(st).formations.items() if f.side == side and replay_eligible(st, fid))


# --- Game start, administration and end of turn ---------------------------------------------------------


def begin_game(rs: Rules, tr: Transition) -> None:
    """After setup: Hannut's kept chits (2.8), then the first administration phase."""
    st = tr.state
    special = data(st).special or {}
    if special.get("turn1_kept_chits") and not data(st).t1_kept:
        german = special["turn1_kept_chits"]["side"]
        push(st, SideFrame("t1_keep", german))
        return
    administration(rs, tr)


def administration(rs: Rules, tr: Transition) -> None:
    """2.1: the administration phase of ``state.turn``."""
    st = tr.state
    st.phase = "administration"
    tr.emit("phase", f"Turn {st.turn}: administration phase (rule 2.1)")
    # Step 1: HQs front up, per-turn flags reset.
    for f in data(st).formations.values():
        f.acts, f.normal_used, f.replay_used, f.skipped = 0, False, False, False
    for side in st.sides:
        p = player(st, side)
        p.activated, p.skipped = [], []
    rs.turn_start_events(tr)
    # Step 2: rebuild the cup.
    _rebuild_cup(rs, tr)
    # Step 3: command check; step 4: OPP-used markers off.
    rs.command_check(tr, None)
    for u in st.units.values():
        status(u).opp_used = False
    # Step 5: recovery tests of demoralised formations, German first (2.1 [P]).
    order = sorted(st.sides, key=lambda s: (s != rs.recovery_first_side(st), s))
    for side in order:
        for fid in sorted(data(st).formations):
            f = formation(st, fid)
            if f.side == side and f.demoralised and not f.removed:
                recovery_test(rs, tr, fid)
    st.phase = "operations"
    data(st).pass_owner = None
    data(st).next_first = None
    tr.emit("phase", f"Turn {st.turn}: operations phase (rule 2.2)")
    if st.turn == 1 and data(st).t1_kept:
        push(st, SideFrame("t1", data(st).special["turn1_kept_chits"]["side"]))
    arrival_assignments(tr)  # 12.2 [P]: an arriving independent unit joins a formation before the first draw


def _rebuild_cup(rs: Rules, tr: Transition) -> None:
    """2.1 step 2 [P]."""
    st = tr.state
    cup = []
    carried = data(st).carried
    kept = set(data(st).t1_kept or []) if st.turn == 1 else set()
    for cid, c in sorted(data(st).chits.items()):
        if cid == carried or cid in data(st).removed_chits or cid in kept:
            continue
        if c.turn > st.turn:
            continue
        if c.kind == "formation" and not has_units_in_play(st, c.fid):
            continue
        cup.append(cid)
    data(st).cup = cup
    for side in st.sides:
        p = player(st, side)
        p.empty_hand()
    tr.emit(
        "cup", f"The cup holds {len(cup)} chits" + (f"; {chit_name(st, carried)} is carried over" if carried else "")
    )


def recovery_test(rs: Rules, tr: Transition, fid: str) -> bool:
    """8.5.1: 2d6 ≤ FF − 3 ends demoralisation; on failure the formation retreats toward its own edge."""
    st = tr.state
    f = formation(st, fid)
    target = ff_now(st, fid, rs) + rs.tables.ff_test_offset("recovery")
    roll = sum(tr.roll(6, 2, f"{f.name} recovery test (rule 8.5.1)", target=target, compare="at_most"))
    if roll <= target:
        f.demoralised = False
        tr.emit("recover", f"{f.name} recovers its morale (rule 8.5.1)", formation=fid)
        return True
    tr.emit("retreat", f"{f.name} fails to recover and retreats toward its own edge (rule 8.5.1)", formation=fid)
    rs.demoralised_retreat(tr, fid)
    if fid in data(st).removed_chits and fid in data(st).cup:
        data(st).cup.remove(fid)  # 8.5.1: its last unit has left the map: its chit leaves the cup
    return False


def _end_operations(rs: Rules, tr: Transition) -> None:
    """2.10: end of turn, then the next turn's administration (or the end of the game)."""
    st = tr.state
    tr.emit("phase", f"Turn {st.turn}: the operations phase ends (rule 2.6)")
    # 1. Held chits are lost; a chit held under a General lapses (its formation counts as skipped).
    for side in st.sides:
        p = player(st, side)
        if p.held is not None:
            _to_skipped(st, p.held)
        p.empty_hand()
    # 2. Scenario events at the end of the turn.
    rs.turn_end_events(tr)
    # 3. Victory check.
    outcome = rs.victory_check(st, final=st.turn >= rs.turns(st))
    if outcome is not None:
        _finish(tr, outcome)
        return
    # 4. Carry the last chit, advance the turn marker.
    data(st).carried = data(st).next_first
    data(st).next_first = None
    st.turn += 1
    administration(rs, tr)


def _finish(tr: Transition, outcome: Outcome) -> None:
    st = tr.state
    st.outcome = outcome
    st.to_act = None
    st.phase = "over"
    data(st).frames = []
    tr.emit("outcome", f"Game over: {outcome.reason}")


# --- The operations loop --------------------------------------------------------------------------------


def next_chit(rs: Rules, tr: Transition) -> None:
    """2.7 OPERATIONS loop body: take the carried chit or draw one, then start resolving it."""
    st = tr.state
    cid = data(st).carried
    if cid is not None:
        data(st).carried = None
        tr.emit("draw", f"{chit_name(st, cid)} was carried over from the last turn and is resolved first (rule 2.6)")
    else:
        cup: list[str] = data(st).cup
        if not cup:
            _end_operations(rs, tr)
            return
        index = 0 if len(cup) == 1 else tr.roll(len(cup), 1, "draw a chit from the cup (rule 2.2)")[0] - 1
        cid = cup.pop(index)
        if not cup:
            data(st).next_first = cid
            tr.emit("draw", f"The last chit, {chit_name(st, cid)}, is set aside for the next turn (rule 2.6)")
            _end_operations(rs, tr)
            return
        tr.emit("draw", f"Drawn: {chit_name(st, cid)} ({_chit(st, cid).side})", chit=cid)
    if _orphan(st, cid):
        tr.emit("draw", f"{chit_name(st, cid)} has no units left in play: discarded (rule 2.7)")
        return
    begin_resolve(st, cid)


def begin_resolve(st: GameState, cid: str, t1: bool = False) -> None:
    """Start RESOLVE(c): the opponent's cancellation window, then the owner's choice."""
    owner = _chit(st, cid).side
    push(st, ChitFrame("chit", owner, cid, "main", t1))
    _open_cancel_window(st, cid, then="resolve")


def _open_cancel_window(
    st: GameState, cid: str, then: str, chit_frame: str | None = None, formation: str | None = None
) -> None:
    """5.5 option 4: if the owner's opponent holds a free General, ask him first."""
    owner = _chit(st, cid).side
    other = opponent(st, owner)
    if _general_free(st, other):
        push(st, CancelFrame("cancel", other, cid, then, chit_frame=chit_frame, formation=formation))


def _to_skipped(st: GameState, cid: str) -> None:
    c = _chit(st, cid)
    player(st, c.side).skipped.append(cid)
    if c.kind == "formation":
        f = formation(st, c.fid)
        f.normal_used = f.skipped = True


def _recover_instead(rs: Rules, tr: Transition, f: ChitFrame) -> None:
    """2.5 step 2: a demoralised formation's chit gives the recovery test only and is used up (a forced outcome,
    not a pass, 2.6)."""
    recovery_test(rs, tr, _chit(tr.state, f.chit).fid)
    _to_skipped(tr.state, f.chit)


def _finish_chit(rs: Rules, tr: Transition, f: ChitFrame, outcome: str) -> None:
    """Pop a chit frame and apply the pass rule of 2.6 / 2.7."""
    st = tr.state
    data(st).frames.remove(f)
    if f.t1:
        return
    owner = _chit(st, f.chit).side
    if outcome == "pass":
        last = data(st).pass_owner
        if last is not None and last != owner:
            data(st).next_first = f.chit
            tr.emit("pass", f"{owner.title()} passes after {last.title()} passed: the operations phase ends (rule 2.6)")
            data(st).frames = []
            _end_operations(rs, tr)
            return
        data(st).pass_owner = owner
        tr.emit("pass", f"{owner.title()} passes (rule 2.6)")
    else:
        data(st).pass_owner = None


# --- Legal actions --------------------------------------------------------------------------------------


def _general_options(st: GameState, side: str) -> list[Action]:
    """5.5 options 2 and 3 (option 1 is holding a chit; option 4 is the cancel window)."""
    out = []
    if any(u.side == side and status(u).neutralised for u in st.iter_units()):
        out.append(Action("general", ("neutral",)))
    if any(f.side == side and f.exhausted for f in data(st).formations.values()):
        out.append(Action("general", ("exhaust",)))
    out.append(Action("general", ("replay",)))
    return out


def _refusal(st: GameState, f: Frame, typed: Notation) -> tuple[str, str] | None:
    """The rule that refuses the action ``typed`` in frame ``f``, as (reason, rule), when there is a more precise
    one than "the engine is waiting for another decision" (2.9)."""
    side = f.side
    p = player(st, side)
    chit = f if isinstance(f, ChitFrame) else None
    c = _chit(st, f.chit) if isinstance(f, ChitFrame | CancelFrame) else None
    if isinstance(typed, N.Replay) and (chit is not None or f.kind == "replay_now"):
        why = _replay_problem(st, typed.formation, side)
        if why is not None:
            return why, "5.3"
        if chit is not None and c is not None and c.kind != "replay" and not p.replays:
            return f"{side.title()} holds no Replay to play (rule 5.3)", "5.3"
    if isinstance(typed, N.Keep) and f.kind == "replay_now":
        return f"{side.title()} holds two Replays: one must be played at once (rule 5.3)", "5.3"
    if isinstance(typed, N.Keep) and chit is not None and c is not None and chit.stage == "main":
        if c.kind == "replay" and p.replays:
            return f"{side.title()} already holds a Replay: the second must be played at once (rule 5.3)", "5.3"
        if c.kind == "general" and p.general is not None:
            text = f"{side.title()} already holds a General: the second must be used now (option 2 or 3) or discarded"
            return f"{text} (rule 5.5)", "5.5"
    if isinstance(typed, N.Cancel) and not isinstance(f, CancelFrame):
        return _cancel_refusal(st, c.side if c is not None else side)
    if chit is None or c is None or chit.stage == "after":
        return None
    return _chit_refusal(st, chit, c, typed.verb, p)


def _cancel_refusal(st: GameState, owner: str) -> tuple[str, str]:
    """Why ``cancel`` is refused outside a cancel window (5.5)."""
    other = opponent(st, owner)
    q = player(st, other)
    if q.general is not None and q.held is not None and not q.general_free:
        text = (
            f"the {other.title()} General is committed to the held {chit_name(st, q.held)} chit: it can only "
            "combine, not cancel"
        )
        return f"{text} (rule 2.7, 5.5)", "5.5"
    if q.general is None:
        return f"{other.title()} holds no General to cancel with (rule 5.5)", "5.5"
    return "a cancellation is tried only when an enemy chit is drawn or played, before it acts (rule 5.5)", "5.5"


def _chit_refusal(st: GameState, f: ChitFrame, c: Chit, verb: str, p: Player) -> tuple[str, str] | None:
    """Why ``verb`` is refused for the chit being resolved (2.7, 5.3–5.5), if a rule says more than 2.9."""
    side = str(f.side)
    held = p.held
    pair = held is not None and _pair_ok(st, held, f.chit) and not f.lapsed
    if pair and held is not None and verb not in ("combine", "lapse"):
        text = f"{side.title()} holds {chit_name(st, held)} under the General: combine it with this chit"
        return f"{text} or let it lapse (rule 5.5, 2.7)", "5.5"
    if verb in ("combine", "lapse") and not pair:
        text = f"{side.title()} holds no chit under a General that pairs with {chit_name(st, f.chit)}"
        return f"{text} (rule 5.5)", "5.5"
    if verb == "hold" and not (p.general is not None and p.general_free):
        return f"{side.title()} holds no free General to hold the chit under (rule 5.5)", "5.5"
    if verb == "general" and not (p.general is not None and p.general_free) and c.kind != "general":
        return f"{side.title()} holds no free General (rule 5.5)", "5.5"
    if c.kind == "formation":
        rec = formation(st, c.fid)
        if verb in ("decline", "test", "skip") and rec.demoralised:
            text = f"{rec.name} is demoralised: its chit gives the recovery test only, no choice (rule 2.5, 8.5.1)"
            return text, "8.5.1"
        if verb == "activate" and rec.exhausted:
            return f"{rec.name} is exhausted: test (2d6 ≤ FF − 2) or skip to remove the marker (rule 5.4)", "5.4"
        if verb in ("test", "skip") and not rec.exhausted:
            return f"{rec.name} is not exhausted: activate or decline (rule 5.4)", "5.4"
    return None


# --- Frame handlers -------------------------------------------------------------------------------------


_SF = TypeVar("_SF", SideFrame, CancelFrame, ChitFrame, GeneralClearFrame, ExhaustedFrame)


class _SequenceHandler(FrameHandler[_SF]):
    """A decision of the sequence of play: refusals name the rule of the choice (2.7, 2.8, 5.3–5.5)."""

    def check(self, rs: Rules, st: GameState, f: _SF, action: Action, typed: Notation) -> None:
        legal = self.actions(rs, st, f)
        if action in legal:
            return
        choices = ", ".join(str(a) for a in legal)
        why = _refusal(st, f, typed)
        if why is not None:
            raise IllegalActionError(f"Cannot {action}: {why[0]}; the choices are {choices}", rule=why[1])
        raise IllegalActionError(
            f"Cannot {action}: {self.waiting_for(st, f)}; the choices are {choices}", rule=self.rule
        )


class T1KeepHandler(_SequenceHandler[SideFrame]):
    """``t1_keep`` (German, Hannut set-up 2.8): which formation chit to keep out of the cup."""

    kind = "t1_keep"
    rule = "2.8"

    def actions(self, rs: Rules, st: GameState, f: SideFrame) -> list[Action]:
        side = f.side
        return [
            Action("keep", (cid,))
            for cid, c in sorted(data(st).chits.items())
            if c.kind == "formation" and c.side == side and c.turn == 1
        ]

    def apply(self, rs: Rules, tr: Transition, f: SideFrame, typed: Notation) -> None:
        assert isinstance(typed, N.Keep) and typed.chit is not None
        st = tr.state
        side = f.side
        arts = sorted(k for k, c in data(st).chits.items() if c.side == side and c.kind == "artillery")
        stukas = sorted(k for k, c in data(st).chits.items() if c.side == side and c.kind == "stuka")
        kept = data(st).t1_kept = [x for x in (stukas[:1] + arts[:1] + [typed.chit]) if x]
        data(st).frames.remove(f)
        tr.emit(
            "setup",
            f"{side.title()} keeps {', '.join(chit_name(st, x) for x in kept)} out of the cup (rule 2.8)",
        )
        if not any(fr.kind == "deploy" for fr in data(st).frames):
            administration(rs, tr)  # else 12.1 step 3: the French set-up comes first

    def waiting_for(self, st: GameState, f: SideFrame) -> str:
        return f"{str(f.side).title()} chooses the formation chit to keep out of the cup for turn 1"


class T1Handler(_SequenceHandler[SideFrame]):
    """``t1`` (German, Hannut turn 1): which kept chit to resolve next (2.8)."""

    kind = "t1"
    rule = "2.8"

    def actions(self, rs: Rules, st: GameState, f: SideFrame) -> list[Action]:
        return [Action("first", (cid,)) for cid in data(st).t1_kept or []]

    def apply(self, rs: Rules, tr: Transition, f: SideFrame, typed: Notation) -> None:
        assert isinstance(typed, N.First)
        kept = data(tr.state).t1_kept
        assert kept is not None
        kept.remove(typed.chit)
        begin_resolve(tr.state, typed.chit, t1=True)

    def auto(self, rs: Rules, tr: Transition, f: SideFrame) -> bool:
        st = tr.state
        if not data(st).t1_kept:
            data(st).frames.remove(f)
            return True
        return False

    def waiting_for(self, st: GameState, f: SideFrame) -> str:
        return f"{str(f.side).title()} chooses which kept chit to resolve next"


class CancelHandler(_SequenceHandler[CancelFrame]):
    """``cancel`` (the chit owner's opponent, 5.5 option 4): try to cancel the chit with the General, or not."""

    kind = "cancel"
    rule = "5.5"

    def actions(self, rs: Rules, st: GameState, f: CancelFrame) -> list[Action]:
        return [Action("cancel"), Action("nocancel")]

    def apply(self, rs: Rules, tr: Transition, f: CancelFrame, typed: Notation) -> None:
        st = tr.state
        side = f.side
        data(st).frames.remove(f)
        if isinstance(typed, N.Cancel):
            p = player(st, side)
            p.general, p.general_free = None, False
            limit = rs.tables.cancel_max_roll
            purpose = f"{side.title()} General: cancel {chit_name(st, f.chit)} (rule 5.5)"
            (die,) = tr.roll(6, 1, purpose, target=limit, compare="at_most")
            if die <= limit:
                tr.emit("cancel", f"{chit_name(st, f.chit)} is cancelled (rule 5.5)", chit=f.chit)
                _cancelled(rs, tr, f)
                return
            tr.emit("cancel", f"The cancellation fails; {chit_name(st, f.chit)} takes effect (rule 5.5)")
        _not_cancelled(rs, tr, f)

    def waiting_for(self, st: GameState, f: CancelFrame) -> str:
        side = str(f.side).title()
        return f"{side} decides whether to try to cancel {chit_name(st, f.chit)} with the General"


class GeneralClearHandler(_SequenceHandler[GeneralClearFrame]):
    """``general_clear`` (the owner, 5.5 option 2): which Neutralised or Exhaustion markers to remove."""

    kind = "general_clear"
    rule = "5.5"

    def actions(self, rs: Rules, st: GameState, f: GeneralClearFrame) -> list[Action]:
        side = f.side
        if f.what == "neutral":
            clear = [Action("clear", (u.id,)) for u in st.iter_units(side) if status(u).neutralised]
        else:
            clear = [
                Action("clear", (fid,))
                for fid, rec in sorted(data(st).formations.items())
                if rec.side == side and rec.exhausted
            ]
        return [*clear, Action("done")]

    def apply(self, rs: Rules, tr: Transition, f: GeneralClearFrame, typed: Notation) -> None:
        st = tr.state
        if not isinstance(typed, N.Clear) or f.left <= 0:
            data(st).frames.remove(f)
            return
        target = typed.subject
        if f.what == "neutral":
            status(st.units[target]).neutralised = False
            tr.emit("general", f"General: {target} is no longer neutralised (rule 5.5)")
        else:
            formation(st, target).exhausted = False
            tr.emit("general", f"General: {formation(st, target).name} is no longer exhausted (rule 5.5)")
        f.left -= 1
        if f.left <= 0:
            data(st).frames.remove(f)

    def waiting_for(self, st: GameState, f: GeneralClearFrame) -> str:
        what = "Neutralised" if f.what == "neutral" else "Exhaustion"
        return f"{str(f.side).title()} picks {what} markers to remove ({f.left} left)"


class ExhaustedHandler(_SequenceHandler[ExhaustedFrame]):
    """``exhausted`` (the owner): test or skip for an exhausted formation activated together with another (5.4)."""

    kind = "exhausted"
    rule = "5.4"

    def actions(self, rs: Rules, st: GameState, f: ExhaustedFrame) -> list[Action]:
        return [Action("test"), Action("skip")]

    def apply(self, rs: Rules, tr: Transition, f: ExhaustedFrame, typed: Notation) -> None:
        st = tr.state
        p = player(st, f.side)
        data(st).frames.remove(f)
        fid = f.formation
        if isinstance(typed, N.Skip):
            formation(st, fid).exhausted = False
            if fid in p.activated:
                p.activated.remove(fid)
            _to_skipped(st, fid)
            tr.emit("skip", f"{formation(st, fid).name} skips its activation; exhaustion removed (rule 5.4)")
            act = activation(st)
            if act is not None and fid in act.formations:
                act.formations.remove(fid)
            return
        _exhaustion_test(rs, tr, fid)
        rs.activation_effects(tr, fid)

    def waiting_for(self, st: GameState, f: ExhaustedFrame) -> str:
        name = formation(st, f.formation).name
        return f"{str(f.side).title()} decides whether exhausted {name} tests or skips"


class ReplayNowHandler(_SequenceHandler[SideFrame]):
    """``replay_now`` (the owner): two Replays in hand, one must be played at once (5.3, 5.5 [P])."""

    kind = "replay_now"
    rule = "5.3"

    def actions(self, rs: Rules, st: GameState, f: SideFrame) -> list[Action]:
        return [Action("replay", (fid,)) for fid in _eligible_replays(st, f.side)]

    def apply(self, rs: Rules, tr: Transition, f: SideFrame, typed: Notation) -> None:
        assert isinstance(typed, N.Replay)
        data(tr.state).frames.remove(f)
        _play_held_replay(rs, tr, f.side, typed.formation)

    def auto(self, rs: Rules, tr: Transition, f: SideFrame) -> bool:
        st = tr.state
        p = player(st, f.side)
        if len(p.replays) >= 2 and _eligible_replays(st, f.side):
            return False
        if len(p.replays) >= 2:
            p.replays.pop()
            tr.emit("replay", f"{f.side.title()} cannot play the second Replay: it is lost (rule 5.3)")
        data(st).frames.remove(f)
        return True

    def waiting_for(self, st: GameState, f: SideFrame) -> str:
        return f"{str(f.side).title()} holds two Replays and must play one now"


class ChitHandler(_SequenceHandler[ChitFrame]):
    """``chit`` (the owner): what to do with a drawn or played chit (2.7, 2.9)."""

    kind = "chit"

    def actions(self, rs: Rules, st: GameState, f: ChitFrame) -> list[Action]:
        side = f.side
        p = player(st, side)
        c = _chit(st, f.chit)
        if f.stage == "after":
            return [*(Action("replay", (fid,)) for fid in _eligible_replays(st, side)), Action("keep")]
        general_free = _general_free(st, side) and not f.t1
        if c.kind == "general":
            return [Action("keep") if p.general is None else Action("discard"), *_general_options(st, side)]
        if c.kind == "replay":
            out = [Action("replay", (fid,)) for fid in _eligible_replays(st, side)]
            if not p.replays:
                out.append(Action("keep"))
        else:
            held = p.held
            if held is not None and _pair_ok(st, held, f.chit) and not f.lapsed:
                return [Action("combine"), Action("lapse")]
            out = _chit_options(st, c, p, side)
            if general_free:
                out.append(Action("hold"))
        if general_free:
            out += _general_options(st, side)
        return out

    def auto(self, rs: Rules, tr: Transition, f: ChitFrame) -> bool:
        st = tr.state
        c = _chit(st, f.chit)
        side = c.side
        p = player(st, side)
        if f.stage == "main" and c.kind == "formation":
            held = p.held
            pair = held is not None and _pair_ok(st, held, f.chit)
            # 2.7: a free General may first hold the chit or be used (options 2, 3); otherwise nothing to decide.
            choice = _general_free(st, side) and not f.t1
            if formation(st, c.fid).demoralised and not pair and not choice:
                _recover_instead(rs, tr, f)
                _finish_chit(rs, tr, f, "nopass")
                return True
        if f.stage == "main" and c.kind == "replay" and p.replays and not _eligible_replays(st, side):
            tr.emit("replay", f"{side.title()} already holds a Replay and cannot play this one: discarded (rule 5.3)")
            _finish_chit(rs, tr, f, "nopass")
            return True
        if f.stage == "after":
            if p.replays and _eligible_replays(st, side):
                return False
            _finish_chit(rs, tr, f, "nopass")
            return True
        if f.stage == "done":
            _finish_chit(rs, tr, f, f.outcome or "nopass")
            return True
        return False

    def apply(self, rs: Rules, tr: Transition, f: ChitFrame, typed: Notation) -> None:
        _CHIT_VERBS[type(typed)](rs, tr, f, typed)

    def waiting_for(self, st: GameState, f: ChitFrame) -> str:
        side = str(f.side).title()
        name = chit_name(st, f.chit)
        if f.stage == "after":
            return f"{side} may play the held Replay right after {name}'s activation"
        return f"{side} decides what to do with {name}"


def _chit_options(st: GameState, c: Chit, p: Player, side: str) -> list[Action]:
    """2.9: the choices a formation, artillery or Stuka chit offers (before the General's)."""
    if c.kind != "formation":
        return [Action("barrage"), Action("decline")]
    rec = formation(st, c.fid)
    if rec.demoralised:
        return [Action("activate")]  # 2.5 step 2: go on to the recovery test (asked only with a General)
    out = [Action("test"), Action("skip")] if rec.exhausted else [Action("activate"), Action("decline")]
    if p.replays:
        out += [Action("replay", (fid,)) for fid in _eligible_replays(st, side)]
    return out


# --- Applying the choices of a chit ---------------------------------------------------------------------


def _cancelled(rs: Rules, tr: Transition, cancel: CancelFrame) -> None:
    """A cancelled chit: to its owner's skipped pile; what was waiting on it is dropped (5.5 [P])."""
    st = tr.state
    cid = cancel.chit
    c = _chit(st, cid)
    owner = c.side
    then = cancel.then
    if then == "resolve":
        chit_frame = _chit_frame(st, cid)
        if c.kind in ("formation", "artillery", "stuka"):
            _to_skipped(st, cid)
        chit_frame.stage, chit_frame.outcome = "done", "nopass"
    elif then == "combine":
        # The held chit is cancelled: it goes to the skipped pile and the General is spent; the new chit is
        # then resolved on its own (2.7 COMBINE).
        _to_skipped(st, cid)
        player(st, owner).spend_general()
        chit_frame = _chit_frame(st, _frame_chit(cancel))
        chit_frame.lapsed = True
        chit_frame.stage = "main"
    elif then == "replay":
        # The held Replay is cancelled before any of its effects (2.7 CANCEL_WINDOW): to the skipped pile.
        _to_skipped(st, cid)
        tr.emit("replay", f"The Replay on {formation(st, _replayed(cancel)).name} is lost (rule 5.5)")


def _not_cancelled(rs: Rules, tr: Transition, cancel: CancelFrame) -> None:
    """The chit survived its cancel window (5.5): a combination or a held Replay waiting on it goes on (2.7)."""
    st = tr.state
    if cancel.then == "combine":
        _combine(rs, tr, _chit_frame(st, _frame_chit(cancel)))
    elif cancel.then == "replay":
        _replay_effect(rs, tr, _chit(st, cancel.chit).side, _replayed(cancel), cancel.chit)


def _frame_chit(cancel: CancelFrame) -> str:
    """The chit of the chit frame that waits on a ``combine`` cancel window."""
    assert cancel.chit_frame is not None
    return cancel.chit_frame


def _replayed(cancel: CancelFrame) -> str:
    """The formation a held Replay waiting on its cancel window would activate."""
    assert cancel.formation is not None
    return cancel.formation


def _chit_frame(st: GameState, cid: str) -> ChitFrame:
    return next(x for x in reversed(data(st).frames) if isinstance(x, ChitFrame) and x.chit == cid)


def _exhaustion_test(rs: Rules, tr: Transition, fid: str) -> None:
    """5.4 (b): 2d6 ≤ base FF − 2 removes the marker; the formation acts either way."""
    st = tr.state
    f = formation(st, fid)
    target = int(f.ff) + rs.tables.ff_test_offset("exhaustion")
    roll = sum(tr.roll(6, 2, f"{f.name} exhaustion test (rule 5.4)", target=target, compare="at_most"))
    if roll <= target:
        f.exhausted = False
        tr.emit("exhaustion", f"{f.name} shakes off its exhaustion (rule 5.4)")
    else:
        tr.emit("exhaustion", f"{f.name} stays exhausted and acts with the handicaps (rule 5.4)")


def _chit_general(rs: Rules, tr: Transition, f: ChitFrame, typed: Notation) -> None:
    """5.5 options 2 and 3; a General drawn and used at once is spent."""
    assert isinstance(typed, N.General)
    c = _chit(tr.state, f.chit)
    _use_general(rs, tr, c.side, typed.use)
    if c.kind == "general":
        f.stage, f.outcome = "done", "nopass"


def _chit_keep(rs: Rules, tr: Transition, f: ChitFrame, typed: Notation) -> None:
    """5.3, 5.5: keep a Replay or a General in hand (after an activation: play no held Replay)."""
    st = tr.state
    c = _chit(st, f.chit)
    side = c.side
    p = player(st, side)
    if f.stage != "after":
        if c.kind == "replay":
            p.replays.append(f.chit)
            tr.emit("hold", f"{side.title()} keeps the Replay in hand (rule 5.3)")
        else:
            p.general, p.general_free = f.chit, True
            tr.emit("hold", f"{side.title()} keeps the General in hand (rule 5.5)")
    f.stage, f.outcome = "done", "nopass"


def _chit_replay(rs: Rules, tr: Transition, f: ChitFrame, typed: Notation) -> None:
    """5.3: play the drawn Replay, or a held one, on a formation."""
    assert isinstance(typed, N.Replay)
    c = _chit(tr.state, f.chit)
    if f.stage != "after" and c.kind == "replay":
        f.stage, f.outcome = "done", "nopass"
        _replay(rs, tr, c.side, typed.formation, f.chit)
    else:
        _play_held_replay(rs, tr, c.side, typed.formation)


def _chit_combine(rs: Rules, tr: Transition, f: ChitFrame, typed: Notation) -> None:
    """5.5, 2.7 COMBINE: the held chit passes its cancel window, then both act together."""
    st = tr.state
    held = player(st, _chit(st, f.chit).side).held
    assert held is not None
    f.combine_with = held
    _open_cancel_window(st, held, then="combine", chit_frame=f.chit)
    if frame(st) is f:  # nobody may cancel: combine now
        _combine(rs, tr, f)
    else:
        f.stage = "combine"


def _chit_lapse(rs: Rules, tr: Transition, f: ChitFrame, typed: Notation) -> None:
    """5.5: the held chit lapses; the General is spent."""
    st = tr.state
    p = player(st, _chit(st, f.chit).side)
    assert p.held is not None
    _to_skipped(st, p.held)
    tr.emit("lapse", f"{chit_name(st, p.held)} lapses; the General is spent (rule 5.5)")
    p.spend_general()
    f.lapsed = True


def _chit_hold(rs: Rules, tr: Transition, f: ChitFrame, typed: Notation) -> None:
    """5.5 option 1: hold the chit under the General, a pass."""
    st = tr.state
    cid = f.chit
    side = _chit(st, cid).side
    p = player(st, side)
    p.held = cid
    p.general_free = False
    tr.emit("hold", f"{side.title()} holds {chit_name(st, cid)} under the General (rule 5.5)")
    f.stage, f.outcome = "done", "pass"


def _chit_decline(rs: Rules, tr: Transition, f: ChitFrame, typed: Notation) -> None:
    """2.2, 5.4: decline the chit (or skip an exhausted formation's activation), a pass."""
    st = tr.state
    cid = f.chit
    c = _chit(st, cid)
    if c.kind == "formation" and isinstance(typed, N.Skip):
        formation(st, c.fid).exhausted = False
        tr.emit("skip", f"{chit_name(st, cid)} skips its activation; exhaustion removed (rule 5.4)")
    else:
        tr.emit("decline", f"{str(c.side).title()} declines {chit_name(st, cid)} (rule 2.2)")
    _to_skipped(st, cid)
    f.stage, f.outcome = "done", "pass"


def _chit_activate(rs: Rules, tr: Transition, f: ChitFrame, typed: Notation) -> None:
    """5.1, 5.4: activate the formation (an exhausted one after its test); a demoralised one tests recovery."""
    st = tr.state
    cid = f.chit
    c = _chit(st, cid)
    fid = c.fid
    if isinstance(typed, N.Activate) and formation(st, fid).demoralised:
        _recover_instead(rs, tr, f)
        f.stage, f.outcome = "done", "nopass"
        return
    if isinstance(typed, N.Test):
        _exhaustion_test(rs, tr, fid)
    player(st, c.side).activated.append(cid)
    formation(st, fid).normal_used = True
    f.stage = "after"
    start_activation(rs, tr, c.side, [(fid, "normal")], art=None)


def _chit_barrage(rs: Rules, tr: Transition, f: ChitFrame, typed: Notation) -> None:
    """8.6: the artillery or Stuka chit is fired."""
    st = tr.state
    cid = f.chit
    side = _chit(st, cid).side
    player(st, side).activated.append(cid)
    f.stage = "done"
    start_activation(rs, tr, side, [], art=cid)


def _chit_discard(rs: Rules, tr: Transition, f: ChitFrame, typed: Notation) -> None:
    """5.5: the second General is discarded."""
    side = _chit(tr.state, f.chit).side
    tr.emit("general", f"{side.title()} discards the second General (rule 5.5)")
    f.stage, f.outcome = "done", "nopass"


_CHIT_VERBS: dict[type[Notation], Callable[[Rules, Transition, ChitFrame, Notation], None]] = {
    N.General: _chit_general,
    N.Keep: _chit_keep,
    N.Replay: _chit_replay,
    N.Combine: _chit_combine,
    N.Lapse: _chit_lapse,
    N.Hold: _chit_hold,
    N.Decline: _chit_decline,
    N.Skip: _chit_decline,
    N.Activate: _chit_activate,
    N.Test: _chit_activate,
    N.Barrage: _chit_barrage,
    N.Discard: _chit_discard,
}
"""What each choice of a chit frame does (2.9)."""


def _use_general(rs: Rules, tr: Transition, side: str, option: str) -> None:
    """5.5 options 2 and 3; the General in hand (or the one just drawn) is spent."""
    st = tr.state
    p = player(st, side)
    top = frame(st)
    drawn = isinstance(top, ChitFrame) and _chit(st, top.chit).kind == "general"
    gid = top.chit if isinstance(top, ChitFrame) and drawn else p.general
    assert gid is not None
    if not drawn:
        p.general, p.general_free = None, False
    if option == "replay":
        tr.emit("general", f"{side.title()} turns the General into a Replay (rule 5.5)")
        p.replays.append(gid)
        if len(p.replays) > 1:
            # Two Replays in hand: one must be played at once (5.3, 5.5 [P]).
            push(st, SideFrame("replay_now", side))
        return
    limit = rs.tables.general_neutral_markers if option == "neutral" else rs.tables.general_exhaust_markers
    push(st, GeneralClearFrame("general_clear", side, option, limit))


def _play_held_replay(rs: Rules, tr: Transition, side: str, fid: str) -> None:
    rid = player(tr.state, side).replays.pop(0)
    _replay(rs, tr, side, fid, rid, held=True)


def _replay(rs: Rules, tr: Transition, side: str, fid: str, rid: str, held: bool = False) -> None:
    """Play a Replay on formation ``fid`` (5.3). A held Replay passes the opponent's cancel window first, before
    any effect (2.7); a drawn one passed it when it was drawn."""
    st = tr.state
    if held and _general_free(st, opponent(st, side)):
        _open_cancel_window(st, rid, then="replay", formation=fid)
        return
    _replay_effect(rs, tr, side, fid, rid)


def _replay_effect(rs: Rules, tr: Transition, side: str, fid: str, rid: str) -> None:
    """The Replay takes effect (5.3): an exhausted formation only loses its marker, any other one activates."""
    st = tr.state
    f = formation(st, fid)
    player(st, side).activated.append(rid)
    if f.exhausted:
        f.exhausted = False
        f.replay_used = True
        tr.emit(
            "replay", f"Replay on exhausted {f.name}: its exhaustion is removed and it does nothing else (rule 5.3)"
        )
        return
    f.replay_used = True
    tr.emit("replay", f"{side.title()} plays a Replay: {f.name} activates again (rule 5.3)")
    start_activation(rs, tr, side, [(fid, "replay")], art=None)


def _combine(rs: Rules, tr: Transition, f: ChitFrame) -> None:
    """2.7 ACTIVATE_TOGETHER: the held chit and the new one act in one activation; the General is spent."""
    st = tr.state
    cid = f.chit
    side = _chit(st, cid).side
    p = player(st, side)
    held = p.held
    assert held is not None
    p.spend_general()
    f.stage, f.outcome = "done", "nopass"
    forms: list[tuple[str, str]] = []
    art = None
    for x in (held, cid):
        cx = _chit(st, x)
        p.activated.append(x)
        if cx.kind == "formation":
            forms.append((cx.fid, "normal"))
            formation(st, cx.fid).normal_used = True
        else:
            art = x
    tr.emit("combine", f"{side.title()} combines {chit_name(st, held)} with {chit_name(st, cid)} (rule 5.5)")
    start_activation(rs, tr, side, forms, art=art, prepare=True)


def start_activation(
    rs: Rules,
    tr: Transition,
    side: str,
    forms: list[tuple[str, str]],
    art: str | None,
    prepare: bool = False,
) -> None:
    """2.5 steps 2–5 for each formation, then push the activation frame (step 6)."""
    st = tr.state
    active: list[str] = []
    via: dict[str, str] = {}
    for fid, how in forms:
        f = formation(st, fid)
        if prepare and f.demoralised:
            recovery_test(rs, tr, fid)
            if fid in data(st).chits:
                _to_skipped(st, fid)
            continue
        active.append(fid)
        via[fid] = how
    act = push(st, ActivationFrame("activation", side, active, via, art, None, [], None))
    if art is not None:
        act.salvos = list(_chit(st, art).salvos or [])
    # Exhausted formations joining a combined activation decide test or skip (5.4) before anything else: their
    # activation effects (2.5 step 5) wait for that choice (2.5 step 3 comes first; a skip does nothing else).
    deciding = [fid for fid in active if prepare and formation(st, fid).exhausted]
    for fid in active:
        if fid not in deciding:
            rs.activation_effects(tr, fid)
    for fid in deciding:
        push(st, ExhaustedFrame("exhausted", side, fid))
    # The other side's once-per-activation reactions are available again (6.3.2, 6.3.3 [P]).
    for u in st.units.values():
        if u.side != side:
            status(u).returned = False
            status(u).retreated = False
        else:
            status(u).acted = False
    names = " and ".join(formation(st, x).name for x in active)
    if art is not None:
        names = (names + " with " if names else "") + chit_name(st, art)
    tr.emit("activate", f"{side.title()} activates {names} (rule 5.2)", formations=active, art=art)


HANDLERS: tuple[FrameHandler[Any], ...] = (
    T1KeepHandler(),
    T1Handler(),
    CancelHandler(),
    GeneralClearHandler(),
    ExhaustedHandler(),
    ReplayNowHandler(),
    ChitHandler(),
)
"""The handlers of the frames of the sequence of play."""
