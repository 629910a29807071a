"""Blitzkrieg 1940 digest sections 2 (sequence of play, the pseudo-code of 2.7, the decision points of 2.9, the end
of turn of 2.10) and 5 (activation, Replay, exhaustion, General): acceptance cases AC-22 … AC-32, AC-76, AC-77 and
AC-80, played through the ruleset's decisions.

Situations are prepared with :mod:`tests.rulesets.blitzkrieg1940.helpers` (the turn-1 state of a scenario, edited,
then advanced to the next decision); the cases that a real game reaches in a few draws (AC-29, AC-31) are played
through the :class:`engine.Game` facade from the scenario's start. Dice are scripted: a chit draw is a die with as
many sides as the cup holds chits (``draw_values``).

Besides the acceptance cases: the cancel windows of held chits (2.7), an exhausted formation joining a combined
activation (2.5), a demoralised formation's chit with a free General (2.7, 2.9), the cup after a failed recovery
test (8.5.1), and notation round trips in random positions.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

import engine
from engine.dice import Dice, ScriptedDice
from engine.hexgrid import distance
from engine.rulesets.blitzkrieg1940 import combat
from engine.rulesets.blitzkrieg1940 import model as bk
from engine.state import GameState

from .helpers import (
    Situation,
    chit_id,
    draw_values,
    event_texts,
    park_units,
    place,
    prepared_state,
    refusal,
    ruleset,
    scenario,
    situation,
    skip_setup,
    update,
)

G_REPLAY_1, G_REPLAY_2 = chit_id("german", "replay", 1, 1), chit_id("german", "replay", 1, 2)
G_GENERAL_1, G_GENERAL_2 = chit_id("german", "general", 1, 1), chit_id("german", "general", 1, 2)
G_ARTILLERY = chit_id("german", "artillery")
F_REPLAY, F_GENERAL, F_ARTILLERY = (chit_id("french", k) for k in ("replay", "general", "artillery"))
F_FILLERS = ["fra-ii-205-ri", "fra-iii-205-ri"]


def stonne(cup: list[str], dice: list[int] | None = None, edit: Callable[[GameState], None] | None = None) -> Situation:
    """Stonne turn 1 with only ``cup`` in the cup; ``dice`` default to drawing the cup's first chit."""
    cup = sorted(cup)

    def _edit(st: GameState) -> None:
        bk.data(st).cup = list(cup)
        if edit is not None:
            edit(st)

    return situation("stonne", dice if dice is not None else [1], _edit)


def fm(s: Situation, fid: str) -> Any:
    """The formation record ``fid``."""
    rec: dict[str, Any] = bk.data(s.state).formations[fid]
    return rec


def pl(s: Situation, side: str) -> Any:
    """The per-player record of ``side``."""
    rec: dict[str, Any] = bk.data(s.state).players[side]
    return rec


def top(s: Situation) -> Any:
    f = s.frame
    assert f is not None
    return f


def chit_frame(s: Situation, cid: str, stage: str = "main") -> None:
    """Assert that the owner now decides what to do with chit ``cid``."""
    f = top(s)
    assert (f.kind, f.chit, f.stage) == ("chit", cid, stage), f


def activation_of(s: Situation) -> Any:
    f = top(s)
    assert f.kind == "activation", f
    return f


# --- 14.3 Activation, Replay, exhaustion, General, end of phase ---------------------------------------------


def test_ac22_5_3_second_activation_exhausts() -> None:
    # F activated by its own chit, later by a Replay: exhausted when the Replay activation ends.
    cup = ["ger-i-gd", G_REPLAY_1, G_REPLAY_2, *F_FILLERS]
    s = stonne(cup, draw_values(sorted(cup), ["ger-i-gd"]))
    chit_frame(s, "ger-i-gd")
    s.apply("activate")
    assert activation_of(s).via == {"ger-i-gd": "normal"}
    s.script(*s.draw(G_REPLAY_1)).apply("end")
    assert (fm(s, "ger-i-gd").acts, fm(s, "ger-i-gd").exhausted) == (1, False)
    chit_frame(s, G_REPLAY_1)
    s.apply("replay ger-i-gd")
    assert activation_of(s).via == {"ger-i-gd": "replay"}
    assert fm(s, "ger-i-gd").replay_used and not fm(s, "ger-i-gd").exhausted
    events = s.script(*s.draw(G_REPLAY_2)).apply("end")
    rec = fm(s, "ger-i-gd")
    assert (rec.acts, rec.exhausted, rec.normal_used, rec.replay_used) == (2, True, True, True)
    assert any("exhausted (rule 5.3)" in t for t in event_texts(events))
    # Never a second Replay, never a third activation.
    chit_frame(s, G_REPLAY_2)
    assert "replay ger-i-gd" not in s.legal()
    refusal(s, "replay ger-i-gd", "5.3")

    # F activated first by a Replay (HQ flipped), later by its own chit: exhausted after the second.
    cup = [G_REPLAY_1, "ger-i-gd", G_REPLAY_2, *F_FILLERS]
    s = stonne(cup, draw_values(sorted(cup), [G_REPLAY_1]))
    s.apply("replay ger-i-gd")
    assert fm(s, "ger-i-gd").replay_used  # the HQ shows its activated side (3.2, 5.3)
    s.script(*s.draw("ger-i-gd")).apply("end")
    assert (fm(s, "ger-i-gd").acts, fm(s, "ger-i-gd").exhausted) == (1, False)
    chit_frame(s, "ger-i-gd")
    s.apply("activate")
    s.script(*s.draw(G_REPLAY_2)).apply("end")
    assert (fm(s, "ger-i-gd").acts, fm(s, "ger-i-gd").exhausted) == (2, True)
    chit_frame(s, G_REPLAY_2)
    assert "replay ger-i-gd" not in s.legal()
    assert "5.3" in refusal(s, "replay ger-i-gd", "5.3")


