"""Indirect fire without sight at any hex (7.4) in two steps (``shelling.py``): ``shell UNIT WEAPON AMMO`` takes
the aim, then ``fire UNIT HEX WEAPON AMMO`` at any hex meeting one of 7.4's preconditions, or ``cancel UNIT``. H-3:
the mortar M1 and the company HQ A-HQ (a map station) share a field telephone."""

from __future__ import annotations

from engine.actions import Action
from engine.hexgrid import distance, parse_hex
from engine.rulesets.hacse.model import Data, data, status
from engine.state import GameState
from engine.typed import from_plain, to_plain

from .helpers import LOSE, play, reach_quietly, refused, ruleset
from .test_artillery import h3, run


def _fires(st: GameState) -> set[str]:
    """The hexes of the ``fire`` actions listed now."""
    return {str(a.args[1]) for a in ruleset().legal_actions(st) if a.verb == "fire"}


def _dark(st: GameState, *keep: str) -> GameState:
    """A dark night (6.1: +2 per hex) with every German unit but ``keep`` out of the game: no map station, nobody to
    pass a hex on."""
    data(st).conditions = ["dark_night"] * 10
    for uid in ("A-HQ", "G1", "G2", "G3", "G4"):
        if uid not in keep:
            status(st.units[uid]).destroyed = True
    return st


def test_7_4_shell_is_offered_for_each_round_then_the_side_chooses_the_hex() -> None:
    st = h3(M1="0306", S1="1206")
    legal = set(ruleset().legal_actions(st))
    assert {Action("shell", ("M1", "GW34", k)) for k in ("HE", "smoke")} <= legal
    after = play(st, "shell M1 GW34 smoke")
    assert data(after).shelling == ["M1", "GW34", "smoke"]
    listed = ruleset().legal_actions(after)
    assert listed[-1] == Action("cancel", ("M1",))
    assert {a.verb for a in listed} == {"fire", "cancel"}
    assert all(a.args[0] == "M1" and a.args[2:] == ("GW34", "smoke") for a in listed if a.verb == "fire")
    # A-HQ is a map station in contact (7.4 precondition 2): every hex but M1's own, not only known or objective ones
    assert _fires(after) == {st.board.label(h) for h in st.board} - {"0306"}


def test_7_4_smoke_on_an_empty_hex() -> None:
    st = h3(dice=LOSE + [10, 10] + [4] * 10, M1="0306", S1="1206")
    assert refused(st, "fire M1 0908 GW34 smoke").rule == "7.4"  # no enemy known there, no objective: shell first
    after = play(st, "shell M1 GW34 smoke")
    tr = run(after, "fire M1 0908 GW34 smoke")
    assert data(tr.state).smoke == {parse_hex("0908"): 3}
    assert data(tr.state).shelling == []
    assert status(tr.state.units["M1"]).spent == {"0.smoke": 2}


def test_7_4_while_the_hex_is_chosen_nothing_else_is_played() -> None:
    st = play(h3(M1="0306", S1="1206"), "shell M1 GW34 HE")
    for text in ("cease M1", "fire M1 0908 GW34 smoke", "shell M1 GW34 smoke", "fire M1 0306 GW34 HE", "cancel G4"):
        assert refused(st, text).rule == "7.4", text
    assert Action("fire", ("M1", "1206", "GW34", "HE")) in ruleset().legal_actions(st)  # S1 there, unsighted
    status(st.units["A-HQ"]).sighted = ["S1"]  # by telephone: M1 could fire at S1 with sight (7.2)
    assert "fire at it" in str(refused(st, "fire M1 1206 GW34 HE"))  # sighted: fire at the unit (7.2)


def test_7_4_cancel_leaves_the_fire_phase_as_it_was() -> None:
    st = h3(M1="0306", S1="1206")
    before = ruleset().legal_actions(st)
    again = play(st, "shell M1 GW34 HE", "cancel M1")
    assert data(again).shelling == [] and data(again).active is None
    assert ruleset().legal_actions(again) == before


