"""Provides the Blitzkrieg 1940 sequence of play: administration, the chit cup, chit resolution and activations.

This is the state machine of digest 2.1–2.10 and 5.1–5.6; the pseudo-code of 2.7 is the reference. Pending
decisions are frames on a stack in ``state.data["frames"]`` (see :mod:`.model`); :func:`advance` runs every
automatic step until a side must decide, so the engine's ``to_act`` is always the side on top of the stack.

Frame kinds handled here:

- ``t1_keep`` (German, Hannut setup 2.8): which formation chit to keep out of the cup.
- ``t1`` (German, Hannut turn 1): which kept chit to resolve next.
- ``cancel`` (the chit owner's opponent, 5.5 option 4): try to cancel the chit, or not.
- ``chit`` (the owner): what to do with a drawn or played chit (2.9).
- ``general_clear`` (the owner, 5.5 option 2): which Neutralised or Exhaustion markers to remove.
- ``exhausted`` (the owner): test or skip for an exhausted formation activated together with another (5.4).
- ``activation`` (the active player): unit actions (see :mod:`.actions`) and ``end``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.actions import Action
from engine.errors import IllegalActionError
from engine.rules import Transition
from engine.state import GameState, Outcome

from . import actions
from .model import formation, formation_units, frame, opponent, player, push

if TYPE_CHECKING:
    from .ruleset import Blitzkrieg1940

__all__ = [
    "SEQUENCE_FRAMES",
    "advance",
    "apply_sequence",
    "begin_game",
    "check_sequence",
    "sequence_actions",
]

SEQUENCE_FRAMES = frozenset({"t1_keep", "t1", "cancel", "chit", "general_clear", "exhausted", "replay_now"})
"""Frame kinds this module decides; ``activation`` frames are shared with :mod:`.actions`."""

VERBS: dict[str, str] = {
    "keep": "keep [CHIT] — keep a Replay or General in hand; Hannut set-up: the formation chit kept out (2.8)",
    "first": "first CHIT — Hannut turn 1: resolve this kept chit next (2.8)",
    "cancel": "cancel — try to cancel the enemy chit with your General: 1d6 of 1–3 (5.5)",
    "nocancel": "nocancel — let the enemy chit take effect (5.5)",
    "activate": "activate — activate the drawn formation (5.1)",
    "decline": "decline — do not use the drawn chit: a pass (2.6)",
    "test": "test — exhausted formation: test 2d6 ≤ FF − 2 to remove the marker, then act (5.4)",
    "skip": "skip — exhausted formation: skip the activation to remove the marker, a pass (5.4)",
    "barrage": "barrage — fire the drawn artillery or Stuka chit (8.6)",
    "hold": "hold — hold the drawn chit under your General to combine it later, a pass (5.5)",
    "combine": "combine — activate the held chit together with this one (5.5)",
    "lapse": "lapse — let the held chit lapse; the General is spent (5.5)",
    "replay": "replay FORMATION — play a Replay on a formation (5.3)",
    "general": "general neutral|exhaust|replay — use the General: remove markers or take a Replay (5.5)",
    "clear": "clear UNIT|FORMATION — remove this marker with the General (5.5)",
    "done": "done — stop removing markers (5.5)",
    "discard": "discard — discard the second General (5.5)",
}
"""Notation verbs of the sequence of play (listed in the ruleset README)."""


# --- Small helpers ------------------------------------------------------------------------------------


def _chit(st: GameState, cid: str) -> dict[str, Any]:
    rec: dict[str, Any] = st.data["chits"][cid]
    return rec


def chit_name(st: GameState, cid: str) -> str:
    """A readable name for a chit: ``"I/5 PzR"``, ``"German artillery"``, ``"French Replay"``."""
    c = _chit(st, cid)
    if c["kind"] == "formation":
        return str(formation(st, c["formation"])["name"])
    side = str(c["side"]).title()
    return {"replay": f"{side} Replay", "general": f"{side} General", "artillery": f"{side} artillery"}.get(
        c["kind"], f"{side} Stuka"
    )


def ff_now(st: GameState, fid: str, rs: Blitzkrieg1940) -> int:
    """The formation factor in force: base FF, minus the exhaustion modifier when exhausted (5.4)."""
    f = formation(st, fid)
    return int(f["ff"]) + (rs.tables.exhausted_ff_modifier if f["exhausted"] else 0)


def _general_free(st: GameState, side: str) -> bool:
    p = player(st, side)
    return p["general"] is not None and bool(p["general_free"])


def _pair_ok(st: GameState, held: str, new: str) -> bool:
    """2.7 PAIR_OK: a held formation with a new formation, artillery or Stuka chit; a held artillery or Stuka
    chit with a new formation chit."""
    hk, nk = _chit(st, held)["kind"], _chit(st, new)["kind"]
    if hk == "formation":
        return nk in ("formation", "artillery", "stuka") and _chit(st, held)["formation"] != _chit(st, new).get(
            "formation"
        )
    return hk in ("artillery", "stuka") and nk == "formation"


def has_units_in_play(st: GameState, fid: str) -> bool:
    """True if the formation has a unit or its HQ on the map, an overrun HQ waiting, or units still to enter."""
    f = formation(st, fid)
    if f["removed"]:
        return False
    if f["overrun"]:
        return True
    for u in st.units.values():
        if u.formation != fid or u.steps <= 0 or u.status.get("exited"):
            continue
        if u.hex is not None or u.status.get("arrives") is not None:
            return True
    return False


def _orphan(st: GameState, cid: str) -> bool:
    """2.7 ORPHAN: a formation chit whose formation has left play."""
    c = _chit(st, cid)
    return c["kind"] == "formation" and (cid in st.data["removed_chits"] or not has_units_in_play(st, c["formation"]))


def replay_eligible(st: GameState, fid: str) -> bool:
    """5.3: a Replay may activate the formation (or, if it is exhausted, only remove its marker)."""
    return _replay_problem(st, fid) is None


def _replay_problem(st: GameState, fid: str, side: str | None = None) -> str | None:
    """Why a Replay of ``side`` may not activate ``fid`` now (5.3), citing the rule; None if it may."""
    if fid not in st.data["formations"]:
        c = st.data["chits"].get(fid)
        if c is not None and c["kind"] in ("artillery", "stuka"):
            return "artillery and Stuka chits can never be activated by a Replay (rule 5.3)"
        return f"{fid} is not a formation: a Replay activates a formation (rule 5.3)"
    f = formation(st, fid)
    name = f["name"]
    if side is not None and f["side"] != side:
        return f"{name} is not a {side} formation: a Replay activates one of its owner's formations (rule 5.3)"
    if f["removed"]:
        return f"{name} has left play (rule 5.3)"
    if f["replay_used"]:
        return f"{name} was already activated by a Replay this turn, and never is by a second (rule 5.3)"
    if f["acts"] >= 2:
        return f"{name} has been activated twice this turn, the most a formation may be (rule 5.3)"
    if f["demoralised"]:
        return f"{name} is demoralised and cannot be activated by a Replay (rule 5.3, 8.5.1)"
    if not any(u.hex is not None for u in formation_units(st, fid)):
        return f"{name} has no unit on the map (rule 5.3)"
    if f["hq"] is not None:
        hq = st.units[f["hq"]]
        if f["overrun"] or hq.hex is None:
            return f"{name}'s HQ is not on the map (rule 5.3)"
        if hq.status.get("neutralised"):
            return f"{name}'s HQ is neutralised (rule 5.3)"
    return None


def _eligible_replays(st: GameState, side: str) -> list[str]:
    return sorted(fid for fid, f in st.data["formations"].items() if f["side"] == side and replay_eligible(st, fid))


# --- Game start, administration and end of turn ---------------------------------------------------------


def begin_game(rs: Blitzkrieg1940, tr: Transition) -> None:
    """After setup: Hannut's kept chits (2.8), then the first administration phase."""
    st = tr.state
    special = st.data.get("special", {})
    if special.get("turn1_kept_chits") and not st.data.get("t1_kept"):
        german = special["turn1_kept_chits"]["side"]
        push(st, "t1_keep", german)
        return
    administration(rs, tr)


