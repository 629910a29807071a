"""Blitzkrieg 1940 digest section 12 (scenarios Hannut and Stonne), 11 and 13.8 (victory), acceptance cases
AC-64..AC-74 and AC-81: the scenario files, their setup checks (``setup.py``) and the victory rules (``victory.py``).

The ruleset class is not registered yet, so the files are parsed against a stand-in ruleset that carries the same
scenario checks (:class:`StandIn`).
"""

from __future__ import annotations

import copy
import dataclasses
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine.board import Board
from engine.errors import Problem
from engine.hexgrid import Hex, hex_label, hex_to_offset, hexes_within, offset_to_hex, parse_hex
from engine.rules import Ruleset
from engine.rulesets.blitzkrieg1940 import model as bk
from engine.rulesets.blitzkrieg1940.data import DATA_DIR, Tables, load_tables
from engine.rulesets.blitzkrieg1940.setup import (
    check_setup,
    chits_in_play,
    marker_zone_hexes,
    scenario_consistency,
    unit_zone,
    zone_hexes,
)
from engine.rulesets.blitzkrieg1940.victory import (
    hannut_vp,
    held_by_update,
    losses,
    victory_check,
    victory_kind,
    vp_track,
)
from engine.scenario import Scenario, parse_scenario, validate_path
from engine.state import GameState, Outcome, Unit

SCENARIOS = Path(__file__).resolve().parents[3] / "scenarios" / "blitzkrieg1940"


class StandIn(Ruleset):
    """Stand-in for the Blitzkrieg 1940 ruleset class: its data folder, scenario keys, setup terrain rule and checks."""

    id = "blitzkrieg1940"
    scenario_keys = frozenset({"chits", "schedule", "zones", "markers", "special", "formations", "victory"})

    @property
    def data_dir(self) -> Path:
        return DATA_DIR

    def can_stand(self, unit_type: str, terrain_class: str) -> bool:
        """7.3 [P]: a unit sets up only where it could move (HQs anywhere)."""
        t = load_tables()
        u = t.units[unit_type]
        return u.category == "hq" or t.terrain.classes[terrain_class].entry_cost(u.move_class) is not None

    def validate_scenario(self, scenario: Scenario) -> list[Problem]:
        t = load_tables()
        board = Board(scenario.map, self.terrain_codes)
        return [*check_setup(scenario, t, board), *scenario_consistency(scenario, t)]


RS = StandIn()


def load(name: str) -> Scenario:
    path = SCENARIOS / f"{name}.toml"
    return parse_scenario(path.read_text(encoding="utf-8"), str(path), ruleset=RS)


@pytest.fixture(scope="module")
def t() -> Tables:
    return load_tables()


@pytest.fixture(scope="module")
def hannut() -> Scenario:
    return load("hannut")


@pytest.fixture(scope="module")
def stonne() -> Scenario:
    return load("stonne")


def board_of(sc: Scenario) -> Board:
    return Board(sc.map, RS.terrain_codes)


def labels(hexes: set[Hex]) -> list[str]:
    return sorted(hex_label(h) for h in hexes)


def moved(sc: Scenario, uid: str, label: str) -> Scenario:
    """The scenario with unit ``uid`` set up at ``label``."""
    return dataclasses.replace(
        sc, units=tuple(dataclasses.replace(u, hex=parse_hex(label)) if u.id == uid else u for u in sc.units)
    )


def edited(sc: Scenario, change: Callable[[dict[str, Any]], None]) -> Scenario:
    """The scenario with its raw tables changed by ``change`` (a deep copy is changed)."""
    raw = copy.deepcopy(dict(sc.raw))
    change(raw)
    return dataclasses.replace(sc, raw=raw)


def restatus(sc: Scenario, uid: str, **status: Any) -> Scenario:
    return dataclasses.replace(
        sc, units=tuple(dataclasses.replace(u, status={**u.status, **status}) if u.id == uid else u for u in sc.units)
    )


def setup_problems(sc: Scenario, t: Tables) -> list[str]:
    return [str(p) for p in check_setup(sc, t, board_of(sc))]


def about(problems: list[str], *words: str) -> list[str]:
    return [p for p in problems if all(w in p for w in words)]


# --- The files parse and are consistent ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["hannut", "stonne"])
def test_12_scenario_parses_with_the_stand_in_ruleset(name: str) -> None:
    sc = load(name)  # raises ScenarioError listing every problem
    assert sc.ruleset == "blitzkrieg1940"
    assert sc.id == name
    assert sc.first == "german"
    assert sc.side_ids() == ("german", "french")
    assert sc.raw["briefing"].strip()
    assert sc.raw["history"].strip()


