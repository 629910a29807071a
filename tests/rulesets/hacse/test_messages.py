"""Sightings passed on (``messages.py``): 6.1 condition 5, the per-turn limits of 10.3 (14.12 AC-CM-04 through the
engine) and the +1 of a shared sighting (10.3)."""

from __future__ import annotations

from engine.actions import Action
from engine.rules import Transition
from engine.rulesets.hacse.attack import Aim, shot
from engine.rulesets.hacse.fire import hit_roll
from engine.rulesets.hacse.messages import pass_sightings, reset_messages
from engine.rulesets.hacse.model import data, status
from engine.rulesets.hacse.sighting import sight_line
from engine.state import GameState

from .helpers import game, placed, ruleset


def _state() -> GameState:
    """H-1 with the company HQ off the map: G1 (1107) has sighted U1 (0707); G2 (0908) and G3 (1005) have not."""
    st = placed(game("h1-le-hamel"), U1="0707")
    st.units["A-HQ"].hex = None
    for u in st.units.values():
        status(u).sighted = []
    status(st.units["G1"]).sighted = ["U1"]
    return st


def _passed(st: GameState) -> tuple[GameState, list[str]]:
    tr = Transition(st.clone())
    pass_sightings(tr, ruleset().tables)
    return tr.state, [e.text for e in tr.events]


def test_6_1_condition_5_a_sighting_is_passed_to_a_friend_that_can_communicate() -> None:
    after, log = _passed(_state())
    g2 = status(after.units["G2"])
    assert g2.shared == {"U1": 1} and "U1" not in g2.sighted  # shared, not its own sighting (cond. 1 next turn)
    assert status(after.units["G1"]).sent == 1 and g2.received == 1
    assert "G1 passes its sighting of U1 to G2 (rules 6.1, 10.3)" in log


def test_14_12_ac_cm_04_a_unit_that_sent_once_this_turn_sends_no_more() -> None:
    after, _ = _passed(_state())
    assert status(after.units["G3"]).shared == {}  # G1 has sent its one message to G2 (10.3)
    reset_messages(after)  # End Phase step 9: the counters start again
    assert status(after.units["G1"]).sent == 0 and status(after.units["G2"]).shared == {}


def test_10_3_a_shared_sighting_fires_at_plus_1() -> None:
    st, _ = _passed(_state())
    st.phase, st.to_act = "attack", "german"
    data(st).active = data(st).mover = None
    g2 = st.units["G2"]
    s = status(g2)
    s.may_fire, s.fire_done, s.fired = True, False, []
    tables = ruleset().tables
    aims = [shot(st, tables, g2, "U1", a.args[2]) for a in ruleset().legal_actions(st) if _fires(a, "G2", "U1")]
    assert aims and all(isinstance(a, Aim) and a.shot.relays == 1 for a in aims)
    assert any("1 relay" in hit_roll(a.shot).explain() for a in aims if isinstance(a, Aim))


def _fires(a: Action, uid: str, tid: str) -> bool:
    return a.verb == "fire" and a.args[:2] == (uid, tid)


def _relay_state() -> GameState:
    """H-1: G1 (0201) has sighted U1 (0113); G2 (0402, no line of sight to U1) is 2 hexes from G1 and from G3
    (0601), which is 4 hexes from G1 and sees U1. The other German units are off the map."""
    st = placed(game("h1-le-hamel"), G1="0201", G2="0402", G3="0601", U1="0113")
    for u in st.units.values():
        status(u).sighted = []
        if u.side == "german" and u.id not in ("G1", "G2", "G3"):
            u.hex = None
    status(st.units["G1"]).sighted = ["U1"]
    return st


def test_10_3_a_sighting_passes_through_a_relay_at_plus_2() -> None:
    st = _relay_state()
    t = ruleset().tables
    u1, g2, g3 = (st.units[i].hex for i in ("U1", "G2", "G3"))
    assert u1 and g2 and g3 and sight_line(st, t, g3, u1).clear and not sight_line(st, t, g2, u1).clear
    status(st.units["G2"]).received = 1  # the relay may not receive: nobody can tell G3
    after, _ = _passed(st)
    assert status(after.units["G3"]).shared == {}
    after, log = _passed(_relay_state())
    g3s = status(after.units["G3"])
    assert g3s.shared == {"U1": 2}  # two units upstream: G1, G2 (10.3 DERIVED, AC-HT-17)
    g1s, g2s = status(after.units["G1"]), status(after.units["G2"])
    assert (g1s.sent, g2s.received, g2s.sent, g3s.received) == (1, 1, 1, 1)
    assert "G1 passes its sighting of U1 to G2, G2 to G3 (rules 6.1, 10.3)" in log


def test_10_3_a_unit_told_this_turn_passes_it_on_at_one_more() -> None:
    st = _relay_state()
    status(st.units["G2"]).shared = {"U1": 1}  # G2 received it from G1 earlier this turn
    st.units["G1"].hex = None
    after, log = _passed(st)
    assert status(after.units["G3"]).shared == {"U1": 2}
    assert "G2 passes the sighting of U1 to G3 (rules 6.1, 10.3)" in log
