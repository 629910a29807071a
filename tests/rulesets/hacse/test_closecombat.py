"""Physical attacks in Phase 3a of the Attack Phase (3.2, 12; ``closecombat.py``): rams first, then infantry
close combat, sides alternating with the initiative loser first; results and morale at once; the acceptance cases
of 14.10 played through the ruleset (the calculators' own cases are in ``test_ramming.py``)."""

from __future__ import annotations

import random
from fractions import Fraction

from engine.actions import Action
from engine.dice import Dice, ScriptedDice
from engine.errors import IllegalActionError
from engine.game import Game
from engine.hexgrid import distance, parse_hex
from engine.rules import Transition
from engine.rulesets.hacse import sequence
from engine.rulesets.hacse.model import data, status
from engine.state import GameState

from .helpers import LOSE, WIN, game, placed, play, refused, ruleset
from .test_check import candidates


def script(*values: int) -> ScriptedDice:
    """Dice that give ``values`` first, then small values that never tie at the next initiative (the game goes on
    when 3a ends)."""
    return ScriptedDice([*values, *[1, 1, 2, 1] * 200])


def _only(st: GameState, keep: set[str]) -> None:
    """Every unit but ``keep`` waits off the map for a turn that never comes (it takes no part)."""
    for u in st.units.values():
        if u.id in keep:
            continue
        s = status(u)
        u.hex = None
        s.off_map, s.arrives, s.embarked_in, s.towed_by, s.hidden = True, 99, None, None, False


def attack_phase(sid: str, dice: list[int] | None = None, first: list[int] = LOSE, **where: str) -> GameState:
    """The scenario with only the units named, placed as ``placed`` says (``"1008:n/4"``: entered 4 hexes this
    turn), every one activated: the Movement Phase ends and the Attack Phase opens (sighting in the same hex is
    automatic, 6.1). ``dice`` scripts the rolls from then on."""
    g = game(sid, first)
    spots = {uid: spec.split("/")[0] for uid, spec in where.items()}
    st = placed(g, **spots)
    _only(st, set(where))
    for uid, spec in where.items():
        s = status(st.units[uid])
        s.activated = True
        hexes = int(spec.split("/")[1]) if "/" in spec else 0
        s.hexes, s.half_mp = hexes, 2 * hexes
    d = data(st)
    d.quota, d.mover, d.active = 1, st.to_act, None
    last = st.units[next(iter(where))]
    status(last).activated = False
    st.dice = Dice(5)
    tr = Transition(st)
    sequence.end_activation(tr, ruleset().tables, last)
    out = tr.state
    if dice is not None:
        out.dice = script(*dice)
    return out


def legal(st: GameState) -> set[str]:
    return {str(a) for a in ruleset().legal_actions(st)}


def events(st: GameState, text: str) -> tuple[GameState, list[str]]:
    """The state after ``text`` (checked) and the texts of its events."""
    rs = ruleset()
    action = rs.parse_action(st, text)
    rs.check(st, action)
    tr = Transition(st.clone())
    rs.apply(tr, action)
    return tr.state, [e.text for e in tr.events]


def kinds(st: GameState, uid: str) -> list[str]:
    sheet = ruleset().tables.sheets[st.units[uid].type]
    return [sheet.rows[i - 1].kind for i in status(st.units[uid]).rows_hit]


# --- 14.10 through the ruleset --------------------------------------------------------------------------------


def test_14_10_ac_rm_01_panzer_iv_rams_a_t34_in_the_side() -> None:
    # H-2: G1 (Pz IV, 25 t, front 8) drove 4 hexes north into 1008, where S1 (T-34) faces NE: G1 strikes its side
    st = attack_phase("h2-height-212", G1="1008:n/4", S1="1008:ne")
    assert data(st).physical == "ram" and st.to_act == "german"
    assert legal(st) == {"ram G1 S1", "pass"}
    odds = ruleset().odds(st, ruleset().parse_action(st, "ram G1 S1"))
    assert odds is not None and "5 damage to S1 (side), 4 to G1" in odds.note
    st.dice = script(10, 10)  # a hit, then the rows
    st = play(st, "ram G1 S1")
    assert len(status(st.units["S1"]).rows_hit) == 5 and len(status(st.units["G1"]).rows_hit) == 4


def test_14_10_ac_rm_02_not_a_suicide_no_morale_roll_before_the_ram() -> None:
    st = attack_phase("h2-height-212", G1="1008:n/4", S1="1008:ne")
    odds = ruleset().odds(st, ruleset().parse_action(st, "ram G1 S1"))
    assert odds is not None and "suicide" not in odds.note
    assert sum(e.probability for e in odds) == 1 and {e.result for e in odds} == {"miss", "5 damage"}


