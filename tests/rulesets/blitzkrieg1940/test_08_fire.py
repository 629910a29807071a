"""Blitzkrieg 1940 section 8 (fire), 10.1 (mines), 10.2 (fortifications) and 12.1 (APC combined fire): acceptance
cases AC-44 to AC-55, AC-62, AC-63 and one test per fire modifier of 13.2.

Every state is built on the proposed Hannut map (digest 13.9, ``scenarios/blitzkrieg1940/hannut.map``) under the
ruleset's terrain classes; every number comes from the data files through ``load_tables()`` except the digest's
printed expectations, which the tests restate.
"""

from __future__ import annotations

import copy
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.actions import Action
from engine.board import Board
from engine.dice import ScriptedDice
from engine.errors import IllegalActionError
from engine.hexgrid import distance
from engine.rules import Transition
from engine.rulesets.blitzkrieg1940 import model
from engine.rulesets.blitzkrieg1940 import model as bk
from engine.rulesets.blitzkrieg1940.combat import (
    RESULT_VALUES,
    Factor,
    Shot,
    attack_factor,
    dispersed,
    fire_odds,
    group_fire,
    in_column,
    indirect_attack,
    indirect_value,
    mine_attack,
    neutralise,
    odds_entries,
    rally_roll,
    resolve,
    roll_fire,
    step_loss,
    take_step_instead,
    transmission_needed,
    transmission_target,
    transmit,
    update_fortification,
)
from engine.rulesets.blitzkrieg1940.data import RESULTS, load_tables
from engine.rulesets.blitzkrieg1940.frames import handler
from engine.rulesets.blitzkrieg1940.ruleset import Blitzkrieg1940
from engine.rulesets.blitzkrieg1940.sight import SightRules, can_see
from engine.scenario import parse_map
from engine.state import GameState, Unit

from .helpers import event_texts, refusal, skirmish

MAPS = Path(__file__).resolve().parents[3] / "scenarios" / "blitzkrieg1940"
T = load_tables()

# Hannut hexes used below (terrain checked in test_hexes_used_have_the_expected_terrain).
OPEN_A, OPEN_B, OPEN_C = "0905", "1005", "0907"  # 0905–1005 adjacent, 0905–0907 distance 2
ORP_LE_PETIT = "0504"  # village (seed Stuka example)
VILLAGE_EDGE = "0505"  # open, adjacent to Orp-le-Petit
WOODS, ORCHARD = "0306", "0703"
HQ_HEX, ADJ_HEX, FAR_HEX = "1008", "1009", "1011"  # all open; 1008–1009 adjacent, 1008–1011 distance 3


@cache
def hannut() -> Board:
    path = MAPS / "hannut.map"
    return Board(parse_map(path.read_text(encoding="utf-8"), str(path)), T.terrain.codes)


def unit(
    uid: str,
    utype: str,
    side: str,
    where: str | None,
    *,
    steps: int | None = None,
    formation: str | None = None,
    **status: Any,
) -> Unit:
    """A unit on the Hannut map at its type's full strength (an HQ: 0 steps, 1.3) unless ``steps`` is given; the
    formation defaults to the side's test formation."""
    fid = formation if formation is not None else ("ger-a" if side == "german" else "fra-a")
    n = T.units[utype].steps if steps is None else steps
    return Unit(uid, utype, side, hannut().parse(where) if where else None, n, fid, model.Status(**status))


def mounted(apc: Unit, company: Unit) -> tuple[Unit, Unit]:
    """Put the company on board the APC (12.1 [P]; the status keys of :mod:`.combat`)."""
    bk.status(apc).carrying, bk.status(company).carried_by = company.id, apc.id
    return apc, company


def form(
    side: str, name: str, ff: int, total: int, *, lost: int = 0, hq: str | None = None, exhausted: bool = False
) -> model.Formation:
    rec = model.new_formation(side, name, hq, ff)
    rec.steps_total, rec.steps_lost, rec.exhausted = total, lost, exhausted
    return rec


def game(
    *units: Unit,
    dice: tuple[int, ...] = (),
    formations: dict[str, model.Formation] | None = None,
    forts: tuple[str, ...] = (),
    mines: dict[str, str] | None = None,
) -> GameState:
    """A test state: German test formation FF 9 and French FF 8, both 10 steps, unless given."""
    forms = formations or {
        "ger-a": form("german", "German test battalion", 9, 10),
        "fra-a": form("french", "French test battalion", 8, 10),
    }
    return GameState(
        ruleset="blitzkrieg1940",
        scenario="test",
        sides=("german", "french"),
        board=hannut(),
        units={u.id: u for u in units},
        phase="operations",
        data=model.new_data(formations=forms, forts=list(forts), mines=dict(mines or {})),
        dice=ScriptedDice(list(dice)),
    )


def factor(s: GameState, attacker: str | None, target: str, **kw: Any) -> Factor:
    return attack_factor(T, s, s.units[attacker] if attacker else None, s.units[target], **kw)


def reasons(f: Factor) -> str:
    return " | ".join(m.reason for m in f.modifiers)


def rolls(tr: Transition) -> list[int]:
    return [e.data["total"] for e in tr.events if e.kind == "roll"]


def test_hexes_used_have_the_expected_terrain() -> None:
    b = hannut()
    for label in (OPEN_A, OPEN_B, OPEN_C, VILLAGE_EDGE, HQ_HEX, ADJ_HEX, FAR_HEX):
        assert b.terrain(b.parse(label)) == "open", label
    assert (b.terrain(b.parse(ORP_LE_PETIT)), b.terrain(b.parse(WOODS)), b.terrain(b.parse(ORCHARD))) == (
        "village",
        "woods",
        "orchard",
    )
    assert b.place_of(b.parse(ORP_LE_PETIT)) == "Orp-le-Petit"
    assert distance(b.parse(OPEN_A), b.parse(OPEN_B)) == 1
    assert distance(b.parse(OPEN_A), b.parse(OPEN_C)) == 2
    assert distance(b.parse(ORP_LE_PETIT), b.parse(VILLAGE_EDGE)) == 1
    assert distance(b.parse(HQ_HEX), b.parse(ADJ_HEX)) == 1
    assert distance(b.parse(HQ_HEX), b.parse(FAR_HEX)) == 3


