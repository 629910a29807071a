"""Tests of mines and booby traps, barbed wire, AT obstacles, AT ditches and trenches (digest 13.3–13.8; 14.11
AC-MN-01..05, AC-OB-01; 14.2 AC-MV-19): the interrupt of 3.2 step 1 when a unit enters a hex, the costs and
refusals of movement, the work activations (3.2) and the End Phase, step 7."""

from __future__ import annotations

import copy
import dataclasses

import pytest

from engine.dice import ScriptedDice
from engine.errors import IllegalActionError
from engine.hexgrid import parse_hex
from engine.rules import Transition
from engine.rulesets.hacse import fortifications as fo
from engine.rulesets.hacse import sheets
from engine.rulesets.hacse.attack import die_of
from engine.rulesets.hacse.climbing import climb_tn
from engine.rulesets.hacse.data import load_tables
from engine.rulesets.hacse.model import Mine, data, status
from engine.state import GameState

from .fire_sheets import Script
from .helpers import WIN, game, placed, play, ruleset

T = load_tables()
H = parse_hex
MINED = H("0807")  # H-1: 3 secret German AT mines (15.10.3)
SIGHT = [1] * 80
"""Dice after those a test is about: the sighting checks of every enemy unit (6.1 P) roll 2 and miss."""


def _h1(**where: str) -> GameState:
    """H-1 after the set-up, the US to move first (it loses the initiative), units placed by hand."""
    return placed(game("h1-le-hamel", WIN), **where)


def _h2(**where: str) -> GameState:
    """H-2 after the set-up, the Germans to move first, units placed by hand."""
    return placed(game("h2-height-212", WIN), **where)


def _refused(st: GameState, text: str, pattern: str) -> None:
    rs = ruleset()
    with pytest.raises(IllegalActionError, match=pattern):
        rs.check(st, rs.parse_action(st, text))


def _legal(st: GameState) -> set[str]:
    rs = ruleset()
    return {rs.describe(st, a) for a in rs.legal_actions(st)}


def _apply(st: GameState, text: str) -> Transition:
    """The transition of one checked action (its events)."""
    rs = ruleset()
    action = rs.parse_action(st, text)
    rs.check(st, action)
    tr = Transition(st.clone())
    rs.apply(tr, action)
    return tr


# --- 13.4 mines and traps --------------------------------------------------------------------------------------


def test_14_11_ac_mn_01_trigger_numbers() -> None:
    assert [fo.trigger_tn(n) for n in (1, 2, 5, 10)] == [14, 13, 10, 5]


def test_14_11_ac_mn_02_an_at_mine_deals_2_damage_to_a_25_t_tank_one_on_the_tracks() -> None:
    sheet = T.sheets["GER-PZ4H"]
    track = next(r.index for r in sheet.rows if r.kind == "track_axle")
    script = Script([5, 6])  # the second point: a location on the Side column
    got = fo.at_mine_damage(sheets.target(sheet), sheet.weight_t, script)
    assert got is not None and len(got.rows) == 2 and got.rows[0] == track
    assert got.locations[0].name == "track_axle"


def test_14_11_ac_mn_02_a_sherman_on_a_mine_is_hit_immobilised_and_stops() -> None:
    st = _h1(U4="0707:se")
    st.dice = ScriptedDice([6, 6, 5, 6, 1, 1, 1, *SIGHT])  # 12 >= 15 - 3: the mine goes off
    after = play(st, "move U4 0807 0808")  # the move stops in 0807
    u4 = after.units["U4"]
    s = status(u4)
    assert u4.hex == MINED and len(s.rows_hit) == 2 and fo.immobile(T, u4)
    assert [m.count for m in data(after).mines if m.hex == MINED] == [2]  # used up (13.4 P), known to both
    assert not any(m.secret for m in data(after).mines if m.hex == MINED)
    assert s.activated  # nothing left but stop: the activation is over (8.5: immobilised)
    again = _h1(U4="0807:se")
    status(again.units["U4"]).rows_hit = list(s.rows_hit)
    assert not [a for a in _legal(again) if a.startswith(("move U4", "turn U4", "back U4"))]
    _refused(again, "turn U4 s", r"U4 is immobilised.*rule 8\.5")
    _refused(again, "move U4 0808", r"U4 is immobilised.*rule 8\.5")


