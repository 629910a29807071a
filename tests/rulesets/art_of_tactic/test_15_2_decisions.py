"""15.2 item 4: decisions asked during the Execution Phase on the shared screen, naming the deciding side.

A side that plays ``prompts on`` decides its execution choices itself; execution pauses at each with more than one
legal option (``game.to_act`` is the deciding side, the legal actions ``choose KEY``, the preset's first), with its
cursor in the state (the step, the frames of what is left of it, the question); the answer goes on from there. A
side with ``prompts off`` (the default) gets the preset policies of the README. Choices that would reveal hidden
information (a hidden ambusher, a concealed HQ, minefields) are never asked.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
import saves
from engine.actions import Action
from engine.ai.planner import PlannerAgent
from engine.dice import ScriptedDice
from engine.errors import IllegalActionError
from engine.rulesets.art_of_tactic.air import pair_duels
from engine.rulesets.art_of_tactic.frames import Losses
from engine.rulesets.art_of_tactic.records import Minefield
from engine.state import GameState

from .helpers import MAP_A, D, P, S, event_texts, game, labels, rolls, ruleset, run_frame, scenario

DICE = [1] * 60


def _two_movers(dice: list[int] = DICE, ask: bool = True) -> engine.Game:
    """Two German infantry enter sov-inf's Defend zone (0403, 0503, 0504, 0603 at range 2) in one sub-step."""
    sc = scenario([("ger-a", "DE-INF", "0402"), ("ger-b", "DE-INF", "0602"), ("sov-inf", "SU-INF", "0505")])
    g = game(sc, dice)
    g.apply("move ger-a 0403", side="german")
    g.apply("move ger-b 0603", side="german")
    g.apply("commit", side="german")
    if ask:
        g.apply("prompts on", side="soviet")
    g.apply("defend sov-inf 0504 2", side="soviet")
    g.apply("commit", side="soviet")
    return g


def test_15_2_3_6_defend_target_is_asked_among_the_movers() -> None:
    g = _two_movers()
    assert g.to_act == "soviet" and g.state.phase == "execution"
    assert g.legal_actions() == [Action("choose", ("ger-a",)), Action("choose", ("ger-b",))], "preset first"
    ask = g.events[-1]
    assert ask.kind == "decision" and ask.visible_to is None
    assert ask.text.startswith("soviet decides: sov-inf on Defend at 0505") and "rule 3.6" in ask.text
    assert not any("defend fire" in p for p, _ in rolls(g.events)), "nothing fired yet"
    assert g.state.units["ger-b"].hex == g.board.parse("0603"), "the board stands where execution paused"
    events = g.apply("choose ger-b", side="soviet")
    assert events[0].text == "soviet chooses: ger-b at 0603 (range 2) (rule 3.6, 15.2)"
    shots = [p for p, _ in rolls(events) if "defend fire" in p]
    assert len(shots) == 1 and "sov-inf at ger-b" in shots[0]
    assert g.state.phase == "planning" and g.state.turn == 2 and g.to_act == "german"
    assert g.state.units["ger-b"].steps == 0 and g.state.units["ger-a"].steps == 5
    texts = [e.text for e in g.events]
    assert len(texts) == len(set(t for t in texts if "Step" in t)) + sum("Step" not in t for t in texts), (
        "no step is told twice"
    )


def test_15_2_3_6_preset_policy_without_prompts() -> None:
    g = _two_movers(ask=False)
    assert g.state.phase == "planning" and g.state.turn == 2, "execution ran through"
    assert not event_texts(g.events, "decision")
    shots = [p for p, _ in rolls(g.events) if "defend fire" in p]
    assert len(shots) == 1 and "sov-inf at ger-a" in shots[0], "preset: the nearest, then by id"


def test_15_2_events_and_state_equal_the_preset_run_when_the_preset_is_chosen() -> None:
    asked = _two_movers()
    asked.apply("choose ger-a")
    preset = _two_movers(ask=False)
    assert asked.state.units == preset.state.units
    kept = [e.text for e in asked.events if e.kind not in ("decision", "prompts")]
    assert kept == [e.text for e in preset.events]


