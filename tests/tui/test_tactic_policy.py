"""Art of Tactic in the TUI: the reaction policy (digest 15.2 item 4) picked from a list after Defend's range."""

from __future__ import annotations

from typing import Any

from tui.app import PlanspielApp
from tui.screens.dialogs import ChoiceDialog
from tui.screens.game import GameScreen

from .conftest import make_app, settle, table
from .test_tactic import goto, order_list, p1


async def defend_facing(app: PlanspielApp, pilot: Any) -> GameScreen:
    """P-1: the Pz II at 0205 is given Defend facing 0305; the range list comes next."""
    await settle(pilot, app)
    screen = table(app)
    verbs = await order_list(app, pilot, "0205")
    await pilot.press(str(verbs.index("defend") + 1))
    await pilot.pause()
    await goto(app, pilot, "0305")
    await pilot.press("enter")
    await pilot.pause()
    return screen


async def test_15_2_defend_policy_is_picked_from_a_list_after_the_range() -> None:
    app = make_app(p1())
    async with app.run_test(size=(160, 48)) as pilot:
        screen = await defend_facing(app, pilot)
        await pilot.press("2")  # the range
        await pilot.pause()
        assert isinstance(app.screen, ChoiceDialog)
        values = [v for v, _ in app.screen.items]
        assert values[0] == "first", "the default first: Enter keeps it"
        assert "prefer-tank" in values and "prefer-infantry" in values
        assert "hold" not in values, "3.6: Defend opens fire automatically, no hold fire"
        assert "rule 15.2" in app.screen.title_text
        await pilot.press(str(values.index("prefer-tank") + 1))
        await settle(pilot, app)
        assert isinstance(app.screen, GameScreen) and screen.entry is None
        view = app.session.client("german").view()  # type: ignore[union-attr]
        assert view.data.orders["german"]["ger-2-pz2"].notation == "defend ger-2-pz2 0305 2 prefer-tank"


async def test_15_2_escape_at_the_policy_gives_no_order() -> None:
    app = make_app(p1())
    async with app.run_test(size=(160, 48)) as pilot:
        screen = await defend_facing(app, pilot)
        await pilot.press("1")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceDialog)
        await pilot.press("escape")
        await pilot.pause()
        assert screen.entry is None and isinstance(app.screen, GameScreen)
        view = app.session.client("german").view()  # type: ignore[union-attr]
        assert "ger-2-pz2" not in view.data.orders["german"]
