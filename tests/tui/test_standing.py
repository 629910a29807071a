"""Issue 18 item 1: standing reaction orders. A reaction window that no unit of the side would use (by its orders)
passes by itself and the log says so; a reaction with a real chance is never skipped without the player's order."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import engine
from engine import Role, Waiting
from tui.choices import Words
from tui.client import LocalClient
from tui.overlay import effect_chance
from tui.screens.dialogs import ChoiceDialog
from tui.screens.handoff import HandoffScreen
from tui.session import Session
from tui.settings import Settings
from tui.standing import Standing, decide, note_declined, window_pass

from .conftest import activate_i12, hannut, hannut_position, make_app, play_quietly, settle


def _window(seed: int = 1) -> tuple[engine.Game, LocalClient]:
    """A Hannut position where the French may react to a German move (6.3.4), found by a seeded random game."""
    game = engine.new_game(engine.load_scenario("blitzkrieg1940", "hannut"), seed=seed)
    engine.take_scenario_setup(game)
    rng = random.Random(seed)
    for _ in range(400):
        client = LocalClient(game, game.to_act) if game.to_act else None
        if client is not None:
            legal = tuple((a, client.action_info(a)) for a in client.legal_actions())
            attacks = [a for a, i in legal if i.has(Role.REACT) and i.has(Role.ATTACK)]
            if window_pass(legal) is not None and attacks:
                return game, client
        game.apply(rng.choice(game.legal_actions()))
    raise AssertionError("no window with an attack in 400 actions")


def _legal(client: LocalClient) -> tuple:  # type: ignore[type-arg]
    return tuple((a, client.action_info(a)) for a in client.legal_actions())


def test_a_window_is_a_decision_of_reactions_and_one_pass() -> None:
    _, client = _window()
    legal = _legal(client)
    passing = window_pass(legal)
    assert passing is not None and client.action_info(passing).has(Role.PASS)
    game2 = engine.new_game(engine.load_scenario("blitzkrieg1940", "hannut"), seed=1)
    assert window_pass(_legal(LocalClient(game2, game2.to_act))) is None, "the set-up is no window"


def test_worth_asks_when_an_attack_reaches_the_threshold_and_passes_below_it() -> None:
    _, client = _window()
    legal = _legal(client)
    side, view = client.side, client.view()
    chances = [effect_chance(o) for a, i in legal if i.has(Role.ATTACK) and (o := client.odds(a)) is not None]
    best = max(chances)
    assert best > 0
    asked = decide(Standing("worth", best), view, side, legal, client.odds)
    assert asked.action is None, "a reaction at the threshold is asked"
    above = decide(Standing("worth", min(1.0, best + 0.01)), view, side, legal, client.odds)
    if above.action is not None:
        assert above.action == window_pass(legal)
        assert "lets it pass (no reaction with" in above.line
    else:
        # Something else is worth asking about: a retreat with an enemy next to the unit.
        assert any(i.has(Role.RETREAT) for _, i in legal)


def test_never_passes_and_ask_asks_and_a_unit_may_differ() -> None:
    _, client = _window()
    legal = _legal(client)
    side, view = client.side, client.view()
    never = decide(Standing("never"), view, side, legal, client.odds)
    assert never.action == window_pass(legal) and "never react" in never.line
    assert decide(Standing("ask"), view, side, legal, client.odds).action is None
    unit = next(i.unit for _, i in legal if i.has(Role.ATTACK))
    assert unit is not None
    assert decide(Standing("never", units={unit: "ask"}), view, side, legal, client.odds).action is None


def test_react_plays_the_best_attack_but_never_a_retreat() -> None:
    _, client = _window()
    legal = _legal(client)
    side, view = client.side, client.view()
    no_retreats = {i.unit: "never" for _, i in legal if i.has(Role.RETREAT) and i.unit}
    verdict = decide(Standing("auto", 0.0, units=no_retreats), view, side, legal, client.odds)
    assert verdict.action is not None and client.action_info(verdict.action).has(Role.ATTACK)
    best = max(effect_chance(o) for a, i in legal if i.has(Role.ATTACK) and (o := client.odds(a)) is not None)
    assert effect_chance(client.odds(verdict.action)) == pytest.approx(best)  # type: ignore[arg-type]
    assert "standing orders react" in verdict.line


async def test_a_window_no_unit_would_use_passes_by_itself_in_the_tui() -> None:
    """Hot-seat Hannut with the French set to never react: a German move's window passes by itself (the French
    are not asked, the log says so); with ask, the French are asked."""
    app = make_app(hannut(), handoff="never")
    async with app.run_test(size=(160, 48)) as pilot:
        screen = await activate_i12(app, pilot)
        session = app.session
        assert session is not None
        screen.standing_of("french").order = "never"
        game = session.game
        move = next(a for a in session.client("german").legal_actions() if a.verb == "move")
        screen.play(move)
        await settle(pilot, app)
        assert game.to_act == "german", "the French window passed by itself"
        assert game.history[-1].verb == "close" and game.history[-2] == move
        # The same with ask: the French are asked at the unit's next step.
        screen.standing_of("french").order = "ask"
        step = next(
            a for a in session.client("german").legal_actions() if a.verb == "move" and a.args[0] == move.args[0]
        )
        screen.play(step)
        await settle(pilot, app)
        assert game.history[-1] == step and game.to_act == "french", "asked: the window waits for the French"


@pytest.mark.parametrize(
    ("shown", "chosen", "field", "value"),
    [
        ("• All units: react by themselves with the best reaction of 10 %", "never react", "order", "never"),
        # When retreats are asked about (the default: units the attack hurt) is one of the orders too.
        ("• Retreats: ask for a unit the attack hurt", "any unit just attacked", "retreats", "struck"),
        # And whether a routine choice gets its usual answer by itself (the default) or is asked.
        ("• Routine choices: give the usual answer", "ask every time", "routine", "ask"),
    ],
)
async def test_r_sets_the_standing_orders_of_the_side_on_screen(
    shown: str, chosen: str, field: str, value: str
) -> None:
    app = make_app(hannut(), handoff="never")
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        screen = play_quietly(app, "german", "keep ger-i-12-schr")
        await pilot.press("R")  # type: ignore[attr-defined]
        await settle(pilot, app)
        dialog = app.screen
        assert isinstance(dialog, ChoiceDialog), app.screen_stack
        labels = [str(label) for _, label in dialog.items]
        assert any(label.startswith(shown) for label in labels), labels
        index = next(i for i, label in enumerate(labels) if chosen in label)
        if index < 9:
            await pilot.press(str(index + 1))  # type: ignore[attr-defined]
        else:  # past the digits: down to it, and Enter
            await pilot.press(*["down"] * index, "enter")  # type: ignore[attr-defined]
        await settle(pilot, app)
        assert getattr(screen.standing_of(screen.client.side), field) == value


def test_the_settings_file_gives_the_default_orders(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"reactions": "ask", "reaction_threshold": 0.3}), encoding="utf-8")
    s = Settings.load(path)
    assert (s.reactions, s.reaction_threshold) == ("ask", 0.3)
    path.write_text(json.dumps({"reactions": "sometimes", "reaction_threshold": 7}), encoding="utf-8")
    s = Settings.load(path)
    assert (s.reactions, s.reaction_threshold) == ("auto", 0.10), "bad values: the defaults"


async def test_a_hand_off_switched_on_mid_game_sums_up_since_the_sides_last_decision() -> None:
    """Issue 18 item 9: after a switch to hand-off "always", the summary listed every event since the set-up."""
    app = make_app(hannut(), handoff="never", reactions="ask")
    async with app.run_test(size=(160, 48)) as pilot:
        screen = await activate_i12(app, pilot)
        session = app.session
        assert session is not None
        move = next(a for a in session.client("german").legal_actions() if a.verb == "move")
        screen.play(move)
        await settle(pilot, app)
        assert session.game.to_act == "french" and isinstance(app.screen, ChoiceDialog)
        index = next(i for i, (v, _) in enumerate(app.screen.items) if getattr(v, "verb", "") == "close")
        await pilot.press(str(index + 1))  # type: ignore[attr-defined]
        await settle(pilot, app)
        french_seen = session.client("french").event_count
        app.settings.handoff = "always"
        step = next(
            a for a in session.client("german").legal_actions() if a.verb == "move" and a.args[0] == move.args[0]
        )
        screen.play(step)
        await settle(pilot, app)
        assert isinstance(app.screen, HandoffScreen), app.screen_stack
        since = session.client("french").events_since(french_seen)
        assert app.screen.summary == since, "only what happened since the French closed their last window"
        assert len(since) < french_seen


def test_standing_orders_are_kept_in_the_save(tmp_path: Path) -> None:
    """The player's standing orders, the side's and a unit's own, come back with the game (nothing is lost on a
    resume); orders a save holds that the client does not understand give the defaults."""
    session = Session.new("blitzkrieg1940", "hannut", {"german": "human", "french": "human"}, seed=7)
    session.standing["french"] = Standing("worth", 0.25, units={"fra-12kur-hq": "never"}, retreats="near")
    session.standing["french"].routine = "ask"
    path = session.save(tmp_path / "orders.planspiel")
    again = Session.load(path)
    kept = again.standing["french"]
    got = (kept.order, kept.threshold, kept.retreats, kept.routine, kept.units)
    assert got == ("worth", 0.25, "near", "ask", {"fra-12kur-hq": "never"})
    odd = Standing.from_plain(
        {"order": "sometimes", "threshold": 7, "routine": "x", "units": {"x": "maybe", "y": "ask"}}
    )
    assert (odd.order, odd.threshold, odd.routine, odd.units) == ("auto", 0.10, "usual", {"y": "ask"})


def test_retreats_are_asked_by_default_only_for_a_unit_the_attack_hurt() -> None:
    """Issue 18 item 1: a retreat is worth asking about when the attack left the unit in a bad way (the engine's
    ``Waiting.hurt``); "struck" asks for any unit attacked; a ruleset that does not say who is hurt gets "struck"."""
    _, client = _window()
    side, view = client.side, client.view()
    legal = tuple((a, i) for a, i in _legal(client) if i.has(Role.RETREAT) or window_pass(_legal(client)) == a)
    unit = next(i.unit for _, i in legal if i.has(Role.RETREAT))
    assert unit is not None and window_pass(legal) is not None
    missed = Waiting(side, struck=(unit,), hurt=())
    hurt = Waiting(side, struck=(unit,), hurt=(unit,))
    unsaid = Waiting(side, struck=(unit,))
    assert decide(Standing(), view, side, legal, client.odds, waiting=missed).action == window_pass(legal)
    assert decide(Standing(), view, side, legal, client.odds, waiting=hurt).action is None
    assert decide(Standing(), view, side, legal, client.odds, waiting=unsaid).action is None
    assert decide(Standing(retreats="struck"), view, side, legal, client.odds, waiting=missed).action is None


def test_a_retreat_offer_after_a_close_combat_is_a_window() -> None:
    """9.1.5 / 6.3.3: the voluntary retreats after a close-combat round (retreats and one action to decline them)
    are a reaction window of the standing orders; a forced choice (exchange or retreat) is none."""
    seen = set()
    for seed in range(1, 40):
        game = engine.new_game(engine.load_scenario("blitzkrieg1940", "hannut"), seed=seed)
        engine.take_scenario_setup(game)
        rng = random.Random(seed)
        for _ in range(1500):
            if game.to_act is None:
                break
            client = LocalClient(game, game.to_act)
            legal = _legal(client)
            retreats = [a for a, i in legal if i.has(Role.RETREAT) and not i.has(Role.REACT)]
            if retreats:
                passing = window_pass(legal)
                forced = all(i.has(Role.RETREAT) or i.unit is not None for _, i in legal)
                seen.add("forced" if forced else "voluntary")
                assert (passing is None) == forced, [str(a) for a, _ in legal]
                if passing is not None:
                    w = client.waiting()
                    assert w.struck and set(w.hurt or ()) <= set(w.struck)
            game.apply(rng.choice(game.legal_actions()))
        if seen == {"forced", "voluntary"}:
            return
    raise AssertionError(f"only {seen} close-combat retreats found")


def test_a_chance_let_pass_is_asked_again_only_when_a_better_one_comes() -> None:
    """Issue 18 item 1: once the player lets a window pass, a later window of the turn against the same enemy unit
    is asked only for a better chance (under ``worth``); ``ask`` still asks every time."""
    _, client = _window()
    legal = _legal(client)
    side, view, waiting = client.side, client.view(), client.waiting()
    best = max(effect_chance(o) for a, i in legal if i.has(Role.ATTACK) and (o := client.odds(a)) is not None)
    standing = Standing("worth", threshold=best)
    assert decide(standing, view, side, legal, client.odds, waiting=waiting).action is None, "worth asking"
    note_declined(standing, view, side, legal, client.odds, waiting)
    assert standing.declined and all(key[1] == waiting.react_to for key in standing.declined)
    again = decide(standing, view, side, legal, client.odds, waiting=waiting)
    assert again.action == window_pass(legal) and "no better chance than one you let pass" in again.line
    assert decide(Standing("ask", declined=dict(standing.declined)), view, side, legal, client.odds).action is None
    # A better chance than the one let pass is asked again.
    standing.declined = {key: value - 0.01 for key, value in standing.declined.items()}
    assert decide(standing, view, side, legal, client.odds, waiting=waiting).action is None
    assert "declined" not in Standing().to_plain(), "not saved"


async def test_the_player_letting_a_window_pass_is_remembered_by_the_table() -> None:
    app = make_app(hannut(), handoff="never", reactions="worth")
    async with app.run_test(size=(160, 48)) as pilot:
        screen = await activate_i12(app, pilot)
        session = app.session
        assert session is not None
        game = session.game
        screen.standing_of("french").threshold = 0.01
        move = next(a for a in session.client("german").legal_actions() if a.verb == "move")
        screen.play(move)
        await settle(pilot, app)
        assert game.to_act == "french", "this opening: the French are asked (a reaction worth it)"
        assert not screen.standing_of("french").declined
        close = next(a for a in game.legal_actions() if screen.client.action_info(a).has(Role.PASS))
        app.pop_screen()  # the French list of reactions; the player chooses "no reaction" as from it
        await settle(pilot, app)
        screen.play(close)
        await settle(pilot, app)
        assert game.history[-1] == close
        assert screen.standing_of("french").declined, "the chances let pass are remembered"


def test_the_default_orders_fire_the_best_reaction_by_themselves() -> None:
    """Issue 18 item 1: by default (``auto``, 10 %) a window with an attack of a real chance is answered by the
    best one, which the log line names with its chance; a window whose only use is a retreat is still asked."""
    _, client = _window()
    legal = _legal(client)
    side, view, waiting = client.side, client.view(), client.waiting()
    chances = {a: effect_chance(o) for a, i in legal if i.has(Role.ATTACK) and (o := client.odds(a)) is not None}
    best = max(chances.values())
    assert Standing().order == "auto" and Settings().reactions == "auto"
    got = decide(Standing(threshold=best), view, side, legal, client.odds, waiting=waiting)
    retreat_asked = got.action is None and any(i.has(Role.RETREAT) for _, i in legal)
    assert retreat_asked or (got.action in chances and chances[got.action] == best), got
    if got.action is not None:
        assert "standing orders react" in got.line and f"{best:.0%}" in got.line
    attacks_only = tuple((a, i) for a, i in legal if not i.has(Role.RETREAT))
    fired = decide(Standing(threshold=best), view, side, attacks_only, client.odds, waiting=waiting)
    assert fired.action is not None and chances.get(fired.action) == best
    # Above every chance offered, the window passes by itself.
    above = decide(Standing(threshold=min(1.0, best + 0.01)), view, side, attacks_only, client.odds)
    assert above.action == window_pass(attacks_only)


def _n_choice() -> LocalClient:
    """A Hannut position where a unit's owner keeps an N result or takes a step loss instead (8.3)."""
    return hannut_position(lambda c: c.waiting().usual is not None, range(1, 30), 600)


