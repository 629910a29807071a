"""The campaign in the game client: the end of battle 1, the between-battles screen (purchase, undo, points left),
battle 2 set up with the carried force, Continue between battles, a broken campaign save."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import OptionList, Select

import saves
from engine.state import Outcome
from tui.app import PlanspielApp, Start
from tui.campaign import CampaignPlay
from tui.cli import main
from tui.screens.campaign import CampaignScreen, ForceScreen
from tui.screens.dialogs import ChoiceDialog
from tui.screens.game import GameScreen
from tui.screens.handoff import HandoffScreen
from tui.screens.newgame import NewGameScreen

from .conftest import make_app, screen_text, settle, table

LOST = "ger-i35pzr-pz2"
"""Lost at Hannut: fights Stonne as ger-iipzr-pz2 (the campaign's mapping), so that unit is absent there."""
HURT = "ger-i33schr-sch-3"
"""Loses a step at Hannut: fights Stonne as ger-i69schr-sch-3 with 1 of 2 steps, unless replaced."""


def new_campaign(home: Path, french: str = "ai:easy") -> Path:
    """A Mai 1940 campaign save, German played by a person, French by the AI (no terminal: no game is opened)."""
    path = home / "saves" / "mai.planspiel"
    argv = ["campaign", "new", "blitzkrieg1940", "mai-1940", "--out", str(path), "--german", "human"]
    assert main([*argv, "--french", french, "--seed", "3"]) == 0
    return path


def end_battle_one(play: CampaignPlay) -> None:
    """Hannut's final position, made by hand: one German unit lost, one down a step, a French victory."""
    game = play.game
    assert game is not None
    game.state.units[LOST].steps = 0
    game.state.units[LOST].hex = None
    game.state.units[HURT].steps = 1
    game.state.outcome = Outcome("french", "the test ends the battle")


async def test_between_battles_purchase_undo_and_battle_two(home: Path) -> None:
    path = new_campaign(home)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        play = CampaignPlay.load(path)
        end_battle_one(play)
        assert app.start_campaign_battle(play)
        await settle(pilot, app)
        screen = app.screen
        assert isinstance(screen, CampaignScreen)
        # The carry-over is applied and on disk the moment the battle ends.
        on_disk = saves.load_campaign(path, verify="snapshot")
        assert on_disk.battle is None and on_disk.data["battle"] == "stonne" and on_disk.results[0]["result"] == "loss"
        text = screen_text(app)
        assert "Replacement points left: 2" in text
        assert "before battle 2 of 2" in text
        report = str(screen.query_one("#report").render())
        assert "ger-iipzr-pz2" in report and "lost" in report and "What carries over" in report
        assert "fra-" not in report.split("What carries over")[1]  # only the own side's force and notes
        # Buy a step for the hurt unit (now ger-i69schr-sch-3), undo it, buy it again.
        assert screen.buy("ger-i69schr-sch-3")
        await pilot.pause()
        assert "Replacement points left: 1" in screen_text(app)
        await pilot.press("u")
        await pilot.pause()
        assert screen.picks == [] and "Replacement points left: 2" in screen_text(app)
        assert not screen.buy("ger-iipzr-pz2")  # lost for good: no rebuild in this campaign
        menu = screen.query_one("#to-buy")
        ids = [menu.get_option_at_index(i).id for i in range(menu.option_count)]  # type: ignore[attr-defined]
        assert "ger-iipzr-pz2" not in ids
        menu.highlighted = ids.index("ger-i69schr-sch-3")  # type: ignore[attr-defined]
        await pilot.press("enter")
        await pilot.pause()
        assert screen.picks == ["ger-i69schr-sch-3"] and "Replacement points left: 1" in screen_text(app)
        await pilot.press("f")
        await pilot.pause()
        assert isinstance(app.screen, ForceScreen)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("g")
        await settle(pilot, app)
        assert isinstance(app.screen, GameScreen) or any(isinstance(s, GameScreen) for s in app.screen_stack)
        assert app.session is not None and app.session.campaign is play
        units = app.session.game.state.units
        assert app.session.game.scenario.id == "stonne"
        assert "ger-iipzr-pz2" not in units  # lost at Hannut: absent at Stonne
        assert units["ger-i69schr-sch-3"].steps == 2  # the step lost, bought back
        roster = play.roster()
        assert roster["ger-iipzr-pz2"].lost and roster["ger-iipzr-pz2"].was == (LOST,)
        # The battle is saved inside the campaign save, after every action.
        on_disk = saves.load_campaign(path, verify="snapshot")
        assert on_disk.battle is not None and on_disk.battle.scenario.id == "stonne"
        assert on_disk.roster["ger-i69schr-sch-3"].steps == 2


async def test_steps_lost_stay_lost_without_purchase(home: Path) -> None:
    path = new_campaign(home)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        play = CampaignPlay.load(path)
        end_battle_one(play)
        app.start_campaign_battle(play)
        await settle(pilot, app)
        await pilot.press("g")
        await settle(pilot, app)
        assert app.session is not None
        units = app.session.game.state.units
        assert units["ger-i69schr-sch-3"].steps == 1
        assert "ger-iipzr-pz2" not in units


async def test_continue_between_battles_and_campaign_end(home: Path) -> None:
    path = new_campaign(home)
    play = CampaignPlay.load(path)
    end_battle_one(play)
    play.finish_battle({"german": 3, "french": 0})
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert "Mai 1940" in screen_text(app) and "between battles" in screen_text(app)
        await pilot.press("c")
        await settle(pilot, app)
        assert isinstance(app.screen, CampaignScreen)
        assert app.screen.play.roster()["ger-iipzr-pz2"].lost
        # Battle 2 ends too: the campaign is over and shows its final score.
        app.screen.action_go()
        await settle(pilot, app)
        assert app.session is not None
        game = app.session.game
        game.state.outcome = Outcome("german", "the test ends the battle")
        if isinstance(app.screen, ChoiceDialog):
            app.pop_screen()
        table(app).busy = False
        table(app).advance()
        await settle(pilot, app)
        assert isinstance(app.screen, CampaignScreen) and app.screen.play.over
        assert "Final score: 3 campaign points" in str(app.screen.query_one("#report").render())
    # The finished campaign's save reads as over, so that Continue offers unfinished games before it.
    header = saves.read_header(path)
    assert header.kind == "campaign" and header.is_over and header.result == "the campaign is over"


@pytest.mark.parametrize("damage", ["truncate", "missing-campaign", "battle-not-matching"])
async def test_broken_campaign_save_is_one_message(home: Path, damage: str) -> None:
    path = new_campaign(home)
    if damage == "truncate":
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 2])
        saves.backup_path(path).unlink(missing_ok=True)
    else:
        c = saves.load_campaign(path, verify="snapshot")
        if damage == "missing-campaign":
            c.campaign = "no-such-campaign"
        else:
            c.data["battle"] = "stonne"  # the campaign says battle 2, the saved battle is Hannut
        saves.save_campaign(c, path)
    app = make_app(Start("load", path=path))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert not any(isinstance(s, (GameScreen, CampaignScreen)) for s in app.screen_stack)
        assert path.exists()  # nothing is lost