def test_7_4_precondition_1_only_hexes_the_firer_could_see() -> None:
    st = _dark(h3(M1="0306", S1="1507"))
    st = play(st, "shell M1 GW34 HE")
    near = _fires(st)
    assert "0307" in near and "1507" not in near  # next to M1, and 9 hexes away at dark night
    err = refused(st, "fire M1 1507 GW34 HE")
    assert err.rule == "7.4" and "map station" in str(err)


def test_7_4_precondition_3_an_enemy_seen_to_fire_but_not_a_hidden_one() -> None:
    st = _dark(h3(M1="0306", S1="1507"))
    status(st.units["S1"]).fired_dk = 1  # S1 fired from 1507 this turn
    status(st.units["S1"]).hidden = True  # ... unseen: the Germans do not know it (13.2)
    aimed = play(st, "shell M1 GW34 HE")
    assert "1507" not in _fires(aimed)
    view = ruleset().view(aimed, "german")
    assert ruleset().legal_actions(view) == ruleset().legal_actions(aimed)  # read from the side's view only
    status(st.units["S1"]).hidden = False
    assert "1507" in _fires(play(st, "shell M1 GW34 HE"))


def test_7_4_a_unit_it_communicates_with_lends_its_sight_at_plus_1() -> None:
    st = _dark(h3(M1="0306", S1="1507"), "G3")  # G3 has no telephone: it does not lend M1 its sight
    st.units["G3"].hex = parse_hex("1405")
    assert "1506" not in _fires(play(st, "shell M1 GW34 HE"))
    st = _dark(h3(M1="0306", S1="1507"), "A-HQ")
    status(st.units["A-HQ"]).destroyed = False
    st.units["A-HQ"].hex = parse_hex("1405")
    assert "1506" in _fires(play(st, "shell M1 GW34 HE"))  # the map station: every hex


def test_13_2_a_hidden_firers_aim_stays_with_its_side() -> None:
    st = h3(M1="0306", S1="1206")
    status(st.units["M1"]).hidden = True
    tr = run(st, "shell M1 GW34 smoke")
    assert all(e.visible_to == ("german",) for e in tr.events)
    assert data(ruleset().view(tr.state, "soviet")).shelling == []
    assert data(ruleset().view(tr.state, "german")).shelling == ["M1", "GW34", "smoke"]


def test_7_4_the_aim_is_kept_in_the_saved_state() -> None:
    st = play(h3(M1="0306", S1="1206"), "shell M1 GW34 HE")
    assert from_plain(Data, to_plain(data(st))).shelling == ["M1", "GW34", "HE"]


def test_7_4_the_map_marks_the_hexes_the_aim_may_take() -> None:
    st = _dark(h3(M1="0306", S1="1507"))
    assert "shell" not in ruleset().overlays(ruleset().view(st, "german"), "german", "M1")
    st = play(st, "shell M1 GW34 HE")
    view = ruleset().view(st, "german")
    marks = ruleset().overlays(view, "german", "M1")["shell"]
    assert {st.board.label(h) for h in marks} == _fires(st)


def _quiet(**where: str) -> GameState:
    """H-3's Fire Phase with no enemy known to the Germans (S1 hidden) and no objective to aim at: nothing to fire
    at but a hex (7.4)."""
    st = h3(**where)
    status(st.units["S1"]).hidden = True
    data(st).points.clear()
    return st


def test_7_4_the_ai_shells_with_a_mortars_he_when_it_has_nothing_to_fire_at() -> None:
    """ai_shell.py: the mortar, with no fire of its own, shells with HE (not smoke); the Panzer IV's gun, which fires
    both ways, keeps its HE; the aim is worth more to the AI than ceasing fire."""
    st = _quiet(G4="0607:se", M1="0306", S1="2010")
    rs = ruleset()
    view = rs.view(st, "german")
    legal = rs.legal_actions(view)
    assert {Action("shell", ("G4", "KWK40", "HE")), Action("shell", ("M1", "GW34", "smoke"))} <= set(legal)
    shells = [a for a in rs.ai_actions(view, legal) if a.verb == "shell"]
    assert shells == [Action("shell", ("M1", "GW34", "HE"))]
    value = rs.ai_score(view, shells[0], "german")
    assert value is not None and value > rs.evaluate(view, "german")


