"""The overlays, the map's contents and the order being written, as pure functions of the screen's state and the
answers of the side's queries: tested without Textual (a test checks that these modules import none)."""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction

import engine
from engine import Action, GameState, Hex, LosResult, Odds, OddsEntry
from engine.presentation import Presentation
from tui.client import LocalClient
from tui.entry import Entry, drawn, note
from tui.marks import HexContent, Overlay
from tui.overlay import Answers, Scene, draw, hex_content


def test_the_pure_modules_import_no_textual() -> None:
    code = (
        "import sys\n"
        "import tui.overlay, tui.entry, tui.marks, tui.choices, tui.table, tui.modes\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'textual'))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def _duel() -> tuple[engine.Game, Presentation]:
    game = engine.new_game(engine.load_scenario("minirules", "duel"), seed=7)
    return game, engine.get_ruleset("minirules").presentation(LocalClient(game, "red").info)


def _scene(game: engine.Game, pr: Presentation, **kw: object) -> Scene:
    legal = tuple((a, game.action_info(a)) for a in game.legal_actions())
    return Scene(board=game.board, view=game.view("red"), presenter=pr, side="red", legal=legal, **kw)  # type: ignore[arg-type]


def H(game: engine.Game, label: str) -> Hex:
    return game.board.parse(label)


def test_the_selected_unit_shows_its_reach_its_next_steps_and_its_targets_with_odds() -> None:
    game, pr = _duel()
    tank = H(game, "0104")
    shot = Action("fire", ("red-tank-1", "blue-tank-1"))
    scene = _scene(game, pr, selected="red-tank-1", cursor=tank)
    odds = Odds(shot, (OddsEntry("hit", Fraction(2, 3), 1.0), OddsEntry("miss", Fraction(1, 3), 0.0)))
    out = draw(scene, Answers(reach={"0104": 0.0, "0203": 1.0, "0303": 2.0}, odds={shot: odds}))
    assert out.overlay[tank] == Overlay("select")
    assert out.overlay[H(game, "0303")] == Overlay("reach", "2")  # reachable, not a first step: its cost
    assert out.overlay[H(game, "0203")] == Overlay("step", "»1")  # the first hex of a move: » and the cost
    assert out.overlay[H(game, "0105")].text == "»"  # a first step the reach answer did not cost
    assert H(game, "0704") not in out.overlay  # no shot at the blue tank is legal from here: no target mark
    assert out.notes == ()


def test_line_of_sight_is_marked_and_said_in_the_engines_words() -> None:
    game, pr = _duel()
    src, cursor = H(game, "0104"), H(game, "0704")
    los = game.line_of_sight("0104", "0704")
    scene = _scene(game, pr, selected="red-tank-1", cursor=cursor, los_on=True)
    out = draw(scene, Answers(los=los))
    assert los.blocker is not None and out.overlay[los.blocker] == Overlay("block", "✗")
    assert any(o == Overlay("los", "·") for o in out.overlay.values())
    assert out.notes == ("LOS from 0104: blocked at 0504: blocked by woods at 0504 (rule M2)", "range 6 hexes")
    clear = LosResult(True, (src, cursor), None, "clear", "M2")
    assert draw(scene, Answers(los=clear)).notes[0] == "LOS from 0104: clear (rule M2)"
    off = _scene(game, pr, selected="red-tank-1", cursor=cursor)
    assert draw(off, Answers(los=los)).notes == ()  # v off: the answer is not drawn
    next_door = H(game, "0204")
    near = _scene(game, pr, selected="red-tank-1", cursor=next_door, los_on=True)
    one = LosResult(True, (src, next_door), None, "clear", "M2")
    assert draw(near, Answers(los=one)).notes[1] == "range 1 hex", "issue 18 item 9: not '1 hexes'"


def test_command_ranges_are_drawn_only_on_demand_and_alerts_always() -> None:
    game, pr = _duel()
    hq, near = H(game, "0303"), H(game, "0304")
    marks = {"command": {hq, near}, "hq": {hq}, "barrage": {H(game, "0505")}}
    off = draw(_scene(game, pr, cursor=hq), Answers(marks=marks))
    assert near not in off.overlay and off.overlay[H(game, "0505")] == Overlay("alert", "◎◎◎")
    on = draw(_scene(game, pr, cursor=hq, command_on=True), Answers(marks=marks, subject="red-inf-1"))
    assert on.overlay[near] == Overlay("command", "┆1┆") and on.overlay[hq] == Overlay("command", "[HQ]")
    assert any(n.startswith("┆ within command distance") and "(for red-inf-1)" in n for n in on.notes)
    assert draw(_scene(game, pr, cursor=hq, command_on=True), Answers(marks=None)).notes == ()  # no answer
    # With a unit selected, k's marks show over its movement costs (they hid under them, issue 18 item 9).
    chosen = _scene(game, pr, selected="red-tank-1", cursor=hq, command_on=True)
    drawn = draw(chosen, Answers(reach={"0104": 0.0, "0303": 2.0, "0304": 3.0}, marks=marks))
    assert drawn.overlay[near] == Overlay("command", "┆1┆")


def test_the_hint_marks_its_hexes_and_a_written_path_is_numbered() -> None:
    game, pr = _duel()
    move = Action("move", ("red-inf-1", "0202", "0302"))
    info = game.action_info(move)
    scene = _scene(game, pr, cursor=H(game, "0101"), hint=move)
    out = draw(scene, Answers(hint_text=str(move), hint_info=info))
    assert out.overlay[H(game, "0102")] == Overlay("alert", "HINT")  # the unit's hex, then the hexes it names
    assert out.overlay[H(game, "0302")] == Overlay("alert", "HINT")
    assert out.notes == ("HINT move red-inf-1 0202 0302 (H plays it)",)
    path = (H(game, "0202"), H(game, "0302"))
    numbered = draw(_scene(game, pr, cursor=H(game, "0101")), Answers(given_path=path))
    assert [numbered.overlay[h].text for h in path] == ["1", "2"]


def test_placements_are_marked_only_where_the_mode_places() -> None:
    game, pr = _duel()
    place = Action("move", ("red-inf-1", "0101"))
    view = game.view("red")
    view.units["red-inf-1"].hex = None  # as if it were still to be placed
    info = engine.ActionInfo("move", frozenset({engine.Role.PLACE}), unit="red-inf-1", hexes=(H(game, "0101"),))
    base = {"board": game.board, "view": view, "presenter": pr, "side": "red", "legal": ((place, info),)}
    assert draw(Scene(**base, placing=True), Answers()).overlay == {H(game, "0101"): Overlay("step", "+")}  # type: ignore[arg-type]
    assert draw(Scene(**base), Answers()).overlay == {}  # type: ignore[arg-type]


def test_hex_content_puts_the_selected_unit_on_top_of_its_stack() -> None:
    game, pr = _duel()
    view: GameState = game.view("red")
    view.units["red-inf-1"].hex = H(game, "0104")  # stacked with the tank
    top = hex_content(view, pr, game.board, None)[H(game, "0104")]
    assert top.count == 2 and top.unit is not None and top.unit.label == pr.unit_label(view.units["red-inf-1"])
    chosen = hex_content(view, pr, game.board, "red-tank-1")[H(game, "0104")]
    assert chosen.unit is not None and chosen.unit.label == pr.unit_label(view.units["red-tank-1"])
    assert isinstance(chosen, HexContent) and H(game, "0801") not in hex_content(view, pr, game.board, None)  # empty


def test_an_order_being_written_shows_its_targets_or_its_path() -> None:
    game, pr = _duel()
    info = LocalClient(game, "red").info
    view = game.view("red")
    moves = tuple(a for a in game.legal_actions() if a.verb == "move" and a.args[0] == "red-tank-1")
    plotting = Entry("red-tank-1", "move", moves, path=(H(game, "0204"),))
    out = drawn(plotting, info, pr, view, assault=False)
    assert out.overlay[H(game, "0104")] == Overlay("select") and out.overlay[H(game, "0204")] == Overlay("step", "1")
    assert out.overlay[H(game, "0305")] == Overlay("step", "»")  # on a path the engine lists
    assert out.notes[0] == "path: 1 hex (4.11)"  # no cost from a presentation without path previews
    assert note(plotting, info, pr, view) == "move for red-tank-1: 1 hex · path 0204"
    picking = Entry("red-tank-1", "fire", (), targets={H(game, "0704"): ("blue-tank-1",)})
    assert drawn(picking, info, pr, view, assault=False).overlay[H(game, "0704")] == Overlay("target", "◎")
    assert (
        note(picking, info, pr, view)
        == "fire for red-tank-1: pick the target on the map (◎), Enter picks, Escape cancels"
    )
