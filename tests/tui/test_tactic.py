"""Art of Tactic in the TUI: the unit card, order entry per unit (orders list, targets, paths plotted hex by
hex), the orders-given summary, the hot-seat hand-off of secret planning, the reveal and the steps (issue 7.5)."""

from __future__ import annotations

import io

from rich.console import Console
from textual.widgets import Static

from tui.app import PlanspielApp, Start
from tui.screens.dialogs import ChoiceDialog, ConfirmDialog, TooSmallScreen
from tui.screens.game import GameScreen
from tui.screens.handoff import HandoffScreen
from tui.screens.help import HelpScreen
from tui.screens.resolution import ExecutionScreen, OrdersSummaryScreen
from tui.widgets.panels import UnitPanel

from .conftest import make_app, screen_text, settle, table

HOT = {"german": "human", "soviet": "human"}


def p1(**players: str) -> Start:
    """P-1 Grenzgefecht, hot-seat unless players are given."""
    return Start("new", "art_of_tactic", "p1-grenzgefecht", {**HOT, **players}, 7)


async def goto(app: PlanspielApp, pilot: object, label: str) -> None:
    """Put the map cursor on a hex."""
    screen = table(app)
    screen.map.move_cursor(screen.info.board.parse(label))
    await pilot.pause()  # type: ignore[attr-defined]


async def order_list(app: PlanspielApp, pilot: object, label: str) -> list[str]:
    """Open the order list of the unit at ``label`` (Enter) and return its verbs in the order keyed 1–9."""
    await goto(app, pilot, label)
    await pilot.press("enter")  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]
    return [v for v, _ in app.screen.items]  # type: ignore[attr-defined]


async def test_unit_panel_shows_the_card_and_the_order_given() -> None:
    app = make_app(p1())
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        screen = table(app)
        assert isinstance(app.screen, GameScreen)
        await goto(app, pilot, "0205")
        text = screen.query_one("#unit", UnitPanel).text
        for part in (
            "Panzerzug Pz II",
            "size",
            "3 of 3",
            "firepower",
            "INF 6",
            "range",
            "3-3-2-1",
            "bravery",
            "defence",
            "ammunition",
            "6 of 6",
            "march 3",
            "none yet (holds, 2.3)",
        ):
            assert part in text, part
        app.session.client("german").apply("hold ger-2-pz2")  # type: ignore[union-attr]
        screen.refresh_view()
        await goto(app, pilot, "0205")
        assert "order hold ger-2-pz2" in " ".join(screen.query_one("#unit", UnitPanel).text.split())


async def test_order_list_then_path_hex_by_hex_backspace_and_confirm() -> None:
    """Enter on the Pz II: its legal orders as a keyed list; March; the path plotted hex by hex (Backspace takes
    one back, the status shows the path, the card's allowance and the engine's verdict); y gives the order."""
    app = make_app(p1())
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        screen = table(app)
        await goto(app, pilot, "0205")
        await pilot.press("enter")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ChoiceDialog)
        verbs = [v for v, _ in dialog.items]
        legal = {a.verb for a in screen.now.legal if a.args and a.args[0] == "ger-2-pz2"}
        assert set(verbs) == legal and "march" in verbs and "commit" not in verbs
        await pilot.press(str(verbs.index("march") + 1))
        await pilot.pause()
        assert screen.entry is not None and screen.entry.path == ()
        for label in ("0305", "0405", "0404"):
            await goto(app, pilot, label)
            await pilot.press("enter")
        await pilot.pause()
        status = screen.query_one("#status").text  # type: ignore[attr-defined]
        assert "March for Pz II #2: 3 hexes, cost 3 of 3, 0 left · path 0305 0405 0404" in status
        await pilot.press("backspace")
        await pilot.pause()
        assert [screen.info.board.label(h) for h in screen.entry.path] == ["0305", "0405"]
        status = screen.query_one("#status").text  # type: ignore[attr-defined]
        assert "legal as plotted" in status
        assert "2 hexes, cost 2 of 3 + 2 road, 3 left · path 0305 0405" in status  # 4.3: along the road
        assert "path: 2 hexes, cost 2 of movement range 3 + 2 road bonus, 3 left (4.11)" in screen.notes
        await pilot.press("y")
        await settle(pilot, app)
        assert screen.entry is None
        view = app.session.client("german").view()  # type: ignore[union-attr]
        assert view.data.orders["german"]["ger-2-pz2"].notation == "march ger-2-pz2 0305 0405"
        screen.select_unit("ger-2-pz2")  # the written path shows on the map, numbered
        await pilot.pause()
        assert screen.map.overlay[screen.info.board.parse("0405")].text == "2"