def administration(rs: Blitzkrieg1940, tr: Transition) -> None:
    """2.1: the administration phase of ``state.turn``."""
    st = tr.state
    st.phase = "administration"
    tr.emit("phase", f"Turn {st.turn}: administration phase (rule 2.1)")
    # Step 1: HQs front up, per-turn flags reset.
    for f in st.data["formations"].values():
        f.update(acts=0, normal_used=False, replay_used=False, skipped=False)
    for side in st.sides:
        p = player(st, side)
        p["activated"], p["skipped"] = [], []
    rs.turn_start_events(tr)
    # Step 2: rebuild the cup.
    _rebuild_cup(rs, tr)
    # Step 3: command check; step 4: OPP-used markers off.
    rs.command_check(tr, None)
    for u in st.units.values():
        u.status.pop("opp_used", None)
    # Step 5: recovery tests of demoralised formations, German first (2.1 [P]).
    order = sorted(st.sides, key=lambda s: (s != rs.recovery_first_side(st), s))
    for side in order:
        for fid in sorted(st.data["formations"]):
            f = formation(st, fid)
            if f["side"] == side and f["demoralised"] and not f["removed"]:
                recovery_test(rs, tr, fid)
    st.phase = "operations"
    st.data["pass_owner"] = None
    st.data["next_first"] = None
    tr.emit("phase", f"Turn {st.turn}: operations phase (rule 2.2)")
    if st.turn == 1 and st.data.get("t1_kept"):
        push(st, "t1", st.data["special"]["turn1_kept_chits"]["side"])
    from .deployment import arrival_assignments  # noqa: PLC0415

    arrival_assignments(tr)  # 12.2 [P]: an arriving independent unit joins a formation before the first draw


def _rebuild_cup(rs: Blitzkrieg1940, tr: Transition) -> None:
    """2.1 step 2 [P]."""
    st = tr.state
    cup = []
    carried = st.data.get("carried")
    kept = set(st.data.get("t1_kept", [])) if st.turn == 1 else set()
    for cid, c in sorted(st.data["chits"].items()):
        if cid == carried or cid in st.data["removed_chits"] or cid in kept:
            continue
        if c.get("turn", 1) > st.turn:
            continue
        if c["kind"] == "formation" and not has_units_in_play(st, c["formation"]):
            continue
        cup.append(cid)
    st.data["cup"] = cup
    for side in st.sides:
        p = player(st, side)
        p.update(replays=[], general=None, general_free=False, held=None)
    tr.emit(
        "cup", f"The cup holds {len(cup)} chits" + (f"; {chit_name(st, carried)} is carried over" if carried else "")
    )