def test_ac22_5_3_held_replay_right_after_own_activation() -> None:
    # 5.3 [I]: a held Replay may be played right after the formation's own activation; the second exhausts it.
    cup = ["ger-i-gd", *F_FILLERS]
    s = stonne(
        cup,
        draw_values(sorted(cup), ["ger-i-gd"]),
        lambda st: update(bk.data(st).players["german"], replays=[G_REPLAY_1]),
    )
    s.apply("activate")
    s.apply("end")
    chit_frame(s, "ger-i-gd", stage="after")
    assert "replay ger-i-gd" in s.legal() and "keep" in s.legal()
    s.apply("replay ger-i-gd")
    assert activation_of(s).via == {"ger-i-gd": "replay"}
    assert pl(s, "german").replays == []
    s.script(1).apply("end")
    assert (fm(s, "ger-i-gd").acts, fm(s, "ger-i-gd").exhausted) == (2, True)


def test_ac23_5_3_what_a_replay_cannot_activate() -> None:
    def edit(st: GameState) -> None:
        bk.data(st).formations["ger-stug-640"].exhausted = True
        bk.data(st).formations["ger-ii-gd"].demoralised = True
        place(st, "ger-iiigd-hq", "0108", neutralised=True)

    cup = [G_REPLAY_1, "ger-i-gd", *F_FILLERS]
    s = stonne(cup, draw_values(sorted(cup), [G_REPLAY_1]), edit)
    chit_frame(s, G_REPLAY_1)
    legal = s.legal()
    assert "replay ger-i-gd" in legal and "replay ger-stug-640" in legal
    assert not any(a.startswith("replay ger-ii-gd") or a.startswith("replay ger-iii-gd") for a in legal)
    assert not any("artillery" in a or "stuka" in a for a in legal)
    refusal(s, f"replay {G_ARTILLERY}", "5.3")  # artillery and Stuka chits: never by a Replay
    assert "demoralised" in refusal(s, "replay ger-ii-gd", "5.3")
    assert "neutralised" in refusal(s, "replay ger-iii-gd", "5.3")
    refusal(s, "replay fra-i-205-ri", "5.3")  # not his formation
    # An exhausted formation: the Replay only removes the marker; it does nothing else and is no activation.
    events = s.script(1).apply("replay ger-stug-640")
    rec = fm(s, "ger-stug-640")
    assert (rec.exhausted, rec.acts, rec.replay_used) == (False, 0, True)
    assert not any(f.kind == "activation" for f in s.frames)
    assert any("exhaustion is removed" in t and "5.3" in t for t in event_texts(events))


def test_ac24_5_3_5_5_second_replay_or_general_must_be_played() -> None:
    def edit(st: GameState) -> None:
        update(bk.data(st).players["german"], replays=[G_REPLAY_1])

    cup = [G_REPLAY_2, "ger-i-gd", *F_FILLERS]
    s = stonne(cup, draw_values(sorted(cup), [G_REPLAY_2]), edit)
    chit_frame(s, G_REPLAY_2)
    assert "keep" not in s.legal() and all(a.startswith("replay ") for a in s.legal())
    refusal(s, "keep", "5.3")
    s.apply("replay ger-ii-gd")
    assert pl(s, "german").replays == [G_REPLAY_1]  # the drawn one was played, the held one is kept
    assert activation_of(s).formations == ["ger-ii-gd"]

    # Nothing eligible: the second Replay is lost at once.
    def none_eligible(st: GameState) -> None:
        edit(st)
        for rec in bk.data(st).formations.values():
            if rec.side == "german":
                rec.replay_used = True

    s = stonne(cup, [*draw_values(sorted(cup), [G_REPLAY_2]), 1], none_eligible)
    assert any("5.3" in t and "discarded" in t for t in event_texts(s.events))
    assert pl(s, "german").replays == [G_REPLAY_1]

    # A second General: used at once (option 2 or 3) or discarded, never kept.
    def general(st: GameState) -> None:
        update(bk.data(st).players["german"], general=G_GENERAL_1, general_free=True, replays=[G_REPLAY_1])

    cup = [G_GENERAL_2, "ger-i-gd", *F_FILLERS]
    s = stonne(cup, draw_values(sorted(cup), [G_GENERAL_2]), general)
    chit_frame(s, G_GENERAL_2)
    assert "keep" not in s.legal() and "discard" in s.legal()
    refusal(s, "keep", "5.5")
    s.apply("general replay")  # 5.5 option 3 with a Replay already in hand: one must be played at once
    assert pl(s, "german").general == G_GENERAL_1 and pl(s, "german").general_free
    assert top(s).kind == "replay_now"
    refusal(s, "keep", "5.3")
    s.apply("replay ger-i-gd")
    assert len(pl(s, "german").replays) == 1
    assert activation_of(s).via == {"ger-i-gd": "replay"}