@pytest.mark.parametrize("name", ["hannut", "stonne"])
def test_12_check_setup_and_consistency_report_nothing(name: str, t: Tables) -> None:
    sc = load(name)
    assert check_setup(sc, t, board_of(sc)) == []
    assert scenario_consistency(sc, t) == []


@pytest.mark.parametrize("name", ["hannut", "stonne"])
def test_12_unit_ids_are_unique_and_readable(name: str) -> None:
    sc = load(name)
    ids = [u["id"] for u in sc.raw["units"]]
    assert len(ids) == len(set(ids))
    for u in sc.units:
        group = u.status.get("group") or u.formation
        assert isinstance(group, str)
        short = "".join(group.split("-")[1:]).removesuffix("at")
        prefix = {"german": "ger", "french": "fra"}[u.side]
        assert re.fullmatch(rf"{prefix}-{short}-[a-z0-9]+(-[1-9])?", u.id), u.id
        assert u.id.endswith("-hq") == (u.type in ("hq_de", "hq_fr")), u.id


@pytest.mark.parametrize("name", ["hannut", "stonne"])
def test_12_sides_own_edges_match_the_map(name: str) -> None:
    sc = load(name)
    edges = {s["id"]: s["edge"] for s in sc.raw["sides"]}
    assert edges == dict(sc.map.edges)
    # 12.1: German east (column 18), French west; 12.2: German north = column 01 (left), French south = column 13.
    assert edges == (
        {"german": "right", "french": "left"} if name == "hannut" else {"german": "left", "french": "right"}
    )


def test_12_1_hannut_length_objectives_and_special_rules(hannut: Scenario, t: Tables) -> None:
    assert hannut.turns == 6
    assert hannut.raw["victory"]["kind"] == "vp"
    assert hannut.raw["victory"]["objectives"].split() == [
        "0403", "0404", "0504", "1006", "1204", "1205", "1415", "1416", "1512"
    ]  # fmt: skip
    special = hannut.raw["special"]
    assert special["initial_holder"] == "french"
    assert special["turn1_kept_chits"] == {"side": "german", "stuka": 1, "artillery": 1, "formation": 1}
    assert special["marker_counts"] == {"fortification": 5}
    # 12.1: the I/12 icon company starts mounted on the I/12 APC, in the same hex.
    icon = next(u for u in hannut.units if u.status.get("halftrack_icon"))
    apc = hannut.unit(icon.status["mounted_on"])
    assert (icon.formation, apc.formation, apc.type) == ("ger-i-12-schr", "ger-i-12-schr", "APC")
    assert icon.hex == apc.hex


def test_12_1_second_kurassiere_starts_with_four_step_losses(hannut: Scenario, t: Tables) -> None:
    kur2 = [u for u in hannut.units if u.formation == "fra-2-kur" and u.type != "hq_fr"]
    assert sorted(u.type for u in kur2) == ["H39", "H39", "S35", "S35", "S35"]  # every counter is listed
    assert sum(t.units[u.type].steps - (u.steps or t.units[u.type].steps) for u in kur2) == 4
    assert hannut.raw["special"]["setup_losses"] == {"formation": "fra-2-kur", "steps": 4}


def test_12_2_stonne_length_victory_and_special_rules(stonne: Scenario) -> None:
    assert stonne.turns == 10
    assert stonne.raw["victory"] == {"kind": "hold", "side": "german", "hexes": "0708 0709", "turn": 10}
    special = stonne.raw["special"]
    assert special["bcc_4"] == {"formation": "fra-4-bcc", "may_dissolve": True}
    assert special["initial_holder"] == "french"
    assert special["marker_counts"] == {"fortification": 5, "minefield": 4}
    formations = {f["id"]: f for f in stonne.raw["formations"]}
    assert formations["ger-ii-pzr"]["leaves"] == 3
    assert "hq" not in formations["fra-4-bcc"]


# --- Zones: the explicit lists are the digest's definitions (12.1, 12.2, 13.9) ----------------------------------------


def within(n: int, centres: str, cols: int, rows: int) -> set[Hex]:
    out: set[Hex] = set()
    for c in centres.split():
        for h in hexes_within(parse_hex(c), n):
            col, row = hex_to_offset(h)
            if 1 <= col <= cols and 1 <= row <= rows:
                out.add(h)
    return out


def block(c0: int, c1: int, r0: int, r1: int) -> set[Hex]:
    return {offset_to_hex(c, r) for c in range(c0, c1 + 1) for r in range(r0, r1 + 1)}