async def test_a_hex_not_next_to_the_path_is_refused_and_escape_cancels() -> None:
    app = make_app(p1())
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        screen = table(app)
        verbs = await order_list(app, pilot, "0205")
        await pilot.press(str(verbs.index("move") + 1))
        await pilot.pause()
        await goto(app, pilot, "0505")
        await pilot.press("enter")
        await pilot.pause()
        assert "0505 is not next to 0205" in screen.log_widget.lines_written[-1]
        assert "rule 4.1" in screen.log_widget.lines_written[-1]
        await pilot.press("escape")
        await pilot.pause()
        assert screen.entry is None
        assert app.session.client("german").view().data.orders["german"] == {}  # type: ignore[union-attr]


async def test_4_11_a_hex_over_the_range_is_refused_with_the_engines_rule() -> None:
    """Cautious movement of the Pz II (range 2): a third hex costs more than its card allows, so it is not added
    and the engine's sentence says why (rule 4.11); the path stays to be given."""
    app = make_app(p1())
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        screen = table(app)
        verbs = await order_list(app, pilot, "0205")
        await pilot.press(str(verbs.index("move") + 1))
        await pilot.pause()
        assert any(
            o.text in ("·", "»") for o in screen.map.overlay.values()
        )  # 2 of 2 left: the neighbours it may enter
        for label in ("0305", "0405", "0505"):
            await goto(app, pilot, label)
            await pilot.press("enter")
        await pilot.pause()
        refusal = screen.log_widget.lines_written[-1]
        assert "0505 not added to ger-2-pz2's path" in refusal
        assert "costs 3 hexes of movement, more than the 2 allowed (rule 4.11)" in refusal
        assert screen.entry is not None and len(screen.entry.path or []) == 2
        assert not any(o.text in ("·", "»") for o in screen.map.overlay.values())  # 0 left: no hex is marked as allowed
        assert "2 hexes, cost 2 of 2, 0 left · path 0305 0405" in screen.query_one("#status").text  # type: ignore[attr-defined]
        await pilot.press("y")
        await settle(pilot, app)
        view = app.session.client("german").view()  # type: ignore[union-attr]
        assert view.data.orders["german"]["ger-2-pz2"].notation == "move ger-2-pz2 0305 0405"


async def test_4_11_the_field_penalty_shows_while_plotting_and_in_the_summary() -> None:
    """A field costs the light tank 2 (10.9): the status, the hex panel and the orders-given summary say so."""
    app = make_app(p1())
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        screen = table(app)
        verbs = await order_list(app, pilot, "0205")
        await pilot.press(str(verbs.index("move") + 1))
        await pilot.pause()
        assert "0 hexes, cost 0 of 2, 2 left · path none yet" in screen.query_one("#status").text  # type: ignore[attr-defined]
        await goto(app, pilot, "0306")
        await pilot.press("enter")
        await pilot.pause()
        assert "1 hex, cost 2 of 2, 0 left · path 0306" in screen.query_one("#status").text  # type: ignore[attr-defined]
        assert any("cost 2 of movement range 2" in line for line in screen.notes)
        await pilot.press("y")
        await settle(pilot, app)
        await pilot.press("g")
        await pilot.pause()
        assert isinstance(app.screen, OrdersSummaryScreen)
        text = screen_text(app)
        assert "move ger-2-pz2 0306" in text and "(1 hex, cost 2 of movement range 2, 0 left)" in text


async def test_defend_picks_the_facing_hex_on_the_map_and_the_range_from_a_list() -> None:
    app = make_app(p1())
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        screen = table(app)
        verbs = await order_list(app, pilot, "0205")
        await pilot.press(str(verbs.index("defend") + 1))
        await pilot.pause()
        assert screen.entry is not None and screen.map.overlay[screen.info.board.parse("0305")].text == "◎"
        assert "Defend for Pz II #2: pick the facing hex on the map (◎)" in screen.query_one("#status").text  # type: ignore[attr-defined]
        await goto(app, pilot, "0305")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceDialog)
        assert [v for v, _ in app.screen.items] == ["1", "2", "3"]
        await pilot.press("escape")  # Escape at the range: the order is not given
        await pilot.pause()
        assert screen.entry is None and isinstance(app.screen, GameScreen)
        await goto(app, pilot, "0205")
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press(str(verbs.index("defend") + 1))
        await pilot.pause()
        await pilot.press("escape")  # Escape at the target: cancelled too
        await pilot.pause()
        mark = screen.map.overlay.get(screen.info.board.parse("0305"))
        assert screen.entry is None and (mark is None or mark.text != "◎")
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press(str(verbs.index("defend") + 1))
        await pilot.pause()
        await goto(app, pilot, "0305")
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("2")
        await pilot.pause()
        await pilot.press("enter")  # the reaction policy (15.2): Enter keeps the default
        await settle(pilot, app)
        view = app.session.client("german").view()  # type: ignore[union-attr]
        assert view.data.orders["german"]["ger-2-pz2"].notation == "defend ger-2-pz2 0305 2"
        await pilot.press("g")
        await pilot.pause()
        assert isinstance(app.screen, OrdersSummaryScreen)
        assert "defend ger-2-pz2 0305 2" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        screen.select_unit("ger-2-pz2")
        await pilot.press("x")
        await settle(pilot, app)
        assert app.session.client("german").view().data.orders["german"] == {}  # type: ignore[union-attr]