def test_ac25_5_4_exhausted_formation_tests_or_skips() -> None:
    fid = "ger-stug-640"  # FF 9 (13.4)

    def edit(st: GameState) -> None:
        bk.data(st).formations[fid].exhausted = True

    cup = [fid, *F_FILLERS]
    dice = draw_values(sorted(cup), [fid])

    s = stonne(cup, dice, edit)
    chit_frame(s, fid)
    assert s.legal() == ["test", "skip"]
    refusal(s, "activate", "5.4")
    s.script(3, 4).apply("test")  # 7 ≤ 9 − 2
    assert not fm(s, fid).exhausted
    assert activation_of(s).formations == [fid]
    assert ruleset().ff(s.state, fid) == 9

    s = stonne(cup, dice, edit)
    events = s.script(4, 4).apply("test")  # 8 > 7: the marker stays, the formation acts with the handicaps
    assert any("8, needs 7" in t for t in event_texts(events))
    assert fm(s, fid).exhausted
    assert activation_of(s).formations == [fid]
    assert ruleset().ff(s.state, fid) == 7
    st = s.state
    stug = st.units["ger-stug640-stug-1"]
    target = st.units["fra-iii205ri-fin-1"]
    assert stug.hex is not None and target.hex is not None
    for fire in ("direct", "close"):
        factor = combat.attack_factor(
            ruleset().tables, st, stug, target, fire=fire, distance=max(1, distance(stug.hex, target.hex))
        )
        assert any(m.value == -1 and "exhausted" in m.reason for m in factor.modifiers), (fire, factor)
    s.script(1).apply("end")
    assert (fm(s, fid).acts, fm(s, fid).exhausted) == (1, True)

    s = stonne(cup, [*dice, 1], edit)
    s.apply("skip")  # the marker goes, the chit is used up, a pass
    rec = fm(s, fid)
    assert (rec.exhausted, rec.skipped, rec.normal_used, rec.acts) == (False, True, True, 0)
    assert pl(s, "german").skipped == [fid]
    assert bk.data(s.state).pass_owner == "german"


def test_ac26_5_5_general_cancels_artillery() -> None:
    def edit(st: GameState) -> None:
        update(bk.data(st).players["french"], general=F_GENERAL, general_free=True)

    cup = [G_ARTILLERY, "ger-i-gd", *F_FILLERS]
    dice = draw_values(sorted(cup), [G_ARTILLERY])

    # The French is asked first, before the German chooses a target or rolls anything.
    s = stonne(cup, dice, edit)
    f = top(s)
    assert (f.kind, f.side, f.chit) == ("cancel", "french", G_ARTILLERY)
    assert s.to_act == "french" and s.legal() == ["cancel", "nocancel"]
    refusal(s, "barrage", "5.5")
    events = s.script(3, 1).apply("cancel")
    assert any("cancelled (rule 5.5)" in t for t in event_texts(events))
    assert pl(s, "french").general is None
    assert pl(s, "german").skipped == [G_ARTILLERY] and pl(s, "german").activated == []
    assert not any(f.kind == "activation" for f in s.frames)
    assert bk.data(s.state).pass_owner is None  # a forced outcome, not a pass (2.6)

    s = stonne(cup, dice, edit)
    events = s.script(4).apply("cancel")
    assert any("fails" in t for t in event_texts(events))
    assert pl(s, "french").general is None  # spent either way
    chit_frame(s, G_ARTILLERY)
    assert s.legal() == ["barrage", "decline"]
    s.apply("barrage")
    assert activation_of(s).salvos == ["medium", "medium", "light", "light"]


def test_ac27_5_5_general_removes_markers() -> None:
    neutral = [
        "ger-igd-gdi-1",
        "ger-igd-gdi-2",
        "ger-igd-gdi-3",
        "ger-iigd-gdi-1",
        "ger-iigd-gdi-2",
        "ger-iigd-gdi-3",
        "ger-iiigd-gdi-1",
    ]

    def edit(st: GameState) -> None:
        update(bk.data(st).players["german"], general=G_GENERAL_1, general_free=True)
        for uid in neutral:
            bk.status(st.units[uid]).neutralised = True
        for fid in ("ger-ii-gd", "ger-iii-gd", "ger-stupion-43"):
            bk.data(st).formations[fid].exhausted = True

    cup = ["ger-stug-640", *F_FILLERS]
    dice = draw_values(sorted(cup), ["ger-stug-640"])

    s = stonne(cup, dice, edit)
    assert {"general neutral", "general exhaust", "general replay"} <= set(s.legal())
    s.apply("general neutral")
    assert pl(s, "german").general is None
    assert (top(s).kind, top(s).left) == ("general_clear", 6)
    refusal(s, "clear fra-i205ri-fin-1", "5.5")
    for uid in neutral[:6]:
        s.apply(f"clear {uid}")
    assert [u for u in neutral if bk.status(s.state.units[u]).neutralised] == [neutral[6]]
    chit_frame(s, "ger-stug-640")  # the clearing ends by itself after 6; the chit is resolved next
    assert not any(a.startswith("general") for a in s.legal())

    s = stonne(cup, dice, edit)
    s.apply("general exhaust")
    assert top(s).left == 2
    s.play("clear ger-ii-gd", "clear ger-iii-gd")
    exhausted = [fid for fid, rec in bk.data(s.state).formations.items() if rec.exhausted]
    assert exhausted == ["ger-stupion-43"]
    chit_frame(s, "ger-stug-640")

    s = stonne(cup, dice, edit)
    s.play("general neutral", f"clear {neutral[0]}", "done")
    assert sum(bool(bk.status(s.state.units[u]).neutralised) for u in neutral) == 6
    assert pl(s, "german").general is None
    chit_frame(s, "ger-stug-640")