# --- 14.5 Fire -------------------------------------------------------------------------------------------------


def test_ac44_8_2_1_attack_factor() -> None:
    s = game(
        unit("s35", "S35", "french", OPEN_A),
        unit("pz3", "PZ3", "german", OPEN_B),
        unit("at47", "AT47", "french", OPEN_A, steps=1),
        unit("sch", "SCH", "german", OPEN_B),
        unit("pz1", "PZ1", "german", OPEN_B),
        unit("h39", "H39", "french", OPEN_A),
    )
    # Attack value 8 against armour 3 → attack factor 5.
    f = factor(s, "s35", "pz3", fire="direct")
    assert (f.base, f.armour_step and f.armour_step.value, f.modifiers, f.final, f.column) == (8, -3, (), 5, 5)
    # AT unit with attack 7 (the AT47's reduced side) against infantry → ⌈7/2⌉ = 4 (F18).
    f = factor(s, "at47", "sch", fire="direct")
    assert (f.base, f.final, f.column) == (7, 4, 4)
    assert f.armour_step is not None and "F18" in f.armour_step.reason
    # Final factor −2 → no fire; −1 → column −1.
    f = factor(s, "pz1", "s35", fire="direct")
    assert (f.final, f.column, f.can_fire) == (-2, None, False)
    assert "cannot fire (rule 8.2 step 3)" in f.explain()
    f = factor(s, "pz1", "h39", fire="direct")
    assert (f.final, f.column, f.can_fire) == (-1, -1, True)


def test_ac45_8_6_1_stuka_example() -> None:
    """The seed's French tank of defence 3 has no French counter in 13.7: a PZ3 type (armour 3) stands in for it,
    set on the French side."""
    forms = {
        "fra-kur": form("french", "1. Kürassiere", 8, 10),
        "fra-rdp": form("french", "I/11 RDP", 8, 8),
    }
    s = game(
        unit("fra-s35", "S35", "french", ORP_LE_PETIT, formation="fra-kur"),
        unit("fra-tank3", "PZ3", "french", ORP_LE_PETIT, formation="fra-kur"),
        unit("fra-drg", "DRG", "french", ORP_LE_PETIT, formation="fra-rdp"),
        dice=(5, 6),
        formations=forms,
    )
    stuka = indirect_value(T, "stuka")
    assert stuka == 8
    cols = {uid: factor(s, None, uid, fire="indirect", attack_value=stuka) for uid in s.units}
    assert {uid: f.column for uid, f in cols.items()} == {"fra-drg": 6, "fra-tank3": 6, "fra-s35": 4}
    assert "F12" in reasons(cols["fra-drg"]) and "F11" not in reasons(cols["fra-drg"])
    assert "F11" in reasons(cols["fra-s35"]) and "F12" not in reasons(cols["fra-s35"])

    tr = Transition(s)
    results = indirect_attack(tr, T, s, hannut().parse(ORP_LE_PETIT), stuka, "Stuka attack on Orp-le-Petit")
    assert results == {"fra-drg": "step", "fra-tank3": "step", "fra-s35": "n"}
    assert rolls(tr) == [11]  # one roll for all three
    assert (s.units["fra-drg"].steps, s.units["fra-tank3"].steps, s.units["fra-s35"].steps) == (1, 1, 2)
    assert bk.status(s.units["fra-s35"]).neutralised is True
    fire = {e.data["unit"]: e for e in tr.events if e.kind == "fire"}
    assert fire["fra-s35"].data["may_exchange"] is True
    assert forms["fra-kur"].steps_lost == 1 and forms["fra-rdp"].steps_lost == 1


def test_ac46_8_6_1_artillery_example() -> None:
    s = game(
        unit("fra-hq", "hq_fr", "french", HQ_HEX),
        unit("ger-sch1", "SCH", "german", FAR_HEX),
        unit("ger-sch2", "SCH", "german", FAR_HEX),
        unit("ger-sch3", "SCH", "german", FAR_HEX),
        unit("ger-sch4", "SCH", "german", ADJ_HEX),
        dice=(4, 5, 4, 5),
    )
    b = hannut()
    chit = dict(T.artillery.salvos["hannut"]["french"].artillery)
    assert chit == {"medium": 2, "light": 2}
    medium = indirect_value(T, "medium")
    tr = Transition(s)
    hq = s.units["fra-hq"]

    # Salvo 1 (105 mm): observer with LOS, not adjacent; transmission roll 9 → failed, salvo lost.
    assert can_see(b, b.parse(HQ_HEX), b.parse(FAR_HEX), "small", True, SightRules()).visible
    assert transmission_needed(b, b.parse(HQ_HEX), b.parse(FAR_HEX), T)
    assert transmit(tr, T, hq, b.parse(FAR_HEX)) is False
    chit["medium"] -= 1
    assert all(
        s.units[u].status == model.Status() and s.units[u].steps == 2 for u in ("ger-sch1", "ger-sch2", "ger-sch3")
    )

    # Salvo 2 (105 mm) on a hex adjacent to the HQ: automatic; column 5 − 0 + 0; roll 9 → red N → neutralised.
    assert not transmission_needed(b, b.parse(HQ_HEX), b.parse(ADJ_HEX), T)
    assert transmit(tr, T, hq, b.parse(ADJ_HEX)) is True
    assert factor(s, None, "ger-sch4", fire="indirect", attack_value=medium).column == 5
    results = indirect_attack(tr, T, s, b.parse(ADJ_HEX), medium, "French 105 mm salvo 2")
    chit["medium"] -= 1
    assert results == {"ger-sch4": "red_n"}
    assert bk.status(s.units["ger-sch4"]).neutralised is True
    assert rolls(tr) == [9, 9]
    assert chit == {"medium": 0, "light": 2}  # two 75 mm salvos remain


def test_ac47_8_6_1_neutralised_observer() -> None:
    assert transmission_target(T, observer_neutralised=False) == 8
    assert transmission_target(T, observer_neutralised=True) == 7
    for dice, ok in (((4, 4), False), ((3, 4), True)):
        s = game(unit("fra-hq", "hq_fr", "french", HQ_HEX, neutralised=True), dice=dice)
        tr = Transition(s)
        assert transmit(tr, T, s.units["fra-hq"], hannut().parse(FAR_HEX)) is ok
        (roll,) = [e for e in tr.events if e.kind == "roll"]
        assert roll.data["net"] == sum(dice) + 1 and roll.data["target"] == 8


