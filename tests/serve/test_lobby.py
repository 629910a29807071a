"""The lobby at the table (Pilot): the title screen's entry on a server, creating a table for another player, a
game against the AI instead, joining, opening a table and the other player's action arriving on screen."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.rules import PUBLIC
from tui.remote import TableLink, open_table
from tui.screens.dialogs import ChoiceDialog
from tui.screens.game import GameScreen
from tui.screens.lobby import LobbyScreen
from tui.screens.title import TitleScreen
from tui.serve.tables import TableService

from ..tui.conftest import make_app, screen_text, settle


@pytest.fixture
def on_server(
    tables: tuple[TableService, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[TableService, str]:
    monkeypatch.setenv("PLANSPIEL_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("PLANSPIEL_TABLES", tables[1])
    monkeypatch.setenv("PLANSPIEL_PLAYER", "alice")
    monkeypatch.delenv("PLANSPIEL_GUEST", raising=False)
    return tables


async def _pick(pilot: object, app: object, label: str) -> None:
    """In the open list of choices, choose the entry whose label holds ``label`` (by its number key)."""
    text = screen_text(app)  # type: ignore[arg-type]
    found = re.search(rf"(\d)\. [^\n]*{re.escape(label)}", text)
    assert found, text
    await pilot.press(found.group(1))  # type: ignore[attr-defined]
    await settle(pilot, app)  # type: ignore[arg-type]


async def test_create_a_table_then_play_it_when_a_second_player_joins(on_server: tuple[TableService, str]) -> None:
    service, path = on_server
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, TitleScreen) and "Lobby: play others" in screen_text(app)
        await pilot.press("o")
        await settle(pilot, app)
        assert isinstance(app.screen, LobbyScreen)
        await pilot.press("c")
        await settle(pilot, app)
        await _pick(pilot, app, "P-1 Grenzgefecht")
        await _pick(pilot, app, "play German")
        await _pick(pilot, app, "another player")
        await _pick(pilot, app, "others may watch")
        assert isinstance(app.screen, LobbyScreen) and "— waiting for a" in screen_text(app)
        (tid,) = service.tables
        app.screen.action_refresh()
        # Bob joins from his own process (here: a link and a copy of the game without a screen).
        bob_link = TableLink(path, "bob")
        bob_link.request("join", table=tid)
        bob, bob_remote = open_table(bob_link, tid)
        app.screen.action_refresh()
        await settle(pilot, app)
        assert "bob (soviet)" in screen_text(app)
        app.screen._open(tid)
        await settle(pilot, app)
        if isinstance(app.screen, ChoiceDialog):
            await pilot.press("m")
            await settle(pilot, app)
        assert isinstance(app.screen, GameScreen)
        assert "you: German" in screen_text(app) and "German plans in secret" in screen_text(app)
        session = app.session
        assert session is not None and session.is_remote("soviet")
        session.client("german").apply("commit")  # as the keys would: the table has it at once
        app.screen.after_change()
        assert service.tables[tid].game.to_act == "soviet"
        for _ in range(100):
            if bob_remote.incoming(bob):
                break
            await pilot.pause(0.02)
        bob.client("soviet").apply("commit")  # Bob commits: Alice's screen takes it from the table
        for _ in range(100):
            await pilot.pause(0.05)
            if len(session.game.history) == len(service.tables[tid].game.history):
                break
        await settle(pilot, app)
        assert session.game.history == service.tables[tid].game.history
        bob_link.close()


async def test_against_the_ai_the_lobby_starts_a_game_of_ones_own(on_server: tuple[TableService, str]) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        app.open_lobby()
        await settle(pilot, app)
        await pilot.press("c")
        await settle(pilot, app)
        await _pick(pilot, app, "P-1 Grenzgefecht")
        await _pick(pilot, app, "play German")
        await _pick(pilot, app, "the AI, easy")
        assert not on_server[0].tables  # no table: a game of this session
        assert app.session is not None and app.session.players == {"german": "human", "soviet": "ai:easy"}
        assert app.session.remote is None


@pytest.mark.parametrize("watch", ["public", "other"])
async def test_a_spectator_sees_neither_sides_secrets_and_acts_on_nothing(
    on_server: tuple[TableService, str], monkeypatch: pytest.MonkeyPatch, watch: str
) -> None:
    """From the public view, or from the Soviet (the owner's opponent's) view: the German secret order given before
    the spectator came is on no screen of theirs; their keys (fire, resign) do nothing to the game."""
    service, path = on_server
    alice_link, bob_link = TableLink(path, "alice"), TableLink(path, "bob")
    tid = alice_link.request(
        "create", ruleset="art_of_tactic", scenario="p1-grenzgefecht", side="german", spectators=True, watch=watch
    )["table"]
    bob_link.request("join", table=tid)
    alice, _ = open_table(alice_link, tid)
    alice.client("german").apply("march ger-2-pz2 0305 0405")  # a German secret order, given before Carol comes
    monkeypatch.setenv("PLANSPIEL_PLAYER", "carol")
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        app.open_lobby()
        await settle(pilot, app)
        assert isinstance(app.screen, LobbyScreen) and "Games you may watch" in screen_text(app)
        app.screen._open(tid)
        await settle(pilot, app)
        assert isinstance(app.screen, GameScreen)
        text = screen_text(app)
        shown = "watching: the public view" if watch == "public" else "you: Soviet"
        assert shown in text and "ger-2-pz2 0305" not in text
        session = app.session
        assert session is not None and not session.humans
        viewer = PUBLIC if watch == "public" else "soviet"
        view = session.client(viewer).view()
        assert view.viewer == viewer and "march ger-2-pz2" not in str(view.to_dict()["data"])
        assert "march ger-2-pz2" in str(service.tables[tid].game.state.to_dict()["data"])
        await pilot.press("f", "ctrl+r")  # a spectator's keys do not act
        await settle(pilot, app)
        assert isinstance(app.screen, GameScreen) and session.game.outcome is None
        assert len(session.game.history) == len(service.tables[tid].game.history)
    for link in (alice_link, bob_link):
        link.close()