async def test_hot_seat_hand_off_hides_the_orders_then_reveal_and_steps() -> None:
    """German commits (z, confirmed): the hand-off screen hides the map; the Soviet player sees no German order
    (summary, unit panel, log); the Soviet commit reveals both sides' orders, then step N of 12 one at a time."""
    app = make_app(p1())
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        screen = table(app)
        app.session.client("german").apply("march ger-2-pz2 0305 0405")  # type: ignore[union-attr]
        screen.refresh_view()
        await pilot.press("z")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        assert "march ger-2-pz2 0305 0405" in screen_text(app)
        await pilot.press("enter")
        await settle(pilot, app)
        assert isinstance(app.screen, HandoffScreen)
        assert "ger-2-pz2" not in screen_text(app) and "0305" not in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert "march" not in screen_text(app)
        await pilot.press("enter")
        await settle(pilot, app)
        assert app.screen is screen and screen.client.side == "soviet"
        written = screen.log_widget.lines_written
        shown = written[max(i for i, line in enumerate(written) if "Soviet view" in line) :]  # after the reload
        assert "german has given its orders" in "\n".join(shown)
        assert "march ger-2-pz2" not in "\n".join(shown)
        await goto(app, pilot, "0205")
        panel = screen.query_one("#unit", UnitPanel).text
        assert "ger-2-pz2" in panel and "march ger-2-pz2" not in panel and "order " not in panel
        await pilot.press("g")
        await pilot.pause()
        assert "ger-2-pz2" not in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        app.session.client("soviet").apply("defend sov-23-inf 1004 2")  # type: ignore[union-attr]
        screen.refresh_view()
        await pilot.press("z")
        await pilot.pause()
        await pilot.press("enter")
        await settle(pilot, app)
        ex = app.screen
        assert isinstance(ex, ExecutionScreen)
        assert "orders revealed" in ex.text
        assert "german order: march Pz II #2 0305 0405" in ex.text, "units named as in the log (issue 18 item 6)"
        assert "soviet order: defend rifles #23 1004 2" in ex.text
        await pilot.press("enter")
        await pilot.pause()
        assert "step 1 of 12" in ex.text and "Defend" in ex.text and "rifles #23 defends" in ex.text
        first = ex.report.steps[0][0]
        assert ex.text.count(first) == 1, ex.text  # the current step's name once, not in the heading too
        await pilot.press("e")
        await pilot.pause()
        assert "step 12 of 12" in ex.text and "Pz II #2 moves to 0405" in ex.text
        assert ex.text.count(ex.report.steps[-1][0]) == 1, ex.text
        await pilot.press("enter")
        await settle(pilot, app)
        # Round 2: the German player takes the seat behind the hand-off, then sees the round carried out too.
        assert isinstance(app.screen, HandoffScreen)
        await pilot.press("enter", "enter")
        await settle(pilot, app)
        assert isinstance(app.screen, ExecutionScreen)
        await pilot.press("escape")
        await settle(pilot, app)
        assert app.screen is screen and screen.client.side == "german"
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, ExecutionScreen)


async def test_help_lists_the_order_keys() -> None:
    app = make_app(p1())
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        console = Console(file=io.StringIO(), width=160)
        console.print(app.screen.table)
        text = console.file.getvalue()  # type: ignore[attr-defined]
        for part in (
            "give the order along the plotted path",
            "take the last hex of the plotted path back",
            "the orders you have given this round",
            "commit: your orders are written",
            "take back the selected unit's order",
            "step by step",
        ):
            assert part in text, part


async def help_text(app: PlanspielApp, pilot: object) -> str:
    """Press ? on the screen on top; return the keys it lists, and close the help again."""
    await pilot.press("question_mark")  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]
    assert isinstance(app.screen, HelpScreen), app.screen_stack
    console = Console(file=io.StringIO(), width=160)
    console.print(app.screen.table)
    await pilot.press("escape")  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]
    return console.file.getvalue()  # type: ignore[attr-defined]


