"""Blitzkrieg 1940 movement (digest 3.2, 3.4, 3.5, 6.1–6.3.3, 7, 8.4, 8.5.1, 9.1.1, 10.1, 13.3).

Acceptance cases AC-16 to AC-20, AC-33 to AC-35, AC-40 to AC-43 and AC-53 on the proposed maps of 13.9
(``scenarios/blitzkrieg1940/hannut.map`` and ``stonne.map``), the 13.3 cost table class by class, and a
property check of :func:`reachable_hexes` against an independent search written here from the digest's table.
"""

from __future__ import annotations

import math
import random
import re
from functools import cache
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.board import Board
from engine.hexgrid import Hex, distance, hex_to_offset, parse_hex
from engine.rules import Transition
from engine.rulesets.blitzkrieg1940 import model as bk
from engine.rulesets.blitzkrieg1940.data import load_tables
from engine.rulesets.blitzkrieg1940.model import new_formation
from engine.rulesets.blitzkrieg1940.movement import (
    EXIT,
    base_mp,
    can_close_combat,
    can_enter_min_one,
    close_combat_entry_cost,
    column_after,
    command_check,
    command_distance,
    demoralised_retreat_mp,
    demoralised_retreat_paths,
    dispersed,
    doctrine_allows,
    edge_distance,
    explain_mp,
    min_one_hexes,
    move_class,
    mp_allowance,
    out_of_command,
    reachable_hexes,
    retreat_options,
    retreat_path,
    stack_count,
    stacking_ok,
    step_cost,
    step_problem,
)
from engine.scenario import parse_map
from engine.state import GameState, Unit

from .helpers import refusal, skirmish

MAPS = Path(__file__).resolve().parents[3] / "scenarios" / "blitzkrieg1940"
T = load_tables()


@cache
def board(name: str) -> Board:
    path = MAPS / f"{name}.map"
    return Board(parse_map(path.read_text(encoding="utf-8"), str(path)), T.terrain.codes)


def H(label: str) -> Hex:
    return parse_hex(label)


def unit(uid: str, utype: str, at: str | None, fid: str | None = None, **status: object) -> Unit:
    """A unit at full strength (an HQ keeps the 0 steps of units.toml: it must still count as on the map)."""
    t = T.units[utype]
    return Unit(uid, utype, t.side, H(at) if at else None, t.steps, fid, bk.Status(**status))


def game(name: str, *units: Unit, mines: dict[str, str] | None = None) -> GameState:
    """A state on a real map; one formation per formation id used, its HQ the hq_* unit of that id."""
    formations: dict[str, bk.Formation] = {}
    for u in units:
        if u.formation and u.formation not in formations:
            formations[u.formation] = new_formation(u.side, u.formation, None, 8)
    for u in units:
        if T.units[u.type].category == "hq" and u.formation:
            formations[u.formation].hq = u.id
    return GameState(
        ruleset="blitzkrieg1940",
        scenario="t",
        sides=("german", "french"),
        board=board(name),
        units={u.id: u for u in units},
        data=bk.new_data(formations=formations, mines=dict(mines or {})),
    )


def printed_mp(utype: str) -> int:
    mp = T.units[utype].mp
    assert mp is not None
    return mp


def cites(text: str, section: str) -> bool:
    """True if ``text`` cites ``section`` as "(rule 6.2)" or "(rules 6.2, 9.1.1)"."""
    return re.search(rf"\brules? (?:[0-9.]+, )*{re.escape(section)}(?![0-9])", text) is not None


def col(h: Hex | None) -> int:
    assert h is not None
    return hex_to_offset(h)[0]


# --- 3.4 / 3.5 doctrine and command: AC-16, AC-17, AC-19, AC-21 ----------------------------------------------


@pytest.mark.parametrize(
    ("hq_type", "utype", "inside", "outside"),
    [("hq_fr", "DRG", "0810", "0811"), ("hq_de", "SCH", "0811", "0812")],
    ids=["french-2", "german-3"],
)
def test_ac16_command_distance_3_4_and_check_3_5(hq_type: str, utype: str, inside: str, outside: str) -> None:
    hq = unit("hq", hq_type, "0808", "f")
    near, far = unit("near", utype, inside, "f"), unit("far", utype, outside, "f")
    s = game("hannut", hq, near, far)
    assert command_distance(T, s, near) == T.units[hq_type].command_range
    assert distance(near.hex, hq.hex) == command_distance(T, s, near)  # type: ignore[arg-type]
    assert not out_of_command(T, s, near)
    assert out_of_command(T, s, far)
    tr = Transition(s)
    assert command_check(tr, T) == ["far"]
    assert bk.status(s.units["far"]).ooc is True
    assert not bk.status(s.units["near"]).ooc
    assert len(tr.events) == 1 and cites(tr.events[0].text, "3.5") and cites(tr.events[0].text, "3.4")
    # Doctrine: the unit at the limit may not step beyond it; the one beyond may not step farther (3.4 [I]).
    nxt = H(outside)
    assert not doctrine_allows(T, s, near, near.hex, nxt)  # type: ignore[arg-type]
    assert cites(step_problem(T, s, near, near.hex, nxt, in_column=False) or "", "3.4")  # type: ignore[arg-type]
    beyond = H(f"08{int(outside[2:]) + 1:02d}")
    assert not doctrine_allows(T, s, far, nxt, beyond)
    assert doctrine_allows(T, s, far, nxt, H("0911"))  # same distance: allowed
    reach = reachable_hexes(T, s, near, 7, in_column=False)
    assert max(distance(h, hq.hex) for h in reach) == command_distance(T, s, near)  # type: ignore[arg-type]


