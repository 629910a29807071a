"""Provides control of hexes (11.2) and the end of the game (11.2, 11.6, scenario victory conditions)."""

from __future__ import annotations

from collections import defaultdict

from engine.hexgrid import Hex
from engine.state import GameState, Outcome

from ..gamedata import data
from ..model import Rules, card

__all__ = ["check_victory", "update_control"]


def update_control(st: GameState) -> None:
    """11.2 PROPOSED: a hex is controlled by the only side with ground units in it; otherwise unchanged."""
    control = data(st).control
    by_hex: dict[Hex, set[str]] = defaultdict(set)
    for u in st.units.values():
        if u.hex is not None and u.steps > 0:
            by_hex[u.hex].add(u.side)
    for h, sides in by_hex.items():
        if len(sides) == 1:
            control[h] = next(iter(sides))


def check_victory(rs: Rules, st: GameState) -> Outcome | None:
    """After step 12 (11.2): a side without units loses; after the last round the scenario's conditions."""
    alive = {s: any(u.side == s and u.steps > 0 for u in st.units.values()) for s in st.sides}
    if not all(alive.values()):
        winners = [s for s, a in alive.items() if a]
        if not winners:
            return Outcome("draw", "both sides were destroyed")
        return Outcome(winners[0], f"every {next(s for s in st.sides if s not in winners)} unit was destroyed")
    d = data(st)
    v = d.victory
    label = st.board.label
    bridges = d.structures.bridges
    lost = [b for b in v.bridge_intact if (got := bridges.get(b)) is not None and got.destroyed]
    until = d.special.bridge_draw_until
    if lost and until is not None and (bridges[lost[0]].round or 0) <= until:
        return Outcome(
            "draw", f"the bridge at {label(lost[0])} was destroyed by round {until}: the rearguard is stranded"
        )
    if st.turn < d.rounds:
        return None
    objectives = ", ".join(label(h) for h in v.hexes)
    for side in st.sides:
        if v.hexes and all(d.control.get(h) == side for h in v.hexes) and not lost:
            return Outcome(side, f"{side} controls {objectives} after round {st.turn} (rule 11.2)")
    if v.otherwise == "losses":
        killed = {
            s: sum(card(rs.tables, u).cost for u in st.units.values() if u.side != s and u.steps <= 0) for s in st.sides
        }
        a, b = st.sides
        if killed[a] != killed[b]:
            w = a if killed[a] > killed[b] else b
            return Outcome(w, f"{w} destroyed the higher cost of enemy units ({killed[w]} points, rule 11.6)")
        return Outcome("draw", "equal cost of units destroyed")
    if v.otherwise in st.sides:
        return Outcome(v.otherwise, f"the objectives are not taken: {v.otherwise} holds (scenario victory)")
    return Outcome("draw", f"no side controls all of {objectives} after round {st.turn}")