def recovery_test(rs: Blitzkrieg1940, tr: Transition, fid: str) -> bool:
    """8.5.1: 2d6 ≤ FF − 3 ends demoralisation; on failure the formation retreats toward its own edge."""
    st = tr.state
    f = formation(st, fid)
    target = ff_now(st, fid, rs) + rs.tables.ff_test_offset("recovery")
    roll = sum(tr.roll(6, 2, f"{f['name']} recovery test (rule 8.5.1)", target=target))
    if roll <= target:
        f["demoralised"] = False
        tr.emit("recover", f"{f['name']} recovers its morale (rule 8.5.1)", formation=fid)
        return True
    tr.emit("retreat", f"{f['name']} fails to recover and retreats toward its own edge (rule 8.5.1)", formation=fid)
    rs.demoralised_retreat(tr, fid)
    if fid in st.data["removed_chits"] and fid in st.data["cup"]:
        st.data["cup"].remove(fid)  # 8.5.1: its last unit has left the map: its chit leaves the cup
    return False


def _end_operations(rs: Blitzkrieg1940, tr: Transition) -> None:
    """2.10: end of turn, then the next turn's administration (or the end of the game)."""
    st = tr.state
    tr.emit("phase", f"Turn {st.turn}: the operations phase ends (rule 2.6)")
    # 1. Held chits are lost; a chit held under a General lapses (its formation counts as skipped).
    for side in st.sides:
        p = player(st, side)
        if p["held"] is not None:
            _to_skipped(st, p["held"])
        p.update(replays=[], general=None, general_free=False, held=None)
    # 2. Scenario events at the end of the turn.
    rs.turn_end_events(tr)
    # 3. Victory check.
    outcome = rs.victory_check(st, final=st.turn >= rs.turns(st))
    if outcome is not None:
        _finish(tr, outcome)
        return
    # 4. Carry the last chit, advance the turn marker.
    st.data["carried"] = st.data.get("next_first")
    st.data["next_first"] = None
    st.turn += 1
    administration(rs, tr)


def _finish(tr: Transition, outcome: Outcome) -> None:
    st = tr.state
    st.outcome = outcome
    st.to_act = None
    st.phase = "over"
    st.data["frames"] = []
    tr.emit("outcome", f"Game over: {outcome.reason}")


# --- The operations loop --------------------------------------------------------------------------------


def advance(rs: Blitzkrieg1940, tr: Transition) -> None:
    """Run automatic steps until a side must decide (or the game ends)."""
    st = tr.state
    for _ in range(10_000):
        if st.outcome is not None:
            return
        f = frame(st)
        if f is not None:
            if _auto(rs, tr, f):
                continue
            st.to_act = f["side"]
            return
        _next_chit(rs, tr)
    raise RuntimeError("the sequence of play did not reach a decision")  # pragma: no cover


def _next_chit(rs: Blitzkrieg1940, tr: Transition) -> None:
    """2.7 OPERATIONS loop body: take the carried chit or draw one, then start resolving it."""
    st = tr.state
    cid = st.data.get("carried")
    if cid is not None:
        st.data["carried"] = None
        tr.emit("draw", f"{chit_name(st, cid)} was carried over from the last turn and is resolved first (rule 2.6)")
    else:
        cup: list[str] = st.data["cup"]
        if not cup:
            _end_operations(rs, tr)
            return
        index = 0 if len(cup) == 1 else tr.roll(len(cup), 1, "draw a chit from the cup (rule 2.2)")[0] - 1
        cid = cup.pop(index)
        if not cup:
            st.data["next_first"] = cid
            tr.emit("draw", f"The last chit, {chit_name(st, cid)}, is set aside for the next turn (rule 2.6)")
            _end_operations(rs, tr)
            return
        tr.emit("draw", f"Drawn: {chit_name(st, cid)} ({_chit(st, cid)['side']})", chit=cid)
    if _orphan(st, cid):
        tr.emit("draw", f"{chit_name(st, cid)} has no units left in play: discarded (rule 2.7)")
        return
    begin_resolve(st, cid)


def begin_resolve(st: GameState, cid: str, t1: bool = False) -> None:
    """Start RESOLVE(c): the opponent's cancellation window, then the owner's choice."""
    owner = _chit(st, cid)["side"]
    push(st, "chit", owner, chit=cid, stage="main", t1=t1)
    _open_cancel_window(st, cid, then="resolve")


def _open_cancel_window(st: GameState, cid: str, then: str, **fields: Any) -> None:
    """5.5 option 4: if the owner's opponent holds a free General, ask him first."""
    owner = _chit(st, cid)["side"]
    other = opponent(st, owner)
    if _general_free(st, other):
        push(st, "cancel", other, chit=cid, then=then, **fields)


def _to_skipped(st: GameState, cid: str) -> None:
    c = _chit(st, cid)
    player(st, c["side"])["skipped"].append(cid)
    if c["kind"] == "formation":
        f = formation(st, c["formation"])
        f["normal_used"] = f["skipped"] = True


def _recover_instead(rs: Blitzkrieg1940, tr: Transition, f: dict[str, Any]) -> None:
    """2.5 step 2: a demoralised formation's chit gives the recovery test only and is used up (a forced outcome,
    not a pass, 2.6)."""
    recovery_test(rs, tr, _chit(tr.state, f["chit"])["formation"])
    _to_skipped(tr.state, f["chit"])


def _finish_chit(rs: Blitzkrieg1940, tr: Transition, f: dict[str, Any], outcome: str) -> None:
    """Pop a chit frame and apply the pass rule of 2.6 / 2.7."""
    st = tr.state
    st.data["frames"].remove(f)
    if f.get("t1"):
        return
    owner = _chit(st, f["chit"])["side"]
    if outcome == "pass":
        last = st.data.get("pass_owner")
        if last is not None and last != owner:
            st.data["next_first"] = f["chit"]
            tr.emit("pass", f"{owner.title()} passes after {last.title()} passed: the operations phase ends (rule 2.6)")
            st.data["frames"] = []
            _end_operations(rs, tr)
            return
        st.data["pass_owner"] = owner
        tr.emit("pass", f"{owner.title()} passes (rule 2.6)")
    else:
        st.data["pass_owner"] = None