def test_ac16_exemptions_10_3_and_1_1() -> None:
    """Motorised units, independent units (AC-21) and HQs are not bound by the doctrine distance."""
    hq = unit("hq", "hq_fr", "0808", "f")
    mot = unit("mot", "MOT", "0813", "f")
    at = unit("at", "AT25", "0813", "f", independent=True)
    s = game("hannut", hq, mot, at)
    for u in (hq, mot, at):
        assert command_distance(T, s, u) is None
        assert not out_of_command(T, s, u)
    assert command_check(Transition(s), T) == []


def test_ac17_marker_removed_and_no_marking_between_checks() -> None:
    hq = unit("hq", "hq_fr", "0808", "f")
    back = unit("back", "DRG", "0809", "f", ooc=True)
    drift = unit("drift", "DRG", "0812", "f")  # its HQ moved away during an activation; no check yet
    s = game("hannut", hq, back, drift)
    # Until the next check the unmarked unit moves normally (3.5) but may not increase its distance (3.4).
    assert mp_allowance(T, s, drift, action="move") == T.units["DRG"].mp
    assert mp_allowance(T, s, back, action="move") == T.units["DRG"].mp // 2
    assert not doctrine_allows(T, s, drift, H("0812"), H("0813"))
    assert doctrine_allows(T, s, drift, H("0812"), H("0811"))
    tr = Transition(s)
    assert command_check(tr, T) == ["back", "drift"]
    assert not bk.status(s.units["back"]).ooc
    assert bk.status(s.units["drift"]).ooc is True
    assert any("back in command (rule 3.5)" in e.text for e in tr.events)


def test_ac18_out_of_command_mp_6_2() -> None:
    h39 = unit("h39", "H39", "0808", "f", ooc=True)
    s = game("hannut", unit("hq", "hq_fr", "0812", "f"), h39, unit("ger", "SCH", "0708", "g"))
    assert T.units["H39"].mp == 5
    assert mp_allowance(T, s, h39, action="move") == 2
    mp, notes = explain_mp(T, s, h39, action="move")
    assert mp == 2 and any(cites(n, "6.2") for n in notes)
    verdict = can_close_combat(T, s, h39, H("0808"), H("0708"), mp_left=2, moved=False)
    assert not verdict and cites(verdict.reason, "6.2")


def test_ac19_overrun_hq_puts_formation_out_of_command_3_2() -> None:
    hq = unit("hq", "hq_fr", None, "f")
    tank = unit("tank", "S35", "0808", "f")
    car = unit("car", "P178", "0809", "f")  # motorised: exempt from 3.4, still out of command under 3.2
    at = unit("at", "AT25", "0809", "f", independent=True)  # never out of command (10.3)
    s = game("hannut", hq, tank, car, at)
    bk.data(s).formations["f"].overrun = True
    for u in (tank, car):
        assert out_of_command(T, s, u)
        assert doctrine_allows(T, s, u, H("0808"), H("0101"))  # no HQ to measure from
    tr = Transition(s)
    assert command_check(tr, T, [tank, car, at]) == ["car", "tank"]
    assert all(cites(e.text, "3.2") and cites(e.text, "3.5") for e in tr.events)
    assert not bk.status(s.units["at"]).ooc
    # The HQ returns stacked with one of its units; the check at once restores command.
    s.units["hq"].hex = H("0808")
    bk.data(s).formations["f"].overrun = False
    assert command_check(Transition(s), T, ["tank", "car"]) == ["car", "tank"]
    assert not any(bk.status(s.units[i]).ooc for i in ("tank", "car"))


def test_command_check_only_listed_units_3_5() -> None:
    hq = unit("hq", "hq_de", "0808", "f")
    a, b = unit("a", "SCH", "0813", "f"), unit("b", "SCH", "0814", "f")
    s = game("hannut", hq, a, b)
    assert command_check(Transition(s), T, ["a"]) == ["a"]
    assert not bk.status(s.units["b"]).ooc


# --- 3.2, 6.1, 6.2, 8.4 MP allowances: AC-20, AC-33 -------------------------------------------------------


def test_hq_speed_and_class_3_2() -> None:
    hq = unit("hq", "hq_de", "0808", "f")
    s = game("hannut", hq, unit("p3", "PZ3", "0809", "f"), unit("sch", "SCH", "0810", "f"))
    assert base_mp(T, s, hq) == T.units["PZ3"].mp
    assert move_class(T, s, hq) == "tracked"
    # An attached independent unit does not count (3.2 [P]); a faster own unit does.
    s.units["ac"] = unit("ac", "ACG", "0811", "f", independent=True)
    assert base_mp(T, s, hq) == T.units["PZ3"].mp
    bk.status(s.units["ac"]).clear("independent")
    assert base_mp(T, s, hq) == T.units["ACG"].mp and move_class(T, s, hq) == "wheeled"
    # Units off the map do not count.
    s.units["ac"].hex = None
    s.units["p3"].hex = None
    assert base_mp(T, s, hq) == T.units["SCH"].mp and move_class(T, s, hq) == "foot"


