"""Tests of HACSE movement (digest 4.1–4.6) and the acceptance cases of 14.2 (movement costs) and 14.3 (towing)."""

from __future__ import annotations

import pytest

from engine.errors import IllegalActionError
from engine.rulesets.hacse import hits
from engine.rulesets.hacse.data import MAX, PROHIBITED, load_tables
from engine.rulesets.hacse.model import data, status
from engine.rulesets.hacse.movement import CLIMB, stacking_surcharge, step_cost, tow_speed

from .helpers import LOSE, WIN, game, placed, play, ruleset

T = load_tables()


def cost(move_class: str, terrain: str, **kw: object) -> object:
    return step_cost(T, move_class, T.terrain[terrain], **kw)  # type: ignore[arg-type]


def test_14_2_ac_mv_01_foot_clear_to_light_forest() -> None:
    assert cost("foot", "light_forest") == 1


def test_14_2_ac_mv_02_foot_light_forest_one_level_up() -> None:
    assert cost("foot", "light_forest", level_change=1) == 2


def test_14_2_ac_mv_03_track_dense_forest_two_levels_down() -> None:
    assert cost("track", "dense_forest", level_change=-2) == 5


def test_14_2_ac_mv_04_wheel_dense_forest_prohibited() -> None:
    assert cost("wheel", "dense_forest") == PROHIBITED


def test_14_2_ac_mv_05_foot_clear_with_swamp() -> None:
    assert cost("foot", "mud") == 1.5


def test_14_2_ac_mv_06_track_rough_with_snow() -> None:
    assert cost("track", "rough", overlays=["snow"]) == 3


def test_14_2_ac_mv_07_wheel_clear_with_mud_is_max() -> None:
    assert cost("wheel", "mud") == MAX


def test_14_2_ac_mv_08_track_reverse_into_light_forest() -> None:
    assert cost("track", "light_forest", backwards=True) == 3


def test_14_2_ac_mv_09_wheel_reverse_after_spending_mp_is_prohibited() -> None:
    # H-2: the Opel Blitz G5 on clear 1510 facing N turns (1 MP), then may not reverse ("max." needs unspent MP).
    g = game("h2-height-212", WIN)  # soviet wins: the germans move first
    st = placed(g, G5="1510:n", G6="")
    assert cost("wheel", "clear", backwards=True) == MAX
    st = play(st, "turn G5 ne")
    with pytest.raises(IllegalActionError, match=r"whole move.*rule 4\.3"):
        ruleset_check(st, "back G5 1410")
    fresh = placed(g, G5="1510:n", G6="")
    after = play(fresh, "back G5 1511")
    assert status(after.units["G5"]).max_move and status(after.units["G5"]).half_mp == 8


def ruleset_check(st: object, text: str) -> None:
    rs = ruleset()
    rs.check(st, rs.parse_action(st, text))  # type: ignore[arg-type]


def test_14_2_ac_mv_10_turn_then_light_forest() -> None:
    # H-1: a Sherman (MP 5) at 0302 facing NE enters the light forest 0303 to its south: 2 (turn 120°) + 2 = 4.
    g = game("h1-le-hamel", WIN)  # the US moves first
    st = play(placed(g, U4="0302:ne"), "move U4 0303")
    s = status(st.units["U4"])
    assert (s.half_mp / 2, s.facing, st.units["U4"].hex) == (4, 3, st.board.parse("0303"))
    assert ruleset().movement_points(st, st.units["U4"]) == 1


def test_14_2_ac_mv_11_foot_three_level_climb_costs_two() -> None:
    assert cost("foot", "clear", level_change=3) == 3


def test_14_2_ac_mv_12_track_three_levels_prohibited() -> None:
    assert cost("track", "clear", level_change=-3) == PROHIBITED
    assert cost("foot", "clear", level_change=4) == CLIMB  # 4.7: climbing only


def test_14_2_ac_mv_13_crossing_a_stream() -> None:
    assert [cost(c, "ford") for c in ("track", "wheel", "foot")] == [MAX, PROHIBITED, MAX]