def test_ac48_8_3_red_n_vs_armour() -> None:
    s = game(
        unit("pz3", "PZ3", "german", OPEN_B),
        *mounted(unit("apc", "APC", "german", OPEN_B), unit("sch-m", "SCH", "german", OPEN_B)),
        unit("acg", "ACG", "german", OPEN_B),
        unit("sch", "SCH", "german", OPEN_B),
        unit("hq", "hq_de", "german", OPEN_B),
    )
    assert T.crt.result(5, 9) == "red_n" and T.crt.result(5, 10) == "n"
    for uid in ("pz3", "apc", "sch-m", "acg", "hq"):
        assert resolve(T, 5, 9, s.units[uid]) == "-", uid
    assert resolve(T, 5, 9, s.units["sch"]) == "red_n"
    assert resolve(T, 5, 10, s.units["pz3"]) == "n"

    # Black N against a tank → neutralised, or the owner takes a step loss instead.
    tr = Transition(s)
    neutralise(tr, T, s.units["pz3"], "black N")
    assert bk.status(s.units["pz3"]).neutralised is True
    take_step_instead(tr, T, s.units["pz3"], "black N")
    assert s.units["pz3"].steps == 1 and not bk.status(s.units["pz3"]).neutralised
    with pytest.raises(ValueError, match=r"rule 8\.3"):
        take_step_instead(tr, T, s.units["hq"], "N")
    # An N neutralises both halves of a mounted pair (12.1 [P]).
    neutralise(tr, T, s.units["apc"], "N")
    assert bk.status(s.units["sch-m"]).neutralised is True


def test_ac49_8_3_step_loss_flip_then_eliminate() -> None:
    s = game(unit("pz3", "PZ3", "german", OPEN_B))
    tr = Transition(s)
    u = s.units["pz3"]
    step_loss(tr, T, u, "fire")
    assert (u.steps, u.hex, u.is_on_map) == (1, hannut().parse(OPEN_B), True)
    step_loss(tr, T, u, "fire")
    assert (u.steps, u.hex, u.is_on_map) == (0, None, False)
    assert [e.kind for e in tr.events] == ["loss", "eliminated"]
    assert bk.data(s).formations["ger-a"].steps_lost == 2
    with pytest.raises(ValueError, match="not on the map"):
        step_loss(tr, T, u, "fire")


def test_ac20_3_2_hq_step_loss_is_applied_as_n() -> None:
    s = game(unit("hq", "hq_de", "german", OPEN_B))
    hq = s.units["hq"]
    tr = Transition(s)
    assert resolve(T, 12, 12, hq) == "n"
    step_loss(tr, T, hq, "fire")
    assert (hq.steps, hq.hex is not None, bk.status(hq).neutralised) == (0, True, True)
    step_loss(tr, T, hq, "fire")  # a further N on a neutralised HQ: no panic test, no effect (no dice scripted)
    assert bk.status(hq).neutralised is True
    assert bk.data(s).formations["ger-a"].steps_lost == 0
    with pytest.raises(ValueError, match=r"rule 8\.3"):
        take_step_instead(tr, T, hq, "N")


def test_8_6_1_indirect_fire_attacks_every_unit_in_the_hex_hqs_and_both_sides() -> None:
    s = game(unit("hq", "hq_de", "german", ADJ_HEX), unit("fin", "FIN", "french", ADJ_HEX), dice=(6, 6))
    tr = Transition(s)
    out = indirect_attack(tr, T, s, hannut().parse(ADJ_HEX), indirect_value(T, "heavy"), "German 150 mm salvo")
    assert out == {"fin": "step", "hq": "n"}
    assert bk.status(s.units["hq"]).neutralised is True and s.units["hq"].hex is not None


@pytest.mark.parametrize(
    ("exhausted", "dice", "loses"),
    [(False, (4, 5), True), (False, (4, 4), False), (True, (3, 4), True), (True, (3, 3), False)],
    ids=["ff8-roll9-loss", "ff8-roll8-holds", "ff6-roll7-loss", "ff6-roll6-holds"],
)
def test_ac50_8_4_panic_test(exhausted: bool, dice: tuple[int, int], loses: bool) -> None:
    forms = {"fra-a": form("french", "2. Kürassiere", 8, 10, exhausted=exhausted)}
    s = game(unit("h39", "H39", "french", OPEN_A, neutralised=True), dice=dice, formations=forms)
    tr = Transition(s)
    u = s.units["h39"]
    neutralise(tr, T, u, "second N")
    assert rolls(tr) == [sum(dice)]
    assert next(e for e in tr.events if e.kind == "roll").data["target"] == (6 if exhausted else 8)
    if loses:
        assert (u.steps, bk.status(u).neutralised) == (1, False)
    else:
        assert (u.steps, bk.status(u).neutralised) == (2, True)


def test_ac51_8_4_rally() -> None:
    forms = {"fra-a": form("french", "I/11 RDP", 8, 8, hq="hq")}
    s = game(
        unit("drg1", "DRG", "french", OPEN_A, neutralised=True),
        unit("drg2", "DRG", "french", OPEN_A, neutralised=True),
        unit("hq", "hq_fr", "french", OPEN_A, neutralised=True),
        dice=(3, 4, 4, 4, 1, 1),
        formations=forms,
    )
    s.units["hq"].formation = None  # an HQ without a formation id is found as its formation's hq
    tr = Transition(s)
    assert [rally_roll(tr, T, s.units[u]) for u in ("drg1", "drg2", "hq")] == [True, False, True]
    assert [bool(bk.status(s.units[u]).neutralised) for u in ("drg1", "drg2", "hq")] == [False, True, False]
    assert {e.data["target"] for e in tr.events if e.kind == "roll"} == {7}
    with pytest.raises(ValueError, match="not neutralised"):
        rally_roll(tr, T, s.units["drg1"])


