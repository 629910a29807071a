"""Round trips: save and load both Blitzkrieg 1940 scenarios after seeded random playouts of several lengths,
by replay and from the snapshot, and check the loaded game plays on exactly like the original."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

import engine
import saves
from engine.dice import ScriptedDice
from saves.games import _actions
from tests.saves.helpers import play_random, repack

Played = Callable[[str, str, int, int | None], engine.Game]

# Lengths: the opening, the middle of the game, and a finished game (None: play to the end). A finished Stonne
# game takes about ten seconds to play and replay, so it runs with the soak tests.
CASES = [
    ("hannut", 30),
    ("hannut", 150),
    ("hannut", None),
    ("stonne", 30),
    ("stonne", 150),
    pytest.param("stonne", None, marks=pytest.mark.soak),
]
IDS = ["hannut-30", "hannut-150", "hannut-end", "stonne-30", "stonne-150", "stonne-end"]


def same_game(a: engine.Game, b: engine.Game) -> None:
    assert a.state == b.state
    assert a.state.to_dict() == b.state.to_dict()
    assert a.history == b.history
    assert a.outcome == b.outcome
    assert a.to_act == b.to_act
    assert [e.to_dict() for e in a.events] == [e.to_dict() for e in b.events]


@pytest.mark.parametrize(("scenario", "limit"), CASES, ids=IDS)
def test_round_trip(game_of: Played, tmp_path: Path, scenario: str, limit: int | None) -> None:
    game = game_of("blitzkrieg1940", scenario, 1, limit)
    path = tmp_path / f"{scenario}.planspiel"
    header = saves.save_game(game, path, players={"french": "ai:greedy"})
    assert header.scenario == scenario and header.actions == len(game.history) and header.turn == game.state.turn
    assert saves.read_header(path) == header

    snap = saves.load_game(path, verify="snapshot")
    same_game(snap, game)
    assert snap.players == {"german": "human", "french": "ai:greedy"}
    assert snap.warnings == [] and not snap.verified
    assert snap.path == path and snap.created == header.created

    replayed = saves.load_game(path)
    same_game(replayed, game)
    assert replayed.verified and replayed.warnings == []
    assert replayed.players == snap.players
    assert saves.check_replay(snap) == []

    if limit is None:
        assert game.outcome is not None and header.winner == game.outcome.winner
        return
    # The loaded games go on exactly like the original.
    twin = engine.replay(game.scenario, game.seed, game.history)
    for g in (snap, replayed, twin):
        play_random(g, 5, 25)
    same_game(snap, twin)
    same_game(replayed, twin)


def test_save_load_save_keeps_the_bytes_but_the_times(duel_game: engine.Game, tmp_path: Path) -> None:
    first, _ = saves.encode_game(duel_game, created="2026-01-01T00:00:00.000+00:00")
    loaded = saves.decode_game(first, "x")
    second, _ = saves.encode_game(loaded)
    stamp = lambda h: h.update(updated="")  # noqa: E731

    assert repack(first, header=stamp) == repack(second, header=stamp)


def test_created_is_kept_across_saves(duel_game: engine.Game, tmp_path: Path) -> None:
    path = tmp_path / "g.planspiel"
    first = saves.save_game(duel_game, path)
    loaded = saves.load_game(path)
    play_random(loaded, 3, 2)
    second = saves.save_game(loaded, path)
    assert second.created == first.created
    assert second.updated >= first.updated
    assert saves.load_game(path).players == {"red": "human", "blue": "human"}


def test_players_are_checked(duel_game: engine.Game, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown side 'green'"):
        saves.save_game(duel_game, tmp_path / "g.planspiel", players={"green": "human"})
    with pytest.raises(ValueError, match="'human' or 'ai:<level>'"):
        saves.save_game(duel_game, tmp_path / "g.planspiel", players={"red": "robot"})


def test_scripted_dice_round_trip(tmp_path: Path) -> None:
    sc = engine.load_scenario("minirules", "duel")
    game = play_random(engine.new_game(sc, seed=4, dice=ScriptedDice([5, 2, 6, 1, 3, 4] * 20)), 4, 20)
    path = tmp_path / "scripted.planspiel"
    saves.save_game(game, path)
    for verify in ("replay", "snapshot"):
        loaded = saves.load_game(path, verify=verify)  # type: ignore[arg-type]
        same_game(loaded, game)
        assert isinstance(loaded.state.dice, ScriptedDice)
        assert loaded.initial_dice == {"kind": "scripted", "values": [5, 2, 6, 1, 3, 4] * 20, "position": 0}


def test_a_loaded_game_saves_again_with_its_initial_dice(tmp_path: Path) -> None:
    sc = engine.load_scenario("minirules", "duel")
    game = play_random(engine.new_game(sc, seed=4, dice=ScriptedDice([4] * 200)), 4, 10)
    saves.save_game(game, tmp_path / "a.planspiel")
    loaded = saves.load_game(tmp_path / "a.planspiel", verify="snapshot")
    play_random(loaded, 8, 6)
    saves.save_game(loaded, tmp_path / "b.planspiel")
    again = saves.load_game(tmp_path / "b.planspiel")
    assert again.verified
    same_game(again, loaded)


def test_a_new_game_round_trips(tmp_path: Path) -> None:
    game = engine.new_game(engine.load_scenario("blitzkrieg1940", "stonne"), seed=12)
    saves.save_game(game, tmp_path / "new.planspiel")
    same_game(saves.load_game(tmp_path / "new.planspiel"), game)


@pytest.mark.soak
@pytest.mark.parametrize("scenario", ["hannut", "stonne"])
@pytest.mark.parametrize("seed", range(2, 12))
def test_round_trip_soak(tmp_path: Path, scenario: str, seed: int) -> None:
    """Full random games of both scenarios, many seeds: save at several points, load both ways."""
    game = engine.new_game(engine.load_scenario("blitzkrieg1940", scenario), seed=seed)
    path = tmp_path / "soak.planspiel"
    while game.to_act is not None:
        play_random(game, seed * 1000 + len(game.history), 97)
        saves.save_game(game, path)
        same_game(saves.load_game(path, verify="snapshot"), game)
    same_game(saves.load_game(path), game)


def test_the_incremental_encoder_writes_what_a_fresh_one_writes(tmp_path: Path) -> None:
    """GameEncoder re-uses the packed history and log; after actions and undos its bytes are a fresh encoding's."""
    game = engine.new_game(engine.load_scenario("minirules", "duel"), seed=6)
    encoder = saves.GameEncoder()
    rng = random.Random(6)
    no_time = lambda h: h.update(updated="")  # noqa: E731
    undone = 0
    while game.to_act is not None:
        game.apply(rng.choice(game.legal_actions()))
        if game.can_undo and rng.random() < 0.3:
            game.undo()
            undone += 1
        mine, _ = encoder.encode(game, created="2026-01-01T00:00:00.000+00:00")
        fresh, _ = saves.GameEncoder().encode(game, created="2026-01-01T00:00:00.000+00:00")
        assert repack(mine, header=no_time) == repack(fresh, header=no_time)
    assert undone > 0
    other = play_random(engine.new_game(engine.load_scenario("blitzkrieg1940", "hannut"), seed=2), 2, 5)
    mine, _ = encoder.encode(other, created="x")
    assert repack(mine, header=no_time) == repack(saves.GameEncoder().encode(other, created="x")[0], header=no_time)