def _auto(rs: Blitzkrieg1940, tr: Transition, f: dict[str, Any]) -> bool:
    """Resolve a frame that needs no decision; True if something was done."""
    st = tr.state
    if f["kind"] in ("deploy", "arrival_assign"):
        return False
    if f["kind"] not in SEQUENCE_FRAMES:
        return actions.auto_frame(rs, tr, f)
    if f["kind"] == "t1":
        if not st.data.get("t1_kept"):
            st.data["frames"].remove(f)
            return True
        return False
    if f["kind"] == "replay_now":
        p = player(st, f["side"])
        if len(p["replays"]) < 2 or not _eligible_replays(st, f["side"]):
            if len(p["replays"]) >= 2:
                p["replays"].pop()
                tr.emit("replay", f"{f['side'].title()} cannot play the second Replay: it is lost (rule 5.3)")
            st.data["frames"].remove(f)
            return True
        return False
    if f["kind"] != "chit":
        return False
    c = _chit(st, f["chit"])
    side = c["side"]
    p = player(st, side)
    if f["stage"] == "main" and c["kind"] == "formation":
        fid = c["formation"]
        held = p["held"]
        pair = held is not None and _pair_ok(st, held, f["chit"])
        # 2.7: a free General may first hold the chit or be used (options 2, 3); otherwise nothing to decide.
        choice = _general_free(st, side) and not f.get("t1")
        if formation(st, fid)["demoralised"] and not pair and not choice:
            _recover_instead(rs, tr, f)
            _finish_chit(rs, tr, f, "nopass")
            return True
    if f["stage"] == "main" and c["kind"] == "replay" and p["replays"] and not _eligible_replays(st, side):
        tr.emit("replay", f"{side.title()} already holds a Replay and cannot play this one: discarded (rule 5.3)")
        _finish_chit(rs, tr, f, "nopass")
        return True
    if f["stage"] == "after":
        if p["replays"] and _eligible_replays(st, side):
            return False
        _finish_chit(rs, tr, f, "nopass")
        return True
    if f["stage"] == "done":
        _finish_chit(rs, tr, f, f.get("outcome", "nopass"))
        return True
    return False


# --- Legal actions --------------------------------------------------------------------------------------


def _general_options(st: GameState, side: str) -> list[Action]:
    """5.5 options 2 and 3 (option 1 is holding a chit; option 4 is the cancel window)."""
    out = []
    if any(u.side == side and u.status.get("neutralised") for u in st.iter_units()):
        out.append(Action("general", ("neutral",)))
    if any(f["side"] == side and f["exhausted"] for f in st.data["formations"].values()):
        out.append(Action("general", ("exhaust",)))
    out.append(Action("general", ("replay",)))
    return out


def sequence_actions(rs: Blitzkrieg1940, st: GameState, f: dict[str, Any]) -> list[Action]:
    """Legal actions for a sequence frame, in a fixed order."""
    kind = f["kind"]
    side = f["side"]
    p = player(st, side)
    if kind == "t1_keep":
        return [
            Action("keep", (cid,))
            for cid, c in sorted(st.data["chits"].items())
            if c["kind"] == "formation" and c["side"] == side and c.get("turn", 1) == 1
        ]
    if kind == "t1":
        return [Action("first", (cid,)) for cid in st.data["t1_kept"]]
    if kind == "cancel":
        return [Action("cancel"), Action("nocancel")]
    if kind == "general_clear":
        if f["what"] == "neutral":
            clear = [Action("clear", (u.id,)) for u in st.iter_units(side) if u.status.get("neutralised")]
        else:
            clear = [
                Action("clear", (fid,))
                for fid, rec in sorted(st.data["formations"].items())
                if rec["side"] == side and rec["exhausted"]
            ]
        return [*clear, Action("done")]
    if kind == "exhausted":
        return [Action("test"), Action("skip")]
    if kind == "replay_now":
        return [Action("replay", (fid,)) for fid in _eligible_replays(st, side)]
    if kind != "chit":
        return []
    cid = f["chit"]
    c = _chit(st, cid)
    if f["stage"] == "after":
        return [*(Action("replay", (fid,)) for fid in _eligible_replays(st, side)), Action("keep")]
    out: list[Action] = []
    general_free = _general_free(st, side) and not f.get("t1")
    if c["kind"] in ("formation", "artillery", "stuka"):
        held = p["held"]
        if held is not None and _pair_ok(st, held, cid) and not f.get("lapsed"):
            return [Action("combine"), Action("lapse")]
        if c["kind"] == "formation":
            rec = formation(st, c["formation"])
            if rec["demoralised"]:
                out.append(Action("activate"))  # 2.5 step 2: go on to the recovery test (asked only with a General)
            elif rec["exhausted"]:
                out += [Action("test"), Action("skip")]
            else:
                out += [Action("activate"), Action("decline")]
            if p["replays"] and not rec["demoralised"]:
                out += [Action("replay", (fid,)) for fid in _eligible_replays(st, side)]
        else:
            out += [Action("barrage"), Action("decline")]
        if general_free:
            out.append(Action("hold"))
    elif c["kind"] == "replay":
        out += [Action("replay", (fid,)) for fid in _eligible_replays(st, side)]
        if not p["replays"]:
            out.append(Action("keep"))
    elif c["kind"] == "general":
        if p["general"] is None:
            out.append(Action("keep"))
        else:
            out.append(Action("discard"))
        return out + _general_options(st, side)
    if general_free:
        out += _general_options(st, side)
    return out