def test_14_10_ac_rm_03_t34_rams_a_panzer_iv_in_the_rear() -> None:
    # S1 (T-34, 30.9 t, front 9) drove 6 hexes north; G1 faces north: the T-34 comes from behind it (rear 2)
    st = attack_phase("h2-height-212", first=WIN, S1="1008:n/6", G1="1008:n")
    assert st.to_act == "soviet" and "ram S1 G1" in legal(st)
    odds = ruleset().odds(st, ruleset().parse_action(st, "ram S1 G1"))
    assert odds is not None and "16 damage to G1 (rear), 6 to S1" in odds.note and "suicide" not in odds.note
    st.dice = script(10, 10)
    st = play(st, "ram S1 G1")
    g1 = status(st.units["G1"])
    assert g1.destroyed and st.units["G1"].hex is None  # 16 points on 14 rows: destroyed, it leaves at once
    assert len(status(st.units["S1"]).rows_hit) == 6


def test_14_10_ac_rm_07_a_vehicle_that_entered_no_hex_may_not_ram() -> None:
    st = attack_phase("h2-height-212", G1="1008:n", S1="1008:ne/2")
    assert "ram G1 S1" not in legal(st)
    st.to_act = "german"
    e = refused(st, "ram G1 S1")
    assert e.rule == "12.1" and "did not enter the target's hex" in str(e)


def test_14_10_ac_rm_08_vehicle_rams_infantry_one_damage_tn_without_terrain() -> None:
    # S4 (infantry, not moved: die 3 for MP kept, plus its hex's terrain, which the same hex ignores, 6.4)
    st = attack_phase("h2-height-212", G1="1008:n/1", S4="1008")
    odds = ruleset().odds(st, ruleset().parse_action(st, "ram G1 S4"))
    assert odds is not None
    assert odds.note.startswith("TN 13 = +4 base number (rule 6.3) +3 movement: 3 MP kept (rule 5) +2 firer moved")
    assert "+4 physical attack (rule 12.1)" in odds.note
    assert {e.result: e.probability for e in odds} == {"miss": Fraction(64, 100), "1 damage": Fraction(36, 100)}
    st.dice = script(10, 10)
    st = play(st, "ram G1 S4")
    assert len(status(st.units["S4"]).rows_hit) == 1 and status(st.units["G1"]).rows_hit == []


def test_14_10_ac_rm_09_ram_damage_goes_to_the_tracks_first_never_fuel_or_ammunition() -> None:
    st = attack_phase("h2-height-212", G1="1008:n/4", S1="1008:ne", dice=[10, 10])
    st, texts = events(st, "ram G1 S1")
    hit = kinds(st, "G1")
    assert "track_axle" in hit and "fuel_tank" not in hit and "ammunition" not in hit
    assert any(t.startswith("G1: rows 6, ") for t in texts)  # row 6, its tracks, takes the first point


# --- 12: who rams, suicide, close combat ------------------------------------------------------------------------


def test_12_1_only_vehicles_ram_and_only_infantry_assaults() -> None:
    st = attack_phase("h2-height-212", S4="1008", G1="1008:n/2")
    st.to_act = "soviet"
    data(st).physical = "ram"
    assert refused(st, "ram S4 G1").rule == "12.1"
    data(st).physical = "assault"
    st.to_act = "german"
    e = refused(st, "assault G1 S4")
    assert e.rule == "12.1" and "only infantry" in str(e)


def test_12_1_a_vehicle_rams_once_per_turn() -> None:
    st = attack_phase("h2-height-212", G1="1008:n/4", S1="1008:ne", S2="1008:n", dice=[2, 1])
    st = play(st, "ram G1 S1")  # missed (2 + 1)
    assert "ram G1 S2" not in legal(st)


def test_12_3_a_suicide_ram_rolls_morale_at_minus_6_and_a_failure_dissolves_the_rammer() -> None:
    # G5 (Opel Blitz, 3.3 t, armour 0) drove 3 hexes into a T-34: it would take 9 damage on 5 rows (AC-RM-05 rule)
    st = attack_phase("h2-height-212", G5="1008:n/3", S1="1008:n")
    odds = ruleset().odds(st, ruleset().parse_action(st, "ram G5 S1"))
    assert odds is not None and "suicide attack" in odds.note
    assert odds.probability("rammer dissolves (suicide attack)") > 0
    st.dice = script(10, 10)  # the morale roll fails: the unit dissolves without ramming
    st = play(st, "ram G5 S1")
    assert status(st.units["G5"]).destroyed and status(st.units["S1"]).rows_hit == []