@pytest.mark.parametrize(("n", "extra"), [(19, 0), (20, 1), (39, 1), (40, 2), (60, 3)])
def test_14_2_ac_mv_14_stacking(n: int, extra: int) -> None:
    assert stacking_surcharge(T, n) == extra


def _truck_on_road(steps: int) -> object:
    """H-2: an untowed Opel Blitz (MP 4, road MP 13) at 2213 facing NW, moved ``steps`` road hexes west."""
    g = game("h2-height-212", WIN)
    st = placed(g, G5="2213:nw", G6="")
    path = " ".join(f"{c:02d}13" for c in range(21, 21 - steps, -1))
    return play(st, f"move G5 {path}")


def test_14_2_ac_mv_15_road_move_with_one_hex_off_road() -> None:
    st = _truck_on_road(12)  # 2113 ... 1013
    st = play(st, "move G5 0914")  # straight on (SW), off the road: the 13th MP of the road allowance
    s = status(st.units["G5"])
    assert (s.half_mp / 2, s.off_road) == (13, 1)


def test_14_2_ac_mv_16_two_hexes_off_road_is_not_a_road_move() -> None:
    st = _truck_on_road(11)  # 2113 ... 1113, facing NW
    st = play(st, "move G5 1012")  # first clear hex off the road: still a road move (12 of 13)
    with pytest.raises(IllegalActionError, match=r"of its 4 MP.*rule 4\.2"):
        ruleset_check(st, "move G5 0912")


def test_4_2_road_steps_turn_onto_the_road_for_free() -> None:
    # 15.10.1 roads "along a row" zig-zag between NW and SW steps: following one costs 1 MP a hex (AC-SC-08).
    st = _truck_on_road(6)
    assert status(st.units["G5"]).half_mp == 12


def test_14_2_ac_mv_17_road_step_ignores_forest() -> None:
    assert cost("wheel", "light_forest", road=True) == 1


def test_14_2_ac_mv_18_building_hex_as_road() -> None:
    assert cost("wheel", "medium_buildings") == 1 and cost("track", "heavy_buildings") == 1


def test_4_1_turning_costs_one_mp_per_hexside() -> None:
    g = game("h1-le-hamel", WIN)
    st = play(placed(g, U4="0302:n"), "turn U4 s")
    assert status(st.units["U4"]).half_mp == 6  # 180° = 3 MP


def test_4_1_infantry_has_no_facing() -> None:
    g = game("h1-le-hamel", WIN)
    st = placed(g, U1="0302")
    with pytest.raises(IllegalActionError, match=r"no facing.*rule 2\.1"):
        ruleset_check(st, "turn U1 s")
    after = play(st, "move U1 0402")  # any adjacent hex, no turning
    assert status(after.units["U1"]).half_mp == 2


def test_4_3_max_step_ends_the_move() -> None:
    # H-3: a T-34 at 1112 facing SW enters the ford 1012 ("max."): its whole MP, and the activation ends.
    g = game("h3-bridge-at-dusk", LOSE[2:] + LOSE[:2])  # soviet loses: moves first
    st = play(placed(g, S5="1112:sw"), "move S5 1012")
    s = status(st.units["S5"])
    assert (s.max_move, s.half_mp, s.activated) == (True, 12, True)


def test_4_3_reversing_only_into_the_hex_behind() -> None:
    g = game("h1-le-hamel", WIN)
    st = placed(g, U4="0302:n")
    with pytest.raises(IllegalActionError, match=r"not behind U4.*rule 4\.3"):
        ruleset_check(st, "back U4 0402")
    after = play(st, "back U4 0303")
    s = status(after.units["U4"])
    assert (s.facing, s.half_mp) == (0, 6)  # track into light forest: 2 + 1 for reversing, facing unchanged


def test_4_3_gun_reverses_without_surcharge() -> None:
    g = game("h1-le-hamel", LOSE)  # the germans move first
    st = play(g.state, "back G4 1004")  # PaK 40 at 0905 facing SW: 1004 is behind it (NE); foot class
    assert status(st.units["G4"]).half_mp == 2 and status(st.units["G4"]).facing == 4


