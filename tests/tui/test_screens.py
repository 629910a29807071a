"""Pilot tests of every screen: title, new game, load, rules, settings, help, hand-off, AI, end of game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.command import CommandPalette
from textual.widgets import OptionList, RadioSet, Select

import engine
import saves
from tui.app import Start
from tui.screens.dialogs import ChoiceDialog, TooSmallScreen
from tui.screens.endgame import EndGameScreen, score_chart
from tui.screens.game import GameScreen
from tui.screens.handoff import HandoffScreen
from tui.screens.help import HelpScreen
from tui.screens.load import LoadScreen
from tui.screens.newgame import NewGameScreen
from tui.screens.rules import RulesScreen
from tui.screens.settings import SettingsScreen
from tui.screens.title import TitleScreen
from tui.session import Session
from tui.settings import Settings

from .conftest import hannut, make_app, play_quietly, screen_text, settle


async def test_title_screen_menu_and_keys() -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        assert isinstance(app.screen, TitleScreen)
        await pilot.pause()  # the last save is looked up once the title is on the terminal
        assert app.screen.looked_up
        text = screen_text(app)
        assert "Continue — no saved game yet" in text
        for entry in ("New game", "Load a saved game", "Rules reference", "Settings", "Quit"):
            assert entry in text
        await pilot.press("r")
        assert isinstance(app.screen, RulesScreen)
        await pilot.pause()
        first = engine.ruleset_names()[0]  # the rules screen opens on the first installed ruleset's reference
        assert f"({first})" in screen_text(app)
        await pilot.press("escape")
        await pilot.press("l")
        assert isinstance(app.screen, LoadScreen)
        assert "No saved games yet" in screen_text(app)
        await pilot.press("backspace")
        await pilot.press("q")
    assert app.return_code == 0


async def test_new_game_screen_starts_a_game_with_the_chosen_players() -> None:
    app = make_app(last_ruleset="blitzkrieg1940")  # the screen offers the ruleset played last
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("n")
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        await pilot.pause()
        text = screen_text(app)
        assert "Hannut — the clash of the tanks" in text and "6 turns" in text
        assert "13 May 1940" in text  # the briefing
        screen.query_one("#p-german", Select).value = "ai:easy"
        screen.query_one("#p-french", Select).value = "human"
        await pilot.pause()
        assert screen.players == {"german": "ai:easy", "french": "human"}
        await pilot.press("g")
        await settle(pilot, app)
        assert isinstance(app.screen, GameScreen | ChoiceDialog | HandoffScreen)
        assert app.session is not None
        assert app.session.players == {"german": "ai:easy", "french": "human"}


async def test_ai_plays_in_a_worker_until_the_human_decides() -> None:
    app = make_app(hannut(german="ai:normal"))
    async with app.run_test(size=(120, 36)) as pilot:
        for _ in range(40):
            await settle(pilot, app, rounds=1)
            session = app.session
            assert session is not None
            if session.game.to_act == "french":
                break
        assert session.game.to_act == "french"
        assert len(session.game.history) >= 3  # the German AI kept, chose and activated
        game_screen = next(s for s in app.screen_stack if isinstance(s, GameScreen))
        assert game_screen.client.side == "french"  # the screen reads the human's view
        assert any("German activates" in line for line in game_screen.log_widget.lines_written)


async def test_thinking_indicator_while_the_ai_works() -> None:
    app = make_app(hannut(german="ai:normal"), ai_delay=0.5)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        screen = next(s for s in app.screen_stack if isinstance(s, GameScreen))
        assert screen.ai_side == "german"
        assert "German AI is thinking" in screen_text(app)
        assert screen.check_action("key", ("act", "finish")) is None  # the human's keys are dimmed meanwhile


async def test_hot_seat_hand_off_screen_is_blank_then_summarises() -> None:
    app = make_app(hannut(), handoff="always")
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, app)
        session = app.session
        assert session is not None
        # Play for the German until control passes to the French.
        screen = play_quietly(app, "german", "keep ger-i-35-pzr", "first ger-i-35-pzr", "activate")
        german = session.client("german")
        move = next(a for a in german.legal_actions() if a.verb == "move" and "hq" not in a.args[0])
        screen.play(move)
        await settle(pilot, app)
        if session.game.to_act == "german":
            pytest.skip("no reaction window opened after this move")
        assert isinstance(app.screen, HandoffScreen)
        text = screen_text(app)
        assert "French player: press Enter" in text
        assert "ger-" not in text and "Turn" not in text  # nothing of the table shows
        await pilot.press("enter")
        assert "since your last decision" in screen_text(app)
        await pilot.press("enter")
        await settle(pilot, app)
        assert screen.client.side == "french"
        assert isinstance(app.screen, ChoiceDialog)  # the reaction window is offered


def test_hand_off_default_follows_design_6_hidden_information_only() -> None:
    assert Settings().handoff == "hidden"
    session = Session.new("blitzkrieg1940", "hannut", {}, seed=7, autosave=False)
    assert not session.has_hidden_information()  # Blitzkrieg hides nothing but the dice
    app = make_app()
    assert not app.needs_handoff(session)
    session.has_hidden_information = lambda: True  # type: ignore[method-assign]
    assert app.needs_handoff(session)
    assert make_app(handoff="always").needs_handoff(Session.new("blitzkrieg1940", "hannut", {}, seed=7, autosave=False))
    assert not make_app(handoff="never").needs_handoff(session)


async def test_hot_seat_without_hidden_information_switches_sides_without_a_hand_off() -> None:
    app = make_app(hannut())
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, app)
        session = app.session
        assert session is not None
        screen = play_quietly(app, "german", "keep ger-i-35-pzr", "first ger-i-35-pzr", "activate")
        german = session.client("german")
        move = next(a for a in german.legal_actions() if a.verb == "move" and "hq" not in a.args[0])
        screen.play(move)
        await settle(pilot, app)
        if session.game.to_act == "german":
            pytest.skip("no reaction window opened after this move")
        assert not any(isinstance(s, HandoffScreen) for s in app.screen_stack)
        assert screen.client.side == "french"


async def test_game_over_shows_the_end_screen() -> None:
    app = make_app(Start("new", "minirules", "duel", {"red": "ai:random", "blue": "ai:greedy"}, 3))
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(60):
            await settle(pilot, app, rounds=1)
            if isinstance(app.screen, EndGameScreen):
                break
        assert isinstance(app.screen, EndGameScreen)
        await settle(pilot, app)
        text = screen_text(app)
        assert "game over" in text and "Result:" in text
        assert "Losses (steps)" in text and "Red" in text and "Blue" in text
        await pilot.press("m")
        assert isinstance(app.screen, GameScreen)
        await pilot.press("Q")
        assert isinstance(app.screen, TitleScreen)


def test_score_chart() -> None:
    chart = score_chart({1: {"german": 8}, 2: {"german": 16}}, {"german": "German"}, width=8).plain
    assert chart.splitlines() == ["T1  German │████ 8", "T2  German │████████ 16"]


async def test_help_lists_the_screens_live_keys() -> None:
    app = make_app(hannut())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        if isinstance(app.screen, ChoiceDialog):
            await pilot.press("m")
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.pause()
        text = screen_text(app)
        assert "fire with the selected unit" in text
        assert "cursor one hex up the screen" in text
        assert "(not now)" in text  # fire is not legal before a unit is activated
        await pilot.press("enter")
        assert isinstance(app.screen, GameScreen)
        await pilot.press("S")  # save by hand
        await pilot.pause()
        assert list(saves.saves_dir().glob("hannut-*.planspiel"))
        assert any("Saved to" in str(n.message) for n in app._notifications)


async def test_too_small_terminal_says_what_is_needed() -> None:
    app = make_app()
    async with app.run_test(size=(70, 20)) as pilot:
        await pilot.pause(0.1)
        assert isinstance(app.screen, TooSmallScreen), app.screen_stack
        assert "at least 80×24" in screen_text(app) and "70×20" in screen_text(app)
        await pilot.resize_terminal(100, 30)
        await pilot.pause(0.1)
        assert isinstance(app.screen, TitleScreen), app.screen_stack
        assert app.screen.looked_up  # the last save was looked up under the message


async def test_settings_theme_and_keys_are_saved(home: Path) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("s")
        screen = app.screen
        assert isinstance(screen, SettingsScreen)
        await pilot.pause()
        radio = screen.query_one("#theme", RadioSet)
        radio.focus()
        await pilot.press("right", "enter")
        await pilot.pause()
        assert app.settings.theme == "monochrome"
        assert app.theme == "planspiel-monochrome"
        app.settings.keymap["game.fire"] = "f,F"
        app.apply_keymap()
        app.save_settings()
    saved = json.loads((home / "config" / "settings.json").read_text())
    assert saved["theme"] == "monochrome" and saved["keymap"] == {"game.fire": "f,F"}
    assert Settings.load().theme == "monochrome"  # what PlanspielApp() reads at start


async def test_no_color_forces_monochrome(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(hannut())
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, app)
        assert app.effective_theme() == "monochrome"
        assert app.palette.name == "monochrome" and not app.palette.terrain_bg


async def test_load_screen_lists_saves_and_explains_damaged_ones(home: Path) -> None:
    s = Session.new("blitzkrieg1940", "hannut", {}, seed=7)
    s.client("german").apply("keep ger-i-35-pzr")
    good = s.save()
    bad = saves.saves_dir() / "broken.planspiel"
    bad.write_bytes(b"\x00garbage")
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()  # the last save is looked up once the title is on the terminal
        assert "Continue — Hannut" in screen_text(app)
        await pilot.press("l")
        assert isinstance(app.screen, LoadScreen)
        text = screen_text(app)
        assert "Hannut" in text and good.name in text
        assert "✗" in text and "broken.planspiel" in text
        assert not app.load_game(bad)  # a damaged save: the SaveError sentence, nothing else
        await pilot.pause()
        assert any("broken.planspiel" in str(n.message) for n in app._notifications)
        ol = app.screen.query_one(OptionList)
        ol.focus()
        ol.highlighted = 0
        await pilot.press("enter")
        await settle(pilot, app)
        assert app.session is not None and app.session.game.history == s.game.history


async def test_command_palette_lists_every_command() -> None:
    app = make_app(hannut())
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, app)
        game_screen = next(s for s in app.screen_stack if isinstance(s, GameScreen))
        titles = {c.title for c in app.get_system_commands(game_screen)}
        for title in (
            *("New game", "Load game", "Save game", "Fire", "End activation", "Undo", "Notation prompt"),
            *("Command range", "Hint", "Play hint"),
        ):
            assert title in titles
        await pilot.press("escape") if isinstance(app.screen, ChoiceDialog) else None
        await pilot.press("p")
        await pilot.pause()
        assert "CommandPalette" in type(app.screen).__name__


async def test_a_long_group_picked_from_the_choices_list_is_listed_in_full() -> None:
    """o groups a long list by verb and unit; picking a group of more than 16 lists its choices one by one
    (grouping it again would only offer the same group back: a dead end)."""
    app = make_app(hannut())
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, app)
        screen = next(s for s in app.screen_stack if isinstance(s, GameScreen))
        unit = next(iter(screen.now.view.units))
        many = [engine.Action("move", (unit, f"{col:02d}01")) for col in range(1, 21)]
        other = [engine.Action("move", ("other-unit", f"{col:02d}02")) for col in range(1, 3)]
        items = screen.words().items([*many, *other])
        group = next(v for v, _ in items if isinstance(v, list))
        assert group == many
        screen._chosen(group)
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ChoiceDialog)
        assert [v for v, _ in dialog.items] == many


async def test_ctrl_p_opens_the_palette_and_the_table_offers_no_continue() -> None:
    """Issue 18 item 9: ctrl+p did not open the palette (only p), and inside a game it offered "Continue the last
    game"."""
    app = make_app(hannut())
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        game = next(s for s in app.screen_stack if isinstance(s, GameScreen))
        titles = [c.title for c in app.get_system_commands(game)]
        assert "Continue" not in titles and "Save game" in titles
        await pilot.press("m")  # close the first list of choices: the table
        await settle(pilot, app)
        await pilot.press("ctrl+p")
        await settle(pilot, app)
        assert isinstance(app.screen, CommandPalette), app.screen_stack