def _losses(total: int, lost: int, dice: tuple[int, ...]) -> tuple[GameState, Transition]:
    units = [unit(f"s35-{i}", "S35", "french", OPEN_A) for i in range(5)]
    s = game(*units, dice=dice, formations={"fra-a": form("french", "1. Kürassiere", 8, total, lost=lost)})
    return s, Transition(s)


def test_ac52_8_5_demoralisation() -> None:
    # 10 steps: the 4th loss makes no test; the 5th tests: roll 9 > FF 8 → demoralised; no more tests after that.
    s, tr = _losses(10, 3, (4, 5))
    rec = bk.data(s).formations["fra-a"]
    step_loss(tr, T, s.units["s35-0"], "fire")
    assert (rec.steps_lost, rolls(tr), rec.demoralised) == (4, [], False)
    step_loss(tr, T, s.units["s35-1"], "fire")
    assert (rec.steps_lost, rolls(tr), rec.demoralised) == (5, [9], True)
    step_loss(tr, T, s.units["s35-2"], "fire")  # already demoralised: no test (no dice left)
    assert rec.steps_lost == 6
    assert any(e.kind == "demoralised" for e in tr.events)

    # Roll 8 → not demoralised; the 6th loss tests again.
    s, tr = _losses(10, 4, (4, 4, 1, 1))
    rec = bk.data(s).formations["fra-a"]
    step_loss(tr, T, s.units["s35-0"], "fire")
    assert (rolls(tr), rec.demoralised) == ([8], False)
    step_loss(tr, T, s.units["s35-1"], "fire")
    assert (rolls(tr), rec.demoralised) == ([8, 2], False)

    # 9 steps: the first test comes at 5 losses (⌈9/2⌉).
    s, tr = _losses(9, 3, (6, 6))
    rec = bk.data(s).formations["fra-a"]
    step_loss(tr, T, s.units["s35-0"], "fire")
    assert rolls(tr) == []
    step_loss(tr, T, s.units["s35-1"], "fire")
    assert (rolls(tr), rec.demoralised) == ([12], True)


def test_ac21_10_3_attached_independent_counts_for_its_formation() -> None:
    forms = {"fra-a": form("french", "I/11 RDP", 8, 10, lost=4)}
    at = unit("fra-at25", "AT25", "french", OPEN_A, formation="fra-a", independent=True)
    s = game(at, dice=(6, 6), formations=forms)
    tr = Transition(s)
    step_loss(tr, T, at, "fire")
    assert forms["fra-a"].steps_lost == 5 and forms["fra-a"].demoralised is True


@pytest.mark.parametrize(("steps", "dice", "resolved"), [(1, (6, 6), 1), (2, (6, 6, 1, 1), 2)], ids=["reduced", "full"])
def test_ac54_8_6_2_group_fire_lost_after_elimination(steps: int, dice: tuple[int, ...], resolved: int) -> None:
    forms = {"fra-a": form("french", "I/205 RI", 7, 8)}
    s = game(unit("fra-fin", "FIN", "french", ADJ_HEX, steps=steps), dice=dice, formations=forms)
    tr = Transition(s)
    stuka = indirect_value(T, "stuka")
    shots = [Shot(stuka, f"Stuka attack {i} of 2 on {ADJ_HEX}") for i in (1, 2)]
    out = group_fire(tr, T, s, hannut().parse(ADJ_HEX), "german", shots)
    assert out[0] == {"fra-fin": "step"}
    assert len(rolls(tr)) == resolved
    if resolved == 1:
        assert out[1] is None and s.units["fra-fin"].hex is None
        assert any(e.kind == "group_fire" and "lost" in e.text for e in tr.events)
    else:
        assert out[1] == {"fra-fin": "-"} and s.units["fra-fin"].steps == 1


def test_8_6_2_group_fire_salvo_lost_by_failed_transmission() -> None:
    s = game(
        unit("fra-hq", "hq_fr", "french", HQ_HEX), unit("ger-sch", "SCH", "german", FAR_HEX), dice=(6, 6, 1, 1, 1, 2)
    )
    medium = indirect_value(T, "medium")
    shots = [Shot(medium, f"French 105 mm salvo {i}", observer="fra-hq") for i in (1, 2)]
    out = group_fire(Transition(s), T, s, hannut().parse(FAR_HEX), "french", shots)
    # Salvo 1: transmission roll 12 fails, the salvo is lost; salvo 2: transmission 2, attack roll 3 → nothing.
    assert out == [None, {"ger-sch": "-"}]


@pytest.mark.parametrize(("dice", "result"), [((5, 6), "n"), ((6, 6), "step"), ((4, 5), "-")])
def test_ac55_direct_fire_somua_vs_pz3(dice: tuple[int, int], result: str) -> None:
    s = game(unit("s35", "S35", "french", OPEN_A), unit("pz3", "PZ3", "german", OPEN_C), dice=dice)
    f = factor(s, "s35", "pz3", fire="direct", distance=2)
    assert (f.base, f.final, f.column) == (8, 4, 4)
    assert reasons(f) == "range 2 hexes (F2, rule 8.2.4)"
    tr = Transition(s)
    assert roll_fire(tr, T, f, s.units["pz3"], "S35 fires at the Pz III") == result
    assert T.crt.result(4, 9) == "red_n"  # roll 9 is a red N, which does not affect tanks


# --- 14.7 Mines, fortifications --------------------------------------------------------------------------------