def test_15_2_replay_and_save_load_during_a_pause(tmp_path: Path) -> None:
    g = _two_movers()
    path = tmp_path / "pause.planspiel"
    saves.save_game(g, path, players={"german": "human", "soviet": "human"})
    loaded = saves.load_game(path)
    assert loaded.to_act == "soviet" and loaded.legal_actions() == g.legal_actions()
    g.apply("choose ger-b")
    loaded.apply("choose ger-b")
    assert loaded.state.to_dict() == g.state.to_dict()
    again = engine.replay(g.scenario, 0, g.history, dice=ScriptedDice(DICE))
    assert again.state.to_dict() == g.state.to_dict()
    assert [e.text for e in again.events] == [e.text for e in g.events]


def test_15_2_view_holds_the_decision_but_not_the_snapshot_or_the_other_switch() -> None:
    sc = scenario([("ger-a", "DE-INF", "0402"), ("sov-inf", "SU-INF", "0505")])
    g = game(sc, DICE)
    g.apply("commit", side="german")
    ev = g.apply("prompts on", side="soviet")
    assert ev[0].visible_to == ("soviet",), "the switch is the side's own secret"
    assert D(g.view("german")).ask == [] and D(g.view("soviet")).ask == ["soviet"]
    paused = _two_movers()
    cursor = D(paused.state).execution
    assert cursor is not None and cursor.step == 10 and cursor.frames, "the state holds the cursor and its frames"
    view = D(paused.view("german")).execution
    assert view is not None and view.answered == 0 and view.step == 10
    assert view.frames == [] and view.answer is None, "no frames (movers, hidden units, minefields) in a view"
    assert view.pending is not None and view.pending.side == "soviet"


def test_15_2_7_4_close_combat_target_is_chosen_by_the_defender() -> None:
    sc = scenario([("ger-a", "DE-INF", "0504"), ("ger-b", "DE-INF", "0604"), ("sov-inf", "SU-INF", "0505")])
    g = game(sc, [6] * 60)
    g.apply("assault ger-a sov-inf 0505", side="german")
    g.apply("assault ger-b sov-inf 0505", side="german")
    g.apply("commit", side="german")
    g.apply("prompts on", side="soviet")
    g.apply("commit", side="soviet")
    assert g.to_act == "soviet" and "rule 7.4" in g.events[-1].text
    assert g.legal_actions() == [Action("choose", ("ger-a",)), Action("choose", ("ger-b",))]
    events = g.apply("choose ger-b")
    shots = [p for p, _ in rolls(events) if p.startswith("close combat: sov-inf")]
    assert shots == ["close combat: sov-inf at ger-b, 10 dice hitting on 3 or less"]


def test_15_2_german_asks_the_soviet_does_not() -> None:
    """Only the asking side's decisions pause; the other side's are the preset's."""
    sc = scenario([("ger-a", "DE-INF", "0504"), ("ger-b", "DE-INF", "0604"), ("sov-inf", "SU-INF", "0505")])
    g = game(sc, [6] * 60)
    g.apply("prompts on", side="german")
    g.apply("assault ger-a sov-inf 0505", side="german")
    g.apply("assault ger-b sov-inf 0505", side="german")
    g.apply("commit", side="german")
    g.apply("commit", side="soviet")
    assert g.state.phase == "planning" and not event_texts(g.events, "decision")


def test_15_2_refusals_cite_the_rule() -> None:
    g = _two_movers()
    for text in ("choose sov-inf", "hold ger-a", "prompts off", "commit"):
        with pytest.raises(IllegalActionError, match=r"rule 15\.2"):
            g.apply(text)
    with pytest.raises(IllegalActionError, match=r"not german's decision"):
        g.apply("choose ger-a", side="german")
    fresh = game(scenario([("ger-a", "DE-INF", "0402"), ("sov-inf", "SU-INF", "0505")]))
    with pytest.raises(IllegalActionError, match=r"no decision is waiting.*rule 15\.2"):
        fresh.apply("choose ger-a")
    with pytest.raises(IllegalActionError, match=r"on or off.*rule 15\.2"):
        fresh.apply("prompts maybe")
    assert fresh.parse("prompts on") == Action("prompts", ("on",))
    assert str(fresh.parse("choose ger-a")) == "choose ger-a"