async def test_question_mark_shows_the_keys_on_every_screen_of_the_table() -> None:
    """? on the order list, the orders-given summary, the commit question and the execution steps (modal screens
    hold back the app's own ?): each lists its own keys, then the screen is still there."""
    app = make_app(p1())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await goto(app, pilot, "0205")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceDialog)
        assert "Look at the map" in await help_text(app, pilot)
        assert isinstance(app.screen, ChoiceDialog)
        await pilot.press("1")  # Hold
        await settle(pilot, app)
        await pilot.press("g")
        await pilot.pause()
        assert isinstance(app.screen, OrdersSummaryScreen) and "?: keys" in screen_text(app)
        assert "close the summary" in await help_text(app, pilot)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("z")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        assert "Confirm" in await help_text(app, pilot)
        await pilot.press("enter")
        await settle(pilot, app)
        await pilot.press("enter", "enter")
        await settle(pilot, app)
        app.session.client("soviet").apply("commit")  # type: ignore[union-attr]
        table(app).after_change()
        await settle(pilot, app)
        assert isinstance(app.screen, ExecutionScreen), app.screen_stack
        assert "?: keys" in screen_text(app)
        text = await help_text(app, pilot)
        assert "the next step of the execution" in text and "run to the end of the round" in text
        assert isinstance(app.screen, ExecutionScreen)


async def test_4_11_the_cost_fits_the_status_line_of_an_80_column_terminal() -> None:
    """80×24: the path's cost leads the status line, and the footer shows the keys of the order being written."""
    app = make_app(p1())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        verbs = await order_list(app, pilot, "0205")
        await pilot.press(str(verbs.index("march") + 1))
        for label in ("0305", "0405", "0505"):
            await goto(app, pilot, label)
            await pilot.press("enter")
        await pilot.pause()
        assert "March for Pz II #2: 3 hexes, cost 3 of 3 + 2 road, 2 left" in screen_text(app)
        footer = screen_text(app).splitlines()[-1]
        assert "y Give order" in footer and "Fire" not in footer, footer  # the entry's keys, not the others
        await pilot.press("z")  # no commit in the middle of a path
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and table(app).entry is not None
        await pilot.press("y")
        await settle(pilot, app)
        footer = screen_text(app).splitlines()[-1]
        assert table(app).entry is None and "z Commit" in footer, footer


async def test_tiny_terminal_gets_the_clear_message() -> None:
    app = make_app(p1())
    async with app.run_test(size=(70, 20)) as pilot:
        await pilot.pause(0.1)
        assert isinstance(app.screen, TooSmallScreen), app.screen_stack
        assert "at least 80×24" in screen_text(app)


async def test_against_the_ai_the_round_is_shown_after_the_commit() -> None:
    """German human, Soviet AI (random): the commit needs no hand-off; the AI plans from its own view; then the
    German player is shown the reveal and the steps."""
    app = make_app(p1(soviet="ai:random"))
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        screen = table(app)
        app.session.client("german").apply("hold ger-2-pz2")  # type: ignore[union-attr]
        screen.refresh_view()
        await pilot.press("z", "enter")
        for _ in range(40):
            await settle(pilot, app)
            if isinstance(app.screen, ExecutionScreen):
                break
        assert isinstance(app.screen, ExecutionScreen), app.screen_stack
        assert "german order: hold Pz II #2" in app.screen.text
        assert not any(isinstance(s, HandoffScreen) for s in app.screen_stack)


async def give_by_keys(app: PlanspielApp, pilot: object, side: str, action: object) -> None:
    """Give ``action`` the way a player does: Enter on the unit, its order from the list, then each argument
    on the map (Enter on the hex), from a list, or hex by hex along the path, and y."""
    screen = table(app)
    verb, args = action.verb, list(action.args)  # type: ignore[attr-defined]
    unit = screen.now.view.units[args[0]]
    await goto(app, pilot, screen.info.board.label(unit.hex))
    await pilot.press("enter")  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]
    if isinstance(app.screen, ChoiceDialog) and app.screen.title_text == "Which unit?":
        values = [v for v, _ in app.screen.items]
        await pilot.press(str(values.index(args[0]) + 1))  # type: ignore[attr-defined]
        await pilot.pause()  # type: ignore[attr-defined]
    assert isinstance(app.screen, ChoiceDialog), app.screen_stack
    verbs = [v for v, _ in app.screen.items]
    if verbs.index(verb) < 9:
        await pilot.press(str(verbs.index(verb) + 1))  # type: ignore[attr-defined]
    else:
        app.screen.dismiss(verb)
    await pilot.pause()  # type: ignore[attr-defined]
    for value in args[1:]:
        e = screen.entry
        if e is None:
            break
        if isinstance(app.screen, ChoiceDialog):
            app.screen.dismiss(value)
        elif e.path is not None or e.targets:
            h = screen.mode_now._arg_hex(value)  # type: ignore[attr-defined]
            assert h is not None
            await goto(app, pilot, screen.info.board.label(h))
            await pilot.press("enter")  # type: ignore[attr-defined]
        await pilot.pause()  # type: ignore[attr-defined]
        e = screen.entry or e  # the entry as it is now (an entry is replaced, never changed in place)
        if isinstance(app.screen, ChoiceDialog) and e.targets == {} and e.path is None:
            continue
        if isinstance(app.screen, ChoiceDialog) and value not in [v for v, _ in app.screen.items]:
            raise AssertionError(f"{value} not offered for {action}")
        if isinstance(app.screen, ChoiceDialog) and e.path is None and value in e.targets.get(h, []):
            app.screen.dismiss(value)
            await pilot.pause()  # type: ignore[attr-defined]
    if screen.entry is not None and screen.entry.path:
        await pilot.press("y")  # type: ignore[attr-defined]
        await pilot.pause()  # type: ignore[attr-defined]
    if isinstance(app.screen, ConfirmDialog):  # a shot: its odds first
        await pilot.press("enter")  # type: ignore[attr-defined]
        await pilot.pause()  # type: ignore[attr-defined]


