"""Issue 18 item 2: Enter on a reachable hex moves the selected unit along the route the map shows, one step at a
time under the rules; where a reaction window, a minefield or a rule stops it, the player reads where and why, and
Enter on the hex again goes on."""

from __future__ import annotations

import pytest

from engine import Action, Role, distance
from engine.pathing import Route
from tui.app import PlanspielApp
from tui.screens.dialogs import ChoiceDialog
from tui.screens.game import GameScreen

from .conftest import activate_i12, enter_on, hannut, make_app, settle, table


def _far_hex(screen: GameScreen, unit: str) -> str:
    """A reachable hex two or more hexes from the unit that no legal action names (so Enter there used to say
    "has no order")."""
    client = screen.client
    here = screen.now.view.units[unit].hex
    assert here is not None
    board = screen.info.board
    named = {h for a in screen.now.unit_actions(unit) for h in screen.now.info_of(a).hexes}
    reach = client.reachable(unit)
    far = sorted(
        (cost, label)
        for label, cost in reach.items()
        if distance(board.parse(label), here) >= 2 and board.parse(label) not in named
    )
    assert far, reach
    return far[-1][1]


async def _pick(app: PlanspielApp, pilot: object, verb: str) -> Action:
    """In the open list, the first action of ``verb``."""
    dialog = app.screen
    assert isinstance(dialog, ChoiceDialog), app.screen_stack
    index = next(i for i, (v, _) in enumerate(dialog.items) if isinstance(v, Action) and v.verb == verb)
    await pilot.press(str(index + 1))  # type: ignore[attr-defined]
    await settle(pilot, app)
    return dialog.items[index][0]  # type: ignore[return-value]


async def _half_track_and_a_far_hex(app: PlanspielApp, pilot: object) -> tuple[GameScreen, str, str]:
    """I/12 SchR activated, its half-track selected (n), and a reachable hex two or more hexes from it."""
    screen = await activate_i12(app, pilot)
    await pilot.press("n")  # type: ignore[attr-defined]
    unit = screen.selected
    assert unit is not None
    return screen, unit, _far_hex(screen, unit)


async def test_enter_on_a_far_reachable_hex_walks_the_route_step_by_step() -> None:
    app = make_app(hannut(), handoff="never", reactions="worth")  # the French are asked
    async with app.run_test(size=(160, 48)) as pilot:
        screen, unit, goal = await _half_track_and_a_far_hex(app, pilot)
        route = screen.client.route(unit, goal)
        assert route is not None
        before = len(app.session.game.history)  # type: ignore[union-attr]
        await enter_on(app, pilot, goal)
        if isinstance(app.screen, ChoiceDialog):
            await _pick(app, pilot, "move")
        game = app.session.game  # type: ignore[union-attr]
        steps = [a for a in game.history[before:] if a.args and a.args[0] == unit]
        assert len(steps) >= 2 or game.to_act != "german", steps
        board = screen.info.board
        walked = [board.parse(a.args[-1]) for a in steps]
        assert walked == list(route.path[1 : 1 + len(walked)]), "the steps follow the route shown"
        assert all(len(a.args) == 2 for a in steps), "one hex at a time: each step a legal action of its own"
        where = game.state.units[unit].hex
        assert where != board.parse(goal) and game.to_act == "french", "this opening: the French may react at once"
        # Stopped short: the player is told where and why.
        note = " ".join(str(n.message) for n in app._notifications)
        name = screen.name_units(unit)
        assert name != unit, "the notice names the unit (issue 18 item 6)"
        assert f"{name} stops at {board.label(where)}, short of {goal}: French may react" in note, note
        assert "Enter on the hex again to go on" in note

        # The French let it pass (close, 6.3.4); Enter on the goal again goes on from where it stopped.
        await _pick(app, pilot, "close")
        while game.to_act == "german" and game.state.units[unit].hex != board.parse(goal):
            done = len(game.history)
            screen = table(app)
            screen.select_unit(unit)
            await enter_on(app, pilot, goal)
            if isinstance(app.screen, ChoiceDialog) and game.to_act == "german":
                await _pick(app, pilot, "move")
            assert len(game.history) > done, [n.message for n in app._notifications]
            if game.to_act == "french":
                await _pick(app, pilot, "close")
        assert game.state.units[unit].hex == board.parse(goal)
        walked = [board.parse(a.args[-1]) for a in game.history[before:] if a.args and a.args[0] == unit]
        assert walked == list(route.path[1:])


async def test_a_step_the_rules_refuse_stops_the_walk_with_the_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    """The route is the map's cheapest (terrain costs); a step the rules refuse there stops the walk before it, and
    the player reads the engine's refusal with its rule. Here the route handed to the table skips a hex (a step of
    two hexes), which rule 7.1 refuses."""
    app = make_app(hannut(), handoff="never")
    async with app.run_test(size=(160, 48)) as pilot:
        screen, unit, goal = await _half_track_and_a_far_hex(app, pilot)
        board = screen.info.board
        here = screen.now.view.units[unit].hex
        assert here is not None
        monkeypatch.setattr(screen.client, "route", lambda u, g: Route(2.0, (here, board.parse(goal))))
        before = len(app.session.game.history)  # type: ignore[union-attr]
        await enter_on(app, pilot, goal)
        assert len(app.session.game.history) == before  # type: ignore[union-attr]
        note = " ".join(str(n.message) for n in app._notifications)
        assert f"{screen.name_units(unit)} stops at {board.label(here)}, short of {goal}: " in note, note
        assert "(rule 7.1)" in note, note


async def test_z_during_a_move_stops_the_unit_and_ends_the_activation() -> None:
    """Issue 18 item 1 (fewer decisions): z while a unit is on its move stops it and ends the activation, one key
    for what took two (x, then z: "There is no activation of yours to end now")."""
    app = make_app(hannut(), handoff="never", reactions="never")
    async with app.run_test(size=(160, 48)) as pilot:
        screen, unit, _ = await _half_track_and_a_far_hex(app, pilot)
        game = app.session.game  # type: ignore[union-attr]
        step = next(a for a in screen.now.unit_actions(unit) if a.verb == "move")
        screen.play(step)
        await settle(pilot, app)
        assert game.to_act == "german" and screen.now.end_action() is None, "the half-track is on its move"
        before = len(game.history)
        await pilot.press("z")  # type: ignore[attr-defined]
        await settle(pilot, app)
        roles = [screen.client.action_info(a).roles for a in game.history[before : before + 2]]
        assert [r & {Role.STOP, Role.END} for r in roles] == [{Role.STOP}, {Role.END}], game.history[before:]
