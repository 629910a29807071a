"""Provides the events of the End Phase (3.2 Phase 4) after the bridge demolition of step 1 (``bridges.py``), in
the digest's order, each logged with its rule:

2. burning vehicles take 1 damage each (8.5 P: ``damage.burning_damage``);
3. the morale rolls still pending: from burning (9.3, −4), and from that damage leaving it at 50 % or more (9.3:
   another cause, another roll);
4. rally: a unit shaken in an earlier turn rolls morale again; success restores it (9.5);
5. a weapon jammed in turn N is cleared in the End Phase of turn N + 1 (6.6 P: ``fire.jam_cleared``);
6. a unit whose ammunition trailer was hit has no ammunition left from now on (8.5).

Step 3 also holds the leader-contact roll of every unit without contact to a leader (9.2, 9.3: ``rally``).
Step 7 (work: ``bridges.complete_work``) follows in ``sequence``, then step 8, smoke markers losing a turn
(:func:`end_phase_smoke`, reading ``Data.smoke`` through :func:`smoke_markers`), step 9, hiding again as the
owners choose (13.2 P, ``hiding.py``), then control and victory (15.9).
"""

from __future__ import annotations

from typing import Any

from engine.hexgrid import Hex
from engine.rules import Transition
from engine.state import GameState, Unit

from . import fires, sheets
from .attack import mount_label, roll_morale, unit_morale
from .damage import burning_damage, effects
from .data import Tables
from .fire import jam_cleared
from .model import data, status
from .morale import damage_trigger, may_rally
from .rally import leader_contact_rolls

__all__ = ["SMOKE_FIELD", "end_phase_events", "end_phase_smoke", "smoke_markers"]


def _on_map(st: GameState) -> list[Unit]:
    return [u for u in sorted(st.units.values(), key=lambda u: u.id) if u.hex is not None and not status(u).destroyed]


def end_phase_events(tr: Transition, tables: Tables) -> None:
    """Steps 2–6 of the End Phase (3.2 Phase 4), in order."""
    _burning(tr, tables)
    fires.burning_smoke(tr, tables)  # step 2: smoke in the hex of each burning vehicle (8.5)
    leader_contact_rolls(tr, tables, _leader_roll)  # step 3: the leader-contact roll (9.2, 9.3)
    _rally(tr, tables)
    _jams(tr, tables)
    _trailers(tr, tables)


SMOKE_FIELD = "smoke"
"""The field of ``model.Data`` the indirect-fire rules keep smoke markers in (7.1, 8.5): a mapping from a hex (any
key) to the turns of smoke left, as ``indirect.smoke_turns`` gives them."""


def smoke_markers(st: GameState) -> dict[Any, int] | None:
    """The smoke markers on the map (:data:`SMOKE_FIELD` of ``Data``), or None while no rule places smoke."""
    markers = getattr(data(st), SMOKE_FIELD, None)
    return markers if isinstance(markers, dict) else None


def end_phase_smoke(tr: Transition) -> None:
    """Step 8 (3.2 Phase 4): every smoke marker loses a turn; those at 0 are removed (7.1)."""
    st = tr.state
    d = data(st)
    for where in list(d.fires):  # burning wrecks go out with their smoke (8.5 P, fires.py)
        d.fires[where] -= 1
        if d.fires[where] <= 0:
            del d.fires[where]
    markers = smoke_markers(st)
    if not markers:
        return
    for where in sorted(markers, key=str):
        markers[where] -= 1
        if markers[where] <= 0:
            del markers[where]
            label = st.board.label(where) if isinstance(where, Hex) else str(where)
            tr.emit("smoke", f"The smoke in {label} clears (rule 7.1)")


def _leader_roll(tr: Transition, tables: Tables, unit: Unit) -> None:
    roll_morale(tr, tables, unit, "leader_contact")  # 9.3: a cause of its own, once a turn


