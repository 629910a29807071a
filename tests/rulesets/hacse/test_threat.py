"""The AI's estimate of the next Fire Phase (``threat.py``; 3.2 Phase 3b, 6.3, 8, 2.2): an AI valuation, tested for
the properties the evaluation relies on."""

from __future__ import annotations

from engine.actions import Action
from engine.hexgrid import parse_hex
from engine.rulesets.hacse.evaluation import evaluate, fire_score
from engine.rulesets.hacse.model import FACING_NAMES, status
from engine.rulesets.hacse.threat import exchange, threat
from engine.state import GameState

from .helpers import game, placed, ruleset


def _duel(us: str, german: str, facing: str = "nw") -> GameState:
    """H-2: the tank S1 and the tank G1 alone on the map (the others off it)."""
    st = placed(game("h2-height-212"))
    for u in st.units.values():
        u.hex = None
        status(u).off_map = True
    for uid, at, face in (("S1", us, "se"), ("G1", german, facing)):
        u = st.units[uid]
        u.hex, status(u).off_map, status(u).facing = parse_hex(at), False, FACING_NAMES.index(face)
    return st


def test_3_2_a_tank_in_range_and_sight_threatens_the_enemy_and_none_out_of_range() -> None:
    tables = ruleset().tables
    near = _duel("0508", "0808")
    assert threat(near, tables, "soviet") > 0
    assert threat(near, tables, "german") > 0
    far = _duel("0101", "2216")  # beyond every weapon's range
    assert threat(far, tables, "soviet") == threat(far, tables, "german") == 0


def test_2_2_turning_the_rear_to_the_enemy_makes_the_exchange_worse() -> None:
    tables = ruleset().tables
    front = _duel("0508", "0808", facing="nw")  # G1 faces S1 roughly
    rear = _duel("0508", "0808", facing="se")  # G1 shows S1 its rear
    assert threat(rear, tables, "soviet") > threat(front, tables, "soviet")
    assert exchange(rear, tables, "german") < exchange(front, tables, "german")


def test_6_2_no_line_of_sight_no_threat() -> None:
    tables = ruleset().tables
    # 0906 and 1310, 6 hexes apart on either side of the height: its slope at 1006 (level 2) blocks (6.2).
    blocked = _duel("0906", "1310")
    assert threat(blocked, tables, "soviet") == 0


def test_12_2_a_tank_within_its_mp_threatens_a_ram_and_none_beyond() -> None:
    tables = ruleset().tables
    mp = tables.sheets["SOV-T34-76"].mp
    near = _duel("0906", "1310")  # no line of sight: no fire, only the ram (6 hexes apart)
    assert mp >= 6
    assert threat(near, tables, "soviet") == 0
    assert threat(near, tables, "soviet", ram=1.0) > 0
    far = _duel("0101", "1310")
    assert threat(far, tables, "soviet", ram=1.0) == 0
    side = _duel("0906", "1310", facing="n")  # G1 shows S1 its side: the ram does more
    assert threat(side, tables, "soviet", ram=1.0) > threat(near, tables, "soviet", ram=1.0)


def test_13_2_an_own_unit_still_hidden_draws_less_of_the_enemys_fire() -> None:
    tables = ruleset().tables
    seen = _duel("0508", "0808")
    hidden = _duel("0508", "0808")
    status(hidden.units["G1"]).hidden = True  # the German's own view: its hidden tank is in it (13.2)
    assert threat(hidden, tables, "soviet", hidden=0.3) < threat(seen, tables, "soviet", hidden=0.3)
    assert threat(hidden, tables, "soviet") == threat(seen, tables, "soviet")  # no discount asked, none made
    assert exchange(hidden, tables, "german", hidden=0.3) > exchange(seen, tables, "german", hidden=0.3)


def test_13_2_a_hidden_unit_that_fires_gives_up_its_cover_in_the_ais_score() -> None:
    tables = ruleset().tables
    st = _duel("0508", "0808")
    shot = Action("fire", ("G1", "S1", "KWK40"))
    assert fire_score(tables, st, shot, "german", 1.0) is None  # seen already: the planner's own score
    status(st.units["G1"]).hidden = True
    score = fire_score(tables, st, shot, "german", 1.0)
    assert score is not None and score < evaluate(tables, st, "german") + 1.0  # revealed, it draws the enemy's fire
    assert ruleset().ai_score(st, Action("move", ("G1", "0708")), "german") is None


def test_3_2_a_gun_moved_by_hand_this_turn_threatens_nothing_one_towed_there_does() -> None:
    tables = ruleset().tables
    st = _duel("0508", "2216")  # G1 out of every weapon's range: only the PaK G6 can reach S1
    pak = st.units["G6"]
    pak.hex, status(pak).off_map, status(pak).facing = parse_hex("0808"), False, FACING_NAMES.index("nw")
    status(pak).towed_by = None  # unhooked (4.6)
    assert threat(st, tables, "german") > 0
    status(pak).hexes = 1  # towed here this turn and unhooked: it fires from here from the next turn on
    assert threat(st, tables, "german") > 0
    status(pak).half_mp = 2  # moved a hex by its own MP this turn (3.2: then it does not fire in 3b)
    assert threat(st, tables, "german") == 0