def test_a_routine_choice_gets_its_usual_answer_unless_the_player_says_ask() -> None:
    """Issue 18 item 1: the ruleset names the usual answer (``Waiting.usual``: keep the N, 8.3); the standing
    orders give it by themselves and the log line says so, or ask with ``routine = "ask"``."""
    client = _n_choice()
    legal = _legal(client)
    side, view, waiting = client.side, client.view(), client.waiting()
    assert waiting.usual in [a for a, _ in legal] and window_pass(legal) is None
    got = decide(Standing(), view, side, legal, client.odds, {side: "Them"}, waiting, lambda a: f"<{a}>")
    assert got.action == waiting.usual
    assert got.line == f"Them's standing orders: <{waiting.usual}>; the usual choice (R changes it)"
    asking = Standing()
    asking.routine = "ask"
    assert decide(asking, view, side, legal, client.odds, waiting=waiting).action is None
    assert decide(Standing(), view, side, legal, client.odds, waiting=None).action is None, "none named: asked"


def test_letting_the_moment_pass_comes_first_in_every_reaction_window() -> None:
    """Issue 18 item 1: ``1`` lets any window pass (a short list used to put it last, after the reactions)."""
    for seed in range(1, 6):
        _, client = _window(seed)
        legal = client.legal_actions()
        passing = window_pass(_legal(client))
        presenter = engine.get_ruleset("blitzkrieg1940").presentation(client.info)
        words = Words(client, presenter, client.info, client.view(), client.action_info)
        items = words.items(legal)
        assert items[0][0] == passing, [str(v) for v, _ in items]
        if legal[0] != passing:
            return  # a window the engine lists with the pass behind the reactions: it comes first all the same
    raise AssertionError("no window found that lists its pass after a reaction")