def test_15_2_hidden_information_never_prompts() -> None:
    """A hidden ambusher's target (3.11), a concealed HQ's Defend target (9.11) and minefields (9.6) are decided
    automatically even for a side that asks."""
    sc = scenario(
        [
            ("ger-a", "DE-INF", "0402"),
            ("ger-b", "DE-INF", "0602"),
            ("sov-hq", "SU-HQ", "0505", {"concealed": True}),
            ("sov-amb", "SU-INF", "0305"),
        ],
        terrain={"0305": "b"},
    )
    g = game(sc, [6] * 80)
    D(g.state).minefields[P("0403")] = Minefield("soviet", "anti_personnel")
    g.apply("commit", side="german")
    g.apply("prompts on", side="soviet")
    g.apply("defend sov-hq 0504 2", side="soviet")
    g.apply("ambush sov-amb 0404 2", side="soviet")
    g.apply("commit", side="soviet")
    # Round 2: the ambusher is hidden; the Germans walk into both zones, one into the minefield.
    assert S(g.state.units["sov-amb"]).hidden and g.state.turn == 2 and not event_texts(g.events, "decision")
    g.apply("move ger-a 0403", side="german")
    g.apply("move ger-b 0603", side="german")
    g.apply("commit", side="german")
    g.apply("defend sov-hq 0504 2", side="soviet")
    g.apply("ambush sov-amb 0404 2", side="soviet")
    g.apply("commit", side="soviet")
    assert g.state.phase in ("planning", "over") and not event_texts(g.events, "decision")


def test_15_2_ai_answers_with_the_preset() -> None:
    g = _two_movers()
    action = PlannerAgent("normal", seed=1).choose(g.view("soviet"), 1.0)
    assert action == Action("choose", ("ger-a",))


def test_15_2_9_11_adjust_fire_may_be_declined() -> None:
    """A found HQ's Adjust fire is a choice of its side; declined, the miss stands and it stays unused."""
    units = [("ger-mor", "DE-MOR", "0303", {"facing": "0403"}), ("ger-hq", "DE-HQ", "0304"),
             ("sov-inf", "SU-INF", "0505")]  # fmt: skip
    g = game(scenario(units), [6] * 8 + [6] * 8)
    hq = g.state.units["ger-hq"]
    assert S(hq).concealed, "while concealed its Adjust fire is never asked (15.2: it would name the HQ)"
    S(hq).concealed, S(hq).found_at = False, P("0304")  # found (9.11): now the question names it
    g.apply("prompts on", side="german")
    g.apply("fire ger-mor sov-inf", side="german")
    g.apply("defend ger-hq 0404 1", side="german")
    g.apply("commit", side="german")
    g.apply("commit", side="soviet")
    assert g.to_act == "german" and "rule 9.11" in g.events[-1].text
    assert g.legal_actions() == [Action("choose", ("yes",)), Action("choose", ("no",))]
    events = g.apply("choose no")
    assert [len(d) for p, d in rolls(events) if "open fire" in p] == [], "the miss stands: no reroll"
    assert "ger-hq does not adjust ger-mor's fire (rule 9.11)" in event_texts(g.events)
    assert not S(g.state.units["ger-hq"]).adjust_used


def test_15_2_6_6_group_fire_follow_up_targets_are_chosen() -> None:
    """The seed's example (test_6_6_group_fire_seed_example) with the Soviet side choosing: ger-inf4 second, then
    ger-inf3 for the last die."""
    infantry = [(f"ger-inf{i}", "DE-INF", "0505") for i in range(1, 5)]
    units = [("sov-mg", "SU-MG", "0503", {"facing": "0504"}), *infantry]
    g = game(scenario(units), [1, 1, 1, 1, 1, 1, 6, 6, 6, 6, 6, 6, 6])
    g.apply("commit", side="german")
    g.apply("prompts on", side="soviet")
    g.apply("fire sov-mg ger-inf1", side="soviet")
    g.apply("commit", side="soviet")
    assert g.legal_actions() == [Action("choose", (f"ger-inf{i}",)) for i in (2, 3, 4)]
    assert "fires 2 more dice at 0505" in g.events[-1].text and "rule 6.6" in g.events[-1].text
    g.apply("choose ger-inf4")
    assert g.legal_actions() == [Action("choose", ("ger-inf2",)), Action("choose", ("ger-inf3",))]
    g.apply("choose ger-inf3")
    got = [(p.split(" at ")[-1].split(",")[0].split(" ")[0], len(d)) for p, d in rolls(g.events)]
    assert got == [("ger-inf1", 10), ("ger-inf4", 2), ("ger-inf3", 1)]


