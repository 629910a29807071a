"""Indirect fire (§7) as ``fire`` actions of the Fire Phase (3.2 3b): with sight through a spotter (7.2, 10.3),
without sight at a hex (7.4) with its preconditions, scatter and random hits (7.3), smoke (7.1); exact odds and the
dice log; the acceptance cases of 14.8 played through the ruleset (H-3: the mortar M1 and the company HQ A-HQ, both
with field telephones)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.actions import Action
from engine.hexgrid import parse_hex
from engine.rules import Transition
from engine.rulesets.hacse import artillery
from engine.rulesets.hacse.data import load_tables
from engine.rulesets.hacse.endphase import end_phase_smoke
from engine.rulesets.hacse.model import data, status
from engine.rulesets.hacse.sighting import sight_line
from engine.state import GameState

from .helpers import LOSE, game, placed, refused, ruleset

T = load_tables()


def h3(dice: list[int] | None = None, **where: str) -> GameState:
    """H-3 with units placed, the Fire Phase open for the Germans; nobody has sighted anybody."""
    g = game("h3-bridge-at-dusk", dice=dice)
    st = placed(g, **where)
    st.phase, st.to_act = "attack", "german"
    d = data(st)
    d.active = d.mover = None
    for u in st.units.values():
        s = status(u)
        s.may_fire, s.fire_done, s.fired, s.sighted = u.hex is not None, False, [], []
    return st


def run(st: GameState, text: str) -> Transition:
    rs = ruleset()
    action = rs.parse_action(st, text)
    rs.check(st, action)
    tr = Transition(st.clone())
    rs.apply(tr, action)
    return tr


def odds_of(st: GameState, text: str) -> tuple[dict[str, Fraction], str]:
    rs = ruleset()
    got = rs.odds(st, rs.parse_action(st, text))
    assert got is not None
    assert sum(e.probability for e in got.entries) == 1
    return {e.result: e.probability for e in got.entries}, got.note


def test_14_8_in_01_without_sight_the_hex_tn_is_base_plus_10() -> None:
    st = h3(M1="0306", S1="1206")
    legal = set(ruleset().legal_actions(st))
    assert {Action("fire", ("M1", "1206", "GW34", w)) for w in ("HE", "smoke")} <= legal
    assert Action("fire", ("M1", "1206", "GW34")) not in legal
    assert refused(st, "fire M1 1206 GW34").rule == "15.5"  # at a hex the round is named
    odds, note = odds_of(st, "fire M1 1206 GW34 HE")
    assert note.startswith("TN 14 = +4 base number (rule 6.3) +10 indirect fire without sight")
    assert odds["jam"] == Fraction(1, 100)
    assert any(k.startswith("random hit target (1206)") for k in odds)


def test_14_8_in_05_a_mortar_on_a_hex_uses_double_he_and_spends_2() -> None:
    st = h3(dice=LOSE + [10, 10, 10, 10] + [4] * 40, M1="0306", S1="1206")
    tr = run(st, "fire M1 1206 GW34 HE")
    rolls = [e.text for e in tr.events if e.kind == "roll"]
    assert any("random hit in 1206: TN 18" in t for t in rolls)  # 25 - 2 x 3 - 1 group
    assert status(tr.state.units["M1"]).spent == {"0.HE": 2}
    assert status(tr.state.units["S1"]).rows_hit  # 20: even, from above, HE + 1 = 4 damage
    assert any("from above, full damage: 4 damage" in e.text for e in tr.events)


@pytest.mark.parametrize(("die", "where", "landing"), [(6, "beyond", "1307"), (7, "short", "1106")])
def test_14_8_in_10_a_missed_hex_scatters_along_the_line(die: int, where: str, landing: str) -> None:
    st = h3(dice=LOSE + [3, 3, die] + [1] * 20, M1="0306", S1="1206")
    tr = run(st, "fire M1 1206 GW34 HE")
    assert any(f"one hex {where}: {landing}" in e.text for e in tr.events)


def test_14_8_in_13_a_smoke_shell_leaves_smoke_for_3_turns_and_no_damage() -> None:
    st = h3(dice=LOSE + [10, 10] + [4] * 10, M1="0306", S1="1206")
    tr = run(st, "fire M1 1206 GW34 smoke")
    assert data(tr.state).smoke == {parse_hex("1206"): 3}
    assert not status(tr.state.units["S1"]).rows_hit
    assert status(tr.state.units["M1"]).spent == {"0.smoke": 2}
    end = Transition(tr.state.clone())
    end_phase_smoke(end)
    assert data(end.state).smoke == {parse_hex("1206"): 2}


def test_14_8_in_12_without_a_precondition_fire_at_a_hex_is_refused() -> None:
    st = h3(M1="0306", S1="1507")
    data(st).conditions = ["dark_night"] * 10  # +2 per hex: the hex and its neighbours are out of sight
    for uid in ("A-HQ", "G1", "G2", "G3", "G4"):
        status(st.units[uid]).destroyed = True  # nobody to pass the hex on, no map station
    err = refused(st, "fire M1 1507 GW34 HE")
    assert err.rule == "7.4" and "map station" in str(err)
    status(st.units["S1"]).fired_dk_last = 1  # it fired from there last turn: precondition 3
    assert Action("fire", ("M1", "1507", "GW34", "HE")) in set(ruleset().legal_actions(st))


def test_7_4_the_map_station_allows_fire_at_a_hex_out_of_sight() -> None:
    st = h3(M1="0306", S1="1507")
    data(st).conditions = ["dark_night"] * 10
    for uid in ("G1", "G2", "G3", "G4"):
        status(st.units[uid]).destroyed = True
    assert Action("fire", ("M1", "1507", "GW34", "HE")) in set(ruleset().legal_actions(st))  # A-HQ by telephone


def test_7_4_fire_at_a_hex_is_aimed_where_an_enemy_is_known() -> None:
    st = h3(M1="0306", S1="1206")
    assert refused(st, "fire M1 1106 GW34 HE").rule == "7.4"
    status(st.units["S1"]).hidden = True
    assert refused(st, "fire M1 1206 GW34 HE").rule == "7.4"


def test_7_2_with_sight_through_a_spotter_adds_a_relay_and_spends_the_message() -> None:
    st = h3(dice=LOSE + [10, 10, 10, 10] + [4] * 40, M1="0306", S1="1206")
    status(st.units["A-HQ"]).sighted = ["S1"]
    assert Action("fire", ("M1", "S1", "GW34")) in set(ruleset().legal_actions(st))
    assert refused(st, "fire M1 1206 GW34 HE").rule == "7.4"  # S1 is sighted there: fire at it (7.2)
    odds, note = odds_of(st, "fire M1 S1 GW34")
    assert "+2 indirect fire (rule 7.2)" in note and "+1 1 relay (rule 10.3)" in note
    assert set(odds) <= {"hit", "random hit", "no effect", "jam"}
    tr = run(st, "fire M1 S1 GW34")
    assert status(tr.state.units["A-HQ"]).sent == 1 and status(tr.state.units["M1"]).received == 1
    assert any(e.kind == "message" and "rule 10.3" in e.text for e in tr.events)
    assert status(tr.state.units["S1"]).rows_hit


def test_7_2_nobody_sights_it_no_fire_at_the_unit() -> None:
    st = h3(M1="0306", S1="1206")
    err = refused(st, "fire M1 S1 GW34")
    assert err.rule == "7.2"


def _shaken_mortar(dice: list[int]) -> GameState:
    st = h3(dice=LOSE + dice + [1] * 40, M1="0306", S1="1206")
    status(st.units["M1"]).sighted = ["S1"]
    status(st.units["M1"]).shaken = True  # +5 (9.5)
    status(st.units["S1"]).dug_in = True  # +3 (13.8)
    return st


def test_14_8_in_03_a_miss_reaching_half_the_tn_checks_random_hits() -> None:
    st = _shaken_mortar([5, 5])
    odds, note = odds_of(st, "fire M1 S1 GW34")
    assert note.startswith("TN 11 ") and "random hit TN 21 (1 groups)" in note  # 25 - 3 - 1: out of reach
    assert set(odds) == {"hit", "no effect", "jam"}
    tr = run(st, "fire M1 S1 GW34")
    texts = [e.text for e in tr.events if e.kind == "roll"]
    assert any("random hit in S1" in t for t in texts)  # 10 < 11, 2 x 10 >= 11
    tr = run(_shaken_mortar([2, 2]), "fire M1 S1 GW34")  # 2 x 4 < 11: no effect
    assert not any("random hit" in e.text for e in tr.events if e.kind == "roll")


def test_7_1_a_mortar_fires_only_indirectly_and_not_into_its_own_hex() -> None:
    st = h3(M1="0306", S1="0306")
    status(st.units["M1"]).sighted = ["S1"]
    assert refused(st, "fire M1 S1 GW34").rule == "15.4"  # inside the minimum range
    assert refused(st, "fire M1 0306 GW34 HE").rule == "7.4"
    assert refused(st, "fire M1 S1 GW34 aimed 1").rule == "7.1"


def test_7_1_smoke_blocks_sight_after_the_fire_phase_that_laid_it() -> None:
    st = h3(dice=LOSE + [10, 10] + [4] * 10, M1="0306", S1="1206", G3="0906")
    a, b = parse_hex("0906"), parse_hex("1306")
    assert "smoke" not in sight_line(st, T, a, b).obstructing
    tr = run(st, "fire M1 1206 GW34 smoke")
    after = tr.state
    assert "smoke" not in sight_line(after, T, a, b).obstructing  # 3.2 P: not before the Fire Phase is over
    after.phase = "end"
    line = sight_line(after, T, a, b)
    assert "smoke" in line.obstructing or not line.clear  # 6.3: +5 to sight through it


def test_7_4_the_kept_sighting_tn_of_a_hex_counts_smoke_once_it_blocks() -> None:
    """The sighting TNs of 7.4's hexes are kept between listings (artillery._hex_tn): smoke laid in this Fire Phase
    does not block yet (3.2 P), and once it does the TN kept from before must not be given."""
    st = h3(G3="0906")
    g3, smoke, beyond = st.units["G3"], parse_hex("0802"), parse_hex("0801")
    d = data(st)
    d.smoke, d.smoke_new, d.smoke_turn = {smoke: 3}, [smoke], st.turn  # laid in this Fire Phase
    assert artillery._hex_tn(st, T, g3, beyond) == 4  # the smoke is not in the line yet
    st.phase = "end"
    assert artillery._hex_tn(st, T, g3, beyond) == artillery._hex_tn_now(st, T, g3, beyond) == 9  # +5 (6.3)


def test_7_4_the_kept_sighting_tn_of_a_hex_follows_its_buildings_to_rubble() -> None:
    """A building hex whose buildings all fell is rubble (4.9): the sighting TN kept for it before is not given."""
    st = h3(G3="0906")
    g3, town = st.units["G3"], parse_hex("1106")
    assert artillery._hex_tn(st, T, g3, town) == 4
    kind = T.terrain[st.board.terrain(town)].building
    assert kind
    data(st).buildings_lost = {town: T.buildings[kind].per_hex}
    assert artillery._hex_tn(st, T, g3, town) == artillery._hex_tn_now(st, T, g3, town) == 5


def test_11_2_after_indirect_fire_the_units_other_shots_are_plain() -> None:
    st = h3(dice=LOSE + [10, 10, 10, 10] + [4] * 40, M1="0306", S1="0307")
    status(st.units["M1"]).rapid = True  # left from an earlier phase
    status(st.units["M1"]).sighted = ["S1"]
    tr = run(st, "fire M1 0307 GW34 smoke")
    assert not status(tr.state.units["M1"]).rapid
    assert Action("fire", ("M1", "S1", "K98")) in set(ruleset().legal_actions(tr.state))


def test_7_4_fire_at_an_objective_hex_without_a_known_enemy() -> None:
    """7.4 (README reading): fire at a hex may also be aimed at an objective hex the side does not control and
    nobody is known to hold (H-3's bridge, 1007, taken by the Soviets), HE or smoke; other empty hexes are still
    refused, and so is the objective while the side controls it."""
    st = h3(M1="0306", S1="1507")
    data(st).control[parse_hex("1007")] = "german"
    assert refused(st, "fire M1 1007 GW34 HE").rule == "7.4"
    data(st).control[parse_hex("1007")] = "soviet"
    acts = set(ruleset().legal_actions(st))
    assert Action("fire", ("M1", "1007", "GW34", "HE")) in acts
    assert Action("fire", ("M1", "1007", "GW34", "smoke")) in acts
    assert refused(st, "fire M1 1006 GW34 HE").rule == "7.4"
    odds, note = odds_of(st, "fire M1 1007 GW34 smoke")
    assert "smoke for 3 turns" in note and odds


def test_7_4_a_shell_on_an_objective_may_strike_a_hidden_unit_there() -> None:
    """Random hits (7.3) strike every unit in the hex, a hidden one too: shelling a suspected position."""
    st = h3(dice=[*LOSE, 10, 10, 10, 10] + [4] * 40, M1="0306", S1="1007")
    status(st.units["S1"]).hidden = True
    data(st).control[parse_hex("1007")] = "soviet"
    assert Action("fire", ("M1", "1007", "GW34", "HE")) in set(ruleset().legal_actions(st))
    tr = run(st, "fire M1 1007 GW34 HE")
    assert status(tr.state.units["S1"]).rows_hit
    assert not status(tr.state.units["S1"]).hidden  # 13.2 INTERP: revealed by the hit
    assert any(e.kind == "reveal" and "S1" in e.text for e in tr.events)
