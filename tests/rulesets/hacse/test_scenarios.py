"""Tests of the HACSE scenarios and maps (digest 15.10): each loads and validates, the map conventions and
scenario cases of 14.14, and a seeded random playout of each reaching the end of turn 2."""

from __future__ import annotations

import random

import pytest

import engine
from engine.actions import Action
from engine.hexgrid import Hex, distance, parse_hex
from engine.rulesets.hacse.data import load_tables
from engine.rulesets.hacse.model import data, status
from engine.rulesets.hacse.movement import step_cost
from tui.cli import main

from .helpers import game

SCENARIOS = ("h1-le-hamel", "h2-height-212", "h3-bridge-at-dusk")
T = load_tables()


@pytest.mark.parametrize("sid", SCENARIOS)
def test_15_10_scenario_loads_and_validates(sid: str) -> None:
    sc = engine.load_scenario("hacse", sid)
    assert sc.ruleset == "hacse"
    assert engine.validate_path(f"hacse/{sid}") == []
    assert main(["validate", f"hacse/{sid}"]) == 0


def test_15_10_scenario_sizes_turns_and_forces() -> None:
    got = {}
    for sid in SCENARIOS:
        sc = engine.load_scenario("hacse", sid)
        got[sid] = (sc.map.cols, sc.map.rows, sc.turns, len(sc.units))
    assert got == {
        "h1-le-hamel": (20, 14, 10, 13),  # 15.10.3's 11 and two Panzer IVs in turn 2 (the README's readings)
        "h2-height-212": (22, 16, 12, 11),  # 15.10.4's 12 less the third T-34, S3 (balance: the README's readings)
        "h3-bridge-at-dusk": (20, 14, 10, 12),
    }


def test_14_14_ac_sc_01_neighbours_of_an_even_column() -> None:
    labels = [engine.hex_label(h) for h in parse_hex("1007").neighbours()]
    assert labels == ["1006", "1107", "1108", "1008", "0908", "0907"]


def test_14_14_ac_sc_02_neighbours_of_an_odd_column() -> None:
    labels = [engine.hex_label(h) for h in parse_hex("0905").neighbours()]
    assert labels == ["0904", "1004", "1005", "0906", "0805", "0804"]


def test_14_14_ac_sc_03_distances() -> None:
    pairs = [("0107", "1207"), ("0107", "1307"), ("0306", "2007"), ("2213", "1108"), ("0905", "0807")]
    assert [distance(parse_hex(a), parse_hex(b)) for a, b in pairs] == [11, 12, 17, 11, 3]


def test_14_14_ac_sc_05_h2_levels() -> None:
    sc = engine.load_scenario("hacse", "h2-height-212")
    assert [sc.map.terrain[parse_hex(x)][1] for x in ("1108", "1208", "1308", "1408", "1508")] == [4, 3, 2, 1, 0]


def test_14_14_ac_sc_06_h3_ford_and_river() -> None:
    sc = engine.load_scenario("hacse", "h3-bridge-at-dusk")
    codes = {x: sc.map.terrain[parse_hex(x)] for x in ("1112", "1012", "1011", "1007")}
    assert codes == {"1112": (".", 1), "1012": ("s", 0), "1011": ("~", 0), "1007": ("=", 1)}
    ford, water = T.terrain["ford"], T.terrain["water"]
    assert step_cost(T, "track", ford, level_change=-1) == "max"  # T-34 into the ford: whole move
    assert step_cost(T, "track", water, level_change=-1) == "prohibited"
    assert step_cost(T, "wheel", ford, level_change=-1) == "prohibited"  # Opel Blitz


def test_15_10_1_map_conventions_of_h1() -> None:
    sc = engine.load_scenario("hacse", "h1-le-hamel")
    t = sc.map.terrain
    assert t[parse_hex("1307")] == ("H", 1) and t[parse_hex("1609")] == ("l", 2) and t[parse_hex("0512")] == ("~", 0)
    roads = dict(sc.map.lines["roads"])
    assert len(roads["R1"]) == 20 and len(roads["R2"]) == 14
    assert sc.map.places["Crossroads"] == (parse_hex("1207"),)