async def test_load_lists_campaigns_apart_and_f4_reviews_the_force_in_battle(home: Path) -> None:
    path = new_campaign(home)
    app = make_app(Start("new", "blitzkrieg1940", "hannut", {"german": "human", "french": "human"}, 7))
    async with app.run_test(size=(80, 24)) as pilot:  # a single game too (its autosave), older than the campaign
        await settle(pilot, app)
        saves.save_campaign(saves.load_campaign(path, verify="snapshot"), path)  # the campaign: newest
        app.back_to_title()
        await settle(pilot, app)
        app.open_load()
        await settle(pilot, app)
        text = screen_text(app)
        assert "Campaign: Mai 1940" in text and "Single games" in text
        assert text.index("Campaign: Mai 1940") < text.index("Single games")
        assert "Hannut" in text[text.index("Single games") :]  # the single game, below
        await pilot.press("enter")  # the campaign comes first: battle 1 under way
        await settle(pilot, app)
        assert app.session is not None and app.session.campaign is not None
        assert app.session.campaign.path == path
        if isinstance(app.screen, ChoiceDialog):
            app.pop_screen()
        await pilot.press("f4")
        await pilot.pause()
        assert isinstance(app.screen, ForceScreen)
        assert "your force" in screen_text(app) and "ger-i35pzr-pz2" in screen_text(app)
        assert "fra-" not in screen_text(app)  # only the side played at this keyboard
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, ForceScreen)


async def _new_game_at(pilot: Pilot[None], app: PlanspielApp, option: str) -> tuple[NewGameScreen, list[str | None]]:
    """The new-game screen open with ``option`` of its scenario list highlighted; the list's option ids."""
    await pilot.pause()
    app.open_new_game()
    await settle(pilot, app)
    screen = app.screen
    assert isinstance(screen, NewGameScreen)
    menu = screen.query_one("#scenarios", OptionList)
    ids = [menu.get_option_at_index(i).id for i in range(menu.option_count)]
    menu.highlighted = ids.index(option)
    await settle(pilot, app)
    return screen, ids


