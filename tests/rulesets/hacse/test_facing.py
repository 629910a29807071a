"""Tests of facing and arcs (digest 2.2 [PROPOSED]): the facing parts of 14.13 (AC-FA-01 to 05) and the PaK arc
of 14.14 AC-SC-04, and facing shown by the presentation."""

from __future__ import annotations

import pytest

import engine
from engine.game import Game
from engine.hexgrid import Hex, parse_hex
from engine.presentation import GameInfo, Presentation, SideInfo
from engine.rulesets.hacse.data import load_tables
from engine.rulesets.hacse.geometry import armour_faces, direction_to, in_arc, theta, turn_steps
from engine.rulesets.hacse.model import status

from .helpers import LOSE, game, play

T = load_tables()


def _ring_hex(centre: Hex, facing: int, sector: int, distance: int = 1) -> Hex:
    """A hex ``distance`` steps from ``centre`` in direction (facing + sector)."""
    d = engine.hexgrid.DIRECTIONS[(facing + sector) % 6]
    return Hex(centre.q + d.q * distance, centre.r + d.r * distance)


def test_14_13_ac_fa_01_straight_ahead_is_front() -> None:
    c = parse_hex("1007")
    assert theta(c, 2, _ring_hex(c, 2, 0, 3)) == pytest.approx(0.0)
    assert armour_faces(0.0) == ("front",)


@pytest.mark.parametrize(("sector", "angle"), [(1, 60.0), (2, 120.0), (-1, -60.0)])
def test_14_13_ac_fa_02_sixty_and_hundred_twenty_degrees_are_side(sector: int, angle: float) -> None:
    c = parse_hex("1007")
    got = theta(c, 0, _ring_hex(c, 0, sector, 2))
    assert got == pytest.approx(angle)
    assert armour_faces(got) == ("side",)


def test_14_13_ac_fa_03_behind_is_rear() -> None:
    c = parse_hex("1007")
    assert abs(theta(c, 1, _ring_hex(c, 1, 3, 2))) == pytest.approx(180.0)
    assert armour_faces(180.0) == ("rear",) and armour_faces(-180.0) == ("rear",)


def test_14_13_ac_fa_04_a_line_along_a_vertex_meets_two_faces() -> None:
    # 1007 -> 1106 runs along the hexside between 1006 and 1107: θ = 30° from a target facing N.
    c = parse_hex("1007")
    assert parse_hex("1106") == Hex(c.q + 1, c.r - 2)
    assert theta(c, 0, parse_hex("1106")) == pytest.approx(30.0)
    assert armour_faces(30.0) == ("front", "side")  # the defender gets the higher (2.2)
    assert armour_faces(-150.0) == ("side", "rear")


def test_14_13_ac_fa_05_hull_mg_arc_boundary() -> None:
    hull = next(m for m in T.sheets["GER-PZ4H"].mounts if m.mount == "hull")
    assert hull.arc == "front"
    assert in_arc(hull.arc, 30.0) and in_arc(hull.arc, -30.0)
    assert not in_arc(hull.arc, 31.0)
    assert in_arc("rear", 150.0) and not in_arc("rear", 149.0) and in_arc("all", 90.0)


def test_14_14_ac_sc_04_pak_arc_in_h1() -> None:
    pak = parse_hex("0905")
    assert theta(pak, 4, parse_hex("0507")) == pytest.approx(0.0)
    assert armour_faces(theta(pak, 4, parse_hex("0507"))) == ("front",)
    off = theta(pak, 4, parse_hex("0807"))
    assert round(off) == -41 and not in_arc("front", off)
    on = theta(pak, 3, parse_hex("0807"))
    assert round(on) == 19 and in_arc("front", on)
    # Turning to facing 3 costs the PaK its 1 MP and changes no hex: it may still fire (2.1).
    g = game("h1-le-hamel", LOSE)
    st = play(g.state, "turn G4 s")
    s = status(st.units["G4"])
    assert (s.facing, s.half_mp, s.hexes, st.units["G4"].hex) == (3, 2, 0, pak)


def test_2_2_directions_and_turns() -> None:
    assert direction_to(parse_hex("1007"), parse_hex("1006")) == 0
    assert direction_to(parse_hex("1007"), parse_hex("0907")) == 5
    assert direction_to(parse_hex("1007"), parse_hex("1009")) is None
    assert [turn_steps(0, f) for f in range(6)] == [0, 1, 2, 3, 2, 1]


def test_2_2_facing_is_in_the_status_and_shown_as_a_marker() -> None:
    g = game("h1-le-hamel", LOSE)
    view = g.view("german")
    pres = _presentation(g)
    marks = pres.unit_markers(view.units["G4"])
    assert marks[0].glyph == "↙" and "SW" in marks[0].text
    facts = dict(pres.unit_facts(view.units["G4"]))
    assert facts["facing"] == "↙ SW" and facts["armour"] == "F 1 / S 0 / R 0 / T 0"
    assert not any(m.glyph in "↑↗↘↓↙↖" for m in pres.unit_markers(view.units["G1"]))  # infantry: no facing


def _presentation(g: Game) -> Presentation:
    sc = g.scenario
    info = GameInfo(
        ruleset="hacse",
        ruleset_title=g.ruleset.title,
        scenario=sc.id,
        title=sc.title,
        turns=sc.turns,
        sides=tuple(SideInfo(s.id, s.name) for s in sc.sides),
        board=g.board,
        unit_types=g.ruleset.unit_types,
    )
    return g.ruleset.presentation(info)


def test_2_3_the_unit_card_shows_damage_effects_morale_ammunition_and_jams() -> None:
    g = game("h1-le-hamel", LOSE)
    u = g.state.units["U4"]  # an M4A3 (15.7.5): row 6 tracks, 8 fuel tank, mount 1 the 75 mm
    s = status(u)
    s.rows_hit, s.shaken, s.jammed = [6, 8], True, [0]
    s.spent = {"0.AP": 3}
    facts = _presentation(g).unit_facts(u)
    text = "\n".join(f"{k}: {v}" for k, v in facts)
    assert "rows hit: 6 (tracks), 8 (fuel tank)" in text
    assert "damage: immobilised, burning (8.5)" in text
    assert "morale: shaken (9.5)" in text
    main = next(v for k, v in facts if k == "weapon")
    assert "jammed, 6.6" in main and "AP 32/35" in main


def test_3_2_the_status_line_says_what_the_fire_phase_asks() -> None:
    g = game("h1-le-hamel", LOSE)
    st = g.state.clone()
    st.phase = "attack"
    assert "fire with a unit, or let it cease fire (3.2 Phase 3b)" in _presentation(g).waiting_for(st)
