"""Tests engine.los: the Blitzkrieg 1940 level model (digest 4.3-4.4) on drawn maps and on the real maps.

Drawings are data tables (line = row, token = hex column; even columns sit half a hex lower on screen).
Marked hexes (``.1a``) are the ends of the line under test.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from engine.board import Board
from engine.hexgrid import Hex, distance, hexes_within, trace_segment
from engine.los import LosPolicy, LosResult, line_of_sight
from engine.scenario import parse_map
from tests.asciimap import CODES, ascii_board

MAPS = Path(__file__).resolve().parent.parent / "scenarios" / "blitzkrieg1940"
OBSTACLES = frozenset({"village", "orchard", "woods"})
RULES = {
    "adjacent": "4.3",
    "range": "4.1",
    "obstacle": "4.3.1",
    "higher": "4.3.2",
    "crest": "4.3.2",
    "blind": "4.3.2",
    "hexside": "4.3",
}
BK = LosPolicy(id="test-bk", obstacles=OBSTACLES, max_range=8, rules=RULES)
"""The Blitzkrieg 1940 policy of digest 4.4."""


def los(board: Board, a: Hex, b: Hex, policy: LosPolicy = BK) -> LosResult:
    """LOS from a to b, checked to give the same answer from b to a."""
    there = line_of_sight(board, a, b, policy)
    back = line_of_sight(board, b, a, policy)
    assert there.visible == back.visible, (there, back)
    return there


def real_board(name: str) -> Board:
    path = MAPS / f"{name}.map"
    return Board(parse_map(path.read_text(encoding="utf-8"), str(path), CODES), CODES)


@pytest.fixture(scope="module")
def hannut() -> Board:
    return real_board("hannut")


@pytest.fixture(scope="module")
def stonne() -> Board:
    return real_board("stonne")


# --- 4.3.1 same level -------------------------------------------------------------------------------------


def test_obstacle_on_the_same_level_blocks_and_is_named() -> None:
    board, at = ascii_board("""
        .0 .0a .0
        .0 .0  .0
        .0 W0  .0
        .0 .0  .0
        .0 .0b .0
    """)
    result = los(board, at["a"], at["b"])
    assert not result.visible
    assert not result
    assert result.blocker == board.parse("0203")
    assert "woods" in result.reason
    assert "0203" in result.reason
    assert result.rule == "4.3.1"
    assert result.path == tuple(board.parse(x) for x in ("0201", "0202", "0203", "0204", "0205"))


@pytest.mark.parametrize("code, name", [("V", "village"), ("O", "orchard")])
def test_village_and_orchard_block_like_woods(code: str, name: str) -> None:
    board, at = ascii_board(f"""
        .0a .0 {code}0 .0 .0b
    """)
    result = los(board, at["a"], at["b"])
    assert not result.visible
    assert name in result.reason


def test_open_ground_on_the_same_level_is_clear() -> None:
    board, at = ascii_board("""
        .1a .1 .1 .1 .1b
    """)
    result = los(board, at["a"], at["b"])
    assert result.visible
    assert result.blocker is None


def test_obstacle_in_start_or_end_hex_never_blocks() -> None:
    board, at = ascii_board("""
        .0 W0a .0
        .0 .0  .0
        .0 .0  .0
        .0 .0  .0
        .0 V0b .0
    """)
    assert los(board, at["a"], at["b"]).visible


def test_adjacent_hexes_always_see_each_other() -> None:
    board, at = ascii_board("""
        W2a .2
        W0b .0
    """)
    nothing_in_range = LosPolicy(id="range0", obstacles=OBSTACLES, max_range=0, rules=RULES)
    result = los(board, at["a"], at["b"], nothing_in_range)
    assert result.visible
    assert "adjacent" in result.reason
    assert result.rule == "4.3"
    assert result.path == (at["a"], at["b"])


def test_same_hex_is_visible() -> None:
    board, at = ascii_board("""
        W0a .0
    """)
    result = line_of_sight(board, at["a"], at["a"], BK)
    assert result.visible
    assert result.path == (at["a"],)


# --- 4.3.2 different levels ---------------------------------------------------------------------------------


def test_higher_ground_between_two_low_units_blocks() -> None:
    board, at = ascii_board("""
        .0 .0a .0
        .0 .0  .0
        .1 .1  .1
        .0 .0  .0
        .0 .0b .0
    """)
    result = los(board, at["a"], at["b"])
    assert not result.visible
    assert result.blocker == board.parse("0203")
    assert "higher" in result.reason
    assert "0203" in result.reason


def test_obstacle_lower_than_both_units_does_not_block() -> None:
    board, at = ascii_board("""
        .2 .2a .2
        .1 .1  .1
        .1 W0  .1
        .1 .1  .1
        .1 .1b .1
    """)
    assert board.is_crest(at["a"])
    assert los(board, at["a"], at["b"]).visible


def test_obstacle_lower_than_both_units_on_the_same_level_does_not_block() -> None:
    # Digest 4.4 note 3: the rule of 4.3.2 applies to equal levels too.
    board, at = ascii_board("""
        .1 .1a .1
        .1 .1  .1
        .1 W0  .1
        .1 .1  .1
        .1 .1b .1
    """)
    assert los(board, at["a"], at["b"]).visible


def test_higher_unit_not_on_a_crest_hex_cannot_see_lower_ground() -> None:
    board, at = ascii_board("""
        .1 .1a .1
        .1 .1  .1
        .0 .0  .0
        .0 .0b .0
        .0 .0  .0
    """)
    assert not board.is_crest(at["a"])
    result = los(board, at["a"], at["b"])
    assert not result.visible
    assert result.blocker == board.parse("0202")
    assert "not a crest hex" in result.reason
    assert result.rule == "4.3.2"


def test_crest_hex_sees_down() -> None:
    board, at = ascii_board("""
        .1 .1  .1
        .1 .1a .1
        .0 .0  .0
        .0 .0  .0
        .0 .0b .0
    """)
    assert board.is_crest(at["a"])
    result = los(board, at["a"], at["b"])
    assert result.visible
    assert result.reason.startswith("clear")


def test_blind_hex_directly_behind_an_obstacle() -> None:
    board, at = ascii_board("""
        .0 .1a .0
        .0 .0  .0
        .0 W0  .0
        .0 .0b .0
        .0 .0c .0
    """)
    result = los(board, at["a"], at["b"])
    assert not result.visible
    assert result.blocker == board.parse("0203")
    assert "blind" in result.reason
    assert "0204" in result.reason and "0203" in result.reason
    assert los(board, at["a"], at["c"]).visible, "two hexes behind the obstacle is visible again"


def test_obstacle_between_units_on_the_same_level_blocks_beyond_the_blind_hex() -> None:
    # Contrast with the blind-hex case: on one level the woods hide every hex behind them.
    board, at = ascii_board("""
        .0 .0a .0
        .0 .0  .0
        .0 W0  .0
        .0 .0  .0
        .0 .0c .0
    """)
    assert not los(board, at["a"], at["c"]).visible


def test_obstacle_adjacent_to_both_ends_does_not_block() -> None:
    board, at = ascii_board("""
        .0 .1a .0
        .0 W0  .0
        .0 .0b .0
    """)
    assert distance(at["a"], at["b"]) == 2
    assert los(board, at["a"], at["b"]).visible


def test_crest_is_computed_from_neighbours() -> None:
    board, at = ascii_board("""
        .1a .1b .1
        .1  .1  .0c
    """)
    assert not board.is_crest(at["a"])
    assert board.is_crest(at["b"])  # 0201 (even column) touches 0302
    assert not board.is_crest(at["c"])


# --- Hexsides -----------------------------------------------------------------------------------------------

HEXSIDE_ONE = """
    .0  .0 .0
    .0  W0 .0
    .0a .0 .0b
    .0  .0 .0