async def _every_verb(scenario: str, side: str, expected: set[str]) -> None:
    app = make_app(Start("new", "art_of_tactic", scenario, HOT, 7))
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        session = app.session
        assert session is not None
        if side == "soviet":
            session.client("german").apply("commit")
            table(app).after_change()
            await settle(pilot, app)
            while not isinstance(app.screen, GameScreen) or table(app).client.side != side:
                await pilot.press("enter")
                await settle(pilot, app)
        screen = table(app)
        screen.refresh_view()
        client = session.client(side)
        done: set[str] = set()
        while True:
            sheet = client.view().data.orders[side]
            todo = [
                a
                for a in client.legal_actions()
                if a.verb not in done and a.verb not in ("commit", "cancel") and a.args[0] not in sheet
            ]
            if not todo:
                break
            # the rarest verb first: a unit's only chance at it is not spent on a common order
            counts = {v: sum(1 for a in todo if a.verb == v) for v in {a.verb for a in todo}}
            action = min(todo, key=lambda a: counts[a.verb])
            done.add(action.verb)
            await give_by_keys(app, pilot, side, action)
            await settle(pilot, app)
            order = client.view().data.orders[side].get(action.args[0])
            given = order.notation if order is not None else None
            assert given == str(action), (str(action), given, screen.log_widget.lines_written[-3:])
        assert expected <= done, sorted(done)


async def test_every_order_of_o4_soviet_can_be_given_by_keys() -> None:
    """Assault (target, then the path), fire and suppress (target on the map), fire at location, hold: the
    rarest orders first, one unit each, by keys only."""
    await _every_verb("o4-brueckenkopf", "soviet", {"assault", "fire", "location", "suppress", "hold"})


async def test_every_order_of_o5_german_can_be_given_by_keys() -> None:
    """Fire on the move (target, firing hex, then the path), mines (the kind from a list), fire, entrench."""
    await _every_verb("o5-hoehe-112", "german", {"firemove", "mines", "fire", "entrench"})


def test_presenter_shows_time_boxes_left_of_an_order_in_progress() -> None:
    """2.7: a unit whose time-box order goes on shows it, with the boxes left, as its order and as a marker."""
    import engine  # noqa: PLC0415
    from engine.rulesets.art_of_tactic.records import Ongoing  # noqa: PLC0415
    from tui.client import LocalClient  # noqa: PLC0415

    g = engine.new_game(engine.load_scenario("art_of_tactic", "p1-grenzgefecht"), seed=7)
    engine.take_scenario_setup(g)
    client = LocalClient(g, "german")
    pr = engine.get_ruleset(client.info.ruleset).presentation(client.info)
    view = client.view()
    unit = view.units["ger-6-mg"]
    unit.status.ongoing = Ongoing("withdraw", 1, 2)
    assert pr.unit_order(view, unit) == "none: continues its withdraw, 1 time box(es) left (2.7)"
    assert any("1 of 2 time boxes" in m.text for m in pr.unit_markers(unit))
    assert pr.unit_glyph(unit) == "M" and pr.unit_glyph(view.units["ger-2-pz2"]) == "T"
    assert pr.unit_order(view, view.units["sov-23-inf"]) is None  # the enemy's orders are never shown


def test_presenter_shows_a_concealed_enemy_hq_as_an_unidentified_unit() -> None:
    """9.11, 15.1: the enemy HQ's counter stands in its hex with no size, card or values, only "unidentified"."""
    import engine  # noqa: PLC0415
    from tui.client import LocalClient  # noqa: PLC0415

    g = engine.new_game(engine.load_scenario("art_of_tactic", "p1-grenzgefecht"), seed=7)
    engine.take_scenario_setup(g)
    client = LocalClient(g, "german")
    pr = engine.get_ruleset(client.info.ruleset).presentation(client.info)
    unit = client.view().units["soviet-unidentified-1"]
    assert pr.unit_label(unit) == "S?·"
    assert pr.unit_facts(unit) == [("card", "unidentified unit: not known until found (9.11)")]
    assert [m.text for m in pr.unit_markers(unit)] == ["unidentified: cannot be targeted until found (9.11)"]
    own = LocalClient(g, "soviet").view().units["sov-21-hq"]
    assert pr.unit_label(own) == "SH2" and "HQ concealed (9.11)" in [m.text for m in pr.unit_markers(own)]