def test_ac20_neutralised_hq_half_8_4_and_sequence_6_2() -> None:
    hq = unit("hq", "hq_de", "0808", "f", neutralised=True)
    s = game("hannut", hq, unit("p3", "PZ3", "0809", "f"))
    assert mp_allowance(T, s, hq, action="move") == 3  # MP 6 → 3
    bk.status(hq).ooc = True
    assert mp_allowance(T, s, hq, action="move") == 1  # ⌊⌊6/2⌋/2⌋


def test_ac33_move_and_fire_half_rounded_up_6_1() -> None:
    pz = unit("pz", "PZ1", "0808", "f")
    s = game("hannut", unit("hq", "hq_de", "0810", "f"), pz)
    assert T.units["PZ1"].mp == 7
    assert mp_allowance(T, s, pz, action="move") == 7
    assert mp_allowance(T, s, pz, action="move_fire") == 4
    bk.status(pz).ooc = True
    assert mp_allowance(T, s, pz, action="move_fire") == 2  # ⌈7/2⌉ = 4, then ⌊4/2⌋
    apc = unit("apc", "APC", "0809", "f")
    s.units["apc"] = apc
    assert mp_allowance(T, s, apc, action="load") == printed_mp("APC") // 2
    with pytest.raises(ValueError, match=r"rule 6\.1"):
        mp_allowance(T, s, apc, action="fly")


def test_neutralised_unit_cannot_move_8_4() -> None:
    pz = unit("pz", "PZ1", "0808", "f", neutralised=True)
    s = game("hannut", unit("hq", "hq_de", "0810", "f"), pz)
    mp, notes = explain_mp(T, s, pz, action="move")
    assert mp == 0 and cites(notes[0], "8.4")
    assert not can_enter_min_one(T, s, pz, H("0808"), H("0809"), moved=False)


def test_mounted_pair_moves_with_the_apc_12_1() -> None:
    apc = unit("apc", "APC", "0808", "f", carrying="sch")
    sch = unit("sch", "SCH", "0808", "f", carried_by="apc")
    s = game("hannut", unit("hq", "hq_de", "0810", "f"), apc, sch)
    assert move_class(T, s, sch) == "tracked" and base_mp(T, s, sch) == T.units["APC"].mp
    assert mp_allowance(T, s, sch, action="move") == 0  # the company does not act separately
    v = can_close_combat(T, s, apc, H("0808"), H("0809"), mp_left=6, moved=False)
    assert not v and cites(v.reason, "12.1")


# --- 13.3 terrain and movement cost table ------------------------------------------------------------------

COSTS_13_3: dict[
    str, dict[str, int | None]
] = {  # digest 13.3, the cost to enter by class (None = not allowed cross-country)
    "open": {"foot": 1, "tracked": 1, "wheeled": 2},
    "village": {"foot": 1, "tracked": 2, "wheeled": 2},
    "orchard": {"foot": 1, "tracked": 2, "wheeled": 3},
    "woods": {"foot": 2, "tracked": 3, "wheeled": None},
}
ENTRIES = {
    "open": ("1010", "1011"),
    "village": ("0407", "0408"),
    "orchard": ("0707", "0708"),
    "woods": ("0305", "0306"),
}
CLASS_UNIT = {"foot": "SCH", "tracked": "PZ3", "wheeled": "ACG"}


@pytest.mark.parametrize("terrain", sorted(COSTS_13_3))
@pytest.mark.parametrize("mclass", sorted(CLASS_UNIT))
def test_terrain_costs_13_3(terrain: str, mclass: str) -> None:
    a, b = ENTRIES[terrain]
    u = unit("u", CLASS_UNIT[mclass], a, "f")
    s = game("hannut", unit("hq", "hq_de", a, "f"), u)
    assert s.board.terrain(H(b)) == terrain and s.board.level(H(a)) == s.board.level(H(b))
    assert not s.board.has_road(H(a), H(b))
    for column in (False, True):
        assert step_cost(T, s, u, H(a), H(b), in_column=column) == COSTS_13_3[terrain][mclass]
    if COSTS_13_3[terrain][mclass] is None:
        assert cites(step_problem(T, s, u, H(a), H(b), in_column=False) or "", "13.3")


@pytest.mark.parametrize("mclass", sorted(CLASS_UNIT))
def test_climb_per_level_13_3(mclass: str) -> None:
    u = unit("u", CLASS_UNIT[mclass], "0606", "f")
    s = game("hannut", unit("hq", "hq_de", "0606", "f"), u)
    open_cost, village_cost = COSTS_13_3["open"][mclass], COSTS_13_3["village"][mclass]
    assert open_cost is not None and village_cost is not None
    assert s.board.level(H("0706")) - s.board.level(H("0606")) == 1
    assert step_cost(T, s, u, H("0606"), H("0706"), in_column=False) == open_cost + 1
    assert step_cost(T, s, u, H("0706"), H("0606"), in_column=False) == open_cost  # going down: free
    # Stonne: from the valley (level 0) up into La Berlière's village (level 1).
    s2 = game("stonne", unit("hq", "hq_de", "0210", "f"), unit("v", CLASS_UNIT[mclass], "0210", "f"))
    assert step_cost(T, s2, s2.units["v"], H("0210"), H("0310"), in_column=False) == village_cost + 1