def test_12_1_infantry_close_combat_after_the_rams() -> None:
    st = attack_phase("h2-height-212", first=WIN, G4="1008", S4="1008", G1="1008:n/2", S1="1008:n/1")
    assert data(st).physical == "ram" and st.to_act == "german"
    st = play(st, "pass")  # the Germans ram no more; the Soviets ram
    assert st.to_act == "soviet" and "ram S1 G1" in legal(st)
    st = play(st, "pass")
    assert data(st).physical == "assault" and st.to_act == "german"
    assert legal(st) == {"assault G4 S4", "assault G4 S1", "pass"}
    odds = ruleset().odds(st, ruleset().parse_action(st, "assault G4 S4"))
    assert odds is not None and "+4 physical attack (rule 12.1)" in odds.note and "-10 10 shooters" in odds.note


def test_12_3_infantry_that_attacked_in_close_combat_does_not_fire_in_3b() -> None:
    st = attack_phase("h2-height-212", first=WIN, G4="1008", S4="1008", dice=[1, 2])
    assert status(st.units["G4"]).may_fire  # it could fire before it attacked
    st = play(st, "assault G4 S4", "pass")  # missed; the Soviets do not attack
    assert data(st).physical is None and st.phase == "attack"
    assert status(st.units["G4"]).assaulted and not status(st.units["G4"]).may_fire
    assert status(st.units["S4"]).may_fire and st.to_act == "soviet"


def test_9_3_infantry_attacking_armour_rolls_morale_first() -> None:
    st = attack_phase("h2-height-212", S4="1008", G1="1008:n")
    st.to_act = "soviet"
    data(st).physical = "assault"
    action = ruleset().parse_action(st, "assault S4 G1")
    ruleset().check(st, action)
    odds = ruleset().odds(st, action)
    assert odds is not None and "rolls morale first (rule 9.3)" in odds.note and sum(e.probability for e in odds) == 1
    st.dice = script(10, 10, 2, 1)  # 20 fails the morale roll (shaken, not dissolved); the attack is still made
    st, texts = events(st, "assault S4 G1")
    assert any(t.startswith("S4 rolls 20 for morale (infantry attacking armour) against 14: shaken") for t in texts)
    assert status(st.units["S4"]).shaken
    assert any("close combat: 3 miss" in t and "+5 firer shaken (rule 9.5)" in t for t in texts)


# --- 3.2: the order of 3a ----------------------------------------------------------------------------------------


def test_3_2_without_a_physical_attack_the_fire_phase_begins_at_once() -> None:
    st = attack_phase("h2-height-212", G1="1008:n/4", S1="1110:n")
    assert data(st).physical is None


def test_3_2_fire_waits_for_the_physical_attacks() -> None:
    st = attack_phase("h2-height-212", G1="1008:n/4", S1="1008:ne")
    e = refused(st, "fire G1 S1 KWK40")
    assert e.rule == "3.2" and "physical attacks" in str(e)
    assert refused(attack_phase("h2-height-212", G1="1008:n/4", S1="1110:n"), "pass").rule == "3.2"


def test_3_2_rams_alternate_the_initiative_loser_first() -> None:
    st = attack_phase("h2-height-212", first=WIN, G1="1008:n/2", G2="1008:n/2", S1="1008:n/1", dice=[2, 1, 2, 1])
    assert st.to_act == "german"
    st = play(st, "ram G1 S1")
    assert st.to_act == "soviet"
    st = play(st, "ram S1 G1")
    assert st.to_act == "german" and legal(st) == {"ram G2 S1", "pass"}


def test_3_2_a_unit_destroyed_by_a_ram_does_not_fire_in_3b() -> None:
    st = attack_phase("h2-height-212", first=WIN, S1="1008:n/6", G1="1008:n", dice=[10, 10])
    st = play(st, "ram S1 G1")
    assert data(st).physical is None and not status(st.units["G1"]).may_fire


def _nearest(st: GameState, uid: str, label: str) -> int:
    """How far the hex ``label`` is from the nearest enemy unit on the map of ``uid``'s side."""
    h = parse_hex(label)
    side = st.units[uid].side
    return min((distance(h, e.hex) for e in st.units.values() if e.side != side and e.hex is not None), default=99)


def _closing_in(g: Game, rng: random.Random) -> Action:
    """A playout policy that seeks contact: a physical attack when there is one (a pass now and then), else mostly
    the move that ends nearest an enemy unit, else any legal action."""
    acts = g.legal_actions()
    attacks = [a for a in acts if a.verb in ("ram", "assault")]
    if attacks:
        return Action("pass", ()) if rng.random() < 0.15 else rng.choice(attacks)
    moves = [a for a in acts if a.verb == "move"]
    if moves and rng.random() < 0.9:
        return min(moves, key=lambda a: (_nearest(g.state, str(a.args[0]), str(a.args[1])), str(a)))
    return rng.choice(acts)