def check_sequence(rs: Blitzkrieg1940, st: GameState, f: dict[str, Any], action: Action) -> None:
    """Refuse an action that the frame does not allow, saying what the engine is waiting for."""
    legal = sequence_actions(rs, st, f)
    if action in legal:
        return
    waiting = waiting_for(st, f)
    choices = ", ".join(str(a) for a in legal)
    why = _refusal(st, f, action)
    if why is not None:
        raise IllegalActionError(f"Cannot {action}: {why[0]}; the choices are {choices}", rule=why[1])
    raise IllegalActionError(f"Cannot {action}: {waiting}; the choices are {choices}", rule=_frame_rule(f))


def _refusal(st: GameState, f: dict[str, Any], action: Action) -> tuple[str, str] | None:
    """The rule that refuses ``action`` in frame ``f``, as (reason, rule), when there is a more precise one than
    "the engine is waiting for another decision" (2.9)."""
    verb, args, kind, side = action.verb, action.args, f["kind"], str(f["side"])
    p = player(st, side)
    c = _chit(st, f["chit"]) if kind in ("chit", "cancel") else None
    if verb == "replay" and kind in ("chit", "replay_now") and args:
        why = _replay_problem(st, args[0], side)
        if why is not None:
            return why, "5.3"
        if kind == "chit" and c is not None and c["kind"] != "replay" and not p["replays"]:
            return f"{side.title()} holds no Replay to play (rule 5.3)", "5.3"
    if verb == "keep" and kind == "replay_now":
        return f"{side.title()} holds two Replays: one must be played at once (rule 5.3)", "5.3"
    if verb == "keep" and kind == "chit" and c is not None and f["stage"] == "main":
        if c["kind"] == "replay" and p["replays"]:
            return f"{side.title()} already holds a Replay: the second must be played at once (rule 5.3)", "5.3"
        if c["kind"] == "general" and p["general"] is not None:
            text = f"{side.title()} already holds a General: the second must be used now (option 2 or 3) or discarded"
            return f"{text} (rule 5.5)", "5.5"
    if verb == "cancel" and kind != "cancel":
        owner = str(c["side"]) if c is not None else side
        other = opponent(st, owner)
        q = player(st, other)
        if q["general"] is not None and q["held"] is not None and not q["general_free"]:
            text = (
                f"the {other.title()} General is committed to the held {chit_name(st, q['held'])} chit: it can only "
                "combine, not cancel"
            )
            return f"{text} (rule 2.7, 5.5)", "5.5"
        if q["general"] is None:
            return f"{other.title()} holds no General to cancel with (rule 5.5)", "5.5"
        return "a cancellation is tried only when an enemy chit is drawn or played, before it acts (rule 5.5)", "5.5"
    if kind != "chit" or c is None or f["stage"] == "after":
        return None
    held = p["held"]
    pair = held is not None and _pair_ok(st, held, f["chit"]) and not f.get("lapsed")
    if pair and verb not in ("combine", "lapse"):
        text = f"{side.title()} holds {chit_name(st, held)} under the General: combine it with this chit"
        return f"{text} or let it lapse (rule 5.5, 2.7)", "5.5"
    if verb in ("combine", "lapse") and not pair:
        text = f"{side.title()} holds no chit under a General that pairs with {chit_name(st, f['chit'])}"
        return f"{text} (rule 5.5)", "5.5"
    if verb == "hold" and not (p["general"] is not None and p["general_free"]):
        return f"{side.title()} holds no free General to hold the chit under (rule 5.5)", "5.5"
    if verb == "general" and not (p["general"] is not None and p["general_free"]) and c["kind"] != "general":
        return f"{side.title()} holds no free General (rule 5.5)", "5.5"
    if c["kind"] == "formation":
        rec = formation(st, c["formation"])
        if verb in ("decline", "test", "skip") and rec["demoralised"]:
            text = f"{rec['name']} is demoralised: its chit gives the recovery test only, no choice (rule 2.5, 8.5.1)"
            return text, "8.5.1"
        if verb == "activate" and rec["exhausted"]:
            return f"{rec['name']} is exhausted: test (2d6 ≤ FF − 2) or skip to remove the marker (rule 5.4)", "5.4"
        if verb in ("test", "skip") and not rec["exhausted"]:
            return f"{rec['name']} is not exhausted: activate or decline (rule 5.4)", "5.4"
    return None


def _frame_rule(f: dict[str, Any]) -> str:
    return {
        "t1_keep": "2.8",
        "t1": "2.8",
        "cancel": "5.5",
        "general_clear": "5.5",
        "exhausted": "5.4",
        "replay_now": "5.3",
    }.get(f["kind"], "2.9")


