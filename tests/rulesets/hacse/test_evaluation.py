"""Tests of the HACSE position evaluation for the AI (``evaluation.py``, weights in ``data/ai.toml``): it reads only
the side's view (13.2), prefers more victory points (15.9), less damage and objectives held, turns front armour
toward the enemy (2.2), and the AI plays the three scenarios to their end with it (``planspiel simulate``)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import engine
from engine.ai.players import make_agent
from engine.ai.simulate import simulate
from engine.hexgrid import parse_hex
from engine.rulesets.hacse.evaluation import condition, goals, objective_values, weights
from engine.rulesets.hacse.model import FACING_NAMES, Data, data, status
from engine.state import GameState, Outcome
from engine.typed import from_plain, to_plain

from .helpers import game, placed, ruleset

ROOT = Path(__file__).resolve().parents[3]
SCENARIOS = ("h1-le-hamel", "h2-height-212", "h3-bridge-at-dusk")


def _value(st: GameState, side: str) -> float:
    """The evaluation as the AI gets it: of the side's view."""
    rs = ruleset()
    return rs.evaluate(rs.view(st, side), side)


def _h1() -> GameState:
    """H-1 at its first decision, the US tanks and a squad on the map west of the village."""
    return placed(game("h1-le-hamel"), U1="0407", U4="0307:ne", U5="0308:se")


# --- The view only (13.2) --------------------------------------------------------------------------------------


def test_13_2_a_hidden_enemy_changes_nothing_in_the_evaluation() -> None:
    st = _h1()
    g4 = st.units["G4"]
    assert status(g4).hidden and "G4" not in ruleset().view(st, "us").units
    before = _value(st, "us")
    moved = st.clone()
    moved.units["G4"].hex = parse_hex("0407")  # next to the US tanks, front armour away from it
    status(moved.units["G4"]).facing = 0
    gone = st.clone()
    status(gone.units["G4"]).destroyed = True
    gone.units["G4"].hex = None
    assert _value(moved, "us") == before
    assert _value(gone, "us") == before


def test_13_2_the_same_enemy_seen_does_change_the_evaluation() -> None:
    st = _h1()
    seen = st.clone()
    status(seen.units["G4"]).hidden = False
    seen.units["G4"].hex = parse_hex("0407")
    assert _value(seen, "us") != _value(st, "us")


# --- Victory points, material, objectives (15.9) ---------------------------------------------------------------


def test_15_9_an_enemy_unit_destroyed_is_better() -> None:
    st = _h1()
    status(st.units["A-HQ"]).hidden = False  # seen (13.2)
    won = st.clone()
    u = won.units["A-HQ"]
    status(u).destroyed, u.hex = True, None
    assert _value(won, "us") > _value(st, "us")
    assert _value(won, "german") < _value(st, "german")


def test_15_9_less_damage_is_better() -> None:
    st = _h1()
    hurt = st.clone()
    status(hurt.units["U4"]).rows_hit = [11, 12, 13]  # three weapon rows hit (8.5)
    worse = hurt.clone()
    status(worse.units["U4"]).rows_hit = [1, 2, 11, 12, 13, 14, 15, 10]  # eight of 15: half BV to the enemy (15.9)
    assert condition(hurt.units["U4"], ruleset().tables.sheets["US-M4A3-75"]).hit == 3
    assert _value(st, "us") > _value(hurt, "us") > _value(worse, "us")


@pytest.mark.parametrize(
    ("rows", "shaken", "shown"),
    [
        ([6], False, "immobile"),  # tracks (8.5)
        ([8], False, "burning"),  # fuel tank (8.5)
        ([1, 2, 3, 4, 5], False, "out_of_action"),  # all the crew (8.5)
        ([], True, "shaken"),  # 9.5
    ],
)
def test_8_5_9_5_a_unit_immobilised_burning_out_of_action_or_shaken_is_worth_less(
    rows: list[int], shaken: bool, shown: str
) -> None:
    st = _h1()
    before = _value(st, "us")
    s = status(st.units["U4"])
    s.rows_hit, s.shaken = rows, shaken
    c = condition(st.units["U4"], ruleset().tables.sheets["US-M4A3-75"])
    assert getattr(c, shown) is True
    assert _value(st, "us") < before


