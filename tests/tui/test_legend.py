"""Issue 18 item 4: a legend explains every glyph in view, per ruleset (a key and a screen), and the hex panel says
what the glyphs of the hex under the cursor mean."""

from __future__ import annotations

import random

import pytest

import engine
from tui.choices import Words
from tui.client import LocalClient
from tui.legend import GROUPS, hex_legend, legend, ordered
from tui.overlay import hex_content
from tui.widgets.panels import UnitCard, unit_text

from .conftest import hannut, hannut_position, make_app, screen_text, settle, table

CASES = [("blitzkrieg1940", "hannut"), ("blitzkrieg1940", "stonne"), ("art_of_tactic", "p1-grenzgefecht")]


def _client(ruleset: str, scenario: str) -> LocalClient:
    game = engine.new_game(engine.load_scenario(ruleset, scenario), seed=1)
    engine.take_scenario_setup(game)
    return LocalClient(game, game.state.sides[0])


@pytest.mark.parametrize(("ruleset", "scenario"), CASES)
def test_every_glyph_the_map_draws_is_in_the_legend(ruleset: str, scenario: str) -> None:
    client = _client(ruleset, scenario)
    view, info = client.view(), client.info
    presenter = engine.get_ruleset(ruleset).presentation(info)
    explained = {e.glyph for e in legend(view, presenter, info.board)}
    drawn: set[str] = set()
    for h, content in hex_content(view, presenter, info.board, None).items():
        if content.unit is not None:
            drawn |= set(content.unit.label[:2]) | set(content.unit.flags)
        drawn |= set(content.marker)
        terrain = info.board.cells[h].terrain
        drawn |= set(presenter.terrain_glyphs.get(terrain, ""))
    steps_digits = {c for c in drawn if c.isdigit()}
    missing = drawn - explained - steps_digits
    assert not missing, f"glyphs without a meaning in the legend: {sorted(missing)}"
    groups = [e.group for e in ordered(legend(view, presenter, info.board))]
    assert groups == sorted(groups, key=GROUPS.index), "one block per group, in the legend's order"


def test_the_hex_legend_and_the_unit_panel_explain_the_counter_under_the_cursor() -> None:
    client = _client("blitzkrieg1940", "hannut")
    view, info = client.view(), client.info
    presenter = engine.get_ruleset("blitzkrieg1940").presentation(info)
    h = next(u.hex for u in view.units.values() if u.hex is not None and u.side == "german")
    meanings = [e.meaning for e in hex_legend(view, presenter, info.board, h)]
    assert "first letter of a counter: German" in meanings
    top = presenter.stack_order(view.units_at(h))[0]
    text = unit_text(UnitCard(view, presenter, top)).plain
    assert f"{presenter.unit_label(top)} {top.id}  German" in text, text
    assert presenter.unit_name(top) in text, "the type the letter stands for"


async def test_l_shows_the_legend() -> None:
    app = make_app(hannut(), handoff="never")
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        table(app).focus_map()
        while app.screen is not table(app):
            app.pop_screen()
            await settle(pilot, app)
        await pilot.press("l")  # type: ignore[attr-defined]
        await settle(pilot, app)
        text = screen_text(app)
        assert "Legend: what the map shows" in text
        assert "first letter of a counter: German" in text and "terrain: woods" in text


def test_choice_lines_say_what_numbers_stand_for_and_give_barrage_odds() -> None:
    """Issue 18 item 9: ``stuka 1202 2`` said nothing of the 2; barrage and assault choices showed no odds, and a
    barrage's list not what stands in the target hex."""
    game = engine.new_game(engine.load_scenario("blitzkrieg1940", "hannut"), seed=3)
    engine.take_scenario_setup(game)
    rng = random.Random(3)
    while not any(a.verb == "stuka" for a in game.legal_actions()):
        game.apply(rng.choice(game.legal_actions()))
    client = LocalClient(game, game.to_act)
    presenter = engine.get_ruleset("blitzkrieg1940").presentation(client.info)
    words = Words(client, presenter, client.info, client.view(), client.action_info)
    pair = next(a for a in client.legal_actions() if a.verb == "stuka" and len(a.args) == 2)
    line = words.label(pair).plain
    assert f"{pair.args[1]} Stuka attacks together (8.6.2)" in line, line
    assert "[effect " in line and "in the hex: " in line, line


def test_lists_name_units_as_players_do() -> None:
    """Issue 18 item 6: lists showed only ids (``ger-i5pzr-pz1``); they name the unit's formation and type beside
    the id, which notation keeps."""
    client = _client("blitzkrieg1940", "hannut")
    presenter = engine.get_ruleset("blitzkrieg1940").presentation(client.info)
    view = client.view()
    words = Words(client, presenter, client.info, view, client.action_info)
    unit = next(u for u in view.units.values() if u.formation and u.hex is not None)
    title = presenter.unit_title(view, unit)
    assert "," in title and presenter.unit_name(unit) in title, title
    picked = dict(words.units([unit.id]))[unit.id]
    assert unit.id in str(picked) and title in str(picked)


def test_a_salvo_names_its_observer_as_players_do() -> None:
    """Issue 18 item 6: an artillery salvo's line said ``observer fra-12kur-hq at 1202``; it names the HQ (the
    notation at the start of the line keeps the id)."""

    def observed(client: LocalClient) -> bool:
        return any(client.action_info(a).is_barrage and client.action_info(a).units for a in client.legal_actions())

    client = hannut_position(observed, range(1, 12), 400)
    salvo = next(a for a in client.legal_actions() if client.action_info(a).is_barrage and client.action_info(a).units)
    presenter = engine.get_ruleset("blitzkrieg1940").presentation(client.info)
    words = Words(client, presenter, client.info, client.view(), client.action_info)
    observer = client.view().units[client.action_info(salvo).units[0]]
    line = words.label(salvo).plain
    assert f"observer {presenter.unit_title(client.view(), observer)} at " in line, line
