"""Issue 18 item 5: every terrain class of every ruleset has a glyph and a colour of its own (Art of Tactic's
river, field, bushes, light woods, swamp, ford and bridge were grey and blank), and still reads without colour."""

from __future__ import annotations

import pytest

import engine
from engine.presentation import TERRAIN_GLYPHS, Presentation
from tui.client import LocalClient
from tui.theme import THEME_NAMES, map_palette
from tui.widgets.hexmap import SIDE_GLYPHS

OPEN = {"open", "plain"}
"""Open ground: no glyph (most hexes are open; a glyph in each would be noise)."""


def _presenter(ruleset: str) -> Presentation:
    """The ruleset's presentation, as the table makes it for its first scenario."""
    game = engine.new_game(engine.load_scenario(ruleset, engine.scenario_ids(ruleset)[0]), seed=1)
    return engine.get_ruleset(ruleset).presentation(LocalClient(game, game.state.sides[0]).info)


@pytest.mark.parametrize("ruleset", engine.ruleset_names())
def test_every_terrain_class_has_a_glyph(ruleset: str) -> None:
    classes = set(engine.get_ruleset(ruleset).terrain_codes.values())
    presenter = _presenter(ruleset)
    glyphs = presenter.terrain_glyphs  # as the map draws them
    assert all(TERRAIN_GLYPHS.get(c) for c in ("village", "woods", "water")), "the common classes have glyphs"
    missing = sorted(c for c in classes if presenter.terrain_look(c) not in OPEN and not glyphs.get(c))
    assert not missing, f"{ruleset}: terrain without a glyph: {missing}"


@pytest.mark.parametrize("theme", [t for t in THEME_NAMES if t != "monochrome"])
@pytest.mark.parametrize("ruleset", engine.ruleset_names())
def test_every_terrain_class_has_its_own_colour(ruleset: str, theme: str) -> None:
    """A ruleset's own classes are coloured through its presentation's ``terrain_looks`` (the common class whose
    colour each takes: contract, the client knows no ruleset's terrain) and told apart by their glyphs."""
    palette = map_palette(theme)
    presentation = _presenter(ruleset)
    glyphs, drawn_as = presentation.terrain_glyphs, presentation.terrain_looks
    classes = sorted(set(engine.get_ruleset(ruleset).terrain_codes.values()))
    bg = {c: palette.terrain_bg.get(drawn_as.get(c, c)) for c in classes}
    looks = {c: (bg[c] or palette.terrain_bg.get("*"), glyphs.get(c, "")) for c in classes}
    unknown = [c for c in classes if bg[c] is None]
    assert not unknown, f"{ruleset} in {theme}: drawn in the fallback grey: {unknown}"
    seen: dict[tuple[str | None, str], str] = {}
    for c, look in looks.items():
        alike = {presentation.terrain_look(c), presentation.terrain_look(seen.get(look, c))}
        assert look not in seen or alike <= OPEN | {"village", "town"}, f"{c} looks like {seen.get(look)}"
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
