"""The carry-over: hand-made final states, then whole campaigns played to their end by random agents."""

from __future__ import annotations

import pytest

import engine
from engine.ai.players import make_agent
from engine.campaign import (
    Campaign,
    RosterEntry,
    apply_replacements,
    auto_replacements,
    battle_scenario,
    carry_over,
    initial_roster,
    list_campaigns,
    load_campaign,
)
from engine.rules import get_ruleset
from tests.campaign.helpers import play_out


@pytest.fixture(scope="module")
def mai() -> Campaign:
    return load_campaign("blitzkrieg1940", "mai-1940")


def hannut_end(mai: Campaign, steps: dict[str, int]) -> tuple[dict[str, RosterEntry], engine.GameState]:
    """Battle 1 set up, then a final state made by hand: ``steps`` are the units' steps at the end."""
    roster = initial_roster(mai)
    game = engine.new_game(battle_scenario(mai, "hannut", roster), seed=1)
    st = game.state.clone()
    for uid, n in steps.items():
        st.units[uid].steps = n
        if n == 0:
            st.units[uid].hex = None
    return roster, st


def test_losses_carry_under_the_mapped_ids(mai: Campaign) -> None:
    roster, st = hannut_end(mai, {"ger-i35pzr-pz2": 0, "ger-i33schr-sch-3": 1, "fra-12kur-mot-2": 1})
    co = carry_over(st, "french", roster, mai, "hannut")  # a resignation: the caller names the winner
    assert (co.result, co.next, co.points) == ("loss", "stonne", 0)
    r = co.roster
    assert r["ger-iipzr-pz2"].lost and r["ger-iipzr-pz2"].was == ("ger-i35pzr-pz2",)
    assert r["ger-i69schr-sch-3"].steps == 1 and r["ger-i69schr-sch-3"].losses == 1
    assert r["fra-6grdi-mot-2"].steps == 1
    assert "ger-i35pzr-pz2" not in r  # renamed, not copied
    assert r["ger-i35pzr-pz1-1"].steps == 2  # no PZ1 at Stonne: kept in the roster, out of the battle
    sc = battle_scenario(mai, "stonne", r)
    ids = {u.id: u for u in sc.units}
    assert "ger-iipzr-pz2" not in ids  # lost at Hannut: not in battle 2
    assert ids["ger-i69schr-sch-3"].steps == 1  # steps lost stay lost
    assert ids["fra-6grdi-mot-2"].steps == 1
    assert ids["ger-iipzr-pz4"].steps is None  # carried at full strength
    game = engine.new_game(sc, seed=2)
    assert "ger-iipzr-pz2" not in game.state.units
    assert game.state.units["ger-i69schr-sch-3"].steps == 1
    notes = {n.unit: n for n in co.notes}
    assert notes["ger-i35pzr-pz2"].what == "lost"
    assert "PROPOSED" in notes["ger-iipzr-pz4"].why


@pytest.mark.parametrize(("winner", "result", "points"), [("german", "win", 3), ("draw", "draw", 1)])
def test_every_ending_is_carried_the_same_way(mai: Campaign, winner: str, result: str, points: int) -> None:
    roster, st = hannut_end(mai, {"ger-i33schr-sch-1": 1})
    co = carry_over(st, winner, roster, mai, "hannut")
    assert (co.result, co.points, co.next) == (result, points, "stonne")
    assert co.roster["ger-i69schr-sch-1"].steps == 1


@pytest.mark.parametrize("side", ["german", "french"])
def test_a_resignation_is_carried_like_any_other_ending(mai: Campaign, side: str) -> None:
    """Game.resign mid-battle: the result is the resigning side's loss, and the force carries over exactly as the
    position stood when it resigned (the same roster as an ending by the rules in that position)."""
    roster = initial_roster(mai)
    game = engine.new_game(battle_scenario(mai, "hannut", roster), seed=4)
    agents = {s: make_agent("random", 40 + i) for i, s in enumerate(game.scenario.side_ids())}
    engine.take_scenario_setup(game)
    for _ in range(120):  # some fighting first, so that steps are lost
        if engine.take_scenario_setup(game) or game.to_act is None:
            continue
        game.apply(agents[game.to_act].choose(game.view(game.to_act), 1.0), side=game.to_act)
    assert game.outcome is None
    before = game.state
    game.resign(side)
    outcome = game.outcome
    assert outcome is not None and outcome.winner != side and "resigned" in outcome.reason
    co = carry_over(game.state, outcome.winner, roster, mai, "hannut")
    same = carry_over(before, outcome.winner, roster, mai, "hannut")
    assert co.roster == same.roster and co.notes == same.notes
    carried_side_result = "loss" if side == mai.side else "win"  # results are the campaign side's
    assert co.result == carried_side_result and co.next == "stonne"
    assert any(e.losses for e in co.roster.values()), "the battle cost nothing: the test shows too little"


def test_the_last_battle_ends_the_campaign(mai: Campaign) -> None:
    roster, st = hannut_end(mai, {})
    co = carry_over(st, "german", roster, mai, "hannut")
    game = engine.new_game(battle_scenario(mai, "stonne", co.roster), seed=3)
    end = carry_over(game.state, "german", co.roster, mai, "stonne")
    assert end.next is None and end.result == "win"