@pytest.mark.parametrize("french_general", [False, True], ids=["no-cancel-window", "french-declines-to-cancel"])
def test_ac28_5_5_hold_then_activate_together(french_general: bool) -> None:
    def edit(st: GameState) -> None:
        update(bk.data(st).players["german"], general=G_GENERAL_1, general_free=True)
        if french_general:
            update(bk.data(st).players["french"], general=F_GENERAL, general_free=True)

    cup = ["ger-iii-gd", "ger-i-gd", *F_FILLERS]
    s = stonne(cup, draw_values(sorted(cup), ["ger-iii-gd", "ger-i-gd"]), edit)
    if french_general:
        s.apply("nocancel")
    chit_frame(s, "ger-iii-gd")
    s.apply("hold")  # a pass (2.6)
    assert pl(s, "german").held == "ger-iii-gd" and not pl(s, "german").general_free
    if french_general:
        s.apply("nocancel")
    chit_frame(s, "ger-i-gd")
    assert bk.data(s.state).pass_owner == "german"
    assert s.legal() == ["combine", "lapse"]
    refusal(s, "activate", "5.5")
    s.apply("combine")
    if french_general:
        f = top(s)
        assert (f.kind, f.chit) == ("cancel", "ger-iii-gd")  # the held chit is cancellable when played
        s.apply("nocancel")
    act = activation_of(s)
    assert act.formations == ["ger-iii-gd", "ger-i-gd"]
    assert pl(s, "german").general is None and pl(s, "german").held is None
    mover = next(a for a in s.legal() if a.startswith("move ger-iiigd"))
    s.apply(mover)
    while top(s).kind != "activation" or any(bk.status(u).moving for u in s.state.units.values()):
        s.apply("close" if top(s).kind == "window" else f"stop {mover.split()[1]}")
    assert any(a.startswith("move ger-igd") for a in s.legal())  # units of both act in one activation
    s.script(1).apply("end")
    assert (fm(s, "ger-iii-gd").acts, fm(s, "ger-i-gd").acts) == (1, 1)
    assert pl(s, "german").activated == ["ger-iii-gd", "ger-i-gd"]
    assert bk.data(s.state).pass_owner is None  # combining is no pass


def test_ac28_5_5_cancelled_held_chit_lapses_and_new_chit_goes_on() -> None:
    def edit(st: GameState) -> None:
        update(bk.data(st).players["german"], general=G_GENERAL_1, general_free=False, held="ger-iii-gd")
        update(bk.data(st).players["french"], general=F_GENERAL, general_free=True)

    cup = ["ger-i-gd", *F_FILLERS]
    s = stonne(cup, draw_values(sorted(cup), ["ger-i-gd"]), edit)
    s.apply("nocancel")
    s.apply("combine")
    s.script(2).apply("cancel")
    assert pl(s, "german").held is None and pl(s, "german").general is None
    assert pl(s, "german").skipped == ["ger-iii-gd"] and fm(s, "ger-iii-gd").skipped
    chit_frame(s, "ger-i-gd")
    assert s.legal() == ["activate", "decline"]


def test_2_5_exhausted_formation_joining_a_combination_decides_before_it_rallies() -> None:
    # 2.5: step 3 (test or skip an exhausted formation) comes before step 5 (rally); a skip does nothing else.
    def edit(st: GameState) -> None:
        update(bk.data(st).players["german"], general=G_GENERAL_1, general_free=False, held="ger-iii-gd")
        bk.data(st).formations["ger-iii-gd"].exhausted = True
        bk.status(st.units["ger-iiigd-gdi-1"]).neutralised = True

    cup = ["ger-i-gd", *F_FILLERS]
    dice = draw_values(sorted(cup), ["ger-i-gd"])
    s = stonne(cup, dice, edit)
    s.apply("combine")
    f = top(s)
    assert (f.kind, f.formation) == ("exhausted", "ger-iii-gd") and s.legal() == ["test", "skip"]
    assert not any("rally" in t for t in event_texts(s.events))
    s.apply("skip")
    assert bk.status(s.state.units["ger-iiigd-gdi-1"]).neutralised  # no rally roll for a skipped formation
    assert not fm(s, "ger-iii-gd").exhausted and fm(s, "ger-iii-gd").skipped
    assert activation_of(s).formations == ["ger-i-gd"]
    assert pl(s, "german").activated == ["ger-i-gd"] and pl(s, "german").skipped == ["ger-iii-gd"]
    s.script(1).apply("end")
    assert (fm(s, "ger-iii-gd").acts, fm(s, "ger-i-gd").acts) == (0, 1)

    s = stonne(cup, dice, edit)
    s.apply("combine")
    events = s.script(3, 4, 1, 1).apply("test")  # 7 ≤ 10 − 2: marker off; then the rally roll 2 ≤ 9
    texts = event_texts(events)
    assert next(t for t in texts if "rolled" in t).startswith("III/GD exhaustion test")
    assert not fm(s, "ger-iii-gd").exhausted
    assert not bk.status(s.state.units["ger-iiigd-gdi-1"]).neutralised
    assert activation_of(s).formations == ["ger-iii-gd", "ger-i-gd"]