def waiting_for(st: GameState, f: dict[str, Any]) -> str:
    """A sentence saying which decision the engine is waiting for (for refusals and the status bar)."""
    side = str(f["side"]).title()
    kind = f["kind"]
    if kind == "deploy":
        from .deployment import waiting  # noqa: PLC0415

        return waiting(st, f)
    if kind == "arrival_assign":
        return f"{side} assigns the arriving {f['unit']} to a formation with a chit (rules 12.2, 10.3)"
    if kind == "t1_keep":
        return f"{side} chooses the formation chit to keep out of the cup for turn 1"
    if kind == "t1":
        return f"{side} chooses which kept chit to resolve next"
    if kind == "cancel":
        return f"{side} decides whether to try to cancel {chit_name(st, f['chit'])} with the General"
    if kind == "general_clear":
        what = "Neutralised" if f["what"] == "neutral" else "Exhaustion"
        return f"{side} picks {what} markers to remove ({f['left']} left)"
    if kind == "replay_now":
        return f"{side} holds two Replays and must play one now"
    if kind == "exhausted":
        return f"{side} decides whether exhausted {formation(st, f['formation'])['name']} tests or skips"
    if kind == "chit":
        name = chit_name(st, f["chit"])
        if f["stage"] == "after":
            return f"{side} may play the held Replay right after {name}'s activation"
        return f"{side} decides what to do with {name}"
    if kind == "cc":
        from .closecombat import waiting  # noqa: PLC0415

        return waiting(st, f)
    if kind == "window":
        what = {"move": "a unit moved", "fire": "a unit fired", "indirect": "a barrage"}.get(f.get("trigger", ""), "")
        return f"{side} may react ({what}): return fire, opportunity fire, retreat, or close"
    if kind == "n_choice":
        return f"{side} decides whether {f['unit']} accepts N or takes a step loss instead"
    if kind == "pair_loss":
        return f"{side} chooses which half of the mounted pair {' / '.join(f['units'])} loses the step (rule 12.1)"
    if kind == "activation":
        names = " and ".join(formation(st, fid)["name"] for fid in f["formations"]) or "the artillery"
        return f"{side} acts with {names}"
    return f"{side} decides"


# --- Applying sequence actions --------------------------------------------------------------------------


def apply_sequence(rs: Blitzkrieg1940, tr: Transition, f: dict[str, Any], action: Action) -> None:
    """Apply a legal sequence action to the top frame ``f``."""
    st = tr.state
    kind = f["kind"]
    side = f["side"]
    p = player(st, side)
    verb = action.verb
    if kind == "t1_keep":
        cid = action.args[0]
        arts = sorted(k for k, c in st.data["chits"].items() if c["side"] == side and c["kind"] == "artillery")
        stukas = sorted(k for k, c in st.data["chits"].items() if c["side"] == side and c["kind"] == "stuka")
        st.data["t1_kept"] = [x for x in (stukas[:1] + arts[:1] + [cid]) if x]
        st.data["frames"].remove(f)
        tr.emit(
            "setup",
            f"{side.title()} keeps {', '.join(chit_name(st, x) for x in st.data['t1_kept'])} out of the cup (rule 2.8)",
        )
        if not any(fr["kind"] == "deploy" for fr in st.data["frames"]):
            administration(rs, tr)  # else 12.1 step 3: the French set-up comes first
        return
    if kind == "t1":
        cid = action.args[0]
        st.data["t1_kept"].remove(cid)
        begin_resolve(st, cid, t1=True)
        return
    if kind == "cancel":
        st.data["frames"].remove(f)
        if verb == "cancel":
            player(st, side).update(general=None, general_free=False)
            limit = rs.tables.cancel_max_roll
            purpose = f"{side.title()} General: cancel {chit_name(st, f['chit'])} (rule 5.5)"
            (die,) = tr.roll(6, 1, purpose, target=limit)
            if die <= limit:
                tr.emit("cancel", f"{chit_name(st, f['chit'])} is cancelled (rule 5.5)", chit=f["chit"])
                _cancelled(rs, tr, f)
                return
            tr.emit("cancel", f"The cancellation fails; {chit_name(st, f['chit'])} takes effect (rule 5.5)")
        _not_cancelled(rs, tr, f)
        return
    if kind == "general_clear":
        if verb == "done" or f["left"] <= 0:
            st.data["frames"].remove(f)
            return
        target = action.args[0]
        if f["what"] == "neutral":
            st.units[target].status.pop("neutralised", None)
            tr.emit("general", f"General: {target} is no longer neutralised (rule 5.5)")
        else:
            formation(st, target)["exhausted"] = False
            tr.emit("general", f"General: {formation(st, target)['name']} is no longer exhausted (rule 5.5)")
        f["left"] -= 1
        if f["left"] <= 0:
            st.data["frames"].remove(f)
        return
    if kind == "exhausted":
        st.data["frames"].remove(f)
        fid = f["formation"]
        if verb == "skip":
            formation(st, fid)["exhausted"] = False
            if fid in p["activated"]:
                p["activated"].remove(fid)
            _to_skipped(st, fid)
            tr.emit("skip", f"{formation(st, fid)['name']} skips its activation; exhaustion removed (rule 5.4)")
            act = _activation_frame(st)
            if act is not None and fid in act["formations"]:
                act["formations"].remove(fid)
            return
        _exhaustion_test(rs, tr, fid)
        rs.activation_effects(tr, fid)
        return
    if kind == "replay_now":
        st.data["frames"].remove(f)
        _play_held_replay(rs, tr, side, action.args[0])
        return
    if kind == "chit":
        _apply_chit(rs, tr, f, action, p)
        return
    raise IllegalActionError(f"{action} is not a sequence action")  # pragma: no cover


def _cancelled(rs: Blitzkrieg1940, tr: Transition, cancel: dict[str, Any]) -> None:
    """A cancelled chit: to its owner's skipped pile; what was waiting on it is dropped (5.5 [P])."""
    st = tr.state
    cid = cancel["chit"]
    c = _chit(st, cid)
    owner = c["side"]
    then = cancel["then"]
    if then == "resolve":
        chit_frame = next(x for x in reversed(st.data["frames"]) if x["kind"] == "chit" and x["chit"] == cid)
        if c["kind"] in ("formation", "artillery", "stuka"):
            _to_skipped(st, cid)
        chit_frame["stage"], chit_frame["outcome"] = "done", "nopass"
    elif then == "combine":
        # The held chit is cancelled: it goes to the skipped pile and the General is spent; the new chit is
        # then resolved on its own (2.7 COMBINE).
        _to_skipped(st, cid)
        player(st, owner).update(held=None, general=None, general_free=False)
        chit_frame = _chit_frame(st, cancel["chit_frame"])
        chit_frame["lapsed"] = True
        chit_frame["stage"] = "main"
    elif then == "replay":
        # The held Replay is cancelled before any of its effects (2.7 CANCEL_WINDOW): to the skipped pile.
        _to_skipped(st, cid)
        tr.emit("replay", f"The Replay on {formation(st, cancel['formation'])['name']} is lost (rule 5.5)")


