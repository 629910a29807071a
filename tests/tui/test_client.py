"""The client interface: one side's view, decisions and queries, and nothing of the full state."""

from __future__ import annotations

import pytest

import engine
from engine.errors import IllegalActionError
from tui.client import GameClient, LocalClient


@pytest.fixture
def game() -> engine.Game:
    return _set_up(engine.new_game(engine.load_scenario("blitzkrieg1940", "hannut"), seed=7))


def _set_up(game: engine.Game) -> engine.Game:
    """Take the scenario file's set-up for every set-up step on top (12.1; Hannut stops at the German keep)."""
    while game.state.data.frames[-1].kind == "deploy":
        game.apply("default")
    return game


def test_local_client_is_a_game_client(game: engine.Game) -> None:
    client = LocalClient(game, "german")
    assert isinstance(client, GameClient)
    assert client.info.scenario == "hannut"
    assert [s.id for s in client.info.sides] == ["german", "french"]
    assert client.info.side_name("french") == "French"
    assert client.info.verb_help("fire").startswith("direct fire")


def test_view_is_the_sides_view(game: engine.Game) -> None:
    view = LocalClient(game, "french").view()
    assert view.viewer == "french"
    assert type(view.dice).__name__ == "HiddenDice"


def test_only_the_side_to_act_has_decisions(game: engine.Game) -> None:
    german, french = LocalClient(game, "german"), LocalClient(game, "french")
    assert german.to_act == "german"
    assert german.legal_actions() and not french.legal_actions()
    with pytest.raises(IllegalActionError, match="not french's decision"):
        french.apply(german.legal_actions()[0])


def test_apply_reports_changes_and_side_scoped_events(game: engine.Game) -> None:
    changes = []
    actors: list[str | None] = []
    german = LocalClient(game, "german", actors=actors, on_change=changes.append)
    before = german.event_count
    events = german.apply("keep ger-i-35-pzr")
    assert events == german.events_since(before)
    assert changes and changes[0].side == "german" and str(changes[0].action) == "keep ger-i-35-pzr"
    assert actors == ["german"]
    assert german.actions_played == 3  # the French and German set-up steps, then the keep


def test_undo_only_your_own_last_action(game: engine.Game) -> None:
    actors: list[str | None] = []
    german = LocalClient(game, "german", actors=actors)
    french = LocalClient(game, "french", actors=actors)
    german.apply("keep ger-i-35-pzr")
    assert german.can_undo and not french.can_undo
    with pytest.raises(IllegalActionError, match="not yours"):
        french.undo()
    assert str(german.undo()) == "keep ger-i-35-pzr"
    assert german.actions_played == 2


def test_side_scoped_queries(game: engine.Game) -> None:
    german = LocalClient(game, "german")
    german.apply("keep ger-i-35-pzr")
    _set_up(game)  # 12.1 step 3: the 1. Kürassiere
    german.apply("first ger-i-35-pzr")
    german.apply("activate")
    move = next(a for a in german.legal_actions() if a.verb == "move")
    reach = german.reachable(move.args[0])
    assert move.args[1] in reach
    unit = german.view().units[move.args[0]]
    assert unit.hex is not None
    assert german.route(move.args[0], move.args[1]) is not None
    los = german.line_of_sight(game.board.label(unit.hex), move.args[1])
    assert los.visible
    assert german.describe(german.parse(str(move))) == str(move)
    assert german.explain(move)


def test_unknown_side() -> None:
    game = engine.new_game(engine.load_scenario("blitzkrieg1940", "hannut"), seed=1)
    with pytest.raises(ValueError, match="unknown side"):
        LocalClient(game, "soviet")


def test_overlays_are_asked_with_the_sides_view(game: engine.Game, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[str | None, str, str | None]] = []
    real = game.ruleset.overlays

    def spy(view: engine.GameState, side: str, unit_id: str | None = None, history: object = ()) -> object:
        seen.append((view.viewer, side, unit_id))
        return real(view, side, unit_id, game.history)

    monkeypatch.setattr(game.ruleset, "overlays", spy)
    marks = LocalClient(game, "german").overlays("ger-i12schr-sch-1")
    assert seen == [("german", "german", "ger-i12schr-sch-1")]  # a view, never the full state
    assert marks["hq"] == {game.state.units["ger-i12schr-hq"].hex}