def test_2_7_demoralised_chit_with_a_free_general() -> None:
    # 2.7 / 2.9: with a free General the owner may hold even a demoralised formation's chit (a pass), or use the
    # General, before the recovery test; without one the recovery test is automatic and no pass.
    def edit(st: GameState) -> None:
        bk.data(st).formations["ger-ii-gd"].demoralised = True
        update(bk.data(st).players["german"], general=G_GENERAL_1, general_free=True)

    cup = ["ger-ii-gd", *F_FILLERS]
    dice = draw_values(sorted(cup), ["ger-ii-gd"])
    s = stonne(cup, dice, edit)
    chit_frame(s, "ger-ii-gd")
    assert s.legal() == ["activate", "hold", "general replay"]
    refusal(s, "decline", "8.5.1")
    s.script(1).apply("hold")
    assert pl(s, "german").held == "ger-ii-gd" and bk.data(s.state).pass_owner == "german"

    s = stonne(cup, dice, edit)
    s.script(3, 3, 1).apply("activate")  # the recovery test: 6 ≤ 10 − 3 recovers; the chit is used up
    assert not fm(s, "ger-ii-gd").demoralised and fm(s, "ger-ii-gd").acts == 0
    assert pl(s, "german").skipped == ["ger-ii-gd"] and bk.data(s.state).pass_owner is None

    def no_general(st: GameState) -> None:
        bk.data(st).formations["ger-ii-gd"].demoralised = True

    s = stonne(cup, [*dice, 3, 3, 1], no_general)
    assert any("recovery test" in t for t in event_texts(s.events))
    assert not fm(s, "ger-ii-gd").demoralised and pl(s, "german").skipped == ["ger-ii-gd"]


def _stonne_start_cup() -> list[str]:
    st, _ = prepared_state("stonne")
    cup: list[str] = bk.data(st).cup
    return cup


def test_ac29_2_6_two_passes_end_the_phase() -> None:
    sc = scenario("stonne")
    cup = _stonne_start_cup()
    # German pass, French pass: the phase ends; the chit of the second pass is next turn's first chit.
    game = skip_setup(engine.new_game(sc, dice=ScriptedDice(draw_values(cup, ["ger-i-gd", "fra-i-205-ri"]))))
    assert game.to_act == "german" and [str(a) for a in game.legal_actions()] == ["activate", "decline"]
    refusal(game, "keep", "2.9")  # what is asked now: activate or decline the drawn formation
    game.apply("decline")
    assert (game.state.turn, bk.data(game.state).pass_owner) == (1, "german")
    events = game.apply("decline")
    texts = event_texts(events)
    assert any("operations phase ends (rule 2.6)" in t for t in texts)
    assert game.state.turn == 2
    assert bk.data(game.state).frames[-1].chit == "fra-i-205-ri"
    assert "fra-i-205-ri" not in bk.data(game.state).cup
    assert any("carried over" in t and "2.6" in t for t in texts)

    # German pass, German pass, French pass: ends after the French pass.
    order = ["ger-i-gd", "ger-ii-gd", "fra-i-205-ri"]
    game = skip_setup(engine.new_game(sc, dice=ScriptedDice(draw_values(cup, order))))
    game.apply("decline")
    game.apply("decline")
    assert (game.state.turn, bk.data(game.state).pass_owner) == (1, "german")
    game.apply("decline")
    assert game.state.turn == 2 and bk.data(game.state).frames[-1].chit == "fra-i-205-ri"

    # German pass, French activates: no end; the pass sequence starts again.
    order = ["ger-i-gd", "fra-i-205-ri", "ger-ii-gd", "fra-ii-205-ri"]
    game = skip_setup(engine.new_game(sc, dice=ScriptedDice(draw_values(cup, order))))
    game.apply("decline")
    game.apply("activate")
    game.apply("end")
    assert (game.state.turn, bk.data(game.state).pass_owner) == (1, None)
    game.apply("decline")
    assert (game.state.turn, bk.data(game.state).pass_owner) == (1, "german")
    assert bk.data(game.state).frames[-1].chit == "fra-ii-205-ri"


def test_ac29_2_6_replay_and_general_reset_the_pass_sequence() -> None:
    cup = ["ger-i-gd", F_REPLAY, "fra-i-205-ri", "ger-ii-gd", *F_FILLERS]
    s = stonne(cup, draw_values(sorted(cup), ["ger-i-gd", F_REPLAY, "fra-i-205-ri", "ger-ii-gd"]))
    s.apply("decline")
    assert bk.data(s.state).pass_owner == "german"
    s.apply("keep")  # holding a Replay is no pass
    assert bk.data(s.state).pass_owner is None
    s.apply("decline")
    assert (s.state.turn, bk.data(s.state).pass_owner) == (1, "french")


