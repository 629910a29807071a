"""Blitzkrieg 1940 close combat (digest 9.1.1–9.1.5, 9.2) with 3.2 (HQ overrun), 6.2, 6.3.3, 7.2.1, 8.3/8.4
inside close combat, 10.1 (minefield before the combat), 10.2 and 13.2 (F3, F6, F7, F9, F16).

Acceptance cases AC-56 to AC-61, AC-78 and AC-19 are played through the ruleset's public interface
(``legal_actions`` / ``check`` / ``apply`` on a :class:`~engine.rules.Transition`, exactly what the Game facade
does) on states built on the proposed maps of 13.9, with :class:`~engine.dice.ScriptedDice` forcing every roll:
a test scripts exactly the dice it expects, so an unexpected roll (a panic test, a fire that should not happen)
exhausts the dice and fails.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import engine
from engine.actions import Action, parse_notation
from engine.board import Board
from engine.dice import ScriptedDice
from engine.errors import IllegalActionError
from engine.events import Event
from engine.hexgrid import parse_hex
from engine.rules import Transition
from engine.rulesets.blitzkrieg1940 import actions, closecombat
from engine.rulesets.blitzkrieg1940 import model as bk
from engine.rulesets.blitzkrieg1940.data import load_tables
from engine.rulesets.blitzkrieg1940.model import frame, new_formation, push
from engine.rulesets.blitzkrieg1940.ruleset import Blitzkrieg1940
from engine.scenario import parse_map
from engine.state import GameState, Unit

from .helpers import refusal, skirmish

MAPS = Path(__file__).resolve().parents[3] / "scenarios" / "blitzkrieg1940"
T = load_tables()
_RS = engine.get_ruleset("blitzkrieg1940")
assert isinstance(_RS, Blitzkrieg1940)
RS: Blitzkrieg1940 = _RS

# Stonne hexes (terrain checked in test_hexes_used_have_the_expected_terrain).
STONNE_V = "0708"  # Stonne village, level 2
PAIN = "0607"  # open, level 3, adjacent to 0708 (entering 0708 descends: no climb)
S_OPEN, S_OPEN_ADJ = "0808", "0809"  # open, level 2, adjacent
S_CORNER, S_CORNER_A, S_CORNER_B = "0101", "0201", "0102"  # the corner hex has only these two neighbours
# Hannut hexes: an open plain east of Jandrain.
H_ATT, H_DEF, H_NEXT = "0905", "1005", "1105"  # all open; 0905–1005 and 1005–1105 adjacent


@cache
def board(name: str) -> Board:
    path = MAPS / f"{name}.map"
    return Board(parse_map(path.read_text(encoding="utf-8"), str(path)), T.terrain.codes)


def unit(uid: str, utype: str, at: str | None, fid: str, *, steps: int | None = None, **status: Any) -> Unit:
    t = T.units[utype]
    return Unit(
        uid, utype, t.side, parse_hex(at) if at else None, t.steps if steps is None else steps, fid, bk.Status(**status)
    )


def state(
    name: str,
    *units: Unit,
    dice: list[int],
    mines: dict[str, str] | None = None,
    forts: list[str] | None = None,
    held: dict[str, str] | None = None,
    hqs: dict[str, str] | None = None,
) -> GameState:
    """A state on a real map with the German formation ``ger`` activated (one activation frame)."""
    formations: dict[str, bk.Formation] = {}
    for u in units:
        if u.formation and u.formation not in formations:
            rec = new_formation(u.side, u.formation, (hqs or {}).get(u.formation), 10 if u.side == "german" else 8)
            rec.steps_total = 20  # no demoralisation test on the few losses of these tests (8.5)
            formations[u.formation] = rec
    st = GameState(
        ruleset="blitzkrieg1940",
        scenario="t",
        sides=("german", "french"),
        board=board(name),
        units={u.id: u for u in units},
        turn=2,
        phase="operations",
        data=bk.new_data(
            scenario="t",
            turns=10,
            formations=formations,
            players={s: bk.new_player() for s in ("german", "french")},
            mines=dict(mines or {}),
            forts=sorted(forts or []),
            held_by=dict(held or {}),
            edges={"german": "left", "french": "right"},
        ),
        dice=ScriptedDice(dice),
    )
    push(st, bk.ActivationFrame("activation", "german", ["ger"], {"ger": "normal"}, None, None, [], None))
    return st


class Play:
    """The Game facade's apply loop on a hand-built state: parse, check, apply on a clone, keep the events."""

    def __init__(self, st: GameState) -> None:
        self.state = st
        self.events: list[Event] = []
        self.log: list[Event] = []

    def legal(self) -> list[Action]:
        return RS.legal_actions(self.state)

    def apply(self, text: str) -> list[Event]:
        action = RS.parse_action(self.state, text)
        RS.check(self.state, action)
        tr = Transition(self.state.clone())
        RS.apply(tr, action)
        self.state = tr.state
        self.events = list(tr.events)
        self.log += tr.events
        return self.events

    def u(self, uid: str) -> Unit:
        return self.state.units[uid]

    def at(self, uid: str) -> str | None:
        h = self.u(uid).hex
        return self.state.board.label(h) if h is not None else None

    @property
    def cc(self) -> dict[str, Any] | None:
        f = frame(self.state)
        return f if f is not None and f.kind == "cc" else None

    def rolls(self) -> list[Event]:
        return [e for e in self.events if e.kind == "roll"]

    def dice_left(self) -> int:
        dice = self.state.dice
        assert isinstance(dice, ScriptedDice)
        return dice.remaining


