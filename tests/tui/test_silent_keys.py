"""Issue 18 item 3: a key that cannot act now says why in one line, with the rule where one applies (it did
nothing before)."""

from __future__ import annotations

from tui.app import PlanspielApp

from .conftest import activate_i12, hannut, make_app, settle, table


def _said(app: PlanspielApp) -> list[str]:
    return [str(n.message) for n in app._notifications]


async def test_fire_without_a_target_says_why_with_the_engines_rule() -> None:
    app = make_app(hannut(), handoff="never")
    async with app.run_test(size=(160, 48)) as pilot:
        await activate_i12(app, pilot)
        screen = table(app)
        unit = next(
            u
            for u in screen.selectable()
            if not screen.now.unit_actions(u, lambda i: i.is_direct_fire) and screen.now.view.units[u].hex is not None
        )
        screen.select_unit(unit)
        await settle(pilot, app)
        assert screen.keys.check("table", "direct_fire") is None, "f is dimmed"
        await pilot.press("f")  # type: ignore[attr-defined]
        await settle(pilot, app)
        said = _said(app)
        assert said and said[-1].startswith("Cannot fire"), said
        assert not said[-1].startswith("Cannot fire: Cannot"), said[-1]
        assert "rule" in said[-1], said[-1]


async def test_keys_that_act_say_whose_decision_it_is() -> None:
    app = make_app(hannut(), handoff="never")
    async with app.run_test(size=(160, 48)) as pilot:
        await activate_i12(app, pilot)
        screen = table(app)
        await pilot.press("n")  # type: ignore[attr-defined]
        await settle(pilot, app)
        # The unit's undo is possible (no dice yet); x with a unit that is not moving says so.
        await pilot.press("x")  # type: ignore[attr-defined]
        await settle(pilot, app)
        assert _said(app)[-1] == f"{screen.selected} is not moving: there is no move to stop", _said(app)
        await pilot.press("H")  # type: ignore[attr-defined]
        await settle(pilot, app)
        assert _said(app)[-1] == "No hint to play: press h for one first"