def test_14_11_ac_mn_02_a_missed_roll_leaves_the_mines_secret_and_the_roll_to_their_owner() -> None:
    st = _h1(U4="0707:se")
    st.dice = ScriptedDice([5, 6, *SIGHT])  # 11 < 12
    tr = _apply(st, "move U4 0807")
    after = tr.state
    assert after.units["U4"].hex == MINED and not status(after.units["U4"]).rows_hit
    assert [(m.count, m.secret) for m in data(after).mines if m.hex == MINED] == [(3, True)]
    rolls = [e for e in tr.events if e.kind == "roll" and "sighting" not in e.text]
    assert len(rolls) == 1 and "AT mines in 0807" in rolls[0].text
    assert rolls[0].visible_to == ("german",)  # the US may not learn of the mines from the roll
    assert not [e for e in tr.events if e.kind == "mine"]


@pytest.mark.parametrize(("sheet_id", "uid"), [("GER-SDKFZ251", "G3"), ("GER-OPELBLITZ", "G5")])
def test_14_11_ac_mn_03_vehicles_under_10_t_are_destroyed(sheet_id: str, uid: str) -> None:
    sheet = T.sheets[sheet_id]
    assert fo.at_mine_damage(sheets.target(sheet), sheet.weight_t, Script([])) is None
    st = _h2(**{uid: "1612:s"})
    data(st).mines.append(Mine(H("1613"), 1, "soviet", "at"))
    st.dice = ScriptedDice([10, 10, *SIGHT])
    after = play(st, f"move {uid} 1613")
    s = status(after.units[uid])
    assert s.destroyed and after.units[uid].hex is None and s.activated


def test_14_11_ac_mn_03_passengers_get_out_of_the_destroyed_carrier_with_1_damage() -> None:
    # 8.5 P: a vehicle destroyed otherwise than by its ammunition: its passengers get out in its hex, 1 damage each
    st = _h2(G3="1612:s")
    status(st.units["G4"]).embarked_in = "G3"
    st.units["G4"].hex = H("1612")
    data(st).mines.append(Mine(H("1613"), 1, "soviet", "at"))
    st.dice = ScriptedDice([10, 10, *SIGHT])
    after = play(st, "move G3 1613")
    g4 = status(after.units["G4"])
    assert status(after.units["G3"]).destroyed and after.units["G3"].hex is None
    assert not g4.destroyed and g4.embarked_in is None and after.units["G4"].hex == H("1613") and g4.rows_hit == [1]


def test_14_11_ac_mn_04_infantry_entering_a_hex_of_at_mines_rolls_nothing() -> None:
    st = _h1(U1="0707")
    st.dice = ScriptedDice(SIGHT)
    tr = _apply(st, "move U1 0807")
    assert tr.state.units["U1"].hex == MINED and not status(tr.state.units["U1"]).rows_hit
    assert not [e for e in tr.events if e.kind == "roll" and "sighting" not in e.text]


def test_13_4_a_booby_trap_hurts_infantry_1d3() -> None:
    st = _h1(U1="0707")
    data(st).mines.append(Mine(MINED, 1, "german", "trap"))
    st.dice = ScriptedDice([7, 7, 2, *SIGHT])  # 14 >= 14; 1d3 = 2
    after = play(st, "move U1 0807")
    assert len(status(after.units["U1"]).rows_hit) == 2
    assert not [m for m in data(after).mines if m.kind == "trap"]  # used up


def test_14_11_ac_mn_05_infantry_that_stands_a_full_turn_finds_the_mines() -> None:
    after = _end_turn(_h1(U1="0807"))
    mines = [m for m in data(after).mines if m.hex == MINED]
    assert mines and not any(m.secret for m in mines)
    us_view = ruleset().view(after, "us")
    assert [m.count for m in data(us_view).mines if m.hex == MINED] == [3]