def acts(*texts: str) -> list[Action]:
    return [parse_notation(t) for t in texts]


def cites(text: str, section: str) -> bool:
    """True if ``text`` cites ``section`` as "(rule 9.1.2)" or "(rules 8.3, 9.1.2)"."""
    return re.search(rf"\brules? (?:[0-9.]+(?: step \d)?, )*{re.escape(section)}(?![0-9])", text) is not None


def shifts(ev: Event) -> dict[str, int]:
    """The column shifts of a roll, by F-number."""
    out = {}
    for value, reason in ev.data["shifts"]:
        m = re.search(r"\((F\d+),", reason)
        assert m, reason
        out[m.group(1)] = value
    return out


def test_hexes_used_have_the_expected_terrain() -> None:
    s, h = board("stonne"), board("hannut")
    assert s.terrain(parse_hex(STONNE_V)) == "village"
    assert {s.terrain(parse_hex(x)) for x in (PAIN, S_OPEN, S_OPEN_ADJ, S_CORNER, S_CORNER_A, S_CORNER_B)} == {"open"}
    assert s.level(parse_hex(PAIN)) > s.level(parse_hex(STONNE_V))
    assert {x for x in parse_hex(S_CORNER).neighbours() if x in s} == {parse_hex(S_CORNER_A), parse_hex(S_CORNER_B)}
    assert {h.terrain(parse_hex(x)) for x in (H_ATT, H_DEF, H_NEXT)} == {"open"}


def test_verbs_are_listed_with_their_rules() -> None:
    for verb, line in closecombat.VERBS.items():
        assert actions.VERBS[verb] == line
        assert verb in RS.verbs
        assert re.search(r"\((?:[0-9.]+, )*9\.1", line), line


# --- AC-56: the seed procedure with P values --------------------------------------------------------------


