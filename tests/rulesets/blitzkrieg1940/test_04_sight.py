"""Blitzkrieg 1940 section 4 (line of sight, visibility, weapon range) and 8.2.4: acceptance cases AC-01 to AC-15.

The map cases run on the proposed maps of digest 13.9 (``scenarios/blitzkrieg1940/hannut.map`` and
``stonne.map``); the geometry-only cases run on small boards drawn in ASCII.
"""

from __future__ import annotations

import math
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.board import Board
from engine.hexgrid import Hex, distance, hex_line, hexes_within, parse_hex
from engine.los import LosResult, line_of_sight
from engine.rulesets.blitzkrieg1940.sight import (
    SightResult,
    SightRules,
    Visibility,
    can_fire,
    can_fire_actively,
    can_see,
    effective_range,
    los_policy,
    range_modifier,
    visibility_distance,
)
from engine.scenario import parse_map
from tests.asciimap import CODES, ascii_board

MAPS = Path(__file__).resolve().parents[3] / "scenarios" / "blitzkrieg1940"

RULES = SightRules(
    aliases={
        "tank": "vehicle",
        "armoured_car": "vehicle",
        "mounted_infantry": "vehicle",
        "infantry": "small",
        "motorcycle": "small",
        "at_gun": "small",
    },
    names={"at_gun": "AT gun", "mounted_infantry": "infantry on an APC"},
)
"""The seed's 4.1 table, with unit kinds as aliases of the two visibility classes."""

POLICY = los_policy(RULES)


@cache
def board(name: str) -> Board:
    path = MAPS / f"{name}.map"
    return Board(parse_map(path.read_text(encoding="utf-8"), str(path)), CODES)


def los(name: str, a: str, b: str) -> tuple[Board, LosResult]:
    bd = board(name)
    return bd, line_of_sight(bd, bd.parse(a), bd.parse(b), POLICY)


def labels(bd: Board, hexes: tuple[Hex, ...]) -> list[str]:
    return [bd.label(h) for h in hexes]


def column(target: str, d: int, observer: str = ".0") -> tuple[Board, Hex, Hex]:
    """A one-column board: the observer on top, open ground, the target ``d`` hexes further down."""
    drawing = "\n".join([f"{observer}a", *[".0"] * (d - 1), f"{target}b"])
    bd, at = ascii_board(drawing)
    assert distance(at["a"], at["b"]) == d
    return bd, at["a"], at["b"]


def see(bd: Board, a: Hex, b: Hex, kind: str) -> SightResult:
    return can_see(bd, a, b, kind, bd.terrain(b) == "open", RULES)


def assert_blocked(bd: Board, a: str, b: str, blocker: str, rule: str, *, words: str = "") -> None:
    """No line of sight from ``a`` to ``b``, blocked at ``blocker`` under ``rule``, in both directions."""
    for x, y in ((a, b), (b, a)):
        res = line_of_sight(bd, bd.parse(x), bd.parse(y), POLICY)
        assert not res.visible, f"{x} -> {y} should be blocked"
        assert res.rule == rule
        assert words in res.reason
    res = line_of_sight(bd, bd.parse(a), bd.parse(b), POLICY)
    assert res.blocker is not None and bd.label(res.blocker) == blocker
    sight = can_see(bd, bd.parse(a), bd.parse(b), "vehicle", True, RULES)
    assert not sight.visible
    assert sight.rule == rule
    assert f"(rule {rule})" in sight.reason
    assert sight.reason.startswith(f"Cannot see {b}:")


def assert_visible(bd: Board, a: str, b: str) -> None:
    for x, y in ((a, b), (b, a)):
        res = line_of_sight(bd, bd.parse(x), bd.parse(y), POLICY)
        assert res.visible, f"{x} -> {y}: {res.reason}"
        assert res.blocker is None


# --- AC-01 .. AC-02: distance and range modifier ------------------------------------------------------------


def test_ac01_0_distance_counts_target_not_firer() -> None:
    bd = board("stonne")
    assert distance(bd.parse("0502"), bd.parse("0304")) == 3
    assert distance(bd.parse("0304"), bd.parse("0502")) == 3
    for n in bd.parse("0502").neighbours():
        assert distance(bd.parse("0502"), n) == 1
    assert distance(bd.parse("0502"), bd.parse("0502")) == 0


def test_ac02_8_2_4_range_modifier() -> None:
    bd = board("stonne")
    assert range_modifier(distance(bd.parse("0502"), bd.parse("0304"))) == -2
    assert range_modifier(1) == 0
    assert range_modifier(2) == -1
    assert range_modifier(0, "close") == +1
    for d in (1, 3, 12):
        assert range_modifier(d, "indirect") == 0
    with pytest.raises(ValueError, match="close combat"):
        range_modifier(0)
    # The seed example has a clear line on the proposed map (13.9): both open, level 0, via 0402 and 0403.
    res = line_of_sight(bd, bd.parse("0502"), bd.parse("0304"), POLICY)
    assert res.visible
    assert labels(bd, res.path) == ["0502", "0402", "0403", "0304"]