async def test_the_second_player_at_80_columns_reads_whose_seat_it_is() -> None:
    """Hot seat at 80×24: after the German commit the Soviet status line still ends in "you: Soviet"."""
    app = make_app(p1())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("z", "enter")
        await settle(pilot, app)
        await pilot.press("enter", "enter")
        await settle(pilot, app)
        assert table(app).client.side == "soviet"
        first = screen_text(app).splitlines()[0]
        assert "committed: German" in first and "you: Soviet" in first, first


def test_4_11_cost_text_in_the_digests_words() -> None:
    """The engine's PathCost in words: left, over, the road bonus (4.3), one hex always allowed (4.11 item 4)."""
    from engine.rulesets.art_of_tactic.movement import PathCost  # noqa: PLC0415
    from engine.rulesets.art_of_tactic.presentation import cost_text  # noqa: PLC0415

    assert cost_text("move", PathCost(2, 3, 4)) == "cost 3 of movement range 4, 1 left"
    assert cost_text("march", PathCost(5, 5, 3, 2), short=True) == "cost 5 of 3 + 2 road, 0 left"
    assert cost_text("assault", PathCost(2, 2, 2)) == "cost 2 of assault distance 2, 0 left"
    single = cost_text("move", PathCost(1, 2, 1), short=True)
    assert single == "cost 2 of 1, one hex is always allowed"
    assert cost_text("move", PathCost(2, 3, 1, 0, "too far (rule 4.11)")) == "cost 3 of movement range 1, 2 over"


async def test_4_11_item_7_the_assault_route_costs_the_hexes_before_the_target() -> None:
    """O-4, the Soviet T-26 (assault distance 2): the route's hexes count, a third is refused (4.11), and the step
    into the target's hex is named apart as the assault step; the summary says the same."""
    app = make_app(Start("new", "art_of_tactic", "o4-brueckenkopf", HOT, 7))
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, app)
        app.session.client("german").apply("commit")  # type: ignore[union-attr]
        table(app).after_change()
        await settle(pilot, app)
        while not isinstance(app.screen, GameScreen) or table(app).client.side != "soviet":
            await pilot.press("enter")
            await settle(pilot, app)
        screen = table(app)
        verbs = await order_list(app, pilot, "1005")
        await pilot.press(str(verbs.index("assault") + 1))
        await pilot.pause()
        await goto(app, pilot, "0705")  # the target: ger-4-pio
        await pilot.press("enter")
        await pilot.pause()
        for label in ("0906", "0805", "0806"):
            await goto(app, pilot, label)
            await pilot.press("enter")
        await pilot.pause()
        assert "0806 not added to sov-24-t26's path" in screen.log_widget.lines_written[-1]
        assert "(rule 4.11)" in screen.log_widget.lines_written[-1]
        status = screen.query_one("#status").text  # type: ignore[attr-defined]
        assert "2 hexes, cost 2 of 2, 0 left · path 0906 0805 · not legal as plotted" in status
        assert "rule 3.10" in status
        await goto(app, pilot, "0705")
        await pilot.press("enter")
        await pilot.pause()
        assert "2 hexes + assault, cost 2 of 2, 0 left · path 0906 0805 0705 · legal as plotted" in (
            screen.query_one("#status").text  # type: ignore[attr-defined]
        )
        await pilot.press("y")
        await settle(pilot, app)
        await pilot.press("g")
        await pilot.pause()
        assert "(2 hexes + the assault step, cost 2 of assault distance 2, 0 left)" in " ".join(
            screen_text(app).replace("█", " ").split()
        )


async def test_4_11_the_choices_list_shows_each_paths_cost() -> None:
    """o lists every decision; the Pz II's 18 March paths (a group of its own) are then listed one by one, each
    with the engine's cost against its range."""
    app = make_app(p1())
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        await pilot.press("o")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ChoiceDialog)
        group = next(v for v, label in dialog.items if label.plain.startswith("march ger-2-pz2"))  # type: ignore[union-attr]
        dialog.dismiss(group)
        await pilot.pause()
        assert isinstance(app.screen, ChoiceDialog)
        labels = {str(v): label.plain for v, label in app.screen.items}  # type: ignore[union-attr]
        along = labels["march ger-2-pz2 0305 0405 0505 0605 0705"]
        assert "(March: 5 hexes, cost 5 of movement range 3 + 2 road bonus, 0 left)" in along


