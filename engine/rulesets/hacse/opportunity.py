"""Provides opportunity fire (digest 6.7, 3.2 Phase 2 "interrupts during movement", step 3).

When a moving unit enters a hex (or the map), every enemy unit makes a sighting check of it (6.1 P,
``sighting.checks_of``); then, if one of the units **eligible** for opportunity fire — activated this turn as
``stand`` (it spent no MP), not yet fired this turn, on the map and able to fire — has a shot at it (sighted, in arc, in
range, clear line, ammunition: ``attack.aim``), the other side is asked (3.2 [PROPOSED] offer): it fires with one
unit at a time — all the weapons it chooses, at the mover, with the mover's die as it stands (5) — or holds. A
unit that fired on opportunity counts as having fired this turn (no fire in 3b). ``hold`` ends the firing unit's
fire; with none firing it closes the offer, and the move goes on — or ends, if the mover was destroyed,
immobilised or shaken (3.2: results apply at once; morale rolls of damage in the Movement Phase are made at once,
9.3). Units not picked stay eligible for later hexes and later movers.

Readings (README): a hidden unit that fires on opportunity is revealed, and every enemy unit checks it with the
"enemy fired" modifier (13.2); sustained-fire lines (step 2) come before the offer (``lines.py``).
"""

from __future__ import annotations

from engine.actions import Action
from engine.rules import Transition
from engine.state import GameState, Unit

from . import attack, sheets, sighting
from .damage import effects
from .data import Tables
from .model import data, status
from .movement import Refused

__all__ = ["actions", "apply", "eligible", "offer", "refusal", "stopped"]


def eligible(st: GameState, tables: Tables, unit: Unit) -> bool:
    """May fire on opportunity now (6.7): activated this turn spending no MP, not fired this turn, on the map, not
    carried, with weapons, not out of action (8.5)."""
    s = status(unit)
    if not s.activated or not s.stood or s.opp_fired or unit.hex is None or s.destroyed:
        return False
    if s.embarked_in or s.towed_by or s.work:
        return False
    sheet = tables.sheets[unit.type]
    return bool(sheet.mounts) and not (s.rows_hit and effects(sheets.target(sheet, s.rows_hit)).out_of_action)


def _shots(st: GameState, tables: Tables, firer: Unit, mover: Unit) -> list[Action]:
    sheet = tables.sheets[firer.type]
    return [
        Action("fire", (firer.id, mover.id, attack.mount_label(sheet, i)))
        for i in range(len(sheet.mounts))
        if not isinstance(attack.aim(st, tables, firer, mover.id, attack.mount_label(sheet, i)), Refused)
    ]


def _firers(st: GameState, tables: Tables, mover: Unit) -> list[Unit]:
    return [
        u for u in sorted(st.units.values(), key=lambda u: u.id) if u.side != mover.side and eligible(st, tables, u)
    ]


def offer(tr: Transition, tables: Tables, mover: Unit) -> bool:
    """After ``mover`` entered a hex: the sighting checks of the eligible enemy units, then the offer if one has a
    shot (True: the other side decides now)."""
    st = tr.state
    if mover.hex is None or status(mover).destroyed:
        return False
    sighting.checks_of(tr, tables, mover)  # step 3: every enemy unit checks the mover (6.1 P)
    firers = _firers(st, tables, mover)
    if not any(_shots(st, tables, u, mover) for u in firers):
        return False
    d = data(st)
    d.opp_mover, d.opp_firing = mover.id, None
    other = st.enemies_of(mover.side)[0]
    st.to_act = other
    tr.emit("opportunity", f"{other} may fire on opportunity at {mover.id} (rule 6.7)", unit=mover.id)
    return True


def actions(st: GameState, tables: Tables) -> list[Action]:
    """The offer's actions: the shots of the unit firing (or of every eligible unit) at the mover, and ``hold``."""
    d = data(st)
    mover = st.units[d.opp_mover or ""]
    units = [st.units[d.opp_firing]] if d.opp_firing is not None else _firers(st, tables, mover)
    out = [a for u in units for a in _shots(st, tables, u, mover)]
    return [*out, Action("hold", ())]