def test_12_1_hannut_zones_follow_the_digest(hannut: Scenario) -> None:
    z = zone_hexes
    assert z(hannut, "fra-12-kur") == within(2, "1202", 18, 16)
    assert z(hannut, "fra-iii-11-rdp") == within(2, "1205", 18, 16)
    assert z(hannut, "fra-2-kur") == within(1, "1408 1409 1410", 18, 16)
    assert labels(z(hannut, "fra-ii-11-rdp")) == ["1511", "1512", "1513", "1611", "1612", "1613"]  # 12.1 [I]
    assert len(within(2, "1712", 18, 16)) == 16  # the unresolved zone of 12.1 [I]
    assert z(hannut, "fra-i-11-rdp") == within(2, "1416", 18, 16)
    assert z(hannut, "fra-11-rdp-at") == within(2, "1205", 18, 16) | z(hannut, "fra-ii-11-rdp") | within(
        2, "1416", 18, 16
    )
    assert z(hannut, "fra-1-kur") == block(1, 15, 1, 16)
    assert marker_zone_hexes(hannut, "fortification", "french") == block(1, 15, 1, 16)
    for fid in ("ger-i-5-pzr", "ger-ii-5-pzr", "ger-i-12-schr", "ger-ii-12-schr", "ger-kg-3pz"):
        assert z(hannut, fid) == block(16, 16, 1, 10)
    for fid in ("ger-i-35-pzr", "ger-ii-35-pzr", "ger-i-33-schr"):
        assert z(hannut, fid) == block(17, 17, 10, 16)


def test_12_2_stonne_zones_follow_the_digest(stonne: Scenario) -> None:
    z = zone_hexes
    stonne_area = within(1, "0708 0709", 13, 16)
    assert labels(stonne_area) == ["0607", "0608", "0609", "0707", "0708", "0709", "0710", "0807", "0808", "0809"]
    for fid in ("fra-i-205-ri", "fra-ii-205-ri", "fra-4-bcc"):
        assert z(stonne, fid) == stonne_area
    exclusion = within(2, "0108 0112 0114 0401", 13, 16)
    assert z(stonne, "fra-iii-205-ri") == block(3, 13, 1, 16) - exclusion
    assert marker_zone_hexes(stonne, "minefield", "french") == block(4, 13, 12, 16)
    assert marker_zone_hexes(stonne, "fortification", "french") is None  # any hex with French infantry (10.2 [P])
    for fid in ("ger-i-gd", "ger-stupion-43", "ger-stug-640", "ger-pzjg-14-gd"):
        assert z(stonne, fid) == within(1, "0112", 13, 16)
    assert z(stonne, "ger-ii-gd") == within(1, "0114", 13, 16)
    assert z(stonne, "ger-iii-gd") == within(1, "0108", 13, 16)
    assert z(stonne, "ger-ii-pzr") == within(1, "0401", 13, 16)
    # 12.2 [P]: the 205 RI AT gun sets up in the zone of the battalion it is assigned to.
    gun = stonne.unit("fra-205ri-at25")
    assert gun.formation == "fra-i-205-ri"
    assert unit_zone(stonne, gun) == stonne_area


# --- AC-70, AC-71, AC-81: setup legality ------------------------------------------------------------------------------


def test_ac_70_stonne_setup_legality(stonne: Scenario, t: Tables) -> None:
    # A III/205 RI unit in column 02 → illegal (columns 03–13).
    problems = setup_problems(moved(stonne, "fra-iii205ri-fin-3", "0205"), t)
    assert about(problems, "fra-iii205ri-fin-3", "outside the setup zone", "columns 03-13")

    # Minefields: 0913 legal, 0311 illegal (columns 04–13, rows 12–16).
    def mine_at(label: str) -> Callable[[dict[str, Any]], None]:
        def change(raw: dict[str, Any]) -> None:
            next(m for m in raw["markers"] if m["kind"] == "minefield")["hex"] = label

        return change

    assert setup_problems(edited(stonne, mine_at("0913")), t) == []
    problems = setup_problems(edited(stonne, mine_at("0311")), t)
    assert about(problems, "minefield marker at 0311 is outside its zone", "columns 04-13, rows 12-16")


def test_ac_70_stonne_french_exclusion_ring(stonne: Scenario, t: Tables) -> None:
    problems = setup_problems(moved(stonne, "fra-i205ri-fin-1", "0402"), t)
    assert about(problems, "fra-i205ri-fin-1", "within 2 hexes of 0401", "12.2 [P]")