def test_11_2_score_counts_the_victory_hexes_held_not_every_hex_ever_entered() -> None:
    """11.2: the score chart counts the scenario's victory hexes each side controls (P-1 names them)."""
    import engine  # noqa: PLC0415
    from tui.client import LocalClient  # noqa: PLC0415

    g = engine.new_game(engine.load_scenario("art_of_tactic", "p1-grenzgefecht"), seed=7)
    engine.take_scenario_setup(g)
    view = LocalClient(g, "german").view()
    objectives = list(view.data.victory.hexes)
    b = view.board
    view.data.control = {objectives[0]: "german", b.parse("0101"): "german", b.parse("0102"): "soviet"}  # off them
    info = LocalClient(g, "german").info
    pr = engine.get_ruleset(info.ruleset).presentation(info)
    assert pr.score(view) == {"german": 1, "soviet": 0}
    assert pr.score_label(view) == "victory hexes held"


async def test_v_says_clear_once_in_the_engines_words() -> None:
    """The LOS line reads "LOS from 0305: clear", not "clear: clear" (the verdict is the engine's reason, 5.4)."""
    from engine.hexgrid import distance  # noqa: PLC0415

    app = make_app(p1())
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        screen = table(app)
        unit = next(u for u in screen.now.view.units.values() if u.side == "german" and u.hex is not None)
        assert unit.hex is not None
        screen.select_unit(unit.id)
        board = screen.now.view.board
        src = board.label(unit.hex)
        far = [h for h in board.cells if distance(h, unit.hex) >= 2]
        seen = next(h for h in far if screen.client.line_of_sight(src, board.label(h)).visible)
        await goto(app, pilot, board.label(seen))
        await pilot.press("v")
        await pilot.pause()
        line = next(x for x in screen.notes if x.startswith("LOS from"))
        assert line.startswith(f"LOS from {src}: clear"), line
        assert "clear: clear" not in line, line


async def _assaults_on_sov_23_inf(app: PlanspielApp, pilot: object) -> GameScreen:
    """P-1 hot seat, the board changed for the test: ger-5-inf (1003) and ger-2-pz2 (1103) both assault sov-23-inf
    at 1104; the German player commits and hands the seat to the Soviet player."""
    await settle(pilot, app)
    screen = table(app)
    game = app.session.game  # type: ignore[union-attr]
    board = game.board
    game.state.units["ger-5-inf"].hex = board.parse("1003")
    game.state.units["ger-2-pz2"].hex = board.parse("1103")
    game._views = {}
    german = app.session.client("german")  # type: ignore[union-attr]
    german.apply("assault ger-5-inf sov-23-inf 1104")
    german.apply("assault ger-2-pz2 sov-23-inf 1104")
    screen.refresh_view()
    await pilot.press("z", "enter")  # type: ignore[attr-defined]
    await settle(pilot, app)
    await pilot.press("enter", "enter")  # type: ignore[attr-defined]
    await settle(pilot, app)
    assert app.screen is screen and screen.client.side == "soviet"
    return screen


async def test_15_2_the_deciding_side_is_asked_on_the_shared_execution_screen() -> None:
    """P switches the Soviet side to deciding during execution (secret, shown in its status); after the commit
    the steps run to the close combat, then the question names the Soviet side and its options (1 the preset);
    2 picks the second assaulter, and the execution goes on from that step with no hand-off."""
    app = make_app(p1())
    async with app.run_test(size=(160, 48)) as pilot:
        screen = await _assaults_on_sov_23_inf(app, pilot)
        await pilot.press("P")
        await settle(pilot, app)
        assert app.session.client("soviet").view().data.ask == ["soviet"]  # type: ignore[union-attr]
        assert app.session.client("german").view().data.ask == []  # type: ignore[union-attr]
        assert "you decide in execution" in screen.query_one("#status").text  # type: ignore[attr-defined]
        await pilot.press("z", "enter")
        await settle(pilot, app)
        ex = app.screen
        assert isinstance(ex, ExecutionScreen) and ex.decision is not None
        await pilot.press("e")
        await pilot.pause()
        assert "SOVIET decides (rule 7.4, 15.2): rifles #23 defends in close combat at 1104" in ex.text
        assert "1  Pz II #2" in ex.text and "(preset)" in ex.text and "2  infantry #5" in ex.text
        assert "1–2: choose" in str(ex.query_one("#exec-help", Static).render())
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen) and "choose option 1" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is ex
        await pilot.press("2")
        await settle(pilot, app)
        more = app.screen
        assert isinstance(more, ExecutionScreen) and more is not ex
        assert "soviet chooses: infantry #5" in more.text
        assert "close combat: rifles #23 at infantry #5" in more.text
        assert more.stage >= 6, "shown on from the step where it paused"
        assert screen.client.side == "soviet", "no hand-off: the decision is public (15.2)"
        titles = [c.title for c in app.get_system_commands(screen)]
        assert "Decide during execution" in titles, "the switch is in the command palette too"


