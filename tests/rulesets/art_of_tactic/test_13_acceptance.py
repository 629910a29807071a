"""Acceptance cases of the Art of Tactic digest, section 13 (EX-xx from the seed's examples, DR-xx derived),
one test each, named by case and section, with scripted dice (German rolls first, then Soviet, by unit id)."""

from __future__ import annotations

import copy

import pytest

import engine
from engine.dice import ScriptedDice
from engine.errors import IllegalActionError
from engine.hexgrid import parse_hex
from engine.rules import Transition
from engine.rulesets.art_of_tactic.combat import bravery_target, bravery_test, defence_now, ranged_attack
from engine.rulesets.art_of_tactic.frames import Losses
from engine.rulesets.art_of_tactic.records import AirMission, AotStatus, Dugout, Minefield
from engine.rulesets.art_of_tactic.sight import attack_side, in_field_of_fire, line_of_sight, side_of_entry
from engine.typed import to_plain

from .helpers import MAP_A, D, S, event_texts, game, labels, play_round, rolls, ruleset, run_frame, scenario

P = parse_hex


def refusal(g, text: str, side: str) -> str:  # type: ignore[no-untyped-def]
    with pytest.raises(IllegalActionError) as err:
        g.apply(text, side=side)
    return str(err.value)


# --- EX ------------------------------------------------------------------------------------------------


def test_ex01_2_4_simultaneous_open_fire() -> None:
    sc = scenario([("ger-b", "DE-PZ2", "0505"), ("ger-hq", "DE-HQ", "0101"), ("sov-a", "SU-T26", "0503")])
    g = game(sc, [2, 2, 6, 6, 6] + [1] * 7)
    events = play_round(g, ["fire ger-b sov-a"], ["fire sov-a ger-b"])
    shots = rolls(events)
    assert shots[0][1] == [2, 2, 6, 6, 6], "B rolls its 0-loss LT column: 5 dice"
    assert shots[1][1] == [1] * 7, "A rolls 7 dice against a light tank"
    st = g.state
    assert st.units["ger-b"].steps == 0, "B is destroyed after both attacks"
    assert st.units["sov-a"].steps == 3, "B's 2 hits only wear A's defence down"
    defence = [e.data for e in events if e.kind == "defence" and e.data["unit"] == "sov-a"]
    assert defence == [{"unit": "sov-a", "hits": 2, "defence": 2, "modifiers": []}]


def test_ex03_5_1_los_along_the_edge_of_two_blocking_hexes() -> None:
    rs = ruleset()
    for terrain, visible in (({"0305": "W", "0306": "W"}, False), ({"0305": "W"}, True), ({}, True)):
        g = game(scenario([("ger-1", "DE-INF", "0205"), ("sov-1", "SU-INF", "0405")], terrain=terrain))
        res = line_of_sight(g.board, rs.policy, P("0205"), P("0405"))
        assert res.visible is visible, terrain
        assert g.line_of_sight("0205", "0405").visible is visible


def test_ex05_8_2_bravery_test_of_the_sdkfz_251() -> None:
    rs = ruleset()
    sc = scenario([("ger-251", "DE-251", "0505", {}), ("sov-1", "SU-INF", "0101")])
    g = game(sc)
    for dice, passed in (([3, 4], True), ([4, 4], False)):
        st = g.state.clone()
        st.units["ger-251"].steps = 4  # one loss: current bravery 7 (S)
        st.dice = ScriptedDice(dice)
        assert bravery_target(rs, st, st.units["ger-251"])[0] == 7
        tr = Transition(st)
        assert bravery_test(rs, tr, st, st.units["ger-251"], "loss") is passed
        assert bool(S(st.units["ger-251"]).suppressed) is (not passed)


def test_ex06_3_6_defend_fire_on_a_moving_truck() -> None:
    sc = scenario([("ger-truck", "DE-OPEL", "0302"), ("sov-inf", "SU-INF", "0505")])
    g = game(sc, [1, 6, 6, 6, 6, 6, 6])  # defend fire (5 dice), then the truck's bravery test
    events = play_round(g, ["march ger-truck 0402 0503 0504"], ["defend sov-inf 0504 2"])
    shots = rolls(events)
    assert "defend fire" in shots[0][0] and len(shots[0][1]) == 5, "VEH row at range 2, fired on entering 0503"
    assert "bravery test of ger-truck" in shots[1][0]
    truck = g.state.units["ger-truck"]
    assert truck.hex == P("0503"), "the failed test stops the truck in 0503"
    assert truck.steps == 5 and S(truck).suppressed
    assert S(g.state.units["sov-inf"]).ammo == 5


def test_ex08_3_8_open_fire_infantry_versus_engineers() -> None:
    sc = scenario([("ger-pio", "DE-PIO", "0505"), ("sov-inf", "SU-INF", "0503")])
    g = game(sc, [6] * 9 + [6] * 10)
    events = play_round(g, ["fire ger-pio sov-inf"], ["fire sov-inf ger-pio"])
    shots = rolls(events)
    assert [len(d) for _, d in shots] == [9, 10], "the Soviet player rolls 10 dice; both fire at once"
    assert S(g.state.units["ger-pio"]).ammo == 5
    assert S(g.state.units["sov-inf"]).ammo == 5


def test_ex12_4_3_march_along_a_road() -> None:
    sc = scenario([("ger-hq", "DE-HQ", "0101"), ("sov-t34", "SU-T34", "0205")], map_text=MAP_A)
    g = game(sc)
    g.apply("commit", side="german")
    text = refusal(g, "march sov-t34 0305 0405 0505 0605 0705 0805", "soviet")
    assert "rule 4.11" in text
    g.apply("march sov-t34 0305 0405 0505 0605 0705", side="soviet")


def test_ex17_10_8_road_through_woods() -> None:
    rs = ruleset()
    sc = scenario([("ger-truck", "DE-OPEL", "0605"), ("ger-inf", "DE-INF", "0602"), ("sov-1", "SU-INF", "1010")],
                  map_text=MAP_A)  # fmt: skip
    g = game(sc)
    assert "rule 10.5" in refusal(g, "move ger-truck 0604 0603 0503", "german")
    g.apply("march ger-truck 0604 0603", side="german")
    value, mods = defence_now(rs, g.state, g.state.units["ger-inf"])
    assert value == 3, mods  # base 1 + woods 2, on the road too (Fig. 15)


def test_ex17_10_8_truck_marches_the_forest_road_with_its_bonus() -> None:
    sc = scenario([("ger-truck", "DE-OPEL", "0605"), ("sov-1", "SU-INF", "1010")], map_text=MAP_A)
    g = game(sc)
    assert "march ger-truck 0604 0603 0602 0601" in [str(a) for a in g.legal_actions()]


def test_ex18_5_3_seeing_over_woods_from_a_hill() -> None:
    rs = ruleset()
    for height, see_0304, see_0305 in ((1, False, True), (0, False, False)):
        sc = scenario([("ger-inf", "DE-INF", "0301"), ("sov-inf", "SU-INF", "0303")], terrain={"0303": "W"},
                      heights={"0301": height})  # fmt: skip
        g = game(sc)
        assert line_of_sight(g.board, rs.policy, P("0301"), P("0304")).visible is see_0304
        assert line_of_sight(g.board, rs.policy, P("0301"), P("0305")).visible is see_0305
        attack, reason, rule = ranged_attack(
            rs, g.state, g.state.units["ger-inf"], g.state.units["sov-inf"], "x", "fire"
        )
        assert attack is None and rule == "10.5", reason


def test_ex20a_3_1_target_types_on_the_card() -> None:
    sc = scenario([("sov-mg", "SU-MG", "0505", {"facing": "0504"}), ("ger-251", "DE-251", "0503"),
                   ("ger-pz", "DE-PZ2", "0403")])  # fmt: skip
    g = game(sc)
    g.apply("commit", side="german")
    assert "only in close combat" in refusal(g, "fire sov-mg ger-251", "soviet")
    assert "not a target type" in refusal(g, "fire sov-mg ger-pz", "soviet")


def test_ex20a_3_1_infantry_may_assault_an_armoured_vehicle_it_cannot_fire_at() -> None:
    sc = scenario([("sov-inf", "SU-INF", "0505"), ("ger-251", "DE-251", "0504")], terrain={"0505": "v", "0504": "v"})
    g = game(sc)
    g.apply("commit", side="german")
    assert "rule 3.1" in refusal(g, "fire sov-inf ger-251", "soviet")
    g.apply("assault sov-inf ger-251 0504", side="soviet")


def test_ex20b_3_1_range_chart_accuracy_one() -> None:
    sc = scenario([("ger-pz", "DE-PZ2", "0502"), ("sov-t26", "SU-T26", "0505")])
    g = game(sc, [1, 1, 2, 3, 6])
    events = play_round(g, ["fire ger-pz sov-t26"], [])
    assert [e.data["hits"] for e in events if e.kind == "hits"] == [2]


def test_ex20c_3_1_last_size_symbol_crossed_off() -> None:
    sc = scenario([("ger-inf", "DE-INF", "0503"), ("sov-mg", "SU-MG", "0505", {"facing": "0506"}),
                   ("sov-hq", "SU-HQ", "1010")])  # fmt: skip
    g = game(sc, [1, 1, 1] + [6] * 7)
    g.state.units["sov-mg"].steps = 1  # Fig. 2: one loss taken, one symbol left
    play_round(g, ["fire ger-inf sov-mg"], [])
    assert g.state.units["sov-mg"].steps == 0 and g.state.units["sov-mg"].hex is None


def test_ex20d_6_2_mortar_cannot_fire_into_an_x_field() -> None:
    sc = scenario([("ger-mor", "DE-MOR", "0504", {"facing": "0505"}), ("sov-inf", "SU-INF", "0505")])
    g = game(sc)
    assert "rule 6.2" in refusal(g, "fire ger-mor sov-inf", "german")