def _burning(tr: Transition, tables: Tables) -> None:
    """Steps 2 and 3: each burning vehicle takes 1 damage (8.5 P), then rolls morale for burning (9.3, 9.4 −4)."""
    st = tr.state
    for u in _on_map(st):
        s = status(u)
        sheet = tables.sheets[u.type]
        if not s.rows_hit or not effects(sheets.target(sheet, s.rows_hit)).burning:
            continue

        def roller(sides: int, count: int, purpose: str, uid: str = u.id) -> tuple[int, ...]:
            return tr.roll(sides, count, f"{uid} burns: {purpose}")

        before = sheets.target(sheet, s.rows_hit)
        hit = burning_damage(before, roller)
        rows = hit.allocation.rows
        s.rows_hit = sorted(set(s.rows_hit) | set(rows))
        after = sheets.target(sheet, s.rows_hit)
        u.steps = max(0, after.possible_damage - after.damage_taken)
        where = f"row {', '.join(map(str, rows))} hit" if rows else "no row left to hit"
        tr.emit("damage", f"{u.id} burns: 1 damage, {where} (rule 8.5)", unit=u.id)
        if effects(after).destroyed:
            fires.wreck(tr, tables, u, u.hex)  # its smoke and fire stay 3 turns (8.5 P)
            s.destroyed, u.hex = True, None
            tr.emit("destroyed", f"{u.id} burns out and is destroyed (rule 8.5)", unit=u.id)
            continue
        roll_morale(tr, tables, u, "burning")  # burning is a cause by itself (9.3)
        if not s.destroyed and damage_trigger(after.possible_damage, after.damage_taken):
            roll_morale(tr, tables, u)  # and the damage leaving it at 50 % or more another (9.3)


def _rally(tr: Transition, tables: Tables) -> None:
    """Step 4 (9.5): a unit shaken in an earlier turn rolls morale; a success restores it (a failure keeps it
    shaken, INTERP: a rally roll does not dissolve)."""
    st = tr.state
    for u in _on_map(st):
        s = status(u)
        if not s.shaken or not may_rally(s.shaken_turn, st.turn):
            continue
        m = unit_morale(st, tables, u)  # only its value and terms: a rally roll does not dissolve
        terms = " ".join(str(x) for x in m.modifiers)
        a, b = tr.roll(10, 2, f"rally of {u.id}: {terms}", target=m.value, compare="at_most")
        if a + b <= m.value:
            s.shaken = False
            tr.emit("rally", f"{u.id} rolls {a + b} against {m.value} and rallies (rule 9.5)", unit=u.id)
        else:
            tr.emit("rally", f"{u.id} rolls {a + b} against {m.value} and stays shaken (rule 9.5)", unit=u.id)


def _jams(tr: Transition, tables: Tables) -> None:
    """Step 5 (6.6 P): a weapon jammed in turn N is cleared in the End Phase of turn N + 1."""
    st = tr.state
    for u in sorted(st.units.values(), key=lambda u: u.id):
        s = status(u)
        for mount in list(s.jammed):
            if jam_cleared(s.jam_turns.get(str(mount), st.turn), st.turn):
                s.jammed.remove(mount)
                s.jam_turns.pop(str(mount), None)
                label = mount_label(tables.sheets[u.type], mount)
                tr.emit("jam", f"The {label} of {u.id} is cleared (rule 6.6)", unit=u.id)
        for key, turns in list(s.pool_jams.items()):  # one weapon of a pool (6.6, 11.3)
            left = [t for t in turns if not jam_cleared(t, st.turn)]
            if len(left) < len(turns):
                weapon = tables.sheets[u.type].mounts[int(key)].weapon
                tr.emit("jam", f"{len(turns) - len(left)} {weapon} of {u.id} cleared (rule 6.6)", unit=u.id)
            if left:
                s.pool_jams[key] = left
            else:
                del s.pool_jams[key]


def _trailers(tr: Transition, tables: Tables) -> None:
    """Step 6 (8.5): a unit whose ammunition trailer was hit has no ammunition left."""
    st = tr.state
    for u in _on_map(st):
        s = status(u)
        sheet = tables.sheets[u.type]
        if not s.rows_hit or not effects(sheets.target(sheet, s.rows_hit)).ammo_trailer:
            continue
        full = {f"{i}.{k}": n for i, m in enumerate(sheet.mounts) for k, n in m.ammo.items()}
        if s.spent != full:
            s.spent = full
            tr.emit("ammunition", f"{u.id} has lost its ammunition trailer: no rounds left (rule 8.5)", unit=u.id)