def test_ac56_pioneers_take_fortified_stonne_9_1_2_to_9_1_4_and_10_2() -> None:
    pio = unit("ger-pio", "PIO", PAIN, "ger")
    fin = unit("fra-fin", "FIN", STONNE_V, "fra")
    # Rolls: defensive fire 10, offensive fire 12, round 2: defender 7, attacker 9.
    p = Play(state("stonne", pio, fin, dice=[4, 6, 6, 6, 3, 4, 4, 5], forts=[STONNE_V], held={STONNE_V: "french"}))
    p.apply(f"assault ger-pio {STONNE_V}")
    # Entry: ⌈3/4⌉ + 1 (village, foot) = 2 MP; the pioneers are in the hex.
    assert p.at("ger-pio") == STONNE_V
    assert p.u("ger-pio").status.moving.spent == 2
    entry = next(e for e in p.events if e.kind == "move")
    assert cites(entry.text, "9.1.1") and "2 MP" in entry.text
    # Defender fires: 5 + 1 (CC) − 2 (village, attacker now in the hex) = 4; roll 10 → N.
    (roll,) = p.rolls()
    assert roll.data["column"] == "4" and roll.data["total"] == 10
    assert shifts(roll) == {"F3": 1, "F12": -2}
    assert "defensive fire" in roll.data["purpose"] and cites(roll.data["purpose"], "9.1.2")
    assert p.u("ger-pio").status.neutralised
    cc = p.cc
    assert cc is not None and cc.round == 1 and cc.stage == "att_choice"
    assert p.state.to_act == "german"
    assert p.legal() == acts("exchange ger-pio", "fallback ger-pio")
    # The attacker exchanges it for a step loss (now 6/4) and stays; the attacker fires at once:
    # 6 + 1 − 2 (village) − 2 (fortifications) = 3; roll 12 → step loss.
    p.apply("exchange ger-pio")
    assert p.u("ger-pio").steps == 1 and not p.u("ger-pio").status.neutralised
    assert any(e.kind == "exchange" and cites(e.text, "9.1.2") for e in p.events)
    (roll,) = p.rolls()
    assert roll.data["column"] == "3" and roll.data["total"] == 12
    assert shifts(roll) == {"F3": 1, "F12": -2, "F16": -2}
    assert "offensive fire" in roll.data["purpose"]
    assert p.u("fra-fin").steps == 1
    # The defender chooses to stay (or retreat, never into the pioneers' hex of origin).
    assert p.state.to_act == "french"
    legal = p.legal()
    assert Action("stay", ("fra-fin",)) in legal
    assert Action("withdraw", ("fra-fin", PAIN)) not in legal
    assert {a.verb for a in legal} == {"stay", "withdraw"}
    p.apply("stay fra-fin")
    # End of round 1: voluntary retreats, defender first, then attacker.
    assert p.state.to_act == "french" and Action("ccon") in p.legal()
    p.apply("ccon")
    assert p.state.to_act == "german" and p.legal() == acts("fallback ger-pio", "ccon")
    # Round 2 (simultaneous): defender 4 + 1 − 2 = 3, roll 7 → nothing; attacker 6 + 1 − 4 = 3, roll 9 → red N.
    p.apply("ccon")
    r_def, r_att = p.rolls()
    assert (r_def.data["column"], r_def.data["total"]) == ("3", 7)
    assert (r_att.data["column"], r_att.data["total"]) == ("3", 9)
    assert all(cites(r.data["purpose"], "9.1.3") for r in (r_def, r_att))
    assert p.u("ger-pio").steps == 1
    assert p.u("fra-fin").status.neutralised
    cc = p.cc
    assert cc is not None and cc.round == 2
    # The reduced defender must take a step loss (= elimination) or retreat one hex neutralised.
    legal = p.legal()
    assert legal[0] == Action("exchange", ("fra-fin",))
    assert Action("withdraw", ("fra-fin", "0608")) in legal and Action("withdraw", ("fra-fin", PAIN)) not in legal
    p.apply("withdraw fra-fin 0608")
    assert p.at("fra-fin") == "0608" and p.u("fra-fin").status.neutralised
    # No French infantry left → fortification removed; the pioneers hold the hex and stop (not a tank).
    assert STONNE_V not in bk.data(p.state).forts
    assert any(e.kind == "fortification" and cites(e.text, "10.2") for e in p.events)
    assert p.cc is None
    assert p.at("ger-pio") == STONNE_V
    assert not bk.status(p.u("ger-pio")).moving and p.u("ger-pio").status.acted
    assert bk.data(p.state).held_by[STONNE_V] == "german"
    assert any(cites(e.text, "9.1.4") for e in p.events) and any(cites(e.text, "9.2") for e in p.events)
    assert p.dice_left() == 0
    assert p.state.to_act == "german" and p.legal() == acts("end")


# --- AC-57 and AC-58 ------------------------------------------------------------------------------------


def test_ac57_neutralised_attacker_falls_back_and_its_move_ends_9_1_2() -> None:
    pio = unit("ger-pio", "PIO", S_OPEN_ADJ, "ger")
    fin = unit("fra-fin", "FIN", S_OPEN, "fra")
    p = Play(state("stonne", pio, fin, dice=[5, 5]))  # defensive fire 10 on column 6 → N
    p.apply(f"assault ger-pio {S_OPEN}")
    assert p.u("ger-pio").status.neutralised
    p.apply("fallback ger-pio")
    assert p.at("ger-pio") == S_OPEN_ADJ and p.u("ger-pio").status.neutralised
    assert not bk.status(p.u("ger-pio")).moving and p.u("ger-pio").status.acted
    fall = next(e for e in p.events if e.kind == "retreat")
    assert cites(fall.text, "9.1.2") and S_OPEN_ADJ in fall.text
    assert p.cc is None and p.at("fra-fin") == S_OPEN and p.u("fra-fin").steps == 2
    assert any("defenders hold" in e.text and cites(e.text, "9.1.4") for e in p.events)
    assert p.dice_left() == 0  # the attacker never fired


def _pre_neutralised(dice: list[int], **fin_kw: Any) -> Play:
    pio = unit("ger-pio", "PIO", S_OPEN_ADJ, "ger")
    fin = unit("fra-fin", "FIN", S_OPEN, "fra", neutralised=True, **fin_kw)
    return Play(state("stonne", pio, fin, dice=dice))