def test_13_4_secret_mines_stay_out_of_the_other_sides_view() -> None:
    st = _h1()
    assert not [m for m in data(ruleset().view(st, "us")).mines if m.hex == MINED]
    assert [m.count for m in data(ruleset().view(st, "german")).mines if m.hex == MINED] == [3]


# --- 13.5 barbed wire -------------------------------------------------------------------------------------------


def test_14_2_ac_mv_19_wire_tracked_pays_1_more_and_crushes_it() -> None:
    st = _h1(U4="0807:s")
    after = play(st, "move U4 0808")
    assert status(after.units["U4"]).half_mp == 4  # clear 1 + wire 1
    assert H("0808") not in data(after).wire


def test_14_2_ac_mv_19_wire_wheeled_takes_axle_damage() -> None:
    st = _h2(G5="1812:s")
    data(st).wire.append(H("1813"))
    sheet = T.sheets["GER-OPELBLITZ"]
    axle = next(r.index for r in sheet.rows if r.kind == "track_axle")
    st.dice = ScriptedDice([1, 1, 1, *SIGHT])
    after = play(st, "move G5 1813")
    g5 = after.units["G5"]
    assert status(g5).rows_hit == [axle] and fo.immobile(T, g5) and H("1813") in data(after).wire


def test_14_2_ac_mv_19_wire_on_foot_takes_all_mp_to_enter_and_to_leave() -> None:
    st = _h1(U1="0807")
    after = play(st, "move U1 0808")
    s = status(after.units["U1"])
    assert s.max_move and s.half_mp == 2 * T.sheets["US-INF-SQD"].mp
    st = _h1(U1="0707")
    after = play(st, "move U1 0807")
    _refused(after, "move U1 0808", r"entering the barbed wire in 0808 takes all its MP.*rule 13\.5")
    st = _h1(U1="0808")
    after = play(st, "move U1 0807")
    assert status(after.units["U1"]).max_move  # leaving wire: all MP too
    st = _h1(U1="0809")
    status(st.units["U1"]).half_mp = 1
    _refused(st, "move U1 0709", r"leaving the barbed wire in 0809 takes all its MP.*rule 13\.5")


# --- 13.6 AT obstacles, 13.7 AT ditch ---------------------------------------------------------------------------


def test_13_6_vehicles_cannot_enter_at_obstacles_and_infantry_there_is_harder_to_hit() -> None:
    st = _h1(U4="0707:se", U1="0707")
    data(st).obstacles.append(MINED)
    _refused(st, "move U4 0807", r"vehicles cannot enter the AT obstacles in 0807.*rule 13\.6")
    assert "move U4 0807" not in _legal(st)
    after = play(st, "move U1 0807")
    u1 = after.units["U1"]
    assert fo.cover_keys(after, T, u1) == ("at_obstacle",)
    before = die_of(play(_h1(U1="0707"), "move U1 0807"), T, u1).terrain
    assert sum(m.value for m in die_of(after, T, u1).terrain) == sum(m.value for m in before) + 1


def test_14_11_ac_ob_01_only_an_aimed_he_6_hit_removes_obstacles() -> None:
    assert [
        fo.obstacle_removed(aimed=True, he=3),
        fo.obstacle_removed(aimed=True, he=6),
        fo.obstacle_removed(aimed=False, he=6),
    ] == [False, True, False]


def test_13_7_an_at_ditch_stops_vehicles_and_takes_the_whole_move_on_foot() -> None:
    st = _h1(U4="0707:se", U1="0707")
    data(st).ditches.append(MINED)
    _refused(st, "move U4 0807", r"track unit cannot cross the AT ditch in 0807.*rule 13\.7")
    after = play(st, "move U1 0807")
    assert status(after.units["U1"]).max_move
    st = _h1(U1="0606")
    data(st).ditches.append(MINED)
    _refused(st, "move U1 0707 0807", r"crossing the AT ditch in 0807 takes all its MP.*rule 13\.7")