def test_ac30_2_6_last_chit_carried_over() -> None:
    cup = ["ger-i-gd", "fra-i-205-ri"]
    s = stonne(cup, draw_values(sorted(cup), ["ger-i-gd"]))
    s.apply("activate")
    events = s.apply("end")  # the last chit is drawn (no die), set aside, and the phase ends
    texts = event_texts(events)
    assert any("last chit, I/205 RI, is set aside" in t for t in texts)
    assert not any(e.kind == "roll" and "draw" in e.text for e in events)
    assert fm(s, "fra-i-205-ri").acts == 0
    assert s.state.turn == 2
    assert "fra-i-205-ri" not in bk.data(s.state).cup and bk.data(s.state).carried is None
    chit_frame(s, "fra-i-205-ri")  # resolved first next turn, before any draw
    assert s.to_act == "french"
    refusal(s, "barrage", "2.9")


def test_ac31_2_8_hannut_turn1_kept_chits() -> None:
    sc = scenario("hannut")
    st, _ = prepared_state("hannut", turn1_kept=False)
    full_cup: list[str] = bk.data(st).cup
    kept = ["ger-stuka-1-1", "ger-artillery-1-1", "ger-i-5-pzr"]
    cup1 = [c for c in full_cup if c not in kept]
    dice = draw_values(cup1, ["ger-ii-5-pzr", "fra-1-kur"])
    game = skip_setup(engine.new_game(sc, dice=ScriptedDice(dice)))
    assert game.to_act == "german"
    assert all(str(a).startswith("keep ger-") for a in game.legal_actions())
    game.apply("keep ger-i-5-pzr")
    skip_setup(game)  # 12.1 step 3: the 1. Kürassiere sets up after the German
    assert sorted(bk.data(game.state).cup) == sorted(cup1)
    assert set(full_cup) - set(bk.data(game.state).cup) == set(kept)
    assert sorted(str(a) for a in game.legal_actions()) == sorted(f"first {c}" for c in kept)
    refusal(game, "first ger-ii-5-pzr", "2.8")
    # Three separate activations in the German's order; declining them is no pass (2.7).
    game.apply("first ger-artillery-1-1")
    assert [str(a) for a in game.legal_actions()] == ["barrage", "decline"]
    game.apply("decline")
    game.apply("first ger-i-5-pzr")
    game.apply("activate")
    game.apply("end")
    assert bk.data(game.state).formations["ger-i-5-pzr"].acts == 1
    assert [str(a) for a in game.legal_actions()] == ["first ger-stuka-1-1"]
    game.apply("first ger-stuka-1-1")
    events = game.apply("decline")  # then the first draw from the cup
    assert bk.data(game.state).pass_owner is None
    assert any(e.kind == "roll" and "draw" in e.text for e in events)
    assert bk.data(game.state).frames[-1].chit == "ger-ii-5-pzr"
    game.apply("decline")
    assert bk.data(game.state).pass_owner == "german"
    game.apply("decline")  # French pass after the German pass: turn 1 ends
    assert game.state.turn == 2
    assert set(kept) <= set(bk.data(game.state).cup)
    german = {c for c in full_cup if c.startswith("ger-")}
    assert german <= set(bk.data(game.state).cup)


def test_ac32_2_1_administration_markers() -> None:
    def edit(st: GameState) -> None:
        update(bk.status(st.units["ger-igd-gdi-1"]), opp_used=True, neutralised=True)
        update(bk.status(st.units["fra-i205ri-fin-1"]), opp_used=True)
        update(bk.status(st.units["fra-ii205ri-fin-1"]), neutralised=True)
        recs = bk.data(st).formations
        update(recs["ger-ii-gd"], acts=2, normal_used=True, replay_used=True, exhausted=True)
        update(recs["ger-stug-640"], acts=1, replay_used=True)
        update(recs["fra-i-205-ri"], skipped=True, normal_used=True)

    cup = ["ger-i-gd", "fra-iii-205-ri", "fra-ii-205-ri"]
    s = stonne(cup, draw_values(sorted(cup), ["ger-i-gd", "fra-iii-205-ri"]), edit)
    s.play("decline", "decline")
    assert s.state.turn == 2
    chit_frame(s, "fra-iii-205-ri")  # the carried chit comes first
    units = s.state.units
    assert not any(bk.status(u).opp_used for u in units.values())
    assert bk.status(units["ger-igd-gdi-1"]).neutralised and bk.status(units["fra-ii205ri-fin-1"]).neutralised
    for fid, rec in bk.data(s.state).formations.items():
        flags = (rec.acts, rec.normal_used, rec.replay_used, rec.skipped)
        assert flags == (0, False, False, False), fid  # every HQ front side up
    assert fm(s, "ger-ii-gd").exhausted
    assert all(pl(s, side).activated == [] == pl(s, side).skipped for side in ("german", "french"))
    assert any("administration phase (rule 2.1)" in t for t in event_texts(s.events))
    # The Exhaustion marker still binds: II/GD's chit gives test or skip, not a plain activation.
    s.script(*s.draw("ger-ii-gd")).apply("decline")
    chit_frame(s, "ger-ii-gd")
    assert s.legal() == ["test", "skip"]
    refusal(s, "activate", "5.4")