def test_ac58_neutralised_defender_fires_at_minus_2_then_must_retreat_or_lose_a_step_9_1_5() -> None:
    p = _pre_neutralised([1, 1, 1, 1])  # both shots miss
    p.apply(f"assault ger-pio {S_OPEN}")
    r_def, r_att = p.rolls()
    # 5 + 1 (CC) − 2 (F9 neutralised firer, first round) = 4.
    assert shifts(r_def) == {"F3": 1, "F9": -2} and r_def.data["column"] == "4"
    assert r_att.data["column"] == "9"  # 8 + 1
    assert p.state.to_act == "french"
    legal = p.legal()
    assert legal[0] == Action("exchange", ("fra-fin",))
    assert {a.verb for a in legal} == {"exchange", "withdraw"}
    assert Action("withdraw", ("fra-fin", S_OPEN_ADJ)) not in legal  # 9.1.5: not into the attackers' hex
    # Branch 1: retreat one hex, still neutralised.
    before = p.state
    p.apply("withdraw fra-fin 0709")
    assert p.at("fra-fin") == "0709" and p.u("fra-fin").status.neutralised
    assert p.cc is None and (bk.data(p.state).held_by or {}) == {}
    # Branch 2: take a step loss, stay, marker removed; the combat goes on.
    p.state = before
    p.apply("exchange fra-fin")
    assert p.at("fra-fin") == S_OPEN and p.u("fra-fin").steps == 1
    assert not p.u("fra-fin").status.neutralised
    assert any(e.kind == "exchange" and cites(e.text, "9.1.5") for e in p.events)
    cc = p.cc
    assert cc is not None and cc.stage == "vol_def"


def test_ac58_attacker_driven_back_no_forced_retreat_9_1_2_item_3() -> None:
    p = _pre_neutralised([5, 5])  # column 4, roll 10 → N on the pioneers
    p.apply(f"assault ger-pio {S_OPEN}")
    p.apply("fallback ger-pio")
    assert p.cc is None
    assert p.at("fra-fin") == S_OPEN and p.u("fra-fin").status.neutralised and p.u("fra-fin").steps == 2


# --- AC-59 ----------------------------------------------------------------------------------------------


def test_ac59_defender_without_retreat_hex_is_eliminated_9_1_5() -> None:
    pio = unit("ger-pio", "PIO", S_CORNER_A, "ger")
    block = unit("ger-sch", "GDI", S_CORNER_B, "ger", acted=True)
    fin = unit("fra-fin", "FIN", S_CORNER, "fra", neutralised=True)
    p = Play(state("stonne", pio, block, fin, dice=[1, 1, 1, 1]))
    p.apply(f"assault ger-pio {S_CORNER}")
    # The only neighbours are enemy-occupied or the attackers' hex of origin: no retreat hex.
    assert p.legal() == acts("exchange fra-fin", "withdraw fra-fin")
    p.apply("withdraw fra-fin")
    assert p.u("fra-fin").hex is None and p.u("fra-fin").steps == 0
    assert any(e.kind == "eliminated" and cites(e.text, "9.1.5") for e in p.events)
    assert p.cc is None and p.at("ger-pio") == S_CORNER
    assert bk.data(p.state).formations["fra"].steps_lost == 2


def test_ac59_reduced_defender_with_n_and_no_retreat_is_lost_either_way() -> None:
    pio = unit("ger-pio", "PIO", S_CORNER_A, "ger")
    block = unit("ger-sch", "GDI", S_CORNER_B, "ger", acted=True)
    fin = unit("fra-fin", "FIN", S_CORNER, "fra", steps=1)
    p = Play(state("stonne", pio, block, fin, dice=[1, 1, 4, 4]))  # offensive fire 8 on column 9 → N
    p.apply(f"assault ger-pio {S_CORNER}")
    assert p.legal() == acts("exchange fra-fin", "withdraw fra-fin")
    p.apply("exchange fra-fin")
    assert p.u("fra-fin").hex is None
    assert p.cc is None and bk.data(p.state).held_by == {}


def test_retreat_into_an_overstacked_hex_goes_on_9_1_5_and_6_3_3() -> None:
    pio = unit("ger-pio", "PIO", S_OPEN_ADJ, "ger")
    fin = unit("fra-fin", "FIN", S_OPEN, "fra", neutralised=True)
    full = [unit(f"fra-x{i}", "FIN", "0709", "fra") for i in range(3)]
    p = Play(state("stonne", pio, fin, *full, dice=[1, 1, 1, 1]))
    p.apply(f"assault ger-pio {S_OPEN}")
    p.apply("withdraw fra-fin 0709")
    h = p.u("fra-fin").hex
    assert h is not None and p.at("fra-fin") != "0709"
    assert parse_hex("0709") in h.neighbours()
    assert any("by way of 0709" in e.text and cites(e.text, "9.1.5") for e in p.events)