def test_wheeled_in_woods_only_by_road_13_3() -> None:
    car = unit("car", "ACG", "0613", "f")
    s = game("stonne", unit("hq", "hq_de", "0613", "f"), car)
    assert s.board.has_road(H("0613"), H("0614")) and s.board.terrain(H("0614")) == "woods"
    assert step_cost(T, s, car, H("0613"), H("0614"), in_column=True) == 0.5
    assert step_cost(T, s, car, H("0613"), H("0614"), in_column=False) is None
    assert "along a road" in (step_problem(T, s, car, H("0613"), H("0614"), in_column=False) or "")
    assert step_cost(T, s, car, H("0614"), H("0515"), in_column=True) == 0.5  # woods to woods along road W
    assert step_cost(T, s, car, H("0614"), H("0714"), in_column=True) is None  # leaving the road in woods
    assert step_cost(T, s, car, H("0613"), H("0713"), in_column=True) == 2  # open, no road


def test_leaving_an_enemy_minefield_10_1() -> None:
    pz = unit("pz", "PZ3", "1010", "f")
    s = game("hannut", unit("hq", "hq_de", "1010", "f"), pz, mines={"1010": "french", "1011": "french"})
    assert step_cost(T, s, pz, H("1010"), H("1011"), in_column=False) == 1 + 2  # entering costs nothing extra
    assert step_cost(T, s, pz, H("1009"), H("1010"), in_column=False) == 1
    bk.data(s).mines = {"1010": "german"}  # own minefield: no effect on the owner
    assert step_cost(T, s, pz, H("1010"), H("1011"), in_column=False) == 1


def test_enemy_hexes_and_off_map_are_impassable() -> None:
    pz = unit("pz", "PZ3", "0101", "f")
    s = game("hannut", unit("hq", "hq_de", "0101", "f"), pz, unit("fr", "DRG", "0102", "e"))
    assert step_cost(T, s, pz, H("0101"), H("0102"), in_column=False) is None
    assert cites(step_problem(T, s, pz, H("0101"), H("0102"), in_column=False) or "", "9.1.1")
    off = Hex(-1, 0)
    assert off not in s.board and step_cost(T, s, pz, H("0101"), off, in_column=False) is None
    assert cites(step_problem(T, s, pz, H("0101"), off, in_column=False) or "", "13.3")
    with pytest.raises(ValueError, match=r"rule 7\.1"):
        step_cost(T, s, pz, H("0101"), H("0808"), in_column=False)
    # Only an enemy HQ: overrun, not ordinary movement (3.2 [P]).
    s.units["fr"] = unit("fr", "hq_fr", "0102", "e")
    assert step_cost(T, s, pz, H("0101"), H("0102"), in_column=False) is None
    assert cites(step_problem(T, s, pz, H("0101"), H("0102"), in_column=False) or "", "3.2")


# --- 9.1.1 close-combat entry: AC-34 ----------------------------------------------------------------------


def test_ac34_entry_cost_mp7_into_village() -> None:
    pz = unit("pz", "PZ1", "1005", "g")
    s = game("hannut", unit("hq", "hq_de", "1005", "g"), pz, unit("fr", "DRG", "1006", "e"))
    assert close_combat_entry_cost(T, s, pz, H("1005"), H("1006")) == 2 + 2
    # Along road A into the village: never the road rate (9.1.1 [P]).
    assert s.board.has_road(H("0907"), H("1006"))
    assert close_combat_entry_cost(T, s, pz, H("0907"), H("1006")) == 4
    v = can_close_combat(T, s, pz, H("1005"), H("1006"), mp_left=4, moved=True)
    assert v and v.cost == 4 and cites(v.reason, "9.1.1")
    assert not can_close_combat(T, s, pz, H("1005"), H("1006"), mp_left=3, moved=True)


def test_ac34_mp3_after_spending_2_into_woods_and_one_hex_exception() -> None:
    sch = unit("sch", "SCH", "0305", "g")
    s = game("hannut", unit("hq", "hq_de", "0305", "g"), sch, unit("fr", "DRG", "0306", "e"))
    assert close_combat_entry_cost(T, s, sch, H("0305"), H("0306")) == 1 + 2
    v = can_close_combat(T, s, sch, H("0305"), H("0306"), mp_left=1, moved=True)
    assert not v and cites(v.reason, "9.1.1") and v.cost == 3
    # Not moved yet, the combat hex is its only hex: allowed even with too few MPs.
    v = can_close_combat(T, s, sch, H("0305"), H("0306"), mp_left=1, moved=False)
    assert v and cites(v.reason, "9.1.1")