def test_ac_71_hannut_setup_legality(hannut: Scenario, t: Tables) -> None:
    # 1. Kürassiere (sets up last, anywhere not east of column 15): 1505 legal, 1605 illegal.
    assert parse_hex("1505") in zone_hexes(hannut, "fra-1-kur")
    assert not about(setup_problems(moved(hannut, "fra-1kur-s35-1", "1505"), t), "fra-1kur-s35-1", "setup zone")
    assert about(setup_problems(moved(hannut, "fra-1kur-s35-1", "1605"), t), "fra-1kur-s35-1", "outside the setup zone")
    # A 3 Pz unit in 1611 and a 4 Pz unit in 1709 → illegal.
    assert about(setup_problems(moved(hannut, "ger-ii5pzr-pz3", "1611"), t), "ger-ii5pzr-pz3", "outside", "1601-1610")
    assert about(setup_problems(moved(hannut, "ger-i35pzr-pz2", "1709"), t), "ger-i35pzr-pz2", "outside", "1710-1716")
    # A 2. Kürassiere unit in 1511 (adjacent to 1410) → legal, and the whole setup stays legal.
    assert setup_problems(moved(hannut, "fra-2kur-h39-2", "1511"), t) == []


def test_ac_81_hannut_ii_11_rdp_zone(hannut: Scenario, t: Tables) -> None:
    assert setup_problems(moved(hannut, "fra-ii11rdp-drg-2", "1612"), t) == []
    for label in ("1811", "1711"):
        problems = setup_problems(moved(hannut, "fra-ii11rdp-drg-2", label), t)
        assert about(problems, "fra-ii11rdp-drg-2", f"at {label} is outside the setup zone of fra-ii-11-rdp")


# --- The setup checks find what they should (7.3, 3.4, 10.2, 12.1) ----------------------------------------------------


def test_7_3_stacking_terrain_and_sides(hannut: Scenario, stonne: Scenario, t: Tables) -> None:
    assert about(setup_problems(moved(hannut, "ger-i5pzr-pz1", "1603"), t), "4 units in 1603", "at most 3")
    assert about(setup_problems(moved(stonne, "ger-pzjg14gd-pak-1", "0113"), t), "may not set up in woods at 0113")
    assert about(setup_problems(moved(hannut, "ger-ii5pzr-pz3", "1511"), t), "french and german", "1511")


def test_3_4_doctrine_distance_at_setup(hannut: Scenario, stonne: Scenario, t: Tables) -> None:
    # French 2 hexes: the 1. Kür HQ is at 1413; 1315 is 2 hexes away (legal), 1316 is 3.
    assert setup_problems(moved(hannut, "fra-1kur-h39-2", "1315"), t) == []
    assert about(setup_problems(moved(hannut, "fra-1kur-h39-2", "1316"), t), "fra-1kur-h39-2", "3 hexes", "at most 2")
    # German 3 hexes: the I/5 PzR HQ is at 1605; 1608 is 3 hexes away (legal), 1609 is 4.
    assert setup_problems(moved(hannut, "ger-i5pzr-pz1", "1608"), t) == []
    assert about(
        setup_problems(moved(hannut, "ger-i5pzr-pz1", "1609"), t), "ger-i5pzr-pz1", "rule 3.4: expected at most 3"
    )
    # Motorised units (the KG) and independent units are exempt (1.1, 10.3).
    assert setup_problems(moved(hannut, "ger-kg3pz-krd-1", "1610"), t) == []
    assert not about(setup_problems(moved(stonne, "fra-4bcc-fcm-1", "0607"), t), "rule 3.4")


def test_10_2_fortifications_and_marker_counts(hannut: Scenario, t: Tables) -> None:
    def fort_at(label: str) -> Callable[[dict[str, Any]], None]:
        def change(raw: dict[str, Any]) -> None:
            raw["markers"][0]["hex"] = label

        return change

    assert about(setup_problems(edited(hannut, fort_at("1409")), t), "fortification at 1409 holds no french infantry")
    assert about(setup_problems(edited(hannut, fort_at("1605")), t), "outside its zone", "columns 01-15")
    problems = setup_problems(edited(hannut, lambda raw: raw["markers"].pop()), t)
    assert about(problems, "4 fortification markers placed (expected 5")


def test_12_1_independent_and_mounted_units_at_setup(hannut: Scenario, t: Tables) -> None:
    # The 11 RDP AT gun must stack with a unit of the battalion it is assigned to.
    assert about(setup_problems(moved(hannut, "fra-11rdp-at25", "1611"), t), "must stack with a unit of fra-ii-11-rdp")
    # A company rides only its own battalion's APC, in the APC's hex.
    problems = setup_problems(restatus(hannut, "ger-i12schr-sch-1", mounted_on="ger-i33schr-apc"), t)
    assert about(problems, "expected an APC of its own battalion")
    assert about(problems, "does not start with it")