def test_attacker_falling_back_into_a_full_hex_goes_on_9_1_5_and_7_3() -> None:
    tank = unit("ger-pz3", "PZ3", "0909", "ger")
    full = [unit(f"ger-x{i}", "GDI", S_OPEN_ADJ, "ger", acted=True) for i in range(3)]
    fin = unit("fra-fin", "FIN", S_OPEN, "fra")
    p = Play(state("stonne", tank, *full, fin, dice=[5, 5]))  # defensive fire 10 on column 3 → N
    p.apply(f"move ger-pz3 {S_OPEN_ADJ}")  # through the full stack (7.3: no limit while moving)
    while p.state.to_act == "french":
        p.apply("close")  # no reaction
    p.apply(f"assault ger-pz3 {S_OPEN}")
    p.apply("fallback ger-pz3")
    h = p.u("ger-pz3").hex
    assert h is not None and p.at("ger-pz3") not in (S_OPEN_ADJ, S_OPEN)
    assert parse_hex(S_OPEN_ADJ) in h.neighbours()
    assert any(cites(e.text, "9.1.5") and "too many units" in e.text for e in p.events)
    assert not bk.status(p.u("ger-pz3")).moving and p.cc is None


def test_refusals_cite_the_rule_9_1_5_and_9_1_2() -> None:
    p = _pre_neutralised([1, 1, 1, 1])
    p.apply(f"assault ger-pio {S_OPEN}")
    cc = p.cc
    assert cc is not None
    for text, rule in ((f"withdraw fra-fin {S_OPEN_ADJ}", "9.1.5"), ("fallback fra-fin", "9.1.2")):
        with pytest.raises(IllegalActionError):
            p.apply(text)  # refused by the ruleset's check
        with pytest.raises(IllegalActionError) as err:
            action = parse_notation(text)
            closecombat.HANDLER.check(RS, p.state, cc, action, RS.read(p.state, action))
        assert err.value.rule == rule and cites(str(err.value), rule)


# --- AC-60: continuing after close combat (9.2) ------------------------------------------------------------


def _soft_defence(attacker: Unit, extra: list[Unit]) -> Play:
    fin = unit("fra-fin", "FIN", H_DEF, "fra")
    at = unit("fra-at", "AT25", H_DEF, "fra")
    # Defensive fire: two misses; offensive fire at the infantry: 12 → step loss.
    p = Play(state("hannut", attacker, fin, at, *extra, dice=[1, 1, 1, 1, 6, 6]))
    p.apply(f"assault {attacker.id} {H_DEF}")
    assert p.state.to_act == "german"
    assert p.legal() == acts(f"ccfire {attacker.id} fra-at", f"ccfire {attacker.id} fra-fin")
    p.apply(f"ccfire {attacker.id} fra-fin")
    assert p.u("fra-fin").steps == 1
    p.apply("withdraw fra-fin 1006")
    p.apply("withdraw fra-at 1004")  # voluntary retreat at the end of the round (9.1.5)
    assert p.cc is None and p.at(attacker.id) == H_DEF
    return p


def test_ac60_tank_beating_infantry_and_at_gun_moves_on_and_may_attack_again_9_2() -> None:
    tank = unit("ger-pz3", "PZ3", H_ATT, "ger")
    other = unit("fra-fin2", "FIN", H_NEXT, "fra")
    p = _soft_defence(tank, [other])
    m = p.u("ger-pz3").status.moving
    assert m.mp - m.spent == 3  # 6 − (⌈6/4⌉ + 1)
    assert any(cites(e.text, "9.2") and "move on" in e.text for e in p.events)
    legal = p.legal()
    assert Action("assault", ("ger-pz3", H_NEXT)) in legal  # ⌈6/4⌉ + 1 = 3 MP: a second close combat
    assert Action("stop", ("ger-pz3",)) in legal and any(a.verb == "move" for a in legal)


def test_ac60_infantry_attacker_stops_9_2() -> None:
    sch = unit("ger-sch", "GDI", H_ATT, "ger")
    p = _soft_defence(sch, [])
    assert not bk.status(p.u("ger-sch")).moving and p.u("ger-sch").status.acted
    assert any(cites(e.text, "9.2") and "not a tank" in e.text for e in p.events)


def test_ac60_tank_that_fought_tanks_stops_9_2() -> None:
    tank = unit("ger-pz3", "PZ3", H_ATT, "ger")
    h35 = unit("fra-h35", "H35", H_DEF, "fra")
    p = Play(state("hannut", tank, h35, dice=[1, 1, 1, 1]))
    p.apply(f"assault ger-pz3 {H_DEF}")
    r_def, r_att = p.rolls()
    assert r_def.data["column"] == "2" and r_att.data["column"] == "3"  # 4 + 1 − 3; 6 + 1 − 4
    p.apply("withdraw fra-h35 1006")
    assert p.cc is None
    assert not bk.status(p.u("ger-pz3")).moving and p.u("ger-pz3").status.acted
    assert any(cites(e.text, "9.2") and "not only infantry" in e.text for e in p.events)


# --- AC-61: minefield before the close combat (10.1) -----------------------------------------------------