def test_3_2_physical_attacks_in_seeded_playouts_that_seek_contact() -> None:
    """Seeded playouts of every scenario whose units close in on the enemy: rams and close combat are offered and
    made, 3a offers only the attacks of its step and ``pass``, ``check`` refuses exactly what it leaves out (citing a
    rule), and the games go on into 3b and the next turns."""
    verbs: set[str] = set()
    for sid in ("h1-le-hamel", "h2-height-212", "h3-bridge-at-dusk"):
        for seed in range(2):
            g = game(sid, seed=seed)
            rng = random.Random(seed)
            while g.state.outcome is None and g.state.turn <= 4:
                if data(g.state).physical is not None:
                    _check_3a(g)
                action = _closing_in(g, rng)
                verbs.add(action.verb)
                g.apply(action)
            assert g.state.outcome is not None or g.state.turn == 5
    assert {"ram", "assault", "pass"} <= verbs


def _check_3a(g: Game) -> None:
    step = data(g.state).physical
    legal = set(g.legal_actions())
    assert g.state.phase == "attack" and {a.verb for a in legal} <= {step, "pass"}
    for action in sorted(candidates(g), key=str):
        try:
            g.ruleset.check(g.state, action)
            ok = True
        except IllegalActionError as e:
            ok = False
            assert e.rule, f"{action}: {e} names no rule"
        assert ok == (action in legal), action


def test_12_1_refusals_cite_their_rule() -> None:
    st = attack_phase("h2-height-212", first=WIN, G1="1008:n/2", G4="1008", S1="1008:n/1", S2="1110:n")
    assert st.to_act == "german" and data(st).physical == "ram"
    e = refused(st, "ram G1 S2")
    assert e.rule == "12.1" and "is not in the hex of G1" in str(e)
    assert refused(st, "ram G1 G4").rule == "12.1"  # not an enemy
    status(st.units["G1"]).sighted = []
    e = refused(st, "ram G1 S1")
    assert e.rule == "6.1" and "has not sighted" in str(e)
    e = refused(st, "assault G4 S1")
    assert e.rule == "3.2" and "rams are made first" in str(e)
    assert refused(st, "hold").rule == "3.2" and refused(st, "stand G4").rule == "3.2"


def test_12_3_infantry_that_fired_on_opportunity_makes_no_close_combat_attack() -> None:
    st = attack_phase("h2-height-212", first=WIN, G4="1008", S4="1008")
    assert "assault G4 S4" in legal(st)
    status(st.units["G4"]).opp_fired = True
    assert "assault G4 S4" not in legal(st)
    assert refused(st, "assault G4 S4").rule == "12.3"


def test_12_2_a_gun_is_rammed_like_a_vehicle_its_points_on_the_gun_table() -> None:
    # G6 (PaK 40, 1.425 t) faces north; S1 (T-34, 30.9 t) drove 2 hexes north into it, from behind
    st = attack_phase("h2-height-212", first=WIN, S1="1008:n/2", G6="1008:n")
    odds = ruleset().odds(st, ruleset().parse_action(st, "ram S1 G6"))
    assert odds is not None and "6 damage to G6 (rear), 0 to S1" in odds.note
    st.dice = script(10, 10)
    st, texts = events(st, "ram S1 G6")
    assert any(t.startswith("G6: rows ") for t in texts) and status(st.units["S1"]).rows_hit == []
    g6 = status(st.units["G6"])
    assert len(g6.rows_hit) == min(6, ruleset().tables.sheets["GER-PAK40"].possible_damage) or g6.destroyed


def test_12_1_the_ais_score_of_a_ram_counts_the_damage_to_the_rammer() -> None:
    """AC-RM-01: on a hit 5 damage to S1 and 4 to G1; the AI's score is the position plus the hit chance times
    5 - 4, not times 5 (closecombat.ram_net)."""
    st = attack_phase("h2-height-212", G1="1008:n/4", S1="1008:ne")
    rs = ruleset()
    ram = rs.parse_action(st, "ram G1 S1")
    odds = rs.odds(st, ram)
    assert odds is not None
    hit = float(odds.probability("5 damage"))
    score = rs.ai_score(st, ram, "german")
    assert score is not None and abs(score - (rs.evaluate(st, "german") + hit * (5 - 4))) < 1e-9
    assert rs.ai_score(st, Action("pass", ()), "german") is None  # other decisions: the planner's own scores