# --- 3.2 work: lay, clear, cut, blast; End Phase step 7 ----------------------------------------------------------


def _end_turn(st: GameState) -> GameState:
    """Play to the start of the next turn: every unit stands or stops, every unit ceases fire, bridges spared."""
    rs = ruleset()
    turn = st.turn
    st = st.clone()
    st.dice = game("h1-le-hamel", seed=3).state.dice  # seeded dice for the Fire Phase and the next initiative
    while st.turn == turn and st.outcome is None:
        legal = rs.legal_actions(st)
        pick = next((a for a in legal if a.verb in ("stand", "stop", "cease", "spare")), legal[0])
        st = play(st, rs.describe(st, pick))
    return st


def test_13_3_a_trap_is_laid_in_forest_only_secretly_and_announced() -> None:
    st = _h1(U1="0707")
    _refused(st, "lay U1 0707 trap", r"traps may only be laid in forest or buildings.*rule 13\.4")
    _refused(st, "lay U1 0707 at", r"carries nothing to make an AT mine.*rule 13\.3")
    st = _h1(U1="0210")  # next to light forest 0211 (H-1 row 11: l0 at columns 2, 3)
    forest = H("0211")
    assert "lay U1 0211 trap" in _legal(st)
    after = play(st, "lay U1 0211 trap")
    assert status(after.units["U1"]).work == "lay" and status(after.units["U1"]).activated
    after = _end_turn(after)
    traps = [m for m in data(after).mines if m.hex == forest]
    assert traps == [Mine(forest, 1, "us", "trap", True)]
    assert status(after.units["U1"]).used == {"hand_grenades": 1}
    assert not [m for m in data(ruleset().view(after, "german")).mines if m.hex == forest]


def test_13_4_clearing_needs_a_known_mine_and_removes_one() -> None:
    st = _h1(U1="0807")
    _refused(st, "clear U1", r"us knows of no enemy mine in 0807.*rule 13\.4")  # secret mines
    data(st).mines = [Mine(MINED, 3, "german", "at", False)]
    after = _end_turn(play(st, "clear U1"))
    assert [m.count for m in data(after).mines if m.hex == MINED] == [2]
    own = placed(game("h1-le-hamel", [1, 1, 10, 10]), G2="0807")  # the Germans' own mines are not cleared
    _refused(own, "clear G2", r"german knows of no enemy mine in 0807.*rule 13\.4")


def test_13_3_the_ai_counts_work_against_a_unit_that_gives_up_its_fire() -> None:
    from engine.rulesets.hacse.evaluation import evaluate, weights  # noqa: PLC0415

    st = _h1(U1="0210")
    before = evaluate(T, st, "us")
    after = play(st, "lay U1 0211 trap")
    assert evaluate(T, after, "us") == pytest.approx(before - weights()["work"])


def test_13_5_cutting_wire_removes_it_in_the_end_phase() -> None:
    st = _h1(U1="0808")
    _refused(_h1(U1="0807"), "cut U1", r"no barbed wire in 0807.*rule 13\.5")
    after = play(st, "cut U1")
    assert H("0808") in data(after).wire
    after = _end_turn(after)
    assert H("0808") not in data(after).wire


def test_13_6_a_demolition_charge_removes_at_obstacles() -> None:
    g = game("h3-bridge-at-dusk", [1, 1, 10, 10])  # the Germans move first
    st = placed(g, G1="1207")
    data(st).obstacles.append(H("1207"))
    after = play(st, "work G1 1207")
    assert status(after.units["G1"]).work == "blast"
    after = _end_turn(after)
    assert H("1207") not in data(after).obstacles and status(after.units["G1"]).charges == 1
    _refused(placed(g, S1="1207"), "work S1 1207", r"Cannot act|no demolition charge")


def test_13_3_work_is_infantry_only_and_cites_the_rule() -> None:
    st = _h1(U4="0808:s")
    _refused(st, "cut U4", r"only infantry does this work.*rule 13\.5")