def test_ex21_5_5_field_of_fire_cone_and_flanks() -> None:
    u = P("0505")
    inside = {"0504", "0403", "0503", "0603", "0402", "0502", "0602"}
    for label in inside:
        assert in_field_of_fire(u, 0, P(label)), label
    for label in ("0604", "0404", "0506", "0505"):
        assert not in_field_of_fire(u, 0, P(label)), label
    assert attack_side(0, side_of_entry(P("0506"), u) or 0) == "rear"
    for label in ("0604", "0605", "0405", "0404"):
        entry = side_of_entry(P(label), u)
        assert entry is not None and attack_side(0, entry) == "flank", label


@pytest.mark.parametrize(("dice", "winner_hex"), [([3, 5], "0503"), ([4, 4, 6, 2], "0504")])
def test_ex24_7_9_counter_attack(dice: list[int], winner_hex: str) -> None:
    sc = scenario([("ger-a", "DE-INF", "0502"), ("sov-b", "SU-INF", "0505")])
    g = game(sc, dice + [6] * 20)
    events = play_round(g, ["assault ger-a sov-b 0503 0504 0505"], ["assault sov-b ger-a 0504 0503 0502"])
    assert [len(d) for p, d in rolls(events) if "counter-attack" in p] == [1] * len(dice)
    a, b = g.state.units["ger-a"], g.state.units["sov-b"]
    assert a.hex == b.hex == P(winner_hex)
    loser = a if winner_hex == "0503" else b
    assert S(loser).role == "defender" and S(a).bound and S(b).bound


# --- DR ------------------------------------------------------------------------------------------------


def test_dr01_8_3_suppression_timeline() -> None:
    sc = scenario([("ger-inf", "DE-INF", "0503"), ("sov-inf", "SU-INF", "0505")])
    g = game(sc, [1, 1] + [6] * 8 + [6, 6] + [1, 1])
    events = play_round(g, ["fire ger-inf sov-inf"], [])
    assert [p for p, _ in rolls(events) if "recovery" in p] == [], "no recovery test in the round of suppression"
    sov = g.state.units["sov-inf"]
    assert S(sov).suppressed and S(sov).flag
    g.apply("commit", side="german")
    assert "rule 8.3" in refusal(g, "hold sov-inf", "soviet")
    events = [*g.apply("commit", side="soviet")]
    assert any("recovery test of sov-inf" in p for p, _ in rolls(events))
    assert not S(g.state.units["sov-inf"]).suppressed
    g.apply("commit", side="german")
    g.apply("hold sov-inf", side="soviet")


def test_dr03_6_3_defence_worn_down_then_reset() -> None:
    rs = ruleset()
    sc = scenario([("ger-inf", "DE-INF", "0503"), ("sov-inf", "SU-INF", "0505")])
    g = game(sc, [1] + [6] * 9)
    st0 = g.state.clone()
    S(st0.units["sov-inf"]).absorbed = 1
    assert defence_now(rs, st0, st0.units["sov-inf"])[0] == 0
    play_round(g, ["fire ger-inf sov-inf"], [])
    sov = g.state.units["sov-inf"]
    assert sov.steps == 5, "the hit is absorbed by defence 1"
    assert defence_now(rs, g.state, sov)[0] == 1, "defence is back at the start of the next round"


def test_dr04_4_3_road_bonus_per_type() -> None:
    rs = ruleset()
    bonus = rs.tables.rules["march"]["road_bonus"]
    assert {k: bonus[k] for k in ("INF", "VEH", "ARM", "LT", "MT", "HT")} == {
        "INF": 1, "VEH": 3, "ARM": 2, "LT": 2, "MT": 2, "HT": 1}  # fmt: skip
    sc = scenario([("ger-inf", "DE-INF", "0205"), ("sov-1", "SU-INF", "1010")], map_text=MAP_A)
    g = game(sc)
    assert "rule 4.11" in refusal(g, "march ger-inf 0305 0405 0505 0605", "german")
    assert "rule 4.11" in refusal(g, "march ger-inf 0305 0404 0504", "german"), "no bonus off the road"
    g.apply("march ger-inf 0305 0405 0505", side="german")


def test_dr05_10_9_field_movement() -> None:
    rs = ruleset()
    penalty = rs.tables.terrain["field"].field_penalty
    assert {k: penalty[k] for k in ("INF", "VEH", "ARM", "LT", "MT", "HT")} == {
        "INF": 1, "VEH": 2, "ARM": 1, "LT": 1, "MT": 2, "HT": 2}  # fmt: skip
    sc = scenario([("ger-pz", "DE-PZ2", "0506"), ("sov-1", "SU-INF", "1010")], map_text=MAP_A)
    g = game(sc)
    assert "rule 4.11" in refusal(g, "move ger-pz 0606 0706", "german")
    assert "rule 4.3" in refusal(g, "march ger-pz 0606", "german")
    g.apply("move ger-pz 0606", side="german")


def test_dr06_10_4_light_woods() -> None:
    sc = scenario([("ger-truck", "DE-OPEL", "0406"), ("ger-pz", "DE-PZ2", "0405"), ("sov-1", "SU-INF", "1010")],
                  map_text=MAP_A)  # fmt: skip
    g = game(sc)
    assert "rule 10.4" in refusal(g, "move ger-truck 0306", "german")
    assert "rule 4.11" in refusal(g, "move ger-pz 0306 0307", "german")
    g.apply("move ger-pz 0306", side="german")


def test_dr07_10_5_woods() -> None:
    sc = scenario([("ger-pz", "DE-PZ2", "0504"), ("ger-inf", "DE-INF", "0502"), ("sov-inf", "SU-INF", "0503")],
                  map_text=MAP_A)  # fmt: skip
    g = game(sc)
    assert "rule 10.5" in refusal(g, "fire ger-pz sov-inf", "german")
    assert "rule 10.5" in refusal(g, "move ger-pz 0503", "german"), "only infantry may enter woods off the road"
    g.apply("assault ger-inf sov-inf 0503", side="german")


def test_dr08_10_11_slopes() -> None:
    sc = scenario([("ger-pz", "DE-PZ2", "0304"), ("ger-inf", "DE-INF", "0404"), ("sov-inf", "SU-INF", "1302")],
                  map_text=MAP_A)  # fmt: skip
    g = game(sc)
    assert "rule 10.11" in refusal(g, "move ger-pz 0403", "german"), "abrupt: infantry only"
    assert "rule 4.11" in refusal(g, "move ger-pz 0303 0302", "german"), "gentle up: that 1 hex only"
    g.apply("move ger-pz 0303", side="german")
    g.apply("move ger-inf 0403", side="german")
    g.apply("commit", side="german")
    assert "rule 10.11" in refusal(g, "move sov-inf 1402", "soviet"), "steep: special units only"


def test_dr09_10_12_ford() -> None:
    sc = scenario([("ger-pz", "DE-PZ2", "0708"), ("ger-inf", "DE-INF", "0709"), ("sov-1", "SU-INF", "0809")],
                  map_text=MAP_A)  # fmt: skip
    g = game(sc)
    assert "rule 4.11" in refusal(g, "move ger-pz 0709 0809", "german"), "a ford is entered only from next to it"
    assert "rule 10.12" in refusal(g, "march ger-inf 0809", "german"), "no March into a ford"
    g.apply("commit", side="german")
    assert "rule 10.12" in refusal(g, "march sov-1 0909", "soviet"), "no March out of a ford either"
    assert "rule 4.11" in refusal(g, "move sov-1 0909 0910", "soviet")
    g.apply("move sov-1 0909", side="soviet")


def test_dr15_5_6_flank_assault_on_a_covered_field_of_fire_unit() -> None:
    for cover, tested in ((True, False), (False, True)):
        units = [("ger-inf", "DE-INF", "0506"), ("sov-mg", "SU-MG", "0505", {"facing": "0504"})]
        if cover:
            units.append(("sov-inf", "SU-INF", "0505"))
        g = game(scenario(units), ([1, 1] if tested else []) + [6] * 30)
        events = play_round(g, ["assault ger-inf sov-mg 0505"], [])
        assert any("bravery test of sov-mg" in p for p, _ in rolls(events)) is tested


def test_dr16_7_3_infantry_against_a_tank() -> None:
    sc = scenario([("ger-pz", "DE-PZ2", "0504"), ("sov-inf", "SU-INF", "0505")])
    g = game(sc)
    g.apply("commit", side="german")
    assert "rule 7.3" in refusal(g, "assault sov-inf ger-pz 0504", "soviet")


def test_dr16_7_10_tank_assaults_infantry_in_a_village() -> None:
    sc = scenario([("ger-pz", "DE-PZ2", "0504"), ("sov-inf", "SU-INF", "0505")], terrain={"0505": "v"})
    g = game(sc, [1, 1] + [6] * 6 + [6] * 3)
    events = play_round(g, ["assault ger-pz sov-inf 0505"], [])
    purposes = [p for p, _ in rolls(events)]
    assert "tank panic" in purposes[0]
    sov_roll = next(e for e in events if e.kind == "roll" and "sov-inf at ger-pz" in e.data["purpose"])
    assert sov_roll.data["target"] == 4 and len(sov_roll.data["dice"]) == 3, "first field 3, +1 in the village"


def test_dr17_7_1_close_combat_without_ammunition() -> None:
    sc = scenario([("ger-inf", "DE-INF", "0504"), ("sov-inf", "SU-INF", "0505", {"ammo": 0})])
    g = game(sc, [6] * 10)
    events = play_round(g, ["assault ger-inf sov-inf 0505"], [])
    assert any("no ammunition" in t for t in event_texts(events))
    assert [len(d) for _, d in rolls(events)] == [10]