def test_ac62_10_1_mine_attack_and_removal() -> None:
    mines = {ADJ_HEX: "german"}
    s = game(unit("s35", "S35", "french", ADJ_HEX), dice=(5, 6, 4, 6), mines=mines)
    f = factor(s, None, "s35", fire="mines")
    assert (f.column, f.armour_step, f.modifiers) == (T.crt.mines_column, None, ())
    tr = Transition(s)
    # Roll 11 on the Mines column is a step loss whatever the armour; removal roll 10 → minefield removed.
    assert mine_attack(tr, T, s.units["s35"], ADJ_HEX) == "step"
    assert s.units["s35"].steps == 1 and ADJ_HEX not in bk.data(s).mines

    s = game(unit("s35", "S35", "french", ADJ_HEX), dice=(1, 1, 4, 5), mines=mines)
    tr = Transition(s)
    assert mine_attack(tr, T, s.units["s35"], ADJ_HEX) == "-"
    assert rolls(tr) == [2, 9] and bk.data(s).mines == {ADJ_HEX: "german"}

    # Retreating through the minefield: attack, but no removal roll (6.3.3).
    s = game(unit("s35", "S35", "french", ADJ_HEX), dice=(1, 1), mines=mines)
    tr = Transition(s)
    assert mine_attack(tr, T, s.units["s35"], ADJ_HEX, retreating=True) == "-"
    assert rolls(tr) == [2] and ADJ_HEX in bk.data(s).mines

    # The owner's units are not attacked (10.1 [I]); no minefield → error.
    s = game(unit("pz3", "PZ3", "german", ADJ_HEX), mines=mines)
    tr = Transition(s)
    assert mine_attack(tr, T, s.units["pz3"], ADJ_HEX) == "-" and rolls(tr) == []
    with pytest.raises(ValueError, match=r"rule 10\.1"):
        mine_attack(tr, T, s.units["pz3"], OPEN_A)


def test_ac63_10_2_fortifications() -> None:
    s = game(
        unit("fra-fin", "FIN", "french", ORP_LE_PETIT),
        unit("fra-h39", "H39", "french", ORP_LE_PETIT),
        unit("ger-sch", "SCH", "german", VILLAGE_EDGE),
        forts=(ORP_LE_PETIT,),
    )
    f = factor(s, "ger-sch", "fra-fin", fire="direct")
    assert (f.final, f.column) == (2, 2)  # 6 − 2 (village) − 2 (fortifications)
    assert "F12" in reasons(f) and "F16" in reasons(f)
    f = factor(s, "ger-sch", "fra-h39", fire="direct")
    assert f.final == 3 and reasons(f) == "target dispersed (F11, rule 7.2.2)"  # 6 − 4 + 1
    tr = Transition(s)
    assert update_fortification(tr, T, ORP_LE_PETIT, "french") is False
    s.units["fra-fin"].hex = hannut().parse("0404")  # the infantry leaves; only the tank stays
    assert update_fortification(tr, T, ORP_LE_PETIT, "french") is True
    assert bk.data(s).forts == []


def test_10_2_fortification_removed_when_its_infantry_is_eliminated() -> None:
    s = game(unit("fra-fin", "FIN", "french", ORP_LE_PETIT, steps=1), forts=(ORP_LE_PETIT,))
    step_loss(Transition(s), T, s.units["fra-fin"], "fire")
    assert bk.data(s).forts == []


# --- 13.2 Fire modifiers F1–F19 ------------------------------------------------------------------------------


def test_f1_f2_f3_range_8_2_4() -> None:
    s = game(unit("sch", "SCH", "german", OPEN_B), unit("fin", "FIN", "french", OPEN_A))
    assert factor(s, "sch", "fin", fire="direct").modifiers == ()
    f = factor(s, "sch", "fin", fire="direct", distance=3)
    assert [(m.value, m.reason) for m in f.modifiers] == [(-2, "range 3 hexes (F2, rule 8.2.4)")]
    f = factor(s, "sch", "fin", fire="close")
    assert [(m.value, m.reason) for m in f.modifiers] == [(1, "close combat (F3, rule 8.2.4)")]
    assert factor(s, None, "fin", fire="indirect", attack_value=5).modifiers == ()
    with pytest.raises(ValueError, match=r"8\.2\.4"):
        factor(s, "sch", "fin", fire="direct", distance=0)


def test_f4_6_1_move_and_fire_uses_reduced_value() -> None:
    s = game(
        unit("pz3", "PZ3", "german", OPEN_B),
        unit("pz3-r", "PZ3", "german", OPEN_B, steps=1),
        unit("fin", "FIN", "french", OPEN_A),
    )
    assert factor(s, "pz3", "fin", fire="direct").base == 6
    f = factor(s, "pz3", "fin", fire="direct", reduced=True)
    assert f.base == 5 and "F4" in f.base_reason
    assert factor(s, "pz3-r", "fin", fire="direct").base == 5  # back side full value
    assert factor(s, "pz3-r", "fin", fire="direct", reduced=True).base == 4  # back side Y
    with pytest.raises(ValueError, match="F4"):
        factor(s, "pz3", "fin", fire="close", reduced=True)


def test_f5_5_4_firer_exhausted() -> None:
    forms = {"ger-a": form("german", "I/5 PzR", 9, 8, exhausted=True), "fra-a": form("french", "x", 8, 8)}
    s = game(unit("sch", "SCH", "german", OPEN_B), unit("fin", "FIN", "french", OPEN_A), formations=forms)
    assert reasons(factor(s, "sch", "fin", fire="direct")) == "firer's formation exhausted (F5, rule 5.4)"
    assert factor(s, "sch", "fin", fire="close").final == 6 + 1 - 1


def test_f6_6_2_firer_out_of_command() -> None:
    s = game(unit("sch", "SCH", "german", OPEN_B, ooc=True), unit("fin", "FIN", "french", OPEN_A))
    assert reasons(factor(s, "sch", "fin", fire="direct")) == "firer out of command (F6, rule 6.2)"
    f = factor(s, "sch", "fin", fire="close", first_round=True)
    assert not f.can_fire and f.refusal is not None and "rule 6.2" in f.refusal
    f = factor(s, "sch", "fin", fire="close", first_round=True, firer_defending=True)
    assert f.final == 6 + 1 - 1


def test_f7_7_2_1_firer_in_column() -> None:
    s = game(unit("pz3", "PZ3", "german", OPEN_B, column=True), unit("fin", "FIN", "french", OPEN_A))
    assert in_column(s.units["pz3"])
    assert reasons(factor(s, "pz3", "fin", fire="direct")) == "firer in column (F7, rule 7.2.1)"
    assert "F7" in reasons(factor(s, "pz3", "fin", fire="close", first_round=True))
    assert "F7" not in reasons(factor(s, "pz3", "fin", fire="close", first_round=False))


