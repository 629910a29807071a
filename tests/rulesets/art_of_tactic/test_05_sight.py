"""Line of sight (digest 5.4): the exact segment-against-hexagon test, the corner and long-line cases that the
sampled hex line gets wrong, and the hill rules H1 and H2."""

from __future__ import annotations

import pytest

from engine.hexgrid import parse_hex

from .helpers import game, ruleset, scenario

P = parse_hex


def _los(a: str, b: str, terrain: dict[str, str], heights: dict[str, int] | None = None) -> bool:
    g = game(scenario([("ger-1", "DE-INF", a), ("sov-1", "SU-INF", b)], terrain=terrain, heights=heights or {}))
    return g.line_of_sight(a, b).visible


@pytest.mark.parametrize("blocker", ["0809", "0810"])
def test_5_4_line_through_a_corner_crosses_both_hexes(blocker: str) -> None:
    """1010 → 0609 passes through a corner of 0809 and 0810 and crosses the inside of both: either blocks."""
    assert _los("1010", "0609", {})
    assert not _los("1010", "0609", {blocker: "W"})


@pytest.mark.parametrize("blocker", ["0608", "0710"])
def test_5_4_long_line_cuts_corners_the_sampled_line_misses(blocker: str) -> None:
    """1010 → 0308 cuts through 0608 and 0710, which the sampled hex line omits."""
    assert not _los("1010", "0308", {blocker: "W"})


def test_5_3_h1_a_hill_higher_than_both_ends_blocks() -> None:
    assert not _los("0505", "0805", {}, {"0605": 1})
    assert not _los("0505", "0805", {}, {"0605": 1, "0505": 1}), "as high as the higher end: rule (c) blocks"
    assert _los("0505", "0805", {}, {"0605": 1, "0505": 2}), "looked down on, not next to the target (H2)"


def test_5_2_end_hexes_never_block() -> None:
    assert _los("0505", "0705", {"0505": "v", "0705": "T"})


def test_5_4_smoke_blocks_for_everybody() -> None:
    rs = ruleset()
    g = game(scenario([("ger-1", "DE-INF", "0505"), ("sov-1", "SU-INF", "0805")]))
    from engine.rulesets.art_of_tactic.sight import line_of_sight  # noqa: PLC0415

    assert line_of_sight(g.board, rs.policy, P("0505"), P("0805")).visible
    assert not line_of_sight(g.board, rs.policy, P("0505"), P("0805"), frozenset({P("0605")})).visible