def test_13_8_a_dug_in_unit_keeps_its_trench_until_it_spends_mp() -> None:
    g = game("h1-le-hamel", [1, 1, 10, 10])  # the Germans move first
    st = g.state
    assert status(st.units["G2"]).dug_in
    after = play(st, "move G2 0907")
    assert not status(after.units["G2"]).dug_in


def test_13_4_a_side_standing_on_its_own_secret_mines_does_not_show_them() -> None:
    g = game("h1-le-hamel", [1, 1, 10, 10])  # the Germans move first
    st = placed(g, G2="0807")
    after = _end_turn(st)
    assert [(m.count, m.secret) for m in data(after).mines if m.hex == MINED] == [(3, True)]


# --- 4.7 climbing, 13.1 skill roll -----------------------------------------------------------------------------


def _cliff(st: GameState, label: str, level: int) -> GameState:
    """``st`` on a copy of its board where ``label`` is at ``level`` (no scenario map has a cliff)."""
    st = st.clone()
    board = copy.copy(st.board)
    board.cells = dict(board.cells)
    board.cache = {}  # the copy keeps none of the scenario board's cached reads
    h = H(label)
    board.cells[h] = dataclasses.replace(board.cells[h], level=level)
    st.board = board
    return st


def test_14_4_ac_cl_01_infantry_climbs_4_levels_with_all_mp_no_fire_and_a_skill_roll() -> None:
    st = _cliff(_h1(U1="0707"), "0807", 5)  # 0707 is level 1
    _refused(st, "move U1 0807", r"climb of 4 or more levels.*rule 4\.7")
    assert "climb U1 0807" in _legal(st)
    st.dice = ScriptedDice([6, 6, *SIGHT])  # TN 3 × 4 = 12 (veteran): 12 succeeds
    tr = _apply(st, "climb U1 0807")
    u1 = tr.state.units["U1"]
    s = status(u1)
    assert u1.hex == MINED and s.half_mp == 2 * T.sheets["US-INF-SQD"].mp and s.activated and not s.rows_hit
    assert s.work == "climb"  # no fire this turn (3.2 Phase 3b)
    roll = next(e for e in tr.events if e.kind == "roll")
    assert roll.data["target"] == climb_tn(T, u1) == 3 * 4 - T.sheets["US-INF-SQD"].commander_bonus


def test_14_4_ac_cl_02_a_heavy_mg_team_may_not_climb() -> None:
    g = game("h1-le-hamel", [1, 1, 10, 10])  # the Germans move first
    st = _cliff(placed(g, G3="0707"), "0807", 5)
    _refused(st, "climb G3 0807", r"G3 carries heavy equipment.*rule 4\.7")
    _refused(_h1(U1="0707"), "climb U1 0807", r"only 0 levels away.*rule 4\.7")


def test_14_4_ac_cl_03_a_climb_of_7_levels_takes_3_turns_with_a_roll_in_each() -> None:
    st = _cliff(_h1(U1="0707"), "0807", 8)
    rolls = 0
    for turn in range(3):
        st.dice = ScriptedDice([10, 10, *SIGHT])
        tr = _apply(st, "climb U1 0807")
        rolls += sum(1 for e in tr.events if e.kind == "roll" and "sighting" not in e.text)
        st = tr.state
        assert (st.units["U1"].hex == MINED) == (turn == 2)
        s = status(st.units["U1"])
        s.activated, s.half_mp, s.max_move, s.work = False, 0, False, None  # the next turn (3.2 Phase 0)
        data(st).active, data(st).quota, st.to_act = None, 1, "us"
    assert rolls == 3


def test_14_4_ac_cl_05_a_failed_climbing_roll_costs_1_damage_and_the_climb_goes_on() -> None:
    st = _cliff(_h1(U1="0707"), "0807", 5)
    st.dice = ScriptedDice([1, 2, 1, 1, 1, *SIGHT])
    after = _apply(st, "climb U1 0807").state
    assert after.units["U1"].hex == MINED and len(status(after.units["U1"]).rows_hit) == 1