"""
HEXSIDE_BOTH = """
    .0  .0 .0
    .0  W0 .0
    .0a W0 .0b
    .0  .0 .0
"""


def test_hexside_line_with_one_blocking_hex_is_visible() -> None:
    board, at = ascii_board(HEXSIDE_ONE)
    result = los(board, at["a"], at["b"])
    assert result.hexside
    assert {board.parse("0202"), board.parse("0203")} <= set(result.path)
    assert result.visible
    assert "hexside" in result.reason


def test_hexside_line_with_both_hexes_blocking_is_blocked() -> None:
    board, at = ascii_board(HEXSIDE_BOTH)
    result = los(board, at["a"], at["b"])
    assert not result.visible
    assert result.blocker in {board.parse("0202"), board.parse("0203")}
    assert "both hexes block" in result.reason
    assert result.rule == "4.3"


def test_hexside_policy_either_blocks_with_one_hex() -> None:
    board, at = ascii_board(HEXSIDE_ONE)
    either = LosPolicy(id="either", obstacles=OBSTACLES, hexside="either")
    result = los(board, at["a"], at["b"], either)
    assert not result.visible
    assert result.blocker == board.parse("0202")


# --- Range ------------------------------------------------------------------------------------------------


def test_max_range_blocks_with_reason() -> None:
    board, at = ascii_board("""
        .0a .0 .0 .0b .0c
    """)
    short = LosPolicy(id="short", obstacles=OBSTACLES, max_range=3, rules=RULES)
    assert distance(at["a"], at["c"]) == 4
    result = los(board, at["a"], at["c"], short)
    assert not result.visible
    assert result.blocker is None
    assert "4 hexes" in result.reason and "maximum of 3" in result.reason
    assert result.rule == "4.1"
    assert los(board, at["a"], at["b"], short).visible


def test_no_range_limit_when_max_range_is_none() -> None:
    board, at = ascii_board(" ".join([".0a"] + [".0"] * 20 + [".0b"]))
    unlimited = LosPolicy(id="unlimited", obstacles=OBSTACLES)
    assert los(board, at["a"], at["b"], unlimited).visible


# --- Policy switches --------------------------------------------------------------------------------------


def test_without_levels_only_obstacles_block() -> None:
    board, at = ascii_board("""
        .0 .0a .0
        .0 .3  .0
        .0 .0  .0
        .0 .0b .0
    """)
    flat = LosPolicy(id="flat", obstacles=OBSTACLES, levels=False)
    assert los(board, at["a"], at["b"], flat).visible
    assert not los(board, at["a"], at["b"]).visible


def test_without_blind_hexes_an_obstacle_below_hides_everything_behind_it() -> None:
    board, at = ascii_board("""
        .0 .1a .0
        .0 .0  .0
        .0 W0  .0
        .0 .0  .0
        .0 .0c .0
    """)
    no_blind = LosPolicy(id="no-blind", obstacles=OBSTACLES, blind_hexes=False)
    assert los(board, at["a"], at["c"]).visible
    assert not los(board, at["a"], at["c"], no_blind).visible


def test_terrain_display_names_are_used_in_the_reason() -> None:
    board, at = ascii_board("""
        .0a
        W0
        .0b
    """)
    named = LosPolicy(id="named", obstacles=OBSTACLES, names={"woods": "Wald"})
    assert "Wald" in los(board, at["a"], at["b"], named).reason


# --- Exact tracer -----------------------------------------------------------------------------------------

CORNER = """
    .0  .0 .0 .0 .0 .0
    .0  .0 .0 .0 .0 .0
    .0a .0 W0 .0 .0 .0
    .0  .0 .0 W0 .0 .0b
    .0  .0 .0 .0 .0 .0