def test_ac61_each_attacker_suffers_a_mine_attack_and_removal_roll_first_10_1() -> None:
    pio = unit("ger-pio", "PIO", S_OPEN_ADJ, "ger")
    fin = unit("fra-fin", "FIN", S_OPEN, "fra")
    # Mine attack 2 (nothing), removal roll 10 (removed), defensive fire 2, offensive fire 2.
    p = Play(state("stonne", pio, fin, dice=[1, 1, 5, 5, 1, 1, 1, 1], mines={S_OPEN: "french"}))
    p.apply(f"assault ger-pio {S_OPEN}")
    mine, removal, d, a = p.rolls()
    assert cites(mine.data["purpose"], "10.1") and mine.data["column"] == "6" and "ger-pio" in mine.data["purpose"]
    assert cites(removal.data["purpose"], "10.1") and removal.data["target"] == 10
    assert "defensive fire" in d.data["purpose"] and "offensive fire" in a.data["purpose"]
    assert S_OPEN not in bk.data(p.state).mines
    assert any(e.kind == "mines" and cites(e.text, "9.1.1") for e in p.events)


def test_ac61_mine_n_is_handled_like_a_close_combat_n_9_1_2() -> None:
    pio = unit("ger-pio", "PIO", S_OPEN_ADJ, "ger")
    fin = unit("fra-fin", "FIN", S_OPEN, "fra")
    p = Play(state("stonne", pio, fin, dice=[4, 5, 1, 1], mines={S_OPEN: "french"}))  # 9 on column 6 → N
    p.apply(f"assault ger-pio {S_OPEN}")
    assert len(p.rolls()) == 2 and S_OPEN in bk.data(p.state).mines
    assert p.state.to_act == "german" and p.legal() == acts("exchange ger-pio", "fallback ger-pio")
    p.apply("fallback ger-pio")  # neutralised, it cannot attack: back where it came from, no fire at all
    assert p.at("ger-pio") == S_OPEN_ADJ and p.cc is None and p.dice_left() == 0


# --- AC-78: no panic test inside close combat ------------------------------------------------------------


def test_ac78_neutralised_defender_receiving_n_takes_no_panic_test_9_1_2_item_4() -> None:
    p = _pre_neutralised([1, 1, 4, 4])  # defensive fire misses; offensive fire 8 on column 9 → N
    p.apply(f"assault ger-pio {S_OPEN}")
    assert len(p.rolls()) == 2  # no panic roll (8.4 does not apply)
    assert any("no panic test" in e.text and cites(e.text, "9.1.2") for e in p.events)
    assert p.legal()[0] == Action("exchange", ("fra-fin",))
    before = p.state
    p.apply("exchange fra-fin")  # one step loss, stays, marker removed
    assert p.u("fra-fin").steps == 1 and not p.u("fra-fin").status.neutralised and p.at("fra-fin") == S_OPEN
    p.state = before
    p.apply("withdraw fra-fin 0709")
    assert p.u("fra-fin").steps == 2 and p.u("fra-fin").status.neutralised and p.at("fra-fin") == "0709"


# --- AC-19: HQ overrun by entry (3.2) -----------------------------------------------------------------------


def test_ac19_lone_hq_is_overrun_by_entry_3_2() -> None:
    pio = unit("ger-pio", "PIO", S_OPEN_ADJ, "ger")
    hq = unit("fra-hq", "hq_fr", S_OPEN, "fra")
    fin = unit("fra-fin", "FIN", "0708", "fra")
    p = Play(state("stonne", pio, hq, fin, dice=[], hqs={"fra": "fra-hq"}, held={S_OPEN: "french"}))
    assert Action("assault", ("ger-pio", S_OPEN)) in p.legal()
    p.apply(f"assault ger-pio {S_OPEN}")
    assert p.cc is None and p.dice_left() == 0  # no fire is exchanged
    assert p.u("fra-hq").hex is None
    rec = bk.data(p.state).formations["fra"]
    assert rec.overrun is True
    assert p.u("fra-fin").status.ooc
    assert any(e.kind == "overrun" and cites(e.text, "3.2") for e in p.events)
    assert any(e.kind == "command" and cites(e.text, "3.5") for e in p.events)
    # The entry cost was paid; the pioneers may go on with the MP left (an overrun is no close combat).
    m = p.u("ger-pio").status.moving
    assert (m.spent, m.moved) == (2, 1)
    assert p.at("ger-pio") == S_OPEN and bk.data(p.state).held_by[S_OPEN] == "german"
    # Next turn, when its chit is drawn, the HQ returns stacked with one of its units; command re-checked.
    tr = Transition(p.state.clone())
    tr.state.turn += 1
    RS.activation_effects(tr, "fra")
    assert tr.state.units["fra-hq"].hex == parse_hex("0708")
    assert not bk.status(tr.state.units["fra-fin"]).ooc