def test_15_2_9_16_how_much_supply_to_take() -> None:
    sc = scenario([("ger-inf", "DE-INF", "0505", {"ammo": 2}), ("ger-opel", "DE-OPEL", "0505"),
                   ("sov-hq", "SU-HQ", "1010")])  # fmt: skip
    g = game(sc)
    g.apply("prompts on", side="german")
    g.apply("supply ger-inf ger-opel", side="german")
    g.apply("supply ger-opel", side="german")
    g.apply("commit", side="german")
    g.apply("commit", side="soviet")
    assert [a.args[0] for a in g.legal_actions()] == ["4", "3", "2", "1"], "all it lacks first (the preset)"
    g.apply("choose 1")
    assert S(g.state.units["ger-inf"]).ammo == 3
    assert S(g.state.units["ger-opel"]).cargo_ammo == 29


def _asking(st: GameState, side: str) -> GameState:
    D(st).ask = [side]
    return st


def test_15_2_4_6_the_owner_splits_passenger_losses() -> None:
    sc = scenario([("ger-251", "DE-251", "0505"), ("ger-a", "DE-INF", "0505"), ("ger-b", "DE-INF", "0505"),
                   ("sov-hq", "SU-HQ", "1010")])  # fmt: skip
    g = game(sc)
    st = g.state.clone()
    S(st.units["ger-251"]).carrying = ("ger-a", "ger-b")
    for p in ("ger-a", "ger-b"):
        S(st.units[p]).carried_by = "ger-251"
    preset = st.clone()
    assert run_frame(preset, Losses("ger-251", 2, "test")) == [], "nobody asks"
    assert (preset.units["ger-a"].steps, preset.units["ger-b"].steps) == (4, 4), "preset: one each, by id"
    waiting = _asking(st.clone(), "german")
    [asked] = run_frame(waiting, Losses("ger-251", 2, "test"))
    assert [k for k, _ in asked.options] == ["ger-a", "ger-b"] and asked.rule == "4.6"
    assert waiting.units["ger-251"].steps == 3, "the transport's loss is taken before the question"
    _asking(st, "german")
    asked_twice = run_frame(st, Losses("ger-251", 2, "test"), ["ger-b", "ger-b"])
    assert [q.kind for q in asked_twice] == ["passenger_loss", "passenger_loss"]
    assert (st.units["ger-a"].steps, st.units["ger-b"].steps) == (5, 3)


def test_15_2_9_16_the_owner_chooses_which_cargo_is_lost() -> None:
    """EX-11's truck (30 ammunition, 3 mines: 6 cargo units a loss): mines first loses all three mines."""
    sc = scenario([("ger-opel", "DE-OPEL", "0505"), ("sov-hq", "SU-HQ", "1010")])
    g = game(sc)
    st = _asking(g.state.clone(), "german")
    run_frame(st, Losses("ger-opel", 1, "test"), ["mines"])
    assert (S(st.units["ger-opel"]).cargo_ammo, S(st.units["ger-opel"]).cargo_mines) == (30, 0)
    st = _asking(g.state.clone(), "german")
    run_frame(st, Losses("ger-opel", 1, "test"), ["ammo"])
    assert (S(st.units["ger-opel"]).cargo_ammo, S(st.units["ger-opel"]).cargo_mines) == (24, 3)


