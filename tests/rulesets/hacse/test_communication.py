"""Tests of communication (digest 10; 14.12 AC-CM-01 to 04)."""

from __future__ import annotations

from dataclasses import replace

from engine.hexgrid import parse_hex
from engine.rulesets.hacse.communication import Party, all_round, can_communicate, may_send, party, relay_modifier
from engine.rulesets.hacse.data import load_tables
from engine.rulesets.hacse.model import status

from .helpers import game, placed

T = load_tables()


def _p(uid: str, label: str, **kw: bool) -> Party:
    values = {"radio": False, "telephone": False, "armoured_vehicle": False, "all_round": False, "moving": False}
    return Party(uid, parse_hex(label), **(values | kw))  # type: ignore[arg-type]


def test_14_12_ac_cm_01_infantry_two_hexes_apart() -> None:
    assert can_communicate(_p("a", "0505"), _p("b", "0705")) is None


def test_14_12_ac_cm_02_infantry_and_a_buttoned_tank() -> None:
    tank = _p("t", "0605", armoured_vehicle=True, all_round=True)
    why = can_communicate(_p("a", "0505"), tank)
    assert why is not None and why.rule == "10.1" and "all-round armour" in why.text


def test_14_12_ac_cm_03_two_tanks_in_one_hex_one_moved() -> None:
    a = _p("a", "0505", armoured_vehicle=True, all_round=True)
    b = _p("b", "0505", armoured_vehicle=True, all_round=True, moving=True)
    assert can_communicate(a, b) is not None
    assert can_communicate(a, replace(b, moving=False)) is None


def test_14_12_ac_cm_04_one_send_per_turn_except_hqs() -> None:
    a, b = _p("a", "0505"), _p("b", "0605")
    assert may_send(a, b, 0, 0) is None
    why = may_send(a, b, 1, 0)
    assert why is not None and why.rule == "10.3"
    assert may_send(replace(a, hq=True), b, 3, 0) is None


def test_10_2_all_round_armour_from_the_sheets() -> None:
    assert all_round(T.sheets["GER-PZ4H"]) and all_round(T.sheets["GER-SDKFZ251"])  # open half-tracks qualify
    assert not all_round(T.sheets["GER-OPELBLITZ"]) and not all_round(T.sheets["GER-PAK40"])


def test_10_1_radios_and_field_telephones_from_the_state() -> None:
    g = game("h3-bridge-at-dusk")
    st = placed(g, G4="0306:n", M1="1510")
    hq, mortar, tank, squad = (party(st, T, st.units[u]) for u in ("A-HQ", "M1", "G4", "G2"))
    assert can_communicate(hq, mortar) is None  # field telephones (15.10.5), far apart
    assert can_communicate(hq, tank) is None  # both have radios
    why = can_communicate(hq, squad)  # 0406 and 1307: no shared equipment, too far
    assert why is not None and "more than 2 hexes" in why.text
    assert (tank.all_round, hq.hq, mortar.telephone) == (True, True, True)
    assert relay_modifier(2) == 2


def test_10_1_a_hit_radio_row_cuts_radio_communication() -> None:
    g = game("h3-bridge-at-dusk")
    st = placed(g, G4="0306:n")
    hq, tank = st.units["A-HQ"], st.units["G4"]
    assert can_communicate(party(st, T, hq), party(st, T, tank)) is None
    status(hq).rows_hit = [3]  # 15.7.9: the radio operator; the radio is lost with him
    assert not party(st, T, hq).radio and party(st, T, hq).telephone
    assert can_communicate(party(st, T, hq), party(st, T, tank)) is not None
    status(hq).rows_hit = []
    radio = next(r.index for r in T.sheets["GER-PZ4H"].rows if r.equipment == "radio")
    status(tank).rows_hit = [radio]  # 8.5: equipment destroyed
    assert not party(st, T, tank).radio
    assert can_communicate(party(st, T, hq), party(st, T, tank)) is not None