# --- AC-03 .. AC-06: maximum line of sight and visibility ------------------------------------------------


def test_ac03_4_1_max_los_8() -> None:
    bd, a, b = column(".0", 9)
    res = line_of_sight(bd, a, b, POLICY)
    assert not res.visible and res.blocker is None and res.rule == "4.1"
    assert "9 hexes" in res.reason and "maximum of 8" in res.reason
    bd, a, b = column(".0", 8)
    assert line_of_sight(bd, a, b, POLICY).visible

    hannut = board("hannut")
    near = can_see(hannut, hannut.parse("0706"), hannut.parse("1506"), "tank", True, RULES)
    assert near.visible and near.distance == 8 and near.limit == 8
    far = can_see(hannut, hannut.parse("0706"), hannut.parse("1606"), "tank", True, RULES)
    assert not far.visible and far.distance == 9 and far.rule == "4.1" and far.los.blocker is None
    assert far.reason == "Cannot see 1606: it is 9 hexes away, beyond the maximum line of sight of 8 (rule 4.1)"


@pytest.mark.parametrize(
    ("kind", "code", "d", "visible"),
    [
        ("tank", ".", 8, True),
        ("tank", "V", 5, False),
        ("tank", "V", 4, True),
        ("infantry", ".", 4, True),
        ("infantry", ".", 5, False),
        ("infantry", "W", 3, False),
        ("infantry", "W", 2, True),
        ("motorcycle", "W", 3, False),
        ("motorcycle", "W", 2, True),
        ("at_gun", "W", 3, False),
        ("at_gun", "W", 2, True),
        ("mounted_infantry", ".", 7, True),
    ],
)
def test_ac04_4_1_visibility_by_class_and_terrain(kind: str, code: str, d: int, visible: bool) -> None:
    bd, a, b = column(f"{code}0", d)
    res = see(bd, a, b, kind)
    assert res.los.visible  # clear geometry: only visibility decides
    assert res.visible is visible
    assert res.rule == "4.1"
    if not visible:
        assert f"is visible only at {res.limit} hexes or less, it is {d} away (rule 4.1)" in res.reason


def test_ac04_4_1_visibility_table_and_data() -> None:
    assert [visibility_distance(c, o, RULES) for c in ("vehicle", "small") for o in (True, False)] == [8, 4, 4, 2]
    assert visibility_distance("tank", False, RULES) == 4
    assert visibility_distance("at_gun", True, RULES) == 4
    with pytest.raises(ValueError, match="unknown visibility class 'zeppelin'"):
        visibility_distance("zeppelin", True, RULES)
    # The numbers come from data: a ruleset may change them without changing code.
    data = {
        "max_los": 6,
        "visibility": {"vehicle": {"other": 3, "types": ["stug", "apc"]}, "small": {"types": ["hq"]}},
        "names": {"hq": "HQ"},
    }
    rules = SightRules.from_data(data)
    assert rules.max_los == 6
    assert visibility_distance("stug", True, rules) == 8
    assert visibility_distance("apc", False, rules) == 3
    assert visibility_distance("hq", False, rules) == 2
    assert los_policy(rules).max_range == 6
    assert los_policy(rules).id != los_policy(RULES).id  # the board cache keeps them apart
    with pytest.raises(ValueError, match=r"visibility\.small\.open"):
        SightRules.from_data({"visibility": {"small": {"open": "four"}}})


def test_ac05_4_1_visibility_per_direction() -> None:
    bd, tank, infantry = column("V0", 4)
    inf_sees_tank = can_see(bd, infantry, tank, "tank", True, RULES)
    tank_sees_inf = can_see(bd, tank, infantry, "infantry", False, RULES)
    assert inf_sees_tank.visible and inf_sees_tank.limit == 8
    assert not tank_sees_inf.visible and tank_sees_inf.limit == 2
    assert tank_sees_inf.los.visible  # the line itself is clear both ways
    assert tank_sees_inf.reason == (
        "Cannot see 0105: infantry in village is visible only at 2 hexes or less, it is 4 away (rule 4.1)"
    )
    # The infantry may fire at the tank if in range; the tank may not fire at the infantry at all.
    assert can_fire(4, inf_sees_tank.distance)
    assert not can_fire(3, inf_sees_tank.distance)


