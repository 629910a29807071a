"""Blitzkrieg 1940 digest section 6.3 and 6.4 (reactions of passive units: opportunity fire, return fire, retreat,
the reaction windows of 6.3.4, the reaction test) and 8.5.1 (demoralisation during an activation): acceptance
cases AC-36 … AC-39, AC-79 and AC-82, played through the ruleset's decisions.

Every fight is set up on the Hannut map (digest 13.9) in the open ground of columns 04–06, rows 10–15 (level 0, no
road): only the units named are on the map (:func:`~tests.rulesets.blitzkrieg1940.helpers.skirmish`). Reaction
values (13.5): German infantry and tanks 8, French infantry 7, French tanks 6; an adjacent trigger gives −1.
Dice are scripted; a roll of 2 is "no effect" on every CRT column (13.1).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine
from engine.dice import Dice
from engine.rulesets.blitzkrieg1940 import model as bk
from engine.state import GameState

from .helpers import Situation, event_texts, refusal, skirmish

REACTION_VERBS = {"opp", "retfire", "retreat", "close"}

# Hannut units used below.
SCH, SCH_HQ = "ger-i12schr-sch-2", "ger-i12schr-hq"  # German Schützen (reaction 8), I/12 SchR (FF 9)
PZ4, PZ3, PZ_HQ = "ger-i5pzr-pz4", "ger-i5pzr-pz3", "ger-i5pzr-hq"  # I/5 PzR: PZ4 (7/5, range 3), PZ3 (6/5, range 3)
H39, S35, KUR_HQ = "fra-1kur-h39-1", "fra-1kur-s35-1", "fra-1kur-hq"  # 1. Kürassiere (French tanks, reaction 6)
DRG, FMG, RDP_HQ = "fra-ii11rdp-drg-1", "fra-ii11rdp-fmg", "fra-ii11rdp-hq"  # II/11 RDP (infantry 7; FMG range 3)


def top(s: Situation) -> Any:
    f = s.frame
    assert f is not None
    return f


def window(s: Situation, trigger: str) -> Any:
    """Assert that the passive side is asked in a reaction window opened by ``trigger``."""
    w = top(s)
    assert (w.kind, w.trigger) == ("window", trigger), w
    assert s.to_act == w.side
    legal = s.legal()
    assert "close" in legal and {a.split()[0] for a in legal} <= REACTION_VERBS
    return w


def status(s: Situation, uid: str) -> Any:
    st: dict[str, Any] = s.state.units[uid].status
    return st


def rolls(events: list[Any]) -> list[str]:
    return [e.text for e in events if e.kind == "roll"]


# --- 6.3.1 Opportunity fire ----------------------------------------------------------------------------------


def _opp_fight(edit: Any = None) -> Situation:
    """French H39 activated at 0514; German Schützen at 0511. The H39 moves to 0513, 2 hexes from them."""
    s = skirmish("fra-1-kur", {H39: "0514", KUR_HQ: "0515", SCH: "0511", SCH_HQ: "0510"}, edit=edit)
    s.apply(f"move {H39} 0513")
    return s


def test_ac36_6_3_1_opportunity_fire_reaction_test() -> None:
    s = _opp_fight()
    w = window(s, "move")
    assert (w.side, w.active) == ("german", H39)
    assert f"opp {SCH} {H39}" in s.legal()
    events = s.script(4, 4, 1, 1).apply(f"opp {SCH} {H39}")  # 8 ≤ 8: it fires
    texts = event_texts(events)
    assert any("rolled 4+4 = 8, needs 8" in t for t in texts) and any("opportunity-fires" in t for t in texts)
    assert status(s, SCH).opp_used

    s = _opp_fight()
    events = s.script(4, 5).apply(f"opp {SCH} {H39}")  # 9 > 8: it does not fire
    assert len(rolls(events)) == 1 and not any("opportunity-fires" in t for t in event_texts(events))
    assert status(s, SCH).opp_used

    def exhausted(st: GameState) -> None:
        bk.data(st).formations["ger-i-12-schr"].exhausted = True

    s = _opp_fight(exhausted)
    events = s.script(4, 4).apply(f"opp {SCH} {H39}")  # 8 + 1 = 9 > 8: fails
    assert any("+1 (formation exhausted (rule 5.4)) = 9" in t for t in rolls(events))
    assert not any("opportunity-fires" in t for t in event_texts(events))
    assert status(s, SCH).opp_used

    # A unit already carrying an OPP-used marker may not try.
    s = skirmish("fra-1-kur", {H39: "0514", KUR_HQ: "0515", SCH: "0511", SCH_HQ: "0510"}, status={SCH: {"opp_used": 1}})
    s.apply(f"move {H39} 0513")
    w = window(s, "move")
    assert not any(a.startswith("opp ") for a in s.legal())
    with pytest.raises(engine.IllegalActionError):
        s.apply(f"opp {SCH} {H39}")


def test_ac36_6_3_1_opp_used_marker_goes_when_own_formation_activates() -> None:
    # 2.5 step 5 [I]: the OPP-used markers of the activated formation's own units are removed.
    s = skirmish("ger-i-12-schr", {SCH: "0511", SCH_HQ: "0510", H39: "0514"}, status={SCH: {"opp_used": True}})
    assert not status(s, SCH).opp_used


# --- 6.3.1.1 Opportunity-fire modifiers -------------------------------------------------------------------------


@pytest.mark.parametrize("why", ["neutralised", "demoralised"])
def test_ac37_6_3_1_1_limited_opportunity_fire_range(why: str) -> None:
    def edit(st: GameState) -> None:
        if why == "neutralised":
            bk.status(st.units[FMG]).neutralised = True
        else:
            bk.data(st).formations["fra-ii-11-rdp"].demoralised = True

    place = {PZ4: "0509", PZ_HQ: "0508", FMG: "0512", RDP_HQ: "0513"}
    s = skirmish("ger-i-5-pzr", place, edit=edit)
    s.apply(f"move {PZ4} 0510")  # distance 2 from the FMG (range 3)
    assert not any(a.startswith(f"opp {FMG}") for a in s.legal())
    s.apply("close")
    s.apply(f"move {PZ4} 0511")  # adjacent
    window(s, "move")
    assert f"opp {FMG} {PZ4}" in s.legal()

    # Control: a sound FMG opportunity-fires at distance 2.
    s = skirmish("ger-i-5-pzr", place)
    s.apply(f"move {PZ4} 0510")
    assert f"opp {FMG} {PZ4}" in s.legal()


def test_ac37_6_3_1_1_no_opportunity_fire_into_a_close_combat() -> None:
    s = skirmish("ger-i-5-pzr", {PZ4: "0511", PZ_HQ: "0510", DRG: "0512", RDP_HQ: "0513", FMG: "0613"})
    assault = f"assault {PZ4} 0512"
    if assault not in s.legal():
        pytest.skip("close combat (9.1) is not offered yet")
    s.state.dice = Dice(5)
    try:
        s.apply(assault)
    except engine.IllegalActionError as err:
        pytest.skip(f"close combat (9.1) is not implemented yet: {err}")
    assert any(f.kind == "cc" for f in s.frames)
    for _ in range(60):
        if not any(f.kind == "cc" for f in s.frames) or s.to_act is None:
            break
        assert not any(f.kind == "window" for f in s.frames)
        legal = s.legal()
        assert not any(a.startswith("opp ") for a in legal), legal
        s.apply(legal[0])
    else:
        pytest.fail("the close combat did not end")


# --- 6.3.2 Return fire --------------------------------------------------------------------------------------


def _return_fight() -> Situation:
    """German PZ4 (0511) and PZ3 (0512) activated; the French H39 at 0514 is at distance 3 and 2."""
    return skirmish("ger-i-5-pzr", {PZ4: "0511", PZ3: "0512", PZ_HQ: "0510", H39: "0514", KUR_HQ: "0515"})


def test_ac38_6_3_2_return_fire_once() -> None:
    # Attempted after the first shot and failed: no attempt after the second.
    s = _return_fight()
    s.script(1, 1).apply(f"fire {PZ4} {H39}")
    w = window(s, "fire")
    assert (w.side, w.fired_at) == ("french", H39)
    assert f"retfire {H39} {PZ4}" in s.legal()
    events = s.script(4, 4).apply(f"retfire {H39} {PZ4}")  # 8 > 6: fails
    assert any("fails its reaction test" in t for t in event_texts(events))
    assert status(s, H39).returned and not status(s, H39).opp_used
    assert top(s).kind == "activation"  # nothing else to react with: the window closed
    s.script(1, 1).apply(f"fire {PZ3} {H39}")
    window(s, "fire")
    assert not any(a.startswith("retfire") for a in s.legal())
    assert not status(s, H39).opp_used

    # Not attempted after the first shot: it may attempt after the second.
    s = _return_fight()
    s.script(1, 1).apply(f"fire {PZ4} {H39}")
    s.apply("close")
    assert not status(s, H39).returned
    s.script(1, 1).apply(f"fire {PZ3} {H39}")
    window(s, "fire")
    assert f"retfire {H39} {PZ3}" in s.legal()
    events = s.script(2, 2, 1, 1).apply(f"retfire {H39} {PZ3}")
    assert any("returns fire at" in t for t in event_texts(events))
    assert status(s, H39).returned and not status(s, H39).opp_used


def test_ac38_6_3_2_return_fire_allowance_is_per_enemy_activation() -> None:
    def replay_in_hand(st: GameState) -> None:
        bk.data(st).players["german"].replays = ["ger-replay-1-1"]

    units = {PZ4: "0511", PZ3: "0512", PZ_HQ: "0510", H39: "0514", KUR_HQ: "0515"}
    s = skirmish("ger-i-5-pzr", units, edit=replay_in_hand)
    s.script(1, 1).apply(f"fire {PZ4} {H39}")
    s.script(4, 4).apply(f"retfire {H39} {PZ4}")
    s.apply("end")
    assert status(s, H39).returned
    s.apply("replay ger-i-5-pzr")  # the next German activation: a new allowance
    assert not status(s, H39).returned
    s.script(1, 1).apply(f"fire {PZ4} {H39}")
    assert f"retfire {H39} {PZ4}" in s.legal()


# --- 6.4 Retreat and the reaction test --------------------------------------------------------------------------


def _retreat_fight(neutralised: bool) -> Situation:
    """German PZ4 (0511) activated; the French infantry at 0513 (distance 2), neutralised or not."""
    return skirmish(
        "ger-i-5-pzr",
        {PZ4: "0511", PZ_HQ: "0510", DRG: "0513", RDP_HQ: "0514"},
        status={DRG: {"neutralised": True}} if neutralised else None,
    )


def test_ac39_6_4_neutralised_retreat_needs_test() -> None:
    s = _retreat_fight(neutralised=False)
    s.script(1, 1).apply(f"fire {PZ4} {DRG}")
    window(s, "fire")
    retreats = [a for a in s.legal() if a.startswith(f"retreat {DRG} ")]
    assert retreats
    events = s.apply(f"retreat {DRG} 0613")  # no test: no die at all
    assert rolls(events) == []
    assert s.state.board.label(s.state.units[DRG].hex) == "0613" and status(s, DRG).retreated
    assert any("retreats to 0613 (rule 6.3.3)" in t for t in event_texts(events))

    s = _retreat_fight(neutralised=True)
    s.script(1, 1).apply(f"fire {PZ4} {DRG}")
    window(s, "fire")
    events = s.script(4, 3).apply(f"retreat {DRG} 0613")  # 7 + 1 (neutralised) = 8 > 7: stays
    assert any("+1 (neutralised (13.5)) = 8, needs 7" in t for t in rolls(events))
    assert s.state.board.label(s.state.units[DRG].hex) == "0513" and not status(s, DRG).retreated

    s = _retreat_fight(neutralised=True)
    s.script(1, 1).apply(f"fire {PZ4} {DRG}")
    events = s.script(3, 3).apply(f"retreat {DRG} 0613")  # 6 + 1 = 7 ≤ 7: retreats
    assert len(rolls(events)) == 1
    assert s.state.board.label(s.state.units[DRG].hex) == "0613" and status(s, DRG).retreated


# --- 8.5.1 Demoralised during its own activation --------------------------------------------------------------


def _demoralising_fight() -> Situation:
    def edit(st: GameState) -> None:
        bk.data(st).formations["ger-i-35-pzr"].steps_lost = 3  # 3 of 8: the 4th loss tests (8.5)

    units = {
        "ger-i35pzr-pz4": "0511",
        "ger-i35pzr-pz2": "0510",
        "ger-i35pzr-hq": "0510",
        S35: "0513",
        KUR_HQ: "0514",
    }
    return skirmish("ger-i-35-pzr", units, edit=edit)


def test_ac79_8_5_1_demoralised_mid_activation() -> None:
    s = _demoralising_fight()
    s.apply("move ger-i35pzr-pz4 0512")
    window(s, "move")
    # 2+2 − 1 (adjacent) ≤ 6: fires; 12 on column 5 → step loss (4 of 8); demoralisation roll 10 > FF 9.
    events = s.script(2, 2, 6, 6, 5, 5).apply(f"opp {S35} ger-i35pzr-pz4")
    texts = event_texts(events)
    assert any("4 of 8 steps lost" in t and "rolled 5+5 = 10" in t for t in texts)
    assert bk.data(s.state).formations["ger-i-35-pzr"].demoralised
    s.apply("close")
    # The tank that was moving finishes its action; nobody else acts.
    assert s.to_act == "german" and top(s).kind == "activation"
    legal = s.legal()
    assert legal and all(a.split()[1] == "ger-i35pzr-pz4" for a in legal) and "end" not in legal
    refusal(s, "move ger-i35pzr-pz2 0610", "6.1")
    s.apply("move ger-i35pzr-pz4 0612")
    if top(s).kind == "window":
        s.apply("close")
    events = s.script(1).apply("stop ger-i35pzr-pz4")
    assert any("activation ends (rule 8.5.1)" in t for t in event_texts(events))
    assert not any(f.kind == "activation" for f in s.frames)
    rec = bk.data(s.state).formations["ger-i-35-pzr"]
    assert (rec.acts, rec.demoralised, rec.exhausted) == (1, True, False)


def test_ac79_8_5_1_demoralised_by_return_fire_after_a_shot() -> None:
    s = _demoralising_fight()
    s.script(1, 1).apply(f"fire ger-i35pzr-pz4 {S35}")  # distance 2: no effect
    window(s, "fire")
    # 2+2 ≤ 6: returns fire; 12 on column 4 → step loss (4 of 8); demoralisation roll 10 > FF 9.
    s.script(2, 2, 6, 6, 5, 5, 1).apply(f"retfire {S35} ger-i35pzr-pz4")
    assert bk.data(s.state).formations["ger-i-35-pzr"].demoralised
    assert not any(f.kind == "activation" for f in s.frames), s.legal()  # PZ2 and the HQ may not act now
    assert bk.data(s.state).formations["ger-i-35-pzr"].acts == 1


# --- 6.3.4 Reaction windows ---------------------------------------------------------------------------------------


def _window_fight() -> Situation:
    """German PZ4 at 0515 on a move-and-fire action; French infantry at 0512, its HQ at 0511."""
    s = skirmish("ger-i-5-pzr", {PZ4: "0515", PZ_HQ: "0516", DRG: "0512", RDP_HQ: "0511"})
    s.apply(f"mf {PZ4} 0514")  # distance 2: a movement window (LOS to the moving enemy)
    s.apply("close")
    s.apply(f"move {PZ4} 0513")  # on with the same move-and-fire action, adjacent
    return s


def test_ac82_6_3_4_one_reaction_per_window() -> None:
    s = _window_fight()
    w = window(s, "move")
    legal = s.legal()
    assert f"opp {DRG} {PZ4}" in legal and any(a.startswith(f"retreat {DRG} ") for a in legal)
    s.script(2, 2, 1, 1).apply(f"opp {DRG} {PZ4}")  # 4 − 1 ≤ 7: fires, 2: no effect
    assert status(s, DRG).opp_used
    w = window(s, "move")
    assert DRG in w.reacted
    assert not any(a.startswith(f"retreat {DRG} ") or a.startswith(f"opp {DRG}") for a in s.legal())
    s.apply("close")
    # The tank fires (reduced, move-and-fire): the fire window lets the company return fire despite its marker.
    s.script(1, 1).apply(f"fire {PZ4} {DRG}")
    window(s, "fire")
    assert f"retfire {DRG} {PZ4}" in s.legal()
    assert not any(a.startswith(f"opp {DRG}") for a in s.legal())  # OPP-used: no second opportunity fire
    events = s.script(2, 2, 1, 1).apply(f"retfire {DRG} {PZ4}")
    assert any("returns fire at" in t for t in event_texts(events))
    assert status(s, DRG).returned

    # Retreat instead: then no opportunity fire in that window.
    s = _window_fight()
    s.apply(f"retreat {DRG} 0411")
    assert s.state.board.label(s.state.units[DRG].hex) == "0411"
    w = window(s, "move")  # the HQ may still retreat; the company may do nothing more here
    assert DRG in w.reacted and not any(a.split()[1] == DRG for a in s.legal() if a != "close")


@pytest.mark.parametrize(
    "case", ["opp_used", "neutralised_range", "retreat_hex", "second_return_fire", "second_reaction"]
)
def test_6_3_refused_reactions_name_the_rule(case: str) -> None:
    if case == "opp_used":
        s = skirmish(
            "fra-1-kur", {H39: "0514", KUR_HQ: "0515", SCH: "0511", SCH_HQ: "0510"}, status={SCH: {"opp_used": 1}}
        )
        s.apply(f"move {H39} 0513")
        refusal(s, f"opp {SCH} {H39}", "6.3.1")
    elif case == "neutralised_range":
        place = {PZ4: "0509", PZ_HQ: "0508", FMG: "0512", RDP_HQ: "0513"}
        s = skirmish("ger-i-5-pzr", place, status={FMG: {"neutralised": True}})
        s.apply(f"move {PZ4} 0510")
        refusal(s, f"opp {FMG} {PZ4}", "6.3.1.1", "4.2")
    elif case == "retreat_hex":
        s = _retreat_fight(neutralised=False)
        s.script(1, 1).apply(f"fire {PZ4} {DRG}")
        refusal(s, f"retreat {DRG} 0713", "6.3.3")  # not adjacent
    elif case == "second_return_fire":
        s = _return_fight()
        s.script(1, 1).apply(f"fire {PZ4} {H39}")
        s.script(4, 4).apply(f"retfire {H39} {PZ4}")
        s.script(1, 1).apply(f"fire {PZ3} {H39}")
        refusal(s, f"retfire {H39} {PZ3}", "6.3.2")
    else:
        s = _window_fight()
        s.script(2, 2, 1, 1).apply(f"opp {DRG} {PZ4}")
        refusal(s, f"retreat {DRG} 0411", "6.3.4")


def test_6_3_4_active_side_is_refused_in_a_window() -> None:
    s = _window_fight()
    window(s, "move")
    refusal(s, f"mf {PZ4} 0613", "6.3.4")


# --- Properties: 'close' always there, one decision at a time, notation round trip ------------------------------


@pytest.mark.parametrize("seed", [11, 12, 13, 14])
def test_windows_offer_close_and_ask_one_decision_at_a_time(seed: int) -> None:
    units = {
        PZ4: "0509",
        PZ3: "0510",
        "ger-i5pzr-pz2": "0609",
        PZ_HQ: "0508",
        DRG: "0512",
        FMG: "0612",
        "fra-ii11rdp-drg-2": "0513",
        RDP_HQ: "0513",
        H39: "0413",
    }
    s = skirmish("ger-i-5-pzr", units)
    s.state.dice = Dice(seed)
    rng = random.Random(seed)
    windows = 0
    for _ in range(150):
        if s.to_act is None:
            break
        f = top(s)
        legal = s.legal_actions()
        assert legal
        assert s.to_act == f.side  # the side of the top frame decides, and only one decision is open
        notations = [s.describe(a) for a in legal]
        assert all(s.parse(n) == a for n, a in zip(notations, legal, strict=True))
        if f.kind == "window":
            windows += 1
            act = next(x for x in reversed(s.frames) if x.kind == "activation")
            assert f.side != act.side  # the passive side reacts; the active side never does
            assert "close" in notations
            assert {n.split()[0] for n in notations} <= REACTION_VERBS
            reacted = set(f.reacted)
            assert not any(n.split()[0] != "close" and n.split()[1] in reacted for n in notations)
        ends = [a for a in legal if a.verb == "end"]
        s.apply(ends[0] if ends and rng.random() < 0.03 else rng.choice(legal))
    assert windows >= 3


# --- 7.1 Moving a stack ------------------------------------------------------------------------------------------


def test_7_1_a_stack_moves_together_each_paying_its_own_cost() -> None:
    """7.1 [P]: two or three units of one hex move hex by hex together; one reaction window per hex, in which
    opportunity fire may take any unit of the stack; a unit can be dropped off with ``stop``."""
    s = skirmish("ger-i-5-pzr", {PZ4: "0509", PZ3: "0509", PZ_HQ: "0508", DRG: "0512", RDP_HQ: "0513"})
    legal = s.legal()
    assert f"stack {PZ3} {PZ4} 0510" in legal
    s.apply(f"stack {PZ3} {PZ4} 0510")
    st = s.state
    assert st.units[PZ3].hex == st.units[PZ4].hex == st.board.parse("0510")
    for uid in (PZ3, PZ4):
        m = bk.status(st.units[uid]).moving
        assert (m.moved, m.stack) == (1, [PZ3, PZ4]) and m.spent > 0
    # One window for the stack; the dragoons may fire at either tank.
    w = window(s, "move")
    assert w.group == [PZ3, PZ4] and w.hexes == ["0510"]
    opp = {a for a in s.legal() if a.startswith("opp ")}
    assert opp == {f"opp {DRG} {PZ3}", f"opp {DRG} {PZ4}"}
    s.apply("close")
    # Still moving together: the next steps are stack steps and each unit may be dropped off.
    legal = s.legal()
    assert any(a.startswith(f"stack {PZ3} {PZ4} ") for a in legal)
    assert f"stop {PZ3}" in legal and f"stop {PZ4}" in legal
    assert not any(a.startswith(f"move {PZ3}") for a in legal)
    with pytest.raises(engine.IllegalActionError):
        s.apply(f"move {PZ3} 0511")
    s.apply(f"stop {PZ3}")
    assert bk.status(s.state.units[PZ3]).acted
    # The other tank goes on alone with ordinary moves.
    legal = s.legal()
    assert any(a.startswith(f"move {PZ4} ") for a in legal) and not any(a.startswith("stack ") for a in legal)


def test_7_1_a_stack_needs_a_hex_every_unit_may_enter() -> None:
    """7.1 [P]: the stack continues only while every unit in it can pay: no stack step where one unit may not go."""
    s = skirmish("ger-i-5-pzr", {PZ4: "0509", PZ3: "0509", PZ_HQ: "0508", DRG: "0512", RDP_HQ: "0513"})
    stack_hexes = {a.split()[-1] for a in s.legal() if a.startswith(f"stack {PZ3} {PZ4} ")}
    pz3 = {a.split()[-1] for a in s.legal() if a.startswith(f"move {PZ3} ")}
    pz4 = {a.split()[-1] for a in s.legal() if a.startswith(f"move {PZ4} ")}
    assert stack_hexes and stack_hexes <= pz3 & pz4
    assert "stack" in engine.get_ruleset("blitzkrieg1940").verbs


def test_7_1_stack_refusals_say_why() -> None:
    s = skirmish("ger-i-5-pzr", {PZ4: "0509", PZ3: "0508", PZ_HQ: "0507", DRG: "0512", RDP_HQ: "0513"})
    text = refusal(s, f"stack {PZ3} {PZ4} 0510", "7.1")
    assert "same hex" in text


def test_6_3_4_the_fire_window_names_the_unit_the_shot_hurt() -> None:
    """6.3.4 / 8.3: the fire window's ``Waiting`` names the unit fired at as struck, and as hurt only when the shot
    had an effect (the standing orders of a client ask about its retreat then)."""
    rs = engine.get_ruleset("blitzkrieg1940")
    for roll, hurt in (((1, 1), ()), ((6, 6), (DRG,))):
        s = _window_fight()
        s.apply("close")
        s.script(*roll).apply(f"fire {PZ4} {DRG}")
        while s.frame is not None and s.frame.kind != "window":  # the owner's N choice (8.3) comes first
            s.apply(s.legal()[0])
        window(s, "fire")
        w = rs.waiting(s.state)
        assert (w.struck, w.react_to, w.hurt) == ((DRG,), (PZ4,), hurt), roll


def test_8_4_a_panic_test_passed_hurts_nobody_so_no_retreat_is_asked_for_it() -> None:
    """8.4 / 6.3.4: an N on a unit already neutralised is a panic test; passed, the unit is as it was, and the fire
    window names nobody hurt (a client's default standing orders then ask about no retreat); failed, it loses a
    step and is hurt."""
    rs = engine.get_ruleset("blitzkrieg1940")
    for dice, hurt, said in (((4, 6, 1, 1), (), "stays neutralised"), ((4, 6, 6, 6), (DRG,), "loses")):
        s = _window_fight()
        s.apply("close")
        bk.status(s.state.units[DRG]).neutralised = True  # an earlier N
        events = s.script(*dice).apply(f"fire {PZ4} {DRG}")  # 10 on its column: N (8.3), then the panic test
        assert any(e.kind == "panic" and said in e.text for e in events), [e.text for e in events]
        window(s, "fire")
        w = rs.waiting(s.state)
        assert (w.struck, w.hurt) == ((DRG,), hurt), dice