def test_dr18_7_8_withdrawal_from_close_combat() -> None:
    sc = scenario([("ger-a", "DE-INF", "0504"), ("sov-b", "SU-INF", "0505")])
    g = game(sc, [6] * 20 + [1, 1, 1] + [6] * 7 + [6, 6])
    play_round(g, ["assault ger-a sov-b 0505"], [])
    assert S(g.state.units["sov-b"]).bound
    events = play_round(g, [], ["move sov-b 0506"])
    assert [len(d) for p, d in rolls(events) if "close combat" in p] == [10], "only the enemy fires"
    b = g.state.units["sov-b"]
    assert b.steps == 4 and S(b).suppressed and b.hex == P("0506")


def test_2_9_view_hides_the_other_sides_orders() -> None:
    sc = scenario([("ger-inf", "DE-INF", "0503"), ("sov-inf", "SU-INF", "0505")])
    g = game(sc)
    g.apply("fire ger-inf sov-inf", side="german")
    assert D(g.view("soviet")).orders["german"] == {}
    assert D(g.view("german")).orders["german"]["ger-inf"].target == "sov-inf"
    assert all(e.is_visible_to("german") for e in g.events if e.kind == "order")
    assert not any(e.is_visible_to("soviet") for e in g.events if e.kind == "order")
    before = copy.deepcopy(g.state.to_dict())
    g.view("soviet")
    assert g.state.to_dict() == before


def test_4_5_fire_on_the_move_with_penalty_and_bravery_test() -> None:
    sc = scenario([("ger-pz", "DE-PZ2", "0502"), ("sov-inf", "SU-INF", "0505")])
    g = game(sc, [1, 6, 6, 6, 6, 6])
    events = play_round(g, ["firemove ger-pz sov-inf 0503 0503"], [])
    shots = rolls(events)
    assert "fire on the move" in shots[0][0] and len(shots[0][1]) == 4, "INF row 6 dice − printed penalty 2"
    assert "bravery test of sov-inf" in shots[1][0], "a hit forces a test even without a loss"
    assert S(g.state.units["sov-inf"]).suppressed and S(g.state.units["ger-pz"]).ammo == 5


def test_9_11_concealed_hq_cannot_be_targeted_until_found() -> None:
    sc = scenario([("ger-inf", "DE-INF", "0503"), ("sov-hq", "SU-HQ", "0505")])
    g = game(sc)
    assert "rule 3.8" in refusal(g, "fire ger-inf sov-hq", "german")
    play_round(g, ["move ger-inf 0504"], [])
    assert S(g.state.units["sov-hq"]).concealed is False
    g.apply("fire ger-inf sov-hq", side="german")


# --- Structures (9.18) ---------------------------------------------------------------------------------


def _with_structures(g, **structures):  # type: ignore[no-untyped-def]
    """Structures written as in a scenario file (hex labels) put on the map."""
    s = D(g.state).structures
    for key, value in structures.items():
        if key in ("wire", "teeth"):
            setattr(s, key, [tuple(sorted(P(h) for h in pair)) for pair in value])
        elif key in ("paths", "pontoons"):
            setattr(s, key, [P(h) for h in value])
        elif key == "dugouts":
            s.dugouts = {P(h): Dugout(**v) for h, v in value.items()}
        else:
            setattr(s, key, {P(h): v for h, v in value.items()})
    return g


def test_9_18_3_wire_blocks_infantry_and_a_tank_crossing_destroys_it() -> None:
    sc = scenario([("ger-inf", "DE-INF", "0504"), ("ger-pz", "DE-PZ2", "0604"), ("sov-hq", "SU-HQ", "1010")])
    g = _with_structures(game(sc), wire=[["0504", "0505"], ["0604", "0605"]])
    assert "rule 9.18.3" in refusal(g, "move ger-inf 0505", "german")
    events = play_round(g, ["move ger-pz 0605"], [])
    assert any("destroys the barbed wire" in t for t in event_texts(events))
    assert D(g.state).structures.wire == [(P("0504"), P("0505"))]


def test_9_10_engineers_remove_wire_in_step_8() -> None:
    sc = scenario([("ger-pio", "DE-PIO", "0504"), ("sov-hq", "SU-HQ", "1010")])
    g = _with_structures(game(sc), wire=[["0504", "0505"]])
    events = play_round(g, ["unwire ger-pio 0505"], [])
    assert D(g.state).structures.wire == []
    steps = [e.data["step"] for e in events if e.kind == "step"]
    removal = next(i for i, e in enumerate(events) if "removes the barbed wire" in e.text)
    assert [e.data["step"] for e in events[:removal] if e.kind == "step"][-1] == 8 and 9 in steps


def test_9_18_5_trench_defence_with_defend_and_lost_to_a_rear_assault() -> None:
    rs = ruleset()
    sc = scenario([("ger-inf", "DE-INF", "0503"), ("sov-inf", "SU-INF", "0505", {"entrenched": True})])
    g = _with_structures(game(sc, [6] * 10), trenches={"0505": 0})
    play_round(g, ["fire ger-inf sov-inf"], ["defend sov-inf 0504 2"])
    st = g.state.clone()
    sov = st.units["sov-inf"]
    assert S(sov).entrenched and S(sov).facing == 0
    S(sov).bonus = 1
    assert defence_now(rs, st, sov)[0] == 3, "base 1 + Defend 1 + trench 1"
    S(sov).flanked = True
    assert defence_now(rs, st, sov)[0] == 2, "no trench bonus against a flank or rear assault"
    play_round(g, [], ["hold sov-inf"])
    assert not S(g.state.units["sov-inf"]).entrenched, "another order leaves the trench"


def test_9_18_8_two_hits_destroy_a_bridge_and_close_it() -> None:
    sc = scenario([("ger-mor", "DE-MOR", "0305", {"facing": "0405"}), ("sov-hq", "SU-HQ", "1010")],
                  terrain={"0505": "="}, roads=["0405 0505 0605"])  # fmt: skip
    g = game(sc, [1, 3, 6, 6, 6, 6, 6, 6])
    events = play_round(g, ["fire ger-mor 0505"], [])
    assert D(g.state).structures.bridges[P("0505")].destroyed
    assert any("bridge at 0505 is destroyed" in t for t in event_texts(events))
    assert P("0505") in ruleset().obstacles(g.state).closed, "a destroyed bridge closes its hex (9.18.2)"


def test_9_8_demolition_charges_and_the_p2_draw_rule() -> None:
    sc = engine_p2()
    g = game(sc)
    st = g.state
    st.units["ger-4-pio"].hex = P("0805")
    D(st).structures.wire = []
    for sov in ("sov-22-inf", "sov-25-mg"):
        st.units[sov].hex = P("1010") if sov == "sov-22-inf" else P("1009")
    play_round(g, ["demolish ger-4-pio"], [])
    assert S(g.state.units["ger-4-pio"]).ongoing.kind == "demolition"
    play_round(g, [], [])
    assert D(g.state).structures.bridges[P("0805")].destroyed
    assert g.outcome is not None and g.outcome.winner == "draw" and "stranded" in g.outcome.reason


def engine_p2():  # type: ignore[no-untyped-def]
    return engine.load_scenario("art_of_tactic", "p2-die-bruecke")


def test_ex09_9_5_merge() -> None:
    sc = scenario([("sov-2", "SU-INF", "0505"), ("sov-4", "SU-INF", "0505"), ("ger-hq", "DE-HQ", "0101")],
                  terrain={"0505": "v"})  # fmt: skip
    g = game(sc)
    g.state.units["sov-2"].steps = 3
    g.state.units["sov-4"].steps = 2
    play_round(g, [], ["merge sov-2 sov-4", "merge sov-4 sov-2"])
    two, four = g.state.units["sov-2"], g.state.units["sov-4"]
    assert two.steps == 5 and four.steps == 0 and four.hex is None
    assert ruleset().tables.units["SU-INF"].bravery == 8 and two.steps == 5  # full strength: bravery back to 8


def test_ex09_9_5_merge_over_the_initial_size_is_illegal() -> None:
    sc = scenario([("sov-2", "SU-INF", "0505"), ("sov-4", "SU-INF", "0505"), ("ger-hq", "DE-HQ", "0101")])
    g = game(sc)
    g.state.units["sov-2"].steps = 4
    g.state.units["sov-4"].steps = 2
    g.apply("commit", side="german")
    assert "rule 9.5" in refusal(g, "merge sov-2 sov-4", "soviet")


def test_dr02_3_9_smoke() -> None:
    sc = scenario([("ger-mor", "DE-MOR", "0303", {"facing": "0403"}), ("ger-inf", "DE-INF", "0304"),
                   ("sov-inf", "SU-INF", "0505"), ("sov-mg", "SU-MG", "0506", {"facing": "0406"})])  # fmt: skip
    g = game(sc)
    play_round(g, ["smoke ger-mor 0505 0506"], ["move sov-inf 0605"])
    st = g.state
    assert labels(D(st).smoke) == {"0505": 1, "0506": 1}
    assert st.units["sov-inf"].hex == P("0505"), "caught in smoke: its move is lost"
    assert S(st.units["ger-mor"]).smoke_ammo == 1
    assert not line_of_sight(g.board, ruleset().policy, P("0304"), P("0706"), ruleset().smoke(st)).visible
    g.apply("commit", side="german")
    assert "rule 3.9" in refusal(g, "hold sov-inf", "soviet")
    g.apply("commit", side="soviet")
    assert D(g.state).smoke == {}, "removed at the end of the following round"


