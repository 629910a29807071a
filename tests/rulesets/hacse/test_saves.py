"""A HACSE game saved to a file and resumed (``saves.save_game`` / ``saves.load_game``): seeded random playouts of
H-1, H-2 and H-3 stopped during the set-up (15.10.2), in a Movement Phase mid-activation, in the Fire Phase and in
the End Phase (3.2), load back equal to the original, replay to the same state, and play on exactly like it to the
same end; a unit hidden when the game was saved stays hidden from the other side after a load (13.2)."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

import engine
import saves
from engine.rulesets.hacse.model import data, status
from tests.saves.test_roundtrip import same_game as same_saved_game

from .helpers import game as set_up
from .helpers import names_unit

SCENARIOS = ("h1-le-hamel", "h2-height-212", "h3-bridge-at-dusk")
SEED = 3
LIMIT = 5_000
"""Decisions after which a playout is a loop."""
DEPLOY = engine.Action("deploy")


def pick(game: engine.Game, rng: random.Random) -> engine.Action:
    """A seeded random legal action; during the set-up ``deploy`` (the scenario's deployment of the units not
    placed yet, 15.10.2) only now and then, so that some units are placed at random first and the game stays short."""
    legal = game.legal_actions()
    if DEPLOY in legal and rng.random() < 0.1:
        return DEPLOY
    return rng.choice(legal)


def play_to_end(game: engine.Game, rng: random.Random) -> engine.Game:
    for _ in range(LIMIT):
        if game.to_act is None:
            return game
        game.apply(pick(game, rng))
    pytest.fail(f"no end after {LIMIT} decisions")


def _setting_up(game: engine.Game) -> bool:
    """15.10.2: still setting up, with some units placed by hand already."""
    return game.state.phase == "setup" and sum(a.verb == "place" for a in game.history) >= 3


def _mid_activation(game: engine.Game) -> bool:
    """3.2 Phase 2 (turn 2 or later): a unit in activation that has moved and may go on."""
    st = game.state
    active = data(st).active
    if st.phase != "movement" or st.turn < 2 or active is None:
        return False
    s = status(st.units[active])
    return s.half_mp > 0 or s.hexes > 0


def _firing(game: engine.Game) -> bool:
    """3.2 Phase 3 (turn 2 or later): the Attack Phase, after some unit has fired in it."""
    st = game.state
    return st.phase == "attack" and st.turn >= 2 and any(status(u).fired for u in st.units.values())


def _end_phase(game: engine.Game) -> bool:
    """3.2 Phase 4: a decision of the End Phase (to hide a unit, to blow a bridge)."""
    return game.state.phase == "end"


STOPS: dict[str, Callable[[engine.Game], bool]] = {
    "setup": _setting_up,
    "movement": _mid_activation,
    "attack": _firing,
    "end": _end_phase,
}


def played_to(scenario_id: str, stop: str) -> tuple[engine.Game, random.Random]:
    """A new game of the scenario played with seeded random actions up to the first decision of the ``stop``
    kind, and the random numbers that brought it there (to go on with)."""
    game = engine.new_game(engine.load_scenario("hacse", scenario_id), seed=SEED)
    rng = random.Random(SEED)
    wanted = STOPS[stop]
    for _ in range(LIMIT):
        assert game.to_act is not None, f"{scenario_id} ended before a {stop} decision: {game.outcome}"
        if wanted(game):
            return game, rng
        game.apply(pick(game, rng))
    pytest.fail(f"no {stop} decision in {LIMIT} decisions of {scenario_id}")


def same_game(a: engine.Game, b: engine.Game) -> None:
    """The same game (as the Blitzkrieg round trip compares them), with the same legal actions and views."""
    same_saved_game(a, b)
    assert a.legal_actions() == b.legal_actions()
    for side in a.state.sides:
        assert a.view(side).to_dict() == b.view(side).to_dict()


def replays_equal(game: engine.Game) -> None:
    """The game's history replayed from the start gives its state (engine.replay)."""
    again = engine.replay(game.scenario, game.seed, game.history)
    assert again.state.to_dict() == game.state.to_dict()
    assert again.history == game.history