# --- 3.2: results of a mine at once; cargo-bed points (8.5) ----------------------------------------------------


def _trapped(dice: list[int], hidden: bool = False) -> GameState:
    """H-1: U1 (12 soldiers, 5 already hit) at 0707 about to walk 0708 0709; a known German trap in 0708."""
    st = _h1(U1="0707")
    u1 = st.units["U1"]
    status(u1).rows_hit, u1.steps, status(u1).hidden = [1, 2, 3, 4, 5], 7, hidden
    data(st).mines.append(Mine(H("0708"), 1, "german", "trap", False))
    st.dice = ScriptedDice([10, 10, 3, *dice, *SIGHT])  # the trap goes off, 3 damage: 8 of 12 rows, morale is due
    return st


def test_3_2_the_morale_roll_of_a_trap_is_made_at_once_and_a_failure_stops_the_move() -> None:
    tr = _apply(_trapped([9, 5]), "move U1 0708 0709")
    after = tr.state
    u1 = status(after.units["U1"])
    assert u1.rows_hit == [1, 2, 3, 4, 5, 6, 7, 8] and u1.morale_due == []
    assert u1.shaken or u1.destroyed
    assert after.units["U1"].hex in (H("0708"), None) and u1.activated and data(after).active is None
    texts = [e.text for e in tr.events]
    assert any(t.startswith("U1 rolls 14 for morale") for t in texts)
    assert u1.destroyed or any("fails its morale roll and stops (rule 3.2)" in t for t in texts)


def test_3_2_a_unit_that_passes_the_morale_roll_of_a_trap_goes_on() -> None:
    after = play(_trapped([1, 1]), "move U1 0708 0709")
    u1 = status(after.units["U1"])
    assert not u1.shaken and u1.morale_due == [] and after.units["U1"].hex == H("0709")


def test_3_2_a_hidden_unit_rolls_the_morale_of_a_trap_with_the_fire_phase() -> None:
    after = play(_trapped([], hidden=True), "move U1 0708")
    assert status(after.units["U1"]).morale_due == ["damage"]  # its roll would tell the enemy who struck the trap


def test_8_5_the_cargo_bed_point_of_an_at_mine_strikes_a_group_inside() -> None:
    # No roster vehicle of 10 t or more has a cargo bed: a 12 t Sd.Kfz. 251 stands in for one
    heavy = dataclasses.replace(T.sheets["GER-SDKFZ251"], weight_t=12.0)
    tables = dataclasses.replace(T, sheets={**T.sheets, "GER-SDKFZ251": heavy})
    st = _h2(G3="1613:s")
    status(st.units["G4"]).embarked_in = "G3"
    st.units["G4"].hex = H("1613")
    data(st).mines.append(Mine(H("1613"), 1, "soviet", "at"))
    st.dice = ScriptedDice([10, 10, 6, 6])  # goes off; the track row first, then Side column roll 12: cargo bed
    tr = Transition(st.clone())
    fo.on_enter(tr, tables, tr.state.units["G3"])
    assert status(tr.state.units["G3"]).rows_hit == [3]
    assert status(tr.state.units["G4"]).rows_hit == [1]
    assert any("G4 takes 1 damage inside G3 from its cargo bed (rule 8.5)" in e.text for e in tr.events)


def test_3_2_the_morale_roll_of_a_failed_climb_is_made_at_once() -> None:
    st = _cliff(_h1(U1="0707"), "0807", 5)
    u1 = st.units["U1"]
    status(u1).rows_hit, u1.steps = [1, 2, 3, 4, 5], 7  # one more damage: 6 of 12, half (9.3)
    st.dice = ScriptedDice([1, 2, 9, 5, *SIGHT])  # the climbing roll fails (1 damage), then the morale roll
    tr = _apply(st, "climb U1 0807")
    s = status(tr.state.units["U1"])
    assert len(s.rows_hit) == 6 and s.morale_due == []
    assert any(e.text.startswith("U1 rolls 14 for morale") for e in tr.events)