def test_12_2_reinforcements_enter_on_their_own_edge(stonne: Scenario, t: Tables) -> None:
    late = dataclasses.replace(
        stonne,
        units=tuple(
            dataclasses.replace(u, entry=(parse_hex("0101"),)) if u.id == "fra-6grdi-hq" else u for u in stonne.units
        ),
    )
    assert about(setup_problems(late, t), "fra-6grdi-hq", "not on the french map edge")


# --- Consistency with the tables finds what it should ----------------------------------------------------------------


def consistency(sc: Scenario, t: Tables) -> list[str]:
    return [str(p) for p in scenario_consistency(sc, t)]


def test_13_7_consistency_catches_counter_and_chit_changes(hannut: Scenario, stonne: Scenario, t: Tables) -> None:
    fewer = dataclasses.replace(hannut, units=tuple(u for u in hannut.units if u.id != "ger-i35pzr-pz4"))
    assert about(consistency(fewer, t), "ger-i-35-pzr: counters differ", "missing 1 × PZ4@0")
    healed = dataclasses.replace(
        hannut,
        units=tuple(dataclasses.replace(u, steps=None) if u.formation == "fra-2-kur" else u for u in hannut.units),
    )
    assert about(consistency(healed, t), "fra-2-kur: 0 steps lost at setup (expected 4")

    def more_replays(raw: dict[str, Any]) -> None:
        next(c for c in raw["chits"] if c["side"] == "german" and c["kind"] == "replay")["count"] = 3

    assert about(consistency(edited(hannut, more_replays), t), "german replay chits in turn 1: 3 (expected 2")

    def wrong_salvos(raw: dict[str, Any]) -> None:
        next(c for c in raw["chits"] if c["kind"] == "artillery")["salvos"] = ["medium", "light"]

    assert about(consistency(edited(stonne, wrong_salvos), t), "artillery salvos", "expected")
    assert about(consistency(edited(stonne, lambda raw: raw["schedule"].pop(1)), t), "missing timed event turn 3 end")

    def late_pzr(raw: dict[str, Any]) -> None:
        next(f for f in raw["formations"] if f["id"] == "ger-ii-pzr")["leaves"] = 4

    problems = consistency(edited(stonne, late_pzr), t)
    assert about(problems, "ger-ii-pzr: leaves = 4, oob.toml says 3")
    assert about(problems, "german formation chits in turn 4")


# --- AC-67, AC-68: chits by side and turn -----------------------------------------------------------------------------


def test_ac_67_stonne_chit_schedule(stonne: Scenario, t: Tables) -> None:
    def formations(side: str, turn: int) -> set[str]:
        return set(chits_in_play(stonne, side, turn).formations)

    fr1 = chits_in_play(stonne, "french", 1)
    assert formations("french", 1) == {"fra-i-205-ri", "fra-ii-205-ri", "fra-iii-205-ri", "fra-4-bcc"}
    assert (fr1.artillery, fr1.replay, fr1.general, fr1.stuka) == (1, 1, 1, 0)
    assert set(chits_in_play(stonne, "french", 1, include_optional=False).formations) == formations("french", 1) - {
        "fra-4-bcc"
    }  # 4 BCC dissolved at setup
    ge1 = chits_in_play(stonne, "german", 1)
    assert formations("german", 1) == {
        "ger-i-gd",
        "ger-ii-gd",
        "ger-iii-gd",
        "ger-pzjg-14-gd",
        "ger-stug-640",
        "ger-stupion-43",
        "ger-ii-pzr",
    }
    assert (ge1.artillery, ge1.replay, ge1.general, ge1.stuka) == (1, 2, 2, 0)
    assert formations("french", 2) - formations("french", 1) == {"fra-6-grdi"}
    assert formations("french", 4) - formations("french", 3) == {"fra-45-bcc", "fra-i-67-ri", "fra-49-bcc"}
    assert chits_in_play(stonne, "french", 4).artillery == 2
    assert "ger-ii-pzr" in formations("german", 3)
    assert "ger-ii-pzr" not in formations("german", 4)
    ge6 = chits_in_play(stonne, "german", 6)
    assert (ge6.artillery, ge6.replay) == (2, 3)
    assert chits_in_play(stonne, "german", 5).artillery == 1
    assert formations("german", 7) - formations("german", 6) == {"ger-i-69-schr", "ger-pzjg-14-schr-8x"}
    assert formations("french", 8) - formations("french", 7) == {"fra-ii-67-ri"}
    # The same events in [[schedule]], for the players and the turn sequence.
    events = {(e["turn"], e["when"]) for e in stonne.raw["schedule"]}
    assert events == {(2, "start"), (3, "end"), (4, "start"), (6, "start"), (7, "start"), (8, "start")}
    # ... and the same as the rule table in data/chits.toml.
    for side in ("german", "french"):
        for turn in range(1, 11):
            have, want = chits_in_play(stonne, side, turn), t.chits["stonne"].in_play(side, turn)
            assert sorted(have.formations) == sorted(want.formations)
            assert dataclasses.replace(have, formations=()) == dataclasses.replace(want, formations=())