def test_4_4_stacking_counts_units_already_in_the_hex() -> None:
    g = game("h1-le-hamel", WIN)
    st = placed(g, U1="0302", U2="0302")
    assert T.movement.value("stacking_per") == 20
    after = play(st, "move U1 0303")
    assert status(after.units["U1"]).half_mp == 2  # 1 unit in 0303: no surcharge


@pytest.mark.parametrize(
    ("tractors", "load", "speed"),
    [
        (["GER-OPELBLITZ"], 1.4, (2, 6)),  # AC-TW-01
        (["GER-OPELBLITZ"], 3.0, (1, 3)),  # AC-TW-02
        (["GER-OPELBLITZ"], 3.5, None),  # AC-TW-03
        (["GER-OPELBLITZ", "GER-SDKFZ251"], 5.0, (2, 5)),  # AC-TW-04: lowest MP 4 / 2
    ],
)
def test_14_3_ac_tw_01_to_04_towing_speed(tractors: list[str], load: float, speed: tuple[int, int] | None) -> None:
    assert tow_speed([T.sheets[k] for k in tractors], load, T) == speed


def test_14_3_ac_tw_05_stated_tow_load() -> None:
    from dataclasses import replace  # noqa: PLC0415

    tractor = replace(T.sheets["GER-SDKFZ251"], tow_load_t=4.0)
    assert tow_speed([tractor], 6.0, T) == (1, 3)


def test_14_14_ac_sc_08_towing_truck_enters_and_follows_the_road() -> None:
    # H-2: G5 towing G6 enters at 2213 and moves along R1: road MP 6, so it reaches 1713 at most.
    g = game("h2-height-212", WIN)
    st = play(g.state, "enter G5 2213 nw", "move G5 2113 2013 1913 1813 1713")
    assert st.units["G6"].hex == st.board.parse("1713") and status(st.units["G6"]).hexes == 6
    assert status(st.units["G5"]).activated  # nothing left: the activation ended by itself
    st2 = play(g.state, "enter G5 2213 nw", "move G5 2113 2013 1913 1813")
    with pytest.raises(IllegalActionError, match=r"of its 6 road MP.*rule 4\.2"):
        ruleset_check(st2, "move G5 1713 1613")


def _aboard(st: object, passenger: str, carrier: str) -> None:
    """Put ``passenger`` aboard ``carrier`` (in its hex) in a state made by ``placed``."""
    units = st.units  # type: ignore[attr-defined]
    p, c = units[passenger], units[carrier]
    p.hex = c.hex
    status(p).off_map, status(p).embarked_in = False, carrier


def test_4_5_dismount_after_the_carrier_moved_leaves_no_mp() -> None:
    g = game("h2-height-212", WIN)
    st = play(g.state, "enter G3 2210 nw", "move G3 2110")
    assert st.units["G4"].hex == st.board.parse("2110")
    st = play(st, "dismount G3 G4")
    s = status(st.units["G4"])
    assert (s.embarked_in, s.activated, s.half_mp) == (None, True, 6)
    assert ruleset().movement_points(st, st.units["G4"]) == 0


def test_4_5_dismount_before_the_carrier_moves_costs_one_mp_and_the_rest_is_used_at_once() -> None:
    g = game("h2-height-212", WIN)
    st = placed(g, G3="1510:n")
    _aboard(st, "G4", "G3")
    st = play(st, "dismount G3 G4")
    g4 = status(st.units["G4"])
    assert g4.half_mp == 2 and st.units["G4"].hex == st.board.parse("1510") and not g4.activated
    assert (data(st).active, data(st).resume) == ("G4", "G3")  # its own activation, now, inside the carrier's
    moves = [a for a in ruleset().legal_actions(st) if a.verb == "move"]
    assert moves and {a.args[0] for a in moves} == {"G4"}
    st = play(st, ruleset().describe(st, moves[0]))
    st = play(st, "stop G4") if data(st).active == "G4" else st
    assert status(st.units["G4"]).activated and status(st.units["G4"]).half_mp > 2
    assert (data(st).active, data(st).resume, st.to_act) == ("G3", None, "german")  # the carrier goes on
    st = play(st, "move G3 1509")
    assert st.units["G4"].hex == st.board.parse(str(moves[0].args[-1]))


