"""Conformance: seeded random playouts of both scenarios to the end (DESIGN §10, issue 3).

Every legal action applies; no invariant breaks (stacking, positions on the map, step counts, markers, chits);
``replay(history)`` rebuilds the same state. ``make test`` plays a few seeds per scenario; ``make soak`` plays
1,000 each.
"""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest

import engine
from engine.rulesets.blitzkrieg1940 import model as bk
from engine.rulesets.blitzkrieg1940.data import load_tables
from engine.rulesets.blitzkrieg1940.movement import stack_count

T = load_tables()
QUICK = int(os.environ.get("PLANSPIEL_PLAYOUTS", "50"))
SOAK = 1000


def check_invariants(game: engine.Game) -> None:
    """The invariants of a Blitzkrieg position at a decision point."""
    st = game.state
    moving = any(bk.status(u).moving for u in st.units.values())
    hexes = Counter(u.hex for u in st.iter_units() if T.units[u.type].category != "hq")
    for u in st.units.values():
        t = T.units[u.type]
        assert 0 <= u.steps <= t.steps, f"{u.id} has {u.steps} steps"
        if u.hex is not None:
            assert u.hex in game.board, f"{u.id} is off the map at {u.hex!r}"
            assert t.category == "hq" or u.steps > 0, f"{u.id} is on the map with no steps"
        elif t.category != "hq" and u.steps > 0 and not bk.status(u).exited and st.phase != "setup":
            assert bk.status(u).arrives is not None or bk.status(u).carried_by, f"{u.id} vanished"
        if bk.status(u).neutralised or bk.status(u).opp_used:
            assert u.hex is not None, f"{u.id} carries markers off the map"
        apc = bk.status(u).carried_by
        if apc:  # 12.1 [P]: a mounted company goes where its APC goes (a reaction retreat split the pair)
            assert bk.status(st.units[apc]).carrying == u.id and st.units[apc].hex == u.hex, f"{u.id} left {apc}"
    if not moving:
        for h in hexes:
            assert stack_count(st, h, T) <= T.sequence.stacking_limit, f"overstacked at {game.board.label(h)}"
    for h in hexes:
        assert len({u.side for u in st.units_at(h)}) == 1 or bk.data(st).frames, "enemies share a hex"
    # Chits: none in two places at once; every chit in the cup exists and is due.
    places: list[str] = list(bk.data(st).cup)
    for side in st.sides:
        p = bk.data(st).players[side]
        places += p.activated + p.skipped + p.replays
        places += [x for x in (p.held, p.general) if x]
    places += [x for x in (bk.data(st).carried,) if x]
    dup = [c for c, n in Counter(places).items() if n > 1 and c in bk.data(st).cup]
    assert not dup, f"chits in two places: {dup}"
    for cid in bk.data(st).cup:
        chit = bk.data(st).chits[cid]
        assert chit.turn <= st.turn and cid not in bk.data(st).removed_chits, f"{cid} should not be in the cup"
    for fid, f in bk.data(st).formations.items():
        assert 0 <= f.acts <= T.sequence.max_activations, f"{fid} activated {f.acts} times"
        assert 0 <= f.steps_lost <= max(f.steps_total, 0) + 8, f"{fid} lost {f.steps_lost} steps"


_ENDS = frozenset({"end", "stop", "close", "decline"})


def playout(scenario_id: str, seed: int) -> engine.Game:
    sc = engine.load_scenario("blitzkrieg1940", scenario_id)
    game = engine.new_game(sc, seed=seed)
    rng = random.Random(seed)
    # Odd seeds set up at random (12: every placement a random legal hex); even seeds take the scenario file's
    # set-up, so that half the games start from the historical positions (and the run stays short).
    random_setup = seed % 2 == 1
    for _ in range(20_000):
        if game.to_act is None:
            break
        actions = game.legal_actions()
        assert actions, f"no legal action at {bk.data(game.state).frames[-1:]}"
        ends = [a for a in actions if a.verb in _ENDS]
        if not random_setup and actions[0].verb == "default":
            game.apply(actions[0])
        elif ends and rng.random() < 0.25:
            game.apply(rng.choice(ends))  # now and then end a move or an activation: shorter games, same rules
        else:
            game.apply(rng.choice(actions))
        check_invariants(game)
    assert game.outcome is not None, "the game did not end"
    return game


@pytest.mark.parametrize("scenario_id", ["hannut", "stonne"])
@pytest.mark.parametrize("seed", range(QUICK))
def test_random_playout_to_the_end(scenario_id: str, seed: int) -> None:
    game = playout(scenario_id, seed)
    again = engine.replay(game.scenario, seed, game.history)
    assert again.state.to_dict() == game.state.to_dict()


@pytest.mark.soak
@pytest.mark.parametrize("scenario_id", ["hannut", "stonne"])
@pytest.mark.parametrize("seed", range(QUICK, QUICK + SOAK))
def test_soak_random_playout(scenario_id: str, seed: int) -> None:
    game = playout(scenario_id, seed)
    assert engine.replay(game.scenario, seed, game.history).state.to_dict() == game.state.to_dict()