def _not_cancelled(rs: Blitzkrieg1940, tr: Transition, cancel: dict[str, Any]) -> None:
    """The chit survived its cancel window (5.5): a combination or a held Replay waiting on it goes on (2.7)."""
    st = tr.state
    if cancel["then"] == "combine":
        _combine(rs, tr, _chit_frame(st, cancel["chit_frame"]))
    elif cancel["then"] == "replay":
        _replay_effect(rs, tr, _chit(st, cancel["chit"])["side"], cancel["formation"], cancel["chit"])


def _chit_frame(st: GameState, cid: str) -> dict[str, Any]:
    return next(x for x in reversed(st.data["frames"]) if x["kind"] == "chit" and x["chit"] == cid)


def _activation_frame(st: GameState) -> dict[str, Any] | None:
    return next((x for x in reversed(st.data["frames"]) if x["kind"] == "activation"), None)


def _exhaustion_test(rs: Blitzkrieg1940, tr: Transition, fid: str) -> None:
    """5.4 (b): 2d6 ≤ base FF − 2 removes the marker; the formation acts either way."""
    st = tr.state
    f = formation(st, fid)
    target = int(f["ff"]) + rs.tables.ff_test_offset("exhaustion")
    roll = sum(tr.roll(6, 2, f"{f['name']} exhaustion test (rule 5.4)", target=target))
    if roll <= target:
        f["exhausted"] = False
        tr.emit("exhaustion", f"{f['name']} shakes off its exhaustion (rule 5.4)")
    else:
        tr.emit("exhaustion", f"{f['name']} stays exhausted and acts with the handicaps (rule 5.4)")


def _apply_chit(rs: Blitzkrieg1940, tr: Transition, f: dict[str, Any], action: Action, p: dict[str, Any]) -> None:
    st = tr.state
    cid = f["chit"]
    c = _chit(st, cid)
    side = c["side"]
    verb = action.verb
    if verb == "general":
        _use_general(rs, tr, side, action.args[0])
        if c["kind"] == "general":
            # The drawn General was used at once: spent.
            f["stage"], f["outcome"] = "done", "nopass"
        return
    if f["stage"] == "after":
        if verb == "keep":
            f["stage"], f["outcome"] = "done", "nopass"
        else:
            _play_held_replay(rs, tr, side, action.args[0])
        return
    if verb == "combine":
        held = p["held"]
        f["combine_with"] = held
        _open_cancel_window(st, held, then="combine", chit_frame=cid)
        if frame(st) is f:  # nobody may cancel: combine now
            _combine(rs, tr, f)
        else:
            f["stage"] = "combine"
        return
    if verb == "lapse":
        _to_skipped(st, p["held"])
        tr.emit("lapse", f"{chit_name(st, p['held'])} lapses; the General is spent (rule 5.5)")
        p.update(held=None, general=None, general_free=False)
        f["lapsed"] = True
        return
    if verb == "hold":
        p["held"] = cid
        p["general_free"] = False
        tr.emit("hold", f"{side.title()} holds {chit_name(st, cid)} under the General (rule 5.5)")
        f["stage"], f["outcome"] = "done", "pass"
        return
    if verb in ("decline", "skip"):
        if c["kind"] == "formation" and verb == "skip":
            formation(st, c["formation"])["exhausted"] = False
            tr.emit("skip", f"{chit_name(st, cid)} skips its activation; exhaustion removed (rule 5.4)")
        else:
            tr.emit("decline", f"{side.title()} declines {chit_name(st, cid)} (rule 2.2)")
        _to_skipped(st, cid)
        f["stage"], f["outcome"] = "done", "pass"
        return
    if verb == "activate" and c["kind"] == "formation" and formation(st, c["formation"])["demoralised"]:
        _recover_instead(rs, tr, f)
        f["stage"], f["outcome"] = "done", "nopass"
        return
    if verb in ("activate", "test"):
        fid = c["formation"]
        if verb == "test":
            _exhaustion_test(rs, tr, fid)
        p["activated"].append(cid)
        formation(st, fid)["normal_used"] = True
        f["stage"] = "after"
        start_activation(rs, tr, side, [(fid, "normal")], art=None)
        return
    if verb == "barrage":
        p["activated"].append(cid)
        f["stage"] = "done"
        start_activation(rs, tr, side, [], art=cid)
        return
    if verb == "keep":
        if c["kind"] == "replay":
            p["replays"].append(cid)
            tr.emit("hold", f"{side.title()} keeps the Replay in hand (rule 5.3)")
        else:
            p["general"], p["general_free"] = cid, True
            tr.emit("hold", f"{side.title()} keeps the General in hand (rule 5.5)")
        f["stage"], f["outcome"] = "done", "nopass"
        return
    if verb == "discard":
        tr.emit("general", f"{side.title()} discards the second General (rule 5.5)")
        f["stage"], f["outcome"] = "done", "nopass"
        return
    if verb == "replay":
        fid = action.args[0]
        if c["kind"] == "replay":
            f["stage"], f["outcome"] = "done", "nopass"
            _replay(rs, tr, side, fid, cid)
        else:
            _play_held_replay(rs, tr, side, fid)
        return
    raise IllegalActionError(f"{action} is not possible here")  # pragma: no cover