def test_7_4_a_unit_with_an_enemy_to_fire_at_does_not_shell() -> None:
    st = h3(M1="0306", S1="1206")
    status(st.units["M1"]).sighted = ["S1"]
    legal = ruleset().legal_actions(st)
    assert any(a.verb == "fire" and a.args[0] == "M1" for a in legal)
    assert not any(a.verb == "shell" and a.args[0] == "M1" for a in ruleset().ai_actions(st, legal))


def test_7_4_once_aimed_the_ai_fires_at_one_hex_away_from_its_own_units() -> None:
    """A miss lands one hex too far or too short (7.4) and a random hit strikes any unit there (7.3): the AI's one
    candidate is a hex with no own unit in it or next to it."""
    st = play(_quiet(M1="0306", S1="2010"), "shell M1 GW34 HE")
    listed = ruleset().legal_actions(st)
    chosen = ruleset().ai_actions(st, listed)
    assert len(chosen) == 1 and chosen[0].verb == "fire" and chosen[0] in listed
    target = parse_hex(str(chosen[0].args[1]))
    own = [u.hex for u in st.units.values() if u.side == "german" and u.hex is not None]
    assert all(distance(target, h) > 1 for h in own)


def test_13_2_the_ais_shell_hex_reads_only_its_view() -> None:
    """Where the hidden Soviet unit stands changes nothing in the hex the AI chooses."""
    rs = ruleset()
    picks = []
    for where in ("2010", "1507"):
        st = play(_quiet(M1="0306", S1=where), "shell M1 GW34 HE")
        view = rs.view(st, "german")
        picks.append(rs.ai_actions(view, rs.legal_actions(view)))
    assert picks[0] == picks[1]


def test_7_4_a_gun_with_nothing_in_sight_still_has_a_shot() -> None:
    """3.2 3b: a unit that may fire at some hex has a shot, so it is asked (and ceases if it does not shell)."""
    st = h3(G4="0607:se", S1="2010")
    status(st.units["S1"]).hidden = True  # no enemy known ...
    data(st).points.clear()  # ... and no objective hex to aim at
    legal = ruleset().legal_actions(st)
    assert Action("shell", ("G4", "KWK40", "HE")) in legal and Action("cease", ("G4",)) in legal
    assert not any(a.verb == "fire" and a.args[0] == "G4" for a in legal)


# --- By keys -----------------------------------------------------------------------------------------------------


async def test_7_4_a_player_shells_an_empty_hex_with_smoke_by_keys() -> None:
    """o lists the decisions, ``shell M1 GW34 smoke`` is picked by its number; the map then marks the hexes it may
    take (◎), and Enter on an empty one fires the smoke there (the mortar still selected)."""
    from tests.tui.conftest import enter_on, make_app, pick_listed, settle, table  # noqa: PLC0415
    from tui.app import Start  # noqa: PLC0415

    app = make_app(Start("new", "hacse", "h3-bridge-at-dusk", {"german": "human", "soviet": "human"}, 1))
    shell = Action("shell", ("M1", "GW34", "smoke"))
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot, app)
        assert app.session is not None
        game = app.session.game
        await reach_quietly(app, pilot, shell, side="german")
        screen = table(app)
        m1 = game.state.units["M1"].hex
        assert m1 is not None and screen.client.side == "german"
        await enter_on(app, pilot, game.state.board.label(m1))
        assert screen.selected == "M1"
        await pick_listed(app, pilot, shell)
        assert game.history[-1] == shell
        empty = next(
            h for h in sorted(game.state.board, key=lambda h: (h.q, h.r)) if not game.state.units_at(h) and h != m1
        )
        label = game.state.board.label(empty)
        assert empty in screen.map.overlay and screen.map.overlay[empty].text == "◎"
        if screen.selected != "M1":
            await enter_on(app, pilot, game.state.board.label(m1))
        await enter_on(app, pilot, label)
        assert game.history[-1] == Action("fire", ("M1", label, "GW34", "smoke"))
        assert data(game.state).shelling == []