def test_6_8_indirect_fire_needs_an_hq_and_an_observer() -> None:
    units = [("ger-mor", "DE-MOR", "0303", {"facing": "0403"}), ("ger-inf", "DE-INF", "0605"),
             ("sov-inf", "SU-INF", "0505")]  # fmt: skip
    terrain = {"0404": "W"}  # blocks the mortar's view of 0505
    g = game(scenario(units, terrain=terrain))
    assert not line_of_sight(g.board, ruleset().policy, P("0303"), P("0505")).visible
    assert "no unsuppressed HQ" in refusal(g, "fire ger-mor sov-inf", "german")
    g = game(scenario([*units, ("ger-hq", "DE-HQ", "0101")], terrain=terrain), [6] * 6)
    events = play_round(g, ["fire ger-mor sov-inf"], [])
    assert [len(d) for _, d in rolls(events)] == [6], "INF row 8 dice − indirect penalty 2"


def test_9_11_adjust_fire_rerolls_a_miss() -> None:
    units = [("ger-mor", "DE-MOR", "0303", {"facing": "0403"}), ("ger-hq", "DE-HQ", "0304"),
             ("sov-inf", "SU-INF", "0505")]  # fmt: skip
    g = game(scenario(units), [6] * 8 + [6] * 8)
    events = play_round(g, ["fire ger-mor sov-inf", "defend ger-hq 0404 1"], [])
    assert [len(d) for p, d in rolls(events) if "open fire" in p] == [8, 8]
    assert any("adjusts" in t for t in event_texts(events))


def test_11_1_reinforcements_enter_in_their_round() -> None:
    sc = scenario([("ger-hq", "DE-HQ", "0101"), ("sov-hq", "SU-HQ", "1010")])
    text = sc.text.replace(
        "[victory]",
        '[[units]]\nid = "ger-pz"\ntype = "DE-PZ2"\nside = "german"\narrives = 2\nentry = "0105 0106"\n\n[victory]',
    )
    from engine.scenario import parse_scenario  # noqa: PLC0415

    sc2 = parse_scenario(text, "test.toml", map_text=sc.map.text, map_file="blank.map")
    g = game(sc2)
    assert g.state.units["ger-pz"].hex is None
    play_round(g, [], [])
    assert g.state.units["ger-pz"].hex == P("0105")


# --- Ambush (3.11) -------------------------------------------------------------------------------------


def test_3_11_ambush_terrain_limits() -> None:
    sc = scenario([("ger-inf", "DE-INF", "0505"), ("ger-pz", "DE-PZ2", "0303"), ("sov-hq", "SU-HQ", "1010")],
                  terrain={"0303": "b"})  # fmt: skip
    g = game(sc)
    assert "rule 3.11" in refusal(g, "ambush ger-inf 0504 2", "german"), "nobody in a plain hex"
    assert "rule 3.11" in refusal(g, "ambush ger-pz 0302 2", "german"), "bushes: infantry and artillery only"


def test_3_11_ambush_hides_and_fires_at_a_planned_mover() -> None:
    sc = scenario([("ger-inf", "DE-INF", "0505"), ("sov-inf", "SU-INF", "0502")], terrain={"0505": "b"})
    g = game(sc, [1, 1] + [6] * 9 + [6, 6])
    events = play_round(g, ["ambush ger-inf 0504 2"], ["move sov-inf 0503"])
    texts = event_texts(events)
    assert "german order: ger-inf: Ambush" in texts, "the opponent learns only that unit N is on Ambush"
    shots = rolls(events)
    assert "ambush fire" in shots[0][0] and len(shots[0][1]) == 11, "INF row 10 dice + 1"
    sov = g.state.units["sov-inf"]
    assert S(sov).suppressed and sov.hex == P("0502"), "the failed test cancels its move"
    assert not S(g.state.units["ger-inf"]).hidden, "an ambusher that fires is revealed"


def test_3_11_hidden_units_are_off_the_opponents_view_and_cannot_be_targeted() -> None:
    sc = scenario([("ger-inf", "DE-INF", "0505"), ("sov-inf", "SU-INF", "0802")], terrain={"0505": "b"})
    g = game(sc)
    play_round(g, ["ambush ger-inf 0504 2"], [])
    assert S(g.state.units["ger-inf"]).hidden
    assert g.view("soviet").units["ger-inf"].hex is None
    assert D(g.state).last_seen == {"ger-inf": P("0505")}
    g.apply("ambush ger-inf 0504 2", side="german")
    g.apply("commit", side="german")
    assert "fire sov-inf ger-inf" not in [str(a) for a in g.legal_actions()]


def test_dr13_3_11_moving_into_a_hidden_unit_stops_next_to_it() -> None:
    sc = scenario([("ger-inf", "DE-INF", "0505"), ("sov-pz", "SU-T26", "0507")], terrain={"0505": "b"})
    g = game(sc)
    play_round(g, ["ambush ger-inf 0504 1"], [])
    assert S(g.state.units["ger-inf"]).hidden
    play_round(g, ["ambush ger-inf 0504 1"], ["move sov-pz 0506 0505"])
    assert g.state.units["sov-pz"].hex == P("0506")
    assert not S(g.state.units["ger-inf"]).hidden, "revealed by the adjacent enemy"


def test_dr14_3_11_vehicles_hide_in_step_9_of_the_second_round() -> None:
    sc = scenario([("ger-pz", "DE-PZ2", "0505"), ("sov-hq", "SU-HQ", "1010")], terrain={"0505": "l"})
    g = game(sc)
    play_round(g, ["ambush ger-pz 0504 2"], [])
    assert not S(g.state.units["ger-pz"]).hidden
    events = play_round(g, ["ambush ger-pz 0504 2"], [])
    hid = next(i for i, e in enumerate(events) if e.kind == "hidden")
    assert [e.data["step"] for e in events[:hid] if e.kind == "step"][-1] == 9


# --- Engineers' works, supply, towing (9.9, 9.10, 9.16) -----------------------------------------------


def test_9_10_entrench_digs_a_trench_with_defence_zero_meanwhile() -> None:
    rs = ruleset()
    sc = scenario([("ger-inf", "DE-INF", "0505"), ("sov-hq", "SU-HQ", "1010")])
    g = game(sc)
    play_round(g, ["entrench ger-inf 0504"], [])
    inf = g.state.units["ger-inf"]
    assert S(inf).ongoing.kind == "entrench" and defence_now(rs, g.state, inf)[0] == 0
    play_round(g, [], [])
    assert labels(D(g.state).structures.trenches) == {"0505": 0}


def test_9_16_receive_supply_from_a_truck() -> None:
    sc = scenario([("ger-inf", "DE-INF", "0505", {"ammo": 2}), ("ger-opel", "DE-OPEL", "0505"),
                   ("sov-hq", "SU-HQ", "1010")])  # fmt: skip
    g = game(sc)
    play_round(g, ["supply ger-inf ger-opel", "supply ger-opel"], [])
    assert S(g.state.units["ger-inf"]).ammo == 6
    assert S(g.state.units["ger-opel"]).cargo_ammo == 26


def test_ex11_9_16_transport_cargo_loss() -> None:
    sc = scenario([("ger-opel", "DE-OPEL", "0505"), ("sov-hq", "SU-HQ", "1010")])
    g = game(sc)
    st = g.state.clone()
    run_frame(st, Losses("ger-opel", 1, "test"))
    assert (S(st.units["ger-opel"]).cargo_ammo, S(st.units["ger-opel"]).cargo_mines) == (24, 3)
    run_frame(st, Losses("ger-opel", 1, "test"))
    assert S(st.units["ger-opel"]).cargo_ammo == 18, "(24 + 6) / 5 = 6 per truck"


def test_ex10_9_9_towing_and_shared_losses() -> None:
    sc = scenario([("sov-zis", "SU-ZIS5", "0505"), ("sov-at", "SU-AT", "0505", {"facing": "0504", "deployed": False}),
                   ("ger-hq", "DE-HQ", "0101")])  # fmt: skip
    g = game(sc, [6, 6])
    g.apply("commit", side="german")
    g.apply("tow sov-zis sov-at", side="soviet")
    g.apply("tow sov-at sov-zis", side="soviet")
    g.apply("commit", side="soviet")
    st = g.state.clone()
    at, zis = st.units["sov-at"], st.units["sov-zis"]
    assert S(at).towed and S(at).carried_by == "sov-zis"
    tr = Transition(st)
    run_frame(st, Losses("sov-zis", 1, "test"), tr=tr)
    assert zis.steps == 4 and at.steps == 1, "the guns take the same loss despite their defence 1"
    st.dice = ScriptedDice([6, 6])
    assert not bravery_test(ruleset(), tr, st, zis, "loss")
    assert S(at).suppressed and not S(at).towed and at.hex == zis.hex, "suppressed, unhitched"


def test_6_9_fire_at_location_with_the_adjacent_row_fig13() -> None:
    units = [("sov-bm13", "SU-BM13", "0905", {"facing": "0805"}), ("sov-hq", "SU-HQ", "1010"),
             ("ger-inf", "DE-INF", "0505"), ("ger-inf2", "DE-INF", "0504"), ("ger-hq", "DE-HQ", "0101")]  # fmt: skip
    sc = scenario(units)
    g = game(sc, [6] * 16 + [6] * 4)
    S(g.state.units["ger-hq"]).concealed = False
    g.apply("commit", side="german")
    g.apply("location sov-bm13 0505", side="soviet")
    events = list(g.apply("commit", side="soviet"))
    sizes = {p.split(" at ")[-1].split(",")[0]: len(d) for p, d in rolls(events) if "fire at location" in p}
    assert sizes == {"ger-inf": 16, "ger-inf2": 4}, "16 dice in the target hex, 4 next to it (Fig. 13)"


# --- Mines (9.6, 9.7) ----------------------------------------------------------------------------------


