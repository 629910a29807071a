"""Pilot tests of the rules reference screen: the player's reference first, search with / Enter and n, a missing
text said in one line, the developer README with d, the ruleset with r, the keys with ?, at 80×24."""

from __future__ import annotations

from rich.console import Console
from textual.containers import VerticalScroll
from textual.widgets import Input, Static

from tui.screens.help import HelpScreen, bindings_table
from tui.screens.rules import RulesScreen

from .conftest import hannut, make_app, screen_text, settle

SIZE = (80, 24)


def _status(screen: RulesScreen) -> str:
    return str(screen.query_one("#rules-status", Static).render())


async def _open(pilot: object, app: object, ruleset: str | None = "blitzkrieg1940") -> RulesScreen:
    app.push_screen(RulesScreen(ruleset))  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]
    screen = app.screen  # type: ignore[attr-defined]
    assert isinstance(screen, RulesScreen)
    return screen


async def test_the_screen_opens_on_the_players_reference() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open(pilot, app)
        assert screen.path is not None and screen.path.name == "REFERENCE.md"
        text = screen_text(app)
        assert "player's reference (blitzkrieg1940)" in text
        assert "blitzkrieg1940 · player's reference · d: developer notes" in text
        assert "/ Search" in text  # the footer offers the search at 80 columns


async def test_search_jumps_to_a_match_highlights_it_and_n_goes_on() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open(pilot, app)
        scroll = screen.query_one("#rules-scroll", VerticalScroll)
        assert scroll.scroll_y == 0
        await pilot.press("slash")
        field = screen.query_one("#rules-search", Input)
        assert field.has_focus and field.display
        await pilot.press(*"REACTION TEST", "enter")
        await pilot.pause()
        first = screen.search.line
        assert first is not None
        assert "reaction test" in screen.lines[first].plain.lower()  # case-insensitive
        assert not field.display  # the field closes, the text stays searchable with n
        assert scroll.scroll_y == min(first, scroll.max_scroll_y) > 0  # the line is at the top
        assert "reaction test" in screen_text(app).lower()
        assert "match 1 of" in _status(screen)
        start = sum(len(line.plain) + 1 for line in screen.lines[:first])
        assert any("reverse" in str(s.style) and s.start <= start < s.end for s in screen.body.spans)  # highlighted
        await pilot.press("n")
        await pilot.pause()
        second = screen.search.line
        assert second is not None and second > first
        assert "reaction test" in screen.lines[second].plain.lower()
        assert "match 2 of" in _status(screen)


async def test_a_missing_text_says_so_in_one_line() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open(pilot, app)
        await pilot.press("slash", *"zebra crossing", "enter")
        await pilot.pause()
        assert screen.search.line is None
        assert _status(screen) == "No match for “zebra crossing”."
        assert "No match for “zebra crossing”." in screen_text(app)
        assert isinstance(app.screen, RulesScreen)


async def test_escape_in_the_search_field_closes_it_and_n_before_a_search_says_how() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open(pilot, app)
        await pilot.press("n")
        assert "/ opens the search" in _status(screen)
        await pilot.press("slash", "escape")
        await pilot.pause()
        assert isinstance(app.screen, RulesScreen)
        assert not screen.query_one("#rules-search", Input).display
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, RulesScreen)


async def test_d_shows_the_developer_readme_and_back() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open(pilot, app)
        await pilot.press("d")
        await pilot.pause()
        assert screen.path is not None and screen.path.name == "README.md"
        text = screen_text(app)
        assert "Blitzkrieg 1940 — Hannut & Stonne (blitzkrieg1940)" in text
        assert "developer notes · d: reference" in text
        await pilot.press("slash", *"How the code is laid out", "enter")
        await pilot.pause()
        assert screen.search.line is not None  # the search reads the document shown
        await pilot.press("d")
        await pilot.pause()
        assert screen.path.name == "REFERENCE.md"
        assert screen.search.line is None


async def test_r_picks_the_next_installed_ruleset() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open(pilot, app, None)
        assert len(screen.rulesets) > 1
        first = screen.ruleset
        await pilot.press("r")
        await pilot.pause()
        assert screen.ruleset != first
        assert screen.ruleset is not None and f"{screen.ruleset} · " in screen_text(app)
        for _ in range(len(screen.rulesets) - 1):
            await pilot.press("r")
        assert screen.ruleset == first


async def test_help_lists_the_keys_of_the_reference() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open(pilot, app)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        console = Console(width=120, record=True)
        console.print(bindings_table(screen))
        text = console.export_text()
        assert "\n / " in text
        for words in ("search: type a text", "next match", "developer notes", "next installed ruleset"):
            assert words in text


async def test_at_the_table_the_reference_is_the_games_ruleset() -> None:
    app = make_app(hannut())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        app.open_rules()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RulesScreen)
        assert screen.ruleset == "blitzkrieg1940"
        assert screen.path is not None and screen.path.name == "REFERENCE.md"