def test_4_5_a_passenger_that_mounted_this_turn_gets_out_with_no_move_left() -> None:
    g = game("h2-height-212", WIN)
    st = placed(g, G3="1510:n", G4="1510")
    st = play(st, "mount G4 G3")
    st.to_act = "german"
    st = play(st, "dismount G3 G4")  # activated already (it mounted): done for the turn (4.5)
    assert status(st.units["G4"]).activated and data(st).active == "G3"


def test_4_5_inside_and_outside_room_are_told_apart() -> None:
    # G1 (Panzer IV: no room inside, 4 outside): a 10-soldier squad may not ride on it; H-2's S1 (T-34) neither
    g = game("h2-height-212", WIN)
    st = placed(g, G1="1510:n", G4="1510")
    with pytest.raises(IllegalActionError, match=r"room for 0 soldiers inside and 4 outside, G4 has 10.*rule 4\.5"):
        ruleset_check(st, "mount G4 G1")
    st.units["G4"].steps = 4  # four soldiers left: they ride outside
    st = play(st, "mount G4 G1")
    assert status(st.units["G4"]).outside
    inside, outside = hits.passengers(st, T, st.units["G1"])
    assert inside == [] and [u.id for u in outside] == ["G4"]


def test_4_5_mount_costs_one_mp_and_ends_the_activation() -> None:
    g = game("h2-height-212", WIN)
    st = play(placed(g, G3="1510:n", G4="1510"), "mount G4 G3")
    s = status(st.units["G4"])
    assert (s.embarked_in, s.half_mp, s.activated) == ("G3", 2, True)
    st = play(st, "stand G1") if st.to_act == "german" else st
    assert "G4" not in {a.args[0] for a in ruleset().legal_actions(st)}


def test_4_5_mount_needs_room() -> None:
    g = game("h2-height-212", LOSE)  # the soviets move first
    st = placed(g, S1="0513:n")
    with pytest.raises(IllegalActionError, match=r"room for 0 soldiers inside and 4 outside, S4 has 9.*rule 4\.5"):
        ruleset_check(st, "mount S4 S1")


def test_4_6_unhook_turns_the_gun_away_and_frees_the_tractor() -> None:
    g = game("h2-height-212", WIN)
    st = play(g.state, "enter G5 2213 nw", "unhook G5")
    g5, g6 = status(st.units["G5"]), status(st.units["G6"])
    assert (g5.half_mp, g6.towed_by, g6.facing, g6.activated) == (4, None, 2, True)  # 1 + half of 2
    assert ruleset().movement_points(st, st.units["G5"]) == 11  # road MP 13 again, 2 spent on the road


def test_4_6_hook_up_costs_half_the_mp() -> None:
    g = game("h2-height-212", WIN)
    st = placed(g, G5="1510:n", G6="1510:s")
    st = play(st, "hook G5 G6")
    assert status(st.units["G6"]).towed_by == "G5" and status(st.units["G5"]).half_mp == 4
    assert status(st.units["G5"]).activated  # towing: 2 MP, both spent, so its activation ended


def test_14_4_ac_cl_01_and_02_who_may_climb() -> None:
    from engine.rulesets.hacse.climbing import may_climb  # noqa: PLC0415

    assert may_climb(T.sheets["GER-INF-SQD"]) and not may_climb(T.sheets["GER-HMG"])
    assert not may_climb(T.sheets["GER-MORTAR"]) and not may_climb(T.sheets["GER-PZ4H"])


def test_14_4_ac_cl_03_climbing_turns() -> None:
    from engine.rulesets.hacse.climbing import climb_turns  # noqa: PLC0415

    assert [climb_turns(n) for n in (5, 6, 8)] == [1, 2, 4]


def test_14_4_ac_cl_04_ac_sk_01_ac_sk_02_skill_target_numbers() -> None:
    from engine.rulesets.hacse.climbing import skill_tn  # noqa: PLC0415

    assert (skill_tn(4), skill_tn(4, specialist=True)) == (12, 9)  # AC-CL-04
    assert [skill_tn(b) for b in (3, 4, 5)] == [9, 12, 15]  # AC-SK-01
    assert skill_tn(4, commander_bonus=1) == 11  # AC-SK-02