def test_hq_with_defenders_retreats_with_them_or_is_overrun_3_2() -> None:
    pio = unit("ger-pio", "PIO", S_OPEN_ADJ, "ger")
    fin = unit("fra-fin", "FIN", S_OPEN, "fra", neutralised=True)
    hq = unit("fra-hq", "hq_fr", S_OPEN, "fra")
    p = Play(state("stonne", pio, fin, hq, dice=[1, 1, 1, 1], hqs={"fra": "fra-hq"}))
    p.apply(f"assault ger-pio {S_OPEN}")
    # The HQ neither fires nor is a target: one shot each way.
    assert len(p.rolls()) == 2
    p.apply("withdraw fra-fin 0709")
    assert p.state.to_act == "french"
    assert p.legal() == acts("stay fra-hq", "withdraw fra-hq 0709")
    before = p.state
    p.apply("withdraw fra-hq 0709")
    assert p.at("fra-hq") == "0709" and not bk.data(p.state).formations["fra"].overrun
    p.state = before
    p.apply("stay fra-hq")
    assert p.u("fra-hq").hex is None and bk.data(p.state).formations["fra"].overrun
    assert p.cc is None and not bk.status(p.u("ger-pio")).moving


# --- Modifiers of 13.2 inside close combat (F6, F7) -------------------------------------------------------


def test_column_minus_1_first_round_only_and_ends_after_it_7_2_1() -> None:
    pio = unit("ger-pio", "PIO", S_OPEN_ADJ, "ger", column=True)
    fin = unit("fra-fin", "FIN", S_OPEN, "fra", ooc=True)
    p = Play(state("stonne", pio, fin, dice=[1, 1, 1, 1, 1, 1, 1, 1]))
    bk.status(p.state.units["ger-pio"]).moving = bk.Moving("move", 3, 0.0, 0, True, False, origin=S_OPEN_ADJ)
    p.apply(f"assault ger-pio {S_OPEN}")
    r_def, r_att = p.rolls()
    assert shifts(r_def) == {"F3": 1, "F6": -1}  # out-of-command defender −1 (6.2)
    assert shifts(r_att) == {"F3": 1, "F7": -1}  # attacker in column −1, first round
    p.apply("ccon")
    p.apply("ccon")
    assert not bk.status(p.u("ger-pio")).column
    assert any(e.kind == "column" and cites(e.text, "7.2.1") for e in p.events)
    r_def, r_att = p.rolls()
    assert shifts(r_att) == {"F3": 1} and shifts(r_def) == {"F3": 1, "F6": -1}


def test_out_of_command_or_neutralised_unit_may_not_assault_6_2_8_4() -> None:
    for status in ({"ooc": True}, {"neutralised": True}):
        pio = unit("ger-pio", "PIO", S_OPEN_ADJ, "ger", **status)
        fin = unit("fra-fin", "FIN", S_OPEN, "fra")
        p = Play(state("stonne", pio, fin, dice=[]))
        assert Action("assault", ("ger-pio", S_OPEN)) not in p.legal()


def test_simultaneous_round_rolls_every_shot_before_applying_9_1_3() -> None:
    pio = unit("ger-pio", "PIO", S_OPEN_ADJ, "ger", steps=1)
    fin = unit("fra-fin", "FIN", S_OPEN, "fra", steps=1)
    # Round 1 misses both ways; round 2: both hit with a step loss → both eliminated.
    p = Play(state("stonne", pio, fin, dice=[1, 1, 1, 1, 6, 6, 6, 6]))
    p.apply(f"assault ger-pio {S_OPEN}")
    p.apply("ccon")
    p.apply("ccon")
    assert len(p.rolls()) == 2
    assert p.u("ger-pio").hex is None and p.u("fra-fin").hex is None
    assert p.cc is None and any("neither force" in e.text and cites(e.text, "9.1.4") for e in p.events)


