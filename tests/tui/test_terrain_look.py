"""Issue 18 item 5: every terrain class of every ruleset has a glyph and a colour of its own (Art of Tactic's
river, field, bushes, light woods, swamp, ford and bridge were grey and blank), and still reads without colour."""

from __future__ import annotations

import pytest

import engine
from engine.presentation import TERRAIN_GLYPHS
from tui.client import LocalClient
from tui.theme import THEME_NAMES, map_palette
from tui.widgets.hexmap import SIDE_GLYPHS

OPEN = {"open", "plain"}
"""Open ground: no glyph (most hexes are open; a glyph in each would be noise)."""


@pytest.mark.parametrize("ruleset", engine.ruleset_names())
def test_every_terrain_class_has_a_glyph(ruleset: str) -> None:
    classes = set(engine.get_ruleset(ruleset).terrain_codes.values())
    missing = sorted(c for c in classes - OPEN if not TERRAIN_GLYPHS.get(c))
    assert not missing, f"{ruleset}: terrain without a glyph: {missing}"


@pytest.mark.parametrize("theme", [t for t in THEME_NAMES if t != "monochrome"])
@pytest.mark.parametrize("ruleset", engine.ruleset_names())
def test_every_terrain_class_has_its_own_colour(ruleset: str, theme: str) -> None:
    palette = map_palette(theme)
    classes = sorted(set(engine.get_ruleset(ruleset).terrain_codes.values()))
    looks = {c: (palette.terrain_bg.get(c, palette.terrain_bg.get("*")), TERRAIN_GLYPHS.get(c, "")) for c in classes}
    unknown = [c for c in classes if c not in palette.terrain_bg]
    assert not unknown, f"{ruleset} in {theme}: drawn in the fallback grey: {unknown}"
    seen: dict[tuple[str | None, str], str] = {}
    for c, look in looks.items():
        assert look not in seen or {c, seen[look]} <= OPEN | {"village", "town"}, f"{c} looks like {seen.get(look)}"
        seen[look] = c


@pytest.mark.parametrize("ruleset", engine.ruleset_names())
def test_no_terrain_glyph_reads_as_a_hexside_feature(ruleset: str) -> None:
    """Issue 18 item 5: a hex's terrain glyph never repeats a hexside line (river ``≈``, stream ``~``, wall ``#``),
    so that a swamp next to a river reads as two things; water terrain may show the water line (a river of hexes
    is drawn as one band with it)."""
    first = {"blitzkrieg1940": "hannut", "art_of_tactic": "p1-grenzgefecht", "minirules": "duel"}.get(ruleset)
    if first is None:
        pytest.skip(f"no scenario named here for {ruleset}")
    game = engine.new_game(engine.load_scenario(ruleset, first), seed=1)
    presenter = engine.get_ruleset(ruleset).presentation(LocalClient(game, game.state.sides[0]).info)
    water, glyphs = presenter.water_terrain, presenter.terrain_glyphs
    classes = set(engine.get_ruleset(ruleset).terrain_codes.values()) - OPEN
    sides = set(SIDE_GLYPHS.values())
    clash = sorted(c for c in classes if c not in water and set(glyphs.get(c, "")) & sides)
    assert not clash, f"{ruleset}: terrain drawn with a hexside glyph: {clash}"