@pytest.mark.parametrize("stop", list(STOPS))
@pytest.mark.parametrize("scenario_id", SCENARIOS)
def test_3_2_a_game_saved_at_a_decision_loads_equal_and_plays_on_alike(
    tmp_path: Path, scenario_id: str, stop: str
) -> None:
    game, rng = played_to(scenario_id, stop)
    path = tmp_path / f"{scenario_id}-{stop}.planspiel"
    first, second = game.state.sides
    header = saves.save_game(game, path, players={second: "ai:easy"})
    assert (header.ruleset, header.scenario) == ("hacse", scenario_id)
    assert (header.actions, header.turn, header.to_act) == (len(game.history), game.state.turn, game.to_act)

    snap = saves.load_game(path, verify="snapshot")  # continued from the saved position
    same_game(snap, game)
    assert snap.players == {first: "human", second: "ai:easy"}
    assert snap.warnings == [] and saves.check_replay(snap) == []
    replayed = saves.load_game(path)  # the history replayed and compared with the saved position
    same_game(replayed, game)
    assert replayed.verified and replayed.warnings == []
    replays_equal(snap)

    # Both go on with the same random choices (the dice are part of the state) to the same end.
    state = rng.getstate()
    on = random.Random()
    on.setstate(state)
    play_to_end(game, rng)
    play_to_end(snap, on)
    assert game.outcome is not None and "rule" in game.outcome.reason
    same_game(snap, game)
    replays_equal(snap)


# --- Hidden units after a load (13.2) --------------------------------------------------------------------------


def _hidden(game: engine.Game) -> dict[str, str]:
    """Unit id → side of every unit hidden in the full state."""
    return {uid: u.side for uid, u in game.state.units.items() if status(u).hidden}


def _after_setup(scenario_id: str, decisions: int = 0) -> engine.Game:
    """The scenario after its deployment (15.10.2) and ``decisions`` seeded random decisions more."""
    game = set_up(scenario_id, seed=SEED)
    rng = random.Random(SEED)
    for _ in range(decisions):
        game.apply(rng.choice(game.legal_actions()))
    return game


@pytest.mark.parametrize(
    ("scenario_id", "decisions"),
    [("h3-bridge-at-dusk", 0), ("h3-bridge-at-dusk", 40), ("h1-le-hamel", 0), ("h1-le-hamel", 60)],
)
def test_13_2_a_hidden_unit_stays_hidden_after_a_load(tmp_path: Path, scenario_id: str, decisions: int) -> None:
    game = _after_setup(scenario_id, decisions)
    hidden = _hidden(game)
    assert hidden, "no hidden unit to keep hidden"
    path = tmp_path / "hidden.planspiel"
    saves.save_game(game, path)
    for verify in ("snapshot", "replay"):
        loaded = saves.load_game(path, verify=verify)
        assert _hidden(loaded) == hidden
        for side in loaded.state.sides:
            view = loaded.view(side)
            shown = {uid for uid, u in view.units.items() if u.side != side}
            leaked = shown & set(hidden)
            assert not leaked, f"{side} sees hidden {sorted(leaked)} after a load ({verify})"
            own = {uid for uid, s in hidden.items() if s == side}
            assert own <= set(view.units)  # its own hidden units it knows
            assert view.to_dict() == game.view(side).to_dict()


def test_13_2_h3_the_soviet_side_reads_nothing_of_the_hidden_germans_after_a_load(tmp_path: Path) -> None:
    """H-3: every German unit sets up hidden (15.10.5); after a save and a load the Soviet view and log name none."""
    game = _after_setup("h3-bridge-at-dusk")
    germans = {uid for uid, u in game.state.units.items() if u.side == "german"}
    assert germans and germans == set(_hidden(game))
    saves.save_game(game, tmp_path / "h3.planspiel")
    loaded = saves.load_game(tmp_path / "h3.planspiel", verify="snapshot")
    assert game.to_act == loaded.to_act == "soviet"
    view = loaded.view("soviet")
    assert not germans & set(view.units)
    assert germans <= set(loaded.view("german").units)
    for e in loaded.events_since(0, "soviet"):
        assert e.data.get("unit") not in germans, e
        assert not any(names_unit(e.text, g) for g in germans), e
    for a in loaded.legal_actions("soviet"):
        assert not germans & set(a.args), a