def test_15_9_an_objective_held_is_better() -> None:
    st = _h1()
    taken = st.clone()
    data(taken).control[parse_hex("1207")] = "us"
    assert _value(taken, "us") > _value(st, "us")
    assert _value(taken, "german") < _value(st, "german")


def test_15_9_a_unit_nearer_the_objective_to_take_is_better() -> None:
    near = placed(game("h1-le-hamel"), U1="0907")
    far = placed(game("h1-le-hamel"), U1="0307")
    assert _value(near, "us") > _value(far, "us")


def test_15_9_a_defender_guarding_its_objective_is_better() -> None:
    st = placed(game("h1-le-hamel"), U1="1006")
    away = st.clone()
    on = st.clone()
    away.units["A-HQ"].hex = parse_hex("1404")
    on.units["A-HQ"].hex = parse_hex("1207")
    assert _value(on, "german") > _value(away, "german")


def test_15_10_5_the_bridge_is_worth_its_award() -> None:
    st = game("h3-bridge-at-dusk").state
    values = objective_values(st)
    assert values == {parse_hex("1007"): 40.0}  # no points of its own: the Soviet award for it intact and held


def _charged(n: int) -> GameState:
    """H-3 at its first decision with ``n`` demolition charges on the bridge 1007 (15.10.5: 3 at the start)."""
    st = game("h3-bridge-at-dusk").state.clone()
    data(st).charges[parse_hex("1007")] = n
    return st


def test_4_10_15_10_5_each_charge_toward_blowing_the_bridge_is_worth_a_share_of_its_award() -> None:
    share = weights()["demolition"] * 20 / 5  # bridge_destroyed +20 German; 5 charges blow it (terrain.toml)
    assert share > 0
    for n in (3, 4):
        assert _value(_charged(n + 1), "german") - _value(_charged(n), "german") == pytest.approx(share)
        assert _value(_charged(n + 1), "soviet") - _value(_charged(n), "soviet") == pytest.approx(-share)
    assert _value(_charged(6), "german") == pytest.approx(_value(_charged(5), "german"))  # 5 blow it: no more


def test_4_10_a_charge_being_attached_counts_and_one_being_removed_counts_against_it() -> None:
    st = _charged(3)
    working = st.clone()
    status(working.units["G1"]).work, status(working.units["G1"]).work_hex = "attach", parse_hex("1007")
    assert _value(working, "german") == pytest.approx(_value(_charged(4), "german"))
    removing = placed(game("h3-bridge-at-dusk"), S1="1007")
    status(removing.units["S1"]).work, status(removing.units["S1"]).work_hex = "remove", parse_hex("1007")
    unworked = placed(game("h3-bridge-at-dusk"), S1="1007")
    assert _value(removing, "soviet") > _value(unworked, "soviet")


def test_4_10_the_ai_blows_the_bridge_when_it_may() -> None:
    g = game("h3-bridge-at-dusk", seed=3)
    while not (g.legal_actions() and g.legal_actions()[0].verb == "blow"):
        legal = g.legal_actions()
        attach = engine.Action("work", ("G1", "1007"))
        g.apply(attach if attach in legal else next(a for a in legal if a.verb in ("stand", "stop", "cease")))
    assert g.state.turn == 6 and g.waiting().side == "german"
    st = placed(g, S5="1208:nw", S1="1107")  # the Soviets at the bridge (G4 and G1 would stand there: away)
    st.units["G4"].hex, st.units["G1"].hex = parse_hex("0707"), parse_hex("0807")
    agent = make_agent("normal", 1)
    assert agent.choose(ruleset().view(st, "german"), 1.0).verb == "blow"  # the award beats the charges' share