def test_close_combat_entry_climb_and_prohibitions_9_1_1() -> None:
    pz = unit("pz", "PZ3", "0210", "g")
    car = unit("car", "ACG", "0305", "g")
    s = game("stonne", unit("hq", "hq_de", "0210", "g"), pz, car, unit("fr", "FIN", "0310", "e"))
    assert close_combat_entry_cost(T, s, pz, H("0210"), H("0310")) == math.ceil(6 / 4) + 2 + 1
    s.units["w"] = unit("w", "FIN", "0603", "e")
    s.units["car"].hex = H("0503")
    assert close_combat_entry_cost(T, s, car, H("0503"), H("0603")) is None
    assert cites(can_close_combat(T, s, car, H("0503"), H("0603"), mp_left=10, moved=False).reason, "13.3")
    hq = s.units["hq"]
    assert cites(can_close_combat(T, s, hq, H("0210"), H("0310"), mp_left=9, moved=False).reason, "6.1")
    bk.status(pz).neutralised = True
    assert cites(can_close_combat(T, s, pz, H("0210"), H("0310"), mp_left=9, moved=False).reason, "8.4")
    bk.status(pz).clear("neutralised")
    assert not can_close_combat(T, s, pz, H("0210"), H("0211"), mp_left=9, moved=False)  # nobody there


# --- 7.1 one-hex minimum: AC-35 -------------------------------------------------------------------------------


def test_ac35_ooc_h39_into_higher_woods() -> None:
    h39 = unit("h39", "H39", "0503", "f", ooc=True)
    s = game("stonne", unit("hq", "hq_fr", "0903", "f"), h39, unit("ger", "SCH", "0602", "g"))
    mp = mp_allowance(T, s, h39, action="move")
    cost = step_cost(T, s, h39, H("0503"), H("0603"), in_column=False)
    assert (mp, cost) == (2, 3 + 1)
    assert H("0603") not in reachable_hexes(T, s, h39, mp, in_column=False)
    assert can_enter_min_one(T, s, h39, H("0503"), H("0603"), moved=False)
    assert not can_enter_min_one(T, s, h39, H("0503"), H("0603"), moved=True)
    assert not can_enter_min_one(T, s, h39, H("0503"), H("0602"), moved=False)  # enemy-occupied
    assert H("0603") in min_one_hexes(T, s, h39, moved=False)
    assert min_one_hexes(T, s, h39, moved=True) == []
    # Doctrine still applies: out of command and 4 hexes from its HQ, it may not go to 5.
    assert not can_enter_min_one(T, s, h39, H("0503"), H("0403"), moved=False)


def test_ac35_ooc_foot_unit_into_woods_and_prohibited_terrain() -> None:
    drg = unit("drg", "DRG", "0305", "f", ooc=True)
    car = unit("car", "P178", "0305", "f")
    s = game("hannut", unit("hq", "hq_fr", "0307", "f"), drg, car)
    assert mp_allowance(T, s, drg, action="move") == 1
    assert step_cost(T, s, drg, H("0305"), H("0306"), in_column=False) == 2
    assert can_enter_min_one(T, s, drg, H("0305"), H("0306"), moved=False)
    assert not can_enter_min_one(T, s, car, H("0305"), H("0306"), moved=False)  # wheeled: woods prohibited


# --- 6.3.3 / 9.1.5 retreats: AC-40 ------------------------------------------------------------------------------


def test_ac40_retreat_into_full_stack_continues_to_nearest_legal_hex() -> None:
    units = [unit("r", "DRG", "0808", "a")]
    units += [unit(f"s{i}", "FIN", "0708", "b") for i in range(3)]
    units += [unit("hqb", "hq_fr", "0708", "b")]  # HQs do not count
    units += [unit("ger", "SCH", "0909", "g")]
    s = game("hannut", *units)
    assert stack_count(s, H("0708"), T) == 3
    opts = retreat_options(T, s, s.units["r"], forbidden={H("0908")})
    assert H("0708") in opts and H("0908") not in opts and H("0909") not in opts
    path = retreat_path(T, s, s.units["r"], H("0708"), forbidden={H("0908")})
    assert path is not None and path[:2] == [H("0808"), H("0708")] and len(path) == 3
    assert distance(path[1], path[2]) == 1 and path[2] != H("0808")
    assert stacking_ok(T, s, path[2], [s.units["r"]])
    # The retreat never turns back into the hex it started from, though 0708 has the lowest label.
    s2 = game("hannut", unit("r", "DRG", "0708", "a"), *(unit(f"t{i}", "FIN", "0808", "b") for i in range(3)))
    assert retreat_path(T, s2, s2.units["r"], H("0808")) == [H("0708"), H("0808"), H("0709")]
    # With room in the first hex the retreat is one hex.
    s.units["s2"].hex = None
    assert retreat_path(T, s, s.units["r"], H("0708")) == [H("0808"), H("0708")]


def test_retreat_impossible_means_none_9_1_5() -> None:
    s = game("hannut", unit("r", "DRG", "0101", "a"), unit("g1", "SCH", "0102", "g"), unit("g2", "SCH", "0201", "g"))
    assert retreat_options(T, s, s.units["r"]) == []
    assert retreat_path(T, s, s.units["r"]) is None
    # The forbidden hex (where the attacker came from) counts as closed too.
    s.units["g2"].hex = None
    assert retreat_options(T, s, s.units["r"], forbidden={H("0201")}) == []


def test_retreat_through_a_minefield_and_wheeled_woods_6_3_3() -> None:
    s = game("hannut", unit("r", "DRG", "0808", "a"), mines={"0708": "german"})
    assert H("0708") in retreat_options(T, s, s.units["r"])
    car = unit("car", "P178", "0305", "a")
    s2 = game("hannut", car)
    assert H("0306") not in retreat_options(T, s2, car)