def _mined(g, label: str, owner: str, kind: str):  # type: ignore[no-untyped-def]
    D(g.state).minefields[P(label)] = Minefield(owner, kind)
    return g


def test_dr10_9_7_anti_tank_mines_under_a_tank() -> None:
    sc = scenario([("ger-pz", "DE-PZ2", "0503"), ("sov-hq", "SU-HQ", "1010")])
    g = _mined(game(sc, [1, 1, 1, 1, 6, 6, 6, 6]), "0504", "soviet", "anti_tank")
    assert P("0504") not in D(g.view("german")).minefields, "the minefield is secret"
    events = play_round(g, ["move ger-pz 0504 0505"], [])
    mine_roll = next(d for p, d in rolls(events) if "mines at 0504" in p)
    assert len(mine_roll) == 6
    pz = g.state.units["ger-pz"]
    assert pz.hex == P("0504") and pz.steps == 2, "stops in the minefield; 4 hits − defence 3 (Cautious) = 1 loss"
    assert D(g.state).minefields[P("0504")].revealed, "the minefield stays, revealed"


def test_dr11_9_6_anti_personnel_mines_do_not_affect_tanks() -> None:
    sc = scenario([("ger-pz", "DE-PZ2", "0503"), ("sov-hq", "SU-HQ", "1010")])
    g = _mined(game(sc), "0504", "soviet", "anti_personnel")
    events = play_round(g, ["move ger-pz 0504 0505"], [])
    assert g.state.units["ger-pz"].hex == P("0504") and not rolls(events)
    assert any("no effect" in t for t in event_texts(events))


def test_dr12_9_7_engineers_detect_mines_and_must_clear_them() -> None:
    sc = scenario([("ger-pio", "DE-PIO", "0503"), ("sov-hq", "SU-HQ", "1010")], turns=6)
    g = _mined(game(sc, [6] * 6), "0504", "soviet", "anti_personnel")
    events = play_round(g, ["move ger-pio 0504"], [])
    assert not rolls(events), "an engineer entering a minefield sets nothing off"
    events = play_round(g, ["hold ger-pio"], [])
    assert any("mines at 0504" in p for p, _ in rolls(events)), "another order: the mines explode"
    play_round(g, ["clearmines ger-pio"], [])
    play_round(g, [], [])
    assert P("0504") not in D(g.state).minefields


def test_9_6_engineers_lay_a_secret_minefield() -> None:
    sc = scenario([("ger-pio", "DE-PIO", "0503", {"mines": True}), ("sov-hq", "SU-HQ", "1010")])
    g = game(sc)
    events = play_round(g, ["mines ger-pio at"], [])
    assert "german order: ger-pio: Lay mines" in event_texts(events)
    ongoing = S(g.view("soviet").units["ger-pio"]).ongoing
    assert ongoing is not None and ongoing.mine is None, "the kind is secret (9.6)"
    play_round(g, [], [])
    assert D(g.state).minefields == {P("0503"): Minefield("german", "anti_tank")}
    assert D(g.view("soviet")).minefields == {}
    assert "mines" not in to_plain(g.view("soviet").units["ger-pio"].status), "the used-mine status is secret (15.1)"
    assert "rule 9.6" in refusal(g, "mines ger-pio at", "german")


def test_9_10_remove_tank_obstacle() -> None:
    sc = scenario([("ger-pio", "DE-PIO", "0504"), ("ger-pz", "DE-PZ2", "0604"), ("sov-hq", "SU-HQ", "1010")])
    g = _with_structures(game(sc), teeth=[["0504", "0505"], ["0604", "0605"]])
    assert "rule 9.18.4" in refusal(g, "move ger-pz 0605", "german")
    play_round(g, ["unteeth ger-pio 0505"], [])
    play_round(g, [], [])
    assert D(g.state).structures.teeth == [(P("0604"), P("0605"))]


def test_9_10_clear_a_path_through_woods() -> None:
    sc = scenario([("ger-pio", "DE-PIO", "0504"), ("ger-pz", "DE-PZ2", "0404"), ("sov-hq", "SU-HQ", "1010")],
                  terrain={"0504": "W"}, turns=5)  # fmt: skip
    g = game(sc)
    assert "rule 10.5" in refusal(g, "move ger-pz 0504", "german")
    play_round(g, ["clearpath ger-pio"], [])
    play_round(g, [], [])
    assert D(g.state).structures.paths == [P("0504")]
    g.apply("move ger-pz 0504", side="german")


def test_9_10_pontoon_bridge_needs_its_manpower() -> None:
    sc = scenario([("ger-pio", "DE-PIO", "0504"), ("ger-pio2", "DE-PIO", "0506"), ("sov-hq", "SU-HQ", "1010")],
                  terrain={"0505": "~"}, turns=6)  # fmt: skip
    g = game(sc)
    play_round(g, ["pontoon ger-pio 0505"], [])
    assert not S(g.state.units["ger-pio"]).ongoing, "one engineer is not enough (manpower 2)"
    for _ in range(3):
        play_round(g, ["pontoon ger-pio 0505", "pontoon ger-pio2 0505"] if _ == 0 else [], [])
    assert D(g.state).structures.pontoons == [P("0505")]
    g.apply("move ger-pio 0505", side="german")


def test_9_16_load_supply_on_the_supply_edge() -> None:
    sc = scenario([("ger-opel", "DE-OPEL", "0105", {"cargo_ammo": 10}), ("sov-hq", "SU-HQ", "1010")], map_text=MAP_A)
    g = game(sc)
    play_round(g, ["load ger-opel"], [])
    play_round(g, [], [])
    assert S(g.state.units["ger-opel"]).cargo_ammo == 30


def test_9_18_6_dugout_occupants_defence_and_destruction() -> None:
    rs = ruleset()
    sc = scenario([("sov-inf", "SU-INF", "0505"), ("ger-mor", "DE-MOR", "0305", {"facing": "0405"}),
                   ("ger-hq", "DE-HQ", "0101")])  # fmt: skip
    g = _with_structures(game(sc, [6] * 30), dugouts={"0505": {"facing": 4, "hits": 0}})
    play_round(g, [], ["defend sov-inf 0504 1"])
    st = g.state.clone()
    sov = st.units["sov-inf"]
    assert S(sov).in_dugout and S(sov).facing == 4
    S(sov).bonus = 1
    assert defence_now(rs, st, sov)[0] == 4, "base 1 + Defend 1 + dugout 2"
    g.state.dice = ScriptedDice([1, 3, 6, 6, 6, 6, 6, 6])
    play_round(g, ["fire ger-mor 0505"], ["defend sov-inf 0504 1"])
    assert P("0505") not in D(g.state).structures.dugouts and g.state.units["sov-inf"].steps == 5


def test_9_3_withdraw_into_an_adjacent_hex_then_move() -> None:
    sc = scenario([("ger-mg", "DE-MG", "0505", {"facing": "0504"}), ("sov-hq", "SU-HQ", "1010")])
    g = game(sc)
    assert "rule 9.3" in refusal(g, "move ger-mg 0506", "german"), "deployed: Withdraw first"
    play_round(g, ["withdraw ger-mg 0506"], [])
    mg = g.state.units["ger-mg"]
    assert mg.hex == P("0506") and S(mg).deployed is False
    g.apply("move ger-mg 0507", side="german")


def test_9_3_withdraw_names_its_own_hex_only_by_leaving_it_out() -> None:
    """9.3: the destination is the unit's hex or an adjacent one; the bare order stays where it stands, so the hex
    written is an adjacent one (one way to write each order, as legal_actions lists it)."""
    sc = scenario([("ger-mg", "DE-MG", "0505", {"facing": "0504"}), ("sov-hq", "SU-HQ", "1010")])
    g = game(sc)
    assert "rule 9.3" in refusal(g, "withdraw ger-mg 0505", "german")
    assert "rule 9.3" in refusal(g, "withdraw ger-mg 0507", "german"), "two hexes away"
    listed = {a.notation for a in g.legal_actions("german") if a.verb == "withdraw"}
    assert listed == {"withdraw ger-mg"} | {f"withdraw ger-mg {g.board.label(n)}" for n in P("0505").neighbours()}


def test_9_2_deploy_into_an_adjacent_hex_is_listed_with_every_facing() -> None:
    """9.2: Deploy names the hex the unit moves into (its own or an adjacent one) and a facing hex next to it; every
    such order check accepts is listed, so that the AI and the order entry can choose it."""
    sc = scenario([("ger-mg", "DE-MG", "0505", {"facing": "0504"}), ("sov-hq", "SU-HQ", "1010")])
    g = game(sc)
    play_round(g, ["withdraw ger-mg"], [])
    assert S(g.state.units["ger-mg"]).deployed is False
    listed = {a.notation for a in g.legal_actions("german") if a.verb == "deploy"}
    assert "deploy ger-mg 0507 0506" in listed, "move to 0506, facing 0507"
    assert "deploy ger-mg 0504" in listed, "where it stands"
    for text in sorted(listed):
        g.check(text, side="german")
    assert "rule 9.2" in refusal(g, "deploy ger-mg 0504 0505", "german"), "its own hex: leave it out"
    play_round(g, ["deploy ger-mg 0507 0506"], [])
    assert g.state.units["ger-mg"].hex == P("0506")


def test_9_6_engineers_take_a_mine_from_a_truck() -> None:
    sc = scenario([("ger-pio", "DE-PIO", "0505"), ("ger-opel", "DE-OPEL", "0505"), ("sov-hq", "SU-HQ", "1010")])
    g = game(sc)
    assert "rule 9.6" in refusal(g, "mines ger-pio at", "german")
    play_round(g, ["supply ger-pio ger-opel", "supply ger-opel"], [])
    assert S(g.state.units["ger-pio"]).mines and S(g.state.units["ger-opel"]).cargo_mines == 2
    g.apply("mines ger-pio at", side="german")


