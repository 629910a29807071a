"""Victory points and control of 15.9 [PROPOSED]: whole BV for destroyed units, half BV for immobilised, shaken or
half-damaged ones, and control by the last side with a non-shaken unit alone in the hex."""

from __future__ import annotations

from engine.hexgrid import parse_hex
from engine.rulesets.hacse.model import data, status
from engine.rulesets.hacse.victory import broken_sides, half_bv, scores, update_control
from engine.state import GameState

from .helpers import game, placed, ruleset

M4 = "US-M4A3-75"


def _points(st: GameState) -> dict[str, int]:
    return scores(st, ruleset().tables)


def test_15_9_a_destroyed_unit_scores_its_whole_bv_to_the_enemy() -> None:
    st = placed(game("h1-le-hamel"))
    before = _points(st)
    status(st.units["U4"]).destroyed = True
    after = _points(st)
    assert after["german"] - before["german"] == ruleset().tables.sheets[M4].bv
    assert after["us"] == before["us"]


def test_15_9_half_bv_for_immobilised_shaken_or_half_damaged() -> None:
    sheet = ruleset().tables.sheets[M4]  # BV 24, 15 rows of possible damage
    st = placed(game("h1-le-hamel"))
    s = status(st.units["U4"])
    assert half_bv(ruleset().tables, sheet, s) == 0
    s.rows_hit = [11, 12, 13]  # 3 of 15, weapons only: nothing yet
    assert half_bv(ruleset().tables, sheet, s) == 0
    s.rows_hit = [6]  # tracks: immobilised (8.5)
    assert half_bv(ruleset().tables, sheet, s) == sheet.bv // 2
    s.rows_hit = [1, 2, 10, 11, 12, 13, 14, 15]  # 8 of 15: at least 50 %
    assert half_bv(ruleset().tables, sheet, s) == sheet.bv // 2
    s.rows_hit = [1, 2, 10, 11, 12, 13, 14]  # 7 of 15: under half
    assert half_bv(ruleset().tables, sheet, s) == 0
    s.rows_hit, s.shaken = [], True
    assert half_bv(ruleset().tables, sheet, s) == sheet.bv // 2


def test_15_9_the_half_bv_award_counts_in_the_score_once() -> None:
    st = placed(game("h1-le-hamel"))
    before = _points(st)
    status(st.units["U4"]).shaken = True
    assert _points(st)["german"] - before["german"] == ruleset().tables.sheets[M4].bv // 2


def test_15_9_a_shaken_unit_does_not_take_control() -> None:
    st = placed(game("h1-le-hamel"), U1="1207")
    h = parse_hex("1207")
    d = data(st)
    for u in st.units.values():
        if u.hex == h and u.side != "us":
            u.hex = None
            status(u).destroyed = True
    d.control.pop(h, None)
    status(st.units["U1"]).shaken = True
    update_control(st)
    assert d.control.get(h) is None
    status(st.units["U1"]).shaken = False
    update_control(st)
    assert d.control.get(h) == "us"


def test_15_9_the_game_ends_when_a_side_has_no_unit_left_that_is_not_shaken() -> None:
    g = game("h1-le-hamel", seed=2)
    for u in g.state.units.values():
        if u.side == "us":
            status(u).shaken = True  # every US unit shaken (9.5), none destroyed
    while g.state.outcome is None and g.state.turn == 1:
        g.apply(next(a for a in g.legal_actions() if a.verb in ("stand", "stop", "cease", "spare")))
    assert g.state.outcome is not None and g.state.turn == 1
    assert "us has no unit left that is not shaken" in g.state.outcome.reason
    assert g.state.outcome.winner == "german"


def test_15_9_one_steady_unit_keeps_the_game_going() -> None:
    g = game("h1-le-hamel", seed=2)
    us = [u for u in g.state.units.values() if u.side == "us"]
    for u in us[1:]:
        status(u).shaken = True
    assert broken_sides(g.state) == []
    status(us[0]).destroyed = True
    assert broken_sides(g.state) == ["us"]