# --- 7.2 column and dispersal: AC-41, AC-42 --------------------------------------------------------------------


def test_ac41_road_in_column_half_mp_and_leaving_the_road() -> None:
    pz = unit("pz", "PZ3", "0907", "g")
    s = game("hannut", unit("hq", "hq_de", "0907", "g"), pz)
    assert step_cost(T, s, pz, H("0907"), H("0807"), in_column=True) == 0.5
    assert step_cost(T, s, pz, H("0907"), H("0807"), in_column=False) == 1  # road without column: terrain
    assert step_cost(T, s, pz, H("0807"), H("0708"), in_column=True) == 0.5  # orchard along the road
    assert step_cost(T, s, pz, H("0807"), H("0808"), in_column=True) == 1  # off the road: terrain cost
    assert column_after(s, [H("0907"), H("0807")], declared=True)
    assert not column_after(s, [H("0907"), H("0807"), H("0808")], declared=True)
    assert not column_after(s, [H("0907"), H("0807")], declared=False)
    reach = reachable_hexes(T, s, pz, 3, in_column=True)
    assert reach[H("0607")].cost == 1.5 and reach[H("0607")].path == (H("0907"), H("0807"), H("0708"), H("0607"))
    assert reachable_hexes(T, s, pz, 3, in_column=False)[H("0607")].cost == 3  # 1 + 1 + 1 around the orchard
    # Climbing along a road still costs the climb (Stonne road NE 0605 → 0706, level 1 → 2).
    s2 = game("stonne", unit("hq", "hq_de", "0605", "g"), unit("p", "PZ3", "0605", "g"))
    assert step_cost(T, s2, s2.units["p"], H("0605"), H("0706"), in_column=True) == 0.5 + 1


def test_ac42_tank_in_village_dispersed_and_in_column() -> None:
    pz = unit("pz", "PZ3", "0907", "g")
    inf = unit("inf", "SCH", "1006", "g")
    s = game("hannut", unit("hq", "hq_de", "0907", "g"), pz, inf)
    assert not dispersed(T, s, pz)
    path = [H("0907"), H("1006")]
    assert step_cost(T, s, pz, *path, in_column=True) == 0.5
    pz.hex = H("1006")
    assert dispersed(T, s, pz) and column_after(s, path, declared=True)
    assert not dispersed(T, s, inf)


# --- 7.3 stacking: AC-43 --------------------------------------------------------------------------------------------


def test_ac43_stacking_limit_hq_and_passing_through() -> None:
    units = [unit("a", "FIN", "0102", "x"), unit("b", "FIN", "0102", "y"), unit("c", "S35", "0102", "z")]
    units += [unit("hq", "hq_fr", "0102", "x"), unit("m", "DRG", "0101", "x"), unit("g", "SCH", "0201", "g")]
    s = game("hannut", *units)
    assert stack_count(s, H("0102"), T) == 3 == T.sequence.stacking_limit
    assert stack_count(s, H("0102")) == 3  # default tables
    assert not stacking_ok(T, s, H("0102"), [s.units["m"]])
    assert stacking_ok(T, s, H("0102"), [unit("hq2", "hq_fr", None, "y")])
    assert stacking_ok(T, s, H("0102"), [s.units["a"]])  # already there: not counted twice
    reach = reachable_hexes(T, s, s.units["m"], 3, in_column=False)
    assert H("0102") in reach and reach[H("0103")].path[1] == H("0102")  # the only way out is through the stack


def test_ac43_mounted_pair_counts_two_7_3() -> None:
    apc = unit("apc", "APC", "0808", "g", carrying="sch")
    sch = unit("sch", "SCH", "0808", "g", carried_by="apc")
    s = game("hannut", apc, sch, unit("x", "SCH", "0809", "g"))
    assert stack_count(s, H("0808"), T) == 2
    sch.hex = None  # a state that keeps the company "inside" its APC
    assert stack_count(s, H("0808"), T) == 2
    assert stacking_ok(T, s, H("0808"), [s.units["x"]])
    assert not stacking_ok(T, s, H("0808"), [s.units["x"], unit("y", "SCH", None, "g")])