def test_f8_7_2_2_firer_dispersed() -> None:
    s = game(
        unit("pz3", "PZ3", "german", ORP_LE_PETIT),
        unit("sch", "SCH", "german", ORP_LE_PETIT),
        unit("fin", "FIN", "french", VILLAGE_EDGE),
    )
    assert dispersed(T, hannut(), s.units["pz3"]) and not dispersed(T, hannut(), s.units["sch"])
    assert reasons(factor(s, "pz3", "fin", fire="direct")) == "firer dispersed (F8, rule 7.2.2)"
    assert "F8" in reasons(factor(s, "pz3", "fin", fire="close"))
    assert factor(s, "sch", "fin", fire="direct").modifiers == ()


def test_f9_8_4_firer_neutralised() -> None:
    s = game(unit("sch", "SCH", "german", OPEN_B, neutralised=True), unit("fin", "FIN", "french", OPEN_A))
    f = factor(s, "sch", "fin", fire="direct")
    assert [(m.value, m.reason) for m in f.modifiers] == [(-2, "firer neutralised (F9, rule 8.4)")]
    assert "F9" in reasons(factor(s, "sch", "fin", fire="close", first_round=True, firer_defending=True))
    assert "F9" not in reasons(factor(s, "sch", "fin", fire="close", first_round=False, firer_defending=True))


def test_f10_7_2_1_target_in_column_direct_fire_only() -> None:
    s = game(unit("sch", "SCH", "german", OPEN_B), unit("fin", "FIN", "french", OPEN_A, column=True))
    assert reasons(factor(s, "sch", "fin", fire="direct")) == "target in column (F10, rule 7.2.1)"
    assert "F10" not in reasons(factor(s, "sch", "fin", fire="close"))
    assert factor(s, None, "fin", fire="indirect", attack_value=5).modifiers == ()


@pytest.mark.parametrize("where", [ORP_LE_PETIT, WOODS, ORCHARD])
def test_f11_7_2_2_target_dispersed(where: str) -> None:
    s = game(unit("sch", "SCH", "german", OPEN_B), unit("h39", "H39", "french", where))
    for kw in ({"fire": "direct"}, {"fire": "close"}, {"fire": "indirect", "attack_value": 5}):
        f = factor(s, None if kw["fire"] == "indirect" else "sch", "h39", **kw)
        assert [(m.value, m.reason) for m in f.modifiers if "F11" in m.reason] == [
            (1, "target dispersed (F11, rule 7.2.2)")
        ]
        assert all(fl not in reasons(f) for fl in ("F12", "F13", "F14"))  # F17: no terrain benefit


@pytest.mark.parametrize(
    ("where", "line", "value"),
    [(ORP_LE_PETIT, "F12", -2), (WOODS, "F13", -2), (ORCHARD, "F14", -1), (OPEN_A, "F15", 0)],
)
def test_f12_f15_target_terrain_armour_zero_only(where: str, line: str, value: int) -> None:
    s = game(
        unit("sch", "SCH", "german", OPEN_B), unit("fin", "FIN", "french", where), unit("pz3", "PZ3", "french", where)
    )
    for kw in ({"fire": "direct"}, {"fire": "close"}, {"fire": "indirect", "attack_value": 5}):
        attacker = None if kw["fire"] == "indirect" else "sch"
        got = [m.value for m in factor(s, attacker, "fin", **kw).modifiers if line in m.reason]
        assert got == ([value] if value else [])
        # F17: an armoured target in the same hex gets no terrain modifier.
        assert line not in reasons(factor(s, attacker, "pz3", **kw))


def test_f16_10_2_fortifications_infantry_defenders_only() -> None:
    s = game(
        unit("fin", "FIN", "french", ORP_LE_PETIT),
        unit("h39", "H39", "french", ORP_LE_PETIT),
        unit("sch", "SCH", "german", ORP_LE_PETIT),
        forts=(ORP_LE_PETIT,),
    )
    assert "F16" in reasons(factor(s, "sch", "fin", fire="direct"))
    assert "F16" in reasons(factor(s, "sch", "fin", fire="close", first_round=True))  # the attacker fires
    assert "F16" in reasons(factor(s, None, "fin", fire="indirect", attack_value=5))
    assert "F16" not in reasons(factor(s, "sch", "h39", fire="direct"))  # only infantry benefits
    # The defender fires at the attacking infantry that has entered the fortified hex: no benefit for it.
    assert "F16" not in reasons(factor(s, "fin", "sch", fire="close", first_round=True, firer_defending=True))
    assert "F12" in reasons(factor(s, "fin", "sch", fire="close", first_round=True, firer_defending=True))


def test_f19_mines_ignore_every_modifier() -> None:
    s = game(unit("fin", "FIN", "french", ORP_LE_PETIT, column=True), forts=(ORP_LE_PETIT,))
    f = factor(s, None, "fin", fire="mines")
    assert (f.final, f.column, f.modifiers) == (T.crt.mines_column, T.crt.mines_column, ())
    assert "F19" in f.explain()


def test_ac75_12_1_apc_combined_fire() -> None:
    s = game(
        *mounted(unit("apc", "APC", "german", OPEN_B), unit("sch", "SCH", "german", OPEN_B)),
        unit("fin", "FIN", "french", "1007"),
        unit("pz3", "PZ3", "french", OPEN_A),
    )
    assert distance(hannut().parse(OPEN_B), hannut().parse("1007")) == 2
    f = attack_factor(T, s, s.units["sch"], s.units["fin"], fire="direct", distance=2, combined_with=s.units["apc"])
    assert (f.base, f.final) == (8, 7) and "rule 12.1" in f.base_reason
    # The mounted pair is one target with the APC's armour, no terrain benefit, immune to red N.
    g = factor(s, "pz3", "sch", fire="direct")
    assert g.armour_step is not None and g.armour_step.value == -1
    assert g.final == 6 - 1


def test_terrain_fire_modifiers_agree_with_f12_f15() -> None:
    """terrain.toml fire_modifier and modifiers.toml F12–F15 carry the same numbers (two copies of 13.2)."""
    for name, cls in T.terrain.classes.items():
        lines = [ln for ln in T.modifiers.values() if ln.terrain == name]
        assert len(lines) == 1, name
        assert lines[0].value("direct") == cls.fire_modifier, name