def refusal(st: GameState, tables: Tables, verb: str, args: tuple[str, ...]) -> Refused | None:
    """Why an action may not be played while the offer is open (6.7), or None."""
    d = data(st)
    if verb == "hold":
        return None
    if verb != "fire":
        return Refused(f"Cannot {verb}: {st.to_act} is asked about opportunity fire at {d.opp_mover} first", "6.7")
    uid, tid, label = args
    firer = st.units.get(uid)
    if firer is None or firer.side != st.to_act:
        return Refused(f"Cannot fire: {uid} is not a unit of {st.to_act}", "6.7")
    if tid != d.opp_mover:
        return Refused(f"Cannot fire: on opportunity a unit fires only at the unit moving, {d.opp_mover}", "6.7")
    if d.opp_firing is not None and d.opp_firing != uid:
        return Refused(f"Cannot fire: {d.opp_firing} is firing on opportunity; hold its fire first", "6.7")
    if d.opp_firing is None and not eligible(st, tables, firer):
        return Refused(
            f"Cannot fire: {uid} may not fire on opportunity (it must have stood this turn, spending no MP, and "
            "not have fired)",
            "6.7",
        )
    got = attack.aim(st, tables, firer, tid, label)
    return got if isinstance(got, Refused) else None


def apply(tr: Transition, tables: Tables, verb: str, args: tuple[str, ...]) -> bool:
    """Play ``fire`` or ``hold`` in the offer; True when the offer is closed (the mover's side acts again)."""
    st = tr.state
    d = data(st)
    mover = st.units[d.opp_mover or ""]
    if verb == "fire":
        firer = st.units[args[0]]
        ready = attack.aim(st, tables, firer, args[1], args[2])
        assert not isinstance(ready, Refused)
        fs = status(firer)
        d.opp_firing, fs.opp_fired = firer.id, True
        hidden = sighting.firing(tr, firer)  # 13.2: a hidden unit that fires is revealed
        attack.shoot(tr, tables, firer, mover.id, args[2], ready)
        if hidden:
            sighting.checks_of(tr, tables, firer, fired=True)
        results_now(tr, tables, mover)
        # It may fire on with another weapon, unless it dissolved making this shot (infantry firing at armour next to
        # it rolls morale first, 9.3, 9.5: it leaves the game).
        if not status(mover).destroyed and not fs.destroyed and _shots(st, tables, firer, mover):
            return False
        d.opp_firing = None  # it has nothing left to fire at the mover, or is gone
    elif d.opp_firing is not None:
        tr.emit("hold", f"{d.opp_firing} holds its fire (rule 6.7)", unit=d.opp_firing)
        d.opp_firing = None
    else:
        return _close(tr, tables, mover, "holds its fire")
    if status(mover).destroyed or not any(_shots(st, tables, u, mover) for u in _firers(st, tables, mover)):
        return _close(tr, tables, mover, "has no more opportunity fire")
    return False


def results_now(tr: Transition, tables: Tables, mover: Unit) -> None:
    """Results apply at once in the Movement Phase (3.2): a destroyed mover leaves the map, a morale roll it owes
    is made now (9.3); the sustained-fire lines of ``lines.py`` use it too."""
    s = status(mover)
    if s.destroyed and mover.hex is not None:
        attack.leave(tr, mover, tables)
    elif s.morale_due:
        attack.roll_morale(tr, tables, mover)
        if s.destroyed and mover.hex is not None:  # dissolved (9.5)
            attack.leave(tr, mover, tables)
    s.morale_due = []


def _close(tr: Transition, tables: Tables, mover: Unit, why: str) -> bool:
    st = tr.state
    d = data(st)
    tr.emit("opportunity", f"{st.to_act} {why}; {mover.id} goes on (rule 6.7)", unit=mover.id)
    d.opp_mover = d.opp_firing = None
    st.to_act = mover.side
    return True


def stopped(st: GameState, tables: Tables, mover: Unit) -> str | None:
    """Why the mover's activation ends after the offer (3.2: destroyed, immobilised or shaken), or None."""
    s = status(mover)
    if s.destroyed or mover.hex is None:
        return "is out of the game"
    if s.shaken:
        return "is shaken and stops (rule 9.5)"
    if s.rows_hit and effects(sheets.target(tables.sheets[mover.type], s.rows_hit)).immobilised:
        return "is immobilised and stops (rule 8.5)"
    return None