async def test_new_game_offers_the_campaigns_next_to_the_scenarios(home: Path) -> None:
    app = make_app(last_ruleset="blitzkrieg1940")
    async with app.run_test(size=(100, 30)) as pilot:
        screen, ids = await _new_game_at(pilot, app, "campaign:mai-1940")
        assert "hannut" in ids and "campaign:mai-1940" in ids
        assert screen.campaign == "mai-1940" and "Campaign: Mai 1940" in screen_text(app)
        await pilot.press("g")
        await settle(pilot, app)
        assert app.session is not None and app.session.campaign is not None
        assert app.session.game.scenario.id == "hannut" and app.session.players["french"] == "ai:normal"
        [path] = (home / "saves").glob("mai-1940-*.planspiel")
        assert saves.load_campaign(path, verify="snapshot").battle is not None


async def test_new_game_asks_a_player_for_every_side_of_the_campaign(home: Path) -> None:
    """HACSE's campaign brings the Soviets in at battle 2: the new-game screen asks who plays them at the start,
    and the campaign save keeps the choice (an AI side, not a hot-seat surprise at battle 2)."""
    app = make_app(last_ruleset="hacse")
    async with app.run_test(size=(100, 30)) as pilot:
        screen, _ = await _new_game_at(pilot, app, "campaign:kampfgruppe-1944")
        assert list(screen.players) == ["german", "us", "soviet"]
        assert screen.query_one("#p-soviet", Select).value == "ai:normal"
        await pilot.press("g")
        await settle(pilot, app)
        assert app.session is not None and app.session.game.scenario.id == "h1-le-hamel"
        [path] = (home / "saves").glob("kampfgruppe-1944-*.planspiel")
        assert saves.load_campaign(path, verify="snapshot").players["soviet"] == "ai:normal"


async def test_hot_seat_each_side_buys_in_turn_seeing_only_its_own_force(home: Path) -> None:
    path = new_campaign(home, french="human")
    play = CampaignPlay.load(path)
    game = play.game
    assert game is not None
    game.state.units["fra-12kur-mot-2"].steps = 1  # fights Stonne as fra-6grdi-mot-2
    end_battle_one(play)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_campaign_battle(play)
        await settle(pilot, app)
        screen = app.screen
        assert isinstance(screen, CampaignScreen) and screen.side == "german"
        assert "fra-" not in str(screen.query_one("#report").render())
        await pilot.press("g")  # German confirms (nothing bought): the seats change, then the French buy
        await settle(pilot, app)
        assert isinstance(app.screen, HandoffScreen)  # the German force is hidden while the seats change
        assert "ger-" not in str(screen.query_one("#report").render())
        await pilot.press("enter")
        await settle(pilot, app)
        assert screen.side == "french" and app.screen is screen
        report = str(screen.query_one("#report").render())
        assert "ger-" not in report.split("Your force")[1] and "fra-6grdi-mot-2" in report
        assert screen.buy("fra-6grdi-mot-2")
        await pilot.press("g")
        await settle(pilot, app)
        assert app.session is not None and app.session.game.scenario.id == "stonne"
        units = app.session.game.state.units
        assert units["fra-6grdi-mot-2"].steps == 2 and units["ger-i69schr-sch-3"].steps == 1


@pytest.mark.parametrize(("german", "french"), [("human", "ai:easy"), ("ai:easy", "human")])
def test_the_ai_side_buys_its_own_replacements_from_either_side(home: Path, german: str, french: str) -> None:
    """Between battles the side the AI plays spends its points by itself (engine.campaign.auto_replacements),
    the side a person plays gets what the person picked (here: nothing)."""
    path = home / "saves" / "either.planspiel"
    argv = ["campaign", "new", "blitzkrieg1940", "mai-1940", "--out", str(path)]
    assert main([*argv, "--german", german, "--french", french, "--seed", "3"]) == 0
    play = CampaignPlay.load(path)
    end_battle_one(play)  # a German unit down a step
    assert play.game is not None
    play.game.state.units["fra-12kur-mot-2"].steps = 1  # and a French one (fights Stonne as fra-6grdi-mot-2)
    play.finish_battle({"german": 1, "french": 1})
    game = play.start_battle({})
    units = game.state.units
    ai_unit, human_unit = (
        ("fra-6grdi-mot-2", "ger-i69schr-sch-3")
        if french != "human"
        else (
            "ger-i69schr-sch-3",
            "fra-6grdi-mot-2",
        )
    )
    assert units[ai_unit].steps == 2  # repaired by the AI's purchase
    assert units[human_unit].steps == 1  # the person bought nothing
    bought = {n["side"] for n in saves.load_campaign(path, verify="snapshot").data["replaced"]["stonne"]}
    assert bought == {units[ai_unit].side}
