"""Provides minefields exploding under units (9.6, 9.7, 12.4) as frames: the mines' fire test and its hits, which
may wait for the owner's decisions about a transport's passengers and cargo (4.6, 9.16, 15.2)."""

from __future__ import annotations

from collections.abc import Mapping

from ..combat import roll_attack
from ..frames import Attack, Hit, MineAttack, MineEntry
from ..gamedata import data
from ..model import card
from ..records import status
from .common import reveal_minefield
from .machine import Handler, Run

__all__ = ["HANDLERS", "run_mine_attack", "run_mine_entry"]


def run_mine_entry(x: Run, f: MineEntry) -> None:
    """9.7: a unit entering a mined hex stops; the card is revealed; the mines explode unless it is an engineer."""
    u = x.st.units[f.unit]
    assert u.hex is not None
    label = x.st.board.label(u.hex)
    x.tr.emit("mines", f"{u.id} enters a minefield at {label} and stops (rule 9.7)", unit=u.id)
    x.done(f)
    if reveal_minefield(x.tr, u.hex) and not card(x.rs.tables, u).has("engineer"):
        x.push(MineAttack(u.id, u.hex))


def run_mine_attack(x: Run, f: MineAttack) -> None:
    """9.7: the mines make a normal fire test with the card's values for the unit's type (12.4); a unit that loses
    size and survives tests its bravery in the next bravery step (8.1)."""
    st, tr = x.st, x.tr
    u = st.units[f.unit]
    if f.before >= 0:
        if f.before > u.steps and u.steps > 0:
            status(u).pending = True
        x.done(f)
        return
    t = x.rs.tables
    field = data(st).minefields[f.hex]
    label = st.board.label(f.hex)
    values = t.mines.get(field.kind, {}).get(t.target_row(card(t, u).type))
    if not values:
        tr.emit("mines", f"the {field.kind.replace('_', '-')} mines at {label} have no effect on {u.id} (rule 9.6)")
        x.done(f)
        return
    attack = Attack("mines", u.id, int(values[0]), int(values[1]), f"mines at {label} explode under {u.id} (rule 9.7)")
    got, _ = roll_attack(tr, t, attack)
    if not got:
        x.done(f)
        return
    f.before = u.steps
    x.push(Hit(u.id, got, "mines"))


HANDLERS: Mapping[type, Handler] = {MineEntry: run_mine_entry, MineAttack: run_mine_attack}
"""The frames of this module and their handlers."""