# --- 8.5.1 demoralised retreat: AC-53 --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "side", "hq", "types", "edge_col"),
    [
        ("hannut", "french", "hq_fr", ("S35", "DRG", "P178"), 1),
        ("hannut", "german", "hq_de", ("PZ3", "SCH", "ACG"), 18),
        ("stonne", "german", "hq_de", ("PZ3", "GDI", "PAK"), 1),
        ("stonne", "french", "hq_fr", ("B1", "FIN", "AT47"), 13),
    ],
)
def test_ac53_demoralised_retreat_toward_own_edge(
    name: str, side: str, hq: str, types: tuple[str, ...], edge_col: int
) -> None:
    hexes = ("0708", "0709", "0808", "0809")
    units = [unit("hq", hq, hexes[0], "f")]
    units += [unit(f"u{i}", t, hexes[i + 1], "f") for i, t in enumerate(types)]
    s = game(name, *units)
    to_edge = edge_distance(s, side)
    assert all(to_edge(h) == abs(col(h) - edge_col) for h in s.board)
    paths = demoralised_retreat_paths(T, s, "f")
    assert set(paths) == {u.id for u in units}
    for uid, path in paths.items():
        hexes_only = [h for h in path if h is not None]
        assert hexes_only[0] == s.units[uid].hex
        steps = [to_edge(h) for h in hexes_only]
        assert all(b <= a for a, b in pairwise(steps)), (uid, path)  # never farther
        assert steps[-1] < steps[0] or path[-1] is EXIT, (uid, path)
        assert abs(col(hexes_only[-1]) - edge_col) < abs(col(hexes_only[0]) - edge_col)
        assert len(set(hexes_only)) == len(hexes_only)
        # It spends at most its retreat MP (HQs half: 8.5.1), with the road rate where it follows a road.
        spent = sum(step_cost(T, s, s.units[uid], a, b, in_column=True) or 0 for a, b in pairwise(hexes_only))
        assert spent <= max(demoralised_retreat_mp(T, s, s.units[uid]), 0.5), (uid, path)
    assert paths["hq"][-1] is EXIT or len(paths["hq"]) >= 2


def test_ac53_exit_at_own_edge_and_mp_modifiers_8_5_1() -> None:
    units = [
        unit("hq", "hq_fr", "0508", "f"),
        unit("tank", "S35", "0208", "f"),
        unit("neut", "S35", "0809", "f", neutralised=True),
        unit("both", "DRG", "0810", "f", neutralised=True, ooc=True),
        unit("ooc", "DRG", "0811", "f", ooc=True),
    ]
    s = game("hannut", *units)
    assert demoralised_retreat_mp(T, s, s.units["tank"]) == 6
    assert demoralised_retreat_mp(T, s, s.units["neut"]) == 3
    assert demoralised_retreat_mp(T, s, s.units["hq"]) == 3  # HQ: half of the fastest unit (S35 6)
    assert demoralised_retreat_mp(T, s, s.units["ooc"]) == 1
    assert demoralised_retreat_mp(T, s, s.units["both"]) == 0
    paths = demoralised_retreat_paths(T, s, "f")
    assert paths["tank"][-1] is EXIT and col(paths["tank"][-2]) == 1
    assert len(paths["both"]) == 2 and col(paths["both"][1]) == 7  # minimum one hex
    assert len(paths["ooc"]) == 2


def test_ac53_avoid_enemy_hexes_and_their_neighbours_8_5_1() -> None:
    # A French company in Ramillies (0809) retreats west. Its closer neighbours are 0709 and 0710 (both open);
    # a German in 0608 is adjacent to 0709 only, so it takes 0710 although 0709 comes first by label.
    units = [unit("hq", "hq_fr", "1509", "f"), unit("inf", "DRG", "0809", "f"), unit("g", "SCH", "0608", "g")]
    s = game("hannut", *units)
    to_edge = edge_distance(s, "french")
    closer = sorted((n for n in H("0809").neighbours() if to_edge(n) < to_edge(H("0809"))), key=s.board.label)
    assert closer == [H("0709"), H("0710")]
    assert H("0709") in H("0608").neighbours() and H("0710") not in H("0608").neighbours()
    path = demoralised_retreat_paths(T, s, "f")["inf"]
    assert path[:2] == [H("0809"), H("0710")]
    # Without the German it would have gone by label order.
    s.units["g"].hex = None
    assert demoralised_retreat_paths(T, s, "f")["inf"][:2] == [H("0809"), H("0709")]
    # Both closer hexes enemy-occupied: never entered; the unit may only move sideways (same distance).
    s.units["g"].hex = H("0709")
    s.units["g2"] = unit("g2", "SCH", "0710", "g")
    path = demoralised_retreat_paths(T, s, "f")["inf"]
    assert H("0709") not in path and H("0710") not in path
    assert all(to_edge(h) <= to_edge(H("0809")) for h in path if h is not None)


def test_ac53_stacking_legal_at_the_end_8_5_1() -> None:
    units = [unit("hq", "hq_fr", "1509", "f"), unit("inf", "DRG", "0809", "f")]
    s = game("hannut", *units)
    path = demoralised_retreat_paths(T, s, "f")["inf"]
    end = path[-1]
    assert end is not None and len(path) == 1 + printed_mp("DRG")  # open ground: 1 MP a hex
    bk.data(s).formations["other"] = new_formation("french", "other", None, 8)
    for i in range(3):
        s.units[f"x{i}"] = unit(f"x{i}", "FIN", s.board.label(end), "other")
    assert demoralised_retreat_paths(T, s, "f")["inf"] == path[:-1]


# --- reachable_hexes against an independent search -----------------------------------------------------------------


def _roads(bd: Board) -> set[frozenset[Hex]]:
    out: set[frozenset[Hex]] = set()
    for _name, path in bd.data.lines.get("roads", ()):
        out.update(frozenset(p) for p in pairwise(path))
    return out