async def test_15_2_enter_takes_the_preset_and_escape_leaves_the_question_for_r() -> None:
    app = make_app(p1())
    async with app.run_test(size=(160, 48)) as pilot:
        screen = await _assaults_on_sov_23_inf(app, pilot)
        app.session.client("soviet").apply("prompts on")  # type: ignore[union-attr]
        screen.refresh_view()
        await pilot.press("z", "enter")
        await settle(pilot, app)
        await pilot.press("e", "escape")
        await settle(pilot, app)
        assert app.screen is screen, "the table, the decision waiting"
        assert "r shows it" in screen.query_one("#status").text  # type: ignore[attr-defined]
        await pilot.press("r")
        await settle(pilot, app)
        ex = app.screen
        assert isinstance(ex, ExecutionScreen) and "SOVIET decides" in ex.text
        await pilot.press("enter")
        await settle(pilot, app)
        assert "soviet chooses: Pz II #2" in app.screen.text  # type: ignore[attr-defined]


def test_15_2_a_choose_action_is_worded_as_the_question_words_its_option() -> None:
    """In a choices list (o) an answer reads as the question's option, not only as its notation."""
    import engine  # noqa: PLC0415
    from engine.actions import Action  # noqa: PLC0415
    from engine.rulesets.art_of_tactic.frames import Cursor, Decision  # noqa: PLC0415
    from tui.client import LocalClient  # noqa: PLC0415

    g = engine.new_game(engine.load_scenario("art_of_tactic", "p1-grenzgefecht"), seed=7)
    engine.take_scenario_setup(g)
    client = LocalClient(g, "german")
    pr = engine.get_ruleset(client.info.ruleset).presentation(client.info)
    view = client.view()
    options = [("ger-5-inf", "ger-5-inf (DE-INF, size 5)")]
    view.data.execution = Cursor(step=10, pending=Decision("german", "defend", "?", "3.6", options))
    assert pr.action_note(view, Action("choose", ("ger-5-inf",))) == "ger-5-inf (DE-INF, size 5)"
    assert pr.action_note(view, Action("choose", ("ger-4-inf",))) == ""


async def test_15_2_the_other_sides_decision_is_asked_without_changing_seats() -> None:
    """The German side asks; its Defend unit at 0805 sees two Soviet movers enter its zone at once while the Soviet
    player is on screen (the last to commit): the question names the German side, 2 answers it for the German
    side, and the table stays the Soviet player's (15.2: public, no hand-off)."""
    app = make_app(p1())
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        screen = table(app)
        game = app.session.game  # type: ignore[union-attr]
        for uid, label in (("ger-5-inf", "0805"), ("sov-23-inf", "0903"), ("sov-24-inf", "1106")):
            game.state.units[uid].hex = game.board.parse(label)
        game._views = {}
        german = app.session.client("german")  # type: ignore[union-attr]
        german.apply("prompts on")
        german.apply("defend ger-5-inf 0905 2")
        screen.refresh_view()
        await pilot.press("z", "enter")
        await settle(pilot, app)
        await pilot.press("enter", "enter")
        await settle(pilot, app)
        assert screen.client.side == "soviet"
        soviet = app.session.client("soviet")  # type: ignore[union-attr]
        soviet.apply("move sov-23-inf 0904")
        soviet.apply("move sov-24-inf 1005")
        screen.refresh_view()
        await pilot.press("z", "enter")
        await settle(pilot, app)
        ex = app.screen
        assert isinstance(ex, ExecutionScreen)
        await pilot.press("e")
        await pilot.pause()
        assert "GERMAN decides (rule 3.6, 15.2): infantry #5 on Defend at 0805 fires once" in ex.text
        await pilot.press("2")
        await settle(pilot, app)
        assert "german chooses: rifles #24" in app.screen.text  # type: ignore[attr-defined]
        assert "defend fire: infantry #5 at rifles #24" in app.screen.text  # type: ignore[attr-defined]
        assert screen.client.side == "soviet" and not isinstance(app.screen, HandoffScreen)


def test_15_2_the_question_shows_even_without_the_rounds_log() -> None:
    from engine.presentation import Report as RoundReport  # noqa: PLC0415

    decision = {"side": "soviet", "rule": "3.6", "question": "sov-inf on Defend at 0505 fires once: at which mover?",
                "options": [["ger-a", "ger-a at 0403 (range 2)"], ["ger-b", "ger-b at 0603 (range 2)"]]}  # fmt: skip
    ex = ExecutionScreen(RoundReport(2, ["(this round's log is not in the game)"], [], []), decision)
    assert "SOVIET decides (rule 3.6, 15.2): sov-inf on Defend at 0505" in ex.text
    assert "1  ger-a at 0403 (range 2)  (preset)" in ex.text and "2  ger-b at 0603 (range 2)" in ex.text
