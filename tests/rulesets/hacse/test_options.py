"""The fire options of §11 and the choice of the round (15.5) as words of ``fire`` in the Fire Phase (3.2 3b): legal
actions, refusals citing 11.x, resolution with the game's dice, exact odds; the acceptance cases of 14.6 played
through the ruleset."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from engine.actions import Action
from engine.hexgrid import parse_hex
from engine.rules import Transition
from engine.rulesets.hacse import attack, options
from engine.rulesets.hacse.data import load_tables
from engine.rulesets.hacse.model import data, status
from engine.state import GameState

from .helpers import LOSE, fire_state, game, play, refused, ruleset

T = load_tables()


def legal(st: GameState) -> set[Action]:
    return set(ruleset().legal_actions(st))


def odds_of(st: GameState, text: str) -> tuple[dict[str, Fraction], str]:
    rs = ruleset()
    got = rs.odds(st, rs.parse_action(st, text))
    assert got is not None
    assert sum(e.probability for e in got.entries) == 1
    return {e.result: e.probability for e in got.entries}, got.note


def rolls(st: GameState, text: str) -> list[str]:
    """The purposes of the dice rolled by the action."""
    rs = ruleset()
    tr = Transition(st.clone())
    action = rs.parse_action(st, text)
    rs.check(st, action)
    rs.apply(tr, action)
    return [e.text for e in tr.events if e.kind == "roll"]


# --- 15.5 ammunition ---------------------------------------------------------------------------------------------


def test_15_5_the_player_names_the_round_of_a_weapon_with_several() -> None:
    st = fire_state(dice=LOSE + [10, 10] + [4] * 60, G4="0905:s", U4="0908:n")
    got = legal(st)
    assert {Action("fire", ("G4", "U4", "PAK40", k)) for k in ("AP", "HE")} <= got
    _, note = odds_of(st, "fire G4 U4 PAK40 HE")
    assert note.endswith("HE")
    after = play(st, "fire G4 U4 PAK40 HE")
    assert status(after.units["G4"]).spent == {"0.HE": 1}


def test_15_5_a_round_is_named_only_where_there_is_a_choice() -> None:
    st = fire_state(G1="0906", U1="0908")
    err = refused(st, "fire G1 U1 K98 ball")
    assert err.rule == "15.5" and "only ball" in str(err)
    assert refused(st, "fire G1 U1 MG42L AP").rule == "15.5"


def test_7_1_smoke_rounds_are_fired_at_a_hex_not_at_a_unit() -> None:
    st = fire_state(side="us", U4="0908:n", G1="0905")
    assert refused(st, "fire U4 G1 M3_75 smoke").rule == "7.1"


# --- 11.1 aimed shot ----------------------------------------------------------------------------------------------


def test_14_6_ht_12_aimed_shot_is_plus_5_and_listed_for_single_shots_only() -> None:
    st = fire_state(G4="0905:s", U4="0908:n", G1="0906")
    got = legal(st)
    aimed = {a for a in got if "aimed" in a.args}
    assert Action("fire", ("G4", "U4", "PAK40", "aimed", "6")) in aimed  # the Sherman's tracks
    assert not [a for a in aimed if a.args[-1] in ("8", "9")]  # fuel tank and ammunition are never visible
    assert not [a for a in aimed if a.args[0] == "G1"]  # rifles fire as a pool: no aimed shot
    plain, _ = odds_of(st, "fire G4 U4 PAK40")
    odds, note = odds_of(st, "fire G4 U4 PAK40 aimed 6")
    assert "+5 aimed shot (rule 11.1)" in note and "aimed at row 6" in note
    assert odds["miss"] > plain["miss"]


def test_11_1_aimed_refusals_cite_11_1() -> None:
    st = fire_state(G4="0905:s", U4="0908:n", G1="0906")
    assert "not visible" in str(refused(st, "fire G4 U4 PAK40 aimed 8"))  # fuel tank
    assert refused(st, "fire G4 U4 PAK40 aimed 9").rule == "11.1"  # ammunition
    assert refused(st, "fire G1 U4 K98 aimed 1").rule == "11.1"  # a pool
    assert refused(st, "fire G4 U4 PAK40 aimed").rule == "11.1"  # no row
    assert refused(st, "fire G4 U4 PAK40 aimed 40").rule == "11.1"
    status(st.units["U4"]).rows_hit = [6]
    assert "already hit" in str(refused(st, "fire G4 U4 PAK40 aimed 6"))
    assert refused(st, "fire G4 U4 PAK40 HE aimed 7").rule == "15.5"  # an aimed shot fires the rule's round


def test_11_1_aimed_at_a_soldier_names_the_first_of_those_alike() -> None:
    st = fire_state(side="us", U4="0908:n", G1="0905")
    got = {a.args[-1] for a in legal(st) if a.args[:2] == ("U4", "G1") and "aimed" in a.args}
    assert got == {"1", "6", "7", "8", "9", "10"}  # riflemen, ammunition bearer, assistant, MG, deputy, leader
    err = refused(st, "fire U4 G1 M3_75 aimed 3")
    assert err.rule == "11.1" and "like row 1" in str(err)


def test_11_1_the_aimed_row_takes_the_first_point() -> None:
    st = fire_state(dice=LOSE + [10, 10] + [4] * 60, side="us", U4="0908:n", G1="0905")
    after = play(st, "fire U4 G1 M3_75 aimed 10")  # the squad leader
    assert 10 in status(after.units["G1"]).rows_hit


# --- 11.2 rapid fire ----------------------------------------------------------------------------------------------


def test_14_6_ht_12_rapid_fire_semi_automatic_is_plus_3_and_doubles_the_rolls() -> None:
    st = fire_state(dice=LOSE + [4] * 60, G4="0905:s", U4="0908:n")
    _, note = odds_of(st, "fire G4 U4 PAK40 rapid")
    assert "+3 rapid fire, semi-automatic (rule 11.2)" in note
    after = play(st, "fire G4 U4 PAK40 rapid")
    assert status(after.units["G4"]).spent == {"0.AP": 2}
    st2 = fire_state(G1="0906", U1="0908")
    _, note = odds_of(st2, "fire G1 U1 MG42L rapid")
    assert "+5 rapid fire (rule 11.2)" in note


def test_14_6_ht_13_rapid_fire_jams_on_a_natural_3() -> None:
    st = fire_state(dice=LOSE + [1, 2] + [4] * 60, G4="0905:s", U4="0908:n")
    after = play(st, "fire G4 U4 PAK40 rapid")
    assert status(after.units["G4"]).jammed == [0]


def test_14_6_ht_14_rapid_fire_by_infantry_that_moved_is_refused() -> None:
    st = fire_state(G1="0906", U1="0908")
    status(st.units["G1"]).half_mp = 2
    err = refused(st, "fire G1 U1 K98 rapid")
    assert err.rule == "11.2" and "moved" in str(err)
    assert not [a for a in legal(st) if "rapid" in a.args and a.args[0] == "G1"]


def test_11_2_rapid_fire_is_declared_for_the_whole_phase() -> None:
    st = fire_state(dice=LOSE + [4] * 200, G1="0906", U1="0908")
    after = play(st, "fire G1 U1 K98 rapid")
    assert status(after.units["G1"]).rapid
    assert refused(after, "fire G1 U1 MG42L").rule == "11.2"
    assert Action("fire", ("G1", "U1", "MG42L", "rapid")) in legal(after)
    plain = play(st, "fire G1 U1 K98")
    assert refused(plain, "fire G1 U1 MG42L rapid").rule == "11.2"


# --- 11.3 numerous shooters -------------------------------------------------------------------------------------


def test_14_6_ht_09_eleven_rifles_roll_as_a_pool_of_10_and_a_single_roll() -> None:
    st = fire_state(dice=LOSE + [4] * 200, side="us", U1="0908", G1="0906")
    texts = [t for t in rolls(st, "fire U1 G1 M1") if "fires" in t]
    assert len(texts) == 2  # the squad's 11 M1 rifles: a pool of 10, then 1 single roll (P)
    assert "fires 10 M1" in texts[0] and "-10 10 shooters (rule 11.3)" in texts[0]
    assert "fires M1" in texts[1] and "shooters" not in texts[1]
    _, note = odds_of(st, "fire U1 G1 M1")
    assert "then 1 single roll" in note


def test_11_3_soldiers_lost_leave_the_pool() -> None:
    st = fire_state(dice=LOSE + [4] * 200, side="us", U1="0908", G1="0906")
    status(st.units["U1"]).rows_hit = [1, 2]  # two riflemen: 9 M1 left
    assert attack.ready_weapons(T, st.units["U1"], 0) == 9
    texts = [t for t in rolls(st, "fire U1 G1 M1") if "fires" in t]
    assert len(texts) == 1 and "-9 9 shooters (rule 11.3)" in texts[0]
    status(st.units["U1"]).rows_hit = [r for r in range(1, 13) if r != 10]  # only the BAR gunner is left
    err = refused(st, "fire U1 G1 M1")
    assert err.rule == "11.3"


def test_14_6_ht_06_a_natural_2_jams_one_rifle_of_the_pool() -> None:
    st = fire_state(dice=LOSE + [1, 1] + [4] * 60, G1="0906", U1="0908")
    after = play(st, "fire G1 U1 K98")
    s = status(after.units["G1"])
    assert s.jammed == [] and s.pool_jams == {"0": [after.turn]}
    assert attack.ready_weapons(T, after.units["G1"], 0) == 7


# --- 11.5 bundled weapons -----------------------------------------------------------------------------------------


def test_14_6_ht_10_two_mgs_fire_bundled_at_minus_1() -> None:
    st = fire_state(dice=LOSE + [4] * 80, side="us", U4="0908:n", G1="0905")
    assert Action("fire", ("U4", "G1", "M1919V", "bundled")) in legal(st)
    _, note = odds_of(st, "fire U4 G1 M1919V bundled")
    assert "-1 2 bundled weapons (rule 11.5)" in note
    after = play(st, "fire U4 G1 M1919V bundled")
    s = status(after.units["U4"])
    assert sorted(s.fired) == [1, 2] and s.spent == {"1.ball": 2, "2.ball": 2}  # a burst: two rolls each


def test_11_5_bundled_fire_names_the_weapon_key_and_needs_two_that_bear() -> None:
    st = fire_state(side="us", U4="0908:n", G1="0905")
    assert refused(st, "fire U4 G1 M1919V-coax bundled").rule == "11.5"
    assert refused(st, "fire U4 G1 M2HB bundled").rule == "11.5"
    turned = fire_state(side="us", U4="0908:s", G1="0905")  # the hull MG faces away
    assert refused(turned, "fire U4 G1 M1919V bundled").rule == "11.5"


# --- 11.6 sustained fire --------------------------------------------------------------------------------------------


def test_11_6_sustained_fire_attacks_the_line_and_spends_30_rules_shots() -> None:
    st = fire_state(dice=LOSE + [4] * 400, G3="0908", U1="0905", U2="0903")
    assert Action("fire", ("G3", "U1", "MG42H", "sustained")) in legal(st)
    assert Action("fire", ("G3", "U1", "MG42H", "doubled")) in legal(st)
    odds, note = odds_of(st, "fire G3 U1 MG42H sustained")
    assert "every unit in the line" in note and "1 hits" in odds
    after = play(st, "fire G3 U1 MG42H sustained")
    s = status(after.units["G3"])
    assert s.spent == {"0.ball": 30} and s.fire_done and s.line_mount == 0
    assert parse_hex("0905") in s.line and parse_hex("0903") in s.line
    assert options.line_covers(after, after.units["G3"], parse_hex("0904"))
    aim = options.line_aim(after, T, after.units["G3"], after.units["U2"])
    assert not isinstance(aim, str) and hasattr(aim, "shot")


def test_11_6_doubled_sustained_fire_rolls_twice_for_60() -> None:
    st = fire_state(dice=LOSE + [4] * 400, G3="0908", U1="0905")
    texts = [t for t in rolls(st, "fire G3 U1 MG42H doubled") if "sustained fire at U1" in t]
    assert len(texts) == 2
    after = play(st, "fire G3 U1 MG42H doubled")
    assert status(after.units["G3"]).spent == {"0.ball": 60} and status(after.units["G3"]).line_doubled


def test_11_6_sustained_fire_refusals() -> None:
    st = fire_state(dice=LOSE + [4] * 100, G3="0908", U1="0905", G1="0906")
    assert refused(st, "fire G1 U1 K98 sustained").rule == "11.6"  # not a heavy MG
    moved = fire_state(G3="0908", U1="0905")
    status(moved.units["G3"]).half_mp = 1
    assert refused(moved, "fire G3 U1 MG42H sustained").rule == "11.6"
    after = play(st, "fire G3 U1 K98")
    assert refused(after, "fire G3 U1 MG42H sustained").rule == "11.6"  # only the MG gunners fire


def test_3_2_the_line_ends_when_the_mg_unit_is_activated() -> None:
    st = fire_state(dice=LOSE + [4] * 400, G3="0908", U1="0905")
    after = play(st, "fire G3 U1 MG42H sustained")
    s = status(after.units["G3"])
    s.line_mount = 0
    after.phase, after.to_act = "movement", "german"
    data(after).active = None
    s.activated = False
    later = play(after, "stand G3")
    assert status(later.units["G3"]).line == [] and status(later.units["G3"]).line_mount == -1


# --- opportunity fire stays plain -------------------------------------------------------------------------------


def test_6_7_opportunity_fire_takes_no_options() -> None:
    st = fire_state(G4="0905:s", U4="0908:n")
    data(st).opp_mover = "U4"
    st.phase = "movement"
    assert refused(st, "fire G4 U4 PAK40 rapid").rule == "6.7"


@pytest.mark.parametrize(("sid", "seed"), [("h1-le-hamel", 24), ("h2-height-212", 1), ("h3-bridge-at-dusk", 3)])
def test_6_3_every_legal_shot_has_exact_odds_summing_to_1(sid: str, seed: int) -> None:
    """Seeded playouts to turn 3: every ``fire`` listed (options, rounds, indirect fire) has odds with its TN."""
    g = game(sid, seed=seed)
    rng = random.Random(seed)
    seen: set[str] = set()
    while g.state.outcome is None and g.state.turn <= 3:
        legal = g.legal_actions()
        for a in legal:
            if a.verb != "fire":
                continue
            got = ruleset().odds(g.state, a)
            assert got is not None, a
            assert sum(e.probability for e in got.entries) == 1, a
            assert got.note.startswith("TN "), a
            seen.add(a.args[3] if len(a.args) > 3 else "plain")
        shots = [a for a in legal if a.verb == "fire"]
        g.apply(rng.choice(shots if shots and rng.random() < 0.5 else legal))
    assert "plain" in seen and len(seen) > 1


# --- 6.3 b, 8.6 units in buildings ---------------------------------------------------------------------------------


def test_6_3_a_squad_in_a_building_is_plus_5_unless_the_dk_breaks_the_walls() -> None:
    st = fire_state(side="us", U4="0907:se", G1="1107")  # G1 in the medium buildings (armour 2) of 1107
    _, note = odds_of(st, "fire U4 G1 M2HB")
    assert "+5 target in a building (Dk 2 < armour 2)" not in note  # Dk 2 breaks armour 2
    _, note = odds_of(st, "fire U4 G1 M1919V-coax")
    assert "+5 target in a building (Dk 1 < armour 2) (rule 6.3)" in note


def test_8_6_near_misses_damage_the_building_and_it_collapses_on_the_squad() -> None:
    st = fire_state(dice=LOSE + [1, 2, 2, 2] + [4] * 200, side="us", U4="0907:se", G1="1107")
    assert odds_of(st, "fire U4 G1 M2HB")[1].startswith("TN 7 ")  # rolls of 3 and 4: misses by 10 or less
    data(st).building_damage[parse_hex("1107")] = 8
    tr = Transition(st.clone())
    rs = ruleset()
    rs.apply(tr, rs.parse_action(st, "fire U4 G1 M2HB"))
    texts = [e.text for e in tr.events]
    assert any("the medium building at 1107 takes 2 damage (10 of 10; rule 8.6)" in t for t in texts)
    assert any("collapses (rule 4.9)" in t for t in texts)
    assert status(tr.state.units["G1"]).destroyed and data(tr.state).buildings_lost == {parse_hex("1107"): 1}


def test_8_6_a_near_miss_that_does_not_break_the_armour_does_no_damage() -> None:
    st = fire_state(dice=LOSE + [1, 2, 2, 2] + [4] * 200, side="us", U4="0907:se", G1="1107")
    tr = Transition(st.clone())
    rs = ruleset()
    rs.apply(tr, rs.parse_action(st, "fire U4 G1 M1919V-coax"))
    assert any("Dk 1 does not break the medium building" in e.text for e in tr.events)
    assert data(tr.state).building_damage == {}


def test_11_2_a_unit_firing_rapidly_whose_last_shot_cannot_be_rapid_may_still_cease() -> None:
    st = fire_state(G1="0906", U1="1603")  # the MG 42 at long range: TN 19 plain, 24 rapid
    s = status(st.units["G1"])
    s.fired, s.rapid = [0], True  # the rifles fired rapidly
    data(st).active = "G1"
    got = [a for a in ruleset().legal_actions(st) if a.args[0] == "G1" and a.verb != "smoke"]  # 15.4 aside
    assert got == [Action("cease", ("G1",))]
    assert refused(st, "fire G1 U1 MG42L").rule == "11.2"
    assert refused(st, "fire G1 U1 MG42L rapid").rule == "6.3"