def test_ac_68_hannut_chit_counts(hannut: Scenario, t: Tables) -> None:
    fr, ge = chits_in_play(hannut, "french", 1), chits_in_play(hannut, "german", 1)
    assert (len(fr.formations), fr.artillery, fr.stuka, fr.replay, fr.general, fr.total) == (6, 2, 0, 1, 1, 10)
    assert (len(ge.formations), ge.artillery, ge.stuka, ge.replay, ge.general, ge.total) == (8, 3, 2, 2, 2, 17)
    for turn in range(1, 7):
        assert chits_in_play(hannut, "german", turn) == ge
        assert chits_in_play(hannut, "french", turn) == fr
    assert "schedule" not in hannut.raw


# --- AC-69: salvos per chit -------------------------------------------------------------------------------------------


def salvos(sc: Scenario, side: str, kind: str) -> list[list[str]]:
    return [c["salvos"] for c in sc.raw["chits"] if c["side"] == side and c["kind"] == kind]


def test_ac_69_salvos_per_chit(hannut: Scenario, stonne: Scenario, t: Tables) -> None:
    assert salvos(hannut, "french", "artillery") == [["medium", "medium", "light", "light"]]
    assert salvos(hannut, "german", "artillery") == [["medium", "medium", "heavy", "heavy"]]
    assert salvos(hannut, "german", "stuka") == [["stuka", "stuka"]]
    assert salvos(stonne, "french", "artillery") == [["heavy", "medium", "light", "light", "light"]] * 2
    assert salvos(stonne, "german", "artillery") == [["medium", "medium", "light", "light"]] * 2
    cal = t.artillery.calibres
    assert (cal["light"].mm, cal["medium"].mm, cal["heavy"].mm) == (75, 105, 150)
    assert cal["medium"].attack == 5  # medium 105 mm = column 5 before modifiers
    assert t.artillery.stuka_attack == 8


# --- Victory: 11, 12.1, 12.2, 13.8 ------------------------------------------------------------------------------------


def start_state(sc: Scenario, t: Tables, turn: int = 1) -> GameState:
    """A synthetic state: every counter as the scenario sets it up, the objectives held as 12 says."""
    units = {
        u.id: Unit(
            u.id,
            u.type,
            u.side,
            u.hex,
            u.steps if u.steps is not None else t.units[u.type].steps,
            u.formation,
            bk.Status(),
        )
        for u in sc.units
    }
    victory = dict(sc.raw["victory"])
    holder = sc.raw["special"]["initial_holder"]
    held = {label: holder for key in ("objectives", "hexes") for label in str(victory.get(key, "")).split()}
    return GameState(
        ruleset="blitzkrieg1940",
        scenario=sc.id,
        sides=sc.side_ids(),
        board=board_of(sc),
        units=units,
        turn=turn,
        phase="end",
        data=bk.new_data(scenario=sc.id, held_by=held, victory=victory),
    )


def lose_steps(st: GameState, t: Tables, n: int, pick: Callable[[Unit], bool]) -> None:
    """Take ``n`` step losses from the units ``pick`` selects, one unit at a time."""
    for u in sorted(st.units.values(), key=lambda u: u.id):
        while n and pick(u) and u.steps > 0:
            u.steps -= 1
            n -= 1
    assert n == 0