def test_15_10_2_setup_places_units_with_facing_status_and_carriers() -> None:
    g = game("h1-le-hamel")
    u = g.state.units
    assert (u["G4"].hex, status(u["G4"]).facing, status(u["G4"]).hidden) == (parse_hex("0905"), 4, True)
    assert status(u["G2"]).dug_in and status(u["U4"]).off_map and u["U4"].hex is None
    assert len(status(u["U4"]).entry) == 14 and u["U4"].steps == 15
    d = data(g.state)
    assert {engine.hex_label(m.hex): m.count for m in d.mines} == {"0807": 3, "0806": 2}
    assert d.points == {parse_hex("1207"): 20, parse_hex("1307"): 20}
    h2 = game("h2-height-212").state.units
    assert status(h2["G4"]).embarked_in == "G3" and status(h2["G6"]).towed_by == "G5"
    assert status(h2["S4"]).experience == "conscript" and status(h2["G1"]).experience == "veteran"
    assert [engine.hex_label(h) for h in status(h2["G6"]).entry] == ["2213"]
    h3 = game("h3-bridge-at-dusk").state
    assert data(h3).charges == {parse_hex("1007"): 3} and status(h3.units["G1"]).charges == 2


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("status = { hidden = true, facing = 4 }", "status = { hidden = true }", "needs status.facing"),
        ('hex = "0905"', 'hex = "0907"', "may not hide in clear (13.2)"),
        ('wire = "0808 0809"', 'wire = "0808 3309"', "off the"),
        ('wire = "0808 0809"', 'wire = "0808 0809"\nditches = "0211"', "AT ditch is dug only in open terrain (13.7)"),
        ('count = 2, side = "german", kind = "at"', 'count = 2, side = "german", kind = "trap"', "only in forest or"),
        (
            'status = { hidden = true }\n\n[[units]]\nid = "G1"',
            'status = { hidden = 1 }\n\n[[units]]\nid = "G1"',
            "expected bool",
        ),
        ("[victory]", "[ai.italian]\nhidden = 1.0\n\n[victory]", "ai.italian: unknown side 'italian'"),
        ("[victory]", "[ai.german]\nboldness = 1.0\n\n[victory]", "ai.german.boldness: unknown AI weight"),
        ("[victory]", '[ai.german]\nhidden = "high"\n\n[victory]', "ai.german.hidden: expected a number"),
    ],
)
def test_15_10_validation_names_the_problem(tmp_path: object, old: str, new: str, message: str) -> None:
    from pathlib import Path  # noqa: PLC0415

    folder = Path(str(tmp_path)) / "hacse"
    folder.mkdir()
    src = Path(engine.scenario.find_scenario("hacse", "h1-le-hamel"))
    text = src.read_text(encoding="utf-8")
    assert old in text
    (folder / src.name).write_text(text.replace(old, new, 1), encoding="utf-8")
    (folder / "h1-le-hamel.map").write_text(src.with_suffix(".map").read_text(encoding="utf-8"), encoding="utf-8")
    problems = engine.validate_path(str(folder / src.name))
    assert any(message in str(p) for p in problems), problems


@pytest.mark.parametrize("sid", SCENARIOS)
@pytest.mark.parametrize("seed", [1, 2])
def test_15_10_seeded_random_playout_reaches_the_end_of_turn_2(sid: str, seed: int) -> None:
    g = game(sid, seed=seed)
    rng = random.Random(seed)
    for _ in range(2000):
        if g.state.outcome is not None or g.state.turn > 2:
            break
        legal = g.legal_actions()
        assert legal, f"no legal action in turn {g.state.turn}"
        action = rng.choice(legal)
        assert g.ruleset.parse_action(g.state, g.describe(action)) == action
        g.apply(action)
    assert g.state.turn == 3 and g.state.phase == "movement"
    again = engine.game.replay(g.scenario, seed, g.history)
    assert again.state.to_dict() == g.state.to_dict()


def test_15_10_random_playout_to_the_end_gives_an_outcome() -> None:
    g = game("h1-le-hamel", seed=5)
    rng = random.Random(5)
    while g.state.outcome is None:
        g.apply(rng.choice(g.legal_actions()))
    assert g.state.phase == "over" and "rule 15.9" in g.state.outcome.reason


def _toward(legal: list[Action], targets: list[Hex]) -> list[Action]:
    """The moves and entries of ``legal`` that end nearest to one of ``targets``."""
    steps = [a for a in legal if a.verb in ("move", "enter")]
    if not steps or not targets:
        return []

    def near(a: Action) -> int:
        h = parse_hex(a.args[-1] if a.verb == "move" else a.args[1])
        return min(distance(h, t) for t in targets)

    best = min(near(a) for a in steps)
    return [a for a in steps if near(a) == best]


@pytest.mark.parametrize(("sid", "seed"), [("h1-le-hamel", 1), ("h3-bridge-at-dusk", 4)])
def test_13_4_13_5_seeded_playout_meets_the_mines_and_the_wire(sid: str, seed: int) -> None:
    """A seeded playout whose units head for the scenario's mines and wire (13.4, 13.5): mine rolls are made, units
    stand in wire (or crush it), the game goes on to turn 5 and replays to the same state."""
    g = game(sid, seed=seed)
    rng = random.Random(seed)
    mine_rolls = 0
    in_wire = False
    wire = len(data(g.state).wire)
    while g.state.outcome is None and g.state.turn <= 4:
        legal = g.legal_actions()
        d = data(g.state)
        toward = _toward(legal, [m.hex for m in d.mines] + list(d.wire))
        events = g.apply(rng.choice(toward if toward and rng.random() < 0.8 else legal))
        mine_rolls += sum(1 for e in events if e.kind == "roll" and "mines in" in e.text)
        in_wire |= any(u.hex in data(g.state).wire for u in g.state.units.values())
    assert mine_rolls > 0
    assert in_wire or len(data(g.state).wire) < wire
    assert g.state.turn == 5 or g.state.outcome is not None
    again = engine.game.replay(g.scenario, seed, g.history)
    assert again.state.to_dict() == g.state.to_dict()