def test_restoring_reads_plain_notation_fast_and_the_rest_with_the_ruleset(duel_game: engine.Game) -> None:
    ruleset = duel_game.ruleset
    history = ["move red-inf-1 0202 0302", "end", "say 'hello world'", "MOVE x", "move  red-inf-1"]
    out = _actions(ruleset, duel_game.state, history)
    assert out[:2] == [engine.Action("move", ("red-inf-1", "0202", "0302")), engine.Action("end")]
    assert out[2:] == ["say 'hello world'", engine.Action("MOVE", ("x",)), "move  red-inf-1"]


def test_an_encoder_entered_again_on_its_own_thread_does_not_deadlock(duel_game: engine.Game) -> None:
    """What a signal handler saving in the middle of a save does: the inner save uses a fresh encoder."""
    encoder = saves.GameEncoder()
    inner: list[bytes] = []
    entered: list[bool] = []
    ruleset = duel_game.ruleset
    real = ruleset.describe

    def describe(state: engine.GameState, action: engine.Action) -> str:
        if not entered:
            entered.append(True)
            inner.append(encoder.encode(duel_game, created="x")[0])
        return real(state, action)

    ruleset.describe = describe  # type: ignore[method-assign]
    try:
        outer, _ = encoder.encode(duel_game, created="x")
    finally:
        del ruleset.describe
    no_time = lambda h: h.update(updated="")  # noqa: E731
    assert repack(inner[0], header=no_time) == repack(outer, header=no_time)
    assert saves.decode_game(outer, "x").verified