def test_6_6_group_fire_seed_example() -> None:
    """The seed's example: an MG with firepower 10 at four infantry units in one hex: 6 hits and 4 misses, then
    2 dice at the second unit (no hit), then 1 die at the third, and no attack on the fourth."""
    infantry = [(f"ger-inf{i}", "DE-INF", "0505") for i in range(1, 5)]
    units = [("sov-mg", "SU-MG", "0503", {"facing": "0504"}), *infantry]
    g = game(scenario(units), [1, 1, 1, 1, 1, 1, 6, 6, 6, 6, 6, 6, 6])  # 6 hits, 4 misses; 2 misses; 1 miss
    events = play_round(g, [], ["fire sov-mg ger-inf1"])
    assert [(p.split(" at ")[-1].split(",")[0].split(" ")[0], len(d)) for p, d in rolls(events)] == [
        ("ger-inf1", 10), ("ger-inf2", 2), ("ger-inf3", 1)]  # fmt: skip
    assert g.state.units["ger-inf1"].steps == 0, "6 hits − defence 1 = 5 losses"


def test_ex16_9_11_hq_command_range_and_morale() -> None:
    rs = ruleset()
    units = [("ger-hq", "DE-HQ", "0505"), ("ger-a", "DE-INF", "0507"), ("ger-b", "DE-INF", "0508"),
             ("ger-c", "DE-INF", "0705"), ("sov-hq", "SU-HQ", "1010")]  # fmt: skip
    sc = scenario(units, terrain={"0604": "W", "0605": "W"})
    g = game(sc)
    st = g.state
    assert bravery_target(rs, st, st.units["ger-a"])[0] == 11, "distance 2, in sight: +2"
    assert bravery_target(rs, st, st.units["ger-b"])[0] == 9, "distance 3: outside the command range"
    assert bravery_target(rs, st, st.units["ger-hq"])[0] == 11, "the HQ itself"
    assert bravery_target(rs, st, st.units["ger-c"])[0] == 9, "distance 2 but the woods hide the HQ"


# --- Aircraft: air strikes, flak, the airfield (9.11-9.15) ---------------------------------------------


def _air(map_a: bool = True, turns: int = 6):  # type: ignore[no-untyped-def]
    units = [("ger-hq", "DE-HQ", "0104"), ("ger-stuka", "DE-STUKA", "0101"), ("ger-inf", "DE-INF", "1204"),
             ("sov-flak", "SU-FLAK", "1005"), ("sov-inf", "SU-INF", "1205")]  # fmt: skip
    return scenario(units, map_text=MAP_A if map_a else None, turns=turns)


def test_ex14_9_13_flak_fires_only_at_a_path_within_its_range() -> None:
    g = game(_air(), [6] * 6 + [6] * 8)
    events = play_round(g, ["airstrike ger-stuka 0105 0101"], ["defend sov-flak 1004 1"])
    assert not [p for p, _ in rolls(events) if "flak" in p], "the white path never comes within 4 hexes"
    g = game(_air(), [6] * 6 + [6] * 8 + [1, 1])
    events = play_round(g, ["airstrike ger-stuka 1205 0110"], ["defend sov-flak 1004 1"])
    assert [len(d) for p, d in rolls(events) if "flak" in p] == [6], "one shot on entering its range of 4 (9.13)"
    assert [len(d) for p, d in rolls(events) if "air strike" in p] == [8], "then the Stuka bombs the infantry"
    assert any("bravery test of sov-inf" in p for p, _ in rolls(events)), "bombed: a test even without losses"


def test_ex22_9_12_aircraft_preparation_timeline() -> None:
    g = game(_air(), [6] * 8 + [1, 1])
    play_round(g, ["airstrike ger-stuka 1205 0110"], [])
    stuka = g.state.units["ger-stuka"]
    assert S(stuka).air.target == P("1205"), "it stays over the target"
    play_round(g, [], [])
    assert S(g.state.units["ger-stuka"]).prep == 2, "returned in step 5 (I), box II in step 12"
    play_round(g, [], [])
    assert "rule 9.12" in refusal(g, "airstrike ger-stuka 1205 0110", "german")
    play_round(g, [], [])
    assert S(g.state.units["ger-stuka"]).prep == 4
    g.apply("airstrike ger-stuka 1205 0110", side="german")


def test_dr19_9_11_no_launch_without_an_unsuppressed_hq() -> None:
    g = game(_air())
    S(g.state.units["ger-hq"]).suppressed = True
    assert "rule 9.11" in refusal(g, "airstrike ger-stuka 1205 0110", "german")


def test_9_15_2_intercept_breaks_up_an_air_strike() -> None:
    units = [("ger-hq", "DE-HQ", "0104"), ("ger-stuka", "DE-STUKA", "0101"), ("ger-inf", "DE-INF", "1204"),
             ("sov-hq", "SU-HQ", "1410"), ("sov-i16", "SU-I16", "1401"), ("sov-inf", "SU-INF", "1205")]  # fmt: skip
    g = game(scenario(units, map_text=MAP_A), [1, 1, 6, 6, 6, 6, 6, 6])  # I-16 (2 hits), Stuka (miss), its test
    events = play_round(g, ["airstrike ger-stuka 1205 0110"], ["intercept sov-i16 ger-stuka 1401"])
    assert [len(d) for p, d in rolls(events) if p.startswith("air combat")] == [5, 1], "AIR rows: I-16 5, Stuka 1"
    stuka = g.state.units["ger-stuka"]
    assert stuka.steps == 1 and S(stuka).suppressed and S(stuka).prep == 2, "aborted and landed"
    assert not [p for p, _ in rolls(events) if "air strike" in p], "air combat cancels the strike"
    assert S(g.state.units["sov-i16"]).ammo == 2


def test_9_15_5_air_patrol_fights_an_aircraft_entering_its_zone() -> None:
    units = [("ger-hq", "DE-HQ", "0104"), ("ger-stuka", "DE-STUKA", "0101"), ("ger-inf", "DE-INF", "1204"),
             ("sov-hq", "SU-HQ", "1410"), ("sov-i16", "SU-I16", "1401"), ("sov-inf", "SU-INF", "1205")]  # fmt: skip
    g = game(scenario(units, map_text=MAP_A), [6] * 30)
    play_round(g, [], ["patrol sov-i16 1205 2 3 1401"])
    i16 = g.state.units["sov-i16"]
    assert S(i16).air.patrol and S(i16).air.aloft == 1, "on station, one round aloft"
    events = play_round(g, ["airstrike ger-stuka 1205 0110"], [])
    assert any("air combat over" in t for t in event_texts(events)), "the Stuka enters the patrolled area"
    assert not [p for p, _ in rolls(events) if p.startswith("air strike")], "its strike is cancelled"
    g2 = game(scenario(units, map_text=MAP_A))
    g2.apply("commit", side="german")
    assert "rule 9.15.5" in refusal(g2, "patrol sov-i16 1205 3 3 1401", "soviet"), "radius at most 2"


def test_9_15_7_escort_takes_on_the_attacker_and_the_strike_goes_in() -> None:
    units = [("ger-hq", "DE-HQ", "0104"), ("ger-inf", "DE-INF", "1204"), ("ger-fighter", "SU-I16", "0101"),
             ("sov-hq", "SU-HQ", "1206"), ("sov-a", "SU-I16", "1401"), ("sov-b", "SU-I16", "1402"),
             ("sov-inf", "SU-INF", "1104")]  # fmt: skip
    g = game(scenario(units, map_text=MAP_A), [6] * 60)
    g.state.units["ger-fighter"].side = "german"  # a German fighter for the test (the roster has none)
    play_round(g, ["patrol ger-fighter 1204 2 3 0104"], [])
    events = play_round(g, [], ["airstrike sov-a 1204 1404", "escort sov-b sov-a"])
    texts = event_texts(events)
    assert any("air combat over" in t and "sov-b" in t and "ger-fighter" in t for t in texts), texts
    assert [p for p, _ in rolls(events) if p.startswith("air strike: sov-a")], "the escorted aircraft strikes"


def _fighters() -> list[tuple[str, str, str]]:
    return [("ger-hq", "DE-HQ", "0104"), ("ger-stuka", "DE-STUKA", "0101"), ("ger-inf", "DE-INF", "1204"),
            ("sov-hq", "SU-HQ", "1410"), ("sov-a", "SU-I16", "1401"), ("sov-b", "SU-I16", "1402"),
            ("sov-inf", "SU-INF", "1205")]  # fmt: skip


def test_dr20_9_14_interceptors_of_one_target_fight_it_together_and_it_fires_at_the_first() -> None:
    g = game(scenario(_fighters(), map_text=MAP_A), [6] * 60)  # every shot misses
    g.state.units["sov-a"].steps = 1  # bravery 8 - 1 = 7: sov-b (8) is the first
    events = play_round(g, ["airstrike ger-stuka 1205 0110"],
                        ["intercept sov-a ger-stuka 1401", "intercept sov-b ger-stuka 1402"])  # fmt: skip
    texts = event_texts(events)
    assert "air combat over 1205: sov-b, sov-a against ger-stuka (rule 9.14)" in texts, "one combat, both together"
    shots = [p for p, _ in rolls(events) if p.startswith("air combat")]
    assert shots[:3] == [
        "air combat: sov-b at ger-stuka (rule 9.14)",
        "air combat: sov-a at ger-stuka (rule 9.14)",
        "air combat: ger-stuka at sov-b (rule 9.14)",
    ], "the Stuka fires at the first interceptor"
    assert len(shots) == 3 + 3 + 2, "three rounds; the Stuka's 2 ammunition last two rounds (1 per round)"
    for uid in ("sov-a", "sov-b", "ger-stuka"):
        u = g.state.units[uid]
        assert S(u).ammo == 0 and S(u).boxes == 3, f"{uid}: 1 ammunition and 1 time box per round"
    assert sum("low on fuel" in t for t in texts) == 3, "all time boxes marked: every aircraft returns"
    assert not [p for p, _ in rolls(events) if p.startswith("air strike")], "the attacked Stuka's strike is cancelled"


