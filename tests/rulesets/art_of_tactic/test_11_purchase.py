"""P-3's own purchase and secret set-up (digest 11.6, 11.1, 12.2, 9.6, 9.12, 15.1).

The set-up rolls no dice: every game here runs on empty scripted dice, so a roll would fail the test.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
import saves
from engine.errors import IllegalActionError
from engine.rulesets.art_of_tactic.purchase import spent

from .helpers import D, P, S, game, labels, ruleset

RS = ruleset()


def p3() -> engine.Game:
    return game(engine.load_scenario("art_of_tactic", "p3-stuetzpunkt"))


def test_11_6_default_set_up_is_the_scenario_file_force_and_soviets_set_up_first() -> None:
    g = p3()
    assert g.state.phase == "setup" and g.to_act == "soviet"
    assert g.state.units == {}
    assert engine.take_scenario_setup(g) == 2
    assert g.state.phase == "planning" and g.to_act == "german" and g.state.turn == 1
    ids = {u.id for u in engine.load_scenario("art_of_tactic", "p3-stuetzpunkt").units}
    assert set(g.state.units) == ids
    assert labels(D(g.state).structures.trenches).keys() == {"1205", "1104"}
    assert D(g.state).structures.wire == [(P("1004"), P("1104"))]
    assert D(g.state).setup is None


def test_11_6_15_1_neither_view_shows_the_other_sides_purchase_or_placement() -> None:
    g = p3()
    events = g.apply("buy SU-MG 1105 1005", side="soviet")
    events += g.apply("fortify trench 1205 1105", side="soviet")
    events += g.apply("buy SU-HQ 1206", side="soviet")
    assert all(e.visible_to == ("soviet",) for e in events[:-1])
    g.apply("commit", side="soviet")
    assert g.to_act == "german"
    german = g.view("german")
    assert german.units == {}
    setup = D(german).setup
    assert setup is not None and "soviet" not in setup.default
    assert setup.structures == {"german": []}
    assert D(german).structures.trenches == {}
    assert all("SU-" not in e.text for e in g.events if e.visible_to is None or "german" in e.visible_to)
    soviet = g.view("soviet")
    assert {u.type for u in soviet.units.values()} == {"SU-MG", "SU-HQ"}
    assert labels(D(soviet).structures.trenches) == {"1205": 5}  # its own trench shows on its map
    g.apply("buy DE-HQ 0104", side="german")
    assert {u.side for u in g.view("soviet").units.values()} == {"soviet"}
    g.apply("commit", side="german")
    assert g.state.phase == "planning"
    # 9.11, 15.1: the Soviet HQ starts concealed: the Germans see an unidentified unit in its hex, not its card.
    german = g.view("german")
    assert {u.type for u in german.units.values()} == {"SU-MG", "?", "DE-HQ"}
    assert german.units["soviet-unidentified-1"].hex == g.board.parse("1206")
    assert labels(D(g.state).structures.trenches) == {"1205": 5}


def test_11_6_purchase_within_the_strength_points_with_room_for_the_hq() -> None:
    g = p3()
    for text in ("buy SU-T34 1301", "buy SU-T34 1302", "buy SU-BM13 1202 1102", "buy SU-BM13 1304 1204"):
        g.apply(text, side="soviet")
    assert spent(RS, g.state, "soviet") == 140
    with pytest.raises(IllegalActionError, match=r"SU-AT would leave 20 strength points, too few for the SU-HQ.*11\.6"):
        g.apply("buy SU-AT 1305 1205", side="soviet")
    g.apply("buy SU-HQ 1306", side="soviet")
    with pytest.raises(IllegalActionError, match=r"SU-AT costs 20 strength points; only 15 of the 180.*11\.6"):
        g.apply("buy SU-AT 1305 1205", side="soviet")
    assert not any(a.verb == "buy" and a.args[0] == "SU-AT" for a in g.legal_actions())


def test_11_6_exactly_one_hq_and_at_most_two_copies() -> None:
    g = p3()
    with pytest.raises(IllegalActionError, match=r"exactly one SU-HQ.*11\.6"):
        g.apply("commit", side="soviet")
    assert "commit" not in {a.verb for a in g.legal_actions()}
    g.apply("buy SU-HQ 1206", side="soviet")
    with pytest.raises(IllegalActionError, match=r"exactly one SU-HQ; it has one already.*11\.6"):
        g.apply("buy SU-HQ 1205", side="soviet")
    g.apply("buy SU-MG 1105 1005", side="soviet")
    g.apply("buy SU-MG 1106 1006", side="soviet")
    with pytest.raises(IllegalActionError, match=r"at most 2 copies of SU-MG.*11\.6"):
        g.apply("buy SU-MG 1104 1004", side="soviet")
    with pytest.raises(IllegalActionError, match=r"SU-I16 is optional.*11\.6"):
        g.apply("buy SU-I16", side="soviet")
    with pytest.raises(IllegalActionError, match=r"DE-INF is a german card.*12\.3"):
        g.apply("buy DE-INF 1104", side="soviet")


def test_11_6_placement_in_the_zone_on_standable_terrain_within_stacking() -> None:
    g = p3()
    with pytest.raises(IllegalActionError, match=r"0905 is outside the soviet set-up zone \(columns 10-14\).*11\.6"):
        g.apply("buy SU-INF 0905", side="soviet")
    with pytest.raises(IllegalActionError, match=r"field of fire; give the hex it faces.*5\.5"):
        g.apply("buy SU-MG 1105", side="soviet")
    with pytest.raises(IllegalActionError, match=r"no field of fire on its card.*5\.5"):
        g.apply("buy SU-INF 1105 1005", side="soviet")
    with pytest.raises(IllegalActionError, match=r"SU-BM13 cannot stand in light_woods at 1303.*4\.8"):
        g.apply("buy SU-BM13 1303 1203", side="soviet")
    assert int(RS.tables.rules["stacking"]["vehicles"]) == 3
    for text in ("buy SU-T26 1301", "buy SU-T26 1301", "buy SU-T34 1301"):
        g.apply(text, side="soviet")
    with pytest.raises(IllegalActionError, match=r"1301 already holds 3 vehicle units, the limit.*4\.9"):
        g.apply("buy SU-T34 1301", side="soviet")


def test_11_6_9_6_9_12_german_mines_and_aircraft_and_no_fortifications() -> None:
    g = p3()
    g.apply("default", side="soviet")
    with pytest.raises(IllegalActionError, match=r"aircraft start on their airfield.*9\.12"):
        g.apply("buy DE-STUKA 0101", side="german")
    g.apply("buy DE-PIO 0204 mines", side="german")
    g.apply("buy DE-STUKA", side="german")
    with pytest.raises(IllegalActionError, match=r"cannot buy DE-STUKA: at most 1 copies.*11\.6"):
        g.apply("buy DE-STUKA", side="german")
    assert spent(RS, g.state, "german") == 20 + 10 + 35  # 12.4: 10 points per engineer's real minefield
    pio = next(u for u in g.state.units.values() if u.type == "DE-PIO")
    stuka = next(u for u in g.state.units.values() if u.type == "DE-STUKA")
    assert S(pio).mines is True
    assert stuka.hex is None and S(stuka).prep == 4
    with pytest.raises(IllegalActionError, match=r"buys no fortifications.*11\.6"):
        g.apply("fortify wire 0204 0304", side="german")
    with pytest.raises(IllegalActionError, match=r"only engineers lay mines.*9\.6"):
        g.apply("buy DE-INF 0205 mines", side="german")
    g.apply(f"sell {pio.id}", side="german")
    assert spent(RS, g.state, "german") == 35


def test_11_1_fortification_costs_and_sale() -> None:
    g = p3()
    g.apply("fortify wire 1104 1004", side="soviet")  # written either way round: one hexside
    g.apply("fortify teeth 1005 1006", side="soviet")
    g.apply("fortify dugout 1206 1106", side="soviet")
    assert spent(RS, g.state, "soviet") == 6 + 7 + 20
    with pytest.raises(IllegalActionError, match=r"a wire is there already"):
        g.apply("fortify wire 1004 1104", side="soviet")
    with pytest.raises(IllegalActionError, match=r"1206 holds a dugout already"):
        g.apply("fortify trench 1206 1106", side="soviet")
    with pytest.raises(IllegalActionError, match=r"outside the soviet set-up zone"):
        g.apply("fortify teeth 0905 1005", side="soviet")
    g.apply("sell teeth 1005 1006", side="soviet")
    assert spent(RS, g.state, "soviet") == 26
    with pytest.raises(IllegalActionError, match=r"you have not bought it.*11\.6"):
        g.apply("sell teeth 1005 1006", side="soviet")


def test_11_6_set_up_actions_end_with_the_set_up_and_orders_wait_for_round_1() -> None:
    g = p3()
    with pytest.raises(IllegalActionError, match=r"orders are given from Round 1.*11\.6"):
        g.apply("hold sov-21-hq", side="soviet")
    engine.take_scenario_setup(g)
    with pytest.raises(IllegalActionError, match=r"purchases and set-up come before Round 1.*11\.6"):
        g.apply("buy DE-INF 0104", side="german")


def test_11_6_every_listed_set_up_action_is_legal_and_a_random_set_up_replays(tmp_path: Path) -> None:
    import random  # noqa: PLC0415

    g = p3()
    rng = random.Random(7)
    while g.state.phase == "setup":
        actions = g.legal_actions()
        for a in rng.sample(actions, min(20, len(actions))):
            RS.check(g.state, a)
        g.apply(rng.choice([a for a in actions if a.verb != "default"]))
        if g.to_act == "german" and g.state.phase == "setup":
            path = tmp_path / "p3.planspiel"
            saves.save_game(g, path, players={"german": "human", "soviet": "human"})
            loaded = saves.load_game(path)
            assert loaded.state.to_dict() == g.state.to_dict()
            assert all(u.side == "german" for u in loaded.view("german").units.values())
    again = engine.replay(g.scenario, 0, g.history, dice=engine.dice.ScriptedDice([]))
    assert again.state.to_dict() == g.state.to_dict()
    assert sum(1 for u in g.state.units.values() if u.type in ("DE-HQ", "SU-HQ")) == 2


def test_11_6_notation_round_trips_and_bad_input_gets_a_message() -> None:
    g = p3()
    for text in ("buy SU-MG 1105 1005", "fortify wire 1004 1104", "sell wire 1004 1104", "default"):
        assert str(g.ruleset.parse_action(g.state, text)) == text
    for bad in ("buy", "fortify moat 1104 1105", "buy SU-MG 9999", "sell", "default now"):
        with pytest.raises(engine.errors.InvalidActionError):
            g.ruleset.parse_action(g.state, bad)
    with pytest.raises(IllegalActionError, match=r"no card 'SU-XX'"):
        g.apply("buy SU-XX 1104", side="soviet")


def test_11_6_validation_names_a_default_unit_outside_the_set_up_zone() -> None:
    from engine.scenario import parse_scenario  # noqa: PLC0415

    from .helpers import MAP_A, ROOT  # noqa: PLC0415

    text = (ROOT / "scenarios" / "art_of_tactic" / "p3-stuetzpunkt.toml").read_text(encoding="utf-8")
    assert "columns = [10, 14]\nfortifications" in text
    bad = text.replace("columns = [10, 14]\nfortifications", "columns = [11, 14]\nfortifications")
    with pytest.raises(engine.errors.ScenarioError, match=r"purchase\.soviet\.columns: sov-26-at stands outside the "
                       r"set-up zone \(rule 11\.6\)"):  # fmt: skip
        parse_scenario(bad, "p3.toml", map_text=MAP_A, map_file="map-a.map")


def test_11_6_9_11_set_up_revealed_counts_the_concealed_hq_as_an_unidentified_unit() -> None:
    """The set-up message agrees with the map: a concealed HQ is "1 unidentified unit", never named."""
    g = p3()
    engine.take_scenario_setup(g)
    hqs = [u for u in g.state.units.values() if S(u).concealed]
    assert hqs, "P-3 starts with a concealed HQ"
    for side in ("german", "soviet"):
        texts = [e.text for e in g.events if e.kind == "setup" and e.text.startswith(f"{side} set-up revealed")]
        assert len(texts) == 1
        mine = [u for u in hqs if u.side == side]
        if mine:
            assert f"{len(mine)} unidentified unit" in texts[0]
        for u in mine:
            assert u.id not in texts[0]
    for side in ("german", "soviet"):
        other = "soviet" if side == "german" else "german"
        view = g.view(side)
        shown = [uid for uid in view.units if uid.startswith(f"{other}-unidentified-")]
        told = next(e.text for e in g.events_since(0, side) if e.text.startswith(f"{other} set-up revealed"))
        assert (f"{len(shown)} unidentified unit" in told) == bool(shown)