def test_ac06_4_3_adjacent_in_woods() -> None:
    bd = board("hannut")
    a, b = bd.parse("0115"), bd.parse("0215")
    assert bd.terrain(a) == bd.terrain(b) == "woods" and distance(a, b) == 1
    for x, y in ((a, b), (b, a)):
        res = can_see(bd, x, y, "infantry", False, RULES)
        assert res.visible and res.rule == "4.3"
        assert "adjacent units always see each other" in res.reason
    # Whatever the terrain and whatever the visibility table says.
    blind_rules = SightRules(visibility={"vehicle": Visibility(8, 0), "small": Visibility(0, 0)})
    assert can_see(bd, a, b, "small", False, blind_rules).visible


# --- AC-07 .. AC-14: line of sight on the proposed maps -------------------------------------------------

SEED_BLIND = [
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
]
"""Digest 4.3.2: the seed's blind hexes from Hannut 0706, clockwise starting north."""

BEHIND = {
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
"""Digest 13.9 design check: each blind hex and the obstacle it lies directly behind."""


def clockwise_from_north(centre: Hex, h: Hex) -> float:
    """The bearing of ``h``'s centre seen from ``centre`` on the flat-topped layout, north = up, in radians."""
    dq, dr = h.q - centre.q, h.r - centre.r
    x, y = 1.5 * dq, math.sqrt(3) * (dr + dq / 2)  # screen y grows downwards
    return math.atan2(x, -y) % (2 * math.pi)


def test_ac07_4_3_2_blind_hexes_from_0706() -> None:
    bd = board("hannut")
    o = bd.parse("0706")
    assert bd.level(o) == 1 and bd.is_crest(o)
    hidden = [h for h in hexes_within(o, 8) if h in bd and h != o and not line_of_sight(bd, o, h, POLICY)]
    assert sorted(labels(bd, tuple(hidden))) == sorted(SEED_BLIND)
    ordered = sorted(hidden, key=lambda h: clockwise_from_north(o, h))
    assert labels(bd, tuple(ordered)) == SEED_BLIND
    for h in hidden:
        res = line_of_sight(bd, o, h, POLICY)
        assert res.blocker is not None and bd.label(res.blocker) == BEHIND[bd.label(h)]
        assert res.rule == "4.3.2"
        assert f"{bd.label(h)} is a blind hex behind the" in res.reason
        assert distance(res.blocker, h) == 1 and distance(res.blocker, o) >= 2


def test_ac08_4_3_2_case1_obstacle_adjacent_to_both() -> None:
    bd, res = los("stonne", "0607", "0808")
    assert (bd.level(bd.parse("0607")), bd.level(bd.parse("0808"))) == (3, 2)
    assert labels(bd, res.path) == ["0607", "0708", "0808"]
    assert bd.terrain(bd.parse("0708")) == "village" and bd.level(bd.parse("0708")) == 2
    assert_visible(bd, "0607", "0808")


def test_ac09_4_3_2_case2_blind_hex() -> None:
    bd, res = los("stonne", "0607", "0710")
    assert labels(bd, res.path) == ["0607", "0608", "0709", "0710"]
    assert_blocked(bd, "0607", "0710", "0709", "4.3.2", words="blind hex")
    assert "0710 is a blind hex behind the village at 0709" in res.reason
    hannut = board("hannut")
    assert_visible(hannut, "0706", "0701")  # two hexes behind the orchard 0703
    assert_blocked(hannut, "0706", "0702", "0703", "4.3.2", words="blind hex")
    assert_visible(hannut, "0706", "0711")  # two hexes behind the orchard 0708
    assert_blocked(hannut, "0706", "0709", "0708", "4.3.2", words="blind hex")


def test_ac10_4_4_intermediate_obstacle_blind() -> None:
    bd, res = los("stonne", "0607", "0907")
    assert labels(bd, res.path) == ["0607", "0707", "0807", "0907"]
    assert [(bd.terrain(bd.parse(x)), bd.level(bd.parse(x))) for x in ("0707", "0807", "0907")] == [
        ("open", 2),
        ("orchard", 2),
        ("open", 1),
    ]
    assert_blocked(bd, "0607", "0907", "0807", "4.3.2", words="blind hex behind the orchard at 0807")


def test_ac11_4_3_2_crest_rule() -> None:
    bd = board("stonne")
    assert bd.level(bd.parse("0407")) == 1 and not bd.is_crest(bd.parse("0407"))
    assert bd.level(bd.parse("0107")) == 0
    assert_blocked(bd, "0407", "0107", "0307", "4.3.2")
    sight = can_see(bd, bd.parse("0407"), bd.parse("0107"), "tank", True, RULES)
    assert "0407 is not a crest hex" in sight.reason


def test_ac12_4_4_plateau_rule() -> None:
    bd, res = los("stonne", "0606", "0905")
    assert bd.level(bd.parse("0606")) == 2 and bd.is_crest(bd.parse("0606"))
    assert "0706" in labels(bd, res.path)
    assert (bd.terrain(bd.parse("0706")), bd.level(bd.parse("0706"))) == ("open", 2)
    assert_blocked(bd, "0606", "0905", "0706", "4.3.2")
    sight = can_see(bd, bd.parse("0606"), bd.parse("0905"), "tank", True, RULES)
    assert "crosses 0706 at level 2, as high as 0606" in sight.reason


def test_ac13_4_3_1_same_level_and_hexside() -> None:
    bd, res = los("stonne", "0102", "0403")
    assert labels(bd, res.path) == ["0102", "0202", "0303", "0403"]
    assert_blocked(bd, "0102", "0403", "0303", "4.3.1", words="blocked by village at 0303")
    # Along the hexside 0203 (open) | 0303 (Oches): one side is open, so the line is valid.
    steps = [{bd.label(h) for h in step} for step in hex_line(bd.parse("0102"), bd.parse("0404")).steps]
    assert {"0203", "0303"} in steps
    assert_visible(bd, "0102", "0404")
    assert line_of_sight(bd, bd.parse("0102"), bd.parse("0404"), POLICY).hexside
    hannut = board("hannut")
    steps = [{hannut.label(h) for h in step} for step in hex_line(hannut.parse("0706"), hannut.parse("1506")).steps]
    assert {"1005", "1006"} in steps and {"1205", "1206"} in steps
    assert [hannut.terrain(hannut.parse(x)) for x in ("1005", "1006", "1205", "1206")] == [
        "open",
        "village",
        "village",
        "open",
    ]
    assert_visible(hannut, "0706", "1506")
    sight = can_see(hannut, hannut.parse("0706"), hannut.parse("1506"), "tank", True, RULES)
    assert sight.visible and "along a hexside" in sight.reason


def test_ac13_4_3_hexside_blocks_when_both_hexes_block() -> None:
    # A line along the hexside between two woods hexes is blocked; the rule cited is the hexside rule.
    bd, at = ascii_board(
        """
        .0  W0  .0
        .0a W0  .0b
        """
    )
    res = line_of_sight(bd, at["a"], at["b"], POLICY)
    assert res.hexside and not res.visible
    assert res.rule == "4.3" and res.blocker is not None and bd.terrain(res.blocker) == "woods"
    assert "both hexes block" in res.reason


def test_ac14_4_4_low_obstacle_at_equal_level() -> None:
    bd, res = los("hannut", "0706", "0206")
    assert "0306" in labels(bd, res.path)
    assert (bd.terrain(bd.parse("0306")), bd.level(bd.parse("0306"))) == ("woods", 0)
    assert bd.level(bd.parse("0206")) == bd.level(bd.parse("0107")) == 1
    assert_visible(bd, "0706", "0206")
    assert_visible(bd, "0706", "0107")


# --- AC-15: weapon range ------------------------------------------------------------------------------


def test_ac15_4_2_range_reductions() -> None:
    assert effective_range(3, enemy_adjacent=False, neutralised=False) == 3
    assert effective_range(3, enemy_adjacent=True, neutralised=False) == 1
    assert effective_range(3, enemy_adjacent=False, neutralised=True) == 1
    assert can_fire(3, 1, enemy_adjacent=True) and not can_fire(3, 2, enemy_adjacent=True)
    assert can_fire(3, 1, neutralised=True) and not can_fire(3, 2, neutralised=True)
    assert can_fire(3, 3) and not can_fire(3, 4)
    # Printed range 0: adjacent only, and never active (nor opportunity) fire; return fire at an adjacent firer.
    assert not can_fire_actively(0) and can_fire_actively(1)
    assert effective_range(0, enemy_adjacent=False, neutralised=False) == 1
    assert not can_fire(0, 1, "active")
    assert not can_fire(0, 1, "opportunity")
    assert can_fire(0, 1, "return")
    assert not can_fire(0, 2, "return")
    with pytest.raises(ValueError, match="printed range"):
        effective_range(-1, enemy_adjacent=False, neutralised=False)


# --- 4.4 note 4: the algorithm is symmetric -------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["hannut", "stonne"]), st.data())
def test_4_4_los_is_symmetric(name: str, data: st.DataObject) -> None:
    bd = board(name)
    hexes = sorted(bd)
    a = data.draw(st.sampled_from(hexes))
    b = data.draw(st.sampled_from([h for h in hexes_within(a, 9) if h in bd]))
    assert line_of_sight(bd, a, b, POLICY).visible == line_of_sight(bd, b, a, POLICY).visible


def test_4_1_can_see_rejects_off_map_hex() -> None:
    bd = board("stonne")
    with pytest.raises(ValueError, match="off the stonne map"):
        can_see(bd, bd.parse("0101"), parse_hex("2020"), "tank", True, RULES)
