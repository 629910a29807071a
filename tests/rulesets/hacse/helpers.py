"""Provides helpers of the HACSE tests: games with scripted initiative, and states with units placed by hand."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

import engine
from engine.dice import ScriptedDice
from engine.errors import IllegalActionError
from engine.game import Game, take_scenario_setup
from engine.hexgrid import parse_hex
from engine.rules import Transition
from engine.rulesets.hacse.model import FACING_NAMES, data, status
from engine.rulesets.hacse.ruleset import Hacse
from engine.rulesets.hacse.sighting import sight_tn
from engine.rulesets.hacse.weather import sight_effect
from engine.state import GameState

LOSE = [1, 1, 10, 10]
"""Initiative dice that make the scenario's first side lose the initiative (it moves first, 3.2)."""
WIN = [10, 10, 1, 1]
"""Initiative dice that make the scenario's first side win (the second side moves first)."""
AFTER = [1] * 200
"""What scripted dice give once a test's own values are used up: the sighting checks every enemy unit makes (6.1 P)
then roll 1 + 1 = 2 and miss."""


def ruleset() -> Hacse:
    rs = engine.get_ruleset("hacse")
    assert isinstance(rs, Hacse)
    return rs


def game(scenario_id: str, dice: list[int] | None = None, seed: int = 1, setup: bool = True) -> Game:
    """A new game of the scenario; ``dice`` scripts the rolls (the initiative first; then :data:`AFTER`). With
    ``setup`` every side takes the scenario's default deployment (15.10.2), so the game stands at the first decision
    of turn 1."""
    sc = engine.load_scenario("hacse", scenario_id)
    g = engine.new_game(sc, seed=seed, dice=ScriptedDice([*dice, *AFTER]) if dice is not None else None)
    if setup:
        take_scenario_setup(g)
    return g


def placed(g: Game, **where: str) -> GameState:
    """A copy of the game's state with units placed by hand: ``placed(g, U4="0302:ne", G5="2213:nw")`` (the facing
    only for guns and vehicles); they stand on the map, not embarked, towed or hidden. ``G6=""`` only unhooks G6
    (it stays off the map, no longer towed)."""
    st = g.state.clone()
    for uid, spec in where.items():
        if not spec:
            status(st.units[uid]).towed_by = status(st.units[uid]).embarked_in = None
            continue
        label, _, facing = spec.partition(":")
        u = st.units[uid]
        u.hex = parse_hex(label)
        s = status(u)
        s.off_map = s.hidden = False
        s.embarked_in = s.towed_by = None
        s.facing = FACING_NAMES.index(facing) if facing else None
    return st


def play(st: GameState, *texts: str) -> GameState:
    """The state after the actions (checked first, as Game.apply does)."""
    rs = ruleset()
    for text in texts:
        action = rs.parse_action(st, text)
        rs.check(st, action)
        tr = Transition(st.clone())
        rs.apply(tr, action)
        st = tr.state
    return st


def mover(st: GameState) -> str | None:
    return data(st).mover


def refused(st: GameState, text: str) -> IllegalActionError:
    """The ruleset's refusal of ``text`` in ``st`` (the test fails if it is not refused)."""
    rs = ruleset()
    with pytest.raises(IllegalActionError) as err:
        rs.check(st, rs.parse_action(st, text))
    return err.value


def fire_state(
    dice: list[int] | None = None, side: str = "german", sid: str = "h1-le-hamel", **where: str
) -> GameState:
    """Units placed, the Fire Phase open with ``side`` to fire, the placed units able to fire and seeing the placed
    enemies."""
    g = game(sid, dice=dice)
    st = placed(g, **where)
    st.phase, st.to_act = "attack", side
    d = data(st)
    d.active = d.mover = None
    for uid in where:
        u, s = st.units[uid], status(st.units[uid])
        s.may_fire, s.fire_done, s.fired = True, False, []
        s.sighted = [e for e in where if st.units[e].side != u.side]
    return st


QUIET = ("deploy", "stand", "stop", "pass", "hold", "stay", "spare", "cease")
"""Verbs that play a turn through without a shot (for Pilot tests that need a later position)."""


async def reach_quietly(
    app: Any,
    pilot: Any,
    wanted: engine.Action,
    side: str | None = None,
    prefer: Callable[[list[engine.Action]], engine.Action | None] = lambda legal: None,
    limit: int = 300,
) -> None:
    """Play quiet decisions (``prefer``'s choice first) through the sides' clients, no keys, until ``wanted`` is
    legal (with ``side`` to act, if given); then pass the hot-seat hand-off screen, as a player would."""
    from tests.tui.conftest import play_quietly, settle  # noqa: PLC0415
    from tui.screens.handoff import HandoffScreen  # noqa: PLC0415

    game = app.session.game
    for _ in range(limit):
        legal = game.legal_actions()
        if wanted in legal and side in (None, game.state.to_act):
            break
        to_act = game.state.to_act
        assert to_act is not None
        pick = prefer(legal) or next(a for a in legal if a.verb in QUIET)
        play_quietly(app, to_act, str(pick))
    assert wanted in game.legal_actions()
    await settle(pilot, app)
    while isinstance(app.screen, HandoffScreen):
        await pilot.press("enter")
        await settle(pilot, app)


def names_unit(text: str, uid: str) -> bool:
    """Whether ``text`` names the unit ``uid`` (as a word: ``G1`` is not named by ``G12`` or ``A-G1``)."""
    return re.search(rf"(?<![\w-]){re.escape(uid)}(?![\w-])", text) is not None


def distance_term(d: int, condition: str, *, binoculars: bool = False, lit: bool = False) -> int:
    """The distance term of the sighting TN at ``d`` hexes in the weather or light ``condition`` (6.1)."""
    return sight_tn(base=0, distance=d, binoculars=binoculars, conditions=sight_effect(condition), lit=lit)[0]
