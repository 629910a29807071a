"""Provides exact odds for every Blitzkrieg 1940 action that rolls dice (``game.odds(action)``).

Shots read the combat results table (13.1); tests read 2d6 against their target (5.4, 6.4); the General's
cancellation is 1d6 (5.5); artillery and Stukas roll once for the whole hex (8.6.1), after the transmission
roll for observed artillery. Every distribution is exact (fractions over the 36 outcomes of 2d6).
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from typing import TYPE_CHECKING

from engine.actions import Action
from engine.hexgrid import distance
from engine.notation import Notation
from engine.odds import Odds, OddsEntry
from engine.state import GameState, Unit

from . import actions, closecombat, combat, verbs
from . import notation as N
from .data import TWO_D6
from .model import CancelFrame, ChitFrame, CloseCombatFrame, ExhaustedFrame, data, formation, frame, status

if TYPE_CHECKING:
    from .model import Rules

__all__ = ["explain", "odds"]


def _test_odds(action: Action, target: int, success: str, failure: str, value: float, note: str) -> Odds:
    p = sum((q for roll, q in TWO_D6.items() if roll <= target), Fraction(0))
    return Odds(action, (OddsEntry(success, p, value), OddsEntry(failure, 1 - p, 0.0)), note=note)


def _shot(rs: Rules, st: GameState, action: Action, shooter: Unit, target: Unit, reduced: bool) -> Odds | None:
    """The odds of one direct shot; None when no shot is possible (a unit off the map, or in the firer's own
    hex: direct fire is at distance 1 or more, 8.2.4)."""
    if shooter.hex is None or target.hex is None or shooter.hex == target.hex:
        return None
    factor = actions.factor(rs, st, shooter, target, "direct", reduced)
    if factor.column is None:
        return None
    panic = combat.panic_chance(rs.tables, st, target)
    entries = combat.odds_entries(rs.tables, factor.column, target, panic[0] if panic else None)
    note = factor.explain() + (f"; {panic[1]}" if panic else "")
    return Odds(action, entries, note=note)


def _reaction_shot(rs: Rules, st: GameState, action: Action, shooter: Unit, target: Unit) -> Odds | None:
    """6.3.1 / 6.3.2: the reaction test first, then the shot at full value."""
    shot = _shot(rs, st, action, shooter, target, False)
    if shot is None:
        return None
    value = actions.reaction_value(rs, st, shooter)
    mods = actions.reaction_mods(rs, st, shooter, target)
    need = value - sum(m.value for m in mods)
    p_pass = sum((q for roll, q in TWO_D6.items() if roll <= need), Fraction(0))
    entries = [OddsEntry("reaction test failed", 1 - p_pass, 0.0)] if p_pass < 1 else []
    entries += [OddsEntry(e.result, e.probability * p_pass, e.value) for e in shot.entries if p_pass > 0]
    mod_text = "".join(f" {m.value:+d} {m.reason}" for m in mods)
    return Odds(
        action,
        tuple(e for e in entries if e.probability > 0) or (OddsEntry("reaction test failed", Fraction(1), 0.0),),
        note=f"reaction test 2d6{mod_text} ≤ {value} (rule 6.4), then {shot.note}",
    )


def _barrage(rs: Rules, st: GameState, action: Action, typed: N.Salvo | N.Stuka) -> Odds | None:
    """8.6.1: one 2d6 roll for every unit in the hex, each on its own column; observed artillery first needs
    the transmission roll (automatic when the observer is adjacent). Outcomes name each unit's result. None for
    a calibre that is not one (8.6.1) or an observer that is not on the map."""
    h = typed.hex
    side = st.to_act
    units = [u for u in st.units_at(h) if not status(u).carried_by]
    if isinstance(typed, N.Stuka):
        attack = rs.tables.artillery.stuka_attack
        p_through = Fraction(1)
        note = f"Stuka attack {attack} (rule 8.6.1)"
    else:
        calibre = rs.tables.artillery.calibres.get(typed.calibre)
        observer = st.units.get(typed.observer)
        if calibre is None or observer is None or observer.hex is None:
            return None
        attack = calibre.attack
        if distance(observer.hex, h) == 1:
            p_through = Fraction(1)
            note = f"{typed.calibre} attack {attack}; observer adjacent: transmission automatic (rule 8.6.1)"
        else:
            t = rs.tables.artillery.transmission
            need = t.target - (t.neutralised_observer if status(observer).neutralised else 0)
            p_through = sum((q for roll, q in TWO_D6.items() if roll <= need), Fraction(0))
            note = f"{typed.calibre} attack {attack}; transmission 2d6 ≤ {need} (rule 8.6.1)"
    columns = {}
    for u in units:
        f = combat.attack_factor(rs.tables, st, None, u, fire="indirect", attack_value=attack)
        columns[u.id] = f.column
    panics = {u.id: combat.panic_chance(rs.tables, st, u) for u in units}
    if any(panics.values()):
        note += "; units already neutralised take the panic test on an N (rule 8.4)"
    outcome: dict[str, Fraction] = defaultdict(Fraction)
    values: dict[str, float] = {}
    for roll, q in TWO_D6.items():
        # Every unit's result on this roll; an N on a unit already neutralised branches on its panic test.
        branches: list[tuple[tuple[str, ...], Fraction, float]] = [((), q * p_through, 0.0)]
        for u in units:
            col = columns[u.id]
            res = "-" if col is None else combat.resolve(rs.tables, col, roll, u)
            branches = [
                ((*parts, text) if text else parts, p * po, value + vo)
                for parts, p, value in branches
                for text, po, vo in _unit_outcomes(u, res, panics[u.id], 1.0 if u.side != side else -1.0)
                if po
            ]
        for parts, p, value in branches:
            key = ", ".join(parts) or "no effect"
            outcome[key] += p
            values[key] = value
    entries = [OddsEntry("transmission fails", 1 - p_through, 0.0)] if p_through < 1 else []
    entries += [OddsEntry(k, p, values[k]) for k, p in sorted(outcome.items(), key=lambda kv: -kv[1]) if p > 0]
    count = typed.count or 1
    if count > 1:
        note += f"; first of {count} attacks shown"
    return Odds(action, tuple(entries), note=note)


def _unit_outcomes(
    u: Unit, res: str, panic: tuple[Fraction, str] | None, sign: float
) -> list[tuple[str | None, Fraction, float]]:
    """What result ``res`` of a barrage does to ``u``: (text or None for nothing, probability, value for the
    firer); an N on a unit already neutralised is its panic test (8.4)."""
    if res in ("n", "red_n") and panic is not None:
        step = sign * combat.RESULT_VALUES["step"]
        return [
            (f"{u.id} {combat.RESULT_NAMES['step']}", panic[0], step),
            (f"{u.id} {combat.PANIC_PASSED}", 1 - panic[0], 0.0),
        ]
    if res == "-":
        return [(None, Fraction(1), 0.0)]
    return [(f"{u.id} {combat.RESULT_NAMES[res]}", Fraction(1), sign * combat.RESULT_VALUES[res])]


def odds(rs: Rules, st: GameState, action: Action, typed: Notation) -> Odds | None:
    """The exact result distribution of ``action`` (read into ``typed``), or None when it rolls no dice."""
    f = frame(st)
    if isinstance(typed, N.CloseFire):
        return closecombat.odds(rs, st, f, action, typed) if isinstance(f, CloseCombatFrame) else None
    if isinstance(typed, N.Fire | N.FireMove | N.Opportunity | N.ReturnFire):
        shooter, target = st.units.get(typed.unit), st.units.get(typed.target)
        if shooter is None or target is None:
            return None
        if isinstance(typed, N.Opportunity | N.ReturnFire):
            return _reaction_shot(rs, st, action, shooter, target)
        moving = status(shooter).moving
        reduced = isinstance(typed, N.FireMove) or (moving is not None and moving.action == "mf")
        return _shot(rs, st, action, shooter, target, reduced)
    if isinstance(typed, N.Salvo | N.Stuka):
        return _barrage(rs, st, action, typed)
    if isinstance(typed, N.Retreat):
        return _retreat_odds(rs, st, action, typed)
    if isinstance(typed, N.Test) and isinstance(f, ChitFrame | ExhaustedFrame):
        fid = f.formation if isinstance(f, ExhaustedFrame) else data(st).chits[f.chit].formation
        if fid is None:
            return None
        need = int(formation(st, fid).ff) + rs.tables.ff_test_offset("exhaustion")
        return _test_odds(action, need, "exhaustion removed", "stays exhausted", 1.0, f"2d6 ≤ {need} (rule 5.4)")
    if isinstance(typed, N.Cancel) and isinstance(f, CancelFrame):
        p = Fraction(rs.tables.cancel_max_roll, 6)
        note = f"1d6 ≤ {rs.tables.cancel_max_roll} (rule 5.5); the General is spent either way"
        return Odds(action, (OddsEntry("cancelled", p, 1.0), OddsEntry("not cancelled", 1 - p, 0.0)), note=note)
    return None


def _retreat_odds(rs: Rules, st: GameState, action: Action, typed: N.Retreat) -> Odds | None:
    """6.3.3, 6.4: a neutralised unit retreats only after a reaction test."""
    u = st.units.get(typed.unit)
    if u is None or not status(u).neutralised:
        return None
    value = actions.reaction_value(rs, st, u)
    mods = actions.reaction_mods(rs, st, u, None)
    need = value - sum(m.value for m in mods)
    return _test_odds(action, need, "retreats", "stays (test failed)", 0.0, f"reaction test 2d6 ≤ {need} (rule 6.4)")


def explain(rs: Rules, st: GameState, action: Action, typed: Notation | None) -> str:
    """A sentence saying what ``action`` does (with the odds of a shot)."""
    help_line = verbs.UNIT.get(action.verb) or verbs.SEQUENCE.get(action.verb) or verbs.SETUP.get(action.verb)
    if isinstance(typed, N.Fire | N.FireMove | N.Opportunity | N.ReturnFire):
        o = _shot_odds(rs, st, action, typed)
        if o is not None:
            return f"{action}: {o.note}"
    return f"{action}" + (f" — {help_line.split(' — ', 1)[1]}" if help_line and " — " in help_line else "")


def _shot_odds(
    rs: Rules, st: GameState, action: Action, typed: N.Fire | N.FireMove | N.Opportunity | N.ReturnFire
) -> Odds | None:
    """The odds of the shot itself (without a reaction test), for :func:`explain`."""
    shooter, target = st.units.get(typed.unit), st.units.get(typed.target)
    if shooter is None or target is None:
        return None
    moving = status(shooter).moving
    reduced = isinstance(typed, N.FireMove) or (
        isinstance(typed, N.Fire) and moving is not None and moving.action == "mf"
    )
    return _shot(rs, st, action, shooter, target, reduced)