def test_15_9_ai_goals_are_the_objectives_not_held_or_all_when_all_are() -> None:
    st = game("h1-le-hamel").state
    both = [parse_hex("1207"), parse_hex("1307")]
    assert goals(st, "us") == both
    assert goals(st, "german") == both
    data(st).control[parse_hex("1207")] = "us"
    assert ruleset().ai_goals(st, "german") == [parse_hex("1207")]


def test_15_9_the_end_of_the_game_outweighs_everything() -> None:
    st = _h1()
    st.outcome = Outcome("us", "test")
    assert _value(st, "us") == weights()["win"]
    assert _value(st, "german") == -weights()["win"]
    st.outcome = Outcome("draw", "test")
    assert _value(st, "us") == 0.0


# --- Facing (2.2) ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("front", "away"), [("ne", "sw"), ("ne", "nw")])
def test_2_2_front_armour_toward_the_seen_enemy_is_better(front: str, away: str) -> None:
    base = placed(game("h1-le-hamel"), U4="0908:ne")
    status(base.units["A-HQ"]).hidden = False  # seen (13.2)
    enemy = base.units["A-HQ"].hex  # 1107: north-east of 0908
    assert enemy == parse_hex("1107")
    good, bad = base.clone(), base.clone()
    status(good.units["U4"]).facing = FACING_NAMES.index(front)
    status(bad.units["U4"]).facing = FACING_NAMES.index(away)
    assert _value(good, "us") > _value(bad, "us")


# --- The AI plays the scenarios --------------------------------------------------------------------------------


@pytest.mark.parametrize("sid", SCENARIOS)
@pytest.mark.parametrize("other", ["random", "greedy"])
def test_the_ai_plays_each_scenario_to_its_end_on_either_side(sid: str, other: str) -> None:
    for a, b in (("easy", other), (other, "easy")):
        result = simulate("hacse", sid, 1, a, b, seed=3)
        assert result.errors == [], result.errors
        assert result.a_wins + result.b_wins + result.draws == 1
        # to the last turn, or earlier when a side has no unit left that is not shaken (15.9)
        assert 1 <= result.turns[0] <= engine.load_scenario("hacse", sid).turns