def _reference(
    bd: Board,
    mclass: str,
    start: Hex,
    mp: float,
    *,
    column: bool,
    enemies: set[Hex],
    mined: set[Hex],
    hq: Hex | None,
    cd: int | None,
) -> dict[Hex, float]:
    """Bellman-Ford relaxation straight from the digest: 13.3 costs, road ½ in column, climb +1, mines +2,
    enemies impassable, doctrine 3.4."""
    roads = _roads(bd)
    best = {start: 0.0}
    changed = True
    while changed:
        changed = False
        for a, ca in list(best.items()):
            for b in a.neighbours():
                if b not in bd.cells or b in enemies:
                    continue
                if hq is not None and cd is not None and distance(hq, b) > max(cd, distance(hq, a)):
                    continue
                if column and frozenset((a, b)) in roads:
                    c: float | None = 0.5
                else:
                    c = COSTS_13_3[bd.cells[b].terrain][mclass]
                if c is None:
                    continue
                nc = ca + c + max(0, bd.cells[b].level - bd.cells[a].level) + (2 if a in mined else 0)
                if nc <= mp and nc < best.get(b, math.inf):
                    best[b] = nc
                    changed = True
    return best


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(["hannut", "stonne"]),
    utype=st.sampled_from(["SCH", "PZ1", "ACG", "S35", "P178", "DRG", "FIN", "PAK"]),
    seed=st.integers(0, 10**6),
    mp=st.sampled_from([1, 2.5, 3, 5, 7, 10]),
    column=st.booleans(),
)
def test_reachable_hexes_agrees_with_independent_search(
    name: str, utype: str, seed: int, mp: float, column: bool
) -> None:
    rng = random.Random(seed)
    bd = board(name)
    cells = sorted(bd.cells)
    start = rng.choice(cells)
    if COSTS_13_3[bd.cells[start].terrain][T.units[utype].move_class] is None:
        start = next(h for h in cells if bd.cells[h].terrain == "open")
    side = T.units[utype].side
    enemy = "french" if side == "german" else "german"
    hq_type = "hq_de" if side == "german" else "hq_fr"
    hq_hex = rng.choice([h for h in cells if distance(h, start) <= 4])
    units = [unit("u", utype, bd.label(start), "f"), unit("hq", hq_type, bd.label(hq_hex), "f")]
    foes = rng.sample([h for h in cells if h != start], 6)
    units += [unit(f"e{i}", "FIN" if enemy == "french" else "SCH", bd.label(h), "e") for i, h in enumerate(foes)]
    mined = set(rng.sample(cells, 8))
    s = game(name, *units, mines={bd.label(h): enemy for h in mined})
    u = s.units["u"]
    got = reachable_hexes(T, s, u, mp, in_column=column)
    cd = command_distance(T, s, u)
    want = _reference(
        bd,
        T.units[utype].move_class,
        start,
        mp,
        column=column,
        enemies=set(foes),
        mined={h for h in mined if h not in foes},
        hq=hq_hex if cd is not None else None,
        cd=cd,
    )
    assert {h: r.cost for h, r in got.items()} == want
    for h, r in got.items():
        assert r.path[0] == start and r.path[-1] == h
        total = 0.0
        for a, b in pairwise(r.path):
            c = step_cost(T, s, u, a, b, in_column=column)
            assert c is not None and doctrine_allows(T, s, u, a, b)
            total += c
        assert total == r.cost


# --- 7.1 a move enters adjacent hexes one after another (issue 16 item 7) -----------------------------------------


def test_7_1_a_path_is_a_chain_of_adjacent_hexes() -> None:
    """7.1: a unit enters one adjacent hex after another. A path with a hex that is not adjacent to the one before
    (first step or later) is refused citing 7.1 and nothing moves; an adjacent path is followed."""
    pz4, hq = "ger-i5pzr-pz4", "ger-i5pzr-hq"
    s = skirmish("ger-i-5-pzr", {pz4: "0512", hq: "0512"})
    before = s.state
    for path in ("0510", "0511 0609", "0511 0511", "0511 0510 0612"):
        text = refusal(s, f"move {pz4} {path}", "7.1")
        assert "not adjacent" in text
        assert s.state is before and s.state.units[pz4].hex == H("0512")
    assert "not adjacent" in refusal(s, f"stack {pz4} {hq} 0510", "7.1")
    s.apply(f"move {pz4} 0511 0510")
    assert s.state.units[pz4].hex == H("0510")


def test_6_3_4_a_path_cut_by_a_window_says_what_is_left_and_goes_on_when_given_again() -> None:
    """6.3.4, 7.1: a move given with its whole path stops where a movement window opens (the passive side may
    react); the log says where it stopped and which hexes are still to go (it stopped silently before), and the
    rest of the path given again after the window goes on (issue 18 item 2)."""
    pz4, hq, at = "ger-i5pzr-pz4", "ger-i5pzr-hq", "fra-11rdp-at25"
    s = skirmish("ger-i-5-pzr", {pz4: "0512", hq: "0512", at: "0410"})
    events = s.apply(f"move {pz4} 0511 0510 0509")
    assert s.state.units[pz4].hex == H("0511") and s.state.to_act == "french"
    assert f"{pz4} stops at 0511 on its path; still to go: 0510 0509 (rule 6.3.4)" in [e.text for e in events]
    waiting = s.ruleset.waiting(s.state)
    assert waiting.react_to == (pz4,) and waiting.struck == (), "6.3.3: the window reacts to the moving unit"
    s.apply("close")
    s.apply(f"move {pz4} 0510")
    assert s.state.units[pz4].hex == H("0510")