def _use_general(rs: Blitzkrieg1940, tr: Transition, side: str, option: str) -> None:
    """5.5 options 2 and 3; the General in hand (or the one just drawn) is spent."""
    st = tr.state
    p = player(st, side)
    top = frame(st)
    drawn = top is not None and top["kind"] == "chit" and _chit(st, top["chit"])["kind"] == "general"
    gid = top["chit"] if drawn and top is not None else p["general"]
    if not drawn:
        p.update(general=None, general_free=False)
    if option == "replay":
        tr.emit("general", f"{side.title()} turns the General into a Replay (rule 5.5)")
        p["replays"].append(gid)
        if len(p["replays"]) > 1:
            # Two Replays in hand: one must be played at once (5.3, 5.5 [P]).
            push(st, "replay_now", side)
        return
    limit = rs.tables.general_neutral_markers if option == "neutral" else rs.tables.general_exhaust_markers
    push(st, "general_clear", side, what=option, left=limit)


def _play_held_replay(rs: Blitzkrieg1940, tr: Transition, side: str, fid: str) -> None:
    rid = player(tr.state, side)["replays"].pop(0)
    _replay(rs, tr, side, fid, rid, held=True)


def _replay(rs: Blitzkrieg1940, tr: Transition, side: str, fid: str, rid: str, held: bool = False) -> None:
    """Play a Replay on formation ``fid`` (5.3). A held Replay passes the opponent's cancel window first, before
    any effect (2.7); a drawn one passed it when it was drawn."""
    st = tr.state
    if held and _general_free(st, opponent(st, side)):
        _open_cancel_window(st, rid, then="replay", formation=fid)
        return
    _replay_effect(rs, tr, side, fid, rid)


def _replay_effect(rs: Blitzkrieg1940, tr: Transition, side: str, fid: str, rid: str) -> None:
    """The Replay takes effect (5.3): an exhausted formation only loses its marker, any other one activates."""
    st = tr.state
    f = formation(st, fid)
    player(st, side)["activated"].append(rid)
    if f["exhausted"]:
        f["exhausted"] = False
        f["replay_used"] = True
        tr.emit(
            "replay", f"Replay on exhausted {f['name']}: its exhaustion is removed and it does nothing else (rule 5.3)"
        )
        return
    f["replay_used"] = True
    tr.emit("replay", f"{side.title()} plays a Replay: {f['name']} activates again (rule 5.3)")
    start_activation(rs, tr, side, [(fid, "replay")], art=None)


def _combine(rs: Blitzkrieg1940, tr: Transition, f: dict[str, Any]) -> None:
    """2.7 ACTIVATE_TOGETHER: the held chit and the new one act in one activation; the General is spent."""
    st = tr.state
    cid = f["chit"]
    side = _chit(st, cid)["side"]
    p = player(st, side)
    held = p["held"]
    p.update(held=None, general=None, general_free=False)
    f["stage"], f["outcome"] = "done", "nopass"
    forms: list[tuple[str, str]] = []
    art = None
    for x in (held, cid):
        cx = _chit(st, x)
        p["activated"].append(x)
        if cx["kind"] == "formation":
            forms.append((cx["formation"], "normal"))
            formation(st, cx["formation"])["normal_used"] = True
        else:
            art = x
    tr.emit("combine", f"{side.title()} combines {chit_name(st, held)} with {chit_name(st, cid)} (rule 5.5)")
    start_activation(rs, tr, side, forms, art=art, prepare=True)


def start_activation(
    rs: Blitzkrieg1940,
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
        if prepare and f["demoralised"]:
            recovery_test(rs, tr, fid)
            if fid in st.data["chits"]:
                _to_skipped(st, fid)
            continue
        active.append(fid)
        via[fid] = how
    act = push(st, "activation", side, formations=active, via=via, art=art, salvos=None, acted=[], moving=None)
    if art is not None:
        act["salvos"] = list(_chit(st, art).get("salvos", []))
    # Exhausted formations joining a combined activation decide test or skip (5.4) before anything else: their
    # activation effects (2.5 step 5) wait for that choice (2.5 step 3 comes first; a skip does nothing else).
    deciding = [fid for fid in active if prepare and formation(st, fid)["exhausted"]]
    for fid in active:
        if fid not in deciding:
            rs.activation_effects(tr, fid)
    for fid in deciding:
        push(st, "exhausted", side, formation=fid)
    # The other side's once-per-activation reactions are available again (6.3.2, 6.3.3 [P]).
    for u in st.units.values():
        if u.side != side:
            u.status.pop("returned", None)
            u.status.pop("retreated", None)
        else:
            u.status.pop("acted", None)
    names = " and ".join(formation(st, x)["name"] for x in active)
    if art is not None:
        names = (names + " with " if names else "") + chit_name(st, art)
    tr.emit("activate", f"{side.title()} activates {names} (rule 5.2)", formations=active, art=art)


def end_activation(rs: Blitzkrieg1940, tr: Transition, f: dict[str, Any]) -> None:
    """2.5 step 7: count the activation; the second one exhausts the formation (5.3)."""
    st = tr.state
    st.data["frames"].remove(f)
    for fid in f["formations"]:
        rec = formation(st, fid)
        rec["acts"] += 1
        if rec["acts"] >= 2 and not rec["exhausted"]:
            rec["exhausted"] = True
            tr.emit("exhaustion", f"{rec['name']} has been activated twice this turn and is exhausted (rule 5.3)")
    for u in st.units.values():
        u.status.pop("acted", None)
        u.status.pop("moving", None)
    tr.emit("activate", f"{f['side'].title()}'s activation ends")