@pytest.mark.parametrize(
    ("scenario_id", "sides", "b", "games"),
    [("h2-height-212", ("soviet", "german"), "greedy", 1), ("h1-le-hamel", ("german", "us"), "random", 2)],
)
def test_planspiel_simulate_plays_hacse_with_the_ruleset_named_as_a_plugin(
    scenario_id: str, sides: tuple[str, str], b: str, games: int
) -> None:
    env = {**os.environ, "PLANSPIEL_RULESETS": "engine.rulesets.hacse.ruleset:Hacse"}
    cmd = [sys.executable, "-m", "tui.cli", "simulate", "hacse", scenario_id, "--games", str(games), "--json"]
    done = subprocess.run(
        [*cmd, "--a", "ai:easy", "--b", b],
        check=False,
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr
    assert f"hacse/{scenario_id}: {games} game{'s' if games > 1 else ''} finished of {games}" in done.stdout
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert (result["ruleset"], result["scenario"], result["a_side"], result["b_side"]) == ("hacse", scenario_id, *sides)
    assert (result["games"], result["finished"], result["errors"]) == (games, games, 0)
    assert result["a_wins"] + result["b_wins"] + result["draws"] == games
    assert [g["index"] for g in result["per_game"]] == list(range(games))
    assert all(g["winner"] in (*sides, "draw") for g in result["per_game"])
    turns = engine.load_scenario("hacse", scenario_id).turns
    assert all(1 <= g["turns"] <= turns for g in result["per_game"])


def test_ai_a_unit_entering_with_its_tractor_is_no_worse_than_waiting() -> None:
    """H-2's truck G5 enters towing the PaK G6: the towed gun counts from the tractor's entry hexes while both
    wait, so entering (one hex nearer the objectives) is better for the evaluation, not worse."""
    st = game("h2-height-212").state
    g1 = st.units["G1"]  # a tank ahead, nearer every objective: the nearest-unit pull does not change
    g1.hex, status(g1).off_map, status(g1).facing = parse_hex("1208"), False, FACING_NAMES.index("nw")
    entered = st.clone()
    g5, g6 = entered.units["G5"], entered.units["G6"]
    g5.hex = g6.hex = parse_hex("2213")
    status(g5).off_map = status(g6).off_map = False
    status(g5).facing = FACING_NAMES.index("nw")
    assert _value(entered, "german") >= _value(st, "german")


def test_ai_a_tractor_does_not_weigh_hooking_up_a_vehicle_that_drives() -> None:
    st = game("h2-height-212").state
    rs = ruleset()
    hook = engine.Action("hook", ("G2", "G3"))
    assert rs.ai_actions(st, [hook, engine.Action("stand", ("G2",))]) == [engine.Action("stand", ("G2",))]
    status(st.units["G3"]).rows_hit = [3]  # its tracks: immobilised (8.5); towing it away is sensible
    assert hook in rs.ai_actions(st, [hook])


# --- The early end (15.9, 3.2 Phase 4 step 10) -----------------------------------------------------------------


def _last_pak() -> GameState:
    """H-1 with every German unit destroyed but the PaK G4, seen at 0905, and every US unit but U1 and U5: the
    Germans lead 40 (both objectives) + 74 (U2, U3, U4, U6) to 92 (A-HQ, G1-G3 and the Panzer IVs G7, G8);
    breaking G4 (+7, half its BV) ends the game (15.9) and loses it for the US."""
    st = placed(game("h1-le-hamel"), U5="0707:ne")
    for uid in ("A-HQ", "G1", "G2", "G3", "G7", "G8", "U2", "U3", "U4", "U6"):
        u = st.units[uid]
        status(u).destroyed, status(u).hidden, u.hex = True, False, None
    status(st.units["G4"]).hidden = False
    return st


_AT_PAK = (
    engine.Action("fire", ("U5", "G4", "M4-75")),
    engine.Action("fire", ("U5", "0905", "M4-75", "HE")),
    engine.Action("assault", ("U1", "G4")),
)
_CEASE = engine.Action("cease", ("U5",))


def _weighed(st: GameState, side: str = "us") -> list[engine.Action]:
    rs = ruleset()
    return rs.ai_actions(rs.view(st, side), [*_AT_PAK, _CEASE])


def test_15_9_the_ai_spares_the_enemys_last_unit_standing_while_behind_on_points() -> None:
    st = _last_pak()
    assert _weighed(st) == [_CEASE]


def test_15_9_the_ai_attacks_the_last_unit_when_breaking_it_wins() -> None:
    st = _last_pak()
    data(st).control[parse_hex("1207")] = "us"  # 20 + 92 + 7 (G4 shaken) against 20 + 74
    assert _weighed(st) == [*_AT_PAK, _CEASE]


def test_15_9_the_ai_attacks_when_another_enemy_unit_still_stands() -> None:
    st = _last_pak()
    g3 = st.units["G3"]
    status(g3).destroyed, g3.hex = False, parse_hex("1005")
    assert _weighed(st) == [*_AT_PAK, _CEASE]
    status(g3).shaken = True  # shaken: it no longer stands (15.9)
    assert _weighed(st) == [_CEASE]


def test_13_2_15_9_a_hidden_enemy_unit_may_still_stand() -> None:
    st = _last_pak()
    g3 = st.units["G3"]
    status(g3).destroyed, status(g3).hidden, g3.hex = False, True, parse_hex("1005")
    assert "G3" not in ruleset().view(st, "us").units
    assert _weighed(st) == [*_AT_PAK, _CEASE]


def test_11_6_the_ai_lays_no_sustained_fire_line_through_its_own_units() -> None:
    rs = ruleset()
    line = engine.Action("fire", ("G3", "S1", "MG42H", "sustained"))
    doubled = engine.Action("fire", ("G3", "S1", "MG42H", "doubled"))
    single = engine.Action("fire", ("G3", "S1", "MG42H"))
    # H-3: the heavy MG G3 at 0707, the squad G2 at 0807 between it and S1 at 0907 (all on level 1; the line runs
    # on along row 07, so G1 is moved off it from 1107).
    st = placed(game("h3-bridge-at-dusk"), G3="0707", G2="0807", S1="0907", G1="0305")
    assert rs.ai_actions(st, [line, doubled, single]) == [single]  # 11.6: the line attacks G2 too
    clear = placed(game("h3-bridge-at-dusk"), G3="0707", G2="0806", S1="0907", G1="0305")  # G2 off the line
    assert rs.ai_actions(clear, [line, doubled, single]) == [line, doubled, single]


def test_7_4_the_ai_fires_at_no_hex_where_its_own_units_stand() -> None:
    rs = ruleset()
    st = placed(game("h3-bridge-at-dusk"), G2="0907", S1="0907", M1="0406")
    at_own = engine.Action("fire", ("M1", "0907", "GW34", "HE"))
    at_enemy = engine.Action("fire", ("M1", "S1", "GW34", "HE"))
    elsewhere = engine.Action("fire", ("M1", "1610", "GW34", "HE"))
    assert rs.ai_actions(st, [at_own, at_enemy, elsewhere]) == [at_enemy, elsewhere]


# --- A scenario's own weights (not rules) ----------------------------------------------------------------------


def test_scenario_ai_weights_apply_to_their_side_only() -> None:
    """A scenario's ``[ai.<side>]`` table (AI weights, not rules, as Art of Tactic's scenarios have) changes how the
    AI values that side's position only; the other side keeps ``data/ai.toml``."""
    from engine.rulesets.hacse.weights import side_weights  # noqa: PLC0415

    st = _h1()
    base_ger, base_us = _value(st, "german"), _value(st, "us")
    over = st.clone()
    data(over).ai = {"german": {"vp": 0.0, "material": 0.0, "fire": 0.0, "approach": 0.0, "approach_each": 0.0}}
    assert side_weights(over, "german")["vp"] == 0.0
    assert side_weights(over, "us") == weights()
    assert _value(over, "german") != pytest.approx(base_ger)
    assert _value(over, "us") == pytest.approx(base_us)


def test_scenario_ai_weights_reach_the_game_and_its_saves(tmp_path: Path) -> None:
    """A scenario's ``[ai.<side>]`` values (H-1 with ``hidden`` set for the German side) are in the game's data from
    the start (public, like the scenario: in either side's view) and in its saved form; a scenario without the table
    (every shipped HACSE scenario) saves none."""
    src = ROOT / "scenarios" / "hacse" / "h1-le-hamel.toml"
    text = src.read_text(encoding="utf-8").replace("[victory]", "[ai.german]\nhidden = 1.0\n\n[victory]", 1)
    (tmp_path / src.name).write_text(text, encoding="utf-8")
    shutil.copy(src.with_suffix(".map"), tmp_path / src.with_suffix(".map").name)
    g = engine.new_game(engine.load_scenario(tmp_path / src.name), seed=1)
    assert data(g.state).ai == {"german": {"hidden": 1.0}}
    assert data(g.view("us")).ai == {"german": {"hidden": 1.0}}
    assert from_plain(Data, to_plain(data(g.state))).ai == {"german": {"hidden": 1.0}}
    plain = engine.new_game(engine.load_scenario("hacse", "h2-height-212"), seed=1).state
    assert "ai" not in to_plain(data(plain))