def test_refusals_for_units_that_cannot_fire() -> None:
    s = game(unit("hq", "hq_de", "german", OPEN_B), unit("fin", "FIN", "french", OPEN_A))
    f = factor(s, "hq", "fin", fire="direct")
    assert not f.can_fire and f.refusal is not None and "rule 6.1" in f.refusal
    with pytest.raises(ValueError, match="unknown fire kind"):
        factor(s, "hq", "fin", fire="artillery")
    with pytest.raises(ValueError, match=r"13\.6"):
        factor(s, None, "fin", fire="indirect")
    with pytest.raises(ValueError, match="cannot fire"):
        roll_fire(Transition(s), T, f, s.units["fin"], "HQ fires")


def test_attack_factor_is_pure() -> None:
    s = game(unit("s35", "S35", "french", OPEN_A), unit("pz3", "PZ3", "german", OPEN_C, column=True))
    before = copy.deepcopy(s.to_dict())
    factor(s, "s35", "pz3", fire="direct", distance=2)
    factor(s, None, "pz3", fire="indirect", attack_value=8)
    assert s.to_dict() == before


def test_explain_is_one_line() -> None:
    s = game(unit("s35", "S35", "french", OPEN_A), unit("pz3", "PZ3", "german", OPEN_C))
    text = factor(s, "s35", "pz3", fire="direct", distance=2).explain()
    assert text == "S35 full value 8 -3 armour 3 (rule 8.2.1) -1 range 2 hexes (F2, rule 8.2.4) = 4 → column 4"


# --- Odds ------------------------------------------------------------------------------------------------------

_COLUMNS = st.integers(min_value=T.crt.min_column, max_value=T.crt.max_column + 3)


@given(column=_COLUMNS, utype=st.sampled_from(sorted(T.units)))
def test_fire_odds_sum_to_one_and_match_resolve(column: int, utype: str) -> None:
    target = Unit("x", utype, "french", None, 2, status=model.Status())
    odds = fire_odds(T, column, target)
    assert set(odds) == set(RESULTS) and sum(odds.values()) == 1
    if not T.units[utype].red_n_affects:
        assert odds["red_n"] == 0
    if T.units[utype].kind == "hq":
        assert odds["step"] == 0


def test_odds_entries_use_the_ai_valuation() -> None:
    inf = Unit("x", "FIN", "french", None, 2, status=model.Status())
    entries = odds_entries(T, 6, inf)
    assert {e.result for e in entries} == {"no effect", "red N", "N", "step loss"}
    assert sum((e.probability for e in entries), Fraction(0)) == 1
    assert {e.result: e.value for e in entries}["step loss"] == RESULT_VALUES["step"]
    tank = Unit("y", "PZ3", "german", None, 2, status=model.Status())
    assert "red N" not in {e.result for e in odds_entries(T, 6, tank)}
    assert [(e.result, e.probability) for e in odds_entries(T, None, tank)] == [("no effect", Fraction(1))]


def test_12_1_mounted_pair_owner_chooses_which_half_loses_a_step() -> None:
    """12.1 [P] / 2.9: "each step loss is assigned by the owner to the APC or the company"."""
    rs = Blitzkrieg1940()
    s = game(*mounted(unit("apc", "APC", "german", OPEN_B), unit("sch-m", "SCH", "german", OPEN_B)))
    tr = Transition(s)
    step_loss(tr, T, s.units["apc"], "fire")
    assert (s.units["apc"].steps, s.units["sch-m"].steps) == (2, 2)  # nothing lost until the owner chooses
    f = bk.data(s).frames[-1]
    assert (f.kind, f.side, f.units, s.to_act) == ("pair_loss", "german", ["apc", "sch-m"], "german")
    assert [str(a) for a in rs.legal_actions(s)] == ["lose apc", "lose sch-m"]
    with pytest.raises(IllegalActionError, match=r"which half of the pair.*rule 12\.1"):
        rs.check(s, Action("fire", ("apc", "x")))
    handler(f).apply(rs, tr, f, rs.read(s, Action("lose", ("sch-m",))))
    assert (s.units["apc"].steps, s.units["sch-m"].steps) == (2, 1) and not bk.data(s).frames
    assert bk.data(s).formations["ger-a"].steps_lost == 1
    # A step taken instead of N is a step loss like any other: the owner chooses again.
    neutralise(tr, T, s.units["apc"], "N")
    take_step_instead(tr, T, s.units["apc"], "N")
    assert bk.data(s).frames[-1].kind == "pair_loss"
    handler(bk.data(s).frames[-1]).apply(rs, tr, bk.data(s).frames[-1], rs.read(s, Action("lose", ("sch-m",))))
    # The company's second loss eliminates it; the APC stays, empty (12.1 [P]).
    assert s.units["sch-m"].hex is None and s.units["apc"].steps == 2
    assert not bk.status(s.units["apc"]).carrying
    # In close combat the unit the combat names loses the step at once (9.1).
    s2 = game(*mounted(unit("apc", "APC", "german", OPEN_B), unit("sch-m", "SCH", "german", OPEN_B)))
    step_loss(Transition(s2), T, s2.units["apc"], "close combat", owner_choice=False)
    assert s2.units["apc"].steps == 1 and not bk.data(s2).frames


# --- 12.1 [P] the mounted APC pair in play (issue 16 items 9 and 10) ----------------------------------------------

APC, RIDER, SCH_HQ = "ger-i12schr-apc", "ger-i12schr-sch-1", "ger-i12schr-hq"  # I/12 SchR: APC (2/1, range 0), SCH 6/4
DRG, RDP_HQ = "fra-ii11rdp-drg-1", "fra-ii11rdp-hq"  # II/11 RDP dragoons (infantry 6/4, range 2, MP 3)
PAIR = {APC: {"carrying": RIDER}, RIDER: {"carried_by": APC}}


def pair_fight(active: str, drg: str = "0510", **kw: Any) -> Any:
    """The I/12 APC with its company on board at 0512 (open, Hannut), their HQ at 0513; the French dragoons at
    ``drg`` with their HQ at 0509; formation ``active`` is activated."""
    return skirmish(active, {APC: "0512", RIDER: "0512", SCH_HQ: "0513", DRG: drg, RDP_HQ: "0509"}, status=PAIR, **kw)