async def test_the_new_game_form_is_usable_at_80x24() -> None:
    """Issue 18 item 7: at 80×24 the New game form's Start button was never visible and Tab moved the focus off
    the screen; every field now scrolls into view when it takes the focus."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        app.push_screen(NewGameScreen())
        await settle(pilot, app)
        seen = set()
        for _ in range(8):
            await pilot.press("tab")
            await pilot.pause()
            focused = app.focused
            assert focused is not None
            region = focused.region
            assert region.y >= 0 and region.bottom <= 23, f"{focused.id} at {region}: off the screen"
            seen.add(focused.id)
        assert {"start", "setup", "p-german"} <= seen, seen


async def test_the_game_footer_shows_help_at_80x24() -> None:
    """Issue 18 item 7: at 80×24 the footer was cut before its help key ("k Comman")."""
    app = make_app(hannut())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("m")  # the table, not the first list
        await settle(pilot, app)
        footer = screen_text(app).splitlines()[-1]
        assert "? Help" in footer, footer


async def test_keys_before_the_title_looked_up_the_last_save_are_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """The title is drawn before the last save is looked up: a move in its menu stays, a choice waits for it."""
    s = Session.new("blitzkrieg1940", "hannut", {}, seed=7)
    s.save()
    monkeypatch.setattr(TitleScreen, "look_up", lambda self: None)  # keys come before the look-up
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        title = app.screen
        assert isinstance(title, TitleScreen) and not title.looked_up
        menu = title.query_one("#menu", OptionList)
        assert menu.highlighted == 0 and "Continue" in screen_text(app)
        await pilot.press("down")  # to "New game"
        title.rebuild()  # the look-up: Continue names the save, the player's move stays
        await pilot.pause()
        assert title.looked_up and menu.highlighted == 1
        assert "Continue — Hannut" in screen_text(app)
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        assert isinstance(app.screen, TitleScreen) and not app.screen.looked_up
        await pilot.press("c")  # Continue before the look-up: it looks up, then continues
        await settle(pilot, app)
        assert app.session is not None and any(isinstance(x, GameScreen) for x in app.screen_stack)


async def test_the_log_can_take_half_the_screen_at_80x24() -> None:
    """Issue 18 item 7: at 80×24 the log showed three lines; L gives it half the screen, and L again gives the
    map its room back."""
    app = make_app(hannut())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("m")
        await settle(pilot, app)
        screen = next(s for s in app.screen_stack if isinstance(s, GameScreen))
        small = screen.log_widget.region.height
        await pilot.press("L")
        await settle(pilot, app)
        assert screen.log_widget.region.height >= 10 > small
        await pilot.press("L")
        await settle(pilot, app)
        assert screen.log_widget.region.height == small