def hannut_state(sc: Scenario, t: Tables, vp: int, turn: int) -> GameState:
    """A Hannut state at the end of ``turn`` with exactly ``vp`` German VP (13.8)."""
    st = start_state(sc, t, turn)
    if vp >= 8:
        held, other = min(9, (vp - 8) // 3), 0
        other = vp - 8 - 3 * held
        for label in t.hannut_victory.objectives:
            if held:
                bk.data(st).held_by[label] = "german"
                held -= 1
        lose_steps(st, t, other, lambda u: u.side == "french" and u.type in ("DRG", "FMG", "P178", "MOT"))
    else:
        lose_steps(st, t, 8 - vp, lambda u: u.side == "german" and u.type != "hq_de")
    assert hannut_vp(t, st) == vp
    return st


@pytest.mark.parametrize(
    ("turn", "vp", "winner"),
    [
        (2, 13, "french"),  # the seed's example: 13 < 14
        (1, 13, "german"),
        (1, 12, None),
        (1, 8, None),
        (1, 7, "french"),
        (5, 37, "german"),
        (5, 26, None),
        (6, 32, "draw"),
        (6, 42, "draw"),
        (6, 43, "german"),
        (6, 31, "french"),
    ],
)
def test_ac_64_hannut_vp_windows(hannut: Scenario, t: Tables, turn: int, vp: int, winner: str | None) -> None:
    st = hannut_state(hannut, t, vp, turn)
    outcome = victory_check(t, st, final=turn == hannut.turns)
    assert (outcome.winner if outcome else None) == winner
    if outcome is not None:
        assert "rule 12.1" in outcome.reason


def test_ac_65_hannut_vp_count(hannut: Scenario, t: Tables) -> None:
    st = start_state(hannut, t)
    assert losses(t, st).french_tank == 4  # the 2. Kürassiere's setup losses (12.1)
    assert hannut_vp(t, st) == 8
    assert victory_check(t, st, final=False) is None  # 8 is inside the turn-1 window 8–12
    # The German takes Thisnes, eliminates an H39 (2 steps) and loses one step: 8 + 3 + 4 − 1 = 14.
    assert held_by_update(bk.data(st).held_by, "german", ["1612", "1512"]) == ["1512"]
    st.units["fra-1kur-h39-1"].steps = 0
    st.units["fra-1kur-h39-1"].hex = None
    st.units["ger-ii5pzr-pz1"].steps -= 1
    assert hannut_vp(t, st) == 14
    # HQs have no steps, exits are not losses, and the total never drops below 0.
    st.units["ger-kg3pz-krd-1"].hex = None
    bk.status(st.units["ger-kg3pz-krd-1"]).exited = True
    assert hannut_vp(t, st) == 14
    lose_steps(st, t, 40, lambda u: u.side == "german" and u.type != "hq_de")
    assert hannut_vp(t, st) == 0


def test_11_held_by_is_the_last_side_through() -> None:
    held = {"0708": "french", "0709": "french"}
    assert held_by_update(held, "german", [parse_hex("0608"), parse_hex("0708")]) == ["0708"]
    assert held_by_update(held, "german", ["0708"]) == []  # already German
    assert held_by_update(held, "french", ["0809", "0709", "0708"]) == ["0708"]
    assert held == {"0708": "french", "0709": "french"}
    assert held_by_update({}, "german", ["0708"]) == []


def test_ac_66_stonne_possession_at_the_end(stonne: Scenario, t: Tables) -> None:
    st = start_state(stonne, t, turn=10)
    assert victory_kind(st) == "hold"
    held_by_update(bk.data(st).held_by, "german", ["0708", "0709"])
    outcome = victory_check(t, st, final=True)
    assert outcome is not None
    assert outcome.winner == "german"
    assert "rule 12.2" in outcome.reason
    held_by_update(bk.data(st).held_by, "french", ["0709"])  # a French unit passed through 0709 after the last German
    outcome = victory_check(t, st, final=True)
    assert outcome is not None
    assert outcome.winner == "french"
    assert "0709" in outcome.reason
    # No VP windows: the game cannot end early, even with both hexes German.
    held_by_update(bk.data(st).held_by, "german", ["0709"])
    for turn in (1, 5, 9):
        st.turn = turn
        assert victory_check(t, st, final=False) is None


def test_ac_73_games_end_on_their_last_turn(hannut: Scenario, stonne: Scenario, t: Tables) -> None:
    st = hannut_state(hannut, t, 20, 6)
    assert victory_check(t, st, final=True) == Outcome(
        "french", "German VP 20 below the turn-6 window 32–42: French victory (rule 12.1)"
    )
    st = start_state(stonne, t, turn=10)
    outcome = victory_check(t, st, final=True)
    assert outcome is not None
    assert outcome.winner == "french"  # Stonne starts French-held
    # The scheme also follows the scenario id when the state has no victory table.
    bk.data(st).victory = {}
    assert victory_kind(st) == "hold"
    assert victory_check(t, st, final=True) == outcome


def test_ac_72_vp_track() -> None:
    assert vp_track(23) == (2, 3)
    assert vp_track(40) == (4, 0)  # VP marker off the 1–10 boxes
    assert vp_track(8) == (0, 8)
    with pytest.raises(ValueError, match=r"13\.8"):
        vp_track(-1)


def test_ac_74_reinforcement_entries_and_withdrawal(stonne: Scenario) -> None:
    french = [u for u in stonne.units if u.side == "french" and u.hex is None]
    german = [u for u in stonne.units if u.side == "german" and u.hex is None]
    assert {u.arrives for u in french} == {2, 4, 8}
    assert all(labels(set(u.entry)) == ["1310"] for u in french)
    assert {u.arrives for u in german} == {7}
    assert all(labels(set(u.entry)) == ["0104", "0105", "0106", "0107", "0108"] for u in german)
    pzr = [u for u in stonne.units if u.formation == "ger-ii-pzr"]
    assert pzr
    assert all(u.hex is not None for u in pzr)


# --- The hex lists and numbers of the scenario keys (issue 16 item 5) ---------------------------------------------

BAD_KEYS = [
    ("stonne", None, 'of = "0108 0112 0114 0401"', 'of = "0108 01 0114 0401"', "special.french_exclusion.of"),
    ("stonne", None, 'of = "0108 0112 0114 0401"', 'of = "0108 0112 0114 9999"', "special.french_exclusion.of"),
    ("stonne", None, "within = 2", "within = 1e999", "special.french_exclusion.within"),
    ("stonne", None, "within = 2", 'within = "2"', "special.french_exclusion.within"),
    ("stonne", None, 'hexes = "0708 0709"', 'hexes = "0708 07x9"', "victory.hexes"),
    ("stonne", None, "turn = 10", "turn = 11", "victory.turn"),
    ("stonne", None, "minefield = 4 }", "minefield = -4 }", "special.marker_counts.minefield"),
    ("stonne", "[[chits]]", "count = 1", "count = 99999999999", "chits[0].count"),
    ("stonne", "[[schedule]]", "turn = 2", "turn = 0", "schedule[0].turn"),
    ("stonne", "add = { artillery = 1 }", "artillery = 1", "artillery = 1.5", "schedule[2].add.artillery"),
    ("stonne", 'id = "fra-6-grdi"', "arrives = 2", "arrives = true", "formations[5].arrives"),
    ("stonne", None, "leaves = 3", "leaves = 1e999", "formations[17].leaves"),
    ("hannut", None, 'objectives = "0403', 'objectives = "0403 x403', "victory.objectives"),
    ("hannut", None, "stuka = 1,", "stuka = 1.0,", "special.turn1_kept_chits.stuka"),
    ("hannut", None, "steps = 4 }", "steps = 1e999 }", "special.setup_losses.steps"),
    ("hannut", None, "companies = 1 }", 'companies = "one" }', "special.optional_mounted.companies"),
    ("hannut", "[[special.setup_sequence]]", 'side = "french"', "side = 1", "special.setup_sequence[0]"),
]


def scenario_file(tmp_path: Path, name: str, after: str | None, old: str, new: str) -> Path:
    """A copy of a scenario (with its maps) where the first ``old`` after the text ``after`` is ``new``."""
    for other in SCENARIOS.glob("*.map"):
        (tmp_path / other.name).write_text(other.read_text(encoding="utf-8"), encoding="utf-8")
    text = (SCENARIOS / f"{name}.toml").read_text(encoding="utf-8")
    start = text.index(after) if after is not None else 0
    at = text.index(old, start)
    assert after is not None or text.count(old) == 1, old
    path = tmp_path / f"{name}.toml"
    path.write_text(text[:at] + new + text[at + len(old) :], encoding="utf-8")
    return path


@pytest.mark.parametrize(("name", "after", "old", "new", "key"), BAD_KEYS, ids=[k[-1] + "=" + k[3] for k in BAD_KEYS])
def test_12_every_hex_list_and_number_of_the_scenario_keys_is_checked(
    tmp_path: Path, name: str, after: str | None, old: str, new: str, key: str
) -> None:
    """12, 13.9 (issue 16 item 5): a bad hex list or number in the Blitzkrieg keys is a validation problem that
    names the file, the line and the key, and says what was expected (Stonne's french_exclusion "0108 01 ..."
    passed and raised ValueError five actions into play)."""
    path = scenario_file(tmp_path, name, after, old, new)
    problems = validate_path(str(path))
    mine = [p for p in problems if p.where.endswith(key)]
    assert mine, problems
    lines = path.read_text(encoding="utf-8").splitlines()
    line = next(i for i, text in enumerate(lines, 1) if new in text)
    table = max(i for i, text in enumerate(lines[:line], 1) if text.startswith("["))  # a table's problem: its header
    assert mine[0].file == str(path) and mine[0].where in (f"line {line}, {key}", f"line {table}, {key}")
    assert "expected" in mine[0].message