def test_ac75_12_1_the_mounted_pair_fires_at_the_company_range_and_may_move_and_fire() -> None:
    """AC-75, 12.1 [P]: the pair fires with the company's value plus the APC's (full or reduced alike) at the
    company's range (2), and may move and fire; only close combat needs it to unload first (9.1.1). The APC's own
    printed range of 0 kept it from ever firing actively."""
    s = pair_fight("ger-i-12-schr")
    legal = s.legal()
    assert distance(s.state.board.parse("0512"), s.state.board.parse("0510")) == 2
    assert f"fire {APC} {DRG}" in legal and f"fm {APC} {DRG}" in legal
    assert any(a.startswith(f"mf {APC} ") for a in legal)
    full = s.ruleset.odds(s.state, s.parse(f"fire {APC} {DRG}"))
    reduced = s.ruleset.odds(s.state, s.parse(f"fm {APC} {DRG}"))
    assert full is not None and reduced is not None
    assert "combined full value 8" in full.note and "= 7 → column 7" in full.note  # 6 + 2, −1 range
    assert "combined reduced value Y 5" in reduced.note and "= 4 → column 4" in reduced.note  # 4 + 1, −1 range
    s.script(1, 1).apply(f"fire {APC} {DRG}")
    assert any(f"{APC} fires at {DRG}" in t for t in event_texts(s.events))
    # Move and fire: the pair moves with half the APC's MP (6 → 3), the company with it, then fires reduced.
    s = pair_fight("ger-i-12-schr")
    s.apply(f"mf {APC} 0511")
    assert s.state.units[RIDER].hex == s.state.units[APC].hex == s.state.board.parse("0511")


def test_12_1_the_mounted_pair_returns_and_opportunity_fires_at_the_company_range() -> None:
    """12.1 [P], 6.3.1, 6.3.2: fired at from 2 hexes, the pair may return fire (it could only at range 1); a
    French unit moving 2 hexes away may be opportunity-fired by the pair."""
    s = pair_fight("fra-ii-11-rdp")
    s.script(1, 1).apply(f"fire {DRG} {APC}")  # 2: no effect
    assert s.to_act == "german" and f"retfire {APC} {DRG}" in s.legal()
    s = pair_fight("fra-ii-11-rdp", drg="0509")
    s.apply(f"move {DRG} 0510")
    assert f"opp {APC} {DRG}" in s.legal()


def test_12_1_a_mounted_company_cannot_act_on_its_own() -> None:
    """12.1 [P] (issue 16 items 10 and 12): the company on board acts only as the pair, through its APC: its own
    fire, move-and-fire, move or close combat is refused citing 12.1 (fire and fm were accepted, a move cited
    "8.4, 6.2"); no reaction window offers it opportunity fire or a retreat of its own, and the pair retreats
    together."""
    s = pair_fight("ger-i-12-schr", drg="0511")
    for notation in (f"fire {RIDER} {DRG}", f"fm {RIDER} {DRG}", f"move {RIDER} 0612", f"mf {RIDER} 0612"):
        refusal(s, notation, "12.1")
    assert not any(a.split()[1] == RIDER for a in s.legal() if len(a.split()) > 1)
    s = pair_fight("fra-ii-11-rdp", drg="0509")
    s.apply(f"move {DRG} 0510")
    legal = s.legal()
    assert f"opp {APC} {DRG}" in legal and not any(RIDER in a for a in legal)
    refusal(s, f"opp {RIDER} {DRG}", "12.1")
    retreat = next(a for a in legal if a.startswith(f"retreat {APC} "))
    s.apply(retreat)
    assert s.state.units[APC].hex == s.state.units[RIDER].hex == s.state.board.parse(retreat.split()[-1])


# --- 8.4 the panic test in the odds (issue 16 item 11) -------------------------------------------------------------

PZ4, PZ_HQ = "ger-i5pzr-pz4", "ger-i5pzr-hq"  # I/5 PzR: PZ4 7/5


def test_8_4_odds_against_a_neutralised_target_include_the_panic_test() -> None:
    """8.4: an N on a unit already neutralised is a panic test (2d6 above its FF: a step lost, the marker off).
    A PZ4 at an adjacent DRG in the open (column 7): a step loss on 6/36, an N (red or black) on 15/36; against a
    neutralised DRG (FF 8: a step lost on 9 or more, 10/36) the step loss is 6/36 + 15/36 × 10/36 = 61/216, about
    28 % (the odds said 16.7 %), and the other N results change nothing. The AI reads these odds: the shot's
    expected value is the step loss alone. Barrage odds branch on each neutralised unit's panic test too."""
    places = {PZ4: "0512", PZ_HQ: "0513", DRG: "0511", RDP_HQ: "0509"}
    fresh = skirmish("ger-i-5-pzr", places)
    shaken = skirmish("ger-i-5-pzr", places, status={DRG: {"neutralised": True}})
    before = fresh.ruleset.odds(fresh.state, fresh.parse(f"fire {PZ4} {DRG}"))
    after = shaken.ruleset.odds(shaken.state, shaken.parse(f"fire {PZ4} {DRG}"))
    assert before is not None and after is not None
    assert before.probability("step loss") == Fraction(6, 36)
    assert before.probability("N") + before.probability("red N") == Fraction(15, 36)
    assert after.probability("step loss") == Fraction(61, 216)
    assert after.probability("N, no loss") == Fraction(15, 36) * Fraction(26, 36)
    assert after.probability("N") == after.probability("red N") == 0
    assert after.expected == pytest.approx(61 / 216) and "panic test" in after.note and "rule 8.4" in after.note
    stuka = shaken.ruleset.odds(shaken.state, Action("stuka", ("0511",)))
    assert stuka is not None
    loss = sum(e.probability for e in stuka.entries if f"{DRG} step loss" in e.result)
    plain = skirmish("ger-i-5-pzr", places).ruleset.odds(fresh.state, Action("stuka", ("0511",)))
    assert plain is not None
    assert loss > sum(e.probability for e in plain.entries if f"{DRG} step loss" in e.result)
    assert sum(e.probability for e in stuka.entries) == 1 and "rule 8.4" in stuka.note