"""


def test_exact_tracer_touching_a_corner_does_not_block() -> None:
    board, at = ascii_board(CORNER)
    woods = [board.parse("0303"), board.parse("0404")]
    hits = {hit.hex: hit for hit in trace_segment(at["a"], at["b"])}
    assert all(h in hits and not hits[h].interior for h in woods), "precondition: corners only"
    exact = LosPolicy(id="exact", obstacles=OBSTACLES, tracer="exact")
    assert los(board, at["a"], at["b"], exact).visible


def test_exact_tracer_blocks_on_a_crossed_hex() -> None:
    board, at = ascii_board(CORNER.replace(".0a .0 W0", ".0a W0 W0"))
    exact = LosPolicy(id="exact", obstacles=OBSTACLES, tracer="exact")
    result = los(board, at["a"], at["b"], exact)
    assert not result.visible
    assert result.blocker == board.parse("0203")
    assert "woods" in result.reason


def test_exact_tracer_never_blocks_along_a_hexside() -> None:
    board, at = ascii_board(HEXSIDE_BOTH)
    exact = LosPolicy(id="exact", obstacles=OBSTACLES, tracer="exact")
    assert los(board, at["a"], at["b"], exact).visible
    assert not los(board, at["a"], at["b"]).visible


def test_exact_tracer_respects_range_and_adjacency() -> None:
    board, at = ascii_board("""
        W0a W0b .0 .0 .0c
    """)
    exact = LosPolicy(id="exact", obstacles=OBSTACLES, tracer="exact", max_range=3)
    assert los(board, at["a"], at["b"], exact).visible
    assert "maximum of 3" in los(board, at["a"], at["c"], exact).reason


# --- Cache ------------------------------------------------------------------------------------------------


def test_second_call_returns_the_cached_object() -> None:
    board, at = ascii_board("""
        .0a W0 .0b
    """)
    first = line_of_sight(board, at["a"], at["b"], BK)
    assert line_of_sight(board, at["a"], at["b"], BK) is first
    assert ("los", BK.id, at["a"], at["b"]) in board.cache


def test_cache_is_keyed_by_policy_id() -> None:
    board, at = ascii_board("""
        .0a
        W0
        .0b
    """)
    flat = LosPolicy(id="no-obstacles")
    assert not line_of_sight(board, at["a"], at["b"], BK).visible
    assert line_of_sight(board, at["a"], at["b"], flat).visible


# --- The real maps (digest 13.9) --------------------------------------------------------------------------

# Digest 4.3.2 / 13.9, clockwise from north.
AC07_BLIND = (
    "0702",
    "1304",
    "1305",
    "1107",
    "0810",
    "0709",
    "0610",
    "0309",
    "0209",
    "0205",
    "0304",
    "0303",
    "0403",
    "0501",
)


def test_ac07_hannut_0706_sees_everything_within_8_but_the_14_blind_hexes(hannut: Board) -> None:
    viewer = hannut.parse("0706")
    assert hannut.level(viewer) == 1 and hannut.is_crest(viewer)
    hidden = {
        hannut.label(h)
        for h in hexes_within(viewer, 8)
        if h in hannut and not line_of_sight(hannut, viewer, h, BK).visible
    }
    assert hidden == set(AC07_BLIND)


def test_ac07_each_blind_hex_is_directly_behind_its_obstacle(hannut: Board) -> None:
    # 13.9 names the obstacle of each blind hex: 0702<-0703, 1304<-1204, ...
    behind = {
        "0702": "0703",
        "1304": "1204",
        "1305": "1205",
        "1107": "1006",
        "0810": "0809",
        "0709": "0708",
        "0610": "0609",
        "0309": "0408",
        "0209": "0309",
        "0205": "0306",
        "0304": "0404",
        "0303": "0403",
        "0403": "0504",
        "0501": "0502",
    }
    viewer = hannut.parse("0706")
    for target, obstacle in behind.items():
        result = line_of_sight(hannut, viewer, hannut.parse(target), BK)
        assert result.blocker == hannut.parse(obstacle), (target, result)
        assert "blind" in result.reason


@pytest.mark.parametrize("name", ["hannut", "stonne"])
def test_los_is_symmetric_over_all_pairs(name: str, request: pytest.FixtureRequest) -> None:
    board: Board = request.getfixturevalue(name)
    asymmetric = [
        (board.label(a), board.label(b))
        for a, b in itertools.combinations(board, 2)
        if line_of_sight(board, a, b, BK).visible != line_of_sight(board, b, a, BK).visible
    ]
    assert asymmetric == []


def test_stonne_range_example_0502_to_0304_is_clear(stonne: Board) -> None:
    a, b = stonne.parse("0502"), stonne.parse("0304")
    result = los(stonne, a, b)
    assert result.visible
    assert stonne.parse("0402") in result.path and stonne.parse("0403") in result.path
    assert distance(a, b) == 3


def test_stonne_pain_de_sucre_is_a_crest_that_sees_the_plateau(stonne: Board) -> None:
    summit = stonne.parse("0607")
    assert stonne.level(summit) == 3 and stonne.is_crest(summit)
    assert los(stonne, summit, stonne.parse("0407")).visible
