"""Map overlays from the rules: command ranges (3.4), out of command (3.5), a barrage's target and observer
(6.3.4, 8.6.1). The TUI draws these sets; the rule is here."""

from __future__ import annotations

from functools import cache

import engine
from engine import Game
from engine.hexgrid import distance
from engine.rulesets.blitzkrieg1940 import model as bk
from engine.rulesets.blitzkrieg1940.movement import hq_of


@cache
def _sc() -> engine.Scenario:
    return engine.load_scenario("blitzkrieg1940", "hannut")


def _game(seed: int = 7) -> Game:
    """Hannut set up as the scenario file does (12.1), up to the German's kept chits (2.8)."""
    game = engine.new_game(_sc(), seed=seed)
    while bk.data(game.state).frames[-1].kind == "deploy":
        game.apply("default")
    return game


def _bound_unit(game: Game, side: str) -> str:
    view = game.view(side)
    rs = game.ruleset
    for u in view.iter_units(side):
        if u.hex is not None and rs.tables.units[u.type].doctrine_bound and hq_of(view, u) is not None:
            return u.id
    raise AssertionError(f"no doctrine-bound {side} unit")


def test_3_4_command_overlay_german_3_french_2_around_the_hq() -> None:
    game = _game()
    for side, reach in (("german", 3), ("french", 2)):
        uid = _bound_unit(game, side)
        view = game.view(side)
        hq = hq_of(view, view.units[uid])
        assert hq is not None and hq.hex is not None
        marks = game.ruleset.overlays(view, side, uid, game.history)
        assert marks["hq"] == {hq.hex}
        expected = {h for h in view.board if distance(h, hq.hex) <= reach}
        assert marks["command"] == expected
        # The HQ selected itself shows the same range.
        assert game.ruleset.overlays(view, side, hq.id, game.history)["command"] == expected


def test_3_4_no_command_range_for_the_enemy_or_without_a_unit() -> None:
    game = _game()
    uid = _bound_unit(game, "french")
    marks = game.ruleset.overlays(game.view("german"), "german", uid, game.history)
    assert "command" not in marks and "hq" not in marks
    assert "command" not in game.ruleset.overlays(game.view("german"), "german", None, game.history)


def test_3_5_units_beyond_the_command_distance_are_marked_out_of_command() -> None:
    game = _game()
    uid = _bound_unit(game, "german")
    view = game.view("german")
    assert "out_of_command" not in game.ruleset.overlays(view, "german", None, ())
    hq = hq_of(view, view.units[uid])
    assert hq is not None and hq.hex is not None
    far = next(h for h in view.board if distance(h, hq.hex) == 5 and not view.units_at(h))
    view.units[uid].hex = far
    marks = game.ruleset.overlays(view, "german", None, ())
    assert marks["out_of_command"] == {far}
    # The French screen does not list German units.
    assert "out_of_command" not in game.ruleset.overlays(view, "french", None, ())


def test_6_3_4_barrage_window_marks_the_target_and_the_observer() -> None:
    game = _game(seed=1)
    for notation in ("keep ger-i-12-schr", "default", "first ger-artillery-1-1", "barrage"):
        game.apply(notation)
    assert "barrage" not in game.ruleset.overlays(game.view("german"), "german", None, game.history)
    game.apply("salvo 1202 heavy ger-ii12schr-hq")
    assert game.to_act == "french"  # the reaction window of 6.3.4
    view = game.view("french")
    marks = game.ruleset.overlays(view, "french", None, game.history)
    observer = view.units["ger-ii12schr-hq"].hex
    assert marks["barrage"] == {view.board.parse("1202")}
    assert marks["observer"] == {observer}


def test_default_ruleset_marks_nothing() -> None:
    game = engine.new_game(engine.load_scenario("minirules", "duel"), seed=1)
    side = game.state.sides[0]
    assert game.ruleset.overlays(game.view(side), side, None, game.history) == {}