def test_2_1_recovery_failure_off_the_map_takes_the_chit_out_of_the_cup() -> None:
    # 2.1 step 5, 8.5.1: a failed recovery test in the administration phase (after the cup is rebuilt) sends the
    # formation off its own edge; when its last unit has left the map its chit is removed from the cup.
    def edit(st: GameState) -> None:
        bk.data(st).formations["fra-iii-205-ri"].demoralised = True
        for u in st.units.values():
            if u.formation == "fra-iii-205-ri" and u.hex is not None:
                place(st, u.id, "1309" if u.id.endswith("-hq") else "1308")  # column 13: the French edge

    cup = ["ger-i-gd", "fra-i-205-ri", "fra-ii-205-ri"]
    s = stonne(cup, draw_values(sorted(cup), ["ger-i-gd", "fra-i-205-ri"]), edit)
    s.apply("decline")
    events = s.script(6, 6).apply("decline")  # two passes end turn 1; recovery 12 > 7 − 3 fails
    texts = event_texts(events)
    assert any("The cup holds 19 chits" in t for t in texts)
    assert any("III/205 RI has left the map: its chit is removed (rule 8.5.1)" in t for t in texts)
    assert s.state.turn == 2
    assert "fra-iii-205-ri" in bk.data(s.state).removed_chits
    assert "fra-iii-205-ri" not in bk.data(s.state).cup and len(bk.data(s.state).cup) == 18


# --- 14.9 Sequence of play ----------------------------------------------------------------------------------


def test_ac76_2_7_general_hold_combine_or_lapse() -> None:
    def edit(st: GameState) -> None:
        update(bk.data(st).players["french"], general=F_GENERAL, general_free=True)

    cup = ["fra-i-205-ri", F_ARTILLERY, F_REPLAY, "ger-i-gd", "ger-ii-gd"]
    to_art = draw_values(sorted(cup), ["fra-i-205-ri", F_ARTILLERY])

    s = stonne(cup, to_art, edit)
    chit_frame(s, "fra-i-205-ri")
    assert "hold" in s.legal()
    s.apply("hold")
    assert pl(s, "french").held == "fra-i-205-ri" and bk.data(s.state).pass_owner == "french"
    chit_frame(s, F_ARTILLERY)
    assert s.legal() == ["combine", "lapse"]
    refusal(s, "barrage", "5.5")
    s.apply("combine")
    act = activation_of(s)
    assert (act.formations, act.art) == (["fra-i-205-ri"], F_ARTILLERY)
    assert act.salvos == ["heavy", "medium", "light", "light", "light"]
    assert pl(s, "french").general is None and pl(s, "french").held is None
    assert pl(s, "french").activated == ["fra-i-205-ri", F_ARTILLERY]
    s.script(1).apply("end")
    assert fm(s, "fra-i-205-ri").acts == 1

    s = stonne(cup, to_art, edit)
    s.apply("hold")
    s.apply("lapse")
    assert fm(s, "fra-i-205-ri").skipped and pl(s, "french").skipped == ["fra-i-205-ri"]
    assert pl(s, "french").general is None and pl(s, "french").held is None
    chit_frame(s, F_ARTILLERY)
    assert s.legal() == ["barrage", "decline"]  # resolved on its own

    # A Replay or a General in between: the held chit keeps waiting.
    s = stonne(cup, draw_values(sorted(cup), ["fra-i-205-ri", F_REPLAY]), edit)
    s.apply("hold")
    chit_frame(s, F_REPLAY)
    assert "combine" not in s.legal() and "keep" in s.legal()
    s.script(*s.draw(F_ARTILLERY)).apply("keep")
    assert pl(s, "french").held == "fra-i-205-ri"
    chit_frame(s, F_ARTILLERY)
    assert s.legal() == ["combine", "lapse"]


def test_ac77_2_7_committed_general_cannot_cancel() -> None:
    def edit(st: GameState) -> None:
        update(bk.data(st).players["german"], general=G_GENERAL_1, general_free=False, held="ger-iii-gd")

    cup = [F_ARTILLERY, "ger-i-gd", "fra-i-205-ri"]
    s = stonne(cup, draw_values(sorted(cup), [F_ARTILLERY]), edit)
    assert not any(f.kind == "cancel" for f in s.frames)
    chit_frame(s, F_ARTILLERY)
    assert s.to_act == "french" and s.legal() == ["barrage", "decline"]
    text = refusal(s, "cancel", "5.5")
    assert "committed" in text
    assert pl(s, "german").general == G_GENERAL_1 and pl(s, "german").held == "ger-iii-gd"


def test_ac80_2_10_withdrawn_carried_chit() -> None:
    def edit(st: GameState) -> None:
        st.turn = 3

    cup = ["ger-i-gd", "ger-ii-pzr"]
    s = stonne(cup, draw_values(sorted(cup), ["ger-i-gd"]), edit)
    s.script(1)  # turn 4 starts with a draw
    events = s.apply("decline")  # II/PZ.R's chit is the last one drawn: set aside, then it leaves play
    texts = event_texts(events)
    assert any("set aside" in t and "II/PZ.R" in t for t in texts)
    assert any("II/PZ.R leaves play at the end of turn 3" in t for t in texts)
    assert s.state.turn == 4
    assert "ger-ii-pzr" in bk.data(s.state).removed_chits and fm(s, "ger-ii-pzr").removed
    assert "ger-ii-pzr" not in bk.data(s.state).cup and bk.data(s.state).carried is None
    assert all(u.hex is None for u in s.state.units.values() if u.formation == "ger-ii-pzr")
    # 12.2 [P]: turn 4 brings the 67 RI AT gun, which the French assigns before the first draw.
    assert top(s).kind == "arrival_assign" and s.to_act == "french"
    events += s.apply("assign fra-67ri-at47 fra-i-67-ri")
    texts = event_texts(events)
    draws = [e for e in events if e.kind == "roll" and "draw" in e.text]
    assert draws and texts.index(draws[-1].text) > texts.index(next(t for t in texts if "leaves play" in t))
    assert top(s).kind in ("chit", "cancel") and top(s).chit != "ger-ii-pzr"