def test_no_fire_possible_ends_the_combat_with_a_fall_back(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(closecombat, "_targets", lambda rs, st, f, shooter: [])
    pio = unit("ger-pio", "PIO", S_OPEN_ADJ, "ger")
    fin = unit("fra-fin", "FIN", S_OPEN, "fra")
    p = Play(state("stonne", pio, fin, dice=[]))
    p.apply(f"assault ger-pio {S_OPEN}")
    assert any("cannot fire" in e.text and cites(e.text, "8.2 step 3") for e in p.events)
    p.apply("ccon")
    p.apply("ccon")
    assert p.cc is None and p.at("ger-pio") == S_OPEN_ADJ and p.at("fra-fin") == S_OPEN


def test_target_choice_odds_and_waiting_text() -> None:
    tank = unit("ger-pz3", "PZ3", H_ATT, "ger")
    fin = unit("fra-fin", "FIN", H_DEF, "fra")
    at = unit("fra-at", "AT25", H_DEF, "fra")
    p = Play(state("hannut", tank, fin, at, dice=[1, 1, 1, 1]))
    p.apply(f"assault ger-pz3 {H_DEF}")
    cc = p.cc
    assert cc is not None
    assert "round 1" in closecombat.waiting(p.state, cc) and cites(closecombat.waiting(p.state, cc), "9.1.2")
    shot = Action("ccfire", ("ger-pz3", "fra-fin"))
    o = closecombat.odds(RS, p.state, cc, shot, RS.read(p.state, shot))
    assert o is not None and "column 7" in o.note
    assert sum(e.probability for e in o.entries) == 1
    with pytest.raises(IllegalActionError) as err:
        back = Action("ccfire", ("fra-fin", "ger-pz3"))
        closecombat.HANDLER.check(RS, p.state, cc, back, RS.read(p.state, back))
    assert err.value.rule == "9.1.2" and "owner" in str(err.value)
    with pytest.raises(IllegalActionError):
        p.apply("ccfire fra-fin ger-pz3")


# --- Refusals cite their rule (issue 16 item 12) ----------------------------------------------------------------

SCH, SCH_HQ = "ger-i12schr-sch-2", "ger-i12schr-hq"  # Hannut: German Schützen company (MP 3, foot)
DRG, RDP_HQ = "fra-ii11rdp-drg-1", "fra-ii11rdp-hq"  # Hannut: French dragoons


def test_6_2_an_out_of_command_unit_may_not_start_a_close_combat_and_the_refusal_says_so() -> None:
    """6.2, 9.1.1: the refusal of an out-of-command unit's assault cites 6.2 (it was a generic sentence)."""
    s = skirmish(
        "ger-i-12-schr", {SCH: "0512", SCH_HQ: "0513", DRG: "0511", RDP_HQ: "0509"}, status={SCH: {"ooc": True}}
    )
    text = refusal(s, f"assault {SCH} 0511", "6.2")
    assert "out-of-command" in text


def test_9_1_1_close_combat_entry_needs_the_mp_and_the_refusal_says_so() -> None:
    """9.1.1: entering an enemy hex costs ⌈MP/4⌉ + the terrain (3 MP Schützen in the open: 1 + 1 = 2); with 1 MP
    left after moving the assault is refused citing 9.1.1 (it was a generic sentence)."""
    s = skirmish("ger-i-12-schr", {SCH: "0513", SCH_HQ: "0612", DRG: "0510", RDP_HQ: "0509"})
    s.apply(f"move {SCH} 0512")
    while s.to_act == "french":
        s.apply("close")
    s.apply(f"move {SCH} 0511")
    while s.to_act == "french":
        s.apply("close")
    assert s.state.units[SCH].hex == parse_hex("0511")
    text = refusal(s, f"assault {SCH} 0510", "9.1.1")
    assert "MP" in text


# --- 9.1.5 and 6.3.3: the voluntary retreats as a reaction window of the standing orders -------------------------


def test_9_1_5_voluntary_retreats_name_the_units_the_rounds_fire_hurt() -> None:
    """The voluntary retreats after a round (9.1.5) are the side's retreat reactions (6.3.3): the engine's
    ``Waiting`` names the enemy in the combat, the side's units in it and those the round's fire had an effect
    on (a client's standing orders ask about these retreats only by default)."""
    pio = unit("ger-pio", "PIO", PAIN, "ger")
    fin = unit("fra-fin", "FIN", STONNE_V, "fra")
    p = Play(state("stonne", pio, fin, dice=[4, 6, 6, 6, 3, 4, 4, 5], forts=[STONNE_V], held={STONNE_V: "french"}))
    for text in (f"assault ger-pio {STONNE_V}", "exchange ger-pio"):
        p.apply(text)
    assert RS.waiting(p.state).struck == (), "a forced choice (stay or withdraw) is no window"
    p.apply("stay fra-fin")
    # Round 1 hurt both: the pioneers' N (exchanged for a step), the defender's step loss.
    w = RS.waiting(p.state)
    assert (w.side, w.react_to, w.struck, w.hurt) == ("french", ("ger-pio",), ("fra-fin",), ("fra-fin",))
    p.apply("ccon")
    w = RS.waiting(p.state)
    assert (w.side, w.react_to, w.struck, w.hurt) == ("german", ("fra-fin",), ("ger-pio",), ("ger-pio",))
    p.apply("ccon")
    # Round 2: the defender's fire (roll 7) had no effect on the pioneers; the French N comes first as a choice.
    cc = p.cc
    assert cc is not None and cc.round == 2 and cc.hurt == ["fra-fin"]
