"""Provides the sustained-fire lines of 11.6 as an interrupt during movement (3.2 Phase 2, interrupts, step 2: after
mines and wire, before the sighting checks and opportunity fire).

A heavy MG that laid a sustained-fire line in 3b (``options.py``: ``Status.line``) keeps it until its next
activation; any unit that moves into or through it meanwhile is attacked the same way (11.6): an enemy mover the
MG has not sighted may be sighted first by the usual rules (6.1; unsighted, it is not attacked), a friendly one is
attacked too; the attack is a normal hit roll at the range of its hex, no burst, against the mover's die as it
stands (5), one hit plus one per point above the TN, a second roll when the line is doubled (``fire.sustained_attack``
through ``options.line_aim``). A unit moving through several hexes of one line is attacked once per activation
(11.6 P). Results apply at once (3.2): a mover destroyed leaves the map, a morale roll its damage causes is made at
once (9.3), and a mover destroyed, immobilised or shaken stops (``opportunity.stopped``). A jam ends the line (11.6
P). The rules shots were spent when the line was laid (11.6: 30 a turn), so the interrupt spends none.
"""

from __future__ import annotations

from engine.rules import Transition
from engine.state import Unit

from . import opportunity, sighting
from .attack import Aim
from .data import Tables
from .model import status
from .movement import Refused
from .options import line_aim, line_covers, line_volley

__all__ = ["on_enter"]


def on_enter(tr: Transition, tables: Tables, mover: Unit) -> str | None:
    """The interrupt of 3.2 step 2 when ``mover`` has entered its hex: every sustained-fire line covering it attacks
    it (once per line and activation). Why its activation ends (destroyed, immobilised, shaken), or None."""
    st = tr.state
    if mover.hex is None or status(mover).destroyed:
        return None
    struck = False
    for mg in sorted(st.units.values(), key=lambda u: u.id):
        if mg.id == mover.id or mover.hex is None or not line_covers(st, mg, mover.hex):
            continue
        key = f"{mg.id}@{st.turn}"
        ms = status(mover)
        if key in ms.line_hits:  # 11.6 P: once per activation (a unit is activated once a turn)
            continue
        if mg.side != mover.side and mover.id not in status(mg).sighted and not sighting.check(tr, tables, mg, mover):
            continue
        got = line_aim(st, tables, mg, mover)
        if isinstance(got, Refused):
            continue
        ms.line_hits = [k for k in ms.line_hits if k.endswith(f"@{st.turn}")] + [key]
        _strike(tr, tables, mg, mover, got)
        struck = True
        if status(mover).destroyed:
            break
    if not struck:
        return None
    opportunity.results_now(tr, tables, mover)
    return opportunity.stopped(st, tables, mover)


def _strike(tr: Transition, tables: Tables, mg: Unit, mover: Unit, aim: Aim) -> None:
    """The line's attack on the mover (11.6): the rolls, the hits, a jam ending the line, the damage."""
    line_volley(
        tr,
        tables,
        mg,
        mover,
        aim,
        status(mg).line_doubled,
        rolled=f"{mg.id}'s sustained fire at {mover.id}, moving into its line",
        said=f"{mover.id} moves into the sustained-fire line of {mg.id}",
        announce_end=True,
    )