def test_15_2_9_14_the_chooser_picks_its_opponent_in_air_combat() -> None:
    """DR-20's patrols: German first (roll-off), ger-f would take sov-1 (the preset); asked, it takes sov-2."""
    from .test_13_acceptance import _plane  # noqa: PLC0415

    rs = ruleset()
    planes = [
        _plane("ger-a", "SU-I16", "german"),
        _plane("ger-f", "SU-I16", "german", patrol=True, radius=1),
        _plane("sov-1", "SU-I16", "soviet", patrol=True, radius=1),
        _plane("sov-2", "SU-I16", "soviet", steps=1, patrol=True, radius=1),
    ]
    asked: list[tuple[str, list[str]]] = []

    def choose(c: engine.state.Unit, candidates: list[engine.state.Unit]) -> engine.state.Unit:
        asked.append((c.id, [e.id for e in candidates]))
        return candidates[-1]

    got = pair_duels(rs, planes, lambda sides: "german", choose)
    assert asked[0] == ("ger-f", ["sov-1", "sov-2"]), "the preset (bravery, then id) first"
    assert got["ger-f"] == "sov-2" and got["sov-2"] == "ger-f"
    assert pair_duels(rs, planes, lambda sides: "german", lambda c, cands: cands[0]) == pair_duels(
        rs, planes, lambda sides: "german"
    ), "the preset's choices give the preset's pairing"


def test_15_2_9_14_air_pairing_asked_in_execution() -> None:
    """Overlapping patrols: two German fighters (one loss each: bravery 7) against a Soviet one (8), which chooses
    first each round of the air combat; asked, it takes ger-f2 rather than the preset ger-f1 (by id)."""
    units = [("ger-hq", "DE-HQ", "0104"), ("ger-inf", "DE-INF", "1204"), ("ger-f1", "SU-I16", "0101"),
             ("ger-f2", "SU-I16", "0102"), ("sov-hq", "SU-HQ", "1206"), ("sov-f", "SU-I16", "1401"),
             ("sov-inf", "SU-INF", "1104")]  # fmt: skip
    g = game(scenario(units, map_text=MAP_A), [6] * 200)  # every shot misses
    for uid in ("ger-f1", "ger-f2"):
        g.state.units[uid].side = "german"  # German fighters for the test (the roster has none)
        g.state.units[uid].steps -= 1
    g.apply("patrol ger-f1 1204 2 3 0104", side="german")
    g.apply("patrol ger-f2 1204 2 3 0104", side="german")
    g.apply("commit", side="german")
    g.apply("prompts on", side="soviet")
    g.apply("patrol sov-f 1206 2 3 1401", side="soviet")
    g.apply("commit", side="soviet")
    rounds = 0
    while g.state.phase == "execution":
        assert g.legal_actions() == [Action("choose", ("ger-f1",)), Action("choose", ("ger-f2",))]
        assert "sov-f (bravery 8) chooses its opponent" in g.events[-1].text and "rule 9.14" in g.events[-1].text
        g.apply("choose ger-f2")
        rounds += 1
    shots = [p for p, _ in rolls(g.events) if p.startswith("air combat: sov-f")]
    assert rounds == len(shots) == 3 and set(shots) == {"air combat: sov-f at ger-f2 (rule 9.14)"}


def test_15_2_3_9_the_adjacent_smoke_hex_is_chosen_in_step_3() -> None:
    """DR-02's smoke with the German side asking: the written 0506 is the preset; it takes 0604 instead, so the
    Soviet MG at 0506 is not caught in smoke and keeps its order."""
    sc = scenario([("ger-mor", "DE-MOR", "0303", {"facing": "0403"}), ("ger-inf", "DE-INF", "0304"),
                   ("sov-inf", "SU-INF", "0505"), ("sov-mg", "SU-MG", "0506", {"facing": "0406"})])  # fmt: skip
    g = game(sc)
    g.apply("prompts on", side="german")
    g.apply("smoke ger-mor 0505 0506", side="german")
    g.apply("commit", side="german")
    g.apply("move sov-inf 0605", side="soviet")
    g.apply("facing sov-mg 0507", side="soviet")
    g.apply("commit", side="soviet")
    keys = [a.args[0] for a in g.legal_actions()]
    assert keys[0] == "0506" and sorted(keys[1:]) == ["0404", "0405", "0504", "0604", "0605"]
    assert "rule 3.9" in g.events[-1].text
    g.apply("choose 0604")
    assert labels(D(g.state).smoke) == {"0505": 1, "0604": 1}
    assert "ger-mor lays smoke on 0505 and 0604 (rule 3.9)" in event_texts(g.events)
    assert "sov-mg is caught in smoke" not in " ".join(event_texts(g.events))