def _plane(uid: str, code: str, side: str, steps: int | None = None, **air: object) -> engine.state.Unit:
    size = ruleset().tables.units[code].size
    return engine.state.Unit(uid, code, side, None, size if steps is None else steps, None,
                             AotStatus(air=AirMission(P("0505"), 1, **air)))  # type: ignore[arg-type]  # fmt: skip


def test_dr20_9_14_fighters_are_engaged_before_the_escorted_aircraft() -> None:
    from engine.rulesets.art_of_tactic.air import pair_duels  # noqa: PLC0415

    rs = ruleset()
    strike = _plane("sov-a", "SU-I16", "soviet")  # an I-16 on an air strike, escorted by sov-b
    escort = _plane("sov-b", "SU-I16", "soviet", escorting="sov-a")
    one = _plane("ger-1", "SU-I16", "german", intercept=True)
    two = _plane("ger-2", "SU-I16", "german", steps=1, intercept=True)

    def no_roll(sides: list[str]) -> str:
        raise AssertionError("the choosing order changes nothing here: no roll")

    assert pair_duels(rs, [one, strike, escort], no_roll) == {"ger-1": "sov-b", "sov-b": "ger-1"}, (
        "9.15.7: the escort takes on the single attacker; the escorted aircraft goes on unharmed"
    )
    assert pair_duels(rs, [one, two, strike, escort], no_roll) == {
        "ger-1": "sov-b", "sov-b": "ger-1", "ger-2": "sov-a", "sov-a": "ger-2",
    }, "the escort is engaged first; the spare fighter may then attack the escorted aircraft"  # fmt: skip
    three = _plane("ger-3", "SU-I16", "german", intercept=True)
    got = pair_duels(rs, [one, two, three, strike, escort], no_roll)
    assert got["ger-3"] == "sov-a", "ger-3 (bravery 8) chooses before ger-2 (7): the escorted aircraft is free"
    assert got["ger-2"] == "sov-a" and got["sov-a"] == "ger-3", "every enemy in a duel: ger-2 shares one (9.14)"


def test_dr20_9_14_tied_bravery_dice_decide_who_chooses_when_it_matters() -> None:
    from engine.rulesets.art_of_tactic.air import pair_duels  # noqa: PLC0415

    rs = ruleset()
    planes = [
        _plane("ger-a", "SU-I16", "german"),  # a fighter on a strike: it does not choose
        _plane("ger-f", "SU-I16", "german", patrol=True, radius=1),
        _plane("sov-1", "SU-I16", "soviet", patrol=True, radius=1),
        _plane("sov-2", "SU-I16", "soviet", steps=1, patrol=True, radius=1),
    ]
    asked: list[list[str]] = []

    def roll_off(winner: str) -> object:
        def pick(sides: list[str]) -> str:
            asked.append(sorted(sides))
            return winner

        return pick

    german_first = pair_duels(rs, planes, roll_off("german"))  # type: ignore[arg-type]
    assert german_first == {"ger-f": "sov-1", "sov-1": "ger-f", "sov-2": "ger-a", "ger-a": "sov-2"}
    soviet_first = pair_duels(rs, planes, roll_off("soviet"))  # type: ignore[arg-type]
    assert soviet_first == {"sov-1": "ger-a", "ger-a": "sov-1", "ger-f": "sov-2", "sov-2": "ger-f"}
    assert asked == [["german", "soviet"], ["german", "soviet"]]


def test_9_14_overlapping_patrol_zones_fight() -> None:
    units = [("ger-hq", "DE-HQ", "0104"), ("ger-f", "SU-I16", "0101"), ("ger-inf", "DE-INF", "0204"),
             ("sov-hq", "SU-HQ", "1410"), ("sov-p", "SU-I16", "1401"), ("sov-inf", "SU-INF", "1205")]  # fmt: skip
    g = game(scenario(units, map_text=MAP_A), [6] * 60)
    g.state.units["ger-f"].side = "german"  # a German fighter for the test (the roster has none)
    events = play_round(g, ["patrol ger-f 0705 2 3 0104"], ["patrol sov-p 1005 1 3 1401"])
    assert "air combat over 0705: ger-f against sov-p (rule 9.14)" in event_texts(events), "3 apart, radii 2 + 1"
    g = game(scenario(units, map_text=MAP_A), [6] * 60)
    g.state.units["ger-f"].side = "german"
    events = play_round(g, ["patrol ger-f 0605 2 3 0104"], ["patrol sov-p 1005 1 3 1401"])
    assert not any("air combat" in t for t in event_texts(events)), "4 apart: the zones do not overlap"


def _two_stukas() -> list[tuple[str, str, str]]:
    return [("ger-hq", "DE-HQ", "0104"), ("ger-s1", "DE-STUKA", "0101"), ("ger-s2", "DE-STUKA", "0102"),
            ("ger-inf", "DE-INF", "1204"), ("sov-hq", "SU-HQ", "1410"), ("sov-flak", "SU-FLAK", "1005"),
            ("sov-inf", "SU-INF", "1205"), ("sov-i", "SU-I16", "1401")]  # fmt: skip


def test_9_19_flights_advance_together_one_hex_per_flight_step() -> None:
    g = game(scenario(_two_stukas(), map_text=MAP_A), [6] * 80)
    events = play_round(g, ["airstrike ger-s1 1205 0110", "airstrike ger-s2 1104 1001"], ["defend sov-flak 1004 1"])
    flak = [p for p, _ in rolls(events) if p.startswith("flak")]
    assert flak[:2] == [
        "flak: sov-flak at ger-s2 over 1001 (rule 9.13)",  # flight step 0: ger-s2 starts within range 4
        "flak: sov-flak at ger-s1 over 0607 (rule 9.13)",  # flight step 6: ger-s1 comes within range
    ], "not ger-s1's whole flight first"


def test_9_19_a_patrol_zone_is_active_once_on_station_and_fights_before_later_flak() -> None:
    g = game(scenario(_two_stukas(), map_text=MAP_A), [6] * 80)  # every shot misses
    events = play_round(g, ["airstrike ger-s1 1205 0110"], ["defend sov-flak 1004 1", "patrol sov-i 0508 1 3 0110"])
    texts = event_texts(events)
    # Both fly 0110 0209 0309 0408 0508: the patrol takes station at 0508 after flight step 4, so the Stuka (at
    # 0408 in step 3, 0508 in step 4) is caught in step 5 at 0608, still in the zone.
    assert "air combat over 0608: sov-i against ger-s1 (rule 9.14)" in texts
    assert not [p for p, _ in rolls(events) if p.startswith("flak")], "low on fuel, it goes home before the flak"
    assert "ger-s1 returns to its airfield: low on fuel (rule 9.12)" in texts


def _recon_game(dice: list[int]) -> engine.Game:
    units = [("ger-hq", "DE-HQ", "0104"), ("ger-r", "DE-RECON", "0101"), ("ger-inf", "DE-INF", "0605"),
             ("ger-mor", "DE-MOR", "0305", {"facing": "0405"}), ("sov-hq", "SU-HQ", "0907"),
             ("sov-inf", "SU-INF", "0806"), ("sov-mg", "SU-MG", "1206", {"facing": "1106"})]  # fmt: skip
    g = game(scenario(units, terrain={"0806": "b"}), dice)
    play_round(g, [], ["ambush sov-inf 0706 2"])
    assert S(g.state.units["sov-inf"]).hidden
    return g


def test_9_15_3_recon_finds_hidden_units_and_the_hq_within_its_radius() -> None:
    g = _recon_game([5] + [6] * 40)  # radius 1: found on 5 or less (12.5)
    events = play_round(g, ["recon ger-r 0806 1 2 0110"], ["ambush sov-inf 0706 2"])
    assert ("recon: ger-r searches within 1 of 0806 (rule 9.15.3)", [5]) in rolls(events)
    texts = event_texts(events)
    assert "sov-inf is revealed at 0806: ger-r spots it from the air (rule 9.15.3)" in texts
    assert "sov-hq is found at 0907 by ger-r (rule 9.15.3)" in texts, "0907 is 1 from 0806"
    r = g.state.units["ger-r"]
    assert S(r).air.recon and S(r).air.aloft == 1, "on station: one round aloft"
    events = play_round(g, [], [])
    assert [p for p, _ in rolls(events) if p.startswith("recon")], "one detection roll a round while on station"
    assert "ger-r returns to its airfield: its reconnaissance is over (rule 9.12)" in event_texts(events)


def test_9_15_3_recon_roll_above_the_table_finds_nothing() -> None:
    g = _recon_game([6] * 40)
    events = play_round(g, ["recon ger-r 0806 1 2 0110"], ["ambush sov-inf 0706 2"])
    assert ("recon: ger-r searches within 1 of 0806 (rule 9.15.3)", [6]) in rolls(events)
    assert S(g.state.units["sov-inf"]).hidden and S(g.state.units["sov-hq"]).concealed


def test_9_15_3_recon_radius_and_duration_are_card_limited() -> None:
    g = _recon_game([6] * 40)
    assert "rule 9.15.3" in refusal(g, "recon ger-r 0806 4 2 0110", "german"), "observation zone 3"
    assert "rule 9.15.3" in refusal(g, "recon ger-r 0806 1 4 0110", "german"), "3 time boxes"
    assert "rule 12.5" in refusal(game(engine.load_scenario("art_of_tactic", "p3-stuetzpunkt")),
                                  "buy SU-RECON", "soviet"), "12.5: not in the roster"  # fmt: skip