# --- Refusals, notation, one decision at a time ---------------------------------------------------------------


def test_cancel_window_of_a_held_replay_comes_before_its_effects() -> None:
    # 2.7: a held Replay passes the opponent's cancel window when played, before any effect or die roll.
    def edit(st: GameState) -> None:
        update(bk.data(st).players["german"], replays=[G_REPLAY_1])
        update(bk.data(st).players["french"], general=F_GENERAL, general_free=True)
        bk.status(st.units["ger-igd-gdi-1"]).neutralised = True

    cup = ["ger-ii-gd", *F_FILLERS]
    s = stonne(cup, draw_values(sorted(cup), ["ger-ii-gd"]), edit)
    s.apply("nocancel")
    s.apply("replay ger-i-gd")  # right before the drawn formation's activation
    f = top(s)
    assert (f.kind, f.side, f.chit) == ("cancel", "french", G_REPLAY_1)
    assert not fm(s, "ger-i-gd").replay_used
    assert not any(e.kind == "roll" and "rally" in e.text for e in s.events)
    s.script(2).apply("cancel")
    assert not fm(s, "ger-i-gd").replay_used and fm(s, "ger-i-gd").acts == 0
    assert bk.status(s.state.units["ger-igd-gdi-1"]).neutralised
    assert not any(f.kind == "activation" for f in s.frames)
    assert pl(s, "german").replays == [] and G_REPLAY_1 in pl(s, "german").skipped
    chit_frame(s, "ger-ii-gd")  # the drawn chit is still to be resolved
    assert s.legal() == ["activate", "decline"]

    s = stonne(cup, draw_values(sorted(cup), ["ger-ii-gd"]), edit)
    s.apply("nocancel")
    s.apply("replay ger-i-gd")
    s.script(1, 1).apply("nocancel")  # the Replay takes effect: rally roll, then the activation
    assert fm(s, "ger-i-gd").replay_used
    assert activation_of(s).formations == ["ger-i-gd"]


def test_drawn_replay_passes_one_cancel_window_only() -> None:
    def edit(st: GameState) -> None:
        update(bk.data(st).players["french"], general=F_GENERAL, general_free=True)

    cup = [G_REPLAY_1, *F_FILLERS]
    s = stonne(cup, draw_values(sorted(cup), [G_REPLAY_1]), edit)
    s.apply("nocancel")
    s.apply("replay ger-i-gd")
    assert activation_of(s).formations == ["ger-i-gd"]
    assert pl(s, "french").general == F_GENERAL


@pytest.mark.parametrize(("scenario_id", "seed"), [("stonne", 1), ("hannut", 2), ("stonne", 3)])
def test_notation_round_trips_in_random_positions(scenario_id: str, seed: int) -> None:
    """Seeded random playouts (a new game whenever one ends) until 120 positions were checked: at each, every legal
    action satisfies parse(describe(a)) == a and the side to act is the side of the top frame (one decision at a
    time)."""
    rng = random.Random(seed)
    seen = 0
    for game_seed in range(seed, seed + 20):
        game = skip_setup(engine.new_game(scenario(scenario_id), dice=Dice(game_seed)))
        while game.to_act is not None and seen < 120:
            legal = game.legal_actions()
            assert legal, "a side is to act but has no legal action"
            assert game.to_act == bk.data(game.state).frames[-1].side
            for a in legal:
                text = game.describe(a)
                assert game.parse(text) == a, text
            seen += 1
            ends = [a for a in legal if a.verb in ("end", "close", "stop", "decline", "nocancel", "keep", "done")]
            game.apply(rng.choice(ends) if ends and rng.random() < 0.35 else rng.choice(legal))
        if seen >= 120:
            break
    assert seen >= 120


def test_barrage_count_notation_round_trips() -> None:
    def edit(st: GameState) -> None:
        park_units(st, ["ger-i5pzr-hq", "fra-ii11rdp-drg-1"])
        place(st, "ger-i5pzr-hq", "0510", exited=None)
        place(st, "fra-ii11rdp-drg-1", "0512", exited=None)
        bk.data(st).cup = [G_ARTILLERY, F_GENERAL, G_GENERAL_1]

    cup = sorted([G_ARTILLERY, F_GENERAL, G_GENERAL_1])
    s = situation("hannut", draw_values(cup, [G_ARTILLERY]), edit, turn1_kept=False)
    s.apply("barrage")
    legal = s.legal_actions()
    counted = [a for a in legal if a.verb in ("salvo", "stuka") and a.args[-1].isdigit() and len(a.args[-1]) < 4]
    assert counted  # e.g. salvo 0512 medium ger-i5pzr-hq 2
    for a in legal:
        assert s.parse(s.describe(a)) == a