def test_replacements(mai: Campaign) -> None:
    lost = {"ger-i35pzr-pz2": 0, "ger-i33schr-sch-3": 1, "ger-i33schr-sch-2": 1, "ger-i33schr-mgg": 1}
    roster, st = hannut_end(mai, lost)
    r = carry_over(st, "french", roster, mai, "hannut").roster
    picks = auto_replacements(r, mai, "stonne", "german")  # 2 points: the weakest first, then by id
    assert picks == ["ger-i69schr-mgg", "ger-i69schr-sch-2"]
    picks = ["ger-i69schr-sch-3", "ger-i69schr-sch-2"]
    after, notes = apply_replacements(r, mai, "stonne", "german", picks)
    assert after["ger-i69schr-sch-3"].steps == 2 and len(notes) == 2
    assert r["ger-i69schr-sch-3"].steps == 1  # pure: the roster given is unchanged
    with pytest.raises(ValueError, match="lost for good"):
        apply_replacements(r, mai, "stonne", "german", ["ger-iipzr-pz2"])
    with pytest.raises(ValueError, match="points left"):
        apply_replacements(r, mai, "stonne", "german", ["ger-i69schr-sch-3", "ger-i69schr-sch-2", "ger-i69schr-mgg"])
    with pytest.raises(ValueError, match="full strength"):
        apply_replacements(r, mai, "stonne", "german", ["ger-iipzr-pz4"])


CAMPAIGNS = [c for c in list_campaigns() if isinstance(c, Campaign)]


@pytest.mark.parametrize("camp", CAMPAIGNS, ids=lambda c: f"{c.ruleset}/{c.id}")
@pytest.mark.parametrize(("agent", "seed"), [("random", 1), ("random", 2), ("random", 3), ("greedy", 1), ("greedy", 2)])
def test_whole_campaigns_carry_exactly_what_the_rules_say(camp: Campaign, agent: str, seed: int) -> None:
    """Each shipped campaign played to its end, AI against AI (the random and the greedy baselines), each side
    buying its replacements as the AI does: every unit lost is absent from the next battle, every unit down steps
    starts it with the roster's steps, every other unit as its scenario sets it up, and the roster after each
    battle holds every unit as the battle ended."""
    roster = initial_roster(camp)
    battle: str | None = camp.first.id
    number = 0
    while battle is not None:
        number += 1
        if number > 1:
            for side in camp.carry:
                roster, _ = apply_replacements(
                    roster, camp, battle, side, auto_replacements(roster, camp, battle, side)
                )
        sc = battle_scenario(camp, battle, roster)
        plain = engine.load_scenario(camp.ruleset, camp.battle(battle).scenario)
        game = engine.new_game(sc, seed=seed * 10 + number)
        at_start = {uid: u.steps for uid, u in game.state.units.items()}
        fresh = {uid: u.steps for uid, u in engine.new_game(plain, seed=0).state.units.items()}
        assert set(at_start) <= set(fresh), f"units no scenario sets up: {sorted(set(at_start) - set(fresh))}"
        for uid, steps in fresh.items():
            e = roster.get(uid)
            spec = plain.unit(uid).steps
            if e is not None and e.side in camp.carry and e.lost:
                assert uid not in at_start, f"{uid} was lost, yet fights {battle}"
            elif e is not None and e.side in camp.carry and e.full > 0 and e.steps != (spec or e.full):
                assert at_start[uid] == e.steps, f"{uid}: {at_start[uid]} steps at {battle}, roster says {e.steps}"
            else:  # nothing else changes: every other unit is as the scenario sets it up
                assert at_start[uid] == steps, uid
        play_out(game, seed, agent)
        outcome = game.outcome
        assert outcome is not None
        co = carry_over(game.state, outcome.winner, roster, camp, battle)
        renamed = {n.what.split()[1]: n.unit for n in co.notes if n.what.startswith("is ")}  # mapped units
        for uid, u in game.state.units.items():  # every unit of the battle is in the roster, as it ended
            if u.side not in camp.carry:
                continue
            e = co.roster[renamed.get(uid, uid)]
            assert e.steps == max(0, get_ruleset(camp.ruleset).carried_steps(u)) or e.full == 0  # the ruleset's
        roster, battle = co.roster, co.next
    assert number == len(camp.battles)


def test_card_points_rebuild_a_lost_platoon() -> None:
    kg = load_campaign("art_of_tactic", "kampfgruppe")
    assert len(kg.battles) >= 5 and kg.carry == ("german",)
    roster = initial_roster(kg)
    game = engine.new_game(battle_scenario(kg, "o1-waldrand", roster), seed=1)
    st = game.state.clone()
    st.units["ger-4-inf"].steps, st.units["ger-4-inf"].hex = 0, None  # destroyed
    st.units["ger-6-mg"].steps -= 1
    co = carry_over(st, "soviet", roster, kg, "o1-waldrand")
    assert co.roster["ger-2-inf"].lost and co.roster["ger-2-inf"].was == ("ger-4-inf",)
    assert "ger-2-inf" not in {u.id for u in battle_scenario(kg, "o2-furt", co.roster).units}
    picks = auto_replacements(co.roster, kg, "o2-furt", "german")
    # 30 points at the card costs per step (infantry 16 / 5 steps → 4, MG 13 / 2 steps → 7): all 27 are paid
    assert sorted(picks) == ["ger-2-inf"] * 5 + ["ger-6-mg"] and picks[0] == "ger-2-inf"  # the weakest first
    after, notes = apply_replacements(co.roster, kg, "o2-furt", "german", picks)
    assert after["ger-2-inf"].steps == 5 and after["ger-6-mg"].steps == 2
    assert notes[0].what == "rebuilt" and "4 points" in notes[0].why
    with pytest.raises(ValueError, match="full strength"):
        apply_replacements(co.roster, kg, "o2-furt", "german", ["ger-2-inf"] * 6)