def test_9_15_3_recon_directs_indirect_fire_in_its_whole_observation_zone() -> None:
    from engine.rulesets.art_of_tactic.combat import indirect_problem  # noqa: PLC0415

    units = [("ger-hq", "DE-HQ", "0104"), ("ger-r", "DE-RECON", "0101"),
             ("ger-mor", "DE-MOR", "0305", {"facing": "0405"}), ("sov-hq", "SU-HQ", "1407"),
             ("sov-inf", "SU-INF", "0806")]  # fmt: skip
    g = game(scenario(units, terrain={"0505": "W", "0506": "W", "0405": "W", "0406": "W", "0404": "W"}))
    st, rs = g.state, ruleset()
    mor, target = st.units["ger-mor"], st.units["sov-inf"]
    assert indirect_problem(rs, st, mor, target) == "no friendly unit sees the target (observer)"
    S(st.units["ger-r"]).air = AirMission(P("0505"), 1, recon=True, radius=0, rounds=2)
    assert indirect_problem(rs, st, mor, target) == "", "0806 is 3 from the centre: in the observation zone"
    S(st.units["ger-r"]).air.target = P("0405")  # type: ignore[union-attr]
    assert indirect_problem(rs, st, mor, target) != "", "4 away: outside it"


def test_g19_reconnoitre_reveals_hidden_units_in_sight_within_3_hexes(monkeypatch: pytest.MonkeyPatch) -> None:
    import dataclasses  # noqa: PLC0415

    t = ruleset().tables
    inf = t.units["DE-INF"]  # no roster card prints Reconnoitre (G19): give it to the German infantry here
    monkeypatch.setitem(t.units, "DE-INF", dataclasses.replace(inf, orders={**inf.orders, "reconnoitre": {}}))  # type: ignore[index]
    assert int(t.rules["reconnoitre"]["range"]) == 3
    g = _recon_game([6] * 40)
    assert "reconnoitre ger-inf" in [str(a) for a in g.legal_actions()]
    events = play_round(g, ["reconnoitre ger-inf"], ["ambush sov-inf 0706 2"])
    texts = event_texts(events)
    assert "sov-inf is revealed at 0806: ger-inf reconnoitres (rule G19)" in texts, "2 hexes away, in sight"
    st, rs = g.state, ruleset()
    if line_of_sight(st.board, rs.policy, parse_hex("0605"), parse_hex("0907"), frozenset()).visible:
        assert "sov-hq is found at 0907 by ger-inf (rule G19)" in texts, "3 hexes away, in sight"
    else:
        assert S(st.units["sov-hq"]).concealed, "3 hexes away but out of sight: not found"
    assert not rolls(events)[:1] or "reconnoitre" not in rolls(events)[0][0], "no roll"


def _drop_game(dice: list[int]) -> engine.Game:
    units = [("ger-hq", "DE-HQ", "0104"), ("ger-ju", "DE-JU52", "0101"), ("ger-inf", "DE-INF", "0605", {"ammo": 1}),
             ("sov-hq", "SU-HQ", "1410"), ("sov-flak", "SU-FLAK", "1005"), ("sov-inf", "SU-INF", "1208")]  # fmt: skip
    return game(scenario(units, map_text=MAP_A), dice)


def test_9_15_6_supply_drop_places_a_crate_in_step_9_that_units_draw_from() -> None:
    g = _drop_game([6] * 40)
    events = play_round(g, ["drop ger-ju 0605 4 0105"], [])
    assert "ger-ju drops a supply crate with 20 ammunition at 0605 (rule 9.15.6)" in event_texts(events), "4 x 5"
    assert labels(D(g.state).crates) == {"0605": 20}
    assert "supply ger-inf crate" in [str(a) for a in g.legal_actions()]
    events = play_round(g, ["supply ger-inf crate"], [])
    inf = g.state.units["ger-inf"]
    assert S(inf).ammo == T_AMMO_INF and labels(D(g.state).crates) == {"0605": 20 - (T_AMMO_INF - 1)}


T_AMMO_INF = ruleset().tables.units["DE-INF"].ammo


def test_9_15_6_12_5_cargo_lost_with_the_transports_losses() -> None:
    g = _drop_game([1, 1] + [6] * 4 + [1, 1] + [6] * 40)  # flak: 2 hits (defence 1: one loss); its test passes
    events = play_round(g, ["drop ger-ju 0605 4 1001"], ["defend sov-flak 1004 1"])
    texts = event_texts(events)
    assert "ger-ju takes 1 loss (flak); 2 left" in texts
    assert "ger-ju drops a supply crate with 10 ammunition at 0605 (rule 9.15.6)" in texts, "4 - ⌈4/3⌉ = 2 units"


def test_9_15_6_cargo_within_the_card_limit() -> None:
    g = _drop_game([6] * 40)
    assert "rule 9.15.6" in refusal(g, "drop ger-ju 0605 5 0105", "german"), "12.5: cargo limit 4"
    assert "rule 9.15.6" in refusal(g, "supply ger-inf crate", "german"), "no crate yet"


def test_9_18_7_9_18_8_two_hits_destroy_a_pontoon_bridge() -> None:
    sc = scenario([("ger-mor", "DE-MOR", "0305", {"facing": "0405"}), ("sov-hq", "SU-HQ", "1010")],
                  terrain={"0505": "~"})  # fmt: skip
    g = game(sc, [1, 6, 6, 6, 6, 6, 6, 6] + [1, 6] + [6] * 20)
    D(g.state).structures.pontoons.append(P("0505"))  # built by engineers (9.10)
    assert P("0505") in ruleset().obstacles(g.state).pontoons
    events = play_round(g, ["fire ger-mor 0505"], [])
    assert "the pontoon bridge at 0505 takes 1 hit(s): 1 of 2" in event_texts(events)
    play_round(g, ["fire ger-mor 0505"], [])
    assert D(g.state).structures.pontoons == [], "the second hit destroys it"
    assert "rule 9.18.8" in refusal(g, "fire ger-mor 0505", "german"), "nothing left to fire at"


def _airland_game(dice: list[int]) -> engine.Game:
    units = [("ger-hq", "DE-HQ", "0104"), ("ger-ju", "DE-JU52", "0101"),
             ("ger-fj", "DE-FJ", "0101", {"airfield": True}), ("ger-inf", "DE-INF", "0605"),
             ("sov-hq", "SU-HQ", "1410"), ("sov-flak", "SU-FLAK", "1005"), ("sov-inf", "SU-INF", "1208")]  # fmt: skip
    return game(scenario(units, map_text=MAP_A), dice)


def test_9_15_4_airborne_landing_places_the_paratroopers_in_step_6() -> None:
    g = _airland_game([6] * 40)
    assert g.state.units["ger-fj"].hex is None, "on the airfield"
    events = play_round(g, ["airland ger-ju 0705 ger-fj 0105"], [])
    texts = event_texts(events)
    step6 = texts.index("Step 6: Assault and air strikes (rule 2.5)")
    assert texts.index("ger-fj lands at 0705 from ger-ju (rule 9.15.4)") > step6
    fj = g.state.units["ger-fj"]
    assert fj.hex == P("0705") and not S(fj).airfield and fj.steps == 3
    assert "move ger-fj 0706" in [str(a) for a in g.legal_actions()], "on the board: it takes orders"


def test_9_15_4_paratroopers_take_the_transports_losses() -> None:
    g = _airland_game([1, 1] + [6] * 4 + [1, 1] + [6] * 40)  # flak: 2 hits, one loss (defence 1); test passed
    events = play_round(g, ["airland ger-ju 1105 ger-fj 1001"], ["defend sov-flak 1004 1"])
    texts = event_texts(events)
    assert "ger-ju takes 1 loss (flak); 2 left" in texts
    assert "ger-fj takes 1 loss(es) with ger-ju; 2 left (rule 9.15.4)" in texts
    assert g.state.units["ger-fj"].steps == 2


def test_9_15_4_refusals_name_the_rule() -> None:
    g = _airland_game([6] * 40)
    assert "rule 9.15.4" in refusal(g, "airland ger-ju 0705 ger-inf 0105", "german"), "not a paratrooper"
    g.state.units["ger-ju"].steps = 2
    assert "rule 9.15.4" in refusal(g, "airland ger-ju 0705 ger-fj 0105", "german"), "size 3 > 2"


def test_ex01_6_1_a_fire_test_is_recorded_as_a_dice_pool() -> None:
    """6.1 steps 4–7: each die at or under the accuracy is a hit on its own, so the record counts the hits
    ("rolled 2 2 6 6 6: 2 at 2 or less") instead of adding the dice and naming a total to reach."""
    sc = scenario([("ger-b", "DE-PZ2", "0505"), ("ger-hq", "DE-HQ", "0101"), ("sov-a", "SU-T26", "0503")])
    g = game(sc, [2, 2, 6, 6, 6] + [1] * 7)
    events = play_round(g, ["fire ger-b sov-a"], ["fire sov-a ger-b"])
    fire = [e for e in events if e.kind == "roll" and e.data.get("dice") == [2, 2, 6, 6, 6]]
    assert len(fire) == 1
    accuracy = fire[0].data["pool"]
    assert fire[0].text.endswith(
        f": rolled 2 2 6 6 6: {sum(1 for d in (2, 2, 6, 6, 6) if d <= accuracy)} at {accuracy} or less"
    )
    assert "needs" not in fire[0].text and "= 22" not in fire[0].text
    assert fire[0].data["hits"] == sum(1 for d in (2, 2, 6, 6, 6) if d <= accuracy)
